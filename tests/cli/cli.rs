//! A game played by hand with the `umpire` binary, as a club would: init,
//! keygen (and ssh-keygen), new, sign (and ssh-keygen -Y sign), mails into the
//! Maildir, poll, record, verify. Signatures cross-checked with OpenSSH both ways.

use umpire_testkit as common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use umpire::core::record::{Body, Record};
use umpire::mail::maildir::Maildir;

use super::run::{ok, umpire};

fn ssh_keygen(args: &[&str], stdin: Option<&Path>) -> Output {
    let mut c = Command::new("ssh-keygen");
    c.args(args);
    if let Some(p) = stdin {
        c.stdin(std::fs::File::open(p).unwrap());
    }
    c.output()
        .expect("ssh-keygen is installed (openssh-client)")
}

fn head(dir: &Path, game: &str) -> String {
    let text = ok(&umpire(dir, &["record", game]));
    Record::from_text(&text).unwrap().head().to_hex()
}

fn write(path: &Path, text: &str) -> PathBuf {
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

#[test]
fn a_game_by_hand_with_umpire_and_openssh_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("data");
    let p = tmp.path();
    ok(&umpire(&d, &["init", "--address", "umpire@club.test"]));
    assert!(d.join("umpire.toml").exists() && d.join("umpire.key").exists());

    // alice makes her key with umpire, bob with ssh-keygen.
    let alice = p.join("alice");
    ok(&umpire(
        &d,
        &[
            "keygen",
            "-f",
            alice.to_str().unwrap(),
            "-C",
            "alice@club.test",
        ],
    ));
    let bob = p.join("bob");
    let o = ssh_keygen(
        &[
            "-q",
            "-t",
            "ed25519",
            "-N",
            "",
            "-C",
            "bob@club.test",
            "-f",
            bob.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success());

    let out = ok(&umpire(
        &d,
        &[
            "new",
            "freeform",
            "--scenario",
            "open",
            "--id",
            "club1",
            "--side",
            &format!("alice=alice@club.test={}.pub", alice.display()),
            "--side",
            &format!("bob=bob@club.test={}.pub", bob.display()),
        ],
    ));
    assert_eq!(out.trim(), "club1");

    // alice signs with `umpire sign`; OpenSSH accepts the signature.
    let m1 = write(
        &p.join("move1.txt"),
        &format!(
            "game: club1\nside: alice\nafter: {}\norders:\n  roll 2d6 initiative\n  end turn\n",
            head(&d, "club1")
        ),
    );
    ok(&umpire(
        &d,
        &[
            "sign",
            m1.to_str().unwrap(),
            "--key",
            alice.to_str().unwrap(),
        ],
    ));
    let allowed = write(
        &p.join("allowed"),
        &format!(
            "alice@club.test {}",
            std::fs::read_to_string(format!("{}.pub", alice.display())).unwrap()
        ),
    );
    let o = ssh_keygen(
        &[
            "-Y",
            "verify",
            "-f",
            allowed.to_str().unwrap(),
            "-I",
            "alice@club.test",
            "-n",
            "umpire-move",
            "-s",
            &format!("{}.sig", m1.display()),
        ],
        Some(&m1),
    );
    assert!(
        o.status.success(),
        "ssh-keygen refused umpire's signature: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("Good \"umpire-move\" signature"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );

    // `check` previews it offline against the exported record.
    let rec0 = p.join("rec0.txt");
    ok(&umpire(
        &d,
        &["record", "club1", "-o", rec0.to_str().unwrap()],
    ));
    let chk = ok(&umpire(
        &d,
        &[
            "check",
            m1.to_str().unwrap(),
            "--record",
            rec0.to_str().unwrap(),
        ],
    ));
    assert!(
        chk.contains("from here the outcome depends on the dice"),
        "{chk}"
    );
    assert!(chk.contains("signature: good"), "{chk}");

    let md = Maildir::open(&d.join("maildir")).unwrap();
    let text1 = std::fs::read_to_string(&m1).unwrap();
    let sig1 = std::fs::read_to_string(format!("{}.sig", m1.display())).unwrap();
    md.deliver(
        "1.mail",
        &common::move_mail(
            "alice@club.test",
            "umpire@club.test",
            1,
            &text1,
            &sig1,
            false,
        ),
    )
    .unwrap();
    ok(&umpire(&d, &["poll"]));
    let outbox = d.join("outbox");
    assert!(
        outbox.join("club1.1.bob.eml").exists(),
        "bob is told of alice's move"
    );

    // bob signs with `ssh-keygen -Y sign` and pastes it armored into the body.
    let m2 = write(
        &p.join("move2.txt"),
        &format!(
            "game: club1\nside: bob\nafter: {}\norders:\n  hold the line\n  roll 1d6+1 fire at 0712\n  end turn\n",
            head(&d, "club1")
        ),
    );
    let o = ssh_keygen(
        &[
            "-Y",
            "sign",
            "-n",
            "umpire-move",
            "-f",
            bob.to_str().unwrap(),
            m2.to_str().unwrap(),
        ],
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sig2 = std::fs::read_to_string(format!("{}.sig", m2.display())).unwrap();
    let text2 = std::fs::read_to_string(&m2).unwrap();
    md.deliver(
        "2.mail",
        &common::move_mail("bob@club.test", "umpire@club.test", 2, &text2, &sig2, true),
    )
    .unwrap();
    ok(&umpire(&d, &["poll"]));

    let games = ok(&umpire(&d, &["games"]));
    assert!(
        games.contains("club1") && games.contains("alice to move"),
        "{games}"
    );

    // The record verifies, and so does the record attached to bob's last mail with the umpire's signature.
    let fin = p.join("final.txt");
    ok(&umpire(
        &d,
        &["record", "club1", "-o", fin.to_str().unwrap()],
    ));
    let v = ok(&umpire(&d, &["verify", fin.to_str().unwrap()]));
    assert!(
        v.contains("record verified") && v.contains("2 move signatures checked"),
        "{v}"
    );
    // Each of alice's mails carries what she had not yet received; her
    // parts, saved as files, verify together, and so does the folder of mails.
    let mut parts = Vec::new();
    for (name, mail) in common::outbox(&outbox) {
        if !(name.starts_with("club1.") && name.ends_with(".alice.eml")) {
            continue;
        }
        for a in &mail.attachments {
            if a.name.starts_with("record") {
                std::fs::write(p.join(&a.name), &a.bytes).unwrap();
                if !a.name.ends_with(".sig") {
                    parts.push(p.join(&a.name).to_str().unwrap().to_string());
                }
            }
        }
    }
    let last = parts
        .iter()
        .find(|n| n.ends_with("record-3-4.txt"))
        .unwrap_or_else(|| panic!("alice's result of bob's move is a segment: {parts:?}"))
        .clone();
    std::fs::copy(&last, p.join("mailed.txt")).unwrap();
    std::fs::copy(format!("{last}.sig"), p.join("mailed.txt.sig")).unwrap();
    let mut args = vec!["verify".to_string()];
    args.extend(parts.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let v = ok(&umpire(&d, &args));
    assert!(
        v.contains("record verified") && v.contains("signed by the umpire's key"),
        "{v}"
    );
    let v = ok(&umpire(&d, &["verify", outbox.to_str().unwrap()]));
    assert!(v.contains("record verified"), "{v}");
    // One segment alone is not a record.
    let o = umpire(&d, &["verify", p.join("mailed.txt").to_str().unwrap()]);
    assert!(!o.status.success());
    // OpenSSH agrees the umpire signed it.
    let upub = std::fs::read_to_string(d.join("umpire.key.pub")).unwrap();
    let allowed_u = write(&p.join("allowed_u"), &format!("umpire@club.test {upub}"));
    let o = ssh_keygen(
        &[
            "-Y",
            "verify",
            "-f",
            allowed_u.to_str().unwrap(),
            "-I",
            "umpire@club.test",
            "-n",
            "umpire-result",
            "-s",
            p.join("mailed.txt.sig").to_str().unwrap(),
        ],
        Some(&p.join("mailed.txt")),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // A tampered roll fails, naming the entry.
    let mut record = Record::from_text(&std::fs::read_to_string(&fin).unwrap()).unwrap();
    let mut entries = record.entries().to_vec();
    let Body::Move(m) = &mut entries[3].body else {
        panic!("entry 3 is bob's move")
    };
    let r = m.rolls[0].value_mut().unwrap();
    r.value = r.value % 6 + 1;
    for i in 3..entries.len() {
        entries[i].prev = entries[i - 1].hash;
        entries[i].hash =
            umpire::core::record::entry_hash(entries[i].seq, &entries[i].prev, &entries[i].body);
    }
    record = Record::from_entries(entries).unwrap();
    let bad = write(&p.join("bad.txt"), &record.to_text());
    let o = umpire(&d, &["verify", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("entry 3") && err.contains("tampered"), "{err}");
}

#[test]
fn ssh_keygen_signatures_verify_in_umpire() {
    let tmp = tempfile::tempdir().unwrap();
    let k = tmp.path().join("k");
    assert!(
        ssh_keygen(
            &[
                "-q",
                "-t",
                "ed25519",
                "-N",
                "",
                "-C",
                "x@y",
                "-f",
                k.to_str().unwrap()
            ],
            None
        )
        .status
        .success()
    );
    let f = write(
        &tmp.path().join("m.txt"),
        "game: g\nside: a\ncommand: status\n",
    );
    assert!(
        ssh_keygen(
            &[
                "-Y",
                "sign",
                "-n",
                "umpire-move",
                "-f",
                k.to_str().unwrap(),
                f.to_str().unwrap()
            ],
            None
        )
        .status
        .success()
    );
    let sig = std::fs::read_to_string(format!("{}.sig", f.display())).unwrap();
    let pk = umpire::core::sig::PublicKey::parse(
        &std::fs::read_to_string(format!("{}.pub", k.display())).unwrap(),
    )
    .unwrap();
    pk.verify("umpire-move", b"game: g\nside: a\ncommand: status\n", &sig)
        .unwrap();
    assert!(
        pk.verify("umpire-move", b"game: g\nside: b\ncommand: status\n", &sig)
            .is_err()
    );
    // Signed for another purpose (namespace), it is refused.
    std::fs::remove_file(format!("{}.sig", f.display())).unwrap();
    assert!(
        ssh_keygen(
            &[
                "-Y",
                "sign",
                "-n",
                "git",
                "-f",
                k.to_str().unwrap(),
                f.to_str().unwrap()
            ],
            None
        )
        .status
        .success()
    );
    let git_sig = std::fs::read_to_string(format!("{}.sig", f.display())).unwrap();
    assert!(
        pk.verify(
            "umpire-move",
            b"game: g\nside: a\ncommand: status\n",
            &git_sig
        )
        .is_err()
    );
}

#[test]
fn exit_codes_and_help() {
    let tmp = tempfile::tempdir().unwrap();
    let o = umpire(tmp.path(), &["frobnicate"]);
    assert_eq!(o.status.code(), Some(2), "usage errors exit 2");
    for sub in [
        "init", "keygen", "new", "sign", "check", "poll", "run", "show", "record", "verify",
        "games", "rulesets", "demo", "selfplay", "deliver",
    ] {
        let o = umpire(tmp.path(), &[sub, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{sub} --help");
        assert!(!o.stdout.is_empty());
    }
    let o = umpire(tmp.path(), &["verify", "/nonexistent/record.txt"]);
    assert_eq!(o.status.code(), Some(1), "invalid input exits 1");
}

/// The games' option and order errors say "see `umpire rules GAME`": that
/// command shows the one ruleset, and an unknown name lists the real ones.
#[test]
fn rules_shows_one_ruleset() {
    let tmp = tempfile::tempdir().unwrap();
    let o = umpire(tmp.path(), &["rules", "ldf"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("ldf (version "), "{out}");
    assert!(out.contains("option "), "{out}");
    assert!(!out.contains("sarhu"), "only ldf: {out}");
    let all = umpire(tmp.path(), &["rulesets"]);
    let all = String::from_utf8_lossy(&all.stdout);
    assert!(all.contains(out.lines().next().unwrap()) && all.contains("sarhu ("));
    let o = umpire(tmp.path(), &["rules", "chess"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no ruleset \"chess\"") && err.contains("ldf"),
        "{err}"
    );
}

#[test]
fn demo_runs_and_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    let o = umpire(
        tmp.path(),
        &["demo", "--keep", tmp.path().join("demo").to_str().unwrap()],
    );
    let out = ok(&o);
    assert!(out.contains("record verified"), "{out}");
    assert!(out.contains("REFUSED"), "the demo shows a refused forgery");
    assert!(out.contains("== Dice"), "the demo shows rolls");
}

#[test]
fn a_second_poll_waits_then_gives_up_with_a_clear_message() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("data");
    ok(&umpire(&d, &["init"]));
    let held = umpire::service::Umpire::lock(&d, std::time::Duration::from_secs(1)).unwrap();
    let o = umpire(&d, &["poll", "--wait", "1"]);
    // A busy data directory is a temporary failure: EX_TEMPFAIL, so cron retries.
    assert_eq!(o.status.code(), Some(75));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("another umpire process holds"), "{err}");
    drop(held);
    ok(&umpire(&d, &["poll", "--wait", "1"]));
}

#[test]
fn a_lost_store_is_rebuilt_from_a_players_record_and_play_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("data");
    ok(&umpire(&d, &["init", "--address", "umpire@club.test"]));
    let k1 = tmp.path().join("k1.pub");
    let k2 = tmp.path().join("k2.pub");
    std::fs::write(&k1, common::key(1).public_line()).unwrap();
    std::fs::write(&k2, common::key(2).public_line()).unwrap();
    ok(&umpire(
        &d,
        &[
            "new",
            "freeform",
            "--scenario",
            "open",
            "--id",
            "g1",
            "--side",
            &format!("a=a@club.test={}", k1.display()),
            "--side",
            &format!("b=b@club.test={}", k2.display()),
        ],
    ));
    let md = Maildir::open(&d.join("maildir")).unwrap();
    let send = |n: u64, side: usize, name: &str| {
        let text = format!(
            "game: g1\nside: {name}\nafter: {}\norders:\n  roll 2d6 fire\n  end turn\n",
            head(&d, "g1")
        );
        let sig = common::key(side as u8 + 1)
            .sign("umpire-move", text.as_bytes())
            .unwrap();
        md.deliver(
            &format!("{n}"),
            &common::move_mail(
                &format!("{name}@club.test"),
                "umpire@club.test",
                n,
                &text,
                &sig,
                false,
            ),
        )
        .unwrap();
        ok(&umpire(&d, &["poll"]));
    };
    send(1, 0, "a");
    send(2, 1, "b");
    // A player's copy of the record survives; the club's store does not.
    let saved = tmp.path().join("saved.txt");
    ok(&umpire(
        &d,
        &["record", "g1", "-o", saved.to_str().unwrap()],
    ));
    std::fs::remove_dir_all(d.join("db")).unwrap();
    let out = ok(&umpire(&d, &["import", saved.to_str().unwrap()]));
    assert_eq!(out.trim(), "g1");
    let o = umpire(&d, &["import", saved.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "importing twice is refused");
    // Play goes on with the new chain, and the whole record still verifies.
    send(3, 0, "a");
    let fin = tmp.path().join("fin.txt");
    ok(&umpire(&d, &["record", "g1", "-o", fin.to_str().unwrap()]));
    let v = ok(&umpire(&d, &["verify", fin.to_str().unwrap()]));
    assert!(
        v.contains("record verified") && v.contains("3 moves"),
        "{v}"
    );
    let rec = Record::from_text(&std::fs::read_to_string(&fin).unwrap()).unwrap();
    assert!(
        rec.entries()
            .iter()
            .any(|e| matches!(e.body, Body::Recommit(_)))
    );
    let restored = common::outbox(&d.join("outbox"));
    assert!(
        restored
            .values()
            .any(|m| m.subject.contains("game restored"))
    );
}

/// `check` against a side's copy of a game that hides information: the copy
/// cannot be replayed, so it checks the copy, the move's form, game, side,
/// signature and `after:`, and says the orders are checked by the umpire.
#[test]
fn check_against_a_sides_copy_checks_what_the_copy_allows() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("data");
    let p = tmp.path();
    ok(&umpire(&d, &["init", "--address", "umpire@club.test"]));
    let mut sides = Vec::new();
    for name in ["alice", "bob"] {
        let k = p.join(name);
        ok(&umpire(
            &d,
            &[
                "keygen",
                "-f",
                k.to_str().unwrap(),
                "-C",
                &format!("{name}@club.test"),
            ],
        ));
        sides.push(format!("{name}={name}@club.test={}.pub", k.display()));
    }
    ok(&umpire(
        &d,
        &[
            "new",
            "freeform",
            "--scenario",
            "open",
            "--id",
            "h1",
            "-o",
            "deck.c=a,b,c,d,e,f",
            "-o",
            "hand.c=2",
            "--side",
            &sides[0],
            "--side",
            &sides[1],
        ],
    ));
    let copy = p.join("alice-copy.txt");
    ok(&umpire(
        &d,
        &[
            "record",
            "h1",
            "--side",
            "alice",
            "-o",
            copy.to_str().unwrap(),
        ],
    ));
    let full = Record::from_text(&ok(&umpire(&d, &["record", "h1"]))).unwrap();
    let m = write(
        &p.join("m.txt"),
        &format!(
            "game: h1\nside: alice\nafter: {}\norders:\n  draw 1 from c\n  end turn\n",
            full.head().to_hex()
        ),
    );
    ok(&umpire(
        &d,
        &[
            "sign",
            m.to_str().unwrap(),
            "--key",
            p.join("alice").to_str().unwrap(),
        ],
    ));
    let chk = ok(&umpire(
        &d,
        &[
            "check",
            m.to_str().unwrap(),
            "--record",
            copy.to_str().unwrap(),
        ],
    ));
    assert!(chk.contains("checked against a side's copy"), "{chk}");
    assert!(chk.contains("signature: good"), "{chk}");
    assert!(chk.contains("follows the copy's latest entry"), "{chk}");
    assert!(chk.contains("the orders are not checked offline"), "{chk}");
    // Bob's key did not sign it: a move claiming to be bob's fails the signature.
    let forged = write(
        &p.join("f.txt"),
        &std::fs::read_to_string(&m)
            .unwrap()
            .replace("side: alice", "side: bob"),
    );
    std::fs::copy(
        format!("{}.sig", m.display()),
        format!("{}.sig", forged.display()),
    )
    .unwrap();
    let o = umpire(
        &d,
        &[
            "check",
            forged.to_str().unwrap(),
            "--record",
            copy.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("signature: BAD"));
    // A wrong game id is refused, naming both.
    let other = write(
        &p.join("o.txt"),
        &std::fs::read_to_string(&m)
            .unwrap()
            .replace("game: h1", "game: h2"),
    );
    let o = umpire(
        &d,
        &[
            "check",
            other.to_str().unwrap(),
            "--record",
            copy.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("it names game h2, the record is game h1"));
    // Another umpire cannot import the copy, and says what to import instead.
    let d2 = p.join("other");
    ok(&umpire(&d2, &["init", "--address", "umpire2@club.test"]));
    let o = umpire(&d2, &["import", copy.to_str().unwrap()]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("this is a side's copy of game h1"), "{err}");
    assert!(err.contains("Import the full record"), "{err}");
}

/// `umpire new` with a scenario or sides the ruleset does not declare: the
/// engine refuses it from the ruleset's `RulesetInfo`, naming the known
/// ones, and no game is made.
#[test]
fn new_names_the_known_scenarios_and_sides() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("data");
    ok(&umpire(&d, &["init", "--address", "umpire@club.test"]));
    let k1 = tmp.path().join("k1.pub");
    let k2 = tmp.path().join("k2.pub");
    std::fs::write(&k1, common::key(1).public_line()).unwrap();
    std::fs::write(&k2, common::key(2).public_line()).unwrap();
    let new = |scenario: &str, first: &str, second: &str| {
        umpire(
            &d,
            &[
                "new",
                "sarhu",
                "--scenario",
                scenario,
                "--id",
                "s1",
                "--side",
                &format!("{first}=a@club.test={}", k1.display()),
                "--side",
                &format!("{second}=b@club.test={}", k2.display()),
            ],
        )
    };
    let refused = |o: Output, want: &str| {
        assert_eq!(o.status.code(), Some(1), "{o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(want), "{err}");
    };
    refused(
        new("1620", "ming", "jurchen"),
        "sarhu has no scenario \"1620\"; its scenarios: historical",
    );
    refused(
        new("historical", "jurchen", "ming"),
        "sarhu's historical sides are ming, jurchen, declared in that order; got jurchen, ming",
    );
    // Names are read in any case, as before.
    assert_eq!(ok(&new("historical", "Ming", "Jurchen")).trim(), "s1");
}
