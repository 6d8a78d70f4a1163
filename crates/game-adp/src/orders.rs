//! Reading orders. One mail per faction per card: `pass`, `event
//! unshaded|shaded [SPACE...]`, or an Operation — its name on the first line
//! (`rally`, `train limited`...), then one line per space or movement, with
//! the Special Activity's line (`sa ...`) where it falls in the Operation
//! (4.1). Propaganda Rounds take a plan (`civic`, `sharia`, `redeploy`,
//! `done`). Syntax and lookups only: legality is checked when applied.

use super::data::{Data, SpaceNo};
use super::pieces::{Faction, Kind};
use serde::{Deserialize, Serialize};
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::OrderError;
use umpire_core::suggest::did_you_mean;

/// An Operation (3.2, 3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Op {
    /// 3.2.1.
    Train,
    /// 3.2.2.
    Patrol,
    /// 3.2.3.
    Sweep,
    /// 3.2.4.
    Assault,
    /// 3.3.1.
    Rally,
    /// 3.3.2.
    March,
    /// 3.3.3.
    Attack,
    /// 3.3.4.
    Terror,
}

impl Op {
    /// All, COIN first.
    pub const ALL: [Op; 8] = [
        Op::Train,
        Op::Patrol,
        Op::Sweep,
        Op::Assault,
        Op::Rally,
        Op::March,
        Op::Attack,
        Op::Terror,
    ];

    /// The order word.
    pub fn key(self) -> &'static str {
        [
            "train", "patrol", "sweep", "assault", "rally", "march", "attack", "terror",
        ][self as usize]
    }

    /// The rule.
    pub fn rule(self) -> &'static str {
        [
            "3.2.1", "3.2.2", "3.2.3", "3.2.4", "3.3.1", "3.3.2", "3.3.3", "3.3.4",
        ][self as usize]
    }

    /// A COIN Operation (3.2) or an Insurgent one (3.3).
    pub fn is_coin(self) -> bool {
        (self as usize) < 4
    }
}

/// A Special Activity (4.2-4.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SaKind {
    /// 4.2.1.
    Surge,
    /// 4.2.2.
    Airlift,
    /// 4.2.3.
    Airstrike,
    /// 4.3.1.
    Govern,
    /// 4.3.2.
    Transport,
    /// 4.3.3.
    Eradicate,
    /// 4.4.1.
    Extort,
    /// 4.4.2.
    Infiltrate,
    /// 4.4.3.
    Ambush,
    /// 4.5.1.
    Cultivate,
    /// 4.5.2.
    Traffic,
    /// 4.5.3.
    Suborn,
}

impl SaKind {
    /// All, by faction.
    pub const ALL: [SaKind; 12] = [
        SaKind::Surge,
        SaKind::Airlift,
        SaKind::Airstrike,
        SaKind::Govern,
        SaKind::Transport,
        SaKind::Eradicate,
        SaKind::Extort,
        SaKind::Infiltrate,
        SaKind::Ambush,
        SaKind::Cultivate,
        SaKind::Traffic,
        SaKind::Suborn,
    ];

    /// The order word.
    pub fn key(self) -> &'static str {
        [
            "surge",
            "airlift",
            "airstrike",
            "govern",
            "transport",
            "eradicate",
            "extort",
            "infiltrate",
            "ambush",
            "cultivate",
            "traffic",
            "suborn",
        ][self as usize]
    }

    /// The rule.
    pub fn rule(self) -> &'static str {
        [
            "4.2.1", "4.2.2", "4.2.3", "4.3.1", "4.3.2", "4.3.3", "4.4.1", "4.4.2", "4.4.3",
            "4.5.1", "4.5.2", "4.5.3",
        ][self as usize]
    }

    /// Whose it is.
    pub fn faction(self) -> Faction {
        [
            Faction::Coalition,
            Faction::Government,
            Faction::Taliban,
            Faction::Warlords,
        ][self as usize / 3]
    }

    /// The Operations it may accompany (4.1.1); empty: any.
    pub fn accompanies(self) -> &'static [Op] {
        match self {
            SaKind::Surge => &[Op::Train],
            SaKind::Airstrike => &[Op::Patrol, Op::Sweep, Op::Assault],
            SaKind::Govern => &[Op::Train, Op::Patrol],
            SaKind::Eradicate => &[Op::Train, Op::Patrol, Op::Assault],
            SaKind::Infiltrate | SaKind::Cultivate | SaKind::Traffic => &[Op::Rally, Op::March],
            SaKind::Ambush => &[Op::Attack],
            SaKind::Airlift | SaKind::Transport | SaKind::Extort | SaKind::Suborn => &[],
        }
    }
}

/// A space selected for an Operation, with what to do there.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InSpace {
    /// The space.
    pub space: SpaceNo,
    /// Pieces to place (Train cubes; Rally Guerrillas with `place N`).
    pub place: Vec<(u8, Kind)>,
    /// Rally: replace 2 Guerrillas with a Base (3.3.1).
    pub base: bool,
    /// Rally: flip all Guerrillas Underground (3.3.1).
    pub flip: bool,
    /// Coalition Assault: count Government cubes, paying 3 (3.2.4).
    pub with_government: bool,
    /// Factions targeted, in order (1.4.1); empty: every enemy.
    pub targets: Vec<Faction>,
    /// Train: spaces to take Government cubes from, in order, when none of
    /// the kind placed is Available (1.4.1 EXCEPTIONS, 3.2.1).
    pub from: Vec<SpaceNo>,
}

