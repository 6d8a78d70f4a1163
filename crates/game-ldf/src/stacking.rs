//! Stacking (10.x), checked at the start and end of every action and in the
//! administrative phase (10.1).

use super::data::{Data, Kind};
use super::state::{Faction, State};
use umpire_core::hex::Hex;

/// Counts of one hex's units by what stacking cares about.
#[derive(Default, Debug, Clone, Copy)]
pub struct Counts {
    /// Garrisons of any nationality (10.3, 10.4, 10.6).
    pub garrisons: usize,
    /// Legion bases (10.6).
    pub bases: usize,
    /// Roman infantry, and cavalry once the reserve exists (10.7, 10.8).
    pub mobile: usize,
    /// Roman cavalry (10.8).
    pub cavalry: usize,
    /// Germanic tribes (10.2).
    pub germans: usize,
    /// Gunds (10.3).
    pub gunds: usize,
    /// Palmyran legion-equivalents (10.4).
    pub palmyrans: usize,
    /// Leaders.
    pub leaders: usize,
}

/// Counts `units` as if they stood together.
pub fn count(d: &Data, st: &State, units: impl Iterator<Item = super::data::UnitId>) -> Counts {
    let mut c = Counts::default();
    for u in units {
        match d.kind(u) {
            k if k.is_garrison() => c.garrisons += 1,
            Kind::Base => c.bases += 1,
            Kind::Infantry => c.mobile += 1,
            Kind::Cavalry => {
                c.cavalry += 1;
                if st.reserve {
                    c.mobile += 1;
                }
            }
            Kind::Tribe => c.germans += 1,
            Kind::Gund => c.gunds += 1,
            Kind::Palmyran => c.palmyrans += 1,
            _ => c.leaders += 1,
        }
    }
    c
}

/// Why the counts break the limits, if they do.
pub fn limit_broken(d: &Data, st: &State, c: &Counts) -> Option<(String, &'static str)> {
    let v = &d.values;
    let mobile_max = if c.leaders > 0 {
        v.roman_mobile_leader
    } else {
        v.roman_mobile
    };
    if c.germans > v.germans {
        return Some(("more than one Germanic tribe".into(), "10.2"));
    }
    if c.gunds > v.parthian_gunds {
        return Some((format!("more than {} gunds", v.parthian_gunds), "10.3"));
    }
    if c.palmyrans > v.palmyran {
        return Some((format!("more than {} Palmyrans", v.palmyran), "10.4"));
    }
    if c.garrisons > v.garrisons {
        // One garrison a hex of every nationality: Parthian 10.3, Palmyran
        // 10.4, Roman and client 10.6.
        return Some((
            "more than one garrison/fortification".into(),
            "10.3, 10.4, 10.6",
        ));
    }
    if c.bases > v.roman_bases {
        return Some((format!("more than {} legion bases", v.roman_bases), "10.6"));
    }
    if c.mobile > mobile_max {
        return Some((
            format!(
                "{} Roman mobile units (at most {mobile_max} {} a leader)",
                c.mobile,
                if c.leaders > 0 { "with" } else { "without" }
            ),
            if st.reserve { "10.8" } else { "10.7" },
        ));
    }
    if c.cavalry > 1 && !st.reserve {
        return Some(("more than one cavalry vexillation".into(), "10.8"));
    }
    None
}

/// Checks one hex: limits, and nationalities that may not share a hex (10.4,
/// 10.5; ruling R-D5: only loyal Romans and Caucasus garrisons mix).
pub fn check_hex(d: &Data, st: &State, h: Hex) -> Result<(), (String, &'static str)> {
    check_with(d, st, h, &[])
}

/// Would hex `h` pass [`check_hex`] with `extra` moved into it (wherever
/// they stand now)? Checked without copying the state, for the retreats,
/// placements and dry runs that try many hexes.
pub fn check_with(
    d: &Data,
    st: &State,
    h: Hex,
    extra: &[super::data::UnitId],
) -> Result<(), (String, &'static str)> {
    let mut here: Vec<super::data::UnitId> = st.at(h).filter(|u| !extra.contains(u)).collect();
    here.extend_from_slice(extra);
    // A client garrison's faction depends on its hex; it never moves, so
    // the factions of the units as they stand now are those they would have.
    let mut fs: Vec<Faction> = here.iter().map(|u| st.faction(d, *u)).collect();
    fs.sort();
    fs.dedup();
    let mixed = fs.len() > 1
        && !(fs.len() == 2 && fs.contains(&Faction::Loyal) && fs.contains(&Faction::Caucasus));
    if mixed {
        return Err((
            format!("units of different nationalities may not stack in {h}"),
            "10.4, 10.5",
        ));
    }
    let leaders = here.iter().filter(|u| d.kind(**u).is_leader()).count();
    if leaders > 1 {
        return Err((
            format!("the two Roman leaders may never share a hex ({h})"),
            "8.3",
        ));
    }
    if leaders > 0 && here.iter().all(|u| d.kind(*u).is_leader()) {
        return Err((format!("a leader may not be left alone in {h}"), "8.4"));
    }
    match limit_broken(d, st, &count(d, st, here.iter().copied())) {
        Some((m, r)) => Err((format!("{m} in {h}"), r)),
        None => Ok(()),
    }
}

/// Checks every hex in the list.
pub fn check_hexes(d: &Data, st: &State, hs: &[Hex]) -> Result<(), (String, &'static str)> {
    for h in hs {
        check_hex(d, st, *h)?;
    }
    Ok(())
}
