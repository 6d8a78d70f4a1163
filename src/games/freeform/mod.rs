//! `freeform`: any wargame by email. Orders are free text, recorded verbatim;
//! `roll 2d6 initiative` rolls verifiable dice; `end turn` passes to the next
//! side. The umpire enforces whose turn it is and proves every roll, so a club
//! can play any game with a printed map on the table and umpire as its dice
//! server and order log.

use crate::core::dice::{Dice, MAX_DICE_PER_REQUEST, MAX_SIDES};
use crate::core::movefile::SourceLine;
use crate::core::ruleset::{
    Await, AwaitKind, Event, OptionInfo, OrderError, Outcome, Prompt, RuleError, Rules,
    RulesetInfo, ScenarioInfo, Setup, Side, View,
};
use serde::Serialize;

/// The freeform ruleset.
pub struct Freeform;

/// Who moves next when a side ends its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Sequence {
    /// Round-robin in the order the sides were declared.
    Fixed,
    /// The side ending its turn names who goes next (`end turn -> axis`).
    Declared,
}

/// The game state.
#[derive(Debug, Clone, Serialize)]
pub struct State {
    pub sides: Vec<String>,
    pub sequence: Sequence,
    /// Game turn, from 1. In fixed order it advances when play returns to the first side.
    pub turn: u32,
    /// The last turn, if the game has a length.
    pub last_turn: Option<u32>,
    pub active: Side,
    pub conceded: Vec<bool>,
    /// Orders given so far in the current side's turn.
    pub this_turn: Vec<String>,
    /// The orders of the previous side's turn, shown to everyone.
    pub last_turn_orders: Vec<(String, Vec<String>)>,
    pub finished: Option<Outcome>,
}

/// One order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Order {
    /// `roll NdS[+M] [label]`.
    Roll {
        count: u32,
        sides: u32,
        modifier: i64,
        label: String,
    },
    /// `end turn`, optionally naming the next side.
    EndTurn(Option<Side>),
    /// `concede`.
    Concede,
    /// Any other line, kept verbatim.
    Text(String),
}

