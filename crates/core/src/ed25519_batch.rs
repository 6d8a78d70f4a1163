//! Ed25519 batch verification with each key's terms gathered (issue 13).
//!
//! A record holds thousands of move signatures by a handful of keys. The
//! batch equation of ed25519-dalek's `verify_batch` has one point per
//! signature for the signer's key as well as one for its `R`:
//!
//! `[-Σ zᵢsᵢ]B + Σ [zᵢ]Rᵢ + Σ [zᵢkᵢ]Aᵢ = 0`
//!
//! The signatures by one key share their `A`, so `Σ [zᵢkᵢ]Aᵢ` is rewritten
//! as `Σ_A [Σ_{i by A} zᵢkᵢ]A`: the same group element, found with a
//! multiscalar multiplication of `n + keys + 1` points instead of `2n + 1`,
//! which is most of the cost. The equation is dalek's own, term for term
//! (cofactorless, `s` canonical, the weights `zᵢ` 128-bit and derived from
//! every `kᵢ` and `sᵢ` of the batch as dalek derives them from a transcript),
//! so it accepts what dalek's batch accepts.

use curve25519_dalek::constants::ED25519_BASEPOINT_POINT;
use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::{IsIdentity, VartimeMultiscalarMul};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use sha2::{Digest, Sha512};

/// A key of the batch: its 32 bytes and its point.
#[derive(Clone, Copy)]
pub struct BatchKey {
    pub bytes: [u8; 32],
    pub point: EdwardsPoint,
}

impl BatchKey {
    /// The key of these bytes, if they are a point of the curve.
    pub fn new(bytes: [u8; 32]) -> Option<BatchKey> {
        let point = CompressedEdwardsY(bytes).decompress()?;
        Some(BatchKey { bytes, point })
    }
}

/// One signature of the batch: the signed message, the 64 signature bytes
/// (`R ‖ s`) and the index of its key in the batch's keys.
pub struct BatchItem<'a> {
    pub message: &'a [u8],
    pub signature: [u8; 64],
    pub key: usize,
}

/// Whether every signature of `items` holds under its key of `keys` (a bad
/// one passes with chance below 2⁻¹²⁸, as in every batch check). False says
/// only that one does not hold, not which; an item whose key index is out of
/// range makes the batch false.
pub fn verify_batch(items: &[BatchItem<'_>], keys: &[BatchKey]) -> bool {
    let mut seed = Sha512::new();
    seed.update(b"umpire ed25519 batch");
    let mut hrams = Vec::with_capacity(items.len());
    let mut ss = Vec::with_capacity(items.len());
    for item in items {
        let Some(key) = keys.get(item.key) else {
            return false;
        };
        let (r, s) = item.signature.split_at(32);
        #[allow(
            clippy::expect_used,
            reason = "a signature is 64 bytes: its second half is 32"
        )]
        let s: [u8; 32] = s.try_into().expect("32 of 64 bytes");
        let Some(s) = Option::<Scalar>::from(Scalar::from_canonical_bytes(s)) else {
            return false;
        };
        let hram: [u8; 64] = Sha512::new()
            .chain_update(r)
            .chain_update(key.bytes)
            .chain_update(item.message)
            .finalize()
            .into();
        seed.update(hram);
        seed.update(s.as_bytes());
        hrams.push(Scalar::from_bytes_mod_order_wide(&hram));
        ss.push(s);
    }
    let seed: [u8; 64] = seed.finalize().into();
    #[allow(clippy::expect_used, reason = "a SHA-512 digest is 64 bytes")]
    let mut rng = ChaCha20Rng::from_seed(seed[..32].try_into().expect("32 of 64 bytes"));
    let zs: Vec<Scalar> = items.iter().map(|_| weight(&mut rng)).collect();
    let b: Scalar = ss.iter().zip(&zs).map(|(s, z)| s * z).sum();
    let mut per_key = vec![Scalar::ZERO; keys.len()];
    for ((item, hram), z) in items.iter().zip(&hrams).zip(&zs) {
        per_key[item.key] += hram * z;
    }
    let rs = items.iter().map(|item| {
        #[allow(
            clippy::expect_used,
            reason = "a signature is 64 bytes: its first half is 32"
        )]
        let r: [u8; 32] = item.signature[..32].try_into().expect("32 of 64 bytes");
        CompressedEdwardsY(r).decompress()
    });
    let points = std::iter::once(Some(ED25519_BASEPOINT_POINT))
        .chain(rs)
        .chain(keys.iter().map(|k| Some(k.point)));
    let scalars = std::iter::once(-b).chain(zs).chain(per_key);
    EdwardsPoint::optional_multiscalar_mul(scalars, points).is_some_and(|p| p.is_identity())
}

