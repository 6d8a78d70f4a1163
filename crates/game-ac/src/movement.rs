//! Movement (11.3, 12.2, 13.0, 16.21, 19.0). Costs are counted in half
//! movement points (ruling A23) so that trade routes' 1/2 MP stays whole.
//! Into and out of the home bases by rail and by water: `basemove`.

use super::basemove;
use super::data::{Base, Data, Power, Terrain};
use super::geom::{Grid, Sq};
use super::state::{AgentId, Loc, State, UnitId};
use super::turn::Ctx;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use umpire_core::ruleset::RuleError;

/// A piece named in a move order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Piece {
    /// A combat unit.
    Unit(UnitId),
    /// An agent.
    Agent(AgentId),
}

fn illegal(m: impl Into<String>, rule: &str) -> RuleError {
    RuleError::illegal(m, rule)
}

/// What a force may do: its movement allowance in half MP and whether it may
/// move across vertices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allowance {
    /// Half movement points.
    pub half_mp: u32,
    /// Every unit has a highlighted movement factor (13.2).
    pub diagonal: bool,
    /// Only British (red) units: may enter Central India; only blue: the Urals (19.21-19.22).
    pub base: Option<Base>,
}

/// The allowance of a force (11.3: the slowest unit; 16.21: plus one agent's
/// military rating, not for agents).
pub fn allowance(d: &Data, st: &State, pieces: &[Piece]) -> Allowance {
    let mut unit_mf = u32::MAX;
    let mut bonus = 0;
    let mut diagonal = true;
    let mut has_agent = false;
    let mut regular: Option<Option<Power>> = None;
    for p in pieces {
        match p {
            Piece::Unit(u) => {
                let x = st.unit(*u);
                let s = d.stats(x.nat, x.kind);
                unit_mf = unit_mf.min(s.mf);
                diagonal &= s.highlighted;
                let r = x.nat.regular();
                regular = Some(match regular {
                    None => r,
                    Some(prev) if prev == r => r,
                    Some(_) => None,
                });
            }
            Piece::Agent(a) => {
                has_agent = true;
                bonus = bonus.max(d.agents[*a].military);
            }
        }
    }
    let mf = if unit_mf == u32::MAX {
        d.agent_mf
    } else if has_agent {
        (unit_mf + bonus).min(d.agent_mf)
    } else {
        unit_mf
    };
    let base = match regular {
        None => agents_base(d, pieces),
        Some(Some(p)) => Some(Base::of(p)),
        Some(None) => None,
    };
    Allowance {
        half_mp: 2 * mf,
        diagonal,
        base,
    }
}

fn agents_base(d: &Data, pieces: &[Piece]) -> Option<Base> {
    let mut side = None;
    for p in pieces {
        if let Piece::Agent(a) = p {
            match d.agents[*a].side {
                super::data::AgentSide::Power(p) if side.is_none_or(|s| s == p) => side = Some(p),
                _ => return None,
            }
        }
    }
    side.map(Base::of)
}

/// The half-MP cost of one step, or why it is not allowed.
pub fn step(d: &Data, from: Loc, to: Loc, a: &Allowance) -> Result<u32, RuleError> {
    match (from, to) {
        (Loc::Base(b), Loc::Sq(s)) => out_of_base(d, b, s),
        (Loc::Sq(s), Loc::Base(b)) => into_base(d, s, b, a),
        (Loc::Sq(f), Loc::Sq(t)) => square_to_square(d, f, t, a),
        _ => Err(illegal(
            "pieces move between squares and home bases",
            "13.1",
        )),
    }
}

/// The half-MP cost of entering `s` along a trade route: 2 in desert or
/// mountain, else 1.
fn route_cost(d: &Data, s: Sq) -> u32 {
    match d.sq(s).map(|i| i.terrain) {
        Some(Terrain::Desert | Terrain::Mountain) => 2,
        _ => 1,
    }
}

/// The half-MP cost of entering `s` off the routes: its terrain's (TEC).
fn terrain_cost(d: &Data, s: Sq) -> u32 {
    let i = match d.sq(s).map(|i| i.terrain) {
        Some(Terrain::Desert) => 1,
        Some(Terrain::Mountain) => 2,
        _ => 0,
    };
    2 * d.enter_mp[i]
}

/// A step out of home base `b` onto its map edge square `s` (19.11, 19.12).
fn out_of_base(d: &Data, b: Base, s: Sq) -> Result<u32, RuleError> {
    if !d.base_edges[&b].contains(&s) {
        return Err(illegal(
            format!(
                "{} is entered and left only from its map edge, not {s}",
                b.name()
            ),
            "19.11, 19.12",
        ));
    }
    let c = if d.base_routes.get(&s) == Some(&b) {
        route_cost(d, s)
    } else {
        terrain_cost(d, s)
    };
    Ok(c + 2 * d.num.movement.base_extra)
}

