//! The test command (`scripts/test.sh`) runs the real-server tests beside the
//! others and skips their modules by name in the main run: the names it skips
//! must be exactly those modules, and no other test may share them, or a test
//! would silently never run.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The module names in `mail_modules=(...)` of scripts/test.sh.
fn skipped_modules(script: &str) -> Vec<String> {
    let line = script
        .lines()
        .find_map(|l| l.trim().strip_prefix("mail_modules=("))
        .unwrap_or_else(|| panic!("scripts/test.sh has no mail_modules=(...) line"));
    let inner = line.strip_suffix(')').unwrap_or(line);
    inner.split_whitespace().map(str::to_owned).collect()
}

/// `mod NAME;` declarations of a Rust file.
fn modules(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("mod "))
        .filter_map(|l| l.strip_suffix(';'))
        .map(str::to_owned)
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn the_skipped_mail_modules_are_the_mail_server_tests_and_nothing_else() {
    let script = std::fs::read_to_string(root().join("scripts/test.sh")).unwrap();
    let mut skipped = skipped_modules(&script);
    let main = std::fs::read_to_string(root().join("tests/mail_servers/main.rs")).unwrap();
    let mut declared = modules(&main);
    skipped.sort();
    declared.sort();
    assert_eq!(
        skipped, declared,
        "scripts/test.sh's mail_modules must list tests/mail_servers/main.rs's modules"
    );

    let mut files = Vec::new();
    rust_files(&root().join("tests"), &mut files);
    rust_files(&root().join("crates"), &mut files);
    rust_files(&root().join("src"), &mut files);
    for f in files {
        if f.starts_with(root().join("tests/mail_servers")) {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap();
        for m in &skipped {
            let named = text.contains(&format!("mod {m}")) || text.contains(&format!("fn {m}"));
            assert!(
                !named,
                "{} names `{m}`, which scripts/test.sh skips in its main run",
                f.display()
            );
        }
    }
}

#[test]
fn the_module_reader_finds_what_it_should() {
    assert_eq!(modules("mod a;\n  mod b;\nfn c() {}\n"), ["a", "b"]);
    assert_eq!(
        skipped_modules("x\nmail_modules=(one two)\n"),
        ["one".to_owned(), "two".to_owned()]
    );
}
