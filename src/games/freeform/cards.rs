//! Decks and hands for freeform games: `deck.NAME=a,b,c` at creation, then
//! `draw 2 from NAME` (seen by the drawer alone), `reveal`, `play`, `discard`
//! (face down), `give CARD to SIDE` and `shuffle NAME`. Hands are hidden
//! information: each side sees its own, and the others' only as counts.

use crate::core::audience::Audience;
use crate::core::deck::{DrawError, Pool};
use crate::core::dice::Dice;
use crate::core::ruleset::{Event, RuleError, Side};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most cards a deck may be declared with.
pub const MAX_CARDS: usize = 500;

/// One deck: the cards left to draw and its discard piles.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    pub pool: Pool<String>,
    /// Played cards, face up.
    pub played: Vec<String>,
    /// Discarded cards, face down.
    pub discarded: Vec<String>,
}

/// A card in a hand, with the deck it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    pub deck: String,
    pub card: String,
}

/// All decks and hands of a game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cards {
    pub decks: BTreeMap<String, Deck>,
    /// Per side, in the order of the game's sides.
    pub hands: Vec<Vec<Held>>,
    /// Cards each side draws at the start (`hand.NAME=N`), by deck.
    pub deal: BTreeMap<String, u32>,
}

/// A card order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardOrder {
    Draw { count: u32, deck: String },
    Reveal(String),
    Play(String),
    Discard(String),
    Give { card: String, to: Side },
    Shuffle(String),
}

impl Cards {
    /// Reads `deck.NAME=a,b,c` and `hand.NAME=N` options; false if `key` is neither.
    pub fn option(&mut self, key: &str, value: &str) -> Result<bool, String> {
        if let Some(name) = key.strip_prefix("deck.") {
            let cards: Vec<String> = value
                .split(',')
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect();
            if name.is_empty() || cards.is_empty() || cards.len() > MAX_CARDS {
                return Err(format!(
                    "deck.{name}: name a deck and give it 1 to {MAX_CARDS} cards, comma-separated"
                ));
            }
            self.decks.insert(
                name.to_ascii_lowercase(),
                Deck {
                    pool: Pool::new(cards),
                    ..Default::default()
                },
            );
            return Ok(true);
        }
        if let Some(name) = key.strip_prefix("hand.") {
            let n: u32 = value
                .parse()
                .map_err(|_| format!("hand.{name}={value:?}: give a number of cards"))?;
            self.deal.insert(name.to_ascii_lowercase(), n);
            return Ok(true);
        }
        Ok(false)
    }

    /// Checks the options together (every `hand.` names a deck).
    pub fn check(&self, sides: usize) -> Result<(), String> {
        for (deck, n) in &self.deal {
            let Some(d) = self.decks.get(deck) else {
                return Err(format!("hand.{deck}: there is no deck.{deck}"));
            };
            if *n as usize * sides > d.pool.len() {
                return Err(format!(
                    "hand.{deck}={n}: {sides} sides need {} cards, the deck has {}",
                    *n as usize * sides,
                    d.pool.len()
                ));
            }
        }
        Ok(())
    }

    /// Anything to hide?
    pub fn in_use(&self) -> bool {
        !self.decks.is_empty()
    }

    /// Deals the starting hands (`hand.NAME=N`), each side's draws seen by it alone.
    pub fn deal(&mut self, names: &[String], dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
        let mut ev = Vec::new();
        for (deck, n) in self.deal.clone() {
            for (i, name) in names.iter().enumerate() {
                ev.extend(self.draw(Side(i as u8), name, n, &deck, dice)?);
            }
        }
        Ok(ev)
    }

    fn hand(&mut self, side: Side) -> &mut Vec<Held> {
        &mut self.hands[side.index()]
    }

    fn deck(&mut self, name: &str) -> Result<&mut Deck, RuleError> {
        let known: Vec<String> = self.decks.keys().cloned().collect();
        self.decks.get_mut(name).ok_or_else(|| {
            RuleError::illegal(
                format!("no deck {name:?}; decks are {}", known.join(", ")),
                "",
            )
        })
    }

    /// Takes `card` out of `side`'s hand.
    fn take(&mut self, side: Side, card: &str) -> Result<Held, RuleError> {
        let hand = self.hand(side);
        match hand.iter().position(|h| h.card.eq_ignore_ascii_case(card)) {
            Some(i) => Ok(hand.remove(i)),
            None => Err(RuleError::illegal(format!("you hold no card {card:?}"), "")),
        }
    }

