//! Optional rule 32.0, Discoveries: a British or Russian agent in a city of a
//! region that began the scenario neutral rolls two dice read as a d66 (the
//! first die the tens, the second the ones) on the Discovery Table (32.6).
//! One attempt per city per game, by either player (32.4). The printed table
//! stops after 22; results 23-66 are marked stand-ins in `games/ac/tables.toml`.
//!
//! Rulings: an attempt is the order `discover AGENT [SQUARE]` in the owner's
//! operations phase (32.1 "at the end of any particular operation": after the
//! agent's force has moved); the square is the Hashishan's target, declared
//! in advance (digest: conditional orders), and the victim is the first enemy
//! agent listed there. Commercial Advance pays the doubled (Trade Boom:
//! tripled) city income of the region at once, since this turn's income was
//! collected before the operations phases.

use super::bop;
use super::data::{AgentSide, CityId, Data, DiscoveryRow, Power, RegionId};
use super::economy;
use super::geom::Sq;
use super::state::{AgentId, Loc, State};
use super::turn::Ctx;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use umpire_core::ruleset::RuleError;

/// What discoveries have done in this game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discoveries {
    /// Cities where a discovery was attempted, and by whom (32.4).
    pub tried: BTreeMap<CityId, Power>,
    /// Once-a-game results that have occurred (32.5).
    pub spent: Vec<u32>,
    /// Regions whose city squares forage double for the rest of the turn (Bazaar).
    pub bazaar: Vec<RegionId>,
    /// Gates of Somnath this turn: the player with +1 (the other has -1).
    pub somnath: Option<Power>,
}

const EFFECTS: [&str; 9] = [
    "none",
    "bop",
    "pounds",
    "mahdum",
    "bazaar",
    "buzkashi",
    "commercial",
    "somnath",
    "hashishan",
];

/// Checks the table: every d66 result once, effects from the vocabulary.
pub fn check_table(rows: &[DiscoveryRow], errors: &mut Vec<String>) {
    let mut seen = Vec::new();
    for r in rows {
        let (t, o) = (r.roll / 10, r.roll % 10);
        if !(1..=6).contains(&t) || !(1..=6).contains(&o) || seen.contains(&r.roll) {
            errors.push(format!(
                "tables.discovery: roll {} is not a d66 result or is repeated (32.6)",
                r.roll
            ));
        }
        seen.push(r.roll);
        if !EFFECTS.contains(&r.effect.as_str()) {
            errors.push(format!(
                "tables.discovery {}: effect {:?} is not one of {}",
                r.roll,
                r.effect,
                EFFECTS.join(", ")
            ));
        }
    }
    if seen.len() != 36 {
        errors.push(format!(
            "tables.discovery: want the 36 results 11-66, got {}",
            seen.len()
        ));
    }
}

fn illegal(m: impl Into<String>, rule: &str) -> RuleError {
    RuleError::illegal(m, rule)
}

/// Checks an attempt by `p`'s agent `a`; returns the city.
pub fn check(d: &Data, st: &State, p: Power, a: AgentId) -> Result<CityId, RuleError> {
    if !st.options.discoveries {
        return Err(illegal(
            "discoveries are an optional rule not chosen for this game",
            "32.0",
        ));
    }
    let info = &d.agents[a];
    if info.side != AgentSide::Power(p) {
        return Err(illegal(
            format!(
                "only your own red or blue agents make discoveries, not {}",
                info.name
            ),
            "32.2",
        ));
    }
    let Loc::Sq(s) = st.agent(a).loc else {
        return Err(illegal(format!("{} is not on the map", info.name), "32.1"));
    };
    let c = d
        .city_at(s)
        .ok_or_else(|| illegal(format!("{} is not in a city", info.name), "32.1"))?;
    let region = d.city(c).region;
    if st.sc(d).control.iter().any(|(r, _)| *r == region) {
        return Err(illegal(
            format!("{} did not begin the scenario neutral", d.reg(region).name),
            "32.1",
        ));
    }
    if let Some(by) = st.discoveries.tried.get(&c) {
        return Err(illegal(
            format!(
                "the {} already attempted a discovery in {} this game",
                by.people(),
                d.city(c).name
            ),
            "32.4",
        ));
    }
    Ok(c)
}

