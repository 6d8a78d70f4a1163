//! Supply (17.0): forage values, and the provisioning phase (ruling A2: after
//! the last operations phase, both players, by standing order N12).

use super::data::{Data, Kind, MarkerKind, Nat, Power, Terrain};
use super::geom::{Grid, Sq};
use super::state::{Loc, State, UnitId};
use super::turn::Ctx;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};
use umpire_core::ruleset::RuleError;

/// Brigade equivalents a square feeds for `p` (17.32, TEC; 20.31(2): a
/// friendly colony doubles it).
pub fn forage(d: &Data, st: &State, s: Sq, p: Power) -> u32 {
    let Some(info) = d.sq(s) else { return 0 };
    let key = match info.terrain {
        Terrain::Clear => "clear",
        Terrain::Desert => "desert",
        Terrain::Mountain => "mountain",
        Terrain::Sea => return 0,
    };
    // 31.33: a massacred square forages nothing for the rest of the turn.
    if st.massacred.contains(&s) {
        return 0;
    }
    let mut f = d.num.terrain.get(key).map_or(0, |t| t.forage);
    if let Some(c) = info.city {
        f = f.max(d.num.city.forage);
        // 32.6 13-14 Bazaar: the region's city squares forage double this turn.
        if st.discoveries.bazaar.contains(&d.city(c).region) {
            f *= 2;
        }
    }
    if st.has_marker(s, p, MarkerKind::Colony) {
        f *= 2;
    }
    f
}

/// Whether `u` is outside its home region on `s` (17.6; red and blue always, clarification).
fn expeditionary(d: &Data, st: &State, u: UnitId, s: Sq) -> bool {
    match st.unit(u).nat {
        Nat::Native(r) => d.sq(s).and_then(|i| i.region) != Some(r),
        Nat::Ghazi => false,
        _ => true,
    }
}

/// A friendly railroad square linked by side-adjacent friendly railroad
/// squares free of enemy units to the home-base edge (17.62).
fn rail_line(d: &Data, st: &State, s: Sq, p: Power) -> bool {
    let rail = |x: Sq| st.has_marker(x, p, MarkerKind::Railroad) && !st.occupies(x, p.other());
    if !rail(s) {
        return false;
    }
    let edge = &d.base_edges[&super::data::Base::of(p)];
    let mut seen = BTreeSet::from([s]);
    let mut todo = vec![s];
    while let Some(x) = todo.pop() {
        if edge.contains(&x) {
            return true;
        }
        for (n, diag) in x.around() {
            if !diag && rail(n) && seen.insert(n) {
                todo.push(n);
            }
        }
    }
    false
}

/// The provisioning phase for both players (17.3-17.62).
pub fn provisioning(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    for p in [st.first, st.first.other()] {
        provision(ctx, st, p);
    }
    Ok(())
}

/// Why a unit starved in provisioning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Starved {
    /// Outside its home region, not on a railroad line home, and no SP
    /// paid for its square (17.6).
    Expeditionary,
    /// Beyond what its square forages, and no SP paid for it (17.4).
    Excess,
}

/// Why an SP was not paid where one was needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unpaid {
    /// The player's SP ran out.
    NoSp,
    /// The standing order `supply: none` (N12).
    Standing,
}

/// One square's provisioning: what it needed and how it was met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareAccount {
    /// The square.
    pub sq: Sq,
    /// The units outside their home region there (17.6), if they needed an SP.
    pub away: Vec<UnitId>,
    /// Whether the units outside their home region stand on a railroad line
    /// home and need no SP (17.62).
    pub rail: bool,
    /// How many units there are after the expeditionary SP, and how many the
    /// square forages (17.32).
    pub units: usize,
    /// Brigade equivalents the square forages.
    pub feed: u32,
    /// For each SP needed (17.6 first, then 17.4): whether it was paid.
    pub needs: Vec<(Starved, Result<(), Unpaid>)>,
    /// The units eliminated, with why.
    pub lost: Vec<(UnitId, Starved)>,
}

