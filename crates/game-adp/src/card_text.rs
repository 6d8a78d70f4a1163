//! The cards in words: each effect step ([`Step`]) as an English sentence,
//! generated from the steps themselves, so that what a player reads is what
//! [`super::effects`] carries out, for the embedded stand-in cards and for a
//! club's own `cards.toml` alike. No card has prose of its own here.

use super::cards::{Card, Filter, Modifier, Step, Who};
use super::pieces::{Faction, Kind};

/// A card's block for the status: its title, kind and faction order, both
/// sides in words, and a mark where the text or order is this ruleset's
/// stand-in for the printed card (its provenance tag says so). `lead` names
/// the card's place ("Current card", "Next card").
pub fn block(card: &Card, lead: &str) -> Vec<String> {
    if card.is_propaganda() {
        return vec![format!("{lead}: {} (propaganda, 6.0)", card.label())];
    }
    let mut v = vec![format!(
        "{lead}: {} ({}), faction order {}",
        card.label(),
        card.kind.key(),
        order(card)
    )];
    for shaded in [false, true] {
        v.push(format!("- {}: {}", side_name(shaded), side(card, shaded)));
    }
    if let Some(m) = stand_in_mark(card) {
        v.push(format!("- {m}"));
    }
    v
}

/// The faction order, left to right (2.3.2): "Warlords, Government, ...".
pub fn order(card: &Card) -> String {
    let names: Vec<&str> = card.order.iter().map(|f| f.name()).collect();
    names.join(", ")
}

/// "unshaded" or "shaded".
pub fn side_name(shaded: bool) -> &'static str {
    if shaded { "shaded" } else { "unshaded" }
}

/// One side of a card in words: its steps' sentences, in order.
pub fn side(card: &Card, shaded: bool) -> String {
    let steps = card.side(shaded);
    if steps.is_empty() {
        return "no effect.".into();
    }
    let s: Vec<String> = steps.iter().map(|s| format!("{}.", sentence(s))).collect();
    s.join(" ")
}

/// The mark a card's block carries when its provenance tags say its text or
/// faction order is a stand-in for the printed card.
pub fn stand_in_mark(card: &Card) -> Option<String> {
    let what = match (card.stand_in_text, card.stand_in_order) {
        (true, true) => "text and faction order",
        (true, false) => "text",
        (false, true) => "faction order",
        (false, false) => return None,
    };
    Some(format!(
        "stand-in: this ruleset's {what}, not the printed card's (cards.toml)"
    ))
}

/// The move line that executes one side: `event shaded SPACE SPACE`, one
/// `SPACE` for each space its steps ask the executor to name (5.1).
pub fn event_line(card: &Card, shaded: bool) -> String {
    let n: usize = card
        .side(shaded)
        .iter()
        .map(|s| usize::from(s.spaces()))
        .sum();
    let mut line = format!("event {}", side_name(shaded));
    for _ in 0..n {
        line.push_str(" SPACE");
    }
    line
}

/// One step as a sentence (no final stop).
pub fn sentence(step: &Step) -> String {
    match step {
        Step::Resources { who, amount } => format!("{} Resources {amount:+}", whose(*who)),
        Step::Aid { amount } => format!("Aid {amount:+}"),
        Step::Patronage { amount } => format!("Patronage {amount:+}"),
        Step::Islamabad { shift } => format!(
            "Shift Islamabad {} toward {} (6.6.1)",
            plural(u32::from(shift.unsigned_abs()), "box", "boxes"),
            if *shift > 0 {
                "Sponsorship"
            } else {
                "Hostility"
            }
        ),
        Step::Place {
            faction,
            kind,
            count,
            spaces,
            filter,
        } => format!(
            "Place {} {} (from Available)",
            pieces(*faction, *kind, *count),
            in_spaces(*spaces, *filter)
        ),
        Step::Remove {
            faction,
            kind,
            count,
            spaces,
            filter,
            by: None,
        } => format!(
            "Remove {} from {} {}",
            pieces(*faction, *kind, *count),
            each_of(*spaces, *filter),
            to_where(*faction)
        ),
        Step::Remove { by: Some(by), .. } => format!(
            "The {} choose {}: in each, {}",
            by.name(),
            spaces_of(step),
            undergo(step)
        ),
        Step::Shift {
            up,
            levels,
            spaces,
            filter,
        } => format!(
            "Shift {} {} toward {} (1.6)",
            each_of(*spaces, *filter),
            plural(u32::from(*levels), "level", "levels"),
            if *up { "Support" } else { "Opposition" }
        ),
        Step::Eligible { who } => format!("{} stay Eligible (2.3.6)", the(*who)),
        Step::Ineligible { who } => {
            format!("{} are Ineligible for the next card (2.3.6)", the(*who))
        }
        Step::FreeOp(ops) => format!(
            "The executing faction may then {}, free, without a Special Activity, its lines after the event line (5.5)",
            ops_text(ops)
        ),
        Step::Grant { to, ops } => format!(
            "The {} may then {}, free, without a Special Activity (5.5)",
            to.name(),
            ops_text(ops)
        ),
        Step::Capability(m) => format!("Capability for the game: {} (5.3)", modifier(m)),
        Step::Momentum(m) => format!("Momentum until the next Reset: {} (5.4)", modifier(m)),
    }
}

