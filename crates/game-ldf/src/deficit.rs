//! Covering a deficit (6.10): "regular play is temporarily halted while the
//! Roman player carries out enough unit demobilizations or emergency taxation
//! to make up the shortfall". The Roman answers by his `deficit` standing
//! order (digest N7), so a deficit met in the middle of either player's
//! action needs no round trip: his hexes in order, then the digest's
//! fallback, pairs from the largest leaderless stacks farthest from any
//! enemy. What nothing covers is forgiven (R-C4). From version 11 a Roman
//! who stated no `deficit` order is asked, step by step, when the deficit
//! falls in the Germano-Parthian's action and the choice is real (N7).

use super::data::{Data, Kind, UnitId};
use super::economics;
use super::effects::{Ctx, illegal};
use super::orders::Order;
use super::standing::Cover;
use super::state::{Faction, Player, State};
use std::cmp::Reverse;
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// One step of the cover.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// Demobilize these units (a twinned pair, or one of the over-supplied
    /// kind, 6.7).
    Demobilize(Vec<UnitId>),
    /// Tax this hex in emergency (6.6).
    Tax(Hex),
}

/// Demobilizes and taxes, by the Roman's standing order and then the
/// fallback, until the treasury holds `n` (due for `why`) or nothing more
/// can be done. From version 11 the Roman, when not acting and with no
/// `deficit` order, is asked each step while more than one will do (N7);
/// the cover stops on the question and goes on after the answer.
pub fn cover(ctx: &mut Ctx, st: &mut State, n: u32, why: &str) -> Result<(), RuleError> {
    while st.treasury < n {
        let Some(step) = next_step(ctx.d, st) else {
            break;
        };
        ctx.say(
            format!(
                "the treasury holds {} of the {n} TP due: play halts while Rome covers it (6.10)",
                st.treasury
            ),
            vec![],
        );
        if asks(ctx, st) {
            let about = super::ask::About::Deficit {
                due: n,
                why: why.to_string(),
            };
            let q = super::ask::Question {
                to: Player::Roman,
                hexes: Vec::new(),
                about,
                then: Vec::new(),
            };
            super::ask::stop(ctx, st, q);
            return Ok(());
        }
        take(ctx, st, step)?;
        if st.question.is_some() {
            return Ok(());
        }
    }
    Ok(())
}

/// Version 11 (N7): is the Roman asked how he covers the deficit: he is not
/// acting, stated no `deficit` order, and more than one step will do?
fn asks(ctx: &Ctx, st: &State) -> bool {
    ctx.version >= 11
        && !st.standing[Player::Roman.index()].deficit_given
        && super::ask::may_ask(ctx, Player::Roman)
        && steps(ctx.d, st).len() > 1
}

/// Carries out one step of the cover (6.6, 6.7).
fn take(ctx: &mut Ctx, st: &mut State, step: Step) -> Result<(), RuleError> {
    match step {
        Step::Demobilize(us) => economics::demobilize(ctx, st, &us),
        Step::Tax(h) => economics::tax(ctx, st, &[h]),
    }
}

/// The steps the Roman may take now, as answers: `tax HEX` for each hex he
/// may tax in emergency, `demobilize UNIT...` for the units of the kinds
/// due in each hex that holds them, the default first (6.6, 6.7, 6.10).
pub fn steps(d: &Data, st: &State) -> Vec<String> {
    let show = |s: &Step| match s {
        Step::Tax(h) => format!("tax {h}"),
        Step::Demobilize(us) => {
            let ids: Vec<&str> = us.iter().map(|u| d.uid(*u)).collect();
            format!("demobilize {}", ids.join(" "))
        }
    };
    let mut v: Vec<String> = next_step(d, st).iter().map(show).collect();
    let kinds = kinds_due(d, st);
    let mut hexes: Vec<Hex> = st.on_map().map(|(_, h)| h).collect();
    hexes.sort();
    hexes.dedup();
    for h in hexes {
        if let Some(us) = in_hex(d, st, &kinds, h) {
            v.push(show(&Step::Demobilize(us)));
        }
    }
    let tax = d.hexes.iter().filter(|x| taxable(d, st, x.hex));
    v.extend(tax.map(|x| show(&Step::Tax(x.hex))));
    let mut seen = std::collections::BTreeSet::new();
    v.retain(|s| seen.insert(s.clone()));
    v
}

/// Units of each kind due that may go, all in `h`.
fn in_hex(d: &Data, st: &State, kinds: &[Kind], h: Hex) -> Option<Vec<UnitId>> {
    if kinds.is_empty() {
        return None;
    }
    kinds
        .iter()
        .map(|k| {
            d.of_kind(*k)
                .find(|u| st.hex_of(*u) == Some(h) && may_go(d, st, *u))
        })
        .collect()
}

