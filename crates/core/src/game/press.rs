//! Press entries (`core::press`): judging a signed press section, appending
//! its entry, and checking a recorded one on replay. A press entry changes
//! nothing in the game: no state, no dice, no anchor, no prompt.
//!
//! A refused press is not recorded: the file may hold a private message
//! the record could keep only sealed, and what refuses it (the game's press
//! option, the day's cap) is the umpire's setting, not the rules. The
//! service answers the sender and remembers the file (`service::press`).

use super::{Game, StepError, side_index};
use crate::movefile::{MoveFile, MoveFileError};
use crate::press::{Press, PressEntry, PressMode, PressTo};
use crate::record::Body;
use crate::ruleset::Side;
use crate::sealed::{EntrySalts, Salter};
use crate::sig::MOVE_NAMESPACE;

/// A press section judged and ready to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PressPlan {
    pub from: Side,
    /// The recipients; empty for a broadcast.
    pub to: Vec<Side>,
    /// The message as the recipients read it.
    pub message: String,
    text: String,
    signature: String,
}

impl PressPlan {
    /// Is it to every side?
    pub fn is_broadcast(&self) -> bool {
        self.to.is_empty()
    }
}

/// What a signed file's press section comes to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PressVerdict {
    /// To be relayed and recorded ([`Game::record_press`]).
    Ready(PressPlan),
    /// The same signed file's press is entry `seq` already: nothing again.
    Duplicate { seq: u64, from: Side },
    /// Refused; `from` is the signer when the signature held.
    Refused {
        from: Option<Side>,
        reason: PressRefusal,
    },
}

/// Why a press section is refused. Every text is made of what the sender
/// may see (the game's sides, options and whether it is over).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PressRefusal {
    #[error("the file does not read: {0}")]
    Unreadable(MoveFileError),
    #[error("the file holds no `press to:` section")]
    NoPress,
    #[error("the file is for game {found}, not {game}")]
    WrongGame { found: String, game: String },
    #[error("game {game} has no side {side:?}; its sides are {sides}")]
    UnknownSide {
        game: String,
        side: String,
        sides: String,
    },
    #[error("{0}")]
    Signature(String),
    #[error("the game is over: press is relayed only while it runs")]
    Finished,
    #[error("{0} has left the game and sends no press")]
    Left(String),
    #[error("line {line}: this game relays no press (its press option is `none`)")]
    NoneAllowed { line: usize },
    #[error(
        "line {line}: this game relays press to all sides only (its press option is `public`); write `press to: all`"
    )]
    PublicOnly { line: usize },
    #[error("line {line}: no side {name:?} in this game{hint}; its sides are {sides}")]
    UnknownRecipient {
        line: usize,
        name: String,
        hint: String,
        sides: String,
    },
    #[error("line {line}: press goes to other sides, not to {0}'s own", .side)]
    ToSelf { line: usize, side: String },
    #[error(
        "line {line}: a private message goes in a file of its own, without orders, standing orders or commands: a move's text stays in the record where other sides may read it. Send the orders and the message as two signed files"
    )]
    PrivateWithOrders { line: usize },
}

impl Game {
    /// Judges the press section of the signed file `text` under `mode`.
    /// Nothing is recorded here; see [`Game::record_press`].
    pub fn judge_press(&self, text: &[u8], signature: &str, mode: PressMode) -> PressVerdict {
        let refused = |from: Option<Side>, reason| PressVerdict::Refused { from, reason };
        let file = match MoveFile::parse(text) {
            Ok(f) => f,
            Err(e) => return refused(None, PressRefusal::Unreadable(e)),
        };
        let Some(press) = &file.press else {
            return refused(None, PressRefusal::NoPress);
        };
        let from = match self.press_signer(&file, text, signature) {
            Ok(s) => s,
            Err(r) => return refused(None, r),
        };
        if let Some(seq) = self.press_entry_of(text) {
            return PressVerdict::Duplicate { seq, from };
        }
        match self.press_allowed(&file, from, mode) {
            Ok(to) => PressVerdict::Ready(PressPlan {
                from,
                to,
                message: press.message.clone(),
                text: String::from_utf8_lossy(text).into_owned(),
                signature: signature.to_string(),
            }),
            Err(r) => refused(Some(from), r),
        }
    }

