//! Whole records mailed compressed, and read back: a record file over
//! [`GZIP_OVER`] is attached as `NAME.gz` (gzip, with a header that names no
//! file and no time, so the same text gives the same bytes), beside the
//! umpire's signature over the text itself (`NAME.sig`: unpacking the file
//! gives the record and the signature that checks it). A record's hashes and
//! signatures do not compress, its JSON does: about a third of the text
//! goes out, which keeps the end-of-game mail of the longest game under half
//! of `max_mail_bytes`.
//!
//! Reading is capped ([`MAX_INFLATED`]): a small file that inflates without
//! end (a "zip bomb") is refused as soon as it passes the cap, never held
//! whole in memory.

use std::io::Read;
use std::path::Path;

/// A signed record file longer than this goes out compressed. Shorter ones
/// stay plain text, readable in any mail program.
pub const GZIP_OVER: usize = 64 * 1024;

/// The most a compressed record may inflate to. The longest record a
/// ruleset produces (20,000 entries, where self-play calls a game stuck) is
/// about 20 MB.
pub const MAX_INFLATED: u64 = 64 * 1024 * 1024;

/// The name a compressed file goes by.
pub const SUFFIX: &str = ".gz";

/// The MIME type of a compressed attachment.
pub const MIME: &str = "application/gzip";

/// Why a compressed file gives no text.
#[derive(Debug, thiserror::Error)]
pub enum InflateError {
    #[error(
        "inflates to more than {} MiB, more than any record: refused",
        MAX_INFLATED >> 20
    )]
    TooBig,
    #[error("not a readable gzip file: {0}")]
    Corrupt(std::io::Error),
    #[error("inflates to something that is not UTF-8 text")]
    NotText,
}

/// Does `bytes` start as a gzip stream does?
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// `text` compressed, the same bytes for the same text (no name, no time in
/// the header).
pub fn compress(text: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let out = Vec::with_capacity(text.len() / 3 + 64);
    let mut enc = flate2::GzBuilder::new()
        .mtime(0)
        .write(out, flate2::Compression::default());
    // Writing into a Vec cannot fail.
    let _ = enc.write_all(text);
    enc.finish().unwrap_or_default()
}

/// The text a gzip stream inflates to, refused once past [`MAX_INFLATED`].
pub fn inflate(compressed: impl Read) -> Result<String, InflateError> {
    inflate_capped(compressed, MAX_INFLATED)
}

/// [`inflate`] with a cap of `cap` bytes.
fn inflate_capped(compressed: impl Read, cap: u64) -> Result<String, InflateError> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(compressed)
        .take(cap + 1)
        .read_to_end(&mut out)
        .map_err(InflateError::Corrupt)?;
    if out.len() as u64 > cap {
        return Err(InflateError::TooBig);
    }
    String::from_utf8(out).map_err(|_| InflateError::NotText)
}

/// Why a record file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    #[error("{0}: {1}")]
    Inflate(String, InflateError),
    #[error("{0} is not text")]
    NotText(String),
}

/// A record file's text, inflated if it is compressed (known by its first
/// bytes, whatever its name).
pub fn read_text(path: &Path) -> Result<String, ReadError> {
    let name = || path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| ReadError::Io(name(), e))?;
    unpack(bytes).map_err(|e| match e {
        InflateError::NotText => ReadError::NotText(name()),
        e => ReadError::Inflate(name(), e),
    })
}

/// The text of a file's bytes: inflated if they are gzip, else as they are.
pub fn unpack(bytes: Vec<u8>) -> Result<String, InflateError> {
    if is_gzip(&bytes) {
        return inflate(bytes.as_slice());
    }
    String::from_utf8(bytes).map_err(|_| InflateError::NotText)
}

/// The first bytes of a record file's text (inflated if compressed), at
/// most `n`; empty if it does not read.
pub fn head(path: &Path, n: usize) -> Vec<u8> {
    let Ok(mut file) = std::fs::File::open(path) else {
        return Vec::new();
    };
    let mut first = vec![0u8; n.max(2)];
    let got = read_up_to(&mut file, &mut first).unwrap_or(0);
    first.truncate(got);
    if !is_gzip(&first) {
        first.truncate(n);
        return first;
    }
    let stream = std::io::Cursor::new(first).chain(file);
    let mut out = Vec::with_capacity(n);
    let _ = flate2::read::MultiGzDecoder::new(stream)
        .take(n as u64)
        .read_to_end(&mut out);
    out
}

/// Fills `buf` as far as the reader goes.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// The signature file beside a record file: `NAME.sig`, or for a compressed
/// `NAME.gz` the signature over its text, `NAME.sig` (as the mail attaches
/// it), if `NAME.gz.sig` is not there.
pub fn sig_path(path: &Path) -> std::path::PathBuf {
    let mut beside = path.as_os_str().to_owned();
    beside.push(".sig");
    let beside = std::path::PathBuf::from(beside);
    if beside.exists() {
        return beside;
    }
    match path.to_str().and_then(|p| p.strip_suffix(SUFFIX)) {
        Some(stem) => std::path::PathBuf::from(format!("{stem}.sig")),
        None => beside,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_text_compresses_to_the_same_bytes_and_back() {
        let text = "umpire-record 1\n{\"seq\":0}\n".repeat(5000);
        let a = compress(text.as_bytes());
        assert_eq!(a, compress(text.as_bytes()));
        assert!(is_gzip(&a));
        // No name, no time: flags 0, mtime 0.
        assert_eq!(&a[3..8], &[0, 0, 0, 0, 0]);
        assert!(a.len() < text.len() / 10);
        assert_eq!(inflate(a.as_slice()).unwrap(), text);
    }

    #[test]
    fn a_bomb_is_refused_at_the_cap_and_junk_is_named() {
        let bomb = compress(&vec![b'a'; 4096]);
        assert!(matches!(
            inflate_capped(bomb.as_slice(), 4095),
            Err(InflateError::TooBig)
        ));
        assert_eq!(inflate_capped(bomb.as_slice(), 4096).unwrap().len(), 4096);
        let junk = [0x1f, 0x8b, 8, 0, 1, 2, 3];
        assert!(matches!(
            inflate(junk.as_slice()),
            Err(InflateError::Corrupt(_))
        ));
        let binary = compress(&[0xff, 0xfe, 0]);
        assert!(matches!(
            inflate(binary.as_slice()),
            Err(InflateError::NotText)
        ));
    }
}
