//! Dice anyone can verify.
//!
//! At game creation the umpire draws a secret `k_N` and publishes `k_0` where
//! `k_{p-1} = H(k_p)`. The rolls of the move at dice position `p` come from
//! ChaCha20 seeded with `H(domain ‖ game ‖ p ‖ k_p ‖ H(move bytes))`; `k_p` is
//! revealed afterwards and anyone can hash it back to the commitment. Words are
//! turned into dice by our own rejection sampling, never by a library's range
//! function, so a record replays the same forever (see the test vectors).

use super::audience::Audience;
use super::hash::{Digest, Tagged};
use rand_chacha::ChaCha20Rng;
use rand_core::{OsRng, RngCore, SeedableRng, TryRngCore};
use serde::{Deserialize, Serialize};

/// Domain tag of the hash chain step `k_{p-1} = H(k_p)`.
pub const CHAIN_DOMAIN: &str = "umpire-dice-chain-v1";
/// Domain tag of the per-move seed.
pub const SEED_DOMAIN: &str = "umpire-dice-seed-v1";
/// Domain tag of the seed of a hidden stream (one per audience slot and position).
pub const HIDDEN_SEED_DOMAIN: &str = "umpire-hidden-seed-v1";
/// Domain tag deriving a hidden chain's top secret from the game's hidden master.
pub const HIDDEN_TOP_DOMAIN: &str = "umpire-hidden-top-v1";
/// Name of the scheme, written into every opening entry.
pub const SCHEME: &str = "sha256-chain/chacha20/reject-v1";
/// Chain length of a new game: the number of moves that can roll dice.
pub const DEFAULT_CHAIN_LENGTH: u64 = 20_000;
/// Most dice one request may roll.
pub const MAX_DICE_PER_REQUEST: u32 = 100;
/// Most faces a die may have.
pub const MAX_SIDES: u32 = 1_000_000;

/// One step down the chain: `k_{p-1} = H(k_p)`.
pub fn chain_step(k: &Digest) -> Digest {
    Tagged::new(CHAIN_DOMAIN).field(&k.0).finish()
}

/// What the opening entry publishes about the dice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commitment {
    /// Always [`SCHEME`] for this version.
    pub scheme: String,
    /// How many positions the chain serves.
    pub length: u64,
    /// `k_0`.
    pub k0: Digest,
}

/// The umpire's secret side of the chain. Never leaves the store.
#[derive(Clone)]
pub struct DiceChain {
    top: Digest,
    length: u64,
    /// The dice position `k_0` stands for: 0 for a game's first chain, the last
    /// position served by the old chain for a recommitted one.
    base: u64,
    /// `checkpoints[i]` is `k_{i·STRIDE}`, so any `k_p` is at most STRIDE hashes away.
    checkpoints: Vec<Digest>,
    /// The secrets of the stretch between two checkpoints last asked for:
    /// positions are asked for in rising order, so walking each stretch once
    /// replaces about STRIDE/2 hashes a roll (issue 13).
    stretch: Stretch,
}

/// One stretch of a chain's secrets, kept: `(lowest position, secrets up from it)`,
/// positions counted from the chain's own `k_0` (so `with_base` leaves it true).
/// A cache of a pure function of the chain, shared by its clones (the service
/// hands each mail a clone of the game's chains).
#[derive(Default, Clone)]
#[allow(clippy::type_complexity)]
struct Stretch(std::sync::Arc<std::sync::Mutex<Option<(u64, std::sync::Arc<[Digest]>)>>>);

const STRIDE: u64 = 256;

/// The dice went wrong.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum DiceError {
    #[error("could not read the system's randomness: {0}")]
    Entropy(String),
    #[error("dice position {0} is outside the committed chain (which serves up to {1})")]
    ChainExhausted(u64, u64),
    #[error(
        "the outcome depends on a roll from here on ({0}); a preview stops before the first roll"
    )]
    PreviewStops(String),
    #[error("the record has no more rolls for this move, but the rules asked for one ({0})")]
    RecordShort(String),
    #[error("the record's roll {index} is {recorded}, but replay asked for {asked}")]
    RecordMismatch {
        index: usize,
        recorded: String,
        asked: String,
    },
    #[error("a die needs 2 to {max} faces, not {0}", max = MAX_SIDES)]
    BadSides(u32),
    #[error("this game was created without hidden dice, so it cannot roll in secret ({0})")]
    NoHiddenDice(String),
}

