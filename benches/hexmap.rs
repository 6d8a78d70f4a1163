//! How long the map renderers take: the hex renderer on a 30×20 map (a result
//! mail's snippet, and the whole map: overview plus six detailed strips), the
//! square-grid renderer on a 30×20 grid, and the point-to-point renderer on a
//! map of 25 spaces and 7 LoCs.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use umpire::core::board::{
    Cell, Edge, EdgeKind, HexBoard as Board, Legend, Link, Marker, PointBoard, Space, SpaceId,
    SquareBoard, SquareEdge, Track, Unit, UnitMark,
};
use umpire::core::hex::{Dir, Hex};
use umpire::core::square::{Dir8, Square};
use umpire::render::hexmap::{Options, full, snippet};
use umpire::render::{pointmap, squaremap};

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
                units: (0..(k % 5))
                    .map(|u| Unit::new(format!("u{col}.{row}.{u}")).mark(UnitMark::Reduced))
                    .collect(),
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

fn squares() -> SquareBoard {
    let mut b = SquareBoard::default();
    for col in 1..=30 {
        for row in 1..=20 {
            let k = (col * 7 + row * 3) % 11;
            let side = if col < 15 { 'R' } else { 'B' };
            let cell = Cell {
                terrain: ['.', '.', '^', 'd'][(k % 4) as usize],
                name: (k == 5).then(|| format!("Town {col}-{row}")),
                control: (k < 3).then_some(side),
                units: (0..(k % 4))
                    .map(|u| Unit::new(format!("u{col}.{row}.{u}")).side(side))
                    .collect(),
                highlight: (14..=16).contains(&col) && (9..=11).contains(&row),
            };
            let at = Square::new(col, row);
            b.cells.insert(at, cell);
            if k == 4 {
                b.edges.push(SquareEdge {
                    square: at,
                    dir: Dir8::E,
                    kind: EdgeKind::River,
                });
            }
        }
    }
    b.legend = vec![Legend::new("R", "Russian"), Legend::new("B", "British")];
    b.tracks = vec![Track::new("Turn", 3).max(12)];
    b
}

/// 25 spaces and 7 LoCs, each LoC a space of its own linking two others.
fn points() -> PointBoard {
    let mut b = PointBoard::default();
    for i in 0..32u16 {
        let loc = i >= 25;
        let mut s = Space {
            name: if loc {
                format!("LoC {i}")
            } else {
                format!("Province {i}")
            },
            kinds: vec![if loc { "LoC" } else { "province" }.to_string()],
            control: (i % 3 == 0).then_some('C'),
            ..Space::default()
        };
        s.units = vec![
            Unit::pieces('C', "Troops", u32::from(i % 4)),
            Unit::pieces('T', "Guerrilla", u32::from(i % 3)).mark(UnitMark::Hidden),
        ];
        if loc && i % 2 == 0 {
            s.markers.push(Marker::flag("Sabotage"));
        } else if !loc {
            s.markers.push(Marker::new("Support", "passive"));
        }
        b.spaces.insert(SpaceId(i), s);
        if loc {
            b.links.push(Link::new(SpaceId(i), SpaceId(i - 25)));
            b.links.push(Link::new(SpaceId(i), SpaceId(i - 18)));
        } else if i > 0 {
            b.links.push(Link::new(SpaceId(i - 1), SpaceId(i)));
        }
    }
    b.tracks = vec![Track::new("Aid", 15).max(75)];
    b.legend = vec![Legend::new("C", "Coalition"), Legend::new("T", "Taliban")];
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
    let s = squares();
    let sfocus = [Square::new(15, 10), Square::new(16, 10)];
    c.bench_function("squaremap snippet 30x20", |bn| {
        bn.iter(|| squaremap::snippet(black_box(&s), black_box(&sfocus), &opts))
    });
    c.bench_function("squaremap full 30x20", |bn| {
        bn.iter(|| squaremap::full(black_box(&s), &opts))
    });
    let p = points();
    let pfocus = [SpaceId(3), SpaceId(26)];
    c.bench_function("pointmap snippet 25+7", |bn| {
        bn.iter(|| pointmap::snippet(black_box(&p), black_box(&pfocus), &opts))
    });
    c.bench_function("pointmap full 25+7", |bn| {
        bn.iter(|| pointmap::full(black_box(&p), &opts))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
