//! Secrets as noninterference: for an observer O (a side, or the public), two
//! states that differ only in what O may not see give O the same bytes on
//! every channel. Self-play games of every ruleset (and every option that
//! adds secrets) are sampled at many positions; at each, for each side and
//! the public, the ruleset makes a *twin* (`Ruleset::twin`) and the test
//! renders, for the state and its twin:
//!
//! - the view: status lines and the whole map as text;
//! - the picture: the SVG of `map.png` (the PNG is a pure function of it;
//!   a few PNGs, whole and of the action, are compared too);
//! - the result mail: subject and text (with the move template drawn from
//!   the side's legal orders, its default and standing orders, the
//!   *Waiting for* lines and the questions put to it);
//! - the `command:` replies `map` and `orders` (`status` is the result text);
//! - the other sides' stated deadline defaults (a default applied after a
//!   deadline is recorded in the clear);
//! - the refusals of probe moves of an awaited side: its legal orders and
//!   the same with every number made huge (pounds beyond a treasury, more
//!   than a hand holds), checked against both states: a refusal is free, so
//!   its text, and whether there is one, must not change.
//!
//! The public is also checked against every side's twins: what one side
//! cannot tell apart, the public cannot either, so the public view never
//! shows more than any side's. Each ruleset's twins are checked to vary
//! every kind of secret its generator claims (`Ruleset::twin_kinds`).
//!
//! History is checked as well: every side's and the public's copy of the
//! record holds no opening of an item not addressed to it; and in freeform,
//! two moves that differ only in hidden lines and secret roll labels give
//! every other side and the observers the same result mail and record copy
//! (digests and salts aside, which are of the same length).
//!
//! Scale: `NONINTERFERENCE_SCALE=N` plays N times the games (default 1);
//! `scripts/noninterference-scale.sh` runs it in release mode.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use umpire::core::game::Game;
use umpire::core::record::Record;
use umpire::core::ruleset::{AwaitKind, DynRuleset, Side, Viewer};
use umpire::core::selfplay::{Position, SelfPlayConfig, game_seed, random_game_visited};
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::service::Umpire;
use umpire::service::commands::{orders_reply, whole_map};

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

/// One ruleset with options: how many games, every how many positions one
/// is sampled, and the standing orders each side files (by default one of
/// the ruleset's samples).
struct Case {
    ruleset: &'static str,
    scenario: &'static str,
    options: &'static [(&'static str, &'static str)],
    games: u32,
    every: u64,
    standing: &'static [&'static str],
}

