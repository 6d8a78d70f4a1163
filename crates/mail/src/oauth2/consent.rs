//! Getting the first refresh token, for `umpire auth oauth2`: the device
//! authorization grant (RFC 8628; Microsoft allows it for mail) and the
//! authorization-code grant with a loopback redirect and PKCE (RFC 8252,
//! RFC 7636; Gmail's way, since Google's device flow does not allow the
//! mail scope).

use super::{GrantError, Granted, OAuth2Settings, grant, http, post_json};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64URL;
use serde::Deserialize;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

/// The device authorization answer: what the admin is told to do.
#[derive(Debug, Clone, Deserialize)]
pub struct DeviceCode {
    /// Kept secret between the umpire and the token endpoint.
    pub device_code: String,
    /// The code the admin types at `verification_uri`.
    pub user_code: String,
    /// Where to type it.
    #[serde(alias = "verification_url")]
    pub verification_uri: String,
    /// Seconds the code stays valid.
    #[serde(default = "default_expiry")]
    pub expires_in: u64,
    /// Seconds between polls.
    #[serde(default = "default_interval")]
    pub interval: u64,
    /// The provider's own instructions, if it gives them.
    #[serde(default)]
    pub message: Option<String>,
}

fn default_expiry() -> u64 {
    900
}
fn default_interval() -> u64 {
    5
}

/// Why getting consent failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConsentError {
    /// The provider has no device flow for mail (Gmail): use the browser.
    #[error("this provider offers no device authorization endpoint (device_url) for mail")]
    NoDeviceFlow,
    /// No authorization endpoint is known.
    #[error("no authorization endpoint (authorize_url) is configured")]
    NoAuthorizeUrl,
    /// The provider refused.
    #[error("the provider refused: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Refused {
        /// Its error code.
        error: String,
        /// Its words.
        description: Option<String>,
    },
    /// The provider could not be reached, or the admin took too long.
    #[error("{0}")]
    Failed(String),
}

impl From<GrantError> for ConsentError {
    fn from(e: GrantError) -> ConsentError {
        match e {
            GrantError::Refused { error, description } => {
                ConsentError::Refused { error, description }
            }
            GrantError::Unreachable(w) => ConsentError::Failed(w),
        }
    }
}

/// Starts the device flow: the code the admin types and where.
pub fn device_start(s: &OAuth2Settings) -> Result<DeviceCode, ConsentError> {
    let url = s.device_url().ok_or(ConsentError::NoDeviceFlow)?;
    let scope = s.scopes().join(" ");
    let form = http::form(&[("client_id", &s.client_id), ("scope", &scope)]);
    #[derive(Deserialize)]
    struct Answer {
        #[serde(flatten)]
        code: Option<DeviceCode>,
        #[serde(default)]
        error: Option<String>,
        #[serde(default)]
        error_description: Option<String>,
    }
    let (status, a) = post_json::<Answer>(s, &url, &form)?;
    if let Some(error) = a.error {
        return Err(ConsentError::Refused {
            error,
            description: a.error_description,
        });
    }
    a.code
        .filter(|_| (200..300).contains(&status))
        .ok_or_else(|| ConsentError::Failed(format!("HTTP {status} without a device code")))
}

/// Polls the token endpoint until the admin has consented (or refused, or
/// the code expired), at the interval asked (RFC 8628 3.5).
pub fn device_finish(
    s: &OAuth2Settings,
    code: &DeviceCode,
    client_secret: Option<&str>,
) -> Result<Granted, ConsentError> {
    let deadline = Instant::now() + Duration::from_secs(code.expires_in);
    let mut interval = Duration::from_secs(code.interval.max(1));
    loop {
        std::thread::sleep(interval);
        let mut pairs = vec![
            ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
            ("device_code", code.device_code.as_str()),
            ("client_id", s.client_id.as_str()),
        ];
        if let Some(cs) = client_secret {
            pairs.push(("client_secret", cs));
        }
        match grant(s, &http::form(&pairs)) {
            Ok(g) => return Ok(g),
            Err(GrantError::Refused { error, .. }) if error == "authorization_pending" => {}
            Err(GrantError::Refused { error, .. }) if error == "slow_down" => {
                interval += Duration::from_secs(5);
            }
            Err(e) => return Err(e.into()),
        }
        if Instant::now() >= deadline {
            return Err(ConsentError::Failed(
                "the code expired before consent was given; run the command again".into(),
            ));
        }
    }
}

/// A PKCE verifier and the state value, fresh for one authorization.
pub struct Pkce {
    /// Sent with the code exchange.
    pub verifier: String,
    /// Its SHA-256, sent in the authorization URL.
    pub challenge: String,
    /// Echoed by the provider; a redirect with another one is refused.
    pub state: String,
}

impl Pkce {
    /// A new verifier and state from `random` (64 bytes of the OS's
    /// randomness; the caller has it).
    pub fn new(random: &[u8; 64]) -> Pkce {
        use sha2::Digest;
        let verifier = B64URL.encode(&random[..32]);
        let challenge = B64URL.encode(sha2::Sha256::digest(verifier.as_bytes()));
        Pkce {
            verifier,
            challenge,
            state: B64URL.encode(&random[32..48]),
        }
    }
}

