//! Voluntary transfers (1.5.1, digest D5): the faction executing may give
//! Resources to another faction, and the Government may give Patronage to
//! the Warlords' Resources, one for one. Never between two factions of one
//! player (1.5), never to or from the Coalition, which holds no Resources
//! (1.8, 3.1). Non-players transfer nothing (8.1), but may receive.

use super::data::Data;
use super::pieces::Faction;
use super::state::State;
use crate::core::ruleset::{Event, RuleError};

/// Carries out `giver`'s transfer of `amount` to `to`.
pub fn apply(
    d: &Data,
    st: &mut State,
    giver: Faction,
    amount: u8,
    patronage: bool,
    to: Faction,
) -> Result<Vec<Event>, RuleError> {
    if giver == to {
        return Err(RuleError::illegal("a faction cannot give to itself", "1.5.1"));
    }
    if st.seats.same_player(giver, to) {
        return Err(RuleError::illegal(
            "no transfers between one player's own factions",
            "1.5",
        ));
    }
    if giver == Faction::Coalition || to == Faction::Coalition {
        return Err(RuleError::illegal(
            "the Coalition holds no Resources to give or receive",
            "1.8",
        ));
    }
    let what = if patronage {
        if giver != Faction::Government || to != Faction::Warlords {
            return Err(RuleError::illegal(
                "only the Government gives Patronage, and only to the Warlords",
                "1.5.1",
            ));
        }
        if st.patronage < amount {
            return Err(RuleError::illegal(
                format!("Patronage is only {}", st.patronage),
                "1.5.1",
            ));
        }
        st.add_patronage(d, -i32::from(amount));
        "Patronage"
    } else {
        if st.res(giver) < amount {
            return Err(RuleError::illegal(
                format!("the {} have only {} Resources", giver.name(), st.res(giver)),
                "1.5.1",
            ));
        }
        st.gain(d, giver, -i32::from(amount));
        "Resources"
    };
    // Every addition is capped (ruling A38).
    st.gain(d, to, i32::from(amount));
    Ok(vec![Event::say(format!(
        "The {} transfer {amount} {what} to the {} (1.5.1)",
        giver.name(),
        to.name()
    ))])
}
