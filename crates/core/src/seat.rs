//! Seats taken by mail: the signed `join` a player mails for an open seat,
//! and the record's entry that seats him.
//!
//! A game may be created with open seats: its opening declares such a side
//! with no key and no address (`SideDecl::is_open`). A player asks for a seat
//! with a join file, signed like a move by the key it names:
//!
//! ```text
//! game: sarhu-club-7
//! side: ming              # or: any
//! join: ssh-ed25519 AAAA… alice@home
//! name: Alice Smith       # optional
//! ```
//!
//! The signature over the file's bytes by the key in the file proves that the
//! sender holds that key. Once the admin (or the game's first-come rule)
//! seats him, an admin entry (`AdminAct::Seat`) keeps the join file, its
//! signature, the key and the address, so a verifier knows the side's key from
//! that entry on and can check that its holder asked for the seat.

use crate::movefile::{MoveFileError, check_game_id, check_side_name};
use crate::sig::{MOVE_NAMESPACE, PublicKey, SigError};
use serde::{Deserialize, Serialize};

/// Largest join file accepted (it holds four short lines).
pub const MAX_JOIN_BYTES: usize = 4096;
/// Longest display name.
pub const MAX_NAME_LEN: usize = 64;
/// What `side:` says to take whichever seat is open.
pub const ANY_SIDE: &str = "any";

/// A player's request for a seat, read from the signed bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JoinFile {
    /// The game asked for.
    pub game: String,
    /// The side asked for, lower case; `None` for `side: any`.
    pub side: Option<String>,
    /// The key the player will sign his moves with (and signed this file with).
    pub key: PublicKey,
    /// The name the player goes by, if given.
    pub name: String,
}

/// The record's account of a seat taken: who asked, with what, and where his
/// mails go. Kept whole in every copy (a join hides nothing; addresses stand
/// in the record as the opening's do).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seating {
    /// The side seated.
    pub side: String,
    /// Its key from this entry on (OpenSSH line).
    pub key: String,
    /// Where its mails go.
    pub email: String,
    /// The player's display name, if the join gave one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The exact signed bytes of the join file.
    pub join: String,
    /// The armored SSHSIG over `join`, by `key`.
    pub signature: String,
}

/// Does this file ask for a seat? A join file has a `join:` header line (a
/// move file never does, so one is never read as the other).
pub fn is_join(bytes: &[u8]) -> bool {
    bytes.len() <= 64 * 1024
        && bytes
            .split(|b| *b == b'\n')
            .any(|l| l.len() >= 5 && l[..5].eq_ignore_ascii_case(b"join:"))
}

fn err(line: usize, message: impl Into<String>) -> MoveFileError {
    MoveFileError {
        line,
        column: 1,
        message: message.into(),
    }
}

impl JoinFile {
    /// Reads a join file; every error names its line.
    pub fn parse(bytes: &[u8]) -> Result<JoinFile, MoveFileError> {
        if bytes.len() > MAX_JOIN_BYTES {
            return Err(err(
                1,
                format!(
                    "the join file is {} bytes; the limit is {MAX_JOIN_BYTES}",
                    bytes.len()
                ),
            ));
        }
        let text = std::str::from_utf8(bytes).map_err(|_| err(1, "not UTF-8 text"))?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut fields: [Option<(usize, String)>; 4] = Default::default();
        const KEYS: [&str; 4] = ["game", "side", "join", "name"];
        for (i, raw) in text.split('\n').enumerate() {
            let line = i + 1;
            let t = raw.trim();
            if t.is_empty() || t.starts_with('#') || t.starts_with("//") {
                continue;
            }
            let Some((k, v)) = t.split_once(':') else {
                return Err(err(line, format!("expected `key: value`, found {t:?}")));
            };
            let k = k.trim().to_ascii_lowercase();
            let Some(slot) = KEYS.iter().position(|x| *x == k) else {
                return Err(err(
                    line,
                    format!("unknown line {k:?}: a join file has game:, side:, join: and name:"),
                ));
            };
            if fields[slot].is_some() {
                return Err(err(line, format!("{k}: given twice")));
            }
            fields[slot] = Some((line, v.trim().to_string()));
        }
        let [game, side, join, name] = fields;
        let (gl, game) = game.ok_or_else(|| err(1, "no game: line (the game you join)"))?;
        check_game_id(&game).map_err(|e| err(gl, e.to_string()))?;
        let (sl, side) =
            side.ok_or_else(|| err(1, "no side: line (the side you ask for, or `side: any`)"))?;
        let side = side.to_ascii_lowercase();
        let side = if side == ANY_SIDE {
            None
        } else {
            check_side_name(&side).map_err(|e| err(sl, e.to_string()))?;
            Some(side)
        };
        let (jl, key) = join.ok_or_else(|| {
            err(
                1,
                "no join: line (your OpenSSH ed25519 public key, `ssh-ed25519 AAAA…`)",
            )
        })?;
        let key = PublicKey::parse(&key).map_err(|e| err(jl, format!("join: {e}")))?;
        let name = match name {
            Some((nl, n)) => {
                if n.chars().count() > MAX_NAME_LEN || n.chars().any(char::is_control) {
                    return Err(err(
                        nl,
                        format!("name: at most {MAX_NAME_LEN} characters on one line"),
                    ));
                }
                n
            }
            None => String::new(),
        };
        Ok(JoinFile {
            game,
            side,
            key,
            name,
        })
    }

