//! Every signed thing is judged once, through the Maildir pipeline: a copy of
//! a signed file (a move, a refusal, an act, a request), mailed again by
//! anyone at any time, neither acts nor grows anything; at most its first
//! answer goes again to its signer, a bounded number of times a day. A side
//! that has left the game has no say in what follows.

use umpire_testkit as common;

use common::{declared, key, move_mail};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use umpire::core::game::{Game, ReplayMode};
use umpire::core::record::Record;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;
use umpire::service::poll::PollReport;

/// A signed file as it was mailed: its text and signature.
#[derive(Clone)]
struct Signed {
    text: String,
    sig: String,
}

/// One club with one game, `g1`, a Maildir, a file outbox and a clock.
struct Club {
    tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    sides: Vec<String>,
    ruleset: String,
    n: u64,
    now: jiff::Timestamp,
}

fn day(n: u32) -> jiff::Timestamp {
    format!("2026-12-{n:02}T12:00:00Z").parse().unwrap()
}

fn club(ruleset: &str, scenario: &str, sides: &[&str]) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let mut umpire = Umpire::open(tmp.path()).unwrap();
    umpire
        .create_game(
            NewGame {
                id: "g1".into(),
                ruleset: ruleset.into(),
                scenario: scenario.into(),
                options: BTreeMap::new(),
                deadlines: None,
                time_zones: BTreeMap::new(),
                sides: declared(sides),
            },
            day(1),
        )
        .unwrap();
    let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let mut outbox = FileOutbox::open(&tmp.path().join("outbox")).unwrap();
    umpire.deliver(&mut outbox, day(1)).unwrap();
    Club {
        tmp,
        umpire,
        maildir,
        outbox,
        sides: sides.iter().map(|s| s.to_string()).collect(),
        ruleset: ruleset.into(),
        n: 0,
        now: day(1),
    }
}

impl Club {
    fn outdir(&self) -> PathBuf {
        self.tmp.path().join("outbox")
    }

    fn game(&mut self) -> &Game {
        self.umpire.game("g1").unwrap()
    }

    fn head(&mut self) -> String {
        self.game().record().head().to_hex()
    }

    fn len(&mut self) -> usize {
        self.game().record().len()
    }

    fn index(&self, side: &str) -> usize {
        self.sides.iter().position(|s| s == side).expect("a side")
    }

    /// A file of `side`, signed with its key: `after:` the head, then `body`.
    fn sign_raw(&mut self, side: &str, body: &str) -> Signed {
        let text = format!("game: g1\nside: {side}\n{body}");
        let i = self.index(side) as u8 + 1;
        let sig = key(i).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
        Signed { text, sig }
    }

    /// A move of `side` after the current head.
    fn sign(&mut self, side: &str, orders: &[&str]) -> Signed {
        let mut body = format!("after: {}\norders:\n", self.head());
        for o in orders {
            body.push_str(&format!("  {o}\n"));
        }
        self.sign_raw(side, &body)
    }

    /// Mails `s` from `from`, each time as a new mail (its own Message-ID).
    fn mail_from(&mut self, from: &str, s: &Signed) {
        self.n += 1;
        let raw = move_mail(from, "umpire@club.test", self.n, &s.text, &s.sig, false);
        self.maildir
            .deliver(&format!("{:05}.mail", self.n), &raw)
            .unwrap();
    }

    /// Mails `s` from its side's own address.
    fn mail(&mut self, side: &str, s: &Signed) {
        self.mail_from(&format!("{side}@club.test"), s);
    }

    fn poll(&mut self) -> PollReport {
        let r = self.umpire.poll(&mut self.maildir, self.now).unwrap();
        self.umpire.deliver(&mut self.outbox, self.now).unwrap();
        r
    }

    /// Mails `s` from its side and polls.
    fn send(&mut self, side: &str, s: &Signed) -> PollReport {
        self.mail(side, s);
        self.poll()
    }

