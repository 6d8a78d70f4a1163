//! Deadlines over weeks: a deadline for each expected move, reminders before
//! it, a grace period, then the game's stated default, recorded as taken by
//! default. Absences push a side's clock back; each side reads its deadline in
//! its own time zone. Modelled on the Diplomacy judges' NEXT/WARN/GRACE.

use super::config::Deadlines;
use super::games::{GameMeta, Waiting, rfc3339};
use super::{ServiceError, Umpire};
use umpire_core::record::Body;
use umpire_core::sealed::Hidden;
use umpire_store::{Batch, Table};

/// What a deadline check did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeadlineReport {
    pub reminders: usize,
    pub late_notices: usize,
    pub defaults: usize,
    /// Games whose deadlines could not be checked (their stored state is
    /// broken): logged, skipped, and tried again at the next check.
    pub failed: usize,
}

const HOUR: i64 = 3600;

/// The end of an away day (`YYYY-MM-DD`), in the side's zone, as seconds.
fn away_end(date: &str, tz: &jiff::tz::TimeZone) -> Option<i64> {
    let d: jiff::civil::Date = date.parse().ok()?;
    let next = d.tomorrow().ok()?;
    next.to_zoned(tz.clone())
        .ok()
        .map(|z| z.timestamp().as_second())
}

/// A side's time zone (UTC if unset or unknown).
pub fn zone(meta: &GameMeta, side: &str) -> jiff::tz::TimeZone {
    meta.time_zones
        .get(side)
        .and_then(|n| jiff::tz::TimeZone::get(n).ok())
        .unwrap_or(jiff::tz::TimeZone::UTC)
}

/// When `side`'s move is due, if the game has deadlines.
pub fn due(policy: &Deadlines, meta: &GameMeta, side: &str, w: &Waiting) -> Option<i64> {
    if policy.hours == 0 {
        return None;
    }
    let mut start = w.since;
    if let Some(end) = meta
        .away
        .get(side)
        .and_then(|d| away_end(d, &zone(meta, side)))
    {
        start = start.max(end);
    }
    Some(start + policy.hours as i64 * HOUR)
}

/// Is any reminder, late notice or default of this game due at `t`? The
/// same tests `check_game` makes, on the metadata alone, so that a game with
/// nothing due is not loaded (replayed) at all.
fn anything_due(policy: &Deadlines, meta: &GameMeta, t: i64) -> bool {
    meta.waiting.iter().any(|(name, w)| {
        let Some(d) = due(policy, meta, name, w) else {
            return false;
        };
        if t >= d {
            return !w.late || t >= d + policy.grace_hours as i64 * HOUR;
        }
        policy.reminders.iter().any(|h| {
            let at = d - *h as i64 * HOUR;
            t >= at && at > w.since && !w.reminded.contains(h)
        })
    })
}

/// The earliest time at which [`anything_due`] can hold for this game: `None`
/// if it never will without a change of its metadata (finished, paused, no
/// deadlines, nothing awaited). Each condition of `anything_due` is "t is at
/// or past some time", and this is the earliest of those times, so no check
/// before it has anything to do and the wake index (`store::Table::Wake`)
/// keyed by it never misses a game. (It may wake a game early in one case: a
/// side told it is late with a reminder never sent, which `anything_due`
/// then skips on the metadata alone.)
pub fn wake(policy: &Deadlines, meta: &GameMeta) -> Option<i64> {
    if meta.finished.is_some() || meta.paused.is_some() {
        return None;
    }
    let grace = policy.grace_hours as i64 * HOUR;
    let mut first: Option<i64> = None;
    let mut at = |t: i64| first = Some(first.map_or(t, |f| f.min(t)));
    for (name, w) in &meta.waiting {
        let Some(d) = due(policy, meta, name, w) else {
            continue;
        };
        at(if w.late { d + grace } else { d });
        for h in &policy.reminders {
            let r = d - *h as i64 * HOUR;
            if r > w.since && !w.reminded.contains(h) {
                at(r);
            }
        }
    }
    first
}

