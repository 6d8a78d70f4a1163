//! Golden and property tests for the hex map renderer.
//!
//! The property tests run on boards from a small seeded generator (no
//! dependency needed, and a failure names its seed so it can be replayed).
//! They read the output as a player would: by finding hex numbers, unit ids
//! and glyphs in the text, not by asking the renderer where it put them.

use super::*;
use std::collections::BTreeSet;
use umpire_core::board::{Cell, Edge, EdgeKind, Legend, Unit, UnitMark};
use umpire_core::hex::Dir;

fn h(s: &str) -> Hex {
    s.parse().expect("hex label")
}

/// Units from labels as a ruleset would print them: `m3'` is `m3` reduced,
/// `m4*` is `m4` disorganized.
fn units(labels: &[&str]) -> Vec<Unit> {
    labels.iter().map(|l| unit(l)).collect()
}

fn unit(label: &str) -> Unit {
    let id = label.trim_end_matches(['\'', '*']);
    let mut u = Unit::new(id);
    for c in label[id.len()..].chars() {
        u = u.mark(if c == '\'' {
            UnitMark::Reduced
        } else {
            UnitMark::Disorganized
        });
    }
    u
}

fn cell(terrain: char) -> Cell {
    Cell {
        terrain,
        ..Cell::default()
    }
}

/// A plain `cols` × `rows` board.
fn plain(cols: i32, rows: i32) -> Board {
    let mut b = Board::default();
    for c in 1..=cols {
        for r in 1..=rows {
            b.cells.insert(Hex::new(c, r), cell('.'));
        }
    }
    b
}

/// The 3×3 board of the golden test: a river on 0202's north-east side with a
/// bridge, a five-unit stack, a named hex, highlights.
fn small() -> Board {
    let mut b = plain(3, 3);
    let c = b.cells.get_mut(&h("0202")).expect("0202");
    c.terrain = '^';
    c.control = Some('M');
    c.units = units(&["ds.i1", "ds.i2", "m3'", "m4*", "art"]);
    c.highlight = true;
    let c = b.cells.get_mut(&h("0301")).expect("0301");
    c.name = Some("Hetuala".into());
    c.units = units(&["j7"]);
    c.control = Some('J');
    c.highlight = true;
    b.cells.get_mut(&h("0103")).expect("0103").terrain = 'f';
    b.edges.push(Edge {
        hex: h("0202"),
        dir: Dir::NE,
        kind: EdgeKind::River,
    });
    b.edges.push(Edge {
        hex: h("0202"),
        dir: Dir::SE,
        kind: EdgeKind::River,
    });
    b.edges.push(Edge {
        hex: h("0203"),
        dir: Dir::N,
        kind: EdgeKind::Wall,
    });
    b.edges.push(Edge {
        hex: h("0302"),
        dir: Dir::N,
        kind: EdgeKind::River,
    });
    b.edges.push(Edge {
        hex: h("0302"),
        dir: Dir::N,
        kind: EdgeKind::Bridge,
    });
    b.legend = vec![
        Legend::new(".", "clear"),
        Legend::new("^", "hill"),
        Legend::new("f", "forest"),
        Legend::new("M", "Mongol"),
        Legend::new("J", "Jin"),
    ];
    b
}

const SMALL_SNIPPET: &str = r"  __________              __________
 / 0101  .  \            />0301< . J\
/            \__________/ j7         \
\            / 0201  .  \   Hetuala  /
 \__________/            \~~~====~~~/
 / 0102  .  \            / 0302  .  \
/            \__________/            \
\            />0202< ^ M~            /
 \__________/ ds.i1      ~__________/
 / 0103  f  \ ds.i2 +3   ~ 0303  .  \
/            \##########~            \
\            / 0203  .  \            /
 \__________/            \__________/
            \            /
             \__________/

Stacks: 0202 ds.i1 ds.i2 m3' m4* art

Key: 0712 ^ M: hex number, terrain, control; units and place below
     >0712< last action   +2: two more units, listed under Stacks
     hexsides: ~ river, # wall, = bridge   . clear   ^ hill   f forest
     M Mongol   J Jin
