//! What the game benchmarks share: one self-played game replayed whole.

use criterion::Criterion;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;
use umpire::core::game::{Game, ReplayMode};
use umpire::core::record::Record;
use umpire::core::ruleset::DynRuleset;
use umpire::core::selfplay::{self, SelfPlayConfig};

/// Benchmarks replaying one self-played game of `ruleset` (scenario
/// `scenario`, seed 2026) from its record, trusted and verified
/// (signatures and dice), as the group "`name` replay".
pub fn replay_game(
    c: &mut Criterion,
    name: &str,
    ruleset: Arc<dyn DynRuleset>,
    scenario: &str,
    samples: usize,
) {
    let (game, stats) = selfplay::random_game(
        ruleset.clone(),
        scenario,
        &BTreeMap::new(),
        0,
        2026,
        &SelfPlayConfig::default(),
    )
    .expect("self-play game");
    let record = Record::from_text(&game.record().to_text()).expect("record");
    eprintln!(
        "replaying a game of {} entries ({} moves, {} rolls): {}",
        record.len(),
        stats.moves,
        stats.rolls,
        stats.outcomes.join("")
    );
    let mut g = c.benchmark_group(format!("{name} replay"));
    g.sample_size(samples);
    for (label, mode) in [
        ("whole game, trusted", ReplayMode::Trusted),
        (
            "whole game, verified (signatures and dice)",
            ReplayMode::Verify,
        ),
    ] {
        g.bench_function(label, |b| {
            b.iter(|| black_box(Game::replay(ruleset.clone(), &record, mode).expect("replay")))
        });
    }
    g.finish();
}
