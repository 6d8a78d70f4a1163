//! Auditing a side's copy of a record: everything that side can check
//! without the openings it may not hold.
//!
//! A copy cannot be replayed (the state is partly sealed), but its reader can
//! check the chain of hashes, every opening it holds against its commitment,
//! every signature it can read, every dice secret against its chain, the
//! public rolls of every move whose text it can read, and its own hidden
//! rolls from its own stream. What stays sealed is counted, and verifies when
//! the full record is published at the end.

use super::dice::{self, Dice, Roll};
use super::game::{ROUND_DOMAIN, public_move_hash, revealed_secrets};
use super::hash::{Digest, Tagged, sha256};
use super::record::{Body, Entry, Record};
use super::sealed::Hidden;
use super::sig::{MOVE_NAMESPACE, PublicKey};

/// What an audit checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditSummary {
    pub entries: u64,
    pub signatures_checked: u64,
    pub openings_checked: u64,
    /// Sealed items this copy holds only as commitments.
    pub sealed_items: u64,
    /// Rolls disclosed early, each checked against its commitment.
    pub disclosures_checked: u64,
    pub public_rolls_verified: u64,
    pub hidden_rolls_verified: u64,
    /// Rolls this copy cannot check yet (sealed text, unrevealed secret).
    pub rolls_unchecked: u64,
}

/// The copy is broken at an entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("entry {seq}: {message}")]
pub struct AuditError {
    pub seq: u64,
    pub message: String,
}

/// What is wrong with one entry of a copy (the message of its [`AuditError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum Fault {
    #[error(transparent)]
    Opening(#[from] crate::sealed::BadOpening),
    #[error("discloses {0}, which no earlier entry rolled")]
    NotRolled(String),
    #[error("discloses {0}, which was public already")]
    AlreadyPublic(String),
    #[error(
        "the disclosed {0} does not match the commitment sealed when it was rolled: it was altered after the fact"
    )]
    Altered(String),
    #[error("a move of {0}, which the game does not have")]
    UnknownSide(String),
    #[error("{side}'s signature does not verify: {error}")]
    Signature { side: String, error: String },
    #[error(transparent)]
    Dice(#[from] dice::DiceError),
    #[error(
        "roll {index} ({label}) is recorded as {recorded} on a d{sides}, but its committed stream gives {derived}: the roll was tampered with"
    )]
    Tampered {
        index: usize,
        label: String,
        recorded: u32,
        sides: u32,
        derived: u32,
    },
}

/// Audits a record copy (a full record audits too, but `Game::replay` checks more).
pub fn audit(record: &Record) -> Result<AuditSummary, AuditError> {
    let entries = record.entries();
    let Some(Body::Opening(o)) = entries.first().map(|e| &e.body) else {
        return Err(AuditError {
            seq: 0,
            message: "the record does not start with an opening".into(),
        });
    };
    let mut keys = o
        .sides
        .iter()
        .map(|s| open_or_key(&s.key).map(|k| (s.name.clone(), k)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| AuditError {
            seq: 0,
            message: format!("a side's key does not read: {e}"),
        })?;
    let (public, hidden) = revealed_secrets(entries).map_err(|e| AuditError {
        seq: e.seq,
        message: e.error.to_string(),
    })?;
    let rolled_at: std::collections::BTreeMap<u64, usize> = entries
        .iter()
        .filter_map(|e| Some((e.body.rolled()?.0, e.seq as usize)))
        .collect();
    let mut sum = AuditSummary {
        entries: entries.len() as u64,
        ..Default::default()
    };
    let prechecked = crate::game::precheck_moves(entries);
    for e in entries {
        let ctx = Ctx {
            prechecked: &prechecked,
            rolled_at: &rolled_at,
            entries,
            game: &o.game,
            k0: o.dice.k0,
            keys: &keys,
            public: &public,
            hidden: &hidden,
        };
        ctx.entry(e, &mut sum).map_err(|f| AuditError {
            seq: e.seq,
            message: f.to_string(),
        })?;
        new_key(&mut keys, &e.body);
    }
    Ok(sum)
}

/// A side's key in the opening: none for an open seat.
fn open_or_key(key: &str) -> Result<Option<PublicKey>, crate::sig::SigError> {
    if key.is_empty() {
        Ok(None)
    } else {
        PublicKey::parse(key).map(Some)
    }
}

/// An admin entry that replaces a side's key or seats a player: later moves
/// verify with it.
fn new_key(keys: &mut [(String, Option<PublicKey>)], body: &Body) {
    let Body::Admin(a) = body else { return };
    let (side, key) = match &a.act {
        crate::act::AdminAct::Key { side, key } => (side, key),
        crate::act::AdminAct::Seat(s) => (&s.side, &s.key),
        _ => return,
    };
    if let Ok(k) = PublicKey::parse(key)
        && let Some(slot) = keys.iter_mut().find(|(n, _)| n == side)
    {
        slot.1 = Some(k);
    }
}

struct Ctx<'a> {
    /// The open move signatures, checked in one batch ahead (issue 13).
    prechecked: &'a crate::sig::Prechecked,
    /// The entry that rolled at each dice position (one lookup per disclosure).
    rolled_at: &'a std::collections::BTreeMap<u64, usize>,
    entries: &'a [Entry],
    game: &'a str,
    k0: Digest,
    keys: &'a [(String, Option<PublicKey>)],
    public: &'a std::collections::BTreeMap<u64, Digest>,
    hidden: &'a std::collections::BTreeMap<(u64, usize), Digest>,
}

