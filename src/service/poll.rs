//! One poll: every new mail is read, authenticated, adjudicated, recorded and
//! answered. Everything a mail causes — record entries, ledger, raw mail,
//! outgoing mails — is committed in one transaction before the mail is marked
//! done in the mailbox, so a crash at any point and a rerun give the result of
//! one clean run.

use super::compose::Unsealed;
use super::games::rfc3339;
use super::{ServiceError, Umpire};
use crate::core::game::{RejectKind, Rejection, Verdict};
use crate::core::hash::sha256;
use crate::core::movefile::MoveFile;
use crate::core::sig::{MOVE_NAMESPACE, Prechecked};
use crate::mail::mime::{self, FoundMove, ReadMail};
use crate::mail::{Incoming, Intake};
use crate::store::{Batch, Table};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};

/// What became of one mail (kept in the ledger).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerEntry {
    /// When it was processed.
    pub at: String,
    pub message_id: Option<String>,
    pub from: Option<String>,
    pub game: Option<String>,
    /// One line: "accepted as entry 5", "refused: stale", "ignored: bounce".
    pub outcome: String,
    /// The digest of the mail's body (all after the header section): a later
    /// mail with the same Message-ID is a second delivery only if this matches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// A group of mails whose writes a worker is committing (`commit_pending`).
pub(super) struct InFlight {
    /// Read by the adjudication meanwhile, as the store will hold them.
    writes: std::sync::Arc<Batch>,
    /// The mailbox ids to mark done once the commit is durable.
    mails: Vec<String>,
    /// Games whose cached state is ahead of the store until it is.
    games: std::collections::BTreeSet<String>,
    /// The commit's outcome, once the worker has made it.
    commit: std::sync::mpsc::Receiver<Committed>,
    /// The worker marks the mails done itself once the commit is durable.
    marked: bool,
}

/// How a group's worker ended: committed (and, where the intake allows it,
/// its mails marked done), or what failed.
type Committed = Result<(), GroupFailed>;

enum GroupFailed {
    /// Nothing of the group is in the store.
    Commit(crate::store::StoreError),
    /// The group is durable; marking a mail done failed.
    Done(crate::mail::MailError),
}

impl InFlight {
    /// Starts committing `writes` on a worker thread, which then marks the
    /// mails done through `marker` if the intake gave one (else `settle`
    /// marks them on the poll's thread).
    fn start(
        store: &std::sync::Arc<crate::store::Store>,
        writes: Batch,
        mails: Vec<String>,
        games: std::collections::BTreeSet<String>,
        marker: Option<crate::mail::DoneMarker>,
        committer: Option<&super::committer::Committer>,
    ) -> InFlight {
        let writes = std::sync::Arc::new(writes);
        let marked = marker.is_some();
        let work = {
            let (s, w, ids) = (store.clone(), writes.clone(), mails.clone());
            move || {
                s.commit(&*w).map_err(GroupFailed::Commit)?;
                if let Some(mark) = marker {
                    for id in &ids {
                        mark(id).map_err(GroupFailed::Done)?;
                    }
                }
                Ok(())
            }
        };
        let contained = move || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|p| {
                Err(GroupFailed::Commit(crate::store::StoreError::Db(format!(
                    "the commit failed: {}",
                    panic_text(p.as_ref())
                ))))
            })
        };
        InFlight {
            writes,
            mails,
            games,
            commit: super::committer::Committer::run(committer, contained),
            marked,
        }
    }

    /// Waits for the commit: the mails still to mark done, or the error and
    /// the games left ahead of the store.
    fn finish(self) -> Result<Vec<String>, (ServiceError, std::collections::BTreeSet<String>)> {
        let done = self.commit.recv().unwrap_or_else(|_| {
            Err(GroupFailed::Commit(crate::store::StoreError::Db(
                "the worker committing the poll's mails stopped".into(),
            )))
        });
        match done {
            Ok(()) if self.marked => Ok(Vec::new()),
            Ok(()) => Ok(self.mails),
            Err(GroupFailed::Commit(e)) => Err((e.into(), self.games)),
            // The group's games are durable: none is ahead of the store.
            Err(GroupFailed::Done(e)) => Err((e.into(), Default::default())),
        }
    }

    /// The writes on their way to the store.
    pub(super) fn writes(&self) -> &Batch {
        &self.writes
    }

    /// The mailbox ids of the group.
    pub(super) fn mails(&self) -> &[String] {
        &self.mails
    }

    /// Is `game`'s cached state ahead of the store until this group commits?
    pub(super) fn holds_game(&self, game: &str) -> bool {
        self.games.contains(game)
    }
}

/// Counts from a poll.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PollReport {
    pub mails: usize,
    pub accepted: usize,
    pub rejected: usize,
    pub duplicates: usize,
    pub commands: usize,
    pub ignored: usize,
    /// Mails whose handling failed on their own (recorded as failed, not retried).
    pub failed: usize,
    pub replies: usize,
}

impl PollReport {
    /// Did the poll find anything to do?
    pub fn is_idle(&self) -> bool {
        self.mails == 0
    }
}

