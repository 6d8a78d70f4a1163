//! OAuth2 against the real stack: Dovecot's oauth2 passdb asks a token
//! provider this test runs on loopback (`MAILSTACK_OAUTH_PORT`, std only)
//! whether an access token is active; IMAP logs in with OAUTHBEARER and
//! Postfix submission authenticates through Dovecot SASL the same way. The
//! provider hands out access tokens for refresh tokens, can expire them
//! early, rotate refresh tokens and revoke them.
//!
//! Each test has a family of its own (its client id), so the tests can share
//! the one provider of this process.

use super::*;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex, OnceLock};

/// One test's client at the provider.
#[derive(Default)]
struct Family {
    refresh: String,
    revoked: bool,
    rotate: bool,
    /// Access tokens are issued inactive (the mail server refuses them).
    reject: bool,
    lifetime: u64,
    /// Access tokens issued, with whether they are still active.
    access: Vec<(String, bool)>,
    refreshes: u32,
    device_polls: u32,
    /// The introspection endpoint answers for this family's tokens only
    /// after Dovecot has stopped waiting (a provider having a bad minute).
    slow: bool,
    /// Logins that presented an expired token of this family when a newer,
    /// active one had been issued (what sharing the refreshed token prevents).
    stale_presented: u32,
}

#[derive(Default)]
struct State {
    families: HashMap<String, Family>,
    n: u64,
}

/// The provider of this process: the token endpoint, the device
/// authorization endpoint and the introspection endpoint Dovecot asks.
#[derive(Clone)]
struct Provider {
    state: Arc<Mutex<State>>,
    port: u16,
}

fn provider(st: &Stack) -> Provider {
    static P: OnceLock<Provider> = OnceLock::new();
    P.get_or_init(|| {
        let env = std::fs::read_to_string(st.dir.join("stack.env")).unwrap();
        let port: u16 = env
            .lines()
            .find_map(|l| l.strip_prefix("MAILSTACK_OAUTH_PORT="))
            .expect(
                "stack.env has no MAILSTACK_OAUTH_PORT: restart the stack with this mailstack.sh",
            )
            .parse()
            .unwrap();
        let listener = TcpListener::bind(("127.0.0.1", port)).unwrap_or_else(|e| {
            panic!("the OAuth2 provider cannot listen on 127.0.0.1:{port}: {e}")
        });
        let p = Provider {
            state: Arc::default(),
            port,
        };
        let served = p.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming().flatten() {
                let p = served.clone();
                std::thread::spawn(move || p.serve(conn));
            }
        });
        p
    })
    .clone()
}

fn form_value(body: &str, key: &str) -> Option<String> {
    body.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == key).then(|| decode(v))
    })
}