impl DiceChain {
    /// Draws a fresh secret from the operating system.
    pub fn generate(length: u64) -> Result<Self, DiceError> {
        let mut top = [0u8; 32];
        OsRng
            .try_fill_bytes(&mut top)
            .map_err(|e| DiceError::Entropy(e.to_string()))?;
        Ok(Self::from_top(Digest(top), length))
    }

    /// Rebuilds the chain from its stored top secret `k_length`.
    pub fn from_top(top: Digest, length: u64) -> Self {
        // Walk down once, keeping every STRIDE-th secret (indexed from the bottom).
        let mut down = Vec::with_capacity((length / STRIDE + 2) as usize);
        let mut k = top;
        let mut p = length;
        loop {
            if p.is_multiple_of(STRIDE) {
                down.push(k);
            }
            if p == 0 {
                break;
            }
            k = chain_step(&k);
            p -= 1;
        }
        down.reverse();
        DiceChain {
            top,
            length,
            base: 0,
            checkpoints: down,
            stretch: Stretch::default(),
        }
    }

    /// The chain's checkpoints (`k_{i·STRIDE}`, from `k_0` up): secret, for
    /// the store to cache beside the top so that a process need not walk the
    /// whole chain again ([`DiceChain::from_checkpoints`]).
    pub fn checkpoints(&self) -> &[Digest] {
        &self.checkpoints
    }

    /// The chain from its top and cached checkpoints, without the walk down
    /// (`length` hashes). Cheap checks only: the count must fit `length`, and
    /// the highest checkpoint must be what the top hashes down to (at most
    /// `STRIDE` hashes); `None` otherwise. The caller checks `k_0` against
    /// the record's commitment and the cache's integrity tag.
    pub fn from_checkpoints(top: Digest, length: u64, checkpoints: Vec<Digest>) -> Option<Self> {
        if checkpoints.len() as u64 != length / STRIDE + 1 {
            return None;
        }
        let last = (checkpoints.len() as u64 - 1) * STRIDE;
        let mut k = top;
        for _ in last..length {
            k = chain_step(&k);
        }
        (checkpoints.last() == Some(&k)).then_some(DiceChain {
            top,
            length,
            base: 0,
            checkpoints,
            stretch: Stretch::default(),
        })
    }

    /// The same chain serving positions `base + 1 ..= base + length` (after a recommit).
    pub fn with_base(mut self, base: u64) -> Self {
        self.base = base;
        self
    }

    /// The position `k_0` stands for.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// The last position this chain serves.
    pub fn last_position(&self) -> u64 {
        self.base + self.length
    }

    /// The stored secret, `k_length`.
    pub fn top(&self) -> Digest {
        self.top
    }

    /// The public commitment.
    pub fn commitment(&self) -> Commitment {
        Commitment {
            scheme: SCHEME.to_string(),
            length: self.length,
            k0: self.checkpoints[0],
        }
    }

    /// `k_p` for `base < p <= base + length`.
    pub fn secret(&self, position: u64) -> Result<Digest, DiceError> {
        if position <= self.base || position > self.base + self.length {
            return Err(DiceError::ChainExhausted(position, self.base + self.length));
        }
        let p = position - self.base;
        // The stretch from the checkpoint below p to the nearest at or above it.
        let i = p.div_ceil(STRIDE);
        let low = (i - 1) * STRIDE + 1;
        let mut kept = self.stretch.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, secrets)) = kept.as_ref()
            && *at == low
        {
            return Ok(secrets[(p - low) as usize]);
        }
        let (mut at, mut k) = if (i as usize) < self.checkpoints.len() {
            (i * STRIDE, self.checkpoints[i as usize])
        } else {
            (self.length, self.top)
        };
        // Walk down to `low`, keeping every secret on the way.
        let mut down = Vec::with_capacity((at - low + 1) as usize);
        loop {
            down.push(k);
            if at == low {
                break;
            }
            k = chain_step(&k);
            at -= 1;
        }
        down.reverse();
        let secret = down[(p - low) as usize];
        *kept = Some((low, down.into()));
        Ok(secret)
    }
}

