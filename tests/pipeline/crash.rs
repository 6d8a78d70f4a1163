//! Crash safety: `umpire poll` killed with SIGKILL at many points while it
//! works through a Maildir of many mails, then rerun until done, must end
//! exactly where one clean run ends: the same record, nothing applied twice,
//! every reply in the outbox exactly once.

use umpire_testkit as common;

use common::{copy_dir, declared, key, move_mail, plain_mail};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::service::Umpire;
use umpire::service::games::NewGame;

const NOW: &str = "2026-12-01T10:00:00Z";
const SIDES: [&str; 3] = ["red", "blue", "green"];

/// A data directory with a fresh 3-player game, its opening mails delivered.
fn template(dir: &Path) {
    Umpire::init(dir, "umpire@club.test").unwrap();
    // Small commit groups, so kills land between groups as well as inside them.
    let cfg = dir.join("umpire.toml");
    let text = std::fs::read_to_string(&cfg)
        .unwrap()
        .replace("commit_every = 100", "commit_every = 4");
    assert!(text.contains("commit_every = 4\n") || text.contains("commit_every = 4 "));
    std::fs::write(&cfg, text).unwrap();
    let mut u = Umpire::open(dir).unwrap();
    u.create_game(
        NewGame {
            id: "g1".into(),
            ruleset: "freeform".into(),
            scenario: "open".into(),
            options: BTreeMap::new(),
            deadlines: None,
            time_zones: BTreeMap::new(),
            sides: declared(&SIDES),
        },
        NOW.parse().unwrap(),
    )
    .unwrap();
}

/// The mails of a game of many moves plus the noise a real mailbox sees.
/// Played once in a scratch copy to learn each move's `after:` head.
fn script(template_dir: &Path, scratch: &Path) -> Vec<Vec<u8>> {
    copy_dir(template_dir, scratch);
    let mut u = Umpire::open(scratch).unwrap();
    let mut md = Maildir::open(&scratch.join("maildir")).unwrap();
    let now: jiff::Timestamp = NOW.parse().unwrap();
    let mut mails = Vec::new();
    let mut n = 0u64;
    let push = |u: &mut Umpire, md: &mut Maildir, raw: Vec<u8>, mails: &mut Vec<Vec<u8>>| {
        md.deliver(&format!("{:04}", mails.len()), &raw).unwrap();
        u.poll(md, now).unwrap();
        mails.push(raw);
    };
    for round in 0..8 {
        for (i, s) in SIDES.iter().enumerate() {
            n += 1;
            let head = u.game("g1").unwrap().record().head();
            let text = format!(
                "game: g1\nside: {s}\nafter: {head}\norders:\n  advance {round}\n  roll 2d6 fire {round}\n  end turn\n"
            );
            let sig = key(i as u8 + 1)
                .sign(MOVE_NAMESPACE, text.as_bytes())
                .unwrap();
            let raw = move_mail(
                &format!("{s}@club.test"),
                "umpire@club.test",
                n,
                &text,
                &sig,
                n.is_multiple_of(2),
            );
            push(&mut u, &mut md, raw.clone(), &mut mails);
            match (round, i) {
                (1, 0) => {
                    // A forgery: green's key signing as blue.
                    let head = u.game("g1").unwrap().record().head();
                    let f = format!("game: g1\nside: blue\nafter: {head}\norders:\n  end turn\n");
                    let fs = key(3).sign(MOVE_NAMESPACE, f.as_bytes()).unwrap();
                    n += 1;
                    push(
                        &mut u,
                        &mut md,
                        move_mail("mallory@club.test", "umpire@club.test", n, &f, &fs, false),
                        &mut mails,
                    );
                }
                (2, 1) => {
                    // The same mail delivered twice, and the same move resent in a new mail.
                    push(&mut u, &mut md, raw.clone(), &mut mails);
                    n += 1;
                    push(
                        &mut u,
                        &mut md,
                        move_mail("blue@club.test", "umpire@club.test", n, &text, &sig, true),
                        &mut mails,
                    );
                }
                (3, 2) => {
                    n += 1;
                    push(
                        &mut u,
                        &mut md,
                        plain_mail(
                            "green@club.test",
                            "umpire@club.test",
                            n,
                            "game: g1\nside: green\n",
                            &[],
                        ),
                        &mut mails,
                    );
                    n += 1;
                    push(
                        &mut u,
                        &mut md,
                        plain_mail(
                            "MAILER-DAEMON@club.test",
                            "umpire@club.test",
                            n,
                            "bounce",
                            &[],
                        ),
                        &mut mails,
                    );
                    // Out of turn, and a signed status request.
                    let head = u.game("g1").unwrap().record().head();
                    let o = format!("game: g1\nside: blue\nafter: {head}\norders:\n  end turn\n");
                    let os = key(2).sign(MOVE_NAMESPACE, o.as_bytes()).unwrap();
                    n += 1;
                    push(
                        &mut u,
                        &mut md,
                        move_mail("blue@club.test", "umpire@club.test", n, &o, &os, false),
                        &mut mails,
                    );
                    let c = "game: g1\nside: green\ncommand: status\n";
                    let cs = key(3).sign(MOVE_NAMESPACE, c.as_bytes()).unwrap();
                    n += 1;
                    push(
                        &mut u,
                        &mut md,
                        move_mail("green@club.test", "umpire@club.test", n, c, &cs, false),
                        &mut mails,
                    );
                }
                _ => {}
            }
        }
    }
    mails
}

