//! The game data: map, forces, limits, the set-up and the cards, read from the
//! TOML files in `games/adp/` (embedded with `include_str!`) and checked.
//! Every value carries a provenance tag (see [`super::prov`]).

use super::cards::{self, Card};
use super::pieces::{Faction, Kind, Piece, Pieces};
use super::prov::{self, Reader, ReaderExt};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ops::Index;
use toml::Table;
use umpire_core::data::DataErrors;
use umpire_core::data::{DataCheck, DataFile, Files};
use umpire_core::hash::Digest;

/// The embedded map.
pub const MAP_TOML: &str = include_str!("../../../games/adp/map.toml");
/// The embedded forces, limits and tracks.
pub const FORCES_TOML: &str = include_str!("../../../games/adp/forces.toml");
/// The embedded cards.
pub const CARDS_TOML: &str = include_str!("../../../games/adp/cards.toml");
/// The embedded set-up.
pub const SETUP_TOML: &str = include_str!("../../../games/adp/setup.toml");
/// The embedded Non-player priorities (8.x, reconstructed).
pub const NONPLAYER_TOML: &str = include_str!("../../../games/adp/nonplayer.toml");
/// The data files a club may replace, with their embedded text.
pub static FILES: &[DataFile] = &[
    DataFile {
        name: "map.toml",
        embedded: MAP_TOML,
    },
    DataFile {
        name: "forces.toml",
        embedded: FORCES_TOML,
    },
    DataFile {
        name: "cards.toml",
        embedded: CARDS_TOML,
    },
    DataFile {
        name: "setup.toml",
        embedded: SETUP_TOML,
    },
    DataFile {
        name: "nonplayer.toml",
        embedded: NONPLAYER_TOML,
    },
];

/// Domain of the data hash: pinned in every record's opening, so never changed.
const HASH_DOMAIN: &str = "umpire-adp-data-v1";

/// A map space (Province, Kabul, Pakistan Province or LoC), by index into
/// [`Data::spaces`]: the 25 non-LoC spaces first, then the LoCs.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct SpaceNo(pub u8);

impl SpaceNo {
    /// The index as `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A card by its printed number (1 to 72 in the deck, Propaganda cards
/// after). Serialised, shown and debug-printed as the bare number, so states
/// hash and texts read as before.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardNo(pub u8);

impl std::fmt::Display for CardNo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::fmt::Debug for CardNo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for CardNo {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<CardNo, Self::Err> {
        s.parse().map(CardNo)
    }
}

/// What kind of space (1.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpaceKind {
    /// Kabul, the only City (1.3.3).
    City,
    /// An Afghan Province (1.3.2).
    Province,
    /// A Province of Pakistan (1.3.5): only Taliban pieces (1.4.2).
    Pakistan,
    /// A Line of Communication (1.3.4).
    Loc,
}

/// Province terrain (1.3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Terrain {
    /// Mountain: Government Assault removes 1 per 3 cubes (3.2.4).
    Mountain,
    /// Plains.
    Plains,
}

/// A space's support level (1.6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Support {
    /// In Opposition.
    Opposition,
    /// Neutral (no marker).
    #[default]
    Neutral,
    /// In Support.
    Support,
}

impl Support {
    /// Reads `support`, `neutral`, `opposition`.
    pub fn parse(s: &str) -> Option<Support> {
        match s.to_ascii_lowercase().as_str() {
            "support" => Some(Support::Support),
            "neutral" => Some(Support::Neutral),
            "opposition" => Some(Support::Opposition),
            _ => None,
        }
    }

    /// One level toward Support (`up`) or Opposition.
    pub fn shifted(self, up: bool) -> Support {
        match (self, up) {
            (Support::Opposition, true) => Support::Neutral,
            (Support::Neutral, true) | (Support::Support, true) => Support::Support,
            (Support::Support, false) => Support::Neutral,
            (_, false) => Support::Opposition,
        }
    }
}

/// One space of the map.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Space {
    /// Key in orders and data, e.g. `sar-e-pol`, `kabul-aibak`.
    pub key: String,
    /// Display name.
    pub name: String,
    /// Province, City, Pakistan or LoC.
    pub kind: SpaceKind,
    /// Population (0 for LoCs).
    pub pop: u8,
    /// Pashtun (LoCs never are, 1.3.4).
    pub pashtun: bool,
    /// Mountain or Plains, for Provinces (Pakistan included).
    pub terrain: Option<Terrain>,
    /// Econ, for LoCs (1.3.4).
    pub econ: u8,
    /// The Towns at a LoC's ends (1.3.4).
    pub towns: Vec<String>,
    /// Adjacent spaces (1.3), sorted.
    pub adjacent: Vec<SpaceNo>,
}

impl Space {
    /// A LoC (1.3.4).
    pub fn is_loc(&self) -> bool {
        self.kind == SpaceKind::Loc
    }

    /// In Pakistan (1.3.5).
    pub fn is_pakistan(&self) -> bool {
        self.kind == SpaceKind::Pakistan
    }

    /// Kabul (1.3.3).
    pub fn is_city(&self) -> bool {
        self.kind == SpaceKind::City
    }

    /// Kabul or an Afghan Province: the spaces that count for victory (1.9).
    pub fn is_afghan(&self) -> bool {
        matches!(self.kind, SpaceKind::City | SpaceKind::Province)
    }

    /// A Province or Kabul (Pakistan included): where Control exists (1.7).
    pub fn has_control(&self) -> bool {
        !self.is_loc()
    }

    /// Mountain terrain (3.2.4).
    pub fn is_mountain(&self) -> bool {
        self.terrain == Some(Terrain::Mountain)
    }
}

/// Track limits and marker pools (1.8, 3.3.4, 4.3.1).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Limits {
    /// Resources maximum (1.8).
    pub resources_max: u8,
    /// Aid maximum.
    pub aid_max: u8,
    /// Patronage maximum.
    pub patronage_max: u8,
    /// Terror and Sabotage markers, one pool (ruling A3).
    pub terror_markers: u8,
    /// +1 Pop Returnees markers.
    pub returnees: u8,
    /// Bases a Province or Kabul may hold (1.4.2).
    pub bases_per_space: u8,
}

