//! A small HTTP/1.1 client for the OAuth2 token endpoint: one form POST per
//! connection (`Connection: close`), over the rustls the mail transports use,
//! the whole exchange within one deadline and the answer bounded in size.
//!
//! Why not an HTTP crate: the token endpoint takes one kind of request, and a
//! few dozen lines over the TLS and timeout code IMAP and SMTP already have
//! add no dependency to audit. Plain `http://` is allowed only to a loopback
//! host, as the project's TLS rules say for mail (the refresh token and the
//! client secret travel in the body).

use super::super::imap::{Timed, connect_any, handshake, resolve};
use super::super::settings::is_loopback_name;
use super::super::{MailError, tls};
use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// The most of an answer read (a token answer is a few KiB).
pub const MAX_ANSWER: u64 = 256 * 1024;

/// An `http(s)://host[:port]/path` URL, split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    /// `https` or `http`.
    pub tls: bool,
    /// Host name or address (IPv6 without brackets).
    pub host: String,
    /// Port (default 443 or 80).
    pub port: u16,
    /// Path and query, starting with `/`.
    pub path: String,
}

impl Url {
    /// Parses `url`; `http://` only for a loopback host.
    pub fn parse(url: &str) -> Result<Url, String> {
        let (tls, rest) = if let Some(r) = url.strip_prefix("https://") {
            (true, r)
        } else if let Some(r) = url.strip_prefix("http://") {
            (false, r)
        } else {
            return Err(format!("{url:?} is not an https:// URL"));
        };
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        if authority.contains('@') {
            return Err(format!(
                "{url:?}: a user or password in the URL is not supported"
            ));
        }
        let (host, port) = if let Some(r) = authority.strip_prefix('[') {
            let (h, after) = r
                .split_once(']')
                .ok_or_else(|| format!("{url:?}: unclosed '['"))?;
            (h, after.strip_prefix(':'))
        } else {
            match authority.rsplit_once(':') {
                Some((h, p)) => (h, Some(p)),
                None => (authority, None),
            }
        };
        let port = match port {
            Some(p) => p
                .parse::<u16>()
                .ok()
                .filter(|p| *p != 0)
                .ok_or_else(|| format!("{url:?}: {p:?} is not a port"))?,
            None if tls => 443,
            None => 80,
        };
        if host.is_empty()
            || host
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '/')
            || path.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(format!("{url:?} is not a URL"));
        }
        if !tls && !is_loopback_name(host) {
            return Err(format!(
                "{url:?}: plain http:// sends the secrets unencrypted, so it is only allowed \
                 for a loopback host; use https://"
            ));
        }
        Ok(Url {
            tls,
            host: host.to_string(),
            port,
            path: path.to_string(),
        })
    }
}

/// An HTTP answer: its status and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The body, de-chunked.
    pub body: Vec<u8>,
}

/// POSTs `form` (already `application/x-www-form-urlencoded`) to `url` and
/// reads the answer, all within `timeout`. Errors are
/// [`MailError::Transient`] (unreachable, too slow, garbled) or
/// [`MailError::Tls`] (a certificate the roots do not trust); they never
/// contain the form, which holds secrets.
pub fn post_form(
    url: &Url,
    form: &str,
    ca_file: Option<&Path>,
    timeout: Duration,
) -> Result<Answer, MailError> {
    let deadline = Instant::now() + timeout;
    let addrs = resolve(&url.host, url.port, !url.tls)?;
    let tcp = connect_any(&addrs, timeout)?;
    let _ = tcp.set_nodelay(true);
    let host_header = if url.host.contains(':') {
        format!("[{}]", url.host)
    } else {
        url.host.clone()
    };
    let request = format!(
        "POST {} HTTP/1.1\r\nHost: {host_header}\r\nContent-Type: application/x-www-form-urlencoded\r\n\
         Accept: application/json\r\nUser-Agent: umpire\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{form}",
        url.path,
        form.len()
    );
    let raw = if url.tls {
        let cfg = tls::client_config(ca_file)?;
        let left = deadline.saturating_duration_since(Instant::now());
        let mut stream = handshake(&url.host, tcp, cfg, left)?;
        exchange_tls(&mut stream, request.as_bytes(), deadline)?
    } else {
        let mut timed = Timed {
            tcp: &tcp,
            deadline,
        };
        exchange(&mut timed, request.as_bytes())?
    };
    parse_answer(&raw)
}

fn exchange_tls(
    stream: &mut rustls::StreamOwned<rustls::ClientConnection, std::net::TcpStream>,
    request: &[u8],
    deadline: Instant,
) -> Result<Vec<u8>, MailError> {
    // The socket's timeouts are set from the deadline before each read or
    // write, as `Timed` does for a plain stream.
    struct Deadlined<'a> {
        s: &'a mut rustls::StreamOwned<rustls::ClientConnection, std::net::TcpStream>,
        deadline: Instant,
    }
    impl Read for Deadlined<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let left =
                super::super::imap::left_until(self.deadline, "the token endpoint took too long")?;
            self.s.sock.set_read_timeout(Some(left))?;
            match self.s.read(buf) {
                // A server that closes without close_notify: the body ends there.
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(0),
                r => r,
            }
        }
    }
    impl Write for Deadlined<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let left =
                super::super::imap::left_until(self.deadline, "the token endpoint took too long")?;
            self.s.sock.set_write_timeout(Some(left))?;
            self.s.write(buf)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            self.s.flush()
        }
    }
    exchange(
        &mut Deadlined {
            s: stream,
            deadline,
        },
        request,
    )
}

