//! `freeform`: any wargame by email. Orders are free text, recorded verbatim;
//! `roll 2d6 initiative` rolls verifiable dice; `end turn` passes to the next
//! side. The umpire enforces whose turn it is and proves every roll, so a club
//! can play any game with a printed map on the table and umpire as its dice
//! server and order log.
//!
//! With hidden information (`secrets=on`, `order=simultaneous` or a deck):
//! `roll secret 2d6 spotting` rolls for the roller's eyes only, `hidden TEXT`
//! records an order only the umpire sees until the end (hidden movement for a
//! Kriegsspiel), decks and hands (`cards`) are dealt and drawn in secret, and
//! in simultaneous order every side's orders for a turn are sealed until all
//! are in.

mod apply;
mod cards;
mod twin;

use cards::{CardOrder, Cards};
use serde::{Deserialize, Serialize};
use umpire_core::audience::Audience;
use umpire_core::dice::{Dice, MAX_DICE_PER_REQUEST, MAX_SIDES};
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{
    Await, AwaitKind, Event, OptionInfo, OrderError, Outcome, Prompt, RuleError, Ruleset,
    RulesetInfo, ScenarioInfo, Setup, SetupError, Side, View, Viewer, parse_lines,
};

/// The freeform ruleset, as it plays at `version` (see [`Freeform::VERSION`]).
pub struct Freeform {
    version: u32,
}

impl Default for Freeform {
    fn default() -> Self {
        Freeform::new()
    }
}

impl Freeform {
    /// The current version. 2: a card drawn into a hand is committed by name,
    /// and `reveal`/`play` disclose its draw at once (a `disclose` entry).
    /// 3: a simultaneous move ends the side's turn at the end of the move
    /// (`Ruleset::end_move`); versions 1 and 2 appended an `end turn` order
    /// that carried the move's last line, hidden or not, into the public
    /// record. Earlier games replay under their own version (`at_version`).
    pub const VERSION: u32 = 3;

    /// The ruleset at its current version.
    pub fn new() -> Self {
        Freeform {
            version: Self::VERSION,
        }
    }
}

/// The registry's entry: free-text orders have no data files.
pub const DESCRIPTOR: umpire_core::data::Descriptor = umpire_core::data::Descriptor {
    name: "freeform",
    files: &[],
    build: |_| Ok(std::sync::Arc::new(Freeform::new())),
    check: None,
    earlier: &[],
    version: Freeform::VERSION,
};

/// Who moves next when a side ends its turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sequence {
    /// Round-robin in the order the sides were declared.
    Fixed,
    /// The side ending its turn names who goes next (`end turn -> axis`).
    Declared,
    /// Every side gives its orders for the turn at once, sealed until all are in.
    Simultaneous,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn no_cards(c: &Cards) -> bool {
    !c.in_use()
}

/// The game state.
#[derive(Debug, Clone, Serialize, Deserialize)]
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
    /// The game keeps secrets (secret rolls, hidden orders, hands).
    #[serde(default, skip_serializing_if = "is_false")]
    pub secrets: bool,
    /// Simultaneous order: who has given this turn's orders.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub done: Vec<bool>,
    /// Hidden orders: (side, turn, text), seen by the umpire alone until the end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden: Vec<(String, u32, String)>,
    /// Decks and hands.
    #[serde(default, skip_serializing_if = "no_cards")]
    pub cards: Cards,
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
    /// `roll secret NdS[+M] [label]`: seen by the roller alone.
    SecretRoll {
        count: u32,
        sides: u32,
        modifier: i64,
        label: String,
    },
    /// `hidden TEXT`: seen by the umpire alone until the end.
    Hidden(String),
    /// A card order.
    Card(CardOrder),
    /// Any other line, kept verbatim.
    Text(String),
}

