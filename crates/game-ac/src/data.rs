//! The game data: map, pieces, tables and scenarios, read from the TOML files
//! in `games/ac/` and checked. Every value carries a provenance tag (see
//! [`prov`](super::prov)); the typed reading refuses unknown keys.

use super::geom::Sq;
use super::prov::{self, ProvKind, Tag};
use super::state::{AgentId, UnitId};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use umpire_core::data::DataErrors;
use umpire_core::data::DataFile;
use umpire_core::hash::{Digest, Tagged};

/// The embedded map.
pub const MAP_TOML: &str = include_str!("../../../games/ac/map.toml");
/// The embedded pieces.
pub const UNITS_TOML: &str = include_str!("../../../games/ac/units.toml");
/// The embedded tables.
pub const TABLES_TOML: &str = include_str!("../../../games/ac/tables.toml");
/// The embedded scenarios.
pub const SCENARIOS_TOML: &str = include_str!("../../../games/ac/scenarios.toml");
/// The data files a club may replace, with their embedded text.
pub const FILES: &[DataFile] = &[
    DataFile {
        name: "map.toml",
        embedded: MAP_TOML,
    },
    DataFile {
        name: "units.toml",
        embedded: UNITS_TOML,
    },
    DataFile {
        name: "tables.toml",
        embedded: TABLES_TOML,
    },
    DataFile {
        name: "scenarios.toml",
        embedded: SCENARIOS_TOML,
    },
];

/// The two players (1.0): side 0 British, side 1 Russian.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Power {
    /// The British Empire.
    British,
    /// The Russian Empire.
    Russian,
}

impl Power {
    /// Both, in side order.
    pub const ALL: [Power; 2] = [Power::British, Power::Russian];
    /// 0 or 1.
    pub fn index(self) -> usize {
        self as usize
    }
    /// The other player.
    pub fn other(self) -> Power {
        match self {
            Power::British => Power::Russian,
            Power::Russian => Power::British,
        }
    }
    /// "British" or "Russian".
    pub fn name(self) -> &'static str {
        ["British", "Russian"][self as usize]
    }
    /// The people as a plural subject: "the British have", "the Russians have".
    pub fn people(self) -> &'static str {
        ["British", "Russians"][self as usize]
    }
    /// +1 for British, -1 for Russian: the sign of the index favouring it (4.0).
    pub fn sign(self) -> i32 {
        [1, -1][self as usize]
    }
    /// Reads `british` or `russian`.
    pub fn parse(s: &str) -> Option<Power> {
        match s.to_ascii_lowercase().as_str() {
            "british" | "britain" | "b" => Some(Power::British),
            "russian" | "russia" | "r" => Some(Power::Russian),
            _ => None,
        }
    }
}

/// A native region, by its index in [`Data::regions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RegionId(pub u8);

/// A city, by its index in [`Data::cities`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CityId(pub u8);

impl RegionId {
    /// Its place in the tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl CityId {
    /// Its place in the tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl UnitId {
    /// Its place in the tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl AgentId {
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

indexed_by!(RegionId => Region, Option<Power>);
indexed_by!(CityId => City);
indexed_by!(UnitId => crate::state::Unit);
indexed_by!(AgentId => AgentInfo, crate::state::Agent);

/// Whose a combat unit is by its colour (2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Nat {
    /// British regulars (red).
    British,
    /// Russian regulars (blue).
    Russian,
    /// Natives of a region (tan).
    Native(RegionId),
    /// Ghazis (21.0): no region.
    Ghazi,
}

impl Nat {
    /// Red or blue (always belligerent, 5.0).
    pub fn regular(self) -> Option<Power> {
        match self {
            Nat::British => Some(Power::British),
            Nat::Russian => Some(Power::Russian),
            _ => None,
        }
    }
}

/// Combat unit types (2.33).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// Field Force.
    FieldForce,
    /// Flying Column.
    FlyingColumn,
    /// Garrison.
    Garrison,
    /// Irregulars.
    Irregular,
    /// Elephant army.
    Elephant,
    /// Ghazi.
    Ghazi,
}

impl Kind {
    /// All, in table order.
    pub const ALL: [Kind; 6] = [
        Kind::FieldForce,
        Kind::FlyingColumn,
        Kind::Garrison,
        Kind::Irregular,
        Kind::Elephant,
        Kind::Ghazi,
    ];
    /// The data key.
    pub fn key(self) -> &'static str {
        [
            "field_force",
            "flying_column",
            "garrison",
            "irregular",
            "elephant",
            "ghazi",
        ][self as usize]
    }
    /// One letter for unit ids.
    pub fn letter(self) -> char {
        ['f', 'c', 'g', 'i', 'e', 'h'][self as usize]
    }
    /// Reads a data key or an order word.
    pub fn parse(s: &str) -> Option<Kind> {
        let t = s.to_ascii_lowercase().replace('-', "_");
        Kind::ALL.into_iter().find(|k| {
            k.key() == t
                || k.key().replace('_', "") == t
                || (t.len() == 1 && k.letter() == t.chars().next().unwrap_or(' '))
        })
    }
}

/// The CRT letter of a counter (2.32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CrtLetter {
    /// Battle only.
    B,
    /// Raid only.
    R,
    /// Either.
    C,
}

/// Terrain classes of the (stand-in) Terrain Effects Chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Terrain {
    /// Clear.
    Clear,
    /// Desert.
    Desert,
    /// Mountain.
    Mountain,
    /// All sea or lake (13.71).
    Sea,
}

impl Terrain {
    fn from_glyph(c: char) -> Option<Terrain> {
        match c {
            '.' => Some(Terrain::Clear),
            'd' => Some(Terrain::Desert),
            'M' => Some(Terrain::Mountain),
            '~' => Some(Terrain::Sea),
            _ => None,
        }
    }
    /// The map glyph.
    pub fn glyph(self) -> char {
        ['.', 'd', 'M', '~'][self as usize]
    }
}