    /// The names of the mails in the outbox.
    fn sent(&self) -> BTreeSet<String> {
        std::fs::read_dir(self.outdir())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".eml"))
            .collect()
    }

    /// The mails sent since `before`, decoded.
    fn since(&self, before: &BTreeSet<String>) -> Vec<umpire::mail::mime::ReadMail> {
        self.sent()
            .difference(before)
            .map(|n| {
                let raw = std::fs::read(self.outdir().join(n)).unwrap();
                umpire::mail::mime::read(&raw).unwrap()
            })
            .collect()
    }

    fn export(&mut self) -> String {
        self.umpire.export("g1", None).unwrap()
    }

    /// The stored record verifies, as a verifier would check it.
    fn verifies(&mut self) -> Record {
        let rec = Record::from_text(&self.export()).unwrap();
        let rs = umpire::games::find(&self.ruleset).unwrap();
        Game::replay(rs, &rec, ReplayMode::Verify).unwrap();
        rec
    }

    fn finished(&mut self) -> Option<String> {
        self.game()
            .prompt()
            .finished
            .as_ref()
            .map(|f| f.summary.clone())
    }

    /// The umpire of the same data directory opened afresh (no caches).
    fn reopen(self) -> Club {
        let Club {
            tmp,
            umpire,
            maildir,
            outbox,
            sides,
            ruleset,
            n,
            now,
        } = self;
        drop(umpire);
        let umpire = Umpire::open(tmp.path()).unwrap();
        Club {
            tmp,
            umpire,
            maildir,
            outbox,
            sides,
            ruleset,
            n,
            now,
        }
    }
}

/// Counts the kinds of the record's entries from `from` on.
fn kinds(rec: &Record, from: usize) -> Vec<&'static str> {
    rec.entries()[from..]
        .iter()
        .map(|e| e.body.kind())
        .collect()
}

// A side's `accept draw`, refused when no draw was offered, is kept whole in
// the record: anyone holding the record could once re-mail it after an offer
// and end the game drawn in that side's name.
#[test]
fn a_refused_accept_draw_remailed_after_an_offer_draws_nothing() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let early = c.sign("blue", &["accept draw"]);
    let r = c.send("blue", &early);
    assert_eq!(r.rejected, 1, "no draw is offered: {r:?}");
    let offer = c.sign("red", &["offer draw"]);
    assert_eq!(c.send("red", &offer).accepted, 1);
    assert!(c.game().draw_offer().is_some());
    let len = c.len();
    let before = c.sent();
    // Red re-mails blue's refused acceptance from the record.
    c.mail_from("red@club.test", &early);
    let r = c.poll();
    assert_eq!(
        r.accepted + r.rejected,
        0,
        "a copy is not judged again: {r:?}"
    );
    assert_eq!(r.duplicates, 1, "{r:?}");
    assert_eq!(c.finished(), None, "the game is not drawn");
    assert_eq!(c.len(), len, "nothing is recorded");
    // Its answer goes to blue alone: the refusal again.
    let mails = c.since(&before);
    assert_eq!(mails.len(), 1, "one answer");
    assert!(mails[0].text.contains("judged"), "{}", mails[0].text);
    assert!(
        mails[0].text.contains("no draw offer is open"),
        "{}",
        mails[0].text
    );
    // An acceptance blue signed before the offer, never mailed, is bound to
    // what it followed: refused, naming the offer.
    let opening = c.verifies().entries()[0].hash;
    let stale = c.sign_raw(
        "blue",
        &format!("after: {opening}\norders:\n  accept draw\n# signed before the offer\n"),
    );
    let r = c.send("blue", &stale);
    assert_eq!(r.rejected, 1, "{r:?}");
    assert_eq!(c.finished(), None);
    // Blue's own acceptance, written after the offer, draws the game.
    let yes = c.sign("blue", &["accept draw"]);
    assert_eq!(c.send("blue", &yes).accepted, 1);
    assert!(c.finished().unwrap().contains("drawn by agreement"));
    c.verifies();
}

