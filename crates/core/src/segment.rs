//! Record segments: the entries a side has not yet received, so that a result
//! mail does not grow with the game. A segment is the tail of a side's copy of
//! the record, from entry `from` to the head; its first entry links to the head
//! the side already holds. A side keeps every segment it receives; together,
//! from entry 0, they are its copy of the record ([`assemble`]).
//!
//! A segment from entry 0 is a whole record and is written exactly as
//! [`Record::to_text`] writes it.

use super::hash::Digest;
use super::record::{Entry, MAGIC, Record, RecordError};
use std::collections::BTreeMap;

/// The first line of a segment that does not start at entry 0.
pub const SEGMENT_MAGIC: &str = "# umpire record segment";

/// The entries of `record` from `from` to its head, as `viewer` may hold them
/// (`None`: every opening, as in the full record). Only those entries are
/// copied: the cost does not depend on the record's length.
pub fn tail(record: &Record, from: u64, viewer: Option<&str>) -> Vec<Entry> {
    let start = (from as usize).min(record.len());
    record.entries()[start..]
        .iter()
        .map(|e| {
            let mut e = e.clone();
            if viewer.is_some() {
                e.body.redact(viewer);
            }
            e
        })
        .collect()
}

/// The attachment's file name of a segment: `record.txt` for a whole record,
/// `record-A-B.txt` for entries A to B.
pub fn file_name(from: u64, to: u64) -> String {
    if from == 0 {
        "record.txt".into()
    } else {
        format!("record-{from}-{to}.txt")
    }
}

/// A segment's text: a comment header naming the game, the entries, the head
/// it follows and the new head, then one JSON object per entry, as in a record.
/// `entries` must not be empty and must not start at 0 (write a record then).
pub fn to_text(game: &str, entries: &[Entry]) -> String {
    let (Some(first), Some(last)) = (entries.first(), entries.last()) else {
        return String::new();
    };
    let mut s = format!("{SEGMENT_MAGIC}, format 1\n");
    s.push_str(&format!(
        "# game {game}: entries {} to {}, following head {} (entry {}); head {}\n",
        first.seq,
        last.seq,
        first.prev,
        first.seq.saturating_sub(1),
        last.hash
    ));
    s.push_str(
        "# check it with the earlier ones: umpire verify record.txt record-*.txt (or the folder of the game's mails)\n",
    );
    for e in entries {
        // Entries serialise infallibly: strings, integers and digests only.
        s.push_str(&serde_json::to_string(e).unwrap_or_default());
        s.push('\n');
    }
    s
}

/// Is this text a record or a segment?
pub fn looks_like_record(text: &str) -> bool {
    text.starts_with(MAGIC)
}

/// The entries of a record or segment text, in file order, unchecked.
pub fn parse(text: &str) -> Result<Vec<Entry>, RecordError> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let e: Entry = serde_json::from_str(t).map_err(|e| RecordError::Syntax {
            line: i + 1,
            message: e.to_string(),
        })?;
        entries.push(e);
    }
    Ok(entries)
}

/// Why segments do not make a record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AssembleError {
    #[error("part {part}: {source}")]
    Part {
        part: String,
        #[source]
        source: RecordError,
    },
    #[error(
        "two different entries {seq}: {a} and {b} (they come from different games or one was altered)"
    )]
    Conflict { seq: u64, a: String, b: String },
    #[error(
        "entries {from} to {to} are missing (a lost mail?); ask the umpire for the whole record with `command: record`"
    )]
    Missing { from: u64, to: u64 },
    #[error(transparent)]
    Record(#[from] RecordError),
}

