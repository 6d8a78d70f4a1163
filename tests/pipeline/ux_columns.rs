//! Every line the umpire mails fits 72 columns, for each ruleset's sample
//! game: the opening, results of a few moves (maps and snippets included),
//! refusals, and the answers to `command: map`, `orders` and `status`.

use umpire_testkit as common;

use common::{declared, key, move_mail, outbox};
use std::collections::BTreeMap;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;
use umpire::service::games::NewGame;

const WIDTH: usize = 72;

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

/// Plays a few moves of `ruleset`'s first scenario by mail and checks every
/// mail; returns them (outbox file name to mail) and the game's last view
/// per side.
fn check(ruleset: &str) -> BTreeMap<String, umpire::mail::mime::ReadMail> {
    let rs = umpire::games::find(ruleset).expect("ruleset");
    let info = rs.info();
    let sc = &info.scenarios[0];
    let names: Vec<String> = if sc.sides.is_empty() {
        vec!["red".into(), "blue".into()]
    } else {
        sc.sides.clone()
    };
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
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
    let mut maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let outdir = tmp.path().join("outbox");
    let mut ob = FileOutbox::open(&outdir).unwrap();
    let mut n = 0u64;
    let mut send = |u: &mut Umpire, side: usize, body: String| {
        n += 1;
        let sig = key(side as u8 + 1)
            .sign(MOVE_NAMESPACE, body.as_bytes())
            .unwrap();
        let raw = move_mail(
            &format!("{}@club.test", names[side]),
            "umpire@club.test",
            n,
            &body,
            &sig,
            false,
        );
        maildir.deliver(&format!("{n:04}.mail"), &raw).unwrap();
        u.poll(&mut maildir, now()).unwrap();
    };
    for (side, name) in names.iter().enumerate() {
        let body =
            format!("game: g1\nside: {name}\ncommand: map\ncommand: orders\ncommand: status\n");
        send(&mut u, side, body);
    }
    for step in 0..3 {
        let g = u.game("g1").unwrap();
        let Some(a) = g.prompt().awaiting.first().cloned() else {
            break;
        };
        let legal = g.ruleset().legal_moves(g.state(), a.side);
        let head = g.record().head();
        let side = a.side.index();
        // The first legal order, and on the first step a mistyped one too.
        let mut orders: Vec<String> = legal.into_iter().take(1).collect();
        if step == 0 {
            orders.push("frobnicate the widgets".into());
        }
        let mut body = format!("game: g1\nside: {}\nafter: {head}\norders:\n", names[side]);
        for o in &orders {
            for l in o.lines() {
                body.push_str(&format!("  {l}\n"));
            }
        }
        send(&mut u, side, body.clone());
        if step == 0 {
            // Now the legal order alone.
            let body = body.replace("  frobnicate the widgets\n", "");
            send(&mut u, side, body);
        }
    }
    u.deliver(&mut ob, now()).unwrap();
    let mails = outbox(&outdir);
    assert!(mails.len() > names.len(), "{ruleset}: too few mails");
    let mut long = Vec::new();
    for (name, m) in &mails {
        for l in m.text.lines() {
            if l.chars().count() > WIDTH {
                long.push(format!("{name}: {l}"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "{ruleset}: {} lines over {WIDTH} columns:\n{}",
        long.len(),
        long.join("\n")
    );
    mails
}

#[test]
fn freeform_mails_fit_72_columns() {
    check("freeform");
}

#[test]
fn sarhu_mails_fit_72_columns() {
    let mails = check("sarhu");
    // Issue 10.3: a result mail lists where every one of the reader's own
    // units is, not only those in the snippet around the action.
    let result = mails
        .values()
        .find(|m| m.text.contains("as ming sees it") && m.text.contains("Your forces:"))
        .expect("a result mail to ming lists its forces");
    let forces: String = result
        .text
        .split("Your forces:")
        .nth(1)
        .unwrap()
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect::<Vec<_>>()
        .join("\n");
    // The Ming columns start far apart (hexes 0302, 0508 and 1113 in the
    // historical set-up), further than one snippet window: each is listed,
    // with every unit of the column.
    for (hex, column) in [("0302", "ml"), ("0508", "ds"), ("1113", "lr")] {
        let line = forces
            .lines()
            .find(|l| l.trim_start().starts_with(hex))
            .unwrap_or_else(|| panic!("no {hex} in {forces}"));
        for unit in ["i1", "i2", "i3", "f1", "f2", "ch", "c1", "c2"] {
            assert!(line.contains(&format!("{column}.{unit}")), "{line}");
        }
    }
    assert!(
        !forces.to_lowercase().contains("nurhaci"),
        "only Ming's own: {forces}"
    );
}

#[test]
fn ldf_mails_fit_72_columns() {
    check("ldf");
}

#[test]
fn ac_mails_fit_72_columns() {
    check("ac");
}

#[test]
fn adp_mails_fit_72_columns() {
    check("adp");
}
