//! Random games through the real engine: signed moves, dice, defaults,
//! invariants after every entry, and a verified replay of every record.

use std::collections::BTreeMap;
use std::sync::Arc;
use umpire::core::selfplay::{self, SelfPlayConfig};
use umpire::games::freeform::Freeform;
use umpire::games::sarhu::Sarhu;

fn opts(v: &[(&str, &str)]) -> BTreeMap<String, String> {
    v.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn freeform_games_with_a_turn_limit_finish_and_replay() {
    let s = selfplay::run(Arc::new(Freeform), "open", &opts(&[("turns", "3")]), 5, 42)
        .unwrap_or_else(|e| panic!("{e}\n{}", e.record));
    assert_eq!(s.games, 5);
    assert_eq!(s.results.get("draw"), Some(&5), "{s:?}");
    let again = selfplay::run(Arc::new(Freeform), "open", &opts(&[("turns", "3")]), 5, 42).unwrap();
    assert_eq!(s, again, "the same seed plays the same games");
}

#[test]
fn sarhu_random_games_end_in_victory() {
    let s =
        selfplay::run(Arc::new(Sarhu::new()), "historical", &opts(&[]), 3, 7).unwrap_or_else(|e| {
            panic!(
                "{e}\n{}",
                e.record
                    .lines()
                    .rev()
                    .take(3)
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        });
    eprintln!("{s:?}");
    assert_eq!(s.games, 3);
    assert!(
        s.results.keys().all(|k| k == "ming" || k == "jurchen"),
        "{s:?}"
    );
}

#[test]
#[ignore]
fn sarhu_stress() {
    let ask = vec![
        "losses: ask".to_string(),
        "rout: ask".to_string(),
        "displace: ask".to_string(),
        "initiative: ask".to_string(),
    ];
    let configs = [
        (opts(&[]), SelfPlayConfig::default()),
        (
            opts(&[
                ("activation", "consecutive"),
                ("pass_unflips", "yes"),
                ("place_between", "yes"),
                ("retreat", "cascade"),
                ("variant", "szechwan"),
                ("contagion", "stop"),
            ]),
            SelfPlayConfig {
                standing: vec![ask.clone(), ask.clone()],
                ..Default::default()
            },
        ),
        (
            opts(&[
                ("prep_commands", "active"),
                ("entry", "only"),
                ("pass_stop", "action"),
                ("cavalry_mountain", "step"),
                ("mixed_fire", "yes"),
                ("woods_cavalry", "1"),
                ("disorganized", "whole"),
                ("retreat", "every_combat"),
            ]),
            SelfPlayConfig {
                standing: vec![ask.clone(), vec!["losses: flip-first".into()]],
                default_percent: 50,
                ..Default::default()
            },
        ),
    ];
    for (i, (o, c)) in configs.iter().enumerate() {
        let t = std::time::Instant::now();
        let s = selfplay::run_with(
            Arc::new(Sarhu::new()),
            "historical",
            o,
            40,
            1000 + i as u64,
            c,
        )
        .unwrap_or_else(|e| {
            panic!(
                "{e}\n{}",
                e.record
                    .lines()
                    .rev()
                    .take(4)
                    .collect::<Vec<_>>()
                    .join("\n")
            )
        });
        eprintln!(
            "config {i}: {:?} in {:?}; moves {} defaults {} rolls {} ncp {}",
            s.results,
            t.elapsed(),
            s.moves,
            s.defaults,
            s.rolls,
            s.not_carried_out
        );
    }
}

/// Replays one failing game by seed and prints its last reports (debugging aid).
#[test]
#[ignore]
fn sarhu_debug_seed() {
    let seed: u64 = std::env::var("SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let cfg = SelfPlayConfig {
        max_entries: std::env::var("UPTO")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(5000),
        ..Default::default()
    };
    let r = selfplay::random_game(
        Arc::new(Sarhu::new()),
        "historical",
        &opts(&[]),
        std::env::var("NUM")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0),
        seed,
        &cfg,
    );
    let text = match &r {
        Ok((g, _)) => g.record().to_text(),
        Err(e) => {
            eprintln!("{e}");
            e.record.clone()
        }
    };
    let record = umpire::core::record::Record::from_text(&text).unwrap();
    let (g, _) = umpire::core::game::Game::replay(
        Arc::new(Sarhu::new()),
        &record,
        umpire::core::game::ReplayMode::Trusted,
    )
    .unwrap();
    let last = g.record().len() as u64;
    for seq in last.saturating_sub(12)..last {
        if let Some(rep) = g.report(seq) {
            for e in rep.events() {
                eprintln!("{seq}: {} {:?}", e.text, e.focus);
            }
        }
    }
    let v = umpire::core::ruleset::Ruleset::view(&*g.ruleset().clone(), g.state(), None);
    for s in v.status {
        eprintln!("{s}");
    }
}

#[test]
#[ignore]
fn sarhu_timing() {
    use umpire::core::ruleset::{Rules, Setup, Side};
    let r = Sarhu::new();
    let st = r
        .setup(&Setup {
            scenario: "historical".into(),
            options: BTreeMap::new(),
            sides: vec!["ming".into(), "jurchen".into()],
        })
        .unwrap();
    let t = std::time::Instant::now();
    for _ in 0..100 {
        std::hint::black_box(r.legal(&st, Side(0)));
    }
    eprintln!("legal: {:?}", t.elapsed() / 100);
    let t = std::time::Instant::now();
    for _ in 0..100 {
        std::hint::black_box(serde_json::to_vec(&st).unwrap());
    }
    eprintln!(
        "json: {:?} ({} bytes)",
        t.elapsed() / 100,
        serde_json::to_vec(&st).unwrap().len()
    );
    let k = umpire::core::sig::SecretKey::from_seed(&[1; 32], "x").unwrap();
    let t = std::time::Instant::now();
    let mut sig = String::new();
    for _ in 0..100 {
        sig = k.sign("umpire-move", b"game: x\nside: ming\n").unwrap();
    }
    eprintln!("sign: {:?}", t.elapsed() / 100);
    let p = k.public();
    let t = std::time::Instant::now();
    for _ in 0..100 {
        p.verify("umpire-move", b"game: x\nside: ming\n", &sig)
            .unwrap();
    }
    eprintln!("verify: {:?}", t.elapsed() / 100);
    let t = std::time::Instant::now();
    let (g, s) = selfplay::random_game(
        Arc::new(Sarhu::new()),
        "historical",
        &opts(&[]),
        0,
        5,
        &SelfPlayConfig::default(),
    )
    .unwrap();
    eprintln!(
        "game: {:?}, {} moves, {} entries",
        t.elapsed(),
        s.moves,
        g.record().len()
    );
}

#[test]
#[ignore]
fn sarhu_timing2() {
    use umpire::core::ruleset::Ruleset;
    let (g, _) = selfplay::random_game(
        Arc::new(Sarhu::new()),
        "historical",
        &opts(&[]),
        0,
        5,
        &SelfPlayConfig::default(),
    )
    .unwrap();
    let text = g.record().to_text();
    let record = umpire::core::record::Record::from_text(&text).unwrap();
    let t = std::time::Instant::now();
    let (g2, _) = umpire::core::game::Game::replay(
        Arc::new(Sarhu::new()),
        &record,
        umpire::core::game::ReplayMode::Verify,
    )
    .unwrap();
    eprintln!("replay verify: {:?}", t.elapsed());
    let t = std::time::Instant::now();
    let _ = umpire::core::game::Game::replay(
        Arc::new(Sarhu::new()),
        &record,
        umpire::core::game::ReplayMode::Trusted,
    )
    .unwrap();
    eprintln!("replay trusted: {:?}", t.elapsed());
    // legal at every state of the game
    let rs = g2.ruleset().clone();
    let mut n = 0;
    let mut tot = std::time::Duration::ZERO;
    let entries = record.entries().to_vec();
    for k in 2..entries.len() {
        let part = umpire::core::record::Record::from_entries(entries[..k].to_vec()).unwrap();
        if let Ok((gg, _)) = umpire::core::game::Game::replay(
            rs.clone(),
            &part,
            umpire::core::game::ReplayMode::Trusted,
        ) {
            for s in 0..2u8 {
                let t = std::time::Instant::now();
                let l = rs.legal(gg.state(), umpire::core::ruleset::Side(s));
                tot += t.elapsed();
                n += 1;
                if k == 40 && !l.is_empty() {
                    eprintln!("{:?}", &l[..l.len().min(5)]);
                }
            }
        }
    }
    eprintln!("legal avg {:?} over {n}", tot / n);
}
