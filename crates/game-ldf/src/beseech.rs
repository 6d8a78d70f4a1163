//! Beseech the Gods (chit 2, 14.3): "play this at any time, immediately after
//! any die roll by either player. That die roll is rolled again, and that
//! second result must be the one that's implemented." The holder answers by
//! standing order (digest N3): `beseech [own|enemy] KIND FACE…` asks for a
//! reroll when a roll of that kind comes up one of those results, in his own
//! actions, the other's, or both. The result is the one that counts, the die
//! with its modifiers (8.8: the reroll follows a salted roll that "fails",
//! so the players decide on the modified outcome). The default is never to
//! play it.

use super::combat::step_name;
use super::data::{Data, UnitId};
use super::state::{Player, State};
use serde::{Deserialize, Serialize};

/// The kinds of roll a standing order can name, as the roll labels begin.
pub const KINDS: [&str; 17] = [
    "combat",
    "german-cf",
    "diplomacy",
    "treachery",
    "conversion",
    "rebel-coemperor",
    "rebel-in-rome",
    "emperor-table",
    "gods-bored",
    "bread-circuses",
    "persecutions",
    "plague",
    "german-increase",
    "windfall",
    "jaws",
    "cavalry-reserve",
    "parthian-recovery",
];

/// Whose rolls a rule covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Whose {
    /// Rolls made in the holder's own orders.
    Own,
    /// Rolls made in the other player's orders.
    Enemy,
    /// Either.
    Any,
}

/// One `beseech` line: reroll a roll of `kind` showing one of `faces`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rule {
    /// Whose rolls.
    pub whose: Whose,
    /// The roll kind (one of [`KINDS`], or `any`).
    pub kind: String,
    /// The results that call for a reroll: the result as it counts, the die
    /// with its modifiers (German combat factor 2-7, Windfall 4-9, a salted
    /// diplomacy roll's net 1-6; 14.3, 8.8).
    pub faces: Vec<u32>,
    /// Only at these final odds columns (steps, as `combat::odds_step`;
    /// empty: any). A roll with no odds (all but a CRT roll) never matches.
    pub odds: Vec<i32>,
    /// Only when one of these units fights in the battle (empty: any). A
    /// roll outside a battle never matches.
    pub with: Vec<UnitId>,
}

/// What a roll is about, as far as a rule can ask: the battle's units on
/// both sides and, for the CRT roll, its final odds step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct About {
    /// The units of both sides of the battle (empty outside one).
    pub units: Vec<UnitId>,
    /// The final odds step (after shifts) of a CRT roll.
    pub odds: Option<i32>,
}

impl Rule {
    /// Does the rule's odds and stack condition hold for this roll?
    fn fits(&self, about: &About) -> bool {
        let odds = self.odds.is_empty() || about.odds.is_some_and(|k| self.odds.contains(&k));
        let with = self.with.is_empty() || self.with.iter().any(|u| about.units.contains(u));
        odds && with
    }
}

/// The kind of a roll from its label: `german-cf-t3` is `german-cf`,
/// `treachery against the emperor` is `treachery`.
pub fn kind(what: &str) -> &'static str {
    KINDS
        .iter()
        .filter(|k| what.starts_with(*k))
        .max_by_key(|k| k.len())
        .copied()
        .unwrap_or("other")
}

/// Who plays Beseech the Gods on this roll, and which chit, if anyone's
/// standing order asks for it (only the holder of a chit with that effect).
pub fn wants(
    d: &Data,
    st: &State,
    actor: Player,
    what: &str,
    roll: u32,
    about: &About,
) -> Option<(Player, u8)> {
    let k = kind(what);
    [Player::Roman, Player::Gp].into_iter().find_map(|p| {
        let c = super::chits::holds_effect(d, st, p, "beseech")?;
        let own = p == actor;
        st.standing[p.index()]
            .beseech
            .iter()
            .any(|r| {
                let whose = match r.whose {
                    Whose::Own => own,
                    Whose::Enemy => !own,
                    Whose::Any => true,
                };
                whose
                    && (r.kind == "any" || r.kind == k)
                    && r.faces.contains(&roll)
                    && r.fits(about)
            })
            .then_some((p, c))
    })
}

