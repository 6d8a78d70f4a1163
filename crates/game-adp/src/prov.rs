//! Provenance-tagged TOML: the reader is `core::data`'s; this adds the small
//! whole numbers ADP's data is made of.

pub use umpire_core::data::{
    ProvKind, Reader, Rec, array_of_tables as tables, count_by_provenance, data_hash, parse_toml,
    table,
};

/// ADP's additions to the tagged-TOML reader.
pub trait ReaderExt {
    /// A required whole number 0-255.
    fn small(&mut self, r: &mut Rec, key: &str) -> Option<u8>;
    /// An optional whole number 0-255 (absent: 0, untagged).
    fn opt_small(&mut self, r: &mut Rec, key: &str) -> u8;
    /// Records a problem.
    fn error(&mut self, e: impl Into<String>);
}

impl ReaderExt for Reader {
    fn small(&mut self, r: &mut Rec, key: &str) -> Option<u8> {
        let n = self.int(r, key)?;
        match u8::try_from(n) {
            Ok(n) => Some(n),
            Err(_) => {
                self.errors.push(format!(
                    "{}.{key}: want a whole number 0-255, found {n}",
                    r.path
                ));
                None
            }
        }
    }

    fn opt_small(&mut self, r: &mut Rec, key: &str) -> u8 {
        self.opt_int(r, key)
            .map_or(0, |n| u8::try_from(n).unwrap_or(u8::MAX))
    }

    fn error(&mut self, e: impl Into<String>) {
        self.errors.push(e.into());
    }
}
