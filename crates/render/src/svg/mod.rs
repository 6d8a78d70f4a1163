//! Pictures of the map: SVG drawn from the same [`Board`] a side sees (so fog
//! of war holds) and rasterised to PNG with an embedded font ([`raster`]), for
//! result mails, `umpire map` and the game pages.
//!
//! Output is deterministic: numbers are written with one fixed decimal, maps
//! and lists are iterated in order, and the PNG comes from one pure-Rust
//! renderer with one font, so the same board gives the same bytes everywhere.
//! [`svg`] dispatches on the board's kind to [`hex`], [`square`] or [`points`].

mod counter;
mod doc;
mod geo;
pub mod hex;
mod legend;
pub mod points;
pub mod raster;
mod shelf;
pub mod square;
mod style;

pub use doc::{BASE_DRAWING, Part, Sheet, Sprite};
pub use raster::{Crop, PictureError};

use umpire_core::board::{Board, Place};

/// The whole of `board` as an SVG document, `focus` (the last action's
/// places) outlined. Places of another kind than the board are ignored.
pub fn svg(board: &Board, focus: &[Place]) -> String {
    layers(board, focus).whole().to_string()
}

/// The picture of `board` as one document and as its sheets.
fn layers(board: &Board, focus: &[Place]) -> doc::Layers {
    match board {
        Board::Hex(b) => {
            let f: Vec<_> = focus
                .iter()
                .filter_map(|p| match p {
                    Place::Hex(h) => Some(*h),
                    _ => None,
                })
                .collect();
            hex::draw(board, b, &f)
        }
        Board::Square(b) => {
            let f: Vec<_> = focus
                .iter()
                .filter_map(|p| match p {
                    Place::Square(s) => Some(*s),
                    _ => None,
                })
                .collect();
            square::draw(board, b, &f)
        }
        Board::Points(b) => {
            let f: Vec<_> = focus
                .iter()
                .filter_map(|p| match p {
                    Place::Space(s) => Some(*s),
                    _ => None,
                })
                .collect();
            points::draw(board, b, &f)
        }
    }
}

/// The whole of `board` as PNG bytes: its base layer rasterised once per
/// process and kept ([`raster::png_sheets`]), the rest drawn over it.
pub fn png(board: &Board, focus: &[Place]) -> Result<Vec<u8>, PictureError> {
    picture(board, focus).png()
}

/// The picture of `board` with `focus` (the last action's places) outlined,
/// ready to rasterise whole or around the action.
pub fn picture(board: &Board, focus: &[Place]) -> Picture {
    Picture(layers(board, focus))
}

/// A map picture: its SVG, and PNG rasters of the whole map or of the part
/// around the last action.
pub struct Picture(doc::Layers);

/// Pixels of map kept on each side of the last action in its picture.
const CONTEXT: f64 = 120.0;
/// Smallest picture of an action: a phone's screen, held either way.
const MIN_ACTION: (f64, f64) = (520.0, 400.0);
/// Above this share of the map's area, the picture of an action is the whole map.
const MOST: f64 = 0.6;
/// Left and right margin of the key under a picture of an action.
const KEY_MARGIN: f64 = 14.0;

impl Picture {
    /// The whole picture as SVG.
    pub fn svg(&self) -> &str {
        self.0.whole()
    }

    /// A digest of the whole picture, cheaper than hashing [`Picture::svg`]
    /// (the base's SVG is not written): the same for the same picture.
    pub fn digest(&self) -> umpire_core::hash::Digest {
        self.0.digest()
    }

    /// The base sheet alone (terrain, borders, numbers) as SVG: what its
    /// kept raster is drawn from.
    pub fn base_svg(&self) -> String {
        self.0.base.svg()
    }

    /// The whole picture as PNG.
    pub fn png(&self) -> Result<Vec<u8>, PictureError> {
        self.png_kept_in(None)
    }

    /// The whole picture as PNG, the rasters that do not change kept on the
    /// `shelf` folder for the next process (see [`raster::png_sheets`]).
    pub fn png_kept_in(&self, shelf: Option<&std::path::Path>) -> Result<Vec<u8>, PictureError> {
        raster::png_sheets(&self.0.base, &self.0.sheets, shelf)
    }

