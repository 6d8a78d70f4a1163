//! `ac`: Asia Crossroads, the Great Game in Central Asia, 1835-1904, by email.
//!
//! Two players, British (side 0) and Russian (side 1), and nineteen native
//! regions that are neutral until won by negotiation or invasion. Each turn:
//! initiative (7.0), random events (8.0), a sealed simultaneous income and
//! expenditure phase (3.1[3]), five operations phases a player (12.0), each
//! move, negotiate, belligerency check, combat; provisioning (17.3) and the end
//! of the turn; victory after the last (25.0). The non-phasing player's
//! decisions are standing orders (`standing`), so an operations phase costs
//! one mail. Most charts are missing from the rulebook; `games/ac/` holds
//! marked stand-ins (see `umpire data check ac`).
//!
//! Modules: `data` and `build` (the TOML data and its checks, with `prov`
//! for provenance tags), `geom` (the square grid), `state`, `setup`,
//! `orders` (parsing), `turn` (the sequence of play), `economy`,
//! `movement`, `control`, `negotiate`, `combat`, `supply`, `events`, `bop`,
//! `victory`, `standing`, `legal`, `view`.

#![warn(missing_docs)]

pub mod agreement;
pub mod basemove;
pub mod board;
pub mod bop;
mod build;
pub mod combat;
pub mod control;
pub mod data;
pub mod discovery;
pub mod economy;
pub mod events;
pub mod geom;
pub mod legal;
mod legal_rail;
pub mod massacre;
pub mod movement;
pub mod negotiate;
pub mod orders;
pub mod placing;
pub mod precheck;
pub mod prov;
pub mod roll_words;
pub mod setup;
pub mod standing;
pub mod state;
pub mod supply;
pub mod turn;
mod twin;
pub mod victory;
pub mod view;

pub use data::{Data, Power};
pub use state::State;

use orders::Order;
use state::{Loc, Options, Stage};
use std::collections::BTreeMap;
use std::sync::Arc;
use umpire_core::data::DataErrors;
use umpire_core::data::{DataCheck, DataFile, DataGame, Descriptor, Embedded, Files, Tables};
use umpire_core::dice::Dice;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{
    Audience, Await, AwaitKind, Event, InvariantError, OptionInfo, OrderError, Prompt, RuleError,
    Ruleset, RulesetInfo, ScenarioInfo, Setup, SetupError, Side, View,
};

/// How the income/expenditure round is awaited: as the engine's sealed round
/// (3.1[3], 22.0). Each side's mail of economy orders is a sealed commitment
/// in the record until both are in; then both are applied in one round entry
/// (British, then Russian; the state carries the plans out first player
/// first, ruling A49). A later mail in the same round replaces the earlier.
pub const ECONOMY_AWAIT: AwaitKind = AwaitKind::SealedOrders;

/// The version of the rules this umpire plays (see `info`); older
/// versions it still replays are [`Ruleset::at_version`]'s.
pub const VERSION: u32 = 9;

/// The registry entry (`crates/games/src/lib.rs`).
pub const DESCRIPTOR: Descriptor = umpire_core::data::descriptor::<Ac>();

impl DataGame for Ac {
    type Data = Data;
    const NAME: &'static str = "ac";
    const VERSION: u32 = VERSION;
    const FILES: &'static [DataFile] = data::FILES;
    const TABLES: Tables = &[
        ("map.toml", &["city", "map", "railway", "route"]),
        ("scenarios.toml", &["scenario"]),
        (
            "tables.toml",
            &[
                "base_seas",
                "battle_crt",
                "bop",
                "bop_changes",
                "city",
                "costs",
                "discovery",
                "event",
                "events",
                "fort",
                "income",
                "key_cities",
                "levy",
                "movement",
                "negotiation_drm",
                "negotiations",
                "open_war",
                "raid_crt",
                "ranjit",
                "region_vp",
                "terrain",
                "ultimatum",
                "victory",
            ],
        ),
        (
            "units.toml",
            &[
                "agent",
                "agents",
                "generic",
                "mix",
                "override",
                "stats",
                "unit_type",
            ],
        ),
    ];
    fn shell() -> &'static Embedded<Data> {
        &EMBEDDED
    }
    fn load(files: &Files) -> Result<Data, DataErrors> {
        Data::load(
            files.get("map.toml"),
            files.get("units.toml"),
            files.get("tables.toml"),
            files.get("scenarios.toml"),
        )
    }
    fn check(d: &Data) -> Result<DataCheck, DataErrors> {
        Ok(DataCheck {
            hash: d.hash,
            facts: facts(d),
            by_provenance: d
                .provenance_counts()
                .into_iter()
                .map(|(k, v)| (k.name().to_string(), v))
                .collect(),
        })
    }
    fn over(data: Arc<Data>) -> Ac {
        Ac { data }
    }
}

