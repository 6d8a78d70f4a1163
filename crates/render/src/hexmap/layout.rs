//! Which hexes to draw: the board's cells in 64-bit coordinates, the window a
//! snippet shows, and the strips a whole map is cut into.
//!
//! Coordinates are widened to `i64` because a board may hold any `i32`
//! hex, and stepping or subtracting at the ends of `i32` would overflow.

use std::collections::{BTreeMap, BTreeSet};
use umpire_core::board::{Cell, HexBoard as Board};
use umpire_core::hex::{Dir, Offset};

/// A rectangle of columns `c0..=c1` and rows `r0..=r1`, never empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub c0: i64,
    pub c1: i64,
    pub r0: i64,
    pub r1: i64,
}

impl Window {
    pub fn contains(&self, (c, r): (i64, i64)) -> bool {
        (self.c0..=self.c1).contains(&c) && (self.r0..=self.r1).contains(&r)
    }
}

/// The board's cells keyed by widened `(col, row)`, with its extent.
pub(super) struct Map<'a> {
    pub board: &'a Board,
    pub cells: BTreeMap<(i64, i64), &'a Cell>,
    /// Smallest rectangle holding every cell; `None` for an empty board.
    pub extent: Option<Window>,
}

impl<'a> Map<'a> {
    pub fn new(board: &'a Board) -> Map<'a> {
        let cells: BTreeMap<(i64, i64), &Cell> = board
            .cells
            .iter()
            .map(|(h, c)| ((i64::from(h.col), i64::from(h.row)), c))
            .collect();
        let extent = cells.keys().fold(None, |acc: Option<Window>, &(c, r)| {
            Some(match acc {
                None => Window {
                    c0: c,
                    c1: c,
                    r0: r,
                    r1: r,
                },
                Some(w) => Window {
                    c0: w.c0.min(c),
                    c1: w.c1.max(c),
                    r0: w.r0.min(r),
                    r1: w.r1.max(r),
                },
            })
        });
        Map {
            board,
            cells,
            extent,
        }
    }

    /// The cells inside `w`, in column-then-row order.
    pub fn within<'m>(&'m self, w: &Window) -> impl Iterator<Item = ((i64, i64), &'a Cell)> + 'm {
        let w = *w;
        self.cells
            .range((w.c0, w.r0)..=(w.c1, w.r1))
            .filter(move |(k, _)| w.contains(**k))
            .map(|(k, c)| (*k, *c))
    }
}

impl Map<'_> {
    /// Does column `col` sit half a hex lower (see `core::hex::Offset`)?
    pub fn low(&self, col: i64) -> bool {
        self.board.offset.low(col)
    }

    /// `Hex::step_on` in widened coordinates, so that it cannot overflow.
    pub fn step(&self, at: (i64, i64), d: Dir) -> (i64, i64) {
        step(self.board.offset, at, d)
    }
}

/// `Hex::step_on` in widened coordinates.
pub(super) fn step(offset: Offset, (c, r): (i64, i64), d: Dir) -> (i64, i64) {
    let low = offset.low(c);
    match d {
        Dir::N => (c, r - 1),
        Dir::S => (c, r + 1),
        Dir::NE => (c + 1, if low { r } else { r - 1 }),
        Dir::SE => (c + 1, if low { r + 1 } else { r }),
        Dir::NW => (c - 1, if low { r } else { r - 1 }),
        Dir::SW => (c - 1, if low { r + 1 } else { r }),
    }
}

/// The window a snippet of `cols` × `rows` hexes shows.
///
/// In each direction (columns, rows) separately: if every focus hex fits, the
/// window is centred on their span; otherwise on the first focus hex, which is
/// the one the action is about. With no focus the map's centre is shown. The
/// window is then pushed back inside the map, so it never shows more empty
/// paper than it must.
pub(crate) fn focus_window(extent: &Window, focus: &[(i64, i64)], cols: i64, rows: i64) -> Window {
    let cols = cols.max(1);
    let rows = rows.max(1);
    let (c0, c1) = axis(focus.iter().map(|f| f.0), (extent.c0, extent.c1), cols);
    let (r0, r1) = axis(focus.iter().map(|f| f.1), (extent.r0, extent.r1), rows);
    Window { c0, c1, r0, r1 }
}

fn axis(focus: impl Iterator<Item = i64> + Clone, (lo, hi): (i64, i64), n: i64) -> (i64, i64) {
    if hi - lo < n {
        return (lo, hi);
    }
    let first = focus.clone().next();
    let (a, b) = match first {
        None => {
            let mid = lo + (hi - lo) / 2;
            (mid, mid)
        }
        Some(f) => {
            let a = focus.clone().min().unwrap_or(f);
            let b = focus.max().unwrap_or(f);
            if b - a < n { (a, b) } else { (f, f) }
        }
    };
    // Centre the span [a, b]; the spare goes evenly to both sides, the odd one
    // to the far side.
    let start = a - (n - (b - a + 1)) / 2;
    let start = start.clamp(lo, hi - n + 1);
    (start, start + n - 1)
}

/// Cuts the map into windows of at most `cols` columns, west to east, for
/// drawing it whole. With `overlap`, consecutive strips share a column so a
/// reader can line them up.
///
/// Only columns and rows that hold cells are visited, and a strip is split
/// where rows are missing for a stretch: a board with two hexes two billion
/// columns apart gives two small drawings, not two billion empty strips.
pub(super) fn strips(map: &Map, cols: i64, overlap: bool) -> Vec<Window> {
    const ROW_GAP: i64 = 3;
    let cols = cols.max(1);
    let present: BTreeSet<i64> = map.cells.keys().map(|k| k.0).collect();
    let mut out = Vec::new();
    let Some(&first) = present.iter().next() else {
        return out;
    };
    let mut start = first;
    loop {
        let end = start.saturating_add(cols - 1);
        let rows: BTreeSet<i64> = map
            .cells
            .range((start, i64::MIN)..=(end, i64::MAX))
            .map(|(k, _)| k.1)
            .collect();
        let mut run: Option<(i64, i64)> = None;
        for r in rows {
            run = match run {
                Some((a, b)) if r - b <= ROW_GAP => Some((a, r)),
                Some((a, b)) => {
                    out.push(Window {
                        c0: start,
                        c1: end,
                        r0: a,
                        r1: b,
                    });
                    Some((r, r))
                }
                None => Some((r, r)),
            };
        }
        if let Some((a, b)) = run {
            out.push(Window {
                c0: start,
                c1: end,
                r0: a,
                r1: b,
            });
        }
        // The next strip starts at the next column with cells east of this
        // one, or on this strip's last column when they overlap.
        let Some(&next) = present.range(end.saturating_add(1)..).next() else {
            break;
        };
        start = if overlap && cols > 1 && next == end + 1 {
            end
        } else {
            next
        };
    }
    // Trim each strip to the columns it really holds, so the last one is not
    // padded with empty paper.
    for w in &mut out {
        if let Some(&last) = present.range(w.c0..=w.c1).next_back() {
            w.c1 = last;
        }
    }
    out
}
