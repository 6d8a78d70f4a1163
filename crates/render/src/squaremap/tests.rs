//! The square-grid renderer on a fixture shaped like Asia Crossroads: a
//! 12 × 6 grid (wider than one strip), a river, a border, a bridge, named
//! cities, two sides' stacks with marks, a face-down agent and tracks.

use super::*;
use umpire_core::board::{Cell, Legend, SquareEdge, Track, Unit, UnitMark};

fn sq(s: &str) -> Square {
    s.parse().expect("square label")
}

pub(crate) fn fixture() -> SquareBoard {
    let mut b = SquareBoard::default();
    for c in 1..=12 {
        for r in 1..=6 {
            let terrain = match (c + r) % 5 {
                0 => '^',
                1 => 'd',
                _ => '.',
            };
            b.cells.insert(
                Square::new(c, r),
                Cell {
                    terrain,
                    ..Cell::default()
                },
            );
        }
    }
    let herat = b.cells.get_mut(&sq("0302")).expect("0302");
    herat.name = Some("Herat".into());
    herat.control = Some('B');
    herat.highlight = true;
    herat.units = vec![
        Unit::new("1st_Bombay").side('B').strength(4),
        Unit::new("2nd_Bombay").side('B').mark(UnitMark::Reduced),
        Unit::new("Cossacks").side('R').mark(UnitMark::Disorganized),
        Unit::new("agent").side('R').mark(UnitMark::Hidden),
    ];
    let merv = b.cells.get_mut(&sq("0403")).expect("0403");
    merv.name = Some("Merv".into());
    merv.control = Some('R');
    merv.highlight = true;
    merv.units = vec![
        Unit::new("Orenburg_Div").side('R').strength(6),
        Unit::new("Irregulars").side('R').count(3),
    ];
    b.cells.get_mut(&sq("1105")).expect("1105").units = vec![Unit::new("Far_Column").side('B')];
    for r in 1..=6 {
        b.edges.push(SquareEdge {
            square: Square::new(3, r),
            dir: Dir8::E,
            kind: EdgeKind::River,
        });
    }
    b.edges.push(SquareEdge {
        square: sq("0302"),
        dir: Dir8::E,
        kind: EdgeKind::Bridge,
    });
    for c in 1..=12 {
        b.edges.push(SquareEdge {
            square: Square::new(c, 4),
            dir: Dir8::S,
            kind: EdgeKind::Border,
        });
    }
    b.legend = vec![
        Legend::new(".", "plain"),
        Legend::new("^", "mountain"),
        Legend::new("d", "desert"),
        Legend::new("B", "British"),
        Legend::new("R", "Russian"),
    ];
    b.tracks = vec![
        Track::new("Turn", 3).max(12),
        Track::new("Balance of Power", -2),
    ];
    b.off_map = vec!["British home base: 3rd_Bombay".into()];
    b
}

fn check(out: &str) {
    assert!(out.is_ascii(), "{out}");
    for l in out.lines() {
        assert!(l.len() <= MAX_WIDTH, "{} > 72: {l:?}", l.len());
        assert_eq!(l, l.trim_end(), "trailing space: {l:?}");
    }
}

const SNIPPET: &str = "      01     02     03     04     05     06     07     08     09
   +------+------+------+------+------+------+------+------+------+
01 | .    | .    | .    ~ ^    | d    | .    | .    | .    | ^    |
   |      |      |      ~      |      |      |      |      |      |
   +------+------+------+------+------+------+------+------+------+
02 | .    | .    |>^  B = d    | .    | .    | .    | ^    | d    |
   |      |      |B2 R2 =      |      |      |      |      |      |
   +------+------+------+------+------+------+------+------+------+
03 | .    | ^    | d    ~>.  R | .    | .    | ^    | d    | .    |
   |      |      |      ~R4    |      |      |      |      |      |
   +------+------+------+------+------+------+------+------+------+
04 | ^    | d    | .    ~ .    | .    | ^    | d    | .    | .    |
   |      |      |      ~      |      |      |      |      |      |
   +::::::+::::::+::::::+::::::+::::::+::::::+::::::+::::::+::::::+
