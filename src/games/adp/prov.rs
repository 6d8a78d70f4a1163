//! Provenance-tagged TOML records: every value read must carry a tag
//! (`rulebook <rule>`, `public <source>`, `reconstructed <how>`, `stand-in
//! <why>`), from the record's `src` or a field's own `src_<field>`. Unknown keys
//! and untagged values are errors, collected rather than stopping at the first.

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use toml::{Table, Value};

/// Where a value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum ProvKind {
    /// Printed in the rulebook (the tag names the rule).
    Rulebook,
    /// A public source (the tag names it).
    Public,
    /// Worked out from other facts (the tag says how).
    Reconstructed,
    /// Invented to make the game playable; a club replaces it.
    StandIn,
}

impl ProvKind {
    /// The tag's first word.
    pub fn name(self) -> &'static str {
        ["rulebook", "public", "reconstructed", "stand-in"][self as usize]
    }
}

/// Reads a provenance string: `rulebook 7.2`, `stand-in: why`.
pub fn parse_provenance(s: &str) -> Result<(ProvKind, String), String> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    for (kind, word) in [
        (ProvKind::Rulebook, "rulebook"),
        (ProvKind::Public, "public"),
        (ProvKind::Reconstructed, "reconstructed"),
        (ProvKind::StandIn, "stand-in"),
    ] {
        let Some(rest) = lower.strip_prefix(word) else {
            continue;
        };
        if !(rest.is_empty() || rest.starts_with([' ', ':', ';', ','])) {
            continue;
        }
        let note = t[word.len()..]
            .trim_start_matches([' ', ':', ';', ','])
            .trim();
        if matches!(kind, ProvKind::Rulebook | ProvKind::Public) && note.is_empty() {
            return Err(format!(
                "{s:?}: a `{}` tag must say where (rule number or source)",
                kind.name()
            ));
        }
        return Ok((kind, note.to_string()));
    }
    Err(format!(
        "{s:?} is not a provenance tag; start it with rulebook, public, reconstructed or stand-in"
    ))
}

/// Errors and tag counts gathered while reading.
#[derive(Default)]
pub struct Reader {
    /// Every problem found.
    pub errors: Vec<String>,
    /// Tagged values by kind.
    pub counts: BTreeMap<ProvKind, u32>,
}

/// One TOML table being read.
pub struct Rec<'a> {
    path: String,
    t: &'a Table,
    used: BTreeSet<String>,
}

