//! The adjudication engine end to end on the freeform ruleset: acceptance,
//! refusals, duplicates, staleness, defaults, and the four dice promises.

use umpire_testkit as common;

use common::{key, table};
use umpire::core::dice::{self, Dice};
use umpire::core::game::{
    EngineFault, Game, RecommitError, RejectKind, ReplayMode, RollMismatch, StepError, Verdict,
};
use umpire::core::hash::sha256;
use umpire::core::record::{Body, Record, entry_hash};
use umpire::core::sig::MOVE_NAMESPACE;

fn rolls_of(v: &Verdict) -> Vec<u32> {
    match v {
        Verdict::Accepted { report, .. } => report.rolls.iter().map(|r| r.value).collect(),
        other => panic!("not accepted: {other:?}"),
    }
}

#[test]
fn a_signed_move_is_accepted_rolled_and_revealed() {
    let mut t = table("freeform", "open", &["axis", "allies"], &[]);
    let v = t.play(
        0,
        &["advance on the ridge", "roll 2d6 initiative", "end turn"],
    );
    let Verdict::Accepted { seq, report, .. } = &v else {
        panic!("{v:?}")
    };
    assert_eq!(*seq, 1);
    assert_eq!(report.rolls.len(), 2);
    assert!(
        report
            .rolls
            .iter()
            .all(|r| r.label == "initiative" && (1..=6).contains(&r.value))
    );
    // The move is entry 1, its reveal entry 2, and the secret is k_1 of the chain.
    let e = t.game.record().entries();
    assert_eq!(e.len(), 3);
    match &e[2].body {
        Body::Reveal(r) => {
            assert_eq!(r.position, 1);
            assert_eq!(r.secret, t.chain.chain.secret(1).unwrap());
        }
        other => panic!("{other:?}"),
    }
    // The rolls are exactly ChaCha20 from the published seed formula.
    let text = match &e[1].body {
        Body::Move(m) => m.text.value().unwrap().clone(),
        other => panic!("{other:?}"),
    };
    let mut d = Dice::seeded(dice::seed(
        "g1",
        1,
        &t.chain.chain.secret(1).unwrap(),
        &sha256(text.as_bytes()),
    ));
    let expect = d.roll_n(2, 6, "initiative").unwrap();
    assert_eq!(rolls_of(&v), expect);
    // Now it is the allies' turn.
    assert_eq!(t.game.awaiting_names(), "allies");
}

#[test]
fn promise_1_a_resent_move_gets_the_same_entry_and_rolls() {
    let mut t = table("freeform", "open", &["axis", "allies"], &[]);
    let text = t.move_text("axis", &["roll 3d6 artillery", "end turn"]);
    let sig = t.sign(0, &text);
    let first = t.game.submit(text.as_bytes(), &sig, &t.chain, "t1");
    let len = t.game.record().len();
    let again = t.game.submit(text.as_bytes(), &sig, &t.chain, "t2");
    match again {
        Verdict::Duplicate { seq, .. } => assert_eq!(seq, 1),
        other => panic!("{other:?}"),
    }
    assert_eq!(t.game.record().len(), len, "a resend records nothing new");
    let report = t.game.report(1).unwrap();
    assert_eq!(
        report.rolls.iter().map(|r| r.value).collect::<Vec<_>>(),
        rolls_of(&first)
    );
}

#[test]
fn promise_2_a_rejected_move_reveals_nothing_and_the_fix_meets_the_same_secret() {
    let mut t = table(
        "freeform",
        "open",
        &["axis", "allies"],
        &[("order", "declared")],
    );
    // Illegal before any roll: fixed-order syntax in a declared-order game.
    let v = t.play(0, &["end turn"]);
    let Verdict::Rejected { rejection, .. } = &v else {
        panic!("{v:?}")
    };
    assert_eq!(rejection.kind, RejectKind::Illegal);
    assert_eq!(rejection.line.as_ref().unwrap().text, "end turn");
    assert!(rejection.reason.contains("line 5"), "{}", rejection.reason);
    // Nothing revealed; the dice position did not advance.
    assert!(
        t.game
            .record()
            .entries()
            .iter()
            .all(|e| !matches!(e.body, Body::Reveal(_)))
    );
    let v = t.play(0, &["roll 1d6 morale", "end turn -> allies"]);
    let Verdict::Accepted { report, .. } = &v else {
        panic!("{v:?}")
    };
    assert_eq!(
        report.position,
        Some(1),
        "the corrected move uses the still-secret k_1"
    );
}

