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
use crate::core::sig::SecretKey;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

/// One composed mail's outbox key and its stored item, or why it could not
/// be written.
type Sealed = (String, Result<Vec<u8>, String>);

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
                Item::new(&m.seal(key), now).to_stored()
            }))
            .map_err(|p| super::poll::panic_text(p.as_ref()));
            (m.key().to_string(), item)
        })
        .collect()
}
