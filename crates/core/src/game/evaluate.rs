//! Evaluating a submission: every check before its first roll, then its
//! orders on a copy of the state. Live play, `check` and replay all come here.

use super::{
    DefaultError, EngineFault, Game, Keys, OrderReport, RejectKind, Rejection, ReplayError, Report,
    RollMismatch, StepError, rej, side_index,
};
use crate::audience::Audience;
use crate::dice::{self, Dice, DiceError, Roll};
use crate::hash::{Digest, Tagged, sha256};
use crate::movefile::{MoveFile, SourceLine};
use crate::record::{Body, PublicLine};
use crate::ruleset::{GameState, OrderError, ParsedOrder, Prompt, RuleError, Side, word_at_fault};
use crate::sig::{MOVE_NAMESPACE, SigError};

/// Domain tag of the public seed of the set-up's random part.
pub const DEAL_DOMAIN: &str = "umpire-deal-v1";
/// Domain tag of a sealed move's public projection (its side and the order
/// lines every side may read), which seeds its public rolls in place of the
/// move's hash: a hash of the whole text would let another side test guesses
/// of the hidden lines against the public rolls.
pub const PUBLIC_MOVE_DOMAIN: &str = "umpire-public-move-v1";

/// The hash seeding a sealed move's public rolls.
pub(crate) fn public_move_hash(side: &str, lines: &[PublicLine]) -> Digest {
    Tagged::new(PUBLIC_MOVE_DOMAIN)
        .field(side.as_bytes())
        .field(&crate::canon::to_vec(lines).unwrap_or_default())
        .finish()
}

/// The order lines every side may read, given each order's audience,
/// numbered among themselves (`among_public`; so a public line's number
/// does not tell how many hidden lines stood before it) or, in records of
/// format 2, by their line in the move file.
pub(super) fn public_of(
    orders: &[ParsedOrder],
    audiences: &[Audience],
    among_public: bool,
) -> Vec<PublicLine> {
    orders
        .iter()
        .zip(audiences)
        .filter(|(_, a)| a.is_public())
        .enumerate()
        .map(|(i, (o, _))| PublicLine {
            line: if among_public { i + 1 } else { o.source.line },
            text: o.source.text.clone(),
        })
        .collect()
}

/// Where a move's dice come from.
pub(super) enum DiceFrom<'a> {
    /// The umpire's own secrets (live play).
    Live(Keys<'a>),
    /// Secrets the record reveals: the public one, and the hidden streams' by slot.
    Secret {
        public: Digest,
        hidden: Vec<Option<Digest>>,
    },
    /// The rolls the record holds (the store's trusted replay).
    Recorded(Vec<Roll>),
    /// No rolls at all: `check` stops at the first.
    Preview,
}

/// A submission that passed every check before its first roll.
pub(super) struct Evaluated {
    pub side: Side,
    pub file: MoveFile,
    pub state: GameState,
    pub report: Report,
    /// In a preview: the roll it stopped at.
    pub stopped: Option<String>,
    /// Its text is sealed to its side (some line or its standing orders are not for all).
    pub sealed_text: bool,
    /// For a sealed text: the order lines every side may read.
    pub public_lines: Vec<PublicLine>,
}

pub(super) enum RunError {
    Refused(Rejection),
    Replay(EngineFault),
    PreviewStop(Vec<OrderReport>, String),
}

