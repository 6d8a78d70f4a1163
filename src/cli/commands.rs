//! Each command: call the library, print, return the exit code.

use super::{Cli, Command, ConfigCommand, DataCommand};
use crate::core::game::{Game, RejectKind};
use crate::core::movefile::armor;
use crate::core::record::Record;
use crate::core::ruleset::Viewer;
use crate::core::sig::{MOVE_NAMESPACE, PublicKey, RESULT_NAMESPACE, SecretKey};
use crate::service::Umpire;
use crate::service::games::NewGame;
use anyhow::{Context, Result, anyhow, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The clock: now, or `UMPIRE_NOW` (RFC 3339) for tests and replays of a day.
pub(super) fn now() -> Result<jiff::Timestamp> {
    match std::env::var("UMPIRE_NOW") {
        Ok(s) => s
            .parse()
            .with_context(|| format!("UMPIRE_NOW={s:?} is not an RFC 3339 time")),
        Err(_) => Ok(jiff::Timestamp::now()),
    }
}

/// Text from players or records made fit for the admin's terminal: control
/// characters (ANSI escapes, bells, C1 controls) and bidirectional overrides
/// are shown as `\u{..}` escapes, never passed raw. Line breaks and tabs stay.
pub(crate) fn safe(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let bidi = matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if (c.is_control() && c != '\n' && c != '\t') || bidi {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn read(path: &Path) -> Result<Vec<u8>> {
    std::fs::read(path).with_context(|| format!("reading {}", path.display()))
}

fn pair(s: &str, what: &str) -> Result<(String, String)> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| anyhow!("{what} {s:?}: write NAME=VALUE"))?;
    Ok((k.trim().to_string(), v.trim().to_string()))
}

fn sig_path(file: &Path) -> PathBuf {
    let mut s = file.as_os_str().to_owned();
    s.push(".sig");
    PathBuf::from(s)
}

/// Opens the data directory, or says how to make one.
fn open(dir: &Path) -> Result<Umpire> {
    require_data_dir(dir)?;
    Ok(Umpire::open(dir)?)
}

/// Fails, pointing to `umpire init`, unless `dir` is a data directory.
pub(super) fn require_data_dir(dir: &Path) -> Result<()> {
    if dir.join("umpire.toml").is_file() {
        return Ok(());
    }
    let what = if dir.is_dir() {
        format!("{} holds no umpire.toml", dir.display())
    } else {
        format!("there is no {}", dir.display())
    };
    bail!(
        "no data directory at {}: {what}. Make one with `umpire init` (`umpire --dir DIR init` for another place), or name the one you made with --dir DIR or UMPIRE_DIR=DIR",
        dir.display()
    )
}

/// Whether `command` works on the data directory (and so needs one), as
/// opposed to the offline tools (keys, signing, checking, verifying).
fn needs_data_dir(command: &Command) -> bool {
    match command {
        Command::Init { .. }
        | Command::Keygen { .. }
        | Command::Sign { .. }
        | Command::Check { .. }
        | Command::Verify { .. }
        | Command::Rulesets { .. }
        | Command::Selfplay { .. }
        | Command::Data { .. }
        | Command::Man { .. }
        | Command::Completions { .. }
        | Command::Demo { .. } => false,
        Command::Show { record, .. } => record.is_empty(),
        Command::Map { game, .. } => !super::pictures::offline(game),
        Command::New(_)
        | Command::Poll { .. }
        | Command::Run { .. }
        | Command::Deliver
        | Command::Record { .. }
        | Command::Import { .. }
        | Command::Upgrade { .. }
        | Command::Admin { .. }
        | Command::Games
        | Command::Compact { .. }
        | Command::Config { .. }
        | Command::Auth { .. }
        | Command::Site { .. } => true,
    }
}

/// Fails unless the data directory holds game `id`, naming the nearest id
/// it does hold (the admin may know of every game).
pub(super) fn known_game(u: &Umpire, id: &str) -> Result<()> {
    let ids = u.game_ids()?;
    if ids.iter().any(|g| g == id) {
        return Ok(());
    }
    let hint = match crate::core::suggest::closest(id, ids.iter().map(String::as_str)) {
        Some(near) => format!("; did you mean {near}?"),
        None => String::new(),
    };
    bail!(
        "no game {} in {}{hint} (`umpire games` lists them)",
        safe(id),
        u.dir().display()
    )
}

/// Reads standard input into a file under the temporary directory (for
/// `verify -`), returning its path.
fn stdin_file() -> Result<PathBuf> {
    let mut buf = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)
        .context("reading standard input")?;
    let p = std::env::temp_dir().join(format!("umpire-stdin-{}.txt", std::process::id()));
    std::fs::write(&p, buf).with_context(|| format!("writing {}", p.display()))?;
    Ok(p)
}

/// Who `umpire show` and `umpire map` draw for: `--side S`, `--umpire`, or
/// by default the public (what every side may see).
pub(super) fn viewer_of(game: &Game, side: Option<&str>, umpire: bool) -> Result<Viewer> {
    Ok(match (side, umpire) {
        (Some(name), _) => Viewer::Side(
            game.side(name)
                .ok_or_else(|| anyhow!("game {} has no side {}", safe(game.id()), safe(name)))?,
        ),
        (None, true) => Viewer::Umpire,
        (None, false) => Viewer::Public,
    })
}

/// `umpire show --record FILE… [--side S | --umpire]`: the whole map and
/// status from a record or the parts a player kept, replayed offline; a
/// side's copy of a hidden game is verified and its latest mail's situation
/// shown.
fn show_record(files: &[PathBuf], side: Option<&str>, umpire: bool) -> Result<i32> {
    let game = match super::offline::load(files, None)? {
        super::offline::Offline::Full(game) => game,
        super::offline::Offline::Copy(copy) => return show_copy(&copy, side, umpire),
    };
    let viewer = viewer_of(&game, side, umpire)?;
    let view = game.ruleset().view(game.state(), viewer);
    for l in &view.status {
        let l = crate::render::templates::wrap(l.clone(), Some(72), Some(2));
        println!("{}", safe(&l));
    }
    if let Some(b) = &view.board {
        let opts = crate::render::map::Options {
            width: 72,
            ..Default::default()
        };
        println!("\n{}", safe(&crate::render::map::full(b, &opts)));
    }
    Ok(0)
}

