//! `ldf`: Lest Darkness Fall, Rome in crisis AD 235-285, by email.
//!
//! Two players, the Roman (side 0) and the Germano-Parthian (side 1). Five
//! turns of alternating actions (8.1) on a hex map of the Roman world; from
//! Turn 2 each turn opens with the mutual administrative phase (5.5). The
//! umpire enforces the rules as far as they are implemented, rolls every die,
//! keeps the chit hands (each player sees his own and the other's count), and
//! answers the other player's mid-action decisions by his standing orders,
//! asking him (`ask`) only when the choice is real and none covers it.
//!
//! Modules, one job each: `data` (the TOML data and its checks), `state`,
//! `orders` (parsing), `turn` (sequence of play), `setup` (3.x), `movement`
//! (8.2-8.5, 12.x), `zoc` (11.x), `stacking` (10.x), `combat` (13.x),
//! `economics` (6.x, 7.x), `chits` (8.17-8.19, 14.3), `leaders` (8.3-8.7,
//! 14.4), `diplomacy` (8.7-8.12, 9.x), `effects` (what follows a change on the
//! map), `victory` (4.x), `standing`, `legal`, `view`.

#![warn(missing_docs)]

pub mod ask;
pub mod beseech;
pub mod cascade;
pub mod chits;
pub mod combat;
pub mod control;
pub mod data;
pub mod deficit;
pub mod diplomacy;
pub mod economics;
pub mod effects;
pub mod entry;
pub mod leaders;
pub mod legal;
pub mod movement;
pub mod orders;
pub mod placement;
pub mod reach;
pub mod roll_words;
pub mod setup;
pub mod stacking;
pub mod standing;
pub mod state;
pub mod turn;
mod twin;
pub mod victory;
pub mod view;
pub mod words;
pub mod zoc;

pub use data::{Data, DataSummary, check_loaded};
pub use state::State;

use data::Kind;
use orders::Order;
use state::{Faction, Loc, Options, Player, Stage};
use std::sync::Arc;
use umpire_core::data::DataErrors;
use umpire_core::data::{DataCheck, DataFile, DataGame, Descriptor, Embedded, Files, Tables};
use umpire_core::dice::Dice;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{
    Audience, Await, AwaitKind, Event, InvariantError, OptionInfo, OrderError, Prompt, RuleError,
    Ruleset, RulesetInfo, ScenarioInfo, Setup, SetupError, Side, View,
};

/// The ruleset, over a data set.
#[derive(Clone)]
pub struct Ldf {
    data: Arc<Data>,
    /// The version it plays as: [`VERSION`], or an older one kept for
    /// replaying records made under it (`at_version`).
    version: u32,
}

/// The current ruleset version (see `info`).
pub const VERSION: u32 = 15;

/// The oldest version still reproduced by `at_version`.
const OLDEST: u32 = 6;

static EMBEDDED: Embedded<Data> = Embedded::new();

/// The registry's entry for Lest Darkness Fall.
pub const DESCRIPTOR: Descriptor = umpire_core::data::descriptor::<Ldf>();

impl DataGame for Ldf {
    type Data = Data;
    const NAME: &'static str = "ldf";
    const VERSION: u32 = VERSION;
    const FILES: &'static [DataFile] = data::FILES;
    const TABLES: Tables = &[
        (
            "map.toml",
            &[
                "grid", "legion", "narrows", "place", "sea_zone", "sides", "special",
            ],
        ),
        ("oob.toml", &["counter", "markers", "start", "total"]),
        (
            "tables.toml",
            &[
                "action", "chit", "chits", "combat", "crt", "economy", "emperor", "game",
                "movement", "stacking",
            ],
        ),
    ];
    fn shell() -> &'static Embedded<Data> {
        &EMBEDDED
    }
    fn load(files: &Files) -> Result<Data, DataErrors> {
        Data::from_files(files)
    }
    fn over(data: Arc<Data>) -> Ldf {
        Ldf {
            data,
            version: VERSION,
        }
    }
    fn check(d: &Data) -> Result<DataCheck, DataErrors> {
        let s = check_loaded(d)?;
        let join = |m: &std::collections::BTreeMap<String, usize>| {
            m.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        Ok(DataCheck {
            hash: d.hash,
            facts: vec![
                format!(
                    "map {} land hexes, {} all-sea hexes, {} population centres",
                    s.land, s.sea, s.places
                ),
                format!("hexes by region: {}", join(&s.regions)),
                format!("{} counters in play", s.units),
                format!(
                    "stand-in values a club replaces: {}",
                    s.stand_ins.join(", ")
                ),
            ],
            by_provenance: s.tagged,
        })
    }
}

