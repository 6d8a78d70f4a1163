//! Supply (17.0): forage values, and the provisioning phase (ruling A2: after
//! the last operations phase, both players, by standing order N12).

use super::data::{Data, Kind, MarkerKind, Nat, Power, Terrain};
use super::geom::{Grid, Sq};
use super::state::{Loc, State, UnitId};
use super::turn::Ctx;
use std::cmp::Reverse;
use std::collections::BTreeSet;
use umpire_core::ruleset::RuleError;

/// Brigade equivalents a square feeds for `p` (17.32, TEC; 20.31(2): a
/// friendly colony doubles it).
pub fn forage(d: &Data, st: &State, s: Sq, p: Power) -> u32 {
    let Some(info) = d.sq(s) else { return 0 };
    let key = match info.terrain {
        Terrain::Clear => "clear",
        Terrain::Desert => "desert",
        Terrain::Mountain => "mountain",
        Terrain::Sea => return 0,
    };
    // 31.33: a massacred square forages nothing for the rest of the turn.
    if st.massacred.contains(&s) {
        return 0;
    }
    let mut f = d.num.terrain.get(key).map_or(0, |t| t.forage);
    if let Some(c) = info.city {
        f = f.max(d.num.city.forage);
        // 32.6 13-14 Bazaar: the region's city squares forage double this turn.
        if st.discoveries.bazaar.contains(&d.city(c).region) {
            f *= 2;
        }
    }
    if st.has_marker(s, p, MarkerKind::Colony) {
        f *= 2;
    }
    f
}

/// Whether `u` is outside its home region on `s` (17.6; red and blue always, clarification).
fn expeditionary(d: &Data, st: &State, u: UnitId, s: Sq) -> bool {
    match st.unit(u).nat {
        Nat::Native(r) => d.sq(s).and_then(|i| i.region) != Some(r),
        Nat::Ghazi => false,
        _ => true,
    }
}

/// A friendly railroad square linked by side-adjacent friendly railroad
/// squares free of enemy units to the home-base edge (17.62).
fn rail_line(d: &Data, st: &State, s: Sq, p: Power) -> bool {
    let rail = |x: Sq| st.has_marker(x, p, MarkerKind::Railroad) && !st.occupies(x, p.other());
    if !rail(s) {
        return false;
    }
    let edge = &d.base_edges[&super::data::Base::of(p)];
    let mut seen = BTreeSet::from([s]);
    let mut todo = vec![s];
    while let Some(x) = todo.pop() {
        if edge.contains(&x) {
            return true;
        }
        for (n, diag) in x.around() {
            if !diag && rail(n) && seen.insert(n) {
                todo.push(n);
            }
        }
    }
    false
}

/// The provisioning phase for both players (17.3-17.62).
pub fn provisioning(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    for p in [st.first, st.first.other()] {
        provision(ctx, st, p);
    }
    Ok(())
}

fn provision(ctx: &mut Ctx, st: &mut State, p: Power) {
    let d = ctx.d;
    let mut squares: Vec<Sq> = st
        .units
        .iter()
        .filter(|u| st.owner(u.nat) == Some(p) && u.nat != Nat::Ghazi)
        .filter_map(|u| u.loc.sq())
        .collect();
    squares.sort();
    squares.dedup();
    // Pay first where most strength stands (N12).
    squares.sort_by_key(|s| {
        Reverse(
            st.side_units_at(Loc::Sq(*s), p)
                .map(|u| st.strength(d, u))
                .sum::<u32>(),
        )
    });
    let pay = st.standing[p.index()].supply;
    let mut lost = Vec::new();
    for s in squares {
        // Ghazis leave at the end of the turn (ruling A51).
        let units: Vec<UnitId> = st
            .side_units_at(Loc::Sq(s), p)
            .filter(|u| st.unit(*u).nat != Nat::Ghazi)
            .collect();
        // Expeditionary forces first (ruling A50).
        let away: Vec<UnitId> = units
            .iter()
            .copied()
            .filter(|u| expeditionary(d, st, *u, s))
            .collect();
        let mut units = units;
        if !away.is_empty() && !rail_line(d, st, s, p) {
            if pay && st.sp[p.index()] > 0 {
                st.sp[p.index()] -= 1;
            } else {
                units.retain(|u| !away.contains(u));
                lost.extend(away);
            }
        }
        let mut feed = forage(d, st, s, p);
        if d.sq(s).map(|i| i.terrain) == Some(Terrain::Desert)
            && units.iter().any(|u| st.unit(*u).kind == Kind::Irregular)
        {
            feed += 1; // 17.32: one irregular forages in a desert.
        }
        if units.len() as u32 > feed {
            if pay && st.sp[p.index()] > 0 {
                st.sp[p.index()] -= 1;
            } else {
                // 17.4: the owner loses the excess, weakest first (N5).
                units
                    .sort_by_key(|u| (st.unit(*u).nat.regular().is_some(), st.strength(d, *u), *u));
                let excess = units.len() - feed as usize;
                lost.extend(units.into_iter().take(excess));
            }
        }
    }
    if !lost.is_empty() {
        let ids: Vec<String> = lost.iter().map(|u| st.unit(*u).id.clone()).collect();
        for u in &lost {
            st.unit_mut(*u).loc = Loc::Pool;
        }
        ctx.say(
            format!(
                "{} units out of supply are eliminated (17.4, 17.6).",
                p.name()
            ),
            vec![],
        );
        ctx.tell(
            p,
            format!(
                "Your units out of supply, eliminated: {} (17.4, 17.6).",
                ids.join(" ")
            ),
        );
    }
}
