//! A Distant Plain's orders (Operations, Events, Propaganda plans, choices
//! asked in another's Event, Deception, transfers, concessions) and standing
//! orders, read at positions of self-played games and carried out
//! (`umpire_core::grammar_fuzz`).
#![no_main]

#[path = "orders/mod.rs"]
mod orders;

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use umpire_core::grammar_fuzz::{Grammar, Walk};

static G: OnceLock<Grammar> = OnceLock::new();

fn grammar() -> &'static Grammar {
    G.get_or_init(|| {
        orders::grammar(
            "adp",
            &[
                // No game with Non-players: their turns cost a third of a
                // second each to play here, and the target must start in
                // seconds; the players' grammar is the same.
                Walk::new("standin", &[("deception", "yes")], 1, 1500),
                Walk::new("standin-3p", &[("sudden_propaganda", "yes")], 3, 1500),
                Walk::new("standin-2p-alt", &[("short", "yes")], 4, 1500),
            ],
        )
    })
}

fuzz_target!(init: { grammar(); }, |data: &[u8]| grammar().run(data));
