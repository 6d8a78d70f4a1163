//! A whole game of Strike on Sarhu through the mail pipeline: each side's
//! orders are picked among the legal ones, written as move files, signed,
//! mailed into the Maildir and polled; the replies land in the file outbox.
//! The game must end with the victory mail to both sides and a record that
//! `umpire verify` accepts.

use umpire_testkit as common;

use common::{key, move_mail, outbox};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use std::process::Command;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;

#[test]
fn a_full_game_of_sarhu_by_mail_ends_in_victory_and_verifies() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("club");
    Umpire::init(&dir, "umpire@club.test").unwrap();
    let mut u = Umpire::open(&dir).unwrap();
    let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
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
        now,
    )
    .unwrap();
    let mut md = Maildir::open(&dir.join("maildir")).unwrap();
    let outdir = dir.join("outbox");
    let mut ob = FileOutbox::open(&outdir).unwrap();
    let mut rng = ChaCha20Rng::from_seed([19; 32]);
    let mut n = 0u64;
    loop {
        let g = u.game("sarhu-1").unwrap();
        if g.prompt().finished.is_some() {
            break;
        }
        assert!(n < 1500, "the game did not end");
        let side = g.prompt().awaiting[0].side;
        let name = g.sides()[side.index()].name.clone();
        let legal = g.ruleset().legal_moves(g.state(), side);
        assert!(
            !legal.is_empty(),
            "{name} is asked to act but has no legal order"
        );
        // Lean away from `pass rest` so the battle is fought, not sat out.
        let mut pick = legal[(rng.next_u32() as usize) % legal.len()].clone();
        if pick == "pass rest" && rng.next_u32() % 4 != 0 {
            pick = legal[0].clone();
        }
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
        n += 1;
        let mail = move_mail(
            &format!("{name}@club.test"),
            "umpire@club.test",
            n,
            &text,
            &sig,
            n.is_multiple_of(3),
        );
        md.deliver(&format!("{n:05}"), &mail).unwrap();
        let r = u.poll(&mut md, now).unwrap();
        assert_eq!(
            r.accepted, 1,
            "move {n} by {name} was not accepted:\n{text}"
        );
        u.deliver(&mut ob, now).unwrap();
    }
    let g = u.game("sarhu-1").unwrap();
    let outcome = g.prompt().finished.clone().unwrap();
    assert!(
        !outcome.winners.is_empty(),
        "Sarhu has no draws (8.0): {}",
        outcome.summary
    );
    // Both sides got the victory mail.
    let mails = outbox(&outdir);
    let over: Vec<_> = mails
        .values()
        .filter(|m| m.text.contains("== GAME OVER =="))
        .collect();
    assert_eq!(over.len(), 2, "one victory mail per side");
    assert!(over.iter().all(|m| m.subject.contains("game over")));
    // Map snippets went out with the results.
    assert!(mails.values().any(|m| m.text.contains("Key: 0712")));
    // The record verifies with the umpire binary, as a tournament director would.
    let rec = tmp.path().join("sarhu-1.txt");
    std::fs::write(&rec, u.export("sarhu-1", None).unwrap()).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("verify")
        .arg(&rec)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        out.contains("record verified") && out.contains("game over"),
        "{out}"
    );
    eprintln!("{n} signed moves by mail; {}", outcome.summary);
    if let Ok(keep) = std::env::var("KEEP_SARHU_MAILS") {
        std::fs::create_dir_all(&keep).unwrap();
        for e in std::fs::read_dir(&outdir).unwrap().flatten() {
            std::fs::copy(e.path(), std::path::Path::new(&keep).join(e.file_name())).unwrap();
        }
    }
}
