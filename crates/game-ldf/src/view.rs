//! What a player sees (10.9: no fog of war but the chit hands): the turn, the
//! treasury, every stack, the special entities, his own hand and only the
//! count of the other's. The public (observers, the club's page) sees the
//! counts of both hands and neither hand; the umpire sees both.

use super::data::{Data, OFFSET, Region, UnitId};
use super::state::{Gallic, Loc, Palmyra, Player, Stage, State};
use std::collections::BTreeMap;
use umpire_core::board::{Board, Cell, HexBoard, Legend, Unit, UnitMark};
use umpire_core::hex::Hex;
use umpire_core::ruleset::{Side, View, Viewer};

fn chit_list(d: &Data, cs: &[u8]) -> String {
    if cs.is_empty() {
        return "none".into();
    }
    cs.iter()
        .map(|c| format!("{c} {}", d.chit(*c).map_or("?", |x| x.title.as_str())))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A player as the rulebook names him.
fn player_title(p: Player) -> &'static str {
    match p {
        Player::Roman => "Roman",
        Player::Gp => "Germano-Parthian",
    }
}

/// The passes in a row so far, in words: two in a row end the turn (8.20).
fn passes_in_a_row(n: u8) -> String {
    match n {
        0 => "no pass yet (two in a row end the turn, 8.20)".to_string(),
        n => format!(
            "{} in a row (two in a row end the turn, 8.20)",
            super::words::counted(n as usize, "pass", "passes")
        ),
    }
}