/// The ruleset over a data set.
#[derive(Clone)]
pub struct Ac {
    data: Arc<Data>,
}

static EMBEDDED: Embedded<Data> = Embedded::new();

impl Default for Ac {
    fn default() -> Self {
        Ac::new()
    }
}

impl Ac {
    /// The game with its embedded data.
    pub fn new() -> Ac {
        // The embedded files are part of the build and checked by a test
        // (`embedded_data_passes_every_check`): fail loudly, never play a broken map.
        Ac::embedded()
    }

    /// The game over other data files (a club's own, or a fixture), by file name.
    pub fn with_data(files: &BTreeMap<String, String>) -> Result<Ac, DataErrors> {
        let f = |n: &str, e: &'static str| files.get(n).map_or(e, String::as_str).to_string();
        let d = Data::load(
            &f("map.toml", data::MAP_TOML),
            &f("units.toml", data::UNITS_TOML),
            &f("tables.toml", data::TABLES_TOML),
            &f("scenarios.toml", data::SCENARIOS_TOML),
        )?;
        Ok(Ac { data: Arc::new(d) })
    }

    /// The game over a test's hand-built fixture ([`data::Checks::Fixture`]):
    /// `map.toml` and `scenarios.toml` are the fixture's own; `units.toml`
    /// and `tables.toml` default to the embedded files, whose pieces and key
    /// cities of regions the fixture's map leaves out are left out too.
    pub fn fixture(files: &BTreeMap<String, String>) -> Result<Ac, DataErrors> {
        let own = |n: &str| {
            files
                .get(n)
                .cloned()
                .ok_or_else(|| vec![format!("a fixture needs its own {n}")])
        };
        let f = |n: &str, e: &'static str| files.get(n).map_or(e, String::as_str).to_string();
        let d = Data::fixture(
            &own("map.toml")?,
            &f("units.toml", data::UNITS_TOML),
            &f("tables.toml", data::TABLES_TOML),
            &own("scenarios.toml")?,
        )?;
        Ok(Ac { data: Arc::new(d) })
    }

    /// The same game as it played at an earlier `version` (see
    /// [`Ruleset::at_version`]), typed: for tests that show what a version
    /// changed.
    pub fn as_of(&self, version: u32) -> Option<Ac> {
        (5..=VERSION).contains(&version).then(|| Ac {
            data: Arc::new(Data {
                version,
                ..(*self.data).clone()
            }),
        })
    }

    /// The data in use.
    pub fn data(&self) -> &Data {
        &self.data
    }

    /// The game as it played at `version`, typed (`at_version` checks which
    /// versions are kept).
    pub fn at(&self, version: u32) -> Ac {
        let data = Data {
            version,
            ..(*self.data).clone()
        };
        Ac {
            data: Arc::new(data),
        }
    }
}

fn power(side: Side) -> Result<Power, RuleError> {
    match side.0 {
        0 => Ok(Power::British),
        1 => Ok(Power::Russian),
        _ => Err(RuleError::illegal(
            "Asia Crossroads has two sides, british and russian",
            "1.0",
        )),
    }
}

fn side(p: Power) -> Side {
    Side(p.index() as u8)
}

fn opt(name: &str, default: &str, values: &[&str], help: &str) -> OptionInfo {
    OptionInfo {
        name: name.into(),
        default: default.into(),
        values: values.iter().map(|s| s.to_string()).collect(),
        help: help.into(),
    }
}

