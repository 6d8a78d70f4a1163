//! One SMTP session: connect (plain, implicit TLS or STARTTLS), EHLO, AUTH,
//! then any number of mail transactions on the same connection.
//!
//! umpire's own client rather than lettre's, for speed (issue 13): lettre
//! 0.11 opens a connection per mail and leaves Nagle's algorithm on, so each
//! mail waited ~40 ms for a delayed ACK after its body. Here the socket has
//! TCP_NODELAY, each command group is one write (MAIL, RCPT and DATA together
//! when the server offers PIPELINING, RFC 2920), and the connection is kept
//! for the next mail.

use super::super::oauth2::TokenSource;
use super::super::oauth2::sasl::{self, Mechanism};
use super::super::settings::{
    CheckError, CheckReport, CheckStep, Credential, Security, SmtpSettings,
};
use super::super::{MailError, imap, tls};
use super::wire::{Extensions, Reply, data_block, read_reply};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use rustls::{ClientConfig, ClientConnection, StreamOwned};
use std::io::{self, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

enum Inner {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

/// The connection, every read and write of which must end by the deadline
/// of the reply or the write in hand ([`Session::reply`], [`Session::write`]),
/// however the server paces its bytes.
struct Stream {
    inner: Inner,
    deadline: Instant,
    /// What the deadline is for, for the error.
    what: &'static str,
}

impl Stream {
    fn new(inner: Inner) -> Stream {
        Stream {
            inner,
            deadline: Instant::now(),
            what: "the server took too long",
        }
    }

    fn tcp(&self) -> &TcpStream {
        match &self.inner {
            Inner::Plain(t) => t,
            Inner::Tls(s) => &s.sock,
        }
    }

    /// The time left, set as the socket's timeout for reading or writing.
    fn arm(&self, read: bool) -> io::Result<()> {
        let left = Some(imap::left_until(self.deadline, self.what)?);
        match read {
            true => self.tcp().set_read_timeout(left),
            false => self.tcp().set_write_timeout(left),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.arm(true)?;
        match &mut self.inner {
            Inner::Plain(t) => t.read(buf),
            Inner::Tls(t) => t.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.arm(false)?;
        match &mut self.inner {
            Inner::Plain(t) => t.write(buf),
            Inner::Tls(t) => t.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        self.arm(false)?;
        match &mut self.inner {
            Inner::Plain(t) => t.flush(),
            Inner::Tls(t) => t.flush(),
        }
    }
}

/// The envelope of one mail: addresses already checked (no CR, LF, `<`, `>`).
pub(crate) struct Envelope<'a> {
    /// Empty for the null sender.
    pub from: &'a str,
    pub to: &'a [String],
    /// Some address is not ASCII (needs SMTPUTF8).
    pub utf8: bool,
}

/// Why a transaction failed, and what it leaves of the session.
#[derive(Debug)]
pub(crate) struct Failed {
    pub error: MailError,
    /// The connection is unusable: open a new one.
    pub broken: bool,
    /// Nothing of the mail reached the server yet (the connection failed at
    /// its first command): sending it again on a new connection is safe.
    pub unsent: bool,
}

/// An open, greeted (and, if configured, authenticated) session.
pub(crate) struct Session {
    io: BufReader<Stream>,
    ext: Extensions,
    server: String,
    /// How long one reply, or one command's writing, may take in all; a
    /// message's body that and a second per 32 KiB.
    timeout: Duration,
}

impl Session {
    /// Opens a session: DNS, TCP, TLS or STARTTLS, greeting, EHLO, AUTH. Each
    /// step that passes is written to `report`; a failure says which step.
    pub fn open(
        s: &SmtpSettings,
        cred: Option<&Credential>,
        tls_config: Option<Arc<ClientConfig>>,
        report: &mut CheckReport,
    ) -> Result<Session, CheckError> {
        let fail = |step: CheckStep| move |error: MailError| CheckError { step, error };
        let server = format!("{}:{}", s.host, s.port());
        let timeout = Duration::from_secs(s.timeout_secs);
        let addrs = imap::resolve(&s.host, s.port(), s.security == Security::Plain)
            .map_err(fail(CheckStep::Dns))?;
        report.ok(
            CheckStep::Dns,
            format!("{} -> {}", s.host, imap::addr_list(&addrs)),
        );
        let tcp = imap::connect_any(&addrs, timeout).map_err(fail(CheckStep::Connect))?;
        let peer = tcp.peer_addr().map(|a| a.to_string()).unwrap_or_default();
        tcp.set_nodelay(true)
            .map_err(|e| MailError::Transient(format!("setting up the socket: {e}")))
            .map_err(fail(CheckStep::Connect))?;
        report.ok(CheckStep::Connect, format!("connected to {peer}"));

        let host = s.host.trim_start_matches('[').trim_end_matches(']');
        let no_tls = || CheckError {
            step: CheckStep::Tls,
            error: MailError::Config("no TLS configuration".into()),
        };
        let mut session = match s.security {
            Security::Tls => {
                let cfg = tls_config.clone().ok_or_else(no_tls)?;
                let t = imap::handshake(host, tcp, cfg, timeout).map_err(fail(CheckStep::Tls))?;
                report.ok(CheckStep::Tls, format!("TLS, certificate valid for {host}"));
                Session::new(Inner::Tls(Box::new(t)), server, timeout)
            }
            Security::Plain | Security::Starttls => {
                Session::new(Inner::Plain(tcp), server, timeout)
            }
        };
        let greeting = session.reply().map_err(fail(CheckStep::Greeting))?;
        if greeting.code != 220 {
            return Err(CheckError {
                step: CheckStep::Greeting,
                error: session.refused("the greeting", &greeting),
            });
        }
        let hello = hello_name(s);
        session.ehlo(&hello).map_err(fail(CheckStep::Greeting))?;
        if s.security == Security::Starttls {
            let cfg = tls_config.ok_or_else(no_tls)?;
            session = session.starttls(host, cfg).map_err(fail(CheckStep::Tls))?;
            report.ok(
                CheckStep::Tls,
                format!("STARTTLS, certificate valid for {host}"),
            );
            session.ehlo(&hello).map_err(fail(CheckStep::Greeting))?;
        }
        report.ok(CheckStep::Greeting, "SMTP server answered EHLO");
        match (&s.username, cred) {
            (Some(user), Some(Credential::Password(pw))) => {
                session.auth(user, pw).map_err(fail(CheckStep::Login))?;
                report.ok(CheckStep::Login, format!("AUTH as {user} accepted"));
            }
            (Some(user), Some(Credential::OAuth2(src))) => {
                let mech = session.bearer_login(user, src)?;
                report.ok(
                    CheckStep::Login,
                    format!("AUTH {} as {user} accepted", mech.name()),
                );
            }
            _ => {}
        }
        Ok(session)
    }

    fn new(inner: Inner, server: String, timeout: Duration) -> Session {
        Session {
            io: BufReader::with_capacity(8192, Stream::new(inner)),
            ext: Extensions::default(),
            server,
            timeout,
        }
    }

    /// One reply, which must come whole within the timeout.
    fn reply(&mut self) -> Result<Reply, MailError> {
        let s = self.io.get_mut();
        s.deadline = Instant::now() + self.timeout;
        s.what = "no whole reply from the server within the timeout";
        read_reply(&mut self.io).map_err(|e| self.io_context(e))
    }

    fn io_context(&self, e: MailError) -> MailError {
        match e {
            MailError::Transient(m) => MailError::Transient(format!("{}: {m}", self.server)),
            other => other,
        }
    }

    /// Writes `bytes` in one go (one TCP segment train, no Nagle wait),
    /// within the timeout and a second per 32 KiB (a message's body).
    fn write(&mut self, bytes: &[u8]) -> Result<(), MailError> {
        let time = imap::time_for(bytes.len() as u64, self.timeout);
        let w = self.io.get_mut();
        w.deadline = Instant::now() + time;
        w.what = "the server did not take what was sent within the timeout";
        w.write_all(bytes).and_then(|_| w.flush()).map_err(|e| {
            if let Some(r) = tls::rustls_error_in(&e) {
                return MailError::Tls(format!("{}: {}", self.server, tls::describe(r)));
            }
            MailError::Transient(format!("{}: writing to the server: {e}", self.server))
        })
    }

    fn command(&mut self, line: &str) -> Result<Reply, MailError> {
        self.write(format!("{line}\r\n").as_bytes())?;
        self.reply()
    }

    /// A refusal in words, classified: 4xx transient, AUTH codes an
    /// [`MailError::Auth`], other 5xx for good.
    fn refused(&self, what: &str, r: &Reply) -> MailError {
        let text = format!("{}: {what}: {}", self.server, r.text());
        if r.is_transient() {
            MailError::Transient(text)
        } else if matches!(r.code, 530 | 534 | 535 | 538) {
            MailError::Auth(text)
        } else {
            MailError::Protocol(format!(
                "{} refused the mail: {what}: {}",
                self.server,
                r.text()
            ))
        }
    }

    fn ehlo(&mut self, name: &str) -> Result<(), MailError> {
        let r = self.command(&format!("EHLO {name}"))?;
        if r.code != 250 {
            return Err(self.refused("EHLO", &r));
        }
        self.ext = Extensions::from_ehlo(&r);
        Ok(())
    }

    fn starttls(mut self, host: &str, cfg: Arc<ClientConfig>) -> Result<Session, MailError> {
        if !self.ext.starttls {
            return Err(MailError::Tls(format!(
                "{}: the server does not offer STARTTLS (security = \"starttls\" requires it)",
                self.server
            )));
        }
        let r = self.command("STARTTLS")?;
        if r.code != 220 {
            return Err(MailError::Tls(format!(
                "{}: the server refused STARTTLS: {}",
                self.server,
                r.text()
            )));
        }
        if !self.io.buffer().is_empty() {
            // Bytes after the 220, before our handshake: a man in the middle
            // injecting commands (CVE-2011-0411 style).
            return Err(MailError::Tls(
                "the server sent data right after STARTTLS; refusing".into(),
            ));
        }
        let (server, timeout) = (self.server.clone(), self.timeout);
        let Inner::Plain(tcp) = self.io.into_inner().inner else {
            return Err(MailError::Tls("STARTTLS on a TLS connection".into()));
        };
        let t = imap::handshake(host, tcp, cfg, timeout)?;
        Ok(Session::new(Inner::Tls(Box::new(t)), server, timeout))
    }

    /// AUTH PLAIN, else AUTH LOGIN (RFC 4954, 4616).
    fn auth(&mut self, user: &str, password: &str) -> Result<(), MailError> {
        let has = |m: &str| self.ext.auth.iter().any(|a| a == m);
        let r = if has("PLAIN") {
            let token = B64.encode(format!("\0{user}\0{password}"));
            self.command(&format!("AUTH PLAIN {token}"))?
        } else if has("LOGIN") {
            let r = self.command("AUTH LOGIN")?;
            if r.code != 334 {
                return Err(self.refused("AUTH LOGIN", &r));
            }
            let r = self.command(&B64.encode(user))?;
            if r.code != 334 {
                return Err(self.refused("AUTH LOGIN", &r));
            }
            self.command(&B64.encode(password))?
        } else {
            return Err(MailError::Protocol(format!(
                "{}: the server offers no AUTH mechanism umpire speaks (PLAIN, LOGIN); it offers {:?}",
                self.server, self.ext.auth
            )));
        };
        if r.code != 235 {
            return Err(self.refused(&format!("AUTH as {user}"), &r));
        }
        Ok(())
    }

    /// The OAuth2 login: AUTH OAUTHBEARER (else XOAUTH2) with the access
    /// token; a cached token the server refuses is refreshed and tried once
    /// more. Says which step failed: the token or the login.
    fn bearer_login(&mut self, user: &str, src: &TokenSource) -> Result<Mechanism, CheckError> {
        let login = |error| CheckError {
            step: CheckStep::Login,
            error,
        };
        let token_failed = |e: crate::oauth2::OAuth2Error| CheckError {
            step: CheckStep::Token,
            error: e.into(),
        };
        let mech =
            Mechanism::choose(self.ext.auth.iter().map(String::as_str)).ok_or_else(|| {
                login(MailError::Config(format!(
                    "{}: the server offers neither OAUTHBEARER nor XOAUTH2, so auth = \"oauth2\" \
                 cannot log in here; it offers {:?}",
                    self.server, self.ext.auth
                )))
            })?;
        let token = src.token().map_err(token_failed)?;
        match self.bearer(mech, user, &token.access) {
            Ok(()) => Ok(mech),
            Err(MailError::Auth(why)) if !token.fresh => {
                tracing::info!(
                    "SMTP: the server refused the cached OAuth2 token ({why}); refreshing it"
                );
                let token = src.refresh().map_err(token_failed)?;
                self.bearer(mech, user, &token.access).map_err(login)?;
                Ok(mech)
            }
            Err(e) => Err(login(e)),
        }
    }

    /// One AUTH exchange with a bearer token (RFC 7628 3.2, RFC 4954 with
    /// the initial response on the command line).
    fn bearer(&mut self, mech: Mechanism, user: &str, token: &str) -> Result<(), MailError> {
        let initial = B64.encode(mech.initial(user, token));
        let mut r = self.command(&format!("AUTH {} {initial}", mech.name()))?;
        let mut why = String::new();
        if r.code == 334 {
            // The error challenge: answer so the server ends the exchange.
            why = sasl::explain_challenge(r.lines.first().map(String::as_bytes).unwrap_or(b""));
            r = self.command(&B64.encode(mech.after_error()))?;
        }
        if r.code == 235 {
            return Ok(());
        }
        let e = self.refused(&format!("AUTH {} as {user}", mech.name()), &r);
        Err(match e {
            MailError::Auth(m) => MailError::Auth(format!(
                "the server refused the OAuth2 token: {m}{}",
                if why.is_empty() {
                    String::new()
                } else {
                    format!(": {why}")
                }
            )),
            other => other,
        })
    }

    /// One mail transaction. On a refusal the transaction is reset, so the
    /// session can carry the next mail unless [`Failed::broken`] says not.
    pub fn send(&mut self, env: &Envelope, raw: &[u8]) -> Result<Reply, Failed> {
        let mut params = String::new();
        if env.utf8 {
            if !self.ext.smtputf8 {
                return Err(self.unusable_mail(
                    "an address is not ASCII and the server does not offer SMTPUTF8",
                ));
            }
            params.push_str(" SMTPUTF8");
        }
        if !raw.is_ascii() {
            if !self.ext.eight_bit_mime {
                return Err(self.unusable_mail(
                    "the mail is not ASCII and the server does not offer 8BITMIME",
                ));
            }
            params.push_str(" BODY=8BITMIME");
        }
        let mut commands = vec![format!("MAIL FROM:<{}>{params}", env.from)];
        commands.extend(env.to.iter().map(|t| format!("RCPT TO:<{t}>")));
        commands.push("DATA".into());
        let replies = self.exchange(&commands)?;
        let data = &replies[replies.len() - 1];
        // The first refusal names the command; RCPT refusals name the address.
        let refusal = commands.iter().zip(&replies).find(|(c, r)| {
            if c.as_str() == "DATA" {
                r.code != 354
            } else {
                !r.is_positive()
            }
        });
        if let Some((c, r)) = refusal {
            let error = self.refused(c, r);
            let broken = r.code == 421 || data.code == 354;
            // 354 after a refused RCPT (pipelining): the server waits for a
            // body we will not send, so the connection is dropped instead.
            if !broken {
                self.reset();
            }
            return Err(Failed {
                error,
                broken,
                unsent: false,
            });
        }
        let end = self
            .write(&data_block(raw))
            .and_then(|_| self.reply())
            .map_err(|error| Failed {
                error,
                broken: true,
                unsent: false,
            })?;
        if end.code != 250 {
            let error = self.refused("the message", &end);
            return Err(Failed {
                error,
                broken: end.code == 421,
                unsent: false,
            });
        }
        Ok(end)
    }

    /// Sends `commands` and reads one reply each: all in one write when the
    /// server offers PIPELINING, else one at a time, stopping at a refusal.
    fn exchange(&mut self, commands: &[String]) -> Result<Vec<Reply>, Failed> {
        let io_failed = |error: MailError, first: bool| Failed {
            error,
            broken: true,
            unsent: first,
        };
        let mut replies = Vec::with_capacity(commands.len());
        if self.ext.pipelining {
            let batch: String = commands.iter().map(|c| format!("{c}\r\n")).collect();
            self.write(batch.as_bytes())
                .map_err(|e| io_failed(e, true))?;
            for _ in commands {
                let first = replies.is_empty();
                replies.push(self.reply().map_err(|e| io_failed(e, first))?);
            }
            return Ok(replies);
        }
        for c in commands {
            let first = replies.is_empty();
            let r = self.command(c).map_err(|e| io_failed(e, first))?;
            let stop = if c == "DATA" {
                r.code != 354
            } else {
                !r.is_positive()
            };
            replies.push(r);
            if stop {
                // Pad so the last reply stands for DATA: not sent, not 354.
                while replies.len() < commands.len() {
                    replies.push(Reply {
                        code: 503,
                        lines: vec!["not sent".into()],
                    });
                }
                break;
            }
        }
        Ok(replies)
    }

    fn unusable_mail(&self, why: &str) -> Failed {
        Failed {
            error: MailError::Protocol(format!("{}: {why}", self.server)),
            broken: false,
            unsent: true,
        }
    }

    /// RSET after a refused transaction; a failure here only means the
    /// next mail opens a new connection.
    fn reset(&mut self) {
        let _ = self.command("RSET");
    }

    /// QUIT, politely; the answer does not matter.
    pub fn quit(mut self) {
        let _ = self.command("QUIT");
    }
}

/// The EHLO name: the configured one, else this machine's host name if it is
/// a plausible domain, else an address literal (RFC 5321 4.1.4).
fn hello_name(s: &SmtpSettings) -> String {
    if let Some(h) = &s.hello_name {
        return h.clone();
    }
    let host = hostname::get()
        .ok()
        .and_then(|h| h.into_string().ok())
        .unwrap_or_default();
    let plausible = !host.is_empty()
        && host.len() <= 253
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    if plausible {
        host
    } else {
        "[127.0.0.1]".into()
    }
}
