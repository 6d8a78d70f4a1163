//! The player's offline tools on what the mails give: `show --record`,
//! `map` and `check` read a folder of a side's result mails (record.txt of
//! the opening, the record-A-B.txt segments of later results) as `verify`
//! does. The mails are real ones, written by the pipeline: the openings and
//! the result of a default applied at a deadline.

use umpire_testkit as common;

use std::path::{Path, PathBuf};
use std::process::Output;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::outbox::FileOutbox;
use umpire::service::config::Deadlines;

use super::run::{command, ok};

fn umpire(args: &[&str]) -> Output {
    command("2026-12-05T10:00:00Z")
        .args(args)
        .output()
        .expect("run umpire")
}

fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Plays game `g1` of `ruleset` by the umpire's own hand: its openings, then
/// the default the first deadline applies, each side's mails in a folder of
/// its own (`mails/SIDE/`). Returns the folders by side.
fn mails_of(tmp: &Path, ruleset: &str, scenario: &str, sides: &[&str]) -> Vec<(String, PathBuf)> {
    let t0: jiff::Timestamp = "2026-12-01T09:00:00Z".parse().unwrap();
    let mut game = common::new_game("g1", ruleset, scenario, sides, &[]);
    game.deadlines = Some(Deadlines {
        hours: 1,
        grace_hours: 0,
        reminders: vec![],
    });
    let data = tmp.join("club");
    let mut u = common::umpire_with_game(&data, game, t0);
    let outdir = tmp.join("outbox");
    let mut outbox = FileOutbox::open(&outdir).unwrap();
    u.deliver(&mut outbox, t0).unwrap();
    let later: jiff::Timestamp = "2026-12-01T12:00:00Z".parse().unwrap();
    let r = u.check_deadlines(later).unwrap();
    assert!(r.defaults > 0, "a default was applied: {r:?}");
    u.deliver(&mut outbox, later).unwrap();
    let mut out = Vec::new();
    for side in sides {
        let folder = tmp.join("mails").join(side);
        std::fs::create_dir_all(&folder).unwrap();
        let to = format!("{side}@club.test");
        let mut n = 0;
        for e in std::fs::read_dir(&outdir).unwrap().flatten() {
            let raw = std::fs::read(e.path()).unwrap();
            let head = String::from_utf8_lossy(&raw[..raw.len().min(2000)]).into_owned();
            let header = &head[..head.find("\r\n\r\n").unwrap_or(head.len())];
            if header
                .lines()
                .any(|l| l.starts_with("To:") && l.contains(&to))
            {
                std::fs::write(folder.join(e.file_name()), &raw).unwrap();
                n += 1;
            }
        }
        assert!(n >= 2, "{side} has its opening and a result: {n}");
        out.push((side.to_string(), folder));
    }
    out
}

