//! The key drawn under every picture: each side's colour, each terrain on the
//! map, the counter marks in use and the last action's outline, each with the
//! words the board's own legend gives it. Nothing here knows a game: a legend
//! line is a side's when its glyph is side letters (`C`, `M / J`), terrain's
//! when it is one terrain glyph of the map; other lines (unit lists, notes)
//! belong to the text key of the mail, not to the picture.

use super::doc::{Anchor, Doc, Sprite};
use super::style::{HIGHLIGHT, INK, Palette, named, text_width};
use umpire_core::board::{Board, Unit, UnitMark};

/// Text size of the key.
const TEXT: f64 = 11.0;
/// Height of a line of the key.
const LINE: f64 = 18.0;
/// Side of a swatch.
const SWATCH: f64 = 12.0;
/// Longest text of an entry, in characters (a long note is cut with `…`).
const MAX_CHARS: usize = 64;
/// Room left around an entry in its sprite ([`Key::sprites`]): a swatch's
/// outline, accents above capitals, descenders.
const PAD: f64 = 4.0;

/// What a swatch shows.
#[derive(Debug, Clone, PartialEq)]
enum Swatch {
    Fill(&'static str),
    Mark(UnitMark),
    Outline,
}

/// One entry of the key: its swatches and its words.
#[derive(Debug, Clone, PartialEq)]
struct Entry {
    swatches: Vec<Swatch>,
    text: String,
}

impl Entry {
    /// Whether its text names `name` among the names it lists.
    fn names(&self, name: &str) -> bool {
        self.text.split(", ").any(|n| n == name)
    }

    fn width(&self) -> f64 {
        self.swatches.len() as f64 * (SWATCH + 2.0) + 4.0 + text_width(&self.text, TEXT)
    }
}

/// The side letters of a legend glyph such as `C`, `M / J` or `R / G`, if it
/// is nothing else.
fn side_letters(glyph: &str, pal: &Palette<'_>) -> Option<Vec<char>> {
    let letters: Vec<char> = glyph
        .split(" / ")
        .map(|w| {
            let mut cs = w.trim().chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) if pal.is_side(c) => Some(c),
                _ => None,
            }
        })
        .collect::<Option<_>>()?;
    (!letters.is_empty()).then_some(letters)
}

/// `text` cut to [`MAX_CHARS`]: after its last whole clause that fits (a
/// rule's note after `; ` is for the mail's text key), else after its last
/// whole word with `…`, never within a word.
fn clip(text: &str) -> String {
    let Some((i, _)) = text.char_indices().nth(MAX_CHARS) else {
        return text.to_string();
    };
    let head = &text[..i];
    if let Some(j) = head.rfind("; ") {
        return head[..j].to_string();
    }
    let word_end = if text[i..].starts_with(' ') {
        Some(i)
    } else {
        head.rfind(' ')
    };
    match word_end {
        Some(j) if j > 0 => format!("{}…", text[..j].trim_end_matches([',', ' '])),
        _ => format!("{head}…"),
    }
}

/// The key of `board` drawn with `pal`; `terrain` is the map's terrain
/// glyphs, `marks` the counter marks on it.
/// What the map's units use that the key explains: their marks, each once
/// in order, and their counter colours, each once as first met.
#[derive(Default)]
struct InUse {
    marks: Vec<UnitMark>,
    colours: Vec<String>,
}

impl InUse {
    fn of<'u>(units: impl Iterator<Item = &'u Unit>) -> InUse {
        let mut used = InUse::default();
        for u in units {
            used.marks.extend(u.marks.iter().copied());
            if let Some(c) = &u.colour
                && !used.colours.contains(c)
            {
                used.colours.push(c.clone());
            }
        }
        used.marks.sort_unstable();
        used.marks.dedup();
        used
    }
}

/// The entries of the key, in order: sides, then the counter colours that
/// belong to them, terrain, marks, the last action.
fn entries(board: &Board, pal: &Palette<'_>, terrain: &[char], used: &InUse) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for l in board.legend() {
        // A one-character line of a terrain glyph is terrain, as in the palette.
        let mut cs = l.glyph.chars();
        if let (Some(c), None) = (cs.next(), cs.next())
            && terrain.contains(&c)
        {
            continue;
        }
        if let Some(letters) = side_letters(&l.glyph, pal) {
            out.push(Entry {
                swatches: letters.iter().map(|c| Swatch::Fill(pal.side(*c))).collect(),
                text: clip(&format!("{} {}", l.glyph, l.meaning)),
            });
        }
    }
    out.extend(used.colours.iter().filter_map(|c| colour_entry(board, c)));
    let terrains = out.len();
    for l in board.legend() {
        let mut cs = l.glyph.chars();
        if let (Some(c), None) = (cs.next(), cs.next())
            && terrain.contains(&c)
        {
            // The terrain's name: its meaning up to the first rule in it. Glyphs
            // of one terrain at several elevations make one entry.
            let name = l.meaning.split([':', '(', ',']).next().unwrap_or("").trim();
            let swatch = Swatch::Fill(pal.terrain(c));
            // Terrains the map draws alike share one swatch: the key does
            // not promise a difference the map does not show.
            let alike = out[terrains..]
                .iter_mut()
                .find(|e| e.swatches == [swatch.clone()]);
            match alike {
                Some(e) if !e.names(name) => e.text = clip(&format!("{}, {name}", e.text)),
                Some(_) => {}
                None => out.push(Entry {
                    swatches: vec![swatch],
                    text: clip(name),
                }),
            }
        }
    }
    for m in &used.marks {
        if let Some(meaning) = m.meaning() {
            out.push(Entry {
                swatches: vec![Swatch::Mark(*m)],
                text: meaning.to_string(),
            });
        }
    }
    out.push(Entry {
        swatches: vec![Swatch::Outline],
        text: "the last action".to_string(),
    });
    out
}