#[test]
fn promise_2_an_order_after_a_roll_is_not_carried_out_and_the_rolls_stand() {
    let mut t = table(
        "freeform",
        "open",
        &["axis", "allies"],
        &[("order", "declared")],
    );
    let v = t.play(0, &["roll 1d6 attack", "end turn", "end turn -> allies"]);
    let Verdict::Accepted { report, .. } = &v else {
        panic!("{v:?}")
    };
    assert_eq!(report.rolls.len(), 1);
    assert!(report.orders[1].outcome.is_err(), "{:?}", report.orders[1]);
    assert!(report.orders[2].outcome.is_ok());
}

#[test]
fn promise_3_verify_replays_every_roll_and_state() {
    let mut t = table("freeform", "open", &["a", "b", "c"], &[]);
    for round in 0..4 {
        for s in 0..3 {
            let label = format!("roll 2d6 r{round}s{s}");
            assert!(matches!(
                t.play(s, &[label.as_str(), "end turn"]),
                Verdict::Accepted { .. }
            ));
        }
    }
    // A forged submission in between, recorded and re-checked on replay.
    let text = t.move_text("a", &["roll 1d6 cheat"]);
    let sig = key(99).sign(MOVE_NAMESPACE, text.as_bytes()).unwrap();
    assert!(matches!(
        t.game.submit(text.as_bytes(), &sig, &t.chain, "t"),
        Verdict::Rejected { .. }
    ));
    let exported = t.game.record().to_text();
    let record = Record::from_text(&exported).unwrap();
    let (g, sum) = Game::replay(t.shared(), &record, ReplayMode::Verify).unwrap();
    assert_eq!(sum.moves, 12);
    assert_eq!(sum.rolls_verified, 24);
    assert_eq!(sum.rolls_unverified, 0);
    assert_eq!(sum.rejected, 1);
    assert_eq!(sum.signatures_checked, 12);
    assert_eq!(g.state().hash(), t.game.state().hash());
    assert_eq!(g.record().head(), t.game.record().head());
}

fn rehash_from(entries: &mut [umpire::core::record::Entry], from: usize) {
    for i in from..entries.len() {
        entries[i].prev = if i == 0 {
            Default::default()
        } else {
            entries[i - 1].hash
        };
        entries[i].hash = entry_hash(entries[i].seq, &entries[i].prev, &entries[i].body);
    }
}

fn played() -> common::Table {
    let mut t = table("freeform", "open", &["a", "b"], &[]);
    for s in [0, 1, 0, 1] {
        assert!(matches!(
            t.play(s, &["roll 2d6 fire", "end turn"]),
            Verdict::Accepted { .. }
        ));
    }
    t
}

#[test]
fn promise_3_a_tampered_roll_fails_naming_the_entry() {
    let t = played();
    let mut e = t.game.record().entries().to_vec();
    // Entry 3 is b's move; make its first die a different face and fix every hash.
    let Body::Move(m) = &mut e[3].body else {
        panic!()
    };
    let r = m.rolls[0].value_mut().unwrap();
    r.value = r.value % 6 + 1;
    rehash_from(&mut e, 3);
    let record = Record::from_entries(e).unwrap();
    let err = Game::replay(t.shared(), &record, ReplayMode::Verify)
        .err()
        .expect("must fail");
    assert_eq!(err.seq, 3);
    assert!(
        matches!(
            *err.error,
            StepError::Fault(EngineFault::Rolls(RollMismatch::Tampered { number: 1, .. }))
        ),
        "{err}"
    );
    assert!(err.to_string().contains("tampered"), "{err}");
}

#[test]
fn promise_3_a_reordered_record_fails_naming_the_entry() {
    let t = played();
    let mut e = t.game.record().entries().to_vec();
    e.swap(1, 3);
    for (i, x) in e.iter_mut().enumerate() {
        x.seq = i as u64;
    }
    rehash_from(&mut e, 1);
    // Refused when the record is read (a dice position later than the entry
    // could have used) or on replay, either way naming the entry.
    let seq = match Record::from_entries(e) {
        Err(umpire::core::record::RecordError::Chain { seq, .. }) => seq,
        Err(other) => panic!("{other}"),
        Ok(record) => {
            Game::replay(t.shared(), &record, ReplayMode::Verify)
                .err()
                .expect("must fail")
                .seq
        }
    };
    assert_eq!(seq, 1);
}

