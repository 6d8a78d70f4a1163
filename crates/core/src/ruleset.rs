//! The ruleset contract: what every game implements, and nothing else.
//!
//! A ruleset is a pure function of state, orders and dice: no clock, no I/O, no
//! OS randomness, no floats in state, no hash-map iteration in anything that
//! affects output. Games implement the typed [`Ruleset`] trait; the engine holds
//! them as `dyn` [`DynRuleset`] through the blanket adapter below, so a game is
//! registered by name and its state type never leaks out.

pub use super::audience::{Audience, Viewer};
use super::board::{Board, Place};
use super::dice::{Dice, DiceError};
use super::hash::{Digest, Tagged, sha256};
use super::movefile::SourceLine;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;

/// A side, by its index in the opening's list of sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Side(pub u8);

impl Side {
    /// The index as `usize`.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a new game is set up from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// Scenario name, one of [`RulesetInfo::scenarios`].
    pub scenario: String,
    /// Options, by name; unknown names are an error.
    pub options: BTreeMap<String, String>,
    /// The sides' names as the players declared them, in order.
    pub sides: Vec<String>,
}

/// A scenario a ruleset offers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ScenarioInfo {
    pub name: String,
    pub title: String,
    /// The sides it needs, in order; empty if the players name their own.
    pub sides: Vec<String>,
}

/// An option a ruleset understands (contested rulings become options).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OptionInfo {
    pub name: String,
    pub default: String,
    /// The values allowed; empty if free text.
    pub values: Vec<String>,
    pub help: String,
}

/// A ruleset's description.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RulesetInfo {
    /// Registry name, e.g. `sarhu`.
    pub name: String,
    /// Bumped whenever a change could alter the replay of an old record.
    pub version: u32,
    /// Hash of the game data (map, counters, tables) the ruleset was built
    /// from; a record made with other data will not replay. `None` if it has none.
    pub data: Option<Digest>,
    pub title: String,
    pub summary: String,
    pub scenarios: Vec<ScenarioInfo>,
    pub options: Vec<OptionInfo>,
}

/// What kind of submission a side owes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AwaitKind {
    /// A move of the side's own turn or phase.
    Orders,
    /// A decision in the middle of someone else's move (losses, retreat, initiative…).
    Decision,
    /// Orders of a simultaneous round, sealed: each side's move is recorded as a
    /// commitment when it arrives, nobody sees another's before sending their
    /// own, and the engine applies them all, in side order, when the last
    /// awaited side is in (rolls drawn after that). The ruleset tracks in its
    /// state who has given orders, so the prompt still awaits each side in turn.
    SealedOrders,
}

/// One side the game is waiting for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Await {
    pub side: Side,
    pub kind: AwaitKind,
    /// What is expected, for the mail: "your action phase: move, combat, rally or pass".
    pub ask: String,
    /// The orders the umpire applies if the deadline passes (after standing orders).
    pub default: Vec<String>,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning sides (empty for a draw).
    pub winners: Vec<Side>,
    /// E.g. "Ming decisive victory: Hetuala taken (8.0(1))".
    pub summary: String,
}

/// Who must act now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prompt {
    /// Where the game stands, e.g. "Turn 3, action phase 7".
    pub stage: String,
    /// Sides asked to act; several at once for simultaneous or sealed orders.
    pub awaiting: Vec<Await>,
    /// Set once the game is over; then `awaiting` is empty.
    pub finished: Option<Outcome>,
}

impl Prompt {
    /// The entry for `side`, if it is asked to act.
    pub fn awaits(&self, side: Side) -> Option<&Await> {
        self.awaiting.iter().find(|a| a.side == side)
    }
}

/// Something that happened, for the result mail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub text: String,
    /// Places the event concerns (hexes, squares, spaces): the map snippet centres on them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub focus: Vec<Place>,
    /// Who is told (and whose map snippet centres on it).
    #[serde(default, skip_serializing_if = "Audience::is_public")]
    pub audience: Audience,
    /// Told to its audience even when the order it comes of is hidden.
    /// An event of a hidden order is otherwise narrowed to that order's
    /// readers, since it may tell what the order said; a ruleset sets this
    /// only for what every side sees on its map anyway (a stack arriving).
    /// It stands in for the hidden line: a reader of the order is given the
    /// order's own account (an event to the mover) instead of this one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open: bool,
}

impl Event {
    /// An event with no place on the map.
    pub fn say(text: impl Into<String>) -> Event {
        Event {
            text: text.into(),
            focus: Vec::new(),
            audience: Audience::All,
            open: false,
        }
    }

    /// An event at some places: hexes, squares or spaces.
    pub fn at<P: Into<Place>>(
        text: impl Into<String>,
        focus: impl IntoIterator<Item = P>,
    ) -> Event {
        Event {
            text: text.into(),
            focus: focus.into_iter().map(Into::into).collect(),
            audience: Audience::All,
            open: false,
        }
    }

