//! The game data of Lest Darkness Fall: the map, the counters and the tables,
//! read from `games/ldf/*.toml` (embedded at build time; a club may replace
//! them). Every value carries a provenance tag (see [`ProvKind`]); `read`
//! builds the data, `check` holds it to what the rulebook says.

mod check;
mod read;

pub use check::check_loaded;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use umpire_core::data::DataErrors;
use umpire_core::data::{DataFile, Files};
use umpire_core::hash::Digest;
use umpire_core::hex::{Hex, Offset};

/// The embedded map.
pub const MAP_TOML: &str = include_str!("../../../../games/ldf/map.toml");
/// The embedded counter mix and set-up.
pub const OOB_TOML: &str = include_str!("../../../../games/ldf/oob.toml");
/// The embedded tables.
pub const TABLES_TOML: &str = include_str!("../../../../games/ldf/tables.toml");

/// The data files a club may replace.
pub const FILES: &[DataFile] = &[
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

pub use umpire_core::data::{ProvKind, Tag};

/// The regions of the Terrain Key (14.5), one per land hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Region {
    /// All-sea hex.
    Sea,
    /// Roman core territory (4.3, 6.5).
    Core,
    /// Core territory in the Gallic Empire area (9.5).
    Gallic,
    /// Core territory in mainland Italy (14.3, Jaws of Death).
    Italy,
    /// Core territory on a Mediterranean island (9.5).
    Island,
    /// Barbaria (3.3).
    Barbaria,
    /// Parthia (3.3).
    Parthia,
    /// Colchis, a Caucasus state (9.6).
    Colchis,
    /// The Kingdom of Iberia, a Caucasus state (9.6).
    Iberia,
    /// Armenia, a Caucasus state (9.6).
    Armenia,
    /// Dacia, a trans-river province (9.7).
    Dacia,
    /// Germania Decumates, a trans-river province (9.7).
    Decumates,
    /// Palmyra (9.1).
    Palmyra,
    /// Land outside every region (deserts, Hibernia).
    Other,
}

impl Region {
    /// The map glyph.
    pub fn from_glyph(c: char) -> Option<Region> {
        Some(match c {
            '~' => Region::Sea,
            'C' => Region::Core,
            'G' => Region::Gallic,
            'I' => Region::Italy,
            'M' => Region::Island,
            'B' => Region::Barbaria,
            'P' => Region::Parthia,
            'K' => Region::Colchis,
            'E' => Region::Iberia,
            'A' => Region::Armenia,
            'D' => Region::Dacia,
            'Z' => Region::Decumates,
            'Y' => Region::Palmyra,
            '.' => Region::Other,
            _ => return None,
        })
    }

    /// The map glyph (the inverse of [`Region::from_glyph`]).
    pub fn glyph(self) -> char {
        [
            '~', 'C', 'G', 'I', 'M', 'B', 'P', 'K', 'E', 'A', 'D', 'Z', 'Y', '.',
        ][self as usize]
    }

    /// Every region, in glyph order (for the map's key).
    pub const ALL: [Region; 14] = [
        Region::Sea,
        Region::Core,
        Region::Gallic,
        Region::Italy,
        Region::Island,
        Region::Barbaria,
        Region::Parthia,
        Region::Colchis,
        Region::Iberia,
        Region::Armenia,
        Region::Dacia,
        Region::Decumates,
        Region::Palmyra,
        Region::Other,
    ];

    /// Roman core territory (Terrain Key; 4.3).
    pub fn is_core(self) -> bool {
        matches!(
            self,
            Region::Core | Region::Gallic | Region::Italy | Region::Island
        )
    }

    /// One of the three Caucasus states (9.6).
    pub fn is_caucasus(self) -> bool {
        matches!(self, Region::Colchis | Region::Iberia | Region::Armenia)
    }

    /// A name for messages.
    pub fn name(self) -> &'static str {
        [
            "sea",
            "Roman core",
            "Gallic core",
            "mainland Italy",
            "Mediterranean island",
            "Barbaria",
            "Parthia",
            "Colchis",
            "Iberia",
            "Armenia",
            "Dacia",
            "Germania Decumates",
            "Palmyra",
            "outside every region",
        ][self as usize]
    }
}

/// Population centre sizes (1.4, 6.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Size {
    /// One TP.
    Town,
    /// Two TP.
    City,
    /// Three TP.
    Metropolis,
}

