//! A Distant Plain through its ruleset alone: the rulebook's rules and
//! examples, the fixture map, self-play and the (ignored) balance
//! measurement. One test binary, `cargo test -p umpire-adp`.

// A failed unwrap is a failed test: the layer crates deny unwrap and expect
// in their libraries, and the kit's helpers are not `#[test]` functions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod balance;
mod examples;
mod explain;
mod fixture;
mod kit;
mod rules;
mod selfplay;

/// The shared test kit, its `table` over this game's own ruleset (the kit's
/// looks a name up in the registry of every game, which these tests do not link).
mod common {
    pub use umpire_testkit::*;

    /// A game of A Distant Plain at its opening: [`table_with`] on the embedded data.
    pub fn table(ruleset: &str, scenario: &str, sides: &[&str], options: &[(&str, &str)]) -> Table {
        table_with(
            umpire_adp::DESCRIPTOR.ruleset(),
            ruleset,
            scenario,
            sides,
            options,
        )
    }
}
