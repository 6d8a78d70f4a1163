//! How long the hex map renderer takes on a 30×20 map: a result mail's
//! snippet, and the whole map (overview plus six detailed strips).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use umpire::core::board::{Board, Cell, Edge, EdgeKind, Legend};
use umpire::core::hex::{Dir, Hex};
use umpire::render::hexmap::{Options, full, snippet};

fn board() -> Board {
    let mut b = Board::default();
    for col in 1..=30 {
        for row in 1..=20 {
            let at = Hex::new(col, row);
            let k = (col * 7 + row * 3) % 11;
            let cell = Cell {
                terrain: ['.', '.', '^', 'f'][(k % 4) as usize],
                name: (k == 5).then(|| format!("Village {col}-{row}")),
                control: (k < 3).then_some(if col < 15 { 'M' } else { 'J' }),
                units: (0..(k % 5)).map(|u| format!("u{col}.{row}.{u}'")).collect(),
                highlight: (14..=16).contains(&col) && (9..=11).contains(&row),
            };
            b.cells.insert(at, cell);
            if k == 4 {
                b.edges.push(Edge {
                    hex: at,
                    dir: Dir::SE,
                    kind: EdgeKind::River,
                });
            }
        }
    }
    b.legend = vec![Legend::new("^", "hill"), Legend::new("f", "forest")];
    b
}

fn bench(c: &mut Criterion) {
    let b = board();
    let opts = Options::default();
    let focus = [Hex::new(15, 10), Hex::new(16, 10)];
    c.bench_function("hexmap snippet 30x20", |bn| {
        bn.iter(|| snippet(black_box(&b), black_box(&focus), &opts))
    });
    c.bench_function("hexmap full 30x20", |bn| {
        bn.iter(|| full(black_box(&b), &opts))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
