//! Hostile mail through the Maildir pipeline: whatever one mail holds, the
//! poll that reads it finishes, records it as handled, and the next valid
//! move is still adjudicated; the record still verifies (issue 12).

use umpire_testkit as common;

use common::{declared, key, move_mail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use umpire::core::game::{Game, ReplayMode};
use umpire::core::record::Record;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;
use umpire::service::poll::PollReport;

struct Club {
    tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    n: u64,
}

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

fn club() -> Club {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let mut umpire = Umpire::open(tmp.path()).unwrap();
    for id in ["g1", "ff1"] {
        umpire
            .create_game(
                NewGame {
                    id: id.into(),
                    ruleset: "freeform".into(),
                    scenario: "open".into(),
                    options: BTreeMap::new(),
                    deadlines: None,
                    time_zones: BTreeMap::new(),
                    sides: declared(&["red", "blue"]),
                },
                now(),
            )
            .unwrap();
    }
    let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let mut outbox = FileOutbox::open(&tmp.path().join("outbox")).unwrap();
    umpire.deliver(&mut outbox, now()).unwrap();
    Club {
        tmp,
        umpire,
        maildir,
        outbox,
        n: 0,
    }
}

impl Club {
    fn dir(&self) -> PathBuf {
        self.tmp.path().to_path_buf()
    }

    fn head(&mut self, game: &str) -> String {
        self.umpire.game(game).unwrap().record().head().to_hex()
    }

    fn drop_mail(&mut self, raw: &[u8]) {
        self.n += 1;
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), raw)
            .unwrap();
    }

    /// A move file of `side` in `game`, signed with the side's key.
    fn signed(&mut self, game: &str, side: &str, orders: &[&str]) -> (String, String) {
        let mut t = format!(
            "game: {game}\nside: {side}\nafter: {}\norders:\n",
            self.head(game)
        );
        for o in orders {
            t.push_str(&format!("  {o}\n"));
        }
        let i = if side == "red" { 1 } else { 2 };
        let sig = key(i).sign(MOVE_NAMESPACE, t.as_bytes()).unwrap();
        (t, sig)
    }

    /// Drops a valid signed move of red in g1.
    fn send_valid(&mut self, orders: &[&str]) {
        let (t, sig) = self.signed("g1", "red", orders);
        let n = self.n + 1000;
        let raw = move_mail("red@club.test", "umpire@club.test", n, &t, &sig, false);
        self.drop_mail(&raw);
    }

    /// The umpire of the same data directory opened afresh (no caches).
    fn reopen(self) -> Club {
        let Club {
            tmp,
            umpire,
            maildir,
            outbox,
            n,
        } = self;
        drop(umpire);
        let umpire = Umpire::open(tmp.path()).unwrap();
        Club {
            tmp,
            umpire,
            maildir,
            outbox,
            n,
        }
    }

    /// The outcomes the ledger records as failed.
    fn failures(&self) -> Vec<String> {
        self.umpire
            .store()
            .scan(umpire::store::Table::Ledger, b"h:")
            .unwrap()
            .into_iter()
            .map(|(_, v)| String::from_utf8_lossy(&v).into_owned())
            .filter(|v| v.contains("\"failed: "))
            .collect()
    }

    fn poll(&mut self) -> PollReport {
        let r = self.umpire.poll(&mut self.maildir, now()).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
        r
    }

    /// Regular files still waiting in `new/`.
    fn waiting(&self) -> usize {
        std::fs::read_dir(self.dir().join("maildir/new"))
            .unwrap()
            .flatten()
            .filter(|e| e.file_type().unwrap().is_file())
            .count()
    }

    /// The stored record of `game` replays and verifies.
    fn verifies(&mut self, game: &str) -> Record {
        let text = self.umpire.export(game, None).unwrap();
        let rec = Record::from_text(&text).unwrap();
        let rs = umpire::games::find("freeform").unwrap();
        Game::replay(rs, &rec, ReplayMode::Verify).unwrap();
        rec
    }

    /// The whole guarantee after hostile mail: consumed, the next valid
    /// move adjudicated, the records verify.
    fn still_works(&mut self) {
        assert_eq!(self.waiting(), 0, "every mail consumed");
        let before = self.verifies("g1").len();
        self.send_valid(&["advance", "roll 1d6 after the storm"]);
        let r = self.poll();
        assert_eq!(r.accepted, 1, "the next valid move is adjudicated: {r:?}");
        assert_eq!(self.waiting(), 0);
        assert!(self.verifies("g1").len() > before);
        self.verifies("ff1");
    }
}