fn poll_cmd(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_umpire"));
    c.arg("--dir").arg(dir).arg("poll").env("UMPIRE_NOW", NOW);
    c.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    c
}

fn load_mails(dir: &Path, mails: &[Vec<u8>]) {
    let md = Maildir::open(&dir.join("maildir")).unwrap();
    for (i, m) in mails.iter().enumerate() {
        md.deliver(&format!("{i:04}"), m).unwrap();
    }
}

/// What a run leaves: the record text and every outbox file's bytes.
fn outcome(dir: &Path) -> (String, BTreeMap<String, Vec<u8>>) {
    let mut u = Umpire::open(dir).unwrap();
    let record = u.export("g1", None).unwrap();
    let mut files = BTreeMap::new();
    for e in std::fs::read_dir(dir.join("outbox")).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.ends_with(".eml") {
            files.insert(name, std::fs::read(e.path()).unwrap());
        }
    }
    assert_eq!(
        std::fs::read_dir(dir.join("maildir/new")).unwrap().count(),
        0,
        "every mail was marked done"
    );
    (record, files)
}

#[test]
fn sigkill_at_many_points_then_rerun_equals_one_clean_run() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path().join("template");
    template(&t);
    let mails = script(&t, &tmp.path().join("scratch"));
    assert!(mails.len() >= 30, "{} mails", mails.len());

    // One clean run.
    let clean = tmp.path().join("clean");
    copy_dir(&t, &clean);
    load_mails(&clean, &mails);
    let start = Instant::now();
    let out = poll_cmd(&clean).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let clean_time = start.elapsed();
    let expected = outcome(&clean);
    assert!(expected.1.len() > 60, "replies: {}", expected.1.len());

    // Runs killed at spread-out moments, rerun until one finishes. At least
    // ten runs, and more until eight kills have landed mid-poll: the clean
    // poll's time is measured once, and on a machine whose load changes (the
    // mail-server tests run beside this one) later polls may be faster, so
    // the kill window shrinks whenever a run's first poll beats it.
    let mut kills = 0;
    let mut span = clean_time.as_micros().max(20_000) as u64;
    let mut run = 0u64;
    while run < 10 || kills < 8 {
        assert!(
            run < 40,
            "only {kills} kills landed mid-poll in {run} runs; the test did not exercise crashes"
        );
        let dir = tmp.path().join(format!("crash{run}"));
        copy_dir(&t, &dir);
        load_mails(&dir, &mails);
        let mut attempt = 0u64;
        loop {
            attempt += 1;
            assert!(attempt < 200, "run {run} never finished");
            let mut child = poll_cmd(&dir).spawn().unwrap();
            // Deterministic, varied kill points within the first two thirds of
            // a clean poll; every seventh poll may finish.
            let frac = (attempt * 37 + run * 11) % 97;
            let wait = Duration::from_micros(span * frac * 2 / 3 / 97 + 2_000);
            if attempt.is_multiple_of(7) {
                let out = child.wait_with_output().unwrap();
                assert!(
                    out.status.success(),
                    "a poll failed on its own after a crash: {:?}: {}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                );
                if std::fs::read_dir(dir.join("maildir/new")).unwrap().count() == 0 {
                    break;
                }
                continue;
            }
            std::thread::sleep(wait);
            match child.try_wait().unwrap() {
                Some(status) => {
                    if attempt == 1 {
                        // A whole mailbox done within the window: polls
                        // are faster now than the clean one was.
                        span = (span * 3 / 4).max(10_000);
                    }
                    let mut err = String::new();
                    if let Some(mut e) = child.stderr.take() {
                        std::io::Read::read_to_string(&mut e, &mut err).ok();
                    }
                    assert!(
                        status.success(),
                        "a poll failed on its own after a crash: {status:?}: {err}"
                    );
                    if std::fs::read_dir(dir.join("maildir/new")).unwrap().count() == 0 {
                        break;
                    }
                }
                None => {
                    child.kill().unwrap(); // SIGKILL
                    child.wait().unwrap();
                    kills += 1;
                }
            }
        }
        // A final poll delivers anything left in the outbox.
        let out = poll_cmd(&dir).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let got = outcome(&dir);
        assert_eq!(
            got.0, expected.0,
            "run {run}: the record differs from a clean run"
        );
        assert_eq!(
            got.1.keys().collect::<Vec<_>>(),
            expected.1.keys().collect::<Vec<_>>(),
            "run {run}: the replies differ from a clean run"
        );
        for (k, v) in &expected.1 {
            // Compare by hash: a failure message with two whole mails helps nobody.
            assert!(
                umpire::core::hash::sha256(&got.1[k]) == umpire::core::hash::sha256(v),
                "run {run}: reply {k} differs from the clean run's"
            );
        }
        run += 1;
    }
    eprintln!(
        "{kills} SIGKILLs landed mid-poll over {run} runs; a clean poll of {} mails took {clean_time:?}",
        mails.len()
    );
}
