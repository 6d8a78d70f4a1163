//! Press through the Maildir pipeline: a signed `press to:` section is
//! relayed to exactly its addressees, kept in the record (a broadcast in the
//! clear, a private message sealed from every other side until the end),
//! refused where the game's options say so, bounded by the day's cap, judged
//! once whoever mails it again, and never an order: the game is the same
//! with or without it.

use umpire_testkit as common;

use common::{declared, key, move_mail, outbox};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use umpire::core::act::{AdminAct, Ending};
use umpire::core::game::{Game, PressVerdict, ReplayMode, Verdict};
use umpire::core::press::PressMode;
use umpire::core::record::{Body, Record};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::mime::ReadMail;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;

/// One club with one game, `g1`, a Maildir and a file outbox.
struct Club {
    tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    sides: Vec<String>,
    n: u64,
    now: jiff::Timestamp,
}

fn day(n: u32) -> jiff::Timestamp {
    format!("2026-12-{n:02}T12:00:00Z").parse().unwrap()
}

fn club(ruleset: &str, scenario: &str, sides: &[&str], options: &[(&str, &str)]) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let mut umpire = Umpire::open(tmp.path()).unwrap();
    let new = NewGame {
        id: "g1".into(),
        ruleset: ruleset.into(),
        scenario: scenario.into(),
        options: options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        deadlines: None,
        time_zones: BTreeMap::new(),
        sides: declared(sides),
    };
    umpire.create_game(new, day(1)).unwrap();
    let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let mut outbox = FileOutbox::open(&tmp.path().join("outbox")).unwrap();
    umpire.deliver(&mut outbox, day(1)).unwrap();
    Club {
        tmp,
        umpire,
        maildir,
        outbox,
        sides: sides.iter().map(|s| s.to_string()).collect(),
        n: 0,
        now: day(1),
    }
}

/// A mail the umpire sent: its `To:` header and the mail.
#[derive(Debug)]
struct Sent {
    to: String,
    mail: ReadMail,
}

/// A signed file as mailed.
#[derive(Clone)]
struct Signed {
    text: String,
    sig: String,
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

    /// `side`'s file `game: g1`, `side:`, then `body`, signed with its key.
    fn sign(&self, side: &str, body: &str) -> Signed {
        let text = format!("game: g1\nside: {side}\n{body}");
        let i = self.sides.iter().position(|s| s == side).unwrap() as u8 + 1;
        let sig = key(i).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
        Signed { text, sig }
    }

    /// Mails `s` from `from` and polls; returns the mails sent, by file name.
    fn send_from(&mut self, from: &str, s: &Signed) -> BTreeMap<String, Sent> {
        let before: BTreeSet<String> = outbox(&self.outdir()).into_keys().collect();
        self.n += 1;
        let raw = move_mail(from, "umpire@club.test", self.n, &s.text, &s.sig, false);
        self.maildir
            .deliver(&format!("{:05}.mail", self.n), &raw)
            .unwrap();
        self.umpire.poll(&mut self.maildir, self.now).unwrap();
        self.umpire.deliver(&mut self.outbox, self.now).unwrap();
        let dir = self.outdir();
        outbox(&dir)
            .into_iter()
            .filter(|(k, _)| !before.contains(k))
            .map(|(k, mail)| {
                let raw = std::fs::read_to_string(dir.join(&k)).unwrap();
                let to = raw
                    .lines()
                    .find_map(|l| l.strip_prefix("To: "))
                    .unwrap_or_default()
                    .trim()
                    .to_string();
                (k, Sent { to, mail })
            })
            .collect()
    }

    fn send(&mut self, side: &str, s: &Signed) -> BTreeMap<String, Sent> {
        self.send_from(&format!("{side}@club.test"), s)
    }

    /// The full record verifies (as `umpire verify` replays it), and so
    /// does every side's copy, with the binary.
    fn verifies(&mut self) -> Record {
        let text = self.umpire.export("g1", None).unwrap();
        let rec = Record::from_text(&text).unwrap();
        let rs = self.game().ruleset().clone();
        Game::replay(rs, &rec, ReplayMode::Verify).unwrap();
        verify(&self.tmp.path().join("full.txt"), &text);
        for side in self.sides.clone() {
            let copy = self.umpire.export("g1", Some(&side)).unwrap();
            verify(&self.tmp.path().join(format!("{side}.txt")), &copy);
        }
        rec
    }
}

