//! The `[imap]` and `[smtp]` sections of `umpire.toml`, and `check()` for
//! each, which backs `umpire config check`.
//!
//! ```toml
//! [imap]
//! host = "mail.club.example"
//! security = "tls"                 # "tls" (993) | "starttls" (143) | "plain" (loopback only)
//! # port = 993                     # default follows `security`
//! username = "umpire@club.example"
//! password_command = "pass show club/umpire"   # first line of its stdout
//! # password_file = "/etc/umpire/imap.password" # first line of the file
//! # ca_file = "/etc/umpire/club-ca.pem"         # trust only this CA (self-hosted servers)
//! folder = "INBOX"
//! mark = "seen"                    # "seen" | "keyword" | "move"
//! # mark_keyword = "$UmpireDone"   # with mark = "keyword"
//! # mark_folder = "umpire/done"    # with mark = "move"; created if missing
//! max_message_bytes = 10485760     # larger mails are not downloaded (see Incoming::oversize)
//! idle = true                      # use IMAP IDLE when the server offers it
//! poll_interval_secs = 60          # without IDLE
//! connect_timeout_secs = 30
//! io_timeout_secs = 120
//! backoff_initial_secs = 2         # reconnect delay, doubled after each failure ...
//! backoff_max_secs = 300           # ... up to this
//!
//! [smtp]
//! host = "mail.club.example"
//! security = "starttls"            # "tls" (465) | "starttls" (587) | "plain" (loopback only, 25)
//! username = "umpire@club.example" # leave out for no AUTH
//! password_command = "pass show club/umpire"
//! # ca_file, timeout_secs = 60, hello_name = "umpire.club.example"
//! ```
//!
//! Folder names use `/` between levels; it is turned into the server's own
//! hierarchy separator (Dovecot's Maildir++ uses `.`). Names must be ASCII.
//!
//! # Passwords
//!
//! Give `password_command` (run with `sh -c`, no input, killed after 30 s or
//! the connect/SMTP timeout, whichever is longer;
//! the first line of its output is the password) or `password_file` (its
//! first line; a warning is logged if other users can read it).
//!
//! **WARNING: an inline `password = "..."` is accepted, but do not use it.**
//! It puts the club's mail password into `umpire.toml`, a file that gets
//! copied, backed up, pasted into bug reports and committed to repositories
//! far more often than a password file. A warning is logged every time an
//! inline password is used. At most one of the three may be set.

#![warn(missing_docs)]

use super::MailError;
use serde::Deserialize;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How the connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Security {
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Tls,
    /// Plain connection upgraded with STARTTLS before login (IMAP 143, submission 587).
    Starttls,
    /// No TLS at all. Only allowed for a loopback host (`localhost`, `127.x.x.x`, `::1`).
    Plain,
}

impl fmt::Display for Security {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Security::Tls => "tls",
            Security::Starttls => "starttls",
            Security::Plain => "plain",
        })
    }
}

/// How a processed mail is marked, so the next fetch skips it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    /// Add the `\Seen` flag. Simple, but a person reading the mailbox with a
    /// mail client also marks mail seen, and the umpire then skips it.
    #[default]
    Seen,
    /// Add the keyword `mark_keyword` (default `$UmpireDone`); humans can read freely.
    Keyword,
    /// Move the mail to `mark_folder` (MOVE, or COPY + `\Deleted` + UID EXPUNGE).
    Move,
}

/// How the umpire logs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Auth {
    /// A password (`password_command`, `password_file`): IMAP LOGIN, SMTP
    /// AUTH PLAIN or LOGIN.
    #[default]
    Password,
    /// An OAuth2 access token from the `[oauth2]` section: OAUTHBEARER
    /// (RFC 7628) where offered, else XOAUTH2.
    Oauth2,
}

/// A settings value that is wrong, with the section and key to fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("[{section}] {key}: {message}")]
pub struct SettingsError {
    /// `imap` or `smtp`.
    pub section: &'static str,
    /// The key to fix.
    pub key: &'static str,
    /// What is wrong with it.
    pub message: String,
}

