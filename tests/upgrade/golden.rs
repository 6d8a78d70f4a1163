//! Golden records: finished games of each ruleset at each version it keeps,
//! committed once and never regenerated. Each must verify with this umpire,
//! forever (the determinism promise: "old records keep verifying after every
//! change"). A change that alters what one of them replays to fails here; the
//! fix is a version switch (`at_version`) or, for data, an archived earlier
//! data set (`games/<kind>/earlier/`), never a new golden file.
//!
//! A file is named `RULESET-vVERSION-DATA-WHAT.record`: DATA the first 16
//! hex digits of its data hash (`none` for a game without data), WHAT the
//! scenario or mode. Add one with `umpire selfplay RULESET --games 1 --save
//! DIR` at the version to keep, before the version changes.

use std::path::{Path, PathBuf};
use std::process::Command;
use umpire::core::game::Game;
use umpire::core::record::Record;

fn golden() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/records")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "record"))
        .collect();
    files.sort();
    files
}

fn label(record: &Record) -> String {
    let o = record.opening().expect("an opening");
    let data = o
        .ruleset_data
        .map_or("none".to_string(), |d| d.to_hex()[..16].to_string());
    format!("{}-v{}-{data}", o.ruleset, o.ruleset_version)
}

#[test]
fn every_golden_record_verifies_and_is_named_for_its_version() {
    let files = golden();
    assert!(files.len() >= 5, "golden records missing: {files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable");
        let record = Record::from_text(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let stem = f.file_stem().and_then(|s| s.to_str()).expect("a name");
        let want = label(&record);
        assert!(
            stem.strip_prefix(&want).is_some_and(|w| w.starts_with('-')),
            "{} is misnamed: its record is {want}",
            f.display()
        );
        let name = &record.opening().expect("opening").ruleset;
        let ruleset = umpire::games::find(name).expect("a known ruleset");
        let (game, _) = Game::verify_only(ruleset, record)
            .unwrap_or_else(|e| panic!("{} no longer verifies: {e}", f.display()));
        assert!(
            game.prompt().finished.is_some(),
            "{}: a golden record is a finished game",
            f.display()
        );
    }
}

#[test]
fn a_record_made_with_earlier_embedded_data_verifies_through_the_cli() {
    // adp v7 was played on data replaced since (the archive in
    // games/adp/earlier/ keeps it): `umpire verify` needs no `--data`.
    let f = golden()
        .into_iter()
        .find(|p| p.to_string_lossy().contains("adp-v7-69bc4abb6fa069c4"))
        .expect("the adp v7 golden record");
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["verify"])
        .arg(&f)
        .output()
        .expect("run umpire");
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    let current = umpire::games::find("adp").expect("adp").info().data;
    let recorded = Record::from_text(&std::fs::read_to_string(&f).expect("read"))
        .expect("parse")
        .opening()
        .expect("opening")
        .ruleset_data;
    assert_ne!(recorded, current, "the fixture must use earlier data");
}
