//! The real mail path end to end: players send signed moves by SMTP
//! submission, Postfix hands them to Dovecot, `umpire poll` (the binary, as
//! cron runs it) reads the club's mailbox over IMAP and answers over SMTP, and
//! the players read their results back over IMAP. Then the faults a club
//! meets: the IMAP server restarted mid-poll, the SMTP server down, the poll
//! killed, duplicate deliveries, a vacation auto-reply, a 30 MB mail, broken
//! MIME, and deadlines passing.
//!
//! Needs `UMPIRE_MAILSTACK=<dir>` naming a started stack (`scripts/test.sh`
//! starts one; see `tests/mail/mailstack.sh`). Without it, or with servers
//! that do not answer, every test here FAILS.
//!
//! Each test has its own folders (mail to `NAME+TAG@club.test` lands in NAME's
//! folder TAG): the umpire is `gm+TAG`, the players `alice+TAG`, ... Tests that
//! stop or restart a server hold the stack's lock exclusively, the others
//! hold it shared (as in `tests/mail_servers/mail_transport.rs`).
//!
//! "Exactly once" is counted by Message-ID in the recipients' mailboxes after
//! Postfix's queue is empty.

#[path = "real_mail/support.rs"]
mod support;

#[path = "real_mail/oauth2.rs"]
mod oauth2;

use std::collections::{BTreeMap, BTreeSet};
use std::io::BufRead;
use std::process::{Child, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;
use support::{Club, ClubOptions, Player, Stack, Stored, Wire, copy_dir, stack};
use umpire::core::record::{Body, Record};
use umpire::core::sig::{MOVE_NAMESPACE, SecretKey};
use umpire::mail::mime::{Compose, build};
use umpire::mail::outbox::FileOutbox;
use umpire::mail::{Incoming, Intake, MailError};
use umpire::service::Umpire;
use umpire::service::outbox::Item;
use umpire::store::Table;

const PLAYERS: [&str; 3] = ["alice", "bob", "carol"];
const T0: &str = "2026-12-01T10:00:00Z";

/// `T0` plus `secs` seconds, as `UMPIRE_NOW` wants it.
fn at(secs: i64) -> String {
    let t0: jiff::Timestamp = T0.parse().unwrap();
    jiff::Timestamp::from_second(t0.as_second() + secs)
        .unwrap()
        .to_string()
}

const MIN: i64 = 60;
const HOUR: i64 = 3600;

// ------------------------------------------------------------------ mails

/// A mail as a player's mail client shows it.
#[derive(Debug, Clone)]
struct Mail {
    message_id: String,
    in_reply_to: Option<String>,
    references: Vec<String>,
    auto_submitted: Option<String>,
    from: String,
    subject: String,
    text: String,
    attachments: BTreeMap<String, Vec<u8>>,
}

fn ids(v: &str) -> Vec<String> {
    v.split_whitespace()
        .filter(|s| s.starts_with('<') && s.ends_with('>'))
        .map(str::to_string)
        .collect()
}

fn parse(s: &Stored) -> Mail {
    use mailparse::MailHeaderMap;
    let m = mailparse::parse_mail(&s.raw).expect("a readable mail");
    let h = |name: &str| m.get_headers().get_first_value(name);
    let r = umpire::mail::mime::read(&s.raw).expect("a readable mail");
    Mail {
        message_id: h("Message-ID").unwrap_or_default().trim().to_string(),
        in_reply_to: h("In-Reply-To").map(|v| v.trim().to_string()),
        references: h("References").map(|v| ids(&v)).unwrap_or_default(),
        auto_submitted: h("Auto-Submitted").map(|v| v.trim().to_string()),
        from: r.from.clone().unwrap_or_default(),
        subject: r.subject.clone(),
        text: r.text.replace("\r\n", "\n"),
        attachments: r
            .attachments
            .into_iter()
            .map(|p| (p.name, p.bytes))
            .collect(),
    }
}

/// `user`'s mails in the club's folder, oldest first.
fn mailbox(st: &Stack, club: &Club, user: &str) -> Vec<Mail> {
    st.read(user, &club.tag).iter().map(parse).collect()
}

/// Sorted Message-IDs of `user`'s folder (duplicates kept).
fn message_ids(st: &Stack, club: &Club, user: &str) -> Vec<String> {
    let mut v: Vec<String> = mailbox(st, club, user)
        .into_iter()
        .map(|m| m.message_id)
        .collect();
    v.sort();
    v
}

/// A mail from a club member to the umpire, as a mail client builds it.
#[allow(clippy::too_many_arguments)]
fn member_mail(
    club: &Club,
    user: &str,
    n: u64,
    subject: &str,
    body: String,
    attachments: Vec<(String, String, Vec<u8>)>,
    in_reply_to: Option<&str>,
    headers: &[(&str, &str)],
) -> (String, Vec<u8>) {
    let message_id = format!("<{}.{n}.{user}@club.test>", club.tag);
    let raw = build(&Compose {
        from_name: user.to_string(),
        from: format!("{user}+{}@club.test", club.tag),
        to: vec![club.address.clone()],
        subject: subject.into(),
        message_id: message_id.clone(),
        in_reply_to: in_reply_to.map(str::to_string),
        references: in_reply_to.map(|r| vec![r.to_string()]).unwrap_or_default(),
        text: body,
        attachments,
        auto_submitted: "no",
        headers: headers
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
        date: std::time::UNIX_EPOCH
            + Duration::from_secs(
                T0.parse::<jiff::Timestamp>().unwrap().as_second() as u64 + n * 60,
            ),
    })
    .unwrap();
    (message_id, raw)
}

fn move_text(club: &Club, side: &str, head: &str, orders: &[&str]) -> String {
    let mut t = format!(
        "game: {}\nside: {side}\nafter: {head}\norders:\n",
        club.game
    );
    for o in orders {
        t.push_str(&format!("  {o}\n"));
    }
    t
}

/// A signed move mailed as `move.txt` + `move.txt.sig`, or armored in the body.
fn move_mail(
    club: &Club,
    user: &str,
    n: u64,
    text: &str,
    sig: &str,
    armored: bool,
    in_reply_to: Option<&str>,
) -> (String, Vec<u8>) {
    if armored {
        let body = format!(
            "My orders.\n\n{}",
            umpire::core::movefile::armor(text.as_bytes(), sig)
        );
        member_mail(club, user, n, "orders", body, vec![], in_reply_to, &[])
    } else {
        member_mail(
            club,
            user,
            n,
            "orders",
            "Orders attached.\n".into(),
            vec![
                (
                    "move.txt".into(),
                    "text/plain".into(),
                    text.as_bytes().to_vec(),
                ),
                (
                    "move.txt.sig".into(),
                    "application/octet-stream".into(),
                    sig.as_bytes().to_vec(),
                ),
            ],
            in_reply_to,
            &[],
        )
    }
}

fn sign(p: &Player, text: &str) -> String {
    p.key.sign(MOVE_NAMESPACE, text.as_bytes()).unwrap()
}

/// The record head a result mail tells its reader to write against.
fn head_in(m: &Mail) -> String {
    let mut lines = m.text.lines();
    lines
        .find(|l| l.starts_with("Record head"))
        .and_then(|_| lines.next())
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no record head in {}:\n{}", m.message_id, m.text))
        .to_string()
}

/// Runs `umpire verify` on the record parts `held` (a player's mails, `m`
/// among them) carried, each with its signature, as a sceptical player would;
/// returns the record they make.
fn verify_attached(club: &Club, held: &[Mail], m: &Mail) -> Record {
    assert!(
        m.attachments
            .keys()
            .any(|n| n.starts_with("record") && n.ends_with(".txt")),
        "{} carries no record part",
        m.message_id
    );
    let d = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    let mut parts = Vec::new();
    for (i, h) in held.iter().chain([m]).enumerate() {
        for (name, bytes) in &h.attachments {
            if !(name.starts_with("record") && name.ends_with(".txt")) {
                continue;
            }
            let sig = h
                .attachments
                .get(&format!("{name}.sig"))
                .unwrap_or_else(|| panic!("{} carries no {name}.sig", h.message_id));
            let path = d.path().join(format!("{i}-{name}"));
            std::fs::write(&path, bytes).unwrap();
            std::fs::write(d.path().join(format!("{i}-{name}.sig")), sig).unwrap();
            files.push(path);
            parts.push((name.clone(), String::from_utf8(bytes.clone()).unwrap()));
        }
    }
    let out = std::process::Command::new(support::umpire_bin())
        .arg("verify")
        .args(&files)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("record verified"),
        "umpire verify failed on the record parts of {}:\n{stdout}\n{}",
        m.message_id,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!(
            "signed by the umpire's key {}",
            club.umpire_fingerprint
        )),
        "the record parts of {} are not signed by the umpire:\n{stdout}",
        m.message_id
    );
    let rec = umpire::core::segment::assemble(&parts).unwrap();
    assert!(
        m.text
            .replace("\r\n", "\n")
            .contains(&format!(":\n  {}", rec.head())),
        "{}: the text's record head is not the attached record's",
        m.message_id
    );
    rec
}

