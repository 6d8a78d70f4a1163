//! A Distant Plain through the mail pipeline: each awaited side's order is
//! picked among the legal ones, written as a move file, signed, mailed into
//! the Maildir and polled; the replies land in the file outbox. Each game runs
//! for a fixed number of cards that includes a Propaganda Round (6.0); every
//! mail shows the current and the next card (2.2); the full record and every
//! side's copy pass `umpire verify`.

mod common;

use common::{key, move_mail, outbox};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use std::process::Command;
use umpire::core::record::Record;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::games::adp::State;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;

/// Cards played before the test stops: the stand-in deck puts one Propaganda
/// card in each pile of nine, so the first 18 cards hold two.
const CARDS: usize = 18;

fn verify(path: &std::path::Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("verify")
        .arg(path)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// What one game by mail came to.
struct Played {
    moves: u64,
    cards: usize,
    rounds: usize,
    finished: bool,
}

/// Plays `scenario` with `sides` by signed mail for [`CARDS`] cards (or to
/// the end), then checks the mails and verifies every record.
fn play_by_mail(id: &str, scenario: &str, sides: &[&str], seed: u8) -> Played {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("club");
    Umpire::init(&dir, "umpire@club.test").unwrap();
    let mut u = Umpire::open(&dir).unwrap();
    let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    u.create_game(
        NewGame {
            id: id.into(),
            ruleset: "adp".into(),
            scenario: scenario.into(),
            options: BTreeMap::new(),
            deadlines: None,
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
        now,
    )
    .unwrap();
    let mut md = Maildir::open(&dir.join("maildir")).unwrap();
    let outdir = dir.join("outbox");
    let mut ob = FileOutbox::open(&outdir).unwrap();
    u.deliver(&mut ob, now).unwrap();
    let mut rng = ChaCha20Rng::from_seed([seed; 32]);
    let (mut n, mut rounds, mut in_round) = (0u64, 0usize, false);
    let cards = loop {
        let g = u.game(id).unwrap();
        let st: &State = g.state().downcast_ref().unwrap();
        let cards = st.deck.played.len();
        let propaganda = matches!(st.stage, umpire::games::adp::state::Stage::Propaganda(_));
        if propaganda && !in_round {
            rounds += 1;
        }
        in_round = propaganda;
        if g.prompt().finished.is_some() || (cards >= CARDS && rounds > 0 && !propaganda) {
            break cards;
        }
        assert!(n < 600, "{CARDS} cards took more than 600 moves");
        // A side whose sealed plan is in owes nothing until the round closes.
        let side = g.waiting().next().expect("someone is awaited").side;
        let name = g.sides()[side.index()].name.clone();
        let legal = g.ruleset().legal(g.state(), side);
        assert!(
            !legal.is_empty(),
            "{name} is asked to act but has no legal order"
        );
        let pick = legal[(rng.next_u32() as usize) % legal.len()].clone();
        let body: String = pick.lines().map(|l| format!("  {l}\n")).collect();
        let text = format!(
            "game: {id}\nside: {name}\nafter: {}\norders:\n{body}",
            g.record().head()
        );
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
    };
    let finished = u.game(id).unwrap().prompt().finished.is_some();
    // 2.2: every situation mail shows the card being played and the next.
    let mails = outbox(&outdir);
    assert!(
        mails.len() as u64 > n,
        "{} mails for {n} moves",
        mails.len()
    );
    let sealed = "Your orders are recorded sealed";
    for (file, m) in &mails {
        if m.text.contains("== GAME OVER ==") || m.text.contains(sealed) {
            continue;
        }
        assert!(
            m.text.contains("Current card:") && m.text.contains("Next card:"),
            "{file} does not show the current and next card:\n{}",
            m.text
        );
    }
    assert!(
        mails
            .values()
            .any(|m| m.text.contains("Propaganda Round plan")),
        "no mail asked for a Propaganda plan (6.4, 6.5)"
    );
    // 6.0: the plans are simultaneous, so each is recorded sealed.
    assert!(
        mails.values().any(|m| m.text.contains(sealed)),
        "no Propaganda plan was recorded sealed"
    );
    // The full record, and each side's copy, verify.
    let full = u.export(id, None).unwrap();
    let rec = tmp.path().join(format!("{id}.txt"));
    std::fs::write(&rec, &full).unwrap();
    let out = verify(&rec);
    assert!(out.contains("record verified"), "{out}");
    let record = Record::from_text(&full).unwrap();
    for side in sides {
        let text = u.export(id, Some(side)).unwrap();
        let copy = Record::from_text(&text).unwrap();
        assert_eq!(copy.head(), record.head(), "{side}'s copy shares the head");
        let p = tmp.path().join(format!("{id}-{side}.txt"));
        std::fs::write(&p, text).unwrap();
        verify(&p);
    }
    Played {
        moves: n,
        cards,
        rounds,
        finished,
    }
}

#[test]
fn a_four_player_game_by_mail_through_a_propaganda_round_verifies() {
    let p = play_by_mail(
        "adp-4p",
        "standin",
        &["coalition", "government", "taliban", "warlords"],
        31,
    );
    assert!(p.rounds >= 1 && (p.cards >= CARDS || p.finished));
    eprintln!(
        "4 players: {} moves, {} cards, {} Propaganda Rounds",
        p.moves, p.cards, p.rounds
    );
}

#[test]
fn a_two_player_game_by_mail_through_a_propaganda_round_verifies() {
    // 1.5 No-Non-Player: each player runs two factions.
    let p = play_by_mail("adp-2p", "standin-2p", &["coin", "insurgents"], 32);
    assert!(p.rounds >= 1 && (p.cards >= CARDS || p.finished));
    eprintln!(
        "2 players: {} moves, {} cards, {} Propaganda Rounds",
        p.moves, p.cards, p.rounds
    );
}

#[test]
fn a_two_player_game_with_two_non_players_by_mail_verifies() {
    // 8.0: the Government and the Warlords have no key; the umpire plays
    // them inside the moves, and the replay re-derives their decisions.
    let p = play_by_mail("adp-2p-np", "standin-2p-np", &["coalition", "taliban"], 33);
    assert!(p.rounds >= 1 && (p.cards >= CARDS || p.finished));
    eprintln!(
        "2 players, 2 Non-players: {} moves, {} cards, {} Propaganda Rounds",
        p.moves, p.cards, p.rounds
    );
}