/// The two home bases (19.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Base {
    /// Central India, the British home base.
    India,
    /// The Urals, the Russian home base.
    Urals,
}

impl Base {
    /// Whose home base it is (19.21, 19.22).
    pub fn owner(self) -> Power {
        match self {
            Base::India => Power::British,
            Base::Urals => Power::Russian,
        }
    }
    /// The player's own base.
    pub fn of(p: Power) -> Base {
        match p {
            Power::British => Base::India,
            Power::Russian => Base::Urals,
        }
    }
    /// The order word.
    pub fn key(self) -> &'static str {
        ["india", "urals"][self as usize]
    }
    /// For messages.
    pub fn name(self) -> &'static str {
        ["Central India", "the Urals"][self as usize]
    }
    /// Reads `india` or `urals`.
    pub fn parse(s: &str) -> Option<Base> {
        match s.to_ascii_lowercase().as_str() {
            "india" | "central-india" => Some(Base::India),
            "urals" => Some(Base::Urals),
            _ => None,
        }
    }
}

/// The rulebook's names of the native regions (26.0 Native Unit Abbreviations).
pub const REGION_NAMES: [(&str, &str); 19] = [
    ("AF", "Afghanistan"),
    ("BL", "Baluchistan"),
    ("BU", "Bukhara"),
    ("HE", "Herat"),
    ("KK", "Khokand"),
    ("KS", "Kashmir"),
    ("KV", "Khiva"),
    ("KZ", "Kazakhistan"),
    ("MV", "Merv"),
    ("NI", "North India"),
    ("NP", "Nepal"),
    ("PA", "Pamirs"),
    ("PE", "Persia"),
    ("PJ", "Punjab"),
    ("SK", "Sinkiang"),
    ("SN", "Sind"),
    ("TK", "Turkoman"),
    ("WS", "Western Siberia"),
    ("WT", "Western Tibet"),
];

/// A native region.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Region {
    /// Two-letter code (`AF`).
    pub code: String,
    /// Name (`Afghanistan`).
    pub name: String,
    /// Its capital (15.0: negotiations need an agent there).
    pub capital: CityId,
    /// Its cities.
    pub cities: Vec<CityId>,
    /// Victory points (Region Control Chart, 2.14).
    pub vp: u32,
}

/// A city.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct City {
    /// Name.
    pub name: String,
    /// Where.
    pub sq: Sq,
    /// Its region.
    pub region: RegionId,
    /// A region's capital.
    pub capital: bool,
    /// A port (13.81).
    pub port: bool,
    /// Pounds when occupied (9.1(2)).
    pub income: u32,
}

/// One square of the map.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SquareInfo {
    /// Terrain.
    pub terrain: Terrain,
    /// The region it lies in (none for sea).
    pub region: Option<RegionId>,
    /// A river runs through it (13.8).
    pub river: bool,
    /// A city on it.
    pub city: Option<CityId>,
}

/// Combat values of one brigade/group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Combat strength.
    pub strength: u32,
    /// CRT letter.
    pub crt: CrtLetter,
    /// Movement factor.
    pub mf: u32,
    /// Diagonal movement allowed (13.2).
    pub highlighted: bool,
}

/// Whose an agent is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AgentSide {
    /// A British or Russian agent.
    Power(Power),
    /// A native agent of a region (16.7).
    Native(RegionId),
    /// The Mad Mullah (21.1).
    Ghazi,
}

/// What kind of agent (16.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AgentKind {
    /// A historic person, never replaced (16.43).
    Named,
    /// A Pundit (British generic).
    Pundit,
    /// A region's Khan.
    Khan,
    /// The Mad Mullah.
    Mullah,
}

/// An agent counter.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AgentInfo {
    /// Order id, e.g. `burnes`, `pundit2`, `khan-af`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Whose.
    pub side: AgentSide,
    /// Kind.
    pub kind: AgentKind,
    /// Political rating (16.3).
    pub political: u32,
    /// Military rating (16.2).
    pub military: u32,
    /// Historical periods when he may be recruited (16.61); empty: all.
    pub periods: Vec<u8>,
}

/// One combat result (14.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CrtCode {
    /// Attacker eliminated.
    AE,
    /// Attacker retreats.
    AR,
    /// Attacker loses one brigade, then retreats.
    AR1,
    /// Exchange: the defender is eliminated, the attacker loses as much.
    EX,
    /// Defender retreats.
    DR,
    /// Defender loses one brigade, then retreats.
    DR1,
    /// Defender eliminated.
    DE,
}

/// A CRT cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CrtCell {
    /// The result.
    pub code: CrtCode,
    /// `*`: the loser's agents are eliminated (16.4(3)).
    pub leaders: bool,
}

fn parse_crt(s: &str) -> Option<CrtCell> {
    let (body, leaders) = match s.strip_suffix('*') {
        Some(b) => (b, true),
        None => (s, false),
    };
    let code = match body {
        "AE" => CrtCode::AE,
        "AR" => CrtCode::AR,
        "AR1" => CrtCode::AR1,
        "EX" => CrtCode::EX,
        "DR" => CrtCode::DR,
        "DR1" => CrtCode::DR1,
        "DE" => CrtCode::DE,
        _ => return None,
    };
    Some(CrtCell { code, leaders })
}

/// A Negotiations or Ultimatum Table cell: any of T, T1, E, R, X (15.62).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct NegCell {
    /// T: the phasing player gains control.
    pub treaty: bool,
    /// T1: treaty on a further roll of 1-3 (15.62).
    pub conditional: bool,
    /// E: a neutral region joins the non-phasing player (ruling A5).
    pub enemy: bool,
    /// R: the index shifts toward the non-phasing player (ruling A5).
    pub outrage: bool,
    /// X: the phasing agent is eliminated (ruling A5, 16.4(2)).
    pub agent_lost: bool,
    /// N (stand-in, 5.5: reversion "may be the result of negotiations"): a
    /// region the non-phasing player controls reverts to neutral (5.51).
    pub neutral: bool,
}

