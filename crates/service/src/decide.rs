//! What one mail means: read it, screen it (too big, a second delivery,
//! automatic, our own), find its signed move, and submit that to its game;
//! then the answer each verdict calls for. Nothing here writes: a
//! [`Decision`] is the writes and mails the poll commits for the mail.

use super::compose::Unsealed;
use super::games::rfc3339;
use super::poll::LedgerEntry;
use super::{ServiceError, Umpire};
use umpire_core::game::{RejectKind, Rejection, Verdict};
use umpire_core::hash::{Digest, sha256};
use umpire_core::movefile::{Command, MoveFile, MoveFileError};
use umpire_core::ruleset::Side;
use umpire_core::sig::MOVE_NAMESPACE;
use umpire_mail::Incoming;
use umpire_mail::mime::{self, FoundMove, ReadMail};
use umpire_store::{Batch, Table};

/// What processing one mail decided, before it is committed.
pub(super) struct Decision {
    pub(super) batch: Batch,
    pub(super) mails: Vec<Unsealed>,
    pub(super) ledger: LedgerEntry,
    pub(super) game: Option<String>,
    pub(super) kind: Outcome,
}

impl Decision {
    /// A mail that changes no game: its ledger line, and perhaps a note back.
    fn ignored(ledger: LedgerEntry) -> Decision {
        Decision {
            batch: Batch::new(),
            mails: vec![],
            ledger,
            game: None,
            kind: Outcome::Ignored,
        }
    }
}

/// What kind of answer a mail got, for the poll's report.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Outcome {
    Accepted,
    Rejected,
    Duplicate,
    Commands,
    Ignored,
}

/// The time a mail was sent, from its Date header, else `now`. Informative
/// only (the record's `at`), but stable across reruns of the same mail.
fn mail_time(mail: &ReadMail, now: jiff::Timestamp) -> jiff::Timestamp {
    mail.date
        .as_deref()
        .and_then(|d| mailparse::dateparse(d).ok())
        .and_then(|s| jiff::Timestamp::from_second(s).ok())
        .unwrap_or(now)
}

/// What every step of deciding one mail needs: the time, and the short
/// form of the mail's hash that keys the notes sent back about it.
struct MailCx<'a> {
    now: jiff::Timestamp,
    at: String,
    short: &'a str,
}

impl MailCx<'_> {
    fn ledger(
        &self,
        mail: Option<&ReadMail>,
        game: Option<String>,
        outcome: String,
    ) -> LedgerEntry {
        LedgerEntry {
            at: self.at.clone(),
            message_id: mail.and_then(|x| x.message_id.clone()),
            from: mail.and_then(|x| x.from.clone()),
            game,
            outcome,
            body: None,
        }
    }

    fn ignored(&self, mail: Option<&ReadMail>, outcome: String) -> Decision {
        Decision::ignored(self.ledger(mail, None, outcome))
    }
}

/// A mail's signed move: the mail, the move as found in it, and its
/// signature (armor with LF line ends).
struct Submission<'a> {
    mail: &'a ReadMail,
    found: &'a FoundMove,
    signature: &'a str,
}

/// The mails, the ledger's outcome and its kind: the answer to a verdict.
type Answer = (Vec<Unsealed>, String, Outcome);

