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

/// The answer to `command: orders`: the body of the mail, and, when the list
/// is too long to read in a mail body, `orders.txt` holding every order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrdersReply {
    /// The mail's text: every order when they are few, else a summary.
    pub text: String,
    /// Every order `side` can give now, grouped (see [`orders_listing`]),
    /// attached as [`ORDERS_TXT`] when the body holds only the summary.
    pub attachment: Option<String>,
}

/// The name of the attachment listing every legal order.
pub const ORDERS_TXT: &str = "orders.txt";

/// Most lines of listed orders put in the body itself; more go to
/// [`ORDERS_TXT`] with a summary in the body.
const BODY_LINES: usize = 40;

/// The answer to `command: orders`: every order `side` can give now, in
/// the syntax a move file's `orders:` lines take, grouped by kind of order
/// and by the unit, stack or space it names first; in the body when short,
/// else attached with a summary in the body. Built from
/// `Ruleset::legal_moves` for `side` alone, so it holds only what the side
/// may know.
pub fn orders_reply(game: &Game, side: Side) -> OrdersReply {
    let legal = game.ruleset().legal_moves(game.state(), side);
    let wrap = |s: String| umpire_render::templates::wrap(s, Some(72), Some(2));
    if legal.is_empty() {
        return OrdersReply {
            text: wrap(format!(
                "Nothing is asked of you now. {}; waiting for {}.",
                game.prompt().stage,
                game.awaiting_names()
            )),
            attachment: None,
        };
    }
    let groups = group_orders(&legal);
    let listing = listing_text(&groups);
    let count: usize = groups.iter().map(|g| g.count()).sum();
    let mut t = wrap(format!(
        "{}. {} you can give now, as a move file's `orders:` lines take {}:",
        game.prompt().stage,
        plural(count, "order"),
        if count == 1 { "it" } else { "them" }
    ));
    t.push_str("\n\n");
    // An order line is never wrapped (it must read as written), so one too
    // wide for a mail's 72 columns sends the list to the attachment too.
    let fits = listing.lines().all(|l| l.chars().count() <= 72);
    if fits && listing.lines().count() <= BODY_LINES {
        t.push_str(&listing);
        return OrdersReply {
            text: t,
            attachment: None,
        };
    }
    t.push_str(&summary_text(&groups));
    t.push('\n');
    t.push_str(&wrap(format!(
        "The attached {ORDERS_TXT} lists every one, grouped by kind and by the unit, stack or space it names; \
         an order of several lines is one order (numbered once)."
    )));
    let head = format!(
        "Game {}, {}: {}. Every order you can give now, numbered; copy an order without its number into your move's `orders:`.\n\n",
        game.id(),
        game.sides()[side.index()].name,
        game.prompt().stage
    );
    OrdersReply {
        text: t,
        attachment: Some(head + &listing),
    }
}

/// `n` and `word`, plural when `n` is not 1.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The orders of one kind (their first word), by what they name first.
#[derive(Debug, Default)]
struct Kind<'a> {
    verb: String,
    /// Each subject (unit, stack or space) with its orders, in first-seen order.
    subjects: Vec<(String, Vec<&'a str>)>,
}

impl Kind<'_> {
    fn count(&self) -> usize {
        self.subjects.iter().map(|(_, v)| v.len()).sum()
    }
}

/// Words that join an order's parts rather than name its unit, stack or
/// space, and the words of a line that count pieces (`2 police 1 troops`).
const FILLERS: [&str; 24] = [
    "in",
    "at",
    "to",
    "with",
    "on",
    "from",
    "into",
    "the",
    "->",
    "of",
    "then",
    "and",
    "troops",
    "police",
    "guerrilla",
    "guerrillas",
    "base",
    "bases",
    "cubes",
    "cube",
    "active",
    "underground",
    "available",
    "roll",
];

