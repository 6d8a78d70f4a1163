//! Zones of control (11.x) with the faction-relations matrix (digest 5.9).

use super::data::{Data, Region};
use super::state::{Faction, Gallic, State};
use crate::core::hex::Hex;

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

/// Is `h` in a zone of control hostile to faction `f` (an EZOC, 11.1)?
pub fn in_ezoc(d: &Data, st: &State, h: Hex, f: Faction) -> bool {
    d.links(h).any(|n| {
        st.at(n).any(|u| {
            let g = st.faction(d, u);
            d.kind(u).exerts_zoc() && projects(g) && g.hostile(f) && reaches(d, st, g, n, h)
        })
    })
}
