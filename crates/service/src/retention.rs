//! Retention and compaction (`umpire compact`, and the poll when one is
//! due, `[retention]`): raw mails are kept for a stated number of days, then
//! dropped, and the database file gives its free pages back. What a mail did stays in the ledger (so a second delivery of
//! it is still recognised) and every move stays in its game's record, signed:
//! the raw copy is only for an admin looking into a mail, and is not needed
//! to verify or replay anything. What strangers' joins left behind that can
//! no longer matter goes too (`Umpire::sweep_joins`).

use super::poll::LedgerEntry;
use super::{ServiceError, Umpire};
use umpire_store::{Batch, Table};

/// Raw mails removed per transaction: bounded memory and commit size.
const GROUP: usize = 1000;

/// The `Meta` key of when the database was last compacted (or, before the
/// first compaction, when the poll first looked: the count starts there).
const LAST_COMPACT: &[u8] = b"compact:last";

/// What `umpire compact` did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Compacted {
    /// Raw mails dropped (older than the retention).
    pub dropped: usize,
    /// Raw mails kept (within it, or of unknown age).
    pub kept: usize,
    /// Keys left by joins that can no longer matter: answer counts of past
    /// days, refused joins of games over or gone.
    pub swept: usize,
    /// The database file's size before and after, in bytes.
    pub bytes_before: u64,
    pub bytes_after: u64,
}

impl Umpire {
    /// Drops the raw copies of mails handled more than `keep_days` days
    /// before `now`, then compacts the database. A raw mail whose ledger line
    /// is missing or does not read is kept: its age is unknown.
    pub fn compact(
        &mut self,
        keep_days: u32,
        now: jiff::Timestamp,
    ) -> Result<Compacted, ServiceError> {
        let cutoff = now - jiff::SignedDuration::from_hours(24 * i64::from(keep_days));
        let mut done = Compacted {
            bytes_before: self.db_bytes()?,
            ..Compacted::default()
        };
        let mut batch = Batch::new();
        for key in self.store.keys(Table::Inbox)? {
            let ledger = self
                .store
                .get_json::<LedgerEntry>(Table::Ledger, [b"h:".as_slice(), &key].concat())
                .ok()
                .flatten();
            let handled = ledger.and_then(|l| l.at.parse::<jiff::Timestamp>().ok());
            if handled.is_some_and(|t| t < cutoff) {
                batch.remove(Table::Inbox, &key);
                done.dropped += 1;
                if done.dropped.is_multiple_of(GROUP) {
                    self.store.commit(std::mem::take(&mut batch))?;
                }
            } else {
                done.kept += 1;
            }
        }
        done.swept = self.sweep_joins(now, &mut batch)?;
        batch.put_json(Table::Meta, LAST_COMPACT, &now.as_second());
        self.store.commit(batch)?;
        // Outside a poll no commit is in flight: the store is not shared.
        std::sync::Arc::get_mut(&mut self.store)
            .ok_or_else(|| umpire_store::StoreError::Db("a commit is still in flight".into()))?
            .compact()?;
        done.bytes_after = self.db_bytes()?;
        Ok(done)
    }

    /// What a poll does after its work: [`Umpire::compact`] with the
    /// configured retention when the last compaction is `[retention]
    /// compact_every_days` old (never if 0). Quiet: what it did is logged,
    /// and an error is logged, never the poll's. The first poll that looks
    /// only notes the time, so a club's first compaction comes a period
    /// after it starts (or upgrades), not in the middle of its first poll.
    pub fn compact_when_due(&mut self, now: jiff::Timestamp) -> Option<Compacted> {
        let every = self.config.retention.compact_every_days;
        if every == 0 {
            return None;
        }
        let done = match self.compact_due(every, now) {
            Ok(false) => return None,
            Ok(true) => self.compact(self.config.retention.keep_mail_days, now),
            Err(e) => Err(e),
        };
        match done {
            Ok(c) => {
                tracing::info!(
                    dropped = c.dropped,
                    kept = c.kept,
                    swept = c.swept,
                    bytes_before = c.bytes_before,
                    bytes_after = c.bytes_after,
                    "compacted the database"
                );
                Some(c)
            }
            Err(e) => {
                tracing::error!("compacting the database failed: {e}");
                None
            }
        }
    }

    /// Is a compaction due, `every` days after the last? The first call notes
    /// the time and answers no.
    fn compact_due(&self, every: u32, now: jiff::Timestamp) -> Result<bool, ServiceError> {
        match self.last_compact()? {
            Some(last) => Ok(now.as_second() - last >= i64::from(every) * 86_400),
            None => {
                let mut batch = Batch::new();
                batch.put_json(Table::Meta, LAST_COMPACT, &now.as_second());
                self.store.commit(batch)?;
                Ok(false)
            }
        }
    }

    /// When the database was last compacted (or first looked at by a poll),
    /// in seconds since the epoch.
    pub fn last_compact(&self) -> Result<Option<i64>, ServiceError> {
        Ok(self.store.get_json(Table::Meta, LAST_COMPACT)?)
    }

    /// The retention as `umpire config check` shows it.
    pub fn retention_text(&self, now: jiff::Timestamp) -> String {
        let r = &self.config.retention;
        let kept = format!("raw mails kept {} days", r.keep_mail_days);
        if r.compact_every_days == 0 {
            return format!(
                "ok  {kept}; the poll never compacts the database (compact_every_days = 0: run umpire compact from cron)\n"
            );
        }
        let last = match self.last_compact() {
            Ok(Some(t)) => {
                let days = (now.as_second() - t).max(0) / 86_400;
                format!("last {days} days ago")
            }
            Ok(None) => "none yet".to_string(),
            Err(e) => format!("last unknown: {e}"),
        };
        format!(
            "ok  {kept}; the poll compacts the database every {} days ({last})\n",
            r.compact_every_days
        )
    }

    fn db_bytes(&self) -> Result<u64, ServiceError> {
        let path = self.dir.join(super::layout::DB).join(umpire_store::FILE);
        std::fs::metadata(&path)
            .map(|m| m.len())
            .map_err(|e| ServiceError::io(path.display().to_string(), e))
    }
}
