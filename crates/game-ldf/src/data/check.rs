//! Holding the data to what the rulebook says: the anchor hexes, the narrows,
//! the double-legion hexes, the counter total, the tables the rules cite
//! ([`rulebook`], for the embedded data and a club's replacement files), and
//! to what the engine needs of any map, a test's small fixture included
//! ([`structure`]: places and narrows on land, named hexes on the map, one
//! row of the tables per die face).

use super::{Data, DataSummary, Kind, OFFSET, Region, Size};
use umpire_core::data::DataErrors;
use umpire_core::hex::Hex;

fn h(s: &str) -> Hex {
    s.parse().unwrap_or(Hex::new(0, 0))
}

/// Every check; all problems at once.
pub(super) fn check(d: &Data) -> Result<(), DataErrors> {
    let mut e = structure(d);
    e.extend(rulebook(d));
    if e.is_empty() { Ok(()) } else { Err(e.into()) }
}

/// What the engine needs of any map and tables, whatever hexes they number:
/// every place, narrows, legion symbol and named hex on the map's land,
/// hexsides between land hexes, sea zones on the sea, one CRT row and one
/// Emperor Creation Table row per die face.
pub(super) fn structure(d: &Data) -> Vec<String> {
    let mut e = Vec::new();
    for p in &d.places {
        if !d.is_land(p.hex) {
            e.push(format!("{} is in {}, not a land hex", p.name, p.hex));
        }
    }
    let s = &d.special;
    for (name, hx) in [
        ("rome", s.rome),
        ("ctesiphon", s.ctesiphon),
        ("palmyra", s.palmyra),
        ("petra", s.petra),
        ("trier", s.trier),
        ("dacia", s.dacia),
        ("decumates", s.decumates),
    ] {
        if !d.is_land(hx) {
            e.push(format!(
                "special.{name} ({hx}) is not a land hex of the map"
            ));
        }
    }
    narrows_connect(d, &mut e);
    for x in &d.hexes {
        if x.legions > 0 && !x.is_land() {
            e.push(format!("legion symbol in all-sea hex {}", x.hex));
        }
        if x.is_land() != x.zone.is_none() {
            e.push(format!(
                "hex {}: every all-sea hex and only they have a sea zone",
                x.hex
            ));
        }
    }
    for (a, b) in d.sides.keys() {
        if !d.is_land(*a) || !d.is_land(*b) {
            e.push(format!("hexside {a}/{b} is not between two land hexes"));
        }
    }
    if d.crt.len() != 6 || d.crt_columns.is_empty() {
        e.push("the CRT has one row per die roll, 1-6 (13.2)".into());
    }
    if d.emperor.len() != 6 {
        e.push("the Emperor Creation Table has six rows (14.4)".into());
    }
    e
}

/// What the rulebook fixes: the hexes it numbers, the narrows it lists, the
/// double-legion hexes, the Caucasus, Barbaria and Parthia it sizes, the
/// counter mix and the tables' printed values. Not asked of a test fixture.
pub(super) fn rulebook(d: &Data) -> Vec<String> {
    let mut e = Vec::new();
    anchors(d, &mut e);
    narrows(d, &mut e);
    legions(d, &mut e);
    regions(d, &mut e);
    counters(d, &mut e);
    tables(d, &mut e);
    e
}

/// The summary, after the checks have passed.
pub fn check_loaded(d: &Data) -> Result<DataSummary, DataErrors> {
    check(d)?;
    Ok(d.summary())
}

fn tp_is(d: &Data, hex: &str, tp: u32, rule: &str, e: &mut Vec<String>) {
    let got = d.hex(h(hex)).map_or(0, |x| x.tp);
    if got != tp {
        e.push(format!("hex {hex} yields {got} TP; rule {rule} says {tp}"));
    }
}

fn region_is(d: &Data, hex: &str, ok: &[Region], rule: &str, e: &mut Vec<String>) {
    let r = d.region(h(hex));
    if !ok.contains(&r) {
        e.push(format!("hex {hex} is {} (rule {rule})", r.name()));
    }
}

