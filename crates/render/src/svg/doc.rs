//! A small SVG writer: numbers with one fixed decimal and escaped text, so the
//! same board gives the same bytes on every machine.

use std::fmt::Write;
use std::sync::OnceLock;
use umpire_core::hash::{Digest, Tagged};

/// A number as SVG wants it, one decimal, never `-0.0`, written straight
/// into the text it is part of: a map's SVG holds tens of thousands of
/// numbers, and formatting each as a float (and allocating it) was a fifth of
/// building the SVG.
#[derive(Clone, Copy)]
pub struct Num(pub f64);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tenths = (self.0 * 10.0).round();
        // Whole tenths as an integer print the same digits as the float
        // `tenths / 10` at one decimal (the nearest double to n/10 is never
        // near a rounding midpoint); beyond 2^53 or not finite, as a float.
        if tenths.is_finite() && tenths.abs() < 9.0e15 {
            let n = tenths as i64;
            let sign = if n < 0 { "-" } else { "" };
            let a = n.unsigned_abs();
            write!(f, "{sign}{}.{}", a / 10, a % 10)
        } else {
            write!(f, "{:.1}", slow_num(self.0))
        }
    }
}

/// [`Num`]'s value as a float rounded to tenths, `-0.0` made `0.0`.
fn slow_num(x: f64) -> f64 {
    let r = (x * 10.0).round() / 10.0;
    if r == 0.0 { 0.0 } else { r }
}

/// Text escaped for an XML element or attribute.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            // XML 1.0 forbids most control characters, even escaped.
            c if c.is_control() => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

/// An SVG document under construction.
pub struct Doc {
    out: String,
    /// Where the `<svg>` element's opening line ends.
    header: usize,
    /// Its width and height.
    size: (f64, f64),
    /// The kind of what is drawn before the first [`Doc::sheet`]: the base,
    /// unless the base is drawn apart ([`Doc::over`]).
    first: Sheet,
    /// Where each sheet after the base begins, and its kind ([`Doc::sheet`]).
    cuts: Vec<(usize, Sheet)>,
    /// The sprites drawn, each with the index of its sheet (0 the base).
    sprites: Vec<(usize, Sprite)>,
    /// The box around the places of the last action ([`Doc::mark_focus`]).
    focus: Option<Rect>,
}

/// A box in the document's pixels: left, top, right, bottom.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    /// The smallest box holding `self` and `pts`.
    fn around(self, pts: &[(f64, f64)]) -> Rect {
        pts.iter().fold(self, |r, (x, y)| Rect {
            x0: r.x0.min(*x),
            y0: r.y0.min(*y),
            x1: r.x1.max(*x),
            y1: r.y1.max(*y),
        })
    }
}

/// What a sheet of a picture holds, which says how the rasteriser treats it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sheet {
    /// Background, terrain, grid, numbers: the same all game long; drawn
    /// once per map and kept.
    Base,
    /// What play changes (counters, control, the last action): drawn for
    /// every picture.
    Drawn,
    /// What play does not change but is drawn over what it does (haloed
    /// place names), or changes seldom (a grid's control areas): drawn once
    /// on a clear sheet, kept by its text, laid over.
    Kept,
    /// The key under the map: kept like [`Sheet::Kept`]; a cropped picture
    /// draws its own.
    Key,
    /// Stacks of counters, each drawn once and kept ([`Doc::sprite`]), laid
    /// where play puts them.
    Sprites,
}

/// A drawing kept by its text and laid at whole pixels `at` (its top left
/// corner): a stack of counters looks the same wherever it stands.
pub struct Sprite {
    pub at: (i32, i32),
    /// Its width and height in whole pixels.
    pub size: (u32, u32),
    pub svg: String,
}

/// One sheet of a picture: a document, or the sprites laid on it.
pub enum Part {
    Svg(Sheet, String),
    Sprites(Vec<Sprite>),
}

/// What a picture's base sheet ([`Sheet::Base`]) is drawn from, and how:
/// the drawing reads nothing but the value itself (and constants), so the
/// value's bytes ([`BaseDrawing::inputs`]) say what it draws and its kept
/// raster is found without writing its SVG. A change to how a base is drawn
/// must bump [`BASE_DRAWING`].
pub trait BaseDrawing: Send + Sync {
    /// Everything the drawing reads, as bytes; `None` if they cannot be
    /// written (the base is then known by its SVG).
    fn inputs(&self) -> Option<Vec<u8>>;
    /// Draws the base on `doc`, over its background.
    fn draw(&self, doc: &mut Doc);
}