/// Reads the options; returns them with the base scenario for `s3`.
pub fn read_options(setup: &Setup) -> Result<(Options, String), String> {
    let mut o = Options::default();
    let mut base = "s1".to_string();
    for (k, v) in &setup.options {
        match (k.as_str(), v.as_str()) {
            ("ultimatums", "on") => o.ultimatums = true,
            ("ultimatums", "off") => o.ultimatums = false,
            ("staff_work", "on") => o.staff_work = true,
            ("staff_work", "off") => o.staff_work = false,
            ("forced_march", "on") => o.forced_march = true,
            ("forced_march", "off") => o.forced_march = false,
            ("telegraph", "on") => o.telegraph = true,
            ("telegraph", "off") => o.telegraph = false,
            ("massacre", "on") => o.massacre = true,
            ("massacre", "off") => o.massacre = false,
            ("discoveries", "on") => o.discoveries = true,
            ("discoveries", "off") => o.discoveries = false,
            ("levy", "any") => o.levy_any = true,
            ("levy", "invasion") => o.levy_any = false,
            ("defection", "forces") => o.defection_combat_only = false,
            ("defection", "combat") => o.defection_combat_only = true,
            ("base", "s1" | "s2") => base = v.clone(),
            ("setup", "chosen") => (o.chosen_setup, o.sealed_setup) = (true, false),
            ("setup", "sealed") => (o.chosen_setup, o.sealed_setup) = (true, true),
            ("setup", "printed") => (o.chosen_setup, o.sealed_setup) = (false, false),
            _ => {
                return Err(format!(
                    "option {k}={v:?} is not allowed; see `umpire rules ac`"
                ));
            }
        }
    }
    Ok((o, base))
}

impl Ruleset for Ac {
    fn at_data(
        &self,
        data: &umpire_core::hash::Digest,
    ) -> Option<Arc<dyn umpire_core::ruleset::DynRuleset>> {
        DESCRIPTOR.at_data(data)
    }

    type State = State;
    type Order = Order;

