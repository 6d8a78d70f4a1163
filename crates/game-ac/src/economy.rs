//! The income/expenditure phase (3.1[3], 9.0, 10.0, 17.1, 20.0): income is
//! collected for both players when the phase opens; then both send their
//! expenditure orders, sealed: each side's orders are checked against the
//! state as the phase opened plus its own earlier orders, kept hidden in the
//! state, and carried out when both are in, first player first (ruling A49:
//! a civilization marker the other side placed first is refused and refunded).

use super::bop;
use super::data::{
    AgentKind, AgentSide, At, Base, Data, Kind, MarkerKind, Nat, Power, RegionId, Terrain,
};
use super::geom::{Grid, Sq};
use super::state::{AgentId, Loc, Marker, State, UnitId};
use super::supply::forage;
use super::turn::Ctx;
use serde::{Deserialize, Serialize};
use umpire_core::ruleset::{Audience, RuleError};

/// One expenditure order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EconOrder {
    /// Buy supply points (17.1).
    Buy(u32),
    /// Recruit combat units (10.0).
    Recruit {
        /// Nationality.
        nat: Nat,
        /// Type.
        kind: Kind,
        /// Where.
        at: At,
        /// How many brigades/groups.
        count: u32,
    },
    /// Recruit an agent (16.5(2)).
    Agent {
        /// Which.
        agent: AgentId,
        /// Where.
        at: At,
    },
    /// Build a civilization marker (20.1).
    Build {
        /// Which.
        kind: MarkerKind,
        /// Where.
        sq: Sq,
    },
    /// Disband a unit (10.5).
    Disband(UnitId),
    /// Reorganize brigades/groups of one square, nationality and type into
    /// divisions/hordes of the given sizes (18.0; from version 7).
    Reorganize {
        /// The units, in one square.
        units: Vec<UnitId>,
        /// The sizes of the new units, in brigades/groups, summing to the
        /// number of units (18.2).
        into: Vec<u32>,
    },
    /// Give pounds to the other player (23.1(1)).
    Give(u32),
    /// Change the control of a region one controls (23.1(2)).
    Cede(RegionId, Option<Power>),
    /// Place this turn's Jihad (21.2).
    Jihad(Sq),
    /// A prisoner returned on a square at the start of the next turn, as
    /// an agreement's term (16.42(1), 23.0).
    Return(AgentId, Sq),
}

fn illegal(m: impl Into<String>, rule: &str) -> RuleError {
    RuleError::illegal(m, rule)
}

/// Pounds for `n` more SP when `bought` were bought this turn (17.1).
pub fn sp_cost(d: &Data, bought: u32, n: u32) -> u64 {
    // Counted, not summed one SP at a time: a player may write any number,
    // and `buy 4000000000` must neither take minutes nor wrap round to a
    // small price.
    let c = &d.num.costs;
    let cheap = u64::from(n.min(c.sp_cheap_count.saturating_sub(bought)));
    let dear = u64::from(n) - cheap;
    cheap * u64::from(c.sp_cheap) + dear * u64::from(c.sp_dear)
}

/// How the price of `n` more SP is made up when `bought` were bought this
/// turn (17.1): `(at 1 pound each)`, or the cheap and dear ones apart.
fn sp_prices(d: &Data, bought: u32, n: u32) -> String {
    let c = &d.num.costs;
    let cheap = n.min(c.sp_cheap_count.saturating_sub(bought));
    let dear = n - cheap;
    let each = |k: u32, price: u32| format!("{k} at {price} pound{}", plural(price));
    let after = if bought > 0 {
        format!(", after the {bought} bought this turn")
    } else {
        String::new()
    };
    match (cheap, dear) {
        (_, 0) => format!(
            "(at {} pound{} each{after})",
            c.sp_cheap,
            plural(c.sp_cheap)
        ),
        (0, _) => format!("(at {} pound{} each{after})", c.sp_dear, plural(c.sp_dear)),
        _ => format!(
            "({} and {}{after}; the first {} of a turn are cheaper)",
            each(cheap, c.sp_cheap),
            each(dear, c.sp_dear),
            c.sp_cheap_count
        ),
    }
}

