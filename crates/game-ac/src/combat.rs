//! Combat (14.0): mandatory combat in every square holding both players'
//! combat units, withdrawal before combat (14.5), the choice of CRT (14.6),
//! odds (14.7), agents' DRM (14.8), results (14.9) with retreats and losses
//! (stand-in procedure, ruling A31), open war (24.0) and agent capture at the
//! end of the combat phase (16.4(4), 16.41).

use super::bop;
use super::data::{CrtCell, CrtCode, CrtLetter, Data, MarkerKind, Power, Terrain};
use super::geom::{Grid, Sq};
use super::state::{AgentId, CrtChoice, Loc, State, UnitId};
use super::turn::Ctx;
use std::collections::BTreeMap;
use umpire_core::ruleset::RuleError;

/// The odds columns (14.71-14.73).
pub const COLUMNS: [&str; 7] = ["1:3", "1:2", "1:1", "1.5:1", "2:1", "3:1", "4:1"];

/// The odds column for attack and (multiplied) defence strengths (14.71-14.73, ruling A32).
pub fn odds_column(att: u32, def: u32) -> usize {
    let (a, d) = (att.max(1), def.max(1));
    if a >= d {
        if 2 * a < 3 * d {
            2
        } else if a < 2 * d {
            3
        } else {
            match a / d {
                2 => 4,
                3 => 5,
                _ => 6,
            }
        }
    } else {
        match d.div_ceil(a) {
            1 | 2 => 1,
            _ => 0,
        }
    }
}

/// Which CRTs a force may use (14.61, 14.62): at least half its factors B or C
/// for Battle, R or C for Raid.
pub fn crts_allowed(d: &Data, st: &State, units: &[UnitId]) -> (bool, bool) {
    let (mut total, mut b, mut r) = (0, 0, 0);
    for u in units {
        let x = st.unit(*u);
        let s = d.stats(x.nat, x.kind);
        total += s.strength;
        match s.crt {
            CrtLetter::B => b += s.strength,
            CrtLetter::R => r += s.strength,
            CrtLetter::C => {
                b += s.strength;
                r += s.strength;
            }
        }
    }
    (2 * b >= total, 2 * r >= total)
}

/// Why the force of `p` on `s` may not fight on `table` (14.61, 14.62), or
/// `None` if it may (or `p` has no combat units there: every friendly unit
/// in the square attacks as one force, 14.22).
pub fn crt_refusal(d: &Data, st: &State, p: Power, s: Sq, table: CrtChoice) -> Option<RuleError> {
    crt_problem(d, st, p, s, table).map(|(m, rule)| RuleError::illegal(m, rule))
}

/// [`crt_refusal`]'s reason and rule.
fn crt_problem(
    d: &Data,
    st: &State,
    p: Power,
    s: Sq,
    table: CrtChoice,
) -> Option<(String, &'static str)> {
    let units: Vec<UnitId> = st.side_units_at(Loc::Sq(s), p).collect();
    if units.is_empty() {
        return None;
    }
    let (battle_ok, raid_ok) = crts_allowed(d, st, &units);
    let (ok, name, letters, rule) = match table {
        CrtChoice::Battle => (battle_ok, "Battle", "B or C", "14.61"),
        CrtChoice::Raid => (raid_ok, "Raid", "R or C", "14.62"),
    };
    if ok {
        return None;
    }
    let mut f = [0u32; 3];
    for u in &units {
        let x = st.unit(*u);
        let stats = d.stats(x.nat, x.kind);
        f[stats.crt as usize] += stats.strength;
    }
    Some((
        format!(
            "the {} force on {s} may not use the {name} table: of its {} combat factors {} are B, {} R and {} C, and the {name} table needs at least half {letters}",
            p.name(),
            f.iter().sum::<u32>(),
            f[0],
            f[1],
            f[2]
        ),
        rule,
    ))
}

/// The defender's one multiplier (14.74: the best, never more than tripled;
/// a fort only his own, 20.4).
pub fn multiplier(d: &Data, st: &State, s: Sq, defender: Power) -> u32 {
    let mut m = 1;
    if let Some(info) = d.sq(s) {
        let key = match info.terrain {
            Terrain::Desert => "desert",
            Terrain::Mountain => "mountain",
            _ => "clear",
        };
        m = m.max(d.num.terrain.get(key).map_or(1, |t| t.defence));
        if info.city.is_some() {
            m = m.max(d.num.city.defence);
        }
    }
    if st.has_marker(s, defender, MarkerKind::Fort) {
        m = m.max(d.num.fort.defence);
    }
    m.min(d.num.movement.max_multiplier)
}

