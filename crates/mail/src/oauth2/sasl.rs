//! The SASL mechanisms that carry an OAuth2 access token: OAUTHBEARER
//! (RFC 7628) and Google's and Microsoft's XOAUTH2, for IMAP AUTHENTICATE and
//! SMTP AUTH alike, and the server's error challenge put into words.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde::Deserialize;

/// Which mechanism a login uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mechanism {
    /// RFC 7628, the standard one.
    OAuthBearer,
    /// The older Google/Microsoft one.
    XOAuth2,
}

impl Mechanism {
    /// The mechanism's SASL name.
    pub fn name(self) -> &'static str {
        match self {
            Mechanism::OAuthBearer => "OAUTHBEARER",
            Mechanism::XOAuth2 => "XOAUTH2",
        }
    }

    /// OAUTHBEARER where the server offers it, else XOAUTH2; `None` when it
    /// offers neither. `offered` holds the mechanism names, any case.
    pub fn choose<'a>(offered: impl IntoIterator<Item = &'a str>) -> Option<Mechanism> {
        let mut best = None;
        for m in offered {
            if m.eq_ignore_ascii_case("OAUTHBEARER") {
                return Some(Mechanism::OAuthBearer);
            }
            if m.eq_ignore_ascii_case("XOAUTH2") {
                best = Some(Mechanism::XOAuth2);
            }
        }
        best
    }

    /// The client's first message (not base64-encoded).
    pub fn initial(self, user: &str, token: &str) -> Vec<u8> {
        match self {
            // RFC 7628 3.1: gs2 header with the authorization identity, then
            // key/value pairs each ended by ^A, and a final ^A.
            Mechanism::OAuthBearer => {
                format!("n,a={},\x01auth=Bearer {token}\x01\x01", saslname(user))
            }
            Mechanism::XOAuth2 => format!("user={user}\x01auth=Bearer {token}\x01\x01"),
        }
        .into_bytes()
    }

    /// What the client answers to an error challenge, so the server ends
    /// the exchange with its failure: `^A` for OAUTHBEARER (RFC 7628 3.2.3),
    /// an empty response for XOAUTH2.
    pub fn after_error(self) -> &'static [u8] {
        match self {
            Mechanism::OAuthBearer => b"\x01",
            Mechanism::XOAuth2 => b"",
        }
    }
}

/// RFC 5801 saslname: `,` and `=` escaped.
fn saslname(user: &str) -> String {
    user.replace('=', "=3D").replace(',', "=2C")
}

/// The JSON a server sends back on a refused token (RFC 7628 3.2.2).
#[derive(Debug, Default, Deserialize)]
struct ErrorChallenge {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    scope: Option<String>,
}

/// The server's error challenge (decoded bytes, or base64 text of them) in
/// words: "the token has expired or is not valid (invalid_token)", with the
/// scope the server wants. Empty when there is nothing readable.
pub fn explain_challenge(challenge: &[u8]) -> String {
    let decoded;
    let json = if challenge.first() == Some(&b'{') {
        challenge
    } else {
        match B64.decode(challenge.trim_ascii()) {
            Ok(d) => {
                decoded = d;
                &decoded[..]
            }
            Err(_) => return String::new(),
        }
    };
    let Ok(e) = serde_json::from_slice::<ErrorChallenge>(json) else {
        return String::new();
    };
    let status = e.status.unwrap_or_default();
    let meaning = match status.as_str() {
        "invalid_token" | "401" => "the token has expired, was revoked or is not valid",
        "insufficient_scope" | "403" => "the token lacks the scope this server needs",
        "invalid_request" | "400" => "the server could not read the login",
        "" => "the server refused the token",
        _ => "the server refused the token",
    };
    let mut out = if status.is_empty() {
        meaning.to_string()
    } else {
        format!("{meaning} ({})", clip(&status))
    };
    if let Some(scope) = e.scope.filter(|s| !s.is_empty()) {
        out.push_str(&format!("; the server wants scope {:?}", clip(&scope)));
    }
    out
}

fn clip(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(200).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_responses() {
        assert_eq!(
            Mechanism::XOAuth2.initial("gm@club.example", "ya29.x"),
            b"user=gm@club.example\x01auth=Bearer ya29.x\x01\x01"
        );
        assert_eq!(
            Mechanism::OAuthBearer.initial("a,b=c", "t"),
            b"n,a=a=2Cb=3Dc,\x01auth=Bearer t\x01\x01"
        );
    }

    #[test]
    fn oauthbearer_is_preferred() {
        assert_eq!(
            Mechanism::choose(["PLAIN", "XOAUTH2", "OAUTHBEARER"]),
            Some(Mechanism::OAuthBearer)
        );
        assert_eq!(
            Mechanism::choose(["plain", "xoauth2"]),
            Some(Mechanism::XOAuth2)
        );
        assert_eq!(Mechanism::choose(["PLAIN", "LOGIN"]), None);
    }

    #[test]
    fn error_challenges_in_words() {
        // What Dovecot sends for XOAUTH2 and OAUTHBEARER.
        let x = explain_challenge(
            b"eyJzdGF0dXMiOiI0MDEiLCJzY2hlbWVzIjoiYmVhcmVyIiwic2NvcGUiOiJtYWlsIn0=",
        );
        assert!(
            x.contains("expired") && x.contains("401") && x.contains("\"mail\""),
            "{x}"
        );
        let o = explain_challenge(br#"{"status":"invalid_token"}"#);
        assert!(o.contains("invalid_token"), "{o}");
        let s = explain_challenge(
            br#"{"status":"insufficient_scope","scope":"https://mail.google.com/"}"#,
        );
        assert!(s.contains("scope") && s.contains("mail.google.com"), "{s}");
        assert_eq!(explain_challenge(b"not base64 !!"), "");
        assert_eq!(explain_challenge(b"bm90IGpzb24="), "");
    }
}
