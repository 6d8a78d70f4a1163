//! Kept rasters on disk, for the next process: a cron poll is a fresh process
//! every time, and drawing a map's base, names and key anew costs most of
//! what its picture costs. A file per sheet, named by its SVG's hash, holds
//! the raster as drawn; reading it back is a copy, not a drawing.
//!
//! Stacks of counters (sprites) are many and small: a map's sprites share
//! one file, its pack, read once by a process and appended to with the
//! sprites it draws (a file each cost a fresh process more to create than to
//! draw).
//!
//! The shelf is a cache, never a source of truth: a file that cannot be read
//! or does not hold what its name says is drawn again and written over, and
//! a write that fails is let go (the picture is drawn all the same).

use super::doc::Sheet;
use super::raster::{Crop, Raster, Runs, Span};
use resvg::tiny_skia;
use std::collections::HashMap;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use umpire_core::hash::{Digest, Tagged};

/// The first bytes of a kept base's file (the version of its layout: its
/// rows as runs of one colour, indexed by row; see [`BaseFile`]).
const MAGIC: &[u8; 8] = b"UMPRAS2\n";
/// The first bytes of a kept laid-over sheet's file: its runs of pixels
/// indexed by row, so that a crop reads only its rows.
const RUNS_MAGIC: &[u8; 8] = b"UMPRUN2\n";

/// Most bytes the shelf holds: the oldest files are let go past it. A few
/// maps' bases (the largest about 8 MB), names and keys, and the stacks of
/// counters drawn on them (a few kB each).
pub const SHELF_BYTES: u64 = 128 << 20;

/// The first bytes of a map's sprite pack (see [`Pack`]).
const PACK_MAGIC: &[u8; 8] = b"UMPSPK1\n";

/// Most bytes a sprite pack grows to: past it, the process that would
/// append starts the pack again with the sprites it drew (a few hundred
/// stacks of a few kB; a fresh process reads the whole pack).
const PACK_BYTES: usize = 4 << 20;

/// How many maps' packs a process keeps read.
const PACKS_KEPT: usize = 4;

/// The raster kept for `key` and `kind` under `dir`, if one was written and
/// reads whole.
pub(super) fn read(dir: &Path, key: &Digest, kind: Sheet) -> Option<Raster> {
    if kind != Sheet::Base {
        let runs = read_runs_rows(dir, key, kind, 0, u32::MAX)?;
        return Some(Raster::Over(Arc::new(runs)));
    }
    let whole = Crop {
        x: 0,
        y: 0,
        w: u32::MAX,
        h: u32::MAX,
    };
    read_part(dir, key, whole, 0).map(|(p, _)| Raster::Base(Arc::new(p)))
}

/// The runs of rows `y` to `y + h` of the laid-over sheet kept for `key`
/// and `kind` under `dir`, read alone (the row index, then only those rows'
/// runs and colours); `None` if the file is missing or damaged.
pub(super) fn read_runs_rows(
    dir: &Path,
    key: &Digest,
    kind: Sheet,
    y: u32,
    h: u32,
) -> Option<Runs> {
    let f = std::fs::File::open(file(dir, key, kind)).ok()?;
    let len = f.metadata().ok()?.len();
    runs_rows(&f, len, y, h)
}

/// Where a runs file's bytes are read from: its own file on the shelf, or
/// its record in a sprite pack read into memory.
trait ReadAt {
    /// Fills `buf` from byte `at` on; `None` if the bytes are not all there.
    fn read_at(&self, buf: &mut [u8], at: u64) -> Option<()>;
}

impl ReadAt for std::fs::File {
    fn read_at(&self, buf: &mut [u8], at: u64) -> Option<()> {
        self.read_exact_at(buf, at).ok()
    }
}

impl ReadAt for [u8] {
    fn read_at(&self, buf: &mut [u8], at: u64) -> Option<()> {
        let at = usize::try_from(at).ok()?;
        buf.copy_from_slice(self.get(at..at.checked_add(buf.len())?)?);
        Some(())
    }
}

