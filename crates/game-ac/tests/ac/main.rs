//! Asia Crossroads through its ruleset alone: the rulebook's rules and
//! example passages, the version 9 audit, and self-play. One test binary,
//! `cargo test -p umpire-ac`.

mod audit;
mod examples;
mod kit;
mod rules;
mod selfplay;
