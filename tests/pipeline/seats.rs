//! Seats taken by mail, through the Maildir pipeline: a game created with
//! open seats waits (no clock, moves refused unrecorded) until players mail
//! signed joins and take every seat, held for the admin or first come; every
//! join is judged once and answered; a join never changes the game.

use umpire_testkit as common;

use common::{key, move_mail};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use umpire::core::act::{AdminAct, Ending};
use umpire::core::game::{Game, ReplayMode};
use umpire::core::record::{Body, Record};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;

/// A club with one game `g1` with open seats.
struct Club {
    tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    ruleset: String,
    n: u64,
    now: jiff::Timestamp,
}

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

/// `sides`: (name, Some(key number)) seated at `name@club.test`, or open.
fn club(
    ruleset: &str,
    scenario: &str,
    sides: &[(&str, Option<u8>)],
    options: &[(&str, &str)],
) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let mut umpire = Umpire::open(tmp.path()).unwrap();
    let declared = sides
        .iter()
        .map(|(n, k)| match k {
            Some(k) => (
                n.to_string(),
                format!("{n}@club.test"),
                key(*k).public_line(),
            ),
            None => (n.to_string(), String::new(), String::new()),
        })
        .collect();
    umpire
        .create_game(
            NewGame {
                id: "g1".into(),
                ruleset: ruleset.into(),
                scenario: scenario.into(),
                options: options
                    .iter()
                    .map(|(a, b)| (a.to_string(), b.to_string()))
                    .collect(),
                deadlines: None,
                time_zones: BTreeMap::new(),
                sides: declared,
            },
            now(),
        )
        .unwrap();
    let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let mut outbox = FileOutbox::open(&tmp.path().join("outbox")).unwrap();
    umpire.deliver(&mut outbox, now()).unwrap();
    Club {
        tmp,
        umpire,
        maildir,
        outbox,
        ruleset: ruleset.into(),
        n: 0,
        now: now(),
    }
}

/// A mail the umpire sent: to whom, its subject and text.
struct Sent {
    to: String,
    subject: String,
    text: String,
}

/// A signed join: its text and signature.
#[derive(Clone)]
struct Signed {
    text: String,
    sig: String,
}

/// A join for `game`'s `side`, naming and signed by key `k`.
fn join(game: &str, side: &str, k: u8, name: &str) -> Signed {
    let text = format!(
        "game: {game}\nside: {side}\njoin: {}\nname: {name}\n",
        key(k).public_line()
    );
    let sig = key(k).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    Signed { text, sig }
}

impl Club {
    fn outdir(&self) -> PathBuf {
        self.tmp.path().join("outbox")
    }

    fn game(&mut self) -> &Game {
        self.umpire.game("g1").unwrap()
    }

    fn len(&mut self) -> usize {
        self.game().record().len()
    }

    /// Mails `s` from `from` as a new mail, polls and delivers; returns the
    /// mails sent by the poll.
    fn send(&mut self, from: &str, s: &Signed) -> Vec<Sent> {
        let before = self.sent();
        self.n += 1;
        let raw = move_mail(from, "umpire@club.test", self.n, &s.text, &s.sig, false);
        self.maildir
            .deliver(&format!("{:05}.mail", self.n), &raw)
            .unwrap();
        self.umpire.poll(&mut self.maildir, self.now).unwrap();
        self.umpire.deliver(&mut self.outbox, self.now).unwrap();
        self.since(&before)
    }

