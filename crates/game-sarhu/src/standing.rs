//! Standing orders: how a side answers the decisions it may owe in the middle
//! of someone else's action (digest D1-D4), set in advance so that a typical
//! turn needs no extra mail. `ask` makes the umpire put the question instead;
//! the stated default (these same policies) applies after the deadline.
//!
//! ```text
//! standing:
//!   losses: flip-first            # D1: auto | flip-first | ask, or unit ids first
//!   losses: nh.i1 nh.i2 then auto
//!   rout: auto                    # D2: auto | ask, or unit ids first
//!   displace: auto                # D3: auto | ask
//!   displace nurhaci: 1610 1509   # D3: preferred hexes for one command
//!   initiative: first             # D4: first | second | ask
//! ```

use super::data::{CmdId, Data, Faction, UnitId};
use super::orders::{lookup_command, lookup_hex, lookup_unit};
use super::state::{Loc, State};
use serde::{Deserialize, Serialize};
use umpire_core::hex::Hex;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::OrderError;

/// D1 and D2 policies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Policy {
    /// Lose the least combat strength (losses) or rout the weakest unit.
    #[default]
    Auto,
    /// Losses: flip two-step units before eliminating any.
    FlipFirst,
    /// Ask the player each time there is a real choice.
    Ask,
}

/// D4 policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum InitiativePolicy {
    #[default]
    /// Move first.
    First,
    /// Let the other side move first.
    Second,
    /// Ask each time.
    Ask,
}

/// One side's standing orders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Standing {
    /// D1 policy.
    pub losses: Policy,
    /// Units to take losses first, in order.
    pub loss_priority: Vec<UnitId>,
    /// D2 policy.
    pub rout: Policy,
    /// Units to rout first, in order.
    pub rout_priority: Vec<UnitId>,
    /// D3 policy.
    pub displace: Policy,
    /// Preferred hexes per command (D3).
    pub displace_to: Vec<(CmdId, Vec<Hex>)>,
    /// D4 policy.
    pub initiative: InitiativePolicy,
}

fn policy(word: &str, line: &SourceLine, what: &str, flip: bool) -> Result<Policy, OrderError> {
    match word {
        "auto" | "default" => Ok(Policy::Auto),
        "flip-first" | "flip" if flip => Ok(Policy::FlipFirst),
        "ask" => Ok(Policy::Ask),
        _ => Err(OrderError::at(
            line,
            format!(
                "{what}: {word:?} is not a policy; write {}ask, or unit ids",
                if flip { "auto, flip-first, " } else { "auto, " }
            ),
        )),
    }
}

/// Reads a standing section.
pub fn parse(d: &Data, side: Faction, lines: &[SourceLine]) -> Result<Standing, OrderError> {
    let mut s = Standing::default();
    for l in lines {
        let text = l.text.to_ascii_lowercase();
        let (key, rest) = match text.split_once(':') {
            Some((k, r)) => (k.trim().to_string(), r.trim().to_string()),
            None => match text.split_once(char::is_whitespace) {
                Some((k, r)) => (k.to_string(), r.trim().to_string()),
                None => (text.clone(), String::new()),
            },
        };
        let words: Vec<&str> = rest.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        let own_unit = |w: &str| -> Result<UnitId, OrderError> {
            let u = lookup_unit(d, w).map_err(|m| OrderError::at(l, m))?;
            if d.units[u].side != side {
                return Err(OrderError::at(l, format!("{w} is not one of your units")));
            }
            Ok(u)
        };
        let mut key_words = key.split_whitespace();
        match (key_words.next().unwrap_or(""), key_words.next()) {
            ("losses" | "loss", None) | ("rout", None) => {
                let is_loss = key.starts_with("loss");
                let mut pol = Policy::Auto;
                let mut prio = Vec::new();
                let mut it = words.iter();
                while let Some(w) = it.next() {
                    if *w == "then" {
                        let p = it
                            .next()
                            .ok_or_else(|| OrderError::at(l, "`then` needs a policy"))?;
                        pol = policy(p, l, &key, is_loss)?;
                    } else if lookup_unit(d, w).is_ok() {
                        prio.push(own_unit(w)?);
                    } else {
                        pol = policy(w, l, &key, is_loss)?;
                    }
                }
                if is_loss {
                    s.losses = pol;
                    s.loss_priority = prio;
                } else {
                    s.rout = pol;
                    s.rout_priority = prio;
                }
            }
            ("displace", None) => {
                let w = words.first().copied().unwrap_or("auto");
                s.displace = policy(w, l, "displace", false)?;
            }
            ("displace", Some(cmd)) => {
                let c = lookup_command(d, cmd).map_err(|m| OrderError::at(l, m))?;
                if d.commands[c].side != side {
                    return Err(OrderError::at(l, format!("{cmd} is not your command")));
                }
                let hexes = words
                    .iter()
                    .map(|w| lookup_hex(d, w).map_err(|m| OrderError::at(l, m)))
                    .collect::<Result<Vec<_>, _>>()?;
                s.displace_to.retain(|(x, _)| *x != c);
                s.displace_to.push((c, hexes));
            }
            ("initiative", None) => {
                s.initiative = match words.first().copied() {
                    Some("first") => InitiativePolicy::First,
                    Some("second") => InitiativePolicy::Second,
                    Some("ask") => InitiativePolicy::Ask,
                    _ => {
                        return Err(OrderError::at(l, "initiative: write first, second or ask")
                            .rule("4.1(4)"));
                    }
                };
            }
            _ => {
                return Err(OrderError::at(
                    l,
                    format!(
                        "{key:?} is not a standing order; known: losses, rout, displace, displace COMMAND, initiative"
                    ),
                ));
            }
        }
    }
    Ok(s)
}