impl From<SettingsError> for MailError {
    fn from(e: SettingsError) -> MailError {
        MailError::Config(e.to_string())
    }
}

fn err(section: &'static str, key: &'static str, message: impl Into<String>) -> SettingsError {
    SettingsError {
        section,
        key,
        message: message.into(),
    }
}

/// The `[imap]` section: where the umpire reads its mail.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImapSettings {
    /// Server host name (or IP address); also the name its certificate must carry.
    pub host: String,
    /// Port; default 993 for `tls`, 143 otherwise.
    #[serde(default)]
    pub port: Option<u16>,
    /// Connection security; default `tls`.
    #[serde(default = "default_tls")]
    pub security: Security,
    /// Login name.
    pub username: String,
    /// How to log in; default `password`.
    #[serde(default)]
    pub auth: Auth,
    /// The access tokens for `auth = "oauth2"`: not read from this section
    /// but set by whoever loads the settings (the service, from `[oauth2]`).
    #[serde(skip)]
    pub oauth2: Option<crate::oauth2::TokenSource>,
    /// Shell command whose first line of output is the password.
    #[serde(default)]
    pub password_command: Option<String>,
    /// File whose first line is the password.
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    /// The password itself. Discouraged: see the module docs.
    #[serde(default)]
    pub password: Option<String>,
    /// PEM file with the CA certificate(s) to trust instead of the public roots.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    /// The folder new mail is read from; default `INBOX`.
    #[serde(default = "default_folder")]
    pub folder: String,
    /// How processed mail is marked; default `seen`.
    #[serde(default)]
    pub mark: Mark,
    /// The keyword for `mark = "keyword"`; default `$UmpireDone`.
    #[serde(default = "default_keyword")]
    pub mark_keyword: String,
    /// The folder for `mark = "move"`; default `umpire/done`. Created if missing.
    #[serde(default = "default_mark_folder")]
    pub mark_folder: String,
    /// Mails larger than this are not downloaded; default 10 MiB.
    #[serde(default = "default_max_message_bytes")]
    pub max_message_bytes: u64,
    /// Use IDLE when the server offers it; default true.
    #[serde(default = "default_true")]
    pub idle: bool,
    /// Polling interval when IDLE is not used; default 60.
    #[serde(default = "default_poll")]
    pub poll_interval_secs: u64,
    /// Timeout for the TCP connect, and for the TLS handshake (and
    /// STARTTLS) in all; default 30.
    #[serde(default = "default_connect_timeout")]
    pub connect_timeout_secs: u64,
    /// Timeout for each answer of the server as a whole (a mail's body gets
    /// a second more per 32 KiB), however the server paces its bytes;
    /// default 120.
    #[serde(default = "default_io_timeout")]
    pub io_timeout_secs: u64,
    /// First reconnect delay after a failure; default 2.
    #[serde(default = "default_backoff_initial")]
    pub backoff_initial_secs: u64,
    /// Longest reconnect delay; default 300.
    #[serde(default = "default_backoff_max")]
    pub backoff_max_secs: u64,
}

/// The `[smtp]` section: where the umpire hands its mail over.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmtpSettings {
    /// Server host name (or IP address); also the name its certificate must carry.
    pub host: String,
    /// Port; default 465 for `tls`, 587 for `starttls`, 25 for `plain`.
    #[serde(default)]
    pub port: Option<u16>,
    /// Connection security; default `starttls`.
    #[serde(default = "default_starttls")]
    pub security: Security,
    /// Login name for SMTP AUTH; leave out to send without AUTH.
    #[serde(default)]
    pub username: Option<String>,
    /// How to log in; default `password`.
    #[serde(default)]
    pub auth: Auth,
    /// The access tokens for `auth = "oauth2"`, set as for [`ImapSettings::oauth2`].
    #[serde(skip)]
    pub oauth2: Option<crate::oauth2::TokenSource>,
    /// Shell command whose first line of output is the password.
    #[serde(default)]
    pub password_command: Option<String>,
    /// File whose first line is the password.
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    /// The password itself. Discouraged: see the module docs.
    #[serde(default)]
    pub password: Option<String>,
    /// PEM file with the CA certificate(s) to trust instead of the public roots.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    /// Name given in EHLO; default: this machine's host name.
    #[serde(default)]
    pub hello_name: Option<String>,
    /// Timeout for connecting, for the TLS handshake, and for each SMTP
    /// reply as a whole (sending a mail's body gets a second more per 32
    /// KiB), however the server paces its bytes; default 60.
    #[serde(default = "default_smtp_timeout")]
    pub timeout_secs: u64,
}

