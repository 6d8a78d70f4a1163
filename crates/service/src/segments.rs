//! Result mails that do not grow with the game: each attaches only the entries
//! its side has not yet received (a segment of the side's copy, linked to the
//! head it already holds) with the umpire's signature over it; the store keeps,
//! per side, the last entry it was sent. The whole record goes out at the
//! opening, at the end, on request (`command: record`) and on a resend.
//!
//! The other half is the reader's: [`gather`] collects the parts a player kept
//! (record files and segments, or the mails themselves in a Maildir, an mbox or
//! a folder of `.eml` files) and assembles them into one record.

use super::{ServiceError, Umpire};
use std::path::{Path, PathBuf};
use umpire_core::game::Game;
use umpire_core::record::Record;
use umpire_core::ruleset::Side;
use umpire_core::segment;
use umpire_core::sig::{PublicKey, RESULT_NAMESPACE};
use umpire_store::{Batch, Table};

/// An attachment: file name, content type, bytes.
pub(super) type Attachment = (String, String, Vec<u8>);

/// A text file a mail attaches with the umpire's signature over it
/// (`NAME.sig`), signed when the mail is sealed
/// ([`super::compose::Unsealed::seal`]).
#[derive(Debug, Clone)]
pub(super) struct SignedFile {
    pub name: String,
    pub text: String,
}

impl SignedFile {
    /// The file and its signature `NAME.sig` as the two attachments a mail
    /// carries, the signature's bytes as given.
    pub(super) fn parts(self, signature: Vec<u8>) -> [Attachment; 2] {
        let sig_name = format!("{}.sig", self.name);
        [
            (
                self.name,
                "text/plain; charset=utf-8".to_string(),
                self.text.into_bytes(),
            ),
            (sig_name, "text/plain".to_string(), signature),
        ]
    }

    /// Is the file mailed compressed? A whole record of a long game is
    /// (`super::gzip`).
    pub(super) fn packed(&self) -> bool {
        self.text.len() > super::gzip::GZIP_OVER
    }

    /// The two attachments a mail carries: as [`SignedFile::parts`], but a
    /// [packed](SignedFile::packed) file is named `NAME.gz`, typed gzip; its
    /// body is still the text, to be signed and then compressed when the
    /// mail is sealed. The signature keeps the name `NAME.sig`: it is over
    /// the text, which unpacking `NAME.gz` gives back as `NAME`.
    pub(super) fn mail_parts(self, signature: Vec<u8>) -> [Attachment; 2] {
        let packed = self.packed();
        let [mut text, sig] = self.parts(signature);
        if packed {
            text.0.push_str(super::gzip::SUFFIX);
            text.1 = super::gzip::MIME.to_string();
        }
        [text, sig]
    }
}

/// The store key of what side `side` of `game` holds.
fn sent_key(game: &str, side: &str) -> Vec<u8> {
    let mut k = game.as_bytes().to_vec();
    k.push(0);
    k.extend_from_slice(side.as_bytes());
    k
}

/// A side's holding, noted when its mail is composed and stored when the
/// mail is queued (so a mail that is never queued changes nothing).
#[derive(Debug, Clone)]
pub(super) struct Mark {
    game: String,
    side: String,
    /// The last entry the mail carries.
    seq: u64,
}

impl Umpire {
    /// The last entry side `side` of `game` was sent, pending writes included.
    fn sent(&self, game: &str, side: &str) -> Result<Option<u64>, ServiceError> {
        self.read_json(Table::Sent, sent_key(game, side))
    }

    /// Notes that the mail `key` gives `side` the record up to its head.
    pub(super) fn mark_sent(&self, key: &str, game: &Game, side: Side) {
        let seq = game.record().len().saturating_sub(1) as u64;
        let mark = Mark {
            game: game.id().to_string(),
            side: game.sides()[side.index()].name.clone(),
            seq,
        };
        if let Ok(mut m) = self.marks.lock() {
            m.insert(key.to_string(), mark);
        }
    }

