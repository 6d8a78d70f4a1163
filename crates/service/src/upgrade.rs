//! Running games survive a new umpire: when a ruleset's version or game data
//! changed, each running game of it is replayed under the new one. If every
//! entry replays the same, the game moves on by itself (an `upgrade` entry,
//! the players told); if not, the admin is told the first entry that differs
//! and decides with `umpire upgrade GAME --keep` or `--move-on`.

use super::compose::Unsealed;
use super::{ServiceError, Umpire, games::rfc3339};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use umpire_core::game::{Game, ReplayMode, UpgradeCheck, own_version, record_version};
use umpire_core::record::RulesetVersion;
use umpire_core::ruleset::Side;
use umpire_store::{Batch, Table};

/// Where the last check stood, per ruleset: its version and data.
const SEEN_KEY: &str = "upgrade.seen";

/// An upgrade the admin has to decide on, kept in the game's meta.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingUpgrade {
    pub from: RulesetVersion,
    pub to: RulesetVersion,
    /// The first entry whose replay under `to` differs, and how.
    pub seq: u64,
    pub message: String,
    /// The admin chose to keep the game on `from`.
    #[serde(default)]
    pub kept: bool,
}

/// What a check or a decision did to one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpgradeOutcome {
    /// Every entry replayed the same: the game moved on by itself.
    MovedOn {
        from: RulesetVersion,
        to: RulesetVersion,
    },
    /// The admin moved the game on although the replay differed.
    MovedOnDiffering {
        from: RulesetVersion,
        to: RulesetVersion,
        seq: u64,
    },
    /// The replay differs: the admin must decide.
    Differs(PendingUpgrade),
    /// The admin keeps the game on its version.
    Kept(PendingUpgrade),
}

/// The admin's choice for a game whose replay differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpgradeDecision {
    /// Stay on the version the game was played under (the ruleset must still
    /// reproduce it).
    Keep,
    /// Go on under the umpire's version from the state reached, players told.
    MoveOn,
}

