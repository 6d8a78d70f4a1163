//! The game state: where every counter is, the treasury, looted hexes, the
//! chit pool and hands, and the special entities' states. Plain data; the
//! rules live in the other modules.

use super::data::{Data, Kind, Region, UnitId};
use super::standing::Standing;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;
use umpire_core::dice::RollRef;
use umpire_core::hex::Hex;
use umpire_core::ruleset::Outcome;

/// The two players (1.2): side 0 and side 1 of the opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    /// The Roman player.
    Roman,
    /// The Germano-Parthian player.
    Gp,
}

impl Player {
    /// 0 or 1.
    pub fn index(self) -> usize {
        self as usize
    }
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::Roman => Player::Gp,
            Player::Gp => Player::Roman,
        }
    }
    /// As the sides are declared.
    pub fn name(self) -> &'static str {
        ["roman", "gp"][self as usize]
    }
    /// As the rulebook names him, for the mails: `Roman`,
    /// `Germano-Parthian` ([`Player::name`] is the side's id, in roll
    /// labels and the record).
    pub fn title(self) -> &'static str {
        ["Roman", "Germano-Parthian"][self as usize]
    }
    /// From a side index.
    pub fn from_index(i: usize) -> Option<Player> {
        [Player::Roman, Player::Gp].get(i).copied()
    }
}

/// The factions of the relations matrix (digest 5.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Faction {
    /// Loyal Romans, with the emperor and a loyal co-emperor.
    Loyal,
    /// Caucasus client garrisons.
    Caucasus,
    /// Palmyra, inactive (9.2).
    PalmyraIdle,
    /// Palmyra allied to Rome (9.2, 9.3).
    PalmyraRoman,
    /// Palmyra allied to the Germano-Parthian (9.4).
    PalmyraGp,
    /// Non-Gallic rebel Romans.
    Rebel,
    /// The Gallic Empire (9.5).
    Gallic,
    /// Germanic tribes.
    German,
    /// Parthians.
    Parthian,
}

impl Faction {
    /// Who commands it (none for an inactive Palmyra).
    pub fn player(self) -> Option<Player> {
        match self {
            Faction::Loyal | Faction::Caucasus | Faction::PalmyraRoman => Some(Player::Roman),
            Faction::PalmyraIdle => None,
            _ => Some(Player::Gp),
        }
    }

    /// Are the two enemies: may not share or pass through a hex, may attack
    /// each other, pin each other with ZOC (digest 5.9; 11.4: rebels and the
    /// Germano-Parthian's other units pin each other; R-D4: Gallic and other
    /// rebels are neutral)?
    pub fn hostile(self, o: Faction) -> bool {
        use Faction::*;
        if self == o || self == PalmyraIdle || o == PalmyraIdle {
            return false;
        }
        let rome = |f: Faction| matches!(f, Loyal | Caucasus | PalmyraRoman);
        let gp = |f: Faction| matches!(f, German | Parthian | PalmyraGp);
        if rome(self) && rome(o) || gp(self) && gp(o) {
            return false;
        }
        !matches!((self, o), (Rebel, Gallic) | (Gallic, Rebel))
    }

    /// Hostile to Rome for victory and control (digest 6: hostile_to_rome).
    pub fn anti_roman(self) -> bool {
        matches!(
            self,
            Faction::Rebel
                | Faction::Gallic
                | Faction::German
                | Faction::Parthian
                | Faction::PalmyraGp
        )
    }
}

/// Where a counter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Loc {
    /// On the map.
    Hex(Hex),
    /// In the dead pile.
    Dead,
    /// In the chit pool (cavalry, 3.5).
    Pool,
    /// Set aside, not yet in play (3.2).
    Aside,
}

impl Loc {
    /// The hex, if on the map.
    pub fn hex(self) -> Option<Hex> {
        match self {
            Loc::Hex(h) => Some(h),
            _ => None,
        }
    }
}

/// One counter's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    /// Where it is.
    pub loc: Loc,
    /// Rebel side up (1.2).
    pub rebel: bool,
    /// Part of the Gallic Empire (9.5).
    pub gallic: bool,
}

/// Palmyra's state (9.1-9.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Palmyra {
    /// Passive in 4720 (9.2).
    Inactive,
    /// Allied to Rome; `attacked`: by a Germano-Parthian attack, so for good (R-H1).
    Roman {
        /// Brought in by an attack.
        attacked: bool,
    },
    /// Allied to the Germano-Parthian, for good (9.4).
    Gp,
}

/// The Gallic Empire (9.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gallic {
    /// Not yet activated.
    Dormant,
    /// Active.
    Active,
    /// Ended at Trier; never again (R-H6).
    Ended,
}

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// The Germano-Parthian sets up (3.3).
    Setup,
    /// Administrative phase, the Roman's steps (6.x).
    AdminRoman,
    /// Administrative phase, the Germano-Parthian's steps (7.x).
    AdminGp,
    /// Alternating actions phase (8.1).
    Actions,
}

/// An item in the chit pool (3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Item {
    /// An event chit, by number.
    Chit(u8),
    /// A Roman cavalry vexillation.
    Cavalry(UnitId),
}

