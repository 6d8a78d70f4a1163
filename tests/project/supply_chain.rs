//! Supply chain, checked offline on every test run: the licences,
//! bans and sources that `deny.toml` declares, over the dependency graph
//! `cargo metadata` resolves from `Cargo.lock`.
//!
//! cargo-deny itself does not build within CI's budget on this project's
//! machines, and its advisory database lives on GitHub, which they cannot
//! reach; this test enforces the offline half of `deny.toml` so that a
//! dependency with a licence outside the allow list, a banned crate (OpenSSL)
//! or a git/other-registry source fails CI. Advisories stay a documented
//! command (docs/dev/supply-chain.md).

use std::collections::BTreeSet;
use std::process::Command;

const CRATES_IO: &str = "registry+https://github.com/rust-lang/crates.io-index";

/// The parts of `deny.toml` this test enforces.
struct Policy {
    allowed_licences: BTreeSet<String>,
    banned: BTreeSet<String>,
    targets: Vec<String>,
}

fn policy() -> Policy {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/deny.toml"))
        .expect("deny.toml");
    let doc: toml::Table = text.parse().expect("deny.toml parses");
    let strings = |v: &toml::Value| -> Vec<String> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|s| s.as_str().expect("string").to_string())
            .collect()
    };
    let banned = doc["bans"]["deny"]
        .as_array()
        .expect("bans.deny")
        .iter()
        .map(|b| b["name"].as_str().expect("ban name").to_string())
        .collect();
    Policy {
        allowed_licences: strings(&doc["licenses"]["allow"]).into_iter().collect(),
        banned,
        targets: strings(&doc["graph"]["targets"]),
    }
}

/// A package of the resolved graph: name, version, licence expression, source.
struct Package {
    name: String,
    version: String,
    licence: Option<String>,
    source: Option<String>,
}

/// Every package the lock file resolves for `target` (dev and build
/// dependencies included, as cargo-deny counts them). Not `--offline`: a
/// fresh machine has fetched only the host's crates, and metadata for the
/// other target may need manifests from the registry.
fn packages(target: &str) -> Vec<Package> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .args(["--filter-platform", target])
        .arg("--manifest-path")
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"))
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata json");
    let resolved: BTreeSet<&str> = meta["resolve"]["nodes"]
        .as_array()
        .expect("resolve nodes")
        .iter()
        .map(|n| n["id"].as_str().expect("node id"))
        .collect();
    meta["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|p| resolved.contains(p["id"].as_str().expect("package id")))
        .map(|p| Package {
            name: p["name"].as_str().expect("name").to_string(),
            version: p["version"].as_str().expect("version").to_string(),
            licence: p["license"].as_str().map(str::to_string),
            source: p["source"].as_str().map(str::to_string),
        })
        .collect()
}

/// Whether an SPDX licence expression is satisfied by the allowed licences:
/// `A OR B` needs one branch, `A AND B` both, `A WITH E` is the licence id
/// `A WITH E` as deny.toml spells it; the legacy `A/B` means `A OR B`.
fn satisfied(expr: &str, allowed: &BTreeSet<String>) -> Result<bool, String> {
    let spaced = expr
        .replace('(', " ( ")
        .replace(')', " ) ")
        .replace('/', " OR ");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    let mut parser = Spdx {
        tokens: &tokens,
        at: 0,
        allowed,
    };
    let value = parser.or()?;
    if parser.at != tokens.len() {
        return Err(format!("unexpected `{}`", tokens[parser.at]));
    }
    Ok(value)
}

struct Spdx<'a> {
    tokens: &'a [&'a str],
    at: usize,
    allowed: &'a BTreeSet<String>,
}

impl<'a> Spdx<'a> {
    fn peek(&self) -> Option<&'a str> {
        self.tokens.get(self.at).copied()
    }

    fn or(&mut self) -> Result<bool, String> {
        let mut value = self.and()?;
        while self.peek() == Some("OR") {
            self.at += 1;
            value |= self.and()?;
        }
        Ok(value)
    }

    fn and(&mut self) -> Result<bool, String> {
        let mut value = self.term()?;
        while self.peek() == Some("AND") {
            self.at += 1;
            value &= self.term()?;
        }
        Ok(value)
    }

    fn term(&mut self) -> Result<bool, String> {
        match self.peek() {
            Some("(") => {
                self.at += 1;
                let value = self.or()?;
                if self.peek() != Some(")") {
                    return Err("unclosed `(`".into());
                }
                self.at += 1;
                Ok(value)
            }
            Some(id) if !matches!(id, "OR" | "AND" | "WITH" | ")") => {
                self.at += 1;
                let mut licence = id.to_string();
                if self.peek() == Some("WITH") {
                    let exception = self
                        .tokens
                        .get(self.at + 1)
                        .ok_or("WITH without exception")?;
                    licence = format!("{licence} WITH {exception}");
                    self.at += 2;
                }
                Ok(self.allowed.contains(&licence))
            }
            other => Err(format!("expected a licence, found {other:?}")),
        }
    }
}