fn anchors(d: &Data, e: &mut Vec<String>) {
    let s = &d.special;
    for (name, hx, want) in [
        ("rome", s.rome, "3318"),
        ("ctesiphon", s.ctesiphon, "5020"),
        ("palmyra", s.palmyra, "4720"),
        ("petra", s.petra, "4623"),
        ("trier", s.trier, "3114"),
        ("dacia", s.dacia, "3816"),
        ("decumates", s.decumates, "3215"),
    ] {
        if hx != h(want) {
            e.push(format!("special.{name} is {hx}; the rulebook says {want}"));
        }
    }
    tp_is(d, "3318", 4, "6.5", e);
    tp_is(d, "4521", 2, "13.10", e);
    tp_is(d, "4119", 5, "13.10", e);
    tp_is(d, "4720", 2, "6.5, 9.1", e);
    tp_is(d, "3816", 1, "6.5", e);
    tp_is(d, "3215", 1, "6.5", e);
    let core = [Region::Core, Region::Gallic, Region::Italy, Region::Island];
    region_is(d, "3318", &[Region::Italy], "14.3 (mainland Italy)", e);
    region_is(d, "3217", &[Region::Italy], "14.3 (mainland Italy)", e);
    region_is(d, "3316", &[Region::Italy], "14.3 (mainland Italy)", e);
    region_is(d, "5020", &[Region::Parthia], "7.3", e);
    region_is(d, "4720", &[Region::Palmyra], "9.1", e);
    region_is(d, "3816", &[Region::Dacia], "9.7", e);
    region_is(d, "3215", &[Region::Decumates], "9.7", e);
    region_is(d, "2813", &[Region::Gallic], "9.5 (Britain is Gallic)", e);
    region_is(d, "3114", &[Region::Gallic], "9.5 (Trier)", e);
    region_is(d, "4521", &core, "13.10", e);
    region_is(d, "4623", &core, "12.6", e);
    let londinium = d
        .places
        .iter()
        .any(|p| p.name == "Londinium" && p.hex == h("2813") && p.size == Size::Town);
    if !londinium {
        e.push("the town of Londinium must be in 2813 (9.5)".into());
    }
    let rome = d.places.iter().filter(|p| p.hex == h("3318")).count();
    if rome != 2 {
        e.push("3318 holds Rome and Ostia (6.5)".into());
    }
    // 9.5: the three hexes meet at one point (odd-q, ruling R-D2).
    let (a, b, c) = (h("3315"), h("3415"), h("3416"));
    if !(a.adjacent_on(OFFSET, b) && b.adjacent_on(OFFSET, c) && a.adjacent_on(OFFSET, c)) {
        e.push("3315, 3415 and 3416 must meet at one point (9.5)".into());
    }
}

fn narrows(d: &Data, e: &mut Vec<String>) {
    let listed = [
        "2421", "2913", "3218", "3219", "3520", "3619", "4019", "4119",
    ];
    let got: Vec<Hex> = d
        .hexes
        .iter()
        .filter(|x| x.narrows.is_some())
        .map(|x| x.hex)
        .collect();
    let want: Vec<Hex> = listed.iter().map(|s| h(s)).collect();
    if got != want {
        e.push(format!("the narrows are {listed:?} (1.5)"));
    }
}

/// Each narrows hex is land and links only adjacent land hexes, four at most
/// (12.5).
fn narrows_connect(d: &Data, e: &mut Vec<String>) {
    for x in d.hexes.iter().filter(|x| x.narrows.is_some()) {
        if !x.is_land() {
            e.push(format!("narrows {} is all-sea (1.5)", x.hex));
        }
        for n in x.narrows.iter().flatten() {
            if !x.hex.adjacent_on(OFFSET, *n) || !d.is_land(*n) {
                e.push(format!(
                    "narrows {} connects {n}, not an adjacent land hex (12.5)",
                    x.hex
                ));
            }
        }
        if x.narrows.as_ref().is_some_and(|c| c.len() > 4) {
            e.push(format!(
                "narrows {} connects more than four hexes (12.5)",
                x.hex
            ));
        }
    }
}

