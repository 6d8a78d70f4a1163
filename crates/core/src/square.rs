//! Square grid geometry, with diagonal moves.
//!
//! Squares are numbered like hexes, `CCRR`: column then row, both from 01 at
//! the top left, so `0712` is the seventh column, twelfth row. Each square has
//! eight neighbours: four across its sides (N, E, S, W) and four across its
//! corners (NE, SE, SW, NW). Distance counts a diagonal step as one (a king's
//! move); games that price diagonals differently say so in the step cost they
//! pass to [`reachable`].

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// One square, by its printed column and row.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square {
    pub col: i32,
    pub row: i32,
}

/// The eight directions out of a square, clockwise from north.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Dir8 {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir8 {
    /// All eight, clockwise from north.
    pub const ALL: [Dir8; 8] = [
        Dir8::N,
        Dir8::NE,
        Dir8::E,
        Dir8::SE,
        Dir8::S,
        Dir8::SW,
        Dir8::W,
        Dir8::NW,
    ];

    /// The four across a side, clockwise from north.
    pub const ORTHOGONAL: [Dir8; 4] = [Dir8::N, Dir8::E, Dir8::S, Dir8::W];

    /// The opposite direction.
    pub fn opposite(self) -> Dir8 {
        Dir8::ALL[(self as usize + 4) % 8]
    }

    /// True for the four corner directions.
    pub fn is_diagonal(self) -> bool {
        (self as usize) % 2 == 1
    }

    /// The short name, e.g. `"NE"`.
    pub fn name(self) -> &'static str {
        ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][self as usize]
    }

    /// Column and row change of one step.
    pub fn delta(self) -> (i32, i32) {
        [
            (0, -1),
            (1, -1),
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
        ][self as usize]
    }
}

impl FromStr for Dir8 {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dir8::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("not a direction: {s:?} (N, NE, E, SE, S, SW, W, NW)"))
    }
}

impl Square {
    /// The square at printed column `col`, row `row`.
    pub const fn new(col: i32, row: i32) -> Square {
        Square { col, row }
    }

    /// The neighbour in direction `d` (it may be off the map).
    pub fn step(self, d: Dir8) -> Square {
        let (dc, dr) = d.delta();
        Square::new(self.col + dc, self.row + dr)
    }

    /// The eight neighbours, clockwise from north.
    pub fn neighbours(self) -> [Square; 8] {
        Dir8::ALL.map(|d| self.step(d))
    }

    /// The four neighbours across a side, clockwise from north.
    pub fn orthogonal(self) -> [Square; 4] {
        Dir8::ORTHOGONAL.map(|d| self.step(d))
    }

    /// The direction from this square to an adjacent one (diagonals included).
    pub fn dir_to(self, other: Square) -> Option<Dir8> {
        Dir8::ALL.into_iter().find(|d| self.step(*d) == other)
    }

    /// Do the two squares touch, by a side or a corner?
    pub fn adjacent(self, other: Square) -> bool {
        self.dir_to(other).is_some()
    }

    /// Steps between the two when a diagonal step counts one (Chebyshev).
    pub fn distance(self, other: Square) -> u32 {
        let dc = (i64::from(self.col) - i64::from(other.col)).unsigned_abs();
        let dr = (i64::from(self.row) - i64::from(other.row)).unsigned_abs();
        dc.max(dr) as u32
    }

    /// Steps between the two moving across sides only (Manhattan).
    pub fn orthogonal_distance(self, other: Square) -> u32 {
        let dc = (i64::from(self.col) - i64::from(other.col)).unsigned_abs();
        let dr = (i64::from(self.row) - i64::from(other.row)).unsigned_abs();
        (dc + dr) as u32
    }

    /// Every square within `radius` king's moves (itself included), in column-row order.
    pub fn within(self, radius: u32) -> Vec<Square> {
        let r = radius as i32;
        let mut v = Vec::new();
        for col in self.col - r..=self.col + r {
            for row in self.row - r..=self.row + r {
                v.push(Square::new(col, row));
            }
        }
        v
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match Label::of(self.col, self.row) {
            Some(l) => f.write_str(l.as_str()),
            None => write!(f, "{:02}{:02}", self.col, self.row),
        }
    }
}

/// A square's or hex's label, `{col:02}{row:02}`, written without the
/// formatting machinery when both numbers are in 0..=99 (every map's): the
/// state's JSON holds one for every piece on the map and is written after
/// every action of a replay to be hashed. The same bytes as
/// `format!("{:02}{:02}", col, row)` (a test compares them).
pub(crate) struct Label([u8; 4]);

impl Label {
    /// The label, when both numbers are in 0..=99.
    pub(crate) fn of(col: i32, row: i32) -> Option<Label> {
        let two = |n: i32| u8::try_from(n).ok().filter(|n| *n < 100);
        let (c, r) = (two(col)?, two(row)?);
        Some(Label([
            b'0' + c / 10,
            b'0' + c % 10,
            b'0' + r / 10,
            b'0' + r % 10,
        ]))
    }

