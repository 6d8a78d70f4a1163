//! What a map shows to one side: plain data a ruleset fills in and the ASCII
//! renderer (`render::hexmap`) draws. Rulesets never draw; they describe.

use super::hex::{Dir, Hex};
use serde::Serialize;
use std::collections::BTreeMap;

/// A hex map as one side sees it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Board {
    /// Every on-map hex. Hexes not listed are off the map.
    pub cells: BTreeMap<Hex, Cell>,
    /// Hexside features (rivers, walls, bridges).
    pub edges: Vec<Edge>,
    /// What each glyph means, in the order to print.
    pub legend: Vec<Legend>,
    /// Units not on the map (off-map, entering later, eliminated), one line each.
    pub off_map: Vec<String>,
}

/// One hex's contents.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Cell {
    /// One character for the terrain, e.g. `.` plain, `^` hill, `M` mountain.
    pub terrain: char,
    /// A short place name or tag (shown if room), e.g. `Hetuala`.
    pub name: Option<String>,
    /// Who controls it, as one character (e.g. `M`, `J`), if anyone.
    pub control: Option<char>,
    /// Unit ids in the hex, with state marks (e.g. `DS`, `m3'` reduced, `m4*` disorganized).
    pub units: Vec<String>,
    /// Part of the last action (drawn marked).
    pub highlight: bool,
}

/// A feature on one side of a hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Edge {
    pub hex: Hex,
    pub dir: Dir,
    pub kind: EdgeKind,
}

/// Kinds of hexside.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum EdgeKind {
    /// Impassable water unless bridged.
    River,
    /// A wall or palisade.
    Wall,
    /// A bridge across a river or wall.
    Bridge,
}

/// A legend line: a glyph and its meaning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Legend {
    pub glyph: String,
    pub meaning: String,
}

impl Legend {
    /// A legend line.
    pub fn new(glyph: impl Into<String>, meaning: impl Into<String>) -> Legend {
        Legend {
            glyph: glyph.into(),
            meaning: meaning.into(),
        }
    }
}
