//! The core's costs: signing and verifying a move, one poll of 1,000 mails
//! from a Maildir (into the real store on disk, committed in groups), and `verify`
//! of a 10,000-entry record against the bare ed25519 checks of the same
//! signatures (the physical floor of any verifier).

use criterion::{Criterion, criterion_group, criterion_main};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use umpire::core::game::{Game, ReplayMode, Secrets, Stored, Verdict};
use umpire::core::hash::Digest;
use umpire::core::record::{Body, FORMAT, FORMAT_HIDDEN, Opening, Record, SideDecl};
use umpire::core::ruleset::DynRuleset;
use umpire::core::sig::{MOVE_NAMESPACE, SecretKey};
use umpire::mail::maildir::Maildir;
use umpire::mail::mime::{Compose, build};
use umpire::service::Umpire;
use umpire::service::games::NewGame;

fn key(n: u8) -> SecretKey {
    SecretKey::from_seed(&[n; 32], "p@club.test").unwrap()
}

fn freeform() -> Arc<dyn DynRuleset> {
    umpire::games::find("freeform").unwrap()
}

/// A freeform game of `moves` signed moves (each followed by its reveal).
/// `hidden`: the game keeps secrets and every move also rolls in secret, so
/// each entry holds sealed rolls, a sealed state salt and slot secrets.
fn long_game(moves: usize, hidden: bool) -> Record {
    let sides = ["a", "b"];
    let chain: Secrets = Stored {
        top: Digest([5; 32]),
        length: moves as u64 + 10,
        base: 0,
        master: hidden.then_some(Digest([6; 32])),
        slots: if hidden { 3 } else { 0 },
    }
    .secrets();
    let mut options = BTreeMap::new();
    if hidden {
        options.insert("secrets".to_string(), "on".to_string());
    }
    let opening = Opening {
        format: if hidden { FORMAT_HIDDEN } else { FORMAT },
        game: "bench".into(),
        ruleset: "freeform".into(),
        ruleset_version: 1,
        ruleset_data: None,
        scenario: "open".into(),
        options,
        sides: sides
            .iter()
            .enumerate()
            .map(|(i, s)| SideDecl {
                name: s.to_string(),
                email: format!("{s}@club.test"),
                key: key(i as u8 + 1).public().to_openssh(),
            })
            .collect(),
        dice: chain.chain.commitment(),
        hidden: chain.hidden_commitments(),
        umpire: key(9).public().to_openssh(),
        at: "2026-12-01T00:00:00Z".into(),
    };
    let mut g = Game::create(freeform(), opening, &chain).unwrap();
    for i in 0..moves {
        let s = i % 2;
        let secret = if hidden {
            "  roll secret 1d6 spot\n"
        } else {
            ""
        };
        let text = format!(
            "game: bench\nside: {}\nafter: {}\norders:\n  roll 2d6 fire\n{secret}  end turn\n",
            sides[s],
            g.record().head()
        );
        let sig = key(s as u8 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        assert!(matches!(
            g.submit(text.as_bytes(), &sig, &chain, "t"),
            Verdict::Accepted { .. }
        ));
    }
    g.record().clone()
}

fn sign_and_verify(c: &mut Criterion) {
    let k = key(1);
    let text = b"game: g1\nside: a\nafter: 3f2a000000000000000000000000000000000000000000000000000000000001\norders:\n  move du-song: 0712 0713 0813\n";
    let sig = k.sign(MOVE_NAMESPACE, text).unwrap();
    let pk = k.public();
    c.bench_function("move/sign", |b| {
        b.iter(|| k.sign(MOVE_NAMESPACE, black_box(text)).unwrap())
    });
    c.bench_function("move/verify", |b| {
        b.iter(|| pk.verify(MOVE_NAMESPACE, black_box(text), &sig).unwrap())
    });
}

fn verify_record(c: &mut Criterion) {
    // 5,000 moves + 5,000 reveals + the opening = 10,001 entries.
    let record = long_game(5_000, false);
    assert!(record.len() >= 10_000);
    let text = record.to_text();
    let hidden = long_game(5_000, true);
    let hidden_text = hidden.to_text();
    let copy_text = hidden.copy_for(Some("b")).to_text();
    let mut g = c.benchmark_group("verify-10k");
    g.sample_size(10);
    g.bench_function("umpire-verify", |b| {
        b.iter(|| {
            let r = Record::from_text(black_box(&text)).unwrap();
            Game::verify_only(freeform(), r).unwrap()
        })
    });
    // The same game with a secret roll in every move: the full record, and one side's copy.
    g.bench_function("umpire-verify-hidden-full", |b| {
        b.iter(|| {
            let r = Record::from_text(black_box(&hidden_text)).unwrap();
            Game::verify_only(freeform(), r).unwrap()
        })
    });
    g.bench_function("umpire-verify-hidden-copy-audit", |b| {
        b.iter(|| {
            let r = Record::from_text(black_box(&copy_text)).unwrap();
            umpire::core::audit::audit(&r).unwrap()
        })
    });
    // The floor: the same 5,000 SSHSIG signatures checked one after another
    // with bare ed25519, by the same `verify` call the umpire's single check
    // makes (ssh-key's, cofactorless; not `verify_strict`, 15% slower, which
    // would flatter the ratio: issue 13).
    let checks: Vec<_> = record
        .entries()
        .iter()
        .filter_map(|e| match &e.body {
            Body::Move(m) => {
                let sig = ssh_key::SshSig::from_pem(m.signature.value().unwrap()).unwrap();
                let text = m.text.value().unwrap().as_bytes();
                let data =
                    ssh_key::SshSig::signed_data(MOVE_NAMESPACE, sig.hash_alg(), text).unwrap();
                let raw: [u8; 32] = sig.public_key().ed25519().unwrap().0;
                let vk = ed25519_dalek::VerifyingKey::from_bytes(&raw).unwrap();
                let s = ed25519_dalek::Signature::from_slice(sig.signature_bytes()).unwrap();
                Some((vk, data, s))
            }
            _ => None,
        })
        .collect();
    // The batch pre-check alone (what `verify` now pays for the signatures).
    let entries = record.entries();
    assert_eq!(umpire::core::game::precheck_moves(entries).len(), 5_000);
    g.bench_function("batch-precheck", |b| {
        b.iter(|| umpire::core::game::precheck_moves(black_box(entries)))
    });
    g.bench_function("umpire-replay-trusted", |b| {
        b.iter(|| {
            let r = Record::from_text(black_box(&text)).unwrap();
            Game::replay_owned(freeform(), r, ReplayMode::Trusted).unwrap()
        })
    });
    g.bench_function("bare-ed25519-floor", |b| {
        b.iter(|| {
            for (vk, data, s) in &checks {
                ed25519_dalek::Verifier::verify(vk, black_box(data), s).unwrap();
            }
        })
    });
    g.finish();
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

fn poll_1000(c: &mut Criterion) {
    let tmp = tempfile::tempdir().unwrap();
    let template = tmp.path().join("template");
    let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
    // A club's load: 100 games, 10 moves each, the mails interleaved.
    const GAMES: u64 = 100;
    Umpire::init(&template, "umpire@club.test").unwrap();
    {
        let mut u = Umpire::open(&template).unwrap();
        for gi in 0..GAMES {
            u.create_game(
                NewGame {
                    id: format!("g{gi}"),
                    ruleset: "freeform".into(),
                    scenario: "open".into(),
                    options: BTreeMap::new(),
                    deadlines: None,
                    time_zones: BTreeMap::new(),
                    sides: vec![
                        ("a".into(), "a@club.test".into(), key(1).public_line()),
                        ("b".into(), "b@club.test".into(), key(2).public_line()),
                    ],
                },
                now,
            )
            .unwrap();
        }
    }
    // Learn each move's head by playing the 1,000 mails once in a scratch copy.
    let scratch = tmp.path().join("scratch");
    copy_dir(&template, &scratch);
    let mut mails = Vec::new();
    // What the poll's crypto floor is made of: every move's signature checked,
    // every signature the umpire makes over what it sends.
    let mut signed_moves = Vec::new();
    let umpire_signatures;
    {
        let mut u = Umpire::open(&scratch).unwrap();
        let before = signatures_in_outbox(&u);
        let mut md = Maildir::open(&scratch.join("maildir")).unwrap();
        for i in 0..1000u64 {
            let game = format!("g{}", i % GAMES);
            let s = ((i / GAMES) % 2) as usize;
            let side = ["a", "b"][s];
            let head = u.game(&game).unwrap().record().head();
            let text = format!(
                "game: {game}\nside: {side}\nafter: {head}\norders:\n  roll 2d6 fire\n  end turn\n"
            );
            let sig = key(s as u8 + 1)
                .sign(MOVE_NAMESPACE, text.as_bytes())
                .unwrap();
            let raw = build(&Compose {
                from_name: side.into(),
                from: format!("{side}@club.test"),
                to: vec!["umpire@club.test".into()],
                subject: "move".into(),
                message_id: format!("<m{i}@club.test>"),
                in_reply_to: None,
                references: vec![],
                text: "attached".into(),
                attachments: vec![
                    (
                        "move.txt".into(),
                        "text/plain".into(),
                        text.clone().into_bytes(),
                    ),
                    (
                        "move.txt.sig".into(),
                        "text/plain".into(),
                        sig.clone().into_bytes(),
                    ),
                ],
                auto_submitted: "no",
                headers: vec![],
                date: std::time::UNIX_EPOCH
                    + std::time::Duration::from_secs(1_800_000_000 + i * 60),
            })
            .unwrap();
            md.deliver(&format!("{i:05}"), &raw).unwrap();
            u.poll(&mut md, now).unwrap();
            mails.push(raw);
            signed_moves.push((text, sig));
        }
        umpire_signatures = signatures_in_outbox(&u) - before;
    }
    assert!(
        umpire_signatures >= 1000,
        "{umpire_signatures} signatures found in the outbox"
    );
    let floor = CryptoFloor::new(&signed_moves, umpire_signatures);
    let mut g = c.benchmark_group("poll");
    g.sample_size(10);
    let mut n = 0;
    let (mut poll_total, mut polls) = (Duration::ZERO, 0u32);
    // Each poll is followed by a run of its floor, and the ratio is taken
    // pair by pair: this machine's speed drifts by tens of percent over a
    // minute, which skewed the ratio of two separately timed phases.
    let mut pairs: Vec<f64> = Vec::new();
    // The same in CPU time (every thread of the process): what the poll
    // costs whether or not a second core is free.
    let mut cpu_pairs: Vec<f64> = Vec::new();
    g.bench_function("1000-mails-100-games-maildir-to-store", |b| {
        b.iter_custom(|iters| {
            let mut d = Duration::ZERO;
            for _ in 0..iters {
                n += 1;
                let dir = tmp.path().join(format!("run{n}"));
                copy_dir(&template, &dir);
                let md = Maildir::open(&dir.join("maildir")).unwrap();
                for (i, m) in mails.iter().enumerate() {
                    md.deliver(&format!("{i:05}"), m).unwrap();
                }
                let (t, cpu) = (Instant::now(), cpu_time());
                let mut u = Umpire::open(&dir).unwrap();
                let mut md = Maildir::open(&dir.join("maildir")).unwrap();
                let r = u.poll(&mut md, now).unwrap();
                let this = t.elapsed();
                let this_cpu = cpu_time() - cpu;
                d += this;
                assert_eq!(r.accepted, 1000);
                let t = Instant::now();
                floor.run();
                pairs.push(this.as_secs_f64() / t.elapsed().as_secs_f64());
                // The floor's CPU time over five runs (the clock counts 10 ms ticks).
                let cpu = cpu_time();
                for _ in 0..5 {
                    floor.run();
                }
                let floor_cpu = (cpu_time() - cpu).as_secs_f64() / 5.0;
                cpu_pairs.push(this_cpu.as_secs_f64() / floor_cpu);
                drop(u);
                let _ = std::fs::remove_dir_all(&dir);
            }
            poll_total += d;
            polls += iters as u32;
            d
        })
    });
    let (mut floor_total, mut floors) = (Duration::ZERO, 0u32);
    g.bench_function("crypto-floor", |b| {
        b.iter_custom(|iters| {
            let t = Instant::now();
            for _ in 0..iters {
                floor.run();
            }
            let d = t.elapsed();
            floor_total += d;
            floors += iters as u32;
            d
        })
    });
    g.finish();
    let poll = poll_total / polls.max(1);
    let crypto = floor_total / floors.max(1);
    println!(
        "poll of 1,000 mails: {poll:.2?}; its crypto floor ({} move checks, {umpire_signatures} signings, bare ed25519): {crypto:.2?}; ratio {:.2}x (issue 13 asks <= 3x)",
        signed_moves.len(),
        poll.as_secs_f64() / crypto.as_secs_f64()
    );
    pairs.sort_by(f64::total_cmp);
    if let (Some(lo), Some(hi)) = (pairs.first(), pairs.last()) {
        println!(
            "poll / floor, each poll paired with a floor run right after it ({} pairs): median {:.2}x, range {lo:.2}x-{hi:.2}x",
            pairs.len(),
            pairs[pairs.len() / 2]
        );
    }
    cpu_pairs.sort_by(f64::total_cmp);
    if let (Some(lo), Some(hi)) = (cpu_pairs.first(), cpu_pairs.last()) {
        println!(
            "the same in CPU time (all threads): median {:.2}x, range {lo:.2}x-{hi:.2}x",
            cpu_pairs[cpu_pairs.len() / 2]
        );
    }
}

/// The CPU time (user and system) of this process's threads so far, from
/// `/proc/self/stat` (clock ticks of 10 ms).
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (which may hold spaces): utime and
    // stime are the 14th and 15th of the line.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(2)
        .filter_map(|f| f.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10)
}

/// The umpire's signatures in the mails waiting in its outbox: one `.sig`
/// attachment each (a record segment also quotes the players' signatures).
fn signatures_in_outbox(u: &Umpire) -> usize {
    const SIG_FILE: &[u8] = b".sig\"";
    u.pending()
        .unwrap()
        .iter()
        .map(|item| {
            let raw = item.outgoing().raw;
            raw.windows(SIG_FILE.len())
                .filter(|w| *w == SIG_FILE)
                .count()
        })
        .sum()
}

/// The physical floor of a poll: the bare ed25519 checks of its moves'
/// signatures (the same `verify` call umpire makes) and as many bare ed25519
/// signings as the umpire made over its mails, over messages of their size.
struct CryptoFloor {
    checks: Vec<(
        ed25519_dalek::VerifyingKey,
        Vec<u8>,
        ed25519_dalek::Signature,
    )>,
    signer: ed25519_dalek::SigningKey,
    signings: usize,
    message: Vec<u8>,
}

impl CryptoFloor {
    fn new(moves: &[(String, String)], signings: usize) -> CryptoFloor {
        let checks = moves
            .iter()
            .map(|(text, armored)| {
                let sig = ssh_key::SshSig::from_pem(armored).unwrap();
                let data =
                    ssh_key::SshSig::signed_data(MOVE_NAMESPACE, sig.hash_alg(), text.as_bytes())
                        .unwrap();
                let raw: [u8; 32] = sig.public_key().ed25519().unwrap().0;
                let vk = ed25519_dalek::VerifyingKey::from_bytes(&raw).unwrap();
                let s = ed25519_dalek::Signature::from_slice(sig.signature_bytes()).unwrap();
                (vk, data, s)
            })
            .collect();
        CryptoFloor {
            checks,
            signer: ed25519_dalek::SigningKey::from_bytes(&[9; 32]),
            signings,
            // A segment of a few entries, as the result mails sign.
            message: vec![b'x'; 2048],
        }
    }

    fn run(&self) {
        for (vk, data, s) in &self.checks {
            ed25519_dalek::Verifier::verify(vk, black_box(data), s).unwrap();
        }
        for _ in 0..self.signings {
            black_box(ed25519_dalek::Signer::sign(
                &self.signer,
                black_box(&self.message),
            ));
        }
    }
}

/// What a poll's upgrade check pays to learn every ruleset's version: reading
/// it off the data files (`games::version`, the hash of the texts) against
/// building each ruleset over them, which parses and checks every table (what
/// the check did before; a file given as the embedded text makes the registry
/// load it afresh rather than share the process's loaded copy).
fn ruleset_versions(c: &mut Criterion) {
    let fresh: Vec<(&str, BTreeMap<String, String>)> = umpire::games::GAMES
        .iter()
        .map(|d| {
            let files = d
                .files
                .iter()
                .take(1)
                .map(|f| (f.name.to_string(), f.embedded.to_string()))
                .collect();
            (d.name, files)
        })
        .collect();
    let mut g = c.benchmark_group("registry");
    g.sample_size(20);
    g.bench_function("every ruleset's version, read off its files", |b| {
        b.iter(|| {
            for (name, files) in &fresh {
                black_box(umpire::games::version(name, files).unwrap());
            }
        })
    });
    g.bench_function("every ruleset built over its files", |b| {
        b.iter(|| {
            for (name, files) in &fresh {
                black_box(umpire::games::with_data(name, files).unwrap());
            }
        })
    });
    // Each ruleset on its own: what a fresh process pays to build the one a
    // game uses (a cron poll of one move builds it once).
    for (name, files) in &fresh {
        g.bench_function(format!("built over its files: {name}"), |b| {
            b.iter(|| black_box(umpire::games::with_data(name, files).unwrap()))
        });
    }
    g.finish();
}

/// Each ruleset's embedded data loaded from nothing, as a fresh process
/// (a cron poll of one move) builds the one its game uses: the loader the
/// registry calls on the embedded files, the process's shared copy bypassed.
fn embedded_builds(c: &mut Criterion) {
    use umpire::core::data::{DataGame, Files};
    fn load<G: DataGame>() {
        let none = BTreeMap::new();
        let files = Files::new(G::FILES, &none).unwrap();
        black_box(G::load(&files).unwrap());
    }
    let mut g = c.benchmark_group("registry");
    g.sample_size(20);
    g.bench_function("embedded data loaded: sarhu", |b| {
        b.iter(load::<umpire::games::sarhu::Sarhu>)
    });
    g.bench_function("embedded data loaded: ldf", |b| {
        b.iter(load::<umpire::games::ldf::Ldf>)
    });
    g.bench_function("embedded data loaded: ac", |b| {
        b.iter(load::<umpire::games::ac::Ac>)
    });
    g.bench_function("embedded data loaded: adp", |b| {
        b.iter(load::<umpire::games::adp::Adp>)
    });
    g.finish();
}

criterion_group!(
    benches,
    sign_and_verify,
    verify_record,
    poll_1000,
    ruleset_versions,
    embedded_builds
);
criterion_main!(benches);
