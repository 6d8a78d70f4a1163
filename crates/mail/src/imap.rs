//! Intake from an IMAP mailbox (a club's real mail account).
//!
//! - Connection: implicit TLS (993), STARTTLS (143) or, on loopback only, plain;
//!   TLS is our own rustls stream (see [`super::tls`]) under the `imap` crate,
//!   which is built without TLS of its own.
//! - New mail is what `UID SEARCH` finds not yet marked (per [`Mark`]), oldest
//!   first; it is read with `BODY.PEEK[]`, which leaves `\Seen` alone.
//! - Ids are `imap:<uidvalidity>:<uid>`. If the folder's UIDVALIDITY changes,
//!   the old ids mean nothing any more: a warning is logged, every unmarked
//!   mail is offered again under its new id (the caller de-duplicates by
//!   content hash), and [`Intake::done`] refuses ids of the old validity.
//! - Size cap: `RFC822.SIZE` is fetched first. A mail over `max_message_bytes`
//!   is returned with only its header section (at most 64 KiB) and
//!   [`Incoming::oversize`] set; its body is never downloaded.
//! - Deadlines: each answer of the server (from the first byte read after
//!   a command to its end) must come whole within `io_timeout_secs` and 16
//!   MiB, however the server paces its bytes; a mail's body within that
//!   timeout plus a second per 32 KiB, and in at most its `RFC822.SIZE` plus
//!   64 KiB, so a server that sends more than it announced is cut off
//!   without the excess being held. The TLS handshake and STARTTLS must end
//!   within `connect_timeout_secs`.
//! - Failures: any error on the connection drops it, and the error is
//!   [`MailError::Transient`] when the network or server is at fault. The next
//!   call connects again. Nothing is marked unless [`Intake::done`] succeeded,
//!   so mail is delivered at least once, never lost.
//! - [`ImapIntake::wait`] blocks until new mail is likely (IDLE, or polling),
//!   reconnecting with exponential backoff while the server is away.
//!   `fetch` and `done` never sleep: when disconnected they make one
//!   connection attempt and report its failure.
//!
//! A daemon's loop, in outline:
//!
//! ```no_run
//! use std::time::Duration;
//! use umpire_mail::imap::ImapIntake;
//! use umpire_mail::settings::{ImapSettings, Security};
//! use umpire_mail::{Intake, MailError};
//!
//! fn run(settings: &ImapSettings) -> Result<(), MailError> {
//!     let mut intake = ImapIntake::new(settings)?;
//!     loop {
//!         match intake.fetch(50) {
//!             Ok(mails) => {
//!                 for m in mails {
//!                     // store m.raw (or answer "too big" if m.oversize is set), then:
//!                     intake.done(&m.id)?;
//!                 }
//!             }
//!             Err(e) if e.is_transient() => tracing::warn!("{e}"),
//!             Err(e) => return Err(e),
//!         }
//!         // Returns early when mail comes in; a timeout just means "poll anyway".
//!         if let Err(e) = intake.wait(Duration::from_secs(600)) {
//!             if !e.is_transient() {
//!                 return Err(e);
//!             }
//!         }
//!     }
//! }
//! # let _ = (run, Security::Tls);
//! ```

#![warn(missing_docs)]

use super::oauth2::TokenSource;
use super::oauth2::sasl::{self, Mechanism};
use super::settings::{
    CheckError, CheckReport, CheckStep, Credential, ImapSettings, Mark, Security,
};
use super::{Incoming, Intake, MailError, tls};
use imap::extensions::idle::{SetReadTimeout, WaitOutcome};
use imap::types::{Flag, UnsolicitedResponse};
use rustls::{ClientConfig, ClientConnection, StreamOwned};
use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// At most this much of an oversized mail's header section is fetched.
pub const OVERSIZE_HEADER_BYTES: u32 = 64 * 1024;

/// An IDLE is renewed at least this often (RFC 2177 says before 29 minutes).
const IDLE_ROUND: Duration = Duration::from_secs(25 * 60);

/// The byte stream under the IMAP session: plain TCP (loopback only) or rustls.
enum Inner {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

/// The most bytes one answer of the server may hold (a `UID SEARCH` of a
/// million mails is 7 MB), except a mail's body: its announced size and
/// [`BODY_SLACK`].
const USUAL_ANSWER_BYTES: u64 = 16 * 1024 * 1024;

/// What a body's answer may hold beyond the mail's `RFC822.SIZE` (the
/// FETCH around the literal, untagged news).
const BODY_SLACK: u64 = 64 * 1024;

/// The slowest a mail's bytes may come beyond the per-answer timeout: a
/// mail of N bytes gets N / 32 KiB seconds more.
pub(crate) const MIN_BYTES_PER_SEC: u64 = 32 * 1024;

/// `base`, and the time `bytes` take at [`MIN_BYTES_PER_SEC`].
pub(crate) fn time_for(bytes: u64, base: Duration) -> Duration {
    base + Duration::from_secs(bytes / MIN_BYTES_PER_SEC)
}

/// How long and how big one answer may be.
#[derive(Debug, Clone, Copy)]
struct Answer {
    time: Duration,
    bytes: u64,
}

/// The limits of the answer being read, shared by the stream (which
/// enforces them) and the intake (which sets a body's own).
#[derive(Debug)]
struct Limits {
    usual: Answer,
    /// The next answer's limits, when not the usual ones (a mail's body).
    next: Option<Answer>,
    /// A command was written since the last read: the next read starts an
    /// answer.
    fresh: bool,
    /// The answer being read: its limits, when it must end, and the bytes
    /// it may still hold.
    current: Answer,
    deadline: Instant,
    left: u64,
    /// When the writes of the command being sent must end.
    write_deadline: Instant,
}

impl Limits {
    fn new(usual: Answer) -> Limits {
        let now = Instant::now();
        Limits {
            usual,
            next: None,
            fresh: true,
            current: usual,
            deadline: now + usual.time,
            left: usual.bytes,
            write_deadline: now + usual.time,
        }
    }