/// The Deception markers (7.3 option): how many, of which kind, and how
/// many each player draws.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct DeceptionMix {
    /// All markers (1.9 NOTE: 12).
    pub markers: u8,
    /// Drawn by each player at the start (7.3: 2).
    pub per_player: u8,
    /// Empty Threat markers.
    pub empty_threat: u8,
    /// Hidden Agenda markers.
    pub hidden_agenda: u8,
    /// Hidden Asset markers.
    pub hidden_asset: u8,
}

/// Victory thresholds (7.2): each total must exceed its value.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Thresholds {
    /// Support + Available Coalition pieces.
    pub coalition: u8,
    /// COIN-Controlled Pop + Patronage.
    pub government: u8,
    /// Opposition + Taliban Bases.
    pub taliban: u8,
    /// Uncontrolled Pop.
    pub warlords_pop: u8,
    /// Warlord Resources.
    pub warlords_resources: u8,
}

/// A scenario's opening position and deck preparation (2.1).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Scenario {
    /// Key, e.g. `standin`.
    pub name: String,
    /// Title.
    pub title: String,
    /// Piles the Events are dealt into, one Propaganda card shuffled into each.
    pub piles: u8,
    /// Events in each pile.
    pub events_per_pile: u8,
    /// The short game's deck (the `short` option): its piles and Events in
    /// each, `(0, 0)` when the data define none.
    pub short: (u8, u8),
    /// Starting Aid.
    pub aid: u8,
    /// Starting Resources, by faction (Coalition's is unused: 3.1).
    pub resources: [u8; 4],
    /// Starting Patronage.
    pub patronage: u8,
    /// Starting Islamabad box (0 Hostility .. 4 Sponsorship).
    pub islamabad: u8,
    /// Pieces placed, by space.
    pub pieces: BTreeMap<SpaceNo, Pieces>,
    /// Support levels other than Neutral.
    pub support: BTreeMap<SpaceNo, Support>,
}

/// Everything printed, loaded and checked.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Data {
    /// Hash of the four files, pinned in the record.
    pub hash: Digest,
    /// The ruleset version these data are played at (`super::VERSION`, or
    /// an earlier one from `Adp::at_version`): not data, so not hashed or
    /// serialized; kept here because every rule that a version switches on
    /// already has the data in hand.
    #[serde(skip)]
    pub version: u32,
    /// The spaces: 25 non-LoC spaces, then the LoCs.
    pub spaces: Vec<Space>,
    /// Pieces of each type in the game (1.2).
    pub inventory: Pieces,
    /// Track limits.
    pub limits: Limits,
    /// Victory thresholds.
    pub victory: Thresholds,
    /// Islamabad box names, Hostility first (6.6.1).
    pub islamabad: Vec<String>,
    /// The Deception markers (7.3 option).
    pub deception: DeceptionMix,
    /// The cards, by number (index = number - 1).
    pub cards: Vec<Card>,
    /// The scenario.
    pub scenario: Scenario,
    /// Tagged values by provenance kind.
    pub provenance: BTreeMap<String, usize>,
    /// How the umpire plays each faction as a Non-player (8.x), by faction.
    pub nonplayer: [NpPriorities; 4],
    /// The Random Spaces table (8.2), in the order of its walk: the tan
    /// die's three columns, each of three trios, top to bottom (27 entries,
    /// Kabul three times).
    pub random_spaces: Vec<SpaceNo>,
    /// Halo Event Instructions (8.4.1), by card and faction: none in the
    /// sources; a club adds `[[halo]]` records to `nonplayer.toml`.
    pub halos: Vec<Halo>,
}

/// One halo Event Instruction (8.4.1): what a Non-player does with a card
/// whose faction symbol carries a gray halo for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Halo {
    /// The card's number.
    pub card: CardNo,
    /// The faction whose symbol has the halo.
    pub faction: Faction,
    /// What it does instead of the 8.1 Event choice and 8.4 Dual Use.
    pub instruction: HaloDo,
}

/// A halo instruction's effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HaloDo {
    /// Skip the Event: Operations instead.
    Operations,
    /// Take the Event, this side of it (`true`: shaded), overriding Dual Use.
    Event(bool),
}

/// A Non-player faction's priorities (8.x): the flowcharts are missing, so
/// these are reconstructed and stand-in data (`games/adp/nonplayer.toml`),
/// a club's reading of the printed flowcharts replacing them without code.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NpPriorities {
    /// The flowchart's Operation boxes, best first, from the `[[flow]]`
    /// records: `"OPERATION"`, or `"OPERATION SPECIAL-ACTIVITY"` for a box
    /// calling for that Special Activity with it. A candidate ranks at the
    /// first record it matches; unmatched candidates come last.
    pub flow: Vec<String>,
    /// Special Activity keys, best first.
    pub sas: Vec<String>,
    /// Does the faction consider the Event before its Operations (8.1)?
    pub event: bool,
    /// The order of the further spaces an Operation widens to (8.1
    /// GUIDELINES, ruling A50).
    pub spaces: Vec<SpaceTerm>,
    /// The order of the spaces its Civic Action or Sharia goes to (6.4,
    /// ruling A49).
    pub support: Vec<SpaceTerm>,
    /// The order of the destinations of its optional Redeploy (6.5: the
    /// Coalition's Troops, ruling A51); empty, `spaces` serves.
    pub redeploy: Vec<SpaceTerm>,
}

/// One term of a Non-player's space order: the terms sort in turn, and map
/// order breaks what is still equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpaceTerm {
    /// Provinces and Kabul before LoCs.
    Provinces,
    /// The highest Pop first.
    Pop,
    /// The highest Econ first.
    Econ,
    /// In the order of the Random Spaces table (8.2).
    Table,
    /// This space before every other.
    Space(SpaceNo),
}

