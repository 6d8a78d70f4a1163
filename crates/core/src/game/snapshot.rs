//! The store's snapshot of a game's head: what a fresh process needs to go
//! on from the last entry without replaying the record (ARCHITECTURE.md,
//! invariant 1).
//!
//! It holds the ruleset's state as its JSON (the bytes its state hash is
//! taken over) and the engine's own fields that the replay would fill in
//! and that do not grow with the game: the sides as the admin entries left
//! them, the prompt, the dice positions used and not yet revealed, the
//! sealed moves held for an open round, each side's anchor, the last
//! action and its report. What grows with the game (which entry has which
//! hash, the texts accepted and refused, the requests carried out) is
//! rebuilt from the record's entries without the rules.
//!
//! A snapshot is trusted only when all of it holds: its checksum, its
//! format and the umpire's and the ruleset's versions that wrote it, the
//! head's entry number and hash, and the restored state's hash against the
//! one the head records. Anything else is a [`SnapshotMiss`], and the
//! caller replays. The snapshot holds the full state, hidden parts too: it
//! lives in the store only, never in a mail, a side's record or a hash a
//! side sees.

use super::round::Held;
use super::{Game, Report, SideInfo};
use crate::hash::{Digest, sha256};
use crate::record::{Body, Entry, Record, RulesetVersion};
use crate::ruleset::{DynRuleset, Prompt};
use crate::sealed::Hidden;
use crate::sig::PublicKey;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The layout of a snapshot; a snapshot of another is not read.
pub const SNAPSHOT_FORMAT: u32 = 1;

/// The bytes a snapshot starts with.
const MAGIC: &[u8; 12] = b"umpire-head\0";

/// Why a snapshot was not used (the caller replays the record instead).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotMiss {
    #[error("the snapshot is damaged")]
    Damaged,
    #[error("the snapshot is of another format or umpire version ({0})")]
    OtherVersion(String),
    #[error("the snapshot is of entry {snapshot}, the head is entry {head}")]
    NotHead { snapshot: u64, head: u64 },
    #[error("the ruleset keeps no snapshot")]
    NotKept,
    #[error("the record holds an upgrade")]
    Upgraded,
    #[error("the record holds no state")]
    NoState,
    #[error("the restored state does not deserialise: {0}")]
    State(String),
    #[error("the restored state is not the head's: {0}")]
    Mismatch(String),
}

/// The engine's fields of a snapshot, beside the state's JSON.
#[derive(Serialize, Deserialize)]
struct Fields {
    format: u32,
    umpire: String,
    ruleset: String,
    ruleset_version: u32,
    nominal: RulesetVersion,
    seq: u64,
    head: Digest,
    /// Each side's name, address and key (OpenSSH), as the record left them.
    sides: Vec<(String, String, Option<String>)>,
    prompt: Prompt,
    next_position: u64,
    pending_reveal: Vec<u64>,
    slots_at: BTreeMap<u64, Vec<usize>>,
    last_revealed: (u64, Digest),
    held: Vec<Held>,
    anchors: Vec<u64>,
    last_action: u64,
    report: Report,
}

/// The umpire version a snapshot is tagged with.
fn umpire_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