/// What an order names first: a unit, stack or space (`move du-song-1:
/// 0807` → `du-song-1`, `rally\nin kabul` → `kabul`, `march\nmove 2
/// kabul>ghazni` → `kabul`). Each line's own first word (the order's verb,
/// `in`, `move`, `sa`) names nothing, nor does a Special Activity's name
/// after `sa`, a count or a joining word. Empty when it names nothing.
fn subject(order: &str) -> String {
    order
        .lines()
        .flat_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let skip = if words.first() == Some(&"sa") { 2 } else { 1 };
            words.into_iter().skip(skip)
        })
        .map(|w| {
            let w = w.split('>').next().unwrap_or(w);
            w.trim_end_matches([':', ',', ';'])
        })
        .find(|w| {
            !w.is_empty()
                && !FILLERS.contains(&w.to_ascii_lowercase().as_str())
                && !w.chars().all(|c| c.is_ascii_digit())
        })
        .unwrap_or("")
        .to_string()
}

/// The legal orders grouped by their first word, then by [`subject`],
/// duplicates dropped, order of first appearance kept.
fn group_orders(legal: &[String]) -> Vec<Kind<'_>> {
    let mut kinds: Vec<Kind<'_>> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for l in legal {
        if !seen.insert(l.as_str()) {
            continue;
        }
        let verb = l
            .split_whitespace()
            .next()
            .unwrap_or("")
            .trim_end_matches(':')
            .to_ascii_lowercase();
        let i = match kinds.iter().position(|k| k.verb == verb) {
            Some(i) => i,
            None => {
                kinds.push(Kind {
                    verb,
                    subjects: Vec::new(),
                });
                kinds.len() - 1
            }
        };
        let k = &mut kinds[i];
        let s = subject(l);
        match k.subjects.iter_mut().find(|(x, _)| *x == s) {
            Some((_, v)) => v.push(l),
            None => k.subjects.push((s, vec![l])),
        }
    }
    kinds
}

/// Every order, numbered, under its kind and subject. Order lines are never
/// wrapped: each is exactly what a move file takes (copy it without its number).
fn listing_text(kinds: &[Kind<'_>]) -> String {
    let mut t = String::new();
    let mut n = 0;
    for k in kinds {
        t.push_str(&format!("{} ({}):\n", k.verb, plural(k.count(), "order")));
        let by_subject = k.subjects.len() > 1;
        for (s, orders) in &k.subjects {
            let indent = if by_subject && !s.is_empty() {
                t.push_str(&format!("  {s}:\n"));
                "    "
            } else {
                "  "
            };
            for o in orders {
                n += 1;
                let num = format!("{n}. ");
                for (i, part) in o.lines().enumerate() {
                    let lead = if i == 0 {
                        num.clone()
                    } else {
                        " ".repeat(num.len())
                    };
                    t.push_str(&format!("{indent}{lead}{part}\n"));
                }
            }
        }
    }
    t
}

/// One line per kind of order: how many, and one for example.
fn summary_text(kinds: &[Kind<'_>]) -> String {
    let mut t = String::new();
    for k in kinds {
        // The shortest of the kind, as the example easiest to read.
        let example = k
            .subjects
            .iter()
            .flat_map(|(_, v)| v.iter())
            .min_by_key(|o| o.len())
            .map(|o| o.lines().collect::<Vec<_>>().join(" / "))
            .unwrap_or_default();
        t.push_str(&umpire_render::templates::wrap(
            format!("{}: {}, e.g. {example}", k.verb, plural(k.count(), "order")),
            Some(72),
            Some(4),
        ));
        t.push('\n');
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
                    let r = orders_reply(game, side);
                    let note = super::compose::Note {
                        title: "orders you can give",
                        text: &r.text,
                        attach_record: false,
                        attachments: r
                            .attachment
                            .map(|l| {
                                (
                                    ORDERS_TXT.to_string(),
                                    "text/plain; charset=utf-8".to_string(),
                                    l.into_bytes(),
                                )
                            })
                            .into_iter()
                            .collect(),
                    };
                    let to = game.sides()[side.index()].email.clone();
                    out.push(self.note_to(game, side, &to, note, reply.clone(), key, now)?);
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
                    out.push(self.notice_mail(game, side, "the record", "The game's record is attached, with the umpire's signature.\nCheck it with: umpire verify record.txt\n(or umpire verify record.txt.gz: a long game's record comes compressed)", true, reply.clone(), key, now)?);
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
                batch.put_game(game_id, game, len);
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
