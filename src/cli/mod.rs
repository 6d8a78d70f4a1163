//! The command line: parse, call the library, print, exit code.
//! Exit codes: 0 ok, 1 invalid input or failed verification, 2 usage,
//! 75 (`EX_TEMPFAIL`) a temporary failure worth retrying (a mail server
//! down, another umpire process holding the data directory).

mod admin;
mod auth;
mod commands;
mod manual;
mod offline;
mod pictures;
mod progress;
mod seats;
mod upgrade;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// A play-by-email adjudicator for board wargames: signed moves, verifiable
/// dice, a record anyone can replay.
#[derive(Debug, Parser)]
#[command(name = "umpire", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// The data directory (umpire.toml, keys, database, Maildir, outbox), as
    /// `umpire init` makes it.
    #[arg(
        long,
        short = 'd',
        global = true,
        env = "UMPIRE_DIR",
        default_value = "umpire-data"
    )]
    pub dir: PathBuf,
    /// More output (-v: `poll` says what it did even under cron, and logs one
    /// line per mail; -vv: debug).
    #[arg(long, short = 'v', global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Create a data directory on embedded defaults (local Maildir, file outbox, embedded database).
    Init {
        /// The umpire's mail address.
        #[arg(long, default_value = "umpire@localhost")]
        address: String,
    },
    /// Make an OpenSSH ed25519 key pair for signing moves.
    Keygen {
        /// Where to write the private key (the public key goes to FILE.pub).
        #[arg(short = 'f', long = "file", default_value = "umpire_ed25519")]
        file: PathBuf,
        /// Comment stored in the key, usually your mail address.
        #[arg(short = 'C', long, default_value = "")]
        comment: String,
    },
    /// Create a game and mail the opening to every side; prints the game id.
    New(NewArgs),
    /// Sign a move file with your key (writes FILE.sig, as ssh-keygen -Y sign does).
    Sign {
        /// The move file.
        file: PathBuf,
        /// Your OpenSSH ed25519 private key.
        #[arg(long, short = 'k', default_value = "umpire_ed25519")]
        key: PathBuf,
        /// Print an armored block to paste into a mail body instead of writing FILE.sig.
        #[arg(long)]
        armor: bool,
    },
    /// Check a move offline against the game's record: what it would do, up
    /// to the first roll. On a side's copy of a game that hides information
    /// (other sides' items sealed) the orders cannot be checked offline: the
    /// move's form, game, side, signature and `after:` line are.
    Check {
        /// The move file.
        file: PathBuf,
        /// The game's record: the record.txt of a result mail, or the parts you
        /// kept (repeat: record.txt, record-A-B.txt segments), or the folder,
        /// Maildir or mbox of the game's mails.
        #[arg(long, short = 'r', required = true)]
        record: Vec<PathBuf>,
        /// The signature to check too (default: FILE.sig if it exists).
        #[arg(long)]
        sig: Option<PathBuf>,
        /// A folder of the game's data files, if the club replaced the built-in ones.
        #[arg(long)]
        data: Option<PathBuf>,
    },
    /// One poll: read new mail, adjudicate, record, reply, deliver. For cron.
    Poll {
        /// Seconds to wait for another running poll before giving up.
        #[arg(long, default_value_t = 30)]
        wait: u64,
    },
    /// Poll in a loop until SIGTERM or SIGINT.
    Run {
        /// Seconds between polls.
        #[arg(long, default_value_t = 60)]
        interval: u64,
    },
    /// Deliver what waits in the outbox.
    Deliver,
    /// Show a game's situation: as one side sees it (`--side`), as every
    /// side may (the default: what observers and the game's page get), or
    /// everything the umpire knows (`--umpire`, for the admin's eyes alone);
    /// with --record, offline from the record, no data directory needed. A
    /// side's copy of a game that hides information cannot be replayed (other
    /// sides' items are sealed): it is verified, and the situation shown is the
    /// one your latest result mail among the files gave, at the copy's head.
    Show {
        /// The game id (not needed with --record).
        #[arg(required_unless_present = "record", default_value = "")]
        game: String,
        /// Draw from the record instead: the record.txt of a result mail, or
        /// the parts you kept (repeat: record.txt, record-A-B.txt segments), or
        /// the folder, Maildir or mbox of the game's mails.
        #[arg(long, short = 'r')]
        record: Vec<PathBuf>,
        /// The side whose view to show.
        #[arg(long)]
        side: Option<String>,
        /// Everything the umpire knows (hands, fogged stacks, treasuries):
        /// the status and whole map, never to be mailed or published.
        #[arg(long, conflicts_with = "side")]
        umpire: bool,
        /// The whole map instead of a snippet.
        #[arg(long)]
        full: bool,
    },
    /// Export a game's record (to stdout or a file): the full record, or the
    /// copy one side may hold (`--side`).
    Record {
        game: String,
        /// Export this side's copy: sealed items it may not see keep only their commitments.
        #[arg(long)]
        side: Option<String>,
        /// Write to this file instead of stdout, with the umpire's signature in FILE.sig.
        #[arg(long, short = 'o')]
        out: Option<PathBuf>,
    },
    /// Restore a game from its record (after losing the store, or to move it to
    /// this umpire); a new dice chain is committed and every side is told.
    Import {
        /// The record: one file, or the parts a player kept (record.txt and
        /// record-A-B.txt segments, or the folder, Maildir or mbox of its mails).
        #[arg(required = true, num_args = 1..)]
        files: Vec<PathBuf>,
    },
    /// Verify a record offline: every link, signature, roll and refusal.
    Verify {
        /// The record file, or several parts of it: record.txt and the
        /// record-A-B.txt segments of later mails, or the folder, Maildir or mbox
        /// holding the game's mails (`-`: read one record from standard input).
        #[arg(required = true, num_args = 1..)]
        files: Vec<PathBuf>,
        /// The umpire's signature over it (default: FILE.sig if it exists).
        #[arg(long)]
        sig: Option<PathBuf>,
        /// A folder of the game's data files, if the club replaced the built-in ones.
        #[arg(long)]
        data: Option<PathBuf>,
        /// Also list every roll the record shows, entry by entry: its value, its
        /// die and what it was for in words, with the label the record keeps in
        /// brackets (rolls sealed to other sides are counted, not shown).
        #[arg(long)]
        rolls: bool,
    },
    /// After installing a new umpire: check the running games under the new
    /// rulesets. A game whose every entry replays the same moves on by itself
    /// (each poll does this too); for one that differs, decide here.
    Upgrade {
        /// One game (default: every running game).
        game: Option<String>,
        /// Keep the game on the version it was played under.
        #[arg(long, conflicts_with = "move_on", requires = "game")]
        keep: bool,
        /// Move the game on to the new version from its position now, although
        /// its replay differs; every side is told.
        #[arg(long, requires = "game")]
        move_on: bool,
    },
    /// Run the club's games: pause, resume, extend a deadline, replace a key or address, end a game, observers.
    Admin {
        #[command(subcommand)]
        what: admin::AdminCommand,
    },
    /// List the games.
    Games,
    /// Drop raw mails past their retention and compact the database (the poll
    /// does it weekly by itself: `[retention]` in umpire.toml).
    Compact {
        /// Days a raw mail is kept after it was handled (default: `[retention]
        /// keep_mail_days`, 90). What it did stays in the ledger and every move
        /// in its game's record; only the raw copy goes.
        #[arg(long)]
        keep_mail_days: Option<u32>,
    },
    /// List the rulesets, their scenarios and options (`umpire rules ldf`: one
    /// ruleset's; the games' errors point here).
    #[command(visible_alias = "rules")]
    Rulesets {
        /// Only this ruleset (ldf, ac, adp, sarhu, freeform).
        ruleset: Option<String>,
    },
    /// Play random legal games to the end, checking invariants and replay.
    Selfplay {
        ruleset: String,
        #[arg(long, default_value_t = 10)]
        games: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "")]
        scenario: String,
        #[arg(long = "option", short = 'o')]
        options: Vec<String>,
        /// A folder of the game's data files, if the club replaced the built-in ones.
        #[arg(long)]
        data: Option<PathBuf>,
        /// Write each game's full record to this folder (`RULESET-SEED-N.record`),
        /// for `umpire verify`, a bug report or a golden-record test.
        #[arg(long)]
        save: Option<PathBuf>,
    },
    /// Get the first OAuth2 refresh token for a club mailbox at Gmail,
    /// Microsoft 365 or another provider, and write it owner-only.
    Auth {
        #[command(subcommand)]
        what: AuthCommand,
    },
    /// Configuration tools.
    Config {
        #[command(subcommand)]
        what: ConfigCommand,
    },
    /// Game data tools.
    Data {
        #[command(subcommand)]
        what: DataCommand,
    },
    /// Print the manual page (roff) on standard output: the commands, the move
    /// format, standing orders, mail commands, exit status and examples; or
    /// install it with a page for every subcommand (`--install`, `--to DIR`).
    Man {
        /// Write `umpire.1` and the subcommands' pages (`umpire-poll.1`, ...)
        /// beside the binary, in `BIN/../share/man/man1/`, where `man` finds
        /// them for a binary on the PATH (so after `cargo install`, `umpire man
        /// --install` makes `man umpire` and `man umpire-poll` work).
        #[arg(long)]
        install: bool,
        /// Write the pages into this directory instead (implies --install).
        #[arg(long, value_name = "DIR")]
        to: Option<PathBuf>,
    },
    /// Print a shell completion script: `umpire completions bash > /etc/bash_completion.d/umpire`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Draw a game's map as SVG or PNG (by the file name), as one side sees it.
    /// From a side's copy of a game that hides information (other sides'
    /// items sealed) the map cannot be drawn anew: the picture your latest
    /// result mail among the files carried is written (PNG only).
    Map {
        /// A game id; or, offline, the record: a record file, the parts you
        /// kept (record.txt, record-A-B.txt segments), or the folder, Maildir
        /// or mbox of the game's mails.
        #[arg(required = true, num_args = 1..)]
        game: Vec<String>,
        /// The side whose view to draw (default: what every side may see).
        #[arg(long)]
        side: Option<String>,
        /// Everything the umpire knows, for the admin's eyes alone.
        #[arg(long, conflicts_with = "side")]
        umpire: bool,
        /// The picture to write: map.svg or map.png.
        #[arg(long, short = 'o')]
        out: PathBuf,
        /// A folder of the game's data files, if the club replaced the built-in ones.
        #[arg(long)]
        data: Option<PathBuf>,
    },
    /// Write the public games' pages (static HTML, no scripts) for the club's web server.
    Site {
        /// The folder to write (default: umpire.toml's [site] out).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Run the whole pipeline in a fresh temporary data directory and print the
    /// mails; the directory is removed afterwards unless --keep names one.
    Demo {
        /// Use this directory instead of a new temporary one.
        #[arg(long)]
        keep: Option<PathBuf>,
    },
}