    /// A new answer starts, under the limits set for it or the usual ones.
    fn start(&mut self) {
        self.current = self.next.take().unwrap_or(self.usual);
        self.deadline = Instant::now() + self.current.time;
        self.left = self.current.bytes;
        self.fresh = false;
    }
}

/// The time left until `deadline`, or a `TimedOut` error naming `what`.
pub(crate) fn left_until(deadline: Instant, what: &str) -> io::Result<Duration> {
    deadline
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
        .ok_or_else(|| io::Error::new(io::ErrorKind::TimedOut, what.to_string()))
}

/// What the `imap` crate reads and writes: counts bytes received (so tests
/// and logs can see what a fetch cost), and holds each answer of the server
/// to its deadline and size ([`Limits`]) whatever the pace of its bytes.
struct ImapStream {
    inner: Inner,
    limits: Arc<std::sync::Mutex<Limits>>,
    received: Arc<AtomicU64>,
}

impl ImapStream {
    fn tcp(&self) -> &TcpStream {
        match &self.inner {
            Inner::Plain(t) => t,
            Inner::Tls(s) => &s.sock,
        }
    }
}

impl ImapStream {
    fn lock(&self) -> std::sync::MutexGuard<'_, Limits> {
        self.limits.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Read for ImapStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let (left, want) = {
            let mut l = self.lock();
            if l.fresh {
                l.start();
            }
            let what = format!(
                "no whole answer from the server within {} s",
                l.current.time.as_secs()
            );
            let left = left_until(l.deadline, &what)?;
            if l.left == 0 {
                return Err(io::Error::other(format!(
                    "the server's answer is longer than the {} bytes allowed",
                    l.current.bytes
                )));
            }
            (
                left,
                buf.len().min(usize::try_from(l.left).unwrap_or(usize::MAX)),
            )
        };
        self.tcp().set_read_timeout(Some(left))?;
        let n = match &mut self.inner {
            Inner::Plain(t) => t.read(&mut buf[..want])?,
            Inner::Tls(s) => s.read(&mut buf[..want])?,
        };
        self.lock().left -= n as u64;
        self.received.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

impl Write for ImapStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let left = {
            let mut l = self.lock();
            if !l.fresh {
                l.fresh = true;
                l.write_deadline = Instant::now() + l.usual.time;
            }
            left_until(l.write_deadline, "the server took no command for too long")?
        };
        self.tcp().set_write_timeout(Some(left))?;
        match &mut self.inner {
            Inner::Plain(t) => t.write(buf),
            Inner::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match &mut self.inner {
            Inner::Plain(t) => t.flush(),
            Inner::Tls(s) => s.flush(),
        }
    }
}

impl SetReadTimeout for ImapStream {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> imap::error::Result<()> {
        // The imap crate sets a timeout for the wait of IDLE (and None after
        // it): the wait's news is an answer that may last that long. Every
        // read sets the socket's own timeout from the answer's deadline.
        if let Some(t) = timeout {
            let mut l = self.lock();
            l.fresh = false;
            l.current = Answer {
                time: t,
                bytes: l.usual.bytes,
            };
            l.deadline = Instant::now() + t;
            l.left = l.usual.bytes;
        }
        Ok(())
    }
}

type Session = imap::Session<ImapStream>;

/// A logged-in session with the folder selected.
struct Conn {
    session: Session,
    /// The limits of the server's answers ([`ImapStream`]).
    limits: Arc<std::sync::Mutex<Limits>>,
    uidvalidity: u32,
    idle: bool,
    mv: bool,
    uidplus: bool,
    /// `mark_folder` in the server's own hierarchy separator.
    mark_folder: String,
}

/// Exponential backoff between reconnect attempts.
#[derive(Debug)]
struct Backoff {
    initial: Duration,
    max: Duration,
    next_delay: Duration,
    not_before: Option<Instant>,
}

impl Backoff {
    fn new(initial: Duration, max: Duration) -> Backoff {
        Backoff {
            initial,
            max,
            next_delay: initial,
            not_before: None,
        }
    }
    fn failed(&mut self) {
        self.not_before = Some(Instant::now() + self.next_delay);
        self.next_delay = (self.next_delay * 2).min(self.max);
    }
    fn succeeded(&mut self) {
        self.next_delay = self.initial;
        self.not_before = None;
    }
}

/// Intake from one IMAP folder. See the module docs for the behaviour.
pub struct ImapIntake {
    settings: ImapSettings,
    cred: Credential,
    tls: Option<Arc<ClientConfig>>,
    conn: Option<Conn>,
    /// The UIDVALIDITY seen last, to notice a change across reconnects.
    uidvalidity: Option<u32>,
    /// Highest UID handed out by `fetch` under `uidvalidity`.
    highest_fetched: u32,
    backoff: Backoff,
    received: Arc<AtomicU64>,
}

impl std::fmt::Debug for ImapIntake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImapIntake")
            .field("settings", &self.settings)
            .field("connected", &self.conn.is_some())
            .field("uidvalidity", &self.uidvalidity)
            .finish_non_exhaustive()
    }
}

impl ImapIntake {
    /// Validates the settings, gets the password and loads the TLS trust.
    /// Does not connect: the first `fetch`, `done` or `wait` does.
    pub fn new(settings: &ImapSettings) -> Result<ImapIntake, MailError> {
        settings.validate()?;
        let cred = settings.credential()?;
        let tls = match settings.security {
            Security::Plain => None,
            Security::Tls | Security::Starttls => {
                Some(tls::client_config(settings.ca_file.as_deref())?)
            }
        };
        Ok(ImapIntake {
            settings: settings.clone(),
            cred,
            tls,
            conn: None,
            uidvalidity: None,
            highest_fetched: 0,
            backoff: Backoff::new(
                Duration::from_secs(settings.backoff_initial_secs),
                Duration::from_secs(settings.backoff_max_secs),
            ),
            received: Arc::new(AtomicU64::new(0)),
        })
    }

    /// Connects now (if not connected), so a bad setting shows at start-up.
    pub fn connect(&mut self) -> Result<(), MailError> {
        self.ensure().map(|_| ())
    }

    /// Whether a session is open (as far as we know).
    pub fn is_connected(&self) -> bool {
        self.conn.is_some()
    }

    /// The folder's UIDVALIDITY as last seen, if connected once.
    pub fn uidvalidity(&self) -> Option<u32> {
        self.uidvalidity
    }

    /// Bytes received from the server so far, over all connections.
    pub fn bytes_received(&self) -> u64 {
        self.received.load(Ordering::Relaxed)
    }