impl Default for Ldf {
    fn default() -> Self {
        Ldf::new()
    }
}

impl Ldf {
    /// From version 14 an order line may give each keyword once and name
    /// each counter once; earlier versions let the later one replace the
    /// earlier without a word, and their records replay so.
    fn strict_orders(&self) -> bool {
        self.version >= 14
    }

    /// The game on its embedded data (checked by a test, so it panics only
    /// on a broken build, never plays a broken map).
    pub fn new() -> Ldf {
        Ldf::embedded()
    }

    /// The game over other data files (a club's own map, counters, tables).
    pub fn with_data(map: &str, oob: &str, tables: &str) -> Result<Ldf, DataErrors> {
        Ok(Ldf {
            data: Arc::new(Data::load(map, oob, tables)?),
            version: VERSION,
        })
    }

    /// The game over a test fixture (a small hand-built map, with its own or
    /// the embedded counters and tables): read as [`Ldf::with_data`] reads a
    /// club's files, checked only for what the engine needs, not for the
    /// rulebook's fixed hexes and counts ([`Data::fixture`]).
    pub fn from_fixture(map: &str, oob: &str, tables: &str) -> Result<Ldf, DataErrors> {
        Ok(Ldf {
            data: Arc::new(Data::fixture(map, oob, tables)?),
            version: VERSION,
        })
    }

    /// The game as it played at `version`, if that version is still
    /// reproduced ([`OLDEST`] to [`VERSION`]).
    pub fn as_version(&self, version: u32) -> Option<Ldf> {
        (OLDEST..=VERSION).contains(&version).then(|| Ldf {
            data: self.data.clone(),
            version,
        })
    }

    /// The data in use.
    pub fn data(&self) -> &Data {
        &self.data
    }
}

fn player(side: Side) -> Result<Player, RuleError> {
    Player::from_index(side.index())
        .ok_or_else(|| RuleError::unruled("Lest Darkness Fall has two sides, roman and gp"))
}

fn line_err(lines: &[SourceLine], e: RuleError) -> OrderError {
    OrderError {
        line: lines.first().map_or(0, |l| l.line),
        column: 1,
        message: e.to_string(),
        rule: None,
    }
}

fn opt(name: &str, default: &str, values: &[&str], help: &str) -> OptionInfo {
    OptionInfo {
        name: name.into(),
        default: default.into(),
        values: values.iter().map(|s| s.to_string()).collect(),
        help: help.into(),
    }
}

/// Reads the options (contested rulings of the digest).
pub fn read_options(setup: &Setup) -> Result<Options, String> {
    let mut o = Options::default();
    for (k, v) in &setup.options {
        match (k.as_str(), v.as_str()) {
            ("gallic_turn", "3") => o.gallic_turn = 3,
            ("gallic_turn", "4") => o.gallic_turn = 4,
            ("natural_six", "yes") => o.natural_six = true,
            ("natural_six", "no") => o.natural_six = false,
            ("demob_surplus_tp", "1") => o.demob_surplus_tp = 1,
            ("demob_surplus_tp", "0") => o.demob_surplus_tp = 0,
            _ => {
                return Err(format!(
                    "option {k}={v:?} is not allowed; see `umpire rules ldf`"
                ));
            }
        }
    }
    Ok(o)
}

/// The Germano-Parthian's administrative prompt, with what the dead pile
/// holds and where it may go (7.1, 7.2, 7.3).
fn admin_gp_ask(d: &Data, st: &State) -> String {
    let dead = |k: Kind| {
        d.of_kind(k)
            .filter(|u| st.unit(*u).loc == Loc::Dead)
            .count()
    };
    let gunds = if st.collapsed {
        "Parthia is collapsed: on a recovery roll of 5-6 they go anywhere in Parthia (7.3, 3.3)"
    } else {
        "they go to Parthian centres free of enemy units (7.2)"
    };
    let (tribes, gund_count) = (dead(Kind::Tribe), dead(Kind::Gund));
    let mut what = Vec::new();
    let mut syntax = Vec::new();
    if tribes > 0 {
        what.push(format!(
            "{} from the dead pile, one a hex in empty Barbaria hexes (7.1)",
            words::counted(tribes, "tribe", "tribes")
        ));
        syntax.push("tribes HEX...");
    }
    if gund_count > 0 {
        what.push(format!(
            "{} from the dead pile ({gunds})",
            words::counted(gund_count, "gund", "gunds")
        ));
        syntax.push("gunds HEX...");
    }
    if what.is_empty() {
        return "the dead pile holds no tribe or gund to place (7.1, 7.2): `done`".into();
    }
    format!(
        "place {}: `place {}`, or `done`; hexes left unnamed are the umpire's",
        what.join(", and "),
        syntax.join(" ")
    )
}

