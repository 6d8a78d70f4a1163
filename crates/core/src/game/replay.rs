//! Replaying a record from its opening, one handler per entry kind.

use super::entries::rolls_of;
use super::evaluate::{DiceFrom, roll_mismatch};
use super::round::{Held, HeldMove};
use super::{
    EngineFault, Game, ReplayError, ReplayMode, ReplaySummary, Revealed, SealedItem, StepError,
    side_index,
};
use crate::dice::{self, Commitment};
use crate::hash::{Digest, sha256};
use crate::record::{
    Body, DefaultEntry, Entry, MoveEntry, Record, RejectedEntry, RoundEntry, SealedEntry,
};
use crate::ruleset::DynRuleset;
use base64::Engine as _;
use std::collections::BTreeMap;
use std::sync::Arc;

/// One entry's replay: what went wrong (the caller adds the seq).
type Step = Result<(), StepError>;

impl Game {
    /// Replays a record from its opening, checking it as `mode` says. The
    /// record must be complete: a side's copy, with sealed items it may not
    /// open, is audited by [`crate::audit`] instead.
    pub fn replay(
        ruleset: Arc<dyn DynRuleset>,
        record: &Record,
        mode: ReplayMode,
    ) -> Result<(Game, ReplaySummary), ReplayError> {
        Game::replay_from(ruleset, record.clone(), mode, None)
    }

    /// [`Game::replay`] of a record the caller gives up: its entries become
    /// the game's own, moved rather than copied (issue 13).
    pub fn replay_owned(
        ruleset: Arc<dyn DynRuleset>,
        record: Record,
        mode: ReplayMode,
    ) -> Result<(Game, ReplaySummary), ReplayError> {
        Game::replay_from(ruleset, record, mode, None)
    }

    /// A verifier's replay (`umpire verify`): [`Game::replay_owned`] in
    /// [`ReplayMode::Verify`], keeping the report of the last action only,
    /// not of every entry (a verifier sends no result mail and draws no game
    /// page; building and freeing them all was a tenth of its time, issue
    /// 13). [`Game::report`] of an earlier entry is then `None`; entries
    /// added to the game afterwards keep their reports as usual.
    pub fn verify_only(
        ruleset: Arc<dyn DynRuleset>,
        record: Record,
    ) -> Result<(Game, ReplaySummary), ReplayError> {
        Game::replay_lean(ruleset, record, ReplayMode::Verify, None, false)
    }

    /// [`Game::replay`], under `base` itself from entry `force_from` on when given.
    pub(super) fn replay_from(
        ruleset: Arc<dyn DynRuleset>,
        record: Record,
        mode: ReplayMode,
        force_from: Option<u64>,
    ) -> Result<(Game, ReplaySummary), ReplayError> {
        Game::replay_lean(ruleset, record, mode, force_from, true)
    }

    /// [`Game::replay_from`], keeping every action's report or the last one's.
    fn replay_lean(
        ruleset: Arc<dyn DynRuleset>,
        record: Record,
        mode: ReplayMode,
        force_from: Option<u64>,
        keep_reports: bool,
    ) -> Result<(Game, ReplaySummary), ReplayError> {
        let owned = record.into_entries();
        let entries = owned.as_slice();
        // Later entries are looked at as they are replayed (`replay_entry`).
        for e in entries.iter().take(2) {
            if e.body.closed_items() > 0 {
                return Err(ReplayError::at(e.seq, StepError::SideCopy));
            }
        }
        let first = Record::from_entries(entries[..1.min(entries.len())].to_vec())
            .map_err(|e| ReplayError::at(0, e))?;
        let rest = entries.get(1..).unwrap_or_default();
        let mut game = Game::start(ruleset, first, rest, force_from)?;
        game.record.reserve(rest.len());
        game.keep_reports = keep_reports;
        if mode == ReplayMode::Stored {
            game.state_checked_at = Some(head_state_seq(entries));
        }
        let revealed = revealed_secrets(entries)?;
        let mut sum = ReplaySummary {
            entries: 1,
            ..Default::default()
        };
        let setup = entries.get(1).filter(|e| matches!(e.body, Body::Setup(_)));
        let from = match (mode, setup) {
            (ReplayMode::Verify, _) => game.secrets_at(&revealed, 0),
            (_, Some(e)) => match &e.body {
                Body::Setup(s) => DiceFrom::Recorded(rolls_of(&s.rolls)),
                _ => DiceFrom::Preview,
            },
            _ => DiceFrom::Preview,
        };
        game.deal(from, setup.map(|e| (&e.body, e.seq)))?;
        let dealt = game.reports[&0].rolls.len();
        count_rolls(&mut sum, dealt, mode == ReplayMode::Verify);
        let start = if setup.is_some() {
            sum.entries += 1;
            2
        } else {
            1
        };
        let mut expect_reveals: Vec<u64> = Vec::new();
        if mode == ReplayMode::Verify {
            game.prechecked = Some(precheck_stream(entries));
        }
        let len = entries.len() as u64;
        // Each entry is moved into the game's record (its handler pushes the
        // recorded body itself), so it is not copied.
        let mut entries = owned.into_iter();
        entries.nth(start - 1);
        while let Some(e) = entries.next() {
            let link = e.link();
            game.replaying = Some(link);
            let step = game.replay_entry(
                e,
                entries.as_slice(),
                mode,
                &revealed,
                &mut expect_reveals,
                &mut sum,
            );
            game.replaying = None;
            step.map_err(|e| ReplayError::at(link.seq, e))?;
            if game.record.head() != link.hash {
                return Err(ReplayError::at(link.seq, StepError::HashMismatch));
            }
            sum.entries += 1;
        }
        game.prechecked = None;
        game.keep_reports = true;
        game.state_checked_at = None;
        if game.disclose_due.is_some() {
            return Err(ReplayError::at(len, StepError::DisclosureCut));
        }
        Ok((game, sum))
    }

