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
pub mod square;
mod style;

pub use raster::PictureError;

use umpire_core::board::{Board, Place};

/// The whole of `board` as an SVG document, `focus` (the last action's
/// places) outlined. Places of another kind than the board are ignored.
pub fn svg(board: &Board, focus: &[Place]) -> String {
    layers(board, focus).whole
}

/// The picture of `board` as one document and as its two layers.
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
/// process and kept ([`raster::png_over`]), the rest drawn over it.
pub fn png(board: &Board, focus: &[Place]) -> Result<Vec<u8>, PictureError> {
    let l = layers(board, focus);
    raster::png_over(&l.base, &l.top)
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
