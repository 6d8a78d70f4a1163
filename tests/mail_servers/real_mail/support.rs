//! The real mail stack for `tests/mail_servers/real_mail.rs` and `benches/mail_e2e.rs`:
//! the Dovecot + Postfix of `tests/mail/mailstack.sh` (found through
//! `UMPIRE_MAILSTACK`), mailboxes read over IMAP, mail sent by SMTP
//! submission, and umpire data directories driven through the `umpire`
//! binary, as cron would.
//!
//! Without `UMPIRE_MAILSTACK`, or with servers that do not answer, every
//! caller FAILS: a skipped mail test would pass having tested nothing.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs::File;
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};
use umpire::core::sig::SecretKey;
use umpire::mail::settings::{Security, SmtpSettings};
use umpire::mail::smtp::SmtpDelivery;
use umpire::mail::{Delivery, Outgoing};

/// A started mail stack (`tests/mail/mailstack.sh start DIR`).
pub struct Stack {
    pub dir: PathBuf,
    pub domain: String,
    pub imap: u16,
    pub imaps: u16,
    pub smtp: u16,
    pub submission: u16,
    pub smtps: u16,
    pub ca: PathBuf,
}

/// The stack named by `UMPIRE_MAILSTACK`; panics (fails the caller) without it.
pub fn stack() -> Stack {
    let dir = std::env::var_os("UMPIRE_MAILSTACK")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            panic!(
                "UMPIRE_MAILSTACK is not set: the real-mail tests need Dovecot and Postfix. \
                 Run scripts/test.sh, or `bash tests/mail/mailstack.sh start DIR` and set \
                 UMPIRE_MAILSTACK=DIR"
            )
        });
    let env = std::fs::read_to_string(dir.join("stack.env")).unwrap_or_else(|e| {
        panic!(
            "UMPIRE_MAILSTACK={}: no stack.env ({e}); was the stack started?",
            dir.display()
        )
    });
    let get = |key: &str| -> String {
        env.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}=")))
            .unwrap_or_else(|| panic!("stack.env has no {key}"))
            .trim_matches('"')
            .to_string()
    };
    let port = |key: &str| -> u16 {
        get(key)
            .parse()
            .unwrap_or_else(|_| panic!("{key} is not a port"))
    };
    Stack {
        domain: get("MAILSTACK_DOMAIN"),
        imap: port("MAILSTACK_IMAP_PORT"),
        imaps: port("MAILSTACK_IMAPS_PORT"),
        smtp: port("MAILSTACK_SMTP_PORT"),
        submission: port("MAILSTACK_SUBMISSION_PORT"),
        smtps: port("MAILSTACK_SMTPS_PORT"),
        ca: PathBuf::from(get("MAILSTACK_CA")),
        dir,
    }
}

/// The stack's test lock, held: shared by tests that only use the servers,
/// exclusive for tests that stop or restart one (the discipline of
/// `tests/mail_servers/mail_transport.rs`, which locks the same file).
pub struct Held {
    _file: File,
}

/// A folder name unique to this process and call: `rm_NAME_PID_N_NANOS`.
pub fn unique(name: &str) -> String {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "rm_{name}_{}_{}_{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed),
        nanos % 1_000_000
    )
}

/// One mail as a mailbox holds it.
#[derive(Debug, Clone)]
pub struct Stored {
    pub uid: u32,
    pub seen: bool,
    pub raw: Vec<u8>,
}