    /// The same event, told only to `audience`.
    pub fn to(mut self, audience: Audience) -> Event {
        self.audience = audience;
        self
    }

    /// The same event, told to its audience even when its order is hidden
    /// (see [`Event::open`]).
    pub fn in_the_open(mut self) -> Event {
        self.open = true;
        self
    }
}

/// A rule citation, e.g. `6.1(2)` or `8.3`: what an error names after its
/// message, in brackets. An error that cites no rule holds `None`, never an
/// empty citation.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rule(String);

impl Rule {
    /// The citation as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::ops::Deref for Rule {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Rule {
    fn from(s: &str) -> Rule {
        Rule(s.to_string())
    }
}

impl From<&String> for Rule {
    fn from(s: &String) -> Rule {
        Rule(s.clone())
    }
}

impl From<String> for Rule {
    fn from(s: String) -> Rule {
        Rule(s)
    }
}

impl PartialEq<str> for Rule {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for Rule {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// A citation, or `None` for an empty one (a computed citation that found
/// no rule).
fn cite(rule: impl Into<Rule>) -> Option<Rule> {
    let r = rule.into();
    (!r.0.is_empty()).then_some(r)
}

/// An order line that could not be read, or is illegal where the move starts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct OrderError {
    pub line: usize,
    pub column: usize,
    pub message: String,
    /// The rule it breaks, if it cites one.
    pub rule: Option<Rule>,
}

impl fmt::Display for OrderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )?;
        if let Some(r) = &self.rule {
            write!(f, " ({r})")?;
        }
        Ok(())
    }
}

impl OrderError {
    /// An error at a source line.
    pub fn at(src: &SourceLine, message: impl Into<String>) -> OrderError {
        OrderError {
            line: src.line,
            column: src.column,
            message: message.into(),
            rule: None,
        }
    }

    /// The same error, citing a rule (an empty citation cites none).
    pub fn rule(mut self, rule: impl Into<Rule>) -> OrderError {
        self.rule = cite(rule);
        self
    }
}

/// Words that join an order's parts and never stand for the word at fault.
const JOINERS: [&str; 16] = [
    "in", "at", "to", "with", "on", "from", "of", "the", "and", "a", "an", "into", "by", "for",
    "then", "or",
];

/// Where in an order line `text` the word an error `message` names begins
/// (1-based column of `text`), so a refusal's caret sits under the word at
/// fault rather than at the line's start: the first word the message quotes
/// (`"x"`, `'x'`, `` `x` ``) that the line holds, else the line's word (past
/// its first, the order's verb) that the message names first, matched
/// whole and as written. `None` when the message names no word of the line.
pub fn word_at_fault(text: &str, message: &str) -> Option<usize> {
    let pieces = pieces(text);
    for q in quoted_words(message) {
        let q = q.trim();
        if q.is_empty() {
            continue;
        }
        if let Some((at, _)) = pieces.iter().find(|(_, p)| p.eq_ignore_ascii_case(q)) {
            return Some(at + 1);
        }
        if q.contains(' ')
            && let Some(at) = text.to_ascii_lowercase().find(&q.to_ascii_lowercase())
        {
            return Some(at + 1);
        }
    }
    let first_end = text.find(char::is_whitespace).unwrap_or(text.len());
    pieces
        .iter()
        .filter(|(at, p)| *at >= first_end && !JOINERS.contains(&p.to_ascii_lowercase().as_str()))
        .filter_map(|(at, p)| whole_word(message, p).map(|m| (m, *at)))
        .min()
        .map(|(_, at)| at + 1)
}

/// The words of an order line with their byte offsets: split at blanks and
/// at the marks that join an order's parts (`unit:`, `a>b`, `a,b`).
fn pieces(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let sep = c.is_whitespace() || matches!(c, ':' | ',' | '>' | ';' | '=' | '(' | ')');
        match (sep, start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// The words `message` quotes, in order: between double quotes, backticks,
/// or single quotes that open after a blank or a bracket (not an apostrophe).
fn quoted_words(message: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = message.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let q = b[i];
        let opens = match q {
            b'"' | b'`' => true,
            b'\'' => i == 0 || matches!(b[i - 1], b' ' | b'(' | b'[' | b':'),
            _ => false,
        };
        if opens && let Some(len) = message[i + 1..].find(q as char) {
            out.push(&message[i + 1..i + 1 + len]);
            i += len + 2;
            continue;
        }
        i += 1;
    }
    out
}

/// Where `word` first stands whole in `message` (no letter, digit, `-` or
/// `_` either side).
fn whole_word(message: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let part = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    message.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = message[..i].chars().next_back().is_none_or(|c| !part(c));
        let after = message[i + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !part(c));
        before && after
    })
}