/// The version of the base drawings ([`BaseDrawing`]): part of a base's key,
/// so a raster kept by an older drawing is not taken for a newer one's. A
/// test pins each game's base SVG: change one, bump this.
pub const BASE_DRAWING: u64 = 1;

/// A picture's base sheet: its size, background and drawing.
pub struct Base {
    w: f64,
    h: f64,
    background: &'static str,
    drawing: Box<dyn BaseDrawing>,
    /// [`Base::key`], worked out once: a picture asks for it to share
    /// itself and to find its base's raster.
    key: OnceLock<Option<Digest>>,
}

impl Base {
    /// The base `drawing` on a `w` × `h` document of `background`.
    pub fn new(w: f64, h: f64, background: &'static str, drawing: Box<dyn BaseDrawing>) -> Base {
        Base {
            w,
            h,
            background,
            drawing,
            key: OnceLock::new(),
        }
    }

    /// What the base's raster is kept by: its size, background, drawing
    /// version and inputs; `None` when the inputs cannot be written.
    pub fn key(&self) -> Option<Digest> {
        *self.key.get_or_init(|| {
            let inputs = self.drawing.inputs()?;
            let t = Tagged::new("umpire-picture-base")
                .u64(BASE_DRAWING)
                .field(format!("{} {} {}", Num(self.w), Num(self.h), self.background).as_bytes())
                .field(&inputs);
            Some(t.finish())
        })
    }

    /// The base as a document still open for what is drawn over it.
    fn doc(&self) -> Doc {
        let mut d = Doc::new(self.w, self.h, self.background);
        self.drawing.draw(&mut d);
        d
    }

    /// The base alone as SVG.
    pub fn svg(&self) -> String {
        self.doc().finish()
    }
}

/// A picture as one document and as its sheets, each a document of the
/// same size: drawn one over the other in order, they are the whole. The key
/// sits under the map, from `map_height` down; `focus` boxes the last action.
pub struct Layers {
    /// The base, drawn only when its raster is not kept.
    pub base: Base,
    /// What is drawn over the base, as the whole document's text.
    rest: String,
    whole: OnceLock<String>,
    /// The sheets over the base.
    pub sheets: Vec<Part>,
    pub width: f64,
    pub map_height: f64,
    pub focus: Option<Rect>,
    pub key: super::legend::Key,
}

/// Text anchoring.
#[derive(Clone, Copy)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

impl Anchor {
    fn name(self) -> &'static str {
        match self {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        }
    }
}

impl Layers {
    /// The whole picture as one SVG document (written once, when first asked).
    pub fn whole(&self) -> &str {
        self.whole.get_or_init(|| {
            let mut d = self.base.doc();
            d.out.push_str(&self.rest);
            d.finish()
        })
    }

    /// A digest of the whole picture, without writing its base's SVG: two
    /// pictures with the same digest are the same picture.
    pub fn digest(&self) -> Digest {
        let t = Tagged::new("umpire-picture");
        let t = match self.base.key() {
            Some(k) => t.field(&k.0),
            None => t.field(self.base.svg().as_bytes()),
        };
        t.field(self.rest.as_bytes()).finish()
    }
}

