//! What every game with printed data needs: provenance tags, the tagged-TOML
//! reader, the data hash, the data-check summary, the embedded-data shell,
//! and the [`Descriptor`] a game registers itself with.
//!
//! Every printed value (map, counters, tables) lives in `games/<kind>/*.toml`
//! and carries a provenance tag: `rulebook 7.6` (with the rule), `public: source`,
//! `reconstructed` or `stand-in: why`. A record's `src = "..."` tags all its
//! values; `src_<key> = "..."` tags one. [`Reader`] refuses untagged values and
//! unknown keys, so a club replacing stand-ins with the printed game's values
//! sees what is what.

use super::hash::{Digest, Tagged};
use super::record::RulesetVersion;
use super::ruleset::{DynRuleset, Ruleset};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, OnceLock};
use toml::{Table, Value};

/// One problem found in a game's data files, naming the file, table or
/// value (`oob.unit[ds.c1].cs: want a whole number ≥ 0, found -1`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DataError(pub String);

impl std::ops::Deref for DataError {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for DataError {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<String> for DataError {
    fn from(s: String) -> DataError {
        DataError(s)
    }
}

/// Every problem found in a game's data files, in the order found; shown
/// joined by `; ` (the CLI lists them one a line).
#[derive(Clone, Debug, Default, PartialEq, Eq, thiserror::Error)]
pub struct DataErrors(pub Vec<DataError>);

impl fmt::Display for DataErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            f.write_str(&e.0)?;
        }
        Ok(())
    }
}

impl std::ops::Deref for DataErrors {
    type Target = [DataError];
    fn deref(&self) -> &[DataError] {
        &self.0
    }
}

impl From<Vec<String>> for DataErrors {
    fn from(v: Vec<String>) -> DataErrors {
        DataErrors(v.into_iter().map(DataError).collect())
    }
}

impl From<String> for DataErrors {
    fn from(s: String) -> DataErrors {
        DataErrors(vec![DataError(s)])
    }
}

impl IntoIterator for DataErrors {
    type Item = DataError;
    type IntoIter = std::vec::IntoIter<DataError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a DataErrors {
    type Item = &'a DataError;
    type IntoIter = std::slice::Iter<'a, DataError>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// The four provenance kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum ProvKind {
    /// Printed in the rulebook (cite the rule or line).
    Rulebook,
    /// From a public source (cite it).
    Public,
    /// Reconstructed from history or geography.
    Reconstructed,
    /// Invented to make the game playable.
    StandIn,
}

impl ProvKind {
    /// As written in the data.
    pub fn name(self) -> &'static str {
        ["rulebook", "public", "reconstructed", "stand-in"][self as usize]
    }
}

/// One tagged value: where it is and where it came from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tag {
    /// E.g. `oob.unit[ds.c1].cs`.
    pub path: String,
    /// The kind of provenance.
    pub kind: ProvKind,
    /// Where it came from, as written after the kind.
    pub note: String,
}

/// A provenance string that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProvenanceError {
    /// A `rulebook` or `public` tag that does not say where.
    #[error("{tag:?}: a `{}` tag must say where (rule number or source)", kind.name())]
    NoSource { tag: String, kind: ProvKind },
    /// Not one of the four kinds.
    #[error(
        "{0:?} is not a provenance tag; start it with rulebook, public, reconstructed or stand-in"
    )]
    NotATag(String),
}

/// Reads a provenance string: `rulebook 7.6 (L375)`, `stand-in: why`.
pub fn parse_provenance(s: &str) -> Result<(ProvKind, String), ProvenanceError> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    for (kind, words) in [
        (ProvKind::Rulebook, &["rulebook"][..]),
        (ProvKind::Public, &["public"][..]),
        (ProvKind::Reconstructed, &["reconstructed"][..]),
        (ProvKind::StandIn, &["stand-in", "standin", "stand in"][..]),
    ] {
        for w in words {
            if let Some(rest) = lower.strip_prefix(w) {
                if !(rest.is_empty() || rest.starts_with([' ', ':', ';', ','])) {
                    continue;
                }
                let note = t[w.len()..].trim_start_matches([' ', ':', ';', ',']).trim();
                if matches!(kind, ProvKind::Rulebook | ProvKind::Public) && note.is_empty() {
                    return Err(ProvenanceError::NoSource {
                        tag: s.to_string(),
                        kind,
                    });
                }
                return Ok((kind, note.to_string()));
            }
        }
    }
    Err(ProvenanceError::NotATag(s.to_string()))
}