";

/// Checked by eye: 0202 (even column, so half a hex below 0102 and 0302) is
/// a highlighted hill held by M with five units, two shown and `+3`; rivers
/// run on its NE side (towards 0302) and SE side (towards 0303); a wall on
/// its S side (towards 0203); a bridge crosses the river between 0301 and
/// 0302; 0301 is the highlighted, named hex held by J.
#[test]
fn golden_small_board() {
    let out = snippet(&small(), &[h("0202")], &Options::default());
    assert_eq!(out, SMALL_SNIPPET, "\n{out}");
}

/// The example in the module docs is the golden text, so the docs cannot
/// drift from what the renderer draws.
#[test]
fn module_docs_show_the_golden_text() {
    let docs: String = include_str!("../hexmap.rs")
        .lines()
        .take_while(|l| l.starts_with("//!"))
        .map(|l| {
            format!(
                "{}\n",
                l.trim_start_matches("//!").strip_prefix(' ').unwrap_or("")
            )
        })
        .collect();
    assert!(
        docs.contains(SMALL_SNIPPET),
        "update the example in hexmap.rs"
    );
}

#[test]
fn golden_overview() {
    let opts = Options {
        full: FullStyle::Overview,
        legend: false,
        ..Options::default()
    };
    let out = full(&small(), &opts);
    let want = r"Overview, columns 01-03, rows 01-03:
     01  03
       02
01   .  >.1J
01     .
02   .   .
02    >^5M
03   f   .
03     .
     01  03
       02

Units:  0202 ds.i1 ds.i2 m3' m4* art
        0301 j7
Places: 0301 Hetuala
";
    assert_eq!(out, want, "\n{out}");
}

#[test]
fn pack_shows_what_fits_and_counts_the_rest() {
    let u = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        detail::pack(&u(&["a1", "b2", "c3"]), 2, 10),
        (vec!["a1 b2 c3".to_string()], true)
    );
    assert_eq!(
        detail::pack(&u(&["ds.i1", "ds.i2", "m3'", "m4*", "art"]), 2, 10),
        (vec!["ds.i1".to_string(), "ds.i2 +3".to_string()], false)
    );
    // The count pushes the last unit off its line rather than overflow it.
    assert_eq!(
        detail::pack(&u(&["abcdefgh", "xy", "z"]), 1, 10),
        (vec!["+3".to_string()], false)
    );
    assert_eq!(
        detail::pack(&u(&["abcdefghijklmn"]), 2, 10),
        (vec!["abcdefghij".to_string()], false)
    );
    assert_eq!(detail::pack(&[], 2, 10), (vec![], true));
}

// ---------------------------------------------------------------------------
// Generator

/// SplitMix64: tiny, seedable, good enough to shuffle boards.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as u64) as i32
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len() as u64) as usize]
    }
}

/// A unit id naming its hex, e.g. `u3x-2n1'`: unique on the board, never a
/// substring of another hex's ids, and never a run of four digits that could
/// be mistaken for a hex number.
fn unit_id(at: Hex, k: usize, rng: &mut Rng) -> String {
    let mut id = format!("u{}x{}n{k}", at.col, at.row);
    if rng.chance(10) {
        id.push_str("LONGREGIMENT");
    }
    id.push_str(rng.pick(&["", "", "'", "*"]));
    id
}

