//! The sequence of play on Event cards (2.2, 2.3): who is asked, what each
//! may do, passing, eligibility, and drawing the next card.

use super::action::{self, Terms};
use super::cards::Card;
use super::data::{CardNo, Data};
use super::effects;
use super::orders::{ActStep, Action, Order};
use super::pieces::Faction;
use super::propaganda;
use super::state::{Stage, State};
use super::victory;
use serde::{Deserialize, Serialize};
use umpire_core::board::{Place, SpaceId};
use umpire_core::dice::Dice;
use umpire_core::ruleset::{Event, RuleError, Side};

/// What a faction did with a card (2.3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Took {
    /// An Operation only.
    Op,
    /// An Operation with a Special Activity.
    OpSa,
    /// A Limited Operation (counts as "Op only": ruling A35).
    LimOp,
    /// The Event.
    Event,
}

/// The current Event card's progress.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardTurn {
    /// The 1st Eligible faction to execute, and what it did.
    pub first: Option<(Faction, Took)>,
    /// The 2nd.
    pub second: Option<(Faction, Took)>,
    /// Factions that passed on this card (2.3.3).
    pub passed: Vec<Faction>,
    /// The decider revealed a Hidden Asset (7.3): its Limited Operation
    /// option is a full Operation with a Special Activity.
    pub asset: bool,
    /// A free Operation an Event granted another faction, owed now (5.5,
    /// digest D4).
    pub grant: Option<Grant>,
    /// An Event halted where its text names another player's faction to
    /// choose spaces (5.1, digest D3): that faction answers, then the Event
    /// goes on. Left out of the state's bytes when `None`, so that every
    /// state of version 7 hashes as it did (ARCHITECTURE "Upgrades").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<Choice>,
}

/// An Event waiting for the spaces another faction chooses (5.1, digest
/// D3), with what is left of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// The faction the text names to choose.
    pub chooser: Faction,
    /// The faction executing the Event.
    pub executor: Faction,
    /// The card.
    pub card: CardNo,
    /// Which text of the card.
    pub shaded: bool,
    /// The step waiting for the choice (its index in the text).
    pub step: usize,
    /// The executor's spaces for the steps after it.
    pub spaces: Vec<super::data::SpaceNo>,
    /// The free Operation the executor wrote after the Event (5.5).
    pub free: Option<Action>,
}

/// A free Operation granted by an Event to a faction other than its
/// executor (5.5): the grantee decides before the card goes on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant {
    /// The grantee.
    pub faction: Faction,
    /// The card whose Event grants it.
    pub card: CardNo,
    /// Which text of the card.
    pub shaded: bool,
}

/// An option open to the faction asked (2.3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// The Event.
    Event,
    /// An Operation (a Limited one also allowed).
    Op,
    /// An Operation with a Special Activity.
    OpSa,
    /// A Limited Operation only.
    LimOp,
}

/// The card being played.
pub fn current<'a>(d: &'a Data, st: &State) -> Option<&'a Card> {
    st.deck.current.and_then(|n| d.card(n))
}

/// The faction to decide now, if an Event card awaits one (2.3.2): the
/// leftmost Eligible faction in the card's order not yet asked.
pub fn decider(d: &Data, st: &State) -> Option<Faction> {
    let Stage::Card(t) = &st.stage else {
        return None;
    };
    if let Some(c) = &t.choice {
        return Some(c.chooser);
    }
    if let Some(g) = &t.grant {
        return Some(g.faction);
    }
    if t.second.is_some() {
        return None;
    }
    let card = current(d, st)?;
    card.order.iter().copied().find(|f| {
        st.eligible[f.index()] && !t.passed.contains(f) && t.first.map(|x| x.0) != Some(*f)
    })
}

/// The current card is the Final Event Card (2.3.8); the rule is ignored
/// with Sudden Propaganda (2.3.7).
pub fn final_event_card(d: &Data, st: &State) -> bool {
    !st.options.sudden_propaganda && st.deck.next_is_final_propaganda(d)
}

/// Is the decider a Non-player (8.0)?
pub fn np_deciding(d: &Data, st: &State) -> bool {
    decider(d, st).is_some_and(|f| st.seats.is_np(f))
}