/// Collects errors and tags while reading records.
#[derive(Default)]
pub struct Reader {
    /// Every problem found, each naming the value (`oob.unit[ds.c1].cs: ...`).
    pub errors: Vec<String>,
    /// Every value read, with its provenance.
    pub tags: Vec<Tag>,
}

/// One TOML table being read: which keys were used, and its default tag.
pub struct Rec<'a> {
    /// Where the record is, for messages and tags: `oob.unit[ds.c1]`.
    pub path: String,
    /// The table.
    pub t: &'a Table,
    /// Keys read so far; [`Reader::finish`] reports the others.
    pub used: BTreeSet<String>,
}

impl Reader {
    /// Starts reading the record at `path`.
    pub fn rec<'a>(&mut self, path: impl Into<String>, t: &'a Table) -> Rec<'a> {
        let mut used = BTreeSet::new();
        used.insert("src".to_string());
        Rec {
            path: path.into(),
            t,
            used,
        }
    }

    /// Records the tag for `key`: `src_<key>`, else `src`.
    pub fn tag(&mut self, r: &mut Rec, key: &str) {
        let specific = format!("src_{key}");
        let src = match r.t.get(&specific) {
            Some(v) => {
                r.used.insert(specific.clone());
                Some(v)
            }
            None => r.t.get("src"),
        };
        let path = format!("{}.{key}", r.path);
        match src.and_then(Value::as_str) {
            Some(s) => match parse_provenance(s) {
                Ok((kind, note)) => self.tags.push(Tag { path, kind, note }),
                Err(e) => self.errors.push(format!("{path}: {e}")),
            },
            None => self.errors.push(format!(
                "{path} has no provenance tag: add `src = \"...\"` to the record or `{specific} = \"...\"`"
            )),
        }
    }

    /// The value of `key`, tagged; an error if `required` and missing.
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

    /// A required whole number ≥ 0.
    pub fn int(&mut self, r: &mut Rec, key: &str) -> Option<u32> {
        let v = self.value(r, key, true)?;
        match v.as_integer().and_then(|i| u32::try_from(i).ok()) {
            Some(i) => Some(i),
            None => {
                self.errors.push(format!(
                    "{}.{key}: want a whole number ≥ 0, found {v}",
                    r.path
                ));
                None
            }
        }
    }

    /// An optional whole number ≥ 0.
    pub fn opt_int(&mut self, r: &mut Rec, key: &str) -> Option<u32> {
        if r.t.contains_key(key) {
            self.int(r, key)
        } else {
            r.used.insert(key.to_string());
            None
        }
    }

    /// A required `true` or `false`.
    pub fn boolean(&mut self, r: &mut Rec, key: &str) -> Option<bool> {
        let v = self.value(r, key, true)?;
        v.as_bool().or_else(|| {
            self.errors
                .push(format!("{}.{key}: want true or false", r.path));
            None
        })
    }

    /// A required string.
    pub fn string(&mut self, r: &mut Rec, key: &str) -> Option<String> {
        let v = self.value(r, key, true)?;
        v.as_str().map(str::to_string).or_else(|| {
            self.errors.push(format!("{}.{key}: want a string", r.path));
            None
        })
    }

    /// An optional string.
    pub fn opt_string(&mut self, r: &mut Rec, key: &str) -> Option<String> {
        if r.t.contains_key(key) {
            self.string(r, key)
        } else {
            r.used.insert(key.to_string());
            None
        }
    }

    /// A list of strings (empty if missing and not `required`).
    pub fn strings(&mut self, r: &mut Rec, key: &str, required: bool) -> Vec<String> {
        let Some(v) = self.value(r, key, required) else {
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

    /// Unknown keys and `src_` tags for fields that do not exist are errors.
    pub fn finish(&mut self, r: Rec) {
        for k in r.t.keys() {
            if r.used.contains(k) {
                continue;
            }
            if let Some(field) = k.strip_prefix("src_") {
                self.errors.push(format!(
                    "{}.{k} tags a field `{field}` the record does not have",
                    r.path
                ));
            } else {
                self.errors.push(format!("{}: unknown key `{k}`", r.path));
            }
        }
    }
}

/// The table `[key]` of a file, or an error naming it.
pub fn table<'a>(r: &mut Reader, t: &'a Table, key: &str, file: &str) -> Option<&'a Table> {
    match t.get(key).and_then(Value::as_table) {
        Some(x) => Some(x),
        None => {
            r.errors.push(format!("{file}: missing table [{key}]"));
            None
        }
    }
}

