//! Economics (6.x, 7.x, 9.x): collecting TP, emergency taxation,
//! demobilizing and reclaiming, carry-over, paying without deficits, the
//! Germanic and Parthian returns, Parthian collapse and recovery, Palmyran
//! and Gallic replenishment, fortifying and rebuilding.

use super::data::{Data, Kind, Region, UnitId};
use super::effects::{Ctx, illegal, loot};
use super::placement::{self, GundRule};
use super::stacking;
use super::state::{Faction, Gallic, Loc, Palmyra, Player, State};
use super::words::{counted, counted_at};
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// Is a Roman TP hex producing (6.1, 6.5; R-C2: no hostile unit, no rebel
/// garrison, not in an active Gallic Empire)?
pub(super) fn pays(d: &Data, st: &State, h: Hex) -> bool {
    let r = d.region(h);
    let gallic = st.gallic == Gallic::Active && r == Region::Gallic;
    !(st.looted.contains(&h) || st.anti_roman_in(d, h) || st.bc_rebels.contains(&h) || gallic)
}

/// The TP the Roman collects now (6.5).
pub fn revenue(d: &Data, st: &State) -> u32 {
    let v = &d.values;
    d.hexes
        .iter()
        .filter(|x| x.tp > 0 && pays(d, st, x.hex))
        .map(|x| match x.region {
            r if r.is_core() => x.tp,
            r if r.is_caucasus() => v.caucasus_tp,
            Region::Dacia => v.dacia_tp,
            Region::Decumates => v.decumates_tp,
            Region::Palmyra if st.palmyra != Palmyra::Gp => v.palmyra_tp,
            _ => 0,
        })
        .sum()
}

/// Where the TP [`revenue`] counts come from, as the mail tells it (6.5):
/// `core centres 96, Dacia 3`, each source that pays, then the TP hexes
/// that pay nothing now (looted, enemy or rebel held, in an active Gallic
/// Empire; 6.1, R-C2).
pub fn revenue_parts(d: &Data, st: &State) -> String {
    let v = &d.values;
    let mut parts: Vec<(&str, u32)> = Vec::new();
    let mut idle = 0;
    for x in d.hexes.iter().filter(|x| x.tp > 0) {
        let (what, tp) = match x.region {
            r if r.is_core() => ("core centres", x.tp),
            r if r.is_caucasus() => ("the Caucasus states", v.caucasus_tp),
            Region::Dacia => ("Dacia", v.dacia_tp),
            Region::Decumates => ("Germania Decumates", v.decumates_tp),
            Region::Palmyra if st.palmyra != Palmyra::Gp => ("Palmyra", v.palmyra_tp),
            _ => continue,
        };
        if !pays(d, st, x.hex) {
            idle += 1;
            continue;
        }
        match parts.iter_mut().find(|(w, _)| *w == what) {
            Some(p) => p.1 += tp,
            None => parts.push((what, tp)),
        }
    }
    let out: Vec<String> = parts
        .iter()
        .filter(|(_, tp)| *tp > 0)
        .map(|(w, tp)| format!("{w} {tp}"))
        .collect();
    let mut out = if out.is_empty() {
        "nothing pays".to_string()
    } else {
        out.join(", ")
    };
    if idle > 0 {
        out.push_str(&format!(
            "; {} nothing now (looted, held by an enemy or rebels, or in the Gallic Empire; 6.1, R-C2)",
            counted(idle, "TP hex pays", "TP hexes pay")
        ));
    }
    out
}

/// Takes TP from the treasury; it never goes below zero: the Roman first
/// covers a shortfall by his standing order (6.10, N7), and what nothing
/// covers is forgiven (R-C4).
pub fn pay(ctx: &mut Ctx, st: &mut State, n: u32, why: &str) -> Result<(), RuleError> {
    super::deficit::cover(ctx, st, n, why)?;
    // Version 11: the Roman is asked how he covers the deficit (N7); the
    // payment is made again after his answer, the cover going on first.
    let rest = || {
        vec![super::ask::Then::Pay {
            n,
            why: why.to_string(),
        }]
    };
    if super::ask::paused(st, rest) {
        return Ok(());
    }
    let paid = n.min(st.treasury);
    st.treasury -= paid;
    ctx.say(
        format!(
            "{why} cost Rome {n} TP; the treasury holds {} (6.10)",
            st.treasury
        ),
        vec![],
    );
    if paid < n {
        ctx.say(
            format!(
                "{} TP of it are forgiven: nothing is left to demobilize or tax (6.10; R-C4)",
                n - paid
            ),
            vec![],
        );
    }
    Ok(())
}

