//! Leaders (8.3-8.11, 10.7, 14.4): the Emperor Creation Table, the co-emperor
//! created loyal or rebel, a rebel co-emperor reaching Rome, and emergency
//! unstacking when a leader is gone.

use super::ask::Then;
use super::data::{Data, EmperorPlace, Kind, UnitId};
use super::effects::{
    Ctx, clients_fall_to_rebels, entered, flip_loyal, illegal, occupied_in_place,
};
use super::stacking;
use super::state::{Faction, Loc, Player, State};
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// Loyal Roman mobile units in a hex.
fn army(d: &Data, st: &State, h: Hex) -> usize {
    st.at(h)
        .filter(|u| d.kind(*u).is_mobile() && st.faction(d, *u) == Faction::Loyal)
        .count()
}

/// Where a new emperor may stand: a hex with no enemy and not the co-emperor's (8.3).
fn fit_for_emperor(d: &Data, st: &State, h: Hex) -> bool {
    !st.hostile_in(d, h, Faction::Loyal) && !st.at(h).any(|u| d.kind(u) == Kind::CoEmperor)
}

/// The hex with the most loyal mobile units; ties by the Roman's `prefer`
/// standing order, then the lowest hex id (14.4 stand-in; N9).
pub fn largest_army(d: &Data, st: &State) -> Option<Hex> {
    let prefer = &st.standing[Player::Roman.index()].prefer;
    let mut hexes: Vec<Hex> = st
        .on_map()
        .filter(|(u, _)| d.kind(*u).is_mobile() && st.faction(d, *u) == Faction::Loyal)
        .map(|(_, h)| h)
        .filter(|h| fit_for_emperor(d, st, *h))
        .collect();
    hexes.sort();
    hexes.dedup();
    let rank = |h: &Hex| prefer.iter().position(|p| p == h).unwrap_or(usize::MAX);
    hexes.into_iter().max_by(|a, b| {
        army(d, st, *a)
            .cmp(&army(d, st, *b))
            .then(rank(b).cmp(&rank(a)))
            .then(b.cmp(a))
    })
}