fn scale() -> u32 {
    std::env::var("NONINTERFERENCE_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1)
}

/// What one run found.
#[derive(Default)]
struct Tally {
    states: u64,
    twins: u64,
    probes: u64,
    pictures: u64,
    varied: BTreeSet<&'static str>,
    claimed: BTreeSet<&'static str>,
    leaks: Vec<String>,
}

/// Runs `case`: self-play, sampling, twins, channels, probes.
fn run(case: &Case) -> Tally {
    let rs = umpire::games::find(case.ruleset).unwrap();
    let options: BTreeMap<String, String> = case
        .options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let umpire = Umpire::open(tmp.path()).unwrap();
    let mut tally = Tally::default();
    let sides = rs
        .info()
        .scenarios
        .iter()
        .find(|s| s.name == case.scenario)
        .map_or(2, |s| s.sides.len().max(2));
    let config = SelfPlayConfig {
        standing: vec![case.standing.iter().map(|l| l.to_string()).collect(); sides],
        ..Default::default()
    };
    for g in 0..case.games * scale() {
        let mut n = 0u64;
        let seed = game_seed(37, g);
        let (game, _) = random_game_visited(
            rs.clone(),
            case.scenario,
            &options,
            g,
            seed,
            &config,
            &mut |pos: Position| {
                n += 1;
                if tally.claimed.is_empty() {
                    tally.claimed = rs.twin_kinds(pos.game.state()).into_iter().collect();
                }
                if (n + u64::from(g)).is_multiple_of(case.every) {
                    position(&umpire, &rs, &pos, seed ^ n, &mut tally);
                }
                if case.ruleset == "freeform" && n.is_multiple_of(case.every) {
                    twin_moves(&umpire, &pos, seed ^ n, &mut tally);
                }
            },
        )
        .unwrap_or_else(|f| panic!("{} game {g}: {}", case.ruleset, f.message));
        copies(&game, &mut tally);
    }
    tally
}

/// The channels `viewer` receives from `game`, each named.
fn channels(u: &Umpire, game: &Game, viewer: Viewer, png: bool) -> Vec<(&'static str, String)> {
    let view = game.ruleset().view(game.state(), viewer);
    let mut out = vec![("view status", view.status.join("\n"))];
    if let Some(b) = &view.board {
        out.push((
            "map text",
            umpire::render::map::full(b, &Default::default()),
        ));
    }
    let seq = game.last_report().0;
    if let Some(svg) = umpire::service::picture::svg(game, seq, viewer) {
        out.push(("map picture (SVG)", svg));
    }
    if png && let Some(p) = umpire::service::picture::picture(game, seq, viewer) {
        for (name, bytes) in [
            ("map.png", p.png()),
            ("map.png of the action", p.action_png()),
        ] {
            out.push((
                name,
                format!("{:?}", umpire::core::hash::sha256(&bytes.unwrap())),
            ));
        }
    }
    let (subject, text) = u.result_mail_text(game, seq, viewer, now()).unwrap();
    out.push(("mail subject", subject));
    out.push(("result mail", text));
    // Another side's stated default is recorded in the clear when its
    // deadline passes (but in a sealed round), so it must not depend on what
    // the viewer may not see either.
    let defaults: Vec<String> = game
        .prompt()
        .awaiting
        .iter()
        .filter(|a| Viewer::Side(a.side) != viewer && a.kind != AwaitKind::SealedOrders)
        .map(|a| format!("{}: {:?}", a.side.0, a.default))
        .collect();
    out.push(("another side's deadline default", defaults.join("\n")));
    if let Viewer::Side(s) = viewer {
        out.push(("command: map", whole_map(game, s)));
        let orders = orders_reply(game, s);
        out.push(("command: orders", orders.text));
        out.push((
            "command: orders' orders.txt",
            orders.attachment.unwrap_or_default(),
        ));
    }
    out
}

/// The first line where `a` and `b` differ, both ways.
fn first_difference(a: &str, b: &str) -> String {
    let (mut x, mut y) = (a.lines(), b.lines());
    for i in 1.. {
        match (x.next(), y.next()) {
            (Some(p), Some(q)) if p == q => continue,
            (None, None) => break,
            (p, q) => {
                return format!(
                    "line {i}:\n    state: {}\n    twin:  {}",
                    p.unwrap_or("(end)"),
                    q.unwrap_or("(end)")
                );
            }
        }
    }
    "(same lines, other bytes)".into()
}

fn who(game: &Game, v: Viewer) -> String {
    match v {
        Viewer::Side(s) => game.sides()[s.index()].name.clone(),
        Viewer::Public => "the public".into(),
        Viewer::Umpire => "the umpire".into(),
    }
}

/// Checks one position: one viewer (each side and the public in turn, from
/// one position to the next) against its twin, the public against the same
/// twin, and the probes of the viewer if it is awaited.
fn position(u: &Umpire, rs: &Arc<dyn DynRuleset>, pos: &Position, seed: u64, tally: &mut Tally) {
    let game = pos.game;
    tally.states += 1;
    let viewers: Vec<Viewer> = (0..game.sides().len())
        .map(|i| Viewer::Side(Side(i as u8)))
        .chain([Viewer::Public])
        .collect();
    let twin_for = viewers[(tally.states as usize) % viewers.len()];
    let Some(t) = rs.twin(game.state(), twin_for, seed) else {
        return;
    };
    tally.twins += 1;
    let png = tally.pictures < 4 && tally.twins.is_multiple_of(25);
    if png {
        tally.pictures += 1;
    }
    let varied = rs.secrets_differ(game.state(), &t);
    tally.varied.extend(varied.iter().copied());
    let twin = game.with_state(t);
    // Who must not tell them apart: the viewer, and the public too.
    let mut blind = vec![twin_for];
    if twin_for != Viewer::Public {
        blind.push(Viewer::Public);
    }
    for v in blind {
        let ours = channels(u, game, v, png);
        let theirs = channels(u, &twin, v, png);
        for ((name, a), (_, b)) in ours.iter().zip(&theirs) {
            if a != b {
                tally.leaks.push(format!(
                    "{} sees a difference in {name} at entry {} (twin for {}, seed {seed}, varying {varied:?}): {}",
                    who(game, v),
                    game.record().len() - 1,
                    who(game, twin_for),
                    first_difference(a, b)
                ));
            }
        }
        if let Viewer::Side(s) = v {
            probes(game, &twin, s, &varied, seed, tally);
        }
    }
}

/// A move file of `side`'s with `orders` after the game's head.
fn move_text(game: &Game, side: Side, orders: &[String]) -> String {
    let mut t = format!(
        "game: {}\nside: {}\nafter: {}\norders:\n",
        game.id(),
        game.sides()[side.index()].name,
        game.record().head()
    );
    for o in orders {
        for l in o.lines() {
            t.push_str("  ");
            t.push_str(l);
            t.push('\n');
        }
    }
    t
}

/// Probe orders of `side`: its legal orders and the same with every number
/// made huge.
fn probe_orders(game: &Game, side: Side) -> Vec<String> {
    let legal = game.ruleset().legal_moves(game.state(), side);
    let mut out = Vec::new();
    for l in legal.iter().take(5) {
        out.push(l.clone());
        let huge: String = l
            .split(' ')
            .map(|w| {
                if !w.is_empty() && w.chars().all(|c| c.is_ascii_digit()) {
                    "99999"
                } else {
                    w
                }
            })
            .collect::<Vec<_>>()
            .join(" ");
        if huge != *l {
            out.push(huge);
        }
    }
    out.dedup();
    out
}

/// What a move would meet: refused (and why) or carried out.
fn verdict(game: &Game, side: Side, order: &str) -> String {
    let text = move_text(game, side, &[order.to_string()]);
    match game.check(text.as_bytes(), None) {
        Ok(_) => "carried out".into(),
        Err(r) => format!(
            "refused ({:?}): {} [{:?}]",
            r.kind,
            r.reason,
            r.line.map(|l| (l.line, l.text))
        ),
    }
}

/// The probes of `side`, if awaited, against a state and its twin.
fn probes(game: &Game, twin: &Game, side: Side, varied: &[&str], seed: u64, tally: &mut Tally) {
    if !game.waiting().any(|a| a.side == side) {
        return;
    }
    for order in probe_orders(game, side) {
        tally.probes += 1;
        let (a, b) = (verdict(game, side, &order), verdict(twin, side, &order));
        if a != b {
            tally.leaks.push(format!(
                "{}'s probe {order:?} at entry {} meets another answer in the twin (seed {seed}, varying {varied:?}):\n    state: {a}\n    twin:  {b}",
                who(game, Viewer::Side(side)),
                game.record().len() - 1
            ));
        }
    }
}

/// Every copy of `game`'s record (each side's, the public's) holds no
/// opening of an item not addressed to it, and audits.
fn copies(game: &Game, tally: &mut Tally) {
    let names: Vec<String> = game.sides().iter().map(|s| s.name.clone()).collect();
    let viewers = (0..names.len())
        .map(|i| Viewer::Side(Side(i as u8)))
        .chain([Viewer::Public]);
    for v in viewers {
        let copy = umpire::service::compose::record_copy(game, v);
        let me = v.side().map(|s| names[s.index()].clone());
        let text = copy.to_text();
        for line in text.lines().filter(|l| l.starts_with('{')) {
            let entry: serde_json::Value = serde_json::from_str(line).unwrap();
            let mut bad = Vec::new();
            unopened(
                &entry,
                me.as_deref(),
                game.prompt().finished.is_some(),
                &mut bad,
            );
            for b in bad {
                tally.leaks.push(format!(
                    "{}'s record copy opens an item not addressed to it: {b}",
                    who(game, v)
                ));
            }
        }
        if game.hides_information() && game.prompt().finished.is_none() {
            umpire::core::audit::audit(&Record::from_text(&text).unwrap())
                .unwrap_or_else(|e| panic!("{}'s copy does not audit: {e}", who(game, v)));
        }
    }
}

/// Collects the sealed items of `value` that carry an opening although
/// `me` is not among their addressees (every opening is the full record's
/// once the game is over).
fn unopened(value: &serde_json::Value, me: Option<&str>, over: bool, bad: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(m) => {
            if let (Some(_), Some(open)) = (m.get("sealed"), m.get("open")) {
                let to: Vec<&str> = m
                    .get("to")
                    .and_then(|t| t.as_array())
                    .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
                    .unwrap_or_default();
                if !over && !me.is_some_and(|n| to.contains(&n)) {
                    bad.push(format!("to {to:?}: {open}"));
                }
            }
            for x in m.values() {
                unopened(x, me, over, bad);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| unopened(x, me, over, bad)),
        _ => {}
    }
}

/// Every 64-hex-digit run (digests, salts, commitments) as `#`: two
/// histories that differ only in sealed items differ only there, in runs of
/// the same length.
fn masked(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    for c in text.chars() {
        if c.is_ascii_hexdigit() {
            run.push(c);
            continue;
        }
        out.push_str(if run.len() == 64 { "#" } else { &run });
        run.clear();
        out.push(c);
    }
    out.push_str(if run.len() == 64 { "#" } else { &run });
    out
}

/// Freeform: the awaited side sends one of two moves that differ only in
/// what the others may not see (a hidden order's text, a secret roll's
/// label); every other side and the public must get the same result mail
/// and record copy from both, digests aside.
fn twin_moves(u: &Umpire, pos: &Position, seed: u64, tally: &mut Tally) {
    let game = pos.game;
    let Some(mover) = game.waiting().next().map(|a| a.side) else {
        return;
    };
    if !game.hides_information() {
        return;
    }
    let secret = |k: u64| {
        vec![
            "advance on the ridge".to_string(),
            format!("hidden plan {} of {}", seed % 997 + k, seed % 89),
            format!("roll secret 1d6 spotting {}", k * 7 + 1),
        ]
    };
    let mut results = Vec::new();
    for k in 0..2 {
        let mut g = game.clone();
        let text = move_text(&g, mover, &secret(k));
        let sig = pos.keys[mover.index()]
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        let v = g.submit(text.as_bytes(), &sig, pos.secrets, "2026-01-01T12:00:00Z");
        // A refused move, or one that ended the game (the full record
        // then opens to everyone), proves nothing here.
        if matches!(v, umpire::core::game::Verdict::Rejected { .. })
            || g.prompt().finished.is_some()
        {
            return;
        }
        let seq = g.last_report().0;
        let mut seen = BTreeMap::new();
        let viewers = (0..g.sides().len())
            .map(|i| Viewer::Side(Side(i as u8)))
            .filter(|v| *v != Viewer::Side(mover))
            .chain([Viewer::Public]);
        for v in viewers {
            let (_, mail) = u.result_mail_text(&g, seq, v, now()).unwrap();
            let copy = umpire::service::compose::record_copy(&g, v).to_text();
            seen.insert(v, (masked(&mail), masked(&copy)));
        }
        results.push((g, seen));
    }
    tally.twins += 1;
    let (g, a) = &results[0];
    let (_, b) = &results[1];
    for (v, (mail, copy)) in a {
        for (name, x, y) in [
            ("result mail", mail, &b[v].0),
            ("record copy", copy, &b[v].1),
        ] {
            if x != y {
                tally.leaks.push(format!(
                    "{} tells apart two moves of {} that differ in hidden lines by the {name} at entry {}: {}",
                    who(g, *v),
                    who(g, Viewer::Side(mover)),
                    g.record().len() - 1,
                    first_difference(x, y)
                ));
            }
        }
    }
}

/// Runs `case` and checks what it found: no leak, enough states, every
/// claimed kind of secret varied.
fn check(case: Case, min_states: u64) {
    let t0 = std::time::Instant::now();
    let t = run(&case);
    eprintln!(
        "{} {:?}: {} games, {} states, {} twins, {} probes, {} PNGs, varied {:?} in {:.1?}",
        case.ruleset,
        case.options,
        case.games * scale(),
        t.states,
        t.twins,
        t.probes,
        t.pictures,
        t.varied,
        t0.elapsed()
    );
    let kinds: BTreeSet<&str> = t
        .leaks
        .iter()
        .map(|l| l.split(" at entry").next().unwrap_or(l))
        .collect();
    assert!(
        t.leaks.is_empty(),
        "{} leaks in {} ({:?}): {kinds:#?}\nthe first:\n{}",
        t.leaks.len(),
        case.ruleset,
        case.options,
        t.leaks[..t.leaks.len().min(5)].join("\n\n")
    );
    assert!(
        t.states >= min_states,
        "{}: only {} states",
        case.ruleset,
        t.states
    );
    let missing: Vec<_> = t.claimed.difference(&t.varied).collect();
    assert!(
        missing.is_empty(),
        "{}: the twins never varied {missing:?} (claimed {:?})",
        case.ruleset,
        t.claimed
    );
}

#[test]
fn freeform_with_hands() {
    check(
        Case {
            ruleset: "freeform",
            scenario: "open",
            options: &[
                ("deck.d", "a,b,c,d,e,f,g,h,i,j,k,l"),
                ("hand.d", "3"),
                ("secrets", "on"),
                ("turns", "12"),
            ],
            games: 12,
            every: 2,
            standing: &[],
        },
        200,
    );
}

#[test]
fn freeform_with_simultaneous_order() {
    check(
        Case {
            ruleset: "freeform",
            scenario: "open",
            options: &[("order", "simultaneous"), ("turns", "12")],
            games: 18,
            every: 2,
            standing: &[],
        },
        200,
    );
}

#[test]
fn strike_on_sarhu() {
    check(
        Case {
            ruleset: "sarhu",
            scenario: "historical",
            options: &[],
            games: 10,
            every: 2,
            standing: &[],
        },
        200,
    );
}

#[test]
fn lest_darkness_fall() {
    check(
        Case {
            ruleset: "ldf",
            scenario: "campaign",
            options: &[],
            games: 3,
            every: 11,
            standing: &[],
        },
        200,
    );
}

#[test]
fn asia_crossroads() {
    check(
        Case {
            ruleset: "ac",
            scenario: "s1",
            options: &[],
            games: 3,
            every: 2,
            standing: &[],
        },
        // Version 9's three games visit 149 states.
        140,
    );
}

#[test]
fn asia_crossroads_sealed_set_up() {
    check(
        Case {
            ruleset: "ac",
            scenario: "s1",
            options: &[("setup", "sealed")],
            games: 2,
            every: 3,
            standing: &[],
        },
        60,
    );
}

#[test]
fn a_distant_plain() {
    check(
        Case {
            ruleset: "adp",
            scenario: "standin",
            options: &[("deception", "yes")],
            games: 6,
            every: 2,
            // Conditional card orders (D1), which self-play files no sample of.
            standing: &[
                "on 30 any",
                "pass",
                "end",
                "on 40 first",
                "pass",
                "end",
                "on 50 any",
                "pass",
                "end",
            ],
        },
        200,
    );
}

/// Every registered game is checked: those above with their own cases, and
/// any game added since with a default run of its first scenario (its twins
/// if it hides anything, every channel, the record copies), so that adding
/// a game needs no line here.
#[test]
fn every_other_registered_game() {
    const COVERED: &[&str] = &["freeform", "sarhu", "ldf", "ac", "adp"];
    let names = umpire::games::names();
    for c in COVERED {
        assert!(names.contains(c), "{c} is no longer registered");
    }
    for name in names.into_iter().filter(|n| !COVERED.contains(n)) {
        let rs = umpire::games::find(name).unwrap();
        let first = rs.info().scenarios[0].name.clone();
        let scenario: &'static str = Box::leak(first.into_boxed_str());
        let case = Case {
            ruleset: name,
            scenario,
            options: &[],
            games: 2,
            every: 2,
            standing: &[],
        };
        check(case, 1);
    }
}
