//! `adp`: A Distant Plain, the card-driven COIN game of Afghanistan for one to
//! four players, by email.
//!
//! Four factions (1.5): Coalition, Government, Taliban, Warlords. Each card the
//! Eligible factions, in the card's order, may Pass, execute the Event, or an
//! Operation with or without a Special Activity (2.3); Propaganda cards bring
//! a Round of victory checks, earnings, Civic Action, Redeploy and Reset (6.0).
//!
//! Modules, one job each: `prov` (provenance-tagged TOML), `data` (map, forces,
//! set-up, checks), `cards` (the cards and the effect vocabulary), `pieces`,
//! `seats` (who plays which faction), `state`, `deck` (verifiable draws),
//! `orders` (parsing), `sequence` (2.x: eligibility, options, the card loop),
//! `action` (an Operation's lines and costs), `coin` and `insurgent` (the
//! Operations), `special` (the Special Activities), `removal` (removal orders,
//! Activation), `effects` (Events), `propaganda` (6.x), `victory` (7.x),
//! `transfer` (voluntary transfers, 1.5.1), `conditional` (standing
//! orders for the decisions other factions owe, digest D1-D4), `legal`
//! (sample orders), `nonplayer` (the umpire playing the factions no
//! side declares, 8.x), `view`.

#![warn(missing_docs)]

pub mod action;
pub mod board;
pub mod card_text;
pub mod cards;
pub mod coin;
pub mod concede;
pub mod conditional;
pub mod data;
pub mod deception;
pub mod deck;
pub mod effects;
pub mod event_check;
pub mod insurgent;
pub mod invariants;
pub mod legal;
pub mod nonplayer;
pub mod np_extent;
pub mod np_round;
pub mod orders;
pub mod pieces;
pub mod places;
pub mod propaganda;
pub mod prov;
pub mod removal;
pub mod seats;
pub mod sequence;
pub mod special;
pub mod state;
pub mod transfer;
mod twin;
pub mod victory;
pub mod view;

pub use data::Data;
pub use state::State;

use orders::Order;
use pieces::Faction;
use seats::{MODES, Seats};
use state::{Options, Stage};
use std::sync::Arc;
use umpire_core::data::DataErrors;
use umpire_core::data::{DataCheck, DataFile, DataGame, Descriptor, Embedded, Files, Tables};
use umpire_core::dice::Dice;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{
    Event, InvariantError, OptionInfo, OrderError, Prompt, RuleError, Ruleset, RulesetInfo,
    ScenarioInfo, Setup, SetupError, Side, View,
};

/// The ruleset's version (ARCHITECTURE "Upgrades"); see `Ruleset::info` for
/// what each changed. Versions 7, 8, 9 and 10 are kept playable ([`Adp::at`]).
pub const VERSION: u32 = 11;

/// The versions [`Adp::at`] reproduces: the current one; 10, the last before
/// an Event target that does nothing was refused where another space would
/// have done something (5.1) and a Civic Action or Sharia of 0 steps was
/// taken; 9, the last before
/// a Guerrilla could March once only across the lines of an Operation and
/// an Operation was checked whole before its first roll; 8, the last before
/// a Non-player placed Bases whenever possible (8.1 GUIDELINES); and 7, the
/// last before an Event could stop to ask another player (digest D3) and
/// the sampled Surge returned Troops to Available.
const KEPT: [u32; 5] = [7, 8, 9, 10, VERSION];

/// The ruleset, over a data set.
#[derive(Clone)]
pub struct Adp {
    data: Arc<Data>,
}

static EMBEDDED: Embedded<Data> = Embedded::new();

/// How the registry knows the game (`crates/games/src/lib.rs`).
pub const DESCRIPTOR: Descriptor = umpire_core::data::descriptor::<Adp>();