/// A raw mail written by hand, headers as given (CRLF line ends).
fn raw_mail(from: &str, n: u64, headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: umpire@club.test\r\nSubject: move\r\nMessage-ID: <h{n}@evil.test>\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\n{headers}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
    .into_bytes()
}

fn armored(text: &str, sig: &str) -> String {
    umpire::core::movefile::armor(text.as_bytes(), sig).replace('\n', "\r\n")
}

// 12.1: `game: ff1` followed by a NUL once made the store's prefix lookup
// find game ff1's entries as its own and wrote keys inside ff1's range.
#[test]
fn a_game_id_with_a_nul_is_refused_and_corrupts_nothing() {
    let mut c = club();
    for bad in [
        "ff1\0",
        "ff1\0\0",
        "ff1\u{1}",
        "../ff1",
        "ff1/x",
        &"x".repeat(65),
    ] {
        let head = c.head("ff1");
        let t = format!("game: {bad}\nside: red\nafter: {head}\norders:\n  advance\n");
        let sig = key(1).sign(MOVE_NAMESPACE, t.as_bytes()).unwrap();
        let n = c.n;
        c.drop_mail(&raw_mail("red@club.test", n, "", &armored(&t, &sig)));
    }
    let r = c.poll();
    assert_eq!(r.accepted, 0, "{r:?}");
    assert_eq!(r.failed, 0, "refused as unreadable, not failed: {r:?}");
    assert_eq!(c.umpire.game_ids().unwrap(), vec!["ff1", "g1"]);
    assert_eq!(c.verifies("ff1").len(), 1, "ff1 untouched");
    c.still_works();
}

// 12.1: addresses the MIME parser accepts but the mail builder rejects made
// building the reply fail, and with it every later poll.
#[test]
fn senders_the_builder_cannot_answer_are_recorded_and_not_answered() {
    let mut c = club();
    let long = format!("{}@club.test", "a".repeat(300));
    let senders = [
        "a..b@x",
        "@",
        "a@[127.0.0.1]",
        "a@b@c",
        long.as_str(),
        "\"a b\"@x.test",
        "a@-x.test",
    ];
    for from in senders {
        let n = c.n;
        // An unsigned move: answered "how to sign" to a usable address.
        c.drop_mail(&raw_mail(from, n, "", "game: g1\r\nside: red\r\n"));
        // A move with a broken signature: refused to the From address.
        let (t, sig) = c.signed("g1", "red", &["advance"]);
        let forged = sig.replacen("AAAA", "AAAB", 1);
        let n = c.n;
        c.drop_mail(&raw_mail(from, n, "", &armored(&t, &forged)));
    }
    let r = c.poll();
    assert_eq!(r.mails, 2 * senders.len(), "{r:?}");
    assert_eq!(r.failed, 0, "{r:?} {:?}", c.failures());
    c.still_works();
}

// 12.1: a directory or a FIFO in maildir/new failed or hung the poll.
#[test]
fn a_directory_or_a_fifo_in_new_neither_fails_nor_hangs_the_poll() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut c = club();
        let new = c.dir().join("maildir/new");
        std::fs::create_dir(new.join("0000.dir")).unwrap();
        let fifo = std::ffi::CString::new(new.join("0000.fifo").to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        std::os::unix::fs::symlink("/dev/zero", new.join("0000.link")).unwrap();
        let r = c.poll();
        assert_eq!(r.mails, 0, "{r:?}");
        c.still_works();
        // `umpire run` waits for mail: these are none.
        let mut inbox = c.umpire.open_inbox().unwrap();
        assert!(!inbox.wait(std::time::Duration::from_millis(10)).unwrap());
        tx.send(()).unwrap();
    });
    rx.recv_timeout(std::time::Duration::from_secs(120))
        .expect("the poll finished");
}

