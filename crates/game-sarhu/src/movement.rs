//! Movement (6.0, 6.1): terrain costs, elevation, rivers and the palisade,
//! zones of control (1.2), stopping in a Pass or Fort, the cavalry mountain
//! rule, entry from off the map (9.0), contagion of disorganization (7.5(5)),
//! and stacking at the end of the move (1.1).

use super::data::{CmdId, Data, Faction, Terrain, UnitId};
use super::orders::{MoveSpec, Step};
use super::state::{Loc, State};
use super::turn::{Ctx, cname, why_not_activated};
use std::collections::BTreeSet;
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

fn illegal(message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::illegal(message, rule)
}

/// Why one step of a unit's move is not allowed, or its cost (6.1, 1.2).
///
/// `plain` says whether the unit has been in a Plain hex this action phase
/// (ruling A16); `from` is `None` when entering from off the map; `enemy`
/// whether an enemy combat unit is in `to` (its zone of control, 1.2(1)).
pub fn step_cost(
    d: &Data,
    st: &State,
    u: UnitId,
    from: Option<Hex>,
    to: Hex,
    plain: bool,
    enemy: bool,
) -> Result<u32, (String, &'static str)> {
    let id = &d.units[u].id;
    if !d.on_map(to) {
        return Err((format!("{id} cannot leave the map ({to})"), "6.0(4)"));
    }
    let tt = d.terrain_of(to);
    let mut cost = d.terrain[tt].cost;
    if let Some(from) = from {
        let Some(dir) = from.dir_to(to) else {
            return Err((format!("{id}: {to} is not next to {from}"), "6.0"));
        };
        if d.blocked(from, dir) {
            return Err((
                format!(
                    "{id} cannot cross the river or palisade between {from} and {to}: there is no bridge"
                ),
                "2.2(3), 6.1(3)",
            ));
        }
        let ft = d.terrain_of(from);
        if d.units[u].kind.is_mounted() && tt == Terrain::Mountain {
            if ft == Terrain::Plain {
                return Err((
                    format!("cavalry may not enter Mountain from Plain ({id}: {from} to {to})"),
                    "6.1(2)",
                ));
            }
            if plain && st.options.cavalry_phase {
                return Err((
                    format!(
                        "cavalry may not enter Mountain from Plain in one action phase ({id} was in Plain this phase)"
                    ),
                    "6.1(2), ruling A16",
                ));
            }
        }
        // 6.1(2): climbing costs extra per level; going down or level costs nothing.
        let up = i32::from(d.elevation(to)) - i32::from(d.elevation(from));
        cost += d.values.climb * up.max(0) as u32;
    }
    // 1.2(2), 6.0(2): entering a hex with an enemy combat unit costs one more.
    if enemy {
        cost += d.values.zoc;
    }
    Ok(cost)
}

/// Carries out a Move action (4.2.1, 6.0).
pub fn execute(
    ctx: &mut Ctx,
    st: &mut State,
    f: Faction,
    c: CmdId,
    specs: &[MoveSpec],
) -> Result<(), RuleError> {
    let d = ctx.d;
    let mut moved: Vec<UnitId> = Vec::new();
    let mut ends: BTreeSet<Hex> = BTreeSet::new();
    for spec in specs {
        for u in &spec.units {
            may_move(d, st, f, c, *u, &moved)?;
            let Some(end) = move_unit(ctx, st, f, c, *u, &spec.path)? else {
                continue;
            };
            moved.push(*u);
            ends.insert(end);
        }
    }
    stacking(d, st, f, &ends)?;
    if moved.is_empty() {
        ctx.say(format!("{} moves nobody", cname(d, c)), vec![]);
    }
    Ok(())
}

