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

/// The store's snapshot of a game's head (ARCHITECTURE.md, invariant 1):
/// restored at every third position, it is the replayed game (state hash,
/// prompt, the engine's fields), and the next move does the same to both;
/// in fixed order, in a simultaneous sealed round, and with cards.
#[test]
fn a_game_restored_from_its_snapshot_is_the_replayed_game() {
    let mut acted = 0;
    for (o, seed) in [
        (opts(&[("turns", "6")]), 1),
        (opts(&[("turns", "4"), ("order", "simultaneous")]), 2),
        (
            opts(&[
                ("turns", "5"),
                ("deck.main", "a,b,c,d,e,f,g"),
                ("hand.main", "2"),
            ]),
            3,
        ),
        (opts(&[("turns", "4"), ("secrets", "on")]), 4),
    ] {
        let (checked, next) = selfplay::check_snapshots(
            Arc::new(Freeform::new()),
            "open",
            &o,
            seed,
            3,
            &Default::default(),
        )
        .unwrap_or_else(|e| panic!("{o:?}: {e}"));
        assert!(checked > 2, "{o:?}: {checked} positions checked");
        acted += next;
    }
    assert!(acted > 8, "{acted} next actions given");
}
