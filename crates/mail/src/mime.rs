//! Reading mails (headers, text, attachments, moves inside them) and building
//! the umpire's replies.

use super::MailError;
pub use super::write::{Compose, build};
use lettre::message::Mailbox;
use mailparse::{MailHeaderMap, ParsedMail};
use umpire_core::movefile::{BEGIN_MOVE, BEGIN_SIG, find_armored, find_bare};

/// Largest attachment looked at; bigger ones are ignored (a move file is small).
pub const MAX_ATTACHMENT_BYTES: usize = 256 * 1024;
/// Most MIME leaf parts of a mail looked at; the rest are not read. A move
/// needs two (file and signature) or one (an armored body).
pub const MAX_PARTS: usize = 64;
/// Most attachments kept from one mail.
pub const MAX_ATTACHMENTS: usize = 16;
/// Most armored moves taken from one body (only the first signed one is used).
pub const MAX_ARMORED: usize = 8;
/// Longest Message-ID taken from a mail (RFC 5322 lines are at most 998
/// characters; ours go into References and In-Reply-To). Longer ones, and
/// ones with characters outside printable ASCII, are dropped.
pub const MAX_MESSAGE_ID: usize = 250;
/// Most Message-IDs kept from References and In-Reply-To.
pub const MAX_REFERENCES: usize = 32;
/// Longest mail address (RFC 5321: a path is at most 256 octets with brackets).
pub const MAX_ADDRESS: usize = 254;

/// An attachment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// What we read out of a mail.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadMail {
    pub message_id: Option<String>,
    /// The From address, lower case, no display name.
    pub from: Option<String>,
    pub subject: String,
    pub date: Option<String>,
    /// Message-IDs this mail replies to.
    pub references: Vec<String>,
    /// Why this is an automatic mail (bounce, auto-reply, list) we must not answer.
    pub automatic: Option<String>,
    /// The `X-Loop` header values, lower case (our own mails carry the umpire's address).
    pub loops: Vec<String>,
    /// The text/plain parts, decoded, joined.
    pub text: String,
    /// The text/html parts, decoded, joined (for mails that have no plain text).
    pub html: String,
    pub attachments: Vec<Part>,
}

/// A move found in a mail: its bytes (candidates, most literal first) and signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundMove {
    pub candidates: Vec<Vec<u8>>,
    pub signature: Option<String>,
    /// Where it was found, for messages: "attachment move.txt", "mail body".
    pub origin: String,
}

fn header(m: &ParsedMail, name: &str) -> Option<String> {
    m.get_headers()
        .get_first_value(name)
        .map(|v| v.trim().to_string())
}

fn ids(v: &str) -> Vec<String> {
    v.split_whitespace()
        .filter(|s| usable_id(s))
        .take(MAX_REFERENCES)
        .map(str::to_string)
        .collect()
}

/// A Message-ID we may copy into our own headers and use as a ledger key:
/// `<…>`, printable ASCII, at most [`MAX_MESSAGE_ID`] characters.
fn usable_id(s: &str) -> bool {
    s.len() > 2
        && s.len() <= MAX_MESSAGE_ID
        && s.starts_with('<')
        && s.ends_with('>')
        && s.bytes().all(|b| b.is_ascii_graphic())
}

/// Why a mail address is not one the mail builder can write back to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{address:?} is not a usable mail address: {problem}")]
pub struct AddressError {
    /// The address as given.
    pub address: String,
    /// What is wrong with it.
    pub problem: AddressProblem,
}

/// What is wrong with a mail address ([`AddressError`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum AddressProblem {
    /// Longer than [`MAX_ADDRESS`].
    #[error("too long")]
    TooLong,
    /// It holds spaces or control characters.
    #[error("it holds spaces or control characters")]
    Spaces,
    /// There is no `@`.
    #[error("no @")]
    NoAt,
    /// The local part is over 64 characters.
    #[error("the part before @ is over 64 characters")]
    LocalTooLong,
    /// It does not parse as an address, or not back as a mailbox.
    #[error("{0}")]
    Unread(lettre::address::AddressError),
}

