//! Removal orders and Activation, shared by Operations, Special Activities
//! and Events (1.4.1, 1.4.3, 3.2.4, 3.3.3).

use super::data::SpaceId;
use super::pieces::{Faction, Piece};
use super::state::State;

/// Which pieces an attacker may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// COIN Assault and Air Strike: Active Guerrillas, then Bases once the
    /// faction has no Guerrillas there (3.2.4).
    ActiveOnly,
    /// Insurgent Attack: any enemy piece; Insurgent Bases after that faction's
    /// Guerrillas, COIN Bases after all cubes, Government cubes before
    /// Coalition cubes (3.3.3).
    Any,
}

/// The next piece of `target` that may go in `s`, if any.
pub fn next_piece(st: &State, s: SpaceId, target: Faction, reach: Reach) -> Option<Piece> {
    let p = &st[s].pieces;
    let has = |x: Piece| p[x] > 0;
    match target {
        Faction::Taliban | Faction::Warlords => {
            let (u, a) = Piece::guerrillas(target)?;
            let base = Piece::base(target);
            if has(a) {
                Some(a)
            } else if has(u) {
                (reach == Reach::Any).then_some(u)
            } else if has(base) {
                Some(base)
            } else {
                None
            }
        }
        Faction::Government => {
            if has(Piece::Police) {
                Some(Piece::Police)
            } else if has(Piece::GovTroops) {
                Some(Piece::GovTroops)
            } else if has(Piece::GovBase) && p.cubes() == 0 {
                Some(Piece::GovBase)
            } else {
                None
            }
        }
        Faction::Coalition => {
            if has(Piece::CoalTroops) && p.gov_cubes() == 0 {
                Some(Piece::CoalTroops)
            } else if has(Piece::CoalBase) && p.cubes() == 0 {
                Some(Piece::CoalBase)
            } else {
                None
            }
        }
    }
}

/// Removes up to `n` pieces of the targeted factions (tried in order) from
/// `s`, to the maximum extent (1.4.1). Coalition pieces go to Casualties if
/// `casualties` (3.3.3). Returns what went.
pub fn remove_up_to(
    st: &mut State,
    s: SpaceId,
    n: u32,
    targets: &[Faction],
    reach: Reach,
    casualties: bool,
) -> Vec<Piece> {
    let mut gone = Vec::new();
    while (gone.len() as u32) < n {
        let Some(p) = targets.iter().find_map(|f| next_piece(st, s, *f, reach)) else {
            break;
        };
        st.remove(s, p, 1, casualties);
        gone.push(p);
    }
    gone
}

/// Activates up to `n` Underground Guerrillas of the factions, in order
/// (ruling A44: Underground ones first, to the maximum extent). Returns how many.
pub fn activate(st: &mut State, s: SpaceId, n: u32, factions: &[Faction]) -> u32 {
    let mut done = 0;
    for f in factions {
        let Some((u, a)) = Piece::guerrillas(*f) else {
            continue;
        };
        let k = (n - done).min(u32::from(st[s].pieces[u])) as u8;
        st[s].pieces[u] -= k;
        st[s].pieces[a] += k;
        done += u32::from(k);
    }
    done
}

/// Flips all of a faction's Guerrillas in `s` Underground.
pub fn flip_underground(st: &mut State, s: SpaceId, f: Faction) -> u8 {
    let Some((u, a)) = Piece::guerrillas(f) else {
        return 0;
    };
    let k = st[s].pieces[a];
    st[s].pieces[a] = 0;
    st[s].pieces[u] += k;
    k
}

/// Summarises removed pieces: `2 Tg, 1 TB`.
pub fn describe(gone: &[Piece]) -> String {
    let mut parts = Vec::new();
    for p in Piece::ALL {
        let n = gone.iter().filter(|x| **x == p).count();
        if n > 0 {
            parts.push(format!("{n} {}", p.label().trim_end_matches('*')));
        }
    }
    if parts.is_empty() {
        "nothing".into()
    } else {
        parts.join(", ")
    }
}
