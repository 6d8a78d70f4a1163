//! The cards as data (5.0): number, title, kind, faction order and each side's
//! effect, written in a small vocabulary of steps ([`Step`]) that
//! [`super::effects`] carries out. The card texts are not public: the effects
//! in `games/adp/cards.toml` are stand-ins a club owning the cards replaces.

use super::data::CardNo;
use super::orders::Op;
use super::pieces::{Faction, Kind};
use super::prov::{self, Reader, ReaderExt};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use toml::{Table, Value};

/// What a card is (2.2, 5.3, 5.4, 6.6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CardKind {
    /// A one-off Event.
    Event,
    /// A Capability: a lasting effect for the game (5.3).
    Capability,
    /// Momentum: a lasting effect until the next Reset (5.4).
    Momentum,
    /// An Event that shifts the Islamabad track (6.6.1).
    Islamabad,
    /// A Propaganda card (2.4).
    Propaganda,
}

impl CardKind {
    fn parse(s: &str) -> Option<CardKind> {
        Some(match s {
            "event" => CardKind::Event,
            "capability" => CardKind::Capability,
            "momentum" => CardKind::Momentum,
            "islamabad" => CardKind::Islamabad,
            "propaganda" => CardKind::Propaganda,
            _ => return None,
        })
    }

    /// Lower-case name.
    pub fn key(self) -> &'static str {
        ["event", "capability", "momentum", "islamabad", "propaganda"][self as usize]
    }
}

/// Which spaces a step may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Filter {
    /// Any space.
    Any,
    /// Kabul or an Afghan Province.
    Afghan,
    /// A Province (Afghan or Pakistan).
    Province,
    /// A Pashtun space.
    Pashtun,
    /// A non-Pashtun Province or Kabul (not a LoC).
    NonPashtun,
    /// A Pakistan Province.
    Pakistan,
    /// Kabul.
    Kabul,
    /// A LoC.
    Loc,
}

impl Filter {
    fn parse(s: &str) -> Option<Filter> {
        Some(match s {
            "any" => Filter::Any,
            "afghan" => Filter::Afghan,
            "province" => Filter::Province,
            "pashtun" => Filter::Pashtun,
            "non-pashtun" => Filter::NonPashtun,
            "pakistan" => Filter::Pakistan,
            "kabul" => Filter::Kabul,
            "loc" => Filter::Loc,
            _ => return None,
        })
    }
}

/// A lasting modifier left in play by a Capability or Momentum card (5.3, 5.4):
/// the hooks the Operations and Special Activities consult.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Modifier {
    /// The faction's `op` costs `amount` per space.
    Cost {
        /// Whose Operation.
        faction: Faction,
        /// The Operation's key (`rally`, `train`...).
        op: String,
        /// Resources per space.
        amount: u8,
    },
    /// `amount` more removals per space in the faction's `op` (Assault,
    /// Attack, Air Strike).
    Removal {
        /// Whose Operation.
        faction: Faction,
        /// The Operation or Special Activity key.
        op: String,
        /// Extra removals.
        amount: u8,
    },
    /// The faction may not use `activity` (an Operation or Special Activity key).
    Forbid {
        /// Whose activity.
        faction: Faction,
        /// The activity key.
        activity: String,
    },
}

/// The modifier in short words (the mails use `card_text::modifier`).
impl std::fmt::Display for Modifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Modifier::Cost {
                faction,
                op,
                amount,
            } => write!(f, "{} {op} costs {amount} a space", faction.name()),
            Modifier::Removal {
                faction,
                op,
                amount,
            } => write!(f, "{} {op} removes {amount} more a space", faction.name()),
            Modifier::Forbid { faction, activity } => {
                write!(f, "{} may not {activity}", faction.name())
            }
        }
    }
}

/// Who a step names: a faction, or the faction executing the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Who {
    /// The executing faction.
    Executor,
    /// A named faction.
    Faction(Faction),
}