impl Game {
    /// The snapshot of this game's head for the store, or `None` when none
    /// can be kept: the ruleset keeps none, the record holds an upgrade
    /// (the replay picks the ruleset that plays each stretch), or the game
    /// is mid-way (a disclosure owed, a replay running).
    pub fn snapshot(&self) -> Option<Vec<u8>> {
        if !self.ruleset.restores()
            || self.force_from.is_some()
            || self.disclose_due.is_some()
            || self.replaying.is_some()
            || has_upgrade(self.record.entries())
        {
            return None;
        }
        let last = self.record.entries().last()?;
        let report = self.reports.get(&self.last_action)?.clone();
        // The umpire's own version of the ruleset, whichever version the
        // record plays under (the start picks that again from the record).
        let info = self.base.info();
        let fields = Fields {
            format: SNAPSHOT_FORMAT,
            umpire: umpire_version(),
            ruleset: info.name,
            ruleset_version: info.version,
            nominal: self.nominal,
            seq: last.seq,
            head: last.hash,
            sides: self
                .sides
                .iter()
                .map(|s| {
                    let key = s.key.as_ref().map(PublicKey::to_openssh);
                    (s.name.clone(), s.email.clone(), key)
                })
                .collect(),
            prompt: self.prompt.clone(),
            next_position: self.next_position,
            pending_reveal: self.pending_reveal.clone(),
            slots_at: self.slots_at.clone(),
            last_revealed: self.last_revealed,
            held: self.held.clone(),
            anchors: self.anchors.clone(),
            last_action: self.last_action,
            report,
        };
        let meta = serde_json::to_vec(&fields).ok()?;
        let state = self.state.hashed_json().ok()?;
        let mut out = Vec::with_capacity(MAGIC.len() + 4 + meta.len() + state.len() + 32);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&u32::try_from(meta.len()).ok()?.to_le_bytes());
        out.extend_from_slice(&meta);
        out.extend_from_slice(&state);
        let sum = sha256(&out);
        out.extend_from_slice(&sum.0);
        Some(out)
    }

    /// The game of the store's `record` at its head, from `snapshot`
    /// ([`Game::snapshot`]) instead of a replay, if the snapshot holds (see
    /// the module's comment); else the record back and why not, for the
    /// caller to replay it ([`super::ReplayMode::Stored`]).
    pub fn restore(
        base: Arc<dyn DynRuleset>,
        record: Record,
        snapshot: &[u8],
    ) -> Result<Game, (Record, SnapshotMiss)> {
        match restored(base, &record, snapshot) {
            Ok(parts) => parts.into_game(record),
            Err(m) => Err((record, m)),
        }
    }
}

/// A snapshot read and checked against the record, before the record is
/// moved into the game.
struct Restored {
    base: Arc<dyn DynRuleset>,
    fields: Fields,
    state: crate::ruleset::GameState,
}

impl Restored {
    fn into_game(self, record: Record) -> Result<Game, (Record, SnapshotMiss)> {
        let Restored {
            base,
            fields: f,
            state,
        } = self;
        let mut sides = Vec::with_capacity(f.sides.len());
        for (name, email, key) in f.sides {
            let key = match key.map(|k| PublicKey::parse(&k)) {
                None => None,
                Some(Ok(k)) => Some(k),
                Some(Err(_)) => return Err((record, SnapshotMiss::Damaged)),
            };
            sides.push(SideInfo { name, email, key });
        }
        let maps = Maps::of(record.entries(), &sides);
        // A record the start refuses is the replay's to report.
        let copy = record.clone();
        let mut game = match Game::start_with(base, record, &[], None, Some(state)) {
            Ok(g) => g,
            Err(e) => return Err((copy, SnapshotMiss::Mismatch(e.to_string()))),
        };
        if game.sides.len() != sides.len()
            || game.anchors.len() != f.anchors.len()
            || game.nominal != f.nominal
        {
            return Err((game.record, SnapshotMiss::Damaged));
        }
        game.sides = sides;
        game.prompt = f.prompt;
        game.next_position = f.next_position;
        game.pending_reveal = f.pending_reveal;
        game.slots_at = f.slots_at;
        game.last_revealed = f.last_revealed;
        game.held = f.held;
        game.anchors = f.anchors;
        game.seq_of_hash = maps.seq_of_hash;
        game.accepted_texts = maps.accepted_texts;
        game.refused_texts = maps.refused_texts;
        game.requests = maps.requests;
        game.acts_bound = maps.acts_bound;
        game.reports = HashMap::from([(f.last_action, f.report)]);
        game.last_action = f.last_action;
        game.reports_from = game.record.len() as u64;
        Ok(game)
    }
}

