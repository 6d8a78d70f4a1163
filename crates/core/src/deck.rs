//! Decks, cups and pools: things drawn at random, verifiably.
//!
//! A [`Pool`] is drawn from uniformly at random, one item per roll of a die
//! with as many faces as the pool holds. A shuffled deck whose cards are
//! turned up one at a time is the same thing drawn in turn: drawing each next
//! card uniformly from those left gives exactly the distribution of a shuffle,
//! and every draw is a labelled roll in the record, so anyone can check it.
//! A draw seen by some sides only (into a hidden hand) is rolled with
//! `Dice::roll_for`, from that audience's own committed stream.

use super::audience::Audience;
use super::dice::{Dice, DiceError, RollRef};
use serde::{Deserialize, Serialize};

/// A pool was asked for more than it holds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    #[error("{0} is empty")]
    Empty(String),
    #[error(transparent)]
    Dice(#[from] DiceError),
}

/// Items to draw at random, in a fixed order so the draws replay.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pool<T> {
    items: Vec<T>,
}

impl<T: Clone> Pool<T> {
    /// A pool holding `items` (their order only fixes which face draws which).
    pub fn new(items: Vec<T>) -> Pool<T> {
        Pool { items }
    }

    /// How many items are left.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Nothing left?
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The items left, in pool order.
    pub fn items(&self) -> &[T] {
        &self.items
    }

    /// Puts an item back (at the end: the order stays a function of the record).
    pub fn put(&mut self, item: T) {
        self.items.push(item);
    }

    /// Takes out the first item matching `f`, if any (a chosen card, not a draw).
    pub fn take(&mut self, f: impl Fn(&T) -> bool) -> Option<T> {
        let i = self.items.iter().position(f)?;
        Some(self.items.remove(i))
    }

    /// Draws one item at random, seen by `audience`. `name` names the pool in
    /// the roll's label and in errors. A pool of one item gives it up without a roll.
    pub fn draw(
        &mut self,
        dice: &mut Dice,
        audience: Audience,
        name: &str,
    ) -> Result<T, DrawError> {
        let i = match self.items.len() {
            0 => return Err(DrawError::Empty(name.to_string())),
            1 => 0,
            n => {
                let label = format!("draw from {name} ({n} left)");
                dice.roll_for(audience, n as u32, &label)? as usize - 1
            }
        };
        Ok(self.items.remove(i))
    }

    /// Draws one item like [`Pool::draw`], naming it in the roll (`item`) so the
    /// sealed roll commits to the item itself; returns where the roll sits, for
    /// a later [`Dice::disclose`]. A pool of one gives its item up without a
    /// roll, so there is nothing to disclose (`None`): the item is checked when
    /// the full record is published.
    pub fn draw_named(
        &mut self,
        dice: &mut Dice,
        audience: Audience,
        name: &str,
        item: impl Fn(&T) -> String,
    ) -> Result<(T, Option<RollRef>), DrawError> {
        let rolled = self.items.len() > 1;
        let t = self.draw(dice, audience, name)?;
        if !rolled {
            return Ok((t, None));
        }
        dice.name_last(&item(&t));
        Ok((t, dice.last_ref()))
    }

    /// Draws `n` items, one roll each.
    pub fn draw_n(
        &mut self,
        n: usize,
        dice: &mut Dice,
        audience: Audience,
        name: &str,
    ) -> Result<Vec<T>, DrawError> {
        (0..n)
            .map(|_| self.draw(dice, audience.clone(), name))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Side;

    #[test]
    fn draws_are_rolls_and_replay() {
        let mut pool = Pool::new((1..=24).collect::<Vec<u32>>());
        let mut dice =
            Dice::seeded([42; 32]).with_hidden(vec![Some([1; 32]), Some([2; 32]), Some([3; 32])]);
        let hand = pool
            .draw_n(5, &mut dice, Audience::side(Side(0)), "chit pool")
            .unwrap();
        assert_eq!(pool.len(), 19);
        assert_eq!(dice.count(), 5);
        assert_eq!(dice.rolls()[0].sides, 24);
        assert_eq!(dice.rolls()[4].sides, 20);
        assert!(
            dice.rolls()
                .iter()
                .all(|r| r.audience == Audience::side(Side(0)))
        );
        // The same stream gives the same hand; the recorded rolls replay it.
        let mut again = Pool::new((1..=24).collect::<Vec<u32>>());
        let mut replay = Dice::recorded(dice.rolls().to_vec());
        let same = again
            .draw_n(5, &mut replay, Audience::side(Side(0)), "chit pool")
            .unwrap();
        assert_eq!(same, hand);
    }

    #[test]
    fn the_last_item_needs_no_roll_and_an_empty_pool_says_so() {
        let mut pool = Pool::new(vec!["a"]);
        let mut dice = Dice::preview();
        assert_eq!(pool.draw(&mut dice, Audience::All, "deck").unwrap(), "a");
        assert_eq!(
            pool.draw(&mut dice, Audience::All, "deck"),
            Err(DrawError::Empty("deck".into()))
        );
    }

    #[test]
    fn a_game_without_hidden_dice_cannot_draw_in_secret() {
        let mut pool = Pool::new(vec![1, 2, 3]);
        let mut dice = Dice::seeded([0; 32]);
        assert!(matches!(
            pool.draw(&mut dice, Audience::side(Side(1)), "cup"),
            Err(DrawError::Dice(DiceError::NoHiddenDice(_)))
        ));
        assert!(pool.draw(&mut dice, Audience::All, "cup").is_ok());
    }
}