impl SpaceTerm {
    /// The term's vocabulary, for errors.
    pub const WORDS: &'static str = "provinces, pop, econ, table or a space's key";
}

impl NpPriorities {
    /// The rank of an Operation or Special Activity key (lower is better;
    /// unlisted keys come last).
    pub fn rank(list: &[String], key: &str) -> usize {
        list.iter().position(|k| k == key).unwrap_or(list.len())
    }

    /// The rank of Operation `op` with Special Activity `sa` in the flow:
    /// its first matching record (lower is better).
    pub fn flow_rank(&self, op: &str, sa: Option<&str>) -> usize {
        let pair = sa.map(|k| format!("{op} {k}"));
        self.flow
            .iter()
            .position(|r| r == op || Some(r) == pair.as_ref())
            .unwrap_or(self.flow.len())
    }
}

impl Data {
    /// `spaces` sorted by the `terms` (then map order), in the position `st`.
    pub fn sort_spaces(
        &self,
        st: &super::state::State,
        terms: &[SpaceTerm],
        spaces: &mut [SpaceNo],
    ) {
        let table = |s: SpaceNo| {
            self.random_spaces
                .iter()
                .position(|x| *x == s)
                .unwrap_or(usize::MAX)
        };
        let key = |s: SpaceNo, t: &SpaceTerm| -> i64 {
            match t {
                SpaceTerm::Provinces => i64::from(self[s].is_loc()),
                SpaceTerm::Pop => -i64::from(st.pop(self, s)),
                SpaceTerm::Econ => -i64::from(self[s].econ),
                SpaceTerm::Table => table(s) as i64,
                SpaceTerm::Space(x) => i64::from(*x != s),
            }
        };
        spaces.sort_by_cached_key(|s| (terms.iter().map(|t| key(*s, t)).collect::<Vec<i64>>(), *s));
    }
}

impl Index<SpaceNo> for Data {
    type Output = Space;
    fn index(&self, s: SpaceNo) -> &Space {
        &self.spaces[s.index()]
    }
}

/// Normalises a space name for lookup: lower case, letters and digits only.
pub fn norm(s: &str) -> String {
    norm_chars(s).collect()
}

/// [`norm`]'s characters, without building the string.
fn norm_chars(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
}

impl Data {
    /// The data over a club's files (embedded where not replaced).
    pub fn from_files(files: &Files) -> Result<Data, DataErrors> {
        Data::load_with(
            files.get("map.toml"),
            files.get("forces.toml"),
            files.get("cards.toml"),
            files.get("setup.toml"),
            files.get("nonplayer.toml"),
        )
    }

    /// The embedded data.
    pub fn embedded() -> Result<Data, DataErrors> {
        Data::load(MAP_TOML, FORCES_TOML, CARDS_TOML, SETUP_TOML)
    }

    /// Reads and checks the four files.
    pub fn load(map: &str, forces: &str, cards: &str, setup: &str) -> Result<Data, DataErrors> {
        Data::load_with(map, forces, cards, setup, NONPLAYER_TOML)
    }

    /// The data over five files' text, the Non-player priorities included,
    /// with every check of the printed game ([`Scope::Printed`]).
    pub fn load_with(
        map: &str,
        forces: &str,
        cards: &str,
        setup: &str,
        nonplayer: &str,
    ) -> Result<Data, DataErrors> {
        Data::read([map, forces, cards, setup, nonplayer], Scope::Printed)
    }

    /// A test fixture over `files` (the embedded text where a file is not
    /// given): the same loader as a club's data, checked for consistency
    /// only ([`Scope::Fixture`]), so that a rules test stands on a small
    /// hand-built map with its own set-up, cards and Non-player file.
    pub fn fixture(files: &Files) -> Result<Data, DataErrors> {
        Data::read(
            [
                files.get("map.toml"),
                files.get("forces.toml"),
                files.get("cards.toml"),
                files.get("setup.toml"),
                files.get("nonplayer.toml"),
            ],
            Scope::Fixture,
        )
    }

    /// Reads the five files (map, forces, cards, set-up, Non-player) and
    /// checks them as `scope` asks.
    fn read(texts: [&str; 5], scope: Scope) -> Result<Data, DataErrors> {
        let [map, forces, cards, setup, nonplayer] = texts;
        let hash = prov::data_hash(HASH_DOMAIN, &[map, forces, cards, setup, nonplayer]);
        let mut r = Reader::default();
        let (Some(tm), Some(tf), Some(tc), Some(ts), Some(tn)) = (
            prov::parse_toml(&mut r, "map.toml", map),
            prov::parse_toml(&mut r, "forces.toml", forces),
            prov::parse_toml(&mut r, "cards.toml", cards),
            prov::parse_toml(&mut r, "setup.toml", setup),
            prov::parse_toml(&mut r, "nonplayer.toml", nonplayer),
        ) else {
            return Err(r.errors.into());
        };
        let spaces = read_map(&mut r, &tm);
        let (inventory, limits, victory, islamabad) = read_forces(&mut r, &tf);
        let deception = read_deception(&mut r, &tf);
        let cards = cards::read(&mut r, &tc);
        let nonplayer = read_nonplayer(&mut r, &tn, &spaces);
        let random_spaces = read_random_spaces(&mut r, &tn, &spaces, scope);
        let halos = read_halos(&mut r, &tn);
        let mut d = Data {
            hash,
            version: super::VERSION,
            spaces,
            inventory,
            limits,
            victory,
            islamabad,
            deception,
            cards,
            scenario: Scenario {
                name: String::new(),
                title: String::new(),
                piles: 0,
                events_per_pile: 0,
                short: (0, 0),
                aid: 0,
                resources: [0; 4],
                patronage: 0,
                islamabad: 0,
                pieces: BTreeMap::new(),
                support: BTreeMap::new(),
            },
            provenance: BTreeMap::new(),
            nonplayer,
            random_spaces,
            halos,
        };
        if let Some(s) = read_setup(&mut r, &ts, &d) {
            d.scenario = s;
        }
        d.provenance = prov::count_by_provenance(&r.tags);
        if r.errors.is_empty() {
            r.errors = check_in(&d, scope);
        }
        if r.errors.is_empty() {
            Ok(d)
        } else {
            Err(r.errors.into())
        }
    }

