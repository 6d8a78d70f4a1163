//! Removal orders and Activation, shared by Operations, Special Activities
//! and Events (1.4.1, 1.4.3, 3.2.4, 3.3.3).

use super::data::{Data, SpaceNo};
use super::pieces::{Faction, Kind, Piece};
use super::state::State;
use umpire_core::dice::Dice;
use umpire_core::ruleset::RuleError;

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
pub fn next_piece(st: &State, s: SpaceNo, target: Faction, reach: Reach) -> Option<Piece> {
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

/// Who picks the pieces that go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// A player: the targeted factions in the order named, each faction's
    /// pieces in the rules' order (Active before Underground, Police first).
    Player,
    /// A Non-player, by the 8.1 GUIDELINES: enemy players before Non-players,
    /// enemy Bases before other pieces, Underground before Active Guerrillas,
    /// Police then Troops evenly (each space).
    NonPlayer,
}

impl By {
    /// How `f` removes pieces: by the guidelines if it is a Non-player.
    pub fn of(st: &State, f: Faction) -> By {
        if st.seats.is_np(f) {
            By::NonPlayer
        } else {
            By::Player
        }
    }
}

/// The next piece of `target` a Non-player takes in `s` (8.1 GUIDELINES),
/// within what the rules allow (`next_piece`); `gone` is what it took there.
fn next_np(st: &State, s: SpaceNo, target: Faction, reach: Reach, gone: &[Piece]) -> Option<Piece> {
    let p = &st[s].pieces;
    match target {
        Faction::Taliban | Faction::Warlords if reach == Reach::Any => {
            let (u, a) = Piece::guerrillas(target)?;
            if p[u] > 0 {
                Some(u)
            } else if p[a] > 0 {
                Some(a)
            } else {
                next_piece(st, s, target, reach)
            }
        }
        Faction::Government if p[Piece::Police] > 0 && p[Piece::GovTroops] > 0 => {
            let n = |k: Piece| gone.iter().filter(|x| **x == k).count();
            Some(if n(Piece::Police) <= n(Piece::GovTroops) {
                Piece::Police
            } else {
                Piece::GovTroops
            })
        }
        _ => next_piece(st, s, target, reach),
    }
}

/// The next piece to go, by `by`: for a Non-player, enemy players' pieces
/// before Non-players', a Base before other pieces, and "otherwise select
/// randomly among enemy Factions" (8.1 GUIDELINES): a labelled, public roll
/// among the factions still equal.
fn next_of(
    d: &Data,
    st: &State,
    s: SpaceNo,
    r: &Removal,
    gone: &[Piece],
    dice: &mut Dice,
) -> Result<Option<Piece>, RuleError> {
    let (targets, reach) = (r.targets, r.reach);
    if r.by == By::Player {
        return Ok(targets.iter().find_map(|f| next_piece(st, s, *f, reach)));
    }
    let rank = |np: bool, p: Piece| (np, p.kind() != Kind::Base);
    let options: Vec<((bool, bool), Piece)> = targets
        .iter()
        .filter_map(|f| {
            let np = st.seats.is_np(*f);
            next_np(st, s, *f, reach, gone).map(|p| (rank(np, p), p))
        })
        .collect();
    let Some(best) = options.iter().map(|(k, _)| *k).min() else {
        return Ok(None);
    };
    let tied: Vec<Piece> = options
        .into_iter()
        .filter(|(k, _)| *k == best)
        .map(|(_, p)| p)
        .collect();
    if tied.len() == 1 {
        return Ok(Some(tied[0]));
    }
    let names: Vec<&str> = tied.iter().map(|p| p.faction().name()).collect();
    let r = dice.roll(
        tied.len() as u32,
        &format!(
            "8.1: the Non-player removes in {} from one of {}, at random",
            d[s].name,
            names.join(", ")
        ),
    )?;
    Ok(Some(
        tied[(r as usize).saturating_sub(1).min(tied.len() - 1)],
    ))
}

/// What a removal takes: up to `n` pieces of the `targets` in one space.
#[derive(Clone, Copy, Debug)]
pub struct Removal<'a> {
    /// How many at most.
    pub n: u32,
    /// The targeted factions, in the order a player named them.
    pub targets: &'a [Faction],
    /// Which pieces the attacker may take.
    pub reach: Reach,
    /// Coalition pieces go to Casualties (3.3.3).
    pub casualties: bool,
    /// Who picks.
    pub by: By,
}

/// Removes up to `r.n` pieces of the targeted factions from `s`, to the
/// maximum extent (1.4.1), in the order `r.by` picks (a Non-player may roll
/// among equal enemy factions, 8.1). Returns what went.
pub fn remove_up_to(
    d: &Data,
    st: &mut State,
    s: SpaceNo,
    r: Removal,
    dice: &mut Dice,
) -> Result<Vec<Piece>, RuleError> {
    let mut gone = Vec::new();
    while (gone.len() as u32) < r.n {
        let Some(p) = next_of(d, st, s, &r, &gone, dice)? else {
            break;
        };
        st.remove(s, p, 1, r.casualties);
        gone.push(p);
    }
    Ok(gone)
}

/// Activates up to `n` Underground Guerrillas of the factions, in order
/// (ruling A44: Underground ones first, to the maximum extent). Returns how many.
pub fn activate(st: &mut State, s: SpaceNo, n: u32, factions: &[Faction]) -> u32 {
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
pub fn flip_underground(st: &mut State, s: SpaceNo, f: Faction) -> u8 {
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
