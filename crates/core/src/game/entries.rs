//! Building record bodies: what is in the clear, what is sealed and to whom.

use super::evaluate::Evaluated;
use super::{EngineFault, Game, Keys, Rejection, Report, StateMismatch, StepError, Verdict};
use crate::audience::Audience;
use crate::dice::Roll;
use crate::hash::{Digest, sha256};
use crate::record::{
    Body, DefaultEntry, MoveEntry, REFUSAL_EXCERPT_CHARS, RejectedEntry, SetupEntry, SlotSecret,
};
use crate::ruleset::{GameState, Side, StateError};
use crate::sealed::{EntrySalts, Hidden};
use base64::Engine as _;

/// Index of the state salt among an entry's salts: past any item it holds.
const STATE_SALT: u64 = u64::MAX;
/// Index of the salt sealing the state salt.
const STATE_SALT_SEAL: u64 = u64::MAX - 1;
/// First index of the hidden streams' secrets' salts.
const SLOT_SALTS: u64 = 1 << 32;

impl Game {
    /// The side names an audience stands for: `None` for everyone, empty for the umpire.
    pub(super) fn names_of(&self, audience: &Audience) -> Option<Vec<String>> {
        match audience {
            Audience::All => None,
            Audience::Sides(v) => Some(
                v.iter()
                    .filter_map(|s| self.sides.get(s.index()))
                    .map(|s| s.name.clone())
                    .collect(),
            ),
            Audience::Umpire => Some(Vec::new()),
        }
    }

