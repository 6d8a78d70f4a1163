//! Voluntary transfers (1.5.1, digest D5): the faction executing may give
//! Resources to another faction, and the Government may give Patronage to
//! the Warlords' Resources, one for one. Never between two factions of one
//! player (1.5), never to or from the Coalition, which holds no Resources
//! (1.8, 3.1). Non-players transfer nothing (8.1), but may receive.

use super::data::Data;
use super::orders::{self, Order};
use super::pieces::Faction;
use super::state::State;
use serde::{Deserialize, Serialize};
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{Event, OrderError, RuleError, Side};

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
        return Err(RuleError::illegal(
            "a faction cannot give to itself",
            "1.5.1",
        ));
    }
    if matches!(&st.stage, super::state::Stage::Card(t) if t.choice.is_some()) {
        // Answering another's Event (digest D3) is not executing (1.5.1).
        return Err(RuleError::illegal(
            "only the faction executing transfers: answer the Event's question alone",
            "1.5.1",
        ));
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

/// A standing transfer offer (digest D5): while `to` executes on a card (an
/// Event or an Operation, 1.5.1: the receiver executing), `giver` gives it
/// up to `amount` (what it holds then, if less). It stands until its side
/// replaces or clears its standing orders. Negotiations are open (1.5.1):
/// every side reads it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// Who gives.
    pub giver: Faction,
    /// Who receives.
    pub to: Faction,
    /// At most this much each time.
    pub amount: u8,
    /// Patronage rather than Resources (the Government to the Warlords).
    pub patronage: bool,
}

impl Standing {
    /// The offer as its owner writes it.
    pub fn text(&self) -> String {
        format!(
            "transfer {} {}to {} as {}",
            self.amount,
            if self.patronage { "patronage " } else { "" },
            self.to.key(),
            self.giver.key()
        )
    }
}

/// Reads a side's standing offers: `transfer N [resources|patronage] to
/// FACTION [as FACTION]` (`as`: which of the side's factions gives; needed
/// when it plays two).
pub fn parse_standing(
    d: &Data,
    st: &State,
    side: Side,
    lines: &[SourceLine],
) -> Result<Vec<Standing>, OrderError> {
    let mine = st.seats.factions_of(side);
    let mut out = Vec::new();
    for l in lines.iter().filter(|l| !l.text.trim().is_empty()) {
        let text = l.text.to_ascii_lowercase();
        let (order, giver) = match text.split_once(" as ") {
            Some((o, g)) => (o.to_string(), Faction::parse(g.trim())),
            None => (text.clone(), (mine.len() == 1).then(|| mine[0])),
        };
        let giver = giver.filter(|g| mine.contains(g)).ok_or_else(|| {
            OrderError::at(l, "name which of your factions gives: `... as FACTION`").rule("1.5.1")
        })?;
        let src = SourceLine {
            text: order,
            ..l.clone()
        };
        let parsed = orders::parse(d, std::slice::from_ref(&src), false)?;
        let Some((
            _,
            Order::Transfer {
                amount,
                patronage,
                to,
            },
        )) = parsed.into_iter().next()
        else {
            return Err(OrderError::at(
                l,
                "a standing order here is a transfer offer: transfer N [patronage] to FACTION [as FACTION]",
            )
            .rule("1.5.1"));
        };
        // The same checks as a transfer made at once (1.5, 1.5.1, 1.8).
        let mut trial = st.clone();
        trial.resources[giver.index()] = trial.resources[giver.index()].max(amount);
        trial.patronage = trial.patronage.max(amount);
        if let Err(e) = apply(d, &mut trial, giver, amount, patronage, to) {
            return Err(OrderError::at(l, e.to_string()).rule("1.5.1"));
        }
        out.push(Standing {
            giver,
            to,
            amount,
            patronage,
        });
    }
    Ok(out)
}

/// Carries out the standing offers to `to`, which executes now: each gives
/// what it can, up to its amount (nothing, silently, when it holds nothing).
pub fn standing_offers(d: &Data, st: &mut State, to: Faction) -> Vec<Event> {
    let mut ev = Vec::new();
    for o in st.standing.clone().iter().filter(|o| o.to == to) {
        if st.seats.is_np(o.giver) {
            continue;
        }
        let have = if o.patronage {
            st.patronage
        } else {
            st.res(o.giver)
        };
        let n = o.amount.min(have);
        if n == 0 {
            continue;
        }
        if let Ok(e) = apply(d, st, o.giver, n, o.patronage, o.to) {
            ev.extend(
                e.into_iter()
                    .map(|e| Event::say(format!("{} (standing offer)", e.text))),
            );
        }
    }
    ev
}
