//! The embedded pipeline end to end: signed mails into a Maildir, a poll, the
//! replies in the file outbox, and the record that verifies.

use umpire_testkit as common;

use common::{declared, key, move_mail, outbox, plain_mail};
use std::collections::BTreeMap;
use umpire::core::game::{Game, ReplayMode};
use umpire::core::record::{Body, Record};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;

struct Club {
    _tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    outdir: std::path::PathBuf,
    n: u64,
}

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

/// The players' moves in a game's record.
fn moves_in(g: &Game) -> usize {
    g.record()
        .entries()
        .iter()
        .filter(|e| matches!(e.body, Body::Move(_)))
        .count()
}

fn club(sides: &[&str]) -> Club {
    club_with(sides, |t| t)
}

/// A club whose `umpire.toml` is edited by `config` before it opens.
fn club_with(sides: &[&str], config: impl Fn(String) -> String) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let toml = tmp.path().join("umpire.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, config(text)).unwrap();
    let mut umpire = Umpire::open(tmp.path()).unwrap();
    umpire
        .create_game(
            NewGame {
                id: "g1".into(),
                ruleset: "freeform".into(),
                scenario: "open".into(),
                options: BTreeMap::new(),
                deadlines: None,
                time_zones: BTreeMap::new(),
                sides: declared(sides),
            },
            now(),
        )
        .unwrap();
    let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let outdir = tmp.path().join("outbox");
    let mut outbox = FileOutbox::open(&outdir).unwrap();
    umpire.deliver(&mut outbox, now()).unwrap();
    Club {
        _tmp: tmp,
        umpire,
        maildir,
        outbox,
        outdir,
        n: 0,
    }
}

impl Club {
    fn head(&mut self) -> String {
        self.umpire.game("g1").unwrap().record().head().to_hex()
    }

    fn move_text(&mut self, side: &str, orders: &[&str]) -> String {
        let mut t = format!("game: g1\nside: {side}\nafter: {}\norders:\n", self.head());
        for o in orders {
            t.push_str(&format!("  {o}\n"));
        }
        t
    }

    fn drop_mail(&mut self, raw: &[u8]) {
        self.n += 1;
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), raw)
            .unwrap();
    }

    fn send(&mut self, side_index: u8, side: &str, orders: &[&str], armored: bool) {
        let text = self.move_text(side, orders);
        let sig = key(side_index + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        let n = self.n + 1;
        self.drop_mail(&move_mail(
            &format!("{side}@club.test"),
            "umpire@club.test",
            n,
            &text,
            &sig,
            armored,
        ));
    }

    fn poll(&mut self) -> umpire::service::poll::PollReport {
        let r = self.umpire.poll(&mut self.maildir, now()).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
        r
    }

    fn mails(&self) -> BTreeMap<String, umpire::mail::mime::ReadMail> {
        outbox(&self.outdir)
    }
}

#[test]
fn three_players_play_and_the_record_verifies() {
    let mut c = club(&["red", "blue", "green"]);
    assert_eq!(c.mails().len(), 3, "an opening mail per side");
    for round in 0..2 {
        for (i, s) in ["red", "blue", "green"].iter().enumerate() {
            let roll = format!("roll 2d6 round {round}");
            c.send(
                i as u8,
                s,
                &["advance", &roll, "end turn"],
                (i + round) % 2 == 0,
            );
            let r = c.poll();
            assert_eq!(r.accepted, 1, "{s} round {round}: {r:?}");
        }
    }
    let mails = c.mails();
    // Opening + 6 results, each to 3 sides.
    assert_eq!(mails.len(), 3 + 6 * 3);
    let last = &mails["g1.11.blue.eml"]; // moves are odd entries, each followed by its reveal
    assert!(last.text.contains("green's move"), "{}", last.text);
    assert!(last.text.contains("rolls 2d6 for round 1"), "{}", last.text);
    assert!(
        last.text.contains("Dice secret of position 6"),
        "{}",
        last.text
    );
    // The last mail carries only what blue had not yet received.
    assert!(
        last.attachments
            .iter()
            .any(|a| a.name == "record-11-12.txt"),
        "{:?}",
        last.attachments.iter().map(|a| &a.name).collect::<Vec<_>>()
    );
    // The parts blue received, put together, verify and match the store.
    let parts: Vec<(String, String)> = mails
        .iter()
        .filter(|(n, _)| n.ends_with(".blue.eml"))
        .flat_map(|(n, m)| {
            m.attachments
                .iter()
                .filter(|a| a.name.starts_with("record") && a.name.ends_with(".txt"))
                .map(move |a| (n.clone(), String::from_utf8(a.bytes.clone()).unwrap()))
        })
        .collect();
    let record = umpire::core::segment::assemble(&parts).unwrap();
    let (g, sum) = Game::replay(
        umpire::games::find("freeform").unwrap(),
        &record,
        ReplayMode::Verify,
    )
    .unwrap();
    assert_eq!(sum.rolls_verified, 12);
    assert_eq!(
        g.record().head(),
        c.umpire.game("g1").unwrap().record().head()
    );
    // Threading: every mail to red hangs under red's opening mail.
    for (name, m) in &mails {
        if name.starts_with("g1.") && name.ends_with(".red.eml") && name != "g1.0.red.eml" {
            assert!(
                m.references.contains(&"<g1.0.red@club.test>".to_string()),
                "{name}"
            );
        }
    }
}

