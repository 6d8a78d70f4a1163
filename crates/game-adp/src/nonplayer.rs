//! Non-player factions (8.0-8.4): the umpire plays every faction no side
//! declares, inside the move (or set-up) that hands it the card, so the
//! record's replay re-derives each decision. What the rulebook text says is
//! code here (Event or Operations, Limited Operations made full, Low
//! Resources, Dual Use); what the missing flowcharts would say is the
//! reconstructed data of `games/adp/nonplayer.toml` ([`NpPriorities`]). Every
//! choice among equals is a labelled, public roll (8.2 PLAY NOTE).

use super::cards::CardKind;
use super::data::{Data, HaloDo, NpPriorities, SpaceNo};
use super::effects;
use super::legal;
use super::orders::{self, ActStep, At, Order, Sa};
use super::pieces::Faction;
use super::sequence::{self, Offer};
use super::state::{Stage, State};
use std::cmp::Reverse;
use umpire_core::dice::Dice;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{Event, RuleError};

/// A guard: every decision ends a faction's part of a card, so the deck
/// bounds them long before this.
const MAX_DECISIONS: usize = 1000;

/// Plays every Non-player decision due now (8.1), until a player is asked,
/// a Propaganda Round awaits plans, or the game ends.
pub fn play(
    d: &Data,
    st: &mut State,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    for _ in 0..MAX_DECISIONS {
        if !matches!(st.stage, Stage::Card(_)) {
            return Ok(());
        }
        let Some(f) = sequence::decider(d, st) else {
            return Ok(());
        };
        if !st.seats.is_np(f) {
            return Ok(());
        }
        decide(d, st, f, dice, events)?;
    }
    Err(RuleError::illegal(
        "the Non-players did not stop deciding",
        "8.1",
    ))
}

/// One Non-player decision on the current card, carried out.
pub fn decide(
    d: &Data,
    st: &mut State,
    f: Faction,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let text = choose(d, st, f, dice)?;
    let said = Event::say(format!(
        "Non-player {}: {} (8.1)",
        f.name(),
        text.replace('\n', "; ")
    ));
    let Some(order) = parse(d, &text) else {
        return pass(d, st, f, dice, events, "its order did not parse");
    };
    let mut copy = st.clone();
    match sequence::act(d, &mut copy, f, &order, dice) {
        Ok(ev) => {
            *st = copy;
            events.push(said);
            events.extend(ev);
            Ok(())
        }
        Err(RuleError::Dice(e)) => Err(RuleError::Dice(e)),
        // The real dice fell otherwise than the trial's: it passes instead.
        Err(e) => pass(d, st, f, dice, events, &e.to_string()),
    }
}

fn pass(
    d: &Data,
    st: &mut State,
    f: Faction,
    dice: &mut Dice,
    events: &mut Vec<Event>,
    why: &str,
) -> Result<(), RuleError> {
    events.push(Event::say(format!(
        "Non-player {}: its choice could not be carried out ({why}); it passes (8.1)",
        f.name()
    )));
    events.extend(sequence::act(d, st, f, &Order::Pass, dice)?);
    Ok(())
}

/// The order text a Non-player sends: the Event when 8.1 allows and it has
/// an effect, else its best Operation by the priorities, else a pass.
pub fn choose(d: &Data, st: &State, f: Faction, dice: &mut Dice) -> Result<String, RuleError> {
    let pri = &d.nonplayer[f.index()];
    let all = legal::card_candidates(d, st, f);
    // 8.4.1: a halo instruction comes before 8.1's choice and Dual Use.
    let halo = sequence::current(d, st)
        .and_then(|c| {
            d.halos
                .iter()
                .find(|h| h.card == c.number && h.faction == f)
        })
        .map(|h| h.instruction);
    let offered = sequence::offers(d, st).contains(&Offer::Event);
    let consider = offered
        && match halo {
            Some(HaloDo::Operations) => false,
            Some(HaloDo::Event(_)) => true,
            None => pri.event && wants_event(d, st, f, dice)?,
        };
    if consider {
        // 8.4 Dual Use: Insurgents the shaded text, COIN the unshaded.
        let shaded = match halo {
            Some(HaloDo::Event(s)) => s,
            _ => !f.is_coin(),
        };
        let side = if shaded {
            "event shaded"
        } else {
            "event unshaded"
        };
        let events: Vec<String> = all
            .iter()
            .filter(|c| c.starts_with(side) && effective(d, st, f, c))
            .cloned()
            .collect();
        if !events.is_empty() {
            // The maximum extent (8.1 GUIDELINES): the most lines first.
            return pick(d, events, |c| Reverse(c.lines().count()), f, dice);
        }
    }
    if low_resources(st, f) {
        return Ok("pass".into());
    }
    // 8.1 GUIDELINES: "only as long as needed pieces and Resources are
    // available": from version 10 no candidate selects a space where its
    // Operation does nothing (a Rally with no Guerrilla to place).
    let ops: Vec<String> = all
        .into_iter()
        .filter(|c| !c.starts_with("pass") && !c.starts_with("event"))
        .filter(|c| match trial_state(d, st, f, c) {
            Some(after) => d.version < 10 || super::np_extent::acts_everywhere(d, c, st, &after),
            None => false,
        })
        .collect();
    if ops.is_empty() {
        return Ok("pass".into());
    }
    // 8.1 GUIDELINES: do not move a piece out of a space if that would
    // place or remove Control there (Surge excepted, 8.8.2); when every
    // candidate would, the guideline cannot be kept and they all stay.
    let keeping: Vec<String> = ops
        .iter()
        .filter(|c| keeps_control(d, st, f, c))
        .cloned()
        .collect();
    let ops = if keeping.is_empty() { ops } else { keeping };
    let fresh: Vec<String> = ops
        .iter()
        .filter(|c| sabotages_fresh(d, st, c))
        .cloned()
        .collect();
    let ops = if fresh.is_empty() { ops } else { fresh };
    let best = pick(d, ops, |c| score(st, pri, c), f, dice)?;
    // 8.1 GUIDELINES: the maximum extent (ruling A50).
    Ok(super::np_extent::widen(d, st, f, &best))
}