fn default_tls() -> Security {
    Security::Tls
}
fn default_starttls() -> Security {
    Security::Starttls
}
fn default_folder() -> String {
    "INBOX".into()
}
fn default_keyword() -> String {
    "$UmpireDone".into()
}
fn default_mark_folder() -> String {
    "umpire/done".into()
}
fn default_max_message_bytes() -> u64 {
    10 * 1024 * 1024
}
fn default_true() -> bool {
    true
}
fn default_poll() -> u64 {
    60
}
fn default_connect_timeout() -> u64 {
    30
}
fn default_io_timeout() -> u64 {
    120
}
fn default_backoff_initial() -> u64 {
    2
}
fn default_backoff_max() -> u64 {
    300
}
fn default_smtp_timeout() -> u64 {
    60
}

// Hand-written so a password never ends up in a log line.
impl fmt::Debug for ImapSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapSettings")
            .field("host", &self.host)
            .field("port", &self.port())
            .field("security", &self.security)
            .field("username", &self.username)
            .field("auth", &self.auth)
            .field(
                "password",
                &password_kind(&self.password_command, &self.password_file, &self.password),
            )
            .field("ca_file", &self.ca_file)
            .field("folder", &self.folder)
            .field("mark", &self.mark)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for SmtpSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SmtpSettings")
            .field("host", &self.host)
            .field("port", &self.port())
            .field("security", &self.security)
            .field("username", &self.username)
            .field("auth", &self.auth)
            .field(
                "password",
                &password_kind(&self.password_command, &self.password_file, &self.password),
            )
            .field("ca_file", &self.ca_file)
            .finish_non_exhaustive()
    }
}

fn password_kind(
    cmd: &Option<String>,
    file: &Option<PathBuf>,
    inline: &Option<String>,
) -> &'static str {
    match (cmd, file, inline) {
        (Some(_), _, _) => "<from password_command>",
        (_, Some(_), _) => "<from password_file>",
        (_, _, Some(_)) => "<inline>",
        _ => "<none>",
    }
}

impl ImapSettings {
    /// Settings with every default, for `host`/`security`/`username`; set a
    /// password source before use.
    pub fn new(host: &str, security: Security, username: &str) -> ImapSettings {
        ImapSettings {
            host: host.into(),
            port: None,
            security,
            username: username.into(),
            auth: Auth::Password,
            oauth2: None,
            password_command: None,
            password_file: None,
            password: None,
            ca_file: None,
            folder: default_folder(),
            mark: Mark::default(),
            mark_keyword: default_keyword(),
            mark_folder: default_mark_folder(),
            max_message_bytes: default_max_message_bytes(),
            idle: true,
            poll_interval_secs: default_poll(),
            connect_timeout_secs: default_connect_timeout(),
            io_timeout_secs: default_io_timeout(),
            backoff_initial_secs: default_backoff_initial(),
            backoff_max_secs: default_backoff_max(),
        }
    }

    /// The port in effect.
    pub fn port(&self) -> u16 {
        self.port.unwrap_or(match self.security {
            Security::Tls => 993,
            Security::Starttls | Security::Plain => 143,
        })
    }

