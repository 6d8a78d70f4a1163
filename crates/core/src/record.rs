//! The record: an append-only, hash-chained list of everything that happened in
//! a game. A game's state is always `replay(record)`; the store is an index.
//!
//! Each entry's hash is `H("umpire-entry-v1" ‖ seq ‖ prev ‖ JCS(body))`, where
//! JCS is RFC 8785 canonical JSON, so any language can recompute it. The record
//! exports to one text file: comment lines starting with `#`, then one JSON
//! object per entry.

use super::act::{ActEntry, AdminEntry};
use super::dice::{Commitment, Roll, RollRef};
use super::hash::{Digest, Tagged};
use super::sealed::{BadOpening, Hidden};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the record format of a game that hides nothing.
pub const FORMAT: u32 = 1;
/// Version of the record format of a game that hides something: sealed items,
/// salted state hashes, hidden dice streams, sealed rounds; the public order
/// lines of a sealed move numbered among its public lines alone.
pub const FORMAT_HIDDEN: u32 = 3;
/// The first format of a game that hides something: a sealed move's public
/// lines kept their numbers in the move file, which told how many hidden
/// lines stood before them. Records of it replay so.
pub const FORMAT_HIDDEN_SOURCE_LINES: u32 = 2;
/// Domain tag of the entry hash.
pub const ENTRY_DOMAIN: &str = "umpire-entry-v1";
/// First line of an exported record.
pub const MAGIC: &str = "# umpire record";

/// One side as declared at the opening.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideDecl {
    /// The side's name, lower case (`ming`).
    pub name: String,
    /// Where its results go (empty for an open seat).
    pub email: String,
    /// Its OpenSSH ed25519 public key: the only authority for its moves.
    /// Empty for an open seat, which a player takes by mail later
    /// (`core::seat`, an `AdminAct::Seat` entry); until then nobody's
    /// signature speaks for the side.
    pub key: String,
}

impl SideDecl {
    /// Is this seat open (no player's key yet)?
    pub fn is_open(&self) -> bool {
        self.key.is_empty()
    }
}

/// The first entry: what the game is and how its dice are committed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    pub format: u32,
    pub game: String,
    pub ruleset: String,
    pub ruleset_version: u32,
    /// Hash of the ruleset's game data, for rulesets that have data files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruleset_data: Option<Digest>,
    pub scenario: String,
    pub options: BTreeMap<String, String>,
    pub sides: Vec<SideDecl>,
    pub dice: Commitment,
    /// The hidden dice streams' chains, by slot: the umpire's first, then one
    /// per side in order. Empty for a game that hides nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden: Vec<Commitment>,
    /// The umpire's public key, which signs result mails and record heads.
    pub umpire: String,
    /// When the game was created (RFC 3339, UTC). Informative only.
    pub at: String,
}

/// An order line of a sealed move that every side may read: the umpire's
/// excerpt, checked against the opened text at the end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicLine {
    /// The line's number among the move's public lines, from 1 (in a
    /// record of format 2, its number in the move file).
    pub line: usize,
    pub text: String,
}

/// A signed submission that was accepted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveEntry {
    pub side: String,
    /// The exact signed bytes of the move file; sealed to its side when some
    /// line or its standing orders are not for every side.
    pub text: Hidden<String>,
    /// The armored SSHSIG over `text` (sealed with it: a signature would let
    /// another side test guesses of the text).
    pub signature: Hidden<String>,
    /// For a sealed text: the order lines every side may read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<PublicLine>,
    /// The dice position the move rolled at, if it had orders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u64>,
    /// Every die rolled, in order; hidden rolls sealed to their audience.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Hidden<Roll>>,
    /// The state hash after the move (salted in a game that hides something).
    pub state: Digest,
    /// The salt of `state`, sealed to the umpire until the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<Hidden<Digest>>,
    /// When it was received. Informative only.
    pub at: String,
}

/// A submission that was refused. Kept so anyone can check it really was illegal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RejectedEntry {
    /// The side it claimed to be from, if readable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The submitted bytes, if UTF-8 (sealed to the claimed side in a game
    /// that hides something: a refused move may hold hidden orders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<Hidden<String>>,
    /// The submitted bytes, base64, if not UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base64: Option<Hidden<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Hidden<String>>,
    /// Instead of `text`/`base64`/`signature`, for a submission too big to
    /// keep or that no side's key signed: the SHA-256 of the submitted bytes
    /// (hex), so a sender can show which bytes were refused (sealed like the text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<Hidden<String>>,
    /// With `digest`: the start of the submission, at most
    /// [`REFUSAL_EXCERPT_CHARS`] characters (sealed like the text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<Hidden<String>>,
    /// Why (sealed with the text: it may quote an order).
    pub reason: Hidden<String>,
    pub at: String,
}

