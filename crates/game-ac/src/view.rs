//! What one side sees (22.0): its own pieces fully; enemy and neutral pieces
//! only where it has a piece in the square (22.1(1)) or controls the region
//! (22.1(4), ruling A56), otherwise only that a stack of some side is there
//! (ruling A57; agents alone show only their flag, 22.3: every agent stands
//! face down unless his owner shows him, from version 8; agents in a stack
//! with units show nothing, not even their flag); markers and region control
//! always (22.2); treasuries, supply points, home bases and sealed economy
//! orders only its own (9.0, 17.1, 3.1[3]). The public (observers, the club's
//! page) examines a square only where both players may, and sees no player's
//! own figures; the umpire sees everything.

use super::bop;
use super::data::{Data, Nat, Power};
use super::geom::Sq;
use super::state::{Loc, Stage, State};
use super::victory;
use std::collections::BTreeMap;
use umpire_core::ruleset::{Side, View, Viewer};

/// The viewer that is `p`'s player (British side 0, Russian side 1).
pub fn of(p: Power) -> Viewer {
    Viewer::Side(Side(p.index() as u8))
}

/// May `viewer` see what is `p`'s alone: its treasury, supply and victory
/// points, home base and sealed plans (9.0, 17.1, 3.1[3])?
pub fn owns(viewer: Viewer, p: Power) -> bool {
    viewer.sees_own(Side(p.index() as u8))
}

/// Whether `viewer` may examine what stands on `s` (22.1(1), 22.1(4)): the
/// umpire always, the public only where both players may.
pub fn can_examine(d: &Data, st: &State, s: Sq, viewer: Viewer) -> bool {
    match viewer {
        Viewer::Umpire => true,
        Viewer::Public => Power::ALL.iter().all(|p| examines(d, st, s, *p)),
        Viewer::Side(x) => Power::ALL
            .iter()
            .find(|p| p.index() == x.index())
            .is_some_and(|p| examines(d, st, s, *p)),
    }
}

/// Whether player `p` may examine `s`: a piece of his there (22.1(1)) or
/// control of its region (22.1(4), ruling A56).
fn examines(d: &Data, st: &State, s: Sq, p: Power) -> bool {
    let mine = st.side_units_at(Loc::Sq(s), p).next().is_some()
        || st.side_agents_at(d, Loc::Sq(s), p).next().is_some();
    let region = d
        .sq(s)
        .and_then(|i| i.region)
        .is_some_and(|r| st.control[r] == Some(p));
    mine || region
}

/// The side a piece of nationality `n` shows under fog: its owner, or
/// "neutral" and its region (ruling A57).
pub(super) fn side_tag(d: &Data, st: &State, n: Nat) -> String {
    match st.owner(n) {
        Some(p) => p.name().to_string(),
        None => match n {
            Nat::Native(r) => format!("neutral {}", d.reg(r).code),
            _ => "neutral".into(),
        },
    }
}

/// The sides named in `pieces`' `id(side)` tokens, sorted, once each.
fn sides_of<'a>(pieces: impl IntoIterator<Item = &'a String>) -> Vec<String> {
    let mut sides: Vec<String> = pieces
        .into_iter()
        .filter_map(|x| {
            x.split_once('(')
                .map(|(_, t)| t.trim_end_matches(')').to_string())
        })
        .collect();
    sides.sort();
    sides.dedup();
    sides
}

/// One line per occupied square, as `viewer` may see it.
pub fn stacks(d: &Data, st: &State, viewer: Viewer) -> Vec<String> {
    // Per square: the units, the agents, and the agents shown face up (22.3).
    type Seen = (Vec<String>, Vec<String>, Vec<String>);
    let mut by_sq: BTreeMap<Sq, Seen> = BTreeMap::new();
    for u in &st.units {
        if let Loc::Sq(s) = u.loc {
            by_sq
                .entry(s)
                .or_default()
                .0
                .push(format!("{}({})", u.id, side_tag(d, st, u.nat)));
        }
    }
    for (i, a) in st.agents.iter().enumerate() {
        if let Loc::Sq(s) = a.loc {
            let owner = st.agent_owner(d, super::state::AgentId(i as u16));
            let tag = owner.map_or("neutral".to_string(), |p| p.name().to_string());
            let seen = by_sq.entry(s).or_default();
            let text = format!("{}({tag})", d.agents[i].id);
            if a.face_up {
                seen.2.push(text.clone());
            }
            seen.1.push(text);
        }
    }
    let mut out = Vec::new();
    for (s, (units, agents, face_up)) in by_sq {
        let place = d
            .city_at(s)
            .map_or(String::new(), |c| format!(" {}", d.city(c).name));
        if can_examine(d, st, s, viewer) {
            let mut all = units;
            all.extend(agents);
            out.push(format!("{s}{place}: {}", all.join(" ")));
        } else {
            // Ruling A57: a stack is seen, with its side, not its contents.
            // 22.3: agents stand face down; alone they show only their flag,
            // unless their owner showed them face up (from version 8). In a
            // stack with units they stay unseen, flag and all (ruling A57):
            // the stack's sides are its units'.
            let face_down = agents.iter().filter(|a| !face_up.contains(a));
            let (what, sides) = match (units.is_empty(), face_up.len()) {
                (false, _) => ("a stack".to_string(), sides_of(&units)),
                (true, 0) => ("agent flag".to_string(), sides_of(face_down)),
                (true, n) if n == agents.len() => {
                    out.push(format!("{s}{place}: {}", face_up.join(" ")));
                    continue;
                }
                (true, _) => (
                    format!("{} and agent flag", face_up.join(" ")),
                    sides_of(face_down),
                ),
            };
            out.push(format!("{s}{place}: {what} ({})", sides.join(", ")));
        }
    }
    out
}

