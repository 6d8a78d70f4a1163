//! Requests by mail (`command: status`, `map`, `orders`, `away:`, `tz:`):
//! what each answers, and the guard that keeps a copied signed request from
//! flooding a mailbox.

use super::compose::Unsealed;
use super::games::{GameMeta, rfc3339};
use super::{ServiceError, Umpire};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use umpire_core::act::AdminAct;
use umpire_core::game::Game;
use umpire_core::hash::{Digest, sha256};
use umpire_core::movefile::Command;
use umpire_core::record::Body;
use umpire_core::ruleset::Side;
use umpire_store::{Batch, Table};

/// Most mails answered per side and day to requests and to copies of
/// signed files judged before: a player may ask often, but a stream of copies
/// cannot turn the umpire into a mail cannon.
pub const REQUESTS_PER_DAY: u32 = 20;

/// Why a signed request, or a copy of a signed file, is not answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unanswered {
    /// A copy of the very same signed file was answered today already.
    Replayed,
    /// The side was answered [`REQUESTS_PER_DAY`] times today.
    Limit,
}

impl std::fmt::Display for Unanswered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unanswered::Replayed => f.write_str("the same signed file was answered today"),
            Unanswered::Limit => write!(f, "over {REQUESTS_PER_DAY} answers today"),
        }
    }
}

/// A signed request as the guard knows it: the hash of its signed text
/// (its identity: no one can change the text without breaking the
/// signature, whatever mail does to the armor) and, for a copy, the day the
/// request was first carried out.
pub(super) struct Request {
    pub(super) text: Digest,
    pub(super) copy_of: Option<String>,
}

/// When a signed request was first carried out, and last answered.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Seen {
    first: String,
    last: String,
}

/// The whole map as `side` sees it, with the status lines, at most 72 columns.
pub fn whole_map(game: &Game, side: Side) -> String {
    let view = game
        .ruleset()
        .view(game.state(), umpire_core::ruleset::Viewer::Side(side));
    let mut t = String::new();
    for l in &view.status {
        t.push_str(&umpire_render::templates::wrap(
            l.clone(),
            Some(72),
            Some(2),
        ));
        t.push('\n');
    }
    match &view.board {
        Some(b) => {
            let opts = umpire_render::map::Options {
                width: 72,
                ..Default::default()
            };
            t.push('\n');
            t.push_str(&umpire_render::map::full(b, &opts));
        }
        None => t.push_str("\nThis game has no map.\n"),
    }
    t
}

/// The answer to `command: orders`: the orders `side` can give now, grouped.
pub fn orders_reply(game: &Game, side: Side) -> String {
    let legal = game.ruleset().legal_moves(game.state(), side);
    let wrap = |s: String| umpire_render::templates::wrap(s, Some(72), Some(2));
    if legal.is_empty() {
        wrap(format!(
            "Nothing is asked of you now. {}; waiting for {}.",
            game.prompt().stage,
            game.awaiting_names()
        ))
    } else {
        let mut t = wrap(format!("{}. Orders you can give now:", game.prompt().stage));
        t.push_str("\n\n");
        t.push_str(&grouped_orders(&legal));
        t
    }
}

/// Most examples shown of one kind of order.
const EXAMPLES: usize = 4;

