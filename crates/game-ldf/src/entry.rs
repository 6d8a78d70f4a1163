//! May a force enter a hex at all? One test shared by moves, retreats,
//! advances, placements and `legal()`'s searches. The answer is a typed
//! [`Barrier`], so the searches that ask it of hundreds of hexes build no
//! message; [`may_enter`] turns it into the cited rule error.

use super::data::{Data, Region, UnitId};
use super::effects::illegal;
use super::state::{Faction, Gallic, State};
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// Why a force may not enter a hex, in the order the rules are tested.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Barrier {
    /// All-sea (12.1).
    Sea,
    /// Enemy units there (12.3).
    Enemy,
    /// Inactive Palmyra there (9.2).
    IdlePalmyra,
    /// A narrows hex and a non-Roman unit in the force (1.5, 12.5).
    Narrows,
    /// A Gallic force leaving the Gallic Empire (9.5).
    GallicOut,
    /// Germans or non-Gallic rebels entering the Gallic Empire (9.5).
    GallicIn,
    /// Collapsed Parthia (7.3).
    Collapsed,
    /// The other Roman leader there (8.3).
    Leader,
}

impl Barrier {
    /// The rule error, naming the hex, citing the rule.
    pub fn error(self, n: Hex) -> RuleError {
        match self {
            Barrier::Sea => illegal(format!("{n} is all-sea"), "12.1"),
            Barrier::Enemy => illegal(format!("{n} is occupied by enemy units"), "12.3"),
            Barrier::IdlePalmyra => {
                illegal("no unit may move into or through inactive Palmyra", "9.2")
            }
            Barrier::Narrows => illegal(
                format!("only Roman units may move into or through narrows hex {n}"),
                "1.5, 12.5",
            ),
            Barrier::GallicOut => illegal("Gallic forces move only in Gallic Empire hexes", "9.5"),
            Barrier::GallicIn => illegal(
                "Germans and non-Gallic rebels may not enter the Gallic Empire",
                "9.5",
            ),
            Barrier::Collapsed => illegal("no unit may move into collapsed Parthia", "7.3"),
            Barrier::Leader => illegal(
                "the two Roman leaders may not enter or pass through each other's hexes",
                "8.3",
            ),
        }
    }
}

/// What stands in a hex, as far as entering it goes: one pass over its
/// counters.
struct Occupants {
    enemy: bool,
    idle_palmyra: bool,
    other_leader: bool,
}

fn occupants(d: &Data, st: &State, f: Faction, leader: Option<UnitId>, n: Hex) -> Occupants {
    let mut o = Occupants {
        enemy: false,
        idle_palmyra: false,
        other_leader: false,
    };
    for u in st.at(n) {
        let g = st.faction(d, u);
        o.enemy |= g.hostile(f);
        o.idle_palmyra |= g == Faction::PalmyraIdle;
        o.other_leader |= leader.is_some_and(|l| l != u && d.kind(u).is_leader());
    }
    o
}

/// The first rule that keeps the force's `units` (of faction `f`) out of
/// `n`, if any.
pub fn barrier(d: &Data, st: &State, f: Faction, units: &[UnitId], n: Hex) -> Option<Barrier> {
    if !d.is_land(n) {
        return Some(Barrier::Sea);
    }
    let leader = units.iter().copied().find(|u| d.kind(*u).is_leader());
    let o = occupants(d, st, f, leader, n);
    if o.enemy {
        return Some(Barrier::Enemy);
    }
    if o.idle_palmyra {
        return Some(Barrier::IdlePalmyra);
    }
    if d.is_narrows(n) && !units.iter().all(|u| d.kind(*u).is_roman()) {
        return Some(Barrier::Narrows);
    }
    if st.gallic == Gallic::Active {
        let gallic_hex = d.region(n) == Region::Gallic;
        if f == Faction::Gallic && !gallic_hex {
            return Some(Barrier::GallicOut);
        }
        if matches!(f, Faction::German | Faction::Rebel) && gallic_hex {
            return Some(Barrier::GallicIn);
        }
    }
    if st.collapsed && d.region(n) == Region::Parthia {
        return Some(Barrier::Collapsed);
    }
    o.other_leader.then_some(Barrier::Leader)
}

/// May the force's units (of faction `f`) enter `n`? The cited error of the
/// first [`Barrier`] if not.
pub fn may_enter(
    d: &Data,
    st: &State,
    f: Faction,
    units: &[UnitId],
    n: Hex,
) -> Result<(), RuleError> {
    barrier(d, st, f, units, n).map_or(Ok(()), |b| Err(b.error(n)))
}
