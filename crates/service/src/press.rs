//! Press by mail (`core::press`): a game's press options, the day's cap per
//! side, relaying a judged message to its recipients and answering its
//! sender. Each relay is a mail to one recipient's address alone, through
//! the outbox like every mail.
//!
//! A refused press is answered and remembered here (`press:` keys), never
//! recorded: the file may hold a private message. A copy of a press file,
//! relayed or refused, is judged no more: it relays nothing and grows
//! nothing, and its sender hears of it at most once a day (the copy guard).

use super::compose::Unsealed;
use super::decide::Outcome;
use super::games::rfc3339;
use super::{ServiceError, Umpire};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use umpire_core::game::{PressPlan, PressRefusal, PressVerdict};
use umpire_core::hash::{Digest, Tagged, sha256};
use umpire_core::press::PressMode;
use umpire_core::ruleset::Side;
use umpire_core::sealed::Salter;
use umpire_store::{Batch, Table};

/// Option key of the press mode at `umpire new` (`--option press=private`).
pub const OPTION_MODE: &str = "press";
/// Option key of the messages a side may send a day.
pub const OPTION_PER_DAY: &str = "press_per_day";
/// Option key of the bytes of message a side may send a day.
pub const OPTION_BYTES: &str = "press_bytes_per_day";
/// Messages a side may send a day, unless the game says otherwise.
pub const DEFAULT_PER_DAY: u32 = 10;
/// Bytes of message a side may send a day, unless the game says otherwise.
pub const DEFAULT_BYTES_PER_DAY: u64 = 32 * 1024;
/// Domain of the salter sealing private press in a game that hides nothing.
const PRESS_SALT_DOMAIN: &str = "umpire-press-salt-key-v1";

/// What press a game allows and what it may cost a side a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PressOptions {
    pub mode: PressMode,
    pub per_day: u32,
    pub bytes_per_day: u64,
}

impl PressOptions {
    /// The options of a game of `ruleset` created without press options:
    /// private press in the negotiated games (Asia Crossroads, A Distant
    /// Plain) and freeform, public press (to all sides) in the two-side
    /// wargames, as across a table.
    pub fn default_for(ruleset: &str) -> PressOptions {
        let mode = match ruleset {
            "sarhu" | "ldf" => PressMode::Public,
            _ => PressMode::Private,
        };
        PressOptions {
            mode,
            per_day: DEFAULT_PER_DAY,
            bytes_per_day: DEFAULT_BYTES_PER_DAY,
        }
    }

    /// Takes the press options out of a new game's options (they are the
    /// umpire's, not the ruleset's), over the ruleset's defaults.
    pub fn take_from(
        options: &mut BTreeMap<String, String>,
        ruleset: &str,
    ) -> Result<PressOptions, ServiceError> {
        let mut o = PressOptions::default_for(ruleset);
        if let Some(v) = options.remove(OPTION_MODE) {
            o.mode = PressMode::parse(&v).ok_or_else(|| {
                ServiceError::Game(format!(
                    "option press={v}: use press=none, press=public or press=private"
                ))
            })?;
        }
        if let Some(v) = options.remove(OPTION_PER_DAY) {
            o.per_day = number(OPTION_PER_DAY, &v)?;
        }
        if let Some(v) = options.remove(OPTION_BYTES) {
            o.bytes_per_day = number(OPTION_BYTES, &v)?;
        }
        Ok(o)
    }

    /// The options in a sentence, for the opening mail and `status`.
    pub fn describe(&self) -> String {
        match self.mode {
            PressMode::None => format!("Press: {}.", self.mode.describe()),
            _ => format!(
                "Press: {}; at most {} messages and {} bytes a side a day.",
                self.mode.describe(),
                self.per_day,
                self.bytes_per_day
            ),
        }
    }
}

fn number<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, ServiceError> {
    v.trim()
        .parse()
        .map_err(|_| ServiceError::Game(format!("option {key}={v}: not a whole number")))
}

/// What a side sent on one day.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Sent {
    day: String,
    count: u32,
    bytes: u64,
}

/// A press file judged and refused, remembered for its copies.
#[derive(Debug, Serialize, Deserialize)]
struct Refused {
    side: String,
    reason: String,
}

/// What the press part of a mail came to: mails, the ledger's words, and
/// whether the file's orders may still be judged.
pub(super) struct PressAnswer {
    pub(super) mails: Vec<Unsealed>,
    pub(super) outcome: String,
    /// The press was refused because the file mixes a private message
    /// with orders: nothing in it is judged.
    pub(super) stops_file: bool,
    /// The signature did not hold: the move path answers that.
    pub(super) forged: bool,
    pub(super) kind: Outcome,
}

impl Umpire {
    /// The press options of a game (its own, else its ruleset's defaults).
    pub fn press_options(&self, game_id: &str) -> Result<PressOptions, ServiceError> {
        let meta = self.meta(game_id)?;
        Ok(meta
            .press
            .unwrap_or_else(|| PressOptions::default_for(&meta.ruleset)))
    }