/// What processing one mail decided, before it is committed.
struct Decision {
    batch: Batch,
    mails: Vec<Unsealed>,
    ledger: LedgerEntry,
    game: Option<String>,
    kind: Outcome,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Accepted,
    Rejected,
    Duplicate,
    Commands,
    Ignored,
}

/// The time a mail was sent, from its Date header, else `now`. Informative
/// only (the record's `at`), but stable across reruns of the same mail.
fn mail_time(mail: &ReadMail, now: jiff::Timestamp) -> jiff::Timestamp {
    mail.date
        .as_deref()
        .and_then(|d| mailparse::dateparse(d).ok())
        .and_then(|s| jiff::Timestamp::from_second(s).ok())
        .unwrap_or(now)
}

/// The running games' sides, (game, side), by lower-case address.
pub(super) type Players = std::collections::BTreeMap<String, Vec<(String, String)>>;

impl Umpire {
    /// Handles every new mail in `intake` (up to the batch limit).
    pub fn poll(
        &mut self,
        intake: &mut dyn Intake,
        now: jiff::Timestamp,
    ) -> Result<PollReport, ServiceError> {
        let mut report = PollReport::default();
        // Games may have started or ended since the last poll.
        *self.players.lock().unwrap_or_else(|p| p.into_inner()) = None;
        let taken = self.take_all(intake, now, &mut report);
        // Whatever happened, the last group's commit ends inside the poll.
        let settled = self.settle(intake);
        taken.and(settled).map(|()| report)
    }

    /// Fetches and takes mails until none are left or the batch limit is met.
    fn take_all(
        &mut self,
        intake: &mut dyn Intake,
        now: jiff::Timestamp,
        report: &mut PollReport,
    ) -> Result<(), ServiceError> {
        let mut left = self.config.limits.batch;
        while left > 0 {
            // The mails whose commit is in flight are still new in the mailbox.
            let skip = self.in_flight.as_ref().map(|f| f.mails()).unwrap_or(&[]);
            let mails = intake.fetch_skipping(left.min(100), skip)?;
            if mails.is_empty() {
                break;
            }
            left = left.saturating_sub(mails.len());
            self.take_fetched(intake, &mails, now, report)?;
            if self.stopping() {
                break;
            }
        }
        Ok(())
    }

    /// Processes one fetch of mails in order and commits them, while a
    /// worker on another core reads the same mails ahead and checks their
    /// moves' signatures (`read_ahead`): the adjudication then finds each
    /// signature checked, and the curve arithmetic of the move checks runs
    /// beside it, not in it (issue 13).
    fn take_fetched(
        &mut self,
        intake: &mut dyn Intake,
        mails: &[Incoming],
        now: jiff::Timestamp,
        report: &mut PollReport,
    ) -> Result<(), ServiceError> {
        let pre = Prechecked::open();
        let read = std::sync::Arc::new(ReadMails::for_fetch(mails));
        let abandon = AtomicBool::new(false);
        let max_bytes = self.config.limits.max_mail_bytes;
        std::thread::scope(|scope| {
            let worker = std::thread::Builder::new()
                .name("read-ahead".into())
                .spawn_scoped(scope, || {
                    read_ahead(mails, max_bytes, &pre, &read, &abandon)
                });
            if worker.is_err() {
                // No thread: each signature is checked when its mail is read.
                pre.finish();
            }
            self.read_ahead = Some(pre.clone());
            self.read_mails = Some(read.clone());
            self.sealer = super::seal::Sealer::start(self.key.clone());
            self.committer = super::committer::Committer::start();
            let done = self.take_in_order(intake, mails, now, report);
            abandon.store(true, Ordering::Relaxed);
            self.read_ahead = None;
            self.read_mails = None;
            // What an error left owed joins the pending writes it belongs to.
            let drained = self.drain_sealer();
            self.sealer = None;
            // The worker ends once the groups queued are committed.
            self.committer = None;
            done.and(drained)
        })
    }

    /// The mails of one fetch, one after another, each contained
    /// (`contained`), committed in groups of `commit_every` and at the end.
    fn take_in_order(
        &mut self,
        intake: &mut dyn Intake,
        mails: &[Incoming],
        now: jiff::Timestamp,
        report: &mut PollReport,
    ) -> Result<(), ServiceError> {
        for m in mails {
            self.contained(intake, m, now, report)?;
            self.pending_done.push(m.id.clone());
            if self.pending_done.len() >= self.config.limits.commit_every.max(1) {
                self.commit_pending(intake)?;
            }
            if self.stopping() {
                break;
            }
        }
        self.commit_pending(intake)
    }

    /// Hands what the processed mails caused to a worker that commits it in
    /// one transaction while the next mails are adjudicated, once the group
    /// before it is settled (`settle`): groups become durable one after
    /// another, in order, and a mail is marked done in the mailbox only once
    /// its group is. A crash before that loses nothing (the mails are still
    /// new); a crash after it finds them in the ledger.
    fn commit_pending(&mut self, intake: &mut dyn Intake) -> Result<(), ServiceError> {
        self.drain_sealer()?;
        if self.pending.is_empty() && self.pending_done.is_empty() {
            return Ok(());
        }
        self.settle(intake)?;
        self.in_flight = Some(InFlight::start(
            &self.store,
            std::mem::take(&mut self.pending),
            std::mem::take(&mut self.pending_done),
            std::mem::take(&mut self.pending_games),
            intake.detached_done(),
            self.committer.as_ref(),
        ));
        // A poll over many games keeps the memory of a few groups' games,
        // not of every game it has touched (issue 13).
        self.trim_cache(super::CACHED_GAMES);
        Ok(())
    }

