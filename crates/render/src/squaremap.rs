//! ASCII square-grid maps for plain-text mail, at most 72 columns.
//!
//! Each square is a box six characters wide and two lines high: the first
//! line has `>` when the square is part of the last action, then its terrain
//! glyph and its controller; the second the number of pieces of each side
//! (`R2B1`). Columns are numbered above, rows on the left, so a square's
//! `CCRR` number is read off the rulers. Square sides carry rivers (`~`),
//! walls (`#`), bridges (`=`) and borders (`:`). Under the grid every square
//! shown that holds something is listed with its name, controller and every
//! unit, by side; then the tracks, the units off the map, and the key for
//! what is in view.
//!
//! ```text
//!       01     02     03
//!    +------+------+------+
//! 01 | .    | ^  R |>.  B |
//!    |      |R2    |R1 B1 |
//!    +------+~~~~~~+------+
//! ```

use super::hexmap::Options;
use super::hexmap::detail::Canvas;
use super::hexmap::layout::{Window, focus_window};
use super::pieces;
use super::text::{self, Out};
use std::collections::{BTreeMap, BTreeSet};
use umpire_core::board::{Cell, EdgeKind, SquareBoard};
use umpire_core::square::{Dir8, Square};

/// Widest output: leaves room for `> ` quoting in a 76-column reader.
pub const MAX_WIDTH: usize = 72;
/// Characters inside a square.
const INNER: i64 = 6;
/// From one column's left side to the next.
const PITCH_X: i64 = INNER + 1;
/// From one row's top side to the next.
const PITCH_Y: i64 = 3;
/// The row label and its space.
const MARGIN: i64 = 3;

fn key_of(s: Square) -> (i64, i64) {
    (i64::from(s.col), i64::from(s.row))
}

/// The squares of `board` around `focus`, with everything in them listed.
pub fn snippet(board: &SquareBoard, focus: &[Square], opts: &Options) -> String {
    let width = opts.width.clamp(1, MAX_WIDTH);
    let Some(extent) = extent(board) else {
        return empty(board, width, opts.legend);
    };
    let cols = capacity(width);
    let rows = ((opts.height as i64 - 2) / PITCH_Y).max(1);
    let focus: Vec<(i64, i64)> = focus.iter().map(|s| key_of(*s)).collect();
    let win = focus_window(&extent, &focus, cols, rows);
    let mut out = Out::new(width);
    out.block(draw(board, &win));
    out.block(contents(board, &win, width));
    if win != extent {
        out.block(vec![format!(
            "Shown: {} (map: {}).",
            span(&win),
            span(&extent)
        )]);
    }
    out.block(pieces::track_lines(&board.tracks, width));
    if opts.legend {
        out.block(key(board, &win, width));
    }
    out.finish()
}

/// The whole grid, cut into west-to-east strips that fit the width.
pub fn full(board: &SquareBoard, opts: &Options) -> String {
    let width = opts.width.clamp(1, MAX_WIDTH);
    let Some(extent) = extent(board) else {
        return empty(board, width, opts.legend);
    };
    let strips = strips(board, capacity(width), &extent);
    let mut out = Out::new(width);
    for (i, w) in strips.iter().enumerate() {
        if strips.len() > 1 {
            out.block(vec![format!(
                "Map, {} ({} of {}):",
                span(w),
                i + 1,
                strips.len()
            )]);
            out.lines(draw(board, w));
        } else {
            out.block(draw(board, w));
        }
    }
    out.block(contents(board, &extent, width));
    out.block(pieces::track_lines(&board.tracks, width));
    out.block(pieces::off_map_lines(&board.off_map, width));
    if opts.legend {
        out.block(key(board, &extent, width));
    }
    out.finish()
}

fn empty(board: &SquareBoard, width: usize, legend: bool) -> String {
    let mut out = Out::new(width);
    out.block(vec!["(no squares to show)".to_string()]);
    out.block(pieces::track_lines(&board.tracks, width));
    out.block(pieces::off_map_lines(&board.off_map, width));
    if legend {
        out.block(text::wrap(
            "Key: ",
            &pieces::legend_items(board.legend.iter()),
            "   ",
            width,
        ));
    }
    out.finish()
}

/// Columns of squares that fit `width`.
fn capacity(width: usize) -> i64 {
    ((width as i64 - MARGIN - 1) / PITCH_X).max(1)
}

fn extent(board: &SquareBoard) -> Option<Window> {
    let mut keys = board.cells.keys().map(|s| key_of(*s));
    let (c, r) = keys.next()?;
    let mut w = Window {
        c0: c,
        c1: c,
        r0: r,
        r1: r,
    };
    for (c, r) in keys {
        w.c0 = w.c0.min(c);
        w.c1 = w.c1.max(c);
        w.r0 = w.r0.min(r);
        w.r1 = w.r1.max(r);
    }
    Some(w)
}