/// The result of the move a player sent, as `reader` gets it: threading,
/// rolls, the record and the umpire's signature.
struct SentMove<'a> {
    mover: &'a str,
    message_id: &'a str,
    text: &'a str,
}

fn check_result(club: &Club, reader: &str, held: &[Mail], m: &Mail, mv: &SentMove<'_>) -> u64 {
    let opening = &held[0];
    let prefix = format!("<{}.", club.game);
    let suffix = format!(".{reader}@club.test>");
    let seq: u64 = m
        .message_id
        .strip_prefix(&prefix)
        .and_then(|r| r.strip_suffix(&suffix))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{reader} got an unexpected mail {}", m.message_id));
    assert_eq!(m.from, club.address);
    assert_eq!(m.auto_submitted.as_deref(), Some("auto-replied"));
    // The thread: every mail of a game to a player hangs off its opening.
    assert_eq!(
        m.references.first(),
        Some(&opening.message_id),
        "{}: References do not start at {reader}'s opening",
        m.message_id
    );
    if reader == mv.mover {
        assert_eq!(m.in_reply_to.as_deref(), Some(mv.message_id));
        assert_eq!(
            m.references,
            vec![opening.message_id.clone(), mv.message_id.to_string()]
        );
    } else {
        assert_eq!(m.in_reply_to.as_ref(), Some(&opening.message_id));
    }
    let rec = verify_attached(club, held, m);
    let entry = &rec.entries()[seq as usize];
    let Body::Move(e) = &entry.body else {
        panic!("entry {seq} is not a move: {:?}", entry.body)
    };
    assert_eq!(e.side, mv.mover);
    assert_eq!(
        e.text.value().map(String::as_str),
        Some(mv.text),
        "the record holds the exact signed bytes"
    );
    // roll 2d6 initiative + roll 1d6+1 fire at 0712: three dice, each in the text.
    assert_eq!(e.rolls.len(), 3, "{:?}", e.rolls);
    for r in e.rolls.iter().filter_map(|r| r.value()) {
        let line = format!("d{} = {}   {}", r.sides, r.value, r.label);
        assert!(
            m.text.contains(&line),
            "{}: roll {line:?} is missing from the text:\n{}",
            m.message_id,
            m.text
        );
    }
    seq
}

// --------------------------------------------------------- the happy path

#[test]
fn three_players_play_rounds_over_real_mail() {
    let st = stack();
    let _lock = st.shared();
    let club = Club::new(&st, "happy", &PLAYERS, ClubOptions::default());
    let work = tempfile::tempdir().unwrap();

    // The first cron run sends the openings.
    club.poll(&at(MIN));
    let mut boxes: BTreeMap<&str, Vec<Mail>> = BTreeMap::new();
    let mut openings: BTreeMap<&str, Mail> = BTreeMap::new();
    for p in PLAYERS {
        st.await_count(p, &club.tag, 1);
        let got = mailbox(&st, &club, p);
        assert_eq!(got.len(), 1, "{p}: {got:?}");
        let o = got[0].clone();
        assert_eq!(o.message_id, format!("<{}.0.{p}@club.test>", club.game));
        assert!(o.subject.contains("new game"), "{}", o.subject);
        assert_eq!(o.auto_submitted.as_deref(), Some("auto-replied"));
        assert_eq!(o.in_reply_to, None);
        assert!(
            o.text.contains(&club.umpire_fingerprint),
            "the opening names the umpire's key"
        );
        verify_attached(&club, &[], &o);
        openings.insert(p, o);
        boxes.insert(p, got);
    }

    // Two rounds: each player writes against the head of the latest mail it
    // got, signs with `umpire sign`, and mails the move (bob pastes it armored).
    let mut sent = 0u32;
    let mut last_record = Vec::new();
    for round in 1..=2 {
        for p in PLAYERS {
            let player = club.player(p);
            let latest = boxes[p].last().unwrap().clone();
            let text = move_text(
                &club,
                p,
                &head_in(&latest),
                &[
                    &format!("Round {round}: the {p} column advances on the bridge"),
                    "roll 2d6 initiative",
                    "roll 1d6+1 fire at 0712",
                    "end turn",
                ],
            );
            let file = work.path().join(format!("{p}-{round}.txt"));
            std::fs::write(&file, &text).unwrap();
            let key = player.key_file.to_str().unwrap();
            let file = file.to_str().unwrap();
            sent += 1;
            let (mid, raw) = if p == "bob" {
                // bob uses webmail: the armored block pasted into the body.
                let block = club.ok(&["sign", "--key", key, "--armor", file], T0);
                member_mail(
                    &club,
                    p,
                    sent as u64,
                    "Re: my orders",
                    format!("Here are my orders.\n\n{block}\nbob\n"),
                    vec![],
                    Some(&latest.message_id),
                    &[],
                )
            } else {
                club.ok(&["sign", "--key", key, file], T0);
                let sig = std::fs::read_to_string(format!("{file}.sig")).unwrap();
                move_mail(
                    &club,
                    p,
                    sent as u64,
                    &text,
                    &sig,
                    false,
                    Some(&latest.message_id),
                )
            };
            st.send(p, &player.addr, &club.address, &raw);
            st.await_count("gm", &club.tag, sent);

            let log = club.poll(&at(sent as i64 * 10 * MIN + MIN));
            assert!(log.contains("accepted as entry"), "{log}");
            let mv = SentMove {
                mover: p,
                message_id: &mid,
                text: &text,
            };
            for q in PLAYERS {
                let want = boxes[q].len() as u32 + 1;
                st.await_count(q, &club.tag, want);
                let got = mailbox(&st, &club, q);
                let new = got.last().unwrap();
                check_result(&club, q, &got, new, &mv);
                last_record = verify_attached(&club, &got, new).to_text().into_bytes();
                boxes.insert(q, got);
            }
        }
    }

    // Nothing more arrives: each player has the opening and six results,
    // every Message-ID once.
    st.drain();
    for p in PLAYERS {
        let ids = message_ids(&st, &club, p);
        assert_eq!(ids.len(), 7, "{p}: {ids:?}");
        let unique: BTreeSet<&String> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len(), "{p} got a mail twice: {ids:?}");
    }
    // The club's mailbox: every move read and marked done.
    let gm = st.seen("gm", &club.tag);
    assert_eq!(gm, vec![true; 6], "every move read and marked done");
    // The record the players hold is the umpire's.
    let exported = club.ok(&["record", &club.game], T0);
    assert_eq!(exported.as_bytes(), &last_record[..]);
}