/// A step from map edge square `s` into home base `b`, its owner's units
/// only (19.11-19.22).
fn into_base(d: &Data, s: Sq, b: Base, a: &Allowance) -> Result<u32, RuleError> {
    if a.base != Some(b) {
        return Err(illegal(
            format!("only {} units enter {}", b.owner().name(), b.name()),
            "19.21, 19.22",
        ));
    }
    if !d.base_edges[&b].contains(&s) {
        return Err(illegal(
            format!("{} is entered only from its map edge, not {s}", b.name()),
            "19.11, 19.12",
        ));
    }
    let c = if d.base_routes.get(&s) == Some(&b) {
        route_cost(d, s)
    } else {
        2
    };
    Ok(c + 2 * d.num.movement.base_extra)
}

/// A step between adjacent land squares (13.1, 13.71), diagonally only for
/// those who may (13.2).
fn square_to_square(d: &Data, f: Sq, t: Sq, a: &Allowance) -> Result<u32, RuleError> {
    let Some(diag) = f.adjacency(t) else {
        return Err(illegal(format!("{t} is not next to {f}"), "13.1"));
    };
    if !d.land(t) {
        return Err(illegal(
            format!("{t} is all sea or lake, or off the map"),
            "13.71",
        ));
    }
    if diag {
        if !a.diagonal {
            return Err(illegal(
                format!(
                    "{f} to {t} crosses a vertex; only agents, irregulars and Ghazis move diagonally"
                ),
                "13.2",
            ));
        }
        if f.corners(t).iter().all(|c| !d.land(*c)) {
            return Err(illegal(
                format!("{f} to {t} crosses all-sea squares"),
                "13.71, ruling A22",
            ));
        }
    }
    if d.route_between(f, t) {
        Ok(route_cost(d, t))
    } else {
        Ok(terrain_cost(d, t))
    }
}

/// Whether a square holds combat units of `p`'s enemy (13.32).
pub fn enemy_at(st: &State, s: Sq, p: Power) -> bool {
    st.occupies(s, p.other())
}

/// [`enemy_at`] for every square at once, by [`Data::index`]: found in one
/// pass over the units, for searches that ask it of many squares.
pub fn enemy_squares(d: &Data, st: &State, p: Power) -> Vec<bool> {
    let mut out = vec![false; d.squares.len()];
    for u in &st.units {
        if let Loc::Sq(s) = u.loc
            && let Some(i) = d.index(s)
            && st.owner(u.nat) == Some(p.other())
        {
            out[i] = true;
        }
    }
    out
}

/// One element of a move order's path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Into an adjacent square, or into or out of a home base.
    To(Loc),
    /// By railroad to a square linked by friendly railroads (13.6).
    Rail(Sq),
    /// Leave a piece where the force stands (11.3).
    Drop(Piece),
    /// By water along rivers, coasts and seas to a square (13.8).
    Sea(Sq),
    /// Pick up a unit standing on a railroad square the force has entered
    /// (optional rule 28.0, Telegraph).
    Pick(Piece),
    /// By railroad into a home base (19.14): `rail:india`.
    RailBase(Base),
    /// By water into a home base (19.11, 19.12): `sea:urals`.
    SeaBase(Base),
}

/// A coast square: land beside an all-sea or lake square across a side (13.8).
pub fn coast(d: &Data, s: Sq) -> bool {
    d.land(s)
        && s.around()
            .iter()
            .any(|(n, diag)| !diag && d.on_map(*n) && !d.land(*n))
}

/// A square an amphibious move may pass: river, coast or all sea (13.81).
pub(super) fn waterway(d: &Data, s: Sq) -> bool {
    d.sq(s)
        .is_some_and(|i| i.river || i.terrain == Terrain::Sea)
        || coast(d, s)
}

