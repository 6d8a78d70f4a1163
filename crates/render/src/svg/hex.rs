//! Hex maps: flat-topped hexes in columns, the board's column offset honoured
//! (`HexBoard.offset`: even or odd columns half a hex lower), hexsides drawn
//! on the side they belong to.

use super::counter;
use super::doc::{Anchor, Doc, Layers, Sheet};
use super::legend::Key;
use super::style::{GRID, HIGHLIGHT, INK, PAPER, Palette, tint};
use umpire_core::board::{Board, EdgeKind, HexBoard};
use umpire_core::hex::{Dir, Hex};

/// Space around the map.
const MARGIN: f64 = 12.0;
/// Widest picture we aim for, in pixels; hexes shrink to fit, down to `MIN_SIZE`.
const MAX_WIDTH: f64 = 1500.0;
const MIN_SIZE: f64 = 12.0;
const MAX_SIZE: f64 = 30.0;

/// The geometry of one drawing: hex size and the top-left hex.
pub struct Layout {
    /// Centre to corner.
    pub size: f64,
    cmin: i32,
    rmin: i32,
    board: umpire_core::hex::Offset,
}

impl Layout {
    /// The layout that fits `b`.
    pub fn of(b: &HexBoard) -> Layout {
        let cmin = b.cells.keys().map(|h| h.col).min().unwrap_or(1);
        let cmax = b.cells.keys().map(|h| h.col).max().unwrap_or(1);
        let rmin = b.cells.keys().map(|h| h.row).min().unwrap_or(1);
        let cols = f64::from(cmax - cmin + 1);
        let size = ((MAX_WIDTH - 2.0 * MARGIN) / (1.5 * cols + 0.5)).clamp(MIN_SIZE, MAX_SIZE);
        Layout {
            size,
            cmin,
            rmin,
            board: b.offset,
        }
    }

    fn half_height(&self) -> f64 {
        self.size * 3f64.sqrt() / 2.0
    }

    /// The pixel centre of hex `h`.
    pub fn centre(&self, h: Hex) -> (f64, f64) {
        let hh = self.half_height();
        let low = if self.board.low(i64::from(h.col)) {
            hh
        } else {
            0.0
        };
        (
            MARGIN + self.size + f64::from(h.col - self.cmin) * 1.5 * self.size,
            MARGIN + hh + f64::from(h.row - self.rmin) * 2.0 * hh + low,
        )
    }

    /// Corner `i` (0 east, then clockwise on screen: 1 is lower right).
    fn corner(&self, c: (f64, f64), i: usize) -> (f64, f64) {
        // The six corners of a flat-topped hex, exact to the pixel grid's needs.
        let (s, hh) = (self.size, self.half_height());
        let d = [
            (s, 0.0),
            (s / 2.0, hh),
            (-s / 2.0, hh),
            (-s, 0.0),
            (-s / 2.0, -hh),
            (s / 2.0, -hh),
        ][i % 6];
        (c.0 + d.0, c.1 + d.1)
    }

    fn corners(&self, h: Hex) -> Vec<(f64, f64)> {
        let c = self.centre(h);
        (0..6).map(|i| self.corner(c, i)).collect()
    }

    /// The two ends of hexside `d` of `h`.
    fn side(&self, h: Hex, d: Dir) -> ((f64, f64), (f64, f64)) {
        let c = self.centre(h);
        // N is between corners 4 and 5, NE between 5 and 0, and so on clockwise.
        let k = d as usize + 4;
        (self.corner(c, k), self.corner(c, k + 1))
    }
}

/// Where the stack in `h` is centred, and how wide its counters are.
pub fn counter_spot(l: &Layout, h: Hex) -> ((f64, f64), f64) {
    let c = l.centre(h);
    ((c.0 + l.size * 0.08, c.1), l.size * 0.82)
}

