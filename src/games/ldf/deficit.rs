//! Covering a deficit (6.10): "regular play is temporarily halted while the
//! Roman player carries out enough unit demobilizations or emergency taxation
//! to make up the shortfall". The Roman answers by his `deficit` standing
//! order (digest N7), so a deficit met in the middle of either player's
//! action needs no round trip: his hexes in order, then the digest's
//! fallback, pairs from the largest leaderless stacks farthest from any
//! enemy. What nothing covers is forgiven (R-C4).

use super::data::{Data, Kind, UnitId};
use super::economics;
use super::effects::Ctx;
use super::standing::Cover;
use super::state::{Faction, Player, State};
use crate::core::hex::Hex;
use crate::core::ruleset::RuleError;
use std::cmp::Reverse;

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
/// fallback, until the treasury holds `n` or nothing more can be done.
pub fn cover(ctx: &mut Ctx, st: &mut State, n: u32) -> Result<(), RuleError> {
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
        match step {
            Step::Demobilize(us) => economics::demobilize(ctx, st, &us)?,
            Step::Tax(h) => economics::tax(ctx, st, &[h])?,
        }
    }
    Ok(())
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