    /// The four digits.
    pub(crate) fn as_str(&self) -> &str {
        // Four ASCII digits are always UTF-8.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({self})")
    }
}

/// A square label could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a square number: {0:?} (want four digits, column then row, e.g. 0712)")]
pub struct BadSquare(pub String);

impl FromStr for Square {
    type Err = BadSquare;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.len() != 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(BadSquare(s.to_string()));
        }
        let col = t[..2].parse().map_err(|_| BadSquare(s.to_string()))?;
        let row = t[2..].parse().map_err(|_| BadSquare(s.to_string()))?;
        Ok(Square::new(col, row))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match Label::of(self.col, self.row) {
            Some(l) => s.serialize_str(l.as_str()),
            None => s.serialize_str(&self.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The cheapest cost from `start` to every square reachable within `budget`,
/// over all eight directions.
///
/// `cost(from, to, dir)` is the price of one step, or `None` where the step is
/// forbidden: a game whose ordinary units move only across sides returns
/// `None` for `dir.is_diagonal()`. Order is deterministic (no hash maps).
pub fn reachable(
    start: Square,
    budget: u32,
    mut cost: impl FnMut(Square, Square, Dir8) -> Option<u32>,
) -> BTreeMap<Square, u32> {
    super::path::cheapest(start, budget, |at| {
        Dir8::ALL
            .into_iter()
            .map(|d| (at.step(d), cost(at, at.step(d), d)))
            .collect::<Vec<_>>()
    })
}

#[cfg(test)]
mod tests {

    /// The label written without `format!` is `format!`'s, in and out of
    /// 0..=99 (negative and three-digit numbers take the slow path).
    #[test]
    fn labels_are_formats_bytes() {
        for col in -120..=120 {
            for row in [-101, -10, -1, 0, 1, 9, 10, 42, 99, 100, 101, 999] {
                let want = format!("{col:02}{row:02}");
                assert_eq!(Square::new(col, row).to_string(), want);
                assert_eq!(
                    serde_json::to_string(&Square::new(col, row)).unwrap(),
                    format!("\"{want}\"")
                );
                let h = crate::hex::Hex::new(col, row);
                assert_eq!(h.to_string(), want);
                assert_eq!(serde_json::to_string(&h).unwrap(), format!("\"{want}\""));
            }
        }
    }
    use super::*;

    fn s(x: &str) -> Square {
        x.parse().unwrap()
    }

    #[test]
    fn eight_neighbours_clockwise() {
        let n: Vec<String> = s("0305")
            .neighbours()
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(
            n,
            [
                "0304", "0404", "0405", "0406", "0306", "0206", "0205", "0204"
            ]
        );
        assert_eq!(s("0305").orthogonal().len(), 4);
    }

    #[test]
    fn directions_oppose_and_diagonals_are_marked() {
        for d in Dir8::ALL {
            let a = s("0505");
            assert_eq!(a.step(d).dir_to(a), Some(d.opposite()));
            assert_eq!(a.distance(a.step(d)), 1);
            assert_eq!(
                a.orthogonal_distance(a.step(d)),
                if d.is_diagonal() { 2 } else { 1 }
            );
        }
        assert_eq!("ne".parse::<Dir8>(), Ok(Dir8::NE));
    }

    #[test]
    fn distance_counts_a_diagonal_as_one() {
        assert_eq!(s("0101").distance(s("0404")), 3);
        assert_eq!(s("0101").distance(s("0403")), 3);
        assert_eq!(s("0101").orthogonal_distance(s("0403")), 5);
        assert_eq!(s("0505").within(1).len(), 9);
        assert_eq!(s("0505").within(2).len(), 25);
    }

    #[test]
    fn reachable_prices_each_step() {
        // Diagonals cost 2, straight steps 1; 0202 is forbidden.
        let r = reachable(s("0101"), 2, |_, to, d| {
            (to != s("0202")).then_some(if d.is_diagonal() { 2 } else { 1 })
        });
        assert_eq!(r[&s("0101")], 0);
        assert_eq!(r[&s("0201")], 1);
        assert_eq!(r[&s("0301")], 2);
        assert!(!r.contains_key(&s("0202")));
        assert!(!r.contains_key(&s("0302")));
        // Only orthogonal movers: a diagonal neighbour costs two side steps.
        let r = reachable(s("0505"), 2, |_, _, d| (!d.is_diagonal()).then_some(1));
        assert_eq!(r[&s("0606")], 2);
        assert_eq!(r.len(), 13);
    }

    #[test]
    fn labels_parse_and_print() {
        assert_eq!(s("0712"), Square::new(7, 12));
        assert_eq!(Square::new(7, 12).to_string(), "0712");
        assert!("712".parse::<Square>().is_err());
    }
}