impl Umpire {
    /// What mail `m` (ledger key `hkey`) means, as writes and mails to commit.
    pub(super) fn decide(
        &mut self,
        m: &Incoming,
        hkey: &str,
        now: jiff::Timestamp,
    ) -> Result<Decision, ServiceError> {
        let cx = MailCx {
            now,
            at: rfc3339(now),
            short: &hkey[2..14],
        };
        // The intake may have left an oversized mail's body on the server.
        let size = m.oversize.map_or(m.raw.len(), |s| s as usize);
        if size > self.config.limits.max_mail_bytes || m.oversize.is_some() {
            return self.oversized(m, size, &cx);
        }
        let ahead = self.read_mails.as_ref().and_then(|r| r.take(m));
        let mail = match ahead.map_or_else(|| mime::read(&m.raw), Ok) {
            Ok(x) => x,
            Err(e) => return Ok(cx.ignored(None, format!("ignored: {e}"))),
        };
        if let Some(d) = self.screened(&mail, &m.raw, &cx)? {
            return Ok(d);
        }
        let found = mime::moves(&mail);
        // One signed move per mail: the first found.
        let Some(f) = found.iter().find(|f| f.signature.is_some()) else {
            return self.unsigned(&mail, &found, &cx);
        };
        if umpire_core::seat::is_join(&f.candidates[0]) {
            return self.join_mail(&mail, f, now, cx.short);
        }
        let parsed = MoveFile::parse(&f.candidates[0]);
        let game_id = match &parsed {
            Ok(p) => p.game.clone(),
            Err(e) => return self.unreadable(&mail, f, e, &cx),
        };
        if self.store.head(&game_id)?.is_none() {
            return self.no_game(&mail, &game_id, &cx);
        }
        self.load(&game_id)?;
        // SSHSIG armor means the same with either line end; record it with LF.
        let signature = f
            .signature
            .as_deref()
            .unwrap_or_default()
            .replace("\r\n", "\n");
        if let Some(d) = self.paused_refusal(&game_id, &f.candidates, &signature, &mail, now)? {
            return Ok(d);
        }
        let sub = Submission {
            mail: &mail,
            found: f,
            signature: &signature,
        };
        let mut batch = Batch::new();
        let mut press = None;
        if let Ok(p) = &parsed
            && p.press.is_some()
        {
            let (pa, only) = self.press_part(&game_id, &sub, p, &cx, &mut batch)?;
            if only || pa.stops_file {
                return self.press_decision(&game_id, pa, &sub, &cx, batch);
            }
            press = (!pa.forged).then_some(pa);
        }
        let (verdict, text) =
            self.submit_move(&game_id, &sub, parsed.as_ref().ok(), now, &mut batch)?;
        let (mut mails, mut outcome, kind) =
            self.answer(&game_id, verdict, &sub, &text, &cx, &mut batch)?;
        if let Some(pa) = press {
            mails.extend(pa.mails);
            outcome = format!("{outcome}; {}", pa.outcome);
        }
        Ok(Decision {
            batch,
            mails,
            ledger: cx.ledger(Some(&mail), Some(game_id.clone()), outcome),
            game: Some(game_id),
            kind,
        })
    }

    /// The press section of a signed file judged (`service::press`), and
    /// whether the file holds nothing else.
    fn press_part(
        &mut self,
        game_id: &str,
        sub: &Submission,
        file: &MoveFile,
        cx: &MailCx,
        batch: &mut Batch,
    ) -> Result<(super::press::PressAnswer, bool), ServiceError> {
        let only = file.orders.is_empty() && file.standing.is_none() && file.commands.is_empty();
        let game = &self.games[game_id];
        // The candidate the signature verifies is the one that was signed.
        let bytes = game
            .side(&file.side)
            .and_then(|side| {
                sub.found.candidates.iter().find(|c| {
                    game.sides()[side.index()]
                        .key
                        .as_ref()
                        .is_some_and(|k| k.verify(MOVE_NAMESPACE, c, sub.signature).is_ok())
                })
            })
            .unwrap_or(&sub.found.candidates[0])
            .clone();
        let at = rfc3339(mail_time(sub.mail, cx.now));
        let reply = sub.mail.message_id.clone();
        let pa = self.press(game_id, &bytes, sub.signature, reply, &at, cx.now, batch)?;
        Ok((pa, only))
    }

    /// The decision on a file whose press is all that is judged of it.
    fn press_decision(
        &self,
        game_id: &str,
        pa: super::press::PressAnswer,
        sub: &Submission,
        cx: &MailCx,
        batch: Batch,
    ) -> Result<Decision, ServiceError> {
        let mut d = Decision {
            batch,
            mails: pa.mails,
            ledger: cx.ledger(Some(sub.mail), Some(game_id.to_string()), pa.outcome),
            game: Some(game_id.to_string()),
            kind: pa.kind,
        };
        if pa.forged {
            // Whoever mailed it, not the side it names, hears why (once a day).
            let why = d.ledger.outcome.clone();
            self.note_howto(&mut d, sub.mail, cx, |_| Ok(why))?;
        }
        Ok(d)
    }