/// Reads each line on its own with `one`, collecting every error: the
/// `parse_all` of a ruleset whose orders are one line each.
pub fn parse_lines<O>(
    lines: &[SourceLine],
    mut one: impl FnMut(&SourceLine) -> Result<O, OrderError>,
) -> Result<Vec<(SourceLine, O)>, Vec<OrderError>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for l in lines {
        match one(l) {
            Ok(o) => out.push((l.clone(), o)),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Why an order cannot be carried out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("illegal: {message}{}", rule.as_ref().map(|r| format!(" ({r})")).unwrap_or_default())]
    Illegal {
        message: String,
        /// The rule it breaks, if it cites one.
        rule: Option<Rule>,
    },
    #[error(transparent)]
    Dice(#[from] DiceError),
}

impl RuleError {
    /// An illegal order, citing the rule it breaks (an empty citation, as a
    /// computed one may be, cites none).
    pub fn illegal(message: impl Into<String>, rule: &str) -> RuleError {
        RuleError::Illegal {
            message: message.into(),
            rule: cite(rule),
        }
    }

    /// An illegal order that breaks no one rule (a side the game does not
    /// have, a game already over).
    pub fn unruled(message: impl Into<String>) -> RuleError {
        RuleError::Illegal {
            message: message.into(),
            rule: None,
        }
    }
}

/// Why a game cannot be set up as asked. The engine checks the scenario and
/// the side names against [`RulesetInfo`] before it calls
/// [`Ruleset::setup`]; a ruleset refuses what only it can judge (an option,
/// an option that depends on the scenario, a number of sides).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A scenario the ruleset does not offer.
    #[error("{ruleset} has no scenario {scenario:?}; its scenarios: {}", known.join(", "))]
    Scenario {
        ruleset: String,
        scenario: String,
        known: Vec<String>,
    },
    /// Side names other than the scenario's, or not in its order.
    #[error("{ruleset}'s {scenario} sides are {}, declared in that order; got {}", want.join(", "), got.join(", "))]
    Sides {
        ruleset: String,
        scenario: String,
        want: Vec<String>,
        got: Vec<String>,
    },
    /// An option or a combination the ruleset refuses, in its words.
    #[error("{0}")]
    Refused(String),
}

impl From<String> for SetupError {
    fn from(s: String) -> SetupError {
        SetupError::Refused(s)
    }
}

impl From<&str> for SetupError {
    fn from(s: &str) -> SetupError {
        SetupError::Refused(s.to_string())
    }
}

/// Checks a set-up's scenario and side names against what the ruleset
/// declares: the scenario one of [`RulesetInfo::scenarios`], and the sides
/// its [`ScenarioInfo::sides`] in that order (in any case; a scenario that
/// lists none lets the players name their own). The engine calls it before
/// [`Ruleset::setup`], so no ruleset repeats it.
pub fn check_setup(info: &RulesetInfo, setup: &Setup) -> Result<(), SetupError> {
    let Some(sc) = info.scenarios.iter().find(|s| s.name == setup.scenario) else {
        return Err(SetupError::Scenario {
            ruleset: info.name.clone(),
            scenario: setup.scenario.clone(),
            known: info.scenarios.iter().map(|s| s.name.clone()).collect(),
        });
    };
    let fits = sc.sides.len() == setup.sides.len()
        && sc
            .sides
            .iter()
            .zip(&setup.sides)
            .all(|(want, got)| want.eq_ignore_ascii_case(got));
    if sc.sides.is_empty() || fits {
        Ok(())
    } else {
        Err(SetupError::Sides {
            ruleset: info.name.clone(),
            scenario: sc.name.clone(),
            want: sc.sides.clone(),
            got: setup.sides.clone(),
        })
    }
}

/// A state that breaks one of its ruleset's invariants (stacking, step
/// counts, points…): a ruleset bug, found by self-play and fuzzing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvariantError(pub String);

impl From<String> for InvariantError {
    fn from(s: String) -> InvariantError {
        InvariantError(s)
    }
}

/// What one side sees.
#[derive(Debug, Clone, Default, Serialize)]
pub struct View {
    /// Status lines: turn, points, what each side holds…
    pub status: Vec<String>,
    /// The map, for games that have one.
    pub board: Option<Board>,
}

/// One parsed order, with the line it came from. The payload is the game's own type.
pub struct ParsedOrder {
    pub source: SourceLine,
    pub payload: Box<dyn Any + Send + Sync>,
}

