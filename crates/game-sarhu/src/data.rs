//! The game data: map, order of battle and rule tables, read from TOML and
//! checked. Every value must carry a provenance tag (`rulebook`, `public`,
//! `reconstructed` or `stand-in`); the loader refuses untagged values, so a
//! club replacing stand-ins with the printed game's values sees what is what.
//!
//! The embedded files live in `games/sarhu/` and are compiled in with
//! `include_str!`: the binary needs nothing at run time.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use toml::{Table, Value};
use umpire_core::data::DataErrors;
use umpire_core::data::{
    DataCheck, DataFile, Files, Reader, array_of_tables, count_by_provenance, data_hash,
    parse_toml, table,
};
pub use umpire_core::data::{ProvKind, Tag, parse_provenance};
use umpire_core::hash::Digest;
use umpire_core::hex::{Dir, Hex};

/// The embedded map.
pub const MAP_TOML: &str = include_str!("../../../games/sarhu/map.toml");
/// The embedded order of battle.
pub const OOB_TOML: &str = include_str!("../../../games/sarhu/oob.toml");
/// The embedded rule tables.
pub const TABLES_TOML: &str = include_str!("../../../games/sarhu/tables.toml");

/// The data files a club may replace, with their embedded text.
pub static FILES: &[DataFile] = &[
    DataFile {
        name: "map.toml",
        embedded: MAP_TOML,
    },
    DataFile {
        name: "oob.toml",
        embedded: OOB_TOML,
    },
    DataFile {
        name: "tables.toml",
        embedded: TABLES_TOML,
    },
];

/// Domain of the data hash: pinned in every record's opening, so never changed.
const HASH_DOMAIN: &str = "umpire-sarhu-data-v1";

/// A combat unit: its place in the order of battle (`Data::units`) and in
/// `State::units`. Serialised as the bare number, so states hash as before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitId(pub u16);

/// A command: its place in `Data::commands` and in `State::commands`.
/// Serialised as the bare number, so states hash as before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CmdId(pub u8);

impl UnitId {
    /// The id of the `i`th unit of the order of battle (an order of battle holds a few dozen).
    pub fn at(i: usize) -> UnitId {
        UnitId(i as u16)
    }

    /// Its place in the tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl CmdId {
    /// The id of the `i`th command (a game has a handful).
    pub fn at(i: usize) -> CmdId {
        CmdId(i as u8)
    }

    /// Its place in the tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A named place (town, fort, pass): its place in `Data::places` and in `State::control`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlaceId(pub u8);

impl PlaceId {
    /// Its place in the tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// `table[id]` for the tables one id indexes, so no index site converts by hand.
macro_rules! indexed_by {
    ($id:ty => $($row:ty),+) => {$(
        impl std::ops::Index<$id> for Vec<$row> {
            type Output = $row;
            fn index(&self, id: $id) -> &$row {
                &self[id.index()]
            }
        }
        impl std::ops::IndexMut<$id> for Vec<$row> {
            fn index_mut(&mut self, id: $id) -> &mut $row {
                &mut self[id.index()]
            }
        }
    )+};
}

indexed_by!(UnitId => UnitInfo, crate::state::UnitState);
indexed_by!(CmdId => CommandInfo, crate::state::CmdState);
indexed_by!(PlaceId => Place, Option<Faction>);

/// `table[kind]` for the rule tables with one row per terrain or unit type.
macro_rules! row_per {
    ($key:ty => $row:ty) => {
        impl std::ops::Index<$key> for [$row; 6] {
            type Output = $row;
            fn index(&self, k: $key) -> &$row {
                &self[k as usize]
            }
        }
        impl std::ops::IndexMut<$key> for [$row; 6] {
            fn index_mut(&mut self, k: $key) -> &mut $row {
                &mut self[k as usize]
            }
        }
    };
}

row_per!(Terrain => TerrainInfo);
row_per!(UnitType => TypeInfo);

/// The two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Faction {
    /// The Ming Chinese.
    Ming,
    /// The Jurchen (Later Chin).
    Jurchen,
}

impl Faction {
    /// Both, in side order (Ming is side 0).
    pub const ALL: [Faction; 2] = [Faction::Ming, Faction::Jurchen];

    /// Index 0 or 1.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    pub fn other(self) -> Faction {
        match self {
            Faction::Ming => Faction::Jurchen,
            Faction::Jurchen => Faction::Ming,
        }
    }

    /// "Ming" or "Jurchen".
    pub fn name(self) -> &'static str {
        ["Ming", "Jurchen"][self as usize]
    }

    /// One character for the map's control marker.
    pub fn mark(self) -> char {
        ['M', 'J'][self as usize]
    }

    fn parse(s: &str) -> Option<Faction> {
        match s.to_ascii_lowercase().as_str() {
            "ming" => Some(Faction::Ming),
            "jurchen" | "later-chin" => Some(Faction::Jurchen),
            _ => None,
        }
    }
}

/// Terrain classes of the TEC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Terrain {
    /// Plain (elevation 0).
    Plain,
    /// Hill (elevation 1).
    Hill,
    /// Mountain (elevation 2).
    Mountain,
    /// Woods (2.2(6)).
    Woods,
    /// Pass: units stop; 8 combat units a side (1.1(1)).
    Pass,
    /// Fort: units stop; 4 combat units a side (1.1(2)).
    Fort,
}

impl Terrain {
    /// All, in table order.
    pub const ALL: [Terrain; 6] = [
        Terrain::Plain,
        Terrain::Hill,
        Terrain::Mountain,
        Terrain::Woods,
        Terrain::Pass,
        Terrain::Fort,
    ];

    /// The TOML key.
    pub fn key(self) -> &'static str {
        ["plain", "hill", "mountain", "woods", "pass", "fort"][self as usize]
    }

    /// Pass or Fort: charges may not target it (7.2), moves stop there (6.1(1)).
    pub fn is_pass_or_fort(self) -> bool {
        matches!(self, Terrain::Pass | Terrain::Fort)
    }
}

/// Combat unit types (2.4(4), 2.4(6)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum UnitType {
    /// Infantry: attack only.
    Infantry,
    /// Firearm infantry: fires (red CS).
    Firearm,
    /// Chariot: fires, counting two.
    Chariot,
    /// Cavalry: charges.
    Cavalry,
    /// Horse archers: fire and charge.
    HorseArcher,
    /// Szechwan (special) infantry of the 10.0 variant.
    SpecialInfantry,
}

impl UnitType {
    /// All, in table order.
    pub const ALL: [UnitType; 6] = [
        UnitType::Infantry,
        UnitType::Firearm,
        UnitType::Chariot,
        UnitType::Cavalry,
        UnitType::HorseArcher,
        UnitType::SpecialInfantry,
    ];

