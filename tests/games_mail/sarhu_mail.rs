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

/// A mail's text with its line wrapping undone.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Signs `orders` as `side`'s move after the game's head, mails it into the
/// Maildir and polls; the number of moves accepted.
fn mail_move(
    u: &mut Umpire,
    md: &mut Maildir,
    ob: &mut FileOutbox,
    (side, name): (u8, &str),
    n: u64,
    orders: &str,
    now: jiff::Timestamp,
) -> usize {
    let g = u.game("sarhu-1").unwrap();
    let mut text = format!(
        "game: sarhu-1\nside: {name}\nafter: {}\norders:\n",
        g.record().head()
    );
    for line in orders.lines() {
        text.push_str(&format!("  {line}\n"));
    }
    let sig = key(side + 1).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    let mail = move_mail(
        &format!("{name}@club.test"),
        "umpire@club.test",
        n,
        &text,
        &sig,
        false,
    );
    md.deliver(&format!("{n:05}"), &mail).unwrap();
    let r = u.poll(md, now).unwrap();
    u.deliver(ob, now).unwrap();
    r.accepted
}

/// 4.2.4: one mail may hold an action and then `pass rest`; the passes run
/// in the Ming's later phases without another mail, and the record verifies.
#[test]
fn an_action_then_pass_rest_in_one_mail_is_accepted_and_the_passes_run() {
    use umpire::core::ruleset::Side;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("club");
    let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    let mut u = common::umpire_with_game(
        &dir,
        common::new_game("sarhu-1", "sarhu", "historical", &["ming", "jurchen"], &[]),
        now,
    );
    let mut md = Maildir::open(&dir.join("maildir")).unwrap();
    let outdir = dir.join("outbox");
    let mut ob = FileOutbox::open(&outdir).unwrap();
    let g = u.game("sarhu-1").unwrap();
    let mv = g
        .ruleset()
        .legal_moves(g.state(), Side(0))
        .into_iter()
        .find(|l| l.starts_with("move ") && !l.lines().any(|x| x.starts_with("then")))
        .expect("a legal single move for the Ming");
    let orders = format!("{mv}\npass rest");
    let accepted = mail_move(&mut u, &mut md, &mut ob, (0, "ming"), 1, &orders, now);
    assert_eq!(
        accepted, 1,
        "an action and `pass rest` in one mail:\n{orders}"
    );
    let g = u.game("sarhu-1").unwrap();
    assert_eq!(
        g.prompt().awaiting[0].side,
        Side(1),
        "the Jurchen's phase after\n{orders}\n{:?}",
        g.prompt()
    );
    let mails = outbox(&outdir);
    assert!(
        mails.values().any(|m| words(&m.text)
            .contains("Ming will pass their remaining action phases of turn 1 (4.2.4)")),
        "the result mail says what was queued"
    );
    // The Jurchen pass; the Ming's queued pass runs; the Jurchen are asked again.
    assert_eq!(
        mail_move(&mut u, &mut md, &mut ob, (1, "jurchen"), 2, "pass", now),
        1
    );
    let g = u.game("sarhu-1").unwrap();
    assert_eq!(
        g.prompt().awaiting[0].side,
        Side(1),
        "the Ming's queued pass ran by itself"
    );
    let mails = outbox(&outdir);
    assert!(
        mails
            .values()
            .any(|m| words(&m.text).contains("Ming pass (queued)")),
        "the queued pass is narrated"
    );
    // The record verifies with the umpire binary.
    let rec = tmp.path().join("sarhu-1.txt");
    std::fs::write(&rec, u.export("sarhu-1", None).unwrap()).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("verify")
        .arg(&rec)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}
