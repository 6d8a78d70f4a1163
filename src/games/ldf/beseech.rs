//! Beseech the Gods (chit 2, 14.3): "play this at any time, immediately after
//! any die roll by either player. That die roll is rolled again, and that
//! second result must be the one that's implemented." The holder answers by
//! standing order (digest N3): `beseech [own|enemy] KIND FACE…` asks for a
//! reroll when a roll of that kind comes up one of those results, in his own
//! actions, the other's, or both. The result is the one that counts, the die
//! with its modifiers (8.8: the reroll follows a salted roll that "fails",
//! so the players decide on the modified outcome). The default is never to
//! play it.

use super::data::Data;
use super::state::{Player, State};
use serde::Serialize;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Whose {
    /// Rolls made in the holder's own orders.
    Own,
    /// Rolls made in the other player's orders.
    Enemy,
    /// Either.
    Any,
}

/// One `beseech` line: reroll a roll of `kind` showing one of `faces`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// Whose rolls.
    pub whose: Whose,
    /// The roll kind (one of [`KINDS`], or `any`).
    pub kind: String,
    /// The results that call for a reroll: the result as it counts, the die
    /// with its modifiers (German combat factor 2-7, Windfall 4-9, a salted
    /// diplomacy roll's net 1-6; 14.3, 8.8).
    pub faces: Vec<u32>,
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
pub fn wants(d: &Data, st: &State, actor: Player, what: &str, roll: u32) -> Option<(Player, u8)> {
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
                whose && (r.kind == "any" || r.kind == k) && r.faces.contains(&roll)
            })
            .then_some((p, c))
    })
}

/// Reads the words after `beseech`: `[own|enemy|any] KIND FACE…`.
pub fn parse(words: &[&str]) -> Result<Rule, String> {
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
    let faces: Vec<u32> = rest[1..]
        .iter()
        .map(|t| t.parse::<u32>().ok().filter(|f| (1..=9).contains(f)))
        .collect::<Option<_>>()
        .ok_or_else(|| {
            "the faces are results, 1 to 9 (the die with its modifiers)".to_string()
        })?;
    if faces.is_empty() {
        return Err(usage());
    }
    Ok(Rule {
        whose,
        kind: k.to_string(),
        faces,
    })
}

/// A rule as text (the player's view of his standing orders).
pub fn show(r: &Rule) -> String {
    let whose = match r.whose {
        Whose::Own => "own ",
        Whose::Enemy => "enemy ",
        Whose::Any => "",
    };
    let faces: Vec<String> = r.faces.iter().map(|f| f.to_string()).collect();
    format!(
        "beseech {whose}{} {} (Beseech the Gods rerolls it; N3)",
        r.kind,
        faces.join(" ")
    )
}