fn best_military(d: &Data, st: &State, s: Sq, p: Power) -> u32 {
    st.side_agents_at(d, Loc::Sq(s), p)
        .map(|a| d.agents[a].military)
        .max()
        .unwrap_or(0)
}

/// Every combat of the phasing player's combat sub-phase (14.21-14.3).
pub fn combat_phase(
    ctx: &mut Ctx,
    st: &mut State,
    att: Power,
    crt: &BTreeMap<Sq, CrtChoice>,
) -> Result<(), RuleError> {
    let mut squares: Vec<Sq> = st
        .units
        .iter()
        .filter(|u| st.owner(u.nat) == Some(att))
        .filter_map(|u| u.loc.sq())
        .filter(|s| st.occupies(*s, att.other()))
        .collect();
    squares.sort();
    squares.dedup();
    let mut fought = Vec::new();
    for s in squares {
        if st.occupies(s, att) && st.occupies(s, att.other()) {
            battle(ctx, st, s, att, crt.get(&s).copied())?;
            fought.push(s);
        }
    }
    // From version 9 a CRT choice no combat used is told to its player (14.6).
    if ctx.d.version >= 9 {
        for (s, c) in crt {
            if !fought.contains(s) {
                ctx.tell(
                    att,
                    format!(
                        "No combat at {s}: your choice of the {} table there was not used (14.6, 14.21).",
                        table_name(*c)
                    ),
                );
            }
        }
    }
    Ok(())
}

fn table_name(c: CrtChoice) -> &'static str {
    match c {
        CrtChoice::Battle => "Battle",
        CrtChoice::Raid => "Raid",
    }
}

fn names(st: &State, us: &[UnitId]) -> String {
    us.iter()
        .map(|u| st.unit(*u).id)
        .collect::<Vec<_>>()
        .join(" ")
}

fn battle(
    ctx: &mut Ctx,
    st: &mut State,
    s: Sq,
    att: Power,
    choice: Option<CrtChoice>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let def = att.other();
    let a_units: Vec<UnitId> = st.side_units_at(Loc::Sq(s), att).collect();
    let d_units: Vec<UnitId> = st.side_units_at(Loc::Sq(s), def).collect();
    // 14.1(1), 22.1(2): both stacks are revealed.
    ctx.say(
        format!(
            "Combat at {s}: the {} attack with {} against {} (14.1).",
            att.people(),
            names(st, &a_units),
            names(st, &d_units)
        ),
        vec![s],
    );
    // 14.5: withdrawal before combat (N3).
    if withdraws(ctx, st, s, def, &a_units, &d_units) {
        return Ok(());
    }
    open_war(ctx, st, &a_units, &d_units, att)?;
    let table = table(ctx, st, s, att, choice, &a_units);
    let a_str: u32 = a_units.iter().map(|u| st.strength(d, *u)).sum();
    let m = multiplier(d, st, s, def);
    let d_str: u32 = d_units.iter().map(|u| st.strength(d, *u)).sum::<u32>() * m;
    let col = odds_column(a_str, d_str);
    let drm = best_military(d, st, s, att) as i32 - best_military(d, st, s, def) as i32;
    let die = ctx.dice.d6(&format!("combat at {s} (14.1(5))"))? as i32;
    let row = (die + drm).clamp(0, 7) as usize;
    let cells = if table == CrtChoice::Battle {
        &d.battle
    } else {
        &d.raid
    };
    let cell = cells[row][col];
    ctx.say(
        format!(
            "{} CRT, {a_str} against {d_str} (x{m}): {}; die {die}{:+} gives {:?}{}: {} (14.7-14.9).",
            if table == CrtChoice::Battle {
                "Battle"
            } else {
                "Raid"
            },
            COLUMNS[col],
            drm,
            cell.code,
            if cell.leaders { "*" } else { "" },
            crt_words(cell, att, def)
        ),
        vec![s],
    );
    carry_out(ctx, st, s, (att, def), cell, &a_units, &d_units);
    Ok(())
}