    /// Checks every value without touching the network or running anything.
    pub fn validate(&self) -> Result<(), SettingsError> {
        const S: &str = "imap";
        validate_host(S, &self.host, self.security)?;
        if self.port == Some(0) {
            return Err(err(S, "port", "must be 1-65535"));
        }
        if self.username.is_empty() {
            return Err(err(S, "username", "must not be empty"));
        }
        validate_credentials(
            S,
            self.auth,
            &self.password_command,
            &self.password_file,
            &self.password,
        )?;
        validate_folder(S, "folder", &self.folder)?;
        match self.mark {
            Mark::Seen => {}
            Mark::Keyword => validate_keyword(&self.mark_keyword)?,
            Mark::Move => {
                validate_folder(S, "mark_folder", &self.mark_folder)?;
                if self.mark_folder.eq_ignore_ascii_case(&self.folder) {
                    return Err(err(S, "mark_folder", "must differ from folder"));
                }
            }
        }
        if self.max_message_bytes < 1024 {
            return Err(err(S, "max_message_bytes", "must be at least 1024"));
        }
        for (key, v) in [
            ("poll_interval_secs", self.poll_interval_secs),
            ("connect_timeout_secs", self.connect_timeout_secs),
            ("io_timeout_secs", self.io_timeout_secs),
            ("backoff_initial_secs", self.backoff_initial_secs),
            ("backoff_max_secs", self.backoff_max_secs),
        ] {
            if v == 0 {
                return Err(err(S, key, "must be at least 1"));
            }
        }
        if self.backoff_max_secs < self.backoff_initial_secs {
            return Err(err(
                S,
                "backoff_max_secs",
                "must not be below backoff_initial_secs",
            ));
        }
        Ok(())
    }

    /// Resolves the password (runs `password_command`, reads `password_file`).
    pub fn resolve_password(&self) -> Result<String, SettingsError> {
        resolve_password(
            "imap",
            &self.password_command,
            &self.password_file,
            &self.password,
            Duration::from_secs(self.connect_timeout_secs.max(30)),
        )?
        .ok_or_else(|| err("imap", "password_command", "no password source given"))
    }

    /// What to log in with: the password resolved, or the token source.
    pub fn credential(&self) -> Result<Credential, SettingsError> {
        match self.auth {
            Auth::Password => self.resolve_password().map(Credential::Password),
            Auth::Oauth2 => oauth2_source("imap", &self.oauth2).map(Credential::OAuth2),
        }
    }

    /// Connects, logs in and selects the folder (creating `mark_folder` when
    /// `mark = "move"`), saying which step failed. Backs `umpire config check`.
    pub fn check(&self) -> Result<CheckReport, CheckError> {
        super::imap::check(self)
    }
}

impl SmtpSettings {
    /// Settings with every default, for `host`/`security`, without AUTH.
    pub fn new(host: &str, security: Security) -> SmtpSettings {
        SmtpSettings {
            host: host.into(),
            port: None,
            security,
            username: None,
            auth: Auth::Password,
            oauth2: None,
            password_command: None,
            password_file: None,
            password: None,
            ca_file: None,
            hello_name: None,
            timeout_secs: default_smtp_timeout(),
        }
    }

    /// The port in effect.
    pub fn port(&self) -> u16 {
        self.port.unwrap_or(match self.security {
            Security::Tls => 465,
            Security::Starttls => 587,
            Security::Plain => 25,
        })
    }

