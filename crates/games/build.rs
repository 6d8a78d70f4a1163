//! Writes the registry's list of games from this crate's own `Cargo.toml`,
//! so that registering a game is its one dependency line there:
//!
//! ```toml
//! umpire-<kind> = { path = "../game-<kind>", version = "0.1.0" }
//! ```
//!
//! Every dependency whose path is `../game-<kind>` is a game, registered as
//! `<kind>` in the order the manifest lists them (the order `umpire games`
//! shows). The output is one `games! { <kind> = <crate>, ... }` invocation,
//! included by `src/lib.rs`.

#![allow(
    clippy::expect_used,
    reason = "a build script reports a broken manifest by failing the build"
)]

use std::fmt::Write as _;
use std::{env, fs, path::Path};

fn main() {
    println!("cargo::rerun-if-changed=Cargo.toml");
    let manifest = fs::read_to_string("Cargo.toml").expect("crates/games/Cargo.toml is readable");
    let mut list = String::from("games! {\n");
    for (package, kind) in games(&manifest) {
        let krate = package.replace('-', "_");
        writeln!(list, "    {kind} = {krate},").expect("writing to a String");
    }
    list.push_str("}\n");
    let out = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("games.rs");
    fs::write(out, list).expect("OUT_DIR is writable");
}

/// `(package, kind)` of each `[dependencies]` line whose path is
/// `../game-<kind>`.
fn games(manifest: &str) -> Vec<(String, String)> {
    let mut section = "";
    let mut found = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        if section != "[dependencies]" {
            continue;
        }
        let Some((package, value)) = line.split_once('=') else {
            continue;
        };
        let Some(rest) = value.split("\"../game-").nth(1) else {
            continue;
        };
        let kind = rest.split('"').next().unwrap_or_default();
        let valid = !kind.is_empty()
            && kind
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        assert!(
            valid,
            "game folder game-{kind}: a kind is lowercase letters, digits and _"
        );
        found.push((package.trim().to_string(), kind.to_string()));
    }
    found
}
