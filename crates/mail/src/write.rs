//! Writing the umpire's mails: headers, a quoted-printable text part and
//! base64 attachments, straight into bytes (RFC 5322, 2045–2047).
//!
//! Written here rather than with lettre's builder because a poll builds two
//! or more of these per move and the builder cost about 60 µs a mail, a
//! sixth of a poll's adjudicating thread (issue 13). What this writes is
//! checked against lettre's output, and read back, in the tests below.

use super::MailError;
use base64::Engine;
use std::fmt::Write as _;

/// A mail to build.
#[derive(Debug, Clone)]
pub struct Compose {
    pub from_name: String,
    pub from: String,
    pub to: Vec<String>,
    pub subject: String,
    /// With angle brackets.
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    pub text: String,
    /// (file name, MIME type, bytes)
    pub attachments: Vec<(String, String, Vec<u8>)>,
    /// RFC 3834 value, e.g. `auto-replied` or `auto-generated`.
    pub auto_submitted: &'static str,
    /// Extra headers (name, value).
    pub headers: Vec<(String, String)>,
    pub date: std::time::SystemTime,
}

/// A header line's preferred length (RFC 5322 2.1.1): folded beyond it
/// where the value has a space.
const LINE: usize = 76;

/// Builds the formatted bytes of a mail.
pub fn build(c: &Compose) -> Result<Vec<u8>, MailError> {
    let prepared = prepare(c)?;
    let bodies: Vec<Option<&[u8]>> = c.attachments.iter().map(|a| Some(&a.2[..])).collect();
    Ok(prepared.finish(&c.text, &bodies))
}

/// A mail whose header section is written and whose parts are checked, its
/// body still to write ([`Prepared::finish`]): everything that can refuse a
/// mail is done here, so the body can be written later, on another thread
/// (a poll signs and writes its result mails off its adjudicating thread,
/// issue 13).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    head: String,
    /// The multipart boundary; none for a mail without attachments.
    boundary: Option<String>,
    /// Each attachment's part header, in order.
    parts: Vec<String>,
}

/// Writes `c`'s header section and checks its attachments' names and types;
/// `c.text` and the attachments' bytes are not read.
pub fn prepare(c: &Compose) -> Result<Prepared, MailError> {
    let mut h = Head::default();
    h.field("From", &mailbox(&c.from_name, &c.from)?);
    h.unstructured("Subject", &c.subject);
    h.field("Message-ID", &id_list(&c.message_id)?);
    h.field("Date", &date(c.date));
    // An extra header of the same name stands in for this one.
    let auto = c
        .headers
        .iter()
        .rfind(|(n, _)| n.eq_ignore_ascii_case("Auto-Submitted"))
        .map_or(c.auto_submitted, |(_, v)| v.as_str());
    h.unstructured("Auto-Submitted", auto);
    let to =
        c.to.iter()
            .map(|t| mailbox("", t))
            .collect::<Result<Vec<_>, _>>()?;
    if !to.is_empty() {
        h.field("To", &to.join(", "));
    }
    if let Some(r) = &c.in_reply_to {
        h.field("In-Reply-To", &id_list(r)?);
    }
    if !c.references.is_empty() {
        h.field("References", &id_list(&c.references.join(" "))?);
    }
    for (n, v) in &c.headers {
        if n.eq_ignore_ascii_case("Auto-Submitted") {
            continue;
        }
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_graphic() && b != b':') {
            return Err(MailError::Protocol(format!("bad header name {n:?}")));
        }
        h.unstructured(n, v);
    }
    h.field("MIME-Version", "1.0");
    let parts = c
        .attachments
        .iter()
        .map(|(name, mime, _)| part_head(name, mime))
        .collect::<Result<Vec<_>, _>>()?;
    // A boundary derived from the Message-ID: the same mail built twice is
    // the same bytes (a rerun after a crash writes an identical file).
    let boundary = (!parts.is_empty()).then(|| {
        format!(
            "umpire-{}",
            &umpire_core::hash::sha256(c.message_id.as_bytes()).to_hex()[..32]
        )
    });
    Ok(Prepared {
        head: h.0,
        boundary,
        parts,
    })
}