/// A movement: `count` pieces along `path` (its first space the origin).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Move {
    /// How many.
    pub count: u8,
    /// Which kind (cubes: Troops or Police; Guerrillas: none).
    pub kind: Option<Kind>,
    /// Move Active Guerrillas first (else Underground first).
    pub active: bool,
    /// Origin, then each space entered.
    pub path: Vec<SpaceNo>,
    /// Government Troops taken along by Coalition cubes (Sweep, 3.2.3) or
    /// moved by an Air Lift (4.2.2).
    pub with: u8,
}

/// What a Special Activity does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sa {
    /// Move Coalition pieces among up to 3 spaces and Available; split a die.
    Surge {
        /// Moves (`available` as an end is the Available box).
        moves: Vec<(Move, bool, bool)>,
        /// Roll the die and give this much of it to the Warlords (rest to Aid).
        roll: Option<u8>,
    },
    /// Moves among 3 spaces.
    Airlift(Vec<Move>),
    /// Remove 1 piece of a faction in each space.
    Airstrike(Vec<(SpaceNo, Faction)>),
    /// Returnees (true) or Aid to Patronage, in each space.
    Govern(Vec<(SpaceNo, bool)>),
    /// One group along LoCs.
    Transport(Move),
    /// In each space.
    Eradicate(Vec<SpaceNo>),
    /// In each space.
    Extort(Vec<SpaceNo>),
    /// Remove 2 pieces of these factions, or replace 1 of this faction.
    Infiltrate {
        /// The space.
        space: SpaceNo,
        /// Factions of the pieces removed (at most 2).
        remove: Vec<Faction>,
        /// The faction whose piece is replaced.
        replace: Option<Faction>,
    },
    /// The Attack spaces that ambush.
    Ambush(Vec<SpaceNo>),
    /// The space.
    Cultivate(SpaceNo),
    /// The spaces.
    Traffic(Vec<SpaceNo>),
    /// In each space, what goes.
    Suborn(Vec<(SpaceNo, Suborn)>),
}

impl Sa {
    /// Which activity.
    pub fn kind(&self) -> SaKind {
        match self {
            Sa::Surge { .. } => SaKind::Surge,
            Sa::Airlift(_) => SaKind::Airlift,
            Sa::Airstrike(_) => SaKind::Airstrike,
            Sa::Govern(_) => SaKind::Govern,
            Sa::Transport(_) => SaKind::Transport,
            Sa::Eradicate(_) => SaKind::Eradicate,
            Sa::Extort(_) => SaKind::Extort,
            Sa::Infiltrate { .. } => SaKind::Infiltrate,
            Sa::Ambush(_) => SaKind::Ambush,
            Sa::Cultivate(_) => SaKind::Cultivate,
            Sa::Traffic(_) => SaKind::Traffic,
            Sa::Suborn(_) => SaKind::Suborn,
        }
    }
}

/// What a Suborn does in one space (4.5.3, ruling A6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Suborn {
    /// Remove up to this many Government cubes.
    Cubes(u8),
    /// Remove a Government Base.
    Base,
    /// Remove a Taliban Guerrilla.
    Guerrilla,
    /// Flip the Warlord Guerrillas Underground.
    Flip,
}

/// One line of an Operation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActStep {
    /// A selected space.
    In(InSpace),
    /// A movement.
    Move(Move),
    /// Train's Civic Action: this many Terror removals / shifts (3.2.1).
    Civic(SpaceNo, u8),
    /// Train: replace 3 Government cubes with a Base (3.2.1), the Base taken
    /// from the second space when none is Available ("from map if needed").
    BuildBase(SpaceNo, Option<SpaceNo>),
    /// The same with the Police among the 3 cubes named (`base SPACE N
    /// police`, version 9: "replace any 3 Government cubes", the rest
    /// Troops); a variant of its own, so that the orders of version 8 keep
    /// their form.
    BuildBaseOf(SpaceNo, Option<SpaceNo>, u8),
    /// A Taliban or Warlords player removes its own pieces to Available
    /// while executing (1.4.1): `count` Guerrillas (Active first when
    /// `active`) or Bases from the space.
    Return {
        /// The space.
        space: SpaceNo,
        /// How many.
        count: u8,
        /// Guerrillas or Bases.
        kind: Kind,
        /// Active Guerrillas first (else Underground first).
        active: bool,
    },
    /// Train in Kabul: 3 Patronage to Government Resources (3.2.1).
    Patronage,
    /// Rally's Sharia (3.3.1).
    Sharia(SpaceNo, u8),
    /// Patrol's free Assault in one LoC (3.2.2).
    Assault(SpaceNo, Vec<Faction>),
    /// The Special Activity, at this point of the Operation (4.1).
    Sa(Sa),
}

/// An Operation with what it does, line by line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    /// Which Operation.
    pub op: Op,
    /// A Limited Operation (2.3.5).
    pub limited: bool,
    /// The lines after the first, each with where it starts.
    pub steps: Vec<(At, ActStep)>,
}

