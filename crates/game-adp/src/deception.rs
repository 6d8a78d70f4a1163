//! The Victory Deception option (7.3): each player blindly draws 2 markers
//! at the start, the rest are set aside unseen; a player reveals a marker only
//! as it uses it. Empty Threat: no effect (revealed at game end). Hidden
//! Agenda: +1 to the holder's victory margin (ruling A40: in the ranking,
//! 7.1/7.3, never for a 7.2 threshold). Hidden Asset: converts one Limited
//! Operation option (2.3.5) into a full Operation and Special Activity option
//! (ruling A36: not on the Final Event Card, 2.3.8).
//!
//! Each draw is a hidden roll of the drawing side's own stream that names the
//! marker drawn (`Pool::draw_named`); a marker revealed by use, and every
//! marker at the end, has its draw disclosed (`Dice::disclose`), so every side
//! can check it against the commitment sealed at the draw.

use super::data::Data;
use super::sequence::{self, Offer};
use super::state::{Stage, State};
use serde::{Deserialize, Serialize};
use umpire_core::audience::Audience;
use umpire_core::deck::Pool;
use umpire_core::dice::{Dice, RollRef};
use umpire_core::ruleset::{Event, RuleError, Side};

/// A Deception marker's kind (7.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Marker {
    /// No effect.
    EmptyThreat,
    /// +1 to the holder's victory margin.
    HiddenAgenda,
    /// One Limited Operation option becomes a full Operation with a Special Activity.
    HiddenAsset,
}

impl Marker {
    /// All, in pool order.
    pub const ALL: [Marker; 3] = [
        Marker::EmptyThreat,
        Marker::HiddenAgenda,
        Marker::HiddenAsset,
    ];

    /// The printed name.
    pub fn name(self) -> &'static str {
        match self {
            Marker::EmptyThreat => "Empty Threat",
            Marker::HiddenAgenda => "Hidden Agenda",
            Marker::HiddenAsset => "Hidden Asset",
        }
    }

    /// The order word (`deception hidden-asset`).
    pub fn key(self) -> &'static str {
        match self {
            Marker::EmptyThreat => "empty-threat",
            Marker::HiddenAgenda => "hidden-agenda",
            Marker::HiddenAsset => "hidden-asset",
        }
    }

    /// The marker an order word names.
    pub fn parse(w: &str) -> Option<Marker> {
        Marker::ALL.into_iter().find(|m| m.key() == w)
    }
}

/// A marker a player holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Held {
    /// Which.
    pub marker: Marker,
    /// The sealed roll that drew it (`None`: the last marker of a pool, no roll).
    pub draw: Option<RollRef>,
    /// Shown to every side (used, or the game ended).
    pub revealed: bool,
}

/// The markers in play, when the option is on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deception {
    /// Set aside, never inspected (7.3).
    pub aside: Pool<Marker>,
    /// By side.
    pub held: Vec<Vec<Held>>,
}

/// The markers of the data, in a fixed order so the draws replay.
fn pool(d: &Data) -> Pool<Marker> {
    let m = &d.deception;
    let mut v = Vec::new();
    for (k, n) in [
        (Marker::EmptyThreat, m.empty_threat),
        (Marker::HiddenAgenda, m.hidden_agenda),
        (Marker::HiddenAsset, m.hidden_asset),
    ] {
        v.extend(std::iter::repeat_n(k, usize::from(n)));
    }
    Pool::new(v)
}

/// Can the option be played with `players` players (7.3: 3 or 4)?
pub fn allowed(d: &Data, players: usize) -> Result<(), String> {
    if !(3..=4).contains(&players) {
        return Err(format!(
            "the Deception option is for 3- or 4-player games (7.3), not {players}"
        ));
    }
    if d.deception.markers == 0 {
        return Err("the data hold no Deception markers (forces.toml [deception])".into());
    }
    Ok(())
}

/// The start (7.3): each player draws its markers blindly, from its own
/// hidden stream; it alone is told what it drew.
pub fn deal(d: &Data, st: &mut State, dice: &mut Dice) -> Result<Vec<Event>, RuleError> {
    let mut aside = pool(d);
    let mut held = Vec::new();
    let mut ev = Vec::new();
    for i in 0..st.seats.factions.len() {
        let side = Side(i as u8);
        let mut mine = Vec::new();
        for _ in 0..d.deception.per_player {
            let (marker, draw) = aside
                .draw_named(
                    dice,
                    Audience::side(side),
                    "the Deception markers",
                    |m: &Marker| m.name().to_string(),
                )
                .map_err(|e| RuleError::illegal(e.to_string(), "7.3"))?;
            mine.push(Held {
                marker,
                draw,
                revealed: false,
            });
        }
        let names: Vec<&str> = mine.iter().map(|h| h.marker.name()).collect();
        ev.push(
            Event::say(format!(
                "your Deception markers, drawn blindly (7.3): {}",
                names.join(", ")
            ))
            .to(Audience::side(side)),
        );
        held.push(mine);
    }
    ev.push(Event::say(format!(
        "Deception (7.3): each player drew {} markers, sealed; {} are set aside unseen",
        d.deception.per_player,
        aside.len()
    )));
    st.deception = Some(Deception { aside, held });
    Ok(ev)
}