/// Checks that `k_p` hashes down to the known `k_q` (`q < p`).
pub fn reveal_matches(known_q: u64, k_q: &Digest, p: u64, k_p: &Digest) -> bool {
    if p <= known_q {
        return false;
    }
    let mut k = *k_p;
    for _ in known_q..p {
        k = chain_step(&k);
    }
    k == *k_q
}

/// The ChaCha20 seed for the move at position `p`.
pub fn seed(game: &str, p: u64, k_p: &Digest, move_hash: &Digest) -> [u8; 32] {
    Tagged::new(SEED_DOMAIN)
        .field(game.as_bytes())
        .u64(p)
        .field(&k_p.0)
        .field(&move_hash.0)
        .finish()
        .0
}

/// The seed of hidden stream `slot` (0 the umpire's, `i + 1` side `i`'s) at
/// dice position `p`: `g` is that slot's chain secret for the position. It
/// does not depend on the move, so a side that sees only its own stream can
/// check its own rolls in a move whose text it may not read.
pub fn hidden_seed(game: &str, p: u64, slot: usize, g: &Digest) -> [u8; 32] {
    Tagged::new(HIDDEN_SEED_DOMAIN)
        .field(game.as_bytes())
        .u64(p)
        .u64(slot as u64)
        .field(&g.0)
        .finish()
        .0
}

/// The top secret of hidden chain `slot`, derived from the game's hidden master.
pub fn hidden_top(master: &Digest, slot: usize) -> Digest {
    Tagged::new(HIDDEN_TOP_DOMAIN)
        .field(&master.0)
        .u64(slot as u64)
        .finish()
}

/// The hidden stream slot serving an audience: the side's own when it is one
/// side alone, else the umpire's (slot 0).
pub fn slot_of(audience: &Audience) -> usize {
    audience.stream_side().map_or(0, |s| s.index() + 1)
}

/// One die rolled, with what it was for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// What the roll is for, e.g. "fire 0712→0713".
    pub label: String,
    /// Faces of the die.
    pub sides: u32,
    /// The result, 1..=sides.
    pub value: u32,
    /// Who may see it; hidden rolls come from that audience's own stream.
    #[serde(default, skip_serializing_if = "Audience::is_public")]
    pub audience: Audience,
    /// What a draw from a hidden cup took out ("#5 Aurelian"), named by the
    /// ruleset so that the sealed roll commits to the item itself, not only to
    /// an index into a cup the other sides cannot see. Disclosing the roll
    /// early (see [`Dice::disclose`]) then proves which item was drawn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
}

/// Where a roll sits in the record: the dice position of the entry that rolled
/// it and its index among that entry's rolls. A ruleset keeps it in its state
/// to disclose the roll later.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RollRef {
    pub position: u64,
    pub index: u32,
}

/// A uniform die from raw 32-bit words: reject the top partial block.
pub fn die_from_words(words: &mut impl FnMut() -> u32, sides: u32) -> u32 {
    let n = sides as u64;
    let limit = (1u64 << 32) / n * n;
    loop {
        let x = words() as u64;
        if x < limit {
            return (x % n) as u32 + 1;
        }
    }
}

enum Source {
    Live {
        public: Box<ChaCha20Rng>,
        /// Seeds of the hidden streams by slot, where the game has hidden dice.
        hidden: Vec<Option<[u8; 32]>>,
        /// The streams drawn from so far, by slot.
        streams: Vec<Option<ChaCha20Rng>>,
    },
    Recorded(Vec<Roll>),
    Preview,
}

/// The only way a ruleset gets randomness. Every roll is labelled and kept.
pub struct Dice {
    source: Source,
    rolls: Vec<Roll>,
    /// The dice position these dice serve, where the engine set it.
    position: u64,
    /// Earlier hidden rolls the rules reveal now, in the order asked.
    disclosed: Vec<RollRef>,
}

impl Dice {
    /// Dice seeded for one move.
    pub fn seeded(seed: [u8; 32]) -> Self {
        Dice {
            source: Source::Live {
                public: Box::new(ChaCha20Rng::from_seed(seed)),
                hidden: Vec::new(),
                streams: Vec::new(),
            },
            rolls: Vec::new(),
            position: 0,
            disclosed: Vec::new(),
        }
    }