/// A random 128-bit weight, as dalek draws them.
fn weight(rng: &mut ChaCha20Rng) -> Scalar {
    let mut bytes = [0u8; 32];
    rng.fill_bytes(&mut bytes[..16]);
    Scalar::from_bytes_mod_order(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer as _, SigningKey};

    fn signed(keys: &[SigningKey], n: usize) -> (Vec<Vec<u8>>, Vec<[u8; 64]>, Vec<usize>) {
        let msgs: Vec<Vec<u8>> = (0..n).map(|i| format!("move {i}").into_bytes()).collect();
        let who: Vec<usize> = (0..n).map(|i| i % keys.len()).collect();
        let sigs = msgs
            .iter()
            .zip(&who)
            .map(|(m, &k)| keys[k].sign(m).to_bytes())
            .collect();
        (msgs, sigs, who)
    }

    fn batch<'a>(msgs: &'a [Vec<u8>], sigs: &[[u8; 64]], who: &[usize]) -> Vec<BatchItem<'a>> {
        msgs.iter()
            .zip(sigs)
            .zip(who)
            .map(|((m, s), &k)| BatchItem {
                message: m,
                signature: *s,
                key: k,
            })
            .collect()
    }

    #[test]
    fn a_batch_of_good_signatures_holds_and_any_flaw_breaks_it() {
        let signers: Vec<SigningKey> = (1..=3u8)
            .map(|b| SigningKey::from_bytes(&[b; 32]))
            .collect();
        let keys: Vec<BatchKey> = signers
            .iter()
            .map(|k| BatchKey::new(k.verifying_key().to_bytes()).unwrap())
            .collect();
        let (msgs, sigs, who) = signed(&signers, 300);
        assert!(verify_batch(&batch(&msgs, &sigs, &who), &keys));
        // Agreement with dalek's own batch.
        let dalek_keys: Vec<_> = who.iter().map(|&k| signers[k].verifying_key()).collect();
        let dalek_sigs: Vec<_> = sigs
            .iter()
            .map(ed25519_dalek::Signature::from_bytes)
            .collect();
        let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
        assert!(ed25519_dalek::verify_batch(&refs, &dalek_sigs, &dalek_keys).is_ok());

        // A changed message, a signature by another key, a flipped R or s bit,
        // a non-canonical s, a key index out of range: each is caught.
        let mut msgs2 = msgs.clone();
        msgs2[17].push(b'!');
        assert!(!verify_batch(&batch(&msgs2, &sigs, &who), &keys));
        let mut who2 = who.clone();
        who2[5] = (who2[5] + 1) % 3;
        assert!(!verify_batch(&batch(&msgs, &sigs, &who2), &keys));
        for byte in [3, 40] {
            let mut sigs2 = sigs.clone();
            sigs2[250][byte] ^= 1;
            assert!(
                !verify_batch(&batch(&msgs, &sigs2, &who), &keys),
                "byte {byte}"
            );
        }
        let mut sigs2 = sigs.clone();
        sigs2[9][63] |= 0xf0;
        assert!(!verify_batch(&batch(&msgs, &sigs2, &who), &keys));
        let mut who2 = who.clone();
        who2[0] = 3;
        assert!(!verify_batch(&batch(&msgs, &sigs, &who2), &keys));
    }

    #[test]
    fn an_empty_batch_holds() {
        assert!(verify_batch(&[], &[]));
    }
}
