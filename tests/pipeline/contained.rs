//! Whatever goes wrong while one mail is handled or one game is drawn, the
//! sender is answered and the other games go on: an order grammar that once
//! panicked (A Distant Plain's bare `move` line) refuses through the Maildir
//! pipeline and on the command line; a panic anywhere in a poll still gets
//! the player an answer; a game's pages never stop another's.

use umpire_testkit as common;

use common::{key, move_mail, outbox};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;
use umpire::service::poll::PollReport;

fn now() -> jiff::Timestamp {
    "2026-12-01T10:00:00Z".parse().unwrap()
}

/// A club's data directory with its Maildir and file outbox.
struct Club {
    tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    n: u64,
}

impl Club {
    fn new() -> Club {
        let tmp = tempfile::tempdir().unwrap();
        Umpire::init(tmp.path(), "umpire@club.test").unwrap();
        let umpire = Umpire::open(tmp.path()).unwrap();
        let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
        let outbox = FileOutbox::open(&tmp.path().join("outbox")).unwrap();
        Club {
            tmp,
            umpire,
            maildir,
            outbox,
            n: 0,
        }
    }

    fn dir(&self) -> PathBuf {
        self.tmp.path().to_path_buf()
    }

    /// Creates game `id` of `ruleset`; side N plays with key N + 1.
    fn create(&mut self, id: &str, ruleset: &str, scenario: &str, sides: &[&str]) {
        self.umpire
            .create_game(
                NewGame {
                    id: id.into(),
                    ruleset: ruleset.into(),
                    scenario: scenario.into(),
                    options: BTreeMap::new(),
                    deadlines: None,
                    time_zones: BTreeMap::new(),
                    sides: common::declared(sides),
                },
                now(),
            )
            .unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
    }

    /// A move of side `i` (named `name`) in `game` after its head, signed.
    fn signed(&mut self, game: &str, (i, name): (u8, &str), orders: &[&str]) -> (String, String) {
        let head = self.umpire.game(game).unwrap().record().head();
        let mut t = format!("game: {game}\nside: {name}\nafter: {head}\norders:\n");
        for o in orders {
            t.push_str(&format!("  {o}\n"));
        }
        let sig = key(i + 1).sign(MOVE_NAMESPACE, t.as_bytes()).unwrap();
        (t, sig)
    }

    /// Mails side `i`'s signed move into the Maildir and polls.
    fn mail(&mut self, game: &str, (i, name): (u8, &str), orders: &[&str]) -> PollReport {
        let (t, sig) = self.signed(game, (i, name), orders);
        self.n += 1;
        let raw = move_mail(
            &format!("{name}@club.test"),
            "umpire@club.test",
            self.n,
            &t,
            &sig,
            false,
        );
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), &raw)
            .unwrap();
        let r = self.umpire.poll(&mut self.maildir, now()).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
        r
    }

    /// The mails in the outbox to `addr`, by file name.
    fn mails_to(&self, addr: &str) -> Vec<(String, umpire::mail::mime::ReadMail)> {
        let dir = self.dir().join("outbox");
        outbox(&dir)
            .into_iter()
            .filter(|(f, _)| {
                let raw = std::fs::read_to_string(dir.join(f)).unwrap();
                raw.lines()
                    .take_while(|l| !l.trim().is_empty())
                    .any(|l| l.starts_with("To:") && l.contains(addr))
            })
            .collect()
    }
}

fn umpire_cmd(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("--dir")
        .arg(dir)
        .args(args)
        .env("UMPIRE_NOW", "2026-12-01T10:00:00Z")
        .output()
        .unwrap()
}

/// An Operation followed by a `move` line with nothing after it: the order
/// parser indexed an empty list and panicked (the poll recorded the mail as
/// failed and the player heard nothing).
const BARE_MOVE: [&str; 2] = ["march", "move"];

/// A two-player A Distant Plain game that opens on an Event card, not a
/// Propaganda Round (the deck's order comes from the game's own secret, so
/// a game opens in a Propaganda Round now and then): its id.
fn create_on_a_card(c: &mut Club) -> String {
    for n in 0..40 {
        let id = format!("plain-{n}");
        c.create(&id, "adp", "standin-2p-np", &["coalition", "taliban"]);
        let g = c.umpire.game(&id).unwrap();
        let ask = &g.waiting().next().expect("a side is awaited").ask;
        if !ask.contains("Propaganda") {
            return id;
        }
    }
    panic!("40 games in a row opened in a Propaganda Round");
}

