//! Words a wargamer reads, through the Maildir pipeline, for each real game:
//! dice labels in words with their ids, the caret under the word at fault,
//! one head after a stale refusal, orders not carried out said at the top of
//! the result, and the opening map around the reader's forces and the
//! nearest enemy.

use umpire_testkit as common;

use common::{key, move_mail, outbox};
use std::collections::{BTreeMap, BTreeSet};
use umpire::core::ruleset::{Side, Viewer, roll_title};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::mime::ReadMail;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

/// A club with one game of a ruleset, its Maildir and outbox.
pub(crate) struct Club {
    _tmp: tempfile::TempDir,
    pub(crate) u: Umpire,
    md: Maildir,
    ob: FileOutbox,
    outdir: std::path::PathBuf,
    pub(crate) sides: Vec<String>,
    n: u64,
    seen: BTreeSet<String>,
}

impl Club {
    pub(crate) fn new(ruleset: &str) -> Club {
        let info = umpire::games::find(ruleset).unwrap().info();
        let sc = &info.scenarios[0];
        let sides: Vec<String> = sc.sides.clone();
        let names: Vec<&str> = sides.iter().map(String::as_str).collect();
        let tmp = tempfile::tempdir().unwrap();
        Umpire::init(tmp.path(), "umpire@club.test").unwrap();
        let mut u = Umpire::open(tmp.path()).unwrap();
        u.create_game(
            common::new_game("g1", ruleset, &sc.name, &names, &[]),
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
        c.new_mails();
        c
    }

    pub(crate) fn awaited(&mut self) -> Side {
        self.u.game("g1").unwrap().prompt().awaiting[0].side
    }

    pub(crate) fn head(&mut self) -> String {
        self.u.game("g1").unwrap().record().head().to_hex()
    }

    /// `side`'s move of `orders` after `after`, mailed and polled; the mails
    /// it brought, by file name.
    pub(crate) fn send(
        &mut self,
        side: Side,
        after: &str,
        orders: &str,
    ) -> BTreeMap<String, ReadMail> {
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

    /// Every mail delivered so far, by file name (right after `new`: the
    /// opening mails).
    pub(crate) fn all_mails(&self) -> BTreeMap<String, ReadMail> {
        outbox(&self.outdir)
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
pub(crate) fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Plays `moves` moves of `ruleset`; each roll a side may see appears in its
/// result mail as the ruleset's words with the label; returns every title
/// seen whose words differ from the label.
fn dice_words(ruleset: &str, moves: usize) -> Vec<String> {
    // Each club's umpire key shuffles afresh. In A Distant Plain's
    // Propaganda round the kit, always playing the first side the prompt
    // lists, keeps replacing that side's sealed plan (allowed until every
    // plan is in) and rolls nothing: a new club then, up to three times.
    for _ in 0..3 {
        let (rolls, worded) = dice_words_once(ruleset, moves);
        if rolls > 0 {
            return worded;
        }
    }
    panic!("{ruleset}: no roll in {moves} moves of three games");
}

/// [`dice_words`] in one game: the rolls checked and the worded titles.
fn dice_words_once(ruleset: &str, moves: usize) -> (usize, Vec<String>) {
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
    (rolls, worded)
}

#[test]
fn ldf_dice_read_in_words_with_their_ids() {
    let worded = dice_words("ldf", 40);
    assert!(
        worded
            .iter()
            .any(|t| t.contains("turn 1, ") && t.contains(" into the game")),
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

/// Every record head (64 hex digits) a text names, once each.
fn heads(text: &str) -> BTreeSet<String> {
    flat(text)
        .split(|c: char| !c.is_ascii_hexdigit())
        .filter(|w| w.len() == 64)
        .map(str::to_string)
        .collect()
}

/// A stale move's refusal names one head, the one to write against: the
/// record's head after the refusal (the reason the record keeps names the
/// head before it, and still does).
#[test]
fn a_stale_refusal_names_one_head_to_write_against() {
    let mut c = Club::new("sarhu");
    let old = c.head();
    c.play(0);
    c.play(0);
    let side = c.awaited();
    let g = c.u.game("g1").unwrap();
    let legal = g.ruleset().legal_moves(g.state(), side);
    // A comment makes it a new file, not a copy of the first move.
    let mails = c.send(side, &old, &format!("{}\n# written late", legal[0]));
    let refusal = mails
        .values()
        .find(|m| m.subject.contains("move refused"))
        .unwrap_or_else(|| {
            panic!(
                "a refusal: {:?}",
                mails.values().map(|m| &m.text).collect::<Vec<_>>()
            )
        });
    assert!(refusal.text.contains("stale"), "{}", refusal.text);
    let named = heads(&refusal.text);
    assert_eq!(named.len(), 1, "one head:\n{}", refusal.text);
    assert!(named.contains(&c.head()), "the head now:\n{}", refusal.text);
    assert!(
        refusal
            .text
            .contains("Write your next move against this record head"),
        "{}",
        refusal.text
    );
}

/// Orders past the end of the side's phase are not carried out, and the
/// result mail says so at its top: how many, why, which.
#[test]
fn orders_not_carried_out_are_told_at_the_top_of_the_result() {
    let mut c = Club::new("sarhu");
    // The Ming's first order makes the preparation roll (4.1); a second
    // action after the first meets a phase that is no longer theirs.
    let side = c.awaited();
    let g = c.u.game("g1").unwrap();
    let legal = g.ruleset().legal_moves(g.state(), side);
    let action = legal
        .iter()
        .find(|l| l.starts_with("move") && !l.ends_with("then"))
        .expect("a move")
        .clone();
    let head = c.head();
    let mails = c.send(side, &head, &format!("{action}\n{action}"));
    let name = &c.sides[side.index()];
    let m = mails
        .iter()
        .find(|(k, _)| k.ends_with(&format!(".{name}.eml")))
        .map(|(_, m)| m)
        .unwrap_or_else(|| panic!("the mover's result: {:?}", mails.keys()));
    let failed = m.text.matches("NOT CARRIED OUT").count();
    assert!(failed >= 2, "the note and the order:\n{}", m.text);
    let top: String = m.text.lines().take(4).collect::<Vec<_>>().join("\n");
    assert!(
        top.contains("ATTENTION:") && top.contains("of your") && top.contains("NOT CARRIED OUT"),
        "at the top:\n{}",
        m.text
    );
}

/// The opening map shows the reader's largest stack and the nearest enemy.
#[test]
fn the_opening_map_shows_the_nearest_enemy() {
    let mut c = Club::new("sarhu");
    let _ = &mut c;
    let all = outbox(&c.outdir);
    let opening = all
        .iter()
        .find(|(k, _)| k.ends_with(".0.ming.eml"))
        .map(|(_, m)| m)
        .expect("the Ming's opening");
    let map = opening
        .text
        .split("== The situation")
        .nth(1)
        .and_then(|t| t.split("Your forces:").next())
        .unwrap_or("");
    // The Jurchen commands' units: Nurhaci, Hong Taiji, Daisan, Manggultai.
    assert!(
        ["nh.", "ht.", "da.", "mg."].iter().any(|u| map.contains(u)),
        "an enemy in the opening snippet:\n{}",
        opening.text
    );
}

/// A refusal's caret stands under the word at fault when the error names
/// a word past the line's start: a legal order with a later word changed
/// to one no game knows.
fn caret_under_the_bad_word(ruleset: &str) {
    let mut c = Club::new(ruleset);
    let side = c.awaited();
    let g = c.u.game("g1").unwrap();
    let legal = g.ruleset().legal_moves(g.state(), side);
    let line = legal
        .iter()
        .flat_map(|m| m.lines())
        .find(|l| l.split_whitespace().count() >= 2)
        .expect("an order of two words or more")
        .to_string();
    let last = line.split_whitespace().last().unwrap();
    let bad = format!("{}zzqx9", &line[..line.rfind(last).unwrap()]);
    let head = c.head();
    let mails = c.send(side, &head, &bad);
    let refusal = mails
        .values()
        .find(|m| m.subject.contains("move refused"))
        .unwrap_or_else(|| panic!("{ruleset}: {bad:?} refused"));
    let lines: Vec<&str> = refusal.text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("line ") && l.trim_end().ends_with(bad.trim()))
        .unwrap_or_else(|| panic!("{ruleset}: the line quoted:\n{}", refusal.text));
    let caret = lines[at + 1].find('^').expect("a caret");
    assert_eq!(
        caret,
        lines[at].find("zzqx9").unwrap(),
        "{ruleset}: the caret under the bad word:\n{}",
        refusal.text
    );
}

#[test]
fn sarhu_caret_under_the_bad_word() {
    caret_under_the_bad_word("sarhu");
}

#[test]
fn ldf_caret_under_the_bad_word() {
    caret_under_the_bad_word("ldf");
}

#[test]
fn ac_caret_under_the_bad_word() {
    caret_under_the_bad_word("ac");
}

#[test]
fn adp_caret_under_the_bad_word() {
    caret_under_the_bad_word("adp");
}