/// The Roman's automatic steps at the start of the administrative phase:
/// Gallic replenishment (9.5), then collection (6.2, 6.5).
pub fn admin_start(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    if st.gallic == Gallic::Active && st.turn >= 4 {
        gallic_replenish(ctx, st);
    }
    let tp = revenue(d, st);
    st.treasury += tp;
    // Version 14: which core centres paid, so an emergency tax of one adds
    // only the other half of its double yield (6.6).
    st.collected.clear();
    if ctx.version >= 14 {
        st.collected = d
            .hexes
            .iter()
            .filter(|x| x.tp > 0 && x.region.is_core() && pays(d, st, x.hex))
            .map(|x| x.hex)
            .collect();
    }
    ctx.say(
        format!(
            "Rome collects {tp} TP: {}; the treasury holds {} (6.2, 6.5)",
            revenue_parts(d, st),
            st.treasury
        ),
        vec![],
    );
}

/// 9.5: one dead infantry vexillation onto each Gallic base without one (R-H7).
fn gallic_replenish(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    let bases: Vec<Hex> = st
        .on_map()
        .filter(|(u, _)| d.kind(*u) == Kind::Base && st.unit(*u).gallic)
        .map(|(_, h)| h)
        .collect();
    for h in bases {
        let has = st.at(h).any(|u| d.kind(u) == Kind::Infantry);
        let dead = d
            .of_kind(Kind::Infantry)
            .find(|u| st.unit(*u).loc == Loc::Dead);
        if let (false, Some(v)) = (has, dead) {
            *st.unit_mut(v) = super::state::UnitState {
                loc: Loc::Hex(h),
                rebel: true,
                gallic: true,
            };
            ctx.say(
                format!("the Gallic Empire raises {} in {h} (9.5)", d.uid(v)),
                vec![h],
            );
        }
    }
}

/// Emergency taxation (6.6).
pub fn tax(ctx: &mut Ctx, st: &mut State, hexes: &[Hex]) -> Result<(), RuleError> {
    let d = ctx.d;
    for h in hexes {
        let x = d
            .hex(*h)
            .ok_or_else(|| illegal(format!("{h} is off the map"), "6.6"))?;
        if !x.region.is_core() || x.tp == 0 || *h == d.special.rome {
            return Err(illegal(
                format!("{h} is not a core population centre that may be taxed (not Rome/Ostia)"),
                "6.6",
            ));
        }
        if !pays(d, st, *h) {
            return Err(illegal(
                format!("{h} is looted or not under Roman control"),
                "6.6",
            ));
        }
        // 6.6: the hex "receives double the normal TP". From version 14 a
        // hex whose normal TP this turn's collection already counted adds
        // the other half only; version 13 added the double on top (triple).
        let counted = ctx.version >= 14 && st.collected.remove(h);
        let tp = if counted { x.tp } else { 2 * x.tp };
        st.treasury += tp;
        loot(ctx, st, *h, "emergency taxation");
        let gs: Vec<UnitId> = st
            .at(*h)
            .filter(|u| d.kind(*u) == Kind::RomanGarrison)
            .collect();
        for g in gs {
            st.set_loc(g, Loc::Dead);
        }
        let text = if counted {
            format!(
                "emergency taxation of {} yields double its {} TP: {tp} TP more than the {} already collected (6.6)",
                d.hex_name(*h),
                x.tp,
                x.tp
            )
        } else {
            format!(
                "emergency taxation of {} yields {tp} TP (6.6)",
                d.hex_name(*h)
            )
        };
        ctx.say(text, vec![*h]);
        // A leader whose last unit was that garrison shares its fate (8.4).
        super::effects::after_losses(ctx, st, &[*h])?;
    }
    Ok(())
}

