//! Mail servers that stall on purpose, faked on loopback: a server dripping
//! one byte every 1.5 s (under the per-read timeout) must not hold the
//! umpire past its configured timeout plus a little, over SMTP or IMAP; an
//! IMAP server announcing a small `RFC822.SIZE` and then sending a huge
//! literal is cut off after the announced size, not read to the end. Each
//! test runs the client on its own thread and gives up after a bound, so a
//! regression fails instead of hanging.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};
use umpire::mail::imap::ImapIntake;
use umpire::mail::settings::{ImapSettings, Security, SmtpSettings};
use umpire::mail::smtp::SmtpDelivery;
use umpire::mail::{Delivery, Intake, MailError, Outgoing};

/// The configured timeout of every test: per-read timeouts never fire on a
/// server that drips a byte every 1.5 s.
const TIMEOUT: u64 = 2;
/// How long past the timeout the client may take to give up.
const SLACK: Duration = Duration::from_secs(3);
/// How long a test waits for the client before it calls it a hang.
const BOUND: Duration = Duration::from_secs(30);

/// A fake server on loopback: `serve` gets each connection.
fn server(serve: impl Fn(TcpStream) + Send + Sync + 'static) -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    thread::spawn(move || {
        let serve = std::sync::Arc::new(serve);
        for s in l.incoming().flatten() {
            let serve = serve.clone();
            thread::spawn(move || serve(s));
        }
    });
    port
}

/// Writes `text` one byte every 1.5 s, until the client hangs up.
fn drip(s: &mut TcpStream, text: &str) {
    for b in text.bytes() {
        if s.write_all(&[b]).is_err() {
            return;
        }
        thread::sleep(Duration::from_millis(1500));
    }
}

/// Runs `f` on a thread: its result and how long it took, or a failure if
/// it did not end within [`BOUND`].
fn bounded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> (T, Duration) {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let t0 = Instant::now();
        let r = f();
        let _ = tx.send((r, t0.elapsed()));
    });
    rx.recv_timeout(BOUND)
        .unwrap_or_else(|_| panic!("the client was still waiting after {BOUND:?}"))
}

fn mail() -> Outgoing {
    Outgoing {
        key: "k".into(),
        message_id: "<m@club.test>".into(),
        from: "umpire@club.test".into(),
        to: vec!["red@club.test".into()],
        raw: b"Subject: x\r\n\r\nhi\r\n".to_vec(),
    }
}

fn smtp_to(port: u16) -> SmtpDelivery {
    let mut s = SmtpSettings::new("127.0.0.1", Security::Plain);
    s.port = Some(port);
    s.timeout_secs = TIMEOUT;
    SmtpDelivery::new(&s).unwrap()
}

fn within_the_timeout(took: Duration, e: &MailError) {
    assert!(e.is_transient(), "{e}");
    assert!(
        took <= Duration::from_secs(TIMEOUT) + SLACK,
        "took {took:?} with a {TIMEOUT} s timeout: {e}"
    );
}

// A greeting that never ends: the delivery gives up after the timeout.
#[test]
fn an_smtp_server_dripping_its_greeting_is_given_up_on_in_time() {
    let port = server(|mut s| drip(&mut s, &format!("220-{}\r\n220 ok\r\n", "x".repeat(200))));
    let (r, took) = bounded(move || smtp_to(port).deliver(&mail()));
    within_the_timeout(took, &r.unwrap_err());
}

/// Answers each SMTP command at once, but drips the reply to the message.
fn slow_after_data(s: TcpStream) {
    let mut w = s.try_clone().unwrap();
    let mut r = BufReader::new(s);
    let _ = w.write_all(b"220 fake ESMTP\r\n");
    let mut line = String::new();
    let mut in_data = false;
    while r.read_line(&mut line).unwrap_or(0) > 0 {
        let l = line.trim_end().to_string();
        line.clear();
        if in_data {
            if l == "." {
                drip(&mut w, &format!("250 {}\r\n", "y".repeat(200)));
                return;
            }
            continue;
        }
        let reply: &[u8] = match l.split(' ').next().unwrap_or("") {
            "EHLO" => b"250-fake\r\n250 8BITMIME\r\n",
            "DATA" => {
                in_data = true;
                b"354 go on\r\n"
            }
            "QUIT" => b"221 bye\r\n",
            _ => b"250 ok\r\n",
        };
        let _ = w.write_all(reply);
    }
}