/// Whether a force can go by water from `from` to `to` (13.81-13.84): both
/// river or coast squares, not mountains, joined across square sides by
/// river, coast and sea squares without enemy combat units before the end.
pub fn sea_linked(d: &Data, st: &State, p: Power, from: Sq, to: Sq) -> bool {
    let mountain = |s: Sq| d.sq(s).is_some_and(|i| i.terrain == Terrain::Mountain);
    if from == to
        || !waterway(d, from)
        || !waterway(d, to)
        || !d.land(to)
        || mountain(from)
        || mountain(to)
    {
        return false;
    }
    let mut seen = std::collections::BTreeSet::from([from]);
    let mut todo = vec![from];
    while let Some(x) = todo.pop() {
        if x == to {
            return true;
        }
        if x != from && enemy_at(st, x, p) {
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

/// What a checked move does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Supply points it costs (12.2).
    pub sp: u32,
    /// Where the force set out.
    pub start: Loc,
    /// Where the force ends.
    pub end: Loc,
    /// Pieces dropped on the way, and where.
    pub drops: Vec<(Piece, Loc)>,
    /// Units picked up on the way (28.0).
    pub picked: Vec<Piece>,
    /// The path as it was walked, each step with what it cost (for the
    /// mover's own account of the move).
    pub route: Vec<String>,
    /// Half movement points spent, and the force's allowance in half MP.
    pub spent: u32,
    /// The force's allowance in half MP (11.3, 16.21, 27.1).
    pub allowance: u32,
    /// What the supply points were spent on, each with its rule.
    pub sp_terms: Vec<String>,
}

/// Whether `to` is reached from `from` along side-adjacent friendly railroad
/// squares (13.61, 13.64, 13.65), passing no square with enemy combat units
/// before the last (13.62).
pub fn rail_linked(st: &State, p: Power, from: Sq, to: Sq) -> bool {
    use super::data::MarkerKind::Railroad;
    if from == to || !st.has_marker(from, p, Railroad) || !st.has_marker(to, p, Railroad) {
        return false;
    }
    let mut seen = std::collections::BTreeSet::from([from]);
    let mut todo = vec![from];
    while let Some(x) = todo.pop() {
        if x == to {
            return true;
        }
        if x != from && enemy_at(st, x, p) {
            continue;
        }
        for (n, diag) in x.around() {
            if !diag && st.has_marker(n, p, Railroad) && seen.insert(n) {
                todo.push(n);
            }
        }
    }
    false
}

fn check_pieces(d: &Data, st: &State, p: Power, pieces: &[Piece]) -> Result<Loc, RuleError> {
    let start = loc_of(st, pieces[0]);
    for x in pieces {
        let (loc, owner, moved, name) = match x {
            Piece::Unit(u) => (
                st.unit(*u).loc,
                st.owner(st.unit(*u).nat),
                st.unit(*u).moved,
                st.unit(*u).id.to_string(),
            ),
            Piece::Agent(a) => (
                st.agent(*a).loc,
                st.agent_owner(d, *a),
                st.agent(*a).moved,
                d.agents[*a].name.clone(),
            ),
        };
        if owner != Some(p) {
            return Err(illegal(
                format!("{name} is not under your control"),
                "5.31(1), 11.2",
            ));
        }
        if !loc.in_play() {
            return Err(illegal(
                format!("{name} is not on the map or in a home base"),
                "13.1",
            ));
        }
        if moved {
            return Err(illegal(
                format!("{name} has already moved in this operations phase"),
                "12.0",
            ));
        }
        if loc != start {
            return Err(illegal(
                format!("{name} does not start with the rest of the force"),
                "11.3",
            ));
        }
    }
    Ok(start)
}

/// The agent whose rating is the force's movement bonus (16.21), if any.
fn bonus_agent(d: &Data, pieces: &[Piece]) -> Option<Piece> {
    if !pieces.iter().any(|x| matches!(x, Piece::Unit(_))) {
        return None;
    }
    pieces
        .iter()
        .filter(|x| matches!(x, Piece::Agent(_)))
        .max_by_key(|x| match x {
            Piece::Agent(a) => d.agents[*a].military,
            Piece::Unit(_) => 0,
        })
        .copied()
}

/// Checks a force and its path without changing `st`.
pub fn check(
    d: &Data,
    st: &State,
    p: Power,
    k: u8,
    pieces: &[Piece],
    path: &[Step],
    forced: bool,
) -> Result<Plan, RuleError> {
    let moving = |x: &Step| !matches!(x, Step::Drop(_) | Step::Pick(_));
    if pieces.is_empty() || !path.iter().any(moving) {
        return Err(illegal(
            "a move names its pieces and at least one square",
            "13.1",
        ));
    }
    let start = check_pieces(d, st, p, pieces)?;
    if forced && !st.options.forced_march {
        return Err(illegal(
            "forced march is an optional rule not chosen for this game",
            "27.0",
        ));
    }
    let mut a = allowance(d, st, pieces);
    if forced {
        a = forced_allowance(d, st, pieces);
    }
    let mut w = Walk {
        d,
        st,
        p,
        pieces,
        bonus: bonus_agent(d, pieces),
        start,
        at: start,
        spent: 0,
        amphibious_sp: 0,
        sea_legs: 0,
        drops: Vec::new(),
        picked: Vec::new(),
        by_rail: false,
        route: Vec::new(),
    };
    let last = path.iter().rposition(moving).unwrap_or(0);
    for (i, step_) in path.iter().enumerate() {
        let before = (w.at, w.spent, w.amphibious_sp);
        // 11.3 (from version 9): a force that has dropped every piece has
        // nothing left to move on.
        if d.version >= 9 && moving(step_) && all_dropped(pieces, &w.picked, &w.drops) {
            return Err(illegal(
                format!(
                    "every piece of the force is dropped off at {} before the path ends",
                    show(w.at)
                ),
                "11.3",
            ));
        }
        let leg = basemove::leg(
            d,
            st,
            p,
            &a,
            w.at,
            step_,
            i > 0 && matches!(start, Loc::Base(_)),
        );
        let to = if let Some(leg) = leg {
            let (to, mp, sp) = leg?;
            w.spent += mp;
            w.amphibious_sp += leg_sp(d, w.sea_legs, sp);
            w.sea_legs += u32::from(sp > 0);
            to
        } else {
            match w.step(&a, i, step_)? {
                Some(to) => to,
                None => {
                    w.route.push(stay_text(d, st, step_, w.at));
                    continue;
                }
            }
        };
        w.arrive(&a, i < last, step_, to, before.1)?;
        let cost = (w.spent - before.1, w.amphibious_sp - before.2);
        w.route.push(leg_text(d, step_, before.0, to, cost));
    }
    let (sp, sp_terms) = supply_cost(d, st, p, k, pieces, forced, w.amphibious_sp, w.sea_legs)?;
    Ok(Plan {
        sp,
        start,
        end: w.at,
        drops: w.drops,
        picked: w.picked,
        route: w.route,
        spent: w.spent,
        allowance: a.half_mp,
        sp_terms,
    })
}

/// One step of a path that moves the force, as the mover's account tells
/// it: where to, how, and its cost in MP (and SP by water), with the rule.
fn leg_text(d: &Data, step_: &Step, from: Loc, to: Loc, (half, sp): (u32, u32)) -> String {
    let mp = format!("{} MP", fmt_half(half));
    let base = |_: Base| {
        format!(
            "{mp}, {} of them for the home base, 19.13",
            d.num.movement.base_extra
        )
    };
    match (step_, from, to) {
        (Step::Rail(_) | Step::RailBase(_), _, Loc::Base(b))
        | (Step::Rail(_) | Step::RailBase(_), Loc::Base(b), _) => {
            format!("by rail to {} ({}; 19.14)", show(to), base(b))
        }
        (Step::Rail(_), _, _) => format!("by rail to {} ({mp}, 13.6)", show(to)),
        (Step::Sea(_) | Step::SeaBase(_), _, Loc::Base(b))
        | (Step::Sea(_) | Step::SeaBase(_), Loc::Base(b), _) => format!(
            "by water to {} ({}; {sp} SP, 13.81, 19.11, 19.12)",
            show(to),
            base(b)
        ),
        (Step::Sea(_), _, _) => format!("by water to {} ({mp}, {sp} SP, 13.81)", show(to)),
        (_, Loc::Base(b), _) | (_, _, Loc::Base(b)) => {
            format!("{} ({})", show(to), base(b))
        }
        (_, Loc::Sq(f), Loc::Sq(t)) if d.route_between(f, t) => {
            format!("{t} ({mp} along the trade route, 13.51, 13.52)")
        }
        (_, _, Loc::Sq(t)) => {
            let ground = match d.sq(t).map(|i| i.terrain) {
                Some(Terrain::Desert) => "desert",
                Some(Terrain::Mountain) => "mountain",
                _ => "clear",
            };
            format!("{t} ({mp}, {ground}, 13.1)")
        }
        _ => show(to),
    }
}

/// A drop-off or pick-up in a path: the force stays where it is.
fn stay_text(d: &Data, st: &State, step_: &Step, at: Loc) -> String {
    match step_ {
        Step::Pick(x) => format!("picks up {} at {} (28.0)", piece_name(d, st, *x), show(at)),
        Step::Drop(x) => format!("drops {} at {} (11.3)", piece_name(d, st, *x), show(at)),
        _ => show(at),
    }
}

/// A force's path checked step by step: where it is and what it has spent.
struct Walk<'a> {
    d: &'a Data,
    st: &'a State,
    p: Power,
    pieces: &'a [Piece],
    /// The agent giving the movement bonus (16.21).
    bonus: Option<Piece>,
    start: Loc,
    at: Loc,
    /// Half movement points spent.
    spent: u32,
    /// Supply points the sea legs cost (13.81, 13.83), and their number.
    amphibious_sp: u32,
    sea_legs: u32,
    drops: Vec<(Piece, Loc)>,
    picked: Vec<Piece>,
    /// 28.0: the force came into `at` along railroads (a rail leg, or a step
    /// between two of the mover's railroad squares).
    by_rail: bool,
    /// Each step as the mover's account tells it ([`leg_text`]).
    route: Vec<String>,
}

/// A path step from base `from` to base `to`: what is wrong and how to
/// write it (19.1): a force in a base leaves it for a square of the map.
fn base_to_base(from: Base, to: Base) -> RuleError {
    if from == to {
        illegal(
            format!(
                "the force is in {} already: leave `{}` out and start the path with the first square it enters, e.g. `move UNIT: SQUARE`",
                from.name(),
                from.key()
            ),
            "19.1",
        )
    } else {
        illegal(
            format!(
                "a force moves out of {} onto the map, not into {}: start the path with the first square it enters",
                from.name(),
                to.name()
            ),
            "19.1",
        )
    }
}

impl Walk<'_> {
    /// A step that is no base leg: where it goes, or `None` for a pick-up
    /// or drop-off, which stays.
    fn step(&mut self, a: &Allowance, i: usize, step_: &Step) -> Result<Option<Loc>, RuleError> {
        let (d, st, p, at) = (self.d, self.st, self.p, self.at);
        Ok(Some(match step_ {
            Step::Pick(x) => {
                let all: Vec<Piece> = self.pieces.iter().chain(&self.picked).copied().collect();
                check_pick(st, p, at, *x, &all, self.by_rail)?;
                self.picked.push(*x);
                return Ok(None);
            }
            Step::Drop(x) => {
                self.check_drop(*x)?;
                self.drops.push((*x, at));
                return Ok(None);
            }
            Step::SeaBase(_) | Step::RailBase(_) => {
                return Err(illegal("a force moves out of a base onto the map", "19.1"));
            }
            Step::Sea(s) => self.sea(*s)?,
            Step::Rail(s) => {
                let Loc::Sq(from) = at else {
                    return Err(illegal(
                        "rail movement runs between squares of the map",
                        "13.61",
                    ));
                };
                if !rail_linked(st, p, from, *s) {
                    return Err(illegal(
                        format!("{from} and {s} are not linked by your railroads"),
                        "13.61, 13.64, 13.65",
                    ));
                }
                self.spent += 2;
                Loc::Sq(*s)
            }
            Step::To(to) => {
                let to = *to;
                if let (Loc::Base(from), Loc::Base(b)) = (at, to) {
                    return Err(base_to_base(from, b));
                }
                if i > 0 && matches!(to, Loc::Base(_)) && matches!(self.start, Loc::Base(_)) {
                    return Err(illegal(
                        "a unit may not both exit and enter a home base in one phase",
                        "19.23",
                    ));
                }
                self.spent += step(d, at, to, a)?;
                to
            }
        }))
    }

    /// May piece `x` be dropped off here (11.3, 16.21)?
    fn check_drop(&self, x: Piece) -> Result<(), RuleError> {
        let (d, st, pieces, drops) = (self.d, self.st, self.pieces, &self.drops);
        if !pieces.contains(&x) && !self.picked.contains(&x) {
            return Err(illegal(
                "only pieces of the force may be dropped off",
                "11.3",
            ));
        }
        // From version 9 another agent of the same rating may
        // give the bonus instead (version 8 refused the drop of
        // the first of two such agents).
        let gives_bonus = if d.version >= 9 {
            let best = self.bonus.and_then(|b| military(d, b));
            best.is_some()
                && military(d, x) == best
                && !pieces.iter().any(|y| {
                    *y != x && !drops.iter().any(|(z, _)| z == y) && military(d, *y) == best
                })
        } else {
            Some(x) == self.bonus
        };
        if gives_bonus {
            return Err(illegal(
                "the agent giving the movement bonus may not be dropped off",
                "16.21",
            ));
        }
        // 11.3 (from version 9): version 8 kept the first drop
        // and ignored the second.
        if let Some((_, first)) = drops.iter().find(|(y, _)| *y == x)
            && d.version >= 9
        {
            return Err(illegal(
                format!(
                    "{} is dropped off at {} already",
                    piece_name(d, st, x),
                    show(*first)
                ),
                "11.3",
            ));
        }
        Ok(())
    }

    /// Why the path to `to` is too dear: the force's MP, the path's cost,
    /// the steps that were within the allowance with theirs, and what was
    /// left (of `before` spent) for the step that is not (13.1).
    fn over_allowance(&self, a: &Allowance, to: Loc, before: u32) -> String {
        let mut m = format!(
            "the force has {} MP and the path to {} costs {}",
            fmt_half(a.half_mp),
            show(to),
            fmt_half(self.spent)
        );
        if !self.route.is_empty() {
            m.push_str(&format!(
                "; the path so far, {}, took {} MP, leaving {} MP for the step to {}",
                self.route.join(" then "),
                fmt_half(before),
                fmt_half(a.half_mp.saturating_sub(before)),
                show(to)
            ));
        }
        m
    }

    /// An amphibious leg to square `s` (13.81, 13.82).
    fn sea(&mut self, s: Sq) -> Result<Loc, RuleError> {
        let d = self.d;
        let Loc::Sq(from) = self.at else {
            return Err(illegal(
                "amphibious movement runs between squares of the map",
                "13.81",
            ));
        };
        if !sea_linked(d, self.st, self.p, from, s) {
            return Err(illegal(
                format!(
                    "no chain of river, coast and sea squares joins {from} to {s} (no mountains)"
                ),
                "13.81, 13.82",
            ));
        }
        // 13.81: 1 SP from a port, 2 otherwise.
        let port = d.city_at(from).is_some_and(|c| d.city(c).port);
        self.amphibious_sp += leg_sp(d, self.sea_legs, if port { 1 } else { 2 });
        self.sea_legs += 1;
        self.spent += 2;
        Ok(Loc::Sq(s))
    }

    /// The force arrives at `to`: within its allowance (13.1), stopped by
    /// enemy combat units unless it ends there (13.32, 13.62).
    fn arrive(
        &mut self,
        a: &Allowance,
        more: bool,
        step_: &Step,
        to: Loc,
        before: u32,
    ) -> Result<(), RuleError> {
        let (st, p) = (self.st, self.p);
        if self.spent > a.half_mp {
            return Err(illegal(self.over_allowance(a, to, before), "13.1, 11.3"));
        }
        if let Loc::Sq(s) = to
            && enemy_at(st, s, p)
            && more
        {
            return Err(illegal(
                format!("{s} holds enemy combat units: the force stops there"),
                "13.32, 13.62",
            ));
        }
        self.by_rail = matches!(step_, Step::Rail(_) | Step::RailBase(_))
            || matches!((self.at, to), (Loc::Sq(a), Loc::Sq(b))
                if st.has_marker(a, p, super::data::MarkerKind::Railroad)
                    && st.has_marker(b, p, super::data::MarkerKind::Railroad));
        self.at = to;
        Ok(())
    }
}