/// Demobilization (6.7): named bases and infantry, twinned; surplus
/// singletons of the over-supplied kind first at `demob_surplus_tp` (R-C3).
pub fn demobilize(ctx: &mut Ctx, st: &mut State, units: &[UnitId]) -> Result<(), RuleError> {
    let d = ctx.d;
    let loyal_on_map = |st: &State, k: Kind| {
        d.of_kind(k)
            .filter(|u| st.hex_of(*u).is_some() && st.faction(d, *u) == Faction::Loyal)
            .count()
    };
    let (b, v) = (
        loyal_on_map(st, Kind::Base),
        loyal_on_map(st, Kind::Infantry),
    );
    let hexes: Vec<Hex> = units.iter().filter_map(|u| st.hex_of(*u)).collect();
    for (i, u) in units.iter().enumerate() {
        // Version 14: a unit named twice is refused; version 13 paid for it
        // twice (6.7: TP "for each such twin demobilization").
        if ctx.version >= 14 && units[..i].contains(u) {
            return Err(illegal(
                format!(
                    "{} is named twice: each unit is demobilized once",
                    d.uid(*u)
                ),
                "6.7",
            ));
        }
        let k = d.kind(*u);
        if st.unit(*u).rebel {
            return Err(illegal(
                format!(
                    "{} is a rebel: rebels have no economy and are never demobilized",
                    d.uid(*u)
                ),
                "6.7, 6.11",
            ));
        }
        if !matches!(k, Kind::Base | Kind::Infantry)
            || st.hex_of(*u).is_none()
            || st.faction(d, *u) != Faction::Loyal
        {
            return Err(illegal(
                format!(
                    "{} is not a loyal base or infantry vexillation on the map (cavalry never demobilize)",
                    d.uid(*u)
                ),
                "6.7",
            ));
        }
    }
    let nb = units.iter().filter(|u| d.kind(**u) == Kind::Base).count();
    let nv = units.len() - nb;
    // The over-supplied kind goes first, singly (R-C3); the rest in twins.
    let singles = if b > v { nb.min(b - v) } else { nv.min(v - b) };
    let (pb, pv) = if b > v {
        (nb - singles, nv)
    } else {
        (nb, nv - singles)
    };
    if pb != pv {
        return Err(illegal(
            "bases and infantry vexillations are demobilized in twinned pairs, the over-supplied kind first",
            "6.7",
        ));
    }
    for u in units {
        st.set_loc(*u, Loc::Dead);
    }
    let tp = pb as u32 * d.values.demobilize_pair + singles as u32 * st.options.demob_surplus_tp;
    st.treasury += tp;
    ctx.say(
        format!(
            "{} demobilized for {tp} TP (6.7)",
            counted_at(ctx.version, units.len(), "unit", "units")
        ),
        vec![],
    );
    super::effects::after_losses(ctx, st, &hexes)
}

/// Reclaiming pairs, or cavalry after the reserve (6.8).
pub fn reclaim(
    ctx: &mut Ctx,
    st: &mut State,
    pairs: &[Hex],
    cavalry: &[Hex],
) -> Result<(), RuleError> {
    let d = ctx.d;
    let cost = (2 * pairs.len() + cavalry.len()) as u32 * d.values.reclaim_unit;
    if cost > st.treasury {
        return Err(illegal(
            format!(
                "reclaiming costs {cost} TP; the treasury holds {}",
                st.treasury
            ),
            "6.8, 6.10",
        ));
    }
    if !cavalry.is_empty() && !st.reserve {
        return Err(illegal(
            "cavalry may be reclaimed only once the central cavalry reserve exists",
            "6.8, 10.8",
        ));
    }
    let mut placed = Vec::new();
    for (h, kinds) in pairs
        .iter()
        .map(|h| (h, &[Kind::Base, Kind::Infantry][..]))
        .chain(cavalry.iter().map(|h| (h, &[Kind::Cavalry][..])))
    {
        if !d.region(*h).is_core()
            || st.anti_roman_in(d, *h)
            || (st.gallic == Gallic::Active && d.region(*h) == Region::Gallic)
        {
            return Err(illegal(
                format!("{h} is not a core hex free of enemy units"),
                "6.8; R-C13",
            ));
        }
        for k in kinds {
            let u = d
                .of_kind(*k)
                .find(|u| st.unit(*u).loc == Loc::Dead)
                .ok_or_else(|| illegal(format!("no {} in the dead pile", k.name()), "6.8"))?;
            *st.unit_mut(u) = super::state::UnitState {
                loc: Loc::Hex(*h),
                rebel: false,
                gallic: false,
            };
        }
        placed.push(*h);
    }
    stacking::check_hexes(d, st, &placed).map_err(|(m, r)| illegal(m, r))?;
    st.treasury -= cost;
    ctx.say(
        format!(
            "Rome reclaims {} for {cost} TP (6.8)",
            counted_at(
                ctx.version,
                2 * pairs.len() + cavalry.len(),
                "unit",
                "units"
            )
        ),
        placed.clone(),
    );
    Ok(())
}