    /// Judges the press section of the signed file `text` for the loaded
    /// game `game_id`: records and relays it, or answers why not.
    #[allow(clippy::too_many_arguments)] // each is a distinct fact of the mail
    pub(super) fn press(
        &mut self,
        game_id: &str,
        text: &[u8],
        signature: &str,
        reply: Option<String>,
        at: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<PressAnswer, ServiceError> {
        let opts = self.press_options(game_id)?;
        let digest = sha256(text);
        let verdict = self.games[game_id].judge_press(text, signature, opts.mode);
        let answer = |mails, outcome: String, kind| PressAnswer {
            mails,
            outcome,
            stops_file: false,
            forged: false,
            kind,
        };
        match verdict {
            PressVerdict::Duplicate { seq, from } => {
                let outcome = format!("press: a copy of entry {seq}, not relayed again");
                let mails = self.press_copy(game_id, from, &digest, None, reply, now, batch)?;
                Ok(answer(mails, outcome, Outcome::Duplicate))
            }
            PressVerdict::Refused { from: None, reason } => Ok(PressAnswer {
                forged: matches!(reason, PressRefusal::Signature(_)),
                ..answer(
                    vec![],
                    format!("press refused: {reason}"),
                    Outcome::Rejected,
                )
            }),
            PressVerdict::Refused {
                from: Some(side),
                reason,
            } => {
                let stops_file = matches!(reason, PressRefusal::PrivateWithOrders { .. });
                let mails = self.press_refused(
                    game_id,
                    side,
                    &digest,
                    &reason.to_string(),
                    reply,
                    now,
                    batch,
                )?;
                Ok(PressAnswer {
                    stops_file,
                    ..answer(mails, format!("press refused: {reason}"), Outcome::Rejected)
                })
            }
            PressVerdict::Ready(plan) => {
                if self
                    .read_json::<Refused>(Table::Meta, refused_key(game_id, &digest))?
                    .is_some()
                {
                    let mails =
                        self.press_copy(game_id, plan.from, &digest, None, reply, now, batch)?;
                    let outcome = "press: a copy of a refused press, not judged again".to_string();
                    return Ok(answer(mails, outcome, Outcome::Duplicate));
                }
                if let Err(why) = self.within_cap(game_id, &plan, &opts, now, batch)? {
                    let mails =
                        self.press_refused(game_id, plan.from, &digest, &why, reply, now, batch)?;
                    return Ok(answer(
                        mails,
                        format!("press refused: {why}"),
                        Outcome::Rejected,
                    ));
                }
                self.relay(game_id, &plan, reply, at, now, batch)
            }
        }
    }

    /// Counts the message against its sender's day, or says why the day's
    /// cap refuses it.
    fn within_cap(
        &self,
        game_id: &str,
        plan: &PressPlan,
        opts: &PressOptions,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<Result<(), String>, ServiceError> {
        let name = &self.games[game_id].sides()[plan.from.index()].name;
        let day = rfc3339(now)[..10].to_string();
        let key = format!("press-day:{game_id}:{name}");
        let mut sent: Sent = self.read_json(Table::Meta, &key)?.unwrap_or_default();
        if sent.day != day {
            sent = Sent {
                day,
                ..Sent::default()
            };
        }
        let bytes = plan.message.len() as u64;
        if sent.count >= opts.per_day {
            return Ok(Err(format!(
                "{name} has sent {} messages today, this game's cap; send it again tomorrow (UTC)",
                opts.per_day
            )));
        }
        if sent.bytes + bytes > opts.bytes_per_day {
            return Ok(Err(format!(
                "the message is {bytes} bytes and {name} has sent {} today; this game's cap is {} bytes a side a day",
                sent.bytes, opts.bytes_per_day
            )));
        }
        sent.count += 1;
        sent.bytes += bytes;
        batch.put_json(Table::Meta, &key, &sent);
        Ok(Ok(()))
    }

    /// Records a judged message and mails it to each recipient, with a
    /// receipt to its sender.
    fn relay(
        &mut self,
        game_id: &str,
        plan: &PressPlan,
        reply: Option<String>,
        at: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<PressAnswer, ServiceError> {
        let salter = self.press_salter(game_id)?;
        let len = self.games[game_id].record().len();
        let game = self
            .games
            .get_mut(game_id)
            .ok_or_else(|| ServiceError::Game(format!("no game {game_id}")))?;
        let seq = game
            .record_press(plan, Some(&salter), at)
            .ok_or_else(|| ServiceError::Game("no salter for a private message".into()))?;
        batch.put_game(game_id, &self.games[game_id], len);
        let game = &self.games[game_id];
        let sides = game.sides();
        let from = &sides[plan.from.index()].name;
        let to: Vec<Side> = if plan.is_broadcast() {
            sides
                .iter()
                .filter_map(|s| game.side(&s.name))
                .filter(|s| *s != plan.from)
                .collect()
        } else {
            plan.to.clone()
        };
        let names: Vec<&str> = to.iter().map(|s| sides[s.index()].name.as_str()).collect();
        let to_line = if plan.is_broadcast() {
            "to all sides".to_string()
        } else {
            format!("to {}", names.join(", "))
        };
        let body = format!(
            "From the {from} side (signature checked), {to_line}:\n\n{}\n\nKept in the record as entry {seq}{}. Answer with a signed file:\n\n  game: {}\n  side: YOUR-SIDE\n  press to: {from}\n    your message\n",
            indent(&plan.message),
            if plan.is_broadcast() {
                ", where every side and the public can read it"
            } else {
                ", sealed to its sender and recipients until the game ends"
            },
            game.id()
        );
        let mut mails = Vec::new();
        for side in &to {
            let key = format!("{game_id}.{seq}.press.{}", sides[side.index()].name);
            let title = format!("press from {from}");
            mails.push(self.notice_mail(game, *side, &title, &body, false, None, key, now)?);
        }
        let receipt = format!(
            "Your message was relayed {to_line} and kept in the record as entry {seq}:\n\n{}\n",
            indent(&plan.message)
        );
        let key = format!("{game_id}.{seq}.press.{from}.sent");
        mails.push(self.notice_mail(
            game,
            plan.from,
            "press relayed",
            &receipt,
            false,
            reply,
            key,
            now,
        )?);
        Ok(PressAnswer {
            mails,
            outcome: format!("press relayed {to_line} as entry {seq}"),
            stops_file: false,
            forged: false,
            kind: Outcome::Accepted,
        })
    }

    /// A refused press: remembered, so that no copy is judged again, and
    /// answered to its sender.
    #[allow(clippy::too_many_arguments)] // each is a distinct fact of the refusal
    fn press_refused(
        &self,
        game_id: &str,
        side: Side,
        digest: &Digest,
        reason: &str,
        reply: Option<String>,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<Vec<Unsealed>, ServiceError> {
        let name = self.games[game_id].sides()[side.index()].name.clone();
        let note = Refused {
            side: name,
            reason: reason.to_string(),
        };
        batch.put_json(Table::Meta, refused_key(game_id, digest), &note);
        self.press_copy(game_id, side, digest, Some(reason), reply, now, batch)
    }

    /// The answer to a press refused now (`reason`) or to a copy of one
    /// judged before: once a day a file, within the side's answers a day.
    #[allow(clippy::too_many_arguments)] // each is a distinct fact of the answer
    fn press_copy(
        &self,
        game_id: &str,
        side: Side,
        digest: &Digest,
        reason: Option<&str>,
        reply: Option<String>,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<Vec<Unsealed>, ServiceError> {
        let game = &self.games[game_id];
        let name = game.sides()[side.index()].name.clone();
        let short = &digest.to_hex()[..16];
        if self
            .copy_guard(game_id, &name, &format!("press.{short}"), now, batch)?
            .is_err()
        {
            return Ok(vec![]);
        }
        let text = match reason {
            Some(r) => format!("Your press was not relayed: {r}\n"),
            None => match self.read_json::<Refused>(Table::Meta, refused_key(game_id, digest))? {
                Some(r) => format!(
                    "A copy of a press file refused before: {}\nNothing was relayed. To try again, change the file and sign it anew.\n",
                    r.reason
                ),
                None => "A copy of a press file relayed before: it is not relayed again.\n".into(),
            },
        };
        let day = &rfc3339(now)[..10];
        let key = format!("{game_id}.press.{short}.{day}");
        let title = if reason.is_some() {
            "press refused"
        } else {
            "a copy of a press file"
        };
        Ok(vec![self.notice_mail(
            game, side, title, &text, false, reply, key, now,
        )?])
    }

    /// The salter sealing a private message: the game's own where it hides
    /// something, else one derived from the umpire's key and the game id
    /// (an ed25519 signature is deterministic and only the umpire can make
    /// it), so a rerun after a crash writes the same bytes.
    fn press_salter(&mut self, game_id: &str) -> Result<Salter, ServiceError> {
        if let Some(s) = self.chain(game_id)?.salter {
            return Ok(s);
        }
        let sig = self
            .key
            .sign(PRESS_SALT_DOMAIN, game_id.as_bytes())
            .map_err(|e| ServiceError::Game(e.to_string()))?;
        let key = Tagged::new(PRESS_SALT_DOMAIN)
            .field(sig.as_bytes())
            .finish();
        Ok(Salter::new(key))
    }
}

/// The store key of a refused press file of `game`.
fn refused_key(game: &str, text: &Digest) -> String {
    format!("press:{game}:{}", text.to_hex())
}

/// A message indented by four spaces, so the mail sets it apart.
fn indent(message: &str) -> String {
    message
        .lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("    {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The line the opening mail and `command: status` give about press.
pub fn press_line(meta: &super::games::GameMeta) -> String {
    let opts = meta
        .press
        .unwrap_or_else(|| PressOptions::default_for(&meta.ruleset));
    umpire_render::templates::wrap(opts.describe(), Some(72), Some(0))
}
