//! Hidden information through the Maildir pipeline: sealed simultaneous
//! orders and a hidden-hand card game in `freeform`, three sides each. Every
//! mail a side receives (text and attachments) and its record copy are
//! checked to hold nothing of another side's hidden items; every copy audits,
//! the full record verifies at the end, and a tampered opening fails.

use umpire_testkit as common;

use common::{key, move_mail};
use std::collections::BTreeMap;
use umpire::core::audit::audit;
use umpire::core::game::{Game, ReplayMode};
use umpire::core::record::{Body, Record};
use umpire::core::sealed::Hidden;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;

const SIDES: [&str; 3] = ["red", "blue", "green"];

struct Club {
    sides: Vec<&'static str>,
    _tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    outdir: std::path::PathBuf,
    n: u64,
}

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

fn club(options: &[(&str, &str)]) -> Club {
    club_of("freeform", "open", &SIDES, options)
}

fn club_of(
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
    let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
    let outdir = tmp.path().join("outbox");
    let mut outbox = FileOutbox::open(&outdir).unwrap();
    umpire.deliver(&mut outbox, now()).unwrap();
    Club {
        sides: sides.to_vec(),
        _tmp: tmp,
        umpire,
        maildir,
        outbox,
        outdir,
        n: 0,
    }
}

/// One delivered mail: its recipient, decoded text and attachments.
struct Got {
    to: String,
    subject: String,
    text: String,
    record: Option<String>,
    all: String,
}

impl Club {
    fn head(&mut self) -> String {
        self.umpire.game("g1").unwrap().record().head().to_hex()
    }

    fn send(&mut self, side: usize, orders: &[&str]) {
        let head = self.head();
        let mut text = format!(
            "game: g1\nside: {}\nafter: {head}\norders:\n",
            self.sides[side]
        );
        for o in orders {
            text.push_str(&format!("  {o}\n"));
        }
        self.send_text(side, &text);
    }

