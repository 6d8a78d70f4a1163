//! The one entry point for drawing a map of any kind: `service` and `cli`
//! call [`snippet`] and [`full`], which pick the renderer for the board's kind.
//!
//! Focus places of another kind than the board (a hex named on a point map)
//! are ignored: they cannot be on it.

use crate::core::board::{Board, Place};
use crate::core::hex::Hex;
use crate::core::square::Square;

pub use super::hexmap::{FullStyle, Options};

/// A drawing of the part of `board` around `focus` (the last action's places),
/// for a result mail.
pub fn snippet(board: &Board, focus: &[Place], opts: &Options) -> String {
    match board {
        Board::Hex(b) => {
            let hexes: Vec<Hex> = focus
                .iter()
                .filter_map(|p| match p {
                    Place::Hex(h) => Some(*h),
                    _ => None,
                })
                .collect();
            super::hexmap::snippet(b, &hexes, opts)
        }
        Board::Square(b) => {
            let squares: Vec<Square> = focus
                .iter()
                .filter_map(|p| match p {
                    Place::Square(s) => Some(*s),
                    _ => None,
                })
                .collect();
            super::squaremap::snippet(b, &squares, opts)
        }
        Board::Points(b) => {
            let spaces: Vec<_> = focus
                .iter()
                .filter_map(|p| match p {
                    Place::Space(s) => Some(*s),
                    _ => None,
                })
                .collect();
            super::pointmap::snippet(b, &spaces, opts)
        }
    }
}

/// The whole of `board`, for `umpire show` and the full-map mail.
pub fn full(board: &Board, opts: &Options) -> String {
    match board {
        Board::Hex(b) => super::hexmap::full(b, opts),
        Board::Square(b) => super::squaremap::full(b, opts),
        Board::Points(b) => super::pointmap::full(b, opts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::board::{Cell, HexBoard, PointBoard, Space, SpaceId, SquareBoard};

    #[test]
    fn dispatches_on_the_kind_and_drops_foreign_places() {
        let mut h = HexBoard::default();
        h.cells.insert(Hex::new(1, 1), Cell::default());
        let focus = [Place::Space(SpaceId(1)), Place::Hex(Hex::new(1, 1))];
        let out = snippet(&Board::Hex(h.clone()), &focus, &Options::default());
        assert_eq!(
            out,
            super::super::hexmap::snippet(&h, &[Hex::new(1, 1)], &Options::default())
        );

        let mut s = SquareBoard::default();
        s.cells.insert(Square::new(2, 3), Cell::default());
        let out = full(&Board::Square(s), &Options::default());
        assert!(out.starts_with("      02\n   +------+\n03 |"), "{out}");

        let mut p = PointBoard::default();
        p.spaces.insert(
            SpaceId(1),
            Space {
                name: "Kabul".into(),
                ..Space::default()
            },
        );
        assert!(snippet(&Board::Points(p), &focus, &Options::default()).contains("Kabul"));
    }
}
