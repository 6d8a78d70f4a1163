//! Twins for the noninterference test (`Ruleset::twin`): for a viewer, the
//! other sides' hands and face-down discards (each card swapped with one
//! still to draw from its deck), the order of the cards still to draw, and
//! the text of the other sides' hidden orders. The sealed orders of a
//! simultaneous round are the engine's, not the state's: the test varies
//! them as moves.

use super::State;
use umpire_core::deck::Pool;
use umpire_core::ruleset::{Side, Viewer};
use umpire_core::twin::Mix;

/// Kinds of secret a twin varies.
const HANDS: &str = "hands";
const DISCARDS: &str = "face-down discards";
const DECK_ORDER: &str = "deck order";
const HIDDEN_ORDERS: &str = "hidden orders";

/// A twin of `state` for `viewer` (none for the umpire, or when the game
/// keeps no secrets).
pub fn twin(state: &State, viewer: Viewer, seed: u64) -> Option<State> {
    if viewer == Viewer::Umpire || !state.secrets {
        return None;
    }
    let mut t = state.clone();
    let mut mix = Mix::new(seed);
    let theirs = |who: &str| match viewer.side() {
        Some(s) => state.sides[s.index()] != who,
        None => true,
    };
    for (who, turn, text) in t.hidden.iter_mut() {
        if theirs(who) {
            *text = format!("twin {} of turn {turn}: {}", mix.word() % 1000, text.len());
        }
    }
    swap_cards(&mut t, viewer, &mut mix);
    for deck in t.cards.decks.values_mut() {
        let mut items = deck.pool.items().to_vec();
        mix.shuffle(&mut items);
        deck.pool = Pool::new(items);
    }
    Some(t)
}

/// Swaps each card of the other sides' hands, and each face-down discard,
/// with a card still to draw from the same deck, where the deck has one.
fn swap_cards(t: &mut State, viewer: Viewer, mix: &mut Mix) {
    for (i, hand) in t.cards.hands.iter_mut().enumerate() {
        if viewer.sees_own(Side(i as u8)) {
            continue;
        }
        for held in hand.iter_mut() {
            let Some(deck) = t.cards.decks.get_mut(&held.deck) else {
                continue;
            };
            if let Some(card) = swap_in(&mut deck.pool, &held.card, mix) {
                held.card = card;
            }
        }
    }
    for deck in t.cards.decks.values_mut() {
        for card in deck.discarded.iter_mut() {
            if let Some(c) = swap_in(&mut deck.pool, card, mix) {
                *card = c;
            }
        }
    }
}

/// Puts `card` into `pool` in place of a random card of it, returned.
fn swap_in(pool: &mut Pool<String>, card: &str, mix: &mut Mix) -> Option<String> {
    let mut items = pool.items().to_vec();
    if items.is_empty() {
        return None;
    }
    let k = mix.below(items.len());
    let out = std::mem::replace(&mut items[k], card.to_string());
    *pool = Pool::new(items);
    Some(out)
}

/// The kinds of secret a twin varies in this game.
pub fn kinds(state: &State) -> Vec<&'static str> {
    let mut v = Vec::new();
    if state.secrets {
        v.push(HIDDEN_ORDERS);
    }
    if state.cards.in_use() {
        v.extend([HANDS, DISCARDS, DECK_ORDER]);
    }
    v
}

/// The kinds of secret in which `a` and `b` differ.
pub fn differ(a: &State, b: &State) -> Vec<&'static str> {
    let mut v = Vec::new();
    if a.hidden != b.hidden {
        v.push(HIDDEN_ORDERS);
    }
    if a.cards.hands != b.cards.hands {
        v.push(HANDS);
    }
    let decks = a.cards.decks.values().zip(b.cards.decks.values());
    if decks.clone().any(|(x, y)| x.discarded != y.discarded) {
        v.push(DISCARDS);
    }
    if decks.clone().any(|(x, y)| x.pool.items() != y.pool.items()) {
        v.push(DECK_ORDER);
    }
    v
}