    fn replay_entry(
        &mut self,
        e: Entry,
        rest: &[Entry],
        mode: ReplayMode,
        revealed: &Revealed,
        expect_reveals: &mut Vec<u64>,
        sum: &mut ReplaySummary,
    ) -> Step {
        // One walk over the hidden items: a side's copy is named before
        // anything else, a bad opening after the entry's place is checked.
        let tally = e.body.tally_items(mode == ReplayMode::Verify);
        if matches!(tally, Ok(t) if t.closed > 0) {
            return Err(StepError::SideCopy);
        }
        if e.prev != self.record.head() || e.seq != self.record.len() as u64 {
            return Err(StepError::Unlinked);
        }
        if self.disclose_due.is_some() && !matches!(e.body, Body::Disclose(_)) {
            return Err(StepError::DisclosureMissing);
        }
        if !matches!(e.body, Body::Reveal(_) | Body::Disclose(_)) && !expect_reveals.is_empty() {
            return Err(StepError::RevealsDue(expect_reveals.clone()));
        }
        sum.openings_checked += tally?.opened as u64;
        // The frequent kinds take their body by value and push it on; the
        // rare ones (upgrades, disclosures, acts, admin) push a copy.
        let seq = e.seq;
        match e.body {
            Body::Opening(_) => Err(StepError::SecondOpening),
            Body::Setup(_) => Err(StepError::LateSetup),
            Body::Move(m) => {
                *expect_reveals = self.replay_move(m, mode, revealed, sum)?;
                Ok(())
            }
            Body::Default(d) => {
                *expect_reveals = self.replay_default(d, mode, revealed, sum)?;
                Ok(())
            }
            Body::Rejected(r) => self.replay_rejected(r, mode, sum),
            Body::Sealed(s) => self.replay_sealed(seq, s, mode, sum),
            Body::Round(r) => {
                *expect_reveals = self.replay_round(r, mode, revealed, sum)?;
                Ok(())
            }
            Body::Recommit(r) => {
                self.accept_recommit(&r)?;
                self.push_entry(Body::Recommit(r));
                Ok(())
            }
            ref body @ Body::Upgrade(ref u) => Ok(self.replay_upgrade(seq, body, u, rest)?),
            ref body @ Body::Disclose(_) => self.replay_disclosure(body),
            ref body @ Body::Act(ref a) => {
                *expect_reveals = self.replay_act(a, body, mode, sum)?;
                Ok(())
            }
            ref body @ Body::Press(ref p) => self.replay_press(p, body),
            ref body @ Body::Admin(ref a) => {
                *expect_reveals = self.replay_admin(a, body)?;
                Ok(())
            }
            Body::Reveal(r) => {
                let Some(pos) = expect_reveals.first().copied() else {
                    return Err(StepError::RevealNotDue(r.position));
                };
                if r.position != pos {
                    return Err(StepError::RevealOrder {
                        position: r.position,
                        due: pos,
                    });
                }
                self.accept_reveal(&r)?;
                expect_reveals.remove(0);
                sum.reveals += 1;
                self.push_entry(Body::Reveal(r));
                Ok(())
            }
        }
    }

