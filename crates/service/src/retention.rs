//! Retention and compaction (`umpire compact`): raw mails are kept for a
//! stated number of days, then dropped, and the database file gives its free
//! pages back. What a mail did stays in the ledger (so a second delivery of
//! it is still recognised) and every move stays in its game's record, signed:
//! the raw copy is only for an admin looking into a mail, and is not needed
//! to verify or replay anything. What strangers' joins left behind that can
//! no longer matter goes too (`Umpire::sweep_joins`).

use super::poll::LedgerEntry;
use super::{ServiceError, Umpire};
use umpire_store::{Batch, Table};

/// Raw mails removed per transaction: bounded memory and commit size.
const GROUP: usize = 1000;

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
        if !batch.is_empty() {
            self.store.commit(batch)?;
        }
        // Outside a poll no commit is in flight: the store is not shared.
        std::sync::Arc::get_mut(&mut self.store)
            .ok_or_else(|| umpire_store::StoreError::Db("a commit is still in flight".into()))?
            .compact()?;
        done.bytes_after = self.db_bytes()?;
        Ok(done)
    }

    fn db_bytes(&self) -> Result<u64, ServiceError> {
        let path = self.dir.join(super::layout::DB).join(umpire_store::FILE);
        std::fs::metadata(&path)
            .map(|m| m.len())
            .map_err(|e| ServiceError::io(path.display().to_string(), e))
    }
}
