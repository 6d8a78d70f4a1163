//! Conditional card orders (digest D1, D2, D4): a player's standing order
//! for a card it is not yet asked about, so that a typical card costs no
//! extra round trip. The next card is always shown (2.2), so a player can
//! write, ahead of time, what it does on it in each situation it may be
//! asked in: as the 1st Eligible (`first`: nobody has executed yet, passes
//! included, D2), or as the 2nd after the 1st's Operation only (`after op`,
//! a Limited one too: ruling A35), after its Operation with a Special
//! Activity (`after op-sa`), after its Event (`after event`, D1), in any of
//! these (`any`), or when an Event grants it a free Operation (`grant`, D4,
//! 5.5). The branch that fits is carried out inside the move that hands the
//! faction the card, like a Non-player's decision; a branch that no longer
//! fits the board is dropped and the player is asked as usual, its default
//! `pass` (D1, D2; a grant's `pass` declines it, D4). With no branch that
//! fits, the player is asked.
//!
//! They are secret (the side's standing orders are sealed to it until the
//! game ends: `Adp::standing_audience`); what a branch carried out does is
//! told to all, as any move's events are.

use super::cards::Step;
use super::data::{CardNo, Data, SpaceNo};
use super::orders::{self, Order};
use super::pieces::Faction;
use super::sequence::{self, Took};
use super::state::{Stage, State};
use serde::{Deserialize, Serialize};
use umpire_core::audience::Audience;
use umpire_core::dice::Dice;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{Event, OrderError, RuleError, Side};

/// When a branch applies (2.3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum When {
    /// Asked as the 1st Eligible (the factions before it passed, if any).
    First,
    /// Asked as the 2nd Eligible after the 1st's Operation only (or Limited).
    AfterOp,
    /// ... after the 1st's Operation with a Special Activity.
    AfterOpSa,
    /// ... after the 1st's Event.
    AfterEvent,
    /// Asked in any of those.
    Any,
    /// Granted a free Operation by another faction's Event (5.5, D4).
    Grant,
    /// The spaces it chooses when an Event's text names it to choose (5.1,
    /// D3), best first: `on CARD [as FACTION] choose SPACE...`.
    Choose,
}

impl When {
    fn key(self) -> &'static str {
        match self {
            When::First => "first",
            When::AfterOp => "after op",
            When::AfterOpSa => "after op-sa",
            When::AfterEvent => "after event",
            When::Any => "any",
            When::Grant => "grant",
            When::Choose => "choose",
        }
    }

    /// Branches of one class are spent together: a card order, a grant's
    /// answer, a choice of spaces.
    fn class(self) -> u8 {
        match self {
            When::Grant => 1,
            When::Choose => 2,
            _ => 0,
        }
    }
}

/// One order line kept for later, where it stood in the move file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    /// Its line in the move file that set it.
    pub line: usize,
    /// Its column there.
    pub column: usize,
    /// The text.
    pub text: String,
}

/// A branch of a conditional card order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardOrder {
    /// The card it is for (its number).
    pub card: CardNo,
    /// The faction that gives it.
    pub faction: Faction,
    /// When it applies.
    pub when: When,
    /// The order's lines, as a move on the card would hold them.
    pub lines: Vec<Kept>,
    /// `choose`: the spaces' keys, best first.
    pub spaces: Vec<String>,
}

impl CardOrder {
    /// The branch as its owner wrote it, on one line.
    pub fn text(&self) -> String {
        if self.when == When::Choose {
            return format!(
                "on {} as {} choose {}",
                self.card,
                self.faction.key(),
                self.spaces.join(" ")
            );
        }
        let body: Vec<&str> = self.lines.iter().map(|l| l.text.as_str()).collect();
        format!(
            "on {} as {} {}: {}",
            self.card,
            self.faction.key(),
            self.when.key(),
            body.join("; ")
        )
    }

    fn source(&self) -> Vec<SourceLine> {
        self.lines
            .iter()
            .map(|l| SourceLine {
                line: l.line,
                column: l.column,
                text: l.text.clone(),
            })
            .collect()
    }
}

/// Is `l` the head of a branch (`on CARD [as FACTION] WHEN`)?
pub fn is_head(l: &SourceLine) -> bool {
    l.text
        .split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("on"))
}

/// Reads the branches among a side's standing lines (the lines from each
/// `on ...` head to the next head or an `end` line); the other lines are
/// returned for the transfer offers. Each branch's order is read now, so a
/// line that does not read is refused at once, with its line and column.
pub fn parse(
    d: &Data,
    st: &State,
    side: Side,
    lines: &[SourceLine],
) -> Result<(Vec<CardOrder>, Vec<SourceLine>), OrderError> {
    let mine = st.seats.factions_of(side);
    let (mut out, mut rest) = (Vec::new(), Vec::new());
    let mut open: Option<CardOrder> = None;
    for l in lines.iter().filter(|l| !l.text.trim().is_empty()) {
        if is_head(l) {
            out.extend(open.take().map(|b| check(d, b, l)).transpose()?);
            let h = head(d, st, mine, l)?;
            if h.when == When::Choose {
                // Its spaces are on its head line: it has no body.
                out.push(h);
            } else {
                open = Some(h);
            }
        } else if l.text.trim().eq_ignore_ascii_case("end") {
            let b = open.take().ok_or_else(|| {
                OrderError::at(l, "`end` closes an `on CARD ...` branch, and none is open")
                    .rule("2.3.4")
            })?;
            out.push(check(d, b, l)?);
        } else if let Some(b) = &mut open {
            b.lines.push(Kept {
                line: l.line,
                column: l.column,
                text: l.text.clone(),
            });
        } else {
            rest.push(l.clone());
        }
    }
    if let (Some(b), Some(l)) = (open, lines.last()) {
        out.push(check(d, b, l)?);
    }
    Ok((out, rest))
}