/// Where a line of an Operation starts in the move file, so that an error
/// found while carrying it out names its line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct At {
    /// 1-based line.
    pub line: usize,
    /// 1-based column of the line's first word.
    pub column: usize,
    /// The first spaces the line names, each with the column of its word
    /// (or of its part of a path), so that an error found while carrying
    /// the line out points at the space it concerns.
    pub spaces: [Option<(SpaceNo, usize)>; 4],
}

impl At {
    /// Where `src` stands, with the spaces its words name.
    pub fn of(d: &Data, src: &SourceLine) -> At {
        let mut at = At {
            line: src.line,
            column: src.column,
            spaces: [None; 4],
        };
        let text = src.text.to_ascii_lowercase();
        let mut k = 0;
        let mut start = None;
        // Words and path parts: split at blanks, commas and `>`.
        for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
            let sep = c.is_whitespace() || c == ',' || c == '>';
            match (sep, start) {
                (false, None) => start = Some(i),
                (true, Some(b)) => {
                    start = None;
                    let w = &text[b..i];
                    if let Some(s) = d.find(w).filter(|_| w.len() > 2)
                        && k < at.spaces.len()
                        && !at.spaces.iter().flatten().any(|(x, _)| *x == s)
                    {
                        at.spaces[k] = Some((s, src.column + text[..b].chars().count()));
                        k += 1;
                    }
                }
                _ => {}
            }
        }
        at
    }

    /// The column of the space `message` names, else the line's start.
    pub fn column_for(&self, d: &Data, message: &str) -> usize {
        self.spaces
            .iter()
            .flatten()
            .filter(|(s, _)| message.contains(d[*s].name.as_str()))
            // "Kabul-Aibak" holds "Kabul": the longest name is the one meant.
            .max_by_key(|(s, _)| d[*s].name.len())
            .map_or(self.column, |(_, c)| *c)
    }
}

/// One line of a Propaganda plan (6.4, 6.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlanLine {
    /// Civic Action in a space: this many removals / shifts (6.4.1).
    Civic(SpaceNo, u8),
    /// Sharia in a space (6.4.2).
    Sharia(SpaceNo, u8),
    /// Redeploy `count` pieces of a kind from one space to another (6.5).
    Redeploy {
        /// How many.
        count: u8,
        /// Troops, Police or Guerrillas.
        kind: Kind,
        /// From.
        from: SpaceNo,
        /// To.
        to: SpaceNo,
    },
}

/// A parsed order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Order {
    /// Pass (2.3.3).
    Pass,
    /// Execute the current card's Event (5.0), naming spaces for its steps.
    Event {
        /// The shaded text (5.2).
        shaded: bool,
        /// Spaces for the space steps, in step order.
        spaces: Vec<SpaceNo>,
        /// The free Operation the Event grants, written after the event line
        /// (3.1.2, 5.5).
        free: Option<Action>,
    },
    /// An Operation, perhaps with a Special Activity.
    Act(Action),
    /// A Propaganda Round plan, for one faction (`None`: the side's only one).
    Plan(Option<Faction>, Vec<(usize, PlanLine)>),
    /// The player concedes; its factions become Non-players (ruling A48).
    Concede,
    /// The spaces a faction an Event names to choose picks, best first
    /// (5.1, digest D3): asked in the middle of another's Event.
    Choose(Vec<SpaceNo>),
    /// Uses a Deception marker before the card's order (7.3).
    Deception(super::deception::Marker),
    /// A voluntary transfer by the faction executing (1.5.1, digest D5):
    /// Resources to another faction, or the Government's Patronage to the
    /// Warlords' Resources.
    Transfer {
        /// How much.
        amount: u8,
        /// Patronage rather than Resources.
        patronage: bool,
        /// The receiver.
        to: Faction,
    },
}

struct Line<'a> {
    src: &'a SourceLine,
    words: Vec<String>,
}

impl Line<'_> {
    fn err(&self, m: impl Into<String>) -> OrderError {
        OrderError::at(self.src, m)
    }

    /// An error pointing at `word` (the column where it starts in the line,
    /// else the line's start).
    fn err_at(&self, word: &str, m: impl Into<String>) -> OrderError {
        let mut e = self.err(m);
        let text = self.src.text.to_ascii_lowercase();
        if let Some(at) = word_at(&text, &word.to_ascii_lowercase()) {
            e.column = self.src.column + text[..at].chars().count();
        }
        e
    }
}

/// Where `word` stands on its own in `text` (not inside a longer word).
fn word_at(text: &str, word: &str) -> Option<usize> {
    let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '-' || c == '_');
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        !part(text[..i].chars().next_back()) && !part(text[i + word.len()..].chars().next())
    })
}

fn words(s: &str) -> Vec<String> {
    s.replace(',', " , ")
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .collect()
}

/// Every error of a move, in line order; an error without a rule of its
/// own cites `rule`, the rule of what the line was read as.
#[derive(Default)]
struct Errors(Vec<OrderError>);

impl Errors {
    fn keep<T>(&mut self, r: Result<T, OrderError>, rule: &str) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(mut e) => {
                if e.rule.is_none() {
                    e.rule = Some(rule.into());
                }
                self.0.push(e);
                None
            }
        }
    }
}