    /// A mail over the size cap: read only its headers, to answer it.
    fn oversized(&self, m: &Incoming, size: usize, cx: &MailCx) -> Result<Decision, ServiceError> {
        let cap = self.config.limits.max_mail_bytes;
        let head_len = find_header_end(&m.raw)
            .unwrap_or(m.raw.len())
            .min(64 * 1024);
        let mail = mime::read(&m.raw[..head_len]).ok();
        let mut d = cx.ignored(
            mail.as_ref(),
            format!("ignored: {size} bytes, over the {cap} byte limit"),
        );
        if let Some(mail) = mail.filter(|x| x.automatic.is_none()) {
            let why = format!(
                "the mail was {size} bytes; the umpire reads mails up to {cap} bytes. Send the move file alone."
            );
            self.note_howto(&mut d, &mail, cx, |_| Ok(why))?;
        }
        Ok(d)
    }

    /// A mail to pass over unanswered: a second delivery, an automatic
    /// mail, or one of the umpire's own.
    fn screened(
        &self,
        mail: &ReadMail,
        raw: &[u8],
        cx: &MailCx,
    ) -> Result<Option<Decision>, ServiceError> {
        // The same Message-ID with the same body is a second delivery (a
        // forward, a redelivery with other Received lines). A different body
        // under a reused Message-ID is a new mail and is read.
        if let Some(mid) = &mail.message_id
            && let Some(prev) = self.read_json::<LedgerEntry>(Table::Ledger, format!("m:{mid}"))?
            && prev.body.as_deref().is_none_or(|b| b == body_digest(raw))
        {
            let outcome = format!("ignored: a second delivery of {mid}");
            return Ok(Some(Decision::ignored(cx.ledger(
                Some(mail),
                prev.game,
                outcome,
            ))));
        }
        if let Some(why) = &mail.automatic {
            return Ok(Some(
                cx.ignored(Some(mail), format!("ignored: automatic mail ({why})")),
            ));
        }
        let own = self.config.umpire.address.to_ascii_lowercase();
        if mail.loops.iter().any(|l| l.trim_matches(['<', '>']) == own) {
            return Ok(Some(cx.ignored(
                Some(mail),
                "ignored: the umpire's own mail (X-Loop)".into(),
            )));
        }
        Ok(None)
    }

    /// No signed move: tell how to send one, if the mail looks like a try
    /// at a move or comes from a player.
    fn unsigned(
        &self,
        mail: &ReadMail,
        found: &[FoundMove],
        cx: &MailCx,
    ) -> Result<Decision, ServiceError> {
        let mut d = cx.ignored(Some(mail), "ignored: no signed move".into());
        let movelike = !found.is_empty()
            || mime::looks_like_unsigned_move(mail)
            || mail.attachments.iter().any(|p| p.name.ends_with(".sig"));
        let wanted = movelike
            || match &mail.from {
                Some(from) => self.is_player(from)?,
                None => false,
            };
        if wanted {
            let reason = mime::missing_signature(mail, found);
            self.note_howto(&mut d, mail, cx, |_| Ok(reason))?;
        }
        Ok(d)
    }

    /// A signed move file without a readable game line: which game it is
    /// for cannot be told, so it is refused without a record entry.
    fn unreadable(
        &self,
        mail: &ReadMail,
        f: &FoundMove,
        e: &MoveFileError,
        cx: &MailCx,
    ) -> Result<Decision, ServiceError> {
        let mut d = cx.ignored(Some(mail), "refused: unreadable move".into());
        let why = format!("the move file in the {} does not read: {e}", f.origin);
        self.note_howto(&mut d, mail, cx, |_| Ok(why))?;
        Ok(d)
    }

