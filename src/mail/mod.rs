//! Mail in and out: intake (a local Maildir by default, IMAP for a club's
//! mailbox) and delivery (a file outbox by default, SMTP), plus MIME reading
//! and building. Knows nothing of games or the store.

pub mod maildir;
pub mod mime;
pub mod outbox;

/// A mail as received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// Where it came from, stable across runs: a Maildir file name, or
    /// `imap:<uidvalidity>:<uid>`. Passed back to [`Intake::done`].
    pub id: String,
    /// The raw RFC 5322 bytes.
    pub raw: Vec<u8>,
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
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("{what}: {source}")]
    Io {
        what: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Protocol(String),
    /// The server is unreachable or refused for now: try again later.
    #[error("temporarily unavailable: {0}")]
    Transient(String),
}

impl MailError {
    /// Wraps an I/O error with what was being done.
    pub fn io(what: impl Into<String>, source: std::io::Error) -> MailError {
        MailError::Io {
            what: what.into(),
            source,
        }
    }
}

/// Where mail comes from.
pub trait Intake {
    /// Mails not yet marked done, oldest first, at most `limit`.
    fn fetch(&mut self, limit: usize) -> Result<Vec<Incoming>, MailError>;
    /// Marks a mail processed, so `fetch` does not return it again.
    fn done(&mut self, id: &str) -> Result<(), MailError>;
}

/// Where mail goes.
pub trait Delivery {
    /// Hands one mail over. Returns once the transport has accepted it.
    fn deliver(&mut self, mail: &Outgoing) -> Result<(), MailError>;
}