/// The standing orders as text.
pub fn show(d: &Data, s: &Standing) -> Vec<String> {
    let pol = |p: Policy| match p {
        Policy::Auto => "auto",
        Policy::FlipFirst => "flip-first",
        Policy::Ask => "ask",
    };
    let ids = |v: &[UnitId]| {
        v.iter()
            .map(|u| d.units[*u].id.clone())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let with = |prio: &[UnitId], p: Policy| {
        if prio.is_empty() {
            pol(p).to_string()
        } else {
            format!("{} then {}", ids(prio), pol(p))
        }
    };
    let mut v = vec![
        format!("losses: {}", with(&s.loss_priority, s.losses)),
        format!("rout: {}", with(&s.rout_priority, s.rout)),
        format!("displace: {}", pol(s.displace)),
    ];
    for (c, hexes) in &s.displace_to {
        let hs: Vec<String> = hexes.iter().map(Hex::to_string).collect();
        v.push(format!("displace {}: {}", d.commands[*c].id, hs.join(" ")));
    }
    v.push(format!(
        "initiative: {}",
        match s.initiative {
            InitiativePolicy::First => "first",
            InitiativePolicy::Second => "second",
            InitiativePolicy::Ask => "ask",
        }
    ));
    v
}

type Class = (CmdId, u8, u32, u8, bool, Option<Hex>, bool);

/// Units that look the same for a decision (same command, type, strength,
/// steps, disorganization and place): choosing between them is no choice.
fn class(d: &Data, st: &State, u: UnitId) -> Class {
    let loc = st.units[u].loc;
    (
        d.units[u].cmd,
        d.units[u].kind as u8,
        st.cs(d, u),
        st.steps_left(d, u),
        st.units[u].dis,
        loc.hex(),
        loc == Loc::OffMap,
    )
}

/// Every way to take `steps` step losses from `pool` (7.0(2)); losses beyond
/// what the pool holds are ignored (ruling A33). Sorted unit lists.
pub fn loss_allocations(d: &Data, st: &State, pool: &[UnitId], steps: u8) -> Vec<Vec<UnitId>> {
    let cap: Vec<(UnitId, u8)> = pool
        .iter()
        .map(|u| (*u, st.steps_left(d, *u)))
        .filter(|(_, s)| *s > 0)
        .collect();
    let total: u32 = cap.iter().map(|(_, s)| u32::from(*s)).sum();
    if total <= u32::from(steps) {
        let mut all = Vec::new();
        for (u, s) in &cap {
            for _ in 0..*s {
                all.push(*u);
            }
        }
        all.sort();
        return vec![all];
    }
    let mut out: Vec<Vec<UnitId>> = Vec::new();
    match steps {
        1 => out.extend(cap.iter().map(|(u, _)| vec![*u])),
        _ => {
            for (i, (u, s)) in cap.iter().enumerate() {
                if *s >= 2 {
                    out.push(vec![*u, *u]);
                }
                for (v, _) in &cap[i + 1..] {
                    let mut a = vec![*u, *v];
                    a.sort();
                    out.push(a);
                }
            }
        }
    }
    out
}

/// Allocations that differ only between look-alike units count once.
pub fn distinct_allocations(d: &Data, st: &State, all: &[Vec<UnitId>]) -> Vec<Vec<UnitId>> {
    let mut seen: Vec<Vec<Class>> = Vec::new();
    let mut out = Vec::new();
    for a in all {
        let mut key: Vec<Class> = a.iter().map(|u| class(d, st, *u)).collect();
        key.sort();
        if !seen.contains(&key) {
            seen.push(key);
            out.push(a.clone());
        }
    }
    out
}

/// The allocation a policy picks: priority units first, then least CS lost
/// (`auto`) or fewest eliminations (`flip-first`); ties go to flips, then the
/// lowest unit ids.
pub fn choose_losses(
    d: &Data,
    st: &State,
    all: &[Vec<UnitId>],
    priority: &[UnitId],
    pol: Policy,
) -> Vec<UnitId> {
    // The steps the priority list claims, in order.
    let steps = all.first().map_or(0, Vec::len);
    let mut claimed: Vec<UnitId> = Vec::new();
    for u in priority {
        let left = st.steps_left(d, *u) as usize;
        for _ in 0..left {
            if claimed.len() < steps && claimed.iter().filter(|x| *x == u).count() < left {
                claimed.push(*u);
            }
        }
    }
    let fits = |a: &Vec<UnitId>| {
        let mut rest = a.clone();
        claimed
            .iter()
            .all(|c| match rest.iter().position(|x| x == c) {
                Some(i) => {
                    rest.remove(i);
                    true
                }
                None => false,
            })
    };
    let filtered: Vec<&Vec<UnitId>> = all.iter().filter(|a| fits(a)).collect();
    let cands: Vec<&Vec<UnitId>> = if filtered.is_empty() {
        all.iter().collect()
    } else {
        filtered
    };
    let cost = |a: &Vec<UnitId>| {
        let mut lost = 0u32;
        let mut elim = 0u32;
        let mut seen: Vec<UnitId> = Vec::new();
        for u in a {
            if seen.contains(u) {
                continue;
            }
            seen.push(*u);
            let hits = a.iter().filter(|x| *x == u).count() as u8;
            let ui = *u;
            if hits >= st.steps_left(d, ui) {
                lost += st.cs(d, ui);
                elim += 1;
            } else {
                lost += st.cs(d, ui).saturating_sub(d.units[ui].reduced);
            }
        }
        (lost, elim)
    };
    cands
        .into_iter()
        .min_by_key(|a| {
            let (lost, elim) = cost(a);
            match pol {
                Policy::FlipFirst => (elim, lost, (*a).clone()),
                _ => (lost, elim, (*a).clone()),
            }
        })
        .cloned()
        .unwrap_or_default()
}

/// The units of a command that may rout (7.6(1)): any survivor, on the map or off.
pub fn rout_options(d: &Data, st: &State, cmd: CmdId) -> Vec<UnitId> {
    st.alive(d, cmd).collect()
}

/// Distance from a unit to the nearest enemy combat unit (off-map: far).
fn enemy_distance(d: &Data, st: &State, u: UnitId) -> u32 {
    let Some(h) = st.units[u].loc.hex() else {
        return 999;
    };
    let side = d.units[u].side;
    st.units
        .iter()
        .enumerate()
        .filter(|(i, _)| d.units[*i].side != side)
        .filter_map(|(_, x)| x.loc.hex())
        .map(|e| h.distance(e))
        .min()
        .unwrap_or(999)
}

/// The unit a rout policy picks: priority units first, then the lowest CS,
/// reduced before full, farthest from the enemy, lowest id.
pub fn choose_rout(
    d: &Data,
    st: &State,
    options: &[UnitId],
    priority: &[UnitId],
) -> Option<UnitId> {
    if let Some(u) = priority.iter().find(|u| options.contains(u)) {
        return Some(*u);
    }
    options.iter().copied().min_by_key(|u| {
        let ui = *u;
        (
            st.cs(d, ui),
            !st.units[ui].reduced,
            std::cmp::Reverse(enemy_distance(d, st, ui)),
            *u,
        )
    })
}

/// Distinct rout choices (look-alike units count once).
pub fn distinct_routs(d: &Data, st: &State, options: &[UnitId]) -> Vec<UnitId> {
    let all: Vec<Vec<UnitId>> = options.iter().map(|u| vec![*u]).collect();
    distinct_allocations(d, st, &all)
        .into_iter()
        .filter_map(|v| v.first().copied())
        .collect()
}

/// Where a lone command may go (7.0(3), 7.6): hexes with a combat unit of its
/// colour, keeping one command a side per hex where possible (ruling A13).
pub fn displace_options(d: &Data, st: &State, cmd: CmdId) -> Vec<Hex> {
    let side = d.commands[cmd].side;
    let mut hexes: Vec<Hex> = st
        .alive(d, cmd)
        .filter_map(|u| st.units[u].loc.hex())
        .collect();
    hexes.sort();
    hexes.dedup();
    let free: Vec<Hex> = hexes
        .iter()
        .copied()
        .filter(|h| st.commands_at(d, *h, side).all(|c| c == cmd))
        .collect();
    if free.is_empty() { hexes } else { free }
}

/// The hex a displacement policy picks: the player's list for that command,
/// else the nearest, then most units of its colour, then the lowest hex.
pub fn choose_displace(
    d: &Data,
    st: &State,
    cmd: CmdId,
    options: &[Hex],
    prefs: &[Hex],
) -> Option<Hex> {
    if let Some(h) = prefs.iter().find(|h| options.contains(h)) {
        return Some(*h);
    }
    let from = st.commands[cmd].loc.hex();
    options.iter().copied().min_by_key(|h| {
        let n = st
            .alive(d, cmd)
            .filter(|u| st.units[*u].loc == Loc::Hex(*h))
            .count();
        (from.map_or(0, |f| f.distance(*h)), std::cmp::Reverse(n), *h)
    })
}