/// Contested rulings (options).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// R-H5: the first turn the Gallic Empire may be activated (3 per 9.5, 4 per 8.15).
    pub gallic_turn: u32,
    /// R-F3: a natural 6 always succeeds on diplomacy and treachery.
    pub natural_six: bool,
    /// R-C3: TP for a surplus singleton demobilized first (1 or 0).
    pub demob_surplus_tp: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            gallic_turn: 3,
            natural_six: true,
            demob_surplus_tp: 1,
        }
    }
}

/// Roman Heavy Siege Equipment placed on the map (14.3 (21); R-G9): it
/// stays with the force in `hex` until `target` is taken or no Roman unit is
/// left with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Siege {
    /// The hex of the besieging force.
    pub hex: Hex,
    /// The population centre under siege.
    pub target: Hex,
    /// The chit's number.
    pub chit: u8,
}

/// The whole game state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    /// Game turn, 1-5.
    pub turn: u32,
    /// Where in the turn.
    pub stage: Stage,
    /// Whose action it is (8.1).
    pub actor: Player,
    /// Passes in a row (8.20).
    pub passes: u8,
    /// Actions completed this turn by each player (4.3; a pass counts, R-I1).
    pub acted: [u32; 2],
    /// Actions taken in the game, for dice labels.
    pub seq: u32,
    /// The actor takes one more action (Mad Dash stand-in, R-B3).
    pub extra: bool,
    /// Every counter, by [`UnitId`]; changed only through
    /// [`State::unit_mut`], which keeps [`State::index`] true.
    pub(super) units: Vec<UnitState>,
    /// Roman treasury points.
    pub treasury: u32,
    /// Looted TP hexes (6.3).
    pub looted: BTreeSet<Hex>,
    /// Looted core hexes rebuilding (6.4).
    pub rebuilding: BTreeSet<Hex>,
    /// The hex with the Fortify marker (8.13).
    pub fortify: Option<Hex>,
    /// Client or Parthian hexes emptied by the plague without looting (6.3).
    pub plague: BTreeSet<Hex>,
    /// Hexes with a rebel garrison planted by Bread & Circuses.
    pub bc_rebels: BTreeSet<Hex>,
    /// Core hexes whose normal TP went into this turn's collection (6.5), so
    /// an emergency tax of one adds the other half of its double yield
    /// (6.6; version 14). Left out of the state's bytes while empty, so
    /// every state of version 13 hashes as it did.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub collected: BTreeSet<Hex>,
    /// The chit pool, sorted.
    pub pool: Vec<Item>,
    /// Each player's hand of chits (secret but for the count, 10.9).
    pub hands: [Vec<u8>; 2],
    /// Chits set aside until the next turn (8.17).
    pub aside: Vec<u8>,
    /// Chits drawn in the action under way (with a free Jaws of Death, the
    /// action it opens): none may be used in it (8.17; R-G3).
    pub fresh: Vec<u8>,
    /// The hidden draw of each chit in a hand, whose opening is published
    /// when the rules reveal the chit (played, or shown; core early disclosure).
    pub drawn: BTreeMap<u8, RollRef>,
    /// Draws revealed by the order under way, published when it ends.
    pub reveal: Vec<RollRef>,
    /// Chits out of the game (Persecutions).
    pub removed: Vec<u8>,
    /// The siege chit on the map (8.16; R-G9).
    pub siege: Option<Siege>,
    /// Palmyra.
    pub palmyra: Palmyra,
    /// The Gallic Empire.
    pub gallic: Gallic,
    /// Parthian dynastic collapse (7.3).
    pub collapsed: bool,
    /// The central cavalry reserve exists (10.8, 14.3).
    pub reserve: bool,
    /// Riverine movement lost (12.7).
    pub riverine_lost: bool,
    /// Standing orders, by player.
    pub standing: [Standing; 2],
    /// Options in force.
    pub options: Options,
    /// Set when the game is over.
    pub finished: Option<Outcome>,
    /// A question to the player who is not acting, which stops the action
    /// until he answers (version 9; digest 2.7). Left out of the state's
    /// bytes when `None`, so that every state of version 8 hashes as it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<super::ask::Question>,
    /// Which counters stand in which hex: derived from `units`, built on
    /// first use and dropped by every [`State::unit_mut`], so never stale.
    /// Not part of the state (not serialized, not hashed).
    #[serde(skip)]
    pub(super) index: HexIndex,
}

/// The counters on the map by hex, sorted by (hex, id): a cache of
/// `State::units` so that [`State::at`] (the hot path of move and ZOC
/// checks) reads a slice instead of scanning every counter.
#[derive(Clone, Default)]
pub struct HexIndex(OnceLock<Vec<(Hex, UnitId)>>);

impl std::fmt::Debug for HexIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("HexIndex")
    }
}

impl HexIndex {
    fn get(&self, units: &[UnitState]) -> &[(Hex, UnitId)] {
        self.0.get_or_init(|| {
            let mut v: Vec<(Hex, UnitId)> = units
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.loc.hex().map(|h| (h, UnitId(i as u16))))
                .collect();
            v.sort_unstable();
            v
        })
    }
}

