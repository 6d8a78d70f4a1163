//! Words for the narration and the prompts: counts with their nouns in the
//! right number.

/// `n` with its noun: `1 tribe`, `0 tribes`, `3 tribes`.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// [`counted`] from version 15; earlier versions wrote the plural
/// whatever the count (`1 units`), and replay so.
pub fn counted_at(version: u32, n: usize, one: &str, many: &str) -> String {
    if version >= 15 {
        counted(n, one, many)
    } else {
        format!("{n} {many}")
    }
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "tribe", "tribes"), "1 tribe");
        assert_eq!(counted(0, "gund", "gunds"), "0 gunds");
        assert_eq!(counted(2, "chit", "chits"), "2 chits");
    }
}