    fn send_text(&mut self, side: usize, text: &str) {
        let sig = key(side as u8 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        self.n += 1;
        let raw = move_mail(
            &format!("{}@club.test", self.sides[side]),
            "umpire@club.test",
            self.n,
            text,
            &sig,
            self.n.is_multiple_of(2),
        );
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), &raw)
            .unwrap();
        self.umpire.poll(&mut self.maildir, now()).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
    }

    /// Every mail delivered so far, by file name.
    fn mails(&self) -> BTreeMap<String, Got> {
        let mut out = BTreeMap::new();
        for e in std::fs::read_dir(&self.outdir).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.ends_with(".eml") {
                continue;
            }
            let raw = std::fs::read(e.path()).unwrap();
            let head = String::from_utf8_lossy(&raw);
            let to = head
                .lines()
                .find_map(|l| l.strip_prefix("To: "))
                .unwrap_or_default()
                .trim()
                .to_string();
            let m = umpire::mail::mime::read(&raw).unwrap();
            let record = m
                .attachments
                .iter()
                .find(|p| p.name.starts_with("record") && p.name.ends_with(".txt"))
                .map(|p| String::from_utf8(p.bytes.clone()).unwrap());
            let mut all = format!("{}\n{}\n{}\n", m.subject, m.text, m.html);
            for p in &m.attachments {
                all.push_str(&String::from_utf8_lossy(&p.bytes));
            }
            out.insert(
                name,
                Got {
                    to,
                    subject: m.subject,
                    text: m.text,
                    record,
                    all,
                },
            );
        }
        out
    }

    /// No mail to any side other than `owner` contains `secret`.
    fn kept_from_others(&self, owner: usize, secret: &str) {
        for other in (0..self.sides.len()).filter(|s| *s != owner) {
            self.kept_from(other, owner, secret);
        }
    }

    /// No mail to `viewer` contains `owner`'s `secret`.
    fn kept_from(&self, viewer: usize, owner: usize, secret: &str) {
        for (name, m) in self.mails() {
            if !m.to.starts_with(self.sides[viewer]) {
                continue;
            }
            // The deck's composition is public (it is in the game's options).
            let all = m.all.replace(CHITS, "");
            assert!(
                !all.contains(secret),
                "{name} to {} shows {}'s secret {secret:?}:\n{}",
                m.to,
                self.sides[owner],
                all.lines()
                    .filter(|l| l.contains(secret))
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }

    /// The record copy each side holds, put together from the parts its
    /// mails carried, audits; returns them.
    fn copies_audit(&self) -> Vec<Record> {
        let mut parts: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        for (name, m) in self.mails() {
            if let Some(r) = m.record {
                parts.entry(m.to.clone()).or_default().push((name, r));
            }
        }
        assert_eq!(
            parts.len(),
            self.sides.len(),
            "every side got a record copy"
        );
        parts
            .into_values()
            .map(|parts| {
                let r = umpire::core::segment::assemble(&parts).unwrap();
                let sum = audit(&r).unwrap_or_else(|e| panic!("copy does not audit: {e}"));
                assert!(sum.entries > 1);
                r
            })
            .collect()
    }

    fn full(&mut self) -> Record {
        Record::from_text(&self.umpire.export("g1", None).unwrap()).unwrap()
    }
}

#[test]
fn simultaneous_orders_stay_sealed_until_every_side_is_in() {
    let mut c = club(&[("order", "simultaneous")]);
    c.send(0, &["red-plan: feint at the ford", "roll 2d6 red-scouting"]);
    c.send(1, &["blue-plan: hold the ridge"]);
    // Two sides in: no mail to another side shows their orders, and each got a receipt.
    c.kept_from_others(0, "red-plan");
    c.kept_from_others(1, "blue-plan");
    let receipts: Vec<Got> = c
        .mails()
        .into_values()
        .filter(|m| m.subject.contains("sealed orders received"))
        .collect();
    assert_eq!(receipts.len(), 2, "a receipt to each sender");
    assert!(
        receipts
            .iter()
            .all(|m| m.text.replace("\r\n", "\n").contains("Commitment:\n  ")),
        "{:?}",
        receipts.iter().map(|m| &m.text).collect::<Vec<_>>()
    );
    // The copies held by blue and green carry red's move only as a commitment.
    let full = c.full();
    let sealed = full
        .entries()
        .iter()
        .filter(|e| matches!(e.body, Body::Sealed(_)))
        .count();
    assert_eq!(sealed, 2);
    // A later move from red replaces its sealed orders in this round.
    c.send(
        0,
        &[
            "red-plan: feint at the ford, then the bridge",
            "roll 2d6 red-scouting",
        ],
    );
    c.kept_from_others(0, "red-plan");
    // The last side closes the round: everyone sees every side's orders and rolls.
    c.send(2, &["green-plan: march on the village"]);
    let round: Vec<Got> = c
        .mails()
        .into_values()
        .filter(|m| m.text.contains("opened together"))
        .collect();
    assert_eq!(round.len(), 3, "the round's result to every side");
    for m in &round {
        assert!(m.text.contains("then the bridge"), "{}", m.text);
        assert!(
            !m.text.contains("> red-plan: feint at the ford\n"),
            "the replaced orders stay out"
        );
        assert!(m.text.contains("blue-plan: hold the ridge"));
        assert!(m.text.contains("green-plan: march on the village"));
        assert!(
            m.text.contains("red-scouting"),
            "the round's rolls are public"
        );
    }
    for copy in c.copies_audit() {
        // The round's public rolls are seeded by the moves' public lines, so
        // every copy re-derives them.
        assert!(audit(&copy).unwrap().public_rolls_verified >= 2);
    }
    let full = c.full();
    let (g, sum) = Game::replay(
        umpire::games::find("freeform").unwrap(),
        &full,
        ReplayMode::Verify,
    )
    .unwrap();
    assert_eq!(sum.rounds, 1);
    assert_eq!(sum.sealed, 4);
    assert!(g.prompt().stage.contains("turn 2"), "{}", g.prompt().stage);
}

const CHITS: &str = "Aquila,Balista,Castra,Denarius,Elephas,Fulmen,Gladius,Hasta,Ignis,Jugum,Lorica,Murus,Navis,Onager,Pilum,Quadriga,Rostrum,Scutum,Testudo,Umbo,Vexillum,Xiphos,Ypsilon,Zona";

/// What a side holds, from its own status lines.
fn hand(c: &Club, side: usize) -> Vec<String> {
    let text = c
        .mails()
        .into_values()
        .filter(|m| m.to.starts_with(SIDES[side]))
        .max_by_key(|m| {
            m.record.as_ref().map_or(0, |r| {
                umpire::core::segment::parse(r)
                    .unwrap()
                    .last()
                    .map_or(0, |e| e.seq)
            })
        })
        .unwrap()
        .text;
    // Status lines are wrapped at 72 columns: the hand goes on in the
    // indented lines under its first.
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("Your hand ("))
        .unwrap_or_else(|| panic!("no hand line in:\n{text}"));
    let mut line = lines[at].to_string();
    for l in lines[at + 1..].iter().take_while(|l| l.starts_with(' ')) {
        line.push(' ');
        line.push_str(l.trim());
    }
    line.split(": ")
        .nth(1)
        .unwrap()
        .split(", ")
        .map(str::to_string)
        .collect()
}

