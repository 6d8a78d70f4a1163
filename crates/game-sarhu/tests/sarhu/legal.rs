//! `legal_moves` at positions of self-played games: every whole move it
//! lists reads, and each of its orders is carried out on a copy of the
//! position (seeded dice, as a game rolls), for every side asked.

use std::collections::BTreeMap;
use std::sync::Arc;
use umpire_core::dice::Dice;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{Ruleset, Side};
use umpire_core::selfplay::{self, SelfPlayConfig};
use umpire_sarhu::Sarhu;
use umpire_sarhu::legal::{EXAMPLE_WIDTH, reflow};
use umpire_sarhu::state::State;

/// Every `every`-th position a side is asked to act in, with the sides asked.
fn positions(seed: u64, every: usize) -> Vec<(State, Vec<Side>)> {
    let mut out = Vec::new();
    let mut n = 0usize;
    selfplay::walk(
        Arc::new(Sarhu::new()),
        "historical",
        &BTreeMap::new(),
        seed,
        &SelfPlayConfig::default(),
        &mut |g| {
            n += 1;
            if n % every == 1
                && let Some(st) = g.state().downcast_ref::<State>()
            {
                let sides = g.prompt().awaiting.iter().map(|a| a.side).collect();
                out.push((st.clone(), sides));
            }
        },
    )
    .unwrap_or_else(|e| panic!("{e}"));
    out
}

/// `text`'s lines as a move file's order lines, numbered from 1.
fn source_lines(text: &str) -> Vec<SourceLine> {
    text.lines()
        .enumerate()
        .map(|(i, t)| SourceLine {
            line: i + 1,
            column: 1,
            text: t.to_string(),
        })
        .collect()
}

/// Reads `text` as one move of `side` and carries out each order on a copy.
fn carry_out(r: &Sarhu, st: &State, side: Side, text: &str, seed: u64) -> Result<(), String> {
    let lines = source_lines(text);
    let orders = r
        .parse_all(st, side, &lines)
        .map_err(|e| format!("does not read: {e:?}"))?;
    let mut st = st.clone();
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut dice = Dice::seeded(bytes);
    for (_, o) in &orders {
        r.apply(&mut st, side, o, &mut dice)
            .map_err(|e| format!("refused: {e}"))?;
    }
    umpire_sarhu::invariants(r.data(), &st).map_err(|e| format!("invariant: {e}"))
}

// 4.2, 6.0, 7.0: every listed order is legal where it is listed, and the
// action phases list moves with their paths.
#[test]
fn every_listed_order_reads_and_is_carried_out() {
    let r = Sarhu::new();
    let mut moves = 0;
    let mut checked = 0;
    for seed in [11, 12] {
        for (i, (st, sides)) in positions(seed, 7).iter().enumerate() {
            for side in sides {
                for (k, l) in r.legal_moves(st, *side).iter().enumerate() {
                    if let Err(e) = carry_out(&r, st, *side, l, seed + k as u64) {
                        panic!("seed {seed}, position {i}: {l:?} {e}");
                    }
                    moves += usize::from(l.starts_with("move "));
                    checked += 1;
                }
            }
        }
    }
    assert!(
        moves > 100 && checked > moves,
        "{moves} moves of {checked} orders"
    );
}

/// A mail's move template takes its examples from the samples alone: the
/// same first lines as the whole list, without finding every path.
#[test]
fn the_examples_are_the_whole_lists_first_lines() {
    let r = Sarhu::new();
    for (st, sides) in positions(13, 5) {
        for side in sides {
            let all = r.legal_moves(&st, side);
            let four: Vec<String> = all.iter().take(4).map(|o| reflow(o)).collect();
            assert_eq!(r.example_moves(&st, side, 4), four);
        }
    }
}

/// The orders of `text` as `side` sends them at `st`.
fn read(r: &Sarhu, st: &State, side: Side, text: &str) -> Vec<umpire_sarhu::orders::Order> {
    let lines = source_lines(text);
    r.parse_all(st, side, &lines)
        .unwrap_or_else(|e| panic!("{text:?} does not read: {e:?}"))
        .into_iter()
        .map(|(_, o)| o)
        .collect()
}

// A template's example is each sample written within a commented mail line:
// a move's further units and a combat action's further combats on lines of
// their own read as the same orders (lines without a keyword continue the
// order above them), and every line fits.
#[test]
fn an_example_written_over_lines_reads_as_the_sample() {
    let r = Sarhu::new();
    let mut split = 0;
    for (st, sides) in positions(17, 5) {
        for side in sides {
            for o in r.example_moves(&st, side, 40) {
                for l in o.lines().filter(|l| l.chars().count() > EXAMPLE_WIDTH) {
                    assert!(!l.contains(", ") && !l.contains("; "), "{l}");
                }
            }
            let f = if side.0 == 0 {
                umpire_sarhu::Faction::Ming
            } else {
                umpire_sarhu::Faction::Jurchen
            };
            for o in umpire_sarhu::legal::samples(r.data(), &st, f) {
                let flowed = reflow(&o);
                if flowed != o {
                    split += 1;
                    assert_eq!(
                        read(&r, &st, side, &flowed),
                        read(&r, &st, side, &o),
                        "{flowed}"
                    );
                }
            }
        }
    }
    assert!(split > 0, "some sample was written over lines");
}
