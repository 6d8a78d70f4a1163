//! A roll's label in words: the record keeps `fire a+b -> c`, `charge a ->
//! c`, `attack 0807: attacker` and `retreat check Du Song`; mails show
//! "fire of a and b at c (7.1)" beside it.

/// Units joined by `+` in a label, as a list in words.
fn units(s: &str) -> String {
    let us: Vec<&str> = s.split('+').map(str::trim).collect();
    match us.as_slice() {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The words for `label`; a label of no known form reads as it is.
pub fn words(label: &str) -> String {
    if let Some(rest) = label.strip_prefix("fire ")
        && let Some((by, at)) = rest.split_once(" -> ")
    {
        return format!("fire of {} at {at} (7.1)", units(by));
    }
    if let Some(rest) = label.strip_prefix("charge ")
        && let Some((by, at)) = rest.split_once(" -> ")
    {
        return format!("charge of {} at {at} (7.2)", units(by));
    }
    if let Some(rest) = label.strip_prefix("attack ")
        && let Some((hex, who)) = rest.split_once(": ")
    {
        return format!("attack at {hex}, the {who}'s die (7.3)");
    }
    if let Some(cmd) = label.strip_prefix("retreat check ") {
        return format!("retreat check of {cmd}'s command (7.6)");
    }
    label.to_string()
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn labels_read_as_words() {
        assert_eq!(words("fire a1+a2 -> b3"), "fire of a1 and a2 at b3 (7.1)");
        assert_eq!(words("charge h1 -> m2"), "charge of h1 at m2 (7.2)");
        assert_eq!(
            words("attack 0807: defender"),
            "attack at 0807, the defender's die (7.3)"
        );
        assert_eq!(
            words("retreat check Du Song"),
            "retreat check of Du Song's command (7.6)"
        );
        assert_eq!(words("something else"), "something else");
    }
}