/// The `[[key]]` tables of a file (none if absent), or an error.
pub fn array_of_tables<'a>(r: &mut Reader, t: &'a Table, key: &str, file: &str) -> Vec<&'a Table> {
    match t.get(key) {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|v| {
                let x = v.as_table();
                if x.is_none() {
                    r.errors
                        .push(format!("{file}: [[{key}]] entries must be tables"));
                }
                x
            })
            .collect(),
        Some(_) => {
            r.errors.push(format!(
                "{file}: `{key}` must be a list of [[{key}]] tables"
            ));
            Vec::new()
        }
    }
}

/// The hash of a game's data files, pinned in every record's opening: a
/// domain-separated hash of the texts in order. `domain` names the game and
/// the version of its file set (`umpire-sarhu-data-v1`); changing either
/// changes every hash, so keep them once records exist.
pub fn data_hash(domain: &str, texts: &[&str]) -> Digest {
    texts
        .iter()
        .fold(Tagged::new(domain), |h, t| h.field(t.as_bytes()))
        .finish()
}

/// Parses one data file as TOML, recording a syntax error under its name.
pub fn parse_toml(r: &mut Reader, name: &str, text: &str) -> Option<Table> {
    match text.parse::<Table>() {
        Ok(t) => Some(t),
        Err(e) => {
            r.errors.push(format!("{name}: {e}"));
            None
        }
    }
}

/// Tagged values by provenance kind, keyed by the kind's written name.
pub fn count_by_provenance(tags: &[Tag]) -> BTreeMap<String, usize> {
    let mut by = BTreeMap::new();
    for t in tags {
        *by.entry(t.kind.name().to_string()).or_insert(0) += 1;
    }
    by
}

/// What `umpire data check NAME` prints for data that passed every check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DataCheck {
    /// The data hash (see [`data_hash`]).
    pub hash: Digest,
    /// The game's own counts, one line each: `map 30 columns x 14 rows, ...`.
    pub facts: Vec<String>,
    /// Tagged values by provenance kind (see [`count_by_provenance`]).
    pub by_provenance: BTreeMap<String, usize>,
}

impl DataCheck {
    /// The lines to print: the hash, the facts, the provenance counts.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!("data hash {}", self.hash.to_hex())];
        out.extend(self.facts.iter().cloned());
        out.push(format!(
            "values by provenance: {}",
            self.by_provenance
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        out
    }
}

/// One data file a game embeds and a club may replace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// Its file name in `games/<kind>/` and in a club's folder: `map.toml`.
    pub name: &'static str,
    /// The embedded text (`include_str!`).
    pub embedded: &'static str,
}

/// A game's data files: the embedded ones, each replaced where a club gave
/// its own text.
#[derive(Clone, Copy, Debug)]
pub struct Files<'a> {
    files: &'static [DataFile],
    replaced: &'a BTreeMap<String, String>,
}

