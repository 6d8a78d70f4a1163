//! A Non-player's Operation carried out to the maximum extent (8.1
//! GUIDELINES: "carry out whatever actions apply to the maximum extent
//! (such as with the most pieces allowed and only as long as needed pieces
//! and Resources are available)").
//!
//! The candidates the Non-player ranks (`legal::card_candidates`) name one
//! or two spaces each, a sample. Once the ranking has chosen the Operation,
//! its Special Activity and its first spaces, the umpire widens it: every
//! further space where a line of the same Operation is legal and paid for
//! is added, one at a time, each tried on a copy of the state with the
//! lines before it. Version 6 stopped at the sample, so a Non-player Rallied
//! in one space with twenty Resources in hand.
//!
//! Ruling A50 (the flowcharts, which would order the spaces, are missing):
//! the further spaces go in the faction's `spaces` order of
//! `games/adp/nonplayer.toml`: in the embedded data Provinces and Kabul
//! highest Pop first, then by Econ and the Random Spaces table (8.2), then
//! the LoCs by Econ, highest first (8.3).
//! Only Operations selecting spaces one line each widen (Train, Assault,
//! Rally, Attack, Terror); a movement (Patrol, Sweep, March) stays as
//! ranked, one group.
//!
//! From version 9 the widened order also "place[s] friendly Bases whenever
//! possible" (8.1 GUIDELINES), which the sample rarely did: a Rally puts a
//! Base in every selected space where one can go (3.3.1: it replaces 2 of
//! the faction's Guerrillas), and a Government Train replaces 3 cubes with
//! a Base in the first selected space, in the faction's `spaces` order,
//! that holds no Government Base yet ("Exception: Place no more than 1
//! Government Base per space"), instead of any other step 2 (3.2.1, ruling
//! A21: one of the three). Version 8 kept the sample's Rally and Train.
//!
//! From version 9 a March, too, goes to the maximum extent its destination
//! allows: "March so as to get as many Underground Guerrillas as possible to
//! the destination" (8.1 GUIDELINES). Each adjacent space adds its group to
//! the ranked one's destination (3.3.2: each group moves, and is Activated
//! or not, on its own; the destination is paid for once, ruling A13), as
//! many as keep them Underground (`legal::np_march`, the MARCH EXAMPLE),
//! unless the group's leaving would place or remove Control in its space
//! (8.1). Version 8 marched the ranked group alone.

use super::data::{Data, SpaceNo};
use super::legal::train_cubes;
use super::nonplayer::{keeps_control, trial_state};
use super::pieces::{Faction, Piece};
use super::state::{SpaceState, State};

/// `text` with every further space of its Operation the Non-player `f` can
/// carry out and pay for (8.1 GUIDELINES, ruling A50).
pub fn widen(d: &Data, st: &State, f: Faction, text: &str) -> String {
    let op = text.split_whitespace().next().unwrap_or("");
    if op == "march" && d.version >= 9 {
        return march_groups(d, st, f, text.to_string());
    }
    if !matches!(op, "train" | "assault" | "rally" | "attack" | "terror") {
        return text.to_string();
    }
    let Some(mut after) = trial_state(d, st, f, text) else {
        return text.to_string();
    };
    let mut out = text.to_string();
    for s in order(d, st, f) {
        if named(d, &out, s) {
            continue;
        }
        let line = match op {
            "train" => format!("in {} place {}", d[s].key, train_cubes(&after, f)),
            _ => format!("in {}", d[s].key),
        };
        let wider = format!("{out}\n{line}");
        if let Some(next) = trial_state(d, st, f, &wider) {
            // From version 10 only where the line does something: "only as
            // long as needed pieces and Resources are available" (8.1).
            if d.version >= 10 && !acts_in(op, &after[s], &next[s]) {
                continue;
            }
            out = wider;
            after = next;
        }
    }
    if d.version >= 9 {
        out = match op {
            "rally" => rally_bases(d, st, f, out),
            "train" if f == Faction::Government => train_base(d, st, f, out),
            _ => out,
        };
    }
    out
}

/// Does a line of the Operation `op` do anything in its space, from
/// `before` to `after` (8.1 GUIDELINES: "only as long as needed pieces and
/// Resources are available")? A Rally, Train or Assault must place, flip or
/// remove a piece; a Terror must place a marker or shift the space (3.3.4:
/// with no marker left and no level to shift it only Activates); an Attack
/// always may, its outcome being the die's (3.3.3).
pub fn acts_in(op: &str, before: &SpaceState, after: &SpaceState) -> bool {
    match op {
        "attack" => true,
        "terror" => {
            (before.terror, before.sabotage, before.support)
                != (after.terror, after.sabotage, after.support)
        }
        _ => before != after,
    }
}