    /// The TOML key.
    pub fn key(self) -> &'static str {
        [
            "infantry",
            "firearm",
            "chariot",
            "cavalry",
            "horse_archer",
            "special_infantry",
        ][self as usize]
    }

    /// For the legend.
    pub fn name(self) -> &'static str {
        [
            "infantry",
            "firearm",
            "chariot",
            "cavalry",
            "horse archer",
            "Szechwan infantry",
        ][self as usize]
    }

    /// Cavalry and horse archers (6.1(2), 7.2).
    pub fn is_mounted(self) -> bool {
        matches!(self, UnitType::Cavalry | UnitType::HorseArcher)
    }
}

/// What a terrain glyph means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyph {
    /// The terrain class.
    pub terrain: Terrain,
    /// Elevation: 0 plain, 1 hill, 2 mountain.
    pub elevation: u8,
}

/// One hex of the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexInfo {
    /// The map glyph (see `tables.toml [glyph]`).
    pub glyph: char,
    /// The terrain class.
    pub terrain: Terrain,
    /// Elevation: 0 plain, 1 hill, 2 mountain.
    pub elevation: u8,
    /// Index into [`Data::places`].
    pub place: Option<PlaceId>,
}

/// A named hex, with its control marker if it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// The umpire id (`hetuala`).
    pub id: String,
    /// The name as printed.
    pub name: String,
    /// Other spellings accepted in orders.
    pub aliases: Vec<String>,
    /// Its hex.
    pub hex: Hex,
    /// The side whose control marker is set up there (3.0(2)-(3)); `None`: no marker.
    pub owner: Option<Faction>,
    /// Victory points of the marker (8.0(3)).
    pub vp: u32,
    /// Tactical Value for the controlling side (2.2(5), 7.4(1)).
    pub tv: u32,
}

/// Where something starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupAt {
    /// On the map.
    Hex(Hex),
    /// Off the map, entering later (9.0).
    OffMap,
    /// Not placed (a fixture map without the named place).
    Unplaced,
}

/// A command unit (2.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandInfo {
    /// The short id (`ds`).
    pub id: String,
    /// The commander's name.
    pub name: String,
    /// Whose it is.
    pub side: Faction,
    /// The colour of its counters (2.4(1)).
    pub colour: String,
    /// Other names accepted in orders.
    pub aliases: Vec<String>,
    /// Its combat strength (2.3(2)).
    pub cs: u32,
    /// Where it sets up (3.0).
    pub setup: SetupAt,
    /// The first turn it may be activated (2.1(5)).
    pub entry_turn: u8,
    /// Where its off-map units enter (9.0).
    pub entry: Option<Hex>,
}

/// A combat unit (2.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitInfo {
    /// The short id printed in hexes (`ds.c1`).
    pub id: String,
    /// Its command.
    pub cmd: CmdId,
    /// Whose it is.
    pub side: Faction,
    /// The unit type.
    pub kind: UnitType,
    /// Combat strength on the front (2.4(3)).
    pub cs: u32,
    /// Combat strength on the back (reduced side).
    pub reduced: u32,
    /// Steps: 1 or 2 (2.4(2)).
    pub steps: u8,
    /// Where it sets up (3.0).
    pub setup: SetupAt,
    /// Only in play with this variant (10.0).
    pub variant: Option<String>,
    /// The unit it replaces in that variant.
    pub replaces: Option<UnitId>,
}

/// A row of the terrain effects chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TerrainInfo {
    /// MP to enter (2.2(1), 6.1(1)).
    pub cost: u32,
    /// Whether entering ends the move (6.1(1)).
    pub stop: bool,
    /// Combat units a side may end in it (1.1).
    pub stack: u32,
    /// Command units a side may have in it (1.1).
    pub stack_command: u32,
}

/// What a unit type can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeInfo {
    /// Movement allowance (2.4(5)).
    pub ma: u32,
    /// Weight in fire combat (0: cannot fire).
    pub fire: u32,
    /// Total that hits in fire combat (7.1(2)-(3)).
    pub fire_need: u32,
    /// Whether it may charge (7.2).
    pub charge: bool,
    /// CS penalty in an Attack in woods.
    pub woods: u32,
}

/// Rule values from the tables file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Values {
    /// Game length in turns (4.0).
    pub turns: u8,
    /// Turn Liu Ting enters (9.0).
    pub liu_ting_turn: u8,
    /// Dice each side rolls in the preparation phase (4.1(4)).
    pub prep_dice: u32,
    /// Who moves first in turn 1 (4.1(4)).
    pub first_turn_initiative: Faction,
    /// Who moves first on a tied preparation roll (4.1(4)).
    pub tie_initiative: Faction,
    /// AP of a move activation (4.2.1).
    pub ap_move: u32,
    /// AP of a combat activation, Ming then Jurchen (4.2.2).
    pub ap_combat: [u32; 2],
    /// AP of a rally activation (4.2.3).
    pub ap_rally: u32,
    /// AP of a pass (4.2.4).
    pub ap_pass: u32,
    /// Activations of a command per turn before it must pass (2.5.5(3)).
    pub per_turn: u8,
    /// Total that hits in a charge (7.2(3)).
    pub charge_need: u32,
    /// Charge modifier for higher or lower ground (2.2(7)-(8)).
    pub charge_elevation: i32,
    /// Fire modifier for firing down or up (7.1(2)).
    pub fire_elevation: i32,
    /// Winner's total over the loser's for two step losses (7.3(3)).
    pub double_ratio: u32,
    /// Eliminations that trigger retreat checks, Ming then Jurchen (7.6).
    pub retreat_threshold: [u32; 2],
    /// Highest retreat-check roll that routs a unit (7.6(1)).
    pub rout_max: u32,
    /// Extra MP per level climbed (6.1(2)).
    pub climb: u32,
    /// Extra MP to enter an enemy-occupied hex (1.2(2)).
    pub zoc: u32,
    /// The place whose Ming control wins decisively (8.0(1)).
    pub decisive_place: String,
    /// Jurchen troops the Ming must wipe out to win decisively (8.0(1)).
    pub ming_decisive_troops: u32,
    /// Ming troops the Jurchen must wipe out to win overwhelmingly (8.0(2)).
    pub jurchen_overwhelming_troops: u32,
}

/// A river or wall hexside, as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Side {
    /// The hex the side belongs to.
    pub hex: Hex,
    /// The direction of the side from `hex`.
    pub dir: Dir,
    /// The palisade ("Pole", 2.2(3)) rather than a river.
    pub wall: bool,
    /// A bridge crosses it (2.2(4)).
    pub bridge: bool,
    /// The river or wall's name.
    pub name: String,
}