    /// Logs out and closes the connection (best effort).
    pub fn close(&mut self) {
        if let Some(mut c) = self.conn.take() {
            let _ = c.session.logout();
        }
    }

    /// Blocks until there is probably mail to fetch, or `timeout` passes.
    ///
    /// Returns `Ok(true)` when the folder has unmarked mail that `fetch` has
    /// not handed out yet (checked first, so nothing that arrived before the
    /// call is missed) or the server announced new mail; `Ok(false)` when the
    /// time ran out without that. Uses IDLE when the server offers it and
    /// `idle` is on, else checks every `poll_interval_secs`. While the server
    /// is unreachable it retries with exponential backoff; if it could not be
    /// reached at all before `timeout`, returns the last [`MailError::Transient`].
    /// Settings, login and certificate errors are returned at once.
    pub fn wait(&mut self, timeout: Duration) -> Result<bool, MailError> {
        let deadline = Instant::now() + timeout;
        let mut last_err: Option<MailError> = None;
        loop {
            let now = Instant::now();
            if self.conn.is_none() {
                if let Some(nb) = self.backoff.not_before
                    && nb > now
                {
                    if nb >= deadline {
                        std::thread::sleep(deadline.saturating_duration_since(now));
                        return Err(last_err.unwrap_or_else(|| {
                            MailError::Transient(format!(
                                "{} not reachable yet (backing off)",
                                self.server()
                            ))
                        }));
                    }
                    std::thread::sleep(nb - now);
                }
                match self.ensure() {
                    Ok(_) => {}
                    Err(e) if e.is_transient() => {
                        tracing::info!("IMAP {}: {e}; retrying with backoff", self.server());
                        last_err = Some(e);
                        continue;
                    }
                    Err(e) => return Err(e),
                }
            }
            match self.wait_connected(deadline) {
                Ok(found) => return Ok(found),
                Err(e) if e.is_transient() => {
                    // wait_connected dropped the connection; go round to reconnect.
                    tracing::info!("IMAP {}: {e}; reconnecting", self.server());
                    self.backoff.failed();
                    last_err = Some(e);
                    if Instant::now() >= deadline {
                        return Err(
                            last_err.unwrap_or_else(|| MailError::Transient("timed out".into()))
                        );
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }

    fn wait_connected(&mut self, deadline: Instant) -> Result<bool, MailError> {
        let r = self.wait_connected_inner(deadline);
        self.drop_on_error(r)
    }

    fn wait_connected_inner(&mut self, deadline: Instant) -> Result<bool, MailError> {
        loop {
            if self.has_unfetched()? {
                return Ok(true);
            }
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Ok(false);
            }
            let use_idle = self.settings.idle && self.conn.as_ref().is_some_and(|c| c.idle);
            let conn = self.conn.as_mut().ok_or_else(not_connected)?;
            if use_idle {
                let round = remaining.min(IDLE_ROUND);
                tracing::debug!("IMAP IDLE for {round:?}");
                let outcome = conn
                    .session
                    .idle()
                    .timeout(round)
                    .keepalive(false)
                    .wait_while(|r| {
                        !matches!(
                            r,
                            UnsolicitedResponse::Exists(_) | UnsolicitedResponse::Recent(_)
                        )
                    })
                    .map_err(|e| classify(e, "IDLE"))?;
                if outcome == WaitOutcome::MailboxChanged {
                    tracing::debug!("IMAP IDLE: mailbox changed");
                    return Ok(true);
                }
                // Timed out. Mail that came in while DONE was being sent is
                // caught by has_unfetched at the top of the loop.
            } else {
                let nap = remaining.min(Duration::from_secs(self.settings.poll_interval_secs));
                std::thread::sleep(nap);
                // NOOP keeps the session alive and lets the server report news.
                conn.session.noop().map_err(|e| classify(e, "NOOP"))?;
            }
        }
    }

    /// Whether the folder has unmarked mail above the highest UID handed out.
    fn has_unfetched(&mut self) -> Result<bool, MailError> {
        let query = format!(
            "{} UID {}:*",
            self.search_query(),
            self.highest_fetched.saturating_add(1)
        );
        let highest = self.highest_fetched;
        let conn = self.conn.as_mut().ok_or_else(not_connected)?;
        let uids = conn
            .session
            .uid_search(&query)
            .map_err(|e| classify(e, "UID SEARCH"))?;
        // "n:*" always includes the highest UID, even when it is below n.
        Ok(uids.iter().any(|u| *u > highest))
    }

    fn server(&self) -> String {
        format!("{}:{}", self.settings.host, self.settings.port())
    }

    fn search_query(&self) -> String {
        // UNDELETED: a mail flagged \Deleted is on its way out (for example a
        // COPY+\Deleted move that could not expunge); not new mail.
        match self.settings.mark {
            Mark::Seen => "UNSEEN UNDELETED".into(),
            Mark::Keyword => format!("UNKEYWORD {} UNDELETED", self.settings.mark_keyword),
            Mark::Move => "UNDELETED".into(),
        }
    }

    /// Connects if needed (a single attempt, no waiting).
    fn ensure(&mut self) -> Result<&mut Conn, MailError> {
        if self.conn.is_none() {
            let mut report = CheckReport::default();
            match open(
                &self.settings,
                &self.cred,
                self.tls.clone(),
                self.received.clone(),
                &mut report,
            ) {
                Ok(conn) => {
                    self.backoff.succeeded();
                    match self.uidvalidity {
                        Some(old) if old != conn.uidvalidity => {
                            tracing::warn!(
                                "IMAP folder {:?} on {} has a new UIDVALIDITY ({old} -> {}): \
                                 its mail is renumbered; offering every unmarked mail again",
                                self.settings.folder,
                                self.server(),
                                conn.uidvalidity
                            );
                            self.highest_fetched = 0;
                        }
                        None => self.highest_fetched = 0,
                        _ => {}
                    }
                    self.uidvalidity = Some(conn.uidvalidity);
                    tracing::debug!("IMAP connected to {}", self.server());
                    self.conn = Some(conn);
                }
                Err(CheckError { error, .. }) => {
                    if error.is_transient() {
                        self.backoff.failed();
                    }
                    return Err(error);
                }
            }
        }
        self.conn.as_mut().ok_or_else(not_connected)
    }

    /// Drops the connection after any error: its state is unknown, and a
    /// fresh session is cheap and certain.
    fn drop_on_error<T>(&mut self, r: Result<T, MailError>) -> Result<T, MailError> {
        if r.is_err() {
            self.conn = None;
        }
        r
    }

    fn fetch_inner(&mut self, limit: usize, skip: &[String]) -> Result<Vec<Incoming>, MailError> {
        let query = self.search_query();
        let max = self.settings.max_message_bytes;
        let conn = self.ensure()?;
        let validity = conn.uidvalidity;
        let mut uids: Vec<u32> = conn
            .session
            .uid_search(&query)
            .map_err(|e| classify(e, "UID SEARCH"))?
            .into_iter()
            .collect();
        uids.sort_unstable();
        // Mails taken but not yet marked done are not downloaded again.
        if !skip.is_empty() {
            let skip: std::collections::HashSet<&str> = skip.iter().map(String::as_str).collect();
            uids.retain(|u| !skip.contains(format!("imap:{validity}:{u}").as_str()));
        }
        uids.truncate(limit);
        if uids.is_empty() {
            return Ok(Vec::new());
        }
        // Sizes first, so an oversized body is never downloaded.
        let mut sizes: HashMap<u32, u64> = HashMap::new();
        let set = uid_set(&uids);
        let fetches = conn
            .session
            .uid_fetch(&set, "(UID RFC822.SIZE)")
            .map_err(|e| classify(e, "UID FETCH RFC822.SIZE"))?;
        for f in fetches.iter() {
            if let (Some(uid), Some(size)) = (f.uid, f.size) {
                sizes.insert(uid, u64::from(size));
            }
        }
        let mut out = Vec::with_capacity(uids.len());
        for uid in uids {
            // Expunged by someone else since the search.
            let Some(&size) = sizes.get(&uid) else {
                continue;
            };
            let id = format!("imap:{validity}:{uid}");
            if size > max {
                tracing::info!(
                    "IMAP mail {id} is {size} bytes, over the cap of {max}: fetching its header only"
                );
                let what = format!("(UID BODY.PEEK[HEADER]<0.{OVERSIZE_HEADER_BYTES}>)");
                conn.expect(u64::from(OVERSIZE_HEADER_BYTES));
                let fetches = conn
                    .session
                    .uid_fetch(uid.to_string(), &what)
                    .map_err(|e| classify(e, "UID FETCH BODY.PEEK[HEADER]"))?;
                let Some(header) = fetches
                    .iter()
                    .find(|f| f.uid == Some(uid))
                    .and_then(|f| f.header())
                else {
                    continue;
                };
                out.push(Incoming {
                    id,
                    raw: header.to_vec(),
                    oversize: Some(size),
                });
            } else {
                conn.expect(size);
                let fetches = conn
                    .session
                    .uid_fetch(uid.to_string(), "(UID BODY.PEEK[])")
                    .map_err(|e| classify(e, "UID FETCH BODY.PEEK[]"))?;
                let Some(body) = fetches
                    .iter()
                    .find(|f| f.uid == Some(uid))
                    .and_then(|f| f.body())
                else {
                    continue;
                };
                out.push(Incoming {
                    id,
                    raw: body.to_vec(),
                    oversize: None,
                });
            }
        }
        if let Some(last) = out.last()
            && let Some(uid) = parse_id(&last.id).map(|(_, u)| u)
        {
            self.highest_fetched = self.highest_fetched.max(uid);
        }
        Ok(out)
    }

    fn done_inner(&mut self, id: &str) -> Result<(), MailError> {
        let (validity, uid) = parse_id(id)
            .ok_or_else(|| MailError::Protocol(format!("{id:?} is not an IMAP mail id")))?;
        let mark = self.settings.mark;
        let keyword = self.settings.mark_keyword.clone();
        let conn = self.ensure()?;
        if validity != conn.uidvalidity {
            return Err(MailError::Protocol(format!(
                "{id} is from UIDVALIDITY {validity}, but the folder now has {}: its mail was \
                 renumbered, so fetch again (the same mail comes back under a new id)",
                conn.uidvalidity
            )));
        }
        let uid = uid.to_string();
        let s = &mut conn.session;
        // Every branch is harmless to repeat: flags are added, and MOVE/COPY
        // of a UID that is no longer there does nothing.
        match mark {
            Mark::Seen => {
                s.uid_store(&uid, "+FLAGS.SILENT (\\Seen)")
                    .map_err(|e| classify(e, "UID STORE"))?;
            }
            Mark::Keyword => {
                s.uid_store(&uid, format!("+FLAGS.SILENT ({keyword})"))
                    .map_err(|e| classify(e, "UID STORE"))?;
            }
            Mark::Move if conn.mv => {
                s.uid_mv(&uid, &conn.mark_folder)
                    .map_err(|e| classify(e, "UID MOVE"))?;
            }
            Mark::Move => {
                s.uid_copy(&uid, &conn.mark_folder)
                    .map_err(|e| classify(e, "UID COPY"))?;
                s.uid_store(&uid, "+FLAGS.SILENT (\\Deleted)")
                    .map_err(|e| classify(e, "UID STORE"))?;
                // Without UIDPLUS, plain EXPUNGE would also remove mail that
                // someone else flagged \Deleted; leave it (searches skip it).
                if conn.uidplus {
                    s.uid_expunge(&uid)
                        .map_err(|e| classify(e, "UID EXPUNGE"))?;
                }
            }
        }
        tracing::debug!("IMAP marked {id} done ({mark:?})");
        Ok(())
    }
}

impl Conn {
    /// The next answer carries `bytes` of a mail (its announced size, at
    /// most the cap): it may hold that and [`BODY_SLACK`], and take the
    /// usual time and that of its bytes.
    fn expect(&self, bytes: u64) {
        let mut l = self.limits.lock().unwrap_or_else(|p| p.into_inner());
        l.next = Some(Answer {
            time: time_for(bytes, l.usual.time),
            bytes: bytes.saturating_add(BODY_SLACK),
        });
    }
}

impl Intake for ImapIntake {
    fn fetch(&mut self, limit: usize) -> Result<Vec<Incoming>, MailError> {
        self.fetch_skipping(limit, &[])
    }

    fn fetch_skipping(
        &mut self,
        limit: usize,
        skip: &[String],
    ) -> Result<Vec<Incoming>, MailError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        let r = self.fetch_inner(limit, skip);
        self.drop_on_error(r)
    }

    fn done(&mut self, id: &str) -> Result<(), MailError> {
        let r = self.done_inner(id);
        self.drop_on_error(r)
    }
}

impl Drop for ImapIntake {
    fn drop(&mut self) {
        self.close();
    }
}

fn not_connected() -> MailError {
    MailError::Transient("not connected".into())
}

/// `imap:<uidvalidity>:<uid>` → `(uidvalidity, uid)`.
pub fn parse_id(id: &str) -> Option<(u32, u32)> {
    let rest = id.strip_prefix("imap:")?;
    let (v, u) = rest.split_once(':')?;
    Some((v.parse().ok()?, u.parse().ok()?))
}

/// A UID set like `3:5,9` from sorted UIDs.
fn uid_set(uids: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < uids.len() {
        let start = uids[i];
        let mut end = start;
        while i + 1 < uids.len() && uids[i + 1] == end + 1 {
            i += 1;
            end = uids[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}:{end}")
        });
        i += 1;
    }
    parts.join(",")
}

/// Maps an `imap` crate error to ours: the network or the server going away is
/// transient; a NO or BAD to a command is a protocol error.
fn classify(e: imap::Error, what: &str) -> MailError {
    match e {
        imap::Error::Io(io) => io_error(io, what),
        imap::Error::ConnectionLost => {
            MailError::Transient(format!("{what}: the server closed the connection"))
        }
        imap::Error::Bye(b) => {
            MailError::Transient(format!("{what}: the server said BYE: {}", b.information))
        }
        imap::Error::No(n) => {
            MailError::Protocol(format!("{what}: the server said NO: {}", n.information))
        }
        imap::Error::Bad(b) => {
            MailError::Protocol(format!("{what}: the server said BAD: {}", b.information))
        }
        // A garbled or out-of-step response: the session is unusable, a new
        // one will probably do.
        other @ (imap::Error::Parse(_)
        | imap::Error::TagMismatch(_)
        | imap::Error::Unexpected(_)) => MailError::Transient(format!("{what}: {other}")),
        other => MailError::Protocol(format!("{what}: {other}")),
    }
}

fn io_error(io: io::Error, what: &str) -> MailError {
    if let Some(r) = tls::rustls_error_in(&io) {
        // Certificate and protocol failures need a person, not a retry.
        return MailError::Tls(format!("{what}: {}", tls::describe(r)));
    }
    MailError::Transient(format!("{what}: {io}"))
}

/// Opens a session: DNS, TCP, TLS or STARTTLS, greeting, login, folder. Each
/// step that passes is written to `report`; a failure says which step.
fn open(
    s: &ImapSettings,
    cred: &Credential,
    tls_config: Option<Arc<ClientConfig>>,
    received: Arc<AtomicU64>,
    report: &mut CheckReport,
) -> Result<Conn, CheckError> {
    let fail = |step: CheckStep| move |error: MailError| CheckError { step, error };
    let port = s.port();
    let connect_timeout = Duration::from_secs(s.connect_timeout_secs);
    let io_timeout = Duration::from_secs(s.io_timeout_secs);

    let addrs =
        resolve(&s.host, port, s.security == Security::Plain).map_err(fail(CheckStep::Dns))?;
    report.ok(
        CheckStep::Dns,
        format!("{} -> {}", s.host, addr_list(&addrs)),
    );

    let tcp = connect_any(&addrs, connect_timeout).map_err(fail(CheckStep::Connect))?;
    let peer = tcp.peer_addr().map(|a| a.to_string()).unwrap_or_default();
    report.ok(CheckStep::Connect, format!("connected to {peer}"));
    let _ = tcp.set_nodelay(true);

    let inner = secure(s, tcp, tls_config, connect_timeout, report)?;
    let limits = Arc::new(std::sync::Mutex::new(Limits::new(Answer {
        time: io_timeout,
        bytes: USUAL_ANSWER_BYTES,
    })));
    let stream = ImapStream {
        inner,
        limits: limits.clone(),
        received,
    };
    let (client, mech) = greet(s, imap::Client::new(stream), cred, report)?;
    let (mut session, caps) = login(s, client, cred, mech, report)?;
    let (uidvalidity, mark_folder) = select(s, &mut session, report)?;
    Ok(Conn {
        session,
        limits,
        uidvalidity,
        idle: caps.idle,
        mv: caps.mv,
        uidplus: caps.uidplus,
        mark_folder,
    })
}

/// The TLS step: none, TLS from the start, or STARTTLS.
fn secure(
    s: &ImapSettings,
    tcp: TcpStream,
    tls_config: Option<Arc<ClientConfig>>,
    connect_timeout: Duration,
    report: &mut CheckReport,
) -> Result<Inner, CheckError> {
    let fail = |error: MailError| CheckError {
        step: CheckStep::Tls,
        error,
    };
    Ok(match (s.security, tls_config) {
        (Security::Plain, _) => Inner::Plain(tcp),
        (Security::Tls, Some(cfg)) => {
            let stream = handshake(&s.host, tcp, cfg, connect_timeout).map_err(fail)?;
            report.ok(
                CheckStep::Tls,
                format!("TLS, certificate valid for {}", s.host),
            );
            Inner::Tls(Box::new(stream))
        }
        (Security::Starttls, Some(cfg)) => {
            let tcp = starttls(tcp, connect_timeout).map_err(fail)?;
            let stream = handshake(&s.host, tcp, cfg, connect_timeout).map_err(fail)?;
            report.ok(
                CheckStep::Tls,
                format!("STARTTLS, certificate valid for {}", s.host),
            );
            Inner::Tls(Box::new(stream))
        }
        (_, None) => {
            return Err(CheckError {
                step: CheckStep::Tls,
                error: MailError::Config("no TLS configuration".into()),
            });
        }
    })
}

/// The greeting step: the server's greeting (unless STARTTLS read it) and
/// its capabilities before login.
fn greet(
    s: &ImapSettings,
    mut client: imap::Client<ImapStream>,
    cred: &Credential,
    report: &mut CheckReport,
) -> Result<(imap::Client<ImapStream>, Option<Mechanism>), CheckError> {
    let fail = |error: MailError| CheckError {
        step: CheckStep::Greeting,
        error,
    };
    if s.security == Security::Starttls {
        // The greeting was read before STARTTLS, on the plain connection.
        client.greeting_read = true;
    } else {
        let greeting = client
            .read_greeting()
            .map_err(|e| classify(e, "reading the greeting"))
            .map_err(fail)?;
        let g = String::from_utf8_lossy(&greeting);
        if !g.starts_with("* OK") {
            return Err(CheckError {
                step: CheckStep::Greeting,
                error: MailError::Transient(format!("unexpected greeting: {}", g.trim_end())),
            });
        }
    }
    let caps = client
        .capabilities()
        .map_err(|e| classify(e, "CAPABILITY"))
        .map_err(fail)?;
    let mech = Mechanism::choose(
        ["OAUTHBEARER", "XOAUTH2"]
            .into_iter()
            .filter(|m| caps.has_str(format!("AUTH={m}"))),
    );
    if let Credential::OAuth2(_) = cred {
        if mech.is_none() {
            return Err(CheckError {
                step: CheckStep::Login,
                error: MailError::Config(
                    "the server offers neither AUTH=OAUTHBEARER nor AUTH=XOAUTH2, so auth = \"oauth2\" cannot log in here".into(),
                ),
            });
        }
    } else if caps.has_str("LOGINDISABLED") {
        return Err(CheckError {
            step: CheckStep::Login,
            error: MailError::Config("the server refuses LOGIN on this connection (LOGINDISABLED); use security = \"tls\" or \"starttls\"".into()),
        });
    }
    report.ok(CheckStep::Greeting, "IMAP server answered");
    Ok((client, mech))
}

/// What the server offers after login.
struct Caps {
    idle: bool,
    mv: bool,
    uidplus: bool,
}

/// The login step, and the capabilities after it.
fn login(
    s: &ImapSettings,
    client: imap::Client<ImapStream>,
    cred: &Credential,
    mech: Option<Mechanism>,
    report: &mut CheckReport,
) -> Result<(Session, Caps), CheckError> {
    let (mut session, how) = match (cred, mech) {
        (Credential::OAuth2(src), Some(mech)) => (
            bearer_login(s, client, src, mech)?,
            format!(" with {}", mech.name()),
        ),
        (Credential::OAuth2(_), None) => {
            // greet refused such a server already.
            return Err(CheckError {
                step: CheckStep::Login,
                error: MailError::Config("no OAuth2 mechanism offered".into()),
            });
        }
        (Credential::Password(password), _) => {
            let session = client
                .login(&s.username, password)
                .map_err(|(e, _)| CheckError {
                    step: CheckStep::Login,
                    error: login_error(e, &s.username),
                })?;
            (session, String::new())
        }
    };
    // Capabilities can change after login (Dovecot adds IDLE, MOVE, ...).
    let caps = session
        .capabilities()
        .map_err(|e| classify(e, "CAPABILITY"))
        .map_err(|error| CheckError {
            step: CheckStep::Login,
            error,
        })?;
    let caps = Caps {
        idle: caps.has_str("IDLE"),
        mv: caps.has_str("MOVE"),
        uidplus: caps.has_str("UIDPLUS"),
    };
    report.ok(
        CheckStep::Login,
        format!(
            "logged in as {}{how} (IDLE: {}, MOVE: {}, UIDPLUS: {})",
            s.username,
            yes(caps.idle),
            yes(caps.mv),
            yes(caps.uidplus)
        ),
    );
    Ok((session, caps))
}

/// The folder step: the folder selected, writable and able to keep the
/// mark; its UIDVALIDITY and the mark folder in the server's own separator.
fn select(
    s: &ImapSettings,
    session: &mut Session,
    report: &mut CheckReport,
) -> Result<(u32, String), CheckError> {
    let fail = |error: MailError| CheckError {
        step: CheckStep::Folder,
        error,
    };
    let delimiter = hierarchy_delimiter(session).map_err(fail)?;
    let folder = server_folder(&s.folder, &delimiter);
    let mut mark_folder = String::new();
    if s.mark == Mark::Move {
        mark_folder = server_folder(&s.mark_folder, &delimiter);
        ensure_folder(session, &mark_folder).map_err(fail)?;
    }
    let mailbox = session.select(&folder).map_err(|e| CheckError {
        step: CheckStep::Folder,
        error: match e {
            imap::Error::No(n) => MailError::Config(format!(
                "cannot select folder {folder:?}: {}",
                n.information
            )),
            e => classify(e, "SELECT"),
        },
    })?;
    let uidvalidity = mailbox.uid_validity.ok_or_else(|| CheckError {
        step: CheckStep::Folder,
        error: MailError::Protocol(format!("the server gave no UIDVALIDITY for {folder:?}")),
    })?;
    if mailbox.is_read_only {
        return Err(CheckError {
            step: CheckStep::Folder,
            error: MailError::Config(format!("folder {folder:?} is read-only for {}", s.username)),
        });
    }
    if s.mark == Mark::Keyword {
        let allowed = mailbox.permanent_flags.iter().any(|f| match f {
            Flag::MayCreate => true,
            Flag::Custom(k) => k.eq_ignore_ascii_case(&s.mark_keyword),
            _ => false,
        });
        if !allowed {
            return Err(CheckError {
                step: CheckStep::Folder,
                error: MailError::Config(format!(
                    "folder {folder:?} does not keep the keyword {} (PERMANENTFLAGS); use mark = \"seen\" or \"move\"",
                    s.mark_keyword
                )),
            });
        }
    }
    let what = match s.mark {
        Mark::Seen => "marking with \\Seen".to_string(),
        Mark::Keyword => format!("marking with {}", s.mark_keyword),
        Mark::Move => format!("moving to {mark_folder:?}"),
    };
    report.ok(
        CheckStep::Folder,
        format!(
            "selected {folder:?}: {} mails, UIDVALIDITY {uidvalidity}; {what}",
            mailbox.exists
        ),
    );
    Ok((uidvalidity, mark_folder))
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// The OAuth2 login: AUTHENTICATE with the access token; a cached token
/// the server refuses is refreshed and tried once more.
fn bearer_login(
    s: &ImapSettings,
    client: imap::Client<ImapStream>,
    src: &TokenSource,
    mech: Mechanism,
) -> Result<Session, CheckError> {
    let token_failed = |e: crate::oauth2::OAuth2Error| CheckError {
        step: CheckStep::Token,
        error: e.into(),
    };
    let login_failed = |(e, b): (imap::Error, Bearer)| CheckError {
        step: CheckStep::Login,
        error: bearer_error(e, &s.username, &b),
    };
    let token = src.token().map_err(token_failed)?;
    let bearer = Bearer::new(mech, &s.username, &token.access);
    match client.authenticate(mech.name(), &bearer) {
        Ok(session) => Ok(session),
        // 5530: [UNAVAILABLE] is the server's authentication backend failing
        // for now, not a verdict on the token: not worth a refresh.
        Err((imap::Error::No(n), client))
            if !token.fresh && !n.information.contains("[UNAVAILABLE]") =>
        {
            tracing::info!(
                "IMAP: the server refused the cached OAuth2 token ({}); refreshing it",
                n.information
            );
            let token = src.refresh().map_err(token_failed)?;
            let bearer = Bearer::new(mech, &s.username, &token.access);
            client
                .authenticate(mech.name(), &bearer)
                .map_err(|(e, _)| login_failed((e, bearer)))
        }
        Err((e, _)) => Err(login_failed((e, bearer))),
    }
}

/// The SASL client side of one OAuth2 AUTHENTICATE: the initial response
/// to the server's empty challenge, then the end of the exchange to an
/// error challenge, which it keeps for the error message.
struct Bearer {
    mech: Mechanism,
    initial: Vec<u8>,
    sent: std::cell::Cell<bool>,
    error: std::cell::RefCell<Vec<u8>>,
}

impl Bearer {
    fn new(mech: Mechanism, user: &str, token: &str) -> Bearer {
        Bearer {
            mech,
            initial: mech.initial(user, token),
            sent: std::cell::Cell::new(false),
            error: std::cell::RefCell::new(Vec::new()),
        }
    }
}

impl imap::Authenticator for Bearer {
    type Response = Vec<u8>;
    fn process(&self, challenge: &[u8]) -> Vec<u8> {
        if !self.sent.replace(true) {
            return self.initial.clone();
        }
        *self.error.borrow_mut() = challenge.to_vec();
        self.mech.after_error().to_vec()
    }
}

fn bearer_error(e: imap::Error, user: &str, b: &Bearer) -> MailError {
    match e {
        imap::Error::No(n) if !n.information.contains("[UNAVAILABLE]") => {
            let why = sasl::explain_challenge(&b.error.borrow());
            MailError::Auth(format!(
                "the server refused the OAuth2 token for {user} ({}): {}{}",
                b.mech.name(),
                n.information,
                if why.is_empty() {
                    String::new()
                } else {
                    format!(": {why}")
                }
            ))
        }
        e => login_error(e, user),
    }
}

fn login_error(e: imap::Error, user: &str) -> MailError {
    match e {
        imap::Error::No(n) => {
            // RFC 5530: [UNAVAILABLE] means the authentication backend is down.
            if n.information.contains("[UNAVAILABLE]") {
                MailError::Transient(format!("login as {user}: {}", n.information))
            } else {
                MailError::Auth(format!(
                    "the server refused the login as {user}: {}",
                    n.information
                ))
            }
        }
        imap::Error::Validate(v) => {
            MailError::Config(format!("username or password cannot be sent: {v}"))
        }
        e => classify(e, "LOGIN"),
    }
}

/// The server's hierarchy separator, from `LIST "" ""` (the crate sends a
/// `None` pattern as `""`, and any other pattern unquoted).
fn hierarchy_delimiter(session: &mut Session) -> Result<String, MailError> {
    let names = session
        .list(Some(""), None)
        .map_err(|e| classify(e, "LIST"))?;
    Ok(names
        .iter()
        .find_map(|n| n.delimiter().map(str::to_string))
        .unwrap_or_else(|| "/".into()))
}

/// A settings folder name (levels split by `/`) in the server's separator.
fn server_folder(name: &str, delimiter: &str) -> String {
    if name.eq_ignore_ascii_case("INBOX") {
        return "INBOX".into();
    }
    name.split('/').collect::<Vec<_>>().join(delimiter)
}

fn ensure_folder(session: &mut Session, name: &str) -> Result<(), MailError> {
    // Names are validated to hold no quotes or backslashes, so plain quoting
    // is enough (the crate does not quote the pattern).
    let found = session
        .list(Some(""), Some(&format!("\"{name}\"")))
        .map_err(|e| classify(e, "LIST"))?;
    if found.iter().any(|n| n.name() == name) {
        return Ok(());
    }
    tracing::info!("IMAP: creating folder {name:?}");
    match session.create(name) {
        Ok(()) => Ok(()),
        // Someone else created it between LIST and CREATE.
        Err(imap::Error::No(n))
            if n.information.contains("ALREADYEXISTS")
                || n.information.contains("already exists") =>
        {
            Ok(())
        }
        Err(imap::Error::No(n)) => Err(MailError::Config(format!(
            "cannot create folder {name:?}: {}",
            n.information
        ))),
        Err(e) => Err(classify(e, "CREATE")),
    }
}

/// Resolves the host; for plain connections keeps loopback addresses only,
/// so a `localhost` mapped elsewhere cannot carry a password in clear.
pub(crate) fn resolve(
    host: &str,
    port: u16,
    loopback_only: bool,
) -> Result<Vec<SocketAddr>, MailError> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = (bare, port)
        .to_socket_addrs()
        .map_err(|e| MailError::Transient(format!("cannot resolve {host}: {e}")))?
        .collect();
    let addrs: Vec<SocketAddr> = if loopback_only {
        addrs.into_iter().filter(|a| a.ip().is_loopback()).collect()
    } else {
        addrs
    };
    if addrs.is_empty() {
        return Err(if loopback_only {
            MailError::Config(format!(
                "{host} has no loopback address, and security = \"plain\" needs one"
            ))
        } else {
            MailError::Transient(format!("{host} has no address"))
        });
    }
    Ok(addrs)
}

pub(crate) fn addr_list(addrs: &[SocketAddr]) -> String {
    addrs
        .iter()
        .map(|a| a.ip().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Tries each address in turn; the last failure is reported.
pub(crate) fn connect_any(addrs: &[SocketAddr], timeout: Duration) -> Result<TcpStream, MailError> {
    let mut last = None;
    for a in addrs {
        match TcpStream::connect_timeout(a, timeout) {
            Ok(t) => return Ok(t),
            Err(e) => last = Some(format!("{a}: {e}")),
        }
    }
    Err(MailError::Transient(format!(
        "cannot connect: {}",
        last.unwrap_or_else(|| "no address".into())
    )))
}

/// A TCP stream whose every read and write must end by one deadline,
/// however the other end paces its bytes (the TLS handshake, STARTTLS).
pub(crate) struct Timed<'a> {
    pub tcp: &'a TcpStream,
    pub deadline: Instant,
}

impl Read for Timed<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = left_until(self.deadline, "the server took too long")?;
        self.tcp.set_read_timeout(Some(left))?;
        (&mut &*self.tcp).read(buf)
    }
}

