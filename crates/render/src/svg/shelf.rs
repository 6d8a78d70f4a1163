//! Kept rasters on disk, for the next process: a cron poll is a fresh process
//! every time, and drawing a map's base, names and key anew costs most of
//! what its picture costs. A file per sheet, named by its SVG's hash, holds
//! the raster as drawn; reading it back is a copy, not a drawing.
//!
//! The shelf is a cache, never a source of truth: a file that cannot be read
//! or does not hold what its name says is drawn again and written over, and
//! a write that fails is let go (the picture is drawn all the same).

use super::doc::Sheet;
use super::raster::{Raster, Run};
use resvg::tiny_skia;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use umpire_core::hash::Digest;

/// The first bytes of a kept raster's file (the version of its layout).
const MAGIC: &[u8; 8] = b"UMPRAS1\n";

/// Most bytes the shelf holds: the oldest files are let go past it. A few
/// maps' bases (the largest about 8 MB), names and keys, and the stacks of
/// counters drawn on them (a few kB each).
pub const SHELF_BYTES: u64 = 128 << 20;

/// How many sprites are written between two trims of the shelf.
const TRIM_EVERY: u64 = 256;

/// The raster kept for `key` and `kind` under `dir`, if one was written and
/// reads whole.
pub(super) fn read(dir: &Path, key: &Digest, kind: Sheet) -> Option<Raster> {
    let bytes = std::fs::read(file(dir, key, kind)).ok()?;
    let body = bytes.strip_prefix(MAGIC.as_slice())?;
    let (w, body) = take_u32(body)?;
    let (h, body) = take_u32(body)?;
    match kind {
        Sheet::Base => base(w, h, body.to_vec()).map(|p| Raster::Base(Arc::new(p))),
        _ => runs(body).map(|r| Raster::Over(Arc::new(r))),
    }
}

/// Rows `y` to `y + h` of the base kept for `key` under `dir`, read alone,
/// with the height of the whole base; `None` if the file is missing, not a
/// whole base, or the rows are not all in it.
pub(super) fn read_rows(
    dir: &Path,
    key: &Digest,
    y: u32,
    h: u32,
) -> Option<(tiny_skia::Pixmap, u32)> {
    let mut f = std::fs::File::open(file(dir, key, Sheet::Base)).ok()?;
    let mut head = [0u8; 16];
    f.read_exact(&mut head).ok()?;
    let (magic, size) = head.split_at(8);
    if magic != MAGIC.as_slice() {
        return None;
    }
    let (w, size) = take_u32(size)?;
    let (full, _) = take_u32(size)?;
    let row = u64::from(w) * 4;
    let len = f.metadata().ok()?.len();
    if len != 16 + row * u64::from(full) || u64::from(y) + u64::from(h) > u64::from(full) {
        return None;
    }
    f.seek(std::io::SeekFrom::Start(16 + row * u64::from(y)))
        .ok()?;
    let mut body = vec![0u8; usize::try_from(row * u64::from(h)).ok()?];
    f.read_exact(&mut body).ok()?;
    Some((base(w, h, body)?, full))
}

/// Keeps `raster` for `key` and `kind` under `dir` (written whole or not at
/// all), then lets the oldest files go past [`SHELF_BYTES`].
pub(super) fn write(dir: &Path, key: &Digest, kind: Sheet, raster: &Raster) {
    let mut out = MAGIC.to_vec();
    match raster {
        Raster::Base(p) => {
            out.extend(p.width().to_le_bytes());
            out.extend(p.height().to_le_bytes());
            out.extend_from_slice(p.data());
        }
        Raster::Over(runs) => {
            out.extend(0u32.to_le_bytes());
            out.extend(0u32.to_le_bytes());
            for r in runs.iter() {
                out.extend(r.y.to_le_bytes());
                out.extend(r.x.to_le_bytes());
                out.extend((r.pixels.len() as u32).to_le_bytes());
                for p in &r.pixels {
                    out.extend([p.red(), p.green(), p.blue(), p.alpha()]);
                }
            }
        }
    }
    // Sprites are many and small: the shelf is trimmed after one in
    // [`TRIM_EVERY`] of them (listing the folder on each would cost more
    // than drawing them), and after every larger sheet.
    static SPRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let trim_now = kind != Sheet::Sprites
        || SPRITES
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            .is_multiple_of(TRIM_EVERY);
    if put(dir, &file(dir, key, kind), &out).is_ok() && trim_now {
        trim(dir, SHELF_BYTES);
    }
}

/// The file of `key`'s `kind` raster.
fn file(dir: &Path, key: &Digest, kind: Sheet) -> PathBuf {
    dir.join(format!("{}.{kind:?}.raster", key.to_hex()).to_ascii_lowercase())
}

