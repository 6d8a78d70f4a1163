//! A game in play: its record, the state the record replays to, and the one
//! code path that turns a signed submission into record entries.
//!
//! The live service and `umpire verify` run the same functions: the service
//! with the dice secrets at hand, the verifier with the secrets the record
//! reveals. So anything the umpire accepted, a verifier accepts, and anything
//! it rejected, a verifier can show was illegal.

use super::dice::{self, Dice, DiceChain, DiceError, Roll};
use super::hash::{Digest, sha256};
use super::movefile::{Command, MoveFile, SourceLine};
use super::record::{
    Body, DefaultEntry, Entry, MoveEntry, Opening, RecommitEntry, Record, RejectedEntry,
    RevealEntry,
};
use super::ruleset::{
    Await, AwaitKind, Event, GameState, OrderError, ParsedOrder, Prompt, RuleError, Ruleset, Setup,
    Side,
};
use super::sig::{MOVE_NAMESPACE, PublicKey, SigError};
use base64::Engine as _;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A side as the engine knows it.
#[derive(Debug, Clone)]
pub struct SideInfo {
    pub name: String,
    pub email: String,
    pub key: PublicKey,
}

/// What one order did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderReport {
    pub source: SourceLine,
    /// The events, or why it was not carried out (a roll made it impossible).
    pub outcome: Result<Vec<Event>, String>,
}

/// What one state-changing entry did, for the result mail.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Report {
    /// Who moved (none for the opening).
    pub side: Option<Side>,
    /// True when the umpire applied a default after a deadline.
    pub by_default: bool,
    /// Why, for defaults.
    pub reason: String,
    /// Events of setting standing orders.
    pub standing: Vec<Event>,
    pub orders: Vec<OrderReport>,
    pub rolls: Vec<Roll>,
    pub position: Option<u64>,
}

impl Report {
    /// Every event, in order (standing orders first).
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.standing.iter().chain(
            self.orders
                .iter()
                .filter_map(|o| o.outcome.as_ref().ok())
                .flatten(),
        )
    }
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
    /// The offending line, to quote.
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
    /// The same move was accepted before as entry `seq`; nothing new recorded.
    Duplicate { seq: u64, side: Side },
    /// A signed message with only commands: nothing recorded.
    Commands { side: Side, commands: Vec<Command> },
    /// Refused; recorded as entry `seq` when the game is known.
    Rejected { seq: u64, rejection: Rejection },
    /// The umpire cannot adjudicate it now (its dice chain is spent): nothing
    /// was recorded; recommit and submit again.
    Unavailable(String),
}

/// The record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("entry {seq}: {message}")]
pub struct ReplayError {
    pub seq: u64,
    pub message: String,
}

/// Counts from a replay, for `umpire verify`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplaySummary {
    pub entries: u64,
    pub moves: u64,
    pub defaults: u64,
    pub rejected: u64,
    pub reveals: u64,
    pub signatures_checked: u64,
    pub rolls_verified: u64,
    /// Rolls whose secret the record does not reveal yet (an unfinished round).
    pub rolls_unverified: u64,
}

/// How thoroughly to replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayMode {
    /// Check every signature and re-derive every roll from revealed secrets.
    Verify,
    /// The store's own record: take the recorded rolls, skip signatures.
    Trusted,
}

/// Where a move's dice come from.
enum DiceFrom<'a> {
    Chain(&'a DiceChain),
    Secret(Digest),
    Recorded(Vec<Roll>),
    Preview,
}

/// A submission that passed every check before its first roll.
struct Evaluated {
    side: Side,
    file: MoveFile,
    state: GameState,
    report: Report,
    /// In a preview: the roll it stopped at.
    stopped: Option<String>,
}

/// The result of `umpire check`.
#[derive(Debug, Clone)]
pub struct CheckReport {
    pub side: Side,
    /// Orders checked and what they would do, up to the first roll.
    pub orders: Vec<OrderReport>,
    /// The roll the preview stopped at, if any.
    pub stopped_at: Option<String>,
    /// Whether the signature was checked and held.
    pub signature: Option<Result<(), String>>,
}

/// A game: record plus replayed state.
#[derive(Clone)]
pub struct Game {
    ruleset: Arc<dyn Ruleset>,
    record: Record,
    sides: Vec<SideInfo>,
    state: GameState,
    prompt: Prompt,
    next_position: u64,
    pending_reveal: Vec<u64>,
    last_revealed: (u64, Digest),
    /// Per side: the seq of the last entry that changed what it is asked to do.
    anchors: Vec<u64>,
    seq_of_hash: BTreeMap<Digest, u64>,
    accepted_texts: BTreeMap<Digest, (u64, Side)>,
    reports: BTreeMap<u64, Report>,
    last_action: u64,
}