/// Up to `n` dead tribes return, one a hex, to the named hexes first, the
/// rest by default (7.1; R-C9). From version 8 the named hexes were checked
/// before (`placement::check_tribes`).
pub fn tribes_return(
    ctx: &mut Ctx,
    st: &mut State,
    prefs: &[Hex],
    n: usize,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let dead: Vec<UnitId> = d
        .of_kind(Kind::Tribe)
        .filter(|u| st.unit(*u).loc == Loc::Dead)
        .take(n)
        .collect();
    let mut placed = 0;
    for u in dead {
        let sites = placement::tribe_sites(d, st);
        let Some(h) = prefs
            .iter()
            .copied()
            .find(|h| sites.contains(h))
            .or(sites.first().copied())
        else {
            break;
        };
        st.set_loc(u, Loc::Hex(h));
        placed += 1;
    }
    if placed > 0 {
        ctx.say(
            format!(
                "{} to Barbaria (7.1)",
                counted(placed, "Germanic tribe returns", "Germanic tribes return")
            ),
            vec![],
        );
    }
    let left = d
        .of_kind(Kind::Tribe)
        .filter(|u| st.unit(*u).loc == Loc::Dead)
        .count()
        .min(n.saturating_sub(placed));
    if left > 0 {
        ctx.say(
            format!(
                "{} in the dead pile: no empty Barbaria hex is left (7.1; R-C9)",
                counted(left, "Germanic tribe stays", "Germanic tribes stay")
            ),
            vec![],
        );
    }
    Ok(())
}

/// Parthian units return (7.2, chit 22; 7.3): a garrison in every Parthian
/// centre free of enemies (un-looting it), gunds to the named hexes `where_`
/// allows, else the first such centre.
pub fn parthia_returns(
    ctx: &mut Ctx,
    st: &mut State,
    prefs: &[Hex],
    where_: GundRule,
    rule: &str,
) -> Result<(), RuleError> {
    let d = ctx.d;
    st.collapsed = false;
    let centres = placement::gund_sites(d, st, GundRule::Centres);
    let sites = match where_ {
        GundRule::Centres => centres.clone(),
        GundRule::Anywhere => placement::gund_sites(d, st, GundRule::Anywhere),
    };
    for h in &centres {
        if st.at(*h).any(|u| d.kind(u) == Kind::ParthianGarrison) {
            continue;
        }
        if let Some(g) = d
            .of_kind(Kind::ParthianGarrison)
            .find(|u| st.unit(*u).loc == Loc::Dead)
        {
            st.set_loc(g, Loc::Hex(*h));
            st.looted.remove(h);
            st.plague.remove(h);
        }
    }
    let gunds: Vec<UnitId> = d
        .of_kind(Kind::Gund)
        .filter(|u| st.unit(*u).loc == Loc::Dead)
        .collect();
    for (k, g) in gunds.into_iter().enumerate() {
        let targets: Vec<Hex> = prefs
            .iter()
            .copied()
            .filter(|h| sites.contains(h))
            .collect();
        let h = targets
            .get(k % targets.len().max(1))
            .copied()
            .or(centres.first().copied());
        if let Some(h) = h {
            let mut t = st.clone();
            t.set_loc(g, Loc::Hex(h));
            if stacking::check_hex(d, &t, h).is_ok() {
                st.set_loc(g, Loc::Hex(h));
            }
        }
    }
    ctx.say(
        format!("Parthian units return to their cities ({rule})"),
        centres.clone(),
    );
    Ok(())
}

