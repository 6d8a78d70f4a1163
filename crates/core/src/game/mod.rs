//! A game in play: its record, the state the record replays to, and the one
//! code path that turns a signed submission into record entries.
//!
//! The live service and `umpire verify` run the same functions: the service
//! with the dice secrets at hand, the verifier with the secrets the record
//! reveals. So anything the umpire accepted, a verifier accepts, and anything
//! it rejected, a verifier can show was illegal.
//!
//! A game that hides something (`DynRuleset::hides_information`) keeps what a
//! side may not see as sealed items ([`crate::sealed`]): hidden rolls,
//! move texts with hidden lines or standing orders, the salts of its state
//! hashes and of its hidden streams' secrets. The engine holds the full
//! record; [`Record::copy_for`] gives each side its own.

mod acts;
mod admin;
mod disclose;
mod entries;
mod error;
mod evaluate;
mod press;
mod replay;
mod round;
mod secrets;
mod snapshot;
mod upgrade;

pub use acts::DrawOffer;
pub use error::{
    AdminError, DefaultError, EngineFault, OpeningError, RecommitError, RollMismatch, SealedItem,
    StateMismatch, StepError, UpgradeError,
};
pub(crate) use evaluate::{deal_seed_hash, public_move_hash};
pub use press::{PressPlan, PressRefusal, PressVerdict};
pub use replay::precheck_moves;
pub(crate) use replay::revealed_secrets;
pub use round::ROUND_DOMAIN;
pub use secrets::{Keys, Secrets, Stored};
pub use snapshot::{SNAPSHOT_FORMAT, SnapshotMiss, check_restores};
pub use upgrade::{UpgradeCheck, own_version, record_version};

/// How many hidden dice streams a new game needs: one per side plus the
/// umpire's if the ruleset hides anything in this set-up, else none.
pub fn hidden_slots(ruleset: &dyn DynRuleset, setup: &Setup) -> usize {
    if ruleset.hides_information(setup) {
        setup.sides.len() + 1
    } else {
        0
    }
}

use super::audience::{Audience, Viewer};
use super::dice::{self, Roll, RollRef};
use super::hash::{Digest, sha256};
use super::movefile::{Command, MoveFile, SourceLine};
use super::record::{Body, Entry, Opening, RecommitEntry, Record, RevealEntry, RulesetVersion};
use super::ruleset::{Await, AwaitKind, DynRuleset, Event, GameState, Prompt, Setup, Side};
use super::sig::{MOVE_NAMESPACE, PublicKey};
use evaluate::DiceFrom;
use round::Held;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// A side as the engine knows it.
#[derive(Debug, Clone)]
pub struct SideInfo {
    pub name: String,
    /// Where its mails go (empty while the seat is open).
    pub email: String,
    /// The key that signs its moves; `None` while the seat is open.
    pub key: Option<PublicKey>,
}

impl SideInfo {
    /// Is the seat open (no player yet)?
    pub fn is_open(&self) -> bool {
        self.key.is_none()
    }

    /// Does `signature` over `text` hold with this side's key (never, for
    /// an open seat)?
    pub fn signed(&self, namespace: &str, text: &[u8], signature: &str) -> bool {
        self.key
            .as_ref()
            .is_some_and(|k| k.verify(namespace, text, signature).is_ok())
    }

    /// The key's fingerprint, or "an open seat".
    pub fn fingerprint(&self) -> String {
        self.key
            .as_ref()
            .map_or_else(|| "an open seat".to_string(), PublicKey::fingerprint)
    }
}

/// What one order did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OrderReport {
    pub source: SourceLine,
    /// The events, or why it was not carried out (a roll made it impossible).
    pub outcome: Result<Vec<Event>, String>,
    /// Who may read the order line (its own side always may).
    pub audience: Audience,
}

/// One side's part of a sealed round's resolution.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RoundPart {
    pub side: Side,
    /// The stated default was applied for it after its deadline.
    pub by_default: bool,
    pub standing: Vec<Event>,
    pub orders: Vec<OrderReport>,
    /// Events of the end of its orders (`Ruleset::end_move`).
    pub end: Vec<Event>,
}