fn parse_neg(s: &str) -> Option<NegCell> {
    let mut c = NegCell::default();
    if s == "-" {
        return Some(c);
    }
    for part in s.split('+') {
        match part {
            "T" => c.treaty = true,
            "T1" => c.conditional = true,
            "E" => c.enemy = true,
            "R" => c.outrage = true,
            "X" => c.agent_lost = true,
            "N" => c.neutral = true,
            _ => return None,
        }
    }
    Some(c)
}

/// What an event does (stand-ins, see tables.toml).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Effect {
    /// Nothing.
    None,
    /// Gain pounds (dice d6).
    Pounds,
    /// Lose pounds, never below 0 (9.3 addition).
    LosePounds,
    /// Lose supply points.
    LoseSp,
    /// A neutral region joins a player.
    Uprising,
    /// A region the player controls reverts to neutral (5.5, 5.51).
    Unrest,
    /// The index moves toward the centre.
    Accord,
    /// Ghazis and the Mad Mullah (21.1).
    Jihad,
    /// The Indian Mutiny.
    Mutiny,
}

/// Who an event affects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Who {
    /// The player who rolled (8.1).
    Roller,
    /// The other player.
    Other,
    /// Both players.
    Both,
    /// One named player.
    Power(Power),
}

/// One event of the table.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EventDef {
    /// Key.
    pub key: String,
    /// Name.
    pub name: String,
    /// Effect.
    pub effect: Effect,
    /// Who.
    pub who: Who,
    /// Dice rolled for its size.
    pub dice: u32,
}

/// Terrain values.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainValues {
    /// MP to enter.
    pub mp: u32,
    /// Forage in brigade equivalents.
    pub forage: u32,
    /// Defence multiplier.
    pub defence: u32,
}

/// All the numeric rule values, as read.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Numbers {
    /// Clear, desert, mountain.
    pub terrain: BTreeMap<String, TerrainValues>,
    /// City square values.
    pub city: CityValues,
    /// Fort.
    pub fort: FortValues,
    /// Movement.
    pub movement: MovementValues,
    /// The seas by which a home base is entered and left (19.11, 19.12).
    pub base_seas: BaseSeas,
    /// Index bands.
    pub bop: BopValues,
    /// Index shifts.
    pub bop_changes: BopChanges,
    /// End-of-turn cities.
    pub key_cities: KeyCities,
    /// Income.
    pub income: IncomeValues,
    /// Costs.
    pub costs: Costs,
    /// Region VP by code.
    pub region_vp: BTreeMap<String, u32>,
    /// Battle CRT cells.
    pub battle_crt: Grid,
    /// Raid CRT cells.
    pub raid_crt: Grid,
    /// Negotiations Table.
    pub negotiations: ColumnGrid,
    /// Ultimatum Table.
    pub ultimatum: UltimatumGrid,
    /// DRMs of 15.62.
    pub negotiation_drm: NegDrm,
    /// Events Table.
    pub events: EventColumns,
    /// Event definitions.
    pub event: Vec<RawEvent>,
    /// Victory values.
    pub victory: VictoryValues,
    /// Levy.
    pub levy: Dice1,
    /// Ranjit Singh.
    pub ranjit: Ranjit,
    /// Open war.
    pub open_war: OpenWarValues,
    /// Discovery Table (optional rule 32.6), one row per d66 result.
    pub discovery: Vec<DiscoveryRow>,
}

/// One result of the Discovery Table (32.6).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscoveryRow {
    /// The d66 result: tens die, ones die (32.1).
    pub roll: u32,
    /// Its name.
    pub name: String,
    /// What it does: none, bop, pounds, mahdum, bazaar, buzkashi, commercial,
    /// somnath, hashishan.
    pub effect: String,
    /// The amount of a `bop` or `pounds` effect.
    pub value: i32,
    /// May occur only once a game (32.5).
    pub once: bool,
}