// ------------------------------------------- a script and one clean run

/// Mails for the intake, as a Vec (the clean run of a script).
#[derive(Default)]
struct VecIntake {
    mails: Vec<Incoming>,
    n: u64,
}

impl VecIntake {
    fn push(&mut self, raw: Vec<u8>) {
        self.n += 1;
        self.mails.push(Incoming {
            id: format!("v{}", self.n),
            raw,
            oversize: None,
        });
    }
}

impl Intake for VecIntake {
    fn fetch(&mut self, limit: usize) -> Result<Vec<Incoming>, MailError> {
        Ok(self.mails.iter().take(limit).cloned().collect())
    }
    fn done(&mut self, id: &str) -> Result<(), MailError> {
        self.mails.retain(|m| m.id != id);
        Ok(())
    }
}

/// `raw` with every bare LF made CRLF, as SMTP and IMAP carry mail.
fn crlf(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() + raw.len() / 20);
    for (i, b) in raw.iter().enumerate() {
        if *b == b'\n' && (i == 0 || raw[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(*b);
    }
    out
}

/// What the players send in a fault test, and what one clean run makes of it.
struct Script {
    /// (sender, raw mail), in the order they must arrive.
    mails: Vec<(String, Vec<u8>)>,
    /// The game's record after a clean run.
    record: String,
    /// Message-IDs each recipient gets in a clean run (openings included).
    expected: BTreeMap<String, Vec<String>>,
}

/// `moves` moves round the table, with a forgery, an out-of-turn move and
/// a second delivery of one mail mixed in. Played once, cleanly, in a copy
/// of the data directory (the umpire's dice secret is needed to know each
/// move's `after:` head) with a Vec intake and a file outbox.
fn script(club: &Club, moves: usize) -> Script {
    let scratch = tempfile::tempdir().unwrap();
    copy_dir(&club.dir, scratch.path());
    let now: jiff::Timestamp = T0.parse().unwrap();
    let mut u = Umpire::open(scratch.path()).unwrap();
    let mut out = FileOutbox::open(&scratch.path().join("clean-outbox")).unwrap();
    let mut intake = VecIntake::default();
    let mut mails: Vec<(String, Vec<u8>)> = Vec::new();
    let forger = SecretKey::from_seed(&[9; 32], "dave").unwrap();
    let mut n = 0u64;
    let mut feed = |u: &mut Umpire, sender: &str, raw: Vec<u8>| {
        // IMAP serves every line with CRLF, whatever was sent: so does the clean run.
        intake.push(crlf(&raw));
        u.poll(&mut intake, now).unwrap();
        mails.push((sender.to_string(), raw));
    };
    for i in 0..moves {
        let p = &club.players[i % club.players.len()];
        let head = u.game(&club.game).unwrap().record().head().to_hex();
        if i == 2 {
            // dave forges a move for the side to move: refused, dave told once.
            let text = move_text(club, &p.user, &head, &["roll 1d6 luck", "end turn"]);
            let sig = forger.sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
            n += 1;
            let (_, raw) = move_mail(club, "dave", n, &text, &sig, false, None);
            feed(&mut u, "dave", raw);
        }
        if i == 4 {
            // The previous mover writes again, out of turn: refused, told.
            let prev = &club.players[(i - 1) % club.players.len()];
            let text = move_text(club, &prev.user, &head, &["roll 1d6 eager", "end turn"]);
            n += 1;
            let (_, raw) = move_mail(club, &prev.user, n, &text, &sign(prev, &text), true, None);
            feed(&mut u, &prev.user, raw);
        }
        let text = move_text(
            club,
            &p.user,
            &head,
            &[
                &format!("move {i}: hold the ridge"),
                "roll 2d6 initiative",
                "end turn",
            ],
        );
        n += 1;
        let (_, raw) = move_mail(club, &p.user, n, &text, &sign(p, &text), i % 2 == 1, None);
        feed(&mut u, &p.user, raw.clone());
        if i == 6 {
            // The mail system delivers one mail twice (same Message-ID).
            feed(&mut u, &p.user, raw);
        }
    }
    u.deliver(&mut out, now).unwrap();
    let record = u.export(&club.game, None).unwrap();
    let mut expected: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (_, v) in u.store().scan(Table::Outbox, b"").unwrap() {
        let item = Item::from_stored(&v).unwrap();
        assert!(item.sent.is_some(), "the clean run sent everything");
        for to in &item.to {
            expected
                .entry(to.clone())
                .or_default()
                .push(item.message_id.clone());
        }
    }
    for v in expected.values_mut() {
        v.sort();
    }
    Script {
        mails,
        record,
        expected,
    }
}

/// Sends the script's mails by SMTP, each once it is sure the previous one
/// is in the club's folder (so IMAP hands them out in order).
fn send_script(st: &Stack, club: &Club, s: &Script) {
    for (i, (user, raw)) in s.mails.iter().enumerate() {
        st.send(user, &st.addr(user, &club.tag), &club.address, raw);
        st.await_count("gm", &club.tag, i as u32 + 1);
    }
}

/// After the faults: the same record as one clean run, every reply in its
/// recipient's mailbox exactly once, every mail marked done, nothing waiting.
fn assert_like_one_clean_run(st: &Stack, club: &Club, s: &Script, now: &str) {
    st.drain();
    let exported = club.ok(&["record", &club.game], now);
    assert!(
        exported == s.record,
        "the record differs from one clean run's:\n--- got\n{exported}\n--- clean\n{}",
        s.record
    );
    for (addr, want) in &s.expected {
        let user = addr.split('+').next().unwrap();
        let got = message_ids(st, club, user);
        assert_eq!(&got, want, "{user}'s mailbox differs from one clean run's");
    }
    let gm = st.seen("gm", &club.tag);
    assert_eq!(
        gm,
        vec![true; s.mails.len()],
        "every mail in the club's folder, each marked done"
    );
    let d = club.ok(&["deliver"], now);
    assert_eq!(d.trim(), "0 sent, 0 deferred, 0 failed, 0 waiting");
}

/// `umpire -v poll` in the background; its log lines come through the channel.
fn spawn_poll(club: &Club, now: &str) -> (Child, Receiver<String>) {
    let mut child = club
        .command(&["-v", "poll"], now)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// Reads log lines until `k` mails were processed; all lines read so far.
fn after_mails(rx: &Receiver<String>, k: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut mails = 0;
    while mails < k {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(l) => {
                if l.contains(" mail ") && l.contains("result=") {
                    mails += 1;
                }
                lines.push(l);
            }
            Err(e) => {
                panic!("the poll ended or stalled after {mails} of {k} mails ({e}):\n{lines:#?}")
            }
        }
    }
    lines
}

fn rest(rx: &Receiver<String>) -> Vec<String> {
    rx.iter().collect()
}

fn pid(c: &Child) -> String {
    c.id().to_string()
}

fn signal(c: &Child, sig: &str) {
    let st = std::process::Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(pid(c))
        .status()
        .unwrap();
    assert!(st.success(), "kill -{sig} failed");
}

// ------------------------------------------------------------------ faults

#[test]
fn poll_killed_mid_run_and_rerun_equals_one_clean_run() {
    let st = stack();
    let _lock = st.shared();
    let club = Club::new(
        &st,
        "kill",
        &PLAYERS,
        ClubOptions {
            commit_every: 4,
            ..Default::default()
        },
    );
    let s = script(&club, 15);
    send_script(&st, &club, &s);

    // SIGKILL while it works through the mails, twice, at different points
    // (inside and across commit groups of 4), then a rerun to the end.
    for k in [3, 6] {
        let (mut child, rx) = spawn_poll(&club, T0);
        let lines = after_mails(&rx, k);
        child.kill().unwrap();
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            status.signal(),
            Some(9),
            "the poll was not killed mid-run: {status}\n{lines:#?}"
        );
    }
    let log = club.poll(T0);
    assert!(log.contains("result="), "the rerun found work left:\n{log}");
    club.poll(T0);
    assert_like_one_clean_run(&st, &club, &s, T0);
}