/// Parthian dynastic collapse (7.3): every Parthian unit to the dead pile,
/// 11 TP to Rome, Roman units out of Parthia (R-H9: each to the nearest core
/// hex where it may stand).
pub fn collapse(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    let d = ctx.d;
    st.collapsed = true;
    let parthians: Vec<UnitId> = st
        .on_map()
        .filter(|(u, _)| st.faction(d, *u) == Faction::Parthian)
        .map(|(u, _)| u)
        .collect();
    for u in parthians {
        st.set_loc(u, Loc::Dead);
    }
    st.treasury += d.values.collapse_award;
    ctx.say(
        format!(
            "Ctesiphon falls: Parthian dynastic collapse; Rome gains {} TP (7.3)",
            d.values.collapse_award
        ),
        vec![d.special.ctesiphon],
    );
    evacuate(ctx, st)?;
    ctx.say(
        "Roman units leave Parthia without using actions (7.3; R-H9)",
        vec![],
    );
    Ok(())
}

/// The Roman forces in Parthia after a collapse, each hex's force of one
/// faction together with its leader (7.3 "movement actions" move forces;
/// 8.4: a leader never moves without units).
fn forces_in_parthia(d: &Data, st: &State) -> Vec<(Hex, Vec<UnitId>)> {
    let mut out: Vec<(Hex, Vec<UnitId>)> = Vec::new();
    for (u, h) in st.on_map() {
        if d.region(h) != Region::Parthia || !d.kind(u).is_roman() {
            continue;
        }
        let f = st.faction(d, u);
        match out
            .iter_mut()
            .find(|(x, us)| *x == h && st.faction(d, us[0]) == f)
        {
            Some((_, us)) => us.push(u),
            None => out.push((h, vec![u])),
        }
    }
    out
}

/// The free evacuation after a collapse (7.3; R-H9): each Roman force in
/// Parthia goes whole to the nearest core hex it may enter and stand in
/// (its leader with it). A force no single hex takes goes unit by unit to
/// the nearest hexes that take each, its leader with the last of them, so
/// no leader is ever left alone (8.4); what no hex takes stays put (R-H9).
/// The hexes entered and left see the usual effects (looting, 8.4, 10.7).
fn evacuate(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    let d = ctx.d;
    let core: Vec<Hex> = d
        .hexes
        .iter()
        .filter(|x| x.region.is_core())
        .map(|x| x.hex)
        .collect();
    for (h, units) in forces_in_parthia(d, st) {
        let f = st.faction(d, units[0]);
        let mut cands = core.clone();
        cands.sort_by_key(|c| (h.distance_on(super::data::OFFSET, *c), *c));
        let takes = |st: &State, us: &[UnitId], c: Hex| {
            super::entry::may_enter(d, st, f, us, c).is_ok()
                && stacking::check_with(d, st, c, us).is_ok()
        };
        let groups: Vec<Vec<UnitId>> = if cands.iter().any(|c| takes(st, &units, *c)) {
            vec![units.clone()]
        } else {
            let (leaders, mut rest): (Vec<UnitId>, Vec<UnitId>) =
                units.iter().partition(|u| d.kind(**u).is_leader());
            let mut gs: Vec<Vec<UnitId>> = rest.drain(..).map(|u| vec![u]).collect();
            match gs.last_mut() {
                Some(last) => last.extend(leaders),
                None => gs.push(leaders),
            }
            gs
        };
        for g in groups {
            match cands.iter().copied().find(|c| takes(st, &g, *c)) {
                Some(c) => {
                    for u in &g {
                        st.set_loc(*u, Loc::Hex(c));
                    }
                    ctx.say(
                        format!(
                            "{} leave Parthia for {} (7.3; R-H9)",
                            super::movement::force_name(d, &g),
                            d.hex_name(c)
                        ),
                        vec![h, c],
                    );
                    super::effects::entered(ctx, st, f, &g, c)?;
                }
                None => ctx.say(
                    format!(
                        "{} can reach no core hex and stay in {h} (7.3; R-H9)",
                        super::movement::force_name(d, &g)
                    ),
                    vec![h],
                ),
            }
        }
        super::effects::after_losses(ctx, st, &[h])?;
    }
    Ok(())
}

