//! The game state: everything that changes in play. Static data stays in
//! [`Data`]. Hidden things (treasuries, SP, the sealed economy plans, units
//! under fog of war) are kept here and filtered by the view (22.0).

use super::data::{
    AgentKind, AgentSide, Base, Data, Kind, MarkerKind, Nat, Power, RegionId, Scenario,
};
use super::economy::EconOrder;
use super::geom::Sq;
use super::standing::Standing;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use umpire_core::ruleset::Outcome;

/// A combat unit, by index in [`State::units`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct UnitId(pub u16);

/// An agent, by index in [`State::agents`] (and [`Data::agents`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct AgentId(pub u16);

/// Where a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Loc {
    /// On the map.
    Sq(Sq),
    /// In a home base box (19.0).
    Base(Base),
    /// Not in play: in the counter mix, or the Agent Available box (16.63).
    Pool,
    /// Permanently out: a named agent killed (16.43).
    Dead,
    /// A captured agent held by a player (16.42(1)).
    Prisoner(Power),
}

impl Loc {
    /// The square, if on the map.
    pub fn sq(self) -> Option<Sq> {
        match self {
            Loc::Sq(s) => Some(s),
            _ => None,
        }
    }
    /// On the map or in a base.
    pub fn in_play(self) -> bool {
        matches!(self, Loc::Sq(_) | Loc::Base(_))
    }
}

/// One brigade/group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Order id, e.g. `bf1`, `afi3`: interned ([`intern`]), so a copy of
    /// the state copies no string.
    #[serde(deserialize_with = "interned")]
    pub id: Interned,
    /// Nationality.
    pub nat: Nat,
    /// Type.
    pub kind: Kind,
    /// Where.
    pub loc: Loc,
    /// Moved in this operations phase (12.0: one operation per phase).
    pub moved: bool,
}

/// `id` as a string that lives as long as the process: each distinct id is
/// kept once (a game's counter mix names a few hundred, the same in every
/// game of its data), so replaying and copying states allocates none.
pub fn intern(id: &str) -> &'static str {
    use std::collections::BTreeSet;
    use std::sync::Mutex;
    static IDS: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut ids = IDS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&kept) = ids.get(id) {
        return kept;
    }
    let kept: &'static str = Box::leak(id.to_owned().into_boxed_str());
    ids.insert(kept);
    kept
}

/// An interned string ([`intern`]). Named, not written `&'static str`,
/// so serde's derive does not take the field for one borrowed from the
/// input (which would bind the state's `Deserialize` to `'static` input).
pub type Interned = &'static str;

/// A unit's id read back from a state's JSON (the store's snapshot of a
/// game's head), interned as [`Unit::id`] is.
fn interned<'de, D: serde::Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let id = std::borrow::Cow::<'de, str>::deserialize(d)?;
    Ok(intern(&id))
}

/// One agent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agent {
    /// Where.
    pub loc: Loc,
    /// Moved in this operations phase.
    pub moved: bool,
    /// Used his values in this sub-phase (16.9).
    pub used: bool,
    /// Shown face up by his owner (22.3, from version 8): standing alone he
    /// shows who he is, not only his flag. Face down is the default, and
    /// the field is left out of the state's bytes while false, so the
    /// states of earlier records hash as they did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face_up: bool,
}

/// A civilization marker on the map (20.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Marker {
    /// Where.
    pub sq: Sq,
    /// Who placed it (20.4).
    pub owner: Power,
    /// What.
    pub kind: MarkerKind,
}

/// The CRT a phasing player asks for in a square (14.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CrtChoice {
    /// Battle.
    Battle,
    /// Raid.
    Raid,
}