fn legions(d: &Data, e: &mut Vec<String>) {
    let doubles = ["2812", "3515", "3615", "3816", "4619", "4719"];
    for x in &d.hexes {
        let want = if doubles.contains(&x.hex.to_string().as_str()) {
            2
        } else {
            x.legions.min(1)
        };
        if x.legions != want {
            e.push(format!(
                "hex {} has {} legion symbols (3.2: two only in {doubles:?})",
                x.hex, x.legions
            ));
        }
    }
    let symbols: u32 = d.hexes.iter().map(|x| u32::from(x.legions)).sum();
    for k in [Kind::Base, Kind::Infantry] {
        let n = d.of_kind(k).count() as u32;
        if n != symbols {
            e.push(format!(
                "{n} {}s for {symbols} legion symbols (3.2)",
                k.name()
            ));
        }
    }
}

fn regions(d: &Data, e: &mut Vec<String>) {
    let count = |f: &dyn Fn(Region) -> bool| d.hexes.iter().filter(|x| f(x.region)).count();
    let caucasus = count(&|r| r.is_caucasus());
    if caucasus != 6 {
        e.push(format!("{caucasus} Caucasus hexes; 1.2 and 3.2 say six"));
    }
    for x in d.hexes.iter().filter(|x| x.region.is_caucasus()) {
        if x.tp != 1 {
            e.push(format!(
                "Caucasus hex {} yields {} TP (9.6: one)",
                x.hex, x.tp
            ));
        }
    }
    let tribes = d.of_kind(Kind::Tribe).count();
    if count(&|r| r == Region::Barbaria) < tribes {
        e.push(format!(
            "Barbaria must hold {tribes} tribes one a hex (3.3)"
        ));
    }
    let parthian_centres = d
        .hexes
        .iter()
        .filter(|x| x.region == Region::Parthia && x.tp > 0)
        .count();
    let pg = d.of_kind(Kind::ParthianGarrison).count();
    if parthian_centres != pg {
        e.push(format!(
            "{parthian_centres} Parthian population-centre hexes for {pg} garrisons (3.3)"
        ));
    }
}

fn counters(d: &Data, e: &mut Vec<String>) {
    let n = |k| d.of_kind(k).count();
    for (k, want, rule) in [
        (Kind::Emperor, 1, "3.2"),
        (Kind::CoEmperor, 1, "3.2"),
        (Kind::Cavalry, 3, "3.2"),
        (Kind::RomanGarrison, 11, "3.2"),
        (Kind::ClientGarrison, 7, "3.2"),
        (Kind::Palmyran, 8, "3.2"),
        (Kind::Tribe, 17, "3.3"),
        (Kind::Gund, 8, "3.3"),
    ] {
        if n(k) != want {
            e.push(format!("{} {}s; rule {rule} says {want}", n(k), k.name()));
        }
    }
    let total = d.units.len() as u32 + d.markers;
    if total != d.counter_total {
        e.push(format!(
            "{} units and {} markers make {total} counters; 2.2 says {}",
            d.units.len(),
            d.markers,
            d.counter_total
        ));
    }
}

fn tables(d: &Data, e: &mut Vec<String>) {
    let cols = &d.crt_columns;
    if cols.first() != Some(&(1, 3)) || cols.last() != Some(&(6, 1)) {
        e.push("the CRT columns run from 1:3 to 6:1 (13.15)".into());
    }
    if d.chits.len() != 24 {
        e.push(format!("{} chits; 3.5 says 24", d.chits.len()));
    }
    for (n, effect) in [
        (2, "beseech"),
        (7, "mad_dash"),
        (10, "plague"),
        (17, "agents"),
        (18, "gods_bored"),
        (21, "siege"),
        (22, "resurgence"),
        (24, "windfall"),
    ] {
        if d.chit(n).map(|c| c.effect.as_str()) != Some(effect) {
            e.push(format!(
                "chit {n} must be {effect} (its number is in the text)"
            ));
        }
    }
    let v = &d.values;
    if v.turns != 5 || v.hand_limit != 6 || v.tp != [1, 2, 3] || v.start_treasury != 5 {
        e.push(
            "turns 5, hand 6, TP 1/2/3 and a treasury of 5 are printed (3.2, 5.4, 6.5, 8.17)"
                .into(),
        );
    }
}
