//! Point-to-point maps (named spaces joined by links) as plain-text lists, at
//! most 72 columns.
//!
//! A point map has no geometry a mail can draw faithfully, so it is written
//! out: each space with its kinds, controller, markers (support, sabotage…),
//! every piece by side, and the spaces it links to, with the state of each
//! link. A [`snippet`] gives the spaces of the last action in full and their
//! neighbours on one line each (pieces counted by side); [`full`] gives
//! every space. Then the tracks, the pieces off the map and the key.
//!
//! ```text
//! > Kabul [city, Pashtun] (control C)
//!     Support: active
//!     C Coalition: 3 Troops, 1 Base
//!     T Taliban: 2 Guerrilla?
//!     links: Logar, Ring Road N [Sabotage]
//! ```

use super::hexmap::Options;
use super::pieces;
use super::text::{self, Out};
use std::collections::BTreeSet;
use umpire_core::board::{Marker, PointBoard, Space, SpaceId};

/// Widest output: leaves room for `> ` quoting in a 76-column reader.
pub const MAX_WIDTH: usize = 72;

/// The spaces of `focus` in full, then their neighbours in brief.
pub fn snippet(board: &PointBoard, focus: &[SpaceId], opts: &Options) -> String {
    let width = opts.width.clamp(1, MAX_WIDTH);
    let mut main: Vec<SpaceId> = Vec::new();
    for s in focus {
        if board.spaces.contains_key(s) && !main.contains(s) {
            main.push(*s);
        }
    }
    for (id, sp) in &board.spaces {
        if sp.highlight && !main.contains(id) {
            main.push(*id);
        }
    }
    if main.is_empty() {
        // Nothing happened anywhere in particular: the whole map.
        return full(board, opts);
    }
    let near: BTreeSet<SpaceId> = main
        .iter()
        .flat_map(|s| board.neighbours(*s))
        .filter(|s| !main.contains(s) && board.spaces.contains_key(s))
        .collect();
    let mut out = Out::new(width);
    for id in &main {
        out.block(space_lines(board, *id, width));
    }
    let mut brief = Vec::new();
    for id in &near {
        brief.extend(brief_line(board, *id, width));
    }
    if !brief.is_empty() {
        brief.insert(0, "Next to them:".to_string());
    }
    out.block(brief);
    out.block(pieces::track_lines(&board.tracks, width));
    if opts.legend {
        let shown: Vec<SpaceId> = main.iter().chain(near.iter()).copied().collect();
        out.block(key(board, &shown, width));
    }
    out.finish()
}

/// Every space in full, in the board's order, then the marked links, tracks,
/// pieces off the map and the key.
pub fn full(board: &PointBoard, opts: &Options) -> String {
    let width = opts.width.clamp(1, MAX_WIDTH);
    let mut out = Out::new(width);
    if board.spaces.is_empty() {
        out.block(vec!["(no spaces to show)".to_string()]);
    }
    for id in board.spaces.keys() {
        out.block(space_lines(board, *id, width));
    }
    let marked: Vec<String> = board
        .links
        .iter()
        .filter(|l| !l.markers.is_empty())
        .map(|l| {
            format!(
                "{} - {}: {}",
                name(board, l.a),
                name(board, l.b),
                markers(&l.markers)
            )
        })
        .collect();
    let mut links = Vec::new();
    for (i, m) in marked.iter().enumerate() {
        let p = if i == 0 { "Links: " } else { "       " };
        links.extend(text::wrap(p, std::slice::from_ref(m), "", width));
    }
    out.block(links);
    out.block(pieces::track_lines(&board.tracks, width));
    out.block(pieces::off_map_lines(&board.off_map, width));
    if opts.legend {
        let all: Vec<SpaceId> = board.spaces.keys().copied().collect();
        out.block(key(board, &all, width));
    }
    out.finish()
}

/// A space's printed name (its id if the board does not have it).
fn name(board: &PointBoard, id: SpaceId) -> String {
    match board.spaces.get(&id) {
        Some(s) if !s.name.trim().is_empty() => text::ascii(&s.name).trim().to_string(),
        _ => id.to_string(),
    }
}

fn markers(m: &[Marker]) -> String {
    m.iter()
        .map(|m| text::ascii(&m.to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `> Kabul [city, Pashtun] (control C)`: the space's heading line.
fn heading(board: &PointBoard, id: SpaceId, sp: &Space) -> String {
    let mut h = String::from(if sp.highlight { "> " } else { "" });
    h.push_str(&name(board, id));
    let kinds: Vec<String> = sp
        .kinds
        .iter()
        .map(|k| text::ascii(k).trim().to_string())
        .filter(|k| !k.is_empty())
        .collect();
    if !kinds.is_empty() {
        h.push_str(&format!(" [{}]", kinds.join(", ")));
    }
    if let Some(c) = sp.control {
        h.push_str(&format!(" (control {})", text::glyph(c) as char));
    }
    h
}

/// A space in full: heading, markers, pieces by side, links.
fn space_lines(board: &PointBoard, id: SpaceId, width: usize) -> Vec<String> {
    let Some(sp) = board.spaces.get(&id) else {
        return Vec::new();
    };
    let mut lines = text::wrap("", &[heading(board, id, sp)], "", width);
    if !sp.markers.is_empty() {
        let items: Vec<String> = sp
            .markers
            .iter()
            .map(|m| text::ascii(&m.to_string()))
            .collect();
        lines.extend(text::wrap("    ", &items, "   ", width));
    }
    lines.extend(pieces::stack_lines(
        &sp.units,
        &board.legend,
        "    ",
        pieces::spelled,
        width,
    ));
    let mut seen = BTreeSet::new();
    let links: Vec<String> = board
        .links
        .iter()
        .filter_map(|l| l.other(id).map(|o| (o, l)))
        .filter(|(o, _)| seen.insert(*o))
        .map(|(o, l)| {
            if l.markers.is_empty() {
                name(board, o)
            } else {
                format!("{} [{}]", name(board, o), markers(&l.markers))
            }
        })
        .collect();
    if !links.is_empty() {
        lines.extend(text::wrap("    links: ", &links, ", ", width));
    }
    lines
}

/// `  - Logar (control T): C3 T4; Support: passive`: a neighbour in one line.
fn brief_line(board: &PointBoard, id: SpaceId, width: usize) -> Vec<String> {
    let Some(sp) = board.spaces.get(&id) else {
        return Vec::new();
    };
    let mut s = heading(board, id, sp);
    let counts = pieces::counts(&sp.units);
    if !counts.is_empty() {
        s.push_str(": ");
        s.push_str(&counts.join(" "));
    }
    if !sp.markers.is_empty() {
        s.push_str("; ");
        s.push_str(&markers(&sp.markers));
    }
    text::wrap("  - ", &[s], "", width)
}

/// The key: marks, counts, sides and the board's legend lines.
fn key(board: &PointBoard, shown: &[SpaceId], width: usize) -> Vec<String> {
    let spaces: Vec<&Space> = shown.iter().filter_map(|s| board.spaces.get(s)).collect();
    let mut items = Vec::new();
    if spaces.iter().any(|s| s.highlight) {
        items.push("> last action".to_string());
    }
    if spaces.iter().any(|s| !s.units.is_empty()) {
        items.push("C3: 3 pieces of side C".to_string());
    }
    items.extend(pieces::mark_key(spaces.iter().flat_map(|s| s.units.iter())));
    items.extend(pieces::legend_items(board.legend.iter()));
    text::wrap("Key: ", &items, "   ", width)
}

#[cfg(test)]
mod tests;