    /// The dice of position `p` as a verifier has them: from revealed secrets
    /// where the record reveals them, else the recorded rolls.
    fn secrets_at(&self, revealed: &Revealed, p: u64) -> DiceFrom<'static> {
        let public = if p == 0 {
            Some(self.last_revealed.1)
        } else {
            revealed.0.get(&p).copied()
        };
        match public {
            Some(public) => DiceFrom::Secret {
                public,
                hidden: (0..self.slots())
                    .map(|slot| revealed.1.get(&(p, slot)).copied())
                    .collect(),
            },
            None => DiceFrom::Preview,
        }
    }

    fn slots(&self) -> usize {
        if self.hides { self.sides.len() + 1 } else { 0 }
    }

    /// The dice for a recorded move: derived in `Verify` where the secret is
    /// revealed, else the recorded rolls. Returns whether they are derived.
    fn move_dice(
        &self,
        mode: ReplayMode,
        revealed: &Revealed,
        position: Option<u64>,
        recorded: &[crate::sealed::Hidden<dice::Roll>],
    ) -> (DiceFrom<'static>, bool) {
        if mode == ReplayMode::Verify
            && let Some(p) = position
            && let from @ DiceFrom::Secret { .. } = self.secrets_at(revealed, p)
        {
            return (from, true);
        }
        (DiceFrom::Recorded(rolls_of(recorded)), false)
    }

    fn replay_move(
        &mut self,
        m: MoveEntry,
        mode: ReplayMode,
        revealed: &Revealed,
        sum: &mut ReplaySummary,
    ) -> Result<Vec<u64>, StepError> {
        let text = m.text.value().ok_or(SealedItem::MoveText)?;
        let signature = m.signature.value().ok_or(SealedItem::MoveSignature)?;
        let (dice, verified) = self.move_dice(mode, revealed, m.position, &m.rolls);
        if mode == ReplayMode::Verify {
            sum.signatures_checked += 1;
        }
        let ev = self
            .evaluate(
                text.as_bytes(),
                Some(signature),
                dice,
                mode == ReplayMode::Verify,
            )
            .map_err(|r| StepError::MoveRefused(Box::new(r)))??;
        let signer = &self.sides[ev.side.index()].name;
        if *signer != m.side {
            return Err(StepError::SignedAs {
                recorded: m.side.clone(),
                signer: signer.clone(),
            });
        }
        if ev.report.position != m.position {
            return Err(StepError::Position {
                recorded: m.position,
                replay: ev.report.position,
            });
        }
        let recorded = rolls_of(&m.rolls);
        if ev.report.rolls != recorded {
            return Err(mismatch(&recorded, &ev.report.rolls));
        }
        // The public lines every copy shows (and its public rolls' seed)
        // are the opened text's.
        if ev.public_lines != m.lines {
            return Err(StepError::PublicLines);
        }
        self.state_matches(&ev.state, &m.state, m.salt.as_ref())
            .map_err(EngineFault::from)?;
        count_rolls(sum, ev.report.rolls.len(), verified);
        sum.moves += 1;
        let text_hash = sha256(text.as_bytes());
        Ok(self.commit_action(Body::Move(m), ev.state, ev.report, ev.side, Some(text_hash)))
    }

    fn replay_default(
        &mut self,
        d: DefaultEntry,
        mode: ReplayMode,
        revealed: &Revealed,
        sum: &mut ReplaySummary,
    ) -> Result<Vec<u64>, StepError> {
        let side =
            side_index(&self.sides, &d.side).ok_or_else(|| StepError::NoSide(d.side.clone()))?;
        let (dice, verified) = self.move_dice(mode, revealed, d.position, &d.rolls);
        let (state, report) = self.evaluate_default(side, &d.orders, &d.reason, dice)?;
        let recorded = rolls_of(&d.rolls);
        if report.rolls != recorded {
            return Err(mismatch(&recorded, &report.rolls));
        }
        self.state_matches(&state, &d.state, d.salt.as_ref())
            .map_err(StepError::DefaultState)?;
        count_rolls(sum, report.rolls.len(), verified);
        sum.defaults += 1;
        Ok(self.commit_action(Body::Default(d), state, report, side, None))
    }

    fn replay_rejected(
        &mut self,
        r: RejectedEntry,
        mode: ReplayMode,
        sum: &mut ReplaySummary,
    ) -> Step {
        // A digested refusal (too big, or signed by no side) keeps too little
        // to re-check; it changes nothing in the game either way.
        if mode == ReplayMode::Verify && r.digest.is_none() {
            let bytes = match (&r.text, &r.base64) {
                (Some(t), _) => t
                    .value()
                    .ok_or(SealedItem::RefusedText)?
                    .clone()
                    .into_bytes(),
                (None, Some(b)) => base64::engine::general_purpose::STANDARD
                    .decode(b.value().ok_or(SealedItem::RefusedBytes)?)
                    .map_err(|_| StepError::Base64)?,
                (None, None) => Vec::new(),
            };
            let sig = r
                .signature
                .as_ref()
                .and_then(|s| s.value())
                .map(String::as_str);
            match self.evaluate(&bytes, sig, DiceFrom::Preview, true) {
                Err(_) => {}
                Ok(Err(f)) => return Err(f.into()),
                // An act the engine refused, which the ruleset alone would read.
                Ok(Ok(_)) if self.act_refused(&bytes, sig) => {}
                Ok(Ok(_)) => {
                    return Err(StepError::ValidOnReplay {
                        reason: r
                            .reason
                            .value()
                            .map_or("sealed", String::as_str)
                            .to_string(),
                    });
                }
            }
        }
        sum.rejected += 1;
        self.remember_refusal(self.record.len() as u64, &r);
        self.push_entry(Body::Rejected(r));
        Ok(())
    }

    fn replay_sealed(
        &mut self,
        seq: u64,
        s: SealedEntry,
        mode: ReplayMode,
        sum: &mut ReplaySummary,
    ) -> Step {
        let side =
            side_index(&self.sides, &s.side).ok_or_else(|| StepError::NoSide(s.side.clone()))?;
        let what = match (&s.text, &s.signature, &s.default) {
            (Some(t), Some(sig), None) => {
                let text = t.value().ok_or(SealedItem::SealedText)?;
                let sig = sig.value().ok_or(SealedItem::SealedSignature)?;
                if mode == ReplayMode::Verify {
                    sum.signatures_checked += 1;
                    let ev = self
                        .evaluate(text.as_bytes(), Some(sig), DiceFrom::Preview, true)
                        .map_err(|r| StepError::SealedRefused(Box::new(r)))??;
                    if ev.side != side {
                        return Err(StepError::SealedSigner(s.side.clone()));
                    }
                }
                self.accepted_texts
                    .insert(sha256(text.as_bytes()), (seq, side));
                HeldMove::Signed {
                    text: text.clone().into_bytes(),
                }
            }
            (None, None, Some(d)) => {
                let orders = d.value().ok_or(SealedItem::SealedDefault)?;
                let stated = self.prompt.awaits(side).map(|a| a.default.clone());
                if stated.as_ref() != Some(orders) {
                    return Err(StepError::HeldDefault(s.side.clone()));
                }
                HeldMove::Default {
                    orders: orders.clone(),
                }
            }
            _ => return Err(StepError::SealedShape),
        };
        sum.sealed += 1;
        let seq = self.push_entry(Body::Sealed(s));
        self.hold(Held { seq, side, what });
        Ok(())
    }

    fn replay_round(
        &mut self,
        r: RoundEntry,
        mode: ReplayMode,
        revealed: &Revealed,
        sum: &mut ReplaySummary,
    ) -> Result<Vec<u64>, StepError> {
        let order: Vec<u64> = self.round_order().iter().map(|h| h.seq).collect();
        if order != r.moves {
            return Err(StepError::RoundMoves {
                recorded: r.moves.clone(),
                held: order,
            });
        }
        if r.position != self.next_position {
            return Err(StepError::RoundPosition {
                recorded: r.position,
                next: self.next_position,
            });
        }
        let (dice, verified) = self.move_dice(mode, revealed, Some(r.position), &r.rolls);
        let res = self.resolve_round(dice)?;
        let recorded = rolls_of(&r.rolls);
        if res.report.rolls != recorded {
            return Err(mismatch(&recorded, &res.report.rolls));
        }
        if res.lines != r.lines {
            return Err(StepError::RoundLines);
        }
        self.state_matches(&res.state, &r.state, r.salt.as_ref())
            .map_err(EngineFault::from)?;
        count_rolls(sum, recorded.len(), verified);
        sum.rounds += 1;
        let side = self.round_order()[0].side;
        self.held.clear();
        Ok(self.commit_action(Body::Round(r), res.state, res.report, side, None))
    }
}

