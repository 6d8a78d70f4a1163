//! Text helpers shared by the map renderers: folding input to printable
//! ASCII, number labels, wrapping, and the block-by-block output.

/// Folds `s` to printable ASCII.
///
/// Mail clients and fonts disagree about anything else, and the map's columns
/// only line up if every character is one column wide. Common accented Latin
/// letters and typographic quotes lose their accents (so `Küstrin` stays
/// readable as `Kustrin`); whitespace becomes a space; anything else is `?`.
pub(crate) fn ascii(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        fold(ch, &mut out);
    }
    out
}

/// One printable ASCII byte for a single-character glyph; control characters
/// (including the `'\0'` of `Cell::default()`) and spaces are shown as a space.
pub(crate) fn glyph(ch: char) -> u8 {
    if ch.is_whitespace() || ch.is_control() {
        return b' ';
    }
    let mut s = String::new();
    fold(ch, &mut s);
    s.bytes().next().unwrap_or(b'?')
}

fn fold(ch: char, out: &mut String) {
    if ch.is_ascii_graphic() || ch == ' ' {
        out.push(ch);
        return;
    }
    if ch.is_whitespace() || ch.is_control() {
        out.push(' ');
        return;
    }
    let s = match ch {
        'À'..='Å' | 'Ā' | 'Ă' | 'Ą' => "A",
        'à'..='å' | 'ā' | 'ă' | 'ą' => "a",
        'Æ' => "AE",
        'æ' => "ae",
        'Ç' | 'Ć' | 'Č' => "C",
        'ç' | 'ć' | 'č' => "c",
        'Ď' | 'Đ' => "D",
        'ď' | 'đ' => "d",
        'È'..='Ë' | 'Ē' | 'Ė' | 'Ę' | 'Ě' => "E",
        'è'..='ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'Ğ' => "G",
        'ğ' => "g",
        'Ì'..='Ï' | 'Ī' | 'İ' => "I",
        'ì'..='ï' | 'ī' | 'ı' => "i",
        'Ł' => "L",
        'ł' => "l",
        'Ñ' | 'Ń' | 'Ň' => "N",
        'ñ' | 'ń' | 'ň' => "n",
        'Ò'..='Ö' | 'Ø' | 'Ō' | 'Ő' => "O",
        'ò'..='ö' | 'ø' | 'ō' | 'ő' => "o",
        'Œ' => "OE",
        'œ' => "oe",
        'Ř' => "R",
        'ř' => "r",
        'Ś' | 'Š' | 'Ş' => "S",
        'ś' | 'š' | 'ş' => "s",
        'ß' => "ss",
        'Ť' | 'Ţ' => "T",
        'ť' | 'ţ' => "t",
        'Ù'..='Ü' | 'Ū' | 'Ů' | 'Ű' => "U",
        'ù'..='ü' | 'ū' | 'ů' | 'ű' => "u",
        'Ý' | 'Ÿ' => "Y",
        'ý' | 'ÿ' => "y",
        'Ź' | 'Ż' | 'Ž' => "Z",
        'ź' | 'ż' | 'ž' => "z",
        '\u{2018}' | '\u{2019}' | '\u{2032}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{2033}' => "\"",
        '\u{2010}'..='\u{2015}' | '\u{2212}' => "-",
        '\u{2026}' => "...",
        '\u{00B7}' | '\u{2022}' => ".",
        _ => "?",
    };
    out.push_str(s);
}

/// A row or column number as printed in hex labels: at least two digits.
pub(crate) fn num(n: i64) -> String {
    format!("{n:02}")
}

/// The printed `CCRR` label of a hex, as `core::hex::Hex` prints it.
pub(crate) fn label(col: i64, row: i64) -> String {
    format!("{col:02}{row:02}")
}

/// Cuts `s` to at most `width` columns. Callers pass ASCII, where bytes are
/// columns; the boundary search only keeps a stray multi-byte input from panicking.
pub(crate) fn cut(s: &str, width: usize) -> &str {
    &s[..floor(s, width)]
}