/// Runs a `mailstack.sh` verb on drop unless disarmed: a failed assertion
/// must not leave a server down for the next test.
struct Restore<'a> {
    st: &'a Stack,
    verb: &'static str,
    armed: bool,
}

impl Drop for Restore<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.st.script(self.verb);
        }
    }
}

#[test]
fn imap_restart_mid_poll_loses_nothing_and_applies_nothing_twice() {
    let st = stack();
    let _lock = st.exclusive();
    let club = Club::new(
        &st,
        "imaprestart",
        &PLAYERS,
        ClubOptions {
            wire: Wire::StarttlsAndTls,
            commit_every: 4,
            ..Default::default()
        },
    );
    let s = script(&club, 15);
    send_script(&st, &club, &s);

    // Postfix authenticates through Dovecot: after Dovecot restarts, each
    // running smtpd answers its first AUTH with 454 "Connection lost to
    // authentication server". The umpire takes that as transient (see the
    // reruns below); the other tests get a Postfix with fresh connections.
    let _refresh = Refresh { st: &st };
    // The poll has fetched the mails and is adjudicating them when Dovecot
    // restarts (the poll is paused so the restart surely lands mid-run).
    let (mut child, rx) = spawn_poll(&club, T0);
    let mut lines = after_mails(&rx, 2);
    signal(&child, "STOP");
    st.script("restart-imap");
    signal(&child, "CONT");
    let status = child.wait().unwrap();
    lines.extend(rest(&rx));
    let log = lines.join("\n");
    assert!(
        !status.success() && log.contains("temporarily unavailable"),
        "the poll should fail on the dropped session ({status}):\n{log}"
    );
    // Its committed work is kept, the rest is picked up by the next run;
    // a reply deferred by a 454 goes with a later one (cron, every 5 minutes).
    let log = club.poll(T0);
    assert!(log.contains("result="), "{log}");
    let mut now = at(0);
    for run in 1..=5 {
        let d = club.ok(&["deliver"], &now);
        if d.trim() == "0 sent, 0 deferred, 0 failed, 0 waiting" {
            break;
        }
        assert!(run < 5, "replies still waiting after {run} runs: {d}");
        now = at(run * 5 * MIN);
        club.poll(&now);
    }
    assert_like_one_clean_run(&st, &club, &s, &now);
}

/// Restarts Postfix on drop (see the IMAP restart test).
struct Refresh<'a> {
    st: &'a Stack,
}

impl Drop for Refresh<'_> {
    fn drop(&mut self) {
        self.st.script("stop-smtp");
        self.st.script("start-smtp");
    }
}

#[test]
fn smtp_down_replies_wait_in_the_outbox_with_backoff_then_go_once() {
    let st = stack();
    let _lock = st.exclusive();
    let club = Club::new(
        &st,
        "smtpdown",
        &PLAYERS,
        ClubOptions {
            wire: Wire::StarttlsAndTls,
            ..Default::default()
        },
    );
    club.poll(&at(0));
    for p in PLAYERS {
        st.await_count(p, &club.tag, 1);
    }
    let alice = club.player("alice");
    let text = move_text(
        &club,
        "alice",
        &head_in(&mailbox(&st, &club, "alice")[0]),
        &["roll 2d6 initiative", "roll 1d6+1 fire at 0712", "end turn"],
    );
    let (_, raw) = move_mail(&club, "alice", 1, &text, &sign(alice, &text), false, None);
    st.send("alice", &alice.addr, &club.address, &raw);
    st.await_count("gm", &club.tag, 1);

    st.script("stop-smtp");
    let mut restore = Restore {
        st: &st,
        verb: "start-smtp",
        armed: true,
    };
    // The move is adjudicated; its three results cannot go out.
    let t1 = 10 * MIN;
    let log = club.poll(&at(t1));
    assert!(log.contains("accepted as entry"), "{log}");
    assert!(log.contains("delivery deferred"), "{log}");
    // Within the backoff (1 min after the first failure) alice's result waits;
    // the next one is tried, fails, and backs off too.
    let d = club.ok(&["deliver"], &at(t1 + 30));
    assert_eq!(d.trim(), "0 sent, 1 deferred, 0 failed, 2 waiting");
    // Past it, alice's is tried again and backs off for 2 minutes.
    let d = club.ok(&["deliver"], &at(t1 + 61));
    assert_eq!(d.trim(), "0 sent, 1 deferred, 0 failed, 2 waiting");

    st.script("start-smtp");
    restore.armed = false;
    // Back up: bob's (tried at +30 s, due at +90 s) and carol's (never
    // tried) go; alice's (tried at +61 s) waits till +181 s.
    let d = club.ok(&["deliver"], &at(t1 + 90));
    assert_eq!(d.trim(), "2 sent, 0 deferred, 0 failed, 1 waiting");
    st.drain();
    assert_eq!(st.count("bob", &club.tag), 2);
    assert_eq!(st.count("carol", &club.tag), 2);
    assert_eq!(
        st.count("alice", &club.tag),
        1,
        "alice's result is still backing off"
    );
    // The next cron run after the backoff sends it (in its first delivery
    // round, which -v does not report).
    club.poll(&at(t1 + 200));
    club.poll(&at(t1 + 300));
    st.drain();
    for p in PLAYERS {
        let ids = message_ids(&st, &club, p);
        assert_eq!(
            ids,
            vec![
                format!("<{}.0.{p}@club.test>", club.game),
                format!("<{}.1.{p}@club.test>", club.game)
            ],
            "{p}: each mail exactly once"
        );
    }
    let d = club.ok(&["deliver"], &at(t1 + 400));
    assert_eq!(d.trim(), "0 sent, 0 deferred, 0 failed, 0 waiting");
}

