//! Lest Darkness Fall: the cost of applying one action (µs), of the legal
//! orders, of replaying a whole recorded game (ms) and of drawing the map. The game is a
//! fixed-seed self-play game.

mod common;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;
use umpire::core::dice::Dice;
use umpire::core::movefile::SourceLine;
use umpire::core::ruleset::{Ruleset, Setup, Side};
use umpire::games::ldf::{Ldf, State};

fn order(r: &Ldf, st: &State, side: Side, text: &str) -> <Ldf as Ruleset>::Order {
    let lines = vec![SourceLine {
        line: 1,
        column: 1,
        text: text.to_string(),
    }];
    r.parse(st, side, &lines).expect("parse").remove(0).1
}

fn start(r: &Ldf) -> State {
    let mut st = r
        .setup(&Setup {
            scenario: "campaign".into(),
            options: BTreeMap::new(),
            sides: vec!["roman".into(), "gp".into()],
        })
        .expect("setup");
    let o = order(r, &st, Side(1), "setup auto");
    r.apply(&mut st, Side(1), &o, &mut Dice::preview())
        .expect("setup");
    st
}

/// Dice for one move, with the hidden streams a draw into a hand needs
/// (without them a draw is refused at its first roll, and the figure would
/// time the refusal).
fn dice() -> Dice {
    Dice::seeded([7; 32]).with_hidden(vec![Some([1; 32]), Some([2; 32]), Some([3; 32])])
}

/// Benchmarks one order of `side` on `st`, after checking it is carried out.
fn bench_order(
    g: &mut criterion::BenchmarkGroup<criterion::measurement::WallTime>,
    r: &Ldf,
    st: &State,
    side: Side,
    name: &str,
    text: &str,
) {
    let o = order(r, st, side, text);
    r.apply(&mut st.clone(), side, &o, &mut dice())
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.bench_function(name, |b| {
        b.iter_batched(
            || st.clone(),
            |mut x| {
                let _ = black_box(r.apply(&mut x, side, &o, &mut dice()));
                x
            },
            BatchSize::SmallInput,
        )
    });
}

fn apply_actions(c: &mut Criterion) {
    let r = Ldf::new();
    let st = start(&r);
    let mut g = c.benchmark_group("ldf apply");
    for (name, text) in [
        ("pass", "pass"),
        ("draw", "draw"),
        (
            "move a gund stack two hexes",
            "move 5020 g1 g2 to 5021 5022",
        ),
    ] {
        bench_order(&mut g, &r, &st, Side(1), name, text);
    }
    // The Roman's turn after the Germano-Parthian passes.
    let mut roman = st.clone();
    let o = order(&r, &roman, Side(1), "pass");
    r.apply(&mut roman, Side(1), &o, &mut dice()).expect("pass");
    let legal = r.legal_moves(&roman, Side(0));
    let sea = legal
        .iter()
        .find(|l| l.starts_with("sea "))
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .expect("a sea move is offered");
    bench_order(&mut g, &r, &roman, Side(0), "sea move", &sea);
    g.bench_function("legal orders (checked by dry runs)", |b| {
        b.iter(|| black_box(r.legal_moves(&st, Side(1))))
    });
    g.bench_function("legal orders, the Roman (with sea and river)", |b| {
        b.iter(|| black_box(r.legal_moves(&roman, Side(0))))
    });
    g.finish();
}

fn render_map(c: &mut Criterion) {
    use umpire::core::board::Place;
    use umpire::core::hex::Hex;
    use umpire::render::map::{Options, full, snippet};
    let r = Ldf::new();
    let st = start(&r);
    let board = r
        .view(&st, umpire::core::ruleset::Viewer::Side(Side(0)))
        .board
        .expect("a board");
    let rome = [Place::Hex(Hex::new(33, 18))];
    let mut g = c.benchmark_group("ldf map");
    g.bench_function("snippet around Rome", |b| {
        b.iter(|| black_box(snippet(&board, &rome, &Options::default())))
    });
    g.bench_function("full map", |b| {
        b.iter(|| black_box(full(&board, &Options::default())))
    });
    g.finish();
    // The picture every result mail attaches (map.png): what dominated the
    // old whole-game mail test.
    let mut g = c.benchmark_group("ldf picture");
    g.sample_size(10);
    g.bench_function("full map SVG", |b| {
        b.iter(|| black_box(umpire::render::svg::svg(&board, &rome)))
    });
    g.bench_function("full map PNG", |b| {
        b.iter(|| black_box(umpire::render::svg::png(&board, &rome).expect("png")))
    });
    g.finish();
}

fn replay_game(c: &mut Criterion) {
    common::replay_game(c, "ldf", Arc::new(Ldf::new()), "campaign", 10);
}

criterion_group!(benches, apply_actions, replay_game, render_map);
criterion_main!(benches);