/// Windows of at most `cols` columns holding squares, west to east; columns
/// with no squares are skipped, so far-apart squares give small drawings.
fn strips(board: &SquareBoard, cols: i64, extent: &Window) -> Vec<Window> {
    let present: BTreeSet<i64> = board.cells.keys().map(|s| i64::from(s.col)).collect();
    let mut out = Vec::new();
    let mut next = present.iter().next().copied();
    while let Some(start) = next {
        let end = start.saturating_add(cols - 1);
        let rows: Vec<i64> = board
            .cells
            .keys()
            .filter(|s| (start..=end).contains(&i64::from(s.col)))
            .map(|s| i64::from(s.row))
            .collect();
        let last = present
            .range(start..=end)
            .next_back()
            .copied()
            .unwrap_or(start);
        out.push(Window {
            c0: start,
            c1: last,
            r0: rows.iter().copied().min().unwrap_or(extent.r0),
            r1: rows.iter().copied().max().unwrap_or(extent.r1),
        });
        next = present.range(end.saturating_add(1)..).next().copied();
    }
    out
}

/// `columns 01-09, rows 01-05`.
fn span(w: &Window) -> String {
    let range = |a: i64, b: i64| {
        let sep = if a < 0 || b < 0 { " to " } else { "-" };
        format!("{}{sep}{}", text::num(a), text::num(b))
    };
    format!("columns {}, rows {}", range(w.c0, w.c1), range(w.r0, w.r1))
}

fn cells_in<'a>(board: &'a SquareBoard, w: &Window) -> impl Iterator<Item = (Square, &'a Cell)> {
    let w = *w;
    board
        .cells
        .iter()
        .filter(move |(s, _)| w.contains(key_of(**s)))
        .map(|(s, c)| (*s, c))
}

/// The grid of the squares inside `w`, with rulers.
fn draw(board: &SquareBoard, w: &Window) -> Vec<String> {
    let cols = w.c1 - w.c0 + 1;
    let rows = w.r1 - w.r0 + 1;
    let width = MARGIN + PITCH_X * cols + 1;
    let height = 1 + PITCH_Y * rows + 1;
    // A window wider than the page is a caller's mistake; never allocate for it.
    if cols > 64 || rows > 4096 {
        return vec!["(window too large to draw)".to_string()];
    }
    let mut canvas = Canvas::new(width as usize, height as usize);
    let origin = |(c, r): (i64, i64)| (MARGIN + (c - w.c0) * PITCH_X, 1 + (r - w.r0) * PITCH_Y);
    for c in w.c0..=w.c1 {
        canvas.text(origin((c, w.r0)).0 + 3, 0, &text::num(c));
    }
    for r in w.r0..=w.r1 {
        canvas.text(0, origin((w.c0, r)).1 + 1, &text::num(r));
    }
    for (s, _) in cells_in(board, w) {
        let (x, y) = origin(key_of(s));
        for d in Dir8::ORTHOGONAL {
            for (px, py, ch) in side_points((x, y), d) {
                canvas.put(px, py, ch);
            }
        }
        for (px, py) in [
            (x, y),
            (x + PITCH_X, y),
            (x, y + PITCH_Y),
            (x + PITCH_X, y + PITCH_Y),
        ] {
            canvas.put(px, py, b'+');
        }
    }
    // Features in a fixed order, bridges last so they show over their river.
    let mut edges: Vec<_> = board
        .edges
        .iter()
        .filter(|e| !e.dir.is_diagonal())
        .collect();
    edges.sort_by_key(|e| (rank(e.kind), e.square, e.dir));
    for e in edges {
        let at = key_of(e.square);
        let there = step(at, e.dir);
        let shown = |k: (i64, i64)| {
            w.contains(k)
                && board
                    .cells
                    .contains_key(&Square::new(k.0 as i32, k.1 as i32))
        };
        if !shown(at) && !shown(there) {
            continue;
        }
        let glyph = super::hexmap::detail::edge_glyph(e.kind);
        let pts = side_points(origin(at), e.dir);
        let long = pts.len() > 2;
        for (i, (px, py, _)) in pts.into_iter().enumerate() {
            if e.kind == EdgeKind::Bridge && long && !(2..4).contains(&i) {
                continue;
            }
            canvas.put(px, py, glyph);
        }
    }
    for (s, cell) in cells_in(board, w) {
        let (x, y) = origin(key_of(s));
        let mark = if cell.highlight { '>' } else { ' ' };
        let line1 = format!(
            "{mark}{}  {}",
            text::glyph(cell.terrain) as char,
            cell.control.map_or(' ', |c| text::glyph(c) as char)
        );
        canvas.text(x + 1, y + 1, &line1);
        canvas.text(x + 1, y + 2, &fit_counts(&pieces::counts(&cell.units)));
    }
    canvas.lines()
}