/// One effect step (see the vocabulary in `games/adp/cards.toml`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Step {
    /// Add (or take) Resources (1.8).
    Resources {
        /// Whose.
        who: Who,
        /// Signed amount.
        amount: i16,
    },
    /// Add or take Aid.
    Aid {
        /// Signed amount.
        amount: i16,
    },
    /// Add or take Patronage.
    Patronage {
        /// Signed amount.
        amount: i16,
    },
    /// Shift Islamabad (+ toward Sponsorship).
    Islamabad {
        /// Signed boxes.
        shift: i8,
    },
    /// Place pieces from Available in named spaces.
    Place {
        /// Whose pieces.
        faction: Faction,
        /// Which kind.
        kind: Kind,
        /// How many in each space.
        count: u8,
        /// How many spaces the executor names.
        spaces: u8,
        /// Which spaces qualify.
        filter: Filter,
    },
    /// Remove pieces from named spaces.
    Remove {
        /// Whose pieces.
        faction: Faction,
        /// Which kind.
        kind: Kind,
        /// How many in each space.
        count: u8,
        /// How many spaces.
        spaces: u8,
        /// Which spaces qualify.
        filter: Filter,
        /// The faction that chooses the spaces, when the text names one
        /// (5.1, digest D3); else the executor names them.
        by: Option<Faction>,
    },
    /// Shift Support or Opposition in named spaces.
    Shift {
        /// Toward Support (true) or Opposition.
        up: bool,
        /// Levels.
        levels: u8,
        /// How many spaces.
        spaces: u8,
        /// Which spaces qualify.
        filter: Filter,
    },
    /// The faction stays Eligible (2.3.6).
    Eligible {
        /// Who.
        who: Who,
    },
    /// The faction is Ineligible for the next card (2.3.6).
    Ineligible {
        /// Who.
        who: Who,
    },
    /// The executing faction may follow the Event with one of these
    /// Operations, free (3.1.2, 5.5).
    FreeOp(Vec<Op>),
    /// Another faction (`to`) may execute one of these Operations, free,
    /// right after the Event (5.5, digest D4): it decides, by its standing
    /// order or when asked.
    Grant {
        /// The grantee.
        to: Faction,
        /// The Operations it may choose among.
        ops: Vec<Op>,
    },
    /// A lasting modifier for the game (5.3).
    Capability(Modifier),
    /// A lasting modifier until the next Reset (5.4).
    Momentum(Modifier),
}

impl Step {
    /// How many spaces the executor names for this step.
    pub fn spaces(&self) -> u8 {
        match self {
            Step::Remove { by: Some(_), .. } => 0,
            Step::Place { spaces, .. }
            | Step::Remove { spaces, .. }
            | Step::Shift { spaces, .. } => *spaces,
            _ => 0,
        }
    }

    /// The faction that chooses this step's spaces, and how many, when the
    /// text names one other than the executor (5.1, digest D3).
    pub fn chosen_by(&self) -> Option<(Faction, u8)> {
        match self {
            Step::Remove {
                by: Some(f),
                spaces,
                ..
            } => Some((*f, *spaces)),
            _ => None,
        }
    }

    /// The step's filter, for space steps.
    pub fn filter(&self) -> Option<Filter> {
        match self {
            Step::Place { filter, .. }
            | Step::Remove { filter, .. }
            | Step::Shift { filter, .. } => Some(*filter),
            _ => None,
        }
    }
}

/// One card.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Card {
    /// Card number, 1-78.
    pub number: CardNo,
    /// Title (a fact, not text).
    pub title: String,
    /// Kind.
    pub kind: CardKind,
    /// Faction order, left to right (2.3.2); empty for Propaganda.
    pub order: Vec<Faction>,
    /// The unshaded effect.
    pub unshaded: Vec<Step>,
    /// The shaded effect.
    pub shaded: Vec<Step>,
    /// Either side's text is tagged a stand-in for the printed card's
    /// (`src_unshaded`, `src_shaded`): the mails say so.
    pub stand_in_text: bool,
    /// The faction order is tagged a stand-in (`src_order`).
    pub stand_in_order: bool,
}