impl Ruleset for Ldf {
    fn at_data(
        &self,
        data: &umpire_core::hash::Digest,
    ) -> Option<Arc<dyn umpire_core::ruleset::DynRuleset>> {
        DESCRIPTOR.at_data(data)
    }

    type State = State;
    type Order = Order;

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            name: "ldf".into(),
            // 2: Beseech the Gods, siege equipment that stays, the hand limit
            // put-back (the state and replays changed; ARCHITECTURE "Upgrades").
            // 3: R-G3 in full (chits drawn in an action unusable in it),
            // Beseech on the result as it counts, re-salting (8.8).
            // 4: the deficit cover's standing order and its fallback (6.10,
            // N7), B&C hexes rebel-held until retaken, control in retreats
            // (R-C2, 14.3). Unreleased: no at_version(3) emulation.
            // 5: the evacuation after a collapse moves whole forces with
            // their leaders (7.3, 8.4); leaders fall after their units.
            // Unreleased: no at_version(4) emulation.
            // 6: a move that collapses Parthia ends with the evacuation
            // (7.3); the cavalry fixes of self-play seed 3 (14.3).
            // Unreleased: no at_version(5) emulation.
            // 7: an attacker named twice in one attack is refused (13.3);
            // version 6 counted it twice, and `at_version(6)` still does.
            // 8: a named placement hex the rules forbid is refused (7.1,
            // 7.2, chits 22 and 23), gunds recovering after a collapse go
            // anywhere in Parthia (7.3, 3.3), an eliminated co-emperor goes
            // to the dead pile (8.11, 13.11), emergency unstacking by the
            // retreat doctrine (10.7, N10); `at_version(7)` plays 7.
            // 9: the `unstack` standing order (10.7, N10); the player not
            // acting is asked where to retreat (N1), where drawn cavalry
            // joins (N8) and where a refused Bread & Circuses rises (N6)
            // when the choice is real and no standing order of his covers
            // it (digest 2.7); `at_version(8)` plays 8.
            // 10: the defender is asked which reaction chits he plays
            // before the CRT roll (N2, 14.3) unless he stated `tsnp` or
            // `shift`, and the Roman whether he sponsors a Bread & Circuses
            // the Germano-Parthian drew (N5) unless he stated `sponsor`,
            // and on his negative salt and Agents before a Germano-Parthian
            // diplomacy or treachery roll (N4, 8.8) unless he stated `salt`
            // or `agents`; The Gods Are Bored drawn in Turn 5 is set aside
            // (14.3), not put back; no reaction chit is played when the
            // Germano-Parthian attacks his own rebels (11.4, N15);
            // `at_version(9)` plays 9.
            // 11: in the middle of an elimination's cascade, the Roman is
            // asked where the new emperor is proclaimed among hexes tied for
            // the largest army (N9, 14.4) unless he stated `prefer`, and the
            // commander of a stack left over the limit where each unit
            // unstacks (N10, 10.7) unless he stated `unstack`, and the Roman
            // how he covers a deficit met in the Germano-Parthian's action,
            // step by step (N7, 6.10), unless he stated `deficit`; the rest
            // of the action (payment, unstacking, advance, free draw)
            // follows the answer; `at_version(10)` plays 10.
            // 12: units that change sides where they stand (8.3, 8.7, 8.10,
            // 9.5) abort a fortification or a rebuild in their hex, as an
            // enemy's occupation does (8.13, 8.14), and a fortification is
            // not completed among the enemy (10.4, 10.5; self-play at scale,
            // seed 1001 game 952); a client garrison with Romans a rebel
            // co-emperor converts falls to them, as in 8.10 (8.7, R-D5);
            // a refused Bread & Circuses' rebel garrison aborts the
            // fortification in its hex (14.3, 8.13), and none is completed
            // beside a garrison (8.13 "no double-fortifying", 10.3);
            // `at_version(11)` plays 11.
            // 13: a fortification is not completed beside units of another
            // nationality (10.4, 10.5: pro-Roman Palmyrans; seed 1056 game
            // 822); when no loyal Roman unit stands anywhere for a new
            // emperor to stand with but the co-emperor's, his army proclaims him
            // (8.4, 8.3; seed 1055 game 504); `at_version(12)` plays 12.
            // 14: emergency taxation yields double a hex's TP, not its
            // collected TP and double on top (6.6); salt and Agents adding
            // more than +3 are refused before anything is spent, and the
            // Roman's negative salt and Agents take at most 3 off (8.8);
            // conversion rolls in ascending hex order (R-F2), one for each
            // adjacent loyal hex (a lone garrison too) before a rebel force
            // moves off, by land, sea or river, and where it lands by sea or
            // river (8.3), no looting of a centre its own side holds
            // (8.3, 9.5; R-C10); a mixed force's infantry past their
            // allowance must be dropped (8.5); an emperor falling with no
            // loyal unit anywhere leaves the throne vacant until one stands
            // (8.4, 8.9); an attack's advance and exchange losses, and a
            // chit's `tp` and hexes, checked before the roll (13.10, 13.11,
            // 13.14, 14.3); a leader named to advance goes (13.14); a rebel
            // co-emperor named into a hex where he may not rise (8.7) and a
            // unit named twice for demobilization (6.7) are refused;
            // `at_version(13)` plays 13.
            // 15: the narration explains its numbers: each odds shift with
            // its source and rule (13.8, 13.9, 14.3) and siege equipment's
            // doubling; `at_version(14)` tells the net shift.
            version: self.version,
            data: Some(self.data.hash),
            title: "Lest Darkness Fall: Rome in Crisis, AD 235-285".into(),
            summary: "The Roman against the Germano-Parthian: five turns of alternating actions, chits, emperors and rebels on a map of the Roman world.".into(),
            scenarios: vec![ScenarioInfo {
                name: "campaign".into(),
                title: "The crisis of the third century, Turns 1-5 (3.0)".into(),
                sides: vec!["roman".into(), "gp".into()],
            }],
            options: vec![
                opt("gallic_turn", "3", &["3", "4"], "R-H5: the Gallic Empire may be activated from Turn 3 (9.5) or Turn 4 (8.15)"),
                opt("natural_six", "yes", &["yes", "no"], "R-F3: a natural 6 always succeeds on diplomacy and treachery, so negative salt never makes a sure thing (8.8)"),
                opt("demob_surplus_tp", "1", &["1", "0"], "R-C3: TP for each surplus singleton demobilized before the twinned pairs (6.7)"),
            ],
        }
    }

    fn setup(&self, setup: &Setup) -> Result<State, SetupError> {
        // The scenario and the sides are the engine's to check (`check_setup`).
        Ok(setup::initial(&self.data, read_options(setup)?))
    }

    fn prompt(&self, st: &State) -> Prompt {
        let stage = format!(
            "Turn {}: {}",
            st.turn,
            match st.stage {
                Stage::Setup => "set-up",
                Stage::AdminRoman | Stage::AdminGp => "administrative phase",
                Stage::Actions => "alternating actions",
            }
        );
        if let (Some(q), None) = (&st.question, &st.finished) {
            return Prompt {
                stage,
                awaiting: vec![Await {
                    side: Side(q.to.index() as u8),
                    kind: AwaitKind::Decision,
                    ask: q.ask(&self.data),
                    default: vec!["pass".into()],
                }],
                finished: None,
            };
        }
        let Some(p) = turn::awaited(st) else {
            return Prompt {
                stage,
                awaiting: vec![],
                finished: st.finished.clone(),
            };
        };
        let (ask, default) = match st.stage {
            Stage::Setup => ("set up your 17 tribes in Barbaria and 8 gunds in Parthia: `setup tribes HEX... gunds HEX...` or `setup auto` (3.3)".to_string(), "setup auto"),
            Stage::AdminRoman => (format!("your administrative steps ({} TP): `tax HEX...`, `demobilize UNIT...`, `reclaim HEX...`, then `done` (6.6-6.8)", st.treasury), "done"),
            Stage::AdminGp => (admin_gp_ask(&self.data, st), "done"),
            Stage::Actions => (format!("your action (8.1): move, sea, river, attack, draw, play, pass ... ({} passes in a row)", st.passes), "pass"),
        };
        Prompt {
            stage,
            awaiting: vec![Await {
                side: Side(p.index() as u8),
                kind: AwaitKind::Orders,
                ask,
                default: vec![default.into()],
            }],
            finished: None,
        }
    }

    fn parse(
        &self,
        _st: &State,
        _side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, Order)>, OrderError> {
        orders::parse(&self.data, lines, self.strict_orders())
    }

    fn parse_all(
        &self,
        _st: &State,
        _side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, Order)>, Vec<OrderError>> {
        orders::parse_all(&self.data, lines, self.strict_orders())
    }

    fn apply(
        &self,
        st: &mut State,
        side: Side,
        order: &Order,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        turn::apply_at(&self.data, st, player(side)?, order, dice, self.version)
    }

    fn hides_information(&self, _setup: &Setup) -> bool {
        // The chit hands (10.9) and the identity of a chit put back (R-G2).
        true
    }

    fn order_audience(&self, _st: &State, side: Side, order: &Order) -> Audience {
        match order {
            // The identity of a chit put back is the player's own (R-G2).
            Order::Draw { put_back: Some(_) } => Audience::side(side),
            Order::Play { back, .. } if !back.is_empty() => Audience::side(side),
            _ => Audience::All,
        }
    }

    fn legal_moves(&self, st: &State, side: Side) -> Vec<String> {
        player(side)
            .map(|p| legal::legal(&self.data, st, p, self.version))
            .unwrap_or_default()
    }

    fn set_standing(
        &self,
        st: &mut State,
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<Event>, OrderError> {
        let p = player(side).map_err(|e| line_err(lines, e))?;
        let s = standing::parse(&self.data, p == Player::Roman, lines, self.version)?;
        st.standing[p.index()] = s;
        // Standing orders are the player's own: the event says only that they changed.
        Ok(vec![Event::say(format!(
            "the {} updates his standing orders",
            p.title()
        ))])
    }

    fn standing(&self, st: &State, side: Side) -> Vec<String> {
        player(side)
            .map(|p| {
                let roman = p == Player::Roman;
                standing::show(&self.data, &st.standing[p.index()], roman, self.version)
            })
            .unwrap_or_default()
    }

    fn twin(&self, st: &State, viewer: umpire_core::ruleset::Viewer, seed: u64) -> Option<State> {
        twin::twin(st, viewer, seed)
    }

    fn twin_kinds(&self, _st: &State) -> Vec<&'static str> {
        twin::kinds()
    }

    fn secrets_differ(&self, a: &State, b: &State) -> Vec<&'static str> {
        twin::differ(a, b)
    }

    fn view(&self, st: &State, viewer: umpire_core::ruleset::Viewer) -> View {
        view::view(&self.data, st, viewer)
    }

    fn roll_words(&self, label: &str) -> String {
        roll_words::words(label)
    }
    fn own_marks(&self, _st: &State, side: Side) -> Vec<char> {
        // The side letters `view::counter` draws (rebels too: owned by a player).
        match Player::from_index(side.index()) {
            Some(Player::Roman) => vec!['R'],
            Some(Player::Gp) => vec!['G'],
            None => Vec::new(),
        }
    }

    fn invariants(&self, st: &State) -> Result<(), InvariantError> {
        invariants(&self.data, st).map_err(InvariantError)
    }

    /// The state deserialises from its JSON, so the store keeps a snapshot
    /// of a game's head.
    fn restore(&self, json: &[u8]) -> Option<Result<State, String>> {
        Some(umpire_core::ruleset::state_from_json(json))
    }

    fn at_version(&self, version: u32) -> Option<Arc<dyn umpire_core::ruleset::DynRuleset>> {
        self.as_version(version)
            .map(|r| Arc::new(r) as Arc<dyn umpire_core::ruleset::DynRuleset>)
    }
}