/// The longest excerpt a digested refusal keeps of the submission.
pub const REFUSAL_EXCERPT_CHARS: usize = 200;

/// The secret of one hidden dice stream at a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlotSecret {
    /// 0 the umpire's stream, `i + 1` side `i`'s.
    pub slot: usize,
    pub secret: Digest,
}

/// The dice secret of a position, revealed once no move can still use it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevealEntry {
    pub position: u64,
    pub secret: Digest,
    /// The secrets of the hidden streams the position used, each sealed to
    /// its side (the umpire's to nobody) and opened in the full record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slots: Vec<Hidden<SlotSecret>>,
}

/// What the random part of the set-up rolled (dealt hands, a shuffled deck).
/// Written only when it rolled; it uses dice position 0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupEntry {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Hidden<Roll>>,
    /// The hidden streams' secrets of position 0, as in a reveal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slots: Vec<Hidden<SlotSecret>>,
    pub state: Digest,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<Hidden<Digest>>,
}

/// A side's orders in a sealed round, recorded as a commitment when they
/// arrive; a later one from the same side in the same round replaces it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedEntry {
    pub side: String,
    /// The signed move, sealed to its side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<Hidden<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<Hidden<String>>,
    /// Or the side's stated default, applied after its deadline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Hidden<Vec<String>>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub at: String,
}

/// The resolution of a sealed round: the sealed entries it opens, in side
/// order, applied together with dice drawn after the last was in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundEntry {
    /// The seqs of the sealed entries resolved, in the order applied.
    pub moves: Vec<u64>,
    /// Per move, the order lines every side may now read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<Vec<PublicLine>>,
    pub position: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Hidden<Roll>>,
    pub state: Digest,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<Hidden<Digest>>,
    pub at: String,
}

/// A new dice chain, published before any move can use it: when a chain runs
/// out, or when a game is restored without the old secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecommitEntry {
    /// The first dice position the new chain serves; its `k0` stands for the one before.
    pub from_position: u64,
    pub dice: Commitment,
    /// New hidden streams' chains, by slot, for a game that has them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hidden: Vec<Commitment>,
    pub reason: String,
    pub at: String,
    /// The umpire key (`ssh-ed25519 …`) that signs the game's mails from
    /// here on, when the game moved to another umpire (`import`); absent when
    /// the same umpire goes on. Absent in every record written before it, so
    /// their hashes stand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub umpire: Option<String>,
}

/// A ruleset's version and game data, as a record names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesetVersion {
    pub version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Digest>,
}

impl std::fmt::Display for RulesetVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "version {}", self.version)?;
        if let Some(d) = self.data {
            write!(f, " (data {})", d.short(12))?;
        }
        Ok(())
    }
}

/// The game moves on to another version of its ruleset (or other game data).
///
/// Without `diverged_at`, the umpire replayed every entry before this one
/// under `to` and reached the same states, so a verifier may replay the
/// whole record under `to`. With it, the admin chose to move the game on
/// although the replay differed first at that entry: entries before this one
/// replay under `from`, the rest under `to`, from the state reached so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UpgradeEntry {
    pub from: RulesetVersion,
    pub to: RulesetVersion,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diverged_at: Option<u64>,
    pub reason: String,
    pub at: String,
}

/// Orders the umpire applied for a side after its deadline passed.
/// The openings of earlier hidden rolls that the rules revealed in the entry
/// just before this one (a chit shown, a card played from a hidden hand).
/// Every side can check each against the commitment sealed when it was rolled;
/// a replay of the full record derives the same list from the ruleset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiscloseEntry {
    pub items: Vec<Disclosure>,
}

/// One disclosed roll: where it was rolled and its opening.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disclosure {
    /// The dice position of the entry that rolled it.
    pub position: u64,
    /// Its index among that entry's rolls.
    pub index: u32,
    pub salt: Digest,
    pub roll: Roll,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefaultEntry {
    pub side: String,
    /// The ruleset's stated default for that moment.
    pub orders: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Hidden<Roll>>,
    pub state: Digest,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<Hidden<Digest>>,
    /// Why, e.g. "deadline 2026-12-01T18:00Z passed, grace 24h".
    pub reason: String,
    pub at: String,
}

