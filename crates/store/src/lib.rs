//! The database: redb, behind this one module. It keeps each game's record
//! entries, the umpire's dice secrets, per-game metadata, the ledger of
//! processed mails, the raw mails themselves, and the outbox.
//!
//! Everything one mail causes is written by one [`Batch`] in one transaction
//! and flushed before the mail is marked done, so a crash at any point leaves
//! either all of it or none of it.

use redb::{ReadableDatabase, ReadableTable};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::path::Path;
use umpire_core::hash::Digest;
use umpire_core::record::{Entry, Record, RecordError};

/// The store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Db(String),
    #[error("the database at {path} is in use or damaged: {message}")]
    Open { path: String, message: String },
    #[error("stored {what} does not read: {message}")]
    Corrupt { what: String, message: String },
    #[error("game {0} is not in the store")]
    NoGame(String),
    #[error("{0:?} cannot be a game id in the store (it holds a NUL byte)")]
    BadId(String),
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// The tables ("trees").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    /// game id → service metadata (JSON).
    Games,
    /// game id ‖ 0 ‖ seq (8 bytes BE) → record entry (JSON). Game ids never
    /// hold a NUL byte (see [`id_fits`]), so one game's keys are never a
    /// prefix of another's.
    Entries,
    /// game id → dice chain secret (JSON).
    Secrets,
    /// `h:` content hash or `m:` Message-ID → what became of a mail (JSON).
    Ledger,
    /// content hash → the raw mail as received.
    Inbox,
    /// outbox key → an outgoing mail and its delivery state (JSON).
    Outbox,
    /// small named values: schema version, rate limits.
    Meta,
    /// game id ‖ 0 ‖ side name → the last record entry mailed to that side
    /// (JSON integer): where its next result mail's segment starts.
    Sent,
    /// The wake index: wake time (8 bytes, [`time_key`]) ‖ game id → nothing.
    /// Derived from `Games` by the [`WakeFn`] at every commit, in the same
    /// transaction: the games something may be due in at a time are one range.
    Wake,
    /// game id → its key in `Wake` (the time's 8 bytes): where to remove it
    /// when the game's metadata changes.
    WakeOf,
    /// game id → a cache of its dice chains' checkpoints (binary, tagged,
    /// `core::game::Secrets::cache_bytes`): saves walking each chain once
    /// per process. Derived from `Secrets`; checked on every read and
    /// rebuilt when it does not fit.
    Chains,
    /// game id → the snapshot of the game's head (binary, checksummed,
    /// `core::game::Game::snapshot`): a fresh process goes on from it
    /// instead of replaying the record. Written in the transaction that
    /// appends the entries it follows; one a game, the head's only. It
    /// holds the full state, hidden parts too: it never leaves the store.
    /// Checked against the head's recorded state on every read, and
    /// ignored (the record replayed) when it does not hold.
    Heads,
}

const TABLES: [(Table, &str); 12] = [
    (Table::Games, "games"),
    (Table::Entries, "entries"),
    (Table::Secrets, "secrets"),
    (Table::Ledger, "ledger"),
    (Table::Inbox, "inbox"),
    (Table::Outbox, "outbox"),
    (Table::Meta, "meta"),
    (Table::Sent, "sent"),
    (Table::Wake, "wake"),
    (Table::WakeOf, "wake-of"),
    (Table::Chains, "chains"),
    (Table::Heads, "heads"),
];

/// When a game (its id and `Games` value) next needs its deadlines checked:
/// `None` for never (finished, paused, nothing awaited). The service owns
/// the metadata's meaning; the store only keeps the index exact.
pub type WakeFn = Box<dyn Fn(&str, &[u8]) -> Option<i64> + Send + Sync>;

/// A time as an index key: big-endian with the sign bit flipped, so keys sort
/// as the times do (negative times included).
pub fn time_key(t: i64) -> [u8; 8] {
    ((t as u64) ^ (1 << 63)).to_be_bytes()
}

/// Writes to apply together.
#[derive(Debug, Default)]
pub struct Batch {
    ops: Vec<(Table, Vec<u8>, Option<Vec<u8>>)>,
    /// A game id that cannot be a key: the commit refuses the batch.
    bad_id: Option<String>,
}