/// The store's wake function over the club's default deadlines: a game's
/// metadata that does not read wakes at once, so the check logs it.
pub fn wake_fn(default: Deadlines) -> umpire_store::WakeFn {
    Box::new(
        move |_id, bytes| match serde_json::from_slice::<GameMeta>(bytes) {
            Ok(meta) => wake(meta.deadlines.as_ref().unwrap_or(&default), &meta),
            Err(_) => Some(i64::MIN),
        },
    )
}

/// A time as the side reads it: `Fri 4 Dec 2026 18:00 CET`.
pub fn show(t: i64, meta: &GameMeta, side: &str) -> String {
    match jiff::Timestamp::from_second(t) {
        Ok(ts) => {
            let z = ts.to_zoned(zone(meta, side));
            z.strftime("%a %-d %b %Y %H:%M %Z").to_string()
        }
        Err(_) => t.to_string(),
    }
}

/// "2 days 6 hours".
pub fn span(secs: i64) -> String {
    let h = (secs.max(0) + HOUR - 1) / HOUR;
    match (h / 24, h % 24) {
        (0, h) => format!("{h} hour{}", if h == 1 { "" } else { "s" }),
        (d, 0) => format!("{d} day{}", if d == 1 { "" } else { "s" }),
        (d, h) => format!(
            "{d} day{} {h} hour{}",
            if d == 1 { "" } else { "s" },
            if h == 1 { "" } else { "s" }
        ),
    }
}

impl Umpire {
    /// The deadline policy of a game.
    pub fn policy(&self, meta: &GameMeta) -> Deadlines {
        meta.deadlines
            .clone()
            .unwrap_or_else(|| self.config.deadlines.clone())
    }

    /// The line a result mail shows under a side's prompt.
    pub fn deadline_line(
        &self,
        meta: &GameMeta,
        side: &str,
        reader: &str,
        now: jiff::Timestamp,
    ) -> Option<String> {
        let policy = self.policy(meta);
        let w = meta.waiting.get(side)?;
        let d = due(&policy, meta, side, w)?;
        let left = d - now.as_second();
        let when = show(d, meta, reader);
        Some(if left >= 0 {
            format!(
                "{when} (in {}); then {} hours' grace",
                span(left),
                policy.grace_hours
            )
        } else {
            format!(
                "{when} (passed); the default applies at {}",
                show(d + policy.grace_hours as i64 * HOUR, meta, reader)
            )
        })
    }

    /// Sends due reminders and applies defaults whose grace has run out, in
    /// every game. Each game's changes are committed together; a game whose
    /// stored state fails does not stop the others (see `contained_game`).
    pub fn check_deadlines(
        &mut self,
        now: jiff::Timestamp,
    ) -> Result<DeadlineReport, ServiceError> {
        let mut report = DeadlineReport::default();
        // Only the games the wake index says may have something due: a poll
        // at a club of 10,000 games reads none of the others.
        for id in self.store.due(now.as_second())? {
            self.contained_game(&id, now, &mut report)?;
        }
        Ok(report)
    }