/// The URL the admin opens to consent, redirecting to `redirect`.
pub fn authorize_link(
    s: &OAuth2Settings,
    redirect: &str,
    pkce: &Pkce,
) -> Result<String, ConsentError> {
    let base = s.authorize_url().ok_or(ConsentError::NoAuthorizeUrl)?;
    let scope = s.scopes().join(" ");
    let query = http::form(&[
        ("client_id", &s.client_id),
        ("redirect_uri", redirect),
        ("response_type", "code"),
        ("scope", &scope),
        ("code_challenge", &pkce.challenge),
        ("code_challenge_method", "S256"),
        ("state", &pkce.state),
        // Google hands out a refresh token only for offline access with consent.
        ("access_type", "offline"),
        ("prompt", "consent"),
    ]);
    let sep = if base.contains('?') { '&' } else { '?' };
    Ok(format!("{base}{sep}{query}"))
}

/// Waits on `listener` (bound on loopback) for the browser's redirect and
/// returns the code, answering the browser in words. Gives up after `wait`.
pub fn await_redirect(
    listener: &TcpListener,
    state: &str,
    wait: Duration,
) -> Result<String, ConsentError> {
    let deadline = Instant::now() + wait;
    listener
        .set_nonblocking(true)
        .map_err(|e| ConsentError::Failed(e.to_string()))?;
    loop {
        match listener.accept() {
            Ok((mut conn, _)) => {
                let _ = conn.set_nonblocking(false);
                let _ = conn.set_read_timeout(Some(Duration::from_secs(10)));
                let mut line = String::new();
                let _ = BufReader::new(&conn).take_line(&mut line);
                let target = line.split_whitespace().nth(1).unwrap_or("");
                let query = target.split_once('?').map(|(_, q)| q).unwrap_or("");
                let get = |k: &str| {
                    query.split('&').find_map(|kv| {
                        let (a, b) = kv.split_once('=')?;
                        (a == k).then(|| percent_decode(b))
                    })
                };
                let (answer, result) = match (get("code"), get("state"), get("error")) {
                    (_, _, Some(e)) => (
                        "Consent was not given; see the terminal.",
                        Some(Err(ConsentError::Refused {
                            error: e,
                            description: get("error_description"),
                        })),
                    ),
                    (Some(code), Some(st), None) if st == state => (
                        "umpire has the authorization; you may close this window.",
                        Some(Ok(code)),
                    ),
                    (Some(_), _, None) => (
                        "This answer does not belong to this request; see the terminal.",
                        Some(Err(ConsentError::Failed(
                            "a redirect with a wrong state arrived; run the command again".into(),
                        ))),
                    ),
                    // A favicon request or the like: not the redirect.
                    _ => ("Waiting for the provider's redirect.", None),
                };
                let _ = write!(
                    conn,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                    answer.len()
                );
                if let Some(r) = result {
                    return r;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    return Err(ConsentError::Failed(
                        "no redirect arrived in time; run the command again".into(),
                    ));
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(e) => return Err(ConsentError::Failed(e.to_string())),
        }
    }
}

trait TakeLine {
    fn take_line(self, line: &mut String) -> std::io::Result<usize>;
}

impl<R: std::io::Read> TakeLine for BufReader<R> {
    fn take_line(self, line: &mut String) -> std::io::Result<usize> {
        // The request line only, bounded.
        std::io::Read::take(self, 16 * 1024).read_line(line)
    }
}

fn percent_decode(v: &str) -> String {
    let b = v.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(x) = v
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(x);
            i += 3;
            continue;
        }
        out.push(if b[i] == b'+' { b' ' } else { b[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Exchanges the authorization code for tokens.
pub fn exchange_code(
    s: &OAuth2Settings,
    code: &str,
    redirect: &str,
    pkce: &Pkce,
    client_secret: Option<&str>,
) -> Result<Granted, ConsentError> {
    let mut pairs = vec![
        ("grant_type", "authorization_code"),
        ("code", code),
        ("redirect_uri", redirect),
        ("client_id", s.client_id.as_str()),
        ("code_verifier", pkce.verifier.as_str()),
    ];
    if let Some(cs) = client_secret {
        pairs.push(("client_secret", cs));
    }
    Ok(grant(s, &http::form(&pairs))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_challenge_is_the_verifiers_sha256() {
        // RFC 7636 appendix B's example verifier.
        let mut p = Pkce::new(&[7; 64]);
        p.verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk".into();
        use sha2::Digest;
        let c = B64URL.encode(sha2::Sha256::digest(p.verifier.as_bytes()));
        assert_eq!(c, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    }

    #[test]
    fn links_carry_the_challenge_and_state() {
        let s = OAuth2Settings::new(
            super::super::Provider::Gmail,
            "cid",
            std::path::Path::new("f"),
        );
        let p = Pkce::new(&[1; 64]);
        let l = authorize_link(&s, "http://127.0.0.1:5555", &p).unwrap();
        assert!(
            l.starts_with("https://accounts.google.com/o/oauth2/v2/auth?client_id=cid&"),
            "{l}"
        );
        assert!(
            l.contains(&p.challenge)
                && l.contains(&p.state)
                && l.contains("https%3A%2F%2Fmail.google.com%2F"),
            "{l}"
        );
    }

    #[test]
    fn the_redirect_gives_the_code_for_the_right_state_only() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let t = std::thread::spawn(move || {
            for q in ["/favicon.ico", "/?code=4%2F0Ab&state=st"] {
                let mut c = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
                write!(c, "GET {q} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
                let mut s = String::new();
                let _ = std::io::Read::read_to_string(&mut c, &mut s);
            }
        });
        assert_eq!(
            await_redirect(&l, "st", Duration::from_secs(10)).unwrap(),
            "4/0Ab"
        );
        t.join().unwrap();
        let e = await_redirect(&l, "st", Duration::from_millis(200)).unwrap_err();
        assert!(e.to_string().contains("no redirect"), "{e}");
    }
}
