//! SVG to PNG with resvg, using only the font embedded in the binary
//! (`assets/fonts/`), never the system's: the same picture on every machine.

use super::doc::{Base, Part, Sheet};
use resvg::{tiny_skia, usvg};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};
use umpire_core::hash::{Digest, sha256};

/// The one font every picture uses (DejaVu Sans, licence beside it).
pub const FONT: &[u8] = include_bytes!("../../../../assets/fonts/DejaVuSans.ttf");
/// Its family name, as the SVG names it.
pub const FAMILY: &str = "DejaVu Sans";
/// Largest picture drawn, per side in pixels (a bound on the work per mail).
pub const MAX_SIDE: u32 = 4096;

/// Why a picture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    #[error("the map picture is not valid SVG: {0}")]
    Svg(String),
    #[error("the map picture is {0}×{1} pixels, more than {MAX_SIDE} on a side")]
    TooBig(u32, u32),
    #[error("the part {0:?} is not within the {1}×{2} picture")]
    Crop(Crop, u32, u32),
    #[error("could not encode the map picture as PNG: {0}")]
    Png(String),
}

fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_sans_serif_family(FAMILY);
        db.set_serif_family(FAMILY);
        db.set_monospace_family(FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// An SVG document parsed with the embedded font, its size checked.
fn tree(svg: &str) -> Result<usvg::Tree, PictureError> {
    let opt = usvg::Options {
        font_family: FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| PictureError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(PictureError::TooBig(w, h));
    }
    Ok(tree)
}

/// `svg` drawn over `pixmap` (a new blank one of the document's size if none).
fn draw(svg: &str, pixmap: Option<tiny_skia::Pixmap>) -> Result<tiny_skia::Pixmap, PictureError> {
    let tree = tree(svg)?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    let mut pixmap = match pixmap {
        Some(p) if (p.width(), p.height()) == (w, h) => p,
        _ => tiny_skia::Pixmap::new(w, h).ok_or(PictureError::TooBig(w, h))?,
    };
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Rasterises an SVG document to PNG bytes at its own size.
pub fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    encode(&draw(svg, None)?).map_err(|e| PictureError::Png(e.to_string()))
}

/// Most bytes of rasters a process keeps, the least recently used let go
/// first: a few games' bases (about 8 MB for the largest map), their names
/// and keys, and the stacks of counters on them (a few kB each). However
/// many maps and looks a daemon meets, it keeps no more.
const KEPT_BYTES: usize = 64 << 20;

/// PNG bytes of a picture drawn sheet over sheet (see [`Sheet`]): the base
/// and the kept sheets are rasterised once and kept by their text's hash, so
/// a poll that mails a map to every side, or a daemon's next poll, draws only
/// what play changed. The pixels are those of the whole document drawn at
/// once, up to the rounding of a laid-over sheet's edges.
///
/// `shelf`, if given, is a folder where the kept rasters are also written and
/// looked for, so that the next process reads them instead of drawing them
/// (a cron poll is a fresh process every time).
pub fn png_sheets(
    base: &Base,
    sheets: &[Part],
    shelf: Option<&Path>,
) -> Result<Vec<u8>, PictureError> {
    let picture = compose(base, sheets, None, shelf, 0)?;
    encode(&picture).map_err(|e| PictureError::Png(e.to_string()))
}

/// The base sheet, then each other sheet over it: all of it, or the part
/// `crop` (leaving the key out), its buffer with room for `below` more rows
/// (a key to go under it).
fn compose(
    base: &Base,
    sheets: &[Part],
    crop: Option<Crop>,
    shelf: Option<&Path>,
    below: u32,
) -> Result<tiny_skia::Pixmap, PictureError> {
    let room = crop.map_or(0, |c| c.w as usize * below as usize * 4);
    let rows = base_rows(base, crop, shelf, room)?;
    let (fw, fh) = rows.full;
    let Crop { x, y, w, h } = crop.unwrap_or(Crop {
        x: 0,
        y: 0,
        w: fw,
        h: fh,
    });
    if w == 0 || h == 0 || x + w > fw || y + h > fh || x < rows.at.0 || y < rows.at.1 {
        return Err(PictureError::Crop(Crop { x, y, w, h }, fw, fh));
    }
    let mut picture = match crop {
        None => (*rows.pixmap).clone(),
        // The crop itself, read from the shelf: no copy.
        Some(_) if rows.at == (x, y) && (rows.pixmap.width(), rows.pixmap.height()) == (w, h) => {
            Arc::unwrap_or_clone(rows.pixmap)
        }
        Some(_) => copy_part(&rows.pixmap, (x - rows.at.0, y - rows.at.1), (w, h), room)?,
    };
    let shift = tiny_skia::Transform::from_translate(-(x as f32), -(y as f32));
    for part in sheets {
        match part {
            Part::Svg(Sheet::Drawn | Sheet::Sprites, svg) => {
                resvg::render(&tree(svg)?, shift, &mut picture.as_mut())
            }
            Part::Svg(Sheet::Key, _) if crop.is_some() => {}
            Part::Svg(kind @ (Sheet::Kept | Sheet::Key), svg) => lay_over(
                runs_of(svg, *kind, shelf, crop.map(|c| (c.y, c.h)))?.as_ref(),
                &mut picture,
                (-i64::from(x), -i64::from(y)),
            ),
            Part::Svg(Sheet::Base, _) => return Err(PictureError::Svg("a second base".into())),
            Part::Sprites(sprites) => {
                // The sprites drawn now, for the map's pack on the shelf.
                let mut drawn = Vec::new();
                let pack = pack_of(base, shelf);
                // A picture of the action lays only the sprites it shows.
                let shown = |s: &&super::doc::Sprite| {
                    let (x0, y0) = (i64::from(s.at.0), i64::from(s.at.1));
                    let (x1, y1) = (x0 + i64::from(s.size.0), y0 + i64::from(s.size.1));
                    let (cx, cy) = (i64::from(x), i64::from(y));
                    x1 > cx && x0 < cx + i64::from(w) && y1 > cy && y0 < cy + i64::from(h)
                };
                for s in sprites.iter().filter(shown) {
                    let at = (
                        i64::from(s.at.0) - i64::from(x),
                        i64::from(s.at.1) - i64::from(y),
                    );
                    let runs = sprite_runs(&s.svg, None, pack.as_ref(), &mut drawn)?;
                    lay_over(&runs, &mut picture, at);
                }
                if let Some((dir, map)) = &pack {
                    super::shelf::keep_sprites(dir, map, &drawn);
                }
            }
        }
    }
    Ok(picture)
}

/// A kept sheet's raster: the base whole, or the runs of pixels a sheet laid
/// over it covers (names and a key cover a few per cent of a map: laying
/// over only those is a small part of blending a whole clear sheet).
#[derive(Clone)]
pub(super) enum Raster {
    Base(Arc<tiny_skia::Pixmap>),
    Over(Arc<Runs>),
}

/// The pixels a laid-over sheet covers: each run of them on a row, in row
/// order, and all the runs' colours in one buffer (a map's names are tens
/// of thousands of short runs: one allocation, not one a run).
#[derive(Default)]
pub(super) struct Runs {
    /// How many rows the sheet has (those of the runs are below it).
    pub(super) height: u32,
    pub(super) spans: Vec<Span>,
    pub(super) pixels: Vec<tiny_skia::PremultipliedColorU8>,
}

/// One run of covered pixels: its row, first column, and where its colours
/// are in [`Runs::pixels`] and how many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Span {
    pub(super) y: u32,
    pub(super) x: u32,
    pub(super) at: u32,
    pub(super) len: u32,
}

