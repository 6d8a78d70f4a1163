//! Twins for the noninterference test (`Ruleset::twin`): Lest Darkness Fall
//! hides the chit hands (10.9: their counts are public) and each player's
//! standing orders. A twin for a viewer swaps the other player's chits (the
//! public's: both players') with chits of the pool, keeping each hand's
//! size and the pool's, and gives the other player other standing
//! thresholds (N2, N4, N5, 8.8). Chits are drawn by a roll when drawn, so
//! the pool has no order to hide.

use super::state::{Item, Player, State};
use umpire_core::ruleset::{Side, Viewer};
use umpire_core::twin::Mix;

const HAND: &str = "hand";
const STANDING: &str = "standing orders";

/// A twin of `st` for `viewer` (none for the umpire).
pub fn twin(st: &State, viewer: Viewer, seed: u64) -> Option<State> {
    if viewer == Viewer::Umpire {
        return None;
    }
    let mut t = st.clone();
    let mut mix = Mix::new(seed);
    for p in [Player::Roman, Player::Gp] {
        if viewer.sees_own(Side(p.index() as u8)) {
            continue;
        }
        swap_hand(&mut t, p, &mut mix);
        let s = &mut t.standing[p.index()];
        s.sponsor_at = s.sponsor_at + 1 + mix.below(5) as u32;
        s.salt_treachery = (s.salt_treachery + 1 + mix.below(3) as u32) % 7;
        s.salt_diplomacy = (s.salt_diplomacy + 1 + mix.below(3) as u32) % 7;
        s.tsnp_at = 1 + (s.tsnp_at + mix.below(4) as u32) % 6;
        s.shift_at = (s.shift_at + 1 + mix.below(3) as u32) % 6;
        s.resalt = (s.resalt + 1) % 4;
        s.agents = !s.agents;
    }
    Some(t)
}

/// Swaps each chit of `p`'s hand with a chit of the pool, where the pool
/// has one; the pool stays sorted, each chit keeps its draw.
fn swap_hand(t: &mut State, p: Player, mix: &mut Mix) {
    let hand = t.hands[p.index()].clone();
    let mut out = Vec::new();
    for c in hand {
        let pool: Vec<usize> = (0..t.pool.len())
            .filter(|i| matches!(t.pool[*i], Item::Chit(_)))
            .collect();
        if pool.is_empty() || mix.one_in(4) {
            out.push(c);
            continue;
        }
        let i = pool[mix.below(pool.len())];
        let Item::Chit(n) = t.pool[i] else {
            out.push(c);
            continue;
        };
        t.pool[i] = Item::Chit(c);
        if let Some(r) = t.drawn.remove(&c) {
            t.drawn.insert(n, r);
        }
        for f in t.fresh.iter_mut().filter(|f| **f == c) {
            *f = n;
        }
        out.push(n);
    }
    t.hands[p.index()] = out;
    t.pool.sort();
}

/// The kinds of secret a twin varies.
pub fn kinds() -> Vec<&'static str> {
    vec![HAND, STANDING]
}

/// The kinds of secret in which `a` and `b` differ.
pub fn differ(a: &State, b: &State) -> Vec<&'static str> {
    let mut v = Vec::new();
    if a.hands != b.hands {
        v.push(HAND);
    }
    if a.standing != b.standing {
        v.push(STANDING);
    }
    v
}