    /// Hands the replies of a processed mail to the sealing worker, or seals
    /// them here if there is none.
    fn queue_later(&mut self, mails: Vec<Unsealed>, now: jiff::Timestamp) {
        let mails = match self.sealer.as_mut() {
            Some(sealer) => match sealer.send(mails, now) {
                Ok(()) => return,
                Err(mails) => mails,
            },
            None => mails,
        };
        let sealed = super::seal::seal_all(&self.key, &mails, now);
        let mut batch = Batch::new();
        self.put_sealed(&mut batch, sealed);
        self.pending.extend(batch);
    }

    /// Puts the items the sealing worker has written into the pending writes
    /// they belong to. If the worker is gone, the pending group cannot be
    /// committed whole: it is dropped like a failed commit (its mails stay
    /// new, its games are replayed from the store).
    fn drain_sealer(&mut self) -> Result<(), ServiceError> {
        let Some(sealer) = self.sealer.as_mut() else {
            return Ok(());
        };
        match sealer.collect() {
            Ok(sealed) => {
                let mut batch = Batch::new();
                self.put_sealed(&mut batch, sealed);
                self.pending.extend(batch);
                Ok(())
            }
            Err(e) => {
                self.sealer = None;
                for g in std::mem::take(&mut self.pending_games) {
                    self.forget(&g);
                }
                self.pending = Batch::new();
                self.pending_done.clear();
                Err(e)
            }
        }
    }

    /// Waits for the group in flight, if any, then marks its mails done. If
    /// its commit failed, the cached games are ahead of the store (this
    /// group's and any adjudicated since): they are replayed next time.
    fn settle(&mut self, intake: &mut dyn Intake) -> Result<(), ServiceError> {
        let Some(group) = self.in_flight.take() else {
            return Ok(());
        };
        let mails = match group.finish() {
            Ok(mails) => mails,
            Err((e, games)) => {
                for g in games.iter().chain(&std::mem::take(&mut self.pending_games)) {
                    self.forget(g);
                }
                self.pending = Batch::new();
                self.pending_done.clear();
                return Err(e);
            }
        };
        for id in mails {
            intake.done(&id)?;
        }
        Ok(())
    }