/// `show --record` on a side's copy of a game that hides information: the
/// copy verified, then the situation its holder's latest result mail gave.
fn show_copy(copy: &super::offline::Copy, side: Option<&str>, umpire: bool) -> Result<i32> {
    let o = copy
        .record
        .opening()
        .ok_or_else(|| anyhow!("the record has no opening"))?;
    let holder = copy.holder();
    if umpire {
        bail!(
            "--umpire: {}; only the full record, mailed to every side when the game ends, shows everything",
            super::offline::COPY_LIMIT
        );
    }
    if let (Some(asked), Some(h)) = (side, holder.as_deref())
        && asked != h
    {
        bail!(
            "--side {}: this is {}'s copy; {}, so it shows only what {} may see",
            safe(asked),
            safe(h),
            super::offline::COPY_LIMIT,
            safe(h)
        );
    }
    println!(
        "Game {} ({} v{}, scenario {}): {}'s copy of the record, {} entries, verified up to its head",
        safe(&o.game),
        safe(&o.ruleset),
        o.ruleset_version,
        safe(&o.scenario),
        safe(holder.as_deref().unwrap_or("a side")),
        copy.record.len()
    );
    println!("  head {}", copy.record.head());
    let (Some(view), Some(situation)) = (&copy.view, copy.situation()) else {
        eprintln!(
            "The position cannot be drawn: {}. Give the folder of your result mails (or the latest mail itself) to see the situation your latest result mail gave.",
            super::offline::COPY_LIMIT
        );
        return Ok(1);
    };
    println!(
        "  the position is not rebuilt: {}; this is the situation\n  the umpire's mail of entry {} gave ({})\n",
        super::offline::COPY_LIMIT,
        view.last,
        safe(&view.name)
    );
    println!("{}", safe(situation));
    Ok(0)
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<i32> {
    let dir = cli.dir.clone();
    if needs_data_dir(&cli.command) {
        // Before any lock or file is opened: the admin's first mistake gets
        // the way out, not an error about a lock file.
        require_data_dir(&dir)?;
    }
    match cli.command {
        Command::Init { address } => init(&dir, &address),
        Command::Keygen { file, comment } => keygen(&file, &comment),
        Command::New(args) => new_game(&dir, args),
        Command::Sign { file, key, armor } => sign(&file, &key, armor),
        Command::Check {
            file,
            record,
            sig,
            data,
        } => check(&file, &record, sig, data.as_deref()),
        Command::Poll { wait } => poll_once(&dir, wait, cli.verbose > 0),
        Command::Run { interval } => run_until_stopped(&dir, interval),
        Command::Deliver => deliver(&dir),
        Command::Config {
            what: ConfigCommand::Check,
        } => config_check(&dir),
        Command::Auth {
            what: super::AuthCommand::Oauth2(a),
        } => super::auth::oauth2(&dir, &a),
        Command::Show {
            record,
            side,
            umpire,
            ..
        } if !record.is_empty() => show_record(&record, side.as_deref(), umpire),
        Command::Show {
            game,
            side,
            full,
            umpire,
            ..
        } => show_game(&dir, &game, side.as_deref(), full, umpire),
        Command::Record { game, side, out } => export_record(&dir, &game, side.as_deref(), out),
        Command::Verify {
            files,
            sig,
            data,
            rolls,
        } if files.len() == 1 && files[0].as_os_str() == "-" => {
            let tmp = stdin_file()?;
            let r = verify(&tmp, sig, data.as_deref(), rolls);
            let _ = std::fs::remove_file(&tmp);
            r
        }
        Command::Verify {
            files,
            sig,
            data,
            rolls,
        } => match files.as_slice() {
            [file] if is_whole_record(file) => verify(file, sig, data.as_deref(), rolls),
            _ => verify_parts(&files, data.as_deref(), rolls),
        },
        Command::Man { install, to } => man(install, to),
        Command::Completions { shell } => {
            std::io::Write::write_all(&mut std::io::stdout(), &super::completions(shell))?;
            Ok(0)
        }
        Command::Import { files } => import(&dir, &files),
        Command::Upgrade {
            game,
            keep,
            move_on,
        } => super::upgrade::run(&dir, game.as_deref(), keep, move_on, now()?),
        Command::Admin { what } => super::admin::run(&dir, what),
        Command::Compact { keep_mail_days } => compact(&dir, keep_mail_days),
        Command::Games => list_games(&dir),
        Command::Rulesets { ruleset } => list_rulesets(ruleset.as_deref()),
        Command::Selfplay {
            ruleset,
            games,
            seed,
            scenario,
            options,
            data,
            save,
        } => selfplay(
            &ruleset,
            games,
            seed,
            &scenario,
            &options,
            data.as_deref(),
            save.as_deref(),
        ),
        Command::Data {
            what: DataCommand::Check { ruleset, files },
        } => data_check(&ruleset, files.as_deref()),
        Command::Map {
            game,
            side,
            umpire,
            out,
            data,
        } => super::pictures::map(&dir, &game, side.as_deref(), umpire, &out, data.as_deref()),
        Command::Site { out } => super::pictures::site(&dir, out.as_deref()),
        Command::Demo { keep } => demo(keep),
    }
}

/// `umpire init`: a data directory with its config and key.
fn init(dir: &Path, address: &str) -> Result<i32> {
    let made = Umpire::init(dir, address)?;
    let u = open(dir)?;
    println!("Data directory {} is ready.", dir.display());
    for m in made {
        println!("  created {m}");
    }
    println!("Umpire key: {}", u.public_key());
    println!(
        "Mail for the umpire goes into {}/new; replies appear in {}.",
        u.path(&u.config().intake.maildir).display(),
        u.path(&u.config().delivery.outbox).display()
    );
    Ok(0)
}

/// `umpire keygen`: a player's ed25519 key pair, never over an existing one.
fn keygen(file: &Path, comment: &str) -> Result<i32> {
    if file.exists() {
        bail!("{} exists; not overwriting a key", file.display());
    }
    let key = SecretKey::generate(comment)?;
    crate::service::write_private(file, &key)?;
    let pub_path = PathBuf::from(format!("{}.pub", file.display()));
    std::fs::write(&pub_path, format!("{}\n", key.public_line()))
        .with_context(|| format!("writing {}", pub_path.display()))?;
    println!("Private key: {}", file.display());
    println!(
        "Public key:  {} ({})",
        pub_path.display(),
        key.public().fingerprint()
    );
    println!("{}", key.public_line());
    Ok(0)
}

/// `umpire new`: a game created and its opening mails queued.
fn new_game(dir: &Path, args: super::NewArgs) -> Result<i32> {
    let super::NewArgs {
        ruleset,
        scenario,
        sides,
        options,
        id,
        deadline,
        grace,
        remind,
        time_zones,
        public,
        open,
        open_all,
    } = args;
    let mut parsed = Vec::new();
    for s in &sides {
        let mut parts = s.splitn(3, '=');
        let (Some(name), Some(email), Some(key)) = (parts.next(), parts.next(), parts.next())
        else {
            bail!("--side {s:?}: write NAME=EMAIL=PUBKEYFILE");
        };
        let key_text = if key.trim_start().starts_with("ssh-") {
            key.to_string()
        } else {
            String::from_utf8(read(Path::new(key))?)
                .with_context(|| format!("{key} is not text"))?
        };
        parsed.push((
            name.to_string(),
            email.to_string(),
            key_text.trim().to_string(),
        ));
    }
    let options = options
        .iter()
        .map(|o| pair(o, "--option"))
        .collect::<Result<BTreeMap<_, _>>>()?;
    let time_zones = time_zones
        .iter()
        .map(|o| pair(o, "--tz"))
        .collect::<Result<BTreeMap<_, _>>>()?;
    let mut u = self::open(dir)?;
    let parsed = super::seats::with_open_seats(&u, &ruleset, &scenario, parsed, &open, open_all)?;
    let deadlines = if deadline.is_some() || grace.is_some() || remind.is_some() {
        let base = u.config().deadlines.clone();
        Some(crate::service::config::Deadlines {
            hours: deadline.unwrap_or(base.hours),
            grace_hours: grace.unwrap_or(base.grace_hours),
            reminders: remind.unwrap_or(base.reminders),
        })
    } else {
        None
    };
    let id = u.create_game(
        NewGame {
            id: id.unwrap_or_default(),
            ruleset,
            scenario,
            options,
            sides: parsed,
            deadlines,
            time_zones,
        },
        now()?,
    )?;
    if public {
        u.set_public(&id, true)?;
    }
    // One opening mail a seated side (counting them, not scanning the outbox).
    let g = u.game(&id)?;
    let n = g.sides().iter().filter(|s| !s.is_open()).count();
    let open_seats = g.open_seats().len();
    println!("{id}");
    eprintln!(
        "Game {id} created; {n} opening mail(s) queued (sent by the next poll or `umpire deliver`)."
    );
    if open_seats > 0 {
        eprintln!(
            "{open_seats} seat(s) open: players join by mail; the game starts once every seat is taken (`umpire admin seats`)."
        );
    }
    Ok(0)
}

/// `umpire sign`: FILE.sig (or an armored block) for a move file that reads.
fn sign(file: &Path, key: &Path, as_armor: bool) -> Result<i32> {
    let text = read(file)?;
    let key_text = String::from_utf8(read(key)?)
        .with_context(|| format!("{} is not a key file", key.display()))?;
    let k = SecretKey::parse(&key_text).with_context(|| format!("reading {}", key.display()))?;
    // Refuse to sign what the umpire would refuse to read.
    if crate::core::seat::is_join(&text) {
        return super::seats::sign_join(file, &text, &k, as_armor);
    }
    let parsed = crate::core::movefile::MoveFile::parse(&text)
        .map_err(|e| anyhow!("{}: {e}", file.display()))?;
    let sig = k.sign(MOVE_NAMESPACE, &text)?;
    if as_armor {
        print!("{}", armor(&text, &sig));
    } else {
        let out = sig_path(file);
        std::fs::write(&out, &sig).with_context(|| format!("writing {}", out.display()))?;
        eprintln!(
            "Signed {} for game {} as {}: attach {} and {}.",
            file.display(),
            parsed.game,
            parsed.side,
            file.display(),
            out.display()
        );
    }
    Ok(0)
}

/// `umpire poll`: one cycle, as cron runs it. At a terminal (or with `-v`)
/// it says what it did; under cron it says nothing unless something fails.
fn poll_once(dir: &Path, wait: u64, verbose: bool) -> Result<i32> {
    let _lock = Umpire::lock(dir, std::time::Duration::from_secs(wait))?;
    let mut u = open(dir)?;
    let mut inbox = u.open_inbox()?;
    let mut outbox = u.open_outbox()?;
    let did = cycle(&mut u, &mut inbox, &mut outbox, now()?)?;
    if verbose || std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        println!("{}", did.summary());
    }
    Ok(0)
}