/// Checks a mail address the way the mail builder will read it, within the
/// RFC 5321 length limits (local part at most 64, the whole at most
/// [`MAX_ADDRESS`]). A sender address that fails this is not answered.
pub fn check_address(addr: &str) -> Result<(), AddressError> {
    address_problem(addr).map_err(|problem| AddressError {
        address: addr.to_string(),
        problem,
    })
}

fn address_problem(addr: &str) -> Result<(), AddressProblem> {
    if addr.len() > MAX_ADDRESS {
        return Err(AddressProblem::TooLong);
    }
    if addr.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(AddressProblem::Spaces);
    }
    let Some((local, _)) = addr.rsplit_once('@') else {
        return Err(AddressProblem::NoAt);
    };
    if local.len() > 64 {
        return Err(AddressProblem::LocalTooLong);
    }
    let a = addr
        .parse::<lettre::Address>()
        .map_err(AddressProblem::Unread)?;
    // Written into a header, the address must read back as a mailbox (what
    // lettre's builder does to find the envelope, and what a reader of the
    // reply's To: does): a domain literal or a quoted local part with a
    // space parses as an address but not back as a mailbox.
    Mailbox::new(None, a)
        .to_string()
        .parse::<Mailbox>()
        .map(|_| ())
        .map_err(AddressProblem::Unread)
}

/// RFC 3834 and common practice: is this a bounce, an auto-reply or list traffic?
fn automatic(m: &ParsedMail, from: Option<&str>) -> Option<String> {
    if let Some(a) = header(m, "Auto-Submitted")
        && !a.eq_ignore_ascii_case("no")
    {
        return Some(format!("Auto-Submitted: {a}"));
    }
    if let Some(p) = header(m, "Precedence") {
        let p = p.to_ascii_lowercase();
        if ["bulk", "junk", "list", "auto_reply"].contains(&p.as_str()) {
            return Some(format!("Precedence: {p}"));
        }
    }
    for h in [
        "X-Autoreply",
        "X-Autorespond",
        "X-Auto-Response-Suppress",
        "List-Id",
        "X-Umpire-Game",
    ] {
        if header(m, h).is_some() {
            return Some(format!("{h} header"));
        }
    }
    if header(m, "Return-Path").is_some_and(|r| r.replace(' ', "") == "<>") {
        return Some("empty Return-Path (a bounce)".into());
    }
    if m.ctype.mimetype.eq_ignore_ascii_case("multipart/report") {
        return Some("delivery report".into());
    }
    if let Some(f) = from {
        let local = f.split('@').next().unwrap_or("");
        if ["mailer-daemon", "postmaster", "noreply", "no-reply"].contains(&local) {
            return Some(format!("sent by {f}"));
        }
    }
    None
}

/// Reads the leaf parts of `m` into `out`, at most `budget` of them.
fn walk(m: &ParsedMail, out: &mut ReadMail, budget: &mut usize) {
    if !m.subparts.is_empty() {
        for p in &m.subparts {
            if *budget == 0 {
                return;
            }
            walk(p, out, budget);
        }
        return;
    }
    *budget = budget.saturating_sub(1);
    let disp = m.get_content_disposition();
    let name = disp
        .params
        .get("filename")
        .cloned()
        .or_else(|| m.ctype.params.get("name").cloned());
    let is_text = m.ctype.mimetype.eq_ignore_ascii_case("text/plain");
    // A named part is an attachment whatever its disposition (clients differ).
    if let Some(name) = name {
        if out.attachments.len() < MAX_ATTACHMENTS
            && let Ok(bytes) = m.get_body_raw()
            && bytes.len() <= MAX_ATTACHMENT_BYTES
        {
            out.attachments.push(Part { name, bytes });
        }
        return;
    }

    if m.ctype.mimetype.eq_ignore_ascii_case("text/html")
        && let Ok(body) = m.get_body()
    {
        out.html.push_str(&body);
        return;
    }
    if is_text && let Ok(body) = m.get_body() {
        if !out.text.is_empty() {
            out.text.push('\n');
        }
        let param = |k: &str| m.ctype.params.get(k).map(|v| v.to_ascii_lowercase());
        if param("format").as_deref() == Some("flowed") {
            out.text
                .push_str(&unflow(&body, param("delsp").as_deref() == Some("yes")));
        } else {
            out.text.push_str(&body);
        }
    }
}