/// What the rules guarantee about any state reached by play.
pub fn invariants(d: &Data, st: &State) -> Result<(), String> {
    if !(1..=d.values.turns).contains(&st.turn) {
        return Err(format!("turn {} is outside 1-{}", st.turn, d.values.turns));
    }
    if st.units.len() != d.units.len() {
        return Err("unit count differs from the data".into());
    }
    // The set-up's own stacks are excepted before play.
    if st.stage != Stage::Setup {
        stacked_at_rest(d, st)?;
    }
    chits_once(d, st)?;
    cavalry_pool(d, st)?;
    one_emperor(d, st)?;
    if st.fortify.is_some_and(|h| !d.region(h).is_core()) {
        return Err("the Fortify marker is outside core territory".into());
    }
    Ok(())
}

/// Stacking at rest (10.1), on land only.
fn stacked_at_rest(d: &Data, st: &State) -> Result<(), String> {
    let mut hexes: Vec<_> = st.on_map().map(|(_, h)| h).collect();
    hexes.sort();
    hexes.dedup();
    // Hexes whose unstacking waits for the answer to a question (10.7;
    // version 11).
    let waiting = st
        .question
        .as_ref()
        .map(ask::Question::waiting)
        .unwrap_or_default();
    for h in hexes {
        if !d.is_land(h) {
            return Err(format!("a unit stands in all-sea hex {h}"));
        }
        if waiting.contains(&h) {
            continue;
        }
        if let Err((m, r)) = stacking::check_hex(d, st, h) {
            return Err(format!("{m} ({r})"));
        }
    }
    Ok(())
}