    /// Processes one mail so that whatever it holds, it cannot stop the poll:
    /// a failure of this mail alone (an error or a panic in reading,
    /// adjudicating or answering it) becomes its recorded outcome. Only a
    /// failing store or mailbox ends the poll, leaving the mail for the next.
    fn contained(
        &mut self,
        intake: &mut dyn Intake,
        m: &Incoming,
        now: jiff::Timestamp,
        report: &mut PollReport,
    ) -> Result<(), ServiceError> {
        let before = report.clone();
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.process(m, now, report)
        }));
        let why = match run {
            Ok(Ok(())) => return Ok(()),
            Ok(Err(e)) if environmental(&e) => return Err(e),
            Ok(Err(e)) => e.to_string(),
            Err(panic) => format!("internal error: {}", panic_text(&*panic)),
        };
        *report = before;
        // The mails before this one stand: commit them. What this one did to
        // the cached games and dice chains is dropped with the caches; they
        // are replayed from the store when next needed, so the store must
        // hold every group first.
        self.commit_pending(intake)?;
        self.settle(intake)?;
        self.games.clear();
        self.chains.clear();
        self.chain_writes.clear();
        tracing::warn!(mail = %m.id, error = %why, "a mail could not be handled; recorded as failed");
        let hash = sha256(&m.raw);
        let mut batch = Batch::new();
        batch.put(Table::Inbox, hash.to_hex(), self.kept_copy(m));
        batch.put_json(
            Table::Ledger,
            format!("h:{hash}"),
            &LedgerEntry {
                at: rfc3339(now),
                message_id: None,
                from: None,
                game: None,
                outcome: format!("failed: {}", excerpt(&why, 300)),
                body: None,
            },
        );
        self.pending.extend(batch);
        report.mails += 1;
        report.failed += 1;
        Ok(())
    }

    /// What the store keeps of a mail: all of it, or only the header section
    /// of one over the size cap.
    fn kept_copy(&self, m: &Incoming) -> Vec<u8> {
        if m.raw.len() <= self.config.limits.max_mail_bytes {
            return m.raw.clone();
        }
        let end = find_header_end(&m.raw)
            .unwrap_or(m.raw.len())
            .min(64 * 1024);
        m.raw[..end].to_vec()
    }

    /// Processes one mail into the pending writes (idempotent: a mail already
    /// in the ledger is skipped). `poll` commits them in groups.
    pub fn process(
        &mut self,
        m: &Incoming,
        now: jiff::Timestamp,
        report: &mut PollReport,
    ) -> Result<(), ServiceError> {
        let hash = sha256(&m.raw);
        let hkey = format!("h:{hash}");
        if self.read(Table::Ledger, &hkey)?.is_some() {
            return Ok(());
        }
        report.mails += 1;
        let mut d = self.decide(m, &hkey, now)?;
        if let Some(mid) = &d.ledger.message_id
            && d.kind != Outcome::Ignored
        {
            tracing::debug!(message_id = %mid, "processed");
        }
        d.ledger.body = Some(body_digest(&m.raw));
        let mut batch = d.batch;
        // A batch the store would refuse must not join the group: it would
        // fail the commit of every mail with it, poll after poll.
        if let Some(id) = batch.bad_id() {
            return Err(crate::store::StoreError::BadId(id.to_string()).into());
        }
        batch.put(Table::Inbox, hash.to_hex(), self.kept_copy(m));
        batch.put_json(Table::Ledger, &hkey, &d.ledger);
        if let Some(mid) = &d.ledger.message_id {
            batch.put_json(Table::Ledger, format!("m:{mid}"), &d.ledger);
        }
        self.queue_marks(&mut batch, &d.mails);
        self.pending.extend(batch);
        if let Some(g) = &d.game {
            self.pending_games.insert(g.clone());
        }
        let replies = d.mails.len();
        // Last: nothing after this may fail, so no job is handed over for a
        // mail whose writes are not pending.
        self.queue_later(d.mails, now);
        tracing::info!(
            game = d.game.as_deref().unwrap_or("-"),
            from = d.ledger.from.as_deref().unwrap_or("-"),
            result = %d.ledger.outcome,
            "mail"
        );
        match d.kind {
            Outcome::Accepted => report.accepted += 1,
            Outcome::Rejected => report.rejected += 1,
            Outcome::Duplicate => report.duplicates += 1,
            Outcome::Commands => report.commands += 1,
            Outcome::Ignored => report.ignored += 1,
        }
        report.replies += replies;
        Ok(())
    }

    fn decide(
        &mut self,
        m: &Incoming,
        hkey: &str,
        now: jiff::Timestamp,
    ) -> Result<Decision, ServiceError> {
        let at_now = rfc3339(now);
        let ledger = |mail: Option<&ReadMail>, game: Option<String>, outcome: String| LedgerEntry {
            at: at_now.clone(),
            message_id: mail.and_then(|x| x.message_id.clone()),
            from: mail.and_then(|x| x.from.clone()),
            game,
            outcome,
            body: None,
        };
        let ignore = |l: LedgerEntry| Decision {
            batch: Batch::new(),
            mails: vec![],
            ledger: l,
            game: None,
            kind: Outcome::Ignored,
        };
        let short = &hkey[2..14];
        // The intake may have left an oversized mail's body on the server.
        let size = m.oversize.map_or(m.raw.len(), |s| s as usize);
        if size > self.config.limits.max_mail_bytes || m.oversize.is_some() {
            // Read only the headers of an oversized mail, to answer it.
            let head_len = find_header_end(&m.raw)
                .unwrap_or(m.raw.len())
                .min(64 * 1024);
            let mail = mime::read(&m.raw[..head_len]).ok();
            let outcome = format!(
                "ignored: {size} bytes, over the {} byte limit",
                self.config.limits.max_mail_bytes
            );
            let mut d = ignore(ledger(mail.as_ref(), None, outcome.clone()));
            if let Some(mail) = mail.filter(|x| x.automatic.is_none())
                && let Some(from) = mail.from.clone()
                && self.may_note(&from, now, &mut d.batch)?
            {
                d.mails.push(self.unsigned_mail(&from, &format!("the mail was {size} bytes; the umpire reads mails up to {} bytes. Send the move file alone.", self.config.limits.max_mail_bytes), mail.message_id.clone(), format!("howto.{short}"), now)?);
            }
            return Ok(d);
        }
        let ahead = self.read_mails.as_ref().and_then(|r| r.take(m));
        let mail = match ahead.map_or_else(|| mime::read(&m.raw), Ok) {
            Ok(x) => x,
            Err(e) => return Ok(ignore(ledger(None, None, format!("ignored: {e}")))),
        };
        // The same Message-ID with the same body is a second delivery (a
        // forward, a redelivery with other Received lines). A different body
        // under a reused Message-ID is a new mail and is read.
        if let Some(mid) = &mail.message_id
            && let Some(prev) = self.read_json::<LedgerEntry>(Table::Ledger, format!("m:{mid}"))?
            && prev
                .body
                .as_deref()
                .is_none_or(|b| b == body_digest(&m.raw))
        {
            return Ok(ignore(ledger(
                Some(&mail),
                prev.game,
                format!("ignored: a second delivery of {mid}"),
            )));
        }
        if let Some(why) = &mail.automatic {
            return Ok(ignore(ledger(
                Some(&mail),
                None,
                format!("ignored: automatic mail ({why})"),
            )));
        }
        let own = self.config.umpire.address.to_ascii_lowercase();
        if mail.loops.iter().any(|l| l.trim_matches(['<', '>']) == own) {
            return Ok(ignore(ledger(
                Some(&mail),
                None,
                "ignored: the umpire's own mail (X-Loop)".into(),
            )));
        }
        let found = mime::moves(&mail);
        let signed: Vec<&FoundMove> = found.iter().filter(|f| f.signature.is_some()).collect();
        if signed.is_empty() {
            let mut d = ignore(ledger(Some(&mail), None, "ignored: no signed move".into()));
            let reason = mime::missing_signature(&mail, &found);
            let movelike = !found.is_empty()
                || mime::looks_like_unsigned_move(&mail)
                || mail.attachments.iter().any(|p| p.name.ends_with(".sig"));
            if let Some(from) = mail.from.clone()
                && (movelike || self.is_player(&from)?)
                && self.may_note(&from, now, &mut d.batch)?
            {
                d.mails.push(self.unsigned_mail(
                    &from,
                    &reason,
                    mail.message_id.clone(),
                    format!("howto.{short}"),
                    now,
                )?);
            }
            return Ok(d);
        }
        // One signed move per mail: the first found.
        let f = signed[0];
        // SSHSIG armor means the same with either line end; record it with LF.
        let signature = f
            .signature
            .clone()
            .unwrap_or_default()
            .replace("\r\n", "\n");
        let parsed = MoveFile::parse(&f.candidates[0]);
        let game_id = match &parsed {
            Ok(p) => p.game.clone(),
            Err(_) => {
                // Without a readable game line we cannot tell which game it is for.
                let mut d = ignore(ledger(Some(&mail), None, "refused: unreadable move".into()));
                if let (Some(from), Err(e)) = (mail.from.clone(), &parsed)
                    && self.may_note(&from, now, &mut d.batch)?
                {
                    d.mails.push(self.unsigned_mail(
                        &from,
                        &format!("the move file in the {} does not read: {e}", f.origin),
                        mail.message_id.clone(),
                        format!("howto.{short}"),
                        now,
                    )?);
                }
                return Ok(d);
            }
        };
        if self.store.head(&game_id)?.is_none() {
            let mut d = ignore(ledger(
                Some(&mail),
                None,
                format!("refused: no game {game_id:?}"),
            ));
            if let Some(from) = mail.from.clone()
                && self.may_note(&from, now, &mut d.batch)?
            {
                let reason = self.no_game_reason(&game_id, &from)?;
                d.mails.push(self.unsigned_mail(
                    &from,
                    &reason,
                    mail.message_id.clone(),
                    format!("howto.{short}"),
                    now,
                )?);
            }
            return Ok(d);
        }
        self.load(&game_id)?;
        if let Some(d) = self.paused_refusal(&game_id, &f.candidates, &signature, &mail, now)? {
            return Ok(d);
        }
        let len_before = self.games[&game_id].record().len();
        let mut batch = Batch::new();
        self.ensure_chain(&game_id, now, &mut batch)?;
        let chain = self.chain(&game_id)?;
        self.cache_chains(&mut batch);
        let at = rfc3339(mail_time(&mail, now));
        let game = self
            .games
            .get_mut(&game_id)
            .ok_or_else(|| ServiceError::Game(format!("no game {game_id}")))?;
        // Of the candidate byte strings (mail may have changed line ends),
        // the one the signature verifies is the one that was signed. With
        // one candidate there is nothing to choose: `submit` checks it, so
        // each signature is verified once.
        let pre = self.read_ahead.clone();
        let bytes = parsed
            .as_ref()
            .ok()
            .filter(|_| f.candidates.len() > 1)
            .and_then(|p| game.side(&p.side))
            .and_then(|side| {
                f.candidates.iter().find(|c| {
                    game.sides()[side.index()]
                        .key
                        .verify_prechecked(MOVE_NAMESPACE, c, &signature, pre.as_deref())
                        .is_ok()
                })
            })
            .unwrap_or(&f.candidates[0])
            .clone();
        game.use_prechecked(pre);
        let verdict = game.submit(&bytes, &signature, &chain, &at);
        game.use_prechecked(None);
        let game = &self.games[&game_id];
        let new_entries = game.entries_since(len_before).to_vec();
        batch.put_entries(&game_id, &new_entries);
        let reply = mail.message_id.clone();
        let (mails, outcome, kind) = match verdict {
            Verdict::Unavailable(why) => {
                // The chain is renewed before each mail, so this means a fault
                // in the store: stop here and leave the mail for the next poll
                // (a move the umpire cannot roll for is not held against it).
                self.forget(&game_id);
                return Err(ServiceError::Store(crate::store::StoreError::Db(format!(
                    "game {game_id}: {why}"
                ))));
            }
            Verdict::Accepted { seq, side, .. } => {
                let mut meta = self.meta(&game_id)?;
                meta.refresh_waiting(game, now);
                if let Some(f) = &game.prompt().finished
                    && meta.finished.is_none()
                {
                    meta.finished = Some(f.summary.clone());
                }
                batch.put_json(Table::Games, &game_id, &meta);
                let mails =
                    self.result_mails(game, &meta, seq, Some((side, reply)), None, "", now)?;
                (mails, format!("accepted as entry {seq}"), Outcome::Accepted)
            }
            Verdict::Sealed {
                seq,
                side,
                resolved,
            } => {
                let mut meta = self.meta(&game_id)?;
                meta.refresh_waiting(game, now);
                if let Some(f) = &game.prompt().finished
                    && meta.finished.is_none()
                {
                    meta.finished = Some(f.summary.clone());
                }
                batch.put_json(Table::Games, &game_id, &meta);
                let mut mails = vec![self.notice_mail(
                    game,
                    side,
                    "sealed orders received",
                    &sealed_receipt(game, seq, resolved),
                    false,
                    reply.clone(),
                    format!("{game_id}.{seq}.sealed"),
                    now,
                )?];
                if let Some(round) = resolved {
                    mails.extend(self.result_mails(game, &meta, round, None, None, "", now)?);
                }
                let outcome = match resolved {
                    Some(r) => format!("sealed as entry {seq}; the round resolved as entry {r}"),
                    None => format!("sealed as entry {seq}"),
                };
                (mails, outcome, Outcome::Accepted)
            }
            Verdict::Duplicate { seq, side } => {
                let meta = self.meta(&game_id)?;
                let mails = self.result_mails(
                    game,
                    &meta,
                    seq,
                    Some((side, reply)),
                    Some(side),
                    &format!(".again.{short}"),
                    now,
                )?;
                (
                    mails,
                    format!("duplicate of entry {seq}: result sent again"),
                    Outcome::Duplicate,
                )
            }
            Verdict::Commands { side, commands } => {
                let name = game.sides()[side.index()].name.clone();
                match self.request_guard(&game_id, &name, &signature, now, &mut batch)? {
                    Ok(()) => {
                        let mails = self
                            .commands(&game_id, side, &commands, reply, short, now, &mut batch)?;
                        (
                            mails,
                            format!("commands: {}", commands.len()),
                            Outcome::Commands,
                        )
                    }
                    Err(why) => (vec![], format!("ignored: {why}"), Outcome::Ignored),
                }
            }
            Verdict::Rejected { seq, rejection } => {
                let to = self.refusal_recipient(&game_id, &rejection, mail.from.as_deref());
                let mut mails = Vec::new();
                if let Some(to) = to
                    && (rejection.signer.is_some() || self.may_note(&to, now, &mut batch)?)
                {
                    // The mail says what the client probably did; the record keeps the bare reason.
                    let mut shown = rejection.clone();
                    if rejection.kind == RejectKind::Signature {
                        let hint = mime::damage_hint(&mail, f);
                        if !hint.is_empty() {
                            shown.reason = format!("{}\n\n{hint}", shown.reason);
                        }
                    }
                    let game = &self.games[&game_id];
                    mails.push(self.rejection_mail(
                        game,
                        Some(seq),
                        &shown,
                        &to,
                        reply,
                        format!("{game_id}.{seq}.refused"),
                        now,
                    )?);
                }
                (
                    mails,
                    format!(
                        "refused as entry {seq}: {}",
                        excerpt(&rejection.reason, 300)
                    ),
                    Outcome::Rejected,
                )
            }
        };
        Ok(Decision {
            batch,
            mails,
            ledger: ledger(Some(&mail), Some(game_id.clone()), outcome),
            game: Some(game_id),
            kind,
        })
    }

    /// A refusal goes to the signer only. If no side's key verified, the
    /// sender is unknown; the From address gets it (rate-limited by the caller).
    fn refusal_recipient(&self, game: &str, r: &Rejection, from: Option<&str>) -> Option<String> {
        match r.signer {
            Some(s) => self
                .games
                .get(game)
                .map(|g| g.sides()[s.index()].email.clone()),
            None if r.kind == RejectKind::Signature
                || r.kind == RejectKind::UnknownSide
                || r.kind == RejectKind::Malformed
                || r.kind == RejectKind::WrongGame =>
            {
                from.map(str::to_string)
            }
            None => from.map(str::to_string),
        }
    }

    /// True (and noted in `batch`) if `addr` has not had an automatic note today.
    fn once_a_day(
        &self,
        addr: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<bool, ServiceError> {
        if addr.eq_ignore_ascii_case(&self.config.umpire.address) {
            return Ok(false);
        }
        let day = rfc3339(now)[..10].to_string();
        let key = format!("note:{}", addr.to_ascii_lowercase());
        let last: Option<String> = self.read_json(Table::Meta, &key)?;
        if last.as_deref() == Some(day.as_str()) {
            return Ok(false);
        }
        batch.put_json(Table::Meta, &key, &day);
        Ok(true)
    }

    /// May `addr` get an automatic note now? A player of a running game
    /// always may (a specific answer to each mail); an unknown sender once a day.
    fn may_note(
        &self,
        addr: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<bool, ServiceError> {
        if addr.eq_ignore_ascii_case(&self.config.umpire.address) {
            return Ok(false);
        }
        if self.is_player(addr)? {
            return Ok(true);
        }
        self.once_a_day(addr, now, batch)
    }

    /// Does `addr` play in a game that is not over?
    /// In a paused game, a move (not a request) is refused and not
    /// recorded; the signer is told why. `None` when the game runs.
    fn paused_refusal(
        &self,
        id: &str,
        candidates: &[Vec<u8>],
        signature: &str,
        mail: &ReadMail,
        now: jiff::Timestamp,
    ) -> Result<Option<Decision>, ServiceError> {
        let Some(p) = self.meta(id)?.paused else {
            return Ok(None);
        };
        let Some(Ok(file)) = candidates.first().map(|c| MoveFile::parse(c)) else {
            return Ok(None);
        };
        if file.orders.is_empty() && file.standing.is_none() {
            return Ok(None);
        }
        let game = &self.games[id];
        let signer = game.side(&file.side).filter(|s| {
            candidates.iter().any(|c| {
                game.sides()[s.index()]
                    .key
                    .verify(MOVE_NAMESPACE, c, signature)
                    .is_ok()
            })
        });
        let mut mails = Vec::new();
        if let Some(side) = signer {
            let since = jiff::Timestamp::from_second(p.since)
                .map(|t| t.to_string())
                .unwrap_or_default();
            let why = if p.reason.is_empty() {
                String::new()
            } else {
                format!(" ({})", p.reason)
            };
            mails.push(self.notice_mail(
                game,
                side,
                "move not recorded: the game is paused",
                &format!(
                    "Game {id} is paused by the club's admin since {since}{why}. Your move was not recorded; send it again when you are told the game resumes."
                ),
                false,
                mail.message_id.clone(),
                format!("{id}.{}.{}.refused-paused{}", game.record().len(), file.side, now.as_second()),
                now,
            )?);
        }
        let at_now = rfc3339(now);
        Ok(Some(Decision {
            batch: Batch::new(),
            mails,
            ledger: LedgerEntry {
                at: at_now,
                message_id: mail.message_id.clone(),
                from: mail.from.clone(),
                game: Some(id.to_string()),
                outcome: "refused: the game is paused".into(),
                body: None,
            },
            game: Some(id.to_string()),
            kind: Outcome::Rejected,
        }))
    }

    pub(super) fn is_player(&self, addr: &str) -> Result<bool, ServiceError> {
        Ok(!self.player_games(addr)?.is_empty())
    }

    /// The running games `addr` plays in, as (game, side), from each game's
    /// opening (one read per game, no replay).
    pub(super) fn player_games(&self, addr: &str) -> Result<Vec<(String, String)>, ServiceError> {
        let mut cache = self.players.lock().unwrap_or_else(|p| p.into_inner());
        if cache.is_none() {
            *cache = Some(self.players_by_address()?);
        }
        Ok(cache
            .as_ref()
            .and_then(|m| m.get(&addr.to_ascii_lowercase()))
            .cloned()
            .unwrap_or_default())
    }

    /// Every running game's sides by lower-case address (one scan of the games).
    fn players_by_address(&self) -> Result<Players, ServiceError> {
        let mut out = Players::new();
        for id in self.store.game_ids()? {
            if self.meta(&id).is_ok_and(|m| m.finished.is_some()) {
                continue;
            }
            let Some(raw) = self.read(Table::Entries, crate::store::entry_key(&id, 0))? else {
                continue;
            };
            let Ok(e) = serde_json::from_slice::<crate::core::record::Entry>(&raw) else {
                continue;
            };
            let moved = self.meta(&id).map(|m| m.addresses).unwrap_or_default();
            if let crate::core::record::Body::Opening(o) = &e.body {
                for s in &o.sides {
                    let addr = moved.get(&s.name).unwrap_or(&s.email).to_ascii_lowercase();
                    out.entry(addr)
                        .or_default()
                        .push((id.clone(), s.name.clone()));
                }
            }
        }
        Ok(out)
    }

    /// Why a move names no game here, with the games the sender does play.
    fn no_game_reason(&self, game: &str, from: &str) -> Result<String, ServiceError> {
        let mine = self.player_games(from)?;
        let mut t = format!("there is no game {game:?} at this umpire.");
        if !mine.is_empty() {
            let list: Vec<String> = mine.iter().map(|(g, s)| format!("{g} (as {s})")).collect();
            t.push_str(&format!(
                " You play in {}: check the `game:` line of your move.",
                list.join(", ")
            ));
        }
        Ok(t)
    }
}

/// Errors that are the environment's, not the mail's: the database or the
/// mailbox failing. They end the poll; the mail stays new for the next one.
pub(super) fn environmental(e: &ServiceError) -> bool {
    use crate::store::StoreError;
    match e {
        ServiceError::Store(s) => matches!(s, StoreError::Db(_) | StoreError::Open { .. }),
        // Handling a mail does no mail I/O: a mail error here is building
        // the answer, which is this mail's problem.
        ServiceError::Io { .. }
        | ServiceError::Worker(_)
        | ServiceError::Busy(_)
        | ServiceError::Config(_)
        | ServiceError::Key { .. } => true,
        ServiceError::Template(_) | ServiceError::Game(_) | ServiceError::Mail(_) => false,
    }
}

/// The message of a caught panic.
pub(super) fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// At most `n` characters of `s`, on one line.
fn excerpt(s: &str, n: usize) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(n)
        .collect()
}

