//! Decks and hands for freeform games: `deck.NAME=a,b,c` at creation, then
//! `draw 2 from NAME` (seen by the drawer alone), `reveal`, `play`, `discard`
//! (face down), `give CARD to SIDE` and `shuffle NAME`. Hands are hidden
//! information: each side sees its own, and the others' only as counts.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use umpire_core::audience::Audience;
use umpire_core::deck::{DrawError, Pool};
use umpire_core::dice::{Dice, RollRef};
use umpire_core::ruleset::{Event, RuleError, Side};

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
    /// The draw that put it in a hand (version 2 on), disclosed when the card
    /// is revealed or played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drawn: Option<RollRef>,
}

/// All decks and hands of a game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cards {
    pub decks: BTreeMap<String, Deck>,
    /// Per side, in the order of the game's sides.
    pub hands: Vec<Vec<Held>>,
    /// Cards each side draws at the start (`hand.NAME=N`), by deck.
    pub deal: BTreeMap<String, u32>,
    /// Draws commit to the card by name and showing a card discloses its draw
    /// (ruleset version 2 on; false keeps version 1's state and rolls).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub commit: bool,
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
            RuleError::unruled(format!("no deck {name:?}; decks are {}", known.join(", ")))
        })
    }

    /// Takes `card` out of `side`'s hand.
    fn take(&mut self, side: Side, card: &str) -> Result<Held, RuleError> {
        let hand = self.hand(side);
        match hand.iter().position(|h| h.card.eq_ignore_ascii_case(card)) {
            Some(i) => Ok(hand.remove(i)),
            None => Err(RuleError::unruled(format!("you hold no card {card:?}"))),
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
            return Err(RuleError::unruled(format!(
                "{deck} holds {} cards, not {count}",
                d.pool.len()
            )));
        }
        let commit = self.commit;
        let d = self.deck(deck)?;
        let mut drawn = Vec::new();
        for _ in 0..count {
            let (card, roll) = if commit {
                d.pool
                    .draw_named(dice, Audience::side(side), deck, |c| c.clone())
            } else {
                d.pool
                    .draw(dice, Audience::side(side), deck)
                    .map(|c| (c, None))
            }
            .map_err(|e| match e {
                DrawError::Dice(d) => RuleError::Dice(d),
                other => RuleError::unruled(other.to_string()),
            })?;
            drawn.push(Held {
                deck: deck.to_string(),
                card,
                drawn: roll,
            });
        }
        let left = d.pool.len();
        let names: Vec<&str> = drawn.iter().map(|h| h.card.as_str()).collect();
        let names = names.join(", ");
        self.hand(side).extend(drawn);
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
                    .ok_or_else(|| RuleError::unruled(format!("you hold no card {card:?}")))?;
                if let Some(r) = h.drawn {
                    dice.disclose(r);
                }
                Ok(vec![Event::say(format!(
                    "{me} reveals {} (from {})",
                    h.card, h.deck
                ))])
            }
            CardOrder::Play(card) => {
                let h = self.take(side, card)?;
                if let Some(r) = h.drawn {
                    dice.disclose(r);
                }
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
    pub fn status(&self, names: &[String], viewer: umpire_core::ruleset::Viewer) -> Vec<String> {
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
            if viewer.sees_own(Side(i as u8)) {
                let cards: Vec<&str> = hand.iter().map(|h| h.card.as_str()).collect();
                let whose = match viewer.side() {
                    Some(_) => "Your hand".to_string(),
                    None => format!("{}'s hand", names[i]),
                };
                out.push(format!(
                    "{whose} ({}): {}",
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cards(commit: bool) -> Cards {
        let mut c = Cards {
            hands: vec![Vec::new(), Vec::new()],
            commit,
            ..Default::default()
        };
        c.option("deck.main", "a,b,c,d,e").unwrap();
        c
    }

    fn dice() -> Dice {
        Dice::seeded([1; 32])
            .with_hidden(vec![Some([2; 32]), Some([3; 32]), Some([4; 32])])
            .at(7)
    }

    fn names() -> Vec<String> {
        vec!["red".into(), "blue".into()]
    }

    // Issue 14, early disclosure: from version 2 a draw names its card in the
    // sealed roll, and playing the card discloses that roll.
    #[test]
    fn a_played_card_discloses_the_draw_that_committed_to_it() {
        let mut c = cards(true);
        let mut d = dice();
        let draw = CardOrder::Draw {
            count: 2,
            deck: "main".into(),
        };
        c.apply(Side(0), "red", &names(), &draw, &mut d).unwrap();
        let hand = c.hands[0].clone();
        assert_eq!(d.rolls()[1].item.as_deref(), Some(hand[1].card.as_str()));
        assert_eq!(
            hand[1].drawn,
            Some(RollRef {
                position: 7,
                index: 1
            })
        );
        let mut later = dice();
        let play = CardOrder::Play(hand[1].card.clone());
        c.apply(Side(0), "red", &names(), &play, &mut later)
            .unwrap();
        assert_eq!(later.disclosed(), &[hand[1].drawn.unwrap()]);
        // A face-down discard discloses nothing.
        let mut later = dice();
        let discard = CardOrder::Discard(hand[0].card.clone());
        c.apply(Side(0), "red", &names(), &discard, &mut later)
            .unwrap();
        assert!(later.disclosed().is_empty());
    }

    // Version 1 games keep their rolls and states: no names, no disclosure.
    #[test]
    fn version_one_draws_neither_name_nor_disclose() {
        let mut c = cards(false);
        let mut d = dice();
        let draw = CardOrder::Draw {
            count: 1,
            deck: "main".into(),
        };
        c.apply(Side(0), "red", &names(), &draw, &mut d).unwrap();
        assert_eq!(d.rolls()[0].item, None);
        assert_eq!(c.hands[0][0].drawn, None);
        let card = c.hands[0][0].card.clone();
        let mut later = dice();
        c.apply(Side(0), "red", &names(), &CardOrder::Play(card), &mut later)
            .unwrap();
        assert!(later.disclosed().is_empty());
        assert!(!serde_json::to_string(&c).unwrap().contains("commit"));
    }
}