/// Everything the rules need that is not state.
#[derive(Clone, Debug)]
pub struct Data {
    /// Columns.
    pub cols: i32,
    /// Rows.
    pub rows: i32,
    hexes: Vec<HexInfo>,
    /// Per hex: bit `d` set when crossing towards direction `d` is blocked.
    blocked: Vec<u8>,
    /// River and wall hexsides.
    pub sides: Vec<Side>,
    /// Named hexes.
    pub places: Vec<Place>,
    /// Command units.
    pub commands: Vec<CommandInfo>,
    /// Combat units.
    pub units: Vec<UnitInfo>,
    /// The Terrain Effects Chart, by `Terrain`.
    pub terrain: [TerrainInfo; 6],
    /// Unit types, by `UnitType`.
    pub types: [TypeInfo; 6],
    /// Terrain glyphs of the map.
    pub glyphs: BTreeMap<char, Glyph>,
    /// Rule values.
    pub values: Values,
    /// Every tagged value.
    pub tags: Vec<Tag>,
    /// Hash of the data files, pinned in every record's opening.
    pub hash: Digest,
    /// The ruleset version these data are played at (`super::VERSION`, or
    /// an earlier one from `Sarhu::at`): not data, so not hashed; kept here
    /// because every rule a version switches on has the data in hand.
    pub version: u32,
}

/// Counts for `umpire data check sarhu`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataSummary {
    /// Hash of the data files.
    pub hash: String,
    /// Hexes on the map.
    pub hexes: usize,
    /// Columns.
    pub cols: i32,
    /// Rows.
    pub rows: i32,
    /// Command units.
    pub commands: usize,
    /// Combat units, variant ones included.
    pub units: usize,
    /// Of which in the 10.0 variant only.
    pub variant_units: usize,
    /// Ming combat units.
    pub ming_units: usize,
    /// Jurchen combat units.
    pub jurchen_units: usize,
    /// Named hexes.
    pub places: usize,
    /// River hexsides.
    pub river_sides: usize,
    /// Palisade hexsides.
    pub wall_sides: usize,
    /// Bridged hexsides.
    pub bridges: usize,
    /// Tagged values by provenance kind.
    pub tagged: BTreeMap<String, usize>,
}

impl DataSummary {
    /// What `umpire data check sarhu` prints.
    pub fn check(&self, hash: Digest) -> DataCheck {
        DataCheck {
            hash,
            facts: vec![
                format!(
                    "map {} columns x {} rows, {} hexes, {} named places",
                    self.cols, self.rows, self.hexes, self.places
                ),
                format!(
                    "hexsides: {} river, {} palisade, {} bridged",
                    self.river_sides, self.wall_sides, self.bridges
                ),
                format!(
                    "{} commands, {} combat units (ming {}, jurchen {}, of which {} variant only)",
                    self.commands,
                    self.units,
                    self.ming_units,
                    self.jurchen_units,
                    self.variant_units
                ),
            ],
            by_provenance: self.tagged.clone(),
        }
    }
}

impl Data {
    /// The embedded data (strict: every set-up resolves).
    pub fn embedded() -> Result<Data, DataErrors> {
        Data::load(MAP_TOML, OOB_TOML, TABLES_TOML, true)
    }

    /// Reads data files. With `strict` off, set-up positions naming places the
    /// map lacks leave the unit unplaced (for small fixture maps in tests).
    pub fn load(map: &str, oob: &str, tables: &str, strict: bool) -> Result<Data, DataErrors> {
        let hash = data_hash(HASH_DOMAIN, &[map, oob, tables]);
        let mut r = Reader::default();
        let (Some(tm), Some(to), Some(tt)) = (
            parse_toml(&mut r, "map.toml", map),
            parse_toml(&mut r, "oob.toml", oob),
            parse_toml(&mut r, "tables.toml", tables),
        ) else {
            return Err(r.errors.into());
        };
        let built = build(&mut r, &tm, &to, &tt, strict, hash);
        match built {
            Some(d) if r.errors.is_empty() => Ok(Data { tags: r.tags, ..d }),
            _ => Err(r.errors.into()),
        }
    }

    /// Reads the data files of [`FILES`] (a club's where it replaced them), strictly.
    pub fn from_files(files: &Files) -> Result<Data, DataErrors> {
        Data::load(
            files.get("map.toml"),
            files.get("oob.toml"),
            files.get("tables.toml"),
            true,
        )
    }

    /// A dense index of an on-map hex (for per-hex tables).
    pub fn hex_index(&self, h: Hex) -> Option<usize> {
        self.idx(h)
    }

    /// The number of hexes.
    pub fn hex_count(&self) -> usize {
        self.hexes.len()
    }

    fn idx(&self, h: Hex) -> Option<usize> {
        (1..=self.cols).contains(&h.col).then_some(())?;
        (1..=self.rows).contains(&h.row).then_some(())?;
        Some(((h.col - 1) * self.rows + (h.row - 1)) as usize)
    }

    /// Is the hex on the map?
    pub fn on_map(&self, h: Hex) -> bool {
        self.idx(h).is_some()
    }

    /// The hex's terrain, if on the map.
    pub fn hex(&self, h: Hex) -> Option<&HexInfo> {
        self.idx(h).map(|i| &self.hexes[i])
    }

    /// Every hex, in column-row order.
    pub fn all_hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (1..=self.cols).flat_map(move |c| (1..=self.rows).map(move |r| Hex::new(c, r)))
    }

    /// Terrain of an on-map hex (Plain off the map, never asked for).
    pub fn terrain_of(&self, h: Hex) -> Terrain {
        self.hex(h).map_or(Terrain::Plain, |x| x.terrain)
    }

    /// Elevation of an on-map hex.
    pub fn elevation(&self, h: Hex) -> u8 {
        self.hex(h).map_or(0, |x| x.elevation)
    }

    /// The TEC row of a hex.
    pub fn tec(&self, h: Hex) -> TerrainInfo {
        self.terrain[self.terrain_of(h)]
    }

    /// Is crossing from `h` towards `d` blocked by an unbridged river or wall (2.2(3))?
    pub fn blocked(&self, h: Hex, d: Dir) -> bool {
        self.idx(h)
            .is_some_and(|i| self.blocked[i] & (1 << d as u8) != 0)
    }

    /// The place at a hex.
    pub fn place_at(&self, h: Hex) -> Option<&Place> {
        self.hex(h).and_then(|x| x.place).map(|p| &self.places[p])
    }

    /// A place by id or alias (case-insensitive; `-` and `_` alike).
    pub fn find_place(&self, name: &str) -> Option<&Place> {
        let n = norm(name);
        self.places.iter().find(|p| {
            norm(&p.id) == n || p.aliases.iter().any(|a| norm(a) == n) || norm(&p.name) == n
        })
    }

    /// A unit's type row.
    pub fn type_of(&self, u: UnitId) -> TypeInfo {
        self.types[self.units[u].kind]
    }

    /// Every unit of the order of battle, in its order.
    pub fn unit_ids(&self) -> impl Iterator<Item = UnitId> + use<> {
        (0..self.units.len()).map(UnitId::at)
    }

    /// Every command, in the order of battle's order.
    pub fn command_ids(&self) -> impl Iterator<Item = CmdId> + use<> {
        (0..self.commands.len()).map(CmdId::at)
    }

    /// A unit by id.
    pub fn unit_index(&self, id: &str) -> Option<usize> {
        let n = id.to_ascii_lowercase();
        self.units.iter().position(|u| u.id == n)
    }

    /// A command by id, name or alias.
    pub fn command_index(&self, name: &str) -> Option<usize> {
        let n = norm(name);
        self.commands.iter().position(|c| {
            norm(&c.id) == n || norm(&c.name) == n || c.aliases.iter().any(|a| norm(a) == n)
        })
    }

    /// The summary of tags and counts.
    pub fn summary(&self) -> DataSummary {
        let tagged = count_by_provenance(&self.tags);
        DataSummary {
            hash: self.hash.to_hex(),
            hexes: self.hexes.len(),
            cols: self.cols,
            rows: self.rows,
            commands: self.commands.len(),
            units: self.units.len(),
            variant_units: self.units.iter().filter(|u| u.variant.is_some()).count(),
            ming_units: self
                .units
                .iter()
                .filter(|u| u.side == Faction::Ming)
                .count(),
            jurchen_units: self
                .units
                .iter()
                .filter(|u| u.side == Faction::Jurchen)
                .count(),
            places: self.places.len(),
            river_sides: self.sides.iter().filter(|s| !s.wall).count(),
            wall_sides: self.sides.iter().filter(|s| s.wall).count(),
            bridges: self.sides.iter().filter(|s| s.bridge).count(),
            tagged,
        }
    }
}

