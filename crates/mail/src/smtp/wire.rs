//! The SMTP wire format (RFC 5321), without I/O: reading a reply, the EHLO
//! extensions, and the DATA transparency (dot-stuffing, CRLF line ends).

use super::super::MailError;
use std::io::{BufRead, Read};

/// Longest reply line read (RFC 5321 4.5.3.1.5 allows 512; servers are
/// lenient, so is this, but bounded so a wrong port cannot feed us forever).
const MAX_LINE: u64 = 4096;
/// Most lines in one multi-line reply (an EHLO answer has a dozen).
const MAX_LINES: usize = 200;

/// One server reply: its code and the text of each line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reply {
    pub code: u16,
    pub lines: Vec<String>,
}

impl Reply {
    /// 2xx or 3xx: the command went through.
    pub fn is_positive(&self) -> bool {
        (200..400).contains(&self.code)
    }

    /// 4xx: worth trying again later.
    pub fn is_transient(&self) -> bool {
        (400..500).contains(&self.code)
    }

    /// The reply as the server wrote it, lines joined.
    pub fn text(&self) -> String {
        let body = self.lines.join(" / ");
        if body.is_empty() {
            self.code.to_string()
        } else {
            format!("{} {body}", self.code)
        }
    }
}

/// Reads one (possibly multi-line) reply. A closed connection, an I/O error
/// or a garbled line is [`MailError::Transient`]: the session is unusable,
/// a new one will probably do.
pub(crate) fn read_reply(r: &mut impl BufRead) -> Result<Reply, MailError> {
    let mut lines = Vec::new();
    let mut code = None;
    let mut raw = Vec::new();
    loop {
        raw.clear();
        let n = Read::take(&mut *r, MAX_LINE)
            .read_until(b'\n', &mut raw)
            .map_err(|e| MailError::Transient(format!("reading the server's reply: {e}")))?;
        if n == 0 {
            return Err(MailError::Transient(
                "the server closed the connection".into(),
            ));
        }
        if raw.last() != Some(&b'\n') {
            return Err(MailError::Transient(format!(
                "a reply line over {MAX_LINE} bytes or cut short"
            )));
        }
        let line = String::from_utf8_lossy(&raw);
        let line = line.trim_end_matches(['\r', '\n']);
        let (this, more, text) = parse_line(line)?;
        if *code.get_or_insert(this) != this {
            return Err(MailError::Transient(format!(
                "a reply mixing codes {} and {this}",
                code.unwrap_or(this)
            )));
        }
        lines.push(text.to_string());
        if !more {
            break;
        }
        if lines.len() >= MAX_LINES {
            return Err(MailError::Transient(format!(
                "a reply of more than {MAX_LINES} lines"
            )));
        }
    }
    Ok(Reply {
        code: code.unwrap_or(0),
        lines,
    })
}

/// `250-text` (more follow), `250 text` or `250` (the last line).
fn parse_line(line: &str) -> Result<(u16, bool, &str), MailError> {
    let garbled = || MailError::Transient(format!("not an SMTP reply: {:?}", clip(line)));
    let digits = line.get(..3).ok_or_else(garbled)?;
    if !digits.bytes().all(|b| b.is_ascii_digit()) || !(b'2'..=b'5').contains(&digits.as_bytes()[0])
    {
        return Err(garbled());
    }
    let code: u16 = digits.parse().map_err(|_| garbled())?;
    match line.as_bytes().get(3) {
        None => Ok((code, false, "")),
        Some(b' ') => Ok((code, false, &line[4..])),
        Some(b'-') => Ok((code, true, &line[4..])),
        Some(_) => Err(garbled()),
    }
}

fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

/// What the server offers after EHLO (RFC 5321 4.1.1.1; the keywords of
/// RFC 2920, 6152, 6531, 3207, 4954).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Extensions {
    pub pipelining: bool,
    pub eight_bit_mime: bool,
    pub smtputf8: bool,
    pub starttls: bool,
    /// The AUTH mechanisms, upper case.
    pub auth: Vec<String>,
}

impl Extensions {
    /// From the EHLO reply: its first line is the greeting, each other line
    /// one keyword with its parameters.
    pub fn from_ehlo(reply: &Reply) -> Extensions {
        let mut x = Extensions::default();
        for line in reply.lines.iter().skip(1) {
            let mut words = line.split_ascii_whitespace();
            let Some(keyword) = words.next() else {
                continue;
            };
            match keyword.to_ascii_uppercase().as_str() {
                "PIPELINING" => x.pipelining = true,
                "8BITMIME" => x.eight_bit_mime = true,
                "SMTPUTF8" => x.smtputf8 = true,
                "STARTTLS" => x.starttls = true,
                "AUTH" => x.auth = words.map(|w| w.to_ascii_uppercase()).collect(),
                _ => {}
            }
        }
        x
    }
}

/// The message as DATA sends it (RFC 5321 4.5.2): CRLF line ends, a dot
/// doubled at the start of a line, and the final `CRLF . CRLF`.
pub(crate) fn data_block(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() + raw.len() / 50 + 8);
    let mut at_line_start = true;
    for (i, &b) in raw.iter().enumerate() {
        if at_line_start && b == b'.' {
            out.push(b'.');
        }
        match b {
            b'\n' if i == 0 || raw[i - 1] != b'\r' => out.extend_from_slice(b"\r\n"),
            b'\r' if raw.get(i + 1) != Some(&b'\n') => out.extend_from_slice(b"\r\n"),
            _ => out.push(b),
        }
        at_line_start = matches!(out.last(), Some(b'\n'));
    }
    if !out.is_empty() && !out.ends_with(b"\r\n") {
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b".\r\n");
    out
}