/// Decodes a `format=flowed` text (RFC 3676), as most mail clients send
/// plain text: a line ending in a space continues on the next (a soft
/// break), and a line starting with a space had one added ("stuffing"). An
/// armored move pasted into such a client comes back as it was signed.
fn unflow(body: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(body.len());
    let mut open: Option<usize> = None; // quote depth of a paragraph still flowing
    for line in body.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let depth = line.bytes().take_while(|b| *b == b'>').count();
        let mut content = &line[depth..];
        if let Some(rest) = content.strip_prefix(' ') {
            content = rest;
        }
        let soft = content.ends_with(' ') && content != "-- ";
        if open != Some(depth) {
            if open.is_some() {
                out.push('\n');
            }
            if depth > 0 {
                out.push_str(&">".repeat(depth));
                out.push(' ');
            }
        }
        out.push_str(if soft && delsp {
            &content[..content.len() - 1]
        } else {
            content
        });
        if soft {
            open = Some(depth);
        } else {
            out.push('\n');
            open = None;
        }
    }
    // The split leaves one empty last line for a body ending in a newline.
    if body.ends_with('\n') && out.ends_with("\n\n") {
        out.pop();
    }
    out
}

/// Parses a raw mail.
pub fn read(raw: &[u8]) -> Result<ReadMail, MailError> {
    let m = mailparse::parse_mail(raw)
        .map_err(|e| MailError::Protocol(format!("not a readable mail: {e}")))?;
    let from = header(&m, "From").and_then(|f| {
        mailparse::addrparse(&f).ok().and_then(|list| {
            list.iter().find_map(|a| match a {
                mailparse::MailAddr::Single(s) => Some(s.addr.to_ascii_lowercase()),
                mailparse::MailAddr::Group(g) => {
                    g.addrs.first().map(|s| s.addr.to_ascii_lowercase())
                }
            })
        })
    });
    // A sender we could not write back to is no sender: such a mail is
    // read, recorded and left unanswered.
    let from = from.filter(|f| check_address(f).is_ok());
    let mut out = ReadMail {
        message_id: header(&m, "Message-ID").and_then(|v| ids(&v).into_iter().next()),
        subject: header(&m, "Subject").unwrap_or_default(),
        date: header(&m, "Date"),
        references: {
            let mut r = header(&m, "References")
                .map(|v| ids(&v))
                .unwrap_or_default();
            r.extend(
                header(&m, "In-Reply-To")
                    .map(|v| ids(&v))
                    .unwrap_or_default(),
            );
            r
        },
        automatic: automatic(&m, from.as_deref()),
        loops: m
            .get_headers()
            .get_all_values("X-Loop")
            .into_iter()
            .take(16)
            .map(|v| v.trim().to_ascii_lowercase())
            .collect(),
        from,
        ..Default::default()
    };
    let mut budget = MAX_PARTS;
    walk(&m, &mut out, &mut budget);
    Ok(out)
}

fn is_sig(p: &Part) -> bool {
    p.name.ends_with(".sig") || p.bytes.trim_ascii_start().starts_with(BEGIN_SIG.as_bytes())
}

