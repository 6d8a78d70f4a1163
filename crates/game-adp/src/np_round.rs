//! A Non-player's part of a Propaganda Round (6.4, 8.1). A Non-player sends
//! no plan, but the 8.1 GUIDELINES still bind it: "carry out whatever
//! actions apply to the maximum extent ... only as long as needed pieces and
//! Resources are available". So a Non-player Coalition or Government buys
//! Civic Action (6.4.1) in every space it decides, and a Non-player Taliban
//! buys Sharia (6.4.2) in every space it Controls, while Resources last.
//!
//! Ruling A49 (the flowcharts, which would order the spaces, are missing):
//! the spaces go highest Pop first (the most victory per Resource, 1.9),
//! then in map order; each space as far as it goes (every Terror marker,
//! then every level), before the next. Before version 7 a Non-player bought
//! nothing here.
//!
//! The Redeploy Phase (6.5). Version 9 carries out a Non-player Coalition's
//! optional Redeploy the same way ([`redeploy`], ruling A51): every Troop it
//! may move (on a LoC or in a Province without a COIN Base) goes, except
//! those whose leaving would place or remove Control in their space (8.1
//! GUIDELINES), to the first legal destination in its `redeploy` order of
//! `games/adp/nonplayer.toml`, or, with none given (the embedded data), its
//! `spaces` order. The Government's optional Police moves stay undone:
//! Police may go from anywhere to anywhere COIN-Controlled, so "the maximum
//! extent" names no move. The mandatory moves follow the defaults (digest
//! D11). Version 8 and before moved no Coalition Troop.

use super::data::{Data, SpaceNo, Support};
use super::orders::PlanLine;
use super::pieces::{Faction, Kind, Piece};
use super::propaganda::{civic_decider, redeploy_legal};
use super::state::{Control, State, control_of};

/// The plan a Non-player `f` would send, from the position at the start of
/// the Support Phase (none for the Warlords, who have no part in 6.4).
pub fn plan(d: &Data, st: &State, f: Faction) -> Vec<PlanLine> {
    let line: fn(SpaceNo, u8) -> PlanLine = match f {
        Faction::Coalition | Faction::Government => PlanLine::Civic,
        Faction::Taliban => PlanLine::Sharia,
        Faction::Warlords => return Vec::new(),
    };
    let spaces: Vec<(SpaceNo, u8)> = d
        .ids()
        .filter(|s| decides(d, st, f, *s))
        .map(|s| (s, steps(d, st, f, s)))
        .filter(|(_, n)| *n > 0)
        .collect();
    let mut order: Vec<SpaceNo> = spaces.iter().map(|(s, _)| *s).collect();
    d.sort_spaces(st, &d.nonplayer[f.index()].support, &mut order);
    order
        .into_iter()
        .filter_map(|s| spaces.iter().find(|(x, _)| *x == s))
        .map(|(s, n)| line(*s, *n))
        .collect()
}

/// Does `f` decide the Support Phase's spending in `s` (6.4.1, ruling A29;
/// 6.4.2)?
fn decides(d: &Data, st: &State, f: Faction, s: SpaceNo) -> bool {
    match f {
        Faction::Taliban => d[s].has_control() && st[s].control == Control::Taliban,
        _ => civic_decider(d, st, s) == Some(f),
    }
}

/// The steps that would do something in `s`: every Terror marker, then
/// every level toward Support (COIN) or Opposition (Taliban) where the
/// space has Pop (Pakistan never has either, 1.6).
fn steps(d: &Data, st: &State, f: Faction, s: SpaceNo) -> u8 {
    let toward = if f.is_coin() {
        Support::Support
    } else {
        Support::Opposition
    };
    let mut levels = 0;
    if d[s].is_afghan() && st.pop(d, s) > 0 {
        let mut at = st[s].support;
        while at != toward {
            at = at.shifted(f.is_coin());
            levels += 1;
        }
    }
    st[s].terror + levels
}

/// The optional Redeploy of a Non-player `f` (6.5, 8.1 GUIDELINES, ruling
/// A51), from the position when its turn in the phase comes: the
/// Coalition's Troops; nothing for the other factions.
pub fn redeploy(d: &Data, st: &State, f: Faction) -> Vec<PlanLine> {
    if f != Faction::Coalition || d.version < 9 {
        return Vec::new();
    }
    let pri = &d.nonplayer[f.index()];
    let terms = if pri.redeploy.is_empty() {
        &pri.spaces
    } else {
        &pri.redeploy
    };
    let mut to: Vec<SpaceNo> = d.ids().collect();
    d.sort_spaces(st, terms, &mut to);
    d.ids()
        .filter_map(|from| {
            let count = free_to_leave(d, st, from, Piece::CoalTroops);
            let to = to
                .iter()
                .copied()
                .find(|t| *t != from && redeploy_legal(d, st, f, Kind::Troops, from, *t).is_ok())?;
            (count > 0).then_some(PlanLine::Redeploy {
                count,
                kind: Kind::Troops,
                from,
                to,
            })
        })
        .collect()
}

/// How many pieces `p` may leave `s` without placing or removing Control
/// there (8.1 GUIDELINES; Control as the pieces now stand, 1.7).
fn free_to_leave(d: &Data, st: &State, s: SpaceNo, p: Piece) -> u8 {
    if !d[s].has_control() {
        return st[s].pieces[p];
    }
    let now = control_of(&st[s].pieces);
    (1..=st[s].pieces[p])
        .take_while(|k| {
            let mut left = st[s].pieces;
            left[p] -= k;
            control_of(&left) == now
        })
        .last()
        .unwrap_or(0)
}