fn random_board(rng: &mut Rng) -> Board {
    let mut b = Board::default();
    let (cols, rows) = (rng.range(1, 12), rng.range(1, 10));
    let (c0, r0) = (rng.range(-5, 5), rng.range(-5, 5));
    for c in c0..c0 + cols {
        for r in r0..r0 + rows {
            if rng.chance(8) {
                continue;
            }
            let at = Hex::new(c, r);
            let n = if rng.chance(40) {
                rng.below(8) as usize
            } else {
                0
            };
            let cell = Cell {
                terrain: rng.pick(&['.', '^', 'f', 'o', '\0', 'é']),
                name: rng.chance(25).then(|| {
                    let len = rng.range(1, 24) as usize;
                    (0..len)
                        .map(|_| rng.pick(&['a', 'B', ' ', 'ü', '長']))
                        .collect()
                }),
                control: rng.chance(40).then(|| rng.pick(&['M', 'J'])),
                units: (1..=n).map(|k| unit(&unit_id(at, k, rng))).collect(),
                highlight: rng.chance(15),
            };
            b.cells.insert(at, cell);
        }
    }
    let hexes: Vec<Hex> = b.cells.keys().copied().collect();
    for _ in 0..rng.below(8) {
        if hexes.is_empty() {
            break;
        }
        b.edges.push(Edge {
            hex: rng.pick(&hexes),
            dir: rng.pick(&Dir::ALL),
            kind: rng.pick(&[EdgeKind::River, EdgeKind::Wall, EdgeKind::Bridge]),
        });
    }
    b.legend = vec![
        Legend::new("^", "hill"),
        Legend::new("o", "town, worth 2 VP"),
    ];
    b.off_map = vec!["Reinforcements turn 3: u9x9n1 u9x9n2".into()];
    b
}

