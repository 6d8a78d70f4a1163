//! The Balance of Power Index (4.0): + pro-British, - pro-Russian, no 0 space
//! (errata: shift directly from 1 pro-British to 1 pro-Russian), never past 18
//! (4.3). Mild, moderate and strong bands are stand-ins (tables.toml).

use super::data::{Data, Power};

/// How far the index favours a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Band {
    /// Mildly.
    Mild,
    /// Moderately.
    Moderate,
    /// Strongly.
    Strong,
}

/// The player the index favours (7.0: always someone, there is no 0).
pub fn favoured(bop: i32) -> Power {
    if bop > 0 {
        Power::British
    } else {
        Power::Russian
    }
}

/// How far the index favours `p`, if it does.
pub fn band(d: &Data, bop: i32, p: Power) -> Option<Band> {
    let v = bop * p.sign();
    let b = &d.num.bop;
    if v <= 0 {
        None
    } else if v >= b.strong {
        Some(Band::Strong)
    } else if v >= b.moderate {
        Some(Band::Moderate)
    } else {
        Some(Band::Mild)
    }
}

/// Moderately or strongly either way (15.62 DRMs, the income DRM).
pub fn at_least_moderate(d: &Data, bop: i32) -> bool {
    bop.abs() >= d.num.bop.moderate
}

/// The index after shifting `n` spaces toward `p`, skipping 0 (errata) and
/// stopping at the extremes (4.3).
pub fn shifted(d: &Data, bop: i32, toward: Power, n: i32) -> i32 {
    let limit = d.num.bop.limit;
    let mut v = bop;
    for _ in 0..n.max(0) {
        v += toward.sign();
        if v == 0 {
            v += toward.sign();
        }
        v = v.clamp(-limit, limit);
    }
    v
}

/// The index as words: "3 pro-British (mild)".
pub fn describe(d: &Data, bop: i32) -> String {
    let p = favoured(bop);
    let b = match band(d, bop, p) {
        Some(Band::Strong) => "strongly",
        Some(Band::Moderate) => "moderately",
        _ => "mildly",
    };
    format!("{} pro-{} ({b})", bop.abs(), p.name())
}
