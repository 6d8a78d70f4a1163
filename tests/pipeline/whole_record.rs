//! A long game's whole record goes out compressed: the end-of-game mail and
//! the answer to `command: record` attach `record.txt.gz` (and the umpire's
//! signature over its text, `record.txt.sig`) once the record passes 64 KiB,
//! and stay well under half of `max_mail_bytes`; `umpire verify`, `show
//! --record` and `map` read the saved attachment, its folder and the mail
//! itself. A compressed file that inflates past the cap is refused.

use umpire_testkit as common;

use common::{key, move_mail};
use std::path::{Path, PathBuf};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::mime::ReadMail;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;

/// The cap on a mail's size in this club: small, so a game of a hundred
/// moves outgrows half of it.
const MAX_MAIL: usize = 128 * 1024;

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

struct Club {
    tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    outdir: PathBuf,
    n: u64,
}

const SIDES: [&str; 2] = ["red", "blue"];

fn club() -> Club {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let toml = tmp.path().join("umpire.toml");
    let text = std::fs::read_to_string(&toml).unwrap().replace(
        "max_mail_bytes = 2097152",
        &format!("max_mail_bytes = {MAX_MAIL}"),
    );
    std::fs::write(&toml, text).unwrap();
    let mut umpire = Umpire::open(tmp.path()).unwrap();
    assert_eq!(umpire.config().limits.max_mail_bytes, MAX_MAIL);
    umpire
        .create_game(
            common::new_game("g1", "freeform", "open", &SIDES, &[]),
            now(),
        )
        .unwrap();
    let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let outdir = tmp.path().join("outbox");
    let mut outbox = FileOutbox::open(&outdir).unwrap();
    umpire.deliver(&mut outbox, now()).unwrap();
    Club {
        tmp,
        umpire,
        maildir,
        outbox,
        outdir,
        n: 0,
    }
}