/// `on CARD [as FACTION] first|after op|after op-sa|after event|any|grant`.
fn head(d: &Data, st: &State, mine: &[Faction], l: &SourceLine) -> Result<CardOrder, OrderError> {
    let text = l.text.to_ascii_lowercase();
    let w: Vec<&str> = text.split_whitespace().collect();
    let usage = "a branch starts `on CARD [as FACTION] first | after op | after op-sa | after event | any | grant | choose SPACE...`";
    let bad = |m: String| OrderError::at(l, m).rule("2.3.4");
    let card: CardNo = w
        .get(1)
        .and_then(|n| n.trim_start_matches('#').parse().ok())
        .filter(|n| d.card(*n).is_some())
        .ok_or_else(|| bad(format!("{usage}; CARD is a card's number")))?;
    if st.deck.played.contains(&card) {
        return Err(bad(format!("card {card} has been played (2.2)")));
    }
    let (faction, rest) = match w.get(2) {
        Some(&"as") => {
            let f = w.get(3).and_then(|f| Faction::parse(f));
            (f, &w[4.min(w.len())..])
        }
        _ => ((mine.len() == 1).then(|| mine[0]), &w[2..]),
    };
    let faction = faction.filter(|f| mine.contains(f)).ok_or_else(|| {
        bad("name which of your factions gives it: `on CARD as FACTION ...`".into())
    })?;
    let when = match rest {
        ["first"] => When::First,
        ["after", "op"] => When::AfterOp,
        ["after", "op-sa"] => When::AfterOpSa,
        ["after", "event"] => When::AfterEvent,
        ["any"] => When::Any,
        ["grant"] => When::Grant,
        ["choose", ..] => When::Choose,
        _ => return Err(bad(usage.into())),
    };
    let mut spaces = Vec::new();
    if when == When::Choose {
        for w in &rest[1..] {
            let s = d
                .find(w)
                .ok_or_else(|| bad(format!("no space {w:?} (1.3)")))?;
            spaces.push(d[s].key.clone());
        }
        if spaces.is_empty() {
            return Err(bad("`choose` names spaces, best first".into()));
        }
    }
    Ok(CardOrder {
        card,
        faction,
        when,
        lines: Vec::new(),
        spaces,
    })
}

/// A branch's order must read as a move on the card would (2.3.4).
fn check(d: &Data, b: CardOrder, at: &SourceLine) -> Result<CardOrder, OrderError> {
    if b.lines.is_empty() {
        return Err(OrderError::at(
            at,
            "a branch holds an order: `pass`, `event ...` or an Operation",
        )
        .rule("2.3.4"));
    }
    let read = orders::parse(d, &b.source(), false)?;
    if let Some((l, _)) = read.iter().find(|(_, o)| matches!(o, Order::Choose(_))) {
        // D3: a standing answer is `on CARD choose SPACE...`, not a branch.
        return Err(OrderError::at(
            l,
            "`choose` answers an Event's question when asked; ahead of time write `on CARD choose SPACE...`",
        )
        .rule("5.1"));
    }
    Ok(b)
}

/// Does the situation of the card now fit `when`?
fn fits(st: &State, when: When) -> bool {
    let Stage::Card(t) = &st.stage else {
        return false;
    };
    if t.choice.is_some() {
        // Answered by `choose` branches inside the Event (D3), not here.
        return false;
    }
    if t.grant.is_some() {
        return when == When::Grant;
    }
    match (when, t.first.map(|x| x.1)) {
        (When::Grant, _) => false,
        (When::Any, _) | (When::First, None) => true,
        (When::AfterOp, Some(Took::Op | Took::LimOp)) => true,
        (When::AfterOpSa, Some(Took::OpSa)) => true,
        (When::AfterEvent, Some(Took::Event)) => true,
        _ => false,
    }
}

/// Carries out one order of a side as if it had sent it (`Adp::dispatch`).
pub type Dispatch<'a> =
    dyn Fn(&mut State, Side, &Order, &mut Dice) -> Result<Vec<Event>, RuleError> + 'a;