impl Write for Timed<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let left = left_until(self.deadline, "the server took too long")?;
        self.tcp.set_write_timeout(Some(left))?;
        (&mut &*self.tcp).write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        (&mut &*self.tcp).flush()
    }
}

/// Completes a rustls handshake now, within `timeout` in all, so
/// certificate problems show here and not as a puzzling read error later.
pub(crate) fn handshake(
    host: &str,
    tcp: TcpStream,
    cfg: Arc<ClientConfig>,
    timeout: Duration,
) -> Result<StreamOwned<ClientConnection, TcpStream>, MailError> {
    let name = tls::server_name(host)?;
    let mut conn =
        ClientConnection::new(cfg, name).map_err(|e| MailError::Tls(tls::describe(&e)))?;
    let mut timed = Timed {
        tcp: &tcp,
        deadline: Instant::now() + timeout,
    };
    while conn.is_handshaking() {
        if let Err(e) = conn.complete_io(&mut timed) {
            return Err(match tls::rustls_error_in(&e) {
                Some(r) => MailError::Tls(format!("handshake with {host}: {}", tls::describe(r))),
                None => MailError::Transient(format!("TLS handshake with {host}: {e}")),
            });
        }
    }
    Ok(StreamOwned::new(conn, tcp))
}

/// IMAP STARTTLS on a fresh connection: read the greeting, ask, and hand
/// back the TCP stream ready for the TLS handshake, within `timeout` in all.
fn starttls(tcp: TcpStream, timeout: Duration) -> Result<TcpStream, MailError> {
    starttls_on(&tcp, Instant::now() + timeout)?;
    Ok(tcp)
}

