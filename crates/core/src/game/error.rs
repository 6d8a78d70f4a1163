//! The engine's errors, one type for each thing that can fail: an action the
//! engine cannot carry out or a recorded one that does not fit
//! ([`EngineFault`]), a default ([`DefaultError`]), an admin act
//! ([`AdminError`]), a new dice chain ([`RecommitError`]), an upgrade
//! ([`UpgradeError`]), a record's opening ([`OpeningError`]), and one entry's
//! replay ([`StepError`], which [`super::ReplayError`] places at its entry).
//!
//! Their texts are part of the record's meaning: a verifier re-derives them
//! and compares, and players read them. A variant's text never changes.

use super::Rejection;
use crate::act::Ending;
use crate::dice::DiceError;
use crate::hash::Digest;
use crate::movefile::MoveFileError;
use crate::record::{RecordError, RulesetVersion};
use crate::ruleset::{OrderError, RuleError, SetupError, StateError};
use crate::sealed::BadOpening;
use crate::sig::SigError;

/// Why a replayed roll differs from the recorded one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RollMismatch {
    /// Roll `number` (from 1) derives to another value than the record's.
    #[error(
        "roll {number} ({label}) is recorded as {recorded} on a d{sides}, but the revealed secret gives {derived}: the roll was tampered with"
    )]
    Tampered {
        number: usize,
        label: String,
        recorded: u32,
        sides: u32,
        derived: u32,
    },
    /// The record and the replay roll a different number of times.
    #[error("the record holds {recorded} rolls, the replay makes {derived}")]
    Count { recorded: usize, derived: usize },
}

/// Why a state does not match the hash the record holds for it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StateMismatch {
    /// The state does not hash at all (a ruleset bug).
    #[error(transparent)]
    Unhashable(#[from] StateError),
    /// The salt of a sealed state hash is not opened in this copy.
    #[error("the state's salt is sealed in this copy")]
    SaltSealed,
    /// The replayed state hashes to another digest.
    #[error(
        "the state after this entry hashes to {}, the record says {}",
        derived.short(16),
        recorded.short(16)
    )]
    Differs { derived: Digest, recorded: Digest },
}

