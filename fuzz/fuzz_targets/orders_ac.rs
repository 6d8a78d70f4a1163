//! Asia Crossroads' orders (set-up placement chosen and sealed, every
//! optional rule), standing orders, read at positions of self-played games
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
            "ac",
            &[
                Walk::new("s1", &[], 1, 3000),
                Walk::new(
                    "s3",
                    &[
                        ("setup", "sealed"),
                        ("ultimatums", "on"),
                        ("staff_work", "on"),
                        ("forced_march", "on"),
                        ("telegraph", "on"),
                        ("massacre", "on"),
                        ("discoveries", "on"),
                    ],
                    2,
                    3000,
                ),
            ],
        )
    })
}

fuzz_target!(init: { grammar(); }, |data: &[u8]| grammar().run(data));
