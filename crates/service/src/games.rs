//! Creating games and keeping them: each game's metadata beside its record,
//! and replayed games cached for the length of a process.

use super::compose::Unsealed;
use super::{ServiceError, Umpire};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use umpire_core::dice::DEFAULT_CHAIN_LENGTH;
use umpire_core::game::{Game, ReplayMode};
use umpire_core::game::{Secrets, Stored, hidden_slots};
use umpire_core::hash::Digest;
use umpire_core::movefile::{check_game_id, check_side_name};
use umpire_core::record::{FORMAT, FORMAT_HIDDEN, Opening, SideDecl};
use umpire_core::ruleset::Setup;
use umpire_core::sig::PublicKey;
use umpire_store::{Batch, Table};

/// What the service keeps about a game besides its record.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct GameMeta {
    pub id: String,
    pub ruleset: String,
    pub created: String,
    /// Per side (by name): the time zone its deadlines are shown in.
    #[serde(default)]
    pub time_zones: BTreeMap<String, String>,
    /// Per side: away until this date (YYYY-MM-DD).
    #[serde(default)]
    pub away: BTreeMap<String, String>,
    /// Set once the game is over.
    #[serde(default)]
    pub finished: Option<String>,
    /// This game's deadlines (else the configuration's).
    #[serde(default)]
    pub deadlines: Option<crate::config::Deadlines>,
    /// Per awaited side: since when, and which reminders went out.
    #[serde(default)]
    pub waiting: BTreeMap<String, Waiting>,
    /// A new version of the ruleset whose replay of this game differs: the
    /// admin's to decide (`umpire upgrade`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upgrade: Option<crate::upgrade::PendingUpgrade>,
    /// Its page goes on the club's site (`umpire new --public`, `umpire site`).
    #[serde(default)]
    pub public: bool,
    /// Paused by the admin (`umpire admin pause`): deadlines stop, moves are refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paused: Option<crate::admin::Paused>,
    /// Addresses that get the public view of every result (`umpire admin observe`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub observers: Vec<String>,
    /// Per side: the address the admin gave it since the opening.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub addresses: BTreeMap<String, String>,
    /// Who decides a join for an open seat (the `seats` game option).
    #[serde(default, skip_serializing_if = "is_admin_rule")]
    pub seat_rule: crate::seats::SeatRule,
    /// The sides whose seats are open (kept with each seating, so the help
    /// mail lists open games without replaying them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open_seats: Vec<String>,
    /// Joins held for the admin (`umpire admin seats`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joins: Vec<crate::seats::HeldJoin>,
    /// What press the game allows (`--option press=...`); `None`: its
    /// ruleset's default (`press::PressOptions::default_for`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub press: Option<crate::press::PressOptions>,
}

fn is_admin_rule(r: &crate::seats::SeatRule) -> bool {
    *r == crate::seats::SeatRule::Admin
}

/// A side the game waits for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    /// The record entry that made the side owe this move.
    pub anchor: u64,
    /// When the umpire started waiting (seconds since the epoch).
    pub since: i64,
    /// Reminders sent, in hours before the deadline.
    #[serde(default)]
    pub reminded: Vec<u32>,
    /// The "deadline passed" notice went out.
    #[serde(default)]
    pub late: bool,
}

/// The umpire's secret for a game's dice.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Secret {
    pub top: Digest,
    pub length: u64,
    /// The position `k_0` stands for (0, or where a recommitted chain takes over).
    #[serde(default)]
    pub base: u64,
    /// For a game that hides something: the master secret of its hidden
    /// streams and sealed items' salts, and the number of hidden streams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub master: Option<Digest>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub slots: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Secret {
    fn from_stored(s: &Stored) -> Secret {
        Secret {
            top: s.top,
            length: s.length,
            base: s.base,
            master: s.master,
            slots: s.slots,
        }
    }

    fn stored(&self) -> Stored {
        Stored {
            top: self.top,
            length: self.length,
            base: self.base,
            master: self.master,
            slots: self.slots,
        }
    }
}