    /// The space called `name` (key or name, any case and punctuation; a LoC
    /// also by its Towns in either order).
    pub fn find(&self, name: &str) -> Option<SpaceNo> {
        let n = norm(name);
        let n = n
            .strip_prefix("loc")
            .filter(|r| !r.is_empty())
            .unwrap_or(&n);
        self.spaces
            .iter()
            .position(|s| {
                // Compared as they stream: a lookup per word of every order
                // builds no strings.
                norm_chars(&s.key).eq(n.chars())
                    || norm_chars(&s.name).eq(n.chars())
                    || (s.towns.len() == 2
                        && norm_chars(&s.towns[1])
                            .chain(norm_chars(&s.towns[0]))
                            .eq(n.chars()))
            })
            .map(|i| SpaceNo(i as u8))
    }

    /// Every space id.
    pub fn ids(&self) -> impl Iterator<Item = SpaceNo> + '_ {
        (0..self.spaces.len()).map(|i| SpaceNo(i as u8))
    }

    /// Kabul.
    pub fn kabul(&self) -> SpaceNo {
        self.ids()
            .find(|s| self[*s].is_city())
            .unwrap_or(SpaceNo(0))
    }

    /// Are `a` and `b` adjacent (1.3)?
    pub fn adjacent(&self, a: SpaceNo, b: SpaceNo) -> bool {
        self[a].adjacent.binary_search(&b).is_ok()
    }

    /// The card numbered `n`.
    pub fn card(&self, n: CardNo) -> Option<&Card> {
        self.cards.get(usize::from(n.0).wrapping_sub(1))
    }

    /// The pieces not placed by the set-up: the opening Available boxes (1.4.1).
    pub fn available_at_start(&self) -> Pieces {
        let mut a = self.inventory;
        for p in self.scenario.pieces.values() {
            for k in Piece::ALL {
                a[k] = a[k].saturating_sub(p[k]);
            }
        }
        a
    }
}

fn space_kind(s: &str) -> Option<SpaceKind> {
    match s {
        "city" => Some(SpaceKind::City),
        "province" => Some(SpaceKind::Province),
        "pakistan" => Some(SpaceKind::Pakistan),
        _ => None,
    }
}

fn read_map(r: &mut Reader, t: &Table) -> Vec<Space> {
    let mut spaces = Vec::new();
    let mut names: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for st in prov::tables(r, t, "space", "map.toml") {
        let mut rec = r.rec(format!("map.space[{}]", spaces.len()), st);
        let key = r.string(&mut rec, "id").unwrap_or_default();
        let name = r.string(&mut rec, "name").unwrap_or_default();
        let kind = r.string(&mut rec, "kind").unwrap_or_default();
        let pop = r.small(&mut rec, "pop").unwrap_or(0);
        let pashtun = r.boolean(&mut rec, "pashtun").unwrap_or(false);
        let terrain = match r.opt_string(&mut rec, "terrain").as_deref() {
            None => None,
            Some("mountain") => Some(Terrain::Mountain),
            Some("plains") => Some(Terrain::Plains),
            Some(x) => {
                r.error(format!(
                    "map.space {key}: terrain {x:?} is not mountain or plains"
                ));
                None
            }
        };
        let adj = r.strings(&mut rec, "adjacent", true);
        r.finish(rec);
        let kind = space_kind(&kind).unwrap_or_else(|| {
            r.error(format!(
                "map.space {key}: kind {kind:?} is not city, province or pakistan"
            ));
            SpaceKind::Province
        });
        if kind != SpaceKind::City && terrain.is_none() {
            r.error(format!(
                "map.space {key}: a Province is Mountain or Plains (1.3.2)"
            ));
        }
        spaces.push(Space {
            key,
            name,
            kind,
            pop,
            pashtun,
            terrain,
            econ: 0,
            towns: Vec::new(),
            adjacent: Vec::new(),
        });
        names.push((adj, Vec::new()));
    }
    for lt in prov::tables(r, t, "loc", "map.toml") {
        let mut rec = r.rec(format!("map.loc[{}]", spaces.len()), lt);
        let key = r.string(&mut rec, "id").unwrap_or_default();
        let name = r.string(&mut rec, "name").unwrap_or_default();
        let econ = r.small(&mut rec, "econ").unwrap_or(0);
        let towns = r.strings(&mut rec, "towns", true);
        let adj = r.strings(&mut rec, "adjacent", true);
        let links = r.strings(&mut rec, "links", true);
        r.finish(rec);
        spaces.push(Space {
            key,
            name,
            kind: SpaceKind::Loc,
            pop: 0,
            pashtun: false,
            terrain: None,
            econ,
            towns,
            adjacent: Vec::new(),
        });
        names.push((adj, links));
    }
    link(r, &mut spaces, &names);
    spaces
}

/// Resolves adjacency names. A LoC's `adjacent` lists the spaces it touches
/// (listed at the LoC only); every other edge is listed at both ends (1.3).
fn link(r: &mut Reader, spaces: &mut [Space], names: &[(Vec<String>, Vec<String>)]) {
    let index: BTreeMap<String, usize> = spaces
        .iter()
        .enumerate()
        .map(|(i, s)| (s.key.clone(), i))
        .collect();
    for (i, (adj, links)) in names.iter().enumerate() {
        for n in adj.iter().chain(links) {
            let Some(&j) = index.get(n) else {
                r.error(format!("map: {} lists unknown space {n:?}", spaces[i].key));
                continue;
            };
            if i == j {
                r.error(format!(
                    "map: {} is listed as its own neighbour",
                    spaces[i].key
                ));
                continue;
            }
            let one_sided = spaces[i].is_loc() && !spaces[j].is_loc();
            let back = &spaces[i].key;
            if !one_sided && !names[j].0.contains(back) && !names[j].1.contains(back) {
                r.error(format!(
                    "map: {} lists {} but not the other way round (adjacency is symmetric, 1.3)",
                    spaces[i].key, spaces[j].key
                ));
            }
            for (a, b) in [(i, j), (j, i)] {
                let id = SpaceNo(b as u8);
                if !spaces[a].adjacent.contains(&id) {
                    spaces[a].adjacent.push(id);
                }
            }
        }
    }
    for s in spaces.iter_mut() {
        s.adjacent.sort();
    }
}