/// A game's rules, written against its own state and order types: the trait
/// a game implements. The engine sees it as a [`DynRuleset`].
pub trait Ruleset: Send + Sync + 'static {
    /// The whole game state. Serialised (with `serde_json`) for the state hash.
    type State: Clone + Serialize + Send + Sync + 'static;
    /// One parsed order.
    type Order: Send + Sync + 'static;

    /// Name, version, scenarios, options.
    fn info(&self) -> RulesetInfo;
    /// The state at the start of play. The engine has checked the scenario
    /// and the side names against [`Ruleset::info`] ([`check_setup`]); the
    /// ruleset checks the options and what depends on them.
    fn setup(&self, setup: &Setup) -> Result<Self::State, SetupError>;
    /// Who must act now.
    fn prompt(&self, state: &Self::State) -> Prompt;
    /// Reads the order lines of a move into orders, each with the line it starts
    /// on (an order may span several lines). Syntax and lookups only; legality
    /// is `apply`'s, against the state the order meets.
    fn parse(
        &self,
        state: &Self::State,
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, Self::Order)>, OrderError>;
    /// Like `parse`, but reports every line that does not read, not only the
    /// first, so a player fixes a move in one go. The default keeps `parse`'s
    /// single error; a ruleset that reads line by line overrides it (see
    /// [`parse_lines`]).
    fn parse_all(
        &self,
        state: &Self::State,
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, Self::Order)>, Vec<OrderError>> {
        self.parse(state, side, lines).map_err(|e| vec![e])
    }
    /// Carries out one order, drawing every roll through `dice`. On error the
    /// caller discards the state, so `apply` may leave it half-changed.
    fn apply(
        &self,
        state: &mut Self::State,
        side: Side,
        order: &Self::Order,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError>;
    /// What the end of a move does by the rules, after its last order: a
    /// simultaneous turn's orders are done, an end-of-move check runs… The
    /// engine calls it once per move that gave orders (a signed move, a
    /// stated default, each side's part of a sealed round), on the state
    /// its orders left, whatever the last line was; so no ruleset needs to
    /// append a hidden order of its own to a move. Its events follow the
    /// move's orders in the report, to their own audience; rolls as in
    /// `apply`. An error before the move's first roll refuses the move (its
    /// text must not depend on what the mover may not see); after one, it
    /// is reported to the mover as not carried out. The default: nothing.
    fn end_move(
        &self,
        state: &mut Self::State,
        side: Side,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        let _ = (state, side, dice);
        Ok(Vec::new())
    }
    /// Whole moves `side` could send now, each as the text of a move's orders
    /// (one or more lines, joined by newlines) that [`Ruleset::parse_all`]
    /// reads and [`Ruleset::apply`] carries out; a sample where the space is
    /// huge, so an empty list does not prove that nothing is legal. Used for
    /// help text, self-play and fuzzing.
    fn legal_moves(&self, state: &Self::State, side: Side) -> Vec<String>;
    /// The first `n` of [`Ruleset::legal_moves`], for a mail's move template:
    /// a ruleset whose whole list is costly to find may give cheaper ones.
    fn example_moves(&self, state: &Self::State, side: Side, n: usize) -> Vec<String> {
        self.legal_moves(state, side).into_iter().take(n).collect()
    }
    /// The random part of the set-up (deal hands, shuffle decks, random
    /// placement), after `setup`; rolls as `apply` does (`Dice::roll_for` for
    /// what only some sides may see). The events go to the opening mails.
    fn deal(&self, state: &mut Self::State, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
        let _ = (state, dice);
        Ok(Vec::new())
    }
    /// Does the game hide anything from some side (hands, fog of war, hidden
    /// standing orders, secret rolls)? Then its state hashes are salted, it
    /// gets hidden dice streams, and its record is kept per side.
    fn hides_information(&self, setup: &Setup) -> bool {
        let _ = setup;
        false
    }
    /// Who may read an order line of `side`'s move (the side itself always can).
    fn order_audience(&self, state: &Self::State, side: Side, order: &Self::Order) -> Audience {
        let _ = (state, side, order);
        Audience::All
    }
    /// May `side` give `order` when it is not asked to act? A move whose
    /// every order is one of these is accepted out of turn (still signed, not
    /// stale, the game not over), and `apply` then gets it whatever the
    /// prompt says: e.g. a concession the ruleset reads as its own order
    /// (A Distant Plain). The default: no order is.
    fn out_of_turn(&self, state: &Self::State, side: Side, order: &Self::Order) -> bool {
        let _ = (state, side, order);
        false
    }
    /// Has `side` left the game (conceded and dropped out, or eliminated)
    /// while the others play on? It then has no say in what follows: the
    /// engine refuses its acts and awaits no acceptance of a draw from it.
    /// The default: no side ever leaves a running game.
    fn has_left(&self, state: &Self::State, side: Side) -> bool {
        let _ = (state, side);
        false
    }
    /// Who may read `side`'s standing orders: by default the side alone until
    /// the game ends.
    fn standing_audience(&self, state: &Self::State, side: Side) -> Audience {
        let _ = state;
        Audience::side(side)
    }
    /// Sets (or with no lines, clears) a side's standing orders.
    fn set_standing(
        &self,
        state: &mut Self::State,
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<Event>, OrderError> {
        let _ = (state, side);
        match lines.first() {
            Some(l) => Err(OrderError::at(l, "this game takes no standing orders")),
            None => Ok(Vec::new()),
        }
    }
    /// The side's standing orders as text, for its own view.
    fn standing(&self, state: &Self::State, side: Side) -> Vec<String> {
        let _ = (state, side);
        Vec::new()
    }
    /// Sample standing orders for `side`, each a move file's `standing:`
    /// lines that [`Ruleset::set_standing`] accepts in `state`: self-play
    /// ([`crate::selfplay`]) files one of them, picked by the game's
    /// seeded RNG, for a side it was given no standing orders for, so that
    /// random games try the choices standing orders make. The default: none.
    fn standing_samples(&self, state: &Self::State, side: Side) -> Vec<Vec<String>> {
        let _ = (state, side);
        Vec::new()
    }
    /// What `viewer` sees (fog of war): a side its own secrets and what
    /// every side may see; [`Viewer::Public`] only what every side may see
    /// (never more than any one side's view: observers, the club's page);
    /// [`Viewer::Umpire`] everything, for the admin's own tools.
    fn view(&self, state: &Self::State, viewer: Viewer) -> View;
    /// Test hook of the noninterference test (`tests/secrets/noninterference.rs`;
    /// never called in play): a *twin* of `state` for `viewer`, equal in
    /// everything `viewer` may see and different in as much as it can of
    /// what `viewer` may not (another hand or cup, other treasuries, another
    /// sealed plan, fogged stacks changed within the fog, other standing
    /// orders), picked by `seed` ([`crate::twin::Mix`]). Every channel
    /// to `viewer` must then give the same bytes for both. `None` (the
    /// default) when the ruleset hides nothing from `viewer` here.
    fn twin(&self, state: &Self::State, viewer: Viewer, seed: u64) -> Option<Self::State> {
        let _ = (state, viewer, seed);
        None
    }
    /// The kinds of secret [`Ruleset::twin`] varies in this game (`"hand"`,
    /// `"treasury"`…), so the twin test can check each kind does vary.
    fn twin_kinds(&self, state: &Self::State) -> Vec<&'static str> {
        let _ = state;
        Vec::new()
    }
    /// The kinds of secret (as [`Ruleset::twin_kinds`] names them) in which
    /// states `a` and `b` differ: how the twin test sees what a twin varied.
    fn secrets_differ(&self, a: &Self::State, b: &Self::State) -> Vec<&'static str> {
        let _ = (a, b);
        Vec::new()
    }
    /// The unit side marks ([`crate::board::Unit::side`]) that are
    /// `side`'s own in its view, so a result mail can list where all its forces
    /// are, not only those near the action. Several for a side playing more
    /// than one faction; none (the default) lists nothing.
    fn own_marks(&self, state: &Self::State, side: Side) -> Vec<char> {
        let _ = (state, side);
        Vec::new()
    }
    /// A roll's label (as the record keeps it, e.g. `t1/a0/german-cf-t1`) in
    /// words a wargamer reads ("German combat factor of tribe t1"), for
    /// mails and `umpire verify`'s listing, which show it with the label
    /// (see [`roll_title`]). The record keeps the label: this is
    /// presentation only, and must depend on the label alone. The default:
    /// the label as it is.
    fn roll_words(&self, label: &str) -> String {
        label.to_string()
    }
    /// Checks the state's invariants (stacking, step counts, points…); self-play
    /// and fuzzing call it after every order.
    fn invariants(&self, state: &Self::State) -> Result<(), InvariantError> {
        let _ = state;
        Ok(())
    }
    /// This ruleset as it played at an earlier `version`, for a ruleset that
    /// keeps old behaviour behind version switches (same `State` type, same
    /// data). `None` (the default) when it cannot reproduce that version: games
    /// recorded under it then move on only if every entry replays the same
    /// under the current version. See "Upgrades" in ARCHITECTURE.md.
    fn at_version(&self, version: u32) -> Option<std::sync::Arc<dyn DynRuleset>> {
        let _ = version;
        None
    }
    /// This ruleset over an earlier embedded data set whose hash is `data`,
    /// for records made before the embedded data changed (a game keeps them
    /// in its descriptor's `earlier` list; see
    /// [`crate::data::Descriptor::at_data`]). `None` (the default) when
    /// it kept none with that hash.
    fn at_data(&self, data: &Digest) -> Option<std::sync::Arc<dyn DynRuleset>> {
        let _ = data;
        None
    }
    /// This ruleset's state back from its JSON (the bytes its state hash is
    /// taken over), for the store's snapshot of a game's head, so a fresh
    /// process goes on from the head without replaying the record
    /// (ARCHITECTURE.md, invariant 1). `None` (the default), whatever
    /// `json` is: no snapshot is kept and every load replays. A ruleset
    /// opts in with `Some(umpire_core::ruleset::state_from_json(json))`
    /// (plus whatever its JSON leaves out) once its `State` deserialises to
    /// a state equal to the one written; the load checks the restored
    /// state against the head's recorded hash and replays when it differs.
    fn restore(&self, json: &[u8]) -> Option<Result<Self::State, String>> {
        let _ = json;
        None
    }
}