    /// The same dice, serving dice position `position` (the engine sets it, so
    /// [`Dice::last_ref`] can say where a roll sits in the record).
    pub fn at(mut self, position: u64) -> Self {
        self.position = position;
        self
    }

    /// The same dice with hidden streams, seeded by slot (see [`hidden_seed`]).
    pub fn with_hidden(mut self, seeds: Vec<Option<[u8; 32]>>) -> Self {
        if let Source::Live {
            hidden, streams, ..
        } = &mut self.source
        {
            *streams = vec![None; seeds.len()];
            *hidden = seeds;
        }
        self
    }

    /// Dice that hand back the rolls a record holds, checking each request's sides.
    pub fn recorded(rolls: Vec<Roll>) -> Self {
        Dice {
            source: Source::Recorded(rolls),
            rolls: Vec::new(),
            position: 0,
            disclosed: Vec::new(),
        }
    }

    /// Dice that refuse to roll: `check` uses them to validate up to the first roll.
    pub fn preview() -> Self {
        Dice {
            source: Source::Preview,
            rolls: Vec::new(),
            position: 0,
            disclosed: Vec::new(),
        }
    }

    /// Rolls one die with `sides` faces, seen by every side.
    pub fn roll(&mut self, sides: u32, label: &str) -> Result<u32, DiceError> {
        self.roll_for(Audience::All, sides, label)
    }

    /// Rolls one die that only `audience` may see until the game ends (a draw
    /// into a hidden hand, a secret roll). It comes from that audience's own
    /// committed stream, so no other side can work it out from what it holds.
    pub fn roll_for(
        &mut self,
        audience: Audience,
        sides: u32,
        label: &str,
    ) -> Result<u32, DiceError> {
        if !(2..=MAX_SIDES).contains(&sides) {
            return Err(DiceError::BadSides(sides));
        }
        let value = match &mut self.source {
            Source::Live { public, .. } if audience.is_public() => {
                die_from_words(&mut || public.next_u32(), sides)
            }
            Source::Live {
                hidden, streams, ..
            } => {
                let slot = slot_of(&audience);
                let Some(Some(seed)) = hidden.get(slot) else {
                    return Err(DiceError::NoHiddenDice(label.to_string()));
                };
                let rng = streams[slot].get_or_insert_with(|| ChaCha20Rng::from_seed(*seed));
                die_from_words(&mut || rng.next_u32(), sides)
            }
            Source::Preview => return Err(DiceError::PreviewStops(label.to_string())),
            Source::Recorded(rec) => {
                let index = self.rolls.len();
                let Some(r) = rec.get(index) else {
                    return Err(DiceError::RecordShort(format!("d{sides} {label}")));
                };
                if r.sides != sides || r.label != label || r.audience != audience {
                    return Err(DiceError::RecordMismatch {
                        index,
                        recorded: format!("d{} {:?} to {:?}", r.sides, r.label, r.audience),
                        asked: format!("d{sides} {label:?} to {audience:?}"),
                    });
                }
                r.value
            }
        };
        self.rolls.push(Roll {
            label: label.to_string(),
            sides,
            value,
            audience,
            item: None,
        });
        Ok(value)
    }

    /// Names what the last roll drew (see [`Roll::item`]). On replay the name
    /// is derived again and compared with the record's, like the value.
    pub fn name_last(&mut self, item: &str) {
        if let Some(r) = self.rolls.last_mut() {
            r.item = Some(item.to_string());
        }
    }

    /// Where the last roll sits in the record, once this move is recorded.
    pub fn last_ref(&self) -> Option<RollRef> {
        let index = self.rolls.len().checked_sub(1)?;
        Some(RollRef {
            position: self.position,
            index: index as u32,
        })
    }

    /// Publishes an earlier hidden roll (a chit shown, a card played from a
    /// hidden hand): the engine appends a `disclose` entry with its opening
    /// right after this move's entry, so every side can check it against the
    /// commitment made when it was rolled. A roll already public, or disclosed
    /// twice in one move, is published once.
    pub fn disclose(&mut self, roll: RollRef) {
        if !self.disclosed.contains(&roll) {
            self.disclosed.push(roll);
        }
    }

    /// The rolls disclosed so far, in the order asked.
    pub fn disclosed(&self) -> &[RollRef] {
        &self.disclosed
    }

