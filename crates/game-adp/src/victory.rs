//! Victory totals, conditions, margins and ranking (1.9, 7.0-7.3).

use super::data::{Data, Support};
use super::pieces::{Faction, Piece};
use super::state::{Control, State};
use umpire_core::ruleset::{Outcome, Side};

/// The four victory totals (1.9) and the Warlords' two numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    /// Pop in Support + Coalition pieces Available.
    pub coalition: i32,
    /// COIN-Controlled Pop + Patronage.
    pub government: i32,
    /// Pop in Opposition + Taliban Bases on the map.
    pub taliban: i32,
    /// Uncontrolled Afghan Pop.
    pub uncontrolled: i32,
    /// Warlord Resources.
    pub warlord_resources: i32,
}

/// Computes the totals from stored Control (ruling A1).
pub fn totals(d: &Data, st: &State) -> Totals {
    let mut t = Totals {
        coalition: 0,
        government: i32::from(st.patronage),
        taliban: 0,
        uncontrolled: 0,
        warlord_resources: i32::from(st.res(Faction::Warlords)),
    };
    for id in d.ids().filter(|s| d[*s].is_afghan()) {
        let pop = i32::from(st.pop(d, id));
        let s = &st[id];
        match s.support {
            Support::Support => t.coalition += pop,
            Support::Opposition => t.taliban += pop,
            Support::Neutral => {}
        }
        match s.control {
            Control::Coin => t.government += pop,
            Control::None => t.uncontrolled += pop,
            Control::Taliban => {}
        }
    }
    t.coalition +=
        i32::from(st.available[Piece::CoalTroops]) + i32::from(st.available[Piece::CoalBase]);
    t.taliban += st
        .spaces
        .iter()
        .map(|s| i32::from(s.pieces[Piece::TalBase]))
        .sum::<i32>();
    t
}

/// A faction's victory margin (7.3): positive exactly when its 7.2
/// condition is met (7.3 NOTE, ruling A5).
pub fn margin(d: &Data, t: &Totals, f: Faction) -> i32 {
    let v = &d.victory;
    match f {
        Faction::Coalition => t.coalition - i32::from(v.coalition),
        Faction::Government => t.government - i32::from(v.government),
        Faction::Taliban => t.taliban - i32::from(v.taliban),
        Faction::Warlords => (t.uncontrolled - i32::from(v.warlords_pop))
            .min(t.warlord_resources - i32::from(v.warlords_resources)),
    }
}

/// Tie order (7.1): Warlords, Government, Taliban, then the Coalition
/// (not listed: last, ruling A41). Lower ranks first.
fn tie_rank(f: Faction) -> u8 {
    match f {
        Faction::Warlords => 0,
        Faction::Government => 1,
        Faction::Taliban => 2,
        Faction::Coalition => 3,
    }
}

/// A side's margin: the lowest of its factions' (1.5), +1 for each Hidden
/// Agenda it holds (7.3, ruling A40), and the best tie rank among them.
fn side_score(d: &Data, st: &State, t: &Totals, side: Side) -> (i32, u8) {
    let fs = st.seats.factions_of(side);
    let m = fs
        .iter()
        .map(|f| margin(d, t, *f))
        .min()
        .map_or(i32::MIN, |m| m + super::deception::agenda(st, side));
    let r = fs.iter().map(|f| tie_rank(*f)).min().unwrap_or(9);
    (m, r)
}

/// The 7.2 check at the start of a Propaganda Round (6.1): the sides all of
/// whose factions meet their conditions (1.5), if any.
pub fn instant_winners(d: &Data, st: &State) -> Vec<Side> {
    let t = totals(d, st);
    (0..st.seats.factions.len())
        .map(|i| Side(i as u8))
        .filter(|s| {
            let fs = st.seats.factions_of(*s);
            !fs.is_empty() && fs.iter().all(|f| margin(d, &t, *f) > 0)
        })
        .collect()
}

/// The Non-player factions meeting their 7.2 conditions now.
pub fn np_met(d: &Data, st: &State) -> Vec<Faction> {
    let t = totals(d, st);
    Faction::ALL
        .into_iter()
        .filter(|f| st.seats.is_np(*f) && margin(d, &t, *f) > 0)
        .collect()
}

/// Does the 6.1 Victory Phase end the game: a side all of whose factions
/// meet their conditions, or any Non-player meeting its own (7.1)?
pub fn check_met(d: &Data, st: &State) -> bool {
    !instant_winners(d, st).is_empty() || !np_met(d, st).is_empty()
}

/// The best Non-player, if it beats every side (7.1: if a Non-player passes
/// a victory check all players lose; ties go to Non-players first). With
/// the 1-player victory rule (8.8, 8.9) missing, the same rule serves it
/// (reconstructed).
fn np_winner(d: &Data, st: &State, best_side: Option<i32>) -> Option<(Faction, i32)> {
    let t = totals(d, st);
    let best = Faction::ALL
        .into_iter()
        .filter(|f| st.seats.is_np(*f))
        .map(|f| (f, margin(d, &t, f)))
        .min_by_key(|(f, m)| (-m, tie_rank(*f)))?;
    let met = best.1 > 0;
    (met || best_side.is_none_or(|m| best.1 >= m)).then_some(best)
}

/// Ranks the sides by margin (7.1), best first, ties by the 7.1 order.
pub fn ranking(d: &Data, st: &State) -> Vec<(Side, i32)> {
    let t = totals(d, st);
    let mut v: Vec<(Side, i32, u8)> = (0..st.seats.factions.len())
        .map(|i| {
            let s = Side(i as u8);
            let (m, r) = side_score(d, st, &t, s);
            (s, m, r)
        })
        .collect();
    // A side with no faction (it conceded, ruling A48) scores i32::MIN:
    // Reverse, not negation, which would overflow.
    v.sort_by_key(|(s, m, r)| (std::cmp::Reverse(*m), *r, s.0));
    v.into_iter().map(|(s, m, _)| (s, m)).collect()
}

/// The outcome: the top-ranked side wins (7.1, 7.3).
pub fn outcome(d: &Data, st: &State, why: &str, names: &dyn Fn(Side) -> String) -> Outcome {
    let r = ranking(d, st);
    let mut list: Vec<String> = r
        .iter()
        .map(|(s, m)| match *m {
            i32::MIN => format!("side {} conceded", s.0 + 1),
            m => format!("{} {m:+}", names(*s)),
        })
        .collect();
    let t = totals(d, st);
    list.extend(
        Faction::ALL
            .into_iter()
            .filter(|f| st.seats.is_np(*f))
            .map(|f| format!("Non-player {} {:+}", f.name(), margin(d, &t, f))),
    );
    if let Some((f, _)) = np_winner(d, st, r.first().map(|(_, m)| *m)) {
        return Outcome {
            winners: Vec::new(),
            summary: format!(
                "the Non-player {} wins: {why}; all players lose (7.1); margins {} (7.1, 7.3)",
                f.name(),
                list.join(", ")
            ),
        };
    }
    Outcome {
        winners: r.first().map(|(s, _)| vec![*s]).unwrap_or_default(),
        summary: format!(
            "{} wins: {why}; margins {} (7.1, 7.3)",
            r.first().map(|(s, _)| names(*s)).unwrap_or_default(),
            list.join(", ")
        ),
    }
}