/// The operations phase in progress (12.0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpsPhase {
    /// 1 to 5.
    pub k: u8,
    /// The phasing player.
    pub side: Power,
    /// Movement is over: negotiations have begun (12.1).
    pub negotiating: bool,
    /// Regions negotiated with in this sub-phase (15.3).
    pub negotiated: Vec<RegionId>,
    /// CRT choices declared for the combat sub-phase.
    pub crt: BTreeMap<Sq, CrtChoice>,
    /// Squares to massacre at the end of the combat sub-phase (20.5).
    pub massacre: Vec<Sq>,
}

/// What an event lets a player choose (N13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChoiceKind {
    /// Which neutral region an uprising wins for him (5.4(1)).
    Uprising,
    /// Which of his regions reverts to neutral (5.5).
    Unrest,
}

/// A question an event puts (8.0, N13): who, what, among which regions, and
/// the event columns still to read after the answer (8.1(2)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventChoice {
    /// Who chooses.
    pub who: Power,
    /// What.
    pub kind: ChoiceKind,
    /// The regions he may choose, the default (his standing order's) first.
    pub options: Vec<RegionId>,
    /// The event columns still to read, in order.
    pub rest: Vec<usize>,
}

/// Where the turn stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// The set-up (26.0): this player places the pieces of his choices;
    /// the first setter, then the second.
    Setup(Power),
    /// The sealed set-up (option `setup=sealed`, digest 2.4): both players
    /// place their choices at once in one sealed round of the engine; each
    /// side's mail is hidden from the other until both are in, then both
    /// are carried out (British, then Russian) and the game goes on.
    /// [`State::sealed`] says who is in.
    SetupSealed,
    /// Turn 1: the favoured player chooses first or second (7.2); the turn's
    /// opening rolls come with his answer.
    Initiative,
    /// The simultaneous, secret income/expenditure phase (3.1[3]).
    Economy,
    /// An event's choice put to a player who asked to be asked (8.0, N13);
    /// the rest of the events phase, income and the economy wait for it.
    Choice(EventChoice),
    /// An operations phase.
    Ops(OpsPhase),
    /// The game is over.
    Over,
}

/// Contested rulings and optional rules, chosen when the game is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Optional rule 15.6 Ultimatums.
    pub ultimatums: bool,
    /// Optional rule 29.0 Improved Staff Work.
    pub staff_work: bool,
    /// Ruling A14: the levy on every neutral-to-controlled change (`true`), or only on invasion.
    pub levy_any: bool,
    /// Optional rule 27.0 Forced March.
    pub forced_march: bool,
    /// Optional rule 28.0 Telegraph.
    pub telegraph: bool,
    /// Optional rule 30.0 Massacre (in place of 20.5).
    pub massacre: bool,
    /// Optional rule 32.0 Discoveries.
    pub discoveries: bool,
    /// The players place the pieces the scenario leaves to them (26.0);
    /// `false`: the defaults of `scenarios.toml` stand.
    pub chosen_setup: bool,
    /// With `chosen_setup`: both set-ups in one sealed simultaneous round
    /// (option `setup=sealed`, the digest's house option of 2.4), not one
    /// after the other (ruling A68).
    pub sealed_setup: bool,
    /// 5.6 (option `defection=combat`, from version 9): a defecting region's
    /// units are eliminated only where the former controller has combat
    /// units, not where he has no more than an agent. Left out of the
    /// state's bytes while false, so earlier records hash as they did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub defection_combat_only: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            ultimatums: false,
            staff_work: false,
            levy_any: true,
            forced_march: false,
            telegraph: false,
            massacre: false,
            discoveries: false,
            chosen_setup: true,
            sealed_setup: false,
            defection_combat_only: false,
        }
    }
}

