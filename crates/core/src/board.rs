//! What a map shows to one side: plain data a ruleset fills in and the ASCII
//! renderers (`render::map`) draw. Rulesets never draw; they describe.
//!
//! One type per map kind: [`HexBoard`] (hex-and-counter maps, `core::hex`),
//! [`SquareBoard`] (square grids with diagonals, `core::square`) and
//! [`PointBoard`] (named spaces joined by links, as in the COIN games).
//! [`Board`] is whichever of them a game has; [`Place`] names a place on any
//! of them, for `Event::focus`. Units are structured ([`Unit`]): the renderer
//! prints their marks, nothing is encoded in the id.

use super::hex::{Dir, Hex, Offset};
use super::square::{Dir8, Square};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// A map of one kind, as one side sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Board {
    /// Hexes (`core::hex`).
    Hex(HexBoard),
    /// A square grid (`core::square`).
    Square(SquareBoard),
    /// Named spaces and the links between them.
    Points(PointBoard),
}

impl Board {
    /// The hex map, if this is one.
    pub fn as_hex(&self) -> Option<&HexBoard> {
        match self {
            Board::Hex(b) => Some(b),
            _ => None,
        }
    }

    /// The square grid, if this is one.
    pub fn as_square(&self) -> Option<&SquareBoard> {
        match self {
            Board::Square(b) => Some(b),
            _ => None,
        }
    }

    /// The point-to-point map, if this is one.
    pub fn as_points(&self) -> Option<&PointBoard> {
        match self {
            Board::Points(b) => Some(b),
            _ => None,
        }
    }

    /// The board's own legend lines.
    pub fn legend(&self) -> &[Legend] {
        match self {
            Board::Hex(b) => &b.legend,
            Board::Square(b) => &b.legend,
            Board::Points(b) => &b.legend,
        }
    }
}

impl From<HexBoard> for Board {
    fn from(b: HexBoard) -> Board {
        Board::Hex(b)
    }
}

impl From<SquareBoard> for Board {
    fn from(b: SquareBoard) -> Board {
        Board::Square(b)
    }
}

impl From<PointBoard> for Board {
    fn from(b: PointBoard) -> Board {
        Board::Points(b)
    }
}

/// A space on a point-to-point map, by the ruleset's own numbering.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
pub struct SpaceId(pub u16);

impl fmt::Display for SpaceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A place on a map of any kind: what an event concerns, what a snippet
/// centres on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Place {
    Hex(Hex),
    Square(Square),
    Space(SpaceId),
}

impl From<Hex> for Place {
    fn from(h: Hex) -> Place {
        Place::Hex(h)
    }
}

impl From<Square> for Place {
    fn from(s: Square) -> Place {
        Place::Square(s)
    }
}

impl From<SpaceId> for Place {
    fn from(s: SpaceId) -> Place {
        Place::Space(s)
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Hex(h) => write!(f, "{h}"),
            Place::Square(s) => write!(f, "{s}"),
            Place::Space(s) => write!(f, "{s}"),
        }
    }
}

/// A state mark on a unit or piece, printed after its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum UnitMark {
    /// Flipped to its reduced side: `'`.
    Reduced,
    /// Disorganized, disrupted, shaken: `*`.
    Disorganized,
    /// Face-down, hidden, underground: `?`.
    Hidden,
    /// Active, revealed (a COIN guerrilla flipped up): `!`.
    Active,
    /// Any other state, with the glyph the board's legend explains.
    Other(char),
}

impl UnitMark {
    /// The character printed after the id.
    pub fn glyph(self) -> char {
        match self {
            UnitMark::Reduced => '\'',
            UnitMark::Disorganized => '*',
            UnitMark::Hidden => '?',
            UnitMark::Active => '!',
            UnitMark::Other(c) => c,
        }
    }

    /// What the glyph means, for the key (`None` for [`UnitMark::Other`],
    /// which the board's legend explains).
    pub fn meaning(self) -> Option<&'static str> {
        match self {
            UnitMark::Reduced => Some("reduced"),
            UnitMark::Disorganized => Some("disorganized"),
            UnitMark::Hidden => Some("hidden (face-down, underground)"),
            UnitMark::Active => Some("active (revealed)"),
            UnitMark::Other(_) => None,
        }
    }
}

/// A unit, counter or piece as one side sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unit {
    /// The id or kind printed, e.g. `ds.i1`, `DS`, `Troops` (a face-down
    /// counter shows what the viewer may know, e.g. `block`).
    pub id: String,
    /// The side or faction it belongs to, as the one character the legend
    /// explains (e.g. `M`, `T`), if the board marks sides.
    pub side: Option<char>,
    /// Its current strength, printed `id(5)`, where the board shows it.
    pub strength: Option<u32>,
    /// How many identical pieces this stands for (1 for a counter; `3` reads
    /// `3xTroops` on a grid, `3 Troops` in a space).
    pub count: u32,
    /// State marks, printed after the id in this order.
    pub marks: Vec<UnitMark>,
    /// The colour its counter is printed in, by name (`orange`, `light blue`),
    /// where a game colours counters by more than their side (Sarhu's commands).
    /// Pictures draw it; the text map leaves it to the legend.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
}