impl DataGame for Adp {
    type Data = Data;
    const NAME: &'static str = "adp";
    const VERSION: u32 = VERSION;
    const FILES: &'static [DataFile] = data::FILES;
    const TABLES: Tables = &[
        ("cards.toml", &["card"]),
        (
            "forces.toml",
            &["deception", "islamabad", "limits", "piece", "victory"],
        ),
        ("map.toml", &["loc", "space"]),
        (
            "nonplayer.toml",
            &[
                "coalition",
                "flow",
                "government",
                "halo",
                "random_spaces",
                "taliban",
                "warlords",
            ],
        ),
        ("setup.toml", &["at", "scenario"]),
    ];
    const EARLIER: &'static [umpire_core::data::EarlierData] = EARLIER;
    fn shell() -> &'static Embedded<Data> {
        &EMBEDDED
    }
    fn load(files: &Files) -> Result<Data, DataErrors> {
        Data::from_files(files)
    }
    fn check(d: &Data) -> Result<DataCheck, DataErrors> {
        Ok(data::summary(d))
    }
    fn over(data: Arc<Data>) -> Adp {
        Adp { data }
    }
}

/// The data sets adp embedded before, kept so records made with them replay
/// (`games/adp/earlier/`), newest first: version 8's with the flowchart
/// records (before version 9's notes on Redeploy, 4 December 2026), version
/// 8's before the flowchart records (3 December 2026), and version 7's
/// before the grant and chosen stand-in cards.
const EARLIER: &[umpire_core::data::EarlierData] = &[
    umpire_core::earlier_data!(
        "adp",
        "5c972dcc47c288f4",
        [
            "cards.toml",
            "forces.toml",
            "map.toml",
            "nonplayer.toml",
            "setup.toml"
        ]
    ),
    umpire_core::earlier_data!(
        "adp",
        "715ece38502205c3",
        [
            "cards.toml",
            "forces.toml",
            "map.toml",
            "nonplayer.toml",
            "setup.toml"
        ]
    ),
    umpire_core::earlier_data!(
        "adp",
        "69bc4abb6fa069c4",
        [
            "cards.toml",
            "forces.toml",
            "map.toml",
            "nonplayer.toml",
            "setup.toml"
        ]
    ),
];

impl Default for Adp {
    fn default() -> Self {
        Adp::new()
    }
}

impl Adp {
    /// The game with its embedded data.
    pub fn new() -> Adp {
        // The embedded files are part of the build and checked by tests
        // (`the_embedded_data_passes_every_check`): a failure panics rather
        // than play a broken map.
        Adp::embedded()
    }

    /// The game over other data files (a club's own), in [`data::FILES`] order.
    pub fn with_data(map: &str, forces: &str, cards: &str, setup: &str) -> Result<Adp, DataErrors> {
        Ok(Adp {
            data: Arc::new(Data::load(map, forces, cards, setup)?),
        })
    }

    /// The game over a test fixture: `files` by name (`map.toml`,
    /// `setup.toml`, `nonplayer.toml`, `cards.toml`, `forces.toml`; the
    /// embedded file where one is not given), read by the loader a club's
    /// data goes through and checked for consistency only
    /// ([`data::Scope::Fixture`]): a small map needs neither the printed
    /// game's counts nor the embedded Non-player file, which names the real
    /// spaces. A club's data keep every check (`umpire data check adp`).
    pub fn fixture(files: &std::collections::BTreeMap<String, String>) -> Result<Adp, DataErrors> {
        let files = Files::new(data::FILES, files)?;
        Ok(Adp {
            data: Arc::new(Data::fixture(&files)?),
        })
    }

    /// The data in use.
    pub fn data(&self) -> &Data {
        &self.data
    }

    /// The game as it played at `version` (ARCHITECTURE "Upgrades"), over
    /// the same data; `None` for a version not kept (before 7: unreleased).
    pub fn at(&self, version: u32) -> Option<Adp> {
        KEPT.contains(&version).then(|| {
            let mut d = (*self.data).clone();
            d.version = version;
            Adp { data: Arc::new(d) }
        })
    }
}

fn scenario_name(d: &Data, suffix: &str) -> String {
    format!("{}{suffix}", d.scenario.name)
}

