//! No order grammar may panic on any input: the regressions the fuzz
//! targets (`fuzz/fuzz_targets/orders_*.rs`) found, each read by its
//! ruleset's parser as the engine reads a move, and the fuzz harness itself
//! (`umpire::core::grammar_fuzz`) over a short self-played game.

use umpire_testkit as common;

use umpire::core::grammar_fuzz::{Grammar, Walk};
use umpire::core::movefile::SourceLine;
use umpire::core::ruleset::Side;

fn lines(text: &[&str]) -> Vec<SourceLine> {
    text.iter()
        .enumerate()
        .map(|(i, t)| SourceLine {
            line: i + 5,
            column: 3,
            text: t.to_string(),
        })
        .collect()
}

/// Every error `parse_all` gives for `orders` from the side asked first.
fn errors(ruleset: &str, scenario: &str, sides: &[&str], orders: &[&str]) -> Vec<String> {
    let t = common::table(ruleset, scenario, sides, &[]);
    let g = &t.game;
    let side = g.waiting().next().map_or(Side(0), |a| a.side);
    let rs = g.ruleset();
    let _ = rs.parse(g.state(), side, &lines(orders));
    match rs.parse_all(g.state(), side, &lines(orders)) {
        Ok(_) => Vec::new(),
        Err(e) => e.iter().map(ToString::to_string).collect(),
    }
}

// 3.3.2: a March's `move` line names how many pieces go where; bare, it is
// refused naming its line (the parser indexed an empty list).
#[test]
fn adp_a_bare_move_line_is_refused_not_a_panic() {
    let e = errors(
        "adp",
        "standin-2p-np",
        &["coalition", "taliban"],
        &["march", "move"],
    );
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("line 6"), "{e:?}");
    assert!(e[0].contains("move N"), "{e:?}");
    assert!(e[0].contains("(3."), "cites the Operation's rule: {e:?}");
}

#[test]
fn the_fuzz_harness_reads_its_own_seeds_and_odd_inputs() {
    let rs = umpire::games::find("freeform").unwrap();
    let g = Grammar::play(
        rs,
        &[
            Walk::new("open", &[], 1, 60),
            Walk::new(
                "open",
                &[("order", "simultaneous"), ("secrets", "on")],
                2,
                60,
            ),
        ],
    )
    .unwrap();
    assert!(g.len() > 2, "{} positions", g.len());
    let seeds = g.seeds();
    assert!(!seeds.is_empty());
    for (_, s) in &seeds {
        g.run(s);
    }
    for odd in [
        &b""[..],
        b"\x00",
        b"\xff\xff orders:\n  roll 1d6\nstanding:\n  x\n",
        b"\x01\x01orders:\n  roll 99999d99999\n",
        b"\x02\x00\xc3\x28",
    ] {
        g.run(odd);
    }
}

// The harness reaches what a player's mail reaches: the bare `move` line
// read at every position of a short A Distant Plain game, for every side.
#[test]
fn the_fuzz_harness_reads_adp_moves_at_every_position() {
    let rs = umpire::games::find("adp").unwrap();
    let g = Grammar::play(rs, &[Walk::new("standin", &[], 1, 150)]).unwrap();
    for at in 0..g.len() {
        for side in 0..4 {
            for body in [
                "orders:\n  march\n  move\n",
                "orders:\n  sweep\n  move\n",
                "orders:\n  event unshaded\n  march\n  move\n",
            ] {
                g.run(&Grammar::input(at as u8, side, body));
            }
        }
    }
}
