//! Move files: plain text a person writes in any editor, signed as raw bytes.
//!
//! ```text
//! game: sarhu-club-7
//! side: ming
//! after: 3f2a…            # the record entry this move follows
//! orders:
//!   move du-song: 0712 0713 0813
//!   fire 0813 -> 0914
//! standing:
//!   losses: flip-first
//! ```
//!
//! Header lines are `key: value`. `orders:` and `standing:` open sections that
//! run until the next header key at the start of a line. Blank lines and lines
//! starting with `#` or `//` are comments. Every error names line and column.

use super::hash::Digest;
use super::press::{MAX_PRESS_BYTES, PressSection, PressTo, parse_recipients};
use std::fmt;

/// First line of an armored move pasted into a mail body.
pub const BEGIN_MOVE: &str = "-----BEGIN UMPIRE MOVE-----";
/// Last line of an armored move.
pub const END_MOVE: &str = "-----END UMPIRE MOVE-----";
/// First line of an SSH signature block.
pub const BEGIN_SIG: &str = "-----BEGIN SSH SIGNATURE-----";
/// Last line of an SSH signature block.
pub const END_SIG: &str = "-----END SSH SIGNATURE-----";
/// Largest move file accepted.
pub const MAX_MOVE_BYTES: usize = 64 * 1024;

/// Most commands (`command:`, `away:`, `timezone:`) in one move file: each
/// is answered by a mail of its own.
pub const MAX_COMMANDS: usize = 8;
/// Longest game id.
pub const MAX_ID_LEN: usize = 64;
/// Longest side name.
pub const MAX_SIDE_LEN: usize = 32;

/// A game id or side name that may not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error("game id {0:?}: use 1 to {MAX_ID_LEN} letters, digits, '-', '_' or '.' (not first)")]
    GameId(String),
    #[error("side {0:?}: use 1 to {MAX_SIDE_LEN} letters, digits, '-' or '_'")]
    SideName(String),
}

/// Checks a game id: 1 to [`MAX_ID_LEN`] ASCII letters, digits, `-`, `_` or
/// `.`, not starting with `.`. Ids name store keys, outbox files and
/// Message-IDs, so they never hold control, path or separator characters.
pub fn check_game_id(id: &str) -> Result<(), IdError> {
    let ok = !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(IdError::GameId(id.to_string()))
    }
}

/// Checks a side name: 1 to [`MAX_SIDE_LEN`] ASCII letters, digits, `-` or `_`.
pub fn check_side_name(name: &str) -> Result<(), IdError> {
    let ok = !name.is_empty()
        && name.len() <= MAX_SIDE_LEN
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
    if ok {
        Ok(())
    } else {
        Err(IdError::SideName(name.to_string()))
    }
}

/// One line of a move file's section, with where it stands in the file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SourceLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// 1-based column where `text` starts.
    pub column: usize,
    /// The line without indentation, comment or line ending.
    pub text: String,
}

impl fmt::Display for SourceLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.text)
    }
}

/// Requests a player may put in a signed message instead of (or besides) orders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Send the current situation again.
    Status,
    /// Send the last result again.
    Resend,
    /// List the orders legal now.
    Orders,
    /// Send the record file.
    Record,
    /// Send the whole map as this side sees it.
    Map,
    /// Away until a date (`YYYY-MM-DD`), or back (`None`).
    Away(Option<String>),
    /// Show my deadlines in this IANA time zone (`Europe/Berlin`).
    TimeZone(String),
}

/// A parsed move file. The bytes it came from are what was signed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveFile {
    /// The game id.
    pub game: String,
    /// The side the signer plays.
    pub side: String,
    /// The record entry this move follows.
    pub after: Option<Digest>,
    /// Orders, in the order written.
    pub orders: Vec<SourceLine>,
    /// Standing orders, if the file sets them (an empty list clears them).
    pub standing: Option<Vec<SourceLine>>,
    /// Requests (`command: status`, `away: 2026-12-12`).
    pub commands: Vec<(Command, usize)>,
    /// A message to other sides (`press to:`), relayed by the umpire; it
    /// changes nothing in the game (`core::press`).
    pub press: Option<PressSection>,
}

/// A move file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct MoveFileError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

fn err(line: usize, column: usize, message: impl Into<String>) -> MoveFileError {
    MoveFileError {
        line,
        column,
        message: message.into(),
    }
}

