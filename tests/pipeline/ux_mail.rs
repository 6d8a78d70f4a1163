//! What a player gets back for each common mistake, through the Maildir
//! pipeline: every mail from a known player is answered with its specific
//! reason; unknown senders get one note a day; a copied signed request is
//! answered once.

use umpire_testkit as common;

use common::{key, move_mail, outbox, plain_mail};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::mime::{Compose, ReadMail, build};
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;

struct Club {
    _tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    outdir: std::path::PathBuf,
    seen: std::collections::BTreeSet<String>,
    n: u64,
}

/// The text with its line wrapping undone, for phrase checks.
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

fn club(ruleset: &str, scenario: &str, sides: &[&str]) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    let mut umpire = common::umpire_with_game(
        tmp.path(),
        common::new_game("g1", ruleset, scenario, sides, &[]),
        now(),
    );
    let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let outdir = tmp.path().join("outbox");
    let mut outbox = FileOutbox::open(&outdir).unwrap();
    umpire.deliver(&mut outbox, now()).unwrap();
    let mut c = Club {
        _tmp: tmp,
        umpire,
        maildir,
        outbox,
        outdir,
        seen: Default::default(),
        n: 0,
    };
    c.new_mails();
    c
}

impl Club {
    fn move_text(&mut self, side: &str, orders: &[&str]) -> String {
        let head = self.umpire.game("g1").unwrap().record().head().to_hex();
        let mut t = format!("game: g1\nside: {side}\nafter: {head}\norders:\n");
        for o in orders {
            t.push_str(&format!("  {o}\n"));
        }
        t
    }

    fn drop_mail(&mut self, raw: &[u8]) {
        self.n += 1;
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), raw)
            .unwrap();
    }

    /// A mail from `from` with a body and attachments.
    fn mail(&mut self, from: &str, body: &str, files: Vec<(&str, Vec<u8>)>, html: bool) {
        let n = self.n + 1;
        let raw = build(&Compose {
            from_name: "Player".into(),
            from: from.into(),
            to: vec!["umpire@club.test".into()],
            subject: "move".into(),
            message_id: format!("<x{n}@club.test>"),
            in_reply_to: None,
            references: vec![],
            text: body.into(),
            attachments: files
                .into_iter()
                .map(|(n, b)| (n.to_string(), "text/plain".to_string(), b))
                .collect(),
            auto_submitted: "no",
            headers: vec![],
            date: std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000 + n * 60),
        })
        .unwrap();
        let raw = if html {
            // The same mail as an HTML-only client sends it.
            String::from_utf8(raw)
                .unwrap()
                .replace("text/plain", "text/html")
                .into_bytes()
        } else {
            raw
        };
        self.drop_mail(&raw);
    }

    fn sign(&self, side_index: u8, text: &str) -> String {
        key(side_index + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap()
    }

    fn poll(&mut self) -> umpire::service::poll::PollReport {
        let r = self.umpire.poll(&mut self.maildir, now()).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
        r
    }

    /// The mails delivered since the last call.
    fn new_mails(&mut self) -> Vec<ReadMail> {
        let all = outbox(&self.outdir);
        let mut out = Vec::new();
        for (k, m) in all {
            if self.seen.insert(k) {
                out.push(m);
            }
        }
        out
    }

    /// The one mail the last poll sent; its text.
    fn answer(&mut self) -> String {
        self.poll();
        let m = self.new_mails();
        assert_eq!(m.len(), 1, "one answer: {m:#?}");
        format!("{}\n{}", m[0].subject, m[0].text)
    }
}

#[test]
fn a_signature_without_its_file_is_explained_to_a_player() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let text = c.move_text("red", &["advance"]);
    let sig = c.sign(0, &text);
    c.mail(
        "red@club.test",
        "my move",
        vec![("move.txt.sig", sig.into_bytes())],
        false,
    );
    let a = c.answer();
    assert!(flat(&a).contains("only a signature"), "{a}");
    assert!(!flat(&a).contains("at most once a day"), "{a}");
}

#[test]
fn a_player_is_answered_every_time_an_unknown_sender_once_a_day() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    for _ in 0..2 {
        let text = c.move_text("red", &["advance"]);
        c.mail(
            "red@club.test",
            "unsigned",
            vec![("move.txt", text.into_bytes())],
            false,
        );
        let a = c.answer();
        assert!(flat(&a).contains("came without its signature"), "{a}");
    }
    let body = "game: g1\nside: red\norders:\n  advance\n";
    c.drop_mail(&plain_mail(
        "who@else.test",
        "umpire@club.test",
        90,
        body,
        &[],
    ));
    let a = c.answer();
    assert!(flat(&a).contains("at most once a day"), "{a}");
    c.drop_mail(&plain_mail(
        "who@else.test",
        "umpire@club.test",
        91,
        body,
        &[],
    ));
    c.poll();
    assert!(c.new_mails().is_empty(), "a second note the same day");
}