/// The supply points a move costs, which the player must have: one in
/// operations phases 2 and 3 (12.2(2)), the sea legs (13.81, 13.83), and for
/// a forced march half again (27.1).
#[allow(clippy::too_many_arguments)]
fn supply_cost(
    d: &Data,
    st: &State,
    p: Power,
    k: u8,
    pieces: &[Piece],
    forced: bool,
    amphibious_sp: u32,
    sea_legs: u32,
) -> Result<(u32, Vec<String>), RuleError> {
    let regular_only = pieces.iter().all(|x| match x {
        Piece::Unit(u) => st.unit(*u).nat.regular().is_some(),
        Piece::Agent(_) => true,
    });
    let staff = st.options.staff_work && k == 2 && st.year() >= 1890 && regular_only;
    let sp = if k >= 2 && !staff { 1 } else { 0 };
    if st.sp[p.index()] < sp {
        return Err(illegal(
            format!("moving in operations phase {k} costs a supply point, and you have none"),
            "12.2(2)",
        ));
    }
    if st.sp[p.index()] < sp + amphibious_sp {
        let phase = if sp > 0 {
            format!(", after the 1 SP moving in operations phase {k} costs (12.2(2))")
        } else {
            String::new()
        };
        return Err(illegal(
            format!(
                "the amphibious move costs {amphibious_sp} SP by water{phase}, and you have {}",
                st.sp[p.index()]
            ),
            // 13.83: every later amphibious leg pays its own.
            if sea_legs > 1 {
                "13.81, 13.83"
            } else {
                "13.81"
            },
        ));
    }
    let mut terms = Vec::new();
    if sp > 0 {
        terms.push(format!("{sp} for moving in operations phase {k} (12.2(2))"));
    } else if staff {
        terms.push("none for this phase: staff work (29.0)".to_string());
    }
    if amphibious_sp > 0 {
        terms.push(format!(
            "{amphibious_sp} by water ({})",
            if sea_legs > 1 {
                "13.81, 13.83"
            } else {
                "13.81"
            }
        ));
    }
    let sp = sp + amphibious_sp;
    // 27.1, ruling A27 (from version 9): the march then loses half the SP
    // spent on it, which the player must have; version 8 took what was left.
    if forced && d.version >= 9 && st.sp[p.index()] < sp + sp.div_ceil(2) {
        return Err(illegal(
            format!(
                "the forced march spends {sp} SP and then loses {}, {} in all, and you have {}",
                sp.div_ceil(2),
                sp + sp.div_ceil(2),
                st.sp[p.index()]
            ),
            "27.1, ruling A27",
        ));
    }
    Ok((sp, terms))
}

