//! Square grids: one square per cell, side features along the squares'
//! edges, column and row numbers round the map.

use super::counter;
use super::doc::{Anchor, Base, BaseDrawing, Doc, Layers, Sheet};
use super::legend::Key;
use super::style::{GRID, HIGHLIGHT, INK, PAPER, Palette, tint};
use umpire_core::board::{Board, EdgeKind, SquareBoard, SquareEdge};
use umpire_core::square::{Dir8, Square};

/// Room for the row and column numbers.
const MARGIN: f64 = 22.0;
/// Widest picture we aim for; squares shrink to fit, down to `MIN_CELL`.
const MAX_WIDTH: f64 = 1400.0;
const MIN_CELL: f64 = 14.0;
const MAX_CELL: f64 = 56.0;

#[derive(Clone, Copy, serde::Serialize)]
struct Layout {
    cell: f64,
    cmin: i32,
    rmin: i32,
}

impl Layout {
    fn origin(&self, s: Square) -> (f64, f64) {
        (
            MARGIN + f64::from(s.col - self.cmin) * self.cell,
            MARGIN + f64::from(s.row - self.rmin) * self.cell,
        )
    }
}

/// The whole grid as SVG.
pub fn draw(board: &Board, b: &SquareBoard, focus: &[Square]) -> Layers {
    let cols = |f: fn(&Square) -> i32| b.cells.keys().map(f);
    let (cmin, cmax) = (
        cols(|s| s.col).min().unwrap_or(1),
        cols(|s| s.col).max().unwrap_or(1),
    );
    let (rmin, rmax) = (
        cols(|s| s.row).min().unwrap_or(1),
        cols(|s| s.row).max().unwrap_or(1),
    );
    let n = f64::from(cmax - cmin + 1);
    let cell = ((MAX_WIDTH - 2.0 * MARGIN) / n).clamp(MIN_CELL, MAX_CELL);
    let l = Layout { cell, cmin, rmin };
    let w = 2.0 * MARGIN + n * cell;
    let h = 2.0 * MARGIN + f64::from(rmax - rmin + 1) * cell;
    let terrain: Vec<char> = b.cells.values().map(|c| c.terrain).collect();
    let pal = Palette::of(board, &terrain);
    let units = b.cells.values().flat_map(|c| &c.units);
    let key = Key::of(board, &pal, &terrain, units, w - 2.0 * MARGIN);
    let small = (cell * 0.24).max(6.0);
    let mut colour = pal.terrains();
    let base = SquareBase {
        cells: b
            .cells
            .iter()
            .map(|(s, c)| (*s, colour(c.terrain)))
            .collect(),
        edges: b.edges.clone(),
        last: (cmax, rmax),
        layout: l,
    };
    let base = Base::new(w, h + key.height, PAPER, Box::new(base));
    let mut doc = Doc::over(&base);
    // Control changes seldom, and every side sees the same: kept like names.
    doc.sheet(Sheet::Kept);
    control(&mut doc, &pal, b, &l);
    doc.sheet(Sheet::Sprites);
    doc.group("units");
    for (s, c) in &b.cells {
        if !c.units.is_empty() {
            let (x, y) = l.origin(*s);
            counter::stack_sprite(
                &mut doc,
                &pal,
                &c.units,
                (x + cell * 0.55, y + cell * 0.45),
                cell * 0.55,
            );
        }
    }
    doc.end_group();
    // Place names over the counters, haloed, so a stack never hides one.
    doc.sheet(Sheet::Kept);
    doc.group("names");
    for (sq, c) in &b.cells {
        if let Some(name) = &c.name {
            let (x, y) = l.origin(*sq);
            doc.label((x + cell / 2.0, y + cell - 2.0), small, INK, PAPER, name);
        }
    }
    doc.end_group();
    doc.sheet(Sheet::Drawn);
    doc.group("highlight");
    for (s, c) in &b.cells {
        if c.highlight || focus.contains(s) {
            let (x, y) = l.origin(*s);
            doc.mark_focus(&[(x, y), (x + cell, y + cell)]);
            doc.rect(
                x,
                y,
                cell,
                cell,
                0.0,
                "none",
                HIGHLIGHT,
                (cell * 0.08).max(2.0),
            );
        }
    }
    doc.end_group();
    doc.finish_with_key(base, key, (MARGIN, h), w, h)
}

