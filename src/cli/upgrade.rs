//! `umpire upgrade`: running games under a new umpire's rulesets.

use crate::service::Umpire;
use crate::service::upgrade::{UpgradeDecision, UpgradeOutcome};
use anyhow::Result;
use std::path::Path;

/// Checks every running game (or decides for one); prints what happened.
pub fn run(
    dir: &Path,
    game: Option<&str>,
    keep: bool,
    move_on: bool,
    now: jiff::Timestamp,
) -> Result<i32> {
    let _lock = Umpire::lock(dir, std::time::Duration::from_secs(30))?;
    let mut u = Umpire::open(dir)?;
    if let Some(id) = game {
        super::commands::known_game(&u, id)?;
    }
    let decision = match (keep, move_on) {
        (true, _) => Some(UpgradeDecision::Keep),
        (_, true) => Some(UpgradeDecision::MoveOn),
        _ => None,
    };
    let outcomes = match (game, decision) {
        (Some(id), Some(d)) => vec![(id.to_string(), u.decide_upgrade(id, d, now)?)],
        _ => {
            let mut all = u.check_upgrades(true, now)?;
            if let Some(id) = game {
                all.retain(|(g, _)| g == id);
            }
            all
        }
    };
    if outcomes.is_empty() {
        println!("Every running game is on its ruleset's current version.");
    }
    for (id, o) in &outcomes {
        println!("{id}: {}", describe(o));
    }
    let undecided = outcomes
        .iter()
        .any(|(_, o)| matches!(o, UpgradeOutcome::Differs(_)));
    Ok(if undecided { 1 } else { 0 })
}

/// Logs what a poll's check did (nothing when nothing changed).
pub fn report(outcomes: &[(String, UpgradeOutcome)]) {
    for (id, o) in outcomes {
        match o {
            UpgradeOutcome::Differs(_) => tracing::warn!(game = %id, "{}", describe(o)),
            _ => tracing::info!(game = %id, "{}", describe(o)),
        }
    }
}

fn describe(o: &UpgradeOutcome) -> String {
    match o {
        UpgradeOutcome::MovedOn { from, to } => {
            format!("moved on from {from} to {to}: every entry replays the same; players told")
        }
        UpgradeOutcome::MovedOnDiffering { from, to, seq } => format!(
            "moved on from {from} to {to} at the admin's word (the replay differed from entry {seq}); players told"
        ),
        UpgradeOutcome::Differs(p) => format!(
            "under {} the replay differs from entry {}: {}\n  stays on {} until you decide: umpire upgrade GAME --keep | --move-on",
            p.to, p.seq, p.message, p.from
        ),
        UpgradeOutcome::Kept(p) => format!(
            "kept on {} (its replay under {} differs from entry {})",
            p.from, p.to, p.seq
        ),
    }
}