/// Builds a record from parts (`(name, text)`: whole records, a side's copies,
/// segments), in any order, overlapping or not. The same entry in two parts is
/// kept once, with the more openings; two different entries at one place, or a
/// gap, are errors. The result is checked as [`Record::from_entries`] checks.
pub fn assemble(parts: &[(String, String)]) -> Result<Record, AssembleError> {
    let mut by_seq: BTreeMap<u64, (Entry, &str)> = BTreeMap::new();
    for (name, text) in parts {
        let entries = parse(text).map_err(|source| AssembleError::Part {
            part: name.clone(),
            source,
        })?;
        for e in entries {
            match by_seq.get(&e.seq) {
                None => {
                    by_seq.insert(e.seq, (e, name));
                }
                Some((old, old_name)) if old.hash != e.hash || old.prev != e.prev => {
                    return Err(AssembleError::Conflict {
                        seq: e.seq,
                        a: old_name.to_string(),
                        b: name.clone(),
                    });
                }
                Some((old, _)) => {
                    if e.body.closed_items() < old.body.closed_items() {
                        by_seq.insert(e.seq, (e, name));
                    }
                }
            }
        }
    }
    let mut expected = 0u64;
    for &seq in by_seq.keys() {
        if seq != expected {
            return Err(AssembleError::Missing {
                from: expected,
                to: seq - 1,
            });
        }
        expected = seq + 1;
    }
    let entries: Vec<Entry> = by_seq.into_values().map(|(e, _)| e).collect();
    Ok(Record::from_entries(entries)?)
}

/// The head a segment's text ends on (its last entry's hash), if it has entries.
pub fn head_of(text: &str) -> Option<Digest> {
    text.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .and_then(|l| serde_json::from_str::<Entry>(l).ok())
        .map(|e| e.hash)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Commitment;
    use crate::record::{Body, FORMAT, Opening, RevealEntry};

    fn record(n: u64) -> Record {
        let mut r = Record::open(Opening {
            format: FORMAT,
            game: "g".into(),
            ruleset: "freeform".into(),
            ruleset_version: 1,
            ruleset_data: None,
            scenario: "open".into(),
            options: Default::default(),
            sides: vec![],
            dice: Commitment {
                scheme: "s".into(),
                length: 100,
                k0: Digest([1; 32]),
            },
            hidden: vec![],
            umpire: "k".into(),
            at: "2026-11-29T00:00:00Z".into(),
        });
        for p in 1..=n {
            r.push(Body::Reveal(RevealEntry {
                position: p,
                secret: Digest([p as u8; 32]),
                slots: vec![],
            }));
        }
        r
    }

    fn part(name: &str, r: &Record, from: u64) -> (String, String) {
        let text = if from == 0 {
            r.to_text()
        } else {
            to_text("g", &tail(r, from, None))
        };
        (name.to_string(), text)
    }

    #[test]
    fn segments_in_any_order_make_the_record() {
        let r = record(6);
        let mut a = r.clone();
        let parts = vec![
            part("c", &r, 5),
            part("a", &record(2), 0),
            part("b", &record(4), 3),
        ];
        let back = assemble(&parts).unwrap();
        assert_eq!(back, r);
        a.push(Body::Reveal(RevealEntry {
            position: 7,
            secret: Digest([7; 32]),
            slots: vec![],
        }));
        assert_eq!(head_of(&part("d", &a, 7).1), Some(a.head()));
    }

    #[test]
    fn a_gap_is_named_and_a_conflict_refused() {
        let r = record(6);
        let e = assemble(&[part("a", &record(2), 0), part("c", &r, 5)]).unwrap_err();
        assert_eq!(e, AssembleError::Missing { from: 3, to: 4 });
        // A segment of another history at the same place.
        let mut other = record(2);
        other.push(Body::Reveal(RevealEntry {
            position: 3,
            secret: Digest([99; 32]),
            slots: vec![],
        }));
        let e = assemble(&[part("a", &r, 0), part("x", &other, 3)]).unwrap_err();
        assert!(matches!(e, AssembleError::Conflict { seq: 3, .. }), "{e}");
    }

    #[test]
    fn a_segment_names_what_it_follows() {
        let r = record(4);
        let t = to_text("g", &tail(&r, 3, None));
        assert!(t.starts_with(SEGMENT_MAGIC) && looks_like_record(&t));
        assert!(t.contains(&format!("following head {}", r.entries()[2].hash)));
        assert_eq!(file_name(3, 4), "record-3-4.txt");
        assert_eq!(file_name(0, 4), "record.txt");
    }
}