impl Runs {
    /// The colours of `span` (none if it points past them: a damaged file
    /// is refused on reading, so this does not happen).
    pub(super) fn colours(&self, span: &Span) -> &[tiny_skia::PremultipliedColorU8] {
        let (at, len) = (span.at as usize, span.len as usize);
        self.pixels.get(at..at + len).unwrap_or(&[])
    }
}

/// The runs of pixels `p` covers (alpha above zero), row by row.
fn runs(p: &tiny_skia::Pixmap) -> Runs {
    runs_on(p, None)
}

/// The runs of pixels `p` covers (alpha above zero) other than those of
/// its `ground` colour, row by row: what is drawn on a sprite of that
/// ground, laid on the same ground, is its pixels as drawn there.
fn runs_on(p: &tiny_skia::Pixmap, ground: Option<tiny_skia::PremultipliedColorU8>) -> Runs {
    let shows = |c: &tiny_skia::PremultipliedColorU8| c.alpha() > 0 && Some(*c) != ground;
    let w = p.width() as usize;
    let mut out = Runs {
        height: p.height(),
        ..Runs::default()
    };
    for (y, row) in p.pixels().chunks(w.max(1)).enumerate() {
        let mut x = 0;
        while x < w {
            if !shows(&row[x]) {
                x += 1;
                continue;
            }
            let start = x;
            while x < w && shows(&row[x]) {
                x += 1;
            }
            out.spans.push(Span {
                y: y as u32,
                x: start as u32,
                at: out.pixels.len() as u32,
                len: (x - start) as u32,
            });
            out.pixels.extend_from_slice(&row[start..x]);
        }
    }
    out
}

/// Lays `runs` over the opaque `picture`, the runs' origin at `at` of the
/// picture (source over; what falls outside is left out).
fn lay_over(runs: &Runs, picture: &mut tiny_skia::Pixmap, at: (i64, i64)) {
    let (w, h) = (i64::from(picture.width()), i64::from(picture.height()));
    let px = picture.pixels_mut();
    // The runs are in row order: skip to the picture's first row.
    let first = runs.spans.partition_point(|s| i64::from(s.y) + at.1 < 0);
    for span in &runs.spans[first..] {
        let y = i64::from(span.y) + at.1;
        if y >= h {
            break;
        }
        let colours = runs.colours(span);
        let x0 = i64::from(span.x) + at.0;
        // The run's pixels that fall within the picture's columns.
        let skip = (-x0).clamp(0, colours.len() as i64) as usize;
        let keep = (w - x0).clamp(0, colours.len() as i64) as usize;
        if skip >= keep {
            continue;
        }
        // Both ends within the picture's row `y` (`x0 + skip` is at least 0).
        let from = (y * w + x0 + skip as i64) as usize;
        let to = from + (keep - skip);
        let Some(row) = px.get_mut(from..to) else {
            continue;
        };
        for (d, s) in row.iter_mut().zip(&colours[skip..keep]) {
            *d = if s.alpha() == 255 { *s } else { over(*s, *d) };
        }
    }
}

/// `s` over the opaque `d`, both premultiplied.
fn over(
    s: tiny_skia::PremultipliedColorU8,
    d: tiny_skia::PremultipliedColorU8,
) -> tiny_skia::PremultipliedColorU8 {
    let keep = 255 - u32::from(s.alpha());
    let mix = |s: u8, d: u8| (u32::from(s) + (u32::from(d) * keep + 127) / 255).min(255) as u8;
    let c = tiny_skia::PremultipliedColorU8::from_rgba(
        mix(s.red(), d.red()),
        mix(s.green(), d.green()),
        mix(s.blue(), d.blue()),
        255,
    );
    c.unwrap_or(d)
}