/// Every move in a mail: attachment pairs (`move.txt` + `move.txt.sig`) and
/// armored blocks in the body. Unsigned move-like attachments come back with
/// no signature, so the caller can explain how to sign.
pub fn moves(mail: &ReadMail) -> Vec<FoundMove> {
    let mut out = Vec::new();
    let sigs: Vec<&Part> = mail.attachments.iter().filter(|p| is_sig(p)).collect();
    let files: Vec<&Part> = mail.attachments.iter().filter(|p| !is_sig(p)).collect();
    // Pairs by name in one pass (the first signature of each name counts).
    let mut by_name: std::collections::BTreeMap<&str, &Part> = Default::default();
    for s in sigs.iter().rev() {
        by_name.insert(s.name.as_str(), s);
    }
    for f in &files {
        let sig = by_name
            .get(format!("{}.sig", f.name).as_str())
            .or_else(|| (files.len() == 1 && sigs.len() == 1).then(|| &sigs[0]));
        let looks_like_move = f.bytes.windows(5).any(|w| w == b"game:");
        if sig.is_none() && !looks_like_move {
            continue;
        }
        // Mail carries text as CRLF: a file signed with LF line ends and sent
        // as 7bit or quoted-printable text arrives with CRLF. The candidate
        // the signature verifies is the one that was signed.
        let mut candidates = vec![f.bytes.clone()];
        if f.bytes.windows(2).any(|w| w == b"\r\n") {
            let b = &f.bytes;
            let lf = (0..b.len())
                .filter(|&i| !(b[i] == b'\r' && b.get(i + 1) == Some(&b'\n')))
                .map(|i| b[i])
                .collect();
            candidates.push(lf);
        }
        out.push(FoundMove {
            candidates,
            signature: sig.map(|s| String::from_utf8_lossy(&s.bytes).into_owned()),
            origin: format!("attachment {}", f.name),
        });
    }
    // Webmail may send HTML only: read the armored block out of its text.
    let from_html;
    let body = if mail.text.trim().is_empty() && !mail.html.is_empty() {
        from_html = html_text(&mail.html);
        &from_html
    } else {
        &mail.text
    };
    for a in find_armored(body).into_iter().take(MAX_ARMORED) {
        out.push(FoundMove {
            candidates: a.candidates,
            signature: Some(a.signature),
            origin: "mail body".into(),
        });
    }
    // A move and its signature pasted without the armor lines.
    if !body.contains(BEGIN_MOVE)
        && let Some(a) = find_bare(body)
    {
        out.push(FoundMove {
            candidates: a.candidates,
            signature: Some(a.signature),
            origin: "mail body (without the armor lines)".into(),
        });
    }
    out
}

/// What a mail that carried no signed move holds instead, in words for the
/// sender: a signature without its file, a file without its signature, an
/// unsigned move in the body, or nothing move-like at all.
pub fn missing_signature(mail: &ReadMail, found: &[FoundMove]) -> String {
    if let Some(f) = found.first() {
        return format!(
            "the move file ({}) came without its signature. Attach the .sig file \
             that ssh-keygen wrote beside it (move.txt.sig for move.txt), or paste \
             the armored block into the body.",
            f.origin
        );
    }
    if let Some(sig) = mail.attachments.iter().find(|p| is_sig(p)) {
        return format!(
            "the mail carried only a signature ({}), not the move file it signs. \
             Attach both files: the move (move.txt) and its signature (move.txt.sig).",
            sig.name
        );
    }
    let body = if mail.text.trim().is_empty() {
        html_text(&mail.html)
    } else {
        mail.text.clone()
    };
    if body.contains(BEGIN_SIG) {
        return "the body holds a signature but no move file above it (a `game:` line \
                first). Paste the whole armored block that `umpire sign --armor` prints."
            .into();
    }
    if looks_like_unsigned_move(mail) || body.contains(BEGIN_MOVE) {
        return "the move in the body is not signed. Sign the file and paste the \
                armored block, or attach the file and its .sig."
            .into();
    }
    "the mail holds no move file and no signature.".into()
}