/// What one state-changing entry did, for the result mail.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// Who moved (none for the opening and for a sealed round).
    pub side: Option<Side>,
    /// True when the umpire applied a default after a deadline.
    pub by_default: bool,
    /// Why, for defaults.
    pub reason: String,
    /// Events of setting standing orders.
    pub standing: Vec<Event>,
    pub orders: Vec<OrderReport>,
    /// Events of the end of the move, after its last order (`Ruleset::end_move`).
    pub end: Vec<Event>,
    /// A sealed round: each side's orders, in the order applied.
    pub round: Vec<RoundPart>,
    pub rolls: Vec<Roll>,
    pub position: Option<u64>,
    /// Earlier hidden rolls the rules revealed in this action.
    pub disclosed: Vec<RollRef>,
}

impl Report {
    /// Every event, in order (standing orders first, the end of the move
    /// after its orders).
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        let parts = self.round.iter().flat_map(|p| {
            p.standing
                .iter()
                .chain(carried(&p.orders))
                .chain(p.end.iter())
        });
        self.standing
            .iter()
            .chain(carried(&self.orders))
            .chain(self.end.iter())
            .chain(parts)
    }

    /// The events `viewer` may see.
    pub fn events_for(&self, viewer: Viewer) -> impl Iterator<Item = &Event> {
        self.events().filter(move |e| viewer.sees(&e.audience))
    }

    /// The rolls `viewer` may see.
    pub fn rolls_for(&self, viewer: Viewer) -> impl Iterator<Item = &Roll> {
        self.rolls.iter().filter(move |r| viewer.sees(&r.audience))
    }
}

fn carried(orders: &[OrderReport]) -> impl Iterator<Item = &Event> {
    orders
        .iter()
        .filter_map(|o| o.outcome.as_ref().ok())
        .flatten()
}

/// Categories of refusal, for the service to decide how to answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejectKind {
    /// The file could not be read.
    Malformed,
    /// It names another game.
    WrongGame,
    /// It names a side the game does not have.
    UnknownSide,
    /// The signature is missing, broken, or not the side's key.
    Signature,
    /// The game is over.
    Finished,
    /// The side is not asked to act now.
    NotYourTurn,
    /// It follows an entry the game has moved past.
    Stale,
    /// An order is illegal where the move starts (before any roll).
    Illegal,
}

/// A refused submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    pub kind: RejectKind,
    /// The side whose key verified the signature, if any.
    pub signer: Option<Side>,
    /// The side the file claims, if readable.
    pub claimed: Option<String>,
    /// What is wrong, naming the rule where there is one.
    pub reason: String,
    /// The offending line, to quote; its `column` is the 1-based column of
    /// `text` to mark (where the error is), not where the line's text began.
    pub line: Option<SourceLine>,
}

/// What happened to a submission.
#[derive(Debug, Clone)]
pub enum Verdict {
    /// Recorded as entry `seq` (followed by any reveals).
    Accepted {
        seq: u64,
        side: Side,
        report: Report,
    },
    /// Sealed orders of a simultaneous round, recorded as a commitment in
    /// entry `seq`; `resolved` is the round's entry if these were the last.
    Sealed {
        seq: u64,
        side: Side,
        resolved: Option<u64>,
    },
    /// The same move was accepted before as entry `seq`; nothing new recorded.
    Duplicate { seq: u64, side: Side },
    /// A signed message with only commands: nothing recorded.
    Commands { side: Side, commands: Vec<Command> },
    /// Refused; recorded as entry `seq` when the game is known.
    Rejected { seq: u64, rejection: Rejection },
    /// The umpire cannot adjudicate it now (its dice chain is spent): nothing
    /// was recorded; recommit and submit again.
    Unavailable(EngineFault),
}

/// The record does not replay: entry `seq`, and what is wrong with it
/// (boxed: a replay's `Result` stays small on its hot path).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("entry {seq}: {error}")]
pub struct ReplayError {
    pub seq: u64,
    pub error: Box<StepError>,
}

impl ReplayError {
    /// `error` at entry `seq`.
    pub fn at(seq: u64, error: impl Into<StepError>) -> ReplayError {
        ReplayError {
            seq,
            error: Box::new(error.into()),
        }
    }
}

/// Counts from a replay, for `umpire verify`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplaySummary {
    pub entries: u64,
    pub moves: u64,
    pub defaults: u64,
    pub rejected: u64,
    pub reveals: u64,
    pub sealed: u64,
    pub rounds: u64,
    pub signatures_checked: u64,
    pub rolls_verified: u64,
    /// Rolls whose secret the record does not reveal yet (an unfinished round).
    pub rolls_unverified: u64,
    /// Sealed items whose openings were checked against their commitments.
    pub openings_checked: u64,
}