/// A game to create.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// Id; generated from the ruleset name and time if empty.
    pub id: String,
    pub ruleset: String,
    pub scenario: String,
    pub options: BTreeMap<String, String>,
    /// (name, email, OpenSSH public key line); an empty email and key
    /// leave the seat open for a player to take by mail (`service::seats`).
    pub sides: Vec<(String, String, String)>,
    /// Deadlines for this game (else the configuration's).
    pub deadlines: Option<crate::config::Deadlines>,
    /// Time zones by side name, for showing deadlines.
    pub time_zones: BTreeMap<String, String>,
}

/// The sides a new game declares, keys read; an empty key with an empty
/// address is an open seat, one without the other a mistake.
fn declared_sides(given: &[(String, String, String)]) -> Result<Vec<SideDecl>, ServiceError> {
    let mut sides = Vec::new();
    for (name, email, key) in given {
        let key = match (email.is_empty(), key.trim().is_empty()) {
            (true, true) => String::new(),
            (false, false) => PublicKey::parse(key)
                .map_err(|e| ServiceError::Game(format!("side {name}: {e}")))?
                .to_openssh(),
            _ => {
                return Err(ServiceError::Game(format!(
                    "side {name}: give both an address and a key, or neither for an open seat"
                )));
            }
        };
        sides.push(SideDecl {
            name: name.to_ascii_lowercase(),
            email: email.clone(),
            key,
        });
    }
    Ok(sides)
}

/// Checks what a game declares about itself before it reaches the store:
/// the id (a store key and a file name), each side's name and mail address.
fn check_declared(id: &str, sides: &[(String, String)]) -> Result<(), ServiceError> {
    check_game_id(id)?;
    for (name, email) in sides {
        check_side_name(name)?;
        if email.is_empty() {
            // An open seat: its address comes with the join that takes it.
            continue;
        }
        umpire_mail::mime::check_address(email).map_err(|source| ServiceError::Address {
            who: format!("side {name}"),
            source,
        })?;
    }
    Ok(())
}

impl Umpire {
    /// Creates a game: the opening entry, the dice secret, and the opening mail
    /// to every side, all in one transaction. Returns the game id.
    pub fn create_game(
        &mut self,
        new: NewGame,
        now: jiff::Timestamp,
    ) -> Result<String, ServiceError> {
        self.create_game_seeded(new, now, None)
    }