    fn sent(&self) -> BTreeSet<String> {
        std::fs::read_dir(self.outdir())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".eml"))
            .collect()
    }

    fn since(&self, before: &BTreeSet<String>) -> Vec<Sent> {
        self.sent()
            .difference(before)
            .map(|n| {
                let raw = std::fs::read(self.outdir().join(n)).unwrap();
                let head = String::from_utf8_lossy(&raw);
                let to = head
                    .lines()
                    .find_map(|l| l.strip_prefix("To: "))
                    .unwrap_or_default()
                    .to_string();
                let m = umpire::mail::mime::read(&raw).unwrap();
                Sent {
                    to,
                    subject: m.subject,
                    text: m.text,
                }
            })
            .collect()
    }

    /// Runs an admin step and delivers its mails; returns them.
    fn admin<T>(&mut self, f: impl FnOnce(&mut Umpire, jiff::Timestamp) -> T) -> (T, Vec<Sent>) {
        let before = self.sent();
        let t = f(&mut self.umpire, self.now);
        self.umpire.deliver(&mut self.outbox, self.now).unwrap();
        (t, self.since(&before))
    }

    /// A legal move of the side awaited first, signed with key `k`.
    fn legal_move(&mut self, k: u8) -> (String, Signed) {
        let g = self.game();
        let side = g.prompt().awaiting[0].side;
        let name = g.sides()[side.index()].name.clone();
        let legal = g.ruleset().legal_moves(g.state(), side);
        let mut text = format!(
            "game: g1\nside: {name}\nafter: {}\norders:\n",
            g.record().head()
        );
        for l in legal[0].lines() {
            text.push_str(&format!("  {l}\n"));
        }
        let sig = key(k).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
        (name, Signed { text, sig })
    }

    fn verifies(&mut self) -> Record {
        let text = self.umpire.export("g1", None).unwrap();
        let rec = Record::from_text(&text).unwrap();
        let rs = umpire::games::find(&self.ruleset).unwrap();
        Game::replay(rs, &rec, ReplayMode::Verify).unwrap();
        umpire::core::audit::audit(&rec).unwrap();
        rec
    }

    fn waiting(&self) -> usize {
        self.umpire.meta("g1").unwrap().waiting.len()
    }

    fn held(&self) -> usize {
        self.umpire.meta("g1").unwrap().joins.len()
    }
}

/// The one mail to `to` among `mails`, its subject and text.
fn to<'a>(mails: &'a [Sent], addr: &str) -> Vec<&'a Sent> {
    mails.iter().filter(|m| m.to.contains(addr)).collect()
}

fn one_to<'a>(mails: &'a [Sent], addr: &str) -> &'a Sent {
    let m = to(mails, addr);
    assert_eq!(
        m.len(),
        1,
        "one mail to {addr}: {:?}",
        mails
            .iter()
            .map(|m| (&m.to, &m.subject))
            .collect::<Vec<_>>()
    );
    m[0]
}

#[test]
fn a_sarhu_seat_held_approved_then_both_sides_play_and_the_record_verifies() {
    let mut c = club(
        "sarhu",
        "historical",
        &[("ming", Some(1)), ("jurchen", None)],
        &[],
    );
    assert_eq!(c.waiting(), 0, "no clock runs while a seat is open");
    assert!(c.game().sides()[1].is_open());
    let len = c.len();
    // A seated side's move waits for the seats: refused, not recorded.
    let (name, mv) = c.legal_move(1);
    let out = if name == "ming" {
        let out = c.send("ming@club.test", &mv);
        let m = one_to(&out, "ming@club.test");
        assert!(m.subject.contains("waiting for seats"), "{}", m.subject);
        assert!(m.text.contains("jurchen"), "{}", m.text);
        out
    } else {
        Vec::new()
    };
    drop(out);
    assert_eq!(c.len(), len);

    // Alice's join is held for the admin, and she is told.
    let j = join("g1", "jurchen", 9, "Alice");
    let out = c.send("alice@home.test", &j);
    let m = one_to(&out, "alice@home.test");
    assert!(m.subject.contains("join held"), "{}", m.subject);
    assert_eq!(c.held(), 1);
    assert_eq!(c.len(), len, "a held join changes no game");
    // The same join again: judged once.
    let out = c.send("mallory@evil.test", &j);
    let m = one_to(&out, "mallory@evil.test");
    assert!(
        m.subject.contains("judged before"),
        "{} {}",
        m.subject,
        m.text
    );
    assert_eq!(c.held(), 1);
    assert_eq!(c.len(), len);

    // The admin approves: the seat entry; both sides told; the clock starts.
    let (seq, out) = c.admin(|u, now| u.approve_join("g1", "jurchen", None, "", now).unwrap());
    assert!(
        one_to(&out, "alice@home.test")
            .text
            .contains("Alice takes the seat of jurchen")
    );
    one_to(&out, "ming@club.test");
    assert_eq!(c.held(), 0);
    assert!(c.waiting() > 0, "the game has begun");
    assert!(matches!(
        &c.game().record().entries()[seq as usize].body,
        Body::Admin(a) if matches!(&a.act, umpire::core::act::AdminAct::Seat(s) if s.email == "alice@home.test")
    ));
    // The join re-mailed after the seating: a copy, nothing grows.
    let len = c.len();
    let out = c.send("alice@home.test", &j);
    assert!(
        one_to(&out, "alice@home.test")
            .text
            .contains(&format!("entry {seq}"))
    );
    assert_eq!(c.len(), len);

    // Both sides play a move, each with its own key.
    for _ in 0..2 {
        let (name, _) = c.legal_move(1);
        let k = if name == "ming" { 1 } else { 9 };
        let addr = if name == "ming" {
            "ming@club.test"
        } else {
            "alice@home.test"
        };
        let (_, mv) = c.legal_move(k);
        let before = c.len();
        c.send(addr, &mv);
        assert!(c.len() > before, "{name}'s move recorded");
    }
    let rec = c.verifies();
    assert!(rec.to_text().contains(&key(9).public_line()[..40]));
    // A move signed by the key the seat had before (none) or another: refused.
    let (name, mv) = c.legal_move(8);
    let addr = format!("{name}@club.test");
    let before = c.len();
    c.send(&addr, &mv);
    assert!(c.len() <= before + 1);
}

