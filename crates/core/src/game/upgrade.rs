//! Games survive upgrades: which version of a ruleset replays which part of a
//! record, and moving a running game on to the umpire's own version.
//!
//! A record names the version (and game data) it was made with in its
//! opening; an `upgrade` entry moves it on. Without a divergence the umpire
//! replayed every entry before it under the new version and reached the same
//! states, so the whole stretch may be replayed under the new version. With
//! one (`diverged_at`, the admin's choice), the entries before it replay under
//! the old version, which the ruleset must still reproduce
//! ([`DynRuleset::at_version`]).

use super::{Game, ReplayError, ReplayMode, ReplaySummary, StepError, UpgradeError};
use crate::record::{Body, Entry, Opening, Record, RulesetVersion, UpgradeEntry};
use crate::ruleset::DynRuleset;
use std::sync::Arc;

/// What the umpire's own version of a ruleset makes of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpgradeCheck {
    /// The game already runs under the umpire's version.
    Current,
    /// Every entry replays the same under the umpire's version.
    Same {
        from: RulesetVersion,
        to: RulesetVersion,
    },
    /// The replay under the umpire's version differs first at entry `seq`.
    Differs {
        from: RulesetVersion,
        to: RulesetVersion,
        seq: u64,
        error: StepError,
    },
}

/// The version and data a ruleset has.
pub fn own_version(r: &dyn DynRuleset) -> RulesetVersion {
    let i = r.info();
    RulesetVersion {
        version: i.version,
        data: i.data,
    }
}

/// The version a record says is in effect at its end: the opening's, moved
/// on by each upgrade entry.
pub fn record_version(record: &Record) -> Option<RulesetVersion> {
    let opening = record.opening()?;
    Some(
        record
            .entries()
            .iter()
            .fold(opening_version(opening), |v, e| match &e.body {
                Body::Upgrade(u) => u.to,
                _ => v,
            }),
    )
}

pub(super) fn opening_version(o: &Opening) -> RulesetVersion {
    RulesetVersion {
        version: o.ruleset_version,
        data: o.ruleset_data,
    }
}

/// `base` as it played at `want`: itself, or its [`DynRuleset::at_version`],
/// over the earlier embedded data set [`DynRuleset::at_data`] when the data
/// differ.
fn resolve(base: &Arc<dyn DynRuleset>, want: RulesetVersion) -> Option<Arc<dyn DynRuleset>> {
    let own = own_version(base.as_ref());
    if own == want {
        return Some(base.clone());
    }
    if own.data != want.data {
        let earlier = base.at_data(want.data.as_ref()?)?;
        // The earlier set's ruleset has the wanted data: no second lookup.
        return (earlier.info().data == want.data)
            .then(|| resolve(&earlier, want))
            .flatten();
    }
    base.at_version(want.version)
        .filter(|r| own_version(r.as_ref()) == want)
}

/// The ruleset to replay `rest` with, where the record says `want` is in
/// effect: `want` itself, or else the target of a later upgrade that replayed
/// the same (with no diverging upgrade between), which reproduces every state
/// up to that upgrade.
pub(super) fn pick(
    base: &Arc<dyn DynRuleset>,
    rest: &[Entry],
    want: RulesetVersion,
) -> Result<Arc<dyn DynRuleset>, UpgradeError> {
    let later = rest
        .iter()
        .map_while(|e| match &e.body {
            Body::Upgrade(u) if u.diverged_at.is_some() => None,
            Body::Upgrade(u) => Some(Some(u.to)),
            _ => Some(None),
        })
        .flatten();
    if let Some(r) = std::iter::once(want)
        .chain(later)
        .find_map(|v| resolve(base, v))
    {
        return Ok(r);
    }
    let own = own_version(base.as_ref());
    Err(UpgradeError::CannotReplay {
        ruleset: base.info().name.to_string(),
        want,
        own,
        data: own.data != want.data,
    })
}

