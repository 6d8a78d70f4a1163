//! Asia Crossroads through its ruleset alone: the rulebook's rules and
//! example passages, the version 9 audit, and self-play. One test binary,
//! `cargo test -p umpire-ac`.

// A failed unwrap is a failed test: the layer crates deny unwrap and expect
// in their libraries, and the kit's helpers are not `#[test]` functions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod audit;
mod examples;
mod explain;
mod kit;
mod rules;
mod selfplay;