/// Writes `bytes` to `to` through a temporary file renamed over it, so a
/// reader never meets half a file.
fn put(dir: &Path, to: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    // A name of this process and thread: two writers never share one.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = to.with_extension(format!("{}-{n}.tmp", std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut f| f.write_all(bytes));
    match written.and_then(|()| std::fs::rename(&tmp, to)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Lets the least recently written files under `dir` go until they hold at
/// most `budget` bytes, and the temporary files of writes cut short (a
/// process killed mid-write) an hour on.
fn trim(dir: &Path, budget: u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = Vec::new();
    for e in entries.flatten() {
        let (path, Ok(m)) = (e.path(), e.metadata()) else {
            continue;
        };
        let Ok(at) = m.modified() else { continue };
        match path.extension().and_then(|x| x.to_str()) {
            Some("raster") => files.push((at, m.len(), path)),
            Some("tmp") if at < hour_ago => {
                let _ = std::fs::remove_file(&path);
            }
            _ => {}
        }
    }
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    files.sort();
    for (_, len, path) in files {
        if total <= budget {
            break;
        }
        if std::fs::remove_file(&path).is_ok() {
            total -= len;
        }
    }
}

fn take_u32(b: &[u8]) -> Option<(u32, &[u8])> {
    let (n, rest) = b.split_first_chunk::<4>()?;
    Some((u32::from_le_bytes(*n), rest))
}

/// An opaque base of `w`×`h` from its premultiplied RGBA bytes.
fn base(w: u32, h: u32, body: Vec<u8>) -> Option<tiny_skia::Pixmap> {
    let size = tiny_skia::IntSize::from_wh(w, h)?;
    if body.len() as u64 != u64::from(w) * u64::from(h) * 4 {
        return None;
    }
    tiny_skia::Pixmap::from_vec(body, size)
}

/// The runs written by [`write`], each pixel a valid premultiplied colour.
fn runs(mut body: &[u8]) -> Option<Vec<Run>> {
    let mut out = Vec::new();
    while !body.is_empty() {
        let (y, rest) = take_u32(body)?;
        let (x, rest) = take_u32(rest)?;
        let (n, rest) = take_u32(rest)?;
        let len = (n as usize).checked_mul(4)?;
        let (px, rest) = (rest.get(..len)?, rest.get(len..)?);
        let pixels = px
            .chunks_exact(4)
            .map(|c| tiny_skia::PremultipliedColorU8::from_rgba(c[0], c[1], c[2], c[3]))
            .collect::<Option<Vec<_>>>()?;
        out.push(Run { y, x, pixels });
        body = rest;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_core::hash::sha256;

    fn pixmap() -> tiny_skia::Pixmap {
        let mut p = tiny_skia::Pixmap::new(3, 2).unwrap();
        p.fill(tiny_skia::Color::from_rgba8(10, 20, 30, 255));
        p
    }

    #[test]
    fn a_kept_base_reads_back_as_written_and_a_damaged_file_reads_as_none() {
        let dir = tempfile::tempdir().unwrap();
        let key = sha256(b"base");
        write(
            dir.path(),
            &key,
            Sheet::Base,
            &Raster::Base(Arc::new(pixmap())),
        );
        let Some(Raster::Base(back)) = read(dir.path(), &key, Sheet::Base) else {
            panic!("kept base not read");
        };
        assert_eq!(back.data(), pixmap().data());
        // Another kind of the same sheet is another file.
        assert!(read(dir.path(), &key, Sheet::Key).is_none());
        let path = file(dir.path(), &key, Sheet::Base);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.pop();
        std::fs::write(&path, &bytes).unwrap();
        assert!(read(dir.path(), &key, Sheet::Base).is_none(), "short file");
    }

    #[test]
    fn kept_runs_read_back_and_an_impossible_colour_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let key = sha256(b"names");
        let px = tiny_skia::PremultipliedColorU8::from_rgba(5, 6, 7, 128).unwrap();
        let runs = vec![Run {
            y: 4,
            x: 9,
            pixels: vec![px, px],
        }];
        write(dir.path(), &key, Sheet::Kept, &Raster::Over(Arc::new(runs)));
        let Some(Raster::Over(back)) = read(dir.path(), &key, Sheet::Kept) else {
            panic!("kept runs not read");
        };
        assert_eq!((back[0].y, back[0].x, back[0].pixels.len()), (4, 9, 2));
        assert_eq!(back[0].pixels[1], px);
        // A colour brighter than its alpha is no premultiplied colour.
        let path = file(dir.path(), &key, Sheet::Kept);
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 4] = 200;
        std::fs::write(&path, &bytes).unwrap();
        assert!(read(dir.path(), &key, Sheet::Kept).is_none());
    }

    #[test]
    fn the_shelf_lets_the_oldest_files_go_past_its_budget() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..4u8 {
            let key = sha256(&[i]);
            write(
                dir.path(),
                &key,
                Sheet::Base,
                &Raster::Base(Arc::new(pixmap())),
            );
            // Distinct modification times, oldest first.
            let f = std::fs::File::options()
                .write(true)
                .open(file(dir.path(), &key, Sheet::Base))
                .unwrap();
            let t = std::time::SystemTime::UNIX_EPOCH
                + std::time::Duration::from_secs(u64::from(i) + 1);
            f.set_modified(t).unwrap();
        }
        let one = std::fs::metadata(file(dir.path(), &sha256(&[0]), Sheet::Base))
            .unwrap()
            .len();
        trim(dir.path(), 2 * one);
        let left: Vec<bool> = (0..4u8)
            .map(|i| file(dir.path(), &sha256(&[i]), Sheet::Base).exists())
            .collect();
        assert_eq!(left, [false, false, true, true]);
    }
}
