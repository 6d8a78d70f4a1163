//! Intake from a local Maildir: new mail in `new/`, processed mail moved to `cur/`.

use super::{Incoming, Intake, MailError};
use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// A Maildir (`tmp/`, `new/`, `cur/`).
pub struct Maildir {
    root: PathBuf,
    /// Mails larger than this are read only up to their header section
    /// (at most 64 KiB) and come back with `oversize` set.
    max_bytes: u64,
    /// When each mail listed in `new/` arrived (its mtime), by file name: a
    /// Maildir name is unique to one delivery, so each mail is looked at once
    /// however many fetches list it (a poll of 1,000 mails fetches ten
    /// times). Holds only the names the last listing saw.
    arrived: HashMap<String, SystemTime>,
}

/// How much of an oversized mail is read: enough for its header section.
const HEAD_BYTES: u64 = 64 * 1024;

/// Is this directory entry a mail file? Only regular files are: a directory,
/// FIFO, socket, device or symlink dropped into `new/` is left alone (reading
/// a FIFO would wait forever, a symlink may point anywhere).
/// A name that is not UTF-8 is skipped too: it could not be passed to `done`.
pub fn is_mail_file(entry: &fs::DirEntry) -> bool {
    entry
        .file_name()
        .to_str()
        .is_some_and(|n| !n.starts_with('.'))
        && entry.file_type().is_ok_and(|t| t.is_file())
}

/// Opens a file for reading without waiting on a FIFO put there in a race,
/// and refuses anything that turns out not to be a regular file.
fn open_regular(path: &Path) -> std::io::Result<Option<fs::File>> {
    let mut o = fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    let f = match o.open(path) {
        Ok(f) => f,
        // O_NOFOLLOW on a symlink.
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Ok(None),
        Err(e) => return Err(e),
    };
    Ok(f.metadata()?.is_file().then_some(f))
}

impl Maildir {
    /// Opens (and creates, if missing) the Maildir at `root`.
    pub fn open(root: &Path) -> Result<Maildir, MailError> {
        for sub in ["tmp", "new", "cur"] {
            let d = root.join(sub);
            fs::create_dir_all(&d)
                .map_err(|e| MailError::io(format!("creating {}", d.display()), e))?;
        }
        Ok(Maildir {
            root: root.to_path_buf(),
            max_bytes: u64::MAX,
            arrived: HashMap::new(),
        })
    }

    /// Reads mails over `max` bytes only up to their header section.
    pub fn with_max_bytes(mut self, max: usize) -> Maildir {
        self.max_bytes = max as u64;
        self
    }

    /// The Maildir's root folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Delivers raw bytes into `new/` the Maildir way (write in `tmp/`, rename).
    /// Used by `demo`, tests and anyone feeding the umpire by hand.
    pub fn deliver(&self, name: &str, raw: &[u8]) -> Result<PathBuf, MailError> {
        let tmp = self.root.join("tmp").join(name);
        fs::write(&tmp, raw).map_err(|e| MailError::io(format!("writing {}", tmp.display()), e))?;
        let new = self.root.join("new").join(name);
        fs::rename(&tmp, &new).map_err(|e| MailError::io(format!("moving {} to new/", name), e))?;
        Ok(new)
    }
}

impl Maildir {
    /// A mail file's bytes, or its first [`HEAD_BYTES`] and its size if it
    /// is over the cap. `None` if it is not a regular file.
    fn read_mail(&self, path: &Path) -> std::io::Result<Option<(Vec<u8>, Option<u64>)>> {
        use std::io::Read;
        let Some(f) = open_regular(path)? else {
            return Ok(None);
        };
        let size = f.metadata()?.len();
        let over = size > self.max_bytes;
        let limit = if over { HEAD_BYTES } else { self.max_bytes };
        let mut raw = Vec::new();
        f.take(limit.saturating_add(1)).read_to_end(&mut raw)?;
        if over || raw.len() as u64 > self.max_bytes {
            // Grown since the size was read, or over the cap: headers only.
            raw.truncate(HEAD_BYTES as usize);
            return Ok(Some((
                raw,
                Some(size.max(self.max_bytes.saturating_add(1))),
            )));
        }
        Ok(Some((raw, None)))
    }
}

impl Intake for Maildir {
    fn fetch(&mut self, limit: usize) -> Result<Vec<Incoming>, MailError> {
        self.fetch_skipping(limit, &[])
    }

