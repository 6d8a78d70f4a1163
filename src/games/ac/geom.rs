//! Square-grid geometry for the Asia Crossroads map (2.1): squares labelled
//! `CCRR` (column, row, from 01 at the top left), eight neighbours, four across
//! the sides and four across the vertices (13.2). Private to this ruleset until
//! `core::square` lands on `main`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// One square of the grid.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Sq {
    /// Column, from 1 at the west edge.
    pub col: i32,
    /// Row, from 1 at the north edge.
    pub row: i32,
}

impl Sq {
    /// The square at `col`, `row`.
    pub const fn new(col: i32, row: i32) -> Sq {
        Sq { col, row }
    }

    /// The eight neighbours with whether each is across a vertex (diagonal).
    pub fn neighbours(self) -> [(Sq, bool); 8] {
        let Sq { col: c, row: r } = self;
        [
            (Sq::new(c, r - 1), false),
            (Sq::new(c + 1, r), false),
            (Sq::new(c, r + 1), false),
            (Sq::new(c - 1, r), false),
            (Sq::new(c + 1, r - 1), true),
            (Sq::new(c + 1, r + 1), true),
            (Sq::new(c - 1, r + 1), true),
            (Sq::new(c - 1, r - 1), true),
        ]
    }

    /// Squares apart counting diagonal steps as one (king moves).
    pub fn distance(self, o: Sq) -> u32 {
        (self.col - o.col)
            .unsigned_abs()
            .max((self.row - o.row).unsigned_abs())
    }

    /// Whether `o` is one of the eight neighbours; `Some(true)` across a vertex.
    pub fn adjacency(self, o: Sq) -> Option<bool> {
        let (dc, dr) = ((self.col - o.col).abs(), (self.row - o.row).abs());
        match (dc, dr) {
            (0, 1) | (1, 0) => Some(false),
            (1, 1) => Some(true),
            _ => None,
        }
    }

    /// The two squares beside a diagonal step (13.22, ruling A22).
    pub fn corners(self, o: Sq) -> [Sq; 2] {
        [Sq::new(o.col, self.row), Sq::new(self.col, o.row)]
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}{:02}", self.col, self.row)
    }
}

impl FromStr for Sq {
    type Err = String;
    fn from_str(s: &str) -> Result<Sq, String> {
        let t = s.trim();
        if t.len() != 4 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{s:?} is not a square (four digits, CCRR)"));
        }
        let n = |a: &str| a.parse::<i32>().map_err(|e| e.to_string());
        Ok(Sq::new(n(&t[..2])?, n(&t[2..])?))
    }
}

impl Serialize for Sq {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Sq {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Sq, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_neighbours_and_distance() {
        let s: Sq = "0512".parse().unwrap();
        assert_eq!(s, Sq::new(5, 12));
        assert_eq!(s.to_string(), "0512");
        assert!("512".parse::<Sq>().is_err());
        assert_eq!(s.neighbours().iter().filter(|(_, d)| *d).count(), 4);
        assert_eq!(s.distance(Sq::new(7, 13)), 2);
        assert_eq!(s.adjacency(Sq::new(6, 13)), Some(true));
        assert_eq!(s.adjacency(Sq::new(5, 13)), Some(false));
        assert_eq!(s.adjacency(Sq::new(7, 13)), None);
    }
}