/// What a mail client probably did to a signed move whose signature does
/// not verify, and how to send it safely; empty when nothing points to it.
pub fn damage_hint(mail: &ReadMail, found: &FoundMove) -> String {
    let text = String::from_utf8_lossy(&found.candidates[0]);
    let mut why = Vec::new();
    if found.origin.starts_with("mail body") && mail.text.trim().is_empty() && !mail.html.is_empty()
    {
        why.push("the mail was sent as HTML only, whose line breaks are not the file's");
    }
    if text.contains('\u{a0}') {
        why.push("spaces became non-breaking spaces");
    }
    if text.lines().any(|l| l.len() > 72) {
        why.push("a line over 72 columns may have been re-wrapped (or format=flowed)");
    }
    if text.lines().any(|l| l.ends_with(' ')) {
        why.push("lines end in spaces, which re-wrapping or format=flowed adds");
    }
    if why.is_empty() && !found.origin.starts_with("mail body") {
        return String::new();
    }
    let mut t = String::from(
        "If you signed exactly this text, your mail client probably changed it on the way",
    );
    if why.is_empty() {
        t.push('.');
    } else {
        t.push_str(": ");
        t.push_str(&why.join("; "));
        t.push('.');
    }
    t.push_str(
        " To send it safely, attach move.txt and move.txt.sig as files, or paste \
         the armored block into a plain-text (not HTML) mail, with no line over \
         72 columns.",
    );
    t
}

/// The text of an HTML body, as a reader sees it: tags dropped, line breaks
/// at `<br>`, `</p>` and `</div>`, the common entities decoded.
pub fn html_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    // The source's own line end after a `<br>` is layout, not a second break.
    let mut broke = false;
    let text = |t: &str, broke: bool| -> String {
        let t = if broke {
            t.strip_prefix("\r\n")
                .or_else(|| t.strip_prefix('\n'))
                .unwrap_or(t)
        } else {
            t
        };
        t.to_string()
    };
    while let Some(i) = rest.find('<') {
        out.push_str(&text(&rest[..i], broke));
        broke = false;
        let Some(j) = rest[i..].find('>') else {
            rest = "";
            break;
        };
        let tag = rest[i + 1..i + j].trim().to_ascii_lowercase();
        let name = tag
            .trim_start_matches('/')
            .split([' ', '/'])
            .next()
            .unwrap_or("");
        if matches!(name, "br" | "p" | "div" | "tr" | "li")
            && (name == "br" || tag.starts_with('/'))
        {
            out.push('\n');
            broke = true;
        }
        rest = &rest[i + j + 1..];
    }
    out.push_str(&text(rest, broke));
    out.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Does the body look like an unsigned move (a `game:` line)?
