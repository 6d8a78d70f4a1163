//! A player conceding in a game of three or more players (ruling A48): its
//! factions become Non-players (8.0: "actions by any Factions beyond those
//! represented by a player"), played by the umpire from then on, and the
//! others play on. The conceding player can no longer win (it has no
//! faction to score, 7.1). The last player to concede ends the game with no
//! player winning. With two sides or one, the core's own `concede` ends the
//! game with the other side winning; this module does not read it then.
//!
//! A player may concede at any time, not only when asked to act: the ruleset
//! names `concede` to the engine as an order taken out of turn
//! (`Ruleset::out_of_turn`), as the core's own concession is.

use super::data::Data;
use super::orders::Order;
use super::propaganda;
use super::sequence;
use super::state::{Stage, State};
use umpire_core::dice::Dice;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{Event, Outcome, RuleError, Side};

/// The move `concede`, alone, read as the ruleset's own order in a game of
/// three or more sides; otherwise `None` (the core's act handles it).
pub fn parse(st: &State, lines: &[SourceLine]) -> Option<Vec<(SourceLine, Order)>> {
    let [line] = lines else {
        return None;
    };
    (st.seats.factions.len() >= 3 && line.text.trim().eq_ignore_ascii_case("concede"))
        .then(|| vec![(line.clone(), Order::Concede)])
}

/// `side` concedes: its factions become Non-players (ruling A48).
pub fn apply(
    d: &Data,
    st: &mut State,
    side: Side,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    if matches!(st.stage, Stage::Start | Stage::Over) {
        return Err(RuleError::illegal("the game is not being played", "8.0"));
    }
    let name = sequence::names_of(st, side);
    let gone = st.seats.concede(side);
    if gone.is_empty() {
        return Err(RuleError::illegal("you have conceded already", "8.0"));
    }
    // 8.1: a Non-player transfers nothing; its standing offers lapse.
    st.standing.retain(|o| !gone.contains(&o.giver));
    let mut events = vec![Event::say(format!(
        "{name} concede: from now on the umpire plays them as Non-players (8.0, ruling A48)"
    ))];
    if st.seats.factions.iter().all(Vec::is_empty) {
        let summary =
            format!("{name} concede, the last player in the game: no player wins (ruling A48)");
        events.push(Event::say(summary.clone()));
        st.finished = Some(Outcome {
            winners: Vec::new(),
            summary,
        });
        st.stage = Stage::Over;
        return Ok(events);
    }
    // A Non-player sends no Propaganda plan (its phases follow the
    // defaults): the round goes on without the conceded factions' plans.
    if let Stage::Propaganda(r) = &mut st.stage {
        r.waiting.retain(|f| !gone.contains(f));
        if r.waiting.is_empty() {
            propaganda::resolve(d, st, dice, &mut events)?;
        }
    }
    Ok(events)
}