/// What a square grid's base is drawn from: the layout, each square with
/// its terrain's colour, the sides, the last column and row.
struct SquareBase {
    layout: Layout,
    cells: Vec<(Square, &'static str)>,
    edges: Vec<SquareEdge>,
    last: (i32, i32),
}

impl BaseDrawing for SquareBase {
    /// The layout, sides and last square as JSON, then each square and its
    /// colour packed (1,600 squares written as JSON were most of the key's
    /// cost): column, row, the colour's length and bytes.
    fn inputs(&self) -> Option<Vec<u8>> {
        let mut out = serde_json::to_vec(&(&self.layout, &self.edges, self.last)).ok()?;
        out.reserve(self.cells.len() * 16);
        for (s, fill) in &self.cells {
            out.extend(s.col.to_le_bytes());
            out.extend(s.row.to_le_bytes());
            out.extend((fill.len() as u32).to_le_bytes());
            out.extend(fill.as_bytes());
        }
        Some(out)
    }

    /// Terrain, row and column numbers, and the squares' sides.
    fn draw(&self, doc: &mut Doc) {
        let (l, cell) = (&self.layout, self.layout.cell);
        doc.group("terrain");
        for (s, fill) in &self.cells {
            let (x, y) = l.origin(*s);
            doc.rect(x, y, cell, cell, 0.0, fill, GRID, 0.4);
        }
        doc.end_group();
        numbers(doc, l, self.last);
        sides(doc, &self.edges, l);
    }
}

/// The column numbers above the grid and the row numbers left of it.
fn numbers(doc: &mut Doc, l: &Layout, (cmax, rmax): (i32, i32)) {
    doc.group("numbers");
    for c in l.cmin..=cmax {
        let x = MARGIN + (f64::from(c - l.cmin) + 0.5) * l.cell;
        let at = (x, MARGIN - 6.0);
        doc.text(at, 9.0, INK, Anchor::Middle, &format!("{c:02}"));
    }
    for r in l.rmin..=rmax {
        let y = MARGIN + (f64::from(r - l.rmin) + 0.6) * l.cell;
        doc.text((MARGIN - 3.0, y), 9.0, INK, Anchor::End, &format!("{r:02}"));
    }
    doc.end_group();
}

/// Rivers, walls and borders along the squares' sides.
fn sides(doc: &mut Doc, edges: &[SquareEdge], l: &Layout) {
    let cell = l.cell;
    doc.group("sides");
    for e in edges {
        let (x, y) = l.origin(e.square);
        let (a, z) = match e.dir {
            Dir8::N => ((x, y), (x + cell, y)),
            Dir8::S => ((x, y + cell), (x + cell, y + cell)),
            Dir8::W => ((x, y), (x, y + cell)),
            Dir8::E => ((x + cell, y), (x + cell, y + cell)),
            _ => continue,
        };
        match e.kind {
            EdgeKind::River | EdgeKind::Bridge => doc.line(a, z, "#2f6fb3", cell * 0.1, false),
            EdgeKind::Wall => doc.line(a, z, "#5b3a1e", cell * 0.12, false),
            EdgeKind::Border => doc.line(a, z, "#6a1b9a", (cell * 0.06).max(1.2), true),
        }
    }
    doc.end_group();
}

/// A point of a square as fractions of its side, from its top left corner.
type Corner = (f64, f64);

/// The four sides of a square, with the corners of each.
const SIDES: [(Dir8, Corner, Corner); 4] = [
    (Dir8::N, (0.0, 0.0), (1.0, 0.0)),
    (Dir8::E, (1.0, 0.0), (1.0, 1.0)),
    (Dir8::S, (0.0, 1.0), (1.0, 1.0)),
    (Dir8::W, (0.0, 0.0), (0.0, 1.0)),
];

/// A square grid's squares as places in a table, row by row (a map is a
/// rectangle, or nearly): what control areas look up thousands of times.
struct Grid {
    cmin: i32,
    rmin: i32,
    cols: i32,
    rows: i32,
}

impl Grid {
    /// The grid round every square of `b`.
    fn of(b: &SquareBoard) -> Grid {
        let (mut cmin, mut cmax, mut rmin, mut rmax) = (i32::MAX, i32::MIN, i32::MAX, i32::MIN);
        for s in b.cells.keys() {
            (cmin, cmax) = (cmin.min(s.col), cmax.max(s.col));
            (rmin, rmax) = (rmin.min(s.row), rmax.max(s.row));
        }
        let span = |lo: i32, hi: i32| if hi >= lo { hi - lo + 1 } else { 0 };
        Grid {
            cmin,
            rmin,
            cols: span(cmin, cmax),
            rows: span(rmin, rmax),
        }
    }