/// An agent's military rating; `None` for a unit.
fn military(d: &Data, x: Piece) -> Option<u32> {
    match x {
        Piece::Agent(a) => Some(d.agents[a].military),
        Piece::Unit(_) => None,
    }
}

/// Whether every piece of a force (with those picked up) is dropped off.
fn all_dropped(pieces: &[Piece], picked: &[Piece], drops: &[(Piece, Loc)]) -> bool {
    pieces
        .iter()
        .chain(picked)
        .all(|x| drops.iter().any(|(y, _)| y == x))
}

/// A piece's id or name, for messages.
fn piece_name(d: &Data, st: &State, x: Piece) -> String {
    match x {
        Piece::Unit(u) => st.unit(u).id.to_string(),
        Piece::Agent(a) => d.agents[a].name.clone(),
    }
}

/// The SP an amphibious leg pays whose own start would cost `sp` (13.81):
/// a later leg of the same move pays one, "an extra supply point for the
/// second amphibious move" (13.83, ruling A24). Version 5 charged every leg
/// by its own start.
fn leg_sp(d: &Data, sea_legs: u32, sp: u32) -> u32 {
    if sea_legs > 0 && d.version >= 6 {
        sp.min(1)
    } else {
        sp
    }
}

/// Optional rule 28.0 (Telegraph): a force moving along railroad squares may
/// pick up units standing on the railroad squares it enters, if they have not
/// moved this sub-phase. Ruling: "railroad squares" are the mover's own
/// railroad markers (13.61); the force must have entered the square by rail or
/// on foot from another railroad square; a picked-up unit is carried for the
/// rest of the move within the force's allowance (it adds no MP and no SP).
fn check_pick(
    st: &State,
    p: Power,
    at: Loc,
    x: Piece,
    force: &[Piece],
    by_rail: bool,
) -> Result<(), RuleError> {
    use super::data::MarkerKind::Railroad;
    if !st.options.telegraph {
        return Err(illegal(
            "the telegraph is an optional rule not chosen for this game",
            "28.0",
        ));
    }
    let Piece::Unit(u) = x else {
        return Err(illegal("only units are picked up", "28.0"));
    };
    let Loc::Sq(s) = at else {
        return Err(illegal("units are picked up on railroad squares", "28.0"));
    };
    if !by_rail || !st.has_marker(s, p, Railroad) {
        return Err(illegal(
            format!("the force did not come into {s} along your railroads"),
            "28.0",
        ));
    }
    let unit = st.unit(u);
    if force.contains(&x) || unit.loc != at || st.owner(unit.nat) != Some(p) || unit.moved {
        return Err(illegal(
            format!(
                "{} is not a friendly unit in {s} that has not moved this sub-phase",
                unit.id
            ),
            "28.0",
        ));
    }
    Ok(())
}

