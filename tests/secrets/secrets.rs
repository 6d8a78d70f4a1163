//! Leaks of hidden information, each closed through the Maildir pipeline:
//! the public view (observers' mails, their `map.png`, the club's page) of
//! Asia Crossroads and Lest Darkness Fall; the last sealed line of a
//! simultaneous freeform move; the `accept` refusal that quoted the
//! proposer's treasury; public line numbers that counted hidden lines.

use umpire_testkit as common;

use common::{key, move_mail};
use umpire::core::audit::audit;
use umpire::core::game::{Game, ReplayMode, Verdict};
use umpire::core::record::{Body, FORMAT_HIDDEN_SOURCE_LINES, Record};
use umpire::core::ruleset::{Side, Viewer};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;

const WATCHER: &str = "watcher@club.test";

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

/// A club with one public game `g1`, watched by an observer.
struct Club {
    sides: Vec<&'static str>,
    tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    n: u64,
}

/// One delivered mail: recipient, text, the bytes of `map.png`, and
/// everything it carries as text (subject, body, attachments).
struct Got {
    file: String,
    to: String,
    text: String,
    png: Option<Vec<u8>>,
    all: String,
}

impl Club {
    fn new(
        ruleset: &str,
        scenario: &str,
        sides: &[&'static str],
        options: &[(&str, &str)],
    ) -> Club {
        let tmp = tempfile::tempdir().unwrap();
        let mut umpire = common::umpire_with_game(
            tmp.path(),
            common::new_game("g1", ruleset, scenario, sides, options),
            now(),
        );
        umpire.set_public("g1", true).unwrap();
        umpire.observe("g1", WATCHER, false).unwrap();
        let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
        let mut outbox = FileOutbox::open(&tmp.path().join("outbox")).unwrap();
        umpire.deliver(&mut outbox, now()).unwrap();
        Club {
            sides: sides.to_vec(),
            tmp,
            umpire,
            maildir,
            outbox,
            n: 0,
        }
    }

    fn game(&mut self) -> &Game {
        self.umpire.game("g1").unwrap()
    }

    /// Signs and mails `orders` from `side`, polls and delivers.
    fn send(&mut self, side: usize, orders: &[&str]) {
        let head = self.game().record().head();
        let mut text = format!(
            "game: g1\nside: {}\nafter: {head}\norders:\n",
            self.sides[side]
        );
        for o in orders {
            text.push_str(&format!("  {o}\n"));
        }
        let sig = key(side as u8 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        self.n += 1;
        let raw = move_mail(
            &format!("{}@club.test", self.sides[side]),
            "umpire@club.test",
            self.n,
            &text,
            &sig,
            false,
        );
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), &raw)
            .unwrap();
        self.umpire.poll(&mut self.maildir, now()).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
    }

    /// Each awaited side in turn sends the first order its legal list
    /// offers, until `done` holds of the game (at most `max` moves).
    fn drive(&mut self, max: usize, done: impl Fn(&Game) -> bool) {
        for _ in 0..max {
            if done(self.game()) {
                return;
            }
            let g = self.game();
            let side = g.waiting().next().expect("someone is awaited").side;
            let first = g.ruleset().legal_moves(g.state(), side)[0].clone();
            self.send(side.index(), &[&first]);
        }
        panic!("not reached in {max} moves: {}", self.game().prompt().stage);
    }

    /// Every mail delivered so far to an address starting with `to`.
    fn mails_to(&self, to: &str) -> Vec<Got> {
        let mut out = Vec::new();
        let dir = self.tmp.path().join("outbox");
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .collect();
        names.sort();
        for p in names {
            let raw = std::fs::read(&p).unwrap();
            let head = String::from_utf8_lossy(&raw);
            let rcpt = head
                .lines()
                .find_map(|l| l.strip_prefix("To: "))
                .unwrap_or_default()
                .trim()
                .to_string();
            if !rcpt.starts_with(to) {
                continue;
            }
            let m = umpire::mail::mime::read(&raw).unwrap();
            let png = m
                .attachments
                .iter()
                .find(|a| a.name == "map.png")
                .map(|a| a.bytes.clone());
            let mut all = format!("{}\n{}\n", m.subject, m.text);
            for a in m.attachments.iter().filter(|a| a.name != "map.png") {
                all.push_str(&String::from_utf8_lossy(&a.bytes));
            }
            out.push(Got {
                file: p.file_name().unwrap().to_string_lossy().into_owned(),
                to: rcpt,
                text: m.text,
                png,
                all,
            });
        }
        out
    }