/// Reads a move's order lines into one order (the first error only; see
/// [`parse_all`]).
pub fn parse(
    d: &Data,
    lines: &[SourceLine],
    planning: bool,
) -> Result<Vec<(SourceLine, Order)>, OrderError> {
    parse_all(d, lines, planning).map_err(|mut e| e.remove(0))
}

/// Reads a move's order lines, reporting every line that does not read, each
/// with its line, the column of the word at fault, the rule, and "did you
/// mean" for a mistyped space, faction or keyword (`core::suggest`).
pub fn parse_all(
    d: &Data,
    lines: &[SourceLine],
    planning: bool,
) -> Result<Vec<(SourceLine, Order)>, Vec<OrderError>> {
    let lines: Vec<Line> = lines
        .iter()
        .map(|src| Line {
            src,
            words: words(&src.text),
        })
        .filter(|l| !l.words.is_empty())
        .collect();
    let mut errors = Errors::default();
    let out = if planning {
        plans(d, &lines, &mut errors)
    } else {
        card_orders(d, &lines, &mut errors)
    };
    if errors.0.is_empty() {
        Ok(out)
    } else {
        Err(errors.0)
    }
}

/// A card's move: transfers first (1.5.1), then the card's one order.
fn card_orders(d: &Data, lines: &[Line], errors: &mut Errors) -> Vec<(SourceLine, Order)> {
    let mut out = Vec::new();
    let n = lines
        .iter()
        .take_while(|l| matches!(l.words[0].as_str(), "transfer" | "deception"))
        .count();
    for l in &lines[..n] {
        let o = if l.words[0] == "deception" {
            errors.keep(deception(l), "7.3")
        } else {
            errors.keep(transfer(l), "1.5.1")
        };
        if let Some(o) = o {
            out.push((l.src.clone(), o));
        }
    }
    let lines = &lines[n..];
    let Some(first) = lines.first() else {
        return out;
    };
    let order = match first.words[0].as_str() {
        "pass" => errors.keep(single(lines, Order::Pass), "2.3.3"),
        "event" => event(d, lines, errors),
        // Version 8: before it no Event asked, and `choose` read as an
        // unknown Operation (a record's refusal stays one).
        "choose" if d.version >= 8 => choose(d, lines, errors),
        _ => action(d, lines, errors).map(Order::Act),
    };
    if let Some(o) = order {
        out.push((first.src.clone(), o));
    }
    out
}

/// `choose SPACE...` (5.1, digest D3): the answer to an Event's question.
fn choose(d: &Data, lines: &[Line], errors: &mut Errors) -> Option<Order> {
    let l = &lines[0];
    if l.words.len() < 2 {
        errors.keep::<()>(Err(l.err("choose SPACE..., best first")), "5.1");
        return None;
    }
    let spaces: Vec<Option<SpaceNo>> = l.words[1..]
        .iter()
        .filter(|w| *w != ",")
        .map(|w| errors.keep(space(d, l, w), "5.1"))
        .collect();
    let o = Order::Choose(spaces.into_iter().collect::<Option<_>>()?);
    errors.keep(single(lines, o), "5.1")
}

/// `transfer N [resources|patronage] to FACTION` (1.5.1).
fn transfer(l: &Line) -> Result<Order, OrderError> {
    let w: Vec<&str> = l.words.iter().map(String::as_str).collect();
    let amount = number(l, arg(l, &w, 1)?)?;
    let (patronage, rest) = match w.get(2) {
        Some(&"patronage") => (true, 3),
        Some(&"resources") => (false, 3),
        _ => (false, 2),
    };
    if w.get(rest) != Some(&"to") {
        return Err(l.err("transfer N [resources|patronage] to FACTION (1.5.1)"));
    }
    let to = faction(l, arg(l, &w, rest + 1)?)?;
    Ok(Order::Transfer {
        amount,
        patronage,
        to,
    })
}

/// `deception MARKER` (7.3): `hidden-asset`.
fn deception(l: &Line) -> Result<Order, OrderError> {
    use super::deception::Marker;
    let w = l.words.get(1..).unwrap_or_default().join("-");
    if l.words.len() < 2 {
        return Err(l.err("deception MARKER, e.g. `deception hidden-asset` (7.3)"));
    }
    Marker::parse(&w).map(Order::Deception).ok_or_else(|| {
        let hint = did_you_mean(&w, Marker::ALL.iter().map(|m| m.key()));
        l.err_at(&l.words[1], format!("no Deception marker {w:?}{hint}"))
    })
}

fn single(lines: &[Line], o: Order) -> Result<Order, OrderError> {
    match lines.get(1) {
        Some(l) => Err(l.err("one order a card: this line follows a complete order (2.3)")),
        None => Ok(o),
    }
}

fn space(d: &Data, l: &Line, w: &str) -> Result<SpaceNo, OrderError> {
    d.find(w).ok_or_else(|| {
        let hint = did_you_mean(w, d.spaces.iter().map(|s| s.key.as_str()));
        let hint = if hint.is_empty() {
            "; spaces are named by key, e.g. kandahar, sar-e-pol, kabul-aibak".to_string()
        } else {
            hint
        };
        l.err_at(w, format!("no space {w:?}{hint}")).rule("1.3")
    })
}

fn number(l: &Line, w: &str) -> Result<u8, OrderError> {
    w.parse::<u8>()
        .map_err(|_| l.err_at(w, format!("want a number, found {w:?}")))
}