/// A population centre.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// Its name, e.g. `Rome`.
    pub name: String,
    /// Its hex.
    pub hex: Hex,
    /// Its size.
    pub size: Size,
}

/// What lies between two adjacent hexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SideKind {
    /// Open land.
    Land,
    /// All-sea hexside (11.1; ruling R-D1).
    Sea,
    /// The Rhine (11.1, 12.7, 13.8).
    Rhine,
    /// The Danube (11.1, 12.7, 13.8).
    Danube,
}

impl SideKind {
    /// A Rhine or Danube hexside.
    pub fn is_river(self) -> bool {
        matches!(self, SideKind::Rhine | SideKind::Danube)
    }
}

/// One hex of the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexInfo {
    /// The hex.
    pub hex: Hex,
    /// Its region (sea for all-sea hexes).
    pub region: Region,
    /// Population centres in it.
    pub places: Vec<usize>,
    /// Its TP value when unlooted: the sum of its centres (6.5).
    pub tp: u32,
    /// Legion symbols printed in it (3.2).
    pub legions: u8,
    /// For a narrows hex, the land hexes it connects (1.5, 12.5).
    pub narrows: Option<Vec<Hex>>,
    /// A land hex with an all-sea neighbour or hexside (12.6).
    pub coastal: bool,
    /// On a Rhine or Danube hexside (12.7).
    pub riverbank: bool,
    /// Its sea zone (sea hexes).
    pub zone: Option<usize>,
}

impl HexInfo {
    /// A land hex.
    pub fn is_land(&self) -> bool {
        self.region != Region::Sea
    }
}

/// The kinds of counter (2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Kind {
    /// The Roman emperor.
    Emperor,
    /// The co-emperor (loyal or rebel).
    CoEmperor,
    /// A legion base element (static).
    Base,
    /// A Roman infantry vexillation.
    Infantry,
    /// A Roman cavalry vexillation.
    Cavalry,
    /// A Roman garrison/fortification (static).
    RomanGarrison,
    /// A gold client garrison: Caucasus or Palmyra (static).
    ClientGarrison,
    /// A Palmyran legion-equivalent.
    Palmyran,
    /// A Germanic tribe.
    Tribe,
    /// A Parthian gund.
    Gund,
    /// A Parthian garrison/fortification (static).
    ParthianGarrison,
}

impl Kind {
    /// As written in `oob.toml`.
    pub fn from_name(s: &str) -> Option<Kind> {
        Some(match s {
            "emperor" => Kind::Emperor,
            "coemperor" => Kind::CoEmperor,
            "base" => Kind::Base,
            "infantry" => Kind::Infantry,
            "cavalry" => Kind::Cavalry,
            "roman_garrison" => Kind::RomanGarrison,
            "client_garrison" => Kind::ClientGarrison,
            "palmyran" => Kind::Palmyran,
            "tribe" => Kind::Tribe,
            "gund" => Kind::Gund,
            "parthian_garrison" => Kind::ParthianGarrison,
            _ => return None,
        })
    }

    /// A leader (8.4).
    pub fn is_leader(self) -> bool {
        matches!(self, Kind::Emperor | Kind::CoEmperor)
    }

    /// A static unit (2.4).
    pub fn is_static(self) -> bool {
        matches!(
            self,
            Kind::Base | Kind::RomanGarrison | Kind::ClientGarrison | Kind::ParthianGarrison
        )
    }

    /// A garrison/fortification (13.10).
    pub fn is_garrison(self) -> bool {
        matches!(
            self,
            Kind::RomanGarrison | Kind::ClientGarrison | Kind::ParthianGarrison
        )
    }

    /// A mobile combat unit (2.4).
    pub fn is_mobile(self) -> bool {
        !self.is_static() && !self.is_leader()
    }

    /// Printed red/blue: flips between loyal and rebel (1.2).
    pub fn is_roman(self) -> bool {
        matches!(
            self,
            Kind::Emperor
                | Kind::CoEmperor
                | Kind::Base
                | Kind::Infantry
                | Kind::Cavalry
                | Kind::RomanGarrison
        )
    }

    /// Projects a zone of control (11.1: all but leaders and garrisons).
    pub fn exerts_zoc(self) -> bool {
        !self.is_leader() && !self.is_garrison()
    }

    /// A name for messages.
    pub fn name(self) -> &'static str {
        [
            "emperor",
            "co-emperor",
            "legion base",
            "infantry vexillation",
            "cavalry vexillation",
            "Roman garrison",
            "client garrison",
            "Palmyran legion-equivalent",
            "Germanic tribe",
            "Parthian gund",
            "Parthian garrison",
        ][self as usize]
    }
}