/// The side A Distant Plain's two-player game asks first, and its index.
fn first_awaited(c: &mut Club, game: &str) -> (u8, String) {
    let g = c.umpire.game(game).unwrap();
    let side = g.waiting().next().expect("a side is awaited").side;
    (side.0, g.sides()[side.index()].name.clone())
}

// 3.3.2: a March moves pieces along a path; a bare `move` line is refused,
// naming its line and the rule, and the game goes on.
#[test]
fn an_adp_operation_with_a_bare_move_line_is_refused_by_mail() {
    let mut c = Club::new();
    let game = create_on_a_card(&mut c);
    let plain = game.as_str();
    let (i, name) = first_awaited(&mut c, plain);
    let len = c.umpire.game(plain).unwrap().record().len();
    let r = c.mail(plain, (i, &name), &BARE_MOVE);
    assert_eq!((r.rejected, r.failed), (1, 0), "{r:?}");
    let refusals: Vec<_> = c
        .mails_to(&format!("{name}@club.test"))
        .into_iter()
        .filter(|(_, m)| m.text.contains("refused") || m.subject.contains("refused"))
        .collect();
    assert_eq!(refusals.len(), 1, "one refusal to {name}");
    let text = &refusals[0].1.text;
    assert!(text.contains("line 6"), "names the line: {text}");
    assert!(text.contains("move"), "names the order: {text}");
    assert!(text.contains("(3."), "cites the rule: {text}");
    // Refused before any roll: the record holds the refusal only.
    assert_eq!(c.umpire.game(plain).unwrap().record().len(), len + 1);
    // The record holding that refusal verifies, shows and imports.
    let rec = c.umpire.export(plain, None).unwrap();
    let file = c.dir().join("plain.record");
    std::fs::write(&file, &rec).unwrap();
    let o = umpire_cmd(&c.dir(), &["verify", file.to_str().unwrap()]);
    assert!(o.status.success(), "verify: {o:?}");
}

// The same move checked offline, and a record holding it verified, shown
// and imported: exit 1 or 0 with words, never a panic (exit 101).
#[test]
fn umpire_check_refuses_an_adp_bare_move_line_and_records_holding_it_read() {
    let mut c = Club::new();
    let game = create_on_a_card(&mut c);
    let plain = game.as_str();
    let (i, name) = first_awaited(&mut c, plain);
    let (t, sig) = c.signed(plain, (i, &name), &BARE_MOVE);
    let dir = c.dir();
    let (mv, sg) = (dir.join("move.txt"), dir.join("move.txt.sig"));
    std::fs::write(&mv, &t).unwrap();
    std::fs::write(&sg, &sig).unwrap();
    let before = dir.join("before.record");
    std::fs::write(&before, c.umpire.export(plain, None).unwrap()).unwrap();
    let o = umpire_cmd(
        &dir,
        &[
            "check",
            mv.to_str().unwrap(),
            "-r",
            before.to_str().unwrap(),
        ],
    );
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("line 6"), "{out}");
    // A record holding the refused text: verify, show --record and import.
    c.mail(plain, (i, &name), &BARE_MOVE);
    let rec = dir.join("plain.record");
    std::fs::write(&rec, c.umpire.export(plain, None).unwrap()).unwrap();
    drop(c.umpire);
    for args in [
        vec!["verify", rec.to_str().unwrap()],
        vec!["show", "--record", rec.to_str().unwrap()],
    ] {
        let o = umpire_cmd(&dir, &args);
        assert!(o.status.success(), "{args:?}: {o:?}");
    }
    let other = tempfile::tempdir().unwrap();
    Umpire::init(other.path(), "umpire@other.test").unwrap();
    let o = umpire_cmd(other.path(), &["import", rec.to_str().unwrap()]);
    assert!(o.status.success(), "import: {o:?}");
}

/// A panic while handling any mail that holds `marker`, its message
/// quoting something no player may read.
fn panic_on(marker: &'static str) -> umpire::service::poll::Fault {
    std::sync::Arc::new(move |m: &umpire::mail::Incoming| {
        if m.raw.windows(marker.len()).any(|w| w == marker.as_bytes()) {
            panic!("injected fault: the hidden hand holds the queen of spades");
        }
    })
}

fn plain(from: &str, n: u64, headers: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: umpire@club.test\r\nSubject: hello\r\nMessage-ID: <f{n}@club.test>\r\nDate: Tue, 1 Dec 2026 10:00:00 +0000\r\n{headers}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
    .into_bytes()
}

