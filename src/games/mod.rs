//! The rulesets, registered by name. Each imports only `crate::core`.
//!
//! Rulesets with printed data (maps, counters, tables) embed it from
//! `games/<kind>/`; a club that owns the printed game may replace those files.
//! This registry builds a ruleset over replacement files handed to it as text:
//! the games layer does no I/O.

pub mod freeform;
pub mod sarhu;

use crate::core::ruleset::Ruleset;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Every ruleset this umpire knows, on its embedded data.
pub fn all() -> Vec<Arc<dyn Ruleset>> {
    vec![Arc::new(freeform::Freeform), Arc::new(sarhu::Sarhu::new())]
}

/// The ruleset registered as `name`, on its embedded data.
pub fn find(name: &str) -> Option<Arc<dyn Ruleset>> {
    all().into_iter().find(|r| r.info().name == name)
}

/// The data files of a ruleset that a club may replace, by file name.
pub fn data_files(name: &str) -> &'static [&'static str] {
    match name {
        "sarhu" => &["map.toml", "oob.toml", "tables.toml"],
        _ => &[],
    }
}

fn file<'a>(files: &'a BTreeMap<String, String>, name: &str, embedded: &'a str) -> &'a str {
    files.get(name).map_or(embedded, String::as_str)
}

/// The ruleset `name` over replacement data files (by file name; files not
/// given stay embedded). `Ok(None)` if there is no such ruleset.
pub fn with_data(
    name: &str,
    files: &BTreeMap<String, String>,
) -> Result<Option<Arc<dyn Ruleset>>, Vec<String>> {
    if files.is_empty() {
        return Ok(find(name));
    }
    match name {
        "sarhu" => {
            use sarhu::data::{MAP_TOML, OOB_TOML, TABLES_TOML};
            let r = sarhu::Sarhu::with_data(
                file(files, "map.toml", MAP_TOML),
                file(files, "oob.toml", OOB_TOML),
                file(files, "tables.toml", TABLES_TOML),
                true,
            )?;
            Ok(Some(Arc::new(r)))
        }
        other => match find(other) {
            Some(r) => Err(vec![format!(
                "{} has no data files to replace",
                r.info().name
            )]),
            None => Ok(None),
        },
    }
}

/// `umpire data check NAME`: a summary of the data, or every problem found.
pub fn check_data(
    name: &str,
    files: &BTreeMap<String, String>,
) -> Result<Vec<String>, Vec<String>> {
    match name {
        "sarhu" => {
            use sarhu::data::{Data, MAP_TOML, OOB_TOML, TABLES_TOML};
            let d = Data::load(
                file(files, "map.toml", MAP_TOML),
                file(files, "oob.toml", OOB_TOML),
                file(files, "tables.toml", TABLES_TOML),
                true,
            )?;
            let s = sarhu::data::check_loaded(&d)?;
            let mut out = vec![
                format!("data hash {}", s.hash),
                format!(
                    "map {} columns x {} rows, {} hexes, {} named places",
                    s.cols, s.rows, s.hexes, s.places
                ),
                format!(
                    "hexsides: {} river, {} palisade, {} bridged",
                    s.river_sides, s.wall_sides, s.bridges
                ),
                format!(
                    "{} commands, {} combat units (ming {}, jurchen {}, of which {} variant only)",
                    s.commands, s.units, s.ming_units, s.jurchen_units, s.variant_units
                ),
            ];
            out.push(format!(
                "values by provenance: {}",
                s.tagged
                    .iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            Ok(out)
        }
        other => match find(other) {
            Some(r) => Ok(vec![format!("{} has no data files", r.info().name)]),
            None => Err(vec![format!("no ruleset {other:?}")]),
        },
    }
}
