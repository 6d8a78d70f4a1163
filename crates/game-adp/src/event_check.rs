//! Event targets that would do nothing (5.1: "do as much of the text as can
//! be done"), from version 11: a space the executor names for a step must
//! change something there when another qualifying space would, it is named
//! once, and a step gets all its spaces while more would do something. A
//! target that does nothing stays legal where no other space could do more.
//! Everything here reads the public map and boxes alone (the deck order,
//! Deception markers and standing orders play no part), so a refusal tells
//! its sender nothing hidden.

use super::card_text;
use super::cards::{Card, Step};
use super::data::{Data, SpaceNo};
use super::effects::fits;
use super::pieces::{Faction, Piece};
use super::state::{State, avail_slot};
use umpire_core::ruleset::RuleError;

/// The first version that refuses Event targets that do nothing.
pub const SINCE: u32 = 11;

/// Why `step` would do nothing in `s`, or `None` if it would do something
/// there (or the space is refused elsewhere for another reason: a Base on a
/// LoC, a COIN piece in Pakistan, 5.1.1).
pub fn idle(d: &Data, st: &State, step: &Step, s: SpaceNo) -> Option<String> {
    match step {
        Step::Place {
            faction,
            kind,
            count,
            ..
        } => {
            let p = Piece::of(*faction, *kind)?;
            if d[s].is_pakistan() && *faction != Faction::Taliban
                || p.kind() == super::pieces::Kind::Base && d[s].is_loc()
            {
                return None;
            }
            let room = if p.kind() == super::pieces::Kind::Base {
                u32::from(d.limits.bases_per_space).saturating_sub(st[s].pieces.bases())
            } else {
                u32::MAX
            };
            if *count == 0 || st.available[avail_slot(p)] == 0 {
                Some(format!(
                    "no {} Available",
                    card_text::noun(*faction, *kind, 2)
                ))
            } else if room == 0 {
                Some("no room for another Base (1.4.2)".into())
            } else {
                None
            }
        }
        Step::Remove { faction, kind, .. } => {
            let held: u32 = Piece::ALL
                .iter()
                .filter(|p| p.faction() == *faction && p.kind() == *kind)
                .map(|p| u32::from(st[s].pieces[*p]))
                .sum();
            (held == 0).then(|| format!("no {} there", card_text::noun(*faction, *kind, 1)))
        }
        Step::Shift { up, .. } => {
            if !d[s].is_afghan() {
                Some("no Support or Opposition outside Afghanistan (1.6)".into())
            } else if st.pop(d, s) == 0 {
                Some("Population 0 (1.6)".into())
            } else if st[s].support.shifted(*up) == st[s].support {
                Some(format!("already at {:?}", st[s].support))
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The qualifying spaces, other than `named`, where `step` would do
/// something.
fn better(d: &Data, st: &State, step: &Step, named: &[SpaceNo]) -> Vec<SpaceNo> {
    let Some(filter) = step.filter() else {
        return Vec::new();
    };
    d.ids()
        .filter(|s| fits(d, *s, filter) && !named.contains(s) && idle(d, st, step, *s).is_none())
        .collect()
}

/// "Helmand, Zabol": at most three names, for a refusal.
fn some(d: &Data, spaces: &[SpaceNo]) -> String {
    let mut names: Vec<&str> = spaces.iter().take(3).map(|s| d[*s].name.as_str()).collect();
    if spaces.len() > 3 {
        names.push("...");
    }
    names.join(", ")
}

/// What a refusal says of the step: "#39 Title (unshaded): Remove ...".
fn what(card: &Card, shaded: bool, step: &Step) -> String {
    format!(
        "{} ({}): {}",
        card.label(),
        card_text::side_name(shaded),
        card_text::sentence(step)
    )
}

/// Space `s`, named for `step` after `before` (the step's spaces already
/// carried out): refused if named twice, or if nothing would happen there
/// while another qualifying space would change.
pub fn target(
    d: &Data,
    st: &State,
    (card, shaded): (&Card, bool),
    step: &Step,
    s: SpaceNo,
    before: &[SpaceNo],
) -> Result<(), RuleError> {
    if before.contains(&s) {
        return Err(RuleError::illegal(
            format!(
                "{}: `{}` is named twice; each space once",
                what(card, shaded, step),
                d[s].key
            ),
            "5.1",
        ));
    }
    let Some(why) = idle(d, st, step, s) else {
        return Ok(());
    };
    let mut named = before.to_vec();
    named.push(s);
    let others = better(d, st, step, &named);
    if others.is_empty() {
        return Ok(());
    }
    Err(RuleError::illegal(
        format!(
            "{}: nothing would happen in `{}` ({why}), while it would in {}: name such a space, to do as much of the text as can be done",
            what(card, shaded, step),
            d[s].key,
            some(d, &others)
        ),
        "5.1",
    ))
}

/// A step given fewer spaces than it takes (`named`, after they were carried
/// out): refused while another qualifying space would still change.
pub fn count(
    d: &Data,
    st: &State,
    (card, shaded): (&Card, bool),
    step: &Step,
    named: &[SpaceNo],
) -> Result<(), RuleError> {
    let want = usize::from(step.spaces());
    if named.len() >= want {
        return Ok(());
    }
    let others = better(d, st, step, named);
    if others.is_empty() {
        return Ok(());
    }
    Err(RuleError::illegal(
        format!(
            "{}: {} named of {want}, while more would change, e.g. {}: name them after `event {}`, to do as much of the text as can be done",
            what(card, shaded, step),
            card_text::plural(named.len() as u32, "space", "spaces"),
            some(d, &others),
            card_text::side_name(shaded)
        ),
        "5.1",
    ))
}