#[test]
fn a_second_delivery_of_the_same_mail_is_applied_once_and_answered_once() {
    let st = stack();
    let _lock = st.shared();
    let club = Club::new(&st, "dup", &PLAYERS, ClubOptions::default());
    club.poll(&at(0));
    for p in PLAYERS {
        st.await_count(p, &club.tag, 1);
    }
    // alice's move is delivered twice before the poll (same Message-ID; the
    // copies differ in Postfix's trace headers).
    let alice = club.player("alice");
    let head = head_in(&mailbox(&st, &club, "alice")[0]);
    let text = move_text(&club, "alice", &head, &["roll 2d6 initiative", "end turn"]);
    let (_, raw) = move_mail(&club, "alice", 1, &text, &sign(alice, &text), false, None);
    st.send("alice", &alice.addr, &club.address, &raw);
    st.send("alice", &alice.addr, &club.address, &raw);
    st.await_count("gm", &club.tag, 2);
    let log = club.poll(&at(MIN));
    assert_eq!(log.matches("accepted as entry").count(), 1, "{log}");
    assert!(log.contains("a second delivery of"), "{log}");
    for p in PLAYERS {
        st.await_count(p, &club.tag, 2);
    }
    // bob's move, and its copy only after it was adjudicated.
    let bob = club.player("bob");
    let head = head_in(mailbox(&st, &club, "bob").last().unwrap());
    let text = move_text(&club, "bob", &head, &["roll 1d6 scouting", "end turn"]);
    let (_, raw) = move_mail(&club, "bob", 2, &text, &sign(bob, &text), true, None);
    st.send("bob", &bob.addr, &club.address, &raw);
    st.await_count("gm", &club.tag, 3);
    club.poll(&at(2 * MIN));
    st.send("bob", &bob.addr, &club.address, &raw);
    st.await_count("gm", &club.tag, 4);
    let log = club.poll(&at(3 * MIN));
    assert!(log.contains("a second delivery of"), "{log}");
    assert!(!log.contains("accepted as entry"), "{log}");

    st.drain();
    let record = club.ok(&["record", &club.game], T0);
    let rec = Record::from_text(&record).unwrap();
    let moves = rec
        .entries()
        .iter()
        .filter(|e| matches!(e.body, Body::Move(_)))
        .count();
    assert_eq!(moves, 2, "each move applied once");
    for p in PLAYERS {
        let ids = message_ids(&st, &club, p);
        assert_eq!(ids.len(), 3, "{p}: the opening and two results: {ids:?}");
        assert_eq!(ids.iter().collect::<BTreeSet<_>>().len(), 3, "{p}: {ids:?}");
    }
    assert!(st.seen("gm", &club.tag).iter().all(|s| *s));
}

#[test]
fn a_vacation_auto_reply_to_a_result_is_never_answered() {
    let st = stack();
    let _lock = st.shared();
    let club = Club::new(&st, "loop", &PLAYERS, ClubOptions::default());
    club.poll(&at(0));
    st.await_count("alice", &club.tag, 1);
    // alice moves; bob's result says it is his move, with a move template.
    let alice = club.player("alice");
    let text = move_text(
        &club,
        "alice",
        &head_in(&mailbox(&st, &club, "alice")[0]),
        &["roll 2d6 initiative", "end turn"],
    );
    let (_, mv) = move_mail(&club, "alice", 1, &text, &sign(alice, &text), false, None);
    st.send("alice", &alice.addr, &club.address, &mv);
    st.await_count("gm", &club.tag, 1);
    club.poll(&at(MIN));
    st.await_count("bob", &club.tag, 2);
    let result = mailbox(&st, &club, "bob").remove(1);
    assert!(result.subject.contains("your move"), "{}", result.subject);
    let quoted: String = result.text.lines().map(|l| format!("> {l}\n")).collect();
    assert!(
        quoted.contains("> game: ") && quoted.contains("> after: "),
        "the quoted result holds a move template (which looks like an unsigned move)"
    );
    // bob's vacation responder answers it, quoting it: once with the null
    // sender (as Sieve vacation sends), once from his address.
    let bob = club.player("bob");
    let body = format!("I am away until January and will read your mail then.\n\n{quoted}");
    let headers = [("Auto-Submitted", "auto-replied")];
    let mut auto = Vec::new();
    for (n, subject) in [(2, "Auto"), (3, "Out of office")] {
        let (_, raw) = member_mail(
            &club,
            "bob",
            n,
            &format!("{subject}: {}", result.subject),
            body.clone(),
            vec![],
            Some(&result.message_id),
            &headers,
        );
        auto.push(raw);
    }
    st.send("bob", "", &club.address, &auto[0]);
    st.send("bob", &bob.addr, &club.address, &auto[1]);
    // And the umpire's own mail comes back to it (bob forwards everything
    // to the club address).
    let own = st.read("bob", &club.tag).remove(1).raw;
    st.send("bob", &bob.addr, &club.address, &own);
    st.await_count("gm", &club.tag, 4);

    let log = club.poll(&at(2 * MIN));
    assert_eq!(log.matches("ignored: automatic mail").count(), 3, "{log}");
    let d = club.ok(&["deliver"], &at(3 * MIN));
    assert_eq!(d.trim(), "0 sent, 0 deferred, 0 failed, 0 waiting");
    st.drain();
    assert_eq!(st.count("bob", &club.tag), 2, "no answer to an auto-reply");
    assert!(st.seen("gm", &club.tag).iter().all(|s| *s));
}

