//! Shared helpers for A Distant Plain's rules tests (`adp_rules`,
//! `adp_examples`, `adp_fixture`): games over the embedded data or over the
//! fixture of `crates/game-adp/tests/fixtures/adp/small/`, pieces put on spaces, and
//! Operations run on a copy of the state.
#![allow(dead_code)]

use std::collections::BTreeMap;
use umpire_adp::Adp;
use umpire_adp::action::{self, Terms};
use umpire_adp::data::{CardNo, Data, SpaceNo, Support};
use umpire_adp::orders::{self, Order};
use umpire_adp::pieces::{Faction, Piece};
use umpire_adp::sequence::CardTurn;
use umpire_adp::state::{Stage, State};
use umpire_core::dice::Dice;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{Event, Ruleset, Setup};

// ---------------------------------------------------------- the real map

/// A four-player game of the stand-in scenario.
pub fn game() -> (Adp, State) {
    game_in(
        "standin",
        &["coalition", "government", "taliban", "warlords"],
    )
}

/// A game in a seating mode; factions no side declares are Non-players (8.0).
pub fn game_in(scenario: &str, sides: &[&str]) -> (Adp, State) {
    let r = Adp::new();
    let st = setup(&r, scenario, sides);
    (r, st)
}

fn setup(r: &Adp, scenario: &str, sides: &[&str]) -> State {
    r.setup(&Setup {
        scenario: scenario.into(),
        options: Default::default(),
        sides: sides.iter().map(|s| s.to_string()).collect(),
    })
    .unwrap()
}

/// The stand-in set-up, dealt: the first card drawn and the next shown (2.2).
pub fn dealt() -> (Adp, State) {
    let (r, mut st) = game();
    Ruleset::deal(&r, &mut st, &mut Dice::seeded([8; 32])).unwrap();
    (r, st)
}

/// The stand-in set-up with every piece back in Available and all Neutral.
pub fn empty() -> (Adp, State) {
    let (r, st) = game();
    emptied(r, st)
}

/// `st` with every piece back in Available and every space Neutral.
pub fn emptied(r: Adp, mut st: State) -> (Adp, State) {
    let d = r.data().clone();
    for id in d.ids() {
        for p in Piece::ALL {
            let n = st[id].pieces[p];
            st.remove(id, p, n, false);
        }
        st[id].support = Support::Neutral;
    }
    st.update_control(&d);
    (r, st)
}

/// A one-player game (the Coalition), dealt, emptied, on a fresh Event card
/// with nobody executed: the other three factions are Non-players.
pub fn np_game_emptied() -> (Adp, State) {
    let (r, mut st) = game_in("standin-1p-coalition", &["coalition"]);
    Ruleset::deal(&r, &mut st, &mut Dice::seeded([8; 32])).unwrap();
    let (r, mut st) = emptied(r, st);
    // Whatever the deal played, a fresh Event card with nobody executed.
    st.stage = Stage::Card(CardTurn::default());
    st.finished = None;
    (r, st)
}

/// Card `n` played now, card 1 showing next, nobody executed yet.
pub fn on_card(r: &Adp, st: &mut State, n: CardNo) {
    st.deck.current = Some(n);
    st.deck.next = Some(CardNo(1));
    st.stage = Stage::Card(CardTurn::default());
    let _ = r;
}

/// The game over the embedded data with one card's shaded text replaced.
pub fn with_card_text(n: CardNo, shaded: &str) -> (Adp, State) {
    with_card_text_in(
        n,
        shaded,
        (
            "standin",
            &["coalition", "government", "taliban", "warlords"],
        ),
    )
}

/// [`with_card_text`] in a seating mode, at the current version.
pub fn with_card_text_in(
    n: CardNo,
    shaded: &str,
    (scenario, sides): (&str, &[&str]),
) -> (Adp, State) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../games/adp");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let cards = read("cards.toml");
    let at = cards.find(&format!("number = {n}\n")).unwrap();
    let from = at + cards[at..].find("\nshaded = [").unwrap() + 1;
    let to = from + cards[from..].find('\n').unwrap();
    let cards = format!("{}shaded = {shaded}{}", &cards[..from], &cards[to..]);
    let r = Adp::with_data(
        &read("map.toml"),
        &read("forces.toml"),
        &cards,
        &read("setup.toml"),
    )
    .unwrap();
    let st = setup(&r, scenario, sides);
    (r, st)
}