fn faction(l: &Line, w: &str) -> Result<Faction, OrderError> {
    Faction::parse(w).ok_or_else(|| {
        let hint = did_you_mean(w, Faction::ALL.iter().map(|f| f.key()));
        l.err_at(w, format!("no faction {w:?}{hint}")).rule("1.5")
    })
}

fn event(d: &Data, lines: &[Line], errors: &mut Errors) -> Option<Order> {
    let l = &lines[0];
    let shaded = match l.words.get(1).map(String::as_str) {
        Some("unshaded") => Some(false),
        Some("shaded") => Some(true),
        w => {
            let hint = w
                .map(|w| did_you_mean(w, ["unshaded", "shaded"]))
                .unwrap_or_default();
            let e = l.err_at(
                w.unwrap_or("event"),
                format!("write `event unshaded` or `event shaded`{hint}"),
            );
            errors.keep::<()>(Err(e), "5.2");
            None
        }
    };
    let spaces: Vec<Option<SpaceNo>> = l
        .words
        .iter()
        .skip(2)
        .filter(|w| *w != "," && *w != "in")
        .map(|w| errors.keep(space(d, l, w), "5.1"))
        .collect();
    // 5.5: an Event granting a free Operation has its lines after its own.
    let free = if lines.len() > 1 {
        Some(action(d, &lines[1..], errors))
    } else {
        None
    };
    Some(Order::Event {
        shaded: shaded?,
        spaces: spaces.into_iter().collect::<Option<_>>()?,
        free: free.map_or(Some(None), |a| a.map(Some))?,
    })
}

fn op(w: &str) -> Option<Op> {
    Op::ALL.into_iter().find(|o| o.key() == w)
}

/// Every order word a card's move may start with.
const ORDER_WORDS: [&str; 13] = [
    "deception",
    "choose",
    "pass",
    "event",
    "transfer",
    "train",
    "patrol",
    "sweep",
    "assault",
    "rally",
    "march",
    "attack",
    "terror",
];

/// An Operation: its first line, then its steps. Every line is read even
/// after one fails, so that each error is reported.
fn action(d: &Data, lines: &[Line], errors: &mut Errors) -> Option<Action> {
    let first = &lines[0];
    let w0 = first.words[0].as_str();
    let o = op(w0);
    if o.is_none() {
        let hint = did_you_mean(w0, ORDER_WORDS);
        errors.keep::<()>(
            Err(first.err_at(w0, format!(
                "{w0:?} is not an order: pass, event, an Operation (train patrol sweep assault rally march attack terror), or a Propaganda plan{hint}"
            ))),
            "2.3",
        );
    }
    let rule = o.map_or("3.0", Op::rule);
    let limited = match first.words.get(1).map(String::as_str) {
        None => Some(false),
        Some("limited") | Some("limop") => Some(true),
        Some(w) => {
            let e = first.err_at(w, format!("after {w0}, only `limited` (found {w:?})"));
            errors.keep::<bool>(Err(e), "2.3.5")
        }
    };
    let steps: Vec<Option<(At, ActStep)>> = lines[1..]
        .iter()
        .map(|l| {
            let r = act_step(d, l);
            let rule = match (&r, l.words[0].as_str()) {
                (_, "sa") => sa_rule(l).unwrap_or("4.1"),
                _ => rule,
            };
            let at = At::of(d, l.src);
            errors.keep(r, rule).map(|s| (at, s))
        })
        .collect();
    Some(Action {
        op: o?,
        limited: limited?,
        steps: steps.into_iter().collect::<Option<_>>()?,
    })
}

/// The rule of the Special Activity an `sa` line names, if it names one.
fn sa_rule(l: &Line) -> Option<&'static str> {
    let k = l.words.get(1)?;
    SaKind::ALL
        .into_iter()
        .find(|s| s.key() == k)
        .map(SaKind::rule)
}

fn act_step(d: &Data, l: &Line) -> Result<ActStep, OrderError> {
    let w: Vec<&str> = l.words.iter().map(String::as_str).collect();
    Ok(match w[0] {
        "in" => ActStep::In(in_space(d, l, &w[1..])?),
        "move" => ActStep::Move(movement(d, l, &w[1..])?),
        "civic" => ActStep::Civic(space(d, l, arg(l, &w, 1)?)?, count_or_one(l, &w, 2)?),
        "base" => {
            let s = space(d, l, arg(l, &w, 1)?)?;
            let police = match (w.get(2), w.get(3)) {
                (Some(n), Some(&"police")) if d.version >= 9 => {
                    Some(n.parse::<u8>().ok().filter(|n| *n <= 3).ok_or_else(|| {
                        l.err_at(n, "0 to 3 Police among the 3 cubes").rule("3.2.1")
                    })?)
                }
                _ => None,
            };
            let at = if police.is_some() { 4 } else { 2 };
            let usage = if d.version >= 9 {
                "base SPACE [N police] [from SPACE]"
            } else {
                "base SPACE [from SPACE]"
            };
            let from = match w.get(at) {
                None => None,
                Some(&"from") => Some(space(d, l, arg(l, &w, at + 1)?)?),
                Some(x) => return Err(l.err_at(x, usage).rule("3.2.1")),
            };
            match police {
                Some(n) => ActStep::BuildBaseOf(s, from, n),
                None => ActStep::BuildBase(s, from),
            }
        }
        "return" => returned(d, l, &w)?,
        "patronage" => ActStep::Patronage,
        "sharia" => ActStep::Sharia(space(d, l, arg(l, &w, 1)?)?, count_or_one(l, &w, 2)?),
        "assault" => {
            let s = space(d, l, arg(l, &w, 1)?)?;
            let targets = targets(l, &w[2..])?;
            ActStep::Assault(s, targets)
        }
        "sa" => ActStep::Sa(special(d, l, &w[1..])?),
        other => {
            let hint = did_you_mean(other, STEP_WORDS);
            return Err(l.err_at(other, format!(
                "{other:?}: an Operation's lines start with in, move, civic, base, patronage, sharia, assault or sa{hint}"
            )));
        }
    })
}

