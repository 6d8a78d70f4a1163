//! The deck (2.1, 2.2), drawn verifiably. Deck preparation deals Events into
//! piles and shuffles one Propaganda card into each; the piles are stacked.
//! Here nothing is dealt in advance: each card is drawn at random, with public
//! labelled rolls, from what the current pile still holds — first whether it is
//! the pile's Propaganda card (one chance in the cards left in the pile), then
//! which of the Events not yet dealt. That is the same distribution as dealing
//! and shuffling, and every draw can be checked against the dice.

use super::data::{CardNo, Data};
use serde::{Deserialize, Serialize};
use umpire_core::audience::Audience;
use umpire_core::deck::{DrawError, Pool};
use umpire_core::dice::{Dice, DiceError};

/// One pile of the prepared deck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pile {
    /// Cards left in it.
    pub left: u8,
    /// Its Propaganda card is still in it.
    pub propaganda: bool,
}

/// The draw pile, the cards shown, and what has been played (2.2, 2.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    /// Events not yet dealt, by number.
    pub pool: Pool<CardNo>,
    /// Propaganda cards not yet drawn, by number.
    pub props: Vec<CardNo>,
    /// The piles, top first.
    pub piles: Vec<Pile>,
    /// The card being played.
    pub current: Option<CardNo>,
    /// The next card, face up (2.2).
    pub next: Option<CardNo>,
    /// Cards played, in order.
    pub played: Vec<CardNo>,
    /// Propaganda cards in the prepared deck.
    pub props_total: u8,
    /// Propaganda cards drawn so far (shown or played).
    pub props_drawn: u8,
    /// The last card resolved was a Propaganda card (6.0).
    pub last_was_propaganda: bool,
}

impl Deck {
    /// The prepared deck of the data's scenario, nothing drawn yet.
    pub fn new(d: &Data) -> Deck {
        Deck::prepared(d, (d.scenario.piles, d.scenario.events_per_pile))
    }

    /// The deck of the data's short game (the `short` option), nothing
    /// drawn yet.
    pub fn short(d: &Data) -> Deck {
        Deck::prepared(d, d.scenario.short)
    }

    /// A deck of `piles` piles of `per_pile` Events, one Propaganda card
    /// shuffled into each (2.1).
    fn prepared(d: &Data, (piles, per_pile): (u8, u8)) -> Deck {
        let pool: Vec<CardNo> = d
            .cards
            .iter()
            .filter(|c| !c.is_propaganda())
            .map(|c| c.number)
            .collect();
        let props: Vec<CardNo> = d
            .cards
            .iter()
            .filter(|c| c.is_propaganda())
            .map(|c| c.number)
            .take(usize::from(piles))
            .collect();
        Deck {
            pool: Pool::new(pool),
            piles: (0..piles)
                .map(|_| Pile {
                    left: per_pile + 1,
                    propaganda: true,
                })
                .collect(),
            props_total: props.len() as u8,
            props,
            current: None,
            next: None,
            played: Vec::new(),
            props_drawn: 0,
            last_was_propaganda: false,
        }
    }

    /// Cards left in the draw pile (the shown next card not included).
    pub fn left(&self) -> u32 {
        self.piles.iter().map(|p| u32::from(p.left)).sum()
    }

    /// Draws the top card of the draw pile at random, with public rolls.
    pub fn draw(&mut self, dice: &mut Dice) -> Result<Option<CardNo>, DiceError> {
        let Some(i) = self.piles.iter().position(|p| p.left > 0) else {
            return Ok(None);
        };
        let n = self.piles.len();
        let pile = &mut self.piles[i];
        let left = pile.left;
        let is_prop = pile.propaganda
            && (left == 1
                || dice.roll(
                    u32::from(left),
                    &format!(
                        "deck: pile {} of {n} holds {left} cards; a 1 is its Propaganda card (2.1)",
                        i + 1
                    ),
                )? == 1);
        pile.left -= 1;
        let card = if is_prop {
            pile.propaganda = false;
            self.props_drawn += 1;
            (!self.props.is_empty()).then(|| self.props.remove(0))
        } else {
            match self
                .pool
                .draw(dice, Audience::All, "the Events not yet dealt (2.1)")
            {
                Ok(c) => Some(c),
                Err(DrawError::Empty(_)) => None,
                Err(DrawError::Dice(e)) => return Err(e),
            }
        };
        Ok(card)
    }

    /// Is the next card the last Propaganda card? Then the current card is the
    /// Final Event Card (2.3.8).
    pub fn next_is_final_propaganda(&self, d: &Data) -> bool {
        self.next
            .and_then(|n| d.card(n))
            .is_some_and(|c| c.is_propaganda())
            && self.props_drawn == self.props_total
            && self
                .current
                .and_then(|n| d.card(n))
                .is_some_and(|c| !c.is_propaganda())
    }

    /// Is the current card the last Propaganda card (2.4.1)?
    pub fn current_is_final_propaganda(&self, d: &Data) -> bool {
        self.current
            .and_then(|n| d.card(n))
            .is_some_and(|c| c.is_propaganda())
            && self.props_drawn == self.props_total
            && !self
                .next
                .and_then(|n| d.card(n))
                .is_some_and(|c| c.is_propaganda())
    }

    /// Propaganda cards still to come after the current card.
    pub fn props_to_come(&self, d: &Data) -> u8 {
        let next_prop = self
            .next
            .and_then(|n| d.card(n))
            .is_some_and(|c| c.is_propaganda());
        self.props_total - self.props_drawn + u8::from(next_prop)
    }
}