/// Can `game` be a game id in the store? The entry keys separate the id from
/// the sequence number by a NUL byte, which no id may hold. (Ids are checked
/// more strictly where they come in; this is the store's own guard.)
pub fn id_fits(game: &str) -> bool {
    !game.is_empty() && !game.as_bytes().contains(&0)
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Sets `key` to raw bytes.
    pub fn put(&mut self, table: Table, key: impl AsRef<[u8]>, value: Vec<u8>) {
        self.ops.push((table, key.as_ref().to_vec(), Some(value)));
    }

    /// Sets `key` to a value as JSON.
    pub fn put_json<T: Serialize>(&mut self, table: Table, key: impl AsRef<[u8]>, value: &T) {
        // Our stored types are plain structs of strings and integers.
        let bytes = serde_json::to_vec(value).unwrap_or_default();
        self.put(table, key, bytes);
    }

    /// Removes `key`.
    pub fn remove(&mut self, table: Table, key: impl AsRef<[u8]>) {
        self.ops.push((table, key.as_ref().to_vec(), None));
    }

    /// Appends record entries of a game.
    pub fn put_entries(&mut self, game: &str, entries: &[Entry]) {
        if !id_fits(game) {
            self.bad_id = Some(game.to_string());
            return;
        }
        for e in entries {
            self.put_json(Table::Entries, entry_key(game, e.seq), e);
        }
    }

    /// Appends a game's entries from `len` on, with the snapshot of its new
    /// head ([`Table::Heads`]; removed where the game keeps none), in the
    /// same transaction.
    pub fn put_game(&mut self, id: &str, game: &umpire_core::game::Game, len: usize) {
        self.put_entries(id, game.entries_since(len));
        match game.snapshot() {
            Some(s) => self.put(Table::Heads, id, s),
            None => self.remove(Table::Heads, id),
        }
    }

    /// The value this batch would leave at `key`: `Some(None)` if it removes
    /// it, `None` if the batch does not touch it.
    pub fn lookup(&self, table: Table, key: &[u8]) -> Option<Option<&[u8]>> {
        self.ops
            .iter()
            .rev()
            .find(|(t, k, _)| *t == table && k.as_slice() == key)
            .map(|(_, _, v)| v.as_deref())
    }

    /// The game id that makes this batch unwritable, if any.
    pub fn bad_id(&self) -> Option<&str> {
        self.bad_id.as_deref()
    }

    /// Nothing to write?
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// Adds another batch's writes after this one's.
    pub fn extend(&mut self, other: Batch) {
        self.ops.extend(other.ops);
        if self.bad_id.is_none() {
            self.bad_id = other.bad_id;
        }
    }
}

/// Key-value pairs as read from a table.
pub type Pairs = Vec<(Vec<u8>, Vec<u8>)>;

/// The key of entry `seq` of `game`.
pub fn entry_key(game: &str, seq: u64) -> Vec<u8> {
    let mut k = game.as_bytes().to_vec();
    k.push(0);
    k.extend_from_slice(&seq.to_be_bytes());
    k
}

/// The key of a game in the wake index.
fn wake_key(t: i64, game: &str) -> Vec<u8> {
    let mut k = time_key(t).to_vec();
    k.extend_from_slice(game.as_bytes());
    k
}

/// The database file inside the store's folder.
pub const FILE: &str = "umpire.redb";

fn db<E: std::fmt::Display>(e: E) -> StoreError {
    StoreError::Db(e.to_string())
}

type Def = redb::TableDefinition<'static, &'static [u8], &'static [u8]>;

fn def(t: Table) -> Def {
    let name = TABLES
        .iter()
        .find(|(x, _)| *x == t)
        .map_or("meta", |(_, n)| *n);
    redb::TableDefinition::new(name)
}

/// The most memory the database keeps for the pages it has read and those
/// written but not yet committed: more than one commit group needs. It was
/// 64 MiB, most of the peak of a poll among 10,000 games (each mail reads a
/// game no other mail touches, so the pages read are seldom read again);
/// 16 MiB took that poll from about 100 to 90 MB, no slower (issue 13).
pub const CACHE_BYTES: usize = 16 << 20;

/// The redb database: one file, ACID transactions, each commit made durable
/// before it returns.
pub struct Store {
    db: redb::Database,
    wake: Option<WakeFn>,
}

