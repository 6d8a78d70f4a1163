//! The IMAP intake and SMTP delivery against the real Dovecot and Postfix of
//! `tests/mail/mailstack.sh`.
//!
//! Needs `UMPIRE_MAILSTACK=<dir>` naming a started stack (`scripts/test.sh`
//! starts one). Without it, or with servers that do not answer, every test
//! here FAILS: a skipped transport test would pass CI having tested nothing.
//!
//! Each test uses a folder of its own (mail to `gm+TAG@club.test` lands in
//! gm's folder TAG), so tests run in parallel. Tests that stop or restart a
//! server take an exclusive file lock in the stack dir; all others hold it
//! shared, so no test sees another's fault injection.

use std::fs::File;
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};
use umpire::mail::imap::ImapIntake;
use umpire::mail::settings::{CheckStep, ImapSettings, Mark, Security, SmtpSettings};
use umpire::mail::smtp::SmtpDelivery;
use umpire::mail::{Delivery, Incoming, Intake, MailError, Outgoing};

struct Stack {
    dir: PathBuf,
    domain: String,
    imap: u16,
    imaps: u16,
    smtp: u16,
    submission: u16,
    smtps: u16,
    ca: PathBuf,
    other_ca: PathBuf,
}

fn stack() -> Stack {
    let dir = std::env::var_os("UMPIRE_MAILSTACK")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            panic!(
                "UMPIRE_MAILSTACK is not set: these tests need the real mail servers. \
             Run scripts/test.sh, or `bash tests/mail/mailstack.sh start DIR` and \
             set UMPIRE_MAILSTACK=DIR"
            )
        });
    let env = std::fs::read_to_string(dir.join("stack.env")).unwrap_or_else(|e| {
        panic!(
            "UMPIRE_MAILSTACK={}: no stack.env ({e}); was the stack started?",
            dir.display()
        )
    });
    let get = |key: &str| -> String {
        env.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}=")))
            .unwrap_or_else(|| panic!("stack.env has no {key}"))
            .trim_matches('"')
            .to_string()
    };
    let port = |key: &str| -> u16 {
        get(key)
            .parse()
            .unwrap_or_else(|_| panic!("{key} is not a port"))
    };
    let s = Stack {
        domain: get("MAILSTACK_DOMAIN"),
        imap: port("MAILSTACK_IMAP_PORT"),
        imaps: port("MAILSTACK_IMAPS_PORT"),
        smtp: port("MAILSTACK_SMTP_PORT"),
        submission: port("MAILSTACK_SUBMISSION_PORT"),
        smtps: port("MAILSTACK_SMTPS_PORT"),
        ca: PathBuf::from(get("MAILSTACK_CA")),
        other_ca: PathBuf::from(get("MAILSTACK_OTHER_CA")),
        dir,
    };
    for p in [s.imap, s.imaps, s.smtp, s.submission, s.smtps] {
        // A fault test may have a server down right now; the lock below
        // waits for it, so allow a restart's worth of time here.
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(("127.0.0.1", p)).is_err() {
            assert!(
                Instant::now() < deadline,
                "the mail stack in {} does not answer on port {p}",
                s.dir.display()
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    s
}

impl Stack {
    fn lock(&self) -> fd_lock::RwLock<File> {
        let f = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.dir.join("tests.lock"))
            .expect("opening the test lock");
        fd_lock::RwLock::new(f)
    }

    fn script(&self, verb: &str) {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mail/mailstack.sh");
        let st = Command::new("bash")
            .arg(script)
            .arg(verb)
            .arg(&self.dir)
            .status()
            .expect("running mailstack.sh");
        assert!(st.success(), "mailstack.sh {verb} failed");
    }

    /// gm's IMAP settings for folder `tag`, over plain loopback.
    fn imap(&self, tag: &str) -> ImapSettings {
        let mut s = ImapSettings::new("127.0.0.1", Security::Plain, "gm");
        s.port = Some(self.imap);
        s.password_command = Some("echo gm-secret".into());
        s.folder = tag.into();
        s.backoff_initial_secs = 1;
        s.backoff_max_secs = 2;
        s.io_timeout_secs = 20;
        s.connect_timeout_secs = 10;
        s
    }

    fn imaps(&self, tag: &str) -> ImapSettings {
        let mut s = self.imap(tag);
        s.host = "localhost".into();
        s.security = Security::Tls;
        s.port = Some(self.imaps);
        s.ca_file = Some(self.ca.clone());
        s
    }

    fn smtp_plain(&self) -> SmtpSettings {
        let mut s = SmtpSettings::new("127.0.0.1", Security::Plain);
        s.port = Some(self.smtp);
        s.timeout_secs = 20;
        s
    }

    fn send(&self, tag: &str, subject: &str) -> Outgoing {
        let m = self.mail(tag, subject, "hello\r\n");
        SmtpDelivery::new(&self.smtp_plain())
            .unwrap()
            .deliver(&m)
            .unwrap();
        m
    }

    fn mail(&self, tag: &str, subject: &str, body: &str) -> Outgoing {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let id = format!("<{tag}.{n}.{}@umpire.test>", std::process::id());
        let to = format!("gm+{tag}@{}", self.domain);
        let raw = format!(
            "From: Alice <alice@{d}>\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {id}\r\n\
             Date: Mon, 30 Nov 2026 10:00:00 +0000\r\n\r\n{body}",
            d = self.domain
        );
        Outgoing {
            key: format!("{tag}-{n}"),
            message_id: id,
            from: format!("alice@{}", self.domain),
            to: vec![to],
            raw: raw.into_bytes(),
        }
    }

    /// A plain admin session as gm, to look at folders behind the intake's back.
    fn admin(&self) -> imap::Session<TcpStream> {
        let tcp = TcpStream::connect(("127.0.0.1", self.imap)).unwrap();
        let mut c = imap::Client::new(tcp);
        c.read_greeting().unwrap();
        c.login("gm", "gm-secret").map_err(|e| e.0).unwrap()
    }

    fn create_folder(&self, name: &str) {
        let mut a = self.admin();
        a.create(name).unwrap();
        let _ = a.logout();
    }

    /// Mails in `folder`; 0 while it does not exist (created on first delivery).
    fn count(&self, folder: &str) -> u32 {
        let mut a = self.admin();
        let n = a.examine(folder).map(|mb| mb.exists).unwrap_or(0);
        let _ = a.logout();
        n
    }

    /// Waits until `folder` holds `n` mails (SMTP accepted is not yet delivered).
    fn await_count(&self, folder: &str, n: u32) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let c = self.count(folder);
            if c >= n {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{folder} has {c} mails, expected {n}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// A folder name unique to this test and run.
fn tag(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("t_{name}_{}_{nanos}", std::process::id())
}

fn subject_of(m: &Incoming) -> String {
    let text = String::from_utf8_lossy(&m.raw);
    text.lines()
        .find_map(|l| l.strip_prefix("Subject: "))
        .unwrap_or("")
        .trim_end()
        .to_string()
}

/// Fetches until `n` mails come back (delivery through Postfix takes a moment).
fn fetch_n(intake: &mut ImapIntake, n: usize) -> Vec<Incoming> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let got = intake.fetch(100).unwrap();
        if got.len() >= n {
            return got;
        }
        assert!(
            Instant::now() < deadline,
            "only {} of {n} mails arrived",
            got.len()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn id_parts(id: &str) -> (u32, u32) {
    umpire::mail::imap::parse_id(id)
        .unwrap_or_else(|| panic!("{id} is not imap:<uidvalidity>:<uid>"))
}

#[test]
fn smtp_plain_to_imaps_round_trip() {
    let st = stack();
    let l = st.lock();
    let _g = l.read().unwrap();
    let t = tag("plain");
    let sent = st.send(&t, "turn 3 orders");
    st.await_count(&t, 1); // the folder appears with the first delivery
    let mut intake = ImapIntake::new(&st.imaps(&t)).unwrap();
    let got = fetch_n(&mut intake, 1);
    assert_eq!(got.len(), 1);
    assert_eq!(subject_of(&got[0]), "turn 3 orders");
    assert_eq!(got[0].oversize, None);
    let text = String::from_utf8_lossy(&got[0].raw);
    assert!(text.contains(&sent.message_id), "{text}");
    // Postfix adds its trace header: this really went through the MTA.
    assert!(text.contains("Received: "), "{text}");
    let (validity, uid) = id_parts(&got[0].id);
    assert_eq!(Some(validity), intake.uidvalidity());
    assert!(validity > 0 && uid > 0);
}

#[test]
fn submission_starttls_auth_to_imap_starttls() {
    let st = stack();
    let l = st.lock();
    let _g = l.read().unwrap();
    let t = tag("sub587");
    let dir = tempfile::tempdir().unwrap();
    let pw = dir.path().join("alice.pw");
    std::fs::write(&pw, "alice-secret\n").unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&pw, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let mut s = SmtpSettings::new("localhost", Security::Starttls);
    s.port = Some(st.submission);
    s.username = Some("alice".into());
    s.password_file = Some(pw);
    s.ca_file = Some(st.ca.clone());
    SmtpDelivery::new(&s)
        .unwrap()
        .deliver(&st.mail(&t, "via 587", "x\r\n"))
        .unwrap();

    let mut i = st.imap(&t);
    i.host = "localhost".into();
    i.security = Security::Starttls;
    i.ca_file = Some(st.ca.clone());
    st.await_count(&t, 1); // the folder appears with the first delivery
    let mut intake = ImapIntake::new(&i).unwrap();
    let got = fetch_n(&mut intake, 1);
    assert_eq!(subject_of(&got[0]), "via 587");
}

#[test]
fn smtps_465_auth_delivers() {
    let st = stack();
    let l = st.lock();
    let _g = l.read().unwrap();
    let t = tag("smtps");
    let mut s = SmtpSettings::new("localhost", Security::Tls);
    s.port = Some(st.smtps);
    s.username = Some("bob".into());
    s.password_command = Some("printf 'bob-secret\\n'".into());
    s.ca_file = Some(st.ca.clone());
    SmtpDelivery::new(&s)
        .unwrap()
        .deliver(&st.mail(&t, "via 465", "x\r\n"))
        .unwrap();
    st.await_count(&t, 1); // the folder appears with the first delivery
    let mut intake = ImapIntake::new(&st.imaps(&t)).unwrap();
    assert_eq!(subject_of(&fetch_n(&mut intake, 1)[0]), "via 465");
}

#[test]
fn smtp_errors_are_classified() {
    let st = stack();
    let l = st.lock();
    let _g = l.read().unwrap();
    let t = tag("smtperr");
    // The stack's Postfix answers RCPT TO tempfail@ with 451 and permfail@ with 550.
    let mut d = SmtpDelivery::new(&st.smtp_plain()).unwrap();
    let mut m = st.mail(&t, "x", "x\r\n");
    m.to = vec![format!("tempfail@{}", st.domain)];
    let e = d.deliver(&m).unwrap_err();
    assert!(e.is_transient(), "4xx is worth a retry: {e:?}");
    assert!(e.to_string().contains("451"), "{e}");
    m.to = vec![format!("permfail@{}", st.domain)];
    let e = d.deliver(&m).unwrap_err();
    assert!(
        matches!(e, MailError::Protocol(_)),
        "5xx is for good: {e:?}"
    );
    assert!(e.to_string().contains("550"), "{e}");
    // Both refusals were reset (RSET) on the same connection, which then
    // carries a good mail.
    m.to = vec![format!("gm+{t}@{}", st.domain)];
    d.deliver(&m).unwrap();
    assert_eq!(
        d.connections(),
        1,
        "a refused RCPT must not cost the connection"
    );
    st.await_count(&t, 1);
    // 587 without AUTH: Postfix refuses to relay with a 5xx, for good.
    let mut s = SmtpSettings::new("localhost", Security::Starttls);
    s.port = Some(st.submission);
    s.ca_file = Some(st.ca.clone());
    let e = SmtpDelivery::new(&s)
        .unwrap()
        .deliver(&st.mail(&t, "x", "x\r\n"))
        .unwrap_err();
    assert!(matches!(e, MailError::Protocol(_)), "{e:?}");
    // A wrong password is an Auth error.
    s.username = Some("alice".into());
    s.password = Some("wrong".into());
    let e = SmtpDelivery::new(&s)
        .unwrap()
        .deliver(&st.mail(&t, "x", "x\r\n"))
        .unwrap_err();
    assert!(matches!(e, MailError::Auth(_)), "{e:?}");
    // The public roots do not know the test CA.
    s.ca_file = None;
    s.password = Some("alice-secret".into());
    let e = SmtpDelivery::new(&s)
        .unwrap()
        .deliver(&st.mail(&t, "x", "x\r\n"))
        .unwrap_err();
    assert!(matches!(e, MailError::Tls(_)), "{e:?}");
    assert!(e.to_string().contains("ca_file"), "{e}");
}

fn mark_mode_case(mark: Mark, name: &str) {
    let st = stack();
    let l = st.lock();
    let _g = l.read().unwrap();
    let t = tag(name);
    let mut settings = st.imap(&t);
    settings.mark = mark;
    let done_folder = format!("{t}_done");
    settings.mark_folder = done_folder.clone();
    // One at a time: Postfix may deliver two queued mails in either order.
    st.send(&t, "first");
    st.await_count(&t, 1);
    st.send(&t, "second");
    st.await_count(&t, 2);

    let mut intake = ImapIntake::new(&settings).unwrap();
    let got = fetch_n(&mut intake, 2);
    assert_eq!(
        got.iter().map(subject_of).collect::<Vec<_>>(),
        ["first", "second"],
        "oldest first"
    );
    // Fetching does not mark anything.
    assert_eq!(intake.fetch(10).unwrap().len(), 2);
    intake.done(&got[0].id).unwrap();
    intake.done(&got[0].id).unwrap(); // harmless twice
    let left = intake.fetch(10).unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].id, got[1].id);
    // A fresh session (say, the next cron run) agrees.
    drop(intake);
    let mut again = ImapIntake::new(&settings).unwrap();
    let left = again.fetch(10).unwrap();
    assert_eq!(left.iter().map(subject_of).collect::<Vec<_>>(), ["second"]);
    again.done(&left[0].id).unwrap();
    assert!(again.fetch(10).unwrap().is_empty());

    let mut a = st.admin();
    match mark {
        Mark::Seen => {
            let seen = a.select(&t).and_then(|_| a.uid_search("SEEN")).unwrap();
            assert_eq!(seen.len(), 2);
        }
        Mark::Keyword => {
            let kw = a
                .select(&t)
                .and_then(|_| a.uid_search("KEYWORD $UmpireDone"))
                .unwrap();
            assert_eq!(kw.len(), 2);
            // \Seen untouched: a person reading the mailbox still sees them as new.
            let unseen = a.uid_search("UNSEEN").unwrap();
            assert_eq!(unseen.len(), 2);
        }
        Mark::Move => {
            assert_eq!(a.examine(&t).unwrap().exists, 0, "moved out of the folder");
            assert_eq!(
                a.examine(&done_folder).unwrap().exists,
                2,
                "into the done folder"
            );
        }
    }
    let _ = a.logout();
}

#[test]
fn mark_seen() {
    mark_mode_case(Mark::Seen, "seen");
}

#[test]
fn mark_keyword() {
    mark_mode_case(Mark::Keyword, "kw");
}

#[test]
fn mark_move_creates_the_folder() {
    mark_mode_case(Mark::Move, "move");
}

#[test]
fn uidvalidity_change_renumbers_ids() {
    let st = stack();
    let l = st.lock();
    let _g = l.read().unwrap();
    let t = tag("uidv");
    st.send(&t, "before");
    st.await_count(&t, 1);
    let mut intake = ImapIntake::new(&st.imap(&t)).unwrap();
    let before = fetch_n(&mut intake, 1);
    let (v1, _) = id_parts(&before[0].id);

    // Recreate the folder behind the intake's back: a new UIDVALIDITY.
    let mut a = st.admin();
    a.delete(&t).unwrap();
    let _ = a.logout();
    st.create_folder(&t);
    st.send(&t, "after");
    st.await_count(&t, 1);

    // The server may end the session whose folder vanished: at most one
    // transient error, then the new numbering.
    let after = match intake.fetch(10) {
        Err(e) if e.is_transient() => intake.fetch(10).unwrap(),
        r => r.unwrap(),
    };
    assert_eq!(after.len(), 1);
    assert_eq!(subject_of(&after[0]), "after");
    let (v2, _) = id_parts(&after[0].id);
    assert_ne!(v1, v2, "a recreated folder has a new UIDVALIDITY");
    assert_eq!(intake.uidvalidity(), Some(v2));
    let e = intake.done(&before[0].id).unwrap_err();
    assert!(e.to_string().contains("UIDVALIDITY"), "{e}");
    intake.done(&after[0].id).unwrap();
}

/// The poll passes over the mails whose commit is still in flight: they do
/// not count against the fetch's limit, and the others fill it.
#[test]
fn fetch_skipping_passes_over_named_mails_and_fills_the_limit_with_the_rest() {
    let st = stack();
    let l = st.lock();
    let _g = l.read().unwrap();
    let t = tag("skip");
    for s in ["one", "two", "three", "four"] {
        st.send(&t, s);
    }
    st.await_count(&t, 4);
    let mut intake = ImapIntake::new(&st.imap(&t)).unwrap();
    let first = fetch_n(&mut intake, 4);
    let skip: Vec<String> = first[..2].iter().map(|m| m.id.clone()).collect();
    let rest = intake.fetch_skipping(2, &skip).unwrap();
    let ids: Vec<&str> = rest.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, [first[2].id.as_str(), first[3].id.as_str()]);
    assert_eq!(subject_of(&rest[1]), subject_of(&first[3]));
}

#[test]
fn idle_wakes_soon_after_delivery() {
    let st = stack();
    let l = st.lock();
    let _g = l.read().unwrap();
    let t = tag("idle");
    st.create_folder(&t);
    let mut intake = ImapIntake::new(&st.imaps(&t)).unwrap();
    assert!(intake.fetch(10).unwrap().is_empty());
    // Nothing there: the wait times out.
    let t0 = Instant::now();
    assert!(!intake.wait(Duration::from_secs(1)).unwrap());
    assert!(t0.elapsed() >= Duration::from_secs(1));

    let sender = {
        let (tag, out) = (t.clone(), st.mail(&t, "wake up", "x\r\n"));
        let smtp = st.smtp_plain();
        std::thread::spawn(move || {
            let _ = tag;
            std::thread::sleep(Duration::from_secs(1));
            SmtpDelivery::new(&smtp).unwrap().deliver(&out).unwrap();
            Instant::now()
        })
    };
    let woke = intake.wait(Duration::from_secs(30)).unwrap();
    let woke_at = Instant::now();
    let sent_at = sender.join().unwrap();
    assert!(woke, "wait returned without news");
    let lag = woke_at.saturating_duration_since(sent_at);
    assert!(
        lag < Duration::from_secs(3),
        "IDLE woke {lag:?} after the delivery"
    );
    eprintln!("IDLE woke {lag:?} after the delivery was accepted");
    assert_eq!(subject_of(&intake.fetch(10).unwrap()[0]), "wake up");
    // Handed out, not yet done: no reason to wake again.
    assert!(!intake.wait(Duration::from_secs(1)).unwrap());
}

#[test]
fn polling_without_idle_also_wakes() {
    let st = stack();
    let l = st.lock();
    let _g = l.read().unwrap();
    let t = tag("poll");
    st.create_folder(&t);
    let mut s = st.imap(&t);
    s.idle = false;
    s.poll_interval_secs = 1;
    let mut intake = ImapIntake::new(&s).unwrap();
    assert!(intake.fetch(10).unwrap().is_empty());
    let out = st.mail(&t, "polled", "x\r\n");
    let smtp = st.smtp_plain();
    let sender = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(500));
        SmtpDelivery::new(&smtp).unwrap().deliver(&out).unwrap();
        Instant::now()
    });
    assert!(intake.wait(Duration::from_secs(30)).unwrap());
    let lag = Instant::now().saturating_duration_since(sender.join().unwrap());
    assert!(
        lag < Duration::from_secs(4),
        "poll woke {lag:?} after the delivery"
    );
}