/// City square.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CityValues {
    /// Least forage of a city square.
    pub forage: u32,
    /// Defence multiplier.
    pub defence: u32,
}
/// Fort.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FortValues {
    /// Defence multiplier (20.32).
    pub defence: u32,
}
/// Movement.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementValues {
    /// Half MP along routes (13.51).
    pub route_half: bool,
    /// Full MP in desert and mountain along routes (13.52).
    pub route_rough_full: bool,
    /// Extra MP into or out of a home base (19.13).
    pub base_extra: u32,
    /// Largest defence multiplier (14.74).
    pub max_multiplier: u32,
}
/// One all-sea square of the sea each home base is entered and left by
/// (19.11: the Persian Gulf; 19.12: the Caspian Sea), as `CCRR`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaseSeas {
    /// A square of the Persian Gulf.
    pub india: String,
    /// A square of the Caspian Sea.
    pub urals: String,
}
/// Index bands.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BopValues {
    /// Extreme (4.3).
    pub limit: i32,
    /// Mild from.
    pub mild: i32,
    /// Moderate from.
    pub moderate: i32,
    /// Strong from.
    pub strong: i32,
}
/// Index shifts.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BopChanges {
    /// Colony eliminated.
    pub colony_lost: i32,
    /// Trading post eliminated.
    pub post_lost: i32,
    /// Railroad eliminated.
    pub railroad_lost: i32,
    /// Fort eliminated.
    pub fort_lost: i32,
    /// Agent executed.
    pub agent_executed: i32,
    /// Massacre (optional 31.34).
    pub massacre: i32,
    /// An R result.
    pub negotiation_r: i32,
    /// Per key city occupied at the end of a turn.
    pub city_end_of_turn: i32,
}
/// Key cities.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyCities {
    /// City names.
    pub cities: Vec<String>,
}
/// Income.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IncomeValues {
    /// Pounds by modified die <=1 .. >=7.
    pub home: Vec<u32>,
    /// DRM when the index is moderate or strong either way.
    pub drm_bop: i32,
    /// DRM for the player who started open war.
    pub drm_open_war: i32,
    /// Per friendly railroad.
    pub railroad: u32,
}
/// Expenditure.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Costs {
    /// Field force brigade.
    pub field_force: u32,
    /// Flying column brigade.
    pub flying_column: u32,
    /// Garrison brigade.
    pub garrison: u32,
    /// Irregular group.
    pub irregular: u32,
    /// Elephant group.
    pub elephant: u32,
    /// Pundit or Khan.
    pub generic_agent: u32,
    /// Named agent.
    pub named_agent: u32,
    /// Trading post.
    pub trading_post: u32,
    /// Fort.
    pub fort: u32,
    /// Railroad.
    pub railroad: u32,
    /// Colony.
    pub colony: u32,
    /// SP price for the first SP of a turn.
    pub sp_cheap: u32,
    /// How many SP a turn at the cheap price.
    pub sp_cheap_count: u32,
    /// SP price after that.
    pub sp_dear: u32,
}
/// A table with one row per modified die <=0 .. >=7.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Grid {
    /// Cells, row by row.
    pub rows: Vec<Vec<String>>,
}
/// A table with differential columns.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnGrid {
    /// Column bounds.
    pub columns: Vec<i32>,
    /// Cells.
    pub rows: Vec<Vec<String>>,
}
/// The Ultimatum Table.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UltimatumGrid {
    /// Column bounds.
    pub columns: Vec<i32>,
    /// Cells.
    pub rows: Vec<Vec<String>>,
    /// T1 succeeds on this or less.
    pub t1_success: u32,
}
/// DRMs of 15.62.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NegDrm {
    /// Index moderately or strongly pro phasing.
    pub bop_for: i32,
    /// Index moderately or strongly pro non-phasing.
    pub bop_against: i32,
    /// Friendly forces in all the region's cities.
    pub all_cities: i32,
    /// Per friendly colony in the region.
    pub colony_friendly: i32,
    /// Per enemy colony in the region.
    pub colony_enemy: i32,
    /// Target is Sinkiang.
    pub sinkiang: i32,
    /// Controlling the neighbour named in 15.62.
    pub neighbour: i32,
}
/// Events Table.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventColumns {
    /// Column A up to this first roll.
    pub a: i32,
    /// Column B up to this.
    pub b: i32,
    /// Column C up to this; above, D then C.
    pub c: i32,
    /// DRM when the index favours the roller.
    pub drm_bop: i32,
    /// Column A.
    #[serde(rename = "A")]
    pub col_a: Vec<String>,
    /// Column B.
    #[serde(rename = "B")]
    pub col_b: Vec<String>,
    /// Column C.
    #[serde(rename = "C")]
    pub col_c: Vec<String>,
    /// Column D.
    #[serde(rename = "D")]
    pub col_d: Vec<String>,
}
/// An event as read.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvent {
    pub(super) key: String,
    pub(super) name: String,
    pub(super) effect: String,
    #[serde(default)]
    pub(super) who: Option<String>,
    #[serde(default)]
    pub(super) dice: u32,
}
/// Victory values (25.0).
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryValues {
    /// Per trading post.
    pub trading_post: u32,
    /// Per railroad.
    pub railroad: u32,
    /// Per colony.
    pub colony: u32,
    /// Index mildly in favour.
    pub bop_mild: u32,
    /// Moderately.
    pub bop_moderate: u32,
    /// Strongly.
    pub bop_strong: u32,
    /// Treasury divisor.
    pub treasury_per: u32,
    /// For starting open war.
    pub open_war: i32,
    /// British regulars in Orenburg.
    pub orenburg: u32,
    /// Russian regulars in Bushire or Karachi.
    pub gulf: u32,
    /// Margins.
    pub draw_below: u32,
    /// Regional below.
    pub regional_below: u32,
    /// Continental below.
    pub continental_below: u32,
}
/// A die count.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dice1 {
    /// Dice.
    pub dice: u32,
}
/// Ranjit Singh.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ranjit {
    /// Dies on this or less.
    pub dies_on_or_below: u32,
}
/// Open war.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenWarValues {
    /// Dice of pounds to the defender.
    pub pounds_dice: u32,
    /// Dice of index shift toward the attacker.
    pub bop_dice: u32,
}

/// Where a scenario places pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum At {
    /// A square.
    Sq(Sq),
    /// A home base.
    Base(Base),
}

/// Civilization markers (2.34).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MarkerKind {
    /// Colony (20.31).
    Colony,
    /// Fort (20.32).
    Fort,
    /// Trading post (20.33).
    TradingPost,
    /// Railroad (20.34).
    Railroad,
}

impl MarkerKind {
    /// The order word.
    pub fn key(self) -> &'static str {
        ["colony", "fort", "trading_post", "railroad"][self as usize]
    }
    /// Reads an order word.
    pub fn parse(s: &str) -> Option<MarkerKind> {
        match s.to_ascii_lowercase().replace('-', "_").as_str() {
            "colony" => Some(MarkerKind::Colony),
            "fort" => Some(MarkerKind::Fort),
            "trading_post" | "post" => Some(MarkerKind::TradingPost),
            "railroad" | "rail" => Some(MarkerKind::Railroad),
            _ => None,
        }
    }
}

/// One placement of a scenario.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Placement {
    /// Where.
    pub at: At,
    /// Units: nationality, kind, count.
    pub units: Vec<(Nat, Kind, u32)>,
    /// Agents by id.
    pub agents: Vec<String>,
    /// Markers.
    pub markers: Vec<(Power, MarkerKind)>,
    /// The set-up choice these pieces belong to (an index into
    /// [`Scenario::picks`]); `None`: fixed by the rulebook.
    pub pick: Option<usize>,
}