/// The faction `side` acts for now, if it is awaited.
pub fn acting(
    d: &Data,
    st: &State,
    side: Side,
    order: Option<&Order>,
) -> Result<Faction, RuleError> {
    match &st.stage {
        Stage::Start => Err(RuleError::illegal(
            "the first cards are not yet drawn",
            "2.2",
        )),
        Stage::Card(_) => {
            let f = sequence::decider(d, st)
                .ok_or_else(|| RuleError::illegal("nobody is to act on this card", "2.3"))?;
            if st.seats.side(f) != Some(side) {
                return Err(RuleError::illegal(
                    format!("the {} are to act now (2.3.2)", f.name()),
                    "2.3.2",
                ));
            }
            Ok(f)
        }
        Stage::Propaganda(r) => {
            let named = match order {
                Some(Order::Plan(Some(f), _)) => Some(*f),
                _ => None,
            };
            r.waiting
                .iter()
                .copied()
                .find(|f| st.seats.side(*f) == Some(side) && named.is_none_or(|n| n == *f))
                .ok_or_else(|| RuleError::illegal("no Propaganda plan is awaited from you", "6.0"))
        }
        Stage::Over => Err(RuleError::illegal("the game is over", "7.0")),
    }
}

impl Adp {
    /// Carries out one order of `side` as it came (by mail or from a
    /// standing order).
    fn dispatch(
        &self,
        st: &mut State,
        side: Side,
        order: &Order,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        let d = &*self.data;
        let f = acting(d, st, side, Some(order))?;
        match (&st.stage, order) {
            (Stage::Propaganda(_), Order::Plan(_, plan)) => {
                propaganda::submit(d, st, f, plan.clone(), dice)
            }
            (
                Stage::Card(_),
                Order::Transfer {
                    amount,
                    patronage,
                    to,
                },
            ) => transfer::apply(d, st, f, *amount, *patronage, *to),
            (Stage::Card(_), Order::Deception(m)) => deception::use_marker(d, st, side, *m, dice),
            (Stage::Card(_), _) => sequence::act(d, st, f, order, dice),
            _ => Err(RuleError::illegal(
                "that order does not fit the game's stage",
                "2.0",
            )),
        }
    }

    /// What is due without a mail, until a player is asked: the
    /// Non-players' decisions (8.1), the players' conditional card orders
    /// that fit (D1, D2, D4), and grants the grantee could not use (D4).
    fn auto(
        &self,
        st: &mut State,
        dice: &mut Dice,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let d = &*self.data;
        let dispatch =
            |s: &mut State, side: Side, o: &Order, dice: &mut Dice| self.dispatch(s, side, o, dice);
        // Each turn of the loop ends one faction's part of a card: the deck
        // bounds them long before this.
        for _ in 0..1000 {
            nonplayer::play(d, st, dice, events)?;
            if conditional::step(d, st, dice, events, &dispatch)?
                || conditional::idle_grant(d, st, dice, events)?
            {
                continue;
            }
            return Ok(());
        }
        Err(RuleError::illegal(
            "the standing orders did not stop",
            "2.3",
        ))
    }
}

impl Ruleset for Adp {
    fn at_data(
        &self,
        data: &umpire_core::hash::Digest,
    ) -> Option<Arc<dyn umpire_core::ruleset::DynRuleset>> {
        DESCRIPTOR.at_data(data)
    }

    type State = State;
    type Order = Order;

