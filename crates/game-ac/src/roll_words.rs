//! A roll's label in words. Asia Crossroads' labels are words already, each
//! with its rule ("combat at 2314 (14.1(5))", "discovery by Moorcroft, tens
//! die (32.1)"); what is left is a label's `_` joining words of an id.

/// The words for `label`: as it is, an id's underscores read as blanks.
pub fn words(label: &str) -> String {
    label.replace('_', " ")
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn labels_read_as_words() {
        let combat = "combat at 2314 (14.1(5))";
        assert_eq!(words(combat), combat);
        assert_eq!(
            words("capture check, trading_post (16.41)"),
            "capture check, trading post (16.41)"
        );
    }
}