/// The runs of rows `y` to `y + h` of the runs file `f` of `len` bytes.
fn runs_rows<F: ReadAt + ?Sized>(f: &F, len: u64, y: u32, h: u32) -> Option<Runs> {
    let mut head = [0u8; RunsFile::HEAD];
    f.read_at(&mut head, 0)?;
    let layout = RunsFile::of_head(&head, len)?;
    let (r0, r1) = layout.row_range(y, h);
    // The row index from row r0 to r1 (inclusive: where r1's runs start).
    let mut index = vec![0u8; 4 * (r1 - r0 + 1) as usize];
    f.read_at(&mut index, layout.index_at() + 4 * u64::from(r0))?;
    let starts: Vec<u32> = index
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let (s0, s1) = (*starts.first()?, *starts.last()?);
    if s0 > s1 || s1 > layout.spans {
        return None;
    }
    let mut spans = vec![0u8; 12 * (s1 - s0) as usize];
    f.read_at(&mut spans, layout.spans_at() + 12 * u64::from(s0))?;
    let spans = layout.spans_of(&spans, &starts, r0)?;
    // The colours of those runs: one stretch of the file.
    let (p0, p1) = match (spans.first(), spans.last()) {
        (Some(a), Some(z)) => (a.at, z.at.checked_add(z.len)?),
        _ => (0, 0),
    };
    if p0 > p1 || p1 > layout.pixels {
        return None;
    }
    let mut colours = vec![0u8; 4 * (p1 - p0) as usize];
    f.read_at(&mut colours, layout.pixels_at() + 4 * u64::from(p0))?;
    Runs::from_parts(layout.height, spans, &colours, p0)
}

/// Where the parts of a kept sheet's runs file lie: after [`RUNS_MAGIC`],
/// the sheet's height, how many runs and colours; then the row index (where
/// each row's runs start, and one past the last), the runs (column, first
/// colour, count) and the colours (premultiplied RGBA).
struct RunsFile {
    height: u32,
    spans: u32,
    pixels: u32,
}

impl RunsFile {
    /// The bytes before the row index.
    const HEAD: usize = 20;

    /// The layout a file of `len` bytes starting with `head` has.
    fn of_head(head: &[u8; Self::HEAD], len: u64) -> Option<RunsFile> {
        let body = head.strip_prefix(RUNS_MAGIC.as_slice())?;
        let (height, body) = take_u32(body)?;
        let (spans, body) = take_u32(body)?;
        let (pixels, _) = take_u32(body)?;
        let f = RunsFile {
            height,
            spans,
            pixels,
        };
        (f.pixels_at() + 4 * u64::from(pixels) == len).then_some(f)
    }

    fn index_at(&self) -> u64 {
        Self::HEAD as u64
    }

    fn spans_at(&self) -> u64 {
        self.index_at() + 4 * (u64::from(self.height) + 1)
    }

    fn pixels_at(&self) -> u64 {
        self.spans_at() + 12 * u64::from(self.spans)
    }

    /// The rows of `y` to `y + h` that the sheet has, as first and one past.
    fn row_range(&self, y: u32, h: u32) -> (u32, u32) {
        let r0 = y.min(self.height);
        (r0, y.saturating_add(h).min(self.height).max(r0))
    }

    /// The runs of rows `r0` on, from their bytes `raw` and the row index
    /// `starts` of those rows (and where the next row's runs start).
    fn spans_of(&self, raw: &[u8], starts: &[u32], r0: u32) -> Option<Vec<Span>> {
        let first = *starts.first()?;
        let mut out = Vec::with_capacity(raw.len() / 12);
        let mut runs = raw.chunks_exact(12);
        for (i, w) in starts.windows(2).enumerate() {
            if w[0] > w[1] {
                return None;
            }
            let y = r0 + i as u32;
            for _ in w[0]..w[1] {
                let c = runs.next()?;
                let (x, c) = take_u32(c)?;
                let (at, c) = take_u32(c)?;
                let (len, _) = take_u32(c)?;
                out.push(Span { y, x, at, len });
            }
        }
        (out.len() as u64 == u64::from(*starts.last()?) - u64::from(first)).then_some(out)
    }
}

impl Runs {
    /// Runs from their `spans`, whose colours start at `colours`, the colour
    /// numbered `first` of the file: each run's colours checked to be within
    /// them and valid premultiplied colours.
    fn from_parts(height: u32, mut spans: Vec<Span>, colours: &[u8], first: u32) -> Option<Runs> {
        let n = colours.len() / 4;
        let mut pixels = Vec::with_capacity(n);
        for c in colours.chunks_exact(4) {
            pixels.push(tiny_skia::PremultipliedColorU8::from_rgba(
                c[0], c[1], c[2], c[3],
            )?);
        }
        for s in &mut spans {
            s.at = s.at.checked_sub(first)?;
            if u64::from(s.at) + u64::from(s.len) > n as u64 {
                return None;
            }
        }
        Some(Runs {
            height,
            spans,
            pixels,
        })
    }
}

