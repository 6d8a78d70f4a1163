//! Delivery over SMTP: the caller's fully formatted bytes are sent as they
//! are, with the envelope from [`Outgoing`], by umpire's own small client
//! ([`session`]; why not lettre's: see there).
//!
//! Security per [`SmtpSettings`]: implicit TLS (465), STARTTLS required (587),
//! or plain on loopback only; AUTH (PLAIN or LOGIN) when a username is set.
//! One connection carries every mail of a `deliver` run; it is opened on the
//! first mail, kept while mails follow, and replaced when it breaks or has
//! been idle longer than [`IDLE_LIMIT`].
//!
//! Errors: the server unreachable, a timeout, or a 4xx reply is
//! [`MailError::Transient`] (keep the mail, retry later); a 5xx reply is
//! [`MailError::Protocol`], except refused credentials ([`MailError::Auth`]);
//! certificate problems are [`MailError::Tls`].
//!
//! SMTP cannot make delivery exactly-once: if the connection drops after the
//! server accepted the data but before its reply arrives, a retry sends the
//! mail again. Recipients can tell the copies apart by their Message-ID. A
//! mail is sent again at once on a new connection only when the old one
//! failed at the mail's first command, before any of it was accepted.

#![warn(missing_docs)]

mod session;
mod wire;

use super::settings::{CheckError, CheckReport, CheckStep, Credential, Security, SmtpSettings};
use super::{Delivery, MailError, Outgoing, tls};
use lettre::address::Address;
use rustls::ClientConfig;
use session::{Envelope, Session};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// For the fuzz target only: reads `data` as server replies and sends it
/// through DATA's transparency, panicking if an invariant breaks.
#[doc(hidden)]
pub fn fuzz_wire(data: &[u8]) {
    wire::fuzz_check(data);
}

/// A kept connection idle longer than this is closed and a new one opened:
/// servers drop idle sessions (Postfix after 300 s, some far sooner), and a
/// fresh one costs less than finding out mid-mail.
pub const IDLE_LIMIT: Duration = Duration::from_secs(30);

/// SMTP delivery to one server, over one kept connection.
pub struct SmtpDelivery {
    settings: SmtpSettings,
    cred: Option<Credential>,
    tls: Option<Arc<ClientConfig>>,
    session: Option<(Session, Instant)>,
    connections: u64,
}

impl std::fmt::Debug for SmtpDelivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpDelivery")
            .field("server", &self.server())
            .field("connected", &self.session.is_some())
            .finish_non_exhaustive()
    }
}

impl SmtpDelivery {
    /// Validates the settings, gets the password and loads the TLS trust.
    /// Does not connect: the first [`Delivery::deliver`] does.
    pub fn new(settings: &SmtpSettings) -> Result<SmtpDelivery, MailError> {
        settings.validate()?;
        let cred = settings.credential()?;
        if settings.security == Security::Plain {
            // Validation allows plain only for loopback names; also refuse a
            // "localhost" that resolves elsewhere.
            super::imap::resolve(&settings.host, settings.port(), true)?;
        }
        Ok(SmtpDelivery {
            settings: settings.clone(),
            cred,
            tls: tls_config(settings)?,
            session: None,
            connections: 0,
        })
    }

    /// How many connections this delivery has opened so far.
    pub fn connections(&self) -> u64 {
        self.connections
    }

    fn server(&self) -> String {
        format!("{}:{}", self.settings.host, self.settings.port())
    }

    /// The kept session if it is fresh enough, else a new one.
    fn session(&mut self) -> Result<(&mut Session, bool), MailError> {
        if let Some((_, used)) = &self.session
            && used.elapsed() > IDLE_LIMIT
        {
            self.close();
        }
        let reused = self.session.is_some();
        let (s, _) = match self.session.take() {
            Some(open) => self.session.insert(open),
            None => {
                let mut report = CheckReport::default();
                let s = Session::open(
                    &self.settings,
                    self.cred.as_ref(),
                    self.tls.clone(),
                    &mut report,
                )
                .map_err(|e| e.error)?;
                self.connections += 1;
                self.session.insert((s, Instant::now()))
            }
        };
        Ok((s, reused))
    }

    /// Ends the kept session, if any, with QUIT.
    pub fn close(&mut self) {
        if let Some((s, _)) = self.session.take() {
            s.quit();
        }
    }