/// The runs a laid-over sheet `svg` covers, drawn now if not kept; with
/// `rows` (first and how many) and a `shelf`, only those rows are read from
/// the shelf when the sheet is not kept in this process (a crop of a map
/// needs a few hundred of its rows of names).
fn runs_of(
    svg: &str,
    kind: Sheet,
    shelf: Option<&Path>,
    rows: Option<(u32, u32)>,
) -> Result<Arc<Runs>, PictureError> {
    let key = sha256(svg.as_bytes());
    if let (Some((y, h)), Some(dir)) = (rows, shelf) {
        if let Some(Raster::Over(runs)) = in_memory(&key, kind) {
            return Ok(runs);
        }
        if let Some(runs) = super::shelf::read_runs_rows(dir, &key, kind, y, h) {
            return Ok(Arc::new(runs));
        }
    }
    match kept_by(key, kind, shelf, || svg.to_string())? {
        Raster::Over(runs) => Ok(runs),
        Raster::Base(_) => Err(PictureError::Svg("a sheet kept as a base".into())),
    }
}

/// The runs of the sprite `svg`: kept in this process, else in its map's
/// pack on the shelf (`pack`: the shelf and the map's key), else drawn now
/// and pushed on `drawn` (by its key) for the pack.
///
/// A process keeps a map's sprites apart from another map's: a sprite the
/// same on two maps (the key's "the last action") kept for the first would
/// otherwise never be drawn for the second, nor put in its pack, and every
/// fresh process would draw it again for the second map.
fn sprite_runs(
    svg: &str,
    ground: Option<tiny_skia::PremultipliedColorU8>,
    pack: Option<&(&Path, Digest)>,
    drawn: &mut Vec<(Digest, Arc<Runs>)>,
) -> Result<Arc<Runs>, PictureError> {
    let key = sha256(svg.as_bytes());
    let kept_as = match pack {
        Some((_, map)) => umpire_core::hash::Tagged::new("umpire-picture-sprite-of-map")
            .field(&map.0)
            .field(&key.0)
            .finish(),
        None => key,
    };
    if let Some(Raster::Over(runs)) = in_memory(&kept_as, Sheet::Sprites) {
        return Ok(runs);
    }
    let runs = match pack.and_then(|(dir, map)| super::shelf::sprite(dir, map, &key)) {
        Some(runs) => Arc::new(runs),
        None => {
            let runs = Arc::new(runs_on(&draw(svg, None)?, ground));
            if pack.is_some() {
                drawn.push((key, runs.clone()));
            }
            runs
        }
    };
    keep(kept_as, Sheet::Sprites, Raster::Over(runs.clone()));
    Ok(runs)
}

/// A base's raster: all of it, or the part a crop needs read from the shelf.
struct BaseRows {
    pixmap: Arc<tiny_skia::Pixmap>,
    /// Where in the whole raster the pixmap's top left pixel is.
    at: (u32, u32),
    /// The whole raster's width and height.
    full: (u32, u32),
}

/// The pixels of `base` that `crop` needs (all when there is no crop): the
/// raster kept in this process, else, for a crop, only its part read from
/// the `shelf` (a fresh process reads a few hundred kB, not a whole map's
/// megabytes; its buffer with `room` bytes to spare), else the whole raster
/// as [`kept_base`] finds or draws it.
fn base_rows(
    base: &Base,
    crop: Option<Crop>,
    shelf: Option<&Path>,
    room: usize,
) -> Result<BaseRows, PictureError> {
    let whole = |pixmap: Arc<tiny_skia::Pixmap>| BaseRows {
        full: (pixmap.width(), pixmap.height()),
        at: (0, 0),
        pixmap,
    };
    let key = base.key();
    if let (Some(c), Some(dir), Some(key)) = (crop, shelf, key) {
        if let Some(Raster::Base(p)) = in_memory(&key, Sheet::Base) {
            return Ok(whole(p));
        }
        if let Some((pixmap, full)) = super::shelf::read_part(dir, &key, c, room) {
            return Ok(BaseRows {
                pixmap: Arc::new(pixmap),
                at: (c.x, c.y),
                full,
            });
        }
    }
    Ok(whole(kept_base(base, key, shelf)?))
}

/// The part of `from` `size` big from `(x, y)` on, as a pixmap of its own
/// (its buffer with `room` bytes to spare).
fn copy_part(
    from: &tiny_skia::Pixmap,
    (x, y): (u32, u32),
    (w, h): (u32, u32),
    room: usize,
) -> Result<tiny_skia::Pixmap, PictureError> {
    let (fw, x, y) = (from.width() as usize, x as usize, y as usize);
    let (rw, rh) = (w as usize * 4, h as usize);
    let src = from.data();
    let mut data = Vec::with_capacity(rw * rh + room);
    for r in 0..rh {
        let s = ((y + r) * fw + x) * 4;
        let row = src.get(s..s + rw).ok_or(PictureError::TooBig(w, h))?;
        data.extend_from_slice(row);
    }
    let size = tiny_skia::IntSize::from_wh(w, h).ok_or(PictureError::TooBig(w, h))?;
    tiny_skia::Pixmap::from_vec(data, size).ok_or(PictureError::TooBig(w, h))
}

/// The raster of `base`, kept by its `key` ([`Base::key`]): its SVG is
/// written only when the raster is neither kept in this process nor on the
/// `shelf`.
fn kept_base(
    base: &Base,
    key: Option<Digest>,
    shelf: Option<&Path>,
) -> Result<Arc<tiny_skia::Pixmap>, PictureError> {
    let raster = match key {
        Some(key) => kept_by(key, Sheet::Base, shelf, || base.svg())?,
        None => kept(&base.svg(), Sheet::Base, shelf)?,
    };
    match raster {
        Raster::Base(p) => Ok(p),
        Raster::Over(_) => Err(PictureError::Svg("a base laid over".into())),
    }
}