/// The spaces an order moves pieces out of, Surge's excepted (8.1, 8.8.2).
fn moved_from(order: &Order) -> Vec<SpaceNo> {
    let steps = match order {
        Order::Act(a) => &a.steps,
        Order::Event { free: Some(a), .. } => &a.steps,
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    for (_, s) in steps {
        match s {
            ActStep::Move(m) | ActStep::Sa(Sa::Transport(m)) => out.extend(m.path.first()),
            ActStep::Sa(Sa::Airlift(ms)) => out.extend(ms.iter().filter_map(|m| m.path.first())),
            _ => {}
        }
    }
    out
}

/// Does the order leave Control as it was in every space it moves pieces
/// out of (8.1 GUIDELINES)?
pub(super) fn keeps_control(d: &Data, st: &State, f: Faction, text: &str) -> bool {
    let Some(order) = parse(d, text) else {
        return false;
    };
    let from = moved_from(&order);
    if from.is_empty() {
        return true;
    }
    let mut copy = st.clone();
    if sequence::act(d, &mut copy, f, &order, &mut Dice::seeded([7; 32])).is_err() {
        return false;
    }
    from.iter().all(|s| copy[*s].control == st[*s].control)
}

/// 8.1 Low Resources: an Insurgent Non-player at 0, or the Government below
/// 3, passes instead of operating (the Coalition operates on).
pub fn low_resources(st: &State, f: Faction) -> bool {
    match f {
        Faction::Government => st.res(f) < 3,
        Faction::Taliban | Faction::Warlords => st.res(f) == 0,
        Faction::Coalition => false,
    }
}

/// 8.1 Event or Ops: does the Non-player consider the current card's Event?
pub fn wants_event(d: &Data, st: &State, f: Faction, dice: &mut Dice) -> Result<bool, RuleError> {
    let Some(card) = sequence::current(d, st) else {
        return Ok(false);
    };
    let next_is_propaganda = st
        .deck
        .next
        .and_then(|n| d.card(n))
        .is_some_and(|c| c.is_propaganda());
    Ok(match (card.kind, f) {
        (CardKind::Momentum, _) => !next_is_propaganda || card.title.contains("Mullah Omar"),
        (CardKind::Capability | CardKind::Islamabad, Faction::Warlords) => {
            st.seats.is_np(Faction::Taliban)
        }
        (CardKind::Capability | CardKind::Islamabad, Faction::Government) => {
            st.seats.is_np(Faction::Coalition)
        }
        (CardKind::Capability, _) => {
            let left = st.deck.props_to_come(d);
            let roll = dice.roll(
                6,
                &format!(
                    "8.1: the Non-player {} take the Capability {} on less than {left} (Propaganda cards left)",
                    f.name(),
                    card.label()
                ),
            )?;
            roll < u32::from(left)
        }
        _ => true,
    })
}

/// 8.1 Ineffective Events: would the Event do anything?
fn effective(d: &Data, st: &State, f: Faction, text: &str) -> bool {
    let Some(Order::Event {
        shaded,
        spaces,
        free,
    }) = parse(d, text)
    else {
        return false;
    };
    if free.is_some() {
        return trial(d, st, f, text);
    }
    let Some(card) = sequence::current(d, st) else {
        return false;
    };
    let mut copy = st.clone();
    match effects::execute(d, &mut copy, f, card, shaded, &spaces) {
        // Halted for a player's choice (digest D3): the rest may change
        // anything, so the Event is not ineffective.
        Ok((_, Some(_))) => true,
        Ok((_, None)) => changed(st, &copy),
        Err(_) => false,
    }
}

/// Did anything an Event can touch change?
fn changed(a: &State, b: &State) -> bool {
    a.spaces != b.spaces
        || a.available != b.available
        || a.casualties != b.casualties
        || a.out_of_play != b.out_of_play
        || a.resources != b.resources
        || (a.aid, a.patronage, a.islamabad, a.hard) != (b.aid, b.patronage, b.islamabad, b.hard)
        || a.capabilities != b.capabilities
        || a.momentum != b.momentum
        || a.eligible != b.eligible
        || a.next_eligibility != b.next_eligibility
}

/// Ranks an Operation's text by the faction's priorities: first the
/// flowchart record it matches (`nonplayer.toml` `[[flow]]`: a box calling
/// for a Special Activity with its Operation, or the Operation), with a
/// Special Activity before without (8.1 Operations Not Limited), the
/// Special Activity's rank; then the 8.1 GUIDELINES: the fewest Non-players
/// targeted ("target or remove enemy players before Non-players"), the most
/// friendly Bases placed ("place friendly Bases whenever possible"), the
/// most lines, then the most pieces moved or placed (the maximum extent:
/// "with the most pieces allowed").
type Score = (
    usize,
    usize,
    usize,
    usize,
    Reverse<usize>,
    Reverse<usize>,
    Reverse<u32>,
);

fn score(st: &State, pri: &NpPriorities, text: &str) -> Score {
    let op = text.split_whitespace().next().unwrap_or("");
    let sa = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("sa "))
        .and_then(|l| l.split_whitespace().next());
    (
        pri.flow_rank(op, sa),
        usize::from(sa.is_none()),
        sa.map_or(pri.sas.len(), |k| NpPriorities::rank(&pri.sas, k)),
        np_targets(st, text),
        Reverse(bases_placed(text)),
        Reverse(text.lines().count()),
        Reverse(pieces_named(text)),
    )
}