impl Game {
    /// Dice for position `p`: the public stream seeded by the move's hash, the
    /// hidden ones by their slots' secrets. `Err` only live, for a spent chain.
    pub(super) fn dice_for(
        &self,
        from: DiceFrom,
        p: u64,
        move_hash: &Digest,
    ) -> Result<Dice, DiceError> {
        let game = self.id();
        // A slot whose secret is missing gets no stream: a roll from it fails.
        let hidden_seeds = |secrets: Vec<Option<Digest>>| -> Vec<Option<[u8; 32]>> {
            secrets
                .iter()
                .enumerate()
                .map(|(slot, s)| s.map(|g| dice::hidden_seed(game, p, slot, &g)))
                .collect()
        };
        Ok(match from {
            DiceFrom::Live(keys) => {
                let k = if p == 0 {
                    self.last_revealed.1
                } else {
                    keys.chain.secret(p)?
                };
                let hidden = (0..keys.hidden.len())
                    .map(|slot| keys.hidden_secret(slot, p))
                    .collect();
                Dice::seeded(dice::seed(game, p, &k, move_hash)).with_hidden(hidden_seeds(hidden))
            }
            DiceFrom::Secret { public, hidden } => {
                Dice::seeded(dice::seed(game, p, &public, move_hash))
                    .with_hidden(hidden_seeds(hidden))
            }
            DiceFrom::Recorded(r) => Dice::recorded(r),
            DiceFrom::Preview => Dice::preview(),
        }
        .at(p))
    }

    /// The random part of the set-up, at dice position 0: live, it appends a
    /// `setup` entry when it rolled; on replay it checks the recorded one.
    pub(super) fn deal(
        &mut self,
        from: DiceFrom,
        recorded: Option<(&Body, u64)>,
    ) -> Result<(), ReplayError> {
        let fail = |e: StepError| ReplayError::at(recorded.map_or(1, |(_, s)| s), e);
        let opening_hash = self.record.entries()[0].hash;
        let live = matches!(from, DiceFrom::Live(_));
        let keys = match &from {
            DiceFrom::Live(k) => Some(*k),
            _ => None,
        };
        let mut dice = self
            .dice_for(from, 0, &deal_seed_hash(&opening_hash))
            .map_err(|e| fail(EngineFault::from(e).into()))?;
        let mut state = self.state.clone();
        let events = self
            .ruleset
            .deal(&mut state, &mut dice)
            .map_err(|e| fail(StepError::Deal(e)))?;
        let rolls = dice.into_rolls();
        if rolls.is_empty() && recorded.is_none() {
            self.state = state;
            self.prompt = self.ruleset.prompt(&self.state);
            self.reports.insert(0, report_of_deal(events, rolls));
            return Ok(());
        }
        if let Some((body, _)) = recorded {
            self.check_setup_body(body, &state, &rolls).map_err(fail)?;
        }
        let body = match (live, keys, recorded) {
            (true, Some(keys), _) => self
                .setup_body(&state, &rolls, keys)
                .map_err(|e| fail(EngineFault::from(super::StateMismatch::from(e)).into()))?,
            (_, _, Some((b, _))) => b.clone(),
            _ => {
                return Err(fail(StepError::SetupMissing));
            }
        };
        let seq = self.record.len() as u64;
        let hash = self.record_push(body).hash;
        self.seq_of_hash.insert(hash, seq);
        self.state = state;
        self.prompt = self.ruleset.prompt(&self.state);
        let report = report_of_deal(events, rolls);
        self.reports.insert(0, report);
        Ok(())
    }

