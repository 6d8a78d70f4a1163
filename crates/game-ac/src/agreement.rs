//! Player agreements that both sides sign (23.0): one player proposes terms
//! in his move (`propose give 5, want cede NP to neutral`), the other accepts
//! or declines in a later move of his own (`accept 1`, `decline 1`). Terms are
//! carried out only on acceptance, each as the one-sided `give` and `cede`
//! orders of the economy (23.1), and checked then: a term of the accepting
//! player's own that he cannot meet refuses the acceptance and the offer
//! stands; from version 9, a term the proposer can no longer meet does not
//! refuse it (a refusal costs nothing, so it would tell the accepting player
//! what the proposer's treasury holds, 9.0): the acceptance stands and the
//! agreement fails, in the record, with no figure named, and lapses. Before
//! version 9 any term refused it. Either player may decline
//! (the proposer so withdraws it). Offers and their fate are public; what a
//! treasury holds stays secret (9.0) except as the pounds given show it.
//! Ruling: agreements are written in a player's own operations phase, so
//! that they never cross the sealed economy round (3.1[3]).
//!
//! Terms (23.1, 16.42(1)): pounds, cessions, and the return of a prisoner on
//! an agreed square ("the capturing player may request whatever terms he
//! desires, as long as they are within the limits of the player agreements
//! rule"); the prisoner goes back at the start of the next turn, as 16.42(1)
//! says, and may not be executed meanwhile. Lapsing (ruling A69, the rulebook
//! is silent): an offer not answered by the end of the turn it was made in
//! lapses then, so no old offer can be accepted turns later on changed terms
//! of the world.

use super::data::{Data, Power, RegionId};
use super::economy::{self, EconOrder};
use super::state::State;
use super::turn::Ctx;
use serde::{Deserialize, Serialize};
use umpire_core::ruleset::RuleError;

/// One term: who carries it out and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    /// The player who gives the pounds or cedes the region.
    pub by: Power,
    /// `Give` or `Cede` (23.1(1)-(2)).
    pub what: EconOrder,
}

/// An offer awaiting the other player's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    /// Its number, for `accept N`.
    pub id: u32,
    /// Who proposed it.
    pub from: Power,
    /// The terms, for both players.
    pub terms: Vec<Term>,
}

/// What a player writes about an agreement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deal {
    /// Proposes terms; `true` marks a term the other player carries out.
    Propose(Vec<(bool, EconOrder)>),
    /// Accepts an offer of the other player.
    Accept(u32),
    /// Declines (or, for its proposer, withdraws) an offer.
    Decline(u32),
}

fn illegal(m: impl Into<String>, rule: &str) -> RuleError {
    RuleError::illegal(m, rule)
}

/// One term in words.
pub fn show(d: &Data, t: &Term) -> String {
    match &t.what {
        EconOrder::Give(n) => format!("the {} give {n} pounds", t.by.people()),
        EconOrder::Cede(r, to) => format!(
            "the {} cede {} to {}",
            t.by.people(),
            d.reg(*r).name,
            to.map_or("neutral".to_string(), |p| format!("the {}", p.people()))
        ),
        EconOrder::Return(a, s) => format!(
            "the {} return their prisoner {} on {s} at the start of the next turn",
            t.by.people(),
            d.agents[*a].name
        ),
        other => format!("{other:?}"),
    }
}