/// How thoroughly to replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayMode {
    /// Check every signature and re-derive every roll from revealed secrets.
    Verify,
    /// The store's own record: take the recorded rolls, skip signatures.
    /// Every state hash is still checked (an upgrade check finds the first
    /// entry a new version replays differently).
    Trusted,
    /// The store's own record loaded to go on with the game (a fresh
    /// process's poll): as [`ReplayMode::Trusted`], and the state hash
    /// checked only at the head, the last entry that records one. The store
    /// checked every entry's state when it appended it, in the same
    /// transaction that wrote it (ARCHITECTURE.md, invariant 1); the head's
    /// check still refuses a game whose replay does not reach the recorded
    /// state, so nothing is adjudicated on a state the record does not hold.
    Stored,
}

/// The result of `umpire check`.
#[derive(Debug, Clone)]
pub struct CheckReport {
    pub side: Side,
    /// Orders checked and what they would do, up to the first roll.
    pub orders: Vec<OrderReport>,
    /// The roll the preview stopped at, if any.
    pub stopped_at: Option<String>,
    /// Whether the signature was checked and held (its refusal if not).
    pub signature: Option<Result<(), Rejection>>,
}

/// A game: record plus replayed state.
#[derive(Clone)]
pub struct Game {
    /// The ruleset in effect (the umpire's own, or an earlier version of it).
    ruleset: Arc<dyn DynRuleset>,
    /// The umpire's own version of the ruleset, which upgrades move on to.
    base: Arc<dyn DynRuleset>,
    /// The version the record says is in effect.
    nominal: RulesetVersion,
    /// Replaying under `base` from this seq on, whatever the record's version.
    force_from: Option<u64>,
    record: Record,
    sides: Vec<SideInfo>,
    state: GameState,
    prompt: Prompt,
    /// The game hides something: sealed items, salted state hashes.
    hides: bool,
    next_position: u64,
    pending_reveal: Vec<u64>,
    /// Hidden stream slots each unrevealed position used.
    slots_at: BTreeMap<u64, Vec<usize>>,
    last_revealed: (u64, Digest),
    /// Sealed submissions of the open sealed round, in arrival order.
    held: Vec<Held>,
    /// Per side: the seq of the last entry that changed what it is asked to do.
    anchors: Vec<u64>,
    // Hash maps, not ordered ones: only looked up, never walked, and one
    // insert per entry on every replay (issue 13).
    seq_of_hash: HashMap<Digest, u64>,
    accepted_texts: HashMap<Digest, (u64, Side)>,
    /// Signed texts refused before, by their hash: the first refusal entry
    /// that kept a signature (a copy is a duplicate of it, see `duplicate`).
    refused_texts: HashMap<Digest, u64>,
    /// Signed requests whose settings the record holds, by their text's
    /// hash: the settings entry each made.
    requests: HashMap<Digest, u64>,
    /// An act bound to what it answers is in the record: every later act
    /// must be bound too (`acts::ActRules`).
    acts_bound: bool,
    reports: HashMap<u64, Report>,
    last_action: u64,
    /// The `disclose` entry the last action owes (see `disclose.rs`).
    disclose_due: Option<Body>,
    /// While replaying: the link of the recorded entry being replayed, whose
    /// checked hash the body pushed for it (the recorded body itself) takes.
    replaying: Option<crate::record::Link>,
    /// While verifying a replay: the move signatures already found valid
    /// in one batch ahead of it (issue 13), so each is not checked again.
    prechecked: Option<Arc<crate::sig::Prechecked>>,
    /// Whether the report of every action is kept (for result mails and
    /// the game page), not only the last one's (see `put_report`).
    keep_reports: bool,
    /// While replaying in [`ReplayMode::Stored`]: the one entry whose state
    /// hash is checked (the head's); every entry's otherwise.
    state_checked_at: Option<u64>,
    /// The first entry whose report is kept: 0 for a replayed game; the
    /// head's next for one restored from the store's snapshot
    /// (`snapshot.rs`), which keeps the last action's report only.
    reports_from: u64,
}

pub(crate) fn side_index(sides: &[SideInfo], name: &str) -> Option<Side> {
    sides
        .iter()
        .position(|s| s.name.eq_ignore_ascii_case(name))
        .map(|i| Side(i as u8))
}

pub(crate) fn rej(kind: RejectKind, reason: impl Into<String>) -> Rejection {
    Rejection {
        kind,
        signer: None,
        claimed: None,
        reason: reason.into(),
        line: None,
    }
}

