//! A side's acts the engine carries out itself, in every ruleset: a move
//! whose only order is `concede`, `offer draw`, `accept draw` or
//! `decline draw` (`core::act`). The engine recognises it before the ruleset
//! sees the move and records it in an `act` entry; replay re-judges it.
//!
//! - `concede` ends the game: every other side wins. A ruleset that reads a
//!   one-line `concede` itself (freeform, Lest Darkness Fall) keeps its own
//!   concession, so its records replay as before.
//! - `offer draw` opens an offer; every other side must `accept draw`. The
//!   last acceptance ends the game drawn. `decline draw` by any side ends the
//!   offer (by the offerer: withdraws it). The offer lapses when the offering
//!   side moves again (a move, a default or sealed orders of its own).
//! - Acts need not wait for the side's turn. Each names the entry it follows
//!   (`after:`) and is bound to what it answers (`ActEntry.answers`): an
//!   `accept draw` or `decline draw` must follow the offer it answers, an
//!   `offer draw` its side's own latest move. So a signed act can never be
//!   carried over to a later offer; and a copy of any signed file judged
//!   before is not judged again (`Game::duplicate`).
//! - A side that has left the game (`Ruleset::has_left`: conceded in a game
//!   that plays on, eliminated) has no say: its acts are refused and no
//!   acceptance of a draw is awaited from it.
//! - Acts recorded before acts were bound name nothing they answer; they
//!   replay under the rules of then (any `after:`, every other side's
//!   acceptance owed). Once a bound act is in a record, every later act must
//!   be bound.
//!
//! An act that ends the game ends it as a normal end does: the prompt is
//! finished, every dice position used is revealed, and the service sends the
//! full record with every opening.

use super::{Game, OrderReport, RejectKind, Rejection, ReplayMode, ReplaySummary, Report, Verdict};
use super::{Keys, StepError, rej, side_index};
use crate::act::{Act, ActEntry, Ending};
use crate::audience::Audience;
use crate::hash::sha256;
use crate::movefile::{MoveFile, SourceLine};
use crate::record::Body;
use crate::ruleset::{Event, Outcome, Prompt, Side};

/// An open draw offer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawOffer {
    /// The side that offered it.
    pub by: Side,
    /// The entry that made it.
    pub seq: u64,
    /// The sides that have accepted so far.
    pub accepted: Vec<Side>,
}

/// Which rules an act is judged by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ActRules {
    /// As acts were judged before they were bound: whatever their `after:`
    /// says, and every other side's acceptance owed for a draw. Only for
    /// replaying an act recorded then (its entry names nothing it answers).
    Unbound,
    /// Bound to what they follow (`after:`), and a side that has left the
    /// game has no say: how every act is judged now.
    Bound,
}

/// What an act does, once judged.
struct Judged {
    events: Vec<Event>,
    ending: Option<Ending>,
    /// The entry it answers (under the bound rules).
    answers: Option<u64>,
}

impl Game {
    /// The act a move file makes, if its only order is one the engine
    /// carries out itself (and not a `concede` the ruleset reads as its own).
    fn act_of(&self, text: &[u8]) -> Option<(MoveFile, Act)> {
        let file = MoveFile::parse(text).ok()?;
        let [line] = file.orders.as_slice() else {
            return None;
        };
        if file.standing.is_some() {
            return None;
        }
        let act = Act::parse(&line.text)?;
        if act == Act::Concede && self.ruleset_reads(&file, line) {
            return None;
        }
        Some((file, act))
    }

    /// Does the ruleset read this line as an order of its own?
    fn ruleset_reads(&self, file: &MoveFile, line: &SourceLine) -> bool {
        side_index(&self.sides, &file.side).is_some_and(|side| {
            self.ruleset
                .parse(&self.state, side, std::slice::from_ref(line))
                .is_ok()
        })
    }

    /// The draw offer open now, if any.
    pub fn draw_offer(&self) -> Option<DrawOffer> {
        let mut offer: Option<DrawOffer> = None;
        let by_name = |n: &str| side_index(&self.sides, n);
        for e in self.record.entries() {
            let mover = match &e.body {
                Body::Act(a) => {
                    let Some(side) = by_name(&a.side) else {
                        continue;
                    };
                    match a.act {
                        Act::OfferDraw => {
                            offer = Some(DrawOffer {
                                by: side,
                                seq: e.seq,
                                accepted: Vec::new(),
                            })
                        }
                        Act::AcceptDraw => {
                            if let Some(o) = offer.as_mut() {
                                o.accepted.push(side);
                            }
                        }
                        Act::DeclineDraw | Act::Concede => offer = None,
                    }
                    continue;
                }
                Body::Move(m) => by_name(&m.side),
                Body::Default(d) => by_name(&d.side),
                Body::Sealed(s) => by_name(&s.side),
                _ => None,
            };
            if mover.is_some() && offer.as_ref().map(|o| o.by) == mover {
                offer = None;
            }
        }
        offer
    }