/// A CRT result in words (14.9, 16.4(3)), for the players who read its code.
pub fn crt_words(cell: CrtCell, att: Power, def: Power) -> String {
    let (a, d) = (att.people(), def.people());
    let what = match cell.code {
        CrtCode::AE => format!("the {a} are eliminated"),
        CrtCode::DE => format!("the {d} are eliminated"),
        CrtCode::AR => format!("the {a} retreat one square"),
        CrtCode::DR => format!("the {d} retreat one square"),
        CrtCode::AR1 => format!("the {a} lose one brigade, then retreat one square"),
        CrtCode::DR1 => format!("the {d} lose one brigade, then retreat one square"),
        CrtCode::EX => {
            format!("exchange: the {d} are eliminated and the {a} lose as many brigade equivalents")
        }
    };
    if cell.leaders {
        format!("{what}, and the losers' agents there with them (16.4(3))")
    } else {
        what
    }
}

/// 14.5 (N3): the defender withdraws before combat if every unit of his
/// is faster than the attacker's fastest and his standing order says so.
fn withdraws(
    ctx: &mut Ctx,
    st: &mut State,
    s: Sq,
    def: Power,
    a_units: &[UnitId],
    d_units: &[UnitId],
) -> bool {
    let d = ctx.d;
    let fastest = a_units
        .iter()
        .map(|u| d.stats(st.unit(*u).nat, st.unit(*u).kind).mf)
        .max()
        .unwrap_or(0);
    let can_withdraw = d_units
        .iter()
        .all(|u| d.stats(st.unit(*u).nat, st.unit(*u).kind).mf > fastest);
    if can_withdraw && st.standing[def.index()].withdraw {
        ctx.say(
            format!("The {} withdraw before combat (14.5).", def.people()),
            vec![s],
        );
        retreat(ctx, st, s, def, d_units);
        return true;
    }
    false
}

/// The table the combat is fought on: the chosen one if the force may use
/// it, else the one it may (14.6).
fn table(
    ctx: &mut Ctx,
    st: &State,
    s: Sq,
    att: Power,
    choice: Option<CrtChoice>,
    a_units: &[UnitId],
) -> CrtChoice {
    let d = ctx.d;
    let (battle_ok, raid_ok) = crts_allowed(d, st, a_units);
    // A force may always use one table: its B and C factors and its R and
    // C factors together are at least all of them.
    let usable = if battle_ok {
        CrtChoice::Battle
    } else {
        CrtChoice::Raid
    };
    match choice {
        Some(CrtChoice::Raid) if raid_ok => CrtChoice::Raid,
        Some(CrtChoice::Battle) if battle_ok => CrtChoice::Battle,
        // Version 9 refuses a choice the force may not use when it is
        // written and after every order that could change the force
        // before a roll; one that a negotiation's result (after its roll)
        // spoilt is told here, never fought silently on the other table.
        Some(c) if d.version >= 9 => {
            let why = crt_problem(d, st, att, s, c)
                .map_or(String::new(), |(m, rule)| format!("{m} ({rule})"));
            ctx.tell(
                att,
                format!(
                    "Your choice of the {} table at {s} cannot stand: {why}; the combat is fought on the {} table.",
                    table_name(c),
                    table_name(usable)
                ),
            );
            usable
        }
        _ => usable,
    }
}

/// The combat result carried out (14.7-14.9): eliminations, retreats, step
/// losses, and leaders lost with a starred result (16.4(3)).
fn carry_out(
    ctx: &mut Ctx,
    st: &mut State,
    s: Sq,
    (att, def): (Power, Power),
    cell: CrtCell,
    a_units: &[UnitId],
    d_units: &[UnitId],
) {
    let d = ctx.d;
    let (loser, loser_units) = match cell.code {
        CrtCode::AE | CrtCode::AR | CrtCode::AR1 => (att, a_units.to_vec()),
        _ => (def, d_units.to_vec()),
    };
    match cell.code {
        CrtCode::AE | CrtCode::DE => eliminate(ctx, st, &loser_units),
        CrtCode::AR | CrtCode::DR => retreat(ctx, st, s, loser, &loser_units),
        CrtCode::AR1 | CrtCode::DR1 => {
            let rest = lose(ctx, st, &loser_units, 1);
            retreat(ctx, st, s, loser, &rest);
        }
        CrtCode::EX => {
            let n = d_units.len();
            eliminate(ctx, st, d_units);
            lose(ctx, st, a_units, n);
        }
    }
    if cell.leaders {
        let agents: Vec<AgentId> = st.side_agents_at(d, Loc::Sq(s), loser).collect();
        for a in agents {
            kill_agent(ctx, st, a, "16.4(3)");
        }
    }
}