/// What `umpire new` is given.
#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The ruleset (see `umpire rulesets`).
    pub ruleset: String,
    /// The scenario.
    #[arg(long, short = 's')]
    pub scenario: String,
    /// A side as NAME=EMAIL=PUBKEY, where PUBKEY is a .pub file or an `ssh-ed25519 AAAA…` line. Repeat per side, in order.
    #[arg(long = "side", required_unless_present_any = ["open", "open_all"])]
    pub sides: Vec<String>,
    /// Leave SIDE's seat open: a player takes it by mailing a signed join. The game starts once every seat is taken. Repeatable.
    #[arg(long = "open")]
    pub open: Vec<String>,
    /// Leave every seat not given by --side open.
    #[arg(long)]
    pub open_all: bool,
    /// A ruleset option as NAME=VALUE. Repeatable.
    #[arg(long = "option", short = 'o')]
    pub options: Vec<String>,
    /// The game id (default: made from the ruleset name and the time).
    #[arg(long)]
    pub id: Option<String>,
    /// Hours each side has for a move (0: no deadlines). Default: umpire.toml's [deadlines].
    #[arg(long)]
    pub deadline: Option<u32>,
    /// Hours of grace after a deadline before the default applies.
    #[arg(long)]
    pub grace: Option<u32>,
    /// Reminders, in hours before the deadline, e.g. 48,24,6.
    #[arg(long, value_delimiter = ',')]
    pub remind: Option<Vec<u32>>,
    /// A side's time zone for its deadlines, as SIDE=Area/City. Repeatable.
    #[arg(long = "tz")]
    pub time_zones: Vec<String>,
    /// Put the game's page on the club's site (`umpire site`): map, log and public record.
    #[arg(long)]
    pub public: bool,
}