    /// One game's deadlines, contained as `Umpire::contained` contains a
    /// mail: an error or panic from this game's stored state (metadata that
    /// does not read, a record that no longer replays) is logged and counted
    /// in `failed`, the game's caches are dropped, and the check goes on.
    /// Only a failing database ends it.
    fn contained_game(
        &mut self,
        id: &str,
        now: jiff::Timestamp,
        report: &mut DeadlineReport,
    ) -> Result<(), ServiceError> {
        let before = report.clone();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let meta = self.meta(id)?;
            let policy = self.policy(&meta);
            if meta.finished.is_some()
                || meta.paused.is_some()
                || !anything_due(&policy, &meta, now.as_second())
            {
                // Decided from the metadata alone: the game is not replayed.
                return Ok(());
            }
            self.check_game(id, meta, now, report)
        }));
        let why = match run {
            Ok(Ok(())) => return Ok(()),
            Ok(Err(e)) if super::poll::environmental(&e) => return Err(e),
            Ok(Err(e)) => e.to_string(),
            Err(panic) => format!("internal error: {}", super::poll::panic_text(&*panic)),
        };
        *report = before;
        report.failed += 1;
        self.forget(id);
        tracing::warn!(game = id, error = %why, "deadlines of a game could not be checked; skipped");
        Ok(())
    }

    fn check_game(
        &mut self,
        id: &str,
        mut meta: GameMeta,
        now: jiff::Timestamp,
        report: &mut DeadlineReport,
    ) -> Result<(), ServiceError> {
        let policy = self.policy(&meta);
        self.load(id)?;
        let t = now.as_second();
        let mut batch = Batch::new();
        let mut mails = Vec::new();
        let sides: Vec<(String, Waiting)> = meta
            .waiting
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (name, w) in sides {
            let Some(d) = due(&policy, &meta, &name, &w) else {
                continue;
            };
            let game = &self.games[id];
            let Some(side) = game.side(&name) else {
                continue;
            };
            if game.awaits(side).is_none() {
                continue;
            }
            let grace_end = d + policy.grace_hours as i64 * HOUR;
            if t >= grace_end {
                let len = self.games[id].record().len();
                self.ensure_chain(id, now, &mut batch)?;
                let chain = self.chain(id)?;
                self.cache_chains(&mut batch);
                let reason = format!(
                    "no orders from {name} by the deadline {} nor in the {} hours' grace after it",
                    rfc3339(jiff::Timestamp::from_second(d).unwrap_or(now)),
                    policy.grace_hours
                );
                let game = self
                    .games
                    .get_mut(id)
                    .ok_or_else(|| ServiceError::Game(format!("no game {id}")))?;
                match game.apply_default(side, &reason, &chain, &rfc3339(now)) {
                    Ok((seq, _)) => {
                        let game = &self.games[id];
                        batch.put_game(id, game, len);
                        meta.refresh_waiting(game, now);
                        if let Some(f) = &game.prompt().finished {
                            meta.finished = Some(f.summary.clone());
                        }
                        mails.extend(self.default_mails(game, &meta, seq, side, now)?);
                        report.defaults += 1;
                        tracing::info!(game = id, side = %name, entry = seq, "default applied after the deadline");
                    }
                    Err(e) => {
                        // A recommit made just now still goes into the record.
                        batch.put_game(id, &self.games[id], len);
                        // No default can be applied: say so once, and wait.
                        let text = format!(
                            "The deadline passed, but no default can be applied for you ({e}). The game waits for your move."
                        );
                        self.late_notice(id, &mut meta, &name, &w, &text, now, &mut mails, report)?;
                    }
                }
                continue;
            }
            let game = &self.games[id];
            if t >= d {
                let text = format!(
                    "The deadline for your move passed at {}. Moves still count until {}; after that the umpire applies: {}.",
                    show(d, &meta, &name),
                    show(grace_end, &meta, &name),
                    game.awaits(side)
                        .map(|a| a.default.join("; "))
                        .unwrap_or_default()
                );
                self.late_notice(id, &mut meta, &name, &w, &text, now, &mut mails, report)?;
                continue;
            }
            // The latest reminder now due that has not gone out; earlier ones are then moot.
            let mut hours: Vec<u32> = policy.reminders.clone();
            hours.sort_unstable_by(|a, b| b.cmp(a));
            let due_now: Vec<u32> = hours
                .iter()
                .copied()
                .filter(|h| {
                    t >= d - *h as i64 * HOUR
                        && d - (*h as i64) * HOUR > w.since
                        && !w.reminded.contains(h)
                })
                .collect();
            if let Some(h) = due_now.last().copied() {
                let text = format!(
                    "A reminder: {} waits for your move. The deadline is {} (in {}).\n\n{}",
                    game.id(),
                    show(d, &meta, &name),
                    span(d - t),
                    game.awaits(side).map(|a| a.ask.clone()).unwrap_or_default()
                );
                mails.push(self.notice_mail(
                    game,
                    side,
                    &format!("reminder: your move is due in {}", span(d - t)),
                    &text,
                    false,
                    None,
                    format!("{id}.{}.{name}.remind{h}", w.anchor),
                    now,
                )?);
                if let Some(x) = meta.waiting.get_mut(&name) {
                    x.reminded.extend(due_now.iter().copied());
                }
                report.reminders += 1;
            }
        }
        if mails.is_empty() && batch.is_empty() {
            return Ok(());
        }
        batch.put_json(Table::Games, id, &meta);
        self.queue(&mut batch, &mails, now);
        if let Err(e) = self.store.commit(batch) {
            self.forget(id);
            return Err(e.into());
        }
        Ok(())
    }

    /// The mails of a default applied at entry `seq`. A default held sealed in
    /// a round it did not close changes nothing the other sides can see: only
    /// the defaulted side is told, with the commitment. Otherwise every side
    /// gets the result, as for a move.
    fn default_mails(
        &self,
        game: &umpire_core::game::Game,
        meta: &GameMeta,
        seq: u64,
        side: umpire_core::ruleset::Side,
        now: jiff::Timestamp,
    ) -> Result<Vec<super::compose::Unsealed>, ServiceError> {
        let held = game
            .record()
            .entries()
            .get(seq as usize)
            .and_then(|e| match &e.body {
                Body::Sealed(s) => s.default.as_ref(),
                _ => None,
            });
        let Some(held) = held else {
            return self.result_mails(game, meta, seq, None, None, "", now);
        };
        let commitment = match held {
            Hidden::Sealed(s) => s.sealed.to_hex(),
            Hidden::Clear(_) => String::new(),
        };
        let text = format!(
            "Your deadline passed, so the umpire applied your stated default: {}.\nIt is recorded sealed as entry {seq}.\nCommitment:\n  {commitment}\nNo other side sees it before the round is resolved; until then a signed\nmove from you for this round replaces it.\n\nStill waiting for: {}\n",
            held.value().map(|o| o.join("; ")).unwrap_or_default(),
            game.awaiting_names()
        );
        Ok(vec![self.notice_mail(
            game,
            side,
            "your default is in, sealed",
            &text,
            false,
            None,
            format!("{}.{seq}.sealed-default", game.id()),
            now,
        )?])
    }

    /// Tells a side, once per wait, that its deadline has passed.
    #[allow(clippy::too_many_arguments)] // the pieces of one notice in a running check
    fn late_notice(
        &self,
        id: &str,
        meta: &mut GameMeta,
        name: &str,
        w: &Waiting,
        text: &str,
        now: jiff::Timestamp,
        mails: &mut Vec<super::compose::Unsealed>,
        report: &mut DeadlineReport,
    ) -> Result<(), ServiceError> {
        if w.late {
            return Ok(());
        }
        let game = &self.games[id];
        let Some(side) = game.side(name) else {
            return Ok(());
        };
        mails.push(self.notice_mail(
            game,
            side,
            "deadline passed",
            text,
            false,
            None,
            format!("{id}.{}.{name}.late", w.anchor),
            now,
        )?);
        if let Some(x) = meta.waiting.get_mut(name) {
            x.late = true;
        }
        report.late_notices += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_read_naturally() {
        assert_eq!(span(3600), "1 hour");
        assert_eq!(span(2 * 86400 + 6 * 3600), "2 days 6 hours");
        assert_eq!(span(86400), "1 day");
        assert_eq!(span(1), "1 hour");
    }

    #[test]
    fn away_moves_the_clock_to_the_end_of_the_day_in_the_sides_zone() {
        let mut meta = GameMeta::default();
        meta.away.insert("red".into(), "2026-12-24".into());
        meta.time_zones.insert("red".into(), "Europe/Berlin".into());
        let policy = Deadlines {
            hours: 48,
            reminders: vec![],
            grace_hours: 0,
        };
        let w = Waiting {
            anchor: 1,
            since: 0,
            reminded: vec![],
            late: false,
        };
        // Midnight after 24 Dec in Berlin is 23:00 UTC on the 24th.
        let end: jiff::Timestamp = "2026-12-24T23:00:00Z".parse().unwrap();
        assert_eq!(
            due(&policy, &meta, "red", &w),
            Some(end.as_second() + 48 * 3600)
        );
        assert_eq!(due(&policy, &meta, "blue", &w), Some(48 * 3600));
        assert!(
            show(end.as_second(), &meta, "red").contains("Fri 25 Dec 2026 00:00 CET"),
            "{}",
            show(end.as_second(), &meta, "red")
        );
    }
}