type Forces = (Pieces, Limits, Thresholds, Vec<String>);

fn read_forces(r: &mut Reader, t: &Table) -> Forces {
    let mut inv = Pieces::default();
    for (i, pt) in prov::tables(r, t, "piece", "forces.toml")
        .into_iter()
        .enumerate()
    {
        let mut rec = r.rec(format!("forces.piece[{i}]"), pt);
        let f = r.string(&mut rec, "faction").unwrap_or_default();
        let k = r.string(&mut rec, "kind").unwrap_or_default();
        let n = r.small(&mut rec, "count").unwrap_or(0);
        r.finish(rec);
        match (Faction::parse(&f), Kind::parse(&k)) {
            (Some(f), Some(k)) => match Piece::of(f, k) {
                Some(p) => inv[p] = inv[p].saturating_add(n),
                None => r.error(format!("forces: the {} have no {}", f.name(), k.key())),
            },
            _ => r.error(format!(
                "forces.piece[{i}]: unknown faction {f:?} or kind {k:?}"
            )),
        }
    }
    let mut lim = Limits {
        resources_max: 75,
        aid_max: 75,
        patronage_max: 40,
        terror_markers: 30,
        returnees: 6,
        bases_per_space: 2,
    };
    if let Some(lt) = prov::table(r, t, "limits", "forces.toml") {
        let mut rec = r.rec("forces.limits", lt);
        lim.resources_max = r.small(&mut rec, "resources_max").unwrap_or(75);
        lim.aid_max = r.small(&mut rec, "aid_max").unwrap_or(75);
        lim.patronage_max = r.small(&mut rec, "patronage_max").unwrap_or(40);
        lim.terror_markers = r.small(&mut rec, "terror_markers").unwrap_or(30);
        lim.returnees = r.small(&mut rec, "returnees").unwrap_or(6);
        lim.bases_per_space = r.small(&mut rec, "bases_per_space").unwrap_or(2);
        r.finish(rec);
    }
    let mut v = Thresholds {
        coalition: 30,
        government: 35,
        taliban: 20,
        warlords_pop: 15,
        warlords_resources: 40,
    };
    if let Some(vt) = prov::table(r, t, "victory", "forces.toml") {
        let mut rec = r.rec("forces.victory", vt);
        v.coalition = r.small(&mut rec, "coalition").unwrap_or(30);
        v.government = r.small(&mut rec, "government").unwrap_or(35);
        v.taliban = r.small(&mut rec, "taliban").unwrap_or(20);
        v.warlords_pop = r.small(&mut rec, "warlords_pop").unwrap_or(15);
        v.warlords_resources = r.small(&mut rec, "warlords_resources").unwrap_or(40);
        r.finish(rec);
    }
    let mut boxes = Vec::new();
    if let Some(it) = prov::table(r, t, "islamabad", "forces.toml") {
        let mut rec = r.rec("forces.islamabad", it);
        boxes = r.strings(&mut rec, "boxes", true);
        r.finish(rec);
    }
    (inv, lim, v, boxes)
}

/// `forces.toml`'s `[deception]`: the 7.3 option's markers. A file without
/// it has none, and the option cannot be chosen.
fn read_deception(r: &mut Reader, t: &Table) -> DeceptionMix {
    let Some(dt) = t.get("deception").and_then(|v| v.as_table()) else {
        return DeceptionMix::default();
    };
    let mut rec = r.rec("forces.deception", dt);
    let m = DeceptionMix {
        markers: r.small(&mut rec, "markers").unwrap_or(0),
        per_player: r.small(&mut rec, "per_player").unwrap_or(0),
        empty_threat: r.small(&mut rec, "empty_threat").unwrap_or(0),
        hidden_agenda: r.small(&mut rec, "hidden_agenda").unwrap_or(0),
        hidden_asset: r.small(&mut rec, "hidden_asset").unwrap_or(0),
    };
    r.finish(rec);
    let sum = u32::from(m.empty_threat) + u32::from(m.hidden_agenda) + u32::from(m.hidden_asset);
    if sum != u32::from(m.markers) {
        r.error(format!(
            "forces.deception: the kinds add up to {sum}, not the {} markers (1.9)",
            m.markers
        ));
    }
    // 7.3: up to 4 players draw; enough must be left to draw from.
    if u32::from(m.per_player) * 4 > u32::from(m.markers) {
        r.error(format!(
            "forces.deception: 4 players drawing {} each need more than {} markers (7.3)",
            m.per_player, m.markers
        ));
    }
    m
}

/// The top-level tables `nonplayer.toml` may hold.
const NP_TABLES: [&str; 7] = [
    "coalition",
    "government",
    "taliban",
    "warlords",
    "flow",
    "random_spaces",
    "halo",
];

