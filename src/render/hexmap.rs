//! Placeholder until the ASCII hex renderer lands: lists occupied hexes.

use crate::core::board::Board;
use crate::core::hex::Hex;

/// Drawing options.
#[derive(Debug, Clone)]
pub struct Options {
    pub width: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { width: 76 }
    }
}

/// The hexes near the focus, as a list.
pub fn snippet(board: &Board, focus: &[Hex], _opts: &Options) -> String {
    let mut s = String::new();
    for (h, c) in &board.cells {
        if (focus.is_empty() || focus.iter().any(|f| f.distance(*h) <= 2)) && !c.units.is_empty() {
            s.push_str(&format!("{h}: {}\n", c.units.join(" ")));
        }
    }
    s
}

/// The whole map, as a list.
pub fn full(board: &Board, opts: &Options) -> String {
    snippet(board, &[], opts)
}