/// The digest of everything after a mail's header section.
fn body_digest(raw: &[u8]) -> String {
    let start = find_header_end(raw).unwrap_or(raw.len());
    sha256(&raw[start..]).to_hex()
}

fn find_header_end(raw: &[u8]) -> Option<usize> {
    raw.windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|p| p + 4)
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|p| p + 2))
}

/// The receipt for sealed orders: the entry and its commitment, who is still
/// to send, and that a later submission in the same round replaces this one.
fn sealed_receipt(game: &crate::core::game::Game, seq: u64, resolved: Option<u64>) -> String {
    let entry = game.record().entries().get(seq as usize);
    let commitment = entry
        .and_then(|e| match &e.body {
            crate::core::record::Body::Sealed(s) => s.text.as_ref(),
            _ => None,
        })
        .and_then(|t| match t {
            crate::core::sealed::Hidden::Sealed(s) => Some(s.sealed.to_hex()),
            _ => None,
        })
        .unwrap_or_default();
    let mut t = format!(
        "Your orders are recorded sealed as entry {seq}.\nCommitment:\n  {commitment}\nNo other side sees them before the round is resolved; until then a new\nsigned move from you for this round replaces them.\n"
    );
    match resolved {
        Some(r) => t.push_str(&format!(
            "\nYours were the last orders of the round: it was resolved as entry {r}.\nThe result follows in a separate mail.\n"
        )),
        None => t.push_str(&format!("\nStill waiting for: {}\n", game.awaiting_names())),
    }
    t
}

