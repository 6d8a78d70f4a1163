//! OpenSSH SSHSIG signatures over ed25519: the authority behind every move.
//!
//! Players sign the raw bytes of a move file with `ssh-keygen -Y sign -n umpire-move`
//! or `umpire sign`; the umpire signs its results under its own namespace. Only
//! ed25519 keys are accepted, so every signature has one fixed, fast check.

use crate::ed25519_batch::{BatchItem, BatchKey, verify_batch};
use rand_core::{OsRng, TryRngCore};
use ssh_key::{Algorithm, HashAlg, LineEnding, PrivateKey, SshSig};
use std::fmt;

/// Namespace of signatures on move files (`ssh-keygen -Y sign -n umpire-move`).
pub const MOVE_NAMESPACE: &str = "umpire-move";
/// Namespace of the umpire's signatures on results and record heads.
pub const RESULT_NAMESPACE: &str = "umpire-result";

/// Why a key or signature was refused.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum SigError {
    #[error("not an OpenSSH public key line ({0})")]
    BadPublicKey(String),
    #[error("not an OpenSSH private key ({0})")]
    BadPrivateKey(String),
    #[error("the private key is protected by a passphrase; sign with `ssh-keygen -Y sign` instead")]
    EncryptedKey,
    #[error("only ed25519 keys are accepted, this is {0}")]
    NotEd25519(String),
    #[error("not an SSH signature block ({0})")]
    BadSignatureBlock(String),
    #[error("signature namespace is {found:?}, expected {expected:?} (sign with -n {expected})")]
    WrongNamespace { found: String, expected: String },
    #[error("signed by key {found}, not by {expected}")]
    WrongKey { found: String, expected: String },
    #[error("the signature does not match the text: the file was changed after signing")]
    Mismatch,
    #[error("could not sign: {0}")]
    Signing(String),
}

/// An ed25519 public key in OpenSSH form.
#[derive(Clone, PartialEq, Eq)]
pub struct PublicKey(ssh_key::PublicKey);

impl PublicKey {
    /// Reads one `ssh-ed25519 AAAA… comment` line.
    pub fn parse(line: &str) -> Result<Self, SigError> {
        let key = ssh_key::PublicKey::from_openssh(line.trim())
            .map_err(|e| SigError::BadPublicKey(e.to_string()))?;
        if key.algorithm() != Algorithm::Ed25519 {
            return Err(SigError::NotEd25519(key.algorithm().to_string()));
        }
        Ok(PublicKey(key))
    }

    /// The `ssh-ed25519 AAAA…` form, without the comment, as stored in records.
    pub fn to_openssh(&self) -> String {
        let mut k = self.0.clone();
        k.set_comment("");
        k.to_openssh().unwrap_or_default().trim().to_string()
    }

    /// The SHA-256 fingerprint as `ssh-keygen -l` shows it (`SHA256:…`).
    pub fn fingerprint(&self) -> String {
        self.0.fingerprint(HashAlg::Sha256).to_string()
    }

    /// The raw 32 key bytes.
    pub fn raw(&self) -> [u8; 32] {
        match self.0.key_data().ed25519() {
            Some(k) => k.0,
            None => [0; 32],
        }
    }

    /// Checks an armored SSHSIG block over `msg` under `namespace`.
    pub fn verify(&self, namespace: &str, msg: &[u8], armored: &str) -> Result<(), SigError> {
        let sig = parse_signature(armored)?;
        if sig.namespace() != namespace {
            return Err(SigError::WrongNamespace {
                found: sig.namespace().to_string(),
                expected: namespace.to_string(),
            });
        }
        if sig.public_key() != self.0.key_data() {
            let found = ssh_key::PublicKey::new(sig.public_key().clone(), "")
                .fingerprint(HashAlg::Sha256)
                .to_string();
            return Err(SigError::WrongKey {
                found,
                expected: self.fingerprint(),
            });
        }
        self.0
            .verify(namespace, msg, &sig)
            .map_err(|_| SigError::Mismatch)
    }

    /// [`PublicKey::verify`], skipping the curve arithmetic when `pre` holds
    /// this very signature over this very text (checked by [`precheck`]).
    /// The namespace and the key are still compared here.
    pub fn verify_prechecked(
        &self,
        namespace: &str,
        msg: &[u8],
        armored: &str,
        pre: Option<&Prechecked>,
    ) -> Result<(), SigError> {
        // Found valid under this namespace by the key inside it: what is
        // left is whether that key is this one. The full check otherwise
        // (and to name the wrong key).
        let known = pre.and_then(|p| p.signer(namespace, msg, armored));
        self.verify_known(namespace, msg, armored, known)
    }