/// The record's one `disclose` entry.
fn disclosure(r: &Record) -> umpire::core::record::DiscloseEntry {
    r.entries()
        .iter()
        .find_map(|e| match &e.body {
            Body::Disclose(d) => Some(d.clone()),
            _ => None,
        })
        .expect("a disclose entry")
}

/// The same bodies, changed by `f`, chained and hashed again (a forger who
/// rewrites the copy consistently).
fn rebuilt(r: &Record, f: impl Fn(&mut Body)) -> Record {
    let mut out = Record::default();
    for e in r.entries() {
        let mut b = e.body.clone();
        f(&mut b);
        out.push(b);
    }
    out
}

fn rebuilt_without_disclosure(r: &Record) -> Record {
    let mut out = Record::default();
    for e in r.entries() {
        if !matches!(e.body, Body::Disclose(_)) {
            out.push(e.body.clone());
        }
    }
    out
}

#[test]
fn a_hidden_hand_card_game_keeps_each_hand_secret_and_verifies_at_the_end() {
    let mut c = club(&[("deck.chits", CHITS), ("hand.chits", "5")]);
    let hands: Vec<Vec<String>> = (0..3).map(|s| hand(&c, s)).collect();
    assert!(hands.iter().all(|h| h.len() == 5), "{hands:?}");

    for (s, h) in hands.iter().enumerate() {
        for chit in h {
            c.kept_from_others(s, chit);
        }
    }
    // Red draws in secret and plays a chit face up; blue discards face down
    // and rolls in secret; green gives a chit to red and writes a hidden order.
    c.send(
        0,
        &[
            "draw 2 from chits",
            &format!("play {}", hands[0][0]),
            "end turn",
        ],
    );
    let played = hands[0][0].clone();
    c.send(
        1,
        &[
            &format!("discard {}", hands[1][0]),
            "roll secret 2d6 blue-spotting",
            "end turn",
        ],
    );
    c.send(
        2,
        &[
            &format!("give {} to red", hands[2][0]),
            "hidden green-ambush at the mill",
            "end turn",
        ],
    );
    let mails = c.mails();
    assert!(
        mails
            .values()
            .filter(|m| !m.to.contains("red"))
            .any(|m| m.text.contains(&format!("plays {played}"))),
        "a played chit is public"
    );
    // What stays hidden: hands (red's now has its draws and green's gift), the
    // face-down discard, the secret roll, the hidden order.
    let gift = hands[2][0].clone();
    for s in 0..3 {
        for chit in hand(&c, s) {
            if chit != gift {
                c.kept_from_others(s, &chit);
            }
        }
    }
    // Green knew the chit it gave; blue never learns it.
    c.kept_from(1, 0, &gift);
    c.kept_from_others(1, &hands[1][0]);
    c.kept_from_others(1, "blue-spotting");
    c.kept_from_others(2, "green-ambush");
    let red = hand(&c, 0);
    assert!(
        red.contains(&hands[2][0]),
        "red holds green's gift: {red:?}"
    );
    assert_eq!(red.len(), 5 - 1 + 2 + 1);
    // Every copy audits and holds the other sides' items only as commitments.
    for copy in c.copies_audit() {
        assert!(!copy.is_complete());
    }
    // Early disclosure (issue 14.2): red's played chit opens its draw at once.
    // Every copy holds the opening, checked against the commitment sealed at
    // the deal; a forged opening fails the audit.
    for copy in c.copies_audit() {
        let d = disclosure(&copy);
        assert_eq!(d.items.len(), 1, "{d:?}");
        assert_eq!(d.items[0].roll.item.as_deref(), Some(played.as_str()));
        assert_eq!(audit(&copy).unwrap().disclosures_checked, 1);
    }
    let copy = c.copies_audit().remove(0);
    let other = hands[0][1].clone();
    let forged = rebuilt(&copy, |b| {
        if let Body::Disclose(d) = b {
            d.items[0].roll.item = Some(other.clone());
        }
    });
    let e = audit(&forged).unwrap_err().to_string();
    assert!(e.contains("does not match the commitment"), "{e}");
    // Concede to end the game: the full record goes to everyone and verifies.
    c.send(0, &["concede"]);
    c.send(1, &["concede"]);
    let over: Vec<Got> = c
        .mails()
        .into_values()
        .filter(|m| m.subject.contains("game over"))
        .collect();
    assert_eq!(over.len(), 3);
    let last = over.iter().find_map(|m| m.record.clone()).unwrap();
    let full = Record::from_text(&last).unwrap();
    assert!(full.is_complete(), "the game is over: the record opens");
    assert!(last.contains("green-ambush"));
    let rs = umpire::games::find("freeform").unwrap();
    let (_, sum) = Game::replay(rs.clone(), &full, ReplayMode::Verify).unwrap();
    assert!(sum.openings_checked > 10, "{sum:?}");
    // The disclose entry is owed: a full record without it does not replay.
    let without = rebuilt_without_disclosure(&full);
    let e = Game::replay(rs.clone(), &without, ReplayMode::Verify)
        .err()
        .expect("a missing disclosure fails")
        .to_string();
    assert!(e.contains("no disclose entry follows"), "{e}");
    // Nor does one that discloses where the rules revealed nothing: the same
    // disclose entry put right after the deal, chained and hashed again.
    let extra = disclosure(&full);
    let mut bodies: Vec<Body> = full.entries().iter().map(|e| e.body.clone()).collect();
    let deal = bodies
        .iter()
        .position(|b| matches!(b, Body::Setup(_)))
        .expect("the deal");
    bodies.insert(deal + 1, Body::Disclose(extra));
    let mut early = Record::default();
    for b in bodies {
        early.push(b);
    }
    let e = Game::replay(rs.clone(), &early, ReplayMode::Verify)
        .err()
        .expect("a disclosure the rules did not make fails")
        .to_string();
    assert!(e.contains("did not reveal"), "{e}");
    assert!(sum.rolls_verified > 15, "{sum:?}");
    // A tampered opening fails, naming the entry.
    let mut entries = full.entries().to_vec();
    let i = entries
        .iter()
        .position(|e| matches!(&e.body, Body::Setup(_)))
        .unwrap();
    let Body::Setup(s) = &mut entries[i].body else {
        unreachable!()
    };
    let roll = s.rolls.iter_mut().find(|r| !r.is_clear()).unwrap();
    let v = roll.value_mut().unwrap();
    v.value = v.value % v.sides + 1;
    match Record::from_entries(entries) {
        Err(umpire::core::record::RecordError::Chain { seq, message }) => {
            assert_eq!(seq, i as u64);
            assert!(
                message.contains("does not match its commitment"),
                "{message}"
            );
        }
        other => panic!("a tampered opening must fail: {other:?}"),
    }
    // The same record text read by a verifier fails the same way.
    let text = full.to_text();
    let Some(Hidden::Sealed(s)) = (match &full.entries()[i].body {
        Body::Setup(s) => s.rolls.iter().find(|r| !r.is_clear()).cloned(),
        _ => None,
    }) else {
        panic!("a sealed deal roll")
    };
    let salt = s.open.unwrap().salt.to_hex();
    let forged = text.replacen(&salt, &"0".repeat(64), 1);
    assert!(Record::from_text(&forged).is_err());
    let _ = rs;
}