    /// How many places the table has.
    fn len(&self) -> usize {
        (self.cols.max(0) as usize) * (self.rows.max(0) as usize)
    }

    /// `s`'s place in the table, if it is within the grid.
    fn at(&self, s: Square) -> Option<usize> {
        let (c, r) = (
            i64::from(s.col) - i64::from(self.cmin),
            i64::from(s.row) - i64::from(self.rmin),
        );
        let inside =
            (0..i64::from(self.cols)).contains(&c) && (0..i64::from(self.rows)).contains(&r);
        inside.then(|| (r * i64::from(self.cols) + c) as usize)
    }
}

/// Squares of one control joined by sides that no border crosses: the areas
/// a side controls, each a list of squares in board order.
fn control_areas(b: &SquareBoard) -> Vec<(char, Vec<Square>)> {
    let grid = Grid::of(b);
    let mut control: Vec<Option<char>> = vec![None; grid.len()];
    for (s, c) in &b.cells {
        if let Some(i) = grid.at(*s) {
            control[i] = c.control;
        }
    }
    // Each square's sides (one bit each, in the order of SIDES) that a border crosses.
    let bit = |d: Dir8| SIDES.iter().position(|(s, _, _)| *s == d).map(|i| 1u8 << i);
    let mut borders = vec![0u8; grid.len()];
    for e in b.edges.iter().filter(|e| e.kind == EdgeKind::Border) {
        let n = e.square.step(e.dir);
        for (sq, d) in [(e.square, e.dir), (n, e.dir.opposite())] {
            if let (Some(i), Some(bit)) = (grid.at(sq), bit(d)) {
                borders[i] |= bit;
            }
        }
    }
    let mut seen = vec![false; grid.len()];
    let mut areas = Vec::new();
    for (start, cell) in &b.cells {
        let Some(k) = cell.control else { continue };
        let Some(first) = grid.at(*start) else {
            continue;
        };
        if std::mem::replace(&mut seen[first], true) {
            continue;
        }
        let mut squares = vec![*start];
        let mut i = 0;
        while let Some(sq) = squares.get(i).copied() {
            i += 1;
            let crossed = grid.at(sq).map_or(0, |at| borders[at]);
            for (side, (d, _, _)) in SIDES.iter().enumerate() {
                let n = sq.step(*d);
                let Some(at) = grid.at(n) else { continue };
                let joined = control[at] == Some(k) && crossed & (1 << side) == 0;
                if joined && !std::mem::replace(&mut seen[at], true) {
                    squares.push(n);
                }
            }
        }
        squares.sort();
        areas.push((k, squares));
    }
    areas
}

/// Control drawn once per area, not per square: a line of the side's colour
/// inside the area's edge, and its marker in the area's first square.
fn control(doc: &mut Doc, pal: &Palette<'_>, b: &SquareBoard, l: &Layout) {
    let cell = l.cell;
    let inset = (cell * 0.06).max(1.5);
    let grid = Grid::of(b);
    // Which area each square is in (numbered from 1; 0 none).
    let mut area = vec![0usize; grid.len()];
    doc.group("control");
    for (n, (k, squares)) in control_areas(b).into_iter().enumerate() {
        let colour = pal.side(k);
        for sq in &squares {
            if let Some(i) = grid.at(*sq) {
                area[i] = n + 1;
            }
        }
        let inside = |s: Square| grid.at(s).is_some_and(|i| area[i] == n + 1);
        for sq in &squares {
            let (x, y) = l.origin(*sq);
            for (d, a, z) in SIDES {
                if inside(sq.step(d)) {
                    continue;
                }
                // Pulled in towards the square's centre, so two areas' lines sit apart.
                let pull = |p: (f64, f64)| {
                    (
                        x + p.0 * cell + (0.5 - p.0).signum() * inset,
                        y + p.1 * cell + (0.5 - p.1).signum() * inset,
                    )
                };
                doc.line(pull(a), pull(z), colour, inset, false);
            }
        }
        let (x, y) = l.origin(squares[0]);
        let m = cell * 0.3;
        doc.rect(
            x + 2.0 * inset,
            y + 2.0 * inset,
            m,
            m,
            1.0,
            &tint(colour),
            colour,
            0.8,
        );
    }
    doc.end_group();
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_core::board::{Cell, SquareEdge};

    /// The areas as the former search found them, with sets of squares.
    fn former_areas(b: &SquareBoard) -> Vec<(char, Vec<Square>)> {
        use std::collections::BTreeSet;
        let borders: BTreeSet<(Square, Square)> = b
            .edges
            .iter()
            .filter(|e| e.kind == EdgeKind::Border)
            .flat_map(|e| {
                let n = e.square.step(e.dir);
                [(e.square, n), (n, e.square)]
            })
            .collect();
        let mut seen: BTreeSet<Square> = BTreeSet::new();
        let mut areas = Vec::new();
        for (start, cell) in &b.cells {
            let Some(k) = cell.control else { continue };
            if !seen.insert(*start) {
                continue;
            }
            let mut squares = vec![*start];
            let mut i = 0;
            while let Some(sq) = squares.get(i).copied() {
                i += 1;
                for (d, _, _) in SIDES {
                    let n = sq.step(d);
                    let joined = b.cells.get(&n).is_some_and(|c| c.control == Some(k))
                        && !borders.contains(&(sq, n));
                    if joined && seen.insert(n) {
                        squares.push(n);
                    }
                }
            }
            squares.sort();
            areas.push((k, squares));
        }
        areas
    }

    /// The table of squares finds the areas the former search over sets
    /// found, on grids with holes, borders (some diagonal) and three sides.
    #[test]
    fn control_areas_are_those_the_former_search_found() {
        let mut z: u32 = 0x1234_5679;
        let mut next = |n: u32| {
            z ^= z << 13;
            z ^= z >> 17;
            z ^= z << 5;
            z % n
        };
        let dirs = [Dir8::N, Dir8::NE, Dir8::E, Dir8::S, Dir8::W];
        for _ in 0..40 {
            let mut b = SquareBoard::default();
            for row in 3..3 + 12 {
                for col in -2..-2 + 15 {
                    if next(10) == 0 {
                        continue; // a hole
                    }
                    let control = [None, Some('B'), Some('R'), Some('G')][next(4) as usize];
                    let cell = Cell {
                        terrain: '.',
                        control,
                        ..Cell::default()
                    };
                    b.cells.insert(Square::new(col, row), cell);
                }
            }
            for _ in 0..30 {
                b.edges.push(SquareEdge {
                    square: Square::new(next(17) as i32 - 3, next(14) as i32 + 2),
                    dir: dirs[next(5) as usize],
                    kind: EdgeKind::Border,
                });
            }
            assert_eq!(control_areas(&b), former_areas(&b));
        }
    }

    /// A 3×2 board: `B B R` over `B B R`, a border between columns 1 and 2.
    #[test]
    fn control_is_one_area_per_side_and_a_border_splits_one() {
        let mut b = SquareBoard::default();
        for row in 1..=2 {
            for col in 1..=3 {
                let control = Some(if col == 3 { 'R' } else { 'B' });
                let cell = Cell {
                    terrain: '.',
                    control,
                    ..Cell::default()
                };
                b.cells.insert(Square::new(col, row), cell);
            }
        }
        let areas = control_areas(&b);
        assert_eq!(areas.len(), 2, "{areas:?}");
        assert_eq!(areas[0].0, 'B');
        assert_eq!(areas[0].1.len(), 4);
        for row in 1..=2 {
            b.edges.push(SquareEdge {
                square: Square::new(1, row),
                dir: Dir8::E,
                kind: EdgeKind::Border,
            });
        }
        let areas = control_areas(&b);
        let sizes: Vec<(char, usize)> = areas.iter().map(|(k, s)| (*k, s.len())).collect();
        assert_eq!(sizes, [('B', 2), ('B', 2), ('R', 2)]);
    }
}