    /// Stores the holdings of the mails being queued.
    pub(super) fn store_marks(&self, batch: &mut Batch, keys: &[&str]) {
        let Ok(mut marks) = self.marks.lock() else {
            return;
        };
        for k in keys {
            if let Some(m) = marks.remove(*k) {
                batch.put_json(Table::Sent, sent_key(&m.game, &m.side), &m.seq);
            }
        }
    }

    /// What the result mail `key` to `side` attaches, to be signed: the
    /// entries the side has not yet received; the whole record (its copy) when the game
    /// is over, when the side holds nothing yet, or for a resend (`fresh` false).
    pub(super) fn result_file(
        &self,
        game: &Game,
        side: Side,
        key: &str,
        fresh: bool,
    ) -> Result<SignedFile, ServiceError> {
        let name = game.sides()[side.index()].name.as_str();
        let head = game.record().len().saturating_sub(1) as u64;
        let from = match self.sent(game.id(), name)? {
            Some(s) if fresh && game.prompt().finished.is_none() => (s + 1).min(head),
            _ => 0,
        };
        if from == 0 {
            return Ok(self.record_file(game, umpire_core::ruleset::Viewer::Side(side), key));
        }
        let viewer = game.hides_information().then_some(name);
        let entries = segment::tail(game.record(), from, viewer);
        let text = segment::to_text(game.id(), &entries);
        self.mark_sent(key, game, side);
        Ok(SignedFile {
            name: segment::file_name(from, head),
            text,
        })
    }

    /// A text attachment and the umpire's signature over it (`NAME.sig`),
    /// signed now.
    pub(super) fn signed(&self, file: SignedFile) -> Vec<Attachment> {
        let sig = self.key.sign(RESULT_NAMESPACE, file.text.as_bytes()).ok();
        let [text, signature] = file.parts(Vec::new());
        match sig {
            Some(sig) => vec![text, (signature.0, signature.1, sig.into_bytes())],
            None => vec![text],
        }
    }
}

/// One part of a record a player kept: where it came from, its text, and the
/// umpire's signature over it if one came with it.
#[derive(Debug, Clone)]
pub struct Part {
    pub name: String,
    pub text: String,
    pub sig: Option<String>,
}

/// A record assembled from a player's parts.
#[derive(Debug)]
pub struct Gathered {
    pub record: Record,
    pub parts: usize,
    /// Parts whose umpire signature was checked.
    pub signed: usize,
    /// The fingerprints of the umpire keys that signed them, in the order
    /// the game passed between umpires (one, unless it moved by `import`).
    pub fingerprints: Vec<String>,
}

/// Why a player's parts do not make a verified record.
#[derive(Debug, thiserror::Error)]
pub enum GatherError {
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("no record or segment found in {0}")]
    Nothing(String),
    #[error(transparent)]
    Assemble(#[from] segment::AssembleError),
    #[error("{0}: not the umpire's signature: {1}")]
    Signature(String, String),
    #[error("the record names no usable umpire key: {0}")]
    Key(String),
    /// A compressed record part that does not inflate (or inflates too far).
    #[error("{0}: {1}")]
    Inflate(String, super::gzip::InflateError),
}

