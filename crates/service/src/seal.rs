//! Sealing a poll's mails off its adjudicating thread: the umpire's
//! signature over each mail's record segment and the writing of its body
//! (quoted-printable text, base64 attachments) were a third of that thread's
//! time (issue 13). The poll hands each mail's replies to a worker as soon as
//! they are composed and collects the stored outbox items when it commits the
//! group, so the next mails are adjudicated meanwhile.
//!
//! Everything that can refuse a mail (addresses, header values, attachment
//! names) was checked when it was composed (`write::prepare`); sealing cannot
//! fail but for the signature, whose part is then left out, as before.

use super::ServiceError;
use super::compose::Unsealed;
use super::outbox::Item;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};
use umpire_core::sig::SecretKey;

/// One composed mail's outbox key and its stored item, or why it could not
/// be written.
pub(super) type Sealed = (String, Result<Vec<u8>, SealPanicked>);

/// Writing a mail panicked (a bug: what could refuse a mail was checked when
/// it was composed); the panic's message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(super) struct SealPanicked(pub String);

/// The worker sealing a poll's mails, and what it owes.
pub(super) struct Sealer {
    jobs: Sender<(Vec<Unsealed>, jiff::Timestamp)>,
    sealed: Receiver<Vec<Sealed>>,
    /// Jobs handed over whose items are not yet collected.
    owed: usize,
}

impl Sealer {
    /// A sealer on its own thread signing with `key`, or none if no thread
    /// could be had (the poll then seals on its own thread).
    pub(super) fn start(key: Arc<SecretKey>) -> Option<Sealer> {
        let (jobs, todo) = channel::<(Vec<Unsealed>, jiff::Timestamp)>();
        let (done, sealed) = channel();
        std::thread::Builder::new()
            .name("seal".into())
            .spawn(move || {
                // Ends when the poll drops its sealer (and with it `jobs`).
                for (mails, now) in todo {
                    if done.send(seal_all(&key, &mails, now)).is_err() {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Sealer {
            jobs,
            sealed,
            owed: 0,
        })
    }

    /// Hands `mails` to the worker; gives them back if it is gone.
    pub(super) fn send(
        &mut self,
        mails: Vec<Unsealed>,
        now: jiff::Timestamp,
    ) -> Result<(), Vec<Unsealed>> {
        self.jobs
            .send((mails, now))
            .map_err(|std::sync::mpsc::SendError((mails, _))| mails)?;
        self.owed += 1;
        Ok(())
    }

    /// Waits for every mail handed over so far: their outbox keys and stored
    /// items, in the order they were handed over.
    pub(super) fn collect(&mut self) -> Result<Vec<Sealed>, ServiceError> {
        let mut out = Vec::new();
        while self.owed > 0 {
            let items = self.sealed.recv().map_err(|_| {
                ServiceError::Worker("the worker sealing the poll's mails stopped".into())
            })?;
            self.owed -= 1;
            out.extend(items);
        }
        Ok(out)
    }
}

/// Signs and writes `mails` as stored outbox items. A mail whose writing
/// panicked (a bug, not an input: it was checked when composed) is reported
/// instead of taking the others with it.
pub(super) fn seal_all(key: &SecretKey, mails: &[Unsealed], now: jiff::Timestamp) -> Vec<Sealed> {
    mails
        .iter()
        .map(|m| {
            let item = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                Item::stored_unwritten(&m.seal(key), now)
            }))
            .map_err(|p| SealPanicked(super::poll::panic_text(p.as_ref())));
            (m.key().to_string(), item)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::Umpire;
    use super::super::games::NewGame;
    use super::{Sealer, seal_all};
    use std::collections::BTreeMap;
    use umpire_core::sig::SecretKey;

    /// The worker gives back every mail handed to it, in order, byte for byte
    /// what sealing on the poll's own thread writes (signatures included:
    /// ed25519 signs deterministically).
    #[test]
    fn the_worker_seals_as_the_poll_would_in_order() {
        let dir = tempfile::tempdir().unwrap();
        Umpire::init(dir.path(), "umpire@club.test").unwrap();
        let mut u = Umpire::open(dir.path()).unwrap();
        let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
        let player = |n: u8| SecretKey::from_seed(&[n; 32], "p").unwrap().public_line();
        let mut jobs = Vec::new();
        for g in ["g1", "g2", "g3"] {
            u.create_game(
                NewGame {
                    id: g.into(),
                    ruleset: "freeform".into(),
                    scenario: "open".into(),
                    options: BTreeMap::new(),
                    deadlines: None,
                    time_zones: BTreeMap::new(),
                    sides: vec![
                        ("a".into(), "a@club.test".into(), player(1)),
                        ("b".into(), "b@club.test".into(), player(2)),
                    ],
                },
                now,
            )
            .unwrap();
            let meta = u.meta(g).unwrap();
            let game = u.game(g).unwrap().clone();
            jobs.push(
                u.result_mails(&game, &meta, 0, None, None, "", now)
                    .unwrap(),
            );
        }
        let inline: Vec<_> = jobs
            .iter()
            .flat_map(|mails| seal_all(&u.key, mails, now))
            .collect();
        assert_eq!(inline.len(), 6);
        let mut sealer = Sealer::start(u.key.clone()).unwrap();
        for mails in jobs {
            assert!(sealer.send(mails, now).is_ok());
        }
        let sealed = sealer.collect().unwrap();
        assert_eq!(sealed, inline);
        assert!(sealed.iter().all(|(_, item)| item.is_ok()));
        // Each mail holds its record and the umpire's signature over it.
        let (_, first) = &sealed[0];
        let raw = crate::outbox::Item::from_stored(first.as_ref().unwrap())
            .unwrap()
            .outgoing()
            .raw;
        let text = String::from_utf8_lossy(&raw);
        assert!(text.contains("filename=\"record.txt.sig\""), "{text}");
        assert!(sealer.collect().unwrap().is_empty());
    }
}