impl Card {
    /// A Propaganda card.
    pub fn is_propaganda(&self) -> bool {
        self.kind == CardKind::Propaganda
    }

    /// One side's steps.
    pub fn side(&self, shaded: bool) -> &[Step] {
        if shaded { &self.shaded } else { &self.unshaded }
    }

    /// "#24 US-Taliban Talks".
    pub fn label(&self) -> String {
        format!("#{} {}", self.number, self.title)
    }
}

/// Reads `[[card]]` records.
pub fn read(r: &mut Reader, t: &Table) -> Vec<Card> {
    let mut cards = Vec::new();
    for (i, ct) in prov::tables(r, t, "card", "cards.toml")
        .into_iter()
        .enumerate()
    {
        let mut rec = r.rec(format!("cards.card[{i}]"), ct);
        let number = r.small(&mut rec, "number").unwrap_or(0);
        let title = r.string(&mut rec, "title").unwrap_or_default();
        let kind_s = r.string(&mut rec, "kind").unwrap_or_default();
        let kind = CardKind::parse(&kind_s).unwrap_or_else(|| {
            r.error(format!("card {number}: kind {kind_s:?}"));
            CardKind::Event
        });
        let mut card = Card {
            number: CardNo(number),
            title,
            kind,
            order: Vec::new(),
            unshaded: Vec::new(),
            shaded: Vec::new(),
            stand_in_text: false,
            stand_in_order: false,
        };
        if kind != CardKind::Propaganda {
            let o = r.string(&mut rec, "order").unwrap_or_default();
            card.stand_in_order = last_is_stand_in(r);
            card.order = o
                .chars()
                .filter_map(|c| Faction::parse(&c.to_string()))
                .collect();
            if card.order.len() != 4 || o.len() != 4 {
                r.error(format!(
                    "card {number}: order {o:?} must name c g t w once each"
                ));
            }
            for shaded in [false, true] {
                let key = if shaded { "shaded" } else { "unshaded" };
                let steps = match r.value(&mut rec, key, true).and_then(Value::as_array) {
                    Some(a) => a
                        .iter()
                        .enumerate()
                        .filter_map(|(j, v)| step(r, &format!("card {number} {key}[{j}]"), v))
                        .collect(),
                    None => Vec::new(),
                };
                card.stand_in_text |= last_is_stand_in(r);
                if shaded {
                    card.shaded = steps;
                } else {
                    card.unshaded = steps;
                }
            }
        }
        r.finish(rec);
        cards.push(card);
    }
    cards.sort_by_key(|c| c.number);
    cards
}

/// Was the value just read tagged `stand-in`? (The reader pushes a value's
/// tag as it reads it.)
fn last_is_stand_in(r: &Reader) -> bool {
    r.tags
        .last()
        .is_some_and(|t| t.kind == prov::ProvKind::StandIn)
}

fn get<'a>(t: &'a Table, k: &str) -> Option<&'a Value> {
    t.get(k)
}

/// One step's table, with the reading its fields share.
struct StepTable<'a> {
    at: &'a str,
    t: &'a Table,
}

impl StepTable<'_> {
    /// A text field, `""` if missing.
    fn s(&self, k: &str) -> &str {
        get(self.t, k).and_then(Value::as_str).unwrap_or("")
    }

    /// A whole-number field, with an error if missing or out of range.
    fn amount(&self, r: &mut Reader, k: &str) -> Option<i16> {
        match get(self.t, k)
            .and_then(Value::as_integer)
            .and_then(|i| i16::try_from(i).ok())
        {
            Some(a) => Some(a),
            None => {
                r.error(format!("{}: `{k}` must be a whole number", self.at));
                None
            }
        }
    }

    /// `faction`: `self` (the executor) or a faction.
    fn who(&self, r: &mut Reader) -> Option<Who> {
        match self.s("faction") {
            "self" => Some(Who::Executor),
            f => match Faction::parse(f) {
                Some(f) => Some(Who::Faction(f)),
                None => {
                    r.error(format!("{}: faction {f:?}", self.at));
                    None
                }
            },
        }
    }

    /// `filter`, `any` if missing.
    fn filter(&self) -> Option<Filter> {
        Filter::parse(if self.s("filter").is_empty() {
            "any"
        } else {
            self.s("filter")
        })
    }
}