    /// Checks a submission and, if nothing is wrong before its first roll,
    /// carries it out on a copy of the state. The outer error is a refusal;
    /// the inner one is a replay inconsistency (recorded dice do not fit).
    pub(super) fn evaluate(
        &self,
        text: &[u8],
        signature: Option<&str>,
        dice_from: DiceFrom,
        check_signature: bool,
    ) -> Result<Result<Evaluated, EngineFault>, Rejection> {
        let (file, side) = self.authenticate(text, signature, check_signature)?;
        let signed = |r: Rejection| Rejection {
            signer: check_signature.then_some(side),
            claimed: Some(file.side.clone()),
            ..r
        };
        let mut state = self.state.clone();
        let mut report = Report {
            side: Some(side),
            ..Default::default()
        };
        if let Some(lines) = &file.standing {
            let audience = self.ruleset.standing_audience(&state, side);
            report.standing = self
                .ruleset
                .set_standing(&mut state, side, lines)
                .map_err(|e| signed(order_rejection(lines, e)))?
                .into_iter()
                .map(|e| e.to(audience.clone()))
                .collect();
        }
        let hidden_standing =
            file.standing.is_some() && !self.ruleset.standing_audience(&state, side).is_public();
        if file.orders.is_empty() {
            return Ok(Ok(Evaluated {
                side,
                file,
                state,
                report,
                stopped: None,
                sealed_text: self.hides && hidden_standing,
                public_lines: Vec::new(),
            }));
        }
        let orders = match self.may_move(&file, side) {
            Ok(()) => self
                .ruleset
                .parse_all(&state, side, &file.orders)
                .map_err(|e| signed(order_rejections(&file.orders, e)))?,
            // Orders the ruleset takes at any time (`Ruleset::out_of_turn`).
            Err(r) if r.kind == RejectKind::NotYourTurn => self
                .out_of_turn(&state, side, &file.orders)
                .ok_or_else(|| signed(r))?,
            Err(r) => return Err(signed(r)),
        };
        let audiences = self.audiences(&state, side, &orders);
        let sealed_text =
            self.hides && (hidden_standing || audiences.iter().any(|a| !a.is_public()));
        let public_lines = if sealed_text {
            public_of(&orders, &audiences, self.numbers_public_lines())
        } else {
            Vec::new()
        };
        let move_hash = if sealed_text {
            public_move_hash(&self.sides[side.index()].name, &public_lines)
        } else {
            sha256(text)
        };
        let position = self.next_position;
        let mut dice = match self.dice_for(dice_from, position, &move_hash) {
            Ok(d) => d,
            Err(e) => return Ok(Err(e.into())),
        };
        let mut stopped = None;
        // Without standing orders the state is still the game's, whose
        // prompt the game holds.
        let start = file.standing.is_none().then_some(&self.prompt);
        match self.run_orders(
            &mut state, side, &orders, &audiences, &mut dice, true, start,
        ) {
            Ok(reports) => {
                report.orders = reports;
                match self.end_of_move(&mut state, side, &mut dice, true) {
                    Ok(events) => report.end = events,
                    Err(RunError::Refused(r)) => return Err(signed(r)),
                    Err(RunError::Replay(m)) => return Ok(Err(m)),
                    Err(RunError::PreviewStop(_, label)) => stopped = Some(label),
                }
            }
            Err(RunError::Refused(r)) => return Err(signed(r)),
            Err(RunError::Replay(m)) => return Ok(Err(m)),
            Err(RunError::PreviewStop(reports, label)) => {
                report.orders = reports;
                stopped = Some(label);
            }
        }
        if dice.unused_recorded() > 0 {
            return Ok(Err(EngineFault::ExtraRolls {
                extra: dice.unused_recorded(),
                action: "move",
            }));
        }
        if let Err(m) = self.check_disclosed(dice.disclosed(), position, dice.count()) {
            return Ok(Err(m));
        }
        report.disclosed = dice.disclosed().to_vec();
        report.rolls = dice.into_rolls();
        report.position = Some(position);
        Ok(Ok(Evaluated {
            side,
            file,
            state,
            report,
            stopped,
            sealed_text,
            public_lines,
        }))
    }

    /// Who may read each order, judged on the state the move starts from.
    pub(super) fn audiences(
        &self,
        state: &GameState,
        side: Side,
        orders: &[ParsedOrder],
    ) -> Vec<Audience> {
        orders
            .iter()
            .map(|o| self.ruleset.order_audience(state, side, o))
            .collect()
    }

