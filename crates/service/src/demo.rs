//! `umpire demo`: the whole pipeline on a new machine with no setup. In a
//! fresh data directory it makes keys and a game, writes signed moves as mails
//! into the Maildir, polls, delivers into the file outbox, and verifies the
//! exported record.

use super::games::NewGame;
use super::{ServiceError, Umpire};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use umpire_core::game::{Game, ReplayMode};
use umpire_core::movefile::armor;
use umpire_core::record::Record;
use umpire_core::sig::{MOVE_NAMESPACE, SecretKey};
use umpire_mail::maildir::Maildir;
use umpire_mail::mime::{self, Compose};
use umpire_mail::outbox::FileOutbox;

/// One player of the demo.
struct Player {
    side: &'static str,
    email: &'static str,
    key: SecretKey,
}

/// What the demo did, for printing.
pub struct DemoReport {
    pub transcript: String,
    pub verified: bool,
    pub game: String,
}

fn incoming(
    from: &str,
    to: &str,
    subject: &str,
    n: usize,
    body: &str,
    files: Vec<(String, Vec<u8>)>,
    extra: Vec<(String, String)>,
) -> Result<Vec<u8>, ServiceError> {
    Ok(mime::build(&Compose {
        from_name: from.split('@').next().unwrap_or(from).to_string(),
        from: from.to_string(),
        to: vec![to.to_string()],
        subject: subject.to_string(),
        message_id: format!(
            "<demo.{n}@{}>",
            from.rsplit('@').next().unwrap_or("demo.test")
        ),
        in_reply_to: None,
        references: vec![],
        text: body.to_string(),
        attachments: files
            .into_iter()
            .map(|(n, b)| (n, "text/plain".to_string(), b))
            .collect(),
        auto_submitted: "no",
        headers: extra,
        date: std::time::UNIX_EPOCH
            + std::time::Duration::from_secs(1_796_000_000 + n as u64 * 3600),
    })?)
}

/// Runs the demo in `dir` (which should be empty).
pub fn run(dir: &Path, now: jiff::Timestamp) -> Result<DemoReport, ServiceError> {
    let mut out = String::new();
    let (mut umpire, players, id) = create(dir, now, &mut out)?;
    play(&mut umpire, &players, &id, now, &mut out)?;
    show_outbox(&umpire, &mut out)?;
    let verified = verify_export(&mut umpire, dir, &id, &mut out)?;
    Ok(DemoReport {
        transcript: out,
        verified,
        game: id,
    })
}