/// What one poll cycle did.
#[derive(Debug, Default)]
struct Cycled {
    poll: crate::service::poll::PollReport,
    deadlines: crate::service::deadlines::DeadlineReport,
    /// Mails delivered, both before and after the new mail was read.
    sent: usize,
    deferred: usize,
    failed: usize,
    /// Mails still in the outbox at the end.
    waiting: usize,
}

/// `n` and the noun, singular or plural.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl Cycled {
    /// One or two lines for the admin at a terminal: the mails read and what
    /// became of them, then the deadlines' work and the mails sent.
    fn summary(&self) -> String {
        let r = &self.poll;
        let read = if r.mails == 0 {
            "No new mail.".to_string()
        } else {
            let mut what = vec![
                format!("{} accepted", r.accepted),
                format!("{} refused", r.rejected),
            ];
            let extra = [
                (r.commands, "request answered", "requests answered"),
                (
                    r.duplicates,
                    "copy of a file judged before",
                    "copies of files judged before",
                ),
                (r.ignored, "ignored", "ignored"),
                (r.failed, "failed", "failed"),
            ];
            for (n, one, many) in extra {
                if n > 0 {
                    what.push(count(n, one, many));
                }
            }
            format!(
                "Read {}: {}.",
                count(r.mails, "mail", "mails"),
                what.join(", ")
            )
        };
        let d = &self.deadlines;
        let mut out = vec![count(self.sent, "mail sent", "mails sent")];
        let more = [
            (self.deferred, "deferred", "deferred"),
            (self.failed, "failed to send", "failed to send"),
            (
                self.waiting,
                "waiting in the outbox",
                "waiting in the outbox",
            ),
            (d.reminders, "reminder", "reminders"),
            (d.late_notices, "deadline notice", "deadline notices"),
            (d.defaults, "default applied", "defaults applied"),
        ];
        for (n, one, many) in more {
            if n > 0 {
                out.push(count(n, one, many));
            }
        }
        format!("{read}\n{}.", capitalise(&out.join(", ")))
    }
}