/// The read-ahead worker of one fetch: reads each mail as `decide` will and
/// checks the signature of its first signed move, each candidate text singly
/// (`Prechecked::check_singly`), in the order the poll takes them, so the
/// adjudication rarely waits. It skips what `decide` would not read (an
/// oversized mail), stops when the poll no longer needs it, and closes the
/// pre-check however it ends, a panic on a hostile mail included, so no
/// lookup waits forever; that mail's signature is then checked by `submit`.
/// One fetch's mails as the read-ahead worker parsed them, each taken at
/// most once by `decide`; a mail the worker has not reached yet (or could
/// not read) is read by `decide` itself. Each parse is tagged with the
/// address of the bytes it was read from, so it is only ever taken for that
/// very mail, even if an intake gave two mails one id.
pub(super) struct ReadMails(
    std::collections::HashMap<String, std::sync::Mutex<Option<(usize, ReadMail)>>>,
);

impl ReadMails {
    fn for_fetch(mails: &[Incoming]) -> ReadMails {
        ReadMails(
            mails
                .iter()
                .map(|m| (m.id.clone(), std::sync::Mutex::new(None)))
                .collect(),
        )
    }

    fn put(&self, m: &Incoming, mail: ReadMail) {
        if let Some(slot) = self.0.get(&m.id) {
            *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some((m.raw.as_ptr() as usize, mail));
        }
    }

