//! Standing orders: how the umpire answers, for a player, the decisions that
//! fall in the middle of the other player's action (digest N1-N15), so that a
//! typical action needs one mail. Each has a stated default; a player sets his
//! own in the `standing:` section of any move file. Hidden from the opponent
//! (the view shows a player only his own).

use super::data::{Data, Kind};
use serde::{Deserialize, Serialize};
use umpire_core::hex::Hex;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::OrderError;

/// One player's standing orders.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// N1: retreat towards this hex when no rule decides (default: Rome for
    /// the Roman, none for the Germano-Parthian: then the lowest hex id).
    pub rally: Option<Hex>,
    /// N5: sponsor Bread & Circuses when the treasury holds at least this
    /// (default 4); below it, refuse.
    pub sponsor_at: u32,
    /// N4: negative salt on Germano-Parthian diplomacy and treachery rolls
    /// against the emperor (default 0).
    pub salt_treachery: u32,
    /// N4: negative salt on the other Germano-Parthian diplomacy rolls and
    /// the Parthian recovery roll (default 0).
    pub salt_diplomacy: u32,
    /// N8, N9: hexes preferred for a new cavalry unit and for a new emperor
    /// (default none: the largest army, then the lowest hex id).
    pub prefer: Vec<Hex>,
    /// N2: play They Shall Not Pass when defending at these odds or worse
    /// for the defender (attack:1; default 3, i.e. 3:1 or more).
    pub tsnp_at: u32,
    /// N4: play Agents in Enemy Camp (-2) against Germano-Parthian treachery
    /// on the emperor (default yes).
    pub agents: bool,
    /// N3: when to play Beseech the Gods (default never).
    pub beseech: Vec<super::beseech::Rule>,
    /// N2: play Flanking Move or Inspired Subordinates for the defence when
    /// attacked at this many to one or more (default 0: never).
    pub shift_at: u32,
    /// N6: where the Germano-Parthian plants the rebel garrison of a refused
    /// Bread & Circuses, in order of preference (default none: the richest
    /// eligible hex, then the lowest id).
    pub revolt: Vec<Hex>,
    /// 8.8: TP of new salt on a diplomacy or treachery roll done again by
    /// Beseech the Gods (the Roman only; default 0: the reroll is unsalted).
    pub resalt: u32,
    /// R-G8: which chits to put back first when a hand is over the limit
    /// (default none: the lowest-numbered chit).
    pub discard: Vec<u8>,
    /// N7, 6.10: how the Roman covers a deficit, in order (default none:
    /// pairs from the largest leaderless stacks farthest from any enemy).
    pub deficit: Vec<Cover>,
    /// N10, 10.7 (version 9): which units stay and where the rest go when a
    /// stack is left over the limit (default: the highest ids leave, by the
    /// retreat doctrine). Left out of the state's bytes while it is the
    /// default, so that every state of version 8 hashes as it did.
    #[serde(default, skip_serializing_if = "Unstack::is_default")]
    pub unstack: Unstack,
    /// N1 (version 9): the player stated `rally` himself, so he is never
    /// asked where to retreat.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rally_given: bool,
    /// N2 (version 10): the player stated `tsnp` or `shift` himself, so he
    /// is never asked which reaction chits to play before a CRT roll.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub react_given: bool,
    /// N5 (version 10): the Roman stated `sponsor` himself, so he is never
    /// asked whether to sponsor the games the Germano-Parthian drew.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sponsor_given: bool,
    /// N4 (version 10): the Roman stated `salt` or `agents` himself, so he
    /// is never asked before a Germano-Parthian diplomacy or treachery roll.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub salt_given: bool,
    /// N10 (version 11): the player stated an `unstack` order himself, so
    /// he is never asked where a unit of a stack over the limit goes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unstack_given: bool,
    /// N7 (version 11): the Roman stated a `deficit` order himself (even
    /// `deficit none`), so he is never asked how he covers a deficit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deficit_given: bool,
}