/// `s` with its first letter upper case.
fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// `umpire run`: cycles until SIGTERM or Ctrl-C, waiting for mail between
/// them; a server away backs off rather than stopping the umpire.
fn run_until_stopped(dir: &Path, interval: u64) -> Result<i32> {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    signal_hook::flag::register(signal_hook::consts::SIGTERM, stop.clone())?;
    signal_hook::flag::register(signal_hook::consts::SIGINT, stop.clone())?;
    let stopped = || stop.load(std::sync::atomic::Ordering::Relaxed);
    let _lock = Umpire::lock(dir, std::time::Duration::from_secs(30))?;
    let mut u = open(dir)?;
    u.set_stop(stop.clone());
    let mut inbox = u.open_inbox()?;
    let mut outbox = u.open_outbox()?;
    eprintln!(
        "umpire: running on {}; stop with SIGTERM or Ctrl-C.",
        dir.display()
    );
    let mut failures = 0u32;
    while !stopped() {
        let cycled = cycle(&mut u, &mut inbox, &mut outbox, now()?).map(drop);
        u.trim_cache(crate::service::CACHED_GAMES);
        match cycled {
            Ok(()) => failures = 0,
            // A server away is not a reason to stop: try again later.
            Err(e) if is_transient(&e) => {
                failures += 1;
                tracing::warn!(error = %e, "poll failed; retrying");
            }
            Err(e) => return Err(e),
        }
        // Wait for mail (IMAP IDLE where offered), a deadline check, or a signal.
        let pause = std::time::Duration::from_secs(interval.max(1) << failures.min(5));
        let until = std::time::Instant::now() + pause;
        while !stopped() {
            let left = until.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                break;
            }
            match inbox.wait(left.min(std::time::Duration::from_secs(5))) {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => {
                    tracing::warn!(error = %e, "waiting for mail failed");
                    std::thread::sleep(left.min(std::time::Duration::from_secs(5)));
                }
            }
        }
    }
    eprintln!("umpire: stopped.");
    Ok(0)
}

/// `umpire deliver`: the outbox sent.
fn deliver(dir: &Path) -> Result<i32> {
    let _lock = Umpire::lock(dir, std::time::Duration::from_secs(30))?;
    let mut u = open(dir)?;
    let mut outbox = u.open_outbox()?;
    let d = u.deliver(&mut outbox, now()?)?;
    println!(
        "{} sent, {} deferred, {} failed, {} waiting",
        d.sent, d.deferred, d.failed, d.waiting
    );
    Ok(0)
}

/// `umpire config check`: every transport tried; exit 1 on a problem.
fn config_check(dir: &Path) -> Result<i32> {
    let u = open(dir)?;
    let (text, ok) = u.check_transports();
    print!("{text}");
    print!("[retention]\n{}", u.retention_text(now()?));
    println!(
        "{}",
        if ok {
            "configuration ok"
        } else {
            "configuration has problems"
        }
    );
    Ok(if ok { 0 } else { 1 })
}

/// `umpire show GAME`: the status a side or the public sees, or the whole
/// map; `--umpire`: the umpire's status and whole map.
fn show_game(dir: &Path, game: &str, side: Option<&str>, full: bool, umpire: bool) -> Result<i32> {
    let mut u = open(dir)?;
    known_game(&u, game)?;
    let g = u.game(game)?;
    let s = viewer_of(g, side, umpire)?;
    if full || umpire {
        let view = g.ruleset().view(g.state(), s);
        for l in &view.status {
            println!("{}", safe(l));
        }
        if let Some(b) = &view.board {
            let map = crate::render::map::full(b, &Default::default());
            println!("\n{}", safe(&map));
        }
    } else {
        print!("{}", safe(&u.status_text(game, s, now()?)?));
    }
    Ok(0)
}

/// `umpire record`: a game's record (or a side's copy), signed by the umpire when written to a file.
fn export_record(dir: &Path, game: &str, side: Option<&str>, out: Option<PathBuf>) -> Result<i32> {
    let mut u = open(dir)?;
    known_game(&u, game)?;
    let text = u.export(game, side)?;
    match out {
        Some(p) => {
            std::fs::write(&p, &text).with_context(|| format!("writing {}", p.display()))?;
            let sig = u.sign_result(text.as_bytes())?;
            let sp = sig_path(&p);
            std::fs::write(&sp, sig).with_context(|| format!("writing {}", sp.display()))?;
        }
        None => print!("{text}"),
    }
    Ok(0)
}

