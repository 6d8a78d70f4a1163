//! Deadlines with a fake clock: reminders at the right times, the late
//! notice, the default applied after the grace period and recorded as such,
//! a late move answered clearly, and absences that push the clock back.

use umpire_testkit as common;

use common::{key, move_mail, outbox};
use std::collections::BTreeMap;
use umpire::core::game::{Game, ReplayMode};
use umpire::core::record::{Body, Record};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::config::Deadlines;
use umpire::service::games::NewGame;

fn at(h: i64) -> jiff::Timestamp {
    let t0: jiff::Timestamp = "2026-12-01T12:00:00Z".parse().unwrap();
    jiff::Timestamp::from_second(t0.as_second() + h * 3600).unwrap()
}

#[test]
fn reminders_then_the_default_then_a_late_move_is_told_why() {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let mut u = Umpire::open(tmp.path()).unwrap();
    u.create_game(
        NewGame {
            id: "g1".into(),
            ruleset: "freeform".into(),
            scenario: "open".into(),
            options: BTreeMap::new(),
            deadlines: Some(Deadlines {
                hours: 72,
                reminders: vec![48, 24, 6],
                grace_hours: 24,
            }),
            time_zones: BTreeMap::from([("red".to_string(), "Europe/Berlin".to_string())]),
            sides: vec![
                ("red".into(), "red@club.test".into(), key(1).public_line()),
                ("blue".into(), "blue@club.test".into(), key(2).public_line()),
            ],
        },
        at(0),
    )
    .unwrap();
    let outdir = tmp.path().join("outbox");
    let mut out = FileOutbox::open(&outdir).unwrap();
    u.deliver(&mut out, at(0)).unwrap();
    let opening = &outbox(&outdir)["g1.0.red.eml"];
    // Red reads the deadline in Berlin time: 4 Dec 12:00 UTC is 13:00 CET.
    assert!(
        opening
            .text
            .contains("Fri 4 Dec 2026 13:00 CET (in 3 days)"),
        "{}",
        opening.text
    );

    let reminders_at = |u: &mut Umpire, h: i64| u.check_deadlines(at(h)).unwrap();
    assert_eq!(
        reminders_at(&mut u, 23).reminders,
        0,
        "48h reminder is due at +24h"
    );
    assert_eq!(reminders_at(&mut u, 25).reminders, 1);
    assert_eq!(reminders_at(&mut u, 26).reminders, 0, "sent once");
    assert_eq!(reminders_at(&mut u, 49).reminders, 1, "the 24h reminder");
    assert_eq!(reminders_at(&mut u, 67).reminders, 1, "the 6h reminder");
    assert_eq!(reminders_at(&mut u, 70).reminders, 0);
    let r = reminders_at(&mut u, 73);
    assert_eq!(
        (r.reminders, r.late_notices, r.defaults),
        (0, 1, 0),
        "late notice, grace running"
    );
    assert_eq!(reminders_at(&mut u, 90).defaults, 0, "grace lasts 24h");
    let r = reminders_at(&mut u, 97);
    assert_eq!(r.defaults, 1, "default applied after the grace");
    u.deliver(&mut out, at(97)).unwrap();
    let mails = outbox(&outdir);
    let names: Vec<&String> = mails.keys().collect();
    assert_eq!(
        mails.keys().filter(|k| k.contains(".remind")).count(),
        3,
        "{names:?}"
    );
    let blue = &mails["g1.1.blue.eml"];
    assert!(
        blue.text
            .contains("red sent no orders in time; the umpire applied the stated default"),
        "{}",
        blue.text
    );
    assert!(blue.text.contains("(your move)") || blue.subject.contains("your move"));

    // Red's move, written before the default, arrives late: refused, and told why.
    let g = u.game("g1").unwrap();
    let opening_head = g.record().entries()[0].hash;
    let text =
        format!("game: g1\nside: red\nafter: {opening_head}\norders:\n  attack\n  end turn\n");
    let sig = key(1).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    let mut md = Maildir::open(&tmp.path().join("maildir")).unwrap();
    md.deliver(
        "late",
        &move_mail("red@club.test", "umpire@club.test", 1, &text, &sig, false),
    )
    .unwrap();
    let r = u.poll(&mut md, at(98)).unwrap();
    assert_eq!(r.rejected, 1);
    u.deliver(&mut out, at(98)).unwrap();
    let refusal = outbox(&outdir)
        .into_values()
        .find(|m| m.subject.contains("refused"))
        .unwrap();
    assert!(
        refusal.text.contains("too late: the deadline passed"),
        "{}",
        refusal.text
    );

    // The default is in the record and verifies as the ruleset's stated default.
    let record = Record::from_text(&u.export("g1", None).unwrap()).unwrap();
    assert!(
        record
            .entries()
            .iter()
            .any(|e| matches!(&e.body, Body::Default(d) if d.side == "red"))
    );
    let (_, sum) = Game::replay(
        umpire::games::find("freeform").unwrap(),
        &record,
        ReplayMode::Verify,
    )
    .unwrap();
    assert_eq!(sum.defaults, 1);
}

