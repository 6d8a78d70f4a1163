//! The point-to-point map for the renderer (`core::board::PointBoard`): each
//! space with its pieces by faction, Support/Opposition, Control, Terror and
//! Sabotage, the links, and the tracks.

use super::data::{Data, SpaceNo, Support};
use super::pieces::{Faction, Piece};
use super::state::{Control, SpaceState, State};
use super::victory;
use umpire_core::board::{
    Board, Legend, Link, Marker, PointBoard, Space, SpaceId, Track, Unit, UnitMark,
};

/// The side letter a faction's pieces are drawn with.
pub fn side_char(f: Faction) -> char {
    ['C', 'G', 'T', 'W'][f.index()]
}

fn unit(p: Piece, n: u8) -> Unit {
    let name = match p.kind() {
        super::pieces::Kind::Troops => "Troops",
        super::pieces::Kind::Police => "Police",
        super::pieces::Kind::Base => "Base",
        super::pieces::Kind::Guerrilla => "Guerrilla",
    };
    let u = Unit::pieces(side_char(p.faction()), name, u32::from(n));
    match p {
        Piece::TalUnder | Piece::WarUnder => u.mark(UnitMark::Hidden),
        Piece::TalActive | Piece::WarActive => u.mark(UnitMark::Active),
        _ => u,
    }
}

/// The whole map as the players see it (everything in ADP is public, 1.4.3).
pub fn board(d: &Data, st: &State) -> Board {
    let mut b = PointBoard::default();
    for id in d.ids() {
        b.spaces.insert(SpaceId(u16::from(id.0)), space(d, st, id));
        for a in d[id].adjacent.iter().filter(|a| **a > id) {
            b.links
                .push(Link::new(SpaceId(u16::from(id.0)), SpaceId(u16::from(a.0))));
        }
    }
    b.positions = super::places::positions(d);
    b.tracks = tracks(d, st);
    b.legend = vec![
        Legend::new("C", "Coalition (control: COIN)"),
        Legend::new("G", "Government"),
        Legend::new("T", "Taliban"),
        Legend::new("W", "Warlords"),
    ];
    b.off_map = vec![
        off_map("Available", &st.available),
        off_map("Casualties", &st.casualties),
        off_map("Out of play", &st.out_of_play),
    ];
    Board::Points(b)
}

/// One space as drawn: its kind, its markers, its pieces and its Control.
fn space(d: &Data, st: &State, id: SpaceNo) -> Space {
    let ss = &st[id];
    let units = Piece::ALL
        .iter()
        .filter(|p| ss.pieces[**p] > 0)
        .map(|p| unit(*p, ss.pieces[*p]))
        .collect();
    Space {
        name: d[id].name.clone(),
        key: Some(d[id].key.clone()),
        kinds: kinds(d, st, id),
        control: match ss.control {
            Control::Coin => Some('C'),
            Control::Taliban => Some('T'),
            Control::None => None,
        },
        markers: markers(ss),
        units,
        highlight: false,
    }
}

/// What kind of space `id` is: city, province, Pakistan or LoC, Pashtun,
/// Mountain, and its population.
fn kinds(d: &Data, st: &State, id: SpaceNo) -> Vec<String> {
    let sp = &d[id];
    let mut kinds = vec![match sp.kind {
        super::data::SpaceKind::City => "city".to_string(),
        super::data::SpaceKind::Province => "province".to_string(),
        super::data::SpaceKind::Pakistan => "Pakistan".to_string(),
        super::data::SpaceKind::Loc => format!("LoC, econ {}", sp.econ),
    }];
    if sp.pashtun {
        kinds.push("Pashtun".into());
    }
    if sp.is_mountain() {
        kinds.push("Mountain".into());
    }
    if !sp.is_loc() {
        kinds.push(format!("pop {}", st.pop(d, id)));
    }
    kinds
}

/// A space's Support or Opposition, Terror, Sabotage and Returnees markers.
fn markers(ss: &SpaceState) -> Vec<Marker> {
    let mut markers = Vec::new();
    match ss.support {
        Support::Support => markers.push(Marker::flag("Support")),
        Support::Opposition => markers.push(Marker::flag("Opposition")),
        Support::Neutral => {}
    }
    if ss.terror > 0 {
        markers.push(Marker::new("Terror", ss.terror.to_string()));
    }
    if ss.sabotage {
        markers.push(Marker::flag("Sabotage"));
    }
    if ss.returnees {
        markers.push(Marker::flag("+1 Pop Returnees"));
    }
    markers
}

/// The tracks: Aid, Patronage, the Resources and the victory totals.
fn tracks(d: &Data, st: &State) -> Vec<Track> {
    let t = victory::totals(d, st);
    vec![
        Track::new("Aid", i64::from(st.aid)).max(i64::from(d.limits.aid_max)),
        Track::new("Patronage", i64::from(st.patronage)).max(i64::from(d.limits.patronage_max)),
        Track::new(
            "Government resources",
            i64::from(st.res(Faction::Government)),
        )
        .max(75),
        Track::new("Taliban resources", i64::from(st.res(Faction::Taliban))).max(75),
        Track::new("Warlord resources", i64::from(st.res(Faction::Warlords))).max(75),
        Track::new("Support + available Coalition", i64::from(t.coalition)),
        Track::new("COIN-controlled pop + Patronage", i64::from(t.government)),
        Track::new("Opposition + Taliban bases", i64::from(t.taliban)),
        Track::new("Uncontrolled pop", i64::from(t.uncontrolled)),
    ]
}

/// An off-map box (`name`) and the pieces in it.
fn off_map(name: &str, p: &super::pieces::Pieces) -> String {
    let parts: Vec<String> = Piece::ALL
        .iter()
        .filter(|k| p[**k] > 0)
        .map(|k| format!("{} {}", p[*k], k.label().trim_end_matches('*')))
        .collect();
    format!(
        "{name}: {}",
        if parts.is_empty() {
            "-".into()
        } else {
            parts.join(", ")
        }
    )
}