#[test]
fn oversized_mail_is_flagged_without_download() {
    let st = stack();
    let l = st.lock();
    let _g = l.read().unwrap();
    let t = tag("big");
    // 30 MB of base64-looking lines.
    let line = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0\r\n";
    let body = line.repeat(30_000_000 / line.len() + 1);
    let big = st.mail(&t, "huge map", &body);
    let big_len = big.raw.len() as u64;
    SmtpDelivery::new(&st.smtp_plain())
        .unwrap()
        .deliver(&big)
        .unwrap();
    st.send(&t, "small");
    st.await_count(&t, 2);

    let mut s = st.imap(&t);
    s.max_message_bytes = 1024 * 1024;
    let mut intake = ImapIntake::new(&s).unwrap();
    let before = intake.bytes_received();
    let got = intake.fetch(10).unwrap();
    let cost = intake.bytes_received() - before;
    let summary: Vec<(String, Option<u64>, usize)> = got
        .iter()
        .map(|m| (subject_of(m), m.oversize, m.raw.len()))
        .collect();
    assert_eq!(got.len(), 2, "{summary:?}");
    // Postfix may deliver the small one first.
    let huge = got
        .iter()
        .find(|m| subject_of(m) == "huge map")
        .expect("the big mail");
    let small = got
        .iter()
        .find(|m| subject_of(m) == "small")
        .expect("the small mail");
    let size = huge.oversize.expect("the 30 MB mail is flagged");
    assert!(size >= big_len, "reported size {size} < sent {big_len}");
    assert!(huge.raw.len() <= 64 * 1024, "only the header is returned");
    assert!(
        !String::from_utf8_lossy(&huge.raw).contains("QUJDREVG"),
        "no body bytes"
    );
    assert_eq!(small.oversize, None);
    assert_eq!(subject_of(small), "small");
    assert!(cost < 1024 * 1024, "the fetch downloaded {cost} bytes");
    intake.done(&huge.id).unwrap();
    assert_eq!(intake.fetch(10).unwrap().len(), 1);
}