/// The whole game state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    /// Index of the base scenario in [`Data::scenarios`].
    pub scenario: usize,
    /// Turns in this game (S3: to 1900-04).
    pub turns: u32,
    /// Turn now, from 1.
    pub turn: u32,
    /// Year of turn 1.
    pub first_year: u32,
    /// Options.
    pub options: Options,
    /// Balance of Power Index: + pro-British, - pro-Russian, never 0 (4.0, errata).
    pub bop: i32,
    /// Control of each region (5.1): `None` neutral.
    pub control: Vec<Option<Power>>,
    /// Who controls the Ghazis this turn (21.1).
    pub ghazis: Option<Power>,
    /// Pounds, by side (9.0; secret).
    pub treasury: [u32; 2],
    /// Supply points, by side (17.1; secret, ruling A48).
    pub sp: [u32; 2],
    /// SP bought this turn, by side (17.1 pricing).
    pub sp_bought: [u32; 2],
    /// Every counter.
    pub units: Vec<Unit>,
    /// Every agent, parallel to [`Data::agents`].
    pub agents: Vec<Agent>,
    /// Civilization markers on the map.
    pub markers: Vec<Marker>,
    /// The first player this turn (7.2).
    pub first: Power,
    /// Where the turn stands.
    pub stage: Stage,
    /// Sealed economy orders, by side, until both are in (3.1[3]).
    pub plans: [Vec<EconOrder>; 2],
    /// Sides whose economy orders are sealed.
    pub sealed: [bool; 2],
    /// Agreements proposed and not yet answered (23.0).
    pub offers: Vec<super::agreement::Offer>,
    /// The number of the last agreement proposed.
    pub next_offer: u32,
    /// Who started open war, once it has begun (24.0, errata: once a game).
    pub open_war: Option<Power>,
    /// Events already drawn this turn (8.2).
    pub events_this_turn: Vec<String>,
    /// The Indian Mutiny counts as having occurred (S2 7.0b).
    pub mutiny_done: bool,
    /// Each side's standing orders.
    pub standing: [Standing; 2],
    /// Set when the game ends.
    pub finished: Option<Outcome>,
    /// New brigades placed this turn per square: all, and red or blue (10.61).
    pub recruited: BTreeMap<Sq, (u32, u32)>,
    /// Squares massacred this turn: no forage until the turn ends (31.33).
    pub massacred: Vec<Sq>,
    /// Discoveries (optional rule 32.0).
    pub discoveries: super::discovery::Discoveries,
    /// The pieces of each set-up choice ([`Scenario::picks`]), while the
    /// set-up lasts (26.0); empty after it.
    pub picks: Vec<PickPieces>,
    /// Where this turn's Jihad stands until its player may place it in his
    /// economy orders (21.2); `None` once placed or without a Jihad.
    pub jihad_at: Option<Sq>,
    /// Prisoners an accepted agreement returns at the start of the next
    /// turn, and where (16.42(1), 23.0).
    pub returns: Vec<(AgentId, Sq)>,
}

/// The pieces of one set-up choice (26.0).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PickPieces {
    /// Its combat units.
    pub units: Vec<UnitId>,
    /// Its agents.
    pub agents: Vec<AgentId>,
    /// Its markers, where they stand now.
    pub markers: Vec<Marker>,
}