/// 27.1-27.2: units move up to double their printed factor; agents at their own.
fn forced_allowance(d: &Data, st: &State, pieces: &[Piece]) -> Allowance {
    let mut a = allowance(d, st, pieces);
    let units = pieces.iter().filter_map(|x| match x {
        Piece::Unit(u) => Some(d.stats(st.unit(*u).nat, st.unit(*u).kind).mf),
        Piece::Agent(_) => None,
    });
    if let Some(slowest) = units.min() {
        let agents = pieces.iter().any(|x| matches!(x, Piece::Agent(_)));
        let mf = if agents {
            (2 * slowest).min(d.agent_mf)
        } else {
            2 * slowest
        };
        a.half_mp = 2 * mf;
    }
    a
}

/// Moves a force (after [`check`]); a forced march then loses half its
/// brigades and half the SP spent on the move, rounded up (27.1, ruling A27).
pub fn apply(
    ctx: &mut Ctx,
    st: &mut State,
    p: Power,
    k: u8,
    pieces: &[Piece],
    path: &[Step],
    forced: bool,
) -> Result<(), RuleError> {
    let plan = check(ctx.d, st, p, k, pieces, path, forced)?;
    let start = plan.start;
    st.sp[p.index()] -= plan.sp;
    for x in pieces.iter().chain(&plan.picked) {
        let to = plan
            .drops
            .iter()
            .find(|(y, _)| y == x)
            .map_or(plan.end, |(_, l)| *l);
        match x {
            Piece::Unit(u) => {
                st.unit_mut(*u).loc = to;
                st.unit_mut(*u).moved = true;
            }
            Piece::Agent(a) => {
                st.agent_mut(*a).loc = to;
                st.agent_mut(*a).moved = true;
            }
        }
    }
    // What every side may see: a stack of the mover's arrives (ruling A57);
    // what is in it and the way it came are the mover's own (22.1).
    let public = match plan.end {
        Loc::Sq(s) => format!("A {} force moves to {s}.", p.name()),
        _ => format!("A {} force moves.", p.name()),
    };
    ctx.say_open(public, plan.end.sq().into_iter().collect());
    let own = account(ctx.d, st, p, pieces, &plan, forced);
    let mut focus: Vec<Sq> = start.sq().into_iter().collect();
    focus.extend(plan.drops.iter().filter_map(|(_, l)| l.sq()));
    focus.extend(plan.end.sq());
    focus.dedup();
    ctx.tell_at(p, own, focus);
    if forced {
        forced_losses(ctx, st, p, pieces, plan.sp);
    }
    Ok(())
}