#[test]
fn with_seats_first_the_first_valid_join_takes_the_seat() {
    let mut c = club(
        "sarhu",
        "historical",
        &[("ming", None), ("jurchen", Some(2))],
        &[("seats", "first")],
    );
    let out = c.send("bob@home.test", &join("g1", "any", 7, "Bob"));
    let m = one_to(&out, "bob@home.test");
    assert!(m.text.contains("Bob takes the seat of ming"), "{}", m.text);
    assert!(m.text.contains("Every seat is taken"), "{}", m.text);
    assert!(!c.game().sides()[0].is_open());
    assert!(c.waiting() > 0);
    // The next joiner finds no seat.
    let out = c.send("carol@home.test", &join("g1", "any", 6, "Carol"));
    assert!(
        one_to(&out, "carol@home.test")
            .text
            .contains("no open seat")
    );
    c.verifies();
}

#[test]
fn a_four_side_adp_game_with_two_open_seats_fills_and_refuses_every_bad_join() {
    let mut c = club(
        "adp",
        "standin",
        &[
            ("coalition", Some(1)),
            ("government", None),
            ("taliban", Some(3)),
            ("warlords", None),
        ],
        &[],
    );
    let len = c.len();
    let refused = |c: &mut Club, from: &str, s: &Signed, says: &str| {
        let out = c.send(from, s);
        let m = one_to(&out, from);
        assert!(m.text.contains(says), "{says:?} in {}", m.text);
    };
    // Unknown game, misspelt side, a seated side, a key already seated.
    refused(
        &mut c,
        "x1@home.test",
        &join("g2", "warlords", 9, "X"),
        "no game",
    );
    refused(
        &mut c,
        "x2@home.test",
        &join("g1", "warlord", 9, "X"),
        "Did you mean warlords?",
    );
    refused(
        &mut c,
        "x3@home.test",
        &join("g1", "taliban", 9, "X"),
        "taken already",
    );
    refused(
        &mut c,
        "x4@home.test",
        &join("g1", "warlords", 1, "X"),
        "plays coalition",
    );
    // A signature by another key than the file names.
    let mut forged = join("g1", "warlords", 9, "X");
    forged.sig = key(8).sign(MOVE_NAMESPACE, forged.text.as_bytes()).unwrap();
    refused(&mut c, "x5@home.test", &forged, "signature does not hold");
    // A join that does not read names its line.
    let bad = Signed {
        text: "game: g1\nside: warlords\njoin: ssh-rsa AAAA\n".into(),
        sig: key(9)
            .sign(
                MOVE_NAMESPACE,
                b"game: g1\nside: warlords\njoin: ssh-rsa AAAA\n",
            )
            .unwrap(),
    };
    refused(&mut c, "x6@home.test", &bad, "line 3");
    assert_eq!(c.held(), 0);
    assert_eq!(c.len(), len, "no refused join grows the record");

    // Two joins for the warlords' seat and one for any seat are held.
    c.send("dan@home.test", &join("g1", "warlords", 5, "Dan"));
    c.send("eve@home.test", &join("g1", "warlords", 6, "Eve"));
    c.send("fay@home.test", &join("g1", "any", 7, "Fay"));
    // One key, one held join.
    refused(
        &mut c,
        "dan@home.test",
        &join("g1", "government", 5, "Dan"),
        "waits for the admin",
    );
    assert_eq!(c.held(), 3);
    // Two wait for the warlords: the admin must name one.
    let err = c
        .umpire
        .approve_join("g1", "warlords", None, "", c.now)
        .unwrap_err();
    assert!(err.to_string().contains("--join"), "{err}");
    let dan = c.umpire.meta("g1").unwrap().joins[0].id.clone();
    let (_, out) = c.admin(|u, now| {
        u.approve_join("g1", "warlords", Some(&dan), "", now)
            .unwrap()
    });
    // Eve's held join for the taken seat is answered and dropped.
    assert!(
        one_to(&out, "eve@home.test")
            .text
            .contains("taken by another player")
    );
    assert_eq!(c.waiting(), 0, "one seat still open");
    // The admin refuses nobody yet; Fay (any) takes the government's seat.
    let (_, out) = c.admin(|u, now| {
        u.approve_join("g1", "government", None, "welcome", now)
            .unwrap()
    });
    assert!(
        one_to(&out, "fay@home.test")
            .text
            .contains("Every seat is taken")
    );
    assert_eq!(c.held(), 0);
    assert!(c.waiting() > 0);
    // The game is full: a join now is refused.
    refused(
        &mut c,
        "gil@home.test",
        &join("g1", "any", 4, "Gil"),
        "no open seat",
    );
    c.verifies();
}