    fn info(&self) -> RulesetInfo {
        let sides = vec!["british".to_string(), "russian".to_string()];
        let mut scenarios: Vec<ScenarioInfo> = self
            .data
            .scenarios
            .iter()
            .map(|s| ScenarioInfo {
                name: s.key.clone(),
                title: s.title.clone(),
                sides: sides.clone(),
            })
            .collect();
        scenarios.push(ScenarioInfo {
            name: "s3".into(),
            title: "The Great Game: from the base scenario (option base) to 1900-04".into(),
            sides,
        });
        RulesetInfo {
            name: "ac".into(),
            // 2: the economy as the engine's sealed round, the options of
            // 28.0, 30.0 and 32.0 (new state fields and data). Version 1 is
            // not kept (`at_version`): it was a first slice with no club games.
            // 3: rail and amphibious moves into and out of the home bases
            // (19.11-19.14) and the two-sided agreements (23.0); unreleased,
            // so version 2 is not kept either.
            // 4: player-chosen set-ups (26.0), the Jihad placed by its
            // player (21.2), the reversion's cities by standing order
            // (5.51(2)), agreements that lapse at the end of the turn and
            // prisoners as a term (23.0, 16.42(1)); unreleased, so version 3
            // is not kept.
            // 5: the sealed set-up (option setup=sealed), reversion by
            // negotiations and event (5.5; stand-in N cells and Native
            // Unrest), event choices as standing orders or questions (N13);
            // new state fields and data, so replays differ; unreleased, so
            // version 4 is not kept.
            // 6: a later amphibious leg of a move pays one SP (13.83, ruling
            // A24), not 13.81's one or two by its own start; `discover`
            // refuses words after its square (32.3) rather than ignoring
            // them. Version 5 is kept (`at_version`, `Data::version`).
            // 7: the `reorganize` order (18.0), refused as unknown by 6.
            // 8: `reorganize` also in a set-up mail (18.4) and in an
            // operations-phase move (18.0 "at any point"), refused there by
            // 7; `show`/`hide AGENT` (22.3: face up or down), unknown to 7.
            // 9: a CRT the attacking force may not use (14.61, 14.62) is
            // refused, not fought on the other table; natives stacked with
            // no more than the former controller's agent are eliminated
            // when their region defects (5.6; option `defection`); the
            // audit's refusals (a forced march's lost SP the player lacks,
            // a piece dropped twice or after the whole force, a massacre
            // order where no enemy marker stands, extra words after one-unit
            // orders, a second attempt against a region or with an agent in
            // one move, orders after `end`) and told alterations; `accept N`
            // of an offer the proposer can no longer meet is carried out as
            // the agreement's failure, not refused (the refusal told the
            // accepting player the proposer's treasury, 9.0).
            // Versions 5 to 8 are kept.
            version: self.data.version,
            data: Some(self.data.hash),
            title: "Asia Crossroads: The Great Game".into(),
            summary: "Britain against Russia in Central Asia, 1835-1904: negotiations, invasions, agents, supply and a sealed economy on a square grid.".into(),
            scenarios,
            options: vec![
                opt("ultimatums", "off", &["off", "on"], "optional rule 15.6: Ultimatums, on the printed Ultimatum Table"),
                opt("staff_work", "off", &["off", "on"], "optional rule 29.0: from 1890-94 all-red or all-blue forces move free in their second operation"),
                opt("forced_march", "off", &["off", "on"], "optional rule 27.0: `forced` at the end of a move doubles the units' movement, then half the brigades and half its SP are lost (ruling A27)"),
                opt("telegraph", "off", &["off", "on"], "optional rule 28.0: a force moving along your railroads picks up unmoved units on railroad squares it enters (`pick:ID` in the path)"),
                opt("massacre", "off", &["off", "on"], "optional rule 30.0 in place of 20.5: `massacre SQ` after movement: enemy markers gone, 1 pound loot in a city, no forage this turn, the index 2 toward the enemy"),
                opt("discoveries", "off", &["off", "on"], "optional rule 32.0: `discover AGENT` in a city of a region that began neutral; results 23-66 of the table are stand-ins"),
                opt("levy", "any", &["any", "invasion"], "ruling A14: the levy of 5.42(3) whenever a neutral region joins a player (any), or only on invasion"),
                opt("defection", "forces", &["forces", "combat"], "5.6: when a region defects, its units stacked with any force of the former controller, a lone agent included (forces: 2.4, 12.2), or only with his combat units (combat), are eliminated"),
                opt("setup", "chosen", &["chosen", "sealed", "printed"], "26.0: the players place what the scenario leaves to them (chosen: first setter, then second; sealed: both at once in one sealed round, each hidden from the other until both are in), or the defaults of scenarios.toml stand"),
                opt("base", "s1", &["s1", "s2"], "scenario 3: start from the set-up of scenario 1 or 2 (26.0 S3 1.0)"),
            ],
        }
    }

    /// Versions 5 to 8: version 8 with the CRT choice, defection and the
    /// audit's checks as they were, and refusing `accept` of an offer its
    /// proposer cannot meet (23.1) (see `info`); version 7 with `reorganize`
    /// in the economy round only (18.0); version 6 without `reorganize`;
    /// version 5 also without the SP of a later amphibious leg (13.83) and
    /// `discover`'s extra words (32.3).
    /// The state deserialises from its JSON (its unit ids interned again),
    /// so the store keeps a snapshot of a game's head.
    fn restore(&self, json: &[u8]) -> Option<Result<State, String>> {
        Some(umpire_core::ruleset::state_from_json(json))
    }

    fn at_version(&self, version: u32) -> Option<Arc<dyn umpire_core::ruleset::DynRuleset>> {
        if !(5..=8).contains(&version) {
            return None;
        }
        Some(Arc::new(self.at(version)))
    }

    fn setup(&self, setup: &Setup) -> Result<State, SetupError> {
        // The scenario and the sides are the engine's to check
        // (`check_setup`); the base scenario `s3` starts from is an option.
        let (options, base) = read_options(setup)?;
        let d = &*self.data;
        let key = if setup.scenario == "s3" {
            base.as_str()
        } else {
            setup.scenario.as_str()
        };
        let idx = d
            .scenarios
            .iter()
            .position(|s| s.key == key)
            .ok_or_else(|| format!("ac has scenarios s1, s2 and s3, not {:?}", setup.scenario))?;
        let sc = &d.scenarios[idx];
        // 26.0 S3 1.0: play through to the 1900-04 turn.
        let turns = if setup.scenario == "s3" {
            (1900 - sc.first_year) / 5 + 1
        } else {
            sc.turns
        };
        Ok(setup::new_state(d, idx, turns, options)?)
    }