    /// Checks that `signature` over `bytes` (this file's bytes) was made by
    /// the key the file names: proof that the sender holds it.
    pub fn verify(&self, bytes: &[u8], signature: &str) -> Result<(), SigError> {
        self.key.verify(MOVE_NAMESPACE, bytes, signature)
    }
}

/// Why a recorded seating does not stand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeatingError {
    #[error("the join file does not read: {0}")]
    Unreadable(MoveFileError),
    #[error("the join file names game {found:?}, not {game:?}")]
    OtherGame { found: String, game: String },
    #[error("the join file asks for side {asked}, not {side}")]
    OtherSide { asked: String, side: String },
    #[error("the key seated is not the key in the join file")]
    OtherKey,
    #[error("the join file's signature does not hold with its key: {0}")]
    Signature(SigError),
}

impl Seating {
    /// Checks the seating against its join file: the file reads, names this
    /// game, this side (or any) and this key, and its signature holds with
    /// that key.
    pub fn check(&self, game: &str) -> Result<JoinFile, SeatingError> {
        let file = JoinFile::parse(self.join.as_bytes()).map_err(SeatingError::Unreadable)?;
        if file.game != game {
            return Err(SeatingError::OtherGame {
                found: file.game,
                game: game.to_string(),
            });
        }
        if let Some(asked) = &file.side
            && asked != &self.side
        {
            return Err(SeatingError::OtherSide {
                asked: asked.clone(),
                side: self.side.clone(),
            });
        }
        let key = PublicKey::parse(&self.key).map_err(SeatingError::Signature)?;
        if key.raw() != file.key.raw() {
            return Err(SeatingError::OtherKey);
        }
        file.verify(self.join.as_bytes(), &self.signature)
            .map_err(SeatingError::Signature)?;
        Ok(file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sig::SecretKey;

    fn key() -> SecretKey {
        SecretKey::from_seed(&[7; 32], "alice@home").unwrap()
    }

    fn file(side: &str) -> String {
        format!(
            "game: club-1\nside: {side}\njoin: {}\nname: Alice Smith\n",
            key().public_line()
        )
    }

    #[test]
    fn a_join_file_reads() {
        let j = JoinFile::parse(file("Ming").as_bytes()).unwrap();
        assert_eq!(j.game, "club-1");
        assert_eq!(j.side.as_deref(), Some("ming"));
        assert_eq!(j.name, "Alice Smith");
        assert_eq!(JoinFile::parse(file("any").as_bytes()).unwrap().side, None);
        assert!(is_join(file("any").as_bytes()));
        assert!(!is_join(b"game: club-1\nside: ming\norders:\n  pass\n"));
    }

    #[test]
    fn bad_join_files_name_their_line() {
        let e = JoinFile::parse(b"game: club-1\nside: ming\njoin: ssh-rsa AAAA\n").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = JoinFile::parse(b"game: club-1\njoin: x\norders:\n").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = JoinFile::parse(b"join: x\n").unwrap_err();
        assert!(e.message.contains("game:"), "{e}");
    }

    #[test]
    fn a_seating_checks_its_join() {
        let text = file("ming");
        let signature = key().sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
        let s = Seating {
            side: "ming".into(),
            key: key().public_line(),
            email: "alice@home.test".into(),
            name: "Alice Smith".into(),
            join: text,
            signature,
        };
        assert!(s.check("club-1").is_ok());
        assert!(matches!(
            s.check("club-2"),
            Err(SeatingError::OtherGame { .. })
        ));
        let other = Seating {
            side: "jurchen".into(),
            ..s.clone()
        };
        assert!(matches!(
            other.check("club-1"),
            Err(SeatingError::OtherSide { .. })
        ));
        let forged = Seating {
            join: s.join.replace("Alice", "Mallory"),
            ..s
        };
        assert!(matches!(
            forged.check("club-1"),
            Err(SeatingError::Signature(_))
        ));
    }
}