/// Reads `2d6`, `1d6+1`, `d10-2`.
fn parse_dice(spec: &str) -> Option<(u32, u32, i64)> {
    let lower = spec.to_ascii_lowercase();
    let (n, rest) = lower.split_once('d')?;
    let count = if n.is_empty() { 1 } else { n.parse().ok()? };
    let (faces, modifier) = match rest.find(['+', '-']) {
        Some(i) => (&rest[..i], rest[i..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    Some((count, faces.parse().ok()?, modifier))
}

impl Freeform {
    fn parse_line(&self, state: &State, line: &SourceLine) -> Result<Order, OrderError> {
        let t = line.text.trim();
        let lower = t.to_ascii_lowercase();
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            ["roll", spec, ..] => {
                let (count, sides, modifier) = parse_dice(spec).ok_or_else(|| {
                    OrderError::at(
                        &SourceLine {
                            column: line.column + 5,
                            ..line.clone()
                        },
                        format!("{spec:?} is not a dice request; write e.g. `roll 2d6 initiative` or `roll 1d6+1 fire at 0712`"),
                    )
                })?;
                if count == 0 || count > MAX_DICE_PER_REQUEST {
                    return Err(OrderError::at(
                        line,
                        format!("roll 1 to {MAX_DICE_PER_REQUEST} dice at a time"),
                    ));
                }
                if !(2..=MAX_SIDES).contains(&sides) {
                    return Err(OrderError::at(
                        line,
                        format!("a die has 2 to {MAX_SIDES} faces"),
                    ));
                }
                // The label keeps the player's own spelling.
                let label = t.split_whitespace().skip(2).collect::<Vec<_>>().join(" ");
                Ok(Order::Roll {
                    count,
                    sides,
                    modifier,
                    label,
                })
            }
            ["roll"] => Err(OrderError::at(
                line,
                "`roll` needs dice, e.g. `roll 2d6 initiative`",
            )),
            ["end", "turn", rest @ ..] => {
                let next = match rest {
                    [] => None,
                    ["->" | "to" | "next:" | "next", name] | [name] => {
                        let name = name.trim_start_matches("->");
                        let i = state
                            .sides
                            .iter()
                            .position(|s| s.eq_ignore_ascii_case(name))
                            .ok_or_else(|| {
                                OrderError::at(
                                    line,
                                    format!(
                                        "no side {name:?}; sides are {}",
                                        state.sides.join(", ")
                                    ),
                                )
                            })?;
                        Some(Side(i as u8))
                    }
                    _ => {
                        return Err(OrderError::at(
                            line,
                            "write `end turn` or `end turn -> SIDE`",
                        ));
                    }
                };
                Ok(Order::EndTurn(next))
            }
            ["concede"] => Ok(Order::Concede),
            _ => Ok(Order::Text(t.to_string())),
        }
    }

    fn next_side(&self, state: &State, from: Side) -> Side {
        let n = state.sides.len();
        (1..=n)
            .map(|k| Side(((from.index() + k) % n) as u8))
            .find(|s| !state.conceded[s.index()])
            .unwrap_or(from)
    }

    fn finish_turn(&self, state: &mut State, side: Side, next: Side) {
        let name = state.sides[side.index()].clone();
        state.last_turn_orders = vec![(name, std::mem::take(&mut state.this_turn))];
        let wrapped = match state.sequence {
            Sequence::Fixed => next.index() <= side.index(),
            Sequence::Declared => true,
        };
        if wrapped {
            state.turn += 1;
        }
        state.active = next;
        if let Some(last) = state.last_turn
            && state.turn > last
        {
            state.finished = Some(Outcome {
                winners: vec![],
                summary: format!(
                    "the agreed {last} turns are played; the players judge the result"
                ),
            });
        }
    }
}

impl Rules for Freeform {
    type State = State;
    type Order = Order;

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            name: "freeform".into(),
            version: 1,
            data: None,
            title: "Freeform: any game, verifiable dice and an order log".into(),
            summary: "Orders are free text recorded verbatim; `roll 2d6 label` rolls verifiable dice; `end turn` passes play on.".into(),
            scenarios: vec![ScenarioInfo {
                name: "open".into(),
                title: "Any game, sides as declared".into(),
                sides: vec![],
            }],
            options: vec![
                OptionInfo {
                    name: "order".into(),
                    default: "fixed".into(),
                    values: vec!["fixed".into(), "declared".into()],
                    help: "fixed: sides move in the order declared; declared: `end turn -> SIDE` names who is next".into(),
                },
                OptionInfo {
                    name: "turns".into(),
                    default: "0".into(),
                    values: vec![],
                    help: "game length in turns; 0 for open-ended".into(),
                },
            ],
        }
    }

    fn setup(&self, setup: &Setup) -> Result<State, String> {
        if setup.scenario != "open" {
            return Err(format!(
                "freeform has one scenario, `open`, not {:?}",
                setup.scenario
            ));
        }
        if setup.sides.is_empty() || setup.sides.len() > 16 {
            return Err("freeform needs 1 to 16 sides".into());
        }
        let mut sequence = Sequence::Fixed;
        let mut last_turn = None;
        for (k, v) in &setup.options {
            match (k.as_str(), v.as_str()) {
                ("order", "fixed") => sequence = Sequence::Fixed,
                ("order", "declared") => sequence = Sequence::Declared,
                ("turns", n) => {
                    let n: u32 = n
                        .parse()
                        .map_err(|_| format!("turns={n:?} is not a number"))?;
                    last_turn = (n > 0).then_some(n);
                }
                _ => return Err(format!("freeform has no option {k}={v}")),
            }
        }
        Ok(State {
            sides: setup.sides.clone(),
            sequence,
            turn: 1,
            last_turn,
            active: Side(0),
            conceded: vec![false; setup.sides.len()],
            this_turn: Vec::new(),
            last_turn_orders: Vec::new(),
            finished: None,
        })
    }

    fn prompt(&self, state: &State) -> Prompt {
        let name = &state.sides[state.active.index()];
        let stage = format!("turn {}, {name} to move", state.turn);
        if state.finished.is_some() {
            return Prompt {
                stage,
                awaiting: vec![],
                finished: state.finished.clone(),
            };
        }
        let end = match state.sequence {
            Sequence::Fixed => "`end turn`".to_string(),
            Sequence::Declared => "`end turn -> SIDE`".to_string(),
        };
        Prompt {
            stage,
            awaiting: vec![Await {
                side: state.active,
                kind: AwaitKind::Orders,
                ask: format!(
                    "turn {}: your orders as free text, `roll NdS label` for dice, then {end}",
                    state.turn
                ),
                default: vec!["end turn".into()],
            }],
            finished: None,
        }
    }

    fn parse(
        &self,
        state: &State,
        _side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, Order)>, OrderError> {
        lines
            .iter()
            .map(|l| self.parse_line(state, l).map(|o| (l.clone(), o)))
            .collect()
    }

    fn apply(
        &self,
        state: &mut State,
        side: Side,
        order: &Order,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        if state.finished.is_some() {
            return Err(RuleError::illegal("the game is over", ""));
        }
        if side != state.active {
            return Err(RuleError::illegal(
                format!("it is {}'s turn", state.sides[state.active.index()]),
                "",
            ));
        }
        let me = state.sides[side.index()].clone();
        match order {
            Order::Text(t) => {
                // The order line itself is the record; it needs no echo.
                state.this_turn.push(t.clone());
                Ok(vec![])
            }
            Order::Roll {
                count,
                sides,
                modifier,
                label,
            } => {
                let what = if label.is_empty() {
                    format!("{count}d{sides}")
                } else {
                    label.clone()
                };
                let faces = dice.roll_n(*count, *sides, &what)?;
                let sum: i64 = faces.iter().map(|f| *f as i64).sum::<i64>() + modifier;
                let shown = faces
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" + ");
                let m = match modifier {
                    0 => String::new(),
                    m if *m > 0 => format!(" + {m}"),
                    m => format!(" - {}", -m),
                };
                let spec = format!(
                    "{count}d{sides}{}",
                    match modifier {
                        0 => String::new(),
                        m => format!("{m:+}"),
                    }
                );
                let line = if *count == 1 && *modifier == 0 {
                    format!("{me} rolls {spec} for {what}: {sum}")
                } else {
                    format!("{me} rolls {spec} for {what}: {shown}{m} = {sum}")
                };
                state.this_turn.push(
                    format!("roll {spec} {label} → {sum}")
                        .trim_end()
                        .to_string(),
                );
                Ok(vec![Event::say(line)])
            }
            Order::EndTurn(named) => {
                let next = match (state.sequence, named) {
                    (Sequence::Fixed, Some(_)) => {
                        return Err(RuleError::illegal(
                            "this game plays in fixed order; write just `end turn`",
                            "",
                        ));
                    }
                    (Sequence::Fixed, None) => self.next_side(state, side),
                    (Sequence::Declared, None) => {
                        return Err(RuleError::illegal(
                            "name who moves next: `end turn -> SIDE`",
                            "",
                        ));
                    }
                    (Sequence::Declared, Some(s)) if state.conceded[s.index()] => {
                        return Err(RuleError::illegal(
                            format!("{} has conceded", state.sides[s.index()]),
                            "",
                        ));
                    }
                    (Sequence::Declared, Some(s)) => *s,
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
            Order::Concede => {
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
                } else {
                    let next = self.next_side(state, side);
                    self.finish_turn(state, side, next);
                }
                Ok(ev)
            }
        }
    }

    fn legal(&self, state: &State, side: Side) -> Vec<String> {
        if state.finished.is_some() || side != state.active {
            return vec![];
        }
        let mut v = vec![
            "roll 2d6 initiative".to_string(),
            "roll 1d6+1 fire at 0712".to_string(),
            "advance the 2nd Corps to the ridge".to_string(),
        ];
        match state.sequence {
            Sequence::Fixed => v.push("end turn".into()),
            Sequence::Declared => {
                for (i, s) in state.sides.iter().enumerate() {
                    if !state.conceded[i] {
                        v.push(format!("end turn -> {s}"));
                    }
                }
            }
        }
        v
    }

    fn view(&self, state: &State, _side: Option<Side>) -> View {
        let mut status = vec![match &state.finished {
            Some(_) => format!("The game is over after turn {}.", state.turn - 1),
            None => format!(
                "Turn {}{}; {} to move.",
                state.turn,
                state
                    .last_turn
                    .map(|l| format!(" of {l}"))
                    .unwrap_or_default(),
                state.sides[state.active.index()]
            ),
        }];
        status.push(format!(
            "Order of play: {} ({}).",
            state.sides.join(", "),
            match state.sequence {
                Sequence::Fixed => "fixed",
                Sequence::Declared => "each side names the next",
            }
        ));
        let conceded: Vec<&str> = (0..state.sides.len())
            .filter(|i| state.conceded[*i])
            .map(|i| state.sides[i].as_str())
            .collect();
        if !conceded.is_empty() {
            status.push(format!("Conceded: {}.", conceded.join(", ")));
        }
        if !state.this_turn.is_empty() {
            status.push(format!(
                "Orders so far this turn by {}:",
                state.sides[state.active.index()]
            ));
            status.extend(state.this_turn.iter().map(|o| format!("  {o}")));
        }
        View {
            status,
            board: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dice_specs_parse() {
        assert_eq!(parse_dice("2d6"), Some((2, 6, 0)));
        assert_eq!(parse_dice("1d6+1"), Some((1, 6, 1)));
        assert_eq!(parse_dice("d10-2"), Some((1, 10, -2)));
        assert_eq!(parse_dice("2x6"), None);
        assert_eq!(parse_dice("2d"), None);
    }
}