fn starttls_on(tcp: &TcpStream, deadline: Instant) -> Result<(), MailError> {
    let mut reader = BufReader::new(Timed { tcp, deadline });
    let mut line = String::new();
    let read_line = |r: &mut BufReader<Timed>, l: &mut String| -> Result<(), MailError> {
        l.clear();
        // Lines are short here; cap them anyway so a wrong port cannot feed us forever.
        let n = r
            .by_ref()
            .take(8192)
            .read_line(l)
            .map_err(|e| MailError::Transient(format!("reading from the server: {e}")))?;
        if n == 0 {
            return Err(MailError::Transient(
                "the server closed the connection".into(),
            ));
        }
        Ok(())
    };
    read_line(&mut reader, &mut line)?;
    if !line.starts_with("* OK") {
        return Err(MailError::Transient(format!(
            "unexpected greeting: {}",
            line.trim_end()
        )));
    }
    reader
        .get_mut()
        .write_all(b"u0 STARTTLS\r\n")
        .map_err(|e| MailError::Transient(format!("sending STARTTLS: {e}")))?;
    loop {
        read_line(&mut reader, &mut line)?;
        if let Some(rest) = line.strip_prefix("u0 ") {
            if rest.starts_with("OK") {
                break;
            }
            return Err(MailError::Tls(format!(
                "the server refused STARTTLS: {}",
                rest.trim_end()
            )));
        }
        // Untagged lines (say, a CAPABILITY) before the tagged answer.
    }
    if !reader.buffer().is_empty() {
        // Bytes after the OK, before our handshake: a man in the middle
        // trying to inject commands (CVE-2011-0411 style).
        return Err(MailError::Tls(
            "the server sent data right after STARTTLS; refusing".into(),
        ));
    }
    Ok(())
}