// Beyond the list: any mail whose handling fails on its own (here, a game
// whose stored record is broken) is recorded as failed; the mails of its
// commit group before and after it stand.
#[test]
fn a_mail_that_fails_on_its_own_does_not_roll_back_its_group() {
    let c = club();
    // Break ff1's record in the store: a stray entry after its opening.
    let mut b = umpire::store::Batch::new();
    b.put(
        umpire::store::Table::Entries,
        umpire::store::entry_key("ff1", 1),
        b"{\"not\":\"an entry\"}".to_vec(),
    );
    c.umpire.store().commit(b).unwrap();
    let mut c = c.reopen();
    c.send_valid(&["first"]);
    let (t, sig) = {
        // Signed against ff1's head as it was.
        let t = "game: ff1\nside: red\ncommand: status\n".to_string();
        let sig = key(1).sign(MOVE_NAMESPACE, t.as_bytes()).unwrap();
        (t, sig)
    };
    let n = c.n;
    c.drop_mail(&raw_mail("red@club.test", n, "", &armored(&t, &sig)));
    let r = c.poll();
    assert_eq!((r.accepted, r.failed), (1, 1), "{r:?}");
    assert_eq!(c.waiting(), 0);
    assert_eq!(c.verifies("g1").len(), 3, "the first move stands");
    // ff1 stays broken; g1 goes on.
    let rec = c.umpire.export("g1", None).unwrap();
    assert!(rec.contains("first"));
    c.send_valid(&["second"]);
    let r = c.poll();
    assert_eq!(r.accepted, 1, "{r:?}");
}

// A fresh process replays a stored game checking the state hash of its head
// only (ARCHITECTURE.md, invariant 1): a head whose recorded state is not
// the replayed one is still refused, and the move waiting on it is not
// adjudicated (12: it fails on its own).
#[test]
fn a_stored_head_with_a_wrong_state_hash_is_not_adjudicated() {
    use umpire::core::record::Body;
    let mut c = club();
    c.send_valid(&["first"]);
    assert_eq!(c.poll().accepted, 1);
    // g1's last move records another state: chained and hashed again, so
    // the record's links and entry hashes hold and only its state is wrong.
    let stored = c.umpire.store().record("g1").unwrap();
    let mut bodies: Vec<Body> = stored.entries().iter().map(|e| e.body.clone()).collect();
    let head_move = bodies
        .iter_mut()
        .rev()
        .find_map(|b| match b {
            Body::Move(m) => Some(m),
            _ => None,
        })
        .expect("a move");
    head_move.state.0[0] ^= 1;
    let mut tampered = Record::default();
    for b in bodies {
        tampered.push(b);
    }
    let mut b = umpire::store::Batch::new();
    b.put_entries("g1", tampered.entries());
    c.umpire.store().commit(b).unwrap();
    let mut c = c.reopen();
    let t = format!(
        "game: g1\nside: red\nafter: {}\norders:\n  second\n",
        tampered.head().to_hex()
    );
    let sig = key(1).sign(MOVE_NAMESPACE, t.as_bytes()).unwrap();
    let raw = move_mail("red@club.test", "umpire@club.test", 2000, &t, &sig, false);
    c.drop_mail(&raw);
    let r = c.poll();
    assert_eq!((r.accepted, r.failed), (0, 1), "{r:?}");
    let after = c.umpire.store().record("g1").unwrap();
    assert_eq!(after.len(), tampered.len(), "nothing was appended");
    assert_eq!(after.head(), tampered.head());
}

/// The store's snapshot of g1's head (ARCHITECTURE.md, invariant 1).
fn snapshot(c: &Club) -> Option<Vec<u8>> {
    c.umpire
        .store()
        .get(umpire::store::Table::Heads, "g1")
        .unwrap()
}

/// Sets (or removes) g1's snapshot in the store, as a damaged or forged
/// file would leave it.
fn set_snapshot(c: &Club, bytes: Option<Vec<u8>>) {
    let mut b = umpire::store::Batch::new();
    match bytes {
        Some(v) => b.put(umpire::store::Table::Heads, "g1", v),
        None => b.remove(umpire::store::Table::Heads, "g1"),
    }
    c.umpire.store().commit(b).unwrap();
}

/// A snapshot's engine fields from `fields`, its state from `state`, under
/// a checksum that holds: a well-formed snapshot of the wrong state.
fn spliced(fields: &[u8], state: &[u8]) -> Vec<u8> {
    let parts = |s: &[u8]| {
        let len = u32::from_le_bytes(s[12..16].try_into().unwrap()) as usize;
        let body = &s[..s.len() - 32];
        (body[..16 + len].to_vec(), body[16 + len..].to_vec())
    };
    let (mut out, _) = parts(fields);
    out.extend_from_slice(&parts(state).1);
    let sum = umpire::core::hash::sha256(&out);
    out.extend_from_slice(&sum.0);
    out
}

