//! ASCII hex maps for plain-text mail.
//!
//! Draws a [`HexBoard`](umpire_core::board::HexBoard) (what one side sees) for the result mails: a
//! [`snippet`] around the last action, or the [`full`] map. The output is
//! pure ASCII with no trailing spaces and no line longer than
//! [`Options::width`] (76 by default), so it survives Thunderbird, Gmail's
//! plain-text view and quoting alike; it is the same for the same board, and
//! no board makes it panic. It knows nothing of any game: glyphs and their
//! meanings come from the board.
//!
//! Hexes are flat-topped, in columns, the even columns half a hex lower, as
//! in [`umpire_core::hex`]. Each shows its number, terrain glyph and control
//! marker on top, then the stack (as many ids as fit, then `+N`), and the
//! place name at the bottom. `>0202<` marks a hex of the last action.
//! Rivers (`~`), walls (`#`) and bridges (`=`) replace the border characters
//! of the hexside they are on. Stacks that did not fit and shortened names are
//! listed in full under the map, then the key.
//!
//! ```text
//!   __________              __________
//!  / 0101  .  \            />0301< . J\
//! /            \__________/ j7         \
//! \            / 0201  .  \   Hetuala  /
//!  \__________/            \~~~====~~~/
//!  / 0102  .  \            / 0302  .  \
//! /            \__________/            \
//! \            />0202< ^ M~            /
//!  \__________/ ds.i1      ~__________/
//!  / 0103  f  \ ds.i2 +3   ~ 0303  .  \
//! /            \##########~            \
//! \            / 0203  .  \            /
//!  \__________/            \__________/
//!             \            /
//!              \__________/
//!
//! Stacks: 0202 ds.i1 ds.i2 m3' m4* art
//!
//! Key: 0712 ^ M: hex number, terrain, control; units and place below
//!      >0712< last action   +2: two more units, listed under Stacks
//!      hexsides: ~ river, # wall, = bridge   . clear   ^ hill   f forest
//!      M Mongol   J Jin
//! ```
//!
//! A map wider than six columns is drawn whole by [`full`] as an overview at
//! three characters a hex (terrain, unit count, control), followed by the
//! detailed drawing in west-to-east strips that share a column.
//!
//! ```
//! use umpire_core::board::{Cell, HexBoard, Unit, UnitMark};
//! use umpire_core::hex::Hex;
//! use umpire_render::hexmap::{snippet, Options};
//!
//! let mut board = HexBoard::default();
//! for col in 1..=3 {
//!     for row in 1..=3 {
//!         board.cells.insert(Hex::new(col, row), Cell { terrain: '.', ..Cell::default() });
//!     }
//! }
//! let attacked = Hex::new(2, 2);
//! if let Some(cell) = board.cells.get_mut(&attacked) {
//!     cell.units = vec![Unit::new("ds.i1"), Unit::new("m3").mark(UnitMark::Reduced)];
//!     cell.highlight = true;
//! }
//! let text = snippet(&board, &[attacked], &Options::default());
//! assert!(text.contains(">0202<"));
//! assert!(text.contains("ds.i1 m3'"));
//! assert!(text.lines().all(|l| l.len() <= 76));
//! ```

pub(crate) mod detail;
pub(crate) mod layout;
mod overview;

#[cfg(test)]
mod tests;

use super::text::{self, Out};
use detail::Notes;
use layout::{Map, Window};
use std::collections::BTreeMap;
use umpire_core::board::{Cell, HexBoard as Board, Legend};
use umpire_core::hex::Hex;

/// How to draw a map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Longest line, in characters (default 76). Every line of the output fits;
    /// below 14 (narrower than one hex) lines are cut.
    pub width: usize,
    /// Most lines the drawing in a [`snippet`] may take, legend and notes
    /// not counted (default 24: five rows of hexes). One row of hexes (seven
    /// lines) is drawn whatever the height.
    pub height: usize,
    /// How [`full`] draws a map wider than one detailed strip.
    pub full: FullStyle,
    /// Print the key under the map (default true).
    pub legend: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            width: 76,
            height: 24,
            full: FullStyle::Auto,
            legend: true,
        }
    }
}

/// What [`full`] draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FullStyle {
    /// The detailed drawing when it fits the width; otherwise the overview
    /// followed by the detailed drawing in west-to-east strips.
    #[default]
    Auto,
    /// Only the detailed drawing, in strips if needed.
    Detailed,
    /// Only the overview, with every stack and place listed under it.
    Overview,
}