/// Lower case, `_` and spaces read as `-`.
pub fn norm(s: &str) -> String {
    s.trim().to_ascii_lowercase().replace(['_', ' '], "-")
}

fn parse_edge(s: &str) -> Option<(Hex, Dir)> {
    let (h, d) = s.split_once('/')?;
    Some((h.parse().ok()?, d.parse().ok()?))
}

fn build(
    r: &mut Reader,
    tm: &Table,
    to: &Table,
    tt: &Table,
    strict: bool,
    hash: Digest,
) -> Option<Data> {
    let values = read_values(r, tt)?;
    let (terrain, types, glyphs) = read_tec(r, tt)?;
    let (cols, rows, hexes) = read_grid(r, tm, &glyphs)?;
    let mut data = Data {
        cols,
        rows,
        hexes,
        blocked: vec![0; (cols * rows) as usize],
        sides: Vec::new(),
        places: Vec::new(),
        commands: Vec::new(),
        units: Vec::new(),
        terrain,
        types,
        glyphs,
        values,
        tags: Vec::new(),
        hash,
        version: super::VERSION,
    };

    read_places(r, tm, &mut data);
    read_hexsides(r, tm, &mut data);
    read_commands(r, to, strict, &mut data);
    read_units(r, to, strict, &mut data);
    Some(data)
}

/// The map grid: its size, and each hex's terrain with its provenance tag.
fn read_grid(
    r: &mut Reader,
    tm: &Table,
    glyphs: &BTreeMap<char, Glyph>,
) -> Option<(i32, i32, Vec<HexInfo>)> {
    let map = table(r, tm, "map", "map.toml")?;
    let mut mrec = r.rec("map", map);
    let cols = r.int(&mut mrec, "cols")? as i32;
    let rows = r.int(&mut mrec, "rows")? as i32;
    if !(1..=99).contains(&cols) || !(1..=99).contains(&rows) {
        r.errors.push("map: cols and rows must be 1 to 99".into());
        return None;
    }
    mrec.used.insert("terrain".into());
    mrec.used.insert("terrain_src".into());
    mrec.used.insert("src_key".into());
    let Some(grid) = string_rows(map.get("terrain")) else {
        r.errors.push("map: missing `terrain` rows".into());
        return None;
    };
    let prov = TerrainSources::read(map);
    if grid.len() != rows as usize {
        r.errors.push(format!(
            "map: {} terrain rows, but rows = {rows}",
            grid.len()
        ));
        return None;
    }
    let mut hexes = vec![
        HexInfo {
            glyph: '.',
            terrain: Terrain::Plain,
            elevation: 0,
            place: None,
        };
        (cols * rows) as usize
    ];
    for (ri, line) in grid.iter().enumerate() {
        read_grid_row(r, (cols, rows), ri, line, glyphs, &prov, &mut hexes);
    }
    for k in map.keys() {
        if !mrec.used.contains(k) && !matches!(k.as_str(), "cols" | "rows") {
            r.errors.push(format!("map: unknown key `{k}`"));
        }
    }
    r.tag(&mut mrec, "cols");
    // cols/rows share one tag; the second is recorded for completeness.
    r.tag(&mut mrec, "rows");
    Some((cols, rows, hexes))
}

/// An array of strings (its non-strings skipped), if `v` is an array.
fn string_rows(v: Option<&Value>) -> Option<Vec<String>> {
    v.and_then(Value::as_array).map(|a| {
        a.iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect()
    })
}

/// Where the map's terrain provenance tags come from: a `terrain_src` grid of
/// keys into `[map.src_key]`, else one `src` for the whole map.
struct TerrainSources {
    grid: Option<Vec<String>>,
    key: BTreeMap<String, String>,
    default: Option<String>,
}