impl Store {
    /// Opens (or creates) the database in folder `dir`.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        let open_err = |message: String| StoreError::Open {
            path: dir.display().to_string(),
            message,
        };
        std::fs::create_dir_all(dir).map_err(|e| open_err(e.to_string()))?;
        // redb caches the pages it touches up to 1 GiB by default, so the
        // memory of `umpire run` would grow with every game it ever read
        // (issue 13); the kernel's page cache still keeps the file warm.
        let db = redb::Builder::new()
            .set_cache_size(CACHE_BYTES)
            .create(dir.join(FILE))
            .map_err(|e| open_err(e.to_string()))?;
        // Every table exists from the start, so reads never meet a missing one.
        let tx = db.begin_write().map_err(db_err)?;
        for (t, _) in TABLES {
            tx.open_table(def(t)).map_err(db_err)?;
        }
        tx.commit().map_err(db_err)?;
        Ok(Store { db, wake: None })
    }

    /// Sets how a game's wake time is derived from its metadata; from now on
    /// every commit that writes `Games` keeps the wake index exact. Call
    /// [`Store::reindex`] when the function's meaning changed (a new default
    /// deadline policy) or the index was never built.
    pub fn set_wake(&mut self, f: WakeFn) {
        self.wake = Some(f);
    }

    /// Rebuilds the wake index from every game's metadata, in one transaction.
    pub fn reindex(&self) -> Result<usize, StoreError> {
        let Some(wake) = &self.wake else {
            return Ok(0);
        };
        let tx = self.db.begin_write().map_err(db)?;
        tx.delete_table(def(Table::Wake)).map_err(db)?;
        tx.delete_table(def(Table::WakeOf)).map_err(db)?;
        let mut n = 0;
        {
            let games = tx.open_table(def(Table::Games)).map_err(db)?;
            let mut idx = tx.open_table(def(Table::Wake)).map_err(db)?;
            let mut of = tx.open_table(def(Table::WakeOf)).map_err(db)?;
            for item in games.iter().map_err(db)? {
                let (k, v) = item.map_err(db)?;
                let id = String::from_utf8_lossy(k.value()).into_owned();
                if let Some(t) = wake(&id, v.value()) {
                    idx.insert(wake_key(t, &id).as_slice(), &[][..])
                        .map_err(db)?;
                    of.insert(id.as_bytes(), &time_key(t)[..]).map_err(db)?;
                    n += 1;
                }
            }
        }
        tx.commit().map_err(db)?;
        Ok(n)
    }

    /// The games whose wake time is at or before `t`, earliest first: the only
    /// ones a deadline check at `t` need look at.
    pub fn due(&self, t: i64) -> Result<Vec<String>, StoreError> {
        let tx = self.db.begin_read().map_err(db)?;
        let idx = tx.open_table(def(Table::Wake)).map_err(db)?;
        let hi = time_key(t.saturating_add(1));
        let mut out = Vec::new();
        for item in idx.range::<&[u8]>(..&hi[..]).map_err(db)? {
            let (k, _) = item.map_err(db)?;
            out.push(String::from_utf8_lossy(&k.value()[8..]).into_owned());
        }
        Ok(out)
    }

    /// A game's wake time as the index holds it.
    pub fn wake_of(&self, game: &str) -> Result<Option<i64>, StoreError> {
        Ok(self.get(Table::WakeOf, game)?.and_then(|v| {
            let b: [u8; 8] = v.as_slice().try_into().ok()?;
            Some((u64::from_be_bytes(b) ^ (1 << 63)) as i64)
        }))
    }

    /// Raw bytes at `key`.
    pub fn get(&self, table: Table, key: impl AsRef<[u8]>) -> Result<Option<Vec<u8>>, StoreError> {
        let tx = self.db.begin_read().map_err(db)?;
        let t = tx.open_table(def(table)).map_err(db)?;
        Ok(t.get(key.as_ref()).map_err(db)?.map(|v| v.value().to_vec()))
    }

    /// The JSON value at `key`.
    pub fn get_json<T: DeserializeOwned>(
        &self,
        table: Table,
        key: impl AsRef<[u8]>,
    ) -> Result<Option<T>, StoreError> {
        let key = key.as_ref();
        match self.get(table, key)? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(&v)
                .map(Some)
                .map_err(|e| StoreError::Corrupt {
                    what: format!("{table:?} {}", String::from_utf8_lossy(key)),
                    message: e.to_string(),
                }),
        }
    }

    /// Every key-value pair whose key starts with `prefix`, in key order.
    pub fn scan(&self, table: Table, prefix: impl AsRef<[u8]>) -> Result<Pairs, StoreError> {
        let prefix = prefix.as_ref();
        let tx = self.db.begin_read().map_err(db)?;
        let t = tx.open_table(def(table)).map_err(db)?;
        let mut out = Vec::new();
        for item in t.range::<&[u8]>(prefix..).map_err(db)? {
            let (k, v) = item.map_err(db)?;
            if !k.value().starts_with(prefix) {
                break;
            }
            out.push((k.value().to_vec(), v.value().to_vec()));
        }
        Ok(out)
    }

    /// Calls `f` with every key-value pair whose key starts with `prefix`,
    /// in key order, one at a time: [`Store::scan`] without holding them all.
    pub fn visit<E: From<StoreError>>(
        &self,
        table: Table,
        prefix: impl AsRef<[u8]>,
        mut f: impl FnMut(&[u8], &[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let prefix = prefix.as_ref();
        let tx = self.db.begin_read().map_err(db)?;
        let t = tx.open_table(def(table)).map_err(db)?;
        for item in t.range::<&[u8]>(prefix..).map_err(db)? {
            let (k, v) = item.map_err(db)?;
            if !k.value().starts_with(prefix) {
                break;
            }
            f(k.value(), v.value())?;
        }
        Ok(())
    }

    /// Every key of `table`, in key order, without reading the values.
    pub fn keys(&self, table: Table) -> Result<Vec<Vec<u8>>, StoreError> {
        let tx = self.db.begin_read().map_err(db)?;
        let t = tx.open_table(def(table)).map_err(db)?;
        let mut out = Vec::new();
        for item in t.iter().map_err(db)? {
            out.push(item.map_err(db)?.0.value().to_vec());
        }
        Ok(out)
    }

    /// Gives the file's free pages back to the file system (redb's
    /// compaction): the file shrinks to about its live data. Needs the store
    /// to itself (no reader or writer open), which the data directory's lock
    /// gives. True if anything moved.
    pub fn compact(&mut self) -> Result<bool, StoreError> {
        self.db.compact().map_err(db)
    }

    /// Applies a batch in one transaction and makes it durable.
    pub fn commit(&self, batch: impl std::borrow::Borrow<Batch>) -> Result<(), StoreError> {
        let batch = batch.borrow();
        if let Some(id) = &batch.bad_id {
            return Err(StoreError::BadId(id.clone()));
        }
        if batch.is_empty() {
            return Ok(());
        }
        let tx = self.db.begin_write().map_err(db)?;
        for (table, key, value) in &batch.ops {
            let mut t = tx.open_table(def(*table)).map_err(db)?;
            match value {
                Some(v) => {
                    t.insert(key.as_slice(), v.as_slice()).map_err(db)?;
                }
                None => {
                    t.remove(key.as_slice()).map_err(db)?;
                }
            }
            drop(t);
            if *table == Table::Games {
                self.rewake(&tx, key, value.as_deref())?;
            }
        }
        // Durability::Immediate (the default): flushed to disk before this returns.
        tx.commit().map_err(db)?;
        Ok(())
    }

    /// Moves a game's entry in the wake index to where its new metadata puts
    /// it (inside the transaction that writes the metadata).
    fn rewake(
        &self,
        tx: &redb::WriteTransaction,
        key: &[u8],
        value: Option<&[u8]>,
    ) -> Result<(), StoreError> {
        let Some(wake) = &self.wake else {
            return Ok(());
        };
        let id = String::from_utf8_lossy(key).into_owned();
        let mut idx = tx.open_table(def(Table::Wake)).map_err(db)?;
        let mut of = tx.open_table(def(Table::WakeOf)).map_err(db)?;
        let old = of.remove(key).map_err(db)?.map(|v| v.value().to_vec());
        if let Some(old) = old {
            let mut k = old;
            k.extend_from_slice(key);
            idx.remove(k.as_slice()).map_err(db)?;
        }
        if let Some(t) = value.and_then(|v| wake(&id, v)) {
            idx.insert(wake_key(t, &id).as_slice(), &[][..])
                .map_err(db)?;
            of.insert(key, &time_key(t)[..]).map_err(db)?;
        }
        Ok(())
    }

    /// The ids of every game, in order.
    pub fn game_ids(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .scan(Table::Games, b"")?
            .into_iter()
            .map(|(k, _)| String::from_utf8_lossy(&k).into_owned())
            .collect())
    }

    /// A game's record, checked link by link (each entry's hash taken as
    /// stored: it was taken or checked when the entry was appended, and a
    /// commit is whole or absent; see [`Record::from_stored`]).
    pub fn record(&self, game: &str) -> Result<Record, StoreError> {
        if !id_fits(game) {
            return Err(StoreError::NoGame(game.to_string()));
        }
        let mut prefix = game.as_bytes().to_vec();
        prefix.push(0);
        let mut entries = Vec::new();
        for (k, v) in self.scan(Table::Entries, &prefix)? {
            let e: Entry = serde_json::from_slice(&v).map_err(|e| StoreError::Corrupt {
                what: format!("entry {} of game {game}", String::from_utf8_lossy(&k)),
                message: e.to_string(),
            })?;
            entries.push(e);
        }
        if entries.is_empty() {
            return Err(StoreError::NoGame(game.to_string()));
        }
        Ok(Record::from_stored(entries)?)
    }

    /// The head hash of a game's record, if the game exists.
    pub fn head(&self, game: &str) -> Result<Option<Digest>, StoreError> {
        if !id_fits(game) {
            return Ok(None);
        }
        let mut lo = game.as_bytes().to_vec();
        lo.push(0);
        let mut hi = game.as_bytes().to_vec();
        hi.push(1);
        let tx = self.db.begin_read().map_err(db)?;
        let t = tx.open_table(def(Table::Entries)).map_err(db)?;
        let last = t
            .range::<&[u8]>(lo.as_slice()..hi.as_slice())
            .map_err(db)?
            .next_back();
        match last {
            None => Ok(None),
            Some(item) => {
                let (_, v) = item.map_err(db)?;
                let e: Entry =
                    serde_json::from_slice(v.value()).map_err(|e| StoreError::Corrupt {
                        what: format!("last entry of game {game}"),
                        message: e.to_string(),
                    })?;
                Ok(Some(e.hash))
            }
        }
    }
}