/// `nonplayer.toml`: one table per faction (its Special Activities, its
/// Event choice and its space orders), then the `[[flow]]` records, each
/// checked against the faction's own Operations and Special Activities
/// (3.0, 4.0) and the map.
fn read_nonplayer(r: &mut Reader, t: &Table, spaces: &[Space]) -> [NpPriorities; 4] {
    for k in t.keys().filter(|k| !NP_TABLES.contains(&k.as_str())) {
        r.error(format!("nonplayer.toml: unknown table `{k}`"));
    }
    let mut out: [NpPriorities; 4] = Default::default();
    for f in Faction::ALL {
        let Some(ft) = prov::table(r, t, f.key(), "nonplayer.toml") else {
            continue;
        };
        let mut rec = r.rec(format!("nonplayer.{}", f.key()), ft);
        let sas = r.strings(&mut rec, "sas", true);
        let event = r.boolean(&mut rec, "event").unwrap_or(true);
        let mut order = |r: &mut Reader, key: &str| {
            let words = r.strings(&mut rec, key, false);
            space_terms(r, &format!("nonplayer.{}.{key}", f.key()), &words, spaces)
        };
        let mut spaces_order = order(r, "spaces");
        let mut support = order(r, "support");
        let redeploy = order(r, "redeploy");
        let legacy = legacy_flow(r, &mut rec);
        r.finish(rec);
        if !legacy.is_empty() {
            // The file before `[[flow]]` and the space orders: the orders
            // the code then fixed (rulings A49, A50).
            spaces_order = vec![
                SpaceTerm::Provinces,
                SpaceTerm::Pop,
                SpaceTerm::Econ,
                SpaceTerm::Table,
            ];
            support = if f == Faction::Warlords {
                Vec::new()
            } else {
                vec![SpaceTerm::Pop]
            };
        }
        for s in &sas {
            if !super::orders::SaKind::ALL.iter().any(|x| x.key() == s) {
                r.error(format!(
                    "nonplayer.{}: {s:?} is not a Special Activity (4.0)",
                    f.key()
                ));
            }
        }
        out[f.index()] = NpPriorities {
            flow: legacy,
            sas,
            event,
            spaces: spaces_order,
            support,
            redeploy,
        };
    }
    read_flow(r, t, &mut out);
    out
}

/// The flow of a `nonplayer.toml` written before `[[flow]]` (embedded up to
/// 3 December 2026, kept in `games/adp/earlier/` for the records made with
/// it): `first`, the pairs taken before the ranking, then `ops`, the
/// Operations best first, which ranks every candidate as that file's code
/// did. Empty for a file in today's form (no `ops`).
fn legacy_flow(r: &mut Reader, rec: &mut umpire_core::data::Rec) -> Vec<String> {
    if !rec.t.contains_key("ops") {
        return Vec::new();
    }
    let ops = r.strings(rec, "ops", true);
    let first = r.strings(rec, "first", false);
    first.into_iter().chain(ops).collect()
}

/// A space order's words (`SpaceTerm`): the vocabulary or a space's key.
fn space_terms(r: &mut Reader, path: &str, words: &[String], spaces: &[Space]) -> Vec<SpaceTerm> {
    let mut out = Vec::new();
    for w in words {
        let term = match w.as_str() {
            "provinces" => Some(SpaceTerm::Provinces),
            "pop" => Some(SpaceTerm::Pop),
            "econ" => Some(SpaceTerm::Econ),
            "table" => Some(SpaceTerm::Table),
            k => spaces
                .iter()
                .position(|s| s.key == k)
                .map(|i| SpaceTerm::Space(SpaceNo(i as u8))),
        };
        match term {
            Some(t) => out.push(t),
            None => r.error(format!("{path}: {w:?} is not {} (8.2)", SpaceTerm::WORDS)),
        }
    }
    out
}

/// `nonplayer.toml` `[[flow]]`: `faction` and `do` = "OPERATION" or
/// "OPERATION SPECIAL-ACTIVITY", in the faction's order of preference.
fn read_flow(r: &mut Reader, t: &Table, out: &mut [NpPriorities; 4]) {
    use super::orders::Op;
    for (i, ft) in prov::tables(r, t, "flow", "nonplayer.toml")
        .into_iter()
        .enumerate()
    {
        let mut rec = r.rec(format!("nonplayer.flow[{i}]"), ft);
        let faction = r.string(&mut rec, "faction");
        let what = r.string(&mut rec, "do").unwrap_or_default();
        r.finish(rec);
        let Some(f) = faction.as_deref().and_then(Faction::parse) else {
            r.error(format!(
                "nonplayer.flow[{i}]: faction {faction:?} is not a faction (1.5)"
            ));
            continue;
        };
        let mut words = what.split_whitespace();
        let (op, sa) = (words.next().unwrap_or(""), words.next());
        let pri = &mut out[f.index()];
        let op_ok = Op::ALL
            .iter()
            .any(|x| x.key() == op && x.is_coin() == f.is_coin());
        if !op_ok {
            r.error(format!(
                "nonplayer.flow[{i}]: {op:?} is not a {} Operation (3.0)",
                f.name()
            ));
        }
        if sa.is_some_and(|k| !pri.sas.iter().any(|x| x == k)) || words.next().is_some() {
            r.error(format!(
                "nonplayer.flow[{i}]: {what:?} is not \"OPERATION [SPECIAL-ACTIVITY]\" of the {} sas (4.0)",
                f.name()
            ));
        }
        pri.flow
            .push(what.split_whitespace().collect::<Vec<_>>().join(" "));
    }
}

/// `nonplayer.toml` `[[halo]]`: `card`, `faction`, `do` = "operations",
/// "unshaded" or "shaded" (8.4.1).
fn read_halos(r: &mut Reader, t: &Table) -> Vec<Halo> {
    let mut out = Vec::new();
    for (i, ht) in prov::tables(r, t, "halo", "nonplayer.toml")
        .into_iter()
        .enumerate()
    {
        let mut rec = r.rec(format!("nonplayer.halo[{i}]"), ht);
        let card = r.small(&mut rec, "card");
        let faction = r
            .string(&mut rec, "faction")
            .and_then(|f| Faction::parse(&f));
        let instruction = match r.string(&mut rec, "do").as_deref() {
            Some("operations") => Some(HaloDo::Operations),
            Some("unshaded") => Some(HaloDo::Event(false)),
            Some("shaded") => Some(HaloDo::Event(true)),
            _ => None,
        };
        r.finish(rec);
        match (card, faction, instruction) {
            (Some(card), Some(faction), Some(instruction)) => out.push(Halo {
                card: CardNo(card),
                faction,
                instruction,
            }),
            _ => r.error(format!(
                "nonplayer.halo[{i}]: card N, faction, do = operations|unshaded|shaded (8.4.1)"
            )),
        }
    }
    out
}