    /// The side that signed a press file for this game.
    fn press_signer(
        &self,
        file: &MoveFile,
        text: &[u8],
        signature: &str,
    ) -> Result<Side, PressRefusal> {
        if file.game != self.id() {
            return Err(PressRefusal::WrongGame {
                found: file.game.clone(),
                game: self.id().to_string(),
            });
        }
        let side =
            side_index(&self.sides, &file.side).ok_or_else(|| PressRefusal::UnknownSide {
                game: self.id().to_string(),
                side: file.side.clone(),
                sides: self.side_names().join(", "),
            })?;
        let Some(key) = &self.sides[side.index()].key else {
            return Err(PressRefusal::Signature(format!(
                "the seat of {} is open: no player's key speaks for it yet (a player takes it with a signed join)",
                file.side
            )));
        };
        key.verify(MOVE_NAMESPACE, text, signature).map_err(|e| {
            PressRefusal::Signature(format!(
                "the press is not signed by {}'s key ({}): {e}",
                file.side,
                key.fingerprint()
            ))
        })?;
        Ok(side)
    }

    /// The recipients of a signed press section, if the game and its press
    /// option allow it now.
    fn press_allowed(
        &self,
        file: &MoveFile,
        from: Side,
        mode: PressMode,
    ) -> Result<Vec<Side>, PressRefusal> {
        let Some(press) = &file.press else {
            return Err(PressRefusal::NoPress);
        };
        let line = press.line;
        if self.prompt.finished.is_some() {
            return Err(PressRefusal::Finished);
        }
        let name = self.sides[from.index()].name.clone();
        if self.has_left(from) {
            return Err(PressRefusal::Left(name));
        }
        let names = match (&press.to, mode) {
            (_, PressMode::None) => return Err(PressRefusal::NoneAllowed { line }),
            (PressTo::All, _) => return Ok(Vec::new()),
            (PressTo::Sides(_), PressMode::Public) => {
                return Err(PressRefusal::PublicOnly { line });
            }
            (PressTo::Sides(v), PressMode::Private) => v,
        };
        if !file.orders.is_empty() || file.standing.is_some() || !file.commands.is_empty() {
            return Err(PressRefusal::PrivateWithOrders { line });
        }
        names
            .iter()
            .map(|n| self.press_recipient(n, from, line))
            .collect()
    }

    /// A recipient named on line `line`, checked.
    fn press_recipient(&self, n: &str, from: Side, line: usize) -> Result<Side, PressRefusal> {
        let names = self.side_names();
        let side = side_index(&self.sides, n).ok_or_else(|| PressRefusal::UnknownRecipient {
            line,
            name: n.to_string(),
            hint: crate::suggest::did_you_mean(n, names.iter().copied()),
            sides: names.join(", "),
        })?;
        if side == from {
            return Err(PressRefusal::ToSelf {
                line,
                side: n.to_string(),
            });
        }
        Ok(side)
    }

    fn side_names(&self) -> Vec<&str> {
        self.sides.iter().map(|s| s.name.as_str()).collect()
    }

    /// The press entry that holds the signed file `text`, if one does.
    pub fn press_entry_of(&self, text: &[u8]) -> Option<u64> {
        self.record.entries().iter().find_map(|e| match &e.body {
            Body::Press(p) => p
                .press()
                .filter(|x| x.text.as_bytes() == text)
                .map(|_| e.seq),
            _ => None,
        })
    }