/// Carries out an attempt (after [`check`]).
pub fn apply(
    ctx: &mut Ctx,
    st: &mut State,
    p: Power,
    a: AgentId,
    target: Option<Sq>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let c = check(d, st, p, a)?;
    let name = d.agents[a].name.clone();
    let tens = ctx
        .dice
        .d6(&format!("discovery by {name}, tens die (32.1)"))?;
    let ones = ctx
        .dice
        .d6(&format!("discovery by {name}, ones die (32.1)"))?;
    let roll = tens * 10 + ones;
    st.discoveries.tried.insert(c, p);
    let Some(row) = d.num.discovery.iter().find(|r| r.roll == roll).cloned() else {
        return Ok(());
    };
    let city = d.city(c).clone();
    let sq = city.sq;
    if row.once && st.discoveries.spent.contains(&roll) {
        ctx.say(
            format!(
                "{name} finds nothing in {}: {roll}, {}, has already occurred (32.6).",
                city.name, row.name
            ),
            vec![sq],
        );
        return Ok(());
    }
    if row.once {
        st.discoveries.spent.push(roll);
    }
    ctx.say(
        format!(
            "Discovery in {} by {name}: {roll}, {} (32.6).",
            city.name, row.name
        ),
        vec![sq],
    );
    effect(ctx, st, p, a, &row, city.region, target)
}

fn shift(ctx: &mut Ctx, st: &mut State, toward: Power, n: i32) {
    st.bop = bop::shifted(ctx.d, st.bop, toward, n);
    ctx.say(
        format!(
            "The index shifts {n} toward the {}: {} (32.6).",
            toward.people(),
            bop::describe(ctx.d, st.bop)
        ),
        vec![],
    );
}

fn effect(
    ctx: &mut Ctx,
    st: &mut State,
    p: Power,
    a: AgentId,
    row: &DiscoveryRow,
    region: RegionId,
    target: Option<Sq>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let info = &d.agents[a];
    match row.effect.as_str() {
        "bop" if row.value >= 0 => shift(ctx, st, p, row.value),
        "bop" => shift(ctx, st, p.other(), -row.value),
        "pounds" => {
            st.treasury[p.index()] += row.value.max(0) as u32;
            ctx.tell(
                p,
                format!(
                    "You gain {} pounds (32.6): {} pounds now.",
                    row.value,
                    st.treasury[p.index()]
                ),
            );
        }
        "mahdum" => {
            let die = ctx.dice.d6("Ahmad Mahdum (32.6 11)")?;
            if die <= info.political {
                shift(ctx, st, p, 2);
            } else {
                ctx.say("Ahmad Mahdum: no effect (32.6 11).", vec![]);
            }
        }
        "bazaar" => st.discoveries.bazaar.push(region),
        "buzkashi" => {
            let die = ctx.dice.d6("Buzkashi (32.6 15)")?;
            let toward = if die % 2 == 0 { p } else { p.other() };
            shift(ctx, st, toward, 1);
        }
        "commercial" => commercial(ctx, st, region),
        "somnath" => st.discoveries.somnath = Some(p),
        "hashishan" => hashishan(ctx, st, p, target)?,
        _ => {}
    }
    Ok(())
}

/// Commercial Advance: both players' city income from the region is paid
/// once more now (twice more under a Trade Boom this turn).
fn commercial(ctx: &mut Ctx, st: &mut State, region: RegionId) {
    let d = ctx.d;
    let extra = if st.events_this_turn.iter().any(|e| e == "trade_boom") {
        2
    } else {
        1
    };
    for p in Power::ALL {
        let n = extra * economy::region_city_income(d, st, p, region);
        st.treasury[p.index()] += n;
        ctx.tell(
            p,
            format!(
                "Commercial Advance: {n} more pounds from {} (32.6 16).",
                d.reg(region).name
            ),
        );
    }
}

/// Hashishan: the declared square's enemy agents are revealed; the first is
/// eliminated on a die above his political plus military values.
fn hashishan(ctx: &mut Ctx, st: &mut State, p: Power, target: Option<Sq>) -> Result<(), RuleError> {
    let d = ctx.d;
    let Some(s) = target else {
        ctx.say(
            "Hashishan: no square was declared; no effect (32.6 22).",
            vec![],
        );
        return Ok(());
    };
    let victims: Vec<AgentId> = st.side_agents_at(d, Loc::Sq(s), p.other()).collect();
    if !st.occupies(s, p.other()) || victims.is_empty() {
        ctx.say(
            format!("Hashishan at {s}: no enemy agents there (32.6 22)."),
            vec![s],
        );
        return Ok(());
    }
    let v = victims[0];
    let info = &d.agents[v];
    let die = ctx
        .dice
        .d6(&format!("Hashishan against {} (32.6 22)", info.name))?;
    if die > info.political + info.military {
        st.agent_mut(v).loc = if State::is_generic(d, v) {
            Loc::Pool
        } else {
            Loc::Dead
        };
        ctx.say(
            format!("The Hashishan kill {} at {s} (32.6 22).", info.name),
            vec![s],
        );
        shift(ctx, st, p.other(), 1);
    } else {
        ctx.say(
            format!("{} survives the Hashishan at {s} (32.6 22).", info.name),
            vec![s],
        );
    }
    Ok(())
}