/// `umpire verify` of `text` written to `path`.
fn verify(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("verify")
        .arg(path)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The addresses each mail went to, with its subject.
fn addressed(mails: &BTreeMap<String, Sent>) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = mails
        .values()
        .map(|m| (m.to.clone(), m.mail.subject.clone()))
        .collect();
    v.sort();
    v
}

fn bodies(mails: &BTreeMap<String, Sent>) -> String {
    mails.values().map(|m| m.mail.text.clone()).collect()
}

#[test]
fn a_broadcast_reaches_the_other_side_and_a_copy_of_it_does_nothing() {
    // Strike on Sarhu: public press by default.
    let mut c = club("sarhu", "historical", &["ming", "jurchen"], &[]);
    // The opening mail says what press the game allows.
    let opening = outbox(&c.outdir());
    assert!(
        opening.values().all(|m| m
            .text
            .contains("Press: public press: messages to all sides")),
        "{opening:#?}"
    );
    let len = c.len();
    let s = c.sign("ming", "press to: all\n  Your scouts are late, Nurhaci.\n");
    let mails = c.send("ming", &s);
    assert_eq!(
        addressed(&mails),
        vec![
            ("jurchen@club.test".into(), "[g1] press from ming".into()),
            ("ming@club.test".into(), "[g1] press relayed".into()),
        ],
        "{mails:#?}"
    );
    let to_jurchen = &mails
        .values()
        .find(|m| m.to.contains("jurchen"))
        .unwrap()
        .mail;
    assert!(
        to_jurchen
            .text
            .contains("From the ming side (signature checked), to all sides")
    );
    assert!(to_jurchen.text.contains("Your scouts are late, Nurhaci."));
    assert_eq!(c.len(), len + 1);
    // Mailed again, by the other side: nothing relayed, nothing recorded.
    let again = c.send("jurchen", &s);
    assert!(
        again.values().all(|m| !m.to.contains("jurchen")),
        "{again:#?}"
    );
    assert!(!bodies(&again).contains("From the ming side"), "{again:#?}");
    assert_eq!(c.len(), len + 1);
    // A private message in a game of public press is refused, not kept.
    let p = c.sign("jurchen", "press to: ming\n  Parley?\n");
    let refused = c.send("jurchen", &p);
    assert_eq!(
        addressed(&refused),
        vec![("jurchen@club.test".into(), "[g1] press refused".into())]
    );
    assert!(bodies(&refused).contains("its press option is `public`"));
    assert_eq!(c.len(), len + 1);
    let rec = c.verifies();
    let Body::Press(e) = &rec.entries()[len].body else {
        panic!("a press entry");
    };
    assert!(e.public.is_some(), "a broadcast is public");
}

#[test]
fn a_mistyped_recipient_gets_did_you_mean() {
    let mut c = club("ldf", "campaign", &["roman", "gp"], &[("press", "private")]);
    let s = c.sign("gp", "press to: romna\n  Terms?\n");
    let mails = c.send("gp", &s);
    let text = bodies(&mails);
    assert!(text.contains("no side \"romna\""), "{text}");
    assert!(text.contains("did you mean roman?"), "{text}");
}

#[test]
fn orders_and_a_broadcast_in_one_file_are_judged_each_on_its_own() {
    let mut c = club("sarhu", "historical", &["ming", "jurchen"], &[]);
    let head = c.game().record().head().to_hex();
    let who = c.game().prompt().awaiting.first().map(|a| a.side).unwrap();
    let name = c.game().sides()[who.index()].name.clone();
    let other = c.sides.iter().find(|s| **s != name).unwrap().clone();
    let legal = {
        let g = c.game();
        g.ruleset()
            .legal_moves(g.state(), who)
            .into_iter()
            .next()
            .unwrap()
    };
    let mut body = format!("after: {head}\norders:\n");
    for l in legal.lines() {
        body.push_str(&format!("  {l}\n"));
    }
    body.push_str("press to: all\n  For the Emperor.\n");
    let s = c.sign(&name, &body);
    let len = c.len();
    let mails = c.send(&name, &s);
    let kinds: Vec<&str> = c.game().record().entries()[len..]
        .iter()
        .map(|e| e.body.kind())
        .collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == "press").count(),
        1,
        "{kinds:?}"
    );
    assert_eq!(
        kinds.iter().filter(|k| **k == "move").count(),
        1,
        "{kinds:?}"
    );
    assert!(
        mails
            .values()
            .any(|m| m.to.contains(other.as_str()) && m.mail.text.contains("For the Emperor.")),
        "{mails:#?}"
    );
    // A private message with orders is refused whole, and nothing of it kept.
    let mut c = club(
        "sarhu",
        "historical",
        &["ming", "jurchen"],
        &[("press", "private")],
    );
    let s = c.sign(
        &name,
        &format!("{body}press to: {other}\n  secret\n")
            .replace("press to: all\n  For the Emperor.\n", ""),
    );
    let len = c.len();
    let mails = c.send(&name, &s);
    assert_eq!(c.len(), len, "nothing recorded");
    assert!(bodies(&mails).contains("a private message goes in a file of its own"));
    assert!(!bodies(&mails).contains("secret\n    "), "{mails:#?}");
}