// The reply to a mail's body dripped: the mail is not held past the
// timeout (and is kept to retry, as for any transient failure).
#[test]
fn an_smtp_server_dripping_the_reply_to_a_message_is_given_up_on_in_time() {
    let port = server(slow_after_data);
    let (r, took) = bounded(move || smtp_to(port).deliver(&mail()));
    within_the_timeout(took, &r.unwrap_err());
}

/// A fake IMAP server with one mail of `size` announced bytes; its answers
/// are written by `answer(tag, command)`, or the standard ones.
fn imap_server(answer: fn(&mut TcpStream, &str, &str) -> bool) -> u16 {
    server(move |s| {
        let mut w = s.try_clone().unwrap();
        let mut r = BufReader::new(s);
        let _ = w.write_all(b"* OK [CAPABILITY IMAP4rev1] fake ready\r\n");
        let mut line = String::new();
        while r.read_line(&mut line).unwrap_or(0) > 0 {
            let l = line.trim_end().to_string();
            line.clear();
            let (tag, cmd) = l.split_once(' ').unwrap_or((&l, ""));
            if answer(&mut w, tag, cmd) {
                continue;
            }
            let upper = cmd.to_ascii_uppercase();
            let reply = if upper.starts_with("CAPABILITY") {
                "* CAPABILITY IMAP4rev1 UIDPLUS\r\n".to_string()
            } else if upper.starts_with("LIST") {
                "* LIST (\\Noselect) \"/\" \"\"\r\n".to_string()
            } else if upper.starts_with("SELECT") {
                "* 1 EXISTS\r\n* FLAGS (\\Seen)\r\n* OK [PERMANENTFLAGS (\\Seen \\*)] ok\r\n* OK [UIDVALIDITY 7] ok\r\n".to_string()
            } else if upper.starts_with("UID SEARCH") {
                "* SEARCH 1\r\n".to_string()
            } else if upper.contains("RFC822.SIZE") {
                "* 1 FETCH (UID 1 RFC822.SIZE 100)\r\n".to_string()
            } else if upper.starts_with("LOGOUT") {
                "* BYE bye\r\n".to_string()
            } else {
                String::new()
            };
            let done = if upper.starts_with("SELECT") {
                format!("{tag} OK [READ-WRITE] done\r\n")
            } else {
                format!("{tag} OK done\r\n")
            };
            if w.write_all(format!("{reply}{done}").as_bytes()).is_err() {
                return;
            }
        }
    })
}

fn imap_to(port: u16) -> ImapIntake {
    let mut s = ImapSettings::new("127.0.0.1", Security::Plain, "umpire");
    s.port = Some(port);
    s.password = Some("secret".into());
    s.io_timeout_secs = TIMEOUT;
    s.connect_timeout_secs = TIMEOUT;
    ImapIntake::new(&s).unwrap()
}

// The answer to UID SEARCH dripped: the fetch fails after the timeout.
#[test]
fn an_imap_server_dripping_an_answer_is_given_up_on_in_time() {
    let port = imap_server(|w, tag, cmd| {
        if cmd.to_ascii_uppercase().starts_with("UID SEARCH") {
            drip(
                w,
                &format!("* SEARCH {}\r\n{tag} OK done\r\n", "1 ".repeat(100)),
            );
            return true;
        }
        false
    });
    let (r, took) = bounded(move || imap_to(port).fetch(10).map(|m| m.len()));
    within_the_timeout(took, &r.unwrap_err());
}

