//! `command: orders` through the Maildir pipeline for each real game: the
//! reply (its body, or `orders.txt` when long) lists every legal order the
//! ruleset knows for the side asking, and each listed order, fed back through
//! the move file's parser and the ruleset's, reads as an order.

use umpire_testkit as common;

use common::{key, move_mail, outbox};
use std::collections::BTreeMap;
use umpire::core::movefile::MoveFile;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::mime::ReadMail;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

/// The orders listed in an `orders` reply: each numbered line starts one,
/// the deeper lines under it continue it.
fn listed(text: &str) -> Vec<String> {
    let mut out: Vec<(usize, String)> = Vec::new();
    for l in text.lines() {
        let body = l.trim_start();
        let indent = l.len() - body.len();
        let numbered = body
            .split_once(". ")
            .filter(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        match numbered {
            Some((n, rest)) => out.push((indent + n.len() + 2, rest.to_string())),
            None => {
                if let Some((col, o)) = out.last_mut()
                    && indent == *col
                    && !body.is_empty()
                {
                    o.push('\n');
                    o.push_str(body);
                }
            }
        }
    }
    out.into_iter().map(|(_, o)| o).collect()
}

/// The orders reply among `mails` not in `seen`: its body and its listing
/// (the attachment, or the body when it has none).
fn listing(
    mails: &BTreeMap<String, ReadMail>,
    seen: &mut std::collections::BTreeSet<String>,
) -> (String, String) {
    let (k, m) = mails
        .iter()
        .find(|(k, m)| {
            !seen.contains(*k) && k.contains(".cmd.") && m.subject.contains("orders you can give")
        })
        .expect("an orders reply");
    seen.insert(k.clone());
    let list = match m.attachments.iter().find(|a| a.name == "orders.txt") {
        Some(a) => String::from_utf8(a.bytes.clone()).unwrap(),
        None => m.text.clone(),
    };
    (m.text.clone(), list)
}

/// Asks for the orders at the start and after a few moves of `ruleset`'s
/// `scenario`, and checks every reply; returns each reply's body and listing.
fn check(ruleset: &str, scenario: &str, sides: &[&str]) -> Vec<(String, String)> {
    check_steps(ruleset, scenario, sides, 3)
}

/// [`check`] over `steps` requests, each after a move.
fn check_steps(
    ruleset: &str,
    scenario: &str,
    sides: &[&str],
    steps: usize,
) -> Vec<(String, String)> {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let mut u = Umpire::open(tmp.path()).unwrap();
    u.create_game(common::new_game("g1", ruleset, scenario, sides, &[]), now())
        .unwrap();
    let mut md = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let outdir = tmp.path().join("outbox");
    let mut ob = FileOutbox::open(&outdir).unwrap();
    let mut n = 0u64;
    let mut bodies = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for step in 0..steps {
        let g = u.game("g1").unwrap();
        let a = g.prompt().awaiting[0].clone();
        let side = a.side;
        let name = sides[side.index()];
        let legal = g.ruleset().legal_moves(g.state(), side);
        let head = g.record().head();
        let send = |u: &mut Umpire, md: &mut Maildir, n: &mut u64, body: &str| {
            *n += 1;
            let sig = key(side.0 + 1)
                .sign(MOVE_NAMESPACE, body.as_bytes())
                .unwrap();
            let raw = move_mail(
                &format!("{name}@club.test"),
                "umpire@club.test",
                *n,
                body,
                &sig,
                false,
            );
            md.deliver(&format!("{:04}.mail", *n), &raw).unwrap();
            u.poll(md, now()).unwrap();
        };
        send(
            &mut u,
            &mut md,
            &mut n,
            &format!("game: g1\nside: {name}\ncommand: orders\n# {step}\n"),
        );
        u.deliver(&mut ob, now()).unwrap();
        let mails = outbox(&outdir);
        let (body, list) = listing(&mails, &mut seen);
        if std::env::var_os("SHOW_ORDERS").is_some() {
            eprintln!("== {ruleset} step {step}\n{body}\n-- orders.txt\n{list}");
        }
        let got = listed(&list);
        let mut want = legal.clone();
        want.dedup();
        for o in &want {
            assert!(
                got.contains(o),
                "{ruleset}: legal order {o:?} is not listed:\n{list}"
            );
        }
        let g = u.game("g1").unwrap();
        for o in &got {
            assert!(want.contains(o), "{ruleset}: {o:?} listed, not legal");
            // Each listed order as a move file's orders reads as orders.
            let mut text = format!("game: g1\nside: {name}\nafter: {head}\norders:\n");
            for l in o.lines() {
                text.push_str(&format!("  {l}\n"));
            }
            let file = MoveFile::parse(text.as_bytes()).expect("the move file reads");
            let parsed = g.ruleset().parse_all(g.state(), side, &file.orders);
            assert!(
                parsed.is_ok(),
                "{ruleset}: listed {o:?} does not parse: {:?}",
                parsed.err()
            );
        }
        for l in body.lines() {
            assert!(l.chars().count() <= 72, "{ruleset}: long line {l:?}");
        }
        bodies.push((body, list));
        // Then a move, so the next request meets another position.
        let mut text = format!("game: g1\nside: {name}\nafter: {head}\norders:\n");
        for l in legal[0].lines() {
            text.push_str(&format!("  {l}\n"));
        }
        send(&mut u, &mut md, &mut n, &text);
    }
    bodies
}

// 4.2.1, 6.0: Sarhu's list holds a move of each activated unit to every hex
// it can reach, with the path written as a move order takes it.
#[test]
fn sarhu_orders_list_every_legal_order() {
    let replies = check("sarhu", "historical", &["ming", "jurchen"]);
    let hexes = |w: &str| w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit());
    let paths: Vec<String> = replies
        .iter()
        .flat_map(|(_, list)| listed(list))
        .filter(|o| {
            let words: Vec<&str> = o.split_whitespace().collect();
            o.starts_with("move ")
                && !o.contains('\n')
                && words.iter().filter(|w| hexes(w)).count() >= 2
        })
        .collect();
    assert!(
        paths.len() > 20,
        "moves with paths of two hexes or more are listed: {paths:?}"
    );
    assert!(
        replies
            .iter()
            .any(|(b, _)| b.contains("attached orders.txt")),
        "the whole list goes to orders.txt"
    );
}

