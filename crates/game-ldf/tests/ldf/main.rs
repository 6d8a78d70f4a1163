//! Lest Darkness Fall through its ruleset alone: the rulebook's rules and
//! worked examples, the defects found against it, and self-play. One test
//! binary, `cargo test -p umpire-ldf`; a game edit relinks nothing of the
//! mail stack for it.

// A failed unwrap is a failed test: the layer crates deny unwrap and expect
// in their libraries, and the kit's helpers are not `#[test]` functions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod defects;
mod examples;
mod kit;
mod rules;
mod selfplay;