/// The raster kept in this process for `key` and `kind`, if any (made the
/// most recently used).
fn in_memory(key: &Digest, kind: Sheet) -> Option<Raster> {
    let mut kept = KEEP.lock().unwrap_or_else(|e| e.into_inner());
    let i = kept.iter().position(|k| (k.key, k.kind) == (*key, kind))?;
    let hit = kept.remove(i);
    let r = hit.raster.clone();
    kept.insert(0, hit);
    Some(r)
}

/// The raster of the kept sheet `svg` (the base opaque, the others the
/// runs they cover), kept by the hash of its text ([`kept_by`]).
fn kept(svg: &str, kind: Sheet, shelf: Option<&Path>) -> Result<Raster, PictureError> {
    kept_by(sha256(svg.as_bytes()), kind, shelf, || svg.to_string())
}

/// The raster of the `kind` sheet kept by `key`: kept in this process, else
/// on the `shelf`, else drawn now from the SVG `svg` writes (and put on the
/// shelf).
fn kept_by(
    key: Digest,
    kind: Sheet,
    shelf: Option<&Path>,
    svg: impl FnOnce() -> String,
) -> Result<Raster, PictureError> {
    if let Some(r) = in_memory(&key, kind) {
        return Ok(r);
    }
    let raster = match shelf.and_then(|dir| super::shelf::read(dir, &key, kind)) {
        Some(r) => r,
        None => {
            let drawn = draw(&svg(), None)?;
            let raster = match kind {
                Sheet::Base => Raster::Base(Arc::new(drawn)),
                _ => Raster::Over(Arc::new(runs(&drawn))),
            };
            if let Some(dir) = shelf {
                super::shelf::write(dir, &key, kind, &raster);
            }
            raster
        }
    };
    keep(key, kind, raster.clone());
    Ok(raster)
}

/// Keeps `raster` in this process for `key` and `kind`, the most recently
/// used, within [`KEPT_BYTES`].
fn keep(key: Digest, kind: Sheet, raster: Raster) {
    let bytes = raster.bytes();
    let mut kept = KEEP.lock().unwrap_or_else(|e| e.into_inner());
    kept.retain(|k| (k.key, k.kind) != (key, kind));
    kept.insert(
        0,
        Kept {
            key,
            kind,
            bytes,
            raster,
        },
    );
    let_go(&mut kept, KEPT_BYTES);
}

/// The rasters this process keeps, the most recently used first.
static KEEP: Mutex<Vec<Kept>> = Mutex::new(Vec::new());

/// Lets go of every raster this process keeps, as if it had just started
/// (what a cron poll meets): for benchmarks and tests.
pub fn forget_kept() {
    KEEP.lock().unwrap_or_else(|e| e.into_inner()).clear();
    super::shelf::forget_packs();
}

/// Lets the least recently used rasters (the last) go until `kept` holds at
/// most `budget` bytes, or only the newest.
fn let_go(kept: &mut Vec<Kept>, budget: usize) {
    let mut total: usize = kept.iter().map(|k| k.bytes).sum();
    while total > budget && kept.len() > 1 {
        total -= kept.pop().map_or(0, |k| k.bytes);
    }
}

/// A kept raster, by its sheet's hash and kind, with its size.
struct Kept {
    key: Digest,
    kind: Sheet,
    bytes: usize,
    raster: Raster,
}

impl Raster {
    /// About how many bytes it holds.
    fn bytes(&self) -> usize {
        match self {
            Raster::Base(p) => p.data().len(),
            Raster::Over(runs) => 16 * runs.spans.len() + 4 * runs.pixels.len(),
        }
    }
}

/// A part of a picture in whole pixels: left, top, width, height.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crop {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
}

/// The key under a picture of the action: its height in pixels, its paper
/// (`#rrggbb`) and its entries as sprites drawn on that paper, each at its
/// place in the key (only what differs from the paper is laid).
pub struct Under {
    pub height: u32,
    pub paper: &'static str,
    pub entries: Vec<super::doc::Sprite>,
}

/// PNG bytes of the part `crop` of a picture drawn sheet over sheet (as
/// [`png_sheets`] draws it, its key left out), with the key `under` (as
/// wide as the crop) below it.
pub fn png_crop(
    base: &Base,
    sheets: &[Part],
    crop: Crop,
    under: &Under,
    shelf: Option<&Path>,
) -> Result<Vec<u8>, PictureError> {
    let map = compose(base, sheets, Some(crop), shelf, under.height)?;
    let (w, h) = (crop.w, crop.h);
    if map.width() != w || map.height() != h {
        return Err(PictureError::Crop(crop, map.width(), map.height()));
    }
    let below = under.height;
    let size =
        tiny_skia::IntSize::from_wh(w, h + below).ok_or(PictureError::TooBig(w, h + below))?;
    // The crop's own pixels, the key's paper appended (room for it was
    // made when the crop was read): no second copy of them.
    let mut data = map.take();
    let paper = solid(under.paper).ok_or_else(|| PictureError::Svg(under.paper.into()))?;
    let rows = w as usize * below as usize;
    data.reserve(rows * 4);
    for _ in 0..rows {
        data.extend_from_slice(&paper);
    }
    let mut out =
        tiny_skia::Pixmap::from_vec(data, size).ok_or(PictureError::TooBig(w, h + below))?;
    // The key's entries: each drawn once for the map and kept with its
    // stacks (in this process and in its pack on the shelf), laid on the
    // paper. The key changes with play as its entries do, and the entries
    // that come and go are few.
    let pack = pack_of(base, shelf);
    let mut drawn = Vec::new();
    let ground = tiny_skia::PremultipliedColorU8::from_rgba(paper[0], paper[1], paper[2], 255);
    for s in &under.entries {
        let runs = sprite_runs(&s.svg, ground, pack.as_ref(), &mut drawn)?;
        lay_over(
            &runs,
            &mut out,
            (i64::from(s.at.0), i64::from(h) + i64::from(s.at.1)),
        );
    }
    if let Some((dir, map)) = &pack {
        super::shelf::keep_sprites(dir, map, &drawn);
    }
    encode(&out).map_err(|e| PictureError::Png(e.to_string()))
}