    /// Salts for the next entry, or none in a game that hides nothing.
    fn salts<'k>(&self, keys: Keys<'k>) -> EntrySalts<'k> {
        let salter = if self.hides { keys.salter } else { None };
        EntrySalts::new(salter, self.record.len() as u64)
    }

    /// The state hash and, in a game that hides something, its sealed salt.
    pub(super) fn state_hash(
        &self,
        state: &GameState,
        keys: Keys,
    ) -> Result<(Digest, Option<Hidden<Digest>>), StateError> {
        match keys.salter.filter(|_| self.hides) {
            None => Ok((state.hash()?, None)),
            Some(s) => {
                let salt = s.salt(self.record.len() as u64, STATE_SALT);
                let d = state.commitment(&salt)?;
                let seal = s.salt(self.record.len() as u64, STATE_SALT_SEAL);
                Ok((d, Some(Hidden::new(salt, Some(Vec::new()), seal))))
            }
        }
    }

    /// Checks a recorded state hash against a replayed state: the entry
    /// being replayed is the next one of the record. A replay of the store's
    /// own record ([`super::ReplayMode::Stored`]) checks the head's only.
    pub(super) fn state_matches(
        &self,
        state: &GameState,
        recorded: &Digest,
        salt: Option<&Hidden<Digest>>,
    ) -> Result<(), StateMismatch> {
        if self
            .state_checked_at
            .is_some_and(|at| at != self.record.len() as u64)
        {
            return Ok(());
        }
        let derived = match salt {
            None => state.hash(),
            Some(h) => match h.value() {
                Some(s) => state.commitment(s),
                None => return Err(StateMismatch::SaltSealed),
            },
        }?;
        if derived == *recorded {
            Ok(())
        } else {
            Err(StateMismatch::Differs {
                derived,
                recorded: *recorded,
            })
        }
    }

    fn sealed_rolls(&self, rolls: &[Roll], salts: &mut EntrySalts) -> Vec<Hidden<Roll>> {
        rolls
            .iter()
            .map(|r| salts.item(r.clone(), self.names_of(&r.audience)))
            .collect()
    }

    /// The move entry of an accepted submission.
    pub(super) fn move_body(
        &self,
        text: &[u8],
        signature: &str,
        ev: &Evaluated,
        keys: Keys,
        at: &str,
    ) -> Result<Body, StateError> {
        let name = self.sides[ev.side.index()].name.clone();
        let to = ev.sealed_text.then(|| vec![name.clone()]);
        let lines = ev.public_lines.clone();
        let (state, salt) = self.state_hash(&ev.state, keys)?;
        let mut salts = self.salts(keys);
        Ok(Body::Move(MoveEntry {
            side: name,
            text: salts.item(String::from_utf8_lossy(text).into_owned(), to.clone()),
            signature: salts.item(signature.to_string(), to),
            lines,
            position: ev.report.position,
            rolls: self.sealed_rolls(&ev.report.rolls, &mut salts),
            state,
            salt,
            at: at.to_string(),
        }))
    }

    /// The default entry of a stated default applied after a deadline.
    #[allow(clippy::too_many_arguments)] // each is a distinct fact of the entry
    pub(super) fn default_body(
        &self,
        side: Side,
        orders: &[String],
        state: &GameState,
        report: &Report,
        keys: Keys,
        reason: &str,
        at: &str,
    ) -> Result<Body, StateError> {
        let (digest, salt) = self.state_hash(state, keys)?;
        let mut salts = self.salts(keys);
        Ok(Body::Default(DefaultEntry {
            side: self.sides[side.index()].name.clone(),
            orders: orders.to_vec(),
            position: report.position,
            rolls: self.sealed_rolls(&report.rolls, &mut salts),
            state: digest,
            salt,
            reason: reason.to_string(),
            at: at.to_string(),
        }))
    }

    /// The secrets of the hidden streams `slots` used at position `p`, each
    /// sealed to the side it serves (the umpire's to nobody).
    pub(super) fn slot_secrets(
        &self,
        slots: &[usize],
        p: u64,
        keys: Keys,
        seq: u64,
    ) -> Vec<Hidden<SlotSecret>> {
        let salter = if self.hides { keys.salter } else { None };
        let mut salts = EntrySalts::from_index(salter, seq, SLOT_SALTS);
        slots
            .iter()
            .filter_map(|&slot| {
                let secret = keys.hidden_secret(slot, p)?;
                let to = match slot {
                    0 => Vec::new(),
                    i => vec![self.sides.get(i - 1)?.name.clone()],
                };
                Some(salts.item(SlotSecret { slot, secret }, Some(to)))
            })
            .collect()
    }

    /// The setup entry: the deal's rolls, the secrets of the hidden streams it
    /// used (its position is 0: nothing is left to roll from them) and the state.
    pub(super) fn setup_body(
        &self,
        state: &GameState,
        rolls: &[Roll],
        keys: Keys,
    ) -> Result<Body, StateError> {
        let (digest, salt) = self.state_hash(state, keys)?;
        let mut salts = self.salts(keys);
        let seq = self.record.len() as u64;
        let slots = self.slot_secrets(&super::slots_used(rolls), 0, keys, seq);
        Ok(Body::Setup(SetupEntry {
            rolls: self.sealed_rolls(rolls, &mut salts),
            slots,
            state: digest,
            salt,
        }))
    }

    /// Checks a recorded setup entry against the replayed deal.
    pub(super) fn check_setup_body(
        &self,
        body: &Body,
        state: &GameState,
        rolls: &[Roll],
    ) -> Result<(), StepError> {
        let Body::Setup(s) = body else {
            return Err(StepError::NotSetup);
        };
        let recorded = rolls_of(&s.rolls);
        if recorded.len() == s.rolls.len() && recorded != rolls {
            return Err(EngineFault::from(super::evaluate::roll_mismatch(&recorded, rolls)).into());
        }
        self.state_matches(state, &s.state, s.salt.as_ref())
            .map_err(|e| EngineFault::from(e).into())
    }

    /// Appends a refusal. In a game that hides something the submission and
    /// the reason are sealed to the side it claims (it may hold hidden orders).
    pub(super) fn record_rejection(
        &mut self,
        text: &[u8],
        signature: Option<&str>,
        rejection: Rejection,
        keys: Keys,
        at: &str,
    ) -> Verdict {
        let to = self.hides.then(|| {
            rejection
                .claimed
                .as_deref()
                .and_then(|c| self.side(c))
                .map(|s| vec![self.sides[s.index()].name.clone()])
                .unwrap_or_default()
        });
        let mut salts = self.salts(keys);
        if !keeps_whole(text, &rejection) {
            let digest = Some(salts.item(sha256(text).to_hex(), to.clone()));
            let excerpt = Some(salts.item(refusal_excerpt(text), to.clone()));
            let reason = salts.item(bounded(&rejection.reason), to.clone());
            // A side's own file, too big to keep: its signature is kept, so
            // that a copy of it is known as one (`Game::duplicate`).
            let signature = signature
                .filter(|_| rejection.signer.is_some())
                .map(|s| salts.item(s.to_string(), to));
            let body = Body::Rejected(RejectedEntry {
                side: rejection.claimed.clone(),
                text: None,
                base64: None,
                signature,
                digest,
                excerpt,
                reason,
                at: at.to_string(),
            });
            return self.push_rejection(text, body, rejection);
        }
        let (t, b) = match std::str::from_utf8(text) {
            Ok(t) => (Some(salts.item(t.to_string(), to.clone())), None),
            Err(_) => (
                None,
                Some(salts.item(
                    base64::engine::general_purpose::STANDARD.encode(text),
                    to.clone(),
                )),
            ),
        };
        let body = Body::Rejected(RejectedEntry {
            side: rejection.claimed.clone(),
            text: t,
            base64: b,
            signature: signature.map(|s| salts.item(s.to_string(), to.clone())),
            digest: None,
            excerpt: None,
            reason: salts.item(rejection.reason.clone(), to),
            at: at.to_string(),
        });
        self.push_rejection(text, body, rejection)
    }

    /// Appends a refusal; a side's signed file is remembered as judged.
    fn push_rejection(&mut self, text: &[u8], body: Body, rejection: Rejection) -> Verdict {
        let seq = self.record.len() as u64;
        let hash = self.record_push(body).hash;
        self.seq_of_hash.insert(hash, seq);
        if rejection.signer.is_some() {
            self.refused_texts.entry(sha256(text)).or_insert(seq);
        }
        Verdict::Rejected { seq, rejection }
    }

    /// Remembers a recorded refusal that kept its signature as judged, by
    /// the hash of the bytes it refused (`Game::duplicate` checks the
    /// signature when a copy comes).
    pub(super) fn remember_refusal(&mut self, seq: u64, r: &RejectedEntry) {
        if r.signature.as_ref().and_then(|s| s.value()).is_none() {
            return;
        }
        if let Some(hash) = refused_hash(r) {
            self.refused_texts.entry(hash).or_insert(seq);
        }
    }
}