/// The mover's own account of a move (after it is carried out): the force,
/// the path it took with each step's cost, the MP spent and left of its
/// allowance, and the SP spent with what is left.
fn account(d: &Data, st: &State, p: Power, pieces: &[Piece], plan: &Plan, forced: bool) -> String {
    let names: Vec<String> = pieces.iter().map(|x| piece_name(d, st, *x)).collect();
    let start = show(plan.start);
    let allowance = if forced {
        format!(
            "{}, doubled by the forced march (27.1)",
            fmt_half(plan.allowance)
        )
    } else {
        match bonus_agent(d, pieces) {
            Some(x @ Piece::Agent(a)) if d.agents[a].military > 0 => format!(
                "{}, with {}'s military rating {} (11.3, 16.21)",
                fmt_half(plan.allowance),
                piece_name(d, st, x),
                d.agents[a].military
            ),
            _ => format!("{} (11.3)", fmt_half(plan.allowance)),
        }
    };
    let sp = if plan.sp_terms.is_empty() {
        "none".to_string()
    } else {
        plan.sp_terms.join(", ")
    };
    format!(
        "Your force {} moves from {start}: {}. MP: {} spent of {allowance}, {} left. SP spent: {sp}; {} SP left.",
        names.join(" "),
        plan.route.join(", "),
        fmt_half(plan.spent),
        fmt_half(plan.allowance.saturating_sub(plan.spent)),
        st.sp[p.index()]
    )
}

