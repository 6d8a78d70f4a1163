//! "Did you mean …?": the nearest known word to a mistyped one, for order
//! errors ("no unit ds.c3; did you mean ds.c2?").

/// Edit distance (insertions, deletions, substitutions, and a swap of two
/// neighbours counting one), case-insensitive.
pub fn distance(a: &str, b: &str) -> usize {
    let a = lower(a);
    let b = lower(b);
    Rows::default()
        .within(&a, &b, usize::MAX)
        .unwrap_or(usize::MAX)
}

/// The candidate nearest to `word`, if one is near enough to be a typo (at
/// most one edit in four characters, at least one); the first of equals.
///
/// A refusal is free to send, so this stays cheap on hostile input: a
/// candidate whose length alone puts it out of reach is skipped, and a
/// distance stops as soon as it passes the best so far.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let w = lower(word);
    let limit = (word.chars().count() / 4).max(1);
    let mut rows = Rows::default();
    let mut other = Vec::new();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let bound = best.map_or(limit, |(b, _)| b - 1);
        other.clear();
        other.extend(c.chars().flat_map(char::to_lowercase));
        if other.len().abs_diff(w.len()) > bound {
            continue;
        }
        if let Some(d) = rows.within(&w, &other, bound) {
            best = Some((d, c));
            if d == 0 {
                break;
            }
        }
    }
    best.map(|(_, c)| c)
}

fn lower(s: &str) -> Vec<char> {
    s.chars().flat_map(char::to_lowercase).collect()
}

/// The three rows of the edit-distance table, kept between candidates.
#[derive(Default)]
struct Rows {
    prev2: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

impl Rows {
    /// The distance of `a` and `b` if it is at most `bound`.
    fn within(&mut self, a: &[char], b: &[char], bound: usize) -> Option<usize> {
        let n = b.len();
        self.prev2.clear();
        self.prev2.resize(n + 1, usize::MAX / 2);
        self.prev.clear();
        self.prev.extend(0..=n);
        for i in 1..=a.len() {
            self.cur.clear();
            self.cur.resize(n + 1, i);
            for j in 1..=n {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut d = (self.prev[j] + 1)
                    .min(self.cur[j - 1] + 1)
                    .min(self.prev[j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d = d.min(self.prev2[j - 2] + 1);
                }
                self.cur[j] = d;
            }
            // Every later cell is at least one of these two rows' least
            // (plus one for the older): past the bound, no need to go on.
            let low = self.cur.iter().min().copied().unwrap_or(0);
            let older = self.prev.iter().min().copied().unwrap_or(0);
            std::mem::swap(&mut self.prev2, &mut self.prev);
            std::mem::swap(&mut self.prev, &mut self.cur);
            if low > bound && older.saturating_add(1) > bound {
                return None;
            }
        }
        Some(self.prev[n]).filter(|d| *d <= bound)
    }
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
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn the_bounded_search_finds_what_the_plain_distance_finds() {
        let words = [
            "rg2",
            "rg12",
            "ds.c1",
            "kandahar",
            "kandhar",
            "oruzgan",
            "urozgan",
            "x",
            "",
            "pass rest",
            "pas rest",
            "ab",
            "ba",
            "abc",
            "acb",
            "DS.C1",
        ];
        for w in words {
            let limit = (w.chars().count() / 4).max(1);
            let mut want: Option<(usize, &str)> = None;
            for c in words {
                let d = distance(w, c);
                if d <= limit && want.is_none_or(|(b, _)| d < b) {
                    want = Some((d, c));
                }
            }
            assert_eq!(closest(w, words), want.map(|(_, c)| c), "{w}");
        }
    }

    #[test]
    fn a_long_hostile_word_is_answered_at_once() {
        let word = "x".repeat(60_000);
        let ids: Vec<String> = (0..2000).map(|i| format!("unit{i}")).collect();
        let t = std::time::Instant::now();
        assert_eq!(closest(&word, ids.iter().map(String::as_str)), None);
        assert!(t.elapsed() < std::time::Duration::from_secs(1));
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