/// Open war (24.0; errata: once a game): red or blue combat units attacking a
/// force with the other's red or blue combat units.
fn open_war(
    ctx: &mut Ctx,
    st: &mut State,
    a: &[UnitId],
    dfd: &[UnitId],
    att: Power,
) -> Result<(), RuleError> {
    if st.open_war.is_some() {
        return Ok(());
    }
    let regular = |us: &[UnitId], p: Power| us.iter().any(|u| st.unit(*u).nat.regular() == Some(p));
    if !(regular(a, att) && regular(dfd, att.other())) {
        return Ok(());
    }
    let d = ctx.d;
    st.open_war = Some(att);
    let pounds: u32 = ctx
        .dice
        .roll_n(
            d.num.open_war.pounds_dice,
            6,
            "open war: the defender's pounds (24.1(1))",
        )?
        .iter()
        .sum();
    let shift = ctx
        .dice
        .roll_n(
            d.num.open_war.bop_dice,
            6,
            "open war: Balance of Power shift (24.1(2))",
        )?
        .iter()
        .sum::<u32>();
    st.treasury[att.other().index()] += pounds;
    st.bop = bop::shifted(d, st.bop, att, shift as i32);
    ctx.say(
        format!(
            "Open war! The {} receive pounds and the index shifts {shift} toward the {} (24.1).",
            att.other().people(),
            att.people()
        ),
        vec![],
    );
    Ok(())
}

fn eliminate(ctx: &mut Ctx, st: &mut State, units: &[UnitId]) {
    if units.is_empty() {
        return;
    }
    for u in units {
        st.unit_mut(*u).loc = Loc::Pool;
    }
    ctx.say(format!("Eliminated: {} (14.9).", names(st, units)), vec![]);
}

/// Loses `n` units, weakest first and red or blue last (N5); returns the rest.
fn lose(ctx: &mut Ctx, st: &mut State, units: &[UnitId], n: usize) -> Vec<UnitId> {
    let d = ctx.d;
    let mut v = units.to_vec();
    v.sort_by_key(|u| (st.unit(*u).nat.regular().is_some(), st.strength(d, *u), *u));
    let gone: Vec<UnitId> = v.iter().take(n).copied().collect();
    eliminate(ctx, st, &gone);
    v.into_iter().skip(n).collect()
}

/// Removes an agent: named ones for good, generic ones back to the pool (16.43).
pub fn kill_agent(ctx: &mut Ctx, st: &mut State, a: AgentId, rule: &str) {
    let d = ctx.d;
    st.agent_mut(a).loc = if State::is_generic(d, a) {
        Loc::Pool
    } else {
        Loc::Dead
    };
    ctx.say(
        format!("{} is eliminated ({rule}).", d.agents[a].name),
        vec![],
    );
}

/// The square a loser retreats to (ruling A31, N4): adjacent (diagonal only
/// if every unit is highlighted), land, no enemy combat units; best first:
/// friendly combat units there, a city, a friendly-controlled region, lowest label.
pub fn retreat_square(d: &Data, st: &State, s: Sq, p: Power, units: &[UnitId]) -> Option<Sq> {
    let diag_ok = units
        .iter()
        .all(|u| d.stats(st.unit(*u).nat, st.unit(*u).kind).highlighted);
    s.around()
        .iter()
        .filter(|(n, diag)| d.land(*n) && (!diag || diag_ok) && !st.occupies(*n, p.other()))
        .filter(|(n, diag)| !diag || s.corners(*n).iter().any(|c| d.land(*c)))
        .map(|(n, _)| *n)
        .max_by_key(|n| {
            let friends = st.occupies(*n, p);
            let city = d.city_at(*n).is_some();
            let region = d
                .sq(*n)
                .and_then(|i| i.region)
                .is_some_and(|r| st.control[r] == Some(p));
            (friends, city, region, std::cmp::Reverse(*n))
        })
}