// A refused `offer draw` and a refused `decline draw`, re-mailed later, once
// opened and declined offers in their signer's name.
#[test]
fn refused_offer_and_decline_draw_remailed_later_change_nothing() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let decline = c.sign("blue", &["decline draw"]);
    assert_eq!(c.send("blue", &decline).rejected, 1);
    let offer = c.sign("red", &["offer draw"]);
    assert_eq!(c.send("red", &offer).accepted, 1);
    // Blue's offer while red's is open: refused.
    let blue_offer = c.sign("blue", &["offer draw"]);
    assert_eq!(c.send("blue", &blue_offer).rejected, 1);
    let len = c.len();
    // The refused decline, re-mailed by anyone: red's offer stays open.
    c.mail_from("mallory@evil.test", &decline);
    let r = c.poll();
    assert_eq!((r.duplicates, r.accepted, r.rejected), (1, 0, 0), "{r:?}");
    assert!(c.game().draw_offer().is_some(), "the offer stands");
    assert_eq!(c.len(), len);
    // Red withdraws; blue's refused offer, re-mailed, opens nothing.
    let withdraw = c.sign("red", &["decline draw"]);
    assert_eq!(c.send("red", &withdraw).accepted, 1);
    let len = c.len();
    c.mail_from("mallory@evil.test", &blue_offer);
    let r = c.poll();
    assert_eq!((r.duplicates, r.accepted, r.rejected), (1, 0, 0), "{r:?}");
    assert!(c.game().draw_offer().is_none(), "no offer in blue's name");
    assert_eq!(c.len(), len);
    // Red's accepted offer, re-mailed after it was withdrawn, opens nothing.
    c.mail_from("mallory@evil.test", &offer);
    let r = c.poll();
    assert_eq!(r.duplicates, 1, "{r:?}");
    assert!(c.game().draw_offer().is_none());
    assert_eq!(c.len(), len);
    c.verifies();
}

// 100 copies of one refused signed move, mailed by an address with no key,
// once made 100 record entries and 100 refusal mails to the signer.
#[test]
fn a_hundred_copies_of_a_refused_move_add_nothing_and_mail_once() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    // Blue moves out of turn: refused, kept whole (blue signed it).
    let early = c.sign("blue", &["advance on the bridge", "end turn"]);
    assert_eq!(c.send("blue", &early).rejected, 1);
    let len = c.len();
    let record = c.export();
    let before = c.sent();
    for _ in 0..100 {
        c.mail_from("mallory@evil.test", &early);
    }
    let r = c.poll();
    assert_eq!(r.mails, 100, "{r:?}");
    assert_eq!(r.duplicates, 100, "every copy is a duplicate: {r:?}");
    assert_eq!(c.len(), len, "no new entry");
    assert_eq!(c.export(), record, "the record does not grow by a byte");
    let mails = c.since(&before);
    assert!(mails.len() <= 1, "{} mails for 100 copies", mails.len());
    assert!(
        mails.iter().all(|m| !m.text.is_empty()),
        "the refusal again, to the signer"
    );
    // The memory survives a restart, and the next day allows one more answer.
    let mut c = c.reopen();
    c.now = day(2);
    let before = c.sent();
    for _ in 0..20 {
        c.mail_from("mallory@evil.test", &early);
    }
    let r = c.poll();
    assert_eq!(r.duplicates, 20, "{r:?}");
    assert_eq!(c.len(), len);
    assert!(c.since(&before).len() <= 1);
    c.verifies();
}

