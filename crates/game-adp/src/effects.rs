//! Carrying out a card's Event (5.0-5.4): the effect steps of the card data,
//! with the executing faction's chosen spaces. Events never place unavailable
//! pieces, break stacking or put non-Taliban pieces in Pakistan (5.1.1), and
//! never raise Resources, Aid or Patronage past their caps (1.8).

use super::action::{self, Terms};
use super::card_text;
use super::cards::{Card, Filter, Modifier, Step, Who};
use super::data::{CardNo, Data, SpaceNo};
use super::event_check;
use super::orders::{Action, Op};
use super::pieces::{Faction, Kind, Piece};
use super::state::{Lasting, State};
use umpire_core::dice::Dice;
use umpire_core::ruleset::{Event, RuleError};

/// Does `s` pass the step's filter?
pub fn fits(d: &Data, s: SpaceNo, f: Filter) -> bool {
    let sp = &d[s];
    match f {
        Filter::Any => true,
        Filter::Afghan => sp.is_afghan(),
        Filter::Province => !sp.is_loc() && !sp.is_city(),
        Filter::Pashtun => sp.pashtun,
        Filter::NonPashtun => !sp.pashtun && !sp.is_loc(),
        Filter::Pakistan => sp.is_pakistan(),
        Filter::Kabul => sp.is_city(),
        Filter::Loc => sp.is_loc(),
    }
}

fn who(w: Who, executor: Faction) -> Faction {
    match w {
        Who::Executor => executor,
        Who::Faction(f) => f,
    }
}

/// Where an Event halts for another player's choice (5.1, digest D3).
pub struct Halt {
    /// The faction named to choose.
    pub chooser: Faction,
    /// The step waiting for it.
    pub step: usize,
    /// The executor's spaces for the steps after it.
    pub spaces: Vec<SpaceNo>,
}

/// The chooser's answer: its spaces, or `None` for the stated default.
type Answer<'a> = Option<&'a [SpaceNo]>;

/// Carries out one side of `card` for `f`, with `spaces` for its space steps,
/// up to a step whose text names another player's faction to choose (5.1,
/// digest D3), if any: the rest waits for it ([`resume`]).
pub fn execute(
    d: &Data,
    st: &mut State,
    f: Faction,
    card: &Card,
    shaded: bool,
    spaces: &[SpaceNo],
) -> Result<(Vec<Event>, Option<Halt>), RuleError> {
    let steps = card.side(shaded);
    let wanted: usize = steps.iter().map(|s| usize::from(s.spaces())).sum();
    if spaces.len() > wanted {
        return Err(RuleError::illegal(
            format!(
                "{} ({}) names {wanted} space(s), not {}",
                card.label(),
                side(shaded),
                spaces.len()
            ),
            "5.1",
        ));
    }
    let mut events = vec![Event::say(format!(
        "{} executes {} ({})",
        f.name(),
        card.label(),
        side(shaded)
    ))];
    let (ev, halt) = run(d, st, (f, card, shaded), 0, spaces, None)?;
    events.extend(ev);
    Ok((events, halt))
}

/// Goes on with an Event halted for `c.chooser`'s choice, with its answer.
pub fn resume(
    d: &Data,
    st: &mut State,
    answer: Answer,
    c: &super::sequence::Choice,
    card: &Card,
) -> Result<(Vec<Event>, Option<Halt>), RuleError> {
    run(
        d,
        st,
        (c.executor, card, c.shaded),
        c.step,
        &c.spaces,
        Some(answer),
    )
}