/// The options open to the decider (2.3.4, 2.3.8). A Non-player offered a
/// Limited Operation executes a full one with a Special Activity, and ignores
/// the Final Event Card (8.1).
pub fn offers(d: &Data, st: &State) -> Vec<Offer> {
    let Stage::Card(t) = &st.stage else {
        return Vec::new();
    };
    if t.choice.is_some() {
        // 5.1: the chooser answers the Event's question, nothing else.
        return Vec::new();
    }
    if t.grant.is_some() {
        // 5.5: a free Operation, no Special Activity, whatever the card.
        return vec![Offer::Op];
    }
    let mut v = match t.first.map(|x| x.1) {
        None => vec![Offer::Event, Offer::Op, Offer::OpSa],
        Some(Took::Op) | Some(Took::LimOp) => vec![Offer::LimOp],
        Some(Took::OpSa) => vec![Offer::LimOp, Offer::Event],
        Some(Took::Event) => vec![Offer::Op, Offer::OpSa],
    };
    if t.asset && v.contains(&Offer::LimOp) {
        // 7.3 Hidden Asset.
        v.retain(|o| *o != Offer::LimOp);
        v.splice(0..0, [Offer::Op, Offer::OpSa]);
    }
    if np_deciding(d, st) {
        // 8.1 Operations Not Limited.
        if v.contains(&Offer::LimOp) {
            v.retain(|o| *o != Offer::LimOp);
            v.extend([Offer::Op, Offer::OpSa]);
        }
        return v;
    }
    if final_event_card(d, st) {
        // 2.3.8: every Operation is Limited, with no Special Activity.
        v = v
            .into_iter()
            .map(|o| {
                if matches!(o, Offer::Op | Offer::OpSa) {
                    Offer::LimOp
                } else {
                    o
                }
            })
            .collect();
        v.dedup();
    }
    v
}

/// Carries out the decider's order on an Event card.
pub fn act(
    d: &Data,
    st: &mut State,
    f: Faction,
    order: &Order,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    if let Stage::Card(t) = &st.stage
        && let Some(c) = t.choice.clone()
    {
        return chosen(d, st, c, order, dice);
    }
    if let Stage::Card(t) = &st.stage
        && let Some(g) = t.grant.clone()
    {
        return granted(d, st, f, &g, order, dice);
    }
    let mut events = Vec::new();
    if matches!(order, Order::Event { .. } | Order::Act(_)) {
        // 1.5.1: standing offers to a faction go while it executes.
        events.extend(super::transfer::standing_offers(d, st, f));
    }
    let took = match order {
        Order::Pass => {
            pass(d, st, f, &mut events);
            None
        }
        Order::Event {
            shaded,
            spaces,
            free,
        } => {
            if !offers(d, st).contains(&Offer::Event) {
                return Err(RuleError::illegal(
                    "the Event is not among your options now",
                    "2.3.4",
                ));
            }
            let card =
                current(d, st).ok_or_else(|| RuleError::illegal("no card in play", "2.2"))?;
            let (mut ev, halt) = effects::execute(d, st, f, card, *shaded, spaces)?;
            if let Some(head) = ev.first_mut() {
                // The map around the action centres on the spaces the Event names.
                head.focus = spaces
                    .iter()
                    .map(|s| Place::Space(SpaceId(u16::from(s.0))))
                    .collect();
            }
            events.extend(ev);
            match halt {
                // 5.1, D3: the rest of the Event (and its free Operation)
                // waits for the chooser.
                Some(h) => {
                    if let Stage::Card(t) = &mut st.stage {
                        t.choice = Some(Choice {
                            chooser: h.chooser,
                            executor: f,
                            card: card.number,
                            shaded: *shaded,
                            step: h.step,
                            spaces: h.spaces,
                            free: free.clone(),
                        });
                    }
                }
                None => {
                    if let Some(a) = free {
                        events.extend(effects::free_op(d, st, f, card, *shaded, a, dice)?);
                    }
                }
            }
            Some(Took::Event)
        }
        Order::Act(a) => Some(operation(d, st, f, a, dice, &mut events)?),
        _ => {
            return Err(RuleError::illegal(
                "on an Event card: pass, event, or an Operation",
                "2.3.4",
            ));
        }
    };
    if let Stage::Card(t) = &mut st.stage {
        match took {
            None => t.passed.push(f),
            Some(k) if t.first.is_none() => t.first = Some((f, k)),
            Some(k) => t.second = Some((f, k)),
        }
    }
    if decider(d, st).is_none() {
        end_card(d, st, dice, &mut events)?;
    }
    Ok(events)
}

