//! Delivery into a folder: one `.eml` file per mail, named by its outbox key,
//! so delivering the same mail twice writes the same file once.

use super::{Delivery, MailError, Outgoing};
use std::fs;
use std::path::{Path, PathBuf};

/// A folder of `.eml` files.
pub struct FileOutbox {
    dir: PathBuf,
}

impl FileOutbox {
    /// Opens (and creates) the folder.
    pub fn open(dir: &Path) -> Result<FileOutbox, MailError> {
        fs::create_dir_all(dir)
            .map_err(|e| MailError::io(format!("creating {}", dir.display()), e))?;
        Ok(FileOutbox {
            dir: dir.to_path_buf(),
        })
    }

    /// The file a mail with this key is written to.
    pub fn path_of(&self, key: &str) -> PathBuf {
        let safe: String = key
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        self.dir.join(format!("{safe}.eml"))
    }
}

impl Delivery for FileOutbox {
    fn deliver(&mut self, mail: &Outgoing) -> Result<(), MailError> {
        let path = self.path_of(&mail.key);
        let tmp = path.with_extension("eml.tmp");
        fs::write(&tmp, &mail.raw)
            .map_err(|e| MailError::io(format!("writing {}", tmp.display()), e))?;
        fs::rename(&tmp, &path).map_err(|e| MailError::io(format!("writing {}", path.display()), e))
    }
}