impl Unit {
    /// One unit with this id, no side, no marks.
    pub fn new(id: impl Into<String>) -> Unit {
        Unit {
            id: id.into(),
            side: None,
            strength: None,
            count: 1,
            marks: Vec::new(),
            colour: None,
        }
    }

    /// `count` pieces of kind `id` belonging to `side`.
    pub fn pieces(side: char, id: impl Into<String>, count: u32) -> Unit {
        Unit::new(id).side(side).count(count)
    }

    /// The same, its counter printed in `colour` (a name, e.g. `light blue`).
    pub fn colour(mut self, colour: impl Into<String>) -> Unit {
        self.colour = Some(colour.into());
        self
    }

    /// The same, belonging to `side`.
    pub fn side(mut self, side: char) -> Unit {
        self.side = Some(side);
        self
    }

    /// The same, with a state mark.
    pub fn mark(mut self, m: UnitMark) -> Unit {
        self.marks.push(m);
        self
    }

    /// The same, with a state mark if `on`.
    pub fn mark_if(self, on: bool, m: UnitMark) -> Unit {
        if on { self.mark(m) } else { self }
    }

    /// The same, standing for `n` pieces.
    pub fn count(mut self, n: u32) -> Unit {
        self.count = n;
        self
    }

    /// The same, with a strength shown.
    pub fn strength(mut self, s: u32) -> Unit {
        self.strength = Some(s);
        self
    }

    /// The id with strength and marks, e.g. `m3'`, `lg.2(4)*`: one word.
    pub fn label(&self) -> String {
        let mut s = self.id.trim().replace(' ', "_");
        if let Some(n) = self.strength {
            s.push_str(&format!("({n})"));
        }
        s.extend(self.marks.iter().map(|m| m.glyph()));
        s
    }

    /// [`Unit::label`] with the count in front, `3xTroops`, for grids.
    pub fn short(&self) -> String {
        match self.count {
            1 => self.label(),
            n => format!("{n}x{}", self.label()),
        }
    }
}

impl PartialEq<str> for Unit {
    /// A unit equals its label (`m3'` is unit `m3`, reduced).
    fn eq(&self, other: &str) -> bool {
        self.label() == other
    }
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

/// A marker in a space or on a link: `Support: active`, `Sabotage`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Marker {
    pub name: String,
    /// Its level or value, if it has one.
    pub value: Option<String>,
}

impl Marker {
    /// A marker with a value, e.g. `Marker::new("Support", "active")`.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Marker {
        Marker {
            name: name.into(),
            value: Some(value.into()),
        }
    }

    /// A marker that is simply present, e.g. `Marker::flag("Sabotage")`.
    pub fn flag(name: impl Into<String>) -> Marker {
        Marker {
            name: name.into(),
            value: None,
        }
    }
}

impl fmt::Display for Marker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.value {
            Some(v) => write!(f, "{}: {v}", self.name),
            None => write!(f, "{}", self.name),
        }
    }
}

/// A track printed beside the map: resources, aid, victory points, the turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Track {
    pub name: String,
    pub value: i64,
    /// The track's top, printed `15/75`, if it has one.
    pub max: Option<i64>,
}

impl Track {
    /// A track at `value`.
    pub fn new(name: impl Into<String>, value: i64) -> Track {
        Track {
            name: name.into(),
            value,
            max: None,
        }
    }

    /// The same, with a top.
    pub fn max(mut self, max: i64) -> Track {
        self.max = Some(max);
        self
    }
}

// ---------------------------------------------------------------------------
// Hex maps

/// A hex map as one side sees it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct HexBoard {
    /// Which columns sit half a hex lower (most maps: the even ones).
    pub offset: Offset,
    /// Every on-map hex. Hexes not listed are off the map.
    pub cells: BTreeMap<Hex, Cell>,
    /// Hexside features (rivers, walls, bridges).
    pub edges: Vec<Edge>,
    /// What each glyph means, in the order to print.
    pub legend: Vec<Legend>,
    /// Units not on the map (off-map, entering later, eliminated), one line each.
    pub off_map: Vec<String>,
}

/// One hex's or square's contents.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Cell {
    /// One character for the terrain, e.g. `.` plain, `^` hill, `M` mountain.
    pub terrain: char,
    /// A short place name or tag (shown if room), e.g. `Hetuala`.
    pub name: Option<String>,
    /// Who controls it, as one character (e.g. `M`, `J`), if anyone.
    pub control: Option<char>,
    /// The units in it, top of the stack first.
    pub units: Vec<Unit>,
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

/// Kinds of hexside or square side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum EdgeKind {
    /// Impassable water unless bridged.
    River,
    /// A wall or palisade.
    Wall,
    /// A bridge across a river or wall.
    Bridge,
    /// A political or regional border.
    Border,
}