/// `umpire man`: the manual page printed, or installed with a page for
/// every subcommand.
fn man(install: bool, to: Option<PathBuf>) -> Result<i32> {
    if !install && to.is_none() {
        let page = super::man_page()?;
        std::io::Write::write_all(&mut std::io::stdout(), &page)?;
        return Ok(0);
    }
    let dir = match to {
        Some(d) => d,
        None => std::env::current_exe()
            .ok()
            .and_then(|e| super::default_man_dir(&e))
            .ok_or_else(|| anyhow!("cannot tell where the umpire binary is: pass --to DIR"))?,
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let written = super::write_man_pages(&dir)
        .with_context(|| format!("cannot write the pages into {}", dir.display()))?;
    println!(
        "installed {} and {} more pages (one per subcommand) in {}",
        dir.join("umpire.1").display(),
        written.len().saturating_sub(1),
        dir.display()
    );
    Ok(0)
}

/// `umpire import`: a game restored from its record.
fn import(dir: &Path, files: &[PathBuf]) -> Result<i32> {
    let record = crate::service::segments::gather(files)
        .context("the record cannot be read")?
        .record;
    let _lock = Umpire::lock(dir, std::time::Duration::from_secs(30))?;
    let mut u = open(dir)?;
    let progress = super::progress::Progress::status(format!("importing {} entries", record.len()));
    let imported = u.import(&record, now()?);
    progress.finish();
    let id = imported?;
    println!("{id}");
    eprintln!(
        "Game {id} restored at entry {}; a new dice chain is committed and every side will be told (next poll or `umpire deliver`).",
        record.len() - 1
    );
    Ok(0)
}

/// `umpire games`: one line a game: ruleset, length, what it waits for.
fn list_games(dir: &Path) -> Result<i32> {
    let mut u = open(dir)?;
    let ids = u.game_ids()?;
    if ids.is_empty() {
        println!("No games yet. Create one with `umpire new`.");
    }
    for id in ids {
        let g = u.game(&id)?;
        let p = g.prompt();
        let state = match &p.finished {
            Some(f) => format!("over: {}", f.summary),
            None => format!("{}; waiting for {}", p.stage, g.awaiting_names()),
        };
        let names: Vec<String> = g.sides().iter().map(|s| s.name.clone()).collect();
        let meta = u.meta(&id)?;
        let due: Vec<String> = names
            .iter()
            .filter_map(|n| {
                u.deadline_line(&meta, n, n, now().ok()?)
                    .map(|d| format!("{n} due {d}"))
            })
            .collect();
        let state = if due.is_empty() {
            state
        } else {
            format!("{state}; {}", due.join("; "))
        };
        let state = match &meta.paused {
            Some(_) => format!("PAUSED; {state}"),
            None => state,
        };
        let g = u.game(&id)?;
        let n = g.record().len();
        println!(
            "{id:<20} {:<10} {n:>5} {:<7}  {}",
            g.ruleset().info().name,
            if n == 1 { "entry" } else { "entries" },
            safe(&state)
        );
    }
    Ok(0)
}

/// `umpire rulesets`: each ruleset's scenarios and options.
fn list_rulesets(ruleset: Option<&str>) -> Result<i32> {
    let all = crate::games::all();
    let names: Vec<String> = all.iter().map(|r| r.info().name.to_string()).collect();
    let chosen: Vec<_> = all
        .into_iter()
        .filter(|r| ruleset.is_none_or(|n| r.info().name.eq_ignore_ascii_case(n)))
        .collect();
    if chosen.is_empty() {
        bail!(
            "no ruleset {:?}; the rulesets are {}",
            ruleset.unwrap_or_default(),
            names.join(", ")
        );
    }
    for r in chosen {
        let i = r.info();
        println!("{} (version {}): {}", i.name, i.version, i.title);
        println!("  {}", i.summary);
        for s in &i.scenarios {
            let sides = if s.sides.is_empty() {
                "sides as you declare them".to_string()
            } else {
                format!("sides {}", s.sides.join(", "))
            };
            println!("  scenario {}: {} ({sides})", s.name, s.title);
        }
        for o in &i.options {
            let values = if o.values.is_empty() {
                String::new()
            } else {
                format!(" [{}]", o.values.join("|"))
            };
            println!("  option {}={}{values}: {}", o.name, o.default, o.help);
        }
    }
    Ok(0)
}

/// `umpire demo`: a game played by mail in a throwaway directory.
fn demo(keep: Option<PathBuf>) -> Result<i32> {
    let kept = keep.is_some();
    let dir = match keep {
        Some(d) => d,
        None => {
            let d = std::env::temp_dir().join(format!(
                "umpire-demo-{}-{}",
                std::process::id(),
                now()?.as_second()
            ));
            std::fs::create_dir_all(&d)?;
            d
        }
    };
    let r = crate::service::demo::run(&dir, now()?);
    if !kept {
        // A demo leaves nothing behind unless asked to.
        let _ = std::fs::remove_dir_all(&dir);
    }
    let r = r?;
    println!("{}", r.transcript);
    if kept {
        println!(
            "(The demo's data directory is {}: look around, or run `umpire --dir {} show {}`.)",
            dir.display(),
            dir.display(),
            r.game
        );
    }
    Ok(if r.verified { 0 } else { 1 })
}

/// One poll cycle: deliver what waits, read new mail, check deadlines, deliver.
fn cycle(
    u: &mut Umpire,
    inbox: &mut crate::service::transports::Inbox,
    outbox: &mut crate::service::transports::Outbox,
    n: jiff::Timestamp,
) -> Result<Cycled> {
    // Deliver first: anything left from a run that stopped early goes out before new work.
    let early = u.deliver(outbox, n)?;
    if early.sent + early.deferred + early.failed > 0 {
        tracing::info!(
            sent = early.sent,
            deferred = early.deferred,
            failed = early.failed,
            "delivered what was waiting"
        );
    }
    super::upgrade::report(&u.check_upgrades(false, n)?);
    let r = u.poll(inbox, n)?;
    let dl = u.check_deadlines(n)?;
    u.refresh_site(n);
    let d = u.deliver(outbox, n)?;
    if dl.defaults + dl.reminders + dl.late_notices > 0 {
        tracing::info!(
            reminders = dl.reminders,
            late = dl.late_notices,
            defaults = dl.defaults,
            "deadlines"
        );
    }
    if !r.is_idle() || d.sent > 0 || d.deferred > 0 {
        tracing::info!(
            mails = r.mails,
            accepted = r.accepted,
            refused = r.rejected,
            ignored = r.ignored,
            sent = d.sent,
            deferred = d.deferred,
            "poll done"
        );
    }
    Ok(Cycled {
        sent: early.sent + d.sent,
        deferred: d.deferred,
        failed: early.failed + d.failed,
        waiting: d.waiting,
        poll: r,
        deadlines: dl,
    })
}

fn is_transient(e: &anyhow::Error) -> bool {
    matches!(
        e.downcast_ref::<crate::service::ServiceError>(),
        Some(crate::service::ServiceError::Mail(m)) if m.is_transient()
    )
}

/// The ruleset a record names, over data files in `data` if given.
fn ruleset_for(
    name: &str,
    data: Option<&Path>,
) -> Result<std::sync::Arc<dyn crate::core::ruleset::DynRuleset>> {
    let files = match data {
        Some(d) => crate::service::games::read_data_files(d, name)?,
        None => BTreeMap::new(),
    };
    match crate::games::with_data(name, &files) {
        Ok(Some(r)) => Ok(r),
        Ok(None) => bail!("the record is a {name} game; this umpire has no such ruleset"),
        Err(p) => bail!("the data files are not valid: {}", p.join("; ")),
    }
}

/// The text of a record file, inflated if it is compressed (a long game's
/// `record.txt.gz`; `service::gzip`).
pub(super) fn record_text(path: &Path) -> Result<String> {
    use crate::service::gzip::ReadError;
    crate::service::gzip::read_text(path).map_err(|e| match e {
        ReadError::Io(_, source) => {
            anyhow::Error::new(source).context(format!("reading {}", path.display()))
        }
        e => anyhow!(e),
    })
}

/// A record file read and parsed, with its text (for the umpire's signature
/// over it).
pub(super) fn read_record(path: &Path) -> Result<(Record, String)> {
    let text = record_text(path)?;
    let record = Record::from_text(&text)
        .with_context(|| format!("{} is not a valid record", path.display()))?;
    Ok((record, text))
}

/// Replays and verifies a whole record, over data files in `data` if given.
pub(super) fn replay_record(
    record: Record,
    data: Option<&Path>,
) -> Result<(Game, crate::core::game::ReplaySummary)> {
    let opening = record
        .opening()
        .ok_or_else(|| anyhow!("no opening entry"))?;
    let ruleset = ruleset_for(&opening.ruleset, data)?;
    let progress = replay_status(&record);
    let replayed = Game::verify_only(ruleset, record);
    progress.finish();
    Ok(replayed?)
}

/// The status line shown (on a terminal) while a record replays.
fn replay_status(record: &Record) -> super::progress::Progress {
    super::progress::Progress::status(format!("replaying and verifying {} entries", record.len()))
}

/// Audits a side's copy: everything it can check without the openings it lacks.
fn verify_copy(file: &Path, record: &Record) -> Result<i32> {
    let o = record.opening().ok_or_else(|| anyhow!("no opening"))?;
    let s = match crate::core::audit::audit(record) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("FAILED: {}: {}", file.display(), safe(&e.to_string()));
            return Ok(1);
        }
    };
    println!(
        "Game {} ({} v{}, scenario {}): a side's copy of the record",
        safe(&o.game),
        safe(&o.ruleset),
        o.ruleset_version,
        safe(&o.scenario)
    );
    println!(
        "  {} entries linked and hashed, {} signatures checked, {} openings checked",
        s.entries, s.signatures_checked, s.openings_checked
    );
    println!(
        "  {} public and {} of your hidden rolls re-derived from their committed streams",
        s.public_rolls_verified, s.hidden_rolls_verified
    );
    if s.disclosures_checked > 0 {
        println!(
            "  {} hidden rolls disclosed early, each matching the commitment made when it was rolled",
            s.disclosures_checked
        );
    }
    println!(
        "  {} sealed items held as commitments and {} rolls not checkable yet: they verify when the full record opens at the end",
        s.sealed_items, s.rolls_unchecked
    );
    println!("  head {}", record.head());
    Ok(0)
}