impl Prepared {
    /// The whole mail: the text part and each attachment's bytes, in the
    /// order [`prepare`] was given them; an attachment given as `None` is
    /// left out.
    pub fn finish(&self, text: &str, bodies: &[Option<&[u8]>]) -> Vec<u8> {
        let size: usize = bodies.iter().flatten().map(|b| b.len() * 4 / 3 + 256).sum();
        let mut out = String::with_capacity(self.head.len() + text.len() * 11 / 10 + size + 128);
        out.push_str(&self.head);
        let Some(boundary) = &self.boundary else {
            text_part(&mut out, text);
            return out.into_bytes();
        };
        let _ = write!(
            out,
            "Content-Type: multipart/mixed;\r\n boundary=\"{boundary}\"\r\n\r\n--{boundary}\r\n"
        );
        text_part(&mut out, text);
        for (head, bytes) in self.parts.iter().zip(bodies) {
            let Some(bytes) = bytes else { continue };
            let _ = write!(out, "\r\n--{boundary}\r\n");
            out.push_str(head);
            base64_lines(&mut out, bytes);
        }
        let _ = write!(out, "\r\n--{boundary}--\r\n");
        out.into_bytes()
    }
}

/// A mail ready to write but not written: its checked header section, its
/// text and its attachments' bytes. The outbox stores mails so (issue 13): a
/// poll of 1,000 mails queues 2,000 replies, and writing each one's
/// quoted-printable text and base64 attachments, then storing the quarter
/// more bytes that makes, cost its worker threads more than the signatures;
/// they are written once, when delivered ([`Unwritten::write`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unwritten {
    pub prepared: Prepared,
    pub text: String,
    /// Each attachment's bytes, in order; `None` is left out.
    pub bodies: Vec<Option<Vec<u8>>>,
}

/// The length mark of an absent field in [`Unwritten::to_bytes`].
const ABSENT: u32 = u32::MAX;

impl Unwritten {
    /// The formatted mail, as [`Prepared::finish`] writes it.
    pub fn write(&self) -> Vec<u8> {
        let bodies: Vec<Option<&[u8]>> = self.bodies.iter().map(|b| b.as_deref()).collect();
        self.prepared.finish(&self.text, &bodies)
    }

    /// Appends the stored form: each field as a 4-byte big-endian length and
    /// its bytes (absent: the length `u32::MAX`, no bytes), in the order
    /// head, boundary, the number of part headers and each, text, the
    /// number of bodies and each.
    pub fn to_bytes(&self, out: &mut Vec<u8>) {
        fn field(out: &mut Vec<u8>, f: Option<&[u8]>) {
            match f {
                Some(b) => {
                    out.extend_from_slice(&(b.len() as u32).to_be_bytes());
                    out.extend_from_slice(b);
                }
                None => out.extend_from_slice(&ABSENT.to_be_bytes()),
            }
        }
        let p = &self.prepared;
        field(out, Some(p.head.as_bytes()));
        field(out, p.boundary.as_ref().map(|b| b.as_bytes()));
        out.extend_from_slice(&(p.parts.len() as u32).to_be_bytes());
        for part in &p.parts {
            field(out, Some(part.as_bytes()));
        }
        field(out, Some(self.text.as_bytes()));
        out.extend_from_slice(&(self.bodies.len() as u32).to_be_bytes());
        for b in &self.bodies {
            field(out, b.as_deref());
        }
    }