/// The steps of the Event from `from` on; `answer` is the chooser's for the
/// step at `from`, when resuming.
fn run(
    d: &Data,
    st: &mut State,
    (f, card, shaded): (Faction, &Card, bool),
    from: usize,
    spaces: &[SpaceNo],
    mut answer: Option<Answer>,
) -> Result<(Vec<Event>, Option<Halt>), RuleError> {
    let mut events = Vec::new();
    let mut next = spaces.iter().copied();
    // 5.1 (version 11): the executor's targets are judged in its own move
    // only; after a halt the chooser's answer goes on with them as named,
    // so that no answer of another player is refused for them.
    let judged = d.version >= event_check::SINCE && answer.is_none();
    for (i, step) in card.side(shaded).iter().enumerate().skip(from) {
        let mine: Vec<SpaceNo> = match step.chosen_by() {
            // 5.1: the text names who chooses (digest D3).
            Some((g, n)) => match answer.take() {
                Some(Some(v)) => checked(d, st, g, step, n, v)?,
                Some(None) => super::conditional::chosen(d, st, g, card.number, step, n),
                None if asks(d, st, f, g, card.number, step, n) => {
                    events.push(Event::say(format!(
                        "{}: the {} choose {} before the Event goes on (5.1)",
                        card.label(),
                        g.name(),
                        card_text::plural(u32::from(n), "space", "spaces")
                    )));
                    let spaces = next.collect();
                    return Ok((
                        events,
                        Some(Halt {
                            chooser: g,
                            step: i,
                            spaces,
                        }),
                    ));
                }
                None => super::conditional::chosen(d, st, g, card.number, step, n),
            },
            None => next.by_ref().take(usize::from(step.spaces())).collect(),
        };
        if let Some(filter) = step.filter()
            && let Some(bad) = mine.iter().find(|s| !fits(d, **s, filter))
        {
            return Err(RuleError::illegal(
                format!(
                    "`{}` does not qualify for this step ({filter:?})",
                    d[*bad].key
                ),
                "5.1",
            ));
        }
        if judged && step.chosen_by().is_none() && step.filter().is_some() {
            // 5.1: each named space must do something where another would
            // (version 11); carried out one by one, so a space is judged as
            // the step finds it.
            let mut done = Vec::new();
            for s in &mine {
                event_check::target(d, st, (card, shaded), step, *s, &done)?;
                events.extend(one(d, st, f, card, shaded, step, &[*s])?);
                done.push(*s);
            }
            event_check::count(d, st, (card, shaded), step, &done)?;
        } else {
            events.extend(one(d, st, f, card, shaded, step, &mine)?);
        }
        st.update_control(d);
    }
    Ok((events, None))
}

/// Is `g` asked mid-Event for the spaces of `step` (digest D3)? Only a
/// player of another side than the executor's, with no standing `choose`
/// order for the card, and a real choice: more qualifying spaces than it
/// picks. Else its standing order or the stated default decides, as
/// always before version 8.
fn asks(d: &Data, st: &State, f: Faction, g: Faction, card: CardNo, step: &Step, n: u8) -> bool {
    let Some(side) = st.seats.side(g).filter(|_| d.version >= 8) else {
        return false;
    };
    let standing = st
        .cards
        .iter()
        .any(|b| b.card == card && b.faction == g && b.when == super::conditional::When::Choose);
    !st.seats.is_np(g)
        && st.seats.side(f) != Some(side)
        && !standing
        && super::conditional::candidates(d, st, step).len() > usize::from(n)
}

/// The chooser's spaces for `step`: each qualifies once, and as many as it
/// picks (`n`, or every qualifying space if fewer: 5.1).
fn checked(
    d: &Data,
    st: &State,
    g: Faction,
    step: &Step,
    n: u8,
    v: &[SpaceNo],
) -> Result<Vec<SpaceNo>, RuleError> {
    let ok = super::conditional::candidates(d, st, step);
    if let Some(bad) = v
        .iter()
        .enumerate()
        .find(|(i, s)| !ok.contains(s) || v[..*i].contains(s))
    {
        return Err(RuleError::illegal(
            format!(
                "`{}` does not qualify (once) for the spaces the {} choose",
                d[*bad.1].key,
                g.name()
            ),
            "5.1",
        ));
    }
    let want = ok.len().min(usize::from(n));
    if v.len() != want {
        return Err(RuleError::illegal(
            format!("the {} choose {want} space(s), not {}", g.name(), v.len()),
            "5.1",
        ));
    }
    Ok(v.to_vec())
}

fn side(shaded: bool) -> &'static str {
    if shaded { "shaded" } else { "unshaded" }
}