    fn draw(
        &mut self,
        side: Side,
        me: &str,
        count: u32,
        deck: &str,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        let d = self.deck(deck)?;
        if count as usize > d.pool.len() {
            return Err(RuleError::illegal(
                format!("{deck} holds {} cards, not {count}", d.pool.len()),
                "",
            ));
        }
        let drawn = d
            .pool
            .draw_n(count as usize, dice, Audience::side(side), deck)
            .map_err(|e| match e {
                DrawError::Dice(d) => RuleError::Dice(d),
                other => RuleError::illegal(other.to_string(), ""),
            })?;
        let left = d.pool.len();
        let names = drawn.join(", ");
        self.hand(side).extend(drawn.into_iter().map(|card| Held {
            deck: deck.to_string(),
            card,
        }));
        Ok(vec![
            Event::say(format!("{me} draws {count} from {deck} ({left} left)")),
            Event::say(format!("You draw: {names}")).to(Audience::side(side)),
        ])
    }

    /// Carries out a card order of `side` (named `me`).
    pub fn apply(
        &mut self,
        side: Side,
        me: &str,
        names: &[String],
        order: &CardOrder,
        dice: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        match order {
            CardOrder::Draw { count, deck } => self.draw(side, me, *count, deck, dice),
            CardOrder::Reveal(card) => {
                let h = self
                    .hands
                    .get(side.index())
                    .and_then(|hand| hand.iter().find(|h| h.card.eq_ignore_ascii_case(card)))
                    .cloned()
                    .ok_or_else(|| RuleError::illegal(format!("you hold no card {card:?}"), ""))?;
                Ok(vec![Event::say(format!(
                    "{me} reveals {} (from {})",
                    h.card, h.deck
                ))])
            }
            CardOrder::Play(card) => {
                let h = self.take(side, card)?;
                let text = format!("{me} plays {} (to the {} pile)", h.card, h.deck);
                self.deck(&h.deck)?.played.push(h.card);
                Ok(vec![Event::say(text)])
            }
            CardOrder::Discard(card) => {
                let h = self.take(side, card)?;
                let private = format!("You discard {} face down", h.card);
                self.deck(&h.deck)?.discarded.push(h.card);
                Ok(vec![
                    Event::say(format!("{me} discards a card face down")),
                    Event::say(private).to(Audience::side(side)),
                ])
            }
            CardOrder::Give { card, to } => {
                let h = self.take(side, card)?;
                let them = names[to.index()].clone();
                let private = format!("{me} gives {} to {them}", h.card);
                self.hand(*to).push(h);
                Ok(vec![
                    Event::say(format!("{me} gives a card to {them}")),
                    Event::say(private).to(Audience::sides([side, *to])),
                ])
            }
            CardOrder::Shuffle(deck) => {
                let d = self.deck(deck)?;
                let back = d.played.len() + d.discarded.len();
                for c in d.played.drain(..).chain(d.discarded.drain(..)) {
                    d.pool.put(c);
                }
                Ok(vec![Event::say(format!(
                    "{me} shuffles {back} discards back into {deck} ({} to draw)",
                    d.pool.len()
                ))])
            }
        }
    }

    /// Who may read the order line.
    pub fn audience(order: &CardOrder, side: Side) -> Audience {
        match order {
            CardOrder::Discard(_) => Audience::side(side),
            CardOrder::Give { to, .. } => Audience::sides([side, *to]),
            _ => Audience::All,
        }
    }

    /// Status lines for `viewer`: its own hand, the others' counts, the decks.
    pub fn status(&self, names: &[String], viewer: Option<Side>) -> Vec<String> {
        let mut out = Vec::new();
        for (name, d) in &self.decks {
            let mut l = format!("Deck {name}: {} to draw", d.pool.len());
            if !d.played.is_empty() {
                l.push_str(&format!("; played: {}", d.played.join(", ")));
            }
            if !d.discarded.is_empty() {
                l.push_str(&format!("; {} discarded face down", d.discarded.len()));
            }
            out.push(l);
        }
        for (i, hand) in self.hands.iter().enumerate() {
            if viewer == Some(Side(i as u8)) {
                let cards: Vec<&str> = hand.iter().map(|h| h.card.as_str()).collect();
                out.push(format!(
                    "Your hand ({}): {}",
                    cards.len(),
                    if cards.is_empty() {
                        "empty".to_string()
                    } else {
                        cards.join(", ")
                    }
                ));
            } else if !self.decks.is_empty() {
                out.push(format!("{} holds {} cards", names[i], hand.len()));
            }
        }
        out
    }
}