/// The pieces an order's `move` and `place` lines name: the numbers on them.
fn pieces_named(text: &str) -> u32 {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("move ") || l.contains(" place "))
        .flat_map(|l| l.split_whitespace().filter_map(|w| w.parse::<u32>().ok()))
        .sum()
}

/// How many times the order names a Non-player faction as its target (a
/// Surge's `roll warlords N` share is not a target).
fn np_targets(st: &State, text: &str) -> usize {
    text.lines()
        .filter(|l| !l.contains(" roll "))
        .flat_map(|l| l.split(|c: char| c.is_whitespace() || c == ','))
        .filter_map(Faction::parse)
        .filter(|f| st.seats.is_np(*f))
        .count()
}

/// The Bases the order places: Rally's `in SPACE base` lines (3.3.1); a
/// Government Base by Train (`base SPACE`) is never a candidate, so the
/// guideline's "no more than 1 Government Base per space" holds.
fn bases_placed(text: &str) -> usize {
    text.lines()
        .filter(|l| l.trim_end().ends_with(" base"))
        .count()
}

/// 8.3 "Sabotage only unsabotaged LoCs": a Terror line in a LoC already
/// Sabotaged is not a Non-player's choice.
fn sabotages_fresh(d: &Data, st: &State, text: &str) -> bool {
    if !text.starts_with("terror") {
        return true;
    }
    text.lines().skip(1).all(|l| {
        let Some(s) = l.trim().strip_prefix("in ").and_then(|k| d.find(k.trim())) else {
            return true;
        };
        !(d[s].is_loc() && st[s].sabotage)
    })
}

/// The best candidate by `key`. Among equals in different spaces, the
/// Random Spaces table picks a Province or Kabul (8.2), or among LoCs alone
/// the highest Econ (8.3); among what is still equal, an equal-chance
/// labelled roll (8.2 PLAY NOTE, 8.3).
fn pick<K: Ord>(
    d: &Data,
    mut v: Vec<String>,
    key: impl Fn(&str) -> K,
    f: Faction,
    dice: &mut Dice,
) -> Result<String, RuleError> {
    v.sort_by_key(|c| key(c));
    let best = key(&v[0]);
    v.retain(|c| key(c) == best);
    let v = random_space(d, v, f, dice)?;
    let n = v.len();
    let i = if n == 1 {
        0
    } else {
        let r = dice.roll(
            n as u32,
            &format!(
                "8.2: the Non-player {} choose among {n} equal candidates",
                f.name()
            ),
        )?;
        (r as usize).saturating_sub(1).min(n - 1)
    };
    let mut v = v;
    Ok(v.swap_remove(i))
}