/// Chits: every chit exactly once across pool, hands, aside, removed (3.5),
/// and no hand over its limit (8.17).
fn chits_once(d: &Data, st: &State) -> Result<(), String> {
    let mut seen = vec![0u8; d.chits.len() + 1];
    let pooled = st.pool.iter().filter_map(|i| match i {
        state::Item::Chit(c) => Some(*c),
        state::Item::Cavalry(_) => None,
    });
    for c in pooled
        .chain(st.hands.iter().flatten().copied())
        .chain(st.aside.iter().copied())
        .chain(st.removed.iter().copied())
        .chain(st.siege.map(|s| s.chit))
    {
        let Some(n) = seen.get_mut(c as usize) else {
            return Err(format!("chit {c} does not exist"));
        };
        *n += 1;
    }
    if let Some(c) = seen.iter().skip(1).position(|n| *n != 1) {
        return Err(format!("chit {} is held {} times", c + 1, seen[c + 1]));
    }
    for (i, h) in st.hands.iter().enumerate() {
        if h.len() > d.values.hand_limit + usize::from(i == Player::Roman.index()) {
            return Err(format!("hand {i} holds {} chits (8.17)", h.len()));
        }
    }
    Ok(())
}

/// Cavalry in the pool are exactly those marked in the pool, once each.
fn cavalry_pool(d: &Data, st: &State) -> Result<(), String> {
    for u in d.of_kind(Kind::Cavalry) {
        let pooled = st
            .pool
            .iter()
            .filter(|i| **i == state::Item::Cavalry(u))
            .count();
        if pooled > 1 {
            return Err(format!(
                "cavalry {} is in the pool {pooled} times",
                d.uid(u)
            ));
        }
        // A cavalry unit whose place the Roman is asked (N8) is drawn, not
        // yet placed.
        let asked = matches!(
            &st.question,
            Some(ask::Question { about: ask::About::Cavalry { unit }, .. }) if *unit == u
        );
        if !asked && (pooled == 1) != (st.unit(u).loc == Loc::Pool) {
            return Err(format!("cavalry {} is lost between pool and map", d.uid(u)));
        }
    }
    Ok(())
}