/// The entry of a counter colour: its swatch, and the legend line that names
/// the colour in brackets (`DS Du Song, Ming command (orange), CS 2` gives
/// `DS Du Song, Ming command`), or else the colour's name.
fn colour_entry(board: &Board, colour: &str) -> Option<Entry> {
    let fill = named(colour)?;
    let tag = format!("({colour})");
    let text = board
        .legend()
        .iter()
        .find(|l| l.meaning.contains(&tag))
        .map(|l| {
            let head = l.meaning.split(&tag).next().unwrap_or("").trim_end();
            format!("{} {}", l.glyph, head.trim_end_matches(','))
        })
        .unwrap_or_else(|| colour.to_string());
    Some(Entry {
        swatches: vec![Swatch::Fill(fill)],
        text: clip(&text),
    })
}

/// Where each entry goes, flowing in lines across `width`, and the height.
/// With `whole_pixels`, every entry starts at a whole pixel, so that it
/// looks the same wherever it stands and is drawn once as a sprite
/// ([`Key::sprites`]).
fn flow(entries: &[Entry], width: f64, whole_pixels: bool) -> (Vec<(f64, f64)>, f64) {
    let (mut x, mut y) = (0.0, 0.0);
    let mut at = Vec::with_capacity(entries.len());
    for e in entries {
        let w = e.width();
        if x > 0.0 && x + w > width {
            (x, y) = (0.0, y + LINE);
        }
        at.push((x, y));
        x += w + 18.0;
        if whole_pixels {
            x = x.round();
        }
    }
    (at, y + LINE)
}

/// The key of a board, laid out for a picture `width` wide.
#[derive(Debug, Clone)]
pub struct Key {
    entries: Vec<Entry>,
    at: Vec<(f64, f64)>,
    /// Its height, a heading line included.
    pub height: f64,
}

impl Key {
    /// The key of `board` (see the module's documentation): `terrain` is the
    /// map's terrain glyphs, `units` every unit on it (for the marks in use).
    pub fn of<'u>(
        board: &Board,
        pal: &Palette<'_>,
        terrain: &[char],
        units: impl Iterator<Item = &'u Unit>,
        width: f64,
    ) -> Key {
        let entries = entries(board, pal, terrain, &InUse::of(units));
        let (at, height) = flow(&entries, width, false);
        Key {
            entries,
            at,
            height: height + 8.0,
        }
    }

    /// The same key laid out again for a picture `width` wide (a cropped
    /// picture's), each entry at a whole pixel (for [`Key::sprites`]).
    pub fn reflow(&self, width: f64) -> Key {
        let (at, height) = flow(&self.entries, width, true);
        Key {
            entries: self.entries.clone(),
            at,
            height: height + 8.0,
        }
    }

    /// Draws the key with its top left corner at `origin`.
    pub fn draw(&self, doc: &mut Doc, origin: (f64, f64)) {
        doc.group("key");
        for (e, (x, y)) in self.entries.iter().zip(&self.at) {
            e.draw(doc, (origin.0 + x, origin.1 + 8.0 + y));
        }
        doc.end_group();
    }

    /// The key's entries as sprites, each drawn alone on `paper` and laid
    /// where [`Key::draw`] with its top left corner at `origin` (whole
    /// pixels) draws it, for a key laid out at whole pixels
    /// ([`Key::reflow`]): an entry's sprite is the same in every picture of
    /// the map, so its text is laid out once, not once a picture.
    pub fn sprites(&self, origin: (i32, i32), paper: &str) -> Vec<Sprite> {
        self.entries
            .iter()
            .zip(&self.at)
            .map(|(e, (x, y))| {
                // Wider than the entry's estimated width: its bare paper
                // is not laid, and text a little wider than estimated is
                // not cut.
                let size = (
                    (e.width() * 1.5 + 2.0 * PAD + 16.0).ceil(),
                    LINE + 2.0 * PAD,
                );
                let mut sprite = Doc::new(size.0, size.1, paper);
                e.draw(&mut sprite, (PAD, PAD));
                let at = (
                    origin.0 + (x - PAD).round() as i32,
                    origin.1 + (8.0 + y - PAD).round() as i32,
                );
                sprite.into_sprite(at)
            })
            .collect()
    }
}