#[test]
fn licence_expressions_are_judged_as_spdx_says() {
    let allowed: BTreeSet<String> = ["MIT", "Apache-2.0 WITH LLVM-exception"]
        .map(String::from)
        .into();
    let ok = |e| satisfied(e, &allowed).unwrap();
    assert!(ok("MIT OR GPL-3.0"));
    assert!(!ok("MIT AND GPL-3.0"));
    assert!(ok("(GPL-3.0 OR MIT) AND MIT"));
    assert!(ok("GPL-2.0/MIT"));
    assert!(ok("Apache-2.0 WITH LLVM-exception"));
    assert!(!ok("Apache-2.0"));
    assert!(satisfied("MIT OR", &allowed).is_err());
}

#[test]
fn every_dependency_meets_deny_toml() {
    let policy = policy();
    let mut problems = BTreeSet::new();
    for target in &policy.targets {
        for p in packages(target) {
            let id = format!("{} {}", p.name, p.version);
            match &p.source {
                None => {} // a path crate: umpire itself
                Some(s) if s == CRATES_IO => {}
                Some(s) => {
                    problems.insert(format!("{id}: source {s} is not crates.io"));
                }
            }
            if policy.banned.contains(&p.name) {
                problems.insert(format!("{id}: banned by deny.toml [bans]"));
            }
            if p.source.is_none() {
                continue;
            }
            match p
                .licence
                .as_deref()
                .map(|l| satisfied(l, &policy.allowed_licences))
            {
                Some(Ok(true)) => {}
                Some(Ok(false)) => {
                    problems.insert(format!(
                        "{id}: licence `{}` is not in deny.toml's allow list",
                        p.licence.as_deref().unwrap_or_default()
                    ));
                }
                Some(Err(e)) => {
                    problems.insert(format!("{id}: licence expression: {e}"));
                }
                None => {
                    problems.insert(format!("{id}: declares no licence expression"));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "supply chain:\n{}",
        problems.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn no_wildcard_version_requirements() {
    // deny.toml [bans] wildcards = "deny". cargo-deny counts a path dependency without a
    // `version` as a wildcard too, in every manifest of the workspace.
    let root = env!("CARGO_MANIFEST_DIR");
    let mut manifests = vec![std::path::PathBuf::from(root).join("Cargo.toml")];
    for entry in std::fs::read_dir(format!("{root}/crates")).expect("crates/") {
        let manifest = entry.expect("crates/ entry").path().join("Cargo.toml");
        if manifest.exists() {
            manifests.push(manifest);
        }
    }
    let mut problems = Vec::new();
    for manifest in &manifests {
        let text = std::fs::read_to_string(manifest).expect("Cargo.toml");
        let doc: toml::Table = text.parse().expect("Cargo.toml parses");
        let workspace_deps = doc.get("workspace").and_then(|w| w.get("dependencies"));
        let sections = ["dependencies", "dev-dependencies", "build-dependencies"]
            .map(|section| (section, doc.get(section)));
        let all = sections
            .into_iter()
            .chain([("workspace.dependencies", workspace_deps)]);
        for (section, deps) in all {
            let Some(deps) = deps.and_then(|d| d.as_table()) else {
                continue;
            };
            for (name, spec) in deps {
                // `x.workspace = true` takes its version from [workspace.dependencies].
                if spec.get("workspace").and_then(|w| w.as_bool()) == Some(true) {
                    continue;
                }
                let version = spec
                    .as_str()
                    .or_else(|| spec.get("version").and_then(|v| v.as_str()));
                if matches!(version, None | Some("*")) {
                    problems.push(format!(
                        "{}: {section}.{name} has no version (a wildcard to cargo-deny)",
                        manifest.display()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