    /// Reads the file, finds its game and side, and checks its signature.
    pub(super) fn authenticate(
        &self,
        text: &[u8],
        signature: Option<&str>,
        check_signature: bool,
    ) -> Result<(MoveFile, Side), Rejection> {
        let file = MoveFile::parse(text).map_err(|e| Rejection {
            line: source_line(text, e.line, e.column),
            ..rej(
                RejectKind::Malformed,
                format!("the move file does not read: {e}"),
            )
        })?;
        let game = self.id().to_string();
        if file.game != game {
            return Err(Rejection {
                claimed: Some(file.side.clone()),
                ..rej(
                    RejectKind::WrongGame,
                    format!("this is game {game}, the file names game {}", file.game),
                )
            });
        }
        let Some(side) = side_index(&self.sides, &file.side) else {
            let names: Vec<&str> = self.sides.iter().map(|s| s.name.as_str()).collect();
            return Err(Rejection {
                claimed: Some(file.side.clone()),
                ..rej(
                    RejectKind::UnknownSide,
                    format!(
                        "game {game} has no side {:?}; its sides are {}",
                        file.side,
                        names.join(", ")
                    ),
                )
            });
        };
        if check_signature {
            self.check_signature(&file, side, text, signature)?;
        }
        Ok((file, side))
    }

    fn check_signature(
        &self,
        file: &MoveFile,
        side: Side,
        text: &[u8],
        signature: Option<&str>,
    ) -> Result<(), Rejection> {
        let sig_err = |e: String| Rejection {
            claimed: Some(file.side.clone()),
            ..rej(RejectKind::Signature, e)
        };
        let Some(sig) = signature else {
            return Err(sig_err("the move is not signed".into()));
        };
        let Some(key) = &self.sides[side.index()].key else {
            return Err(sig_err(format!(
                "the seat of {} is open: no player's key speaks for it yet (a player takes it with a signed join)",
                file.side
            )));
        };
        // A replay's pre-check is placed by record position: the move being
        // replayed is looked up by its seq, its bytes compared, nothing hashed.
        let known = self
            .prechecked
            .as_deref()
            .and_then(|p| match self.replaying {
                Some(link) => p.signer_at(link.seq, MOVE_NAMESPACE, text, sig),
                None => p.signer(MOVE_NAMESPACE, text, sig),
            });
        key.verify_known(MOVE_NAMESPACE, text, sig, known)
            .map_err(|e| {
                sig_err(match e {
                    SigError::WrongKey { found, .. } => format!(
                        "signed by key {found}, which is not {}'s key ({}): forged or wrong key",
                        file.side,
                        key.fingerprint()
                    ),
                    other => format!("bad signature: {other}"),
                })
            })
    }

    /// May `side` give orders now: the game runs, the move is not stale, and
    /// the side is asked to act?
    fn may_move(&self, file: &MoveFile, side: Side) -> Result<(), Rejection> {
        if let Some(done) = &self.prompt.finished {
            return Err(rej(
                RejectKind::Finished,
                format!("the game is over: {}", done.summary),
            ));
        }
        let after = file.after.unwrap_or(Digest::ZERO);
        let Some(seq) = self.seq_of_hash.get(&after).copied() else {
            return Err(rej(
                RejectKind::Stale,
                format!(
                    "`after: {}` names no entry of this game's record; copy the head hash from your latest result mail (now {})",
                    after.short(16),
                    self.record.head()
                ),
            ));
        };
        let anchor = self.anchors[side.index()];
        if seq < anchor {
            return Err(rej(RejectKind::Stale, self.stale_reason(side, seq, anchor)));
        }
        if self.prompt.awaits(side).is_none() {
            return Err(rej(
                RejectKind::NotYourTurn,
                format!(
                    "it is not {}'s turn to act: {}; waiting for {}",
                    file.side,
                    self.prompt.stage,
                    self.awaiting_names()
                ),
            ));
        }
        Ok(())
    }

    /// The move's orders, if every one may be given out of turn
    /// (`Ruleset::out_of_turn`); otherwise `None` and the move is refused as
    /// not the side's turn, as before, whatever its lines say.
    fn out_of_turn(
        &self,
        state: &GameState,
        side: Side,
        lines: &[SourceLine],
    ) -> Option<Vec<ParsedOrder>> {
        let orders = self.ruleset.parse_all(state, side, lines).ok()?;
        orders
            .iter()
            .all(|o| self.ruleset.out_of_turn(state, side, o))
            .then_some(orders)
    }

