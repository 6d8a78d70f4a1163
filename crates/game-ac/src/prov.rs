//! Provenance tags on data values. Every value in `games/ac/*.toml` must be
//! tagged by a `src` key of its record (or of an enclosing one) or by a
//! `src_<key>` beside it; the loader refuses untagged values, so a club that
//! replaces stand-ins with the printed game's values sees what is what.

use serde::{Deserialize, Serialize};
use toml::de::{DeTable, DeValue};

/// The four provenance kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ProvKind {
    /// Printed in the rulebook (cite the rule).
    Rulebook,
    /// From a public source (cite it).
    Public,
    /// Reconstructed from history or geography.
    Reconstructed,
    /// Invented to make the game playable.
    StandIn,
}

impl ProvKind {
    /// As written in the data.
    pub fn name(self) -> &'static str {
        ["rulebook", "public", "reconstructed", "stand-in"][self as usize]
    }
}

/// One tagged value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tag {
    /// E.g. `tables.battle_crt.rows`.
    pub path: String,
    /// The kind of provenance.
    pub kind: ProvKind,
    /// What follows the kind.
    pub note: String,
}

/// Reads a tag: `rulebook 7.6`, `stand-in: why`.
pub fn parse_tag(s: &str) -> Result<(ProvKind, String), String> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    for (kind, word) in [
        (ProvKind::Rulebook, "rulebook"),
        (ProvKind::Public, "public"),
        (ProvKind::Reconstructed, "reconstructed"),
        (ProvKind::StandIn, "stand-in"),
    ] {
        if let Some(rest) = lower.strip_prefix(word) {
            let note = t[t.len() - rest.len()..]
                .trim_start_matches([':', ' '])
                .to_string();
            if note.is_empty() {
                return Err(format!("tag {s:?} says {word} but not where from"));
            }
            return Ok((kind, note));
        }
    }
    Err(format!(
        "tag {s:?} must start with rulebook, public, reconstructed or stand-in"
    ))
}

fn is_tag_key(k: &str) -> bool {
    k == "src" || k.starts_with("src_")
}

/// Collects the tag of every value under `t` (a value inherits the nearest
/// `src`), reporting untagged values and tags of fields that do not exist.
/// `path` is where `t` is (`map`, `map.region[3]`); it is used as a buffer
/// and given back as it came.
pub fn collect(
    path: &mut String,
    t: &DeTable,
    inherited: Option<&str>,
    tags: &mut Vec<Tag>,
    errors: &mut Vec<String>,
) {
    let own = t
        .get("src")
        .and_then(|v| v.get_ref().as_str())
        .or(inherited);
    // A record's own tag is read once, not once for each of its values.
    let own_read = own.map(parse_tag);
    let specific = t.keys().any(|k| k.get_ref().starts_with("src_"));
    let at = path.len();
    for (k, v) in t {
        let k: &str = k.get_ref();
        if let Some(field) = k.strip_prefix("src_")
            && !t.contains_key(field)
        {
            errors.push(format!(
                "{path}.{k} tags a field `{field}` that is not there"
            ));
        }
        if is_tag_key(k) {
            continue;
        }
        path.push('.');
        path.push_str(k);
        let tag = if specific {
            t.get(format!("src_{k}").as_str())
                .and_then(|v| v.get_ref().as_str())
        } else {
            None
        };
        match v.get_ref() {
            DeValue::Table(sub) => collect(path, sub, tag.or(own), tags, errors),
            DeValue::Array(a) if !a.is_empty() && a.iter().all(|x| x.get_ref().is_table()) => {
                let here = path.len();
                for (i, x) in a.iter().enumerate() {
                    if let DeValue::Table(sub) = x.get_ref() {
                        path.push('[');
                        path.push_str(&i.to_string());
                        path.push(']');
                        collect(path, sub, tag.or(own), tags, errors);
                        path.truncate(here);
                    }
                }
            }
            _ => {
                let read = match tag {
                    Some(s) => Some(parse_tag(s)),
                    None => own_read.clone(),
                };
                match read {
                    Some(Ok((kind, note))) => tags.push(Tag {
                        path: path.clone(),
                        kind,
                        note,
                    }),
                    Some(Err(e)) => errors.push(format!("{path}: {e}")),
                    None => errors.push(format!(
                        "{path} has no provenance tag: add `src = \"...\"` to its record or `src_{k} = \"...\"`"
                    )),
                }
            }
        }
        path.truncate(at);
    }
}

