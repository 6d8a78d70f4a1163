//! `umpire.toml`: the data directory's configuration, on embedded defaults.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// File name of the configuration inside the data directory.
pub const FILE: &str = "umpire.toml";

/// A configuration problem.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {problem}")]
    Invalid {
        path: String,
        /// Boxed: a TOML error is large, and every `ServiceError` carries room for it.
        #[source]
        problem: Box<ConfigProblem>,
    },
}

/// What is wrong in the text of an `umpire.toml`.
#[derive(Debug, thiserror::Error)]
pub enum ConfigProblem {
    /// The text is not TOML of the configuration's shape.
    #[error("{0}")]
    Toml(#[from] toml::de::Error),
    /// `[imap]` does not hold usable settings.
    #[error("{0}")]
    Imap(umpire_mail::settings::SettingsError),
    /// `[smtp]` does not hold usable settings.
    #[error("{0}")]
    Smtp(umpire_mail::settings::SettingsError),
    /// `[oauth2]` does not hold usable settings.
    #[error("{0}")]
    OAuth2(umpire_mail::settings::SettingsError),
    /// `auth = "oauth2"` in `[imap]` or `[smtp]` without an `[oauth2]` section.
    #[error("[{0}] auth = \"oauth2\" needs an [oauth2] section (see `umpire auth oauth2`)")]
    NoOAuth2(&'static str),
    /// `[intake] kind = "imap"` without an `[imap]` section.
    #[error("[intake] kind = \"imap\" needs an [imap] section")]
    NoImap,
    /// An intake kind this umpire does not have.
    #[error("[intake] kind = {0:?}: known kinds are maildir and imap")]
    IntakeKind(String),
    /// `[delivery] kind = "smtp"` without an `[smtp]` section.
    #[error("[delivery] kind = \"smtp\" needs an [smtp] section")]
    NoSmtp,
    /// A delivery kind this umpire does not have.
    #[error("[delivery] kind = {0:?}: known kinds are file and smtp")]
    DeliveryKind(String),
    /// The umpire's address is not one mail can be written to.
    #[error("[umpire] address: {0}")]
    Address(umpire_mail::mime::AddressError),
    /// The umpire's name holds a line break or control character.
    #[error(
        "[umpire] name = {0:?} holds a line break or control character; it goes into every mail's From header"
    )]
    NameControl(String),
    /// The umpire's name is empty or too long.
    #[error("[umpire] name = {0:?}: give 1 to {MAX_NAME_CHARS} characters")]
    NameLength(String),
    /// No key file is named.
    #[error("[umpire] key is empty; name the umpire's key file")]
    NoKey,
    /// `max_mail_bytes` is too small for a move.
    #[error("[limits] max_mail_bytes = {0}: at least {MIN_MAIL_BYTES}, or no move fits")]
    MailBytes(usize),
    /// `batch = 0`.
    #[error("[limits] batch = 0 would read no mail at all; give at least 1")]
    NoBatch,
    /// `commit_every = 0`.
    #[error("[limits] commit_every = 0: give at least 1")]
    NoCommit,
}

/// Who the umpire is.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Identity {
    /// Display name on outgoing mail.
    pub name: String,
    /// The mailbox players write to; results come from it.
    pub address: String,
    /// The umpire's ed25519 private key (OpenSSH), relative to the data directory.
    pub key: PathBuf,
}

impl Default for Identity {
    fn default() -> Self {
        Identity {
            name: "Umpire".into(),
            address: "umpire@localhost".into(),
            key: "umpire.key".into(),
        }
    }
}

/// Longest display name on outgoing mail.
pub const MAX_NAME_CHARS: usize = 64;

impl Identity {
    fn check_name(&self) -> Result<(), ConfigProblem> {
        let n = &self.name;
        if n.chars().any(char::is_control) {
            return Err(ConfigProblem::NameControl(n.clone()));
        }
        if n.trim().is_empty() || n.chars().count() > MAX_NAME_CHARS {
            return Err(ConfigProblem::NameLength(n.clone()));
        }
        Ok(())
    }
}

/// Where mail comes from.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IntakeConfig {
    /// `maildir` (the embedded default) or `imap`.
    pub kind: String,
    /// The Maildir, relative to the data directory.
    pub maildir: PathBuf,
}

impl Default for IntakeConfig {
    fn default() -> Self {
        IntakeConfig {
            kind: "maildir".into(),
            maildir: "maildir".into(),
        }
    }
}