    fn info(&self) -> RulesetInfo {
        let d = &*self.data;
        RulesetInfo {
            name: "adp".into(),
            // 2: Non-players, sealed Propaganda plans (the game now hides
            // information), transfers; 3: Train from the map, Insurgents'
            // own pieces to Available, standing transfer offers, the
            // Random Spaces table; ARCHITECTURE "Upgrades". Unreleased: no
            // `at_version(2)` emulation. 4: every illegal line of an
            // Operation reported (the refusal's text), Deception markers,
            // Non-player removal guidelines, concede; unreleased again, no
            // `at_version(3)`. 5: `concede` taken out of turn (A48,
            // `out_of_turn`), more Non-player removal guidelines (8.1);
            // unreleased, no `at_version(4)`. 6: conditional card orders
            // and grants to other factions (digest D1, D2, D4), the
            // standing orders sealed to their side, the Non-players'
            // Special Activities by situation; unreleased, no
            // `at_version(5)`. 7: Non-players buy Civic Action and Sharia
            // in a Propaganda Round (8.1 GUIDELINES, ruling A49) and widen
            // their Operations to the maximum extent (A50); unreleased, no
            // `at_version(6)`. 8: an Event step naming a player of another
            // side to choose its spaces stops and asks it (`choose`, digest
            // D3, 5.1) where it has no standing choice, and the sampled
            // Surge (the Non-player Coalition's "train surge") returns a
            // Troop to Available first (7.2). Version 7 (the default, the
            // old Surge) is kept: `at_version(7)`. 9: a Non-player places
            // friendly Bases whenever possible (8.1 GUIDELINES: a Base in
            // each Rally space, a Government Train's step 2 a Base where it
            // has none) and removes its own cubes for one Police and Troops
            // evenly; its March brings a group from every adjacent space
            // that keeps Control; a Non-player Coalition Redeploys (A51);
            // a Non-player's Infiltrate takes Underground Guerrillas and
            // Police and Troops evenly; a Government player names the
            // Police its Train Base replaces. Version 8 is kept:
            // `at_version(8)`. 10: a Guerrilla Marches once in an
            // Operation, whatever its lines (3.3.2: on only from a Pashtun
            // destination; a leg's Guerrillas one group); an Operation that
            // would roll is checked whole before its first roll (2.3.5,
            // 2.3.8, invariant 4); a Non-player selects no space where its
            // Operation does nothing (8.1 GUIDELINES: "only as long as
            // needed pieces ... are available"); orders silently capped or
            // dropped are refused or told. Version 9 is kept:
            // `at_version(9)`. 11: an Event space where its step would do
            // nothing is refused while another qualifying space would do
            // something, as are a space named twice for one step and a
            // step given fewer spaces than it takes while more would
            // change (5.1: do as much as can be done); the samples and the
            // Non-players name such spaces; a Civic Action or Sharia of 0
            // steps is refused (6.4.1, 6.4.2). Version 10 is kept:
            // `at_version(10)`.
            version: d.version,
            data: Some(d.hash),
            title: "A Distant Plain".into(),
            summary: "Afghanistan: Coalition, Government, Taliban and Warlords; a card-driven COIN game (stand-in card effects and set-up)".into(),
            scenarios: MODES
                .iter()
                .map(|m| ScenarioInfo {
                    name: scenario_name(d, m.suffix),
                    title: format!("{}, {}", d.scenario.title, m.title),
                    sides: m.sides.iter().map(|(n, _)| n.to_string()).collect(),
                })
                .collect(),
            options: vec![OptionInfo {
                name: "sudden_propaganda".into(),
                default: "no".into(),
                values: vec!["no".into(), "yes".into()],
                help: "2.3.7: a Propaganda card revealed as the next card is played at once, the Event showing opens the next Campaign; the Final Event Card rule (2.3.8) is ignored".into(),
            }, OptionInfo {
                name: "deception".into(),
                default: "no".into(),
                values: vec!["no".into(), "yes".into()],
                help: "7.3 Victory Deception, 3 or 4 players: each player draws 2 hidden markers (Empty Threat, Hidden Agenda +1 margin, Hidden Asset: `deception hidden-asset` turns a Limited Operation option into a full Operation with a Special Activity); the mix of the 12 is a stand-in".into(),
            }, OptionInfo {
                name: "short".into(),
                default: "no".into(),
                values: vec!["no".into(), "yes".into()],
                help: format!("a short game: {} Propaganda cards, each shuffled into a pile of {} Events (setup.toml `short_piles`, a stand-in: the printed short scenario, 2.1 pp.19-20, is missing)", d.scenario.short.0, d.scenario.short.1),
            }],
        }
    }