    fn stale_reason(&self, side: Side, seq: u64, anchor: u64) -> String {
        let name = &self.sides[side.index()].name;
        // A default applied for this side since the move was written: it came too late.
        let defaulted = self.record.entries()[(seq as usize + 1).min(self.record.len())..]
            .iter()
            .find(|e| match &e.body {
                Body::Default(d) => d.side == *name,
                Body::Sealed(s) => s.side == *name && s.default.is_some(),
                _ => false,
            });
        match defaulted {
            Some(e) => format!(
                "too late: the deadline passed and the umpire applied {name}'s stated default at entry {}; the game has moved on, write your next move against head {}",
                e.seq,
                self.record.head()
            ),
            None => format!(
                "stale: the move follows entry {seq}, but the game moved on at entry {anchor}; look at the latest result mail and write the move against head {}",
                self.record.head()
            ),
        }
    }

    /// Carries out orders one by one. With `refuse`, an order illegal before
    /// the move's first roll refuses the move; otherwise (a sealed round,
    /// whose orders were accepted when they arrived) it is not carried out.
    /// `start`: the prompt of `state` as given, if the caller holds it.
    #[allow(clippy::too_many_arguments)] // each is a distinct part of the move
    pub(super) fn run_orders(
        &self,
        state: &mut GameState,
        side: Side,
        orders: &[ParsedOrder],
        audiences: &[Audience],
        dice: &mut Dice,
        refuse: bool,
        start: Option<&Prompt>,
    ) -> Result<Vec<OrderReport>, RunError> {
        let mut out = Vec::new();
        for (i, o) in orders.iter().enumerate() {
            let audience = audiences
                .get(i)
                .cloned()
                .unwrap_or_else(|| Audience::side(side));
            // Who is asked to act: the caller's prompt of `state` as given
            // for the first order, if it has one (no need to build it again).
            let built;
            let prompt = match start.filter(|_| i == 0) {
                Some(p) => p,
                None => {
                    built = self.ruleset.prompt(state);
                    &built
                }
            };
            let result =
                if prompt.awaits(side).is_none() && !self.ruleset.out_of_turn(state, side, o) {
                    Err(RuleError::unruled(format!(
                        "{} is not asked to act any more ({})",
                        self.sides[side.index()].name,
                        prompt.stage
                    )))
                } else {
                    let mut trial = state.clone();
                    self.ruleset
                        .apply(&mut trial, side, o, dice)
                        .map(|ev| (trial, ev))
                };
            let report = |outcome| OrderReport {
                source: o.source.clone(),
                outcome,
                audience: audience.clone(),
            };
            match result {
                Ok((next, events)) => {
                    *state = next;
                    // An event of a hidden order is for its audience too.
                    let events = events
                        .into_iter()
                        .map(|e| narrowed(e, &audience, side))
                        .collect();
                    out.push(report(Ok(events)));
                }
                Err(RuleError::Dice(DiceError::PreviewStops(label))) => {
                    return Err(RunError::PreviewStop(out, label));
                }
                Err(RuleError::Dice(
                    e @ (DiceError::RecordShort(_) | DiceError::RecordMismatch { .. }),
                )) => {
                    return Err(RunError::Replay(e.into()));
                }
                // 2(promise): refused only while no die has been rolled for this move.
                Err(e) if refuse && dice.count() == 0 => {
                    let mut reason = format!("line {}: {e}", o.source.line);
                    for more in self.later_errors(state, side, &orders[i + 1..]) {
                        reason.push('\n');
                        reason.push_str(&more);
                    }
                    return Err(RunError::Refused(Rejection {
                        line: Some(SourceLine {
                            // The caret under the word the error names, if any.
                            column: word_at_fault(&o.source.text, &e.to_string()).unwrap_or(1),
                            ..o.source.clone()
                        }),
                        ..rej(RejectKind::Illegal, reason)
                    }));
                }
                Err(e) => out.push(report(Err(e.to_string()))),
            }
        }
        Ok(out)
    }