impl Reader {
    /// Starts reading a record at `path` (for messages).
    pub fn rec<'a>(&mut self, path: impl Into<String>, t: &'a Table) -> Rec<'a> {
        let mut used = BTreeSet::new();
        used.insert("src".to_string());
        Rec {
            path: path.into(),
            t,
            used,
        }
    }

    /// Pushes an error.
    pub fn error(&mut self, e: impl Into<String>) {
        self.errors.push(e.into());
    }

    fn tag(&mut self, r: &mut Rec, key: &str) {
        let specific = format!("src_{key}");
        let src = match r.t.get(&specific) {
            Some(v) => {
                r.used.insert(specific.clone());
                Some(v)
            }
            None => r.t.get("src"),
        };
        match src.and_then(Value::as_str).map(parse_provenance) {
            Some(Ok((kind, _))) => *self.counts.entry(kind).or_insert(0) += 1,
            Some(Err(e)) => self.errors.push(format!("{}.{key}: {e}", r.path)),
            None => self.errors.push(format!(
                "{}.{key} has no provenance tag: add `src` or `{specific}`",
                r.path
            )),
        }
    }

    /// The raw value of `key`, tagged; `None` (with an error if `required`) if absent.
    pub fn value<'a>(&mut self, r: &mut Rec<'a>, key: &str, required: bool) -> Option<&'a Value> {
        r.used.insert(key.to_string());
        match r.t.get(key) {
            Some(v) => {
                self.tag(r, key);
                Some(v)
            }
            None => {
                if required {
                    self.errors.push(format!("{}: missing `{key}`", r.path));
                }
                None
            }
        }
    }

    /// A whole number 0-255.
    pub fn small(&mut self, r: &mut Rec, key: &str) -> Option<u8> {
        let v = self.value(r, key, true)?;
        self.as_small(&r.path.clone(), key, v)
    }

    /// An optional whole number 0-255 (absent: 0, untagged).
    pub fn opt_small(&mut self, r: &mut Rec, key: &str) -> u8 {
        if !r.t.contains_key(key) {
            r.used.insert(key.to_string());
            return 0;
        }
        self.small(r, key).unwrap_or(0)
    }

    fn as_small(&mut self, path: &str, key: &str, v: &Value) -> Option<u8> {
        match v.as_integer().and_then(|i| u8::try_from(i).ok()) {
            Some(i) => Some(i),
            None => {
                self.errors.push(format!(
                    "{path}.{key}: want a whole number 0-255, found {v}"
                ));
                None
            }
        }
    }

    /// A boolean.
    pub fn boolean(&mut self, r: &mut Rec, key: &str) -> Option<bool> {
        let v = self.value(r, key, true)?;
        v.as_bool().or_else(|| {
            self.errors
                .push(format!("{}.{key}: want true or false", r.path));
            None
        })
    }

    /// A string.
    pub fn string(&mut self, r: &mut Rec, key: &str) -> Option<String> {
        let v = self.value(r, key, true)?;
        v.as_str().map(str::to_string).or_else(|| {
            self.errors.push(format!("{}.{key}: want a string", r.path));
            None
        })
    }

    /// An optional string (absent: `None`, untagged).
    pub fn opt_string(&mut self, r: &mut Rec, key: &str) -> Option<String> {
        if !r.t.contains_key(key) {
            r.used.insert(key.to_string());
            return None;
        }
        self.string(r, key)
    }

    /// A list of strings.
    pub fn strings(&mut self, r: &mut Rec, key: &str) -> Vec<String> {
        let Some(v) = self.value(r, key, true) else {
            return Vec::new();
        };
        match v.as_array() {
            Some(a) if a.iter().all(Value::is_str) => a
                .iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect(),
            _ => {
                self.errors
                    .push(format!("{}.{key}: want a list of strings", r.path));
                Vec::new()
            }
        }
    }

    /// Unknown keys, and `src_` tags of absent fields, are errors.
    pub fn finish(&mut self, r: Rec) {
        for k in r.t.keys() {
            if r.used.contains(k) {
                continue;
            }
            match k.strip_prefix("src_") {
                Some(f) => self.errors.push(format!(
                    "{}.{k} tags a field `{f}` the record does not have",
                    r.path
                )),
                None => self.errors.push(format!("{}: unknown key `{k}`", r.path)),
            }
        }
    }
}

impl Rec<'_> {
    /// The record's path, for messages.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The keys present, for records with open-ended keys.
    pub fn keys(&self) -> Vec<String> {
        self.t.keys().cloned().collect()
    }
}

/// The tables of `[[key]]` in `t`.
pub fn tables<'a>(r: &mut Reader, t: &'a Table, key: &str, file: &str) -> Vec<&'a Table> {
    match t.get(key) {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|v| {
                let x = v.as_table();
                if x.is_none() {
                    r.error(format!("{file}: [[{key}]] holds a non-table"));
                }
                x
            })
            .collect(),
        _ => {
            r.error(format!("{file}: no [[{key}]] records"));
            Vec::new()
        }
    }
}

/// The table `[key]` in `t`.
pub fn table<'a>(r: &mut Reader, t: &'a Table, key: &str, file: &str) -> Option<&'a Table> {
    let x = t.get(key).and_then(Value::as_table);
    if x.is_none() {
        r.error(format!("{file}: missing table [{key}]"));
    }
    x
}

/// Parses a TOML file.
pub fn parse(r: &mut Reader, text: &str, file: &str) -> Option<Table> {
    match text.parse::<Table>() {
        Ok(t) => Some(t),
        Err(e) => {
            r.error(format!("{file}: {e}"));
            None
        }
    }
}