impl Umpire {
    /// Checks the running games whose ruleset changed since the last check
    /// (all of them with `all`); moves on those that replay the same and
    /// reports those that do not. When no ruleset changed this reads one
    /// store key and touches no game.
    pub fn check_upgrades(
        &mut self,
        all: bool,
        now: jiff::Timestamp,
    ) -> Result<Vec<(String, UpgradeOutcome)>, ServiceError> {
        let seen: BTreeMap<String, RulesetVersion> = self
            .store
            .get_json(Table::Meta, SEEN_KEY)?
            .unwrap_or_default();
        let mut current = BTreeMap::new();
        for name in umpire_games::names() {
            let name = name.to_string();
            match self.ruleset_version(&name) {
                Ok(v) => {
                    current.insert(name, v);
                }
                // Its games fail on their own; the others go on.
                Err(e) => tracing::warn!(ruleset = %name, "{e}"),
            }
        }
        let changed = |name: &str| seen.get(name) != current.get(name);
        if !all && !current.keys().any(|n| changed(n)) {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        for id in self.game_ids()? {
            let meta = self.meta(&id)?;
            if meta.finished.is_some() || !(all || changed(&meta.ruleset)) {
                continue;
            }
            let Some(own) = current.get(&meta.ruleset).copied() else {
                continue;
            };
            // A game whose stored record fails is skipped (logged), as the
            // deadline check skips it; the others are checked.
            match self.check_one(&id, own, now) {
                Ok(Some(o)) => out.push((id, o)),
                Ok(None) => {}
                Err(e) if super::poll::environmental(&e) => return Err(e),
                Err(e) => {
                    self.forget(&id);
                    tracing::warn!(game = %id, "the game could not be checked under the new rulesets: {e}");
                }
            }
        }
        if current != seen {
            let mut merged = seen.clone();
            merged.extend(current.clone());
            let mut batch = Batch::new();
            batch.put_json(Table::Meta, SEEN_KEY, &merged);
            self.store.commit(batch)?;
        }
        Ok(out)
    }

    fn check_one(
        &mut self,
        id: &str,
        own: RulesetVersion,
        now: jiff::Timestamp,
    ) -> Result<Option<UpgradeOutcome>, ServiceError> {
        let record = self.store.record(id)?;
        let mut meta = self.meta(id)?;
        if record_version(&record) == Some(own) {
            // Back on the version it was played under (the old data restored, say).
            if meta.upgrade.take().is_some() {
                let mut batch = Batch::new();
                batch.put_json(Table::Games, id, &meta);
                self.store.commit(batch)?;
            }
            return Ok(None);
        }
        if let Some(p) = &meta.upgrade
            && p.to == own
        {
            return Ok(Some(if p.kept {
                UpgradeOutcome::Kept(p.clone())
            } else {
                UpgradeOutcome::Differs(p.clone())
            }));
        }
        let base = self.ruleset(&meta.ruleset)?;
        match Game::check_upgrade(base.clone(), &record) {
            UpgradeCheck::Current => Ok(None),
            UpgradeCheck::Same { from, to } => {
                let (game, _) =
                    Game::replay_under(base, &record, ReplayMode::Trusted).map_err(|source| {
                        ServiceError::Replay {
                            game: id.to_string(),
                            source,
                        }
                    })?;
                let why = format!("every entry replays the same under {} {to}", meta.ruleset);
                let text = format!(
                    "This umpire now plays {name} {to} (the game began under {from}).\n\
                     Every move of this game so far replays exactly the same under it,\n\
                     so nothing changes for you: the game goes on as it stands. The\n\
                     change is entry {{seq}} of the game's record.",
                    name = meta.ruleset
                );
                self.move_on(id, game, None, &why, &text, now)?;
                Ok(Some(UpgradeOutcome::MovedOn { from, to }))
            }
            UpgradeCheck::Differs {
                from,
                to,
                seq,
                error,
            } => {
                let p = PendingUpgrade {
                    from,
                    to,
                    seq,
                    message: error.to_string(),
                    kept: false,
                };
                tracing::warn!(
                    game = id,
                    %from,
                    %to,
                    entry = seq,
                    "the game replays differently under the new ruleset: decide with `umpire upgrade {id} --keep` or `--move-on` ({})",
                    p.message
                );
                meta.upgrade = Some(p.clone());
                let mut batch = Batch::new();
                batch.put_json(Table::Games, id, &meta);
                self.store.commit(batch)?;
                Ok(Some(UpgradeOutcome::Differs(p)))
            }
        }
    }

    /// The admin's decision for a game whose replay under the umpire's
    /// version differs (see [`Umpire::check_upgrades`]).
    pub fn decide_upgrade(
        &mut self,
        id: &str,
        decision: UpgradeDecision,
        now: jiff::Timestamp,
    ) -> Result<UpgradeOutcome, ServiceError> {
        let own = own_version(self.ruleset(&self.meta(id)?.ruleset)?.as_ref());
        let outcome = self.check_one(id, own, now)?.ok_or_else(|| {
            ServiceError::Game(format!("game {id} already runs its ruleset's {own}"))
        })?;
        let (UpgradeOutcome::Differs(p) | UpgradeOutcome::Kept(p)) = outcome else {
            return Ok(outcome);
        };
        // Both choices need the game playable at its own version.
        self.forget(id);
        self.load(id).map_err(|e| {
            ServiceError::Game(format!(
                "{e}\nThis umpire cannot play game {id} at {}: keep an umpire of that version for it",
                p.from
            ))
        })?;
        let mut meta = self.meta(id)?;
        match decision {
            UpgradeDecision::Keep => {
                let kept = PendingUpgrade { kept: true, ..p };
                meta.upgrade = Some(kept.clone());
                let mut batch = Batch::new();
                batch.put_json(Table::Games, id, &meta);
                self.store.commit(batch)?;
                Ok(UpgradeOutcome::Kept(kept))
            }
            UpgradeDecision::MoveOn => {
                let game = self
                    .games
                    .remove(id)
                    .ok_or_else(|| ServiceError::Game(format!("no game {id}")))?;
                let name = &meta.ruleset;
                // The replay's message stays with the admin (log, meta): it may
                // quote a sealed order line, and this reason and mail go to every side.
                let why = format!(
                    "the admin moved the game on; its replay under {name} {} differs from entry {}",
                    p.to, p.seq
                );
                let text = format!(
                    "From now on this game is played under {name} {to} (it began under\n\
                     {from}). The umpire's club moved it on although replaying the game\n\
                     under the new version would differ from entry {seq}.\n\
                     Everything played so far stands as it was played; the new rules\n\
                     apply from the position as it is now. The change is entry {{seq}}\n\
                     of the game's record.",
                    to = p.to,
                    from = p.from,
                    seq = p.seq,
                );
                self.move_on(id, game, Some(p.seq), &why, &text, now)?;
                Ok(UpgradeOutcome::MovedOnDiffering {
                    from: p.from,
                    to: p.to,
                    seq: p.seq,
                })
            }
        }
    }

    /// Appends the upgrade entry to `game`, stores it and tells every side.
    fn move_on(
        &mut self,
        id: &str,
        mut game: Game,
        diverged_at: Option<u64>,
        why: &str,
        text: &str,
        now: jiff::Timestamp,
    ) -> Result<(), ServiceError> {
        let len = game.record().len();
        let seq = game
            .upgrade(diverged_at, why, &rfc3339(now))
            .map_err(|source| ServiceError::Upgrade {
                game: id.to_string(),
                source: Box::new(source),
            })?;
        let text = text.replace("{seq}", &seq.to_string());
        let mut mails: Vec<Unsealed> = Vec::new();
        for i in 0..game.sides().len() {
            mails.push(self.notice_mail(
                &game,
                Side(i as u8),
                "the umpire was upgraded",
                &text,
                false,
                None,
                format!("{id}.upgrade.{seq}.{i}"),
                now,
            )?);
        }
        let mut meta = self.meta(id)?;
        meta.upgrade = None;
        let mut batch = Batch::new();
        batch.put_game(id, &game, len);
        batch.put_json(Table::Games, id, &meta);
        self.queue(&mut batch, &mails, now);
        self.store.commit(batch)?;
        tracing::info!(game = id, entry = seq, "{why}");
        self.games.insert(id.to_string(), game);
        Ok(())
    }
}
