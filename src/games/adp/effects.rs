//! Carrying out a card's Event (5.0-5.4): the effect steps of the card data,
//! with the executing faction's chosen spaces. Events never place unavailable
//! pieces, break stacking or put non-Taliban pieces in Pakistan (5.1.1), and
//! never raise Resources, Aid or Patronage past their caps (1.8).

use super::action::{self, Terms};
use super::cards::{Card, Filter, Step, Who};
use super::data::{Data, SpaceId};
use super::orders::Action;
use super::pieces::{Faction, Piece};
use super::state::{Lasting, State};
use crate::core::dice::Dice;
use crate::core::ruleset::{Event, RuleError};

/// Does `s` pass the step's filter?
pub fn fits(d: &Data, s: SpaceId, f: Filter) -> bool {
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

/// Carries out one side of `card` for `f`, with `spaces` for its space steps.
pub fn execute(
    d: &Data,
    st: &mut State,
    f: Faction,
    card: &Card,
    shaded: bool,
    spaces: &[SpaceId],
) -> Result<Vec<Event>, RuleError> {
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
    let mut next = spaces.iter().copied();
    for step in steps {
        let mine: Vec<SpaceId> = match step.chosen_by() {
            // 5.1: the text names who chooses (digest D3).
            Some((g, n)) => super::conditional::chosen(d, st, g, card.number, step, n),
            None => next.by_ref().take(usize::from(step.spaces())).collect(),
        };
        if let Some(filter) = step.filter()
            && let Some(bad) = mine.iter().find(|s| !fits(d, **s, filter))
        {
            return Err(RuleError::illegal(
                format!(
                    "{} does not qualify for this step ({filter:?})",
                    d[*bad].name
                ),
                "5.1",
            ));
        }
        events.extend(one(d, st, f, card, shaded, step, &mine)?);
        st.update_control(d);
    }
    Ok(events)
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
    spaces: &[SpaceId],
) -> Result<Vec<Event>, RuleError> {
    let mut ev = Vec::new();
    match step {
        Step::Resources { who: w, amount } => {
            let g = who(*w, f);
            if g == Faction::Coalition {
                // The Coalition has no Resources of its own (3.1): Government's.
                st.gain(d, Faction::Government, i32::from(*amount));
            } else {
                st.gain(d, g, i32::from(*amount));
            }
            ev.push(Event::say(format!("{} Resources {amount:+}", g.name())));
        }
        Step::Aid { amount } => {
            st.add_aid(d, i32::from(*amount));
            ev.push(Event::say(format!("Aid {amount:+}")));
        }
        Step::Patronage { amount } => {
            st.add_patronage(d, i32::from(*amount));
            ev.push(Event::say(format!("Patronage {amount:+}")));
        }
        Step::Islamabad { shift } => {
            st.shift_islamabad(i32::from(*shift));
            ev.push(Event::say(format!("Islamabad shifts {shift:+} (6.6.1)")));
        }
        Step::Place {
            faction,
            kind,
            count,
            ..
        } => {
            let Some(p) = Piece::of(*faction, *kind) else {
                return Ok(ev);
            };
            for s in spaces {
                if d[*s].is_pakistan() && *faction != Faction::Taliban {
                    return Err(RuleError::illegal(
                        format!("only Taliban pieces go into {} (Pakistan)", d[*s].name),
                        "5.1.1",
                    ));
                }
                let mut n = *count;
                if p.kind() == super::pieces::Kind::Base {
                    if d[*s].is_loc() {
                        return Err(RuleError::illegal("no Bases on LoCs", "1.4.2"));
                    }
                    let room =
                        u32::from(d.limits.bases_per_space).saturating_sub(st[*s].pieces.bases());
                    n = n.min(room as u8);
                }
                let k = st.place(*s, p, n);
                ev.push(Event::say(format!(
                    "{}: {k} {} placed",
                    d[*s].name,
                    p.label()
                )));
            }
        }
        Step::Remove {
            faction,
            kind,
            count,
            ..
        } => {
            for s in spaces {
                let mut left = *count;
                let mut pieces: Vec<Piece> = Piece::ALL
                    .into_iter()
                    .filter(|p| p.faction() == *faction && p.kind() == *kind)
                    .collect();
                // Underground before Active (enemy Guerrillas, and a
                // player's); a Non-player removes its own Active ones first
                // (8.1 GUIDELINES).
                if *faction == f && st.seats.is_np(f) {
                    pieces.reverse();
                }
                for p in pieces {
                    // A32: Coalition pieces removed by an Event go to Casualties.
                    left -= st.remove(*s, p, left, true);
                }
                ev.push(Event::say(format!(
                    "{}: {} {} {} removed",
                    d[*s].name,
                    count - left,
                    faction.name(),
                    kind.key()
                )));
            }
        }
        Step::Shift { up, levels, .. } => {
            for s in spaces {
                if d[*s].is_afghan() && st.pop(d, *s) > 0 {
                    for _ in 0..*levels {
                        st[*s].support = st[*s].support.shifted(*up);
                    }
                }
                ev.push(Event::say(format!(
                    "{}: now {:?}",
                    d[*s].name, st[*s].support
                )));
            }
        }
        Step::Eligible { who: w } => {
            st.next_eligibility[who(*w, f).index()] = Some(true);
        }
        Step::Ineligible { who: w } => {
            st.next_eligibility[who(*w, f).index()] = Some(false);
        }
        Step::FreeOp(_) => {}
        Step::Grant { to, ops } => {
            // 5.5: the grantee decides next (digest D4).
            if let super::state::Stage::Card(t) = &mut st.stage {
                t.grant = Some(super::sequence::Grant {
                    faction: *to,
                    card: card.number,
                    shaded,
                });
            }
            let names: Vec<&str> = ops.iter().map(|o| o.key()).collect();
            ev.push(Event::say(format!(
                "{} grants the {} a free {} (5.5)",
                card.label(),
                to.name(),
                names.join(" or ")
            )));
        }
        Step::Capability(m) => {
            st.capabilities.retain(|l| l.card != card.number);
            st.capabilities.push(Lasting {
                card: card.number,
                shaded,
                modifier: m.clone(),
            });
            ev.push(Event::say(format!(
                "Capability {} in play, {} (5.3)",
                card.label(),
                side(shaded)
            )));
        }
        Step::Momentum(m) => {
            st.momentum.push(Lasting {
                card: card.number,
                shaded,
                modifier: m.clone(),
            });
            ev.push(Event::say(format!(
                "Momentum {} in play until the next Reset (5.4)",
                card.label()
            )));
        }
    }
    Ok(ev)
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
