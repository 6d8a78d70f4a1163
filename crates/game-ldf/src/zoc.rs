//! Zones of control (11.x) with the faction-relations matrix (digest 5.9).

use super::data::{Data, Region};
use super::state::{Faction, Gallic, State};
use umpire_core::hex::Hex;

/// Does the unit's faction project a ZOC at all (11.1; 9.2: not an inactive Palmyra)?
fn projects(f: Faction) -> bool {
    f != Faction::PalmyraIdle
}

/// Does a ZOC of faction `f` reach from `from` into the adjacent `to`?
/// Never across all-sea hexes or hexsides (11.1); Germanic ZOC never across
/// the Rhine or Danube (11.1); Gallic ZOC only into Gallic hexes (9.5(6)).
pub fn reaches(d: &Data, st: &State, f: Faction, from: Hex, to: Hex) -> bool {
    if !d.linked(from, to) {
        return false;
    }
    if f == Faction::German && d.side(from, to).is_river() {
        return false;
    }
    if f == Faction::Gallic && st.gallic == Gallic::Active && d.region(to) != Region::Gallic {
        return false;
    }
    true
}

/// Does unit `u` project a zone of control hostile to faction `f` at all
/// (11.1)?
fn hostile_zoc(d: &Data, st: &State, u: super::data::UnitId, f: Faction) -> Option<Faction> {
    if !d.kind(u).exerts_zoc() {
        return None;
    }
    let g = st.faction(d, u);
    (projects(g) && g.hostile(f)).then_some(g)
}

/// Does a unit of faction `g` (hostile to the one asked about), standing in
/// `n`, put `h` in its zone of control?
fn pins(d: &Data, st: &State, g: Faction, n: Hex, h: Hex) -> bool {
    d.linked(h, n) && reaches(d, st, g, n, h)
}

/// Is `h` in a zone of control hostile to faction `f` (an EZOC, 11.1)?
/// Only the counters of the linked hexes can (the hot path of move checks
/// and `legal()`; `State::at` reads the hex index).
pub fn in_ezoc(d: &Data, st: &State, h: Hex, f: Faction) -> bool {
    d.links(h).any(|n| {
        st.at(n)
            .any(|u| hostile_zoc(d, st, u, f).is_some_and(|g| pins(d, st, g, n, h)))
    })
}

/// Every hex in a zone of control hostile to faction `f` (11.1), as a mask
/// by [`Data::hex_index`]: the same answer as [`in_ezoc`] for every hex at
/// once, for searches that ask it of many hexes.
pub fn ezoc_mask(d: &Data, st: &State, f: Faction) -> Vec<bool> {
    let mut out = vec![false; d.hexes.len()];
    for (u, n) in st.on_map() {
        let Some(g) = hostile_zoc(d, st, u, f) else {
            continue;
        };
        for h in d.links(n) {
            if let Some(i) = d.hex_index(h)
                && !out[i]
                && pins(d, st, g, n, h)
            {
                out[i] = true;
            }
        }
    }
    out
}