    fn prompt(&self, st: &State) -> Prompt {
        Prompt {
            stage: stage_line(st),
            awaiting: awaiting(&self.data, st),
            finished: st.finished.clone(),
        }
    }

    fn parse(
        &self,
        st: &State,
        s: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, Order)>, OrderError> {
        let p = power(s).map_err(|e| OrderError {
            line: lines.first().map_or(0, |l| l.line),
            column: 1,
            message: e.to_string(),
            rule: None,
        })?;
        orders::parse(&self.data, st, p, lines)
    }

    fn parse_all(
        &self,
        st: &State,
        s: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, Order)>, Vec<OrderError>> {
        let p = power(s).map_err(|e| {
            vec![OrderError {
                line: lines.first().map_or(0, |l| l.line),
                column: 1,
                message: e.to_string(),
                rule: None,
            }]
        })?;
        orders::parse_all(&self.data, st, p, lines)
    }

    fn apply(
        &self,
        st: &mut State,
        s: Side,
        order: &Order,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        turn::apply(&self.data, st, power(s)?, order, dice)
    }

    fn legal_moves(&self, st: &State, s: Side) -> Vec<String> {
        match power(s) {
            Ok(p) => legal::legal(&self.data, st, p),
            Err(_) => Vec::new(),
        }
    }

    fn example_moves(&self, st: &State, s: Side, n: usize) -> Vec<String> {
        // A move is offered both alone (to go on with more orders) and
        // followed by `end`; a template's examples show it once.
        let all = self.legal_moves(st, s);
        all.iter()
            .filter(|m| !all.contains(&format!("{m}\nend")))
            .take(n)
            .cloned()
            .collect()
    }

    fn hides_information(&self, _setup: &Setup) -> bool {
        // 22.0 fog of war, secret treasuries (9.0) and the sealed economy (3.1[3]).
        true
    }

    fn order_audience(&self, _st: &State, s: Side, order: &Order) -> Audience {
        match order {
            // What a player buys, where he moves and which CRT he wants are his
            // own (22.1, 3.1[3]); the opponent learns what the map shows him.
            Order::Econ(_)
            | Order::Done
            | Order::Move { .. }
            | Order::Crt(..)
            | Order::Place(..)
            | Order::PlaceMarker(..) => Audience::side(s),
            Order::Initiative(_)
            | Order::Choose(_)
            | Order::Negotiate(_)
            | Order::End
            | Order::Massacre(_)
            | Order::Discover(..)
            | Order::Execute(_)
            | Order::Release(..)
            // 22.3: showing or hiding an agent is done in the open.
            | Order::Face(..)
            | Order::Deal(_) => Audience::All,
        }
    }

