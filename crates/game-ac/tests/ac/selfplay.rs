//! Asia Crossroads: random legal games through the real engine (signed moves,
//! hidden dice streams, per-side records), the ruleset's invariants after
//! every entry and a verified replay of every record (see `core::selfplay`).
//! To reproduce a failure: `umpire selfplay ac --scenario s1 --seed N`.
//! The long run (see docs/dev/selfplay.md): `umpire selfplay ac --games 200 --seed 1`.

use std::collections::BTreeMap;
use std::sync::Arc;
use umpire_ac::Ac;
use umpire_core::game::Game;
use umpire_core::selfplay::{self, SelfPlayConfig, SelfPlayStats};

fn opts(v: &[(&str, &str)]) -> BTreeMap<String, String> {
    v.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn play(
    scenario: &str,
    o: &BTreeMap<String, String>,
    games: u32,
    seed: u64,
    config: &SelfPlayConfig,
) -> SelfPlayStats {
    let s = selfplay::run_with(Arc::new(Ac::new()), scenario, o, games, seed, config)
        .unwrap_or_else(|e| {
            let tail: Vec<&str> = e.record.lines().rev().take(5).collect();
            panic!("{e}\nlast record lines:\n{}", tail.join("\n"))
        });
    assert_eq!(s.games, games);
    // 25.52: every game ends with a level of victory.
    assert!(
        s.outcomes
            .iter()
            .all(|o| o.contains("(25.52)") && (o.contains("Draw") || o.contains("Victory"))),
        "{:?}",
        s.outcomes
    );
    assert_eq!(
        s.not_carried_out, 0,
        "legal() offered orders the engine could not carry out"
    );
    assert!(s.rolls > 0);
    s
}

/// One seeded game (`number` labels a failure), played to its end and verified.
fn seeded_game(
    scenario: &str,
    o: &BTreeMap<String, String>,
    number: u32,
    seed: u64,
    config: &SelfPlayConfig,
) -> Game {
    selfplay::random_game(Arc::new(Ac::new()), scenario, o, number, seed, config)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

#[test]
fn scenario_1_games() {
    play("s1", &opts(&[]), 4, 1, &SelfPlayConfig::default());
}

#[test]
fn scenario_2_games_with_ultimatums_and_staff_work() {
    play(
        "s2",
        &opts(&[
            ("ultimatums", "on"),
            ("staff_work", "on"),
            ("levy", "invasion"),
        ]),
        4,
        2,
        &SelfPlayConfig::default(),
    );
}

/// Scenario 3 from the scenario 2 set-up runs nine turns, to 1900-04 (26.0 S3 1.0).
#[test]
fn scenario_3_games_with_standing_orders() {
    let standing = vec![
        vec![
            "counter: best pounds max".to_string(),
            "withdraw: always".into(),
            "captured: execute".into(),
        ],
        vec![
            "counter: none".to_string(),
            "initiative: second".into(),
            "supply: none".into(),
        ],
    ];
    let c = SelfPlayConfig {
        standing,
        ..Default::default()
    };
    play(
        "s3",
        &opts(&[("base", "s2"), ("ultimatums", "on")]),
        2,
        3,
        &c,
    );
}

/// The optional rules of 27.0-32.0 together (telegraph, massacre in place of
/// 20.5, discoveries with the stand-in results), on scenario 1.
#[test]
fn scenario_1_games_with_every_optional_rule() {
    play(
        "s1",
        &opts(&[
            ("ultimatums", "on"),
            ("staff_work", "on"),
            ("forced_march", "on"),
            ("telegraph", "on"),
            ("massacre", "on"),
            ("discoveries", "on"),
        ]),
        4,
        4,
        &SelfPlayConfig::default(),
    );
}

/// Self-play tries the newer orders (issue 8): the chosen set-up (26.0),
/// agreements (23.0), moves into and out of the home bases by water and
/// rail (19.11-19.14) and reorganization (18.0, in the economy round and in
/// a move); the full record, opened at the end, holds them.
#[test]
fn self_play_tries_set_ups_agreements_and_home_base_moves() {
    let mut found: BTreeMap<&str, u32> = BTreeMap::new();
    for (n, seed) in [(0u32, 11u64), (1, 12)] {
        let game = seeded_game("s1", &opts(&[]), n, seed, &SelfPlayConfig::default());
        let text = game.record().to_text();
        for w in [
            "place ",
            "propose ",
            "accept ",
            "decline ",
            "sea:",
            "rail:",
            "reorganize ",
        ] {
            *found.entry(w).or_insert(0) += text.matches(w).count() as u32;
        }
    }
    eprintln!("newer orders in 2 games: {found:?}");
    assert!(found["propose "] > 0, "{found:?}");
    assert!(found["accept "] + found["decline "] > 0, "{found:?}");
    assert!(found["place "] > 0, "{found:?}");
    assert!(found["reorganize "] > 0, "{found:?}");
}

/// Self-play reaches the home bases' railroads (19.14, 20.34: railroads
/// built), reversion to neutrality (5.5, 5.51: by cession, an `N`
/// negotiation or Native Unrest) and the event questions a player who
/// asked to be asked must answer (N13: `choose`), in scenario 2, whose
/// railroads are there from its first turn (20.34).
#[test]
fn self_play_reaches_the_telegraph_base_railroads_reversion_and_event_questions() {
    let config = SelfPlayConfig {
        standing: vec![
            vec!["uprising: ask".to_string(), "unrest: ask".into()],
            vec!["unrest: ask".to_string(), "reversion: AF kabul".into()],
        ],
        ..Default::default()
    };
    let mut found: BTreeMap<&str, u32> = BTreeMap::new();
    // Seeds where each comes up (version 8's `legal()` offers more).
    for (n, seed) in [(0u32, 26u64), (1, 23)] {
        let game = seeded_game("s2", &opts(&[("telegraph", "on")]), n, seed, &config);
        let text = game.record().to_text();
        for w in [
            " pick:",
            " rail:",
            "build railroad",
            "to neutral",
            "choose ",
        ] {
            *found.entry(w).or_insert(0) += text.matches(w).count() as u32;
        }
    }
    eprintln!("in 2 games of scenario 2: {found:?}");
    for w in ["build railroad", "to neutral", "choose "] {
        assert!(found[w] > 0, "{w:?} never came up: {found:?}");
    }
}

/// Self-play moves along railroads (13.6: `rail:`) and picks units up by
/// telegraph (28.0: `pick:`): `legal()` offers railroad lines where the
/// regulars stand (20.34), a unit sent one square on to extend one, rail
/// moves for stacks on a line and pick-ups of units waiting on it. Counted
/// from the full records of four seeded scenario-2 games with the telegraph.
#[test]
fn self_play_moves_by_rail_and_picks_up_by_telegraph() {
    let mut found: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in [30u64, 31, 32, 33] {
        let game = seeded_game(
            "s2",
            &opts(&[("telegraph", "on")]),
            0,
            seed,
            &SelfPlayConfig::default(),
        );
        let text = game.record().to_text();
        for w in [" rail:", " pick:", "build railroad"] {
            *found.entry(w).or_insert(0) += text.matches(w).count();
        }
    }
    eprintln!("in 4 games of scenario 2 with the telegraph: {found:?}");
    for w in [" rail:", " pick:", "build railroad"] {
        assert!(found[w] > 0, "{w:?} never came up: {found:?}");
    }
}

/// Every standing-order sample self-play may file (N1-N14) is accepted in
/// each scenario's opening, by either side, and between them the samples
/// give every standing order a non-default answer.
#[test]
fn every_standing_sample_is_accepted_and_every_choice_varies() {
    use umpire_core::movefile::SourceLine;
    use umpire_core::ruleset::{DynRuleset, Setup, Side};
    let rs: Arc<dyn DynRuleset> = Arc::new(Ac::new());
    let mut seen = String::new();
    for scenario in ["s1", "s2"] {
        let setup = Setup {
            scenario: scenario.into(),
            options: opts(&[]),
            sides: vec!["british".into(), "russian".into()],
        };
        let mut st = rs.setup(&setup).unwrap_or_else(|e| panic!("{e}"));
        for side in [Side(0), Side(1)] {
            let samples = rs.standing_samples(&st, side);
            assert!(samples.len() >= 4, "{samples:?}");
            for lines in samples {
                let src: Vec<SourceLine> = (1..)
                    .zip(&lines)
                    .map(|(line, text)| SourceLine {
                        line,
                        column: 3,
                        text: text.clone(),
                    })
                    .collect();
                rs.set_standing(&mut st, side, &src)
                    .unwrap_or_else(|e| panic!("{scenario} {lines:?}: {e:?}"));
                seen.push_str(&rs.standing(&st, side).join("\n"));
                seen.push('\n');
            }
        }
    }
    for want in [
        "counter: none",
        "pounds max",
        "pounds 2",
        "counter-ultimatum: none",
        "withdraw: always",
        "initiative: second",
        "supply: none",
        "captured: execute",
        "uprising: ask",
        "unrest: ask",
        "uprising: ",
        "=",
        "reversion: ",
    ] {
        assert!(seen.contains(want), "no sample gives {want:?}");
    }
}

/// Self-play given no standing orders files one of the ruleset's samples for
/// each side (`standing_samples`), and they take effect: in these seeded
/// games a non-default choice shows in the reports, a defender withdrawing
/// before combat (14.5, N3) or a captured agent executed (16.42(2), N14).
#[test]
fn self_play_files_varied_standing_orders_and_they_take_effect() {
    let mut found: BTreeMap<&str, usize> = BTreeMap::new();
    for (n, seed) in [(0u32, 40u64), (1, 41), (2, 42), (3, 43)] {
        let game = seeded_game("s1", &opts(&[]), n, seed, &SelfPlayConfig::default());
        let events: Vec<String> = (0..=game.record().len() as u64)
            .filter_map(|seq| game.report(seq))
            .flat_map(|r| r.events().map(|e| e.text.clone()))
            .collect();
        let set = events
            .iter()
            .filter(|t| t.starts_with("Your standing orders:"))
            .count();
        assert_eq!(set, 2, "game {n}: both sides file standing orders");
        for w in [
            "withdraw before combat (14.5)",
            "captured and executed",
            "Your standing orders: counter: none",
            "unrest: ask",
        ] {
            *found.entry(w).or_insert(0) += events.iter().filter(|t| t.contains(w)).count();
        }
    }
    eprintln!("in 4 games of scenario 1: {found:?}");
    assert!(
        found["withdraw before combat (14.5)"] + found["captured and executed"] > 0,
        "no non-default standing order took effect: {found:?}"
    );
}

/// The store's snapshot of a game's head (ARCHITECTURE.md, invariant 1):
/// restored at every fifth position of self-played games, it is the
/// replayed game (state hash, prompt, the engine's fields), and the next
/// move, sealed economy plan or default does the same to both.
#[test]
fn a_game_restored_from_its_snapshot_is_the_replayed_game() {
    let mut acted = 0;
    for (scenario, o, seed) in [
        ("s1", opts(&[]), 3),
        ("s2", opts(&[("setup", "sealed")]), 5),
    ] {
        let (checked, next) = selfplay::check_snapshots(
            Arc::new(Ac::new()),
            scenario,
            &o,
            seed,
            5,
            &SelfPlayConfig::default(),
        )
        .unwrap_or_else(|e| panic!("{scenario} seed {seed}: {e}"));
        assert!(checked > 10, "{scenario}: {checked} positions checked");
        acted += next;
    }
    assert!(acted > 10, "{acted} next actions given");
}
