//! A club corrects its game data in the middle of a game (issue 14, item 9):
//! a correction that changes nothing in play moves the game on by itself, with
//! the players told and the record verifying; one that changes play is held
//! for the admin, and the game is not touched.

use umpire_testkit as common;

use common::{key, move_mail, outbox};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use umpire::core::record::{Body, Record};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::service::Umpire;
use umpire::service::games::NewGame;
use umpire::service::upgrade::{UpgradeDecision, UpgradeOutcome};

const NOW: &str = "2026-12-01T10:00:00Z";

struct Club {
    dir: PathBuf,
    md: Maildir,
    n: u64,
}

impl Club {
    fn new(root: &Path) -> Club {
        let dir = root.join("club");
        Umpire::init(&dir, "umpire@club.test").unwrap();
        let mut u = Umpire::open(&dir).unwrap();
        u.create_game(
            NewGame {
                id: "sarhu-1".into(),
                ruleset: "sarhu".into(),
                scenario: "historical".into(),
                options: BTreeMap::new(),
                deadlines: None,
                time_zones: BTreeMap::new(),
                sides: vec![
                    ("ming".into(), "ming@club.test".into(), key(1).public_line()),
                    (
                        "jurchen".into(),
                        "jurchen@club.test".into(),
                        key(2).public_line(),
                    ),
                ],
            },
            now(),
        )
        .unwrap();
        let md = Maildir::open(&dir.join("maildir")).unwrap();
        Club { dir, md, n: 0 }
    }

    /// A fresh umpire process on the club's data directory.
    fn umpire(&self) -> Umpire {
        Umpire::open(&self.dir).unwrap()
    }

    /// The awaited side mails its first legal order; returns the poll's acceptances.
    fn play(&mut self, u: &mut Umpire) -> usize {
        let g = u.game("sarhu-1").unwrap();
        let side = g.prompt().awaiting[0].side;
        let name = g.sides()[side.index()].name.clone();
        let pick = g.ruleset().legal_moves(g.state(), side)[0].clone();
        let mut text = format!(
            "game: sarhu-1\nside: {name}\nafter: {}\norders:\n",
            g.record().head()
        );
        for line in pick.lines() {
            text.push_str(&format!("  {line}\n"));
        }
        let sig = key(side.0 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        self.n += 1;
        let mail = move_mail(
            &format!("{name}@club.test"),
            "umpire@club.test",
            self.n,
            &text,
            &sig,
            false,
        );
        self.md.deliver(&format!("{:05}", self.n), &mail).unwrap();
        u.poll(&mut self.md, now()).unwrap().accepted
    }

    /// The club's own copy of Sarhu's data, with `edit` applied to one file.
    fn correct_data(&self, file: &str, edit: impl Fn(&str) -> String) {
        let to = self.dir.join("games").join("sarhu");
        std::fs::create_dir_all(&to).unwrap();
        for f in ["map.toml", "oob.toml", "tables.toml"] {
            let text = std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("games/sarhu")
                    .join(f),
            )
            .unwrap();
            let text = if f == file { edit(&text) } else { text };
            std::fs::write(to.join(f), text).unwrap();
        }
    }

    fn record(&self, u: &mut Umpire) -> Record {
        Record::from_text(&u.export("sarhu-1", None).unwrap()).unwrap()
    }

    fn verify(&self, u: &mut Umpire, data: Option<&Path>) -> (bool, String) {
        let rec = self.dir.join("sarhu-1.txt");
        std::fs::write(&rec, u.export("sarhu-1", None).unwrap()).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_umpire"));
        cmd.arg("verify").arg(&rec);
        if let Some(d) = data {
            cmd.arg("--data").arg(d);
        }
        let o = cmd.output().unwrap();
        (
            o.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
        )
    }
}

fn now() -> jiff::Timestamp {
    NOW.parse().unwrap()
}