/// What provisioning does to one player's units: the squares that needed an
/// SP, what was paid and what starved. Pure: [`provision`] carries it out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The squares that needed an SP, in the order they were paid (N12).
    pub squares: Vec<SquareAccount>,
    /// SP spent.
    pub spent: u32,
    /// SP the player had.
    pub had: u32,
}

impl Account {
    /// SP the squares needed.
    pub fn needed(&self) -> u32 {
        self.squares.iter().map(|a| a.needs.len() as u32).sum()
    }
    /// Every unit eliminated, with why and where.
    pub fn lost(&self) -> impl Iterator<Item = (UnitId, Starved, Sq)> + '_ {
        self.squares
            .iter()
            .flat_map(|a| a.lost.iter().map(move |(u, w)| (*u, *w, a.sq)))
    }
}

/// Provisioning for `p` as his units stand, with `sp` supply points and
/// paying as his standing order says (17.3-17.62, N5, N12).
pub fn account(d: &Data, st: &State, p: Power, sp: u32) -> Account {
    // One pass over the units: each square's units of `p` (in unit order)
    // and their strength.
    let mut at: BTreeMap<Sq, (Vec<UnitId>, u32)> = BTreeMap::new();
    for (i, u) in st.units.iter().enumerate() {
        if let Loc::Sq(s) = u.loc
            && st.owner(u.nat) == Some(p)
        {
            let id = UnitId(i as u16);
            let e = at.entry(s).or_default();
            e.0.push(id);
            e.1 += st.strength(d, id);
        }
    }
    // The squares holding any of his units but ghazis, in square order…
    let mut squares: Vec<(Sq, Vec<UnitId>, u32)> = at
        .into_iter()
        .filter(|(_, (us, _))| us.iter().any(|u| st.unit(*u).nat != Nat::Ghazi))
        .map(|(s, (us, strength))| (s, us, strength))
        .collect();
    // …paid first where most strength stands (N12).
    squares.sort_by_key(|(_, _, strength)| Reverse(*strength));
    let pay_order = st.standing[p.index()].supply;
    let mut left = sp;
    let mut pay = || -> Result<(), Unpaid> {
        if !pay_order {
            Err(Unpaid::Standing)
        } else if left > 0 {
            left -= 1;
            Ok(())
        } else {
            Err(Unpaid::NoSp)
        }
    };
    let mut out = Vec::new();
    for (s, mut units, _) in squares {
        // Ghazis leave at the end of the turn (ruling A51).
        units.retain(|u| st.unit(*u).nat != Nat::Ghazi);
        // Expeditionary forces first (ruling A50).
        let away: Vec<UnitId> = units
            .iter()
            .copied()
            .filter(|u| expeditionary(d, st, *u, s))
            .collect();
        let mut a = SquareAccount {
            sq: s,
            away: Vec::new(),
            rail: false,
            units: 0,
            feed: 0,
            needs: Vec::new(),
            lost: Vec::new(),
        };
        if !away.is_empty() {
            if rail_line(d, st, s, p) {
                a.rail = true;
            } else {
                let paid = pay();
                a.needs.push((Starved::Expeditionary, paid));
                if paid.is_err() {
                    units.retain(|u| !away.contains(u));
                    a.lost
                        .extend(away.iter().map(|u| (*u, Starved::Expeditionary)));
                }
                a.away = away;
            }
        }
        let mut feed = forage(d, st, s, p);
        if d.sq(s).map(|i| i.terrain) == Some(Terrain::Desert)
            && units.iter().any(|u| st.unit(*u).kind == Kind::Irregular)
        {
            feed += 1; // 17.32: one irregular forages in a desert.
        }
        (a.units, a.feed) = (units.len(), feed);
        if units.len() as u32 > feed {
            let paid = pay();
            a.needs.push((Starved::Excess, paid));
            if paid.is_err() {
                // 17.4: the owner loses the excess, weakest first (N5).
                units
                    .sort_by_key(|u| (st.unit(*u).nat.regular().is_some(), st.strength(d, *u), *u));
                let excess = units.len() - feed as usize;
                a.lost
                    .extend(units.into_iter().take(excess).map(|u| (u, Starved::Excess)));
            }
        }
        if !a.needs.is_empty() {
            out.push(a);
        }
    }
    Account {
        squares: out,
        spent: sp - left,
        had: sp,
    }
}

