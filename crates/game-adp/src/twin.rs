//! Twins for the noninterference test (`Ruleset::twin`). Everything in A
//! Distant Plain is public (1.4.3) but a side's Deception markers (7.3), its
//! conditional card orders (D1, D2, D4) and the plans of a Propaganda Round
//! before all are in (6.0). The deck hides nothing in the state: each card
//! is drawn by a roll when it is drawn, so there is no order to vary. A twin
//! for a viewer swaps the other sides' unrevealed markers with markers set
//! aside, and reorders the other sides' card orders (their spaces, lines or
//! when they apply) and received plans.

use super::conditional::When;
use super::state::{Stage, State};
use umpire_core::deck::Pool;
use umpire_core::ruleset::Viewer;
use umpire_core::twin::Mix;

const MARKERS: &str = "Deception markers";
const CARD_ORDERS: &str = "conditional card orders";
const PLANS: &str = "Propaganda plans";

/// A twin of `st` for `viewer` (none for the umpire).
pub fn twin(st: &State, viewer: Viewer, seed: u64) -> Option<State> {
    if viewer == Viewer::Umpire {
        return None;
    }
    let mut t = st.clone();
    let mut mix = Mix::new(seed);
    let theirs = |f| !st.seats.side(f).is_some_and(|s| viewer.sees_own(s));
    if let Some(x) = &mut t.deception {
        for (i, held) in x.held.iter_mut().enumerate() {
            if viewer.sees_own(umpire_core::ruleset::Side(i as u8)) {
                continue;
            }
            for h in held.iter_mut().filter(|h| !h.revealed) {
                let mut aside = x.aside.items().to_vec();
                if aside.is_empty() {
                    break;
                }
                let k = mix.below(aside.len());
                std::mem::swap(&mut aside[k], &mut h.marker);
                x.aside = Pool::new(aside);
            }
        }
    }
    for c in t.cards.iter_mut().filter(|c| theirs(c.faction)) {
        if c.spaces.len() > 1 {
            c.spaces.reverse();
        } else if c.lines.len() > 1 {
            c.lines.reverse();
        } else {
            c.when = match c.when {
                When::First => When::Any,
                When::Any => When::AfterOp,
                When::AfterOp => When::AfterOpSa,
                When::AfterOpSa => When::AfterEvent,
                When::AfterEvent => When::First,
                other => other,
            };
        }
    }
    if let Stage::Propaganda(r) = &mut t.stage {
        for (f, plan) in r.plans.iter_mut() {
            if theirs(*f) && plan.len() > 1 {
                plan.reverse();
            }
        }
    }
    Some(t)
}

/// The kinds of secret a twin varies in this game.
pub fn kinds(st: &State) -> Vec<&'static str> {
    let mut v = vec![CARD_ORDERS];
    if st.deception.is_some() {
        v.push(MARKERS);
    }
    v
}

/// The kinds of secret in which `a` and `b` differ.
pub fn differ(a: &State, b: &State) -> Vec<&'static str> {
    let mut v = Vec::new();
    if a.deception != b.deception {
        v.push(MARKERS);
    }
    if a.cards != b.cards {
        v.push(CARD_ORDERS);
    }
    if let (Stage::Propaganda(x), Stage::Propaganda(y)) = (&a.stage, &b.stage)
        && x.plans != y.plans
    {
        v.push(PLANS);
    }
    v
}
