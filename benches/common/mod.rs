//! What the game benchmarks share: one self-played game replayed whole, and
//! `verify` of its record against the sequential ed25519 floor of the same
//! signatures, measured in pairs.

use criterion::Criterion;
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use umpire::core::game::{Game, ReplayMode};
use umpire::core::record::{Body, Record};
use umpire::core::ruleset::DynRuleset;
use umpire::core::selfplay::{self, SelfPlayConfig};

/// Benchmarks replaying one self-played game of `ruleset` (scenario
/// `scenario`, seed 2026) from its record, trusted and verified
/// (signatures and dice), as the group "`name` replay".
pub fn replay_game(
    c: &mut Criterion,
    name: &str,
    ruleset: Arc<dyn DynRuleset>,
    scenario: &str,
    samples: usize,
) {
    let (game, stats) = selfplay::random_game(
        ruleset.clone(),
        scenario,
        &BTreeMap::new(),
        0,
        2026,
        &SelfPlayConfig::default(),
    )
    .expect("self-play game");
    let record = Record::from_text(&game.record().to_text()).expect("record");
    eprintln!(
        "replaying a game of {} entries ({} moves, {} rolls): {}",
        record.len(),
        stats.moves,
        stats.rolls,
        stats.outcomes.join("")
    );
    let mut g = c.benchmark_group(format!("{name} replay"));
    g.sample_size(samples);
    for (label, mode) in [
        ("whole game, trusted", ReplayMode::Trusted),
        (
            "whole game, verified (signatures and dice)",
            ReplayMode::Verify,
        ),
    ] {
        g.bench_function(label, |b| {
            b.iter(|| black_box(Game::replay(ruleset.clone(), &record, mode).expect("replay")))
        });
    }
    g.finish();
    verify_against_floor(name, &ruleset, &record.to_text());
}

/// Pairs measured by [`verify_against_floor`].
const PAIRS: usize = 30;

/// `verify` of `text` in process (the record parsed, then replayed and
/// checked as `umpire verify` does) against its floor: the same signatures
/// checked one after another with bare ed25519 (the call umpire's single
/// check makes). Each verify is followed by a floor run, by a trusted
/// replay (the rules engine's own work, no signature or dice checks) and by
/// the replay a load from the store makes (`ReplayMode::Stored`: trusted,
/// the head's state hash alone checked), and the
/// ratios are taken pair by pair (the machine's speed drifts), medians
/// printed. The goal is `verify` at most 1× the floor.
pub fn verify_against_floor(name: &str, ruleset: &Arc<dyn DynRuleset>, text: &str) {
    let floor = signature_checks(&Record::from_text(text).expect("record"));
    let (mut verify, mut trusted, mut base) = (Vec::new(), Vec::new(), Vec::new());
    let (mut to_floor, mut engine, mut head) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..PAIRS {
        let t = Instant::now();
        let r = Record::from_text(black_box(text)).expect("record");
        black_box(Game::verify_only(ruleset.clone(), r).expect("verify"));
        let v = t.elapsed();
        let t = Instant::now();
        for (vk, data, s) in &floor {
            ed25519_dalek::Verifier::verify(vk, black_box(data), s).expect("signature");
        }
        let f = t.elapsed();
        let t = Instant::now();
        let r = Record::from_text(black_box(text)).expect("record");
        black_box(Game::replay_owned(ruleset.clone(), r, ReplayMode::Trusted).expect("replay"));
        let tr = t.elapsed();
        let t = Instant::now();
        let r = Record::from_text(black_box(text)).expect("record");
        black_box(Game::replay_owned(ruleset.clone(), r, ReplayMode::Stored).expect("replay"));
        let st = t.elapsed();
        to_floor.push(v.as_secs_f64() / f.as_secs_f64());
        engine.push(tr.as_secs_f64() / f.as_secs_f64());
        head.push(st.as_secs_f64() / f.as_secs_f64());
        verify.push(v);
        trusted.push(tr);
        base.push(f);
    }
    println!(
        "{name}: verify {:.2?} against its floor ({} signatures, bare ed25519) {:.2?}: {:.2}x (quartiles {:.2}x-{:.2}x); trusted replay {:.2?}, {:.2}x the floor; the store's load (the head's state hash only) {:.2}x (medians of {PAIRS} pairs)",
        median(&mut verify),
        floor.len(),
        median(&mut base),
        median(&mut to_floor),
        quartile(&mut to_floor, 1),
        quartile(&mut to_floor, 3),
        median(&mut trusted),
        median(&mut engine),
        median(&mut head),
    );
}

/// One bare ed25519 check: key, signed data (SSHSIG), signature.
type Check = (
    ed25519_dalek::VerifyingKey,
    Vec<u8>,
    ed25519_dalek::Signature,
);

/// The checks of every signature `verify` checks in `record`: the moves' and
/// the sealed moves'.
fn signature_checks(record: &Record) -> Vec<Check> {
    record
        .entries()
        .iter()
        .filter_map(|e| match &e.body {
            Body::Move(m) => Some((m.text.value()?, m.signature.value()?)),
            Body::Sealed(s) => Some((s.text.as_ref()?.value()?, s.signature.as_ref()?.value()?)),
            _ => None,
        })
        .map(|(text, armored)| {
            let sig = ssh_key::SshSig::from_pem(armored).expect("signature");
            let data = ssh_key::SshSig::signed_data(
                umpire::core::sig::MOVE_NAMESPACE,
                sig.hash_alg(),
                text.as_bytes(),
            )
            .expect("signed data");
            let raw: [u8; 32] = sig.public_key().ed25519().expect("ed25519").0;
            let vk = ed25519_dalek::VerifyingKey::from_bytes(&raw).expect("key");
            let s = ed25519_dalek::Signature::from_slice(sig.signature_bytes()).expect("sig");
            (vk, data, s)
        })
        .collect()
}

fn median<T: PartialOrd + Copy>(v: &mut [T]) -> T {
    quartile(v, 2)
}

/// The `q`th quartile of `v` (sorted in place).
fn quartile<T: PartialOrd + Copy>(v: &mut [T], q: usize) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).expect("ordered"));
    v[(v.len() - 1) * q / 4]
}