/// The grantee's answer to a free Operation granted by another's Event
/// (5.5, digest D4): the Operation, or `pass` to decline it.
fn granted(
    d: &Data,
    st: &mut State,
    f: Faction,
    g: &Grant,
    order: &Order,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let card = d
        .card(g.card)
        .ok_or_else(|| RuleError::illegal("no such card", "2.2"))?;
    let mut events = match order {
        Order::Pass => vec![Event::say(format!(
            "The {} decline the free Operation of {} (5.5)",
            f.name(),
            card.label()
        ))],
        Order::Act(a) => effects::grant_op(d, st, f, card, g.shaded, a, dice)?,
        _ => {
            return Err(RuleError::illegal(
                format!(
                    "{} grants you a free Operation: write it, or `pass` to decline",
                    card.label()
                ),
                "5.5",
            ));
        }
    };
    if let Stage::Card(t) = &mut st.stage {
        t.grant = None;
    }
    if decider(d, st).is_none() {
        end_card(d, st, dice, &mut events)?;
    }
    Ok(events)
}

/// The chooser's answer to an Event's question (5.1, digest D3): its
/// spaces (or `pass`: the stated default), then the rest of the Event and
/// the executor's free Operation.
fn chosen(
    d: &Data,
    st: &mut State,
    c: Choice,
    order: &Order,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let card = d
        .card(c.card)
        .ok_or_else(|| RuleError::illegal("no such card", "2.2"))?;
    let picked = match order {
        Order::Choose(v) => Some(v.as_slice()),
        Order::Pass => None,
        _ => {
            return Err(RuleError::illegal(
                format!(
                    "{} names you to choose: `choose SPACE...`, or `pass` for the default",
                    card.label()
                ),
                "5.1",
            ));
        }
    };
    let (mut events, halt) = effects::resume(d, st, picked, &c, card)?;
    if let Stage::Card(t) = &mut st.stage {
        // A later step may name a chooser again (digest D3).
        t.choice = halt.map(|h| Choice {
            chooser: h.chooser,
            step: h.step,
            spaces: h.spaces,
            ..c.clone()
        });
        if t.choice.is_some() {
            return Ok(events);
        }
    }
    if let Some(a) = &c.free {
        free_after_choice(d, st, &c, card, a, dice, &mut events)?;
    }
    if decider(d, st).is_none() {
        end_card(d, st, dice, &mut events)?;
    }
    Ok(events)
}

/// The executor's free Operation (5.5) after an Event that stopped for a
/// choice: carried out if it still can be, on the board the choice left
/// (5.1: as much as can be done), else dropped and said so. It was checked
/// only as written when the executor sent it.
fn free_after_choice(
    d: &Data,
    st: &mut State,
    c: &Choice,
    card: &Card,
    a: &Action,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let mut copy = st.clone();
    match effects::free_op(d, &mut copy, c.executor, card, c.shaded, a, dice) {
        Ok(ev) => {
            *st = copy;
            events.extend(ev);
        }
        Err(RuleError::Dice(e)) => return Err(RuleError::Dice(e)),
        Err(e) => events.push(Event::say(format!(
            "the free Operation of the {} cannot be carried out after the choice: {e} (5.1)",
            c.executor.name()
        ))),
    }
    Ok(())
}

/// Passing (2.3.3): an Insurgent gains 1 Resource; a COIN faction gives the
/// Government 3.
pub fn pass(d: &Data, st: &mut State, f: Faction, events: &mut Vec<Event>) {
    let (who, n) = if f.is_coin() {
        (Faction::Government, 3)
    } else {
        (f, 1)
    };
    st.gain(d, who, n);
    events.push(Event::say(format!(
        "{} passes: +{n} {} Resources (2.3.3)",
        f.name(),
        who.name()
    )));
}