impl EdgeKind {
    /// The word for it in a key.
    pub fn name(self) -> &'static str {
        match self {
            EdgeKind::River => "river",
            EdgeKind::Wall => "wall",
            EdgeKind::Bridge => "bridge",
            EdgeKind::Border => "border",
        }
    }
}

// ---------------------------------------------------------------------------
// Square grids

/// A square grid as one side sees it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SquareBoard {
    /// Every on-map square. Squares not listed are off the map.
    pub cells: BTreeMap<Square, Cell>,
    /// Features on square sides (rivers, borders); only the four orthogonal
    /// directions are sides.
    pub edges: Vec<SquareEdge>,
    /// What each glyph means, in the order to print.
    pub legend: Vec<Legend>,
    /// Units not on the map (home boxes, reinforcements, eliminated), one line each.
    pub off_map: Vec<String>,
    /// Tracks printed under the map.
    pub tracks: Vec<Track>,
}

/// A feature on one side of a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SquareEdge {
    pub square: Square,
    /// N, E, S or W (a diagonal is not a side and is not drawn).
    pub dir: Dir8,
    pub kind: EdgeKind,
}

// ---------------------------------------------------------------------------
// Point-to-point maps

/// A map of named spaces joined by links, as one side sees it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PointBoard {
    /// Every space, by id.
    pub spaces: BTreeMap<SpaceId, Space>,
    /// Where spaces lie on the real map, for a picture laid out as the world
    /// is: east and north, in one unit on both axes. A space without one (a
    /// road between two places) is drawn between its neighbours. Empty: the
    /// picture lays the spaces out by their links.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub positions: BTreeMap<SpaceId, MapPoint>,
    /// Which spaces touch, each link once.
    pub links: Vec<Link>,
    /// Tracks printed with the map: resources, aid, victory margins.
    pub tracks: Vec<Track>,
    /// What each glyph (sides, marks) means, in the order to print.
    pub legend: Vec<Legend>,
    /// Pieces not on the map (available, casualties, out of play), one line each.
    pub off_map: Vec<String>,
}

/// A point on a map: east and north, in one unit on both axes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MapPoint {
    pub east: f64,
    pub north: f64,
}

/// One space and what is in it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Space {
    /// Its printed name, e.g. `Kabul`.
    pub name: String,
    /// How orders name it, e.g. `northwest-frontier`, where that is not the
    /// name itself: lists a player copies from use it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// What kind of space it is, e.g. `city`, `province`, `LoC`, `Pashtun`.
    pub kinds: Vec<String>,
    /// Who controls it, as one character the legend explains.
    pub control: Option<char>,
    /// Markers in it: support or opposition, sabotage, terror, population.
    pub markers: Vec<Marker>,
    /// The pieces in it; the renderer groups them by side.
    pub units: Vec<Unit>,
    /// Part of the last action.
    pub highlight: bool,
}

/// Two spaces that touch, and the link's own state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Link {
    pub a: SpaceId,
    pub b: SpaceId,
    /// Markers on the link itself (a sabotaged road, a blown bridge).
    pub markers: Vec<Marker>,
}

impl Link {
    /// A plain link between two spaces.
    pub fn new(a: SpaceId, b: SpaceId) -> Link {
        Link {
            a,
            b,
            markers: Vec::new(),
        }
    }

    /// The other end, if `s` is one end.
    pub fn other(&self, s: SpaceId) -> Option<SpaceId> {
        match s {
            _ if s == self.a => Some(self.b),
            _ if s == self.b => Some(self.a),
            _ => None,
        }
    }
}

impl PointBoard {
    /// The spaces linked to `s`, in id order.
    pub fn neighbours(&self, s: SpaceId) -> Vec<SpaceId> {
        let mut v: Vec<SpaceId> = self.links.iter().filter_map(|l| l.other(s)).collect();
        v.sort();
        v.dedup();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_labels_carry_marks_and_counts() {
        let u = Unit::new("m3").mark(UnitMark::Reduced);
        assert_eq!(u.label(), "m3'");
        assert!(u == *"m3'");
        let g = Unit::pieces('T', "Guerrilla", 3).mark(UnitMark::Hidden);
        assert_eq!(g.short(), "3xGuerrilla?");
        assert_eq!(Unit::new("lg 2").strength(4).label(), "lg_2(4)");
    }

    #[test]
    fn places_come_from_any_map_kind() {
        let p: Place = Hex::new(7, 12).into();
        assert_eq!(p.to_string(), "0712");
        let q: Place = SpaceId(3).into();
        assert_eq!(q, Place::Space(SpaceId(3)));
        assert_ne!(Place::from(Square::new(7, 12)), p);
    }

    #[test]
    fn links_know_their_ends() {
        let mut b = PointBoard::default();
        b.links.push(Link::new(SpaceId(1), SpaceId(2)));
        b.links.push(Link::new(SpaceId(3), SpaceId(1)));
        assert_eq!(b.neighbours(SpaceId(1)), [SpaceId(2), SpaceId(3)]);
        assert_eq!(b.neighbours(SpaceId(4)), []);
    }
}