    /// The seq of `side`'s latest move, default or sealed orders (each ends
    /// a draw offer it made before), if any.
    fn last_move_of(&self, side: Side) -> Option<u64> {
        let name = &self.sides[side.index()].name;
        self.record
            .entries()
            .iter()
            .rev()
            .find(|e| match &e.body {
                Body::Move(m) => m.side == *name,
                Body::Default(d) => d.side == *name,
                Body::Sealed(s) => s.side == *name,
                _ => false,
            })
            .map(|e| e.seq)
    }

    /// The names of `sides`, joined.
    fn names(&self, sides: &[Side]) -> String {
        let v: Vec<&str> = sides
            .iter()
            .map(|s| self.sides[s.index()].name.as_str())
            .collect();
        v.join(", ")
    }

    /// Has `side` left the game while the others play on
    /// (`Ruleset::has_left`)?
    pub fn has_left(&self, side: Side) -> bool {
        self.ruleset.has_left(&self.state, side)
    }

    /// The sides other than `side` that still have a say: under the bound
    /// rules, those that have not left the game.
    fn others(&self, side: Side, rules: ActRules) -> Vec<Side> {
        (0..self.sides.len())
            .map(|i| Side(i as u8))
            .filter(|s| *s != side && (rules == ActRules::Unbound || !self.has_left(*s)))
            .collect()
    }

    /// Judges `side`'s act, written in `file`, against the game as it stands.
    fn judge_act(
        &self,
        side: Side,
        act: Act,
        file: &MoveFile,
        rules: ActRules,
    ) -> Result<Judged, Rejection> {
        if let Some(done) = &self.prompt.finished {
            return Err(rej(
                RejectKind::Finished,
                format!("the game is over: {}", done.summary),
            ));
        }
        if rules == ActRules::Unbound {
            return self.judge_draw(side, act, rules);
        }
        let after = self.act_after(file)?;
        if self.has_left(side) {
            return Err(rej(
                RejectKind::Illegal,
                format!(
                    "{} has left the game: it has no say in what follows, so its `{}` changes nothing",
                    self.sides[side.index()].name,
                    act.text()
                ),
            ));
        }
        let mut judged = self.judge_draw(side, act, rules)?;
        judged.answers = Some(self.bind(side, act, after)?);
        Ok(judged)
    }

    /// The entry an act's `after:` names: every act must name one, so that
    /// it answers only what its side had seen.
    fn act_after(&self, file: &MoveFile) -> Result<u64, Rejection> {
        let head = self.record.head();
        let Some(after) = file.after else {
            return Err(rej(
                RejectKind::Stale,
                format!(
                    "an act names the entry it follows: add the line `after: {head}` (the record head of your latest result mail)"
                ),
            ));
        };
        self.seq_of_hash.get(&after).copied().ok_or_else(|| {
            rej(
                RejectKind::Stale,
                format!(
                    "`after: {}` names no entry of this game's record; copy the head hash from your latest result mail (now {head})",
                    after.short(16)
                ),
            )
        })
    }

    /// The entry a legal act answers, given the entry `after` it follows:
    /// an acceptance or a refusal answers the open offer and must follow it;
    /// an offer must follow its side's own latest move (a move ends any
    /// offer made before it); a concession answers what it follows.
    fn bind(&self, side: Side, act: Act, after: u64) -> Result<u64, Rejection> {
        let head = self.record.head();
        let stale = |m: String| Err(rej(RejectKind::Stale, m));
        match (act, self.draw_offer()) {
            (Act::AcceptDraw | Act::DeclineDraw, Some(o)) if after < o.seq => stale(format!(
                "this `{}` follows entry {after}, before {}'s draw offer at entry {}: it cannot answer that offer. Write it after the offer (the head is now {head})",
                act.text(),
                self.sides[o.by.index()].name,
                o.seq
            )),
            (Act::AcceptDraw | Act::DeclineDraw, Some(o)) => Ok(o.seq),
            (Act::OfferDraw, _) => match self.last_move_of(side) {
                Some(m) if after < m => stale(format!(
                    "this `offer draw` follows entry {after}, before {}'s own move at entry {m}, which ended any offer made before it. Write it after your latest move (the head is now {head})",
                    self.sides[side.index()].name
                )),
                _ => Ok(after),
            },
            _ => Ok(after),
        }
    }

