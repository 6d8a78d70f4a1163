//! A Distant Plain: the balance of random self-play, per seating mode. Not a
//! test of the rules: a documented measurement, ignored by default, run with
//! `cargo test --release --test adp_balance -- --ignored --nocapture`
//! (`ADP_BALANCE_GAMES`, default 26 a mode; `ADP_BALANCE_MODES=a,b` for some
//! modes only; `ADP_BALANCE_VERBOSE=1` for every game's margins).

use std::collections::BTreeMap;
use std::sync::Arc;
use umpire::core::selfplay::{self, SelfPlayConfig};
use umpire::games::adp::Adp;

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