impl Doc {
    /// A document `w` × `h` pixels with a background colour.
    pub fn new(w: f64, h: f64, background: &str) -> Doc {
        // Shapes with crisp edges keep fills flat (a small palette, a small PNG);
        // text is anti-aliased, or the thin stems of "i", "l" and "t" vanish at 8 px.
        let mut out = String::new();
        let (w, h) = (Num(w), Num(h));
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"DejaVu Sans\" shape-rendering=\"crispEdges\">"
        );
        let header = out.len();
        let _ = writeln!(
            out,
            "<rect width=\"{w}\" height=\"{h}\" fill=\"{background}\"/>"
        );
        Doc {
            out,
            header,
            size: (w.0, h.0),
            first: Sheet::Base,
            cuts: Vec::new(),
            sprites: Vec::new(),
            focus: None,
        }
    }

    /// A document drawn over `base` (its size): what is drawn before the
    /// first [`Doc::sheet`] is a [`Sheet::Drawn`] sheet over it, and
    /// [`Doc::finish_with_key`] keeps the base apart, to be drawn only when
    /// its raster is not kept.
    pub fn over(base: &Base) -> Doc {
        let mut d = Doc::clear(base.w, base.h);
        d.first = Sheet::Drawn;
        d
    }

    /// A document `w` × `h` pixels with nothing under what is drawn on it
    /// (a sprite's).
    pub fn clear(w: f64, h: f64) -> Doc {
        let mut d = Doc::new(w, h, "none");
        d.out.truncate(d.header);
        d
    }

    /// Draws what `paint` draws on a clear sprite `size` pixels big whose
    /// top left corner is `at`, rounded to whole pixels ([`Doc::sprite`]).
    pub fn sprite_at(&mut self, at: (f64, f64), size: (f64, f64), paint: impl FnOnce(&mut Doc)) {
        let mut sprite = Doc::clear(size.0.ceil(), size.1.ceil());
        paint(&mut sprite);
        self.sprite((at.0.round() as i32, at.1.round() as i32), sprite);
    }

    /// Draws the document `sprite` with its top left corner at `at`; on a
    /// [`Sheet::Sprites`] sheet the rasteriser draws it once and keeps it.
    pub fn sprite(&mut self, at: (i32, i32), sprite: Doc) {
        let body = &sprite.out[sprite.header..];
        let _ = write!(
            self.out,
            "<g transform=\"translate({} {})\">\n{body}</g>\n",
            at.0, at.1
        );
        self.sprites.push((self.cuts.len(), sprite.into_sprite(at)));
    }

    /// The document as a sprite with its top left corner at `at`.
    pub fn into_sprite(self, at: (i32, i32)) -> Sprite {
        let size = (self.size.0.ceil() as u32, self.size.1.ceil() as u32);
        Sprite {
            at,
            size,
            svg: self.finish(),
        }
    }

    /// Starts a sheet of kind `kind`: what is drawn next belongs to it (what
    /// was drawn before the first call, to the base).
    pub fn sheet(&mut self, kind: Sheet) {
        self.cuts.push((self.out.len(), kind));
    }

    /// Notes that the last action took place within `pts`: a cropped
    /// picture of the action shows them.
    pub fn mark_focus(&mut self, pts: &[(f64, f64)]) {
        let Some(first) = pts.first() else { return };
        let start = self.focus.unwrap_or(Rect {
            x0: first.0,
            y0: first.1,
            x1: first.0,
            y1: first.1,
        });
        self.focus = Some(start.around(pts));
    }

    /// A closed polygon.
    pub fn polygon(&mut self, pts: &[(f64, f64)], fill: &str, stroke: &str, width: f64) {
        self.out.push_str("<polygon points=\"");
        for (i, (x, y)) in pts.iter().enumerate() {
            let gap = if i == 0 { "" } else { " " };
            let _ = write!(self.out, "{gap}{},{}", Num(*x), Num(*y));
        }
        let _ = writeln!(
            self.out,
            "\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            Num(width)
        );
    }

    /// A line.
    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), stroke: &str, width: f64, dash: bool) {
        let _ = writeln!(
            self.out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{stroke}\" stroke-width=\"{}\" stroke-linecap=\"round\"{}/>",
            Num(a.0),
            Num(a.1),
            Num(b.0),
            Num(b.1),
            Num(width),
            if dash {
                " stroke-dasharray=\"4 3\""
            } else {
                ""
            }
        );
    }

    /// A rectangle with rounded corners `r`.
    #[allow(clippy::too_many_arguments)] // position, size and paint of one shape
    pub fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        r: f64,
        fill: &str,
        stroke: &str,
        sw: f64,
    ) {
        let _ = writeln!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            Num(x),
            Num(y),
            Num(w),
            Num(h),
            Num(r),
            Num(sw)
        );
    }

    /// A circle.
    pub fn circle(&mut self, c: (f64, f64), r: f64, fill: &str, stroke: &str, sw: f64) {
        let _ = writeln!(
            self.out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            Num(c.0),
            Num(c.1),
            Num(r),
            Num(sw)
        );
    }

    /// A line of text at `at` (the baseline), `size` pixels high.
    pub fn text(&mut self, at: (f64, f64), size: f64, fill: &str, anchor: Anchor, text: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{fill}\" text-anchor=\"{}\">{}</text>",
            Num(at.0),
            Num(at.1),
            Num(size),
            anchor.name(),
            esc(text)
        );
    }

    /// Text with a halo of `halo` around its letters, so that it reads over
    /// counters, borders and rivers it crosses.
    pub fn label(&mut self, at: (f64, f64), size: f64, fill: &str, halo: &str, text: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{fill}\" stroke=\"{halo}\" stroke-width=\"{}\" stroke-linejoin=\"round\" paint-order=\"stroke\" text-anchor=\"middle\">{}</text>",
            Num(at.0),
            Num(at.1),
            Num(size),
            Num((size * 0.3).max(1.5)),
            esc(text)
        );
    }

    /// A comment-free group open/close, to keep the layers readable in the source.
    pub fn group(&mut self, id: &str) {
        let _ = writeln!(self.out, "<g id=\"{}\">", esc(id));
    }

    /// Closes the group [`Doc::group`] opened.
    pub fn end_group(&mut self) {
        self.out.push_str("</g>\n");
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }

    /// Draws `key` under a map `width` × `map_height` (at `origin`) on a
    /// sheet of its own and finishes the picture: `base` under this
    /// document ([`Doc::over`]) and its sheets.
    pub fn finish_with_key(
        mut self,
        base: Base,
        key: super::legend::Key,
        origin: (f64, f64),
        width: f64,
        map_height: f64,
    ) -> Layers {
        self.sheet(Sheet::Key);
        key.draw(&mut self, origin);
        let head = &self.out[..self.header];
        let mut starts = vec![(self.header, self.first)];
        starts.extend(self.cuts.iter().copied());
        let ends = starts.iter().skip(1).map(|(at, _)| *at);
        let mut sprites = std::mem::take(&mut self.sprites);
        let sheets = starts
            .iter()
            .zip(ends.chain([self.out.len()]))
            .enumerate()
            .filter_map(|(i, ((from, kind), to))| match kind {
                Sheet::Sprites => {
                    let (mine, rest) = sprites.drain(..).partition(|(s, _)| *s == i);
                    sprites = rest;
                    let mine: Vec<Sprite> = mine.into_iter().map(|(_, s)| s).collect();
                    (!mine.is_empty()).then_some(Part::Sprites(mine))
                }
                _ => (to > *from)
                    .then(|| Part::Svg(*kind, format!("{head}{}</svg>\n", &self.out[*from..to]))),
            })
            .collect();
        Layers {
            base,
            rest: self.out[self.header..].to_string(),
            whole: OnceLock::new(),
            sheets,
            width,
            map_height,
            focus: self.focus,
            key,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(x: f64) -> String {
        Num(x).to_string()
    }

    #[test]
    fn numbers_are_fixed_and_text_is_escaped() {
        assert_eq!(num(-0.01), "0.0");
        assert_eq!(num(12.345), "12.3");
        assert_eq!(esc("a<b & \"c\"\u{7}"), "a&lt;b &amp; &quot;c&quot; ");
    }

    /// The number writer prints what formatting the rounded float printed,
    /// byte for byte (old pictures' SVG, and the rasters kept by its hash,
    /// stay the same).
    #[test]
    fn numbers_print_as_the_rounded_float_did() {
        let old = |x: f64| format!("{:.1}", slow_num(x));
        let mut xs: Vec<f64> = (-200_000..200_000).map(|i| f64::from(i) / 1000.0).collect();
        xs.extend((-2000..2000).map(|i| f64::from(i) * 0.05));
        xs.extend([
            0.0,
            -0.0,
            0.049_999,
            -0.05,
            0.05,
            0.15,
            0.25,
            1.45,
            2.55,
            1e6 + 0.05,
            123_456.789,
            -98_765.432_1,
            1e15,
            -1e15,
            1e300,
            f64::MAX,
            f64::MIN,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::EPSILON,
            9.0e14 + 0.35,
        ]);
        // A pseudo-random spread of magnitudes.
        let mut z: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..100_000 {
            z ^= z << 13;
            z ^= z >> 7;
            z ^= z << 17;
            let x = (z % 2_000_000_000) as f64 / 997.0 - 1.0e6;
            xs.push(x);
        }
        for x in xs {
            assert_eq!(Num(x).to_string(), old(x), "{x:?}");
        }
    }
}