/// The legal orders grouped by their first word, each group counted and
/// shown by a few examples, duplicates dropped, every line within 72
/// columns: short enough to read in a mail, whatever the ruleset lists.
pub fn grouped_orders(legal: &[String]) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for l in legal {
        let verb = l
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_end_matches(':')
            .to_ascii_lowercase();
        match groups.iter_mut().find(|(v, _)| *v == verb) {
            Some((_, v)) if !v.contains(&l.as_str()) => v.push(l),
            Some(_) => {}
            None => groups.push((verb, vec![l])),
        }
    }
    let mut t = String::new();
    for (verb, all) in &groups {
        if all.len() == 1 {
            t.push_str(&format!("{verb}:\n"));
        } else {
            t.push_str(&format!("{verb} ({} ways), for example:\n", all.len()));
        }
        for l in all.iter().take(EXAMPLES) {
            // An order may take several lines; indent them under its first.
            for (i, part) in l.lines().enumerate() {
                let lead = if i == 0 { "  " } else { "    " };
                let w = umpire_render::templates::wrap(
                    part.to_string(),
                    Some(72 - lead.len()),
                    Some(4),
                );
                for wl in w.lines() {
                    t.push_str(lead);
                    t.push_str(wl);
                    t.push('\n');
                }
            }
        }
        if all.len() > EXAMPLES {
            t.push_str(&format!("  ... and {} more\n", all.len() - EXAMPLES));
        }
    }
    t
}

