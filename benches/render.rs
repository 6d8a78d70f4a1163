//! How long a map picture takes: the whole board drawn as SVG, and SVG to PNG
//! (what every result mail with a board costs), for Sarhu's hex map and Asia
//! Crossroads' 40×40 grid at their set-ups.

use umpire_testkit as common;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use umpire::core::board::Board;

fn board(ruleset: &str, sides: &[&str]) -> Board {
    let rs = umpire::games::find(ruleset).expect("ruleset");
    let scenario = rs.info().scenarios[0].name.clone();
    let t = common::table(ruleset, &scenario, sides, &[]);
    t.game
        .ruleset()
        .view(t.game.state(), umpire::core::ruleset::Viewer::Public)
        .board
        .expect("a board")
}

fn render(c: &mut Criterion) {
    let mut g = c.benchmark_group("map-picture");
    g.sample_size(10);
    for (name, b) in [
        ("sarhu", board("sarhu", &["ming", "jurchen"])),
        ("ac-40x40", board("ac", &["british", "russian"])),
    ] {
        g.bench_function(format!("{name}/svg"), |x| {
            x.iter(|| umpire::render::svg::svg(black_box(&b), &[]))
        });
        let svg = umpire::render::svg::svg(&b, &[]);
        g.bench_function(format!("{name}/png"), |x| {
            x.iter(|| umpire::render::svg::raster::png(black_box(&svg)).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, render);
criterion_main!(benches);