/// The part `crop` of the base kept for `key` under `dir`, read alone, with
/// the whole base's width and height (a crop of `u32::MAX` on a side: all
/// of that side); `None` if the file is missing, not a whole base, or the
/// part is not all in it. Its buffer has `room` bytes to spare (for rows
/// to go under it). Only the part's rows are read, as runs: a map's base is
/// long runs of one colour, a tenth or less of its pixels' bytes.
pub(super) fn read_part(
    dir: &Path,
    key: &Digest,
    crop: Crop,
    room: usize,
) -> Option<(tiny_skia::Pixmap, (u32, u32))> {
    let f = std::fs::File::open(file(dir, key, Sheet::Base)).ok()?;
    let mut head = [0u8; BaseFile::HEAD];
    f.read_exact_at(&mut head, 0).ok()?;
    let layout = BaseFile::of_head(&head, f.metadata().ok()?.len())?;
    let (fw, fh) = (layout.width, layout.height);
    let Crop { x, y, mut w, mut h } = crop;
    if w == u32::MAX {
        w = fw.checked_sub(x)?;
    }
    if h == u32::MAX {
        h = fh.checked_sub(y)?;
    }
    let fits = u64::from(x) + u64::from(w) <= u64::from(fw)
        && u64::from(y) + u64::from(h) <= u64::from(fh);
    if !fits {
        return None;
    }
    // The row index from row y to y + h (where the next row's runs start).
    let mut index = vec![0u8; 4 * (h as usize + 1)];
    f.read_exact_at(&mut index, BaseFile::HEAD as u64 + 4 * u64::from(y))
        .ok()?;
    let starts: Vec<u32> = index
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let (s0, s1) = (*starts.first()?, *starts.last()?);
    if s0 > s1 || s1 > layout.runs {
        return None;
    }
    let mut runs = vec![0u8; 8 * (s1 - s0) as usize];
    f.read_exact_at(&mut runs, layout.runs_at() + 8 * u64::from(s0))
        .ok()?;
    let stretch = w as usize * 4;
    let mut body = Vec::with_capacity(stretch * h as usize + room);
    for row in starts.windows(2) {
        if row[0] > row[1] {
            return None;
        }
        let at = 8 * (row[0] - s0) as usize;
        let row_runs = runs.get(at..at + 8 * (row[1] - row[0]) as usize)?;
        unrun_row(row_runs, fw, (x, w), &mut body)?;
    }
    Some((base(w, h, body)?, (fw, fh)))
}

/// Appends the pixels from column `x` to `x + w` of a base's row of `fw`
/// pixels, from its runs (`runs`: each its length and colour, 8 bytes);
/// `None` if the runs do not cover the row exactly.
fn unrun_row(runs: &[u8], fw: u32, (x, w): (u32, u32), body: &mut Vec<u8>) -> Option<()> {
    let (x0, x1) = (u64::from(x), u64::from(x) + u64::from(w));
    let mut px: u64 = 0;
    for run in runs.chunks_exact(8) {
        let (len, colour) = run.split_at(4);
        let len = u64::from(u32::from_le_bytes(len.try_into().ok()?));
        let (a, b) = (px.max(x0), (px + len).min(x1));
        if a < b {
            fill(body, colour, (b - a) as usize);
        }
        px += len;
    }
    (px == u64::from(fw)).then_some(())
}

/// Appends `n` pixels of `colour` (4 bytes) to `body`: the colour once, then
/// what is there doubled, so a long run is a few copies, not a pixel at a time.
fn fill(body: &mut Vec<u8>, colour: &[u8], n: usize) {
    let from = body.len();
    let to = from + 4 * n;
    body.extend_from_slice(colour);
    while body.len() < to {
        let have = body.len() - from;
        body.extend_from_within(from..from + have.min(to - body.len()));
    }
}

/// Where the parts of a kept base's file lie: after [`MAGIC`], the base's
/// width, height and how many runs; then the row index (where each row's
/// runs start, and one past the last) and the runs (length, then the
/// colour as premultiplied RGBA), each row's covering it exactly.
struct BaseFile {
    width: u32,
    height: u32,
    runs: u32,
}

impl BaseFile {
    /// The bytes before the row index.
    const HEAD: usize = 20;

