//! Negotiations (15.0) and the optional Ultimatums (15.6), with the
//! non-phasing player's counter by standing order (N1, N2) and the die roll
//! modifiers of 15.62.

use super::bop;
use super::control::{self, Why};
use super::data::{Data, MarkerKind, NegCell, Power, RegionId};
use super::standing::Pounds;
use super::state::{AgentId, Loc, State};
use super::turn::Ctx;
use umpire_core::ruleset::RuleError;

fn illegal(m: impl Into<String>, rule: &str) -> RuleError {
    RuleError::illegal(m, rule)
}

/// An attempt as ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The target region.
    pub region: RegionId,
    /// The phasing agent in its capital.
    pub agent: AgentId,
    /// Pounds added (15.1(2)).
    pub pounds: u32,
    /// An ultimatum (15.6) rather than negotiations.
    pub ultimatum: bool,
}

/// Checks an attempt before any die (15.1, 15.3, 15.4, 15.5, 16.9, 19.5).
pub fn check(
    d: &Data,
    st: &State,
    p: Power,
    regions_done: &[RegionId],
    at: &Attempt,
) -> Result<(), RuleError> {
    let r = at.region;
    let info = &d.agents[at.agent];
    if at.ultimatum && !st.options.ultimatums {
        return Err(illegal(
            "ultimatums are an optional rule not chosen for this game",
            "15.6",
        ));
    }
    if st.control[r] == Some(p) {
        return Err(illegal(
            format!("you already control {}", d.reg(r).name),
            "15.0",
        ));
    }
    if regions_done.contains(&r) {
        return Err(illegal(
            format!(
                "one attempt against {} per negotiations sub-phase",
                d.reg(r).name
            ),
            "15.3",
        ));
    }
    let cap = d.city(d.reg(r).capital).sq;
    if st.agent(at.agent).loc != Loc::Sq(cap) || st.agent_owner(d, at.agent) != Some(p) {
        return Err(illegal(
            format!(
                "{} is not your agent in {}, the capital",
                info.name,
                d.city(d.reg(r).capital).name
            ),
            "15.0",
        ));
    }
    if st.agent(at.agent).used {
        return Err(illegal(
            format!("{} has used his values in this sub-phase", info.name),
            "16.9",
        ));
    }
    if !at.ultimatum && st.occupies(cap, p.other()) {
        return Err(illegal(
            format!(
                "enemy combat units are in {}",
                d.city(d.reg(r).capital).name
            ),
            "15.5",
        ));
    }
    if at.pounds > info.political {
        return Err(illegal(
            format!(
                "{} may add at most {} pounds, his political value",
                info.name, info.political
            ),
            "15.1(2), 15.4",
        ));
    }
    if at.pounds > st.treasury[p.index()] {
        return Err(illegal("you do not have the pounds", "9.3"));
    }
    Ok(())
}

/// The die roll modifiers of 15.62 for `p` against `r`.
pub fn drm(d: &Data, st: &State, p: Power, r: RegionId) -> i32 {
    let m = &d.num.negotiation_drm;
    let mut x = 0;
    match bop::band(d, st.bop, p) {
        Some(b) if b >= bop::Band::Moderate => x += m.bop_for,
        Some(_) => {}
        None if bop::at_least_moderate(d, st.bop) => x += m.bop_against,
        None => {}
    }
    let cities = &d.reg(r).cities;
    if !cities.is_empty() && cities.iter().all(|c| st.occupies(d.city(*c).sq, p)) {
        x += m.all_cities;
    }
    for c in cities {
        let s = d.city(*c).sq;
        if st.has_marker(s, p, MarkerKind::Colony) {
            x += m.colony_friendly;
        }
        if st.has_marker(s, p.other(), MarkerKind::Colony) {
            x += m.colony_enemy;
        }
    }
    let code = d.reg(r).code.as_str();
    let controls = |c: &str| d.region(c).is_some_and(|q| st.control[q] == Some(p));
    if code == "SK" {
        x += m.sinkiang;
    }
    // 32.6 21 Gates of Somnath, for the rest of the turn.
    if matches!(code, "NI" | "PJ" | "SN")
        && let Some(by) = st.discoveries.somnath
    {
        x += if by == p { 1 } else { -1 };
    }
    if (matches!(code, "PJ" | "SN") && controls("NI"))
        || (code == "HE" && controls("AF"))
        || (matches!(code, "NP" | "WT") && controls("SK"))
    {
        x += m.neighbour;
    }
    x
}