/// A fresh data directory, two players with new keys, and the game.
fn create(
    dir: &Path,
    now: jiff::Timestamp,
    out: &mut String,
) -> Result<(Umpire, Vec<Player>, String), ServiceError> {
    Umpire::init(dir, "umpire@demo.test")?;
    let mut umpire = Umpire::open(dir)?;
    let players = [("axis", "alice@demo.test"), ("allies", "bob@demo.test")]
        .into_iter()
        .enumerate()
        .map(|(i, (side, email))| {
            SecretKey::generate(email)
                .map(|key| Player { side, email, key })
                .map_err(|e| ServiceError::Key {
                    path: format!("player {i}"),
                    message: e.to_string(),
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let id = umpire.create_game(
        NewGame {
            id: "demo".into(),
            ruleset: "freeform".into(),
            scenario: "open".into(),
            options: BTreeMap::from([("turns".to_string(), "2".to_string())]),
            sides: players
                .iter()
                .map(|p| (p.side.to_string(), p.email.to_string(), p.key.public_line()))
                .collect(),
            deadlines: None,
            time_zones: BTreeMap::from([("allies".to_string(), "America/New_York".to_string())]),
        },
        now,
    )?;
    writeln!(
        out,
        "Created game {id} (freeform, 2 turns): axis = alice, allies = bob."
    )
    .ok();
    Ok((umpire, players, id))
}

/// The four scripted moves, each mailed, polled and answered; the first
/// with the noise a real mailbox sees.
fn play(
    umpire: &mut Umpire,
    players: &[Player],
    id: &str,
    now: jiff::Timestamp,
    out: &mut String,
) -> Result<(), ServiceError> {
    let mut maildir = Maildir::open(&umpire.path(&umpire.config().intake.maildir))?;
    let mut outbox = FileOutbox::open(&umpire.path(&umpire.config().delivery.outbox))?;
    umpire.deliver(&mut outbox, now)?;
    let to = umpire.config().umpire.address.clone();

    let script: [(usize, &[&str]); 4] = [
        (
            0,
            &[
                "The 3rd Panzer Division advances on Arnhem road",
                "roll 2d6 initiative",
                "roll 1d6+1 artillery at 0712",
                "end turn",
            ],
        ),
        (
            1,
            &[
                "XXX Corps holds the bridge",
                "roll 2d6 initiative",
                "end turn",
            ],
        ),
        (0, &["Assault the bridge", "roll 3d6 assault", "end turn"]),
        (
            1,
            &["Counter-attack", "roll 2d6 counter-attack", "end turn"],
        ),
    ];
    let mut n = 0;
    for (turn, (who, orders)) in script.iter().enumerate() {
        let p = &players[*who];
        let head = umpire.game(id)?.record().head();
        let mut text = format!("game: {id}\nside: {}\nafter: {head}\norders:\n", p.side);
        for o in orders.iter() {
            text.push_str(&format!("  {o}\n"));
        }
        let sig = p
            .key
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .map_err(|e| ServiceError::Game(e.to_string()))?;
        n += 1;
        // Alternate the two ways of sending: an attachment pair, and a block pasted in the body.
        let raw = if turn % 2 == 0 {
            incoming(
                p.email,
                &to,
                "my move",
                n,
                "Move attached.\n",
                vec![
                    ("move.txt".into(), text.clone().into_bytes()),
                    ("move.txt.sig".into(), sig.clone().into_bytes()),
                ],
                vec![],
            )?
        } else {
            incoming(
                p.email,
                &to,
                "my move",
                n,
                &format!(
                    "Here is my move:\n\n{}\n-- \n{}\n",
                    armor(text.as_bytes(), &sig),
                    p.side
                ),
                vec![],
                vec![],
            )?
        };
        maildir.deliver(&format!("demo-{n}.mail"), &raw)?;
        if turn == 0 {
            n = noise(&mut maildir, players, id, &to, &text, &sig, &raw, n)?;
        }
        let r = umpire.poll(&mut maildir, now)?;
        writeln!(
            out,
            "Poll {}: {} mail(s): {} accepted, {} refused, {} duplicate, {} ignored; {} repl{} queued.",
            turn + 1,
            r.mails,
            r.accepted,
            r.rejected,
            r.duplicates,
            r.ignored,
            r.replies,
            if r.replies == 1 { "y" } else { "ies" }
        )
        .ok();
        umpire.deliver(&mut outbox, now)?;
    }

    Ok(())
}

/// Beside the first move: the same mail delivered twice, the same move
/// resent in a new mail (its reply was lost, say), a forgery, an unsigned
/// note, a bounce. Returns the last mail number used.
#[allow(clippy::too_many_arguments)] // each is a distinct part of the noise
fn noise(
    maildir: &mut Maildir,
    players: &[Player],
    id: &str,
    to: &str,
    text: &str,
    sig: &str,
    raw: &[u8],
    mut n: usize,
) -> Result<usize, ServiceError> {
    let p = &players[0];
    maildir.deliver(&format!("demo-{n}-dup.mail"), raw)?;
    n += 1;
    let resent = incoming(
        p.email,
        to,
        "my move again (did you get it?)",
        n,
        &format!("Sending it again:\n\n{}", armor(text.as_bytes(), sig)),
        vec![],
        vec![],
    )?;
    maildir.deliver(&format!("demo-{n}-resent.mail"), &resent)?;
    // Mallory alters the move and signs it with the other side's key.
    let altered = text.replace("artillery", "massive artillery");
    let forged_sig = players[1]
        .key
        .sign(MOVE_NAMESPACE, altered.as_bytes())
        .map_err(|e| ServiceError::Game(e.to_string()))?;
    n += 1;
    let forged = incoming(
        "mallory@demo.test",
        to,
        "axis move (honest)",
        n,
        "",
        vec![
            ("move.txt".into(), altered.into_bytes()),
            ("move.txt.sig".into(), forged_sig.into_bytes()),
        ],
        vec![],
    )?;
    maildir.deliver(&format!("demo-{n}-forged.mail"), &forged)?;
    n += 1;
    let unsigned = incoming(
        "carol@demo.test",
        to,
        "orders",
        n,
        &format!("game: {id}\nside: allies\norders:\n  attack!\n"),
        vec![],
        vec![],
    )?;
    maildir.deliver(&format!("demo-{n}-unsigned.mail"), &unsigned)?;
    n += 1;
    let bounce = incoming(
        "MAILER-DAEMON@demo.test",
        to,
        "Undelivered Mail Returned to Sender",
        n,
        "delivery failed",
        vec![],
        vec![("Auto-Submitted".into(), "auto-replied".into())],
    )?;
    maildir.deliver(&format!("demo-{n}-bounce.mail"), &bounce)?;
    Ok(n)
}

/// Every mail the umpire sent, in the order it wrote them.
fn show_outbox(umpire: &Umpire, out: &mut String) -> Result<(), ServiceError> {
    writeln!(out, "\nThe outbox ({}):", outbox_dir(umpire).display()).ok();
    let mut files: Vec<_> = std::fs::read_dir(outbox_dir(umpire))
        .map_err(|e| ServiceError::Io {
            what: "reading the outbox".into(),
            source: e,
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    for f in &files {
        let raw = std::fs::read(f).map_err(|e| ServiceError::Io {
            what: f.display().to_string(),
            source: e,
        })?;
        let m = mime::read(&raw)?;
        let subject = raw
            .split(|b| *b == b'\n')
            .find(|l| l.starts_with(b"Subject:"))
            .map(|l| String::from_utf8_lossy(l).trim().to_string())
            .unwrap_or_default();
        writeln!(
            out,
            "\n======== {} ========",
            f.file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default()
        )
        .ok();
        writeln!(
            out,
            "From: {}\nTo: {}\n{subject}\nAttachments: {}\n",
            m.from.unwrap_or_default(),
            to_line(&raw),
            m.attachments
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
        .ok();
        out.push_str(m.text.replace("\r\n", "\n").trim_end());
        out.push('\n');
    }

    Ok(())
}

/// The exported record, written beside the data and verified by replay.
fn verify_export(
    umpire: &mut Umpire,
    dir: &Path,
    id: &str,
    out: &mut String,
) -> Result<bool, ServiceError> {
    let exported = umpire.export(id, None)?;
    let record_path = dir.join("demo-record.txt");
    std::fs::write(&record_path, &exported).map_err(|e| ServiceError::Io {
        what: record_path.display().to_string(),
        source: e,
    })?;
    let record = Record::from_text(&exported).map_err(|e| ServiceError::Game(e.to_string()))?;
    let ruleset = umpire_games::find("freeform")
        .ok_or_else(|| ServiceError::Game("freeform missing".into()))?;
    Ok(match Game::replay(ruleset, &record, ReplayMode::Verify) {
        Ok((_, s)) => {
            writeln!(
                out,
                "\nRecord {}: {} entries, {} moves, {} refused, {} signatures and {} rolls checked.\nrecord verified",
                record_path.display(),
                s.entries,
                s.moves,
                s.rejected,
                s.signatures_checked,
                s.rolls_verified
            )
            .ok();
            true
        }
        Err(e) => {
            writeln!(out, "\nRECORD DOES NOT VERIFY: {e}").ok();
            false
        }
    })
}

fn outbox_dir(u: &Umpire) -> std::path::PathBuf {
    u.path(&u.config().delivery.outbox)
}

fn to_line(raw: &[u8]) -> String {
    raw.split(|b| *b == b'\n')
        .find(|l| l.starts_with(b"To:"))
        .map(|l| String::from_utf8_lossy(&l[3..]).trim().to_string())
        .unwrap_or_default()
}