impl Entry {
    /// Draws the entry, its first swatch's top left corner at `(x, y)`.
    fn draw(&self, doc: &mut Doc, (mut x, y): (f64, f64)) {
        for s in &self.swatches {
            swatch(doc, s, (x, y));
            x += SWATCH + 2.0;
        }
        doc.text(
            (x + 2.0, y + SWATCH - 2.0),
            TEXT,
            INK,
            Anchor::Start,
            &self.text,
        );
    }
}

/// A swatch with its top left corner near `(x, y)`. Shapes have crisp
/// edges: a one-pixel border sits on the middle of a pixel, or parts of a
/// thinner one vanish and a light swatch shows as a broken bracket.
fn swatch(doc: &mut Doc, s: &Swatch, (x, y): (f64, f64)) {
    let (x, y) = (x.round(), y.round());
    let (xm, ym) = (x + 0.5, y + 0.5);
    match s {
        Swatch::Fill(c) => doc.rect(xm, ym, SWATCH, SWATCH, 2.0, c, "#111111", 1.0),
        Swatch::Outline => doc.rect(x, y, SWATCH, SWATCH, 2.0, "none", HIGHLIGHT, 2.0),
        Swatch::Mark(m) => {
            doc.rect(xm, ym, SWATCH, SWATCH, 2.0, "#8d8d8d", "#111111", 1.0);
            let glyph = m.glyph().to_string();
            doc.text(
                (x + SWATCH / 2.0, y + SWATCH - 2.5),
                10.0,
                "#ffffff",
                Anchor::Middle,
                &glyph,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_core::board::{Legend, PointBoard};

    fn board(legend: &[(&str, &str)]) -> Board {
        Board::Points(PointBoard {
            legend: legend.iter().map(|(g, m)| Legend::new(*g, *m)).collect(),
            ..PointBoard::default()
        })
    }

    /// `M` is the Ming's letter and mountain's glyph: the line `M mountain` is
    /// terrain, `M / J` sides; woods at two elevations is one entry.
    #[test]
    fn sides_and_terrain_have_swatches_and_notes_do_not() {
        let b = board(&[
            ("M / J", "control marker of the Ming / Jurchen"),
            ("w", "woods (elevation 0): 2 MP"),
            ("M", "mountain (elevation 2): 2 MP"),
            ("W", "woods (elevation 1): 2 MP"),
            ("+2", "two more units, listed under Stacks"),
            ("ds.i1", "Du Song infantry, CS 2"),
        ]);
        let terrain = ['w', 'M', 'W'];
        let pal = Palette::of(&b, &terrain);
        let used = InUse {
            marks: vec![UnitMark::Reduced],
            colours: Vec::new(),
        };
        let e = entries(&b, &pal, &terrain, &used);
        let texts: Vec<&str> = e.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                "M / J control marker of the Ming / Jurchen",
                "woods",
                "mountain",
                "reduced",
                "the last action"
            ]
        );
        assert_eq!(
            e[0].swatches,
            [Swatch::Fill(pal.side('M')), Swatch::Fill(pal.side('J'))]
        );
        assert_ne!(pal.side('M'), pal.side('J'));
    }

    /// A long entry is cut after a whole clause, else after a whole word:
    /// the picture's key never ends an entry within a word ("markers s…").
    #[test]
    fn a_long_entry_is_cut_between_clauses_or_words() {
        let sarhu =
            "M / J control marker of the Ming / Jurchen (2.5.2); +1 markers score 1 VP (8.0(3))";
        assert_eq!(
            clip(sarhu),
            "M / J control marker of the Ming / Jurchen (2.5.2)"
        );
        let words = "word ".repeat(20);
        let cut = clip(&words);
        assert!(
            cut.ends_with("word…") && cut.chars().count() <= MAX_CHARS + 1,
            "{cut}"
        );
        let one = "x".repeat(80);
        assert_eq!(clip(&one).chars().count(), MAX_CHARS + 1);
        assert_eq!(clip("short"), "short");
    }

    /// Lest Darkness Fall's regions are all drawn as clear terrain: one
    /// swatch names them all, not a swatch each that looks like the others.
    #[test]
    fn terrains_drawn_alike_share_one_entry() {
        let b = board(&[
            ("~", "sea"),
            ("R", "Roman core"),
            ("G", "Gallic core"),
            ("g", "Gallic core (coast)"),
        ]);
        let terrain = ['~', 'R', 'G', 'g'];
        let pal = Palette::of(&b, &terrain);
        assert_eq!(pal.terrain('R'), pal.terrain('G'));
        let e = entries(&b, &pal, &terrain, &InUse::default());
        let texts: Vec<&str> = e.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(texts, ["sea", "Roman core, Gallic core", "the last action"]);
    }

    #[test]
    fn entries_flow_onto_a_new_line_when_the_width_is_used_up() {
        let e = Entry {
            swatches: vec![Swatch::Outline],
            text: "x".repeat(20),
        };
        let (at, height) = flow(&[e.clone(), e.clone(), e], 2.5 * 150.0, true);
        assert_eq!(at[0], (0.0, 0.0));
        assert_eq!(at[1].1, 0.0);
        assert_eq!(at[2], (0.0, LINE));
        assert_eq!(height, 2.0 * LINE);
    }
}