/// What a space chosen for a space step undergoes, in the passive ("1
/// Taliban Guerrilla is removed to Available"): the effect a `choose`
/// question or a named space stands for.
pub fn undergo(step: &Step) -> String {
    match step {
        Step::Place {
            faction,
            kind,
            count,
            ..
        } => format!(
            "{} {} placed from Available",
            pieces(*faction, *kind, *count),
            is_are(*count)
        ),
        Step::Remove {
            faction,
            kind,
            count,
            ..
        } => format!(
            "{} {} removed {}",
            pieces(*faction, *kind, *count),
            is_are(*count),
            to_where(*faction)
        ),
        Step::Shift { up, levels, .. } => format!(
            "Support or Opposition shifts {} toward {}",
            plural(u32::from(*levels), "level", "levels"),
            if *up { "Support" } else { "Opposition" }
        ),
        other => sentence(other),
    }
}

/// "2 Pashtun spaces": how many spaces a step takes, and which.
pub fn spaces_of(step: &Step) -> String {
    match step {
        Step::Place { spaces, filter, .. }
        | Step::Remove { spaces, filter, .. }
        | Step::Shift { spaces, filter, .. } => {
            let (one, many) = filter_names(*filter);
            format!("{spaces} {}", if *spaces == 1 { one } else { many })
        }
        _ => "no space".into(),
    }
}

fn whose(w: Who) -> String {
    match w {
        Who::Executor => "The executing faction's".into(),
        Who::Faction(f) => f.name().into(),
    }
}

fn the(w: Who) -> String {
    match w {
        Who::Executor => "The executing faction".into(),
        Who::Faction(f) => format!("The {}", f.name()),
    }
}

fn is_are(n: u8) -> &'static str {
    if n == 1 { "is" } else { "are" }
}

/// "1 step", "2 steps".
pub fn plural(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "2 Taliban Guerrillas", "1 Warlords Base", "3 Government Police".
pub fn pieces(f: Faction, k: Kind, n: u8) -> String {
    format!("{n} {}", noun(f, k, n))
}

/// "Taliban Guerrillas" (`n` other than 1), "Taliban Base".
pub fn noun(f: Faction, k: Kind, n: u8) -> String {
    let (one, many) = match k {
        Kind::Troops => ("Troops", "Troops"),
        Kind::Police => ("Police", "Police"),
        Kind::Base => ("Base", "Bases"),
        Kind::Guerrilla => ("Guerrilla", "Guerrillas"),
    };
    format!("{} {}", f.name(), if n == 1 { one } else { many })
}

/// Where removed pieces go: the Coalition's to Casualties (ruling A32),
/// everyone else's to Available.
pub fn to_where(f: Faction) -> &'static str {
    if f == Faction::Coalition {
        "to Casualties"
    } else {
        "to Available"
    }
}