// 50 copies of an accepted Strike on Sarhu move once gave its side 50
// "result sent again" mails, each with the map picture.
#[test]
fn fifty_copies_of_an_accepted_sarhu_move_send_a_bounded_number_of_mails() {
    let mut c = club("sarhu", "historical", &["ming", "jurchen"]);
    let g = c.game();
    let side = g.prompt().awaiting[0].side;
    let name = g.sides()[side.index()].name.clone();
    let pick = g.ruleset().legal_moves(g.state(), side)[0].clone();
    let lines: Vec<&str> = pick.lines().collect();
    let mv = c.sign(&name, &lines);
    assert_eq!(c.send(&name, &mv).accepted, 1, "{}", mv.text);
    let len = c.len();
    let before = c.sent();
    for _ in 0..50 {
        c.mail_from("mallory@evil.test", &mv);
    }
    let r = c.poll();
    assert_eq!(r.duplicates, 50, "{r:?}");
    assert_eq!(c.len(), len);
    let again = c.since(&before);
    assert!(
        again.len() <= 1,
        "{} mails for 50 copies of one accepted move",
        again.len()
    );
    // The next day, one more at most.
    c.now = day(2);
    let before = c.sent();
    for _ in 0..50 {
        c.mail_from("mallory@evil.test", &mv);
    }
    c.poll();
    assert!(c.since(&before).len() <= 1);
    assert_eq!(c.len(), len);
}

// A signed `away:` request was carried out again when replayed on a later day
// (a deadline moved, a record entry each time); a replayed `away: back` cut a
// deadline short.
#[test]
fn a_request_replayed_on_a_later_day_changes_nothing() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let away = c.sign_raw("red", "away: until 2026-12-24\n");
    let r = c.send("red", &away);
    assert_eq!(r.commands, 1, "{r:?}");
    let meta = c.umpire.meta("g1").unwrap();
    assert_eq!(meta.away.get("red").map(String::as_str), Some("2026-12-24"));
    let back = c.sign_raw("red", "away: back\n");
    assert_eq!(c.send("red", &back).commands, 1);
    assert!(c.umpire.meta("g1").unwrap().away.is_empty());
    let len = c.len();
    // The next day, someone re-mails red's first request: red is not away.
    c.now = day(2);
    c.mail_from("mallory@evil.test", &away);
    let before = c.sent();
    c.poll();
    let told = c.since(&before);
    assert!(
        told.iter().any(|m| m
            .text
            .contains("carried out on 2026-12-01: a copy of it changes nothing")),
        "{:?}",
        told.iter().map(|m| &m.text).collect::<Vec<_>>()
    );
    assert!(
        c.umpire.meta("g1").unwrap().away.is_empty(),
        "a copy moves no deadline"
    );
    assert_eq!(c.len(), len, "a copy appends no entry");
    // Red goes away again, by a new request; a copy of `away: back` on a
    // later day does not end it.
    let again = c.sign_raw("red", "away: until 2026-12-30\n# again\n");
    c.send("red", &again);
    let len = c.len();
    c.now = day(3);
    c.mail_from("mallory@evil.test", &back);
    c.poll();
    assert_eq!(
        c.umpire
            .meta("g1")
            .unwrap()
            .away
            .get("red")
            .map(String::as_str),
        Some("2026-12-30"),
        "a copy of `away: back` does not cut the absence short"
    );
    assert_eq!(c.len(), len);
    // After a restart too.
    let mut c = c.reopen();
    c.now = day(4);
    c.mail_from("mallory@evil.test", &away);
    c.poll();
    assert_eq!(c.len(), len);
    c.verifies();
}

// In a game of three, a side that conceded once held up a draw between the
// two left (its acceptance was awaited), and could decline it or offer one.
#[test]
fn a_conceded_side_has_no_say_in_a_draw_of_three() {
    let mut c = club("freeform", "open", &["a", "b", "c"]);
    let m = c.sign("a", &["end turn"]);
    assert_eq!(c.send("a", &m).accepted, 1);
    let m = c.sign("b", &["end turn"]);
    assert_eq!(c.send("b", &m).accepted, 1);
    let m = c.sign("c", &["concede"]);
    assert_eq!(c.send("c", &m).accepted, 1);
    assert_eq!(c.finished(), None, "a and b play on");
    // c offers a draw: refused, it has left the game.
    let o = c.sign("c", &["offer draw"]);
    assert_eq!(c.send("c", &o).rejected, 1);
    assert!(c.game().draw_offer().is_none());
    let o = c.sign("a", &["offer draw"]);
    assert_eq!(c.send("a", &o).accepted, 1);
    // c declines: refused; the offer stands.
    let d = c.sign("c", &["decline draw"]);
    assert_eq!(c.send("c", &d).rejected, 1);
    assert!(c.game().draw_offer().is_some());
    // b's acceptance is the last one owed: drawn.
    let y = c.sign("b", &["accept draw"]);
    assert_eq!(c.send("b", &y).accepted, 1);
    let done = c.finished().expect("drawn between a and b");
    assert!(done.contains("drawn by agreement"), "{done}");
    let rec = c.verifies();
    assert!(kinds(&rec, 0).contains(&"act"));
}