/// The emergency unstacking doctrine (10.7; digest N10).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unstack {
    /// Hexes the excess goes to first, wherever the stack stands (only those
    /// adjacent to it count), before the retreat doctrine.
    pub to: Vec<Hex>,
    /// Orders for the stack in one hex, which come before `to`.
    pub at: Vec<UnstackAt>,
}

/// The unstacking order for the stack in one hex (10.7; N10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnstackAt {
    /// The stack's hex.
    pub hex: Hex,
    /// The vexillations that stay, as far as the limit allows.
    pub keep: Vec<super::data::UnitId>,
    /// Adjacent hexes the others go to, in order of preference.
    pub to: Vec<Hex>,
}

impl Unstack {
    /// Today's behaviour: nothing stated.
    pub fn is_default(&self) -> bool {
        self.to.is_empty() && self.at.is_empty()
    }

    /// The order for the stack in `h`, if one was given.
    pub fn at(&self, h: Hex) -> Option<&UnstackAt> {
        self.at.iter().find(|a| a.hex == h)
    }
}

/// One step of the Roman's deficit cover (6.10; digest N7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cover {
    /// Demobilize a twinned pair (or the over-supplied kind first) in this
    /// hex, as often as it holds one (6.7).
    Demobilize(Hex),
    /// Tax this hex in emergency (6.6), once.
    Tax(Hex),
}

impl Cover {
    fn show(self) -> String {
        match self {
            Cover::Demobilize(h) => format!("demobilize {h}"),
            Cover::Tax(h) => format!("tax {h}"),
        }
    }
}

impl Standing {
    /// The defaults for a player.
    pub fn default_for(d: &Data, roman: bool) -> Standing {
        Standing {
            rally: roman.then_some(d.special.rome),
            sponsor_at: 4,
            salt_treachery: 0,
            salt_diplomacy: 0,
            prefer: Vec::new(),
            tsnp_at: 3,
            agents: true,
            beseech: Vec::new(),
            shift_at: 0,
            resalt: 0,
            revolt: Vec::new(),
            discard: Vec::new(),
            deficit: Vec::new(),
            unstack: Unstack::default(),
            rally_given: false,
            react_given: false,
            sponsor_given: false,
            salt_given: false,
            unstack_given: false,
            deficit_given: false,
        }
    }
}

fn num(l: &SourceLine, s: Option<&str>, max: u32) -> Result<u32, OrderError> {
    match s.and_then(|x| x.parse::<u32>().ok()) {
        Some(n) if n <= max => Ok(n),
        _ => Err(OrderError::at(
            l,
            format!("expected a number from 0 to {max}"),
        )),
    }
}

/// Reads `deficit` words: hexes to demobilize in, and after `tax` hexes to
/// tax in emergency, until `demobilize` (6.10; N7), in the order given.
fn deficit(
    l: &SourceLine,
    words: &[&str],
    hex: &dyn Fn(&str) -> Result<Hex, OrderError>,
) -> Result<Vec<Cover>, OrderError> {
    let mut taxing = false;
    let mut v = Vec::new();
    for t in words {
        match *t {
            "tax" => taxing = true,
            "demobilize" | "demob" => taxing = false,
            "none" if words.len() == 1 => {}
            t if taxing => v.push(Cover::Tax(hex(t)?)),
            t => v.push(Cover::Demobilize(hex(t)?)),
        }
    }
    if v.is_empty() && words.first() != Some(&"none") {
        return Err(OrderError::at(
            l,
            "deficit HEX... (demobilize there) tax HEX... (emergency tax), or deficit none",
        )
        .rule("6.10"));
    }
    Ok(v)
}

const UNSTACK_USAGE: &str =
    "unstack to HEX... | unstack at HEX [keep UNIT...] [to HEX...] | unstack default";

