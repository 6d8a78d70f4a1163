//! The point-to-point renderer on a fixture shaped like A Distant Plain:
//! spaces of several kinds, four factions' pieces (underground and active
//! guerrillas), support and control, LoCs as spaces and as links with
//! sabotage, and tracks.

use super::*;
use umpire_core::board::{Legend, Link, Marker, Space, Track, Unit, UnitMark};

pub(crate) const KABUL: SpaceId = SpaceId(1);
const LOGAR: SpaceId = SpaceId(2);
const KANDAHAR: SpaceId = SpaceId(3);
const RING_ROAD: SpaceId = SpaceId(4);
const BAMIAN: SpaceId = SpaceId(5);
const BALOCHISTAN: SpaceId = SpaceId(6);

fn space(name: &str, kinds: &[&str]) -> Space {
    Space {
        name: name.into(),
        kinds: kinds.iter().map(|k| k.to_string()).collect(),
        ..Space::default()
    }
}

pub(crate) fn fixture() -> PointBoard {
    let mut b = PointBoard::default();
    let mut kabul = space("Kabul", &["city", "Pashtun", "pop 3"]);
    kabul.control = Some('C');
    kabul.highlight = true;
    kabul.markers = vec![Marker::new("Support", "active")];
    kabul.units = vec![
        Unit::pieces('C', "Troops", 3),
        Unit::pieces('C', "Base", 1),
        Unit::pieces('G', "Police", 4),
        Unit::pieces('T', "Guerrilla", 2).mark(UnitMark::Hidden),
        Unit::pieces('T', "Guerrilla", 1).mark(UnitMark::Active),
    ];
    b.spaces.insert(KABUL, kabul);
    let mut logar = space("Logar", &["province", "Pashtun", "pop 1"]);
    logar.control = Some('T');
    logar.markers = vec![Marker::new("Opposition", "passive")];
    logar.units = vec![
        Unit::pieces('T', "Guerrilla", 4),
        Unit::pieces('W', "Base", 1),
    ];
    b.spaces.insert(LOGAR, logar);
    b.spaces
        .insert(KANDAHAR, space("Kandahar", &["province", "Pashtun"]));
    let mut road = space("Ring Road Kabul-Kandahar", &["LoC", "econ 3"]);
    road.markers = vec![Marker::flag("Sabotage")];
    road.units = vec![Unit::pieces('T', "Guerrilla", 1).mark(UnitMark::Hidden)];
    b.spaces.insert(RING_ROAD, road);
    b.spaces.insert(BAMIAN, space("Bamian", &["province"]));
    b.spaces
        .insert(BALOCHISTAN, space("Balochistan", &["Pakistan", "Pashtun"]));
    b.links = vec![
        Link::new(KABUL, LOGAR),
        Link::new(KABUL, RING_ROAD),
        Link::new(RING_ROAD, KANDAHAR),
        Link::new(KABUL, BAMIAN),
        Link {
            markers: vec![Marker::flag("Border crossing closed")],
            ..Link::new(KANDAHAR, BALOCHISTAN)
        },
    ];
    b.tracks = vec![
        Track::new("Aid", 15).max(75),
        Track::new("Government resources", 20).max(75),
        Track::new("Taliban resources", 8).max(75),
        Track::new("Total support + available COIN", 31),
    ];
    b.legend = vec![
        Legend::new("C", "Coalition"),
        Legend::new("G", "Government"),
        Legend::new("T", "Taliban"),
        Legend::new("W", "Warlords"),
    ];
    b.off_map = vec!["Available: C 6 Troops; T 12 Guerrilla".into()];
    b
}

fn check(out: &str) {
    assert!(out.is_ascii(), "{out}");
    for l in out.lines() {
        assert!(l.len() <= MAX_WIDTH, "{} > 72: {l:?}", l.len());
        assert_eq!(l, l.trim_end(), "trailing space: {l:?}");
    }
}

const SNIPPET: &str = "\
> Kabul [city, Pashtun, pop 3] (control C)
    Support: active
    C Coalition: 3 Troops, Base
    G Government: 4 Police
    T Taliban: 2 Guerrilla?, Guerrilla!
    links: Logar, Ring Road Kabul-Kandahar, Bamian

Next to them:
  - Logar [province, Pashtun, pop 1] (control T): T4 W1; Opposition:
    passive
  - Ring Road Kabul-Kandahar [LoC, econ 3]: T1; Sabotage
  - Bamian [province]

Tracks: Aid 15/75   Government resources 20/75   Taliban resources 8/75
        Total support + available COIN 31

Key: > last action   C3: 3 pieces of side C
     ? hidden (face-down, underground)   ! active (revealed)
     C Coalition   G Government   T Taliban   W Warlords
";

#[test]
fn snippet_gives_the_action_in_full_and_the_neighbours_in_brief() {
    let b = fixture();
    let out = snippet(&b, &[KABUL], &Options::default());
    check(&out);
    assert_eq!(out, SNIPPET, "\n{out}");
    assert!(!out.contains("Balochistan"), "not next to Kabul\n{out}");
}

#[test]
fn full_map_lists_every_space_piece_marker_and_link() {
    let b = fixture();
    let out = full(&b, &Options::default());
    check(&out);
    for sp in b.spaces.values() {
        assert!(out.contains(&sp.name), "{} missing\n{out}", sp.name);
        for m in &sp.markers {
            assert!(out.contains(&m.to_string()), "{m} missing");
        }
    }
    for want in [
        "Ring Road Kabul-Kandahar [LoC, econ 3]\n    Sabotage\n    T Taliban: Guerrilla?",
        "    W Warlords: Base",
        "    links: Ring Road Kabul-Kandahar\n           Balochistan [Border crossing closed]",
        "Links: Kandahar - Balochistan: Border crossing closed",
        "Off map: Available: C 6 Troops; T 12 Guerrilla",
        "Tracks: Aid 15/75",
    ] {
        assert!(out.contains(want), "{want:?} missing\n{out}");
    }
    // Focus on nothing: the whole map, not an empty mail.
    let mut quiet = b.clone();
    for s in quiet.spaces.values_mut() {
        s.highlight = false;
    }
    assert_eq!(
        snippet(&quiet, &[], &Options::default()),
        full(&quiet, &Options::default())
    );
}

#[test]
fn never_panics_or_overflows_on_odd_boards() {
    let mut odd = PointBoard::default();
    odd.spaces.insert(
        SpaceId(0),
        Space {
            name: "長".repeat(100),
            key: Some("長".repeat(100)),
            kinds: vec!["x".repeat(200)],
            control: Some('\n'),
            markers: vec![Marker::new("y".repeat(90), "z")],
            units: (0..200)
                .map(|i| Unit::pieces('A', format!("p{i}"), i))
                .collect(),
            highlight: true,
        },
    );
    odd.links.push(Link::new(SpaceId(0), SpaceId(9)));
    for b in [PointBoard::default(), odd] {
        for width in [0, 1, 10, 40, 72, 200] {
            let opts = Options {
                width,
                ..Options::default()
            };
            for out in [
                snippet(&b, &[SpaceId(0), SpaceId(7)], &opts),
                full(&b, &opts),
            ] {
                assert!(out.is_ascii());
                assert!(
                    out.lines().all(|l| l.len() <= width.clamp(1, MAX_WIDTH)),
                    "{out}"
                );
            }
        }
    }
}
