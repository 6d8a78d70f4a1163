//! Reading orders. One mail per faction per card: `pass`, `event
//! unshaded|shaded [SPACE...]`, or an Operation — its name on the first line
//! (`rally`, `train limited`...), then one line per space or movement, with
//! the Special Activity's line (`sa ...`) where it falls in the Operation
//! (4.1). Propaganda Rounds take a plan (`civic`, `sharia`, `redeploy`,
//! `done`). Syntax and lookups only: legality is checked when applied.

use super::data::{Data, SpaceId};
use super::pieces::{Faction, Kind};
use crate::core::movefile::SourceLine;
use crate::core::ruleset::OrderError;
use serde::Serialize;

/// An Operation (3.2, 3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct InSpace {
    /// The space.
    pub space: SpaceId,
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
}

/// A movement: `count` pieces along `path` (its first space the origin).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Move {
    /// How many.
    pub count: u8,
    /// Which kind (cubes: Troops or Police; Guerrillas: none).
    pub kind: Option<Kind>,
    /// Move Active Guerrillas first (else Underground first).
    pub active: bool,
    /// Origin, then each space entered.
    pub path: Vec<SpaceId>,
    /// Government Troops taken along by Coalition cubes (Sweep, 3.2.3) or
    /// moved by an Air Lift (4.2.2).
    pub with: u8,
}

/// What a Special Activity does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
    Airstrike(Vec<(SpaceId, Faction)>),
    /// Returnees (true) or Aid to Patronage, in each space.
    Govern(Vec<(SpaceId, bool)>),
    /// One group along LoCs.
    Transport(Move),
    /// In each space.
    Eradicate(Vec<SpaceId>),
    /// In each space.
    Extort(Vec<SpaceId>),
    /// Remove 2 pieces of these factions, or replace 1 of this faction.
    Infiltrate {
        /// The space.
        space: SpaceId,
        /// Factions of the pieces removed (at most 2).
        remove: Vec<Faction>,
        /// The faction whose piece is replaced.
        replace: Option<Faction>,
    },
    /// The Attack spaces that ambush.
    Ambush(Vec<SpaceId>),
    /// The space.
    Cultivate(SpaceId),
    /// The spaces.
    Traffic(Vec<SpaceId>),
    /// In each space, what goes.
    Suborn(Vec<(SpaceId, Suborn)>),
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ActStep {
    /// A selected space.
    In(InSpace),
    /// A movement.
    Move(Move),
    /// Train's Civic Action: this many Terror removals / shifts (3.2.1).
    Civic(SpaceId, u8),
    /// Train: replace 3 Government cubes with a Base (3.2.1).
    BuildBase(SpaceId),
    /// Train in Kabul: 3 Patronage to Government Resources (3.2.1).
    Patronage,
    /// Rally's Sharia (3.3.1).
    Sharia(SpaceId, u8),
    /// Patrol's free Assault in one LoC (3.2.2).
    Assault(SpaceId, Vec<Faction>),
    /// The Special Activity, at this point of the Operation (4.1).
    Sa(Sa),
}

/// An Operation with what it does, line by line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Action {
    /// Which Operation.
    pub op: Op,
    /// A Limited Operation (2.3.5).
    pub limited: bool,
    /// The lines after the first, with their line numbers.
    pub steps: Vec<(usize, ActStep)>,
}

/// One line of a Propaganda plan (6.4, 6.5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum PlanLine {
    /// Civic Action in a space: this many removals / shifts (6.4.1).
    Civic(SpaceId, u8),
    /// Sharia in a space (6.4.2).
    Sharia(SpaceId, u8),
    /// Redeploy `count` pieces of a kind from one space to another (6.5).
    Redeploy {
        /// How many.
        count: u8,
        /// Troops, Police or Guerrillas.
        kind: Kind,
        /// From.
        from: SpaceId,
        /// To.
        to: SpaceId,
    },
}

/// A parsed order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Order {
    /// Pass (2.3.3).
    Pass,
    /// Execute the current card's Event (5.0), naming spaces for its steps.
    Event {
        /// The shaded text (5.2).
        shaded: bool,
        /// Spaces for the space steps, in step order.
        spaces: Vec<SpaceId>,
        /// The free Operation the Event grants, written after the event line
        /// (3.1.2, 5.5).
        free: Option<Action>,
    },
    /// An Operation, perhaps with a Special Activity.
    Act(Action),
    /// A Propaganda Round plan, for one faction (`None`: the side's only one).
    Plan(Option<Faction>, Vec<(usize, PlanLine)>),
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
}

fn words(s: &str) -> Vec<String> {
    s.replace(',', " , ")
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .collect()
}

