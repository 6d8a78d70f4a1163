//! A move or request naming a game this umpire does not hold, through the
//! Maildir pipeline: the answer names the nearest game id its reader may know
//! of (a public game, one the address plays in or observes), and never a
//! private game's id to anyone else.

use umpire_testkit as common;

use common::{key, move_mail, outbox};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

/// A club with a private game `club7` (red, blue), a public one `league-3`
/// (green, gold) and a private one `secret-9` (ivory, jade).
struct Club {
    _tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    outdir: std::path::PathBuf,
    seen: std::collections::BTreeSet<String>,
    n: u64,
}

impl Club {
    fn new() -> Club {
        let tmp = tempfile::tempdir().unwrap();
        let mut umpire = common::umpire_with_game(
            tmp.path(),
            common::new_game("club7", "freeform", "open", &["red", "blue"], &[]),
            now(),
        );
        for (id, sides) in [
            ("league-3", ["green", "gold"]),
            ("secret-9", ["ivory", "jade"]),
        ] {
            umpire
                .create_game(common::new_game(id, "freeform", "open", &sides, &[]), now())
                .unwrap();
        }
        umpire.set_public("league-3", true).unwrap();
        let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
        let outdir = tmp.path().join("outbox");
        let outbox = FileOutbox::open(&outdir).unwrap();
        let mut c = Club {
            _tmp: tmp,
            umpire,
            maildir,
            outbox,
            outdir,
            seen: Default::default(),
            n: 0,
        };
        c.answers();
        c
    }

    /// Mails a move signed with key `k` from `from`, for game `game`; the
    /// answer's text, one line.
    fn ask(&mut self, from: &str, k: u8, game: &str) -> String {
        let text = format!(
            "game: {game}\nside: red\nafter: {}\norders:\n  advance\n",
            "ab".repeat(32)
        );
        self.send(from, k, &text)
    }

    /// Mails `text` signed with key `k` from `from`; the answer's text, one line.
    fn send(&mut self, from: &str, k: u8, text: &str) -> String {
        let sig = key(k).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
        self.n += 1;
        let raw = move_mail(from, "umpire@club.test", self.n, text, &sig, false);
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), &raw)
            .unwrap();
        let answers = self.answers();
        assert_eq!(answers.len(), 1, "one answer to {from}: {answers:#?}");
        answers[0].split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The mails the umpire sent since the last call (a poll and a delivery
    /// first), each its recipient, subject and text.
    fn answers(&mut self) -> Vec<String> {
        self.umpire.poll(&mut self.maildir, now()).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
        let mut out = Vec::new();
        for (k, m) in outbox(&self.outdir) {
            if self.seen.insert(k) {
                out.push(format!("{}\n{}", m.subject, m.text));
            }
        }
        out
    }
}

#[test]
fn a_player_is_offered_his_own_game_and_the_public_ones() {
    let mut c = Club::new();
    let a = c.ask("red@club.test", 1, "clbu7");
    assert!(a.contains("no game \"clbu7\""), "{a}");
    assert!(a.contains("did you mean club7?"), "{a}");
    let a = c.ask("red@club.test", 1, "league-4");
    assert!(a.contains("did you mean league-3?"), "{a}");
    // A request (`command: …`) is answered the same way.
    let a = c.send(
        "red@club.test",
        1,
        "game: clb7\nside: red\ncommand: status\n",
    );
    assert!(a.contains("did you mean club7?"), "{a}");
    // secret-9 is neither his nor public.
    let a = c.ask("red@club.test", 1, "secret-8");
    assert!(!a.contains("secret-9"), "{a}");
    assert!(!a.contains("did you mean"), "{a}");
}

#[test]
fn a_stranger_learns_only_public_game_ids() {
    let mut c = Club::new();
    // Signed with a key no game knows, from an address no game knows.
    let a = c.ask("who@else.test", 9, "secret-8");
    assert!(a.contains("no game \"secret-8\""), "{a}");
    assert!(
        !a.contains("secret-9"),
        "a private game's id reached a stranger: {a}"
    );
    assert!(!a.contains("club7"), "{a}");
    // Not even by replaying a player's key: the answer goes to the From
    // address, and this one plays in nothing.
    let a = c.ask("other@else.test", 1, "clbu7");
    assert!(!a.contains("club7"), "{a}");
    let a = c.ask("third@else.test", 9, "league-4");
    assert!(a.contains("did you mean league-3?"), "{a}");
}

#[test]
fn an_observer_is_offered_the_game_it_observes() {
    let mut c = Club::new();
    c.umpire
        .observe("secret-9", "watcher@else.test", false)
        .unwrap();
    let a = c.ask("watcher@else.test", 9, "secret-8");
    assert!(a.contains("did you mean secret-9?"), "{a}");
}