/// The Hidden Agenda markers `side` holds: +1 each to its margin in the
/// ranking (7.3, ruling A40).
pub fn agenda(st: &State, side: Side) -> i32 {
    st.deception
        .as_ref()
        .and_then(|x| x.held.get(side.index()))
        .map_or(0, |h| {
            h.iter()
                .filter(|m| m.marker == Marker::HiddenAgenda)
                .count() as i32
        })
}

/// `deception MARKER` before the card's order: uses a marker, revealing it
/// (7.3). Only a Hidden Asset is used by order, and only when a Limited
/// Operation is among the options (2.3.4), not on the Final Event Card
/// (ruling A36).
pub fn use_marker(
    d: &Data,
    st: &mut State,
    side: Side,
    m: Marker,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    if m != Marker::HiddenAsset {
        return Err(RuleError::illegal(
            format!(
                "a {} is not used by order: {} (7.3)",
                m.name(),
                match m {
                    Marker::EmptyThreat => "it has no effect and is revealed at game end",
                    _ => "it adds +1 to your margin in the ranking, revealed at game end",
                }
            ),
            "7.3",
        ));
    }
    let Stage::Card(t) = &st.stage else {
        return Err(RuleError::illegal(
            "a Hidden Asset converts a card's option",
            "7.3",
        ));
    };
    if t.asset {
        return Err(RuleError::illegal(
            "a Hidden Asset is already used on this card",
            "7.3",
        ));
    }
    if !sequence::offers(d, st).contains(&Offer::LimOp) {
        return Err(RuleError::illegal(
            "a Hidden Asset converts a Limited Operation option, and none is offered to you (2.3.4)",
            "7.3",
        ));
    }
    if sequence::final_event_card(d, st) {
        return Err(RuleError::illegal(
            "on the Final Event Card every Operation stays Limited (2.3.8, ruling A36)",
            "7.3",
        ));
    }
    let held = st
        .deception
        .as_mut()
        .and_then(|x| x.held.get_mut(side.index()))
        .and_then(|h| {
            h.iter_mut()
                .find(|h| h.marker == Marker::HiddenAsset && !h.revealed)
        })
        .ok_or_else(|| RuleError::illegal("you hold no unused Hidden Asset", "7.3"))?;
    held.revealed = true;
    if let Some(r) = held.draw {
        dice.disclose(r);
    }
    if let Stage::Card(t) = &mut st.stage {
        t.asset = true;
    }
    Ok(vec![Event::say(format!(
        "{} reveals a Hidden Asset: the Limited Operation option becomes a full Operation with a Special Activity (7.3)",
        sequence::names_of(st, side)
    ))])
}

/// At game end every marker still hidden is revealed (7.3: Empty Threat at
/// game end), with its draw disclosed.
pub fn at_end(st: &mut State, dice: &mut Dice, ev: &mut Vec<Event>) {
    if st.finished.is_none() {
        return;
    }
    let names: Vec<String> = (0..st.seats.factions.len())
        .map(|i| sequence::names_of(st, Side(i as u8)))
        .collect();
    let Some(x) = st.deception.as_mut() else {
        return;
    };
    let mut shown = Vec::new();
    for (i, held) in x.held.iter_mut().enumerate() {
        let mut v = Vec::new();
        for h in held.iter_mut().filter(|h| !h.revealed) {
            h.revealed = true;
            if let Some(r) = h.draw {
                dice.disclose(r);
            }
            v.push(h.marker.name());
        }
        if !v.is_empty() {
            shown.push(format!("{} {}", names[i], v.join(", ")));
        }
    }
    if !shown.is_empty() {
        ev.push(Event::say(format!(
            "Deception markers revealed at game end (7.3): {}",
            shown.join("; ")
        )));
    }
}

/// Status lines for `viewer`'s view: a side's own markers (the umpire's
/// every side's), and every marker revealed so far.
pub fn status(st: &State, viewer: umpire_core::ruleset::Viewer) -> Vec<String> {
    let Some(x) = &st.deception else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if viewer == umpire_core::ruleset::Viewer::Umpire {
        for (i, held) in x.held.iter().enumerate() {
            let v: Vec<&str> = held.iter().map(|h| h.marker.name()).collect();
            out.push(format!(
                "{} Deception markers (7.3): {}",
                sequence::names_of(st, Side(i as u8)),
                v.join(", ")
            ));
        }
    }
    if let Some(s) = viewer.side()
        && let Some(mine) = x.held.get(s.index())
    {
        let v: Vec<String> = mine
            .iter()
            .map(|h| {
                format!(
                    "{}{}",
                    h.marker.name(),
                    if h.revealed { " (revealed)" } else { "" }
                )
            })
            .collect();
        out.push(format!(
            "Your Deception markers (7.3, seen by you alone): {}",
            v.join(", ")
        ));
    }
    let shown: Vec<String> = x
        .held
        .iter()
        .enumerate()
        .flat_map(|(i, h)| {
            h.iter().filter(|h| h.revealed).map(move |h| {
                format!(
                    "{} {}",
                    sequence::names_of(st, Side(i as u8)),
                    h.marker.name()
                )
            })
        })
        .collect();
    out.push(format!(
        "Deception (7.3): {} markers each, {} set aside; revealed: {}",
        x.held.first().map_or(0, Vec::len),
        x.aside.len(),
        if shown.is_empty() {
            "none".to_string()
        } else {
            shown.join(", ")
        }
    ));
    out
}
