//! Words a wargamer reads, through the Maildir pipeline, for each real game:
//! dice labels in words with their ids, the caret under the word at fault,
//! one head after a stale refusal, orders not carried out said at the top of
//! the result, and the opening map around the reader's forces and the
//! nearest enemy.

use umpire_testkit as common;

use common::{declared, key, move_mail, outbox};
use std::collections::{BTreeMap, BTreeSet};
use umpire::core::ruleset::{Side, Viewer, roll_title};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::mime::ReadMail;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

/// A club with one game of a ruleset, its Maildir and outbox.
struct Club {
    _tmp: tempfile::TempDir,
    u: Umpire,
    md: Maildir,
    ob: FileOutbox,
    outdir: std::path::PathBuf,
    sides: Vec<String>,
    n: u64,
    seen: BTreeSet<String>,
}

impl Club {
    fn new(ruleset: &str) -> Club {
        let info = umpire::games::find(ruleset).unwrap().info();
        let sc = &info.scenarios[0];
        let sides: Vec<String> = sc.sides.clone();
        let names: Vec<&str> = sides.iter().map(String::as_str).collect();
        let tmp = tempfile::tempdir().unwrap();
        Umpire::init(tmp.path(), "umpire@club.test").unwrap();
        let mut u = Umpire::open(tmp.path()).unwrap();
        u.create_game(
            NewGame {
                id: "g1".into(),
                ruleset: ruleset.into(),
                scenario: sc.name.clone(),
                options: BTreeMap::new(),
                deadlines: None,
                time_zones: BTreeMap::new(),
                sides: declared(&names),
            },
            now(),
        )
        .unwrap();
        let md = Maildir::open(&tmp.path().join("maildir")).unwrap();
        let outdir = tmp.path().join("outbox");
        let ob = FileOutbox::open(&outdir).unwrap();
        let mut c = Club {
            _tmp: tmp,
            u,
            md,
            ob,
            outdir,
            sides,
            n: 0,
            seen: BTreeSet::new(),
        };
        c.u.deliver(&mut c.ob, now()).unwrap();
        c
    }

    fn awaited(&mut self) -> Side {
        self.u.game("g1").unwrap().prompt().awaiting[0].side
    }

    fn head(&mut self) -> String {
        self.u.game("g1").unwrap().record().head().to_hex()
    }

    /// `side`'s move of `orders` after `after`, mailed and polled; the mails
    /// it brought, by file name.
    fn send(&mut self, side: Side, after: &str, orders: &str) -> BTreeMap<String, ReadMail> {
        let name = &self.sides[side.index()];
        let mut text = format!("game: g1\nside: {name}\nafter: {after}\norders:\n");
        for l in orders.lines() {
            text.push_str(&format!("  {l}\n"));
        }
        let sig = key(side.0 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        self.n += 1;
        let raw = move_mail(
            &format!("{name}@club.test"),
            "umpire@club.test",
            self.n,
            &text,
            &sig,
            false,
        );
        self.md.deliver(&format!("{:05}", self.n), &raw).unwrap();
        self.u.poll(&mut self.md, now()).unwrap();
        self.new_mails()
    }

    /// The mails delivered since the last look.
    fn new_mails(&mut self) -> BTreeMap<String, ReadMail> {
        self.u.deliver(&mut self.ob, now()).unwrap();
        let all = outbox(&self.outdir);
        let new: BTreeMap<_, _> = all
            .into_iter()
            .filter(|(k, _)| !self.seen.contains(k))
            .collect();
        self.seen.extend(new.keys().cloned());
        new
    }

    /// Plays the awaited side's `pick`th legal move (modulo their number);
    /// the mails it brought.
    fn play(&mut self, pick: usize) -> BTreeMap<String, ReadMail> {
        let side = self.awaited();
        let g = self.u.game("g1").unwrap();
        let legal = g.ruleset().legal_moves(g.state(), side);
        let head = self.head();
        self.send(side, &head, &legal[pick % legal.len()])
    }
}

/// A text with its line wrapping undone.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Plays `moves` moves of `ruleset`; each roll a side may see appears in its
/// result mail as the ruleset's words with the label; returns every title
/// seen whose words differ from the label.
fn dice_words(ruleset: &str, moves: usize) -> Vec<String> {
    let mut c = Club::new(ruleset);
    let mut worded = Vec::new();
    let mut rolls = 0;
    for step in 0..moves {
        let g = c.u.game("g1").unwrap();
        if g.prompt().finished.is_some() {
            break;
        }
        let mails = c.play(step * 7 + 1);
        let g = c.u.game("g1").unwrap();
        let (seq, report) = g.last_report();
        for (i, s) in c.sides.iter().enumerate() {
            let viewer = Viewer::Side(Side(i as u8));
            let Some(m) = mails
                .iter()
                .find(|(k, m)| k.contains(&format!(".{seq}.{s}")) && m.text.contains("== Dice"))
                .map(|(_, m)| m)
            else {
                continue;
            };
            let text = flat(&m.text);
            for r in report.rolls_for(viewer) {
                let title = roll_title(g.ruleset().as_ref(), &r.label);
                assert!(
                    text.contains(&flat(&title)),
                    "{ruleset}: roll {:?} not shown as {title:?}:\n{}",
                    r.label,
                    m.text
                );
                rolls += 1;
                if title != r.label {
                    assert!(title.ends_with(&format!("[{}]", r.label)));
                    worded.push(title);
                }
            }
        }
    }
    assert!(rolls > 0, "{ruleset}: no roll in {moves} moves");
    worded
}

#[test]
fn ldf_dice_read_in_words_with_their_ids() {
    let worded = dice_words("ldf", 40);
    assert!(
        worded.iter().any(|t| t.contains("turn 1 action")),
        "ldf: {worded:?}"
    );
}

#[test]
fn sarhu_dice_read_in_words_with_their_ids() {
    dice_words("sarhu", 40);
}

#[test]
fn ac_dice_read_in_words_with_their_ids() {
    dice_words("ac", 12);
}

#[test]
fn adp_dice_read_in_words_with_their_ids() {
    dice_words("adp", 12);
}