/// Why the engine cannot carry an action out (live: a spent dice chain, a
/// ruleset's bad disclosure, a state that does not hash), or why a recorded
/// one does not fit what the rules derive (replay). Nothing is recorded for
/// it: live, the submission waits for a new dice chain or a fixed umpire.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineFault {
    /// The dice chain is spent, or the recorded rolls do not fit the rules' asks.
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// The record holds rolls the action did not use (`action`: move, round).
    #[error("the record holds {extra} more rolls than the {action} used")]
    ExtraRolls { extra: usize, action: &'static str },
    /// The rules disclosed a roll that was never made (a ruleset bug).
    #[error("the rules disclosed roll {index} of dice position {position}, which was never rolled")]
    NeverRolled { index: u32, position: u64 },
    /// The recorded rolls are not the derived ones.
    #[error(transparent)]
    Rolls(#[from] RollMismatch),
    /// The state does not hash, or not to the recorded hash.
    #[error(transparent)]
    State(#[from] StateMismatch),
    /// A held sealed move no longer reads as a move file.
    #[error(transparent)]
    HeldUnreadable(#[from] MoveFileError),
    /// The ruleset asks for sealed orders in a game it set up as hiding nothing.
    #[error("the ruleset asks for sealed orders in a game it said hides nothing")]
    SealedWithoutHiding,
}

/// Why a stated default cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DefaultError {
    /// The side is not asked for anything now.
    #[error("{side} is not awaited")]
    NotAwaited { side: String },
    /// On replay: the side was not asked for anything, so no default was due.
    #[error("{side} is not awaited, so no default applies")]
    NoneDue { side: String },
    /// The ruleset states no default for what the side is asked.
    #[error("the game states no default for this decision")]
    NoneStated,
    /// The orders applied are not the stated default.
    #[error("the default applied ({applied:?}) is not the ruleset's stated default ({stated:?})")]
    NotStated {
        applied: Vec<String>,
        stated: Vec<String>,
    },
    /// The stated default does not read (a ruleset bug).
    #[error("the default orders do not parse: {0}")]
    Unread(OrderError),
    /// The stated default is refused by the rules (a ruleset bug).
    #[error("the default orders are illegal: {}", .0.reason)]
    Illegal(Box<Rejection>),
    /// The side's sealed orders for the open round are in already.
    #[error("{side}'s sealed orders are already in")]
    AlreadyIn { side: String },
    /// The engine cannot carry the default out, or it does not fit the record.
    #[error(transparent)]
    Fault(#[from] EngineFault),
}

/// Why an admin act cannot be carried out now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdminError {
    /// The act names a side the game does not have.
    #[error("the game has no side {name:?}; its sides are {}", sides.join(", "))]
    NoSuchSide { name: String, sides: Vec<String> },
    /// The game has ended already (its summary).
    #[error("the game is over already: {0}")]
    Over(String),
    /// The new key does not read.
    #[error("the new key: {0}")]
    BadKey(SigError),
    /// The new address is not a mail address.
    #[error("{0:?} is not a mail address")]
    NotAnAddress(String),
    /// Only settings are asked for by a side's signed request.
    #[error("only settings are asked for by a request")]
    NotSettings,
    /// A key or address act for a side whose seat is open.
    #[error("the seat of {0} is open: a player takes it with a signed join (`umpire admin seat`)")]
    OpenSeat(String),
    /// The side asked for has a player already.
    #[error("the seat of {0} is taken already")]
    SeatTaken(String),
    /// The key of a join signs another side's moves already.
    #[error("that key plays {0} in this game already")]
    KeySeated(String),
    /// The join does not stand (its text, game, side, key or signature).
    #[error("the join does not stand: {0}")]
    BadJoin(String),
}

/// Why a new dice chain cannot be published, or a recorded one does not fit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecommitError {
    /// The chain names a dice scheme this umpire does not know.
    #[error("unknown dice scheme {0:?}")]
    UnknownScheme(String),
    /// The new umpire key does not read.
    #[error("the new umpire key is not usable: {0}")]
    BadUmpireKey(SigError),
    /// Positions of the old chain still wait for their reveal.
    #[error("a new dice chain while positions {0:?} are not yet revealed")]
    Unrevealed(Vec<u64>),
    /// The new chain does not start at the next position.
    #[error("the new dice chain starts at position {from}, but the next position is {next}")]
    StartsAt { from: u64, next: u64 },
    /// The new chain commits another number of hidden streams than the game has.
    #[error("the new dice chain commits {commits} hidden streams, this game needs {needs}")]
    HiddenStreams { commits: usize, needs: usize },
    /// The secrets given serve from another position than the next.
    #[error("the new chain serves from position {serves}, the game is at {at}")]
    ServesFrom { serves: u64, at: u64 },
    /// A sealed round waits for the old chain.
    #[error("a sealed round is open: its orders wait for the old dice chain")]
    RoundOpen,
}

/// Why a game cannot move on to another version of its ruleset, or a
/// recorded upgrade does not fit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UpgradeError {
    /// This umpire cannot replay the version the record names (`data`: the
    /// game data differ, not only the version).
    #[error(
        "the record was made with {ruleset} {want}; this umpire has {own} and cannot replay {want}: {}",
        if *data { "use the data files the game was created with, or `umpire upgrade` to see whether it can move on" }
        else { "replay it with an umpire that has that version, or `umpire upgrade` to see whether it can move on" }
    )]
    CannotReplay {
        ruleset: String,
        want: RulesetVersion,
        own: RulesetVersion,
        data: bool,
    },
    /// The game runs the umpire's version already.
    #[error("the game already runs {0}")]
    Current(RulesetVersion),
    /// A sealed round is open.
    #[error("a sealed round is open: move the game on after it resolves")]
    RoundOpen,
    /// A recorded upgrade starts from another version than the game runs.
    #[error("moves the game on from {from}, but it runs {runs}")]
    WrongFrom {
        from: RulesetVersion,
        runs: RulesetVersion,
    },
    /// A recorded upgrade moves on to the version the game runs.
    #[error("moves the game on to {0}, which it runs already")]
    NoChange(RulesetVersion),
    /// A recorded upgrade says it diverged at an entry not before it.
    #[error("says the replay differed at entry {0}, which is not before it")]
    DivergedLater(u64),
}