/// One emperor on the map while the game goes on (R-F9), but while the
/// Roman is asked where the new one rises (N9).
fn one_emperor(d: &Data, st: &State) -> Result<(), String> {
    let proclaiming = matches!(
        &st.question,
        Some(ask::Question {
            about: ask::About::Succession { .. },
            ..
        })
    );
    let emperor_off = !proclaiming && st.emperor(d).is_some_and(|e| st.hex_of(e).is_none());
    // The throne may stand vacant while no loyal Roman unit is on the map
    // for a new emperor to stand with (8.4; version 14).
    let loyal_on_map = st
        .on_map()
        .any(|(u, _)| !d.kind(u).is_leader() && st.faction(d, u) == Faction::Loyal);
    if st.finished.is_none() && st.stage != Stage::Setup && emperor_off && loyal_on_map {
        return Err("the emperor is not on the map".into());
    }
    Ok(())
}

#[cfg(test)]
mod unknown_tables {
    /// A club's `oob.toml` with a typo'd top-level table: refused, naming the
    /// table and the file, by the loader and by `umpire data check`.
    #[test]
    fn an_unknown_top_level_table_is_refused() {
        let (load, check) =
            umpire_core::data::with_extra_table(&super::DESCRIPTOR, "oob.toml", "countr");
        for e in [load, check] {
            let e = e.expect("a [countr] table is refused");
            let named = |m: &str| m.contains("oob.toml") && m.contains("[countr]");
            assert!(e.iter().any(|m| named(m)), "{e}");
        }
    }
}
