//! Square grids: one square per cell, side features along the squares'
//! edges, column and row numbers round the map.

use super::counter;
use super::doc::{Anchor, Doc};
use super::legend::Key;
use super::style::{GRID, HIGHLIGHT, INK, PAPER, Palette, tint};
use umpire_core::board::{Board, EdgeKind, SquareBoard};
use umpire_core::square::{Dir8, Square};

/// Room for the row and column numbers.
const MARGIN: f64 = 22.0;
/// Widest picture we aim for; squares shrink to fit, down to `MIN_CELL`.
const MAX_WIDTH: f64 = 1400.0;
const MIN_CELL: f64 = 14.0;
const MAX_CELL: f64 = 56.0;

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
pub fn draw(board: &Board, b: &SquareBoard, focus: &[Square]) -> String {
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
    let mut doc = Doc::new(w, h + key.height, PAPER);
    let small = (cell * 0.24).max(6.0);
    doc.group("terrain");
    for (s, c) in &b.cells {
        let (x, y) = l.origin(*s);
        doc.rect(x, y, cell, cell, 0.0, pal.terrain(c.terrain), GRID, 0.4);
    }
    doc.end_group();
    doc.group("numbers");
    for c in cmin..=cmax {
        let x = MARGIN + (f64::from(c - cmin) + 0.5) * cell;
        doc.text(
            (x, MARGIN - 6.0),
            9.0,
            INK,
            Anchor::Middle,
            &format!("{c:02}"),
        );
    }
    for r in rmin..=rmax {
        let y = MARGIN + (f64::from(r - rmin) + 0.6) * cell;
        doc.text((MARGIN - 3.0, y), 9.0, INK, Anchor::End, &format!("{r:02}"));
    }
    doc.end_group();
    doc.group("sides");
    for e in &b.edges {
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
    doc.group("labels");
    for (s, c) in &b.cells {
        let (x, y) = l.origin(*s);
        if let Some(k) = c.control {
            doc.rect(
                x + 1.0,
                y + 1.0,
                cell * 0.28,
                cell * 0.28,
                1.0,
                &tint(pal.side(k)),
                pal.side(k),
                0.8,
            );
        }
    }
    doc.end_group();
    doc.group("units");
    for (s, c) in &b.cells {
        if !c.units.is_empty() {
            let (x, y) = l.origin(*s);
            counter::stack(
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
    doc.group("names");
    for (sq, c) in &b.cells {
        if let Some(name) = &c.name {
            let (x, y) = l.origin(*sq);
            doc.label((x + cell / 2.0, y + cell - 2.0), small, INK, PAPER, name);
        }
    }
    doc.end_group();
    doc.group("highlight");
    for (s, c) in &b.cells {
        if c.highlight || focus.contains(s) {
            let (x, y) = l.origin(*s);
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
    key.draw(&mut doc, (MARGIN, h));
    doc.finish()
}