/// May unit `u` move in command `c`'s Move action?
fn may_move(
    d: &Data,
    st: &State,
    f: Faction,
    c: CmdId,
    u: UnitId,
    moved: &[UnitId],
) -> Result<(), RuleError> {
    let info = &d.units[u];
    if info.side != f {
        return Err(illegal(format!("{} is not your unit", info.id), "2.4(7)"));
    }
    if info.cmd != c {
        return Err(illegal(
            format!(
                "{} belongs to {}; {} activates only its own colour",
                info.id,
                cname(d, info.cmd),
                cname(d, c)
            ),
            "2.4(7), 5.1",
        ));
    }
    if moved.contains(&u) {
        return Err(illegal(
            format!("{} moves once per activation", info.id),
            "4.2.1, 6.0",
        ));
    }
    if !st.phase.chain.contains(&u) {
        let (why, rule) = why_not_activated(d, st, c, u);
        return Err(illegal(format!("{why}, so it cannot move"), rule));
    }
    if st.units[u].stopped {
        return Err(illegal(
            format!(
                "{} entered a Pass or Fort this turn and may not move again this turn",
                info.id
            ),
            "6.1(1), ruling A15",
        ));
    }
    Ok(())
}

/// The steps a unit at `at` takes: the order's path without a repeated
/// entry hex (`entry 1921 ...`) or the hex it stands in.
fn steps_from(d: &Data, c: CmdId, at: Option<Hex>, path: &[Step]) -> Vec<Step> {
    let mut owned: Vec<Step> = path.to_vec();
    // `entry 1921 ...` names the entry hex after `entry`: the same step.
    if let (Some(Step::Entry), Some(Step::Hex(h))) = (owned.first(), owned.get(1))
        && d.commands[c].entry == Some(*h)
    {
        owned.remove(1);
    }
    if let (Some(h), Some(Step::Hex(first))) = (at, owned.first())
        && *first == h
    {
        owned.remove(0);
    }
    owned
}

/// Moves one unit along its path, checking each step; its end hex, if it
/// reached the map.
fn move_unit(
    ctx: &mut Ctx,
    st: &mut State,
    f: Faction,
    c: CmdId,
    u: UnitId,
    path: &[Step],
) -> Result<Option<Hex>, RuleError> {
    let d = ctx.d;
    let info = &d.units[u];
    let start = st.units[u].loc;
    let mut at: Option<Hex> = start.hex();
    let path = steps_from(d, c, at, path);
    if path.is_empty() {
        return Err(illegal(
            format!("{} needs at least one hex to move to", info.id),
            "6.0",
        ));
    }
    // Ruling A16: where it started counts as having been there this phase.
    let mut plain = st.units[u].plain || at.is_some_and(|h| d.terrain_of(h) == Terrain::Plain);
    let mut spent = 0u32;
    // Each step's cost, for the error that names them.
    let mut costs: Vec<String> = Vec::new();
    let mut trail = vec![at.map_or("off-map".to_string(), |h| h.to_string())];
    let mut must_stop: Option<Hex> = None;
    let ma = d.type_of(u).ma;
    for (i, s) in path.iter().enumerate() {
        if let Some(p) = must_stop {
            return Err(illegal(
                format!("{} must stop in {p}: a Pass or Fort ends the move", info.id),
                "6.1(1)",
            ));
        }
        let to = next_hex(d, st, c, u, start, i, s, at)?;
        let enemy = st.side_at(d, to, f.other()).next().is_some();
        let c1 = step_cost(d, st, u, at, to, plain, enemy).map_err(|(m, r)| illegal(m, r))?;
        spent += c1;
        costs.push(format!("{to} {c1}"));
        if spent > ma {
            return Err(illegal(
                format!(
                    "{} needs {spent} MP to reach {to} (step costs: {}); its movement allowance is {ma}",
                    info.id,
                    costs.join(", ")
                ),
                "2.4(5), 6.0, 6.1",
            ));
        }
        if d.terrain_of(to) == Terrain::Plain {
            plain = true;
        }
        if d.tec(to).stop {
            must_stop = Some(to);
        }
        if st.units[u].dis && st.options.contagion_enter {
            contagion(ctx, st, u, to);
        }
        trail.push(to.to_string());
        at = Some(to);
    }
    let Some(end) = at else { return Ok(None) };
    let us = &mut st.units[u];
    us.loc = Loc::Hex(end);
    us.plain = plain;
    if must_stop.is_some() && st.options.stop_for_turn {
        us.stopped = true;
    }
    if st.units[u].dis && !st.options.contagion_enter {
        contagion(ctx, st, u, end);
    }
    // Where the unit went first: a snippet too small for the whole path
    // centres on its first focus hex.
    let mut focus = vec![end];
    focus.extend(start.hex());
    ctx.say(
        format!(
            "{} moves {} ({spent} of {ma} MP)",
            info.id,
            trail.join(" → ")
        ),
        focus,
    );
    Ok(Some(end))
}

