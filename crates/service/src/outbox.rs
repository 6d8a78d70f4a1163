//! The outbox: mails wait in the store until the transport accepts them, with
//! backoff between attempts. An item leaves the store only after the transport
//! accepted it, its outcome committed with those of the mails around it
//! ([`DELIVERY_GROUP`]), so a crash may resend a group once; Message-IDs stay
//! the same, so the receiving side can drop the copies.

use super::compose::SealedMail;
use super::{ServiceError, Umpire};
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use umpire_mail::write::Unwritten;
use umpire_mail::{Delivery, MailError, Outgoing};
use umpire_store::{Batch, Table};

/// An outgoing mail and its delivery state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub key: String,
    pub message_id: String,
    pub from: String,
    pub to: Vec<String>,
    /// The formatted mail (emptied once sent).
    pub raw: Vec<u8>,
    /// Seconds since the epoch when it was queued.
    pub queued: i64,
    pub attempts: u32,
    /// Not before this time (seconds since the epoch).
    pub next_attempt: i64,
    /// Set once the transport accepted it.
    pub sent: Option<i64>,
    /// Set when the transport refused it for good.
    pub failed: Option<String>,
    pub last_error: Option<String>,
}

/// An item's fields as JSON in the store. Items written before `STORED`
/// were all JSON, the mail base64 in `raw`.
#[derive(Serialize, Deserialize)]
struct Fields {
    key: String,
    message_id: String,
    from: String,
    to: Vec<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    raw: String,
    queued: i64,
    attempts: u32,
    next_attempt: i64,
    sent: Option<i64>,
    failed: Option<String>,
    last_error: Option<String>,
}

/// The first byte of a stored item: its fields' JSON length (4 bytes, big
/// endian), the JSON, then the mail's bytes as they are. Not base64 inside
/// JSON: a poll writes one for every mail it sends, and encoding and escaping
/// them cost more than building the mail (issue 13). An item written before
/// starts with `{`.
const STORED: u8 = 1;

/// The first byte of an item whose mail is stored unwritten (issue 13): as
/// [`STORED`], the mail's part being [`Unwritten::to_bytes`]'s form; it is
/// written when read back to be delivered.
const STORED_UNWRITTEN: u8 = 2;