/// Reads one `unstack` line (10.7; N10) into `u`: the general hexes, or the
/// order for one stack, checked against the rule.
fn unstack(
    d: &Data,
    l: &SourceLine,
    words: &[&str],
    hex: &dyn Fn(&str) -> Result<Hex, OrderError>,
    u: &mut Unstack,
) -> Result<(), OrderError> {
    let bad = |m: String| OrderError::at(l, m).rule("10.7");
    match words {
        ["default"] => *u = Unstack::default(),
        ["to", rest @ ..] if !rest.is_empty() => {
            u.to = rest.iter().map(|t| hex(t)).collect::<Result<_, _>>()?;
        }
        ["at", h, rest @ ..] => {
            let h = hex(h)?;
            if u.at(h).is_some() {
                return Err(bad(format!("unstack at {h} is given twice")));
            }
            let split = rest.iter().position(|t| *t == "to").unwrap_or(rest.len());
            let (keep, to) = (&rest[..split], rest.get(split + 1..).unwrap_or(&[]));
            let keep = match keep {
                [] => Vec::new(),
                ["keep", ids @ ..] => unstack_keep(d, ids).map_err(bad)?,
                _ => return Err(bad(UNSTACK_USAGE.into())),
            };
            if split < rest.len() && to.is_empty() {
                return Err(bad("`to` names the hexes the others go to".into()));
            }
            let to: Vec<Hex> = to.iter().map(|t| hex(t)).collect::<Result<_, _>>()?;
            if let Some(n) = to.iter().find(|n| !d.linked(h, **n)) {
                return Err(bad(format!(
                    "{n} is not a land hex adjacent to {h}: the excess unstacks into adjacent hexes"
                )));
            }
            u.at.push(UnstackAt { hex: h, keep, to });
        }
        _ => return Err(bad(UNSTACK_USAGE.into())),
    }
    Ok(())
}

/// The vexillations of an `unstack at HEX keep ...`: only they unstack (10.7
/// moves mobile units), at most as many as stand without a leader.
fn unstack_keep(d: &Data, ids: &[&str]) -> Result<Vec<super::data::UnitId>, String> {
    let mut v = Vec::new();
    for t in ids
        .iter()
        .flat_map(|t| t.split(','))
        .filter(|t| !t.is_empty())
    {
        let u = d.unit(t).ok_or_else(|| format!("no counter {t:?}"))?;
        if !matches!(d.kind(u), Kind::Infantry | Kind::Cavalry) {
            return Err(format!(
                "{t} is not a vexillation: only infantry and cavalry unstack, the rest stays"
            ));
        }
        if !v.contains(&u) {
            v.push(u);
        }
    }
    if v.is_empty() {
        return Err("`keep` names the vexillations that stay".into());
    }
    if v.len() > d.values.roman_mobile {
        return Err(format!(
            "at most {} vexillations stay in a stack without a leader",
            d.values.roman_mobile
        ));
    }
    Ok(v)
}

/// Reads standing-order lines over the defaults, as ruleset `version` reads
/// them (`unstack` and the `rally` that stops the question from version 9).
pub fn parse(
    d: &Data,
    roman: bool,
    lines: &[SourceLine],
    version: u32,
) -> Result<Standing, OrderError> {
    let mut s = Standing::default_for(d, roman);
    for l in lines {
        let w: Vec<&str> = l.text.split_whitespace().collect();
        order(&mut s, d, roman, version, l, &w)?;
    }
    Ok(s)
}