    /// The layout a file of `len` bytes starting with `head` has.
    fn of_head(head: &[u8; Self::HEAD], len: u64) -> Option<BaseFile> {
        let body = head.strip_prefix(MAGIC.as_slice())?;
        let (width, body) = take_u32(body)?;
        let (height, body) = take_u32(body)?;
        let (runs, _) = take_u32(body)?;
        let f = BaseFile {
            width,
            height,
            runs,
        };
        (f.runs_at() + 8 * u64::from(runs) == len).then_some(f)
    }

    fn runs_at(&self) -> u64 {
        Self::HEAD as u64 + 4 * (u64::from(self.height) + 1)
    }
}

/// The bytes of a kept base's file (see [`BaseFile`]).
fn base_file(p: &tiny_skia::Pixmap) -> Vec<u8> {
    let w = p.width() as usize;
    let mut index = Vec::with_capacity(4 * (p.height() as usize + 1));
    let mut runs: Vec<u8> = Vec::new();
    let mut count: u32 = 0;
    for row in p.data().chunks_exact((w * 4).max(4)) {
        index.extend(count.to_le_bytes());
        let mut pixels = row.chunks_exact(4);
        let Some(mut colour) = pixels.next() else {
            continue;
        };
        let mut n: u32 = 1;
        for c in pixels {
            if c == colour {
                n += 1;
            } else {
                runs.extend(n.to_le_bytes());
                runs.extend_from_slice(colour);
                count += 1;
                (colour, n) = (c, 1);
            }
        }
        runs.extend(n.to_le_bytes());
        runs.extend_from_slice(colour);
        count += 1;
    }
    index.extend(count.to_le_bytes());
    let mut out = MAGIC.to_vec();
    out.reserve(12 + index.len() + runs.len());
    out.extend(p.width().to_le_bytes());
    out.extend(p.height().to_le_bytes());
    out.extend(count.to_le_bytes());
    out.extend(index);
    out.extend(runs);
    out
}

/// Keeps `raster` for `key` and `kind` under `dir` (written whole or not at
/// all), then lets the oldest files go past [`SHELF_BYTES`].
pub(super) fn write(dir: &Path, key: &Digest, kind: Sheet, raster: &Raster) {
    let out = match raster {
        Raster::Base(p) => base_file(p),
        Raster::Over(runs) => runs_file(runs),
    };
    if put(dir, &file(dir, key, kind), &out).is_ok() {
        trim(dir, SHELF_BYTES);
    }
}

/// A map's sprite pack as a process found it: [`PACK_MAGIC`], then one
/// record a sprite: its key (the hash of its SVG, 32 bytes), its runs
/// file's length (4), a check over both (32: [`record_check`]), the runs
/// file ([`runs_file`]). A pack is appended to, one write a picture's new
/// sprites (two processes appending lay their records one after the other).
///
/// A process reads a pack's record heads only (where each sprite is), then
/// each sprite it needs, alone: a pack grows to megabytes of sprites and a
/// picture shows a few of them.
struct Pack {
    path: PathBuf,
    /// The pack's file as opened (a pack written again meanwhile is another
    /// file: this one still reads as it was indexed).
    file: Option<std::fs::File>,
    /// The file's length when it was indexed.
    len: u64,
    /// Where each sprite's record starts, and its runs file's length (the
    /// last record of a key, the newest, wins).
    records: HashMap<Digest, (u64, usize)>,
    /// Where the last whole record ends (0: the pack is missing or not one).
    end: u64,
    /// The bytes this process appended after those it indexed: not indexed
    /// (the sprites are kept in memory by whoever drew them).
    appended: usize,
}

/// A record's bytes before its runs file.
const RECORD_HEAD: usize = 68;

/// The check of a sprite's record: a cut or damaged record (a process
/// killed mid-write, a disk's error) is drawn again, never laid.
fn record_check(key: &Digest, body: &[u8]) -> Digest {
    Tagged::new("umpire-picture-sprite")
        .field(&key.0)
        .field(body)
        .finish()
}

impl Pack {
    /// The pack at `path` as it reads now (empty if missing or not a pack):
    /// its records' heads read, not their sprites.
    fn read(path: PathBuf) -> Pack {
        let file = std::fs::File::open(&path).ok();
        let len = file
            .as_ref()
            .and_then(|f| f.metadata().ok())
            .map_or(0, |m| m.len());
        let mut pack = Pack {
            path,
            file,
            len,
            records: HashMap::new(),
            end: 0,
            appended: 0,
        };
        let mut magic = [0u8; PACK_MAGIC.len()];
        if pack.read_at(&mut magic, 0).is_some() && &magic == PACK_MAGIC {
            pack.index_from(PACK_MAGIC.len() as u64);
        }
        pack
    }