const KEYS: &[&str] = &[
    "game", "side", "after", "orders", "standing", "command", "away", "timezone", "press to",
    "press",
];

/// Splits `key: value` when `key` is one of ours and starts the line.
fn header_key(raw: &str) -> Option<(&'static str, &str)> {
    if raw.starts_with([' ', '\t']) {
        return None;
    }
    let (k, v) = raw.split_once(':')?;
    let k = k.trim().to_ascii_lowercase();
    KEYS.iter().find(|key| **key == k).map(|key| (*key, v))
}

fn is_comment(t: &str) -> bool {
    t.is_empty() || t.starts_with('#') || t.starts_with("//")
}

impl MoveFile {
    /// Parses the bytes of a move file.
    pub fn parse(bytes: &[u8]) -> Result<MoveFile, MoveFileError> {
        let text = decode(bytes)?;
        let mut file = Reading::default();
        for (i, raw) in text.split('\n').enumerate() {
            file.line(i + 1, raw.strip_suffix('\r').unwrap_or(raw))?;
        }
        file.finish()
    }
}

/// The bytes of a move file as text: within the size cap, UTF-8 (the
/// error names the line and column of the first bad byte), no BOM.
fn decode(bytes: &[u8]) -> Result<&str, MoveFileError> {
    if bytes.len() > MAX_MOVE_BYTES {
        return Err(err(
            1,
            1,
            format!(
                "move file is {} bytes; the limit is {MAX_MOVE_BYTES}",
                bytes.len()
            ),
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let upto = &bytes[..e.valid_up_to()];
        let line = upto.iter().filter(|b| **b == b'\n').count() + 1;
        let col = upto.len() - upto.iter().rposition(|b| *b == b'\n').map_or(0, |p| p + 1) + 1;
        err(line, col, "not UTF-8 text")
    })?;
    Ok(text.strip_prefix('\u{feff}').unwrap_or(text))
}

/// Which part of the file a line without a header key belongs to.
#[derive(Default, PartialEq)]
enum Section {
    #[default]
    Header,
    Orders,
    Standing,
    Press,
}

/// A move file read so far, line by line.
#[derive(Default)]
struct Reading {
    game: Option<String>,
    side: Option<String>,
    after: Option<Digest>,
    orders: Option<Vec<SourceLine>>,
    standing: Option<Vec<SourceLine>>,
    commands: Vec<(Command, usize)>,
    /// `press to:`: its line, recipients and message lines so far.
    press: Option<(usize, PressTo, Vec<String>)>,
    section: Section,
}

impl Reading {
    /// Line `n` (without its line end).
    fn line(&mut self, n: usize, raw: &str) -> Result<(), MoveFileError> {
        let trimmed = raw.trim();
        // A message keeps its blank lines (paragraphs); its comment lines go.
        if self.section == Section::Press
            && trimmed.is_empty()
            && let Some((_, _, lines)) = &mut self.press
        {
            lines.push(String::new());
            return Ok(());
        }
        if is_comment(trimmed) {
            return Ok(());
        }
        let column = raw.len() - raw.trim_start().len() + 1;
        if let Some((key, value)) = header_key(raw) {
            let vcol = key.len() + 2 + (value.len() - value.trim_start().len());
            // A trailing `# comment` explains a header as it does an order.
            let value = strip_trailing_comment(value.trim());
            self.section = Section::Header;
            self.header(n, key, value, vcol)?;
            if self.commands.len() > MAX_COMMANDS {
                return Err(err(
                    n,
                    1,
                    format!("at most {MAX_COMMANDS} commands in one file"),
                ));
            }
            return Ok(());
        }
        let line = SourceLine {
            line: n,
            column,
            text: strip_trailing_comment(trimmed).to_string(),
        };
        match self.section {
            Section::Orders => self.orders.get_or_insert_with(Vec::new).push(line),
            Section::Standing => self.standing.get_or_insert_with(Vec::new).push(line),
            // A message is not an order: its `#` is text, not a comment.
            Section::Press => {
                if let Some((_, _, lines)) = &mut self.press {
                    lines.push(trimmed.to_string());
                }
            }
            Section::Header => {
                let word = trimmed.split(':').next().unwrap_or(trimmed);
                return Err(err(
                    n,
                    column,
                    format!(
                        "unknown header {word:?}; a move file has game:, side:, after:, orders:, standing:, command:, away:, timezone:"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A header line: `key:` with its `value` starting at column `vcol`.
    fn header(
        &mut self,
        n: usize,
        key: &'static str,
        value: &str,
        vcol: usize,
    ) -> Result<(), MoveFileError> {
        let once = |already: bool| {
            if already {
                Err(err(n, 1, format!("`{key}:` given twice")))
            } else {
                Ok(())
            }
        };
        // The value as the first line of its section, if it has one.
        let first = |skip: bool| {
            let mut v = Vec::new();
            if !skip {
                v.push(SourceLine {
                    line: n,
                    column: vcol,
                    text: value.to_string(),
                });
            }
            v
        };
        match key {
            "game" => {
                once(self.game.is_some())?;
                if value.is_empty() {
                    return Err(err(n, vcol, "`game:` needs the game id"));
                }
                check_game_id(value).map_err(|m| err(n, vcol, m.to_string()))?;
                self.game = Some(value.to_string());
            }
            "side" => {
                once(self.side.is_some())?;
                if value.is_empty() {
                    return Err(err(n, vcol, "`side:` needs your side's name"));
                }
                check_side_name(value).map_err(|m| err(n, vcol, m.to_string()))?;
                self.side = Some(value.to_ascii_lowercase());
            }
            "after" => {
                once(self.after.is_some())?;
                let d: Digest = value.parse().map_err(|_| {
                    err(
                        n,
                        vcol,
                        "`after:` must be the 64-digit record head hash from the last result mail",
                    )
                })?;
                self.after = Some(d);
            }
            "orders" => {
                once(self.orders.is_some())?;
                self.orders = Some(first(value.is_empty()));
                self.section = Section::Orders;
            }
            "standing" => {
                once(self.standing.is_some())?;
                self.standing = Some(first(
                    value.is_empty() || value.eq_ignore_ascii_case("clear"),
                ));
                self.section = Section::Standing;
            }
            "command" => self.commands.push((command(value, n, vcol)?, n)),
            "away" => self.commands.push((away(value, n, vcol)?, n)),
            "timezone" => self.commands.push((time_zone(value, n, vcol)?, n)),
            "press to" | "press" => {
                once(self.press.is_some())?;
                let value = value.strip_prefix("to ").unwrap_or(value);
                self.press = Some((n, parse_recipients(value, n, vcol)?, Vec::new()));
                self.section = Section::Press;
            }
            _ => unreachable!("KEYS lists only the keys above"),
        }
        Ok(())
    }

    /// The whole file read: it names its game and side, and holds orders
    /// (after the head they answer), standing orders or commands.
    fn finish(self) -> Result<MoveFile, MoveFileError> {
        let game = self.game.ok_or_else(|| err(1, 1, "no `game:` line"))?;
        let side = self.side.ok_or_else(|| err(1, 1, "no `side:` line"))?;
        let orders = self.orders.unwrap_or_default();
        if !orders.is_empty() && self.after.is_none() {
            return Err(err(
                orders[0].line,
                1,
                "orders need an `after:` line naming the record head hash from your last result mail",
            ));
        }
        let press = self.press.map(press_section).transpose()?;
        if orders.is_empty()
            && self.standing.is_none()
            && self.commands.is_empty()
            && press.is_none()
        {
            return Err(err(
                1,
                1,
                "the file holds no orders, standing orders or commands",
            ));
        }
        Ok(MoveFile {
            game,
            side,
            after: self.after,
            orders,
            standing: self.standing,
            commands: self.commands,
            press,
        })
    }
}

/// The press section read: a message of at least one line, within
/// [`MAX_PRESS_BYTES`].
fn press_section(
    (line, to, mut lines): (usize, PressTo, Vec<String>),
) -> Result<PressSection, MoveFileError> {
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let start = lines.iter().take_while(|l| l.is_empty()).count();
    let message = lines[start..].join("\n");
    if message.is_empty() {
        return Err(err(
            line,
            1,
            "`press to:` needs a message: write it on the lines after, indented",
        ));
    }
    if message.len() > MAX_PRESS_BYTES {
        return Err(err(
            line,
            1,
            format!(
                "the message is {} bytes; the limit is {MAX_PRESS_BYTES}",
                message.len()
            ),
        ));
    }
    Ok(PressSection { line, to, message })
}

/// `command: NAME` on line `n`.
fn command(value: &str, n: usize, vcol: usize) -> Result<Command, MoveFileError> {
    Ok(match value.to_ascii_lowercase().as_str() {
        "status" => Command::Status,
        "resend" => Command::Resend,
        "orders" | "help" => Command::Orders,
        "record" => Command::Record,
        "map" => Command::Map,
        other => {
            return Err(err(
                n,
                vcol,
                format!("unknown command {other:?}; known: status, resend, orders, record, map"),
            ));
        }
    })
}

/// `away: [until] YYYY-MM-DD` (or `back`, `none`) on line `n`.
fn away(value: &str, n: usize, vcol: usize) -> Result<Command, MoveFileError> {
    let v = value.to_ascii_lowercase();
    let v = v.strip_prefix("until").map(str::trim).unwrap_or(&v);
    if v == "back" || v == "none" {
        Ok(Command::Away(None))
    } else if is_date(v) {
        Ok(Command::Away(Some(v.to_string())))
    } else {
        Err(err(
            n,
            vcol,
            "`away:` takes a date as YYYY-MM-DD (or `back`)",
        ))
    }
}

/// `timezone: Area/City` on line `n`: only the characters of IANA names.
fn time_zone(value: &str, n: usize, vcol: usize) -> Result<Command, MoveFileError> {
    let ok = !value.is_empty()
        && value.len() <= 64
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/_+-".contains(c));
    if !ok {
        return Err(err(
            n,
            vcol,
            "`timezone:` takes an IANA zone name, e.g. Europe/Berlin or UTC",
        ));
    }
    Ok(Command::TimeZone(value.to_string()))
}

/// `  move a: b   # why` → `move a: b`; a `#` inside a word (`#3`) stays.
fn strip_trailing_comment(t: &str) -> &str {
    match t.find(" #").or_else(|| t.find("\t#")) {
        Some(i) => t[..i].trim_end(),
        None => t,
    }
}

fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// A move and its signature found in a mail body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Armored {
    /// Candidate byte strings for the signed file, most literal first. Mail may
    /// have changed line endings or trailing blanks; the one that verifies is the truth.
    pub candidates: Vec<Vec<u8>>,
    /// The armored SSH signature block.
    pub signature: String,
}

/// Finds `-----BEGIN UMPIRE MOVE-----` blocks followed by an SSH signature.
pub fn find_armored(body: &str) -> Vec<Armored> {
    let lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != BEGIN_MOVE {
            i += 1;
            continue;
        }
        let start = i + 1;
        let Some(end) = (start..lines.len()).find(|j| lines[*j].trim() == END_MOVE) else {
            break;
        };
        let Some(sig_start) = (end + 1..lines.len()).find(|j| lines[*j].trim() == BEGIN_SIG) else {
            break;
        };
        let Some(sig_end) = (sig_start..lines.len()).find(|j| lines[*j].trim() == END_SIG) else {
            break;
        };
        out.push(armored_at(&lines, start..end, sig_start..=sig_end));
        i = sig_end + 1;
    }
    out
}

/// The move in `lines[text]` and the signature in `lines[sig]`, with the
/// candidate byte strings mail may have left of the signed file.
fn armored_at(
    lines: &[&str],
    text: std::ops::Range<usize>,
    sig: std::ops::RangeInclusive<usize>,
) -> Armored {
    let body_lines = &lines[text];
    let mut candidates = Vec::new();
    let mut push = |v: Vec<u8>| {
        if !candidates.contains(&v) {
            candidates.push(v);
        }
    };
    let exact = body_lines.join("\n");
    push(format!("{exact}\n").into_bytes());
    push(exact.clone().into_bytes());
    let stripped: Vec<&str> = body_lines.iter().map(|l| l.trim_end()).collect();
    let stripped = stripped.join("\n");
    push(format!("{stripped}\n").into_bytes());
    push(stripped.into_bytes());
    let signature = lines[sig]
        .iter()
        .map(|l| l.trim())
        .collect::<Vec<_>>()
        .join("\n");
    Armored {
        candidates,
        signature: format!("{signature}\n"),
    }
}

/// A move pasted without its armor lines: a `game:` line, the rest of the
/// file, then an SSH signature block. Players copy the file and the `.sig`
/// into a body by hand; the signature decides whether it was the signed text.
pub fn find_bare(body: &str) -> Option<Armored> {
    let lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let start = lines
        .iter()
        .position(|l| l.to_ascii_lowercase().starts_with("game:"))?;
    let sig_start = (start..lines.len()).find(|j| lines[*j].trim() == BEGIN_SIG)?;
    let sig_end = (sig_start..lines.len()).find(|j| lines[*j].trim() == END_SIG)?;
    // Blank lines between the file and the signature are the paste's, not the file's.
    let mut end = sig_start;
    while end > start && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    Some(armored_at(&lines, start..end, sig_start..=sig_end))
}

/// The armored form of a signed move, for pasting into a mail body.
pub fn armor(move_bytes: &[u8], signature: &str) -> String {
    let text = String::from_utf8_lossy(move_bytes);
    let text = text.strip_suffix('\n').unwrap_or(&text);
    format!(
        "{BEGIN_MOVE}\n{text}\n{END_MOVE}\n{}\n",
        signature.trim_end()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "3f2a000000000000000000000000000000000000000000000000000000000001";

    #[test]
    fn parses_the_design_example() {
        let text = format!(
            "game: sarhu-club-7\nside: Ming\nafter: {HEAD}\norders:\n  move du-song: 0712 0713 0813\n  # a comment\n\n  fire 0813 -> 0914   # why\n"
        );
        let m = MoveFile::parse(text.as_bytes()).unwrap();
        assert_eq!(m.game, "sarhu-club-7");
        assert_eq!(m.side, "ming");
        assert_eq!(m.after.unwrap().to_hex(), HEAD);
        assert_eq!(m.orders.len(), 2);
        assert_eq!(m.orders[0].line, 5);
        assert_eq!(m.orders[0].column, 3);
        assert_eq!(m.orders[0].text, "move du-song: 0712 0713 0813");
        assert_eq!(m.orders[1].line, 8);
        assert_eq!(m.orders[1].text, "fire 0813 -> 0914");
    }

    #[test]
    fn header_values_may_carry_a_trailing_comment() {
        let text = format!(
            "game: g   # the club game\nside: a\nafter: {HEAD}    # from my last mail\norders: pass # done\n"
        );
        let m = MoveFile::parse(text.as_bytes()).unwrap();
        assert_eq!(m.game, "g");
        assert_eq!(m.after.unwrap().to_hex(), HEAD);
        assert_eq!(m.orders[0].text, "pass");
    }

    #[test]
    fn crlf_and_unindented_orders_parse() {
        let text = format!("game: g\r\nside: a\r\nafter: {HEAD}\r\norders:\r\nroll 2d6 x\r\n");
        let m = MoveFile::parse(text.as_bytes()).unwrap();
        assert_eq!(m.orders[0].text, "roll 2d6 x");
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = MoveFile::parse(b"game: g\nside: a\nafter: 12zz\norders: pass\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 8));
        let e = MoveFile::parse(b"game: g\nsid: a\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("unknown header"), "{}", e.message);
        let e = MoveFile::parse(b"game: g\nside: a\norders:\n pass\n").unwrap_err();
        assert!(e.message.contains("after:"), "{}", e.message);
        let e = MoveFile::parse(b"game: g\ngame: h\n").unwrap_err();
        assert_eq!(e.line, 2);
        let e = MoveFile::parse(b"game: g\nside: a\n\xff\n").unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (3, "not UTF-8 text"));
    }

    #[test]
    fn commands_and_standing_orders_need_no_after() {
        let m = MoveFile::parse(
            b"game: g\nside: a\ncommand: status\naway: until 2026-12-12\nstanding:\n  losses: flip\n",
        )
        .unwrap();
        assert_eq!(m.commands[0].0, Command::Status);
        assert_eq!(m.commands[1].0, Command::Away(Some("2026-12-12".into())));
        assert_eq!(m.standing.unwrap()[0].text, "losses: flip");
        let m = MoveFile::parse(b"game: g\nside: a\nstanding: clear\n").unwrap();
        assert_eq!(m.standing, Some(vec![]));
    }

    #[test]
    fn ids_and_side_names_hold_no_control_or_path_characters() {
        for bad in ["g\0", "g\u{1}", "../g", "g/h", "g\\h", ".g", "g h"] {
            let t = format!("game: {bad}\nside: a\ncommand: status\n");
            let e = MoveFile::parse(t.as_bytes()).unwrap_err();
            assert_eq!((e.line, e.column), (1, 7), "{bad:?}: {e}");
        }
        let long = "g".repeat(MAX_ID_LEN + 1);
        assert!(check_game_id(&long).is_err());
        check_game_id(&long[1..]).unwrap();
        check_game_id("sarhu-club.7_b").unwrap();
        for bad in ["a.b", "a\u{1b}", "", &"s".repeat(MAX_SIDE_LEN + 1)] {
            assert!(check_side_name(bad).is_err(), "{bad:?}");
        }
        let e = MoveFile::parse(b"game: g\nside: a\x07\ncommand: status\n").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn a_press_section_reads_its_recipients_and_message() {
        use crate::press::PressTo;
        let m = MoveFile::parse(
            b"game: g\nside: a\npress to: B, c\n  Hold the river.\n\n  # not sent\n  Bring #3 up.\n\n",
        )
        .unwrap();
        let p = m.press.unwrap();
        assert_eq!(
            (p.line, p.to),
            (3, PressTo::Sides(vec!["b".into(), "c".into()]))
        );
        assert_eq!(p.message, "Hold the river.\n\nBring #3 up.");
        // After orders, to all; a header at the start of a line ends it.
        let text = format!(
            "game: g\nside: a\nafter: {HEAD}\norders:\n  pass\npress: all\n  Good luck.\ncommand: status\n"
        );
        let m = MoveFile::parse(text.as_bytes()).unwrap();
        assert_eq!(m.orders.len(), 1);
        assert_eq!(m.press.unwrap().to, PressTo::All);
        assert_eq!(m.commands.len(), 1);
        let e = MoveFile::parse(b"game: g\nside: a\npress to: b\n\n").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        let e = MoveFile::parse(b"game: g\nside: a\npress to:\n  hi\n").unwrap_err();
        assert_eq!((e.line, e.column), (3, 10), "{e}");
        let e =
            MoveFile::parse(b"game: g\nside: a\npress to: b\n x\npress to: c\n y\n").unwrap_err();
        assert_eq!(e.line, 5, "{e}");
    }

    #[test]
    fn a_time_zone_line_is_a_command() {
        let m = MoveFile::parse(b"game: g\nside: a\ntimezone: Europe/Berlin\n").unwrap();
        assert_eq!(m.commands[0].0, Command::TimeZone("Europe/Berlin".into()));
    }

    #[test]
    fn armored_blocks_are_found_in_a_body() {
        let body = "Hi,\r\nmy move:\r\n\r\n-----BEGIN UMPIRE MOVE-----\r\ngame: g\r\nside: a  \r\n-----END UMPIRE MOVE-----\r\n-----BEGIN SSH SIGNATURE-----\r\nAAAA\r\n-----END SSH SIGNATURE-----\r\n-- \r\nsig\r\n";
        let found = find_armored(body);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].candidates[0], b"game: g\nside: a  \n");
        assert!(
            found[0]
                .candidates
                .contains(&b"game: g\nside: a\n".to_vec())
        );
        assert!(found[0].signature.starts_with(BEGIN_SIG));
        assert!(
            found[0]
                .signature
                .ends_with("-----END SSH SIGNATURE-----\n")
        );
    }

    #[test]
    fn armor_round_trips() {
        let a = armor(
            b"game: g\nside: a\n",
            "-----BEGIN SSH SIGNATURE-----\nX\n-----END SSH SIGNATURE-----\n",
        );
        let f = find_armored(&a);
        assert_eq!(f[0].candidates[0], b"game: g\nside: a\n");
        let bare = "Here it is:\r\n\r\ngame: g\r\nside: a\r\n\r\n-----BEGIN SSH SIGNATURE-----\r\nX\r\n-----END SSH SIGNATURE-----\r\n";
        let b = find_bare(bare).expect("a bare move is recognised");
        assert_eq!(b.candidates[0], b"game: g\nside: a\n");
        assert!(b.signature.starts_with(BEGIN_SIG));
    }
}
