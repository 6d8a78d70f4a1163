//! What each side sees: the board for the ASCII renderer and the status
//! lines. Strike on Sarhu has no hidden information (every counter is face-up),
//! so both sides see the same.

use super::data::{Data, Faction, UnitId};
use super::state::{Loc, PassQueue, State};
use super::turn::cname;
use super::victory;
use umpire_core::board::{Board, Cell, Edge, EdgeKind, HexBoard, Legend, Unit, UnitMark};
use umpire_core::ruleset::View;

/// A combat unit on the board: its id, side, and marks (reduced, disorganized).
pub fn unit(d: &Data, st: &State, u: UnitId) -> Unit {
    Unit::new(d.units[u].id.clone())
        .side(d.units[u].side.mark())
        .colour(d.commands[d.units[u].cmd].colour.clone())
        .mark_if(st.units[u].reduced, UnitMark::Reduced)
        .mark_if(st.units[u].dis, UnitMark::Disorganized)
}

/// How a combat unit is printed: its id, `'` when reduced, `*` when disorganized.
pub fn unit_label(d: &Data, st: &State, u: UnitId) -> String {
    unit(d, st, u).label()
}

/// The board.
pub fn board(d: &Data, st: &State) -> Board {
    Board::Hex(hex_board(d, st))
}

/// The hex map.
pub fn hex_board(d: &Data, st: &State) -> HexBoard {
    let mut b = HexBoard::default();
    cells(d, st, &mut b);
    edges(d, &mut b);
    terrain_legend(d, &mut b);
    counter_legend(d, st, &mut b);
    off_map(d, st, &mut b);
    b
}

/// Each hex: terrain, place, control and counters; the activated command's
/// hex and a combat awaiting losses highlighted.
fn cells(d: &Data, st: &State, b: &mut HexBoard) {
    for h in d.all_hexes() {
        let Some(info) = d.hex(h) else { continue };
        let place = d.place_at(h);
        let mut cell = Cell {
            terrain: info.glyph,
            name: place.map(|p| p.name.clone()),
            control: st.controller(d, h).map(Faction::mark),
            units: Vec::new(),
            highlight: false,
        };
        for (c, cs) in st.commands.iter().enumerate() {
            if cs.loc == Loc::Hex(h) {
                let info = &d.commands[c];
                cell.units.push(
                    Unit::new(info.id.to_uppercase())
                        .side(info.side.mark())
                        .colour(info.colour.clone()),
                );
            }
        }
        cell.units.extend(st.units_at(h).map(|u| unit(d, st, u)));
        if st
            .phase
            .cmd
            .is_some_and(|c| st.commands[c].loc == Loc::Hex(h))
        {
            cell.highlight = true;
        }
        b.cells.insert(h, cell);
    }
    if let Some(super::state::Decision::Losses { hex, .. }) = &st.decision
        && let Some(c) = b.cells.get_mut(hex)
    {
        c.highlight = true;
    }
}

/// Rivers, bridges and the palisade (2.2(3)).
fn edges(d: &Data, b: &mut HexBoard) {
    for s in &d.sides {
        b.edges.push(Edge {
            hex: s.hex,
            dir: s.dir,
            kind: match (s.bridge, s.wall) {
                (true, _) => EdgeKind::Bridge,
                (false, true) => EdgeKind::Wall,
                (false, false) => EdgeKind::River,
            },
        });
    }
}

/// Each terrain glyph with its cost and stacking (2.2, 1.1).
fn terrain_legend(d: &Data, b: &mut HexBoard) {
    let mut glyphs: Vec<(char, String)> = d
        .glyphs
        .iter()
        .map(|(c, g)| {
            (
                *c,
                format!("{} (elevation {})", g.terrain.key(), g.elevation),
            )
        })
        .collect();
    glyphs.sort();
    for (c, m) in glyphs {
        let t = d.glyphs[&c].terrain;
        let tec = d.terrain[t];
        b.legend.push(Legend::new(
            c.to_string(),
            format!(
                "{m}: {} MP{}, stack {}+{} (2.2, 1.1)",
                tec.cost,
                if tec.stop { ", units stop" } else { "" },
                tec.stack,
                tec.stack_command
            ),
        ));
    }
}