/// The fuzz target's check (`fuzz/fuzz_targets/smtp_wire.rs`): `data` read
/// as a server's replies never panics, hangs or reads a reply past its
/// bounds, and sent as a message, DATA's transparency undoes exactly.
#[allow(
    clippy::expect_used,
    reason = "a fuzz check: a failed expectation is the finding"
)]
pub(crate) fn fuzz_check(data: &[u8]) {
    let mut r = data;
    while !r.is_empty() {
        let before = r.len();
        let Ok(reply) = read_reply(&mut r) else {
            break;
        };
        assert!((200..600).contains(&reply.code), "code {}", reply.code);
        assert!(!reply.lines.is_empty() && reply.lines.len() <= MAX_LINES);
        assert!(r.len() < before, "a reply consumed nothing");
        let _ = Extensions::from_ehlo(&reply);
    }
    let block = data_block(data);
    let body = block
        .strip_suffix(b".\r\n")
        .expect("DATA ends with CRLF . CRLF");
    let mut unstuffed = Vec::with_capacity(body.len());
    for line in body.split_inclusive(|&b| b == b'\n') {
        assert!(line.ends_with(b"\r\n"), "a line not ended by CRLF");
        assert_ne!(line, b".\r\n", "a lone dot inside the data");
        unstuffed.extend_from_slice(line.strip_prefix(b".").unwrap_or(line));
    }
    assert_eq!(unstuffed, crlf_lines(data), "transparency does not undo");
}

/// `raw` with every line end (CRLF, lone CR, lone LF) as CRLF, the last
/// line ended too.
fn crlf_lines(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() + 2);
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'\r' if raw.get(i + 1) == Some(&b'\n') => {
                out.extend_from_slice(b"\r\n");
                i += 1;
            }
            b'\r' | b'\n' => out.extend_from_slice(b"\r\n"),
            b => out.push(b),
        }
        i += 1;
    }
    if !out.is_empty() && !out.ends_with(b"\r\n") {
        out.extend_from_slice(b"\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fuzz_check_holds_for_awkward_inputs() {
        for data in [
            &b""[..],
            b".",
            b"\r",
            b"\n.\n",
            b"250-a\r\n250 b\r\n",
            b"..\r\n.\r\n",
            b"x\r\r\n\n\r.",
            b"250-",
            b"999 nope\r\n",
        ] {
            fuzz_check(data);
        }
    }

    fn reply(s: &str) -> Result<Reply, MailError> {
        read_reply(&mut s.as_bytes())
    }

    #[test]
    fn replies_single_and_multi_line() {
        assert_eq!(
            reply("250 ok\r\n").unwrap(),
            Reply {
                code: 250,
                lines: vec!["ok".into()]
            }
        );
        let r = reply("250-mx.test\r\n250-PIPELINING\r\n250 AUTH PLAIN LOGIN\r\n").unwrap();
        assert_eq!(r.lines.len(), 3);
        assert_eq!(r.text(), "250 mx.test / PIPELINING / AUTH PLAIN LOGIN");
        // A bare code is a whole reply (RFC 5321 4.2).
        assert_eq!(reply("354\r\n").unwrap().code, 354);
        // Two replies back to back: only the first is read.
        let mut two = "250 a\r\n251 b\r\n".as_bytes();
        assert_eq!(read_reply(&mut two).unwrap().code, 250);
        assert_eq!(read_reply(&mut two).unwrap().code, 251);
    }

    #[test]
    fn bad_replies_are_transient_errors() {
        for bad in [
            "",
            "hello\r\n",
            "25\r\n",
            "250x\r\n",
            "650 no\r\n",
            "250-a\r\n251 b\r\n",
            "250-a\r\n",
        ] {
            let e = reply(bad).unwrap_err();
            assert!(e.is_transient(), "{bad:?}: {e:?}");
        }
        let long = format!("250 {}\r\n", "x".repeat(5000));
        assert!(reply(&long).is_err());
        let many = "250-x\r\n".repeat(300) + "250 x\r\n";
        assert!(reply(&many).unwrap_err().to_string().contains("lines"));
    }

    #[test]
    fn ehlo_extensions() {
        let r = reply(
            "250-mx.test Hello\r\n250-pipelining\r\n250-SIZE 10240000\r\n250-STARTTLS\r\n\
             250-AUTH plain LOGIN\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n",
        )
        .unwrap();
        let x = Extensions::from_ehlo(&r);
        assert!(x.pipelining && x.starttls && x.eight_bit_mime && x.smtputf8);
        assert_eq!(x.auth, ["PLAIN", "LOGIN"]);
        // The greeting line is not a keyword, even if it looks like one.
        let r = reply("250-STARTTLS\r\n250 SIZE\r\n").unwrap();
        assert!(!Extensions::from_ehlo(&r).starttls);
    }

    #[test]
    fn data_is_dot_stuffed_with_crlf_line_ends() {
        assert_eq!(data_block(b"a\r\n.b\r\n"), b"a\r\n..b\r\n.\r\n");
        assert_eq!(data_block(b".\r\n"), b"..\r\n.\r\n");
        assert_eq!(data_block(b"a\nb"), b"a\r\nb\r\n.\r\n");
        assert_eq!(data_block(b"a\r\n\n.x"), b"a\r\n\r\n..x\r\n.\r\n");
        assert_eq!(data_block(b"a\rb"), b"a\r\nb\r\n.\r\n");
        assert_eq!(data_block(b"x.y\r\n"), b"x.y\r\n.\r\n");
        assert_eq!(data_block(b""), b".\r\n");
    }
}