05 | d    | .    | .    ~ .    | ^    | d    | .    | .    | .    |
   |      |      |      ~      |      |      |      |      |      |
   +------+------+------+------+------+------+------+------+------+
06 | .    | .    | .    ~ ^    | d    | .    | .    | .    | ^    |
   |      |      |      ~      |      |      |      |      |      |
   +------+------+------+------+------+------+------+------+------+

Squares:
0302 Herat (control B, last action)
  B British: 1st_Bombay(4), 2nd_Bombay'
  R Russian: Cossacks*, agent?
0403 Merv (control R, last action)
  R Russian: Orenburg_Div(6), 3xIrregulars

Shown: columns 01-09, rows 01-06 (map: columns 01-12, rows 01-06).

Tracks: Turn 3/12   Balance of Power -2

Key: square: terrain, control; pieces by side (R2 = 2 of side R)
     number: column above, row left   > last action
     sides: : border, ~ river, = bridge   ' reduced   * disorganized
     ? hidden (face-down, underground)   . plain   ^ mountain   d desert
     B British   R Russian
";

/// The golden snippet around Herat and Merv: the window is nine columns of
/// the twelve, every unit in it is listed by side with its marks, and the key
/// explains the marks, sides and terrain in view.
#[test]
fn snippet_draws_the_grid_and_lists_every_unit() {
    let b = fixture();
    let out = snippet(&b, &[sq("0302"), sq("0403")], &Options::default());
    check(&out);
    // Checked by eye: Herat (0302, a mountain held by B, last action) has
    // two British and two Russian units; the bridge crosses the river on its
    // east side into 0402; Merv (0403) holds four Russian pieces (one
    // division and three irregulars); the border runs under row 04.
    assert_eq!(out, SNIPPET, "\n{out}");
    // The far column is outside the window: neither drawn nor listed.
    assert!(!out.contains("Far_Column"), "{out}");
    assert_eq!(
        out,
        snippet(&b, &[sq("0302"), sq("0403")], &Options::default())
    );
}

#[test]
fn full_map_comes_in_strips_and_names_everything() {
    let b = fixture();
    let out = full(&b, &Options::default());
    check(&out);
    assert!(
        out.contains("Map, columns 01-09, rows 01-06 (1 of 2):"),
        "{out}"
    );
    assert!(
        out.contains("Map, columns 10-12, rows 01-06 (2 of 2):"),
        "{out}"
    );
    for c in 1..=12 {
        assert!(
            out.contains(&format!(" {c:02} ")) || out.contains(&format!(" {c:02}\n")),
            "column {c}"
        );
    }
    for cell in b.cells.values() {
        for u in &cell.units {
            assert!(out.contains(&u.short()), "{} missing\n{out}", u.short());
        }
    }
    assert!(out.contains("1105\n  B British: Far_Column"), "{out}");
    assert!(
        out.contains("Off map: British home base: 3rd_Bombay"),
        "{out}"
    );
}

#[test]
fn never_panics_or_overflows_on_odd_boards() {
    let mut far = SquareBoard::default();
    for (c, r) in [(i32::MIN, i32::MIN), (i32::MAX, i32::MAX), (0, 0)] {
        far.cells.insert(Square::new(c, r), Cell::default());
        far.edges.push(SquareEdge {
            square: Square::new(c, r),
            dir: Dir8::E,
            kind: EdgeKind::Wall,
        });
    }
    let mut crowd = SquareBoard::default();
    crowd.cells.insert(
        Square::new(1, 1),
        Cell {
            terrain: '長',
            name: Some("N".repeat(500)),
            units: (0..300)
                .map(|i| Unit::new(format!("u{i}")).side(char::from(b'A' + (i % 26) as u8)))
                .collect(),
            ..Cell::default()
        },
    );
    for b in [SquareBoard::default(), far, crowd] {
        for width in [0, 1, 10, 40, 72, 200] {
            let opts = Options {
                width,
                height: 30,
                ..Options::default()
            };
            for out in [snippet(&b, &[Square::new(5, 5)], &opts), full(&b, &opts)] {
                assert!(out.is_ascii());
                assert!(
                    out.lines().all(|l| l.len() <= width.clamp(1, MAX_WIDTH)),
                    "{out}"
                );
            }
        }
    }
}