fn random_focus(board: &Board, rng: &mut Rng) -> Vec<Hex> {
    let hexes: Vec<Hex> = board.cells.keys().copied().collect();
    (0..rng.below(4))
        .map(|_| {
            if hexes.is_empty() || rng.chance(10) {
                Hex::new(rng.range(-20, 30), rng.range(-20, 30))
            } else {
                rng.pick(&hexes)
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Reading the output

/// The drawing: the lines before the notes and key.
fn drawing(out: &str) -> Vec<&str> {
    out.lines()
        .take_while(|l| {
            !["Stacks:", "Names:", "Shown:", "Key:", "(no hexes"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect()
}

/// Every run of four or more digits and minus signs, with its line and column.
fn number_tokens(lines: &[&str]) -> Vec<(String, usize, usize)> {
    let mut out = Vec::new();
    for (y, line) in lines.iter().enumerate() {
        let b = line.as_bytes();
        let mut x = 0;
        while x < b.len() {
            if b[x].is_ascii_digit() || b[x] == b'-' {
                let start = x;
                while x < b.len() && (b[x].is_ascii_digit() || b[x] == b'-') {
                    x += 1;
                }
                if x - start >= 4 {
                    out.push((line[start..x].to_string(), y, start));
                }
            } else {
                x += 1;
            }
        }
    }
    out
}

/// The on-map hexes whose numbers the drawing shows, with where.
fn shown(board: &Board, lines: &[&str]) -> BTreeMap<Hex, (usize, usize)> {
    let by_label: BTreeMap<String, Hex> = board.cells.keys().map(|h| (h.to_string(), *h)).collect();
    let mut out = BTreeMap::new();
    for (tok, y, x) in number_tokens(lines) {
        let hex = by_label.get(&tok).copied();
        assert!(
            hex.is_some(),
            "{tok:?} at {y}:{x} is not a hex of the board"
        );
        let prev = out.insert(hex.unwrap_or(Hex::new(0, 0)), (y, x));
        assert!(prev.is_none(), "{tok} drawn twice");
    }
    out
}

fn check_lines(out: &str, width: usize, ctx: &str) {
    assert!(out.is_ascii(), "{ctx}: not ASCII\n{out}");
    assert!(out.ends_with('\n'), "{ctx}: no final newline");
    for l in out.lines() {
        assert!(
            l.len() <= width.max(1),
            "{ctx}: {} > {width}: {l:?}",
            l.len()
        );
        assert_eq!(l, l.trim_end(), "{ctx}: trailing space in {l:?}");
    }
}

// ---------------------------------------------------------------------------
// Properties

#[test]
fn snippet_properties_on_random_boards() {
    for seed in 0..400u64 {
        let mut rng = Rng(seed);
        let board = random_board(&mut rng);
        let focus = random_focus(&board, &mut rng);
        let width = rng.pick(&[40usize, 60, 72, 76, 78, 100]);
        let opts = Options {
            width,
            ..Options::default()
        };
        let ctx = format!("seed {seed}, width {width}, focus {focus:?}");
        let out = snippet(&board, &focus, &opts);
        check_lines(&out, width, &ctx);
        assert_eq!(
            out,
            snippet(&board, &focus, &opts),
            "{ctx}: not deterministic"
        );

        let lines = drawing(&out);
        let seen = shown(&board, &lines);
        if board.cells.is_empty() {
            assert!(seen.is_empty());
            continue;
        }
        // The hexes shown are exactly the board's hexes in some rectangle...
        let cols: BTreeSet<i32> = seen.keys().map(|h| h.col).collect();
        let rows: BTreeSet<i32> = seen.keys().map(|h| h.row).collect();
        let (Some(c0), Some(c1), Some(r0), Some(r1)) =
            (cols.first(), cols.last(), rows.first(), rows.last())
        else {
            panic!("{ctx}: no hex shown\n{out}");
        };
        let inside = |h: &Hex| (c0..=c1).contains(&&h.col) && (r0..=r1).contains(&&h.row);
        let want: BTreeSet<Hex> = board.cells.keys().filter(|h| inside(h)).copied().collect();
        assert_eq!(
            seen.keys().copied().collect::<BTreeSet<_>>(),
            want,
            "{ctx}\n{out}"
        );
        // ...no bigger than the page...
        let max_cols = ((width as i32 - 14) / 12 + 1).max(1);
        assert!(c1 - c0 < max_cols, "{ctx}: columns {c0}..{c1}");
        assert!(r1 - r0 < 5, "{ctx}: rows {r0}..{r1}");
        assert!(lines.len() <= opts.height, "{ctx}: {} lines", lines.len());
        // ...holding the first focus hex, and every focus hex if they fit.
        let on_map: Vec<&Hex> = focus
            .iter()
            .filter(|h| board.cells.contains_key(h))
            .collect();
        if let Some(first) = focus.first().filter(|h| board.cells.contains_key(h)) {
            assert!(
                seen.contains_key(first),
                "{ctx}: first focus not shown\n{out}"
            );
        }
        let fc: BTreeSet<i32> = on_map.iter().map(|h| h.col).collect();
        let fr: BTreeSet<i32> = on_map.iter().map(|h| h.row).collect();
        if let (Some(a), Some(b), Some(c), Some(d)) = (fc.first(), fc.last(), fr.first(), fr.last())
            && b - a < max_cols
            && d - c < 5
            && focus.len() == on_map.len()
        {
            for f in &on_map {
                assert!(seen.contains_key(f), "{ctx}: focus {f} not shown\n{out}");
            }
        }

        // Every unit in the window is in the output; none from outside is.
        for (at, cell) in &board.cells {
            for u in &cell.units {
                let u = u.label();
                let present = out.contains(u.as_str());
                if inside(at) {
                    assert!(present, "{ctx}: {u} of {at} missing\n{out}");
                } else {
                    let stem = u.trim_end_matches(['\'', '*']);
                    assert!(!out.contains(stem), "{ctx}: {u} of {at} outside\n{out}");
                }
            }
        }
    }
}

#[test]
fn full_properties_on_random_boards() {
    for seed in 1000..1200u64 {
        let mut rng = Rng(seed);
        let board = random_board(&mut rng);
        let width = rng.pick(&[40usize, 72, 76, 78]);
        for style in [FullStyle::Auto, FullStyle::Detailed, FullStyle::Overview] {
            let opts = Options {
                width,
                full: style,
                ..Options::default()
            };
            let ctx = format!("seed {seed}, width {width}, {style:?}");
            let out = full(&board, &opts);
            check_lines(&out, width, &ctx);
            assert_eq!(out, full(&board, &opts), "{ctx}: not deterministic");
            for (at, cell) in &board.cells {
                if style != FullStyle::Overview {
                    assert!(out.contains(&at.to_string()), "{ctx}: {at} missing\n{out}");
                }
                for u in cell.units.iter().map(Unit::label) {
                    assert!(out.contains(u.as_str()), "{ctx}: {u} missing\n{out}");
                }
            }
            assert!(
                out.contains("Reinforcements turn 3"),
                "{ctx}: off-map units"
            );
        }
    }
}

/// Every hexside in and around an 8×7 board, one at a time, stored on
/// either of its hexes (on the map or off it), with a snippet window that
/// shows only part of the board: the feature's characters sit between the
/// two hexes' numbers (or where the missing neighbour would be), and nowhere
/// else; a hexside with neither hex shown is not drawn.
#[test]
fn edges_are_drawn_on_their_hexside() {
    let board = plain(8, 7);
    let opts = Options {
        legend: false,
        ..Options::default()
    };
    // Where a hex's number sits relative to its centre, and where a neighbour's
    // centre is relative to it (in columns and lines): the drawing's contract.
    let label_offset = (-2.0, -1.5);
    let pitch = |d: Dir| match d {
        Dir::N => (0.0, -4.0),
        Dir::S => (0.0, 4.0),
        Dir::NE => (12.0, -2.0),
        Dir::SE => (12.0, 2.0),
        Dir::SW => (-12.0, 2.0),
        Dir::NW => (-12.0, -2.0),
    };
    let shown_plain = shown(&board, &drawing(&snippet(&board, &[h("0404")], &opts)));
    assert!(
        shown_plain.len() < board.cells.len(),
        "the window must cut the board"
    );
    let mut drawn_sides = 0;
    for col in 0..=9 {
        for row in 0..=8 {
            let at = Hex::new(col, row);
            for dir in Dir::ALL {
                let there = at.step(dir);
                if !board.cells.contains_key(&at) && !board.cells.contains_key(&there) {
                    continue;
                }
                for (kind, glyph, long_len) in [
                    (EdgeKind::River, '~', 10),
                    (EdgeKind::Wall, '#', 10),
                    (EdgeKind::Bridge, '=', 4),
                ] {
                    let mut b = board.clone();
                    b.edges.push(Edge { hex: at, dir, kind });
                    let ctx = format!("{at} {dir:?} {kind:?}");
                    let out = snippet(&b, &[h("0404")], &opts);
                    let lines = drawing(&out);
                    let seen = shown(&b, &lines);
                    let marks: Vec<(f64, f64)> = lines
                        .iter()
                        .enumerate()
                        .flat_map(|(y, l)| {
                            l.char_indices()
                                .filter(|(_, c)| *c == glyph)
                                .map(move |(x, _)| (x as f64, y as f64))
                        })
                        .collect();
                    let centre = |hex: &Hex| {
                        seen.get(hex).map(|&(y, x)| {
                            (x as f64 + 1.5 - label_offset.0, y as f64 - label_offset.1)
                        })
                    };
                    // Measure from whichever of the two hexes is shown.
                    let (mine, other) = match (centre(&at), centre(&there)) {
                        (Some(a), Some(b)) => (a, b),
                        (Some(a), None) => {
                            let (dx, dy) = pitch(dir);
                            (a, (a.0 + dx, a.1 + dy))
                        }
                        (None, Some(b)) => {
                            let (dx, dy) = pitch(dir.opposite());
                            (b, (b.0 + dx, b.1 + dy))
                        }
                        (None, None) => {
                            assert!(marks.is_empty(), "{ctx}: drawn off the window\n{out}");
                            continue;
                        }
                    };
                    drawn_sides += 1;
                    let mid = ((mine.0 + other.0) / 2.0, (mine.1 + other.1) / 2.0);
                    let want = if matches!(dir, Dir::N | Dir::S) {
                        long_len
                    } else {
                        2
                    };
                    assert_eq!(marks.len(), want, "{ctx}\n{out}");
                    for (x, y) in &marks {
                        assert!(
                            (x - mid.0).abs() <= 5.0 && (y - mid.1).abs() <= 1.0,
                            "{ctx}: {glyph} at {y}:{x}, side at {mid:?}\n{out}"
                        );
                    }
                    let n = marks.len() as f64;
                    let cx = marks.iter().map(|m| m.0).sum::<f64>() / n;
                    let cy = marks.iter().map(|m| m.1).sum::<f64>() / n;
                    assert!(
                        (cx - mid.0).abs() <= 1.0 && (cy - mid.1).abs() <= 1.0,
                        "{ctx}: centroid {cx},{cy} vs {mid:?}\n{out}"
                    );
                }
            }
        }
    }
    // Sanity: the loop really looked at sides (30 hexes, 6 sides, 2 ways, 3 kinds).
    assert!(drawn_sides > 500, "{drawn_sides}");
}

#[test]
fn bridge_beats_river_whatever_the_order() {
    let opts = Options::default();
    let base = small();
    let n = base.edges.len();
    for rot in 0..n {
        for rev in [false, true] {
            let mut b = base.clone();
            b.edges.rotate_left(rot);
            if rev {
                b.edges.reverse();
            }
            let out = snippet(&b, &[h("0202")], &opts);
            assert_eq!(out, SMALL_SNIPPET, "rotated {rot}, reversed {rev}\n{out}");
        }
    }
}

#[test]
fn full_map_of_30_by_20_names_every_hex() {
    let mut board = plain(30, 20);
    board.cells.get_mut(&h("1710")).expect("1710").units = units(&["ds.i1"]);
    let out = full(&board, &Options::default());
    check_lines(&out, 76, "30x20");
    for at in board.cells.keys() {
        assert!(out.contains(&at.to_string()), "{at} missing");
    }
    assert!(out.contains("ds.i1"));
    assert_eq!(out, full(&board, &Options::default()));
}

/// In the overview a hex is found by its column on the rulers and its row on
/// the left: check that this leads to the right cell for every hex.
#[test]
fn overview_finds_every_hex_by_ruler_and_row() {
    let mut board = plain(30, 20);
    let letters = b"abcdefghijklmnopqrstuvwxyz";
    for (i, cell) in board.cells.values_mut().enumerate() {
        cell.terrain = letters[(i * 7) % 26] as char;
        cell.units = (0..i % 4).map(|k| Unit::new(format!("x{k}"))).collect();
    }
    let opts = Options {
        full: FullStyle::Overview,
        ..Options::default()
    };
    let out = full(&board, &opts);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("Overview, columns 01-30"), "{out}");
    let (odd, even) = (lines[1], lines[2]);
    let grid = &lines[3..];
    for (at, cell) in &board.cells {
        let ruler = if at.col % 2 == 1 { odd } else { even };
        let col = format!("{:02}", at.col);
        let x = ruler
            .match_indices(&col)
            .map(|(x, _)| x)
            .find(|&x| x == 0 || ruler.as_bytes()[x - 1] == b' ')
            .unwrap_or_else(|| panic!("column {col} not on the ruler\n{out}"));
        let row = format!("{:02} ", at.row);
        let mut on_row = grid.iter().filter(|l| l.starts_with(&row));
        let line = if at.col % 2 == 1 {
            on_row.next()
        } else {
            on_row.nth(1)
        };
        let line = line
            .unwrap_or_else(|| panic!("row {row} missing\n{out}"))
            .as_bytes();
        assert_eq!(
            line.get(x).copied(),
            Some(cell.terrain as u8),
            "{at}\n{out}"
        );
        // Trailing spaces are trimmed, so an empty count may be past the end.
        let count = line.get(x + 1).copied().unwrap_or(b' ');
        let want = match cell.units.len() {
            0 => b' ',
            n => b'0' + n as u8,
        };
        assert_eq!(count, want, "{at} units\n{out}");
    }
}

#[test]
fn never_panics_on_odd_boards() {
    let mut boards = vec![Board::default()];
    let mut one = Board::default();
    one.cells.insert(Hex::new(-3, -7), cell('^'));
    boards.push(one);
    let mut far = Board::default();
    for (c, r) in [
        (i32::MIN, i32::MIN),
        (i32::MAX, i32::MAX),
        (i32::MIN, i32::MAX),
        (0, 0),
        (-1, -1),
    ] {
        far.cells.insert(Hex::new(c, r), cell('.'));
        far.edges.push(Edge {
            hex: Hex::new(c, r),
            dir: Dir::SE,
            kind: EdgeKind::Wall,
        });
    }
    boards.push(far);
    let mut huge = plain(2, 2);
    let c = huge.cells.get_mut(&h("0101")).expect("0101");
    c.units = (0..1000).map(|i| Unit::new(format!("unit{i}"))).collect();
    c.name = Some("N".repeat(10_000));
    c.terrain = '\u{1F5FB}';
    c.control = Some('\n');
    huge.legend = vec![Legend::new("長", "x".repeat(500))];
    huge.off_map = vec!["y ".repeat(300)];
    boards.push(huge);
    let focus = [Hex::new(i32::MAX, i32::MIN), Hex::new(0, 0)];
    for (i, b) in boards.iter().enumerate() {
        for width in [0, 1, 5, 13, 14, 30, 76, 200] {
            for style in [FullStyle::Auto, FullStyle::Detailed, FullStyle::Overview] {
                let opts = Options {
                    width,
                    height: width / 3,
                    full: style,
                    legend: true,
                };
                let ctx = format!("board {i}, width {width}, {style:?}");
                check_lines(&snippet(b, &focus, &opts), width, &ctx);
                check_lines(&snippet(b, &[], &opts), width, &ctx);
                check_lines(&full(b, &opts), width, &ctx);
            }
        }
    }
    // The far-apart board is drawn as small pieces, not as an ocean.
    let out = full(&boards[2], &Options::default());
    assert!(out.lines().count() < 400, "{} lines", out.lines().count());
}

#[test]
fn a_snippet_key_lists_only_the_units_and_terrain_in_its_window() {
    let mut b = plain(20, 10);
    b.cells.get_mut(&h("0202")).expect("0202").units = units(&["near.1'"]);
    b.cells.get_mut(&h("1909")).expect("1909").units = units(&["far.1"]);
    b.cells.get_mut(&h("1810")).expect("1810").terrain = 'M';
    b.off_map = vec!["off.1 (enters turn 3)".into()];
    b.legend = vec![
        Legend::new(".", "plain"),
        Legend::new("M", "mountain"),
        Legend::new("near.1", "a unit near the action"),
        Legend::new("far.1", "a unit far away"),
        Legend::new("off.1", "a unit off the map"),
        Legend::new("*", "disorganized"),
    ];
    let s = snippet(&b, &[h("0202")], &Options::default());
    assert!(s.contains("near.1 a unit near the action"), "{s}");
    assert!(s.contains(". plain"), "{s}");
    assert!(s.contains("* disorganized"), "marks always explained: {s}");
    assert!(!s.contains("far.1"), "{s}");
    assert!(!s.contains("mountain"), "{s}");
    assert!(!s.contains("off.1"), "{s}");
    // The whole map still explains everything.
    let f = full(&b, &Options::default());
    for word in ["far.1 a unit far away", "M mountain", "off.1"] {
        assert!(f.contains(word), "{word} missing from the full map");
    }
}

#[test]
fn odd_low_maps_draw_odd_columns_lower() {
    // An `Offset::OddLow` map (Lest Darkness Fall) shifts the odd columns down:
    // 0101 sits half a hex below 0201, where an even-low map draws it above.
    let mut board = plain(3, 2);
    let opts = Options::default();
    let even = shown(&board, &drawing(&snippet(&board, &[h("0201")], &opts)));
    assert!(even[&h("0101")].0 < even[&h("0201")].0);
    board.offset = umpire_core::hex::Offset::OddLow;
    let odd = shown(&board, &drawing(&snippet(&board, &[h("0201")], &opts)));
    assert!(odd[&h("0101")].0 > odd[&h("0201")].0, "{odd:?}");
    assert_eq!(odd[&h("0101")].0, odd[&h("0301")].0);
}