/// The words an Operation's lines start with.
const STEP_WORDS: [&str; 9] = [
    "in",
    "move",
    "civic",
    "base",
    "patronage",
    "sharia",
    "assault",
    "sa",
    "return",
];

/// `return N [active] guerrillas|bases SPACE` (1.4.1).
fn returned(d: &Data, l: &Line, w: &[&str]) -> Result<ActStep, OrderError> {
    let count = number(l, arg(l, w, 1)?)?;
    let mut i = 2;
    let active = w.get(i) == Some(&"active");
    if active {
        i += 1;
    }
    let k = arg(l, w, i)?;
    let kind = Kind::parse(k)
        .filter(|k| matches!(k, Kind::Guerrilla | Kind::Base))
        .ok_or_else(|| {
            l.err_at(k, "return N [active] guerrillas|bases SPACE")
                .rule("1.4.1")
        })?;
    let space = space(d, l, arg(l, w, i + 1)?)?;
    Ok(ActStep::Return {
        space,
        count,
        kind,
        active,
    })
}

fn arg<'a>(l: &Line, w: &[&'a str], i: usize) -> Result<&'a str, OrderError> {
    // `w` may be the words after a line's first, so empty.
    let what = w.first().copied().unwrap_or("the line");
    w.get(i)
        .copied()
        .ok_or_else(|| l.err(format!("{what} needs more: see `umpire rules adp`")))
}

fn count_or_one(l: &Line, w: &[&str], i: usize) -> Result<u8, OrderError> {
    w.get(i).map_or(Ok(1), |x| number(l, x))
}

fn targets(l: &Line, w: &[&str]) -> Result<Vec<Faction>, OrderError> {
    match w.first() {
        None => Ok(Vec::new()),
        Some(&"target") => w[1..]
            .iter()
            .filter(|x| **x != ",")
            .map(|x| faction(l, x))
            .collect(),
        Some(x) => Err(l.err_at(x, format!("expected `target FACTION...`, found {x:?}"))),
    }
}

fn in_space(d: &Data, l: &Line, w: &[&str]) -> Result<InSpace, OrderError> {
    let Some(first) = w.first() else {
        return Err(l.err("`in` names a space"));
    };
    let mut s = InSpace {
        space: space(d, l, first)?,
        ..InSpace::default()
    };
    let mut i = 1;
    while i < w.len() {
        match w[i] {
            "base" => s.base = true,
            "flip" => s.flip = true,
            "with-government" | "with_government" => s.with_government = true,
            "," => {}
            "place" => {
                // `place N KIND [N KIND]` or `place N` (Guerrillas).
                i += 1;
                while i < w.len() && w[i].parse::<u8>().is_ok() {
                    let n = number(l, w[i])?;
                    let kind = w.get(i + 1).and_then(|k| Kind::parse(k));
                    if kind.is_some() {
                        i += 1;
                    }
                    s.place.push((n, kind.unwrap_or(Kind::Guerrilla)));
                    i += 1;
                }
                if s.place.is_empty() {
                    s.place.push((1, Kind::Guerrilla));
                }
                continue;
            }
            "target" => {
                s.targets = targets(l, &w[i..])?;
                break;
            }
            "from" => {
                // `from SPACE [SPACE...]`: where Train's cubes come from
                // when none are Available (3.2.1).
                i += 1;
                while i < w.len() && w[i] != "target" {
                    if w[i] != "," {
                        s.from.push(space(d, l, w[i])?);
                    }
                    i += 1;
                }
                continue;
            }
            other => {
                return Err(l.err_at(other, format!(
                    "{other:?}: after `in SPACE`: place, from, base, flip, with-government, target"
                )));
            }
        }
        i += 1;
    }
    Ok(s)
}

fn path(d: &Data, l: &Line, w: &str) -> Result<Vec<SpaceNo>, OrderError> {
    w.split('>')
        .map(|p| space(d, l, p))
        .collect::<Result<Vec<_>, _>>()
        .and_then(|p| {
            if p.len() < 2 {
                Err(l.err("a path is FROM>TO, or FROM>LOC>...>TO"))
            } else {
                Ok(p)
            }
        })
}