/// Takes the tags out of a parsed table, in place, for typed reading.
pub fn strip(t: &mut DeTable) {
    let tags: Vec<String> = t
        .keys()
        .filter(|k| is_tag_key(k.get_ref()))
        .map(|k| k.get_ref().to_string())
        .collect();
    for k in tags {
        t.remove(k.as_str());
    }
    for (_, v) in t.iter_mut() {
        strip_value(v.get_mut());
    }
}

fn strip_value(v: &mut DeValue) {
    match v {
        DeValue::Table(t) => strip(t),
        DeValue::Array(a) => a.iter_mut().for_each(|x| strip_value(x.get_mut())),
        _ => {}
    }
}

/// The reading before tables were read in place (a [`Table`] collected,
/// copied without its tags and converted through a [`Value`]), kept for the
/// test that the two build the same data.
#[cfg(test)]
pub mod by_value {
    use super::{Tag, is_tag_key, parse_tag};
    use toml::{Table, Value};

    /// Collects the tags as [`super::collect`] does, over a [`Table`].
    pub fn collect(
        path: &str,
        t: &Table,
        inherited: Option<&str>,
        tags: &mut Vec<Tag>,
        errors: &mut Vec<String>,
    ) {
        let own = t.get("src").and_then(Value::as_str).or(inherited);
        for (k, v) in t {
            if let Some(field) = k.strip_prefix("src_")
                && !t.contains_key(field)
            {
                errors.push(format!(
                    "{path}.{k} tags a field `{field}` that is not there"
                ));
            }
            if is_tag_key(k) {
                continue;
            }
            let here = format!("{path}.{k}");
            let tag = t.get(&format!("src_{k}")).and_then(Value::as_str).or(own);
            match v {
                Value::Table(sub) => collect(&here, sub, tag, tags, errors),
                Value::Array(a) if a.iter().all(Value::is_table) && !a.is_empty() => {
                    for (i, x) in a.iter().enumerate() {
                        if let Some(sub) = x.as_table() {
                            collect(&format!("{here}[{i}]"), sub, tag, tags, errors);
                        }
                    }
                }
                _ => match tag {
                    Some(s) => match parse_tag(s) {
                        Ok((kind, note)) => tags.push(Tag {
                            path: here,
                            kind,
                            note,
                        }),
                        Err(e) => errors.push(format!("{here}: {e}")),
                    },
                    None => errors.push(format!(
                        "{here} has no provenance tag: add `src = \"...\"` to its record or `src_{k} = \"...\"`"
                    )),
                },
            }
        }
    }

    /// The same table without its tags, for typed reading.
    pub fn strip(t: &Table) -> Table {
        let mut out = Table::new();
        for (k, v) in t {
            if is_tag_key(k) {
                continue;
            }
            out.insert(k.clone(), strip_value(v));
        }
        out
    }

    fn strip_value(v: &Value) -> Value {
        match v {
            Value::Table(t) => Value::Table(strip(t)),
            Value::Array(a) => Value::Array(a.iter().map(strip_value).collect()),
            other => other.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_parse_and_untagged_values_are_refused() {
        assert_eq!(
            parse_tag("rulebook 7.6").unwrap(),
            (ProvKind::Rulebook, "7.6".into())
        );
        assert_eq!(parse_tag("stand-in: guess").unwrap().0, ProvKind::StandIn);
        assert!(parse_tag("guess").is_err());
        assert!(parse_tag("public").is_err());
        let t =
            DeTable::parse("[a]\nx = 1\n[b]\ny = 2\nsrc = \"stand-in: y\"\nsrc_z = \"rulebook 1\"")
                .unwrap();
        let (mut tags, mut errors) = (Vec::new(), Vec::new());
        let mut path = "f".to_string();
        collect(&mut path, t.get_ref(), None, &mut tags, &mut errors);
        assert_eq!(path, "f", "the path buffer comes back as it went");
        assert_eq!(tags.len(), 1);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors.iter().any(|e| e.contains("f.a.x has no provenance")));
        assert!(errors.iter().any(|e| e.contains("src_z")));
    }
}