    fn fetch_skipping(
        &mut self,
        limit: usize,
        skip: &[String],
    ) -> Result<Vec<Incoming>, MailError> {
        let skip: HashSet<&str> = skip.iter().map(String::as_str).collect();
        let dir = self.root.join("new");
        let mut names: Vec<(SystemTime, String)> = Vec::new();
        let mut arrived = HashMap::with_capacity(self.arrived.len());
        let rd = fs::read_dir(&dir)
            .map_err(|e| MailError::io(format!("reading {}", dir.display()), e))?;
        for entry in rd {
            let entry = entry.map_err(|e| MailError::io("listing new/", e))?;
            if !is_mail_file(&entry) {
                continue;
            }
            // A name that is not UTF-8 could not be passed back to `done`.
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            let modified = match self.arrived.remove(&name) {
                Some(t) => t,
                None => entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH),
            };
            arrived.insert(name.clone(), modified);
            if !skip.contains(name.as_str()) {
                names.push((modified, name));
            }
        }
        self.arrived = arrived;
        // Oldest first; the name breaks ties so the order is stable.
        names.sort();
        let mut out = Vec::new();
        for (_, name) in names.into_iter().take(limit) {
            let path = dir.join(&name);
            match self.read_mail(&path) {
                Ok(Some((raw, oversize))) => out.push(Incoming {
                    id: name,
                    raw,
                    oversize,
                }),
                // Not a regular file after all (swapped since the listing).
                Ok(None) => continue,
                // Another process took it between listing and reading.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(MailError::io(format!("reading {}", path.display()), e)),
            }
        }
        Ok(out)
    }

    fn done(&mut self, id: &str) -> Result<(), MailError> {
        self.arrived.remove(id);
        mark_done(&self.root, id)
    }

    fn detached_done(&self) -> Option<super::DoneMarker> {
        let root = self.root.clone();
        Some(Box::new(move |id| mark_done(&root, id)))
    }
}

/// Moves mail `id` from `new/` to `cur/`, flagged seen.
fn mark_done(root: &Path, id: &str) -> Result<(), MailError> {
    if id.contains(['/', '\0']) || id == ".." {
        return Err(MailError::Protocol(format!(
            "{id:?} is not a Maildir file name"
        )));
    }
    let from = root.join("new").join(id);
    let base = id.split(":2,").next().unwrap_or(id);
    let to = root.join("cur").join(format!("{base}:2,S"));
    match fs::rename(&from, &to) {
        Ok(()) => Ok(()),
        // Already moved by an earlier, interrupted run.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && to.exists() => Ok(()),
        Err(e) => Err(MailError::io(format!("moving {id} to cur/"), e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fetch_skipping_passes_over_the_named_mails_and_still_fills_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let mut md = Maildir::open(dir.path()).unwrap();
        for n in 1..=4 {
            md.deliver(
                &format!("{n}.m"),
                format!("Subject: {n}\r\n\r\nx").as_bytes(),
            )
            .unwrap();
        }
        let first = md.fetch(2).unwrap();
        let skip: Vec<String> = first.iter().map(|m| m.id.clone()).collect();
        let next = md.fetch_skipping(2, &skip).unwrap();
        assert_eq!(next.len(), 2);
        assert!(next.iter().all(|m| !skip.contains(&m.id)), "{skip:?}");
    }

    #[test]
    fn a_detached_marker_moves_mails_to_cur_from_another_thread() {
        let dir = tempfile::tempdir().unwrap();
        let mut md = Maildir::open(dir.path()).unwrap();
        md.deliver("1.a", b"Subject: x\r\n\r\nhi").unwrap();
        md.deliver("2.b", b"Subject: y\r\n\r\nho").unwrap();
        let got = md.fetch(10).unwrap();
        let mark = md.detached_done().unwrap();
        let id = got[0].id.clone();
        std::thread::spawn(move || mark(&id))
            .join()
            .unwrap()
            .unwrap();
        let left = md.fetch(10).unwrap();
        assert_eq!(
            left.iter().map(|m| m.id.as_str()).collect::<Vec<_>>(),
            ["2.b"]
        );
        assert!(dir.path().join("cur").join("1.a:2,S").exists());
        // Names that are not a Maildir file's are refused, as by `done`.
        let mark = md.detached_done().unwrap();
        assert!(mark("../x").is_err());
    }

    #[test]
    fn fetch_then_done_moves_to_cur() {
        let dir = tempfile::tempdir().unwrap();
        let mut md = Maildir::open(dir.path()).unwrap();
        md.deliver("1.a", b"Subject: x\r\n\r\nhi").unwrap();
        md.deliver("2.b", b"Subject: y\r\n\r\nho").unwrap();
        let got = md.fetch(10).unwrap();
        assert_eq!(got.len(), 2);
        md.done(&got[0].id).unwrap();
        md.done(&got[0].id).unwrap(); // idempotent
        let left = md.fetch(10).unwrap();
        assert_eq!(left.len(), 1);
        assert_ne!(left[0].id, got[0].id);
        assert!(
            dir.path()
                .join("cur")
                .join(format!("{}:2,S", got[0].id))
                .exists()
        );
    }
}