fn movement(d: &Data, l: &Line, w: &[&str]) -> Result<Move, OrderError> {
    if w.is_empty() {
        return Err(l.err("a move is `move N [troops|police|active] FROM>TO [with N]`"));
    }
    let mut m = Move {
        count: number(l, arg(l, w, 0)?)?,
        ..Move::default()
    };
    let mut i = 1;
    while let Some(x) = w.get(i) {
        match *x {
            "active" => m.active = true,
            "with" => {
                m.with = number(l, arg(l, w, i + 1)?)?;
                i += 1;
                if w.get(i + 1) == Some(&"government") {
                    i += 1;
                }
            }
            "," => {}
            x if x.contains('>') => m.path = path(d, l, x)?,
            x => match Kind::parse(x) {
                Some(k) => m.kind = Some(k),
                None => {
                    return Err(l.err_at(
                        x,
                        format!(
                            "{x:?}: a move is `move N [troops|police|active] FROM>TO [with N]`"
                        ),
                    ));
                }
            },
        }
        i += 1;
    }
    if m.path.is_empty() {
        return Err(l.err("a move needs a path FROM>TO"));
    }
    Ok(m)
}

/// Splits an SA line's arguments at commas.
fn groups<'a>(w: &[&'a str]) -> Vec<Vec<&'a str>> {
    w.split(|x| *x == ",")
        .filter(|g| !g.is_empty())
        .map(<[&str]>::to_vec)
        .collect()
}

fn spaces_of(d: &Data, l: &Line, w: &[&str]) -> Result<Vec<SpaceNo>, OrderError> {
    w.iter()
        .filter(|x| **x != ",")
        .map(|x| space(d, l, x))
        .collect()
}

fn special(d: &Data, l: &Line, w: &[&str]) -> Result<Sa, OrderError> {
    let Some(k) = w
        .first()
        .and_then(|k| SaKind::ALL.into_iter().find(|s| s.key() == *k))
    else {
        let w0 = w.first().copied().unwrap_or("sa");
        let hint = did_you_mean(w0, SaKind::ALL.iter().map(|k| k.key()));
        return Err(l
            .err_at(w0, format!("`sa` names a Special Activity: surge airlift airstrike govern transport eradicate extort infiltrate ambush cultivate traffic suborn{hint}"))
            .rule("4.0"));
    };
    let rest = &w[1..];
    Ok(match k {
        SaKind::Extort => Sa::Extort(spaces_of(d, l, rest)?),
        SaKind::Eradicate => Sa::Eradicate(spaces_of(d, l, rest)?),
        SaKind::Ambush => Sa::Ambush(spaces_of(d, l, rest)?),
        SaKind::Traffic => Sa::Traffic(spaces_of(d, l, rest)?),
        SaKind::Cultivate => Sa::Cultivate(space(d, l, arg(l, w, 1)?)?),
        SaKind::Airstrike => airstrike(d, l, rest)?,
        SaKind::Govern => govern(d, l, rest)?,
        SaKind::Airlift => {
            let mut v = Vec::new();
            for g in groups(rest) {
                v.push(movement(d, l, &g)?);
            }
            Sa::Airlift(v)
        }
        SaKind::Transport => Sa::Transport(movement(d, l, rest)?),
        SaKind::Infiltrate => infiltrate(d, l, w)?,
        SaKind::Suborn => suborn(d, l, rest)?,
        SaKind::Surge => surge(d, l, rest)?,
    })
}

/// `sa airstrike SPACE FACTION, ...` (4.2.3).
fn airstrike(d: &Data, l: &Line, rest: &[&str]) -> Result<Sa, OrderError> {
    let mut v = Vec::new();
    for g in groups(rest) {
        let s = space(d, l, g[0])?;
        let f = faction(
            l,
            g.get(1)
                .ok_or_else(|| l.err("airstrike: SPACE FACTION, ..."))?,
        )?;
        v.push((s, f));
    }
    Ok(Sa::Airstrike(v))
}

/// `sa govern SPACE returnees|patronage, ...` (4.3.1).
fn govern(d: &Data, l: &Line, rest: &[&str]) -> Result<Sa, OrderError> {
    let mut v = Vec::new();
    for g in groups(rest) {
        let s = space(d, l, g[0])?;
        let ret = match g.get(1).copied() {
            Some("returnees") => true,
            Some("patronage") => false,
            _ => {
                return Err(l
                    .err("govern: SPACE returnees|patronage, ...")
                    .rule("4.3.1"));
            }
        };
        v.push((s, ret));
    }
    Ok(Sa::Govern(v))
}

/// `sa infiltrate SPACE remove FACTION... | SPACE replace FACTION` (4.4.2).
fn infiltrate(d: &Data, l: &Line, w: &[&str]) -> Result<Sa, OrderError> {
    let s = space(d, l, arg(l, w, 1)?)?;
    let (mut remove, mut replace) = (Vec::new(), None);
    match w.get(2).copied() {
        Some("remove") => {
            for x in &w[3..] {
                remove.push(faction(l, x)?);
            }
        }
        Some("replace") => replace = Some(faction(l, arg(l, w, 3)?)?),
        _ => {
            return Err(l
                .err("infiltrate: SPACE remove FACTION [FACTION] | SPACE replace FACTION")
                .rule("4.4.2"));
        }
    }
    Ok(Sa::Infiltrate {
        space: s,
        remove,
        replace,
    })
}