/// Reads `snapshot` and checks it against `record`'s head.
fn restored(
    base: Arc<dyn DynRuleset>,
    record: &Record,
    snapshot: &[u8],
) -> Result<Restored, SnapshotMiss> {
    let (meta, state_json) = split(snapshot).ok_or(SnapshotMiss::Damaged)?;
    let fields: Fields = serde_json::from_slice(meta).map_err(|_| SnapshotMiss::Damaged)?;
    let info = base.info();
    if fields.format != SNAPSHOT_FORMAT
        || fields.umpire != umpire_version()
        || fields.ruleset != info.name
        || fields.ruleset_version != info.version
    {
        return Err(SnapshotMiss::OtherVersion(format!(
            "format {}, umpire {}, {} {}",
            fields.format, fields.umpire, fields.ruleset, fields.ruleset_version
        )));
    }
    let entries = record.entries();
    let last = entries.last().ok_or(SnapshotMiss::NoState)?;
    if fields.seq != last.seq || fields.head != last.hash {
        return Err(SnapshotMiss::NotHead {
            snapshot: fields.seq,
            head: last.seq,
        });
    }
    if has_upgrade(entries) {
        return Err(SnapshotMiss::Upgraded);
    }
    let (recorded, salt) = head_state(entries).ok_or(SnapshotMiss::NoState)?;
    // The version the record plays under restores its state (a state's
    // JSON may leave out what that version's set-up decides).
    let opening = record.opening().ok_or(SnapshotMiss::NoState)?;
    let nominal = super::upgrade::opening_version(opening);
    let playing = super::upgrade::pick(&base, &[], nominal)
        .map_err(|e| SnapshotMiss::OtherVersion(e.to_string()))?;
    let state = playing
        .restore_state(state_json)
        .ok_or(SnapshotMiss::NotKept)?
        .map_err(SnapshotMiss::State)?;
    let derived = match salt {
        None => state.hash(),
        Some(h) => {
            let s = h.value().ok_or(SnapshotMiss::NoState)?;
            state.commitment(s)
        }
    }
    .map_err(|e| SnapshotMiss::State(e.to_string()))?;
    if derived != *recorded {
        return Err(SnapshotMiss::Mismatch(format!(
            "state {derived}, the head records {recorded}"
        )));
    }
    Ok(Restored {
        base,
        fields,
        state,
    })
}

/// The snapshot's engine fields and state JSON, its checksum checked.
fn split(snapshot: &[u8]) -> Option<(&[u8], &[u8])> {
    let body_len = snapshot.len().checked_sub(32)?;
    let (body, sum) = snapshot.split_at(body_len);
    if sha256(body).0 != sum {
        return None;
    }
    let rest = body.strip_prefix(MAGIC.as_slice())?;
    let (len, rest) = rest.split_first_chunk::<4>()?;
    let len = u32::from_le_bytes(*len) as usize;
    if len > rest.len() {
        return None;
    }
    Some(rest.split_at(len))
}

fn has_upgrade(entries: &[Entry]) -> bool {
    entries.iter().any(|e| matches!(e.body, Body::Upgrade(_)))
}

/// The state hash (and its salt) the head records: the last set-up, move,
/// default or sealed round's resolution.
fn head_state(entries: &[Entry]) -> Option<(&Digest, Option<&Hidden<Digest>>)> {
    entries.iter().rev().find_map(|e| match &e.body {
        Body::Setup(s) => Some((&s.state, s.salt.as_ref())),
        Body::Move(m) => Some((&m.state, m.salt.as_ref())),
        Body::Default(d) => Some((&d.state, d.salt.as_ref())),
        Body::Round(r) => Some((&r.state, r.salt.as_ref())),
        _ => None,
    })
}

/// The engine's lookups that grow with the game, rebuilt from the record's
/// entries as the replay fills them in (`replay.rs`), without the rules.
struct Maps {
    seq_of_hash: HashMap<Digest, u64>,
    accepted_texts: HashMap<Digest, (u64, crate::ruleset::Side)>,
    refused_texts: HashMap<Digest, u64>,
    requests: HashMap<Digest, u64>,
    acts_bound: bool,
}

impl Maps {
    fn of(entries: &[Entry], sides: &[SideInfo]) -> Maps {
        let mut m = Maps {
            seq_of_hash: HashMap::with_capacity(entries.len()),
            accepted_texts: HashMap::new(),
            refused_texts: HashMap::new(),
            requests: HashMap::new(),
            acts_bound: false,
        };
        for e in entries {
            m.seq_of_hash.insert(e.hash, e.seq);
            m.take(e, sides);
        }
        m
    }

    fn accept(&mut self, text: &str, seq: u64, side: &str, sides: &[SideInfo]) {
        if let Some(s) = super::side_index(sides, side) {
            self.accepted_texts
                .insert(sha256(text.as_bytes()), (seq, s));
        }
    }