fn side_index(sides: &[SideInfo], name: &str) -> Option<Side> {
    sides
        .iter()
        .position(|s| s.name.eq_ignore_ascii_case(name))
        .map(|i| Side(i as u8))
}

fn rej(kind: RejectKind, reason: impl Into<String>) -> Rejection {
    Rejection {
        kind,
        signer: None,
        claimed: None,
        reason: reason.into(),
        line: None,
    }
}

impl Game {
    /// Starts a game: sets up the ruleset and writes the opening entry.
    pub fn create(ruleset: Arc<dyn Ruleset>, opening: Opening) -> Result<Game, ReplayError> {
        Game::start(ruleset, Record::open(opening))
    }

    fn start(ruleset: Arc<dyn Ruleset>, record: Record) -> Result<Game, ReplayError> {
        let bad = |message: String| ReplayError { seq: 0, message };
        let opening = record
            .opening()
            .cloned()
            .ok_or_else(|| bad("the record does not start with an opening".into()))?;
        let info = ruleset.info();
        if info.name != opening.ruleset {
            return Err(bad(format!(
                "the record is a {} game, not {}",
                opening.ruleset, info.name
            )));
        }
        if info.version != opening.ruleset_version {
            return Err(bad(format!(
                "the record was made with {} version {}, this umpire has version {}; replay it with a matching umpire",
                opening.ruleset, opening.ruleset_version, info.version
            )));
        }
        if info.data != opening.ruleset_data {
            return Err(bad(format!(
                "the record was made with other {} game data (hash {}), this umpire has {}; use the data files the game was created with",
                opening.ruleset,
                opening.ruleset_data.map_or("none".into(), |d| d.short(16)),
                info.data.map_or("none".into(), |d| d.short(16)),
            )));
        }
        if opening.dice.scheme != dice::SCHEME {
            return Err(bad(format!(
                "unknown dice scheme {:?}",
                opening.dice.scheme
            )));
        }
        let mut sides = Vec::new();
        for s in &opening.sides {
            let key = PublicKey::parse(&s.key).map_err(|e| bad(format!("side {}: {e}", s.name)))?;
            if side_index(&sides, &s.name).is_some() {
                return Err(bad(format!("side {} is declared twice", s.name)));
            }
            sides.push(SideInfo {
                name: s.name.clone(),
                email: s.email.clone(),
                key,
            });
        }
        let setup = Setup {
            scenario: opening.scenario.clone(),
            options: opening.options.clone(),
            sides: sides.iter().map(|s| s.name.clone()).collect(),
        };
        let state = ruleset.setup(&setup).map_err(bad)?;
        let prompt = ruleset.prompt(&state);
        let head = record.head();
        let mut reports = BTreeMap::new();
        reports.insert(0, Report::default());
        Ok(Game {
            ruleset,
            sides: sides.clone(),
            state,
            prompt,
            next_position: 1,
            pending_reveal: Vec::new(),
            last_revealed: (0, opening.dice.k0),
            anchors: vec![0; sides.len()],
            seq_of_hash: BTreeMap::from([(head, 0)]),
            accepted_texts: BTreeMap::new(),
            reports,
            last_action: 0,
            record,
        })
    }