#[test]
fn a_wrong_game_id_names_the_players_games() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let text = c
        .move_text("red", &["advance"])
        .replace("game: g1", "game: g9");
    let sig = c.sign(0, &text);
    let n = c.n + 1;
    c.drop_mail(&move_mail(
        "red@club.test",
        "umpire@club.test",
        n,
        &text,
        &sig,
        false,
    ));
    let a = c.answer();
    assert!(flat(&a).contains("no game \"g9\""), "{a}");
    assert!(flat(&a).contains("You play in g1 (as red)"), "{a}");
}

#[test]
fn a_move_damaged_by_the_mail_client_says_what_probably_happened() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let text = c.move_text("red", &["advance"]);
    let sig = c.sign(0, &text);
    // The client re-wrapped and padded the pasted block: the signed text is gone.
    let armored = umpire::core::movefile::armor(text.as_bytes(), &sig)
        .replace("  advance", "  advance to the ridge \n  and hold");
    c.mail("red@club.test", &armored, vec![], false);
    let a = c.answer();
    assert!(flat(&a).contains("refused"), "{a}");
    assert!(flat(&a).contains("mail client probably changed it"), "{a}");
    assert!(flat(&a).contains("plain-text"), "{a}");
    // A bad signature from an unknown address is not the player's: still once a day.
    c.drop_mail(&plain_mail(
        "who@else.test",
        "umpire@club.test",
        80,
        &armored,
        &[],
    ));
    assert!(c.answer().contains("refused"));
}

#[test]
fn a_move_pasted_without_armor_lines_is_read() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let text = c.move_text("red", &["advance"]);
    let sig = c.sign(0, &text);
    c.mail(
        "red@club.test",
        &format!("Here is my move\n\n{text}\n{sig}"),
        vec![],
        false,
    );
    let r = c.poll();
    assert_eq!(r.accepted, 1, "{r:?}");
}

#[test]
fn an_armored_move_in_an_html_only_mail_is_read() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let text = c.move_text("red", &["advance"]);
    let sig = c.sign(0, &text);
    let armored = umpire::core::movefile::armor(text.as_bytes(), &sig).replace('\n', "<br>\n");
    c.mail("red@club.test", &armored, vec![], true);
    let r = c.poll();
    assert_eq!(r.accepted, 1, "{r:?}");
}

#[test]
fn a_replayed_signed_request_is_answered_once() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let text = "game: g1\nside: red\ncommand: status\n".to_string();
    let sig = c.sign(0, &text);
    for n in [50, 51, 52] {
        c.drop_mail(&move_mail(
            "red@club.test",
            "umpire@club.test",
            n,
            &text,
            &sig,
            true,
        ));
    }
    let r = c.poll();
    assert_eq!(r.commands, 1, "{r:?}");
    assert_eq!(r.ignored, 2, "{r:?}");
    assert_eq!(c.new_mails().len(), 1);
}

#[test]
fn the_whole_map_by_mail_fits_72_columns() {
    let mut c = club("sarhu", "historical", &["ming", "jurchen"]);
    let text = "game: g1\nside: jurchen\ncommand: map\n".to_string();
    let sig = c.sign(1, &text);
    c.drop_mail(&move_mail(
        "jurchen@club.test",
        "umpire@club.test",
        60,
        &text,
        &sig,
        false,
    ));
    let a = c.answer();
    assert!(flat(&a).contains("the map"), "{a}");
    for l in a.lines() {
        assert!(l.chars().count() <= 72, "over 72 columns: {l:?}");
    }
}

#[test]
fn every_bad_order_of_a_move_is_reported_on_its_own_line() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let text = c.move_text("red", &["roll 2x6 fire", "advance", "roll 0d6 morale"]);
    let sig = c.sign(0, &text);
    let n = c.n + 1;
    c.drop_mail(&move_mail(
        "red@club.test",
        "umpire@club.test",
        n,
        &text,
        &sig,
        false,
    ));
    let a = c.answer();
    assert!(flat(&a).contains("REFUSED"), "{a}");
    assert!(flat(&a).contains("line 5, column"), "{a}");
    assert!(flat(&a).contains("line 7, column"), "{a}");
    for l in a.lines() {
        assert!(l.chars().count() <= 72, "over 72 columns: {l:?}");
    }
}

// The refusal quotes the offending line without its indent and marks the
// column the error names (the file's column, counted with the indent).
#[test]
fn the_refusal_marks_the_column_its_error_names() {
    let mut c = club("freeform", "open", &["red", "blue"]);
    let text = c.move_text("red", &["roll 2x6 fire"]);
    let sig = c.sign(0, &text);
    let n = c.n + 1;
    c.drop_mail(&move_mail(
        "red@club.test",
        "umpire@club.test",
        n,
        &text,
        &sig,
        false,
    ));
    let a = c.answer();
    let column: usize = a
        .split("line 5, column ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no column in:\n{a}"));
    let lines: Vec<&str> = a.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with("  line 5: roll 2x6 fire"))
        .unwrap_or_else(|| panic!("no quoted line in:\n{a}"));
    let caret = lines[at + 1].find('^').expect("a caret under the line");
    // The quote drops the 2-space indent: file column c is quote index c - 3.
    let marked = caret - "  line 5: ".len();
    assert_eq!(marked, column - 3, "{a}");
    assert_ne!(&"roll 2x6 fire"[marked..marked + 1], " ", "{a}");
}
