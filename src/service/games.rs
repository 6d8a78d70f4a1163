//! Creating games and keeping them: each game's metadata beside its record,
//! and replayed games cached for the length of a process.

use super::{ServiceError, Umpire};
use crate::core::dice::{DEFAULT_CHAIN_LENGTH, DiceChain};
use crate::core::game::{Game, ReplayMode};
use crate::core::hash::Digest;
use crate::core::record::{FORMAT, Opening, SideDecl};
use crate::core::sig::PublicKey;
use crate::mail::Outgoing;
use crate::store::{Batch, Table};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    pub deadlines: Option<crate::service::config::Deadlines>,
    /// Per awaited side: since when, and which reminders went out.
    #[serde(default)]
    pub waiting: BTreeMap<String, Waiting>,
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
}

/// A game to create.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// Id; generated from the ruleset name and time if empty.
    pub id: String,
    pub ruleset: String,
    pub scenario: String,
    pub options: BTreeMap<String, String>,
    /// (name, email, OpenSSH public key line)
    pub sides: Vec<(String, String, String)>,
    /// Deadlines for this game (else the configuration's).
    pub deadlines: Option<crate::service::config::Deadlines>,
    /// Time zones by side name, for showing deadlines.
    pub time_zones: BTreeMap<String, String>,
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
}

impl Umpire {
    /// Creates a game: the opening entry, the dice secret, and the opening mail
    /// to every side, all in one transaction. Returns the game id.
    pub fn create_game(
        &mut self,
        new: NewGame,
        now: jiff::Timestamp,
    ) -> Result<String, ServiceError> {
        let ruleset = self.ruleset(&new.ruleset)?;
        let info = ruleset.info();
        let id = if new.id.is_empty() {
            format!("{}-{}", info.name, now.as_second() % 1_000_000)
        } else {
            new.id.clone()
        };
        if !valid_id(&id) {
            return Err(ServiceError::Game(format!(
                "game id {id:?}: use letters, digits, '-', '_' or '.', at most 64"
            )));
        }
        if self.store.head(&id)?.is_some() {
            return Err(ServiceError::Game(format!("there is already a game {id}")));
        }
        let mut sides = Vec::new();
        for (name, email, key) in &new.sides {
            let k = PublicKey::parse(key)
                .map_err(|e| ServiceError::Game(format!("side {name}: {e}")))?;
            if !email.contains('@') {
                return Err(ServiceError::Game(format!(
                    "side {name}: {email:?} is not a mail address"
                )));
            }
            sides.push(SideDecl {
                name: name.to_ascii_lowercase(),
                email: email.clone(),
                key: k.to_openssh(),
            });
        }
        let chain = DiceChain::generate(DEFAULT_CHAIN_LENGTH)
            .map_err(|e| ServiceError::Game(e.to_string()))?;
        let at = rfc3339(now);
        let opening = Opening {
            format: FORMAT,
            game: id.clone(),
            ruleset: info.name.clone(),
            ruleset_version: info.version,
            ruleset_data: info.data,
            scenario: new.scenario.clone(),
            options: new.options.clone(),
            sides,
            dice: chain.commitment(),
            umpire: self.key.public().to_openssh(),
            at: at.clone(),
        };
        let game = Game::create(ruleset, opening).map_err(|e| ServiceError::Game(e.message))?;
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
            ..Default::default()
        };
        meta.refresh_waiting(&game, now);
        let mails = self.opening_mails(&game, &meta, &chain, now)?;
        let mut batch = Batch::new();
        batch.put_entries(&id, game.record().entries());
        batch.put_json(
            Table::Secrets,
            &id,
            &Secret {
                top: chain.top(),
                length: DEFAULT_CHAIN_LENGTH,
            },
        );
        batch.put_json(Table::Games, &id, &meta);
        self.queue(&mut batch, &mails, now);
        self.store.commit(batch)?;
        self.games.insert(id.clone(), game);
        Ok(id)
    }

    /// The ruleset `name`, over the club's own data files where
    /// `DATA_DIR/games/NAME/` holds any (else the embedded data).
    pub fn ruleset(
        &self,
        name: &str,
    ) -> Result<std::sync::Arc<dyn crate::core::ruleset::Ruleset>, ServiceError> {
        let files = read_data_files(&self.dir.join("games").join(name), name)?;
        match crate::games::with_data(name, &files) {
            Ok(Some(r)) => Ok(r),
            Ok(None) => {
                let names: Vec<String> =
                    crate::games::all().iter().map(|r| r.info().name).collect();
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
        if self.games.contains_key(id) {
            return Ok(());
        }
        let record = self.store.record(id)?;
        let opening = record
            .opening()
            .ok_or_else(|| ServiceError::Game(format!("game {id} has no opening")))?;
        let ruleset = self.ruleset(&opening.ruleset)?;
        let (game, _) = Game::replay(ruleset, &record, ReplayMode::Trusted)
            .map_err(|e| ServiceError::Game(format!("game {id} does not replay: {e}")))?;
        self.games.insert(id.to_string(), game);
        Ok(())
    }

    /// Forgets cached games (after a failed commit the cache may be ahead of the store).
    pub(super) fn forget(&mut self, id: &str) {
        self.games.remove(id);
    }

    /// The dice secret of a game.
    pub(super) fn chain(&self, id: &str) -> Result<DiceChain, ServiceError> {
        let s: Secret = self.store.get_json(Table::Secrets, id)?.ok_or_else(|| {
            ServiceError::Game(format!("game {id} has no dice secret in the store"))
        })?;
        Ok(DiceChain::from_top(s.top, s.length))
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
    pub fn export(&mut self, id: &str) -> Result<String, ServiceError> {
        Ok(self.game(id)?.record().to_text())
    }

    pub(super) fn queue(&self, batch: &mut Batch, mails: &[Outgoing], now: jiff::Timestamp) {
        for m in mails {
            batch.put_json(Table::Outbox, &m.key, &super::outbox::Item::new(m, now));
        }
    }
}

impl GameMeta {
    /// After the game changed: start the clock for sides newly asked to act,
    /// forget sides no longer asked.
    pub fn refresh_waiting(&mut self, game: &Game, now: jiff::Timestamp) {
        let mut next = BTreeMap::new();
        for a in &game.prompt().awaiting {
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
pub fn read_data_files(
    dir: &std::path::Path,
    name: &str,
) -> Result<BTreeMap<String, String>, ServiceError> {
    let mut files = BTreeMap::new();
    for f in crate::games::data_files(name) {
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