/// Why a record's opening does not start a game under this ruleset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// The record's first entry is not an opening.
    #[error("the record does not start with an opening")]
    Missing,
    /// The record is of a format newer than this umpire reads.
    #[error(
        "the record is of format {format}, newer than this umpire reads (up to {max}): verify it with a newer umpire"
    )]
    Format { format: u32, max: u32 },
    /// The record is a game of another ruleset.
    #[error("the record is a {record} game, not {ours}")]
    OtherRuleset { record: String, ours: String },
    /// A dice chain names a scheme this umpire does not know.
    #[error("unknown dice scheme {0:?}")]
    UnknownScheme(String),
    /// A side's key does not read.
    #[error("side {side}: {source}")]
    BadKey { side: String, source: SigError },
    /// A side is declared twice.
    #[error("side {0} is declared twice")]
    SideTwice(String),
    /// The opening commits another number of hidden streams than the game needs.
    #[error("the opening commits {commits} hidden dice streams, but this game needs {needs}")]
    HiddenStreams { commits: usize, needs: usize },
    /// This umpire cannot replay the version the record names.
    #[error(transparent)]
    Version(#[from] UpgradeError),
    /// The ruleset refuses the set-up.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

/// A sealed item a full replay needs opened, but the record holds sealed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SealedItem {
    #[error("the move's text is sealed")]
    MoveText,
    #[error("the move's signature is sealed")]
    MoveSignature,
    #[error("the refused text is sealed")]
    RefusedText,
    #[error("the refused bytes are sealed")]
    RefusedBytes,
    #[error("the sealed move's text is not opened")]
    SealedText,
    #[error("the sealed move's signature is not opened")]
    SealedSignature,
    #[error("the sealed default is not opened")]
    SealedDefault,
}

