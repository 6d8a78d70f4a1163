//! The umpire at work: one poll cycle (intake → authenticate → adjudicate →
//! record → render → deliver), game creation, the outbox, and the embedded
//! demo. Built on `mail`, `store`, `render`, `games` and `core`.

pub mod admin;
pub mod commands;
mod committer;
pub mod compose;
/// The data directory's configuration, `umpire.toml` (the `umpire-config` crate).
pub use umpire_config as config;
pub mod deadlines;
mod decide;
pub mod demo;
pub mod games;
pub mod gzip;
pub mod outbox;
pub mod picture;
pub mod poll;
pub mod press;
mod result_text;
pub mod retention;
mod seal;
pub mod seats;
pub mod segments;
pub mod site;
pub mod transports;
pub mod upgrade;

use config::Config;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use umpire_core::game::Game;
use umpire_core::sig::SecretKey;
use umpire_render::templates::Templates;
use umpire_store::Store;

/// The service failed.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error(transparent)]
    Config(#[from] config::ConfigError),
    #[error(transparent)]
    Store(#[from] umpire_store::StoreError),
    #[error(transparent)]
    Mail(#[from] umpire_mail::MailError),
    #[error(transparent)]
    Template(#[from] umpire_render::templates::TemplateError),
    #[error("the umpire's key {path}: {message}")]
    Key { path: String, message: String },
    #[error("{0}")]
    Game(String),
    #[error(transparent)]
    Id(#[from] umpire_core::movefile::IdError),
    #[error("{what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    #[error("another umpire process holds {0}; try again when it has finished")]
    Busy(String),
    #[error("{0}")]
    Worker(String),
    /// A side's or an observer's mail address (`who`) is not usable.
    #[error("{who}: {source}")]
    Address {
        who: String,
        #[source]
        source: umpire_mail::mime::AddressError,
    },
    /// A game's id is a name the public pages use.
    #[error(transparent)]
    SiteId(#[from] site::SiteIdError),
    /// A new game's opening or deal does not start it.
    #[error(transparent)]
    Create(Box<umpire_core::game::StepError>),
    /// The admin's act cannot be carried out in game `game`.
    #[error("game {game}: {source}")]
    Admin {
        game: String,
        #[source]
        source: umpire_core::game::AdminError,
    },
    /// Game `game` cannot move on to the umpire's version of its ruleset.
    #[error("game {game}: {source}")]
    Upgrade {
        game: String,
        #[source]
        source: Box<umpire_core::game::UpgradeError>,
    },
    /// Game `game`'s record does not replay.
    #[error("game {game}: {source}")]
    Replay {
        game: String,
        #[source]
        source: umpire_core::game::ReplayError,
    },
    /// A new dice chain cannot be committed.
    #[error(transparent)]
    Recommit(#[from] umpire_core::game::RecommitError),
}

impl ServiceError {
    fn io(what: impl Into<String>, source: std::io::Error) -> ServiceError {
        ServiceError::Io {
            what: what.into(),
            source,
        }
    }
}

/// The data directory's layout.
pub mod layout {
    /// The database folder (the store's one file lives inside).
    pub const DB: &str = "db";
    /// The umpire's lock file (held during a poll).
    pub const LOCK: &str = "umpire.lock";
    /// Club template overrides.
    pub const TEMPLATES: &str = "templates";
}

/// Most replayed games `umpire run` keeps cached from one cycle to the next:
/// a club's games in play fit, and memory stays bounded however many games
/// the data directory holds (each dropped game replays when next needed).
pub const CACHED_GAMES: usize = 256;

/// The umpire of one data directory.
pub struct Umpire {
    dir: PathBuf,
    config: Config,
    /// Shared with the poll's commit worker (`poll::InFlight`).
    store: std::sync::Arc<Store>,
    templates: Templates,
    /// Shared with the poll's sealing worker (`seal::Sealer`).
    key: std::sync::Arc<SecretKey>,
    games: BTreeMap<String, Game>,
    /// When each cached game was last asked for (a count of loads), so a
    /// long-running umpire keeps the games in play and drops the others
    /// (`Umpire::trim_cache`).
    used: BTreeMap<String, u64>,
    /// The count of game loads so far (the clock of `used`).
    loads: u64,
    /// Dice secrets, rebuilt once per process (a walk down each chain).
    chains: BTreeMap<String, umpire_core::game::Secrets>,
    /// Chain caches rebuilt in this process, to join the next commit
    /// (`Umpire::cache_chains`).
    chain_writes: BTreeMap<String, Vec<u8>>,
    /// Writes of mails processed but not yet committed (group commit).
    pending: umpire_store::Batch,
    /// Mails to mark done once `pending` is committed.
    pending_done: Vec<String>,
    /// Games whose cached state is ahead of the store until `pending` commits.
    pending_games: std::collections::BTreeSet<String>,
    /// The group the poll's commit worker is making durable while the next
    /// group is adjudicated; settled before the next commit and at the end
    /// of every poll.
    in_flight: Option<poll::InFlight>,
    /// What each mail composed but not yet queued gives its side (by outbox key).
    marks: std::sync::Mutex<BTreeMap<String, segments::Mark>>,
    /// Rulesets built once per process, by name, with the club data files they
    /// were built from (a changed file builds the ruleset again).
    rulesets: std::sync::Mutex<BTreeMap<String, games::CachedRuleset>>,
    /// Who plays in which running game, by lower-case address: built once per
    /// poll when a mail needs it, so a flood of bad mails costs one scan of the
    /// games, not one per mail.
    players: std::sync::Mutex<Option<poll::Players>>,
    /// The last map pictures drawn, by the digest of their SVG: sides that see
    /// the same board (every side of a game without hidden information, and
    /// its observers) share one raster instead of drawing it once each.
    pictures: picture::Recent,
    /// Set by a signal: finish the current mail and stop.
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The signatures of the mails of the poll's current fetch, checked by
    /// its read-ahead worker (`poll::read_ahead`) while the mails are
    /// adjudicated one by one.
    read_ahead: Option<std::sync::Arc<umpire_core::sig::Prechecked>>,
    /// The same fetch's mails as that worker read them, by mailbox id, for
    /// the adjudication to take instead of reading each again.
    read_mails: Option<std::sync::Arc<poll::ReadMails>>,
    /// The worker signing and writing the poll's mails meanwhile.
    sealer: Option<seal::Sealer>,
    /// The worker committing the fetch's groups of mails.
    committer: Option<committer::Committer>,
    /// For tests: a fault injected into the handling of each mail.
    fault: Option<poll::Fault>,
}

impl Umpire {
    /// Creates a data directory on the embedded defaults: `umpire.toml`, the
    /// umpire's key pair, the Maildir and the outbox. Existing files are kept.
    pub fn init(dir: &Path, address: &str) -> Result<Vec<String>, ServiceError> {
        let mut made = Vec::new();
        std::fs::create_dir_all(dir)
            .map_err(|e| ServiceError::io(format!("creating {}", dir.display()), e))?;
        let cfg_path = dir.join(config::FILE);
        if !cfg_path.exists() {
            std::fs::write(&cfg_path, Config::default_text(address))
                .map_err(|e| ServiceError::io(format!("writing {}", cfg_path.display()), e))?;
            made.push(cfg_path.display().to_string());
        }
        let config = Config::load(dir)?;
        let key_path = dir.join(&config.umpire.key);
        if !key_path.exists() {
            let key =
                SecretKey::generate(&config.umpire.address).map_err(|e| ServiceError::Key {
                    path: key_path.display().to_string(),
                    message: e.to_string(),
                })?;
            write_private(&key_path, &key)?;
            let pub_path = key_path.with_extension("key.pub");
            std::fs::write(&pub_path, format!("{}\n", key.public_line()))
                .map_err(|e| ServiceError::io(format!("writing {}", pub_path.display()), e))?;
            made.push(key_path.display().to_string());
        }
        umpire_mail::maildir::Maildir::open(&dir.join(&config.intake.maildir))?;
        umpire_mail::outbox::FileOutbox::open(&dir.join(&config.delivery.outbox))?;
        Ok(made)
    }

    /// Opens an initialised data directory.
    pub fn open(dir: &Path) -> Result<Umpire, ServiceError> {
        let config = Config::load(dir)?;
        let key_path = dir.join(&config.umpire.key);
        let text = std::fs::read_to_string(&key_path).map_err(|e| ServiceError::Key {
            path: key_path.display().to_string(),
            message: format!("{e} (run `umpire init` first)"),
        })?;
        let key = SecretKey::parse(&text).map_err(|e| ServiceError::Key {
            path: key_path.display().to_string(),
            message: e.to_string(),
        })?;
        let mut store = Store::open(&dir.join(layout::DB))?;
        index_deadlines(&mut store, &config)?;
        let templates = Templates::load(Some(&dir.join(layout::TEMPLATES)))?;
        Ok(Umpire {
            dir: dir.to_path_buf(),
            config,
            store: std::sync::Arc::new(store),
            templates,
            key: std::sync::Arc::new(key),
            games: BTreeMap::new(),
            used: BTreeMap::new(),
            loads: 0,
            chains: BTreeMap::new(),
            chain_writes: BTreeMap::new(),
            pending: umpire_store::Batch::new(),
            pending_done: Vec::new(),
            pending_games: Default::default(),
            in_flight: None,
            read_ahead: None,
            read_mails: None,
            sealer: None,
            committer: None,
            marks: Default::default(),
            rulesets: Default::default(),
            players: Default::default(),
            pictures: Default::default(),
            stop: None,
            fault: None,
        })
    }

    /// For tests: `fault` is called with each mail a poll has decided,
    /// before its writes join the group (a panicking hook stands for a bug
    /// anywhere in handling a mail).
    #[doc(hidden)]
    pub fn inject_fault(&mut self, fault: Option<poll::Fault>) {
        self.fault = fault;
    }

    /// A flag that, once set, ends a poll after the mail in hand.
    pub fn set_stop(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.stop = Some(flag);
    }

    pub(crate) fn stopping(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The data directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Raw bytes at `key`, as the store will hold them once pending and
    /// in-flight writes commit.
    pub(crate) fn read(
        &self,
        table: umpire_store::Table,
        key: impl AsRef<[u8]>,
    ) -> Result<Option<Vec<u8>>, ServiceError> {
        let key = key.as_ref();
        let in_flight = self.in_flight.as_ref().map(|f| f.writes());
        match (self.pending.lookup(table, key))
            .or_else(|| in_flight.and_then(|b| b.lookup(table, key)))
        {
            Some(v) => Ok(v.map(<[u8]>::to_vec)),
            None => Ok(self.store.get(table, key)?),
        }
    }

    /// The JSON value at `key`, pending writes included.
    pub(crate) fn read_json<T: serde::de::DeserializeOwned>(
        &self,
        table: umpire_store::Table,
        key: impl AsRef<[u8]>,
    ) -> Result<Option<T>, ServiceError> {
        let key = key.as_ref();
        match self.read(table, key)? {
            None => Ok(None),
            Some(v) => serde_json::from_slice(&v).map(Some).map_err(|e| {
                ServiceError::Store(umpire_store::StoreError::Corrupt {
                    what: format!("{table:?} {}", String::from_utf8_lossy(key)),
                    message: e.to_string(),
                })
            }),
        }
    }

    /// The umpire's signature over a record export (`RESULT_NAMESPACE`),
    /// as the `record.txt.sig` of a result mail carries it.
    pub fn sign_result(&self, text: &[u8]) -> Result<String, ServiceError> {
        self.key
            .sign(umpire_core::sig::RESULT_NAMESPACE, text)
            .map_err(|e| ServiceError::Game(format!("signing the record: {e}")))
    }

    /// The umpire's public key line.
    pub fn public_key(&self) -> String {
        self.key.public_line()
    }

    /// A path inside the data directory.
    pub fn path(&self, rel: &Path) -> PathBuf {
        self.dir.join(rel)
    }

    /// Holds the data directory's lock for a poll. Waits up to `wait` for a
    /// running poll to finish, then gives up with [`ServiceError::Busy`].
    pub fn lock(dir: &Path, wait: std::time::Duration) -> Result<DirLock, ServiceError> {
        let path = dir.join(layout::LOCK);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| ServiceError::io(format!("opening {}", path.display()), e))?;
        let start = std::time::Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(DirLock { _file: file }),
                Err(std::fs::TryLockError::WouldBlock) if start.elapsed() < wait => {
                    std::thread::sleep(std::time::Duration::from_millis(100))
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(ServiceError::Busy(path.display().to_string()));
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(ServiceError::io(format!("locking {}", path.display()), e));
                }
            }
        }
    }
}

/// The store's key naming the default deadline policy the wake index was
/// built with.
const WAKE_POLICY_KEY: &str = "wake-policy";

/// Keeps the store's wake index (when each game's deadlines next need a look)
/// over the club's default deadlines; rebuilds it, once, when it was built
/// under another default (the club changed `[deadlines]`) or never built (a
/// data directory from before the index).
fn index_deadlines(store: &mut Store, config: &Config) -> Result<(), ServiceError> {
    use umpire_store::{Batch, Table};
    store.set_wake(deadlines::wake_fn(config.deadlines.clone()));
    let policy = serde_json::to_string(&config.deadlines).unwrap_or_default();
    if store
        .get_json::<String>(Table::Meta, WAKE_POLICY_KEY)?
        .as_deref()
        == Some(&policy)
    {
        return Ok(());
    }
    let n = store.reindex()?;
    tracing::info!(games = n, "deadline index built");
    let mut b = Batch::new();
    b.put_json(Table::Meta, WAKE_POLICY_KEY, &policy);
    store.commit(b)?;
    Ok(())
}

/// The data directory's lock (an OS file lock); released on drop, and by the
/// OS if the process dies.
pub struct DirLock {
    _file: std::fs::File,
}

/// Writes a private key readable by the owner only.
pub fn write_private(path: &Path, key: &SecretKey) -> Result<(), ServiceError> {
    let text = key.to_openssh().map_err(|e| ServiceError::Key {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    #[cfg(unix)]
    {
        use std::io::Write;
        use std::os::unix::fs::OpenOptionsExt;
        let mut f = std::fs::OpenOptions::new()
            .create_new(true)
            .write(true)
            .mode(0o600)
            .open(path)
            .map_err(|e| ServiceError::io(format!("creating {}", path.display()), e))?;
        f.write_all(text.as_bytes())
            .map_err(|e| ServiceError::io(format!("writing {}", path.display()), e))?;
    }
    #[cfg(not(unix))]
    std::fs::write(path, text)
        .map_err(|e| ServiceError::io(format!("writing {}", path.display()), e))?;
    Ok(())
}
