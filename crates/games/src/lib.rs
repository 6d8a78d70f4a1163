//! The rulesets, registered by name. Each imports only `umpire_core`.
//!
//! A game is a crate of its own, `crates/game-<kind>/` (package
//! `umpire-<kind>`), which the compiler lets import `umpire_core` alone. It
//! registers itself with one line, its dependency in this crate's
//! `Cargo.toml` (`umpire-<kind> = { path = "../game-<kind>", .. }`), from which
//! `build.rs` writes the [`games!`] list: it re-exports the game as
//! `games::<kind>` and adds its
//! `<kind>::DESCRIPTOR` ([`Descriptor`]: name, data files with their embedded
//! text, a builder over a club's replacement files, a data check) to
//! [`GAMES`]. Everything else here works from the descriptors, so nothing in
//! this file names a game.
//!
//! Rulesets with printed data (maps, counters, tables) embed it from
//! `games/<kind>/`; a club that owns the printed game may replace those files.
//! This registry builds a ruleset over replacement files handed to it as text:
//! the games layer does no I/O.

pub use umpire_core::data::Descriptor;

use std::collections::BTreeMap;
use std::sync::Arc;
use umpire_core::data::DataErrors;
use umpire_core::record::RulesetVersion;
use umpire_core::ruleset::DynRuleset;

/// Declares each game's module and lists its descriptor in [`GAMES`].
macro_rules! games {
    ($($kind:ident = $krate:ident),* $(,)?) => {
        $(pub use $krate as $kind;)*
        /// Every game this umpire knows, in registration order.
        pub const GAMES: &[Descriptor] = &[$($kind::DESCRIPTOR),*];
        /// The kind each game is registered as (its folder `game-<kind>`), in
        /// the order of [`GAMES`].
        #[cfg(test)]
        const KINDS: &[&str] = &[$(stringify!($kind)),*];
    };
}

// One entry per game, written by `build.rs` from this crate's `Cargo.toml`.
include!(concat!(env!("OUT_DIR"), "/games.rs"));

/// The descriptor of the game registered as `name`.
pub fn descriptor(name: &str) -> Option<&'static Descriptor> {
    GAMES.iter().find(|d| d.name == name)
}

/// Every ruleset this umpire knows, on its embedded data.
pub fn all() -> Vec<Arc<dyn DynRuleset>> {
    GAMES.iter().map(Descriptor::ruleset).collect()
}

/// The names of the registered rulesets, without building them.
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|d| d.name).collect()
}

/// The ruleset registered as `name`, on its embedded data.
pub fn find(name: &str) -> Option<Arc<dyn DynRuleset>> {
    descriptor(name).map(Descriptor::ruleset)
}

/// The data files of a ruleset that a club may replace, by file name.
pub fn data_files(name: &str) -> Vec<&'static str> {
    descriptor(name).map_or_else(Vec::new, |d| d.files.iter().map(|f| f.name).collect())
}

/// The ruleset `name` over replacement data files (by file name; files not
/// given stay embedded). `Ok(None)` if there is no such ruleset.
pub fn with_data(
    name: &str,
    files: &BTreeMap<String, String>,
) -> Result<Option<Arc<dyn DynRuleset>>, DataErrors> {
    match descriptor(name) {
        Some(d) => d.with_data(files).map(Some),
        None => Ok(None),
    }
}

/// The version the ruleset `name` over replacement data files (by file name;
/// files not given stay embedded) would report, without reading the data:
/// the newest rules' version and the hash of the files' texts. What a poll
/// compares with the last poll's to see whether a ruleset changed, at the cost
/// of hashing the files rather than parsing them. `Ok(None)` if there is no
/// such ruleset; a misnamed file is an error, as in [`with_data`].
pub fn version(
    name: &str,
    files: &BTreeMap<String, String>,
) -> Result<Option<RulesetVersion>, DataErrors> {
    descriptor(name).map(|d| d.version_over(files)).transpose()
}