/// Reads the words after `beseech`: `[own|enemy|any] KIND FACE… [at ODDS…]
/// [with UNIT…]`.
pub fn parse(d: &Data, words: &[&str]) -> Result<Rule, String> {
    let (whose, rest) = match words.first().copied() {
        Some("own") => (Whose::Own, &words[1..]),
        Some("enemy") => (Whose::Enemy, &words[1..]),
        Some("any") if words.len() > 1 && words[1].parse::<u32>().is_err() => {
            (Whose::Any, &words[1..])
        }
        _ => (Whose::Any, words),
    };
    let usage = || {
        format!(
            "beseech [own|enemy] KIND FACE...: KIND is any or one of {}",
            KINDS.join(", ")
        )
    };
    let k = rest.first().copied().ok_or_else(usage)?;
    if k != "any" && !KINDS.contains(&k) {
        return Err(usage());
    }
    let end = rest
        .iter()
        .position(|w| *w == "at" || *w == "with")
        .unwrap_or(rest.len());
    let (odds, with) = conditions(d, &rest[end..])?;
    let faces: Vec<u32> = rest[1..end]
        .iter()
        .map(|t| t.parse::<u32>().ok().filter(|f| (1..=9).contains(f)))
        .collect::<Option<_>>()
        .ok_or_else(|| "the faces are results, 1 to 9 (the die with its modifiers)".to_string())?;
    if faces.is_empty() {
        return Err(usage());
    }
    Ok(Rule {
        whose,
        kind: k.to_string(),
        faces,
        odds,
        with,
    })
}

/// Reads `at ODDS…` and `with UNIT…`, in either order.
fn conditions(d: &Data, words: &[&str]) -> Result<(Vec<i32>, Vec<UnitId>), String> {
    let (mut odds, mut with) = (Vec::new(), Vec::new());
    let mut list = "";
    for w in words {
        match *w {
            "at" | "with" => list = w,
            _ if list == "at" => {
                let (a, b) = w
                    .split_once(':')
                    .and_then(|(a, b)| Some((a.parse::<u32>().ok()?, b.parse::<u32>().ok()?)))
                    .filter(|(a, b)| *a >= 1 && *b >= 1 && (*a == 1 || *b == 1))
                    .ok_or_else(|| format!("{w:?} is not odds like 3:1 or 1:2 (13.2)"))?;
                odds.push(super::combat::odds_step(a, b));
            }
            _ => with.push(
                d.unit(w)
                    .ok_or_else(|| format!("{w:?} is not a counter (EMP, v3, t12 ...)"))?,
            ),
        }
    }
    if (words.contains(&"at") && odds.is_empty()) || (words.contains(&"with") && with.is_empty()) {
        return Err("at ODDS... and with UNIT... need at least one each".into());
    }
    Ok((odds, with))
}

/// A rule as text (the player's view of his standing orders).
pub fn show(d: &Data, r: &Rule) -> String {
    let whose = match r.whose {
        Whose::Own => "own ",
        Whose::Enemy => "enemy ",
        Whose::Any => "",
    };
    let faces: Vec<String> = r.faces.iter().map(|f| f.to_string()).collect();
    let mut cond = String::new();
    if !r.odds.is_empty() {
        let o: Vec<String> = r.odds.iter().map(|k| step_name(*k)).collect();
        cond += &format!(" at {}", o.join(" "));
    }
    if !r.with.is_empty() {
        let w: Vec<&str> = r.with.iter().map(|u| d.uid(*u)).collect();
        cond += &format!(" with {}", w.join(" "));
    }
    format!(
        "beseech {whose}{} {}{cond} (Beseech the Gods rerolls it; N3)",
        r.kind,
        faces.join(" ")
    )
}