#[test]
fn a_30_mb_mail_is_answered_too_big_once_without_being_downloaded() {
    let st = stack();
    let _lock = st.shared();
    let club = Club::new(&st, "big", &PLAYERS, ClubOptions::default());
    club.poll(&at(0));
    let dave = "dave";
    // A scanned map attached, 30 MB of base64, then a normal move behind it.
    let big_mail = |n: u32, bytes: usize| -> Vec<u8> {
        let line =
            "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0\r\n";
        format!(
            "From: dave <{from}>\r\nTo: {to}\r\nSubject: the map, scanned\r\n\
             Message-ID: <{tag}.big{n}@club.test>\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\n\
             MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
             --b\r\nContent-Type: text/plain\r\n\r\nHere is my map.\r\n\
             --b\r\nContent-Type: image/png; name=map.png\r\nContent-Transfer-Encoding: base64\r\n\r\n\
             {scan}--b--\r\n",
            from = st.addr(dave, &club.tag),
            to = club.address,
            tag = club.tag,
            scan = line.repeat(bytes / line.len() + 1),
        )
        .into_bytes()
    };
    let big = big_mail(1, 30_000_000);
    assert!(big.len() > 30_000_000);
    st.send(dave, &st.addr(dave, &club.tag), &club.address, &big);
    st.await_count("alice", &club.tag, 1);
    let alice = club.player("alice");
    let head = head_in(&mailbox(&st, &club, "alice")[0]);
    let text = move_text(&club, "alice", &head, &["roll 2d6 initiative", "end turn"]);
    let (_, mv) = move_mail(&club, "alice", 2, &text, &sign(alice, &text), false, None);
    st.send("alice", &alice.addr, &club.address, &mv);
    st.await_count("gm", &club.tag, 2);

    // Polls in-process, to count the bytes the IMAP intake downloads.
    let poll_counting = |now: &str| {
        let mut u = Umpire::open(&club.dir).unwrap();
        let mut inbox = u.open_inbox().unwrap();
        let mut outbox = u.open_outbox().unwrap();
        let now: jiff::Timestamp = now.parse().unwrap();
        let r = u.poll(&mut inbox, now).unwrap();
        let bytes = match &inbox {
            umpire::service::transports::Inbox::Imap(i) => i.bytes_received(),
            _ => panic!("the club reads IMAP"),
        };
        let d = u.deliver(&mut outbox, now).unwrap();
        (r, bytes, d)
    };
    let (r, bytes, d) = poll_counting(&at(MIN));
    assert_eq!((r.mails, r.accepted, r.ignored), (2, 1, 1), "{r:?}");
    assert!(bytes < 1024 * 1024, "the poll downloaded {bytes} bytes");
    assert_eq!(d.sent, 4, "one too-big note and three results: {d:?}");

    // A second big mail the same day, 5 MB: over the umpire's 2 MiB limit
    // though under the IMAP intake's default 10 MiB. Not downloaded either,
    // and not answered again.
    let big2 = big_mail(2, 5_000_000);
    st.send(dave, &st.addr(dave, &club.tag), &club.address, &big2);
    st.await_count("gm", &club.tag, 3);
    let (r, bytes, d) = poll_counting(&at(2 * MIN));
    assert_eq!((r.mails, r.ignored, d.sent), (1, 1, 0), "{r:?} {d:?}");
    assert!(bytes < 1024 * 1024, "the poll downloaded {bytes} bytes");
    // Later cron runs: nothing comes back.
    let log = club.poll(&at(3 * MIN));
    assert!(!log.contains("result="), "{log}");
    st.drain();
    let notes = mailbox(&st, &club, dave);
    assert_eq!(notes.len(), 1, "dave is answered once: {notes:?}");
    assert!(
        notes[0].text.contains("bytes") && notes[0].text.contains("Send the move file alone"),
        "{}",
        notes[0].text
    );
    assert_eq!(notes[0].auto_submitted.as_deref(), Some("auto-replied"));
    assert!(
        st.seen("gm", &club.tag).iter().all(|s| *s),
        "all marked done"
    );
    for p in PLAYERS {
        assert_eq!(st.count(p, &club.tag), 2, "{p}: the opening and one result");
    }
}

#[test]
fn malformed_mime_is_marked_done_and_the_next_mails_are_processed() {
    let st = stack();
    let _lock = st.shared();
    let club = Club::new(&st, "mime", &PLAYERS, ClubOptions::default());
    club.poll(&at(0));
    st.await_count("alice", &club.tag, 1);
    let to = club.address.clone();
    let from = st.addr("dave", &club.tag);
    let head = |extra: &str, n: u32| {
        format!(
            "From: dave <{from}>\r\nTo: {to}\r\nSubject: broken {n}\r\nMessage-ID: <{}.broken{n}@club.test>\r\n\
             Date: Tue, 1 Dec 2026 10:00:00 +0000\r\n{extra}",
            club.tag
        )
    };
    let mut nested = String::new();
    for i in 0..150 {
        nested.push_str(&format!(
            "Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n"
        ));
    }
    nested.push_str("Content-Type: text/plain\r\n\r\ndeep\r\n");
    let broken: Vec<Vec<u8>> = vec![
        // A multipart whose boundary never appears, and a part that is not base64.
        format!(
            "{}MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"nope\"\r\n\r\n\
             --other\r\nContent-Type: application/octet-stream; name=move.txt\r\n\
             Content-Transfer-Encoding: base64\r\n\r\n!!!! not base64 ****\r\n--other--\r\n",
            head("", 1)
        )
        .into_bytes(),
        // An empty boundary, an unknown charset and broken quoted-printable.
        format!(
            "{}MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"\"\r\n\r\n\
             --\r\nContent-Type: text/plain; charset=x-no-such-charset\r\n\
             Content-Transfer-Encoding: quoted-printable\r\n\r\ngame: =ZZ=\r\n--\r\n",
            head("", 2)
        )
        .into_bytes(),
        // Multiparts nested 150 deep.
        format!("{}MIME-Version: 1.0\r\n{nested}", head("", 3)).into_bytes(),
        // A signature attachment whose armour is garbage, with a move-like text.
        format!(
            "{}MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"x\"\r\n\r\n\
             --x\r\nContent-Type: text/plain; name=move.txt\r\n\r\ngame: {}\r\nside: alice\r\n\
             --x\r\nContent-Type: text/plain; name=move.txt.sig\r\n\r\n\
             -----BEGIN SSH SIGNATURE-----\r\n%%%%\r\n-----END SSH SIGNATURE-----\r\n--x--\r\n",
            head("", 4),
            club.game
        )
        .into_bytes(),
        // Header soup: 8-bit bytes, a line without a colon, an encoded word
        // that does not decode, no body at all.
        [
            head("Subject: =?utf-8?B?////?=\r\nX-Junk: ", 5).as_bytes(),
            b"\xff\xfe\x80\r\nthis line has no colon\r\n\r\n",
        ]
        .concat(),
    ];
    for (i, raw) in broken.iter().enumerate() {
        st.send("dave", &from, &club.address, raw);
        st.await_count("gm", &club.tag, i as u32 + 1);
    }
    let alice = club.player("alice");
    let h = head_in(&mailbox(&st, &club, "alice")[0]);
    let text = move_text(&club, "alice", &h, &["roll 2d6 initiative", "end turn"]);
    let (_, mv) = move_mail(&club, "alice", 9, &text, &sign(alice, &text), false, None);
    st.send("alice", &alice.addr, &club.address, &mv);
    let all = broken.len() as u32 + 1;
    st.await_count("gm", &club.tag, all);

    let log = club.poll(&at(MIN));
    assert_eq!(log.matches("result=").count(), all as usize, "{log}");
    assert!(log.contains("accepted as entry"), "{log}");
    club.poll(&at(2 * MIN));
    st.drain();
    assert!(
        st.seen("gm", &club.tag).iter().all(|s| *s),
        "all marked done"
    );
    for p in PLAYERS {
        assert_eq!(st.count(p, &club.tag), 2, "{p}: the opening and the result");
    }
    // Every broken mail is in the ledger (and the raw mail kept).
    let u = Umpire::open(&club.dir).unwrap();
    let ledger = u.store().scan(Table::Ledger, b"h:").unwrap().len();
    assert_eq!(ledger, all as usize);
}