#[test]
fn press_none_refuses_and_the_days_cap_holds() {
    let mut c = club(
        "sarhu",
        "historical",
        &["ming", "jurchen"],
        &[("press", "none")],
    );
    let len = c.len();
    let mails = c.send("ming", &c.sign("ming", "press to: all\n  hello\n"));
    assert!(
        bodies(&mails).contains("this game relays no press"),
        "{mails:#?}"
    );
    assert_eq!(c.len(), len);

    let opts = [("press", "public"), ("press_per_day", "2")];
    let mut c = club("sarhu", "historical", &["ming", "jurchen"], &opts);
    let len = c.len();
    for i in 0..2 {
        let m = c.send(
            "ming",
            &c.sign("ming", &format!("press to: all\n  note {i}\n")),
        );
        assert!(bodies(&m).contains(&format!("note {i}")));
    }
    let third = c.sign("ming", "press to: all\n  note 2\n");
    let m = c.send("ming", &third);
    assert!(bodies(&m).contains("has sent 2 messages today"), "{m:#?}");
    assert_eq!(c.len(), len + 2);
    // A refused file is judged once: mailed again tomorrow, it relays nothing.
    c.now = day(2);
    let m = c.send("ming", &third);
    assert!(!bodies(&m).contains("From the ming side"), "{m:#?}");
    assert_eq!(c.len(), len + 2);
    // A new file tomorrow goes through.
    let m = c.send("ming", &c.sign("ming", "press to: all\n  note 3\n"));
    assert!(bodies(&m).contains("From the ming side"), "{m:#?}");
    // Bytes are capped too.
    let opts = [("press", "public"), ("press_bytes_per_day", "10")];
    let mut c = club("sarhu", "historical", &["ming", "jurchen"], &opts);
    let m = c.send(
        "ming",
        &c.sign("ming", "press to: all\n  a long message indeed\n"),
    );
    assert!(bodies(&m).contains("cap is 10 bytes"), "{m:#?}");
}

const ADP: [&str; 4] = ["coalition", "government", "taliban", "warlords"];

#[test]
fn adp_private_press_reaches_exactly_its_addressees_and_opens_at_the_end() {
    // A Distant Plain: private press by default.
    let mut c = club("adp", "standin", &ADP, &[]);
    let len = c.len();
    let secret = "Meet me in Kandahar; leave the Taliban out.";
    let s = c.sign(
        "coalition",
        &format!("press to: government, warlords\n  {secret}\n"),
    );
    let mails = c.send("coalition", &s);
    assert_eq!(
        addressed(&mails),
        vec![
            ("coalition@club.test".into(), "[g1] press relayed".into()),
            (
                "government@club.test".into(),
                "[g1] press from coalition".into()
            ),
            (
                "warlords@club.test".into(),
                "[g1] press from coalition".into()
            ),
        ]
    );
    for m in mails.values() {
        assert!(!m.to.contains(','), "one address a mail: {}", m.to);
        assert!(m.mail.text.contains(secret));
    }
    // A broadcast reaches the other three.
    let b = c.sign("taliban", "press to: all\n  Leave.\n");
    let mails = c.send("taliban", &b);
    assert_eq!(mails.len(), 4);
    // The copies: the parties read the message, the Taliban only that an
    // entry exists.
    for side in ADP {
        let copy = c.umpire.export("g1", Some(side)).unwrap();
        assert_eq!(copy.contains(secret), side != "taliban", "{side}");
        if side == "taliban" {
            assert!(
                !copy.contains("[\"government\",\"warlords\"]"),
                "recipients are sealed"
            );
            assert!(
                !copy.contains("\"from\":\"coalition\""),
                "the sender is sealed"
            );
        }
    }
    let public = c.umpire.export("g1", Some("taliban")).unwrap();
    assert!(public.contains("Leave."), "a broadcast is public");
    // A re-mailed private press: nothing relayed, nothing recorded.
    let again = c.send("taliban", &s);
    assert!(!bodies(&again).contains(secret));
    assert_eq!(c.len(), len + 2);
    c.verifies();
    // At the end every item opens: the Taliban's copy is the full record.
    c.umpire
        .admin_act(
            "g1",
            AdminAct::End(Ending {
                winners: vec![],
                summary: "stopped".into(),
            }),
            "test",
            c.now,
        )
        .unwrap();
    let copy = c.umpire.export("g1", Some("taliban")).unwrap();
    assert!(copy.contains(secret));
    c.verifies();
    // Press after the end is refused.
    let late = c.sign("government", "press to: coalition\n  thanks\n");
    let m = c.send("government", &late);
    assert!(bodies(&m).contains("the game is over"), "{m:#?}");
}

