//! Control, neutrality, belligerency and invasion (5.0): control changes, the
//! invasion defence levy (5.42(3)), defection (5.6) and the belligerency check
//! of the phasing player (5.41, ruling A17: only his combat units trigger it).
//! Reversion to neutrality (5.5, 5.51: "the result of negotiations or an
//! event", and by cession, 23.1(2)) is [`revert`], whichever causes it: the
//! `N` result of the stand-in Negotiations Table against a region the other
//! player controls, the stand-in Native Unrest event, or `cede R to neutral`.

use super::data::{AgentSide, Data, Kind, Nat, Power, RegionId};
use super::geom::Sq;
use super::standing::reversion_entry;
use super::state::{AgentId, Loc, State, UnitId};
use super::turn::Ctx;
use umpire_core::ruleset::RuleError;

/// How a neutral region came to be controlled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// Invasion (5.4(3)): the levy always follows.
    Invasion,
    /// Negotiations or an event (5.4(1)-(2)): the levy follows by ruling A14.
    Other,
}

/// Gives region `r` to `to` (5.42, 5.6).
pub fn set_control(
    ctx: &mut Ctx,
    st: &mut State,
    r: RegionId,
    to: Power,
    why: Why,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let from = st.control[r];
    if from == Some(to) {
        return Ok(());
    }
    st.control[r] = Some(to);
    let name = &d.reg(r).name;
    match from {
        None => {
            ctx.say(
                format!("{name} becomes {}-controlled (5.42(1)).", to.name()),
                vec![],
            );
            if why == Why::Invasion || st.options.levy_any {
                levy(ctx, st, r, to)?;
            }
        }
        Some(old) => {
            ctx.say(
                format!(
                    "{name} defects from the {} to the {} (5.6).",
                    old.people(),
                    to.people()
                ),
                vec![],
            );
            let doomed = stacked_with_former(d, st, r, old);
            if !doomed.is_empty() {
                let ids: Vec<String> = doomed.iter().map(|u| st.unit(*u).id.to_string()).collect();
                for u in doomed {
                    st.unit_mut(u).loc = Loc::Pool;
                }
                ctx.say(
                    format!(
                        "Stacked with their former allies, {} are eliminated (5.6).",
                        ids.join(" ")
                    ),
                    vec![],
                );
            }
        }
    }
    Ok(())
}

/// 5.6: the units of `r`, which has just defected from `old` (its control
/// already changed), that stand with formerly friendly forces and are
/// eliminated. A force is "one or more units" (2.4), a lone agent among them
/// (12.2(2) "even if just one agent"; ruling A30), so from version 9 a square
/// where `old` has no more than an agent dooms them too, unless the game
/// chose `defection=combat` (only his combat units count, as version 8 did).
/// The region's own agents defect with it (16.7) and spare no one.
pub fn stacked_with_former(d: &Data, st: &State, r: RegionId, old: Power) -> Vec<UnitId> {
    let agents_count = d.version >= 9 && !st.options.defection_combat_only;
    let former_at = |s: Sq| {
        st.units_at(Loc::Sq(s))
            .any(|o| st.unit(o).nat != Nat::Native(r) && st.owner(st.unit(o).nat) == Some(old))
            || (agents_count
                && st.agents_at(Loc::Sq(s)).any(|a| {
                    d.agents[a].side != AgentSide::Native(r) && st.agent_owner(d, a) == Some(old)
                }))
    };
    (0..st.units.len())
        .map(|i| UnitId(i as u16))
        .filter(|u| {
            let x = st.unit(*u);
            x.nat == Nat::Native(r) && x.loc.sq().is_some_and(former_at)
        })
        .collect()
}

/// Squares of `r` where the levy may go: no units but the region's own and
/// `to`'s, capital first, then the other cities, then the rest by distance
/// from the capital (N7).
fn levy_squares(ctx: &Ctx, st: &State, r: RegionId, to: Power) -> Vec<Sq> {
    let d = ctx.d;
    let cap = d.city(d.reg(r).capital).sq;
    let free = |s: Sq| {
        st.units_at(Loc::Sq(s)).all(|u| {
            let n = st.unit(u).nat;
            n == Nat::Native(r) || st.owner(n) == Some(to)
        })
    };
    let mut v: Vec<Sq> = d
        .all_squares()
        .filter(|s| d.sq(*s).and_then(|i| i.region) == Some(r) && free(*s))
        .collect();
    v.sort_by_key(|s| (*s != cap, d.city_at(*s).is_none(), s.distance(cap), *s));
    v
}

/// The invasion defence levy (5.42(3)): a die of the region's irregulars, up
/// to the counter mix, and its Khan if not on the map.
fn levy(ctx: &mut Ctx, st: &mut State, r: RegionId, to: Power) -> Result<(), RuleError> {
    let d = ctx.d;
    let n = ctx.dice.d6(&format!(
        "invasion defence levy, {} (5.42(3))",
        d.reg(r).code
    ))?;
    let Some(s) = levy_squares(ctx, st, r, to).first().copied() else {
        ctx.say(
            format!(
                "No square of {} is free for its levy (5.42(3)).",
                d.reg(r).name
            ),
            vec![],
        );
        return Ok(());
    };
    let free: Vec<UnitId> = (0..st.units.len())
        .map(|i| UnitId(i as u16))
        .filter(|u| {
            st.unit(*u).nat == Nat::Native(r)
                && st.unit(*u).kind == Kind::Irregular
                && st.unit(*u).loc == Loc::Pool
        })
        .take(n as usize)
        .collect();
    let got = free.len();
    for u in free {
        st.unit_mut(u).loc = Loc::Sq(s);
    }
    let khan = d
        .agents
        .iter()
        .position(|a| a.side == AgentSide::Native(r) && a.kind == super::data::AgentKind::Khan)
        .map(|i| AgentId(i as u16));
    let mut with_khan = "";
    if let Some(k) = khan
        && st.agent(k).loc == Loc::Pool
        && got > 0
    {
        st.agent_mut(k).loc = Loc::Sq(s);
        st.agent_mut(k).face_up = false; // 22.3: a newcomer stands face down
        with_khan = " and its Khan";
    }
    ctx.say(
        format!(
            "{} raises {got} irregular group{}{with_khan} for the {} at {s} (5.42(3)).",
            d.reg(r).name,
            if got == 1 { "" } else { "s" },
            to.people()
        ),
        vec![s],
    );
    Ok(())
}

