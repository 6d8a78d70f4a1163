//! The dice-chain cache (issue 13): a process rebuilds a game's secrets from
//! the cached checkpoints instead of walking each chain, and the cache is
//! never trusted over the record. A cache that is damaged, another game's,
//! or missing is detected, rebuilt and written again, and the game plays on
//! with exactly the rolls and entries it gets with a sound cache.

use umpire_testkit as common;

use common::{copy_dir, key, move_mail};
use std::collections::BTreeMap;
use std::path::Path;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::service::Umpire;
use umpire::service::games::NewGame;
use umpire::store::{Batch, Store, Table};

fn at(h: i64) -> jiff::Timestamp {
    let t0: jiff::Timestamp = "2026-12-01T12:00:00Z".parse().unwrap();
    jiff::Timestamp::from_second(t0.as_second() + h * 3600).unwrap()
}

fn new(id: &str, secrets: bool) -> NewGame {
    let mut options = BTreeMap::new();
    if secrets {
        options.insert("secrets".to_string(), "on".to_string());
    }
    NewGame {
        id: id.into(),
        ruleset: "freeform".into(),
        scenario: "open".into(),
        options,
        deadlines: None,
        time_zones: BTreeMap::new(),
        sides: vec![
            ("red".into(), "red@club.test".into(), key(1).public_line()),
            ("blue".into(), "blue@club.test".into(), key(2).public_line()),
        ],
    }
}

/// Plays `moves` signed moves of game `id` through the Maildir, one poll
/// each, rolling public (and, with `secrets`, secret) dice in every move.
fn play(dir: &Path, id: &str, moves: u64, from: u64, secrets: bool) {
    let mut u = Umpire::open(dir).unwrap();
    let mut md = Maildir::open(&dir.join("maildir")).unwrap();
    for n in from..from + moves {
        let g = u.game(id).unwrap();
        let waiting = g.awaiting_names();
        let (side, k) = if waiting.contains("red") {
            ("red", 1)
        } else {
            ("blue", 2)
        };
        let secret = if secrets {
            "  roll secret 1d6 spot\n"
        } else {
            ""
        };
        let text = format!(
            "game: {id}\nside: {side}\nafter: {}\norders:\n  roll 2d6 fire\n{secret}  end turn\n",
            g.record().head()
        );
        let sig = key(k).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
        let mail = move_mail(
            &format!("{side}@club.test"),
            "umpire@club.test",
            n,
            &text,
            &sig,
            false,
        );
        md.deliver(&format!("m{n}"), &mail).unwrap();
        let report = u.poll(&mut md, at(n as i64)).unwrap();
        assert_eq!(report.accepted, 1, "move {n} of {id}");
    }
}

fn cache(dir: &Path, id: &str) -> Option<Vec<u8>> {
    Store::open(&dir.join("db"))
        .unwrap()
        .get(Table::Chains, id)
        .unwrap()
}

fn set_cache(dir: &Path, id: &str, value: Option<Vec<u8>>) {
    let store = Store::open(&dir.join("db")).unwrap();
    let mut b = Batch::new();
    match value {
        Some(v) => b.put(Table::Chains, id, v),
        None => b.remove(Table::Chains, id),
    }
    store.commit(b).unwrap();
}

fn record(dir: &Path, id: &str) -> String {
    Umpire::open(dir).unwrap().export(id, None).unwrap()
}

/// A club with games g1 and g2, a few moves into g1.
fn club(dir: &Path, secrets: bool) {
    Umpire::init(dir, "umpire@club.test").unwrap();
    let mut u = Umpire::open(dir).unwrap();
    u.create_game(new("g1", secrets), at(0)).unwrap();
    u.create_game(new("g2", secrets), at(0)).unwrap();
    drop(u);
    play(dir, "g1", 3, 1, secrets);
}

fn broken_caches_are_rebuilt(secrets: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("base");
    club(&base, secrets);
    let sound = cache(&base, "g1").expect("game creation caches the chains");
    let other = cache(&base, "g2").unwrap();
    assert_ne!(sound, other);
    let mut flipped = sound.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 1;
    let variants: [(&str, Option<Vec<u8>>); 5] = [
        ("sound", Some(sound.clone())),
        ("damaged", Some(flipped)),
        ("truncated", Some(sound[..sound.len() - 32].to_vec())),
        ("another game's", Some(other)),
        ("missing", None),
    ];
    let mut records = Vec::new();
    for (i, (what, value)) in variants.into_iter().enumerate() {
        let dir = tmp.path().join(format!("v{i}"));
        copy_dir(&base, &dir);
        set_cache(&dir, "g1", value);
        play(&dir, "g1", 4, 10, secrets);
        assert_eq!(
            cache(&dir, "g1").as_ref(),
            Some(&sound),
            "a {what} cache is rebuilt and written again"
        );
        let text = record(&dir, "g1");
        let verified = umpire::core::record::Record::from_text(&text).unwrap();
        let rs = umpire::games::find("freeform").unwrap();
        umpire::core::game::Game::replay(rs, &verified, umpire::core::game::ReplayMode::Verify)
            .unwrap_or_else(|e| panic!("{what} cache: the record does not verify: {e}"));
        records.push((what, text));
    }
    for (what, text) in &records[1..] {
        assert_eq!(
            text, &records[0].1,
            "with a {what} cache the game gets the same entries and rolls"
        );
    }
}

#[test]
fn broken_chain_caches_are_detected_and_rebuilt() {
    broken_caches_are_rebuilt(false);
}

#[test]
fn broken_chain_caches_of_hidden_dice_are_detected_and_rebuilt() {
    broken_caches_are_rebuilt(true);
}
