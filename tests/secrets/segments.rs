//! Result mails that do not grow with the game (issue 13.1), through the
//! Maildir pipeline: each result carries the entries its side has not yet
//! received, signed; the parts a player keeps make the record again, for
//! `umpire verify` (files, a folder of mails, a Maildir, an mbox) and `import`.

use umpire_testkit as common;

use common::{key, move_mail};
use umpire::core::audit::audit;
use umpire::core::game::{Game, ReplayMode};
use umpire::core::segment::assemble;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::mime::ReadMail;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;

struct Club {
    tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    outdir: std::path::PathBuf,
    n: u64,
}

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

fn club(options: &[(&str, &str)]) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let mut umpire = common::umpire_with_game(
        tmp.path(),
        common::new_game("g1", "freeform", "open", &["red", "blue"], options),
        now(),
    );
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

const SIDES: [&str; 2] = ["red", "blue"];

impl Club {
    fn send_text(&mut self, side: usize, text: &str) {
        let sig = key(side as u8 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        self.n += 1;
        let raw = move_mail(
            &format!("{}@club.test", SIDES[side]),
            "umpire@club.test",
            self.n,
            text,
            &sig,
            false,
        );
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), &raw)
            .unwrap();
        self.umpire.poll(&mut self.maildir, now()).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
    }

    fn play(&mut self, side: usize, orders: &[&str]) {
        let head = self.umpire.game("g1").unwrap().record().head().to_hex();
        let mut t = format!("game: g1\nside: {}\nafter: {head}\norders:\n", SIDES[side]);
        for o in orders {
            t.push_str(&format!("  {o}\n"));
        }
        self.send_text(side, &t);
    }

    /// `side`'s mails so far, in the order of the entries they follow.
    fn mails_to(&self, side: &str) -> Vec<(String, ReadMail)> {
        let to = format!("To: {side}@club.test");
        let mut v: Vec<(u64, String, ReadMail)> = Vec::new();
        for e in std::fs::read_dir(&self.outdir).unwrap().flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if !n.ends_with(".eml") {
                continue;
            }
            let raw = std::fs::read(e.path()).unwrap();
            if !String::from_utf8_lossy(&raw)
                .lines()
                .any(|l| l.trim() == to)
            {
                continue;
            }
            let seq = n
                .split('.')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            v.push((seq, n, umpire::mail::mime::read(&raw).unwrap()));
        }
        v.sort_by_key(|(s, n, _)| (*s, n.clone()));
        v.into_iter().map(|(_, n, m)| (n, m)).collect()
    }
}

/// The record parts of a mail: (attachment name, text).
fn parts_of(m: &ReadMail) -> Vec<(String, String)> {
    m.attachments
        .iter()
        .filter(|a| a.name.starts_with("record") && a.name.ends_with(".txt"))
        .map(|a| (a.name.clone(), String::from_utf8(a.bytes.clone()).unwrap()))
        .collect()
}