    /// Checks every value without touching the network or running anything.
    pub fn validate(&self) -> Result<(), SettingsError> {
        const S: &str = "smtp";
        validate_host(S, &self.host, self.security)?;
        if self.port == Some(0) {
            return Err(err(S, "port", "must be 1-65535"));
        }
        match &self.username {
            Some(u) if u.is_empty() => {
                return Err(err(
                    S,
                    "username",
                    "must not be empty (leave it out for no AUTH)",
                ));
            }
            Some(_) => validate_credentials(
                S,
                self.auth,
                &self.password_command,
                &self.password_file,
                &self.password,
            )?,
            None => {
                if self.auth == Auth::Oauth2 {
                    return Err(err(S, "username", "auth = \"oauth2\" needs the username"));
                }
                if self.password_command.is_some()
                    || self.password_file.is_some()
                    || self.password.is_some()
                {
                    return Err(err(S, "username", "a password is given but no username"));
                }
            }
        }
        if let Some(h) = &self.hello_name
            && (h.is_empty()
                || !h
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-'))
        {
            return Err(err(
                S,
                "hello_name",
                "must be a host name (letters, digits, '.', '-')",
            ));
        }
        if self.timeout_secs == 0 {
            return Err(err(S, "timeout_secs", "must be at least 1"));
        }
        Ok(())
    }

    /// Resolves the password, if AUTH is configured.
    pub fn resolve_password(&self) -> Result<Option<String>, SettingsError> {
        resolve_password(
            "smtp",
            &self.password_command,
            &self.password_file,
            &self.password,
            Duration::from_secs(self.timeout_secs.max(30)),
        )
    }

    /// What to log in with, if AUTH is configured: the password resolved,
    /// or the token source.
    pub fn credential(&self) -> Result<Option<Credential>, SettingsError> {
        match (self.auth, &self.username) {
            (_, None) => Ok(None),
            (Auth::Password, Some(_)) => Ok(self.resolve_password()?.map(Credential::Password)),
            (Auth::Oauth2, Some(_)) => {
                oauth2_source("smtp", &self.oauth2).map(|s| Some(Credential::OAuth2(s)))
            }
        }
    }

    /// Connects, does TLS and AUTH as configured, and quits without sending,
    /// saying which step failed. Backs `umpire config check`.
    pub fn check(&self) -> Result<CheckReport, CheckError> {
        super::smtp::check(self)
    }
}

fn oauth2_source(
    section: &'static str,
    source: &Option<crate::oauth2::TokenSource>,
) -> Result<crate::oauth2::TokenSource, SettingsError> {
    source.clone().ok_or_else(|| {
        err(
            section,
            "auth",
            "auth = \"oauth2\" needs an [oauth2] section",
        )
    })
}

/// What a transport logs in with, resolved from its settings.
#[derive(Clone)]
pub enum Credential {
    /// A password.
    Password(String),
    /// OAuth2 access tokens.
    OAuth2(crate::oauth2::TokenSource),
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Credential::Password(_) => "Credential::Password(..)",
            Credential::OAuth2(_) => "Credential::OAuth2(..)",
        })
    }
}

impl Credential {
    /// The check's credential step: the password was had; or, for OAuth2,
    /// a refresh at the token endpoint (so `config check` proves the
    /// refresh token still works), saying which part failed.
    pub(crate) fn check(&self, report: &mut CheckReport) -> Result<(), CheckError> {
        match self {
            Credential::Password(_) => report.ok(CheckStep::Password, "password obtained"),
            Credential::OAuth2(src) => {
                let t = src.refresh().map_err(|e| CheckError {
                    step: CheckStep::Token,
                    error: e.into(),
                })?;
                report.ok(
                    CheckStep::Token,
                    format!(
                        "refreshed at {} (valid for {} s)",
                        src.token_url(),
                        t.expires_at.saturating_sub(crate::oauth2::now_secs())
                    ),
                );
            }
        }
        Ok(())
    }

    /// The step a failure to get this credential is reported under.
    pub(crate) fn step(auth: Auth) -> CheckStep {
        match auth {
            Auth::Password => CheckStep::Password,
            Auth::Oauth2 => CheckStep::Token,
        }
    }
}

fn validate_host(
    section: &'static str,
    host: &str,
    security: Security,
) -> Result<(), SettingsError> {
    if host.is_empty() || host.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(err(section, "host", format!("{host:?} is not a host name")));
    }
    if security == Security::Plain && !is_loopback_name(host) {
        return Err(err(
            section,
            "security",
            format!(
                "\"plain\" sends the password and the mail unencrypted, so it is only allowed \
                 for a loopback host (localhost, 127.0.0.1, ::1), not {host:?}: use \"tls\" or \"starttls\""
            ),
        ));
    }
    Ok(())
}

/// Whether `host` names this machine without asking DNS.
pub fn is_loopback_name(host: &str) -> bool {
    let h = host.trim_start_matches('[').trim_end_matches(']');
    h.eq_ignore_ascii_case("localhost")
        || h.parse::<std::net::IpAddr>()
            .map(|ip| ip.is_loopback())
            .unwrap_or(false)
}