/// A choice a scenario leaves to a player (26.0: "any city(ies) in North
/// India"): the pieces of the placements naming it are its default set-up,
/// and its setter may move them anywhere it allows.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Pick {
    /// The rulebook's paragraph, e.g. `4.3(1)` (the order names it).
    pub key: String,
    /// Who places these pieces (26.0 "set up by the British").
    pub setter: Power,
    /// The regions whose squares it allows.
    pub regions: Vec<RegionId>,
    /// Non-city squares of those regions (S2 4.3(2), 4.6(2)); else their cities.
    pub non_city: bool,
    /// "At least one unit per city" (ruling A58): every city of the regions
    /// holds a unit of this choice.
    pub each_city: bool,
    /// Each unit stands with one marker of this choice and each marker with
    /// one unit (S2 4.3(2): a garrison in each fort).
    pub paired: bool,
}

impl Pick {
    /// Whether a piece of this choice may be set up on `s`.
    pub fn allows(&self, d: &Data, s: Sq) -> bool {
        let region = d.sq(s).and_then(|i| i.region);
        d.land(s)
            && region.is_some_and(|r| self.regions.contains(&r))
            && d.city_at(s).is_some() != self.non_city
    }

    /// Where it allows, in words.
    pub fn describe(&self, d: &Data) -> String {
        let codes: Vec<&str> = self
            .regions
            .iter()
            .map(|r| d.reg(*r).code.as_str())
            .collect();
        format!(
            "{} of {}{}",
            if self.non_city {
                "non-city squares"
            } else {
                "cities"
            },
            codes.join(" "),
            if self.each_city {
                ", at least one unit per city"
            } else {
                ""
            }
        )
    }
}

/// A scenario (26.0).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Scenario {
    /// `s1` or `s2`.
    pub key: String,
    /// Title.
    pub title: String,
    /// Turns.
    pub turns: u32,
    /// Year of the first turn.
    pub first_year: u32,
    /// Starting index.
    pub bop: i32,
    /// Who sets up first.
    pub first_setter: Power,
    /// Starting pounds, by side.
    pub treasury: [u32; 2],
    /// Initial control.
    pub control: Vec<(RegionId, Power)>,
    /// No random events on the first turn (S1 7.1, S2 7.0a).
    pub no_events_first_turn: bool,
    /// The Ranjit Singh roll (S1 7.2).
    pub ranjit_singh: bool,
    /// The Indian Mutiny has occurred (S2 7.0b).
    pub mutiny_done: bool,
    /// Placements.
    pub places: Vec<Placement>,
    /// The choices its set-up leaves to the players (26.0).
    pub picks: Vec<Pick>,
}

/// How much of the printed game a data set must hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checks {
    /// The embedded data or a club's replacement (`umpire data check ac`):
    /// all nineteen regions, the capitals the errata fix (2.81), Persia's six
    /// cities, both home bases' map edges, every key city.
    Full,
    /// A test's hand-built fixture: only the regions its map draws (every one
    /// still with one capital); the pieces, agents and key cities of the
    /// pieces and tables files that belong to regions or cities not on it are
    /// left out, and a home base may have no map edge or sea. Every other
    /// check (tags, tables, routes, scenarios, the counter mix) is the same.
    Fixture,
}

/// The loaded, checked data.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Data {
    /// Columns.
    pub cols: i32,
    /// Rows.
    pub rows: i32,
    /// Squares, row by row.
    pub squares: Vec<SquareInfo>,
    /// Cities.
    pub cities: Vec<City>,
    /// Regions, in [`REGION_NAMES`] order.
    pub regions: Vec<Region>,
    /// Trade-route segments between orthogonal neighbours (13.51), both ways.
    pub route_edges: BTreeSet<(Sq, Sq)>,
    /// The same, per square (row by row) as a bit per side a route leaves by
    /// (see [`Data::route_between`]): movement asks at every step it weighs.
    #[serde(skip)]
    pub route_sides: Vec<u8>,
    /// Squares whose trade route leads off the edge into a base (19.1).
    pub base_routes: BTreeMap<Sq, Base>,
    /// Edge squares from which each base may be entered (19.11, 19.12).
    pub base_edges: BTreeMap<Base, BTreeSet<Sq>>,
    /// The sea squares each base is entered and left by (19.11, 19.12).
    pub base_seas: BTreeMap<Base, BTreeSet<Sq>>,
    /// Named trade routes (for the view).
    pub routes: Vec<(String, Vec<Sq>)>,
    /// The historical railways (reference).
    pub railways: Vec<(String, Vec<Sq>)>,
    /// Unit values by (regular?, kind).
    pub stats: BTreeMap<(bool, Kind), Stats>,
    /// Values of counters that differ from their class.
    pub overrides: BTreeMap<(Nat, Kind), Stats>,
    /// Counter mix in brigade equivalents.
    pub mix: BTreeMap<(Nat, Kind), u32>,
    /// Agents.
    pub agents: Vec<AgentInfo>,
    /// Agents' movement factor.
    pub agent_mf: u32,
    /// Rule values.
    pub num: Numbers,
    /// The movement points to enter clear (and any other), desert and mountain
    /// squares, read once from `num.terrain` (movement asks for them at every
    /// step of every path it weighs).
    #[serde(skip)]
    pub enter_mp: [u32; 3],
    /// Battle CRT.
    pub battle: Vec<Vec<CrtCell>>,
    /// Raid CRT.
    pub raid: Vec<Vec<CrtCell>>,
    /// Negotiations Table.
    pub negotiations: Vec<Vec<NegCell>>,
    /// Ultimatum Table.
    pub ultimatum: Vec<Vec<NegCell>>,
    /// Events.
    pub events: Vec<EventDef>,
    /// Event columns A-D as indices into `events`.
    pub event_columns: [Vec<usize>; 4],
    /// Scenarios.
    pub scenarios: Vec<Scenario>,
    /// Every value's provenance.
    pub tags: Vec<Tag>,
    /// Hash of the four files.
    pub hash: Digest,
    /// The version of the rules these data are played under: the umpire's
    /// own ([`super::VERSION`]), or an older one a record was made under
    /// (`Ac::at_version`). Not part of the data or their hash.
    #[serde(skip)]
    pub version: u32,
}