impl Ctx<'_> {
    fn entry(&self, e: &Entry, sum: &mut AuditSummary) -> Result<(), Fault> {
        e.body.check_openings()?;
        sum.sealed_items += e.body.closed_items() as u64;
        sum.openings_checked += e.body.opened_items() as u64;
        match &e.body {
            Body::Move(m) => {
                self.signature(&m.side, &m.text, &m.signature, sum)?;
                // A sealed move's public rolls are seeded by its public lines.
                let seed = match &m.text {
                    Hidden::Clear(t) => sha256(t.as_bytes()),
                    Hidden::Sealed(_) => public_move_hash(&m.side, &m.lines),
                };
                self.rolls(m.position, Some(seed), &m.rolls, sum)
            }
            Body::Sealed(s) => match (&s.text, &s.signature) {
                (Some(t), Some(sig)) => self.signature(&s.side, t, sig, sum),
                _ => Ok(()),
            },
            Body::Default(d) => {
                let text = Some(sha256(d.orders.join("\n").as_bytes()));
                self.rolls(d.position, text, &d.rolls, sum)
            }
            Body::Round(r) => {
                let seed = self.round_seed(r);
                self.rolls(Some(r.position), seed, &r.rolls, sum)
            }
            Body::Act(a) => {
                let text = Hidden::Clear(a.text.clone());
                let sig = Hidden::Clear(a.signature.clone());
                self.signature(&a.side, &text, &sig, sum)
            }
            Body::Setup(s) => {
                let opening = Some(crate::game::deal_seed_hash(&self.first_hash(e)));
                self.rolls(Some(0), opening, &s.rolls, sum)
            }
            Body::Disclose(d) => self.disclosures(e, d, sum),
            // A message this copy may read: its sender's signature.
            Body::Press(p) => match p.press() {
                Some(x) => {
                    let text = Hidden::Clear(x.text.clone());
                    let sig = Hidden::Clear(x.signature.clone());
                    self.signature(&x.from, &text, &sig, sum)
                }
                None => Ok(()),
            },
            _ => Ok(()),
        }
    }

    /// Each disclosed roll's opening against the commitment sealed when it
    /// was rolled, in an entry before this one.
    fn disclosures(
        &self,
        e: &Entry,
        d: &crate::record::DiscloseEntry,
        sum: &mut AuditSummary,
    ) -> Result<(), Fault> {
        for x in &d.items {
            let at = format!("roll {} of dice position {}", x.index, x.position);
            let roll = self
                .rolled_at
                .get(&x.position)
                .filter(|i| **i < e.seq as usize)
                .and_then(|i| self.entries[*i].body.rolled())
                .and_then(|(_, rolls)| rolls.get(x.index as usize));
            match roll {
                None => return Err(Fault::NotRolled(at)),
                Some(Hidden::Clear(_)) => return Err(Fault::AlreadyPublic(at)),
                Some(Hidden::Sealed(s)) => {
                    if crate::sealed::commitment(&x.salt, &x.roll) != s.sealed {
                        return Err(Fault::Altered(at));
                    }
                }
            }
            sum.disclosures_checked += 1;
        }
        Ok(())
    }

    /// The hash seeding a round's public rolls: each move's public projection.
    fn round_seed(&self, r: &crate::record::RoundEntry) -> Option<Digest> {
        let mut t = Tagged::new(ROUND_DOMAIN);
        for (seq, lines) in r.moves.iter().zip(&r.lines) {
            let Some(Body::Sealed(s)) = self.entries.get(*seq as usize).map(|e| &e.body) else {
                return None;
            };
            t = t.field(&public_move_hash(&s.side, lines).0);
        }
        (r.moves.len() == r.lines.len()).then(|| t.finish())
    }

    fn first_hash(&self, e: &Entry) -> Digest {
        // The setup entry always follows the opening.
        e.prev
    }

    fn signature(
        &self,
        side: &str,
        text: &Hidden<String>,
        signature: &Hidden<String>,
        sum: &mut AuditSummary,
    ) -> Result<(), Fault> {
        let (Some(t), Some(s)) = (text.value(), signature.value()) else {
            return Ok(());
        };
        let Some((_, Some(key))) = self.keys.iter().find(|(n, _)| n == side) else {
            return Err(Fault::UnknownSide(side.to_string()));
        };
        key.verify_prechecked(MOVE_NAMESPACE, t.as_bytes(), s, Some(self.prechecked))
            .map_err(|e| Fault::Signature {
                side: side.to_string(),
                error: e.to_string(),
            })?;
        sum.signatures_checked += 1;
        Ok(())
    }

    /// Re-derives the public rolls (given the move's hash and the revealed
    /// secret) and each hidden stream's rolls this copy can read whole.
    fn rolls(
        &self,
        position: Option<u64>,
        move_hash: Option<Digest>,
        rolls: &[Hidden<Roll>],
        sum: &mut AuditSummary,
    ) -> Result<(), Fault> {
        let Some(p) = position else {
            return Ok(());
        };
        let secret = if p == 0 {
            Some(self.k0)
        } else {
            self.public.get(&p).copied()
        };
        let public: Vec<&Roll> = rolls
            .iter()
            .filter_map(|r| r.value())
            .filter(|r| r.audience.is_public())
            .collect();
        match (secret, move_hash) {
            (Some(k), Some(h)) => {
                rederive(Dice::seeded(dice::seed(self.game, p, &k, &h)), &public)?;
                sum.public_rolls_verified += public.len() as u64;
            }
            _ => sum.rolls_unchecked += public.len() as u64,
        }
        // A side's own stream serves only rolls to that side alone: a copy
        // that reads one of them reads all of them.
        let mut slots: Vec<usize> = rolls
            .iter()
            .filter_map(|r| r.value())
            .filter(|r| !r.audience.is_public())
            .map(|r| dice::slot_of(&r.audience))
            .collect();
        slots.sort();
        slots.dedup();
        for slot in slots {
            let of_slot: Vec<&Roll> = rolls
                .iter()
                .filter_map(|r| r.value())
                .filter(|r| !r.audience.is_public() && dice::slot_of(&r.audience) == slot)
                .collect();
            let whole = slot > 0 || rolls.iter().all(|r| r.value().is_some());
            match self.hidden.get(&(p, slot)) {
                Some(g) if whole => {
                    let seed = dice::hidden_seed(self.game, p, slot, g);
                    rederive(Dice::seeded(seed), &of_slot)?;
                    sum.hidden_rolls_verified += of_slot.len() as u64;
                }
                _ => sum.rolls_unchecked += of_slot.len() as u64,
            }
        }
        sum.rolls_unchecked += rolls.iter().filter(|r| r.value().is_none()).count() as u64;
        Ok(())
    }
}

/// Draws the same dice from a stream and compares each value.
fn rederive(mut d: Dice, rolls: &[&Roll]) -> Result<(), Fault> {
    for (i, r) in rolls.iter().enumerate() {
        let v = d.roll(r.sides, &r.label)?;
        if v != r.value {
            return Err(Fault::Tampered {
                index: i + 1,
                label: r.label.clone(),
                recorded: r.value,
                sides: r.sides,
                derived: v,
            });
        }
    }
    Ok(())
}