#[test]
fn check_reports_the_failing_step() {
    let st = stack();
    let l = st.lock();
    let _g = l.read().unwrap();
    let t = tag("check");
    st.create_folder(&t);

    let good = st.imaps(&t);
    let report = good.check().unwrap();
    let steps: Vec<CheckStep> = report.steps.iter().map(|(s, _)| *s).collect();
    for want in [
        CheckStep::Dns,
        CheckStep::Connect,
        CheckStep::Tls,
        CheckStep::Login,
        CheckStep::Folder,
    ] {
        assert!(steps.contains(&want), "{want} missing from\n{report}");
    }

    let mut bad_pw = good.clone();
    bad_pw.password_command = Some("echo wrong".into());
    let e = bad_pw.check().unwrap_err();
    assert_eq!(e.step, CheckStep::Login, "{e}");
    assert!(matches!(e.error, MailError::Auth(_)), "{e}");

    let mut other_ca = good.clone();
    other_ca.ca_file = Some(st.other_ca.clone());
    let e = other_ca.check().unwrap_err();
    assert_eq!(e.step, CheckStep::Tls, "{e}");
    assert!(
        e.to_string().contains("UnknownIssuer") && e.to_string().contains("ca_file"),
        "{e}"
    );

    let mut public_roots = good.clone();
    public_roots.ca_file = None;
    assert_eq!(public_roots.check().unwrap_err().step, CheckStep::Tls);

    let mut wrong_name = good.clone();
    wrong_name.host = "127.0.0.2".into(); // loopback, but not in the certificate
    let e = wrong_name.check();
    // Linux routes all of 127/8 to lo, and Dovecot listens on 127.0.0.1 only.
    assert!(
        matches!(e, Err(ref e) if e.step == CheckStep::Connect || e.step == CheckStep::Tls),
        "{e:?}"
    );

    let mut refused = good.clone();
    refused.port = Some(1);
    assert_eq!(refused.check().unwrap_err().step, CheckStep::Connect);

    let mut no_dns = good.clone();
    no_dns.host = "no-such-host.invalid".into();
    assert_eq!(no_dns.check().unwrap_err().step, CheckStep::Dns);

    let mut no_folder = good.clone();
    no_folder.folder = format!("{t}_missing");
    let e = no_folder.check().unwrap_err();
    assert_eq!(e.step, CheckStep::Folder, "{e}");

    let mut bad_cmd = good.clone();
    bad_cmd.password_command = Some("exit 1".into());
    assert_eq!(bad_cmd.check().unwrap_err().step, CheckStep::Password);

    // SMTP: the same steps.
    let mut smtp = SmtpSettings::new("localhost", Security::Starttls);
    smtp.port = Some(st.submission);
    smtp.username = Some("carol".into());
    smtp.password_command = Some("echo carol-secret".into());
    smtp.ca_file = Some(st.ca.clone());
    let report = smtp.check().unwrap();
    assert!(
        report.steps.iter().any(|(s, _)| *s == CheckStep::Login),
        "{report}"
    );
    let mut s = smtp.clone();
    s.password_command = Some("echo nope".into());
    let e = s.check().unwrap_err();
    assert_eq!(e.step, CheckStep::Login, "{e}");
    let mut s = smtp.clone();
    s.ca_file = Some(st.other_ca.clone());
    let e = s.check().unwrap_err();
    assert_eq!(e.step, CheckStep::Tls, "{e}");
    assert!(e.to_string().contains("UnknownIssuer"), "{e}");
    let mut s = smtp.clone();
    s.security = Security::Tls;
    s.port = Some(st.smtps);
    assert!(s.check().is_ok());
    s.port = Some(1);
    assert_eq!(s.check().unwrap_err().step, CheckStep::Connect);
}

