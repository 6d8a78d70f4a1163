//! Standing orders: how a side answers the decisions it owes in the middle of
//! the other side's operations phase (digest N1-N14), set in advance so that
//! an operations phase costs one mail. The defaults are the digest's.
//!
//! ```text
//! standing:
//!   counter: best pounds 1      # N1: best | none, pounds N | max (default best, 0 pounds)
//!   counter-ultimatum: best     # N2: best | none (default best)
//!   withdraw: never             # N3: never | always (default never)
//!   initiative: first           # N11: first | second (default first)
//!   supply: pay                 # N12: pay | none (default pay while SP last)
//!   captured: hold              # N14: hold | execute (default hold)
//!   reversion: AF kabul ghazni  # N8 (5.51(2)): where a region's units go home, one line a region
//!   reversion: AF af-irr-2=ghazni kabul  # UNIT=CITY: that unit first to that city (ruling A70)
//!   uprising: KV AF             # N13 (5.4(1)): the neutral regions an uprising wins, first first | ask
//!   unrest: SN NP               # N13 (5.5): the regions you give up to Native Unrest, first first | ask
//! ```
//!
//! `ask` (uprising, unrest): when the event leaves a real choice (two
//! regions or more), the umpire asks before the economy round (`choose
//! REGION`), and the deadline's default is what the standing order would do.
//!
//! Fixed rules, not choices: retreats go to the best adjacent square (N4,
//! ruling A31), losses are the weakest units first with red and blue last
//! (N5), the defender takes his best terrain multiplier and agent (N6, A33),
//! the levy goes to the capital, else the first free city (N7), reverting
//! units to the nearest free home city (N8), an escaped agent to the nearest
//! friendly stack (N9, A36), only the phasing player massacres (N10, A39).
//! Event choices (N13) are standing orders or questions (uprising, unrest)
//! or a conditional order in the economy mail (`jihad SQUARE`).

use super::data::{Data, Nat, Region, RegionId, slug};
use super::state::State;
use serde::{Deserialize, Serialize};
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::OrderError;

/// Pounds added to a counter-negotiation (N1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Pounds {
    /// None.
    #[default]
    Zero,
    /// As many as the agent's political value allows (15.1(4)).
    Max,
    /// Up to this many.
    Upto(u32),
}

/// One side's standing orders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// N1: counter negotiations with the best agent in the capital.
    pub counter: bool,
    /// N1: pounds added when countering.
    pub counter_pounds: Pounds,
    /// N2: counter ultimatums.
    pub counter_ultimatum: bool,
    /// N3: withdraw before combat whenever allowed (14.5).
    pub withdraw: bool,
    /// N11: move first when the initiative is ours (7.2).
    pub first: bool,
    /// N12: pay SP in provisioning while they last (17.3).
    pub supply: bool,
    /// N14: execute captured named agents at once (16.42(2)).
    pub execute: bool,
    /// N8 (5.51(2)): for a region, the cities (slugs) its units outside it go
    /// to when it reverts to neutral, first free one first; checked against
    /// the data when set (`Ac::set_standing`). Unlisted: the nearest free city.
    pub reversion: Vec<(String, Vec<String>)>,
    /// N13 (5.4(1)): region codes an uprising for us wins, first neutral one
    /// first; unlisted: the most valuable neutral region.
    pub uprising: RegionPick,
    /// N13 (5.5): region codes we give up to Native Unrest, first one we
    /// control first; unlisted: the least valuable.
    pub unrest: RegionPick,
}

/// An event's choice of region (N13): a list, first fit first (then the
/// stated default), or a question when the choice is real.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RegionPick {
    /// The stated default.
    #[default]
    Default,
    /// These region codes, first fit first, then the default.
    List(Vec<String>),
    /// Ask (`choose REGION`) when two regions or more fit.
    Ask,
}

impl Default for Standing {
    fn default() -> Standing {
        Standing {
            counter: true,
            counter_pounds: Pounds::Zero,
            counter_ultimatum: true,
            withdraw: false,
            first: true,
            supply: true,
            execute: false,
            reversion: Vec::new(),
            uprising: RegionPick::Default,
            unrest: RegionPick::Default,
        }
    }
}

fn bad(l: &SourceLine, msg: impl Into<String>) -> OrderError {
    OrderError::at(l, msg)
}