#[test]
fn the_admin_refuses_a_join_and_a_copy_of_it_is_refused_again() {
    let mut c = club(
        "sarhu",
        "historical",
        &[("ming", Some(1)), ("jurchen", None)],
        &[],
    );
    let j = join("g1", "jurchen", 9, "Alice");
    c.send("alice@home.test", &j);
    let (_, out) = c.admin(|u, now| {
        u.refuse_join("g1", "jurchen", None, "members only", now)
            .unwrap()
    });
    assert!(
        one_to(&out, "alice@home.test")
            .text
            .contains("members only")
    );
    assert_eq!(c.held(), 0);
    let out = c.send("alice@home.test", &j);
    let m = one_to(&out, "alice@home.test");
    assert!(
        m.text.contains("judged before") && m.text.contains("members only"),
        "{}",
        m.text
    );
    assert_eq!(c.held(), 0);
    assert!(c.game().sides()[1].is_open());
}

#[test]
fn a_strangers_joins_are_answered_a_few_times_a_day() {
    let mut c = club(
        "sarhu",
        "historical",
        &[("ming", Some(1)), ("jurchen", None)],
        &[],
    );
    let mut answered = 0;
    for k in 20..40u8 {
        let out = c.send("spam@evil.test", &join("g1", "jurchan", k, "S"));
        answered += to(&out, "spam@evil.test").len();
    }
    assert_eq!(answered, umpire::service::seats::JOINS_PER_DAY as usize);
    assert_eq!(c.held(), 0);
}

#[test]
fn compact_forgets_what_strangers_joins_left_once_it_cannot_matter() {
    let mut c = club(
        "sarhu",
        "historical",
        &[("ming", Some(1)), ("jurchen", None)],
        &[],
    );
    let spam: Vec<Signed> = (20..30u8).map(|k| join("g1", "jurchan", k, "S")).collect();
    for (i, j) in spam.iter().enumerate() {
        c.send(&format!("spam{i}@evil.test"), j);
    }
    // The next day: the ten addresses' counts of answers are of a past day;
    // the refused joins still matter while the game goes on.
    let later = now() + jiff::SignedDuration::from_hours(24);
    let done = c.umpire.compact(30, later).unwrap();
    assert_eq!(done.swept, 10, "{done:?}");
    c.now = later;
    let out = c.send("spam0@evil.test", &spam[0]);
    assert!(
        one_to(&out, "spam0@evil.test")
            .text
            .contains("judged before")
    );
    // Over: a join to it is refused whatever it says, so what is kept of
    // refused joins goes (and the one count of today stays).
    c.umpire
        .admin_act(
            "g1",
            AdminAct::End(Ending {
                winners: vec![],
                summary: "abandoned".into(),
            }),
            "club closed",
            later,
        )
        .unwrap();
    let done = c.umpire.compact(30, later).unwrap();
    assert_eq!(done.swept, 10, "{done:?}");
    assert_eq!(c.umpire.compact(30, later).unwrap().swept, 0);
    let out = c.send("spam1@evil.test", &spam[1]);
    assert!(one_to(&out, "spam1@evil.test").text.contains("is over"));
}

#[test]
fn a_public_game_with_open_seats_is_listed_on_the_site_with_its_join_template() {
    let mut c = club(
        "sarhu",
        "historical",
        &[("ming", Some(1)), ("jurchen", None)],
        &[],
    );
    c.umpire.set_public("g1", true).unwrap();
    let out = c.tmp.path().join("site");
    c.umpire.write_site(&out, c.now).unwrap();
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("Open seats"), "{index}");
    assert!(index.contains("jurchen"), "{index}");
    assert!(
        index.contains("side: jurchen"),
        "the join template: {index}"
    );
    assert!(index.contains("join: ssh-ed25519"), "{index}");
}
