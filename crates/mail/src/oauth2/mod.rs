//! OAuth2 for the club's mailbox and mail server: the `[oauth2]` settings
//! (a provider preset or a generic token endpoint), the secrets file (the
//! refresh token and client secret, owner-only), and [`TokenSource`], which
//! hands IMAP and SMTP an access token, cached with its expiry and refreshed
//! at the token endpoint (`grant_type=refresh_token`) when it is within a
//! minute of expiring or a server refused it.
//!
//! ```toml
//! [oauth2]
//! provider = "microsoft"            # "gmail" | "microsoft" | "generic"
//! tenant = "contoso.onmicrosoft.com" # microsoft: the directory (default "common")
//! client_id = "00000000-0000-0000-0000-000000000000"
//! oauth2_file = "oauth2.secrets"    # refresh_token (and client_secret), chmod 600
//! # token_url = "https://..."      # generic: required; presets: their own
//! # scopes = ["..."]               # presets: their own
//! # device_url, authorize_url      # for `umpire auth oauth2`; presets: their own
//! # ca_file, timeout_secs = 30
//! ```
//!
//! Nothing here writes a secret into a log line or an error: errors name the
//! file and the step, never the token.

#![warn(missing_docs)]

pub mod consent;
pub mod http;
pub mod sasl;

use super::MailError;
use super::settings::SettingsError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// A token this close to its expiry is refreshed before use.
pub const REFRESH_MARGIN_SECS: u64 = 60;

/// Which provider's endpoints and scopes to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    /// Google (Gmail, Google Workspace).
    Gmail,
    /// Microsoft 365 (Exchange Online) and Outlook.com.
    Microsoft,
    /// Any other: give `token_url` and `scopes`.
    Generic,
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Provider::Gmail => "gmail",
            Provider::Microsoft => "microsoft",
            Provider::Generic => "generic",
        })
    }
}

/// A provider's public endpoints and scopes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preset {
    /// Where refresh tokens are exchanged for access tokens.
    pub token_url: String,
    /// The device authorization endpoint (RFC 8628), where the provider
    /// allows it for mail.
    pub device_url: Option<String>,
    /// The authorization endpoint for the authorization-code flow.
    pub authorize_url: Option<String>,
    /// The scopes IMAP and SMTP need.
    pub scopes: Vec<String>,
}

/// The scopes a preset asks for, and its endpoints.
pub fn preset(provider: Provider, tenant: &str) -> Option<Preset> {
    match provider {
        // Gmail: developers.google.com/gmail/imap/xoauth2-protocol (scope);
        // developers.google.com/identity/protocols/oauth2/native-app
        // (endpoints). Google's device flow does not allow the mail scope.
        Provider::Gmail => Some(Preset {
            token_url: "https://oauth2.googleapis.com/token".into(),
            device_url: None,
            authorize_url: Some("https://accounts.google.com/o/oauth2/v2/auth".into()),
            scopes: vec!["https://mail.google.com/".into()],
        }),
        // Microsoft: learn.microsoft.com/exchange/client-developer/legacy-protocols/
        // how-to-authenticate-an-imap-pop-smtp-application-by-using-oauth;
        // offline_access is what makes it hand out a refresh token.
        Provider::Microsoft => {
            let base = format!("https://login.microsoftonline.com/{tenant}/oauth2/v2.0");
            Some(Preset {
                token_url: format!("{base}/token"),
                device_url: Some(format!("{base}/devicecode")),
                authorize_url: Some(format!("{base}/authorize")),
                scopes: vec![
                    "https://outlook.office.com/IMAP.AccessAsUser.All".into(),
                    "https://outlook.office.com/SMTP.Send".into(),
                    "offline_access".into(),
                ],
            })
        }
        Provider::Generic => None,
    }
}

