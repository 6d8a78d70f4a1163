//! The map as one side sees it, for the square-grid renderer: terrain,
//! cities, region borders (2.13), control of each square's region (markers
//! are public, 22.2), and the stacks as the fog of war allows (22.1, ruling
//! A57: a stack one may not examine shows only its side).

use super::data::{Data, Power, Terrain};
use super::geom::Sq;
use super::state::{AgentId, Loc, State};
use super::view::{can_examine, owns};
use umpire_core::board::{Cell, EdgeKind, Legend, SquareBoard, SquareEdge, Track, Unit};
use umpire_core::ruleset::Viewer;
use umpire_core::square::Dir8;

/// The side letter of a player (B or R) or of neutrals (n).
pub fn letter(p: Option<Power>) -> char {
    match p {
        Some(Power::British) => 'B',
        Some(Power::Russian) => 'R',
        None => 'n',
    }
}

fn units_for(d: &Data, st: &State, s: Sq, viewer: Viewer) -> Vec<Unit> {
    let mut out = Vec::new();
    let open = can_examine(d, st, s, viewer);
    let mut hidden: Vec<char> = Vec::new();
    for u in st.units_at(Loc::Sq(s)) {
        let x = st.unit(u);
        let side = letter(st.owner(x.nat));
        if open {
            out.push(
                Unit::new(x.id)
                    .side(side)
                    .strength(d.stats(x.nat, x.kind).strength),
            );
        } else if !hidden.contains(&side) {
            hidden.push(side);
        }
    }
    // 22.3: an agent shown face up is seen where he stands without units;
    // face down and alone he shows his flag; in a stack with units he is
    // not seen at all (ruling A57).
    let alone = st.units_at(Loc::Sq(s)).next().is_none();
    for a in st.agents_at(Loc::Sq(s)) {
        let side = letter(st.agent_owner(d, a));
        if open || (alone && st.agent(a).face_up) {
            out.push(Unit::new(d.agents[a].id.clone()).side(side));
        } else if alone && !hidden.contains(&side) {
            hidden.push(side);
        }
    }
    // In a fixed order: the order the pieces were met in would tell which
    // pieces stand there (their numbers).
    hidden.sort_unstable();
    for side in hidden {
        out.push(Unit::new("stack").side(side));
    }
    out
}

/// The board `viewer` sees.
pub fn board(d: &Data, st: &State, viewer: Viewer) -> SquareBoard {
    let mut b = SquareBoard::default();
    for s in d.all_squares() {
        let Some(info) = d.sq(s) else { continue };
        let control = info.region.map(|r| st.control[r]).map(|c| match c {
            Some(p) => letter(Some(p)),
            None => 'n',
        });
        b.cells.insert(
            s,
            Cell {
                terrain: info.terrain.glyph(),
                name: info.city.map(|c| d.city(c).name.clone()),
                control,
                units: units_for(d, st, s, viewer),
                highlight: false,
            },
        );
        // Region borders run along square sides (2.13): east and south of each square.
        for (dir, n) in [
            (Dir8::E, Sq::new(s.col + 1, s.row)),
            (Dir8::S, Sq::new(s.col, s.row + 1)),
        ] {
            let other = d.sq(n).and_then(|i| i.region);
            if d.on_map(n) && info.region.is_some() && other.is_some() && other != info.region {
                b.edges.push(SquareEdge {
                    square: s,
                    dir,
                    kind: EdgeKind::Border,
                });
            }
        }
    }
    for (g, m) in [
        (Terrain::Clear, "clear"),
        (Terrain::Desert, "desert"),
        (Terrain::Mountain, "mountain"),
        (Terrain::Sea, "all sea or lake"),
    ] {
        b.legend.push(Legend::new(g.glyph().to_string(), m));
    }
    b.legend
        .push(Legend::new("B", "British or British-controlled"));
    b.legend
        .push(Legend::new("R", "Russian or Russian-controlled"));
    b.legend.push(Legend::new("n", "neutral"));
    b.legend
        .push(Legend::new("stack", "pieces you may not examine (22.1)"));
    for p in Power::ALL {
        if owns(viewer, p) {
            let base = super::data::Base::of(p);
            let ids: Vec<String> = st
                .units_at(Loc::Base(base))
                .map(|u| st.unit(u).id.to_string())
                .chain(
                    st.agents_at(Loc::Base(base))
                        .map(|a: AgentId| d.agents[a].id.to_string()),
                )
                .collect();
            b.off_map
                .push(format!("{}: {}", base.name(), ids.join(" ")));
        }
    }
    b.tracks
        .push(Track::new("Balance of Power (+ British, - Russian)", i64::from(st.bop)).max(18));
    b.tracks
        .push(Track::new("Turn", i64::from(st.turn)).max(i64::from(st.turns)));
    b
}
