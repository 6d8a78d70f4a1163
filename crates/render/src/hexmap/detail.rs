//! The detailed drawing: flat-topped hexes, ten columns across the top,
//! four lines from top to top:
//!
//! ```text
//!   __________
//!  / 0712  ^ M\      number, terrain, control (>0712< when highlighted)
//! /  ds.i1 m3' \     units ...
//! \   Hetuala  /     ... and the place name, or more units
//!  \__________/
//! ```
//!
//! Columns are 12 characters apart, so six columns take 74 characters.
//! Neighbouring hexes share their border characters; a hexside feature
//! overwrites the characters of the side it is on.

use super::layout::{Map, Window};
use super::text;
use std::collections::{BTreeMap, BTreeSet};
use umpire_core::board::EdgeKind;
use umpire_core::hex::{Dir, Hex};

/// Length of the top and bottom sides (the `_` run).
const TOP: i64 = 10;
/// Lines from a hex's top to its widest point; the slanted sides are this long.
const HALF: i64 = 2;
/// Horizontal distance between neighbouring columns.
pub(super) const PITCH_X: i64 = TOP + HALF;
/// Vertical distance between hexes of one column.
pub(super) const PITCH_Y: i64 = 2 * HALF;
/// Width of the text lines inside a hex.
const INNER: usize = TOP as usize;

/// How many columns and rows of hexes fit in `width` × `height` characters.
pub(super) fn capacity(width: usize, height: usize) -> (i64, i64) {
    let (w, h) = (width as i64, height as i64);
    // n columns take PITCH_X * (n - 1) + TOP + 2 * HALF characters, and n rows
    // take PITCH_Y * n + 1 lines plus HALF for the lower (even) columns.
    let cols = (w - TOP - 2 * HALF) / PITCH_X + 1;
    let rows = (h - 1 - HALF) / PITCH_Y;
    (cols.max(1), rows.max(1))
}

/// What a detailed drawing shows besides its lines, for the notes under it.
#[derive(Default)]
pub(super) struct Notes {
    /// Stacks not shown whole in their hex: every unit, by hex.
    pub stacks: BTreeMap<Hex, Vec<String>>,
    /// Place names shortened to fit: the whole name, by hex.
    pub names: BTreeMap<Hex, String>,
    /// Hexside features drawn.
    pub edges: BTreeSet<EdgeKind>,
    /// A highlighted hex was drawn.
    pub highlight: bool,
}

impl Notes {
    pub fn merge(&mut self, other: Notes) {
        self.stacks.extend(other.stacks);
        self.names.extend(other.names);
        self.edges.extend(other.edges);
        self.highlight |= other.highlight;
    }
}

/// A grid of ASCII bytes; writes outside it are dropped, which is what clips
/// the borders of hexes at the edge of a window.
pub(crate) struct Canvas {
    rows: Vec<Vec<u8>>,
}

impl Canvas {
    pub fn new(width: usize, height: usize) -> Canvas {
        Canvas {
            rows: vec![vec![b' '; width]; height],
        }
    }

    pub fn put(&mut self, x: i64, y: i64, b: u8) {
        if let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y))
            && let Some(cell) = self.rows.get_mut(y).and_then(|row| row.get_mut(x))
        {
            *cell = b;
        }
    }

    pub fn text(&mut self, x: i64, y: i64, s: &str) {
        for (i, b) in s.bytes().enumerate() {
            self.put(x + i as i64, y, b);
        }
    }

    /// The lines without trailing spaces, and without blank lines at the top
    /// and bottom.
    pub fn lines(self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .rows
            .into_iter()
            .map(|r| String::from_utf8_lossy(&r).trim_end().to_string())
            .collect();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        let blank_top = lines.iter().take_while(|l| l.is_empty()).count();
        lines.drain(..blank_top);
        lines
    }
}

/// Where a hex's top-left corner (the start of the line above its top side,
/// at the level of the `_` run) lands in a drawing of `w`.
fn origin(map: &Map, w: &Window, (c, r): (i64, i64)) -> (i64, i64) {
    let x = (c - w.c0) * PITCH_X;
    let y = (r - w.r0) * PITCH_Y + if map.low(c) { HALF } else { 0 };
    (x, y)
}

/// The characters of one side of a hex whose origin is `(x, y)`, with the
/// character that draws the side when it has no feature.
fn side((x, y): (i64, i64), d: Dir) -> (Vec<(i64, i64)>, u8) {
    let run = |y: i64| (2..2 + TOP).map(|i| (x + i, y)).collect::<Vec<_>>();
    let slope = |pts: [(i64, i64); HALF as usize]| pts.to_vec();
    match d {
        Dir::N => (run(y), b'_'),
        Dir::S => (run(y + PITCH_Y), b'_'),
        Dir::NE => (slope([(x + TOP + 2, y + 1), (x + TOP + 3, y + 2)]), b'\\'),
        Dir::SE => (slope([(x + TOP + 3, y + 3), (x + TOP + 2, y + 4)]), b'/'),
        Dir::SW => (slope([(x, y + 3), (x + 1, y + 4)]), b'\\'),
        Dir::NW => (slope([(x + 1, y + 1), (x, y + 2)]), b'/'),
    }
}

/// The character a hexside feature is drawn with.
pub(crate) fn edge_glyph(kind: EdgeKind) -> u8 {
    match kind {
        EdgeKind::River => b'~',
        EdgeKind::Wall => b'#',
        EdgeKind::Bridge => b'=',
        EdgeKind::Border => b':',
    }
}