fn operation(
    d: &Data,
    st: &mut State,
    f: Faction,
    a: &Action,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<Took, RuleError> {
    let offered = offers(d, st);
    let full = offered.contains(&Offer::Op);
    if !full && !offered.contains(&Offer::LimOp) {
        return Err(RuleError::illegal(
            "an Operation is not among your options now",
            "2.3.4",
        ));
    }
    let has_sa = a.steps.iter().any(|(_, s)| matches!(s, ActStep::Sa(_)));
    let mut a = a.clone();
    // Offered a Limited Operation only: the Operation is Limited (2.3.4).
    a.limited = a.limited || !full;
    let terms = Terms {
        free: false,
        final_card: final_event_card(d, st) && !np_deciding(d, st),
        sa_allowed: offered.contains(&Offer::OpSa),
    };
    events.extend(action::execute(d, st, f, &a, terms, dice)?);
    Ok(if a.limited {
        Took::LimOp
    } else if has_sa {
        Took::OpSa
    } else {
        Took::Op
    })
}

/// Adjusts Eligibility (2.3.6) and moves on to the next card (2.3.7).
pub fn end_card(
    d: &Data,
    st: &mut State,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if let Stage::Card(t) = &st.stage {
        let executed: Vec<Faction> = [t.first, t.second].iter().flatten().map(|x| x.0).collect();
        for f in Faction::ALL {
            st.eligible[f.index()] = !executed.contains(&f);
        }
    }
    for f in Faction::ALL {
        if let Some(e) = st.next_eligibility[f.index()].take() {
            st.eligible[f.index()] = e;
        }
    }
    next_card(d, st, dice, events)
}

/// Plays the next card and reveals the new top card (2.3.7), then resolves
/// what it is: an Event card to ask about, or a Propaganda card (6.0).
pub fn next_card(
    d: &Data,
    st: &mut State,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if let Some(c) = st.deck.current.take() {
        st.deck.played.push(c);
        st.deck.last_was_propaganda = d.card(c).is_some_and(Card::is_propaganda);
    }
    st.deck.current = st.deck.next.take();
    reveal(d, st, dice, events)?;
    resolve(d, st, dice, events)
}

/// Reveals the new top card (2.3.7); with Sudden Propaganda, a Propaganda
/// card revealed swaps places with the Event card showing, which then opens
/// the next Campaign.
fn reveal(
    d: &Data,
    st: &mut State,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    st.deck.next = st.deck.draw(dice)?;
    let prop = |n: Option<CardNo>| n.and_then(|n| d.card(n)).is_some_and(Card::is_propaganda);
    if st.options.sudden_propaganda
        && prop(st.deck.next)
        && st.deck.current.is_some()
        && !prop(st.deck.current)
    {
        std::mem::swap(&mut st.deck.current, &mut st.deck.next);
        events.push(Event::say(
            "Sudden Propaganda: the revealed Propaganda card is played at once (2.3.7)",
        ));
    }
    Ok(())
}

fn resolve(
    d: &Data,
    st: &mut State,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    loop {
        let Some(card) = current(d, st) else {
            end_game(d, st, "the deck is spent", events);
            return Ok(());
        };
        let shown = st
            .deck
            .next
            .and_then(|n| d.card(n))
            .map_or("none".to_string(), Card::label);
        if !card.is_propaganda() {
            let order: String = card
                .order
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", ");
            events.push(Event::say(format!(
                "Card {} ({}); next: {shown}{}",
                card.label(),
                order,
                if final_event_card(d, st) {
                    " — this is the Final Event Card (2.3.8)"
                } else {
                    ""
                }
            )));
            st.stage = Stage::Card(CardTurn::default());
            if decider(d, st).is_none() {
                // Nobody Eligible: the card ends at once.
                return end_card(d, st, dice, events);
            }
            return Ok(());
        }
        if st.deck.last_was_propaganda {
            // 6.0: never two Propaganda Rounds in a row.
            if st.deck.current_is_final_propaganda(d) {
                end_game(
                    d,
                    st,
                    "the final Propaganda card follows another (6.0)",
                    events,
                );
                return Ok(());
            }
            events.push(Event::say(format!(
                "Card {}: played without a Round, after another Propaganda card (6.0); next: {shown}",
                card.label()
            )));
            let c = st.deck.current.take();
            st.deck.played.extend(c);
            st.deck.current = st.deck.next.take();
            reveal(d, st, dice, events)?;
            continue;
        }
        events.push(Event::say(format!(
            "Card {}: a Propaganda Round (6.0); next: {shown}",
            card.label()
        )));
        return propaganda::begin(d, st, dice, events);
    }
}

/// Ends the game by margins (7.3).
pub fn end_game(d: &Data, st: &mut State, why: &str, events: &mut Vec<Event>) {
    let names = |s: Side| names_of(st, s);
    let o = victory::outcome(d, st, why, &names);
    events.push(Event::say(o.summary.clone()));
    st.finished = Some(o);
    st.stage = Stage::Over;
}

/// A side's name: its factions joined with `+`.
pub fn names_of(st: &State, s: Side) -> String {
    st.seats
        .factions_of(s)
        .iter()
        .map(|f| f.name())
        .collect::<Vec<_>>()
        .join("+")
}