// The greeting dripped: the connection is given up on in time too.
#[test]
fn an_imap_server_dripping_its_greeting_is_given_up_on_in_time() {
    let port = server(|mut s| drip(&mut s, &format!("* OK {}\r\n", "z".repeat(200))));
    let (r, took) = bounded(move || imap_to(port).fetch(10).map(|m| m.len()));
    within_the_timeout(took, &r.unwrap_err());
}

/// Bytes of the literal the lying server offers.
const HUGE: u64 = 200_000_000;

// RFC822.SIZE says 100 bytes; the body's literal says 200 MB and comes as
// fast as the socket takes it. The umpire reads at most the announced size
// and a little slack, then drops the connection.
#[test]
fn an_imap_literal_larger_than_announced_is_refused_unread() {
    let port = imap_server(|w, tag, cmd| {
        if cmd.to_ascii_uppercase().contains("BODY.PEEK[]") {
            let _ = w.write_all(format!("* 1 FETCH (UID 1 BODY[] {{{HUGE}}}\r\n").as_bytes());
            let chunk = vec![b'x'; 64 * 1024];
            let mut sent = 0;
            while sent < HUGE && w.write_all(&chunk).is_ok() {
                sent += chunk.len() as u64;
            }
            let _ = w.write_all(format!(")\r\n{tag} OK done\r\n").as_bytes());
            return true;
        }
        false
    });
    let (r, took) = bounded(move || {
        let mut intake = imap_to(port);
        let r = intake.fetch(10).map(|m| m.len());
        (r, intake.bytes_received())
    });
    let (r, received) = r;
    let e = r.unwrap_err();
    assert!(e.to_string().contains("longer than"), "{e}");
    assert!(
        received < 100 + 64 * 1024 + 16 * 1024,
        "{received} bytes read of a mail announced as 100 bytes"
    );
    assert!(took < Duration::from_secs(TIMEOUT) + SLACK, "{took:?}");
}

// IDLE is a wait, not an answer: news that comes later than the timeout
// (but within the wait) still wakes the umpire, and a quiet wait ends
// quietly when asked, not as a failure after the timeout.
#[test]
fn an_imap_idle_outlasts_the_answer_timeout() {
    static IDLE_TAG: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());
    fn idle(w: &mut TcpStream, tag: &str, cmd: &str, news: bool) -> bool {
        let upper = cmd.to_ascii_uppercase();
        if upper.starts_with("CAPABILITY") {
            let _ =
                w.write_all(format!("* CAPABILITY IMAP4rev1 IDLE\r\n{tag} OK done\r\n").as_bytes());
            return true;
        }
        if upper.starts_with("UID SEARCH") {
            let _ = w.write_all(format!("* SEARCH\r\n{tag} OK done\r\n").as_bytes());
            return true;
        }
        if upper == "IDLE" {
            *IDLE_TAG.lock().unwrap() = tag.to_string();
            let _ = w.write_all(b"+ idling\r\n");
            if news {
                thread::sleep(Duration::from_secs(TIMEOUT + 1));
                let _ = w.write_all(b"* 2 EXISTS\r\n");
            }
            return true;
        }
        if tag.eq_ignore_ascii_case("DONE") {
            let t = IDLE_TAG.lock().unwrap().clone();
            let _ = w.write_all(format!("{t} OK idle done\r\n").as_bytes());
            return true;
        }
        false
    }
    let port = imap_server(|w, tag, cmd| idle(w, tag, cmd, true));
    let (r, took) = bounded(move || imap_to(port).wait(Duration::from_secs(3 * TIMEOUT)));
    assert!(r.unwrap(), "woken by the news");
    assert!(took >= Duration::from_secs(TIMEOUT + 1), "{took:?}");
    let port = imap_server(|w, tag, cmd| idle(w, tag, cmd, false));
    let (r, took) = bounded(move || imap_to(port).wait(Duration::from_secs(2 * TIMEOUT)));
    assert!(!r.unwrap(), "a quiet wait");
    assert!(took >= Duration::from_secs(2 * TIMEOUT), "{took:?}");
}