#[test]
fn forged_stale_malformed_and_oversized_moves_change_nothing_and_get_a_clear_answer() {
    let mut c = club(&["red", "blue"]);
    let state = c.umpire.game("g1").unwrap().state().hash();
    // Forged: blue's key signs red's move; the refusal goes to the From address.
    let text = c.move_text("red", &["end turn"]);
    let sig = key(2).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    let n = c.n + 1;
    c.drop_mail(&move_mail(
        "mallory@club.test",
        "umpire@club.test",
        n,
        &text,
        &sig,
        false,
    ));
    // Malformed: an order line the ruleset cannot read, properly signed.
    c.send(0, "red", &["roll 2q6 fire"], false);
    let r = c.poll();
    assert_eq!(r.rejected, 2, "{r:?}");
    assert_eq!(c.umpire.game("g1").unwrap().state().hash(), state);
    let mails = c.mails();
    let forged = mails
        .values()
        .find(|m| m.text.contains("forged"))
        .expect("a refusal for the forgery");
    assert!(forged.text.contains("REFUSED and changed nothing"));
    let malformed = mails
        .values()
        .find(|m| m.text.contains("2q6"))
        .expect("a refusal quoting the line");
    assert!(
        malformed.text.contains("line 5: roll 2q6 fire"),
        "{}",
        malformed.text
    );
    assert!(malformed.text.contains("^"), "a caret under the fault");
    // Stale: written before red's accepted move, sent after it.
    let stale = c.move_text("red", &["hold", "end turn"]);
    let stale_sig = key(1).sign(MOVE_NAMESPACE, stale.as_bytes()).unwrap();
    c.send(0, "red", &["end turn"], false);
    c.send(1, "blue", &["end turn"], true);
    assert_eq!(
        c.poll().accepted,
        1,
        "blue's move is stale too: it was written before red moved"
    );
    let n = c.n + 1;
    c.drop_mail(&move_mail(
        "red@club.test",
        "umpire@club.test",
        n,
        &stale,
        &stale_sig,
        false,
    ));
    let before = c.umpire.game("g1").unwrap().state().hash();
    let r = c.poll();
    assert_eq!(r.rejected, 1);
    assert_eq!(c.umpire.game("g1").unwrap().state().hash(), before);
    assert!(c.mails().values().any(|m| m.text.contains("stale")));
    // Oversized: 3 MB of attachment.
    let mut big = move_mail(
        "red@club.test",
        "umpire@club.test",
        999,
        &"x".repeat(3 << 20),
        "sig",
        false,
    );
    big.extend_from_slice(b"\r\n");
    c.drop_mail(&big);
    let r = c.poll();
    assert_eq!((r.mails, r.ignored), (1, 1));
    assert!(
        c.mails()
            .values()
            // Answers are wrapped at 72 columns: compare the words.
            .any(|m| m
                .text
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains("bytes; the umpire reads mails up to"))
    );
    // The record verifies, refusals included.
    let record = Record::from_text(&c.umpire.export("g1", None).unwrap()).unwrap();
    let (_, sum) = Game::replay(
        umpire::games::find("freeform").unwrap(),
        &record,
        ReplayMode::Verify,
    )
    .unwrap();
    assert_eq!(sum.rejected, 4);
}

