//! What a map picture costs, and what it adds to a poll, in the four real
//! games. Each game is played by mail for a few seeded random legal moves
//! (not timed); then, for the next move:
//!
//! - `map-picture/<game>/svg`: the picture the mover's result mail carries:
//!   the ruleset's view and the SVG of its sheets (its base's SVG is written
//!   only when the base's raster is kept nowhere, so not here);
//! - `.../whole png, cold`: that SVG rasterised from nothing (what a cron run,
//!   a fresh process, pays for its first picture of a game);
//! - `.../whole png` and `.../action png`: the whole map and the part around
//!   the action as the service draws them, the map's unchanging layer kept
//!   from the first drawing (a daemon, or every mail after a run's first);
//! - `poll/<game>/...`: one move polled from a Maildir in a fresh copy of the
//!   data directory with the game loaded: parse, verify, adjudicate, roll,
//!   record, compose and sign every side's result mail; with the result
//!   pictures `[pictures] result = "action"` (the default) against `"none"`.
//!
//! - `cron/<game>`: `umpire poll` as cron runs it, a fresh process on a data
//!   directory holding the move's mail (the cycle: the upgrade check, the
//!   poll, the deadlines, the result mails and their pictures written to the
//!   file outbox), with and without the pictures; paired in the same run with
//!   the idle poll (a fresh process on the same directory, no mail) and the
//!   crypto floor (the move's signature checked and the result mails signed,
//!   bare ed25519).
//!
//! At the end it prints, per game, what the picture adds to a poll against the
//! poll without it (the floor): the goal is at most 1×, the picture costing
//! no more than everything else the poll does; and the cron poll of one move
//! against the idle poll: the goal is at most 2×.

use umpire_testkit as common;

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use umpire::core::ruleset::Viewer;
use umpire::core::sig::MOVE_NAMESPACE;
use umpire::mail::maildir::Maildir;
use umpire::service::Umpire;

/// Moves played before the timed one: past the set-up, into play.
const WARM_UP: usize = 6;

fn now() -> jiff::Timestamp {
    "2026-12-01T10:00:00Z".parse().unwrap()
}

/// One real game's data directory, ready for its next move.
struct Club {
    _tmp: tempfile::TempDir,
    /// The data directory with the game after the warm-up (pictures on).
    with: PathBuf,
    /// The same with `[pictures] result = "none"`.
    without: PathBuf,
    /// The next move's mail, from the side awaited.
    mail: Vec<u8>,
    /// That side, for its picture.
    side: umpire::core::ruleset::Side,
    /// The mail's move and its signature.
    signed: (Vec<u8>, String),
}

/// Most moves played before the timed one while looking for one on the map.
const MAX_WARM_UP: usize = 120;

/// A signed mail of one legal order (one on the map, else not a pass, if any) for a
/// side awaited in `u`'s game `id`, the `n`th mail; and whether the order acts
/// on the map.
fn next_move(
    u: &mut Umpire,
    id: &str,
    sides: &[String],
    n: u64,
) -> (
    Vec<u8>,
    umpire::core::ruleset::Side,
    bool,
    (Vec<u8>, String),
) {
    let g = u.game(id).unwrap();
    let side = g.waiting().next().expect("someone to move").side;
    let legal = g.ruleset().legal_moves(g.state(), side);
    // An order that acts on the map if there is one, so the picture has an action.
    let on_map = ["move", "attack", "march", "sweep", "assault"];
    let mapped = legal
        .iter()
        .find(|l| on_map.iter().any(|v| l.starts_with(v)));
    let pick = mapped
        .or(legal.iter().find(|l| !l.starts_with("pass")))
        .or(legal.first())
        .expect("a legal order");
    let orders: String = pick.lines().map(|l| format!("  {l}\n")).collect();
    let name = &sides[side.index()];
    let text = format!(
        "game: {id}\nside: {name}\nafter: {}\norders:\n{orders}",
        g.record().head()
    );
    let sig = common::key(side.0 + 1)
        .sign(MOVE_NAMESPACE, text.as_bytes())
        .unwrap();
    let from = format!("{name}@club.test");
    (
        common::move_mail(&from, "umpire@club.test", n, &text, &sig, false),
        side,
        mapped.is_some(),
        (text.into_bytes(), sig),
    )
}