impl Club {
    /// Side `side` signs `body` (after the game's head) and mails it; one poll.
    fn send(&mut self, side: usize, body: &str) {
        let head = self.umpire.game("g1").unwrap().record().head().to_hex();
        let text = format!("game: g1\nside: {}\nafter: {head}\n{body}", SIDES[side]);
        let sig = key(side as u8 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        self.n += 1;
        let from = format!("{}@club.test", SIDES[side]);
        let raw = move_mail(&from, "umpire@club.test", self.n, &text, &sig, false);
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), &raw)
            .unwrap();
        self.umpire.poll(&mut self.maildir, now()).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
    }

    fn record_len(&mut self) -> usize {
        self.umpire.game("g1").unwrap().record().to_text().len()
    }

    /// The delivered mails whose subject holds `what`: file, size, mail.
    fn mails(&self, what: &str) -> Vec<(PathBuf, usize, ReadMail)> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(&self.outdir).unwrap().flatten() {
            let raw = std::fs::read(e.path()).unwrap();
            let m = umpire::mail::mime::read(&raw).unwrap();
            if m.subject.contains(what) {
                out.push((e.path(), raw.len(), m));
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

fn run_umpire(dir: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--dir")
        .arg(dir)
        .args(args)
        .env("UMPIRE_NOW", "2026-12-01T12:00:00Z")
        .output()
        .unwrap()
}

fn text(o: &std::process::Output) -> String {
    format!(
        "exit {:?}\n{}{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The attachment named `name` of mail `m`.
fn attachment<'a>(m: &'a ReadMail, name: &str) -> &'a [u8] {
    let names: Vec<&str> = m.attachments.iter().map(|a| a.name.as_str()).collect();
    &m.attachments
        .iter()
        .find(|a| a.name == name)
        .unwrap_or_else(|| panic!("no {name} in {names:?}"))
        .bytes
}

#[test]
fn a_long_games_whole_record_mails_go_compressed_and_verify_reads_them() {
    let mut c = club();
    // Play until the record is well past half the cap: mailed plain (and
    // base64-encoded, as every attachment is), its end mail would not fit.
    let mut turn = 0;
    while c.record_len() < MAX_MAIL * 2 / 3 {
        let body = format!("orders:\n  advance\n  roll 1d6 turn {turn}\n  end turn\n");
        c.send(turn % 2, &body);
        turn += 1;
    }
    let plain = c.record_len();

    // On request: the record, compressed.
    c.send(1, "command: record\n");
    let asked = c.mails("the record");
    let (_, size, m) = asked.last().expect("the record mail");
    assert!(*size < MAX_MAIL / 2, "{size} bytes, the record {plain}");
    let gz = attachment(m, "record.txt.gz");
    assert!(umpire::service::gzip::is_gzip(gz));
    assert!(m.attachments.iter().all(|a| a.name != "record.txt"));
    assert!(m.text.contains("umpire verify record.txt.gz"), "{}", m.text);

    // The end: every side gets the whole record, compressed, under half the cap.
    c.send(0, "orders:\n  concede\n");
    let over = c.mails("game over");
    assert_eq!(over.len(), 2, "one end mail a side");
    for (path, size, m) in &over {
        assert!(
            *size < MAX_MAIL / 2,
            "{}: {size} bytes, the record {plain}",
            path.display()
        );
        let text = umpire::service::gzip::inflate(attachment(m, "record.txt.gz")).unwrap();
        assert!(text.len() > plain, "the whole record");
        assert!(m.text.contains("umpire verify record.txt.gz"), "{}", m.text);
    }

    // A player saves the two attachments and checks them.
    let (mail_path, _, m) = &over[0];
    let saved = c.tmp.path().join("saved");
    std::fs::create_dir(&saved).unwrap();
    let gz_path = saved.join("record.txt.gz");
    std::fs::write(&gz_path, attachment(m, "record.txt.gz")).unwrap();
    std::fs::write(
        saved.join("record.txt.sig"),
        attachment(m, "record.txt.sig"),
    )
    .unwrap();
    let dir = c.tmp.path();
    let o = run_umpire(dir, &["verify", gz_path.to_str().unwrap()]);
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("record verified"), "{out}");
    assert!(out.contains("signed by the umpire's key"), "{out}");
    assert!(out.contains("game over"), "{out}");
    // Its folder, and the mail itself.
    for what in [&saved, mail_path] {
        let o = run_umpire(dir, &["verify", what.to_str().unwrap()]);
        let out = text(&o);
        assert!(o.status.success(), "{}: {out}", what.display());
        assert!(out.contains("1 signed by the umpire"), "{out}");
    }
    // A compressed record under another name is known by its bytes.
    let renamed = saved.join("game-g1");
    std::fs::copy(&gz_path, &renamed).unwrap();
    let o = run_umpire(dir, &["verify", renamed.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    // The offline tools read it too.
    let o = run_umpire(dir, &["show", "--record", gz_path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let svg = saved.join("map.svg");
    let o = run_umpire(
        dir,
        &[
            "map",
            gz_path.to_str().unwrap(),
            "-o",
            svg.to_str().unwrap(),
        ],
    );
    assert!(
        o.status.success() || text(&o).contains("no map"),
        "{}",
        text(&o)
    );

    // A changed byte of the text fails the umpire's signature.
    let mut t = umpire::service::gzip::inflate(attachment(m, "record.txt.gz")).unwrap();
    t = t.replacen("advance", "advanc3", 1);
    std::fs::write(&gz_path, umpire::service::gzip::compress(t.as_bytes())).unwrap();
    let o = run_umpire(dir, &["verify", gz_path.to_str().unwrap()]);
    assert!(!o.status.success(), "{}", text(&o));
}

/// Concatenated gzip members of 1 MiB of zeros each: a few kilobytes that
/// inflate to `mib` MiB.
fn bomb(mib: usize) -> Vec<u8> {
    let one = umpire::service::gzip::compress(&vec![0u8; 1 << 20]);
    one.repeat(mib)
}

#[test]
fn a_compressed_record_that_inflates_without_end_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let b = bomb(80);
    assert!(b.len() < 200 * 1024, "{}", b.len());
    let file = dir.join("record.txt.gz");
    std::fs::write(&file, &b).unwrap();
    for args in [
        vec!["verify", file.to_str().unwrap()],
        vec!["show", "--record", file.to_str().unwrap()],
    ] {
        let o = run_umpire(dir, &args);
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {out}");
        assert!(out.contains("more than 64 MiB"), "{args:?}: {out}");
        assert!(!out.contains("panicked"), "{out}");
    }
    // Mailed: a player's folder holding a mail that attaches it.
    let mail = umpire::mail::mime::build(&umpire::mail::mime::Compose {
        from_name: "Umpire".into(),
        from: "umpire@club.test".into(),
        to: vec!["red@club.test".into()],
        subject: "[g1] game over".into(),
        message_id: "<g1.9.red@club.test>".into(),
        in_reply_to: None,
        references: vec![],
        text: "The record.\n".into(),
        attachments: vec![("record.txt.gz".into(), "application/gzip".into(), b)],
        auto_submitted: "auto-replied",
        headers: vec![],
        date: std::time::UNIX_EPOCH,
    })
    .unwrap();
    let folder = dir.join("mails");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("end.eml"), mail).unwrap();
    let o = run_umpire(dir, &["verify", folder.to_str().unwrap()]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("record.txt.gz"), "{out}");
    assert!(out.contains("more than 64 MiB"), "{out}");
}