/// The whole hex map as SVG, and as its sheets.
pub fn draw(board: &Board, b: &HexBoard, focus: &[Hex]) -> Layers {
    let l = Layout::of(b);
    let (w, h) = b.cells.keys().fold((0.0f64, 0.0f64), |(w, h), x| {
        let c = l.centre(*x);
        (w.max(c.0), h.max(c.1))
    });
    let terrain: Vec<char> = b.cells.values().map(|c| c.terrain).collect();
    let pal = Palette::of(board, &terrain);
    let (w, h) = (w + l.size + MARGIN, h + l.half_height() + MARGIN);
    let units = b.cells.values().flat_map(|c| &c.units);
    let key = Key::of(board, &pal, &terrain, units, w - 2.0 * MARGIN);
    let mut doc = Doc::new(w, h + key.height, PAPER);
    doc.group("terrain");
    for (hex, cell) in &b.cells {
        doc.polygon(&l.corners(*hex), pal.terrain(cell.terrain), GRID, 0.6);
    }
    doc.end_group();
    doc.group("hexsides");
    for e in &b.edges {
        let (a, z) = l.side(e.hex, e.dir);
        match e.kind {
            EdgeKind::River => doc.line(a, z, "#2f6fb3", l.size * 0.16, false),
            EdgeKind::Wall => doc.line(a, z, "#5b3a1e", l.size * 0.18, false),
            EdgeKind::Bridge => {
                doc.line(a, z, "#2f6fb3", l.size * 0.16, false);
                let m = ((a.0 + z.0) / 2.0, (a.1 + z.1) / 2.0);
                let half = ((a.0 - m.0) * 0.5, (a.1 - m.1) * 0.5);
                doc.line(
                    (m.0 - half.0, m.1 - half.1),
                    (m.0 + half.0, m.1 + half.1),
                    "#8d6e63",
                    l.size * 0.28,
                    false,
                );
            }
            EdgeKind::Border => doc.line(a, z, "#6a1b9a", l.size * 0.08, true),
        }
    }
    doc.end_group();
    doc.group("numbers");
    let small = (l.size * 0.3).max(5.0);
    for hex in b.cells.keys() {
        let c = l.centre(*hex);
        let at = (c.0, c.1 - l.half_height() * 0.68);
        doc.text(at, small, "#555555", Anchor::Middle, &hex.to_string());
    }
    doc.end_group();
    // Control markers and stacks: each look drawn once and kept.
    doc.sheet(Sheet::Sprites);
    doc.group("control");
    for (hex, cell) in &b.cells {
        let c = l.centre(*hex);
        let hh = l.half_height();
        if let Some(s) = cell.control {
            let at = (c.0 - l.size * 0.62, c.1 + hh * 0.2);
            let r = l.size * 0.2;
            let half = (r + 2.0).ceil();
            doc.sprite_at((at.0 - half, at.1 - half), (2.0 * half, 2.0 * half), |d| {
                let at = (half, half);
                d.circle(at, r, &tint(pal.side(s)), pal.side(s), 1.0);
                let base = (at.0, at.1 + small * 0.35);
                d.text(base, small, INK, Anchor::Middle, &s.to_string());
            });
        }
    }
    doc.end_group();
    doc.group("units");
    for (hex, cell) in &b.cells {
        if !cell.units.is_empty() {
            let (c, w) = counter_spot(&l, *hex);
            counter::stack_sprite(&mut doc, &pal, &cell.units, c, w);
        }
    }
    doc.end_group();
    // Place names over the counters, haloed, so a stack never hides one.
    doc.sheet(Sheet::Kept);
    doc.group("names");
    for (hex, cell) in &b.cells {
        if let Some(n) = &cell.name {
            let c = l.centre(*hex);
            let at = (c.0, c.1 + l.half_height() * 0.9);
            doc.label(at, small, INK, PAPER, n);
        }
    }
    doc.end_group();
    doc.sheet(Sheet::Drawn);
    doc.group("highlight");
    for (hex, cell) in &b.cells {
        if cell.highlight || focus.contains(hex) {
            doc.mark_focus(&l.corners(*hex));
            doc.polygon(
                &l.corners(*hex),
                "none",
                HIGHLIGHT,
                (l.size * 0.12).max(2.0),
            );
        }
    }
    doc.end_group();
    doc.finish_with_key(key, (MARGIN, h), w, h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_core::hex::Offset;

    #[test]
    fn the_offset_moves_the_right_columns_down() {
        let mut b = HexBoard::default();
        for c in 1..=2 {
            b.cells.insert(Hex::new(c, 1), Default::default());
        }
        let even = Layout::of(&b);
        // Even-low: 0201 is south-east of 0101, so lower on the page.
        assert!(even.centre(Hex::new(2, 1)).1 > even.centre(Hex::new(1, 1)).1);
        b.offset = Offset::OddLow;
        let odd = Layout::of(&b);
        assert!(odd.centre(Hex::new(1, 1)).1 > odd.centre(Hex::new(2, 1)).1);
    }

    #[test]
    fn a_hexside_is_shared_by_both_hexes() {
        let b = HexBoard::default();
        let l = Layout::of(&b);
        let h = Hex::new(3, 4);
        for d in Dir::ALL {
            let (a, z) = l.side(h, d);
            let (a2, z2) = l.side(h.step(d), d.opposite());
            let close = |p: (f64, f64), q: (f64, f64)| (p.0 - q.0).abs() + (p.1 - q.1).abs() < 1e-6;
            assert!(close(a, z2) && close(z, a2), "{d:?}");
        }
    }
}