/// A counter, by its index in [`Data::units`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct UnitId(pub u16);

impl UnitId {
    /// As an index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitDef {
    /// Its id in orders, e.g. `v12`.
    pub id: String,
    /// Its kind.
    pub kind: Kind,
}

/// A combat result (13.11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Attacker eliminated.
    AE,
    /// Attack stalled.
    AS,
    /// Defender eliminated.
    DE,
    /// Defender retreat.
    DR,
    /// Exchange.
    EX,
}

impl Outcome {
    /// From its code.
    pub fn from_code(s: &str) -> Option<Outcome> {
        Some(match s {
            "AE" => Outcome::AE,
            "AS" => Outcome::AS,
            "DE" => Outcome::DE,
            "DR" => Outcome::DR,
            "EX" => Outcome::EX,
            _ => return None,
        })
    }

    /// Its code.
    pub fn code(self) -> &'static str {
        ["AE", "AS", "DE", "DR", "EX"][self as usize]
    }
}

/// Where the Emperor Creation Table puts the new emperor (14.4, stand-in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EmperorPlace {
    /// The hex with the most loyal Roman mobile units.
    LargestArmy,
    /// Rome/Ostia if no enemy is there, else the largest army.
    Rome,
}

/// One row of the Emperor Creation Table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmperorRow {
    /// Where the emperor is placed.
    pub place: EmperorPlace,
    /// The Roman loses one die of TP.
    pub tp_die: bool,
}

/// When a chit is used (14.3; digest R-G3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Timing {
    /// Resolved when drawn (8.17).
    Immediate,
    /// Played as an action (8.18).
    Action,
    /// Played with an attack or a defence.
    Combat,
    /// Played before or after a die roll.
    Roll,
}

/// Where a chit goes after use (8.17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Back {
    /// To the pool at once.
    Pool,
    /// Set aside until the next turn.
    Turn,
    /// Out of the game.
    Removed,
}

/// Who may use a chit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum User {
    /// Either player.
    Both,
    /// The Roman only.
    Roman,
    /// The Germano-Parthian only.
    Gp,
}

/// One event chit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChitDef {
    /// Its printed number, 1-24.
    pub id: u8,
    /// Its title.
    pub title: String,
    /// Its handler, e.g. `flanking`.
    pub effect: String,
    /// When it is used.
    pub timing: Timing,
    /// Who may use it.
    pub user: User,
    /// Where it goes after use.
    pub back: Back,
    /// A drawer of this side shows it and puts it back.
    pub shown_by: Option<User>,
    /// Its effect is a stand-in (the text lacks it).
    pub stand_in: bool,
}

/// An entry of the Action Summary List (14.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionDef {
    /// The order keyword.
    pub order: String,
    /// Who may choose it.
    pub who: String,
}

/// The rule values.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Values {
    /// Turns in the game (5).
    pub turns: u32,
    /// The first turn with an administrative phase (2).
    pub first_admin_turn: u32,
    /// Infantry and other mobile units' MF (4).
    pub mf_infantry: u32,
    /// Cavalry MF (8).
    pub mf_cavalry: u32,
    /// A leader's bonus (1).
    pub leader_bonus: u32,
    /// Added to a German's die (1).
    pub german_die_add: u32,
    /// Ctesiphon's garrison (8).
    pub ctesiphon_garrison: u32,
    /// A Caucasus garrison (1).
    pub caucasus_garrison: u32,
    /// TP by size: town, city, metropolis.
    pub tp: [u32; 3],
    /// A Caucasus hex's TP.
    pub caucasus_tp: u32,
    /// Dacia's TP.
    pub dacia_tp: u32,
    /// Germania Decumates' TP.
    pub decumates_tp: u32,
    /// Palmyra's TP.
    pub palmyra_tp: u32,
    /// Most TP carried into the next turn (6.9).
    pub carry_over: u32,
    /// TP for a demobilized pair (6.7).
    pub demobilize_pair: u32,
    /// TP cost to reclaim one unit (6.8).
    pub reclaim_unit: u32,
    /// TP for taking Ctesiphon (7.3).
    pub collapse_award: u32,
    /// Chits a hand may hold (8.17).
    pub hand_limit: usize,
    /// Most salt on one roll (8.8).
    pub salt_max: u32,
    /// Most added to a diplomacy or treachery roll (8.8).
    pub modifier_cap: u32,
    /// Least roll that succeeds (8.7-8.12).
    pub success: u32,
    /// Roman bases a hex may hold (10.6).
    pub roman_bases: usize,
    /// Roman mobile units a hex may hold without a leader (10.7).
    pub roman_mobile: usize,
    /// ... and with one (10.7).
    pub roman_mobile_leader: usize,
    /// Garrisons a hex may hold (10.3, 10.4, 10.6).
    pub garrisons: usize,
    /// Gunds a hex may hold (10.3).
    pub parthian_gunds: usize,
    /// Palmyrans a hex may hold (10.4).
    pub palmyran: usize,
    /// Germans a hex may hold (10.2).
    pub germans: usize,
    /// Starting TP (3.2).
    pub start_treasury: u32,
}