fn db_err<E: std::fmt::Display>(e: E) -> StoreError {
    db(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_commits_across_tables_and_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        {
            let s = Store::open(dir.path()).unwrap();
            let mut b = Batch::new();
            b.put(Table::Inbox, b"h1", b"raw".to_vec());
            b.put_json(Table::Ledger, b"h:h1", &"done");
            b.put_json(Table::Games, b"g1", &1u32);
            s.commit(b).unwrap();
        }
        let s = Store::open(dir.path()).unwrap();
        assert_eq!(s.get(Table::Inbox, b"h1").unwrap().unwrap(), b"raw");
        assert_eq!(
            s.get_json::<String>(Table::Ledger, b"h:h1")
                .unwrap()
                .unwrap(),
            "done"
        );
        assert_eq!(s.game_ids().unwrap(), vec!["g1".to_string()]);
    }

    #[test]
    fn an_id_with_a_nul_finds_no_game_and_cannot_be_written() {
        let dir = tempfile::tempdir().unwrap();
        let s = Store::open(dir.path()).unwrap();
        let o = umpire_core::record::Opening {
            format: umpire_core::record::FORMAT,
            game: "ff1".into(),
            ruleset: "freeform".into(),
            ruleset_version: 1,
            ruleset_data: None,
            scenario: "open".into(),
            options: Default::default(),
            sides: vec![],
            dice: umpire_core::dice::DiceChain::from_top(Digest([1; 32]), 4).commitment(),
            hidden: vec![],
            umpire: String::new(),
            at: String::new(),
        };
        let r = Record::open(o);
        let mut b = Batch::new();
        b.put_entries("ff1", r.entries());
        s.commit(b).unwrap();
        assert!(s.head("ff1").unwrap().is_some());
        // "ff1\0" would otherwise scan ff1's keys as its own.
        assert_eq!(s.head("ff1\0").unwrap(), None);
        assert!(matches!(s.record("ff1\0"), Err(StoreError::NoGame(_))));
        let mut b = Batch::new();
        b.put_entries("ff1\0", r.entries());
        assert!(matches!(s.commit(b), Err(StoreError::BadId(_))));
        assert_eq!(s.record("ff1").unwrap().len(), 1);
    }

    #[test]
    fn entry_keys_sort_by_game_then_seq() {
        assert!(entry_key("g", 2) < entry_key("g", 10));
        assert!(entry_key("g", u64::MAX) < entry_key("g1", 0));
    }
}
