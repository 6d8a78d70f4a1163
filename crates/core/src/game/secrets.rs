//! The umpire's secrets of one game: the public dice chain, the hidden
//! streams' chains (one per audience slot) and the salter of sealed items.
//! They never leave the store; the record holds commitments to them.

use crate::dice::{Commitment, DiceChain, DiceError, hidden_top};
use crate::hash::{Digest, Tagged};
use crate::record::{Body, Record};
use crate::sealed::Salter;
use rand_core::{OsRng, TryRngCore};

/// Domain tag deriving the salter's key from the game's hidden master.
pub const SALT_KEY_DOMAIN: &str = "umpire-salt-key-v1";
/// Domain tag of the integrity tag of a cached set of chain checkpoints
/// ([`Secrets::cache_bytes`]), keyed by the stored secrets themselves.
pub const CACHE_DOMAIN: &str = "umpire-chain-cache-v1";
/// Format byte of [`Secrets::cache_bytes`].
const CACHE_FORMAT: u8 = 1;

/// Everything secret the umpire holds for a game.
#[derive(Clone)]
pub struct Secrets {
    /// The public dice chain.
    pub chain: DiceChain,
    /// The hidden streams' chains by slot (0 the umpire's, `i + 1` side `i`'s);
    /// empty for a game that hides nothing.
    pub hidden: Vec<DiceChain>,
    /// Salts of sealed items; `None` for a game that hides nothing.
    pub salter: Option<Salter>,
}

/// A borrowed view of [`Secrets`], which a bare public chain also gives (a
/// game that hides nothing needs nothing else).
#[derive(Clone, Copy)]
pub struct Keys<'a> {
    pub chain: &'a DiceChain,
    pub hidden: &'a [DiceChain],
    pub salter: Option<&'a Salter>,
}

impl<'a> From<&'a DiceChain> for Keys<'a> {
    fn from(chain: &'a DiceChain) -> Keys<'a> {
        Keys {
            chain,
            hidden: &[],
            salter: None,
        }
    }
}

impl<'a> From<&'a Secrets> for Keys<'a> {
    fn from(s: &'a Secrets) -> Keys<'a> {
        Keys {
            chain: &s.chain,
            hidden: &s.hidden,
            salter: s.salter.as_ref(),
        }
    }
}

impl From<DiceChain> for Secrets {
    /// The secrets of a game that hides nothing: its public chain alone.
    fn from(chain: DiceChain) -> Secrets {
        Secrets {
            chain,
            hidden: Vec::new(),
            salter: None,
        }
    }
}

impl Keys<'_> {
    /// The secret of hidden stream `slot` at dice position `p` (chain index `p + 1`).
    pub fn hidden_secret(&self, slot: usize, p: u64) -> Option<Digest> {
        self.hidden.get(slot)?.secret(p + 1).ok()
    }
}

impl Secrets {
    /// The secrets of a game from its stored parts: the public chain's top,
    /// its length and base, and, for a game that hides something, the hidden
    /// master and the number of slots (sides + 1).
    pub fn from_parts(
        top: Digest,
        length: u64,
        base: u64,
        master: Option<Digest>,
        slots: usize,
    ) -> Secrets {
        let chain = DiceChain::from_top(top, length).with_base(base);
        let (hidden, salter) = match master {
            Some(m) => (
                (0..slots)
                    .map(|slot| {
                        DiceChain::from_top(hidden_top(&m, slot), length + 1).with_base(base)
                    })
                    .collect(),
                Some(Salter::new(salt_key(&m))),
            ),
            None => (Vec::new(), None),
        };
        Secrets {
            chain,
            hidden,
            salter,
        }
    }

    /// Fresh secrets from the operating system; `slots` 0 for a game that hides nothing.
    pub fn generate(length: u64, base: u64, slots: usize) -> Result<(Secrets, Stored), DiceError> {
        let top = random()?;
        let master = if slots > 0 { Some(random()?) } else { None };
        let stored = Stored {
            top,
            length,
            base,
            master,
            slots,
        };
        Ok((stored.secrets(), stored))
    }

    /// The hidden chains' commitments, by slot, for the opening or a recommit.
    pub fn hidden_commitments(&self) -> Vec<Commitment> {
        self.hidden.iter().map(DiceChain::commitment).collect()
    }
}

impl Secrets {
    /// Every chain's checkpoints (public chain first, then the hidden ones by
    /// slot) behind a tag keyed by `stored`: what the store caches so that a
    /// process rebuilds a game's secrets without walking each chain (20,000
    /// hashes a chain). As secret as `stored` itself.
    pub fn cache_bytes(&self, stored: &Stored) -> Vec<u8> {
        let mut body = Vec::new();
        for c in std::iter::once(&self.chain).chain(&self.hidden) {
            let points = c.checkpoints();
            body.extend_from_slice(&(points.len() as u32).to_be_bytes());
            for d in points {
                body.extend_from_slice(&d.0);
            }
        }
        let mut out = vec![CACHE_FORMAT];
        out.extend_from_slice(&cache_tag(stored, &body).0);
        out.extend_from_slice(&body);
        out
    }

