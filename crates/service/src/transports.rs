//! The configured mail transports: the embedded Maildir and file outbox, or
//! the club's IMAP mailbox and SMTP server.

use super::{ServiceError, Umpire};
use std::path::Path;
use std::time::{Duration, Instant};
use umpire_mail::imap::ImapIntake;
use umpire_mail::maildir::Maildir;
use umpire_mail::oauth2::TokenSource;
use umpire_mail::outbox::FileOutbox;
use umpire_mail::settings::{Auth, CheckError, CheckStep, ImapSettings, Security, SmtpSettings};
use umpire_mail::smtp::SmtpDelivery;
use umpire_mail::{Delivery, Incoming, Intake, MailError, Outgoing};

/// Where mail comes from, as configured.
pub enum Inbox {
    Maildir(Maildir),
    Imap(Box<ImapIntake>),
}

impl Intake for Inbox {
    fn fetch(&mut self, limit: usize) -> Result<Vec<Incoming>, MailError> {
        match self {
            Inbox::Maildir(m) => m.fetch(limit),
            Inbox::Imap(i) => i.fetch(limit),
        }
    }

    fn fetch_skipping(
        &mut self,
        limit: usize,
        skip: &[String],
    ) -> Result<Vec<Incoming>, MailError> {
        match self {
            Inbox::Maildir(m) => m.fetch_skipping(limit, skip),
            Inbox::Imap(i) => i.fetch_skipping(limit, skip),
        }
    }

    fn done(&mut self, id: &str) -> Result<(), MailError> {
        match self {
            Inbox::Maildir(m) => m.done(id),
            Inbox::Imap(i) => i.done(id),
        }
    }

    fn detached_done(&self) -> Option<umpire_mail::DoneMarker> {
        match self {
            Inbox::Maildir(m) => m.detached_done(),
            Inbox::Imap(i) => i.detached_done(),
        }
    }
}

impl Inbox {
    /// Waits up to `timeout` for new mail: IMAP IDLE where offered, else
    /// polling. True if there is mail to fetch.
    pub fn wait(&mut self, timeout: Duration) -> Result<bool, MailError> {
        match self {
            Inbox::Imap(i) => i.wait(timeout),
            Inbox::Maildir(m) => {
                let end = Instant::now() + timeout;
                loop {
                    let new = m.root().join("new");
                    let any = std::fs::read_dir(&new)
                        .map_err(|e| MailError::io(format!("reading {}", new.display()), e))?
                        .flatten()
                        .any(|e| umpire_mail::maildir::is_mail_file(&e));
                    if any {
                        return Ok(true);
                    }
                    let left = end.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Ok(false);
                    }
                    std::thread::sleep(left.min(Duration::from_millis(500)));
                }
            }
        }
    }
}

/// Where mail goes, as configured.
pub enum Outbox {
    File(FileOutbox),
    Smtp(Box<SmtpDelivery>),
}

impl Delivery for Outbox {
    fn deliver(&mut self, mail: &Outgoing) -> Result<(), MailError> {
        match self {
            Outbox::File(f) => f.deliver(mail),
            Outbox::Smtp(s) => s.deliver(mail),
        }
    }
}

/// Where the access token is cached, in the data directory (owner-only).
pub const OAUTH2_TOKEN_CACHE: &str = "oauth2-token.json";

impl Umpire {
    /// The configured token source, the secrets file resolved against the
    /// data directory, if `[oauth2]` is set.
    fn oauth2_source(&self) -> Result<Option<TokenSource>, ServiceError> {
        let Some(o) = &self.config.oauth2 else {
            return Ok(None);
        };
        let mut o = o.clone();
        o.ca_file = o.ca_file.map(|p| self.path(&p));
        let source = TokenSource::new(
            &o,
            &self.path(&o.oauth2_file),
            Some(&self.path(Path::new(OAUTH2_TOKEN_CACHE))),
        )
        .map_err(MailError::from)?;
        Ok(Some(source))
    }

    /// `[imap]` with its token source, if it logs in with OAuth2.
    fn imap_settings(&self, s: &ImapSettings) -> Result<ImapSettings, ServiceError> {
        let mut s = s.clone();
        if s.auth == Auth::Oauth2 {
            s.oauth2 = self.oauth2_source()?;
        }
        Ok(s)
    }

    /// `[smtp]` with its token source, if it logs in with OAuth2.
    fn smtp_settings(&self, s: &SmtpSettings) -> Result<SmtpSettings, ServiceError> {
        let mut s = s.clone();
        if s.auth == Auth::Oauth2 {
            s.oauth2 = self.oauth2_source()?;
        }
        Ok(s)
    }

    /// Opens the configured intake (an IMAP intake connects lazily).
    pub fn open_inbox(&self) -> Result<Inbox, ServiceError> {
        match (self.config.intake.kind.as_str(), &self.config.imap) {
            ("imap", Some(s)) => {
                // A mail over [limits] max_mail_bytes is only answered "too
                // big": never download more of it than its header.
                let mut s = self.imap_settings(s)?;
                s.max_message_bytes = s
                    .max_message_bytes
                    .min(self.config.limits.max_mail_bytes as u64);
                Ok(Inbox::Imap(Box::new(ImapIntake::new(&s)?)))
            }
            _ => Ok(Inbox::Maildir(
                Maildir::open(&self.path(&self.config.intake.maildir))?
                    .with_max_bytes(self.config.limits.max_mail_bytes),
            )),
        }
    }