fn exchange(s: &mut (impl Read + Write), request: &[u8]) -> Result<Vec<u8>, MailError> {
    s.write_all(request)
        .and_then(|_| s.flush())
        .map_err(|e| io_error(e, "sending the request"))?;
    let mut raw = Vec::new();
    s.take(MAX_ANSWER + 1)
        .read_to_end(&mut raw)
        .map_err(|e| io_error(e, "reading the answer"))?;
    if raw.len() as u64 > MAX_ANSWER {
        return Err(MailError::Transient(format!(
            "the answer is longer than {MAX_ANSWER} bytes"
        )));
    }
    Ok(raw)
}

fn io_error(e: std::io::Error, what: &str) -> MailError {
    if let Some(r) = tls::rustls_error_in(&e) {
        return MailError::Tls(format!("{what}: {}", tls::describe(r)));
    }
    MailError::Transient(format!("{what}: {e}"))
}

/// Splits a whole HTTP/1.1 answer into status and body (`Content-Length`,
/// chunked, or up to the end).
pub fn parse_answer(raw: &[u8]) -> Result<Answer, MailError> {
    let bad = |why: &str| MailError::Transient(format!("not an HTTP answer: {why}"));
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of header"))?;
    let head = std::str::from_utf8(&raw[..end]).map_err(|_| bad("header is not text"))?;
    let body = &raw[end + 4..];
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or("");
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or("");
    if !version.starts_with("HTTP/1.") {
        return Err(bad("no HTTP/1.x status line"));
    }
    let status = parts
        .next()
        .and_then(|c| c.parse::<u16>().ok())
        .filter(|c| (100..600).contains(c))
        .ok_or_else(|| bad("no status code"))?;
    let mut length = None;
    let mut chunked = false;
    for l in lines {
        let Some((name, value)) = l.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = Some(
                value
                    .parse::<usize>()
                    .map_err(|_| bad("bad Content-Length"))?,
            );
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.to_ascii_lowercase().contains("chunked");
        }
    }
    let body = if chunked {
        dechunk(body).ok_or_else(|| bad("broken chunked body"))?
    } else if let Some(n) = length {
        body.get(..n)
            .ok_or_else(|| bad("body shorter than its Content-Length"))?
            .to_vec()
    } else {
        body.to_vec()
    };
    Ok(Answer { status, body })
}

fn dechunk(mut b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let eol = b.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&b[..eol]).ok()?;
        let size_text = size_text.split(';').next()?.trim();
        let size = usize::from_str_radix(size_text, 16).ok()?;
        b = &b[eol + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(b.get(..size)?);
        b = b.get(size..)?.strip_prefix(b"\r\n")?;
    }
}

/// `application/x-www-form-urlencoded` for `pairs`.
pub fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Percent-encodes everything but the unreserved characters (RFC 3986).
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let u = Url::parse("https://login.microsoftonline.com/common/oauth2/v2.0/token").unwrap();
        assert_eq!(
            (u.tls, u.host.as_str(), u.port),
            (true, "login.microsoftonline.com", 443)
        );
        assert_eq!(u.path, "/common/oauth2/v2.0/token");
        let u = Url::parse("http://127.0.0.1:8080/token").unwrap();
        assert_eq!((u.tls, u.port, u.path.as_str()), (false, 8080, "/token"));
        let u = Url::parse("http://[::1]:9/t").unwrap();
        assert_eq!(u.host, "::1");
        assert!(
            Url::parse("http://oauth2.example.org/token")
                .unwrap_err()
                .contains("loopback")
        );
        assert!(Url::parse("ftp://x/").is_err());
        assert!(Url::parse("https://u:p@x/").is_err());
        assert!(Url::parse("https://x:0/").is_err());
        assert!(Url::parse("https://x/a b").is_err());
    }

    #[test]
    fn answers_with_length_chunks_or_eof() {
        let a = parse_answer(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}junk").unwrap();
        assert_eq!((a.status, a.body.as_slice()), (200, &b"{}"[..]));
        let a = parse_answer(
            b"HTTP/1.1 400 Bad\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n4;x=y\r\n\":1}\r\n0\r\n\r\n",
        )
        .unwrap();
        assert_eq!((a.status, a.body.as_slice()), (400, &b"{\"a\":1}"[..]));
        let a = parse_answer(b"HTTP/1.0 200 OK\r\n\r\nall of it").unwrap();
        assert_eq!(a.body, b"all of it");
        for bad in [
            &b""[..],
            b"HTTP/1.1 200 OK\r\n",
            b"SMTP 220\r\n\r\n",
            b"HTTP/1.1 2000 x\r\n\r\n",
            b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nab",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
        ] {
            assert!(
                parse_answer(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn forms_are_percent_encoded() {
        assert_eq!(
            form(&[("grant_type", "refresh_token"), ("scope", "a b/c&d=e")]),
            "grant_type=refresh_token&scope=a%20b%2Fc%26d%3De"
        );
    }
}