/// `umpire data check NAME`: a summary of the data, or every problem found.
pub fn check_data(name: &str, files: &BTreeMap<String, String>) -> Result<Vec<String>, DataErrors> {
    match descriptor(name) {
        Some(d) => d.check_data(files),
        None => Err(format!("no ruleset {name:?}").into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_descriptor_builds_and_names_its_ruleset() {
        for d in GAMES {
            let r = d.ruleset();
            assert_eq!(r.info().name, d.name, "descriptor and info disagree");
            assert!(d.check_data(&BTreeMap::new()).is_ok(), "{}", d.name);
            // The data hash the registry pins is the one the ruleset reports.
            let again = d.with_data(&BTreeMap::new()).expect("embedded data");
            assert_eq!(again.info().data, r.info().data, "{}", d.name);
        }
        let names: Vec<&str> = GAMES.iter().map(|d| d.name).collect();
        // A game's folder, module and ruleset name are one name.
        assert_eq!(
            names, KINDS,
            "a DESCRIPTOR.name differs from its folder game-<kind>"
        );
        let mut sorted = names.clone();
        sorted.dedup();
        assert_eq!(names, sorted, "a name registered twice");
    }

    #[test]
    fn every_earlier_data_set_builds_with_the_hash_it_is_filed_under() {
        for d in GAMES {
            for e in d.earlier {
                let files = e
                    .files
                    .iter()
                    .map(|f| (f.name.to_string(), f.embedded.to_string()))
                    .collect();
                let r = d.with_data(&files).expect("an earlier set still loads");
                let hash = r.info().data.expect("a data hash");
                assert!(
                    hash.to_hex().starts_with(e.hash_prefix),
                    "{} earlier/{} hashes to {}",
                    d.name,
                    e.hash_prefix,
                    hash.to_hex()
                );
                assert!(d.at_data(&hash).is_some(), "{}: reachable by hash", d.name);
                assert_ne!(Some(hash), d.ruleset().info().data, "not the current set");
            }
        }
    }

    /// The version `version` reads off the files without parsing them.
    fn quick(d: &Descriptor, files: &BTreeMap<String, String>) -> RulesetVersion {
        version(d.name, files)
            .expect("files by name")
            .expect("registered")
    }

    /// The version the ruleset built over the files reports.
    fn built(d: &Descriptor, files: &BTreeMap<String, String>) -> RulesetVersion {
        umpire_core::game::own_version(d.with_data(files).expect("data loads").as_ref())
    }

    #[test]
    fn the_version_read_off_the_files_is_the_built_rulesets() {
        for d in GAMES {
            let none = BTreeMap::new();
            assert_eq!(quick(d, &none), built(d, &none), "{} embedded", d.name);
            for e in d.earlier {
                let files = e
                    .files
                    .iter()
                    .map(|f| (f.name.to_string(), f.embedded.to_string()))
                    .collect();
                assert_eq!(quick(d, &files), built(d, &files), "{} earlier", d.name);
            }
            // A club's replacement of each file in turn (a comment added, so it
            // still loads) changes the hash both ways alike.
            for f in d.files {
                let files =
                    BTreeMap::from([(f.name.to_string(), format!("{}\n# ours\n", f.embedded))]);
                let v = quick(d, &files);
                assert_eq!(v, built(d, &files), "{} {}", d.name, f.name);
                assert_ne!(v, quick(d, &none), "{} {}", d.name, f.name);
            }
        }
        let bad = BTreeMap::from([("mpa.toml".to_string(), String::new())]);
        assert!(version("sarhu", &bad).is_err(), "a misnamed file");
        assert_eq!(version("chess", &BTreeMap::new()), Ok(None));
    }

    #[test]
    fn replacement_files_are_checked_by_name() {
        let bad = BTreeMap::from([("mpa.toml".to_string(), String::new())]);
        let e = with_data("sarhu", &bad)
            .err()
            .expect("misnamed file refused");
        assert!(e[0].contains("map.toml, oob.toml, tables.toml"), "{e:?}");
        let e = with_data("freeform", &bad)
            .err()
            .expect("freeform has none");
        assert!(e[0].contains("no data files"), "{e:?}");
        assert!(with_data("chess", &BTreeMap::new()).unwrap().is_none());
        assert_eq!(data_files("sarhu"), ["map.toml", "oob.toml", "tables.toml"]);
        assert_eq!(
            check_data("freeform", &BTreeMap::new()),
            Ok(vec!["freeform has no data files".to_string()])
        );
    }
}