/// `Square::step` in widened coordinates, so that it cannot overflow.
fn step((c, r): (i64, i64), d: Dir8) -> (i64, i64) {
    let (dc, dr) = d.delta();
    (c + i64::from(dc), r + i64::from(dr))
}

/// Bridges after rivers and walls, so they are drawn over them.
fn rank(k: EdgeKind) -> u8 {
    match k {
        EdgeKind::Border => 0,
        EdgeKind::River => 1,
        EdgeKind::Wall => 2,
        EdgeKind::Bridge => 3,
    }
}

/// The characters of one side of the square whose top-left corner is `(x, y)`.
fn side_points((x, y): (i64, i64), d: Dir8) -> Vec<(i64, i64, u8)> {
    let run = |y: i64| (1..=INNER).map(|i| (x + i, y, b'-')).collect();
    let col = |x: i64| (1..PITCH_Y).map(|i| (x, y + i, b'|')).collect();
    match d {
        Dir8::N => run(y),
        Dir8::S => run(y + PITCH_Y),
        Dir8::W => col(x),
        Dir8::E => col(x + PITCH_X),
        _ => Vec::new(),
    }
}

/// The side counts in six characters: `R2 B1`, else `R2B1`, else cut with `+`.
fn fit_counts(counts: &[String]) -> String {
    let spaced = counts.join(" ");
    if spaced.len() <= INNER as usize {
        return spaced;
    }
    let tight = counts.concat();
    if tight.len() <= INNER as usize {
        return tight;
    }
    let mut s = String::new();
    for c in counts {
        if s.len() + c.len() > INNER as usize - 1 {
            break;
        }
        s.push_str(c);
    }
    s.push('+');
    s
}

/// Every square in `w` with a name or units, all of them named. Control alone
/// does not list a square: the grid shows it, and a map whose every square
/// has a controller (Asia Crossroads' regions) would list them all.
fn contents(board: &SquareBoard, w: &Window, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for (s, cell) in cells_in(board, w) {
        let name = cell
            .name
            .as_deref()
            .map(|n| text::ascii(n).trim().to_string());
        let name = name.filter(|n| !n.is_empty());
        if name.is_none() && cell.units.is_empty() && !cell.highlight {
            continue;
        }
        let mut head = s.to_string();
        if let Some(n) = &name {
            head.push(' ');
            head.push_str(n);
        }
        let mut notes = Vec::new();
        if let Some(c) = cell.control {
            notes.push(format!("control {}", text::glyph(c) as char));
        }
        if cell.highlight {
            notes.push("last action".to_string());
        }
        if !notes.is_empty() {
            head.push_str(&format!(" ({})", notes.join(", ")));
        }
        lines.extend(text::wrap("", &[head], "", width));
        lines.extend(pieces::stack_lines(
            &cell.units,
            &board.legend,
            "  ",
            umpire_core::board::Unit::short,
            width,
        ));
    }
    if !lines.is_empty() {
        lines.insert(0, "Squares:".to_string());
    }
    lines
}

/// How to read a square, the sides and features drawn, the marks in view,
/// and the board's legend lines for what is in the window.
fn key(board: &SquareBoard, w: &Window, width: usize) -> Vec<String> {
    let cells: Vec<&Cell> = cells_in(board, w).map(|(_, c)| c).collect();
    let mut items = vec![
        "square: terrain, control; pieces by side (R2 = 2 of side R)".to_string(),
        "number: column above, row left".to_string(),
    ];
    if cells.iter().any(|c| c.highlight) {
        items.push("> last action".to_string());
    }
    let kinds: BTreeMap<u8, EdgeKind> = board
        .edges
        .iter()
        .filter(|e| !e.dir.is_diagonal())
        .filter(|e| w.contains(key_of(e.square)) || w.contains(step(key_of(e.square), e.dir)))
        .map(|e| (rank(e.kind), e.kind))
        .collect();
    if !kinds.is_empty() {
        let k: Vec<String> = kinds
            .values()
            .map(|k| {
                format!(
                    "{} {}",
                    super::hexmap::detail::edge_glyph(*k) as char,
                    k.name()
                )
            })
            .collect();
        items.push(format!("sides: {}", k.join(", ")));
    }
    items.extend(pieces::mark_key(cells.iter().flat_map(|c| c.units.iter())));
    let terrain: BTreeSet<char> = cells.iter().map(|c| c.terrain).collect();
    let all_terrain: BTreeSet<char> = board.cells.values().map(|c| c.terrain).collect();
    let shown = board.legend.iter().filter(|l| {
        // A terrain glyph elsewhere on the map is not explained in a snippet.
        let mut ch = l.glyph.trim().chars();
        match (ch.next(), ch.next()) {
            (Some(g), None) if all_terrain.contains(&g) => terrain.contains(&g),
            _ => true,
        }
    });
    items.extend(pieces::legend_items(shown));
    text::wrap("Key: ", &items, "   ", width)
}

#[cfg(test)]
mod tests;
