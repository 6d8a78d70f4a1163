//! Strike on Sarhu 1619 through its ruleset alone: the rulebook's examples
//! and rules, and self-play. One test binary, `cargo test -p umpire-sarhu`.

// A failed unwrap is a failed test: the layer crates deny unwrap and expect
// in their libraries, and the kit's helpers are not `#[test]` functions.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod legal;
mod rules;
mod selfplay;

/// The shared test kit, its `table` over this game's own ruleset (the kit's
/// looks a name up in the registry of every game, which these tests do not link).
mod common {
    pub use umpire_testkit::*;

    /// A game of Strike on Sarhu at its opening: [`table_with`] on the embedded data.
    pub fn table(ruleset: &str, scenario: &str, sides: &[&str], options: &[(&str, &str)]) -> Table {
        table_with(
            umpire_sarhu::DESCRIPTOR.ruleset(),
            ruleset,
            scenario,
            sides,
            options,
        )
    }
}