impl Game {
    /// Starts a game: sets up the ruleset, deals (the set-up's random part,
    /// recorded in a `setup` entry when it rolls) and writes the opening.
    pub fn create<'a>(
        ruleset: Arc<dyn DynRuleset>,
        opening: Opening,
        keys: impl Into<Keys<'a>>,
    ) -> Result<Game, ReplayError> {
        let keys = keys.into();
        let mut game = Game::start(ruleset, Record::open(opening), &[], None)?;
        game.deal(DiceFrom::Live(keys), None)?;
        Ok(game)
    }

    /// A game at its opening (`record`), with the ruleset that replays the
    /// entries `rest` after it (see `upgrade::pick`), or `base` itself from
    /// the start when `force_from` is 0.
    fn start(
        base: Arc<dyn DynRuleset>,
        record: Record,
        rest: &[Entry],
        force_from: Option<u64>,
    ) -> Result<Game, ReplayError> {
        Game::start_with(base, record, rest, force_from, None)
    }

    /// [`Game::start`] over `given`, when given, instead of the set-up's
    /// state (a game restored from the store's snapshot of its head).
    fn start_with(
        base: Arc<dyn DynRuleset>,
        record: Record,
        rest: &[Entry],
        force_from: Option<u64>,
        given: Option<GameState>,
    ) -> Result<Game, ReplayError> {
        let bad = |e: OpeningError| ReplayError::at(0, e);
        let opening = record
            .opening()
            .cloned()
            .ok_or_else(|| bad(OpeningError::Missing))?;
        check_opening(base.as_ref(), &opening).map_err(bad)?;
        let nominal = upgrade::opening_version(&opening);
        let ruleset = if force_from == Some(0) {
            base.clone()
        } else {
            upgrade::pick(&base, rest, nominal).map_err(|e| bad(e.into()))?
        };
        let mut sides = Vec::new();
        for s in &opening.sides {
            let key = if s.is_open() {
                None
            } else {
                Some(PublicKey::parse(&s.key).map_err(|source| {
                    bad(OpeningError::BadKey {
                        side: s.name.clone(),
                        source,
                    })
                })?)
            };
            if side_index(&sides, &s.name).is_some() {
                return Err(bad(OpeningError::SideTwice(s.name.clone())));
            }
            sides.push(SideInfo {
                name: s.name.clone(),
                email: s.email.clone(),
                key,
            });
        }
        let setup = setup_of(&opening);
        let hides = ruleset.hides_information(&setup);
        let want = if hides { sides.len() + 1 } else { 0 };
        if opening.hidden.len() != want {
            return Err(bad(OpeningError::HiddenStreams {
                commits: opening.hidden.len(),
                needs: want,
            }));
        }
        let state = match given {
            Some(s) => s,
            None => ruleset.setup(&setup).map_err(|e| bad(e.into()))?,
        };
        let prompt = ruleset.prompt(&state);
        let head = record.head();
        let reports = HashMap::from([(0, Report::default())]);
        Ok(Game {
            ruleset,
            base,
            nominal,
            force_from,
            sides: sides.clone(),
            state,
            prompt,
            hides,
            next_position: 1,
            pending_reveal: Vec::new(),
            slots_at: BTreeMap::new(),
            last_revealed: (0, opening.dice.k0),
            held: Vec::new(),
            anchors: vec![0; sides.len()],
            seq_of_hash: HashMap::from([(head, 0)]),
            accepted_texts: HashMap::new(),
            refused_texts: HashMap::new(),
            requests: HashMap::new(),
            acts_bound: false,
            reports,
            last_action: 0,
            disclose_due: None,
            replaying: None,
            prechecked: None,
            keep_reports: true,
            state_checked_at: None,
            reports_from: 0,
            record,
        })
    }

    /// The same game (record, reports, prompt's history) over another state:
    /// the noninterference test's twin ([`crate::ruleset::Ruleset::twin`]).
    /// Never used in play: the state is no longer the record's replay.
    pub fn with_state(&self, state: GameState) -> Game {
        let mut g = self.clone();
        g.prompt = g.ruleset.prompt(&state);
        g.state = state;
        g
    }

    /// Are a sealed move's public lines numbered among themselves (records
    /// of format 3 on), not by their line in the move file?
    pub(super) fn numbers_public_lines(&self) -> bool {
        self.record
            .opening()
            .is_some_and(|o| o.format > super::record::FORMAT_HIDDEN_SOURCE_LINES)
    }

    /// Signatures the caller checked ahead, each singly and as strictly as
    /// [`crate::sig::PublicKey::verify`] (the poll's worker reads its
    /// mails while the adjudication runs, issue 13): `submit` then looks a
    /// move's signature up there instead of doing the curve arithmetic
    /// again; what is not found is checked here as always. `None` undoes it.
    pub fn use_prechecked(&mut self, pre: Option<Arc<crate::sig::Prechecked>>) {
        self.prechecked = pre;
    }

    /// Takes a signed submission: accepts it (appending the move and any due
    /// reveals), holds it sealed in a simultaneous round, recognises a resent
    /// duplicate, or refuses it (appending the refusal).
    pub fn submit<'a>(
        &mut self,
        text: &[u8],
        signature: &str,
        keys: impl Into<Keys<'a>>,
        at: &str,
    ) -> Verdict {
        let keys = keys.into();
        let text_hash = sha256(text);
        if let Some(v) = self.duplicate(text, signature, &text_hash) {
            return v;
        }
        // Concede and draw offers: the engine's own, in every ruleset.
        if let Some(v) = self.submit_act(text, signature, keys, at) {
            return v;
        }
        let sealed = MoveFile::parse(text).ok().and_then(|f| {
            let side = side_index(&self.sides, &f.side)?;
            let a = self.prompt.awaits(side)?;
            (a.kind == AwaitKind::SealedOrders && !f.orders.is_empty()).then_some(())
        });
        if sealed.is_some() {
            return self.submit_sealed(text, signature, keys, at);
        }
        match self.evaluate(text, Some(signature), DiceFrom::Live(keys), true) {
            Ok(Ok(ev)) => {
                if ev.file.orders.is_empty() && ev.file.standing.is_none() {
                    return Verdict::Commands {
                        side: ev.side,
                        commands: ev.file.commands.into_iter().map(|(c, _)| c).collect(),
                    };
                }
                let side = ev.side;
                let body = match self.move_body(text, signature, &ev, keys, at) {
                    Ok(b) => b,
                    Err(e) => return Verdict::Unavailable(StateMismatch::from(e).into()),
                };
                let report = ev.report.clone();
                let due = self.commit_action(body, ev.state, ev.report, side, Some(text_hash));
                let seq = self.last_action;
                self.push_disclosure();
                self.reveal(&due, keys);
                Verdict::Accepted { seq, side, report }
            }
            // Only a spent dice chain gets here live: the umpire's fault, not
            // the player's, so nothing is recorded against the move.
            Ok(Err(fault)) => Verdict::Unavailable(fault),
            Err(r) => self.record_rejection(text, Some(signature), r, keys, at),
        }
    }

    /// A signed file judged before, signed by its side's key: a copy, from
    /// anyone, at any time, is not judged again. Accepted, it is the same
    /// entry with the same rolls; refused, the same refusal. A file whose
    /// signature does not hold is no copy of a signed one: it is judged (and
    /// refused) as it is, so a forger cannot make a side's own later file
    /// pass for a copy.
    fn duplicate(&self, text: &[u8], signature: &str, text_hash: &Digest) -> Option<Verdict> {
        let accepted = self.accepted_texts.get(text_hash).copied();
        let refused = self.refused_texts.get(text_hash).copied();
        if accepted.is_none() && refused.is_none() {
            return None;
        }
        let file = MoveFile::parse(text).ok()?;
        let side = side_index(&self.sides, &file.side)?;
        if !self.sides[side.index()].signed(MOVE_NAMESPACE, text, signature) {
            return None;
        }
        if let Some((seq, by)) = accepted
            && by == side
        {
            return Some(Verdict::Duplicate { seq, side });
        }
        let seq = refused?;
        self.refused_signed(seq, text, signature, side)
            .then_some(Verdict::Duplicate { seq, side })
    }

    /// Was the refusal at `seq` of `text` signed by `side`'s key? The
    /// record keeps the signature it came with: the same as `signature`, or
    /// another that holds for the same text (mail may re-wrap the armor).
    fn refused_signed(&self, seq: u64, text: &[u8], signature: &str, side: Side) -> bool {
        let Some(Body::Rejected(r)) = self.record.entries().get(seq as usize).map(|e| &e.body)
        else {
            return false;
        };
        let Some(kept) = r.signature.as_ref().and_then(|s| s.value()) else {
            return false;
        };
        kept.trim() == signature.trim()
            || self.sides[side.index()].signed(MOVE_NAMESPACE, text, kept)
    }

    /// Appends a reveal entry for each position due, with the hidden streams'
    /// secrets it used, each sealed to its side.
    fn reveal(&mut self, due: &[u64], keys: Keys) {
        for p in due {
            let Ok(secret) = keys.chain.secret(*p) else {
                continue;
            };
            let slots = self.slots_at.remove(p).unwrap_or_default();
            let seq = self.record.len() as u64;
            let slots = self.slot_secrets(&slots, *p, keys, seq);
            let r = RevealEntry {
                position: *p,
                secret,
                slots,
            };
            if self.accept_reveal(&r).is_ok() {
                let hash = self.record_push(Body::Reveal(r)).hash;
                self.seq_of_hash.insert(hash, seq);
            }
        }
    }

    /// Applies the ruleset's stated default for `side` after its deadline.
    pub fn apply_default<'a>(
        &mut self,
        side: Side,
        reason: &str,
        keys: impl Into<Keys<'a>>,
        at: &str,
    ) -> Result<(u64, Report), DefaultError> {
        let keys = keys.into();
        let awaited =
            self.prompt
                .awaits(side)
                .cloned()
                .ok_or_else(|| DefaultError::NotAwaited {
                    side: self.sides[side.index()].name.clone(),
                })?;
        if awaited.default.is_empty() {
            return Err(DefaultError::NoneStated);
        }
        if awaited.kind == AwaitKind::SealedOrders {
            return self.default_sealed(side, &awaited.default, reason, keys, at);
        }
        let (state, report) =
            self.evaluate_default(side, &awaited.default, reason, DiceFrom::Live(keys))?;
        let body = self
            .default_body(side, &awaited.default, &state, &report, keys, reason, at)
            .map_err(|e| EngineFault::from(StateMismatch::from(e)))?;
        let due = self.commit_action(body, state, report.clone(), side, None);
        let seq = self.last_action;
        self.push_disclosure();
        self.reveal(&due, keys);
        Ok((seq, report))
    }

    /// What a move would do, without rolling: checks it up to its first roll.
    /// The signature is checked if given; an unsigned draft is fine.
    pub fn check(&self, text: &[u8], signature: Option<&str>) -> Result<CheckReport, Rejection> {
        let sig = signature.map(
            |s| match self.evaluate(text, Some(s), DiceFrom::Preview, true) {
                Err(r) if r.kind == RejectKind::Signature => Err(r),
                _ => Ok(()),
            },
        );
        let ev = self
            .evaluate(text, None, DiceFrom::Preview, false)?
            .map_err(|m| rej(RejectKind::Illegal, m.to_string()))?;
        let stopped_at = ev
            .stopped
            .map(|label| match ev.file.orders.get(ev.report.orders.len()) {
                Some(l) => format!("line {}: {} (rolls for {label})", l.line, l.text),
                None => label,
            });
        Ok(CheckReport {
            side: ev.side,
            orders: ev.report.orders,
            stopped_at,
            signature: sig,
        })
    }

    fn accept_reveal(&mut self, r: &RevealEntry) -> Result<(), StepError> {
        let (q, kq) = self.last_revealed;
        if !dice::reveal_matches(q, &kq, r.position, &r.secret) {
            return Err(StepError::RevealTampered(r.position));
        }
        self.last_revealed = (r.position, r.secret);
        self.pending_reveal.retain(|p| *p != r.position);
        self.slots_at.remove(&r.position);
        Ok(())
    }

    fn accept_recommit(&mut self, r: &RecommitEntry) -> Result<(), RecommitError> {
        if r.dice.scheme != dice::SCHEME {
            return Err(RecommitError::UnknownScheme(r.dice.scheme.clone()));
        }
        if let Some(k) = &r.umpire {
            crate::sig::PublicKey::parse(k).map_err(RecommitError::BadUmpireKey)?;
        }
        if !self.pending_reveal.is_empty() {
            return Err(RecommitError::Unrevealed(self.pending_reveal.clone()));
        }
        if r.from_position != self.next_position {
            return Err(RecommitError::StartsAt {
                from: r.from_position,
                next: self.next_position,
            });
        }
        let want = if self.hides { self.sides.len() + 1 } else { 0 };
        if r.hidden.len() != want {
            return Err(RecommitError::HiddenStreams {
                commits: r.hidden.len(),
                needs: want,
            });
        }
        self.last_revealed = (r.from_position - 1, r.dice.k0);
        Ok(())
    }

    /// Publishes new dice chains for the positions from the next one on (the
    /// old one is running out, or the game was restored without its secret).
    /// `secrets` must have base `next position − 1`.
    pub fn recommit(
        &mut self,
        secrets: &Secrets,
        reason: &str,
        at: &str,
    ) -> Result<u64, RecommitError> {
        self.recommit_by(secrets, reason, at, None)
    }

    /// [`Game::recommit`] by an umpire taking the game over: `umpire` is the
    /// key that signs its mails from here on.
    pub fn recommit_by(
        &mut self,
        secrets: &Secrets,
        reason: &str,
        at: &str,
        umpire: Option<String>,
    ) -> Result<u64, RecommitError> {
        let r = RecommitEntry {
            from_position: self.next_position,
            dice: secrets.chain.commitment(),
            hidden: secrets.hidden_commitments(),
            reason: reason.to_string(),
            at: at.to_string(),
            umpire,
        };
        if secrets.chain.base() + 1 != self.next_position {
            return Err(RecommitError::ServesFrom {
                serves: secrets.chain.base() + 1,
                at: self.next_position,
            });
        }
        if !self.held.is_empty() {
            return Err(RecommitError::RoundOpen);
        }
        self.accept_recommit(&r)?;
        let seq = self.record.len() as u64;
        let hash = self.record_push(Body::Recommit(r)).hash;
        self.seq_of_hash.insert(hash, seq);
        Ok(seq)
    }

    /// Records a state-changing entry and returns the positions now due for reveal.
    /// Appends a body to the record: [`Record::push_unchanged`] with the
    /// link of the entry being replayed, if any.
    fn record_push(&mut self, body: Body) -> &Entry {
        match self.replaying {
            Some(link) => self.record.push_unchanged(body, link),
            None => self.record.push(body),
        }
    }

    /// Keeps the report of entry `seq`: beside every earlier one, or, in a
    /// verifier's replay ([`Game::verify_only`]), beside the last action's
    /// only.
    fn put_report(&mut self, seq: u64, report: Report) {
        if !self.keep_reports {
            let last = self.last_action;
            self.reports.retain(|&s, _| s == last);
        }
        self.reports.insert(seq, report);
    }

    fn commit_action(
        &mut self,
        body: Body,
        state: GameState,
        report: Report,
        side: Side,
        text_hash: Option<Digest>,
    ) -> Vec<u64> {
        let before = std::mem::replace(&mut self.prompt, self.ruleset.prompt(&state));
        self.state = state;
        if let Some(p) = report.position {
            self.next_position = p + 1;
            self.pending_reveal.push(p);
            let slots = slots_used(&report.rolls);
            if !slots.is_empty() {
                self.slots_at.insert(p, slots);
            }
        }
        let seq = self.record.len() as u64;
        let hash = self.record_push(body).hash;
        self.seq_of_hash.insert(hash, seq);
        // The disclosure is worked out now, with this entry's own rolls in the
        // record; a live caller appends it, a replay compares it.
        self.disclose_due = self.disclosure_for(&report.disclosed);
        if let Some(t) = text_hash {
            self.accepted_texts.insert(t, (seq, side));
        }
        let round = !report.round.is_empty();
        self.put_report(seq, report);
        self.last_action = seq;
        for (i, anchor) in self.anchors.iter_mut().enumerate() {
            let s = Side(i as u8);
            if s == side || round || before.awaits(s) != self.prompt.awaits(s) {
                *anchor = seq;
            }
        }
        // A secret stays hidden while a simultaneous round is still open: a
        // side asked together with the mover, and not yet answered, could grind.
        let open_round = !round
            && before.awaiting.len() > 1
            && self
                .prompt
                .awaiting
                .iter()
                .any(|a| a.side != side && before.awaits(a.side) == Some(a));
        if open_round {
            Vec::new()
        } else {
            self.pending_reveal.clone()
        }
    }

    /// The game id.
    pub fn id(&self) -> &str {
        self.record.opening().map_or("", |o| o.game.as_str())
    }

    /// The record (the full one, with every opening).
    pub fn record(&self) -> &Record {
        &self.record
    }

    /// Does this game hide anything from some side?
    pub fn hides_information(&self) -> bool {
        self.hides
    }

    /// Entries appended since the record had `len` entries.
    pub fn entries_since(&self, len: usize) -> &[Entry] {
        &self.record.entries()[len.min(self.record.len())..]
    }

    /// The current state.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Who must act now.
    pub fn prompt(&self) -> &Prompt {
        &self.prompt
    }

    /// The ruleset.
    pub fn ruleset(&self) -> &Arc<dyn DynRuleset> {
        &self.ruleset
    }

    /// The sides.
    pub fn sides(&self) -> &[SideInfo] {
        &self.sides
    }

    /// A side by name.
    pub fn side(&self, name: &str) -> Option<Side> {
        side_index(&self.sides, name)
    }

    /// The report of the last state-changing entry (the opening at first).
    pub fn last_report(&self) -> (u64, &Report) {
        let seq = self.last_action;
        (seq, &self.reports[&seq])
    }

    /// The report of entry `seq`, if it changed the state.
    pub fn report(&self, seq: u64) -> Option<&Report> {
        self.reports.get(&seq)
    }

    /// Does this game keep the report of every entry (a replayed game), or
    /// only the last action's and those after it (one restored from the
    /// store's snapshot of its head)? A game page, which lists every
    /// action, needs them all.
    pub fn has_every_report(&self) -> bool {
        self.reports_from == 0
    }

    /// Dice positions used but not yet revealed.
    pub fn unrevealed(&self) -> &[u64] {
        &self.pending_reveal
    }

    /// The next dice position a move will use.
    pub fn next_position(&self) -> u64 {
        self.next_position
    }

    /// The sides whose sealed orders for the open round are in.
    pub fn sealed_in(&self) -> Vec<Side> {
        self.held.iter().map(|h| h.side).collect()
    }

    /// The names of the sides being waited for.
    pub fn awaiting_names(&self) -> String {
        let v: Vec<String> = self
            .waiting()
            .map(|a| self.sides[a.side.index()].name.clone())
            .collect();
        if v.is_empty() {
            "nobody".into()
        } else {
            v.join(", ")
        }
    }

    /// The sides still owing something (a side whose sealed orders are in owes nothing).
    pub fn waiting(&self) -> impl Iterator<Item = &Await> {
        self.prompt
            .awaiting
            .iter()
            .filter(|a| !(a.kind == AwaitKind::SealedOrders && self.held_for(a.side).is_some()))
    }

    /// The seq of the last entry that changed what `side` is asked to do
    /// (deadlines run from there).
    pub fn anchor(&self, side: Side) -> u64 {
        self.anchors.get(side.index()).copied().unwrap_or(0)
    }

    /// The awaited entry for `side`, unless its sealed orders are already in.
    pub fn awaits(&self, side: Side) -> Option<&Await> {
        self.waiting().find(|a| a.side == side)
    }

    /// Is this an orders prompt (not a mid-turn decision) for `side`?
    pub fn owes_orders(&self, side: Side) -> bool {
        self.awaits(side)
            .is_some_and(|a| matches!(a.kind, AwaitKind::Orders | AwaitKind::SealedOrders))
    }
}