fn umpire_bin(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn result_mails_stay_flat_and_their_parts_make_the_record() {
    let mut c = club(&[]);
    for i in 0..40 {
        let roll = format!("roll 2d6 fire {i}");
        c.play(i % 2, &["advance", &roll, "end turn"]);
    }
    let red = c.mails_to("red");
    let sizes: Vec<usize> = red
        .iter()
        .map(|(_, m)| parts_of(m).iter().map(|(_, t)| t.len()).sum())
        .collect();
    // Every result after the opening carries a segment of a few entries.
    for ((name, m), size) in red.iter().zip(&sizes).skip(1) {
        let parts = parts_of(m);
        assert_eq!(parts.len(), 1, "{name}");
        assert!(parts[0].0.starts_with("record-"), "{name}: {}", parts[0].0);
        assert!(
            m.attachments
                .iter()
                .any(|a| a.name == format!("{}.sig", parts[0].0)),
            "{name}: the segment is signed"
        );
        assert!(
            *size < 2 * sizes[2],
            "{name}: {size} bytes against {}",
            sizes[2]
        );
    }
    // Red's parts, in any order, make the umpire's record.
    let mut parts: Vec<(String, String)> = red.iter().flat_map(|(_, m)| parts_of(m)).collect();
    parts.reverse();
    let record = assemble(&parts).unwrap();
    let (_, sum) = Game::replay(
        umpire::games::find("freeform").unwrap(),
        &record,
        ReplayMode::Verify,
    )
    .unwrap();
    assert_eq!(sum.moves, 40);
    assert_eq!(record.head(), c.umpire.game("g1").unwrap().record().head());
    // One mail lost: the gap is named, with what to do.
    let mut lost = parts.clone();
    lost.remove(5);
    let e = assemble(&lost).unwrap_err().to_string();
    assert!(
        e.contains("missing") && e.contains("command: record"),
        "{e}"
    );
}

#[test]
fn the_whole_record_comes_on_request_and_on_a_resend() {
    let mut c = club(&[]);
    c.play(0, &["advance", "end turn"]);
    c.play(1, &["hold", "end turn"]);
    c.send_text(0, "game: g1\nside: red\ncommand: record\ncommand: resend\n");
    let red = c.mails_to("red");
    let whole: Vec<&String> = red
        .iter()
        .filter(|(_, m)| parts_of(m).iter().any(|(n, _)| n == "record.txt"))
        .map(|(n, _)| n)
        .collect();
    // The opening, the record asked for, and the resend.
    assert_eq!(whole.len(), 3, "{whole:?}");
    // After them red holds everything: the next result is one entry or two.
    c.play(0, &["advance", "end turn"]);
    let red = c.mails_to("red");
    let last = parts_of(&red.last().unwrap().1);
    let record = assemble(
        &red.iter()
            .flat_map(|(_, m)| parts_of(m))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    assert!(last[0].0.starts_with("record-"), "{}", last[0].0);
    assert_eq!(record.head(), c.umpire.game("g1").unwrap().record().head());
}

#[test]
fn a_hidden_game_mails_each_side_its_own_copy_of_the_new_entries() {
    let mut c = club(&[("secrets", "on")]);
    for i in 0..6 {
        let secret = format!("roll secret 2d6 spot-{i}");
        let hidden = format!("hidden {}-ambush-{i}", SIDES[i % 2]);
        c.play(i % 2, &[&secret, &hidden, "end turn"]);
    }
    for (s, other) in [("red", "blue"), ("blue", "red")] {
        let mails = c.mails_to(s);
        for (name, m) in &mails {
            for (_, t) in parts_of(m) {
                assert!(
                    !t.contains(&format!("{other}-ambush")),
                    "{name} shows {other}'s order"
                );
            }
        }
        let copy = assemble(
            &mails
                .iter()
                .flat_map(|(_, m)| parts_of(m))
                .collect::<Vec<_>>(),
        )
        .unwrap();
        assert!(!copy.is_complete(), "{s}: a copy until the end");
        audit(&copy).unwrap_or_else(|e| panic!("{s}'s copy does not audit: {e}"));
        assert_eq!(copy.head(), c.umpire.game("g1").unwrap().record().head());
    }
    // At the end the whole record opens.
    c.play(0, &["concede"]);
    assert!(c.umpire.game("g1").unwrap().prompt().finished.is_some());
    let blue = c.mails_to("blue");
    let last = parts_of(&blue.last().unwrap().1);
    assert_eq!(last[0].0, "record.txt");
    let full = assemble(&last).unwrap();
    assert!(full.is_complete());
}

#[test]
fn verify_and_import_take_a_players_mails() {
    let mut c = club(&[]);
    for i in 0..6 {
        c.play(i % 2, &["advance", "roll 1d6 fire", "end turn"]);
    }
    // Blue's mails in a Maildir, as a mail client keeps them, and in an mbox.
    let md = c.tmp.path().join("blue-mail");
    let mut mbox = Vec::new();
    for d in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(md.join(d)).unwrap();
    }
    for e in std::fs::read_dir(&c.outdir).unwrap().flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        if n.starts_with("g1.") && n.ends_with(".blue.eml") {
            let raw = std::fs::read(e.path()).unwrap();
            std::fs::write(md.join("cur").join(format!("{n}:2,S")), &raw).unwrap();
            mbox.extend_from_slice(b"From umpire@club.test Tue Dec  1 12:00:00 2026\n");
            mbox.extend_from_slice(&raw);
            mbox.extend_from_slice(b"\n");
        }
    }
    let mbox_path = c.tmp.path().join("blue.mbox");
    std::fs::write(&mbox_path, &mbox).unwrap();
    for p in [&md, &mbox_path] {
        let o = umpire_bin(&["verify", p.to_str().unwrap()]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{}: {out}\n{}",
            p.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            out.contains("record verified") && out.contains("signed by the umpire's key"),
            "{out}"
        );
        assert!(out.contains("6 move signatures checked"), "{out}");
    }
    // Blue's parts saved as files verify too; a segment whose text was
    // changed where no hash reaches (a comment) fails on its signature.
    let files = c.tmp.path().join("blue-files");
    std::fs::create_dir_all(&files).unwrap();
    let mut last = None;
    for (_, m) in c.mails_to("blue") {
        for a in &m.attachments {
            if a.name.starts_with("record") {
                std::fs::write(files.join(&a.name), &a.bytes).unwrap();
                if a.name.starts_with("record-") && a.name.ends_with(".txt") {
                    last = Some(files.join(&a.name));
                }
            }
        }
    }
    let gathered = umpire::service::segments::gather(std::slice::from_ref(&files)).unwrap();
    assert_eq!(gathered.signed, gathered.parts);
    assert_eq!(
        gathered.record.head(),
        c.umpire.game("g1").unwrap().record().head()
    );
    let seg = last.unwrap();
    let text = std::fs::read_to_string(&seg).unwrap();
    std::fs::write(&seg, text.replacen("# check", "# do not check", 1)).unwrap();
    let o = umpire_bin(&["verify", files.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("signature"), "{err}");

    // A new umpire imports the game from blue's mails and plays on.
    let other = tempfile::tempdir().unwrap();
    Umpire::init(other.path(), "umpire@other.test").unwrap();
    let mut u2 = Umpire::open(other.path()).unwrap();
    let record = umpire::service::segments::gather(std::slice::from_ref(&md))
        .unwrap()
        .record;
    u2.import(&record, now()).unwrap();
    assert!(
        u2.game("g1").unwrap().record().len() > record.len(),
        "a recommit follows"
    );
    // Red moves at the new umpire; blue files the new umpire's result with the
    // old one's mails. The recommit names the new umpire's key, so the parts
    // signed by each umpire verify against the right key, and the whole
    // record the new umpire exports verifies against its own signature.
    let mut md2 = Maildir::open(&other.path().join("maildir")).unwrap();
    let out2 = other.path().join("outbox");
    let mut ob2 = FileOutbox::open(&out2).unwrap();
    u2.deliver(&mut ob2, now()).unwrap();
    let head = u2.game("g1").unwrap().record().head().to_hex();
    let text = format!("game: g1\nside: red\nafter: {head}\norders:\n  advance\n");
    let sig = key(1).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    let raw = move_mail(
        "red@club.test",
        "umpire@other.test",
        900,
        &text,
        &sig,
        false,
    );
    md2.deliver("0900.mail", &raw).unwrap();
    u2.poll(&mut md2, now()).unwrap();
    u2.deliver(&mut ob2, now()).unwrap();
    let mut moved = 0;
    for e in std::fs::read_dir(&out2).unwrap().flatten() {
        let n = e.file_name().to_string_lossy().into_owned();
        if n.contains(".blue.") && n.ends_with(".eml") {
            std::fs::copy(e.path(), md.join("cur").join(format!("new-{n}:2,S"))).unwrap();
            moved += 1;
        }
    }
    assert!(moved >= 1, "blue got the new umpire's mails");
    let g = umpire::service::segments::gather(std::slice::from_ref(&md)).unwrap();
    assert_eq!(g.signed, g.parts);
    assert_eq!(g.fingerprints.len(), 2, "{:?}", g.fingerprints);
    let k2 = umpire::core::sig::PublicKey::parse(&u2.public_key()).unwrap();
    assert_eq!(g.fingerprints[1], k2.fingerprint());
    assert_eq!(g.record.head(), u2.game("g1").unwrap().record().head());
    let o = umpire_bin(&["verify", md.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("in turn, as the game moved"), "{out}");
    // The whole record the new umpire writes is signed by its key, and
    // `verify` checks that signature against the key the record hands over to.
    drop(u2); // the CLI opens the database itself
    let whole = other.path().join("g1.txt");
    let o = umpire_bin(&[
        "--dir",
        other.path().to_str().unwrap(),
        "record",
        "g1",
        "-o",
        whole.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = umpire_bin(&["verify", whole.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains(&k2.fingerprint()), "{out}");
}
