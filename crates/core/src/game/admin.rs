//! The club admin's acts in the record (`core::act::AdminAct`): ending a game
//! with a stated result, and replacing a side's key or address. Each is an
//! `admin` entry, so a verifier knows from there on which key signs a side's
//! moves and where its mails go. Pausing, resuming and extending deadlines
//! are the service's business (the umpire's clock), not the record's.

use super::{AdminError, Game, Keys, Report, side_index};
use crate::act::{AdminAct, AdminEntry};
use crate::hash::Digest;
use crate::record::Body;
use crate::ruleset::Event;
use crate::ruleset::Side;
use crate::seat::Seating;
use crate::sig::PublicKey;

impl Game {
    /// Carries out an admin act, appending its entry (and, for an end, the
    /// reveal of every dice position used). Returns the entry and its report.
    pub fn admin<'a>(
        &mut self,
        act: AdminAct,
        reason: &str,
        keys: impl Into<Keys<'a>>,
        at: &str,
    ) -> Result<(u64, Report), AdminError> {
        self.admin_entry(act, reason, None, keys.into(), at)
    }

    /// Records the deadline settings a side asked for by the signed request
    /// whose text hashes to `request`, so that a copy of that request is
    /// known as one wherever the record goes ([`Game::request_entry`]).
    pub fn settings_by_request<'a>(
        &mut self,
        act: AdminAct,
        request: Digest,
        keys: impl Into<Keys<'a>>,
        at: &str,
    ) -> Result<(u64, Report), AdminError> {
        if !matches!(act, AdminAct::Settings { .. }) {
            return Err(AdminError::NotSettings);
        }
        self.admin_entry(act, "the side's request", Some(request), keys.into(), at)
    }

    /// Seats a player on an open seat by his signed join (its text hashes
    /// to the entry's `request`, so a copy of the join is known as one
    /// wherever the record goes).
    pub fn seat<'a>(
        &mut self,
        seating: Seating,
        reason: &str,
        keys: impl Into<Keys<'a>>,
        at: &str,
    ) -> Result<(u64, Report), AdminError> {
        let request = crate::hash::sha256(seating.join.as_bytes());
        self.admin_entry(
            AdminAct::Seat(seating),
            reason,
            Some(request),
            keys.into(),
            at,
        )
    }

    /// The settings entry a signed request whose text hashes to `request`
    /// made, if any.
    pub fn request_entry(&self, request: &Digest) -> Option<u64> {
        self.requests.get(request).copied()
    }

    fn admin_entry(
        &mut self,
        act: AdminAct,
        reason: &str,
        request: Option<Digest>,
        keys: Keys,
        at: &str,
    ) -> Result<(u64, Report), AdminError> {
        let events = self.judge_admin(&act)?;
        let ends = matches!(act, AdminAct::End(_));
        let body = Body::Admin(AdminEntry {
            act: act.clone(),
            reason: reason.to_string(),
            request,
            at: at.to_string(),
        });
        let seq = self.apply_admin(body, &act, reason, events);
        if ends {
            let due = self.pending_reveal.clone();
            self.reveal(&due, keys);
        }
        Ok((seq, self.reports.get(&seq).cloned().unwrap_or_default()))
    }

    /// What an admin act does, or why it cannot be done now.
    fn judge_admin(&self, act: &AdminAct) -> Result<Vec<Event>, AdminError> {
        let side = |name: &str| {
            side_index(&self.sides, name).ok_or_else(|| AdminError::NoSuchSide {
                name: name.to_string(),
                sides: self.sides.iter().map(|s| s.name.clone()).collect(),
            })
        };
        Ok(match act {
            AdminAct::End(end) => {
                if let Some(done) = &self.prompt.finished {
                    return Err(AdminError::Over(done.summary.clone()));
                }
                for w in &end.winners {
                    side(w)?;
                }
                vec![
                    Event::say("The club's admin ends the game."),
                    Event::say(format!("Game over: {}", end.summary)),
                ]
            }
            AdminAct::Key { side: name, key } => {
                let s = side(name)?;
                self.seated(s)?;
                let k = PublicKey::parse(key).map_err(AdminError::BadKey)?;
                vec![Event::say(format!(
                    "The club's admin replaced {}'s key: its moves are signed by {} from here on (was {}).",
                    self.sides[s.index()].name,
                    k.fingerprint(),
                    self.sides[s.index()].fingerprint()
                ))]
            }
            AdminAct::Settings { side: name, .. } => {
                side(name)?;
                Vec::new()
            }
            AdminAct::Address { side: name, email } => {
                let s = side(name)?;
                self.seated(s)?;
                if email.trim().is_empty() || !email.contains('@') {
                    return Err(AdminError::NotAnAddress(email.clone()));
                }
                vec![Event::say(format!(
                    "The club's admin changed {}'s mail address: its mails go to {email} from here on.",
                    self.sides[s.index()].name
                ))]
            }
            AdminAct::Seat(seating) => self.judge_seat(side(&seating.side)?, seating)?,
        })
    }

    /// A seated side's key and address change by `key` and `address` acts;
    /// an open seat is taken only by a player's join (`seat`).
    fn seated(&self, s: Side) -> Result<(), AdminError> {
        if self.sides[s.index()].is_open() {
            return Err(AdminError::OpenSeat(self.sides[s.index()].name.clone()));
        }
        Ok(())
    }

    /// What seating a player does: the seat must be open, the key no other
    /// side's, the address an address, and the join the key holder's own
    /// request for this game and side.
    fn judge_seat(&self, s: Side, seating: &Seating) -> Result<Vec<Event>, AdminError> {
        if let Some(done) = &self.prompt.finished {
            return Err(AdminError::Over(done.summary.clone()));
        }
        let name = &self.sides[s.index()].name;
        if !self.sides[s.index()].is_open() {
            return Err(AdminError::SeatTaken(name.clone()));
        }
        let k = PublicKey::parse(&seating.key).map_err(AdminError::BadKey)?;
        if let Some(other) = self.side_of_key(&k) {
            return Err(AdminError::KeySeated(
                self.sides[other.index()].name.clone(),
            ));
        }
        if seating.email.trim().is_empty() || !seating.email.contains('@') {
            return Err(AdminError::NotAnAddress(seating.email.clone()));
        }
        let file = seating
            .check(self.id())
            .map_err(|e| AdminError::BadJoin(e.to_string()))?;
        let who = if file.name.is_empty() {
            "A player".to_string()
        } else {
            file.name.clone()
        };
        let mut events = vec![Event::say(format!(
            "{who} takes the seat of {name}: its moves are signed by {} from here on.",
            k.fingerprint()
        ))];
        let open = self.open_seats().len();
        if open == 1 {
            events.push(Event::say("Every seat is taken: the game begins."));
        } else {
            events.push(Event::say(format!(
                "{} seats are still open; the game begins when every seat is taken.",
                open - 1
            )));
        }
        Ok(events)
    }

    /// The sides whose seats are open, in the scenario's order.
    pub fn open_seats(&self) -> Vec<Side> {
        (0..self.sides.len())
            .filter(|i| self.sides[*i].is_open())
            .map(|i| Side(i as u8))
            .collect()
    }

    /// The side whose moves `key` signs, if any.
    pub fn side_of_key(&self, key: &PublicKey) -> Option<Side> {
        self.sides
            .iter()
            .position(|x| x.key.as_ref().is_some_and(|k| k.raw() == key.raw()))
            .map(|i| Side(i as u8))
    }

    /// Appends an admin entry and carries it out.
    fn apply_admin(&mut self, body: Body, act: &AdminAct, reason: &str, events: Vec<Event>) -> u64 {
        let request = match &body {
            Body::Admin(a) => a.request,
            _ => None,
        };
        let seq = self.push_entry(body);
        if let Some(r) = request {
            self.requests.entry(r).or_insert(seq);
        }
        match act {
            AdminAct::End(end) => self.end_with(end),
            AdminAct::Key { side, key } => {
                if let (Some(s), Ok(k)) = (side_index(&self.sides, side), PublicKey::parse(key)) {
                    self.sides[s.index()].key = Some(k);
                }
            }
            AdminAct::Address { side, email } => {
                if let Some(s) = side_index(&self.sides, side) {
                    self.sides[s.index()].email = email.clone();
                }
            }
            AdminAct::Seat(seating) => {
                if let (Some(s), Ok(k)) = (
                    side_index(&self.sides, &seating.side),
                    PublicKey::parse(&seating.key),
                ) {
                    self.sides[s.index()].key = Some(k);
                    self.sides[s.index()].email = seating.email.clone();
                }
            }
            // The service's business; the last result stays the last action.
            AdminAct::Settings { .. } => return seq,
        }
        let report = Report {
            reason: reason.to_string(),
            standing: events,
            ..Default::default()
        };
        self.put_report(seq, report);
        self.last_action = seq;
        seq
    }

    /// Replays an admin entry; returns the positions due for reveal.
    pub(super) fn replay_admin(
        &mut self,
        a: &AdminEntry,
        body: &Body,
    ) -> Result<Vec<u64>, AdminError> {
        let events = self.judge_admin(&a.act)?;
        let ends = matches!(a.act, AdminAct::End(_));
        self.apply_admin(body.clone(), &a.act, &a.reason, events);
        Ok(if ends {
            self.pending_reveal.clone()
        } else {
            Vec::new()
        })
    }
}
