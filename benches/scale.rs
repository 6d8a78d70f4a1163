//! Issue 13: polls flat in the number of games. Clubs of 100 and of 10,000
//! freeform games (two sides, deadlines on); each figure is a real `umpire
//! poll` (a fresh process, as cron runs it: open the store, build the
//! rulesets, deliver, read the Maildir, adjudicate, check deadlines, deliver
//! to the file outbox) timed from outside, and its peak RSS read with
//! `/usr/bin/time -f %M`. Three polls: idle (no mail), 1 mail, 1,000 mails
//! (each for a different game). `umpire new` at each size is timed the same
//! way. The ratio printed is the 10,000-game figure over the 100-game one
//! (the issue asks for within 2x, peak RSS at most 100 MB).
//!
//! The clubs are built once and kept in `target/tmp/scale-N/` (10,000 games
//! take a few minutes to create; delete the folder to build it again); every
//! run moves their games on. `cargo bench --bench scale`.
//!
//! The same by hand, for any data directory:
//! `UMPIRE_NOW=... /usr/bin/time -f '%e s %M KB' umpire --dir DIR poll`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use umpire::core::sig::{MOVE_NAMESPACE, SecretKey};
use umpire::mail::maildir::Maildir;
use umpire::mail::mime::{Compose, build};
use umpire::service::Umpire;
use umpire::service::games::NewGame;

const NOW: &str = "2026-12-01T12:00:00Z";
const SIDES: [&str; 2] = ["a", "b"];

fn key(n: u8) -> SecretKey {
    SecretKey::from_seed(&[n; 32], "p@club.test").unwrap()
}

fn now() -> jiff::Timestamp {
    NOW.parse().unwrap()
}

fn new_game(id: String) -> NewGame {
    NewGame {
        id,
        ruleset: "freeform".into(),
        scenario: "open".into(),
        options: BTreeMap::new(),
        deadlines: None,
        time_zones: BTreeMap::new(),
        sides: SIDES
            .iter()
            .enumerate()
            .map(|(i, s)| {
                (
                    s.to_string(),
                    format!("{s}@club.test"),
                    key(i as u8 + 1).public_line(),
                )
            })
            .collect(),
    }
}

/// A club of `games` games, built once under `target/tmp`.
struct Club {
    dir: PathBuf,
    games: usize,
    /// The next game to get a mail (round robin).
    next: usize,
    /// Mails dropped so far (their Message-IDs must differ).
    mails: u64,
}

impl Club {
    fn new(games: usize) -> Club {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("scale-{games}"));
        if !dir.join("ready").exists() {
            let _ = std::fs::remove_dir_all(&dir);
            Umpire::init(&dir, "umpire@club.test").unwrap();
            let mut u = Umpire::open(&dir).unwrap();
            let t = Instant::now();
            for i in 0..games {
                u.create_game(new_game(format!("g{i}")), now()).unwrap();
            }
            eprintln!("scale: {games} games created in {:?}", t.elapsed());
            let mut out = umpire::mail::outbox::FileOutbox::open(&dir.join("outbox")).unwrap();
            u.deliver(&mut out, now()).unwrap();
            std::fs::write(dir.join("ready"), "").unwrap();
        }
        let mails = std::fs::read_to_string(dir.join("mails"))
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0);
        let c = Club {
            dir,
            games,
            next: 0,
            mails,
        };
        c.clear_outbox();
        c
    }

    fn clear_outbox(&self) {
        let out = self.dir.join("outbox");
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
    }

    /// Drops one move for each of the next `n` games (round robin over the
    /// first `spread` games) into the Maildir.
    fn drop_moves(&mut self, n: usize, spread: usize) {
        let mut u = Umpire::open(&self.dir).unwrap();
        let md = Maildir::open(&self.dir.join("maildir")).unwrap();
        for _ in 0..n {
            let id = format!("g{}", self.next % spread.min(self.games));
            self.next += 1;
            let g = u.game(&id).unwrap();
            let waiting = g.awaiting_names();
            let s = SIDES.iter().position(|x| waiting.contains(x)).unwrap();
            let text = format!(
                "game: {id}\nside: {}\nafter: {}\norders:\n  roll 2d6 fire\n  end turn\n",
                SIDES[s],
                g.record().head()
            );
            let sig = key(s as u8 + 1)
                .sign(MOVE_NAMESPACE, text.as_bytes())
                .unwrap();
            self.mails += 1;
            let raw = build(&Compose {
                from_name: SIDES[s].into(),
                from: format!("{}@club.test", SIDES[s]),
                to: vec!["umpire@club.test".into()],
                subject: "move".into(),
                message_id: format!("<s{}@club.test>", self.mails),
                in_reply_to: None,
                references: vec![],
                text: "attached".into(),
                attachments: vec![
                    ("move.txt".into(), "text/plain".into(), text.into_bytes()),
                    ("move.txt.sig".into(), "text/plain".into(), sig.into_bytes()),
                ],
                auto_submitted: "no",
                headers: vec![],
                date: std::time::UNIX_EPOCH + Duration::from_secs(1_800_000_000 + self.mails),
            })
            .unwrap();
            md.deliver(&format!("s{:08}", self.mails), &raw).unwrap();
        }
        std::fs::write(self.dir.join("mails"), self.mails.to_string()).unwrap();
    }

    /// Runs `umpire ARGS` on the club; its wall time and peak RSS in KB.
    fn run(&self, args: &[&str]) -> (Duration, u64) {
        let rss = self.dir.join("rss.txt");
        let t = Instant::now();
        let st = Command::new("/usr/bin/time")
            .args(["-f", "%M", "-o"])
            .arg(&rss)
            .arg(env!("CARGO_BIN_EXE_umpire"))
            .arg("--dir")
            .arg(&self.dir)
            .args(args)
            .env("UMPIRE_NOW", NOW)
            .env("RUST_LOG", "warn")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        let d = t.elapsed();
        assert!(st.success(), "umpire {args:?} failed");
        let kb = std::fs::read_to_string(&rss)
            .ok()
            .and_then(|s| s.lines().last().and_then(|l| l.trim().parse().ok()))
            .unwrap_or(0);
        self.clear_outbox();
        (d, kb)
    }
}

