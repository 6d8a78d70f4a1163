//! Hex maps: flat-topped hexes in columns, the board's column offset honoured
//! (`HexBoard.offset`: even or odd columns half a hex lower), hexsides drawn
//! on the side they belong to.

use super::counter;
use super::doc::{Anchor, Base, BaseDrawing, Doc, Layers, Sheet};
use super::legend::Key;
use super::style::{GRID, HIGHLIGHT, INK, PAPER, Palette, tint};
use umpire_core::board::{Board, Edge, EdgeKind, HexBoard};
use umpire_core::hex::{Dir, Hex};

/// Space around the map.
const MARGIN: f64 = 12.0;
/// Widest picture we aim for, in pixels; hexes shrink to fit, down to `MIN_SIZE`.
const MAX_WIDTH: f64 = 1500.0;
const MIN_SIZE: f64 = 12.0;
const MAX_SIZE: f64 = 30.0;

/// The geometry of one drawing: hex size and the top-left hex.
#[derive(Clone, serde::Serialize)]
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
    let small = (l.size * 0.3).max(5.0);
    let mut colour = pal.terrains();
    let base = HexBase {
        layout: l.clone(),
        cells: b
            .cells
            .iter()
            .map(|(hex, c)| (*hex, colour(c.terrain)))
            .collect(),
        edges: b.edges.clone(),
        small,
    };
    let base = Base::new(w, h + key.height, PAPER, Box::new(base));
    let mut doc = Doc::over(&base);
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
    doc.finish_with_key(base, key, (MARGIN, h), w, h)
}

/// What a hex map's base is drawn from: the layout, each hex with its
/// terrain's colour, the hexsides, the numbers' size.
#[derive(serde::Serialize)]
struct HexBase {
    layout: Layout,
    cells: Vec<(Hex, &'static str)>,
    edges: Vec<Edge>,
    small: f64,
}

impl BaseDrawing for HexBase {
    fn inputs(&self) -> Option<Vec<u8>> {
        serde_json::to_vec(self).ok()
    }

    /// Terrain, hexsides and hex numbers.
    fn draw(&self, doc: &mut Doc) {
        let l = &self.layout;
        doc.group("terrain");
        for (hex, fill) in &self.cells {
            doc.polygon(&l.corners(*hex), fill, GRID, 0.6);
        }
        doc.end_group();
        doc.group("hexsides");
        for e in &self.edges {
            hexside(doc, l, e);
        }
        doc.end_group();
        doc.group("numbers");
        for (hex, _) in &self.cells {
            let c = l.centre(*hex);
            let at = (c.0, c.1 - l.half_height() * 0.68);
            doc.text(at, self.small, "#555555", Anchor::Middle, &hex.to_string());
        }
        doc.end_group();
    }
}

/// A river, wall, bridge or border along a hexside.
fn hexside(doc: &mut Doc, l: &Layout, e: &Edge) {
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

#[cfg(test)]
mod tests {
    use super::super::doc::Part;
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

    /// The base's key says what the base draws: the same for boards that
    /// differ only in what play moves, another when terrain or a hexside
    /// changes; and the whole picture is its base with the rest over it.
    #[test]
    fn the_base_is_known_by_what_it_draws_and_not_by_the_counters() {
        use umpire_core::board::{Cell, Unit};
        let board = |terrain: char, units: usize, river: bool| {
            let mut b = HexBoard::default();
            for c in 1..=3 {
                let cell = Cell {
                    terrain: if c == 2 { terrain } else { '.' },
                    units: (0..units).map(|i| Unit::new(format!("u{i}"))).collect(),
                    ..Cell::default()
                };
                b.cells.insert(Hex::new(c, 1), cell);
            }
            if river {
                b.edges.push(Edge {
                    hex: Hex::new(1, 1),
                    dir: Dir::SE,
                    kind: EdgeKind::River,
                });
            }
            Board::Hex(b)
        };
        let layers = |b: &Board| {
            let Board::Hex(h) = b else { unreachable!() };
            draw(b, h, &[])
        };
        let key = |b: &Board| layers(b).base.key().expect("a key");
        let plain = board('.', 1, false);
        assert_eq!(key(&plain), key(&board('.', 2, false)), "counters moved");
        assert_ne!(key(&plain), key(&board('^', 1, false)), "terrain");
        assert_ne!(key(&plain), key(&board('.', 1, true)), "a river");
        let l = layers(&plain);
        let base = l.base.svg();
        let whole = l.whole();
        assert!(whole.starts_with(base.trim_end_matches("</svg>\n")));
        assert!(
            !l.sheets
                .iter()
                .any(|p| matches!(p, Part::Svg(Sheet::Base, _)))
        );
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