#[test]
fn bounces_auto_replies_and_our_own_mails_are_never_answered() {
    let mut c = club(&["red", "blue"]);
    let before = c.mails().len();
    c.drop_mail(&plain_mail(
        "MAILER-DAEMON@club.test",
        "umpire@club.test",
        1,
        "Undelivered",
        &[],
    ));
    c.drop_mail(&plain_mail(
        "red@club.test",
        "umpire@club.test",
        2,
        "I am on holiday",
        &[("Auto-Submitted", "auto-replied")],
    ));
    // One of our own results, looping back.
    let own = std::fs::read(c.outdir.join("g1.0.red.eml")).unwrap();
    c.drop_mail(&own);
    let r = c.poll();
    assert_eq!((r.mails, r.ignored, r.replies), (3, 3, 0));
    assert_eq!(c.mails().len(), before);
}

#[test]
fn unsigned_mail_gets_one_how_to_a_day() {
    // From an address that plays no game: one note a day (a player of a
    // running game is answered every time: tests/pipeline/ux_mail.rs).
    let mut c = club(&["red", "blue"]);
    for n in 0..3 {
        c.drop_mail(&plain_mail(
            "someone@else.test",
            "umpire@club.test",
            10 + n,
            "game: g1\nside: red\norders:\n  end turn\n",
            &[],
        ));
    }
    let r = c.poll();
    assert_eq!((r.mails, r.ignored, r.replies), (3, 3, 1));
    assert_eq!(
        c.mails()
            .values()
            .filter(|m| m.subject.contains("how to send a signed move"))
            .count(),
        1
    );
}