    /// For benchmarks: [`Umpire::create_game`] with its dice secrets derived
    /// from `seed` instead of drawn from the operating system, so that the
    /// same moves roll the same in every run. Anyone who knows the seed
    /// foretells every roll: never for a game that is played.
    #[doc(hidden)]
    pub fn create_game_seeded(
        &mut self,
        new: NewGame,
        now: jiff::Timestamp,
        seed: Option<[u8; 32]>,
    ) -> Result<String, ServiceError> {
        let ruleset = self.ruleset(&new.ruleset)?;
        let info = ruleset.info();
        // The press options are the umpire's, not the ruleset's.
        let mut new = new;
        let press = crate::press::PressOptions::take_from(&mut new.options, &info.name)?;
        let id = if new.id.is_empty() {
            format!("{}-{}", info.name, now.as_second() % 1_000_000)
        } else {
            new.id.clone()
        };
        let declared: Vec<(String, String)> = new
            .sides
            .iter()
            .map(|(n, e, _)| (n.clone(), e.clone()))
            .collect();
        check_declared(&id, &declared)?;
        // A game made public later gets a folder of the site named by its id.
        super::site::check_site_id(&id)?;
        if self.store.head(&id)?.is_some() {
            return Err(ServiceError::Game(format!("there is already a game {id}")));
        }
        let sides = declared_sides(&new.sides)?;
        // `seats` is the umpire's option, not the ruleset's.
        let mut options = new.options.clone();
        let seat_rule = match options.remove(crate::seats::SEATS_OPTION) {
            Some(v) => crate::seats::SeatRule::parse(&v)?,
            None => crate::seats::SeatRule::Admin,
        };
        let setup = Setup {
            scenario: new.scenario.clone(),
            options: options.clone(),
            sides: sides.iter().map(|s| s.name.clone()).collect(),
        };
        let slots = hidden_slots(ruleset.as_ref(), &setup);
        let (secrets, stored) = match seed {
            None => Secrets::generate(DEFAULT_CHAIN_LENGTH, 0, slots)
                .map_err(|e| ServiceError::Game(e.to_string()))?,
            Some(seed) => {
                let part = |n: u64| {
                    umpire_core::hash::Tagged::new("umpire-bench-secret")
                        .field(&seed)
                        .u64(n)
                        .finish()
                };
                let stored = Stored {
                    top: part(0),
                    length: DEFAULT_CHAIN_LENGTH,
                    base: 0,
                    master: (slots > 0).then(|| part(1)),
                    slots,
                };
                (stored.secrets(), stored)
            }
        };
        let at = rfc3339(now);
        let opening = Opening {
            format: if slots > 0 { FORMAT_HIDDEN } else { FORMAT },
            game: id.clone(),
            ruleset: info.name.clone(),
            ruleset_version: info.version,
            ruleset_data: info.data,
            scenario: new.scenario.clone(),
            options,
            sides,
            dice: secrets.chain.commitment(),
            hidden: secrets.hidden_commitments(),
            umpire: self.key.public().to_openssh(),
            at: at.clone(),
        };
        let game =
            Game::create(ruleset, opening, &secrets).map_err(|e| ServiceError::Create(e.error))?;
        for (side, tz) in &new.time_zones {
            if game.side(side).is_none() {
                return Err(ServiceError::Game(format!(
                    "--tz {side}: the game has no such side"
                )));
            }
            if jiff::tz::TimeZone::get(tz).is_err() {
                return Err(ServiceError::Game(format!(
                    "--tz {side}={tz}: not a known time zone"
                )));
            }
        }
        let mut meta = GameMeta {
            id: id.clone(),
            ruleset: info.name.clone(),
            created: at,
            deadlines: new.deadlines.clone(),
            time_zones: new.time_zones.clone(),
            seat_rule,
            open_seats: crate::seats::open_names(&game),
            press: Some(press),
            ..Default::default()
        };
        meta.refresh_waiting(&game, now);
        let mails = self.opening_mails(&game, &meta, &secrets.chain, now)?;
        let mut batch = Batch::new();
        batch.put_game(&id, &game, 0);
        batch.put_json(Table::Secrets, &id, &Secret::from_stored(&stored));
        batch.put(Table::Chains, &id, secrets.cache_bytes(&stored));
        batch.put_json(Table::Games, &id, &meta);
        self.queue(&mut batch, &mails, now);
        self.store.commit(batch)?;
        self.games.insert(id.clone(), game);
        self.chains.insert(id.clone(), secrets);
        Ok(id)
    }

    /// The version the ruleset `name` over this umpire's data files would
    /// report, read off the files without building it: a poll's upgrade
    /// check asks it of every ruleset, and parsing every game's data to
    /// learn it cost most of an idle poll. A club's replacement files are
    /// hashed as they are; files that do not load fail when a game of
    /// theirs is next checked or played.
    pub fn ruleset_version(
        &self,
        name: &str,
    ) -> Result<umpire_core::record::RulesetVersion, ServiceError> {
        let files = read_data_files(&self.dir.join("games").join(name), name)?;
        match umpire_games::version(name, &files) {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(ServiceError::Game(format!("no ruleset {name:?}"))),
            Err(problems) => Err(ServiceError::Game(format!(
                "the {name} data files: {problems}"
            ))),
        }
    }

