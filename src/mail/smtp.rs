//! Delivery over SMTP with lettre: the caller's fully formatted bytes are sent
//! as they are (`send_raw`), with the envelope from [`Outgoing`].
//!
//! Security per [`SmtpSettings`]: implicit TLS (465), STARTTLS required (587),
//! or plain on loopback only; AUTH when a username is set. Each mail opens
//! its own connection (lettre's pool is not built in), which suits a poll
//! that sends a handful of mails.
//!
//! Errors: the server unreachable, a timeout, or a 4xx reply is
//! [`MailError::Transient`] (keep the mail, retry later); a 5xx reply is
//! [`MailError::Protocol`], except refused credentials ([`MailError::Auth`]);
//! certificate problems are [`MailError::Tls`].
//!
//! SMTP cannot make delivery exactly-once: if the connection drops after the
//! server accepted the data but before its reply arrives, a retry sends the
//! mail again. Recipients can tell the copies apart by their Message-ID.

#![warn(missing_docs)]

use super::settings::{CheckError, CheckReport, CheckStep, Security, SmtpSettings};
use super::{Delivery, MailError, Outgoing, tls};
use lettre::address::{Address, Envelope};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::Tls;
use lettre::transport::smtp::extension::ClientId;
use lettre::{SmtpTransport, Transport};
use std::time::Duration;

/// SMTP delivery to one server.
pub struct SmtpDelivery {
    transport: SmtpTransport,
    server: String,
}

impl std::fmt::Debug for SmtpDelivery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpDelivery")
            .field("server", &self.server)
            .finish_non_exhaustive()
    }
}

impl SmtpDelivery {
    /// Validates the settings, gets the password and loads the TLS trust.
    /// Does not connect: each [`Delivery::deliver`] does.
    pub fn new(settings: &SmtpSettings) -> Result<SmtpDelivery, MailError> {
        settings.validate()?;
        let password = settings.resolve_password()?;
        Ok(SmtpDelivery {
            transport: build_transport(settings, password)?,
            server: format!("{}:{}", settings.host, settings.port()),
        })
    }
}

fn build_transport(s: &SmtpSettings, password: Option<String>) -> Result<SmtpTransport, MailError> {
    if s.security == Security::Plain {
        // Validation allows plain only for loopback names; also refuse a
        // "localhost" that resolves elsewhere.
        super::imap::resolve(&s.host, s.port(), true)?;
    }
    let tls = match s.security {
        Security::Plain => Tls::None,
        Security::Tls => Tls::Wrapper(tls::lettre_parameters(&s.host, s.ca_file.as_deref())?),
        Security::Starttls => Tls::Required(tls::lettre_parameters(&s.host, s.ca_file.as_deref())?),
    };
    // builder_dangerous only means "no TLS preset"; TLS is set right here.
    let mut b =
        SmtpTransport::builder_dangerous(s.host.trim_start_matches('[').trim_end_matches(']'))
            .port(s.port())
            .tls(tls)
            .timeout(Some(Duration::from_secs(s.timeout_secs)));
    if let Some(name) = &s.hello_name {
        b = b.hello_name(ClientId::Domain(name.clone()));
    }
    if let (Some(user), Some(pw)) = (&s.username, password) {
        b = b.credentials(Credentials::new(user.clone(), pw));
    }
    Ok(b.build())
}

impl Delivery for SmtpDelivery {
    fn deliver(&mut self, mail: &Outgoing) -> Result<(), MailError> {
        let envelope = envelope(mail)?;
        match self.transport.send_raw(&envelope, &mail.raw) {
            Ok(resp) => {
                tracing::debug!(
                    "SMTP {}: {} accepted: {} {}",
                    self.server,
                    mail.message_id,
                    resp.code(),
                    resp.message().collect::<Vec<_>>().join(" ")
                );
                Ok(())
            }
            Err(e) => {
                let err = classify(&e, &self.server);
                tracing::info!("SMTP {}: {} not sent: {err}", self.server, mail.message_id);
                Err(err)
            }
        }
    }
}

