//! What is left of an action stopped on a question in the middle of a
//! cascade (version 11; digest 2.7, N9, N10): an elimination calls the
//! succession (8.9, 14.4), which may ask the Roman where the new emperor is
//! proclaimed; the unstacking that follows (10.7) may ask where a unit goes;
//! and after them the battle still has its advance (13.14) and free draw
//! (8.19); and a deficit met on the way (6.10) may ask how Rome covers it.
//! Each caller that sees the question pending as it returns pushes
//! the rest of its work as a [`Then`] step ([`super::ask::paused`]); the
//! answer carries the steps out in order, exactly as the call chain would
//! have gone on without the question.

use super::combat::{self, Battle};
use super::data::{Outcome, UnitId};
use super::effects::{self, Ctx};
use super::leaders;
use super::orders::{Advance, Attack};
use super::state::State;
use serde::{Deserialize, Serialize};
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// One step left of an action stopped on a question, as the caller that
/// kept it would have gone on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Then {
    /// 10.7: the stack in this hex unstacks (the rest of an elimination).
    Unstack(Hex),
    /// Those of these counters still in `hex` are eliminated, in order (the
    /// rest of a loop of losses, 13.11-13.13).
    Kill {
        /// The counters, in the order they fall.
        units: Vec<UnitId>,
        /// Where they stood.
        hex: Hex,
    },
    /// 8.4, 10.7: leaders left alone, then unstacking, in these hexes.
    AfterLosses(Vec<Hex>),
    /// 13.11: the rest of a battle's result after its defenders or
    /// attackers fell: the report, the attacker's EX losses, then
    /// [`Then::After`].
    Losses {
        /// The battle.
        battle: Battle,
        /// Its result.
        result: Outcome,
        /// The attack order (EX losses, advance, free draw).
        attack: Attack,
        /// How many defending units fell (EX, 13.11).
        lost: usize,
    },
    /// The rest of a battle after its result (8.4, 10.7, 13.14, 8.19).
    After {
        /// The battle.
        battle: Battle,
        /// Its result.
        result: Outcome,
        /// The attacker's advance order.
        advance: Advance,
        /// The attacker's free draw if he wins.
        draw: bool,
    },
    /// As [`Then::After`], its leaders and unstacking done: the advance and
    /// the free draw.
    Advance {
        /// The battle.
        battle: Battle,
        /// Its result.
        result: Outcome,
        /// The attacker's advance order.
        advance: Advance,
        /// The attacker's free draw if he wins.
        draw: bool,
    },
    /// The advance done: the free draw of a won battle (8.19), if `draw`.
    FreeDraw {
        /// The battle.
        battle: Battle,
        /// The attacker advanced and asked for the free draw.
        draw: bool,
    },
    /// 6.10: Rome pays `n` TP for `why`, covering what the treasury lacks
    /// first (the rest of a deficit's cover).
    Pay {
        /// The TP due.
        n: u32,
        /// What they pay for (for the report).
        why: String,
    },
    /// 14.4: the new emperor proclaimed in `hex` and the succession's `cost`
    /// paid: the report and his arrival.
    Proclaimed {
        /// Where he rises.
        hex: Hex,
        /// The TP the succession cost.
        cost: u32,
    },
    /// 8.3: the revolt's end paid: the report, then the unstacking of the
    /// emperor's old stack.
    RomeRetaken {
        /// The TP it cost.
        cost: u32,
        /// Where the emperor stood before returning to Rome.
        from: Option<Hex>,
    },
    /// 13.13: the units of a retreat in `to`, overstacked there, lose the
    /// excess; then leaders left alone and unstacking in `to`.
    Excess {
        /// The retreating units.
        units: Vec<UnitId>,
        /// Where they retreated.
        to: Hex,
    },
}

impl Then {
    /// The hexes whose stacking waits for this step (the invariants let
    /// them be over the limit while the question is pending, 10.7).
    pub fn hexes(&self) -> Vec<Hex> {
        match self {
            Then::Unstack(h) | Then::Kill { hex: h, .. } | Then::Excess { to: h, .. } => vec![*h],
            Then::AfterLosses(hs) => hs.clone(),
            Then::Pay { .. } | Then::Proclaimed { .. } => vec![],
            Then::RomeRetaken { from, .. } => from.iter().copied().collect(),
            Then::Losses { battle, .. }
            | Then::After { battle, .. }
            | Then::Advance { battle, .. }
            | Then::FreeDraw { battle, .. } => vec![battle.from, battle.target],
        }
    }
}

/// Carries out `steps` in order. A step that stops on a new question keeps
/// the steps after it in that question, after those it kept itself; so does
/// an answer that already asked again.
pub fn resume(ctx: &mut Ctx, st: &mut State, steps: Vec<Then>) -> Result<(), RuleError> {
    let mut rest = steps.into_iter();
    loop {
        if let Some(q) = st.question.as_mut() {
            q.then.extend(rest);
            return Ok(());
        }
        let Some(step) = rest.next() else {
            return Ok(());
        };
        run(ctx, st, step)?;
    }
}

/// One step, as its caller would have carried it out.
fn run(ctx: &mut Ctx, st: &mut State, step: Then) -> Result<(), RuleError> {
    let p = ctx.actor;
    match step {
        Then::Unstack(h) => leaders::unstack(ctx, st, h),
        Then::Kill { units, hex } => effects::kill_all(ctx, st, &units, hex).map(|_| ()),
        Then::AfterLosses(hs) => effects::after_losses(ctx, st, &hs),
        Then::Losses {
            battle,
            result,
            attack,
            lost,
        } => combat::losses_done(ctx, st, p, &battle, result, &attack, lost),
        Then::After {
            battle,
            result,
            advance,
            draw,
        } => combat::after_result(ctx, st, p, &battle, result, &advance, draw),
        Then::Advance {
            battle,
            result,
            advance,
            draw,
        } => combat::advance_and_draw(ctx, st, p, &battle, result, &advance, draw),
        Then::FreeDraw { battle, draw } => combat::draw_after(ctx, st, p, &battle, draw),
        Then::Excess { units, to } => combat::excess(ctx, st, &units, to),
        Then::Pay { n, why } => super::economics::pay(ctx, st, n, &why),
        Then::Proclaimed { hex, cost } => leaders::proclaimed(ctx, st, hex, Some(cost)),
        Then::RomeRetaken { cost, from } => leaders::rome_retaken(ctx, st, cost, from),
    }
}
