//! The layers are crates, and each crate's manifest may name only the layers
//! below it (ARCHITECTURE.md, "Layers"): with that, the compiler refuses a
//! game that imports `render` or another game, or a `mail` that reaches into
//! `store`. This test fails if a manifest grows a dependency its layer may not
//! have, or if a layer crate appears that no rule covers.

use std::collections::BTreeSet;
use std::path::Path;

/// The layer crates a crate may depend on, by its folder under `crates/`
/// (`game-<kind>` is a game) and the games found there; `None` for a folder
/// ARCHITECTURE.md does not place.
fn allowed(folder: &str, games: &BTreeSet<String>) -> Option<BTreeSet<String>> {
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    Some(match folder {
        "core" => BTreeSet::new(),
        "render" | "mail" | "store" => names(&["umpire-core"]),
        // umpire.toml: the mail settings it holds, nothing else of ours.
        "config" => names(&["umpire-mail"]),
        "games" => &names(&["umpire-core"]) | games,
        "service" => names(&[
            "umpire-core",
            "umpire-config",
            "umpire-games",
            "umpire-render",
            "umpire-mail",
            "umpire-store",
        ]),
        // A game crate: the contract, nothing else of ours.
        f if f.starts_with("game-") => names(&["umpire-core"]),
        // The test kit, a dev-dependency only (see `layer_deps`): core, and
        // behind its features mail, the registry, the renderer and the service.
        "testkit" => names(&[
            "umpire-core",
            "umpire-mail",
            "umpire-games",
            "umpire-render",
            "umpire-service",
        ]),
        _ => return None,
    })
}

/// The test kit: any crate's tests may take it as a dev-dependency (a game's
/// tests reach the renderer through it), and nothing else may name it.
const TESTKIT: &str = "umpire-testkit";

/// The package name and the `umpire-*` dependencies (normal and dev) of a
/// manifest, the test kit as a dev-dependency aside.
fn layer_deps(manifest: &Path) -> (String, BTreeSet<String>) {
    let text = std::fs::read_to_string(manifest).expect("a manifest");
    let doc: toml::Table = toml::from_str(&text).expect("TOML");
    let name = doc["package"]["name"].as_str().expect("a name").to_string();
    let mut deps = BTreeSet::new();
    for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
        if let Some(t) = doc.get(table).and_then(|t| t.as_table()) {
            let kit_ok = table == "dev-dependencies";
            deps.extend(
                t.keys()
                    .filter(|k| k.starts_with("umpire") && !(kit_ok && *k == TESTKIT))
                    .cloned(),
            );
        }
    }
    (name, deps)
}

/// Every crate folder under `crates/` with its manifest's package name and
/// layer dependencies.
fn crates() -> Vec<(String, String, BTreeSet<String>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("crates/") {
        let path = entry.expect("entry").path();
        let manifest = path.join("Cargo.toml");
        if manifest.exists() {
            let folder = path.file_name().unwrap().to_string_lossy().to_string();
            let (name, deps) = layer_deps(&manifest);
            out.push((folder, name, deps));
        }
    }
    out.sort();
    out
}

#[test]
fn each_layer_crate_names_only_the_layers_below_it() {
    let all = crates();
    let games: BTreeSet<String> = all
        .iter()
        .filter(|(f, ..)| f.starts_with("game-"))
        .map(|(_, name, _)| name.clone())
        .collect();
    assert!(games.len() >= 5, "the five games are crates: {games:?}");
    for (folder, name, deps) in &all {
        let ok = allowed(folder, &games)
            .unwrap_or_else(|| panic!("crates/{folder}: a layer ARCHITECTURE.md does not place"));
        let extra: Vec<_> = deps.difference(&ok).collect();
        assert!(
            extra.is_empty(),
            "{name} may not depend on {extra:?} (ARCHITECTURE.md, Layers)"
        );
    }
    let folders: Vec<&str> = all.iter().map(|(f, ..)| f.as_str()).collect();
    for layer in ["core", "games", "mail", "render", "service", "store"] {
        assert!(folders.contains(&layer), "crates/{layer} is missing");
    }
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
    let (_, deps) = layer_deps(&manifest);
    let ok = allowed("game-sarhu", &BTreeSet::new()).unwrap();
    let extra: Vec<_> = deps.difference(&ok).cloned().collect();
    assert_eq!(extra, ["umpire-render"]);
}

#[test]
fn the_rule_would_refuse_a_game_that_links_the_test_kit_outside_its_tests() {
    let dir = tempfile::tempdir().unwrap();
    let manifest = dir.path().join("Cargo.toml");
    let write = |text: &str| std::fs::write(&manifest, text).unwrap();
    let extra = |manifest: &Path| {
        let (_, deps) = layer_deps(manifest);
        let ok = allowed("game-ldf", &BTreeSet::new()).unwrap();
        deps.difference(&ok).cloned().collect::<Vec<_>>()
    };
    write(
        "[package]\nname = \"umpire-ldf\"\n[dependencies]\numpire-core = {}\n\
         [dev-dependencies]\numpire-testkit = {}\n",
    );
    assert!(extra(&manifest).is_empty(), "its tests may take the kit");
    write("[package]\nname = \"umpire-ldf\"\n[dependencies]\numpire-testkit = {}\n");
    assert_eq!(extra(&manifest), [TESTKIT]);
    write("[package]\nname = \"umpire-ldf\"\n[dev-dependencies]\numpire-render = {}\n");
    assert_eq!(
        extra(&manifest),
        ["umpire-render"],
        "the renderer only through the kit"
    );
}