    /// What `side`'s act does to the draw offers and the game, if legal.
    fn judge_draw(&self, side: Side, act: Act, rules: ActRules) -> Result<Judged, Rejection> {
        let illegal = |m: String| Err(rej(RejectKind::Illegal, m));
        let me = self.sides[side.index()].name.clone();
        let others = self.others(side, rules);
        let offer = self.draw_offer();
        match (act, offer) {
            (Act::Concede, _) => {
                let verb = if others.len() == 1 { "wins" } else { "win" };
                let summary = format!("{me} concedes: {} {verb}", self.names(&others));
                Ok(ending(summary, self.names_of_sides(&others)))
            }
            (Act::OfferDraw, Some(o)) if o.by != side => illegal(format!(
                "{} offered a draw at entry {}: write `accept draw` or `decline draw` as the only order of a move",
                self.sides[o.by.index()].name,
                o.seq
            )),
            (Act::OfferDraw, _) if others.is_empty() => {
                Ok(ending(format!("drawn: {me} offered a draw"), Vec::new()))
            }
            (Act::OfferDraw, _) => Ok(said(format!(
                "{me} offers a draw. To accept, {} writes `accept draw` as the only order of a move after this entry (or `decline draw`); the offer lapses when {me} moves again.",
                self.names(&others)
            ))),
            (Act::AcceptDraw | Act::DeclineDraw, None) => {
                illegal("no draw offer is open: write `offer draw` to make one".into())
            }
            (Act::AcceptDraw, Some(o)) if o.by == side => illegal(format!(
                "{me} made the draw offer; {} must accept it",
                self.names(&others)
            )),
            (Act::AcceptDraw, Some(o)) => self.accept(side, &o, rules),
            (Act::DeclineDraw, Some(o)) if o.by == side => {
                Ok(said(format!("{me} withdraws the draw offer")))
            }
            (Act::DeclineDraw, Some(o)) => Ok(said(format!(
                "{me} declines {}'s draw offer; play goes on",
                self.sides[o.by.index()].name
            ))),
        }
    }

    /// `side` accepts the open offer `o`: the last acceptance owed draws
    /// the game. Under the bound rules a side that has left owes none, and
    /// a side that accepted already may conclude a draw that no one still
    /// in the game owes anything to (one that left after it accepted).
    fn accept(&self, side: Side, o: &DrawOffer, rules: ActRules) -> Result<Judged, Rejection> {
        let me = &self.sides[side.index()].name;
        let again = o.accepted.contains(&side);
        let mut yes = o.accepted.clone();
        if !again {
            yes.push(side);
        }
        let owing: Vec<Side> = self
            .others(o.by, rules)
            .into_iter()
            .filter(|s| !yes.contains(s))
            .collect();
        if again && (rules == ActRules::Unbound || !owing.is_empty()) {
            return Err(rej(
                RejectKind::Illegal,
                format!("{me} has accepted the draw offer already"),
            ));
        }
        if owing.is_empty() {
            let summary = format!(
                "drawn by agreement: {} offered a draw, {} accepted",
                self.sides[o.by.index()].name,
                self.names(&yes)
            );
            return Ok(ending(summary, Vec::new()));
        }
        Ok(said(format!(
            "{me} accepts the draw offer; waiting for {} to accept",
            self.names(&owing)
        )))
    }

    fn names_of_sides(&self, sides: &[Side]) -> Vec<String> {
        sides
            .iter()
            .map(|s| self.sides[s.index()].name.clone())
            .collect()
    }

    /// Takes a move that is an act: `None` if it is not one (or its
    /// signature does not hold: the ordinary path refuses it the same way).
    pub(super) fn submit_act(
        &mut self,
        text: &[u8],
        signature: &str,
        keys: Keys,
        at: &str,
    ) -> Option<Verdict> {
        let (file, act) = self.act_of(text)?;
        let (_, side) = self.authenticate(text, Some(signature), true).ok()?;
        let utf8 = String::from_utf8(text.to_vec()).ok()?;
        let judged = match self.judge_act(side, act, &file, ActRules::Bound) {
            Ok(j) => j,
            Err(r) => {
                let r = Rejection {
                    signer: Some(side),
                    claimed: Some(file.side.clone()),
                    line: file.orders.first().cloned(),
                    ..r
                };
                return Some(self.record_rejection(text, Some(signature), r, keys, at));
            }
        };
        let ends = judged.ending.is_some();
        let body = Body::Act(ActEntry {
            side: self.sides[side.index()].name.clone(),
            act,
            text: utf8,
            signature: signature.to_string(),
            ending: judged.ending.clone(),
            answers: judged.answers,
            at: at.to_string(),
        });
        let seq = self.apply_act(body, side, &file.orders[0], judged, sha256(text));
        if ends {
            let due = self.pending_reveal.clone();
            self.reveal(&due, keys);
        }
        let report = self.reports[&seq].clone();
        Some(Verdict::Accepted { seq, side, report })
    }

