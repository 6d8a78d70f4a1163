//! The club admin's commands (`umpire admin ...`).
//!
//! - In the record (`core::act::AdminAct`, every side told by a result mail):
//!   end a game with a stated result, replace a side's key or address.
//! - On the umpire's clock (the game's metadata, every side told by a
//!   notice): pause and resume (deadlines stop; moves are refused with the
//!   reason and not recorded, requests are still answered), extend a
//!   deadline.
//! - Observers: addresses that get the public view of every result (only
//!   what every side may see; no side's secrets, no record copy).

use super::games::{GameMeta, rfc3339};
use super::{ServiceError, Umpire};
use serde::{Deserialize, Serialize};
use umpire_core::act::AdminAct;
use umpire_core::ruleset::Side;
use umpire_store::{Batch, Table};

/// A paused game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paused {
    /// Since when (seconds since the epoch): resuming moves every clock on by the pause.
    pub since: i64,
    pub reason: String,
}

const HOUR: i64 = 3600;

impl Umpire {
    /// An admin act in the record: appended, and every side (and observer)
    /// told in a result mail; a changed address is told at its old one too.
    pub fn admin_act(
        &mut self,
        id: &str,
        act: AdminAct,
        reason: &str,
        now: jiff::Timestamp,
    ) -> Result<u64, ServiceError> {
        self.load(id)?;
        let len = self.games[id].record().len();
        let mut batch = Batch::new();
        self.ensure_chain(id, now, &mut batch)?;
        let chain = self.chain(id)?;
        self.cache_chains(&mut batch);
        let old = match &act {
            AdminAct::Address { side, .. } => {
                let g = &self.games[id];
                g.side(side)
                    .map(|s| (s, g.sides()[s.index()].email.clone()))
            }
            _ => None,
        };
        let game = self
            .games
            .get_mut(id)
            .ok_or_else(|| ServiceError::Game(format!("no game {id}")))?;
        let (seq, _) = match game.admin(act.clone(), reason, &chain, &rfc3339(now)) {
            Ok(x) => x,
            Err(e) => {
                self.forget(id);
                return Err(ServiceError::Admin {
                    game: id.to_string(),
                    source: e,
                });
            }
        };
        let game = &self.games[id];
        batch.put_game(id, game, len);
        let mut meta = self.meta(id)?;
        meta.refresh_waiting(game, now);
        if let Some(f) = &game.prompt().finished {
            meta.finished = Some(f.summary.clone());
        }
        if let AdminAct::Address { side, email } = &act {
            meta.addresses.insert(side.clone(), email.clone());
        }
        let mut mails = self.result_mails(game, &meta, seq, None, None, "", now)?;
        if let Some((side, was)) = old {
            mails.push(self.notice_to(
                game,
                side,
                &was,
                "your address changed",
                &format!(
                    "The club's admin changed your address in game {id}: its mails go to {} from here on.",
                    game.sides()[side.index()].email
                ),
                false,
                None,
                format!("{id}.{seq}.old-address"),
                now,
            )?);
        }
        batch.put_json(Table::Games, id, &meta);
        self.commit_with(id, batch, &mails, now)?;
        Ok(seq)
    }

    /// Pauses a game: its deadlines stop, moves are refused (not recorded)
    /// until `resume`; every side is told.
    pub fn pause(
        &mut self,
        id: &str,
        reason: &str,
        now: jiff::Timestamp,
    ) -> Result<(), ServiceError> {
        let mut meta = self.running_meta(id)?;
        if let Some(p) = &meta.paused {
            return Err(ServiceError::Game(format!(
                "game {id} is paused already (since {})",
                show_utc(p.since)
            )));
        }
        meta.paused = Some(Paused {
            since: now.as_second(),
            reason: reason.to_string(),
        });
        let text = format!(
            "The club's admin paused game {id}{}. Deadlines stop; moves sent now are refused and not recorded (requests are still answered). You will be told when it resumes.",
            because(reason)
        );
        self.tell_all(id, &meta, "game paused", &text, "paused", now)
    }

    /// Resumes a paused game: every side's clock moves on by the pause.
    pub fn resume(&mut self, id: &str, now: jiff::Timestamp) -> Result<(), ServiceError> {
        let mut meta = self.running_meta(id)?;
        let Some(p) = meta.paused.take() else {
            return Err(ServiceError::Game(format!("game {id} is not paused")));
        };
        let gap = (now.as_second() - p.since).max(0);
        for w in meta.waiting.values_mut() {
            w.since += gap;
        }
        let text = format!(
            "The club's admin resumed game {id} after {}. Every deadline moved on by the pause; moves count again.",
            super::deadlines::span(gap)
        );
        self.tell_all(id, &meta, "game resumed", &text, "resumed", now)
    }