impl Club {
    fn drop_raw(&mut self, raw: &[u8]) -> PollReport {
        self.n += 1;
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), raw)
            .unwrap();
        let r = self.umpire.poll(&mut self.maildir, now()).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
        r
    }

    fn internal_errors_to(&self, addr: &str) -> Vec<umpire::mail::mime::ReadMail> {
        self.mails_to(addr)
            .into_iter()
            .map(|(_, m)| m)
            .filter(|m| m.subject.contains("internal error"))
            .collect()
    }
}

// A panic anywhere in handling a mail: the poll goes on, the mail is kept
// for the admin and recorded as failed, nothing of it reaches a game, and
// the sender is told so, without a word of what went wrong.
#[test]
fn a_panic_in_a_poll_gets_the_player_an_answer_and_keeps_the_mail() {
    let mut c = Club::new();
    c.create("g1", "freeform", "open", &["red", "blue"]);
    // The move travels base64 in an attachment: its Message-ID marks it.
    c.umpire.inject_fault(Some(panic_on("<m90.red@club.test>")));
    let len = c.umpire.game("g1").unwrap().record().len();
    let (t, sig) = c.signed("g1", (0, "red"), &["advance"]);
    let raw = move_mail("red@club.test", "umpire@club.test", 90, &t, &sig, false);
    let r = c.drop_raw(&raw);
    assert_eq!((r.failed, r.accepted, r.replies), (1, 0, 1), "{r:?}");
    let told = c.internal_errors_to("red@club.test");
    assert_eq!(told.len(), 1, "red is answered once");
    let text = &told[0].text;
    assert!(text.contains("internal error"), "{text}");
    assert!(text.contains("admin has been told"), "{text}");
    assert!(text.contains("Nothing in it was carried out"), "{text}");
    assert!(
        !text.contains("queen"),
        "the fault's words stay with the admin: {text}"
    );
    assert!(
        c.mails_to("blue@club.test")
            .iter()
            .all(|(_, m)| !m.subject.contains("internal"))
    );
    // The mail is kept whole for the admin, its outcome in the ledger.
    let hash = umpire::core::hash::sha256(&raw).to_hex();
    let kept = c
        .umpire
        .store()
        .get(umpire::store::Table::Inbox, hash.as_bytes())
        .unwrap();
    assert_eq!(kept.as_deref(), Some(raw.as_slice()));
    let ledger = c
        .umpire
        .store()
        .get(umpire::store::Table::Ledger, format!("h:{hash}").as_bytes())
        .unwrap()
        .unwrap();
    let ledger = String::from_utf8_lossy(&ledger);
    assert!(ledger.contains("failed: internal error"), "{ledger}");
    // The move the panic interrupted changed nothing; the game goes on.
    assert_eq!(c.umpire.game("g1").unwrap().record().len(), len);
    c.umpire.inject_fault(None);
    let r = c.mail("g1", (0, "red"), &["advance"]);
    assert_eq!(r.accepted, 1, "{r:?}");
    let rec = c.umpire.export("g1", None).unwrap();
    assert_eq!(rec.matches("\"kind\":\"move\"").count(), 1, "{rec}");
}

// Who is told: a player every time; an address that plays in no game once
// a day; an automatic mail (a bounce, an auto-reply) never.
#[test]
fn a_failed_mail_is_answered_as_other_notes_are() {
    let mut c = Club::new();
    c.create("g1", "freeform", "open", &["red", "blue"]);
    c.umpire.inject_fault(Some(panic_on("crash-here")));
    for n in 1..=2 {
        let r = c.drop_raw(&plain("red@club.test", n, "", "crash-here"));
        assert_eq!((r.failed, r.replies), (1, 1), "player, mail {n}: {r:?}");
    }
    assert_eq!(c.internal_errors_to("red@club.test").len(), 2);
    for n in 3..=4 {
        let r = c.drop_raw(&plain("stranger@else.test", n, "", "crash-here"));
        assert_eq!(r.failed, 1, "{r:?}");
    }
    assert_eq!(c.internal_errors_to("stranger@else.test").len(), 1);
    let r = c.drop_raw(&plain(
        "blue@club.test",
        5,
        "Auto-Submitted: auto-replied\r\n",
        "crash-here",
    ));
    assert_eq!((r.failed, r.replies), (1, 0), "{r:?}");
    assert!(c.internal_errors_to("blue@club.test").is_empty());
}