/// The belligerency check sub-phase (5.41(1)-(2)): a neutral region whose
/// units share a square with the phasing player's combat units, or one of
/// whose cities they occupy, is invaded and joins the other player.
pub fn belligerency(ctx: &mut Ctx, st: &mut State, phasing: Power) -> Result<(), RuleError> {
    let d = ctx.d;
    for i in 0..d.regions.len() {
        let r = RegionId(i as u8);
        if st.control[i].is_some() {
            continue;
        }
        // The squares its units stand on, read afresh for each region: an
        // invasion before it may have changed the state.
        let natives: Vec<Sq> = st
            .units
            .iter()
            .filter(|x| x.nat == Nat::Native(r))
            .filter_map(|x| x.loc.sq())
            .collect();
        let mut invaded = None;
        for x in &st.units {
            let Some(s) = x.loc.sq() else { continue };
            if st.owner(x.nat) != Some(phasing) {
                continue;
            }
            let with_neutrals = natives.contains(&s);
            let in_city = d.city_at(s).is_some_and(|c| d.city(c).region == r);
            if with_neutrals || in_city {
                invaded = Some(s);
                break;
            }
        }
        if let Some(s) = invaded {
            ctx.say(
                format!(
                    "The {} invade {} at {s}: it joins the {} (5.4(3), 5.41).",
                    phasing.people(),
                    d.reg(r).name,
                    phasing.other().people()
                ),
                vec![s],
            );
            set_control(ctx, st, r, phasing.other(), Why::Invasion)?;
        }
    }
    Ok(())
}

/// Reversion to neutrality (5.51): `r`'s control marker goes to the neutral
/// space (5.51(1)); its units outside it are picked up and placed on its
/// free cities (no British, Russian or other regions' units) as `former`,
/// its controller until now, chooses (5.51(2); his standing order N8),
/// eliminated if none is free; belligerent units in it stay, and the next
/// belligerency checks may invade it again (5.51(3), 5.52). Returns how many
/// units went home and how many were eliminated.
pub fn revert(d: &Data, st: &mut State, r: RegionId, former: Power) -> (usize, usize) {
    st.control[r] = None;
    let away: Vec<UnitId> = (0..st.units.len())
        .map(|x| UnitId(x as u16))
        .filter(|u| st.unit(*u).nat == Nat::Native(r))
        .filter(|u| match st.unit(*u).loc {
            Loc::Sq(s) => d.sq(s).and_then(|x| x.region) != Some(r),
            Loc::Base(_) => true,
            _ => false,
        })
        .collect();
    let (mut home, mut lost) = (0, 0);
    for u in away {
        let from = st.unit(u).loc.sq();
        match reversion_city(d, st, former, r, u, from) {
            Some(c) => {
                st.unit_mut(u).loc = Loc::Sq(c);
                home += 1;
            }
            None => {
                st.unit_mut(u).loc = Loc::Pool;
                lost += 1;
            }
        }
    }
    (home, lost)
}

/// 5.51(2): the city of `r` unit `u`, standing on `from`, goes home to, as
/// the former controller `p` chooses: the first free city his standing
/// order names for `u` itself (`UNIT=CITY`, ruling A70: he places each
/// unit), else the first free city of his list for `r` (N8), else the
/// nearest free city (ties by city order; from a home base, the first).
/// Free: no British, Russian or other regions' units.
fn reversion_city(
    d: &Data,
    st: &State,
    p: Power,
    r: RegionId,
    u: UnitId,
    from: Option<Sq>,
) -> Option<Sq> {
    let free = |c: &Sq| {
        st.units_at(Loc::Sq(*c))
            .all(|o| st.unit(o).nat == Nat::Native(r))
    };
    let code = d.reg(r).code.to_ascii_lowercase();
    let entries: Vec<(Option<&str>, &str)> = st.standing[p.index()]
        .reversion
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(&code))
        .into_iter()
        .flat_map(|(_, cs)| cs.iter().map(|e| reversion_entry(e)))
        .collect();
    let id = &st.unit(u).id;
    let city_of = |c: &str| {
        d.find_city(c)
            .filter(|c| d.city(*c).region == r)
            .map(|c| d.city(c).sq)
    };
    let pick = |mine: bool| {
        entries
            .iter()
            .filter(|(who, _)| who.map(|w| w.eq_ignore_ascii_case(id)) == mine.then_some(true))
            .filter_map(|(_, c)| city_of(c))
            .find(|c| free(c))
    };
    pick(true).or_else(|| pick(false)).or_else(|| {
        d.reg(r)
            .cities
            .iter()
            .map(|c| d.city(*c).sq)
            .filter(|c| free(c))
            .min_by_key(|c| from.map_or(0, |f| f.distance(*c)))
    })
}
