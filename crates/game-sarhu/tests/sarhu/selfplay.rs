//! Random games through the real engine: signed moves, verifiable dice,
//! defaults for decisions, the ruleset's invariants after every entry, and a
//! verified replay of every record (see `core::selfplay`).
//!
//! To reproduce a failure, run the ignored `replay_one` test with the game
//! number and seed the failure names: `NUM=25 SEED=123 cargo test -p
//! umpire-sarhu selfplay::replay_one -- --ignored --nocapture`.

use std::collections::BTreeMap;
use std::sync::Arc;
use umpire_core::selfplay::{self, SelfPlayConfig, SelfPlayStats};
use umpire_sarhu::Sarhu;

fn opts(v: &[(&str, &str)]) -> BTreeMap<String, String> {
    v.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn play(
    o: &BTreeMap<String, String>,
    games: u32,
    seed: u64,
    config: &SelfPlayConfig,
) -> SelfPlayStats {
    let s = selfplay::run_with(Arc::new(Sarhu::new()), "historical", o, games, seed, config)
        .unwrap_or_else(|e| {
            let tail: Vec<&str> = e.record.lines().rev().take(3).collect();
            panic!("{e}\nlast record lines:\n{}", tail.join("\n"))
        });
    assert_eq!(s.games, games);
    // 8.0: every game ends by turn 5 with a winner (five +1 markers: no VP tie).
    let won: u32 = s
        .results
        .iter()
        .filter(|(k, _)| *k == "ming" || *k == "jurchen")
        .map(|(_, v)| v)
        .sum();
    assert_eq!(won, games, "{:?}", s.results);
    assert!(
        s.outcomes
            .iter()
            .all(|o| o.contains("victory") && o.contains("8.0(")),
        "{:?}",
        s.outcomes
    );
    assert_eq!(
        s.not_carried_out, 0,
        "legal() offered orders the engine could not carry out"
    );
    s
}

// A few hundred games of the historical scenario with default rulings, in four
// tests so that they run in parallel.
#[test]
fn sarhu_historical_games_a() {
    play(&opts(&[]), 60, 1, &SelfPlayConfig::default());
}

#[test]
fn sarhu_historical_games_b() {
    play(&opts(&[]), 60, 2, &SelfPlayConfig::default());
}

#[test]
fn sarhu_historical_games_c() {
    let s = play(&opts(&[]), 60, 3, &SelfPlayConfig::default());
    assert!(
        s.results.len() == 2,
        "both sides win some random games: {:?}",
        s.results
    );
}

#[test]
fn sarhu_historical_games_d() {
    play(&opts(&[]), 60, 4, &SelfPlayConfig::default());
}

/// Both sides' standing orders ask every question (`ask`); two in five are
/// left to their default.
fn every_question_asked() -> SelfPlayConfig {
    let ask = vec![
        "losses: ask".to_string(),
        "rout: ask".into(),
        "displace: ask".into(),
        "initiative: ask".into(),
    ];
    SelfPlayConfig {
        standing: vec![ask.clone(), ask],
        default_percent: 40,
        ..Default::default()
    }
}

/// Every standing-order question asked (`ask`), answered at random or by default.
#[test]
fn sarhu_games_with_every_question_asked() {
    let s = play(&opts(&[]), 30, 5, &every_question_asked());
    assert!(s.defaults > 0, "some questions were left to the default");
}

/// The contested rulings' other readings (options) also play through.
#[test]
fn sarhu_games_with_every_option_flipped() {
    let a = opts(&[
        ("activation", "consecutive"),
        ("pass_unflips", "yes"),
        ("place_between", "yes"),
        ("retreat", "cascade"),
        ("variant", "szechwan"),
        ("contagion", "stop"),
    ]);
    let b = opts(&[
        ("prep_commands", "active"),
        ("entry", "only"),
        ("pass_stop", "action"),
        ("cavalry_mountain", "step"),
        ("mixed_fire", "yes"),
        ("woods_cavalry", "1"),
        ("disorganized", "whole"),
        ("retreat", "every_combat"),
    ]);
    let ask = SelfPlayConfig {
        standing: vec![
            vec!["losses: flip-first".into(), "rout: ask".into()],
            vec!["losses: ask".into()],
        ],
        ..Default::default()
    };
    play(&a, 20, 6, &ask);
    play(&b, 20, 7, &SelfPlayConfig::default());
}

/// The store's snapshot of a game's head (ARCHITECTURE.md, invariant 1):
/// restored at every fourth position of self-played games with every
/// question asked, it is the replayed game (state hash, prompt, the
/// engine's fields), and the next move or default does the same to both.
#[test]
fn a_game_restored_from_its_snapshot_is_the_replayed_game() {
    let c = every_question_asked();
    let mut acted = 0;
    for seed in [1, 2] {
        let (checked, next) = selfplay::check_snapshots(
            Arc::new(Sarhu::new()),
            "historical",
            &opts(&[]),
            seed,
            4,
            &c,
        )
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(checked > 5, "seed {seed}: {checked} positions checked");
        acted += next;
    }
    assert!(acted > 10, "{acted} next actions given");
}
