//! Where the Germano-Parthian's returning units may go, and the check of the
//! hexes he names for them: tribes one a hex in empty Barbaria (7.1), gunds
//! in Parthian centres free of enemies (7.2, chit 22) or, after a recovery
//! roll, anywhere in Parthia (7.3: "deploy them as described in 3.3").
//!
//! From version 8 a named hex the rule does not allow is refused before
//! anything is placed or rolled (a refusal must come before the first die,
//! or it would be recorded as a failed order instead of being sent back);
//! version 7 skipped such a hex and placed that unit by default.

use super::data::{Data, Kind, Region};
use super::effects::illegal;
use super::state::{Faction, Loc, State};
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// Which rule says where returning gunds go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GundRule {
    /// 7.2 and chit 22: Parthian population centres free of enemy units.
    Centres,
    /// 7.3 after a successful recovery roll: any hex of Parthia (3.3).
    Anywhere,
}

/// Hexes a returning tribe may take (7.1): Barbaria, empty of all units.
pub fn tribe_sites(d: &Data, st: &State) -> Vec<Hex> {
    d.hexes
        .iter()
        .filter(|x| x.region == Region::Barbaria && st.at(x.hex).next().is_none())
        .map(|x| x.hex)
        .collect()
}

/// Hexes returning gunds may take under `rule`, free of enemy units.
pub fn gund_sites(d: &Data, st: &State, rule: GundRule) -> Vec<Hex> {
    d.hexes
        .iter()
        .filter(|x| x.region == Region::Parthia && (rule == GundRule::Anywhere || x.tp > 0))
        .map(|x| x.hex)
        .filter(|h| !st.at(*h).any(|u| st.faction(d, u) != Faction::Parthian))
        .collect()
}

/// Refuses a list longer than the units that return, when that number is
/// known: a hex named for no unit is a mistake the player should hear of.
fn check_count(
    named: &[Hex],
    returning: Option<usize>,
    what: &str,
    rule: &str,
) -> Result<(), RuleError> {
    match returning {
        Some(n) if named.len() > n => Err(illegal(
            format!(
                "{} hexes named for returning {what}, but {n} {what} are in the dead pile",
                named.len()
            ),
            rule,
        )),
        _ => Ok(()),
    }
}

/// Refuses a hex named for a returning tribe that is not an empty Barbaria
/// hex, or is named twice (7.1: one a hex; 10.2); `returning`, when the
/// number is known (the administrative phase), caps the list.
pub fn check_tribes(
    d: &Data,
    st: &State,
    named: &[Hex],
    returning: Option<usize>,
    rule: &str,
) -> Result<(), RuleError> {
    check_count(named, returning, "tribes", rule)?;
    for (i, h) in named.iter().enumerate() {
        let why = if named[..i].contains(h) {
            "is named twice: returning tribes go one a hex (10.2)"
        } else if d.region(*h) != Region::Barbaria {
            "is not in Barbaria"
        } else if st.at(*h).next().is_some() {
            "is occupied: returning tribes go only to empty Barbaria hexes"
        } else {
            continue;
        };
        return Err(illegal(format!("{h} {why}"), rule));
    }
    Ok(())
}

/// Refuses a hex named for returning gunds that `rule` does not allow
/// (repeats are allowed: gunds stack, 10.3); `returning` caps the list.
pub fn check_gunds(
    d: &Data,
    st: &State,
    named: &[Hex],
    returning: Option<usize>,
    rule: GundRule,
    cite: &str,
) -> Result<(), RuleError> {
    check_count(named, returning, "gunds", cite)?;
    let sites = gund_sites(d, st, rule);
    let Some(h) = named.iter().find(|h| !sites.contains(h)) else {
        return Ok(());
    };
    let what = match rule {
        GundRule::Centres => "a Parthian population centre free of enemy units",
        GundRule::Anywhere => "a hex of Parthia free of enemy units",
    };
    Err(illegal(format!("{h} is not {what}"), cite))
}

/// The administrative phase's `place` order checked whole (7.1, then 7.2,
/// or 7.3 with 3.3 while Parthia is collapsed), before any unit moves.
pub fn check_admin(d: &Data, st: &State, tribes: &[Hex], gunds: &[Hex]) -> Result<(), RuleError> {
    let dead = |k: Kind| {
        d.of_kind(k)
            .filter(|u| st.unit(*u).loc == Loc::Dead)
            .count()
    };
    check_tribes(d, st, tribes, Some(dead(Kind::Tribe)), "7.1")?;
    // The gunds go after the tribes (7.2 "as soon as 7.1"), and tribes
    // never stand in Parthia, so the tribes placed change nothing here.
    let (rule, cite) = if st.collapsed {
        (GundRule::Anywhere, "7.3, 3.3")
    } else {
        (GundRule::Centres, "7.2")
    };
    check_gunds(d, st, gunds, Some(dead(Kind::Gund)), rule, cite)
}