#[test]
fn a_resent_move_and_a_second_delivery_are_not_applied_twice() {
    let mut c = club(&["red", "blue"]);
    let text = c.move_text("red", &["roll 1d6 morale", "end turn"]);
    let sig = key(1).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    let mail = move_mail("red@club.test", "umpire@club.test", 1, &text, &sig, false);
    c.drop_mail(&mail);
    c.drop_mail(&mail); // the same mail delivered twice
    let again = move_mail("red@club.test", "umpire@club.test", 2, &text, &sig, true); // resent in a new mail
    c.drop_mail(&again);
    let r = c.poll();
    assert_eq!(r.accepted, 1, "{r:?}");
    assert_eq!(r.duplicates, 1, "{r:?}");
    let g = c.umpire.game("g1").unwrap();
    assert_eq!(moves_in(g), 1);
    // The resend got the same result again, to red only.
    let mails = c.mails();
    let first = &mails["g1.1.red.eml"];
    let resent = mails
        .iter()
        .find(|(k, _)| k.starts_with("g1.1.red.again"))
        .map(|(_, m)| m)
        .expect("resent result");
    let dice = |t: &str| {
        t.lines()
            .filter(|l| l.contains("d6 ="))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(dice(&first.text), dice(&resent.text));
    assert!(!mails.keys().any(|k| k.starts_with("g1.1.blue.again")));
}

/// Each group of `commit_every` mails is committed by a worker while the
/// next group is adjudicated: the next group must read the group in flight
/// as if it were in the store (here its ledger), and every mail must be
/// marked done once its group is durable.
#[test]
fn a_group_in_flight_is_read_by_the_next_as_if_committed() {
    let mut c = club_with(&["red", "blue"], |t| {
        let edited = t.replace("commit_every = 100", "commit_every = 1");
        assert_ne!(edited, t, "the default config names commit_every");
        edited
    });
    let text = c.move_text("red", &["roll 1d6 morale", "end turn"]);
    let sig = key(1).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    let mail = move_mail("red@club.test", "umpire@club.test", 1, &text, &sig, false);
    c.drop_mail(&mail);
    // The same bytes again, in the next group: found in the first group's
    // ledger while that group is still being committed.
    c.drop_mail(&mail);
    let again = move_mail("red@club.test", "umpire@club.test", 2, &text, &sig, true);
    c.drop_mail(&again);
    let r = c.poll();
    assert_eq!(
        (r.mails, r.accepted, r.duplicates),
        (2, 1, 1),
        "the second delivery is skipped, the resend is a duplicate: {r:?}"
    );
    let new = std::fs::read_dir(c._tmp.path().join("maildir/new"))
        .unwrap()
        .count();
    let cur = std::fs::read_dir(c._tmp.path().join("maildir/cur"))
        .unwrap()
        .count();
    assert_eq!((new, cur), (0, 3), "every mail marked done once committed");
    // What the groups wrote is in the store: a fresh umpire replays the move.
    let dir = c._tmp.path().to_path_buf();
    drop(c.umpire);
    let mut fresh = Umpire::open(&dir).unwrap();
    let g = fresh.game("g1").unwrap();
    assert_eq!(moves_in(g), 1, "red's move, once");
    let record = Record::from_text(&g.record().to_text()).unwrap();
    Game::replay(g.ruleset().clone(), &record, ReplayMode::Verify).expect("verifies");
}

#[test]
fn commands_by_mail_answer_the_signer() {
    let mut c = club(&["red", "blue"]);
    let text = "game: g1\nside: blue\ncommand: status\ncommand: orders\naway: until 2026-12-24\n";
    let sig = key(2).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    c.drop_mail(&move_mail(
        "blue@club.test",
        "umpire@club.test",
        1,
        text,
        &sig,
        false,
    ));
    let r = c.poll();
    assert_eq!(r.commands, 1);
    assert_eq!(r.replies, 3);
    let mails = c.mails();
    assert!(
        mails
            .values()
            .any(|m| m.subject.contains("status") && m.text.contains("as blue sees it"))
    );
    assert!(
        mails
            .values()
            .any(|m| m.subject.contains("orders you can give")
                && m.text.contains("Nothing is asked of you now"))
    );
    assert_eq!(
        c.umpire
            .meta("g1")
            .unwrap()
            .away
            .get("blue")
            .map(String::as_str),
        Some("2026-12-24")
    );
    // Commands are not moves: the record gains only the side's new deadline
    // settings (an admin entry, so that they survive an import).
    let g = c.umpire.game("g1").unwrap();
    let bodies: Vec<&Body> = g.record().entries()[1..].iter().map(|e| &e.body).collect();
    assert!(
        matches!(
            bodies[..],
            [Body::Admin(umpire::core::act::AdminEntry {
                act: umpire::core::act::AdminAct::Settings { .. },
                ..
            })]
        ),
        "commands are not moves: {bodies:?}"
    );
}

// Issue 13 item 2 (a documented retention for raw mails; compaction):
// `compact` drops the raw copies of mails handled before the retention and
// shrinks the file; the ledger still knows them (a second delivery changes
// nothing), the game plays on and its record verifies.
#[test]
fn compact_drops_old_raw_mails_keeps_their_ledger_and_the_game_plays_on() {
    let mut c = club(&["red", "blue"]);
    let text = c.move_text("red", &["roll 1d6 morale", "end turn"]);
    let sig = key(1).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    let mail = move_mail("red@club.test", "umpire@club.test", 1, &text, &sig, false);
    c.drop_mail(&mail);
    c.drop_mail(
        b"From: stranger@elsewhere.test\r\nSubject: hi\r\n\r\n"
            .repeat(2000)
            .as_slice(),
    );
    assert_eq!(c.poll().accepted, 1);
    let inbox = |c: &Club| {
        c.umpire
            .store()
            .keys(umpire::store::Table::Inbox)
            .unwrap()
            .len()
    };
    assert_eq!(inbox(&c), 2, "both raw mails kept");

    // Within the retention nothing goes.
    let kept = c.umpire.compact(1, now()).unwrap();
    assert_eq!((kept.dropped, kept.kept), (0, 2));
    // Two days on, with one day of retention, both go and the file shrinks.
    let later = now() + jiff::SignedDuration::from_hours(48);
    let done = c.umpire.compact(1, later).unwrap();
    assert_eq!((done.dropped, done.kept), (2, 0), "{done:?}");
    assert_eq!(inbox(&c), 0);
    assert!(done.bytes_after <= done.bytes_before, "{done:?}");

    // The same mail delivered again is still recognised by its ledger line
    // and skipped unread (a poll counts only the mails it reads).
    c.drop_mail(&mail);
    let r = c.poll();
    assert_eq!((r.mails, r.accepted, r.rejected), (0, 0, 0), "{r:?}");
    assert_eq!(inbox(&c), 0, "not stored again");
    // The game goes on, and its record verifies.
    c.send(1, "blue", &["roll 2d6 fire", "end turn"], false);
    assert_eq!(c.poll().accepted, 1);
    let g = c.umpire.game("g1").unwrap();
    let record = Record::from_text(&g.record().to_text()).unwrap();
    Game::replay(g.ruleset().clone(), &record, ReplayMode::Verify).expect("verifies");
}
