//! A roll's label in words. A Distant Plain's labels are sentences already
//! ("Taliban Attack in Kandahar: hits on 2 or less (3.3.3)"); the few that
//! open with their rule ("8.2: Random Spaces for …") read with the rule at
//! the end instead. The deck's ("deck: pile 1 of 4 holds 9 cards; …") read
//! as they are: words that only rephrased the prefix were printed with the
//! label after them, the same sentence twice in every mail that drew a card.

/// The words for `label`.
pub fn words(label: &str) -> String {
    // "8.2: Random Spaces …" reads "Random Spaces … (8.2)".
    if let Some((rule, rest)) = label.split_once(": ")
        && !rule.is_empty()
        && rule.chars().all(|c| c.is_ascii_digit() || c == '.')
    {
        return format!("{} ({rule})", capital(rest));
    }
    label.to_string()
}

/// `s` with its first letter in capitals.
fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn labels_read_as_words() {
        assert_eq!(
            words("8.2: Random Spaces for the Non-player Taliban, tan die (column)"),
            "Random Spaces for the Non-player Taliban, tan die (column) (8.2)"
        );
        assert_eq!(
            words("8.1: the Non-player removes in Kabul from one of a, b, at random"),
            "The Non-player removes in Kabul from one of a, b, at random (8.1)"
        );
        assert_eq!(
            words("deck: pile 1 of 4 holds 9 cards; a 1 is its Propaganda card (2.1)"),
            "deck: pile 1 of 4 holds 9 cards; a 1 is its Propaganda card (2.1)"
        );
        let attack = "Taliban Attack in Kandahar: hits on 2 or less (3.3.3)";
        assert_eq!(words(attack), attack);
    }
}