/// `s` for a count other than 1.
fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The recruiting cost of a unit type (Expenditure Table, stand-in).
pub fn unit_cost(d: &Data, k: Kind) -> Option<u32> {
    let c = &d.num.costs;
    match k {
        Kind::FieldForce => Some(c.field_force),
        Kind::FlyingColumn => Some(c.flying_column),
        Kind::Garrison => Some(c.garrison),
        Kind::Irregular => Some(c.irregular),
        Kind::Elephant => Some(c.elephant),
        Kind::Ghazi => None,
    }
}

fn pay(st: &mut State, p: Power, cost: u32, what: &str) -> Result<(), RuleError> {
    let t = &mut st.treasury[p.index()];
    if *t < cost {
        return Err(illegal(
            format!("{what} costs {cost} pounds and the treasury holds {t} (no deficit spending)"),
            "9.3",
        ));
    }
    *t -= cost;
    Ok(())
}

/// Checks one order against `st` and carries it out; nothing changes on error.
pub fn apply(d: &Data, st: &mut State, p: Power, o: &EconOrder) -> Result<String, RuleError> {
    match o {
        EconOrder::Buy(n) => {
            let bought = st.sp_bought[p.index()];
            let cost = sp_cost(d, bought, *n);
            let t = st.treasury[p.index()];
            let what = format!("{n} SP {}", sp_prices(d, bought, *n));
            let cost = u32::try_from(cost).map_err(|_| {
                illegal(
                    format!(
                        "{what} cost {cost} pounds and the treasury holds {t} (no deficit spending)"
                    ),
                    "9.3",
                )
            })?;
            pay(st, p, cost, &what)?;
            st.sp[p.index()] = st.sp[p.index()].saturating_add(*n);
            st.sp_bought[p.index()] = st.sp_bought[p.index()].saturating_add(*n);
            Ok(format!("bought {n} SP for {cost} pounds"))
        }
        EconOrder::Recruit {
            nat,
            kind,
            at,
            count,
        } => recruit(d, st, p, *nat, *kind, *at, *count),
        EconOrder::Agent { agent, at } => recruit_agent(d, st, p, *agent, *at),
        EconOrder::Build { kind, sq } => build(d, st, p, *kind, *sq),
        EconOrder::Give(n) => {
            pay(st, p, *n, "the gift")?;
            st.treasury[p.other().index()] += n;
            Ok(format!(
                "gave {n} pounds to the {} (23.1(1))",
                p.other().people()
            ))
        }
        EconOrder::Cede(r, to) => cede(d, st, p, *r, *to),
        EconOrder::Jihad(s) => super::events::place_jihad(d, st, p, *s),
        EconOrder::Return(a, s) => {
            let name = &d.agents[*a].name;
            if st.agent(*a).loc != Loc::Prisoner(p) || st.returns.iter().any(|(x, _)| x == a) {
                return Err(illegal(
                    format!("the {} hold no prisoner {name} to return", p.people()),
                    "16.42(1)",
                ));
            }
            if !d.land(*s) {
                return Err(illegal(format!("{s} is not a land square"), "16.42(1)"));
            }
            st.returns.push((*a, *s));
            Ok(format!(
                "{name} to be returned on {s} at the start of the next turn (16.42(1))"
            ))
        }
        EconOrder::Disband(u) => {
            if st.owner(st.unit(*u).nat) != Some(p) || !st.unit(*u).loc.in_play() {
                return Err(illegal(
                    format!("{} is not one of your units in play", st.unit(*u).id),
                    "10.5",
                ));
            }
            st.unit_mut(*u).loc = Loc::Pool;
            Ok(format!("disbanded {}", st.unit(*u).id))
        }
        EconOrder::Reorganize { units, into } => reorganize(st, p, units, into),
    }
}