fn provision(ctx: &mut Ctx, st: &mut State, p: Power) {
    let d = ctx.d;
    let acc = account(d, st, p, st.sp[p.index()]);
    st.sp[p.index()] -= acc.spent;
    let lost: Vec<(UnitId, Starved, Sq)> = acc.lost().collect();
    if !acc.squares.is_empty() {
        // The owner's picture centres on his hungry squares; no one else's.
        let at = acc.squares.iter().map(|a| a.sq).collect();
        ctx.tell_at(p, told(d, st, &acc), at);
    }
    if !lost.is_empty() {
        let ids: Vec<String> = lost
            .iter()
            .map(|(u, why, s)| format!("{} at {s} ({})", st.unit(*u).id, starved(*why)))
            .collect();
        for (u, _, _) in &lost {
            st.unit_mut(*u).loc = Loc::Pool;
        }
        ctx.say(
            format!(
                "{} units out of supply are eliminated (17.4, 17.6).",
                p.name()
            ),
            vec![],
        );
        ctx.tell(
            p,
            format!("Your units out of supply, eliminated: {}.", ids.join(", ")),
        );
    }
}

/// Why a unit starved, in words with the rule.
fn starved(w: Starved) -> &'static str {
    match w {
        Starved::Expeditionary => "outside its home region with no SP for its square, 17.6",
        Starved::Excess => "beyond what its square forages with no SP for it, 17.4",
    }
}

/// The provisioning account told to its player: the SP needed, where they
/// went, and what was not paid and why.
fn told(d: &Data, st: &State, acc: &Account) -> String {
    let ids = |us: &[UnitId]| -> String {
        us.iter()
            .map(|u| st.unit(*u).id)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut parts = Vec::new();
    for a in &acc.squares {
        for (what, paid) in &a.needs {
            let need = match what {
                Starved::Expeditionary => format!(
                    "1 SP at {} for {}, outside their home region (17.6)",
                    a.sq,
                    ids(&a.away)
                ),
                Starved::Excess => format!(
                    "1 SP at {} for {} units where the square forages {} (17.32, 17.4)",
                    a.sq, a.units, a.feed
                ),
            };
            let how = match paid {
                Ok(()) => "paid".to_string(),
                Err(Unpaid::NoSp) => "not paid: no SP left".to_string(),
                Err(Unpaid::Standing) => {
                    "not paid: your standing order is `supply: none` (N12)".to_string()
                }
            };
            parts.push(format!("{need}, {how}"));
        }
    }
    let _ = d;
    format!(
        "Provisioning (17.3): {} SP needed, {} paid of the {} you had, {} left. {}.",
        acc.needed(),
        acc.spent,
        acc.had,
        acc.had - acc.spent,
        parts.join("; ")
    )
}

/// The warning for `p`'s prompt before a phase that will cost units: what
/// provisioning would need as his units stand now, and what it would
/// eliminate with the SP he has (17.3-17.6); `None` when it needs nothing.
pub fn warning(d: &Data, st: &State, p: Power) -> Option<String> {
    let have = st.sp[p.index()];
    let all = account(d, st, p, u32::MAX / 2);
    let needed = all.needed();
    if needed == 0 {
        return None;
    }
    let now = account(d, st, p, have);
    let lost: Vec<String> = now
        .lost()
        .map(|(u, _, _)| st.unit(u).id.to_string())
        .collect();
    let at: Vec<String> = all.squares.iter().map(|a| a.sq.to_string()).collect();
    let effect = if lost.is_empty() {
        "enough".to_string()
    } else if !st.standing[p.index()].supply {
        format!(
            "your standing order `supply: none` pays none, so {} would be eliminated",
            lost.join(" ")
        )
    } else {
        format!(
            "short by {}: {} would be eliminated",
            needed - have.min(needed),
            lost.join(" ")
        )
    };
    Some(format!(
        "at provisioning, as your units stand now, {} will need {needed} SP and you have {have}: {effect} (17.3-17.6)",
        at.join(" ")
    ))
}