#[test]
fn a_deadline_passes_reminders_then_the_default_mailed_to_everyone() {
    let st = stack();
    let _lock = st.shared();
    let club = Club::new(
        &st,
        "deadline",
        &PLAYERS,
        ClubOptions {
            new_args: &[
                "--deadline",
                "72",
                "--remind",
                "48,24,6",
                "--grace",
                "24",
                "--tz",
                "alice=Europe/Berlin",
            ],
            ..Default::default()
        },
    );
    // alice is to move; she sends nothing. Cron runs at these hours:
    // (hour, mails alice has by then, what the run did)
    let runs: [(i64, u32, &str); 10] = [
        (0, 1, "the openings"),
        (23, 1, ""),
        (25, 2, "reminders=1"),
        (26, 2, ""),
        (49, 3, "reminders=1"),
        (67, 4, "reminders=1"),
        (70, 4, ""),
        (73, 5, "late=1"),
        (90, 5, ""),
        (97, 6, "defaults=1"),
    ];
    for (h, alice_has, did) in runs {
        let log = club.poll(&at(h * HOUR));
        match did {
            "" => assert!(
                !log.contains("deadlines") && !log.contains("sent="),
                "+{h}h should do nothing:\n{log}"
            ),
            "the openings" => {}
            d => assert!(log.contains(d), "+{h}h: expected {d}:\n{log}"),
        }
        st.await_count("alice", &club.tag, alice_has);
    }
    st.drain();
    let a = mailbox(&st, &club, "alice");
    let subjects: Vec<&str> = a.iter().map(|m| m.subject.as_str()).collect();
    assert_eq!(a.len(), 6, "{subjects:#?}");
    // Sent at +25 h, +49 h and +67 h for a deadline at +72 h.
    for (m, left) in a[1..4]
        .iter()
        .zip(["1 day 23 hours", "23 hours", "5 hours"])
    {
        assert!(
            m.subject
                .ends_with(&format!("reminder: your move is due in {left}")),
            "{subjects:#?}"
        );
        assert!(
            m.text.contains("Fri 4 Dec 2026 11:00 CET"),
            "alice reads her deadline in Berlin time:\n{}",
            m.text
        );
    }
    assert!(a[4].subject.contains("deadline passed"), "{subjects:#?}");
    // The default, recorded and mailed to every side.
    for p in PLAYERS {
        let m = mailbox(&st, &club, p);
        let result = m.last().unwrap();
        assert_eq!(
            result.message_id,
            format!("<{}.1.{p}@club.test>", club.game)
        );
        assert!(
            result
                .text
                .contains("alice sent no orders in time; the umpire applied the stated default"),
            "{}",
            result.text
        );
        let rec = verify_attached(&club, &m, result);
        assert!(matches!(rec.entries()[1].body, Body::Default(_)));
        if p != "alice" {
            assert_eq!(m.len(), 2, "{p}: the opening and the default's result");
        }
    }
}

/// Kills the process on drop (a failed assertion must not leave a daemon behind).
struct Reap(Child);