/// The hex step `i` of a unit's path enters: the next hex, or for a unit off
/// the map its command's entry hex (9.0).
#[allow(clippy::too_many_arguments)]
fn next_hex(
    d: &Data,
    st: &State,
    c: CmdId,
    u: UnitId,
    start: Loc,
    i: usize,
    s: &Step,
    at: Option<Hex>,
) -> Result<Hex, RuleError> {
    let info = &d.units[u];
    match (s, at) {
        (Step::Entry, None) | (Step::Hex(_), None) => {
            // 9.0: off-map units come on at their command's entry hex.
            let cmd = &d.commands[c];
            let Some(e) = cmd.entry else {
                return Err(illegal(format!("{} has no entry hex", cmd.name), "9.0"));
            };
            if start != Loc::OffMap || i > 0 {
                return Err(illegal(format!("{} is not off the map", info.id), "9.0"));
            }
            if st.options.entry_only_turn && st.turn != cmd.entry_turn {
                return Err(illegal(
                    format!(
                        "{} enters in turn {} only (option entry=only)",
                        cmd.name, cmd.entry_turn
                    ),
                    "9.0, ruling A10",
                ));
            }
            if let Step::Hex(h) = s
                && *h != e
            {
                return Err(illegal(
                    format!("{} enters the map at {e}, not {h}", info.id),
                    "9.0",
                ));
            }
            Ok(e)
        }
        (Step::Entry, Some(_)) => Err(illegal(format!("{} is already on the map", info.id), "9.0")),
        (Step::Hex(h), Some(_)) => Ok(*h),
    }
}

/// 1.1, 6.0(1): stacking holds at the end of the move, in every hex entered.
fn stacking(d: &Data, st: &State, f: Faction, ends: &BTreeSet<Hex>) -> Result<(), RuleError> {
    for &h in ends {
        let t = d.tec(h);
        let n = st.side_at(d, h, f).count() as u32;
        if n > t.stack {
            return Err(illegal(
                format!(
                    "{n} {} combat units would end in {h} ({}); the limit is {}",
                    f.name(),
                    d.terrain_of(h).key(),
                    t.stack
                ),
                match d.terrain_of(h) {
                    Terrain::Pass => "1.1(1)",
                    Terrain::Fort => "1.1(2)",
                    _ => "1.1(3)",
                },
            ));
        }
    }
    Ok(())
}

/// 7.5(5): a disorganized unit entering a hex disorganizes the organized
/// friendly combat units there.
fn contagion(ctx: &mut Ctx, st: &mut State, u: UnitId, h: Hex) {
    let d = ctx.d;
    let side = d.units[u].side;
    let hit: Vec<UnitId> = st
        .side_at(d, h, side)
        .filter(|x| *x != u && !st.units[*x].dis)
        .collect();
    for x in &hit {
        st.units[*x].dis = true;
    }
    if !hit.is_empty() {
        let names: Vec<&str> = hit.iter().map(|x| d.units[*x].id.as_str()).collect();
        ctx.say(
            format!(
                "{} enters {h} disorganized and disorganizes {} (7.5(5))",
                d.units[u].id,
                names.join(" ")
            ),
            vec![h],
        );
    }
}
