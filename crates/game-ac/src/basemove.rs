//! Rail and amphibious moves into and out of the home bases (19.11-19.14).
//!
//! Rulings (the rulebook is silent): a home base counts as a port for the
//! amphibious supply cost (13.81: Bombay and Astrakhan); "via the Persian
//! Gulf" and "via the Caspian Sea" (19.11, 19.12) mean a chain of river,
//! coast and sea squares (13.81) that reaches the named sea, whose squares
//! are the connected sea squares around the anchor in `tables.toml`
//! (`[base_seas]`); the off-map railroads of 19.14 join the base to every
//! map-edge square of it holding a friendly railroad marker.

use super::data::{Base, Data, MarkerKind, Power, Terrain};
use super::geom::{Grid, Sq};
use super::movement::{Allowance, Step, enemy_at, rail_linked, waterway};
use super::state::{Loc, State};
use std::collections::BTreeSet;
use umpire_core::ruleset::RuleError;

/// The first turn with off-map railroads (19.14: "starting with the 1860-64 turn").
const RAIL_YEAR: u32 = 1860;

fn illegal(m: impl Into<String>, rule: &str) -> RuleError {
    RuleError::illegal(m, rule)
}

/// Whether `to` may be entered from its neighbours for a base (19.21, 19.22).
fn may_enter(a: &Allowance, b: Base) -> Result<(), RuleError> {
    if a.base == Some(b) {
        Ok(())
    } else {
        Err(illegal(
            format!("only {} units enter {}", b.owner().name(), b.name()),
            "19.21, 19.22",
        ))
    }
}

/// A chain of river, coast and sea squares across square sides from `s` to
/// the sea of base `b`, passing no square with enemy combat units (13.81).
fn reaches_sea(d: &Data, st: &State, p: Power, b: Base, s: Sq) -> bool {
    let Some(sea) = d.base_seas.get(&b) else {
        return false;
    };
    let mut seen = BTreeSet::from([s]);
    let mut todo = vec![s];
    while let Some(x) = todo.pop() {
        if sea.contains(&x) {
            return true;
        }
        if x != s && enemy_at(st, x, p) {
            continue;
        }
        for (n, diag) in x.around() {
            if !diag && waterway(d, n) && seen.insert(n) {
                todo.push(n);
            }
        }
    }
    false
}

/// An amphibious leg between base `b` and square `s` (19.11, 19.12, 19.13,
/// 13.81, 13.82): its cost in half MP and in SP.
pub fn sea_leg(
    d: &Data,
    st: &State,
    p: Power,
    a: &Allowance,
    b: Base,
    s: Sq,
    entering: bool,
) -> Result<(u32, u32), RuleError> {
    if entering {
        may_enter(a, b)?;
    }
    let mountain = d.sq(s).is_some_and(|i| i.terrain == Terrain::Mountain);
    if !d.land(s) || !waterway(d, s) || mountain {
        return Err(illegal(
            format!("{s} is not a river or coast square out of the mountains"),
            "13.81, 13.82, 13.84",
        ));
    }
    if !reaches_sea(d, st, p, b, s) {
        let sea = match b {
            Base::India => "the Persian Gulf",
            Base::Urals => "the Caspian Sea",
        };
        return Err(illegal(
            format!("no chain of river, coast and sea squares joins {s} to {sea}"),
            "19.11, 19.12, 13.81",
        ));
    }
    // 13.81: 1 SP from a port (a home base is one), 2 from elsewhere.
    let port = !entering || d.city_at(s).is_some_and(|c| d.city(c).port);
    let sp = if port { 1 } else { 2 };
    Ok((2 + 2 * d.num.movement.base_extra, sp))
}

/// A rail leg between base `b` and square `s` (19.14, 19.13, 13.61): its
/// cost in half MP.
pub fn rail_leg(
    d: &Data,
    st: &State,
    p: Power,
    a: &Allowance,
    b: Base,
    s: Sq,
    entering: bool,
) -> Result<u32, RuleError> {
    if entering {
        may_enter(a, b)?;
    }
    if st.year() < RAIL_YEAR {
        return Err(illegal(
            "the railroads into the home bases are built at the start of the 1860-64 turn",
            "19.14",
        ));
    }
    let edge = &d.base_edges[&b];
    let linked = edge
        .iter()
        .filter(|e| st.has_marker(**e, p, MarkerKind::Railroad))
        // 13.62: a force entering an enemy square by rail stops there.
        .filter(|e| **e == s || !enemy_at(st, **e, p))
        .any(|e| *e == s || rail_linked(st, p, *e, s));
    if !linked {
        return Err(illegal(
            format!(
                "{s} is not joined by your railroads to a railroad marker on the map edge of {}",
                b.name()
            ),
            "19.14, 13.61",
        ));
    }
    Ok(2 + 2 * d.num.movement.base_extra)
}

/// The sea squares of each base's sea: the sea squares joined across square
/// sides to the anchor (`[base_seas]`).
pub fn seas(d: &Data, anchors: &[(Base, Sq)]) -> Result<Vec<(Base, BTreeSet<Sq>)>, String> {
    let sea = |s: Sq| d.sq(s).is_some_and(|i| i.terrain == Terrain::Sea);
    let mut out = Vec::new();
    for (b, a) in anchors {
        if !sea(*a) {
            return Err(format!(
                "base_seas.{}: {a} is not an all-sea square (19.11, 19.12)",
                b.key()
            ));
        }
        let mut seen = BTreeSet::from([*a]);
        let mut todo = vec![*a];
        while let Some(x) = todo.pop() {
            for (n, diag) in x.around() {
                if !diag && sea(n) && seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        out.push((*b, seen));
    }
    Ok(out)
}

/// Where a step by rail or water between a base and the map leads.
pub fn ends(at: Loc, to: Loc) -> Option<(Base, Sq, bool)> {
    match (at, to) {
        (Loc::Base(b), Loc::Sq(s)) => Some((b, s, false)),
        (Loc::Sq(s), Loc::Base(b)) => Some((b, s, true)),
        _ => None,
    }
}

/// A step by rail or water between a home base and the map, if `step` is
/// one: where it leads, its cost in half MP and in SP. `reentry` is true
/// when the force left a base earlier in this move (19.23).
pub fn leg(
    d: &Data,
    st: &State,
    p: Power,
    a: &Allowance,
    at: Loc,
    step: &Step,
    reentry: bool,
) -> Option<Result<(Loc, u32, u32), RuleError>> {
    let (to, sea) = match (*step, at) {
        (Step::SeaBase(b), Loc::Sq(_)) => (Loc::Base(b), true),
        (Step::RailBase(b), Loc::Sq(_)) => (Loc::Base(b), false),
        (Step::Sea(s), Loc::Base(_)) => (Loc::Sq(s), true),
        (Step::Rail(s), Loc::Base(_)) => (Loc::Sq(s), false),
        _ => return None,
    };
    let (b, s, entering) = ends(at, to)?;
    if entering && reentry {
        return Some(Err(illegal(
            "a unit may not both exit and enter a home base in one phase",
            "19.23",
        )));
    }
    Some(if sea {
        sea_leg(d, st, p, a, b, s, entering).map(|(mp, sp)| (to, mp, sp))
    } else {
        rail_leg(d, st, p, a, b, s, entering).map(|mp| (to, mp, 0))
    })
}
