//! The binary in its ecosystem: the man page and completions, first-run
//! errors that say what to do, `record -o` writing the signature beside the
//! record, `verify -` from standard input, `show --record` offline, and the
//! demo cleaning up after itself.

use umpire_testkit as common;

use common::declared;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use umpire::service::Umpire;
use umpire::service::games::NewGame;

use super::run::{NOW, command, ok};

fn umpire(dir: &Path, args: &[&str]) -> Output {
    command(NOW)
        .arg("--dir")
        .arg(dir)
        .args(args)
        .env("TMPDIR", dir.parent().unwrap_or(dir))
        .output()
        .expect("run umpire")
}

/// A data directory with one Strike on Sarhu game.
fn club(tmp: &Path) -> std::path::PathBuf {
    let d = tmp.join("club");
    Umpire::init(&d, "umpire@club.test").unwrap();
    let mut u = Umpire::open(&d).unwrap();
    u.create_game(
        NewGame {
            id: "g1".into(),
            ruleset: "sarhu".into(),
            scenario: "historical".into(),
            options: BTreeMap::new(),
            deadlines: None,
            time_zones: BTreeMap::new(),
            sides: declared(&["ming", "jurchen"]),
        },
        "2026-12-01T09:00:00Z".parse().unwrap(),
    )
    .unwrap();
    d
}