/// The `[oauth2]` section.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OAuth2Settings {
    /// The provider preset, or `generic`.
    pub provider: Provider,
    /// Microsoft: the directory (tenant id or domain); default `common`.
    #[serde(default)]
    pub tenant: Option<String>,
    /// The application's (client's) id, from the provider's app registration.
    pub client_id: String,
    /// The file holding `refresh_token` (and `client_secret`, if the app has
    /// one); must be readable by its owner only.
    pub oauth2_file: PathBuf,
    /// The token endpoint; required for `generic`.
    #[serde(default)]
    pub token_url: Option<String>,
    /// The scopes; required for `generic`.
    #[serde(default)]
    pub scopes: Option<Vec<String>>,
    /// The device authorization endpoint, for `umpire auth oauth2`.
    #[serde(default)]
    pub device_url: Option<String>,
    /// The authorization endpoint, for `umpire auth oauth2`.
    #[serde(default)]
    pub authorize_url: Option<String>,
    /// PEM file with the CA certificate(s) to trust for the endpoints instead
    /// of the public roots.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    /// Timeout for one whole exchange with the token endpoint; default 30.
    #[serde(default = "default_timeout")]
    pub timeout_secs: u64,
}

fn default_timeout() -> u64 {
    30
}

impl fmt::Debug for OAuth2Settings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuth2Settings")
            .field("provider", &self.provider)
            .field("client_id", &self.client_id)
            .field("oauth2_file", &self.oauth2_file)
            .field("token_url", &self.token_url())
            .finish_non_exhaustive()
    }
}

fn err(key: &'static str, message: impl Into<String>) -> SettingsError {
    SettingsError {
        section: "oauth2",
        key,
        message: message.into(),
    }
}

impl OAuth2Settings {
    /// Settings for `provider` with every default.
    pub fn new(provider: Provider, client_id: &str, oauth2_file: &Path) -> OAuth2Settings {
        OAuth2Settings {
            provider,
            tenant: None,
            client_id: client_id.into(),
            oauth2_file: oauth2_file.into(),
            token_url: None,
            scopes: None,
            device_url: None,
            authorize_url: None,
            ca_file: None,
            timeout_secs: default_timeout(),
        }
    }

    fn preset(&self) -> Option<Preset> {
        preset(self.provider, self.tenant.as_deref().unwrap_or("common"))
    }

    /// The token endpoint in effect.
    pub fn token_url(&self) -> String {
        self.token_url
            .clone()
            .or_else(|| self.preset().map(|p| p.token_url))
            .unwrap_or_default()
    }

    /// The scopes in effect.
    pub fn scopes(&self) -> Vec<String> {
        self.scopes
            .clone()
            .or_else(|| self.preset().map(|p| p.scopes))
            .unwrap_or_default()
    }

    /// The device authorization endpoint in effect, if any.
    pub fn device_url(&self) -> Option<String> {
        self.device_url
            .clone()
            .or_else(|| self.preset().and_then(|p| p.device_url))
    }

    /// The authorization endpoint in effect, if any.
    pub fn authorize_url(&self) -> Option<String> {
        self.authorize_url
            .clone()
            .or_else(|| self.preset().and_then(|p| p.authorize_url))
    }

    /// Checks every value without touching the network or the files.
    pub fn validate(&self) -> Result<(), SettingsError> {
        if self.client_id.trim().is_empty() {
            return Err(err("client_id", "must not be empty"));
        }
        if self.provider == Provider::Generic {
            if self.token_url.is_none() {
                return Err(err("token_url", "provider = \"generic\" needs token_url"));
            }
            if self.scopes.is_none() {
                return Err(err("scopes", "provider = \"generic\" needs scopes"));
            }
        }
        if let Some(t) = &self.tenant {
            if self.provider != Provider::Microsoft {
                return Err(err("tenant", "only provider = \"microsoft\" has a tenant"));
            }
            if t.is_empty()
                || !t
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || ".-_".contains(c))
            {
                return Err(err("tenant", format!("{t:?} is not a tenant id or domain")));
            }
        }
        http::Url::parse(&self.token_url()).map_err(|m| err("token_url", m))?;
        for (key, url) in [
            ("device_url", self.device_url()),
            ("authorize_url", self.authorize_url()),
        ] {
            if let Some(u) = url {
                http::Url::parse(&u).map_err(|m| err(key, m))?;
            }
        }
        if let Some(s) = self
            .scopes()
            .iter()
            .find(|s| s.is_empty() || s.chars().any(|c| c.is_whitespace() || c.is_control()))
        {
            return Err(err("scopes", format!("{s:?} is not a scope")));
        }
        if self.oauth2_file.as_os_str().is_empty() {
            return Err(err("oauth2_file", "must not be empty"));
        }
        if self.timeout_secs == 0 {
            return Err(err("timeout_secs", "must be at least 1"));
        }
        Ok(())
    }
}

