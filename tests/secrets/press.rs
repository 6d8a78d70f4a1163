//! Press and noninterference: two runs of one A Distant Plain game (the
//! same data directory copied, so the same secrets and keys) that differ
//! only in a private message between two sides give a third side the same
//! bytes on every channel (its mails, their subjects, the record copy and
//! picture they attach, its status), the sealed commitments and the hashes that chain
//! over them aside.

use umpire_testkit as common;

use common::{copy_dir, declared, key, move_mail};
use std::collections::BTreeMap;
use std::path::Path;
use umpire::core::ruleset::Viewer;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;

const SIDES: [&str; 4] = ["coalition", "government", "taliban", "warlords"];

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

fn signed(side: &str, text: &str) -> (String, String) {
    let i = SIDES.iter().position(|s| *s == side).unwrap() as u8 + 1;
    let sig = key(i).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    (text.to_string(), sig)
}

/// Mails each signed file in turn into the club in `dir`, polls, and
/// returns what every mail sent to `viewer` holds: subject, text and
/// attachments, each 64-digit hash replaced.
fn run(dir: &Path, files: &[(&str, String)], viewer: &str) -> Vec<String> {
    let mut u = Umpire::open(dir).unwrap();
    let mut md = Maildir::open(&dir.join("maildir")).unwrap();
    let out = dir.join("outbox");
    let mut ob = FileOutbox::open(&out).unwrap();
    u.deliver(&mut ob, now()).unwrap();
    let before: Vec<String> = common::outbox(&out).into_keys().collect();
    for (n, (side, text)) in files.iter().enumerate() {
        let (t, s) = signed(side, text);
        let raw = move_mail(
            &format!("{side}@club.test"),
            "umpire@club.test",
            n as u64 + 1,
            &t,
            &s,
            false,
        );
        md.deliver(&format!("{n:05}.mail"), &raw).unwrap();
        u.poll(&mut md, now()).unwrap();
        u.deliver(&mut ob, now()).unwrap();
    }
    let mut seen = Vec::new();
    for (name, mail) in common::outbox(&out) {
        if before.contains(&name) {
            continue;
        }
        let raw = std::fs::read_to_string(out.join(&name)).unwrap();
        let to = raw
            .lines()
            .find_map(|l| l.strip_prefix("To: "))
            .unwrap_or_default();
        if !to.contains(viewer) {
            continue;
        }
        let mut item = format!("{}\n{}", mail.subject, mail.text);
        for a in &mail.attachments {
            item.push_str(&format!(
                "\n{}: {}",
                a.name,
                String::from_utf8_lossy(&a.bytes)
            ));
        }
        seen.push(mask(&item));
    }
    seen.push(mask(&u.export("g1", Some(viewer)).unwrap()));
    let side = u.game("g1").unwrap().side(viewer).unwrap();
    let status = u.status_text("g1", Viewer::Side(side), now()).unwrap();
    seen.push(mask(&status));
    seen
}

/// `text` with every run of 64 hex digits (hashes, commitments) and every
/// SSH signature (the umpire's, over a record whose hashes differ) replaced.
fn mask(text: &str) -> String {
    let mut rest = text;
    let mut out = String::new();
    while let Some(i) = rest.find("-----BEGIN SSH SIGNATURE-----") {
        out.push_str(&mask_hex(&rest[..i]));
        out.push_str("[signature]");
        let end = "-----END SSH SIGNATURE-----";
        rest = rest[i..]
            .find(end)
            .map_or("", |j| &rest[i + j + end.len()..]);
    }
    out.push_str(&mask_hex(rest));
    out
}

fn mask_hex(text: &str) -> String {
    let mut out = String::new();
    let mut run = String::new();
    for c in text.chars() {
        if c.is_ascii_hexdigit() {
            run.push(c);
            continue;
        }
        out.push_str(if run.len() == 64 { "#" } else { &run });
        run.clear();
        out.push(c);
    }
    out.push_str(if run.len() == 64 { "#" } else { &run });
    out
}

#[test]
fn a_private_message_between_two_sides_changes_nothing_a_third_receives() {
    let base = tempfile::tempdir().unwrap();
    Umpire::init(base.path(), "umpire@club.test").unwrap();
    let mut u = Umpire::open(base.path()).unwrap();
    let new = NewGame {
        id: "g1".into(),
        ruleset: "adp".into(),
        scenario: "standin".into(),
        options: BTreeMap::new(),
        deadlines: None,
        time_zones: BTreeMap::new(),
        sides: declared(&SIDES),
    };
    u.create_game(new, now()).unwrap();
    // A move every run makes after the message, written against the head
    // before it (press moves no side's anchor), so its text and rolls are
    // the same in both runs.
    let g = u.game("g1").unwrap();
    let who = g.prompt().awaiting[0].side;
    let mover = g.sides()[who.index()].name.clone();
    let legal = g.ruleset().legal_moves(g.state(), who).remove(0);
    let mut mv = format!(
        "game: g1\nside: {mover}\nafter: {}\norders:\n",
        g.record().head()
    );
    for l in legal.lines() {
        mv.push_str(&format!("  {l}\n"));
    }
    drop(u);
    let variants = [
        "Kandahar at dawn.",
        "Stay out of Helmand; I mean it, all of it.",
    ];
    let mut views = Vec::new();
    for (i, msg) in variants.iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(base.path(), dir.path());
        let press = format!("game: g1\nside: coalition\npress to: government\n  {msg}\n");
        let files = [("coalition", press), (mover.as_str(), mv.clone())];
        let view = run(dir.path(), &files, "taliban");
        assert!(
            !view.concat().contains(msg),
            "run {i}: the Taliban read the message"
        );
        // The parties did get it.
        let gov = run(dir.path(), &[], "government");
        assert!(
            gov.concat().contains(msg),
            "run {i}: the government's copy holds it"
        );
        views.push(view);
    }
    assert!(
        views[0].len() >= 2,
        "a result mail and the copy: {:?}",
        views[0]
    );
    assert_eq!(views[0], views[1]);
}
