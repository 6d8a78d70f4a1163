//! Sealed simultaneous rounds: each side's orders are recorded as a sealed
//! commitment when they arrive (a later submission in the same round replaces
//! the earlier one), and when the last awaited side is in, all are applied in
//! side order with dice drawn from a seed over every submission.

use super::evaluate::{DiceFrom, default_lines, public_move_hash, public_of};
use super::{DefaultError, EngineFault, Game, Keys, Report, RoundPart, StateMismatch, Verdict};
use crate::audience::Audience;
use crate::hash::{Tagged, sha256};
use crate::movefile::{MoveFile, SourceLine};
use crate::record::{Body, PublicLine, RoundEntry, SealedEntry};
use crate::ruleset::{AwaitKind, GameState, Side};

/// Domain tag of the hash over a round's submissions that seeds its dice.
pub const ROUND_DOMAIN: &str = "umpire-round-v1";

/// A sealed submission waiting for its round to close.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(super) struct Held {
    pub seq: u64,
    pub side: Side,
    pub what: HeldMove,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(super) enum HeldMove {
    Signed { text: Vec<u8> },
    Default { orders: Vec<String> },
}

/// A held move's orders, judged on the state before the round: who may read
/// each line, and the lines every side may read (they seed the round's dice,
/// so no hidden line can be tested against its public rolls).
struct Plan {
    lines: Vec<SourceLine>,
    standing: Option<Vec<SourceLine>>,
    audiences: Vec<Audience>,
    public: Vec<PublicLine>,
}

/// A round resolved: the new state, its report, the public lines per move.
pub(super) struct Resolved {
    pub state: GameState,
    pub report: Report,
    pub lines: Vec<Vec<PublicLine>>,
}

impl Game {
    pub(super) fn held_for(&self, side: Side) -> Option<&Held> {
        self.held.iter().find(|h| h.side == side)
    }

    /// Holds `held`, replacing the same side's earlier submission.
    pub(super) fn hold(&mut self, held: Held) {
        self.held.retain(|h| h.side != held.side);
        self.held.push(held);
    }

    /// Is every side asked for sealed orders in?
    fn round_complete(&self) -> bool {
        let mut asked = self
            .prompt
            .awaiting
            .iter()
            .filter(|a| a.kind == AwaitKind::SealedOrders)
            .peekable();
        asked.peek().is_some() && asked.all(|a| self.held_for(a.side).is_some())
    }

    /// A signed move for a sealed round: checked as any move is, up to its
    /// first roll, then recorded sealed to its side.
    pub(super) fn submit_sealed(
        &mut self,
        text: &[u8],
        signature: &str,
        keys: Keys,
        at: &str,
    ) -> Verdict {
        if !self.hides {
            return Verdict::Unavailable(EngineFault::SealedWithoutHiding);
        }
        let ev = match self.evaluate(text, Some(signature), DiceFrom::Preview, true) {
            Ok(Ok(ev)) => ev,
            Ok(Err(m)) => return Verdict::Unavailable(m),
            Err(r) => return self.record_rejection(text, Some(signature), r, keys, at),
        };
        let side = ev.side;
        let name = self.sides[side.index()].name.clone();
        let mut salts = crate::sealed::EntrySalts::new(keys.salter, self.record.len() as u64);
        let body = Body::Sealed(SealedEntry {
            side: name.clone(),
            text: Some(salts.item(
                String::from_utf8_lossy(text).into_owned(),
                Some(vec![name.clone()]),
            )),
            signature: Some(salts.item(signature.to_string(), Some(vec![name]))),
            default: None,
            reason: None,
            at: at.to_string(),
        });
        let seq = self.push_entry(body);
        // What the orders did on the position as it stood, for the sender's
        // receipt alone (each event keeps its audience; replays do not make it).
        self.reports.insert(seq, ev.report);
        self.accepted_texts.insert(sha256(text), (seq, side));
        self.hold(Held {
            seq,
            side,
            what: HeldMove::Signed {
                text: text.to_vec(),
            },
        });
        let resolved = match self.close_round(keys, at) {
            Ok(r) => r,
            Err(m) => return Verdict::Unavailable(m),
        };
        Verdict::Sealed {
            seq,
            side,
            resolved,
        }
    }

    /// The stated default of a side in a sealed round, held like its orders.
    pub(super) fn default_sealed(
        &mut self,
        side: Side,
        orders: &[String],
        reason: &str,
        keys: Keys,
        at: &str,
    ) -> Result<(u64, Report), DefaultError> {
        if self.held_for(side).is_some() {
            return Err(DefaultError::AlreadyIn {
                side: self.sides[side.index()].name.clone(),
            });
        }
        let name = self.sides[side.index()].name.clone();
        let mut salts = crate::sealed::EntrySalts::new(keys.salter, self.record.len() as u64);
        let body = Body::Sealed(SealedEntry {
            side: name.clone(),
            text: None,
            signature: None,
            default: Some(salts.item(orders.to_vec(), Some(vec![name]))),
            reason: Some(reason.to_string()),
            at: at.to_string(),
        });
        let seq = self.push_entry(body);
        self.hold(Held {
            seq,
            side,
            what: HeldMove::Default {
                orders: orders.to_vec(),
            },
        });
        match self.close_round(keys, at)? {
            Some(round) => Ok((round, self.reports[&round].clone())),
            None => Ok((seq, Report::default())),
        }
    }

