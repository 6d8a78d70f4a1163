//! A whole game of Asia Crossroads (scenario 1) through the mail pipeline:
//! each side's orders are picked among the legal ones, written as move files,
//! signed, mailed into the Maildir and polled; the replies land in the file
//! outbox. The income and expenditure phase is the engine's sealed round
//! (3.1[3]). The game must end with the victory mail to both sides (25.0);
//! no mail to a side, nor the record copy it carries, may show what the other
//! side hides: its treasury, supply points and victory points (9.0, 17.1),
//! its sealed economy orders (3.1[3]) and the contents of stacks the side may
//! not examine (22.1); the full record and each side's copy pass `umpire verify`.

use umpire_testkit as common;

use common::{key, move_mail, outbox};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;
use umpire::core::audit::audit;
use umpire::core::record::Record;
use umpire::core::ruleset::{AwaitKind, Side, Viewer};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::games::ac::data::Power;
use umpire::games::ac::{Ac, State, view};
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;

const SIDES: [&str; 2] = ["british", "russian"];

fn verify(path: &std::path::Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("verify")
        .arg(path)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// What `owner` hides from `viewer` now: the status lines only the owner is
/// shown (treasury, SP, victory points, home base, sealed plans) and the
/// `piece(side)` tokens of stacks the viewer may not examine (22.1).
fn hidden_from(ac: &Ac, st: &State, owner: Power, viewer: Power) -> (Vec<String>, Vec<String>) {
    let d = ac.data();
    let seen: BTreeSet<String> = view::view(d, st, view::of(viewer))
        .status
        .into_iter()
        .collect();
    let lines = view::view(d, st, view::of(owner))
        .status
        .into_iter()
        .filter(|l| !seen.contains(l) && l.starts_with(owner.name()))
        .collect();
    let tokens = |v: Viewer| -> BTreeSet<String> {
        view::stacks(d, st, v)
            .iter()
            .flat_map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .filter(|t| t.ends_with(')') && t.contains('(') && !t.starts_with('('))
            .collect()
    };
    let visible = tokens(view::of(viewer));
    let pieces = tokens(Viewer::Umpire)
        .into_iter()
        .filter(|t| !visible.contains(t) && !t.contains(&format!("({})", viewer.name())))
        .collect();
    (lines, pieces)
}

/// The last base64 line of an armored signature: the signature's own bytes
/// (the first lines are the key and namespace, the same in every mail of a
/// side). It appears in whatever holds the signature, escaped or not.
fn sig_mark(sig: &str) -> String {
    let body: Vec<&str> = sig
        .lines()
        .filter(|l| !l.starts_with("-----") && l.len() >= 20)
        .collect();
    body[body.len() - 1].to_string()
}

#[test]
fn scenario_1_by_mail_ends_in_victory_and_no_mail_shows_the_other_sides_secrets() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("club");
    Umpire::init(&dir, "umpire@club.test").unwrap();
    let mut u = Umpire::open(&dir).unwrap();
    let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    u.create_game(common::new_game("ac-1", "ac", "s1", &SIDES, &[]), now)
        .unwrap();
    let ac = Ac::new();
    let mut md = Maildir::open(&dir.join("maildir")).unwrap();
    let outdir = dir.join("outbox");
    let mut ob = FileOutbox::open(&outdir).unwrap();
    u.deliver(&mut ob, now).unwrap();
    let mut rng = ChaCha20Rng::from_seed([31; 32]);
    // Each mail checked, with the side it went to.
    let mut checked: BTreeMap<String, Option<Power>> = BTreeMap::new();
    // Signature marks of each side's sealed economy mails.
    let mut sealed: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let (mut n, mut rounds, mut hidden_checks) = (0u64, 0u32, 0u64);
    // Mails whose record copy holds their own side's sealed mail: the marks
    // do find a signature where one is.
    let mut own_marks = 0u32;
    loop {
        let g = u.game("ac-1").unwrap();
        if g.prompt().finished.is_some() {
            break;
        }
        assert!(n < 3000, "the game did not end");
        let waiting: Vec<_> = g.waiting().cloned().collect();
        assert!(
            !waiting.is_empty(),
            "nobody to move at {}",
            g.prompt().stage
        );
        let aw = &waiting[(rng.next_u32() as usize) % waiting.len()];
        let side: Side = aw.side;
        let name = SIDES[side.index()];
        let legal = g.ruleset().legal_moves(g.state(), side);
        assert!(
            !legal.is_empty(),
            "{name} is asked to act but has no legal order"
        );
        let pick = legal[(rng.next_u32() as usize) % legal.len()].clone();
        let orders: String = pick.lines().map(|l| format!("  {l}\n")).collect();
        let text = format!(
            "game: ac-1\nside: {name}\nafter: {}\norders:\n{orders}",
            g.record().head()
        );
        let sig = key(side.0 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        if aw.kind == AwaitKind::SealedOrders {
            sealed[side.index()].push(sig_mark(&sig));
            rounds += u32::from(side.0 == 0);
        }
        n += 1;
        let mail = move_mail(
            &format!("{name}@club.test"),
            "umpire@club.test",
            n,
            &text,
            &sig,
            n.is_multiple_of(3),
        );
        md.deliver(&format!("{n:05}"), &mail).unwrap();
        let r = u.poll(&mut md, now).unwrap();
        assert_eq!(
            r.accepted, 1,
            "move {n} by {name} was not accepted:\n{text}"
        );
        u.deliver(&mut ob, now).unwrap();
        // The mails this move caused, checked against what each side hides now.
        let g = u.game("ac-1").unwrap();
        let st = g.state().downcast_ref::<State>().unwrap().clone();
        for (file, m) in outbox(&outdir) {
            if checked.contains_key(&file) {
                continue;
            }
            let raw =
                String::from_utf8_lossy(&std::fs::read(outdir.join(&file)).unwrap()).into_owned();
            let to = raw
                .lines()
                .find_map(|l| l.strip_prefix("To: "))
                .unwrap_or_default()
                .to_string();
            let viewer = Power::ALL
                .into_iter()
                .find(|p| to.starts_with(SIDES[p.index()]));
            checked.insert(file.clone(), viewer);
            let Some(viewer) = viewer else { continue };
            if m.text.contains("== GAME OVER ==") {
                continue;
            }
            let owner = viewer.other();
            let mut all = format!("{}\n{}\n", m.subject, m.text);
            for a in &m.attachments {
                all.push_str(&String::from_utf8_lossy(&a.bytes));
            }
            let (lines, pieces) = hidden_from(&ac, &st, owner, viewer);
            for l in &lines {
                assert!(
                    !m.text.lines().any(|x| x.trim() == l.trim()),
                    "{file} to the {} shows the {}' {l:?}",
                    viewer.name(),
                    owner.name()
                );
            }
            for p in &pieces {
                assert!(
                    !all.contains(p.as_str()),
                    "{file} to the {} shows {p}, in a stack it may not examine (22.1):\n{}",
                    viewer.name(),
                    m.text
                );
            }
            for mark in &sealed[owner.index()] {
                if all.contains(mark.as_str()) {
                    let _ = std::fs::write(
                        concat!(env!("CARGO_MANIFEST_DIR"), "/target/ac_mail_leak.txt"),
                        format!("{mark}\n----\n{all}"),
                    );
                }
                assert!(
                    !all.contains(mark.as_str()),
                    "{file} to the {} holds a sealed economy mail of the {} (3.1[3])",
                    viewer.name(),
                    owner.name()
                );
            }
            own_marks += sealed[viewer.index()]
                .iter()
                .filter(|m| all.contains(m.as_str()))
                .count() as u32;
            hidden_checks += (lines.len() + pieces.len()) as u64;
        }
    }
    assert!(
        rounds >= 4,
        "the sealed economy ran each turn: {rounds} rounds"
    );
    assert!(own_marks > 0, "no side's copy held its own sealed mail");
    assert!(
        hidden_checks > 100,
        "the test checked hidden items: {hidden_checks}"
    );
    let g = u.game("ac-1").unwrap();
    let outcome = g.prompt().finished.clone().unwrap();
    assert!(outcome.summary.contains("(25.52)"), "{}", outcome.summary);
    let mails = outbox(&outdir);
    let over: Vec<_> = mails
        .values()
        .filter(|m| m.text.contains("== GAME OVER =="))
        .collect();
    assert_eq!(over.len(), 2, "one victory mail per side");
    // Each side's last record copy before the end audits on its own.
    let mut latest: BTreeMap<Power, (usize, String)> = BTreeMap::new();
    for (file, m) in &mails {
        let Some(r) = m.attachments.iter().find(|p| p.name == "record.txt") else {
            continue;
        };
        if m.text.contains("== GAME OVER ==") {
            continue;
        }
        let text = String::from_utf8(r.bytes.clone()).unwrap();
        let len = Record::from_text(&text).unwrap().len();
        let Some(Some(to)) = checked.get(file) else {
            continue;
        };
        let e = latest.entry(*to).or_insert((0, String::new()));
        if len >= e.0 {
            *e = (len, text);
        }
    }
    assert_eq!(latest.len(), 2, "each side got record copies");
    for (_, text) in latest.values() {
        let r = Record::from_text(text).unwrap();
        audit(&r).unwrap_or_else(|e| panic!("a side's copy does not audit: {e}"));
    }
    // The full record, and each side's copy, verify.
    let full = u.export("ac-1", None).unwrap();
    let rec = tmp.path().join("ac-1.txt");
    std::fs::write(&rec, &full).unwrap();
    let out = verify(&rec);
    assert!(
        out.contains("record verified") && out.contains("game over"),
        "{out}"
    );
    let record = Record::from_text(&full).unwrap();
    for side in SIDES {
        let text = u.export("ac-1", Some(side)).unwrap();
        let copy = Record::from_text(&text).unwrap();
        assert_eq!(copy.head(), record.head(), "{side}'s copy shares the head");
        let p = tmp.path().join(format!("ac-1-{side}.txt"));
        std::fs::write(&p, text).unwrap();
        verify(&p);
    }
    eprintln!(
        "{n} signed moves by mail, {rounds} sealed economy rounds, {hidden_checks} hidden items checked; {}",
        outcome.summary
    );
}

/// The first `place UNIT at SQUARE` sample of `p` that moves a combat unit
/// (not an agent, not a marker), with the unit's id and the square.
fn unit_placement(ac: &Ac, st: &State, p: Power) -> (String, String, String) {
    use umpire::core::ruleset::Ruleset;
    let legal = ac.legal_moves(st, Side(p.index() as u8));
    legal
        .iter()
        .find_map(|l| {
            let rest = l.strip_prefix("place ")?;
            let (id, sq) = rest.split_once(" at ")?;
            (st.find_unit(id).is_some() && !id.contains(' ') && !rest.contains(" from "))
                .then(|| (l.clone(), id.to_string(), sq.to_string()))
        })
        .unwrap_or_else(|| panic!("no unit placement for the {} in {legal:?}", p.name()))
}

#[test]
fn sealed_set_up_by_mail_shows_neither_side_the_others_set_up_before_both_are_in() {
    // Option setup=sealed (the digest's house option, 2.4): both set-ups in
    // one sealed round of the engine (26.0). Scenario 1: the Russians set up
    // first in the printed order, so the British mail the sealed round first
    // here, and the Russians' mails are checked while the British one is in.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("club");
    Umpire::init(&dir, "umpire@club.test").unwrap();
    let mut u = Umpire::open(&dir).unwrap();
    let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    u.create_game(
        common::new_game("ac-s", "ac", "s1", &SIDES, &[("setup", "sealed")]),
        now,
    )
    .unwrap();
    let ac = Ac::new();
    let mut md = Maildir::open(&dir.join("maildir")).unwrap();
    let outdir = dir.join("outbox");
    let mut ob = FileOutbox::open(&outdir).unwrap();
    u.deliver(&mut ob, now).unwrap();
    let g = u.game("ac-s").unwrap();
    let waiting: Vec<_> = g.waiting().cloned().collect();
    assert_eq!(waiting.len(), 2, "both setters are asked at once");
    assert!(waiting.iter().all(|a| a.kind == AwaitKind::SealedOrders));
    let st0 = g.state().downcast_ref::<State>().unwrap().clone();
    // What each side places, and how it would show: the order line, the
    // setter's own event, and the status token of the piece on its square.
    let plans: Vec<(String, String, String)> = Power::ALL
        .iter()
        .map(|p| unit_placement(&ac, &st0, *p))
        .collect();
    let secrets = |p: Power| -> Vec<String> {
        let (line, id, sq) = &plans[p.index()];
        vec![
            line.clone(),
            format!("Set up {id} on {sq}"),
            format!("{id}@{sq}"),
        ]
    };
    let mut seen: BTreeSet<String> = outbox(&outdir).into_keys().collect();
    let mut marks: [String; 2] = Default::default();
    for (n, p) in [Power::British, Power::Russian].into_iter().enumerate() {
        let name = SIDES[p.index()];
        let g = u.game("ac-s").unwrap();
        let text = format!(
            "game: ac-s\nside: {name}\nafter: {}\norders:\n  {}\n",
            g.record().head(),
            plans[p.index()].0
        );
        let sig = key(p.index() as u8 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        marks[p.index()] = sig_mark(&sig);
        let n = n as u64 + 1;
        let mail = move_mail(
            &format!("{name}@club.test"),
            "umpire@club.test",
            n,
            &text,
            &sig,
            false,
        );
        md.deliver(&format!("{n:05}"), &mail).unwrap();
        assert_eq!(u.poll(&mut md, now).unwrap().accepted, 1, "{name}'s set-up");
        u.deliver(&mut ob, now).unwrap();
        let st = u
            .game("ac-s")
            .unwrap()
            .state()
            .downcast_ref::<State>()
            .unwrap()
            .clone();
        let (_, id, sq) = &plans[p.index()];
        let at = st
            .unit(st.find_unit(id).unwrap())
            .loc
            .sq()
            .map(|s| s.to_string());
        if p == Power::British {
            // Only the British are in: the state has not moved yet.
            assert_ne!(at.as_deref(), Some(sq.as_str()), "sealed until both are in");
        } else {
            // Both are in: both set-ups are carried out and the game goes on.
            assert_eq!(
                at.as_deref(),
                Some(sq.as_str()),
                "the Russians' set-up is carried out"
            );
            let (_, bid, bsq) = &plans[0];
            let b = st
                .unit(st.find_unit(bid).unwrap())
                .loc
                .sq()
                .map(|s| s.to_string());
            assert_eq!(
                b.as_deref(),
                Some(bsq.as_str()),
                "the British set-up is carried out"
            );
            assert!(matches!(
                st.stage,
                umpire::games::ac::state::Stage::Initiative
            ));
        }
        let mut own = 0;
        for (file, m) in outbox(&outdir) {
            if !seen.insert(file.clone()) {
                continue;
            }
            let Some(viewer) = Power::ALL.into_iter().find(|v| {
                m.text.contains(&format!("side: {}", SIDES[v.index()]))
                    || std::fs::read_to_string(outdir.join(&file))
                        .is_ok_and(|raw| raw.contains(&format!("To: {}@", SIDES[v.index()])))
            }) else {
                continue;
            };
            let mut all = format!("{}\n{}\n", m.subject, m.text);
            for a in &m.attachments {
                all.push_str(&String::from_utf8_lossy(&a.bytes));
            }
            let other = viewer.other();
            // The other side's order line and its signature: never, until
            // the game ends; its events and where its piece went: not before
            // the reveal, and after it only as the fog of war lets him see.
            assert!(
                !all.contains(&plans[other.index()].0),
                "{file} to the {} holds the {}' set-up line",
                viewer.name(),
                other.name()
            );
            assert!(
                !all.contains(&marks[other.index()]) || marks[other.index()].is_empty(),
                "{file} holds the {}' sealed mail",
                other.name()
            );
            let before_reveal = p == Power::British;
            if before_reveal {
                for s in secrets(other) {
                    assert!(
                        !all.contains(&s),
                        "{file} to the {} shows {s:?} before the reveal",
                        viewer.name()
                    );
                }
            }
            own += usize::from(
                all.contains(&plans[viewer.index()].0)
                    || all.contains(&format!("Set up {}", plans[viewer.index()].1)),
            );
        }
        if p == Power::Russian {
            assert!(
                own >= 2,
                "each side got its own set-up back at the reveal (the checks look where it would be): {own}"
            );
        }
    }
}

/// One signed move of `side` against the game's head, mailed and polled;
/// returns the mails it caused (file name, mail).
#[allow(clippy::too_many_arguments)]
fn mail_move(
    u: &mut Umpire,
    md: &mut Maildir,
    ob: &mut FileOutbox,
    outdir: &std::path::Path,
    seen: &mut BTreeSet<String>,
    n: &mut u64,
    side: Power,
    orders: &str,
) -> Vec<umpire::mail::mime::ReadMail> {
    let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    let name = SIDES[side.index()];
    let g = u.game("ac-x").unwrap();
    let body: String = orders.lines().map(|l| format!("  {l}\n")).collect();
    let text = format!(
        "game: ac-x\nside: {name}\nafter: {}\norders:\n{body}",
        g.record().head()
    );
    let sig = key(side.index() as u8 + 1)
        .sign(MOVE_NAMESPACE, text.as_bytes())
        .unwrap();
    *n += 1;
    let mail = move_mail(
        &format!("{name}@club.test"),
        "umpire@club.test",
        *n,
        &text,
        &sig,
        false,
    );
    md.deliver(&format!("{n:05}"), &mail).unwrap();
    assert_eq!(u.poll(md, now).unwrap().accepted, 1, "{name}: {orders}");
    u.deliver(ob, now).unwrap();
    let mut out = Vec::new();
    for (file, m) in outbox(outdir) {
        if seen.insert(file.clone()) {
            let raw = std::fs::read_to_string(outdir.join(&file)).unwrap_or_default();
            let to = raw
                .lines()
                .find_map(|l| l.strip_prefix("To: "))
                .unwrap_or_default()
                .to_string();
            let mut m = m;
            m.subject = format!("{to} | {}", m.subject);
            out.push(m);
        }
    }
    out
}

/// The mails of `mails` to `side`, subject and text joined, every run of
/// white space one space (the mails wrap long lines).
fn to(mails: &[umpire::mail::mime::ReadMail], side: Power) -> String {
    mails
        .iter()
        .filter(|m| m.subject.starts_with(SIDES[side.index()]))
        .map(|m| format!("{} {}", m.subject, m.text))
        .collect::<Vec<_>>()
        .join(" ---- ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

// Every number with its reason, through the Maildir: the economy prompt
// warns of what provisioning will cost (17.3-17.6); the sealed plan's
// receipt echoes it with its cost and what is left, to its sender alone
// (3.1[3]); the mover's own mail gives his force's path, MP and SP (13.1,
// 12.2(2)), and the other's only that a force arrived (22.1, ruling A57);
// a Negotiations Table code is told in words (15.1); the provisioning at
// the end of the turn gives its owner the SP account (17.3).
#[test]
fn each_number_comes_with_its_reason_in_the_mails_of_a_turn() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("club");
    Umpire::init(&dir, "umpire@club.test").unwrap();
    let mut u = Umpire::open(&dir).unwrap();
    let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    u.create_game(
        common::new_game("ac-x", "ac", "s1", &SIDES, &[("setup", "printed")]),
        now,
    )
    .unwrap();
    let mut md = Maildir::open(&dir.join("maildir")).unwrap();
    let outdir = dir.join("outbox");
    let mut ob = FileOutbox::open(&outdir).unwrap();
    u.deliver(&mut ob, now).unwrap();
    let mut seen: BTreeSet<String> = outbox(&outdir).into_keys().collect();
    let mut n = 0u64;
    let state = |u: &mut Umpire| -> State {
        u.game("ac-x")
            .unwrap()
            .state()
            .downcast_ref::<State>()
            .unwrap()
            .clone()
    };
    let chooser = umpire::games::ac::turn::chooser(&state(&mut u));
    let mails = mail_move(
        &mut u,
        &mut md,
        &mut ob,
        &outdir,
        &mut seen,
        &mut n,
        chooser,
        "initiative first",
    );
    // The economy prompt, each side's own: the British warning.
    let brit = to(&mails, Power::British);
    assert!(
        brit.contains("at provisioning, as your units stand now,"),
        "{brit}"
    );
    assert!(
        !to(&mails, Power::Russian).contains(" British units stand"),
        "the other side's prompt is not shown"
    );
    // The sealed plan's receipt echoes it, to the planner only.
    let mails = mail_move(
        &mut u,
        &mut md,
        &mut ob,
        &outdir,
        &mut seen,
        &mut n,
        Power::British,
        "buy 3",
    );
    let receipt = to(&mails, Power::British);
    assert!(
        receipt.contains("As accepted, for your eyes only:"),
        "{receipt}"
    );
    assert!(receipt.contains("bought 3 SP for"), "{receipt}");
    assert!(
        receipt.contains("Your economy plan, sealed: 1. bought 3 SP"),
        "{receipt}"
    );
    assert!(!to(&mails, Power::Russian).contains("bought"));
    let mails = mail_move(
        &mut u,
        &mut md,
        &mut ob,
        &outdir,
        &mut seen,
        &mut n,
        Power::Russian,
        "done",
    );
    assert!(!to(&mails, Power::Russian).contains("bought 3 SP"));
    // The operations phases: a British move, a negotiation if one is
    // offered, and `end` until the turn's provisioning.
    let (mut moved, mut negotiated, mut provisioned) = (false, false, false);
    for _ in 0..10 {
        let st = state(&mut u);
        let umpire::games::ac::state::Stage::Ops(ph) = &st.stage else {
            break;
        };
        let p = ph.side;
        let g = u.game("ac-x").unwrap();
        let legal = g.ruleset().legal_moves(g.state(), Side(p.index() as u8));
        let pick = |head: &str| {
            legal
                .iter()
                .find(|l| l.starts_with(head) && !l.contains('\n') && !l.contains("forced"))
                .cloned()
        };
        let mut orders = Vec::new();
        if p == Power::British && !moved {
            orders.extend(pick("move "));
        }
        if !negotiated {
            orders.extend(pick("negotiate "));
        }
        orders.push("end".to_string());
        let mails = mail_move(
            &mut u,
            &mut md,
            &mut ob,
            &outdir,
            &mut seen,
            &mut n,
            p,
            &orders.join("\n"),
        );
        let (own, other) = (to(&mails, p), to(&mails, p.other()));
        if orders[0].starts_with("move ") {
            moved = true;
            assert!(own.contains("Your force "), "{own}");
            assert!(own.contains("MP: ") && own.contains(" spent of "), "{own}");
            assert!(own.contains(" SP left."), "{own}");
            // The order line is the mover's own (22.1), and so is his account;
            // the stack's arrival is what the other's map shows (ruling A57),
            // and his mail says it.
            assert!(!other.contains("Your force "), "{other}");
            assert!(other.contains("A British force moves to "), "{other}");
            // Where the hidden line would be: before the `end` that follows it.
            assert!(
                other.find("A British force moves to ") < other.find("> end"),
                "{other}"
            );
            // The mover reads his own account, not also the line said for
            // those who may not read his order.
            assert!(!own.contains("A British force moves to "), "{own}");
        }
        if orders.iter().any(|o| o.starts_with("negotiate ")) {
            negotiated = true;
            assert!(
                [
                    ": - = no effect (15.1",
                    "treaty, ",
                    "joins the",
                    "outrage, the index shifts",
                    "is eliminated (16.4(2))",
                    "reverts to neutral (stand-in"
                ]
                .iter()
                .any(|w| own.contains(w)),
                "{own}"
            );
        }
        let brit = to(&mails, Power::British);
        if let Some(at) = brit.find("Provisioning (17.3):") {
            provisioned = true;
            // The account is the British player's own: its SP figures too.
            let account: String = brit[at..].chars().take(90).collect();
            assert!(!to(&mails, Power::Russian).contains(&account), "{account}");
        }
    }
    assert!(moved, "the British moved");
    assert!(provisioned, "the turn reached provisioning");
    // The whole record verifies.
    let full = u.export("ac-x", None).unwrap();
    let rec = tmp.path().join("ac-x.txt");
    std::fs::write(&rec, &full).unwrap();
    verify(&rec);
}
