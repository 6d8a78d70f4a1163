//! SHA-256 digests with domain separation, shown and stored as lowercase hex.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest as _, Sha256};
use std::fmt;
use std::str::FromStr;

/// A 32-byte SHA-256 digest. Displays and serialises as 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Digest(pub [u8; 32]);

impl Digest {
    /// The all-zero digest, used as the `prev` of the first record entry.
    pub const ZERO: Digest = Digest([0; 32]);

    /// The hex form.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// The first `n` hex digits, for display where the full hash is too long.
    pub fn short(&self, n: usize) -> String {
        let mut s = self.to_hex();
        s.truncate(n.min(64));
        s
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({})", self.short(12))
    }
}

/// A digest could not be read from text.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("not a SHA-256 digest (want 64 hex digits): {0:?}")]
pub struct BadDigest(pub String);

impl FromStr for Digest {
    type Err = BadDigest;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        from_hex(s.trim()).ok_or_else(|| BadDigest(s.to_string()))
    }
}

/// 64 hex digits (either case, as `hex::decode` reads them) as a digest. A
/// record holds several digests an entry, and reading them was a fifth of
/// the time `verify` spends reading a record (issue 13).
fn from_hex(s: &str) -> Option<Digest> {
    let b = s.as_bytes();
    if b.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(b.chunks_exact(2)) {
        *o = (nibble(pair[0])? << 4) | nibble(pair[1])?;
    }
    Some(Digest(out))
}

const fn nibble(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

impl Serialize for Digest {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Digest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        /// Reads the string where it lies, without a copy.
        struct Hex;
        impl serde::de::Visitor<'_> for Hex {
            type Value = Digest;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Digest, E> {
                s.parse().map_err(E::custom)
            }
        }
        d.deserialize_str(Hex)
    }
}

/// Plain SHA-256 of some bytes.
pub fn sha256(bytes: &[u8]) -> Digest {
    Digest(Sha256::digest(bytes).into())
}

/// A hasher over length-prefixed fields under a domain tag, so that no two
/// different field lists can give the same input (`"ab" ‖ "c"` ≠ `"a" ‖ "bc"`).
pub struct Tagged(Sha256);

impl Tagged {
    /// Starts a hash under `domain` (e.g. `"umpire-entry-v1"`).
    pub fn new(domain: &str) -> Self {
        let mut t = Tagged(Sha256::new());
        t = t.field(domain.as_bytes());
        t
    }

    /// Adds one field: its length as 8 bytes big-endian, then its bytes.
    pub fn field(mut self, bytes: &[u8]) -> Self {
        self.0.update((bytes.len() as u64).to_be_bytes());
        self.0.update(bytes);
        self
    }

    /// Adds a number as a field of 8 bytes big-endian.
    pub fn u64(self, n: u64) -> Self {
        self.field(&n.to_be_bytes())
    }

    /// The digest of everything added.
    pub fn finish(self) -> Digest {
        Digest(self.0.finalize().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_abc_is_the_fips_vector() {
        assert_eq!(
            sha256(b"abc").to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn tagged_fields_are_unambiguous() {
        let a = Tagged::new("t").field(b"ab").field(b"c").finish();
        let b = Tagged::new("t").field(b"a").field(b"bc").finish();
        assert_ne!(a, b);
        let c = Tagged::new("u").field(b"ab").field(b"c").finish();
        assert_ne!(a, c);
    }

    #[test]
    fn digest_round_trips_through_hex_and_json() {
        let d = sha256(b"x");
        assert_eq!(d.to_hex().parse::<Digest>().unwrap(), d);
        let j = serde_json::to_string(&d).unwrap();
        assert_eq!(serde_json::from_str::<Digest>(&j).unwrap(), d);
        assert!("zz".parse::<Digest>().is_err());
        assert!("ab".parse::<Digest>().is_err());
    }

    /// The digits read as the hex crate reads them: either case, surrounding
    /// space trimmed, exactly 64 digits, nothing else; a JSON string with an
    /// escape reads too, and a non-string is refused by type.
    #[test]
    fn digests_read_as_hex_decode_reads_them() {
        let d = sha256(b"x");
        let lower = d.to_hex();
        let mut want = [0u8; 32];
        for text in [lower.clone(), lower.to_uppercase(), format!(" {lower}\n")] {
            let expect = hex::decode_to_slice(text.trim(), &mut want).is_ok();
            assert_eq!(
                text.parse::<Digest>().ok(),
                expect.then_some(Digest(want)),
                "{text:?}"
            );
        }
        for bad in [
            &lower[..63],
            &format!("{lower}0"),
            &format!("{}g", &lower[..63]),
            "",
            "é",
        ] {
            assert!(bad.parse::<Digest>().is_err(), "{bad:?}");
            assert!(hex::decode_to_slice(bad.trim(), &mut want).is_err() || bad.len() != 64);
        }
        let escaped = format!("\"\\u0030{}\"", &lower[1..]);
        let mut zero_first = lower.clone();
        zero_first.replace_range(0..1, "0");
        assert_eq!(
            serde_json::from_str::<Digest>(&escaped).unwrap(),
            zero_first.parse::<Digest>().unwrap()
        );
        let e = serde_json::from_str::<Digest>("7").unwrap_err().to_string();
        assert!(e.contains("expected a string"), "{e}");
    }
}