impl State {
    /// The scenario.
    pub fn sc<'a>(&self, d: &'a Data) -> &'a Scenario {
        &d.scenarios[self.scenario]
    }

    /// Whether `p` is placing his set-up choices now (26.0): his turn of the
    /// sequential set-up, or the sealed one before his mail is in.
    pub fn setting_up(&self, p: Power) -> bool {
        match self.stage {
            Stage::Setup(s) => s == p,
            Stage::SetupSealed => !self.sealed[p.index()],
            _ => false,
        }
    }

    /// The first year of the current turn.
    pub fn year(&self) -> u32 {
        self.first_year + 5 * (self.turn - 1)
    }

    /// The historical period of the current turn (26.0 LEADERS & HISTORICAL PERIODS).
    pub fn period(&self) -> u8 {
        match self.year() {
            ..1860 => 1,
            1860..1890 => 2,
            _ => 3,
        }
    }

    /// Who controls a unit now (5.2, 5.7); `None`: neutral.
    pub fn owner(&self, nat: Nat) -> Option<Power> {
        match nat {
            Nat::British => Some(Power::British),
            Nat::Russian => Some(Power::Russian),
            Nat::Native(r) => self.control[r],
            Nat::Ghazi => self.ghazis,
        }
    }

    /// Who controls an agent now (16.7).
    pub fn agent_owner(&self, d: &Data, a: AgentId) -> Option<Power> {
        match d.agents[a].side {
            AgentSide::Power(p) => Some(p),
            AgentSide::Native(r) => self.control[r],
            AgentSide::Ghazi => self.ghazis,
        }
    }

    /// Units at a location.
    pub fn units_at(&self, loc: Loc) -> impl Iterator<Item = UnitId> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.loc == loc)
            .map(|(i, _)| UnitId(i as u16))
    }

    /// Units of `p` at a location.
    pub fn side_units_at(&self, loc: Loc, p: Power) -> impl Iterator<Item = UnitId> + '_ {
        self.units_at(loc)
            .filter(move |u| self.owner(self.unit(*u).nat) == Some(p))
    }

    /// Neutral units at a location.
    pub fn neutral_units_at(&self, loc: Loc) -> impl Iterator<Item = UnitId> + '_ {
        self.units_at(loc)
            .filter(move |u| self.owner(self.unit(*u).nat).is_none())
    }

    /// Agents at a location.
    pub fn agents_at(&self, loc: Loc) -> impl Iterator<Item = AgentId> + '_ {
        self.agents
            .iter()
            .enumerate()
            .filter(move |(_, a)| a.loc == loc)
            .map(|(i, _)| AgentId(i as u16))
    }

    /// Agents of `p` at a location.
    pub fn side_agents_at<'a>(
        &'a self,
        d: &'a Data,
        loc: Loc,
        p: Power,
    ) -> impl Iterator<Item = AgentId> + 'a {
        self.agents_at(loc)
            .filter(move |a| self.agent_owner(d, *a) == Some(p))
    }

    /// The unit.
    pub fn unit(&self, u: UnitId) -> &Unit {
        &self.units[u]
    }

    /// The unit, to change.
    pub fn unit_mut(&mut self, u: UnitId) -> &mut Unit {
        &mut self.units[u]
    }

    /// The agent.
    pub fn agent(&self, a: AgentId) -> &Agent {
        &self.agents[a]
    }

    /// The agent, to change.
    pub fn agent_mut(&mut self, a: AgentId) -> &mut Agent {
        &mut self.agents[a]
    }

    /// A unit's combat strength.
    pub fn strength(&self, d: &Data, u: UnitId) -> u32 {
        let x = self.unit(u);
        d.stats(x.nat, x.kind).strength
    }

    /// The unit of an order id.
    pub fn find_unit(&self, id: &str) -> Option<UnitId> {
        let want = id.to_ascii_lowercase();
        self.units
            .iter()
            .position(|u| u.id == want)
            .map(|i| UnitId(i as u16))
    }

    /// The markers on a square.
    pub fn markers_at(&self, s: Sq) -> impl Iterator<Item = &Marker> + '_ {
        self.markers.iter().filter(move |m| m.sq == s)
    }

    /// Whether `p` has a marker of `kind` on `s`.
    pub fn has_marker(&self, s: Sq, p: Power, kind: MarkerKind) -> bool {
        self.markers_at(s).any(|m| m.owner == p && m.kind == kind)
    }

    /// Whether `p` has a combat unit on `s` (occupation, 6.0; income 9.1(2)).
    pub fn occupies(&self, s: Sq, p: Power) -> bool {
        self.side_units_at(Loc::Sq(s), p).next().is_some()
    }

    /// Whether a generic agent is a Pundit, Khan or the Mad Mullah (16.8).
    pub fn is_generic(d: &Data, a: AgentId) -> bool {
        d.agents[a].kind != AgentKind::Named
    }
}
