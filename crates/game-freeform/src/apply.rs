//! Carrying out one freeform order (`Ruleset::apply`): one function per
//! order kind. Freeform enforces no game's rules, only whose turn it is.

use super::{Freeform, Sequence, State};
use umpire_core::audience::Audience;
use umpire_core::dice::Dice;
use umpire_core::ruleset::{Event, Outcome, RuleError, Side};

/// The dice of a `roll` or `roll secret` order.
pub(crate) struct DiceAsk<'a> {
    pub count: u32,
    pub sides: u32,
    pub modifier: i64,
    pub label: &'a str,
}

impl<'a> DiceAsk<'a> {
    /// The dice of an order.
    pub fn new(count: u32, sides: u32, modifier: i64, label: &'a str) -> Self {
        DiceAsk {
            count,
            sides,
            modifier,
            label,
        }
    }

    /// What the roll is for: its label, or the dice themselves.
    fn what(&self) -> String {
        if self.label.is_empty() {
            format!("{}d{}", self.count, self.sides)
        } else {
            self.label.to_string()
        }
    }
}

/// Refuses an order from a side that may not give one now: the game is
/// over, its simultaneous orders are in, or it is another side's turn.
pub(crate) fn may_give_orders(state: &State, side: Side) -> Result<(), RuleError> {
    if state.finished.is_some() {
        return Err(RuleError::unruled("the game is over"));
    }
    let simultaneous = state.sequence == Sequence::Simultaneous;
    if simultaneous && state.done[side.index()] {
        return Err(RuleError::unruled(format!(
            "{} has given this turn's orders",
            state.sides[side.index()]
        )));
    }
    if !simultaneous && side != state.active {
        return Err(RuleError::unruled(format!(
            "it is {}'s turn",
            state.sides[state.active.index()]
        )));
    }
    Ok(())
}

/// `hidden TEXT`: kept for the umpire alone until the end.
pub(crate) fn hidden(state: &mut State, side: Side, me: &str, text: &str) -> Vec<Event> {
    state
        .hidden
        .push((me.to_string(), state.turn, text.to_string()));
    vec![
        Event::say("Hidden order recorded: the umpire alone sees it until the end")
            .to(Audience::side(side)),
    ]
}

/// `roll secret NdS[+M] [label]`: each die seen by the roller alone.
pub(crate) fn secret_roll(
    side: Side,
    ask: &DiceAsk,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let what = ask.what();
    let mut faces = Vec::new();
    for _ in 0..ask.count {
        faces.push(dice.roll_for(Audience::side(side), ask.sides, &what)?);
    }
    let sum: i64 = faces.iter().map(|f| *f as i64).sum::<i64>() + ask.modifier;
    let shown: Vec<String> = faces.iter().map(u32::to_string).collect();
    let modifier = if ask.modifier == 0 {
        String::new()
    } else {
        format!("{:+}", ask.modifier)
    };
    Ok(vec![
        Event::say(format!(
            "Your secret roll {}d{}{modifier} for {what}: {} = {sum}",
            ask.count,
            ask.sides,
            shown.join(" + ")
        ))
        .to(Audience::side(side)),
    ])
}

/// `roll NdS[+M] [label]`: rolled in the open and noted in the turn's log.
pub(crate) fn open_roll(
    state: &mut State,
    me: &str,
    ask: &DiceAsk,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let (count, sides, modifier) = (ask.count, ask.sides, ask.modifier);
    let what = ask.what();
    let faces = dice.roll_n(count, sides, &what)?;
    let sum: i64 = faces.iter().map(|f| *f as i64).sum::<i64>() + modifier;
    let shown = faces
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" + ");
    let m = match modifier {
        0 => String::new(),
        m if m > 0 => format!(" + {m}"),
        m => format!(" - {}", -m),
    };
    let spec = format!(
        "{count}d{sides}{}",
        match modifier {
            0 => String::new(),
            m => format!("{m:+}"),
        }
    );
    let line = if count == 1 && modifier == 0 {
        format!("{me} rolls {spec} for {what}: {sum}")
    } else {
        format!("{me} rolls {spec} for {what}: {shown}{m} = {sum}")
    };
    state.this_turn.push(
        format!("roll {spec} {} → {sum}", ask.label)
            .trim_end()
            .to_string(),
    );
    Ok(vec![Event::say(line)])
}

impl Freeform {
    /// `end turn [-> SIDE]` in a game played in turns: the next side is the
    /// next in order (fixed) or the one named (declared).
    pub(crate) fn end_turn(
        &self,
        state: &mut State,
        side: Side,
        me: &str,
        named: Option<Side>,
    ) -> Result<Vec<Event>, RuleError> {
        let next = match (state.sequence, named) {
            (Sequence::Fixed, Some(_)) => {
                return Err(RuleError::unruled(
                    "this game plays in fixed order; write just `end turn`",
                ));
            }
            (Sequence::Fixed, None) => self.next_side(state, side),
            (Sequence::Declared, None) => {
                return Err(RuleError::unruled(
                    "name who moves next: `end turn -> SIDE`",
                ));
            }
            (Sequence::Declared, Some(s)) if state.conceded[s.index()] => {
                return Err(RuleError::unruled(format!(
                    "{} has conceded",
                    state.sides[s.index()]
                )));
            }
            (Sequence::Declared, Some(s)) => s,
            (Sequence::Simultaneous, _) => self.next_side(state, side),
        };
        self.finish_turn(state, side, next);
        let mut ev = vec![Event::say(format!(
            "{me} ends the turn; {} to move",
            state.sides[next.index()]
        ))];
        if let Some(f) = &state.finished {
            ev.push(Event::say(format!("Game over: {}", f.summary)));
        }
        Ok(ev)
    }

    /// `concede`: the side leaves; the game ends when one side (or none) is
    /// left, else play passes on.
    pub(crate) fn concede(&self, state: &mut State, side: Side, me: &str) -> Vec<Event> {
        state.conceded[side.index()] = true;
        let left: Vec<Side> = (0..state.sides.len())
            .map(|i| Side(i as u8))
            .filter(|s| !state.conceded[s.index()])
            .collect();
        let mut ev = vec![Event::say(format!("{me} concedes"))];
        if left.len() <= 1 {
            let names: Vec<&str> = left
                .iter()
                .map(|s| state.sides[s.index()].as_str())
                .collect();
            state.finished = Some(Outcome {
                winners: left.clone(),
                summary: if names.is_empty() {
                    "every side conceded".into()
                } else {
                    format!("{} wins: every other side conceded", names.join(", "))
                },
            });
            ev.push(Event::say(format!(
                "Game over: {}",
                state.finished.as_ref().map_or("", |f| f.summary.as_str())
            )));
        } else if state.sequence == Sequence::Simultaneous {
            self.finish_simultaneous(state, side);
        } else {
            let next = self.next_side(state, side);
            self.finish_turn(state, side, next);
        }
        ev
    }
}
