//! The railroad part of the legal-order sample (self-play, help): railroad
//! lines built where a side's red or blue units stand (20.34), a unit sent
//! one square on to extend a line, moves along existing lines (13.6) and
//! telegraph pick-ups (28.0). Random plans alone rarely build a chain of
//! railroads with units waiting on it, so these are offered on purpose.

use super::data::{Data, MarkerKind, Power, Terrain};
use super::economy::{self, EconOrder};
use super::geom::{Grid, Sq};
use super::movement::{self, Piece, Step};
use super::state::{Loc, State, UnitId};
use std::collections::BTreeSet;

/// Most railroads one sampled plan builds (each costs pounds).
const LINE: usize = 4;
/// Most rail destinations sampled per force.
const DESTS: usize = 3;

fn rail(st: &State, p: Power, s: Sq) -> bool {
    st.has_marker(s, p, MarkerKind::Railroad)
}

/// The squares where a red or blue unit of `p` stands (20.34(1)).
fn regular_squares(st: &State, p: Power) -> BTreeSet<Sq> {
    st.units
        .iter()
        .filter(|u| u.nat.regular() == Some(p))
        .filter_map(|u| u.loc.sq())
        .collect()
}

/// An economy plan building a railroad line (20.34): railroads on squares
/// where `p`'s regulars stand, each one checked after the ones before it
/// (so a line grows from a city or the home-base edge across square sides),
/// at most [`LINE`]. `before` is the rest of the plan, applied first.
pub fn line_plan(d: &Data, st: &State, p: Power, before: &[EconOrder]) -> Option<Vec<EconOrder>> {
    let mut t = st.clone();
    for o in st.plans[p.index()].iter().chain(before) {
        economy::apply(d, &mut t, p, o).ok()?;
    }
    let squares = regular_squares(&t, p);
    let mut plan = before.to_vec();
    let build = |sq: Sq| EconOrder::Build {
        kind: MarkerKind::Railroad,
        sq,
    };
    while plan.len() < before.len() + LINE {
        // Squares next to a railroad first, so the line grows; a new line
        // starts where most of our regulars stand side by side, and once
        // this plan has built one, it only grows from it.
        let touches = |t: &State, s: Sq| s.around().iter().any(|(n, g)| !g && rail(t, p, *n));
        let friends = |s: Sq| {
            s.around()
                .iter()
                .filter(|(n, g)| !g && squares.contains(n))
                .count()
        };
        let mut cands: Vec<Sq> = squares
            .iter()
            .copied()
            .filter(|s| !rail(&t, p, *s))
            .filter(|s| plan.len() == before.len() || touches(&t, *s))
            .collect();
        cands.sort_by_key(|s| (!touches(&t, *s), std::cmp::Reverse(friends(*s)), *s));
        let Some(s) = cands
            .into_iter()
            .find(|s| economy::apply(d, &mut t.clone(), p, &build(*s)).is_ok())
        else {
            break;
        };
        economy::apply(d, &mut t, p, &build(s)).ok()?;
        plan.push(build(s));
    }
    (plan.len() > before.len()).then_some(plan)
}

/// The text of a plan's railroad builds, one line each.
pub fn line_text(plan: &[EconOrder]) -> Vec<String> {
    plan.iter()
        .filter_map(|o| match o {
            EconOrder::Build {
                kind: MarkerKind::Railroad,
                sq,
            } => Some(format!("build railroad at {sq}")),
            _ => None,
        })
        .collect()
}

/// The unmoved units of `p` in `s`.
fn waiting(st: &State, p: Power, s: Sq) -> Vec<UnitId> {
    st.side_units_at(Loc::Sq(s), p)
        .filter(|u| !st.unit(*u).moved)
        .collect()
}

/// The railroad squares linked to `from` by `p`'s railroads (13.61), in
/// the order found (nearest first).
fn linked(st: &State, p: Power, from: Sq) -> Vec<Sq> {
    if !rail(st, p, from) {
        return Vec::new();
    }
    let mut seen = BTreeSet::from([from]);
    let mut todo = std::collections::VecDeque::from([from]);
    let mut out = Vec::new();
    while let Some(x) = todo.pop_front() {
        if x != from {
            out.push(x);
            if movement::enemy_at(st, x, p) {
                continue;
            }
        }
        for (n, diag) in x.around() {
            if !diag && rail(st, p, n) && seen.insert(n) {
                todo.push_back(n);
            }
        }
    }
    out
}