/// A space filter's noun, singular and plural.
fn filter_names(f: Filter) -> (&'static str, &'static str) {
    match f {
        Filter::Any => ("space", "spaces"),
        Filter::Afghan => (
            "Afghan space (Kabul or a Province)",
            "Afghan spaces (Kabul or Provinces)",
        ),
        Filter::Province => ("Province", "Provinces"),
        Filter::Pashtun => ("Pashtun space", "Pashtun spaces"),
        // Kabul is Pashtun: the non-Pashtun spaces off the LoCs are
        // Provinces, Afghan or Pakistan.
        Filter::NonPashtun => ("non-Pashtun Province", "non-Pashtun Provinces"),
        Filter::Pakistan => ("Pakistan Province", "Pakistan Provinces"),
        Filter::Kabul => ("Kabul", "Kabul"),
        Filter::Loc => ("LoC", "LoCs"),
    }
}

/// "in 1 Pashtun space", "in each of 2 Pashtun spaces".
fn in_spaces(n: u8, f: Filter) -> String {
    format!("in {}", each_of(n, f))
}

/// "1 Pashtun space", "each of 2 Pashtun spaces".
fn each_of(n: u8, f: Filter) -> String {
    let (one, many) = filter_names(f);
    if f == Filter::Kabul {
        return "Kabul".into();
    }
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("each of {n} {many}")
    }
}

/// "Attack, Terror or March".
fn ops_text(ops: &[super::orders::Op]) -> String {
    let names: Vec<String> = ops.iter().map(|o| activity(o.key())).collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => "nothing".into(),
    }
}

/// An Operation or Special Activity's name from its order word.
pub fn activity(key: &str) -> String {
    match key {
        "airlift" => "Air Lift".into(),
        "airstrike" => "Air Strike".into(),
        k => {
            let mut c = k.chars();
            c.next().map_or(String::new(), |f| {
                f.to_ascii_uppercase().to_string() + c.as_str()
            })
        }
    }
}

/// A lasting modifier in words.
pub fn modifier(m: &Modifier) -> String {
    match m {
        Modifier::Cost {
            faction,
            op,
            amount,
        } => format!(
            "{} {} costs {} a space",
            faction.name(),
            activity(op),
            plural(u32::from(*amount), "Resource", "Resources")
        ),
        Modifier::Removal {
            faction,
            op,
            amount,
        } => format!(
            "{} {} removes {amount} more {} in each space",
            faction.name(),
            activity(op),
            if *amount == 1 { "piece" } else { "pieces" }
        ),
        Modifier::Forbid {
            faction,
            activity: a,
        } => {
            format!("the {} may not {}", faction.name(), activity(a))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_step_reads_as_a_sentence() {
        let place = Step::Place {
            faction: Faction::Taliban,
            kind: Kind::Guerrilla,
            count: 2,
            spaces: 1,
            filter: Filter::Pashtun,
        };
        assert_eq!(
            sentence(&place),
            "Place 2 Taliban Guerrillas in 1 Pashtun space (from Available)"
        );
        let res = Step::Resources {
            who: Who::Faction(Faction::Government),
            amount: 6,
        };
        assert_eq!(sentence(&res), "Government Resources +6");
        let shift = Step::Shift {
            up: false,
            levels: 1,
            spaces: 1,
            filter: Filter::Afghan,
        };
        assert_eq!(
            sentence(&shift),
            "Shift 1 Afghan space (Kabul or a Province) 1 level toward Opposition (1.6)"
        );
        let chosen = Step::Remove {
            faction: Faction::Taliban,
            kind: Kind::Guerrilla,
            count: 1,
            spaces: 2,
            filter: Filter::Any,
            by: Some(Faction::Taliban),
        };
        assert_eq!(
            sentence(&chosen),
            "The Taliban choose 2 spaces: in each, 1 Taliban Guerrilla is removed to Available"
        );
        let cap = Step::Capability(Modifier::Forbid {
            faction: Faction::Coalition,
            activity: "airlift".into(),
        });
        assert_eq!(
            sentence(&cap),
            "Capability for the game: the Coalition may not Air Lift (5.3)"
        );
        let isl = Step::Islamabad { shift: -2 };
        assert_eq!(
            sentence(&isl),
            "Shift Islamabad 2 boxes toward Hostility (6.6.1)"
        );
    }
}