    /// [`PublicKey::verify`], skipping the curve arithmetic when `signer` is
    /// this key, as found by a pre-check of this very signature over this
    /// very text under this namespace ([`Prechecked::signer`],
    /// [`Prechecked::signer_at`]); the full check otherwise (and to name the
    /// wrong key).
    pub fn verify_known(
        &self,
        namespace: &str,
        msg: &[u8],
        armored: &str,
        signer: Option<[u8; 32]>,
    ) -> Result<(), SigError> {
        match signer {
            Some(key) if self.0.key_data().ed25519().is_some_and(|k| k.0 == key) => Ok(()),
            _ => self.verify(namespace, msg, armored),
        }
    }
}

/// Signatures already found valid by [`precheck`], each by the key and under
/// the namespace inside it, over the text it was checked with: a tag of the
/// three, and the ed25519 key that signed. Filled at once by [`precheck`], or
/// batch by batch by a worker thread while a replay runs ahead
/// ([`Prechecked::stream`], looked up by record position with
/// [`Prechecked::signer_at`]): a lookup then waits until its batch is done.
#[derive(Debug)]
pub struct Prechecked {
    found: std::sync::Mutex<Found>,
    more: std::sync::Condvar,
    /// A stream's signatures, in record order, for [`Prechecked::signer_at`].
    placed: std::sync::Arc<[Placed]>,
}

#[derive(Debug, Default)]
struct Found {
    tags: std::collections::HashMap<[u8; 32], [u8; 32]>,
    /// A stream's verdicts so far, one per placed signature in order: the
    /// key that made it, or `None` for one that did not verify.
    placed: Vec<Option<[u8; 32]>>,
    /// Every batch is checked: a tag not found now never will be.
    done: bool,
    /// A stream's workers still running.
    workers: usize,
}

/// The most threads [`Prechecked::stream`] checks with.
const STREAM_WORKERS: usize = 2;

/// A stream's worker ending: the last one closes the stream, and so does
/// one that stopped before publishing all its batches (stopped early or
/// panicked): those will never be in, and no other worker may wait for them.
struct WorkerGone {
    pre: std::sync::Weak<Prechecked>,
    complete: bool,
}

impl Drop for WorkerGone {
    fn drop(&mut self) {
        let Some(pre) = self.pre.upgrade() else {
            return;
        };
        let mut found = pre.lock();
        found.workers = found.workers.saturating_sub(1);
        if found.workers == 0 || !self.complete {
            found.done = true;
        }
        drop(found);
        pre.more.notify_all();
    }
}

/// Closes its pre-check when dropped ([`Prechecked::finish_on_drop`]).
pub struct FinishOnDrop<'a>(&'a Prechecked);

impl Drop for FinishOnDrop<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// One signature for [`Prechecked::stream`], owned by the worker: the record
/// position of its entry, the namespace it must carry, the signed text and
/// the armored SSHSIG block.
#[derive(Debug)]
pub struct Placed {
    pub seq: u64,
    pub namespace: &'static str,
    pub msg: Vec<u8>,
    pub armored: String,
}

impl Default for Prechecked {
    fn default() -> Prechecked {
        Prechecked::complete(std::collections::HashMap::new())
    }
}

impl Prechecked {
    fn complete(tags: std::collections::HashMap<[u8; 32], [u8; 32]>) -> Prechecked {
        Prechecked {
            found: std::sync::Mutex::new(Found {
                tags,
                done: true,
                ..Found::default()
            }),
            more: std::sync::Condvar::new(),
            placed: std::sync::Arc::new([]),
        }
    }