/// Reads standing order lines (replacing the whole set).
pub fn parse(lines: &[SourceLine]) -> Result<Standing, OrderError> {
    let mut s = Standing::default();
    for l in lines {
        let text = l.text.trim();
        if text.is_empty() {
            continue;
        }
        let (key, rest) = text.split_once(':').unwrap_or((text, ""));
        let words: Vec<String> = rest
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        set(&mut s, l, &key.trim().to_ascii_lowercase(), &words)?;
    }
    Ok(s)
}

/// Sets the standing order `key` of line `l` from its `words`.
fn set(s: &mut Standing, l: &SourceLine, key: &str, words: &[String]) -> Result<(), OrderError> {
    let w0 = words.first().map(String::as_str).unwrap_or("");
    match key {
        "counter" => counter(s, l, words)?,
        "counter-ultimatum" => {
            s.counter_ultimatum = either(
                l,
                "counter-ultimatum",
                w0,
                [("best", true), ("none", false)],
                "15.61(4)",
            )?
        }
        "withdraw" => {
            s.withdraw = either(
                l,
                "withdraw",
                w0,
                [("never", false), ("always", true)],
                "14.5",
            )?
        }
        "initiative" => {
            s.first = either(
                l,
                "initiative",
                w0,
                [("first", true), ("second", false)],
                "7.2",
            )?
        }
        "supply" => s.supply = either(l, "supply", w0, [("pay", true), ("none", false)], "17.4")?,
        "captured" => {
            s.execute = either(
                l,
                "captured",
                w0,
                [("hold", false), ("execute", true)],
                "16.42",
            )?
        }
        "reversion" => reversion(s, l, words)?,
        "uprising" => s.uprising = region_pick(l, "uprising", words)?,
        "unrest" => s.unrest = region_pick(l, "unrest", words)?,
        other => {
            return Err(bad(
                l,
                format!(
                    "no standing order {other:?}: counter, counter-ultimatum, withdraw, initiative, supply, captured, reversion, uprising, unrest"
                ),
            ));
        }
    }
    Ok(())
}

/// N1 (15.1(4)): `counter: best|none [pounds N|max]`.
fn counter(s: &mut Standing, l: &SourceLine, words: &[String]) -> Result<(), OrderError> {
    let w = |i: usize| words.get(i).map(String::as_str).unwrap_or("");
    s.counter = either(
        l,
        "counter",
        w(0),
        [("best", true), ("none", false)],
        "15.1(4)",
    )?;
    if w(1) == "pounds" {
        s.counter_pounds = match w(2) {
            "max" => Pounds::Max,
            n => Pounds::Upto(n.parse().map_err(|_| bad(l, "counter: pounds N or max"))?),
        };
    }
    Ok(())
}

/// N8 (5.51(2)): `reversion: REGION CITY [CITY ...]`, replacing that
/// region's earlier line.
fn reversion(s: &mut Standing, l: &SourceLine, words: &[String]) -> Result<(), OrderError> {
    let Some((code, cities)) = words.split_first() else {
        return Err(bad(l, "reversion: REGION CITY [CITY ...]").rule("5.51(2)"));
    };
    s.reversion.retain(|(c, _)| c != code);
    s.reversion.push((code.clone(), cities.to_vec()));
    Ok(())
}

/// N13 (5.4(1), 5.5): `uprising:`/`unrest: REGION [REGION ...] | ask`.
fn region_pick(l: &SourceLine, k: &str, words: &[String]) -> Result<RegionPick, OrderError> {
    Ok(match words {
        [] => {
            return Err(bad(l, format!("{k}: REGION [REGION ...] or ask"))
                .rule(if k == "uprising" { "5.4(1)" } else { "5.5" }));
        }
        [a] if a == "ask" => RegionPick::Ask,
        w => RegionPick::List(w.to_vec()),
    })
}

/// A two-way standing order: `word` is one of the two choices, given in the
/// order the refusal names them.
fn either(
    l: &SourceLine,
    key: &str,
    word: &str,
    [(a, av), (b, bv)]: [(&str, bool); 2],
    rule: &str,
) -> Result<bool, OrderError> {
    if word == a {
        Ok(av)
    } else if word == b {
        Ok(bv)
    } else {
        Err(bad(l, format!("{key}: {word:?}; write {a} or {b}")).rule(rule))
    }
}

/// One entry of a `reversion:` line (N8, 5.51(2)): `CITY` for any unit of
/// the region, or `UNIT=CITY` for that unit alone (ruling A70).
pub fn reversion_entry(entry: &str) -> (Option<&str>, &str) {
    match entry.split_once('=') {
        Some((u, c)) => (Some(u), c),
        None => (None, entry),
    }
}