/// Most dice one move may roll, over all its `roll` orders: the rolls go into
/// the record and every later result mail.
pub const MAX_DICE_PER_MOVE: u32 = 1000;
/// Largest modifier of a dice request, either way.
pub const MAX_MODIFIER: i64 = 1_000_000;

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
        if let Some(o) = self.parse_secret(state, line, &words)? {
            return Ok(o);
        }
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
                if !(-MAX_MODIFIER..=MAX_MODIFIER).contains(&modifier) {
                    return Err(OrderError::at(
                        line,
                        format!("a modifier is at most {MAX_MODIFIER} either way"),
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

    /// The orders of a game that keeps secrets; `None` if the line is none of them.
    fn parse_secret(
        &self,
        state: &State,
        line: &SourceLine,
        words: &[&str],
    ) -> Result<Option<Order>, OrderError> {
        let t = line.text.trim();
        let need = |what: &str| {
            OrderError::at(
                line,
                format!(
                    "{what} needs a game created with hidden information (`--option secrets=on`)"
                ),
            )
        };
        let order = match words {
            ["roll", "secret", ..] => {
                if !state.secrets {
                    return Err(need("a secret roll"));
                }
                let rest = SourceLine {
                    text: format!(
                        "roll {}",
                        t.split_whitespace().skip(2).collect::<Vec<_>>().join(" ")
                    ),
                    ..line.clone()
                };
                match self.parse_line(state, &rest)? {
                    Order::Roll {
                        count,
                        sides,
                        modifier,
                        label,
                    } => Order::SecretRoll {
                        count,
                        sides,
                        modifier,
                        label,
                    },
                    _ => {
                        return Err(OrderError::at(
                            line,
                            "write e.g. `roll secret 2d6 spotting`",
                        ));
                    }
                }
            }
            ["hidden", ..] => {
                if !state.secrets {
                    return Err(need("a hidden order"));
                }
                let text = t[6..].trim().to_string();
                if text.is_empty() {
                    return Err(OrderError::at(
                        line,
                        "write the hidden order after `hidden`",
                    ));
                }
                Order::Hidden(text)
            }
            _ if state.cards.in_use() => match self.parse_card(state, line, words)? {
                Some(c) => Order::Card(c),
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        Ok(Some(order))
    }

    fn parse_card(
        &self,
        state: &State,
        line: &SourceLine,
        words: &[&str],
    ) -> Result<Option<CardOrder>, OrderError> {
        // Card names keep the player's spelling (as the deck declared them).
        let rest = |n: usize| {
            line.text
                .split_whitespace()
                .skip(n)
                .collect::<Vec<_>>()
                .join(" ")
        };
        Ok(Some(match words {
            ["draw", n, "from", deck] => CardOrder::Draw {
                count: n
                    .parse()
                    .ok()
                    .filter(|n| (1..=100).contains(n))
                    .ok_or_else(|| {
                        OrderError::at(line, "draw 1 to 100 cards: `draw 2 from DECK`")
                    })?,
                deck: deck.to_string(),
            },
            ["draw", "from", deck] => CardOrder::Draw {
                count: 1,
                deck: deck.to_string(),
            },
            ["reveal", _, ..] => CardOrder::Reveal(rest(1)),
            ["play", _, ..] => CardOrder::Play(rest(1)),
            ["discard", _, ..] => CardOrder::Discard(rest(1)),
            ["shuffle", deck] => CardOrder::Shuffle(deck.to_string()),
            ["give", .., "to", who] => {
                let to = state
                    .sides
                    .iter()
                    .position(|s| s.eq_ignore_ascii_case(who))
                    .ok_or_else(|| {
                        OrderError::at(
                            line,
                            format!("no side {who:?}; sides are {}", state.sides.join(", ")),
                        )
                    })?;
                let all: Vec<&str> = line.text.split_whitespace().collect();
                CardOrder::Give {
                    card: all[1..all.len() - 2].join(" "),
                    to: Side(to as u8),
                }
            }
            _ => return Ok(None),
        }))
    }

    /// Simultaneous order: marks `side` done and, when every side is, ends the turn.
    fn finish_simultaneous(&self, state: &mut State, side: Side) {
        state.done[side.index()] = true;
        if state
            .done
            .iter()
            .zip(&state.conceded)
            .all(|(d, c)| *d || *c)
        {
            state.last_turn_orders = vec![("all".into(), std::mem::take(&mut state.this_turn))];
            state.turn += 1;
            state.done = vec![false; state.sides.len()];
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

    /// Simultaneous order: `side`'s orders for the turn are done.
    fn end_simultaneous(&self, state: &mut State, side: Side) -> Vec<Event> {
        self.finish_simultaneous(state, side);
        let me = &state.sides[side.index()];
        let mut ev = vec![Event::say(format!("{me}'s orders for the turn are done"))];
        if let Some(f) = &state.finished {
            ev.push(Event::say(format!("Game over: {}", f.summary)));
        }
        ev
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
            Sequence::Declared | Sequence::Simultaneous => true,
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

impl Ruleset for Freeform {
    type State = State;
    type Order = Order;

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            name: "freeform".into(),
            version: self.version,
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
                    values: vec!["fixed".into(), "declared".into(), "simultaneous".into()],
                    help: "fixed: sides move in the order declared; declared: `end turn -> SIDE` names who is next; simultaneous: every side's orders for a turn are sealed until all are in".into(),
                },
                OptionInfo {
                    name: "secrets".into(),
                    default: "off".into(),
                    values: vec!["off".into(), "on".into()],
                    help: "on: `roll secret` and `hidden` orders (on by itself with simultaneous order or a deck)".into(),
                },
                OptionInfo {
                    name: "deck.NAME".into(),
                    default: String::new(),
                    values: vec![],
                    help: "a deck of cards, comma-separated, drawn in secret: `draw 2 from NAME`".into(),
                },
                OptionInfo {
                    name: "hand.NAME".into(),
                    default: "0".into(),
                    values: vec![],
                    help: "cards each side is dealt from deck NAME at the start".into(),
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

    fn setup(&self, setup: &Setup) -> Result<State, SetupError> {
        // The scenario is the engine's to check (`check_setup`).
        if setup.sides.is_empty() || setup.sides.len() > 16 {
            return Err("freeform needs 1 to 16 sides".into());
        }
        let mut sequence = Sequence::Fixed;
        let mut last_turn = None;
        let mut secrets = false;
        let mut cards = Cards {
            hands: vec![Vec::new(); setup.sides.len()],
            commit: self.version >= 2,
            ..Default::default()
        };
        for (k, v) in &setup.options {
            if cards.option(k, v)? {
                continue;
            }
            match (k.as_str(), v.as_str()) {
                ("order", "fixed") => sequence = Sequence::Fixed,
                ("order", "declared") => sequence = Sequence::Declared,
                ("order", "simultaneous") => sequence = Sequence::Simultaneous,
                ("secrets", "on") => secrets = true,
                ("secrets", "off") => {}
                ("turns", n) => {
                    let n: u32 = n
                        .parse()
                        .map_err(|_| format!("turns={n:?} is not a number"))?;
                    last_turn = (n > 0).then_some(n);
                }
                _ => return Err(format!("freeform has no option {k}={v}").into()),
            }
        }
        cards.check(setup.sides.len())?;
        let simultaneous = sequence == Sequence::Simultaneous;
        if !cards.in_use() {
            cards.hands.clear();
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
            secrets: secrets || simultaneous || cards.in_use(),
            done: if simultaneous {
                vec![false; setup.sides.len()]
            } else {
                Vec::new()
            },
            hidden: Vec::new(),
            cards,
        })
    }

    /// The state from its JSON; cards not in use are left out of it, and
    /// come back as the set-up leaves them (no hands; draws committed from
    /// version 2 on).
    fn restore(&self, json: &[u8]) -> Option<Result<State, String>> {
        let restored = umpire_core::ruleset::state_from_json(json).map(|mut s: State| {
            if !s.cards.in_use() {
                s.cards.commit = self.version >= 2;
            }
            s
        });
        Some(restored)
    }

    fn at_version(
        &self,
        version: u32,
    ) -> Option<std::sync::Arc<dyn umpire_core::ruleset::DynRuleset>> {
        (1..=Self::VERSION)
            .contains(&version)
            .then(|| std::sync::Arc::new(Freeform { version }) as _)
    }

    fn deal(&self, state: &mut State, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
        let names = state.sides.clone();
        state.cards.deal(&names, dice)
    }

    fn hides_information(&self, setup: &Setup) -> bool {
        setup.options.iter().any(|(k, v)| {
            (k == "secrets" && v == "on")
                || (k == "order" && v == "simultaneous")
                || k.starts_with("deck.")
        })
    }

    /// A side that conceded in a game of three or more drops out.
    fn has_left(&self, state: &State, side: Side) -> bool {
        state.conceded.get(side.index()).copied().unwrap_or(false)
    }

    fn order_audience(&self, _state: &State, side: Side, order: &Order) -> Audience {
        match order {
            Order::Hidden(_) => Audience::Umpire,
            Order::SecretRoll { .. } => Audience::side(side),
            Order::Card(c) => Cards::audience(c, side),
            _ => Audience::All,
        }
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
            Sequence::Simultaneous => {
                let awaiting = (0..state.sides.len())
                    .filter(|&i| !state.done[i] && !state.conceded[i])
                    .map(|i| Await {
                        side: Side(i as u8),
                        kind: AwaitKind::SealedOrders,
                        ask: format!(
                            "turn {}: your sealed orders for the turn (free text, `roll NdS label`); they open when every side's are in",
                            state.turn
                        ),
                        default: vec!["end turn".into()],
                    })
                    .collect();
                return Prompt {
                    stage: format!("turn {}, sealed orders", state.turn),
                    awaiting,
                    finished: None,
                };
            }
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
        side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, Order)>, OrderError> {
        self.parse_all(state, side, lines)
            .map_err(|mut e| e.remove(0))
    }

    fn parse_all(
        &self,
        state: &State,
        _side: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, Order)>, Vec<OrderError>> {
        let mut orders = parse_lines(lines, |l| self.parse_line(state, l))?;
        let mut dice = 0u32;
        for (l, o) in &orders {
            if let Order::Roll { count, .. } | Order::SecretRoll { count, .. } = o {
                dice = dice.saturating_add(*count);
                if dice > MAX_DICE_PER_MOVE {
                    return Err(vec![OrderError::at(
                        l,
                        format!(
                            "at most {MAX_DICE_PER_MOVE} dice in one move; this roll brings it to {dice}"
                        ),
                    )]);
                }
            }
        }
        // Versions 1 and 2: a simultaneous move is the side's whole turn,
        // ended by an `end turn` appended on its last line (which made that
        // line public). From version 3 `end_move` ends it.
        if self.version < 3
            && state.sequence == Sequence::Simultaneous
            && !orders
                .iter()
                .any(|(_, o)| matches!(o, Order::EndTurn(_) | Order::Concede))
            && let Some(last) = lines.last()
        {
            orders.push((last.clone(), Order::EndTurn(None)));
        }
        Ok(orders)
    }

    fn apply(
        &self,
        state: &mut State,
        side: Side,
        order: &Order,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        apply::may_give_orders(state, side)?;
        let me = state.sides[side.index()].clone();
        match order {
            Order::Hidden(t) => Ok(apply::hidden(state, side, &me, t)),
            Order::SecretRoll {
                count,
                sides,
                modifier,
                label,
            } => apply::secret_roll(
                side,
                &apply::DiceAsk::new(*count, *sides, *modifier, label),
                dice,
            ),
            Order::Card(c) => {
                let names = state.sides.clone();
                state.cards.apply(side, &me, &names, c, dice)
            }
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
            } => apply::open_roll(
                state,
                &me,
                &apply::DiceAsk::new(*count, *sides, *modifier, label),
                dice,
            ),
            Order::EndTurn(_) if state.sequence == Sequence::Simultaneous => {
                Ok(self.end_simultaneous(state, side))
            }
            Order::EndTurn(named) => self.end_turn(state, side, &me, *named),
            Order::Concede => Ok(self.concede(state, side, &me)),
        }
    }

    /// A simultaneous move is the side's whole turn: it ends with the move,
    /// unless its orders ended it already (`end turn`, `concede`). From
    /// version 3; before, `parse_all` appended an `end turn` order.
    fn end_move(
        &self,
        state: &mut State,
        side: Side,
        _dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        let open = state.sequence == Sequence::Simultaneous
            && state.finished.is_none()
            && state.done.get(side.index()) == Some(&false)
            && state.conceded.get(side.index()) == Some(&false);
        if self.version < 3 || !open {
            return Ok(Vec::new());
        }
        Ok(self.end_simultaneous(state, side))
    }

    fn legal_moves(&self, state: &State, side: Side) -> Vec<String> {
        let simultaneous = state.sequence == Sequence::Simultaneous;
        if state.finished.is_some()
            || (!simultaneous && side != state.active)
            || (simultaneous && state.done[side.index()])
        {
            return vec![];
        }
        let mut v = vec![
            "roll 2d6 initiative".to_string(),
            "roll 1d6+1 fire at 0712".to_string(),
            "advance the 2nd Corps to the ridge".to_string(),
        ];
        if state.secrets {
            v.push("roll secret 1d6 spotting".into());
            v.push("hidden the 3rd brigade slips into the wood at 0714".into());
        }
        if let Some((deck, _)) = state.cards.decks.iter().find(|(_, d)| !d.pool.is_empty()) {
            v.push(format!("draw 1 from {deck}"));
        }
        if let Some(h) = state.cards.hands.get(side.index()).and_then(|h| h.first()) {
            v.push(format!("play {}", h.card));
            v.push(format!("discard {}", h.card));
        }
        match state.sequence {
            Sequence::Simultaneous => v.push("end turn".into()),
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

    fn twin(&self, state: &State, viewer: Viewer, seed: u64) -> Option<State> {
        twin::twin(state, viewer, seed)
    }

    fn twin_kinds(&self, state: &State) -> Vec<&'static str> {
        twin::kinds(state)
    }

    fn secrets_differ(&self, a: &State, b: &State) -> Vec<&'static str> {
        twin::differ(a, b)
    }

    fn view(&self, state: &State, viewer: Viewer) -> View {
        let mut status = vec![match &state.finished {
            Some(_) => format!("The game is over after turn {}.", state.turn - 1),
            None if state.sequence == Sequence::Simultaneous => {
                let done: Vec<&str> = (0..state.sides.len())
                    .filter(|&i| state.done[i])
                    .map(|i| state.sides[i].as_str())
                    .collect();
                format!(
                    "Turn {}{}; every side gives sealed orders{}.",
                    state.turn,
                    state
                        .last_turn
                        .map(|l| format!(" of {l}"))
                        .unwrap_or_default(),
                    if done.is_empty() {
                        String::new()
                    } else {
                        format!(" (done: {})", done.join(", "))
                    }
                )
            }
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
                Sequence::Simultaneous => "simultaneous, sealed",
            }
        ));
        status.extend(state.cards.status(&state.sides, viewer));
        status.extend(hidden_orders(state, viewer));
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

/// The hidden orders `viewer` may read: a side its own, the umpire every
/// side's (each named), the public none.
fn hidden_orders(state: &State, viewer: Viewer) -> Vec<String> {
    let mut out = Vec::new();
    let mine = |who: &String| match viewer {
        Viewer::Side(s) => state.sides[s.index()] == *who,
        Viewer::Umpire => true,
        Viewer::Public => false,
    };
    for (who, turn, t) in state.hidden.iter().filter(|(who, _, _)| mine(who)) {
        out.push(match viewer {
            Viewer::Umpire => format!("  {who}, turn {turn}: {t}"),
            _ => format!("  turn {turn}: {t}"),
        });
    }
    if !out.is_empty() {
        out.insert(
            0,
            match viewer {
                Viewer::Umpire => "Hidden orders (the umpire's view):".into(),
                _ => "Your hidden orders (the umpire alone sees them):".into(),
            },
        );
    }
    out
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
        assert_eq!(parse_dice("1d6+99999999999999999999"), None);
        assert_eq!(parse_dice("2d"), None);
    }
}
