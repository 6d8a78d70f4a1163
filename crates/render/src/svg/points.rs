//! Point-to-point maps. The board gives no coordinates, so the spaces are laid
//! out by their links: columns by distance (in links) from the lowest-numbered
//! space, each column ordered by where its neighbours in the column before sit.
//! Every space is a box with its name, kinds, markers and pieces.

use super::doc::{Anchor, Base, BaseDrawing, Doc, Layers, Sheet};
use super::geo;
use super::legend::Key;
use super::style::{HIGHLIGHT, INK, PAPER, Palette, ink_on, text_width, tint};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use umpire_core::board::{Board, PointBoard, Space, SpaceId, Unit, UnitMark};

const BOX_W: f64 = 170.0;
const BOX_H: f64 = 92.0;
const GAP_X: f64 = 60.0;
const GAP_Y: f64 = 26.0;
const MARGIN: f64 = 16.0;
/// Room around a space's box in its sprite, for the outline of the last action.
const SPRITE_MARGIN: f64 = 14.0;
/// Height of a piece's chip, and its text size.
const CHIP_H: f64 = 17.0;
const CHIP_TEXT: f64 = 10.0;
/// Text size of a track's line under the map.
const TRACK_TEXT: f64 = 11.0;
/// Rows of chips a space box holds.
const CHIP_ROWS: usize = 2;

/// Column and row of every space.
fn layout(b: &PointBoard) -> BTreeMap<SpaceId, (usize, usize)> {
    let mut layer: BTreeMap<SpaceId, usize> = BTreeMap::new();
    // Each connected part from its lowest id, one part after another.
    let mut base = 0;
    for start in b.spaces.keys() {
        if layer.contains_key(start) {
            continue;
        }
        let mut q = VecDeque::from([(*start, base)]);
        layer.insert(*start, base);
        let mut deepest = base;
        while let Some((s, d)) = q.pop_front() {
            deepest = deepest.max(d);
            for n in b.neighbours(s) {
                if b.spaces.contains_key(&n) && !layer.contains_key(&n) {
                    layer.insert(n, d + 1);
                    q.push_back((n, d + 1));
                }
            }
        }
        base = deepest + 1;
    }
    let mut cols: BTreeMap<usize, Vec<SpaceId>> = BTreeMap::new();
    for (s, l) in &layer {
        cols.entry(*l).or_default().push(*s);
    }
    let mut pos: BTreeMap<SpaceId, (usize, usize)> = BTreeMap::new();
    for (c, spaces) in cols {
        // Order by the mean row of the neighbours already placed (in tenths, integers only).
        let mut keyed: Vec<(usize, SpaceId)> = spaces
            .iter()
            .map(|s| {
                let rows: Vec<usize> = b
                    .neighbours(*s)
                    .iter()
                    .filter_map(|n| pos.get(n).map(|p| p.1))
                    .collect();
                let key = match rows.len() {
                    0 => usize::MAX,
                    n => rows.iter().sum::<usize>() * 10 / n,
                };
                (key, *s)
            })
            .collect();
        keyed.sort();
        for (r, (_, s)) in keyed.into_iter().enumerate() {
            pos.insert(s, (c, r));
        }
    }
    pos
}

fn origin(p: (usize, usize)) -> (f64, f64) {
    (
        MARGIN + p.0 as f64 * (BOX_W + GAP_X),
        MARGIN + p.1 as f64 * (BOX_H + GAP_Y),
    )
}

/// The top left corner of every space's box: where the world puts it when
/// the board gives positions ([`geo`]), else in columns by links.
fn placed(b: &PointBoard) -> BTreeMap<SpaceId, (f64, f64)> {
    geo::place(b, BOX_W, BOX_H, GAP_Y, MARGIN)
        .unwrap_or_else(|| layout(b).into_iter().map(|(s, p)| (s, origin(p))).collect())
}