/// The seq of the last entry that records a state hash (a set-up, a move,
/// a default or a sealed round's resolution): the head state, the one
/// [`ReplayMode::Stored`] checks. 0 (the opening, which records none) when
/// there is none.
fn head_state_seq(entries: &[Entry]) -> u64 {
    entries
        .iter()
        .rev()
        .find(|e| {
            matches!(
                e.body,
                Body::Setup(_) | Body::Move(_) | Body::Default(_) | Body::Round(_)
            )
        })
        .map_or(0, |e| e.seq)
}

/// A roll mismatch as a replay step's error.
fn mismatch(recorded: &[dice::Roll], derived: &[dice::Roll]) -> StepError {
    EngineFault::from(roll_mismatch(recorded, derived)).into()
}

fn count_rolls(sum: &mut ReplaySummary, n: usize, verified: bool) {
    if verified {
        sum.rolls_verified += n as u64;
    } else {
        sum.rolls_unverified += n as u64;
    }
}

/// Every dice secret the record reveals, each checked to hash back to its
/// chain's commitment: the public chain's by position, the hidden streams' by
/// (position, slot).
pub(crate) fn revealed_secrets(entries: &[Entry]) -> Result<Revealed, ReplayError> {
    let mut public = BTreeMap::new();
    let mut hidden = BTreeMap::new();
    let Some(Body::Opening(o)) = entries.first().map(|e| &e.body) else {
        return Ok((public, hidden));
    };
    let mut known = (0u64, o.dice.k0);
    let mut slots: Vec<(u64, Digest)> = o.hidden.iter().map(|c: &Commitment| (0, c.k0)).collect();
    for e in entries {
        let fail = |error: StepError| ReplayError::at(e.seq, error);
        let slot_secrets = match &e.body {
            Body::Recommit(r) => {
                known = (r.from_position.saturating_sub(1), r.dice.k0);
                if !r.hidden.is_empty() {
                    let base = r.from_position.saturating_sub(1);
                    slots = r.hidden.iter().map(|c| (base, c.k0)).collect();
                }
                continue;
            }
            Body::Reveal(r) => {
                if !dice::reveal_matches(known.0, &known.1, r.position, &r.secret) {
                    return Err(fail(StepError::ChainTampered(r.position)));
                }
                known = (r.position, r.secret);
                public.insert(r.position, r.secret);
                (r.position, &r.slots)
            }
            Body::Setup(s) => (0, &s.slots),
            _ => continue,
        };
        let (p, list) = slot_secrets;
        for s in list.iter().filter_map(|s| s.value()) {
            let Some((q, kq)) = slots.get(s.slot).copied() else {
                return Err(fail(StepError::NoStream(s.slot)));
            };
            // Hidden chains serve position p at index p + 1.
            if !dice::reveal_matches(q, &kq, p + 1, &s.secret) {
                return Err(fail(StepError::StreamTampered {
                    slot: s.slot,
                    position: p,
                }));
            }
            slots[s.slot] = (p + 1, s.secret);
            hidden.insert((p, s.slot), s.secret);
        }
    }
    Ok((public, hidden))
}

