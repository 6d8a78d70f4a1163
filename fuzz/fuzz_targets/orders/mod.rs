//! What the order-grammar targets share: the positions of a ruleset's
//! self-played games (`umpire_core::grammar_fuzz`), built once when the
//! target starts, and the seed corpus written from them on request.

use std::path::Path;
use std::time::Instant;
use umpire_core::grammar_fuzz::{Grammar, Walk};

/// The positions of `kind`'s `walks`, an equal share from each. With
/// `UMPIRE_FUZZ_WRITE_SEEDS=DIR` set, the moves the games played there are
/// also written to DIR as seed inputs, and each walk's cost is printed
/// (`fuzz/run.sh --seeds` does this for every order target).
pub fn grammar(kind: &str, walks: &[Walk]) -> Grammar {
    let ruleset = umpire_games::find(kind).unwrap_or_else(|| panic!("no ruleset {kind}"));
    let seeds = std::env::var_os("UMPIRE_FUZZ_WRITE_SEEDS");
    let mut g = Grammar::play(ruleset, &[])
        .unwrap_or_else(|e| panic!("{kind}: no positions: {e}"));
    let share = 256 / walks.len().max(1);
    for w in walks {
        let t0 = Instant::now();
        let before = g.len();
        g.add(w, share).unwrap_or_else(|e| {
            panic!("{kind}: the self-play the positions come from failed: {e}")
        });
        if seeds.is_some() {
            eprintln!(
                "{kind} {} {:?}: {} positions in {:.1} s",
                w.scenario,
                w.options,
                g.len() - before,
                t0.elapsed().as_secs_f64()
            );
        }
    }
    if let Some(dir) = seeds {
        write_seeds(Path::new(&dir), &g);
    }
    g
}

fn write_seeds(dir: &Path, g: &Grammar) {
    std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let seeds = g.seeds();
    for (name, input) in &seeds {
        let path = dir.join(name);
        std::fs::write(&path, input).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    eprintln!(
        "{} positions; {} seeds written to {}",
        g.len(),
        seeds.len(),
        dir.display()
    );
}
