//! Lest Darkness Fall through its ruleset alone: the rulebook's rules and
//! worked examples, the defects found against it, and self-play. One test
//! binary, `cargo test -p umpire-ldf`; a game edit relinks nothing of the
//! mail stack for it.

mod defects;
mod examples;
mod kit;
mod rules;
mod selfplay;
