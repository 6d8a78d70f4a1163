//! Twins for the noninterference test (`Ruleset::twin`). What a player may
//! not see in Asia Crossroads: the other's treasury, supply points and SP
//! bought (9.0, 17.1), his sealed economy orders (3.1[3]), his standing
//! orders, and what stands in the squares the viewer may not examine (22.1):
//! which units and which face-down agents, of each side shown there (ruling
//! A57). A twin for a viewer changes the figures and plans of every player
//! whose own they are not, and deals the units of each shown side anew
//! among the fogged squares that side occupies (each square keeps its
//! count of that side's units), the face-down agents standing alone of each
//! owner among their squares (each shows his flag, 22.3), and the face-down
//! agents in fogged stacks among all fogged stacks (there they show nothing,
//! ruling A57), so every square shows what it showed. Pieces the
//! viewer is setting up himself stay (he placed them, 26.0). The sealed
//! economy orders are the engine's until both are in (a sealed round), so
//! the state holds none at rest: a twin varies them only where it does.

use super::data::{Data, Power};
use super::state::{AgentId, Loc, State};
use super::view::{can_examine, owns, side_tag};
use std::collections::BTreeMap;
use umpire_core::ruleset::Viewer;
use umpire_core::twin::Mix;

const FIGURES: &str = "treasury and supply points";
const PLANS: &str = "sealed economy orders";
const STANDING: &str = "standing orders";
const UNITS: &str = "units under fog";
const AGENTS: &str = "face-down agents under fog";

/// A twin of `st` for `viewer` (none for the umpire).
pub fn twin(d: &Data, st: &State, viewer: Viewer, seed: u64) -> Option<State> {
    if viewer == Viewer::Umpire {
        return None;
    }
    let mut t = st.clone();
    let mut mix = Mix::new(seed);
    for p in Power::ALL {
        if owns(viewer, p) {
            continue;
        }
        let i = p.index();
        t.treasury[i] += 1 + mix.below(60) as u32;
        t.sp[i] += 1 + mix.below(9) as u32;
        t.sp_bought[i] += mix.below(3) as u32;
        if !t.plans[i].is_empty() {
            t.plans[i].reverse();
            if t.plans[i] == st.plans[i] || mix.one_in(2) {
                t.plans[i].pop();
            }
        }
        let s = &mut t.standing[i];
        s.counter = !s.counter;
        s.withdraw = !s.withdraw;
        s.supply = !s.supply;
        s.execute = !s.execute;
    }
    deal_units(d, st, &mut t, viewer, &mut mix);
    deal_agents(d, st, &mut t, viewer, &mut mix);
    Some(t)
}

/// Is `loc` a square `viewer` may not examine?
fn fogged(d: &Data, st: &State, loc: Loc, viewer: Viewer) -> bool {
    loc.sq().is_some_and(|s| !can_examine(d, st, s, viewer))
}

/// The units and agents of the set-up choices the viewer is placing: he
/// knows where he put them (26.0).
fn placing(d: &Data, st: &State, viewer: Viewer) -> (Vec<usize>, Vec<usize>) {
    let mut units = Vec::new();
    let mut agents = Vec::new();
    for (g, pick) in st.sc(d).picks.iter().enumerate() {
        if let Some(pp) = st.picks.get(g)
            && owns(viewer, pick.setter)
        {
            units.extend(pp.units.iter().map(|u| u.index()));
            agents.extend(pp.agents.iter().map(|a| a.index()));
        }
    }
    (units, agents)
}

/// The units of each side shown under fog, dealt anew among their squares.
fn deal_units(d: &Data, st: &State, t: &mut State, viewer: Viewer, mix: &mut Mix) {
    let mut by_tag: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let (mine, _) = placing(d, st, viewer);
    for (i, u) in st.units.iter().enumerate() {
        if fogged(d, st, u.loc, viewer) && !mine.contains(&i) {
            by_tag.entry(side_tag(d, st, u.nat)).or_default().push(i);
        }
    }
    for units in by_tag.values() {
        let mut places: Vec<(Loc, bool)> = units
            .iter()
            .map(|i| (st.units[*i].loc, st.units[*i].moved))
            .collect();
        mix.shuffle(&mut places);
        for (i, (loc, moved)) in units.iter().zip(places) {
            t.units[*i].loc = loc;
            t.units[*i].moved = moved;
        }
    }
}

/// The face-down agents under fog, dealt anew: those standing alone among
/// the squares of their owner's lone agents, those in stacks among all the
/// fogged squares with units (the dealt units keep each square's count);
/// for the public, players' agents only among their owner's squares.
fn deal_agents(d: &Data, st: &State, t: &mut State, viewer: Viewer, mix: &mut Mix) {
    let mut alone: BTreeMap<Option<Power>, Vec<usize>> = BTreeMap::new();
    let mut stacked = Vec::new();
    let (_, mine) = placing(d, st, viewer);
    for (i, a) in st.agents.iter().enumerate() {
        if a.face_up || !fogged(d, st, a.loc, viewer) || mine.contains(&i) {
            continue;
        }
        let owner = st.agent_owner(d, AgentId(i as u16));
        // A player's agent lets him examine the square he stands on: for
        // the public (who sees where both may examine) only neutral agents
        // may change stacks.
        let free = viewer != Viewer::Public || owner.is_none();
        if st.units_at(a.loc).next().is_some() && free {
            stacked.push(i);
        } else {
            alone.entry(owner).or_default().push(i);
        }
    }
    for agents in alone.values() {
        let mut places: Vec<Loc> = agents.iter().map(|i| st.agents[*i].loc).collect();
        mix.shuffle(&mut places);
        for (i, loc) in agents.iter().zip(places) {
            t.agents[*i].loc = loc;
        }
    }
    let stacks: Vec<Loc> = st
        .units
        .iter()
        .map(|u| u.loc)
        .filter(|l| fogged(d, st, *l, viewer))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    for i in stacked {
        t.agents[i].loc = stacks[mix.below(stacks.len())];
    }
}

/// The kinds of secret a twin varies (the sealed plans only where the state
/// holds them, so they are not claimed).
pub fn kinds() -> Vec<&'static str> {
    vec![FIGURES, STANDING, UNITS, AGENTS]
}

/// The kinds of secret in which `a` and `b` differ.
pub fn differ(a: &State, b: &State) -> Vec<&'static str> {
    let mut v = Vec::new();
    if a.treasury != b.treasury || a.sp != b.sp {
        v.push(FIGURES);
    }
    if a.plans != b.plans {
        v.push(PLANS);
    }
    if a.standing != b.standing {
        v.push(STANDING);
    }
    if a.units.iter().zip(&b.units).any(|(x, y)| x.loc != y.loc) {
        v.push(UNITS);
    }
    if a.agents.iter().zip(&b.agents).any(|(x, y)| x.loc != y.loc) {
        v.push(AGENTS);
    }
    v
}