#[test]
fn ldf_orders_list_every_legal_order() {
    let info = umpire::games::find("ldf").unwrap().info();
    let sc = &info.scenarios[0];
    let sides: Vec<&str> = sc.sides.iter().map(String::as_str).collect();
    check("ldf", &sc.name, &sides);
}

#[test]
fn ac_orders_list_every_legal_order() {
    let info = umpire::games::find("ac").unwrap().info();
    let sc = &info.scenarios[0];
    let sides: Vec<&str> = sc.sides.iter().map(String::as_str).collect();
    let bodies = check("ac", &sc.name, &sides);
    assert!(!bodies.is_empty());
}

#[test]
fn adp_orders_list_every_legal_order_with_a_summary_when_long() {
    let info = umpire::games::find("adp").unwrap().info();
    let sc = &info.scenarios[0];
    let sides: Vec<&str> = sc.sides.iter().map(String::as_str).collect();
    // The deck is shuffled by each club's fresh dice chain. In a
    // Propaganda round the kit, always playing the first side the prompt
    // lists, keeps replacing that side's sealed plan (allowed until every
    // plan is in), whose list is short: a new club then, up to three.
    let mut replies = Vec::new();
    for _ in 0..3 {
        replies = check_steps("adp", &sc.name, &sides, 12);
        if replies
            .iter()
            .any(|(b, _)| b.contains("attached orders.txt"))
        {
            break;
        }
    }
    let bodies: Vec<&str> = replies.iter().map(|(b, _)| b.as_str()).collect();
    assert!(
        bodies.iter().any(|b| b.contains("attached orders.txt")),
        "a long list goes to orders.txt:\n{}",
        bodies.join("\n---\n")
    );
}