impl Stack {
    fn lock_file(&self) -> File {
        File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.dir.join("tests.lock"))
            .expect("opening the stack's test lock")
    }

    fn hold(&self, exclusive: bool) -> Held {
        // Postfix authenticates submissions through Dovecot. After a test
        // (here or in another test binary) restarted Dovecot, each smtpd
        // still running answers its next AUTH with 454 "Connection lost to
        // authentication server", and the umpire would rightly defer its
        // replies. Start this process on a fresh Postfix, once, alone.
        static FRESH: std::sync::Once = std::sync::Once::new();
        FRESH.call_once(|| {
            let f = self.lock_file();
            f.lock().expect("locking the stack");
            self.script("stop-smtp");
            self.script("start-smtp");
        });
        let f = self.lock_file();
        if exclusive {
            f.lock().expect("locking the stack");
        } else {
            f.lock_shared().expect("locking the stack");
        }
        self.assert_up();
        Held { _file: f }
    }

    /// Uses the servers; others may use them too, nobody restarts them.
    pub fn shared(&self) -> Held {
        self.hold(false)
    }

    /// Alone on the stack: this caller may stop and restart servers.
    pub fn exclusive(&self) -> Held {
        self.hold(true)
    }

    /// Fails unless every port answers (within a few seconds).
    pub fn assert_up(&self) {
        for p in [
            self.imap,
            self.imaps,
            self.smtp,
            self.submission,
            self.smtps,
        ] {
            let deadline = Instant::now() + Duration::from_secs(10);
            while TcpStream::connect(("127.0.0.1", p)).is_err() {
                assert!(
                    Instant::now() < deadline,
                    "the mail stack in {} does not answer on port {p}",
                    self.dir.display()
                );
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }

    /// `mailstack.sh VERB DIR` (restart-imap, stop-smtp, start-smtp).
    pub fn script(&self, verb: &str) {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/mail/mailstack.sh");
        let st = Command::new("bash")
            .arg(script)
            .arg(verb)
            .arg(&self.dir)
            .status()
            .expect("running mailstack.sh");
        assert!(st.success(), "mailstack.sh {verb} failed");
    }

    /// `user@domain`, or `user+tag@domain` (delivered into `user`'s folder `tag`).
    pub fn addr(&self, user: &str, tag: &str) -> String {
        format!("{user}+{tag}@{}", self.domain)
    }

    /// A plain loopback IMAP session as `user` (password `USER-secret`).
    pub fn login(&self, user: &str) -> imap::Session<TcpStream> {
        let tcp = TcpStream::connect(("127.0.0.1", self.imap)).expect("IMAP connect");
        tcp.set_read_timeout(Some(Duration::from_secs(60))).ok();
        let mut c = imap::Client::new(tcp);
        c.read_greeting().expect("IMAP greeting");
        c.login(user, format!("{user}-secret"))
            .map_err(|e| e.0)
            .expect("IMAP login")
    }

    pub fn create_folder(&self, user: &str, folder: &str) {
        let mut s = self.login(user);
        // Dovecot has once answered a first CREATE of a fresh, unique name
        // with ALREADYEXISTS on CI: the folder is there, which is all we ask.
        if let Err(e) = s.create(folder) {
            assert!(format!("{e:?}").contains("ALREADYEXISTS"), "CREATE: {e:?}");
        }
        let _ = s.logout();
    }

    /// Mails in `user`'s `folder` (0 while it does not exist).
    pub fn count(&self, user: &str, folder: &str) -> u32 {
        let mut s = self.login(user);
        let n = s
            .status(folder, "(MESSAGES)")
            .map(|m| m.exists)
            .unwrap_or(0);
        let _ = s.logout();
        n
    }

    /// Waits until `user`'s `folder` holds at least `n` mails; returns the count.
    pub fn await_count(&self, user: &str, folder: &str, n: u32) -> u32 {
        self.await_count_or(user, folder, n, &String::new)
    }

    /// As [`Stack::await_count`], and on a timeout the failure also shows
    /// `context()` (a poll's log, an outbox) and the servers' logs' tails:
    /// a mail that never came is otherwise a bare count.
    pub fn await_count_or(
        &self,
        user: &str,
        folder: &str,
        n: u32,
        context: &dyn Fn() -> String,
    ) -> u32 {
        let mut s = self.login(user);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let c = s
                .status(folder, "(MESSAGES)")
                .map(|m| m.exists)
                .unwrap_or(0);
            if c >= n {
                let _ = s.logout();
                return c;
            }
            if Instant::now() >= deadline {
                let tail = |f: &str| {
                    let t = std::fs::read_to_string(self.dir.join(f)).unwrap_or_default();
                    let lines: Vec<&str> = t.lines().collect();
                    lines[lines.len().saturating_sub(30)..].join("\n")
                };
                panic!(
                    "{user}'s folder {folder} has {c} mails, expected {n}\n{}\n\
                     -- postfix.log:\n{}\n-- dovecot.log:\n{}",
                    context(),
                    tail("postfix.log"),
                    tail("dovecot.log")
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Every mail in `user`'s `folder`, oldest first, without marking them seen.
    pub fn read(&self, user: &str, folder: &str) -> Vec<Stored> {
        let mut s = self.login(user);
        let Ok(mb) = s.examine(folder) else {
            let _ = s.logout();
            return Vec::new();
        };
        let mut out = Vec::new();
        if mb.exists > 0 {
            let fetches = s
                .uid_fetch("1:*", "(UID FLAGS BODY.PEEK[])")
                .expect("UID FETCH");
            for f in fetches.iter() {
                out.push(Stored {
                    uid: f.uid.expect("UID"),
                    seen: f.flags().contains(&imap::types::Flag::Seen),
                    raw: f.body().expect("BODY[]").to_vec(),
                });
            }
        }
        let _ = s.logout();
        out.sort_by_key(|m| m.uid);
        out
    }

    /// The \\Seen flag of every mail in `user`'s `folder`, oldest first.
    pub fn seen(&self, user: &str, folder: &str) -> Vec<bool> {
        let mut s = self.login(user);
        let mut out = Vec::new();
        if s.examine(folder).map(|mb| mb.exists > 0).unwrap_or(false) {
            let fetches = s.uid_fetch("1:*", "(UID FLAGS)").expect("UID FETCH");
            let mut v: Vec<(u32, bool)> = fetches
                .iter()
                .map(|f| {
                    (
                        f.uid.expect("UID"),
                        f.flags().contains(&imap::types::Flag::Seen),
                    )
                })
                .collect();
            v.sort();
            out = v.into_iter().map(|(_, seen)| seen).collect();
        }
        let _ = s.logout();
        out
    }

    /// Waits until Postfix holds no mail (everything accepted is delivered).
    pub fn drain(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let out = Command::new("postqueue")
                .arg("-c")
                .arg(self.dir.join("postfix"))
                .arg("-p")
                .output()
                .expect("running postqueue");
            let text = String::from_utf8_lossy(&out.stdout);
            if text.contains("Mail queue is empty") {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "Postfix still holds mail after 30 s:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// SMTP submission (587, STARTTLS, AUTH as `user`), as a player's mail client.
    pub fn submission(&self, user: &str) -> SmtpDelivery {
        let mut s = SmtpSettings::new("localhost", Security::Starttls);
        s.port = Some(self.submission);
        s.username = Some(user.into());
        s.password = Some(format!("{user}-secret"));
        s.ca_file = Some(self.ca.clone());
        s.timeout_secs = 30;
        SmtpDelivery::new(&s).expect("SMTP settings")
    }

    /// Sends `raw` as `user` (logged in on 587) to `to`; `envelope_from` empty
    /// is the null sender (`MAIL FROM:<>`), as bounces and vacation replies use.
    /// Retries a transient refusal for a while, as a mail client would.
    pub fn send(&self, user: &str, envelope_from: &str, to: &str, raw: &[u8]) {
        let mail = Outgoing {
            key: "test".into(),
            message_id: "<test>".into(),
            from: envelope_from.into(),
            to: vec![to.into()],
            raw: raw.to_vec(),
        };
        let mut smtp = self.submission(user);
        for attempt in 1.. {
            match smtp.deliver(&mail) {
                Ok(()) => return,
                Err(e) if e.is_transient() && attempt < 20 => {
                    std::thread::sleep(Duration::from_millis(100))
                }
                Err(e) => panic!("sending as {user} to {to}: {e}"),
            }
        }
    }
}

/// The `umpire` binary: the one cron runs.
pub fn umpire_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_umpire"))
}

/// How the umpire reaches the servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// IMAPS 993 + submission 587 STARTTLS.
    TlsAndStarttls,
    /// IMAP 143 STARTTLS + SMTPS 465.
    StarttlsAndTls,
}

/// A player: a mail account on the stack, an ed25519 key made by `umpire keygen`.
pub struct Player {
    pub user: String,
    pub addr: String,
    pub key_file: PathBuf,
    pub key: SecretKey,
}

/// An umpire data directory on the stack: reads gm's folder `tag` over IMAP,
/// sends over SMTP with AUTH, one freeform game between the players.
pub struct Club {
    _tmp: tempfile::TempDir,
    pub dir: PathBuf,
    pub tag: String,
    pub game: String,
    /// gm+tag@domain: the umpire's address.
    pub address: String,
    pub players: Vec<Player>,
    pub umpire_fingerprint: String,
}

/// Options for [`Club::new`].
pub struct ClubOptions<'a> {
    pub wire: Wire,
    pub commit_every: usize,
    /// Extra arguments to `umpire new` (deadlines, time zones, options).
    pub new_args: &'a [&'a str],
    /// The clock at creation.
    pub now: &'a str,
}

impl Default for ClubOptions<'_> {
    fn default() -> Self {
        ClubOptions {
            wire: Wire::TlsAndStarttls,
            commit_every: 64,
            new_args: &["--deadline", "0"],
            now: "2026-12-01T10:00:00Z",
        }
    }
}

impl Club {
    /// `umpire init`, the [imap]/[smtp] configuration, `umpire config check`,
    /// `umpire keygen` for each player, `umpire new freeform`.
    pub fn new(st: &Stack, name: &str, players: &[&str], o: ClubOptions<'_>) -> Club {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = tmp.path().join("umpire");
        let tag = unique(name);
        let address = st.addr("gm", &tag);
        let mut club = Club {
            dir: dir.clone(),
            game: tag.replace("rm_", "g-"),
            tag: tag.clone(),
            address: address.clone(),
            players: Vec::new(),
            umpire_fingerprint: String::new(),
            _tmp: tmp,
        };
        club.ok(&["init", "--address", &address], o.now);
        // The club's secrets live beside the configuration, never in it.
        let pw = dir.join("gm.password");
        std::fs::write(&pw, "gm-secret\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&pw, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let (imap_port, imap_sec, smtp_port, smtp_sec) = match o.wire {
            Wire::TlsAndStarttls => (st.imaps, "tls", st.submission, "starttls"),
            Wire::StarttlsAndTls => (st.imap, "starttls", st.smtps, "tls"),
        };
        let cfg = dir.join("umpire.toml");
        // Edit the written defaults as an admin would: the intake, the delivery,
        // the commit group size.
        let text: String = std::fs::read_to_string(&cfg)
            .unwrap()
            .lines()
            .map(|l| {
                if l.starts_with("kind = \"maildir\"") {
                    "kind = \"imap\"".to_string()
                } else if l.starts_with("kind = \"file\"") {
                    "kind = \"smtp\"".to_string()
                } else if l.starts_with("commit_every = ") {
                    format!("commit_every = {}", o.commit_every)
                } else {
                    l.to_string()
                }
            })
            .map(|l| l + "\n")
            .collect();
        assert!(text.contains("kind = \"imap\"") && text.contains("kind = \"smtp\""));
        let text = format!(
            "{text}
[imap]
host = \"localhost\"
port = {imap_port}
security = \"{imap_sec}\"
username = \"gm\"
password_file = \"{pw}\"
ca_file = \"{ca}\"
folder = \"{tag}\"
mark = \"seen\"
connect_timeout_secs = 10
io_timeout_secs = 30

[smtp]
host = \"localhost\"
port = {smtp_port}
security = \"{smtp_sec}\"
username = \"gm\"
password_command = \"cat {pw}\"
ca_file = \"{ca}\"
timeout_secs = 30
",
            pw = pw.display(),
            ca = st.ca.display(),
        );
        std::fs::write(&cfg, text).unwrap();
        // The club's mailbox folder exists before the first poll, as INBOX would.
        st.create_folder("gm", &tag);
        let check = club.ok(&["config", "check"], o.now);
        assert!(check.contains("configuration ok"), "{check}");

        let keys = dir.join("keys");
        std::fs::create_dir_all(&keys).unwrap();
        let mut sides = Vec::new();
        for p in players {
            let key_file = keys.join(p);
            let addr = st.addr(p, &tag);
            club.ok(
                &[
                    "keygen",
                    "-f",
                    key_file.to_str().unwrap(),
                    "-C",
                    addr.as_str(),
                ],
                o.now,
            );
            let key = SecretKey::parse(&std::fs::read_to_string(&key_file).unwrap()).unwrap();
            sides.push(format!("{p}={addr}={}.pub", key_file.display()));
            club.players.push(Player {
                user: p.to_string(),
                addr,
                key_file,
                key,
            });
        }
        let game = club.game.clone();
        let mut args: Vec<&str> = vec!["new", "freeform", "--scenario", "open", "--id", &game];
        for s in &sides {
            args.push("--side");
            args.push(s);
        }
        args.extend_from_slice(o.new_args);
        let out = club.ok(&args, o.now);
        assert_eq!(out.trim(), club.game);
        let pubkey = std::fs::read_to_string(dir.join("umpire.key.pub")).unwrap();
        club.umpire_fingerprint = umpire::core::sig::PublicKey::parse(pubkey.trim())
            .unwrap()
            .fingerprint();
        club
    }

    pub fn player(&self, user: &str) -> &Player {
        self.players
            .iter()
            .find(|p| p.user == user)
            .unwrap_or_else(|| panic!("no player {user}"))
    }

    /// Runs `umpire --dir DIR ARGS` with `UMPIRE_NOW=now`.
    pub fn run(&self, args: &[&str], now: &str) -> Output {
        self.command(args, now).output().expect("running umpire")
    }

    /// The command for `umpire --dir DIR ARGS` with `UMPIRE_NOW=now`.
    pub fn command(&self, args: &[&str], now: &str) -> Command {
        let mut c = Command::new(umpire_bin());
        c.arg("--dir").arg(&self.dir).args(args);
        c.env("UMPIRE_NOW", now).env_remove("UMPIRE_LOG");
        c
    }

    /// Like [`Club::run`], but the command must succeed; returns its stdout.
    pub fn ok(&self, args: &[&str], now: &str) -> String {
        let out = self.run(args, now);
        assert!(
            out.status.success(),
            "umpire {args:?} failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// `umpire -v poll`, which must succeed; returns its log (stderr).
    pub fn poll(&self, now: &str) -> String {
        let out = self.run(&["-v", "poll"], now);
        let log = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(
            out.status.success(),
            "umpire poll failed ({}):\n{log}",
            out.status
        );
        // What cron mails the admin (or journald keeps) is plain text.
        assert!(
            !log.contains('\x1b'),
            "terminal escape codes in a log written to a pipe:\n{log:?}"
        );
        log
    }
}

/// Message-IDs by recipient address.
pub type Expected = BTreeMap<String, Vec<String>>;

/// Copies a directory tree (a data directory no process has open).
pub fn copy_dir(from: &Path, to: &Path) {
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
