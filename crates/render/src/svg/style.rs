//! Colours: terrain from what the board's legend says a glyph means, sides
//! from where their letter stands in the legend. Nothing here knows a game.

use umpire_core::board::{Board, Legend};

/// Colour of the lines between cells.
pub const GRID: &str = "#7a7a7a";
/// Background outside the map.
pub const PAPER: &str = "#f4f1e8";
/// Ink for names and labels.
pub const INK: &str = "#222222";
/// The outline of the last action's places.
pub const HIGHLIGHT: &str = "#e4007c";

/// Ink that reads on a `fill` (`#rrggbb`): white on dark colours, [`INK`] on light ones.
pub fn ink_on(fill: &str) -> &'static str {
    let channel = |i: usize| {
        fill.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .map_or(0.0, f64::from)
    };
    // Relative luminance weights (ITU-R BT.709), on the 0-255 scale.
    let y = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
    if y > 150.0 { INK } else { "#ffffff" }
}

/// About how wide `text` is at `size` px in the map font (DejaVu Sans), for
/// laying out labels before they are drawn: the font's mean advance of
/// lower-case text is near 0.6 em, capitals and digits a little more.
pub fn text_width(text: &str, size: f64) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'l' | 'j' | '\'' | '.' | ',' | ':' | ' ' | '!' | '|' => 0.32,
            'f' | 't' | 'r' | '(' | ')' => 0.42,
            'm' | 'w' | 'M' | 'W' => 0.92,
            c if c.is_uppercase() || c.is_ascii_digit() => 0.68,
            _ => 0.6,
        })
        .sum();
    em * size
}

/// Counter colours by the names games give them ([`Unit::colour`]), in shades
/// that keep white or black text readable.
///
/// [`Unit::colour`]: umpire_core::board::Unit::colour
const NAMED: [(&str, &str); 14] = [
    ("red", "#c8102e"),
    ("blue", "#1f4e9e"),
    ("light blue", "#6fa8dc"),
    ("green", "#2e7d32"),
    ("orange", "#e8710a"),
    ("pink", "#e27fb0"),
    ("gold", "#d4a017"),
    ("yellow", "#f2d600"),
    ("white", "#f7f7f2"),
    ("black", "#222222"),
    ("grey", "#8d8d8d"),
    ("brown", "#5d4037"),
    ("purple", "#6a1b9a"),
    ("tan", "#c8a97e"),
];

/// The colour of a counter colour's name, if it is one umpire knows.
pub fn named(name: &str) -> Option<&'static str> {
    NAMED
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
        .map(|(_, c)| *c)
}

/// Side colours, picked to be told apart on any terrain (and by colour-blind players
/// as far as eight colours allow).
const SIDES: [&str; 8] = [
    "#c8102e", // red
    "#1f4e9e", // blue
    "#2e7d32", // green
    "#f2a900", // amber
    "#6a1b9a", // purple
    "#00838f", // teal
    "#5d4037", // brown
    "#37474f", // slate
];

/// Terrain colours by a word in the legend's meaning, first match wins.
const TERRAIN: [(&str, &str); 17] = [
    ("sea", "#9cc3e6"),
    ("lake", "#9cc3e6"),
    ("water", "#9cc3e6"),
    ("ocean", "#9cc3e6"),
    ("marsh", "#b6d3c2"),
    ("swamp", "#b6d3c2"),
    ("mountain", "#b39b7d"),
    ("hill", "#d8c59a"),
    ("rough", "#d8c59a"),
    ("forest", "#9dc48b"),
    ("wood", "#9dc48b"),
    ("jungle", "#86b57a"),
    ("desert", "#efe0a8"),
    ("city", "#d0cbc4"),
    ("town", "#d9d4cc"),
    ("village", "#e3ddd3"),
    ("clear", "#eef0d8"),
];

/// Colours of a board: terrain glyphs and side letters resolved once.
pub struct Palette<'a> {
    legend: &'a [Legend],
    sides: Vec<char>,
}

