//! The overview: the whole map at three characters a hex, for maps too wide
//! to draw in detail on one strip.
//!
//! Hexes keep their true neighbours. Each row takes two lines: the high
//! columns on the first, the low ones (half a hex lower: even columns on most
//! maps, odd ones on an `Offset::OddLow` map) on the second, so a hex's north
//! neighbour is two lines up, its NE and SE neighbours one line up or down
//! and two characters right. Rows are numbered on the left of both their
//! lines, columns on rulers above and below (high columns on the upper ruler).
//!
//! ```text
//!     01  03  05
//!       02  04  06
//! 01  .2M ^   .
//! 01    .   .  >.1J
//! ```
//!
//! A cell is the terrain glyph, the number of units (`+` for ten or more) and
//! the control marker; `>` before a cell marks the last action.

use super::detail::Canvas;
use super::layout::{Map, Window};
use super::text;

/// Width of a row label for rows `r0..=r1` (numbers grow away from zero, so
/// the ends are the widest).
fn label_width(r0: i64, r1: i64) -> usize {
    text::num(r0).len().max(text::num(r1).len())
}

/// Where the first column's cells start: the row label, then room for a `>`.
fn margin(r0: i64, r1: i64) -> i64 {
    label_width(r0, r1) as i64 + 3
}

/// How many columns fit in `width` characters for rows `r0..=r1`.
pub(super) fn capacity(width: usize, r0: i64, r1: i64) -> i64 {
    // n columns need margin + 2 * (n - 1) + 3 characters.
    ((width as i64 - margin(r0, r1) - 3) / 2 + 1).max(1)
}

/// Draws the cells of `map` inside `w`; also says whether a highlight was drawn.
pub(super) fn draw(map: &Map, w: &Window) -> (Vec<String>, bool) {
    let cols = w.c1 - w.c0 + 1;
    let rows = w.r1 - w.r0 + 1;
    let left = margin(w.r0, w.r1);
    let lw = label_width(w.r0, w.r1);
    let width = left + 2 * (cols - 1) + 4;
    // Two ruler lines above and below, two lines per row.
    let height = 2 * rows + 4;
    let mut canvas = Canvas::new(width as usize, height as usize);
    let x_of = |c: i64| left + 2 * (c - w.c0);

    for c in w.c0..=w.c1 {
        let n = text::num(c);
        let line = i64::from(map.low(c));
        canvas.text(x_of(c), line, &n);
        canvas.text(x_of(c), height - 2 + line, &n);
    }
    for r in w.r0..=w.r1 {
        let label = format!("{:>lw$}", text::num(r));
        let y = 2 + 2 * (r - w.r0);
        canvas.text(0, y, &label);
        canvas.text(0, y + 1, &label);
    }
    let mut highlight = false;
    for ((c, r), cell) in map.within(w) {
        let x = x_of(c);
        let y = 2 + 2 * (r - w.r0) + i64::from(map.low(c));
        let units = cell
            .units
            .iter()
            .filter(|u| !u.short().trim().is_empty())
            .count();
        let count = match units {
            0 => b' ',
            1..=9 => b'0' + units as u8,
            _ => b'+',
        };
        canvas.put(x, y, text::glyph(cell.terrain));
        // The count before the control marker: a hex with units but no
        // control reads `f2`, not `f 2`, which looks like two cells.
        canvas.put(x + 1, y, count);
        canvas.put(x + 2, y, cell.control.map_or(b' ', text::glyph));
        if cell.highlight {
            canvas.put(x - 1, y, b'>');
            highlight = true;
        }
    }
    (canvas.lines(), highlight)
}