#[test]
fn the_man_page_and_completions_come_from_the_commands() {
    let tmp = tempfile::tempdir().unwrap();
    let man = ok(&umpire(tmp.path(), &["man"]));
    assert!(man.contains(".TH umpire"), "{man}");
    assert!(man.contains("verify"), "the subcommands are listed");
    let bash = ok(&umpire(tmp.path(), &["completions", "bash"]));
    assert!(
        bash.contains("complete") && bash.contains("umpire"),
        "{bash}"
    );
    assert!(bash.contains("selfplay"));
    let o = umpire(tmp.path(), &["completions", "tcsh-9"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
}

#[test]
fn the_man_page_installs_where_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let to = tmp.path().join("share/man/man1");
    let out = ok(&umpire(
        tmp.path(),
        &["man", "--install", "--to", to.to_str().unwrap()],
    ));
    let page = std::fs::read_to_string(to.join("umpire.1")).expect("umpire.1 written");
    assert!(
        page.starts_with(".ie") || page.contains(".TH umpire"),
        "{page}"
    );
    assert!(out.contains("installed"), "{out}");
}

#[test]
fn long_commands_draw_no_progress_line_into_a_pipe() {
    // Progress goes to a terminal only: cron mails and pipes stay clean.
    let tmp = tempfile::tempdir().unwrap();
    let o = umpire(
        tmp.path(),
        &["selfplay", "freeform", "--games", "2", "-o", "turns=2"],
    );
    let out = ok(&o);
    assert!(out.starts_with("2 games of"), "{out}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains('\r') && !err.contains('\x1b'), "{err:?}");
}

#[test]
fn a_missing_data_directory_says_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let o = umpire(&tmp.path().join("nowhere"), &["games"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no data directory at"), "{err}");
    assert!(err.contains("umpire init"), "{err}");
}

#[test]
fn record_out_writes_the_signature_and_verify_reads_stdin() {
    let tmp = tempfile::tempdir().unwrap();
    let d = club(tmp.path());
    let file = tmp.path().join("g1.txt");
    ok(&umpire(&d, &["record", "g1", "-o", file.to_str().unwrap()]));
    let sig = tmp.path().join("g1.txt.sig");
    assert!(sig.exists(), "record -o writes FILE.sig");
    let v = ok(&umpire(&d, &["verify", file.to_str().unwrap()]));
    assert!(
        v.contains("signature"),
        "the .sig is found and checked: {v}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["verify", "-"])
        .stdin(std::fs::File::open(&file).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let text = ok(&out);
    assert!(text.contains("g1"), "{text}");
    // The whole map, offline, as one side sees it, within 72 columns.
    let map = ok(&umpire(
        &d,
        &[
            "show",
            "--record",
            file.to_str().unwrap(),
            "--side",
            "jurchen",
        ],
    ));
    assert!(map.lines().count() > 10, "{map}");
    for l in map.lines() {
        assert!(l.chars().count() <= 72, "over 72 columns: {l:?}");
    }
}

#[test]
fn games_lists_deadlines() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("club");
    Umpire::init(&d, "umpire@club.test").unwrap();
    let mut u = Umpire::open(&d).unwrap();
    u.create_game(
        NewGame {
            id: "g1".into(),
            ruleset: "freeform".into(),
            scenario: "open".into(),
            options: BTreeMap::new(),
            deadlines: Some(umpire::service::config::Deadlines {
                hours: 72,
                ..Default::default()
            }),
            time_zones: BTreeMap::new(),
            sides: declared(&["red", "blue"]),
        },
        "2026-12-01T09:00:00Z".parse().unwrap(),
    )
    .unwrap();
    drop(u);
    let out = ok(&umpire(&d, &["games"]));
    assert!(out.contains("red due"), "{out}");
    // A new game holds its opening only: one entry, said so.
    assert!(out.contains("    1 entry  "), "{out}");
}

#[test]
fn the_demo_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let before = std::fs::read_dir(tmp.path()).unwrap().count();
    let out = ok(&umpire(&tmp.path().join("unused"), &["demo"]));
    assert!(out.contains("REFUSED"));
    let after = std::fs::read_dir(tmp.path()).unwrap().count();
    assert_eq!(before, after, "the demo's temporary directory is removed");
}

#[test]
fn admin_commands_run_from_the_command_line() {
    let tmp = tempfile::tempdir().unwrap();
    let d = club(tmp.path());
    let man = ok(&umpire(&d, &["man"]));
    assert!(man.contains("admin"), "the man page lists admin");
    assert!(
        ok(&umpire(
            &d,
            &["admin", "pause", "g1", "--reason", "holiday"]
        ))
        .contains("paused")
    );
    assert!(ok(&umpire(&d, &["games"])).contains("PAUSED"));
    // Pausing twice is an error that says why.
    let o = umpire(&d, &["admin", "pause", "g1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("paused already"));
    ok(&umpire(&d, &["admin", "resume", "g1"]));
    ok(&umpire(
        &d,
        &["admin", "observe", "g1", "watcher@club.test"],
    ));
    let key = common::key(9).public_line();
    assert!(ok(&umpire(&d, &["admin", "key", "g1", "ming", &key])).contains("entry"));
    let out = ok(&umpire(
        &d,
        &[
            "admin",
            "end",
            "g1",
            "--winner",
            "ming",
            "--result",
            "ming wins: jurchen left",
        ],
    ));
    assert!(out.contains("ended"), "{out}");
    assert!(ok(&umpire(&d, &["games"])).contains("over: ming wins: jurchen left"));
    // The exported record, with the key change and the end, verifies.
    let rec = tmp.path().join("g1.txt");
    ok(&umpire(&d, &["record", "g1", "-o", rec.to_str().unwrap()]));
    ok(&umpire(&d, &["verify", rec.to_str().unwrap()]));
}

/// `verify --rolls` lists each roll of the record with what it was for in
/// the words the mails use, the label the record keeps in brackets; plain
/// `verify` lists none.
#[test]
fn verify_rolls_lists_each_roll_in_words_with_its_label() {
    let tmp = tempfile::tempdir().unwrap();
    let record = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/records/sarhu-v2-c6ff982acc1b5145-historical.record");
    let file = record.to_str().unwrap();
    let v = ok(&umpire(tmp.path(), &["verify", "--rolls", file]));
    assert!(v.contains("rolls, entry by entry:"), "{v}");
    let fire: Vec<&str> = v.lines().filter(|l| l.contains("fire of ")).collect();
    assert!(!fire.is_empty(), "{v}");
    for l in &fire {
        assert!(
            l.trim_start().starts_with("entry ")
                && l.contains(" on a d6")
                && l.contains(" [fire ")
                && l.contains(" -> "),
            "words, then the label in brackets: {l}"
        );
    }
    assert!(v.contains("record verified"), "{v}");
    let plain = ok(&umpire(tmp.path(), &["verify", file]));
    assert!(!plain.contains("entry by entry"), "{plain}");
}