/// Operations-phase orders along railroads: for each unmoved stack of `p`
/// on a railroad square, a rail move to a linked square holding unmoved
/// friendly units (with the telegraph: picking one up, 28.0) and to the
/// farthest linked square; and, from 1860-64, one unit of a stack standing
/// on a railroad or a city sent one square on (side-adjacent, no railroad
/// yet), where the next economy round may extend the line (20.34(1)).
pub fn ops(d: &Data, st: &State, p: Power, k: u8, show: &dyn Fn(Piece) -> String) -> Vec<String> {
    let mut out = Vec::new();
    let stacks: BTreeSet<Sq> = st
        .units
        .iter()
        .filter(|u| st.owner(u.nat) == Some(p) && !u.moved)
        .filter_map(|u| u.loc.sq())
        .collect();
    for s in stacks {
        let force: Vec<Piece> = waiting(st, p, s).into_iter().map(Piece::Unit).collect();
        let who: Vec<String> = force.iter().map(|x| show(*x)).collect();
        let who = who.join(" ");
        let ok =
            |f: &[Piece], steps: &[Step]| movement::check(d, st, p, k, f, steps, false).is_ok();
        let dests = linked(st, p, s);
        let with_units: Vec<Sq> = dests
            .iter()
            .copied()
            .filter(|x| !waiting(st, p, *x).is_empty())
            .take(DESTS)
            .collect();
        let mut picks = with_units.clone();
        picks.extend(dests.last());
        for to in picks.into_iter().collect::<BTreeSet<_>>() {
            let leg = [Step::Rail(to)];
            if !ok(&force, &leg) {
                continue;
            }
            out.push(format!("move {who}: rail:{to}"));
            out.push(format!("move {who}: rail:{to}\nend"));
            if !st.options.telegraph {
                continue;
            }
            if let Some(u) = waiting(st, p, to).first() {
                let steps = [Step::Rail(to), Step::Pick(Piece::Unit(*u))];
                if ok(&force, &steps) {
                    let m = format!("move {who}: rail:{to} pick:{}", st.unit(*u).id);
                    out.push(format!("{m}\nend"));
                    out.push(m);
                }
            }
        }
        out.extend(
            extend_line(d, st, p, s, &force, &ok, show)
                .into_iter()
                .flatten(),
        );
    }
    out
}

/// One regular unit of a stack of two or more on a railroad or a city, sent
/// one square on across a side to a clear or desert square without a
/// railroad of ours or enemy units, nearest the square's farthest neighbour
/// from the rest of the line (so the line grows outward).
fn extend_line(
    d: &Data,
    st: &State,
    p: Power,
    s: Sq,
    force: &[Piece],
    ok: &dyn Fn(&[Piece], &[Step]) -> bool,
    show: &dyn Fn(Piece) -> String,
) -> Option<Vec<String>> {
    if st.year() < 1860 || force.len() < 2 || !(rail(st, p, s) || d.city_at(s).is_some()) {
        return None;
    }
    let unit = force
        .iter()
        .copied()
        .find(|x| matches!(x, Piece::Unit(u) if st.unit(*u).nat.regular() == Some(p)))?;
    let line: Vec<Sq> = linked(st, p, s);
    let to = s
        .around()
        .into_iter()
        .filter(|(n, diag)| {
            !diag
                && d.land(*n)
                && d.sq(*n).is_some_and(|i| i.terrain != Terrain::Mountain)
                && !rail(st, p, *n)
                && !st.occupies(*n, p.other())
        })
        .map(|(n, _)| n)
        .max_by_key(|n| (line.iter().map(|l| l.distance(*n)).min().unwrap_or(0), *n))?;
    let m = format!("move {}: {to}", show(unit));
    ok(&[unit], &[Step::To(Loc::Sq(to))]).then(|| vec![format!("{m}\nend"), m])
}