/// Sets the standing order of line `l` (its words `w`) in `s`.
fn order(
    s: &mut Standing,
    d: &Data,
    roman: bool,
    version: u32,
    l: &SourceLine,
    w: &[&str],
) -> Result<(), OrderError> {
    let hex = |t: &str| {
        d.find_hex(t)
            .filter(|h| d.is_land(*h))
            .ok_or_else(|| OrderError::at(l, format!("{t:?} is not a land hex or place name")))
    };
    let hexes = |ts: &[&str]| ts.iter().map(|t| hex(t)).collect::<Result<Vec<Hex>, _>>();
    let refuse = |msg: &str, rule: &str| Err(OrderError::at(l, msg).rule(rule));
    if let Some((msg, rule)) = w
        .first()
        .filter(|_| !roman && version >= 15)
        .copied()
        .and_then(roman_only)
    {
        return refuse(msg, rule);
    }
    match w.first().copied() {
        Some("rally") => rally(s, l, w, &hex, version)?,
        Some("unstack") if version >= 9 => {
            unstack(d, l, &w[1..], &hex, &mut s.unstack)?;
            s.unstack_given = version >= 11;
        }
        Some("sponsor") => {
            s.sponsor_at = num(l, w.get(1).copied(), 99)?;
            s.sponsor_given = version >= 10;
        }
        Some("salt") => salt(s, l, w, version)?,
        Some("revolt") if !roman => s.revolt = hexes(&w[1..])?,
        Some("revolt") => return refuse("the Germano-Parthian picks the hex of a revolt", "14.3"),
        Some("deficit") if roman => {
            s.deficit = deficit(l, &w[1..], &hex)?;
            s.deficit_given = version >= 11;
        }
        Some("deficit") => return refuse("only the Roman player covers a deficit", "6.10"),
        Some("prefer") => s.prefer = hexes(&w[1..])?,
        Some("tsnp") => {
            s.tsnp_at = num(l, w.get(1).copied(), 99)?;
            s.react_given = version >= 10;
        }
        Some("resalt") if roman => s.resalt = num(l, w.get(1).copied(), 3)?,
        Some("resalt") => return refuse("only the Roman player may salt", "8.8"),
        Some("shift") => {
            s.shift_at = num(l, w.get(1).copied(), 99)?;
            s.react_given = version >= 10;
        }
        Some("beseech") => beseech(s, d, l, w)?,
        Some("discard") => s.discard = discard(l, w)?,
        Some("agents") => agents(s, l, w, version)?,
        _ => return Err(unknown(l, roman, version)),
    }
    Ok(())
}

/// `rally HEX` or `rally none` (13.12).
fn rally(
    s: &mut Standing,
    l: &SourceLine,
    w: &[&str],
    hex: &dyn Fn(&str) -> Result<Hex, OrderError>,
    version: u32,
) -> Result<(), OrderError> {
    s.rally = match w.get(1) {
        Some(&"none") => None,
        Some(t) => Some(hex(t)?),
        None => return Err(OrderError::at(l, "rally HEX or rally none").rule("13.12")),
    };
    s.rally_given = version >= 9;
    Ok(())
}

/// `salt treachery N` or `salt diplomacy N` (8.8).
fn salt(s: &mut Standing, l: &SourceLine, w: &[&str], version: u32) -> Result<(), OrderError> {
    match w.get(1).copied() {
        Some("treachery") => s.salt_treachery = num(l, w.get(2).copied(), 3)?,
        Some("diplomacy") => s.salt_diplomacy = num(l, w.get(2).copied(), 3)?,
        _ => {
            return Err(OrderError::at(l, "salt treachery N or salt diplomacy N").rule("8.8"));
        }
    }
    s.salt_given = version >= 10;
    Ok(())
}

/// `beseech [own|enemy] KIND FACE...` adds a wish; `beseech never` clears
/// them (14.3).
fn beseech(s: &mut Standing, d: &Data, l: &SourceLine, w: &[&str]) -> Result<(), OrderError> {
    match w.get(1).copied() {
        Some("never") => s.beseech.clear(),
        _ => s.beseech.push(
            super::beseech::parse(d, &w[1..]).map_err(|m| OrderError::at(l, m).rule("14.3"))?,
        ),
    }
    Ok(())
}

/// `discard N N ...`: the chit numbers to discard (8.17).
fn discard(l: &SourceLine, w: &[&str]) -> Result<Vec<u8>, OrderError> {
    w[1..]
        .iter()
        .map(|t| t.trim_matches(',').parse::<u8>().ok())
        .collect::<Option<_>>()
        .ok_or_else(|| OrderError::at(l, "discard N N ... (chit numbers)").rule("8.17"))
}

/// `agents yes` or `agents no` (14.3).
fn agents(s: &mut Standing, l: &SourceLine, w: &[&str], version: u32) -> Result<(), OrderError> {
    s.salt_given = version >= 10;
    s.agents = match w.get(1).copied() {
        Some("yes") => true,
        Some("no") => false,
        _ => return Err(OrderError::at(l, "agents yes or agents no").rule("14.3")),
    };
    Ok(())
}