    /// Opens the configured delivery.
    pub fn open_outbox(&self) -> Result<Outbox, ServiceError> {
        match (self.config.delivery.kind.as_str(), &self.config.smtp) {
            ("smtp", Some(s)) => Ok(Outbox::Smtp(Box::new(SmtpDelivery::new(
                &self.smtp_settings(s)?,
            )?))),
            _ => Ok(Outbox::File(FileOutbox::open(
                &self.path(&self.config.delivery.outbox),
            )?)),
        }
    }

    /// Connects to each configured transport and reports each step: what
    /// `umpire config check` prints. The second value is false if anything failed.
    pub fn check_transports(&self) -> (String, bool) {
        let mut out = String::new();
        let mut ok = true;
        let mut section = |name: &str, (passed, text): (bool, String)| {
            out.push_str(&format!("[{name}]\n"));
            ok &= passed;
            out.push_str(&text);
        };
        match (self.config.intake.kind.as_str(), &self.config.imap) {
            ("imap", Some(s)) => section(
                "imap",
                shown(
                    self.imap_settings(s)
                        .map_err(settings_failed)
                        .and_then(|s| s.check())
                        .map(|r| r.to_string()),
                    |e| passed_then_failed(&e, s.security, s.auth, true),
                ),
            ),
            _ => section(
                "intake",
                shown(
                    writable(&self.path(&self.config.intake.maildir).join("new"))
                        .map(|p| format!("ok  maildir: {p}\n")),
                    failed,
                ),
            ),
        }
        match (self.config.delivery.kind.as_str(), &self.config.smtp) {
            ("smtp", Some(s)) => section(
                "smtp",
                shown(
                    self.smtp_settings(s)
                        .map_err(settings_failed)
                        .and_then(|s| s.check())
                        .map(|r| r.to_string()),
                    |e| passed_then_failed(&e, s.security, s.auth, false),
                ),
            ),
            _ => section(
                "delivery",
                shown(
                    writable(&self.path(&self.config.delivery.outbox))
                        .map(|p| format!("ok  file outbox: {p}\n")),
                    failed,
                ),
            ),
        }
        (out, ok)
    }
}

/// A failed connection check as `config check` prints it: the steps
/// before the failed one (they run in this order, so they passed), then the
/// failure.
fn passed_then_failed(e: &CheckError, security: Security, auth: Auth, imap: bool) -> String {
    let order = [
        CheckStep::Settings,
        CheckStep::Password,
        CheckStep::Token,
        CheckStep::Dns,
        CheckStep::Connect,
        CheckStep::Tls,
        CheckStep::Greeting,
        CheckStep::Login,
        CheckStep::Folder,
    ];
    let mut out = String::new();
    for step in order.into_iter().take_while(|s| *s != e.step) {
        let skipped = (step == CheckStep::Tls && security == Security::Plain)
            || (step == CheckStep::Password && auth == Auth::Oauth2)
            || (step == CheckStep::Token && auth == Auth::Password)
            || (step == CheckStep::Folder && !imap);
        if !skipped {
            out.push_str(&format!("ok  {step}\n"));
        }
    }
    out.push_str(&format!("FAILED {e}\n"));
    out
}

/// A token source that could not be set up, as the check's settings step.
fn settings_failed(e: ServiceError) -> CheckError {
    CheckError {
        step: CheckStep::Settings,
        error: MailError::Config(e.to_string()),
    }
}

/// A check's section text and whether it passed: its report, or its
/// error as `failure` shows it.
fn shown<E>(r: Result<String, E>, failure: impl FnOnce(E) -> String) -> (bool, String) {
    match r {
        Ok(text) => (true, text),
        Err(e) => (false, failure(e)),
    }
}

/// A failed check of a local folder, as `config check` prints it.
fn failed(e: NotWritable) -> String {
    format!("FAILED {e}\n")
}

/// A folder the umpire cannot write to.
#[derive(Debug, thiserror::Error)]
#[error("{dir} is not writable: {source}")]
struct NotWritable {
    dir: String,
    source: std::io::Error,
}

/// The folder's path if a file can be written (and removed) in it.
fn writable(dir: &std::path::Path) -> Result<String, NotWritable> {
    let probe = dir.join(".umpire-check");
    std::fs::write(&probe, b"")
        .and_then(|_| std::fs::remove_file(&probe))
        .map(|_| dir.display().to_string())
        .map_err(|source| NotWritable {
            dir: dir.display().to_string(),
            source,
        })
}

#[cfg(test)]
mod check_tests {
    use super::*;

    #[test]
    fn a_failed_check_lists_the_steps_that_passed() {
        let e = CheckError {
            step: CheckStep::Login,
            error: MailError::Auth("535 bad password".into()),
        };
        let t = passed_then_failed(&e, Security::Tls, Auth::Password, false);
        assert!(
            t.starts_with("ok  settings\nok  password\nok  DNS lookup\nok  TCP connect\nok  TLS\nok  server greeting\nFAILED login failed"),
            "{t}"
        );
        let t = passed_then_failed(&e, Security::Plain, Auth::Password, false);
        assert!(!t.contains("TLS"), "{t}");
    }
}
