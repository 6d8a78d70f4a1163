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
//! then every level), before the next. The optional Redeploy moves (the
//! Coalition's Troops, the Government's Police, 6.5) stay undone: moving a
//! piece has no "extent" to carry out, and the mandatory ones follow the
//! defaults (digest D11). Before version 7 a Non-player bought nothing here.

use super::data::{Data, SpaceId, Support};
use super::orders::PlanLine;
use super::pieces::Faction;
use super::propaganda::civic_decider;
use super::state::{Control, State};

/// The plan a Non-player `f` would send, from the position at the start of
/// the Support Phase (none for the Warlords, who have no part in 6.4).
pub fn plan(d: &Data, st: &State, f: Faction) -> Vec<PlanLine> {
    let line: fn(SpaceId, u8) -> PlanLine = match f {
        Faction::Coalition | Faction::Government => PlanLine::Civic,
        Faction::Taliban => PlanLine::Sharia,
        Faction::Warlords => return Vec::new(),
    };
    let spaces: Vec<(SpaceId, u8)> = d
        .ids()
        .filter(|s| decides(d, st, f, *s))
        .map(|s| (s, steps(d, st, f, s)))
        .filter(|(_, n)| *n > 0)
        .collect();
    let mut order: Vec<SpaceId> = spaces.iter().map(|(s, _)| *s).collect();
    d.sort_spaces(st, &d.nonplayer[f.index()].support, &mut order);
    order
        .into_iter()
        .filter_map(|s| spaces.iter().find(|(x, _)| *x == s))
        .map(|(s, n)| line(*s, *n))
        .collect()
}

/// Does `f` decide the Support Phase's spending in `s` (6.4.1, ruling A29;
/// 6.4.2)?
fn decides(d: &Data, st: &State, f: Faction, s: SpaceId) -> bool {
    match f {
        Faction::Taliban => d[s].has_control() && st[s].control == Control::Taliban,
        _ => civic_decider(d, st, s) == Some(f),
    }
}

/// The steps that would do something in `s`: every Terror marker, then
/// every level toward Support (COIN) or Opposition (Taliban) where the
/// space has Pop (Pakistan never has either, 1.6).
fn steps(d: &Data, st: &State, f: Faction, s: SpaceId) -> u8 {
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