impl<'a> Palette<'a> {
    /// The palette of a board. Side letters are ranked by first appearance as a
    /// one-letter word of the legend (`M / J` gives M then J), terrain glyphs
    /// excluded, so a side keeps its colour for the whole game.
    pub fn of(board: &'a Board, terrain: &[char]) -> Palette<'a> {
        let legend = board.legend();
        let mut sides = Vec::new();
        for l in legend {
            // A one-character line of a terrain glyph is terrain; `M / J` is sides
            // even where M is also a terrain glyph.
            let mut g = l.glyph.chars();
            if let (Some(c), None) = (g.next(), g.next())
                && terrain.contains(&c)
            {
                continue;
            }
            for w in l.glyph.split(|c: char| !c.is_alphanumeric()) {
                let mut cs = w.chars();
                if let (Some(c), None) = (cs.next(), cs.next())
                    && c.is_alphabetic()
                    && !sides.contains(&c)
                {
                    sides.push(c);
                }
            }
        }
        Palette { legend, sides }
    }

    /// Whether the legend names `c` as a side's letter.
    pub fn is_side(&self, c: char) -> bool {
        self.sides.contains(&c)
    }

    /// A side's colour (letters the legend does not name follow in letter order).
    pub fn side(&self, c: char) -> &'static str {
        let i = match self.sides.iter().position(|s| *s == c) {
            Some(i) => i,
            None => self.sides.len() + (c as usize % SIDES.len()),
        };
        SIDES[i % SIDES.len()]
    }

    /// A function giving each terrain glyph's colour ([`Palette::terrain`]),
    /// each glyph's found once: for a map's every cell.
    pub fn terrains(&self) -> impl FnMut(char) -> &'static str + '_ {
        let mut known: Vec<(char, &'static str)> = Vec::new();
        move |glyph| match known.iter().find(|(g, _)| *g == glyph) {
            Some((_, c)) => c,
            None => {
                let c = self.terrain(glyph);
                known.push((glyph, c));
                c
            }
        }
    }

    /// A terrain glyph's colour, from the words of its legend line.
    pub fn terrain(&self, glyph: char) -> &'static str {
        let meaning = self
            .legend
            .iter()
            .find(|l| l.glyph.chars().eq(std::iter::once(glyph)))
            .map(|l| l.meaning.to_ascii_lowercase())
            .unwrap_or_default();
        // The first word of the meaning names the terrain; later words are rules.
        let head: String = meaning.split([':', '(', ',']).next().unwrap_or("").into();
        TERRAIN
            .iter()
            .find(|(w, _)| head.contains(w))
            .or_else(|| TERRAIN.iter().find(|(w, _)| meaning.contains(w)))
            .map(|(_, c)| *c)
            .unwrap_or(match glyph {
                '~' | 'w' => "#9cc3e6",
                '^' => "#d8c59a",
                'M' | 'm' => "#b39b7d",
                'f' | 'F' | '&' => "#9dc48b",
                _ => "#eef0d8",
            })
    }
}

/// A light tint of a side colour for control (mixes `#rrggbb` with white).
pub fn tint(colour: &str) -> String {
    let v = u32::from_str_radix(colour.trim_start_matches('#'), 16).unwrap_or(0x808080);
    let mix = |shift: u32| {
        let c = (v >> shift) & 0xff;
        (c + 3 * 255) / 4
    };
    format!("#{:02x}{:02x}{:02x}", mix(16), mix(8), mix(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_core::board::HexBoard;

    #[test]
    fn sides_rank_by_the_legend_and_terrain_by_its_words() {
        let mut b = HexBoard::default();
        b.legend
            .push(Legend::new("f", "forest (elevation 0): 2 MP"));
        b.legend.push(Legend::new("M", "mountain: 3 MP"));
        b.legend.push(Legend::new("J / K", "Jurchen / Korea"));
        let board = Board::Hex(b);
        let p = Palette::of(&board, &['f', 'M', 'J']);
        assert_eq!(p.side('J'), SIDES[0]);
        assert_eq!(p.side('K'), SIDES[1]);
        assert_eq!(p.terrain('f'), "#9dc48b");
        assert_eq!(p.terrain('M'), "#b39b7d");
        assert_eq!(tint("#000000"), "#bfbfbf");
    }
}