#[test]
fn imap_restart_mid_session_loses_nothing() {
    let st = stack();
    let mut l = st.lock();
    let _g = l.write().unwrap();
    let t = tag("restart");
    st.send(&t, "one");
    st.await_count(&t, 1);
    let mut intake = ImapIntake::new(&st.imaps(&t)).unwrap();
    let first = fetch_n(&mut intake, 1);
    intake.done(&first[0].id).unwrap();

    st.script("restart-imap");
    st.send(&t, "two");
    st.await_count(&t, 2);

    // The old session is dead: the next call says so, as a transient error ...
    let e = intake.fetch(10).unwrap_err();
    assert!(e.is_transient(), "{e:?}");
    assert!(!intake.is_connected());
    // ... and the one after reconnects and finds exactly the new mail.
    let got = intake.fetch(10).unwrap();
    assert_eq!(got.iter().map(subject_of).collect::<Vec<_>>(), ["two"]);
    intake.done(&got[0].id).unwrap();
    assert!(intake.fetch(10).unwrap().is_empty());

    // wait() rides out a restart: it reconnects with backoff and still
    // sees mail that arrives afterwards.
    let dir = st.dir.clone();
    let out = st.mail(&t, "three", "x\r\n");
    let smtp = st.smtp_plain();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mail/mailstack.sh");
    let bg = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(500));
        let ok = Command::new("bash")
            .arg(script)
            .arg("restart-imap")
            .arg(dir)
            .status()
            .unwrap()
            .success();
        assert!(ok, "restart-imap failed");
        SmtpDelivery::new(&smtp).unwrap().deliver(&out).unwrap();
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut woke = false;
    while Instant::now() < deadline {
        match intake.wait(Duration::from_secs(20)) {
            Ok(true) => {
                woke = true;
                break;
            }
            Ok(false) => {}
            Err(e) => assert!(e.is_transient(), "{e:?}"),
        }
    }
    bg.join().unwrap();
    assert!(woke, "wait() never saw the mail sent after the restart");
    let got = fetch_n(&mut intake, 1);
    assert_eq!(got.iter().map(subject_of).collect::<Vec<_>>(), ["three"]);
}