/// What an entry records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
// The refusal's optional digested form made it the largest variant; bodies are
// built once per entry and moved rarely, so boxing would buy nothing here.
#[allow(clippy::large_enum_variant)]
pub enum Body {
    Opening(Opening),
    Move(MoveEntry),
    Rejected(RejectedEntry),
    Reveal(RevealEntry),
    Default(DefaultEntry),
    Recommit(RecommitEntry),
    Setup(SetupEntry),
    Sealed(SealedEntry),
    Round(RoundEntry),
    Upgrade(UpgradeEntry),
    Disclose(DiscloseEntry),
    /// A side's concession or draw offer (`core::act`).
    Act(ActEntry),
    /// An act of the club's admin (`core::act`).
    Admin(AdminEntry),
    /// A message between sides (`core::press`); changes nothing in the game.
    Press(crate::press::PressEntry),
}

/// Lists every sealed-able item of a body, as `&dyn` or `&mut dyn HiddenItem`.
macro_rules! hidden_items {
    ($body:expr, $iter:ident, $($m:tt)*) => {{
        let mut v: Vec<& $($m)* dyn HiddenItem> = Vec::new();
        match $body {
            Body::Opening(_)
            | Body::Recommit(_)
            | Body::Upgrade(_)
            | Body::Disclose(_)
            | Body::Act(_)
            | Body::Admin(_) => {}
            Body::Move(m) => {
                v.push(& $($m)* m.text);
                v.push(& $($m)* m.signature);
                v.extend(m.rolls.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.extend(m.salt.$iter().map(|x| x as & $($m)* dyn HiddenItem));
            }
            Body::Rejected(r) => {
                v.extend(r.text.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.extend(r.base64.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.extend(r.signature.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.extend(r.digest.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.extend(r.excerpt.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.push(& $($m)* r.reason);
            }
            Body::Reveal(r) => {
                v.extend(r.slots.$iter().map(|x| x as & $($m)* dyn HiddenItem));
            }
            Body::Default(d) => {
                v.extend(d.rolls.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.extend(d.salt.$iter().map(|x| x as & $($m)* dyn HiddenItem));
            }
            Body::Setup(s) => {
                v.extend(s.rolls.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.extend(s.slots.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.extend(s.salt.$iter().map(|x| x as & $($m)* dyn HiddenItem));
            }
            Body::Sealed(s) => {
                v.extend(s.text.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.extend(s.signature.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.extend(s.default.$iter().map(|x| x as & $($m)* dyn HiddenItem));
            }
            Body::Round(r) => {
                v.extend(r.rolls.$iter().map(|x| x as & $($m)* dyn HiddenItem));
                v.extend(r.salt.$iter().map(|x| x as & $($m)* dyn HiddenItem));
            }
            Body::Press(p) => {
                v.extend(p.sealed.$iter().map(|x| x as & $($m)* dyn HiddenItem));
            }
        }
        v
    }};
}

impl Body {
    /// The kind's name as written in the record.
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Opening(_) => "opening",
            Body::Move(_) => "move",
            Body::Rejected(_) => "rejected",
            Body::Reveal(_) => "reveal",
            Body::Default(_) => "default",
            Body::Recommit(_) => "recommit",
            Body::Setup(_) => "setup",
            Body::Sealed(_) => "sealed",
            Body::Round(_) => "round",
            Body::Upgrade(_) => "upgrade",
            Body::Disclose(_) => "disclose",
            Body::Act(_) => "act",
            Body::Admin(_) => "admin",
            Body::Press(_) => "press",
        }
    }

    /// The dice position and rolls of an entry that rolls dice (a move, a
    /// default, a round, the set-up at position 0).
    pub fn rolled(&self) -> Option<(u64, &[Hidden<Roll>])> {
        match self {
            Body::Move(m) => Some((m.position?, &m.rolls)),
            Body::Default(d) => Some((d.position?, &d.rolls)),
            Body::Round(r) => Some((r.position, &r.rolls)),
            Body::Setup(s) => Some((0, &s.rolls)),
            _ => None,
        }
    }

    /// Drops the openings that `viewer` may not see (`None`: an observer,
    /// who sees only what is public; the hash form drops every opening).
    pub fn redact(&mut self, viewer: Option<&str>) {
        let keep = |to: &[String]| viewer.is_some_and(|v| to.iter().any(|t| t == v));
        for h in hidden_items!(self, iter_mut, mut) {
            h.redact_dyn(&keep);
        }
    }

    /// How many openings the body holds (what [`Body::redact`] for an
    /// observer would drop).
    pub fn opened_items(&self) -> usize {
        hidden_items!(self, iter,)
            .iter()
            .filter(|h| h.opened())
            .count()
    }

    /// Does the body hold any opening (so its hash form differs from it)?
    pub fn has_openings(&self) -> bool {
        hidden_items!(self, iter,).iter().any(|h| h.opened())
    }

    /// How many sealed items this copy holds without their opening.
    pub fn closed_items(&self) -> usize {
        hidden_items!(self, iter,)
            .iter()
            .filter(|h| h.closed())
            .count()
    }

    /// One walk over the body's hidden items (issue 13: a replay walked
    /// them three times an entry): how many are sealed without their opening,
    /// and, when `check` is set, how many are opened, each opening checked
    /// against its commitment first.
    pub fn tally_items(&self, check: bool) -> Result<ItemTally, BadOpening> {
        let mut t = ItemTally::default();
        for h in hidden_items!(self, iter,) {
            if h.closed() {
                t.closed += 1;
            }
            if check {
                h.check_dyn()?;
                if h.opened() {
                    t.opened += 1;
                }
            }
        }
        Ok(t)
    }

    /// Checks every opening against its commitment.
    pub fn check_openings(&self) -> Result<(), BadOpening> {
        hidden_items!(self, iter,)
            .iter()
            .try_for_each(|h| h.check_dyn())
    }
}

/// What [`Body::tally_items`] counts.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ItemTally {
    /// Sealed items held without their opening (a side's copy).
    pub closed: usize,
    /// Items held with their opening (counted only when checked).
    pub opened: usize,
}

/// The roll `r` refers to: the latest entry rolled at its position (a
/// position is used once, so there is one), at its index.
pub fn find_roll(entries: &[Entry], r: RollRef) -> Option<&Hidden<Roll>> {
    entries
        .iter()
        .rev()
        .find_map(|e| e.body.rolled().filter(|(p, _)| *p == r.position))
        .and_then(|(_, rolls)| rolls.get(r.index as usize))
}

/// A sealed-able item, whatever its value type.
trait HiddenItem {
    fn redact_dyn(&mut self, keep: &dyn Fn(&[String]) -> bool);
    fn opened(&self) -> bool;
    fn closed(&self) -> bool;
    fn check_dyn(&self) -> Result<(), BadOpening>;
}

impl<T: Serialize> HiddenItem for Hidden<T> {
    fn redact_dyn(&mut self, keep: &dyn Fn(&[String]) -> bool) {
        self.redact(keep)
    }
    fn opened(&self) -> bool {
        self.is_opened()
    }
    fn closed(&self) -> bool {
        self.is_closed()
    }
    fn check_dyn(&self) -> Result<(), BadOpening> {
        self.check()
    }
}

/// One link of the chain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub seq: u64,
    pub prev: Digest,
    pub hash: Digest,
    pub body: Body,
}

/// Where an entry sits in the chain: its seq, the hash before it and its
/// own hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    pub seq: u64,
    pub prev: Digest,
    pub hash: Digest,
}

impl Entry {
    /// This entry's place in the chain.
    pub fn link(&self) -> Link {
        Link {
            seq: self.seq,
            prev: self.prev,
            hash: self.hash,
        }
    }
}

/// The record is broken at an entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("record line {line}: {message}")]
    Syntax { line: usize, message: String },
    #[error("entry {seq}: {message}")]
    Chain { seq: u64, message: String },
    #[error("the record is empty")]
    Empty,
}

/// The hash of an entry with this place and body. It is taken over the
/// body's hash form, without openings, so every side's copy has the same hash.
pub fn entry_hash(seq: u64, prev: &Digest, body: &Body) -> Digest {
    let canon = if body.has_openings() {
        let mut form = body.clone();
        form.redact(None);
        crate::canon::to_vec(&form)
    } else {
        crate::canon::to_vec(body)
    }
    .unwrap_or_default();
    Tagged::new(ENTRY_DOMAIN)
        .u64(seq)
        .field(&prev.0)
        .field(&canon)
        .finish()
}

/// The content hashes of `entries`, taken on all cores.
fn entry_hashes(entries: &[Entry]) -> Vec<Digest> {
    crate::par::shares(entries, 256, |share| {
        share
            .iter()
            .map(|e| entry_hash(e.seq, &e.prev, &e.body))
            .collect::<Vec<_>>()
    })
    .concat()
}

/// A dice position an entry may not name (see [`Positions`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum PositionError {
    #[error(
        "discloses a roll of dice position {position}: entry {seq} can name positions before {seq} only"
    )]
    Disclosed { position: u64, seq: u64 },
    #[error("{what} at dice position {position}: entry {seq} can name positions 1 to {seq} only")]
    Beyond {
        what: &'static str,
        position: u64,
        seq: u64,
    },
    #[error("reveals dice position {position}, but the secrets are known up to {known} already")]
    Revealed { position: u64, known: u64 },
    #[error("a new dice chain from position {position}, before the revealed position {known}")]
    Recommit { position: u64, known: u64 },
}

/// Checks the dice positions entries name before anything is hashed: a
/// reveal is checked by hashing its secret down to the last known one, once
/// per position between them, so a forged position of 2^53 would hash for
/// ever. Each move uses at most one position and positions are used in turn,
/// so an entry never names a position beyond its own `seq`; reveals go up,
/// and a new chain starts after the last reveal. With these, checking all
/// reveals costs at most one hash per position used.
#[derive(Default)]
struct Positions {
    /// The position the secrets are known up to (the commitment stands for 0).
    known: u64,
}

impl Positions {
    fn check(&mut self, e: &Entry) -> Result<(), PositionError> {
        let (p, what) = match &e.body {
            Body::Move(m) => match m.position {
                Some(p) => (p, "move"),
                None => return Ok(()),
            },
            Body::Default(d) => match d.position {
                Some(p) => (p, "default"),
                None => return Ok(()),
            },
            Body::Round(r) => (r.position, "round"),
            Body::Reveal(r) => (r.position, "reveal"),
            Body::Recommit(r) => (r.from_position, "new dice chain"),
            // A disclosure names rolls of earlier entries only.
            Body::Disclose(d) => {
                return match d.items.iter().find(|x| x.position >= e.seq) {
                    Some(x) => Err(PositionError::Disclosed {
                        position: x.position,
                        seq: e.seq,
                    }),
                    None => Ok(()),
                };
            }
            // The set-up uses position 0; sealed orders roll in their round.
            Body::Opening(_)
            | Body::Rejected(_)
            | Body::Setup(_)
            | Body::Sealed(_)
            | Body::Upgrade(_)
            | Body::Act(_)
            | Body::Admin(_)
            | Body::Press(_) => {
                return Ok(());
            }
        };
        if p == 0 || p > e.seq {
            return Err(PositionError::Beyond {
                what,
                position: p,
                seq: e.seq,
            });
        }
        let known = self.known;
        match &e.body {
            Body::Reveal(_) if p <= known => Err(PositionError::Revealed { position: p, known }),
            Body::Recommit(_) if p - 1 < known => {
                Err(PositionError::Recommit { position: p, known })
            }
            Body::Reveal(_) => {
                self.known = p;
                Ok(())
            }
            Body::Recommit(_) => {
                self.known = p - 1;
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// Whether building a record checks each sealed item's opening against its
/// commitment ([`Record::from_stored`] takes them as stored).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Openings {
    Check,
    Trusted,
}

/// An append-only, hash-chained list of entries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Record {
    entries: Vec<Entry>,
}

impl Record {
    /// A record holding only its opening.
    pub fn open(opening: Opening) -> Record {
        let mut r = Record::default();
        r.push(Body::Opening(opening));
        r
    }

    /// Appends a body, linking and hashing it; returns the new entry.
    pub fn push(&mut self, body: Body) -> &Entry {
        let seq = self.entries.len() as u64;
        let prev = self.entries.last().map_or(Digest::ZERO, |e| e.hash);
        let hash = entry_hash(seq, &prev, &body);
        self.entries.push(Entry {
            seq,
            prev,
            hash,
            body,
        });
        &self.entries[seq as usize]
    }

    /// [`Record::push`] for a replay that pushes a recorded body again
    /// unchanged: it takes the hash of `link`, the recorded link of that very
    /// body, when it is the next link (the same seq and prev), instead of
    /// hashing the body again. The caller answers for the body being the
    /// recorded one (debug builds check it).
    pub(crate) fn push_unchanged(&mut self, body: Body, link: Link) -> &Entry {
        let seq = self.entries.len() as u64;
        let prev = self.head();
        if link.seq != seq || link.prev != prev {
            return self.push(body);
        }
        debug_assert_eq!(entry_hash(seq, &prev, &body), link.hash, "entry {seq}");
        self.entries.push(Entry {
            seq,
            prev,
            hash: link.hash,
            body,
        });
        &self.entries[seq as usize]
    }

    /// Room for `more` entries, so a replay does not move the record as it
    /// grows.
    pub(crate) fn reserve(&mut self, more: usize) {
        self.entries.reserve(more);
    }

    /// Every entry, in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Every entry, in order, given up by the record.
    pub fn into_entries(self) -> Vec<Entry> {
        self.entries
    }

    /// The last entry's hash.
    pub fn head(&self) -> Digest {
        self.entries.last().map_or(Digest::ZERO, |e| e.hash)
    }

    /// How many entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// No entries at all?
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The opening, if the record starts with one.
    pub fn opening(&self) -> Option<&Opening> {
        match self.entries.first().map(|e| &e.body) {
            Some(Body::Opening(o)) => Some(o),
            _ => None,
        }
    }

    /// The umpire key that signed the mails carrying entries up to `seq`: the
    /// opening's, or the one a later `recommit` handed the game to.
    pub fn umpire_key_at(&self, seq: u64) -> Option<&str> {
        let keys = self.umpire_keys();
        keys.iter()
            .rev()
            .find(|(from, _)| *from <= seq)
            .map(|(_, k)| *k)
    }

    /// Every umpire key the game has had, each with the entry where it took
    /// charge: the opening's at 0, then each hand-over.
    pub fn umpire_keys(&self) -> Vec<(u64, &str)> {
        self.entries
            .iter()
            .filter_map(|e| match &e.body {
                Body::Opening(o) => Some((e.seq, o.umpire.as_str())),
                Body::Recommit(RecommitEntry {
                    umpire: Some(k), ..
                }) => Some((e.seq, k.as_str())),
                _ => None,
            })
            .collect()
    }

    /// Builds a record from entries, checking every link and hash.
    pub fn from_entries(entries: Vec<Entry>) -> Result<Record, RecordError> {
        let hashes = entry_hashes(&entries);
        Record::from_hashed(entries, &hashes, Openings::Check)
    }

    /// Builds a record from entries the umpire's own store kept, each of
    /// which was hashed (or checked) when it was appended and committed
    /// whole: the order, links and dice positions are checked, but each
    /// entry's stated hash is taken as its content hash and sealed openings
    /// as they were checked, so a poll that loads a long game does not hash
    /// every entry of it again. Debug builds check everything, as
    /// [`Record::from_entries`] does. Never for a record from outside.
    pub fn from_stored(entries: Vec<Entry>) -> Result<Record, RecordError> {
        if cfg!(debug_assertions) {
            return Record::from_entries(entries);
        }
        Record::from_trusted(entries)
    }

    /// [`Record::from_stored`] without the debug builds' full check.
    fn from_trusted(entries: Vec<Entry>) -> Result<Record, RecordError> {
        let hashes: Vec<Digest> = entries.iter().map(|e| e.hash).collect();
        Record::from_hashed(entries, &hashes, Openings::Trusted)
    }

    /// [`Record::from_entries`] with each entry's content hash already taken
    /// (`hashes[i]` is entry `i`'s).
    fn from_hashed(
        entries: Vec<Entry>,
        hashes: &[Digest],
        openings: Openings,
    ) -> Result<Record, RecordError> {
        if entries.is_empty() {
            return Err(RecordError::Empty);
        }
        let mut prev = Digest::ZERO;
        let mut positions = Positions::default();
        for (i, e) in entries.iter().enumerate() {
            let chain = |message: String| RecordError::Chain {
                seq: e.seq,
                message,
            };
            if e.seq != i as u64 {
                return Err(chain(format!(
                    "out of order: found at position {i}, entries were reordered or removed"
                )));
            }
            if e.prev != prev {
                return Err(chain(format!(
                    "does not follow entry {}: prev is {}, expected {}",
                    i.saturating_sub(1),
                    e.prev.short(16),
                    prev.short(16)
                )));
            }
            positions.check(e).map_err(|p| chain(p.to_string()))?;
            let h = hashes[i];
            if h != e.hash {
                return Err(chain(format!(
                    "{} entry was altered: its content hashes to {}, but it claims {}",
                    e.body.kind(),
                    h.short(16),
                    e.hash.short(16)
                )));
            }
            if openings == Openings::Check {
                e.body.check_openings().map_err(|b| chain(b.to_string()))?;
            }
            if (i == 0) != matches!(e.body, Body::Opening(_)) {
                return Err(chain(
                    "the first entry, and only the first, must be the opening".into(),
                ));
            }
            prev = e.hash;
        }
        Ok(Record { entries })
    }

    /// The copy of the record `viewer` may hold: every sealed item it may not
    /// see keeps only its commitment (`None`: an observer's public copy).
    /// Hashes and head are the same as the full record's.
    pub fn copy_for(&self, viewer: Option<&str>) -> Record {
        let entries = self
            .entries
            .iter()
            .map(|e| {
                let mut e = e.clone();
                e.body.redact(viewer);
                e
            })
            .collect();
        Record { entries }
    }

    /// Does this copy hold every opening (the full record)?
    pub fn is_complete(&self) -> bool {
        self.entries.iter().all(|e| e.body.closed_items() == 0)
    }

    /// The exported text: comment header, then one JSON object per line.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!("{MAGIC}, format {FORMAT}\n"));
        if !self.is_complete() {
            s.push_str(
                "# a side's copy: sealed items it may not see hold only their commitments\n",
            );
        }
        if let Some(o) = self.opening() {
            s.push_str(&format!(
                "# game {} ({} v{}, scenario {}), {} entries, head {}\n",
                o.game,
                o.ruleset,
                o.ruleset_version,
                o.scenario,
                self.len(),
                self.head()
            ));
        }
        s.push_str("# check it with: umpire verify FILE\n");
        for e in &self.entries {
            // Entries serialise infallibly: strings, integers and digests only.
            s.push_str(&serde_json::to_string(e).unwrap_or_default());
            s.push('\n');
        }
        s
    }

    /// Reads an exported record, checking the chain.
    pub fn from_text(text: &str) -> Result<Record, RecordError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.trim()))
            .filter(|(_, t)| !t.is_empty() && !t.starts_with('#'))
            .collect();
        // Each line is read and hashed on its own (an entry's hash covers
        // its recorded `prev`, not the entry before), so the cores share
        // the work; the chain is then checked in order.
        let read = crate::par::shares(&lines, 256, |share| {
            share
                .iter()
                .map(|&(line, t)| {
                    let e: Entry = serde_json::from_str(t).map_err(|e| RecordError::Syntax {
                        line,
                        message: e.to_string(),
                    })?;
                    let h = entry_hash(e.seq, &e.prev, &e.body);
                    Ok((e, h))
                })
                .collect::<Result<Vec<_>, RecordError>>()
        });
        let mut entries = Vec::with_capacity(lines.len());
        let mut hashes = Vec::with_capacity(lines.len());
        for share in read {
            for (e, h) in share? {
                entries.push(e);
                hashes.push(h);
            }
        }
        Record::from_hashed(entries, &hashes, Openings::Check)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opening() -> Opening {
        Opening {
            format: FORMAT,
            game: "g".into(),
            ruleset: "freeform".into(),
            ruleset_version: 1,
            ruleset_data: None,
            scenario: "open".into(),
            options: BTreeMap::new(),
            sides: vec![],
            dice: Commitment {
                scheme: "s".into(),
                length: 10,
                k0: Digest([1; 32]),
            },
            hidden: vec![],
            umpire: "k".into(),
            at: "2026-11-29T00:00:00Z".into(),
        }
    }

    #[test]
    fn the_umpire_key_in_charge_follows_a_hand_over() {
        let mut r = sample();
        let c = opening().dice;
        let recommit = |umpire: Option<&str>| {
            Body::Recommit(RecommitEntry {
                from_position: 1,
                dice: c.clone(),
                hidden: vec![],
                reason: "test".into(),
                at: "2026-11-29T00:00:00Z".into(),
                umpire: umpire.map(str::to_string),
            })
        };
        r.push(recommit(None));
        let same = r.len() as u64 - 1;
        r.push(recommit(Some("k2")));
        let moved = r.len() as u64 - 1;
        assert_eq!(
            r.umpire_key_at(same),
            Some("k"),
            "a plain recommit keeps the key"
        );
        assert_eq!(r.umpire_key_at(moved - 1), Some("k"));
        assert_eq!(r.umpire_key_at(moved), Some("k2"));
        assert_eq!(r.umpire_keys(), vec![(0, "k"), (moved, "k2")]);
        // A recommit without a new umpire hashes as records did before the field.
        let text = serde_json::to_string(&recommit(None)).unwrap();
        assert!(!text.contains("umpire"), "{text}");
    }

    fn sample() -> Record {
        let mut r = Record::open(opening());
        r.push(Body::Reveal(RevealEntry {
            position: 1,
            secret: Digest([2; 32]),
            slots: vec![],
        }));
        r.push(Body::Reveal(RevealEntry {
            position: 2,
            secret: Digest([3; 32]),
            slots: vec![],
        }));
        r
    }

    #[test]
    fn text_round_trips() {
        let r = sample();
        let back = Record::from_text(&r.to_text()).unwrap();
        assert_eq!(back, r);
        assert_eq!(back.head(), r.head());
    }

    #[test]
    fn an_altered_entry_is_named() {
        let r = sample();
        let text = r
            .to_text()
            .replace(&Digest([3; 32]).to_hex(), &Digest([4; 32]).to_hex());
        match Record::from_text(&text) {
            Err(RecordError::Chain { seq, message }) => {
                assert_eq!(seq, 2);
                assert!(message.contains("altered"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn reordered_or_dropped_entries_are_named() {
        let r = sample();
        let mut e = r.entries().to_vec();
        e.swap(1, 2);
        assert!(matches!(
            Record::from_entries(e),
            Err(RecordError::Chain { seq: 2, .. })
        ));
        let mut e = r.entries().to_vec();
        e.remove(1);
        assert!(matches!(
            Record::from_entries(e),
            Err(RecordError::Chain { seq: 2, .. })
        ));
    }

    #[test]
    fn a_stored_record_loads_whole_and_still_checks_its_order_and_links() {
        let r = sample();
        assert_eq!(Record::from_trusted(r.entries().to_vec()), Ok(r.clone()));
        assert_eq!(Record::from_stored(r.entries().to_vec()), Ok(r.clone()));
        let mut e = r.entries().to_vec();
        e.swap(1, 2);
        assert!(matches!(
            Record::from_trusted(e),
            Err(RecordError::Chain { seq: 2, .. })
        ));
        let mut e = r.entries().to_vec();
        e.remove(1);
        assert!(matches!(
            Record::from_trusted(e),
            Err(RecordError::Chain { seq: 2, .. })
        ));
        // Its stated hash changed, the next entry no longer follows it.
        let mut e = r.entries().to_vec();
        e[1].hash = Digest([7; 32]);
        assert!(matches!(
            Record::from_trusted(e),
            Err(RecordError::Chain { seq: 2, .. })
        ));
        assert_eq!(Record::from_trusted(vec![]), Err(RecordError::Empty));
    }

    #[test]
    fn a_position_beyond_the_record_is_refused_before_any_hashing() {
        for (i, p) in [(1, 1u64 << 32), (1, 1 << 53), (2, 1), (1, 0)] {
            let mut e = sample().entries().to_vec();
            e[i].body = Body::Reveal(RevealEntry {
                position: p,
                secret: Digest([9; 32]),
                slots: vec![],
            });
            // Rehash the chain so only the position is wrong.
            for j in i..e.len() {
                e[j].prev = if j == 0 { Digest::ZERO } else { e[j - 1].hash };
                e[j].hash = entry_hash(j as u64, &e[j].prev, &e[j].body);
            }
            match Record::from_entries(e) {
                Err(RecordError::Chain { seq, message }) => {
                    assert_eq!(seq as usize, i, "{message}");
                    assert!(message.contains("position"), "{message}");
                }
                other => panic!("{p}: {other:?}"),
            }
        }
    }

    #[test]
    fn a_rehashed_forgery_still_breaks_the_next_link() {
        // Change entry 1 and fix its own hash: entry 2 no longer follows it.
        let r = sample();
        let mut e = r.entries().to_vec();
        e[1].body = Body::Reveal(RevealEntry {
            position: 1,
            secret: Digest([9; 32]),
            slots: vec![],
        });
        e[1].hash = entry_hash(1, &e[1].prev, &e[1].body);
        match Record::from_entries(e) {
            Err(RecordError::Chain { seq, message }) => {
                assert_eq!(seq, 2);
                assert!(message.contains("does not follow"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn entry_hash_is_stable() {
        // The hash of a fixed entry must never change: old records depend on it.
        let r = Record::open(opening());
        assert_eq!(r.head().to_hex(), STABLE_HEAD);
    }
    // Cross-checked with Python: json.dumps(sort_keys, compact) and hashlib.
    const STABLE_HEAD: &str = "71286a0940d9292fa0ff919b919e13e3d0cffb02c325e00b0568ae31fe8d1b65";
}
