//! Hex grid geometry for hex-and-counter wargames.
//!
//! Flat-topped hexes in vertical columns, numbered as printed on most maps:
//! `CCRR`, column then row, both from 01 at the top left. On most maps even
//! columns sit half a hex lower than odd ones, so 0201 is south-east of 0101
//! ([`Offset::EvenLow`], what the plain methods assume); some maps shift the odd
//! columns instead ([`Offset::OddLow`], the `..._on` methods). The six
//! directions are N, NE, SE, S, SW, NW.

use crate::square::Label;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// One hex, by its printed column and row.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex {
    pub col: i32,
    pub row: i32,
}

/// The six directions out of a flat-topped hex, clockwise from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Dir {
    N,
    NE,
    SE,
    S,
    SW,
    NW,
}

impl Dir {
    /// All six, clockwise from north.
    pub const ALL: [Dir; 6] = [Dir::N, Dir::NE, Dir::SE, Dir::S, Dir::SW, Dir::NW];

    /// The opposite direction.
    pub fn opposite(self) -> Dir {
        Dir::ALL[(self as usize + 3) % 6]
    }

    /// The short name, e.g. `"NE"`.
    pub fn name(self) -> &'static str {
        ["N", "NE", "SE", "S", "SW", "NW"][self as usize]
    }
}

impl FromStr for Dir {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dir::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("not a hex direction: {s:?} (N, NE, SE, S, SW, NW)"))
    }
}

/// Which columns of a map sit half a hex lower than their neighbours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Offset {
    /// Even columns are lower: 0201 is south-east of 0101 (most maps; Sarhu).
    #[default]
    EvenLow,
    /// Odd columns are lower: 0101 is south-west of 0201 (Lest Darkness Fall, rule 9.5).
    OddLow,
}

impl Offset {
    /// Is column `col` shifted half a hex down?
    pub fn low(self, col: i64) -> bool {
        let even = col.rem_euclid(2) == 0;
        match self {
            Offset::EvenLow => even,
            Offset::OddLow => !even,
        }
    }
}

impl Hex {
    /// The hex at printed column `col`, row `row`.
    pub const fn new(col: i32, row: i32) -> Hex {
        Hex { col, row }
    }

    /// The neighbour in direction `d` (it may be off the map), even columns low.
    pub fn step(self, d: Dir) -> Hex {
        self.step_on(Offset::EvenLow, d)
    }

    /// The neighbour in direction `d` on a map with the given column offset.
    pub fn step_on(self, offset: Offset, d: Dir) -> Hex {
        let (c, r) = (self.col, self.row);
        let low = offset.low(i64::from(c));
        match d {
            Dir::N => Hex::new(c, r - 1),
            Dir::S => Hex::new(c, r + 1),
            Dir::NE => Hex::new(c + 1, if low { r } else { r - 1 }),
            Dir::SE => Hex::new(c + 1, if low { r + 1 } else { r }),
            Dir::NW => Hex::new(c - 1, if low { r } else { r - 1 }),
            Dir::SW => Hex::new(c - 1, if low { r + 1 } else { r }),
        }
    }

    /// The six neighbours, clockwise from north.
    pub fn neighbours(self) -> [Hex; 6] {
        self.neighbours_on(Offset::EvenLow)
    }

    /// The six neighbours, clockwise from north, on a map with the given offset.
    pub fn neighbours_on(self, offset: Offset) -> [Hex; 6] {
        Dir::ALL.map(|d| self.step_on(offset, d))
    }

    /// The direction from this hex to an adjacent one.
    pub fn dir_to(self, other: Hex) -> Option<Dir> {
        self.dir_to_on(Offset::EvenLow, other)
    }

    /// The direction from this hex to an adjacent one, on a map with the given offset.
    pub fn dir_to_on(self, offset: Offset, other: Hex) -> Option<Dir> {
        Dir::ALL
            .into_iter()
            .find(|d| self.step_on(offset, *d) == other)
    }

    /// Are the two hexes adjacent?
    pub fn adjacent(self, other: Hex) -> bool {
        self.dir_to(other).is_some()
    }

    /// Are the two hexes adjacent on a map with the given offset?
    pub fn adjacent_on(self, offset: Offset, other: Hex) -> bool {
        self.dir_to_on(offset, other).is_some()
    }

    /// Cube coordinates (x, y, z) with x + y + z = 0, even columns low.
    pub fn cube(self) -> (i32, i32, i32) {
        self.cube_on(Offset::EvenLow)
    }

    /// Cube coordinates on a map with the given offset.
    pub fn cube_on(self, offset: Offset) -> (i32, i32, i32) {
        // Rebase the column so that column 0 of the rebased grid is a high one;
        // then both offsets are the same odd-q arithmetic.
        let q = match offset {
            Offset::EvenLow => self.col - 1,
            Offset::OddLow => self.col,
        };
        let r = self.row - 1;
        let x = q;
        let z = r - (q - (q & 1)) / 2;
        (x, -x - z, z)
    }

    /// Hexes between the two, counting one end: adjacent hexes are 1 apart.
    pub fn distance(self, other: Hex) -> u32 {
        self.distance_on(Offset::EvenLow, other)
    }

    /// Hexes between the two on a map with the given offset.
    pub fn distance_on(self, offset: Offset, other: Hex) -> u32 {
        let (a, b, c) = self.cube_on(offset);
        let (x, y, z) = other.cube_on(offset);
        ((a - x).abs().max((b - y).abs()).max((c - z).abs())) as u32
    }