fn forced_losses(ctx: &mut Ctx, st: &mut State, p: Power, pieces: &[Piece], sp: u32) {
    let d = ctx.d;
    let mut units: Vec<UnitId> = pieces
        .iter()
        .filter_map(|x| match x {
            Piece::Unit(u) => Some(*u),
            Piece::Agent(_) => None,
        })
        .collect();
    units.sort_by_key(|u| (st.unit(*u).nat.regular().is_some(), st.strength(d, *u), *u));
    let n = units.len().div_ceil(2);
    let ids: Vec<String> = units
        .iter()
        .take(n)
        .map(|u| st.unit(*u).id.to_string())
        .collect();
    for u in units.iter().take(n) {
        st.unit_mut(*u).loc = Loc::Pool;
    }
    let lost_sp = sp.div_ceil(2).min(st.sp[p.index()]);
    st.sp[p.index()] -= lost_sp;
    ctx.say(
        format!(
            "Forced march: the {} lose {n} brigade{} (27.1).",
            p.people(),
            if n == 1 { "" } else { "s" }
        ),
        vec![],
    );
    ctx.tell(
        p,
        format!(
            "Forced march losses: {} and {lost_sp} SP (27.1, ruling A27); {} SP left.",
            ids.join(" "),
            st.sp[p.index()]
        ),
    );
}

/// Where a piece is.
pub fn loc_of(st: &State, x: Piece) -> Loc {
    match x {
        Piece::Unit(u) => st.unit(u).loc,
        Piece::Agent(a) => st.agent(a).loc,
    }
}

fn fmt_half(h: u32) -> String {
    if h.is_multiple_of(2) {
        format!("{}", h / 2)
    } else {
        format!("{}.5", h / 2)
    }
}

/// A location as written in orders.
pub fn show(l: Loc) -> String {
    match l {
        Loc::Sq(s) => s.to_string(),
        Loc::Base(b) => b.key().into(),
        _ => "?".into(),
    }
}

/// Every location a force can reach this phase with the cheapest path to it
/// (for the legal-order sampler). Stops at enemy combat units (13.32).
pub fn reach(d: &Data, st: &State, p: Power, pieces: &[Piece]) -> BTreeMap<Loc, Vec<Loc>> {
    let a = allowance(d, st, pieces);
    let start = loc_of(st, pieces[0]);
    // Dijkstra over locations, held in arrays indexed by `slot`. The heap
    // holds only (cost, location); each location's cheapest path so far lives
    // in `best`, ties going to the lexicographically least path, so the paths
    // offered do not depend on the order in which equal-cost neighbours are met.
    let squares = (d.rows * d.cols).max(0) as usize;
    let slot = |l: Loc| match l {
        Loc::Sq(s) => d.index(s),
        Loc::Base(Base::India) => Some(squares),
        Loc::Base(Base::Urals) => Some(squares + 1),
        _ => None,
    };
    let enemy = enemy_squares(d, st, p);
    let mut best: Vec<Option<(u32, Vec<Loc>)>> = vec![None; squares + 2];
    let mut done = vec![false; squares + 2];
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((0u32, start)));
    let mut path = Vec::new();
    while let Some(Reverse((cost, at))) = heap.pop() {
        let Some(i) = slot(at) else { continue };
        if std::mem::replace(&mut done[i], true) {
            continue;
        }
        if at != start {
            if matches!(at, Loc::Base(_)) || enemy.get(i).copied().unwrap_or(false) {
                continue;
            }
            if let Some((_, q)) = &best[i] {
                path.clone_from(q);
            }
        }
        for n in neighbours(d, at, start) {
            let Some(j) = slot(n) else { continue };
            if n == start || done[j] {
                continue;
            }
            let Ok(c) = step(d, at, n, &a) else { continue };
            let total = cost + c;
            if total > a.half_mp {
                continue;
            }
            let better = match &best[j] {
                None => true,
                Some((b, q)) => total < *b || (total == *b && lex_less(&path, n, q)),
            };
            if better {
                let mut p2 = Vec::with_capacity(path.len() + 1);
                p2.extend_from_slice(&path);
                p2.push(n);
                best[j] = Some((total, p2));
                heap.push(Reverse((total, n)));
            }
        }
    }
    best.into_iter()
        .flatten()
        .filter_map(|(_, q)| Some((*q.last()?, q)))
        .collect()
}

/// Whether `path` followed by `n` sorts before `other`.
fn lex_less(path: &[Loc], n: Loc, other: &[Loc]) -> bool {
    path.iter().chain([&n]).cmp(other.iter()) == std::cmp::Ordering::Less
}

/// The locations one step from `at`: the squares around it, and a home base
/// from its edge squares unless the force set out from a base.
fn neighbours(d: &Data, at: Loc, start: Loc) -> Vec<Loc> {
    match at {
        Loc::Sq(s) => {
            let mut v: Vec<Loc> = s.around().iter().map(|(n, _)| Loc::Sq(*n)).collect();
            if !matches!(start, Loc::Base(_)) {
                for (b, e) in &d.base_edges {
                    if e.contains(&s) {
                        v.push(Loc::Base(*b));
                    }
                }
            }
            v
        }
        Loc::Base(b) => d.base_edges[&b].iter().map(|s| Loc::Sq(*s)).collect(),
        _ => Vec::new(),
    }
}
