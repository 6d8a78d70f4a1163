//! Press: table talk between sides, relayed by the umpire and kept in the
//! record. A side writes it in a signed file, as the section `press to:`
//! (after any orders), or in a file whose only content is that section:
//!
//! ```text
//! game: club7
//! side: british
//! press to: russian, prussian
//!   Hold the line at the river; I will cover your flank.
//! ```
//!
//! `press to: all` is a broadcast, seen by every side and the public; a
//! message to some sides is private: the record keeps it as one sealed item
//! per side of the game (the message for the sender and each recipient,
//! nothing for the others), so a side that is not a party learns that an
//! entry exists and nothing of its sender, recipients or text until the
//! game ends. A press entry changes nothing in the game.

use crate::movefile::MoveFileError;
use crate::sealed::Hidden;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What press a game allows (`umpire new --option press=...`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PressMode {
    /// No press at all.
    None,
    /// Broadcasts (`press to: all`) only.
    Public,
    /// Broadcasts and messages to some sides.
    Private,
}

impl PressMode {
    /// Reads `none`, `public` or `private` (any case).
    pub fn parse(s: &str) -> Option<PressMode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" | "no" => Some(PressMode::None),
            "public" | "broadcast" => Some(PressMode::Public),
            "private" | "full" => Some(PressMode::Private),
            _ => None,
        }
    }

    /// The mode as written in options and mails.
    pub fn as_str(self) -> &'static str {
        match self {
            PressMode::None => "none",
            PressMode::Public => "public",
            PressMode::Private => "private",
        }
    }

    /// What players may send, in a sentence.
    pub fn describe(self) -> &'static str {
        match self {
            PressMode::None => "no press: this game relays no messages between sides",
            PressMode::Public => "public press: messages to all sides (`press to: all`) only",
            PressMode::Private => {
                "private press: messages to all sides (`press to: all`) or to some (`press to: SIDE, SIDE`)"
            }
        }
    }
}

impl fmt::Display for PressMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who a press section is addressed to, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PressTo {
    /// `press to: all`: every side, and the public.
    All,
    /// Some sides, by name (lower case, in the order written, no repeats).
    Sides(Vec<String>),
}

/// The press section of a signed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PressSection {
    /// The line of `press to:`.
    pub line: usize,
    pub to: PressTo,
    /// The message: its lines without the indentation, blank lines kept
    /// between paragraphs, comment lines dropped.
    pub message: String,
}

/// Longest message in one press section (the file's own cap bounds it too).
pub const MAX_PRESS_BYTES: usize = 16 * 1024;

/// Reads the recipients of `press to: VALUE` on line `n` (value at column `vcol`).
pub fn parse_recipients(value: &str, n: usize, vcol: usize) -> Result<PressTo, MoveFileError> {
    let bad = |m: String| MoveFileError {
        line: n,
        column: vcol,
        message: m,
    };
    let names: Vec<String> = value
        .split([',', ' ', '\t'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    if names.is_empty() {
        return Err(bad(
            "`press to:` needs the sides it is for (`press to: all`, or side names separated by commas)".into(),
        ));
    }
    if names.iter().any(|n| n == "all") {
        if names.len() > 1 {
            return Err(bad(
                "`press to: all` goes to every side: name no other side with it".into(),
            ));
        }
        return Ok(PressTo::All);
    }
    let mut out: Vec<String> = Vec::new();
    for name in names {
        crate::movefile::check_side_name(&name).map_err(|e| bad(e.to_string()))?;
        if !out.contains(&name) {
            out.push(name);
        }
    }
    Ok(PressTo::Sides(out))
}

/// One message as the record keeps it: who sent it, to whom, and the
/// signed file it came in (the message is its press section).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Press {
    /// The sending side.
    pub from: String,
    /// The recipients by name; empty for a broadcast.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub to: Vec<String>,
    /// The exact signed bytes of the file.
    pub text: String,
    /// The armored SSHSIG over `text` by the sender's key.
    pub signature: String,
}

/// A press entry of the record. A broadcast is kept in the clear; a
/// private message as one sealed item per side of the game, in the
/// opening's order of sides, each sealed to that side alone: the message
/// for its sender and recipients, `null` for the others. Every copy shows
/// the same number of items sealed to the same sides, so a side that is no
/// party learns only that the entry exists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PressEntry {
    /// A broadcast.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public: Option<Press>,
    /// A private message, one item per side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sealed: Vec<Hidden<Option<Press>>>,
    /// When it was received. Informative only.
    pub at: String,
}

impl PressEntry {
    /// The message this copy holds, if any (a broadcast, or a private
    /// message whose opening this copy keeps).
    pub fn press(&self) -> Option<&Press> {
        self.public.as_ref().or_else(|| {
            self.sealed
                .iter()
                .find_map(|h| h.value().and_then(Option::as_ref))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipients_read_all_or_side_names() {
        assert_eq!(parse_recipients(" ALL ", 3, 11).unwrap(), PressTo::All);
        assert_eq!(
            parse_recipients("British,  russian british", 3, 11).unwrap(),
            PressTo::Sides(vec!["british".into(), "russian".into()])
        );
        let e = parse_recipients("all, british", 3, 11).unwrap_err();
        assert_eq!((e.line, e.column), (3, 11));
        assert!(parse_recipients("", 3, 11).is_err());
        assert!(parse_recipients("brit/ish", 3, 11).is_err());
    }

    #[test]
    fn modes_read_and_print() {
        for m in [PressMode::None, PressMode::Public, PressMode::Private] {
            assert_eq!(PressMode::parse(m.as_str()), Some(m));
        }
        assert_eq!(PressMode::parse("loud"), None);
    }
}