/// 18.0 reorganization. Ruling (the text is silent on how an umpire keeps
/// counters): every unit here is a brigade/group, and every value (strength,
/// forage, losses, stacking) counts brigade equivalents, which 18.2's note
/// makes exact ("the larger unit combat factors are multiples of their
/// component units"). So a reorganization changes which counters stand in
/// the square and nothing the rules read: it is checked (18.1-18.3) and
/// reported to its player only; the opponent sees the stack as 22.0 lets him
/// see it, which counts equivalents. 18.0 says "at any point": from version
/// 8 it is taken in the sealed economy (digest 3.1[3]), in a set-up mail
/// (18.4) and in any move of the player's own operations phase (the only
/// points at which he writes to the umpire); version 7 took it in the
/// economy only.
fn reorganize(st: &State, p: Power, units: &[UnitId], into: &[u32]) -> Result<String, RuleError> {
    let first = units
        .first()
        .map(|u| st.unit(*u))
        .ok_or_else(|| illegal("name the units to reorganize", "18.1"))?;
    for u in units {
        let x = st.unit(*u);
        if st.owner(x.nat) != Some(p) || !x.loc.in_play() {
            return Err(illegal(
                format!("{} is not one of your units in play", x.id),
                "18.1",
            ));
        }
        // A home base box counts as one square here (19.0).
        if x.loc != first.loc {
            return Err(illegal(
                format!("{} and {} are not in one square", first.id, x.id),
                "18.1",
            ));
        }
        if x.nat != first.nat || x.kind != first.kind {
            return Err(illegal(
                format!(
                    "{} and {} are not of the same nationality and type",
                    first.id, x.id
                ),
                "18.3",
            ));
        }
        if units.iter().filter(|v| *v == u).count() > 1 {
            return Err(illegal(format!("{} is named twice", x.id), "18.1"));
        }
    }
    if let Some(n) = into.iter().find(|n| !(1..=3).contains(*n)) {
        return Err(illegal(
            format!("there is no {n}-brigade unit: a brigade/group is 1, a division/horde 2 or 3"),
            "18.2",
        ));
    }
    let total: u32 = into.iter().sum();
    if total as usize != units.len() {
        return Err(illegal(
            format!(
                "{} brigades/groups are not equivalent to units of {total}",
                units.len()
            ),
            "18.2",
        ));
    }
    let sizes: Vec<String> = into.iter().map(u32::to_string).collect();
    Ok(format!(
        "reorganized {} as {} (18.0; brigade equivalents unchanged)",
        units
            .iter()
            .map(|u| st.unit(*u).id)
            .collect::<Vec<_>>()
            .join(" "),
        sizes.join("+")
    ))
}

/// 23.1(2): a region changes hands by agreement: to the other player as a
/// defection (5.6), or back to neutral as a reversion (5.51).
fn cede(
    d: &Data,
    st: &mut State,
    p: Power,
    r: RegionId,
    to: Option<Power>,
) -> Result<String, RuleError> {
    let i = r.index();
    if st.control[i] != Some(p) || to == Some(p) {
        return Err(illegal(
            format!(
                "you can cede only a region you control, to the other player or to neutral ({})",
                d.reg(r).name
            ),
            "23.1(2)",
        ));
    }
    if to.is_none() {
        // 5.5, 5.51: a cession to neutral is a reversion.
        let (home, lost) = super::control::revert(d, st, r, p);
        return Ok(format!(
            "ceded {} to neutral: {home} of its units go home, {lost} eliminated (23.1(2), 5.51)",
            d.reg(r).name
        ));
    }
    st.control[i] = to;
    // 5.6: stacked with their former masters, they are eliminated.
    let doomed = super::control::stacked_with_former(d, st, r, p);
    let lost = doomed.len();
    for u in doomed {
        st.unit_mut(u).loc = Loc::Pool;
    }
    let who = to.map_or("neutral".to_string(), |q| format!("the {}", q.people()));
    Ok(format!(
        "ceded {} to {who} ({lost} of its units eliminated; 23.1(2), 5.6)",
        d.reg(r).name
    ))
}

/// Where `p` may place a new combat unit of `nat` (10.3).
fn placement_ok(
    d: &Data,
    st: &State,
    p: Power,
    nat: Nat,
    kind: Kind,
    at: At,
) -> Result<(), RuleError> {
    match (nat.regular(), at) {
        (Some(_), At::Base(b)) if b == Base::of(p) => Ok(()),
        (Some(_), At::Sq(s)) if st.has_marker(s, p, MarkerKind::Colony) => Ok(()),
        (Some(_), _) => Err(illegal(
            format!(
                "{} recruits go to {} or a {} colony",
                p.name(),
                Base::of(p).name(),
                p.name()
            ),
            if p == Power::British {
                "10.31"
            } else {
                "10.32"
            },
        )),
        (None, At::Base(_)) => Err(illegal("natives never enter a home base", "19.21")),
        (None, At::Sq(s)) => {
            let Nat::Native(r) = nat else {
                return Err(illegal("Ghazis come only with the Jihad event", "10.46"));
            };
            if d.sq(s).and_then(|i| i.region) != Some(r) {
                return Err(illegal(format!("{s} is not in {}", d.reg(r).name), "10.33"));
            }
            if kind == Kind::Irregular {
                let blocked = st
                    .units_at(Loc::Sq(s))
                    .any(|u| st.owner(st.unit(u).nat) != Some(p));
                if blocked {
                    return Err(illegal(
                        format!("{s} holds enemy or neutral units"),
                        "10.33(1)",
                    ));
                }
            } else if d.city_at(s).is_none() || !st.occupies(s, p) {
                return Err(illegal(
                    format!(
                        "native {} recruits go to a city of the region you occupy with combat units",
                        kind.key()
                    ),
                    "10.33(2)",
                ));
            }
            Ok(())
        }
    }
}

