//! Items of the record that not every side may see: each is kept as a salted
//! commitment `H("umpire-sealed-v1" ‖ salt ‖ JCS(value))`, with its opening
//! (salt and value) beside it in the copies of the sides allowed to see it and
//! in the full record. Entry hashes are taken over the commitments only, so
//! every copy of a record has the same hashes and head.
//!
//! The salt is 32 bytes the umpire derives from a secret of its own, so a side
//! holding only the commitment cannot test guesses against it (a hand of 5
//! chits out of 24 has only 42,504 candidates; its salted commitment reveals
//! nothing of them).

use super::hash::{Digest, Tagged};
use serde::{Deserialize, Serialize};

/// Domain tag of a sealed item's commitment.
pub const SEALED_DOMAIN: &str = "umpire-sealed-v1";
/// Domain tag of the salt derivation.
pub const SALT_DOMAIN: &str = "umpire-salt-v1";

/// An item in the clear or sealed. Old records hold only clear items, which
/// serialise exactly as the bare value did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Hidden<T> {
    /// Seen by every side.
    Clear(T),
    /// Seen by the sides in `to` (none: the umpire alone) until the end.
    Sealed(Sealed<T>),
}

/// A commitment, to whom it is open, and (where this copy may hold it) the opening.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound(deserialize = "T: Deserialize<'de>"))]
pub struct Sealed<T> {
    /// `H(SEALED_DOMAIN ‖ salt ‖ JCS(value))`.
    pub sealed: Digest,
    /// The sides that see it while the game runs, by name; empty for the umpire alone.
    pub to: Vec<String>,
    /// The opening, in the copies of those sides and in the full record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<Opened<T>>,
}

/// The opening of a sealed item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opened<T> {
    pub salt: Digest,
    pub value: T,
}

/// The commitment to `value` under `salt`.
pub fn commitment<T: Serialize>(salt: &Digest, value: &T) -> Digest {
    // Values are strings, integers, digests and lists of them: JCS cannot fail.
    let canon = crate::canon::to_vec(value).unwrap_or_default();
    Tagged::new(SEALED_DOMAIN)
        .field(&salt.0)
        .field(&canon)
        .finish()
}

/// A sealed item's opening does not match its commitment.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a sealed item's opening does not match its commitment {0}: it was altered after the fact")]
pub struct BadOpening(pub String);

impl<T: Serialize> Hidden<T> {
    /// Seals `value` for the sides `to` (empty: the umpire alone), or keeps it
    /// clear when `to` is `None` (everyone).
    pub fn new(value: T, to: Option<Vec<String>>, salt: Digest) -> Hidden<T> {
        match to {
            None => Hidden::Clear(value),
            Some(to) => Hidden::Sealed(Sealed {
                sealed: commitment(&salt, &value),
                to,
                open: Some(Opened { salt, value }),
            }),
        }
    }

    /// The value, if this copy holds it.
    pub fn value(&self) -> Option<&T> {
        match self {
            Hidden::Clear(v) => Some(v),
            Hidden::Sealed(s) => s.open.as_ref().map(|o| &o.value),
        }
    }

    /// The value to change, if this copy holds it (tests that tamper with records).
    pub fn value_mut(&mut self) -> Option<&mut T> {
        match self {
            Hidden::Clear(v) => Some(v),
            Hidden::Sealed(s) => s.open.as_mut().map(|o| &mut o.value),
        }
    }

    /// Is this item in the clear?
    pub fn is_clear(&self) -> bool {
        matches!(self, Hidden::Clear(_))
    }

    /// Sealed, and this copy lacks the opening?
    pub fn is_closed(&self) -> bool {
        matches!(self, Hidden::Sealed(s) if s.open.is_none())
    }

    /// Sealed with its opening present?
    pub fn is_opened(&self) -> bool {
        matches!(self, Hidden::Sealed(s) if s.open.is_some())
    }

    /// Who sees it while the game runs: `None` for everyone.
    pub fn to(&self) -> Option<&[String]> {
        match self {
            Hidden::Clear(_) => None,
            Hidden::Sealed(s) => Some(&s.to),
        }
    }

    /// Checks an opening against its commitment (nothing to check otherwise).
    pub fn check(&self) -> Result<(), BadOpening> {
        match self {
            Hidden::Sealed(Sealed {
                sealed,
                open: Some(o),
                ..
            }) if commitment(&o.salt, &o.value) != *sealed => Err(BadOpening(sealed.short(16))),
            _ => Ok(()),
        }
    }

