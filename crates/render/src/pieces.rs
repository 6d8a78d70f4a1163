//! Listing units and tracks, shared by the square and point-to-point
//! renderers: stacks grouped by side with every member named, the marks in
//! view explained, tracks in one run.

use super::text;
use std::collections::BTreeSet;
use umpire_core::board::{Legend, Track, Unit, UnitMark};

/// The units grouped by side, in order of first appearance: `(side, units)`.
/// Units with no side come last, under `None`.
pub(crate) fn by_side(units: &[Unit]) -> Vec<(Option<char>, Vec<&Unit>)> {
    let mut groups: Vec<(Option<char>, Vec<&Unit>)> = Vec::new();
    for u in units {
        match groups.iter_mut().find(|(s, _)| *s == u.side) {
            Some((_, v)) => v.push(u),
            None => groups.push((u.side, vec![u])),
        }
    }
    groups.sort_by_key(|(s, _)| s.is_none());
    groups
}

/// The name a legend gives a side's glyph, if any.
pub(crate) fn side_name(legend: &[Legend], side: char) -> Option<&str> {
    legend
        .iter()
        .find(|l| l.glyph.trim().chars().eq(std::iter::once(side)))
        .map(|l| l.meaning.as_str())
}

/// `R Russia:` — the heading of a side's group (`-` when no side).
pub(crate) fn side_heading(legend: &[Legend], side: Option<char>) -> String {
    match side {
        Some(c) => {
            let g = text::glyph(c) as char;
            match side_name(legend, c) {
                Some(n) => format!("{g} {}:", text::ascii(n).trim()),
                None => format!("{g}:"),
            }
        }
        None => "-:".to_string(),
    }
}

/// The total count of pieces of each side, `R2 B1`, for a grid cell.
pub(crate) fn counts(units: &[Unit]) -> Vec<String> {
    by_side(units)
        .into_iter()
        .map(|(s, us)| {
            let n: u64 = us.iter().map(|u| u64::from(u.count)).sum();
            let n = if n > 99 {
                "+".to_string()
            } else {
                n.to_string()
            };
            match s {
                Some(c) => format!("{}{n}", text::glyph(c) as char),
                None => n,
            }
        })
        .collect()
}

/// Lines naming every unit of a stack by side, each line prefixed `indent`:
/// `  R Russia: 1st_Bde 2nd_Bde' 3xCossack`.
pub(crate) fn stack_lines(
    units: &[Unit],
    legend: &[Legend],
    indent: &str,
    label: fn(&Unit) -> String,
    width: usize,
) -> Vec<String> {
    let mut lines = Vec::new();
    for (side, us) in by_side(units) {
        let head = format!("{indent}{} ", side_heading(legend, side));
        let items: Vec<String> = us.iter().map(|u| text::ascii(&label(u))).collect();
        lines.extend(text::wrap(&head, &items, ", ", width));
    }
    lines
}

/// `3 Troops`, `Guerrilla?`: a unit as a list item in a space.
pub(crate) fn spelled(u: &Unit) -> String {
    match u.count {
        1 => u.label(),
        n => format!("{n} {}", u.label()),
    }
}

/// The key items for the marks carried by `units`: `' reduced`.
pub(crate) fn mark_key<'a>(units: impl Iterator<Item = &'a Unit>) -> Vec<String> {
    let marks: BTreeSet<UnitMark> = units.flat_map(|u| u.marks.iter().copied()).collect();
    marks
        .into_iter()
        .filter_map(|m| {
            m.meaning()
                .map(|what| format!("{} {what}", text::glyph(m.glyph()) as char))
        })
        .collect()
}

/// `Tracks: Aid 15/75   Government resources 20`.
pub(crate) fn track_lines(tracks: &[Track], width: usize) -> Vec<String> {
    let items: Vec<String> = tracks
        .iter()
        .map(|t| {
            let name = text::ascii(&t.name);
            match t.max {
                Some(m) => format!("{} {}/{m}", name.trim(), t.value),
                None => format!("{} {}", name.trim(), t.value),
            }
        })
        .collect();
    text::wrap("Tracks: ", &items, "   ", width)
}

/// `Off map: ...`, one entry a line.
pub(crate) fn off_map_lines(off: &[String], width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for (i, l) in off.iter().enumerate() {
        let prefix = if i == 0 { "Off map: " } else { "         " };
        lines.extend(text::wrap(prefix, &[text::ascii(l)], "", width));
    }
    lines
}

/// The board's legend lines as key items: `R Russia`.
pub(crate) fn legend_items<'a>(legend: impl Iterator<Item = &'a Legend>) -> Vec<String> {
    legend
        .map(|l| {
            format!(
                "{} {}",
                text::ascii(&l.glyph).trim(),
                text::ascii(&l.meaning).trim()
            )
        })
        .collect()
}