/// Polls `mail` in the data directory `dir`; the mail must be accepted.
fn poll(u: &mut Umpire, dir: &Path, mail: &[u8], n: u64) -> Duration {
    let mut md = Maildir::open(&dir.join("maildir")).unwrap();
    md.deliver(&format!("{n:05}"), mail).unwrap();
    let t = Instant::now();
    let r = u.poll(&mut md, now()).unwrap();
    let d = t.elapsed();
    assert_eq!(r.accepted, 1, "{r:?}");
    d
}

fn club(ruleset: &str) -> Club {
    let rs = umpire::games::find(ruleset).expect("ruleset");
    let scenario = rs.info().scenarios[0].clone();
    let sides: Vec<&str> = scenario.sides.iter().map(String::as_str).collect();
    let tmp = tempfile::tempdir().unwrap();
    let with = tmp.path().join("with");
    let game = common::new_game(ruleset, ruleset, &scenario.name, &sides, &[]);
    let mut u = same_every_run(&with, game);
    // Past the warm-up, on until the last move played and the next both act
    // on the map (an Asia Crossroads economy step has no place: its picture
    // would be the whole map, which a move's result seldom is).
    let mut n = 0;
    let mut last_on_map = false;
    let (mail, side, signed) = loop {
        n += 1;
        let (mail, side, on_map, signed) = next_move(&mut u, ruleset, &scenario.sides, n);
        if n > WARM_UP as u64 && ((last_on_map && on_map) || n > MAX_WARM_UP as u64) {
            break (mail, side, signed);
        }
        poll(&mut u, &with, &mail, n);
        last_on_map = on_map;
    };
    drop(u);
    let without = tmp.path().join("without");
    common::copy_dir(&with, &without);
    let cfg = without.join("umpire.toml");
    let text = std::fs::read_to_string(&cfg).unwrap();
    std::fs::write(
        &cfg,
        text.replace("result = \"action\"", "result = \"none\""),
    )
    .unwrap();
    Club {
        _tmp: tmp,
        with,
        without,
        mail,
        side,
        signed,
    }
}

/// A club's data directory in `dir` holding `game`, made the same in every
/// run: the umpire's key and the game's dice secrets from fixed seeds (the
/// record's opening names the key, every move's text follows the record's
/// head, and the dice are drawn from the secret and the move), so the
/// warm-up plays the same game and the timed move's picture is the same
/// crop every run, before and after a change.
fn same_every_run(dir: &Path, game: umpire::service::games::NewGame) -> Umpire {
    use umpire::core::sig::SecretKey;
    Umpire::init(dir, "umpire@club.test").unwrap();
    let key_path = dir.join(&Umpire::open(dir).unwrap().config().umpire.key);
    let pub_path = key_path.with_extension("key.pub");
    std::fs::remove_file(&key_path).unwrap();
    let key = SecretKey::from_seed(&[42; 32], "umpire@club.test").unwrap();
    umpire::service::write_private(&key_path, &key).unwrap();
    std::fs::write(&pub_path, format!("{}\n", key.public_line())).unwrap();
    let mut u = Umpire::open(dir).unwrap();
    u.create_game_seeded(game, now(), Some([7; 32])).unwrap();
    u
}

/// `iters` polls of the club's next move, each in a fresh copy of `template`
/// with the game loaded (copying and loading not timed).
/// With `fresh`, each poll meets no raster kept in memory, only those kept on
/// disk by the warm-up (a cron poll: a fresh process every time).
///
/// The template is the club's data directory as the warm-up's polls left
/// it, as a club's is after the polls before this one: its shelf
/// (`cache/pictures/`) holds the map's base, names and every sprite the
/// warm-up's pictures drew, in the map's pack. So a fresh poll draws, and
/// appends to the pack, only what this move's pictures show for the first
/// time, as a cron poll of the move would (each copy starts from the
/// template, so every timed poll appends the same).
fn polls(club: &Club, template: &Path, game: &str, iters: u64, fresh: bool) -> Duration {
    let mut total = Duration::ZERO;
    for i in 0..iters {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().join("club");
        common::copy_dir(template, &dir);
        let mut u = Umpire::open(&dir).unwrap();
        u.game(game).unwrap();
        if fresh {
            umpire::render::svg::raster::forget_kept();
        }
        total += poll(&mut u, &dir, &club.mail, 1000 + i);
    }
    total
}

/// The time every process poll is told it is (`UMPIRE_NOW`): the clubs'
/// clock, so no deadline of the warm-up's games passes.
const NOW: &str = "2026-12-01T10:00:00Z";