// A fresh process goes on from the snapshot of the head the store keeps
// (ARCHITECTURE.md, invariant 1); a data directory without one (an older
// umpire's) replays the record, and its next move writes one.
#[test]
fn a_fresh_process_goes_on_from_the_head_snapshot_and_replays_without_one() {
    let mut c = club();
    c.send_valid(&["first"]);
    assert_eq!(c.poll().accepted, 1);
    assert!(snapshot(&c).is_some(), "written with the move");
    let mut c = c.reopen();
    assert!(
        !c.umpire.game("g1").unwrap().has_every_report(),
        "restored from the snapshot, not replayed"
    );
    set_snapshot(&c, None);
    let mut c = c.reopen();
    assert!(c.umpire.game("g1").unwrap().has_every_report(), "replayed");
    c.still_works();
    assert!(snapshot(&c).is_some(), "written again with the next move");
    let mut c = c.reopen();
    assert!(!c.umpire.game("g1").unwrap().has_every_report());
    c.still_works();
}

// A damaged snapshot, and a well-formed one of a state the head does not
// record, are not used: the record is replayed and the next move is
// adjudicated on the head's own state (the record verifies, every state
// checked).
#[test]
fn a_damaged_or_wrong_head_snapshot_is_not_used() {
    let mut c = club();
    c.send_valid(&["first"]);
    assert_eq!(c.poll().accepted, 1);
    let first = snapshot(&c).unwrap();
    c.send_valid(&["second"]);
    assert_eq!(c.poll().accepted, 1);
    for forged in [false, true] {
        // Each of the head the store holds now.
        let head = snapshot(&c).unwrap();
        let bad = if forged {
            spliced(&head, &first)
        } else {
            let mut damaged = head.clone();
            let mid = damaged.len() / 2;
            damaged[mid] ^= 0x20;
            damaged
        };
        set_snapshot(&c, Some(bad));
        c = c.reopen();
        assert!(
            c.umpire.game("g1").unwrap().has_every_report(),
            "replayed, the snapshot not used"
        );
        c.still_works();
    }
}

// 12.6: the umpire's own mail coming back (X-Loop) is not answered; a
// Message-ID too long to copy is not copied into our headers.
#[test]
fn own_loops_are_ignored_and_long_message_ids_are_not_copied() {
    let mut c = club();
    let n = c.n;
    c.drop_mail(&raw_mail(
        "red@club.test",
        n,
        "X-Loop: umpire@club.test\r\n",
        "game: g1\r\nside: red\r\n",
    ));
    let r = c.poll();
    assert_eq!((r.ignored, r.replies), (1, 0), "{r:?}");
    let long_id = format!("<{}@evil.test>", "x".repeat(5000));
    let raw = format!(
        "From: red@club.test\r\nTo: umpire@club.test\r\nSubject: move\r\nMessage-ID: {long_id}\r\nReferences: {long_id} <a\u{1b}[31m@x>\r\nContent-Type: text/plain\r\n\r\ngame: g1\r\nside: red\r\n"
    );
    c.drop_mail(raw.as_bytes());
    let r = c.poll();
    assert_eq!(r.replies, 1, "answered how to sign: {r:?}");
    for e in std::fs::read_dir(c.dir().join("outbox")).unwrap().flatten() {
        let raw = std::fs::read(e.path()).unwrap();
        let text = String::from_utf8_lossy(&raw);
        let head = text.split("\r\n\r\n").next().unwrap();
        assert!(!head.contains("xxxxxxxxxx"), "{head}");
        assert!(!head.contains('\u{1b}'));
        for line in text.split("\r\n") {
            assert!(line.len() <= 998, "{} characters", line.len());
        }
    }
    c.still_works();
}

// 12.3: a new move that reuses a Message-ID already seen is read.
#[test]
fn a_new_move_reusing_a_message_id_is_read_and_a_true_redelivery_is_not() {
    let mut c = club();
    c.send_valid(&["one"]);
    assert_eq!(c.poll().accepted, 1);
    // The same Message-ID (move_mail numbers by its argument), a new move.
    let (t, sig) = c.signed("g1", "red", &["two"]);
    let raw = move_mail("red@club.test", "umpire@club.test", 1001, &t, &sig, false);
    let raw = String::from_utf8(raw).unwrap();
    assert!(raw.contains("<m1001.red@club.test>"));
    c.drop_mail(raw.as_bytes());
    let r = c.poll();
    assert_eq!(r.accepted, 1, "{r:?}");
    // The same mail again with one more Received line: a second delivery.
    let again = format!("Received: from relay.test\r\n{raw}");
    c.drop_mail(again.as_bytes());
    let r = c.poll();
    assert_eq!((r.accepted, r.duplicates, r.ignored), (0, 0, 1), "{r:?}");
    c.still_works();
}