fn step(r: &mut Reader, at: &str, v: &Value) -> Option<Step> {
    let Some(t) = v.as_table() else {
        r.error(format!("{at}: a step is a table `{{ do = \"...\", ... }}`"));
        return None;
    };
    let st = StepTable { at, t };
    let done = match st.s("do") {
        "resources" => Step::Resources {
            who: st.who(r)?,
            amount: st.amount(r, "amount")?,
        },
        "aid" => Step::Aid {
            amount: st.amount(r, "amount")?,
        },
        "patronage" => Step::Patronage {
            amount: st.amount(r, "amount")?,
        },
        "islamabad" => Step::Islamabad {
            shift: i8::try_from(st.amount(r, "shift")?).ok()?,
        },
        "place" | "remove" => place_or_remove(r, &st)?,
        "shift" => {
            let up = match st.s("toward") {
                "support" => true,
                "opposition" => false,
                x => {
                    r.error(format!("{at}: toward {x:?} is not support or opposition"));
                    return None;
                }
            };
            let filter = st.filter()?;
            Step::Shift {
                up,
                levels: u8::try_from(st.amount(r, "levels")?).ok()?,
                spaces: u8::try_from(st.amount(r, "spaces")?).ok()?,
                filter,
            }
        }
        "free_op" | "grant" => free_op(r, &st)?,
        "eligible" => Step::Eligible { who: st.who(r)? },
        "ineligible" => Step::Ineligible { who: st.who(r)? },
        "capability" | "momentum" => {
            let m = modifier(r, at, get(t, "modifier"))?;
            if st.s("do") == "capability" {
                Step::Capability(m)
            } else {
                Step::Momentum(m)
            }
        }
        other => {
            r.error(format!(
                "{at}: unknown step {other:?} (see the vocabulary in cards.toml)"
            ));
            return None;
        }
    };
    Some(done)
}

/// `do = "place"` or `"remove"`: pieces of a faction in named spaces.
fn place_or_remove(r: &mut Reader, st: &StepTable) -> Option<Step> {
    let at = st.at;
    let faction = Faction::parse(st.s("faction"));
    let kind = Kind::parse(st.s("piece"));
    let filter = st.filter();
    let (Some(faction), Some(kind), Some(filter)) = (faction, kind, filter) else {
        r.error(format!(
            "{at}: place/remove needs faction, piece and a known filter"
        ));
        return None;
    };
    let count = u8::try_from(st.amount(r, "count")?).ok()?;
    let spaces = u8::try_from(st.amount(r, "spaces")?).ok()?;
    if st.s("do") == "place" {
        return Some(Step::Place {
            faction,
            kind,
            count,
            spaces,
            filter,
        });
    }
    let by = match st.s("by") {
        "" => None,
        f => match Faction::parse(f) {
            Some(f) => Some(f),
            None => {
                r.error(format!("{at}: by {f:?} is not a faction"));
                return None;
            }
        },
    };
    Some(Step::Remove {
        faction,
        kind,
        count,
        spaces,
        filter,
        by,
    })
}

