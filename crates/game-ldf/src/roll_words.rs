//! A roll's label in words: the record keeps labels such as
//! `t1/a0/german-cf-t1` (turn, action, the roll's kind and what it is for);
//! mails show "German combat factor of tribe t1, turn 1, 0 actions into the
//! game" beside it.

/// The words of one kind of roll, as [`crate::beseech::KINDS`] names the
/// label's start, with the rule where the rules name one.
fn kind_words(what: &str) -> String {
    let rest = |k: &str| what.strip_prefix(k).unwrap_or("").trim_start_matches('-');
    match crate::beseech::kind(what) {
        "german-cf" => format!("German combat factor of tribe {} (2.6)", rest("german-cf")),
        "combat" => "combat result".into(),
        "conversion" => format!("conversion, roll {}", rest("conversion")),
        "rebel-coemperor" => "rebel co-emperor attempt (8.7)".into(),
        "rebel-in-rome" => "rebel in Rome".into(),
        "emperor-table" if what == "emperor-table-tp" => "Emperor table, its TP".into(),
        "emperor-table" => "Emperor table".into(),
        "gods-bored" => "whether the gods are bored (5.4)".into(),
        "bread-circuses" => "Bread and Circuses, the games' cost".into(),
        "persecutions" => "Persecutions, their cost".into(),
        "plague" => "Plague".into(),
        "german-increase" => "German increase, tribes returning".into(),
        "windfall" => "Revenue Windfall (14.3)".into(),
        "jaws" => "Jaws of Death".into(),
        "cavalry-reserve" => "cavalry reserve".into(),
        "parthian-recovery" => "Parthian recovery".into(),
        // Diplomacy and treachery labels are words already
        // ("diplomacy with Palmyra").
        _ if what == "draw" => "draw from the pool of chits and tribes".into(),
        _ => what.replace('-', " "),
    }
}

/// `t{turn}`/`a{actions}` as words, if `t` and `a` are such. The count is of
/// the actions taken in the whole game before the roll (`State::seq`), not
/// within the turn: "turn 2 action 3" read as the turn's third action.
fn when(t: &str, a: &str) -> Option<String> {
    let turn = t.strip_prefix('t')?.parse::<u32>().ok()?;
    let actions = a.strip_prefix('a')?.parse::<u32>().ok()?;
    let s = if actions == 1 { "" } else { "s" };
    Some(format!("turn {turn}, {actions} action{s} into the game"))
}

/// The words for `label`: the roll's kind and object, when in the game, and
/// whether Beseech the Gods had it rolled again.
pub fn words(label: &str) -> String {
    let parts: Vec<&str> = label.split('/').collect();
    let (when, rest) = match parts.as_slice() {
        [t, a, rest @ ..] if !rest.is_empty() => match when(t, a) {
            Some(w) => (Some(w), rest),
            None => (None, &parts[..]),
        },
        _ => (None, &parts[..]),
    };
    let (rest, again) = match rest {
        [r @ .., "reroll"] if !r.is_empty() => (r, true),
        r => (r, false),
    };
    let mut t = rest
        .iter()
        .map(|w| kind_words(w))
        .collect::<Vec<_>>()
        .join(", ");
    if let Some(w) = when {
        t.push_str(&format!(", {w}"));
    }
    if again {
        t.push_str(", rolled again by Beseech the Gods (14.3)");
    }
    t
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn labels_read_as_words() {
        assert_eq!(
            words("t1/a0/german-cf-t1"),
            "German combat factor of tribe t1 (2.6), turn 1, 0 actions into the game"
        );
        assert_eq!(
            words("t2/a5/combat/reroll"),
            "combat result, turn 2, 5 actions into the game, rolled again by Beseech the Gods (14.3)"
        );
        assert_eq!(
            words("t3/a1/gods-bored"),
            "whether the gods are bored (5.4), turn 3, 1 action into the game"
        );
        assert_eq!(
            words("t1/a2/draw"),
            "draw from the pool of chits and tribes, turn 1, 2 actions into the game"
        );
        assert_eq!(
            words("t1/a2/diplomacy with Palmyra"),
            "diplomacy with Palmyra, turn 1, 2 actions into the game"
        );
        // Whatever else a label holds reads as it is, never lost.
        assert_eq!(words("setup"), "setup");
    }
}