/// The Parthian recovery roll in the administrative phase (7.3), with the
/// Roman's negative salt (N4).
pub fn recovery(ctx: &mut Ctx, st: &mut State, prefs: &[Hex]) -> Result<(), RuleError> {
    let d = ctx.d;
    let want = st.standing[Player::Roman.index()].salt_diplomacy;
    let salt = want.min(st.treasury);
    if salt < want {
        ctx.say(
            format!(
                "the Roman's standing negative salt of {want} TP is cut to the {salt} the treasury holds (8.8)"
            ),
            vec![],
        );
    }
    st.treasury -= salt;
    let roll = ctx.d6_as(st, "parthian-recovery", |r| r.saturating_sub(salt))?;
    // 8.8: a roll done again by Beseech the Gods is no longer salted.
    let salt = if ctx.rerolled { 0 } else { salt };
    let net = roll.saturating_sub(salt);
    let ok = net >= d.values.success || (roll == 6 && st.options.natural_six);
    ctx.say(
        format!(
            "Parthian recovery roll {roll}{}: {} (7.3)",
            if salt > 0 {
                format!(" less {salt} salt")
            } else {
                String::new()
            },
            if ok {
                "Parthia recovers"
            } else {
                "still collapsed"
            }
        ),
        vec![],
    );
    if ok {
        // 7.3 "deploy them as described in 3.3": gunds anywhere in Parthia
        // from version 8; version 7 used 7.2's centres.
        let where_ = if ctx.version >= 8 {
            GundRule::Anywhere
        } else {
            GundRule::Centres
        };
        parthia_returns(ctx, st, prefs, where_, "7.3")?;
    }
    Ok(())
}

/// Palmyran replenishment (9.2-9.4): dead legion-equivalents to 4720 while
/// Palmyra is active and not looted by the other side (R-H3: never the garrison).
pub fn palmyra_replenish(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    let pal = d.special.palmyra;
    if st.palmyra == Palmyra::Inactive || st.looted.contains(&pal) {
        return;
    }
    let f = st.palmyra_faction();
    if st.at(pal).any(|u| st.faction(d, u) != f) {
        return;
    }
    let dead: Vec<UnitId> = d
        .of_kind(Kind::Palmyran)
        .filter(|u| st.unit(*u).loc == Loc::Dead)
        .collect();
    if dead.is_empty() {
        return;
    }
    for u in &dead {
        st.set_loc(*u, Loc::Hex(pal));
    }
    ctx.say(
        format!("{} Palmyrans return to Palmyra (9.2-9.4)", dead.len()),
        vec![pal],
    );
}

/// Revenue Windfall (14.3; R-C6): 1d6+3 points as TP (at most 5) and pairs.
pub fn windfall(ctx: &mut Ctx, st: &mut State, tp: u32, pairs: &[Hex]) -> Result<(), RuleError> {
    let d = ctx.d;
    let n = ctx.d6_as(st, "windfall", |r| r + 3)? + 3;
    let wanted = tp;
    let tp = tp.min(super::chits::WINDFALL_TP).min(n);
    if tp < wanted {
        ctx.say(
            format!("the windfall of {n} credits {tp} of the {wanted} TP asked (14.3: not more than five, nor more than the roll)"),
            vec![],
        );
    }
    let mut left = n - tp;
    st.treasury += tp;
    let mut placed = Vec::new();
    for h in pairs {
        let why = if left < 2 {
            Some("the roll's points are spent".to_string())
        } else if !d.region(*h).is_core() || st.anti_roman_in(d, *h) {
            Some("not a core hex free of enemy units (6.8)".to_string())
        } else {
            None
        };
        let b = d.of_kind(Kind::Base).find(|u| st.unit(*u).loc == Loc::Dead);
        let v = d
            .of_kind(Kind::Infantry)
            .find(|u| st.unit(*u).loc == Loc::Dead);
        let why = why.or_else(|| match (b, v) {
            (Some(b), Some(v)) => {
                let mut t = st.clone();
                t.set_loc(b, Loc::Hex(*h));
                t.set_loc(v, Loc::Hex(*h));
                match stacking::check_hex(d, &t, *h) {
                    Ok(()) => {
                        *st = t;
                        left -= 2;
                        placed.push(*h);
                        None
                    }
                    Err((m, r)) => Some(format!("{m} ({r})")),
                }
            }
            _ => Some("no base and infantry vexillation are left in the dead pile (6.8)".into()),
        });
        if let Some(why) = why {
            ctx.say(
                format!("no windfall legion goes to {h}: {why} (14.3)"),
                vec![*h],
            );
        }
    }
    ctx.say(
        format!(
            "windfall of {n}: {tp} TP and {}{} (14.3)",
            counted_at(ctx.version, placed.len(), "legion", "legions"),
            if left == 1 && ctx.version >= 15 {
                "; 1 point unused is lost".to_string()
            } else if left > 0 {
                format!("; {left} points unused are lost")
            } else {
                String::new()
            }
        ),
        placed,
    );
    Ok(())
}