    /// Replays a record from its opening, checking it as `mode` says.
    pub fn replay(
        ruleset: Arc<dyn Ruleset>,
        record: &Record,
        mode: ReplayMode,
    ) -> Result<(Game, ReplaySummary), ReplayError> {
        let entries = record.entries();
        let first =
            Record::from_entries(entries[..1.min(entries.len())].to_vec()).map_err(|e| {
                ReplayError {
                    seq: 0,
                    message: e.to_string(),
                }
            })?;
        let mut game = Game::start(ruleset, first)?;
        let mut sum = ReplaySummary {
            entries: 1,
            ..Default::default()
        };
        // Secrets revealed anywhere in the record, to re-derive rolls. Each must
        // hash back to the one before it, and the first to the commitment.
        let mut secrets: BTreeMap<u64, Digest> = BTreeMap::new();
        let mut known = game.last_revealed;
        for e in entries {
            if let Body::Recommit(r) = &e.body {
                known = (r.from_position.saturating_sub(1), r.dice.k0);
            }
            if let Body::Reveal(r) = &e.body {
                if !dice::reveal_matches(known.0, &known.1, r.position, &r.secret) {
                    return Err(ReplayError {
                        seq: e.seq,
                        message: format!(
                            "the secret revealed for dice position {} does not hash back to the commitment: the dice chain was tampered with",
                            r.position
                        ),
                    });
                }
                known = (r.position, r.secret);
                secrets.insert(r.position, r.secret);
            }
        }
        let mut expect_reveals: Vec<u64> = Vec::new();
        for e in &entries[1..] {
            let fail = |message: String| ReplayError {
                seq: e.seq,
                message,
            };
            if e.prev != game.record.head() || e.seq != game.record.len() as u64 {
                return Err(fail("does not follow the entry before it".into()));
            }
            if !matches!(e.body, Body::Reveal(_)) && !expect_reveals.is_empty() {
                return Err(fail(format!(
                    "the secrets of dice positions {expect_reveals:?} were due to be revealed here"
                )));
            }
            match &e.body {
                Body::Opening(_) => return Err(fail("a second opening".into())),
                Body::Move(m) => {
                    let dice = match (mode, m.position.and_then(|p| secrets.get(&p))) {
                        (ReplayMode::Verify, Some(k)) => DiceFrom::Secret(*k),
                        _ => DiceFrom::Recorded(m.rolls.clone()),
                    };
                    let verified = matches!(dice, DiceFrom::Secret(_));
                    if mode == ReplayMode::Verify {
                        sum.signatures_checked += 1;
                    }
                    let ev = game
                        .evaluate(
                            m.text.as_bytes(),
                            Some(&m.signature),
                            dice,
                            mode == ReplayMode::Verify,
                        )
                        .map_err(|r| {
                            fail(format!(
                                "the umpire accepted a move that is refused on replay: {}",
                                r.reason
                            ))
                        })?;
                    let ev = ev.map_err(fail)?;
                    if game.sides[ev.side.index()].name != m.side {
                        return Err(fail(format!(
                            "recorded as {}'s move, but signed as {}'s",
                            m.side,
                            game.sides[ev.side.index()].name
                        )));
                    }
                    if ev.report.position != m.position {
                        return Err(fail(format!(
                            "recorded at dice position {:?}, replay gives {:?}",
                            m.position, ev.report.position
                        )));
                    }
                    if ev.report.rolls != m.rolls {
                        return Err(fail(roll_mismatch(&m.rolls, &ev.report.rolls)));
                    }
                    if ev.state.hash() != m.state {
                        return Err(fail(format!(
                            "the state after this move hashes to {}, the record says {}",
                            ev.state.hash().short(16),
                            m.state.short(16)
                        )));
                    }
                    let n = ev.report.rolls.len() as u64;
                    if verified {
                        sum.rolls_verified += n;
                    } else {
                        sum.rolls_unverified += n;
                    }
                    sum.moves += 1;
                    let text_hash = sha256(m.text.as_bytes());
                    expect_reveals = game.commit_action(
                        e.body.clone(),
                        ev.state,
                        ev.report,
                        ev.side,
                        Some(text_hash),
                    );
                }
                Body::Default(d) => {
                    let side = side_index(&game.sides, &d.side)
                        .ok_or_else(|| fail(format!("no side {}", d.side)))?;
                    let dice = match (mode, d.position.and_then(|p| secrets.get(&p))) {
                        (ReplayMode::Verify, Some(k)) => DiceFrom::Secret(*k),
                        _ => DiceFrom::Recorded(d.rolls.clone()),
                    };
                    let verified = matches!(dice, DiceFrom::Secret(_));
                    let (state, report) = game
                        .evaluate_default(side, &d.orders, &d.reason, dice)
                        .map_err(fail)?;
                    if report.rolls != d.rolls {
                        return Err(fail(roll_mismatch(&d.rolls, &report.rolls)));
                    }
                    if state.hash() != d.state {
                        return Err(fail(
                            "the state after this default differs from the record".into(),
                        ));
                    }
                    let n = report.rolls.len() as u64;
                    if verified {
                        sum.rolls_verified += n;
                    } else {
                        sum.rolls_unverified += n;
                    }
                    sum.defaults += 1;
                    expect_reveals = game.commit_action(e.body.clone(), state, report, side, None);
                }
                Body::Rejected(r) => {
                    if mode == ReplayMode::Verify {
                        let bytes = match (&r.text, &r.base64) {
                            (Some(t), _) => t.clone().into_bytes(),
                            (None, Some(b)) => base64::engine::general_purpose::STANDARD
                                .decode(b)
                                .map_err(|_| {
                                    fail("rejected submission's base64 is broken".into())
                                })?,
                            (None, None) => Vec::new(),
                        };
                        match game.evaluate(&bytes, r.signature.as_deref(), DiceFrom::Preview, true)
                        {
                            Err(_) => {}
                            Ok(Err(m)) => return Err(fail(m)),
                            Ok(Ok(_)) => {
                                return Err(fail(format!(
                                    "recorded as rejected ({}), but it is a valid move on replay",
                                    r.reason
                                )));
                            }
                        }
                    }
                    sum.rejected += 1;
                    game.seq_of_hash.insert(e.hash, e.seq);
                    game.record.push(e.body.clone());
                }
                Body::Recommit(r) => {
                    game.accept_recommit(r).map_err(fail)?;
                    game.seq_of_hash.insert(e.hash, e.seq);
                    game.record.push(e.body.clone());
                }
                Body::Reveal(r) => {
                    let Some(pos) = expect_reveals.first().copied() else {
                        return Err(fail(format!(
                            "reveals the secret of dice position {} while it could still be used, or was never used",
                            r.position
                        )));
                    };
                    if r.position != pos {
                        return Err(fail(format!(
                            "reveals dice position {}, but position {pos} was due",
                            r.position
                        )));
                    }
                    game.accept_reveal(r).map_err(fail)?;
                    expect_reveals.remove(0);
                    sum.reveals += 1;
                    game.seq_of_hash.insert(e.hash, e.seq);
                    game.record.push(e.body.clone());
                }
            }
            if game.record.head() != e.hash {
                return Err(fail("the entry's hash does not match its content".into()));
            }
            sum.entries += 1;
        }
        Ok((game, sum))
    }