/// [`precheck_moves`] on a worker thread while the replay runs
/// ([`crate::sig::Prechecked::stream`]), the sealed moves' open signatures
/// with them (each checked by `replay_sealed` as a move's is).
fn precheck_stream(entries: &[Entry]) -> Arc<crate::sig::Prechecked> {
    let items = entries
        .iter()
        .filter_map(|e| {
            let (text, signature) = match &e.body {
                Body::Move(m) => (m.text.value()?, m.signature.value()?),
                Body::Sealed(s) => (s.text.as_ref()?.value()?, s.signature.as_ref()?.value()?),
                _ => return None,
            };
            Some(crate::sig::Placed {
                seq: e.seq,
                namespace: crate::sig::MOVE_NAMESPACE,
                msg: text.as_bytes().to_vec(),
                armored: signature.clone(),
            })
        })
        .collect();
    crate::sig::Prechecked::stream(items)
}

/// Every open move signature of the record, checked in one batch (see
/// [`crate::sig::precheck`]); the replay still checks each move's
/// signer, and checks singly whatever the batch left out.
pub fn precheck_moves(entries: &[Entry]) -> crate::sig::Prechecked {
    use crate::sig::{MOVE_NAMESPACE, precheck};
    let items: Vec<_> = entries
        .iter()
        .filter_map(|e| match &e.body {
            Body::Move(m) => Some((
                MOVE_NAMESPACE,
                m.text.value()?.as_bytes(),
                m.signature.value()?.as_str(),
            )),
            _ => None,
        })
        .collect();
    precheck(&items)
}
