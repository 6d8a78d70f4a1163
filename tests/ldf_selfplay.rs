//! Random games of Lest Darkness Fall through the real engine: signed moves,
//! verifiable dice, the ruleset's invariants after every entry, and a verified
//! replay of every record (see `core::selfplay`).

use std::collections::BTreeMap;
use std::sync::Arc;
use umpire::core::selfplay::{self, SelfPlayConfig};
use umpire::games::ldf::Ldf;

fn opts(v: &[(&str, &str)]) -> BTreeMap<String, String> {
    v.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn play(o: &BTreeMap<String, String>, games: u32, seed: u64) {
    // Version 10 asks more questions (N2, N4, N5), each an entry more.
    let config = SelfPlayConfig {
        max_entries: 5_000,
        ..SelfPlayConfig::default()
    };
    let s = selfplay::run_with(Arc::new(Ldf::new()), "campaign", o, games, seed, &config)
        .unwrap_or_else(|e| {
            // The whole failing record, for `umpire show` or a replay by hand.
            let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
            let file = dir.join(format!("ldf-selfplay-{seed}.txt"));
            let _ = std::fs::write(&file, &e.record);
            let tail: Vec<&str> = e.record.lines().rev().take(4).collect();
            panic!(
                "{e}\nrecord in {}; last lines:\n{}",
                file.display(),
                tail.join("\n")
            )
        });
    assert_eq!(s.games, games);
    // 4.5: no draws; every game ends with a winner and the rule that decided it.
    let won: u32 = s
        .results
        .iter()
        .filter(|(k, _)| *k == "roman" || *k == "gp")
        .map(|(_, v)| v)
        .sum();
    assert_eq!(won, games, "{:?}", s.results);
    assert!(
        s.outcomes.iter().all(|o| o.contains("(4.")),
        "{:?}",
        s.outcomes
    );
    assert!(s.rolls > 0);
}

#[test]
fn campaign_games_with_default_rulings_finish_and_replay() {
    play(&opts(&[]), 3, 1);
}

#[test]
fn campaign_games_with_the_other_rulings_finish_and_replay() {
    play(
        &opts(&[
            ("gallic_turn", "4"),
            ("natural_six", "no"),
            ("demob_surplus_tp", "0"),
        ]),
        3,
        2,
    );
}

#[test]
fn the_same_seed_plays_the_same_games() {
    let a = selfplay::run(Arc::new(Ldf::new()), "campaign", &opts(&[]), 1, 7).unwrap();
    let b = selfplay::run(Arc::new(Ldf::new()), "campaign", &opts(&[]), 1, 7).unwrap();
    assert_eq!(a, b);
}
