//! Running the built `umpire` binary from the tests of this folder.

use std::path::Path;
use std::process::{Command, Output};

/// The clock the tests give the binary (`UMPIRE_NOW`).
pub const NOW: &str = "2026-12-01T10:00:00Z";

/// The binary with its clock at `now` and no data directory taken from the
/// environment the tests run in.
pub fn command(now: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_umpire"));
    c.env("UMPIRE_NOW", now).env_remove("UMPIRE_DIR");
    c
}

/// `umpire --dir DIR ARGS…` at [`NOW`].
pub fn umpire(dir: &Path, args: &[&str]) -> Output {
    command(NOW)
        .arg("--dir")
        .arg(dir)
        .args(args)
        .output()
        .expect("run umpire")
}

/// The standard output of a run that must have succeeded.
pub fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The standard error of a run.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