/// The named hexes the rules refer to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Special {
    /// Rome/Ostia, 3318.
    pub rome: Hex,
    /// Ctesiphon, 5020.
    pub ctesiphon: Hex,
    /// Palmyra, 4720.
    pub palmyra: Hex,
    /// Petra, 4623 (no sea movement, 12.6).
    pub petra: Hex,
    /// Trier, 3114.
    pub trier: Hex,
    /// Dacia, 3816.
    pub dacia: Hex,
    /// Germania Decumates, 3215.
    pub decumates: Hex,
}

/// Everything the ruleset needs from the data files.
#[derive(Clone, Debug)]
pub struct Data {
    /// Hash of the three files.
    pub hash: Digest,
    /// First and last column, first and last row.
    pub bounds: (i32, i32, i32, i32),
    /// Every hex of the map, in column-row order.
    pub hexes: Vec<HexInfo>,
    /// Hexsides that are not open land, by (lower hex, higher hex).
    pub sides: BTreeMap<(Hex, Hex), SideKind>,
    /// Each hex's land links (by dense index): bit `i` set when the hex
    /// links to its neighbour in direction `Dir::ALL[i]`; derived from the
    /// map once it is read ([`Data::derive_links`]), the hot path of every
    /// move, ZOC and reach test.
    pub link_bits: Vec<u8>,
    /// Population centres.
    pub places: Vec<Place>,
    /// Sea zone names.
    pub zones: Vec<String>,
    /// Every counter.
    pub units: Vec<UnitDef>,
    /// Counter ids to counters.
    pub unit_ids: BTreeMap<String, UnitId>,
    /// Legion hexes (with their symbol counts), in data order.
    pub legion_hexes: Vec<(Hex, u8)>,
    /// CRT columns: (attack, defence) ratios, low to high.
    pub crt_columns: Vec<(u32, u32)>,
    /// CRT rows by die roll 1-6, one result per column.
    pub crt: Vec<Vec<Outcome>>,
    /// The Emperor Creation Table by die roll 1-6.
    pub emperor: Vec<EmperorRow>,
    /// The chits 1-24 (index = number - 1).
    pub chits: Vec<ChitDef>,
    /// The Action Summary List.
    pub actions: Vec<ActionDef>,
    /// The rule values.
    pub values: Values,
    /// The named hexes.
    pub special: Special,
    /// The counter total from `oob.toml` (176).
    pub counter_total: u32,
    /// Markers in the counter mix.
    pub markers: u32,
    /// Every tagged value.
    pub tags: Vec<Tag>,
}

/// What `umpire data check ldf` reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataSummary {
    /// The data hash, hex.
    pub hash: String,
    /// Land hexes.
    pub land: usize,
    /// All-sea hexes.
    pub sea: usize,
    /// Hexes by region name.
    pub regions: BTreeMap<String, usize>,
    /// Population centres.
    pub places: usize,
    /// Counters.
    pub units: usize,
    /// Tagged values by provenance kind.
    pub tagged: BTreeMap<String, usize>,
    /// Stand-in values (their paths).
    pub stand_ins: Vec<String>,
}

/// The map's column offset: odd columns sit half a hex lower, so 3315, 3415
/// and 3416 meet at one point (9.5; ruling R-D2). Every adjacency, distance
/// and path on this map goes through the core's `..._on(OFFSET, ..)` methods.
pub const OFFSET: Offset = Offset::OddLow;