impl State {
    /// Every counter's state, by [`UnitId`].
    pub fn units(&self) -> &[UnitState] {
        &self.units
    }

    /// A counter's state.
    pub fn unit(&self, u: UnitId) -> &UnitState {
        &self.units[u.index()]
    }

    /// A counter's state, to change (the only way to move one: it drops
    /// the hex index, rebuilt on the next [`State::at`]).
    pub fn unit_mut(&mut self, u: UnitId) -> &mut UnitState {
        self.index = HexIndex::default();
        &mut self.units[u.index()]
    }

    /// Moves a counter, keeping the hex index in step (one entry out, one
    /// in, in order) instead of dropping it as [`State::unit_mut`] must.
    pub fn set_loc(&mut self, u: UnitId, loc: Loc) {
        let old = self.units[u.index()].loc;
        self.units[u.index()].loc = loc;
        if let Some(v) = self.index.0.get_mut() {
            if let Some(h) = old.hex()
                && let Ok(i) = v.binary_search(&(h, u))
            {
                v.remove(i);
            }
            if let Some(h) = loc.hex() {
                let i = v.binary_search(&(h, u)).unwrap_or_else(|i| i);
                v.insert(i, (h, u));
            }
        }
    }

    /// Where a counter is on the map.
    pub fn hex_of(&self, u: UnitId) -> Option<Hex> {
        self.unit(u).loc.hex()
    }

    /// The counters in a hex, in id order.
    pub fn at(&self, h: Hex) -> impl Iterator<Item = UnitId> + '_ {
        let all = self.index.get(&self.units);
        let from = all.partition_point(|(x, _)| *x < h);
        all[from..]
            .iter()
            .take_while(move |(x, _)| *x == h)
            .map(|(_, u)| *u)
    }

    /// Every counter on the map.
    pub fn on_map(&self) -> impl Iterator<Item = (UnitId, Hex)> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter_map(|(i, s)| s.loc.hex().map(|h| (UnitId(i as u16), h)))
    }

    /// A counter's faction now.
    pub fn faction(&self, d: &Data, u: UnitId) -> Faction {
        let s = self.unit(u);
        match d.kind(u) {
            Kind::Tribe => Faction::German,
            Kind::Gund | Kind::ParthianGarrison => Faction::Parthian,
            Kind::Palmyran => self.palmyra_faction(),
            Kind::ClientGarrison => {
                if d.region(s.loc.hex().unwrap_or(d.special.rome)) == Region::Palmyra {
                    self.palmyra_faction()
                } else {
                    Faction::Caucasus
                }
            }
            _ if s.gallic => Faction::Gallic,
            _ if s.rebel => Faction::Rebel,
            _ => Faction::Loyal,
        }
    }

    /// Palmyra's faction.
    pub fn palmyra_faction(&self) -> Faction {
        match self.palmyra {
            Palmyra::Inactive => Faction::PalmyraIdle,
            Palmyra::Roman { .. } => Faction::PalmyraRoman,
            Palmyra::Gp => Faction::PalmyraGp,
        }
    }

    /// Who commands a counter.
    pub fn owner(&self, d: &Data, u: UnitId) -> Option<Player> {
        self.faction(d, u).player()
    }

    /// The factions present in a hex.
    pub fn factions_at(&self, d: &Data, h: Hex) -> BTreeSet<Faction> {
        self.at(h).map(|u| self.faction(d, u)).collect()
    }

    /// Does the hex hold a unit hostile to `f`?
    pub fn hostile_in(&self, d: &Data, h: Hex, f: Faction) -> bool {
        self.at(h).any(|u| self.faction(d, u).hostile(f))
    }

    /// Does the hex hold a unit hostile to Rome (for looting and control)?
    pub fn anti_roman_in(&self, d: &Data, h: Hex) -> bool {
        self.at(h).any(|u| self.faction(d, u).anti_roman())
    }

    /// The emperor's counter.
    pub fn emperor(&self, d: &Data) -> Option<UnitId> {
        d.of_kind(Kind::Emperor).next()
    }

    /// The co-emperor's counter.
    pub fn coemperor(&self, d: &Data) -> Option<UnitId> {
        d.of_kind(Kind::CoEmperor).next()
    }

    /// The hex of a leader of that faction in `h`, if any.
    pub fn leader_in(&self, d: &Data, h: Hex, f: Faction) -> Option<UnitId> {
        self.at(h)
            .find(|u| d.kind(*u).is_leader() && self.faction(d, *u) == f)
    }

    /// Chits in a player's hand.
    pub fn hand(&self, p: Player) -> &[u8] {
        &self.hands[p.index()]
    }

    /// May `p` use chit `c` now: in his hand, and not drawn in the action
    /// under way (8.17; R-G3)?
    pub fn usable(&self, p: Player, c: u8) -> bool {
        self.hand(p).contains(&c) && !self.fresh.contains(&c)
    }

    /// The other player's hand count (all the opponent may know, 10.9).
    pub fn hand_count(&self, p: Player) -> usize {
        self.hands[p.index()].len()
    }
}
