//! The umpire's secrets of one game: the public dice chain, the hidden
//! streams' chains (one per audience slot) and the salter of sealed items.
//! They never leave the store; the record holds commitments to them.

use crate::core::dice::{Commitment, DiceChain, DiceError, hidden_top};
use crate::core::hash::{Digest, Tagged};
use crate::core::sealed::Salter;
use rand_core::{OsRng, TryRngCore};

/// Domain tag deriving the salter's key from the game's hidden master.
pub const SALT_KEY_DOMAIN: &str = "umpire-salt-key-v1";

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