#[test]
fn a_sarhu_opponent_never_sees_the_other_sides_standing_orders() {
    let mut c = club_of("sarhu", "historical", &["ming", "jurchen"], &[]);
    let text = format!(
        "game: g1\nside: ming\nafter: {}\nstanding:\n  losses: flip-first\n  initiative: second\n",
        c.head()
    );
    c.send_text(0, &text);
    let mails = c.mails();
    let to_ming: Vec<&Got> = mails
        .values()
        .filter(|m| m.to.starts_with("ming"))
        .collect();
    assert!(
        to_ming.iter().any(|m| m.text.contains("flip-first")),
        "ming is told its own standing orders"
    );
    c.kept_from(1, 0, "flip-first");
    c.kept_from(1, 0, "initiative: second");
    // Jurchen's copy (attached to its mails, checked above) holds ming's move
    // as a commitment only, and still audits.
    assert!(c.copies_audit().iter().all(|r| !r.is_complete()));
    let full = c.full();
    assert!(
        full.to_text().contains("flip-first"),
        "the full record holds it"
    );
    let (_, sum) = Game::replay(
        umpire::games::find("sarhu").unwrap(),
        &full,
        ReplayMode::Verify,
    )
    .unwrap();
    assert!(sum.openings_checked >= 2, "{sum:?}");
}