    /// Appends the press entry of a judged section. A private message is
    /// sealed item by item with `salter` (the umpire's, from its secrets),
    /// which it needs: without one, it returns `None` and records nothing.
    pub fn record_press(
        &mut self,
        plan: &PressPlan,
        salter: Option<&Salter>,
        at: &str,
    ) -> Option<u64> {
        let from = self.sides[plan.from.index()].name.clone();
        let to: Vec<String> = plan
            .to
            .iter()
            .map(|s| self.sides[s.index()].name.clone())
            .collect();
        let press = Press {
            from: from.clone(),
            to: to.clone(),
            text: plan.text.clone(),
            signature: plan.signature.clone(),
        };
        let entry = if plan.is_broadcast() {
            PressEntry {
                public: Some(press),
                sealed: Vec::new(),
                at: at.to_string(),
            }
        } else {
            let mut salts = EntrySalts::new(Some(salter?), self.record.len() as u64);
            let sealed = self
                .sides
                .iter()
                .map(|s| {
                    let party = s.name == from || to.contains(&s.name);
                    salts.item(party.then(|| press.clone()), Some(vec![s.name.clone()]))
                })
                .collect();
            PressEntry {
                public: None,
                sealed,
                at: at.to_string(),
            }
        };
        Some(self.push_entry(Body::Press(entry)))
    }

    /// Checks a recorded press entry (whole: every item opened) and pushes it.
    pub(super) fn replay_press(&mut self, p: &PressEntry, body: &Body) -> Result<(), StepError> {
        let press = self.recorded_press(p).map_err(StepError::Press)?;
        self.check_recorded_press(press).map_err(StepError::Press)?;
        self.push_entry(body.clone());
        Ok(())
    }

    /// The one message a press entry holds, its form checked: a broadcast
    /// in the clear, or one item per side sealed to it alone, the message
    /// for exactly the sender and the recipients.
    fn recorded_press<'p>(&self, p: &'p PressEntry) -> Result<&'p Press, String> {
        match (&p.public, p.sealed.is_empty()) {
            (Some(x), true) if x.to.is_empty() => Ok(x),
            (Some(_), true) => Err("a broadcast names no recipients".into()),
            (None, false) => self.recorded_private(p),
            _ => Err("a press entry holds a broadcast or sealed items, one of them".into()),
        }
    }

    fn recorded_private<'p>(&self, p: &'p PressEntry) -> Result<&'p Press, String> {
        if p.sealed.len() != self.sides.len() {
            return Err(format!(
                "a private message has one sealed item per side ({}), not {}",
                self.sides.len(),
                p.sealed.len()
            ));
        }
        let press = p
            .press()
            .ok_or("a private message's items hold no message")?;
        for (s, item) in self.sides.iter().zip(&p.sealed) {
            if item.to() != Some(std::slice::from_ref(&s.name)) {
                return Err(format!("an item is not sealed to {} alone", s.name));
            }
            let party = s.name == press.from || press.to.contains(&s.name);
            let held = item
                .value()
                .ok_or("a private message's item is not opened")?;
            if held.as_ref() != party.then_some(press) {
                return Err(format!(
                    "{}'s item does not match the message's sender and recipients",
                    s.name
                ));
            }
        }
        Ok(press)
    }

    /// A recorded message against its signed file: the sender's signature,
    /// this game, the recipients written.
    fn check_recorded_press(&self, p: &Press) -> Result<(), String> {
        let text = p.text.as_bytes();
        let file =
            MoveFile::parse(text).map_err(|e| format!("the press file does not read: {e}"))?;
        let from = self
            .press_signer(&file, text, &p.signature)
            .map_err(|e| e.to_string())?;
        if self.sides[from.index()].name != p.from {
            return Err(format!(
                "recorded as {}'s press, signed by another side",
                p.from
            ));
        }
        let written = match file.press.map(|x| x.to) {
            Some(PressTo::All) => Vec::new(),
            Some(PressTo::Sides(v)) => v,
            None => return Err("the signed file holds no press".into()),
        };
        if written != p.to {
            return Err("the recorded recipients are not the ones the file names".into());
        }
        Ok(())
    }
}