/// Carries out the branch that fits the player asked now, if any. True if
/// one was carried out (the card moved on), false if the player is to be
/// asked. `dispatch` carries out one order as if the player had sent it.
pub fn step(
    d: &Data,
    st: &mut State,
    dice: &mut Dice,
    events: &mut Vec<Event>,
    dispatch: &Dispatch,
) -> Result<bool, RuleError> {
    // Branches for cards played are spent.
    let played = st.deck.played.clone();
    st.cards.retain(|b| !played.contains(&b.card));
    let (Some(card), Some(f)) = (st.deck.current, sequence::decider(d, st)) else {
        return Ok(false);
    };
    let Some(side) = st.seats.side(f) else {
        return Ok(false);
    };
    let Some(i) = st
        .cards
        .iter()
        .position(|b| b.card == card && b.faction == f && fits(st, b.when))
    else {
        return Ok(false);
    };
    // Asked once on a card (2.3.2), the faction's other branches are moot,
    // save a grant's (D4), which comes in the middle of another's turn.
    let b = st.cards.remove(i);
    let grant = b.when == When::Grant;
    st.cards
        .retain(|o| !(o.card == card && o.faction == f && o.when.class() == b.when.class()));
    let mut copy = st.clone();
    let mut ev = vec![Event::say(format!(
        "The {} act on their standing order for card {card} ({}; digest {})",
        f.name(),
        b.when.key(),
        if grant { "D4" } else { "D1, D2" }
    ))];
    let done = orders::parse(d, &b.source(), false)
        .map_err(|e| RuleError::illegal(e.to_string(), "2.3.4"))
        .and_then(|os| {
            for (_, o) in &os {
                ev.extend(dispatch(&mut copy, side, o, dice)?);
            }
            Ok(())
        });
    match done {
        Ok(()) => {
            *st = copy;
            events.extend(ev);
            Ok(true)
        }
        Err(RuleError::Dice(e)) => Err(RuleError::Dice(e)),
        Err(e) => {
            // Told to its owner alone: the branch is a secret (D1).
            events.push(
                Event::say(format!(
                    "Your standing order for card {card} ({}, line {}) cannot be carried out now: {e}; you are asked instead",
                    b.when.key(),
                    b.lines.first().map_or(0, |l| l.line)
                ))
                .to(Audience::side(side)),
            );
            Ok(false)
        }
    }
}

/// A grant the grantee, a player, could not use (digest D4): asked only
/// when the choice is real, it declines at once when none of the granted
/// Operations the sample of legal orders holds can be carried out. True if
/// it declined.
pub fn idle_grant(
    d: &Data,
    st: &mut State,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<bool, RuleError> {
    let Stage::Card(t) = &st.stage else {
        return Ok(false);
    };
    let Some(g) = &t.grant else {
        return Ok(false);
    };
    if t.choice.is_some() {
        // A grant before a chosen step waits for the choice (digest D3).
        return Ok(false);
    }
    let f = g.faction;
    if st.seats.is_np(f) {
        return Ok(false);
    }
    let usable = super::legal::card_candidates(d, st, f)
        .iter()
        .filter(|c| c.as_str() != "pass")
        .any(|c| super::nonplayer::trial(d, st, f, c));
    if usable {
        return Ok(false);
    }
    events.push(Event::say(format!(
        "The {} could carry out none of the free Operations granted: not asked (5.5, digest D4)",
        f.name()
    )));
    events.extend(sequence::act(d, st, f, &Order::Pass, dice)?);
    Ok(true)
}

/// The spaces `g` chooses for an Event step whose text names it to choose
/// (5.1, digest D3): those of its standing `choose` order for the card that
/// qualify, in its order, then by the stated default, the qualifying spaces
/// with the most of the step's pieces, then in map order. A player of
/// another side with no standing order and a real choice is asked instead,
/// mid-Event (`effects::asks`); this is its `pass`.
pub fn chosen(d: &Data, st: &State, g: Faction, card: CardNo, step: &Step, n: u8) -> Vec<SpaceNo> {
    let ok = candidates(d, st, step);
    let mut out: Vec<SpaceNo> = st
        .cards
        .iter()
        .filter(|b| b.card == card && b.faction == g && b.when == When::Choose)
        .flat_map(|b| b.spaces.iter().filter_map(|k| d.find(k)))
        .filter(|s| ok.contains(s))
        .collect();
    out.extend(
        ok.into_iter()
            .filter(|s| !out.contains(s))
            .collect::<Vec<_>>(),
    );
    out.dedup();
    out.truncate(usize::from(n));
    out
}

/// The spaces that qualify for a step another faction chooses (5.1, D3):
/// those of its filter holding the step's pieces, the most first, then in
/// map order (the stated default's order).
pub fn candidates(d: &Data, st: &State, step: &Step) -> Vec<SpaceNo> {
    let Step::Remove {
        faction,
        kind,
        filter,
        ..
    } = step
    else {
        return Vec::new();
    };
    let held = |s: SpaceNo| -> u32 {
        super::pieces::Piece::ALL
            .iter()
            .filter(|p| p.faction() == *faction && p.kind() == *kind)
            .map(|p| u32::from(st[s].pieces[*p]))
            .sum()
    };
    let mut v: Vec<SpaceNo> = d
        .ids()
        .filter(|s| super::effects::fits(d, *s, *filter) && held(*s) > 0)
        .collect();
    v.sort_by_key(|s| std::cmp::Reverse(held(*s)));
    v
}
