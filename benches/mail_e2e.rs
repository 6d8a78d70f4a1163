//! Mails per second end to end from a real Dovecot over loopback, against
//! what Dovecot alone needs to serve the same mails.
//!
//! `UMPIRE_MAILSTACK=DIR cargo bench --bench mail_e2e` (a stack started with
//! `tests/mail/mailstack.sh start DIR`; without one this fails).
//!
//! Setup (not timed): GAMES freeform games of three sides; MOVES signed moves
//! per game, played once in a scratch copy of the data directory to learn each
//! move's `after:` head, then APPENDed, interleaved across the games, to a
//! fresh folder of gm's mailbox (the bytes a player's mail client sends, with
//! CRLF line ends as IMAP serves them).
//!
//! Timed, each SAMPLES times (median and best shown):
//! - `dovecot, one UID FETCH`: a bare IMAP session, `UID FETCH 1:N BODY.PEEK[]`;
//! - `dovecot, UID FETCH per mail`: the same, one command per mail, as the
//!   umpire's intake does;
//! - `umpire intake only`: `ImapIntake::fetch(N)` (sizes, then one body fetch
//!   per mail), nothing processed;
//! - `umpire poll`: `Umpire::poll` on a fresh copy of the data directory with
//!   the configured IMAP intake: fetch, parse, verify signatures, adjudicate,
//!   roll, append to the record, render and sign every reply, commit in
//!   groups, mark each mail \Seen. Replies are queued in the store;
//! - `deliver to a file outbox`: writing those replies as .eml files;
//! - once each, `deliver by SMTP`: the same replies over submission (587,
//!   STARTTLS, AUTH) and over plain SMTP on loopback, one kept connection;
//! - once, `smtp-source` (Postfix's benchmark client) sending as many mails
//!   of the replies' mean size over one plain session: the rate Postfix
//!   accepts from a bare client, the floor issue 13 measures `deliver` by.
//!
//! Measured on the 2-core development VM (Debian 12, Dovecot 2.3, Postfix
//! 3.7), 200 moves of 1.4 KiB in 8 games: Dovecot serves them in 5-8 ms with
//! one UID FETCH (25 000-34 000 mails/s) and 33-44 ms with one per mail; the
//! umpire polls them in 0.53 s (377 mails/s), about 90x slower than the single
//! fetch and 12x slower than one fetch per mail. The poll's time goes to
//! writing the replies (the MIME build of each reply with its record), the
//! store's commits, and adjudication; rebuilding each game's 20 000-step dice
//! chain is now paid once per game and process (it was two thirds of the poll,
//! 175 mails/s, before main cached it). The replies go to a file outbox at
//! about 700 a second and by SMTP at about 30 a second: lettre 0.11.23 leaves
//! Nagle on, so each mail waits ~40 ms for a delayed ACK after its body
//! (lettre PR #1159, not yet released).
//!
//! Every connection is plain IMAP on loopback (port 143), for the bare
//! fetches and the umpire alike; the umpire's own TLS is exercised by
//! tests/mail_servers/real_mail.rs. Environment: MAIL_E2E_GAMES (default 8), MAIL_E2E_MOVES
//! (25), MAIL_E2E_SAMPLES (5), MAIL_E2E_SMTP (1; 0 to skip the SMTP figure).

#[path = "../tests/mail_servers/real_mail/support.rs"]
mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};
use support::{Stack, copy_dir, stack, unique};
use umpire::core::sig::{MOVE_NAMESPACE, SecretKey};
use umpire::mail::imap::ImapIntake;
use umpire::mail::mime::{Compose, build};
use umpire::mail::outbox::FileOutbox;
use umpire::mail::settings::{Security, SmtpSettings};
use umpire::mail::smtp::SmtpDelivery;
use umpire::mail::{Incoming, Intake, MailError};
use umpire::service::Umpire;
use umpire::service::games::NewGame;

const SIDES: [&str; 3] = ["alice", "bob", "carol"];
const NOW: &str = "2026-12-01T10:00:00Z";