/// `nonplayer.toml` `[random_spaces]`: three columns of nine spaces; every
/// Province (Pakistan included) once and Kabul three times (8.2). A
/// fixture's table may be absent (an equal-chance roll then picks among
/// equal spaces, 8.2 PLAY NOTE) or hold its few spaces in any columns.
fn read_random_spaces(r: &mut Reader, t: &Table, spaces: &[Space], scope: Scope) -> Vec<SpaceNo> {
    let printed = scope == Scope::Printed;
    if !printed && !t.contains_key("random_spaces") {
        return Vec::new();
    }
    let Some(rt) = prov::table(r, t, "random_spaces", "nonplayer.toml") else {
        return Vec::new();
    };
    let mut rec = r.rec("nonplayer.random_spaces", rt);
    let mut out = Vec::new();
    for col in ["tan_1_2", "tan_3_4", "tan_5_6"] {
        let keys = r.strings(&mut rec, col, true);
        if printed && keys.len() != 9 {
            r.error(format!(
                "nonplayer.random_spaces.{col}: 9 spaces (3 trios), not {} (8.2)",
                keys.len()
            ));
        }
        for k in keys {
            match spaces.iter().position(|s| s.key == k && !s.is_loc()) {
                Some(i) => out.push(SpaceNo(i as u8)),
                None => r.error(format!(
                    "nonplayer.random_spaces.{col}: {k:?} is not a Province or Kabul (8.2)"
                )),
            }
        }
    }
    r.finish(rec);
    if !printed {
        return out;
    }
    for (i, s) in spaces.iter().enumerate().filter(|(_, s)| !s.is_loc()) {
        let n = out.iter().filter(|x| x.index() == i).count();
        let want = if s.is_city() { 3 } else { 1 };
        if n != want {
            r.error(format!(
                "nonplayer.random_spaces: {} appears {n} times, not {want} (8.2)",
                s.key
            ));
        }
    }
    out
}

fn read_setup(r: &mut Reader, t: &Table, d: &Data) -> Option<Scenario> {
    let st = prov::table(r, t, "scenario", "setup.toml")?;
    let mut rec = r.rec("setup.scenario", st);
    let name = r.string(&mut rec, "name").unwrap_or_default();
    let title = r.string(&mut rec, "title").unwrap_or_default();
    let piles = r.small(&mut rec, "piles").unwrap_or(0);
    let events_per_pile = r.small(&mut rec, "events_per_pile").unwrap_or(0);
    let short = (
        r.opt_small(&mut rec, "short_piles"),
        r.opt_small(&mut rec, "short_events_per_pile"),
    );
    let aid = r.small(&mut rec, "aid").unwrap_or(0);
    let gov = r.small(&mut rec, "government").unwrap_or(0);
    let tal = r.small(&mut rec, "taliban").unwrap_or(0);
    let war = r.small(&mut rec, "warlords").unwrap_or(0);
    let patronage = r.small(&mut rec, "patronage").unwrap_or(0);
    let isl = r.string(&mut rec, "islamabad").unwrap_or_default();
    r.finish(rec);
    let islamabad = d
        .islamabad
        .iter()
        .position(|b| *b == isl)
        .unwrap_or_else(|| {
            r.error(format!(
                "setup.scenario: islamabad {isl:?} is not an Islamabad box"
            ));
            0
        }) as u8;
    let mut pieces = BTreeMap::new();
    let mut support = BTreeMap::new();
    for (i, at) in prov::tables(r, t, "at", "setup.toml")
        .into_iter()
        .enumerate()
    {
        let mut rec = r.rec(format!("setup.at[{i}]"), at);
        let space = r.string(&mut rec, "space").unwrap_or_default();
        let Some(id) = d.find(&space) else {
            r.error(format!("setup.at[{i}]: unknown space {space:?}"));
            continue;
        };
        if let Some(s) = r.opt_string(&mut rec, "support") {
            match Support::parse(&s) {
                Some(s) => {
                    support.insert(id, s);
                }
                None => r.error(format!("setup.at[{i}]: support {s:?}")),
            }
        }
        let mut p = Pieces::default();
        for key in rec.t.keys().cloned().collect::<Vec<_>>() {
            let Some((f, k)) = key.split_once('_') else {
                continue;
            };
            let (Some(f), Some(k)) = (Faction::parse(f), Kind::parse(k)) else {
                continue;
            };
            let n = r.opt_small(&mut rec, &key);
            match Piece::of(f, k) {
                Some(pc) => p[pc] = n,
                None => r.error(format!(
                    "setup.at[{i}]: the {} have no {}",
                    f.name(),
                    k.key()
                )),
            }
        }
        r.finish(rec);
        pieces.insert(id, p);
    }
    Some(Scenario {
        name,
        title,
        piles,
        events_per_pile,
        short,
        aid,
        resources: [0, gov, tal, war],
        patronage,
        islamabad,
        pieces,
        support,
    })
}

/// Which checks a data set must pass, beyond being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The printed game's data (the embedded files, a club's replacements,
    /// `umpire data check adp`): every check, the counts the rulebook fixes
    /// included (Econ 12, Afghan Pop 25, 158 pieces, 3 Pakistan spaces, one
    /// City, 78 cards, the Random Spaces table's 27 entries).
    Printed,
    /// A test fixture: a small hand-built map with its own set-up, cards and
    /// Non-player file. Checked for consistency (adjacency symmetric, Pop and
    /// Pashtun in range, the set-up within stacking and the inventory, the
    /// deck's piles within the cards, every name known), not for the
    /// printed game's counts.
    Fixture,
}

/// The invariants `umpire data check adp` checks, beyond reading: every
/// problem found.
pub fn check(d: &Data) -> Vec<String> {
    check_in(d, Scope::Printed)
}