/// `umpire config …`
#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Read umpire.toml and connect to the mail servers, reporting exactly what fails.
    Check,
}

/// `umpire auth …`
#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// OAuth2 consent: the device flow (Microsoft) or the browser with a
    /// loopback redirect (Gmail); writes the refresh token to [oauth2]
    /// oauth2_file.
    Oauth2(auth::OAuth2Args),
}

/// `umpire data …`
#[derive(Debug, Subcommand)]
pub enum DataCommand {
    /// Validate a ruleset's game data (counts, adjacency, provenance tags).
    Check {
        ruleset: String,
        /// A folder of replacement data files to check instead of the built-in ones.
        #[arg(long)]
        files: Option<PathBuf>,
    },
}

/// Parses arguments, runs, returns the exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let level = match cli.verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("UMPIRE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(format!("umpire={level}")));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
    match commands::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("umpire: {}", commands::safe(&error_text(&e)));
            exit_code(&e)
        }
    }
}

/// An error and its causes on one line, each said once: a cause whose text
/// the line already holds (an error written `"{what}: {source}"` that also
/// names `source` as its cause) is not repeated.
pub fn error_text(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if text.is_empty() || out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// `EX_TEMPFAIL` (sysexits.h): try again later.
pub const EX_TEMPFAIL: i32 = 75;

/// The exit code for an error: 75 for what a cron wrapper should simply
/// retry (a mail server unreachable, the data directory busy), else 1.
pub fn exit_code(e: &anyhow::Error) -> i32 {
    use crate::mail::MailError;
    use crate::service::ServiceError;
    let temporary = e.chain().any(|c| {
        matches!(
            c.downcast_ref::<ServiceError>(),
            Some(ServiceError::Busy(_) | ServiceError::Mail(MailError::Transient(_)))
        ) || matches!(c.downcast_ref::<MailError>(), Some(MailError::Transient(_)))
    });
    if temporary { EX_TEMPFAIL } else { 1 }
}

/// The command tree the manual pages are made from: no `help` subcommand
/// (it would name an `umpire-help(1)` page nobody writes).
fn man_command() -> clap::Command {
    let mut cmd = <Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// The manual page `umpire(1)`: the commands and options from their
/// definitions, then the move format, standing orders, mail commands, exit
/// status, examples and files (`manual.txt`).
pub fn man_page() -> std::io::Result<Vec<u8>> {
    let man = clap_mangen::Man::new(man_command());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    man.render_subcommands_section(&mut out)?;
    out.extend_from_slice(manual::roff(manual::TEXT).as_bytes());
    man.render_version_section(&mut out)?;
    Ok(out)
}

/// Writes `umpire.1` and a page for every subcommand (`umpire-poll.1`,
/// `umpire-admin-pause.1`, ...), the pages `umpire.1` refers to, into
/// `dir`; returns the files written.
pub fn write_man_pages(dir: &std::path::Path) -> std::io::Result<Vec<PathBuf>> {
    fn pages(
        cmd: &clap::Command,
        dir: &std::path::Path,
        out: &mut Vec<PathBuf>,
    ) -> std::io::Result<()> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            out.push(clap_mangen::Man::new(sub.clone()).generate_to(dir)?);
            pages(sub, dir, out)?;
        }
        Ok(())
    }
    let main = dir.join("umpire.1");
    std::fs::write(&main, man_page()?)?;
    let mut out = vec![main];
    pages(&man_command(), dir, &mut out)?;
    Ok(out)
}