    fn attempt(&mut self, env: &Envelope, raw: &[u8]) -> Result<(), (MailError, bool, bool)> {
        let (s, reused) = self.session().map_err(|e| (e, false, false))?;
        match s.send(env, raw) {
            Ok(_) => {
                if let Some((_, used)) = &mut self.session {
                    *used = Instant::now();
                }
                Ok(())
            }
            Err(f) => {
                if f.broken {
                    self.session = None;
                } else if let Some((_, used)) = &mut self.session {
                    *used = Instant::now();
                }
                Err((f.error, f.broken && f.unsent, reused))
            }
        }
    }
}

impl Drop for SmtpDelivery {
    fn drop(&mut self) {
        self.close();
    }
}

fn tls_config(s: &SmtpSettings) -> Result<Option<Arc<ClientConfig>>, MailError> {
    match s.security {
        Security::Plain => Ok(None),
        Security::Tls | Security::Starttls => Ok(Some(tls::client_config(s.ca_file.as_deref())?)),
    }
}

impl Delivery for SmtpDelivery {
    fn deliver(&mut self, mail: &Outgoing) -> Result<(), MailError> {
        let (from, to) = envelope(mail)?;
        let utf8 = !from.is_ascii() || to.iter().any(|t| !t.is_ascii());
        let env = Envelope {
            from: &from,
            to: &to,
            utf8,
        };
        let mut result = self.attempt(&env, &mail.raw);
        if let Err((_, true, true)) = &result {
            // A kept connection the server had closed: nothing of this mail
            // reached it, so a new connection may carry it.
            tracing::debug!("SMTP {}: kept connection lost, reconnecting", self.server());
            result = self.attempt(&env, &mail.raw);
        }
        match result {
            Ok(()) => {
                tracing::debug!("SMTP {}: {} accepted", self.server(), mail.message_id);
                Ok(())
            }
            Err((err, _, _)) => {
                tracing::info!(
                    "SMTP {}: {} not sent: {err}",
                    self.server(),
                    mail.message_id
                );
                Err(err)
            }
        }
    }
}

/// The SMTP envelope, each address checked: an empty `from` is the null
/// sender (`MAIL FROM:<>`). The parse refuses CR, LF, `<`, `>` and spaces,
/// so no address can smuggle a command.
fn envelope(mail: &Outgoing) -> Result<(String, Vec<String>), MailError> {
    let from = if mail.from.is_empty() {
        String::new()
    } else {
        mail.from
            .parse::<Address>()
            .map_err(|e| MailError::Protocol(format!("envelope sender {:?}: {e}", mail.from)))?
            .to_string()
    };
    if mail.to.is_empty() {
        return Err(MailError::Protocol(format!(
            "envelope of {}: no recipient",
            mail.message_id
        )));
    }
    let to = mail
        .to
        .iter()
        .map(|t| {
            t.parse::<Address>()
                .map(|a| a.to_string())
                .map_err(|e| MailError::Protocol(format!("envelope recipient {t:?}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((from, to))
}

/// See [`SmtpSettings::check`].
pub(crate) fn check(s: &SmtpSettings) -> Result<CheckReport, CheckError> {
    let mut report = CheckReport::default();
    let fail = |step: CheckStep| move |error: MailError| CheckError { step, error };
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
    if let Some(c) = &cred {
        c.check(&mut report)?;
    }
    let tls = tls_config(s).map_err(fail(CheckStep::Tls))?;
    let session = Session::open(s, cred.as_ref(), tls, &mut report)?;
    session.quit();
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(from: &str, to: &[&str]) -> Outgoing {
        Outgoing {
            key: "k".into(),
            message_id: "<m@x>".into(),
            from: from.into(),
            to: to.iter().map(|s| s.to_string()).collect(),
            raw: b"Subject: x\r\n\r\nhi\r\n".to_vec(),
        }
    }

    #[test]
    fn envelopes() {
        assert!(envelope(&out("gm@club.test", &["a@club.test", "b@club.test"])).is_ok());
        // Null sender, as for a bounce.
        assert!(envelope(&out("", &["a@club.test"])).is_ok());
        assert!(matches!(
            envelope(&out("not an address", &["a@club.test"])),
            Err(MailError::Protocol(_))
        ));
        assert!(matches!(
            envelope(&out("gm@club.test", &[])),
            Err(MailError::Protocol(_))
        ));
    }

    #[test]
    fn refused_connection_is_transient() {
        // Port 1 on loopback: nothing listens there.
        let mut s = SmtpSettings::new("127.0.0.1", Security::Plain);
        s.port = Some(1);
        s.timeout_secs = 5;
        let mut d = SmtpDelivery::new(&s).unwrap();
        let e = d
            .deliver(&out("gm@club.test", &["a@club.test"]))
            .unwrap_err();
        assert!(e.is_transient(), "{e}");
    }
}