/// Issue 13: one connection (STARTTLS, AUTH) carries every mail of a run, each
/// mail's bytes arrive intact (dot-stuffed lines, a body without a final
/// CRLF), and a connection the server dropped is replaced without losing the
/// mail that found it dead.
#[test]
fn one_connection_carries_many_mails_and_is_replaced_when_dropped() {
    let st = stack();
    let mut l = st.lock();
    let _g = l.write().unwrap();
    let t = tag("reuse");
    // A Postfix whose smtpd processes outlived a Dovecot restart (another
    // test's) answers their first AUTH with 454: start from a fresh one.
    st.script("stop-smtp");
    st.script("start-smtp");
    let mut s = SmtpSettings::new("localhost", Security::Starttls);
    s.port = Some(st.submission);
    s.ca_file = Some(st.ca.clone());
    s.username = Some("alice".into());
    s.password = Some("alice-secret".into());
    let mut d = SmtpDelivery::new(&s).unwrap();
    let body = "line one\r\n.a dot first\r\n..two dots\r\nno final newline";
    for i in 0..20 {
        d.deliver(&st.mail(&t, &format!("m{i}"), body)).unwrap();
    }
    assert_eq!(d.connections(), 1, "20 mails, one connection");
    st.await_count(&t, 20);
    let mut intake = ImapIntake::new(&st.imap(&t)).unwrap();
    let got = fetch_n(&mut intake, 20);
    let text = String::from_utf8_lossy(&got[0].raw).replace("\r\n", "\n");
    assert!(
        text.contains("\nline one\n.a dot first\n..two dots\nno final newline"),
        "the body must arrive as sent:\n{text}"
    );
    // Postfix restarts: the kept session is gone; the next mail still goes.
    st.script("stop-smtp");
    st.script("start-smtp");
    d.deliver(&st.mail(&t, "after restart", "x\r\n")).unwrap();
    assert_eq!(d.connections(), 2, "a new connection after the restart");
    st.await_count(&t, 21);
}

#[test]
fn smtp_down_is_transient_then_delivers() {
    let st = stack();
    let mut l = st.lock();
    let _g = l.write().unwrap();
    let t = tag("smtpdown");
    let mut d = SmtpDelivery::new(&st.smtp_plain()).unwrap();
    let m = st.mail(&t, "patience", "x\r\n");
    st.script("stop-smtp");
    let r = d.deliver(&m);
    st.script("start-smtp");
    let e = r.unwrap_err();
    assert!(e.is_transient(), "{e:?}");
    d.deliver(&m).unwrap();
    st.await_count(&t, 1); // the folder appears with the first delivery
    let mut intake = ImapIntake::new(&st.imap(&t)).unwrap();
    let got = fetch_n(&mut intake, 1);
    assert_eq!(got.iter().map(subject_of).collect::<Vec<_>>(), ["patience"]);
}