fn one(
    d: &Data,
    st: &mut State,
    f: Faction,
    card: &Card,
    shaded: bool,
    step: &Step,
    spaces: &[SpaceNo],
) -> Result<Vec<Event>, RuleError> {
    let mut ev = Vec::new();
    match step {
        Step::Resources { who: w, amount } => ev.push(resources(d, st, who(*w, f), *amount)),
        Step::Aid { amount } => {
            let was = st.aid;
            st.add_aid(d, i32::from(*amount));
            ev.push(Event::say(track("Aid", *amount, was, st.aid)));
        }
        Step::Patronage { amount } => {
            let was = st.patronage;
            st.add_patronage(d, i32::from(*amount));
            ev.push(Event::say(track("Patronage", *amount, was, st.patronage)));
        }
        Step::Islamabad { shift } => {
            let hard = st.hard;
            st.shift_islamabad(i32::from(*shift));
            ev.push(Event::say(format!(
                "Islamabad shifts {shift:+}, now {}{} (6.6.1)",
                d.islamabad
                    .get(usize::from(st.islamabad))
                    .map_or("?", String::as_str),
                if st.hard && !hard { ", Hard" } else { "" }
            )));
        }
        Step::Place {
            faction,
            kind,
            count,
            ..
        } => place(d, st, *faction, *kind, *count, spaces, &mut ev)?,
        Step::Remove {
            faction,
            kind,
            count,
            ..
        } => remove(d, st, f, *faction, *kind, *count, spaces, &mut ev),
        Step::Shift { up, levels, .. } => ev.extend(shift(d, st, spaces, *up, *levels)),
        Step::Eligible { who: w } => {
            st.next_eligibility[who(*w, f).index()] = Some(true);
        }
        Step::Ineligible { who: w } => {
            st.next_eligibility[who(*w, f).index()] = Some(false);
        }
        Step::FreeOp(_) => {}
        Step::Grant { to, ops } => ev.push(grant(st, card, shaded, *to, ops)),
        Step::Capability(m) => ev.push(capability(st, card, shaded, m)),
        Step::Momentum(m) => ev.push(momentum(st, card, shaded, m)),
    }
    Ok(ev)
}

/// Faction `g` gains or loses `amount` Resources; the Coalition has none of
/// its own (3.1): Government's.
fn resources(d: &Data, st: &mut State, g: Faction, amount: i16) -> Event {
    // The Coalition has no Resources of its own (3.1): Government's.
    let payee = if g == Faction::Coalition {
        Faction::Government
    } else {
        g
    };
    let was = st.res(payee);
    st.gain(d, payee, i32::from(amount));
    let what = if payee == g {
        format!("{} Resources", g.name())
    } else {
        format!("{} Resources (the Government's, 3.1)", g.name())
    };
    Event::say(track(&what, amount, was, st.res(payee)))
}

/// "Aid +6, now 21", with the cap or floor when it stopped the change
/// (1.8).
fn track(what: &str, amount: i16, was: u8, now: u8) -> String {
    let moved = i16::from(now) - i16::from(was);
    if moved == amount {
        format!("{what} {amount:+}, now {now}")
    } else {
        format!("{what} {amount:+}: {moved:+} to {now}, its limit (1.8)")
    }
}

/// Shifts each populated Afghan space of `spaces` `levels` levels toward
/// Support (`up`) or Opposition (1.6).
fn shift(d: &Data, st: &mut State, spaces: &[SpaceNo], up: bool, levels: u8) -> Vec<Event> {
    let mut ev = Vec::new();
    for s in spaces {
        if d[*s].is_afghan() && st.pop(d, *s) > 0 {
            for _ in 0..levels {
                st[*s].support = st[*s].support.shifted(up);
            }
        }
        ev.push(Event::say(format!(
            "{}: now {:?}",
            d[*s].name, st[*s].support
        )));
    }
    ev
}

/// A Capability put in play (5.3), replacing the card's other side.
fn capability(st: &mut State, card: &Card, shaded: bool, m: &Modifier) -> Event {
    st.capabilities.retain(|l| l.card != card.number);
    st.capabilities.push(Lasting {
        card: card.number,
        shaded,
        modifier: m.clone(),
    });
    Event::say(format!(
        "Capability {} in play, {} (5.3)",
        card.label(),
        side(shaded)
    ))
}

/// A Momentum card put in play until the next Reset (5.4).
fn momentum(st: &mut State, card: &Card, shaded: bool, m: &Modifier) -> Event {
    st.momentum.push(Lasting {
        card: card.number,
        shaded,
        modifier: m.clone(),
    });
    Event::say(format!(
        "Momentum {} in play until the next Reset (5.4)",
        card.label()
    ))
}

/// 5.5: a free Operation granted to another faction, who decides next
/// (digest D4).
fn grant(st: &mut State, card: &Card, shaded: bool, to: Faction, ops: &[Op]) -> Event {
    if let super::state::Stage::Card(t) = &mut st.stage {
        t.grant = Some(super::sequence::Grant {
            faction: to,
            card: card.number,
            shaded,
        });
    }
    let names: Vec<&str> = ops.iter().map(|o| o.key()).collect();
    Event::say(format!(
        "{} grants the {} a free {} (5.5)",
        card.label(),
        to.name(),
        names.join(" or ")
    ))
}

