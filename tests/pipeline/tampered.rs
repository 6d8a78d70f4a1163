//! Tampered records under the fast paths of `verify`: a sealed
//! move's signature under the batch pre-check, and the state hashes, now
//! written from a kept buffer. Each tampered record must fail at the entry,
//! with the error a replay checking every signature singly gives.

use std::path::Path;
use umpire::core::game::{EngineFault, Game, StateMismatch, StepError};
use umpire::core::hash::Digest;
use umpire::core::record::{Body, Entry, Record, entry_hash};
use umpire::core::sealed::Hidden;

fn fixture(name: &str) -> Record {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/records")
        .join(name);
    Record::from_text(&std::fs::read_to_string(&path).expect("fixture")).expect("record")
}

/// Every entry from `from` on relinked and rehashed, as a forger would.
fn rehash_from(entries: &mut [Entry], from: usize) {
    for i in from..entries.len() {
        entries[i].prev = if i == 0 {
            Digest::default()
        } else {
            entries[i - 1].hash
        };
        entries[i].hash = entry_hash(entries[i].seq, &entries[i].prev, &entries[i].body);
    }
}

fn verify(ruleset: &str, entries: Vec<Entry>) -> Result<(), umpire::core::game::ReplayError> {
    let record = Record::from_entries(entries).expect("a well-formed record");
    let rules = umpire::games::find(ruleset).expect("ruleset");
    Game::verify_only(rules, record).map(|_| ())
}

/// The value of a sealed item replaced, its commitment made again under the
/// same salt, so the opening still matches and only the signature is wrong.
fn reseal(item: &mut Hidden<String>, value: String) {
    let Hidden::Sealed(s) = item else {
        panic!("a sealed item")
    };
    let open = s.open.as_ref().expect("the full record opens it");
    *item = Hidden::new(value, Some(s.to.clone()), open.salt);
}

/// The sealed moves' signatures are pre-checked in one batch with the moves'
/// (the batch equation holds for all or for none); a tampered one fails the
/// batch, the single checks find it, and the entry is refused as before: a
/// sealed move signed by another side over its own text, and one signed by
/// its own side over another of its texts. 3.1 of the engine's promises: a
/// move counts only if its side signed it.
#[test]
fn a_tampered_sealed_signature_fails_under_the_batch_precheck() {
    let record = fixture("freeform-v3-none-simultaneous.record");
    assert!(verify("freeform", record.entries().to_vec()).is_ok());
    let sealed: Vec<(usize, String, String)> = record
        .entries()
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.body {
            Body::Sealed(s) => Some((i, s.side.clone(), s.signature.as_ref()?.value()?.clone())),
            _ => None,
        })
        .collect();
    assert!(sealed.len() >= 3, "{sealed:?}");
    let (at, side, _) = &sealed[0];
    // Another side's valid signature (over its own text), and this side's
    // own valid signature over another of its sealed texts.
    let other_side = sealed.iter().find(|s| s.1 != *side).expect("another side");
    let same_side = sealed
        .iter()
        .find(|s| s.1 == *side && s.0 != *at)
        .expect("another sealed move of the side");
    for forged in [&other_side.2, &same_side.2] {
        let mut e = record.entries().to_vec();
        let Body::Sealed(s) = &mut e[*at].body else {
            unreachable!()
        };
        reseal(s.signature.as_mut().expect("signed"), forged.clone());
        rehash_from(&mut e, *at);
        let err = verify("freeform", e).expect_err("a forged sealed signature must fail");
        assert_eq!(err.seq, *at as u64, "{err}");
        assert!(
            matches!(*err.error, StepError::SealedRefused(_)),
            "refused as the single check refuses it: {err}"
        );
    }
}

/// A tampered state hash (a plain hash in freeform, a salted commitment in
/// Asia Crossroads) fails at its entry, as a mismatch, early, midway or last.
#[test]
fn a_tampered_state_hash_fails_at_its_entry() {
    for (ruleset, name) in [
        ("freeform", "freeform-v3-none-open.record"),
        ("ac", "ac-v9-70582963159481c7-s1.record"),
    ] {
        let record = fixture(name);
        let moves: Vec<usize> = action_entries(record.entries());
        assert!(moves.len() > 20, "{name}: {}", moves.len());
        for at in [moves[3], moves[moves.len() / 2], moves[moves.len() - 1]] {
            let mut e = record.entries().to_vec();
            set_state(&mut e[at].body, Digest([7; 32]));
            rehash_from(&mut e, at);
            let err = verify(ruleset, e).expect_err("a tampered state must fail");
            assert_eq!(err.seq, at as u64, "{name}: {err}");
            assert!(
                matches!(
                    *err.error,
                    StepError::Fault(EngineFault::State(StateMismatch::Differs { .. }))
                ),
                "{name}: {err}"
            );
        }
    }
}

/// A state mismatch is reported before any later error (the replay stops at
/// it): here a later entry's recorded rolls are tampered too.
#[test]
fn an_earlier_state_mismatch_is_reported_before_a_later_error() {
    let record = fixture("freeform-v3-none-open.record");
    let moves = action_entries(record.entries());
    let rolled = moves
        .iter()
        .copied()
        .filter(|&i| matches!(&record.entries()[i].body, Body::Move(m) if !m.rolls.is_empty()))
        .nth(3)
        .expect("moves with rolls");
    let at = moves[2];
    assert!(at + 4 < rolled, "{at} {rolled}");
    let mut e = record.entries().to_vec();
    set_state(&mut e[at].body, Digest([9; 32]));
    let Body::Move(m) = &mut e[rolled].body else {
        unreachable!()
    };
    let r = m.rolls[0].value_mut().expect("open");
    r.value = r.value % 6 + 1;
    rehash_from(&mut e, at);
    let err = verify("freeform", e.clone()).expect_err("must fail");
    assert_eq!(err.seq, at as u64, "{err}");
    assert!(
        matches!(*err.error, StepError::Fault(EngineFault::State(_))),
        "{err}"
    );
    // And the later error alone is reported where it is.
    let mut e = record.entries().to_vec();
    let Body::Move(m) = &mut e[rolled].body else {
        unreachable!()
    };
    let r = m.rolls[0].value_mut().expect("open");
    r.value = r.value % 6 + 1;
    rehash_from(&mut e, rolled);
    let err = verify("freeform", e).expect_err("must fail");
    assert_eq!(err.seq, rolled as u64, "{err}");
}

/// The moves: entries that record a state hash, reported as an engine fault.
fn action_entries(entries: &[Entry]) -> Vec<usize> {
    entries
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.body, Body::Move(_)))
        .map(|(i, _)| i)
        .collect()
}

fn set_state(body: &mut Body, to: Digest) {
    match body {
        Body::Move(m) => m.state = to,
        Body::Default(d) => d.state = to,
        Body::Round(r) => r.state = to,
        _ => panic!("not an action"),
    }
}