/// Reads a move's order lines into one order.
pub fn parse(
    d: &Data,
    lines: &[SourceLine],
    planning: bool,
) -> Result<Vec<(SourceLine, Order)>, OrderError> {
    let lines: Vec<Line> = lines
        .iter()
        .map(|src| Line {
            src,
            words: words(&src.text),
        })
        .filter(|l| !l.words.is_empty())
        .collect();
    if lines.is_empty() {
        return Ok(Vec::new());
    }
    if planning {
        return plans(d, &lines);
    }
    // 1.5.1: transfers come first, then the card's one order (if any).
    let mut out = Vec::new();
    let mut lines = lines;
    while lines.first().is_some_and(|l| l.words[0] == "transfer") {
        let l = lines.remove(0);
        out.push((l.src.clone(), transfer(&l)?));
    }
    let Some(first) = lines.first() else {
        return Ok(out);
    };
    let order = {
        match first.words[0].as_str() {
            "pass" => single(&lines, Order::Pass)?,
            "event" => event(d, &lines)?,
            _ => Order::Act(action(d, &lines)?),
        }
    };
    out.push((first.src.clone(), order));
    Ok(out)
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

fn single(lines: &[Line], o: Order) -> Result<Order, OrderError> {
    match lines.get(1) {
        Some(l) => Err(l.err("one order a card: this line follows a complete order (2.3)")),
        None => Ok(o),
    }
}

fn space(d: &Data, l: &Line, w: &str) -> Result<SpaceId, OrderError> {
    d.find(w).ok_or_else(|| {
        l.err(format!(
            "no space {w:?}; spaces are named by key, e.g. kandahar, sar-e-pol, kabul-aibak"
        ))
    })
}

fn number(l: &Line, w: &str) -> Result<u8, OrderError> {
    w.parse::<u8>()
        .map_err(|_| l.err(format!("want a number, found {w:?}")))
}

fn faction(l: &Line, w: &str) -> Result<Faction, OrderError> {
    Faction::parse(w).ok_or_else(|| l.err(format!("no faction {w:?}")))
}

fn event(d: &Data, lines: &[Line]) -> Result<Order, OrderError> {
    let l = &lines[0];
    let shaded = match l.words.get(1).map(String::as_str) {
        Some("unshaded") => false,
        Some("shaded") => true,
        _ => {
            return Err(l
                .err("write `event unshaded` or `event shaded` (5.2)")
                .rule("5.2"));
        }
    };
    let mut spaces = Vec::new();
    for w in l.words.iter().skip(2).filter(|w| *w != "," && *w != "in") {
        spaces.push(space(d, l, w)?);
    }
    let free = if lines.len() > 1 {
        Some(action(d, &lines[1..])?)
    } else {
        None
    };
    Ok(Order::Event {
        shaded,
        spaces,
        free,
    })
}

fn op(w: &str) -> Option<Op> {
    Op::ALL.into_iter().find(|o| o.key() == w)
}

fn action(d: &Data, lines: &[Line]) -> Result<Action, OrderError> {
    let first = &lines[0];
    let Some(o) = op(&first.words[0]) else {
        return Err(first.err(format!(
            "{:?} is not an order: pass, event, an Operation (train patrol sweep assault rally march attack terror), or a Propaganda plan",
            first.words[0]
        )));
    };
    let limited = match first.words.get(1).map(String::as_str) {
        None => false,
        Some("limited") | Some("limop") => true,
        Some(w) => {
            return Err(first.err(format!("after {}, only `limited` (found {w:?})", o.key())));
        }
    };
    let mut steps = Vec::new();
    for l in &lines[1..] {
        steps.push((l.src.line, act_step(d, l)?));
    }
    Ok(Action {
        op: o,
        limited,
        steps,
    })
}

fn act_step(d: &Data, l: &Line) -> Result<ActStep, OrderError> {
    let w: Vec<&str> = l.words.iter().map(String::as_str).collect();
    Ok(match w[0] {
        "in" => ActStep::In(in_space(d, l, &w[1..])?),
        "move" => ActStep::Move(movement(d, l, &w[1..])?),
        "civic" => ActStep::Civic(space(d, l, arg(l, &w, 1)?)?, count_or_one(l, &w, 2)?),
        "base" => ActStep::BuildBase(space(d, l, arg(l, &w, 1)?)?),
        "patronage" => ActStep::Patronage,
        "sharia" => ActStep::Sharia(space(d, l, arg(l, &w, 1)?)?, count_or_one(l, &w, 2)?),
        "assault" => {
            let s = space(d, l, arg(l, &w, 1)?)?;
            let targets = targets(l, &w[2..])?;
            ActStep::Assault(s, targets)
        }
        "sa" => ActStep::Sa(special(d, l, &w[1..])?),
        other => {
            return Err(l.err(format!(
                "{other:?}: an Operation's lines start with in, move, civic, base, patronage, sharia, assault or sa"
            )));
        }
    })
}

fn arg<'a>(l: &Line, w: &[&'a str], i: usize) -> Result<&'a str, OrderError> {
    w.get(i)
        .copied()
        .ok_or_else(|| l.err(format!("{} needs more: see `umpire rules adp`", w[0])))
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
        Some(x) => Err(l.err(format!("expected `target FACTION...`, found {x:?}"))),
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
            other => {
                return Err(l.err(format!(
                    "{other:?}: after `in SPACE`: place, base, flip, with-government, target"
                )));
            }
        }
        i += 1;
    }
    Ok(s)
}

