//! What the offline tools (`show --record`, `map`, `check`) read: a record
//! file, or the parts a player kept, as `verify` takes them (record.txt, the
//! `record-A-B.txt` segments of later mails, the mails themselves, or the
//! folder, Maildir or mbox holding them), each plain or compressed (the
//! `record.txt.gz` of a long game's mail).
//!
//! A whole record (a game that hides nothing, or one that ended) is replayed
//! and verified, so the tools draw and check any view of it. A side's copy
//! of a game that hides something cannot be replayed: the other sides'
//! items in it are sealed. It is audited as `verify` audits it, and the
//! situation it shows is the one the umpire's latest result mail among the
//! files showed its reader, at the copy's head.

use super::commands::{is_whole_record, read_record, replay_record};
use crate::core::game::Game;
use crate::core::record::Record;
use crate::service::segments::{MailView, gather, mail_views};
use anyhow::{Context, Result, anyhow, bail};
use std::path::{Path, PathBuf};

/// A game as the offline tools hold it.
pub(super) enum Offline {
    /// A whole record, replayed and verified.
    Full(Box<Game>),
    /// A side's copy of a game that hides something, audited.
    Copy(Copy),
}

/// A side's copy and what the umpire's mails showed its holder.
pub(super) struct Copy {
    pub record: Record,
    /// The latest result mail among the files, if one carries the copy's head.
    pub view: Option<MailView>,
}

impl Copy {
    /// The side the copy's mail was written for, as its situation names it
    /// ("== The situation, as ming sees it ==").
    pub fn holder(&self) -> Option<String> {
        let text = &self.view.as_ref()?.text;
        let start = text.find("== The situation, as ")? + "== The situation, as ".len();
        let end = text[start..].find(" sees it ==")?;
        Some(text[start..start + end].to_string())
    }

    /// The situation and what comes next, as the latest mail gave them (its
    /// report of the last action and its proof section left out).
    pub fn situation(&self) -> Option<&str> {
        let text = &self.view.as_ref()?.text;
        let start = text.find("== The situation").unwrap_or(0);
        let end = text[start..]
            .find("\n== Proof ==")
            .map_or(text.len(), |e| start + e);
        Some(text[start..end].trim_end())
    }

    /// The entry number of the copy's head.
    pub fn head_seq(&self) -> u64 {
        (self.record.len() as u64).saturating_sub(1)
    }
}

/// Reads `files` (one record file, or parts and folders of mails) into a
/// game the tools can use.
pub(super) fn load(files: &[PathBuf], data: Option<&Path>) -> Result<Offline> {
    if let [file] = files
        && is_whole_record(file)
    {
        let (record, _) = read_record(file)?;
        return from_record(record, None, data)
            .map_err(|e| anyhow!("{}: {}", file.display(), super::error_text(&e)));
    }
    let gathered = gather(files).context("the record cannot be assembled from these files")?;
    let views = mail_views(files).context("the mails cannot be read")?;
    from_record(gathered.record, Some(views), data)
}

/// A whole record replayed, or a copy audited with its latest view.
fn from_record(
    record: Record,
    views: Option<Vec<MailView>>,
    data: Option<&Path>,
) -> Result<Offline> {
    if record.is_complete() {
        let (game, _) = replay_record(record, data)?;
        return Ok(Offline::Full(Box::new(game)));
    }
    if let Err(e) = crate::core::audit::audit(&record) {
        bail!("the record copy does not check: {e}");
    }
    let head = (record.len() as u64).saturating_sub(1);
    let view = views
        .unwrap_or_default()
        .into_iter()
        .rev()
        .find(|v| v.last == head);
    Ok(Offline::Copy(Copy { record, view }))
}

/// Why a side's copy cannot give what was asked, and what can.
pub(super) const COPY_LIMIT: &str = "a side's copy of a game that hides information cannot be replayed offline (the other sides' items in it are sealed until the game ends)";