    fn take(&self, m: &Incoming) -> Option<ReadMail> {
        let mut slot = self.0.get(&m.id)?.lock().unwrap_or_else(|p| p.into_inner());
        match slot.take() {
            Some((at, mail)) if at == m.raw.as_ptr() as usize => Some(mail),
            other => {
                *slot = other;
                None
            }
        }
    }
}

fn read_ahead(
    mails: &[Incoming],
    max_bytes: usize,
    pre: &Prechecked,
    read: &ReadMails,
    abandon: &AtomicBool,
) {
    let _close = pre.finish_on_drop();
    for m in mails {
        if abandon.load(Ordering::Relaxed) {
            break;
        }
        if m.oversize.is_some() || m.raw.len() > max_bytes {
            continue;
        }
        // A panic here is `decide`'s to report, for this mail alone.
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let Ok(mail) = mime::read(&m.raw) else {
                return;
            };
            let found = mime::moves(&mail);
            read.put(m, mail);
            let Some(f) = found.iter().find(|f| f.signature.is_some()) else {
                return;
            };
            let signature = f
                .signature
                .as_deref()
                .unwrap_or_default()
                .replace("\r\n", "\n");
            for c in &f.candidates {
                pre.check_singly(MOVE_NAMESPACE, c, &signature);
            }
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mail_read_ahead_is_taken_only_for_the_mail_it_was_read_from() {
        let mail = |id: &str, subject: &str| Incoming {
            id: id.into(),
            raw: format!("From: a@x.test\r\nSubject: {subject}\r\n\r\nhi").into_bytes(),
            oversize: None,
        };
        // Two mails under one id (no intake should, but none may confuse them).
        let fetch = [mail("1", "first"), mail("1", "second")];
        let read = ReadMails::for_fetch(&fetch);
        read.put(&fetch[1], mime::read(&fetch[1].raw).unwrap());
        assert!(read.take(&fetch[0]).is_none(), "not the first mail's");
        assert_eq!(read.take(&fetch[1]).unwrap().subject, "second");
        assert!(read.take(&fetch[1]).is_none(), "taken once");
        assert!(read.take(&mail("2", "other")).is_none());
    }
}