// A request to a finished game changes nothing: no entry, no setting.
#[test]
fn a_request_to_a_finished_game_changes_nothing() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let m = c.sign("red", &["concede"]);
    assert_eq!(c.send("red", &m).accepted, 1);
    assert!(c.finished().is_some());
    let len = c.len();
    let away = c.sign_raw(
        "blue",
        "away: until 2026-12-24\ntimezone: Europe/Berlin\ncommand: status\n",
    );
    let before = c.sent();
    c.send("blue", &away);
    assert_eq!(c.len(), len, "no entry");
    let meta = c.umpire.meta("g1").unwrap();
    assert!(
        meta.away.is_empty() && meta.time_zones.is_empty(),
        "{meta:?}"
    );
    // The status is still answered; the settings say the game is over.
    let mails = c.since(&before);
    assert!(!mails.is_empty());
    assert!(
        mails.iter().any(|m| m.text.contains("nothing changes now")),
        "{:?}",
        mails.iter().map(|m| &m.text).collect::<Vec<_>>()
    );
}

// A refusal's memory lives in the record: a game imported by another umpire
// knows a copy of a refused move as a copy.
#[test]
fn an_imported_game_knows_a_copy_of_a_refused_move() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let early = c.sign("blue", &["advance", "end turn"]);
    assert_eq!(c.send("blue", &early).rejected, 1);
    let rec = c.verifies();
    let mut d = club("freeform", "open", &["x", "y"]);
    // Another umpire, without game g1: import it there.
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire2@club.test").unwrap();
    d.umpire = Umpire::open(tmp.path()).unwrap();
    d.sides = c.sides.clone();
    d.umpire.import(&rec, day(1)).unwrap();
    let len = d.len();
    d.mail_from("mallory@evil.test", &early);
    let r = d.poll();
    assert_eq!(r.duplicates, 1, "{r:?}");
    assert_eq!(d.len(), len);
}

// A side's own move file too big to keep whole (over 4 KiB) is kept as a
// digest and its signature: a copy of it is known as one too.
#[test]
fn a_copy_of_a_big_refused_move_is_known_by_its_digest() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let filler: Vec<String> = (0..120)
        .map(|i| format!("advance the column number {i} along the road"))
        .collect();
    let lines: Vec<&str> = filler.iter().map(String::as_str).collect();
    let big = c.sign("blue", &lines);
    assert!(big.text.len() > 4096);
    assert_eq!(c.send("blue", &big).rejected, 1, "out of turn");
    let len = c.len();
    for _ in 0..10 {
        c.mail_from("mallory@evil.test", &big);
    }
    let r = c.poll();
    assert_eq!(r.duplicates, 10, "{r:?}");
    assert_eq!(c.len(), len);
    c.verifies();
}

// A move mailed to a paused game is not recorded; its copies are answered
// once a day, not once a mail.
#[test]
fn copies_of_a_move_to_a_paused_game_are_answered_once_a_day() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    c.umpire.pause("g1", "a holiday", day(1)).unwrap();
    c.poll();
    let mv = c.sign("red", &["advance", "end turn"]);
    let len = c.len();
    let before = c.sent();
    for i in 0..30 {
        // A poll a minute, as from cron.
        c.now = day(1) + jiff::SignedDuration::from_mins(i);
        c.mail_from("mallory@evil.test", &mv);
        c.poll();
    }
    let mails = c.since(&before);
    assert_eq!(mails.len(), 1, "one notice for 30 copies");
    assert!(mails[0].subject.contains("paused"), "{}", mails[0].subject);
    assert_eq!(c.len(), len, "nothing recorded");
}