    /// Fills `buf` from the pack's byte `at` on, within the length indexed.
    fn read_at(&self, buf: &mut [u8], at: u64) -> Option<()> {
        let to = at.checked_add(buf.len() as u64)?;
        if to > self.len {
            return None;
        }
        self.file.as_ref()?.read_exact_at(buf, at).ok()
    }

    /// Indexes the whole records from byte `at` on, up to the first that is
    /// cut short (its head or its runs past the file's end).
    fn index_from(&mut self, mut at: u64) {
        let mut head = [0u8; RECORD_HEAD];
        while self.read_at(&mut head, at).is_some() {
            let key = Digest(head[..32].try_into().unwrap_or_default());
            let len = u32::from_le_bytes(head[32..36].try_into().unwrap_or_default());
            let next = at + RECORD_HEAD as u64 + u64::from(len);
            if next > self.len {
                break;
            }
            self.records.insert(key, (at, len as usize));
            at = next;
        }
        self.end = at;
    }

    /// Whether the pack is a pack indexed whole, to be appended to as it is.
    fn whole(&self) -> bool {
        self.end >= PACK_MAGIC.len() as u64 && self.end == self.len
    }

    /// The runs of the sprite `key`, if its record is here and checks (its
    /// length was checked to lie within the file before reading it).
    fn sprite(&self, key: &Digest) -> Option<Runs> {
        let &(at, len) = self.records.get(key)?;
        let mut record = vec![0u8; RECORD_HEAD + len];
        self.read_at(&mut record, at)?;
        let (head, body) = record.split_at(RECORD_HEAD);
        if head[..32] != key.0 || record_check(key, body).0 != head[36..68] {
            return None;
        }
        runs_rows(body, len as u64, 0, u32::MAX)
    }

    /// The bytes of the whole records indexed (after the magic).
    fn whole_records(&self) -> Option<Vec<u8>> {
        let from = PACK_MAGIC.len() as u64;
        let mut bytes = vec![0u8; usize::try_from(self.end.checked_sub(from)?).ok()?];
        self.read_at(&mut bytes, from)?;
        Some(bytes)
    }

    /// Adds `records` (whole records) to the pack's file: appended (not to
    /// what this process indexed of it) when the pack was indexed whole and
    /// stays within [`PACK_BYTES`], else the pack written again (through a
    /// temporary file) with its whole records, or only the new ones when
    /// it is full. A write that fails is let go.
    fn add(&mut self, dir: &Path, records: &[u8]) {
        let len = self.len as usize + self.appended;
        if self.whole() && len + records.len() <= PACK_BYTES {
            let appended = std::fs::OpenOptions::new()
                .append(true)
                .open(&self.path)
                .and_then(|mut f| f.write_all(records));
            if appended.is_ok() {
                self.appended += records.len();
                return;
            }
        }
        let mut bytes = PACK_MAGIC.to_vec();
        if self.end as usize + records.len() <= PACK_BYTES {
            bytes.extend(self.whole_records().unwrap_or_default());
        }
        bytes.extend_from_slice(records);
        let written = put(dir, &self.path, &bytes).is_ok();
        *self = Pack::read(self.path.clone());
        if written {
            trim(dir, SHELF_BYTES);
        }
    }
}

/// The packs this process read, the most recently used first.
static PACKS: Mutex<Vec<Pack>> = Mutex::new(Vec::new());

/// The file of the map `map`'s sprite pack under `dir`.
fn pack_path(dir: &Path, map: &Digest) -> PathBuf {
    dir.join(format!("{}.sprites.pack", map.to_hex()).to_ascii_lowercase())
}

/// Calls `f` with the sprite pack of the map `map` under `dir`, read once
/// by this process.
fn with_pack<T>(dir: &Path, map: &Digest, f: impl FnOnce(&mut Pack) -> T) -> T {
    let path = pack_path(dir, map);
    let mut packs = PACKS.lock().unwrap_or_else(|e| e.into_inner());
    let pack = match packs.iter().position(|p| p.path == path) {
        Some(i) => packs.remove(i),
        None => Pack::read(path),
    };
    packs.insert(0, pack);
    packs.truncate(PACKS_KEPT);
    f(&mut packs[0])
}

/// The runs of the sprite `key` kept in the pack of the map `map` under
/// `dir`, if it is there and reads whole.
pub(super) fn sprite(dir: &Path, map: &Digest, key: &Digest) -> Option<Runs> {
    with_pack(dir, map, |p| p.sprite(key))
}