// ---- raw file shapes -------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMapFile {
    pub(super) map: RawMap,
    pub(super) city: Vec<RawCity>,
    pub(super) route: Vec<RawRoute>,
    #[serde(default)]
    pub(super) railway: Vec<RawRailway>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMap {
    pub(super) cols: i32,
    pub(super) rows: i32,
    pub(super) terrain: Vec<String>,
    pub(super) regions: Vec<String>,
    pub(super) rivers: Vec<String>,
    pub(super) region_key: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCity {
    pub(super) name: String,
    pub(super) square: Sq,
    pub(super) region: String,
    #[serde(default)]
    pub(super) capital: bool,
    #[serde(default)]
    pub(super) port: bool,
    pub(super) income: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRoute {
    pub(super) name: String,
    pub(super) squares: Vec<Sq>,
    #[serde(default)]
    pub(super) base: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRailway {
    pub(super) name: String,
    pub(super) squares: Vec<Sq>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawUnits {
    pub(super) unit_type: Vec<RawType>,
    pub(super) stats: Vec<RawStats>,
    #[serde(rename = "override", default)]
    pub(super) overrides: Vec<RawOverride>,
    pub(super) mix: BTreeMap<String, BTreeMap<String, u32>>,
    pub(super) agents: RawAgentCommon,
    pub(super) agent: Vec<RawAgent>,
    pub(super) generic: RawGeneric,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawType {
    pub(super) key: String,
    #[allow(dead_code)]
    pub(super) name: String,
    pub(super) highlighted: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawStats {
    pub(super) class: String,
    pub(super) kind: String,
    pub(super) strength: u32,
    pub(super) crt: String,
    pub(super) mf: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawOverride {
    pub(super) nat: String,
    pub(super) kind: String,
    pub(super) strength: u32,
    pub(super) crt: String,
    pub(super) mf: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAgentCommon {
    pub(super) mf: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAgent {
    pub(super) name: String,
    pub(super) side: String,
    pub(super) political: u32,
    pub(super) military: u32,
    pub(super) periods: Vec<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGeneric {
    pub(super) pundits: u32,
    pub(super) pundit_political: u32,
    pub(super) pundit_military: u32,
    pub(super) khan_political: u32,
    pub(super) khan_military: u32,
    pub(super) mullah_political: u32,
    pub(super) mullah_military: u32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScenarios {
    pub(super) scenario: Vec<RawScenario>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScenario {
    pub(super) key: String,
    pub(super) title: String,
    pub(super) turns: u32,
    pub(super) first_year: u32,
    pub(super) bop: i32,
    pub(super) first_setter: String,
    pub(super) treasury: BTreeMap<String, u32>,
    pub(super) british: Vec<String>,
    pub(super) russian: Vec<String>,
    pub(super) no_events_first_turn: bool,
    pub(super) ranjit_singh: bool,
    pub(super) mutiny_done: bool,
    pub(super) place: Vec<RawPlace>,
    #[serde(default)]
    pub(super) pick: Vec<RawPick>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPick {
    pub(super) key: String,
    pub(super) setter: String,
    pub(super) regions: Vec<String>,
    #[serde(default)]
    pub(super) squares: Option<String>,
    #[serde(default)]
    pub(super) each_city: bool,
    #[serde(default)]
    pub(super) paired: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPlace {
    pub(super) at: String,
    #[serde(default)]
    pub(super) pick: Option<String>,
    #[serde(default)]
    pub(super) units: Vec<String>,
    #[serde(default)]
    pub(super) agents: Vec<String>,
    #[serde(default)]
    pub(super) markers: Vec<String>,
}

/// Lower-case, spaces and apostrophes to dashes: `von Kaufman` → `von-kaufman`.
pub fn slug(s: &str) -> String {
    s.to_ascii_lowercase()
        .chars()
        .filter(|c| *c != '\'')
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Reads one file: its tags, then its values without the tags. The parsed
/// table is read in place (its tags taken out, then the typed rows read from
/// it), never copied into a [`toml::Table`] and converted again.
fn read<T: for<'de> Deserialize<'de>>(
    name: &str,
    text: &str,
    tags: &mut Vec<Tag>,
    errors: &mut Vec<String>,
) -> Option<T> {
    let mut table = match toml::de::DeTable::parse(text) {
        Ok(t) => t,
        Err(e) => {
            errors.push(format!("{name}: {e}"));
            return None;
        }
    };
    let mut path = name.trim_end_matches(".toml").to_string();
    prov::collect(&mut path, table.get_ref(), None, tags, errors);
    prov::strip(table.get_mut());
    match T::deserialize(toml::de::Deserializer::from(table)) {
        Ok(v) => Some(v),
        Err(e) => {
            errors.push(format!("{name}: {e}"));
            None
        }
    }
}

/// [`read`], or (tests only, `by_value`) [`read_by_value`].
fn read_as<T: for<'de> Deserialize<'de>>(
    name: &str,
    text: &str,
    (tags, errors): &mut (&mut Vec<Tag>, &mut Vec<String>),
    by_value: bool,
) -> Option<T> {
    #[cfg(test)]
    if by_value {
        return read_by_value(name, text, tags, errors);
    }
    let _ = by_value;
    read(name, text, tags, errors)
}

/// [`read`] as it was before: a [`toml::Table`], its tags collected, a copy
/// without them, converted through a [`toml::Value`]. For the test that the
/// two read the same data and the same errors.
#[cfg(test)]
fn read_by_value<T: for<'de> Deserialize<'de>>(
    name: &str,
    text: &str,
    tags: &mut Vec<Tag>,
    errors: &mut Vec<String>,
) -> Option<T> {
    let table: toml::Table = match toml::from_str(text) {
        Ok(t) => t,
        Err(e) => {
            errors.push(format!("{name}: {e}"));
            return None;
        }
    };
    let stem = name.trim_end_matches(".toml");
    prov::by_value::collect(stem, &table, None, tags, errors);
    match toml::Value::Table(prov::by_value::strip(&table)).try_into::<T>() {
        Ok(v) => Some(v),
        Err(e) => {
            errors.push(format!("{name}: {e}"));
            None
        }
    }
}

/// The bit of [`Data::route_sides`] for the side of `f` that `t` lies across.
pub(super) fn route_side(f: Sq, t: Sq) -> Option<u8> {
    match (t.col - f.col, t.row - f.row) {
        (1, 0) => Some(1),
        (-1, 0) => Some(2),
        (0, 1) => Some(4),
        (0, -1) => Some(8),
        _ => None,
    }
}

impl Data {
    /// The embedded data.
    pub fn embedded() -> Result<Data, DataErrors> {
        Data::load(MAP_TOML, UNITS_TOML, TABLES_TOML, SCENARIOS_TOML)
    }

    /// Reads and checks the four files, with every check of the printed
    /// game ([`Checks::Full`]): the embedded data and a club's replacement.
    pub fn load(map: &str, units: &str, tables: &str, scenarios: &str) -> Result<Data, DataErrors> {
        Data::load_checked(map, units, tables, scenarios, Checks::Full)
    }

    /// Reads and checks a hand-built fixture ([`Checks::Fixture`]): a small
    /// map with only the regions a test needs, through the same loader.
    pub fn fixture(
        map: &str,
        units: &str,
        tables: &str,
        scenarios: &str,
    ) -> Result<Data, DataErrors> {
        Data::load_checked(map, units, tables, scenarios, Checks::Fixture)
    }

    /// Reads and checks the four files as `checks` asks.
    pub fn load_checked(
        map: &str,
        units: &str,
        tables: &str,
        scenarios: &str,
        checks: Checks,
    ) -> Result<Data, DataErrors> {
        Data::load_by([map, units, tables, scenarios], checks, false)
    }

    /// [`Data::load_checked`], the files read as [`read`] does, or (tests
    /// only) as [`read_by_value`] did.
    fn load_by(texts: [&str; 4], checks: Checks, by_value: bool) -> Result<Data, DataErrors> {
        let [map, units, tables, scenarios] = texts;
        let mut tags = Vec::new();
        let mut errors = Vec::new();
        let mut tags_errors = (&mut tags, &mut errors);
        let m: Option<RawMapFile> = read_as("map.toml", map, &mut tags_errors, by_value);
        let u: Option<RawUnits> = read_as("units.toml", units, &mut tags_errors, by_value);
        let t: Option<Numbers> = read_as("tables.toml", tables, &mut tags_errors, by_value);
        let s: Option<RawScenarios> =
            read_as("scenarios.toml", scenarios, &mut tags_errors, by_value);
        let (Some(m), Some(u), Some(t), Some(s)) = (m, u, t, s) else {
            return Err(errors.into());
        };
        let hash = Tagged::new("umpire-ac-data-v1")
            .field(map.as_bytes())
            .field(units.as_bytes())
            .field(tables.as_bytes())
            .field(scenarios.as_bytes())
            .finish();
        let raw = super::build::Raw {
            map: m,
            units: u,
            tables: t,
            scenarios: s,
        };
        let d = super::build::build(raw, tags, hash, checks, &mut errors);
        match d {
            Some(d) if errors.is_empty() => Ok(d),
            _ => Err(errors.into()),
        }
    }

    /// Whether a square is on the map.
    pub fn on_map(&self, s: Sq) -> bool {
        (1..=self.cols).contains(&s.col) && (1..=self.rows).contains(&s.row)
    }

    /// The square's information, if on the map.
    pub fn sq(&self, s: Sq) -> Option<&SquareInfo> {
        self.index(s).map(|i| &self.squares[i])
    }

    /// A square's place in the row-by-row arrays, if it is on the map.
    pub fn index(&self, s: Sq) -> Option<usize> {
        self.on_map(s)
            .then(|| ((s.row - 1) * self.cols + s.col - 1) as usize)
    }

    /// Whether a trade-route segment joins `f` to its orthogonal neighbour `t`
    /// (13.51): the same answer as `route_edges.contains(&(f, t))`, without the search.
    pub fn route_between(&self, f: Sq, t: Sq) -> bool {
        match (self.index(f), route_side(f, t)) {
            (Some(i), Some(bit)) => self.route_sides.get(i).is_some_and(|b| b & bit != 0),
            _ => false,
        }
    }

    /// Every square, row by row.
    pub fn all_squares(&self) -> impl Iterator<Item = Sq> + '_ {
        (1..=self.rows).flat_map(move |r| (1..=self.cols).map(move |c| Sq::new(c, r)))
    }

    /// Land (not all sea/lake, 13.71).
    pub fn land(&self, s: Sq) -> bool {
        self.sq(s).is_some_and(|i| i.terrain != Terrain::Sea)
    }

    /// The region of a code.
    pub fn region(&self, code: &str) -> Option<RegionId> {
        self.regions
            .iter()
            .position(|r| r.code.eq_ignore_ascii_case(code))
            .map(|i| RegionId(i as u8))
    }

    /// A region's record.
    pub fn reg(&self, r: RegionId) -> &Region {
        &self.regions[r]
    }

    /// A city's record.
    pub fn city(&self, c: CityId) -> &City {
        &self.cities[c]
    }

    /// The city of a name (case and punctuation ignored).
    pub fn find_city(&self, name: &str) -> Option<CityId> {
        let want = slug(name);
        self.cities
            .iter()
            .position(|c| slug(&c.name) == want)
            .map(|i| CityId(i as u8))
    }

    /// The city on a square.
    pub fn city_at(&self, s: Sq) -> Option<CityId> {
        self.sq(s).and_then(|i| i.city)
    }

    /// Values of a unit of `nat` and `kind`.
    pub fn stats(&self, nat: Nat, kind: Kind) -> Stats {
        if let Some(s) = self.overrides.get(&(nat, kind)) {
            return *s;
        }
        let regular = nat.regular().is_some();
        self.stats
            .get(&(regular, kind))
            .or_else(|| self.stats.get(&(!regular, kind)))
            .copied()
            .unwrap_or(Stats {
                strength: 1,
                crt: CrtLetter::B,
                mf: 1,
                highlighted: false,
            })
    }

    /// Two-letter code of a nationality, for ids and messages.
    pub fn nat_code(&self, n: Nat) -> String {
        match n {
            Nat::British => "british".into(),
            Nat::Russian => "russian".into(),
            Nat::Native(r) => self.reg(r).code.clone(),
            Nat::Ghazi => "GH".into(),
        }
    }

    /// Reads a nationality: `british`, `russian`, `GH` or a region code.
    pub fn parse_nat(&self, s: &str) -> Option<Nat> {
        match Power::parse(s) {
            Some(Power::British) => Some(Nat::British),
            Some(Power::Russian) => Some(Nat::Russian),
            None if s.eq_ignore_ascii_case("gh") => Some(Nat::Ghazi),
            None => self.region(s).map(Nat::Native),
        }
    }

    /// The agent of an id or name.
    pub fn find_agent(&self, s: &str) -> Option<usize> {
        let want = slug(s);
        self.agents
            .iter()
            .position(|a| a.id == want || slug(&a.name) == want)
    }

    /// Values by provenance kind, for `umpire data check`.
    pub fn provenance_counts(&self) -> BTreeMap<ProvKind, usize> {
        let mut m = BTreeMap::new();
        for t in &self.tags {
            *m.entry(t.kind).or_insert(0) += 1;
        }
        m
    }
}

/// Parses a CRT cell (for `build`).
pub(super) fn crt_cell(s: &str) -> Option<CrtCell> {
    parse_crt(s)
}

/// Parses a negotiation cell (for `build`).
pub(super) fn neg_cell(s: &str) -> Option<NegCell> {
    parse_neg(s)
}

/// Reads a terrain glyph (for `build`).
pub(super) fn terrain_glyph(c: char) -> Option<Terrain> {
    Terrain::from_glyph(c)
}

/// Reads a CRT letter.
pub(super) fn crt_letter(s: &str) -> Option<CrtLetter> {
    match s {
        "B" | "b" => Some(CrtLetter::B),
        "R" | "r" => Some(CrtLetter::R),
        "C" | "c" => Some(CrtLetter::C),
        _ => None,
    }
}

impl RawEvent {
    /// Key, name, effect, who, dice.
    pub(super) fn parts(&self) -> (&str, &str, &str, Option<&str>, u32) {
        (
            &self.key,
            &self.name,
            &self.effect,
            self.who.as_deref(),
            self.dice,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Grid;

    #[test]
    fn embedded_data_passes_every_check() {
        let d = Data::embedded().unwrap_or_else(|e| panic!("{}", e.join("\n")));
        assert_eq!(d.regions.len(), 19);
        assert_eq!(d.scenarios.len(), 2);
        assert!(d.provenance_counts().len() >= 3);
    }

    /// The files read in place build the same data (every table, tag and
    /// hash, by their `Debug` form) and give the same errors as the reading
    /// through a copied [`toml::Value`] did.
    #[test]
    fn reading_in_place_builds_what_reading_by_value_did() {
        let texts = [MAP_TOML, UNITS_TOML, TABLES_TOML, SCENARIOS_TOML];
        let same = |texts: [&str; 4]| {
            let new = Data::load_by(texts, Checks::Full, false);
            let old = Data::load_by(texts, Checks::Full, true);
            assert_eq!(format!("{new:?}"), format!("{old:?}"));
            new
        };
        let d = same(texts).unwrap_or_else(|e| panic!("{e}"));
        assert!(d.tags.len() > 1000, "{}", d.tags.len());
        // Broken files: a syntax error, an untagged value, a tag of no
        // field, a bad tag, a value of the wrong type, an unknown field.
        for (file, from, to) in [
            (0, "=", "= ="),
            (1, "src = ", "srx = "),
            (2, "src = ", "src_nothing = \"rulebook 1\"\nsrc = "),
            (3, "src = \"", "src = \"guess "),
            (0, "= 1\n", "= \"one\"\n"),
            (1, "src = ", "colour = 3\nsrc = "),
        ] {
            let mut t = texts.map(str::to_string);
            t[file] = t[file].replacen(from, to, 1);
            assert_ne!(t[file], texts[file], "{from:?} is in file {file}");
            let r = same([&t[0], &t[1], &t[2], &t[3]]);
            assert!(r.is_err(), "{to:?} in file {file} was accepted");
        }
    }

    #[test]
    fn route_between_answers_as_the_route_edges_do() {
        let d = Data::embedded().unwrap_or_else(|e| panic!("{}", e.join("\n")));
        let mut routes = 0;
        for f in d.all_squares() {
            for (t, _) in f.around() {
                let want = d.route_edges.contains(&(f, t));
                assert_eq!(d.route_between(f, t), want, "{f} to {t}");
                routes += usize::from(want);
            }
        }
        // 13.51: every segment is counted from both of its ends.
        assert_eq!(routes, d.route_edges.len());
        assert!(routes > 0);
    }
}
