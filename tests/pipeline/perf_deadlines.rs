//! The deadline index (issue 13): a deadline check reads only the games the
//! store's wake index lists, so the index must follow every change of a
//! game's metadata exactly: creation, reminders and defaults, moves, pause,
//! resume, extend, import, the end, and a change of the club's default policy.

use umpire_testkit as common;

use common::{key, move_mail};
use std::collections::BTreeMap;
use umpire::core::act::{AdminAct, Ending};
use umpire::core::record::Record;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::service::Umpire;
use umpire::service::config::Deadlines;
use umpire::service::deadlines::wake;
use umpire::service::games::NewGame;

fn at(h: i64) -> jiff::Timestamp {
    let t0: jiff::Timestamp = "2026-12-01T12:00:00Z".parse().unwrap();
    jiff::Timestamp::from_second(t0.as_second() + h * 3600).unwrap()
}

fn new(id: &str, deadlines: Option<Deadlines>) -> NewGame {
    NewGame {
        id: id.into(),
        ruleset: "freeform".into(),
        scenario: "open".into(),
        options: BTreeMap::new(),
        deadlines,
        time_zones: BTreeMap::new(),
        sides: vec![
            ("red".into(), "red@club.test".into(), key(1).public_line()),
            ("blue".into(), "blue@club.test".into(), key(2).public_line()),
        ],
    }
}

/// Every game's entry in the index is the wake time its metadata gives.
fn assert_exact(u: &Umpire) {
    for id in u.game_ids().unwrap() {
        let meta = u.meta(&id).unwrap();
        let expect = wake(&u.policy(&meta), &meta);
        assert_eq!(u.store().wake_of(&id).unwrap(), expect, "game {id}");
    }
}

fn due(u: &Umpire, h: i64) -> Vec<String> {
    let mut v = u.store().due(at(h).as_second()).unwrap();
    v.sort();
    v
}

#[test]
fn the_wake_index_follows_every_change_of_a_game() {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let mut u = Umpire::open(tmp.path()).unwrap();
    let policy = Deadlines {
        hours: 72,
        reminders: vec![48, 6],
        grace_hours: 24,
    };
    u.create_game(new("g1", Some(policy)), at(0)).unwrap();
    let none = Deadlines {
        hours: 0,
        ..Default::default()
    };
    u.create_game(new("g2", Some(none)), at(0)).unwrap();
    u.create_game(new("g3", None), at(1)).unwrap();
    assert_exact(&u);
    // g1's 48-hour reminder at +24h; g3 (the club's 72h, reminders 48/24/6) at +25h.
    assert_eq!(u.store().wake_of("g1").unwrap(), Some(at(24).as_second()));
    assert_eq!(u.store().wake_of("g2").unwrap(), None, "no deadlines");
    assert!(due(&u, 23).is_empty());
    assert_eq!(due(&u, 24), ["g1"]);
    assert_eq!(due(&u, 25), ["g1", "g3"]);

    // A reminder moves g1 on to its 6-hour reminder.
    assert_eq!(u.check_deadlines(at(24)).unwrap().reminders, 1);
    assert_exact(&u);
    assert_eq!(u.store().wake_of("g1").unwrap(), Some(at(66).as_second()));

    // A move: blue now owes g1's move, from +30h.
    let head = u.game("g1").unwrap().record().head();
    let text = format!("game: g1\nside: red\nafter: {head}\norders:\n  advance\n  end turn\n");
    let sig = key(1).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    let mut md = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let mail = move_mail("red@club.test", "umpire@club.test", 1, &text, &sig, false);
    md.deliver("m1", &mail).unwrap();
    assert_eq!(u.poll(&mut md, at(30)).unwrap().accepted, 1);
    assert_exact(&u);
    assert_eq!(
        u.store().wake_of("g1").unwrap(),
        Some(at(30 + 24).as_second())
    );

    // Paused: out of the index; resumed ten hours later: back, ten hours on.
    u.pause("g3", "a holiday", at(2)).unwrap();
    assert_exact(&u);
    assert_eq!(u.store().wake_of("g3").unwrap(), None);
    u.resume("g3", at(12)).unwrap();
    assert_exact(&u);
    assert_eq!(u.store().wake_of("g3").unwrap(), Some(at(35).as_second()));
    u.extend("g3", None, 24, at(13)).unwrap();
    assert_exact(&u);

    // Late notice, then the default after the grace.
    let r = u.check_deadlines(at(200)).unwrap();
    assert!(r.late_notices + r.defaults > 0, "{r:?}");
    assert_exact(&u);
    u.check_deadlines(at(400)).unwrap();
    assert_exact(&u);

    // The end takes a game out of the index.
    u.admin_act(
        "g3",
        AdminAct::End(Ending {
            winners: vec![],
            summary: "called off".into(),
        }),
        "called off",
        at(401),
    )
    .unwrap();
    assert_exact(&u);
    assert_eq!(u.store().wake_of("g3").unwrap(), None);

    // An imported game is indexed in the other umpire.
    let record = Record::from_text(&u.export("g1", None).unwrap()).unwrap();
    let other = tempfile::tempdir().unwrap();
    Umpire::init(other.path(), "umpire@club.test").unwrap();
    let mut v = Umpire::open(other.path()).unwrap();
    v.import(&record, at(500)).unwrap();
    assert_exact(&v);
    assert!(v.store().wake_of("g1").unwrap().is_some());
}

#[test]
fn a_new_default_policy_rebuilds_the_index_once() {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    {
        let mut u = Umpire::open(tmp.path()).unwrap();
        u.create_game(new("g1", None), at(0)).unwrap();
        assert_eq!(u.store().wake_of("g1").unwrap(), Some(at(24).as_second()));
    }
    let cfg = tmp.path().join("umpire.toml");
    let text = std::fs::read_to_string(&cfg).unwrap();
    let text = text.replace("hours = 72 ", "hours = 100 ");
    std::fs::write(&cfg, text).unwrap();
    let u = Umpire::open(tmp.path()).unwrap();
    assert_eq!(u.config().deadlines.hours, 100);
    assert_exact(&u);
    assert_eq!(u.store().wake_of("g1").unwrap(), Some(at(52).as_second()));
}

/// `umpire run` keeps one process for weeks: its cache of replayed games
/// follows the games in play (least recently used dropped first), and a
/// dropped game replays when next asked for (issue 13: memory bounded by the
/// games in play, not by the club).
#[test]
fn the_game_cache_keeps_the_games_last_used() {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let mut u = Umpire::open(tmp.path()).unwrap();
    for id in ["c1", "c2", "c3", "c4", "c5"] {
        u.create_game(new(id, None), at(0)).unwrap();
    }
    for id in ["c3", "c1", "c5", "c2", "c4", "c1"] {
        u.game(id).unwrap();
    }
    assert_eq!(u.trim_cache(2), 3);
    let kept = u.cached_games();
    assert_eq!(kept, ["c1", "c4"], "the two games asked for last are kept");
    assert_eq!(u.trim_cache(2), 0, "nothing more to drop");
    // A dropped game replays to the same state.
    let head = u.game("c3").unwrap().record().head();
    u.trim_cache(0);
    assert!(u.cached_games().is_empty());
    assert_eq!(u.game("c3").unwrap().record().head(), head);
}