/// The status lines for `viewer`: a player's own hand, no hand for the
/// public, both hands for the umpire.
pub fn status(d: &Data, st: &State, viewer: Viewer) -> Vec<String> {
    let stage = match st.stage {
        Stage::Setup => {
            "set-up (3.3): the Germano-Parthian to place his tribes and gunds".to_string()
        }
        Stage::AdminRoman => "administrative phase (5.5): the Roman's steps".to_string(),
        Stage::AdminGp => "administrative phase (5.5): the Germano-Parthian's steps".to_string(),
        Stage::Actions => format!(
            "alternating actions (8.1): the {} to act; {}",
            player_title(st.actor),
            passes_in_a_row(st.passes)
        ),
    };
    let mut v = vec![
        format!(
            "Turn {} of {} ({}-{} AD): {stage}",
            st.turn,
            d.values.turns,
            225 + 10 * st.turn,
            235 + 10 * st.turn
        ),
        format!("Roman treasury: {} TP", st.treasury),
        format!(
            "Chits: the Roman holds {}, the Germano-Parthian {}, pool {} items, set aside {}, removed {}",
            st.hand_count(Player::Roman),
            st.hand_count(Player::Gp),
            st.pool.len(),
            chit_list(d, &st.aside),
            chit_list(d, &st.removed)
        ),
    ];
    for p in [Player::Roman, Player::Gp] {
        if viewer.sees_own(Side(p.index() as u8)) {
            v.push(format!("{} hand: {}", p.title(), chit_list(d, st.hand(p))));
        }
    }
    v.push(powers(st));
    let hexes = |s: &std::collections::BTreeSet<umpire_core::hex::Hex>| {
        if s.is_empty() {
            "none".to_string()
        } else {
            s.iter()
                .map(|h| h.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    v.push(format!("Looted: {}", hexes(&st.looted)));
    v.push(format!(
        "Rebuilding: {}; fortifying: {}",
        hexes(&st.rebuilding),
        st.fortify.map_or("none".into(), |h| h.to_string())
    ));
    v.push(dead_pile(d, st));
    v.extend(stacks(d, st));
    v
}

/// Palmyra, the Gallic Empire, Parthia, the cavalry reserve and riverine
/// movement.
fn powers(st: &State) -> String {
    format!(
        "Palmyra: {}; Gallic Empire: {}; Parthia: {}; cavalry reserve: {}; riverine movement: {}",
        match st.palmyra {
            Palmyra::Inactive => "inactive",
            Palmyra::Roman { .. } => "allied to Rome",
            Palmyra::Gp => "allied to the gp",
        },
        match st.gallic {
            Gallic::Dormant => "dormant",
            Gallic::Active => "ACTIVE",
            Gallic::Ended => "ended",
        },
        if st.collapsed {
            "COLLAPSED"
        } else {
            "standing"
        },
        if st.reserve { "formed" } else { "not formed" },
        if st.riverine_lost {
            "lost"
        } else {
            "available"
        }
    )
}

/// The dead pile, by kind.
fn dead_pile(d: &Data, st: &State) -> String {
    let mut dead: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, s) in st.units.iter().enumerate() {
        if s.loc == Loc::Dead {
            *dead.entry(d.units[i].kind.name()).or_default() += 1;
        }
    }
    format!(
        "Dead pile: {}",
        if dead.is_empty() {
            "empty".to_string()
        } else {
            dead.iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    )
}

/// Each stack on the map (* rebel, ^ Gallic).
fn stacks(d: &Data, st: &State) -> Vec<String> {
    let mut v = Vec::new();
    let mut stacks: BTreeMap<umpire_core::hex::Hex, Vec<String>> = BTreeMap::new();
    for (u, h) in st.on_map() {
        let s = st.unit(u);
        let mark = if s.gallic {
            "^"
        } else if s.rebel {
            "*"
        } else {
            ""
        };
        stacks
            .entry(h)
            .or_default()
            .push(format!("{}{mark}", d.uid(u)));
    }
    v.push("Stacks (* rebel, ^ Gallic):".into());
    for (h, us) in stacks {
        v.push(format!(
            "  {} [{}]: {}",
            d.hex_name(h),
            d.region(h).name(),
            us.join(" ")
        ));
    }
    v
}

/// One counter as drawn: its id, its player (`R` Roman side, `G`
/// Germano-Parthian side, none for idle Palmyrans), `*` rebel, `^` Gallic.
fn counter(d: &Data, st: &State, u: UnitId) -> Unit {
    let s = st.unit(u);
    let unit = Unit::new(d.uid(u))
        .mark_if(s.gallic, UnitMark::Other('^'))
        .mark_if(s.rebel && !s.gallic, UnitMark::Other('*'));
    match st.owner(d, u) {
        Some(Player::Roman) => unit.side('R'),
        Some(Player::Gp) => unit.side('G'),
        None => unit,
    }
}

/// A hex's stack as drawn, top first: leaders, then the units that move and
/// fight, then the static bases and garrisons, each group in the state's order.
fn drawn_stack(d: &Data, st: &State, h: Hex) -> Vec<Unit> {
    let mut units: Vec<UnitId> = st.at(h).collect();
    // A stable sort: within a group, the order the state keeps.
    units.sort_by_key(|u| {
        let kind = d.kind(*u);
        (!kind.is_leader(), kind.is_static())
    });
    units.into_iter().map(|u| counter(d, st, u)).collect()
}

/// A hex's status marker: looted, fortifying, rebuilding, emptied by plague.
fn marker(st: &State, h: Hex) -> Option<char> {
    if st.fortify == Some(h) {
        Some('F')
    } else if st.rebuilding.contains(&h) {
        Some('B')
    } else if st.plague.contains(&h) {
        Some('$')
    } else if st.bc_rebels.contains(&h) {
        // A refused Bread & Circuses' revolt: rebel-held (and looted, 14.3).
        Some('R')
    } else if st.looted.contains(&h) {
        Some('L')
    } else {
        None
    }
}

/// The hex map as the renderer draws it: odd columns low (9.5), every hex
/// with its region glyph, first population centre, status marker and stack.
pub fn board(d: &Data, st: &State) -> HexBoard {
    let mut b = HexBoard {
        offset: OFFSET,
        ..HexBoard::default()
    };
    for x in &d.hexes {
        let cell = Cell {
            terrain: x.region.glyph(),
            name: x.places.first().map(|p| d.places[*p].name.clone()),
            control: marker(st, x.hex),
            units: drawn_stack(d, st, x.hex),
            highlight: false,
        };
        b.cells.insert(x.hex, cell);
    }
    for r in Region::ALL {
        b.legend
            .push(Legend::new(r.glyph().to_string(), r.name().to_string()));
    }
    b.legend.push(Legend::new(
        "L B F $",
        "looted (6.3), rebuilding (6.4), fortifying (8.13), emptied by plague (6.3)",
    ));
    b.legend.push(Legend::new(
        "R / G",
        "the Roman's / the Germano-Parthian's units",
    ));
    b.legend.push(Legend::new(
        "v3* / v3^",
        "a rebel (8.7) / a Gallic (9.5) unit",
    ));
    b
}

/// The view: the status lines and the map.
pub fn view(d: &Data, st: &State, viewer: Viewer) -> View {
    View {
        status: status(d, st, viewer),
        board: Some(Board::Hex(board(d, st))),
    }
}