    /// Resolves the round if every side is in; returns the round's entry.
    fn close_round(&mut self, keys: Keys, at: &str) -> Result<Option<u64>, EngineFault> {
        if !self.round_complete() {
            return Ok(None);
        }
        let r = self.resolve_round(DiceFrom::Live(keys))?;
        let (state, salt) = self
            .state_hash(&r.state, keys)
            .map_err(StateMismatch::from)?;
        let mut salts = crate::sealed::EntrySalts::new(
            if self.hides { keys.salter } else { None },
            self.record.len() as u64,
        );
        let rolls = r
            .report
            .rolls
            .iter()
            .map(|x| salts.item(x.clone(), self.names_of(&x.audience)))
            .collect();
        let body = Body::Round(RoundEntry {
            moves: self.round_order().iter().map(|h| h.seq).collect(),
            lines: r.lines,
            position: self.next_position,
            rolls,
            state,
            salt,
            at: at.to_string(),
        });
        let side = self.round_order()[0].side;
        self.held.clear();
        let due = self.commit_action(body, r.state, r.report, side, None);
        let seq = self.last_action;
        self.push_disclosure();
        self.reveal(&due, keys);
        Ok(Some(seq))
    }

    /// The held submissions in the order they are applied: by side.
    pub(super) fn round_order(&self) -> Vec<Held> {
        let mut v = self.held.clone();
        v.sort_by_key(|h| h.side);
        v
    }

    /// Applies every held submission, in side order, to a copy of the state.
    /// An order that no longer fits (an earlier side's orders changed the
    /// state) is not carried out; nothing is refused any more.
    pub(super) fn resolve_round(&self, from: DiceFrom) -> Result<Resolved, EngineFault> {
        let order = self.round_order();
        let plans = order
            .iter()
            .map(|h| self.plan(h))
            .collect::<Result<Vec<_>, _>>()?;
        let mut t = Tagged::new(ROUND_DOMAIN);
        for (h, p) in order.iter().zip(&plans) {
            let name = &self.sides[h.side.index()].name;
            t = t.field(&public_move_hash(name, &p.public).0);
        }
        let position = self.next_position;
        let mut dice = self.dice_for(from, position, &t.finish())?;
        let mut state = self.state.clone();
        let mut parts = Vec::new();
        for (h, plan) in order.iter().zip(&plans) {
            parts.push(self.resolve_one(&mut state, h, plan, &mut dice)?);
        }
        let lines = plans.into_iter().map(|p| p.public).collect();
        if dice.unused_recorded() > 0 {
            return Err(EngineFault::ExtraRolls {
                extra: dice.unused_recorded(),
                action: "round",
            });
        }
        self.check_disclosed(dice.disclosed(), position, dice.count())?;
        let report = Report {
            round: parts,
            disclosed: dice.disclosed().to_vec(),
            rolls: dice.into_rolls(),
            position: Some(position),
            ..Default::default()
        };
        Ok(Resolved {
            state,
            report,
            lines,
        })
    }

    fn plan(&self, h: &Held) -> Result<Plan, EngineFault> {
        let (lines, standing) = match &h.what {
            HeldMove::Signed { text } => {
                let file = MoveFile::parse(text)?;
                (file.orders, file.standing)
            }
            HeldMove::Default { orders } => (default_lines(orders), None),
        };
        let (audiences, public) = match self.ruleset.parse(&self.state, h.side, &lines) {
            Ok(parsed) => {
                let a = self.audiences(&self.state, h.side, &parsed);
                let p = public_of(&parsed, &a, self.numbers_public_lines());
                (a, p)
            }
            Err(_) => (Vec::new(), Vec::new()),
        };
        Ok(Plan {
            lines,
            standing,
            audiences,
            public,
        })
    }

    fn resolve_one(
        &self,
        state: &mut GameState,
        h: &Held,
        plan: &Plan,
        dice: &mut crate::dice::Dice,
    ) -> Result<RoundPart, EngineFault> {
        let mut part = RoundPart {
            side: h.side,
            by_default: matches!(h.what, HeldMove::Default { .. }),
            standing: Vec::new(),
            orders: Vec::new(),
            end: Vec::new(),
        };
        if let Some(st) = &plan.standing {
            let audience = self.ruleset.standing_audience(state, h.side);
            if let Ok(ev) = self.ruleset.set_standing(state, h.side, st) {
                part.standing = ev.into_iter().map(|e| e.to(audience.clone())).collect();
            }
        }
        let lines = &plan.lines;
        match self.ruleset.parse(state, h.side, lines) {
            Ok(parsed) => {
                // Orders read differently now than before the round keep
                // their lines hidden: the round's seed was fixed on the plan.
                let audiences = if parsed.len() == plan.audiences.len() {
                    plan.audiences.clone()
                } else {
                    vec![Audience::side(h.side); parsed.len()]
                };
                part.orders =
                    match self.run_orders(state, h.side, &parsed, &audiences, dice, false, None) {
                        Ok(r) => r,
                        Err(super::evaluate::RunError::Replay(m)) => return Err(m),
                        Err(_) => Vec::new(),
                    };
            }
            Err(e) => {
                part.orders = lines
                    .iter()
                    .map(|l| super::OrderReport {
                        source: l.clone(),
                        outcome: Err(format!("not carried out: {e}")),
                        audience: Audience::side(h.side),
                    })
                    .collect();
            }
        }
        // A move that gave orders ends, whether or not they still read.
        if !lines.is_empty() {
            part.end = match self.end_of_move(state, h.side, dice, false) {
                Ok(events) => events,
                Err(super::evaluate::RunError::Replay(m)) => return Err(m),
                Err(_) => Vec::new(),
            };
        }
        Ok(part)
    }

    /// Appends a body that changes no state; returns its seq.
    pub(super) fn push_entry(&mut self, body: Body) -> u64 {
        let seq = self.record.len() as u64;
        let hash = self.record_push(body).hash;
        self.seq_of_hash.insert(hash, seq);
        seq
    }
}