impl<'a> Files<'a> {
    /// The files of a game over `replaced` (by file name). Names the game
    /// does not have are an error, so a misnamed file is not silently ignored.
    pub fn new(
        files: &'static [DataFile],
        replaced: &'a BTreeMap<String, String>,
    ) -> Result<Files<'a>, DataErrors> {
        let unknown: Vec<String> = replaced
            .keys()
            .filter(|k| !files.iter().any(|f| f.name == k.as_str()))
            .map(|k| {
                let known: Vec<&str> = files.iter().map(|f| f.name).collect();
                if known.is_empty() {
                    format!("{k}: this game has no data files to replace")
                } else {
                    format!("{k}: not a data file of this game ({})", known.join(", "))
                }
            })
            .collect();
        if unknown.is_empty() {
            Ok(Files { files, replaced })
        } else {
            Err(unknown.into())
        }
    }

    /// The text of file `name`: the club's if it gave one, else the embedded
    /// one; empty if the game has no such file.
    pub fn get(&self, name: &str) -> &'a str {
        match self.replaced.get(name) {
            Some(t) => t.as_str(),
            None => self
                .files
                .iter()
                .find(|f| f.name == name)
                .map_or("", |f| f.embedded),
        }
    }

    /// True when no file is replaced.
    pub fn is_embedded(&self) -> bool {
        self.replaced.is_empty()
    }
}

/// The embedded-data shell: a game's data loaded once from its embedded
/// files and shared, or loaded afresh from a club's replacements.
///
/// ```ignore
/// static DATA: Embedded<Data> = Embedded::new();
/// let d = DATA.load(&files, Data::from_files)?;
/// ```
pub struct Embedded<D> {
    cell: OnceLock<Arc<D>>,
}

impl<D> Embedded<D> {
    /// An empty shell, for a `static`.
    pub const fn new() -> Embedded<D> {
        Embedded {
            cell: OnceLock::new(),
        }
    }

    /// The data over `files`: the shared embedded copy when nothing is
    /// replaced, else a fresh load.
    pub fn load(
        &self,
        files: &Files,
        load: impl FnOnce(&Files) -> Result<D, DataErrors>,
    ) -> Result<Arc<D>, DataErrors> {
        if !files.is_embedded() {
            return load(files).map(Arc::new);
        }
        if let Some(d) = self.cell.get() {
            return Ok(d.clone());
        }
        let d = Arc::new(load(files)?);
        Ok(self.cell.get_or_init(|| d).clone())
    }

    /// The embedded data. The embedded files are part of the build and every
    /// game tests them, so a failure is a broken build: it panics, naming
    /// the game, rather than play on a broken map.
    pub fn embedded(
        &self,
        game: &str,
        files: &'static [DataFile],
        load: impl FnOnce(&Files) -> Result<D, DataErrors>,
    ) -> Arc<D> {
        static NONE: OnceLock<BTreeMap<String, String>> = OnceLock::new();
        let none = NONE.get_or_init(BTreeMap::new);
        let files = Files {
            files,
            replaced: none,
        };
        match self.load(&files, load) {
            Ok(d) => d,
            Err(e) => panic!("the embedded {game} data is broken: {e}"),
        }
    }
}

impl<D> Default for Embedded<D> {
    fn default() -> Self {
        Embedded::new()
    }
}

/// Builds a game's ruleset over its data files.
pub type Build = fn(&Files) -> Result<Arc<dyn DynRuleset>, DataErrors>;

/// Checks a game's data files: the summary, or every problem found.
pub type Check = fn(&Files) -> Result<DataCheck, DataErrors>;