/// The whole map as SVG.
pub fn draw(board: &Board, b: &PointBoard, focus: &[SpaceId]) -> Layers {
    let pos = placed(b);
    let right = pos
        .values()
        .map(|p| p.0 + BOX_W)
        .reduce(f64::max)
        .unwrap_or(0.0);
    let bottom = pos
        .values()
        .map(|p| p.1 + BOX_H)
        .reduce(f64::max)
        .unwrap_or(0.0);
    let tracks = b.tracks.len() as f64 * 14.0;
    let pal = Palette::of(board, &[]);
    let w = right + MARGIN;
    let h = bottom + MARGIN + tracks + 10.0;
    let units = b.spaces.values().flat_map(|s| &s.units);
    let key = Key::of(board, &pal, &[], units, w - 2.0 * MARGIN);
    let base = Base::new(w, h + key.height, PAPER, Box::new(Plain));
    let mut doc = Doc::over(&base);
    let centre = |s: &SpaceId| {
        let o = pos[s];
        (o.0 + BOX_W / 2.0, o.1 + BOX_H / 2.0)
    };
    doc.group("links");
    let mut drawn = BTreeSet::new();
    for l in &b.links {
        if !(pos.contains_key(&l.a) && pos.contains_key(&l.b) && drawn.insert((l.a, l.b))) {
            continue;
        }
        let broken = !l.markers.is_empty();
        doc.line(
            centre(&l.a),
            centre(&l.b),
            if broken { "#c62828" } else { "#8a8a8a" },
            2.0,
            broken,
        );
    }
    doc.end_group();
    // Each space's box as a sprite: a box play left alone is not drawn again.
    doc.sheet(Sheet::Sprites);
    doc.group("spaces");
    for (id, s) in &b.spaces {
        let (x, y) = pos[id];
        let focused = s.highlight || focus.contains(id);
        if focused {
            doc.mark_focus(&[(x - 2.0, y - 2.0), (x + BOX_W + 2.0, y + BOX_H + 2.0)]);
        }
        let m = SPRITE_MARGIN;
        let size = (BOX_W + 2.0 * m, BOX_H + 2.0 * m);
        doc.sprite_at((x - m, y - m), size, |d| {
            space_box(d, &pal, s, (m, m), focused)
        });
    }
    doc.end_group();
    // Names and kinds do not change with play: a sheet of their own, kept.
    doc.sheet(Sheet::Kept);
    doc.group("names");
    for (id, s) in &b.spaces {
        space_words(&mut doc, s, pos[id]);
    }
    doc.end_group();
    // Each track's line a sprite: kept while its value stands, and left out
    // of a picture of an action away from the foot of the map.
    doc.sheet(Sheet::Sprites);
    doc.group("tracks");
    let y0 = bottom + MARGIN;
    for (i, t) in b.tracks.iter().enumerate() {
        let v = match t.max {
            Some(m) => format!("{}: {}/{m}", t.name, t.value),
            None => format!("{}: {}", t.name, t.value),
        };
        // The line's box: from above its capitals to below its descenders.
        let top = y0 + i as f64 * 14.0 - TRACK_TEXT;
        let size = ((w - 2.0 * MARGIN).max(1.0), 14.0);
        doc.sprite_at((MARGIN, top), size, |d| {
            d.text((0.0, TRACK_TEXT), TRACK_TEXT, INK, Anchor::Start, &v)
        });
    }
    doc.end_group();
    doc.finish_with_key(base, key, (MARGIN, h - 10.0), w, h - 10.0)
}

/// The base of a map of spaces: its background alone (the links change
/// with play).
struct Plain;

impl BaseDrawing for Plain {
    fn inputs(&self) -> Option<Vec<u8>> {
        Some(Vec::new())
    }

    fn draw(&self, _: &mut Doc) {}
}

/// The words of a space's box at `(x, y)` that play does not change: its
/// name and kinds.
fn space_words(doc: &mut Doc, s: &Space, (x, y): (f64, f64)) {
    doc.text((x + 6.0, y + 14.0), 12.0, INK, Anchor::Start, &s.name);
    let kinds = s.kinds.join(", ");
    doc.text((x + 6.0, y + 27.0), 9.0, "#555555", Anchor::Start, &kinds);
}