// 12.3: a mail over the size cap is not kept whole, and (through the
// configured Maildir) not read whole.
#[test]
fn an_oversized_mail_is_answered_but_not_stored_whole() {
    let mut c = club();
    let big = "x".repeat(3 * 1024 * 1024);
    let n = c.n;
    c.drop_mail(&raw_mail("red@club.test", n, "", &big));
    let mut inbox = c.umpire.open_inbox().unwrap();
    let r = c.umpire.poll(&mut inbox, now()).unwrap();
    assert_eq!((r.ignored, r.replies), (1, 1), "{r:?}");
    let kept = c
        .umpire
        .store()
        .scan(umpire::store::Table::Inbox, b"")
        .unwrap();
    assert!(
        kept.iter().all(|(_, v)| v.len() <= 64 * 1024),
        "{:?}",
        kept.iter().map(|(_, v)| v.len()).collect::<Vec<_>>()
    );
    // A mail read whole by a plain Maildir is still kept only to its headers.
    let n = c.n;
    c.drop_mail(&raw_mail("blue@club.test", n, "", &big));
    c.poll();
    let kept = c
        .umpire
        .store()
        .scan(umpire::store::Table::Inbox, b"")
        .unwrap();
    assert!(kept.iter().all(|(_, v)| v.len() <= 64 * 1024));
    c.still_works();
}

// 12.2: tens of thousands of MIME parts: the parts considered are capped and
// files are paired with signatures in linear time.
#[test]
fn a_mail_of_thirty_thousand_parts_is_read_in_bounded_work() {
    let mut c = club();
    let mut body = String::from(
        "From: red@club.test\r\nTo: umpire@club.test\r\nMessage-ID: <parts@evil.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n",
    );
    for i in 0..30_000 {
        let name = if i % 2 == 0 {
            format!("f{i}.txt")
        } else {
            format!("f{}.txt.sig", i + 1)
        };
        body.push_str(&format!(
            "--b\r\nContent-Type: text/plain; name={name}\r\n\r\ngame:\r\n"
        ));
    }
    body.push_str("--b--\r\n");
    c.drop_mail(body.as_bytes());
    let start = std::time::Instant::now();
    let r = c.poll();
    // Generous: the quadratic matching took about a minute for this mail.
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
    assert_eq!(r.mails, 1, "{r:?}");
    c.still_works();
}

// 12.2: freeform dice requests are capped per order and per move, and an
// overflowing modifier is refused with its line.
#[test]
fn dice_beyond_the_caps_are_refused_naming_the_line() {
    let mut c = club();
    let mut orders = vec!["roll 1d6+9223372036854775807 overflow"];
    c.send_valid(&orders);
    let r = c.poll();
    assert_eq!(r.rejected, 1, "{r:?}");
    let rec = c.umpire.export("g1", None).unwrap();
    assert!(rec.contains("line 5"), "{rec}");
    orders = vec!["roll 100d6 ok"; 200];
    c.send_valid(&orders);
    let r = c.poll();
    assert_eq!(r.rejected, 1, "{r:?}");
    let rec = c.umpire.export("g1", None).unwrap();
    assert!(rec.contains("dice in one move"), "{rec}");
    c.still_works();
}

fn run_umpire(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--dir")
        .arg(dir)
        .args(args)
        .env("UMPIRE_NOW", "2026-12-01T12:00:00Z")
        .output()
        .unwrap()
}

