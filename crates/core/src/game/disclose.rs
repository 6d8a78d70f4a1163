//! Early disclosure: a ruleset reveals an earlier hidden roll (a chit shown,
//! a card played from a hidden hand) with [`crate::dice::Dice::disclose`];
//! the engine appends a `disclose` entry with the roll's opening right after
//! the entry that revealed it. Every side checks the opening against the
//! commitment sealed when the roll was made (`core::audit`); a replay of the
//! full record derives the same entry from the ruleset and compares.

use super::{EngineFault, Game, StepError};
use crate::dice::RollRef;
use crate::record::{Body, DiscloseEntry, Disclosure, find_roll};
use crate::sealed::Hidden;

impl Game {
    /// Checks, before the action is recorded, that every roll the rules
    /// disclose exists: rolled earlier in the record, or by this action
    /// (position `position`, `rolled` rolls). A bad reference is a ruleset bug,
    /// refused like a spent dice chain, so nothing is recorded.
    pub(super) fn check_disclosed(
        &self,
        refs: &[RollRef],
        position: u64,
        rolled: usize,
    ) -> Result<(), EngineFault> {
        for r in refs {
            let exists = if r.position == position {
                (r.index as usize) < rolled
            } else {
                r.position < position && find_roll(self.record.entries(), *r).is_some()
            };
            if !exists {
                return Err(EngineFault::NeverRolled {
                    index: r.index,
                    position: r.position,
                });
            }
        }
        Ok(())
    }

    /// The `disclose` entry owed for `refs`, from the openings of the full
    /// record (the action that disclosed them already in it); `None` when every
    /// roll was public already. References were checked by `check_disclosed`.
    pub(super) fn disclosure_for(&self, refs: &[RollRef]) -> Option<Body> {
        let items: Vec<Disclosure> = refs
            .iter()
            .filter_map(|r| match find_roll(self.record.entries(), *r)? {
                Hidden::Clear(_) => None,
                Hidden::Sealed(s) => s.open.as_ref().map(|open| Disclosure {
                    position: r.position,
                    index: r.index,
                    salt: open.salt,
                    roll: open.value.clone(),
                }),
            })
            .collect();
        (!items.is_empty()).then_some(Body::Disclose(DiscloseEntry { items }))
    }

    /// Live: appends the `disclose` entry the last action owes, if any.
    pub(super) fn push_disclosure(&mut self) {
        if let Some(body) = self.disclose_due.take() {
            self.push_entry(body);
        }
    }

    /// Replay: the recorded `disclose` entry must be the one the ruleset owed.
    pub(super) fn replay_disclosure(&mut self, body: &Body) -> Result<(), StepError> {
        match self.disclose_due.take() {
            Some(want) if want == *body => {
                self.push_entry(body.clone());
                Ok(())
            }
            Some(_) => Err(StepError::DisclosureDiffers),
            None => Err(StepError::DisclosureUnowed),
        }
    }
}