/// How a game registers itself: everything the registry, the CLI and the
/// service need to know about it, so that adding a game is one line: its
/// dependency in `crates/games/Cargo.toml`.
#[derive(Clone, Copy)]
pub struct Descriptor {
    /// The registry name, as in records and `umpire new`: `sarhu`.
    pub name: &'static str,
    /// The data files it embeds and a club may replace (empty if none).
    pub files: &'static [DataFile],
    /// The ruleset over the given files (embedded where not replaced).
    pub build: Build,
    /// The data-check summary over the given files, or every problem found.
    /// `None` for a game with no data.
    pub check: Option<Check>,
    /// The data sets this game embedded before, kept so that records made
    /// with them still replay (`[]` if its data never changed on a release).
    pub earlier: &'static [EarlierData],
    /// The newest rules' version (`RulesetInfo.version` on any data), so the
    /// version a game would be played at is known without reading its data
    /// ([`Descriptor::version_over`]).
    pub version: u32,
}

/// A data set a game embedded before its current one: a frozen copy under
/// `games/<kind>/earlier/<hash prefix>/`, never edited (see "Upgrades" in
/// ARCHITECTURE.md). Declare one with [`earlier_data!`](crate::earlier_data).
#[derive(Clone, Copy, Debug)]
pub struct EarlierData {
    /// The first hex digits of its data hash: the folder's name.
    pub hash_prefix: &'static str,
    /// Its files, as they were.
    pub files: &'static [DataFile],
}

/// An [`EarlierData`] from `games/<kind>/earlier/<prefix>/`:
/// `earlier_data!("adp", "69bc4abb6fa069c4", ["cards.toml", "map.toml"])`.
#[macro_export]
macro_rules! earlier_data {
    ($kind:literal, $prefix:literal, [$($file:literal),* $(,)?]) => {
        $crate::data::EarlierData {
            hash_prefix: $prefix,
            files: &[$($crate::data::DataFile {
                name: $file,
                embedded: include_str!(concat!(
                    env!("CARGO_MANIFEST_DIR"), "/../../games/", $kind, "/earlier/", $prefix, "/", $file
                )),
            }),*],
        }
    };
}

/// A game with printed data, declared once: its registry name, its files,
/// its loader, its data-check summary and the ruleset over loaded data. The
/// registry entry is then [`descriptor`], the ruleset on the embedded data
/// [`DataGame::embedded`]:
///
/// ```ignore
/// static EMBEDDED: Embedded<Data> = Embedded::new();
/// impl DataGame for MyGame {
///     type Data = Data;
///     const NAME: &'static str = "mygame";
///     const FILES: &'static [DataFile] = data::FILES;
///     fn shell() -> &'static Embedded<Data> { &EMBEDDED }
///     fn load(files: &Files) -> Result<Data, DataErrors> { Data::from_files(files) }
///     fn check(d: &Data) -> Result<DataCheck, DataErrors> { Ok(d.summary()) }
///     fn over(data: Arc<Data>) -> MyGame { MyGame { data } }
/// }
/// pub const DESCRIPTOR: Descriptor = umpire_core::data::descriptor::<MyGame>();
/// ```
pub trait DataGame: Ruleset + Sized {
    /// The game's data, read and checked.
    type Data: Send + Sync + 'static;
    /// The registry name, as in records and `umpire new`.
    const NAME: &'static str;
    /// The data files it embeds and a club may replace.
    const FILES: &'static [DataFile];
    /// The newest rules' version, as `info()` reports it on any data.
    const VERSION: u32;
    /// The data sets it embedded before (see [`Descriptor::earlier`]).
    const EARLIER: &'static [EarlierData] = &[];
    /// The top-level tables each file may hold ([`check_tables`]); a file
    /// not listed is left to its loader.
    const TABLES: Tables = &[];
    /// The game's own `static` shell of the embedded data (a generic
    /// function cannot hold a `static` per game).
    fn shell() -> &'static Embedded<Self::Data>;
    /// Reads and checks the files, naming every problem found.
    fn load(files: &Files) -> Result<Self::Data, DataErrors>;
    /// What `umpire data check` prints for loaded data, or the problems
    /// only the full check finds.
    fn check(data: &Self::Data) -> Result<DataCheck, DataErrors>;
    /// The ruleset over loaded data.
    fn over(data: Arc<Self::Data>) -> Self;
    /// The ruleset on the embedded data, loaded once. The embedded files are
    /// part of the build and every game tests them, so a failure is a broken
    /// build: it panics, naming the game, rather than play on a broken map.
    fn embedded() -> Self {
        Self::over(Self::shell().embedded(Self::NAME, Self::FILES, load_checked::<Self>))
    }
}