/// Where mail goes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DeliveryConfig {
    /// `file` (the embedded default: one .eml per mail) or `smtp`.
    pub kind: String,
    /// The outbox folder, relative to the data directory.
    pub outbox: PathBuf,
}

impl Default for DeliveryConfig {
    fn default() -> Self {
        DeliveryConfig {
            kind: "file".into(),
            outbox: "outbox".into(),
        }
    }
}

/// Caps on what the umpire reads.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Mails larger than this are answered "too big" and not read.
    pub max_mail_bytes: usize,
    /// Most mails handled in one poll.
    pub batch: usize,
    /// Mails committed together in one transaction (one flush per group).
    pub commit_every: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_mail_bytes: 2 * 1024 * 1024,
            batch: 1000,
            commit_every: 100,
        }
    }
}

/// Smallest `max_mail_bytes`: a move file and its signature fit in a mail this size.
pub const MIN_MAIL_BYTES: usize = 16 * 1024;

impl Limits {
    fn check(&self) -> Result<(), ConfigProblem> {
        if self.max_mail_bytes < MIN_MAIL_BYTES {
            return Err(ConfigProblem::MailBytes(self.max_mail_bytes));
        }
        if self.batch == 0 {
            return Err(ConfigProblem::NoBatch);
        }
        if self.commit_every == 0 {
            return Err(ConfigProblem::NoCommit);
        }
        Ok(())
    }
}

/// Deadlines for games that do not set their own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Deadlines {
    /// Hours a side has for each expected move; 0 for no deadlines.
    pub hours: u32,
    /// Reminders, in hours before the deadline.
    pub reminders: Vec<u32>,
    /// Hours after the deadline before the stated default is applied.
    pub grace_hours: u32,
}

impl Default for Deadlines {
    fn default() -> Self {
        Deadlines {
            hours: 72,
            reminders: vec![48, 24, 6],
            grace_hours: 24,
        }
    }
}

/// The whole configuration.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Config {
    pub umpire: Identity,
    pub intake: IntakeConfig,
    pub delivery: DeliveryConfig,
    pub limits: Limits,
    pub deadlines: Deadlines,
    /// The club's mailbox, for `[intake] kind = "imap"`.
    pub imap: Option<umpire_mail::settings::ImapSettings>,
    /// The club's mail server, for `[delivery] kind = "smtp"`.
    pub smtp: Option<umpire_mail::settings::SmtpSettings>,
    /// The OAuth2 provider and client, for `auth = "oauth2"` in `[imap]`
    /// or `[smtp]`; one refresh token serves both.
    pub oauth2: Option<umpire_mail::oauth2::OAuth2Settings>,
    /// The public game pages (`umpire site`).
    pub site: SiteConfig,
    /// The map pictures mails carry.
    pub pictures: PicturesConfig,
    /// How long raw mails are kept, and how often the poll compacts the database.
    pub retention: Retention,
}

/// `[retention]`: raw mails kept for `keep_mail_days` after they were
/// handled; the poll runs `umpire compact` when the last one is
/// `compact_every_days` old.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Retention {
    /// Days a raw mail is kept after it was handled (what `compact` drops
    /// past; `umpire compact --keep-mail-days` overrides it).
    pub keep_mail_days: u32,
    /// Days between compactions run by the poll (after its work, when the
    /// last is older than this); 0 = never (`umpire compact` from cron).
    pub compact_every_days: u32,
}

impl Default for Retention {
    fn default() -> Self {
        Retention {
            keep_mail_days: 90,
            compact_every_days: 7,
        }
    }
}

/// `[pictures]`: the map picture (`map.png`) a result mail carries.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PicturesConfig {
    /// What a result mail's picture shows.
    pub result: ResultPicture,
}

/// What a result mail's `map.png` shows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResultPicture {
    /// The part of the map around the last action, with the key (the whole
    /// map when the action spans most of it); `command: map` mails the whole.
    #[default]
    Action,
    /// The whole map.
    Whole,
    /// No picture: the mail's text map only (`command: map` still mails one).
    None,
}

/// `[site]`: where the public games' pages go. When set, every poll that
/// changed something rewrites them, and `umpire site` writes there by default.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SiteConfig {
    /// The folder the pages go to, relative to the data directory (unset: no site).
    pub out: Option<PathBuf>,
}