#[test]
fn press_changes_nothing_in_the_game() {
    // The same move, with and without a private message before it (written
    // against the head before the message: press moves no anchor), makes
    // the same state and the same rolls.
    let run = |with_press: bool| {
        let mut t = common::table("adp", "standin", &ADP, &[]);
        let who = t.game.prompt().awaiting[0].side;
        let name = t.game.sides()[who.index()].name.clone();
        let legal = t
            .game
            .ruleset()
            .legal_moves(t.game.state(), who)
            .into_iter()
            .next()
            .unwrap();
        let orders: Vec<&str> = legal.lines().collect();
        let text = t.move_text(&name, &orders);
        let sig = t.sign(who.index(), &text);
        if with_press {
            let to = ADP.iter().find(|s| **s != name).unwrap();
            let p = format!("game: g1\nside: {name}\npress to: {to}\n  hello\n");
            let ps = t.sign(who.index(), &p);
            let PressVerdict::Ready(plan) =
                t.game.judge_press(p.as_bytes(), &ps, PressMode::Private)
            else {
                panic!("ready");
            };
            t.game
                .record_press(&plan, t.chain.salter.as_ref(), "2026-11-29T12:00:00Z")
                .unwrap();
        }
        let v = t
            .game
            .submit(text.as_bytes(), &sig, &t.chain, "2026-11-29T12:00:00Z");
        assert!(matches!(v, Verdict::Accepted { .. }), "{v:?}");
        let m = t
            .game
            .record()
            .entries()
            .iter()
            .rev()
            .find_map(|e| match &e.body {
                Body::Move(m) => Some(m.clone()),
                _ => None,
            })
            .expect("a move");

        (
            t.game.state().hash().unwrap(),
            m.rolls,
            t.game.prompt().clone(),
        )
    };
    let (s1, r1, p1) = run(false);
    let (s2, r2, p2) = run(true);
    assert_eq!(s1, s2);
    assert_eq!(r1, r2);
    assert_eq!(p1, p2);
}

#[test]
fn a_private_message_in_a_game_that_hides_nothing_is_sealed_and_verifies() {
    // Strike on Sarhu keeps nothing else secret (record format 1).
    let mut c = club(
        "sarhu",
        "historical",
        &["ming", "jurchen"],
        &[("press", "private")],
    );
    let len = c.len();
    let mails = c.send(
        "jurchen",
        &c.sign("jurchen", "press to: ming\n  A truce at dusk?\n"),
    );
    assert!(bodies(&mails).contains("A truce at dusk?"));
    let public = c.umpire.export("g1", None).unwrap();
    assert!(
        public.contains("A truce at dusk?"),
        "the umpire's full record"
    );
    let rec = c.verifies();
    let Body::Press(e) = &rec.entries()[len].body else {
        panic!("a press entry");
    };
    assert_eq!(e.sealed.len(), 2);
    assert!(e.sealed.iter().all(|h| !h.is_clear()));
    let mut copy = rec.clone().copy_for(None);
    let Body::Press(e) = &copy.entries()[len].body else {
        panic!("a press entry");
    };
    assert!(e.press().is_none(), "the public copy holds no message");
    copy = Record::from_text(&copy.to_text()).unwrap();
    assert!(!copy.to_text().contains("A truce at dusk?"));
}