/// The largest char boundary of `s` at or below `i`.
fn floor(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Shortens a place name to `width` columns, marking the cut with a `.` so the
/// reader knows to look for the full name under the map.
pub(crate) fn shorten(s: &str, width: usize) -> String {
    if s.len() <= width {
        return s.to_string();
    }
    if width < 2 {
        return cut(s, width).to_string();
    }
    let mut head = cut(s, width - 1).trim_end().to_string();
    head.push('.');
    head
}

/// Lays out `items` after `prefix`, separated by `sep`, in lines of at most
/// `width` columns; continuation lines are indented to line up under the first
/// item. An item is kept on one line when it fits on a line at all; words
/// longer than a line are split, so every line fits whatever the input.
pub(crate) fn wrap(prefix: &str, items: &[String], sep: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let (mut line, indent) = if prefix.len() < width {
        (prefix.to_string(), prefix.len())
    } else {
        // A prefix as wide as the page goes on its own lines; items start flush left.
        lines.extend(split_hard(prefix.trim_end(), width));
        (String::new(), 0)
    };
    let pad = " ".repeat(indent);
    let avail = width - indent;
    for item in items.iter().map(|s| s.trim()).filter(|s| !s.is_empty()) {
        if line.len() > indent && line.len() + sep.len() + item.len() > width && item.len() <= avail
        {
            // Keep the item whole: start it on a fresh line.
            lines.push(std::mem::replace(&mut line, pad.clone()));
        }
        for (k, word) in item.split(' ').filter(|w| !w.is_empty()).enumerate() {
            let glue = match (line.len() == indent, k) {
                (true, _) => "",
                (false, 0) => sep,
                (false, _) => " ",
            };
            if line.len() + glue.len() + word.len() <= width {
                line.push_str(glue);
                line.push_str(word);
                continue;
            }
            if line.len() > indent {
                lines.push(std::mem::replace(&mut line, pad.clone()));
            }
            let mut rest = word;
            while rest.len() > avail {
                let at = floor(rest, avail).max(1);
                let at = (at..=rest.len())
                    .find(|i| rest.is_char_boundary(*i))
                    .unwrap_or(rest.len());
                let (head, tail) = rest.split_at(at);
                line.push_str(head);
                lines.push(std::mem::replace(&mut line, pad.clone()));
                rest = tail;
            }
            line.push_str(rest);
        }
    }
    if line.len() > indent {
        lines.push(line);
    }
    lines
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

fn split_hard(s: &str, width: usize) -> Vec<String> {
    s.as_bytes()
        .chunks(width.max(1))
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect()
}

/// The output being assembled: blocks separated by one blank line, every line
/// cut to the width and stripped of trailing spaces.
pub(crate) struct Out {
    width: usize,
    lines: Vec<String>,
}

impl Out {
    pub(crate) fn new(width: usize) -> Out {
        Out {
            width,
            lines: Vec::new(),
        }
    }

    /// Adds a block, after a blank line unless it is the first.
    pub(crate) fn block(&mut self, lines: Vec<String>) {
        if lines.is_empty() {
            return;
        }
        if !self.lines.is_empty() {
            self.lines.push(String::new());
        }
        self.lines(lines);
    }

    /// Adds lines to the current block.
    pub(crate) fn lines(&mut self, lines: Vec<String>) {
        self.lines.extend(lines);
    }

    pub(crate) fn finish(self) -> String {
        let mut s = String::new();
        for l in self.lines {
            // Everything was made ASCII on the way in; this is the last guard
            // for the width promise and against stray bytes.
            let l = ascii(&l);
            s.push_str(cut(&l, self.width).trim_end());
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_to_ascii() {
        assert_eq!(ascii("Küstrin"), "Kustrin");
        assert_eq!(ascii("Straße"), "Strasse");
        assert_eq!(ascii("m3\u{2019}"), "m3'");
        assert_eq!(ascii("a\tb\nc"), "a b c");
        assert_eq!(ascii("長安"), "??");
        assert_eq!(glyph('\0'), b' ');
        assert_eq!(glyph('ß'), b's');
        assert_eq!(glyph('▲'), b'?');
    }

    #[test]
    fn shortens_with_a_mark() {
        assert_eq!(shorten("Hetuala", 10), "Hetuala");
        assert_eq!(shorten("Grossbeerenberg", 10), "Grossbeer.");
        assert_eq!(shorten("Mont Saint Michel", 10), "Mont Sain.");
        assert_eq!(shorten("Big Hill", 1), "B");
    }

    #[test]
    fn wraps_items_whole_and_words_hard() {
        let items: Vec<String> = ["^ hill", "f forest", "~ river (hexside)"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            wrap("Key: ", &items, "   ", 30),
            ["Key: ^ hill   f forest", "     ~ river (hexside)"]
        );
        let long = vec!["x".repeat(25)];
        let lines = wrap("Key: ", &long, "   ", 12);
        assert!(lines.iter().all(|l| l.len() <= 12), "{lines:?}");
        assert_eq!(
            lines.concat().replace(' ', "").replace("Key:", ""),
            "x".repeat(25)
        );
        assert_eq!(wrap("Stacks: ", &[], " ", 10), Vec::<String>::new());
    }
}