/// A state that deserialises from its own JSON, read back
/// ([`Ruleset::restore`]), or why not.
pub fn state_from_json<S: serde::de::DeserializeOwned>(json: &[u8]) -> Result<S, String> {
    serde_json::from_slice(json).map_err(|e| e.to_string())
}

/// A roll's label as mails and listings show it: its words
/// ([`Ruleset::roll_words`]) with the label the record keeps in brackets,
/// `German combat factor of tribe t1 [t1/a0/german-cf-t1]`; the label
/// alone when the ruleset has no other words for it.
pub fn roll_title(ruleset: &dyn DynRuleset, label: &str) -> String {
    let words = ruleset.roll_words(label);
    if words.is_empty() || words == label {
        label.to_string()
    } else {
        format!("{words} [{label}]")
    }
}

/// A game state of some ruleset, type-erased.
pub struct GameState(Box<dyn StateBox>);

trait StateBox: Send + Sync {
    fn clone_box(&self) -> Box<dyn StateBox>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn to_json(&self) -> Result<Vec<u8>, serde_json::Error>;
    /// The same bytes as [`StateBox::to_json`], appended to `out`: written
    /// by [`crate::state_json`], or by `serde_json` where that leaves it.
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), serde_json::Error>;
}

impl<T: Clone + Serialize + Send + Sync + 'static> StateBox for T {
    fn clone_box(&self) -> Box<dyn StateBox> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn to_json(&self) -> Result<Vec<u8>, serde_json::Error> {
        serde_json::to_vec(self)
    }
    fn write_json(&self, out: &mut Vec<u8>) -> Result<(), serde_json::Error> {
        let start = out.len();
        if crate::state_json::write(self, out).is_ok() {
            debug_assert!(
                serde_json::to_vec(self).is_ok_and(|j| j == out[start..]),
                "state_json wrote other bytes than serde_json"
            );
            return Ok(());
        }
        out.truncate(start);
        serde_json::to_writer(out, self)
    }
}