fn path(d: &Data, l: &Line, w: &str) -> Result<Vec<SpaceId>, OrderError> {
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
                    return Err(l.err(format!(
                        "{x:?}: a move is `move N [troops|police|active] FROM>TO [with N]`"
                    )));
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

fn spaces_of(d: &Data, l: &Line, w: &[&str]) -> Result<Vec<SpaceId>, OrderError> {
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
        return Err(l.err("`sa` names a Special Activity: surge airlift airstrike govern transport eradicate extort infiltrate ambush cultivate traffic suborn"));
    };
    let rest = &w[1..];
    Ok(match k {
        SaKind::Extort => Sa::Extort(spaces_of(d, l, rest)?),
        SaKind::Eradicate => Sa::Eradicate(spaces_of(d, l, rest)?),
        SaKind::Ambush => Sa::Ambush(spaces_of(d, l, rest)?),
        SaKind::Traffic => Sa::Traffic(spaces_of(d, l, rest)?),
        SaKind::Cultivate => Sa::Cultivate(space(d, l, arg(l, w, 1)?)?),
        SaKind::Airstrike => {
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
            Sa::Airstrike(v)
        }
        SaKind::Govern => {
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
            Sa::Govern(v)
        }
        SaKind::Airlift => {
            let mut v = Vec::new();
            for g in groups(rest) {
                v.push(movement(d, l, &g)?);
            }
            Sa::Airlift(v)
        }
        SaKind::Transport => Sa::Transport(movement(d, l, rest)?),
        SaKind::Infiltrate => {
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
            Sa::Infiltrate {
                space: s,
                remove,
                replace,
            }
        }
        SaKind::Suborn => {
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
            Sa::Suborn(v)
        }
        SaKind::Surge => {
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
            Sa::Surge { moves, roll }
        }
    })
}

/// A Propaganda move: one plan per `as FACTION` section (a player with two
/// factions sends both in the one sealed mail of the round, 6.0), or one
/// plan for the faction asked when no `as` line comes first.
fn plans(d: &Data, lines: &[Line]) -> Result<Vec<(SourceLine, Order)>, OrderError> {
    let mut out = Vec::new();
    let mut start = 0;
    for i in 1..=lines.len() {
        if i == lines.len() || lines[i].words[0] == "as" {
            let part = &lines[start..i];
            out.push((part[0].src.clone(), plan(d, part)?));
            start = i;
        }
    }
    Ok(out)
}

fn plan(d: &Data, lines: &[Line]) -> Result<Order, OrderError> {
    let mut who = None;
    let mut v = Vec::new();
    for l in lines {
        let w: Vec<&str> = l.words.iter().map(String::as_str).collect();
        let step = match w[0] {
            "as" => {
                who = Some(faction(l, arg(l, &w, 1)?)?);
                continue;
            }
            "done" => continue,
            "civic" => PlanLine::Civic(space(d, l, arg(l, &w, 1)?)?, count_or_one(l, &w, 2)?),
            "sharia" => PlanLine::Sharia(space(d, l, arg(l, &w, 1)?)?, count_or_one(l, &w, 2)?),
            "redeploy" => {
                let count = number(l, arg(l, &w, 1)?)?;
                let kind = Kind::parse(arg(l, &w, 2)?)
                    .ok_or_else(|| l.err("redeploy N troops|police|guerrillas FROM>TO"))?;
                let p = path(d, l, arg(l, &w, 3)?)?;
                PlanLine::Redeploy {
                    count,
                    kind,
                    from: p[0],
                    to: p[p.len() - 1],
                }
            }
            other => {
                return Err(l.err(format!(
                    "{other:?}: in a Propaganda Round write civic, sharia, redeploy, `as FACTION` or done (6.4, 6.5)"
                )));
            }
        };
        v.push((l.src.line, step));
    }
    Ok(Order::Plan(who, v))
}