    /// The club's page of `g1`, written now.
    fn page(&mut self) -> String {
        let out = self.tmp.path().join("site");
        self.umpire.write_site(&out, now()).unwrap();
        std::fs::read_to_string(out.join("g1/index.html")).unwrap()
    }
}

/// `text` holds none of `secrets`; names the first it holds.
fn holds_none(what: &str, text: &str, secrets: &[String]) {
    for s in secrets {
        assert!(
            !text.contains(s.as_str()),
            "{what} shows the secret {s:?}:\n{}",
            text.lines()
                .filter(|l| l.contains(s.as_str()))
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

/// The status lines one side's view holds and another side's does not:
/// what that side alone may see now (but a stack's presence under fog, which
/// both see, one as contents and the other as "a stack (side)").
fn own_lines(g: &Game) -> Vec<String> {
    let views: Vec<Vec<String>> = (0..g.sides().len())
        .map(|i| {
            g.ruleset()
                .view(g.state(), Viewer::Side(Side(i as u8)))
                .status
        })
        .collect();
    let mut out = Vec::new();
    for (i, mine) in views.iter().enumerate() {
        for (j, theirs) in views.iter().enumerate() {
            if i != j {
                out.extend(
                    mine.iter()
                        .filter(|l| !theirs.contains(l) && l.trim().len() > 4)
                        .filter(|l| !l.contains(": a stack (") && !l.contains("agent flag ("))
                        .cloned(),
                );
            }
        }
    }
    out
}

// 9.0, 17.1, 22.1: the public page and the observers' mails of an Asia
// Crossroads game show neither treasury, supply or victory points nor the
// contents of a stack no player may examine; their map.png is not the
// umpire's picture.
#[test]
fn asia_crossroads_observers_and_page_see_no_side_s_secrets() {
    let mut c = Club::new("ac", "s1", &["british", "russian"], &[("setup", "printed")]);
    c.drive(12, |g| g.prompt().stage.contains("operations"));
    let g = c.game();
    let mut secrets = own_lines(g);
    assert!(
        secrets.iter().any(|l| l.contains("pounds")),
        "each side sees its treasury: {secrets:?}"
    );
    // Units standing where some player may not examine them (22.1).
    let d = umpire::games::ac::Ac::new();
    let st = g
        .state()
        .downcast_ref::<umpire::games::ac::State>()
        .unwrap();
    let tokens = |v: Viewer| -> Vec<String> {
        umpire::games::ac::view::stacks(d.data(), st, v)
            .iter()
            .flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .filter(|t| t.contains('(') && t.ends_with(')') && !t.starts_with('('))
            .collect()
    };
    let (british, russian) = (tokens(Viewer::Side(Side(0))), tokens(Viewer::Side(Side(1))));
    let fogged: Vec<String> = tokens(Viewer::Umpire)
        .into_iter()
        .filter(|t| !british.contains(t) || !russian.contains(t))
        .map(|t| format!("{}(", t.split('(').next().unwrap()))
        .collect();
    assert!(!fogged.is_empty(), "some stack is under fog");
    secrets.extend(fogged);
    let seq = g.last_report().0;
    let umpire_png = umpire::service::picture::png(g, seq, Viewer::Umpire)
        .unwrap()
        .unwrap();
    let seen = c.mails_to(WATCHER);
    assert!(!seen.is_empty(), "the observer is mailed");
    for m in &seen {
        holds_none(&format!("a mail to {}", m.to), &m.all, &secrets);
    }
    let last = seen.last().unwrap();
    assert_ne!(
        last.png.as_deref(),
        Some(umpire_png.as_slice()),
        "the observer's map.png is not the umpire's"
    );
    holds_none("the game's page", &c.page(), &secrets);
}

// 10.9: in Lest Darkness Fall nothing is hidden but the chit hands; the
// public sees how many chits each player holds, never which.
#[test]
fn lest_darkness_fall_observers_and_page_see_no_hand() {
    let mut c = Club::new("ldf", "campaign", &["roman", "gp"], &[]);
    c.drive(3, |g| g.last_report().0 > 2);
    let g = c.game();
    let secrets = own_lines(g);
    assert!(
        secrets.iter().any(|l| l.contains("hand:")),
        "each side sees its hand: {secrets:?}"
    );
    let seen = c.mails_to(WATCHER);
    assert!(!seen.is_empty(), "the observer is mailed");
    for m in &seen {
        holds_none(&format!("a mail to {}", m.to), &m.all, &secrets);
        assert!(
            m.text.contains("Chits: the Roman holds"),
            "the counts are public"
        );
    }
    holds_none("the game's page", &c.page(), &secrets);
}

// A simultaneous freeform move whose last line is hidden: that line stays
// sealed for the other sides, the observers and the page, and the record
// verifies. (Versions 1 and 2 appended an `end turn` carrying the last line
// into the public round entry; their records still verify.)
#[test]
fn a_simultaneous_move_ending_on_a_hidden_line_leaks_nothing() {
    let mut c = Club::new(
        "freeform",
        "open",
        &["red", "blue", "green"],
        &[("order", "simultaneous")],
    );
    let secret = "the 3rd brigade slips into the wood at 0714".to_string();
    c.send(0, &["roll 2d6 scouting", &format!("hidden {secret}")]);
    c.send(1, &["hold the ridge"]);
    c.send(2, &["roll secret 1d6 spotting the ford"]);
    assert!(
        c.game().prompt().stage.contains("turn 2"),
        "the round resolved"
    );
    for to in ["blue", "green", WATCHER] {
        for m in c.mails_to(to) {
            holds_none(
                &format!("a mail to {}", m.to),
                &m.all,
                std::slice::from_ref(&secret),
            );
            if !to.starts_with("green") {
                holds_none(
                    &format!("a mail to {}", m.to),
                    &m.all,
                    &["spotting the ford".to_string()],
                );
            }
        }
    }
    let red = c.mails_to("red");
    assert!(
        red.iter().any(|m| m.all.contains(&secret)),
        "red reads its own"
    );
    assert!(
        red.last()
            .unwrap()
            .text
            .contains("red's orders for the turn are done"),
        "the end of the move is reported"
    );
    holds_none("the game's page", &c.page(), std::slice::from_ref(&secret));
    let full = Record::from_text(&c.umpire.export("g1", None).unwrap()).unwrap();
    Game::replay(
        umpire::games::find("freeform").unwrap(),
        &full,
        ReplayMode::Verify,
    )
    .unwrap();
}

// A secret roll is rolled as behind a screen: the record holds one sealed
// item per die, so the others are told how many dice were rolled ("+3 hidden
// from you"), and never the faces, the die's size or the label.
#[test]
fn a_secret_roll_tells_the_others_how_many_dice_and_nothing_more() {
    let mut c = Club::new("freeform", "open", &["red", "blue"], &[("secrets", "on")]);
    c.send(0, &["roll secret 3d8 spotting the ford"]);
    let red = c.mails_to("red");
    let own = &red.last().unwrap().text;
    assert!(
        own.contains("Your secret roll 3d8 for spotting the ford:"),
        "{own}"
    );
    for to in ["blue", WATCHER] {
        let seen = c.mails_to(to);
        let last = &seen.last().expect("mailed").text;
        assert!(
            last.contains("(+3 hidden from you: sealed in the record until the end)"),
            "{last}"
        );
        for m in &seen {
            holds_none(
                &format!("a mail to {}", m.to),
                &m.all,
                &["spotting the ford".to_string(), "roll 3d8".to_string()],
            );
        }
    }
    holds_none(
        "the game's page",
        &c.page(),
        &["spotting the ford".to_string(), "roll 3d8".to_string()],
    );
}

/// A simultaneous move of `a` ending on a hidden line, and `b`'s, under
/// `version`: the round's public lines as every copy holds them.
fn round_lines(version: u32) -> (Vec<String>, Record) {
    use umpire::core::ruleset::DynRuleset;
    let rs = umpire::games::freeform::Freeform::new()
        .at_version(version)
        .unwrap();
    let mut t = common::table_with(
        rs,
        "freeform",
        "open",
        &["a", "b"],
        &[("order", "simultaneous")],
    );
    t.play(0, &["advance", "hidden slip away"]);
    t.play(1, &["hold"]);
    let lines = t
        .game
        .record()
        .entries()
        .iter()
        .filter_map(|e| match &e.body {
            Body::Round(r) => Some(r.lines.concat()),
            _ => None,
        })
        .flatten()
        .map(|l| l.text)
        .collect();
    (
        lines,
        Record::from_text(&t.game.record().to_text()).unwrap(),
    )
}

#[test]
fn old_simultaneous_records_keep_verifying_and_the_new_keep_the_line_sealed() {
    let (old, record) = round_lines(2);
    assert!(
        old.iter().any(|l| l.contains("slip away")),
        "version 2 published it: {old:?}"
    );
    let today = umpire::games::find("freeform").unwrap();
    Game::replay(today, &record, ReplayMode::Verify).unwrap();
    let (new, _) = round_lines(umpire::games::freeform::Freeform::VERSION);
    assert_eq!(new, vec!["advance".to_string(), "hold".to_string()]);
}

/// The public lines of the first move of side `a` whose first three lines
/// are hidden, as side `b`'s copy holds them, in a record of `format`.
fn public_numbers(format: u32) -> Vec<(usize, String)> {
    let mut t = common::table_format(
        umpire::games::find("freeform").unwrap(),
        "freeform",
        "open",
        &["a", "b"],
        &[("secrets", "on")],
        format,
    );
    let v = t.play(
        0,
        &[
            "hidden the guard to the bridge",
            "hidden the horse to the ford",
            "hidden the guns to the hill",
            "roll 2d6 artillery",
            "end turn",
        ],
    );
    assert!(matches!(v, Verdict::Accepted { .. }), "{v:?}");
    let copy = t.game.record().copy_for(Some("b"));
    audit(&copy).expect("the copy audits: its public rolls' seed is its lines");
    let full = Record::from_text(&t.game.record().to_text()).unwrap();
    Game::replay(t.shared(), &full, ReplayMode::Verify).unwrap();
    copy.entries()
        .iter()
        .find_map(|e| match &e.body {
            Body::Move(m) => Some(m.lines.iter().map(|l| (l.line, l.text.clone())).collect()),
            _ => None,
        })
        .unwrap()
}

// A public line numbered by its place in the move file told how many hidden
// lines stood before it; it is numbered among the public lines alone, and
// the public rolls' seed and the audit of a copy use the same numbers.
// Records of format 2 keep their numbers and still verify.
#[test]
fn public_lines_are_numbered_among_public_lines() {
    assert_eq!(
        public_numbers(umpire::core::record::FORMAT_HIDDEN),
        vec![(1, "roll 2d6 artillery".into()), (2, "end turn".into())]
    );
    assert_eq!(
        public_numbers(FORMAT_HIDDEN_SOURCE_LINES),
        vec![(8, "roll 2d6 artillery".into()), (9, "end turn".into())],
        "format 2: the lines of the move file (four of heading, three hidden)"
    );
}

// The same through the mail: the record part blue gets numbers red's public
// lines among themselves.
#[test]
fn a_copy_by_mail_numbers_public_lines_among_themselves() {
    let mut c = Club::new("freeform", "open", &["red", "blue"], &[("secrets", "on")]);
    c.send(
        0,
        &[
            "hidden the guard to the bridge",
            "hidden the horse to the ford",
            "advance on the ridge",
            "end turn",
        ],
    );
    let blue = c.mails_to("blue");
    let last = &blue.last().unwrap().all;
    assert!(
        last.contains(
            r#""lines":[{"line":1,"text":"advance on the ridge"},{"line":2,"text":"end turn"}]"#
        ),
        "{last}"
    );
}

// 23.1, 9.0: `accept N` of an offer whose proposer cannot pay is not refused
// with the proposer's treasury in the refusal: the accepting side's mails name
// no figure of the other's, and the agreement fails in the record.
#[test]
fn accepting_an_unpayable_offer_by_mail_tells_no_treasury() {
    let mut c = Club::new("ac", "s1", &["british", "russian"], &[("setup", "printed")]);
    let ops = |side: &'static str| {
        move |g: &Game| {
            g.waiting()
                .next()
                .is_some_and(|a| a.side == g.side(side).unwrap())
                && g.prompt().stage.contains("operations")
        }
    };
    c.drive(20, ops("russian"));
    c.send(1, &["propose give 99999", "end"]);
    c.drive(20, ops("british"));
    let before: Vec<String> = c.mails_to("british").into_iter().map(|m| m.file).collect();
    c.send(0, &["accept 1"]);
    let told: String = c
        .mails_to("british")
        .into_iter()
        .filter(|m| !before.contains(&m.file))
        .map(|m| m.text)
        .collect();
    assert!(!told.contains("treasury holds"), "{told}");
    assert!(told.contains("fails"), "{told}");
    assert!(c.game().state().to_json().is_ok());
}

// `show --record` and `map` need a full record: a side's copy of a running
// hidden game is refused by name; `check` against it checks the signature and
// the link and says the orders wait for the umpire. None shows what it seals.
#[test]
fn offline_tools_refuse_a_side_s_copy_and_show_nothing_sealed() {
    let mut t = common::table("freeform", "open", &["a", "b"], &[("secrets", "on")]);
    t.play(0, &["hidden the guard to the bridge", "end turn"]);
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy.txt");
    std::fs::write(&copy, t.game.record().copy_for(Some("b")).to_text()).unwrap();
    let mv = dir.path().join("move.txt");
    std::fs::write(&mv, t.move_text("b", &["advance", "end turn"])).unwrap();
    let runs: [&[&str]; 3] = [
        &["show", "--record", copy.to_str().unwrap()],
        &["check", mv.to_str().unwrap(), "-r", copy.to_str().unwrap()],
        &["map", copy.to_str().unwrap(), "-o", "m.svg"],
    ];
    for args in runs {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        let (code, told) = match args[0] {
            "check" => (0, &out),
            _ => (1, &err),
        };
        assert_eq!(o.status.code(), Some(code), "{args:?}: {out}{err}");
        assert!(told.contains("side's copy"), "{args:?}: {out}{err}");
        assert!(!format!("{out}{err}").contains("guard"), "{args:?}");
    }
}

// `umpire show` and `umpire map` without a side draw the public view; a side's
// with `--side`; everything only with `--umpire`, for the admin's eyes.
#[test]
fn show_and_map_draw_the_public_view_unless_told_otherwise() {
    let mut c = Club::new("ldf", "campaign", &["roman", "gp"], &[]);
    let dir = c.tmp.path().to_path_buf();
    drop(c.umpire);
    let run = |args: &[&str]| -> String {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
            .arg("--dir")
            .arg(&dir)
            .args(args)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let public = run(&["show", "g1", "--full"]);
    assert!(
        public.contains("Chits: the Roman holds") && !public.contains("hand:"),
        "{public}"
    );
    assert!(!run(&["show", "g1"]).contains("hand:"));
    let roman = run(&["show", "g1", "--side", "roman"]);
    assert!(
        roman.contains("Roman hand:") && !roman.contains("Germano-Parthian hand:"),
        "{roman}"
    );
    let umpire = run(&["show", "g1", "--umpire"]);
    assert!(
        umpire.contains("Roman hand:") && umpire.contains("Germano-Parthian hand:"),
        "{umpire}"
    );
    for (flag, name) in [(None, "public.svg"), (Some("--umpire"), "umpire.svg")] {
        let out = dir.join(name);
        let mut args = vec!["map", "g1", "-o", out.to_str().unwrap()];
        args.extend(flag);
        run(&args);
        assert!(std::fs::read_to_string(&out).unwrap().starts_with("<svg"));
    }
    c.umpire = Umpire::open(&dir).unwrap();
}
