//! A Distant Plain: the balance of random self-play, per seating mode. Not a
//! test of the rules: a documented measurement, ignored by default, run with
//! `cargo test --release -p umpire-adp --test adp balance:: -- --ignored --nocapture`
//! (`ADP_BALANCE_GAMES`, default 26 a mode; `ADP_BALANCE_MODES=a,b` for some
//! modes only; `ADP_BALANCE_VERBOSE=1` for every game's margins).

use std::collections::BTreeMap;
use std::sync::Arc;
use umpire_adp::Adp;
use umpire_core::selfplay::{self, SelfPlayConfig};

const MODES: [&str; 8] = [
    "standin",
    "standin-3p",
    "standin-2p",
    "standin-2p-alt",
    "standin-3p-np",
    "standin-2p-np",
    "standin-1p-coalition",
    "standin-1p-taliban",
];

#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn balance_by_mode() {
    let games: u32 = std::env::var("ADP_BALANCE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(26);
    let only = std::env::var("ADP_BALANCE_MODES").unwrap_or_default();
    for m in MODES
        .into_iter()
        .filter(|m| only.is_empty() || only.split(',').any(|o| o == *m))
    {
        let s = selfplay::run_with(
            Arc::new(Adp::new()),
            m,
            &BTreeMap::new(),
            games,
            2026,
            &SelfPlayConfig::default(),
        )
        .unwrap_or_else(|e| panic!("{m}: {e}"));
        println!("{m}: {:?}", s.results);
        let mut why: BTreeMap<String, u32> = BTreeMap::new();
        for o in &s.outcomes {
            let head = o.split("; margins").next().unwrap_or(o).to_string();
            *why.entry(head).or_default() += 1;
        }
        for (w, n) in why {
            println!("  {n:3}  {w}");
        }
        if std::env::var("ADP_BALANCE_VERBOSE").is_ok() {
            for o in &s.outcomes {
                println!("    {o}");
            }
        }
    }
}

/// Every faction a Non-player (8.0), played by the rules alone: no signed
/// moves, only the set-up's deal, which plays every card to the end. A
/// self-play measurement (no seat offers it): if the Non-players' play is
/// sound, such games should spread their winners.
#[test]
#[ignore = "a measurement: run with --ignored --nocapture"]
fn balance_with_every_faction_a_non_player() {
    let games: u64 = std::env::var("ADP_BALANCE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(26);
    let mut firsts: BTreeMap<String, u32> = BTreeMap::new();
    let mut ops: BTreeMap<String, u32> = BTreeMap::new();
    for g in 0..games {
        let (summary, events) = all_np_game(g);
        let who = summary
            .strip_prefix("the Non-player ")
            .and_then(|m| m.split_whitespace().next())
            .unwrap_or("?");
        let when = if summary.contains("(6.1, 7.2)") {
            "at a Round"
        } else {
            "at the end"
        };
        *firsts.entry(format!("{who} {when}")).or_default() += 1;
        for e in &events {
            if let Some(rest) = e.strip_prefix("Non-player ") {
                let mut w = rest.split_whitespace();
                let (f, op) = (w.next().unwrap_or(""), w.next().unwrap_or(""));
                *ops.entry(format!("{f} {op}")).or_default() += 1;
            }
        }
        if std::env::var("ADP_BALANCE_VERBOSE").is_ok() {
            println!("  game {g}: {summary}");
        }
        if std::env::var("ADP_BALANCE_TRACE").is_ok_and(|t| t == g.to_string()) {
            for e in &events {
                println!("    {e}");
            }
        }
    }
    println!("every faction a Non-player, {games} games: first by margin {firsts:?}");
    println!("  decisions: {ops:?}");
}

/// One game with every faction a Non-player, from seed `g`: the outcome's
/// summary and every event's text.
fn all_np_game(g: u64) -> (String, Vec<String>) {
    use umpire_adp::{State, deck::Deck, seats::Seats, state::Options};
    use umpire_core::dice::Dice;
    use umpire_core::ruleset::Ruleset;
    let adp = Adp::new();
    let d = adp.data();
    let seats = Seats {
        side_of: [None; 4],
        factions: Vec::new(),
    };
    let mut st = State::new(d, seats, Options::default(), Deck::new(d));
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&g.to_le_bytes());
    let ev = adp
        .deal(&mut st, &mut Dice::seeded(seed))
        .unwrap_or_else(|e| panic!("game {g}: {e}"));
    let summary = st
        .finished
        .as_ref()
        .map_or("unfinished".into(), |o| o.summary.clone());
    (summary, ev.into_iter().map(|e| e.text).collect())
}