// A buffer kept by each thread for the state's JSON while it is hashed, so
// hashing a state after every entry of a replay does not grow a new vector
// each time. Its capacity is given back above `KEEP_JSON`.
thread_local! {
    static STATE_JSON: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The largest buffer [`STATE_JSON`] keeps between hashes.
const KEEP_JSON: usize = 4 << 20;

impl Clone for GameState {
    fn clone(&self) -> Self {
        GameState(self.0.clone_box())
    }
}

/// Domain tag of a salted state commitment.
pub const STATE_DOMAIN: &str = "umpire-state-v2";

/// The game state does not serialise, so it cannot be hashed (a ruleset bug:
/// e.g. a map with non-string keys in the state).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the game state does not serialise, so it cannot be hashed (a ruleset bug): {0}")]
pub struct StateError(pub String);

impl GameState {
    /// The state's hash: SHA-256 of its JSON form, for games that hide
    /// nothing (anyone can recompute it).
    pub fn hash(&self) -> Result<Digest, StateError> {
        self.with_json(sha256)
    }

    /// The salted commitment to the state, for games that hide something: a
    /// side cannot test guesses of the other's hand or orders against it.
    pub fn commitment(&self, salt: &Digest) -> Result<Digest, StateError> {
        self.with_json(|json| {
            Tagged::new(STATE_DOMAIN)
                .field(&salt.0)
                .field(json)
                .finish()
        })
    }

    /// `f` of the state's JSON ([`GameState::to_json`]'s bytes), written into
    /// this thread's kept buffer (a fresh one if it is in use).
    fn with_json<R>(&self, f: impl FnOnce(&[u8]) -> R) -> Result<R, StateError> {
        let unhashable = |e: serde_json::Error| StateError(e.to_string());
        STATE_JSON.with(|kept| match kept.try_borrow_mut() {
            Ok(mut buf) => {
                buf.clear();
                let written = self.0.write_json(&mut buf).map_err(unhashable);
                let out = written.map(|()| f(&buf));
                if buf.capacity() > KEEP_JSON {
                    *buf = Vec::new();
                }
                out
            }
            Err(_) => Ok(f(&self.to_json()?)),
        })
    }

    /// The state's JSON as its hash is taken over it (the store's snapshot
    /// of a game's head keeps these bytes): [`GameState::to_json`]'s bytes,
    /// written the faster way.
    pub fn hashed_json(&self) -> Result<Vec<u8>, StateError> {
        self.with_json(<[u8]>::to_vec)
    }

    /// The state as JSON (for debugging and `umpire show --json`).
    pub fn to_json(&self) -> Result<Vec<u8>, StateError> {
        self.0.to_json().map_err(|e| StateError(e.to_string()))
    }

    /// The typed state, if it is a `T`.
    pub fn downcast_ref<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }
}

