//! Victory conditions (8.0), checked at the end of every turn (ruling A45).

use super::data::{CmdId, Data, Faction};
use super::state::State;
use umpire_core::ruleset::{Outcome, Side};

/// Troops (commands) of a side whose every combat unit is eliminated (8.0, ruling A46).
pub fn wiped(d: &Data, st: &State, f: Faction) -> Vec<CmdId> {
    d.command_ids()
        .filter(|c| d.commands[*c].side == f && st.wiped(d, *c))
        .collect()
}

fn side(f: Faction) -> Side {
    Side(f.index() as u8)
}

/// The result, if the game ends now. `last` is the end of turn 5.
pub fn check(d: &Data, st: &State, last: bool) -> Option<Outcome> {
    let names = |cs: &[CmdId]| {
        cs.iter()
            .map(|c| d.commands[*c].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    // 8.0(1): Hetuala, or two Jurchen troops wiped out.
    let het = d.find_place(&d.values.decisive_place);
    let holds = het.is_some_and(|p| st.controller(d, p.hex) == Some(Faction::Ming));
    let jw = wiped(d, st, Faction::Jurchen);
    let mw = wiped(d, st, Faction::Ming);
    let decisive = holds || jw.len() as u32 >= d.values.ming_decisive_troops;
    // 8.0(4): decisive beats overwhelming.
    if decisive {
        let why = if holds {
            format!("the Ming control {}", het.map_or("", |p| p.name.as_str()))
        } else {
            format!("the Ming have wiped out {}", names(&jw))
        };
        return Some(Outcome {
            winners: vec![side(Faction::Ming)],
            summary: format!(
                "Ming decisive victory at the end of turn {}: {why} (8.0(1))",
                st.turn
            ),
        });
    }
    // 8.0(2): three Ming troops wiped out.
    if mw.len() as u32 >= d.values.jurchen_overwhelming_troops {
        return Some(Outcome {
            winners: vec![side(Faction::Jurchen)],
            summary: format!(
                "Jurchen overwhelming victory at the end of turn {}: they have wiped out {} (8.0(2))",
                st.turn,
                names(&mw)
            ),
        });
    }
    if !last {
        return None;
    }
    // 8.0(3): victory points of +1 control markers.
    let m = st.vp(d, Faction::Ming);
    let j = st.vp(d, Faction::Jurchen);
    let (winners, who) = match m.cmp(&j) {
        std::cmp::Ordering::Greater => (vec![side(Faction::Ming)], "Ming marginal victory"),
        std::cmp::Ordering::Less => (vec![side(Faction::Jurchen)], "Jurchen marginal victory"),
        // Five +1 markers always have an owner, so a tie cannot happen with the
        // printed markers; a data set with an even number gets a draw.
        std::cmp::Ordering::Equal => (vec![], "a draw"),
    };
    Some(Outcome {
        winners,
        summary: format!(
            "{who} at the end of turn {}: victory points Ming {m}, Jurchen {j} (8.0(3))",
            st.turn
        ),
    })
}