// 12.5: configuration that would fail every poll is refused by load and by
// `config check`, with a message and without a panic.
#[test]
fn config_check_refuses_what_would_fail_later() {
    let c = club();
    let dir = c.dir();
    drop(c.umpire);
    let cfg = dir.join("umpire.toml");
    let good = std::fs::read_to_string(&cfg).unwrap();
    for (from, to, says) in [
        (
            "name = \"Umpire\"",
            "name = \"Ump\\r\\nBcc: all@x\"",
            "name",
        ),
        ("batch = 1000", "batch = 0", "batch"),
        (
            "address = \"umpire@club.test\"",
            "address = \"umpire@\"",
            "address",
        ),
    ] {
        assert!(good.contains(from), "{from}");
        std::fs::write(&cfg, good.replace(from, to)).unwrap();
        for args in [&["config", "check"][..], &["poll"], &["games"]] {
            let out = run_umpire(&dir, args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?} {to}: {err}");
            assert!(err.contains(says) && !err.contains("panicked"), "{err}");
        }
    }
    std::fs::write(&cfg, good).unwrap();
    let out = run_umpire(&dir, &["config", "check"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

// 12.6: escapes in orders do not reach the admin's terminal through `show`.
#[test]
fn show_does_not_pass_control_characters_to_the_terminal() {
    let mut c = club();
    c.send_valid(&["advance \u{1b}[2J\u{1b}]0;owned\u{7} \u{202e}evil \u{9b}31m"]);
    assert_eq!(c.poll().accepted, 1);
    let dir = c.dir();
    drop(c.umpire);
    for args in [&["show", "g1"][..], &["show", "g1", "--full"], &["games"]] {
        let out = run_umpire(&dir, args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        for bad in ['\u{1b}', '\u{7}', '\u{202e}', '\u{9b}'] {
            assert!(!text.contains(bad), "{args:?}: {text:?}");
        }
    }
}

// 12.2: a record entry naming a huge dice position (a reveal at 2^32 or
// 2^53 once hashed that many times) is refused by its structure at once, by
// `verify`, `check` and `import` alike.
#[test]
fn a_reveal_at_a_huge_position_is_refused_before_any_hashing() {
    use umpire::core::record::{Body, entry_hash};
    let mut c = club();
    c.send_valid(&["roll 1d6 opening shot", "end turn"]);
    assert_eq!(c.poll().accepted, 1);
    let rec = c.verifies("g1");
    let dir = c.dir();
    drop(c.umpire);
    for p in [1u64 << 32, 1 << 53, u64::MAX] {
        let mut e = rec.entries().to_vec();
        let i = e
            .iter()
            .position(|x| matches!(x.body, Body::Reveal(_)))
            .expect("a reveal");
        if let Body::Reveal(r) = &mut e[i].body {
            r.position = p;
        }
        for j in i..e.len() {
            e[j].prev = e[j - 1].hash;
            e[j].hash = entry_hash(j as u64, &e[j].prev, &e[j].body);
        }
        let mut text = String::from("# umpire record, format 1\n");
        for x in &e {
            text.push_str(&serde_json::to_string(x).unwrap());
            text.push('\n');
        }
        let file = dir.join(format!("forged-{p}.txt"));
        std::fs::write(&file, &text).unwrap();
        let mv = dir.join("move.txt");
        std::fs::write(&mv, "game: g1\nside: blue\ncommand: status\n").unwrap();
        let f = file.to_str().unwrap();
        let start = std::time::Instant::now();
        for args in [
            vec!["verify", f],
            vec!["check", mv.to_str().unwrap(), "--record", f],
            vec!["import", f],
        ] {
            let out = run_umpire(&dir, &args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
            assert!(err.contains("position"), "{args:?}: {err}");
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
    }
}

// Beyond the list: multiparts nested thousands deep (a parser that recurses
// would overflow its stack, which no poll survives).
#[test]
fn a_mail_nested_thousands_deep_is_read_in_bounded_work() {
    let mut c = club();
    let depth = 20_000;
    let mut raw = String::from(
        "From: red@club.test\r\nTo: umpire@club.test\r\nMessage-ID: <deep@evil.test>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b0\r\n\r\n",
    );
    for i in 1..depth {
        raw.push_str(&format!(
            "--b{}\r\nContent-Type: multipart/mixed; boundary=b{i}\r\n\r\n",
            i - 1
        ));
    }
    raw.push_str("game: g1\r\n");
    c.drop_mail(raw.as_bytes());
    let r = c.poll();
    assert_eq!(r.mails, 1, "{r:?}");
    c.still_works();
}

// Beyond the list: one signed mail asking for thousands of commands would
// queue thousands of answers.
#[test]
fn a_move_file_of_a_thousand_commands_is_refused() {
    let mut c = club();
    let mut t = String::from("game: g1\nside: red\n");
    for _ in 0..1000 {
        t.push_str("command: status\n");
    }
    let sig = key(1).sign(MOVE_NAMESPACE, t.as_bytes()).unwrap();
    let n = c.n;
    c.drop_mail(&raw_mail("red@club.test", n, "", &armored(&t, &sig)));
    let r = c.poll();
    assert!(r.replies <= 1, "{r:?}");
    c.still_works();
}

// Every class at once through the binary: `umpire poll` exits 0 and the
// records verify; `umpire run` reads the next batch and keeps running.
#[test]
fn the_binary_polls_and_runs_through_every_hostile_class() {
    let mut c = club();
    let mut hostile = Vec::new();
    let head = c.head("ff1");
    let t = format!("game: ff1\0\nside: red\nafter: {head}\norders:\n  advance\n");
    let sig = key(1).sign(MOVE_NAMESPACE, t.as_bytes()).unwrap();
    hostile.push(raw_mail("red@club.test", 1, "", &armored(&t, &sig)));
    for (n, from) in ["a..b@x", "@", "a@[127.0.0.1]", "a@b@c"].iter().enumerate() {
        hostile.push(raw_mail(
            from,
            10 + n as u64,
            "",
            "game: g1\r\nside: red\r\n",
        ));
    }
    hostile.push(raw_mail(
        "red@club.test",
        20,
        "X-Loop: umpire@club.test\r\n",
        "game: g1\r\n",
    ));
    for m in &hostile {
        c.drop_mail(m);
    }
    let new = c.dir().join("maildir/new");
    std::fs::create_dir(new.join("0000.dir")).unwrap();
    let fifo = std::ffi::CString::new(new.join("0000.fifo").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    c.send_valid(&["by the binary"]);
    // A signed command for `run` to answer later (it needs no `after:`).
    let t = "game: g1\nside: red\ncommand: status\n";
    let sig = key(1).sign(MOVE_NAMESPACE, t.as_bytes()).unwrap();
    let status = raw_mail("red@club.test", 30, "", &armored(t, &sig));
    let dir = c.dir();
    let Club { tmp, umpire, .. } = c;
    drop(umpire); // the binary takes the database
    let out = run_umpire(&dir, &["poll"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let waiting = || {
        std::fs::read_dir(dir.join("maildir/new"))
            .unwrap()
            .flatten()
            .filter(|e| e.file_type().unwrap().is_file())
            .count()
    };
    assert_eq!(waiting(), 0);
    let rec = dir.join("g1.txt");
    let out = run_umpire(&dir, &["record", "g1", "-o", rec.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(
        std::fs::read_to_string(&rec)
            .unwrap()
            .contains("by the binary")
    );
    let out = run_umpire(&dir, &["verify", rec.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let sent = || std::fs::read_dir(dir.join("outbox")).unwrap().count();
    let before = sent();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--dir")
        .arg(&dir)
        .args(["run", "--interval", "1"])
        .env("UMPIRE_NOW", "2026-12-01T12:00:00Z")
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let md = Maildir::open(&dir.join("maildir")).unwrap();
    for (i, raw) in hostile.iter().enumerate() {
        // Other bytes than the first time, so they are new mails.
        let mut m = format!("X-Again: {i}\r\n").into_bytes();
        m.extend_from_slice(raw);
        md.deliver(&format!("9{i:03}.mail"), &m).unwrap();
    }
    md.deliver("9999.mail", &status).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while (waiting() > 0 || sent() == before) && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert_eq!(waiting(), 0, "run consumed the mails");
    assert!(sent() > before, "run answered the status command");
    assert!(
        child.try_wait().unwrap().is_none(),
        "umpire run keeps running"
    );
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    assert_eq!(child.wait().unwrap().code(), Some(0));
    drop(tmp);
}

// Beyond the list: a game whose stored state is broken (its metadata does not
// read, or its record no longer replays) once ended every deadline check, so
// no other game got its reminders or defaults. Each game is now contained.
#[test]
fn a_broken_game_does_not_stop_the_other_games_deadlines() {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let mut u = Umpire::open(tmp.path()).unwrap();
    // Sorted ahead of the healthy one, so the check meets them first.
    for id in ["a-record", "b-meta", "g1"] {
        u.create_game(
            NewGame {
                id: id.into(),
                ruleset: "freeform".into(),
                scenario: "open".into(),
                options: BTreeMap::new(),
                deadlines: Some(umpire::service::config::Deadlines {
                    hours: 1,
                    reminders: vec![],
                    grace_hours: 1,
                }),
                time_zones: BTreeMap::new(),
                sides: declared(&["red", "blue"]),
            },
            now(),
        )
        .unwrap();
    }
    let mut b = umpire::store::Batch::new();
    b.put(
        umpire::store::Table::Entries,
        umpire::store::entry_key("a-record", 1),
        b"{\"not\":\"an entry\"}".to_vec(),
    );
    b.put(
        umpire::store::Table::Games,
        "b-meta",
        b"{ not json".to_vec(),
    );
    u.store().commit(b).unwrap();
    drop(u);
    let mut u = Umpire::open(tmp.path()).unwrap();
    let later = jiff::Timestamp::from_second(now().as_second() + 3 * 3600).unwrap();
    let r = u.check_deadlines(later).expect("the check finishes");
    assert_eq!((r.defaults, r.failed), (1, 2), "{r:?}");
    let rec = Record::from_text(&u.export("g1", None).unwrap()).unwrap();
    assert!(rec.entries().iter().any(|e| e.body.kind() == "default"));
    let rs = umpire::games::find("freeform").unwrap();
    Game::replay(rs, &rec, ReplayMode::Verify).unwrap();
    // The broken games are tried again, and contained again, next time.
    let r = u.check_deadlines(later).expect("the check finishes again");
    assert_eq!(r.failed, 2, "{r:?}");
}

/// The biggest result mail in the outbox, in bytes.
fn biggest_mail(dir: &Path) -> u64 {
    std::fs::read_dir(dir.join("outbox"))
        .unwrap()
        .flatten()
        .map(|e| e.metadata().unwrap().len())
        .max()
        .unwrap_or(0)
}

// 12.3, the record side: 40 forged 64 KB mails once made every later result
// mail 2.7 MB. A refusal no side signed is kept as a digest and an excerpt.
#[test]
fn forty_forged_big_mails_do_not_grow_the_record_or_the_result_mails() {
    let mut c = club();
    c.send_valid(&["open the game"]);
    assert_eq!(c.poll().accepted, 1);
    let record_before = c.umpire.export("g1", None).unwrap().len();
    let mail_before = biggest_mail(&c.dir());
    for i in 0..40 {
        let mut t = format!("game: g1\nside: red\nafter: {}\norders:\n", c.head("g1"));
        while t.len() < 62 * 1024 {
            t.push_str(&format!(
                "  forged order number {i} of many, to fill the record\n"
            ));
        }
        // Signed, but with a key that is not red's.
        let sig = key(9).sign(MOVE_NAMESPACE, t.as_bytes()).unwrap();
        let n = c.n;
        c.drop_mail(&raw_mail("mallory@evil.test", n, "", &armored(&t, &sig)));
    }
    let r = c.poll();
    assert_eq!(r.rejected, 40, "{r:?}");
    let rec = c.verifies("g1");
    assert_eq!(rec.len(), 3 + 40, "each forged mail is one refusal entry");
    let grown = c.umpire.export("g1", None).unwrap().len() - record_before;
    assert!(grown < 40 * 2048, "the record grew by {grown} bytes");
    c.still_works();
    let mail_after = biggest_mail(&c.dir());
    assert!(
        mail_after < mail_before + 160 * 1024,
        "result mails grew from {mail_before} to {mail_after} bytes"
    );
    // What is kept says which bytes were refused, and a little of them.
    let text = c.umpire.export("g1", None).unwrap();
    assert!(text.contains("\"digest\":"), "a digest is kept");
    assert!(text.contains("forged order number 0"), "an excerpt is kept");
}

// 12.3: records written before refusals were digested hold whole refusals
// (here the demo's forged move, entry 3); they still verify, hashed as before.
#[test]
fn an_old_record_with_a_whole_forged_refusal_still_verifies() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/record/demo-freeform");
    let rec = Record::from_text(&std::fs::read_to_string(path).unwrap()).unwrap();
    let whole = rec
        .entries()
        .iter()
        .filter(|e| e.body.kind() == "rejected")
        .count();
    assert_eq!(whole, 1);
    let rs = umpire::games::find("freeform").unwrap();
    let (_, sum) = Game::replay(rs, &rec, ReplayMode::Verify).unwrap();
    assert_eq!(sum.rejected, 1);
}