impl Umpire {
    /// May this signed request be answered? A request is judged once, for
    /// the life of the game: a copy of it, from anyone, on any day, is a
    /// copy (`Request::copy_of`), whose settings change nothing. Each signed
    /// request is answered at most once a day, and a side at most
    /// [`REQUESTS_PER_DAY`] times a day (requests and copies together).
    /// Noted in `batch`.
    pub(super) fn request_guard(
        &self,
        game: &str,
        side_name: &str,
        text: Digest,
        signature: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<Result<Request, Unanswered>, ServiceError> {
        let day = rfc3339(now)[..10].to_string();
        let seen = self.request_seen(game, &text, signature)?;
        if seen.as_ref().is_some_and(|s| s.last == day) {
            return Ok(Err(Unanswered::Replayed));
        }
        if let Err(why) = self.daily_budget(game, side_name, &day, batch)? {
            return Ok(Err(why));
        }
        let first = seen.map(|s| s.first);
        let note = Seen {
            first: first.clone().unwrap_or_else(|| day.clone()),
            last: day,
        };
        batch.put_json(Table::Meta, request_key(game, &text), &note);
        Ok(Ok(Request {
            text,
            copy_of: first,
        }))
    }

    /// When the request whose text hashes to `text` was carried out: noted
    /// in the store, or, by an umpire that kept only a signature a day
    /// (`req:` keys), the day noted there; or the settings entry it made in
    /// the record (after an import).
    fn request_seen(
        &self,
        game: &str,
        text: &Digest,
        signature: &str,
    ) -> Result<Option<Seen>, ServiceError> {
        if let Some(s) = self.read_json::<Seen>(Table::Meta, request_key(game, text))? {
            return Ok(Some(s));
        }
        let legacy = format!("req:{}", sha256(signature.trim().as_bytes()).to_hex());
        if let Some(day) = self.read_json::<String>(Table::Meta, legacy)? {
            return Ok(Some(Seen {
                first: day.clone(),
                last: day,
            }));
        }
        let at = self.games.get(game).and_then(|g| {
            let seq = g.request_entry(text)?;
            match &g.record().entries().get(seq as usize)?.body {
                Body::Admin(a) => Some(a.at.chars().take(10).collect::<String>()),
                _ => None,
            }
        });
        Ok(at.map(|first| Seen {
            first,
            last: String::new(),
        }))
    }

    /// May the answer to a signed file that is not judged now be sent (a
    /// copy of one judged before, `again` naming its entry; a move to a
    /// paused game, naming its text)? Once a day each, within the side's
    /// [`REQUESTS_PER_DAY`]. Noted in `batch`.
    pub(super) fn copy_guard(
        &self,
        game: &str,
        side_name: &str,
        again: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<Result<(), Unanswered>, ServiceError> {
        let day = rfc3339(now)[..10].to_string();
        let key = format!("again:{game}:{again}");
        let last: Option<String> = self.read_json(Table::Meta, &key)?;
        if last.as_deref() == Some(day.as_str()) {
            return Ok(Err(Unanswered::Replayed));
        }
        if let Err(why) = self.daily_budget(game, side_name, &day, batch)? {
            return Ok(Err(why));
        }
        batch.put_json(Table::Meta, &key, &day);
        Ok(Ok(()))
    }

    /// Counts one more answer to `side_name` on `day`, unless it had its
    /// [`REQUESTS_PER_DAY`] already.
    fn daily_budget(
        &self,
        game: &str,
        side_name: &str,
        day: &str,
        batch: &mut Batch,
    ) -> Result<Result<(), Unanswered>, ServiceError> {
        let count_key = format!("reqs:{game}:{side_name}");
        let (d, n): (String, u32) = self.read_json(Table::Meta, &count_key)?.unwrap_or_default();
        let n = if d == day { n } else { 0 };
        if n >= REQUESTS_PER_DAY {
            return Ok(Err(Unanswered::Limit));
        }
        batch.put_json(Table::Meta, &count_key, &(day, n + 1));
        Ok(Ok(()))
    }

    /// Answers a signed request's commands, settings first.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn commands(
        &mut self,
        game_id: &str,
        side: Side,
        commands: &[Command],
        request: &Request,
        reply: Option<String>,
        short: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<Vec<Unsealed>, ServiceError> {
        let mut out = Vec::new();
        // Settings first, all into one meta, so a status in the same file shows them.
        let (meta, notes) = self.settings(game_id, side, commands, request, now, batch)?;
        for (n, c) in commands.iter().enumerate() {
            let key = format!("{game_id}.cmd.{short}.{n}");
            let game = &self.games[game_id];
            match c {
                Command::Status => {
                    let mut text = self.result_text(
                        game,
                        &meta,
                        game.last_report().0,
                        umpire_core::ruleset::Viewer::Side(side),
                        now,
                    )?;
                    text.push_str(&format!("\n{}\n", super::press::press_line(&meta)));
                    out.push(self.notice_mail(
                        game,
                        side,
                        "status",
                        &text,
                        false,
                        reply.clone(),
                        key,
                        now,
                    )?);
                }
                Command::Resend => {
                    let (seq, _) = game.last_report();
                    out.extend(self.result_mails(
                        game,
                        &meta,
                        seq,
                        Some((side, reply.clone())),
                        Some(side),
                        &format!(".again.{short}"),
                        now,
                    )?);
                }
                Command::Orders => {
                    let text = orders_reply(game, side);
                    out.push(self.notice_mail(
                        game,
                        side,
                        "orders you can give",
                        &text,
                        false,
                        reply.clone(),
                        key,
                        now,
                    )?);
                }
                Command::Map => {
                    let text = whole_map(game, side);
                    let note = super::compose::Note {
                        title: "the map",
                        text: &text,
                        attach_record: false,
                        attachments: self.whole_map_picture(game, side).into_iter().collect(),
                    };
                    let to = game.sides()[side.index()].email.clone();
                    out.push(self.note_to(game, side, &to, note, reply.clone(), key, now)?);
                }
                Command::Record => {
                    out.push(self.notice_mail(game, side, "the record", "The game's record is attached, with the umpire's signature.\nCheck it with: umpire verify record.txt", true, reply.clone(), key, now)?);
                }
                Command::TimeZone(_) | Command::Away(_) => {
                    let (title, text) = &notes[&n];
                    out.push(self.notice_mail(
                        game,
                        side,
                        title,
                        text,
                        false,
                        reply.clone(),
                        key,
                        now,
                    )?);
                }
            }
        }
        Ok(out)
    }

    /// Applies a request's `timezone:` and `away:` lines to the game's meta
    /// and, when they change it, to the record (an `admin` settings entry
    /// naming the request, so they survive an import and a copy of the
    /// request is known as one there too). A copy of a request, or a request
    /// to a finished game, changes nothing: each line is answered with why.
    /// Returns the meta and each line's answer.
    #[allow(clippy::type_complexity)]
    fn settings(
        &mut self,
        game_id: &str,
        side: Side,
        commands: &[Command],
        request: &Request,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<(GameMeta, BTreeMap<usize, (&'static str, String)>), ServiceError> {
        let mut meta = self.meta(game_id)?;
        let name = self.games[game_id].sides()[side.index()].name.clone();
        let frozen = match (&request.copy_of, &self.games[game_id].prompt().finished) {
            (Some(day), _) => Some(format!(
                "This signed request was carried out on {day}: a copy of it changes nothing."
            )),
            (None, Some(_)) => Some("The game is over: nothing changes now.".to_string()),
            (None, None) => None,
        };
        if let Some(why) = frozen {
            return Ok((meta.clone(), frozen_notes(&meta, &name, commands, &why)));
        }
        let before = (
            meta.time_zones.get(&name).cloned(),
            meta.away.get(&name).cloned(),
        );
        let mut notes = BTreeMap::new();
        for (n, c) in commands.iter().enumerate() {
            if let Some(note) = setting(&mut meta, &name, c) {
                notes.insert(n, note);
            }
        }
        let after = (
            meta.time_zones.get(&name).cloned(),
            meta.away.get(&name).cloned(),
        );
        if after != before {
            batch.put_json(Table::Games, game_id, &meta);
            let act = AdminAct::Settings {
                side: name,
                time_zone: after.0.unwrap_or_default(),
                away: after.1.unwrap_or_default(),
            };
            let chain = self.chain(game_id)?;
            self.cache_chains(batch);
            let game = self
                .games
                .get_mut(game_id)
                .ok_or_else(|| ServiceError::Game(format!("no game {game_id}")))?;
            let len = game.record().len();
            if game
                .settings_by_request(act, request.text, &chain, &rfc3339(now))
                .is_ok()
            {
                batch.put_entries(game_id, game.entries_since(len));
            }
        }
        Ok((meta, notes))
    }
}

/// Applies one settings line of a request to `meta`; its answer, or `None`
/// for a line that is no setting.
fn setting(meta: &mut GameMeta, name: &str, c: &Command) -> Option<(&'static str, String)> {
    Some(match c {
        Command::TimeZone(tz) if jiff::tz::TimeZone::get(tz).is_ok() => {
            meta.time_zones.insert(name.to_string(), tz.clone());
            (
                "time zone",
                format!("Noted: your deadlines are shown in {tz}."),
            )
        }
        Command::TimeZone(tz) => (
            "time zone",
            format!(
                "{tz:?} is not a time zone this umpire knows; deadlines stay in {}.",
                meta.time_zones.get(name).map_or("UTC", String::as_str)
            ),
        ),
        Command::Away(Some(d)) => {
            meta.away.insert(name.to_string(), d.clone());
            (
                "away",
                format!("Noted: away until {d}. Your deadlines are extended to the day after."),
            )
        }
        Command::Away(None) => {
            meta.away.remove(name);
            ("away", "Noted: you are back.".to_string())
        }
        _ => return None,
    })
}

/// The answers to the settings lines of a request that changes nothing
/// (`why`), each with the setting as it stays.
fn frozen_notes(
    meta: &GameMeta,
    name: &str,
    commands: &[Command],
    why: &str,
) -> BTreeMap<usize, (&'static str, String)> {
    let zone = meta.time_zones.get(name).map_or("UTC", String::as_str);
    let away = match meta.away.get(name) {
        Some(d) => format!("You are away until {d}."),
        None => "You are not away.".to_string(),
    };
    commands
        .iter()
        .enumerate()
        .filter_map(|(n, c)| match c {
            Command::TimeZone(_) => Some((
                n,
                (
                    "time zone",
                    format!("{why} Your deadlines are shown in {zone}."),
                ),
            )),
            Command::Away(_) => Some((n, ("away", format!("{why} {away}")))),
            _ => None,
        })
        .collect()
}

/// The store key noting when the request of `game` whose text hashes to
/// `text` was carried out and last answered.
fn request_key(game: &str, text: &Digest) -> String {
    format!("request:{game}:{}", text.to_hex())
}
