//! Twins for the noninterference test (`Ruleset::twin`): Strike on Sarhu
//! hides nothing but each side's standing orders (losses, rout,
//! displacement and initiative policies, and their priority lists); a twin
//! for a viewer gives the other side (the public: both) other ones.

use super::data::Faction;
use super::standing::{InitiativePolicy, Policy, Standing};
use super::state::State;
use umpire_core::ruleset::{Side, Viewer};
use umpire_core::twin::Mix;

/// The kind of secret a twin varies.
const STANDING: &str = "standing orders";

/// A twin of `st` for `viewer` (none for the umpire).
pub fn twin(st: &State, viewer: Viewer, seed: u64) -> Option<State> {
    if viewer == Viewer::Umpire {
        return None;
    }
    let mut t = st.clone();
    let mut mix = Mix::new(seed);
    for f in Faction::ALL {
        if !viewer.sees_own(Side(f.index() as u8)) {
            t.standing[f.index()] = other(&st.standing[f.index()], &mut mix);
        }
    }
    Some(t)
}

/// Standing orders unlike `s`: each policy picked anew (never the same as
/// all of `s`'s), the priority lists reversed.
fn other(s: &Standing, mix: &mut Mix) -> Standing {
    let policy = |mix: &mut Mix, flip: bool| {
        let all: &[Policy] = if flip {
            &[Policy::Auto, Policy::FlipFirst, Policy::Ask]
        } else {
            &[Policy::Auto, Policy::Ask]
        };
        all[mix.below(all.len())]
    };
    let initiative = [
        InitiativePolicy::First,
        InitiativePolicy::Second,
        InitiativePolicy::Ask,
    ];
    let mut t = Standing {
        losses: policy(mix, true),
        loss_priority: s.loss_priority.iter().rev().copied().collect(),
        rout: policy(mix, false),
        rout_priority: s.rout_priority.iter().rev().copied().collect(),
        displace: policy(mix, false),
        displace_to: s.displace_to.iter().rev().cloned().collect(),
        initiative: initiative[mix.below(3)],
    };
    if t == *s {
        t.initiative = match s.initiative {
            InitiativePolicy::First => InitiativePolicy::Second,
            _ => InitiativePolicy::First,
        };
    }
    t
}

/// The kinds of secret a twin varies.
pub fn kinds() -> Vec<&'static str> {
    vec![STANDING]
}

/// The kinds of secret in which `a` and `b` differ.
pub fn differ(a: &State, b: &State) -> Vec<&'static str> {
    if a.standing != b.standing {
        vec![STANDING]
    } else {
        Vec::new()
    }
}