    fn setup(&self, setup: &Setup) -> Result<State, SetupError> {
        let d = &*self.data;
        let Some(mode) = MODES
            .iter()
            .find(|m| scenario_name(d, m.suffix) == setup.scenario)
        else {
            let names: Vec<String> = MODES.iter().map(|m| scenario_name(d, m.suffix)).collect();
            return Err(format!(
                "adp has the scenarios {}, not {:?}",
                names.join(", "),
                setup.scenario
            )
            .into());
        };
        // The engine has checked the scenario and the sides (`check_setup`);
        // the lookup above only finds the scenario's seats.
        let mut options = Options::default();
        let mut short = false;
        for (k, v) in &setup.options {
            match (k.as_str(), v.as_str()) {
                ("short", "yes") if d.scenario.short != (0, 0) => short = true,
                ("short", "no") => short = false,
                ("sudden_propaganda", "yes") => options.sudden_propaganda = true,
                ("sudden_propaganda", "no") => options.sudden_propaganda = false,
                ("deception", "yes") => {
                    deception::allowed(d, setup.sides.len())?;
                    options.deception = true;
                }
                ("deception", "no") => options.deception = false,
                _ => {
                    return Err(
                        format!("option {k}={v:?} is not allowed; see `umpire rules adp`").into(),
                    );
                }
            }
        }
        // The deck alone differs in the short game: nothing else to keep.
        let deck = if short {
            deck::Deck::short(d)
        } else {
            deck::Deck::new(d)
        };
        Ok(State::new(d, Seats::of(mode), options, deck))
    }

    /// Propaganda plans are simultaneous (6.0): they come as sealed orders,
    /// which need the hidden-information machinery (salted state hashes,
    /// per-side records). Everything else in the game is public.
    fn hides_information(&self, _setup: &Setup) -> bool {
        true
    }

    fn prompt(&self, st: &State) -> Prompt {
        view::prompt(&self.data, st)
    }

    fn parse(
        &self,
        st: &State,
        _side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, Order)>, OrderError> {
        if let Some(o) = concede::parse(st, lines) {
            return Ok(o);
        }
        orders::parse(&self.data, lines, matches!(st.stage, Stage::Propaganda(_)))
    }

    /// Every line that does not read, at once (`orders::parse_all`).
    fn parse_all(
        &self,
        st: &State,
        _side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, Order)>, Vec<OrderError>> {
        if let Some(o) = concede::parse(st, lines) {
            return Ok(o);
        }
        orders::parse_all(&self.data, lines, matches!(st.stage, Stage::Propaganda(_)))
    }

    fn apply(
        &self,
        st: &mut State,
        side: Side,
        order: &Order,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        let d = &*self.data;
        // Ruling A48: a player may concede at any time, on turn or not.
        if let Order::Concede = order {
            let mut events = concede::apply(d, st, side, dice)?;
            self.auto(st, dice, &mut events)?;
            deception::at_end(st, dice, &mut events);
            return Ok(events);
        }
        let mut events = self.dispatch(st, side, order, dice)?;
        // 8.1: the Non-players handed a card by this move decide now, and
        // the players' standing orders that fit (D1, D2, D4).
        self.auto(st, dice, &mut events)?;
        // 7.3: the markers still hidden are shown when the game ends.
        deception::at_end(st, dice, &mut events);
        Ok(events)
    }