/// What the secrets file holds.
#[derive(Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Secrets {
    /// The long-lived token the access tokens are refreshed with.
    pub refresh_token: String,
    /// The application's secret, for apps registered with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
}

impl fmt::Debug for Secrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secrets { .. }")
    }
}

/// Why no access token could be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OAuth2Error {
    /// The secrets file or the token cache is missing, unreadable, too
    /// widely readable or malformed.
    #[error("{0}")]
    Secrets(String),
    /// The token endpoint could not be reached or answered garbage.
    #[error("the token endpoint {url} cannot be reached: {why}")]
    Unreachable {
        /// The endpoint.
        url: String,
        /// Why.
        why: String,
    },
    /// The token endpoint refused the refresh token (revoked, expired, the
    /// client id wrong): only a new refresh token helps.
    #[error(
        "the token endpoint {url} refused the refresh token: {error}{}; \
         get a new one with `umpire auth oauth2`",
        description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default()
    )]
    Refused {
        /// The endpoint.
        url: String,
        /// The OAuth2 error code (`invalid_grant`, ...).
        error: String,
        /// The endpoint's own words.
        description: Option<String>,
    },
}

impl From<OAuth2Error> for MailError {
    fn from(e: OAuth2Error) -> MailError {
        match e {
            OAuth2Error::Unreachable { .. } => MailError::Transient(e.to_string()),
            OAuth2Error::Refused { .. } => MailError::Token(e.to_string()),
            OAuth2Error::Secrets(_) => MailError::Config(e.to_string()),
        }
    }
}

/// An access token and what is known of it.
#[derive(Clone, PartialEq, Eq)]
pub struct Token {
    /// The bearer token itself.
    pub access: String,
    /// Seconds since the epoch when it expires.
    pub expires_at: u64,
    /// Fetched from the token endpoint by this call (not from the cache):
    /// a server refusing it will not take a second one either.
    pub fresh: bool,
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Token")
            .field("expires_at", &self.expires_at)
            .field("fresh", &self.fresh)
            .finish_non_exhaustive()
    }
}

/// The cache file's content.
#[derive(Serialize, Deserialize)]
struct Cached {
    access_token: String,
    expires_at: u64,
    /// The endpoint and client it came from: a cache of other settings is
    /// not used.
    token_url: String,
    client_id: String,
}

/// Access tokens for IMAP and SMTP: from the cache while more than a
/// minute is left, else refreshed. Cheap to clone (shared); safe across
/// threads.
#[derive(Clone)]
pub struct TokenSource {
    inner: Arc<Mutex<Source>>,
}

struct Source {
    settings: OAuth2Settings,
    /// The secrets file, resolved.
    secrets: PathBuf,
    /// Where access tokens are cached (owner-only), if anywhere.
    cache: Option<PathBuf>,
    current: Option<Token>,
}

impl fmt::Debug for TokenSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenSource { .. }")
    }
}

/// Seconds since the epoch.
pub fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