    /// [`precheck`] on a worker thread, batch by batch in order (small
    /// batches first, so the first lookups wait little), so that a replay
    /// runs on while the rest are checked: on two cores the checks then cost
    /// the replay almost nothing (issue 13). `items` must be in rising `seq`.
    pub fn stream(items: Vec<Placed>) -> std::sync::Arc<Prechecked> {
        let pre = std::sync::Arc::new(Prechecked {
            found: std::sync::Mutex::new(Found::default()),
            more: std::sync::Condvar::new(),
            placed: items.into(),
        });
        // The batches, small first; each worker takes every `workers`-th.
        let mut bounds = Vec::new();
        let (mut at, mut size) = (0, 64);
        while at < pre.placed.len() {
            let end = (at + size).min(pre.placed.len());
            bounds.push(at..end);
            at = end;
            size = (size * 2).min(1024);
        }
        let workers = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, STREAM_WORKERS)
            .min(bounds.len().max(1));
        pre.lock().workers = workers;
        let bounds = std::sync::Arc::new(bounds);
        for w in 0..workers {
            let (weak, bounds) = (std::sync::Arc::downgrade(&pre), bounds.clone());
            let spawned = std::thread::Builder::new()
                .name("precheck".into())
                .spawn(move || Prechecked::fill(&weak, &bounds, w, workers));
            if spawned.is_err() {
                // A worker short: its batches are never published, so close the
                // stream; what is not in is checked singly.
                pre.finish();
            }
        }
        pre
    }

    /// Worker `w` of `workers`: checks its batches (every `workers`-th of
    /// `bounds`) and publishes each verdict in record order, waiting for the
    /// batches before it. It stops early once the replay has let go of the
    /// stream (ended, an error included), so no work goes on for nobody.
    fn fill(
        weak: &std::sync::Weak<Prechecked>,
        bounds: &[std::ops::Range<usize>],
        w: usize,
        workers: usize,
    ) {
        let Some(placed) = weak.upgrade().map(|p| p.placed.clone()) else {
            return;
        };
        // Marks this worker gone however it ends, a panic included, so no
        // lookup and no other worker waits forever.
        let mut gone = WorkerGone {
            pre: weak.clone(),
            complete: false,
        };
        for range in bounds.iter().skip(w).step_by(workers) {
            let views: Vec<Signed<'_>> = placed[range.clone()]
                .iter()
                .map(|p| (p.namespace, p.msg.as_slice(), p.armored.as_str()))
                .collect();
            let keys = signers(&views, views.len());
            let Some(pre) = weak.upgrade() else { return };
            let mut found = pre.lock();
            while found.placed.len() < range.start && !found.done {
                found = pre
                    .more
                    .wait(found)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            if found.done || found.placed.len() != range.start {
                return;
            }
            found.placed.extend(keys);
            drop(found);
            pre.more.notify_all();
            // No one but this worker holds it: the replay has ended.
            if std::sync::Arc::strong_count(&pre) <= 1 {
                return;
            }
        }
        gone.complete = true;
    }

    /// An empty pre-check its owner fills one signature at a time with
    /// [`Prechecked::check_singly`] (the poll's worker, reading the mails
    /// ahead of the adjudication), then closes with [`Prechecked::finish`];
    /// a lookup waits until its signature is in or the pre-check is closed.
    pub fn open() -> std::sync::Arc<Prechecked> {
        std::sync::Arc::new(Prechecked {
            found: std::sync::Mutex::new(Found::default()),
            more: std::sync::Condvar::new(),
            placed: std::sync::Arc::new([]),
        })
    }

    /// Checks one signature exactly as [`PublicKey::verify`] does, with the
    /// key inside it (no batch equation: a move the umpire takes in is held
    /// to the single, OpenSSH-strict check), and records it if it holds.
    pub fn check_singly(&self, namespace: &str, msg: &[u8], armored: &str) {
        let Ok(key) = signer_of(armored) else {
            return;
        };
        if key.verify(namespace, msg, armored).is_ok() {
            let tag = Prechecked::tag(namespace, msg, armored);
            self.lock().tags.insert(tag, key.raw());
            self.more.notify_all();
        }
    }

    /// Closes the pre-check: a signature not found now never will be, and
    /// no lookup waits any longer.
    pub fn finish(&self) {
        self.lock().done = true;
        self.more.notify_all();
    }

    /// A guard that closes the pre-check when it is dropped, however its
    /// worker ends (a panic included), so no lookup waits forever.
    pub fn finish_on_drop(&self) -> FinishOnDrop<'_> {
        FinishOnDrop(self)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Found> {
        // The map is whole after every insert: a panic elsewhere leaves it usable.
        self.found
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn tag(namespace: &str, msg: &[u8], armored: &str) -> [u8; 32] {
        use sha2::{Digest as _, Sha256};
        let mut h = Sha256::new();
        for part in [namespace.as_bytes(), armored.trim().as_bytes(), msg] {
            h.update((part.len() as u64).to_be_bytes());
            h.update(part);
        }
        h.finalize().into()
    }

    /// The key that made this signature over this text, if it was found
    /// valid under `namespace`.
    pub fn signer(&self, namespace: &str, msg: &[u8], armored: &str) -> Option<[u8; 32]> {
        let tag = Prechecked::tag(namespace, msg, armored);
        let mut found = self.lock();
        loop {
            if let Some(key) = found.tags.get(&tag) {
                return Some(*key);
            }
            if found.done {
                return None;
            }
            found = self
                .more
                .wait(found)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// [`Prechecked::signer`] for the signature a stream placed at record
    /// position `seq`, waiting for its batch: no hashing, only a comparison
    /// of the bytes. `None` if nothing was placed there, if what was placed is
    /// not this very namespace, text and signature, or if it did not verify.
    pub fn signer_at(
        &self,
        seq: u64,
        namespace: &str,
        msg: &[u8],
        armored: &str,
    ) -> Option<[u8; 32]> {
        let i = self.placed.binary_search_by_key(&seq, |p| p.seq).ok()?;
        let p = &self.placed[i];
        if p.namespace != namespace || p.msg != msg || p.armored != armored {
            return None;
        }
        let mut found = self.lock();
        loop {
            if let Some(key) = found.placed.get(i) {
                return *key;
            }
            if found.done {
                return None;
            }
            found = self
                .more
                .wait(found)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// Was this signature over this text found valid under `namespace`?
    pub fn holds(&self, namespace: &str, msg: &[u8], armored: &str) -> bool {
        self.signer(namespace, msg, armored).is_some()
    }

    /// How many signatures were found valid so far.
    pub fn len(&self) -> usize {
        let found = self.lock();
        found.tags.len() + found.placed.iter().flatten().count()
    }

    /// Whether none was, so far.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One signature for [`precheck`]: the namespace it must carry, the signed
/// text and the armored SSHSIG block.
pub type Signed<'a> = (&'a str, &'a [u8], &'a str);

/// Checks many signatures at once, ahead of a replay (issue 13): ed25519
/// batch verification (dalek's batch equation with each key's terms
/// gathered, [`crate::ed25519_batch`]), in chunks spread over
/// the machine's cores, each core also reading its own share's blocks. A
/// chunk that fails as a whole is checked one by one, so one bad signature
/// costs only its chunk's speed-up. What does not pass is simply left out:
/// the caller's own check then reports it as usual.
///
/// The batch equation can accept a signature the single check refuses only
/// when its own key's holder built it with a small-order component on
/// purpose; such a signature still proves that holder signed. The umpire's
/// intake checks every move singly, as strictly as OpenSSH, so no record it
/// writes holds one.
pub fn precheck(items: &[Signed<'_>]) -> Prechecked {
    precheck_in_batches(items, 1024)
}

/// [`precheck`] with batches of at most `batch` signatures.
fn precheck_in_batches(items: &[Signed<'_>], batch: usize) -> Prechecked {
    let found = crate::par::shares(items, batch, |share| check_share(share, batch));
    Prechecked::complete(found.into_iter().flatten().collect())
}

/// The tags and keys of the signatures in `share` that verify.
fn check_share(share: &[Signed<'_>], batch: usize) -> Vec<([u8; 32], [u8; 32])> {
    share
        .iter()
        .zip(signers(share, batch))
        .filter_map(|(&(ns, msg, armored), key)| Some((Prechecked::tag(ns, msg, armored), key?)))
        .collect()
}

/// For each signature of `share`, in order, the key that made it if it
/// verifies.
fn signers(share: &[Signed<'_>], batch: usize) -> Vec<Option<[u8; 32]>> {
    // A record has a few keys and many signatures: each key's point is
    // decompressed once, not once per signature, and the batch gathers
    // each key's terms (see `ed25519_batch`).
    let mut keys = ShareKeys::default();
    let ready: Vec<(usize, Batchable)> = share
        .iter()
        .enumerate()
        .filter_map(|(i, &item)| Some((i, Batchable::new(item, &mut keys)?)))
        .collect();
    let mut out = vec![None; share.len()];
    for chunk in ready.chunks(batch) {
        for (i, b) in check_chunk(chunk, &keys) {
            out[i] = Some(keys.batch[b.key].bytes);
        }
    }
    out
}

/// The distinct keys of a share: for the batch, and for single checks.
#[derive(Default)]
struct ShareKeys {
    index: std::collections::HashMap<[u8; 32], usize>,
    batch: Vec<BatchKey>,
    single: Vec<ed25519_dalek::VerifyingKey>,
}

impl ShareKeys {
    /// The index of the key of these bytes, if they are a key.
    fn find(&mut self, raw: [u8; 32]) -> Option<usize> {
        if let Some(&i) = self.index.get(&raw) {
            return Some(i);
        }
        let single = ed25519_dalek::VerifyingKey::from_bytes(&raw).ok()?;
        let batch = BatchKey::new(raw)?;
        self.single.push(single);
        self.batch.push(batch);
        self.index.insert(raw, self.batch.len() - 1);
        Some(self.batch.len() - 1)
    }
}

/// A signature ready for the batch: its signed data, bytes and key.
struct Batchable {
    signed: Vec<u8>,
    signature: ed25519_dalek::Signature,
    key: usize,
}

impl Batchable {
    /// `None` for anything the batch cannot take as the single check would
    /// (unreadable, another namespace or algorithm, reserved bytes set).
    fn new((namespace, msg, armored): Signed<'_>, keys: &mut ShareKeys) -> Option<Batchable> {
        let sig = parse_signature(armored).ok()?;
        if sig.namespace() != namespace || !sig.reserved().is_empty() {
            return None;
        }
        let key = keys.find(sig.public_key().ed25519()?.0)?;
        let signature = ed25519_dalek::Signature::from_slice(sig.signature_bytes()).ok()?;
        let signed = SshSig::signed_data(namespace, sig.hash_alg(), msg).ok()?;
        Some(Batchable {
            signed,
            signature,
            key,
        })
    }
}

/// Those of `chunk` whose signatures verify.
fn check_chunk<'c>(
    chunk: &'c [(usize, Batchable)],
    keys: &ShareKeys,
) -> Vec<(usize, &'c Batchable)> {
    let items: Vec<BatchItem<'_>> = chunk
        .iter()
        .map(|(_, b)| BatchItem {
            message: &b.signed,
            signature: b.signature.to_bytes(),
            key: b.key,
        })
        .collect();
    let all = verify_batch(&items, &keys.batch);
    use ed25519_dalek::Verifier as _;
    chunk
        .iter()
        .filter(|(_, b)| all || keys.single[b.key].verify(&b.signed, &b.signature).is_ok())
        .map(|(item, b)| (*item, b))
        .collect()
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.fingerprint())
    }
}

/// Reads an armored `-----BEGIN SSH SIGNATURE-----` block. The blob inside
/// is first read as strictly as OpenSSH reads it (see [`check_blob`]).
pub fn parse_signature(armored: &str) -> Result<SshSig, SigError> {
    check_blob(&dearmor(armored)?).map_err(|e| SigError::BadSignatureBlock(e.to_string()))?;
    let sig =
        SshSig::from_pem(armored.trim()).map_err(|e| SigError::BadSignatureBlock(e.to_string()))?;
    if sig.algorithm() != Algorithm::Ed25519 {
        return Err(SigError::NotEd25519(sig.algorithm().to_string()));
    }
    Ok(sig)
}

/// The bytes inside an armored SSHSIG block: the lines between the BEGIN
/// and END lines, joined, as standard padded base64.
fn dearmor(armored: &str) -> Result<Vec<u8>, SigError> {
    use base64::Engine as _;
    let bad = |m: &str| SigError::BadSignatureBlock(m.to_string());
    let lines: Vec<&str> = armored.trim().lines().map(str::trim).collect();
    let (Some(first), Some(last)) = (lines.first(), lines.last()) else {
        return Err(bad("empty"));
    };
    if lines.len() < 3 || *first != crate::movefile::BEGIN_SIG || *last != crate::movefile::END_SIG
    {
        return Err(bad("not between BEGIN and END SSH SIGNATURE lines"));
    }
    let b64: String = lines[1..lines.len() - 1].concat();
    base64::engine::general_purpose::STANDARD
        .decode(b64.as_bytes())
        .map_err(|e| bad(&format!("base64: {e}")))
}

/// Why an SSHSIG blob does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlobError {
    #[error("incomplete message: {0} runs past the end")]
    Short(&'static str),
    #[error("not an SSHSIG blob (no SSHSIG magic)")]
    Magic,
    #[error("signature format version {0}; only version 1 exists")]
    Version(u32),
    #[error("{0} is {1}, expected {2}")]
    Field(&'static str, String, &'static str),
    #[error("{0} bytes of trailing data after the {1}")]
    Trailing(usize, &'static str),
}

/// A reader of SSH wire format that fails rather than guesses.
struct Wire<'a>(&'a [u8]);

impl<'a> Wire<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], BlobError> {
        if self.0.len() < n {
            return Err(BlobError::Short(what));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, BlobError> {
        let b = self.take(4, what)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn string(&mut self, what: &'static str) -> Result<&'a [u8], BlobError> {
        let n = self.u32(what)? as usize;
        self.take(n, what)
    }

    fn end(&self, what: &'static str) -> Result<(), BlobError> {
        match self.0.len() {
            0 => Ok(()),
            n => Err(BlobError::Trailing(n, what)),
        }
    }
}

/// `inner` is `string "ssh-ed25519" ‖ string (n bytes)` and nothing more.
fn ed25519_part(inner: &[u8], n: usize, what: &'static str) -> Result<(), BlobError> {
    let mut w = Wire(inner);
    let alg = w.string(what)?;
    if alg != b"ssh-ed25519" {
        return Err(BlobError::Field(
            what,
            String::from_utf8_lossy(alg).into_owned(),
            "ssh-ed25519",
        ));
    }
    let v = w.string(what)?;
    if v.len() != n {
        return Err(BlobError::Field(
            what,
            format!("{} bytes", v.len()),
            "exactly its size",
        ));
    }
    w.end(what)
}

/// Reads an SSHSIG blob (OpenSSH's PROTOCOL.sshsig) exactly: the magic,
/// version 1, an ed25519 public key, a namespace, the reserved string, the
/// hash algorithm (sha256 or sha512) and an ed25519 signature, each length
/// exact, nothing missing and nothing after. What OpenSSH refuses to read
/// (`ssh-keygen -Y check-novalidate`) is refused here too.
pub fn check_blob(blob: &[u8]) -> Result<(), BlobError> {
    let mut w = Wire(blob);
    if w.take(6, "magic").map_err(|_| BlobError::Magic)? != b"SSHSIG" {
        return Err(BlobError::Magic);
    }
    let version = w.u32("version")?;
    if version != 1 {
        return Err(BlobError::Version(version));
    }
    ed25519_part(w.string("public key")?, 32, "public key")?;
    if w.string("namespace")?.is_empty() {
        return Err(BlobError::Field("namespace", "empty".into(), "a name"));
    }
    w.string("reserved field")?;
    let hash = w.string("hash algorithm")?;
    if hash != b"sha256" && hash != b"sha512" {
        return Err(BlobError::Field(
            "hash algorithm",
            String::from_utf8_lossy(hash).into_owned(),
            "sha256 or sha512",
        ));
    }
    ed25519_part(w.string("signature")?, 64, "signature")?;
    w.end("signature")
}

/// The key that signed an armored block, whatever the block signs.
pub fn signer_of(armored: &str) -> Result<PublicKey, SigError> {
    let sig = parse_signature(armored)?;
    Ok(PublicKey(ssh_key::PublicKey::new(
        sig.public_key().clone(),
        "",
    )))
}

/// An ed25519 private key in OpenSSH form.
pub struct SecretKey {
    key: PrivateKey,
    /// The same key expanded for signing, once: deriving it again for every
    /// signature (SHA-512 of the seed and a scalar multiplication) cost as much
    /// as half a signature, and an umpire signs every mail it sends (issue 13).
    signing: ed25519_dalek::SigningKey,
}

impl SecretKey {
    /// A fresh key from the operating system's randomness.
    pub fn generate(comment: &str) -> Result<Self, SigError> {
        let mut seed = [0u8; 32];
        OsRng
            .try_fill_bytes(&mut seed)
            .map_err(|e| SigError::Signing(e.to_string()))?;
        Self::from_seed(&seed, comment)
    }

    /// A key from 32 seed bytes (deterministic; for tests and fixtures).
    pub fn from_seed(seed: &[u8; 32], comment: &str) -> Result<Self, SigError> {
        let pair = ssh_key::private::Ed25519Keypair::from_seed(seed);
        let key = PrivateKey::new(ssh_key::private::KeypairData::Ed25519(pair), comment)
            .map_err(|e| SigError::Signing(e.to_string()))?;
        SecretKey::new(key)
    }

    /// Keeps `key` (ed25519) with its signing form.
    fn new(key: PrivateKey) -> Result<Self, SigError> {
        let pair = key
            .key_data()
            .ed25519()
            .ok_or_else(|| SigError::NotEd25519(key.algorithm().to_string()))?;
        let signing = ed25519_dalek::SigningKey::try_from(pair)
            .map_err(|e| SigError::BadPrivateKey(e.to_string()))?;
        Ok(SecretKey { key, signing })
    }

    /// Reads an unencrypted OpenSSH private key file's text.
    pub fn parse(text: &str) -> Result<Self, SigError> {
        let key =
            PrivateKey::from_openssh(text).map_err(|e| SigError::BadPrivateKey(e.to_string()))?;
        if key.is_encrypted() {
            return Err(SigError::EncryptedKey);
        }
        if key.algorithm() != Algorithm::Ed25519 {
            return Err(SigError::NotEd25519(key.algorithm().to_string()));
        }
        SecretKey::new(key)
    }

    /// The OpenSSH private key file text.
    pub fn to_openssh(&self) -> Result<String, SigError> {
        self.key
            .to_openssh(LineEnding::LF)
            .map(|s| s.to_string())
            .map_err(|e| SigError::Signing(e.to_string()))
    }

    /// The matching public key, with the comment, as a `.pub` file line.
    pub fn public_line(&self) -> String {
        self.key
            .public_key()
            .to_openssh()
            .unwrap_or_default()
            .trim()
            .to_string()
    }

    /// The matching public key.
    pub fn public(&self) -> PublicKey {
        PublicKey(self.key.public_key().clone())
    }

    /// Signs `msg` under `namespace`; returns the armored block (as ssh-keygen writes it).
    /// The same bytes as `ssh_key`'s `PrivateKey::sign` (ed25519 is deterministic),
    /// with the key's signing form kept rather than derived again.
    pub fn sign(&self, namespace: &str, msg: &[u8]) -> Result<String, SigError> {
        let err = |e: ssh_key::Error| SigError::Signing(e.to_string());
        let data = SshSig::signed_data(namespace, HashAlg::Sha512, msg).map_err(err)?;
        let raw = ed25519_dalek::Signer::sign(&self.signing, &data).to_bytes();
        let signature = ssh_key::Signature::new(Algorithm::Ed25519, raw.to_vec()).map_err(err)?;
        let key_data = self.key.public_key().key_data().clone();
        SshSig::new(key_data, namespace, HashAlg::Sha512, signature)
            .and_then(|sig| sig.to_pem(LineEnding::LF))
            .map_err(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_check_precheck_holds_what_verify_accepts_and_nothing_else() {
        let (a, b) = (key(1), key(2));
        let text = b"game: g\nside: a\n";
        let good = a.sign(MOVE_NAMESPACE, text).unwrap();
        let other_ns = a.sign(RESULT_NAMESPACE, text).unwrap();
        let pre = Prechecked::open();
        pre.check_singly(MOVE_NAMESPACE, text, &good);
        pre.check_singly(MOVE_NAMESPACE, b"changed", &good);
        pre.check_singly(MOVE_NAMESPACE, text, &other_ns);
        pre.check_singly(MOVE_NAMESPACE, text, "not a block");
        pre.finish();
        assert_eq!(pre.len(), 1);
        assert_eq!(
            pre.signer(MOVE_NAMESPACE, text, &good),
            Some(a.public().raw())
        );
        assert_eq!(pre.signer(MOVE_NAMESPACE, b"changed", &good), None);
        assert_eq!(pre.signer(MOVE_NAMESPACE, text, &other_ns), None);
        // Found by a's key: b's check still refuses it, naming the key.
        assert!(matches!(
            b.public()
                .verify_prechecked(MOVE_NAMESPACE, text, &good, Some(&pre)),
            Err(SigError::WrongKey { .. })
        ));
        assert!(
            a.public()
                .verify_prechecked(MOVE_NAMESPACE, text, &good, Some(&pre))
                .is_ok()
        );
    }

    fn key(n: u8) -> SecretKey {
        SecretKey::from_seed(&[n; 32], "t@example").unwrap()
    }

    /// Issue 13: signing with the kept signing form gives ssh-key's own
    /// SSHSIG bytes, for both namespaces and an empty message, and refuses an
    /// empty namespace as ssh-key does.
    #[test]
    fn kept_signing_key_signs_exactly_as_ssh_key_does() {
        for n in [1u8, 7, 200] {
            let k = key(n);
            for (ns, msg) in [
                (MOVE_NAMESPACE, &b"game: g\nside: a\n"[..]),
                (RESULT_NAMESPACE, &b""[..]),
            ] {
                let theirs = k
                    .key
                    .sign(ns, HashAlg::Sha512, msg)
                    .unwrap()
                    .to_pem(LineEnding::LF)
                    .unwrap();
                assert_eq!(k.sign(ns, msg).unwrap(), theirs);
                assert!(k.public().verify(ns, msg, &theirs).is_ok());
            }
            assert!(k.sign("", b"x").is_err());
        }
    }

    /// Issue 13: the batch pre-check holds exactly the signatures the single
    /// check accepts, even with a bad one inside a chunk, and a pre-checked
    /// signature still has to be by the expected key.
    #[test]
    fn precheck_holds_exactly_the_valid_signatures() {
        let keys: Vec<SecretKey> = (1..=3).map(key).collect();
        let texts: Vec<Vec<u8>> = (0..150)
            .map(|i| format!("game: g\nmove {i}\n").into_bytes())
            .collect();
        let mut sigs: Vec<String> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| keys[i % 3].sign(MOVE_NAMESPACE, t).unwrap())
            .collect();
        // One signature over other text, one under another namespace, one garbled.
        sigs[7] = keys[1].sign(MOVE_NAMESPACE, b"something else").unwrap();
        sigs[80] = keys[2].sign(RESULT_NAMESPACE, &texts[80]).unwrap();
        sigs[140] = "-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----".into();
        let items: Vec<Signed<'_>> = texts
            .iter()
            .zip(&sigs)
            .map(|(t, s)| (MOVE_NAMESPACE, t.as_slice(), s.as_str()))
            .collect();
        let pre = precheck(&items);
        assert_eq!(pre.len(), 147);
        // Small batches over several workers: the same set.
        let small = precheck_in_batches(&items, 16);
        assert_eq!(small.lock().tags, pre.lock().tags);
        // Streamed by a worker, batch by batch: the same set, each lookup
        // waiting for its batch, and a bad one answered once all are done.
        // Placed at every third record position, as moves between reveals.
        let owned = items
            .iter()
            .enumerate()
            .map(|(i, (_, t, s))| Placed {
                seq: 3 * i as u64 + 2,
                namespace: MOVE_NAMESPACE,
                msg: t.to_vec(),
                armored: s.to_string(),
            })
            .collect();
        let streamed = Prechecked::stream(owned);
        for (i, (ns, t, s)) in items.iter().enumerate() {
            let at = streamed.signer_at(3 * i as u64 + 2, ns, t, s);
            assert_eq!(at.is_some(), pre.holds(ns, t, s), "item {i}");
            if at.is_some() {
                assert_eq!(at, Some(keys[i % 3].public().raw()), "item {i}");
            }
        }
        // Every verdict is in once the last one was looked up.
        assert_eq!(streamed.len(), pre.len());
        // Another position, another text or signature than the one placed
        // there: nothing is vouched for, whatever was found valid.
        let (ns, t, s) = items[0];
        assert_eq!(streamed.signer_at(3, ns, t, s), None);
        assert_eq!(streamed.signer_at(2, ns, b"other text", s), None);
        assert_eq!(streamed.signer_at(2, ns, t, sigs[1].as_str()), None);
        assert_eq!(streamed.signer_at(2, RESULT_NAMESPACE, t, s), None);
        assert!(streamed.signer_at(2, ns, t, s).is_some());
        for (i, (ns, t, s)) in items.iter().enumerate() {
            let single = keys[i % 3].public().verify(ns, t, s).is_ok();
            assert_eq!(pre.holds(ns, t, s), single, "item {i}");
            assert_eq!(
                keys[i % 3]
                    .public()
                    .verify_prechecked(ns, t, s, Some(&pre))
                    .is_ok(),
                single,
                "item {i}"
            );
        }
        // Pre-checked, but by key 1 while key 2 is expected.
        let (ns, t, s) = items[0];
        assert!(pre.holds(ns, t, s));
        assert!(matches!(
            keys[1].public().verify_prechecked(ns, t, s, Some(&pre)),
            Err(SigError::WrongKey { .. })
        ));
    }

    #[test]
    fn sign_then_verify_round_trips() {
        let k = key(1);
        let sig = k.sign(MOVE_NAMESPACE, b"game: g\n").unwrap();
        assert!(sig.starts_with("-----BEGIN SSH SIGNATURE-----"));
        k.public()
            .verify(MOVE_NAMESPACE, b"game: g\n", &sig)
            .unwrap();
    }

    #[test]
    fn a_changed_byte_is_a_mismatch() {
        let k = key(1);
        let sig = k.sign(MOVE_NAMESPACE, b"game: g\n").unwrap();
        assert_eq!(
            k.public().verify(MOVE_NAMESPACE, b"game: h\n", &sig),
            Err(SigError::Mismatch)
        );
    }

    #[test]
    fn another_namespace_is_refused_by_name() {
        let k = key(1);
        let sig = k.sign("git", b"x").unwrap();
        match k.public().verify(MOVE_NAMESPACE, b"x", &sig) {
            Err(SigError::WrongNamespace { found, .. }) => assert_eq!(found, "git"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn another_key_is_refused_with_both_fingerprints() {
        let sig = key(1).sign(MOVE_NAMESPACE, b"x").unwrap();
        match key(2).public().verify(MOVE_NAMESPACE, b"x", &sig) {
            Err(SigError::WrongKey { found, expected }) => {
                assert_eq!(found, key(1).public().fingerprint());
                assert_eq!(expected, key(2).public().fingerprint());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn keys_round_trip_through_openssh_text() {
        let k = key(3);
        let text = k.to_openssh().unwrap();
        let back = SecretKey::parse(&text).unwrap();
        assert_eq!(back.public(), k.public());
        let p = PublicKey::parse(&k.public_line()).unwrap();
        assert_eq!(p, k.public());
        assert!(k.public().to_openssh().starts_with("ssh-ed25519 AAAA"));
    }

    #[test]
    fn a_blob_with_a_wrong_length_or_trailing_bytes_is_refused() {
        use base64::Engine as _;
        let k = key(1);
        let sig = k.sign(MOVE_NAMESPACE, b"x").unwrap();
        let blob = dearmor(&sig).unwrap();
        check_blob(&blob).unwrap();
        let mut longer = blob.clone();
        longer.push(0);
        assert!(matches!(
            check_blob(&longer),
            Err(BlobError::Trailing(1, _))
        ));
        assert!(matches!(
            check_blob(&blob[..blob.len() - 1]),
            Err(BlobError::Short(_))
        ));
        let mut v2 = blob.clone();
        v2[9] = 2;
        assert_eq!(check_blob(&v2), Err(BlobError::Version(2)));
        let armored = format!(
            "-----BEGIN SSH SIGNATURE-----\n{}\n-----END SSH SIGNATURE-----\n",
            base64::engine::general_purpose::STANDARD.encode(&longer)
        );
        assert!(matches!(
            k.public().verify(MOVE_NAMESPACE, b"x", &armored),
            Err(SigError::BadSignatureBlock(_))
        ));
    }

    #[test]
    fn garbage_is_a_clear_error() {
        assert!(matches!(
            PublicKey::parse("ssh-rsa nonsense"),
            Err(SigError::BadPublicKey(_))
        ));
        assert!(matches!(
            parse_signature("hello"),
            Err(SigError::BadSignatureBlock(_))
        ));
    }
}