/// `sa suborn SPACE cubes N|base|guerrilla|flip, ...` (4.5.3).
fn suborn(d: &Data, l: &Line, rest: &[&str]) -> Result<Sa, OrderError> {
    let mut v = Vec::new();
    for g in groups(rest) {
        let s = space(d, l, g[0])?;
        let what = match (g.get(1).copied(), g.get(2)) {
            (Some("cubes"), n) => Suborn::Cubes(n.map_or(Ok(3), |n| number(l, n))?),
            (Some("base"), _) => Suborn::Base,
            (Some("guerrilla"), _) => Suborn::Guerrilla,
            (Some("flip"), _) => Suborn::Flip,
            _ => {
                return Err(l
                    .err("suborn: SPACE cubes N|base|guerrilla|flip, ...")
                    .rule("4.5.3"));
            }
        };
        v.push((s, what));
    }
    Ok(Sa::Suborn(v))
}

/// `sa surge N troops|base FROM>TO, ..., roll [warlords N]` (4.2.1).
fn surge(d: &Data, l: &Line, rest: &[&str]) -> Result<Sa, OrderError> {
    let mut moves = Vec::new();
    let mut roll = None;
    for g in groups(rest) {
        if g[0] == "roll" {
            // `roll, warlords N`: roll the die, N of it to the Warlords.
            roll = Some(0);
            if let (Some(&"warlords"), Some(n)) = (g.get(1), g.get(2)) {
                roll = Some(number(l, n)?);
            }
            continue;
        }
        let n = number(l, g[0])?;
        let kind = g
            .get(1)
            .and_then(|k| Kind::parse(k))
            .ok_or_else(|| l.err("surge: N troops|base FROM>TO, ..., roll [warlords N]"))?;
        let p = g
            .get(2)
            .ok_or_else(|| l.err("surge: a move needs FROM>TO"))?;
        let parts: Vec<&str> = p.split('>').collect();
        if parts.len() != 2 {
            return Err(l.err("surge: a move is FROM>TO (either may be `available`)"));
        }
        let from_avail = parts[0] == "available";
        let to_avail = parts[1] == "available";
        let mut mv = Move {
            count: n,
            kind: Some(kind),
            ..Move::default()
        };
        for (end, avail) in [(parts[0], from_avail), (parts[1], to_avail)] {
            if !avail {
                mv.path.push(space(d, l, end)?);
            }
        }
        moves.push((mv, from_avail, to_avail));
    }
    Ok(Sa::Surge { moves, roll })
}

/// A Propaganda move: one plan per `as FACTION` section (a player with two
/// factions sends both in the one sealed mail of the round, 6.0), or one
/// plan for the faction asked when no `as` line comes first.
fn plans(d: &Data, lines: &[Line], errors: &mut Errors) -> Vec<(SourceLine, Order)> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=lines.len() {
        if i == lines.len() || lines[i].words[0] == "as" {
            let part = &lines[start..i];
            if let Some(p) = plan(d, part, errors) {
                out.push((part[0].src.clone(), p));
            }
            start = i;
        }
    }
    out
}

/// The words a Propaganda plan's lines start with.
const PLAN_WORDS: [&str; 5] = ["civic", "sharia", "redeploy", "as", "done"];

fn plan(d: &Data, lines: &[Line], errors: &mut Errors) -> Option<Order> {
    let mut who = Some(None);
    let mut v = Vec::new();
    let mut ok = true;
    for l in lines {
        let w: Vec<&str> = l.words.iter().map(String::as_str).collect();
        let (step, rule) = match w[0] {
            "as" => {
                who = errors
                    .keep(arg(l, &w, 1).and_then(|x| faction(l, x)), "6.0")
                    .map(Some);
                continue;
            }
            "done" => continue,
            "civic" => (
                plan_space(d, l, &w).map(|(s, n)| PlanLine::Civic(s, n)),
                "6.4.1",
            ),
            "sharia" => (
                plan_space(d, l, &w).map(|(s, n)| PlanLine::Sharia(s, n)),
                "6.4.2",
            ),
            "redeploy" => (redeploy(d, l, &w), "6.5"),
            other => {
                let hint = did_you_mean(other, PLAN_WORDS);
                (
                    Err(l.err_at(other, format!(
                        "{other:?}: in a Propaganda Round write civic, sharia, redeploy, `as FACTION` or done{hint}"
                    ))),
                    "6.4",
                )
            }
        };
        match errors.keep(step, rule) {
            Some(s) => v.push((l.src.line, s)),
            None => ok = false,
        }
    }
    Some(Order::Plan(who?, ok.then_some(v)?))
}

fn plan_space(d: &Data, l: &Line, w: &[&str]) -> Result<(SpaceNo, u8), OrderError> {
    Ok((space(d, l, arg(l, w, 1)?)?, count_or_one(l, w, 2)?))
}

fn redeploy(d: &Data, l: &Line, w: &[&str]) -> Result<PlanLine, OrderError> {
    let count = number(l, arg(l, w, 1)?)?;
    let k = arg(l, w, 2)?;
    let kind =
        Kind::parse(k).ok_or_else(|| l.err_at(k, "redeploy N troops|police|guerrillas FROM>TO"))?;
    let p = path(d, l, arg(l, w, 3)?)?;
    Ok(PlanLine::Redeploy {
        count,
        kind,
        from: p[0],
        to: p[p.len() - 1],
    })
}
