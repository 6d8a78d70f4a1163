//! The record: an append-only, hash-chained list of everything that happened in
//! a game. A game's state is always `replay(record)`; the store is an index.
//!
//! Each entry's hash is `H("umpire-entry-v1" ‖ seq ‖ prev ‖ JCS(body))`, where
//! JCS is RFC 8785 canonical JSON, so any language can recompute it. The record
//! exports to one text file: comment lines starting with `#`, then one JSON
//! object per entry.

use super::dice::{Commitment, Roll};
use super::hash::{Digest, Tagged};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Version of the record format, written into every opening.
pub const FORMAT: u32 = 1;
/// Domain tag of the entry hash.
pub const ENTRY_DOMAIN: &str = "umpire-entry-v1";
/// First line of an exported record.
pub const MAGIC: &str = "# umpire record";

/// One side as declared at the opening.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideDecl {
    /// The side's name, lower case (`ming`).
    pub name: String,
    /// Where its results go.
    pub email: String,
    /// Its OpenSSH ed25519 public key: the only authority for its moves.
    pub key: String,
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
    /// The umpire's public key, which signs result mails and record heads.
    pub umpire: String,
    /// When the game was created (RFC 3339, UTC). Informative only.
    pub at: String,
}

/// A signed submission that was accepted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveEntry {
    pub side: String,
    /// The exact signed bytes of the move file.
    pub text: String,
    /// The armored SSHSIG over `text`.
    pub signature: String,
    /// The dice position the move rolled at, if it had orders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u64>,
    /// Every die rolled, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Roll>,
    /// The state hash after the move.
    pub state: Digest,
    /// When it was received. Informative only.
    pub at: String,
}

/// A submission that was refused. Kept so anyone can check it really was illegal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RejectedEntry {
    /// The side it claimed to be from, if readable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The submitted bytes, if UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The submitted bytes, base64, if not UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base64: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    pub reason: String,
    pub at: String,
}

/// The dice secret of a position, revealed once no move can still use it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevealEntry {
    pub position: u64,
    pub secret: Digest,
}

/// A new dice chain, published before any move can use it: when a chain runs
/// out, or when a game is restored without the old secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecommitEntry {
    /// The first dice position the new chain serves; its `k0` stands for the one before.
    pub from_position: u64,
    pub dice: Commitment,
    pub reason: String,
    pub at: String,
}

/// Orders the umpire applied for a side after its deadline passed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefaultEntry {
    pub side: String,
    /// The ruleset's stated default for that moment.
    pub orders: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u64>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Roll>,
    pub state: Digest,
    /// Why, e.g. "deadline 2026-12-01T18:00Z passed, grace 24h".
    pub reason: String,
    pub at: String,
}

/// What an entry records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Body {
    Opening(Opening),
    Move(MoveEntry),
    Rejected(RejectedEntry),
    Reveal(RevealEntry),
    Default(DefaultEntry),
    Recommit(RecommitEntry),
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
        }
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

/// The hash of an entry with this place and body.
pub fn entry_hash(seq: u64, prev: &Digest, body: &Body) -> Digest {
    let canon = serde_jcs::to_vec(body).unwrap_or_default();
    Tagged::new(ENTRY_DOMAIN)
        .u64(seq)
        .field(&prev.0)
        .field(&canon)
        .finish()
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

    /// Every entry, in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
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

    /// Builds a record from entries, checking every link and hash.
    pub fn from_entries(entries: Vec<Entry>) -> Result<Record, RecordError> {
        if entries.is_empty() {
            return Err(RecordError::Empty);
        }
        let mut prev = Digest::ZERO;
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
            let h = entry_hash(e.seq, &e.prev, &e.body);
            if h != e.hash {
                return Err(chain(format!(
                    "{} entry was altered: its content hashes to {}, but it claims {}",
                    e.body.kind(),
                    h.short(16),
                    e.hash.short(16)
                )));
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

    /// The exported text: comment header, then one JSON object per line.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        s.push_str(&format!("{MAGIC}, format {FORMAT}\n"));
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
        let mut entries = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let e: Entry = serde_json::from_str(t).map_err(|e| RecordError::Syntax {
                line: i + 1,
                message: e.to_string(),
            })?;
            entries.push(e);
        }
        Record::from_entries(entries)
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
            umpire: "k".into(),
            at: "2026-11-29T00:00:00Z".into(),
        }
    }

    fn sample() -> Record {
        let mut r = Record::open(opening());
        r.push(Body::Reveal(RevealEntry {
            position: 1,
            secret: Digest([2; 32]),
        }));
        r.push(Body::Reveal(RevealEntry {
            position: 2,
            secret: Digest([3; 32]),
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
    fn a_rehashed_forgery_still_breaks_the_next_link() {
        // Change entry 1 and fix its own hash: entry 2 no longer follows it.
        let r = sample();
        let mut e = r.entries().to_vec();
        e[1].body = Body::Reveal(RevealEntry {
            position: 1,
            secret: Digest([9; 32]),
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
