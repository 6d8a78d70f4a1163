//! Who controls a hex (ruling R-C2: "friendly controlled" is never defined,
//! 6.6, 12.6). Rome holds its own territory (core, the trans-river
//! provinces, the Caucasus, Palmyra allied to it) where no hostile unit
//! stands and no rebel garrison of a refused Bread & Circuses holds out,
//! and any hex its loyal units occupy; never an active Gallic Empire's hexes.
//! The rebels hold what their units occupy and the Bread & Circuses hexes
//! ("thereafter automatically friendly to any rebel co-emperor ... until
//! retaken", 14.3), even once the garrison is gone. The Gallic Empire holds
//! its own hexes while active, where no unit hostile to it stands (9.5).
//! Every other faction holds the hexes its units occupy.

use super::data::{Data, Region};
use super::state::{Faction, Gallic, Palmyra, State};
use umpire_core::hex::Hex;

/// Is `h` Roman territory by region (R-C2)?
fn roman_territory(st: &State, r: Region) -> bool {
    r.is_core()
        || r.is_caucasus()
        || matches!(r, Region::Dacia | Region::Decumates)
        || r == Region::Palmyra && matches!(st.palmyra, Palmyra::Roman { .. })
}

/// Does faction `f` control `h` now (R-C2; 14.3; 9.5)?
pub fn holds(d: &Data, st: &State, f: Faction, h: Hex) -> bool {
    let region = d.region(h);
    let gallic = st.gallic == Gallic::Active && region == Region::Gallic;
    let own = st.factions_at(d, h).contains(&f);
    match f {
        Faction::Loyal => {
            own || roman_territory(st, region)
                && !gallic
                && !st.anti_roman_in(d, h)
                && !st.bc_rebels.contains(&h)
        }
        Faction::Rebel => own || st.bc_rebels.contains(&h),
        Faction::Gallic => gallic && !st.hostile_in(d, h, Faction::Gallic),
        // The Germans, Parthians and Palmyrans hold what they occupy.
        _ => own,
    }
}