    /// The secrets `stored` stands for, from a cache [`Secrets::cache_bytes`]
    /// wrote for the same `stored`; `None` when the cache is damaged, is
    /// another chain's (a recommit since) or does not fit (the caller then
    /// walks the chains, [`Stored::secrets`]). Costs one hash over the cache
    /// and at most 256 chain steps a chain. The record's commitments are
    /// checked by the caller ([`Secrets::fits`]).
    pub fn from_cache(stored: &Stored, bytes: &[u8]) -> Option<Secrets> {
        let (&format, rest) = bytes.split_first()?;
        if format != CACHE_FORMAT || rest.len() < 32 {
            return None;
        }
        let (tag, mut body) = rest.split_at(32);
        if cache_tag(stored, body).0 != tag {
            return None;
        }
        let mut read_chain = |top: Digest, length: u64| -> Option<DiceChain> {
            let (n, tail) = body.split_first_chunk::<4>()?;
            let n = u32::from_be_bytes(*n) as usize;
            let bytes = tail.get(..n.checked_mul(32)?)?;
            body = &tail[n * 32..];
            let points = bytes
                .chunks_exact(32)
                .map(|c| Digest(c.try_into().unwrap_or([0; 32])))
                .collect();
            Some(DiceChain::from_checkpoints(top, length, points)?.with_base(stored.base))
        };
        let chain = read_chain(stored.top, stored.length)?;
        let (hidden, salter) = match stored.master {
            Some(m) => {
                let mut hidden = Vec::with_capacity(stored.slots);
                for slot in 0..stored.slots {
                    hidden.push(read_chain(hidden_top(&m, slot), stored.length + 1)?);
                }
                (hidden, Some(Salter::new(salt_key(&m))))
            }
            None => (Vec::new(), None),
        };
        body.is_empty().then_some(Secrets {
            chain,
            hidden,
            salter,
        })
    }

    /// Do these secrets serve the chains `record` commits to last (the opening's,
    /// or the latest recommit's)? A cache is never trusted over the record.
    pub fn fits(&self, record: &Record) -> bool {
        let mut public = None;
        let mut hidden: Option<&[Commitment]> = None;
        for e in record.entries().iter().rev() {
            let (d, h) = match &e.body {
                Body::Opening(o) => (&o.dice, o.hidden.as_slice()),
                Body::Recommit(r) => (&r.dice, r.hidden.as_slice()),
                _ => continue,
            };
            public.get_or_insert(d);
            if hidden.is_none() && (!h.is_empty() || matches!(e.body, Body::Opening(_))) {
                hidden = Some(h);
            }
            if hidden.is_some() {
                break;
            }
        }
        public == Some(&self.chain.commitment())
            && hidden.unwrap_or_default() == self.hidden_commitments().as_slice()
    }
}

fn cache_tag(stored: &Stored, body: &[u8]) -> Digest {
    Tagged::new(CACHE_DOMAIN)
        .field(&stored.top.0)
        .u64(stored.length)
        .u64(stored.base)
        .field(stored.master.as_ref().map_or(&[][..], |m| &m.0[..]))
        .u64(stored.slots as u64)
        .field(body)
        .finish()
}

/// What the store keeps to rebuild a game's [`Secrets`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    pub top: Digest,
    pub length: u64,
    pub base: u64,
    pub master: Option<Digest>,
    pub slots: usize,
}

impl Stored {
    /// The secrets these parts stand for.
    pub fn secrets(&self) -> Secrets {
        Secrets::from_parts(self.top, self.length, self.base, self.master, self.slots)
    }
}

fn salt_key(master: &Digest) -> Digest {
    Tagged::new(SALT_KEY_DOMAIN).field(&master.0).finish()
}

fn random() -> Result<Digest, DiceError> {
    let mut b = [0u8; 32];
    OsRng
        .try_fill_bytes(&mut b)
        .map_err(|e| DiceError::Entropy(e.to_string()))?;
    Ok(Digest(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(top: u8, master: Option<u8>) -> Stored {
        Stored {
            top: Digest([top; 32]),
            length: 1_000,
            base: 40,
            master: master.map(|m| Digest([m; 32])),
            slots: if master.is_some() { 3 } else { 0 },
        }
    }

    fn same(a: &Secrets, b: &Secrets) {
        for p in [41, 42, 296, 297, 552, 1_000, 1_040] {
            assert_eq!(a.chain.secret(p), b.chain.secret(p), "position {p}");
            for (x, y) in a.hidden.iter().zip(&b.hidden) {
                assert_eq!(x.secret(p), y.secret(p), "hidden, position {p}");
            }
        }
        assert_eq!(a.chain.commitment(), b.chain.commitment());
        assert_eq!(a.hidden_commitments(), b.hidden_commitments());
        assert_eq!(a.salter.is_some(), b.salter.is_some());
    }

    // The cache gives the very secrets the walk gives, public and hidden.
    #[test]
    fn a_cache_rebuilds_the_same_secrets() {
        for s in [stored(1, None), stored(2, Some(3))] {
            let walked = s.secrets();
            let bytes = walked.cache_bytes(&s);
            let cached = Secrets::from_cache(&s, &bytes).expect("the cache fits");
            same(&walked, &cached);
        }
    }

    // Any change to the cache, or a cache written for other secrets, is refused.
    #[test]
    fn a_damaged_or_foreign_cache_is_refused() {
        let s = stored(2, Some(3));
        let bytes = s.secrets().cache_bytes(&s);
        for i in [0, 1, 40, bytes.len() / 2, bytes.len() - 1] {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            assert!(Secrets::from_cache(&s, &b).is_none(), "byte {i} flipped");
        }
        assert!(Secrets::from_cache(&s, &bytes[..bytes.len() - 1]).is_none());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Secrets::from_cache(&s, &longer).is_none());
        let other = stored(4, Some(3));
        assert!(Secrets::from_cache(&other, &bytes).is_none());
        let rebased = Stored { base: 41, ..s };
        assert!(Secrets::from_cache(&rebased, &bytes).is_none());
    }
}
