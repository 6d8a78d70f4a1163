//! Acts the engine carries out itself, whatever the ruleset, and their record
//! entries: a side's concession and draw offers (signed like moves), and the
//! club admin's acts (ending a game, replacing a side's key or address).
//!
//! A side writes an act as the only order of a move:
//!
//! ```text
//! orders:
//!   offer draw
//! ```
//!
//! `concede`, `offer draw`, `accept draw` and `decline draw`. See
//! `core::game::acts` for what each does.

use serde::{Deserialize, Serialize};

/// A side's act, written as the only order line of a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Act {
    /// The side gives up: every other side wins.
    Concede,
    /// The side offers a draw; every other side must accept it.
    OfferDraw,
    /// The side accepts the open draw offer.
    AcceptDraw,
    /// The side declines the open draw offer, which ends it.
    DeclineDraw,
}

impl Act {
    /// Every act, in the order the help text lists them.
    pub const ALL: [Act; 4] = [
        Act::Concede,
        Act::OfferDraw,
        Act::AcceptDraw,
        Act::DeclineDraw,
    ];

    /// Reads an order line as an act (case and spacing do not matter).
    pub fn parse(line: &str) -> Option<Act> {
        let words: Vec<String> = line
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect();
        Act::ALL
            .into_iter()
            .find(|a| a.text().split(' ').eq(words.iter().map(String::as_str)))
    }

    /// The act as a player writes it.
    pub fn text(self) -> &'static str {
        match self {
            Act::Concede => "concede",
            Act::OfferDraw => "offer draw",
            Act::AcceptDraw => "accept draw",
            Act::DeclineDraw => "decline draw",
        }
    }
}

/// How a game ended by an act, by side names.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// The winning sides (empty for a draw).
    pub winners: Vec<String>,
    pub summary: String,
}

/// A side's act, signed like a move. Kept whole in every copy: an act hides
/// nothing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActEntry {
    pub side: String,
    pub act: Act,
    /// The exact signed bytes of the move file.
    pub text: String,
    /// The armored SSHSIG over `text`.
    pub signature: String,
    /// Set when the act ends the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
    /// The entry the act is bound to: the draw offer an `accept draw` or
    /// `decline draw` answers, else the entry its `after:` names. Every act
    /// is bound so (`core::game::acts`); an act recorded before acts were
    /// bound has none and replays as it was judged then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<u64>,
    /// When it was received. Informative only.
    pub at: String,
}

/// What the club's admin did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdminAct {
    /// Ends the game with a stated result.
    End(Ending),
    /// A side's moves are signed by this key from here on.
    Key { side: String, key: String },
    /// A side's mails go to this address from here on.
    Address { side: String, email: String },
    /// A side's deadline settings from here on (its own `timezone:` and
    /// `away:` requests): kept in the record so they survive an import.
    /// Empty strings: UTC, not away.
    Settings {
        side: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        time_zone: String,
        #[serde(default, skip_serializing_if = "String::is_empty")]
        away: String,
    },
    /// A player takes an open seat by his signed join (`core::seat`): the
    /// side's key and address from here on.
    Seat(crate::seat::Seating),
}

/// An act of the club's admin (`umpire admin ...`), made by the umpire in
/// the record so that a verifier knows, for example, a side's new key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdminEntry {
    pub act: AdminAct,
    /// Why, in the admin's words.
    pub reason: String,
    /// For settings a side asked for by a signed request: the SHA-256 of the
    /// request's signed text, so a copy of the request is known as one
    /// wherever the record goes (a copy changes nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<crate::hash::Digest>,
    pub at: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acts_read_in_any_case_and_spacing() {
        assert_eq!(Act::parse("concede"), Some(Act::Concede));
        assert_eq!(Act::parse("  Offer   DRAW "), Some(Act::OfferDraw));
        assert_eq!(Act::parse("accept draw"), Some(Act::AcceptDraw));
        assert_eq!(Act::parse("decline draw"), Some(Act::DeclineDraw));
        assert_eq!(Act::parse("offer draw now"), None);
        assert_eq!(Act::parse("draw"), None);
    }
}