    fn accept_reveal(&mut self, r: &RevealEntry) -> Result<(), String> {
        let (q, kq) = self.last_revealed;
        if !dice::reveal_matches(q, &kq, r.position, &r.secret) {
            return Err(format!(
                "the secret revealed for dice position {} does not hash back to the commitment: the dice were tampered with",
                r.position
            ));
        }
        self.last_revealed = (r.position, r.secret);
        self.pending_reveal.retain(|p| *p != r.position);
        Ok(())
    }

    fn accept_recommit(&mut self, r: &RecommitEntry) -> Result<(), String> {
        if r.dice.scheme != dice::SCHEME {
            return Err(format!("unknown dice scheme {:?}", r.dice.scheme));
        }
        if !self.pending_reveal.is_empty() {
            return Err(format!(
                "a new dice chain while positions {:?} are not yet revealed",
                self.pending_reveal
            ));
        }
        if r.from_position != self.next_position {
            return Err(format!(
                "the new dice chain starts at position {}, but the next position is {}",
                r.from_position, self.next_position
            ));
        }
        self.last_revealed = (r.from_position - 1, r.dice.k0);
        Ok(())
    }

    /// Publishes a new dice chain for the positions from the next one on (the
    /// old one is running out, or the game was restored without its secret).
    /// `chain` must have base `next position − 1`.
    pub fn recommit(&mut self, chain: &DiceChain, reason: &str, at: &str) -> Result<u64, String> {
        let r = RecommitEntry {
            from_position: self.next_position,
            dice: chain.commitment(),
            reason: reason.to_string(),
            at: at.to_string(),
        };
        if chain.base() + 1 != self.next_position {
            return Err(format!(
                "the new chain serves from position {}, the game is at {}",
                chain.base() + 1,
                self.next_position
            ));
        }
        self.accept_recommit(&r)?;
        let seq = self.record.len() as u64;
        let hash = self.record.push(Body::Recommit(r)).hash;
        self.seq_of_hash.insert(hash, seq);
        Ok(seq)
    }

    /// The next dice position a move will use.
    pub fn next_position(&self) -> u64 {
        self.next_position
    }