// ------------------------------------------------------------ the fixture

/// The fixture's folder: a seven-space map with its own set-up, cards and
/// Non-player file.
pub const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/adp/small");

/// The fixture's files by name.
pub fn fixture_files() -> BTreeMap<String, String> {
    ["map.toml", "setup.toml", "cards.toml", "nonplayer.toml"]
        .iter()
        .map(|n| {
            let text = std::fs::read_to_string(format!("{FIXTURE}/{n}"))
                .unwrap_or_else(|e| panic!("{n}: {e}"));
            (n.to_string(), text)
        })
        .collect()
}

/// The fixture's ruleset (`Adp::fixture`, the loader a club's data goes
/// through), at `version` (the newest if `None`).
pub fn fixture_ruleset(version: Option<u32>) -> Adp {
    let r = Adp::fixture(&fixture_files()).unwrap_or_else(|e| panic!("{e:?}"));
    match version {
        Some(v) => r.at(v).expect("a kept version"),
        None => r,
    }
}

/// A game on the fixture in a seating mode (`""`: four players); factions
/// no side declares are Non-players (8.0).
pub fn fixture_at(version: Option<u32>, suffix: &str, sides: &[&str]) -> (Adp, State) {
    let r = fixture_ruleset(version);
    let st = setup(&r, &format!("fixture{suffix}"), sides);
    (r, st)
}

/// A four-player game on the fixture, at the newest version.
pub fn fixture_game() -> (Adp, State) {
    fixture_at(
        None,
        "",
        &["coalition", "government", "taliban", "warlords"],
    )
}

// -------------------------------------------------------------- anywhere

/// The space called `name`.
pub fn s(d: &Data, name: &str) -> SpaceNo {
    d.find(name).unwrap_or_else(|| panic!("no space {name}"))
}

/// Puts `n` pieces from Available on a space, Control updated.
pub fn put(d: &Data, st: &mut State, name: &str, p: Piece, n: u8) {
    let id = s(d, name);
    assert_eq!(st.place(id, p, n), n, "not enough {p:?} Available");
    st.update_control(d);
}

/// A text's lines as a move file's, trimmed.
pub fn lines(text: &str) -> Vec<SourceLine> {
    text.lines()
        .enumerate()
        .map(|(i, t)| SourceLine {
            line: i + 1,
            column: 1,
            text: t.trim().to_string(),
        })
        .collect()
}

/// The one order a text reads as.
pub fn parse(d: &Data, text: &str) -> Order {
    orders::parse(d, &lines(text), false).unwrap().remove(0).1
}

/// An Operation as the 1st Eligible executes it: paid, a Special Activity
/// allowed.
pub const FULL: Terms = Terms {
    free: false,
    final_card: false,
    sa_allowed: true,
};

/// Runs an Operation for `f` on a copy of the state with `dice` (no card
/// sequence around it), keeping the copy if it is carried out: its events,
/// or the error's text.
pub fn op_with(
    d: &Data,
    st: &mut State,
    f: Faction,
    text: &str,
    terms: Terms,
    dice: &mut Dice,
) -> Result<Vec<Event>, String> {
    let Order::Act(a) = parse(d, text) else {
        panic!("not an Operation: {text}")
    };
    let mut copy = st.clone();
    let ev = action::execute(d, &mut copy, f, &a, terms, dice).map_err(|e| e.to_string())?;
    *st = copy;
    Ok(ev)
}

/// Runs an Operation for `f` with fixed dice.
pub fn op(d: &Data, st: &mut State, f: Faction, text: &str) -> Result<(), String> {
    op_with(d, st, f, text, FULL, &mut Dice::seeded([3; 32])).map(|_| ())
}

/// Runs an Operation for `f` with fixed dice: its events' text.
pub fn op_events(d: &Data, st: &mut State, f: Faction, text: &str) -> Result<String, String> {
    op_with(d, st, f, text, FULL, &mut Dice::seeded([3; 32])).map(|ev| text_of(&ev))
}

/// Events' text, one a line.
pub fn text_of(ev: &[Event]) -> String {
    ev.iter()
        .map(|e| e.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}