/// `do = "free_op"` or `"grant"`: a free Operation for the executor or a
/// grantee (5.5).
fn free_op(r: &mut Reader, st: &StepTable) -> Option<Step> {
    let at = st.at;
    let ops: Vec<Op> = get(st.t, "ops")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .filter_map(|k| Op::ALL.into_iter().find(|o| o.key() == k))
                .collect()
        })
        .unwrap_or_default();
    if ops.is_empty() {
        r.error(format!("{at}: free_op needs `ops = [\"assault\", ...]`"));
        return None;
    }
    if st.s("do") != "grant" {
        return Some(Step::FreeOp(ops));
    }
    let Some(to) = Faction::parse(st.s("faction")) else {
        r.error(format!(
            "{at}: grant needs `faction = \"taliban\"` (the grantee)"
        ));
        return None;
    };
    Some(Step::Grant { to, ops })
}

/// Operation and Special Activity keys a modifier may name.
pub const ACTIVITIES: [&str; 20] = [
    "train",
    "patrol",
    "sweep",
    "assault",
    "rally",
    "march",
    "attack",
    "terror",
    "surge",
    "airlift",
    "airstrike",
    "govern",
    "transport",
    "eradicate",
    "extort",
    "infiltrate",
    "ambush",
    "cultivate",
    "traffic",
    "suborn",
];

fn modifier(r: &mut Reader, at: &str, v: Option<&Value>) -> Option<Modifier> {
    let Some(t) = v.and_then(Value::as_table) else {
        r.error(format!("{at}: needs `modifier = {{ kind = ..., ... }}`"));
        return None;
    };
    let s = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let faction = Faction::parse(&s("faction"));
    let amount = t
        .get("amount")
        .and_then(Value::as_integer)
        .and_then(|i| u8::try_from(i).ok());
    let act = |k: &str| {
        let a = s(k);
        ACTIVITIES.contains(&a.as_str()).then_some(a)
    };
    let m = match (s("kind").as_str(), faction) {
        ("cost", Some(faction)) => Modifier::Cost {
            faction,
            op: act("op")?,
            amount: amount?,
        },
        ("removal", Some(faction)) => Modifier::Removal {
            faction,
            op: act("op")?,
            amount: amount?,
        },
        ("forbid", Some(faction)) => Modifier::Forbid {
            faction,
            activity: act("activity")?,
        },
        _ => {
            r.error(format!(
                "{at}: modifier kind must be cost, removal or forbid, with a faction"
            ));
            return None;
        }
    };
    Some(m)
}

/// Deck checks: cards numbered from 1 without gaps, each Event's faction
/// order naming every faction once (2.3.2); with `printed`, the printed
/// game's 78 cards (1.2).
pub fn check(cards: &[Card], printed: bool) -> Vec<String> {
    let mut e = Vec::new();
    if printed && cards.len() != 78 {
        e.push(format!("{} cards, not 78 (1.2)", cards.len()));
    }
    for (i, c) in cards.iter().enumerate() {
        if usize::from(c.number.0) != i + 1 {
            e.push(format!(
                "card numbers must run from 1 without gaps; found {} at {}",
                c.number,
                i + 1
            ));
            break;
        }
        let mut seen = c.order.clone();
        seen.sort();
        seen.dedup();
        if !c.is_propaganda() && seen.len() != 4 {
            e.push(format!(
                "card {}: the faction order names each faction once (2.3.2)",
                c.number
            ));
        }
    }
    e
}

/// Cards by kind, for the summary.
pub fn kind_counts(cards: &[Card]) -> BTreeMap<&'static str, usize> {
    let mut m = BTreeMap::new();
    for c in cards {
        *m.entry(c.kind.key()).or_insert(0) += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lasting_modifier_reads_as_words_in_the_status() {
        let m = Modifier::Forbid {
            faction: Faction::Coalition,
            activity: "airlift".into(),
        };
        assert_eq!(m.to_string(), "Coalition may not airlift");
        let m = Modifier::Cost {
            faction: Faction::Taliban,
            op: "rally".into(),
            amount: 2,
        };
        assert_eq!(m.to_string(), "Taliban rally costs 2 a space");
    }
}
