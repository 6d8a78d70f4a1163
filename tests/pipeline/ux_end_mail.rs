//! Ending and running games through the Maildir pipeline: `concede` and a
//! draw both sides sign in freeform (hiding information), Sarhu and Asia
//! Crossroads; the admin's pause, resume, extend, new key, new address, end;
//! observers, who get only what every side may see.

use umpire_testkit as common;

use common::{key, move_mail};
use umpire::core::act::{AdminAct, Ending};
use umpire::core::game::{Game, ReplayMode};
use umpire::core::record::{Body, Record};
use umpire::core::sig::{MOVE_NAMESPACE, SecretKey};
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

/// One delivered mail.
#[derive(Debug)]
struct Got {
    to: String,
    subject: String,
    text: String,
    record: Option<String>,
    /// Subject, text and every attachment's text.
    all: String,
}

struct Club {
    _tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    outdir: std::path::PathBuf,
    sides: Vec<String>,
    keys: Vec<SecretKey>,
    seen: std::collections::BTreeSet<String>,
    n: u64,
}

fn club(ruleset: &str, scenario: &str, sides: &[&str], options: &[(&str, &str)]) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let mut umpire = common::umpire_with_game(
        tmp.path(),
        common::new_game("g1", ruleset, scenario, sides, options),
        now(),
    );
    let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let outdir = tmp.path().join("outbox");
    let mut outbox = FileOutbox::open(&outdir).unwrap();
    umpire.deliver(&mut outbox, now()).unwrap();
    let mut c = Club {
        _tmp: tmp,
        umpire,
        maildir,
        outbox,
        outdir,
        sides: sides.iter().map(|s| s.to_string()).collect(),
        keys: (0..sides.len()).map(|i| key(i as u8 + 1)).collect(),
        seen: Default::default(),
        n: 0,
    };
    c.new_mails();
    c
}

impl Club {
    fn send(&mut self, side: usize, orders: &[&str]) -> Vec<Got> {
        let head = self.umpire.game("g1").unwrap().record().head().to_hex();
        let mut text = format!(
            "game: g1\nside: {}\nafter: {head}\norders:\n",
            self.sides[side]
        );
        for o in orders {
            text.push_str(&format!("  {o}\n"));
        }
        self.send_text(side, &text)
    }

    fn send_text(&mut self, side: usize, text: &str) -> Vec<Got> {
        let sig = self.keys[side]
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        self.n += 1;
        let raw = move_mail(
            &format!("{}@club.test", self.sides[side]),
            "umpire@club.test",
            self.n,
            text,
            &sig,
            false,
        );
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), &raw)
            .unwrap();
        self.cycle()
    }

    fn cycle(&mut self) -> Vec<Got> {
        self.umpire.poll(&mut self.maildir, now()).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
        self.new_mails()
    }

    /// The mails delivered since the last call.
    fn new_mails(&mut self) -> Vec<Got> {
        let mut out = Vec::new();
        let mut names: Vec<_> = std::fs::read_dir(&self.outdir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .collect();
        names.sort();
        for p in names {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if !self.seen.insert(name) {
                continue;
            }
            let raw = std::fs::read(&p).unwrap();
            let to = String::from_utf8_lossy(&raw)
                .lines()
                .find_map(|l| l.strip_prefix("To: ").map(|t| t.trim().to_string()))
                .unwrap_or_default();
            let m = umpire::mail::mime::read(&raw).unwrap();
            let record = m
                .attachments
                .iter()
                .find(|a| a.name == "record.txt")
                .map(|a| String::from_utf8(a.bytes.clone()).unwrap());
            let mut all = format!("{}\n{}\n", m.subject, m.text);
            for a in &m.attachments {
                all.push_str(&String::from_utf8_lossy(&a.bytes));
            }
            out.push(Got {
                to,
                subject: m.subject,
                text: m.text,
                record,
                all,
            });
        }
        out
    }

    fn record(&mut self) -> Record {
        self.umpire.game("g1").unwrap().record().clone()
    }
}

fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Every side got a game-over mail with the full record, which verifies.
fn ended_for_all(c: &Club, mails: &[Got], phrase: &str) -> Record {
    let over: Vec<&Got> = mails
        .iter()
        .filter(|m| m.subject.contains("game over"))
        .collect();
    for s in &c.sides {
        let m = over
            .iter()
            .find(|m| m.to.starts_with(s.as_str()))
            .unwrap_or_else(|| panic!("no end mail to {s}: {mails:#?}"));
        assert!(flat(&m.all).contains(phrase), "{}", m.all);
    }
    let text = over[0].record.clone().expect("the full record");
    let full = Record::from_text(&text).unwrap();
    assert!(full.is_complete(), "the end publishes every opening");
    let rs = umpire::games::find(&full.opening().unwrap().ruleset).unwrap();
    let (g, _) = Game::replay(rs, &full, ReplayMode::Verify).unwrap();
    assert!(g.prompt().finished.is_some());
    full
}