/// `umpire verify FILE`: one record file (plain or compressed), read and
/// parsed once; a whole record is replayed, a side's copy audited.
fn verify(file: &Path, sig: Option<PathBuf>, data: Option<&Path>, rolls: bool) -> Result<i32> {
    let failed = |e: anyhow::Error| {
        eprintln!("FAILED: {}", safe(&super::error_text(&e)));
        Ok(1)
    };
    let (record, text) = match read_record(file) {
        Ok(x) => x,
        Err(e) => return failed(e),
    };
    if !record.is_complete() {
        let code = verify_copy(file, &record)?;
        if code != 0 {
            return Ok(code);
        }
        if rolls {
            print_rolls(&record, data)?;
        }
        return verify_signature_only(file, sig, &record, &text);
    }
    let (game, s) = match replay_record(record, data) {
        Ok(x) => x,
        Err(e) => return failed(anyhow!("{}: {e}", file.display())),
    };
    let record = game.record();
    print_replay(&game, &s, record)?;
    if rolls {
        print_rolls(record, data)?;
    }
    let sig_file = sig.or_else(|| Some(record_sig_path(file)).filter(|p| p.exists()));
    if let Some(p) = sig_file {
        let armored =
            String::from_utf8(read(&p)?).with_context(|| format!("{} is not text", p.display()))?;
        let key = head_umpire_key(record)?;
        match key.verify(RESULT_NAMESPACE, text.as_bytes(), &armored) {
            Ok(()) => println!(
                "  signed by the umpire's key {} ({})",
                key.fingerprint(),
                p.display()
            ),
            Err(e) => {
                eprintln!("FAILED: {}: {e}", p.display());
                return Ok(1);
            }
        }
    }
    println!("record verified");
    Ok(0)
}

/// The umpire key that signs the record as it stands: the opening's, or the
/// one the game was handed to when it moved to another umpire.
fn head_umpire_key(record: &Record) -> Result<PublicKey> {
    let head = (record.len() as u64).saturating_sub(1);
    let key = record
        .umpire_key_at(head)
        .ok_or_else(|| anyhow!("the record names no umpire key"))?;
    Ok(PublicKey::parse(key)?)
}

/// The umpire's signature beside a record file: `FILE.sig`, or for a
/// compressed `record.txt.gz` the `record.txt.sig` its mail carried.
fn record_sig_path(file: &Path) -> PathBuf {
    crate::service::gzip::sig_path(file)
}

/// Is `file` one whole record (not a segment, a mail or a folder), plain or
/// compressed?
pub(super) fn is_whole_record(file: &Path) -> bool {
    let head = crate::service::gzip::head(file, 64);
    head.starts_with(crate::core::record::MAGIC.as_bytes())
        && !head.starts_with(crate::core::segment::SEGMENT_MAGIC.as_bytes())
}

/// Verifies a record assembled from a player's parts: segments, mails, folders.
fn verify_parts(files: &[PathBuf], data: Option<&Path>, rolls: bool) -> Result<i32> {
    let g = match crate::service::segments::gather(files) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("FAILED: {}", safe(&e.to_string()));
            return Ok(1);
        }
    };
    println!(
        "Assembled from {} parts ({} signed by the umpire)",
        g.parts, g.signed
    );
    let signed = |g: &crate::service::segments::Gathered| match g.fingerprints.as_slice() {
        [] => {}
        [fp] => println!("  signed by the umpire's key {fp} ({} parts)", g.signed),
        fps => println!(
            "  signed by the umpire's keys {} in turn, as the game moved between umpires ({} parts)",
            fps.join(", then "),
            g.signed
        ),
    };
    if !g.record.is_complete() {
        let code = verify_copy(&files[0], &g.record)?;
        if code == 0 {
            if rolls {
                print_rolls(&g.record, data)?;
            }
            signed(&g);
            println!("record copy verified");
        }
        return Ok(code);
    }
    let o = g.record.opening().ok_or_else(|| anyhow!("no opening"))?;
    let ruleset = ruleset_for(&o.ruleset, data)?;
    let progress = replay_status(&g.record);
    let replayed = Game::verify_only(ruleset, g.record.clone());
    progress.finish();
    let (game, s) = match replayed {
        Ok(x) => x,
        Err(e) => {
            eprintln!("FAILED: {}", safe(&e.to_string()));
            return Ok(1);
        }
    };
    print_replay(&game, &s, &g.record)?;
    if rolls {
        print_rolls(&g.record, data)?;
    }
    signed(&g);
    println!("record verified");
    Ok(0)
}