    /// The ruleset `name`, over the club's own data files where
    /// `DATA_DIR/games/NAME/` holds any (else the embedded data).
    pub fn ruleset(
        &self,
        name: &str,
    ) -> Result<std::sync::Arc<dyn umpire_core::ruleset::DynRuleset>, ServiceError> {
        let files = read_data_files(&self.dir.join("games").join(name), name)?;
        // Building a ruleset parses and checks its data: once per process and
        // data, not once per game loaded (10,000 games would parse 10,000 times).
        let mut cache = self.rulesets.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(c) = cache.get(name).filter(|c| c.files == files) {
            return Ok(c.ruleset.clone());
        }
        match umpire_games::with_data(name, &files) {
            Ok(Some(r)) => {
                cache.insert(
                    name.to_string(),
                    CachedRuleset {
                        files,
                        ruleset: r.clone(),
                    },
                );
                Ok(r)
            }
            Ok(None) => {
                let names: Vec<String> =
                    umpire_games::all().iter().map(|r| r.info().name).collect();
                Err(ServiceError::Game(format!(
                    "no ruleset {name:?}; known: {}",
                    names.join(", ")
                )))
            }
            Err(problems) => Err(ServiceError::Game(format!(
                "the {name} data files in {} are not valid: {}",
                self.dir.join("games").join(name).display(),
                problems.join("; ")
            ))),
        }
    }

    /// A game, replayed from the store (and cached).
    pub fn game(&mut self, id: &str) -> Result<&Game, ServiceError> {
        self.load(id)?;
        self.games
            .get(id)
            .ok_or_else(|| ServiceError::Game(format!("no game {id}")))
    }

    pub(super) fn load(&mut self, id: &str) -> Result<(), ServiceError> {
        self.loads += 1;
        let tick = self.loads;
        if self.games.contains_key(id) {
            // Also games cached by creation or import, not by a load.
            self.used.insert(id.to_string(), tick);
            return Ok(());
        }
        if self.ahead_of_store(id) {
            // The store is behind this game until its group commits: a
            // replay now would adjudicate on an old state.
            return Err(umpire_store::StoreError::Db(format!(
                "game {id} was dropped from the cache before its writes were committed"
            ))
            .into());
        }
        let record = self.store.record(id)?;
        let opening = record
            .opening()
            .ok_or_else(|| ServiceError::Game(format!("game {id} has no opening")))?;
        let ruleset = self.ruleset(&opening.ruleset)?;
        let game = self.restore_or_replay(id, ruleset, record)?;
        self.games.insert(id.to_string(), game);
        self.used.insert(id.to_string(), tick);
        Ok(())
    }

    /// The game of the store's `record`: from the snapshot of its head
    /// where the store holds one that matches it (`Game::restore`, which
    /// checks it against the head's recorded state), else replayed. The
    /// store's own record: its head's state hash is checked, not every
    /// entry's (each was checked when it was appended).
    fn restore_or_replay(
        &self,
        id: &str,
        ruleset: std::sync::Arc<dyn umpire_core::ruleset::DynRuleset>,
        record: umpire_core::record::Record,
    ) -> Result<Game, ServiceError> {
        let record = match self.store.get(Table::Heads, id)? {
            Some(snapshot) => match Game::restore(ruleset.clone(), record, &snapshot) {
                Ok(game) => {
                    // Every test that loads a game checks the restore
                    // against the replay it stands in for.
                    #[cfg(debug_assertions)]
                    if let Err(e) = game.differs_from_replayed() {
                        panic!("game {id}: the head's snapshot is not the replayed game: {e}");
                    }
                    return Ok(game);
                }
                Err((record, miss)) => {
                    tracing::debug!(game = id, "replaying the record: {miss}");
                    record
                }
            },
            None => record,
        };
        let (game, _) = Game::replay_owned(ruleset, record, ReplayMode::Stored)
            .map_err(|e| ServiceError::Game(format!("game {id} does not replay: {e}")))?;
        Ok(game)
    }

    /// A game with the report of every entry (a game page lists them all):
    /// [`Umpire::game`], replayed again if it was restored from the store's
    /// snapshot, which keeps the last action's report only.
    pub(super) fn load_every_report(&mut self, id: &str) -> Result<(), ServiceError> {
        self.load(id)?;
        if self.games.get(id).is_some_and(|g| !g.has_every_report()) && !self.ahead_of_store(id) {
            let record = self.store.record(id)?;
            let name = record.opening().map(|o| o.ruleset.clone());
            let base = self.ruleset(&name.unwrap_or_default())?;
            let (game, _) = Game::replay_owned(base, record, ReplayMode::Stored)
                .map_err(|e| ServiceError::Game(format!("game {id} does not replay: {e}")))?;
            self.games.insert(id.to_string(), game);
        }
        Ok(())
    }