/// Runs `umpire poll` as cron does (a fresh process) on the data directory
/// `dir`; returns its wall time.
fn cron_poll(dir: &Path) -> Duration {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .env("UMPIRE_NOW", NOW)
        .arg("--dir")
        .arg(dir)
        .arg("poll")
        .output()
        .expect("umpire poll runs");
    let d = t.elapsed();
    assert!(
        out.status.success(),
        "umpire poll: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    d
}

/// The mails a poll wrote to the file outbox of `dir`.
fn outbox_mails(dir: &Path) -> usize {
    std::fs::read_dir(dir.join("outbox")).map_or(0, |d| d.flatten().count())
}

/// The cron poll's figures, one entry a pair.
#[derive(Default)]
struct Cron {
    /// The poll of the move, pictures on.
    with: Vec<Duration>,
    /// The same, `[pictures] result = "none"`.
    without: Vec<Duration>,
    /// The idle poll of the same directory.
    idle: Vec<Duration>,
    /// The crypto floor.
    floor: Vec<Duration>,
    /// Each pair's poll with pictures over its idle poll.
    ratio: Vec<f64>,
    /// The same without the pictures.
    ratio_without: Vec<f64>,
}

/// A data directory made ready for cron polls: a copy of `template`,
/// polled once by a process (untimed) so that what waited in its outbox is
/// written out and the rulesets' versions and the compaction time are
/// noted, as any cron poll after the first finds them.
fn cron_template(template: &Path, to: &Path) {
    common::copy_dir(template, to);
    cron_poll(to);
    std::fs::remove_dir_all(to.join("outbox")).unwrap();
    std::fs::create_dir_all(to.join("outbox")).unwrap();
}

/// `pairs` rounds of: the cron poll of the club's move with and without
/// pictures, the idle poll, and the crypto floor (each poll in a fresh copy
/// of its directory; copying not timed).
fn cron(club: &Club, game: &str, pairs: usize) -> Cron {
    let tmp = tempfile::tempdir().unwrap();
    let (with, without) = (tmp.path().join("with"), tmp.path().join("without"));
    cron_template(&club.with, &with);
    cron_template(&club.without, &without);
    let mut out = Cron::default();
    for i in 0..pairs {
        let one = |template: &Path, mail: bool| {
            let scratch = tempfile::tempdir().unwrap();
            let dir = scratch.path().join("club");
            common::copy_dir(template, &dir);
            if mail {
                let md = Maildir::open(&dir.join("maildir")).unwrap();
                md.deliver(&format!("c{i:05}"), &club.mail).unwrap();
            }
            let d = cron_poll(&dir);
            (d, outbox_mails(&dir))
        };
        let (w, sent) = one(&with, true);
        assert!(
            sent > 0,
            "{game}: the move polled by a process sent nothing"
        );
        let (wo, _) = one(&without, true);
        let (idle, none) = one(&with, false);
        assert_eq!(none, 0, "{game}: the idle poll sent mail");
        // The floor: the move's signature checked, and a signature over
        // each result mail (bare ed25519, over a segment's size).
        let floor = crypto_floor(&club.signed, sent);
        out.ratio.push(w.as_secs_f64() / idle.as_secs_f64());
        out.ratio_without
            .push(wo.as_secs_f64() / idle.as_secs_f64());
        out.with.push(w);
        out.without.push(wo);
        out.idle.push(idle);
        out.floor.push(floor);
    }
    out
}

/// The bare ed25519 cost of one move's poll: its signature (`sig`, SSHSIG
/// over `text`) checked, and `signings` signatures made over 2 KiB.
fn crypto_floor((text, sig): &(Vec<u8>, String), signings: usize) -> Duration {
    let sig = ssh_key::SshSig::from_pem(sig).unwrap();
    let data = ssh_key::SshSig::signed_data(MOVE_NAMESPACE, sig.hash_alg(), text).unwrap();
    let vk =
        ed25519_dalek::VerifyingKey::from_bytes(&sig.public_key().ed25519().unwrap().0).unwrap();
    let s = ed25519_dalek::Signature::from_slice(sig.signature_bytes()).unwrap();
    let signer = ed25519_dalek::SigningKey::from_bytes(&[9; 32]);
    let message = vec![b'x'; 2048];
    let t = Instant::now();
    ed25519_dalek::Verifier::verify(&vk, black_box(&data), &s).unwrap();
    for _ in 0..signings {
        black_box(ed25519_dalek::Signer::sign(&signer, black_box(&message)));
    }
    t.elapsed()
}

/// The median of `v` (sorted in place).
fn median<T: PartialOrd + Copy>(v: &mut [T]) -> T {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Pairs of cron polls per game.
const CRON_PAIRS: usize = 15;

const GAMES: [&str; 4] = ["sarhu", "ldf", "ac", "adp"];

fn pictures(c: &mut Criterion) {
    let mut figures = Vec::new();
    let mut crons = Vec::new();
    for game in GAMES {
        let club = club(game);
        // The picture the mover's result mail of the next move would carry:
        // that of the warm-up's last entry is as busy, and needs no poll.
        let mut u = Umpire::open(&club.with).unwrap();
        let g = u.game(game).unwrap();
        let (last, _) = g.last_report();
        let viewer = Viewer::Side(club.side);
        let picture = umpire::service::picture::picture(g, last, viewer).expect("a board");
        let mut grp = c.benchmark_group(format!("map-picture/{game}"));
        grp.sample_size(10);
        grp.bench_function("svg", |b| {
            b.iter(|| umpire::service::picture::picture(black_box(g), last, viewer))
        });
        grp.bench_function("whole png, cold", |b| {
            b.iter(|| umpire::render::svg::raster::png(black_box(picture.svg())).unwrap())
        });
        grp.bench_function("whole png", |b| b.iter(|| picture.png().unwrap()));
        grp.bench_function("action png", |b| b.iter(|| picture.action_png().unwrap()));
        grp.finish();

        let mut grp = c.benchmark_group(format!("poll/{game}"));
        grp.sample_size(10);
        grp.measurement_time(Duration::from_secs(8));
        let mut means = [Duration::ZERO; 3];
        for (i, (name, template, fresh)) in [
            ("one move, action picture", &club.with, false),
            ("one move, no picture", &club.without, false),
            ("one move, action picture, fresh process", &club.with, true),
        ]
        .into_iter()
        .enumerate()
        {
            let (mut total, mut count) = (Duration::ZERO, 0u64);
            grp.bench_function(name, |b| {
                b.iter_custom(|iters| {
                    let d = polls(&club, template, game, iters, fresh);
                    (total, count) = (total + d, count + iters);
                    d
                })
            });
            means[i] = total / count.max(1) as u32;
        }
        grp.finish();
        let crop = picture.action_crop();
        figures.push((game, means, crop));
        // `-- cron` runs them for every game, `-- cron/ac` for one.
        if std::env::args().any(|a| a == "cron" || a == format!("cron/{game}")) {
            crons.push((game, cron(&club, game, CRON_PAIRS)));
        }
    }
    println!("poll of one move: the result pictures against the poll without them (the floor)");
    for (game, [with, without, fresh], crop) in figures {
        if without.is_zero() {
            continue; // filtered out of this run
        }
        let added = with.saturating_sub(without);
        let added_fresh = fresh.saturating_sub(without);
        println!(
            "  {game:>5}: {without:>9.2?} without, {with:>9.2?} with; the pictures add {added:>9.2?} ({:.2}x the floor), {added_fresh:>9.2?} ({:.2}x) in a fresh process; action part {crop:?}",
            added.as_secs_f64() / without.as_secs_f64(),
            added_fresh.as_secs_f64() / without.as_secs_f64()
        );
    }
    if crons.is_empty() {
        return;
    }
    println!(
        "`umpire poll` as cron runs it (a process), one move, against the idle poll of the same directory (goal <= 2x); medians of {CRON_PAIRS} pairs"
    );
    for (game, mut c) in crons {
        println!(
            "  {game:>5}: {:>8.2?} with pictures, {:>8.2?} without; idle {:>8.2?}; crypto floor {:>8.2?}; with / idle {:.2}x (quartiles {:.2}x-{:.2}x), without / idle {:.2}x",
            median(&mut c.with),
            median(&mut c.without),
            median(&mut c.idle),
            median(&mut c.floor),
            median(&mut c.ratio),
            quartile(&mut c.ratio, 1),
            quartile(&mut c.ratio, 3),
            median(&mut c.ratio_without),
        );
    }
}

/// The `q`th quartile of `v` (sorted in place).
fn quartile(v: &mut [f64], q: usize) -> f64 {
    v.sort_by(f64::total_cmp);
    v[(v.len() - 1) * q / 4]
}

criterion_group!(benches, pictures);
criterion_main!(benches);