    /// Gives `side` (or every side the game waits for) `hours` more for its
    /// move; the side is told its new deadline and gets its reminders again.
    pub fn extend(
        &mut self,
        id: &str,
        side: Option<&str>,
        hours: u32,
        now: jiff::Timestamp,
    ) -> Result<Vec<String>, ServiceError> {
        let mut meta = self.running_meta(id)?;
        let names: Vec<String> = meta
            .waiting
            .keys()
            .filter(|n| side.is_none_or(|s| s.eq_ignore_ascii_case(n)))
            .cloned()
            .collect();
        if names.is_empty() {
            return Err(ServiceError::Game(match side {
                Some(s) => format!("game {id} is not waiting for {s}"),
                None => format!("game {id} is waiting for nobody"),
            }));
        }
        for n in &names {
            if let Some(w) = meta.waiting.get_mut(n) {
                w.since += hours as i64 * HOUR;
                w.late = false;
                w.reminded.clear();
            }
        }
        self.load(id)?;
        let game = &self.games[id];
        let mut mails = Vec::new();
        for n in &names {
            let Some(s) = game.side(n) else { continue };
            let line = self
                .deadline_line(&meta, n, n, now)
                .unwrap_or_else(|| "none (the game has no deadlines)".into());
            mails.push(self.notice_mail(
                game,
                s,
                "deadline extended",
                &format!("The club's admin gave you {hours} more hours for your move in game {id}.\nYour deadline: {line}"),
                false,
                None,
                format!("{id}.{}.{n}.extend{}", game.record().len(), now.as_second()),
                now,
            )?);
        }
        let mut batch = Batch::new();
        batch.put_json(Table::Games, id, &meta);
        self.commit_with(id, batch, &mails, now)?;
        Ok(names)
    }

    /// Adds (or with `remove`, drops) an observer of a game.
    pub fn observe(&mut self, id: &str, email: &str, remove: bool) -> Result<(), ServiceError> {
        umpire_mail::mime::check_address(email).map_err(|source| ServiceError::Address {
            who: format!("observer {email}"),
            source,
        })?;
        let mut meta = self.meta(id)?;
        let had = meta.observers.iter().any(|o| o.eq_ignore_ascii_case(email));
        match (remove, had) {
            (false, false) => meta.observers.push(email.to_string()),
            (true, true) => meta.observers.retain(|o| !o.eq_ignore_ascii_case(email)),
            (false, true) => {
                return Err(ServiceError::Game(format!("{email} observes {id} already")));
            }
            (true, false) => {
                return Err(ServiceError::Game(format!("{email} does not observe {id}")));
            }
        }
        let mut batch = Batch::new();
        batch.put_json(Table::Games, id, &meta);
        self.store.commit(batch)?;
        Ok(())
    }

    fn running_meta(&self, id: &str) -> Result<GameMeta, ServiceError> {
        let meta = self.meta(id)?;
        if let Some(f) = &meta.finished {
            return Err(ServiceError::Game(format!("game {id} is over: {f}")));
        }
        Ok(meta)
    }

    /// Stores `meta` and a notice to every side.
    fn tell_all(
        &mut self,
        id: &str,
        meta: &GameMeta,
        title: &str,
        text: &str,
        what: &str,
        now: jiff::Timestamp,
    ) -> Result<(), ServiceError> {
        self.load(id)?;
        let game = &self.games[id];
        let mut mails = Vec::new();
        for (i, s) in game.sides().iter().enumerate() {
            if s.is_open() {
                continue;
            }
            mails.push(self.notice_mail(
                game,
                Side(i as u8),
                title,
                text,
                false,
                None,
                format!(
                    "{id}.{}.{}.{what}{}",
                    game.record().len(),
                    s.name,
                    now.as_second()
                ),
                now,
            )?);
        }
        let mut batch = Batch::new();
        batch.put_json(Table::Games, id, meta);
        self.commit_with(id, batch, &mails, now)
    }

    fn commit_with(
        &mut self,
        id: &str,
        mut batch: Batch,
        mails: &[super::compose::Unsealed],
        now: jiff::Timestamp,
    ) -> Result<(), ServiceError> {
        self.queue(&mut batch, mails, now);
        if let Err(e) = self.store.commit(batch) {
            self.forget(id);
            return Err(e.into());
        }
        Ok(())
    }
}

fn because(reason: &str) -> String {
    if reason.trim().is_empty() {
        String::new()
    } else {
        format!(" ({})", reason.trim())
    }
}

fn show_utc(t: i64) -> String {
    jiff::Timestamp::from_second(t)
        .map(|t| t.to_string())
        .unwrap_or_else(|_| t.to_string())
}