impl Config {
    /// Reads `dir/umpire.toml`; a missing file means the defaults.
    pub fn load(dir: &Path) -> Result<Config, ConfigError> {
        let path = dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
            Err(source) => {
                return Err(ConfigError::Read {
                    path: path.display().to_string(),
                    source,
                });
            }
        };
        Config::from_text(&text).map_err(|problem| ConfigError::Invalid {
            path: path.display().to_string(),
            problem: Box::new(problem),
        })
    }

    /// Reads and validates the text of an `umpire.toml` (what [`Config::load`]
    /// does after reading the file; the fuzz target calls it directly).
    pub fn from_text(text: &str) -> Result<Config, ConfigProblem> {
        let c: Config = toml::from_str(text)?;
        c.validate()?;
        Ok(c)
    }

    fn validate(&self) -> Result<(), ConfigProblem> {
        match (self.intake.kind.as_str(), &self.imap) {
            ("maildir", _) => {}
            ("imap", Some(imap)) => imap.validate().map_err(ConfigProblem::Imap)?,
            ("imap", None) => return Err(ConfigProblem::NoImap),
            (k, _) => return Err(ConfigProblem::IntakeKind(k.to_string())),
        }
        match (self.delivery.kind.as_str(), &self.smtp) {
            ("file", _) => {}
            ("smtp", Some(smtp)) => smtp.validate().map_err(ConfigProblem::Smtp)?,
            ("smtp", None) => return Err(ConfigProblem::NoSmtp),
            (k, _) => return Err(ConfigProblem::DeliveryKind(k.to_string())),
        }
        self.validate_oauth2()?;
        umpire_mail::mime::check_address(&self.umpire.address).map_err(ConfigProblem::Address)?;
        self.umpire.check_name()?;
        if self.umpire.key.as_os_str().is_empty() {
            return Err(ConfigProblem::NoKey);
        }
        self.limits.check()?;
        Ok(())
    }

    /// `[oauth2]` is valid, and present wherever a transport in use asks for it.
    fn validate_oauth2(&self) -> Result<(), ConfigProblem> {
        use umpire_mail::settings::Auth;
        let imap = self.intake.kind == "imap"
            && self.imap.as_ref().is_some_and(|s| s.auth == Auth::Oauth2);
        let smtp = self.delivery.kind == "smtp"
            && self.smtp.as_ref().is_some_and(|s| s.auth == Auth::Oauth2);
        match &self.oauth2 {
            Some(o) => o.validate().map_err(ConfigProblem::OAuth2),
            None if imap => Err(ConfigProblem::NoOAuth2("imap")),
            None if smtp => Err(ConfigProblem::NoOAuth2("smtp")),
            None => Ok(()),
        }
    }

    /// The mail domain, for Message-IDs.
    pub fn domain(&self) -> &str {
        self.umpire
            .address
            .rsplit('@')
            .next()
            .unwrap_or("localhost")
    }

    /// The text of a fresh `umpire.toml` with every default written out.
    pub fn default_text(address: &str) -> String {
        format!(
            r#"# umpire configuration. Paths are relative to this directory.

[umpire]
name = "Umpire"
address = "{address}"
key = "umpire.key"        # the umpire's ed25519 key; it signs every result

[intake]
kind = "maildir"          # maildir: mail files dropped into maildir/new; imap: see [imap]
maildir = "maildir"

[delivery]
kind = "file"             # file: one .eml per outgoing mail in outbox/; smtp: see [smtp]
outbox = "outbox"

[limits]
max_mail_bytes = 2097152  # bigger mails are answered "too big", not read
batch = 1000              # most mails per poll
commit_every = 100        # mails committed (and flushed to disk) together

[deadlines]               # for games that do not set their own (umpire new --deadline)
hours = 72                # per expected move; 0 = no deadlines
reminders = [48, 24, 6]   # hours before the deadline
grace_hours = 24          # then the game's stated default is applied

[pictures]
result = "action"         # a result mail's map.png: action (the map around it) | whole | none

[retention]
keep_mail_days = 90       # raw mails are dropped this long after they were handled
compact_every_days = 7    # the poll compacts the database this often; 0 = never

# A club mailbox instead of the local Maildir: set [intake] kind = "imap" and
# [imap]
# host = "mail.club.example"
# security = "tls"                     # tls (993) | starttls (143) | plain (loopback only)
# username = "umpire@club.example"
# password_command = "pass show club/umpire"   # or password_file = "/etc/umpire/imap.pw"
# folder = "INBOX"
# mark = "seen"                        # seen | keyword | move (to mark_folder)
# ca_file = "/etc/umpire/club-ca.pem"  # for a self-hosted server's own CA
#
# Sending by SMTP instead of the file outbox: set [delivery] kind = "smtp" and
# [smtp]
# host = "mail.club.example"
# security = "starttls"                # tls (465) | starttls (587) | plain (loopback only)
# username = "umpire@club.example"
# password_command = "pass show club/umpire"
#
# Gmail and Microsoft 365 need OAuth2 instead of a password: auth = "oauth2"
# in [imap] and [smtp] (no password there), and (see `umpire auth oauth2`)
# [oauth2]
# provider = "microsoft"               # gmail | microsoft | generic
# tenant = "club.onmicrosoft.com"      # microsoft only; default "common"
# client_id = "..."                    # the app registration's id
# oauth2_file = "oauth2.secrets"       # refresh_token (and client_secret); chmod 600
"#
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_defaults_read_back_as_the_defaults() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), Config::default_text("gm@club.test")).unwrap();
        let c = Config::load(dir.path()).unwrap();
        assert_eq!(c.umpire.address, "gm@club.test");
        assert_eq!(c.domain(), "club.test");
        assert_eq!(c.limits.batch, Limits::default().batch);
        assert_eq!(c.retention, Retention::default());
    }

    /// `[retention]` reads, defaults to a weekly compaction keeping 90 days
    /// of raw mails, and 0 turns the poll's compaction off.
    #[test]
    fn retention_reads_and_defaults() {
        let d = Config::from_text("").unwrap().retention;
        assert_eq!((d.keep_mail_days, d.compact_every_days), (90, 7));
        let c = Config::from_text("[retention]\ncompact_every_days = 0\n").unwrap();
        assert_eq!(c.retention.compact_every_days, 0);
        assert_eq!(c.retention.keep_mail_days, 90);
        let e = Config::from_text("[retention]\nkeep_days = 3\n").unwrap_err();
        assert!(e.to_string().contains("keep_days"), "{e}");
    }

    #[test]
    fn values_that_would_fail_later_are_refused_at_load() {
        let dir = tempfile::tempdir().unwrap();
        for (text, says) in [
            ("[umpire]\nname = \"Ump\\r\\nBcc: x@y\"\n", "line break"),
            ("[umpire]\nname = \"\"\n", "name"),
            ("[umpire]\naddress = \"umpire@\"\n", "address"),
            ("[umpire]\naddress = \"a..b@x\"\n", "address"),
            ("[limits]\nbatch = 0\n", "batch"),
            ("[limits]\ncommit_every = 0\n", "commit_every"),
            ("[limits]\nmax_mail_bytes = 10\n", "max_mail_bytes"),
        ] {
            std::fs::write(dir.path().join(FILE), text).unwrap();
            let e = Config::load(dir.path()).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    /// Each problem is a case a caller can tell apart, with its old text.
    #[test]
    fn each_problem_is_its_own_case() {
        let problem = |text: &str| Config::from_text(text).unwrap_err();
        assert!(matches!(
            problem("[limits]\nbatch = 0\n"),
            ConfigProblem::NoBatch
        ));
        assert!(matches!(
            problem("[limits]\nmax_mail_bytes = 10\n"),
            ConfigProblem::MailBytes(10)
        ));
        assert!(matches!(
            problem("[intake]\nkind = \"imap\"\n"),
            ConfigProblem::NoImap
        ));
        assert!(matches!(
            problem("[delivery]\nkind = \"pigeon\"\n"),
            ConfigProblem::DeliveryKind(k) if k == "pigeon"
        ));
        assert!(matches!(
            problem("[umpire]\naddress = \"x\"\n"),
            ConfigProblem::Address(_)
        ));
        assert!(matches!(
            problem("[umpire]\nname = \"\"\n"),
            ConfigProblem::NameLength(_)
        ));
        assert!(matches!(
            problem("[limits]\nbatch = \"x\"\n"),
            ConfigProblem::Toml(_)
        ));
        assert_eq!(
            problem("[delivery]\nkind = \"pigeon\"\n").to_string(),
            "[delivery] kind = \"pigeon\": known kinds are file and smtp"
        );
        assert_eq!(
            problem("[umpire]\naddress = \"x\"\n").to_string(),
            "[umpire] address: \"x\" is not a usable mail address: no @"
        );
    }

    #[test]
    fn typos_are_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(FILE), "[umpire]\nadress = \"x@y\"\n").unwrap();
        let e = Config::load(dir.path()).unwrap_err().to_string();
        assert!(e.contains("adress"), "{e}");
    }
}