/// A value's path with record indices folded: `map.place[3].size` is
/// `map.place[*].size`, and a hex's region `map.rows.*`.
fn group_path(p: &str) -> String {
    let mut out = String::new();
    let mut in_index = false;
    for c in p.chars() {
        match c {
            '[' => {
                in_index = true;
                out.push_str("[*");
            }
            ']' => {
                in_index = false;
                out.push(']');
            }
            _ if in_index => {}
            _ => out.push(c),
        }
    }
    match out.strip_prefix("map.rows.") {
        Some(_) => "map.rows.*".into(),
        None => out,
    }
}

/// Lower case, with `_`, `-` and spaces removed, for name look-ups.
pub fn norm(s: &str) -> String {
    norm_chars(s).collect()
}

/// [`norm`]'s characters, without building the string.
fn norm_chars(s: &str) -> impl Iterator<Item = char> + '_ {
    s.trim()
        .chars()
        .map(|c| c.to_ascii_lowercase())
        .filter(|c| !matches!(c, '_' | '-' | ' ' | '\''))
}

impl Data {
    /// The embedded data.
    pub fn embedded() -> Result<Data, DataErrors> {
        Data::load(MAP_TOML, OOB_TOML, TABLES_TOML)
    }

    /// Reads and checks a game's files (embedded where not replaced).
    pub fn from_files(files: &Files) -> Result<Data, DataErrors> {
        Data::load(
            files.get("map.toml"),
            files.get("oob.toml"),
            files.get("tables.toml"),
        )
    }

    /// Reads and checks the three data files.
    pub fn load(map: &str, oob: &str, tables: &str) -> Result<Data, DataErrors> {
        let d = read::read(map, oob, tables)?;
        check::check(&d)?;
        Ok(d)
    }

    /// Reads a fixture through the same reader as [`Data::load`], with the
    /// checks any map needs (places, narrows and named hexes on land, the
    /// tables' rows) but not the rulebook's own hexes and counts: a rules
    /// test stands on a small hand-built map holding only the hexes its rule
    /// needs. A club's files and `umpire data check` always get every check.
    pub fn fixture(map: &str, oob: &str, tables: &str) -> Result<Data, DataErrors> {
        let d = read::read(map, oob, tables)?;
        let e = check::structure(&d);
        if e.is_empty() { Ok(d) } else { Err(e.into()) }
    }

    fn idx(&self, h: Hex) -> Option<usize> {
        let (c0, c1, r0, r1) = self.bounds;
        if h.col < c0 || h.col > c1 || h.row < r0 || h.row > r1 {
            return None;
        }
        Some(((h.col - c0) * (r1 - r0 + 1) + (h.row - r0)) as usize)
    }

    /// A hex's dense index (for per-hex tables in state).
    pub fn hex_index(&self, h: Hex) -> Option<usize> {
        self.idx(h)
    }

    /// The hex's data, if it is on the map.
    pub fn hex(&self, h: Hex) -> Option<&HexInfo> {
        self.idx(h).map(|i| &self.hexes[i])
    }

    /// The hex's region (sea off the map).
    pub fn region(&self, h: Hex) -> Region {
        self.hex(h).map_or(Region::Sea, |x| x.region)
    }

    /// A land hex on the map.
    pub fn is_land(&self, h: Hex) -> bool {
        self.hex(h).is_some_and(HexInfo::is_land)
    }

    /// A narrows hex (1.5).
    pub fn is_narrows(&self, h: Hex) -> bool {
        self.hex(h).is_some_and(|x| x.narrows.is_some())
    }

    /// The hexside between two adjacent hexes.
    pub fn side(&self, a: Hex, b: Hex) -> SideKind {
        let k = if a < b { (a, b) } else { (b, a) };
        self.sides.get(&k).copied().unwrap_or(SideKind::Land)
    }

    /// Is there a land link from `a` to the adjacent `b` (movement, attack,
    /// retreat, ZOC)? A narrows hex links only to the land hexes it connects, as
    /// by a bridge (12.5); otherwise an all-sea hexside breaks it (R-D1).
    pub fn linked(&self, a: Hex, b: Hex) -> bool {
        let Some(bits) = self.idx(a).and_then(|i| self.link_bits.get(i)) else {
            return self.linked_by_map(a, b);
        };
        let ns = a.neighbours_on(OFFSET);
        (0..6).any(|i| ns[i] == b && bits & (1 << i) != 0)
    }