/// The column of a differential: the first whose bound it does not exceed,
/// else the last (15.1(7), 15.61(6)).
pub fn column(bounds: &[i32], diff: i32) -> usize {
    let last = bounds.len().saturating_sub(1);
    bounds[..last]
        .iter()
        .position(|b| diff <= *b)
        .unwrap_or(last)
}

/// The non-phasing agent in the capital who counters, if any (N1, N2).
fn counter(d: &Data, st: &State, np: Power, r: RegionId, ultimatum: bool) -> Option<AgentId> {
    let s = &st.standing[np.index()];
    if (ultimatum && !s.counter_ultimatum) || (!ultimatum && !s.counter) {
        return None;
    }
    let cap = d.city(d.reg(r).capital).sq;
    st.side_agents_at(d, Loc::Sq(cap), np)
        .filter(|a| !st.agent(*a).used)
        .max_by_key(|a| (d.agents[*a].political, std::cmp::Reverse(*a)))
}

/// Carries out an attempt (after [`check`]).
pub fn apply(ctx: &mut Ctx, st: &mut State, p: Power, at: &Attempt) -> Result<(), RuleError> {
    let d = ctx.d;
    let r = at.region;
    let np = p.other();
    let cap = d.city(d.reg(r).capital).sq;
    let pa = &d.agents[at.agent];
    let ca = counter(d, st, np, r, at.ultimatum);
    st.agent_mut(at.agent).used = true;
    if let Some(c) = ca {
        st.agent_mut(c).used = true;
    }
    // What the table is entered with, said in the open with the differential.
    let (off, def, cells, bounds, totals) = if at.ultimatum {
        // 15.61(3)-(4): combat strength in the capital times one agent's political value.
        let mine: u32 = st
            .side_units_at(Loc::Sq(cap), p)
            .map(|u| st.strength(d, u))
            .sum();
        let theirs: u32 = st
            .units_at(Loc::Sq(cap))
            .filter(|u| st.owner(st.unit(*u).nat) != Some(p))
            .map(|u| st.strength(d, u))
            .sum();
        let cpol = ca.map_or(0, |c| d.agents[c].political);
        (
            (mine * pa.political) as i32,
            (theirs * cpol) as i32,
            &d.ultimatum,
            &d.num.ultimatum.columns,
            format!(
                "{} against {}",
                pa.name,
                ca.map_or("no counter".to_string(), |c| d.agents[c].name.clone())
            ),
        )
    } else {
        let cpol = ca.map_or(0, |c| d.agents[c].political);
        let cp = match st.standing[np.index()].counter_pounds {
            Pounds::Zero => 0,
            Pounds::Max => cpol,
            Pounds::Upto(n) => n.min(cpol),
        }
        .min(st.treasury[np.index()]);
        let cp = if ca.is_some() { cp } else { 0 };
        st.treasury[p.index()] -= at.pounds;
        st.treasury[np.index()] -= cp;
        (
            (pa.political + at.pounds) as i32,
            (cpol + cp) as i32,
            &d.negotiations,
            &d.num.negotiations.columns,
            // The pounds each side added are revealed once the rest is known (15.1*).
            format!(
                "{} {} + {} against {}",
                pa.name,
                pa.political,
                pounds(at.pounds),
                ca.map_or("no counter".to_string(), |c| format!(
                    "{} {cpol} + {}",
                    d.agents[c].name,
                    pounds(cp)
                )),
            ),
        )
    };
    if !at.ultimatum {
        tell_pounds(ctx, st, p, at.pounds, "15.1(2)");
        if ca.is_some() {
            tell_pounds(
                ctx,
                st,
                np,
                (def - ca.map_or(0, |c| d.agents[c].political as i32)) as u32,
                "N2",
            );
        }
    }
    let diff = off - def;
    let col = column(bounds, diff);
    let m = drm(d, st, p, r);
    let die = ctx.dice.d6(&format!(
        "{} against {} (15.1(8))",
        if at.ultimatum {
            "ultimatum"
        } else {
            "negotiations"
        },
        d.reg(r).code
    ))? as i32;
    let cell = cells[(die + m).clamp(0, 7) as usize][col];
    ctx.say(
        format!(
            "{} {} {}: {totals}, differential {diff}, die {die}{m:+}: {} = {} (15.1, 15.62).",
            p.name(),
            if at.ultimatum {
                "ultimatum to"
            } else {
                "negotiations with"
            },
            d.reg(r).name,
            describe(&cell),
            words(d, &cell, p, r, &pa.name)
        ),
        vec![cap],
    );
    result(ctx, st, p, at, cell)
}