    /// Drops the opening unless `keep` says this copy's reader may see it.
    pub fn redact(&mut self, keep: &dyn Fn(&[String]) -> bool) {
        if let Hidden::Sealed(s) = self
            && !keep(&s.to)
        {
            s.open = None;
        }
    }
}

/// Derives the salts of one game's sealed items from the umpire's secret key,
/// so a rerun after a crash writes the same bytes.
#[derive(Clone)]
pub struct Salter {
    key: Digest,
}

impl Salter {
    /// A salter over the umpire's per-game secret.
    pub fn new(key: Digest) -> Salter {
        Salter { key }
    }

    /// The salt of item `index` of entry `seq`.
    pub fn salt(&self, seq: u64, index: u64) -> Digest {
        Tagged::new(SALT_DOMAIN)
            .field(&self.key.0)
            .u64(seq)
            .u64(index)
            .finish()
    }
}

/// Hands out the salts of one entry's items in order.
pub struct EntrySalts<'a> {
    salter: Option<&'a Salter>,
    seq: u64,
    next: u64,
}

impl<'a> EntrySalts<'a> {
    /// Salts for entry `seq`; with no salter every item stays clear.
    pub fn new(salter: Option<&'a Salter>, seq: u64) -> Self {
        Self::from_index(salter, seq, 0)
    }

    /// Salts for entry `seq` from index `start` on: separate ranges for the
    /// parts of an entry, so no two items ever share a salt (a side that
    /// opens one of its own items must learn nothing of another's).
    pub fn from_index(salter: Option<&'a Salter>, seq: u64, start: u64) -> Self {
        EntrySalts {
            salter,
            seq,
            next: start,
        }
    }

    /// Seals `value` for `to` (names; empty for the umpire), or keeps it clear
    /// when `to` is `None` or the game keeps nothing secret.
    pub fn item<T: Serialize>(&mut self, value: T, to: Option<Vec<String>>) -> Hidden<T> {
        match (self.salter, to) {
            (Some(s), Some(to)) => {
                let salt = s.salt(self.seq, self.next);
                self.next += 1;
                Hidden::new(value, Some(to), salt)
            }
            _ => Hidden::Clear(value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clear_item_serialises_as_the_bare_value() {
        let h: Hidden<String> = Hidden::Clear("move".into());
        assert_eq!(serde_json::to_string(&h).unwrap(), "\"move\"");
        let back: Hidden<String> = serde_json::from_str("\"move\"").unwrap();
        assert_eq!(back, h);
    }

    #[test]
    fn sealed_items_open_and_check() {
        let salt = Digest([5; 32]);
        let mut h = Hidden::new(vec![3u32, 7, 11], Some(vec!["roman".into()]), salt);
        assert!(h.check().is_ok());
        assert_eq!(h.value(), Some(&vec![3, 7, 11]));
        let j = serde_json::to_string(&h).unwrap();
        let back: Hidden<Vec<u32>> = serde_json::from_str(&j).unwrap();
        assert_eq!(back, h);
        // Another copy's reader loses the opening but keeps the commitment.
        let mut other = h.clone();
        other.redact(&|to| to.iter().any(|s| s == "gp"));
        assert!(other.is_closed());
        assert_eq!(other.value(), None);
        // A tampered opening fails.
        if let Hidden::Sealed(s) = &mut h {
            s.open.as_mut().unwrap().value = vec![3, 7, 12];
        }
        assert!(h.check().is_err());
    }

    #[test]
    fn salted_commitments_resist_guessing() {
        // Without the salt a reader cannot recompute the commitment from a guess.
        let salt = Digest([1; 32]);
        let c = commitment(&salt, &"chit 7");
        assert_ne!(c, commitment(&Digest::ZERO, &"chit 7"));
        assert_eq!(c, commitment(&salt, &"chit 7"));
    }

    #[test]
    fn vector_sealed_commitment() {
        // Cross-checked with Python: hashlib over length-prefixed fields, JCS of "x".
        assert_eq!(commitment(&Digest([0; 32]), &"x").to_hex(), VECTOR_SEALED);
    }
    #[test]
    fn vector_salt() {
        // Cross-checked with Python hashlib over the same length-prefixed fields.
        assert_eq!(
            Salter::new(Digest([6; 32])).salt(7, 0).to_hex(),
            "982d629e3b16c9a30109dd82992c8131e102e8b922cc90aea2bdec1bfbf33f58"
        );
    }

    const VECTOR_SEALED: &str = "051d97b320d8381df69ac1a52032a35349f10b2572980c3f4593328e5cef80f8";
}