    fn take(&mut self, e: &Entry, sides: &[SideInfo]) {
        match &e.body {
            Body::Move(m) => {
                if let Some(t) = m.text.value() {
                    self.accept(t, e.seq, &m.side, sides);
                }
            }
            Body::Sealed(s) => {
                if let (Some(t), Some(_)) = (
                    s.text.as_ref().and_then(Hidden::value),
                    s.signature.as_ref(),
                ) {
                    self.accept(t, e.seq, &s.side, sides);
                }
            }
            Body::Act(a) => {
                self.accept(&a.text, e.seq, &a.side, sides);
                self.acts_bound |= a.answers.is_some();
            }
            Body::Rejected(r) => {
                if r.signature.as_ref().and_then(|s| s.value()).is_some()
                    && let Some(h) = super::entries::refused_hash(r)
                {
                    self.refused_texts.entry(h).or_insert(e.seq);
                }
            }
            Body::Admin(a) => {
                if let Some(r) = a.request {
                    self.requests.entry(r).or_insert(e.seq);
                }
            }
            _ => {}
        }
    }
}

/// Test hook (never called in play): restores `game` from its own
/// snapshot and replays its record ([`super::ReplayMode::Stored`]), and
/// says where the two differ from each other or from `game`: the state's
/// hash, the prompt, and every engine field a load fills in. `Ok(None)`
/// when the game keeps no snapshot. Returns the two games for the caller
/// to give both the same next action.
#[doc(hidden)]
pub fn check_restores(game: &Game) -> Result<Option<(Game, Game)>, String> {
    let Some(snap) = game.snapshot() else {
        return Ok(None);
    };
    let restored = Game::restore(game.base.clone(), game.record.clone(), &snap)
        .map_err(|(_, m)| format!("the game's own snapshot was not used: {m}"))?;
    let (replayed, _) = Game::replay(game.base.clone(), &game.record, super::ReplayMode::Stored)
        .map_err(|e| format!("the record does not replay: {e}"))?;
    same(&restored, &replayed).map_err(|e| format!("restored and replayed: {e}"))?;
    same(&restored, game).map_err(|e| format!("restored and the game: {e}"))?;
    Ok(Some((restored, replayed)))
}

impl Game {
    /// Test hook, and the debug builds' check of every restore (never in a
    /// release build's play): replays this game's record
    /// ([`super::ReplayMode::Stored`]) and says where the replayed game
    /// differs from this one, as a load sees them. The engine's lookups a
    /// restore rebuilds without the rules (`Maps`) are checked against the
    /// replay's this way in every test that loads a game.
    #[doc(hidden)]
    pub fn differs_from_replayed(&self) -> Result<(), String> {
        let (replayed, _) =
            Game::replay(self.base.clone(), &self.record, super::ReplayMode::Stored)
                .map_err(|e| format!("the record does not replay: {e}"))?;
        same(self, &replayed)
    }
}

/// Where two games at the same head differ, as a load sees them.
fn same(a: &Game, b: &Game) -> Result<(), String> {
    let hash = |g: &Game| g.state.hash().map_err(|e| e.to_string());
    let side = |s: &SideInfo| (s.name.clone(), s.email.clone(), s.fingerprint());
    let checks: [(&str, bool); 19] = [
        ("state", hash(a)? == hash(b)?),
        ("prompt", a.prompt == b.prompt),
        ("record", a.record.head() == b.record.head()),
        (
            "sides",
            a.sides.iter().map(side).eq(b.sides.iter().map(side)),
        ),
        ("nominal", a.nominal == b.nominal),
        (
            "ruleset",
            a.ruleset.info().version == b.ruleset.info().version,
        ),
        ("hides", a.hides == b.hides),
        ("next_position", a.next_position == b.next_position),
        ("pending_reveal", a.pending_reveal == b.pending_reveal),
        ("slots_at", a.slots_at == b.slots_at),
        ("last_revealed", a.last_revealed == b.last_revealed),
        ("held", a.held == b.held),
        ("anchors", a.anchors == b.anchors),
        ("seq_of_hash", a.seq_of_hash == b.seq_of_hash),
        ("accepted_texts", a.accepted_texts == b.accepted_texts),
        ("refused_texts", a.refused_texts == b.refused_texts),
        ("requests", a.requests == b.requests),
        ("acts_bound", a.acts_bound == b.acts_bound),
        (
            "last report",
            a.last_action == b.last_action
                && a.reports.get(&a.last_action) == b.reports.get(&b.last_action),
        ),
    ];
    match checks.iter().find(|(_, ok)| !ok) {
        Some((what, _)) => Err(format!("{what} differs at entry {}", a.record.len())),
        None => Ok(()),
    }
}