/// The SHA-256 of the bytes a refusal refused: hashed from the kept text,
/// or the digest it kept instead.
pub(super) fn refused_hash(r: &RejectedEntry) -> Option<Digest> {
    if let Some(d) = r.digest.as_ref() {
        return d.value()?.parse().ok();
    }
    if let Some(t) = r.text.as_ref() {
        return Some(sha256(t.value()?.as_bytes()));
    }
    let b = r.base64.as_ref()?.value()?;
    base64::engine::general_purpose::STANDARD
        .decode(b)
        .ok()
        .map(|bytes| sha256(&bytes))
}

/// The largest refused submission the record keeps whole (and a verifier
/// re-checks): a side's own signed move file. Anything bigger, and anything
/// no side's key signed (forged, unsigned, unreadable), is kept as a digest
/// and an excerpt, so hostile mail cannot grow the record (12.3).
pub const MAX_KEPT_REFUSAL: usize = 4096;

fn keeps_whole(text: &[u8], r: &Rejection) -> bool {
    r.signer.is_some() && text.len() <= MAX_KEPT_REFUSAL
}

/// The start of a refused submission, as text (lines kept, other control
/// characters as spaces).
fn refusal_excerpt(text: &[u8]) -> String {
    bounded(&String::from_utf8_lossy(
        &text[..text.len().min(4 * REFUSAL_EXCERPT_CHARS)],
    ))
}

/// At most [`REFUSAL_EXCERPT_CHARS`] characters, control characters as spaces.
fn bounded(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() && c != '\n' { ' ' } else { c })
        .take(REFUSAL_EXCERPT_CHARS)
        .collect()
}

/// The rolls a copy holds the values of.
pub(super) fn rolls_of(rolls: &[Hidden<Roll>]) -> Vec<Roll> {
    rolls.iter().filter_map(|r| r.value().cloned()).collect()
}