    /// The hidden stream slots drawn from so far (0 the umpire's, `i + 1` side `i`'s).
    pub fn slots_used(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .rolls
            .iter()
            .filter(|r| !r.audience.is_public())
            .map(|r| slot_of(&r.audience))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Rolls a d6.
    pub fn d6(&mut self, label: &str) -> Result<u32, DiceError> {
        self.roll(6, label)
    }

    /// Rolls `n` dice of `sides` faces under one label.
    pub fn roll_n(&mut self, n: u32, sides: u32, label: &str) -> Result<Vec<u32>, DiceError> {
        (0..n).map(|_| self.roll(sides, label)).collect()
    }

    /// Every roll so far, in order.
    pub fn rolls(&self) -> &[Roll] {
        &self.rolls
    }

    /// How many dice have been rolled.
    pub fn count(&self) -> usize {
        self.rolls.len()
    }

    /// Takes the rolls out.
    pub fn into_rolls(self) -> Vec<Roll> {
        self.rolls
    }

    /// For recorded dice: did the move use every recorded roll?
    pub fn unused_recorded(&self) -> usize {
        match &self.source {
            Source::Recorded(rec) => rec.len().saturating_sub(self.rolls.len()),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published test vectors: any future version must give these numbers, or
    /// old records stop replaying. The words are plain ChaCha20 (key = seed,
    /// zero nonce, counter 0), as Python's `cryptography` also computes them.
    #[test]
    fn vector_chacha20_words_for_seed_42() {
        let mut rng = ChaCha20Rng::from_seed([42u8; 32]);
        let w: Vec<u32> = (0..4).map(|_| rng.next_u32()).collect();
        assert_eq!(w, [0x461f1998, 0x160283e5, 0x97365444, 0x7a690388]);
    }

    #[test]
    fn vector_d6_for_seed_42() {
        let mut d = Dice::seeded([42u8; 32]);
        let r: Vec<u32> = (0..12).map(|_| d.d6("t").unwrap()).collect();
        assert_eq!(r, [3, 4, 1, 1, 5, 5, 3, 6, 2, 1, 3, 4]);
    }

    #[test]
    fn vector_d10_for_seed_7() {
        let mut d = Dice::seeded([7u8; 32]);
        let r: Vec<u32> = (0..12).map(|_| d.roll(10, "t").unwrap()).collect();
        assert_eq!(r, VECTOR_D10_SEED7);
    }

    #[test]
    fn vector_2d6_for_seed_0() {
        let mut d = Dice::seeded([0u8; 32]);
        let r: Vec<u32> = (0..8)
            .map(|_| d.roll_n(2, 6, "t").unwrap().iter().sum())
            .collect();
        assert_eq!(r, VECTOR_2D6_SEED0);
    }

    /// Issue 13: the kept stretch serves every position exactly as a walk
    /// down from the top does, asked for in any order, across stretches, in
    /// the last (short) stretch and after a recommit's base.
    #[test]
    fn kept_stretch_gives_the_walked_secret_at_every_position() {
        let length = 3 * STRIDE + 17;
        let chain = DiceChain::from_top(Digest([9; 32]), length).with_base(40);
        let mut walked = vec![Digest([9; 32])];
        for _ in 0..length {
            let next = chain_step(walked.last().unwrap());
            walked.push(next);
        }
        // walked[j] is k_{length - j}.
        let at = |p: u64| walked[(length - p) as usize];
        let mut order: Vec<u64> = (1..=length).collect();
        order.extend([1, STRIDE, STRIDE + 1, length, 2, 3 * STRIDE + 1, 5, 5]);
        for p in order {
            assert_eq!(chain.secret(40 + p).unwrap(), at(p), "position {p}");
        }
        assert!(chain.secret(40).is_err());
        assert!(chain.secret(41 + length).is_err());
        // A clone shares what is kept and agrees.
        assert_eq!(chain.clone().secret(40 + STRIDE).unwrap(), at(STRIDE));
        assert_eq!(chain.secret(40 + STRIDE - 1).unwrap(), at(STRIDE - 1));
    }

    // Cross-checked with Python `cryptography`'s ChaCha20 and the same rejection rule.
    const VECTOR_D10_SEED7: [u32; 12] = [1, 4, 9, 5, 3, 7, 9, 6, 4, 2, 4, 3];
    const VECTOR_2D6_SEED0: [u32; 8] = [2, 7, 7, 9, 9, 7, 9, 7];

    #[test]
    fn vector_seed_derivation() {
        let k = Digest([1; 32]);
        let m = Digest([2; 32]);
        assert_eq!(hex::encode(seed("g1", 3, &k, &m)), VECTOR_SEED);
    }
    // Cross-checked with Python hashlib over the same length-prefixed fields.
    const VECTOR_SEED: &str = "6b641a5d2bf1434149890b64bb06a86b3536cc83c9579c1f82c9b876d9375256";

    #[test]
    fn vector_hidden_stream_seed_and_top() {
        // Cross-checked with Python hashlib over the same length-prefixed fields.
        assert_eq!(
            hex::encode(hidden_seed("g1", 5, 2, &Digest([3; 32]))),
            "9905429b00c7bd33b7beedc0a04995cec417f38c9f22e70a1d6dd870ab2e9c58"
        );
        assert_eq!(
            hidden_top(&Digest([4; 32]), 1).to_hex(),
            "7f2ec6ec6661ac8277c2b4939f99a9b7d7b6d97982f3aa7366bc27d3178e3f23"
        );
    }

    #[test]
    fn a_hidden_roll_leaves_the_public_stream_alone() {
        // The public rolls of a move are the same whatever it rolls in secret.
        let mut a = Dice::seeded([42; 32]).with_hidden(vec![None, Some([9; 32])]);
        let mut b = Dice::seeded([42; 32]);
        a.roll_for(Audience::side(crate::ruleset::Side(0)), 6, "secret")
            .unwrap();
        assert_eq!(a.d6("public").unwrap(), b.d6("public").unwrap());
        // An audience with no stream of its own (the umpire) has none here.
        assert!(matches!(
            a.roll_for(Audience::Umpire, 6, "x"),
            Err(DiceError::NoHiddenDice(_))
        ));
        assert_eq!(a.slots_used(), vec![1]);
    }

    #[test]
    fn rejection_sampling_skips_the_partial_block() {
        // 2^32 mod 6 = 4: the top four words must be rejected.
        let mut words = vec![u32::MAX, u32::MAX - 3, 7].into_iter();
        assert_eq!(die_from_words(&mut || words.next().unwrap(), 6), 2);
        let mut words = vec![u32::MAX - 4].into_iter();
        // (2^32 - 5) is the last accepted word: (2^32-5) mod 6 = 5 → face 6.
        assert_eq!(die_from_words(&mut || words.next().unwrap(), 6), 6);
    }

    #[test]
    fn chain_secrets_hash_back_to_the_commitment() {
        let chain = DiceChain::from_top(Digest([9; 32]), 1000);
        let k0 = chain.commitment().k0;
        let k1 = chain.secret(1).unwrap();
        assert_eq!(chain_step(&k1), k0);
        let k600 = chain.secret(600).unwrap();
        assert!(reveal_matches(0, &k0, 600, &k600));
        assert!(reveal_matches(1, &k1, 600, &k600));
        assert!(!reveal_matches(1, &k1, 601, &k600));
        assert_eq!(chain.secret(1000).unwrap(), Digest([9; 32]));
        assert!(chain.secret(1001).is_err());
        assert!(chain.secret(0).is_err());
        // Every checkpoint path agrees with plain hashing down from the top.
        let mut k = Digest([9; 32]);
        for p in (1..=1000u64).rev() {
            assert_eq!(chain.secret(p).unwrap(), k, "p={p}");
            k = chain_step(&k);
        }
    }

    #[test]
    fn preview_dice_refuse_to_roll() {
        let mut d = Dice::preview();
        assert!(matches!(d.d6("fire"), Err(DiceError::PreviewStops(_))));
    }

    #[test]
    fn recorded_dice_check_what_is_asked() {
        let rec = vec![Roll {
            label: "fire".into(),
            sides: 6,
            value: 4,
            audience: Audience::All,
            item: None,
        }];
        let mut d = Dice::recorded(rec.clone());
        assert_eq!(d.d6("fire").unwrap(), 4);
        assert!(matches!(d.d6("fire"), Err(DiceError::RecordShort(_))));
        let mut d = Dice::recorded(rec);
        assert!(matches!(
            d.roll(10, "fire"),
            Err(DiceError::RecordMismatch { .. })
        ));
    }
}