    /// A move for a game this umpire does not hold.
    fn no_game(
        &self,
        mail: &ReadMail,
        game_id: &str,
        cx: &MailCx,
    ) -> Result<Decision, ServiceError> {
        let mut d = cx.ignored(Some(mail), format!("refused: no game {game_id:?}"));
        self.note_howto(&mut d, mail, cx, |from| self.no_game_reason(game_id, from))?;
        Ok(d)
    }

    /// Tells the sender how to send a move, with `reason` (given the
    /// sender's address), when they may have a note now (`may_note`).
    fn note_howto(
        &self,
        d: &mut Decision,
        mail: &ReadMail,
        cx: &MailCx,
        reason: impl FnOnce(&str) -> Result<String, ServiceError>,
    ) -> Result<(), ServiceError> {
        if let Some(from) = mail.from.as_deref()
            && self.may_note(from, cx.now, &mut d.batch)?
        {
            let reason = reason(from)?;
            let key = format!("howto.{}", cx.short);
            d.mails.push(self.unsigned_mail(
                from,
                &reason,
                mail.message_id.clone(),
                key,
                cx.now,
            )?);
        }
        Ok(())
    }

    /// Submits the signed move to its (loaded) game; the entries it made
    /// go into `batch`. Returns the verdict and the hash of the bytes
    /// submitted.
    fn submit_move(
        &mut self,
        game_id: &str,
        sub: &Submission,
        parsed: Option<&MoveFile>,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<(Verdict, Digest), ServiceError> {
        let (f, signature) = (sub.found, sub.signature);
        let len_before = self.games[game_id].record().len();
        self.ensure_chain(game_id, now, batch)?;
        let chain = self.chain(game_id)?;
        self.cache_chains(batch);
        let at = rfc3339(mail_time(sub.mail, now));
        let pre = self.read_ahead.clone();
        let game = self
            .games
            .get_mut(game_id)
            .ok_or_else(|| ServiceError::Game(format!("no game {game_id}")))?;
        // Of the candidate byte strings (mail may have changed line ends),
        // the one the signature verifies is the one that was signed. With
        // one candidate there is nothing to choose: `submit` checks it, so
        // each signature is verified once.
        let bytes = parsed
            .filter(|_| f.candidates.len() > 1)
            .and_then(|p| game.side(&p.side))
            .and_then(|side| {
                let key = game.sides()[side.index()].key.as_ref()?;
                f.candidates.iter().find(|c| {
                    key.verify_prechecked(MOVE_NAMESPACE, c, signature, pre.as_deref())
                        .is_ok()
                })
            })
            .unwrap_or(&f.candidates[0])
            .clone();
        game.use_prechecked(pre);
        let verdict = game.submit(&bytes, signature, &chain, &at);
        game.use_prechecked(None);
        batch.put_game(game_id, &self.games[game_id], len_before);
        Ok((verdict, sha256(&bytes)))
    }

    /// The mails and ledger outcome a verdict calls for (`text`: the hash
    /// of the bytes submitted).
    fn answer(
        &mut self,
        game_id: &str,
        verdict: Verdict,
        sub: &Submission,
        text: &Digest,
        cx: &MailCx,
        batch: &mut Batch,
    ) -> Result<Answer, ServiceError> {
        let reply = sub.mail.message_id.clone();
        let now = cx.now;
        match verdict {
            Verdict::Unavailable(why) => {
                // The chain is renewed before each mail, so this means a fault
                // in the store: stop here and leave the mail for the next poll
                // (a move the umpire cannot roll for is not held against it).
                self.forget(game_id);
                Err(ServiceError::Store(umpire_store::StoreError::Db(format!(
                    "game {game_id}: {why}"
                ))))
            }
            Verdict::Accepted { seq, side, .. } => {
                let meta = self.refreshed_meta(game_id, now, batch)?;
                let game = &self.games[game_id];
                let mails =
                    self.result_mails(game, &meta, seq, Some((side, reply)), None, "", now)?;
                Ok((mails, format!("accepted as entry {seq}"), Outcome::Accepted))
            }
            Verdict::Sealed {
                seq,
                side,
                resolved,
            } => self.sealed(game_id, seq, side, resolved, reply, now, batch),
            Verdict::Duplicate { seq, side } => self.copy(game_id, seq, side, sub, cx, batch),
            Verdict::Commands { side, commands } => {
                self.requested(game_id, side, &commands, sub, *text, cx, batch)
            }
            Verdict::Rejected { seq, rejection } => {
                self.refused(game_id, seq, &rejection, sub, cx, batch)
            }
        }
    }

    /// Sealed orders received: a receipt to the sender, and the round's
    /// results when theirs were the last orders of it.
    #[allow(clippy::too_many_arguments)] // each is a distinct fact of the receipt
    fn sealed(
        &self,
        game_id: &str,
        seq: u64,
        side: Side,
        resolved: Option<u64>,
        reply: Option<String>,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<Answer, ServiceError> {
        let meta = self.refreshed_meta(game_id, now, batch)?;
        let game = &self.games[game_id];
        let receipt = sealed_receipt(game, seq, side, resolved);
        let key = format!("{game_id}.{seq}.sealed");
        let mut mails = vec![self.notice_mail(
            game,
            side,
            "sealed orders received",
            &receipt,
            false,
            reply,
            key,
            now,
        )?];
        let outcome = match resolved {
            Some(round) => {
                mails.extend(self.result_mails(game, &meta, round, None, None, "", now)?);
                format!("sealed as entry {seq}; the round resolved as entry {round}")
            }
            None => format!("sealed as entry {seq}"),
        };
        Ok((mails, outcome, Outcome::Accepted))
    }

    /// The game's metadata brought up to date after an accepted move, and
    /// written to `batch`.
    fn refreshed_meta(
        &self,
        game_id: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<super::games::GameMeta, ServiceError> {
        let game = &self.games[game_id];
        let mut meta = self.meta(game_id)?;
        meta.refresh_waiting(game, now);
        if let Some(f) = &game.prompt().finished
            && meta.finished.is_none()
        {
            meta.finished = Some(f.summary.clone());
        }
        batch.put_json(Table::Games, game_id, &meta);
        Ok(meta)
    }

    /// A copy of a signed file judged before as entry `seq`: nothing is
    /// judged again; its side gets the first answer again (the result, or
    /// the refusal) unless the copy guard holds it back.
    fn copy(
        &self,
        game_id: &str,
        seq: u64,
        side: Side,
        sub: &Submission,
        cx: &MailCx,
        batch: &mut Batch,
    ) -> Result<Answer, ServiceError> {
        let game = &self.games[game_id];
        let name = game.sides()[side.index()].name.clone();
        if let Err(why) = self.copy_guard(game_id, &name, &seq.to_string(), cx.now, batch)? {
            let outcome = format!("duplicate of entry {seq}: not answered again ({why})");
            return Ok((vec![], outcome, Outcome::Duplicate));
        }
        let reply = sub.mail.message_id.clone();
        let again = format!(".again.{}", cx.short);
        if let Some(reason) = refused_reason(game, seq) {
            let text = copy_of_refusal(game, seq, &reason);
            let key = format!("{game_id}.{seq}.{name}{again}");
            let mail = self.notice_mail(
                game,
                side,
                "a copy of a refused move",
                &text,
                false,
                reply,
                key,
                cx.now,
            )?;
            let outcome = format!("duplicate of entry {seq}: the refusal sent again");
            return Ok((vec![mail], outcome, Outcome::Duplicate));
        }
        let meta = self.meta(game_id)?;
        let mails = self.result_mails(
            game,
            &meta,
            seq,
            Some((side, reply)),
            Some(side),
            &again,
            cx.now,
        )?;
        Ok((
            mails,
            format!("duplicate of entry {seq}: result sent again"),
            Outcome::Duplicate,
        ))
    }

    /// A signed request (commands, not orders): carried out unless the
    /// request guard holds it back (a copy answered today, or the day's
    /// limit); a copy of one carried out before is answered, but its
    /// settings change nothing.
    #[allow(clippy::too_many_arguments)] // each is a distinct fact of the request
    fn requested(
        &mut self,
        game_id: &str,
        side: Side,
        commands: &[Command],
        sub: &Submission,
        text: Digest,
        cx: &MailCx,
        batch: &mut Batch,
    ) -> Result<Answer, ServiceError> {
        let name = self.games[game_id].sides()[side.index()].name.clone();
        let request =
            match self.request_guard(game_id, &name, text, sub.signature, cx.now, batch)? {
                Ok(r) => r,
                Err(why) => return Ok((vec![], format!("ignored: {why}"), Outcome::Ignored)),
            };
        let reply = sub.mail.message_id.clone();
        let mails = self.commands(
            game_id, side, commands, &request, reply, cx.short, cx.now, batch,
        )?;
        let outcome = match &request.copy_of {
            Some(day) => format!(
                "commands: {} (a copy of a request carried out on {day}: nothing changed)",
                commands.len()
            ),
            None => format!("commands: {}", commands.len()),
        };
        Ok((mails, outcome, Outcome::Commands))
    }

    /// A refused move: the refusal goes to the signer (or, unsigned, to the
    /// sender when they may have a note), the ledger keeps the reason.
    fn refused(
        &self,
        game_id: &str,
        seq: u64,
        rejection: &Rejection,
        sub: &Submission,
        cx: &MailCx,
        batch: &mut Batch,
    ) -> Result<Answer, ServiceError> {
        let mut mails = Vec::new();
        if let Some(to) = self.refusal_recipient(game_id, rejection, sub.mail.from.as_deref())
            && (rejection.signer.is_some() || self.may_note(&to, cx.now, batch)?)
        {
            // The mail says what the client probably did; the record keeps the bare reason.
            let mut shown = rejection.clone();
            if rejection.kind == RejectKind::Signature {
                let hint = mime::damage_hint(sub.mail, sub.found);
                if !hint.is_empty() {
                    shown.reason = format!("{}\n\n{hint}", shown.reason);
                }
            }
            let game = &self.games[game_id];
            let reply = sub.mail.message_id.clone();
            let key = format!("{game_id}.{seq}.refused");
            mails.push(self.rejection_mail(game, Some(seq), &shown, &to, reply, key, cx.now)?);
        }
        let outcome = format!(
            "refused as entry {seq}: {}",
            excerpt(&rejection.reason, 300)
        );
        Ok((mails, outcome, Outcome::Rejected))
    }

    /// A refusal goes to the signer only. If no side's key verified, the
    /// sender is unknown; the From address gets it (rate-limited by the caller).
    fn refusal_recipient(&self, game: &str, r: &Rejection, from: Option<&str>) -> Option<String> {
        match r.signer {
            Some(s) => self
                .games
                .get(game)
                .map(|g| g.sides()[s.index()].email.clone()),
            None => from.map(str::to_string),
        }
    }

    /// May `addr` get an automatic note now? A player of a running game
    /// always may (a specific answer to each mail); an unknown sender once a
    /// day (the day noted in `batch`); the umpire itself never.
    pub(super) fn may_note(
        &self,
        addr: &str,
        now: jiff::Timestamp,
        batch: &mut Batch,
    ) -> Result<bool, ServiceError> {
        if addr.eq_ignore_ascii_case(&self.config.umpire.address) {
            return Ok(false);
        }
        if self.is_player(addr)? {
            return Ok(true);
        }
        let day = rfc3339(now)[..10].to_string();
        let key = format!("note:{}", addr.to_ascii_lowercase());
        let last: Option<String> = self.read_json(Table::Meta, &key)?;
        if last.as_deref() == Some(day.as_str()) {
            return Ok(false);
        }
        batch.put_json(Table::Meta, &key, &day);
        Ok(true)
    }

    /// In a paused game, or one waiting for players to take its open seats,
    /// a move (not a request) is refused and not
    /// recorded; the signer is told why, once a day for the same signed
    /// file (copies are not answered more often). `None` when the game runs.
    fn paused_refusal(
        &self,
        id: &str,
        candidates: &[Vec<u8>],
        signature: &str,
        mail: &ReadMail,
        now: jiff::Timestamp,
    ) -> Result<Option<Decision>, ServiceError> {
        let meta = self.meta(id)?;
        let (title, note, what) = if let Some(p) = &meta.paused {
            (
                "move not recorded: the game is paused",
                paused_text(id, p),
                "paused",
            )
        } else if !self.games[id].open_seats().is_empty() {
            let open = super::seats::open_names(&self.games[id]);
            (
                "move not recorded: waiting for seats",
                format!(
                    "Game {id} has not begun: it waits for players to take its open seats ({}). Until every seat is taken no side moves and no clock runs. Your move was not recorded; you will get the opening position when the game begins.",
                    open.join(", ")
                ),
                "seats",
            )
        } else {
            return Ok(None);
        };
        let Some(Ok(file)) = candidates.first().map(|c| MoveFile::parse(c)) else {
            return Ok(None);
        };
        if file.orders.is_empty() && file.standing.is_none() {
            return Ok(None);
        }
        let game = &self.games[id];
        let signed = game.side(&file.side).and_then(|s| {
            candidates
                .iter()
                .find(|c| game.sides()[s.index()].signed(MOVE_NAMESPACE, c, signature))
                .map(|c| (s, sha256(c)))
        });
        let mut batch = Batch::new();
        let mut mails = Vec::new();
        if let Some((side, text)) = signed
            && self
                .copy_guard(
                    id,
                    &game.sides()[side.index()].name,
                    &text.to_hex(),
                    now,
                    &mut batch,
                )?
                .is_ok()
        {
            mails.push(self.notice_mail(
                game,
                side,
                title,
                &note,
                false,
                mail.message_id.clone(),
                format!(
                    "{id}.{}.{}.refused-{what}{}",
                    game.record().len(),
                    file.side,
                    now.as_second()
                ),
                now,
            )?);
        }
        let at_now = rfc3339(now);
        Ok(Some(Decision {
            batch,
            mails,
            ledger: LedgerEntry {
                at: at_now,
                message_id: mail.message_id.clone(),
                from: mail.from.clone(),
                game: Some(id.to_string()),
                outcome: format!(
                    "refused: {}",
                    title.trim_start_matches("move not recorded: ")
                ),
                body: None,
            },
            game: Some(id.to_string()),
            kind: Outcome::Rejected,
        }))
    }

    /// Why a move names no game here, with the nearest game id the sender
    /// may know of and the games the sender does play.
    pub(super) fn no_game_reason(&self, game: &str, from: &str) -> Result<String, ServiceError> {
        let mine = self.player_games(from)?;
        let known = self.games_known_to(from, &mine)?;
        let mut t = format!("there is no game {game:?} at this umpire");
        match umpire_core::suggest::closest(game, known.iter().map(String::as_str)) {
            Some(near) => t.push_str(&format!("; did you mean {near}?")),
            None => t.push('.'),
        }
        if !mine.is_empty() {
            let list: Vec<String> = mine.iter().map(|(g, s)| format!("{g} (as {s})")).collect();
            t.push_str(&format!(
                " You play in {}: check the `game:` line of your move.",
                list.join(", ")
            ));
        }
        Ok(t)
    }

    /// The game ids the holder of address `from` may know of: the public
    /// games (on the club's pages), the games it plays in (`mine`) and those
    /// it observes. The answer goes to `from` alone, so a stranger writing
    /// under any address learns no private game's id: only that address's
    /// owner reads the reply.
    fn games_known_to(
        &self,
        from: &str,
        mine: &[(String, String)],
    ) -> Result<Vec<String>, ServiceError> {
        let mut known: Vec<String> = mine.iter().map(|(g, _)| g.clone()).collect();
        for id in self.public_or_observed(from)? {
            if !known.contains(&id) {
                known.push(id);
            }
        }
        Ok(known)
    }
}

/// At most `n` characters of `s`, on one line.
pub(super) fn excerpt(s: &str, n: usize) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(n)
        .collect()
}

/// The digest of everything after a mail's header section.
pub(super) fn body_digest(raw: &[u8]) -> String {
    let start = find_header_end(raw).unwrap_or(raw.len());
    sha256(&raw[start..]).to_hex()
}

/// Where a mail's body starts: after the first empty line.
pub(super) fn find_header_end(raw: &[u8]) -> Option<usize> {
    raw.windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|p| p + 4)
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|p| p + 2))
}

