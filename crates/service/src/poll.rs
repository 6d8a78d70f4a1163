//! One poll: every new mail is read, authenticated, adjudicated, recorded and
//! answered. Everything a mail causes — record entries, ledger, raw mail,
//! outgoing mails — is committed in one transaction before the mail is marked
//! done in the mailbox, so a crash at any point and a rerun give the result of
//! one clean run.

use super::compose::Unsealed;
use super::decide::{Outcome, body_digest, excerpt, find_header_end};
use super::games::rfc3339;
use super::{ServiceError, Umpire};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use umpire_core::hash::sha256;
use umpire_core::sig::{MOVE_NAMESPACE, Prechecked};
use umpire_mail::mime::{self, ReadMail};
use umpire_mail::{Incoming, Intake};
use umpire_store::{Batch, Table};

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
    Commit(umpire_store::StoreError),
    /// The group is durable; marking a mail done failed.
    Done(umpire_mail::MailError),
}

impl InFlight {
    /// Starts committing `writes` on a worker thread, which then marks the
    /// mails done through `marker` if the intake gave one (else `settle`
    /// marks them on the poll's thread).
    fn start(
        store: &std::sync::Arc<umpire_store::Store>,
        writes: Batch,
        mails: Vec<String>,
        games: std::collections::BTreeSet<String>,
        marker: Option<umpire_mail::DoneMarker>,
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
                Err(GroupFailed::Commit(umpire_store::StoreError::Db(format!(
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
            Err(GroupFailed::Commit(umpire_store::StoreError::Db(
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

/// For tests: called with each mail once it is decided, before its writes
/// join the group; a hook that panics stands for a bug anywhere in handling
/// a mail ([`Umpire::inject_fault`]).
pub type Fault = std::sync::Arc<dyn Fn(&Incoming) + Send + Sync>;

/// The running games' sides, (game, side), by lower-case address.
/// Who plays and looks on where, by one scan of the games per poll.
#[derive(Default)]
pub(super) struct Players {
    /// Each running game's sides (game, side) by lower-case address.
    sides: std::collections::BTreeMap<String, Vec<(String, String)>>,
    /// The public games, finished ones too.
    public: Vec<String>,
    /// The games each lower-case address observes.
    observes: std::collections::BTreeMap<String, Vec<String>>,
}

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
        let polled = taken.and(settled).map(|()| report);
        if polled.is_ok() {
            // No commit is in flight now; an error here is logged, not the poll's.
            self.compact_when_due(now);
        }
        polled
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
        tracing::error!(mail = %m.id, error = %why, "a mail could not be handled; recorded as failed, kept in the store, its sender told");
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
        // The sender hears of it; if even that fails, the admin's log has it.
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.failure_answer(m, &hash.to_hex(), now)
        }));
        match answer {
            Ok(Ok(Some((mail, batch)))) => {
                self.pending.extend(batch);
                self.queue_later(vec![mail], now);
                report.replies += 1;
            }
            Ok(Ok(None)) => {}
            Ok(Err(e)) if environmental(&e) => return Err(e),
            Ok(Err(e)) => {
                tracing::error!(mail = %m.id, error = %e, "the sender of a failed mail could not be told")
            }
            Err(p) => tracing::error!(
                mail = %m.id,
                error = %panic_text(&*p),
                "the sender of a failed mail could not be told"
            ),
        }
        Ok(())
    }

    /// The note to the sender of a mail whose handling failed, and the
    /// writes it needs (its daily cap for an address that plays in no
    /// game), if the mail has a sender to answer: not an automatic mail or
    /// our own, and read only up to its header if it is over the size cap.
    fn failure_answer(
        &self,
        m: &Incoming,
        hash: &str,
        now: jiff::Timestamp,
    ) -> Result<Option<(Unsealed, Batch)>, ServiceError> {
        let whole = m.oversize.is_none() && m.raw.len() <= self.config.limits.max_mail_bytes;
        let head = if whole {
            m.raw.len()
        } else {
            find_header_end(&m.raw)
                .unwrap_or(m.raw.len())
                .min(64 * 1024)
        };
        let Ok(mail) = mime::read(&m.raw[..head]) else {
            return Ok(None);
        };
        let own = self.config.umpire.address.to_ascii_lowercase();
        if mail.automatic.is_some() || mail.loops.iter().any(|l| l.trim_matches(['<', '>']) == own)
        {
            return Ok(None);
        }
        let Some(from) = mail.from.as_deref() else {
            return Ok(None);
        };
        let mut batch = Batch::new();
        if !self.may_note(from, now, &mut batch)? {
            return Ok(None);
        }
        let key = format!("failed.{}", &hash[..12]);
        Ok(Some((self.failed_mail(from, &mail, key, now)?, batch)))
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
        if let Some(fault) = &self.fault {
            fault(m);
        }
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
            return Err(umpire_store::StoreError::BadId(id.to_string()).into());
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

    /// Does `addr` play in a game that is not over?
    pub(super) fn is_player(&self, addr: &str) -> Result<bool, ServiceError> {
        Ok(!self.player_games(addr)?.is_empty())
    }

    /// The running games `addr` plays in, as (game, side), from each game's
    /// opening (one read per game, no replay).
    pub(super) fn player_games(&self, addr: &str) -> Result<Vec<(String, String)>, ServiceError> {
        self.with_players(|p| {
            p.sides
                .get(&addr.to_ascii_lowercase())
                .cloned()
                .unwrap_or_default()
        })
    }

    /// The public games and those `addr` observes (one scan per poll).
    pub(super) fn public_or_observed(&self, addr: &str) -> Result<Vec<String>, ServiceError> {
        self.with_players(|p| {
            let observed = p.observes.get(&addr.to_ascii_lowercase());
            p.public
                .iter()
                .chain(observed.into_iter().flatten())
                .cloned()
                .collect()
        })
    }

    /// Drops this poll's index of players (a seat was taken): the next
    /// look-up scans the games again.
    pub(super) fn forget_players(&self) {
        *self.players.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    /// `f` of this poll's [`Players`], scanning the games on first use.
    fn with_players<T>(&self, f: impl FnOnce(&Players) -> T) -> Result<T, ServiceError> {
        let mut cache = self.players.lock().unwrap_or_else(|p| p.into_inner());
        let players = match cache.take() {
            Some(p) => cache.insert(p),
            None => cache.insert(self.players_by_address()?),
        };
        Ok(f(players))
    }

    /// Every running game's sides by lower-case address, and the public and
    /// observed games (one scan of the games).
    fn players_by_address(&self) -> Result<Players, ServiceError> {
        let mut out = Players::default();
        for id in self.store.game_ids()? {
            let Ok(meta) = self.meta(&id) else { continue };
            if meta.public {
                out.public.push(id.clone());
            }
            for o in &meta.observers {
                out.observes
                    .entry(o.to_ascii_lowercase())
                    .or_default()
                    .push(id.clone());
            }
            if meta.finished.is_some() {
                continue;
            }
            let Some(raw) = self.read(Table::Entries, umpire_store::entry_key(&id, 0))? else {
                continue;
            };
            let Ok(e) = serde_json::from_slice::<umpire_core::record::Entry>(&raw) else {
                continue;
            };
            if let umpire_core::record::Body::Opening(o) = &e.body {
                for s in &o.sides {
                    let addr = meta
                        .addresses
                        .get(&s.name)
                        .unwrap_or(&s.email)
                        .to_ascii_lowercase();
                    out.sides
                        .entry(addr)
                        .or_default()
                        .push((id.clone(), s.name.clone()));
                }
            }
        }
        Ok(out)
    }
}

/// Errors that are the environment's, not the mail's: the database or the
/// mailbox failing. They end the poll; the mail stays new for the next one.
pub(super) fn environmental(e: &ServiceError) -> bool {
    use umpire_store::StoreError;
    match e {
        ServiceError::Store(s) => matches!(s, StoreError::Db(_) | StoreError::Open { .. }),
        // Handling a mail does no mail I/O: a mail error here is building
        // the answer, which is this mail's problem.
        ServiceError::Io { .. }
        | ServiceError::Worker(_)
        | ServiceError::Busy(_)
        | ServiceError::Config(_)
        | ServiceError::Key { .. } => true,
        // What a game, an act or an address refuses (they were all
        // `Game(_)` before they were typed).
        ServiceError::Template(_)
        | ServiceError::Game(_)
        | ServiceError::Id(_)
        | ServiceError::Mail(_)
        | ServiceError::Address { .. }
        | ServiceError::SiteId(_)
        | ServiceError::Create(_)
        | ServiceError::Admin { .. }
        | ServiceError::Upgrade { .. }
        | ServiceError::Replay { .. }
        | ServiceError::Recommit(_) => false,
    }
}

/// The message of a caught panic.
pub(super) fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

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

    pub(super) fn take(&self, m: &Incoming) -> Option<ReadMail> {
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

/// The read-ahead worker of one fetch: reads each mail as `decide` will and
/// checks the signature of its first signed move, each candidate text singly
/// (`Prechecked::check_singly`), in the order the poll takes them, so the
/// adjudication rarely waits. It skips what `decide` would not read (an
/// oversized mail), stops when the poll no longer needs it, and closes the
/// pre-check however it ends, a panic on a hostile mail included, so no
/// lookup waits forever; that mail's signature is then checked by `submit`.
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
