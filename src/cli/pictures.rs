//! `umpire map` (a picture of a game's map) and `umpire site` (the public
//! game pages).

use super::commands::{now, safe, viewer_of};
use super::offline::{Copy, Offline};
use crate::service::Umpire;
use anyhow::{Context, Result, anyhow, bail};
use std::path::{Path, PathBuf};

/// Whether `umpire map`'s arguments name files (the offline form) rather
/// than a game of the data directory.
pub(super) fn offline(game: &[String]) -> bool {
    game.len() > 1 || game.iter().any(|g| Path::new(g).exists())
}

/// `umpire map GAME|FILES… --side S -o map.svg|map.png`: the map as side
/// `S` sees it (by default as every side may; `--umpire`, everything), after
/// the latest entry, the last action outlined. Files (a record, the parts a
/// player kept, folders of mails) are replayed; a side's copy of a game that
/// hides information cannot be, and gives the picture its latest result mail
/// carried. Else `GAME` is looked up in the data directory.
pub(super) fn map(
    dir: &Path,
    game: &[String],
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
    let owned = if offline(game) {
        let files: Vec<PathBuf> = game.iter().map(PathBuf::from).collect();
        match super::offline::load(&files, data)? {
            Offline::Full(g) => *g,
            Offline::Copy(copy) => return mailed_picture(&copy, side, umpire, png, out),
        }
    } else {
        let id = game.first().map(String::as_str).unwrap_or_default();
        let mut u = Umpire::open(dir)?;
        super::commands::known_game(&u, id)?;
        u.game(id)?.clone()
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
    write(out, &bytes)
}

/// Writes the picture and says so.
fn write(out: &Path, bytes: &[u8]) -> Result<i32> {
    std::fs::write(out, bytes).with_context(|| format!("cannot write {}", out.display()))?;
    eprintln!("wrote {} ({} bytes)", out.display(), bytes.len());
    Ok(0)
}

/// `umpire map` on a side's copy of a game that hides information: the
/// picture the latest result mail among the files carried, at the copy's
/// head (drawn by the umpire for that mail's reader).
fn mailed_picture(
    copy: &Copy,
    side: Option<&str>,
    umpire: bool,
    png: bool,
    out: &Path,
) -> Result<i32> {
    if umpire {
        bail!("--umpire: {}", super::offline::COPY_LIMIT);
    }
    if let (Some(asked), Some(h)) = (side, copy.holder())
        && asked != h
    {
        bail!(
            "--side {}: this is {}'s copy; {}, so only {}'s map can be given",
            safe(asked),
            safe(&h),
            super::offline::COPY_LIMIT,
            safe(&h)
        );
    }
    let Some(view) = &copy.view else {
        bail!(
            "{}; and no result mail among these files carries the copy's head (entry {}) with its map.png: give the folder of your result mails",
            super::offline::COPY_LIMIT,
            copy.head_seq()
        );
    };
    let Some(picture) = &view.picture else {
        bail!(
            "{}; and the latest result mail ({}) carries no map picture",
            super::offline::COPY_LIMIT,
            safe(&view.name)
        );
    };
    if !png {
        bail!(
            "-o {}: {}; the map can only be the map.png your latest result mail carried: name a .png file",
            out.display(),
            super::offline::COPY_LIMIT
        );
    }
    eprintln!(
        "{}: the map.png of the umpire's mail of entry {} ({})",
        super::offline::COPY_LIMIT,
        view.last,
        safe(&view.name)
    );
    write(out, picture)
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