fn decode(v: &str) -> String {
    let b = v.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' if i + 2 < b.len() => {
                out.push(u8::from_str_radix(&v[i + 1..i + 3], 16).unwrap_or(b'?'));
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Provider {
    fn serve(&self, mut conn: std::net::TcpStream) {
        conn.set_read_timeout(Some(Duration::from_secs(10))).ok();
        let mut buf = Vec::new();
        let mut chunk = [0u8; 4096];
        let (head_end, length) = loop {
            let Ok(n) = conn.read(&mut chunk) else { return };
            if n == 0 {
                return;
            }
            buf.extend_from_slice(&chunk[..n]);
            if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..end]).to_lowercase();
                let len = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                break (end + 4, len);
            }
        };
        while buf.len() < head_end + length {
            let Ok(n) = conn.read(&mut chunk) else { return };
            if n == 0 {
                break;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
        let path = head.split_whitespace().nth(1).unwrap_or("").to_string();
        let body = String::from_utf8_lossy(&buf[head_end..]).into_owned();
        let (status, json) = self.answer(&path, &body);
        if path == "/introspect" && self.slow_token(&body) {
            // Past the passdb's timeout_msecs (tests/mail/mailstack.sh).
            std::thread::sleep(Duration::from_secs(7));
        }
        let reply = format!(
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{json}",
            json.len()
        );
        let _ = conn.write_all(reply.as_bytes());
    }

    fn answer(&self, path: &str, body: &str) -> (u16, String) {
        let mut s = self.state.lock().unwrap();
        s.n += 1;
        let n = s.n;
        let refused = |e: &str| {
            (
                400,
                format!(
                    r#"{{"error":"{e}","error_description":"Token has been expired or revoked."}}"#
                ),
            )
        };
        match path {
            "/introspect" => {
                let token = form_value(body, "token").unwrap_or_default();
                let mut active = false;
                for f in s.families.values_mut() {
                    if let Some((_, a)) = f.access.iter().find(|(t, _)| *t == token) {
                        active = *a;
                        let newer = f.access.iter().any(|(_, a)| *a);
                        f.stale_presented += u32::from(!active && newer);
                    }
                }
                if active {
                    (200, r#"{"active":true,"username":"gm"}"#.into())
                } else {
                    (200, r#"{"active":false}"#.into())
                }
            }
            "/devicecode" => {
                let client = form_value(body, "client_id").unwrap_or_default();
                if !s.families.contains_key(&client) {
                    return refused("invalid_client");
                }
                (
                    200,
                    format!(
                        r#"{{"device_code":"dc-{client}","user_code":"WDJB-MJHT","verification_uri":"https://provider.test/device","expires_in":600,"interval":1,"message":"Go to https://provider.test/device and enter WDJB-MJHT"}}"#
                    ),
                )
            }
            "/token" => {
                let client = form_value(body, "client_id").unwrap_or_default();
                let Some(f) = s.families.get_mut(&client) else {
                    return refused("invalid_client");
                };
                match form_value(body, "grant_type").as_deref() {
                    Some("refresh_token") => {
                        let rt = form_value(body, "refresh_token").unwrap_or_default();
                        if f.revoked || rt != f.refresh {
                            return refused("invalid_grant");
                        }
                    }
                    Some("urn:ietf:params:oauth:grant-type:device_code") => {
                        f.device_polls += 1;
                        if f.device_polls < 2 {
                            return (400, r#"{"error":"authorization_pending"}"#.into());
                        }
                    }
                    _ => return refused("unsupported_grant_type"),
                }
                f.refreshes += 1;
                let access = format!("at-{client}-{n}");
                let active = !f.reject;
                f.access.push((access.clone(), active));
                let rotated = if f.rotate || f.device_polls >= 2 {
                    f.refresh = format!("rt-{client}-{n}");
                    format!(r#","refresh_token":"{}""#, f.refresh)
                } else {
                    String::new()
                };
                (
                    200,
                    format!(
                        r#"{{"access_token":"{access}","token_type":"Bearer","expires_in":{}{rotated}}}"#,
                        f.lifetime
                    ),
                )
            }
            _ => (404, "{}".into()),
        }
    }

    fn slow_token(&self, body: &str) -> bool {
        let token = form_value(body, "token").unwrap_or_default();
        let s = self.state.lock().unwrap();
        s.families
            .values()
            .any(|f| f.slow && f.access.iter().any(|(t, _)| *t == token))
    }

    fn family<T>(&self, client: &str, f: impl FnOnce(&mut Family) -> T) -> T {
        f(self
            .state
            .lock()
            .unwrap()
            .families
            .entry(client.to_string())
            .or_default())
    }

    /// Every secret the family has seen: refresh and access tokens.
    fn secrets(&self, client: &str) -> Vec<String> {
        self.family(client, |f| {
            let mut v: Vec<String> = f.access.iter().map(|(t, _)| t.clone()).collect();
            v.push(f.refresh.clone());
            v
        })
    }
}

const CLIENT_SECRET: &str = "cs-never-in-a-log";

/// A club like [`Club::new`]'s, then switched to OAuth2 for IMAP and SMTP
/// with `client` as its client id and refresh token `rt-CLIENT-0`.
fn oauth_club(st: &Stack, p: &Provider, name: &str) -> (Club, String) {
    let club = Club::new(st, name, &PLAYERS[..2], ClubOptions::default());
    let client = club.tag.clone();
    p.family(&client, |f| {
        f.refresh = format!("rt-{client}-0");
        f.lifetime = 3600;
    });
    let cfg = club.dir.join("umpire.toml");
    let text: String = std::fs::read_to_string(&cfg)
        .unwrap()
        .lines()
        .map(|l| {
            if l.starts_with("password_file = ") || l.starts_with("password_command = ") {
                "auth = \"oauth2\"".to_string()
            } else {
                l.to_string()
            }
        })
        .map(|l| l + "\n")
        .collect();
    let text = format!(
        "{text}
[oauth2]
provider = \"generic\"
client_id = \"{client}\"
token_url = \"http://127.0.0.1:{port}/token\"
device_url = \"http://127.0.0.1:{port}/devicecode\"
scopes = [\"mail\", \"offline_access\"]
oauth2_file = \"oauth2.secrets\"
timeout_secs = 5
",
        port = p.port
    );
    std::fs::write(&cfg, text).unwrap();
    write_secrets(&club, &format!("rt-{client}-0"));
    (club, client)
}

fn write_secrets(club: &Club, rt: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = club.dir.join("oauth2.secrets");
    std::fs::write(
        &path,
        format!("refresh_token = \"{rt}\"\nclient_secret = \"{CLIENT_SECRET}\"\n"),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
}

/// Fails if any secret appears in `text`.
fn assert_no_secret(p: &Provider, client: &str, text: &str, what: &str) {
    for s in p.secrets(client).iter().chain([&CLIENT_SECRET.to_string()]) {
        assert!(
            !s.is_empty() && !text.contains(s.as_str()),
            "{what} shows the secret {s}:\n{text}"
        );
    }
}

/// `umpire config check`, whatever its exit: (success, stdout + stderr).
fn check(club: &Club) -> (bool, String) {
    let out = club.run(&["config", "check"], T0);
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn oauth2_poll_reads_and_sends_and_refreshes_a_token_that_expires_mid_run() {
    let st = stack();
    let _lock = st.shared();
    let p = provider(&st);
    let (club, client) = oauth_club(&st, &p, "oauth");
    p.family(&client, |f| f.rotate = true);

    // config check refreshes (once per transport) and logs in both ways.
    let (ok, out) = check(&club);
    assert!(ok, "{out}");
    assert!(
        out.contains("ok  OAuth2 token: refreshed at http://127.0.0.1:"),
        "{out}"
    );
    assert!(out.contains("logged in as gm with OAUTHBEARER"), "{out}");
    assert!(out.contains("AUTH OAUTHBEARER as gm accepted"), "{out}");
    assert_eq!(p.family(&client, |f| f.refreshes), 2);
    // The rotated refresh token was saved, owner-only.
    let secrets = std::fs::read_to_string(club.dir.join("oauth2.secrets")).unwrap();
    let current = p.family(&client, |f| f.refresh.clone());
    assert!(
        secrets.contains(&current) && secrets.contains(CLIENT_SECRET),
        "{secrets}"
    );
    use std::os::unix::fs::PermissionsExt;
    for f in ["oauth2.secrets", "oauth2-token.json"] {
        let mode = std::fs::metadata(club.dir.join(f))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "{f} is mode {mode:o}");
    }
    let mut logs = out;

    // The first poll sends the openings over SMTP with the cached token.
    let log = poll_through_temporary_failures(&club, MIN);
    for who in &PLAYERS[..2] {
        st.await_count(who, &club.tag, 1);
    }
    assert_eq!(
        p.family(&client, |f| f.refreshes),
        2 + u32::from(log.contains(SMTP_REFUSED)),
        "the cached token served:\n{log}"
    );
    logs += &log;

    // The provider expires every access token early: the next poll's IMAP
    // login is refused, refreshed once, and goes on.
    p.family(&client, |f| {
        f.access.iter_mut().for_each(|(_, a)| *a = false)
    });
    let alice = club.player("alice");
    let opening = mailbox(&st, &club, "alice")[0].clone();
    let text = move_text(&club, "alice", &head_in(&opening), &["advance", "end turn"]);
    let (_, raw) = move_mail(&club, "alice", 1, &text, &sign(alice, &text), false, None);
    st.send("alice", &alice.addr, &club.address, &raw);
    st.await_count("gm", &club.tag, 1);
    let before = p.family(&client, |f| f.refreshes);
    let log = poll_through_temporary_failures(&club, 20 * MIN);
    assert!(
        log.contains("IMAP: the server refused the cached OAuth2 token"),
        "{log}"
    );
    logs += &log;
    assert_eq!(
        p.family(&client, |f| f.stale_presented),
        0,
        "a login showed the expired token after IMAP's refresh:\n{log}"
    );
    // One refresh, shared by IMAP and SMTP (and one more after a slow 535).
    let smtp_refused = log.contains(SMTP_REFUSED);
    assert_eq!(
        p.family(&client, |f| f.refreshes),
        before + 1 + u32::from(smtp_refused),
        "one refresh, shared by IMAP and SMTP:\n{log}"
    );
    st.await_count_or("alice", &club.tag, 2, &|| {
        let outbox: Vec<String> = std::fs::read_dir(club.dir.join("outbox"))
            .map(|d| {
                d.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        format!("-- the poll's log:\n{log}\n-- outbox: {outbox:?}")
    });

    // Tokens that live under a minute are refreshed before use, not after
    // a refusal.
    let cache = club.dir.join("oauth2-token.json");
    let mut c: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cache).unwrap()).unwrap();
    let soon = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
        + 30;
    c["expires_at"] = soon.into();
    std::fs::write(&cache, c.to_string()).unwrap();
    let before = p.family(&client, |f| f.refreshes);
    let log = poll_through_temporary_failures(&club, 40 * MIN);
    assert!(p.family(&client, |f| f.refreshes) > before, "{log}");
    assert!(!log.contains("refused the cached OAuth2 token"), "{log}");
    logs += &log;
    assert_no_secret(&p, &client, &logs, "config check or poll");
}

/// What umpire logs when Postfix refuses the cached token with a 535, which
/// it also says when Dovecot's check of the token is slower than Postfix's
/// ten seconds: umpire cannot tell the two apart, and refreshes once more.
const SMTP_REFUSED: &str = "SMTP: the server refused the cached OAuth2 token";

/// `umpire -v poll` at `at(t)`, riding out what a loaded machine can make
/// of the real stack: Dovecot's answer to a login can come after the
/// caller's patience, which Dovecot's IMAP reports as `[UNAVAILABLE]` and
/// Postfix's submission as "454 4.7.0 Temporary authentication failure".
/// Those are temporary failures, and umpire treats them so: a poll whose
/// login failed so ends with "temporarily unavailable" and is run again, as
/// cron would; result mails whose sending failed so wait in the outbox and
/// `umpire deliver` sends them. Anything else fails the test, and so does a
/// third temporary failure in a row. Gives every run's log.
fn poll_through_temporary_failures(club: &Club, t: i64) -> String {
    let mut log = String::new();
    let mut now = t;
    for run in 1..=3 {
        let out = club.run(&["-v", "poll"], &at(now));
        let err = String::from_utf8_lossy(&out.stderr);
        log += &err;
        if out.status.success() {
            break;
        }
        assert!(
            err.contains("temporarily unavailable") && run < 3,
            "umpire poll failed ({}), run {run}:\n{log}",
            out.status
        );
        now += MIN;
    }
    for run in 1..=3 {
        if !log.contains("delivery deferred") {
            break;
        }
        assert!(
            log.contains(" 454 ") || log.contains(" 421 "),
            "a deferral that is not the server's temporary failure:\n{log}"
        );
        now += 2 * MIN;
        let sent = club.ok(&["deliver"], &at(now));
        log += &format!("\n-- umpire deliver (run {run}): {sent}");
        if sent.trim().ends_with("0 deferred, 0 failed, 0 waiting") {
            break;
        }
    }
    log
}

#[test]
fn a_revoked_refresh_token_or_refused_access_token_fails_naming_the_step() {
    let st = stack();
    let _lock = st.shared();
    let p = provider(&st);
    let (club, client) = oauth_club(&st, &p, "oauthbad");

    // The refresh token revoked: the token step fails, with the endpoint's
    // words and what to do; no login is tried.
    p.family(&client, |f| f.revoked = true);
    let (ok, out) = check(&club);
    assert!(!ok, "{out}");
    assert!(
        out.contains("FAILED OAuth2 token failed: the token endpoint http://127.0.0.1:")
            && out.contains(
                "refused the refresh token: invalid_grant (Token has been expired or revoked.)"
            )
            && out.contains("umpire auth oauth2"),
        "{out}"
    );
    assert!(!out.contains("ok  login"), "{out}");
    let poll = club.run(&["poll"], &at(MIN));
    let poll_log = String::from_utf8_lossy(&poll.stderr).into_owned();
    assert!(!poll.status.success(), "{poll_log}");
    assert!(poll_log.contains("refused the refresh token"), "{poll_log}");

    // The token endpoint unreachable.
    let cfg = club.dir.join("umpire.toml");
    let text = std::fs::read_to_string(&cfg).unwrap();
    std::fs::write(
        &cfg,
        text.replace(&format!(":{}/token", p.port), ":1/token"),
    )
    .unwrap();
    let (ok, out2) = check(&club);
    assert!(
        !ok && out2.contains("FAILED OAuth2 token failed: ")
            && out2.contains(
                "the token endpoint http://127.0.0.1:1/token cannot be reached: cannot connect"
            ),
        "{out2}"
    );
    std::fs::write(&cfg, text).unwrap();

    // The server refuses a fresh token (say, a scope it lacks): the login
    // step fails with the server's words, and no second refresh is tried.
    p.family(&client, |f| {
        f.revoked = false;
        f.reject = true;
    });
    let (ok, out3) = check(&club);
    assert!(!ok, "{out3}");
    assert!(
        out3.contains("ok  OAuth2 token") && out3.contains("FAILED login failed: login refused: the server refused the OAuth2 token for gm (OAUTHBEARER)"),
        "{out3}"
    );
    assert!(out3.contains("invalid_token"), "{out3}");
    assert_no_secret(
        &p,
        &client,
        &format!("{out}{poll_log}{out2}{out3}"),
        "a failed check",
    );
}

#[test]
fn a_token_check_the_server_cannot_finish_is_a_temporary_failure_not_a_refusal() {
    let st = stack();
    let _lock = st.shared();
    let p = provider(&st);
    let (club, client) = oauth_club(&st, &p, "oauthslow");
    let (ok, out) = check(&club);
    assert!(ok, "{out}");
    // The openings sent, so that the poll below only logs in to IMAP. (Postfix
    // answers a token check Dovecot gave up on with a 535, which umpire cannot
    // tell from a refused token, so over SMTP it would refresh once.)
    let first = poll_through_temporary_failures(&club, MIN);
    let refreshes = p.family(&client, |f| f.refreshes);

    // Dovecot gives up on the provider and says [UNAVAILABLE] (RFC 5530):
    // the poll stops as for any server that is down for now, and does not
    // spend the refresh token on a token nobody refused.
    p.family(&client, |f| f.slow = true);
    let poll = club.run(&["-v", "poll"], &at(5 * MIN));
    let log = String::from_utf8_lossy(&poll.stderr).into_owned();
    assert!(!poll.status.success(), "{log}");
    assert!(
        log.contains("temporarily unavailable") && log.contains("[UNAVAILABLE]"),
        "{log}"
    );
    assert!(!log.contains("refused the cached OAuth2 token"), "{log}");
    assert_eq!(p.family(&client, |f| f.refreshes), refreshes, "{log}");

    // The provider back: the next poll logs in with the same token.
    p.family(&client, |f| f.slow = false);
    let again = poll_through_temporary_failures(&club, 10 * MIN);
    assert_eq!(p.family(&client, |f| f.refreshes), refreshes, "{again}");
    assert_no_secret(&p, &client, &format!("{first}{log}{again}"), "a poll");
}

#[test]
fn umpire_auth_gets_the_first_refresh_token_by_the_device_flow() {
    let st = stack();
    let _lock = st.shared();
    let p = provider(&st);
    let (club, client) = oauth_club(&st, &p, "oauthauth");
    let secrets = club.dir.join("oauth2.secrets");
    std::fs::remove_file(&secrets).unwrap();

    // The admin runs `umpire auth oauth2`, is told the code, consents; the
    // provider answers "pending" once, then grants.
    let out = club.run(&["auth", "oauth2"], T0);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("open https://provider.test/device and enter the code WDJB-MJHT"),
        "{text}"
    );
    assert!(text.contains("wrote the refresh token to"), "{text}");
    let got = std::fs::read_to_string(&secrets).unwrap();
    let rt = p.family(&client, |f| f.refresh.clone());
    assert!(got.contains(&format!("refresh_token = \"{rt}\"")), "{got}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&secrets).unwrap().permissions().mode();
    assert_eq!(mode & 0o077, 0, "mode {mode:o}");
    assert_no_secret(&p, &client, &text, "umpire auth");

    // The new token works.
    let (ok, out) = check(&club);
    assert!(ok, "{out}");
}