/// Places an Event's pieces in the named spaces, Bases as room allows
/// (1.4.2, 5.1.1).
fn place(
    d: &Data,
    st: &mut State,
    faction: Faction,
    kind: Kind,
    count: u8,
    spaces: &[SpaceNo],
    ev: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let Some(p) = Piece::of(faction, kind) else {
        return Ok(());
    };
    for s in spaces {
        if d[*s].is_pakistan() && faction != Faction::Taliban {
            return Err(RuleError::illegal(
                format!("only Taliban pieces go into {} (Pakistan)", d[*s].name),
                "5.1.1",
            ));
        }
        let mut n = count;
        if p.kind() == Kind::Base {
            if d[*s].is_loc() {
                return Err(RuleError::illegal("no Bases on LoCs", "1.4.2"));
            }
            let room = u32::from(d.limits.bases_per_space).saturating_sub(st[*s].pieces.bases());
            n = n.min(room as u8);
        }
        let k = st.place(*s, p, n);
        // Short of what the text calls for: told, with why (5.1.1).
        let short = if k == count {
            String::new()
        } else if n < count {
            format!(
                " of {count}: room for {} only (1.4.2)",
                card_text::plural(u32::from(n), "Base", "Bases")
            )
        } else {
            format!(" of {count}: no more Available (5.1.1)")
        };
        ev.push(Event::say(format!(
            "{}: {} placed from Available{short}",
            d[*s].name,
            card_text::pieces(faction, kind, k)
        )));
    }
    Ok(())
}

/// Removes an Event's pieces from the named spaces, Underground before
/// Active (8.1 GUIDELINES for a Non-player's own), Coalition pieces to
/// Casualties (ruling A32).
#[allow(clippy::too_many_arguments)]
fn remove(
    d: &Data,
    st: &mut State,
    f: Faction,
    faction: Faction,
    kind: Kind,
    count: u8,
    spaces: &[SpaceNo],
    ev: &mut Vec<Event>,
) {
    for s in spaces {
        let mut left = count;
        let mut pieces: Vec<Piece> = Piece::ALL
            .into_iter()
            .filter(|p| p.faction() == faction && p.kind() == kind)
            .collect();
        // Underground before Active (enemy Guerrillas, and a
        // player's); a Non-player removes its own Active ones first
        // (8.1 GUIDELINES).
        if faction == f && st.seats.is_np(f) {
            pieces.reverse();
        }
        for p in pieces {
            // A32: Coalition pieces removed by an Event go to Casualties.
            left -= st.remove(*s, p, left, true);
        }
        let gone = count - left;
        ev.push(Event::say(format!(
            "{}: {} removed {}{}",
            d[*s].name,
            card_text::pieces(faction, kind, gone),
            card_text::to_where(faction),
            match gone {
                0 if count > 0 => " (none there)",
                g if g < count => " (no more there)",
                _ => "",
            }
        )));
    }
}

/// The free Operation an Event grants its executor (3.1.2, 5.5): costs
/// nothing, no Special Activity, and only of the executor's own Operations
/// (5.1.1).
pub fn free_op(
    d: &Data,
    st: &mut State,
    f: Faction,
    card: &Card,
    shaded: bool,
    a: &Action,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let granted = card
        .side(shaded)
        .iter()
        .any(|s| matches!(s, Step::FreeOp(ops) if ops.contains(&a.op)));
    if !granted {
        return Err(RuleError::illegal(
            format!(
                "{} ({}) grants no free {}",
                card.label(),
                side(shaded),
                a.op.key()
            ),
            "5.5",
        ));
    }
    execute_free(d, st, f, a, dice)
}

/// A free Operation granted by an Event (5.5): it costs nothing and takes
/// no Special Activity.
fn execute_free(
    d: &Data,
    st: &mut State,
    f: Faction,
    a: &Action,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let terms = Terms {
        free: true,
        final_card: false,
        sa_allowed: false,
    };
    action::execute(d, st, f, a, terms, dice)
}

/// The free Operation an Event grants another faction (5.5, digest D4),
/// carried out by the grantee `f`: free, no Special Activity, of the
/// Operations the step names.
pub fn grant_op(
    d: &Data,
    st: &mut State,
    f: Faction,
    card: &Card,
    shaded: bool,
    a: &Action,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let ok = card
        .side(shaded)
        .iter()
        .any(|s| matches!(s, Step::Grant { to, ops } if *to == f && ops.contains(&a.op)));
    if !ok {
        return Err(RuleError::illegal(
            format!(
                "{} ({}) grants the {} no free {}",
                card.label(),
                side(shaded),
                f.name(),
                a.op.key()
            ),
            "5.5",
        ));
    }
    execute_free(d, st, f, a, dice)
}