/// Engine-level: acts recorded before acts were bound replay as they were
/// judged then; a bound act is judged by what its `after:` names.
mod engine {
    use super::common::{Table, table};
    use umpire::core::act::{Act, ActEntry, Ending};
    use umpire::core::game::{Game, RejectKind, ReplayMode, Verdict};
    use umpire::core::record::{Body, Record};

    fn refused(v: &Verdict) -> (RejectKind, String) {
        match v {
            Verdict::Rejected { rejection, .. } => (rejection.kind, rejection.reason.clone()),
            other => panic!("not refused: {other:?}"),
        }
    }

    /// An act entry as an umpire before acts were bound wrote it: signed
    /// by `side`'s key, after the opening, no `answers`.
    fn old_act(t: &Table, side: usize, act: Act, ending: Option<Ending>) -> Body {
        let name = t.game.sides()[side].name.clone();
        let after = t.game.record().entries()[0].hash;
        let text = format!(
            "game: g1\nside: {name}\nafter: {after}\norders:\n  {}\n",
            act.text()
        );
        let signature = t.sign(side, &text);
        Body::Act(ActEntry {
            side: name,
            act,
            text,
            signature,
            ending,
            answers: None,
            at: "2026-11-29T12:00:00Z".into(),
        })
    }

    fn replays(t: &Table, rec: &Record) -> Result<Game, String> {
        Game::replay(t.shared(), rec, ReplayMode::Verify)
            .map(|(g, _)| g)
            .map_err(|e| e.to_string())
    }

    // Before a copy was known as one, a refusal re-mailed was recorded
    // again: such a record replays, and a copy now is a copy of the first.
    #[test]
    fn an_old_record_with_a_refusal_twice_replays_and_knows_the_copy() {
        let mut t = table("freeform", "open", &["a", "b"], &[]);
        let text = t.move_text("b", &["advance", "end turn"]);
        let sig = t.sign(1, &text);
        let at = "2026-11-29T12:00:00Z";
        let seq = match t.game.submit(text.as_bytes(), &sig, &t.chain, at) {
            Verdict::Rejected { seq, .. } => seq,
            other => panic!("not refused: {other:?}"),
        };
        let again = t.game.record().entries()[seq as usize].body.clone();
        let mut rec = t.game.record().clone();
        rec.push(again);
        let mut g = replays(&t, &rec).expect("a refusal twice replays");
        let v = g.submit(text.as_bytes(), &sig, &t.chain, at);
        assert!(
            matches!(v, Verdict::Duplicate { seq: s, .. } if s == seq),
            "{v:?}"
        );
    }

    // A side that leaves after another accepted owes nothing: the side that
    // accepted concludes the draw by accepting again.
    #[test]
    fn a_draw_owed_only_by_a_side_that_left_is_concluded_by_an_acceptance() {
        let mut t = table("freeform", "open", &["a", "b", "c"], &[]);
        for (i, o) in [(0, "end turn"), (1, "end turn")] {
            assert!(matches!(t.play(i, &[o]), Verdict::Accepted { .. }));
        }
        assert!(matches!(
            t.play(0, &["offer draw"]),
            Verdict::Accepted { .. }
        ));
        assert!(matches!(
            t.play(1, &["accept draw"]),
            Verdict::Accepted { .. }
        ));
        assert!(t.game.prompt().finished.is_none(), "c owes its acceptance");
        assert!(matches!(t.play(2, &["concede"]), Verdict::Accepted { .. }));
        assert!(t.game.prompt().finished.is_none());
        assert!(matches!(
            t.play(1, &["accept draw"]),
            Verdict::Accepted { .. }
        ));
        let done = t.game.prompt().finished.clone().expect("drawn");
        assert!(done.summary.contains("drawn by agreement"), "{done:?}");
        replays(&t, t.game.record()).unwrap();
    }