/// The answer's step (N7): `pass` for the default, `tax HEX` for one hex
/// he may tax in emergency (6.6), `demobilize UNIT...` for one unit of each
/// kind due (6.7); then carried out. Refused, citing the rule, otherwise.
pub fn answered(ctx: &mut Ctx, st: &mut State, o: &Order) -> Result<(), RuleError> {
    let d = ctx.d;
    let step = match o {
        Order::Pass => next_step(d, st),
        Order::Tax(hs) => match hs.as_slice() {
            [h] if taxable(d, st, *h) => Some(Step::Tax(*h)),
            _ => {
                return Err(illegal(
                    "one hex a step: a core population centre under Roman control, unlooted, not Rome/Ostia",
                    "6.6, 6.10; N7",
                ));
            }
        },
        Order::Demobilize(us) => {
            let mut want = kinds_due(d, st);
            let mut got: Vec<Kind> = us.iter().map(|u| d.kind(*u)).collect();
            want.sort();
            got.sort();
            if want.is_empty() || want != got || !us.iter().all(|u| may_go(d, st, *u)) {
                return Err(illegal(
                    "one step: a base and an infantry vexillation (the over-supplied kind alone), loyal, on the map, never the last two units with a leader",
                    "6.7, 6.10; N7",
                ));
            }
            Some(Step::Demobilize(us.clone()))
        }
        _ => {
            return Err(illegal(
                "you are asked first: `tax HEX`, `demobilize UNIT...` or `pass`",
                "6.10; N7",
            ));
        }
    };
    st.question = None;
    let how = match (&step, o) {
        (_, Order::Pass) => "by his standing order",
        (Some(Step::Tax(_)), _) => "with an emergency tax",
        _ => "with a demobilization",
    };
    let who = Player::Roman.title();
    ctx.say(format!("the {who} answers {how} (6.10)"), vec![]);
    match step {
        Some(s) => take(ctx, st, s),
        None => Ok(()),
    }
}

/// The kinds the next demobilization takes: the over-supplied kind singly,
/// else a base and an infantry vexillation (6.7); none when either is gone.
fn kinds_due(d: &Data, st: &State) -> Vec<Kind> {
    let count = |k: Kind| {
        d.of_kind(k)
            .filter(|u| st.hex_of(*u).is_some() && st.faction(d, *u) == Faction::Loyal)
            .count()
    };
    let (b, v) = (count(Kind::Base), count(Kind::Infantry));
    match b.cmp(&v) {
        std::cmp::Ordering::Greater => vec![Kind::Base],
        std::cmp::Ordering::Less => vec![Kind::Infantry],
        _ if b > 0 => vec![Kind::Base, Kind::Infantry],
        _ => vec![],
    }
}

/// May this unit be demobilized to cover: loyal, on the map, and not one of
/// the last two units with a leader (a leader is never left alone by an
/// order, R-F6; 8.4)?
fn may_go(d: &Data, st: &State, u: UnitId) -> bool {
    let Some(h) = st.hex_of(u) else {
        return false;
    };
    let leader = st.at(h).any(|x| d.kind(x).is_leader());
    st.faction(d, u) == Faction::Loyal
        && !(leader && st.at(h).filter(|x| !d.kind(*x).is_leader()).count() <= 2)
}

/// May `h` be taxed in emergency now (6.6: a core population centre, not
/// Rome/Ostia, unlooted and under Roman control)?
fn taxable(d: &Data, st: &State, h: Hex) -> bool {
    d.hex(h)
        .is_some_and(|x| x.region.is_core() && x.tp > 0 && h != d.special.rome)
        && economics::pays(d, st, h)
}

/// The next step: the first item of the standing order that can be done,
/// else the fallback (N7).
fn next_step(d: &Data, st: &State) -> Option<Step> {
    let kinds = kinds_due(d, st);
    for c in &st.standing[Player::Roman.index()].deficit {
        match *c {
            Cover::Tax(h) if taxable(d, st, h) => return Some(Step::Tax(h)),
            Cover::Demobilize(h) if !kinds.is_empty() => {
                let us: Option<Vec<UnitId>> = kinds
                    .iter()
                    .map(|k| {
                        d.of_kind(*k)
                            .find(|u| st.hex_of(*u) == Some(h) && may_go(d, st, *u))
                    })
                    .collect();
                if let Some(us) = us {
                    return Some(Step::Demobilize(us));
                }
            }
            _ => {}
        }
    }
    fallback(d, st, &kinds).map(Step::Demobilize)
}

/// N7's fallback: of each kind due, the unit in the largest leaderless
/// stack farthest from any enemy, then the lowest hex and unit id.
fn fallback(d: &Data, st: &State, kinds: &[Kind]) -> Option<Vec<UnitId>> {
    if kinds.is_empty() {
        return None;
    }
    let enemies: Vec<Hex> = st
        .on_map()
        .filter(|(u, _)| st.faction(d, *u).anti_roman())
        .map(|(_, h)| h)
        .collect();
    let key = |u: UnitId| {
        let h = st.hex_of(u).unwrap_or(d.special.rome);
        let leader = st.at(h).any(|x| d.kind(x).is_leader());
        let size = st
            .at(h)
            .filter(|x| st.faction(d, *x) == Faction::Loyal)
            .count();
        let far = enemies
            .iter()
            .map(|e| h.distance_on(super::data::OFFSET, *e))
            .min()
            .unwrap_or(u32::MAX);
        (leader, Reverse(size), Reverse(far), h, u)
    };
    kinds
        .iter()
        .map(|k| {
            d.of_kind(*k)
                .filter(|u| may_go(d, st, *u))
                .min_by_key(|u| key(*u))
        })
        .collect()
}