    /// A side's standing orders replace its earlier ones (no lines clear
    /// them): standing transfer offers (1.5.1, digest D5) and conditional
    /// card orders (D1, D2, D4, `conditional`).
    fn set_standing(
        &self,
        st: &mut State,
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<Event>, OrderError> {
        let (cards, rest) = conditional::parse(&self.data, st, side, lines)?;
        let offers = transfer::parse_standing(&self.data, st, side, &rest)?;
        let mine = st.seats.factions_of(side).to_vec();
        st.standing.retain(|o| !mine.contains(&o.giver));
        st.cards.retain(|b| !mine.contains(&b.faction));
        let mut text: Vec<String> = offers.iter().map(transfer::Standing::text).collect();
        text.extend(cards.iter().map(conditional::CardOrder::text));
        st.standing.extend(offers);
        st.cards.extend(cards);
        Ok(vec![Event::say(if text.is_empty() {
            "standing orders withdrawn".to_string()
        } else {
            format!("standing orders: {}", text.join("; "))
        })])
    }

    fn standing(&self, st: &State, side: Side) -> Vec<String> {
        let mine = st.seats.factions_of(side);
        st.standing
            .iter()
            .filter(|o| mine.contains(&o.giver))
            .map(transfer::Standing::text)
            .chain(
                st.cards
                    .iter()
                    .filter(|b| mine.contains(&b.faction))
                    .map(conditional::CardOrder::text),
            )
            .collect()
    }

    /// A side's standing orders are its secret until the game ends (the
    /// conditional card orders, D1): the move that sets them is sealed to
    /// it. The transfer offers among them are open all the same (1.5.1:
    /// "all negotiations are open"): every side's status lists them.
    fn standing_audience(&self, _st: &State, side: Side) -> umpire_core::audience::Audience {
        umpire_core::audience::Audience::side(side)
    }

    /// The set-up's random part (2.2): the first card is drawn and played, the
    /// next revealed.
    fn deal(&self, st: &mut State, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
        let d = &*self.data;
        let mut ev = Vec::new();
        if st.options.deception {
            ev.extend(deception::deal(d, st, dice)?);
        }
        st.deck.next = st.deck.draw(dice)?;
        sequence::next_card(d, st, dice, &mut ev)?;
        self.auto(st, dice, &mut ev)?;
        Ok(ev)
    }

    /// Ruling A48: `concede` is taken from a player at any time, not only
    /// when one of its factions is to act.
    fn out_of_turn(&self, _st: &State, _side: Side, order: &Order) -> bool {
        matches!(order, Order::Concede)
    }

    /// Ruling A48: a player who conceded plays no faction any more.
    fn has_left(&self, st: &State, side: Side) -> bool {
        st.seats.factions_of(side).is_empty()
    }

    fn legal_moves(&self, st: &State, side: Side) -> Vec<String> {
        legal::legal(self, st, side)
    }

    fn twin(&self, st: &State, viewer: umpire_core::ruleset::Viewer, seed: u64) -> Option<State> {
        twin::twin(st, viewer, seed)
    }

    fn twin_kinds(&self, st: &State) -> Vec<&'static str> {
        twin::kinds(st)
    }

    fn secrets_differ(&self, a: &State, b: &State) -> Vec<&'static str> {
        twin::differ(a, b)
    }

    fn view(&self, st: &State, viewer: umpire_core::ruleset::Viewer) -> View {
        view::view(&self.data, st, viewer)
    }

    fn own_marks(&self, st: &State, side: Side) -> Vec<char> {
        // A player may hold two factions (1.5): the pieces of both are its own.
        st.seats
            .factions_of(side)
            .iter()
            .map(|f| board::side_char(*f))
            .collect()
    }

    fn invariants(&self, st: &State) -> Result<(), InvariantError> {
        invariants::check(&self.data, st).map_err(InvariantError)
    }

    /// The state deserialises from its JSON, so the store keeps a snapshot
    /// of a game's head.
    fn restore(&self, json: &[u8]) -> Option<Result<State, String>> {
        Some(umpire_core::ruleset::state_from_json(json))
    }

    fn at_version(&self, version: u32) -> Option<Arc<dyn umpire_core::ruleset::DynRuleset>> {
        self.at(version)
            .map(|r| Arc::new(r) as Arc<dyn umpire_core::ruleset::DynRuleset>)
    }
}

#[cfg(test)]
mod unknown_tables {
    /// A club's `forces.toml` with a typo'd top-level table: refused, naming the
    /// table and the file, by the loader and by `umpire data check`.
    #[test]
    fn an_unknown_top_level_table_is_refused() {
        let (load, check) =
            umpire_core::data::with_extra_table(&super::DESCRIPTOR, "forces.toml", "peice");
        for e in [load, check] {
            let e = e.expect("a [peice] table is refused");
            let named = |m: &str| m.contains("forces.toml") && m.contains("[peice]");
            assert!(e.iter().any(|m| named(m)), "{e}");
        }
    }
}