/// Keeps the sprites `drawn` (each by its key) in the pack of the map `map`
/// under `dir`: one write for them all.
pub(super) fn keep_sprites(dir: &Path, map: &Digest, drawn: &[(Digest, Arc<Runs>)]) {
    if drawn.is_empty() {
        return;
    }
    let mut records = Vec::new();
    for (key, runs) in drawn {
        let body = runs_file(runs);
        records.extend_from_slice(&key.0);
        records.extend((body.len() as u32).to_le_bytes());
        records.extend_from_slice(&record_check(key, &body).0);
        records.extend_from_slice(&body);
    }
    with_pack(dir, map, |p| p.add(dir, &records));
}

/// Lets go of the packs this process read (as a fresh process starts).
pub(super) fn forget_packs() {
    PACKS.lock().unwrap_or_else(|e| e.into_inner()).clear();
}

/// The bytes of a laid-over sheet's file (see [`RunsFile`]).
fn runs_file(runs: &Runs) -> Vec<u8> {
    let mut out = RUNS_MAGIC.to_vec();
    out.reserve(12 + 4 * runs.height as usize + 12 * runs.spans.len() + 4 * runs.pixels.len());
    out.extend(runs.height.to_le_bytes());
    out.extend((runs.spans.len() as u32).to_le_bytes());
    out.extend((runs.pixels.len() as u32).to_le_bytes());
    // Where each row's runs start, and one past the last.
    let mut next = 0;
    for y in 0..=runs.height {
        while runs.spans.get(next).is_some_and(|s| s.y < y) {
            next += 1;
        }
        out.extend((next as u32).to_le_bytes());
    }
    for s in &runs.spans {
        out.extend(s.x.to_le_bytes());
        out.extend(s.at.to_le_bytes());
        out.extend(s.len.to_le_bytes());
    }
    for p in &runs.pixels {
        out.extend([p.red(), p.green(), p.blue(), p.alpha()]);
    }
    out
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
            Some("raster" | "pack") => files.push((at, m.len(), path)),
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

    /// A base of runs of a few colours and single odd pixels, 37×23.
    fn patchy() -> tiny_skia::Pixmap {
        let mut p = tiny_skia::Pixmap::new(37, 23).unwrap();
        let mut z: u32 = 0x2545_F491;
        for (i, px) in p.pixels_mut().iter_mut().enumerate() {
            z ^= z << 13;
            z ^= z >> 17;
            z ^= z << 5;
            let v = if z.is_multiple_of(5) {
                z
            } else {
                (i as u32 / 9) % 3 * 0x40
            };
            let [r, g, b, _] = v.to_le_bytes();
            *px = tiny_skia::PremultipliedColorU8::from_rgba(r, g, b, 255).unwrap();
        }
        p
    }

    /// Any part of a kept base reads as the same part of the raster
    /// written, and a file whose runs do not cover a row reads as none.
    #[test]
    fn a_part_of_a_kept_base_is_that_part_of_its_raster() {
        let dir = tempfile::tempdir().unwrap();
        let key = sha256(b"patchy");
        let p = patchy();
        write(
            dir.path(),
            &key,
            Sheet::Base,
            &Raster::Base(Arc::new(p.clone())),
        );
        let Some(Raster::Base(back)) = read(dir.path(), &key, Sheet::Base) else {
            panic!("kept base not read");
        };
        assert_eq!(back.data(), p.data());
        for (x, y, w, h) in [
            (0, 0, 37, 23),
            (5, 3, 10, 7),
            (36, 22, 1, 1),
            (0, 10, 37, 1),
            (20, 0, 17, 23),
        ] {
            let crop = Crop { x, y, w, h };
            let (part, full) = read_part(dir.path(), &key, crop, 64).expect("a part");
            assert_eq!(full, (37, 23));
            let want: Vec<u8> = (y..y + h)
                .flat_map(|r| {
                    let at = 4 * (r * 37 + x) as usize;
                    p.data()[at..at + 4 * w as usize].to_vec()
                })
                .collect();
            assert_eq!(part.data(), &want[..], "{crop:?}");
        }
        let outside = Crop {
            x: 30,
            y: 0,
            w: 8,
            h: 1,
        };
        assert!(read_part(dir.path(), &key, outside, 0).is_none());
        // The first run one pixel longer: its row is 38 pixels.
        let path = file(dir.path(), &key, Sheet::Base);
        let mut bytes = std::fs::read(&path).unwrap();
        let first_run = BaseFile::HEAD + 4 * 24;
        bytes[first_run] += 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(read(dir.path(), &key, Sheet::Base).is_none());
        assert!(
            read_part(
                dir.path(),
                &key,
                Crop {
                    x: 0,
                    y: 0,
                    w: 2,
                    h: 1
                },
                0
            )
            .is_none()
        );
        assert!(
            read_part(
                dir.path(),
                &key,
                Crop {
                    x: 0,
                    y: 1,
                    w: 2,
                    h: 1
                },
                0
            )
            .is_some()
        );
    }

    /// Runs on rows 1, 4 and 5 of a sheet 7 rows high: two on row 4.
    fn some_runs() -> Runs {
        let px = |a: u8| tiny_skia::PremultipliedColorU8::from_rgba(a / 2, 6, 7, a).unwrap();
        let span = |y, x, at, len| Span { y, x, at, len };
        Runs {
            height: 7,
            spans: vec![
                span(1, 9, 0, 2),
                span(4, 0, 2, 1),
                span(4, 5, 3, 3),
                span(5, 2, 6, 1),
            ],
            pixels: (0..7).map(|i| px(100 + i)).collect(),
        }
    }

    /// [`some_runs`] kept for `key` under `dir`; the runs written.
    fn keep_some_runs(dir: &Path, key: &Digest) -> Runs {
        write(dir, key, Sheet::Kept, &Raster::Over(Arc::new(some_runs())));
        some_runs()
    }

    #[test]
    fn kept_runs_read_back_and_an_impossible_colour_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let key = sha256(b"names");
        let runs = keep_some_runs(dir.path(), &key);
        let Some(Raster::Over(back)) = read(dir.path(), &key, Sheet::Kept) else {
            panic!("kept runs not read");
        };
        assert_eq!(
            (back.height, &back.spans, &back.pixels),
            (7, &runs.spans, &runs.pixels)
        );
        // A colour brighter than its alpha is no premultiplied colour.
        let path = file(dir.path(), &key, Sheet::Kept);
        let mut bytes = std::fs::read(&path).unwrap();
        let n = bytes.len();
        bytes[n - 4] = 200;
        std::fs::write(&path, &bytes).unwrap();
        assert!(read(dir.path(), &key, Sheet::Kept).is_none());
        assert!(read_runs_rows(dir.path(), &key, Sheet::Kept, 5, 1).is_none());
        // A file cut short reads as nothing, whole or in part.
        bytes.truncate(n - 1);
        std::fs::write(&path, &bytes).unwrap();
        assert!(read(dir.path(), &key, Sheet::Kept).is_none());
        assert!(read_runs_rows(dir.path(), &key, Sheet::Kept, 0, 2).is_none());
    }

    /// A crop reads only its rows' runs, each with its own colours.
    #[test]
    fn a_crop_reads_only_the_runs_of_its_rows() {
        let dir = tempfile::tempdir().unwrap();
        let key = sha256(b"control");
        let runs = keep_some_runs(dir.path(), &key);
        let part = read_runs_rows(dir.path(), &key, Sheet::Kept, 3, 2).expect("rows 3 and 4");
        let ys: Vec<u32> = part.spans.iter().map(|s| s.y).collect();
        assert_eq!(ys, [4, 4]);
        for (got, want) in part.spans.iter().zip(&runs.spans[1..3]) {
            assert_eq!((got.x, got.len), (want.x, want.len));
            assert_eq!(part.colours(got), runs.colours(want));
        }
        // Rows past the sheet, and none at all, hold no runs.
        let none = read_runs_rows(dir.path(), &key, Sheet::Kept, 6, 10).expect("row 6 on");
        assert!(none.spans.is_empty() && none.pixels.is_empty());
        let all = read_runs_rows(dir.path(), &key, Sheet::Kept, 0, 7).expect("every row");
        assert_eq!((&all.spans, &all.pixels), (&runs.spans, &runs.pixels));
    }

    /// Sprites `n..n + k`: [`some_runs`] with their first colour changed.
    fn sprites(n: u8, k: u8) -> Vec<(Digest, Arc<Runs>)> {
        (n..n + k)
            .map(|i| {
                let mut runs = some_runs();
                runs.pixels[0] = tiny_skia::PremultipliedColorU8::from_rgba(i / 2, 0, 0, i)
                    .unwrap_or(runs.pixels[0]);
                (sha256(&[b's', i]), Arc::new(runs))
            })
            .collect()
    }

    /// What the pack of `map` under `dir` gives for each of `sprites`, as
    /// a fresh process reads it: its first colour's alpha, if kept.
    fn read_back(dir: &Path, map: &Digest, sprites: &[(Digest, Arc<Runs>)]) -> Vec<Option<u8>> {
        forget_packs();
        sprites
            .iter()
            .map(|(key, want)| {
                let got = sprite(dir, map, key)?;
                assert_eq!((&got.spans, &got.pixels), (&want.spans, &want.pixels));
                Some(got.pixels[0].alpha())
            })
            .collect()
    }

    #[test]
    fn a_map_s_sprites_share_one_pack_appended_to_and_read_back_whole() {
        let dir = tempfile::tempdir().unwrap();
        let map = sha256(b"map");
        let (first, second) = (sprites(10, 3), sprites(20, 2));
        keep_sprites(dir.path(), &map, &first);
        keep_sprites(dir.path(), &map, &second);
        // A process that read the pack before another appended to it
        // appends after that one's records.
        forget_packs();
        let third = sprites(30, 1);
        assert!(sprite(dir.path(), &map, &third[0].0).is_none());
        keep_sprites(dir.path(), &map, &third);
        let files: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(files.len(), 1, "one file for every sprite");
        let all: Vec<_> = [first, second, third].concat();
        let alphas = read_back(dir.path(), &map, &all);
        assert_eq!(alphas, [10, 11, 12, 20, 21, 30].map(Some));
        // Another map's sprites are another pack.
        assert!(sprite(dir.path(), &sha256(b"other"), &all[0].0).is_none());
    }

    #[test]
    fn a_damaged_or_cut_pack_is_not_trusted_and_is_written_again_whole() {
        let dir = tempfile::tempdir().unwrap();
        let map = sha256(b"damaged map");
        let kept = sprites(40, 3);
        keep_sprites(dir.path(), &map, &kept);
        let path = pack_path(dir.path(), &map);
        let good = std::fs::read(&path).unwrap();
        // A colour of the second sprite changed (still a valid colour): its
        // record's check fails, the others read.
        let second = PACK_MAGIC.len() + (good.len() - PACK_MAGIC.len()) / 3;
        let mut bytes = good.clone();
        let last = second + (good.len() - PACK_MAGIC.len()) / 3 - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(
            read_back(dir.path(), &map, &kept),
            [Some(40), None, Some(42)]
        );
        // Cut in its last record (a process killed mid-write): that record
        // is left out, and the next sprites kept write the pack again with
        // the whole records before it.
        std::fs::write(&path, &good[..good.len() - 5]).unwrap();
        assert_eq!(
            read_back(dir.path(), &map, &kept),
            [Some(40), Some(41), None]
        );
        let more = sprites(50, 1);
        keep_sprites(dir.path(), &map, &more);
        let both: Vec<_> = [kept.clone(), more.clone()].concat();
        assert_eq!(
            read_back(dir.path(), &map, &both),
            [Some(40), Some(41), None, Some(50)]
        );
        // Not a pack at all, or cut inside a record's head: nothing read,
        // nothing panics, and the next sprites kept make a pack of them.
        for junk in [
            &b"UMPRAS1\ngarbage"[..],
            &good[..PACK_MAGIC.len() + 40],
            b"",
        ] {
            std::fs::write(&path, junk).unwrap();
            assert_eq!(read_back(dir.path(), &map, &kept), [None, None, None]);
            keep_sprites(dir.path(), &map, &more);
            assert_eq!(read_back(dir.path(), &map, &more), [Some(50)]);
        }
    }

    #[test]
    fn a_full_pack_starts_again_with_the_sprites_drawn_last() {
        let dir = tempfile::tempdir().unwrap();
        let map = sha256(b"full map");
        let one = sprites(60, 1);
        keep_sprites(dir.path(), &map, &one);
        // A sprite as big as the rest of the pack's budget.
        let mut big = some_runs();
        let n = PACK_BYTES / 4;
        big.pixels = vec![big.pixels[0]; n];
        big.spans = vec![Span {
            y: 0,
            x: 0,
            at: 0,
            len: n as u32,
        }];
        let big = vec![(sha256(b"big"), Arc::new(big))];
        keep_sprites(dir.path(), &map, &big);
        forget_packs();
        assert!(sprite(dir.path(), &map, &one[0].0).is_none(), "let go");
        assert!(sprite(dir.path(), &map, &big[0].0).is_some(), "kept");
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
