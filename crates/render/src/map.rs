//! The one entry point for drawing a map of any kind: `service` and `cli`
//! call [`snippet`] and [`full`], which pick the renderer for the board's kind.
//!
//! Focus places of another kind than the board (a hex named on a point map)
//! are ignored: they cannot be on it.

use umpire_core::board::{Board, Place};
use umpire_core::hex::Hex;
use umpire_core::square::Square;

pub use super::hexmap::{FullStyle, Options};

/// A drawing of the part of `board` around `focus` (the last action's places),
/// for a result mail.
pub fn snippet(board: &Board, focus: &[Place], opts: &Options) -> String {
    match board {
        Board::Hex(b) => {
            let hexes: Vec<Hex> = focus
                .iter()
                .filter_map(|p| match p {
                    Place::Hex(h) => Some(*h),
                    _ => None,
                })
                .collect();
            super::hexmap::snippet(b, &hexes, opts)
        }
        Board::Square(b) => {
            let squares: Vec<Square> = focus
                .iter()
                .filter_map(|p| match p {
                    Place::Square(s) => Some(*s),
                    _ => None,
                })
                .collect();
            super::squaremap::snippet(b, &squares, opts)
        }
        Board::Points(b) => {
            let spaces: Vec<_> = focus
                .iter()
                .filter_map(|p| match p {
                    Place::Space(s) => Some(*s),
                    _ => None,
                })
                .collect();
            super::pointmap::snippet(b, &spaces, opts)
        }
    }
}

/// The whole of `board`, for `umpire show` and the full-map mail.
pub fn full(board: &Board, opts: &Options) -> String {
    match board {
        Board::Hex(b) => super::hexmap::full(b, opts),
        Board::Square(b) => super::squaremap::full(b, opts),
        Board::Points(b) => super::pointmap::full(b, opts),
    }
}

/// The places of the viewer's own units (marked with one of `marks`), the
/// largest stack first: the focus of a snippet when the last action has no
/// place (a game's opening, a set-up), so a side sees its own forces rather
/// than the middle of the map.
pub fn own_places(board: &Board, marks: &[char]) -> Vec<Place> {
    let count = |units: &[umpire_core::board::Unit]| {
        units
            .iter()
            .filter(|u| u.side.is_some_and(|c| marks.contains(&c)))
            .count()
    };
    let mut places: Vec<(usize, Place)> = match board {
        Board::Hex(b) => b
            .cells
            .iter()
            .map(|(h, c)| (count(&c.units), Place::Hex(*h)))
            .collect(),
        Board::Square(b) => b
            .cells
            .iter()
            .map(|(q, c)| (count(&c.units), Place::Square(*q)))
            .collect(),
        Board::Points(b) => b
            .spaces
            .iter()
            .map(|(id, sp)| (count(&sp.units), Place::Space(*id)))
            .collect(),
    };
    places.retain(|(n, _)| *n > 0);
    // Stable: equal stacks keep the board's order.
    places.sort_by_key(|(n, _)| std::cmp::Reverse(*n));
    places.into_iter().map(|(_, p)| p).collect()
}

/// Where the viewer's own units are, for a result mail: one entry per place
/// holding a unit marked with one of `marks` (the viewer's side marks),
/// `PLACE id id …`, wrapped within `width`. The snippet shows the action;
/// this makes sure the player also sees every force of its own, wherever it
/// is. Empty when no place holds one.
pub fn own_forces(board: &Board, marks: &[char], width: usize) -> String {
    let mine = |units: &[umpire_core::board::Unit]| -> Vec<String> {
        units
            .iter()
            .filter(|u| u.side.is_some_and(|c| marks.contains(&c)))
            .map(|u| u.short())
            .collect()
    };
    let places: Vec<(String, Vec<String>)> = match board {
        Board::Hex(b) => b
            .cells
            .iter()
            .map(|(h, c)| (h.to_string(), mine(&c.units)))
            .collect(),
        Board::Square(b) => b
            .cells
            .iter()
            .map(|(q, c)| (q.to_string(), mine(&c.units)))
            .collect(),
        Board::Points(b) => b
            .spaces
            .values()
            .map(|sp| {
                let name = sp.key.clone().unwrap_or_else(|| sp.name.replace(' ', "_"));
                (name, mine(&sp.units))
            })
            .collect(),
    };
    let entries: Vec<String> = places
        .into_iter()
        .filter(|(_, units)| !units.is_empty())
        .map(|(place, units)| format!("{place} {}", units.join(" ")))
        .collect();
    pack(&entries, " · ", width)
}

