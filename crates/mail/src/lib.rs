//! Mail in and out: intake (a local Maildir by default, IMAP for a club's
//! mailbox) and delivery (a file outbox by default, SMTP), plus MIME reading
//! and building. Knows nothing of games or the store.

pub mod imap;
pub mod maildir;
pub mod mime;
pub mod oauth2;
pub mod outbox;
pub mod settings;
pub mod smtp;
pub mod tls;
pub mod write;

/// A mail as received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// Where it came from, stable across runs: a Maildir file name, or
    /// `imap:<uidvalidity>:<uid>`. Passed back to [`Intake::done`].
    pub id: String,
    /// The raw RFC 5322 bytes; only the header section when `oversize` is set.
    pub raw: Vec<u8>,
    /// `Some(size)` when the mail is larger than the intake's size cap: `raw`
    /// then holds only (at most the first 64 KiB of) its header section, enough
    /// to answer the sender "too big". The body was never downloaded. Such a
    /// mail still has to be passed to [`Intake::done`], or it comes back.
    pub oversize: Option<u64>,
}

/// A mail ready to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// The outbox key; delivering the same key twice must be harmless.
    pub key: String,
    /// The Message-ID header's value, with angle brackets.
    pub message_id: String,
    /// Envelope sender.
    pub from: String,
    /// Envelope recipients.
    pub to: Vec<String>,
    /// The formatted message.
    pub raw: Vec<u8>,
}

/// Mail could not be read or sent.
///
/// Only [`MailError::Transient`] is worth retrying unchanged; every other
/// variant needs a person (settings, credentials, certificates, or a server
/// that refuses the mail for good).
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// A local file could not be read or written.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// The server said no for good, or said something we cannot use.
    #[error("{0}")]
    Protocol(String),
    /// The server is unreachable or refused for now: try again later.
    #[error("temporarily unavailable: {0}")]
    Transient(String),
    /// The mail settings are wrong or unusable (a missing CA file, a failing
    /// password command, a folder that does not exist, ...).
    #[error("mail settings: {0}")]
    Config(String),
    /// The server refused the username or password.
    #[error("login refused: {0}")]
    Auth(String),
    /// The OAuth2 token endpoint refused the refresh token (revoked,
    /// expired): an admin must get a new one (`umpire auth oauth2`).
    #[error("{0}")]
    Token(String),
    /// The TLS handshake failed for a reason retrying will not fix, most often
    /// a certificate the configured roots do not trust.
    #[error("TLS: {0}")]
    Tls(String),
}

impl MailError {
    /// Wraps an I/O error with what was being done.
    pub fn io(what: impl Into<String>, source: std::io::Error) -> MailError {
        MailError::Io {
            what: what.into(),
            source,
        }
    }

    /// Whether trying again later, unchanged, may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(self, MailError::Transient(_))
    }
}

/// Where mail comes from.
pub trait Intake {
    /// Mails not yet marked done, oldest first, at most `limit`.
    fn fetch(&mut self, limit: usize) -> Result<Vec<Incoming>, MailError>;
    /// Like `fetch`, passing over the mails named in `skip` (taken but not
    /// yet marked done). This default fetches them too and drops them; an
    /// intake that can pass them over unread should.
    fn fetch_skipping(
        &mut self,
        limit: usize,
        skip: &[String],
    ) -> Result<Vec<Incoming>, MailError> {
        let mut mails = self.fetch(limit.saturating_add(skip.len()))?;
        mails.retain(|m| !skip.contains(&m.id));
        mails.truncate(limit);
        Ok(mails)
    }
    /// Marks a mail processed, so `fetch` does not return it again.
    fn done(&mut self, id: &str) -> Result<(), MailError>;
    /// A way to mark mails done from another thread (the worker that makes
    /// their commit group durable), where the intake has one that needs no
    /// connection of its own. `None`: the poll marks them with `done`.
    fn detached_done(&self) -> Option<DoneMarker> {
        None
    }
}

/// Marks one mail done, as [`Intake::done`] would, from any thread.
pub type DoneMarker = Box<dyn Fn(&str) -> Result<(), MailError> + Send>;

/// Where mail goes.
pub trait Delivery {
    /// Hands one mail over. Returns once the transport has accepted it.
    fn deliver(&mut self, mail: &Outgoing) -> Result<(), MailError>;
}