/// The hidden stream slots a list of rolls drew from.
pub(super) fn slots_used(rolls: &[Roll]) -> Vec<usize> {
    let mut v: Vec<usize> = rolls
        .iter()
        .filter(|r| !r.audience.is_public())
        .map(|r| dice::slot_of(&r.audience))
        .collect();
    v.sort();
    v.dedup();
    v
}

fn setup_of(opening: &Opening) -> Setup {
    Setup {
        scenario: opening.scenario.clone(),
        options: opening.options.clone(),
        sides: opening.sides.iter().map(|s| s.name.clone()).collect(),
    }
}

/// Does the opening fit this ruleset (name, dice scheme)? Its version and
/// data are `upgrade::pick`'s business.
fn check_opening(ruleset: &dyn DynRuleset, opening: &Opening) -> Result<(), OpeningError> {
    if opening.format > super::record::FORMAT_HIDDEN {
        return Err(OpeningError::Format {
            format: opening.format,
            max: super::record::FORMAT_HIDDEN,
        });
    }
    let info = ruleset.info();
    if info.name != opening.ruleset {
        return Err(OpeningError::OtherRuleset {
            record: opening.ruleset.clone(),
            ours: info.name.to_string(),
        });
    }
    let schemes = std::iter::once(&opening.dice).chain(&opening.hidden);
    if let Some(c) = schemes.into_iter().find(|c| c.scheme != dice::SCHEME) {
        return Err(OpeningError::UnknownScheme(c.scheme.clone()));
    }
    Ok(())
}

/// The secrets a verifier holds: the public chain's and hidden streams'.
pub(crate) type Revealed = (BTreeMap<u64, Digest>, BTreeMap<(u64, usize), Digest>);