impl TokenSource {
    /// A source over `settings`, with the secrets at `secrets` (the
    /// settings' `oauth2_file`, resolved by the caller) and the access token
    /// cached at `cache`. Validates the settings; reads nothing yet.
    pub fn new(
        settings: &OAuth2Settings,
        secrets: &Path,
        cache: Option<&Path>,
    ) -> Result<TokenSource, SettingsError> {
        settings.validate()?;
        Ok(TokenSource {
            inner: Arc::new(Mutex::new(Source {
                settings: settings.clone(),
                secrets: secrets.to_path_buf(),
                cache: cache.map(Path::to_path_buf),
                current: None,
            })),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Source> {
        // A panic while holding it leaves nothing half-written in memory
        // that matters: the token is replaced whole.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The token endpoint, for messages.
    pub fn token_url(&self) -> String {
        self.lock().settings.token_url()
    }

    /// An access token with more than a minute left: the one in memory or
    /// the cache, else a refreshed one.
    pub fn token(&self) -> Result<Token, OAuth2Error> {
        let mut s = self.lock();
        let now = now_secs();
        let usable = |t: &Token| t.expires_at > now + REFRESH_MARGIN_SECS;
        if let Some(t) = s.current.as_ref().filter(|t| usable(t)) {
            return Ok(Token {
                fresh: false,
                ..t.clone()
            });
        }
        if let Some(t) = s.read_cache().filter(usable) {
            s.current = Some(t.clone());
            return Ok(t);
        }
        s.refresh()
    }

    /// A new access token from the token endpoint, whatever the cache holds
    /// (after a server refused the cached one, and in `config check`).
    pub fn refresh(&self) -> Result<Token, OAuth2Error> {
        self.lock().refresh()
    }
}

impl Source {
    fn read_cache(&self) -> Option<Token> {
        let path = self.cache.as_ref()?;
        let text = std::fs::read_to_string(path).ok()?;
        let c: Cached = serde_json::from_str(&text).ok()?;
        let ours =
            c.token_url == self.settings.token_url() && c.client_id == self.settings.client_id;
        ours.then_some(Token {
            access: c.access_token,
            expires_at: c.expires_at,
            fresh: false,
        })
    }

    fn refresh(&mut self) -> Result<Token, OAuth2Error> {
        // Read each time: another process (or the SMTP side of this one) may
        // have saved a rotated refresh token since.
        let secrets = read_secrets(&self.secrets)?;
        let url = self.settings.token_url();
        let scopes = self.settings.scopes().join(" ");
        let mut pairs = vec![
            ("grant_type", "refresh_token"),
            ("refresh_token", secrets.refresh_token.as_str()),
            ("client_id", self.settings.client_id.as_str()),
        ];
        if let Some(cs) = &secrets.client_secret {
            pairs.push(("client_secret", cs.as_str()));
        }
        // Google takes the scope granted at consent; Microsoft and most
        // others want it named (RFC 6749 6: optional, at most what was granted).
        if self.settings.provider != Provider::Gmail {
            pairs.push(("scope", scopes.as_str()));
        }
        let answer = token_request(&self.settings, &http::form(&pairs))?;
        if let Some(rotated) = answer.refresh_token.filter(|r| *r != secrets.refresh_token) {
            let kept = Secrets {
                refresh_token: rotated,
                client_secret: secrets.client_secret.clone(),
            };
            write_secrets(&self.secrets, &kept)?;
            tracing::info!(
                "OAuth2: the token endpoint rotated the refresh token; saved to {}",
                self.secrets.display()
            );
        }
        let token = Token {
            access: answer.access_token,
            expires_at: now_secs() + answer.expires_in,
            fresh: true,
        };
        if let Some(path) = &self.cache {
            let c = Cached {
                access_token: token.access.clone(),
                expires_at: token.expires_at,
                token_url: url,
                client_id: self.settings.client_id.clone(),
            };
            let text = serde_json::to_string(&c)
                .map_err(|e| OAuth2Error::Secrets(format!("writing the token cache: {e}")))?;
            write_private(path, text.as_bytes()).map_err(|e| {
                OAuth2Error::Secrets(format!("writing the token cache {}: {e}", path.display()))
            })?;
        }
        self.current = Some(token.clone());
        Ok(token)
    }
}

/// A successful token answer (RFC 6749 5.1), or a device-flow one.
pub struct Granted {
    /// The access token.
    pub access_token: String,
    /// Its lifetime in seconds (default 3600 when not said).
    pub expires_in: u64,
    /// A new refresh token, when the endpoint rotates them or on a first grant.
    pub refresh_token: Option<String>,
}

#[derive(Deserialize)]
struct TokenAnswer {
    #[serde(default)]
    access_token: Option<String>,
    #[serde(default)]
    expires_in: Option<serde_json::Value>,
    #[serde(default)]
    refresh_token: Option<String>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    error_description: Option<String>,
}

/// A refused grant, as the endpoint put it (RFC 6749 5.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrantError {
    /// The endpoint answered with an OAuth2 error code.
    Refused {
        /// `invalid_grant`, `authorization_pending`, `slow_down`, ...
        error: String,
        /// Its words.
        description: Option<String>,
    },
    /// The endpoint could not be reached or answered garbage.
    Unreachable(String),
}

/// POSTs `form` to the settings' token endpoint and reads a grant.
pub fn grant(settings: &OAuth2Settings, form: &str) -> Result<Granted, GrantError> {
    post_json::<TokenAnswer>(settings, &settings.token_url(), form).and_then(|(status, a)| {
        if let Some(error) = a.error {
            return Err(GrantError::Refused {
                error: clip(&error),
                description: a.error_description.map(|d| clip(&d)),
            });
        }
        match a
            .access_token
            .filter(|t| !t.is_empty() && (200..300).contains(&status))
        {
            Some(access_token) => Ok(Granted {
                access_token,
                expires_in: lifetime(a.expires_in.as_ref()),
                refresh_token: a.refresh_token.filter(|r| !r.is_empty()),
            }),
            None => Err(GrantError::Unreachable(format!(
                "HTTP {status} without an access token"
            ))),
        }
    })
}

/// POSTs `form` to `url` and reads a JSON answer of any status.
pub fn post_json<T: serde::de::DeserializeOwned>(
    settings: &OAuth2Settings,
    url: &str,
    form: &str,
) -> Result<(u16, T), GrantError> {
    let parsed = http::Url::parse(url).map_err(GrantError::Unreachable)?;
    let answer = http::post_form(
        &parsed,
        form,
        settings.ca_file.as_deref(),
        Duration::from_secs(settings.timeout_secs),
    )
    .map_err(|e| {
        GrantError::Unreachable(match e {
            // The kind is said by the caller: only the reason here.
            MailError::Transient(m) => m,
            other => other.to_string(),
        })
    })?;
    let parsed = serde_json::from_slice::<T>(&answer.body).map_err(|_| {
        GrantError::Unreachable(format!(
            "HTTP {} with a body that is not the JSON expected",
            answer.status
        ))
    })?;
    Ok((answer.status, parsed))
}

fn token_request(settings: &OAuth2Settings, form: &str) -> Result<Granted, OAuth2Error> {
    let url = settings.token_url();
    grant(settings, form).map_err(|e| match e {
        GrantError::Refused { error, description } => OAuth2Error::Refused {
            url: url.clone(),
            error,
            description,
        },
        GrantError::Unreachable(why) => OAuth2Error::Unreachable {
            url: url.clone(),
            why,
        },
    })
}

/// `expires_in` as a number or a numeric string; 3600 when absent or odd.
fn lifetime(v: Option<&serde_json::Value>) -> u64 {
    match v {
        Some(serde_json::Value::Number(n)) => n.as_u64(),
        Some(serde_json::Value::String(s)) => s.parse().ok(),
        _ => None,
    }
    .unwrap_or(3600)
}

fn clip(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(300).collect()
}

/// Reads the secrets file, refusing one that others may read.
pub fn read_secrets(path: &Path) -> Result<Secrets, OAuth2Error> {
    let fail = |why: String| OAuth2Error::Secrets(format!("oauth2_file {}: {why}", path.display()));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
        if meta.permissions().mode() & 0o077 != 0 {
            return Err(fail(format!(
                "other users can read it (mode {:o}); chmod 600 it (and get a new refresh token if \
                 someone may have read it)",
                meta.permissions().mode() & 0o777
            )));
        }
    }
    let text = std::fs::read_to_string(path).map_err(|e| fail(e.to_string()))?;
    // The parser's own message quotes the offending line, which may hold a
    // secret: say where, not what.
    let secrets: Secrets = toml::from_str(&text).map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].lines().count().max(1))
            .unwrap_or(1);
        fail(format!(
            "not valid (line {line}): it holds refresh_token = \"...\" and, if the app has one, \
             client_secret = \"...\""
        ))
    })?;
    if secrets.refresh_token.trim().is_empty() {
        return Err(fail("refresh_token is empty".into()));
    }
    Ok(secrets)
}

