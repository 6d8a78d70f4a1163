//! Random freeform games through the real engine: signed moves, verifiable
//! dice, and a verified replay of every record (see `core::selfplay`).

use std::collections::BTreeMap;
use std::sync::Arc;
use umpire_core::selfplay;
use umpire_freeform::Freeform;

fn opts(v: &[(&str, &str)]) -> BTreeMap<String, String> {
    v.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn freeform_games_with_a_turn_limit_finish_and_replay() {
    let s = selfplay::run(
        Arc::new(Freeform::new()),
        "open",
        &opts(&[("turns", "3")]),
        10,
        42,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.games, 10);
    assert_eq!(s.results.get("draw"), Some(&10), "{s:?}");
    assert!(s.rolls > 0);
    let again = selfplay::run(
        Arc::new(Freeform::new()),
        "open",
        &opts(&[("turns", "3")]),
        10,
        42,
    )
    .unwrap();
    assert_eq!(s, again, "the same seed plays the same games");
}
