//! Seats taken by mail: games created with open seats (`umpire new --open`),
//! the signed joins players mail for them, the admin's approval or refusal
//! (`umpire admin seat`, `umpire admin seats`) or the game's first-come rule
//! (`--option seats=first`), and the answers every joiner gets.
//!
//! A game with an open seat does not start its clock: no deadline, no
//! reminder, no default, and a seated side's move is refused unrecorded
//! ("waiting for seats") until every seat is taken. Requests are answered.
//!
//! A join never changes the game's state or any side's secrets: a held join
//! is kept in the game's metadata (at most [`MAX_HELD`] a game), and only the
//! seating itself is an entry (`AdminAct::Seat`, bound to the join's digest).
//! Every signed join is judged once: a copy of a seated join is known from the
//! record, of a held one from the metadata, of a refused one from the store's
//! `join:` key; a copy changes nothing and is answered again at most once a
//! day. Answers to joins are capped per address per day ([`JOINS_PER_DAY`]).

use super::compose::{Draft, Unsealed};
use super::decide::{Decision, Outcome};
use super::games::{GameMeta, rfc3339};
use super::poll::LedgerEntry;
use super::{ServiceError, Umpire};
use serde::{Deserialize, Serialize};
use umpire_core::hash::{Digest, sha256};
use umpire_core::ruleset::Side;
use umpire_core::seat::{JoinFile, Seating};
use umpire_mail::mime::{FoundMove, ReadMail};
use umpire_store::{Batch, Table};

/// Most joins a game holds for its admin at once; more are refused until
/// the admin has answered some.
pub const MAX_HELD: usize = 20;
/// Most joins answered for one sender address a day; past it a join is
/// logged and not answered (a stranger cannot make the umpire mail without
/// end).
pub const JOINS_PER_DAY: u32 = 5;
/// The game option (`--option seats=first`) that seats the first valid
/// joiner; without it every join waits for the admin.
pub const SEATS_OPTION: &str = "seats";

/// Who decides a join.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatRule {
    /// The admin approves or refuses each join (`umpire admin seat`).
    #[default]
    Admin,
    /// The first valid join for a seat takes it.
    First,
}

impl SeatRule {
    /// Reads the `seats` game option.
    pub fn parse(v: &str) -> Result<SeatRule, ServiceError> {
        match v.trim().to_ascii_lowercase().as_str() {
            "admin" => Ok(SeatRule::Admin),
            "first" => Ok(SeatRule::First),
            _ => Err(ServiceError::Game(format!(
                "option seats={v:?}: write seats=admin (the admin approves each join) or seats=first (the first valid join takes the seat)"
            ))),
        }
    }
}

/// A join waiting for the admin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldJoin {
    /// The first 12 hex digits of the join's digest: how the admin names it.
    pub id: String,
    /// The side asked for; `None` for any open seat.
    pub side: Option<String>,
    /// The joiner's key (OpenSSH line) and its fingerprint.
    pub key: String,
    pub fingerprint: String,
    /// The name the joiner gave.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The address the join came from: the seat's address once seated.
    pub from: String,
    /// The exact signed text and its signature.
    pub text: String,
    pub signature: String,
    /// When it came.
    pub at: String,
    /// The Message-ID it came with, to thread the answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
}

/// The join file a player fills in for game `id` (`side` or `any`).
pub fn join_template(id: &str, side: &str) -> String {
    format!(
        "game: {id}\nside: {side}\njoin: ssh-ed25519 AAAA… (your public key, e.g. ~/.ssh/id_ed25519.pub)\nname: Your Name\n"
    )
}

/// How to send a join, for the answers and the pages.
pub fn how_to_join(id: &str, open: &[String]) -> String {
    let side = if open.len() == 1 {
        open[0].as_str()
    } else {
        "any"
    };
    let template: String = join_template(id, side)
        .lines()
        .map(|l| format!("  {l}\n"))
        .collect();
    format!(
        "To take a seat, write a file like this (side: one of {} or `any`):\n\n{template}\nsign it with the key it names (`umpire sign join.txt --key ~/.ssh/id_ed25519`,\nor `ssh-keygen -Y sign -n umpire-move -f ~/.ssh/id_ed25519 join.txt`) and\nmail join.txt and join.txt.sig to the umpire from the address your\nresults should go to.\n",
        open.join(", ")
    )
}

