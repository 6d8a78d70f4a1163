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

use super::data::{Data, SpaceId};
use super::legal::train_cubes;
use super::nonplayer::trial_state;
use super::pieces::Faction;
use super::state::State;

/// `text` with every further space of its Operation the Non-player `f` can
/// carry out and pay for (8.1 GUIDELINES, ruling A50).
pub fn widen(d: &Data, st: &State, f: Faction, text: &str) -> String {
    let op = text.split_whitespace().next().unwrap_or("");
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
            out = wider;
            after = next;
        }
    }
    out
}

/// Does an `in` line of `text` select `s` already (3.1: each space once)?
fn named(d: &Data, text: &str, s: SpaceId) -> bool {
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
fn order(d: &Data, st: &State, f: Faction) -> Vec<SpaceId> {
    let mut v: Vec<SpaceId> = d.ids().collect();
    d.sort_spaces(st, &d.nonplayer[f.index()].spaces, &mut v);
    v
}