/// A password source for `auth = "password"`; none for `"oauth2"`.
fn validate_credentials(
    section: &'static str,
    auth: Auth,
    cmd: &Option<String>,
    file: &Option<PathBuf>,
    inline: &Option<String>,
) -> Result<(), SettingsError> {
    match auth {
        Auth::Password => validate_password_source(section, cmd, file, inline, true),
        Auth::Oauth2 if cmd.is_some() || file.is_some() || inline.is_some() => Err(err(
            section,
            "auth",
            "auth = \"oauth2\" takes no password: the [oauth2] section gives the tokens",
        )),
        Auth::Oauth2 => Ok(()),
    }
}

fn validate_password_source(
    section: &'static str,
    cmd: &Option<String>,
    file: &Option<PathBuf>,
    inline: &Option<String>,
    required: bool,
) -> Result<(), SettingsError> {
    let n = [cmd.is_some(), file.is_some(), inline.is_some()]
        .iter()
        .filter(|b| **b)
        .count();
    if n > 1 {
        return Err(err(
            section,
            "password_command",
            "give only one of password_command, password_file and password",
        ));
    }
    if n == 0 && required {
        return Err(err(
            section,
            "password_command",
            "no password: set password_command (its first output line is used) or password_file",
        ));
    }
    if let Some(c) = cmd
        && c.trim().is_empty()
    {
        return Err(err(section, "password_command", "must not be empty"));
    }
    Ok(())
}

fn validate_folder(
    section: &'static str,
    key: &'static str,
    name: &str,
) -> Result<(), SettingsError> {
    if name.is_empty() {
        return Err(err(section, key, "must not be empty"));
    }
    // Non-ASCII names need modified UTF-7, which is not implemented; wildcards
    // and control characters would change what LIST/SELECT mean.
    if let Some(c) = name
        .chars()
        .find(|c| !c.is_ascii() || c.is_ascii_control() || matches!(c, '*' | '%' | '"' | '\\'))
    {
        return Err(err(
            section,
            key,
            format!("{name:?}: the character {c:?} is not supported in folder names"),
        ));
    }
    if name.starts_with('/') || name.ends_with('/') || name.contains("//") {
        return Err(err(
            section,
            key,
            format!("{name:?}: empty level between '/'"),
        ));
    }
    Ok(())
}

fn validate_keyword(k: &str) -> Result<(), SettingsError> {
    // An IMAP flag keyword is an atom: no spaces, specials or wildcards, and
    // it must not start with '\' (those are system flags).
    let ok = !k.is_empty()
        && !k.starts_with('\\')
        && k.chars()
            .all(|c| c.is_ascii_graphic() && !"(){%*\"\\]".contains(c));
    if ok {
        Ok(())
    } else {
        Err(err(
            "imap",
            "mark_keyword",
            format!(
                "{k:?} is not an IMAP keyword (letters, digits and $_-.:+ are safe, e.g. \"$UmpireDone\")"
            ),
        ))
    }
}

fn resolve_password(
    section: &'static str,
    cmd: &Option<String>,
    file: &Option<PathBuf>,
    inline: &Option<String>,
    timeout: Duration,
) -> Result<Option<String>, SettingsError> {
    if let Some(c) = cmd {
        return run_password_command(section, c, timeout).map(Some);
    }
    if let Some(path) = file {
        return read_password_file(section, path).map(Some);
    }
    if let Some(p) = inline {
        tracing::warn!(
            "[{section}] password is written inline in the settings file; \
             prefer password_command or password_file"
        );
        if p.is_empty() {
            return Err(err(section, "password", "must not be empty"));
        }
        return Ok(Some(p.clone()));
    }
    Ok(None)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("").trim_end_matches('\r')
}

fn read_password_file(section: &'static str, path: &Path) -> Result<String, SettingsError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        err(
            section,
            "password_file",
            format!("reading {}: {e}", path.display()),
        )
    })?;
    // Refused, as the OAuth2 secrets file is (and as ssh refuses a private
    // key): a password others can read is a password others have.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if let Ok(meta) = std::fs::metadata(path)
            && meta.permissions().mode() & 0o077 != 0
        {
            return Err(err(
                section,
                "password_file",
                format!(
                    "{} can be read by other users than its owner: chmod 600 it",
                    path.display()
                ),
            ));
        }
    }
    let line = first_line(&text);
    if line.is_empty() {
        return Err(err(
            section,
            "password_file",
            format!("{} starts with an empty line", path.display()),
        ));
    }
    Ok(line.to_string())
}