/// One space's box at `(x, y)`: its control, markers and pieces; outlined
/// when it was part of the last action (its name and kinds: [`space_words`]).
fn space_box(doc: &mut Doc, pal: &Palette<'_>, s: &Space, (x, y): (f64, f64), focused: bool) {
    let (fill, stroke) = match s.control {
        Some(c) => (tint(pal.side(c)), pal.side(c)),
        None => ("#ffffff".to_string(), "#555555"),
    };
    doc.rect(x, y, BOX_W, BOX_H, 6.0, &fill, stroke, 1.5);
    if let Some(c) = s.control {
        let at = (x + BOX_W - 6.0, y + 14.0);
        doc.text(at, 11.0, stroke, Anchor::End, &c.to_string());
    }
    let markers: Vec<String> = s.markers.iter().map(|m| m.to_string()).collect();
    let markers = markers.join(", ");
    doc.text((x + 6.0, y + 39.0), 9.0, INK, Anchor::Start, &markers);
    pieces(doc, pal, &s.units, (x + 6.0, y + 46.0), x + BOX_W - 6.0);
    if focused {
        let (w, h) = (BOX_W + 4.0, BOX_H + 4.0);
        doc.rect(x - 2.0, y - 2.0, w, h, 8.0, "none", HIGHLIGHT, 3.0);
    }
}

/// What a piece's chip says: how many, what, and its marks (`3 Guerrilla ?`).
fn chip_label(u: &Unit) -> String {
    let mut label = match u.count {
        1 => u.id.clone(),
        n => format!("{n} {}", u.id),
    };
    if let Some(s) = u.strength {
        label.push_str(&format!(" ({s})"));
    }
    let marks: String = u.marks.iter().map(|m| m.glyph()).collect();
    if !marks.is_empty() {
        label.push(' ');
        label.push_str(&marks);
    }
    label
}

/// The pieces of a space as chips in its side's colour, each with its count,
/// in rows from `at` up to `right`; what does not fit is counted as `+N`.
fn pieces(doc: &mut Doc, pal: &Palette<'_>, units: &[Unit], at: (f64, f64), right: f64) {
    let (mut x, mut row) = (at.0, 0);
    for (k, u) in units.iter().enumerate() {
        let label = chip_label(u);
        let w = text_width(&label, CHIP_TEXT) + 8.0;
        if x + w > right && x > at.0 {
            (x, row) = (at.0, row + 1);
        }
        let more = units.len() - k;
        if row == CHIP_ROWS || (row + 1 == CHIP_ROWS && more > 1 && x + w + 24.0 > right) {
            let y = at.1 + (CHIP_ROWS - 1) as f64 * (CHIP_H + 3.0) + CHIP_H - 4.0;
            doc.text((right, y), CHIP_TEXT, INK, Anchor::End, &format!("+{more}"));
            return;
        }
        let y = at.1 + row as f64 * (CHIP_H + 3.0);
        // An underground Guerrilla is still the Taliban's: grey only when nothing is known.
        let fill = match u.side {
            Some(s) if u.marks.contains(&UnitMark::Hidden) && !u.id.is_empty() => pal.side(s),
            _ => super::counter::fill(pal, u),
        };
        doc.rect(x, y, w, CHIP_H, 3.0, fill, "#111111", 0.6);
        let text = (x + w / 2.0, y + CHIP_H - 4.5);
        doc.text(text, CHIP_TEXT, ink_on(fill), Anchor::Middle, &label);
        x += w + 3.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_core::board::{Link, Space};

    #[test]
    fn spaces_fall_into_columns_by_links() {
        let mut b = PointBoard::default();
        for i in 1..=4 {
            b.spaces.insert(SpaceId(i), Space::default());
        }
        b.links.push(Link::new(SpaceId(1), SpaceId(2)));
        b.links.push(Link::new(SpaceId(1), SpaceId(3)));
        let p = layout(&b);
        assert_eq!(p[&SpaceId(1)], (0, 0));
        assert_eq!(p[&SpaceId(2)], (1, 0));
        assert_eq!(p[&SpaceId(3)], (1, 1));
        // Unlinked: its own part, after the first.
        assert_eq!(p[&SpaceId(4)], (2, 0));
    }
}