    /// The end of a move, after its last order (`Ruleset::end_move`), on a
    /// copy of the state. With `refuse`, an error before the move's first
    /// roll refuses the move; otherwise it is told to the mover as not
    /// carried out.
    pub(super) fn end_of_move(
        &self,
        state: &mut GameState,
        side: Side,
        dice: &mut Dice,
        refuse: bool,
    ) -> Result<Vec<crate::ruleset::Event>, RunError> {
        let mut trial = state.clone();
        match self.ruleset.end_move(&mut trial, side, dice) {
            Ok(events) => {
                *state = trial;
                Ok(events)
            }
            Err(RuleError::Dice(DiceError::PreviewStops(label))) => {
                Err(RunError::PreviewStop(Vec::new(), label))
            }
            Err(RuleError::Dice(
                e @ (DiceError::RecordShort(_) | DiceError::RecordMismatch { .. }),
            )) => Err(RunError::Replay(e.into())),
            Err(e) if refuse && dice.count() == 0 => Err(RunError::Refused(rej(
                RejectKind::Illegal,
                format!("at the end of the move: {e}"),
            ))),
            Err(e) => Ok(vec![
                crate::ruleset::Event::say(format!("not carried out at the end of the move: {e}"))
                    .to(Audience::side(side)),
            ]),
        }
    }

    /// The errors of the orders after a refused one, so the player sees them
    /// all at once: each is tried on the state as if the refused order were
    /// not there, with dice that stop at the first roll (a refusal reveals no
    /// roll), so checking ends at the first order that would roll.
    fn later_errors(&self, state: &GameState, side: Side, orders: &[ParsedOrder]) -> Vec<String> {
        let mut state = state.clone();
        let mut dice = Dice::preview();
        let mut out = Vec::new();
        for o in orders {
            if self.ruleset.prompt(&state).awaits(side).is_none() {
                break;
            }
            let mut trial = state.clone();
            match self.ruleset.apply(&mut trial, side, o, &mut dice) {
                Ok(_) => state = trial,
                Err(RuleError::Dice(_)) => break,
                Err(e) => out.push(format!("line {}: {e}", o.source.line)),
            }
        }
        out
    }

    /// The stated default orders of `side`, carried out as a move would be.
    pub(super) fn evaluate_default(
        &self,
        side: Side,
        orders: &[String],
        reason: &str,
        dice_from: DiceFrom,
    ) -> Result<(GameState, Report), DefaultError> {
        let Some(awaited) = self.prompt.awaits(side) else {
            return Err(DefaultError::NoneDue {
                side: self.sides[side.index()].name.clone(),
            });
        };
        if awaited.default != orders {
            return Err(DefaultError::NotStated {
                applied: orders.to_vec(),
                stated: awaited.default.clone(),
            });
        }
        let mut state = self.state.clone();
        let parsed = self
            .ruleset
            .parse(&state, side, &default_lines(orders))
            .map_err(DefaultError::Unread)?;
        let position = self.next_position;
        let text = orders.join("\n");
        let mut dice = self
            .dice_for(dice_from, position, &sha256(text.as_bytes()))
            .map_err(EngineFault::from)?;
        let audiences = self.audiences(&state, side, &parsed);
        let reports =
            match self.run_orders(&mut state, side, &parsed, &audiences, &mut dice, true, None) {
                Ok(r) => r,
                Err(RunError::Refused(r)) => return Err(DefaultError::Illegal(Box::new(r))),
                Err(RunError::Replay(f)) => return Err(f.into()),
                Err(RunError::PreviewStop(r, _)) => r,
            };
        let end = match self.end_of_move(&mut state, side, &mut dice, true) {
            Ok(events) => events,
            Err(RunError::Refused(r)) => return Err(DefaultError::Illegal(Box::new(r))),
            Err(RunError::Replay(f)) => return Err(f.into()),
            Err(RunError::PreviewStop(..)) => Vec::new(),
        };
        self.check_disclosed(dice.disclosed(), position, dice.count())?;
        Ok((
            state,
            Report {
                side: Some(side),
                by_default: true,
                reason: reason.to_string(),
                orders: reports,
                end,
                disclosed: dice.disclosed().to_vec(),
                rolls: dice.into_rolls(),
                position: Some(position),
                ..Default::default()
            },
        ))
    }
}