/// Runs `sh -c command` with no input and takes the first line of its output.
/// A command that hangs (say, a pinentry waiting for a person) is killed
/// after `timeout`.
fn run_password_command(
    section: &'static str,
    command: &str,
    timeout: Duration,
) -> Result<String, SettingsError> {
    use std::process::{Command, Stdio};
    let key = "password_command";
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| err(section, key, format!("could not start sh: {e}")))?;
    // Read both pipes on threads: a chatty command must not block on a full pipe.
    let out = child.stdout.take().map(|mut s| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = s.read_to_end(&mut v);
            v
        })
    });
    let errout = child.stderr.take().map(|mut s| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = s.read_to_end(&mut v);
            v
        })
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(err(
                    section,
                    key,
                    format!("still running after {}s; killed", timeout.as_secs()),
                ));
            }
            Err(e) => return Err(err(section, key, format!("waiting for it: {e}"))),
        }
    };
    let stdout = out.and_then(|h| h.join().ok()).unwrap_or_default();
    let stderr = errout.and_then(|h| h.join().ok()).unwrap_or_default();
    if !status.success() {
        let why = String::from_utf8_lossy(&stderr);
        let why: String = first_line(&why).chars().take(200).collect();
        return Err(err(
            section,
            key,
            format!(
                "failed ({status}){}",
                if why.is_empty() {
                    String::new()
                } else {
                    format!(": {why}")
                }
            ),
        ));
    }
    let text = String::from_utf8(stdout)
        .map_err(|_| err(section, key, "printed something that is not UTF-8"))?;
    let line = first_line(&text);
    if line.is_empty() {
        return Err(err(section, key, "printed nothing on its first line"));
    }
    Ok(line.to_string())
}

/// The step of a connection check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckStep {
    /// The settings themselves (before any network use).
    Settings,
    /// Getting the password (command or file).
    Password,
    /// Getting an OAuth2 access token (`auth = "oauth2"`): the secrets file
    /// and the token endpoint.
    Token,
    /// Resolving the host name.
    Dns,
    /// Opening the TCP connection.
    Connect,
    /// TLS handshake, certificate check, or STARTTLS.
    Tls,
    /// The server's greeting and first exchanges.
    Greeting,
    /// Logging in (IMAP LOGIN, SMTP AUTH).
    Login,
    /// Selecting the folder, creating the mark folder, checking keywords.
    Folder,
}

impl fmt::Display for CheckStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CheckStep::Settings => "settings",
            CheckStep::Password => "password",
            CheckStep::Token => "OAuth2 token",
            CheckStep::Dns => "DNS lookup",
            CheckStep::Connect => "TCP connect",
            CheckStep::Tls => "TLS",
            CheckStep::Greeting => "server greeting",
            CheckStep::Login => "login",
            CheckStep::Folder => "folder",
        })
    }
}

/// A failed check: the step that failed and why.
#[derive(Debug, thiserror::Error)]
#[error("{step} failed: {error}")]
pub struct CheckError {
    /// The step that failed.
    pub step: CheckStep,
    /// Why.
    pub error: MailError,
}

/// What a successful check saw, one line per step, for printing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// `(step, what was seen)`, in order.
    pub steps: Vec<(CheckStep, String)>,
}