/// Draws the hexes of `map` inside `w`.
pub(super) fn draw(map: &Map, w: &Window) -> (Vec<String>, Notes) {
    let cols = (w.c1 - w.c0 + 1).max(1);
    let rows = (w.r1 - w.r0 + 1).max(1);
    let width = PITCH_X * (cols - 1) + TOP + 2 * HALF;
    let height = PITCH_Y * rows + 1 + HALF;
    let mut canvas = Canvas::new(width as usize, height as usize);
    let mut notes = Notes::default();

    // Outlines first: features and contents overwrite them.
    for (at, _) in map.within(w) {
        for d in Dir::ALL {
            let (pts, ch) = side(origin(map, w, at), d);
            for (x, y) in pts {
                canvas.put(x, y, ch);
            }
        }
    }

    // Features in a fixed order, so that a bridge always wins over the river
    // it crosses whatever order the ruleset listed them in.
    let drawn = |at: (i64, i64)| w.contains(at) && map.cells.contains_key(&at);
    let mut edges: Vec<_> = map.board.edges.iter().collect();
    edges.sort_by_key(|e| (e.kind, e.hex, e.dir));
    for e in edges {
        let at = (i64::from(e.hex.col), i64::from(e.hex.row));
        if !drawn(at) && !drawn(map.step(at, e.dir)) {
            continue;
        }
        notes.edges.insert(e.kind);
        let (pts, _) = side(origin(map, w, at), e.dir);
        let glyph = edge_glyph(e.kind);
        let long = pts.len() > HALF as usize;
        for (i, (x, y)) in pts.into_iter().enumerate() {
            // On the long top and bottom sides a bridge is drawn in the middle
            // only, leaving the river or wall it crosses visible at its ends.
            if e.kind == EdgeKind::Bridge && long && !(3..TOP as usize - 3).contains(&i) {
                continue;
            }
            canvas.put(x, y, glyph);
        }
    }

    for (at, cell) in map.within(w) {
        let (x, y) = origin(map, w, at);
        // Lossless: the widened key came from this cell's i32 hex.
        let hex = Hex::new(at.0 as i32, at.1 as i32);
        // Line 1: number, terrain, control.
        let num = text::label(at.0, at.1);
        let (l, r) = if cell.highlight {
            ('>', '<')
        } else {
            (' ', ' ')
        };
        notes.highlight |= cell.highlight;
        let head = format!("{l}{num}{r}");
        let tail = format!(
            "{} {}",
            text::glyph(cell.terrain) as char,
            cell.control.map_or(' ', |c| text::glyph(c) as char)
        );
        canvas.text(x + 2, y + 1, text::cut(&head, INNER));
        if head.len() + 1 + tail.len() <= INNER {
            canvas.text(x + 2 + (INNER - tail.len()) as i64, y + 1, &tail);
        }

        // Lines 2 and 3: the stack, and the place name on the last line.
        let name = cell
            .name
            .as_deref()
            .map(|n| text::ascii(n).trim().to_string())
            .filter(|n| !n.is_empty());
        let units: Vec<String> = cell
            .units
            .iter()
            .map(|u| text::ascii(&u.short()).trim().to_string())
            .filter(|u| !u.is_empty())
            .collect();
        let unit_lines = if name.is_some() { 1 } else { 2 };
        let (packed, whole) = pack(&units, unit_lines, INNER);
        if !whole {
            notes.stacks.insert(hex, units);
        }
        for (i, line) in packed.iter().enumerate() {
            canvas.text(x + 2, y + 2 + i as i64, line);
        }
        if let Some(name) = name {
            let short = text::shorten(&name, INNER);
            if short != name {
                notes.names.insert(hex, name);
            }
            let pad = (INNER - short.len()).div_ceil(2);
            canvas.text(x + 2 + pad as i64, y + 3, &short);
        }
    }
    (canvas.lines(), notes)
}

/// Packs unit ids, in order, into at most `lines` lines of `width` columns.
/// When they do not all fit, the last line ends with `+N`, N the units not
/// shown; an id longer than a line gets a line of its own and is cut. Returns
/// the lines and whether every unit is shown in full.
pub(super) fn pack(units: &[String], lines: usize, width: usize) -> (Vec<String>, bool) {
    let lines = lines.max(1);
    let joined = |l: &[&str]| l.join(" ");
    let mut done: Vec<Vec<&str>> = Vec::new();
    let mut cur: Vec<&str> = Vec::new();
    let mut shown = 0;
    for u in units {
        let need = joined(&cur).len() + usize::from(!cur.is_empty()) + u.len();
        if !cur.is_empty() && need > width {
            if done.len() + 1 >= lines {
                break;
            }
            done.push(std::mem::take(&mut cur));
        }
        cur.push(u);
        shown += 1;
    }
    let mut hidden = units.len() - shown;
    let mut whole = hidden == 0;
    if hidden > 0 {
        // Make room for the count, dropping units from the end of the line.
        while !cur.is_empty() && joined(&cur).len() + 1 + format!("+{hidden}").len() > width {
            cur.pop();
            hidden += 1;
        }
    }
    let mut out: Vec<String> = done.iter().map(|l| joined(l)).collect();
    let mut last = joined(&cur);
    if hidden > 0 {
        if !last.is_empty() {
            last.push(' ');
        }
        last.push_str(&format!("+{hidden}"));
    }
    out.push(last);
    for l in &mut out {
        if l.len() > width {
            whole = false;
            l.truncate(text::cut(l, width).len());
        }
    }
    out.retain(|l| !l.is_empty());
    (out, whole)
}