/// Where a stored item's mail is.
enum StoredMail<'a> {
    /// Written, these bytes.
    Written(&'a [u8]),
    /// Unwritten, in these bytes.
    Unwritten(&'a [u8]),
    /// Base64 in the fields (items written before [`STORED`]).
    InFields,
}

impl Item {
    /// A new item, due now.
    pub fn new(m: &Outgoing, now: jiff::Timestamp) -> Item {
        Item::due(
            &m.key,
            &m.message_id,
            &m.from,
            m.to.clone(),
            m.raw.clone(),
            now,
        )
    }

    /// A new item, due now, from its parts.
    fn due(
        key: &str,
        message_id: &str,
        from: &str,
        to: Vec<String>,
        raw: Vec<u8>,
        now: jiff::Timestamp,
    ) -> Item {
        Item {
            key: key.to_string(),
            message_id: message_id.to_string(),
            from: from.to_string(),
            to,
            raw,
            queued: now.as_second(),
            attempts: 0,
            next_attempt: now.as_second(),
            sent: None,
            failed: None,
            last_error: None,
        }
    }

    /// Back to an [`Outgoing`].
    pub fn outgoing(&self) -> Outgoing {
        Outgoing {
            key: self.key.clone(),
            message_id: self.message_id.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
            raw: self.raw.clone(),
        }
    }

    /// The bytes the store keeps.
    pub fn to_stored(&self) -> Vec<u8> {
        let mut out = self.stored_head(STORED, self.raw.len());
        out.extend_from_slice(&self.raw);
        out
    }

    /// The stored bytes of a new item for a sealed mail, due now, the mail
    /// kept unwritten until it is read back to be delivered.
    pub(super) fn stored_unwritten(m: &SealedMail, now: jiff::Timestamp) -> Vec<u8> {
        let item = Item::due(
            &m.key,
            &m.message_id,
            &m.from,
            vec![m.to.clone()],
            Vec::new(),
            now,
        );
        let mut out = item.stored_head(STORED_UNWRITTEN, m.mail.text.len() + 4096);
        m.mail.to_bytes(&mut out);
        out
    }

    /// The form's first byte, the fields' JSON length (4 bytes, big endian)
    /// and the JSON, with room for `mail` more bytes.
    fn stored_head(&self, form: u8, mail: usize) -> Vec<u8> {
        let fields = Fields {
            key: self.key.clone(),
            message_id: self.message_id.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
            raw: String::new(),
            queued: self.queued,
            attempts: self.attempts,
            next_attempt: self.next_attempt,
            sent: self.sent,
            failed: self.failed.clone(),
            last_error: self.last_error.clone(),
        };
        // Plain strings and integers: serialising cannot fail.
        let json = serde_json::to_vec(&fields).unwrap_or_default();
        let mut out = Vec::with_capacity(5 + json.len() + mail);
        out.push(form);
        out.extend_from_slice(&(json.len() as u32).to_be_bytes());
        out.extend_from_slice(&json);
        out
    }

    /// An item from the store's bytes, in any of its forms.
    pub fn from_stored(bytes: &[u8]) -> Result<Item, ItemError> {
        let (fields, mail) = Item::fields(bytes)?;
        let raw = match mail {
            StoredMail::Written(r) => r.to_vec(),
            StoredMail::Unwritten(r) => Unwritten::from_bytes(r)?.write(),
            StoredMail::InFields => base64::engine::general_purpose::STANDARD
                .decode(&fields.raw)
                .map_err(ItemError::Base64)?,
        };
        Ok(Item {
            key: fields.key,
            message_id: fields.message_id,
            from: fields.from,
            to: fields.to,
            raw,
            queued: fields.queued,
            attempts: fields.attempts,
            next_attempt: fields.next_attempt,
            sent: fields.sent,
            failed: fields.failed,
            last_error: fields.last_error,
        })
    }

    /// When an item was queued, if it still waits to go out (neither sent
    /// nor failed for good), read from its stored bytes without copying
    /// the mail.
    fn waiting_since(bytes: &[u8]) -> Result<Option<i64>, ItemError> {
        let (f, _) = Item::fields(bytes)?;
        Ok((f.sent.is_none() && f.failed.is_none()).then_some(f.queued))
    }

    /// The fields of stored bytes, and where the mail is.
    fn fields(bytes: &[u8]) -> Result<(Fields, StoredMail<'_>), ItemError> {
        Ok(match bytes.split_first() {
            Some((&tag @ (STORED | STORED_UNWRITTEN), rest)) => {
                let (len, rest) = rest.split_first_chunk::<4>().ok_or(ItemError::Truncated)?;
                let len = u32::from_be_bytes(*len) as usize;
                if len > rest.len() {
                    return Err(ItemError::Truncated);
                }
                let (json, raw) = rest.split_at(len);
                let mail = match tag {
                    STORED => StoredMail::Written(raw),
                    _ => StoredMail::Unwritten(raw),
                };
                (serde_json::from_slice(json)?, mail)
            }
            _ => (serde_json::from_slice(bytes)?, StoredMail::InFields),
        })
    }
}

/// Why stored bytes do not read back as an outbox [`Item`].
#[derive(Debug, thiserror::Error)]
pub enum ItemError {
    /// The bytes end inside the item's fields.
    #[error("truncated item")]
    Truncated,
    /// The fields are not the item's JSON.
    #[error("{0}")]
    Fields(#[from] serde_json::Error),
    /// The mail kept unwritten does not read back.
    #[error("the unwritten mail: {0}")]
    Unwritten(#[from] umpire_mail::write::UnwrittenError),
    /// The mail kept in the fields is not base64.
    #[error("the mail's base64: {0}")]
    Base64(base64::DecodeError),
}

/// What a delivery round did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryReport {
    pub sent: usize,
    pub deferred: usize,
    pub failed: usize,
    pub waiting: usize,
}

/// Delivery outcomes committed together: one durable commit per this many
/// mails, not one per mail. A crash loses at most the outcomes of one group,
/// and those mails go out again with the same Message-ID (the receiver can
/// drop the copies), as a crash between send and commit always could.
pub const DELIVERY_GROUP: usize = 32;

/// A stored item that does not read.
fn corrupt(key: &[u8], e: ItemError) -> ServiceError {
    umpire_store::StoreError::Corrupt {
        what: format!("outbox item {}", String::from_utf8_lossy(key)),
        message: e.to_string(),
    }
    .into()
}

/// Seconds to wait after `attempts` failures: 1 min doubling to 6 h.
pub fn backoff(attempts: u32) -> i64 {
    (60i64 << (attempts.clamp(1, 16) - 1)).min(6 * 3600)
}

impl Umpire {
    /// Every item not yet sent or failed, oldest first.
    pub fn pending(&self) -> Result<Vec<Item>, ServiceError> {
        self.pending_keys()?
            .iter()
            .filter_map(|key| self.outbox_item(key).transpose())
            .collect()
    }

    /// The keys of the items not yet sent or failed, oldest first: what
    /// `deliver` walks, loading one item at a time, so its memory does not
    /// grow with the outbox (a poll of 1,000 mails queues 2,000 replies).
    fn pending_keys(&self) -> Result<Vec<Vec<u8>>, ServiceError> {
        let mut waiting: Vec<(i64, Vec<u8>)> = Vec::new();
        self.store
            .visit(Table::Outbox, b"", |k, bytes| -> Result<(), ServiceError> {
                let queued = Item::waiting_since(bytes).map_err(|m| corrupt(k, m))?;
                if let Some(q) = queued {
                    waiting.push((q, k.to_vec()));
                }
                Ok(())
            })?;
        waiting.sort();
        Ok(waiting.into_iter().map(|(_, k)| k).collect())
    }

    /// The item at `key`, if it is still there and still waits to go out.
    fn outbox_item(&self, key: &[u8]) -> Result<Option<Item>, ServiceError> {
        let Some(bytes) = self.store.get(Table::Outbox, key)? else {
            return Ok(None);
        };
        let item = Item::from_stored(&bytes).map_err(|m| corrupt(key, m))?;
        Ok((item.sent.is_none() && item.failed.is_none()).then_some(item))
    }

    /// Hands every due item to `delivery`, recording each outcome.
    pub fn deliver(
        &mut self,
        delivery: &mut dyn Delivery,
        now: jiff::Timestamp,
    ) -> Result<DeliveryReport, ServiceError> {
        let mut r = DeliveryReport::default();
        let keys = self.pending_keys()?;
        let total = keys.len();
        let mut b = Batch::new();
        let mut in_group = 0;
        for (i, key) in keys.iter().enumerate() {
            let Some(mut item) = self.outbox_item(key)? else {
                continue;
            };
            if item.next_attempt > now.as_second() {
                r.waiting += 1;
                continue;
            }
            item.attempts += 1;
            match delivery.deliver(&item.outgoing()) {
                Ok(()) => {
                    item.sent = Some(now.as_second());
                    item.last_error = None;
                    // The text is rebuilt from the record when needed again; keep the store small.
                    item.raw.clear();
                    r.sent += 1;
                    tracing::debug!(key = %item.key, to = ?item.to, "sent");
                }
                Err(MailError::Transient(e)) => {
                    item.next_attempt = now.as_second() + backoff(item.attempts);
                    item.last_error = Some(e.clone());
                    r.deferred += 1;
                    tracing::warn!(key = %item.key, error = %e, "delivery deferred");
                }
                Err(e) => {
                    item.failed = Some(e.to_string());
                    r.failed += 1;
                    tracing::error!(key = %item.key, error = %e, "delivery failed for good");
                }
            }
            if item.sent.is_some() {
                // Delivered: nothing is left to do with it (its text is
                // rebuilt from the record if it is asked for again), and a
                // kept stub would make every later `pending` scan longer.
                b.remove(Table::Outbox, &item.key);
            } else {
                b.put(Table::Outbox, &item.key, item.to_stored());
            }
            in_group += 1;
            if in_group >= DELIVERY_GROUP {
                self.store.commit(std::mem::take(&mut b))?;
                in_group = 0;
            }
            if r.deferred > 0 && item.sent.is_none() && item.failed.is_none() {
                // The transport is down: the rest would fail the same way.
                r.waiting += total - i - 1;
                break;
            }
        }
        if !b.is_empty() {
            self.store.commit(b)?;
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A transport that is always away.
    struct Down;
    impl Delivery for Down {
        fn deliver(&mut self, _: &Outgoing) -> Result<(), MailError> {
            Err(MailError::Transient("connection refused".into()))
        }
    }

    #[test]
    fn every_pending_item_is_counted_once_while_the_transport_is_down() {
        let dir = tempfile::tempdir().unwrap();
        Umpire::init(dir.path(), "umpire@club.test").unwrap();
        let mut u = Umpire::open(dir.path()).unwrap();
        let t0: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
        let side = |n: u8| {
            let k = umpire_core::sig::SecretKey::from_seed(&[n; 32], "p").unwrap();
            (format!("s{n}"), format!("s{n}@club.test"), k.public_line())
        };
        u.create_game(
            crate::games::NewGame {
                id: "g1".into(),
                ruleset: "freeform".into(),
                scenario: "open".into(),
                options: Default::default(),
                sides: vec![side(1), side(2), side(3)],
                deadlines: None,
                time_zones: Default::default(),
            },
            t0,
        )
        .unwrap();
        let at = |s: i64| jiff::Timestamp::from_second(t0.as_second() + s).unwrap();
        // Three openings: the first is tried and backs off for a minute.
        let r = u.deliver(&mut Down, t0).unwrap();
        assert_eq!((r.sent, r.deferred, r.failed, r.waiting), (0, 1, 0, 2));
        // Half a minute later the first waits, the second is tried: still three in all.
        let r = u.deliver(&mut Down, at(30)).unwrap();
        assert_eq!((r.sent, r.deferred, r.failed, r.waiting), (0, 1, 0, 2));
    }

    /// A transport that takes everything and notes the order.
    #[derive(Default)]
    struct Up(Vec<String>);
    impl Delivery for Up {
        fn deliver(&mut self, m: &Outgoing) -> Result<(), MailError> {
            self.0.push(m.key.clone());
            Ok(())
        }
    }

    #[test]
    fn delivery_goes_oldest_first_one_item_at_a_time_and_names_a_corrupt_one() {
        let dir = tempfile::tempdir().unwrap();
        Umpire::init(dir.path(), "umpire@club.test").unwrap();
        let mut u = Umpire::open(dir.path()).unwrap();
        let at = |s: i64| jiff::Timestamp::from_second(1_800_000_000 + s).unwrap();
        let item = |key: &str, queued: i64| {
            let m = Outgoing {
                key: key.into(),
                message_id: format!("<{key}@club.test>"),
                from: "umpire@club.test".into(),
                to: vec!["a@club.test".into()],
                raw: format!("Subject: {key}\r\n\r\nx").into_bytes(),
            };
            Item::new(&m, at(queued))
        };
        let mut b = Batch::new();
        // Keys against queue times: the times decide, then the keys.
        for (key, queued) in [("a", 30), ("b", 10), ("c", 20), ("d", 10)] {
            b.put(Table::Outbox, key, item(key, queued).to_stored());
        }
        let mut sent = item("e", 0);
        sent.sent = Some(at(1).as_second());
        b.put(Table::Outbox, "e", sent.to_stored());
        u.store.commit(b).unwrap();
        let keys: Vec<String> = u.pending().unwrap().into_iter().map(|i| i.key).collect();
        assert_eq!(keys, ["b", "d", "c", "a"]);
        let mut up = Up::default();
        let r = u.deliver(&mut up, at(60)).unwrap();
        assert_eq!(up.0, ["b", "d", "c", "a"]);
        assert_eq!((r.sent, r.waiting), (4, 0));
        assert!(u.pending().unwrap().is_empty(), "delivered items leave");
        // An item that does not read stops delivery with its key named.
        let mut b = Batch::new();
        b.put(Table::Outbox, "g1.7.red", b"\x01\x00\x00".to_vec());
        u.store.commit(b).unwrap();
        let e = u.deliver(&mut up, at(60)).unwrap_err().to_string();
        assert!(e.contains("outbox item g1.7.red"), "{e}");
    }

    #[test]
    fn an_item_reads_back_in_either_stored_form() {
        let m = Outgoing {
            key: "g1.3.red".into(),
            message_id: "<g1.3.red@club.test>".into(),
            from: "umpire@club.test".into(),
            to: vec!["red@club.test".into()],
            raw: b"Subject: x\r\n\r\n{\"not\": json}\x00\xff".to_vec(),
        };
        let mut item = Item::new(&m, "2026-12-01T10:00:00Z".parse().unwrap());
        item.last_error = Some("421 later".into());
        assert_eq!(Item::from_stored(&item.to_stored()).unwrap(), item);
        // As items were written before: all JSON, the mail base64.
        let old = serde_json::json!({
            "key": item.key, "message_id": item.message_id, "from": item.from,
            "to": item.to, "raw": base64::engine::general_purpose::STANDARD.encode(&item.raw),
            "queued": item.queued, "attempts": 0, "next_attempt": item.next_attempt,
            "sent": null, "failed": null, "last_error": "421 later",
        });
        assert_eq!(
            Item::from_stored(&serde_json::to_vec(&old).unwrap()).unwrap(),
            item
        );
        let stored = item.to_stored();
        assert!(Item::from_stored(&stored[..3]).is_err());
        assert!(Item::from_stored(&stored[..stored.len() - m.raw.len() - 2]).is_err());
    }

    /// A sealed mail is stored unwritten and read back written: the mail a
    /// transport gets is the one `build` makes of the same parts, and the
    /// stored item is smaller than the written mail (no base64, no
    /// quoted-printable). Items of the older forms still read (above).
    #[test]
    fn a_sealed_mail_is_stored_unwritten_and_delivered_written() {
        use umpire_mail::write::{Compose, build, prepare};
        let c = Compose {
            from_name: "Umpire".into(),
            from: "umpire@club.test".into(),
            to: vec!["red@club.test".into()],
            subject: "[g1] turn 3".into(),
            message_id: "<g1.3.red@club.test>".into(),
            in_reply_to: None,
            references: vec![],
            text: "Your move.\n".repeat(40),
            attachments: vec![(
                "record.txt".into(),
                "text/plain".into(),
                b"{\"seq\":3}\n".repeat(100),
            )],
            auto_submitted: "auto-replied",
            headers: vec![],
            date: std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000),
        };
        let sealed = SealedMail {
            key: "g1.3.red".into(),
            message_id: c.message_id.clone(),
            from: c.from.clone(),
            to: "red@club.test".into(),
            mail: Unwritten {
                prepared: prepare(&c).unwrap(),
                text: c.text.clone(),
                bodies: vec![Some(c.attachments[0].2.clone())],
            },
        };
        let now: jiff::Timestamp = "2026-12-01T10:00:00Z".parse().unwrap();
        let stored = Item::stored_unwritten(&sealed, now);
        let item = Item::from_stored(&stored).unwrap();
        let written = build(&c).unwrap();
        assert_eq!(item.raw, written);
        assert_eq!(
            (item.key.as_str(), item.to.as_slice(), item.queued),
            (
                "g1.3.red",
                &["red@club.test".to_string()][..],
                now.as_second()
            )
        );
        assert_eq!(Item::waiting_since(&stored).unwrap(), Some(now.as_second()));
        assert!(
            stored.len() < written.len(),
            "{} {}",
            stored.len(),
            written.len()
        );
        // A damaged mail part is refused by name.
        let e = Item::from_stored(&stored[..stored.len() - 1]).unwrap_err();
        assert!(matches!(e, ItemError::Unwritten(_)), "{e}");
        assert!(
            e.to_string().starts_with("the unwritten mail: truncated"),
            "{e}"
        );
    }

    #[test]
    fn backoff_doubles_and_caps() {
        assert_eq!(backoff(1), 60);
        assert_eq!(backoff(2), 120);
        assert_eq!(backoff(5), 960);
        assert_eq!(backoff(30), 6 * 3600);
    }
}