/// A [`Ruleset`] as the engine holds it: the same methods over the erased
/// [`GameState`] and [`ParsedOrder`], implemented for every `Ruleset` by the
/// blanket adapter below. A game never implements it and never `use`s it:
/// with both traits in scope a call such as `self.prompt(..)` is ambiguous
/// (E0034). It names the type only, as `Arc<dyn DynRuleset>`.
pub trait DynRuleset: Send + Sync {
    fn info(&self) -> RulesetInfo;
    /// [`check_setup`], then [`Ruleset::setup`].
    fn setup(&self, setup: &Setup) -> Result<GameState, SetupError>;
    fn prompt(&self, state: &GameState) -> Prompt;
    fn parse(
        &self,
        state: &GameState,
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<ParsedOrder>, OrderError>;
    fn parse_all(
        &self,
        state: &GameState,
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<ParsedOrder>, Vec<OrderError>>;
    fn apply(
        &self,
        state: &mut GameState,
        side: Side,
        order: &ParsedOrder,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError>;
    /// See [`Ruleset::end_move`].
    fn end_move(
        &self,
        state: &mut GameState,
        side: Side,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError>;
    fn legal_moves(&self, state: &GameState, side: Side) -> Vec<String>;
    fn example_moves(&self, state: &GameState, side: Side, n: usize) -> Vec<String>;
    fn deal(&self, state: &mut GameState, dice: &mut Dice) -> Result<Vec<Event>, RuleError>;
    fn hides_information(&self, setup: &Setup) -> bool;
    fn order_audience(&self, state: &GameState, side: Side, order: &ParsedOrder) -> Audience;
    fn out_of_turn(&self, state: &GameState, side: Side, order: &ParsedOrder) -> bool;
    /// See [`Ruleset::has_left`].
    fn has_left(&self, state: &GameState, side: Side) -> bool;
    fn standing_audience(&self, state: &GameState, side: Side) -> Audience;
    fn set_standing(
        &self,
        state: &mut GameState,
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<Event>, OrderError>;
    fn standing(&self, state: &GameState, side: Side) -> Vec<String>;
    fn standing_samples(&self, state: &GameState, side: Side) -> Vec<Vec<String>>;
    fn view(&self, state: &GameState, viewer: Viewer) -> View;
    fn own_marks(&self, state: &GameState, side: Side) -> Vec<char>;
    /// See [`Ruleset::roll_words`].
    fn roll_words(&self, label: &str) -> String;
    /// See [`Ruleset::twin`].
    fn twin(&self, state: &GameState, viewer: Viewer, seed: u64) -> Option<GameState>;
    /// See [`Ruleset::twin_kinds`].
    fn twin_kinds(&self, state: &GameState) -> Vec<&'static str>;
    /// See [`Ruleset::secrets_differ`].
    fn secrets_differ(&self, a: &GameState, b: &GameState) -> Vec<&'static str>;
    fn invariants(&self, state: &GameState) -> Result<(), InvariantError>;
    /// Does [`Ruleset::restore`] give states back (a snapshot is kept)?
    fn restores(&self) -> bool;
    /// [`Ruleset::restore`] of `json`; `None` when the ruleset keeps no snapshot.
    fn restore_state(&self, json: &[u8]) -> Option<Result<GameState, String>>;
    fn at_version(&self, version: u32) -> Option<std::sync::Arc<dyn DynRuleset>>;
    /// See [`Ruleset::at_data`].
    fn at_data(&self, data: &Digest) -> Option<std::sync::Arc<dyn DynRuleset>>;
}

#[allow(
    clippy::expect_used,
    reason = "the engine pairs every state with the ruleset that made it"
)]
fn typed<T: 'static>(s: &GameState) -> &T {
    // The engine pairs every state with the ruleset that made it.
    s.0.as_any()
        .downcast_ref()
        .expect("game state belongs to another ruleset")
}

#[allow(
    clippy::expect_used,
    reason = "the engine pairs every state with the ruleset that made it"
)]
fn typed_mut<T: 'static>(s: &mut GameState) -> &mut T {
    s.0.as_any_mut()
        .downcast_mut()
        .expect("game state belongs to another ruleset")
}

