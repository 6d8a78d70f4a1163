//! Issue 13's scale benchmarks.
//!
//! `result-mail`: the size of a result mail and the time of the poll that
//! builds it (read the move, verify it, adjudicate, build and sign every
//! side's result, commit) at game lengths 10, 100, 1,000 and 5,000 entries.
//! Each game is a freeform record of signed moves (each followed by its
//! reveal) imported into a fresh data directory (not timed); the timed part
//! polls one signed move from the Maildir. The floor is the 10-entry figure
//! of the same run: the issue asks for every length within 2x of it.
//!
//! `fresh-poll`: the same poll of one move by an umpire opened afresh (no
//! game cached, as a cron poll starts) at 11 to 2,001 entries, from the
//! store's snapshot of the game's head and replayed without it, and
//! `fresh-load/<game>`: a self-played Asia Crossroads, Lest Darkness Fall,
//! Strike on Sarhu or A Distant Plain game loaded from the store at three
//! lengths, from the head's snapshot and replayed; each prints its slope
//! per entry and the snapshot's size (issue 44: polls flat in the game's
//! length).
//!
//! `cargo bench --bench perf` (`-- fresh` for the fresh polls alone).

use criterion::{Criterion, criterion_group, criterion_main};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use umpire::core::game::{Game, ReplayMode, Secrets, Stored, Verdict};
use umpire::core::hash::Digest;
use umpire::core::record::{FORMAT, Opening, Record, SideDecl};
use umpire::core::ruleset::DynRuleset;
use umpire::core::sig::{MOVE_NAMESPACE, SecretKey};
use umpire::mail::maildir::Maildir;
use umpire::mail::mime::{Compose, build};
use umpire::mail::outbox::FileOutbox;
use umpire::service::Umpire;

const SIDES: [&str; 2] = ["a", "b"];

fn key(n: u8) -> SecretKey {
    SecretKey::from_seed(&[n; 32], "p@club.test").unwrap()
}

fn freeform() -> Arc<dyn DynRuleset> {
    umpire::games::find("freeform").unwrap()
}

fn now() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

/// A freeform record of `entries` entries (the opening, then moves each
/// followed by its reveal).
fn record(entries: usize) -> Record {
    let moves = entries / 2;
    let chain: Secrets = Stored {
        top: Digest([5; 32]),
        length: moves as u64 + 10,
        base: 0,
        master: None,
        slots: 0,
    }
    .secrets();
    let opening = Opening {
        format: FORMAT,
        game: "bench".into(),
        ruleset: "freeform".into(),
        ruleset_version: 1,
        ruleset_data: None,
        scenario: "open".into(),
        options: BTreeMap::new(),
        sides: SIDES
            .iter()
            .enumerate()
            .map(|(i, s)| SideDecl {
                name: s.to_string(),
                email: format!("{s}@club.test"),
                key: key(i as u8 + 1).public().to_openssh(),
            })
            .collect(),
        dice: chain.chain.commitment(),
        hidden: vec![],
        umpire: key(9).public().to_openssh(),
        at: "2026-12-01T00:00:00Z".into(),
    };
    let mut g = Game::create(freeform(), opening, &chain).unwrap();
    for i in 0..moves {
        let text = move_text(&g, i % 2);
        let sig = key(i as u8 % 2 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        assert!(matches!(
            g.submit(text.as_bytes(), &sig, &chain, "t"),
            Verdict::Accepted { .. }
        ));
    }
    g.record().clone()
}

fn move_text(g: &Game, side: usize) -> String {
    format!(
        "game: bench\nside: {}\nafter: {}\norders:\n  advance on the ford\n  roll 2d6 fire\n  end turn\n",
        SIDES[side],
        g.record().head()
    )
}

/// A data directory holding one imported game of `entries` entries.
struct Club {
    tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    outbox: FileOutbox,
    outdir: std::path::PathBuf,
    n: u64,
}

impl Club {
    fn new(entries: usize) -> Club {
        let tmp = tempfile::tempdir().unwrap();
        Umpire::init(tmp.path(), "umpire@club.test").unwrap();
        let mut umpire = Umpire::open(tmp.path()).unwrap();
        umpire.import(&record(entries), now()).unwrap();
        let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
        let outdir = tmp.path().join("outbox");
        let mut outbox = FileOutbox::open(&outdir).unwrap();
        umpire.deliver(&mut outbox, now()).unwrap();
        Club {
            tmp,
            umpire,
            maildir,
            outbox,
            outdir,
            n: 0,
        }
    }

    /// Drops the next move into the Maildir.
    fn drop_move(&mut self) {
        let g = self.umpire.game("bench").unwrap();
        let side = g.awaiting_names();
        let s = SIDES.iter().position(|x| side.contains(x)).unwrap();
        let text = move_text(g, s);
        let sig = key(s as u8 + 1)
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        self.n += 1;
        let raw = build(&Compose {
            from_name: SIDES[s].into(),
            from: format!("{}@club.test", SIDES[s]),
            to: vec!["umpire@club.test".into()],
            subject: "move".into(),
            message_id: format!("<m{}@club.test>", self.n),
            in_reply_to: None,
            references: vec![],
            text: "my move".into(),
            attachments: vec![
                ("move.txt".into(), "text/plain".into(), text.into_bytes()),
                ("move.txt.sig".into(), "text/plain".into(), sig.into_bytes()),
            ],
            auto_submitted: "no",
            headers: vec![],
            date: std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(1_764_590_400),
        })
        .unwrap();
        self.maildir
            .deliver(&format!("{:06}.mail", self.n), &raw)
            .unwrap();
    }

    /// Polls the move in the Maildir; returns the time of the poll.
    fn poll(&mut self) -> Duration {
        let t = Instant::now();
        let r = self.umpire.poll(&mut self.maildir, now()).unwrap();
        let d = t.elapsed();
        assert_eq!(r.accepted, 1, "{r:?}");
        d
    }

    /// The size of the largest result mail delivered since the last call.
    fn delivered_size(&mut self) -> u64 {
        let _ = std::fs::remove_dir_all(&self.outdir);
        self.outbox = FileOutbox::open(&self.outdir).unwrap();
        self.umpire.deliver(&mut self.outbox, now()).unwrap();
        std::fs::read_dir(&self.outdir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".eml"))
            .map(|e| e.metadata().unwrap().len())
            .max()
            .unwrap_or(0)
    }
}