/// The receipt for sealed orders: the entry and its commitment, who is still
/// to send, and that a later submission in the same round replaces this one.
fn sealed_receipt(
    game: &umpire_core::game::Game,
    seq: u64,
    side: Side,
    resolved: Option<u64>,
) -> String {
    let entry = game.record().entries().get(seq as usize);
    let commitment = entry
        .and_then(|e| match &e.body {
            umpire_core::record::Body::Sealed(s) => s.text.as_ref(),
            _ => None,
        })
        .and_then(|t| match t {
            umpire_core::sealed::Hidden::Sealed(s) => Some(s.sealed.to_hex()),
            _ => None,
        })
        .unwrap_or_default();
    let mut t = format!(
        "Your orders are recorded sealed as entry {seq}.\nCommitment:\n  {commitment}\nNo other side sees them before the round is resolved; until then a new\nsigned move from you for this round replaces them.\n"
    );
    match resolved {
        Some(r) => t.push_str(&format!(
            "\nYours were the last orders of the round: it was resolved as entry {r}.\nThe result follows in a separate mail.\n"
        )),
        None => t.push_str(&format!("\nStill waiting for: {}\n", game.awaiting_names())),
    }
    t.push_str(&accepted_as(game, seq, side));
    t
}

/// What sealed orders do as the position stood when they came in (the
/// plan as accepted, its cost and what is left), as their own side may see
/// it; empty where the rules told nothing.
fn accepted_as(game: &umpire_core::game::Game, seq: u64, side: Side) -> String {
    let Some(report) = game.report(seq) else {
        return String::new();
    };
    let lines: Vec<String> = report
        .events_for(umpire_core::audience::Viewer::Side(side))
        .map(|e| {
            let text = umpire_render::templates::wrap(e.text.clone(), Some(70), Some(4));
            format!("  {}", text.trim_end())
        })
        .collect();
    if lines.is_empty() {
        return String::new();
    }
    format!("\nAs accepted, for your eyes only:\n{}\n", lines.join("\n"))
}