    /// Is `id`'s cached state ahead of the store, its writes pending or in
    /// flight? Such a game must stay cached until they commit.
    fn ahead_of_store(&self, id: &str) -> bool {
        self.pending_games.contains(id) || self.in_flight.as_ref().is_some_and(|f| f.holds_game(id))
    }

    /// Forgets cached games (after a failed commit the cache may be ahead of the store).
    pub(super) fn forget(&mut self, id: &str) {
        self.games.remove(id);
        self.chains.remove(id);
        self.used.remove(id);
    }

    /// Keeps at most `keep` replayed games cached, dropping those asked for
    /// least recently (never one whose state is ahead of the store), so the
    /// memory of `umpire run` follows the games in play, not every game it
    /// has touched since it started (issue 13). Returns how many it dropped.
    pub fn trim_cache(&mut self, keep: usize) -> usize {
        // A game cached without a load (created, imported) counts as oldest.
        let mut by_age: Vec<(u64, String)> = self
            .games
            .keys()
            .filter(|id| !self.ahead_of_store(id))
            .map(|id| (self.used.get(id).copied().unwrap_or(0), id.clone()))
            .collect();
        by_age.sort();
        let over = self.games.len().saturating_sub(keep).min(by_age.len());
        for (_, id) in &by_age[..over] {
            self.forget(id);
        }
        over
    }

    /// The games cached now, replayed.
    pub fn cached_games(&self) -> Vec<&str> {
        self.games.keys().map(String::as_str).collect()
    }

    /// The dice secrets of a game.
    pub(super) fn chain(&mut self, id: &str) -> Result<Secrets, ServiceError> {
        if let Some(c) = self.chains.get(id) {
            return Ok(c.clone());
        }
        let s: Secret = self.read_json(Table::Secrets, id)?.ok_or_else(|| {
            ServiceError::Game(format!("game {id} has no dice secret in the store"))
        })?;
        let stored = s.stored();
        self.load(id)?;
        let record = self.games[id].record();
        // The cached checkpoints save the walk down each chain (20,000 hashes
        // a chain); they are used only if their tag holds and they serve the
        // chains the record commits to, else rebuilt and cached again.
        let cached = self
            .read(Table::Chains, id)?
            .and_then(|b| Secrets::from_cache(&stored, &b))
            .filter(|c| c.fits(record));
        let c = match cached {
            Some(c) => c,
            None => {
                let c = stored.secrets();
                if !c.fits(record) {
                    return Err(ServiceError::Game(format!(
                        "game {id}: the stored dice secret is not the chain its record commits to"
                    )));
                }
                tracing::debug!(game = id, "dice chain cache rebuilt");
                self.chain_writes
                    .insert(id.to_string(), c.cache_bytes(&stored));
                c
            }
        };
        self.chains.insert(id.to_string(), c.clone());
        Ok(c)
    }

    /// Adds the chain caches rebuilt since the last call to `batch`.
    pub(super) fn cache_chains(&mut self, batch: &mut Batch) {
        for (id, bytes) in std::mem::take(&mut self.chain_writes) {
            batch.put(Table::Chains, &id, bytes);
        }
    }