/// Writes the secrets file, owner-only, atomically.
pub fn write_secrets(path: &Path, secrets: &Secrets) -> Result<(), OAuth2Error> {
    let text =
        toml::to_string(secrets).map_err(|e| OAuth2Error::Secrets(format!("oauth2_file: {e}")))?;
    let text = format!(
        "# umpire's OAuth2 secrets: keep this file owner-only (chmod 600), out of backups\n\
         # others can read, and out of repositories.\n{text}"
    );
    write_private(path, text.as_bytes())
        .map_err(|e| OAuth2Error::Secrets(format!("writing oauth2_file {}: {e}", path.display())))
}

/// Writes `bytes` to `path` owner-only and atomically: a temporary file in
/// the same folder, synced, then renamed over.
pub fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("oauth2");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let written = (|| {
        let mut f = opts.open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_generic() {
        let f = Path::new("s");
        let g = OAuth2Settings::new(Provider::Gmail, "id", f);
        assert_eq!(g.token_url(), "https://oauth2.googleapis.com/token");
        assert_eq!(g.scopes(), ["https://mail.google.com/"]);
        assert_eq!(g.device_url(), None);
        g.validate().unwrap();
        let mut m = OAuth2Settings::new(Provider::Microsoft, "id", f);
        m.tenant = Some("contoso.onmicrosoft.com".into());
        assert_eq!(
            m.token_url(),
            "https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token"
        );
        assert!(m.scopes().contains(&"offline_access".to_string()));
        m.validate().unwrap();
        m.tenant = Some("../x y".into());
        assert_eq!(m.validate().unwrap_err().key, "tenant");
        let mut x = OAuth2Settings::new(Provider::Generic, "id", f);
        assert_eq!(x.validate().unwrap_err().key, "token_url");
        x.token_url = Some("http://auth.example.org/token".into());
        x.scopes = Some(vec!["mail".into()]);
        let e = x.validate().unwrap_err();
        assert!(
            e.key == "token_url" && e.message.contains("loopback"),
            "{e}"
        );
        x.token_url = Some("http://127.0.0.1:9/token".into());
        x.validate().unwrap();
    }

    #[test]
    fn secrets_must_be_owner_only_and_never_quoted() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("oauth2.secrets");
        write_secrets(
            &p,
            &Secrets {
                refresh_token: "rt-SECRET".into(),
                client_secret: Some("cs-SECRET".into()),
            },
        )
        .unwrap();
        assert_eq!(
            std::fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let s = read_secrets(&p).unwrap();
        assert_eq!(s.refresh_token, "rt-SECRET");
        assert!(!format!("{s:?}").contains("SECRET"));
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o640)).unwrap();
        let e = read_secrets(&p).unwrap_err().to_string();
        assert!(e.contains("chmod 600") && !e.contains("SECRET"), "{e}");
        std::fs::write(&p, "refresh_token = \"rt-SECRET\nclient_secret = 1\n").unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).unwrap();
        let e = read_secrets(&p).unwrap_err().to_string();
        assert!(e.contains("line 1") && !e.contains("SECRET"), "{e}");
    }

    #[test]
    fn lifetimes() {
        assert_eq!(lifetime(Some(&serde_json::json!(3599))), 3599);
        assert_eq!(lifetime(Some(&serde_json::json!("120"))), 120);
        assert_eq!(lifetime(None), 3600);
    }
}