    /// [`Data::linked`] from the map itself (narrows, hexsides), as
    /// [`Data::derive_links`] tabulates it.
    fn linked_by_map(&self, a: Hex, b: Hex) -> bool {
        if !a.adjacent_on(OFFSET, b) || !self.is_land(a) || !self.is_land(b) {
            return false;
        }
        let via = |n: Hex, o: Hex| {
            self.hex(n)
                .and_then(|x| x.narrows.as_ref())
                .map(|c| c.contains(&o))
        };
        match (via(a, b), via(b, a)) {
            (Some(x), Some(y)) => x || y,
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => self.side(a, b) != SideKind::Sea,
        }
    }

    /// The land hexes linked to `h`.
    pub fn links(&self, h: Hex) -> impl Iterator<Item = Hex> + '_ {
        let bits = self.idx(h).and_then(|i| self.link_bits.get(i).copied());
        h.neighbours_on(OFFSET)
            .into_iter()
            .enumerate()
            .filter(move |(i, n)| match bits {
                Some(b) => b & (1 << i) != 0,
                None => self.linked_by_map(h, *n),
            })
            .map(|(_, n)| n)
    }

    /// Tabulates every hex's land links ([`Data::link_bits`]); called once
    /// the map is read.
    pub fn derive_links(&mut self) {
        let bits: Vec<u8> = self
            .hexes
            .iter()
            .map(|x| {
                let ns = x.hex.neighbours_on(OFFSET);
                (0..6)
                    .filter(|i| self.linked_by_map(x.hex, ns[*i]))
                    .fold(0u8, |b, i| b | (1 << i))
            })
            .collect();
        self.link_bits = bits;
    }

    /// Every hex, in column-row order.
    pub fn all_hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        self.hexes.iter().map(|x| x.hex)
    }

    /// A hex by number (`3318`) or by the name of a population centre in it.
    pub fn find_hex(&self, s: &str) -> Option<Hex> {
        if let Ok(h) = s.parse::<Hex>() {
            return self.hex(h).map(|x| x.hex);
        }
        let n = norm(s);
        self.places
            .iter()
            .find(|p| norm_chars(&p.name).eq(n.chars()))
            .map(|p| p.hex)
    }

    /// A counter by id.
    pub fn unit(&self, id: &str) -> Option<UnitId> {
        self.unit_ids.get(&id.to_ascii_lowercase()).copied()
    }

    /// A counter's kind.
    pub fn kind(&self, u: UnitId) -> Kind {
        self.units[u.index()].kind
    }

    /// A counter's id.
    pub fn uid(&self, u: UnitId) -> &str {
        &self.units[u.index()].id
    }

    /// Every counter of a kind.
    pub fn of_kind(&self, k: Kind) -> impl Iterator<Item = UnitId> + '_ {
        (0..self.units.len())
            .map(|i| UnitId(i as u16))
            .filter(move |u| self.kind(*u) == k)
    }

    /// A chit by number.
    pub fn chit(&self, n: u8) -> Option<&ChitDef> {
        self.chits.get(usize::from(n).checked_sub(1)?)
    }

    /// The TP of one centre size (6.5).
    pub fn size_tp(&self, s: Size) -> u32 {
        self.values.tp[s as usize]
    }

    /// The name of the first centre in a hex, for messages.
    pub fn hex_name(&self, h: Hex) -> String {
        match self.hex(h).and_then(|x| x.places.first()) {
            Some(p) => format!("{h} ({})", self.places[*p].name),
            None => h.to_string(),
        }
    }

    /// The summary for `umpire data check`.
    pub fn summary(&self) -> DataSummary {
        let mut tagged = BTreeMap::new();
        let mut groups: BTreeMap<String, usize> = BTreeMap::new();
        for t in &self.tags {
            *tagged.entry(t.kind.name().to_string()).or_insert(0) += 1;
            if t.kind == ProvKind::StandIn {
                *groups.entry(group_path(&t.path)).or_insert(0) += 1;
            }
        }
        let stand_ins = groups
            .into_iter()
            .map(|(p, n)| if n == 1 { p } else { format!("{p} (x{n})") })
            .collect();
        let mut regions = BTreeMap::new();
        for x in &self.hexes {
            *regions.entry(x.region.name().to_string()).or_insert(0) += 1;
        }
        DataSummary {
            hash: self.hash.to_hex(),
            land: self.hexes.iter().filter(|x| x.is_land()).count(),
            sea: self.hexes.iter().filter(|x| !x.is_land()).count(),
            regions,
            places: self.places.len(),
            units: self.units.len(),
            tagged,
            stand_ins,
        }
    }
}