/// An event of an order only `audience` may read is told to no one else.
fn narrowed(e: crate::ruleset::Event, audience: &Audience, side: Side) -> crate::ruleset::Event {
    match audience {
        Audience::All => e,
        _ if e.open => e,
        _ if e.audience.is_public() => {
            let mut to = match audience {
                Audience::Sides(v) => v.clone(),
                _ => Vec::new(),
            };
            to.push(side);
            e.to(Audience::sides(to))
        }
        _ => e,
    }
}

/// Default orders as source lines, numbered from 1.
pub(super) fn default_lines(orders: &[String]) -> Vec<SourceLine> {
    orders
        .iter()
        .enumerate()
        .map(|(i, t)| SourceLine {
            line: i + 1,
            column: 1,
            text: t.clone(),
        })
        .collect()
}

/// What the public seed of the deal hashes in place of a move: the opening.
pub(crate) fn deal_seed_hash(opening: &Digest) -> Digest {
    Tagged::new(DEAL_DOMAIN).field(&opening.0).finish()
}

fn report_of_deal(events: Vec<crate::ruleset::Event>, rolls: Vec<Roll>) -> Report {
    Report {
        standing: events,
        rolls,
        position: None,
        ..Default::default()
    }
}

pub(super) fn order_rejection(lines: &[SourceLine], e: OrderError) -> Rejection {
    Rejection {
        line: quoted(lines, &e),
        ..rej(RejectKind::Illegal, e.to_string())
    }
}

/// The order line `e` is about, to quote, marked where `e` points: the
/// error's column is the file's, the quoted text starts after the indent.
/// Where the parser points at the line's start, the caret goes under the
/// word the error names ([`word_at_fault`]), if it names one.
fn quoted(lines: &[SourceLine], e: &OrderError) -> Option<SourceLine> {
    lines.iter().find(|l| l.line == e.line).map(|l| {
        let column = e.column.saturating_sub(l.column) + 1;
        SourceLine {
            column: if column == 1 {
                word_at_fault(&l.text, &e.message).unwrap_or(1)
            } else {
                column
            },
            ..l.clone()
        }
    })
}

/// The refusal of a move with several unreadable lines: every error, one a
/// line, with the first offending line to quote.
pub(super) fn order_rejections(lines: &[SourceLine], errors: Vec<OrderError>) -> Rejection {
    let reason = errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    Rejection {
        line: errors.first().and_then(|e| quoted(lines, e)),
        ..rej(RejectKind::Illegal, reason)
    }
}

pub(super) fn source_line(text: &[u8], line: usize, column: usize) -> Option<SourceLine> {
    let t = String::from_utf8_lossy(text);
    t.split('\n').nth(line.checked_sub(1)?).map(|l| SourceLine {
        line,
        column,
        text: l.trim_end_matches('\r').to_string(),
    })
}

pub(super) fn roll_mismatch(recorded: &[Roll], derived: &[Roll]) -> RollMismatch {
    for (i, (a, b)) in recorded.iter().zip(derived).enumerate() {
        if a != b {
            return RollMismatch::Tampered {
                number: i + 1,
                label: a.label.clone(),
                recorded: a.value,
                sides: a.sides,
                derived: b.value,
            };
        }
    }
    RollMismatch::Count {
        recorded: recorded.len(),
        derived: derived.len(),
    }
}