fn result_mail(c: &mut Criterion) {
    let mut g = c.benchmark_group("result-mail");
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    let mut figures = Vec::new();
    for entries in [10usize, 100, 1_000, 5_000] {
        let mut club = Club::new(entries);
        let mut total = Duration::ZERO;
        let mut polls = 0u32;
        g.bench_function(format!("poll one move at {entries} entries"), |b| {
            b.iter_custom(|iters| {
                let mut d = Duration::ZERO;
                for _ in 0..iters {
                    club.drop_move();
                    d += club.poll();
                }
                total += d;
                polls += iters as u32;
                d
            })
        });
        club.drop_move();
        club.poll();
        let size = club.delivered_size();
        figures.push((entries, size, total / polls.max(1)));
    }
    g.finish();
    let (_, size0, time0) = figures[0];
    if time0.is_zero() {
        return; // filtered out (`-- fresh`)
    }
    println!("result-mail: size and poll time against the 10-entry game (the floor)");
    for (entries, size, time) in figures {
        println!(
            "  {entries:>5} entries: {size:>6} bytes ({:.2}x), {:>8.2?} a poll ({:.2}x)",
            size as f64 / size0 as f64,
            time,
            time.as_secs_f64() / time0.as_secs_f64()
        );
    }
}

/// Drops the next move into `club`'s Maildir and polls it with an umpire
/// opened afresh on its data directory (no game cached: what a cron poll
/// starts from), which the club keeps afterwards; `spare` (an umpire of
/// another directory) stands in while the store changes hands, since one
/// process opens a store once. With `replayed`, the store's snapshot of
/// the game's head is removed first (not timed), so the poll replays the
/// record as every fresh poll did before the snapshot. Returns the time
/// of the open and the poll.
fn fresh_poll_once(club: &mut Club, spare: &mut Option<Umpire>, replayed: bool) -> Duration {
    club.drop_move();
    if replayed {
        let mut b = umpire::store::Batch::new();
        b.remove(umpire::store::Table::Heads, "bench");
        club.umpire.store().commit(b).unwrap();
    }
    let held = std::mem::replace(&mut club.umpire, spare.take().expect("a spare"));
    drop(held);
    let t = Instant::now();
    let mut u = Umpire::open(club.tmp.path()).unwrap();
    let r = u.poll(&mut club.maildir, now()).unwrap();
    let d = t.elapsed();
    assert_eq!(r.accepted, 1, "{r:?}");
    *spare = Some(std::mem::replace(&mut club.umpire, u));
    d
}

/// `fresh-poll`: one move polled by an umpire opened afresh on the data
/// directory (a cron poll in process: the store opened, the ruleset built,
/// the game loaded from the store's snapshot of its head, the move
/// adjudicated and committed with the new snapshot), at game lengths 11,
/// 201, 601 and 2,001 entries, each beside the same poll with the snapshot
/// removed (the record replayed, as before the snapshot); and
/// `fresh-load`: the store opened and one game loaded (`Umpire::game`) for
/// self-played Asia Crossroads and Lest Darkness Fall records cut at three
/// lengths. The slope per entry is printed: the goal is a poll flat in the
/// game's length.
fn fresh_poll(c: &mut Criterion) {
    let mut g = c.benchmark_group("fresh-poll");
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(5));
    let (mut figures, mut replayed) = (Vec::new(), Vec::new());
    for entries in [11usize, 201, 601, 2_001] {
        let mut club = Club::new(entries);
        let spare_dir = tempfile::tempdir().unwrap();
        Umpire::init(spare_dir.path(), "umpire@club.test").unwrap();
        let mut spare = Some(Umpire::open(spare_dir.path()).unwrap());
        for (replay, out) in [(false, &mut figures), (true, &mut replayed)] {
            let mut total = Duration::ZERO;
            let mut polls = 0u32;
            let how = if replay {
                "replayed"
            } else {
                "from the snapshot"
            };
            g.bench_function(
                format!("fresh poll of one move at {entries} entries, {how}"),
                |b| {
                    b.iter_custom(|iters| {
                        let mut d = Duration::ZERO;
                        for _ in 0..iters {
                            d += fresh_poll_once(&mut club, &mut spare, replay);
                        }
                        total += d;
                        polls += iters as u32;
                        d
                    })
                },
            );
            out.push((entries, total / polls.max(1)));
        }
    }
    g.finish();
    print_slope("fresh-poll (freeform), from the head's snapshot", &figures);
    print_slope("fresh-poll (freeform), replayed", &replayed);
    for (name, scenario) in [
        ("ac", "s1"),
        ("ldf", "campaign"),
        ("sarhu", "historical"),
        ("adp", "standin"),
    ] {
        fresh_load(c, name, scenario);
    }
}