fn recruit(
    d: &Data,
    st: &mut State,
    p: Power,
    nat: Nat,
    kind: Kind,
    at: At,
    count: u32,
) -> Result<String, RuleError> {
    if st.owner(nat) != Some(p) || nat == Nat::Ghazi {
        return Err(illegal(
            format!("you do not control {} units", d.nat_code(nat)),
            "5.22",
        ));
    }
    let Some(cost) = unit_cost(d, kind) else {
        return Err(illegal("Ghazis cannot be recruited", "10.46"));
    };
    placement_ok(d, st, p, nat, kind, at)?;
    let free: Vec<UnitId> = (0..st.units.len())
        .map(|i| UnitId(i as u16))
        .filter(|u| {
            st.unit(*u).nat == nat && st.unit(*u).kind == kind && st.unit(*u).loc == Loc::Pool
        })
        .take(count as usize)
        .collect();
    if free.len() < count as usize {
        return Err(illegal(
            format!(
                "you ask for {count} and the counter mix has {} {} {} left",
                free.len(),
                d.nat_code(nat),
                kind.key()
            ),
            "10.62",
        ));
    }
    let what = format!(
        "recruiting {count} {} at {cost} pound{} each",
        kind.key(),
        plural(cost)
    );
    if let At::Sq(s) = at {
        let (all, regular) = st.recruited.get(&s).copied().unwrap_or((0, 0));
        let limit = forage(d, st, s, p).max(1);
        if all + count > limit {
            return Err(illegal(
                format!(
                    "{s} takes at most {limit} new brigades a turn (its forage value); {} recruited there this turn already, {count} more asked",
                    all
                ),
                "10.61",
            ));
        }
        if nat.regular().is_some() && st.has_marker(s, p, MarkerKind::Colony) && regular + count > 1
        {
            return Err(illegal(
                format!(
                    "no more than one red or blue recruit on a colony square; {s} has {regular} this turn already, {count} more asked"
                ),
                "10.61",
            ));
        }
        pay(st, p, cost * count, &what)?;
        let r = if nat.regular().is_some() { count } else { 0 };
        st.recruited.insert(s, (all + count, regular + r));
    } else {
        pay(st, p, cost * count, &what)?;
    }
    let loc = match at {
        At::Sq(s) => Loc::Sq(s),
        At::Base(b) => Loc::Base(b),
    };
    let mut ids = Vec::new();
    for u in free {
        st.unit_mut(u).loc = loc;
        ids.push(st.unit(u).id);
    }
    Ok(format!("recruited {}", ids.join(" ")))
}

