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
//! - Acts need not wait for the side's turn, nor follow the latest entry.
//!
//! An act that ends the game ends it as a normal end does: the prompt is
//! finished, every dice position used is revealed, and the service sends the
//! full record with every opening.

use super::{Game, OrderReport, RejectKind, Rejection, ReplayMode, ReplaySummary, Report, Verdict};
use super::{Keys, rej, side_index};
use crate::core::act::{Act, ActEntry, Ending};
use crate::core::audience::Audience;
use crate::core::hash::sha256;
use crate::core::movefile::{MoveFile, SourceLine};
use crate::core::record::Body;
use crate::core::ruleset::{Event, Outcome, Prompt, Side};

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

/// What an act does, once judged.
struct Judged {
    events: Vec<Event>,
    ending: Option<Ending>,
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

    /// The names of `sides`, joined.
    fn names(&self, sides: &[Side]) -> String {
        let v: Vec<&str> = sides
            .iter()
            .map(|s| self.sides[s.index()].name.as_str())
            .collect();
        v.join(", ")
    }

    /// Judges `side`'s act against the game as it stands.
    fn judge_act(&self, side: Side, act: Act) -> Result<Judged, Rejection> {
        if let Some(done) = &self.prompt.finished {
            return Err(rej(
                RejectKind::Finished,
                format!("the game is over: {}", done.summary),
            ));
        }
        let illegal = |m: String| Err(rej(RejectKind::Illegal, m));
        let me = self.sides[side.index()].name.clone();
        let others: Vec<Side> = (0..self.sides.len())
            .map(|i| Side(i as u8))
            .filter(|s| *s != side)
            .collect();
        let offer = self.draw_offer();
        let say = |t: String| vec![Event::say(t)];
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
            (Act::OfferDraw, _) => Ok(Judged {
                events: say(format!(
                    "{me} offers a draw. To accept, {} writes `accept draw` as the only order of a move (or `decline draw`); the offer lapses when {me} moves again.",
                    self.names(&others)
                )),
                ending: None,
            }),
            (Act::AcceptDraw | Act::DeclineDraw, None) => {
                illegal("no draw offer is open: write `offer draw` to make one".into())
            }
            (Act::AcceptDraw, Some(o)) if o.by == side => illegal(format!(
                "{me} made the draw offer; {} must accept it",
                self.names(&others)
            )),
            (Act::AcceptDraw, Some(o)) if o.accepted.contains(&side) => {
                illegal(format!("{me} has accepted the draw offer already"))
            }
            (Act::AcceptDraw, Some(o)) => {
                let mut yes = o.accepted.clone();
                yes.push(side);
                let owing: Vec<Side> = (0..self.sides.len())
                    .map(|i| Side(i as u8))
                    .filter(|s| *s != o.by && !yes.contains(s))
                    .collect();
                if owing.is_empty() {
                    let summary = format!(
                        "drawn by agreement: {} offered a draw, {} accepted",
                        self.sides[o.by.index()].name,
                        self.names(&yes)
                    );
                    Ok(ending(summary, Vec::new()))
                } else {
                    Ok(Judged {
                        events: say(format!(
                            "{me} accepts the draw offer; waiting for {} to accept",
                            self.names(&owing)
                        )),
                        ending: None,
                    })
                }
            }
            (Act::DeclineDraw, Some(o)) if o.by == side => Ok(Judged {
                events: say(format!("{me} withdraws the draw offer")),
                ending: None,
            }),
            (Act::DeclineDraw, Some(o)) => Ok(Judged {
                events: say(format!(
                    "{me} declines {}'s draw offer; play goes on",
                    self.sides[o.by.index()].name
                )),
                ending: None,
            }),
        }
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
        let judged = match self.judge_act(side, act) {
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
    /// reads any line).
    pub(super) fn act_refused(&self, text: &[u8], signature: Option<&str>) -> bool {
        let Some((_, act)) = self.act_of(text) else {
            return false;
        };
        match self.authenticate(text, signature, true) {
            Ok((_, side)) => self.judge_act(side, act).is_err(),
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
        text_hash: crate::core::hash::Digest,
    ) -> u64 {
        let seq = self.push_entry(body);
        self.accepted_texts.insert(text_hash, (seq, side));
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
    ) -> Result<Vec<u64>, String> {
        let text = a.text.as_bytes();
        let (file, act) = self
            .act_of(text)
            .ok_or("the act's move is not one the engine carries out itself")?;
        if act != a.act {
            return Err(format!(
                "recorded as `{}`, but the move says `{}`",
                a.act.text(),
                act.text()
            ));
        }
        let verify = mode == ReplayMode::Verify;
        let (_, side) = self
            .authenticate(text, Some(&a.signature), verify)
            .map_err(|r| r.reason)?;
        if verify {
            sum.signatures_checked += 1;
        }
        if self.sides[side.index()].name != a.side {
            return Err(format!("recorded as {}'s act, but it is another's", a.side));
        }
        let judged = self.judge_act(side, act).map_err(|r| {
            format!(
                "the umpire accepted an act that is refused on replay: {}",
                r.reason
            )
        })?;
        if judged.ending != a.ending {
            return Err(format!(
                "the act's recorded ending ({:?}) is not what it does on replay ({:?})",
                a.ending, judged.ending
            ));
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
    }
}