#[test]
fn a_side_of_a_hidden_game_sees_its_situation_and_map_from_its_mails() {
    let tmp = tempfile::tempdir().unwrap();
    let folders = mails_of(tmp.path(), "ldf", "campaign", &["roman", "gp"]);
    let (side, folder) = &folders[0];
    let f = folder.to_str().unwrap();
    // The copy verifies, as it did before.
    let v = ok(&umpire(&["verify", f]));
    assert!(v.contains("record copy verified"), "{v}");
    // show: the copy verified, then the situation its latest mail gave.
    let out = ok(&umpire(&["show", "--record", f]));
    assert!(
        !out.contains("\\u{d}"),
        "line ends as the terminal wants them: {out}"
    );
    assert!(
        out.contains(&format!("{side}'s copy of the record")),
        "{out}"
    );
    assert!(flat(&out).contains("cannot be replayed offline"), "{out}");
    assert!(
        out.contains(&format!("== The situation, as {side} sees it ==")),
        "{out}"
    );
    assert!(!out.contains("== Proof =="), "{out}");
    // Its own side is what it may see; another side's view, or the
    // umpire's, it plainly cannot give.
    ok(&umpire(&["show", "--record", f, "--side", side]));
    let o = umpire(&["show", "--record", f, "--side", "gp"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("this is roman's copy"), "{err}");
    let o = umpire(&["show", "--record", f, "--umpire"]);
    assert_eq!(o.status.code(), Some(1));

    // map: the picture the latest result mail carried (its own view).
    let png = tmp.path().join("map.png");
    ok(&umpire(&["map", f, "-o", png.to_str().unwrap()]));
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "a PNG");
    let svg = tmp.path().join("map.svg");
    let o = umpire(&["map", f, "-o", svg.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(flat(&err).contains("name a .png file"), "{err}");

    // check: against the copy assembled from the folder.
    let copy = umpire::core::segment::assemble(
        &umpire::service::segments::parts(std::slice::from_ref(folder))
            .unwrap()
            .into_iter()
            .map(|p| (p.name, p.text))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let text = format!(
        "game: g1\nside: {side}\nafter: {}\norders:\n  pass\n",
        copy.head().to_hex()
    );
    let mv = tmp.path().join("move.txt");
    std::fs::write(&mv, &text).unwrap();
    let sig = common::key(1)
        .sign(MOVE_NAMESPACE, text.as_bytes())
        .unwrap();
    std::fs::write(tmp.path().join("move.txt.sig"), sig).unwrap();
    let out = ok(&umpire(&["check", mv.to_str().unwrap(), "--record", f]));
    assert!(out.contains("checked against a side's copy"), "{out}");
    assert!(out.contains("signature: good"), "{out}");
    assert!(out.contains("follows the copy's latest entry"), "{out}");
}

#[test]
fn a_game_without_secrets_is_replayed_from_a_folder_of_mails() {
    let tmp = tempfile::tempdir().unwrap();
    let folders = mails_of(tmp.path(), "freeform", "open", &["red", "blue"]);
    let (_, folder) = &folders[1];
    let f = folder.to_str().unwrap();
    let out = ok(&umpire(&["show", "--record", f, "--side", "blue"]));
    assert!(
        !out.contains("copy of the record"),
        "replayed, not a copy: {out}"
    );
    let svg = tmp.path().join("map.svg");
    let o = umpire(&["map", f, "-o", svg.to_str().unwrap()]);
    // Freeform has no map to draw; the replay itself worked.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        o.status.success() || err.contains("has no map to draw"),
        "{err}"
    );
    // check replays the game from the folder and judges the orders.
    let parts = umpire::service::segments::gather(std::slice::from_ref(folder)).unwrap();
    let text = format!(
        "game: g1\nside: red\nafter: {}\norders:\n  advance\n  end turn\n",
        parts.record.head().to_hex()
    );
    let mv = tmp.path().join("move.txt");
    std::fs::write(&mv, &text).unwrap();
    let out = umpire(&["check", mv.to_str().unwrap(), "-r", f]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("The umpire would accept this move")
            || said.contains("The umpire would REFUSE this move"),
        "the orders were judged: {said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_sarhu_side_shows_and_draws_from_its_folder_of_mails() {
    let tmp = tempfile::tempdir().unwrap();
    let folders = mails_of(tmp.path(), "sarhu", "historical", &["ming", "jurchen"]);
    for (side, folder) in &folders {
        let f = folder.to_str().unwrap();
        // Each side's copy holds the other's items sealed: the tools give
        // this side's view, from the folder of its mails.
        let out = ok(&umpire(&["show", "--record", f, "--side", side]));
        assert!(
            out.contains(&format!("{side}'s copy of the record")),
            "{out}"
        );
        assert!(
            out.contains(&format!("== The situation, as {side} sees it ==")),
            "{out}"
        );
        let png = tmp.path().join(format!("{side}.png"));
        ok(&umpire(&[
            "map",
            f,
            "--side",
            side,
            "-o",
            png.to_str().unwrap(),
        ]));
        assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    }
}
