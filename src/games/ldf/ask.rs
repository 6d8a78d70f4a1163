//! Questions to the player who is not acting (version 9; digest 2.7, issue 7
//! item 4): when a mid-action decision of his is real (more than one legal
//! answer the doctrine cannot tell apart) and no standing order of his covers
//! it, the action stops, he is asked, and his answer (`retreat HEX`, `place
//! HEX`, or `pass` for the stated default) finishes it. A side that gave the
//! standing order is never asked. Asked now: the retreat hex after a DR (N1,
//! 13.12), the hex of a Roman cavalry unit the Germano-Parthian drew (N8,
//! 14.3) and the Germano-Parthian's hex for the revolt of a Bread & Circuses
//! the Roman refused (N6, 14.3).

use super::combat::Battle;
use super::data::{Data, UnitId};
use super::effects::{Ctx, illegal};
use super::orders::{Advance, Order};
use super::state::{Player, State};
use crate::core::hex::Hex;
use crate::core::ruleset::RuleError;
use serde::Serialize;

/// A question waiting for its answer, with what is left of the action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Question {
    /// Who is asked.
    pub to: Player,
    /// The legal answers, the default (the doctrine's own pick) first.
    pub hexes: Vec<Hex>,
    /// What the answer decides.
    pub about: About,
}

/// What a question decides, and how the action goes on after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum About {
    /// N1, 13.12: where the defenders of a DR retreat; then the rest of
    /// the attack (advance, free draw).
    Retreat {
        /// The battle.
        battle: Battle,
        /// The attacker's advance order (13.14).
        advance: Advance,
        /// The attacker's free draw if he wins (8.19).
        draw: bool,
    },
    /// N8, 14.3: where a drawn Roman cavalry unit joins the army; then the
    /// reserve roll.
    Cavalry {
        /// The unit.
        unit: UnitId,
    },
    /// N6, 14.3: which hex rises behind the rebel garrison of a refused
    /// Bread & Circuses.
    Revolt {
        /// The garrison counter.
        garrison: UnitId,
    },
}

impl Question {
    /// The answer's keyword.
    fn keyword(&self) -> &'static str {
        match self.about {
            About::Retreat { .. } => "retreat",
            About::Cavalry { .. } | About::Revolt { .. } => "place",
        }
    }

    /// The rule the question stands on.
    fn rule(&self) -> &'static str {
        match self.about {
            About::Retreat { .. } => "13.12; N1",
            About::Cavalry { .. } => "14.3; N8",
            About::Revolt { .. } => "14.3; N6",
        }
    }

    /// The question as the mail asks it.
    pub fn ask(&self, d: &Data) -> String {
        let what = match &self.about {
            About::Retreat { battle, .. } => format!(
                "your units in {} must retreat (DR) and the doctrine ties",
                battle.target
            ),
            About::Cavalry { unit } => format!(
                "the Germano-Parthian drew cavalry {}: where does it join your army",
                d.uid(*unit)
            ),
            About::Revolt { .. } => {
                "Rome refused Bread & Circuses: which hex rises behind the rebel garrison".into()
            }
        };
        let hexes: Vec<String> = self.hexes.iter().map(|h| d.hex_name(*h)).collect();
        format!(
            "{what}? Answer `{} HEX` with one of {}, or `pass` for the default, {} ({}); a standing order ({}) answers it next time",
            self.keyword(),
            hexes.join(", "),
            self.hexes[0],
            self.rule(),
            match self.about {
                About::Retreat { .. } => "rally HEX",
                About::Cavalry { .. } => "prefer HEX...",
                About::Revolt { .. } => "revolt HEX...",
            }
        )
    }

    /// The answers `legal` offers.
    pub fn answers(&self) -> Vec<String> {
        let mut v = vec!["pass".to_string()];
        v.extend(self.hexes.iter().map(|h| format!("{} {h}", self.keyword())));
        v
    }
}

/// The hex the answer picks: one of the question's, or the default for `pass`.
fn picked(q: &Question, o: &Order) -> Result<Hex, RuleError> {
    let h = match o {
        Order::Pass => return Ok(q.hexes[0]),
        Order::Answer { retreat, hex } if *retreat == (q.keyword() == "retreat") => *hex,
        _ => {
            return Err(illegal(
                format!(
                    "you are asked first: `{} HEX` or `pass`",
                    q.keyword()
                ),
                q.rule(),
            ));
        }
    };
    if !q.hexes.contains(&h) {
        let all: Vec<String> = q.hexes.iter().map(|h| h.to_string()).collect();
        return Err(illegal(
            format!("{h} is not an answer: one of {}", all.join(" ")),
            q.rule(),
        ));
    }
    Ok(h)
}

/// Should the umpire ask `p` rather than answer for him: the order under
/// way may stop (version 9, the action's own draw or attack), and `p` is
/// not the player acting (N15: he decides for himself)?
pub fn may_ask(ctx: &Ctx, p: Player) -> bool {
    ctx.ask && p != ctx.actor
}

/// Stops the action on a question (the caller returns at once; every caller
/// up to the action checks [`State::question`]).
pub fn stop(ctx: &mut Ctx, st: &mut State, q: Question) {
    // The answers are his own business (the prompt tells him alone); the
    // report says only that the action waits for him.
    let what = match q.about {
        About::Retreat { .. } => "where his units retreat",
        About::Cavalry { .. } => "where the cavalry joins his army",
        About::Revolt { .. } => "where the revolt rises",
    };
    ctx.say(
        format!(
            "the action waits for the {} to decide {what} ({}; digest 2.7)",
            q.to.name(),
            q.rule()
        ),
        vec![],
    );
    st.question = Some(q);
}

/// Asks `to` when `rest` offers another answer than the default `first`
/// (the choice is real): stops the action and returns true; else false,
/// and the caller goes on with `first`.
pub fn ask_if_real(
    ctx: &mut Ctx,
    st: &mut State,
    to: Player,
    first: Hex,
    rest: Vec<Hex>,
    about: About,
) -> bool {
    if rest.is_empty() {
        return false;
    }
    let mut hexes = vec![first];
    hexes.extend(rest);
    stop(ctx, st, Question { to, hexes, about });
    true
}

/// The answer: the action goes on from the question with the hex picked.
/// Returns once it stops again or is done (the caller finishes the action
/// when no new question is asked).
pub fn answer(ctx: &mut Ctx, st: &mut State, o: &Order) -> Result<(), RuleError> {
    let Some(q) = st.question.clone() else {
        return Ok(());
    };
    let h = picked(&q, o)?;
    st.question = None;
    ctx.say(
        format!("the {} answers {}", q.to.name(), ctx.d.hex_name(h)),
        vec![h],
    );
    match q.about {
        About::Retreat {
            battle,
            advance,
            draw,
        } => super::combat::retreat_answered(ctx, st, &battle, h, &advance, draw),
        About::Cavalry { unit } => super::chits::cavalry_at(ctx, st, st.actor, unit, Some(h)),
        About::Revolt { garrison } => {
            super::chits::revolt_at(ctx, st, garrison, h);
            Ok(())
        }
    }
}