/// `fresh-load/<name>`: a self-played record of `name` imported whole and
/// cut at a quarter and at half its length; each load opens the store and
/// replays the game from it.
fn fresh_load(c: &mut Criterion, name: &str, scenario: &str) {
    let ruleset = umpire::games::find(name).unwrap();
    let (game, _) = umpire::core::selfplay::random_game(
        ruleset,
        scenario,
        &BTreeMap::new(),
        0,
        2026,
        &Default::default(),
    )
    .expect("self-play");
    let whole = game.record().entries().to_vec();
    let mut g = c.benchmark_group(format!("fresh-load/{name}"));
    g.sample_size(20);
    g.measurement_time(Duration::from_secs(5));
    let (mut figures, mut before) = (Vec::new(), Vec::new());
    for part in [4, 2, 1] {
        let tmp = tempfile::tempdir().unwrap();
        Umpire::init(tmp.path(), "umpire@club.test").unwrap();
        let mut u = Umpire::open(tmp.path()).unwrap();
        // A cut must end where a record may be imported (no round open).
        let (id, len) = (whole.len() / part..=whole.len())
            .find_map(|n| {
                let r = Record::from_entries(whole[..n].to_vec()).ok()?;
                Some((u.import(&r, now()).ok()?, n))
            })
            .expect("a cut that imports");
        let snapshot = u.store().get(umpire::store::Table::Heads, &id).unwrap();
        let text = u.export(&id, None).unwrap();
        println!(
            "{name} at {len} entries: the head's snapshot {} bytes, the record {} bytes",
            snapshot.map_or(0, |s| s.len()),
            text.len()
        );
        drop(u);
        let mut total = [Duration::ZERO; 2];
        let mut loads = 0u32;
        g.bench_function(format!("load a game of {len} entries"), |b| {
            b.iter_custom(|iters| {
                let mut d = Duration::ZERO;
                for _ in 0..iters {
                    let [stored, trusted] = load_pair(tmp.path(), &id);
                    total[0] += stored;
                    total[1] += trusted;
                    d += stored;
                }
                loads += iters as u32;
                d
            })
        });
        figures.push((len, total[0] / loads.max(1)));
        before.push((len, total[1] / loads.max(1)));
    }
    g.finish();
    print_slope(
        &format!("fresh-load ({name}), from the head's snapshot"),
        &figures,
    );
    print_slope(
        &format!("fresh-load ({name}), replayed, the head's state checked"),
        &before,
    );
}

/// One load of game `id` from the store of `dir` as the service loads it
/// (the store opened, the record read, the game restored from the store's
/// snapshot of its head, checked against the head's recorded state), and
/// right after it the same replayed, the head's state hash checked
/// (`ReplayMode::Stored`, as every load did before the snapshot).
fn load_pair(dir: &std::path::Path, id: &str) -> [Duration; 2] {
    let t = Instant::now();
    let mut u = Umpire::open(dir).unwrap();
    let g = u.game(id).unwrap();
    assert!(!g.has_every_report(), "restored from the snapshot");
    std::hint::black_box(g);
    let stored = t.elapsed();
    drop(u);
    let t = Instant::now();
    let u = Umpire::open(dir).unwrap();
    let record = u.store().record(id).unwrap();
    let ruleset = umpire::games::find(&record.opening().unwrap().ruleset).unwrap();
    std::hint::black_box(Game::replay_owned(ruleset, record, ReplayMode::Stored).unwrap());
    [stored, t.elapsed()]
}

/// Prints each figure and the slope per entry from the shortest to the
/// longest.
fn print_slope(what: &str, figures: &[(usize, Duration)]) {
    let (n0, t0) = figures[0];
    let (n1, t1) = figures[figures.len() - 1];
    println!("{what}:");
    for (n, t) in figures {
        println!(
            "  {n:>5} entries: {t:>9.2?} ({:.2}x the shortest)",
            t.as_secs_f64() / t0.as_secs_f64()
        );
    }
    let slope = (t1.as_secs_f64() - t0.as_secs_f64()) / (n1 - n0) as f64;
    println!("  slope {:.2} µs an entry", slope * 1e6);
}

criterion_group!(benches, result_mail, fresh_poll);
criterion_main!(benches);