#[test]
fn promise_3_a_swapped_commitment_fails_naming_the_entry() {
    let t = played();
    let mut e = t.game.record().entries().to_vec();
    let Body::Opening(o) = &mut e[0].body else {
        panic!()
    };
    o.dice.k0 = sha256(b"another chain");
    rehash_from(&mut e, 0);
    let record = Record::from_entries(e).unwrap();
    let err = Game::replay(t.shared(), &record, ReplayMode::Verify)
        .err()
        .expect("must fail");
    assert_eq!(err.seq, 2, "the first reveal no longer hashes to k0: {err}");
    assert_eq!(*err.error, StepError::ChainTampered(1), "{err}");
    assert!(err.to_string().contains("commitment"), "{err}");
}

#[test]
fn a_forged_stale_or_out_of_turn_move_changes_nothing() {
    let mut t = table("freeform", "open", &["a", "b"], &[]);
    let state = t.game.state().hash();
    // Forged: b's key signing as a.
    let text = t.move_text("a", &["end turn"]);
    let sig = t.sign(1, &text);
    match t.game.submit(text.as_bytes(), &sig, &t.chain, "t") {
        Verdict::Rejected { rejection, .. } => {
            assert_eq!(rejection.kind, RejectKind::Signature);
            assert!(rejection.reason.contains("forged"), "{}", rejection.reason);
        }
        other => panic!("{other:?}"),
    }
    // Out of turn.
    match t.play(1, &["end turn"]) {
        Verdict::Rejected { rejection, .. } => assert_eq!(rejection.kind, RejectKind::NotYourTurn),
        other => panic!("{other:?}"),
    }
    assert_eq!(t.game.state().hash(), state);
    // Stale: written against the opening, sent after a has moved and b has moved.
    let old = t.move_text("a", &["dig in", "end turn"]);
    let old_sig = t.sign(0, &old);
    assert!(matches!(t.play(0, &["end turn"]), Verdict::Accepted { .. }));
    assert!(matches!(t.play(1, &["end turn"]), Verdict::Accepted { .. }));
    let state = t.game.state().hash();
    match t.game.submit(old.as_bytes(), &old_sig, &t.chain, "t") {
        Verdict::Rejected { rejection, .. } => {
            assert_eq!(rejection.kind, RejectKind::Stale);
            assert!(rejection.reason.contains("stale"), "{}", rejection.reason);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(t.game.state().hash(), state);
}

#[test]
fn a_garbage_entry_does_not_make_a_players_move_stale() {
    let mut t = table("freeform", "open", &["a", "b"], &[]);
    let text = t.move_text("a", &["end turn"]);
    let sig = t.sign(0, &text);
    // Someone sends a forgery first; it is recorded as rejected.
    let forged = t.move_text("a", &["end turn"]);
    let fsig = key(50).sign(MOVE_NAMESPACE, forged.as_bytes()).unwrap();
    assert!(matches!(
        t.game.submit(forged.as_bytes(), &fsig, &t.chain, "t"),
        Verdict::Rejected { .. }
    ));
    assert!(matches!(
        t.game.submit(text.as_bytes(), &sig, &t.chain, "t"),
        Verdict::Accepted { .. }
    ));
}

#[test]
fn a_default_after_the_deadline_is_recorded_and_verified() {
    let mut t = table("freeform", "open", &["a", "b"], &[]);
    let side = t.game.side("a").unwrap();
    let (seq, report) = t
        .game
        .apply_default(side, "deadline passed", &t.chain, "t")
        .unwrap();
    assert_eq!(seq, 1);
    assert!(report.by_default);
    assert_eq!(t.game.awaiting_names(), "b");
    let record = Record::from_text(&t.game.record().to_text()).unwrap();
    let (_, sum) = Game::replay(t.shared(), &record, ReplayMode::Verify).unwrap();
    assert_eq!(sum.defaults, 1);
    // A default the ruleset does not state fails verification.
    let mut e = t.game.record().entries().to_vec();
    let Body::Default(d) = &mut e[1].body else {
        panic!()
    };
    d.orders = vec!["concede".into()];
    rehash_from(&mut e, 1);
    let err = Game::replay(
        t.shared(),
        &Record::from_entries(e).unwrap(),
        ReplayMode::Verify,
    )
    .err()
    .unwrap();
    assert_eq!(err.seq, 1);
}

#[test]
fn check_previews_up_to_the_first_roll() {
    let t = table("freeform", "open", &["a", "b"], &[]);
    let text = t.move_text("a", &["hold the bridge", "roll 2d6 fire", "end turn"]);
    let r = t.game.check(text.as_bytes(), None).unwrap();
    assert_eq!(r.orders.len(), 1);
    assert!(r.stopped_at.unwrap().contains("roll 2d6 fire"));
    let bad = t.move_text("a", &["roll 2x6"]);
    let e = t.game.check(bad.as_bytes(), None).unwrap_err();
    assert_eq!(e.line.unwrap().line, 5);
}

#[test]
fn a_new_dice_chain_takes_over_and_verifies() {
    use umpire::core::dice::DiceChain;
    use umpire::core::hash::Digest;
    let mut t = table("freeform", "open", &["a", "b"], &[]);
    // A tiny first chain: two positions.
    t.chain = DiceChain::from_top(Digest([3; 32]), 2).into();
    let mut e = t.game.record().entries().to_vec();
    let Body::Opening(o) = &mut e[0].body else {
        panic!()
    };
    o.dice = t.chain.chain.commitment();
    e[0].hash = entry_hash(0, &e[0].prev, &e[0].body);
    t.game = Game::replay(
        t.shared(),
        &Record::from_entries(e).unwrap(),
        ReplayMode::Verify,
    )
    .unwrap()
    .0;
    assert!(matches!(
        t.play(0, &["roll 1d6 a", "end turn"]),
        Verdict::Accepted { .. }
    ));
    assert!(matches!(
        t.play(1, &["roll 1d6 b", "end turn"]),
        Verdict::Accepted { .. }
    ));
    // The chain is spent: a third move cannot be adjudicated, and nothing is recorded.
    let len = t.game.record().len();
    let spent = t.play(0, &["roll 1d6 c", "end turn"]);
    assert!(
        matches!(
            spent,
            Verdict::Unavailable(EngineFault::Dice(dice::DiceError::ChainExhausted(..)))
        ),
        "{spent:?}"
    );
    assert_eq!(t.game.record().len(), len);
    // A chain that does not serve from the next position is refused by name.
    let wrong: umpire::core::game::Secrets = DiceChain::from_top(Digest([5; 32]), 100).into();
    let err = t.game.recommit(&wrong, "a stale chain", "t").unwrap_err();
    assert!(
        matches!(err, RecommitError::ServesFrom { serves: 1, at } if at == t.game.next_position()),
        "{err}"
    );
    assert_eq!(t.game.record().len(), len);
    // A new chain, published before the next move exists.
    let next: umpire::core::game::Secrets = DiceChain::from_top(Digest([4; 32]), 100)
        .with_base(t.game.next_position() - 1)
        .into();
    t.game
        .recommit(&next, "the first chain ran out", "t")
        .unwrap();
    t.chain = next;
    assert!(matches!(
        t.play(0, &["roll 2d6 c", "end turn"]),
        Verdict::Accepted { .. }
    ));
    let record = Record::from_text(&t.game.record().to_text()).unwrap();
    let (_, sum) = Game::replay(t.shared(), &record, ReplayMode::Verify).unwrap();
    assert_eq!(sum.rolls_verified, 4);
    // A recommit swapped after the fact no longer matches the reveals that follow it.
    let mut e = record.entries().to_vec();
    let i = e
        .iter()
        .position(|x| matches!(x.body, Body::Recommit(_)))
        .unwrap();
    let Body::Recommit(r) = &mut e[i].body else {
        panic!()
    };
    r.dice.k0 = Digest([9; 32]);
    rehash_from(&mut e, i);
    let err = Game::replay(
        t.shared(),
        &Record::from_entries(e).unwrap(),
        ReplayMode::Verify,
    )
    .err()
    .unwrap();
    assert!(matches!(*err.error, StepError::ChainTampered(_)), "{err}");
    assert!(err.to_string().contains("does not hash back"), "{err}");
}