#[test]
fn sarhu_concede_by_mail_ends_the_game_for_both_sides() {
    let mut c = club("sarhu", "historical", &["ming", "jurchen"], &[]);
    let mails = c.send(1, &["concede"]);
    let full = ended_for_all(&c, &mails, "jurchen concedes: ming wins");
    assert!(
        full.entries()
            .iter()
            .any(|e| matches!(&e.body, Body::Act(_)))
    );
    // A move after the end is answered, not recorded as a move.
    let mails = c.send(0, &["pass"]);
    assert!(
        mails
            .iter()
            .any(|m| flat(&m.text).contains("the game is over"))
    );
}

#[test]
fn ac_concede_by_mail_ends_the_game_for_both_sides() {
    let mut c = club("ac", "s1", &["british", "russian"], &[]);
    let mails = c.send(0, &["concede"]);
    ended_for_all(&c, &mails, "british concedes: russian wins");
}

#[test]
fn a_freeform_draw_in_a_game_with_secrets_publishes_every_opening() {
    let mut c = club("freeform", "open", &["red", "blue"], &[("secrets", "on")]);
    c.umpire.observe("g1", "watcher@club.test", false).unwrap();
    let mails = c.send(
        0,
        &[
            "hidden ambush at the ford",
            "roll secret 1d6 scouting",
            "end turn",
        ],
    );
    // The observer gets the public view: the move, not its hidden line.
    let seen: Vec<&Got> = mails
        .iter()
        .filter(|m| m.to.starts_with("watcher"))
        .collect();
    assert_eq!(seen.len(), 1, "{mails:#?}");
    assert!(!seen[0].all.contains("ambush"), "{}", seen[0].all);
    assert!(!seen[0].all.contains("scouting ="), "{}", seen[0].all);
    assert!(seen[0].record.is_none(), "an observer gets no record copy");
    assert!(
        !mails
            .iter()
            .filter(|m| m.to.starts_with("blue"))
            .any(|m| m.all.contains("ambush"))
    );
    // Red offers, blue accepts: both signed acts, in the record.
    let mails = c.send(0, &["offer draw"]);
    let to_blue = mails.iter().find(|m| m.to.starts_with("blue")).unwrap();
    assert!(
        flat(&to_blue.text).contains("red offers a draw"),
        "{}",
        to_blue.text
    );
    let mails = c.send(1, &["accept draw"]);
    let full = ended_for_all(&c, &mails, "drawn by agreement");
    assert!(
        full.to_text().contains("ambush at the ford"),
        "the hidden order is opened at the end"
    );
    // The observer is told of the end, still without the record.
    let seen: Vec<&Got> = mails
        .iter()
        .filter(|m| m.to.starts_with("watcher"))
        .collect();
    assert!(seen[0].subject.contains("game over"));
    assert!(seen[0].record.is_none());
}

#[test]
fn a_draw_offer_lapses_when_the_offerer_moves_again_by_mail() {
    let mut c = club("freeform", "open", &["red", "blue"], &[]);
    c.send(0, &["offer draw"]);
    c.send(0, &["advance", "end turn"]);
    let mails = c.send(1, &["accept draw"]);
    let a = mails.iter().find(|m| m.to.starts_with("blue")).unwrap();
    assert!(
        flat(&a.text).contains("no draw offer is open"),
        "{}",
        a.text
    );
    assert!(c.umpire.game("g1").unwrap().prompt().finished.is_none());
}