    fn set_standing(
        &self,
        st: &mut State,
        s: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<Event>, OrderError> {
        let p = power(s).map_err(|e| OrderError {
            line: lines.first().map_or(0, |l| l.line),
            column: 1,
            message: e.to_string(),
            rule: None,
        })?;
        let new = standing::parse(lines)?;
        check_reversion(&self.data, st, &new, lines)?;
        st.standing[p.index()] = new;
        // Standing orders are the side's own: the event says only that they changed.
        Ok(vec![
            Event::say(format!(
                "Your standing orders: {}",
                standing::show(&st.standing[p.index()]).join("; ")
            ))
            .to(Audience::side(s)),
        ])
    }

    fn standing(&self, st: &State, s: Side) -> Vec<String> {
        match power(s) {
            Ok(p) => standing::show(&st.standing[p.index()]),
            Err(_) => Vec::new(),
        }
    }

    /// Both sides draw from the same varied set (N1-N14; `standing::samples`).
    fn standing_samples(&self, st: &State, _s: Side) -> Vec<Vec<String>> {
        standing::samples(&self.data, st)
    }

    fn twin(&self, st: &State, viewer: umpire_core::ruleset::Viewer, seed: u64) -> Option<State> {
        twin::twin(&self.data, st, viewer, seed)
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
    fn own_marks(&self, _st: &State, s: Side) -> Vec<char> {
        power(s)
            .map(|p| vec![board::letter(Some(p))])
            .unwrap_or_default()
    }

    fn invariants(&self, st: &State) -> Result<(), InvariantError> {
        invariants(&self.data, st).map_err(InvariantError)
    }
}

/// The stage of the game, as the prompt names it.
fn stage_line(st: &State) -> String {
    match &st.stage {
        Stage::Setup(p) => format!("Set-up (26.0): the {} place their forces", p.people()),
        Stage::SetupSealed => "Set-up (26.0), sealed: both players place their forces".into(),
        Stage::Initiative => format!("Turn {} ({}): initiative", st.turn, st.year()),
        Stage::Economy => format!("Turn {} ({}): income and expenditure", st.turn, st.year()),
        Stage::Choice(q) => format!(
            "Turn {} ({}): random events, the {} choose",
            st.turn,
            st.year(),
            q.who.people()
        ),
        Stage::Ops(ph) => format!(
            "Turn {} ({}): {} operations phase {}",
            st.turn,
            st.year(),
            ph.side.name(),
            ph.k
        ),
        Stage::Over => format!("Turn {}: the game is over", st.turn),
    }
}

/// Who owes what now, with the default a deadline gives.
fn awaiting(d: &Data, st: &State) -> Vec<Await> {
    // 18.4: reorganization at set-up (from version 8).
    let reorg = if d.version >= 8 {
        ", `reorganize UNITS into N+N` (18.4)"
    } else {
        ""
    };
    match &st.stage {
        Stage::Setup(p) => vec![Await {
            side: side(*p),
            kind: AwaitKind::Orders,
            ask: format!("set up (26.0): `place PIECES at CITY`, `place KIND from CITY at CITY`{reorg}; what you do not move stands where your status shows it; the mail is your whole set-up"),
            default: vec!["done".into()],
        }],
        Stage::SetupSealed => Power::ALL
            .iter()
            .filter(|p| !st.sealed[p.index()])
            .map(|p| Await {
                side: side(*p),
                kind: AwaitKind::SealedOrders,
                ask: format!("set up (26.0), sealed: `place PIECES at CITY`, `place KIND from CITY at CITY`{reorg}; what you do not move stands where your status shows it; the mail is your whole set-up, hidden from the other player until both are in"),
                default: vec!["done".into()],
            })
            .collect(),
        Stage::Initiative => vec![Await {
            side: side(turn::chooser(st)),
            kind: AwaitKind::Orders,
            ask: "the index favours you: `initiative first` or `initiative second` (7.2)".into(),
            default: vec!["initiative first".into()],
        }],
        Stage::Choice(q) => vec![Await {
            side: side(q.who),
            kind: AwaitKind::Decision,
            ask: events_ask(d, q),
            default: q
                .options
                .first()
                .map(|r| format!("choose {}", d.reg(*r).code))
                .into_iter()
                .collect(),
        }],
        Stage::Economy => Power::ALL
            .iter()
            .filter(|p| !st.sealed[p.index()])
            .map(|p| Await {
                side: side(*p),
                kind: ECONOMY_AWAIT,
                ask: format!(
                    "income and expenditure, sealed: buy, recruit, agent, build, disband, reorganize, give, cede, release, execute; the mail is your whole plan (`done` is implied) ({} pounds, {} SP; 3.1[3]){}",
                    st.treasury[p.index()],
                    st.sp[p.index()],
                    provisioning_warning(d, st, *p)
                ),
                default: vec!["done".into()],
            })
            .collect(),
        Stage::Ops(ph) => vec![Await {
            side: side(ph.side),
            kind: AwaitKind::Orders,
            ask: format!(
                "your operations phase {} of 5: move, negotiate, crt{}, then `end` for belligerency and combat ({} SP; 12.0){}",
                ph.k,
                // 18.0 "at any point" (from version 8).
                if d.version >= 8 { ", reorganize" } else { "" },
                st.sp[ph.side.index()],
                // The last phase before provisioning.
                if ph.k == 5 {
                    provisioning_warning(d, st, ph.side)
                } else {
                    String::new()
                }
            ),
            default: vec!["end".into()],
        }],
        Stage::Over => Vec::new(),
    }
}

/// The warning a player's prompt carries before provisioning will cost him
/// SP or units (17.3-17.6), or nothing. The ask is his own (a game that
/// hides information shows another side's ask only as its kind).
fn provisioning_warning(d: &Data, st: &State, p: Power) -> String {
    supply::warning(d, st, p).map_or(String::new(), |w| format!("; {w}"))
}

/// The question an event puts (N13), for the mail.
fn events_ask(d: &Data, q: &state::EventChoice) -> String {
    let codes: Vec<&str> = q.options.iter().map(|r| d.reg(*r).code.as_str()).collect();
    let (what, rule) = match q.kind {
        state::ChoiceKind::Uprising => ("which neutral region the uprising wins for you", "5.4(1)"),
        state::ChoiceKind::Unrest => ("which of your regions reverts to neutral", "5.5, 5.51"),
    };
    format!(
        "random events: choose {what}: `choose REGION`, one of {} (the default is the first; {rule}, N13)",
        codes.join(" ")
    )
}

/// N8 (5.51(2)): every `reversion:` line names a region and cities of it,
/// each either for the whole region or, as `UNIT=CITY`, for one unit of that
/// region (ruling A70: the former controller places unit by unit);
/// N13: every `uprising:` and `unrest:` region exists.
fn check_reversion(
    d: &Data,
    st: &state::State,
    s: &standing::Standing,
    lines: &[SourceLine],
) -> Result<(), OrderError> {
    for (code, cities) in &s.reversion {
        let at = lines
            .iter()
            .rev()
            .find(|l| l.text.to_ascii_lowercase().contains("reversion"))
            .or(lines.first());
        let bad = |m: String| OrderError {
            line: at.map_or(0, |l| l.line),
            column: at.map_or(1, |l| l.column),
            message: m,
            rule: Some("5.51(2)".into()),
        };
        let r = d
            .region(code)
            .ok_or_else(|| bad(format!("reversion: no region {code:?}")))?;
        for entry in cities {
            let (unit, c) = standing::reversion_entry(entry);
            if let Some(u) = unit {
                let ok = st
                    .find_unit(u)
                    .is_some_and(|x| st.unit(x).nat == data::Nat::Native(r));
                if !ok {
                    return Err(bad(format!(
                        "reversion: {u:?} is not a unit of {}",
                        d.reg(r).name
                    )));
                }
            }
            let ok = d.find_city(c).is_some_and(|x| d.city(x).region == r);
            if !ok {
                return Err(bad(format!(
                    "reversion: {c:?} is not a city of {}",
                    d.reg(r).name
                )));
            }
        }
    }
    for (key, pick) in [("uprising", &s.uprising), ("unrest", &s.unrest)] {
        let standing::RegionPick::List(codes) = pick else {
            continue;
        };
        let at = lines
            .iter()
            .rev()
            .find(|l| l.text.to_ascii_lowercase().contains(key))
            .or(lines.first());
        if let Some(c) = codes.iter().find(|c| d.region(c).is_none()) {
            return Err(OrderError {
                line: at.map_or(0, |l| l.line),
                column: at.map_or(1, |l| l.column),
                message: format!("{key}: no region {c:?}"),
                rule: Some(if key == "uprising" { "5.4(1)" } else { "5.5" }.into()),
            });
        }
    }
    Ok(())
}

/// What the rules guarantee about any state reached by play.
pub fn invariants(d: &Data, st: &State) -> Result<(), String> {
    let limit = d.num.bop.limit;
    // 4.3 and the errata: the index is never 0 and never past 18.
    if st.bop == 0 || st.bop.abs() > limit {
        return Err(format!("the index is at {}", st.bop));
    }
    if !(1..=st.turns).contains(&st.turn) {
        return Err(format!("turn {} is outside 1-{}", st.turn, st.turns));
    }
    for u in &st.units {
        match u.loc {
            Loc::Sq(s) if !d.land(s) => {
                return Err(format!("{} stands on {s}, which is not land (13.71)", u.id));
            }
            // 19.21, 19.22: only red in Central India, only blue in the Urals.
            Loc::Base(b) if u.nat.regular() != Some(b.owner()) => {
                return Err(format!("{} is in {} (19.2)", u.id, b.name()));
            }
            Loc::Dead | Loc::Prisoner(_) => {
                return Err(format!("combat unit {} is dead or prisoner", u.id));
            }
            _ => {}
        }
        if u.nat == data::Nat::Ghazi && u.loc.in_play() && st.ghazis.is_none() {
            return Err(format!("Ghazi {} is in play with no Jihad (21.3)", u.id));
        }
    }
    for (i, a) in st.agents.iter().enumerate() {
        if let Loc::Prisoner(_) | Loc::Dead = a.loc
            && State::is_generic(d, state::AgentId(i as u16))
            && matches!(a.loc, Loc::Prisoner(_))
        {
            return Err(format!(
                "{} is a generic agent held prisoner (16.41)",
                d.agents[i].name
            ));
        }
        if let Loc::Sq(s) = a.loc
            && !d.land(s)
        {
            return Err(format!("{} stands in the sea", d.agents[i].name));
        }
    }
    // 20.21, 20.23: one marker of a kind a square, never both players'.
    for m in &st.markers {
        let same = st
            .markers
            .iter()
            .filter(|x| x.sq == m.sq && x.owner == m.owner && x.kind == m.kind)
            .count();
        if same > 1
            || st
                .markers
                .iter()
                .any(|x| x.sq == m.sq && x.owner != m.owner)
        {
            return Err(format!("markers clash on {} (20.21, 20.23)", m.sq));
        }
    }
    // 11.4: at the end of every combat sub-phase no square holds both players' combat units.
    // An event between turns (an uprising, 5.4(1)) may give a neutral region's units to one
    // player where the other's stand; they fight in the first player's first combat
    // sub-phase (14.21), so the check holds from the second player's first phase on.
    let at_rest = match &st.stage {
        Stage::Ops(ph) => {
            let first_of_turn = ph.k == 1 && ph.side == st.first;
            !first_of_turn && !ph.negotiating && st.units.iter().all(|u| !u.moved)
        }
        Stage::Over => true,
        Stage::Economy => false,
        Stage::Initiative | Stage::Setup(_) | Stage::SetupSealed | Stage::Choice(_) => false,
    };
    if at_rest {
        for u in &st.units {
            if let (Loc::Sq(s), Some(p)) = (u.loc, st.owner(u.nat))
                && st.occupies(s, p.other())
            {
                return Err(format!(
                    "both players' combat units are in {s} after combat (11.4)"
                ));
            }
        }
    }
    if st.finished.is_some() != (st.stage == Stage::Over) {
        return Err("the game is over in one field and not the other".into());
    }
    Ok(())
}

/// The facts `umpire data check ac` prints about the data.
fn facts(d: &Data) -> Vec<String> {
    let land = d.all_squares().filter(|s| d.land(*s)).count();
    vec![
        format!(
            "map {} columns x {} rows, {} land squares, {} cities, {} regions",
            d.cols,
            d.rows,
            land,
            d.cities.len(),
            d.regions.len()
        ),
        format!(
            "trade-route segments {}, historical railways {}",
            d.route_edges.len() / 2,
            d.railways.len()
        ),
        format!(
            "{} counters in the mix, {} agents, {} scenarios (+ s3)",
            d.mix.values().sum::<u32>(),
            d.agents.len(),
            d.scenarios.len()
        ),
    ]
}

#[cfg(test)]
mod unknown_tables {
    /// A club's `units.toml` with a typo'd top-level table: refused, naming the
    /// table and the file, by the loader and by `umpire data check`.
    #[test]
    fn an_unknown_top_level_table_is_refused() {
        let (load, check) =
            umpire_core::data::with_extra_table(&super::DESCRIPTOR, "units.toml", "unitz");
        for e in [load, check] {
            let e = e.expect("a [unitz] table is refused");
            let named = |m: &str| m.contains("units.toml") && m.contains("[unitz]");
            assert!(e.iter().any(|m| named(m)), "{e}");
        }
    }
}