/// Reads every part under `paths`: record or segment files (with `FILE.sig`
/// beside them), mails (`.eml`, Maildir `cur`/`new`), mbox files, and
/// folders of these.
pub fn parts(paths: &[PathBuf]) -> Result<Vec<Part>, GatherError> {
    let mut out = Vec::new();
    let mut failed = None;
    for p in paths {
        walk(p, 0, &mut |found| match found {
            Found::Record(part) => out.push(part),
            Found::Mail(name, m) => {
                if let Err(e) = record_parts(name, m, &mut out) {
                    failed.get_or_insert(e);
                }
            }
        })?;
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// What a result mail showed its reader, beside the record part it carried.
#[derive(Debug, Clone)]
pub struct MailView {
    /// Where the mail was found.
    pub name: String,
    /// The last record entry its record part carries.
    pub last: u64,
    /// The mail's text: the report, the situation as its reader sees it, what comes next.
    pub text: String,
    /// Its picture of the whole map (`map.png`), if it carried one.
    pub picture: Option<Vec<u8>>,
}

/// The result mails under `paths` (as [`parts`] finds them) that carry a
/// record part, each with the text and picture it showed its reader, in
/// the order found.
pub fn mail_views(paths: &[PathBuf]) -> Result<Vec<MailView>, GatherError> {
    let mut out = Vec::new();
    for p in paths {
        walk(p, 0, &mut |found| {
            if let Found::Mail(name, m) = found
                && let Some(v) = mail_view(name, m)
            {
                out.push(v);
            }
        })?;
    }
    Ok(out)
}

/// A mail's view, if it carries a record part.
fn mail_view(name: &str, m: &umpire_mail::mime::ReadMail) -> Option<MailView> {
    let mut parts = Vec::new();
    // A part that does not read is reported by `gather`.
    let _ = record_parts(name, m, &mut parts);
    let last = parts
        .iter()
        .filter_map(|p| segment::parse(&p.text).ok())
        .flat_map(|es| es.into_iter().map(|e| e.seq))
        .max()?;
    let picture = m
        .attachments
        .iter()
        .find(|a| a.name == super::picture::MAP_PNG)
        .map(|a| a.bytes.clone());
    Some(MailView {
        name: name.to_string(),
        last,
        // The mail's line ends are CRLF on the wire.
        text: m.text.replace("\r\n", "\n"),
        picture,
    })
}

/// What [`walk`] finds: a record file, or a mail.
enum Found<'a> {
    Record(Part),
    Mail(&'a str, &'a umpire_mail::mime::ReadMail),
}

/// Visits every record file and mail under `p`.
fn walk(p: &Path, depth: usize, f: &mut dyn FnMut(Found<'_>)) -> Result<(), GatherError> {
    let io = |e| GatherError::Io(p.display().to_string(), e);
    let meta = std::fs::metadata(p).map_err(io)?;
    if meta.is_dir() {
        // A Maildir's cur/new, or a folder of mails or records; not deeper.
        if depth > 2 {
            return Ok(());
        }
        let mut names: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(io)?
            .flatten()
            .map(|e| e.path())
            .collect();
        names.sort();
        for n in names {
            if n.extension().is_some_and(|x| x == "sig") || n.ends_with("tmp") {
                continue;
            }
            walk(&n, depth + 1, f)?;
        }
        return Ok(());
    }
    if !meta.is_file() {
        return Ok(());
    }
    let mut bytes = std::fs::read(p).map_err(io)?;
    let name = p.display().to_string();
    if super::gzip::is_gzip(&bytes) {
        // A compressed record (`record.txt.gz` as a mail attaches it). One
        // named as a record or given by name must inflate; any other
        // compressed file in a folder is not ours.
        let file_name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        match super::gzip::inflate(bytes.as_slice()) {
            Ok(text) => bytes = text.into_bytes(),
            Err(e) if depth == 0 || file_name.starts_with("record") => {
                return Err(GatherError::Inflate(name, e));
            }
            Err(_) => return Ok(()),
        }
    }
    match std::str::from_utf8(&bytes) {
        Ok(t) if segment::looks_like_record(t) => {
            let sig = std::fs::read_to_string(super::gzip::sig_path(p)).ok();
            f(Found::Record(Part {
                name,
                text: t.to_string(),
                sig,
            }));
        }
        _ if bytes.starts_with(b"From ") => {
            for (i, raw) in split_mbox(&bytes).into_iter().enumerate() {
                if let Ok(m) = umpire_mail::mime::read(&raw) {
                    f(Found::Mail(&format!("{name} mail {}", i + 1), &m));
                }
            }
        }
        _ => {
            if let Ok(m) = umpire_mail::mime::read(&bytes) {
                f(Found::Mail(&name, &m));
            }
        }
    }
    Ok(())
}

/// The mails of an mbox, `>From ` quoting undone.
fn split_mbox(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut mails: Vec<Vec<u8>> = Vec::new();
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        if line.starts_with(b"From ") {
            mails.push(Vec::new());
            continue;
        }
        if let Some(m) = mails.last_mut() {
            let quoted =
                line.first() == Some(&b'>') && line.trim_start_matches_gt().starts_with(b"From ");
            let unquoted = if quoted { &line[1..] } else { line };
            m.extend_from_slice(unquoted);
        }
    }
    mails
}

trait TrimGt {
    fn trim_start_matches_gt(&self) -> &[u8];
}

impl TrimGt for [u8] {
    fn trim_start_matches_gt(&self) -> &[u8] {
        let n = self.iter().take_while(|&&b| b == b'>').count();
        &self[n..]
    }
}

/// The record parts a mail carries (`record*.txt` with their `.sig`, and
/// `record*.txt.gz` with the `record*.txt.sig` over its text). A compressed
/// part that does not inflate is an error; the mail's other parts are kept.
fn record_parts(
    name: &str,
    m: &umpire_mail::mime::ReadMail,
    out: &mut Vec<Part>,
) -> Result<(), GatherError> {
    let mut failed = None;
    for a in &m.attachments {
        let plain = a.name.strip_suffix(super::gzip::SUFFIX).unwrap_or(&a.name);
        if !(plain.starts_with("record") && plain.ends_with(".txt")) {
            continue;
        }
        let text = if super::gzip::is_gzip(&a.bytes) {
            match super::gzip::inflate(a.bytes.as_slice()) {
                Ok(t) => t,
                Err(e) => {
                    failed.get_or_insert(GatherError::Inflate(format!("{name}: {}", a.name), e));
                    continue;
                }
            }
        } else {
            let Ok(text) = String::from_utf8(a.bytes.clone()) else {
                continue;
            };
            text
        };
        if !segment::looks_like_record(&text) {
            continue;
        }
        let sig_name = format!("{plain}.sig");
        let sig = m
            .attachments
            .iter()
            .find(|s| s.name == sig_name)
            .and_then(|s| String::from_utf8(s.bytes.clone()).ok());
        out.push(Part {
            name: format!("{name}: {}", a.name),
            text,
            sig,
        });
    }
    failed.map_or(Ok(()), Err)
}

/// Assembles the parts under `paths` into one record and checks each part's
/// signature against the umpire key its opening names.
pub fn gather(paths: &[PathBuf]) -> Result<Gathered, GatherError> {
    let parts = parts(paths)?;
    if parts.is_empty() {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(GatherError::Nothing(names.join(", ")));
    }
    let texts: Vec<(String, String)> = parts
        .iter()
        .map(|p| (p.name.clone(), p.text.clone()))
        .collect();
    let record = segment::assemble(&texts)?;
    // Each part is checked against the key in charge at its last entry: the
    // opening's, or the one a recommit handed the game to (`import` at
    // another umpire).
    let keys = record.umpire_keys();
    let mut used = vec![false; keys.len()];
    let mut signed = 0;
    for p in parts.iter().filter(|p| p.sig.is_some()) {
        let head = segment::parse(&p.text)
            .ok()
            .and_then(|es| es.iter().map(|e| e.seq).max())
            .unwrap_or(0);
        let i = keys
            .iter()
            .rposition(|(from, _)| *from <= head)
            .ok_or_else(|| GatherError::Key("no opening".into()))?;
        let key = PublicKey::parse(keys[i].1).map_err(|e| GatherError::Key(e.to_string()))?;
        let sig = p.sig.as_deref().unwrap_or_default();
        key.verify(RESULT_NAMESPACE, p.text.as_bytes(), sig)
            .map_err(|e| GatherError::Signature(p.name.clone(), e.to_string()))?;
        signed += 1;
        used[i] = true;
    }
    let fingerprints = keys
        .iter()
        .zip(&used)
        .filter(|(_, u)| **u)
        .filter_map(|((_, k), _)| PublicKey::parse(k).ok().map(|k| k.fingerprint()))
        .collect();
    Ok(Gathered {
        record,
        parts: parts.len(),
        signed,
        fingerprints,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_mbox_splits_and_unquotes() {
        let m = b"From a@b Mon\nSubject: x\n\n>From here\nbody\nFrom c@d Tue\nSubject: y\n\nz\n";
        let v = split_mbox(m);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0], b"Subject: x\n\nFrom here\nbody\n");
        assert_eq!(v[1], b"Subject: y\n\nz\n");
    }
}