/// The view.
pub fn view(d: &Data, st: &State, viewer: Viewer) -> View {
    let mut status = Vec::new();
    let sc = st.sc(d);
    status.push(format!(
        "Asia Crossroads, {}: turn {} of {} ({}-{:02})",
        sc.title,
        st.turn,
        st.turns,
        st.year(),
        (st.year() + 4) % 100
    ));
    status.push(stage_line(st));
    status.push(format!("Balance of Power: {}", bop::describe(d, st.bop)));
    status.extend(control_lines(d, st));
    // 23.0: open agreements are public, terms and all.
    for o in &st.offers {
        let terms: Vec<String> = o
            .terms
            .iter()
            .map(|t| super::agreement::show(d, t))
            .collect();
        status.push(format!(
            "Agreement {} proposed by the {}: {} (`accept {}`, 23.0)",
            o.id,
            o.from.people(),
            terms.join("; "),
            o.id
        ));
    }
    if let Some(p) = st.open_war {
        status.push(format!(
            "Open war began, started by the {} (24.0)",
            p.people()
        ));
    }
    for p in Power::ALL {
        if owns(viewer, p) {
            status.extend(own_lines(d, st, p));
        }
    }
    let markers: Vec<String> = st
        .markers
        .iter()
        .map(|m| format!("{} {} {}", m.sq, m.owner.name(), m.kind.key()))
        .collect();
    status.push(format!("Markers: {}", markers.join(", ")));
    let prisoners: Vec<String> = st
        .agents
        .iter()
        .enumerate()
        .filter_map(|(i, a)| match a.loc {
            Loc::Prisoner(p) => Some(format!("{} (held by the {})", d.agents[i].name, p.people())),
            _ => None,
        })
        .collect();
    if !prisoners.is_empty() {
        status.push(format!("Prisoners: {}", prisoners.join(", ")));
    }
    status.extend(super::placing::status(d, st, viewer));
    status.extend(stacks(d, st, viewer));
    View {
        status,
        board: Some(umpire_core::board::Board::Square(super::board::board(
            d, st, viewer,
        ))),
    }
}

/// The phase in progress, and who acts.
fn stage_line(st: &State) -> String {
    match &st.stage {
        Stage::Setup(p) => format!("Set-up: the {} place their forces (26.0)", p.people()),
        Stage::SetupSealed => "Set-up: both players place their forces, sealed (26.0)".into(),
        Stage::Initiative => format!(
            "Initiative phase: the {} choose (7.2)",
            bop::favoured(st.bop).people()
        ),
        Stage::Economy => "Income/expenditure phase (sealed)".into(),
        Stage::Choice(q) => format!("Random events: the {} choose (8.0)", q.who.people()),
        Stage::Ops(ph) => format!("{} operations phase {} of 5", ph.side.name(), ph.k),
        Stage::Over => "The game is over".into(),
    }
}

/// The regions each power controls, and the neutral ones, by name with
/// the code the orders take (`Afghanistan (AF)`).
fn control_lines(d: &Data, st: &State) -> Vec<String> {
    let named = |i: usize| format!("{} ({})", d.regions[i].name, d.regions[i].code);
    let mut status = Vec::new();
    for p in Power::ALL {
        let regions: Vec<String> = (0..d.regions.len())
            .filter(|i| st.control[*i] == Some(p))
            .map(named)
            .collect();
        status.push(format!("{} control: {}", p.name(), regions.join(", ")));
    }
    let neutral: Vec<String> = (0..d.regions.len())
        .filter(|i| st.control[*i].is_none())
        .map(named)
        .collect();
    status.push(format!("Neutral: {}", neutral.join(", ")));
    status
}

/// What only `p`'s player sees: his treasury, supply, victory points, home
/// base and how many economy orders he has sealed.
fn own_lines(d: &Data, st: &State, p: Power) -> Vec<String> {
    let mut status = vec![format!(
        "{}: {} pounds, {} SP",
        p.name(),
        st.treasury[p.index()],
        st.sp[p.index()]
    )];
    let (vp, _) = victory::points(d, st, p);
    status.push(format!("{} victory points now: {vp}", p.name()));
    for b in [super::data::Base::India, super::data::Base::Urals] {
        if b.owner() == p {
            let ids: Vec<String> = st
                .units_at(Loc::Base(b))
                .map(|u| st.unit(u).id.to_string())
                .collect();
            let ags: Vec<String> = st
                .agents_at(Loc::Base(b))
                .map(|a| d.agents[a].id.clone())
                .collect();
            status.push(format!("{}: {} {}", b.name(), ids.join(" "), ags.join(" ")));
        }
    }
    if !st.plans[p.index()].is_empty() {
        status.push(format!(
            "{} sealed economy orders: {}",
            p.name(),
            st.plans[p.index()].len()
        ));
    }
    status
}
