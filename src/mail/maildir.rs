//! Intake from a local Maildir: new mail in `new/`, processed mail moved to `cur/`.

use super::{Incoming, Intake, MailError};
use std::fs;
use std::path::{Path, PathBuf};

/// A Maildir (`tmp/`, `new/`, `cur/`).
pub struct Maildir {
    root: PathBuf,
}

impl Maildir {
    /// Opens (and creates, if missing) the Maildir at `root`.
    pub fn open(root: &Path) -> Result<Maildir, MailError> {
        for sub in ["tmp", "new", "cur"] {
            let d = root.join(sub);
            fs::create_dir_all(&d).map_err(|e| MailError::io(format!("creating {}", d.display()), e))?;
        }
        Ok(Maildir {
            root: root.to_path_buf(),
        })
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

impl Intake for Maildir {
    fn fetch(&mut self, limit: usize) -> Result<Vec<Incoming>, MailError> {
        let dir = self.root.join("new");
        let mut names: Vec<(std::time::SystemTime, String)> = Vec::new();
        let rd = fs::read_dir(&dir).map_err(|e| MailError::io(format!("reading {}", dir.display()), e))?;
        for entry in rd {
            let entry = entry.map_err(|e| MailError::io("listing new/", e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let modified = entry
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            names.push((modified, name));
        }
        // Oldest first; the name breaks ties so the order is stable.
        names.sort();
        let mut out = Vec::new();
        for (_, name) in names.into_iter().take(limit) {
            let path = dir.join(&name);
            match fs::read(&path) {
                Ok(raw) => out.push(Incoming { id: name, raw }),
                // Another process took it between listing and reading.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(MailError::io(format!("reading {}", path.display()), e)),
            }
        }
        Ok(out)
    }

    fn done(&mut self, id: &str) -> Result<(), MailError> {
        let from = self.root.join("new").join(id);
        let base = id.split(":2,").next().unwrap_or(id);
        let to = self.root.join("cur").join(format!("{base}:2,S"));
        match fs::rename(&from, &to) {
            Ok(()) => Ok(()),
            // Already moved by an earlier, interrupted run.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && to.exists() => Ok(()),
            Err(e) => Err(MailError::io(format!("moving {id} to cur/"), e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(dir.path().join("cur").join(format!("{}:2,S", got[0].id)).exists());
    }
}