#[test]
fn an_absence_extends_the_deadline() {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let mut u = Umpire::open(tmp.path()).unwrap();
    u.create_game(
        NewGame {
            id: "g1".into(),
            ruleset: "freeform".into(),
            scenario: "open".into(),
            options: BTreeMap::new(),
            deadlines: Some(Deadlines {
                hours: 48,
                reminders: vec![],
                grace_hours: 0,
            }),
            time_zones: BTreeMap::new(),
            sides: vec![
                ("red".into(), "red@club.test".into(), key(1).public_line()),
                ("blue".into(), "blue@club.test".into(), key(2).public_line()),
            ],
        },
        at(0),
    )
    .unwrap();
    let text = "game: g1\nside: red\naway: until 2026-12-10\n";
    let sig = key(1).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    let mut md = Maildir::open(&tmp.path().join("maildir")).unwrap();
    md.deliver(
        "away",
        &move_mail("red@club.test", "umpire@club.test", 1, text, &sig, false),
    )
    .unwrap();
    u.poll(&mut md, at(1)).unwrap();
    // Without the absence the default would apply at +48h.
    assert_eq!(u.check_deadlines(at(60)).unwrap().defaults, 0);
    // The clock restarts at the end of 10 Dec (UTC): 11 Dec 00:00 + 48h.
    let end: jiff::Timestamp = "2026-12-11T00:00:00Z".parse().unwrap();
    let due = jiff::Timestamp::from_second(end.as_second() + 48 * 3600).unwrap();
    assert_eq!(
        u.check_deadlines(jiff::Timestamp::from_second(due.as_second() - 60).unwrap())
            .unwrap()
            .defaults,
        0
    );
    assert_eq!(u.check_deadlines(due).unwrap().defaults, 1);
}

/// A default held sealed in a round it does not close changes nothing the
/// other sides can see: only the defaulted side hears of it (with its
/// commitment); the default that closes the round sends everyone the result.
#[test]
fn a_sealed_default_that_does_not_close_the_round_is_told_to_its_side_only() {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let mut u = Umpire::open(tmp.path()).unwrap();
    let sides = ["red", "blue", "green"];
    u.create_game(
        NewGame {
            id: "g1".into(),
            ruleset: "freeform".into(),
            scenario: "open".into(),
            options: BTreeMap::from([("order".to_string(), "simultaneous".to_string())]),
            deadlines: Some(Deadlines {
                hours: 72,
                reminders: vec![],
                grace_hours: 0,
            }),
            time_zones: BTreeMap::new(),
            sides: sides
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    (
                        s.to_string(),
                        format!("{s}@club.test"),
                        key(i as u8 + 1).public_line(),
                    )
                })
                .collect(),
        },
        at(0),
    )
    .unwrap();
    let outdir = tmp.path().join("outbox");
    let mut out = FileOutbox::open(&outdir).unwrap();
    u.deliver(&mut out, at(0)).unwrap();
    let before: Vec<String> = outbox(&outdir).into_keys().collect();
    // Only red sends its sealed orders; blue and green let the deadline pass.
    let head = u.game("g1").unwrap().record().head();
    let text = format!("game: g1\nside: red\nafter: {head}\norders:\n  roll 2d6 red-fire\n");
    let sig = key(1).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    let mut md = Maildir::open(&tmp.path().join("maildir")).unwrap();
    md.deliver(
        "red",
        &move_mail("red@club.test", "umpire@club.test", 1, &text, &sig, false),
    )
    .unwrap();
    u.poll(&mut md, at(1)).unwrap();
    u.deliver(&mut out, at(1)).unwrap();
    let r = u.check_deadlines(at(73)).unwrap();
    assert_eq!(r.defaults, 2, "blue's and green's defaults");
    u.deliver(&mut out, at(73)).unwrap();
    let mails = outbox(&outdir);
    let new: Vec<&String> = mails
        .keys()
        .filter(|k| !before.contains(k) && !k.contains(".sealed."))
        .collect();
    // Blue's default is held (the round waits for green): blue alone is told.
    let held: Vec<&&String> = new
        .iter()
        .filter(|k| k.contains("sealed-default"))
        .collect();
    assert_eq!(held.len(), 1, "{new:?}");
    let notice = &mails[*held[0]];
    assert!(
        notice.text.contains("recorded sealed as entry"),
        "{}",
        notice.text
    );
    assert!(notice.text.contains("Commitment:"), "{}", notice.text);
    // Green's default closes the round: each side gets one result mail, and
    // no side gets a mail for blue's held entry.
    let record = Record::from_text(&u.export("g1", None).unwrap()).unwrap();
    let held_seq = record
        .entries()
        .iter()
        .find(|e| matches!(&e.body, Body::Sealed(s) if s.side == "blue"))
        .unwrap()
        .seq;
    for s in sides {
        assert!(
            !mails.contains_key(&format!("g1.{held_seq}.{s}.eml")),
            "{s} got a situation mail for blue's held default: {new:?}"
        );
    }
    let results = new.iter().filter(|k| !k.contains("sealed-default")).count();
    assert_eq!(results, 3, "the round's result to every side: {new:?}");
}