/// The premultiplied bytes of the opaque colour `#rrggbb`.
fn solid(hex: &str) -> Option<[u8; 4]> {
    let hex = hex.strip_prefix('#').filter(|h| h.len() == 6)?;
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?, 255])
}

/// Where the sprites of `base`'s map are kept on the `shelf`: the folder and
/// the map's key (its base's).
fn pack_of<'a>(base: &Base, shelf: Option<&'a Path>) -> Option<(&'a Path, Digest)> {
    shelf.map(|dir| (dir, base.key().unwrap_or_else(|| sha256(b"sprites"))))
}

/// PNG of an opaque picture, indexed: flat fills make a map a few hundred
/// colours at most, nearly all of them in a handful; the anti-aliased edges of
/// text add rare in-between shades. The 256 commonest colours make the palette
/// and a rarer shade takes its nearest, which a reader cannot tell apart and
/// which keeps a mail's map small.
fn encode(p: &tiny_skia::Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let w = p.width() as usize;
    let (runs, colours, counts) = colour_runs(p);
    let (palette, index) = palette_of(&colours, &counts);
    // Each row: its filter byte (none: palette indices compress best
    // unfiltered), then its pixels' indices.
    let mut data = Vec::with_capacity(p.pixels().len() + p.height() as usize);
    let mut x = 0;
    for &(id, n) in &runs {
        if x == 0 {
            data.push(0);
        }
        let (i, n) = (index[id as usize], n as usize);
        if n < 16 {
            data.extend(std::iter::repeat_n(i, n));
        } else {
            data.resize(data.len() + n, i);
        }
        x += n;
        if x >= w {
            x = 0;
        }
    }
    let idat = deflate(&data)?;
    let mut out = Vec::with_capacity(idat.len() + 3 * palette.len() + 128);
    let mut e = png::Encoder::new(&mut out, p.width(), p.height());
    e.set_depth(png::BitDepth::Eight);
    e.set_color(png::ColorType::Indexed);
    e.set_palette(
        palette
            .iter()
            .flat_map(|c| rgb_bytes(*c))
            .collect::<Vec<u8>>(),
    );
    let mut w = e.write_header()?;
    w.write_chunk(png::chunk::IDAT, &idat)?;
    w.finish()?;
    Ok(out)
}

/// A picture's runs of one colour, row by row (a run ends with its row):
/// each run's colour by its number and its length; the colours
/// (`0x00RRGGBB`) numbered in the order met; and each colour's pixels.
/// A map is long runs of one colour, nearly all of a handful: a run's
/// colour is looked up once, and not at all when it is the last run's.
#[allow(clippy::type_complexity)] // three lists of one pass
fn colour_runs(p: &tiny_skia::Pixmap) -> (Vec<(u32, u32)>, Vec<u32>, Vec<u64>) {
    let w = p.width() as usize;
    // Room for a run every eight pixels (a crop's text and edges make
    // many): growing the list was a tenth of finding the runs.
    let mut runs: Vec<(u32, u32)> = Vec::with_capacity(p.pixels().len() / 8 + 64);
    let mut ids: ByColour<u32> = ByColour::with_capacity_and_hasher(1024, Default::default());
    let (mut colours, mut counts) = (Vec::new(), Vec::new());
    // A pixel's four bytes compared as one word (premultiplied equals
    // straight when opaque); its colour taken once a run.
    let rgb = |c: u32| {
        c.to_ne_bytes()[..3]
            .iter()
            .fold(0, |a, b| a << 8 | u32::from(*b))
    };
    let mut last: Option<(u32, u32)> = None;
    let mut push = |pixel: u32, n: u32| {
        let id = match last {
            Some((word, id)) if word == pixel => id,
            _ => {
                let c = rgb(pixel);
                let id = *ids.entry(c).or_insert_with(|| {
                    colours.push(c);
                    counts.push(0);
                    colours.len() as u32 - 1
                });
                last = Some((pixel, id));
                id
            }
        };
        counts[id as usize] += u64::from(n);
        runs.push((id, n));
    };
    for row in p.data().chunks_exact((w * 4).max(4)) {
        let mut pixels = row
            .chunks_exact(4)
            .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]));
        let Some(mut pixel) = pixels.next() else {
            continue;
        };
        let mut n = 1;
        for c in pixels {
            if c == pixel {
                n += 1;
            } else {
                push(pixel, n);
                (pixel, n) = (c, 1);
            }
        }
        push(pixel, n);
    }
    (runs, colours, counts)
}

/// The zlib stream of a picture's rows, at deflate level 1: a fifth of
/// level 6's time for about a half more bytes (Sarhu's whole map 114 kB
/// against 75 kB; a picture of the action a fraction of that). One call
/// over all the rows, with a compressor kept by the thread (its tables are
/// most of what a small picture's deflate would otherwise set up): the
/// same rows give the same bytes.
fn deflate(data: &[u8]) -> Result<Vec<u8>, png::EncodingError> {
    use flate2::{Compress, Compression, FlushCompress, Status};
    thread_local! {
        static Z: std::cell::RefCell<Compress> =
            std::cell::RefCell::new(Compress::new(Compression::new(1), true));
    }
    Z.with_borrow_mut(|z| {
        z.reset();
        let mut out = Vec::with_capacity(data.len() / 4 + 64);
        loop {
            let read = z.total_in() as usize;
            let status = z
                .compress_vec(&data[read..], &mut out, FlushCompress::Finish)
                .map_err(|e| png::EncodingError::from(std::io::Error::other(e)))?;
            match status {
                Status::StreamEnd => return Ok(out),
                Status::Ok | Status::BufError => out.reserve(out.capacity().max(4096)),
            }
        }
    })
}