impl TerrainSources {
    fn read(map: &Table) -> TerrainSources {
        let key = map
            .get("src_key")
            .and_then(Value::as_table)
            .map(|t| {
                t.iter()
                    .filter_map(|(k, v)| v.as_str().map(|s| (k.clone(), s.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        TerrainSources {
            grid: string_rows(map.get("terrain_src")),
            key,
            default: map.get("src").and_then(Value::as_str).map(str::to_string),
        }
    }

    /// The source keys of terrain row `ri`, if the map has a `terrain_src` grid.
    fn row(&self, ri: usize) -> Option<Vec<char>> {
        self.grid
            .as_ref()
            .map(|g| g.get(ri).map(|s| s.chars().collect()).unwrap_or_default())
    }

    /// The provenance text of the hex in column `ci` of a row whose source
    /// keys are `row`; `path` names the hex in errors.
    fn tag(&self, row: Option<&[char]>, ci: usize, path: &str) -> Result<String, String> {
        match row {
            Some(sc) => {
                match sc.get(ci) {
                    Some(k) => self.key.get(&k.to_string()).cloned().ok_or_else(|| {
                        format!("{path}: provenance key {k:?} is not in [map.src_key]")
                    }),
                    None => Err(format!(
                        "{path}: terrain_src is shorter than the terrain row"
                    )),
                }
            }
            None => self
                .default
                .clone()
                .ok_or_else(|| format!("{path} has no provenance tag (terrain_src or map.src)")),
        }
    }
}

/// One terrain row of the map (`ri` from 0): each hex's glyph read into
/// `hexes` and its provenance tag recorded.
fn read_grid_row(
    r: &mut Reader,
    (cols, rows): (i32, i32),
    ri: usize,
    line: &str,
    glyphs: &BTreeMap<char, Glyph>,
    prov: &TerrainSources,
    hexes: &mut [HexInfo],
) {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() != cols as usize {
        r.errors.push(format!(
            "map: terrain row {} has {} hexes, want {cols}",
            ri + 1,
            chars.len()
        ));
        return;
    }
    let src_chars = prov.row(ri);
    for (ci, ch) in chars.iter().enumerate() {
        let h = Hex::new(ci as i32 + 1, ri as i32 + 1);
        let Some(g) = glyphs.get(ch) else {
            r.errors.push(format!(
                "map: hex {h} has terrain {ch:?}, which no [glyph] defines"
            ));
            continue;
        };
        let path = format!("map.hex[{h}].terrain");
        let tag = prov.tag(src_chars.as_deref(), ci, &path);
        match tag.and_then(|s| parse_provenance(&s).map_err(|e| format!("{path}: {e}"))) {
            Ok((kind, note)) => r.tags.push(Tag { path, kind, note }),
            Err(e) => r.errors.push(e),
        }
        hexes[((h.col - 1) * rows + (h.row - 1)) as usize] = HexInfo {
            glyph: *ch,
            terrain: g.terrain,
            elevation: g.elevation,
            place: None,
        };
    }
}

/// The named places (towns, forts, passes), one to a hex.
fn read_places(r: &mut Reader, tm: &Table, data: &mut Data) {
    for (i, p) in array_of_tables(r, tm, "place", "map.toml")
        .into_iter()
        .enumerate()
    {
        let id = p
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let mut rec = r.rec(format!("map.place[{id}]"), p);
        let id = r.string(&mut rec, "id").unwrap_or_default();
        let name = r.string(&mut rec, "name").unwrap_or_default();
        let hex = r.string(&mut rec, "hex").and_then(|s| {
            let h = s.parse::<Hex>().ok().filter(|h| data.on_map(*h));
            if h.is_none() {
                r.errors.push(format!(
                    "map.place[{id}].hex: {s:?} is not a hex on the map"
                ));
            }
            h
        });
        let aliases = r.strings(&mut rec, "aliases", false);
        let owner = r.opt_string(&mut rec, "owner").and_then(|s| {
            let f = Faction::parse(&s);
            if f.is_none() {
                r.errors.push(format!(
                    "map.place[{id}].owner: {s:?} is not ming or jurchen"
                ));
            }
            f
        });
        let vp = r.opt_int(&mut rec, "vp").unwrap_or(0);
        let tv = r.opt_int(&mut rec, "tv").unwrap_or(0);
        r.finish(rec);
        let Some(hex) = hex else { continue };
        if data.places.iter().any(|q| q.id == id) {
            r.errors.push(format!("map.place[{id}]: id given twice"));
        }
        let hi = data.idx(hex).unwrap_or(0);
        if data.hexes[hi].place.is_some() {
            r.errors
                .push(format!("map.place[{id}]: hex {hex} already holds a place"));
        }
        data.hexes[hi].place = Some(PlaceId(i as u8));
        data.places.push(Place {
            id,
            name,
            aliases,
            hex,
            owner,
            vp,
            tv,
        });
    }
}

/// Rivers and walls (each hexside once), bridges over them, and the
/// crossings they block.
fn read_hexsides(r: &mut Reader, tm: &Table, data: &mut Data) {
    let mut seen: BTreeMap<(Hex, Hex), usize> = BTreeMap::new();
    for (kind, wall) in [("river", false), ("wall", true)] {
        for t in array_of_tables(r, tm, kind, "map.toml") {
            let nm = t
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_string();
            let mut rec = r.rec(format!("map.{kind}[{nm}]"), t);
            let name = r.string(&mut rec, "name").unwrap_or_default();
            let edges = r.strings(&mut rec, "edges", true);
            r.finish(rec);
            for e in edges {
                let Some((h, d)) = parse_edge(&e) else {
                    r.errors.push(format!(
                        "map.{kind}[{name}]: {e:?} is not an edge like \"0712/NE\""
                    ));
                    continue;
                };
                let n = h.step(d);
                if !data.on_map(h) || !data.on_map(n) {
                    r.errors.push(format!(
                        "map.{kind}[{name}]: edge {e} is not between two hexes on the map"
                    ));
                    continue;
                }
                let key = (h.min(n), h.max(n));
                if seen.contains_key(&key) {
                    r.errors.push(format!("map.{kind}[{name}]: edge {e} is listed twice (both sides of a hexside are one edge)"));
                    continue;
                }
                seen.insert(key, data.sides.len());
                data.sides.push(Side {
                    hex: h,
                    dir: d,
                    wall,
                    bridge: false,
                    name: name.clone(),
                });
            }
        }
    }
    for t in array_of_tables(r, tm, "bridge", "map.toml") {
        let nm = t
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let mut rec = r.rec(format!("map.bridge[{nm}]"), t);
        let _ = r.string(&mut rec, "name");
        let edge = r.string(&mut rec, "edge").unwrap_or_default();
        r.finish(rec);
        match parse_edge(&edge) {
            Some((h, d)) => {
                let n = h.step(d);
                match seen.get(&(h.min(n), h.max(n))) {
                    Some(i) => data.sides[*i].bridge = true,
                    None => r.errors.push(format!(
                        "map.bridge[{nm}]: edge {edge} is not a river or wall hexside (2.2(3): a bridge crosses a river)"
                    )),
                }
            }
            None => r.errors.push(format!(
                "map.bridge[{nm}]: {edge:?} is not an edge like \"0712/NE\""
            )),
        }
    }
    for s in &data.sides {
        if s.bridge {
            continue;
        }
        let n = s.hex.step(s.dir);
        if let (Some(a), Some(b)) = (data.idx(s.hex), data.idx(n)) {
            data.blocked[a] |= 1 << s.dir as u8;
            data.blocked[b] |= 1 << s.dir.opposite() as u8;
        }
    }
}

/// Where a set-up or entry names: `offmap`, a hex, a place or `place/DIR`
/// (the hex in that direction); reported when `strict` and it is none of those.
fn resolve_setup(r: &mut Reader, data: &Data, strict: bool, path: &str, s: &str) -> SetupAt {
    if s.eq_ignore_ascii_case("offmap") {
        return SetupAt::OffMap;
    }
    if let Ok(h) = s.parse::<Hex>() {
        if data.on_map(h) {
            return SetupAt::Hex(h);
        }
    } else {
        let (name, dir) = match s.split_once('/') {
            Some((n, d)) => (n, Some(d)),
            None => (s, None),
        };
        if let Some(p) = data.find_place(name) {
            match dir.map(str::parse::<Dir>) {
                None => return SetupAt::Hex(p.hex),
                Some(Ok(d)) if data.on_map(p.hex.step(d)) => return SetupAt::Hex(p.hex.step(d)),
                Some(_) => {}
            }
        }
    }
    if strict {
        r.errors.push(format!(
            "{path}: set-up {s:?} is not a hex, place or place/DIR on the map"
        ));
    }
    SetupAt::Unplaced
}

/// The commands (leaders with their formations) of the order of battle.
fn read_commands(r: &mut Reader, to: &Table, strict: bool, data: &mut Data) {
    for t in array_of_tables(r, to, "command", "oob.toml") {
        let nm = t
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let path = format!("oob.command[{nm}]");
        let mut rec = r.rec(path.clone(), t);
        let id = r.string(&mut rec, "id").unwrap_or_default();
        let name = r.string(&mut rec, "name").unwrap_or_default();
        let side = r.string(&mut rec, "side").and_then(|s| Faction::parse(&s));
        let colour = r.string(&mut rec, "colour").unwrap_or_default();
        let aliases = r.strings(&mut rec, "aliases", false);
        let cs = r.int(&mut rec, "cs").unwrap_or(0);
        let setup = r.string(&mut rec, "setup").unwrap_or_default();
        let entry_turn = r.int(&mut rec, "entry_turn").unwrap_or(1);
        let entry = r.opt_string(&mut rec, "entry");
        r.finish(rec);
        let Some(side) = side else {
            r.errors.push(format!("{path}.side: want ming or jurchen"));
            continue;
        };
        let setup = resolve_setup(r, data, strict, &path, &setup);
        let entry = entry.and_then(|e| match resolve_setup(r, data, strict, &path, &e) {
            SetupAt::Hex(h) => Some(h),
            _ => None,
        });
        if data.commands.iter().any(|c| c.id == id) {
            r.errors.push(format!("{path}: id given twice"));
        }
        data.commands.push(CommandInfo {
            id,
            name,
            side,
            colour,
            aliases,
            cs,
            setup,
            entry_turn: entry_turn.min(99) as u8,
            entry,
        });
    }
}

/// The units of the order of battle, each in its command, and the
/// variant units each replaces.
fn read_units(r: &mut Reader, to: &Table, strict: bool, data: &mut Data) {
    let mut replaces_names = Vec::new();
    for t in array_of_tables(r, to, "unit", "oob.toml") {
        let nm = t
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let path = format!("oob.unit[{nm}]");
        let mut rec = r.rec(path.clone(), t);
        let id = r
            .string(&mut rec, "id")
            .unwrap_or_default()
            .to_ascii_lowercase();
        let kind = r.string(&mut rec, "type");
        let cs = r.int(&mut rec, "cs").unwrap_or(0);
        let reduced = r.int(&mut rec, "reduced").unwrap_or(0);
        let steps = r.int(&mut rec, "steps").unwrap_or(1);
        let setup = r.string(&mut rec, "setup").unwrap_or_default();
        let variant = r.opt_string(&mut rec, "variant");
        let replaces = r.opt_string(&mut rec, "replaces");
        r.finish(rec);
        let Some(kind) = kind.and_then(|k| UnitType::ALL.into_iter().find(|t| t.key() == k)) else {
            r.errors.push(format!("{path}.type: want one of infantry, firearm, chariot, cavalry, horse_archer, special_infantry"));
            continue;
        };
        let Some(cmd) = id
            .split_once('.')
            .and_then(|(c, _)| data.commands.iter().position(|x| x.id == c))
        else {
            r.errors.push(format!(
                "{path}: the id must start with its command's id and a dot, e.g. ds.i1"
            ));
            continue;
        };
        if !(1..=2).contains(&steps) {
            r.errors.push(format!("{path}.steps: 1 or 2 (2.4(2))"));
        }
        if data.units.iter().any(|u| u.id == id) {
            r.errors.push(format!("{path}: id given twice"));
        }
        if id.len() > 6 {
            r.errors.push(format!(
                "{path}: ids print inside hexes; keep them to 6 characters"
            ));
        }
        let setup = resolve_setup(r, data, strict, &path, &setup);
        replaces_names.push(replaces);
        data.units.push(UnitInfo {
            id,
            cmd: CmdId::at(cmd),
            side: data.commands[cmd].side,
            kind,
            cs,
            reduced,
            steps: steps as u8,
            setup,
            variant,
            replaces: None,
        });
    }
    for (i, rep) in replaces_names.into_iter().enumerate() {
        if let Some(rep) = rep {
            match data.unit_index(&rep) {
                Some(j) if data.units[j].cmd == data.units[i].cmd => {
                    data.units[i].replaces = Some(UnitId::at(j))
                }
                _ => r.errors.push(format!(
                    "oob.unit[{}].replaces: {rep:?} is not a unit of the same command",
                    data.units[i].id
                )),
            }
        }
    }
    if data.commands.len() > 32 || data.units.len() > 500 {
        r.errors
            .push("oob: at most 32 commands and 500 units".into());
    }
}

fn read_values(r: &mut Reader, tt: &Table) -> Option<Values> {
    let get = |r: &mut Reader, tab: &str, keys: &[&str]| -> Option<Vec<u32>> {
        let t = table(r, tt, tab, "tables.toml")?;
        let mut rec = r.rec(format!("tables.{tab}"), t);
        let v: Vec<u32> = keys
            .iter()
            .map(|k| r.int(&mut rec, k).unwrap_or(0))
            .collect();
        r.finish(rec);
        Some(v)
    };
    let game = get(r, "game", &["turns", "liu_ting_turn"])?;
    let ap = get(
        r,
        "ap_cost",
        &["move", "combat_ming", "combat_jurchen", "rally", "pass"],
    )?;
    let act = get(r, "activation", &["per_turn"])?;
    let charge = get(r, "charge", &["need", "elevation"])?;
    let fire_el = get(r, "fire_elevation", &["modifier"])?;
    let attack = get(r, "attack", &["double_ratio"])?;
    let retreat = get(
        r,
        "retreat",
        &["threshold_ming", "threshold_jurchen", "rout_max"],
    )?;
    let climb = get(r, "climb", &["per_level"])?;
    let zoc = get(r, "zoc", &["cost"])?;
    let prep = table(r, tt, "preparation", "tables.toml")?;
    let mut rec = r.rec("tables.preparation", prep);
    let dice = r.int(&mut rec, "dice").unwrap_or(2);
    let first = r
        .string(&mut rec, "first_turn_initiative")
        .and_then(|s| Faction::parse(&s));
    let tie = r
        .string(&mut rec, "tie_initiative")
        .and_then(|s| Faction::parse(&s));
    r.finish(rec);
    let vic = table(r, tt, "victory", "tables.toml")?;
    let mut rec = r.rec("tables.victory", vic);
    let place = r.string(&mut rec, "decisive_place").unwrap_or_default();
    let mdt = r.int(&mut rec, "ming_decisive_troops").unwrap_or(2);
    let jot = r.int(&mut rec, "jurchen_overwhelming_troops").unwrap_or(3);
    r.finish(rec);
    let (Some(first), Some(tie)) = (first, tie) else {
        r.errors
            .push("tables.preparation: initiative sides must be ming or jurchen".into());
        return None;
    };
    Some(Values {
        turns: game[0].min(99) as u8,
        liu_ting_turn: game[1].min(99) as u8,
        prep_dice: dice.clamp(1, 10),
        first_turn_initiative: first,
        tie_initiative: tie,
        ap_move: ap[0],
        ap_combat: [ap[1], ap[2]],
        ap_rally: ap[3],
        ap_pass: ap[4].max(1),
        per_turn: act[0].min(9) as u8,
        charge_need: charge[0],
        charge_elevation: charge[1] as i32,
        fire_elevation: fire_el[0] as i32,
        double_ratio: attack[0],
        retreat_threshold: [retreat[0], retreat[1]],
        rout_max: retreat[2],
        climb: climb[0],
        zoc: zoc[0],
        decisive_place: place,
        ming_decisive_troops: mdt,
        jurchen_overwhelming_troops: jot,
    })
}

type Tec = ([TerrainInfo; 6], [TypeInfo; 6], BTreeMap<char, Glyph>);

fn read_tec(r: &mut Reader, tt: &Table) -> Option<Tec> {
    let terr = table(r, tt, "terrain", "tables.toml")?;
    let mut terrain = [TerrainInfo {
        cost: 1,
        stop: false,
        stack: 2,
        stack_command: 1,
    }; 6];
    for t in Terrain::ALL {
        let Some(x) = terr.get(t.key()).and_then(Value::as_table) else {
            r.errors
                .push(format!("tables.toml: missing [terrain.{}]", t.key()));
            continue;
        };
        let mut rec = r.rec(format!("tables.terrain.{}", t.key()), x);
        terrain[t] = TerrainInfo {
            cost: r.int(&mut rec, "cost").unwrap_or(1),
            stop: r.boolean(&mut rec, "stop").unwrap_or(false),
            stack: r.int(&mut rec, "stack").unwrap_or(2),
            stack_command: r.int(&mut rec, "stack_command").unwrap_or(1),
        };
        r.finish(rec);
    }
    let ty = table(r, tt, "type", "tables.toml")?;
    let mut types = [TypeInfo {
        ma: 0,
        fire: 0,
        fire_need: 0,
        charge: false,
        woods: 0,
    }; 6];
    for t in UnitType::ALL {
        let Some(x) = ty.get(t.key()).and_then(Value::as_table) else {
            r.errors
                .push(format!("tables.toml: missing [type.{}]", t.key()));
            continue;
        };
        let mut rec = r.rec(format!("tables.type.{}", t.key()), x);
        types[t] = TypeInfo {
            ma: r.int(&mut rec, "ma").unwrap_or(0),
            fire: r.int(&mut rec, "fire").unwrap_or(0),
            fire_need: r.int(&mut rec, "fire_need").unwrap_or(0),
            charge: r.boolean(&mut rec, "charge").unwrap_or(false),
            woods: r.int(&mut rec, "woods").unwrap_or(0),
        };
        r.finish(rec);
    }
    let gl = table(r, tt, "glyph", "tables.toml")?;
    let mut glyphs = BTreeMap::new();
    for (k, v) in gl {
        let mut chars = k.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            r.errors
                .push(format!("tables.glyph.{k}: a glyph is one character"));
            continue;
        };
        let Some(x) = v.as_table() else { continue };
        let mut rec = r.rec(format!("tables.glyph.{k}"), x);
        let terrain = r
            .string(&mut rec, "terrain")
            .and_then(|s| Terrain::ALL.into_iter().find(|t| t.key() == s));
        let elevation = r.int(&mut rec, "elevation").unwrap_or(0);
        r.finish(rec);
        match terrain {
            Some(terrain) if elevation <= 9 => {
                glyphs.insert(
                    c,
                    Glyph {
                        terrain,
                        elevation: elevation as u8,
                    },
                );
            }
            _ => r.errors.push(format!(
                "tables.glyph.{k}: terrain must be a TEC row and elevation 0-9"
            )),
        }
    }
    Some((terrain, types, glyphs))
}

/// The checks of `umpire data check sarhu` on the embedded data: counts, set-up
/// stacking, symmetric hexsides, named places, and every value tagged.
pub fn check_data() -> Result<DataSummary, DataErrors> {
    check_loaded(&Data::embedded()?)
}

/// The checks of [`check_data`] on data already loaded (a club's own files).
pub fn check_loaded(d: &Data) -> Result<DataSummary, DataErrors> {
    let mut e = Vec::new();
    let s = d.summary();
    check_counts(d, &s, &mut e);
    check_commands(d, &mut e);
    check_replacements(d, &mut e);
    check_setup_stacking(d, &mut e);
    check_hexsides(d, &mut e);
    check_places(d, &mut e);
    if e.is_empty() { Ok(s) } else { Err(e.into()) }
}

/// Counts of commands and combat units (2.3, 2.4, 10.0).
fn check_counts(d: &Data, s: &DataSummary, e: &mut Vec<String>) {
    let count = |side: Faction| d.commands.iter().filter(|c| c.side == side).count();
    if d.commands.len() != 8 || count(Faction::Ming) != 4 || count(Faction::Jurchen) != 4 {
        e.push(format!(
            "2.3: want 8 commands, 4 a side; found {}",
            d.commands.len()
        ));
    }
    if s.units != 59 || s.ming_units != 35 || s.jurchen_units != 24 || s.variant_units != 3 {
        e.push(format!(
            "2.4: want 59 combat units (Ming 35 with 3 variant, Jurchen 24); found {} (Ming {}, Jurchen {}, variant {})",
            s.units, s.ming_units, s.jurchen_units, s.variant_units
        ));
    }
}

/// Each command's combat units (3.0, 3.0(7)-(8)).
fn check_commands(d: &Data, e: &mut Vec<String>) {
    for (ci, c) in d.commands.iter().enumerate() {
        let base: Vec<&UnitInfo> = d
            .units
            .iter()
            .filter(|u| u.cmd.index() == ci && u.variant.is_none())
            .collect();
        let want = if c.side == Faction::Ming { 8 } else { 6 };
        if base.len() != want {
            e.push(format!(
                "3.0: {} has {} combat units, want {want}",
                c.name,
                base.len()
            ));
        }
        if c.side == Faction::Jurchen {
            let inf = base.iter().filter(|u| u.kind == UnitType::Infantry).count();
            let mounted = base.iter().filter(|u| u.kind.is_mounted()).count();
            if inf != 2 || mounted != 4 {
                e.push(format!(
                    "3.0(7)-(8): {} needs 2 infantry and 4 cavalry/horse archers",
                    c.name
                ));
            }
        }
    }
}

/// A variant unit replaces an infantry unit (10.0).
fn check_replacements(d: &Data, e: &mut Vec<String>) {
    for u in &d.units {
        if let Some(r) = u.replaces
            && d.units[r].kind != UnitType::Infantry
        {
            e.push(format!("10.0: {} must replace an infantry unit", u.id));
        }
    }
}

/// Set-up stacking fits (1.1), in both the historical and the variant set-up.
fn check_setup_stacking(d: &Data, e: &mut Vec<String>) {
    for variant in [false, true] {
        let mut stacks: BTreeMap<(Hex, Faction), (u32, u32)> = BTreeMap::new();
        for u in &d.units {
            let in_play = if variant {
                u.variant.is_some()
                    || !d
                        .units
                        .iter()
                        .any(|v| v.replaces.is_some_and(|r| d.units[r].id == u.id))
            } else {
                u.variant.is_none()
            };
            if let (true, SetupAt::Hex(h)) = (in_play, u.setup) {
                stacks.entry((h, u.side)).or_default().0 += 1;
            }
        }
        for c in &d.commands {
            if let SetupAt::Hex(h) = c.setup {
                stacks.entry((h, c.side)).or_default().1 += 1;
            }
        }
        for ((h, side), (n, k)) in &stacks {
            let t = d.tec(*h);
            if *n > t.stack || *k > t.stack_command {
                e.push(format!(
                    "1.1: the {} set-up puts {n} combat and {k} command units in {h} ({}), over its limit {}+{}",
                    side.name(),
                    d.terrain_of(*h).key(),
                    t.stack,
                    t.stack_command
                ));
            }
        }
    }
}

/// Rivers and walls are the same seen from both hexes.
fn check_hexsides(d: &Data, e: &mut Vec<String>) {
    // Symmetric hexsides.
    for h in d.all_hexes() {
        for dir in Dir::ALL {
            let n = h.step(dir);
            if d.on_map(n) && d.blocked(h, dir) != d.blocked(n, dir.opposite()) {
                e.push(format!(
                    "hexside {h}/{} is not the same from both sides",
                    dir.name()
                ));
            }
        }
    }
}

/// Named places, control markers and entry hexes (2.1(6), 2.2(5), 2.5.2, 3.0, 8.0, 9.0).
fn check_places(d: &Data, e: &mut Vec<String>) {
    // Named places (2.1(6), 2.2(5), 3.0).
    let plus_two = [
        "tieling",
        "fushun_pass",
        "qinghebao",
        "yaku_pass",
        "hetuala",
        "malden",
        "abdaligun",
    ];
    let plus_one = ["jilin_cliff", "sarhu", "sianggia_cliff"];
    for id in plus_two.iter().chain(&plus_one).chain(&["liu_ting_entry"]) {
        match d.places.iter().find(|p| p.id == *id) {
            None => e.push(format!("3.0: the map has no place {id}")),
            Some(p) => {
                let pf = d.terrain_of(p.hex).is_pass_or_fort();
                if plus_two.contains(id) && (!pf || p.tv != 2) {
                    e.push(format!(
                        "2.2(5): {} must be a Pass or Fort with TV +2",
                        p.name
                    ));
                }
                if plus_one.contains(id) && (pf || p.tv != 1 || p.vp != 1) {
                    e.push(format!(
                        "2.2(5): {} must be a +1 hex (TV 1, 1 VP), not a Pass/Fort",
                        p.name
                    ));
                }
            }
        }
    }
    let vp: u32 = d.places.iter().map(|p| p.vp).sum();
    let markers = d.places.iter().filter(|p| p.owner.is_some()).count();
    if vp != 5 || markers != 10 {
        e.push(format!(
            "2.5.2: want 10 control markers, 5 of them +1; found {markers} markers worth {vp}"
        ));
    }
    if let Some(h) = d.find_place("hetuala")
        && h.hex.neighbours().iter().any(|n| !d.on_map(*n))
    {
        e.push("3.0(8): all six hexes around Hetuala must be on the map".into());
    }
    if let Some(p) = d.find_place("liu_ting_entry")
        && (p.hex.col < d.cols - 3 || p.hex.row < d.rows - 3)
    {
        e.push("9.0: Liu Ting's entry hex must be at the lower right".into());
    }
    if d.find_place(&d.values.decisive_place).is_none() {
        e.push(format!(
            "8.0(1): decisive place {} is not on the map",
            d.values.decisive_place
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_data_passes_every_check() {
        let s = check_data().unwrap_or_else(|e| panic!("{}", e.join("\n")));
        assert_eq!(s.commands, 8);
        assert_eq!(s.units, 59);
        assert_eq!(s.variant_units, 3);
        assert!(s.tagged.get("stand-in").copied().unwrap_or(0) > 0);
    }

    #[test]
    fn provenance_tags_parse() {
        assert_eq!(
            parse_provenance("rulebook 7.6").unwrap().0,
            ProvKind::Rulebook
        );
        assert_eq!(parse_provenance("stand-in").unwrap().0, ProvKind::StandIn);
        assert_eq!(parse_provenance("Reconstructed: x").unwrap().1, "x");
        assert!(parse_provenance("rulebook").is_err());
        assert!(parse_provenance("guess").is_err());
        assert!(parse_provenance("rulebooky 1").is_err());
    }

    #[test]
    fn an_untagged_value_is_refused() {
        let oob = OOB_TOML.replacen("src = \"rulebook 2.3, 3.0, 5.1\"", "", 1);
        let e = Data::load(MAP_TOML, &oob, TABLES_TOML, true).unwrap_err();
        assert!(
            e.iter()
                .any(|m| m.contains("oob.command[ds].name has no provenance tag")),
            "{e:?}"
        );
    }

    #[test]
    fn a_bridge_off_any_river_is_refused() {
        let map = format!(
            "{MAP_TOML}\n[[bridge]]\nname = \"x\"\nedge = \"0101/SE\"\nsrc = \"stand-in\"\n"
        );
        let e = Data::load(&map, OOB_TOML, TABLES_TOML, true).unwrap_err();
        assert!(e.iter().any(|m| m.contains("not a river or wall")), "{e:?}");
    }

    #[test]
    fn overstacked_setups_and_unknown_keys_are_reported() {
        // Malden is a Fort (4 + 1): a fifth unit there breaks 1.1(2).
        let oob = OOB_TOML.replacen("setup = \"jilin_cliff\"", "setup = \"malden\"", 1);
        let d = Data::load(MAP_TOML, &oob, TABLES_TOML, true).unwrap();
        let mut stacks = BTreeMap::new();
        for u in d.units.iter().filter(|u| u.variant.is_none()) {
            if let SetupAt::Hex(h) = u.setup {
                *stacks.entry(h).or_insert(0) += 1;
            }
        }
        let malden = d.find_place("malden").unwrap().hex;
        assert_eq!(stacks[&malden], 5);
        let typo = OOB_TOML.replacen("cs = 2\n", "cs = 2\nstrenght = 3\n", 1);
        let e = Data::load(MAP_TOML, &typo, TABLES_TOML, true).unwrap_err();
        assert!(
            e.iter().any(|m| m.contains("unknown key `strenght`")),
            "{e:?}"
        );
        let bad = TABLES_TOML.replacen("cost = 1", "cost = -1", 1);
        assert!(Data::load(MAP_TOML, OOB_TOML, &bad, true).is_err());
        assert!(Data::load("not toml [", OOB_TOML, TABLES_TOML, true).is_err());
    }

    #[test]
    fn hetuala_setup_hexes_are_its_neighbours() {
        let d = Data::embedded().unwrap();
        let het = d.find_place("hetuala").unwrap().hex;
        let ht = d.unit_index("ht.c1").unwrap();
        assert_eq!(d.units[ht].setup, SetupAt::Hex(het.step(Dir::NW)));
        let da = d.command_index("daisan").unwrap();
        assert_eq!(d.commands[da].setup, SetupAt::Hex(het.step(Dir::N)));
    }
}