    /// Records a state-changing entry and returns the positions now due for reveal.
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
        }
        let seq = self.record.len() as u64;
        let hash = self.record.push(body).hash;
        self.seq_of_hash.insert(hash, seq);
        if let Some(t) = text_hash {
            self.accepted_texts.insert(t, (seq, side));
        }
        self.reports.insert(seq, report);
        self.last_action = seq;
        for (i, anchor) in self.anchors.iter_mut().enumerate() {
            let s = Side(i as u8);
            if s == side || before.awaits(s) != self.prompt.awaits(s) {
                *anchor = seq;
            }
        }
        // A secret stays hidden while a simultaneous round is still open: a
        // side asked together with the mover, and not yet answered, could grind.
        let open_round = before.awaiting.len() > 1
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

    /// Checks a submission and, if nothing is wrong before its first roll,
    /// carries it out on a copy of the state. The outer error is a refusal;
    /// the inner one is a replay inconsistency (recorded dice do not fit).
    fn evaluate(
        &self,
        text: &[u8],
        signature: Option<&str>,
        dice_from: DiceFrom,
        check_signature: bool,
    ) -> Result<Result<Evaluated, String>, Rejection> {
        let file = MoveFile::parse(text).map_err(|e| Rejection {
            line: source_line(text, e.line, e.column),
            ..rej(
                RejectKind::Malformed,
                format!("the move file does not read: {e}"),
            )
        })?;
        let opening = self
            .record
            .opening()
            .map(|o| o.game.clone())
            .unwrap_or_default();
        if file.game != opening {
            return Err(Rejection {
                claimed: Some(file.side.clone()),
                ..rej(
                    RejectKind::WrongGame,
                    format!("this is game {opening}, the file names game {}", file.game),
                )
            });
        }
        let Some(side) = side_index(&self.sides, &file.side) else {
            let names: Vec<&str> = self.sides.iter().map(|s| s.name.as_str()).collect();
            return Err(Rejection {
                claimed: Some(file.side.clone()),
                ..rej(
                    RejectKind::UnknownSide,
                    format!(
                        "game {opening} has no side {:?}; its sides are {}",
                        file.side,
                        names.join(", ")
                    ),
                )
            });
        };
        let claimed = Some(file.side.clone());
        if check_signature {
            let sig_err = |e: String| Rejection {
                claimed: claimed.clone(),
                ..rej(RejectKind::Signature, e)
            };
            let Some(sig) = signature else {
                return Err(sig_err("the move is not signed".into()));
            };
            self.sides[side.index()]
                .key
                .verify(MOVE_NAMESPACE, text, sig)
                .map_err(|e| {
                    sig_err(match e {
                        SigError::WrongKey { found, .. } => format!(
                            "signed by key {found}, which is not {}'s key ({}): forged or wrong key",
                            file.side,
                            self.sides[side.index()].key.fingerprint()
                        ),
                        other => format!("bad signature: {other}"),
                    })
                })?;
        }
        let signed = |r: Rejection| Rejection {
            signer: check_signature.then_some(side),
            claimed: claimed.clone(),
            ..r
        };
        let mut state = self.state.clone();
        let mut report = Report {
            side: Some(side),
            ..Default::default()
        };
        if let Some(lines) = &file.standing {
            report.standing = self
                .ruleset
                .set_standing(&mut state, side, lines)
                .map_err(|e| signed(order_rejection(lines, e)))?;
        }
        if file.orders.is_empty() {
            return Ok(Ok(Evaluated {
                side,
                file,
                state,
                report,
                stopped: None,
            }));
        }
        if let Some(done) = &self.prompt.finished {
            return Err(signed(rej(
                RejectKind::Finished,
                format!("the game is over: {}", done.summary),
            )));
        }
        let after = file.after.unwrap_or(Digest::ZERO);
        match self.seq_of_hash.get(&after) {
            None => {
                return Err(signed(rej(
                    RejectKind::Stale,
                    format!(
                        "`after: {}` names no entry of this game's record; copy the head hash from your latest result mail (now {})",
                        after.short(16),
                        self.record.head()
                    ),
                )));
            }
            Some(seq) if *seq < self.anchors[side.index()] => {
                let a = self.anchors[side.index()];
                let name = &self.sides[side.index()].name;
                // A default applied for this side since the move was written: it came too late.
                let defaulted = self.record.entries()[(*seq as usize + 1).min(self.record.len())..]
                    .iter()
                    .find(|e| matches!(&e.body, Body::Default(d) if d.side == *name));
                let reason = match defaulted {
                    Some(e) => format!(
                        "too late: the deadline passed and the umpire applied {name}'s stated default at entry {}; the game has moved on, write your next move against head {}",
                        e.seq,
                        self.record.head()
                    ),
                    None => format!(
                        "stale: the move follows entry {seq}, but the game moved on at entry {a}; look at the latest result mail and write the move against head {}",
                        self.record.head()
                    ),
                };
                return Err(signed(rej(RejectKind::Stale, reason)));
            }
            Some(_) => {}
        }
        if self.prompt.awaits(side).is_none() {
            return Err(signed(rej(
                RejectKind::NotYourTurn,
                format!(
                    "it is not {}'s turn to act: {}; waiting for {}",
                    file.side,
                    self.prompt.stage,
                    self.awaiting_names()
                ),
            )));
        }
        let orders = self
            .ruleset
            .parse(&state, side, &file.orders)
            .map_err(|e| signed(order_rejection(&file.orders, e)))?;
        let position = self.next_position;
        let mut dice = match dice_from {
            DiceFrom::Chain(chain) => match chain.secret(position) {
                Ok(k) => Dice::seeded(dice::seed(&opening, position, &k, &sha256(text))),
                Err(e) => return Ok(Err(e.to_string())),
            },
            DiceFrom::Secret(k) => Dice::seeded(dice::seed(&opening, position, &k, &sha256(text))),
            DiceFrom::Recorded(r) => Dice::recorded(r),
            DiceFrom::Preview => Dice::preview(),
        };
        let mut stopped = None;
        match self.run_orders(&mut state, side, &orders, &mut dice) {
            Ok(reports) => report.orders = reports,
            Err(RunError::Refused(r)) => return Err(signed(r)),
            Err(RunError::Replay(m)) => return Ok(Err(m)),
            Err(RunError::PreviewStop(reports, label)) => {
                report.orders = reports;
                stopped = Some(label);
            }
        }
        if dice.unused_recorded() > 0 {
            return Ok(Err(format!(
                "the record holds {} more rolls than the move used",
                dice.unused_recorded()
            )));
        }
        report.rolls = dice.into_rolls();
        report.position = Some(position);
        Ok(Ok(Evaluated {
            side,
            file,
            state,
            report,
            stopped,
        }))
    }

    fn run_orders(
        &self,
        state: &mut GameState,
        side: Side,
        orders: &[ParsedOrder],
        dice: &mut Dice,
    ) -> Result<Vec<OrderReport>, RunError> {
        let mut out = Vec::new();
        for o in orders {
            let prompt = self.ruleset.prompt(state);
            let result = if prompt.awaits(side).is_none() {
                Err(RuleError::illegal(
                    format!(
                        "{} is not asked to act any more ({})",
                        self.sides[side.index()].name,
                        prompt.stage
                    ),
                    "",
                ))
            } else {
                let mut trial = state.clone();
                self.ruleset
                    .apply(&mut trial, side, o, dice)
                    .map(|ev| (trial, ev))
            };
            match result {
                Ok((next, events)) => {
                    *state = next;
                    out.push(OrderReport {
                        source: o.source.clone(),
                        outcome: Ok(events),
                    });
                }
                Err(RuleError::Dice(DiceError::PreviewStops(label))) => {
                    return Err(RunError::PreviewStop(out, label));
                }
                Err(RuleError::Dice(
                    e @ (DiceError::RecordShort(_) | DiceError::RecordMismatch { .. }),
                )) => {
                    return Err(RunError::Replay(e.to_string()));
                }
                // 2(promise): refused only while no die has been rolled for this move.
                Err(e) if dice.count() == 0 => {
                    return Err(RunError::Refused(Rejection {
                        line: Some(o.source.clone()),
                        ..rej(RejectKind::Illegal, format!("line {}: {e}", o.source.line))
                    }));
                }
                Err(e) => out.push(OrderReport {
                    source: o.source.clone(),
                    outcome: Err(e.to_string()),
                }),
            }
        }
        Ok(out)
    }

    fn evaluate_default(
        &self,
        side: Side,
        orders: &[String],
        reason: &str,
        dice_from: DiceFrom,
    ) -> Result<(GameState, Report), String> {
        let Some(awaited) = self.prompt.awaits(side) else {
            return Err(format!(
                "{} is not awaited, so no default applies",
                self.sides[side.index()].name
            ));
        };
        if awaited.default != orders {
            return Err(format!(
                "the default applied ({orders:?}) is not the ruleset's stated default ({:?})",
                awaited.default
            ));
        }
        let lines: Vec<SourceLine> = orders
            .iter()
            .enumerate()
            .map(|(i, t)| SourceLine {
                line: i + 1,
                column: 1,
                text: t.clone(),
            })
            .collect();
        let mut state = self.state.clone();
        let parsed = self
            .ruleset
            .parse(&state, side, &lines)
            .map_err(|e| format!("the default orders do not parse: {e}"))?;
        let position = self.next_position;
        let text = orders.join("\n");
        let game = self.id();
        let mut dice = match dice_from {
            DiceFrom::Chain(chain) => {
                let k = chain.secret(position).map_err(|e| e.to_string())?;
                Dice::seeded(dice::seed(game, position, &k, &sha256(text.as_bytes())))
            }
            DiceFrom::Secret(k) => {
                Dice::seeded(dice::seed(game, position, &k, &sha256(text.as_bytes())))
            }
            DiceFrom::Recorded(r) => Dice::recorded(r),
            DiceFrom::Preview => Dice::preview(),
        };
        let reports = match self.run_orders(&mut state, side, &parsed, &mut dice) {
            Ok(r) => r,
            Err(RunError::Refused(r)) => {
                return Err(format!("the default orders are illegal: {}", r.reason));
            }
            Err(RunError::Replay(m)) => return Err(m),
            Err(RunError::PreviewStop(r, _)) => r,
        };
        Ok((
            state,
            Report {
                side: Some(side),
                by_default: true,
                reason: reason.to_string(),
                standing: Vec::new(),
                orders: reports,
                rolls: dice.into_rolls(),
                position: Some(position),
            },
        ))
    }

    /// Takes a signed submission: accepts it (appending the move and any due
    /// reveals), recognises a resent duplicate, or refuses it (appending the refusal).
    pub fn submit(&mut self, text: &[u8], signature: &str, chain: &DiceChain, at: &str) -> Verdict {
        let text_hash = sha256(text);
        if let Some((seq, side)) = self.accepted_texts.get(&text_hash).copied() {
            // The same signed bytes again: the same entry, the same rolls.
            if let Ok(file) = MoveFile::parse(text)
                && side_index(&self.sides, &file.side) == Some(side)
                && self.sides[side.index()]
                    .key
                    .verify(MOVE_NAMESPACE, text, signature)
                    .is_ok()
            {
                return Verdict::Duplicate { seq, side };
            }
        }
        match self.evaluate(text, Some(signature), DiceFrom::Chain(chain), true) {
            Ok(Ok(ev)) => {
                if ev.file.orders.is_empty() && ev.file.standing.is_none() {
                    return Verdict::Commands {
                        side: ev.side,
                        commands: ev.file.commands.into_iter().map(|(c, _)| c).collect(),
                    };
                }
                let side = ev.side;
                let body = Body::Move(MoveEntry {
                    side: self.sides[side.index()].name.clone(),
                    text: String::from_utf8_lossy(text).into_owned(),
                    signature: signature.to_string(),
                    position: ev.report.position,
                    rolls: ev.report.rolls.clone(),
                    state: ev.state.hash(),
                    at: at.to_string(),
                });
                let report = ev.report.clone();
                let due = self.commit_action(body, ev.state, ev.report, side, Some(text_hash));
                let seq = self.last_action;
                self.reveal(&due, chain);
                Verdict::Accepted { seq, side, report }
            }
            // Only a spent dice chain gets here live: the umpire's fault, not
            // the player's, so nothing is recorded against the move.
            Ok(Err(message)) => Verdict::Unavailable(message),
            Err(r) => self.record_rejection(text, Some(signature), r, at),
        }
    }

    fn reveal(&mut self, due: &[u64], chain: &DiceChain) {
        for p in due {
            if let Ok(secret) = chain.secret(*p) {
                let r = RevealEntry {
                    position: *p,
                    secret,
                };
                if self.accept_reveal(&r).is_ok() {
                    let seq = self.record.len() as u64;
                    let hash = self.record.push(Body::Reveal(r)).hash;
                    self.seq_of_hash.insert(hash, seq);
                }
            }
        }
    }

    fn record_rejection(
        &mut self,
        text: &[u8],
        signature: Option<&str>,
        rejection: Rejection,
        at: &str,
    ) -> Verdict {
        let (t, b) = match std::str::from_utf8(text) {
            Ok(t) => (Some(t.to_string()), None),
            Err(_) => (
                None,
                Some(base64::engine::general_purpose::STANDARD.encode(text)),
            ),
        };
        let seq = self.record.len() as u64;
        let hash = self
            .record
            .push(Body::Rejected(RejectedEntry {
                side: rejection.claimed.clone(),
                text: t,
                base64: b,
                signature: signature.map(str::to_string),
                reason: rejection.reason.clone(),
                at: at.to_string(),
            }))
            .hash;
        self.seq_of_hash.insert(hash, seq);
        Verdict::Rejected { seq, rejection }
    }

    /// Applies the ruleset's stated default for `side` after its deadline.
    pub fn apply_default(
        &mut self,
        side: Side,
        reason: &str,
        chain: &DiceChain,
        at: &str,
    ) -> Result<(u64, Report), String> {
        let orders = self
            .prompt
            .awaits(side)
            .map(|a| a.default.clone())
            .ok_or_else(|| format!("{} is not awaited", self.sides[side.index()].name))?;
        if orders.is_empty() {
            return Err("the game states no default for this decision".into());
        }
        let (state, report) =
            self.evaluate_default(side, &orders, reason, DiceFrom::Chain(chain))?;
        let body = Body::Default(DefaultEntry {
            side: self.sides[side.index()].name.clone(),
            orders,
            position: report.position,
            rolls: report.rolls.clone(),
            state: state.hash(),
            reason: reason.to_string(),
            at: at.to_string(),
        });
        let due = self.commit_action(body, state, report.clone(), side, None);
        let seq = self.last_action;
        self.reveal(&due, chain);
        Ok((seq, report))
    }

    /// What a move would do, without rolling: checks it up to its first roll.
    /// The signature is checked if given; an unsigned draft is fine.
    pub fn check(&self, text: &[u8], signature: Option<&str>) -> Result<CheckReport, Rejection> {
        let sig = signature.map(
            |s| match self.evaluate(text, Some(s), DiceFrom::Preview, true) {
                Err(r) if r.kind == RejectKind::Signature => Err(r.reason),
                _ => Ok(()),
            },
        );
        let ev = self
            .evaluate(text, None, DiceFrom::Preview, false)?
            .map_err(|m| rej(RejectKind::Illegal, m))?;
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

    /// The game id.
    pub fn id(&self) -> &str {
        self.record.opening().map_or("", |o| o.game.as_str())
    }

    /// The record.
    pub fn record(&self) -> &Record {
        &self.record
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
    pub fn ruleset(&self) -> &Arc<dyn Ruleset> {
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

    /// Dice positions used but not yet revealed.
    pub fn unrevealed(&self) -> &[u64] {
        &self.pending_reveal
    }

    /// The names of the sides being waited for.
    pub fn awaiting_names(&self) -> String {
        let v: Vec<String> = self
            .prompt
            .awaiting
            .iter()
            .map(|a| self.sides[a.side.index()].name.clone())
            .collect();
        if v.is_empty() {
            "nobody".into()
        } else {
            v.join(", ")
        }
    }

    /// The seq of the last entry that changed what `side` is asked to do
    /// (deadlines run from there).
    pub fn anchor(&self, side: Side) -> u64 {
        self.anchors.get(side.index()).copied().unwrap_or(0)
    }

    /// The awaited entry for `side`.
    pub fn awaits(&self, side: Side) -> Option<&Await> {
        self.prompt.awaits(side)
    }

    /// Is this an orders prompt (not a mid-turn decision) for `side`?
    pub fn owes_orders(&self, side: Side) -> bool {
        self.prompt
            .awaits(side)
            .is_some_and(|a| a.kind == AwaitKind::Orders)
    }
}

enum RunError {
    Refused(Rejection),
    Replay(String),
    PreviewStop(Vec<OrderReport>, String),
}

fn order_rejection(lines: &[SourceLine], e: OrderError) -> Rejection {
    Rejection {
        line: lines.iter().find(|l| l.line == e.line).cloned(),
        ..rej(RejectKind::Illegal, e.to_string())
    }
}

fn source_line(text: &[u8], line: usize, column: usize) -> Option<SourceLine> {
    let t = String::from_utf8_lossy(text);
    t.split('\n').nth(line.checked_sub(1)?).map(|l| SourceLine {
        line,
        column,
        text: l.trim_end_matches('\r').to_string(),
    })
}

fn roll_mismatch(recorded: &[Roll], derived: &[Roll]) -> String {
    for (i, (a, b)) in recorded.iter().zip(derived).enumerate() {
        if a != b {
            return format!(
                "roll {} ({}) is recorded as {} on a d{}, but the revealed secret gives {}: the roll was tampered with",
                i + 1,
                a.label,
                a.value,
                a.sides,
                b.value
            );
        }
    }
    format!(
        "the record holds {} rolls, the replay makes {}",
        recorded.len(),
        derived.len()
    )
}