/// Does every space an Operation's `in` lines select change as `acts_in`
/// asks, from `before` to `after` (8.1 GUIDELINES)? Operations of other
/// shapes (movements) pass.
pub fn acts_everywhere(d: &Data, text: &str, before: &State, after: &State) -> bool {
    let op = text.split_whitespace().next().unwrap_or("");
    if !matches!(op, "train" | "assault" | "rally" | "terror") {
        return true;
    }
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("in "))
        .filter_map(|r| r.split_whitespace().next().and_then(|k| d.find(k)))
        .all(|s| acts_in(op, &before[s], &after[s]))
}

/// `text`, a Rally, with a Base placed in each selected space where the
/// order stays legal (8.1 GUIDELINES, 3.3.1), one space at a time.
fn rally_bases(d: &Data, st: &State, f: Faction, text: String) -> String {
    let mut out = text;
    for i in 0..out.lines().count() {
        let lines: Vec<&str> = out.lines().collect();
        let plain = lines[i]
            .trim()
            .strip_prefix("in ")
            .filter(|r| r.split_whitespace().count() == 1);
        let Some(key) = plain else {
            continue;
        };
        let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        changed[i] = format!("in {key} base");
        let wider = changed.join("\n");
        if trial_state(d, st, f, &wider).is_some() {
            out = wider;
        }
    }
    out
}

/// `text`, a Government Train, with its step 2 a Base (3.2.1) in the first
/// selected space, in the faction's order, without a Government Base where
/// that is legal (8.1 GUIDELINES); `text` as it was if there is none.
fn train_base(d: &Data, st: &State, f: Faction, text: String) -> String {
    let step_two = ["civic ", "base ", "patronage"];
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| !step_two.iter().any(|w| l.trim().starts_with(w)))
        .collect();
    let kept = kept.join("\n");
    order(d, st, f)
        .into_iter()
        .filter(|s| named(d, &kept, *s) && st[*s].pieces[Piece::GovBase] == 0)
        .map(|s| format!("{kept}\nbase {}", d[s].key))
        .find(|t| trial_state(d, st, f, t).is_some())
        .unwrap_or(text)
}

/// Does an `in` line of `text` select `s` already (3.1: each space once)?
fn named(d: &Data, text: &str, s: SpaceNo) -> bool {
    text.lines().any(|l| {
        l.trim()
            .strip_prefix("in ")
            .and_then(|r| r.split_whitespace().next())
            .and_then(|k| d.find(k))
            == Some(s)
    })
}

/// Every space, in the faction's order (`nonplayer.toml` `spaces`; ruling
/// A50 in the embedded data).
fn order(d: &Data, st: &State, f: Faction) -> Vec<SpaceNo> {
    let mut v: Vec<SpaceNo> = d.ids().collect();
    d.sort_spaces(st, &d.nonplayer[f.index()].spaces, &mut v);
    v
}

/// `text`, a March, with a group from every further adjacent space to its
/// destination that gets Guerrillas there Underground where any can be, and
/// keeps Control where it leaves (8.1 GUIDELINES, 3.3.2).
fn march_groups(d: &Data, st: &State, f: Faction, text: String) -> String {
    let moves: Vec<(SpaceNo, SpaceNo)> = text.lines().filter_map(|l| move_line(d, l)).collect();
    let Some(&(_, to)) = moves.first() else {
        return text;
    };
    if moves.iter().any(|(_, t)| *t != to) {
        return text;
    }
    let Some(mut after) = trial_state(d, st, f, &text) else {
        return text;
    };
    let mut out = text;
    for from in order(d, st, f) {
        if from == to || !d.adjacent(from, to) || moves.iter().any(|(m, _)| *m == from) {
            continue;
        }
        let Some(n) = super::legal::np_march(d, &after, f, from, to) else {
            continue;
        };
        let group = format!("move {n} {}>{}", d[from].key, d[to].key);
        let wider = with_move(&out, &group);
        if !keeps_control(d, st, f, &wider) {
            continue;
        }
        if let Some(next) = trial_state(d, st, f, &wider) {
            out = wider;
            after = next;
        }
    }
    out
}

/// The origin and destination of a one-leg `move N [active] FROM>TO` line.
fn move_line(d: &Data, line: &str) -> Option<(SpaceNo, SpaceNo)> {
    let path = line
        .trim()
        .strip_prefix("move ")?
        .split_whitespace()
        .last()?;
    let mut ends = path.split('>');
    let (a, b) = (ends.next()?, ends.next()?);
    if ends.next().is_some() {
        return None;
    }
    Some((d.find(a)?, d.find(b)?))
}

/// `text` with `group` after its last `move` line (the Special Activity's
/// lines, Cultivate's after the Operation's, stay where they were).
fn with_move(text: &str, group: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| l.trim().starts_with("move "))
        .map_or(lines.len(), |i| i + 1);
    lines.insert(at, group);
    lines.join("\n")
}