/// The standing orders as text.
pub fn show(s: &Standing) -> Vec<String> {
    let pounds = match s.counter_pounds {
        Pounds::Zero => String::new(),
        Pounds::Max => " pounds max".into(),
        Pounds::Upto(n) => format!(" pounds {n}"),
    };
    vec![
        format!(
            "counter: {}{pounds}",
            if s.counter { "best" } else { "none" }
        ),
        format!(
            "counter-ultimatum: {}",
            if s.counter_ultimatum { "best" } else { "none" }
        ),
        format!("withdraw: {}", if s.withdraw { "always" } else { "never" }),
        format!("initiative: {}", if s.first { "first" } else { "second" }),
        format!("supply: {}", if s.supply { "pay" } else { "none" }),
        format!("captured: {}", if s.execute { "execute" } else { "hold" }),
    ]
    .into_iter()
    .chain(
        s.reversion
            .iter()
            .map(|(r, cs)| format!("reversion: {} {}", r.to_ascii_uppercase(), cs.join(" "))),
    )
    .chain(show_pick("uprising", &s.uprising))
    .chain(show_pick("unrest", &s.unrest))
    .collect()
}

fn show_pick(key: &str, p: &RegionPick) -> Option<String> {
    match p {
        RegionPick::Default => None,
        RegionPick::Ask => Some(format!("{key}: ask")),
        RegionPick::List(v) => Some(format!(
            "{key}: {}",
            v.iter()
                .map(|c| c.to_ascii_uppercase())
                .collect::<Vec<_>>()
                .join(" ")
        )),
    }
}

/// Varied standing orders for self-play (`Ruleset::standing_samples`): between
/// them every choice above takes its non-default answer (N1 none, pounds N
/// and max; N2 none; N3 always; N8 a city list and `UNIT=CITY`; N11 second;
/// N12 none; N13 lists and `ask`; N14 execute), and one sample writes the
/// defaults out. Region codes, cities and units come from the data and the
/// state, so every sample is one `Ac::set_standing` accepts.
pub fn samples(d: &Data, st: &State) -> Vec<Vec<String>> {
    let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut out = vec![
        lines(&[
            "counter: best",
            "counter-ultimatum: best",
            "withdraw: never",
            "initiative: first",
            "supply: pay",
            "captured: hold",
        ]),
        lines(&[
            "counter: none",
            "counter-ultimatum: none",
            "withdraw: always",
            "initiative: second",
            "supply: none",
            "captured: execute",
        ]),
        lines(&[
            "counter: best pounds max",
            "withdraw: always",
            "captured: execute",
            "uprising: ask",
            "unrest: ask",
        ]),
        lines(&[
            "counter: best pounds 2",
            "counter-ultimatum: none",
            "initiative: second",
            "unrest: ask",
        ]),
    ];
    // N13: the defaults take the most valuable region (uprising) and give up
    // the least valuable (unrest); these lists run the other way.
    let mut by_vp: Vec<&Region> = d.regions.iter().collect();
    by_vp.sort_by_key(|r| r.vp);
    let codes = |rs: &mut dyn Iterator<Item = &&Region>| {
        rs.take(4)
            .map(|r| r.code.clone())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut listed = lines(&["withdraw: always", "captured: execute"]);
    listed.push(format!("uprising: {}", codes(&mut by_vp.iter())));
    listed.push(format!("unrest: {}", codes(&mut by_vp.iter().rev())));
    listed.extend(reversion_samples(d, st));
    out.push(listed);
    out
}

/// N8 lines for every region of two cities or more: its cities farthest
/// first in data order (not the nearest-first default), the first region
/// with a unit in play sending that unit alone to its last city (A70).
fn reversion_samples(d: &Data, st: &State) -> Vec<String> {
    let mut unit_done = false;
    let mut out = Vec::new();
    for (i, r) in d.regions.iter().enumerate() {
        if r.cities.len() < 2 {
            continue;
        }
        let mut cities: Vec<String> = r.cities.iter().map(|c| slug(&d.city(*c).name)).collect();
        cities.reverse();
        let unit = st
            .units
            .iter()
            .find(|u| u.nat == Nat::Native(RegionId(i as u8)) && u.loc.in_play());
        if let (Some(u), false) = (unit, unit_done) {
            unit_done = true;
            cities.insert(0, format!("{}={}", u.id, cities[cities.len() - 1]));
        }
        out.push(format!("reversion: {} {}", r.code, cities.join(" ")));
    }
    out
}
