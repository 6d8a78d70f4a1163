//! `umpire admin …`: running a club's games (see `service::admin`).

use super::commands::now;
use crate::core::act::{AdminAct, Ending};
use crate::service::Umpire;
use anyhow::{Context, Result};
use clap::Subcommand;
use std::path::Path;

/// `umpire admin …`
#[derive(Debug, Subcommand)]
pub enum AdminCommand {
    /// Pause a game: deadlines stop; moves are refused (not recorded) with the reason, requests still answered. Every side is told.
    Pause {
        game: String,
        /// Why, for the players' mail.
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Resume a paused game: every deadline moves on by the length of the pause.
    Resume { game: String },
    /// Give a side (default: every side the game waits for) more hours for its move; it is told its new deadline.
    Extend {
        game: String,
        /// Hours to add.
        #[arg(long)]
        hours: u32,
        #[arg(long)]
        side: Option<String>,
    },
    /// Replace a side's key (an entry in the record: moves verify with the new key from there on). Every side is told.
    Key {
        game: String,
        side: String,
        /// The new public key: a .pub file or an `ssh-ed25519 AAAA…` line.
        key: String,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Replace a side's mail address (an entry in the record). Every side is told, and the old address too.
    Address {
        game: String,
        side: String,
        email: String,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// End a game with a stated result (an entry in the record; the full record goes to every side).
    End {
        game: String,
        /// A winning side. Repeatable; none for a draw.
        #[arg(long = "winner")]
        winners: Vec<String>,
        /// The result as the players will read it, e.g. "ming wins: jurchen left the club".
        #[arg(long)]
        result: String,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// List the joins that wait for an answer, by game, with each game's open seats.
    Seats,
    /// Answer a held join for SIDE's open seat: --approve seats its player (an entry in the record; every side told), --refuse tells the joiner why.
    Seat {
        game: String,
        side: String,
        #[arg(long, conflicts_with = "refuse", required_unless_present = "refuse")]
        approve: bool,
        #[arg(long)]
        refuse: bool,
        /// The held join's id (from `umpire admin seats`), when several wait for the seat.
        #[arg(long)]
        join: Option<String>,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Add an observer: an address that gets the public view of every result (what every side may see, nothing more).
    Observe {
        game: String,
        email: String,
        /// Remove the observer instead.
        #[arg(long)]
        remove: bool,
    },
}

impl AdminCommand {
    /// The game the command is for (none for `seats`).
    fn game(&self) -> Option<&str> {
        Some(match self {
            AdminCommand::Seats => return None,
            AdminCommand::Seat { game, .. } => game,
            AdminCommand::Pause { game, .. }
            | AdminCommand::Resume { game }
            | AdminCommand::Extend { game, .. }
            | AdminCommand::Key { game, .. }
            | AdminCommand::Address { game, .. }
            | AdminCommand::End { game, .. }
            | AdminCommand::Observe { game, .. } => game,
        })
    }
}

/// Runs one admin command.
pub fn run(dir: &Path, what: AdminCommand) -> Result<i32> {
    super::commands::require_data_dir(dir)?;
    let _lock = Umpire::lock(dir, std::time::Duration::from_secs(30))?;
    let mut u = Umpire::open(dir)?;
    if let Some(game) = what.game() {
        super::commands::known_game(&u, game)?;
    }
    let now = now()?;
    let said = match what {
        AdminCommand::Pause { game, reason } => {
            u.pause(&game, &reason, now)?;
            format!("{game} paused; every side told")
        }
        AdminCommand::Resume { game } => {
            u.resume(&game, now)?;
            format!("{game} resumed; every deadline moved on by the pause")
        }
        AdminCommand::Extend { game, hours, side } => {
            let names = u.extend(&game, side.as_deref(), hours, now)?;
            format!("{game}: {} got {hours} more hours", names.join(", "))
        }
        AdminCommand::Key {
            game,
            side,
            key,
            reason,
        } => {
            let key = if key.trim_start().starts_with("ssh-") {
                key
            } else {
                std::fs::read_to_string(&key).with_context(|| format!("reading {key}"))?
            };
            let act = AdminAct::Key {
                side: side.clone(),
                key: key.trim().to_string(),
            };
            let seq = u.admin_act(&game, act, &reason, now)?;
            format!("{game}: {side}'s new key recorded as entry {seq}; every side told")
        }
        AdminCommand::Address {
            game,
            side,
            email,
            reason,
        } => {
            crate::mail::mime::check_address(&email)
                .map_err(|e| anyhow::anyhow!("{email}: {e}"))?;
            let act = AdminAct::Address {
                side: side.clone(),
                email,
            };
            let seq = u.admin_act(&game, act, &reason, now)?;
            format!("{game}: {side}'s new address recorded as entry {seq}; every side told")
        }
        AdminCommand::End {
            game,
            winners,
            result,
            reason,
        } => {
            let act = AdminAct::End(Ending {
                winners,
                summary: result,
            });
            let seq = u.admin_act(&game, act, &reason, now)?;
            format!("{game} ended at entry {seq}; the full record goes to every side")
        }
        AdminCommand::Seats => {
            print!("{}", super::seats::list(&mut u)?);
            return Ok(0);
        }
        AdminCommand::Seat {
            game,
            side,
            approve,
            join,
            reason,
            ..
        } => {
            if approve {
                let seq = u.approve_join(&game, &side, join.as_deref(), &reason, now)?;
                format!("{game}: {side}'s seat taken as entry {seq}; every side told")
            } else {
                let to = u.refuse_join(&game, &side, join.as_deref(), &reason, now)?;
                format!(
                    "{game}: the join for {side} refused; {} told",
                    super::commands::safe(&to)
                )
            }
        }
        AdminCommand::Observe {
            game,
            email,
            remove,
        } => {
            u.observe(&game, &email, remove)?;
            if remove {
                format!("{email} no longer observes {game}")
            } else {
                format!("{email} observes {game}: the public view of each result")
            }
        }
    };
    println!("{said}");
    eprintln!("Mails go out with the next poll or `umpire deliver`.");
    Ok(0)
}