fn recruit_agent(
    d: &Data,
    st: &mut State,
    p: Power,
    a: AgentId,
    at: At,
) -> Result<String, RuleError> {
    let info = &d.agents[a];
    if st.agent(a).loc == Loc::Dead {
        return Err(illegal(
            format!("{} is dead and may not be replaced", info.name),
            "16.43",
        ));
    }
    if st.agent(a).loc != Loc::Pool {
        return Err(illegal(
            format!("{} is not in the Agent Available box", info.name),
            "16.63",
        ));
    }
    if st.agent_owner(d, a) != Some(p) || info.kind == AgentKind::Mullah {
        return Err(illegal(
            format!("{} is not yours to recruit", info.name),
            "16.5",
        ));
    }
    if info.kind == AgentKind::Named && !info.periods.contains(&st.period()) {
        return Err(illegal(
            format!("{} is not available in period {}", info.name, st.period()),
            "16.61",
        ));
    }
    match (info.side, at) {
        (AgentSide::Power(_), At::Base(b)) if b == Base::of(p) => {}
        (AgentSide::Power(_), At::Sq(s)) if st.has_marker(s, p, MarkerKind::Colony) => {}
        (AgentSide::Native(r), At::Sq(s)) => {
            let blocked = st
                .units_at(Loc::Sq(s))
                .any(|u| st.owner(st.unit(u).nat) != Some(p));
            if d.sq(s).and_then(|i| i.region) != Some(r) || blocked {
                return Err(illegal(
                    format!(
                        "{s}: a native agent goes to a square of his region free of enemy and neutral units"
                    ),
                    "10.33(1)",
                ));
            }
        }
        _ => {
            return Err(illegal(
                "red and blue agents go to the home base or a colony",
                "10.31",
            ));
        }
    }
    let c = &d.num.costs;
    let cost = if info.kind == AgentKind::Named {
        c.named_agent
    } else {
        c.generic_agent
    };
    pay(st, p, cost, &format!("recruiting {}", info.name))?;
    st.agent_mut(a).loc = match at {
        At::Sq(s) => Loc::Sq(s),
        At::Base(b) => Loc::Base(b),
    };
    // 22.3: a recruit stands face down, whatever he was before.
    st.agent_mut(a).face_up = false;
    Ok(format!("recruited {}", info.name))
}

fn has_regular(d: &Data, st: &State, s: Sq, p: Power, combat: bool) -> bool {
    let unit = st
        .units_at(Loc::Sq(s))
        .any(|u| st.unit(u).nat.regular() == Some(p));
    let agent = st
        .agents_at(Loc::Sq(s))
        .any(|a| d.agents[a].side == AgentSide::Power(p));
    if combat { unit } else { unit || agent }
}

fn build(d: &Data, st: &mut State, p: Power, kind: MarkerKind, s: Sq) -> Result<String, RuleError> {
    if !d.land(s) {
        return Err(illegal(
            format!("{s} is not a land square on the map"),
            "20.22",
        ));
    }
    if st.has_marker(s, p, kind) {
        return Err(illegal(
            format!("you already have a {} on {s}", kind.key()),
            "20.21",
        ));
    }
    if st.markers_at(s).any(|m| m.owner != p) {
        return Err(illegal(
            format!("{s} holds an enemy civilization marker"),
            "20.23",
        ));
    }
    let city = d.city_at(s).is_some();
    let agent = st.side_agents_at(d, Loc::Sq(s), p).next().is_some();
    let c = &d.num.costs;
    let cost = match kind {
        MarkerKind::TradingPost => {
            let missing = [
                (!city).then(|| format!("{s} is no city")),
                (!(st.occupies(s, p) || agent))
                    .then(|| format!("you have no combat unit or agent on {s}")),
            ];
            if let Some(why) = lacking(&missing) {
                return Err(illegal(
                    format!(
                        "a trading post goes on a city with a friendly combat unit or agent: {why}"
                    ),
                    "20.33(1)",
                ));
            }
            c.trading_post
        }
        MarkerKind::Fort => {
            if !st.occupies(s, p) {
                return Err(illegal(
                    format!(
                        "a fort goes on a square with a friendly combat unit: you have none on {s}"
                    ),
                    "20.32(1)",
                ));
            }
            c.fort
        }
        MarkerKind::Colony => {
            let own_agent = st
                .agents_at(Loc::Sq(s))
                .any(|a| d.agents[a].side == AgentSide::Power(p));
            let missing = [
                (!city).then(|| format!("{s} is no city")),
                (!has_regular(d, st, s, p, true))
                    .then(|| format!("no {} combat unit is on {s}", p.name())),
                (!own_agent).then(|| format!("no {} agent is on {s}", p.name())),
            ];
            if let Some(why) = lacking(&missing) {
                return Err(illegal(
                    format!(
                        "a colony goes on a city with a {} combat unit and a {} agent: {why}",
                        p.name(),
                        p.name()
                    ),
                    "20.31(1)",
                ));
            }
            c.colony
        }
        MarkerKind::Railroad => {
            railroad_ok(d, st, p, s)?;
            c.railroad
        }
    };
    pay(st, p, cost, &format!("a {}", kind.key()))?;
    if kind == MarkerKind::Colony {
        st.markers
            .retain(|m| !(m.sq == s && m.owner == p && m.kind == MarkerKind::TradingPost));
    }
    st.markers.push(Marker {
        sq: s,
        owner: p,
        kind,
    });
    st.markers.sort();
    Ok(format!("built a {} on {s}", kind.key()))
}

