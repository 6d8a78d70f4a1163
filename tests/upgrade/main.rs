//! Old records and new rulesets: every golden record verifies and replays
//! identically, and games move on to a new ruleset version or stay.

mod golden;
mod upgrade;
mod upgrade_mail;