/// The reason the record gives for the refusal at `seq`, if it is one.
fn refused_reason(game: &umpire_core::game::Game, seq: u64) -> Option<String> {
    match &game.record().entries().get(seq as usize)?.body {
        umpire_core::record::Body::Rejected(r) => Some(r.reason.value()?.clone()),
        _ => None,
    }
}

/// The answer to a copy of a refused signed file: the refusal again, and
/// that a copy is never judged again.
fn copy_of_refusal(game: &umpire_core::game::Game, seq: u64, reason: &str) -> String {
    let quoted: String = reason.lines().map(|l| format!("  {l}\n")).collect();
    let rest = umpire_render::templates::wrap(
        format!(
            "A signed file is judged once: a copy of it, from anyone, is never judged again and changes nothing. To try again, change the file (write it against the latest head, {}) and sign it anew.",
            game.record().head()
        ),
        Some(72),
        Some(0),
    );
    format!(
        "Game {}: this signed file was judged before, as entry {seq}, and was refused:\n\n{quoted}\n{rest}\n",
        game.id()
    )
}

/// Why a move to a paused game was not recorded.
fn paused_text(id: &str, p: &super::admin::Paused) -> String {
    let since = jiff::Timestamp::from_second(p.since)
        .map(|t| t.to_string())
        .unwrap_or_default();
    let why = if p.reason.is_empty() {
        String::new()
    } else {
        format!(" ({})", p.reason)
    };
    format!(
        "Game {id} is paused by the club's admin since {since}{why}. Your move was not recorded; send it again when you are told the game resumes."
    )
}