impl CheckReport {
    pub(crate) fn ok(&mut self, step: CheckStep, what: impl Into<String>) {
        self.steps.push((step, what.into()));
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (step, what) in &self.steps {
            writeln!(f, "ok  {step}: {what}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imap(toml_text: &str) -> Result<ImapSettings, toml::de::Error> {
        toml::from_str::<ImapSettings>(toml_text)
    }

    #[test]
    fn defaults_follow_security() {
        let s = imap("host = \"mail.example.org\"\nusername = \"u\"\npassword_file = \"/x\"\n")
            .unwrap();
        assert_eq!(s.security, Security::Tls);
        assert_eq!(s.port(), 993);
        assert_eq!(s.folder, "INBOX");
        assert_eq!(s.mark, Mark::Seen);
        s.validate().unwrap();
        let t: SmtpSettings = toml::from_str("host = \"mail.example.org\"").unwrap();
        assert_eq!((t.security, t.port()), (Security::Starttls, 587));
        t.validate().unwrap();
    }

    #[test]
    fn unknown_keys_and_values_are_refused() {
        let e = imap("host = \"h\"\nusername = \"u\"\npasword_file = \"/x\"\n").unwrap_err();
        assert!(e.to_string().contains("pasword_file"), "{e}");
        let e = imap("host = \"h\"\nusername = \"u\"\nsecurity = \"ssl\"\n").unwrap_err();
        assert!(e.to_string().contains("ssl"), "{e}");
    }

    #[test]
    fn validation_names_the_key() {
        let mut s = ImapSettings::new("mail.example.org", Security::Plain, "u");
        s.password_file = Some("/x".into());
        let e = s.validate().unwrap_err();
        assert_eq!((e.section, e.key), ("imap", "security"));
        assert!(e.to_string().contains("loopback"), "{e}");
        s.host = "127.0.0.1".into();
        s.validate().unwrap();
        s.password = Some("p".into());
        assert_eq!(s.validate().unwrap_err().key, "password_command");
        s.password = None;
        s.mark = Mark::Keyword;
        s.mark_keyword = "\\Seen".into();
        assert_eq!(s.validate().unwrap_err().key, "mark_keyword");
        s.mark = Mark::Move;
        s.mark_folder = "INBOX".into();
        assert_eq!(s.validate().unwrap_err().key, "mark_folder");
        s.mark_folder = "Ümpire".into();
        assert_eq!(s.validate().unwrap_err().key, "mark_folder");
        s.mark_folder = "umpire/done".into();
        s.backoff_max_secs = 1;
        assert_eq!(s.validate().unwrap_err().key, "backoff_max_secs");

        let mut t = SmtpSettings::new("localhost", Security::Plain);
        t.validate().unwrap();
        t.password_file = Some("/x".into());
        assert_eq!(t.validate().unwrap_err().key, "username");
    }

    #[test]
    fn password_sources() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = ImapSettings::new("localhost", Security::Plain, "u");
        s.password_command = Some("printf 'from-cmd\\nsecond line\\n'".into());
        assert_eq!(s.resolve_password().unwrap(), "from-cmd");
        s.password_command = Some("echo oops >&2; exit 3".into());
        let e = s.resolve_password().unwrap_err().to_string();
        assert!(e.contains("password_command") && e.contains("oops"), "{e}");
        s.password_command = None;
        let f = dir.path().join("pw");
        std::fs::write(&f, "from-file\r\n").unwrap();
        s.password_file = Some(f.clone());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o640)).unwrap();
            let e = s.resolve_password().unwrap_err().to_string();
            assert!(e.contains("chmod 600") && !e.contains("from-file"), "{e}");
            std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        assert_eq!(s.resolve_password().unwrap(), "from-file");
        s.password_file = Some(dir.path().join("missing"));
        assert!(
            s.resolve_password()
                .unwrap_err()
                .to_string()
                .contains("missing")
        );
        s.password_file = None;
        s.password = Some("inline".into());
        assert_eq!(s.resolve_password().unwrap(), "inline");
    }

    #[test]
    fn hanging_password_command_is_killed() {
        let start = Instant::now();
        let e = run_password_command("imap", "sleep 30", Duration::from_millis(300)).unwrap_err();
        assert!(e.message.contains("killed"), "{e}");
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn debug_hides_passwords() {
        let mut s = ImapSettings::new("localhost", Security::Plain, "u");
        s.password = Some("hunter2".into());
        assert!(!format!("{s:?}").contains("hunter2"));
        let mut t = SmtpSettings::new("localhost", Security::Plain);
        t.password = Some("hunter2".into());
        assert!(!format!("{t:?}").contains("hunter2"));
    }
}