/// The refusal of a line that is no standing order: the list of them that
/// ruleset `version` reads.
fn unknown(l: &SourceLine, roman: bool, version: u32) -> OrderError {
    if version >= 15 {
        let all = if roman {
            "standing orders are: rally HEX|none, sponsor N, deficit [HEX...] [tax HEX...]..., salt treachery N, salt diplomacy N, resalt N, prefer HEX..., tsnp N, shift N, agents yes|no, beseech [own|enemy] KIND FACE...|never, discard N..."
        } else {
            "standing orders are: rally HEX|none, revolt HEX..., tsnp N, shift N, beseech [own|enemy] KIND FACE...|never, discard N..."
        };
        return OrderError::at(l, format!("{all}, {UNSTACK_USAGE}"));
    }
    let all = "standing orders are: rally HEX|none, sponsor N, deficit [HEX...] [tax HEX...]..., salt treachery N, salt diplomacy N, resalt N, revolt HEX..., prefer HEX..., tsnp N, shift N, agents yes|no, beseech [own|enemy] KIND FACE...|never, discard N...";
    if version >= 9 {
        OrderError::at(l, format!("{all}, {UNSTACK_USAGE}"))
    } else {
        OrderError::at(l, all)
    }
}

/// The standing orders as text (the player's own view), with the questions
/// ruleset `version` may put to him (`roman`: the Roman's).
pub fn show(d: &Data, s: &Standing, roman: bool, version: u32) -> Vec<String> {
    let mut v = vec![
        format!(
            "rally {} (retreats, 13.12; N1)",
            s.rally.map_or("none".to_string(), |h| h.to_string())
        ),
        format!(
            "sponsor {} (Bread & Circuses: sponsor with at least this many TP, else refuse; N5)",
            s.sponsor_at
        ),
        format!(
            "salt treachery {} / salt diplomacy {} (negative salt, 8.8; N4)",
            s.salt_treachery, s.salt_diplomacy
        ),
        format!(
            "resalt {} (new salt on a roll done again by Beseech the Gods, 8.8)",
            s.resalt
        ),
        format!(
            "revolt {} (the hex of a refused Bread & Circuses' rebel garrison; N6)",
            if s.revolt.is_empty() {
                "richest".to_string()
            } else {
                s.revolt
                    .iter()
                    .map(|h| h.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        ),
        format!(
            "prefer {} (cavalry and emperor placement; N8, N9)",
            if s.prefer.is_empty() {
                "none".to_string()
            } else {
                s.prefer
                    .iter()
                    .map(|h| h.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        ),
        format!(
            "tsnp {} (They Shall Not Pass when attacked at {}:1 or more; N2)",
            s.tsnp_at, s.tsnp_at
        ),
        format!(
            "agents {} (Agents in Enemy Camp against treachery on the emperor; N4)",
            if s.agents { "yes" } else { "no" }
        ),
        format!(
            "shift {} (Flanking Move or Inspired Subordinates for the defence at {}:1 or more, 0 never; N2)",
            s.shift_at, s.shift_at
        ),
        format!(
            "discard {} (chits put back first when over the hand limit; R-G8)",
            if s.discard.is_empty() {
                "lowest".to_string()
            } else {
                s.discard
                    .iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        ),
    ];
    v.push(format!(
        "deficit {} (covering a deficit: demobilize in these hexes, tax those; 6.10, N7)",
        if s.deficit.is_empty() {
            "none (pairs from the largest leaderless stacks farthest from the enemy)".to_string()
        } else {
            s.deficit
                .iter()
                .map(|c| c.show())
                .collect::<Vec<_>>()
                .join(" ")
        }
    ));
    v.extend(show_unstack(&s.unstack, |u| d.uid(u).to_string()));
    if s.beseech.is_empty() {
        v.push("beseech never (Beseech the Gods is not played; N3)".into());
    }
    v.extend(s.beseech.iter().map(|r| super::beseech::show(d, r)));
    // Each side sees only the standing orders it can give (the Roman's
    // salt, sponsoring and placements; the Germano-Parthian's revolt hex).
    v.retain(|line| {
        let key = line.split_whitespace().next().unwrap_or_default();
        if roman {
            !GP_ONLY.contains(&key)
        } else {
            !ROMAN_ONLY.contains(&key)
        }
    });
    if version >= 9 {
        v.push(asked(s, roman, version));
    }
    v
}

/// Standing orders only the Roman gives (8.8, 14.3, 14.4, 6.10; N4, N5, N7-N9).
const ROMAN_ONLY: &[&str] = &["sponsor", "salt", "resalt", "prefer", "agents", "deficit"];

/// Standing orders only the Germano-Parthian gives (14.3; N6).
const GP_ONLY: &[&str] = &["revolt"];

/// From version 15 the Germano-Parthian's standing order that only the
/// Roman's decisions read is refused: it would be kept and never used.
fn roman_only(key: &str) -> Option<(&'static str, &'static str)> {
    Some(match key {
        "sponsor" => (
            "only the Roman player decides whether Rome sponsors Bread & Circuses",
            "14.3; N5",
        ),
        "salt" => ("only the Roman player may salt", "8.8"),
        "agents" => (
            "the `agents` standing order is the Roman's, against treachery on the emperor; yours is played with your own roll's order (`treachery ... with 17`)",
            "14.3; N4",
        ),
        "prefer" => (
            "only the Roman player places drawn cavalry and a new emperor",
            "14.3, 14.4; N8, N9",
        ),
        _ => return None,
    })
}

/// Which decisions the player is asked about when they are real, and which
/// his stated orders answer (digest 2.7; versions 9 to 11).
fn asked(s: &Standing, roman: bool, version: u32) -> String {
    let v10 = version >= 10;
    let v11 = version >= 11;
    let prefer = if v11 {
        "drawn cavalry's and a new emperor's hex (prefer)"
    } else {
        "drawn cavalry's hex (prefer)"
    };
    let all = [
        (true, s.rally_given, "retreat (rally)"),
        (v10, s.react_given, "reaction chits (tsnp, shift)"),
        (v10 && roman, s.salt_given, "negative salt (salt, agents)"),
        (
            v10 && roman,
            s.sponsor_given,
            "sponsoring the games (sponsor)",
        ),
        (!roman, !s.revolt.is_empty(), "the revolt hex (revolt)"),
        (roman, !s.prefer.is_empty(), prefer),
        (
            v11 && roman,
            s.unstack_given,
            "emergency unstacking (unstack)",
        ),
        (
            v11 && roman,
            s.deficit_given,
            "covering a deficit (deficit)",
        ),
    ];
    let list = |given: bool| {
        let v: Vec<&str> = all
            .iter()
            .filter(|(open, g, _)| *open && *g == given)
            .map(|(_, _, w)| *w)
            .collect();
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    format!(
        "questions: you are asked, when the choice is real, about {}; your stated orders answer {} (digest 2.7)",
        list(false),
        list(true)
    )
}

/// The `unstack` lines as text (10.7; N10).
fn show_unstack(u: &Unstack, uid: impl Fn(super::data::UnitId) -> String) -> Vec<String> {
    let hexes = |v: &[Hex]| {
        v.iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut v = vec![if u.to.is_empty() {
        "unstack default (a stack over the limit: the highest ids leave, by the retreat doctrine; 10.7, N10)".to_string()
    } else {
        format!(
            "unstack to {} (then the retreat doctrine; 10.7, N10)",
            hexes(&u.to)
        )
    }];
    for a in &u.at {
        let mut line = format!("unstack at {}", a.hex);
        if !a.keep.is_empty() {
            let ids: Vec<String> = a.keep.iter().map(|x| uid(*x)).collect();
            line += &format!(" keep {}", ids.join(","));
        }
        if !a.to.is_empty() {
            line += &format!(" to {}", hexes(&a.to));
        }
        v.push(line);
    }
    v
}