    /// Was a refused submission an act the engine refuses too? For the
    /// replay of a refusal the ruleset alone would have accepted (freeform
    /// reads any line). A refusal recorded before acts were bound was judged
    /// by the rules of then, so either rules' refusal stands.
    pub(super) fn act_refused(&self, text: &[u8], signature: Option<&str>) -> bool {
        let Some((file, act)) = self.act_of(text) else {
            return false;
        };
        match self.authenticate(text, signature, true) {
            Ok((_, side)) => [ActRules::Bound, ActRules::Unbound]
                .into_iter()
                .any(|rules| self.judge_act(side, act, &file, rules).is_err()),
            Err(_) => true,
        }
    }

    /// Appends an act's entry and its report; ends the game if it does.
    fn apply_act(
        &mut self,
        body: Body,
        side: Side,
        line: &SourceLine,
        judged: Judged,
        text_hash: crate::hash::Digest,
    ) -> u64 {
        let seq = self.push_entry(body);
        self.accepted_texts.insert(text_hash, (seq, side));
        self.acts_bound |= judged.answers.is_some();
        let mut events = judged.events;
        if let Some(end) = &judged.ending {
            events.push(Event::say(format!("Game over: {}", end.summary)));
            self.end_with(end);
        }
        let report = Report {
            side: Some(side),
            orders: vec![OrderReport {
                source: line.clone(),
                outcome: Ok(events),
                audience: Audience::All,
            }],
            ..Default::default()
        };
        self.put_report(seq, report);
        self.last_action = seq;
        seq
    }

    /// Ends the game with `end`, whatever the ruleset's state says.
    pub(super) fn end_with(&mut self, end: &Ending) {
        let winners = end
            .winners
            .iter()
            .filter_map(|n| side_index(&self.sides, n))
            .collect();
        self.prompt = Prompt {
            stage: self.prompt.stage.clone(),
            awaiting: Vec::new(),
            finished: Some(Outcome {
                winners,
                summary: end.summary.clone(),
            }),
        };
    }

    /// Replays an act: its signature, that it is an act, and that it does
    /// what the record says. Returns the positions due for reveal.
    pub(super) fn replay_act(
        &mut self,
        a: &ActEntry,
        body: &Body,
        mode: ReplayMode,
        sum: &mut ReplaySummary,
    ) -> Result<Vec<u64>, StepError> {
        let text = a.text.as_bytes();
        let (file, act) = self.act_of(text).ok_or(StepError::NotAnAct)?;
        if act != a.act {
            return Err(StepError::ActDiffers {
                recorded: a.act.text(),
                says: act.text(),
            });
        }
        let verify = mode == ReplayMode::Verify;
        let (_, side) = self
            .authenticate(text, Some(&a.signature), verify)
            .map_err(|r| StepError::ActUnread(Box::new(r)))?;
        if verify {
            sum.signatures_checked += 1;
        }
        if self.sides[side.index()].name != a.side {
            return Err(StepError::ActSide(a.side.clone()));
        }
        let rules = match a.answers {
            Some(_) => ActRules::Bound,
            None if self.acts_bound => return Err(StepError::Unbound),
            None => ActRules::Unbound,
        };
        let judged = self
            .judge_act(side, act, &file, rules)
            .map_err(|r| StepError::ActRefused(Box::new(r)))?;
        if judged.answers != a.answers {
            return Err(StepError::Answers {
                recorded: a.answers,
                replay: judged.answers,
            });
        }
        if judged.ending != a.ending {
            return Err(StepError::Ending {
                recorded: a.ending.clone(),
                replay: judged.ending.clone(),
            });
        }
        let ends = judged.ending.is_some();
        sum.moves += 1;
        self.apply_act(body.clone(), side, &file.orders[0], judged, sha256(text));
        Ok(if ends {
            self.pending_reveal.clone()
        } else {
            Vec::new()
        })
    }
}

fn ending(summary: String, winners: Vec<String>) -> Judged {
    Judged {
        events: Vec::new(),
        ending: Some(Ending { winners, summary }),
        answers: None,
    }
}

/// An act that says something and ends nothing.
fn said(text: String) -> Judged {
    Judged {
        events: vec![Event::say(text)],
        ending: None,
        answers: None,
    }
}
