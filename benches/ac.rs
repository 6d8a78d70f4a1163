//! Asia Crossroads: the cost of applying one order of an operations phase
//! (a move; `end` with the belligerency check and combat), of the sealed
//! economy round's orders, of the legal sample (µs), and of replaying a whole
//! recorded game (ms). The game is a fixed-seed self-play game of scenario 1.

mod common;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;
use umpire::core::dice::Dice;
use umpire::core::movefile::SourceLine;
use umpire::core::ruleset::{Ruleset, Setup, Side};
use umpire::games::ac::{Ac, State};

const BRITISH: Side = Side(0);
const RUSSIAN: Side = Side(1);

fn orders(r: &Ac, st: &State, side: Side, text: &str) -> Vec<<Ac as Ruleset>::Order> {
    let lines: Vec<SourceLine> = text
        .lines()
        .enumerate()
        .map(|(i, t)| SourceLine {
            line: i + 1,
            column: 1,
            text: t.to_string(),
        })
        .collect();
    r.parse(st, side, &lines)
        .expect("parse")
        .into_iter()
        .map(|(_, o)| o)
        .collect()
}

/// Dice with the hidden streams (the umpire's and one per side): the income
/// roll is each player's own (9.0).
fn dice(seed: u8) -> Dice {
    Dice::seeded([seed; 32]).with_hidden(vec![Some([seed ^ 1; 32]); 3])
}

fn run(r: &Ac, st: &mut State, side: Side, text: &str) {
    for o in orders(r, st, side, text) {
        r.apply(st, side, &o, &mut dice(5)).expect("apply");
    }
}

/// Scenario 1 at the income/expenditure phase of turn 1.
fn economy() -> (Ac, State) {
    let r = Ac::new();
    let mut st = r
        .setup(&Setup {
            scenario: "s1".into(),
            // The printed set-up: the bench starts at the initiative (26.0).
            options: [("setup".to_string(), "printed".to_string())].into(),
            sides: vec!["british".into(), "russian".into()],
        })
        .expect("setup");
    run(&r, &mut st, BRITISH, "initiative first");
    (r, st)
}

fn apply_orders(c: &mut Criterion) {
    let (r, econ) = economy();
    let mut ops = econ.clone();
    run(&r, &mut ops, BRITISH, "done");
    run(&r, &mut ops, RUSSIAN, "done");
    let legal = r.legal_moves(&ops, BRITISH);
    let mv = legal
        .iter()
        .find(|l| l.starts_with("move") && !l.contains('\n'))
        .expect("a British move")
        .clone();
    let mut g = c.benchmark_group("ac apply");
    let plan_b = "buy 3\nbuy 2";
    let plan_r = "buy 2";
    g.bench_function("sealed economy round (both plans, carried out)", |b| {
        b.iter_batched(
            || econ.clone(),
            |mut x| {
                run(&r, &mut x, BRITISH, plan_b);
                run(&r, &mut x, RUSSIAN, plan_r);
                x
            },
            BatchSize::SmallInput,
        )
    });
    for (name, text) in [
        ("move a force", mv.as_str()),
        ("end: belligerency, combat", "end"),
    ] {
        let os = orders(&r, &ops, BRITISH, text);
        g.bench_function(name, |b| {
            b.iter_batched(
                || ops.clone(),
                |mut x| {
                    let mut dice = dice(7);
                    for o in &os {
                        let _ = black_box(r.apply(&mut x, BRITISH, o, &mut dice));
                    }
                    x
                },
                BatchSize::SmallInput,
            )
        });
    }
    g.bench_function("legal sample, operations phase", |b| {
        b.iter(|| black_box(r.legal_moves(&ops, BRITISH)))
    });
    g.finish();
}

fn replay_game(c: &mut Criterion) {
    common::replay_game(c, "ac", Arc::new(Ac::new()), "s1", 10);
}

criterion_group!(benches, apply_orders, replay_game);
criterion_main!(benches);