/// A detailed drawing of the hexes around `focus`.
///
/// Shows every focus hex if they fit in the window, else centres on the first
/// one (the hex the action is about); with no focus, the middle of the map.
/// The window is clipped to the map and takes at most `opts.width` columns
/// and `opts.height` lines. Under it: stacks too big for their hex, place
/// names that had to be shortened, which part of the map is shown, and the key.
pub fn snippet(board: &Board, focus: &[Hex], opts: &Options) -> String {
    let map = Map::new(board);
    let Some(extent) = map.extent else {
        return empty(board, opts, false);
    };
    let width = opts.width.max(1);
    let (cols, rows) = detail::capacity(width, opts.height);
    let focus: Vec<(i64, i64)> = focus
        .iter()
        .map(|h| (i64::from(h.col), i64::from(h.row)))
        .collect();
    let win = layout::focus_window(&extent, &focus, cols, rows);
    let (lines, notes) = detail::draw(&map, &win);

    let mut out = Out::new(width);
    out.block(lines);
    let mut after = Vec::new();
    after.extend(stack_lines(&notes.stacks, "Stacks: ", width));
    after.extend(name_lines(&notes.names, "Names:  ", width));
    if win != extent {
        after.push(format!("Shown: {} (map: {}).", span(&win), span(&extent)));
    }
    out.block(after);
    if opts.legend {
        out.block(key(board, Some(&notes), None, width, Some((&map, &win))));
    }
    out.finish()
}

/// In a snippet, a legend line about one unit or one terrain shows only if that
/// unit or terrain is in the window: a roster of every counter on the map
/// belongs in the full map, not in each result mail.
fn legend_in_window(map: &Map, win: &Window, l: &Legend) -> bool {
    let glyph = l.glyph.trim();
    let on_board_unit = map
        .cells
        .values()
        .any(|c| c.units.iter().any(|u| u.id == glyph));
    let mut chars = glyph.chars();
    let terrain = match (chars.next(), chars.next()) {
        (Some(ch), None) => map.cells.values().any(|c| c.terrain == ch).then_some(ch),
        _ => None,
    };
    let in_window =
        |f: &dyn Fn(&Cell) -> bool| map.cells.iter().any(|(at, c)| win.contains(*at) && f(c));
    if let Some(t) = terrain {
        return in_window(&|c: &Cell| c.terrain == t);
    }
    if on_board_unit {
        return in_window(&|c: &Cell| c.units.iter().any(|u| u.id == glyph));
    }
    // Not a unit on the map (a mark, a hexside, an off-map unit): keep it,
    // unless it names a unit off the map, which the window cannot show.
    !map.board
        .off_map
        .iter()
        .any(|o| o.split_whitespace().next() == Some(glyph))
}

/// The whole map, readable at `opts.width` columns.
///
/// A map narrow enough is drawn in detail as one piece. A wider one gets, by
/// default, an overview at three characters a hex (see [`FullStyle`]) and then
/// the detailed drawing cut into west-to-east strips that overlap by one
/// column, so every hex appears with its number. Units off the map and the key
/// follow.
pub fn full(board: &Board, opts: &Options) -> String {
    let map = Map::new(board);
    let Some(extent) = map.extent else {
        return empty(board, opts, true);
    };
    let width = opts.width.max(1);
    let (cols, _) = detail::capacity(width, 0);
    let strips = layout::strips(&map, cols, true);
    let (show_overview, show_detail) = match opts.full {
        FullStyle::Auto => (strips.len() > 1, true),
        FullStyle::Detailed => (false, true),
        FullStyle::Overview => (true, false),
    };

    let mut out = Out::new(width);
    let mut over = None;
    if show_overview {
        let ocols = overview::capacity(width, extent.r0, extent.r1);
        let parts = layout::strips(&map, ocols, false);
        let mut highlight = false;
        for (i, w) in parts.iter().enumerate() {
            let (lines, h) = overview::draw(&map, w);
            highlight |= h;
            out.block(vec![heading("Overview", w, i, parts.len())]);
            out.lines(lines);
        }
        over = Some(highlight);
    }
    let mut notes = Notes::default();
    if show_detail {
        for (i, w) in strips.iter().enumerate() {
            let (lines, n) = detail::draw(&map, w);
            notes.merge(n);
            if strips.len() > 1 || show_overview {
                out.block(vec![heading("Map", w, i, strips.len())]);
                out.lines(lines);
            } else {
                out.block(lines);
            }
        }
    }

    let mut after = Vec::new();
    if show_detail {
        after.extend(stack_lines(&notes.stacks, "Stacks: ", width));
        after.extend(name_lines(&notes.names, "Names:  ", width));
    } else {
        let all: BTreeMap<Hex, Vec<String>> = board
            .cells
            .iter()
            .filter(|(_, c)| c.units.iter().any(|u| !u.short().trim().is_empty()))
            .map(|(h, c)| (*h, c.units.iter().map(|u| u.short()).collect()))
            .collect();
        let names: BTreeMap<Hex, String> = board
            .cells
            .iter()
            .filter_map(|(h, c)| Some((*h, c.name.clone()?)))
            .collect();
        after.extend(stack_lines(&all, "Units:  ", width));
        after.extend(name_lines(&names, "Places: ", width));
    }
    after.extend(off_map_lines(board, width));
    out.block(after);
    if opts.legend {
        out.block(key(board, show_detail.then_some(&notes), over, width, None));
    }
    out.finish()
}