impl Drop for Reap {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

#[test]
fn umpire_run_answers_through_idle_rides_out_a_mail_server_restart_and_stops_on_sigterm() {
    let st = stack();
    let _lock = st.exclusive();
    let club = Club::new(&st, "run", &PLAYERS, ClubOptions::default());
    let _refresh = Refresh { st: &st };
    // As the systemd unit runs it; a poll every 10 minutes unless IDLE says
    // there is mail.
    let child = club
        .command(&["-v", "run", "--interval", "600"], T0)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut daemon = Reap(child);
    let stderr = daemon.0.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::BufReader::new(stderr), &mut s).ok();
        s
    });
    for p in PLAYERS {
        st.await_count(p, &club.tag, 1);
    }
    let mv = |user: &str, n: u64| {
        let p = club.player(user);
        let head = head_in(mailbox(&st, &club, user).last().unwrap());
        let text = move_text(&club, user, &head, &["roll 2d6 initiative", "end turn"]);
        let (_, raw) = move_mail(&club, user, n, &text, &sign(p, &text), false, None);
        st.send(user, &p.addr, &club.address, &raw);
    };
    // A move is answered within seconds: IDLE wakes the daemon (await_count
    // gives up after 30 s, long before the 10-minute interval).
    mv("alice", 1);
    for p in PLAYERS {
        st.await_count(p, &club.tag, 2);
    }
    // The club's mail server restarts: Dovecot, then Postfix (whose SASL
    // connections to Dovecot went with it).
    st.script("restart-imap");
    st.script("stop-smtp");
    st.script("start-smtp");
    // The daemon reconnects and answers the next move.
    mv("bob", 2);
    for p in PLAYERS {
        st.await_count(p, &club.tag, 3);
    }
    // SIGTERM (systemd's KillSignal) stops it cleanly, within seconds.
    signal(&daemon.0, "TERM");
    let t = std::time::Instant::now();
    let status = loop {
        if let Some(s) = daemon.0.try_wait().unwrap() {
            break s;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "umpire run did not stop within 20 s of SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let log = log.join().unwrap();
    assert!(status.success(), "umpire run exited {status}:\n{log}");
    assert!(log.contains("umpire: stopped."), "{log}");
    eprintln!(
        "umpire run stopped {:?} after SIGTERM; its log:\n{log}",
        t.elapsed()
    );
    st.drain();
    for p in PLAYERS {
        let ids = message_ids(&st, &club, p);
        assert_eq!(ids.len(), 3, "{p}: {ids:?}");
        assert_eq!(ids.iter().collect::<BTreeSet<_>>().len(), 3, "{p}: {ids:?}");
    }
    assert_eq!(st.seen("gm", &club.tag), vec![true; 2]);
}

/// The first fenced block after `heading` in the guide's page `page`
/// (a path under `docs/`).
fn doc_block(page: &str, heading: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join(page);
    let doc = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rest = &doc[doc
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?}"))..];
    let rest = &rest[rest.find("```").unwrap()..];
    let rest = &rest[rest.find('\n').unwrap() + 1..];
    rest[..rest.find("```").unwrap()].to_string()
}

#[test]
fn the_documented_configuration_passes_config_check_and_polls() {
    let st = stack();
    let _lock = st.shared();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("umpire");
    let tag = support::unique("docs");
    let address = st.addr("gm", &tag);
    let run = |args: &[&str]| {
        let out = std::process::Command::new(support::umpire_bin())
            .arg("--dir")
            .arg(&dir)
            .args(args)
            .env("UMPIRE_NOW", T0)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    assert!(run(&["init", "--address", &address]).0);
    // The documented umpire.toml, pointed at the test stack.
    let pw = tmp.path().join("mail.password");
    std::fs::write(&pw, "gm-secret\n").unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&pw, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let mut text = doc_block(
        "admin/club.md",
        "## `umpire.toml` for the club's mail server",
    );
    for (from, to, n) in [
        (
            "username = \"umpire@club.example\"",
            "username = \"gm\"".to_string(),
            2,
        ),
        ("\"umpire@club.example\"", format!("\"{address}\""), 1),
        ("/srv/umpire/mail.password", pw.display().to_string(), 2),
        (
            "# ca_file = \"/etc/umpire/club-ca.pem\"",
            format!("ca_file = \"{}\"", st.ca.display()),
            2,
        ),
        ("folder = \"INBOX\"", format!("folder = \"{tag}\""), 1),
    ] {
        assert_eq!(
            text.matches(from).count(),
            n,
            "{from} in the documented umpire.toml"
        );
        text = text.replace(from, &to);
    }
    let host = "host = \"mail.club.example\"";
    text = text.replacen(
        host,
        &format!("host = \"localhost\"\nport = {}", st.imaps),
        1,
    );
    text = text.replacen(
        host,
        &format!("host = \"localhost\"\nport = {}", st.submission),
        1,
    );
    std::fs::write(dir.join("umpire.toml"), &text).unwrap();
    st.create_folder("gm", &tag);
    let (ok, out) = run(&["config", "check"]);
    assert!(ok && out.contains("configuration ok"), "{text}\n{out}");
    assert!(out.contains("marking with $UmpireDone"), "{out}");
    let (ok, out) = run(&["poll"]);
    assert!(
        ok && out.is_empty(),
        "a poll with nothing to do prints nothing: {out}"
    );
}

#[test]
fn player_commands_by_mail_are_answered_to_the_signer() {
    let st = stack();
    let _lock = st.shared();
    let club = Club::new(
        &st,
        "commands",
        &PLAYERS,
        ClubOptions {
            new_args: &["--deadline", "72", "--remind", "24", "--grace", "24"],
            ..Default::default()
        },
    );
    club.poll(&at(0));
    st.await_count("carol", &club.tag, 1);
    // carol, not to move, sends the requests the guide documents (mail
    // commands), signed (no `after:` needed).
    let carol = club.player("carol");
    let text = doc_block("players/mail-commands.md", "## What players can send")
        .replace("game: club7", &format!("game: {}", club.game))
        .replace("side: allies", "side: carol");
    let (_, raw) = move_mail(&club, "carol", 1, &text, &sign(carol, &text), true, None);
    st.send("carol", &carol.addr, &club.address, &raw);
    st.await_count("gm", &club.tag, 1);
    let log = club.poll(&at(MIN));
    assert!(log.contains("result=commands: 7"), "{log}");
    st.await_count("carol", &club.tag, 8);
    st.drain();
    let got = mailbox(&st, &club, "carol");
    assert_eq!(got.len(), 8, "the opening and seven answers");
    let answers = &got[1..];
    let subject = |s: &str| {
        answers
            .iter()
            .find(|m| m.subject.ends_with(s))
            .unwrap_or_else(|| panic!("no answer {s:?}"))
    };
    let status = subject(&format!("[{}] status", club.game));
    assert!(
        status.text.contains("turn 1, alice to move"),
        "{}",
        status.text
    );
    assert!(
        subject("orders you can give")
            .text
            .contains("Nothing is asked of you now")
    );
    verify_attached(&club, &[], subject("the record"));
    assert!(
        subject("time zone")
            .text
            .contains("Noted: your deadlines are shown in Europe/Berlin.")
    );
    assert!(
        subject("away")
            .text
            .contains("Noted: away until 2026-12-24.")
    );
    // resend: her last result (the opening's) again, with the record.
    let again = answers
        .iter()
        .find(|m| m.message_id.contains(".again."))
        .expect("the last result again");
    verify_attached(&club, &[], again);
    for m in answers {
        assert_eq!(m.auto_submitted.as_deref(), Some("auto-replied"));
        assert_eq!(
            m.references.first().map(String::as_str),
            Some(format!("<{}.0.carol@club.test>", club.game).as_str()),
            "answers thread under carol's opening"
        );
    }
    // Nobody else hears of it.
    assert_eq!(st.count("alice", &club.tag), 1);
    assert_eq!(st.count("bob", &club.tag), 1);
}

/// A plain-text body as Thunderbird sends it by default (RFC 3676,
/// format=flowed): lines starting with a space, `>` or `From ` get one more
/// space; lines longer than 72 characters are broken after a space, which
/// stays at the end of the line (a soft break).
fn flowed(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut line =
            if line.starts_with(' ') || line.starts_with('>') || line.starts_with("From ") {
                format!(" {line}")
            } else {
                line.to_string()
            };
        while line.len() > 72 {
            let Some(cut) = line[..72].rfind(' ').filter(|c| *c > 1) else {
                break;
            };
            out.push_str(&line[..=cut]);
            out.push_str("\r\n");
            line = line[cut + 1..].to_string();
        }
        out.push_str(&line);
        out.push_str("\r\n");
    }
    out
}

#[test]
fn an_armored_move_from_a_format_flowed_mail_client_is_accepted() {
    let st = stack();
    let _lock = st.shared();
    let club = Club::new(&st, "flowed", &PLAYERS, ClubOptions::default());
    club.poll(&at(0));
    st.await_count("alice", &club.tag, 1);
    let alice = club.player("alice");
    let text = move_text(
        &club,
        "alice",
        &head_in(&mailbox(&st, &club, "alice")[0]),
        &[
            "The 3rd Panzer Division advances on the Arnhem road, leaving one battalion to hold the bridge at Nijmegen",
            "roll 2d6 initiative",
            "end turn",
        ],
    );
    let block = umpire::core::movefile::armor(text.as_bytes(), &sign(alice, &text));
    let body = flowed(&format!("Here are my orders.\n\n{block}\n-- \nAlice\n"));
    assert!(body.contains("\r\n   roll 2d6"), "space-stuffed:\n{body}");
    let raw = format!(
        "From: alice <{from}>\r\nTo: {to}\r\nSubject: orders\r\nMessage-ID: <{tag}.flowed@club.test>\r\n\
         Date: Tue, 1 Dec 2026 10:05:00 +0000\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=UTF-8; format=flowed\r\nContent-Transfer-Encoding: 7bit\r\n\r\n{body}",
        from = alice.addr,
        to = club.address,
        tag = club.tag,
    );
    st.send("alice", &alice.addr, &club.address, raw.as_bytes());
    st.await_count("gm", &club.tag, 1);
    let log = club.poll(&at(10 * MIN));
    assert!(log.contains("accepted as entry 1"), "{log}");
}
