//! Lest Darkness Fall's orders and standing orders, read at positions of a
//! self-played campaign and carried out (`umpire_core::grammar_fuzz`).
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
            "ldf",
            &[
                Walk::new("campaign", &[], 1, 4000),
            ],
        )
    })
}

fuzz_target!(init: { grammar(); }, |data: &[u8]| grammar().run(data));