/// The map's symbols, then each command and its combat units in play.
fn counter_legend(d: &Data, st: &State, b: &mut HexBoard) {
    b.legend.push(Legend::new(
        "river",
        "impassable except at a bridge (2.2(3))",
    ));
    b.legend.push(Legend::new(
        "wall",
        "the Ming palisade (\"Pole\"): impassable except through its Pass hexes (2.2(3))",
    ));
    b.legend
        .push(Legend::new("bridge", "a bridge or ford across a river"));
    b.legend.push(Legend::new(
        "M / J",
        "control marker of the Ming / Jurchen (2.5.2); +1 markers score 1 VP (8.0(3))",
    ));
    b.legend
        .push(Legend::new("DS", "a command unit (upper-case id)"));
    b.legend.push(Legend::new(
        "ds.c1'*",
        "a combat unit: ' reduced (flipped), * disorganized",
    ));
    for c in d.command_ids() {
        let info = &d.commands[c];
        b.legend.push(Legend::new(
            info.id.to_uppercase(),
            format!(
                "{}, {} command ({}), CS {}",
                info.name,
                info.side.name(),
                info.colour,
                info.cs
            ),
        ));
        for u in d.unit_ids() {
            let ui = &d.units[u];
            if ui.cmd != c || st.units[u].loc == Loc::Out {
                continue;
            }
            let t = d.type_of(u);
            let cs = if ui.steps == 2 {
                format!("{}/{}", ui.cs, ui.reduced)
            } else {
                ui.cs.to_string()
            };
            b.legend.push(Legend::new(
                ui.id.clone(),
                format!(
                    "{} {}, CS {cs}{}, {} step{}, MA {}{}",
                    info.name,
                    ui.kind.name(),
                    if t.fire > 0 { " (fires)" } else { "" },
                    ui.steps,
                    if ui.steps == 1 { "" } else { "s" },
                    t.ma,
                    if t.charge { ", charges" } else { "" }
                ),
            ));
        }
    }
}

/// Units not yet entered (9.0) and those eliminated, by side.
fn off_map(d: &Data, st: &State, b: &mut HexBoard) {
    for c in d.command_ids() {
        let info = &d.commands[c];
        let off: Vec<String> = st
            .alive(d, c)
            .filter(|u| st.units[*u].loc == Loc::OffMap)
            .map(|u| unit_label(d, st, u))
            .collect();
        let cmd_off = st.commands[c].loc == Loc::OffMap;
        if !off.is_empty() || cmd_off {
            b.off_map.push(format!(
                "Off the map: {}{}{} (enters at {} from turn {}, 9.0)",
                if cmd_off {
                    info.id.to_uppercase()
                } else {
                    String::new()
                },
                if cmd_off && !off.is_empty() { " " } else { "" },
                off.join(" "),
                info.entry.map_or("?".into(), |h| h.to_string()),
                info.entry_turn
            ));
        }
    }
    for f in Faction::ALL {
        let gone: Vec<&str> = d
            .unit_ids()
            .filter(|u| d.units[*u].side == f && st.units[*u].loc == Loc::Gone)
            .map(|u| d.units[u].id.as_str())
            .collect();
        if !gone.is_empty() {
            b.off_map
                .push(format!("Eliminated ({}): {}", f.name(), gone.join(" ")));
        }
    }
}

/// Why the side with the initiative has it, with the preparation rolls
/// (4.1(4)): in turn 1 by the rule, whatever the rolls; after, a tie or the
/// choice of the side that rolled higher.
fn initiative_why(d: &Data, st: &State) -> String {
    let rolls = format!(
        "preparation rolls Ming {}, Jurchen {}",
        st.prep[0], st.prep[1]
    );
    let first = st.initiative;
    if st.turn == 1 {
        return format!(
            "the {} move first in turn 1 whatever the rolls, 4.1(4); the {rolls} set the action points",
            d.values.first_turn_initiative.name()
        );
    }
    let [m, j] = st.prep;
    if m == j {
        return format!("{rolls}: a tie, the {} go first, 4.1(4)", first.name());
    }
    let high = if m > j {
        Faction::Ming
    } else {
        Faction::Jurchen
    };
    if high == first {
        format!(
            "{rolls}: the {} rolled higher and move first, 4.1(4)",
            high.name()
        )
    } else {
        format!(
            "{rolls}: the {} rolled higher and chose to move second, 4.1(4)",
            high.name()
        )
    }
}