/// The hexes tied with `best` for the largest army (all but `best`), where
/// the Roman chooses (14.4 errata "IF TWO OR MORE HEXES"; N9).
fn tied_armies(d: &Data, st: &State, best: Hex) -> Vec<Hex> {
    let n = army(d, st, best);
    let mut v: Vec<Hex> = st
        .on_map()
        .map(|(_, h)| h)
        .filter(|h| *h != best && army(d, st, *h) == n && fit_for_emperor(d, st, *h))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The emperor is eliminated: roll on the Emperor Creation Table (8.9, 14.4).
/// From version 11 the Roman who listed no `prefer` hex is asked, when the
/// player not acting, where among hexes tied for the largest army the new
/// emperor is proclaimed (N9); the action stops on the question.
pub fn succession(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    let d = ctx.d;
    if st.emperor(d).is_none() {
        return Ok(());
    }
    let roll = ctx.d6(st, "emperor-table")?;
    let row = d.emperor[(roll as usize).clamp(1, 6) - 1];
    // A new emperor is never proclaimed alone where a hex with Roman units
    // will do (8.4; R-F6): Rome needs a loyal unit to stand with him.
    let manned = |st: &State, h: Hex| {
        st.at(h)
            .any(|u| !d.kind(u).is_leader() && st.faction(d, u) == Faction::Loyal)
    };
    let rome_ok = fit_for_emperor(d, st, d.special.rome) && manned(st, d.special.rome);
    let by_army = !(row.place == EmperorPlace::Rome && rome_ok);
    let army = if by_army { largest_army(d, st) } else { None };
    let hex = match by_army {
        false => Some(d.special.rome),
        true => army,
    }
    .or(rome_ok.then_some(d.special.rome))
    .or_else(|| {
        d.all_hexes()
            .find(|h| manned(st, *h) && fit_for_emperor(d, st, *h))
    });
    // Version 13: no loyal Roman unit stands anywhere but with the
    // co-emperor (whose hex the emperor may not share, 8.3), so the new
    // emperor could only stand alone (8.4; self-play at scale, seeds 1055
    // game 504, 1059 games 242 and 564): the co-emperor's army proclaims him.
    if hex.is_none()
        && ctx.version >= 13
        && let Some(co) = st.coemperor(d).filter(|c| st.hex_of(*c).is_some())
    {
        return coemperor_army_proclaims(ctx, st, co, roll, row.tp_die);
    }
    if hex.is_none() && ctx.version >= 14 {
        return vacant(ctx, st, roll, row.tp_die);
    }
    let hex = hex.or_else(|| fit_for_emperor(d, st, d.special.rome).then_some(d.special.rome));
    let Some(h) = hex else {
        return Ok(());
    };
    let free = st.standing[Player::Roman.index()].prefer.is_empty();
    if let Some(best) = army
        && ctx.version >= 11
        && free
        && super::ask::may_ask(ctx, Player::Roman)
    {
        let tied = tied_armies(d, st, best);
        let about = super::ask::About::Succession {
            roll,
            tp_die: row.tp_die,
        };
        if super::ask::ask_if_real(ctx, st, Player::Roman, best, tied, about) {
            return Ok(());
        }
    }
    proclaim(ctx, st, h, roll, row.tp_die)
}

/// Version 14: the emperor fell, and no loyal Roman unit stands anywhere
/// and no co-emperor is on the map to proclaim a successor. A leader never
/// stands without a unit (8.4: he moves only with mobile units and shares
/// the fate of the last unit in his hex; ruling R-F6), so the new emperor
/// is not set alone in Rome, as version 13 did: the throne stays vacant
/// (the counter in the dead pile) until a loyal Roman unit stands on the map
/// again (reclaimed, 6.8; a windfall's legions, 14.3; ...), and he is
/// proclaimed with the largest army at the end of that order
/// ([`fill_vacancy`]). The table was consulted (8.9): its roll is made now
/// and its TP die paid. The umpire's ruling: the text and the stand-in
/// table do not say.
fn vacant(ctx: &mut Ctx, st: &mut State, roll: u32, tp_die: bool) -> Result<(), RuleError> {
    ctx.say(
        format!(
            "Emperor Creation Table roll {roll}: no loyal Roman unit stands anywhere for a new emperor to stand with, and no co-emperor: the throne is vacant until a loyal Roman unit is on the map again (8.4, 8.9; ruling)"
        ),
        vec![],
    );
    if tp_die {
        let n = ctx.d6(st, "emperor-table-tp")?;
        super::economics::pay(ctx, st, n, "the succession")?;
    }
    Ok(())
}

/// Version 14: a vacant throne (see [`vacant`]) is filled at the end of the
/// order that put a loyal Roman unit on the map again: the new emperor is
/// proclaimed with the largest army (ties by the Roman's `prefer` order,
/// then the lowest hex id), else beside any loyal unit (8.4, 8.9, 14.4).
pub fn fill_vacancy(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    let d = ctx.d;
    let Some(emp) = st.emperor(d).filter(|e| st.unit(*e).loc == Loc::Dead) else {
        return Ok(());
    };
    let manned = |h: &Hex| {
        st.at(*h)
            .any(|u| !d.kind(u).is_leader() && st.faction(d, u) == Faction::Loyal)
    };
    let hex = largest_army(d, st).or_else(|| {
        d.all_hexes()
            .find(|h| manned(h) && fit_for_emperor(d, st, *h))
    });
    let Some(h) = hex else {
        return Ok(());
    };
    st.set_loc(emp, Loc::Hex(h));
    ctx.say(
        format!(
            "the vacant throne is filled: a new emperor is proclaimed with the army in {} (8.4, 8.9; ruling)",
            d.hex_name(h)
        ),
        vec![h],
    );
    entered(ctx, st, Faction::Loyal, &[emp], h)
}

/// No loyal Roman unit stands anywhere for the new emperor to stand with
/// (8.4; R-F6) but in the co-emperor's army: it proclaims him. The
/// co-emperor's counter is set aside (it may be created again, R-F8); a
/// rebel's army returns to loyalty with every other non-Gallic rebel, as
/// when he reaches Rome (8.3; R-F7). The emperor takes his place after
/// Emperor Creation Table roll `roll` (its TP die paid if `tp_die`). A
/// ruling of version 13: the text and the stand-in table do not say.
fn coemperor_army_proclaims(
    ctx: &mut Ctx,
    st: &mut State,
    co: UnitId,
    roll: u32,
    tp_die: bool,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let Some(h) = st.hex_of(co) else {
        return Ok(());
    };
    let rebel = st.unit(co).rebel;
    st.set_loc(co, Loc::Aside);
    st.unit_mut(co).rebel = false;
    let (how, rest) = if rebel {
        flip_loyal(st, d);
        (
            "rebel co-emperor's army",
            ", and every rebel returns to loyalty",
        )
    } else {
        ("co-emperor's army", "")
    };
    ctx.say(
        format!(
            "no loyal Roman unit stands anywhere but with the co-emperor: the {how} in {} proclaims the new emperor and the co-emperor's counter is set aside{rest} (8.3, 8.4; ruling)",
            d.hex_name(h)
        ),
        vec![h],
    );
    proclaim(ctx, st, h, roll, tp_die)
}

/// The new emperor is proclaimed in `h` after Emperor Creation Table roll
/// `roll`, and Rome pays the row's die of TP if `tp_die` (14.4 stand-in).
pub fn proclaim(
    ctx: &mut Ctx,
    st: &mut State,
    h: Hex,
    roll: u32,
    tp_die: bool,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let Some(emp) = st.emperor(d) else {
        return Ok(());
    };
    st.set_loc(emp, Loc::Hex(h));
    ctx.say(
        format!(
            "Emperor Creation Table roll {roll}: a new emperor is proclaimed in {} (14.4, stand-in)",
            d.hex_name(h)
        ),
        vec![h],
    );
    let mut cost = None;
    if tp_die {
        let n = ctx.d6(st, "emperor-table-tp")?;
        super::economics::pay(ctx, st, n, "the succession")?;
        // Version 11: the Roman is asked how he covers a deficit (N7).
        if super::ask::paused(st, || vec![Then::Proclaimed { hex: h, cost: n }]) {
            return Ok(());
        }
        cost = Some(n);
    }
    proclaimed(ctx, st, h, cost)
}

/// The new emperor proclaimed in `h`, the succession's `cost` paid: the
/// report, and what his arrival in `h` brings (9.5 Trier).
pub fn proclaimed(
    ctx: &mut Ctx,
    st: &mut State,
    h: Hex,
    cost: Option<u32>,
) -> Result<(), RuleError> {
    if let Some(n) = cost {
        ctx.say(
            format!("the succession costs {n} TP (14.4, stand-in; 6.10)"),
            vec![],
        );
    }
    let Some(emp) = st.emperor(ctx.d) else {
        return Ok(());
    };
    entered(ctx, st, Faction::Loyal, &[emp], h)
}

/// A rebel co-emperor enters Rome (8.3): the emperor goes to Rome, the
/// co-emperor is set aside, every non-Gallic rebel flips, Rome loses a die of TP.
pub fn rebel_in_rome(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    let d = ctx.d;
    let rome = d.special.rome;
    if let Some(co) = st.coemperor(d) {
        st.set_loc(co, Loc::Aside);
        st.unit_mut(co).rebel = false;
    }
    flip_loyal(st, d);
    let from = st.emperor(d).and_then(|e| st.hex_of(e));
    if let Some(e) = st.emperor(d) {
        st.set_loc(e, Loc::Hex(rome));
    }
    let n = ctx.d6(st, "rebel-in-rome")?;
    super::economics::pay(ctx, st, n, "the end of the revolt")?;
    // Version 11: the Roman is asked how he covers a deficit (N7).
    if super::ask::paused(st, || vec![Then::RomeRetaken { cost: n, from }]) {
        return Ok(());
    }
    rome_retaken(ctx, st, n, from)
}

/// The revolt's end paid (8.3): the report, then the emperor's old stack
/// in `from` unstacks (10.7).
pub fn rome_retaken(
    ctx: &mut Ctx,
    st: &mut State,
    n: u32,
    from: Option<Hex>,
) -> Result<(), RuleError> {
    ctx.say(
        format!("the rebel co-emperor reaches Rome: the revolt ends, the emperor returns to Rome and Rome loses {n} TP (8.3)"),
        vec![ctx.d.special.rome],
    );
    if let Some(h) = from {
        unstack(ctx, st, h)?;
    }
    Ok(())
}

/// Where an excess unit of `h` unstacks from version 8 (10.7; N10): an
/// adjacent land hex it may enter and fit in, chosen by the retreat
/// doctrine (N1: outside EZOC if it can, a held centre, nearest the rally
/// hex of its commander, the lowest id).
fn unstack_to(d: &Data, st: &State, f: Faction, u: UnitId, h: Hex) -> Option<Hex> {
    use super::combat::{doctrine_key, fits, rally_of};
    let rally = rally_of(st, f);
    d.links(h)
        .filter(|n| super::entry::may_enter(d, st, f, &[u], *n).is_ok() && fits(d, st, *n, &[u]))
        .min_by_key(|n| doctrine_key(d, st, f, &[u], rally, *n))
}

/// The unstacking order of the player who commands faction `f` (10.7; N10).
fn order_of(st: &State, f: Faction) -> &super::standing::Unstack {
    let owner = f.player().unwrap_or(Player::Roman);
    &st.standing[owner.index()].unstack
}

/// The vexillation of `h` that leaves next (10.7): the highest id, but from
/// version 9 not one its commander's `unstack at HEX keep` names while
/// another may go (N10).
fn leaving(d: &Data, st: &State, h: Hex, version: u32) -> Option<UnitId> {
    let vex: Vec<UnitId> = st
        .at(h)
        .filter(|u| matches!(d.kind(*u), Kind::Infantry | Kind::Cavalry))
        .collect();
    let last = vex.last().copied();
    if version < 9 {
        return last;
    }
    let keep = |u: &UnitId| {
        order_of(st, st.faction(d, *u))
            .at(h)
            .is_some_and(|a| a.keep.contains(u))
    };
    vex.iter().rev().find(|u| !keep(u)).copied().or(last)
}

/// The first hex of the commander's `unstack` order (the stack's own list,
/// then the general one) that `u` may enter and fit in (10.7; N10).
fn ordered_to(d: &Data, st: &State, f: Faction, u: UnitId, h: Hex) -> Option<Hex> {
    let o = order_of(st, f);
    let own = o.at(h).map(|a| a.to.as_slice()).unwrap_or(&[]);
    own.iter().chain(&o.to).copied().find(|n| {
        d.linked(h, *n)
            && super::entry::may_enter(d, st, f, &[u], *n).is_ok()
            && super::combat::fits(d, st, *n, &[u])
    })
}

/// Emergency unstacking (10.7): a Roman stack over the limit moves its excess
/// mobile units to adjacent land hexes where they fit, else they are
/// eliminated. From version 11 the commander not acting who gave no
/// `unstack` order is asked where each unit goes when more than one hex
/// will do (N10); the action stops on the question.
pub fn unstack(ctx: &mut Ctx, st: &mut State, h: Hex) -> Result<(), RuleError> {
    let d = ctx.d;
    while stacking::limit_broken(d, st, &stacking::count(d, st, st.at(h))).is_some() {
        let Some(u) = leaving(d, st, h, ctx.version) else {
            return Ok(());
        };
        let f = st.faction(d, u);
        let to = if ctx.version >= 9 {
            ordered_to(d, st, f, u, h).or_else(|| unstack_to(d, st, f, u, h))
        } else if ctx.version >= 8 {
            unstack_to(d, st, f, u, h)
        } else {
            // Version 7: the first adjacent hex with no enemy where it fits.
            d.links(h).find(|n| {
                let mut t = st.clone();
                t.set_loc(u, Loc::Hex(*n));
                !st.hostile_in(d, *n, f) && stacking::check_hex(d, &t, *n).is_ok()
            })
        };
        match to {
            Some(n) if unstack_question(ctx, st, f, u, h, n) => return Ok(()),
            Some(n) => {
                unstack_one(ctx, st, f, u, h, n)?;
                // Version 11: a question in what its arrival brings.
                if super::ask::paused(st, || vec![Then::Unstack(h)]) {
                    return Ok(());
                }
            }
            None => {
                ctx.say(
                    format!(
                        "{} cannot unstack from {h} and is eliminated (10.7)",
                        d.uid(u)
                    ),
                    vec![h],
                );
                super::effects::kill(ctx, st, u)?;
            }
        }
    }
    Ok(())
}

/// Version 11 (N10): asks the commander of `u` where it unstacks from `h`
/// when he is not acting, gave no `unstack` order, and another hex than the
/// doctrine's `n` will do; true if the action stops on the question.
fn unstack_question(ctx: &mut Ctx, st: &mut State, f: Faction, u: UnitId, h: Hex, n: Hex) -> bool {
    let d = ctx.d;
    let Some(owner) = f.player() else {
        return false;
    };
    if ctx.version < 11
        || st.standing[owner.index()].unstack_given
        || !super::ask::may_ask(ctx, owner)
    {
        return false;
    }
    let mut others: Vec<Hex> = d
        .links(h)
        .filter(|x| {
            *x != n
                && super::entry::may_enter(d, st, f, &[u], *x).is_ok()
                && super::combat::fits(d, st, *x, &[u])
        })
        .collect();
    others.sort();
    let about = super::ask::About::Unstack { hex: h, unit: u };
    super::ask::ask_if_real(ctx, st, owner, n, others, about)
}

/// `u` of faction `f` unstacks from `h` into `n` (10.7).
fn unstack_one(
    ctx: &mut Ctx,
    st: &mut State,
    f: Faction,
    u: UnitId,
    h: Hex,
    n: Hex,
) -> Result<(), RuleError> {
    st.set_loc(u, Loc::Hex(n));
    ctx.say(
        format!("{} unstacks to {n} (10.7)", ctx.d.uid(u)),
        vec![h, n],
    );
    entered(ctx, st, f, &[u], n)
}

/// The commander answered where `u` unstacks from `h` (N10): it goes to
/// `n`, and the rest of the stack's unstacking follows (10.7).
pub fn unstack_answered(
    ctx: &mut Ctx,
    st: &mut State,
    h: Hex,
    u: UnitId,
    n: Hex,
) -> Result<(), RuleError> {
    let f = st.faction(ctx.d, u);
    unstack_one(ctx, st, f, u, h, n)?;
    if super::ask::paused(st, || vec![Then::Unstack(h)]) {
        return Ok(());
    }
    unstack(ctx, st, h)
}

/// Creates a loyal co-emperor (8.7).
pub fn create_loyal(ctx: &mut Ctx, st: &mut State, h: Hex) -> Result<(), RuleError> {
    let d = ctx.d;
    let co = st
        .coemperor(d)
        .ok_or_else(|| illegal("no co-emperor counter", "8.7"))?;
    // Set aside or in the dead pile, he may be created (8.7; R-F8).
    if st.unit(co).loc.hex().is_some() {
        return Err(illegal("there is already a co-emperor on the map", "8.7"));
    }
    let mobile = st
        .at(h)
        .any(|u| d.kind(u).is_mobile() && st.faction(d, u) == Faction::Loyal);
    if !mobile {
        return Err(illegal(
            format!("{h} holds no loyal Roman mobile unit"),
            "8.7",
        ));
    }
    if st.at(h).any(|u| d.kind(u) == Kind::Emperor) {
        return Err(illegal(
            "the two Roman leaders may never share a hex",
            "8.3",
        ));
    }
    st.set_loc(co, Loc::Hex(h));
    ctx.say(
        format!("a loyal co-emperor is created in {} (8.7)", d.hex_name(h)),
        vec![h],
    );
    Ok(())
}

/// Hexes where a rebel co-emperor may be placed (8.7; R-F5).
pub fn rebel_sites(d: &Data, st: &State) -> Vec<Hex> {
    let mut v: Vec<Hex> = st
        .on_map()
        .filter(|(u, _)| !d.kind(*u).is_leader() && st.faction(d, *u) == Faction::Loyal)
        .map(|(_, h)| h)
        .filter(|h| *h != d.special.rome && !st.at(*h).any(|u| d.kind(u).is_leader()))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Tries to create a rebel co-emperor (8.7): a 5 or 6, then placement in the
/// first hex of the preference list that qualifies (else the lowest).
pub fn create_rebel(ctx: &mut Ctx, st: &mut State, prefs: &[Hex]) -> Result<(), RuleError> {
    let d = ctx.d;
    let co = st
        .coemperor(d)
        .ok_or_else(|| illegal("no co-emperor counter", "8.7"))?;
    // Set aside or in the dead pile, he may be created (8.7; R-F8).
    if st.unit(co).loc.hex().is_some() {
        return Err(illegal("there is already a co-emperor on the map", "8.7"));
    }
    let sites = rebel_sites(d, st);
    if sites.is_empty() {
        return Err(illegal(
            "no hex holds loyal units away from the emperor and Rome",
            "8.7",
        ));
    }
    // Version 14: a hex named that does not qualify is refused before the
    // die (version 13 passed over it, and over the whole list to the lowest
    // hex that qualified).
    if let Some(h) = prefs
        .iter()
        .find(|h| !sites.contains(h))
        .filter(|_| ctx.version >= 14)
    {
        return Err(illegal(
            format!(
                "{h} holds no loyal Roman unit away from the emperor and Rome, where a rebel co-emperor may rise"
            ),
            "8.7; R-F5",
        ));
    }
    let roll = ctx.d6(st, "rebel-coemperor")?;
    if roll < d.values.success {
        ctx.say(
            format!("the attempt to raise a rebel co-emperor fails (roll {roll}; 8.7)"),
            vec![],
        );
        return Ok(());
    }
    let h = prefs
        .iter()
        .copied()
        .find(|h| sites.contains(h))
        .unwrap_or(sites[0]);
    st.set_loc(co, Loc::Hex(h));
    st.unit_mut(co).rebel = true;
    let converted: Vec<UnitId> = st.at(h).collect();
    for u in converted {
        if d.kind(u).is_roman() {
            st.unit_mut(u).rebel = true;
        }
    }
    ctx.say(
        format!(
            "roll {roll}: a rebel co-emperor rises in {} and its garrison rebels (8.7)",
            d.hex_name(h)
        ),
        vec![h],
    );
    if ctx.version >= 12 {
        clients_fall_to_rebels(ctx, st, h, "8.7")?;
    }
    occupied_in_place(ctx, st, h);
    Ok(())
}