/// The top-level tables each data file may hold, by file name.
pub type Tables = &'static [(&'static str, &'static [&'static str])];

/// Refuses a top-level table (or key) a file may not hold, naming it and
/// the file, so a typo'd `[unitz]` is not read as a missing `[unit]` nor
/// silently ignored. A file that does not parse is left to the loader,
/// which names its syntax error. The texts are not changed, so neither is
/// the data hash.
pub fn check_tables(files: &Files, known: Tables) -> Result<(), DataErrors> {
    let mut errors = Vec::new();
    for (name, tables) in known {
        let Ok(t) = files.get(name).parse::<Table>() else {
            continue;
        };
        for (k, v) in t.iter().filter(|(k, _)| !tables.contains(&k.as_str())) {
            // Say what the reader wrote: a `[table]`, an `[[array]]` or a bare key.
            let what = match v {
                Value::Table(_) => format!("table [{k}]"),
                Value::Array(a) if !a.is_empty() && a.iter().all(Value::is_table) => {
                    format!("table [[{k}]]")
                }
                _ => format!("top-level key {k:?}"),
            };
            errors.push(format!(
                "{name}: unknown {what}; the file's tables are {}",
                tables.join(", ")
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.into())
    }
}

/// For a game's tests: what its ruleset's loader and its data check say of
/// its embedded `file` with a top-level `[table]` added (each `None` if it
/// was accepted). Both must name the table and the file.
#[doc(hidden)]
pub fn with_extra_table(
    d: &Descriptor,
    file: &str,
    table: &str,
) -> (Option<DataErrors>, Option<DataErrors>) {
    let own = d
        .files
        .iter()
        .find(|f| f.name == file)
        .map_or("", |f| f.embedded);
    let files = BTreeMap::from([(file.to_string(), format!("{own}\n[{table}]\nx = 1\n"))]);
    (d.with_data(&files).err(), d.check_data(&files).err())
}

/// A [`DataGame`]'s files checked for unknown tables, then loaded. The
/// embedded files are not checked for them here: they are part of the build,
/// and [`check_data`] (`umpire data check`, and the registry's tests of every
/// game) checks them, so a ruleset built on them parses each file once, not
/// twice. A club's files and an earlier data set are always checked.
fn load_checked<G: DataGame>(files: &Files) -> Result<G::Data, DataErrors> {
    if !files.is_embedded() {
        check_tables(files, G::TABLES)?;
    }
    G::load(files)
}

/// The registry entry of a [`DataGame`].
pub const fn descriptor<G: DataGame>() -> Descriptor {
    Descriptor {
        name: G::NAME,
        files: G::FILES,
        build: build_data::<G>,
        check: Some(check_data::<G>),
        earlier: G::EARLIER,
        version: G::VERSION,
    }
}

/// A [`DataGame`]'s [`Build`]: the embedded data shared, a club's loaded afresh.
fn build_data<G: DataGame>(files: &Files) -> Result<Arc<dyn DynRuleset>, DataErrors> {
    Ok(Arc::new(G::over(
        G::shell().load(files, load_checked::<G>)?,
    )))
}

/// A [`DataGame`]'s [`Check`]: the files' tables checked whether embedded
/// or not (see [`load_checked`]), then the data loaded and summed up.
fn check_data<G: DataGame>(files: &Files) -> Result<DataCheck, DataErrors> {
    check_tables(files, G::TABLES)?;
    G::check(&*G::shell().load(files, G::load)?)
}

impl Descriptor {
    /// The ruleset on the embedded data.
    pub fn ruleset(&self) -> Arc<dyn DynRuleset> {
        let none = BTreeMap::new();
        let files = Files {
            files: self.files,
            replaced: &none,
        };
        match (self.build)(&files) {
            Ok(r) => r,
            Err(e) => panic!("the embedded {} data is broken: {e}", self.name),
        }
    }

    /// The ruleset over replacement files (by file name).
    pub fn with_data(
        &self,
        replaced: &BTreeMap<String, String>,
    ) -> Result<Arc<dyn DynRuleset>, DataErrors> {
        (self.build)(&Files::new(self.files, replaced)?)
    }

    /// The ruleset over the earlier embedded data set whose hash is `data`,
    /// if the game kept it: what a game's [`Ruleset::at_data`] answers.
    ///
    /// [`Ruleset::at_data`]: crate::ruleset::Ruleset::at_data
    pub fn at_data(&self, data: &Digest) -> Option<Arc<dyn DynRuleset>> {
        let hex = data.to_hex();
        self.earlier
            .iter()
            .filter(|e| hex.starts_with(e.hash_prefix))
            .find_map(|e| {
                let files: BTreeMap<String, String> = e
                    .files
                    .iter()
                    .map(|f| (f.name.to_string(), f.embedded.to_string()))
                    .collect();
                let r = self.with_data(&files).ok()?;
                (r.info().data.as_ref() == Some(data)).then_some(r)
            })
    }

    /// The version the ruleset over replacement files (by file name) would
    /// report, its data hash taken over the texts without parsing them: what
    /// a poll compares with the last one to see whether a ruleset changed,
    /// for the cost of hashing the files (a ruleset built over them parses
    /// and checks every table). Every data game hashes its files in the
    /// order of [`Descriptor::files`] under the domain
    /// `umpire-<name>-data-v1`; the registry's tests hold each game to it.
    /// Files that do not load still get a version here: only building the
    /// ruleset reads them.
    pub fn version_over(
        &self,
        replaced: &BTreeMap<String, String>,
    ) -> Result<RulesetVersion, DataErrors> {
        let files = Files::new(self.files, replaced)?;
        let data = (!self.files.is_empty()).then(|| {
            let texts: Vec<&str> = self.files.iter().map(|f| files.get(f.name)).collect();
            data_hash(&format!("umpire-{}-data-v1", self.name), &texts)
        });
        Ok(RulesetVersion {
            version: self.version,
            data,
        })
    }

    /// The data check over replacement files (by file name); a game without
    /// data says so.
    pub fn check_data(
        &self,
        replaced: &BTreeMap<String, String>,
    ) -> Result<Vec<String>, DataErrors> {
        let files = Files::new(self.files, replaced)?;
        match self.check {
            Some(check) => check(&files).map(|c| c.lines()),
            None => Ok(vec![format!("{} has no data files", self.name)]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provenance_tags_name_their_source() {
        assert_eq!(
            parse_provenance("rulebook 7.6 (L375)"),
            Ok((ProvKind::Rulebook, "7.6 (L375)".into()))
        );
        assert_eq!(
            parse_provenance("stand-in: no map printed"),
            Ok((ProvKind::StandIn, "no map printed".into()))
        );
        assert_eq!(
            parse_provenance("reconstructed").map(|p| p.0),
            Ok(ProvKind::Reconstructed)
        );
        assert!(
            parse_provenance("rulebook").is_err(),
            "a rulebook tag cites the rule"
        );
        assert!(parse_provenance("guess").is_err());
    }

    #[test]
    fn the_reader_refuses_untagged_values_and_unknown_keys() {
        let t: Table = "src = \"stand-in: test\"\nsrc_b = \"rulebook 2.1\"\na = 3\nb = true\nc = 1"
            .parse()
            .unwrap();
        let mut r = Reader::default();
        let mut rec = r.rec("x", &t);
        assert_eq!(r.int(&mut rec, "a"), Some(3));
        assert_eq!(r.boolean(&mut rec, "b"), Some(true));
        r.finish(rec);
        assert_eq!(r.errors, ["x: unknown key `c`"]);
        assert_eq!(
            count_by_provenance(&r.tags),
            BTreeMap::from([("rulebook".to_string(), 1), ("stand-in".to_string(), 1)])
        );
        let bare: Table = "a = 3".parse().unwrap();
        let mut r = Reader::default();
        let mut rec = r.rec("y", &bare);
        r.int(&mut rec, "a");
        assert!(
            r.errors[0].contains("y.a has no provenance tag"),
            "{:?}",
            r.errors
        );
    }

    #[test]
    fn data_hash_is_the_tagged_hash_of_the_texts() {
        let want = Tagged::new("d").field(b"a").field(b"b").finish();
        assert_eq!(data_hash("d", &["a", "b"]), want);
        assert_ne!(data_hash("d", &["ab"]), want);
    }

    static FILES: &[DataFile] = &[DataFile {
        name: "map.toml",
        embedded: "x = 1",
    }];

    #[test]
    fn files_are_embedded_unless_replaced_and_names_are_checked() {
        let mut rep = BTreeMap::new();
        let f = Files::new(FILES, &rep).unwrap();
        assert_eq!(f.get("map.toml"), "x = 1");
        assert!(f.is_embedded());
        rep.insert("map.toml".to_string(), "x = 2".to_string());
        assert_eq!(Files::new(FILES, &rep).unwrap().get("map.toml"), "x = 2");
        rep.insert("mpa.toml".to_string(), String::new());
        let e = Files::new(FILES, &rep).unwrap_err();
        assert!(
            e[0].contains("not a data file of this game (map.toml)"),
            "{e:?}"
        );
    }

    #[test]
    fn unknown_top_level_tables_are_refused_by_name_and_file() {
        let rep = BTreeMap::from([("map.toml".to_string(), "x = 1\n[unitz]\n".to_string())]);
        let files = Files::new(FILES, &rep).unwrap();
        assert_eq!(
            check_tables(&files, &[("map.toml", &["x", "unit"])]),
            Err(DataErrors::from(vec![
                "map.toml: unknown table [unitz]; the file's tables are x, unit".to_string()
            ]))
        );
        assert_eq!(
            check_tables(&files, &[("map.toml", &["x", "unitz"])]),
            Ok(())
        );
        // An array of tables and a bare key are named as what they are.
        let rep = BTreeMap::from([(
            "map.toml".to_string(),
            "y = 2\n[[units]]\nid = 1\n".to_string(),
        )]);
        let files = Files::new(FILES, &rep).unwrap();
        assert_eq!(
            check_tables(&files, &[("map.toml", &["unit"])]),
            Err(DataErrors::from(vec![
                "map.toml: unknown table [[units]]; the file's tables are unit".to_string(),
                "map.toml: unknown top-level key \"y\"; the file's tables are unit".to_string(),
            ]))
        );
        // A file that does not parse is the loader's to report.
        let rep = BTreeMap::from([("map.toml".to_string(), "[[".to_string())]);
        let files = Files::new(FILES, &rep).unwrap();
        assert_eq!(check_tables(&files, &[("map.toml", &[])]), Ok(()));
    }

    #[test]
    fn the_shell_loads_embedded_data_once() {
        static SHELL: Embedded<String> = Embedded::new();
        let mut calls = 0;
        let a = SHELL.embedded("t", FILES, |f| {
            calls += 1;
            Ok(f.get("map.toml").to_string())
        });
        let b = SHELL.embedded("t", FILES, |_| unreachable!("loaded once"));
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(calls, 1);
        let rep = BTreeMap::from([("map.toml".to_string(), "x = 9".to_string())]);
        let files = Files::new(FILES, &rep).unwrap();
        let c = SHELL
            .load(&files, |f| Ok(f.get("map.toml").to_string()))
            .unwrap();
        assert_eq!(*c, "x = 9");
    }
}