/// Status lines.
pub fn status(d: &Data, st: &State) -> Vec<String> {
    let mut v = Vec::new();
    let who = match (&st.finished, &st.decision) {
        (Some(_), _) => "the battle is over".to_string(),
        (None, Some(q)) => format!("the {} must decide", q.side().name()),
        (None, None) => format!("the {} to act", st.phase.side.name()),
    };
    v.push(format!(
        "Strike on Sarhu 1619. Turn {} of {}, action phase {}: {who}.",
        st.turn, d.values.turns, st.phase.no
    ));
    if st.prep_pending {
        v.push("Action points: rolled with the Ming's first order (4.1(4)-(5)); the Ming move first in turn 1.".into());
    } else {
        v.push(format!(
            "Action points left: Ming {}, Jurchen {}. Initiative: {} ({}).",
            st.ap[0],
            st.ap[1],
            st.initiative.name(),
            initiative_why(d, st)
        ));
    }
    for f in Faction::ALL {
        v.push(commands_line(d, st, f));
    }
    let marks: Vec<String> = d
        .places
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            st.control[i].map(|o| {
                format!(
                    "{}{} {}",
                    p.name,
                    if p.vp > 0 { " (+1)" } else { "" },
                    o.mark()
                )
            })
        })
        .collect();
    v.push(format!(
        "Victory points: Ming {}, Jurchen {}. Control: {}.",
        st.vp(d, Faction::Ming),
        st.vp(d, Faction::Jurchen),
        marks.join(", ")
    ));
    for f in Faction::ALL {
        v.extend(eliminated_line(d, st, f));
    }
    for f in Faction::ALL {
        match st.passes[f.index()] {
            PassQueue::None => {}
            PassQueue::Count(n) => v.push(format!(
                "{} have {n} pass{} queued.",
                f.name(),
                if n == 1 { "" } else { "es" }
            )),
            PassQueue::Rest => v.push(format!("{} pass for the rest of the turn.", f.name())),
        }
    }
    if let Some(c) = st.phase.cmd.filter(|_| st.phase.open) {
        v.push(format!(
            "{}'s double action is open: its second action, or `end`.",
            cname(d, c)
        ));
    }
    if let Some(q) = &st.decision {
        v.push(format!("Question: {}", super::prompt_text(d, st, q)));
    }
    if let Some(o) = &st.finished {
        v.push(format!("Game over: {}", o.summary));
    }
    v
}

/// Where each of the side's commands is, and its markers (2.3, 2.5.5).
fn commands_line(d: &Data, st: &State, f: Faction) -> String {
    let mut parts = Vec::new();
    for c in d.command_ids() {
        let info = &d.commands[c];
        if info.side != f {
            continue;
        }
        let cs = &st.commands[c];
        let at = match cs.loc {
            Loc::Hex(h) => h.to_string(),
            Loc::OffMap => "off-map".into(),
            Loc::Gone => "defeated".into(),
            Loc::Out => "not in play".into(),
        };
        let mut marks = format!("{} act.", cs.acts);
        if cs.double_used {
            marks.push_str(", flipped");
        }
        if st.turn < info.entry_turn {
            marks = format!("from turn {}", info.entry_turn);
        }
        parts.push(format!("{} ({}) {at} [{marks}]", info.name, info.id));
    }
    format!("{}: {}.", f.name(), parts.join("; "))
}

/// The side's eliminated combat units, and its commands whose troops are wiped out.
fn eliminated_line(d: &Data, st: &State, f: Faction) -> Option<String> {
    let gone: Vec<&str> = d
        .unit_ids()
        .filter(|u| d.units[*u].side == f && st.units[*u].loc == Loc::Gone)
        .map(|u| d.units[u].id.as_str())
        .collect();
    let wiped: Vec<&str> = victory::wiped(d, st, f)
        .into_iter()
        .map(|c| cname(d, c))
        .collect();
    (!gone.is_empty()).then(|| {
        format!(
            "{} eliminated: {}{}",
            f.name(),
            gone.join(" "),
            if wiped.is_empty() {
                String::new()
            } else {
                format!(" (troops wiped out: {})", wiped.join(", "))
            }
        )
    })
}

/// The view of one side (both see everything).
pub fn view(d: &Data, st: &State) -> View {
    View {
        status: status(d, st),
        board: Some(board(d, st)),
    }
}