/// Retreats units and their agents one square (14.1(7), ruling A31); with no
/// square to go to the units are eliminated.
fn retreat(ctx: &mut Ctx, st: &mut State, s: Sq, p: Power, units: &[UnitId]) {
    let d = ctx.d;
    if units.is_empty() {
        return;
    }
    match retreat_square(d, st, s, p, units) {
        Some(to) => {
            for u in units {
                st.unit_mut(*u).loc = Loc::Sq(to);
            }
            let agents: Vec<AgentId> = st.side_agents_at(d, Loc::Sq(s), p).collect();
            for a in agents {
                st.agent_mut(a).loc = Loc::Sq(to);
            }
            ctx.say(
                format!("The {} retreat from {s} to {to} (14.1(7)).", p.people()),
                vec![s, to],
            );
        }
        None => {
            ctx.say(
                format!(
                    "The {} have nowhere to retreat from {s} (ruling A31).",
                    p.people()
                ),
                vec![s],
            );
            eliminate(ctx, st, units);
        }
    }
}

/// The nearest square with units of `p` (16.41, ruling A36): king-move
/// distance, then the strongest stack, then the lowest label.
fn nearest_friends(d: &Data, st: &State, s: Sq, p: Power) -> Option<Sq> {
    let mut best: Option<(u32, std::cmp::Reverse<u32>, Sq)> = None;
    for u in 0..st.units.len() {
        let x = st.unit(UnitId(u as u16));
        let Some(at) = x.loc.sq() else { continue };
        if at == s || st.owner(x.nat) != Some(p) {
            continue;
        }
        let strength: u32 = st
            .side_units_at(Loc::Sq(at), p)
            .map(|u| st.strength(d, u))
            .sum();
        let key = (at.distance(s), std::cmp::Reverse(strength), at);
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    best.map(|(_, _, at)| at)
}

/// The capture check at the end of the phasing player's combat phase (16.4(4), 16.41).
pub fn captures(ctx: &mut Ctx, st: &mut State, phasing: Power) -> Result<(), RuleError> {
    let d = ctx.d;
    let enemy = phasing.other();
    let mut targets = Vec::new();
    for (i, a) in st.agents.iter().enumerate() {
        let id = AgentId(i as u16);
        let Some(s) = a.loc.sq() else { continue };
        if st.agent_owner(d, id) == Some(enemy) && st.occupies(s, phasing) && !st.occupies(s, enemy)
        {
            targets.push((id, s));
        }
    }
    for (a, s) in targets {
        let info = &d.agents[a];
        let roll = ctx
            .dice
            .d6(&format!("capture check, {} (16.41)", info.name))?;
        if roll <= info.political + info.military {
            let to = nearest_friends(d, st, s, enemy);
            let dest = match (to, info.side) {
                (Some(t), _) => Loc::Sq(t),
                (None, super::data::AgentSide::Power(p)) => Loc::Base(super::data::Base::of(p)),
                (None, _) => Loc::Pool,
            };
            if dest == Loc::Pool {
                kill_agent(ctx, st, a, "16.41, ruling A36");
            } else {
                st.agent_mut(a).loc = dest;
                ctx.say(
                    format!("{} escapes (roll {roll}) (16.41).", info.name),
                    vec![s],
                );
            }
        } else if State::is_generic(d, a) {
            ctx.say(format!("{} is caught (roll {roll}).", info.name), vec![s]);
            kill_agent(ctx, st, a, "16.41");
        } else if st.standing[phasing.index()].execute {
            st.agent_mut(a).loc = Loc::Dead;
            st.bop = bop::shifted(d, st.bop, enemy, d.num.bop_changes.agent_executed);
            ctx.say(
                format!(
                    "{} is captured and executed; the index shifts toward the {} (16.42(2)).",
                    info.name,
                    enemy.people()
                ),
                vec![s],
            );
        } else {
            st.agent_mut(a).loc = Loc::Prisoner(phasing);
            ctx.say(
                format!(
                    "{} is captured and held prisoner by the {} (16.42(1)).",
                    info.name,
                    phasing.people()
                ),
                vec![s],
            );
        }
    }
    Ok(())
}
