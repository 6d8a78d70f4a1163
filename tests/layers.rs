//! The layers are crates, and each crate's manifest may name only the layers
//! below it (ARCHITECTURE.md, "Layers"): with that, the compiler refuses a
//! game that imports `render` or another game, or a `mail` that reaches into
//! `store`. This test fails if a manifest grows a dependency its layer may not
//! have, or if a layer crate appears that no rule covers.

use std::collections::BTreeSet;
use std::path::Path;

/// The layer crates a crate (by package name) may depend on.
fn allowed(package: &str) -> Option<BTreeSet<String>> {
    let core = || BTreeSet::from(["umpire-core".to_string()]);
    let games = ["freeform", "sarhu", "ldf", "ac", "adp"];
    Some(match package {
        "umpire-core" => BTreeSet::new(),
        "umpire-render" | "umpire-mail" | "umpire-store" => core(),
        "umpire-games" => {
            let mut s = core();
            s.extend(games.iter().map(|g| format!("umpire-{g}")));
            s
        }
        "umpire-service" => [
            "umpire-core",
            "umpire-games",
            "umpire-render",
            "umpire-mail",
            "umpire-store",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        // A game crate: the contract, nothing else of ours.
        p if games.iter().any(|g| p == format!("umpire-{g}")) => core(),
        _ => return None,
    })
}

/// The package name and the `umpire-*` dependencies (normal and dev) of a manifest.
fn layer_deps(manifest: &Path) -> (String, BTreeSet<String>) {
    let text = std::fs::read_to_string(manifest).expect("a manifest");
    let doc: toml::Table = toml::from_str(&text).expect("TOML");
    let name = doc["package"]["name"].as_str().expect("a name").to_string();
    let mut deps = BTreeSet::new();
    for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(t) = doc.get(table).and_then(|t| t.as_table()) {
            deps.extend(t.keys().filter(|k| k.starts_with("umpire")).cloned());
        }
    }
    (name, deps)
}

#[test]
fn each_layer_crate_names_only_the_layers_below_it() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&crates).expect("crates/") {
        let manifest = entry.expect("entry").path().join("Cargo.toml");
        if !manifest.exists() {
            continue;
        }
        let (name, deps) = layer_deps(&manifest);
        let ok = allowed(&name)
            .unwrap_or_else(|| panic!("{name}: a layer crate ARCHITECTURE.md does not place"));
        let extra: Vec<_> = deps.difference(&ok).collect();
        assert!(
            extra.is_empty(),
            "{name} may not depend on {extra:?} (ARCHITECTURE.md, Layers)"
        );
        seen.push(name);
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            "umpire-ac",
            "umpire-adp",
            "umpire-core",
            "umpire-freeform",
            "umpire-games",
            "umpire-ldf",
            "umpire-mail",
            "umpire-render",
            "umpire-sarhu",
            "umpire-service",
            "umpire-store"
        ]
    );
}

#[test]
fn the_rule_would_refuse_a_game_that_draws_its_own_map() {
    // What the check above reads, for a manifest that breaks the rule.
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("Cargo.toml");
    std::fs::write(
        &manifest,
        "[package]\nname = \"umpire-sarhu\"\n[dependencies]\n\
         umpire-core = { path = \"../core\" }\numpire-render = { path = \"../render\" }\n",
    )
    .unwrap();
    let (name, deps) = layer_deps(&manifest);
    let extra: Vec<_> = deps.difference(&allowed(&name).unwrap()).cloned().collect();
    assert_eq!(extra, ["umpire-render"]);
}