/// Where `umpire man --install` puts the page for a binary at `exe`:
/// `man` looks in `../share/man` of each directory on the PATH.
pub fn default_man_dir(exe: &std::path::Path) -> Option<PathBuf> {
    Some(exe.parent()?.parent()?.join("share/man/man1"))
}

/// A completion script for `shell`, generated from the command definitions.
pub fn completions(shell: clap_complete::Shell) -> Vec<u8> {
    let mut cmd = <Cli as clap::CommandFactory>::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "umpire", &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_chain_says_each_cause_once() {
        let io = std::io::Error::from(std::io::ErrorKind::NotFound);
        let e = anyhow::Error::new(crate::service::ServiceError::Io {
            what: "opening umpire-data/umpire.lock".into(),
            source: io,
        });
        let text = error_text(&e);
        assert_eq!(text.matches("not found").count(), 1, "{text}");
        let e = anyhow::anyhow!("inner").context("outer");
        assert_eq!(error_text(&e), "outer: inner");
    }

    #[test]
    fn the_man_page_goes_where_man_looks_for_a_binary_on_the_path() {
        let dir = default_man_dir(std::path::Path::new("/home/a/.cargo/bin/umpire"));
        assert_eq!(dir, Some(PathBuf::from("/home/a/.cargo/share/man/man1")));
        assert_eq!(default_man_dir(std::path::Path::new("umpire")), None);
    }
}
