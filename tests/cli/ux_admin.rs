//! The admin's first hour with the binary: the README's quick start run
//! verbatim by a shell on a fresh machine, every command that needs a data
//! directory pointing to `umpire init` without one, each error's cause said
//! once, `umpire poll` reporting at a terminal and quiet under cron, the
//! manual page and the pages it names, and "did you mean" for game ids.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::run::{NOW, ok, stderr, umpire};

/// A folder holding only `umpire` (this build's binary), for a PATH.
fn bin_dir(tmp: &Path) -> PathBuf {
    let bin = tmp.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_umpire"), bin.join("umpire")).unwrap();
    bin
}

/// The shell blocks of the README's section `heading`, as written.
fn readme_shell_blocks(heading: &str) -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme
        .find(&format!("\n## {heading}\n"))
        .unwrap_or_else(|| panic!("README.md has no section {heading:?}"));
    let section = &readme[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut blocks = Vec::new();
    let mut rest = section;
    while let Some(open) = rest.find("```sh\n") {
        let body = &rest[open + 6..];
        let close = body.find("```").expect("a closed block");
        blocks.push(body[..close].to_string());
        rest = &body[close + 3..];
    }
    blocks
}

#[test]
fn the_readme_quick_start_runs_verbatim_on_a_fresh_machine() {
    let blocks = readme_shell_blocks("A game by hand");
    assert!(!blocks.is_empty(), "the quick start has a shell block");
    let tmp = tempfile::tempdir().unwrap();
    let bin = bin_dir(tmp.path());
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    for block in &blocks {
        // A fresh machine: nothing in the environment but a PATH to the
        // binary and the system's tools, an empty home, no UMPIRE_DIR.
        let o = Command::new("sh")
            .arg("-e")
            .arg("-c")
            .arg(block)
            .current_dir(&home)
            .env_clear()
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("HOME", &home)
            .env("UMPIRE_NOW", NOW)
            .output()
            .unwrap();
        let out = ok(&o);
        assert!(out.contains("record verified"), "{out}");
    }
    // What the README says next: the replies are .eml files in the outbox.
    let eml = std::fs::read_dir(home.join("umpire-data/outbox"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .count();
    assert!(eml >= 2, "the opening mails went out: {eml}");
    assert!(home.join("umpire-data/maildir/new").is_dir());
}

#[test]
fn every_command_without_a_data_directory_points_to_init() {
    let tmp = tempfile::tempdir().unwrap();
    let nowhere = tmp.path().join("nowhere");
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let commands: &[&[&str]] = &[
        &["poll"],
        &["run"],
        &["deliver"],
        &["show", "club7"],
        &[
            "new",
            "freeform",
            "-s",
            "open",
            "--side",
            "a=a@x.test=ssh-ed25519 AAAA",
        ],
        &["games"],
        &["record", "club7"],
        &["import", "record.txt"],
        &["config", "check"],
        &["compact"],
        &["site", "--out", "site"],
        &["upgrade"],
        &["admin", "pause", "club7"],
        &["map", "club7", "-o", "map.svg"],
    ];
    for dir in [&nowhere, &empty] {
        for args in commands {
            let o = umpire(dir, args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "umpire {args:?}: {err}");
            assert!(
                err.contains("no data directory at"),
                "umpire {args:?}: {err}"
            );
            assert!(err.contains("`umpire init`"), "umpire {args:?}: {err}");
            assert!(!err.contains("os error"), "umpire {args:?}: {err}");
        }
    }
    assert!(
        !nowhere.exists(),
        "nothing was made where no data directory is"
    );
    assert_eq!(
        std::fs::read_dir(&empty).unwrap().count(),
        0,
        "no lock file left"
    );
}

#[test]
fn an_error_says_its_cause_once() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path().join("data");
    ok(&umpire(&d, &["init"]));
    // The lock file cannot be opened: a folder stands in its place.
    std::fs::create_dir_all(d.join("umpire.lock")).unwrap();
    let o = umpire(&d, &["poll"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("umpire.lock"), "{err}");
    assert_eq!(
        err.matches("(os error").count(),
        1,
        "the cause said once: {err}"
    );
}

/// A data directory with the README's game club7 (alice and bob).
fn club(tmp: &Path) -> PathBuf {
    let d = tmp.join("umpire-data");
    ok(&umpire(&d, &["init", "--address", "umpire@club.example"]));
    for who in ["alice", "bob"] {
        let f = tmp.join(who);
        ok(&umpire(&d, &["keygen", "-f", f.to_str().unwrap()]));
    }
    let side = |name: &str, who: &str| {
        format!(
            "{name}={who}@club.example={}",
            tmp.join(format!("{who}.pub")).display()
        )
    };
    ok(&umpire(
        &d,
        &[
            "new",
            "freeform",
            "--scenario",
            "open",
            "--id",
            "club7",
            "--side",
            &side("axis", "alice"),
            "--side",
            &side("allies", "bob"),
        ],
    ));
    d
}

#[test]
fn poll_says_what_it_did_with_v_and_nothing_under_cron() {
    let tmp = tempfile::tempdir().unwrap();
    let d = club(tmp.path());
    // Under cron (stdout no terminal): nothing, however much it did.
    let o = umpire(&d, &["poll"]);
    assert_eq!(ok(&o), "", "cron mails nothing: {}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let o = umpire(&d, &["poll", "-v"]);
    let out = ok(&o);
    assert!(out.starts_with("No new mail.\n0 mails sent."), "{out}");
}

#[test]
fn poll_reports_at_a_terminal() {
    // `script` gives the command a terminal, as an admin at a shell has.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` (util-linux) to make a terminal");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let d = club(tmp.path());
    let cmd = format!(
        "{} --dir {} poll",
        env!("CARGO_BIN_EXE_umpire"),
        d.display()
    );
    let o = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .env("UMPIRE_NOW", NOW)
        .output()
        .unwrap();
    let out = ok(&o);
    assert!(out.contains("No new mail."), "{out}");
    assert!(out.contains("2 mails sent."), "the opening mails: {out}");
}

#[test]
fn the_manual_holds_the_move_format_and_every_page_it_names_exists() {
    let tmp = tempfile::tempdir().unwrap();
    let page = ok(&umpire(tmp.path(), &["man"]));
    for section in [
        "THE MOVE FILE",
        "STANDING ORDERS",
        "MAIL COMMANDS",
        "EXIT STATUS",
        "EXAMPLES",
    ] {
        assert!(page.contains(&format!(".SH \"{section}\"")), "{section}");
    }
    assert!(page.contains("command: orders"), "the mail commands");
    assert!(page.contains("EX_TEMPFAIL"), "the exit codes");
    let to = tmp.path().join("man1");
    ok(&umpire(tmp.path(), &["man", "--to", to.to_str().unwrap()]));
    let mut named = 0;
    for e in std::fs::read_dir(&to).unwrap().flatten() {
        let text = std::fs::read_to_string(e.path()).unwrap();
        for name in page_references(&text) {
            named += 1;
            assert!(
                to.join(format!("{name}.1")).is_file(),
                "{} names {name}(1), which was not written",
                e.path().display()
            );
        }
    }
    assert!(named > 20, "the subcommands' pages are named: {named}");
    assert!(to.join("umpire-admin-pause.1").is_file());
    assert!(!page.contains("umpire-help"), "no page for `help` is named");
}

/// The `NAME(1)` references of a roff page (`umpire-check(1)`).
fn page_references(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("(1)") {
        let before = &text[..i];
        let start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '\\'))
            .map_or(0, |s| s + 1);
        let name = before[start..].replace("\\-", "-");
        if name.starts_with("umpire") {
            out.push(name);
        }
    }
    out
}

#[test]
fn show_and_the_admin_commands_suggest_the_nearest_game_id() {
    let tmp = tempfile::tempdir().unwrap();
    let d = club(tmp.path());
    let map = tmp.path().join("map.svg");
    for args in [
        vec!["show", "clbu7"],
        vec!["record", "clbu7"],
        vec!["admin", "pause", "clbu7"],
        vec!["map", "clbu7", "-o", map.to_str().unwrap()],
    ] {
        let o = umpire(&d, &args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("no game clbu7"), "{args:?}: {err}");
        assert!(err.contains("did you mean club7?"), "{args:?}: {err}");
    }
    let err = stderr(&umpire(&d, &["show", "zzzzzz"]));
    assert!(!err.contains("did you mean"), "nothing near: {err}");
}