    /// Reads [`Unwritten::to_bytes`]'s form back, all of `bytes` and no more.
    pub fn from_bytes(bytes: &[u8]) -> Result<Unwritten, UnwrittenError> {
        let mut r = Fields(bytes);
        let head = r.text("header")?.ok_or(UnwrittenError::NoHeader)?;
        let boundary = r.text("boundary")?;
        let parts = (0..r.count("part headers")?)
            .map(|_| {
                r.text("part header")?
                    .ok_or(UnwrittenError::AbsentPartHeader)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let text = r.text("text")?.ok_or(UnwrittenError::NoText)?;
        let bodies = (0..r.count("attachments")?)
            .map(|_| Ok(r.bytes("attachment")?.map(<[u8]>::to_vec)))
            .collect::<Result<Vec<_>, UnwrittenError>>()?;
        if !r.0.is_empty() {
            return Err(UnwrittenError::Trailing(r.0.len()));
        }
        if boundary.is_none() != parts.is_empty() || parts.len() != bodies.len() {
            return Err(UnwrittenError::Disagree);
        }
        Ok(Unwritten {
            prepared: Prepared {
                head,
                boundary,
                parts,
            },
            text,
            bodies,
        })
    }
}

/// Why stored bytes do not read back as an [`Unwritten`] mail.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnwrittenError {
    /// The bytes end where a field's length should be.
    #[error("truncated at the {0}")]
    TruncatedAt(&'static str),
    /// The bytes end inside a field.
    #[error("truncated in the {0}")]
    TruncatedIn(&'static str),
    /// A text field is not UTF-8.
    #[error("the {0} is not UTF-8")]
    NotUtf8(&'static str),
    /// A count asks for more fields than the bytes left can hold.
    #[error("{count} {what}, more than the bytes left hold")]
    Count { count: usize, what: &'static str },
    /// The header section is absent.
    #[error("no header")]
    NoHeader,
    /// A part's header is absent.
    #[error("an absent part header")]
    AbsentPartHeader,
    /// The text is absent.
    #[error("no text")]
    NoText,
    /// Bytes follow the mail.
    #[error("{0} bytes after the mail")]
    Trailing(usize),
    /// The parts, their headers and the boundary do not agree.
    #[error("the parts, their headers and the boundary do not agree")]
    Disagree,
}

/// A reader of [`Unwritten::to_bytes`]'s fields.
struct Fields<'a>(&'a [u8]);

impl<'a> Fields<'a> {
    fn u32(&mut self, what: &'static str) -> Result<u32, UnwrittenError> {
        let (n, rest) = self
            .0
            .split_first_chunk::<4>()
            .ok_or(UnwrittenError::TruncatedAt(what))?;
        self.0 = rest;
        Ok(u32::from_be_bytes(*n))
    }

    fn bytes(&mut self, what: &'static str) -> Result<Option<&'a [u8]>, UnwrittenError> {
        let n = self.u32(what)?;
        if n == ABSENT {
            return Ok(None);
        }
        let n = n as usize;
        if n > self.0.len() {
            return Err(UnwrittenError::TruncatedIn(what));
        }
        let (b, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(Some(b))
    }

    fn text(&mut self, what: &'static str) -> Result<Option<String>, UnwrittenError> {
        self.bytes(what)?
            .map(|b| String::from_utf8(b.to_vec()).map_err(|_| UnwrittenError::NotUtf8(what)))
            .transpose()
    }

    /// A count of fields to follow, each at least 4 bytes long: a corrupt
    /// count cannot ask for more than the bytes left.
    fn count(&mut self, what: &'static str) -> Result<usize, UnwrittenError> {
        let n = self.u32(what)? as usize;
        if n > self.0.len() / 4 {
            return Err(UnwrittenError::Count { count: n, what });
        }
        Ok(n)
    }
}

/// A header section being written.
#[derive(Default)]
struct Head(String);

impl Head {
    /// A structured field, written as given (its parts are checked or
    /// encoded by the caller), folded at spaces.
    fn field(&mut self, name: &str, value: &str) {
        self.0.push_str(name);
        self.0.push(':');
        let mut col = name.len() + 1;
        for word in value.split(' ') {
            if col + 1 + word.len() > LINE && col > name.len() + 1 {
                self.0.push_str("\r\n");
                col = 0;
            }
            self.0.push(' ');
            self.0.push_str(word);
            col += 1 + word.len();
        }
        self.0.push_str("\r\n");
    }

    /// Free text: control characters become spaces (no value can end the
    /// header or start another), and text that is not printable ASCII is
    /// written as RFC 2047 encoded words.
    fn unstructured(&mut self, name: &str, value: &str) {
        let clean: String = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        if clean.is_ascii() && !clean.contains("=?") {
            self.field(name, &clean);
        } else {
            self.field(name, &encoded_words(&clean));
        }
    }
}

/// `text` as base64 encoded words (RFC 2047), each under 76 characters and
/// cut between characters, separated by spaces for folding.
fn encoded_words(text: &str) -> String {
    const CHUNK: usize = 45; // bytes: 60 base64 characters a word
    let mut words = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + CHUNK).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let b64 = base64::engine::general_purpose::STANDARD.encode(&text[start..end]);
        words.push(format!("=?utf-8?b?{b64}?="));
        start = end;
    }
    words.join(" ")
}

/// `addr` checked, with a display name (quoted or encoded as it needs).
fn mailbox(name: &str, addr: &str) -> Result<String, MailError> {
    let a: lettre::Address = addr
        .parse()
        .map_err(|e| MailError::Protocol(format!("bad address {addr:?}: {e}")))?;
    let name = name.trim();
    if name.is_empty() {
        return Ok(a.to_string());
    }
    let atext =
        |c: char| c.is_ascii_alphanumeric() || c == ' ' || "!#$%&'*+-/=?^_`{|}~".contains(c);
    let shown = if name.chars().all(atext) && !name.contains("=?") {
        name.to_string()
    } else if name.chars().all(|c| c.is_ascii() && !c.is_ascii_control()) {
        format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    } else {
        let clean: String = name
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        encoded_words(&clean)
    };
    Ok(format!("{shown} <{a}>"))
}

/// Message-IDs (`<...>`, space-separated), refused if any could break the
/// header: they are copied from incoming mail.
fn id_list(ids: &str) -> Result<String, MailError> {
    if ids.chars().any(|c| c.is_control() || !c.is_ascii()) {
        return Err(MailError::Protocol(format!("bad Message-ID {ids:?}")));
    }
    Ok(ids.to_string())
}

/// The Date field (RFC 5322 3.3), in UTC.
fn date(t: std::time::SystemTime) -> String {
    let secs = t
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let ts = jiff::Timestamp::from_second(secs).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    ts.to_zoned(jiff::tz::TimeZone::UTC)
        .strftime("%a, %-d %b %Y %H:%M:%S +0000")
        .to_string()
}

/// The text part: UTF-8, CRLF line ends, quoted-printable.
fn text_part(out: &mut String, text: &str) {
    out.push_str(
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n",
    );
    let crlf = if text.contains('\r') {
        let mut crlf = String::with_capacity(text.len() + text.len() / 30);
        let mut last = '\0';
        for c in text.chars() {
            if c == '\n' && last != '\r' {
                crlf.push('\r');
            }
            crlf.push(c);
            last = c;
        }
        crlf
    } else {
        text.replace('\n', "\r\n")
    };
    out.push_str(&quoted_printable::encode_to_str(crlf.as_bytes()));
}

/// An attachment's part header, its name and type checked. Its body is
/// base64: its bytes arrive exactly as signed, whatever the transports do to
/// line ends.
fn part_head(name: &str, mime: &str) -> Result<String, MailError> {
    let safe_name = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_graphic() && !"\"\\/;".contains(c) || c == ' ')
    };
    let (essence, params) = mime.split_once(';').unwrap_or((mime, ""));
    let (kind, sub) = essence.trim().split_once('/').unwrap_or(("", ""));
    let token = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$&-^_.+".contains(c))
    };
    if !token(kind)
        || !token(sub)
        || params
            .chars()
            .any(|c| !c.is_ascii() || c.is_ascii_control())
    {
        return Err(MailError::Protocol(format!("bad MIME type {mime}")));
    }
    if !safe_name(name) {
        return Err(MailError::Protocol(format!("bad attachment name {name:?}")));
    }
    Ok(format!(
        "Content-Disposition: attachment; filename=\"{name}\"\r\nContent-Type: {mime}\r\nContent-Transfer-Encoding: base64\r\n\r\n"
    ))
}

/// `bytes` in base64, in lines of 76 characters.
fn base64_lines(out: &mut String, bytes: &[u8]) {
    let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
    for (i, line) in b64.as_bytes().chunks(LINE).enumerate() {
        if i > 0 {
            out.push_str("\r\n");
        }
        // Base64 is ASCII.
        out.push_str(std::str::from_utf8(line).unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mime::read;

    fn compose() -> Compose {
        Compose {
            from_name: "Umpire".into(),
            from: "umpire@club.test".into(),
            to: vec!["alice@club.test".into()],
            subject: "[g1] turn 3: Ming to move (your move)".into(),
            message_id: "<g1.3.ming@club.test>".into(),
            in_reply_to: Some("<m1@club.test>".into()),
            references: vec!["<g1.ming@club.test>".into(), "<m1@club.test>".into()],
            text: "Hello =\nmap:\n  0101 \\__/ \nünï, a line long enough to need a soft break in quoted-printable text\n".into(),
            attachments: vec![
                ("record.txt".into(), "text/plain".into(), b"# umpire record\nline\r\n".to_vec()),
                ("map.png".into(), "image/png".into(), (0..=255u8).cycle().take(300).collect()),
            ],
            auto_submitted: "auto-replied",
            headers: vec![
                ("X-Loop".into(), "umpire@club.test".into()),
                ("X-Umpire-Game".into(), "g1".into()),
            ],
            date: std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000),
        }
    }

    /// The same mail as lettre's builder writes it, every attachment base64.
    fn by_lettre(c: &Compose) -> Vec<u8> {
        use lettre::message::header::{
            ContentTransferEncoding, ContentType, HeaderName, HeaderValue,
        };
        use lettre::message::{Attachment, Body, Mailbox, MultiPart, SinglePart};
        let mb = |n: Option<&str>, a: &str| Mailbox::new(n.map(str::to_string), a.parse().unwrap());
        let raw = |n: &str, v: &str| {
            HeaderValue::new(
                HeaderName::new_from_ascii(n.to_string()).unwrap(),
                v.to_string(),
            )
        };
        let mut b = lettre::Message::builder()
            .from(mb(Some(&c.from_name), &c.from))
            .subject(c.subject.clone())
            .message_id(Some(c.message_id.clone()))
            .date(c.date)
            .raw_header(raw("Auto-Submitted", c.auto_submitted));
        for t in &c.to {
            b = b.to(mb(None, t));
        }
        if let Some(r) = &c.in_reply_to {
            b = b.in_reply_to(r.clone());
        }
        b = b.references(c.references.join(" "));
        for (n, v) in &c.headers {
            b = b.raw_header(raw(n, v));
        }
        let text = SinglePart::builder()
            .header(ContentType::TEXT_PLAIN)
            .header(ContentTransferEncoding::QuotedPrintable)
            .body(c.text.clone());
        let boundary = format!(
            "umpire-{}",
            &umpire_core::hash::sha256(c.message_id.as_bytes()).to_hex()[..32]
        );
        let mut mp = MultiPart::mixed().boundary(boundary).singlepart(text);
        for (name, mime, bytes) in &c.attachments {
            let body =
                Body::new_with_encoding(bytes.clone(), ContentTransferEncoding::Base64).unwrap();
            mp = mp.singlepart(
                Attachment::new(name.clone()).body(body, ContentType::parse(mime).unwrap()),
            );
        }
        b.multipart(mp).unwrap().formatted()
    }

    #[test]
    fn a_result_mail_is_byte_for_byte_what_lettre_writes() {
        let c = compose();
        let ours = String::from_utf8(build(&c).unwrap()).unwrap();
        let theirs = String::from_utf8(by_lettre(&c)).unwrap();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn what_is_written_reads_back_exactly() {
        let mut c = compose();
        c.subject = "[g1] game over: Jürchen win — a long summary that must be folded across several lines of the header".into();
        c.from_name = "Club \"Umpire\", A".into();
        let raw = build(&c).unwrap();
        assert!(raw.split(|b| *b == b'\n').all(|l| l.len() <= 998));
        let head = &raw[..raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap()];
        assert!(head.is_ascii(), "the header section is ASCII");
        let m = read(&raw).unwrap();
        assert_eq!(m.subject, c.subject);
        assert_eq!(m.message_id.as_deref(), Some("<g1.3.ming@club.test>"));
        assert_eq!(m.from.as_deref(), Some("umpire@club.test"));
        assert_eq!(m.text.replace("\r\n", "\n"), c.text);
        assert_eq!(m.attachments.len(), 2);
        for (a, (name, _, bytes)) in m.attachments.iter().zip(&c.attachments) {
            assert_eq!(&a.name, name);
            assert_eq!(&a.bytes, bytes, "{name} arrives as it was signed");
        }
        assert!(m.automatic.is_some());
        for (name, raw) in [
            (c.from_name.as_str(), raw.clone()),
            (
                "Ümpire Club",
                build(&Compose {
                    from_name: "Ümpire Club".into(),
                    ..c.clone()
                })
                .unwrap(),
            ),
        ] {
            let parsed = mailparse::parse_mail(&raw).unwrap();
            let from =
                mailparse::MailHeaderMap::get_first_header(&parsed.headers[..], "From").unwrap();
            match &mailparse::addrparse_header(from).unwrap()[0] {
                mailparse::MailAddr::Single(s) => {
                    assert_eq!(s.display_name.as_deref(), Some(name));
                    assert_eq!(s.addr, "umpire@club.test");
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn no_value_can_break_the_header() {
        let mut c = compose();
        c.subject = "a\r\nBcc: victim@x.test".into();
        c.headers
            .push(("X-Umpire-Game".into(), "g\n\rX-Evil: 1".into()));
        let raw = String::from_utf8(build(&c).unwrap()).unwrap();
        let head = &raw[..raw.find("\r\n\r\n").unwrap()];
        assert!(
            !head
                .lines()
                .any(|l| l.starts_with("Bcc") || l.starts_with("X-Evil")),
            "{head}"
        );
        for bad in ["<a\r\nb@x>", "<ä@x>"] {
            let mut c = compose();
            c.in_reply_to = Some(bad.into());
            assert!(build(&c).is_err(), "{bad:?}");
        }
        let mut c = compose();
        c.to = vec!["a..b@x".into()];
        assert!(build(&c).is_err());
        let mut c = compose();
        c.attachments[0].0 = "a\"b.txt".into();
        assert!(build(&c).is_err());
    }

    #[test]
    fn an_extra_header_of_a_written_name_stands_in_for_it() {
        let mut c = compose();
        c.auto_submitted = "no";
        c.headers
            .push(("auto-submitted".into(), "auto-replied".into()));
        let raw = String::from_utf8(build(&c).unwrap()).unwrap();
        assert_eq!(
            raw.matches("uto-Submitted").count() + raw.matches("uto-submitted").count(),
            1,
            "{raw}"
        );
        assert!(read(raw.as_bytes()).unwrap().automatic.is_some());
    }

    #[test]
    fn a_mail_without_attachments_is_one_text_part() {
        let mut c = compose();
        c.attachments.clear();
        let m = read(&build(&c).unwrap()).unwrap();
        assert_eq!(m.text.replace("\r\n", "\n"), c.text);
        assert!(m.attachments.is_empty());
    }

    /// A part left out when finished (a signature that could not be made)
    /// is not in the mail; the others are, byte for byte, and a prepared
    /// mail finished with every part is what `build` writes.
    #[test]
    fn a_part_given_as_none_is_left_out() {
        let c = compose();
        let p = prepare(&c).unwrap();
        let all: Vec<Option<&[u8]>> = c.attachments.iter().map(|a| Some(&a.2[..])).collect();
        assert_eq!(p.finish(&c.text, &all), build(&c).unwrap());
        let m = read(&p.finish(&c.text, &[Some(&c.attachments[0].2[..]), None])).unwrap();
        assert_eq!(m.attachments.len(), 1);
        assert_eq!(m.attachments[0].name, "record.txt");
        assert_eq!(m.attachments[0].bytes, c.attachments[0].2);
    }

    /// `c` prepared, its text and every attachment kept unwritten.
    fn unwritten(c: &Compose) -> Unwritten {
        Unwritten {
            prepared: prepare(c).unwrap(),
            text: c.text.clone(),
            bodies: c.attachments.iter().map(|a| Some(a.2.clone())).collect(),
        }
    }

    /// A mail kept unwritten reads back from its stored form to the same
    /// mail, and writes the bytes `build` writes, with or without parts; a
    /// part left out stays out.
    #[test]
    fn an_unwritten_mail_reads_back_and_writes_what_build_writes() {
        let mut c = compose();
        for parts in [2, 0] {
            c.attachments.truncate(parts);
            let u = unwritten(&c);
            let mut stored = Vec::new();
            u.to_bytes(&mut stored);
            let back = Unwritten::from_bytes(&stored).unwrap();
            assert_eq!(back, u);
            assert_eq!(back.write(), build(&c).unwrap());
        }
        let mut c = compose();
        let mut u = Unwritten {
            prepared: prepare(&c).unwrap(),
            text: c.text.clone(),
            bodies: vec![Some(c.attachments[0].2.clone()), None],
        };
        let mut stored = Vec::new();
        u.to_bytes(&mut stored);
        assert_eq!(Unwritten::from_bytes(&stored).unwrap(), u);
        c.attachments.truncate(1);
        u.prepared = prepare(&c).unwrap();
        u.bodies.truncate(1);
        assert_eq!(u.write(), build(&c).unwrap());
    }

    /// A stored form cut short, with bytes added, or with a count larger than
    /// its bytes could hold, is refused with what is wrong, never a panic or
    /// a huge allocation.
    #[test]
    fn a_damaged_unwritten_mail_is_refused_by_name() {
        let c = compose();
        let u = unwritten(&c);
        let mut stored = Vec::new();
        u.to_bytes(&mut stored);
        for cut in [0, 3, 10, stored.len() / 2, stored.len() - 1] {
            let e = Unwritten::from_bytes(&stored[..cut]).unwrap_err();
            assert!(
                matches!(
                    e,
                    UnwrittenError::TruncatedAt(_) | UnwrittenError::TruncatedIn(_)
                ),
                "{cut}: {e}"
            );
            assert!(e.to_string().contains("truncated"), "{cut}: {e}");
        }
        let mut longer = stored.clone();
        longer.push(0);
        let e = Unwritten::from_bytes(&longer).unwrap_err();
        assert_eq!(e, UnwrittenError::Trailing(1));
        assert_eq!(e.to_string(), "1 bytes after the mail");
        // The part-header count sits after the head and the boundary.
        let at = 4 + u.prepared.head.len() + 4 + u.prepared.boundary.as_ref().unwrap().len();
        let mut huge = stored.clone();
        huge[at..at + 4].copy_from_slice(&u32::MAX.to_be_bytes());
        let e = Unwritten::from_bytes(&huge).unwrap_err();
        assert!(
            matches!(e, UnwrittenError::Count { count, what: "part headers" } if count == u32::MAX as usize),
            "{e}"
        );
        assert!(
            e.to_string().contains("more than the bytes left hold"),
            "{e}"
        );
    }
}