/// One measured figure: mean time per unit and the largest peak RSS.
#[derive(Default, Clone, Copy)]
struct Figure {
    total: Duration,
    units: u64,
    rss: u64,
}

impl Figure {
    fn add(&mut self, d: Duration, units: u64, rss: u64) {
        self.total += d;
        self.units += units;
        self.rss = self.rss.max(rss);
    }
    fn per(&self) -> Duration {
        self.total / self.units.max(1) as u32
    }
}

fn scale(c: &mut Criterion) {
    let mut g = c.benchmark_group("scale");
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(5));
    let sizes = [100usize, 10_000];
    let mut figures: BTreeMap<(&str, usize), Figure> = BTreeMap::new();
    for games in sizes {
        let mut club = Club::new(games);
        // The last: the same 1,000 mails over only 100 games, whatever the
        // club's size, to tell the club's size from the games a poll touches.
        for (what, mails, spread) in [
            ("idle poll", 0usize, games),
            ("poll of 1 mail", 1, games),
            ("poll of 1,000 mails", 1000, games),
            ("1,000 mails, 100 games", 1000, 100),
        ] {
            let mut f = Figure::default();
            g.bench_function(format!("{what} among {games} games"), |b| {
                b.iter_custom(|iters| {
                    let mut d = Duration::ZERO;
                    for _ in 0..iters {
                        club.drop_moves(mails, spread);
                        let (t, kb) = club.run(&["poll"]);
                        f.add(t, mails.max(1) as u64, kb);
                        d += t;
                    }
                    d
                })
            });
            figures.insert((what, games), f);
        }
        let mut f = Figure::default();
        let mut n = 0u64;
        g.bench_function(format!("umpire new among {games} games"), |b| {
            b.iter_custom(|iters| {
                let mut d = Duration::ZERO;
                for _ in 0..iters {
                    n += 1;
                    let id = format!("new{}-{n}", club.mails);
                    let mut args = vec![
                        "new".to_string(),
                        "freeform".into(),
                        "--scenario".into(),
                        "open".into(),
                        "--id".into(),
                        id,
                    ];
                    for (i, s) in SIDES.iter().enumerate() {
                        args.push("--side".into());
                        args.push(format!(
                            "{s}={s}@club.test={}",
                            key(i as u8 + 1).public_line()
                        ));
                    }
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    let (t, kb) = club.run(&args);
                    f.add(t, 1, kb);
                    d += t;
                }
                d
            })
        });
        figures.insert(("umpire new", games), f);
        club.mails += 1;
        std::fs::write(club.dir.join("mails"), club.mails.to_string()).unwrap();
        let db = std::fs::metadata(club.dir.join("db").join(umpire::store::FILE))
            .map(|m| m.len())
            .unwrap_or(0);
        println!("scale: {games} games, database {} MB", db / 1_000_000);
    }
    g.finish();
    println!("scale: per mail (per poll when idle) and peak RSS, 10,000 games against 100");
    for what in [
        "idle poll",
        "poll of 1 mail",
        "poll of 1,000 mails",
        "1,000 mails, 100 games",
        "umpire new",
    ] {
        let a = figures[&(what, 100)];
        let b = figures[&(what, 10_000)];
        println!(
            "  {what:<20} {:>10.2?} {:>6} MB | {:>10.2?} {:>6} MB | {:.2}x",
            a.per(),
            a.rss / 1024,
            b.per(),
            b.rss / 1024,
            b.per().as_secs_f64() / a.per().as_secs_f64()
        );
    }
}

criterion_group!(benches, scale);
criterion_main!(benches);