/// The preconditions a build lacks, joined (`0412 is no city and ...`), if any.
fn lacking(missing: &[Option<String>]) -> Option<String> {
    let v: Vec<&str> = missing.iter().flatten().map(String::as_str).collect();
    (!v.is_empty()).then(|| v.join(" and "))
}

fn railroad_ok(d: &Data, st: &State, p: Power, s: Sq) -> Result<(), RuleError> {
    if st.year() < 1860 {
        return Err(illegal(
            "railroads may be built from the 1860-64 turn",
            "20.34",
        ));
    }
    if !has_regular(d, st, s, p, false) {
        return Err(illegal(
            format!(
                "a railroad square needs a {} unit or agent: there is none on {s}",
                p.name()
            ),
            "20.34(1)",
        ));
    }
    let own_rail = |x: Sq| st.has_marker(x, p, MarkerKind::Railroad);
    let side_linked = s.around().iter().any(|(n, diag)| !diag && own_rail(*n));
    let any_linked = s.around().iter().any(|(n, _)| own_rail(*n));
    let edge = d
        .base_edges
        .get(&Base::of(p))
        .is_some_and(|e| e.contains(&s));
    let on_route = d.route_edges.iter().any(|(a, _)| *a == s);
    let terrain = d.sq(s).map(|i| i.terrain);
    if terrain == Some(Terrain::Mountain) {
        if !(on_route && any_linked) {
            return Err(illegal(
                "a railroad in a mountain square needs a trade route and an adjacent railroad",
                "20.34 clarification",
            ));
        }
    } else if !(side_linked || d.city_at(s).is_some() || edge) {
        return Err(illegal(
            "a railroad starts on a city or next to the home-base edge, and continues across square sides",
            "20.34(1)",
        ));
    }
    Ok(())
}

/// Collects both players' income as the phase opens (9.1), first player first.
pub fn collect_income(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    let d = ctx.d;
    for p in [st.first, st.first.other()] {
        let mut drm = 0;
        if bop::at_least_moderate(d, st.bop) {
            drm += d.num.income.drm_bop;
        }
        if st.open_war == Some(p) {
            drm += d.num.income.drm_open_war;
        }
        // The roll is the player's own secret, like his treasury (9.0).
        let audience = Audience::side(super::turn::side_of(p));
        let roll = ctx.dice.roll_for(
            audience,
            6,
            &format!("home government income, {} (9.1(1))", p.name()),
        )? as i32;
        let idx = (roll + drm).clamp(1, 7) as usize - 1;
        let home = d.num.income.home[idx.min(d.num.income.home.len() - 1)];
        let cities = city_income(d, st, p);
        let rails = st
            .markers
            .iter()
            .filter(|m| m.owner == p && m.kind == MarkerKind::Railroad)
            .count() as u32
            * d.num.income.railroad;
        st.treasury[p.index()] += home + cities + rails;
        ctx.say(
            format!("The {} collect their income (9.1).", p.people()),
            vec![],
        );
        ctx.tell(
            p,
            format!(
                "Your income: home government {home} (die {roll}{drm:+}), cities and markers {cities}, railroads {rails}; treasury {} pounds (9.1).",
                st.treasury[p.index()]
            ),
        );
    }
    Ok(())
}

/// Pounds from cities and markers for `p` (9.1(2)-(3), errata: occupied cities).
pub fn city_income(d: &Data, st: &State, p: Power) -> u32 {
    (0..d.regions.len())
        .map(|r| region_city_income(d, st, p, RegionId(r as u8)))
        .sum()
}

/// `p`'s income from the cities of one region (9.1(2)).
pub fn region_city_income(d: &Data, st: &State, p: Power, r: RegionId) -> u32 {
    let mut total = 0;
    for c in d.cities.iter().filter(|c| c.region == r) {
        let marker = st.has_marker(c.sq, p, MarkerKind::TradingPost)
            || st.has_marker(c.sq, p, MarkerKind::Colony);
        let mine = st.occupies(c.sq, p);
        let enemy = st.occupies(c.sq, p.other());
        total += match (mine, marker, enemy) {
            (true, true, _) => 2 * c.income,
            (true, false, _) => c.income,
            (false, true, false) => c.income,
            _ => 0,
        };
    }
    total
}