/// What one join is, once read: the parsed file, its signed bytes, the
/// signature, the digest, and the mail it came in.
struct Join<'a> {
    file: JoinFile,
    bytes: Vec<u8>,
    signature: String,
    digest: Digest,
    from: String,
    mail: &'a ReadMail,
}

/// What the umpire makes of a join.
enum Judged {
    /// Refused, with the reason (remembered, so a copy gets it again).
    Refused(String),
    /// Held for the admin.
    Held,
    /// Seated now (the first-come rule), with the mails of the seat entry.
    Seated(u64, Vec<Unsealed>),
}

impl Umpire {
    /// A mail whose signed file is a join: judged once, answered within the
    /// sender's daily cap.
    pub(super) fn join_mail(
        &mut self,
        mail: &ReadMail,
        found: &FoundMove,
        now: jiff::Timestamp,
        short: &str,
    ) -> Result<Decision, ServiceError> {
        let at = rfc3339(now);
        let mut batch = Batch::new();
        let from = mail.from.clone().unwrap_or_default();
        let (outcome, game, text) = match self.read_join(mail, found, &from) {
            Err(why) => (format!("refused: join: {why}"), None, Some(why)),
            Ok(join) => {
                let id = join.file.game.clone();
                let (outcome, text) = self.judge_join(&join, now, &mut batch)?;
                (outcome, Some(id), text)
            }
        };
        let mut d = Decision {
            batch,
            mails: vec![],
            ledger: LedgerEntry {
                at,
                message_id: mail.message_id.clone(),
                from: mail.from.clone(),
                game: game.clone(),
                outcome,
                body: None,
            },
            game,
            kind: Outcome::Ignored,
        };
        if let Some((title, text)) = text.map(|t| split_title(&t))
            && !from.is_empty()
        {
            if self.join_quota(&from, now, &mut d.batch)? {
                // Keyed by the mail it answers, as every note is.
                let key = format!("join.{short}");
                d.mails.push(self.join_reply(
                    &from,
                    &title,
                    &text,
                    mail.message_id.clone(),
                    key,
                    now,
                )?);
            } else {
                d.ledger
                    .outcome
                    .push_str(" (not answered: the day's answers to this address are spent)");
            }
        }
        Ok(d)
    }