/// "1 pound", "3 pounds".
fn pounds(n: u32) -> String {
    format!("{n} pound{}", if n == 1 { "" } else { "s" })
}

/// The pounds a player added to negotiations and what his treasury holds
/// after, told to him alone (9.0); nothing when he added none.
fn tell_pounds(ctx: &mut Ctx, st: &State, p: Power, pounds: u32, rule: &str) {
    if pounds > 0 {
        ctx.tell(
            p,
            format!(
                "You add {} to the negotiations ({rule}): {} left.",
                self::pounds(pounds),
                self::pounds(st.treasury[p.index()])
            ),
        );
    }
}

/// A Negotiations or Ultimatum Table cell as printed (15.62): its marks
/// joined by `+` (`T`, `T1`, `E`, `R`, `X`, and the stand-in `N`), `-` for
/// none.
pub fn describe(c: &NegCell) -> String {
    let mut v = Vec::new();
    if c.treaty {
        v.push("T");
    }
    if c.conditional {
        v.push("T1");
    }
    if c.enemy {
        v.push("E");
    }
    if c.outrage {
        v.push("R");
    }
    if c.agent_lost {
        v.push("X");
    }
    if c.neutral {
        v.push("N");
    }
    if v.is_empty() {
        "-".into()
    } else {
        v.join("+")
    }
}

/// A Negotiations or Ultimatum Table cell in words (15.1, 15.62), for the
/// players who read its code: what each mark does, as this ruleset plays
/// it (R and N are stand-ins, ruling A5 and 5.5).
pub fn words(d: &Data, c: &NegCell, p: Power, r: RegionId, agent: &str) -> String {
    let (region, np) = (&d.reg(r).name, p.other().people());
    let mut v = Vec::new();
    if c.treaty {
        v.push(format!("treaty, {region} joins the {}", p.people()));
    }
    if c.conditional {
        v.push(format!(
            "a treaty if a further die reads 1-{}",
            d.num.ultimatum.t1_success
        ));
    }
    if c.enemy {
        v.push(format!("a neutral {region} joins the {np}"));
    }
    if c.outrage {
        v.push(format!(
            "outrage, the index shifts {} toward the {np} (ruling A5)",
            d.num.bop_changes.negotiation_r
        ));
    }
    if c.agent_lost {
        v.push(format!("{agent} is eliminated (16.4(2))"));
    }
    if c.neutral {
        v.push(format!(
            "if the {np} control {region}, it reverts to neutral (stand-in, 5.5)"
        ));
    }
    if v.is_empty() {
        "no effect".into()
    } else {
        v.join("; ")
    }
}

fn result(
    ctx: &mut Ctx,
    st: &mut State,
    p: Power,
    at: &Attempt,
    cell: NegCell,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let r = at.region;
    let mut treaty = cell.treaty;
    if cell.conditional {
        let t = ctx.dice.d6("ultimatum T1 (15.62)")?;
        treaty |= t <= d.num.ultimatum.t1_success;
        ctx.say(
            format!(
                "T1: roll {t}, {} (15.62).",
                if t <= d.num.ultimatum.t1_success {
                    "treaty"
                } else {
                    "no effect"
                }
            ),
            vec![],
        );
    }
    if cell.outrage {
        st.bop = bop::shifted(d, st.bop, p.other(), d.num.bop_changes.negotiation_r);
    }
    if cell.agent_lost {
        super::combat::kill_agent(ctx, st, at.agent, "16.4(2)");
    }
    if treaty {
        control::set_control(ctx, st, r, p, Why::Other)?;
    } else if cell.enemy && st.control[r].is_none() {
        control::set_control(ctx, st, r, p.other(), Why::Other)?;
    } else if cell.neutral && st.control[r] == Some(p.other()) {
        // 5.5: reversion as "the result of negotiations".
        let (home, lost) = control::revert(d, st, r, p.other());
        ctx.say(
            format!(
                "{} reverts to neutral (5.5, 5.51): {home} of its units outside it go home, {lost} are eliminated.",
                d.reg(r).name
            ),
            vec![d.city(d.reg(r).capital).sq],
        );
    }
    Ok(())
}