/// The red, green and blue bytes of `0x00RRGGBB`.
fn rgb_bytes(c: u32) -> [u8; 3] {
    let [_, r, g, b] = c.to_be_bytes();
    [r, g, b]
}

/// A hasher for colours: one multiplication, where the default hasher's
/// rounds were a tenth of a picture's time.
#[derive(Default)]
struct ColourHash(u64);

impl std::hash::Hasher for ColourHash {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u32(u32::from(*b) ^ (self.0 as u32).rotate_left(8));
        }
    }
    fn write_u32(&mut self, n: u32) {
        let m = u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = m ^ (m >> 29);
    }
}

/// Colours to what a picture needs of each.
type ByColour<V> = HashMap<u32, V, std::hash::BuildHasherDefault<ColourHash>>;

/// At most 256 colours for a picture of the `colours` (`0x00RRGGBB`, each
/// once) with `counts` pixels each, in colour order, and each colour's index
/// among them (by its place in `colours`): the commonest colours, ties to
/// the lower colour, and every other colour mapped to its nearest (squared
/// RGB distance, ties to the lower index). Deterministic: the same pixels
/// give the same bytes.
fn palette_of(colours: &[u32], counts: &[u64]) -> (Vec<u32>, Vec<u8>) {
    let mut by_use: Vec<(u32, u64)> = colours
        .iter()
        .copied()
        .zip(counts.iter().copied())
        .collect();
    by_use.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut kept: Vec<u32> = by_use.iter().take(256).map(|(c, _)| *c).collect();
    kept.sort_unstable();
    let index = colours
        .iter()
        .map(|c| match kept.binary_search(c) {
            Ok(i) => i as u8,
            Err(_) => nearest(&kept, *c),
        })
        .collect();
    (kept, index)
}