/// The SMTP envelope: an empty `from` is the null sender (`MAIL FROM:<>`).
fn envelope(mail: &Outgoing) -> Result<Envelope, MailError> {
    let from =
        if mail.from.is_empty() {
            None
        } else {
            Some(mail.from.parse::<Address>().map_err(|e| {
                MailError::Protocol(format!("envelope sender {:?}: {e}", mail.from))
            })?)
        };
    let to = mail
        .to
        .iter()
        .map(|t| {
            t.parse::<Address>()
                .map_err(|e| MailError::Protocol(format!("envelope recipient {t:?}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Envelope::new(from, to)
        .map_err(|e| MailError::Protocol(format!("envelope of {}: {e}", mail.message_id)))
}

/// Reply codes that mean "your credentials": 530 auth required, 534 mechanism
/// too weak, 535 invalid credentials, 538 encryption required for the mechanism.
fn is_auth_code(code: &str) -> bool {
    matches!(code, "530" | "534" | "535" | "538")
}

fn classify(e: &lettre::transport::smtp::Error, server: &str) -> MailError {
    let text = full_message(e);
    if let Some(r) = tls::rustls_error_in(e) {
        return MailError::Tls(format!("{server}: {}", tls::describe(r)));
    }
    if let Some(code) = e.status() {
        let code = code.to_string();
        if e.is_permanent() && is_auth_code(&code) {
            return MailError::Auth(format!("{server}: {text}"));
        }
        if e.is_transient() {
            return MailError::Transient(format!("{server}: {text}"));
        }
        return MailError::Protocol(format!("{server} refused the mail: {text}"));
    }
    if e.is_tls() {
        return MailError::Tls(format!("{server}: {text}"));
    }
    if e.is_client() || e.is_response() {
        // lettre refused to go on (no usable AUTH mechanism, a reply it cannot
        // parse): nothing a retry changes.
        return MailError::Protocol(format!("{server}: {text}"));
    }
    // Connection refused, reset, timed out, DNS: the server is away.
    MailError::Transient(format!("{server}: {text}"))
}

/// The error and its sources, joined: lettre's own Display is terse.
fn full_message(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut cur = e.source();
    while let Some(s) = cur {
        let t = s.to_string();
        if !parts.iter().any(|p| p.contains(&t)) {
            parts.push(t);
        }
        cur = s.source();
    }
    parts.join(": ")
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
    let password = s.resolve_password().map_err(|e| CheckError {
        step: CheckStep::Password,
        error: e.into(),
    })?;
    if s.username.is_some() {
        report.ok(CheckStep::Password, "password obtained");
    }
    let addrs = super::imap::resolve(&s.host, s.port(), s.security == Security::Plain)
        .map_err(fail(CheckStep::Dns))?;
    report.ok(
        CheckStep::Dns,
        format!("{} -> {}", s.host, super::imap::addr_list(&addrs)),
    );
    // A bare TCP connect first, so "refused" is told apart from what follows.
    let tcp = super::imap::connect_any(&addrs, Duration::from_secs(s.timeout_secs))
        .map_err(fail(CheckStep::Connect))?;
    let peer = tcp.peer_addr().map(|a| a.to_string()).unwrap_or_default();
    drop(tcp);
    report.ok(CheckStep::Connect, format!("connected to {peer}"));

    let transport = build_transport(s, password).map_err(fail(CheckStep::Tls))?;
    match transport.test_connection() {
        Ok(true) => {}
        Ok(false) => {
            return Err(CheckError {
                step: CheckStep::Greeting,
                error: MailError::Transient("the server closed the session".into()),
            });
        }
        Err(e) => {
            let error = classify(&e, &format!("{}:{}", s.host, s.port()));
            let step = match &error {
                MailError::Tls(_) => CheckStep::Tls,
                MailError::Auth(_) => CheckStep::Login,
                _ if e.is_tls() => CheckStep::Tls,
                _ => CheckStep::Greeting,
            };
            return Err(CheckError { step, error });
        }
    }
    match s.security {
        Security::Tls => report.ok(
            CheckStep::Tls,
            format!("TLS, certificate valid for {}", s.host),
        ),
        Security::Starttls => report.ok(
            CheckStep::Tls,
            format!("STARTTLS, certificate valid for {}", s.host),
        ),
        Security::Plain => {}
    }
    report.ok(CheckStep::Greeting, "SMTP server answered EHLO");
    if let Some(u) = &s.username {
        report.ok(CheckStep::Login, format!("AUTH as {u} accepted"));
    }
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