    /// Publishes a new dice chain when the game's chain is spent, before any
    /// move can need it (the game must be loaded). The entry and the new secret
    /// join `batch`.
    pub(super) fn ensure_chain(
        &mut self,
        id: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<(), ServiceError> {
        let chain = self.chain(id)?;
        let next = self.game(id)?.next_position();
        if next <= chain.chain.last_position() || !self.games[id].unrevealed().is_empty() {
            return Ok(());
        }
        self.recommit(id, "the dice chain of this game is used up", now, batch)
    }

    /// Appends a recommit with a fresh secret; its entry and secret join `batch`.
    pub(super) fn recommit(
        &mut self,
        id: &str,
        reason: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<(), ServiceError> {
        self.recommit_by(id, reason, now, None, batch)
    }

    /// [`Umpire::recommit`], naming this umpire's key when it takes the game
    /// over from another.
    fn recommit_by(
        &mut self,
        id: &str,
        reason: &str,
        now: jiff::Timestamp,
        umpire: Option<String>,
        batch: &mut Batch,
    ) -> Result<(), ServiceError> {
        let base = self.game(id)?.next_position() - 1;
        let slots = if self.games[id].hides_information() {
            self.games[id].sides().len() + 1
        } else {
            0
        };
        let (fresh, stored) = Secrets::generate(DEFAULT_CHAIN_LENGTH, base, slots)
            .map_err(|e| ServiceError::Game(e.to_string()))?;
        let game = self
            .games
            .get_mut(id)
            .ok_or_else(|| ServiceError::Game(format!("no game {id}")))?;
        game.recommit_by(&fresh, reason, &rfc3339(now), umpire)?;
        batch.put_json(Table::Secrets, id, &Secret::from_stored(&stored));
        batch.put(Table::Chains, id, fresh.cache_bytes(&stored));
        self.chain_writes.remove(id);
        self.chains.insert(id.to_string(), fresh);
        tracing::info!(game = id, from = base + 1, "new dice chain committed");
        Ok(())
    }

    /// A game's metadata.
    pub fn meta(&self, id: &str) -> Result<GameMeta, ServiceError> {
        self.read_json(Table::Games, id)?
            .ok_or_else(|| ServiceError::Game(format!("no game {id}")))
    }

    /// Every game's id.
    pub fn game_ids(&self) -> Result<Vec<String>, ServiceError> {
        Ok(self.store.game_ids()?)
    }

    /// The exported record of a game.
    /// A game's record as text: the full record (the umpire's own, every
    /// opening), or the copy a side may hold.
    pub fn export(&mut self, id: &str, side: Option<&str>) -> Result<String, ServiceError> {
        if side.is_none() && !self.games.contains_key(id) {
            // The full record needs no replay: it exports even for a game this
            // umpire cannot play (one waiting for an upgrade decision, say).
            return Ok(self.store.record(id)?.to_text());
        }
        let game = self.game(id)?;
        match side {
            None => Ok(game.record().to_text()),
            Some(name) => {
                let s = game
                    .side(name)
                    .ok_or_else(|| ServiceError::Game(format!("game {id} has no side {name}")))?;
                Ok(
                    super::compose::record_copy(game, umpire_core::ruleset::Viewer::Side(s))
                        .to_text(),
                )
            }
        }
    }

    pub(super) fn queue(&self, batch: &mut Batch, mails: &[Unsealed], now: jiff::Timestamp) {
        self.queue_marks(batch, mails);
        self.put_sealed(batch, super::seal::seal_all(&self.key, mails, now));
    }

    /// Puts sealed mails into the outbox; a mail that could not be written
    /// is logged and left out, so it cannot stop the others.
    pub(super) fn put_sealed(&self, batch: &mut Batch, sealed: Vec<super::seal::Sealed>) {
        for (key, item) in sealed {
            match item {
                Ok(stored) => batch.put(Table::Outbox, key, stored),
                Err(why) => tracing::error!(mail = %key, "the mail could not be written: {why}"),
            }
        }
    }

    /// Stores what the sides hold once `mails` are queued.
    pub(super) fn queue_marks(&self, batch: &mut Batch, mails: &[Unsealed]) {
        let keys: Vec<&str> = mails.iter().map(Unsealed::key).collect();
        self.store_marks(batch, &keys);
    }
}

impl GameMeta {
    /// The sides' time zones and absences as the record's last settings
    /// entries give them (so they survive an import).
    pub fn settings_from(&mut self, record: &umpire_core::record::Record) {
        use umpire_core::act::AdminAct;
        for e in record.entries() {
            if let umpire_core::record::Body::Admin(a) = &e.body
                && let AdminAct::Address { side, email } = &a.act
            {
                self.addresses.insert(side.clone(), email.clone());
            }
            if let umpire_core::record::Body::Admin(a) = &e.body
                && let AdminAct::Seat(s) = &a.act
            {
                self.addresses.insert(s.side.clone(), s.email.clone());
            }
            if let umpire_core::record::Body::Admin(a) = &e.body
                && let AdminAct::Settings {
                    side,
                    time_zone,
                    away,
                } = &a.act
            {
                for (map, v) in [(&mut self.time_zones, time_zone), (&mut self.away, away)] {
                    if v.is_empty() {
                        map.remove(side);
                    } else {
                        map.insert(side.clone(), v.clone());
                    }
                }
            }
        }
    }

    /// After the game changed: start the clock for sides newly asked to act,
    /// forget sides no longer asked.
    pub fn refresh_waiting(&mut self, game: &Game, now: jiff::Timestamp) {
        let mut next = BTreeMap::new();
        // A game with an open seat has not begun: no side is on the clock.
        if !game.open_seats().is_empty() {
            self.waiting = next;
            return;
        }
        // A side whose sealed orders for the round are in is off the clock.
        for a in game.waiting() {
            let name = game.sides()[a.side.index()].name.clone();
            let anchor = game.anchor(a.side);
            let w = match self.waiting.remove(&name) {
                Some(w) if w.anchor == anchor => w,
                _ => Waiting {
                    anchor,
                    since: now.as_second(),
                    reminded: vec![],
                    late: false,
                },
            };
            next.insert(name, w);
        }
        self.waiting = next;
    }
}

/// A timestamp as RFC 3339 UTC, whole seconds.
pub fn rfc3339(t: jiff::Timestamp) -> String {
    jiff::Timestamp::from_second(t.as_second())
        .map(|t| t.to_string())
        .unwrap_or_default()
}

/// The replacement data files of ruleset `name` found in `dir`, by file name.
/// A ruleset the umpire built, with the data files it was built from.
pub struct CachedRuleset {
    files: BTreeMap<String, String>,
    ruleset: std::sync::Arc<dyn umpire_core::ruleset::DynRuleset>,
}

pub fn read_data_files(
    dir: &std::path::Path,
    name: &str,
) -> Result<BTreeMap<String, String>, ServiceError> {
    let mut files = BTreeMap::new();
    for f in umpire_games::data_files(name) {
        let p = dir.join(f);
        match std::fs::read_to_string(&p) {
            Ok(t) => {
                files.insert(f.to_string(), t);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(ServiceError::Io {
                    what: format!("reading {}", p.display()),
                    source: e,
                });
            }
        }
    }
    Ok(files)
}

impl Umpire {
    /// Restores a game from its record (from any player's mail, say, after the
    /// store was lost, or to move a game to another umpire). The record is
    /// verified first. The old dice secret is not at hand, so a new chain is
    /// committed before any further move, and every side is told.
    pub fn import(
        &mut self,
        record: &umpire_core::record::Record,
        now: jiff::Timestamp,
    ) -> Result<String, ServiceError> {
        let opening = record
            .opening()
            .ok_or_else(|| ServiceError::Game("the record has no opening".into()))?
            .clone();
        let id = opening.game.clone();
        if !record.is_complete() {
            return Err(ServiceError::Game(format!(
                "this is a side's copy of game {id}: other sides' items are sealed in it, so the game's state cannot be rebuilt. Import the full record (`umpire record {id}` at the umpire that ran it, or the record mailed to every side when the game ended)"
            )));
        }
        let declared: Vec<(String, String)> = opening
            .sides
            .iter()
            .map(|s| (s.name.clone(), s.email.clone()))
            .collect();
        check_declared(&id, &declared)
            .map_err(|e| ServiceError::Game(format!("the record cannot be imported: {e}")))?;
        if self.store.head(&id)?.is_some() {
            return Err(ServiceError::Game(format!(
                "there is already a game {id} here; a record is imported only into an umpire that lacks it"
            )));
        }
        let ruleset = self.ruleset(&opening.ruleset)?;
        let (game, _) = Game::replay(ruleset, record, ReplayMode::Verify)
            .map_err(|e| ServiceError::Game(format!("the record does not verify: {e}")))?;
        if !game.unrevealed().is_empty() {
            return Err(ServiceError::Game(
                "the record ends inside a simultaneous round whose dice are still secret; import a record from after the round".into(),
            ));
        }
        let len = record.len();
        self.games.insert(id.clone(), game);
        let mut batch = Batch::new();
        batch.put_entries(&id, record.entries());
        let ours = self.key.public().to_openssh() == opening.umpire;
        let reason = if ours {
            "the game was restored from its record; the old dice secret is not at hand"
        } else {
            "the game moved to another umpire; the old dice secret stays with the old one"
        };
        // Mails from here on carry this umpire's signature: the record says so,
        // so a player's segments from both umpires still verify (`gather`).
        let handover = (!ours).then(|| self.key.public().to_openssh());
        self.recommit_by(&id, reason, now, handover, &mut batch)?;
        let game = &self.games[&id];
        batch.put_game(&id, game, len);
        let mut meta = GameMeta {
            id: id.clone(),
            ruleset: opening.ruleset.clone(),
            created: rfc3339(now),
            finished: game.prompt().finished.as_ref().map(|f| f.summary.clone()),
            ..Default::default()
        };
        meta.settings_from(record);
        meta.open_seats = crate::seats::open_names(game);
        meta.refresh_waiting(game, now);
        let k0 = self
            .chains
            .get(&id)
            .map(|c| c.chain.commitment().k0.to_hex())
            .unwrap_or_default();
        let mut mails = Vec::new();
        for (i, s) in game.sides().iter().enumerate() {
            let side = umpire_core::ruleset::Side(i as u8);
            let status = self.result_text(
                game,
                &meta,
                game.last_report().0,
                umpire_core::ruleset::Viewer::Side(side),
                now,
            )?;
            let text = format!(
                "This game was restored from its record at entry {} by the umpire {} (key {}).\n{}.\nFrom here on the dice follow a new chain, committed before any further move: {k0}\n\n{status}",
                len - 1,
                self.config.umpire.address,
                self.key.public().fingerprint(),
                reason
            );
            mails.push(self.notice_mail(
                game,
                side,
                "game restored",
                &text,
                true,
                None,
                format!("{id}.{len}.{}.restored", s.name),
                now,
            )?);
        }
        batch.put_json(Table::Games, &id, &meta);
        self.queue(&mut batch, &mails, now);
        if let Err(e) = self.store.commit(batch) {
            self.forget(&id);
            return Err(e.into());
        }
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // A ruleset is built once per process and data: the same Arc comes back
    // until a club data file changes, then a new one built on the new file.
    #[test]
    fn rulesets_are_built_once_per_data() {
        let tmp = tempfile::tempdir().unwrap();
        Umpire::init(tmp.path(), "umpire@club.test").unwrap();
        let u = Umpire::open(tmp.path()).unwrap();
        let a = u.ruleset("sarhu").unwrap();
        let b = u.ruleset("sarhu").unwrap();
        assert!(std::sync::Arc::ptr_eq(&a, &b));
        let dir = tmp.path().join("games").join("sarhu");
        std::fs::create_dir_all(&dir).unwrap();
        let text = umpire_games::sarhu::data::TABLES_TOML;
        std::fs::write(
            dir.join("tables.toml"),
            format!("{text}\n# a club's copy\n"),
        )
        .unwrap();
        let c = u.ruleset("sarhu").unwrap();
        assert!(!std::sync::Arc::ptr_eq(&a, &c));
        assert_ne!(
            a.info().data,
            c.info().data,
            "the data hash follows the file"
        );
        assert!(std::sync::Arc::ptr_eq(&c, &u.ruleset("sarhu").unwrap()));
    }
}