/// The checks `scope` asks for: every problem found.
pub fn check_in(d: &Data, scope: Scope) -> Vec<String> {
    let mut e = Vec::new();
    if scope == Scope::Printed {
        e.extend(printed_counts(d));
    }
    for (i, s) in d.spaces.iter().enumerate() {
        if s.is_loc() && s.pashtun {
            e.push(format!("{}: LoCs are never Pashtun (1.3.4)", s.name));
        }
        if !s.is_loc() && s.pop > 3 {
            e.push(format!("{}: Pop {} is above 3 (1.3.2)", s.name, s.pop));
        }
        for a in &s.adjacent {
            if !d[*a].adjacent.contains(&SpaceNo(i as u8)) {
                e.push(format!(
                    "{} ~ {} is not symmetric (1.3)",
                    s.name, d[*a].name
                ));
            }
        }
    }
    if d.islamabad.len() != 5 {
        e.push(format!(
            "{} Islamabad boxes, not 5 (6.6.1)",
            d.islamabad.len()
        ));
    }
    e.extend(cards::check(&d.cards, scope == Scope::Printed));
    e.extend(check_setup(d));
    e
}

/// The counts the rulebook fixes for the printed game (1.2, 1.3).
fn printed_counts(d: &Data) -> Vec<String> {
    let mut e = Vec::new();
    let econ: u32 = d.spaces.iter().map(|s| u32::from(s.econ)).sum();
    if econ != 12 {
        e.push(format!("LoC Econ totals {econ}, not 12 (6.3.1)"));
    }
    let pop: u32 = d
        .spaces
        .iter()
        .filter(|s| s.is_afghan())
        .map(|s| u32::from(s.pop))
        .sum();
    if pop != 25 {
        e.push(format!("Afghan Population totals {pop}, not 25 (1.3.2)"));
    }
    if d.inventory.total() != 158 {
        e.push(format!("{} pieces, not 158 (1.2)", d.inventory.total()));
    }
    let pak = d.spaces.iter().filter(|s| s.is_pakistan()).count();
    if pak != 3 {
        e.push(format!("{pak} Pakistan spaces, not 3 (1.3.5)"));
    }
    if d.spaces.iter().filter(|s| s.is_city()).count() != 1 {
        e.push("there must be exactly one City, Kabul (1.3.3)".into());
    }
    e
}

fn check_setup(d: &Data) -> Vec<String> {
    let mut e = Vec::new();
    let sc = &d.scenario;
    let mut used = Pieces::default();
    for (id, p) in &sc.pieces {
        let s = &d[*id];
        for k in Piece::ALL {
            used[k] = used[k].saturating_add(p[k]);
        }
        if s.is_pakistan() && p.total() > p.of(Faction::Taliban) {
            e.push(format!("set-up: non-Taliban pieces in {} (1.4.2)", s.name));
        }
        if s.is_loc() && p.bases() > 0 {
            e.push(format!("set-up: a Base on {} (1.4.2)", s.name));
        }
        if p.bases() > u32::from(d.limits.bases_per_space) {
            e.push(format!("set-up: {} Bases in {} (1.4.2)", p.bases(), s.name));
        }
    }
    for k in Piece::ALL {
        if used[k] > d.inventory[k] {
            e.push(format!(
                "set-up places {} {:?}, the game has {} (1.4.1)",
                used[k], k, d.inventory[k]
            ));
        }
    }
    for (id, _) in sc.support.iter().filter(|(_, s)| **s != Support::Neutral) {
        let s = &d[*id];
        if !s.is_afghan() || s.pop == 0 {
            e.push(format!(
                "set-up: {} may not have Support or Opposition (1.6)",
                s.name
            ));
        }
    }
    e.extend(check_deck(d, "", (sc.piles, sc.events_per_pile)));
    if sc.short != (0, 0) {
        e.extend(check_deck(d, "the short game's ", sc.short));
    }
    e
}

/// A deck preparation's piles fit the cards (2.1).
fn check_deck(d: &Data, which: &str, (piles, per_pile): (u8, u8)) -> Vec<String> {
    let mut e = Vec::new();
    let events = d.cards.iter().filter(|c| !c.is_propaganda()).count();
    let props = d.cards.len() - events;
    if usize::from(piles) > props {
        e.push(format!(
            "set-up: {which}{piles} piles but {props} Propaganda cards"
        ));
    }
    if usize::from(piles) * usize::from(per_pile) > events {
        e.push(format!(
            "set-up: {which}piles need more Event cards than the deck has"
        ));
    }
    if piles == 0 {
        e.push(format!("set-up: {which}deck needs at least one pile"));
    }
    e
}

/// What `umpire data check adp` prints for data that passed every check.
pub fn summary(d: &Data) -> DataCheck {
    let count = |k: SpaceKind| d.spaces.iter().filter(|s| s.kind == k).count();
    let edges: usize = d.spaces.iter().map(|s| s.adjacent.len()).sum::<usize>() / 2;
    let kinds = cards::kind_counts(&d.cards);
    DataCheck {
        hash: d.hash,
        facts: vec![
            format!(
                "map: {} Provinces, {} City, {} Pakistan, {} LoCs, {edges} adjacencies (symmetric); Econ 12, Afghan Pop 25",
                count(SpaceKind::Province),
                count(SpaceKind::City),
                count(SpaceKind::Pakistan),
                count(SpaceKind::Loc)
            ),
            format!("forces: {} pieces", d.inventory.total()),
            format!(
                "cards: {}",
                kinds
                    .iter()
                    .map(|(k, n)| format!("{n} {k}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!(
                "scenario {}: {} piles of {} Events + 1 Propaganda; short game {} piles of {}",
                d.scenario.name,
                d.scenario.piles,
                d.scenario.events_per_pile,
                d.scenario.short.0,
                d.scenario.short.1
            ),
        ],
        by_provenance: d.provenance.clone(),
    }
}
