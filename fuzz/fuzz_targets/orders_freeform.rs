//! Freeform's orders and standing orders, read at positions of self-played
//! games (fixed, declared and simultaneous order; secrets, a deck and hands)
//! and carried out (`umpire_core::grammar_fuzz`).
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
            "freeform",
            &[
                Walk::new("open", &[], 1, 300),
                Walk::new("open", &[("order", "declared"), ("turns", "6")], 2, 300),
                Walk::new(
                    "open",
                    &[
                        ("order", "simultaneous"),
                        ("secrets", "on"),
                        ("deck.cards", "a,b,c,d,e,f,g,h,i,j,k,l"),
                        ("hand.cards", "2"),
                        ("turns", "8"),
                    ],
                    3,
                    300,
                ),
            ],
        )
    })
}

fuzz_target!(init: { grammar(); }, |data: &[u8]| grammar().run(data));