#[test]
fn a_deadline_default_closes_a_sealed_round_and_the_round_verifies() {
    use umpire::core::game::Verdict;
    let mut t = common::table(
        "freeform",
        "open",
        &["a", "b"],
        &[("order", "simultaneous")],
    );
    let v = t.play(0, &["roll 2d6 a-fire"]);
    let Verdict::Sealed { seq, resolved, .. } = v else {
        panic!("sealed orders expected: {v:?}")
    };
    assert_eq!(resolved, None);
    // Sealed: no roll exists yet, and a's orders are only a commitment to b.
    let Body::Sealed(s) = &t.game.record().entries()[seq as usize].body else {
        panic!()
    };
    assert!(matches!(s.text, Some(Hidden::Sealed(_))));
    assert!(t.game.last_report().1.rolls.is_empty());
    let copy = t.game.record().copy_for(Some("b"));
    assert!(!copy.to_text().contains("a-fire"));
    // b's deadline passes: its stated default is held and closes the round.
    let (round, report) = t
        .game
        .apply_default(umpire::core::ruleset::Side(1), "deadline", &t.chain, "t")
        .unwrap();
    assert_eq!(report.round.len(), 2);
    assert!(report.round[1].by_default);
    assert_eq!(
        report.rolls.len(),
        2,
        "the round rolls once every side is in"
    );
    let full = Record::from_text(&t.game.record().to_text()).unwrap();
    let (g, sum) = Game::replay(t.shared(), &full, ReplayMode::Verify).unwrap();
    assert_eq!((sum.sealed, sum.rounds, sum.rolls_verified), (2, 1, 2));
    assert!(g.prompt().stage.contains("turn 2"));
    // A round that claims to resolve the sealed entries in another order fails.
    let mut e = full.entries().to_vec();
    let Body::Round(r) = &mut e[round as usize].body else {
        panic!()
    };
    r.moves.reverse();
    for i in round as usize..e.len() {
        e[i].prev = if i == 0 { e[i].prev } else { e[i - 1].hash };
        e[i].hash = umpire::core::record::entry_hash(e[i].seq, &e[i].prev, &e[i].body);
    }
    let err = Game::replay(
        t.shared(),
        &Record::from_entries(e).unwrap(),
        ReplayMode::Verify,
    )
    .err()
    .unwrap();
    assert_eq!(err.seq, round);
    assert!(
        matches!(*err.error, umpire::core::game::StepError::RoundMoves { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("sealed entries held"), "{err}");
}

#[test]
fn public_rolls_do_not_depend_on_hidden_lines() {
    // Were a sealed move's public rolls seeded by its whole text, another side
    // could test guesses of the hidden lines against them.
    let roll = |hidden: &str| {
        let mut t = common::table("freeform", "open", &["a", "b"], &[("secrets", "on")]);
        match t.play(
            0,
            &[
                &format!("hidden {hidden}"),
                "roll 3d6 public fire",
                "end turn",
            ],
        ) {
            umpire::core::game::Verdict::Accepted { report, .. } => {
                report.rolls.iter().map(|r| r.value).collect::<Vec<_>>()
            }
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(
        roll("the guard moves to the bridge"),
        roll("the guard stays in camp")
    );
}

#[test]
fn self_play_covers_sealed_rounds_decks_and_secrets() {
    let rs = umpire::games::find("freeform").unwrap();
    let modes: [&[(&str, &str)]; 2] = [
        &[("order", "simultaneous"), ("turns", "4")],
        &[
            ("deck.d", "a,b,c,d,e,f,g,h,i,j"),
            ("hand.d", "2"),
            ("turns", "4"),
        ],
    ];
    for opts in modes {
        let options = opts
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let stats = umpire::core::selfplay::run(rs.clone(), "open", &options, 8, 3)
            .unwrap_or_else(|f| panic!("{opts:?}: {}", f.message));
        assert_eq!(stats.games, 8);
        assert!(stats.moves > 8, "{stats:?}");
    }
}

/// Old records keep verifying: a freeform game recorded under version 1 (no
/// named draws, no disclosure) replays under today's freeform, which plays
/// version 1 for it (`at_version`).
#[test]
fn a_version_one_card_game_replays_unchanged() {
    use umpire::core::ruleset::DynRuleset;
    let v1 = umpire::games::freeform::Freeform::new()
        .at_version(1)
        .unwrap();
    assert_eq!(v1.info().version, 1);
    let mut t = common::table_with(
        v1,
        "freeform",
        "open",
        &["a", "b"],
        &[("deck.c", "p,q,r,s,t,u"), ("hand.c", "2")],
    );
    let card = t
        .game
        .record()
        .entries()
        .iter()
        .find_map(|e| match &e.body {
            Body::Setup(s) => s.rolls.first().and_then(|r| r.value()).cloned(),
            _ => None,
        });
    assert_eq!(card.and_then(|r| r.item), None, "version 1 names no draw");
    let state = String::from_utf8(t.game.state().to_json().unwrap()).unwrap();
    let hand: Vec<String> = state
        .split("\"card\":\"")
        .skip(1)
        .map(|x| x.split('"').next().unwrap().to_string())
        .collect();
    t.play(0, &[&format!("play {}", hand[0]), "end turn"]);
    assert!(
        !t.game
            .record()
            .entries()
            .iter()
            .any(|e| matches!(e.body, Body::Disclose(_))),
        "version 1 discloses nothing"
    );
    let full = Record::from_text(&t.game.record().to_text()).unwrap();
    let today = umpire::games::find("freeform").unwrap();
    assert_eq!(
        today.info().version,
        umpire::games::freeform::Freeform::VERSION
    );
    let (_, sum) = Game::replay(today, &full, ReplayMode::Verify).unwrap();
    assert_eq!(sum.moves, 1);
}