/// Begin or complete a fortification (8.13).
pub fn fortify(ctx: &mut Ctx, st: &mut State, hex: Option<Hex>) -> Result<(), RuleError> {
    let d = ctx.d;
    match hex {
        Some(h) => {
            if st.fortify.is_some() {
                return Err(illegal(
                    "the single Fortify marker is already in use",
                    "8.13",
                ));
            }
            if !d.region(h).is_core() || d.hex(h).is_none_or(|x| x.tp == 0) {
                return Err(illegal(
                    format!("{h} is not a core population centre"),
                    "8.13",
                ));
            }
            if st.at(h).any(|u| d.kind(u).is_garrison()) || st.anti_roman_in(d, h) {
                return Err(illegal(
                    format!("{h} already has a garrison or holds enemy units"),
                    "8.13",
                ));
            }
            st.fortify = Some(h);
            ctx.say(
                format!("fortification begins in {} (8.13)", d.hex_name(h)),
                vec![h],
            );
        }
        None => {
            let h = st
                .fortify
                .ok_or_else(|| illegal("no fortification is under way", "8.13"))?;
            // Never reached while occupation aborts the work (8.13); kept so
            // no path can set a loyal garrison among the enemy (10.4, 10.5)
            // or beside another garrison (10.3).
            if ctx.version >= 12 && st.anti_roman_in(d, h) {
                return Err(illegal(format!("{h} is occupied by the enemy"), "8.13"));
            }
            if ctx.version >= 12 && st.at(h).any(|u| d.kind(u).is_garrison()) {
                return Err(illegal(
                    format!("{h} already has a garrison/fortification unit (no double-fortifying)"),
                    "8.13",
                ));
            }
            let g = d
                .of_kind(Kind::RomanGarrison)
                .find(|u| matches!(st.unit(*u).loc, Loc::Aside | Loc::Dead))
                .ok_or_else(|| illegal("all eleven Roman garrisons are in play", "8.13; R-C7"))?;
            // Version 13: nor beside units of another nationality, such as
            // pro-Roman Palmyrans who entered the hex while the work went on
            // (10.4, 10.5; self-play at scale, seed 1056 game 822). The work
            // is not aborted (they are no enemy, 8.13): it waits for them to go.
            let was = *st.unit(g);
            *st.unit_mut(g) = super::state::UnitState {
                loc: Loc::Hex(h),
                rebel: false,
                gallic: false,
            };
            if ctx.version >= 13
                && let Err((m, r)) = stacking::check_hex(d, st, h)
            {
                *st.unit_mut(g) = was;
                return Err(illegal(
                    format!("the new garrison may not stand there: {m}"),
                    r,
                ));
            }
            st.fortify = None;
            ctx.say(format!("{} is fortified (8.13)", d.hex_name(h)), vec![h]);
        }
    }
    Ok(())
}

/// Begin or complete a rebuild (6.4, 8.14).
pub fn rebuild(ctx: &mut Ctx, st: &mut State, h: Hex, complete: bool) -> Result<(), RuleError> {
    let d = ctx.d;
    if !d.region(h).is_core() || !st.looted.contains(&h) {
        return Err(illegal(
            format!("{h} is not a looted core population centre"),
            "6.4",
        ));
    }
    if st.anti_roman_in(d, h) {
        return Err(illegal(format!("{h} is occupied by the enemy"), "6.4"));
    }
    if st.bc_rebels.contains(&h) {
        return Err(illegal(
            format!("{h} is held by the revolt: loyal units must retake it before it is rebuilt"),
            "14.3, 6.4",
        ));
    }
    if complete {
        if !st.rebuilding.remove(&h) {
            return Err(illegal(format!("{h} is not rebuilding"), "6.4"));
        }
        st.looted.remove(&h);
        ctx.say(
            format!("{} is rebuilt and pays again (6.4)", d.hex_name(h)),
            vec![h],
        );
    } else {
        if !st.rebuilding.insert(h) {
            return Err(illegal(format!("{h} is already rebuilding"), "6.4"));
        }
        ctx.say(
            format!("rebuilding begins in {} (6.4)", d.hex_name(h)),
            vec![h],
        );
    }
    Ok(())
}