/// What a verified replay found.
fn print_replay(game: &Game, s: &crate::core::game::ReplaySummary, record: &Record) -> Result<()> {
    let o = record.opening().ok_or_else(|| anyhow!("no opening"))?;
    println!(
        "Game {} ({} v{}, scenario {})",
        safe(&o.game),
        safe(&o.ruleset),
        o.ruleset_version,
        safe(&o.scenario)
    );
    println!(
        "  {} entries: {} moves, {} defaults, {} refusals, {} reveals",
        s.entries, s.moves, s.defaults, s.rejected, s.reveals
    );
    println!(
        "  {} move signatures checked, {} rolls re-derived from revealed secrets",
        s.signatures_checked, s.rolls_verified
    );
    if s.rolls_unverified > 0 {
        println!(
            "  {} rolls not yet checkable: their secrets are revealed after the current round",
            s.rolls_unverified
        );
    }
    println!("  head {}", record.head());
    match &game.prompt().finished {
        Some(f) => println!("  game over: {}", safe(&f.summary)),
        None => println!(
            "  now: {}; waiting for {}",
            safe(&game.prompt().stage),
            safe(&game.awaiting_names())
        ),
    }
    Ok(())
}

/// `verify --rolls`: every roll the record shows, entry by entry, its label
/// in the words the mails use with the label itself in brackets
/// (`roll_title`), so a verifier reads what each die was for and can still
/// match it against the record. A roll sealed to other sides (a side's copy)
/// is counted, not shown.
fn print_rolls(record: &Record, data: Option<&Path>) -> Result<()> {
    use crate::core::record::Body;
    let o = record.opening().ok_or_else(|| anyhow!("no opening"))?;
    let ruleset = ruleset_for(&o.ruleset, data)?;
    println!("  rolls, entry by entry:");
    let mut sealed = 0usize;
    let mut shown = 0usize;
    for e in record.entries() {
        let (who, rolls) = match &e.body {
            Body::Move(m) => (format!("{}'s move", m.side), &m.rolls),
            Body::Default(d) => (format!("{}'s default", d.side), &d.rolls),
            Body::Round(r) => ("the sealed orders".to_string(), &r.rolls),
            _ => continue,
        };
        for roll in rolls {
            let Some(x) = roll.value() else {
                sealed += 1;
                continue;
            };
            shown += 1;
            let title = crate::core::ruleset::roll_title(ruleset.as_ref(), &x.label);
            let hidden = if x.audience.is_public() {
                ""
            } else {
                " (secret)"
            };
            let item = x
                .item
                .as_deref()
                .map(|i| format!(": drew {i}"))
                .unwrap_or_default();
            println!(
                "    entry {}, {}: {} on a d{}{hidden}, {}{}",
                e.seq,
                safe(&who),
                x.value,
                x.sides,
                safe(&title),
                safe(&item)
            );
        }
    }
    if shown == 0 {
        println!("    none");
    }
    if sealed > 0 {
        println!("    and {sealed} rolls sealed to other sides, not shown");
    }
    Ok(())
}

/// Checks the umpire's signature over a record file, if there is one.
fn verify_signature_only(
    file: &Path,
    sig: Option<PathBuf>,
    record: &Record,
    text: &str,
) -> Result<i32> {
    let sig_file = sig.or_else(|| Some(record_sig_path(file)).filter(|p| p.exists()));
    if let Some(p) = sig_file {
        let armored =
            String::from_utf8(read(&p)?).with_context(|| format!("{} is not text", p.display()))?;
        let key = head_umpire_key(record)?;
        if let Err(e) = key.verify(RESULT_NAMESPACE, text.as_bytes(), &armored) {
            eprintln!("FAILED: {}: {e}", p.display());
            return Ok(1);
        }
        println!(
            "  signed by the umpire's key {} ({})",
            key.fingerprint(),
            p.display()
        );
    }
    println!("record copy verified");
    Ok(0)
}

/// `umpire check MOVE --record …`: what the umpire would make of a move, up
/// to its first roll, from the record or the parts a player kept.
fn check(
    file: &Path,
    record: &[PathBuf],
    sig: Option<PathBuf>,
    data: Option<&Path>,
) -> Result<i32> {
    let text = read(file)?;
    let sig_file = sig.or_else(|| Some(sig_path(file)).filter(|p| p.exists()));
    let sig_text = match &sig_file {
        Some(p) => Some(
            String::from_utf8(read(p)?).with_context(|| format!("{} is not text", p.display()))?,
        ),
        None => None,
    };
    let game = match super::offline::load(record, data)? {
        super::offline::Offline::Full(game) => game,
        super::offline::Offline::Copy(copy) => {
            return check_against_copy(file, &text, sig_text.as_deref(), &copy.record);
        }
    };
    match game.check(&text, sig_text.as_deref()) {
        Ok(r) => {
            println!(
                "{}: {}'s move in game {} ({})",
                file.display(),
                game.sides()[r.side.index()].name,
                game.id(),
                game.prompt().stage
            );
            for o in &r.orders {
                println!("  line {}: {}", o.source.line, safe(&o.source.text));
                match &o.outcome {
                    Ok(events) => events
                        .iter()
                        .for_each(|e| println!("      {}", safe(&e.text))),
                    Err(e) => println!("      would not be carried out: {}", safe(&e.to_string())),
                }
            }
            if let Some(at) = &r.stopped_at {
                println!("  from here the outcome depends on the dice: {at}");
                println!("  (the rolls are drawn only when the umpire accepts the move)");
            }
            match r.signature {
                Some(Ok(())) => println!("  signature: good"),
                Some(Err(e)) => {
                    println!("  signature: BAD: {}", e.reason);
                    return Ok(1);
                }
                None => println!(
                    "  signature: not checked (no {} found)",
                    sig_path(file).display()
                ),
            }
            println!("The umpire would accept this move.");
            Ok(0)
        }
        Err(r) => {
            println!("The umpire would REFUSE this move: {}", safe(&r.reason));
            if let Some(l) = r.line {
                println!("  line {}: {}", l.line, safe(&l.text));
            }
            if r.kind == RejectKind::Stale {
                println!("  (check against the record from your latest result mail)");
            }
            Ok(1)
        }
    }
}