fn terms(d: &Data, o: &Offer) -> String {
    o.terms
        .iter()
        .map(|t| show(d, t))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Whether `by` holds `r` to cede it (23.1(2)), for the check at proposal.
fn holds(st: &State, by: Power, r: RegionId) -> bool {
    st.control[r] == Some(by)
}

/// Carries out an agreement order of `p`.
pub fn apply(ctx: &mut Ctx, st: &mut State, p: Power, deal: &Deal) -> Result<(), RuleError> {
    match deal {
        Deal::Propose(ts) => propose(ctx, st, p, ts),
        Deal::Decline(n) => decline(ctx, st, p, *n),
        Deal::Accept(n) => accept_order(ctx, st, p, *n),
    }
}

/// `p` proposes an agreement of the terms `ts` (23.0), each a term of his
/// (`false`) or of the other player's (`true`); checked for what can be
/// known at proposal (23.1(2), 16.42(1)).
fn propose(
    ctx: &mut Ctx,
    st: &mut State,
    p: Power,
    ts: &[(bool, EconOrder)],
) -> Result<(), RuleError> {
    let d = ctx.d;
    if ts.is_empty() {
        return Err(illegal("an agreement has at least one term", "23.1"));
    }
    let mut out = Vec::new();
    for (theirs, what) in ts {
        let by = if *theirs { p.other() } else { p };
        if let EconOrder::Cede(r, to) = what
            && (!holds(st, by, *r) || *to == Some(by))
        {
            return Err(illegal(
                format!(
                    "the {} do not control {} to cede it",
                    by.people(),
                    d.reg(*r).name
                ),
                "23.1(2)",
            ));
        }
        // 16.42(1): prisoners are the captor's to return.
        if let EconOrder::Return(a, _) = what
            && st.agent(*a).loc != super::state::Loc::Prisoner(by)
        {
            return Err(illegal(
                format!("the {} hold no prisoner {}", by.people(), d.agents[*a].name),
                "16.42(1)",
            ));
        }
        out.push(Term {
            by,
            what: what.clone(),
        });
    }
    st.next_offer += 1;
    let o = Offer {
        id: st.next_offer,
        from: p,
        terms: out,
    };
    ctx.say(
        format!(
            "The {} propose agreement {}: {}. The {} may `accept {}` or `decline {}` (23.0).",
            p.people(),
            o.id,
            terms(d, &o),
            p.other().people(),
            o.id,
            o.id
        ),
        vec![],
    );
    st.offers.push(o);
    Ok(())
}

/// `p` declines an offer of the other player's, or withdraws his own (23.0).
fn decline(ctx: &mut Ctx, st: &mut State, p: Power, n: u32) -> Result<(), RuleError> {
    let i = find(st, n)?;
    let what = if st.offers[i].from == p {
        "withdraw"
    } else {
        "decline"
    };
    st.offers.remove(i);
    ctx.say(
        format!("The {} {what} agreement {n} (23.0).", p.people()),
        vec![],
    );
    Ok(())
}

/// `p` accepts the other player's offer `n` (23.1).
fn accept_order(ctx: &mut Ctx, st: &mut State, p: Power, n: u32) -> Result<(), RuleError> {
    let d = ctx.d;
    let i = find(st, n)?;
    let o = st.offers[i].clone();
    if o.from == p {
        return Err(illegal(
            format!("agreement {n} is your own offer; the other player accepts it"),
            "23.0",
        ));
    }
    st.offers.remove(i);
    if d.version >= 9 {
        return accept(ctx, st, p, &o);
    }
    // Each term as its one-sided order, checked now (23.1).
    for t in &o.terms {
        economy::apply(d, st, t.by, &t.what)?;
    }
    ctx.say(
        format!(
            "The {} accept agreement {n}: {} (23.1).",
            p.people(),
            terms(d, &o)
        ),
        vec![],
    );
    Ok(())
}

/// Carries out an accepted offer `o` (its offer already withdrawn from
/// `st`), from version 9. The accepting player's own terms are checked
/// first, against his own holdings alone: one he cannot meet refuses the
/// acceptance, and that refusal tells him only of his own treasury and
/// regions. Then every term in order (23.1); if one of the proposer's fails,
/// nothing but the offer's lapse is carried out, and the failure is an event
/// of the accepted move that names no figure (9.0).
fn accept(ctx: &mut Ctx, st: &mut State, p: Power, o: &Offer) -> Result<(), RuleError> {
    let d = ctx.d;
    let mut own = st.clone();
    for t in o.terms.iter().filter(|t| t.by == p) {
        economy::apply(d, &mut own, t.by, &t.what)?;
    }
    let mut all = st.clone();
    let carried = o
        .terms
        .iter()
        .try_for_each(|t| economy::apply(d, &mut all, t.by, &t.what).map(|_| ()));
    let n = o.id;
    match carried {
        Ok(()) => {
            *st = all;
            ctx.say(
                format!(
                    "The {} accept agreement {n}: {} (23.1).",
                    p.people(),
                    terms(d, o)
                ),
                vec![],
            );
        }
        Err(_) => ctx.say(
            format!(
                "The {} accept agreement {n}, but the {} can no longer carry out its terms: the agreement fails and lapses (23.1).",
                p.people(),
                o.from.people()
            ),
            vec![],
        ),
    }
    Ok(())
}

fn find(st: &State, n: u32) -> Result<usize, RuleError> {
    st.offers
        .iter()
        .position(|o| o.id == n)
        .ok_or_else(|| illegal(format!("there is no open agreement {n}"), "23.0"))
}