#[test]
fn a_data_correction_that_changes_nothing_moves_the_game_on_and_tells_the_players() {
    let tmp = tempfile::tempdir().unwrap();
    let mut club = Club::new(tmp.path());
    let mut u = club.umpire();
    for _ in 0..4 {
        assert_eq!(club.play(&mut u), 1);
    }
    let before = club.record(&mut u).len();
    // The club fixes a comment in the map file: a new data hash, the same play.
    club.correct_data("map.toml", |t| format!("{t}\n# corrected: a typo\n"));
    drop(u);
    let mut u = club.umpire();
    let out = u.check_upgrades(false, now()).unwrap();
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        matches!(&out[0], (id, UpgradeOutcome::MovedOn { from, to })
            if id == "sarhu-1" && from.data != to.data && from.version == to.version),
        "{out:?}"
    );
    let rec = club.record(&mut u);
    assert_eq!(rec.len(), before + 1);
    assert!(matches!(
        &rec.entries().last().unwrap().body,
        Body::Upgrade(up) if up.diverged_at.is_none()
    ));
    // Both sides were told, in a mail of its own.
    let outdir = club.dir.join("outbox");
    let mut ob = umpire::mail::outbox::FileOutbox::open(&outdir).unwrap();
    u.deliver(&mut ob, now()).unwrap();
    let told: Vec<_> = outbox(&outdir)
        .into_values()
        .filter(|m| m.subject.contains("the umpire was upgraded"))
        .collect();
    assert_eq!(told.len(), 2);
    assert!(
        told.iter()
            .all(|m| m.text.contains("replays exactly the same")),
        "{}",
        told[0].text
    );
    // Nothing more to do, now or for a full check.
    assert!(u.check_upgrades(false, now()).unwrap().is_empty());
    assert!(u.check_upgrades(true, now()).unwrap().is_empty());
    // Play goes on by mail, under the corrected data.
    assert_eq!(club.play(&mut u), 1);
    // The record verifies with the corrected data; with the built-in data the
    // umpire says which version it lacks.
    let data = club.dir.join("games").join("sarhu");
    let (ok, out) = club.verify(&mut u, Some(&data));
    assert!(ok, "{out}");
    let (ok, out) = club.verify(&mut u, None);
    assert!(!ok && out.contains("cannot replay"), "{out}");
}

#[test]
fn a_data_correction_that_changes_play_is_held_for_the_admin() {
    let tmp = tempfile::tempdir().unwrap();
    let mut club = Club::new(tmp.path());
    let mut u = club.umpire();
    for _ in 0..2 {
        assert_eq!(club.play(&mut u), 1);
    }
    let before = club.record(&mut u);
    // Du Song's command now sets up at Yaku Pass: the very first state differs.
    club.correct_data("oob.toml", |t| {
        t.replacen("setup = \"fushun_pass\"", "setup = \"yaku_pass\"", 1)
    });
    drop(u);
    let mut u = club.umpire();
    let out = u.check_upgrades(false, now()).unwrap();
    let p = match &out[..] {
        [(id, UpgradeOutcome::Differs(p))] if id == "sarhu-1" => p.clone(),
        other => panic!("expected a difference: {other:?}"),
    };
    assert_eq!(p.seq, 1, "the first move's state differs: {}", p.message);
    // The record is untouched; the admin is asked, and the binary says so.
    assert_eq!(club.record(&mut u), before);
    drop(u);
    let o = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--dir")
        .arg(&club.dir)
        .arg("upgrade")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{said}");
    assert!(
        said.contains("differs from entry 1") && said.contains("--move-on"),
        "{said}"
    );
    let mut u = club.umpire();
    // Data have no old versions to fall back on: neither choice can play the
    // game under the new files, and the umpire says what to do instead.
    for d in [UpgradeDecision::Keep, UpgradeDecision::MoveOn] {
        let err = u
            .decide_upgrade("sarhu-1", d, now())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("data files the game was created with"),
            "{err}"
        );
    }
    assert_eq!(club.record(&mut u), before);
    // The club puts its old files back: the game plays on, nothing pending.
    std::fs::remove_dir_all(club.dir.join("games").join("sarhu")).unwrap();
    drop(u);
    let mut u = club.umpire();
    assert!(u.check_upgrades(false, now()).unwrap().is_empty());
    assert!(u.meta("sarhu-1").unwrap().upgrade.is_none());
    assert_eq!(club.play(&mut u), 1);
    let (ok, out) = club.verify(&mut u, None);
    assert!(ok, "{out}");
}