fn new_game(id: &str) -> NewGame {
    NewGame {
        id: id.into(),
        ruleset: "freeform".into(),
        scenario: "open".into(),
        options: BTreeMap::new(),
        deadlines: None,
        time_zones: BTreeMap::new(),
        sides: common::declared(&["red", "blue"]),
    }
}

// A game's page lives in the folder named by its id, beside the site's own
// index.html: an id that is such a name is refused when the game is made or
// made public, and a game of an older umpire that has one gets no folder.
#[test]
fn game_ids_that_are_site_files_are_refused() {
    let mut c = Club::new();
    for id in ["index.html", "INDEX.HTML", "style.css"] {
        let e = c.umpire.create_game(new_game(id), now()).unwrap_err();
        assert!(
            e.to_string().contains("file of the public game pages"),
            "{id}: {e}"
        );
    }
    assert!(c.umpire.game_ids().unwrap().is_empty(), "nothing half made");
    c.create("index.htm0", "freeform", "open", &["red", "blue"]);
    c.umpire.set_public("index.htm0", true).unwrap();
}

/// Writes `meta`'s JSON for a game id the umpire no longer lets anyone make.
fn put_meta(c: &Club, id: &str, from: &str) {
    let store = c.umpire.store();
    let meta = store
        .get(umpire::store::Table::Games, from.as_bytes())
        .unwrap()
        .unwrap();
    let meta = String::from_utf8(meta)
        .unwrap()
        .replace(&format!("\"id\":\"{from}\""), &format!("\"id\":\"{id}\""));
    let mut b = umpire::store::Batch::new();
    b.put(umpire::store::Table::Games, id, meta.into_bytes());
    let record = store.record(from).unwrap();
    b.put_entries(id, record.entries());
    store.commit(b).unwrap();
}

// Whatever one public game does, the others' pages and the site's index are
// written: a game whose record fails to load, and one whose id is the
// index's own name, through `umpire site` and through a poll.
#[test]
fn a_game_that_fails_to_render_stops_no_other_page() {
    let mut c = Club::new();
    for id in ["good", "broken"] {
        c.create(id, "freeform", "open", &["red", "blue"]);
        c.umpire.set_public(id, true).unwrap();
    }
    let dir = c.dir();
    let site = dir.join("site");
    c.umpire.write_site(&site, now()).unwrap();
    assert!(site.join("broken/index.html").is_file());
    // `broken`'s stored record gains a stray entry; `index.html` is public.
    let mut b = umpire::store::Batch::new();
    b.put(
        umpire::store::Table::Entries,
        umpire::store::entry_key("broken", 1),
        b"{\"not\":\"an entry\"}".to_vec(),
    );
    c.umpire.store().commit(b).unwrap();
    put_meta(&c, "index.html", "good");
    drop(c.umpire);
    let o = umpire_cmd(&dir, &["site", "--out", site.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(
        err.contains("game broken: its page was not written"),
        "{err}"
    );
    assert!(
        err.contains("game index.html: its page was not written"),
        "{err}"
    );
    let index = std::fs::read_to_string(site.join("index.html")).expect("the index is a file");
    assert!(index.contains("good/index.html"), "{index}");
    assert!(
        index.contains("broken/index.html") && index.contains("could not be brought up to date"),
        "the last page of broken stays listed: {index}"
    );
    assert!(site.join("good/index.html").is_file());
    // Every poll rewrites the site: a move in `good` reaches its page.
    let toml = dir.join("umpire.toml");
    let mut conf = std::fs::read_to_string(&toml).unwrap();
    conf.push_str("\n[site]\nout = \"site\"\n");
    std::fs::write(&toml, conf).unwrap();
    let mut u = Umpire::open(&dir).unwrap();
    let head = u.game("good").unwrap().record().head();
    drop(u);
    let t = format!("game: good\nside: red\nafter: {head}\norders:\n  advance on the ford\n");
    let sig = key(1).sign(MOVE_NAMESPACE, t.as_bytes()).unwrap();
    let raw = move_mail("red@club.test", "umpire@club.test", 7, &t, &sig, false);
    let md = Maildir::open(&dir.join("maildir")).unwrap();
    md.deliver("0007.mail", &raw).unwrap();
    let o = umpire_cmd(&dir, &["poll"]);
    assert!(o.status.success(), "{o:?}");
    let page = std::fs::read_to_string(site.join("good/index.html")).unwrap();
    assert!(
        page.contains("advance on the ford"),
        "good's page is up to date"
    );
    assert!(site.join("index.html").is_file());
}
