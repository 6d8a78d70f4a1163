//! Counters drawn as counters: a square in the side's colour with the unit's
//! id, its strength, and its state (a white band when reduced, an amber corner
//! when disorganized, grey and `?` when face-down), stacked with a count badge.

use super::doc::{Anchor, Doc};
use super::style::{INK, Palette, ink_on, named};
use umpire_core::board::{Unit, UnitMark};

/// Colour of a counter whose side is not shown.
const UNKNOWN: &str = "#8d8d8d";
/// How many counters of a stack are drawn (the rest are counted on the badge).
const SHOWN: usize = 3;

/// The offset of counter `k` (0 the top) in a stack of `shown`.
fn offset(k: usize, shown: usize, w: f64) -> f64 {
    let step = (w * 0.12).max(2.0);
    step * (k as f64) - step * ((shown - 1) as f64) / 2.0
}

/// The centre of the top counter of a stack of `n` centred on `c`.
pub fn top_centre(n: usize, c: (f64, f64), w: f64) -> (f64, f64) {
    let off = offset(0, n.clamp(1, SHOWN), w);
    (c.0 - off, c.1 - off)
}

/// Draws the stack `units` (top first) centred on `c`, counters `w` wide.
pub fn stack(doc: &mut Doc, pal: &Palette<'_>, units: &[Unit], c: (f64, f64), w: f64) {
    let shown = units.len().min(SHOWN);
    // Bottom of the stack first; each counter below peeks out up and left of the one on it.
    for (k, u) in units[..shown].iter().enumerate().rev() {
        let off = offset(k, shown, w);
        counter(doc, pal, u, (c.0 - off, c.1 - off), w);
    }
    let pieces: u32 = units.iter().map(|u| u.count).sum();
    if units.len() > 1 {
        let at = (c.0 + w / 2.0, c.1 + w / 2.0);
        doc.circle(at, w * 0.22, "#ffffff", INK, 0.8);
        doc.text(
            (at.0, at.1 + w * 0.1),
            w * 0.28,
            INK,
            Anchor::Middle,
            &pieces.to_string(),
        );
    }
}

/// [`stack`] drawn as a sprite ([`Doc::sprite`]) centred on `c` rounded to
/// whole pixels: the same stack anywhere on the map is drawn once.
pub fn stack_sprite(doc: &mut Doc, pal: &Palette<'_>, units: &[Unit], c: (f64, f64), w: f64) {
    // Room for the stack's offsets, its badge and a label wider than a counter.
    let half = (w * 1.2 + 4.0).ceil();
    let at = (c.0 - half, c.1 - half);
    doc.sprite_at(at, (2.0 * half, 2.0 * half), |d| {
        stack(d, pal, units, (half, half), w)
    });
}

/// A counter's colour: its own ([`Unit::colour`]) if umpire knows the name,
/// else its side's; grey when face-down or without a side.
pub fn fill(pal: &Palette<'_>, u: &Unit) -> &'static str {
    match u.side {
        _ if u.marks.contains(&UnitMark::Hidden) => UNKNOWN,
        _ if let Some(c) = u.colour.as_deref().and_then(named) => c,
        Some(s) => pal.side(s),
        None => UNKNOWN,
    }
}

/// One counter centred on `c`, `w` wide.
pub fn counter(doc: &mut Doc, pal: &Palette<'_>, u: &Unit, c: (f64, f64), w: f64) {
    let hidden = u.marks.contains(&UnitMark::Hidden);
    let fill = fill(pal, u);
    let (x, y) = (c.0 - w / 2.0, c.1 - w / 2.0);
    doc.rect(x, y, w, w, w * 0.1, fill, "#111111", 0.8);
    if u.marks.contains(&UnitMark::Reduced) {
        // The flipped side: a white band across the lower third.
        doc.rect(
            x + 1.0,
            y + w * 0.68,
            w - 2.0,
            w * 0.3,
            0.0,
            "#ffffff",
            "none",
            0.0,
        );
    }
    if u.marks.contains(&UnitMark::Disorganized) {
        doc.polygon(
            &[(x + w * 0.6, y), (x + w, y), (x + w, y + w * 0.4)],
            "#ffd54f",
            "#111111",
            0.5,
        );
    }
    let id = if hidden && u.id.is_empty() {
        "?".to_string()
    } else {
        match u.count {
            1 => u.id.clone(),
            n => format!("{n}×{}", u.id),
        }
    };
    let size = (w * 0.34).min(w * 1.7 / (id.chars().count().max(1) as f64));
    doc.text(
        (c.0, c.1 - w * 0.05),
        size,
        ink_on(fill),
        Anchor::Middle,
        &id,
    );
    let mut low = String::new();
    if let Some(s) = u.strength {
        low.push_str(&s.to_string());
    }
    for m in &u.marks {
        if matches!(m, UnitMark::Active | UnitMark::Hidden | UnitMark::Other(_)) {
            low.push(m.glyph());
        }
    }
    if !low.is_empty() {
        let ink = if u.marks.contains(&UnitMark::Reduced) {
            INK
        } else {
            ink_on(fill)
        };
        doc.text((c.0, c.1 + w * 0.4), w * 0.3, ink, Anchor::Middle, &low);
    }
}