/// Entries joined by `sep` into lines within `width`, breaking between
/// entries; an entry wider than a line is word-wrapped on its own lines.
fn pack(entries: &[String], sep: &str, width: usize) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for e in entries {
        let wide = e.chars().count() > width;
        if !line.is_empty()
            && (wide || line.chars().count() + sep.chars().count() + e.chars().count() > width)
        {
            lines.push(std::mem::take(&mut line));
        }
        if wide {
            lines.extend(
                super::templates::wrap(e.clone(), Some(width), Some(2))
                    .lines()
                    .map(str::to_string),
            );
            continue;
        }
        if !line.is_empty() {
            line.push_str(sep);
        }
        line.push_str(e);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_core::board::{Cell, HexBoard, PointBoard, Space, SpaceId, SquareBoard};

    #[test]
    fn own_forces_lists_every_place_with_a_unit_of_the_viewer() {
        use umpire_core::board::Unit;
        let cell = |units| Cell {
            units,
            ..Cell::default()
        };
        let mut h = HexBoard::default();
        let both = vec![Unit::new("m3").side('M'), Unit::new("j1").side('J')];
        h.cells.insert(Hex::new(11, 13), cell(both));
        h.cells.insert(
            Hex::new(2, 7),
            cell(vec![Unit::new("m4").side('M').strength(2)]),
        );
        h.cells
            .insert(Hex::new(5, 5), cell(vec![Unit::new("j2").side('J')]));
        let out = own_forces(&Board::Hex(h.clone()), &['M'], 72);
        assert_eq!(
            out,
            format!("{} m4(2) · {} m3", Hex::new(2, 7), Hex::new(11, 13))
        );
        assert_eq!(own_forces(&Board::Hex(h), &['X'], 72), "");
        let mut p = PointBoard::default();
        p.spaces.insert(
            SpaceId(1),
            Space {
                name: "Kabul City".into(),
                units: vec![Unit::pieces('G', "Troops", 3)],
                ..Space::default()
            },
        );
        assert_eq!(
            own_forces(&Board::Points(p.clone()), &['G'], 72),
            "Kabul_City 3xTroops"
        );
        // A space orders name by a key of their own is listed by it.
        p.spaces.get_mut(&SpaceId(1)).unwrap().key = Some("kabul-city".into());
        assert_eq!(
            own_forces(&Board::Points(p), &['G'], 72),
            "kabul-city 3xTroops"
        );
        let many: Vec<String> = (0..12).map(|i| format!("{i:04} a{i} b{i}")).collect();
        let packed = pack(&many, " · ", 40);
        assert!(packed.lines().all(|l| l.chars().count() <= 40), "{packed}");
        assert!(packed.lines().all(|l| !l.starts_with(" ·")), "{packed}");
        assert_eq!(packed.matches('a').count(), 12);
    }

    #[test]
    fn dispatches_on_the_kind_and_drops_foreign_places() {
        let mut h = HexBoard::default();
        h.cells.insert(Hex::new(1, 1), Cell::default());
        let focus = [Place::Space(SpaceId(1)), Place::Hex(Hex::new(1, 1))];
        let out = snippet(&Board::Hex(h.clone()), &focus, &Options::default());
        assert_eq!(
            out,
            super::super::hexmap::snippet(&h, &[Hex::new(1, 1)], &Options::default())
        );

        let mut s = SquareBoard::default();
        s.cells.insert(Square::new(2, 3), Cell::default());
        let out = full(&Board::Square(s), &Options::default());
        assert!(out.starts_with("      02\n   +------+\n03 |"), "{out}");

        let mut p = PointBoard::default();
        p.spaces.insert(
            SpaceId(1),
            Space {
                name: "Kabul".into(),
                ..Space::default()
            },
        );
        assert!(snippet(&Board::Points(p), &focus, &Options::default()).contains("Kabul"));
    }
}