fn env_num(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[derive(Default)]
struct VecIntake {
    mails: Vec<Incoming>,
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

fn key(side: usize) -> SecretKey {
    SecretKey::from_seed(&[side as u8 + 1; 32], SIDES[side]).unwrap()
}

/// A data directory reading `folder` of gm's mailbox over plain loopback IMAP,
/// sending by submission, with `games` fresh games.
fn template(st: &Stack, dir: &Path, folder: &str, games: usize) -> Vec<String> {
    let address = st.addr("gm", folder);
    Umpire::init(dir, &address).unwrap();
    let pw = dir.join("gm.password");
    std::fs::write(&pw, "gm-secret\n").unwrap();
    let cfg = dir.join("umpire.toml");
    let text: String = std::fs::read_to_string(&cfg)
        .unwrap()
        .lines()
        .map(|l| {
            if l.starts_with("kind = \"maildir\"") {
                "kind = \"imap\"\n".to_string()
            } else if l.starts_with("kind = \"file\"") {
                "kind = \"smtp\"\n".to_string()
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    std::fs::write(
        &cfg,
        format!(
            "{text}
[imap]
host = \"127.0.0.1\"
port = {imap}
security = \"plain\"
username = \"gm\"
password_file = \"{pw}\"
folder = \"{folder}\"

[smtp]
host = \"localhost\"
port = {sub}
security = \"starttls\"
username = \"gm\"
password_file = \"{pw}\"
ca_file = \"{ca}\"
",
            imap = st.imap,
            sub = st.submission,
            pw = pw.display(),
            ca = st.ca.display(),
        ),
    )
    .unwrap();
    let mut u = Umpire::open(dir).unwrap();
    let now: jiff::Timestamp = NOW.parse().unwrap();
    (0..games)
        .map(|g| {
            u.create_game(
                NewGame {
                    id: format!("bench-{g}"),
                    ruleset: "freeform".into(),
                    scenario: "open".into(),
                    options: BTreeMap::new(),
                    sides: (0..SIDES.len())
                        .map(|s| {
                            (
                                SIDES[s].to_string(),
                                st.addr(SIDES[s], folder),
                                key(s).public_line(),
                            )
                        })
                        .collect(),
                    deadlines: Some(umpire::service::config::Deadlines {
                        hours: 0,
                        reminders: vec![],
                        grace_hours: 0,
                    }),
                    time_zones: BTreeMap::new(),
                },
                now,
            )
            .unwrap()
        })
        .collect()
}

/// Postfix's own benchmark client: `n` mails of `size` bytes over one plain
/// SMTP session to gm's mailbox, timed from outside.
fn bare_smtp(st: &Stack, folder: &str, n: usize, size: usize) -> Duration {
    let to = st.addr("gm", &format!("{folder}-bare"));
    let t = Instant::now();
    let out = std::process::Command::new("smtp-source")
        .args(["-s", "1", "-m", &n.to_string(), "-l", &size.to_string()])
        .args(["-f", &st.addr("gm", folder), "-t", &to])
        .arg(format!("127.0.0.1:{}", st.smtp))
        .output()
        .expect("smtp-source (Postfix's benchmark client) must be installed");
    let d = t.elapsed();
    assert!(
        out.status.success(),
        "smtp-source failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    d
}

/// The mails: `moves` per game, interleaved across the games, each written
/// against the head the previous move left (learned in a scratch copy).
fn script(
    st: &Stack,
    template: &Path,
    folder: &str,
    games: &[String],
    moves: usize,
) -> Vec<Vec<u8>> {
    let scratch = tempfile::tempdir().unwrap();
    copy_dir(template, scratch.path());
    let mut u = Umpire::open(scratch.path()).unwrap();
    let now: jiff::Timestamp = NOW.parse().unwrap();
    let mut intake = VecIntake::default();
    let mut out = Vec::new();
    for m in 0..moves {
        for g in games {
            let side = m % SIDES.len();
            let head = u.game(g).unwrap().record().head().to_hex();
            let text = format!(
                "game: {g}\nside: {}\nafter: {head}\norders:\n  move {m}: the column advances on the bridge\n  roll 2d6 initiative\n  roll 1d6+1 fire at 0712\n  end turn\n",
                SIDES[side]
            );
            let sig = key(side).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
            let n = out.len() as u64;
            let raw = build(&Compose {
                from_name: SIDES[side].into(),
                from: st.addr(SIDES[side], folder),
                to: vec![st.addr("gm", folder)],
                subject: "orders".into(),
                message_id: format!("<{folder}.{n}@club.test>"),
                in_reply_to: None,
                references: vec![],
                text: "Orders attached.\n".into(),
                attachments: vec![
                    ("move.txt".into(), "text/plain".into(), text.into_bytes()),
                    (
                        "move.txt.sig".into(),
                        "application/octet-stream".into(),
                        sig.into_bytes(),
                    ),
                ],
                auto_submitted: "no",
                headers: vec![],
                date: std::time::UNIX_EPOCH + Duration::from_secs(1_796_000_000 + n * 60),
            })
            .unwrap();
            let raw = crlf(&raw);
            intake.mails.push(Incoming {
                id: format!("v{n}"),
                raw: raw.clone(),
                oversize: None,
            });
            let r = u.poll(&mut intake, now).unwrap();
            assert_eq!(r.accepted, 1, "the scripted move {n} was not accepted");
            out.push(raw);
        }
    }
    out
}

struct Figure {
    name: &'static str,
    samples: Vec<Duration>,
}

impl Figure {
    fn median(&self) -> Duration {
        let mut v = self.samples.clone();
        v.sort();
        v[v.len() / 2]
    }
    fn best(&self) -> Duration {
        self.samples.iter().copied().min().unwrap_or_default()
    }
}

fn main() {
    // `cargo bench` passes --bench; a filter argument is not supported.
    let st = stack();
    let _lock = st.shared();
    let games_n = env_num("MAIL_E2E_GAMES", 8);
    let moves = env_num("MAIL_E2E_MOVES", 25);
    let samples = env_num("MAIL_E2E_SAMPLES", 5).max(1);
    let smtp = env_num("MAIL_E2E_SMTP", 1) != 0;
    let folder = unique("bench");
    let work = tempfile::tempdir().unwrap();
    let tpl = work.path().join("template");
    eprintln!("mail_e2e: {games_n} games x {moves} moves, {samples} samples, folder gm/{folder}");
    let t = Instant::now();
    let games = template(&st, &tpl, &folder, games_n);
    let mails = script(&st, &tpl, &folder, &games, moves);
    let n = mails.len();
    let bytes: usize = mails.iter().map(Vec::len).sum();
    st.create_folder("gm", &folder);
    {
        let mut s = st.login("gm");
        for m in &mails {
            s.append(&folder, m).finish().unwrap();
        }
        let _ = s.logout();
    }
    assert_eq!(st.count("gm", &folder), n as u32);
    eprintln!(
        "mail_e2e: {n} mails ({} KiB) in place after {:.1} s of setup",
        bytes / 1024,
        t.elapsed().as_secs_f64()
    );

    let mut bare_one = Figure {
        name: "dovecot, one UID FETCH 1:N BODY.PEEK[]",
        samples: vec![],
    };
    let mut bare_each = Figure {
        name: "dovecot, UID FETCH BODY.PEEK[] per mail",
        samples: vec![],
    };
    let mut intake_only = Figure {
        name: "umpire intake only (ImapIntake::fetch)",
        samples: vec![],
    };
    let mut poll = Figure {
        name: "umpire poll (IMAP intake -> store)",
        samples: vec![],
    };
    let mut file_out = Figure {
        name: "deliver the replies to a file outbox",
        samples: vec![],
    };
    let mut replies = 0;
    let mut smtp_sample: Option<Duration> = None;
    let mut smtp_plain: Option<Duration> = None;
    let mut reply_bytes = 0usize;
    for sample in 0..samples {
        // Dovecot alone.
        let mut s = st.login("gm");
        s.examine(&folder).unwrap();
        let t = Instant::now();
        let f = s.uid_fetch("1:*", "BODY.PEEK[]").unwrap();
        let got: usize = f.iter().map(|m| m.body().map_or(0, <[u8]>::len)).sum();
        bare_one.samples.push(t.elapsed());
        assert_eq!(f.len(), n);
        assert!(got >= bytes, "Dovecot served {got} of {bytes} bytes");
        let uids: Vec<u32> = f.iter().filter_map(|m| m.uid).collect();
        drop(f);
        let t = Instant::now();
        for uid in &uids {
            let f = s.uid_fetch(uid.to_string(), "BODY.PEEK[]").unwrap();
            assert_eq!(f.len(), 1);
        }
        bare_each.samples.push(t.elapsed());
        // Every mail new again for the umpire.
        s.select(&folder).unwrap();
        s.uid_store("1:*", "-FLAGS.SILENT (\\Seen)").unwrap();
        let _ = s.logout();

        // The umpire's intake alone.
        let dir = work.path().join(format!("sample{sample}"));
        copy_dir(&tpl, &dir);
        let mut u = Umpire::open(&dir).unwrap();
        let settings = u.config().imap.clone().unwrap();
        let mut intake = ImapIntake::new(&settings).unwrap();
        intake.connect().unwrap();
        let t = Instant::now();
        let fetched = intake.fetch(n).unwrap();
        intake_only.samples.push(t.elapsed());
        assert_eq!(fetched.len(), n);
        drop(intake);

        // The umpire end to end (openings sent first, not timed).
        let now: jiff::Timestamp = NOW.parse().unwrap();
        let mut out = FileOutbox::open(&dir.join("outbox")).unwrap();
        u.deliver(&mut out, now).unwrap();
        let mut inbox = u.open_inbox().unwrap();
        // Connected before the clock starts, as for the bare fetches.
        if let umpire::service::transports::Inbox::Imap(i) = &mut inbox {
            i.connect().unwrap();
        }
        let t = Instant::now();
        let r = u.poll(&mut inbox, now).unwrap();
        poll.samples.push(t.elapsed());
        assert_eq!(r.accepted, n, "{r:?}");
        drop(inbox);
        replies = r.replies;
        if smtp && sample + 1 == samples {
            // Plain SMTP on loopback, as the bare client below speaks it.
            reply_bytes = u
                .pending()
                .unwrap()
                .iter()
                .map(|i| i.raw.len() * 3 / 4)
                .sum();
            let mut plain = SmtpSettings::new("127.0.0.1", Security::Plain);
            plain.port = Some(st.smtp);
            let mut smtp_out = SmtpDelivery::new(&plain).unwrap();
            let t = Instant::now();
            let d = u.deliver(&mut smtp_out, now).unwrap();
            smtp_plain = Some(t.elapsed());
            assert_eq!(d.sent, replies, "{d:?}");
            assert_eq!(smtp_out.connections(), 1);
        } else if smtp && sample + 2 == samples {
            let mut smtp_out = u.open_outbox().unwrap();
            let t = Instant::now();
            let d = u.deliver(&mut smtp_out, now).unwrap();
            smtp_sample = Some(t.elapsed());
            assert_eq!(d.sent, replies, "{d:?}");
        } else {
            let t = Instant::now();
            let d = u.deliver(&mut out, now).unwrap();
            file_out.samples.push(t.elapsed());
            assert_eq!(d.sent, replies, "{d:?}");
        }
        let mut s = st.login("gm");
        s.select(&folder).unwrap();
        assert!(
            s.uid_search("UNSEEN").unwrap().is_empty(),
            "the poll left mails unmarked"
        );
        s.uid_store("1:*", "-FLAGS.SILENT (\\Seen)").unwrap();
        let _ = s.logout();
    }

    println!();
    println!(
        "mail_e2e: {n} signed moves ({} games x {moves}), {:.1} KiB each, {replies} replies; \
         plain IMAP on loopback; median (best) of {samples}",
        games.len(),
        bytes as f64 / n as f64 / 1024.0
    );
    let rate = |d: Duration| n as f64 / d.as_secs_f64();
    for f in [&bare_one, &bare_each, &intake_only, &poll, &file_out] {
        if f.samples.is_empty() {
            continue;
        }
        println!(
            "  {:<44} {:>9.1} ms  {:>9.0} mails/s  (best {:.1} ms)",
            f.name,
            f.median().as_secs_f64() * 1e3,
            rate(f.median()),
            f.best().as_secs_f64() * 1e3
        );
    }
    if let Some(d) = smtp_sample {
        println!(
            "  {:<44} {:>9.1} ms  {:>9.0} replies/s  (once)",
            "deliver the replies by SMTP (587, STARTTLS, AUTH)",
            d.as_secs_f64() * 1e3,
            replies as f64 / d.as_secs_f64()
        );
    }
    if let Some(d) = smtp_plain {
        let umpire_rate = replies as f64 / d.as_secs_f64();
        println!(
            "  {:<44} {:>9.1} ms  {:>9.0} replies/s  (once)",
            "deliver the replies by SMTP (plain, loopback)",
            d.as_secs_f64() * 1e3,
            umpire_rate
        );
        let size = reply_bytes / replies.max(1);
        let bare = bare_smtp(&st, &folder, replies, size);
        let bare_rate = replies as f64 / bare.as_secs_f64();
        println!(
            "  {:<44} {:>9.1} ms  {:>9.0} mails/s  (once; {replies} mails of {size} bytes)",
            "postfix from smtp-source, one connection",
            bare.as_secs_f64() * 1e3,
            bare_rate
        );
        println!(
            "  ratio: the umpire delivers at {:.2}x the rate Postfix accepts from a bare client \
             (issue 13 asks >= 0.5)",
            umpire_rate / bare_rate
        );
    }
    println!(
        "  ratio: Dovecot serves the mails {:.1}x as fast as the umpire polls them (one UID FETCH), \
         {:.1}x (one UID FETCH per mail)",
        rate(bare_one.median()) / rate(poll.median()),
        rate(bare_each.median()) / rate(poll.median())
    );

    // Leave the stack as it was.
    let mut s = st.login("gm");
    let _ = s.delete(&folder);
    let _ = s.logout();
    if smtp {
        st.drain();
        for p in SIDES {
            let mut s = st.login(p);
            let _ = s.delete(&folder);
            let _ = s.logout();
        }
    }
}