/// See [`ImapSettings::check`].
pub(crate) fn check(s: &ImapSettings) -> Result<CheckReport, CheckError> {
    let mut report = CheckReport::default();
    s.validate().map_err(|e| CheckError {
        step: CheckStep::Settings,
        error: e.into(),
    })?;
    report.ok(
        CheckStep::Settings,
        format!("{}:{} security={}", s.host, s.port(), s.security),
    );
    let cred = s.credential().map_err(|e| CheckError {
        step: Credential::step(s.auth),
        error: e.into(),
    })?;
    cred.check(&mut report)?;
    let tls_config = match s.security {
        Security::Plain => None,
        _ => Some(
            tls::client_config(s.ca_file.as_deref()).map_err(|error| CheckError {
                step: CheckStep::Tls,
                error,
            })?,
        ),
    };
    let mut conn = open(
        s,
        &cred,
        tls_config,
        Arc::new(AtomicU64::new(0)),
        &mut report,
    )?;
    let _ = conn.session.logout();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        assert_eq!(parse_id("imap:1700000000:42"), Some((1_700_000_000, 42)));
        assert_eq!(parse_id("imap:1:x"), None);
        assert_eq!(parse_id("1.maildir"), None);
    }

    #[test]
    fn uid_sets_collapse_runs() {
        assert_eq!(uid_set(&[1, 2, 3, 5, 7, 8]), "1:3,5,7:8");
        assert_eq!(uid_set(&[4]), "4");
    }

    #[test]
    fn folders_use_the_server_separator() {
        assert_eq!(server_folder("umpire/done", "."), "umpire.done");
        assert_eq!(server_folder("inbox", "."), "INBOX");
        assert_eq!(server_folder("a/b", "/"), "a/b");
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let mut b = Backoff::new(Duration::from_secs(1), Duration::from_secs(5));
        for want in [1, 2, 4, 5, 5] {
            assert_eq!(b.next_delay, Duration::from_secs(want));
            b.failed();
        }
        b.succeeded();
        assert_eq!(b.next_delay, Duration::from_secs(1));
        assert!(b.not_before.is_none());
    }
}