/// `check` against a side's copy of a game that hides information: the copy
/// cannot be replayed (other sides' items are sealed), so this checks what it
/// can: the copy itself, the move file's form, its game, side and signature,
/// and that it follows the copy's latest entry. The umpire checks the orders.
fn check_against_copy(file: &Path, text: &[u8], sig: Option<&str>, copy: &Record) -> Result<i32> {
    if let Err(e) = crate::core::audit::audit(copy) {
        println!("Your record copy does not check: {}", safe(&e.to_string()));
        return Ok(1);
    }
    let o = copy.opening().ok_or_else(|| anyhow!("no opening"))?;
    let refuse = |why: String| {
        println!("The umpire would REFUSE this move: {}", safe(&why));
        Ok(1)
    };
    let m = match crate::core::movefile::MoveFile::parse(text) {
        Ok(m) => m,
        Err(e) => return refuse(e.to_string()),
    };
    if m.game != o.game {
        return refuse(format!(
            "it names game {}, the record is game {}",
            m.game, o.game
        ));
    }
    let Some(decl) = o.sides.iter().find(|s| s.name == m.side) else {
        let names: Vec<&str> = o.sides.iter().map(|s| s.name.as_str()).collect();
        return refuse(format!(
            "no side {}; the sides are {}",
            m.side,
            names.join(", ")
        ));
    };
    println!(
        "{}: {}'s move in game {} ({} orders), checked against a side's copy",
        file.display(),
        safe(&m.side),
        safe(&o.game),
        m.orders.len()
    );
    match sig {
        Some(sig) => match PublicKey::parse(&decl.key)?.verify(MOVE_NAMESPACE, text, sig) {
            Ok(()) => println!("  signature: good ({}'s key)", safe(&m.side)),
            Err(e) => {
                println!("  signature: BAD: {e}");
                return Ok(1);
            }
        },
        None => println!(
            "  signature: not checked (no {} found)",
            sig_path(file).display()
        ),
    }
    let head = copy.head();
    match m.after {
        Some(a) if a == head => println!("  follows the copy's latest entry"),
        Some(a) => match copy.entries().iter().find(|e| e.hash == a) {
            Some(e) => println!(
                "  follows entry {}, but the copy goes on to entry {}: the umpire may refuse it as stale",
                e.seq,
                copy.len() - 1
            ),
            None => return refuse(format!("after: {a} is no entry of this record")),
        },
        None => println!("  names no `after:` entry"),
    }
    println!(
        "  the orders are not checked offline: this copy holds other sides' items sealed, so the\n  game's state cannot be rebuilt from it; the umpire checks them when the move arrives"
    );
    Ok(0)
}

fn compact(dir: &Path, keep_days: Option<u32>) -> Result<i32> {
    let _lock = Umpire::lock(dir, std::time::Duration::from_secs(30))?;
    let mut u = Umpire::open(dir)?;
    let keep_days = keep_days.unwrap_or(u.config().retention.keep_mail_days);
    let c = u.compact(keep_days, now()?)?;
    println!(
        "dropped {} raw mail(s) handled over {keep_days} days ago, kept {}; forgot {} join key(s) of past days and finished games; database {} -> {}",
        c.dropped,
        c.kept,
        c.swept,
        human_bytes(c.bytes_before),
        human_bytes(c.bytes_after)
    );
    Ok(0)
}

fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 20 => format!("{:.1} MiB", n as f64 / f64::from(1 << 20)),
        n if n >= 1 << 10 => format!("{:.1} KiB", n as f64 / f64::from(1 << 10)),
        n => format!("{n} B"),
    }
}

fn selfplay(
    ruleset: &str,
    games: u32,
    seed: u64,
    scenario: &str,
    options: &[String],
    data: Option<&Path>,
    save: Option<&Path>,
) -> Result<i32> {
    let r = ruleset_for(ruleset, data)?;
    let info = r.info();
    if let Some(dir) = save {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut saved: Result<()> = Ok(());
    let scenario = if scenario.is_empty() {
        info.scenarios
            .first()
            .map(|s| s.name.clone())
            .unwrap_or_default()
    } else {
        scenario.to_string()
    };
    let options = options
        .iter()
        .map(|o| pair(o, "--option"))
        .collect::<Result<BTreeMap<_, _>>>()?;
    let start = std::time::Instant::now();
    let mut progress = super::progress::Progress::new(format!("selfplay {ruleset}"), games.into());
    let played = crate::core::selfplay::run_observed(
        r,
        &scenario,
        &options,
        games,
        seed,
        &crate::core::selfplay::SelfPlayConfig::default(),
        &mut |s, game| {
            progress.set(s.games.into());
            if let (Some(dir), Ok(())) = (save, &saved) {
                let out = dir.join(format!("{ruleset}-{seed}-{}.record", s.games - 1));
                saved = std::fs::write(&out, game.record().to_text())
                    .with_context(|| format!("writing {}", out.display()));
            }
        },
    );
    progress.finish();
    saved?;
    match played {
        Ok(s) => {
            println!(
                "{games} games of {} ({scenario}) in {:.1?}: {} signed moves, {} defaults, {} rolls, {} orders not carried out; every record replayed and verified",
                info.name,
                start.elapsed(),
                s.moves,
                s.defaults,
                s.rolls,
                s.not_carried_out
            );
            for (who, n) in &s.results {
                println!("  {who}: {n}");
            }
            Ok(0)
        }
        Err(f) => {
            eprintln!("FAILED: {f}");
            let out =
                std::env::temp_dir().join(format!("umpire-selfplay-{}-{}.txt", f.game, f.seed));
            if std::fs::write(&out, &f.record).is_ok() {
                eprintln!("the record so far is in {}", out.display());
            }
            Ok(1)
        }
    }
}

fn data_check(ruleset: &str, files: Option<&Path>) -> Result<i32> {
    let files = match files {
        Some(d) => crate::service::games::read_data_files(d, ruleset)?,
        None => BTreeMap::new(),
    };
    match crate::games::check_data(ruleset, &files) {
        Ok(lines) => {
            println!("{ruleset}: data ok");
            for l in lines {
                println!("  {l}");
            }
            Ok(0)
        }
        Err(problems) => {
            eprintln!("{ruleset}: {} problem(s) in the data:", problems.len());
            for p in problems {
                eprintln!("  {p}");
            }
            Ok(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_poll_summary_says_what_was_read_and_sent() {
        let mut c = Cycled::default();
        assert_eq!(c.summary(), "No new mail.\n0 mails sent.");
        c.poll.mails = 3;
        c.poll.accepted = 1;
        c.poll.rejected = 1;
        c.poll.ignored = 1;
        c.sent = 4;
        c.deadlines.reminders = 1;
        assert_eq!(
            c.summary(),
            "Read 3 mails: 1 accepted, 1 refused, 1 ignored.\n4 mails sent, 1 reminder."
        );
    }
}