/// The space a candidate order is about: its first selected space, or a
/// movement's destination, or the Event's first space.
pub fn primary_space(d: &Data, text: &str) -> Option<SpaceNo> {
    match parse(d, text)? {
        Order::Event { spaces, free, .. } => spaces
            .first()
            .copied()
            .or_else(|| free.and_then(|a| first_space(&a.steps))),
        Order::Act(a) => first_space(&a.steps),
        _ => None,
    }
}

fn first_space(steps: &[(At, ActStep)]) -> Option<SpaceNo> {
    steps.iter().find_map(|(_, s)| match s {
        ActStep::In(i) => Some(i.space),
        ActStep::Move(m) => m.path.last().copied(),
        ActStep::Civic(s, _) | ActStep::Sharia(s, _) | ActStep::Assault(s, _) => Some(*s),
        _ => None,
    })
}

/// 8.2, 8.3: narrows equal candidates in several spaces to one space.
fn random_space(
    d: &Data,
    v: Vec<String>,
    f: Faction,
    dice: &mut Dice,
) -> Result<Vec<String>, RuleError> {
    let spaces: Vec<Option<SpaceNo>> = v.iter().map(|c| primary_space(d, c)).collect();
    let mut distinct: Vec<SpaceNo> = spaces.iter().flatten().copied().collect();
    distinct.sort();
    distinct.dedup();
    // Only when every candidate names a space, and they differ.
    if distinct.len() < 2 || spaces.iter().any(Option::is_none) || d.random_spaces.is_empty() {
        return Ok(v);
    }
    let provinces: Vec<SpaceNo> = distinct
        .iter()
        .copied()
        .filter(|s| !d[*s].is_loc())
        .collect();
    let chosen = if provinces.is_empty() {
        // 8.3: LoCs alone: the highest Econ first (then the roll below).
        let top = distinct.iter().map(|s| d[*s].econ).max().unwrap_or(0);
        let locs: Vec<SpaceNo> = distinct.into_iter().filter(|s| d[*s].econ == top).collect();
        if locs.len() == 1 {
            locs[0]
        } else {
            let r = dice.roll(
                locs.len() as u32,
                &format!(
                    "8.3: Random LoCs for the Non-player {}, {} of Econ {top}",
                    f.name(),
                    locs.len()
                ),
            )?;
            locs[(r as usize).saturating_sub(1).min(locs.len() - 1)]
        }
    } else {
        table_walk(d, &provinces, f, dice)?
    };
    Ok(v.into_iter()
        .zip(spaces)
        .filter(|(_, s)| *s == Some(chosen))
        .map(|(c, _)| c)
        .collect())
}

/// 8.2: roll the tan, black and green dice, read the table, and walk down it
/// (column to column, Kandahar to Balochistan) to the first candidate.
pub fn table_walk(
    d: &Data,
    candidates: &[SpaceNo],
    f: Faction,
    dice: &mut Dice,
) -> Result<SpaceNo, RuleError> {
    let who = f.name();
    let tan = dice.roll(
        6,
        &format!("8.2: Random Spaces for the Non-player {who}, tan die (column)"),
    )?;
    let black = dice.roll(
        6,
        &format!("8.2: Random Spaces for the Non-player {who}, black die (trio)"),
    )?;
    let green = dice.roll(
        6,
        &format!("8.2: Random Spaces for the Non-player {who}, green die (space in the trio)"),
    )?;
    let third = |r: u32| (r.clamp(1, 6) as usize - 1) / 2;
    let start = third(tan) * 9 + third(black) * 3 + third(green);
    let n = d.random_spaces.len();
    (0..n)
        .map(|k| d.random_spaces[(start + k) % n])
        .find(|s| candidates.contains(s))
        .ok_or_else(|| RuleError::illegal("no candidate is on the Random Spaces table", "8.2"))
}

/// Would the order be carried out (tried on a copy, with fixed dice)?
pub(super) fn trial(d: &Data, st: &State, f: Faction, text: &str) -> bool {
    trial_state(d, st, f, text).is_some()
}

/// The state after the order, tried on a copy with fixed dice, if it is
/// carried out.
pub(super) fn trial_state(d: &Data, st: &State, f: Faction, text: &str) -> Option<State> {
    let order = parse(d, text)?;
    let mut copy = st.clone();
    sequence::act(d, &mut copy, f, &order, &mut Dice::seeded([7; 32])).ok()?;
    Some(copy)
}

fn parse(d: &Data, text: &str) -> Option<Order> {
    let lines: Vec<SourceLine> = text
        .lines()
        .enumerate()
        .map(|(i, t)| SourceLine {
            line: i + 1,
            column: 1,
            text: t.to_string(),
        })
        .collect();
    orders::parse(d, &lines, false)
        .ok()?
        .into_iter()
        .next()
        .map(|(_, o)| o)
}