pub fn looks_like_unsigned_move(mail: &ReadMail) -> bool {
    mail.text
        .lines()
        .any(|l| l.trim_start().to_ascii_lowercase().starts_with("game:"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compose() -> Compose {
        Compose {
            from_name: "Umpire".into(),
            from: "umpire@club.test".into(),
            to: vec!["alice@club.test".into()],
            subject: "[g1] result".into(),
            message_id: "<umpire.g1.1@club.test>".into(),
            in_reply_to: Some("<m1@club.test>".into()),
            references: vec!["<open@club.test>".into()],
            text: "Hello =\nmap:\n  0101 \\__/ \n".into(),
            attachments: vec![(
                "record.txt".into(),
                "text/plain".into(),
                b"# umpire record\n".to_vec(),
            )],
            auto_submitted: "auto-replied",
            headers: vec![("X-Umpire-Game".into(), "g1".into())],
            date: std::time::UNIX_EPOCH,
        }
    }

    #[test]
    fn built_mails_read_back() {
        let raw = build(&compose()).unwrap();
        let m = read(&raw).unwrap();
        assert_eq!(m.message_id.as_deref(), Some("<umpire.g1.1@club.test>"));
        assert_eq!(m.from.as_deref(), Some("umpire@club.test"));
        assert_eq!(
            m.text.replace("\r\n", "\n"),
            "Hello =\nmap:\n  0101 \\__/ \n"
        );
        assert_eq!(m.attachments[0].name, "record.txt");
        assert!(m.references.contains(&"<m1@club.test>".to_string()));
        // Our own mails are automatic: a loop back to us is never answered.
        assert!(m.automatic.is_some());
    }

    #[test]
    fn bounces_and_auto_replies_are_recognised() {
        for raw in [
            "From: MAILER-DAEMON@x.test\r\nSubject: Undelivered\r\n\r\nx",
            "From: a@x.test\r\nAuto-Submitted: auto-replied\r\n\r\nOn holiday",
            "From: a@x.test\r\nPrecedence: bulk\r\n\r\nx",
            "From: a@x.test\r\nReturn-Path: <>\r\n\r\nx",
            "From: a@x.test\r\nContent-Type: multipart/report; boundary=b\r\n\r\n--b\r\n\r\nx\r\n--b--\r\n",
        ] {
            assert!(read(raw.as_bytes()).unwrap().automatic.is_some(), "{raw}");
        }
        let plain = read(b"From: Alice <Alice@X.test>\r\nAuto-Submitted: no\r\n\r\nmove").unwrap();
        assert!(plain.automatic.is_none());
        assert_eq!(plain.from.as_deref(), Some("alice@x.test"));
    }

    #[test]
    fn attachment_pairs_and_armored_blocks_are_found() {
        let c = Compose {
            attachments: vec![
                (
                    "move.txt".into(),
                    "text/plain".into(),
                    b"game: g1\nside: a\n".to_vec(),
                ),
                (
                    "move.txt.sig".into(),
                    "application/octet-stream".into(),
                    b"-----BEGIN SSH SIGNATURE-----\nAA\n-----END SSH SIGNATURE-----\n".to_vec(),
                ),
            ],
            text: "see attached\n".into(),
            ..compose()
        };
        let m = read(&build(&c).unwrap()).unwrap();
        let found = moves(&m);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].candidates[0], b"game: g1\nside: a\n");
        assert!(
            found[0]
                .signature
                .as_deref()
                .unwrap()
                .starts_with(BEGIN_SIG)
        );
        assert_eq!(found[0].origin, "attachment move.txt");

        let body = "hi\n-----BEGIN UMPIRE MOVE-----\ngame: g1\n-----END UMPIRE MOVE-----\n-----BEGIN SSH SIGNATURE-----\nAA\n-----END SSH SIGNATURE-----\n";
        let m =
            read(format!("From: a@x.test\r\nContent-Type: text/plain\r\n\r\n{body}").as_bytes())
                .unwrap();
        let found = moves(&m);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].origin, "mail body");
    }

    #[test]
    fn a_text_attachment_whose_line_ends_the_mail_path_changed_still_offers_the_signed_bytes() {
        // A move signed with LF line ends, attached as text/plain 7bit: SMTP
        // and IMAP carry text as CRLF, so the reader sees CRLF.
        let signed = b"game: g1\nside: a\n".to_vec();
        let c = Compose {
            attachments: vec![
                ("move.txt".into(), "text/plain".into(), signed.clone()),
                (
                    "move.txt.sig".into(),
                    "application/octet-stream".into(),
                    b"-----BEGIN SSH SIGNATURE-----\nAA\n-----END SSH SIGNATURE-----\n".to_vec(),
                ),
            ],
            ..compose()
        };
        let built = build(&c).unwrap();
        let mut received = Vec::new();
        for (i, b) in built.iter().enumerate() {
            if *b == b'\n' && (i == 0 || built[i - 1] != b'\r') {
                received.push(b'\r');
            }
            received.push(*b);
        }
        let found = moves(&read(&received).unwrap());
        assert_eq!(found.len(), 1);
        assert!(
            found[0].candidates.contains(&signed),
            "{:?}",
            found[0]
                .candidates
                .iter()
                .map(|c| String::from_utf8_lossy(c))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_format_flowed_body_is_read_as_written() {
        // As Thunderbird sends plain text: the indented lines stuffed with a
        // space, the long line broken after a space.
        let raw = "From: a@x.test\r\nContent-Type: text/plain; charset=utf-8; format=flowed\r\n\r\n\
                   -----BEGIN UMPIRE MOVE-----\r\ngame: g1\r\norders:\r\n   advance on the \r\nbridge\r\n\
                   -----END UMPIRE MOVE-----\r\n-- \r\nAlice\r\n";
        let m = read(raw.as_bytes()).unwrap();
        assert_eq!(
            m.text,
            "-----BEGIN UMPIRE MOVE-----\ngame: g1\norders:\n  advance on the bridge\n\
             -----END UMPIRE MOVE-----\n-- \nAlice\n"
        );
        assert_eq!(unflow("a \r\nb\r\n", true), "ab\n");
        assert_eq!(unflow("> q \r\n> r\r\nx\r\n", false), "> q r\nx\n");
    }

    #[test]
    fn an_armored_move_in_an_html_only_mail_is_found() {
        let html = "<html><body><div>My move:</div><div>-----BEGIN UMPIRE MOVE-----<br>game: g1<br>orders:<br>&nbsp; end turn<br>-----END UMPIRE MOVE-----<br>-----BEGIN SSH SIGNATURE-----<br>AA&amp;B<br>-----END SSH SIGNATURE-----</div></body></html>";
        let raw = format!("From: a@x.test\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}");
        let m = read(raw.as_bytes()).unwrap();
        let found = moves(&m);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].candidates[0], b"game: g1\norders:\n  end turn\n");
        assert!(found[0].signature.as_deref().unwrap().contains("AA&B"));
    }

    #[test]
    fn only_addresses_the_builder_can_write_to_are_senders() {
        let long = format!("{}@x.test", "a".repeat(300));
        for bad in [
            "a..b@x",
            "@",
            "a@[127.0.0.1]",
            "a@[IPv6:::1]",
            "\"a b\"@x.test",
            "a@b@c",
            &long,
            "a@-x.test",
            "a b@x",
        ] {
            assert!(check_address(bad).is_err(), "{bad}");
            let raw = format!("From: {bad}\r\n\r\nx");
            assert_eq!(read(raw.as_bytes()).unwrap().from, None, "{bad}");
        }
        for good in ["alice@club.test", "a.b+c@x-y.example", "umpire@localhost"] {
            check_address(good).unwrap();
        }
    }

    /// Each way an address fails is its own case, with the text it always had.
    #[test]
    fn an_unusable_address_names_its_problem() {
        let problem = |a: &str| check_address(a).unwrap_err().problem;
        assert_eq!(
            problem(&format!("{}@x.test", "a".repeat(300))),
            AddressProblem::TooLong
        );
        assert_eq!(problem("a b@x"), AddressProblem::Spaces);
        assert_eq!(problem("ab"), AddressProblem::NoAt);
        assert_eq!(
            problem(&format!("{}@x", "a".repeat(65))),
            AddressProblem::LocalTooLong
        );
        assert!(matches!(problem("a..b@x"), AddressProblem::Unread(_)));
        assert!(matches!(
            problem("a@[127.0.0.1]"),
            AddressProblem::Unread(_)
        ));
        assert_eq!(
            check_address("a b@x").unwrap_err().to_string(),
            "\"a b@x\" is not a usable mail address: it holds spaces or control characters"
        );
        assert_eq!(
            check_address("ab").unwrap_err().to_string(),
            "\"ab\" is not a usable mail address: no @"
        );
    }

    #[test]
    fn a_malformed_mail_is_not_a_panic() {
        for raw in [
            &b""[..],
            b"\xff\xfe\x00",
            b"Content-Type: multipart/mixed; boundary=\r\n\r\n--\r\n",
            b"From: <<<\r\n\r\n",
        ] {
            let _ = read(raw);
        }
    }
}
