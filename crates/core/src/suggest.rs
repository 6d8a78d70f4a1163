//! "Did you mean …?": the nearest known word to a mistyped one, for order
//! errors ("no unit ds.c3; did you mean ds.c2?").

/// Edit distance (insertions, deletions, substitutions, and a swap of two
/// neighbours counting one), case-insensitive.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut prev2: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(prev2[j - 2] + 1);
            }
        }
        prev2 = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

/// The candidate nearest to `word`, if one is near enough to be a typo (at
/// most one edit in four characters, at least one); the first of equals.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 4).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = distance(word, c);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// `"; did you mean X?"` for the nearest candidate, or nothing.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> String {
    closest(word, candidates)
        .map(|c| format!("; did you mean {c}?"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("ds.c3", "ds.c2"), 1);
        assert_eq!(distance("ds.c3", "DS.C3"), 0);
        assert_eq!(distance("ds.ic", "ds.ci"), 1);
        assert_eq!(distance("", "abc"), 3);
    }

    #[test]
    fn the_nearest_typo_is_suggested_and_far_words_are_not() {
        let ids = ["ds.c1", "ds.c2", "ds.i1"];
        assert_eq!(closest("ds.c3", ids), Some("ds.c1"));
        assert_eq!(closest("zz.q9", ids), None);
        assert_eq!(
            did_you_mean("ds.i2", ["ds.c1", "ds.i1"]),
            "; did you mean ds.i1?"
        );
    }
}