/// The index in `palette` (at most 256 colours) of the colour nearest `c`,
/// the first of equals. Each colour's distance is taken once: the rare shades
/// of a picture's text edges number in the thousands, each measured against
/// every colour of the palette (a quarter of a picture's time when the
/// nearest's distance was taken again at every step).
fn nearest(palette: &[u32], c: u32) -> u8 {
    let [r, g, b] = rgb_bytes(c).map(i32::from);
    let mut best = (i32::MAX, 0);
    for (i, p) in palette.iter().enumerate() {
        let [pr, pg, pb] = rgb_bytes(*p).map(i32::from);
        let d = (pr - r).pow(2) + (pg - g).pow(2) + (pb - b).pow(2);
        if d < best.0 {
            best = (d, i);
        }
    }
    best.1 as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::svg::doc::{Anchor, Doc};

    /// Pixels of a white picture that `label` at `size` px darkened.
    fn ink(label: &str, size: f64) -> usize {
        let (w, h) = (size * label.len() as f64, size * 2.0);
        let mut doc = Doc::new(w, h, "#ffffff");
        doc.text((2.0, h * 0.7), size, "#000000", Anchor::Start, label);
        let bytes = png(&doc.finish()).unwrap();
        let mut d = ::png::Decoder::new(std::io::Cursor::new(bytes));
        d.set_transformations(::png::Transformations::EXPAND);
        let mut r = d.read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size().unwrap()];
        let info = r.next_frame(&mut buf).unwrap();
        buf[..info.buffer_size()]
            .chunks(3)
            .filter(|p| p.iter().any(|c| *c < 0xe0))
            .count()
    }

    #[test]
    fn every_glyph_of_a_small_label_leaves_ink() {
        // Names from the maps whose thin letters (i, l, t, r) were lost when
        // text was rasterised without anti-aliasing: "Oppos t on", "Pak stan".
        for word in [
            "Oruzgan",
            "Militia",
            "Opposition",
            "Pakistan",
            "Marcianopolis",
        ] {
            for size in [7.0, 8.0, 9.0, 11.0] {
                let mut before = 0;
                for (k, glyph) in word.char_indices() {
                    let now = ink(&word[..k + glyph.len_utf8()], size);
                    assert!(
                        now > before,
                        "{word:?} at {size} px: its glyph {glyph:?} (#{}) left no ink",
                        k + 1
                    );
                    before = now;
                }
            }
        }
    }

    /// Runs laid partly or wholly off any edge of the picture draw only what
    /// falls on it, and never panic (a sprite at the map's corner).
    #[test]
    fn runs_laid_over_an_edge_are_clipped() {
        let ink = tiny_skia::PremultipliedColorU8::from_rgba(0, 0, 0, 255).unwrap();
        let mut sheet = tiny_skia::Pixmap::new(4, 3).unwrap();
        sheet.fill(tiny_skia::Color::BLACK);
        let runs = runs(&sheet);
        for at in [
            (-2, -1),
            (-5, 0),
            (0, -4),
            (2, 1),
            (3, 2),
            (4, 3),
            (-3, 2),
            (1, -2),
        ] {
            let mut picture = tiny_skia::Pixmap::new(4, 3).unwrap();
            picture.fill(tiny_skia::Color::WHITE);
            lay_over(&runs, &mut picture, at);
            for (i, p) in picture.pixels().iter().enumerate() {
                let (x, y) = ((i % 4) as i64, (i / 4) as i64);
                let covered = (at.0..at.0 + 4).contains(&x) && (at.1..at.1 + 3).contains(&y);
                assert_eq!(*p == ink, covered, "{at:?} at ({x}, {y})");
            }
        }
    }

    #[test]
    fn kept_rasters_stay_within_their_budget_the_least_recently_used_let_go() {
        let entry = |n: u8, bytes: usize| Kept {
            key: sha256(&[n]),
            kind: Sheet::Kept,
            bytes,
            raster: Raster::Over(Arc::new(Runs::default())),
        };
        let mut kept: Vec<Kept> = (0..10).map(|n| entry(n, 10)).collect();
        let_go(&mut kept, 45);
        assert_eq!(kept.len(), 4, "40 bytes kept of 100");
        assert_eq!(kept[0].key, sha256(&[0]), "the newest stays");
        // One raster over the budget is still kept: it is the one in use.
        let mut one = vec![entry(9, 100)];
        let_go(&mut one, 45);
        assert_eq!(one.len(), 1);
    }

    /// The nearest colour is the one the former search found: the first of
    /// the palette at the least squared distance.
    #[test]
    fn the_nearest_colour_is_the_first_at_the_least_distance() {
        let former = |palette: &[u32], c: u32| -> u8 {
            let c = rgb_bytes(c);
            let d = |p: &u32| -> u32 {
                rgb_bytes(*p)
                    .iter()
                    .zip(c)
                    .map(|(a, b)| u32::from(a.abs_diff(b)).pow(2))
                    .sum()
            };
            let mut best = 0;
            for (i, p) in palette.iter().enumerate() {
                if d(p) < d(&palette[best]) {
                    best = i;
                }
            }
            best as u8
        };
        let mut z: u32 = 0x2545_F491;
        let mut next = || {
            z ^= z << 13;
            z ^= z >> 17;
            z ^= z << 5;
            z & 0x00ff_ffff
        };
        for n in [1, 2, 17, 256] {
            let mut palette: Vec<u32> = (0..n).map(|_| next() & 0x00f0_f0f0).collect();
            palette.sort_unstable();
            palette.dedup();
            for _ in 0..2000 {
                let c = next();
                assert_eq!(nearest(&palette, c), former(&palette, c), "{c:06x}");
            }
            // Ties: a colour halfway between two goes to the first.
            for p in &palette {
                assert_eq!(nearest(&palette, *p), former(&palette, *p));
            }
        }
        assert_eq!(nearest(&[0x000000, 0x020202], 0x010101), 0);
    }

    #[test]
    fn a_picture_of_many_shades_keeps_its_commonest_256_and_maps_the_rest_to_the_nearest() {
        let c = |r: u8, g: u8, b: u8| u32::from_be_bytes([0, r, g, b]);
        let mut pixels = vec![c(0, 0, 0)];
        pixels.extend((0..=255u8).map(|i| c(i, 10, 10)));
        pixels.push(c(255, 255, 255));
        // Black on 1000 pixels, each shade of red on one, white on 5.
        let mut counts = vec![1; pixels.len()];
        (counts[0], counts[257]) = (1000, 5);
        let (kept, index) = palette_of(&pixels, &counts);
        let index = |c: &u32| index[pixels.iter().position(|p| p == c).unwrap()];
        assert_eq!(kept.len(), 256);
        assert!(kept.contains(&c(0, 0, 0)) && kept.contains(&c(255, 255, 255)));
        // 258 colours: the two rarest (one pixel each, ties to the higher colour) go.
        let dropped: Vec<_> = (0..=255u8)
            .map(|i| c(i, 10, 10))
            .filter(|x| !kept.contains(x))
            .collect();
        assert_eq!(dropped, vec![c(254, 10, 10), c(255, 10, 10)]);
        assert_eq!(kept[index(&c(255, 10, 10)) as usize], c(253, 10, 10));
        assert!(kept.windows(2).all(|w| w[0] < w[1]), "in colour order");
        assert_eq!(rgb_bytes(c(1, 2, 3)), [1, 2, 3]);
    }

    /// The PNG encoder as it was before its runs were numbered: the bytes
    /// of a picture must not change with how they are found.
    fn former_encode(p: &tiny_skia::Pixmap) -> Vec<u8> {
        let w = p.width() as usize;
        let rgb = |c: u32| {
            c.to_ne_bytes()[..3]
                .iter()
                .fold(0, |a, b| a << 8 | u32::from(*b))
        };
        let mut runs: Vec<(u32, usize)> = Vec::new();
        for row in p.data().chunks_exact(w * 4) {
            let mut pixels = row
                .chunks_exact(4)
                .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]));
            let mut pixel = pixels.next().unwrap();
            let mut n = 1;
            for c in pixels {
                if c == pixel {
                    n += 1;
                } else {
                    runs.push((rgb(pixel), n));
                    (pixel, n) = (c, 1);
                }
            }
            runs.push((rgb(pixel), n));
        }
        let mut counts: HashMap<u32, u64> = HashMap::new();
        for (c, n) in &runs {
            *counts.entry(*c).or_insert(0) += *n as u64;
        }
        let mut by_use: Vec<(u32, u64)> = counts.into_iter().collect();
        by_use.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut kept: Vec<u32> = by_use.iter().take(256).map(|(c, _)| *c).collect();
        kept.sort_unstable();
        let mut index: HashMap<u32, u8> = HashMap::new();
        for (i, c) in kept.iter().enumerate() {
            index.insert(*c, i as u8);
        }
        for (c, _) in by_use.iter().skip(256) {
            index.insert(*c, nearest(&kept, *c));
        }
        let mut data = Vec::new();
        let mut x = 0;
        for (c, n) in &runs {
            if x == 0 {
                data.push(0);
            }
            data.extend(std::iter::repeat_n(index[c], *n));
            x += n;
            if x >= w {
                x = 0;
            }
        }
        let idat = deflate(&data).unwrap();
        let mut out = Vec::new();
        let mut e = png::Encoder::new(&mut out, p.width(), p.height());
        e.set_depth(png::BitDepth::Eight);
        e.set_color(png::ColorType::Indexed);
        e.set_palette(kept.iter().flat_map(|c| rgb_bytes(*c)).collect::<Vec<u8>>());
        let mut wr = e.write_header().unwrap();
        wr.write_chunk(png::chunk::IDAT, &idat).unwrap();
        wr.finish().unwrap();
        out
    }

    /// A map's picture (long runs, a few hundred shades of text edges) and
    /// one of more shades than a palette holds, on runs that cross rows:
    /// the same bytes as the former encoder's.
    #[test]
    fn a_picture_encodes_to_the_same_bytes_as_before_its_runs_were_numbered() {
        let mut doc = Doc::new(300.0, 120.0, "#f4f1e8");
        doc.rect(10.5, 10.5, 80.0, 40.0, 2.0, "#c8102e", "#111111", 1.0);
        doc.text(
            (20.0, 90.0),
            11.0,
            "#111111",
            Anchor::Start,
            "Marcianopolis, Oruzgan",
        );
        doc.label((150.0, 40.0), 9.0, "#ffffff", "#222222", "Pakistan");
        let map = draw(&doc.finish(), None).unwrap();
        let mut shades = tiny_skia::Pixmap::new(97, 61).unwrap();
        let mut z: u32 = 0x2545_F491;
        for (i, p) in shades.pixels_mut().iter_mut().enumerate() {
            z ^= z << 13;
            z ^= z >> 17;
            z ^= z << 5;
            // Runs of a few pixels, most of a few colours, some of any.
            let v = if i % 7 < 4 {
                (i / 5) as u32 % 9 * 0x1d
            } else {
                z
            };
            let [r, g, b, _] = v.to_le_bytes();
            *p = tiny_skia::PremultipliedColorU8::from_rgba(r, g, b, 255).unwrap();
        }
        for p in [&map, &shades] {
            assert_eq!(encode(p).unwrap(), former_encode(p));
        }
    }

    /// A sprite the same on two maps (the key's "the last action") is put
    /// in each map's pack: kept in memory for the first map, it is still
    /// drawn for the second's pack, so a fresh process finds it there.
    #[test]
    fn a_sprite_shared_by_two_maps_goes_in_both_packs() {
        let dir = tempfile::tempdir().unwrap();
        let svg = {
            let mut doc = Doc::new(40.0, 20.0, "#f4f1e8");
            doc.text(
                (2.0, 14.0),
                11.0,
                "#222222",
                Anchor::Start,
                "shared by two maps",
            );
            doc.finish()
        };
        let (one, two) = (sha256(b"map one of two"), sha256(b"map two of two"));
        for map in [one, two] {
            let mut drawn = Vec::new();
            let pack = (dir.path(), map);
            sprite_runs(&svg, None, Some(&pack), &mut drawn).unwrap();
            assert_eq!(drawn.len(), 1, "drawn for {map:?}'s pack");
            super::super::shelf::keep_sprites(dir.path(), &map, &drawn);
        }
        super::super::shelf::forget_packs();
        for map in [one, two] {
            let kept = super::super::shelf::sprite(dir.path(), &map, &sha256(svg.as_bytes()));
            assert!(kept.is_some(), "in {map:?}'s pack");
        }
    }

    /// The key under a picture of the action is laid from its entries'
    /// sprites: the same pixels as the key drawn whole on its paper.
    #[test]
    fn a_key_laid_from_its_entries_sprites_is_the_key_drawn_whole() {
        use crate::svg::legend::Key;
        use crate::svg::style::{PAPER, Palette};
        use umpire_core::board::{Board, Legend, PointBoard, Unit, UnitMark};
        let legend = [
            ("M / J", "control marker of the Ming / Jurchen (2.5.2)"),
            ("DS", "DS Du Song, Ming command (orange), CS 2"),
            ("L", "L Li Rubai, Ming command (light blue)"),
            ("+1", "markers score 1 VP"),
        ];
        let board = Board::Points(PointBoard {
            legend: legend.iter().map(|(g, m)| Legend::new(*g, *m)).collect(),
            ..PointBoard::default()
        });
        let pal = Palette::of(&board, &[]);
        let mut units = Vec::new();
        for (colour, mark) in [
            ("orange", UnitMark::Reduced),
            ("light blue", UnitMark::Active),
        ] {
            let mut u = Unit::new("ds.i1");
            u.side = Some('M');
            u.colour = Some(colour.to_string());
            u.marks = vec![mark, UnitMark::Disorganized];
            units.push(u);
        }
        for width in [520.0, 333.0] {
            let key = Key::of(&board, &pal, &[], units.iter(), width - 28.0).reflow(width - 28.0);
            let mut doc = Doc::new(width, key.height, PAPER);
            key.draw(&mut doc, (14.0, 0.0));
            let whole = draw(&doc.finish(), None).unwrap();
            let mut laid = tiny_skia::Pixmap::new(whole.width(), whole.height()).unwrap();
            let [r, g, b, _] = solid(PAPER).unwrap();
            laid.fill(tiny_skia::Color::from_rgba8(r, g, b, 255));
            let ground = tiny_skia::PremultipliedColorU8::from_rgba(r, g, b, 255);
            for s in key.sprites((14, 0), PAPER) {
                let runs = runs_on(&draw(&s.svg, None).unwrap(), ground);
                lay_over(&runs, &mut laid, (i64::from(s.at.0), i64::from(s.at.1)));
            }
            let (mut off, mut most) = (0, 0);
            for (a, b) in whole.pixels().iter().zip(laid.pixels()) {
                let d = [
                    a.red().abs_diff(b.red()),
                    a.green().abs_diff(b.green()),
                    a.blue().abs_diff(b.blue()),
                ];
                let d = d.into_iter().max().unwrap_or(0);
                off += usize::from(d > 0);
                most = most.max(d);
            }
            let inked = whole.pixels().iter().filter(|p| p.red() < 0x80).count();
            assert!(inked > 500, "the key has words: {inked}");
            assert_eq!((off, most), (0, 0), "{width}: pixels that differ, by up to");
        }
    }
}