/// What an empty board renders as: no drawing, but the off-map units (in a
/// full map) and the legend still matter.
fn empty(board: &Board, opts: &Options, full: bool) -> String {
    let width = opts.width.max(1);
    let mut out = Out::new(width);
    out.block(vec!["(no hexes to show)".to_string()]);
    if full {
        out.block(off_map_lines(board, width));
    }
    if opts.legend {
        out.block(key(board, None, None, width, None));
    }
    out.finish()
}

/// `Map, columns 01-06, rows 01-20 (1 of 6):`
fn heading(what: &str, w: &Window, i: usize, n: usize) -> String {
    let part = if n > 1 {
        format!(" ({} of {n})", i + 1)
    } else {
        String::new()
    };
    format!("{what}, {}{part}:", span(w))
}

/// `columns 01-06, rows 01-20`, or `columns -2 to 01, ...` where a dash
/// would read as a minus sign.
fn span(w: &Window) -> String {
    let range = |a: i64, b: i64| {
        let sep = if a < 0 || b < 0 { " to " } else { "-" };
        format!("{}{sep}{}", text::num(a), text::num(b))
    };
    format!("columns {}, rows {}", range(w.c0, w.c1), range(w.r0, w.r1))
}

/// One entry per hex: `0305 ds.i1 ds.i2 m3' m4* art`.
fn stack_lines(stacks: &BTreeMap<Hex, Vec<String>>, prefix: &str, width: usize) -> Vec<String> {
    let items: Vec<String> = stacks
        .iter()
        .map(|(h, units)| {
            let units: Vec<String> = units
                .iter()
                .map(|u| text::ascii(u).trim().to_string())
                .filter(|u| !u.is_empty())
                .collect();
            format!("{h} {}", units.join(" "))
        })
        .collect();
    // Each stack on its own line: a run-on list of ids is hard to split by eye.
    let mut lines = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let p = if i == 0 {
            prefix.to_string()
        } else {
            " ".repeat(prefix.len())
        };
        lines.extend(text::wrap(&p, std::slice::from_ref(item), "", width));
    }
    lines
}

/// `0712 Grossbeerenberg   0909 Mont Saint Michel`.
fn name_lines(names: &BTreeMap<Hex, String>, prefix: &str, width: usize) -> Vec<String> {
    let items: Vec<String> = names
        .iter()
        .map(|(h, n)| format!("{h} {}", text::ascii(n).trim()))
        .collect();
    text::wrap(prefix, &items, "   ", width)
}

fn off_map_lines(board: &Board, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, l) in board.off_map.iter().enumerate() {
        let prefix = if i == 0 { "Off map: " } else { "         " };
        lines.extend(text::wrap(prefix, &[text::ascii(l)], "", width));
    }
    lines
}

/// The key: how to read a hex, the marks used, the hexside features drawn,
/// then the board's own legend.
fn key(
    board: &Board,
    detail: Option<&Notes>,
    overview: Option<bool>,
    width: usize,
    window: Option<(&Map, &Window)>,
) -> Vec<String> {
    let mut items = Vec::new();
    if let Some(n) = detail {
        items.push("0712 ^ M: hex number, terrain, control; units and place below".to_string());
        if n.highlight {
            items.push(">0712< last action".to_string());
        }
        if !n.stacks.is_empty() {
            items.push("+2: two more units, listed under Stacks".to_string());
        }
    }
    if let Some(highlight) = overview {
        // Two short items rather than one long one, so that wrapping keeps
        // each on a line of its own.
        items.push("overview .2M: terrain, units (+ for 10 or more), control".to_string());
        items.push("overview: even columns on each row's second line".to_string());
        if highlight {
            items.push("overview >: last action".to_string());
        }
    }
    if let Some(n) = detail.filter(|n| !n.edges.is_empty()) {
        let kinds: Vec<String> = n
            .edges
            .iter()
            .map(|k| format!("{} {}", detail::edge_glyph(*k) as char, k.name()))
            .collect();
        items.push(format!("hexsides: {}", kinds.join(", ")));
    }
    for l in &board.legend {
        if let Some((map, win)) = window
            && !legend_in_window(map, win, l)
        {
            continue;
        }
        items.push(format!(
            "{} {}",
            text::ascii(&l.glyph).trim(),
            text::ascii(&l.meaning).trim()
        ));
    }
    text::wrap("Key: ", &items, "   ", width)
}