    /// Every hex within `radius` of this one (including itself), in column-row order.
    pub fn within(self, radius: u32) -> Vec<Hex> {
        let r = radius as i32;
        let mut v = Vec::new();
        for col in self.col - r..=self.col + r {
            for row in self.row - r - 1..=self.row + r + 1 {
                let h = Hex::new(col, row);
                if self.distance(h) <= radius {
                    v.push(h);
                }
            }
        }
        v.sort();
        v
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Label::of(self.col, self.row) {
            Some(l) => f.write_str(l.as_str()),
            None => write!(f, "{:02}{:02}", self.col, self.row),
        }
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hex({self})")
    }
}

/// A hex label could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a hex number: {0:?} (want four digits, column then row, e.g. 0712)")]
pub struct BadHex(pub String);

impl FromStr for Hex {
    type Err = BadHex;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.len() != 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(BadHex(s.to_string()));
        }
        let col = t[..2].parse().map_err(|_| BadHex(s.to_string()))?;
        let row = t[2..].parse().map_err(|_| BadHex(s.to_string()))?;
        Ok(Hex::new(col, row))
    }
}

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match Label::of(self.col, self.row) {
            Some(l) => s.serialize_str(l.as_str()),
            None => s.serialize_str(&self.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for Hex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The cheapest cost from `start` to every hex reachable within `budget`.
///
/// `cost(from, to)` is the price of one step, or `None` where the step is
/// forbidden. Ties and order are deterministic (no hash maps).
pub fn reachable(
    start: Hex,
    budget: u32,
    cost: impl FnMut(Hex, Hex) -> Option<u32>,
) -> BTreeMap<Hex, u32> {
    reachable_on(Offset::EvenLow, start, budget, cost)
}

/// [`reachable`] on a map with the given column offset.
pub fn reachable_on(
    offset: Offset,
    start: Hex,
    budget: u32,
    mut cost: impl FnMut(Hex, Hex) -> Option<u32>,
) -> BTreeMap<Hex, u32> {
    super::path::cheapest(start, budget, |at| {
        at.neighbours_on(offset)
            .into_iter()
            .map(|next| (next, cost(at, next)))
            .collect::<Vec<_>>()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hex {
        s.parse().unwrap()
    }

    #[test]
    fn odd_low_maps_mirror_the_shift() {
        // LDF 9.5: on its odd-low map 3315, 3415 and 3416 meet at one point.
        let o = Offset::OddLow;
        assert!(h("3315").adjacent_on(o, h("3415")));
        assert!(h("3315").adjacent_on(o, h("3416")));
        assert!(h("3415").adjacent_on(o, h("3416")));
        // On an even-low map 3415 and 3416 are still neighbours, 3315 and 3416 not.
        assert!(!h("3315").adjacent(h("3416")));
        assert_eq!(h("0101").step_on(o, Dir::NE), h("0201"));
        assert_eq!(h("0201").step_on(o, Dir::SE), h("0301"));
        for a in ["0101", "0202", "0505", "3315"] {
            for b in h(a).neighbours_on(o) {
                assert_eq!(h(a).distance_on(o, b), 1, "{a} to {b}");
                assert_eq!(
                    b.dir_to_on(o, h(a)).map(Dir::opposite),
                    h(a).dir_to_on(o, b)
                );
            }
            assert_eq!(
                h(a).distance_on(o, h(a).step_on(o, Dir::N).step_on(o, Dir::NE)),
                2
            );
        }
    }

    #[test]
    fn odd_column_neighbours() {
        let n: Vec<String> = h("0305")
            .neighbours()
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(n, ["0304", "0404", "0405", "0306", "0205", "0204"]);
    }

    #[test]
    fn even_column_neighbours_sit_lower() {
        let n: Vec<String> = h("0405")
            .neighbours()
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(n, ["0404", "0505", "0506", "0406", "0306", "0305"]);
        assert_eq!(h("0101").step(Dir::SE), h("0201"));
    }

    #[test]
    fn adjacency_is_symmetric_and_directions_oppose() {
        for c in 1..8 {
            for r in 1..8 {
                let a = Hex::new(c, r);
                for d in Dir::ALL {
                    let b = a.step(d);
                    assert_eq!(b.dir_to(a), Some(d.opposite()), "{a} {d:?}");
                    assert_eq!(a.distance(b), 1);
                }
            }
        }
    }

    #[test]
    fn distance_counts_steps() {
        assert_eq!(h("0101").distance(h("0101")), 0);
        assert_eq!(h("0101").distance(h("0103")), 2);
        assert_eq!(h("0101").distance(h("0501")), 4);
        // 0305 →SE 0405 →SE 0506 →SE 0606 →SE 0707 →S 0708
        assert_eq!(h("0305").distance(h("0708")), 5);
        assert_eq!(h("0305").within(1).len(), 7);
        assert_eq!(h("0305").within(2).len(), 19);
    }

    #[test]
    fn reachable_respects_costs_and_walls() {
        // Every step costs 1, except that 0202 is forbidden.
        let r = reachable(h("0101"), 2, |_, to| (to != h("0202")).then_some(1));
        assert_eq!(r[&h("0101")], 0);
        assert_eq!(r[&h("0201")], 1);
        assert!(!r.contains_key(&h("0202")));
        assert_eq!(r[&h("0103")], 2);
        assert!(!r.contains_key(&h("0104")));
    }

    #[test]
    fn labels_parse_and_print() {
        assert_eq!(h("0712"), Hex::new(7, 12));
        assert_eq!(Hex::new(7, 12).to_string(), "0712");
        assert!("712".parse::<Hex>().is_err());
        assert!("07a2".parse::<Hex>().is_err());
    }
}