/// Why one entry of a record does not replay: what the verifier reports
/// (placed at its entry by [`super::ReplayError`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// A side's copy: sealed items without their openings.
    #[error(
        "this is a side's copy of the record: it holds sealed items without their openings, so it cannot be replayed in full (`umpire verify` audits it as a copy)"
    )]
    SideCopy,
    /// The record does not read as a chain of entries.
    #[error("{0}")]
    Record(#[from] RecordError),
    /// The opening does not start a game under this ruleset.
    #[error(transparent)]
    Opening(#[from] OpeningError),
    /// The entry's link is not to the entry before it.
    #[error("does not follow the entry before it")]
    Unlinked,
    /// The entry's hash is not its content's.
    #[error("the entry's hash does not match its content")]
    HashMismatch,
    /// A sealed item's opening does not match its commitment.
    #[error(transparent)]
    Opened(#[from] BadOpening),
    /// A sealed item a full replay needs is not opened.
    #[error(transparent)]
    Sealed(#[from] SealedItem),
    /// An opening after play began.
    #[error("a second opening")]
    SecondOpening,
    /// A setup entry after play began.
    #[error("a setup entry after play began")]
    LateSetup,
    /// The set-up's deal is refused by the rules.
    #[error("the set-up's deal failed: {0}")]
    Deal(RuleError),
    /// The set-up rolled, but the record has no setup entry.
    #[error("the set-up rolled, but the record has no setup entry")]
    SetupMissing,
    /// Entry 1 is not the set-up's deal.
    #[error("entry 1 should record the set-up's deal")]
    NotSetup,
    /// The engine's derivation does not fit the record (rolls, state, dice).
    #[error(transparent)]
    Fault(#[from] EngineFault),
    /// The entry names a side the game does not have.
    #[error("no side {0}")]
    NoSide(String),
    /// A recorded move is refused on replay.
    #[error("the umpire accepted a move that is refused on replay: {}", .0.reason)]
    MoveRefused(Box<Rejection>),
    /// A move recorded as one side's is signed by another.
    #[error("recorded as {recorded}'s move, but signed as {signer}'s")]
    SignedAs { recorded: String, signer: String },
    /// A move's dice position differs from the replay's.
    #[error("recorded at dice position {recorded:?}, replay gives {replay:?}")]
    Position {
        recorded: Option<u64>,
        replay: Option<u64>,
    },
    /// A press entry does not hold what its signed file says.
    #[error("press: {0}")]
    Press(String),
    /// A sealed move's public lines are not its opened text's.
    #[error("the move's public order lines differ from its signed text")]
    PublicLines,
    /// The state after a default differs from the record's.
    #[error("the state after this default differs from the record: {0}")]
    DefaultState(StateMismatch),
    /// A recorded default does not apply.
    #[error(transparent)]
    Default(#[from] DefaultError),
    /// A refused submission kept in base64 does not decode.
    #[error("rejected submission's base64 is broken")]
    Base64,
    /// A refused submission is a valid move on replay (`reason`: the
    /// recorded refusal's, "sealed" if sealed).
    #[error("recorded as rejected ({reason}), but it is a valid move on replay")]
    ValidOnReplay { reason: String },
    /// Recorded sealed orders are refused on replay.
    #[error("sealed orders that are refused on replay: {}", .0.reason)]
    SealedRefused(Box<Rejection>),
    /// Sealed orders recorded as one side's are signed by another.
    #[error("recorded as {0}'s, but signed by another side")]
    SealedSigner(String),
    /// A held default is not the ruleset's stated one.
    #[error("the default held for {0} is not the ruleset's stated default")]
    HeldDefault(String),
    /// A sealed entry holds neither a signed move nor a default alone.
    #[error("a sealed entry holds either a signed move or a default")]
    SealedShape,
    /// A round resolves other sealed entries than those held.
    #[error("the round resolves entries {recorded:?}, but the sealed entries held are {held:?}")]
    RoundMoves { recorded: Vec<u64>, held: Vec<u64> },
    /// A round rolled at another position than the next.
    #[error("the round rolled at dice position {recorded}, the next position is {next}")]
    RoundPosition { recorded: u64, next: u64 },
    /// A round's public lines are not its sealed orders'.
    #[error("the round's public order lines differ from its sealed orders")]
    RoundLines,
    /// A recorded new dice chain does not fit.
    #[error(transparent)]
    Recommit(#[from] RecommitError),
    /// A recorded upgrade does not fit.
    #[error(transparent)]
    Upgrade(#[from] UpgradeError),
    /// A recorded admin act cannot be carried out.
    #[error(transparent)]
    Admin(#[from] AdminError),
    /// The entry before disclosed rolls; no disclose entry follows it.
    #[error("the entry before disclosed rolls, but no disclose entry follows it")]
    DisclosureMissing,
    /// A disclose entry's rolls are not those the rules reveal.
    #[error("the disclosed rolls differ from those the rules reveal in the entry before")]
    DisclosureDiffers,
    /// A disclose entry where the entry before revealed nothing.
    #[error("discloses rolls that the entry before did not reveal")]
    DisclosureUnowed,
    /// The record ends before the disclose entry its last entry owes.
    #[error("the record ends before the disclose entry its last entry owes")]
    DisclosureCut,
    /// Dice positions whose reveal was due before this entry.
    #[error("the secrets of dice positions {0:?} were due to be revealed here")]
    RevealsDue(Vec<u64>),
    /// A reveal of a position that is not due.
    #[error(
        "reveals the secret of dice position {0} while it could still be used, or was never used"
    )]
    RevealNotDue(u64),
    /// A reveal of another position than the one due.
    #[error("reveals dice position {position}, but position {due} was due")]
    RevealOrder { position: u64, due: u64 },
    /// A revealed secret does not hash back to the chain's commitment.
    #[error(
        "the secret revealed for dice position {0} does not hash back to the commitment: the dice were tampered with"
    )]
    RevealTampered(u64),
    /// As [`StepError::RevealTampered`], found while gathering the record's secrets.
    #[error(
        "the secret revealed for dice position {0} does not hash back to the commitment: the dice chain was tampered with"
    )]
    ChainTampered(u64),
    /// A secret for a hidden stream the game does not have.
    #[error("a secret for hidden stream {0}, which the game does not have")]
    NoStream(usize),
    /// A hidden stream's secret does not hash back to its commitment.
    #[error(
        "the secret of hidden stream {slot} at dice position {position} does not hash back to its commitment: the hidden dice were tampered with"
    )]
    StreamTampered { slot: usize, position: u64 },
    /// An act's move is not one the engine carries out.
    #[error("the act's move is not one the engine carries out itself")]
    NotAnAct,
    /// An act recorded as one act, whose move says another.
    #[error("recorded as `{recorded}`, but the move says `{says}`")]
    ActDiffers {
        recorded: &'static str,
        says: &'static str,
    },
    /// An act's file is refused before it is judged (its signature, its side).
    #[error("{}", .0.reason)]
    ActUnread(Box<Rejection>),
    /// An act recorded as one side's is another's.
    #[error("recorded as {0}'s act, but it is another's")]
    ActSide(String),
    /// An unbound act after acts were bound to what they answer.
    #[error("an act that names nothing it answers, after acts were bound to what they answer")]
    Unbound,
    /// A recorded act is refused on replay.
    #[error("the umpire accepted an act that is refused on replay: {}", .0.reason)]
    ActRefused(Box<Rejection>),
    /// An act answers another entry on replay.
    #[error(
        "the act is recorded as answering entry {recorded:?}, but it answers entry {replay:?} on replay"
    )]
    Answers {
        recorded: Option<u64>,
        replay: Option<u64>,
    },
    /// An act ends the game otherwise on replay.
    #[error("the act's recorded ending ({recorded:?}) is not what it does on replay ({replay:?})")]
    Ending {
        recorded: Option<Ending>,
        replay: Option<Ending>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts are the ones the engine wrote before its errors were typed:
    /// recorded refusals and verifier reports compare them byte for byte.
    #[test]
    fn each_error_keeps_its_text() {
        let v = |version| RulesetVersion {
            version,
            data: None,
        };
        let cases: Vec<(String, &str)> = vec![
            (
                RollMismatch::Tampered {
                    number: 2,
                    label: "attack".into(),
                    recorded: 3,
                    sides: 6,
                    derived: 5,
                }
                .to_string(),
                "roll 2 (attack) is recorded as 3 on a d6, but the revealed secret gives 5: the roll was tampered with",
            ),
            (
                EngineFault::ExtraRolls {
                    extra: 2,
                    action: "round",
                }
                .to_string(),
                "the record holds 2 more rolls than the round used",
            ),
            (
                DefaultError::NotStated {
                    applied: vec!["pass".into()],
                    stated: vec!["end turn".into()],
                }
                .to_string(),
                "the default applied ([\"pass\"]) is not the ruleset's stated default ([\"end turn\"])",
            ),
            (
                UpgradeError::CannotReplay {
                    ruleset: "sarhu".into(),
                    want: v(1),
                    own: v(2),
                    data: false,
                }
                .to_string(),
                "the record was made with sarhu version 1; this umpire has version 2 and cannot replay version 1: replay it with an umpire that has that version, or `umpire upgrade` to see whether it can move on",
            ),
            (
                RecommitError::Unrevealed(vec![3, 4]).to_string(),
                "a new dice chain while positions [3, 4] are not yet revealed",
            ),
            (
                OpeningError::Format { format: 9, max: 3 }.to_string(),
                "the record is of format 9, newer than this umpire reads (up to 3): verify it with a newer umpire",
            ),
            (
                StepError::SideCopy.to_string(),
                "this is a side's copy of the record: it holds sealed items without their openings, so it cannot be replayed in full (`umpire verify` audits it as a copy)",
            ),
            (
                StepError::from(SealedItem::RefusedBytes).to_string(),
                "the refused bytes are sealed",
            ),
            (
                StepError::Position {
                    recorded: Some(4),
                    replay: None,
                }
                .to_string(),
                "recorded at dice position Some(4), replay gives None",
            ),
            (
                AdminError::NoSuchSide {
                    name: "z".into(),
                    sides: vec!["a".into(), "b".into()],
                }
                .to_string(),
                "the game has no side \"z\"; its sides are a, b",
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
    }
}
