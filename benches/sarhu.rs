//! Strike on Sarhu: the cost of applying one order (µs) and of replaying a
//! whole recorded game (ms). The game is a fixed-seed self-play game.

mod common;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;
use umpire::core::dice::Dice;
use umpire::core::movefile::SourceLine;
use umpire::core::ruleset::{Ruleset, Setup, Side};
use umpire::games::sarhu::{Sarhu, State};

fn start(r: &Sarhu) -> State {
    let mut st = r
        .setup(&Setup {
            scenario: "historical".into(),
            options: BTreeMap::new(),
            sides: vec!["ming".into(), "jurchen".into()],
        })
        .expect("setup");
    st.prep_pending = false;
    st.ap = [12, 12];
    st.prep = [12, 12];
    st
}

fn order(r: &Sarhu, st: &State, side: Side, text: &str) -> Vec<<Sarhu as Ruleset>::Order> {
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

fn apply_orders(c: &mut Criterion) {
    let r = Sarhu::new();
    let st = start(&r);
    let mut g = c.benchmark_group("sarhu apply");
    for (name, side, text) in [
        ("pass", Side(0), "pass"),
        (
            "move 5 units",
            Side(0),
            "move du-song: ds.i1 0608, ds.i2 0608, ds.c1 0608 0708, ds.c2 0608 0709, ds.f1 0608 0709\nplace ds 0708",
        ),
        ("rally", Side(1), "rally nurhaci"),
    ] {
        let mut s = st.clone();
        if side == Side(1) {
            umpire::games::sarhu::turn::start_phase(
                r.data(),
                &mut s,
                umpire::games::sarhu::Faction::Jurchen,
                2,
            );
        }
        let o = order(&r, &s, side, text);
        g.bench_function(name, |b| {
            b.iter_batched(
                || s.clone(),
                |mut x| {
                    let mut dice = Dice::seeded([7; 32]);
                    for one in &o {
                        black_box(r.apply(&mut x, side, one, &mut dice).expect("legal"));
                    }
                    x
                },
                BatchSize::SmallInput,
            )
        });
    }
    // A combat with dice: Daisan's infantry attack Du Song's cavalry at Jilin Cliff.
    let mut s = st.clone();
    let u = |id: &str| r.data().unit_index(id).expect("unit");
    let ds = r.data().command_index("ds").expect("ds");
    let da = r.data().command_index("da").expect("da");
    s.commands[da].loc = umpire::games::sarhu::state::Loc::Hex("0807".parse().expect("hex"));
    s.units[u("ds.c1")].loc = umpire::games::sarhu::state::Loc::Hex("0807".parse().expect("hex"));
    s.commands[ds].loc = umpire::games::sarhu::state::Loc::Hex("0807".parse().expect("hex"));
    umpire::games::sarhu::turn::start_phase(
        r.data(),
        &mut s,
        umpire::games::sarhu::Faction::Jurchen,
        2,
    );
    let o = order(&r, &s, Side(1), "attack 0807 with daisan");
    g.bench_function("attack with losses and displacement", |b| {
        b.iter_batched(
            || s.clone(),
            |mut x| {
                let mut dice = Dice::seeded([9; 32]);
                black_box(r.apply(&mut x, Side(1), &o[0], &mut dice).expect("legal"));
                x
            },
            BatchSize::SmallInput,
        )
    });
    g.bench_function("legal orders (mid-move sample)", |b| {
        b.iter(|| black_box(r.legal_moves(&st, Side(0))))
    });
    g.bench_function("state hash (clone + JSON + SHA-256)", |b| {
        b.iter(|| {
            black_box(umpire::core::hash::sha256(
                &serde_json::to_vec(&st).expect("json"),
            ))
        })
    });
    g.finish();
}

fn replay_game(c: &mut Criterion) {
    common::replay_game(c, "sarhu", Arc::new(Sarhu::new()), "historical", 20);
}

criterion_group!(benches, apply_orders, replay_game);
criterion_main!(benches);
