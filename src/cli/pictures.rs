//! `umpire map` (a picture of a game's map) and `umpire site` (the public
//! game pages).

use super::commands::{now, replay_file, safe, viewer_of};
use crate::service::Umpire;
use anyhow::{Context, Result, anyhow, bail};
use std::path::Path;

/// `umpire map GAME|record.txt --side S -o map.svg|map.png`: the map as side
/// `S` sees it (by default as every side may; `--umpire`, everything), after
/// the latest entry, the last action outlined. A record file is replayed (it must be a full record: a
/// side's copy of a game with secrets cannot be); else `GAME` is looked up in
/// the data directory.
pub(super) fn map(
    dir: &Path,
    game: &str,
    side: Option<&str>,
    umpire: bool,
    out: &Path,
    data: Option<&Path>,
) -> Result<i32> {
    let png = match out.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("png") => true,
        Some(e) if e.eq_ignore_ascii_case("svg") => false,
        _ => bail!("-o {}: name a .svg or .png file", out.display()),
    };
    let file = Path::new(game);
    let owned = if file.is_file() {
        replay_file(file, data)?.0
    } else {
        Umpire::open(dir)?.game(game)?.clone()
    };
    let g = &owned;
    let s = viewer_of(g, side, umpire)?;
    let (seq, _) = g.last_report();
    let bytes = if png {
        crate::service::picture::png(g, seq, s)
            .ok_or_else(|| anyhow!("game {} has no map to draw", safe(g.id())))??
    } else {
        crate::service::picture::svg(g, seq, s)
            .ok_or_else(|| anyhow!("game {} has no map to draw", safe(g.id())))?
            .into_bytes()
    };
    std::fs::write(out, &bytes).with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!("wrote {} ({} bytes)", out.display(), bytes.len());
    Ok(0)
}

/// `umpire site [--out DIR]`: writes the public games' pages.
pub(super) fn site(dir: &Path, out: Option<&Path>) -> Result<i32> {
    let mut u = Umpire::open(dir)?;
    let out = match out {
        Some(o) => o.to_path_buf(),
        None => u
            .site_dir()
            .ok_or_else(|| anyhow!("give --out DIR, or set [site] out in umpire.toml"))?,
    };
    let r = u.write_site(&out, now()?)?;
    println!(
        "{} public game page(s) in {}{}",
        r.games.len(),
        out.display(),
        if r.games.is_empty() {
            " (make a game public with `umpire new --public`)"
        } else {
            ""
        }
    );
    for g in &r.games {
        println!("  {}", out.join(g).join("index.html").display());
    }
    for (g, why) in &r.failed {
        eprintln!(
            "game {g}: its page was not written: {}",
            super::commands::safe(why)
        );
    }
    Ok(if r.failed.is_empty() { 0 } else { 1 })
}