#[test]
fn a_paused_game_refuses_moves_with_the_reason_and_resumes() {
    let mut c = club("freeform", "open", &["red", "blue"], &[]);
    c.umpire.pause("g1", "club holiday", now()).unwrap();
    c.umpire.deliver(&mut c.outbox, now()).unwrap();
    let told = c.new_mails();
    assert_eq!(told.len(), 2, "every side is told: {told:#?}");
    assert!(told.iter().all(|m| flat(&m.text).contains("club holiday")));
    let len = c.record().len();
    let mails = c.send(0, &["advance", "end turn"]);
    assert_eq!(mails.len(), 1);
    assert!(
        flat(&mails[0].text).contains("is paused"),
        "{}",
        mails[0].text
    );
    assert_eq!(c.record().len(), len, "nothing recorded");
    c.umpire.resume("g1", now()).unwrap();
    c.umpire.deliver(&mut c.outbox, now()).unwrap();
    assert_eq!(c.new_mails().len(), 2);
    c.send(0, &["advance", "end turn"]);
    assert!(c.record().len() > len);
    // Extending blue's deadline tells blue.
    c.umpire.extend("g1", Some("blue"), 24, now()).unwrap();
    c.umpire.deliver(&mut c.outbox, now()).unwrap();
    let m = c.new_mails();
    assert_eq!(m.len(), 1);
    assert!(m[0].to.starts_with("blue"));
    assert!(flat(&m[0].text).contains("24 more hours"), "{}", m[0].text);
}

#[test]
fn a_new_key_and_address_are_told_to_every_side_and_verify() {
    let mut c = club("sarhu", "historical", &["ming", "jurchen"], &[]);
    let new = key(9);
    c.umpire
        .admin_act(
            "g1",
            AdminAct::Key {
                side: "ming".into(),
                key: new.public().to_openssh(),
            },
            "lost laptop",
            now(),
        )
        .unwrap();
    c.umpire.deliver(&mut c.outbox, now()).unwrap();
    let told = c.new_mails();
    assert_eq!(told.len(), 2, "{told:#?}");
    assert!(
        told.iter()
            .all(|m| flat(&m.text).contains("replaced ming's key"))
    );
    // The old key's moves are refused; the new key's count.
    let mails = c.send(0, &["pass"]);
    assert!(
        mails
            .iter()
            .any(|m| flat(&m.text).contains("not ming's key")),
        "{mails:#?}"
    );
    c.keys[0] = new;
    c.umpire
        .admin_act(
            "g1",
            AdminAct::Address {
                side: "jurchen".into(),
                email: "jurchen2@club.test".into(),
            },
            "",
            now(),
        )
        .unwrap();
    c.umpire.deliver(&mut c.outbox, now()).unwrap();
    let told = c.new_mails();
    let to: Vec<&str> = told.iter().map(|m| m.to.as_str()).collect();
    assert!(to.iter().any(|t| t.starts_with("jurchen2@")), "{to:?}");
    assert!(
        to.iter().any(|t| t.starts_with("jurchen@")),
        "the old address is told: {to:?}"
    );
    // The admin ends the game: the full record goes to every side and verifies.
    c.umpire
        .admin_act(
            "g1",
            AdminAct::End(Ending {
                winners: vec!["ming".into()],
                summary: "ming wins: jurchen left the club".into(),
            }),
            "",
            now(),
        )
        .unwrap();
    c.umpire.deliver(&mut c.outbox, now()).unwrap();
    let mails = c.new_mails();
    ended_for_all(&c, &mails, "jurchen left the club");
}

#[test]
fn away_and_time_zone_in_one_request_survive_an_import() {
    let mut c = club("freeform", "open", &["red", "blue"], &[]);
    let text =
        "game: g1\nside: blue\ntimezone: Europe/Berlin\naway: until 2026-12-24\ncommand: status\n";
    let mails = c.send_text(1, text);
    assert_eq!(mails.len(), 3, "{mails:#?}");
    let status = mails.iter().find(|m| m.subject.contains("status")).unwrap();
    assert!(
        status.text.contains("CET"),
        "the status shows Berlin time: {}",
        status.text
    );
    let meta = c.umpire.meta("g1").unwrap();
    assert_eq!(meta.time_zones["blue"], "Europe/Berlin");
    assert_eq!(meta.away["blue"], "2026-12-24");
    // The record keeps them: a new umpire importing it knows them too.
    let record = c.umpire.game("g1").unwrap().record().clone();
    let (g, _) = Game::replay(
        umpire::games::find("freeform").unwrap(),
        &record,
        ReplayMode::Verify,
    )
    .unwrap();
    assert!(g.prompt().finished.is_none());
    let other = tempfile::tempdir().unwrap();
    Umpire::init(other.path(), "umpire@other.test").unwrap();
    let mut u2 = Umpire::open(other.path()).unwrap();
    u2.import(&record, now()).unwrap();
    let meta = u2.meta("g1").unwrap();
    assert_eq!(meta.time_zones["blue"], "Europe/Berlin");
    assert_eq!(meta.away["blue"], "2026-12-24");
}