/// The seq of the last diverging upgrade: replaying under another version
/// starts there (an earlier stretch was played under a version of its own).
fn last_divergence(record: &Record) -> u64 {
    record
        .entries()
        .iter()
        .rev()
        .find(|e| matches!(&e.body, Body::Upgrade(u) if u.diverged_at.is_some()))
        .map_or(0, |e| e.seq)
}

impl Game {
    /// Replays `record` under `base` from its last diverging upgrade on (or
    /// from the start), whatever version the record says is in effect. The
    /// game's version stays the record's until [`Game::upgrade`].
    pub fn replay_under(
        base: Arc<dyn DynRuleset>,
        record: &Record,
        mode: ReplayMode,
    ) -> Result<(Game, ReplaySummary), ReplayError> {
        Game::replay_from(base, record.clone(), mode, Some(last_divergence(record)))
    }

    /// What moving this game on to the umpire's version of its ruleset would
    /// do: nothing to do, the same states, or a first entry that differs.
    pub fn check_upgrade(base: Arc<dyn DynRuleset>, record: &Record) -> UpgradeCheck {
        let to = own_version(base.as_ref());
        let Some(from) = record_version(record) else {
            return UpgradeCheck::Differs {
                from: to,
                to,
                seq: 0,
                error: super::OpeningError::Missing.into(),
            };
        };
        if from == to {
            return UpgradeCheck::Current;
        }
        match Game::replay_under(base, record, ReplayMode::Trusted) {
            Ok(_) => UpgradeCheck::Same { from, to },
            Err(e) => UpgradeCheck::Differs {
                from,
                to,
                seq: e.seq,
                error: *e.error,
            },
        }
    }

    /// The version and data the game runs under, as its record says.
    pub fn version(&self) -> RulesetVersion {
        self.nominal
    }

    /// Moves the game on to the umpire's version of its ruleset, appending an
    /// `upgrade` entry. `diverged_at` is the first entry whose replay under it
    /// differed (the admin's choice to move on anyway), `None` when every entry
    /// replayed the same. The state carries over as it is.
    pub fn upgrade(
        &mut self,
        diverged_at: Option<u64>,
        reason: &str,
        at: &str,
    ) -> Result<u64, UpgradeError> {
        let to = own_version(self.base.as_ref());
        if to == self.nominal {
            return Err(UpgradeError::Current(to));
        }
        if !self.held.is_empty() {
            return Err(UpgradeError::RoundOpen);
        }
        let u = UpgradeEntry {
            from: self.nominal,
            to,
            diverged_at,
            reason: reason.to_string(),
            at: at.to_string(),
        };
        let seq = self.push_entry(Body::Upgrade(u));
        self.switch_to(to, self.base.clone());
        Ok(seq)
    }

    fn switch_to(&mut self, version: RulesetVersion, ruleset: Arc<dyn DynRuleset>) {
        self.nominal = version;
        self.ruleset = ruleset;
        self.prompt = self.ruleset.prompt(&self.state);
    }

    /// Replays an upgrade entry; `rest` are the entries after it.
    pub(super) fn replay_upgrade(
        &mut self,
        seq: u64,
        body: &Body,
        u: &UpgradeEntry,
        rest: &[Entry],
    ) -> Result<(), UpgradeError> {
        if u.from != self.nominal {
            return Err(UpgradeError::WrongFrom {
                from: u.from,
                runs: self.nominal,
            });
        }
        if u.to == u.from {
            return Err(UpgradeError::NoChange(u.to));
        }
        if let Some(at) = u.diverged_at
            && (at == 0 || at >= seq)
        {
            return Err(UpgradeError::DivergedLater(at));
        }
        self.push_entry(body.clone());
        let ruleset = if self.force_from.is_some_and(|f| f <= seq) {
            self.base.clone()
        } else {
            pick(&self.base, rest, u.to)?
        };
        self.switch_to(u.to, ruleset);
        Ok(())
    }
}