    /// The join in a mail, its signature checked against the key it names.
    fn read_join<'a>(
        &self,
        mail: &'a ReadMail,
        found: &FoundMove,
        from: &str,
    ) -> Result<Join<'a>, String> {
        let signature = found
            .signature
            .as_deref()
            .unwrap_or_default()
            .replace("\r\n", "\n");
        let file = JoinFile::parse(&found.candidates[0])
            .map_err(|e| format!("join refused\nThe join file does not read: {e}."))?;
        let bytes = found
            .candidates
            .iter()
            .find(|c| file.verify(c, &signature).is_ok())
            .ok_or_else(|| {
                "join refused\nThe join's signature does not hold with the key on its join: line. Sign the file with that key, as it is, and send the file and its .sig together.".to_string()
            })?
            .clone();
        if umpire_mail::mime::check_address(from).is_err() {
            return Err("join refused\nThe mail has no address to seat you at.".into());
        }
        Ok(Join {
            digest: sha256(&bytes),
            file,
            bytes,
            signature,
            from: from.to_string(),
            mail,
        })
    }

    /// Judges a join: the ledger's outcome and the answer (title and text;
    /// `None` when the answer is the seat entry's result mails).
    fn judge_join(
        &mut self,
        join: &Join,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<(String, Option<String>), ServiceError> {
        let id = join.file.game.clone();
        if self.store.head(&id)?.is_none() {
            let why = self.no_game_reason(&id, &join.from)?;
            return Ok((
                format!("refused: join: no game {id:?}"),
                Some(format!(
                    "join refused\nThe join names a game this umpire does not hold: {why}"
                )),
            ));
        }
        if let Some(copy) = self.copy_of_join(&id, join)? {
            return Ok(("duplicate join: answered again".into(), Some(copy)));
        }
        match self.decide_join(&id, join, now, batch)? {
            Judged::Refused(why) => {
                batch.put_json(Table::Meta, refused_key(&id, &join.digest), &why);
                Ok((
                    format!("refused: join: {}", why.lines().next().unwrap_or_default()),
                    Some(format!("join refused\n{why}")),
                ))
            }
            Judged::Held => {
                let text = format!(
                    "join held\nYour join for game {id} ({}) is held for the club's admin, who approves or refuses it. You will be told either way.\nYour key: {}",
                    join.file.side.as_deref().unwrap_or("any open seat"),
                    join.file.key.fingerprint()
                );
                Ok((format!("join held for the admin ({id})"), Some(text)))
            }
            Judged::Seated(seq, mails) => {
                batch_mails(self, batch, &mails, now);
                Ok((format!("join: seated as entry {seq}"), None))
            }
        }
    }

    /// The answer to a copy of a join judged before, if this is one.
    fn copy_of_join(&mut self, id: &str, join: &Join) -> Result<Option<String>, ServiceError> {
        self.load(id)?;
        if let Some(seq) = self.games[id].request_entry(&join.digest) {
            return Ok(Some(format!(
                "join judged before\nThis signed join was judged before: it took its seat as entry {seq} of game {id}. A copy changes nothing."
            )));
        }
        let meta = self.meta(id)?;
        if meta.joins.iter().any(|h| h.id == short(&join.digest)) {
            return Ok(Some(format!(
                "join judged before\nThis signed join is held already for the club's admin of game {id}; a copy changes nothing. You will be told the answer."
            )));
        }
        let refused: Option<String> = self.read_json(Table::Meta, refused_key(id, &join.digest))?;
        Ok(refused.map(|why| {
            format!(
                "join judged before\nThis signed join was judged before and refused; a copy is never judged again:\n\n{why}"
            )
        }))
    }

    /// Refuses, holds or (first come) seats a join new to game `id`.
    fn decide_join(
        &mut self,
        id: &str,
        join: &Join,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<Judged, ServiceError> {
        let mut meta = self.meta(id)?;
        let game = &self.games[id];
        if let Some(f) = &game.prompt().finished {
            return Ok(Judged::Refused(format!(
                "Game {id} is over: {f}",
                f = f.summary
            )));
        }
        let open: Vec<String> = game
            .open_seats()
            .iter()
            .map(|s| game.sides()[s.index()].name.clone())
            .collect();
        if open.is_empty() {
            return Ok(Judged::Refused(format!(
                "Game {id} has no open seat: every side has its player."
            )));
        }
        let side = match &join.file.side {
            None => None,
            Some(asked) => match game.side(asked) {
                None => {
                    let names: Vec<&str> = game.sides().iter().map(|s| s.name.as_str()).collect();
                    let hint = match umpire_core::suggest::closest(asked, names.iter().copied()) {
                        Some(near) => format!(" Did you mean {near}?"),
                        None => String::new(),
                    };
                    return Ok(Judged::Refused(format!(
                        "Game {id} has no side {asked:?}.{hint} Its open seats: {}.",
                        open.join(", ")
                    )));
                }
                Some(s) if !game.sides()[s.index()].is_open() => {
                    return Ok(Judged::Refused(format!(
                        "The seat of {asked} in game {id} is taken already. Open seats: {}.",
                        open.join(", ")
                    )));
                }
                Some(s) => Some(s),
            },
        };
        if let Some(s) = game.side_of_key(&join.file.key) {
            return Ok(Judged::Refused(format!(
                "Your key plays {} in game {id} already: one key, one seat.",
                game.sides()[s.index()].name
            )));
        }
        if meta.seat_rule == SeatRule::First {
            let side = side.unwrap_or_else(|| game.open_seats()[0]);
            let seating = seating_of(join, &game.sides()[side.index()].name);
            let (seq, mails) = self.seat_now(
                id,
                seating,
                "the first valid join (seats=first)",
                now,
                batch,
            )?;
            return Ok(Judged::Seated(seq, mails));
        }
        if meta
            .joins
            .iter()
            .any(|h| h.key == join.file.key.to_openssh())
        {
            return Ok(Judged::Refused(format!(
                "A join by your key waits for the admin of game {id} already; you will be told its answer."
            )));
        }
        if meta.joins.len() >= MAX_HELD {
            return Ok(Judged::Refused(format!(
                "Game {id} holds {MAX_HELD} joins for its admin already; send yours again once the admin has answered some."
            )));
        }
        meta.joins.push(HeldJoin {
            id: short(&join.digest),
            side: side.map(|s| game.sides()[s.index()].name.clone()),
            key: join.file.key.to_openssh(),
            fingerprint: join.file.key.fingerprint(),
            name: join.file.name.clone(),
            from: join.from.clone(),
            text: String::from_utf8_lossy(&join.bytes).into_owned(),
            signature: join.signature.clone(),
            at: rfc3339(now),
            message_id: join.mail.message_id.clone(),
        });
        batch.put_json(Table::Games, id, &meta);
        Ok(Judged::Held)
    }

    /// Seats a player in game `id` (loaded): the seat entry, the game's
    /// metadata (the clock starts once every seat is taken), and the result
    /// mails to every seated side, the new one included. Held joins the
    /// seating answers (their seat taken, or no seat left) are dropped and
    /// answered.
    fn seat_now(
        &mut self,
        id: &str,
        seating: Seating,
        reason: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<(u64, Vec<Unsealed>), ServiceError> {
        let len = self.games[id].record().len();
        self.ensure_chain(id, now, batch)?;
        let chain = self.chain(id)?;
        self.cache_chains(batch);
        let (side, email) = (seating.side.clone(), seating.email.clone());
        let game = self
            .games
            .get_mut(id)
            .ok_or_else(|| ServiceError::Game(format!("no game {id}")))?;
        let seq = match game.seat(seating, reason, &chain, &rfc3339(now)) {
            Ok((seq, _)) => seq,
            Err(e) => {
                self.forget(id);
                return Err(ServiceError::Admin {
                    game: id.to_string(),
                    source: e,
                });
            }
        };
        let game = &self.games[id];
        batch.put_game(id, game, len);
        let mut meta = self.meta(id)?;
        meta.addresses.insert(side, email);
        let answered = settle_held(&mut meta, game);
        meta.open_seats = open_names(game);
        meta.refresh_waiting(game, now);
        let mut mails = self.result_mails(game, &meta, seq, None, None, "", now)?;
        for (h, why) in answered {
            let text = format!("{why}\n{}", how_to_join(id, &open_names(game)));
            mails.push(self.join_reply(
                &h.from,
                "join not taken",
                &text,
                h.message_id.clone(),
                format!("join.{}.{seq}.settled", h.id),
                now,
            )?);
        }
        batch.put_json(Table::Games, id, &meta);
        // The index of players by address is per poll: this one just grew.
        self.forget_players();
        Ok((seq, mails))
    }

    /// A mail to a joiner (not yet a side): the umpire's own answer.
    fn join_reply(
        &self,
        to: &str,
        title: &str,
        text: &str,
        reply: Option<String>,
        key: String,
        now: jiff::Timestamp,
    ) -> Result<Unsealed, ServiceError> {
        self.mail(
            Draft {
                key,
                to,
                subject: format!("umpire: {title}"),
                text: format!("{}\n", text.trim_end()),
                signed: None,
                attachments: vec![],
                thread: reply.map(|r| (r, None)),
                game: None,
            },
            now,
        )
    }

    /// May `addr` get one more answer to a join today? Counted in `batch`.
    fn join_quota(
        &self,
        addr: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<bool, ServiceError> {
        if addr.eq_ignore_ascii_case(&self.config.umpire.address) {
            return Ok(false);
        }
        let day = rfc3339(now)[..10].to_string();
        let key = format!("{QUOTA_PREFIX}{}", addr.to_ascii_lowercase());
        let (last, n): (String, u32) = self.read_json(Table::Meta, &key)?.unwrap_or_default();
        let n = if last == day { n } else { 0 };
        if n >= JOINS_PER_DAY {
            return Ok(false);
        }
        batch.put_json(Table::Meta, &key, &(day, n + 1));
        Ok(true)
    }

    /// Forgets what joins left in the store that can no longer matter
    /// (`umpire compact`): answer counts of past days, and refused joins of
    /// games that are over or gone (every join to them is refused anyway).
    /// Returns how many keys went.
    pub(super) fn sweep_joins(
        &self,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<usize, ServiceError> {
        let today = &rfc3339(now)[..10];
        let mut swept = 0;
        for (key, value) in self.store.scan(Table::Meta, QUOTA_PREFIX)? {
            let day: Option<(String, u32)> = serde_json::from_slice(&value).ok();
            if day.is_none_or(|(d, _)| d != today) {
                batch.remove(Table::Meta, &key);
                swept += 1;
            }
        }
        let mut over: std::collections::BTreeMap<String, bool> = Default::default();
        for (key, _) in self.store.scan(Table::Meta, REFUSED_PREFIX)? {
            let text = String::from_utf8_lossy(&key);
            let Some((id, _)) = text[REFUSED_PREFIX.len()..].rsplit_once(':') else {
                continue;
            };
            let gone = match over.get(id) {
                Some(g) => *g,
                None => {
                    let g = self.meta(id).map_or(true, |m| m.finished.is_some());
                    over.insert(id.to_string(), g);
                    g
                }
            };
            if gone {
                batch.remove(Table::Meta, &key);
                swept += 1;
            }
        }
        Ok(swept)
    }

    /// The joins held for the admin of every game (`umpire admin seats`),
    /// with each game's open seats.
    pub fn held_joins(&self) -> Result<Vec<(String, Vec<HeldJoin>)>, ServiceError> {
        let mut out = Vec::new();
        for id in self.game_ids()? {
            let Ok(meta) = self.meta(&id) else { continue };
            if !meta.joins.is_empty() {
                out.push((id, meta.joins));
            }
        }
        Ok(out)
    }

    /// The public games with open seats and how to join them, for the help
    /// mail (empty when there are none). Reads each game's metadata only.
    pub(super) fn open_games_text(&self) -> Result<String, ServiceError> {
        let mut out = String::new();
        for id in self.game_ids()? {
            let Ok(meta) = self.meta(&id) else { continue };
            if !meta.public || meta.open_seats.is_empty() || meta.finished.is_some() {
                continue;
            }
            out.push_str(&format!(
                "  {id} ({}): open seats {}\n",
                meta.ruleset,
                meta.open_seats.join(", ")
            ));
        }
        if out.is_empty() {
            return Ok(out);
        }
        Ok(format!(
            "Games with open seats:\n\n{out}\n{}",
            how_to_join("GAME-ID", &["SIDE".to_string(), "any".to_string()])
        ))
    }

    /// The open seats of a game (loaded from the store if needed).
    pub fn open_seats(&mut self, id: &str) -> Result<Vec<String>, ServiceError> {
        let game = self.game(id)?;
        Ok(open_names(game))
    }

    /// The admin approves a held join for `side` of game `id` (`join`: the
    /// held join's id, needed when several wait for that seat). Returns the
    /// seat entry.
    pub fn approve_join(
        &mut self,
        id: &str,
        side: &str,
        join: Option<&str>,
        reason: &str,
        now: jiff::Timestamp,
    ) -> Result<u64, ServiceError> {
        self.load(id)?;
        let side = self.games[id]
            .side(side)
            .map(|s| self.games[id].sides()[s.index()].name.clone())
            .ok_or_else(|| ServiceError::Game(format!("game {id} has no side {side}")))?;
        let held = self.pick_held(id, &side, join)?;
        let seating = Seating {
            side: side.clone(),
            key: held.key.clone(),
            email: held.from.clone(),
            name: held.name.clone(),
            join: held.text.clone(),
            signature: held.signature.clone(),
        };
        let reason = if reason.trim().is_empty() {
            "approved by the club's admin"
        } else {
            reason
        };
        let mut batch = Batch::new();
        let (seq, mails) = self.seat_now(id, seating, reason, now, &mut batch)?;
        self.queue(&mut batch, &mails, now);
        if let Err(e) = self.store.commit(batch) {
            self.forget(id);
            return Err(e.into());
        }
        Ok(seq)
    }

    /// The admin refuses a held join (for `side`, or the one named `join`):
    /// it is dropped, remembered as refused, and the joiner told why.
    pub fn refuse_join(
        &mut self,
        id: &str,
        side: &str,
        join: Option<&str>,
        reason: &str,
        now: jiff::Timestamp,
    ) -> Result<String, ServiceError> {
        let held = self.pick_held(id, &side.to_ascii_lowercase(), join)?;
        let mut meta = self.meta(id)?;
        meta.joins.retain(|h| h.id != held.id);
        let why = if reason.trim().is_empty() {
            format!("The club's admin of game {id} refused your join.")
        } else {
            format!(
                "The club's admin of game {id} refused your join: {}",
                reason.trim()
            )
        };
        let mut batch = Batch::new();
        batch.put_json(Table::Games, id, &meta);
        batch.put_json(
            Table::Meta,
            refused_key(id, &sha256(held.text.as_bytes())),
            &why,
        );
        let mail = self.join_reply(
            &held.from,
            "join refused",
            &why,
            held.message_id.clone(),
            format!("join.{}.refused", held.id),
            now,
        )?;
        self.queue(&mut batch, &[mail], now);
        self.store.commit(batch)?;
        Ok(held.from)
    }

    /// The held join the admin means: the one named `join`, else the only
    /// one that could take `side`'s seat.
    fn pick_held(
        &self,
        id: &str,
        side: &str,
        join: Option<&str>,
    ) -> Result<HeldJoin, ServiceError> {
        let meta = self.meta(id)?;
        let fits: Vec<&HeldJoin> = meta
            .joins
            .iter()
            .filter(|h| h.side.as_deref().is_none_or(|s| s == side))
            .filter(|h| join.is_none_or(|j| h.id.starts_with(&j.to_ascii_lowercase())))
            .collect();
        match fits.as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(ServiceError::Game(format!(
                "game {id} holds no join for {side}{}; `umpire admin seats` lists them",
                join.map(|j| format!(" with id {j}")).unwrap_or_default()
            ))),
            many => Err(ServiceError::Game(format!(
                "game {id} holds {} joins for {side}: name one with --join ({})",
                many.len(),
                many.iter()
                    .map(|h| h.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}

/// Queues the seat entry's mails into `batch`.
fn batch_mails(u: &Umpire, batch: &mut Batch, mails: &[Unsealed], now: jiff::Timestamp) {
    u.queue(batch, mails, now);
}

/// The seating a join asks for, at `side`.
fn seating_of(join: &Join, side: &str) -> Seating {
    Seating {
        side: side.to_string(),
        key: join.file.key.to_openssh(),
        email: join.from.clone(),
        name: join.file.name.clone(),
        join: String::from_utf8_lossy(&join.bytes).into_owned(),
        signature: join.signature.clone(),
    }
}

/// Drops the held joins a seating answered: those for a seat now taken, and
/// every one once no seat is open. Returns them with the reason.
fn settle_held(meta: &mut GameMeta, game: &umpire_core::game::Game) -> Vec<(HeldJoin, String)> {
    let open = open_names(game);
    let mut answered = Vec::new();
    meta.joins.retain(|h| {
        let keep = match &h.side {
            _ if open.is_empty() => false,
            Some(s) => open.contains(s),
            None => true,
        };
        let key_seated = umpire_core::sig::PublicKey::parse(&h.key)
            .ok()
            .and_then(|k| game.side_of_key(&k))
            .is_some();
        if !keep || key_seated {
            let why = match &h.side {
                // The join just granted: its answer is the seat's result mail.
                _ if key_seated => String::new(),
                _ if open.is_empty() => format!("Every seat of game {} is taken: your join cannot be granted.", game.id()),
                Some(s) => format!("The seat of {s} in game {} was taken by another player: your join cannot be granted.", game.id()),
                None => String::new(),
            };
            answered.push((h.clone(), why));
            return false;
        }
        true
    });
    answered.retain(|(_, why)| !why.is_empty());
    answered
}

/// The names of a game's open seats.
pub fn open_names(game: &umpire_core::game::Game) -> Vec<String> {
    game.open_seats()
        .iter()
        .map(|s: &Side| game.sides()[s.index()].name.clone())
        .collect()
}

/// The store keys counting answers to joins per address and day.
const QUOTA_PREFIX: &str = "join-quota:";
/// The store keys remembering refused joins (`join:GAME:DIGEST`).
const REFUSED_PREFIX: &str = "join:";

/// The store key remembering a refused join.
fn refused_key(id: &str, digest: &Digest) -> String {
    format!("{REFUSED_PREFIX}{id}:{}", digest.to_hex())
}

/// A held join's id: the first 12 hex digits of its digest.
fn short(d: &Digest) -> String {
    d.to_hex()[..12].to_string()
}

/// "title\ntext" into its parts.
fn split_title(t: &str) -> (String, String) {
    match t.split_once('\n') {
        Some((a, b)) => (a.to_string(), b.to_string()),
        None => ("join".to_string(), t.to_string()),
    }
}