    /// The part of the map around the last action, if there is one and the
    /// part is not most of the map: at least a phone's screen, the action
    /// with [`CONTEXT`] around it, moved within the map where it would cross
    /// its edge.
    pub fn action_crop(&self) -> Option<Crop> {
        let l = &self.0;
        let f = l.focus?;
        let span = |lo: f64, hi: f64, min: f64, max: f64| -> (f64, f64) {
            let (mut lo, mut hi) = (lo - CONTEXT, hi + CONTEXT);
            if hi - lo < min {
                let grow = (min - (hi - lo)) / 2.0;
                (lo, hi) = (lo - grow, hi + grow);
            }
            if lo < 0.0 {
                (lo, hi) = (0.0, hi - lo);
            }
            if hi > max {
                (lo, hi) = ((lo - (hi - max)).max(0.0), max);
            }
            (lo.floor(), hi.ceil().min(max.floor()))
        };
        let (x0, x1) = span(f.x0, f.x1, MIN_ACTION.0, l.width);
        let (y0, y1) = span(f.y0, f.y1, MIN_ACTION.1, l.map_height);
        if (x1 - x0) * (y1 - y0) > MOST * l.width * l.map_height {
            return None;
        }
        Some(Crop {
            x: x0 as u32,
            y: y0 as u32,
            w: (x1 - x0) as u32,
            h: (y1 - y0) as u32,
        })
    }

    /// The picture of the last action as PNG: the part of the map around it
    /// ([`Picture::action_crop`]) with the key under it, or the whole
    /// picture where there is no such part.
    pub fn action_png(&self) -> Result<Vec<u8>, PictureError> {
        self.action_png_kept_in(None)
    }

    /// [`Picture::action_png`], the rasters that do not change kept on the
    /// `shelf` folder for the next process.
    pub fn action_png_kept_in(
        &self,
        shelf: Option<&std::path::Path>,
    ) -> Result<Vec<u8>, PictureError> {
        let Some(crop) = self.action_crop() else {
            return self.png_kept_in(shelf);
        };
        let key = self.0.key.reflow(f64::from(crop.w) - 2.0 * KEY_MARGIN);
        let under = raster::Under {
            height: key.height.ceil() as u32,
            paper: style::PAPER,
            entries: key.sprites((KEY_MARGIN as i32, 0), style::PAPER),
        };
        raster::png_crop(&self.0.base, &self.0.sheets, crop, &under, shelf)
    }
}

fn palette(board: &Board) -> style::Palette<'_> {
    let terrain: Vec<char> = match board {
        Board::Hex(b) => b.cells.values().map(|c| c.terrain).collect(),
        Board::Square(b) => b.cells.values().map(|c| c.terrain).collect(),
        Board::Points(_) => Vec::new(),
    };
    style::Palette::of(board, &terrain)
}

/// The colour (`#rrggbb`) a side's markers have on `board`: for keys and tests.
pub fn side_colour(board: &Board, side: char) -> &'static str {
    palette(board).side(side)
}

/// The colour (`#rrggbb`) `unit`'s counter has on `board`: its own colour if
/// it has one umpire knows, else its side's, grey when face-down or sideless.
pub fn counter_colour(board: &Board, unit: &umpire_core::board::Unit) -> &'static str {
    counter::fill(&palette(board), unit)
}

/// A pixel of the top counter in hex `h` (near its upper-left corner, clear of
/// its text and marks) where the side's colour shows: for tests of the picture.
pub fn hex_counter_probe(
    board: &umpire_core::board::HexBoard,
    h: umpire_core::hex::Hex,
) -> (f64, f64) {
    let l = hex::Layout::of(board);
    let (c, w) = hex::counter_spot(&l, h);
    let n = board.cells.get(&h).map_or(1, |c| c.units.len());
    let (x, y) = counter::top_centre(n, c, w);
    (x - w * 0.38, y - w * 0.38)
}