    #[test]
    fn an_old_unbound_acceptance_still_replays() {
        let t = table("sarhu", "historical", &["ming", "jurchen"], &[]);
        let mut rec = t.game.record().clone();
        rec.push(old_act(&t, 0, Act::OfferDraw, None));
        // Written against the opening, before the offer: accepted then.
        let drawn = Ending {
            winners: vec![],
            summary: "drawn by agreement: ming offered a draw, jurchen accepted".into(),
        };
        rec.push(old_act(&t, 1, Act::AcceptDraw, Some(drawn)));
        let g = replays(&t, &rec).expect("an old record replays");
        assert!(g.prompt().finished.is_some());
    }

    #[test]
    fn an_unbound_act_after_a_bound_one_does_not_replay() {
        let mut t = table("freeform", "open", &["a", "b"], &[]);
        assert!(matches!(
            t.play(0, &["offer draw"]),
            Verdict::Accepted { .. }
        ));
        let mut rec = t.game.record().clone();
        rec.push(old_act(&t, 1, Act::DeclineDraw, None));
        let Err(e) = replays(&t, &rec) else {
            panic!("an unbound act after a bound one replayed");
        };
        assert!(e.contains("bound"), "{e}");
    }

    // An old record of three where one side conceded: the acceptance of the
    // side left waited for the conceded one, and replays so.
    #[test]
    fn an_old_draw_of_three_waits_for_the_conceded_side_on_replay() {
        let mut t = table("freeform", "open", &["a", "b", "c"], &[]);
        for (i, o) in [(0, "end turn"), (1, "end turn"), (2, "concede")] {
            assert!(matches!(t.play(i, &[o]), Verdict::Accepted { .. }));
        }
        let mut rec = t.game.record().clone();
        rec.push(old_act(&t, 0, Act::OfferDraw, None));
        rec.push(old_act(&t, 1, Act::AcceptDraw, None));
        rec.push(old_act(&t, 2, Act::DeclineDraw, None));
        let g = replays(&t, &rec).expect("replays under the rules of then");
        assert!(g.prompt().finished.is_none());
        assert!(g.draw_offer().is_none(), "c declined it then");
    }

    #[test]
    fn an_act_is_bound_to_the_entry_it_follows() {
        let mut t = table("sarhu", "historical", &["ming", "jurchen"], &[]);
        let nowhere = "ab".repeat(32);
        let text = format!("game: g1\nside: ming\nafter: {nowhere}\norders:\n  offer draw\n");
        let sig = t.sign(0, &text);
        let v = t
            .game
            .submit(text.as_bytes(), &sig, &t.chain, "2026-11-29T12:00:00Z");
        let (kind, why) = refused(&v);
        assert_eq!(kind, RejectKind::Stale);
        assert!(why.contains("names no entry"), "{why}");
        // An offer written before its side's own latest move is stale: the
        // move ended any offer made before it.
        let side = t.game.prompt().awaiting[0].side.index();
        let before = t.game.record().head();
        let legal = t
            .game
            .ruleset()
            .legal_moves(t.game.state(), t.game.prompt().awaiting[0].side);
        let lines: Vec<&str> = legal[0].lines().collect();
        assert!(matches!(t.play(side, &lines), Verdict::Accepted { .. }));
        let name = t.game.sides()[side].name.clone();
        let text = format!("game: g1\nside: {name}\nafter: {before}\norders:\n  offer draw\n");
        let sig = t.sign(side, &text);
        let v = t
            .game
            .submit(text.as_bytes(), &sig, &t.chain, "2026-11-29T12:00:00Z");
        let (kind, why) = refused(&v);
        assert_eq!(kind, RejectKind::Stale, "{why}");
        assert!(why.contains("own move"), "{why}");
        // The record of it all verifies, refusals and all.
        replays(&t, t.game.record()).unwrap();
    }
}