impl<R: Ruleset> DynRuleset for R {
    fn info(&self) -> RulesetInfo {
        Ruleset::info(self)
    }
    fn at_version(&self, version: u32) -> Option<std::sync::Arc<dyn DynRuleset>> {
        Ruleset::at_version(self, version)
    }
    fn at_data(&self, data: &Digest) -> Option<std::sync::Arc<dyn DynRuleset>> {
        Ruleset::at_data(self, data)
    }
    fn setup(&self, setup: &Setup) -> Result<GameState, SetupError> {
        check_setup(&Ruleset::info(self), setup)?;
        Ruleset::setup(self, setup).map(|s| GameState(Box::new(s)))
    }
    fn prompt(&self, state: &GameState) -> Prompt {
        Ruleset::prompt(self, typed(state))
    }
    fn parse(
        &self,
        state: &GameState,
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<ParsedOrder>, OrderError> {
        let orders = Ruleset::parse(self, typed(state), side, lines)?;
        Ok(orders
            .into_iter()
            .map(|(source, o)| ParsedOrder {
                source,
                payload: Box::new(o),
            })
            .collect())
    }
    fn parse_all(
        &self,
        state: &GameState,
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<ParsedOrder>, Vec<OrderError>> {
        let orders = Ruleset::parse_all(self, typed(state), side, lines)?;
        Ok(orders
            .into_iter()
            .map(|(source, o)| ParsedOrder {
                source,
                payload: Box::new(o),
            })
            .collect())
    }
    fn apply(
        &self,
        state: &mut GameState,
        side: Side,
        order: &ParsedOrder,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        #[allow(
            clippy::expect_used,
            reason = "the engine applies an order with the ruleset that parsed it"
        )]
        let o = order
            .payload
            .downcast_ref::<R::Order>()
            .expect("order parsed by another ruleset");
        Ruleset::apply(self, typed_mut(state), side, o, dice)
    }
    fn end_move(
        &self,
        state: &mut GameState,
        side: Side,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        Ruleset::end_move(self, typed_mut(state), side, dice)
    }
    fn legal_moves(&self, state: &GameState, side: Side) -> Vec<String> {
        Ruleset::legal_moves(self, typed(state), side)
    }
    fn example_moves(&self, state: &GameState, side: Side, n: usize) -> Vec<String> {
        Ruleset::example_moves(self, typed(state), side, n)
    }
    fn deal(&self, state: &mut GameState, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
        Ruleset::deal(self, typed_mut(state), dice)
    }
    fn hides_information(&self, setup: &Setup) -> bool {
        Ruleset::hides_information(self, setup)
    }
    fn order_audience(&self, state: &GameState, side: Side, order: &ParsedOrder) -> Audience {
        match order.payload.downcast_ref::<R::Order>() {
            Some(o) => Ruleset::order_audience(self, typed(state), side, o),
            None => Audience::All,
        }
    }
    fn out_of_turn(&self, state: &GameState, side: Side, order: &ParsedOrder) -> bool {
        order
            .payload
            .downcast_ref::<R::Order>()
            .is_some_and(|o| Ruleset::out_of_turn(self, typed(state), side, o))
    }
    fn has_left(&self, state: &GameState, side: Side) -> bool {
        Ruleset::has_left(self, typed(state), side)
    }
    fn standing_audience(&self, state: &GameState, side: Side) -> Audience {
        Ruleset::standing_audience(self, typed(state), side)
    }
    fn set_standing(
        &self,
        state: &mut GameState,
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<Event>, OrderError> {
        Ruleset::set_standing(self, typed_mut(state), side, lines)
    }
    fn standing(&self, state: &GameState, side: Side) -> Vec<String> {
        Ruleset::standing(self, typed(state), side)
    }
    fn standing_samples(&self, state: &GameState, side: Side) -> Vec<Vec<String>> {
        Ruleset::standing_samples(self, typed(state), side)
    }
    fn view(&self, state: &GameState, viewer: Viewer) -> View {
        Ruleset::view(self, typed(state), viewer)
    }
    fn own_marks(&self, state: &GameState, side: Side) -> Vec<char> {
        Ruleset::own_marks(self, typed(state), side)
    }
    fn roll_words(&self, label: &str) -> String {
        Ruleset::roll_words(self, label)
    }
    fn twin(&self, state: &GameState, viewer: Viewer, seed: u64) -> Option<GameState> {
        Ruleset::twin(self, typed(state), viewer, seed).map(|s| GameState(Box::new(s)))
    }
    fn twin_kinds(&self, state: &GameState) -> Vec<&'static str> {
        Ruleset::twin_kinds(self, typed(state))
    }
    fn secrets_differ(&self, a: &GameState, b: &GameState) -> Vec<&'static str> {
        Ruleset::secrets_differ(self, typed(a), typed(b))
    }
    fn invariants(&self, state: &GameState) -> Result<(), InvariantError> {
        Ruleset::invariants(self, typed(state))
    }
    fn restores(&self) -> bool {
        Ruleset::restore(self, b"null").is_some()
    }
    fn restore_state(&self, json: &[u8]) -> Option<Result<GameState, String>> {
        Ruleset::restore(self, json).map(|r| r.map(|s| GameState(Box::new(s))))
    }
}

#[cfg(test)]
mod word_tests {
    use super::word_at_fault;

    #[test]
    fn the_caret_goes_under_a_quoted_word() {
        let line = "move du-song-1: 0807 0899";
        assert_eq!(word_at_fault(line, "no hex \"0899\" on the map"), Some(22));
        assert_eq!(word_at_fault(line, "unknown unit 'du-song-1'"), Some(6));
    }

    #[test]
    fn the_caret_goes_under_the_first_word_the_message_names() {
        let line = "attack 0807 with daisan";
        assert_eq!(
            word_at_fault(line, "no activated unit of daisan in 0807 can attack (7.3)"),
            Some(18)
        );
        // The verb and the joining words are never the word at fault.
        assert_eq!(
            word_at_fault("rally in kabul", "rally needs a base in kabul"),
            Some(10)
        );
        assert_eq!(
            word_at_fault("frobnicate the widgets", "not an order"),
            None
        );
        // An apostrophe opens no quote; a word inside another is no match.
        assert_eq!(
            word_at_fault("move a1: 0807", "Daisan's a10 cannot move"),
            None
        );
    }
}
