//! Setting up a scenario (26.0): every counter of the mix exists from the
//! start (10.62), in the pool until placed; the scenario's placements put the
//! listed pieces on the map (18.4: as brigade equivalents).

use super::data::{At, Data, Nat, Placement, Power, Scenario};
use super::standing::Standing;
use super::state::{Agent, AgentId, Loc, Marker, Options, PickPieces, Stage, State, Unit, UnitId};

fn prefix(d: &Data, n: Nat) -> String {
    match n {
        Nat::British => "b".into(),
        Nat::Russian => "r".into(),
        Nat::Native(r) => d.reg(r).code.to_ascii_lowercase(),
        Nat::Ghazi => "gh".into(),
    }
}

fn loc(at: At) -> Loc {
    match at {
        At::Sq(s) => Loc::Sq(s),
        At::Base(b) => Loc::Base(b),
    }
}

/// The state at the start of scenario `idx`, played for `turns` turns.
pub fn new_state(d: &Data, idx: usize, turns: u32, options: Options) -> Result<State, String> {
    let sc = &d.scenarios[idx];
    let mut st = empty_state(d, sc, idx, turns, options);
    for p in &sc.places {
        place(d, &mut st, p)?;
    }
    st.markers.sort();
    setup_stage(&mut st, sc);
    Ok(st)
}

/// Every counter of the mix, in the pool (10.62), named by nationality, kind
/// and number.
fn counter_mix(d: &Data) -> Vec<Unit> {
    let mut units = Vec::new();
    for ((nat, kind), count) in &d.mix {
        for i in 1..=*count {
            let id = match nat {
                Nat::Ghazi => format!("gh{i}"),
                _ => format!("{}{}{i}", prefix(d, *nat), kind.letter()),
            };
            units.push(Unit {
                id: super::state::intern(&id),
                nat: *nat,
                kind: *kind,
                loc: Loc::Pool,
                moved: false,
            });
        }
    }
    units
}

/// Every agent, in the pool and face down.
fn pool_agents(d: &Data) -> Vec<Agent> {
    d.agents
        .iter()
        .map(|_| Agent {
            loc: Loc::Pool,
            moved: false,
            used: false,
            face_up: false,
        })
        .collect()
}

/// The scenario's opening state before any piece is placed: its control,
/// balance of power, treasury and years; every piece in the pool.
fn empty_state(d: &Data, sc: &Scenario, idx: usize, turns: u32, options: Options) -> State {
    let mut control = vec![None; d.regions.len()];
    for (r, p) in &sc.control {
        control[*r] = Some(*p);
    }
    State {
        scenario: idx,
        turns,
        turn: 1,
        first_year: sc.first_year,
        options,
        bop: sc.bop,
        control,
        ghazis: None,
        treasury: sc.treasury,
        sp: [0, 0],
        sp_bought: [0, 0],
        units: counter_mix(d),
        agents: pool_agents(d),
        markers: Vec::new(),
        first: Power::British,
        stage: Stage::Initiative,
        plans: [Vec::new(), Vec::new()],
        sealed: [false, false],
        offers: Vec::new(),
        next_offer: 0,
        open_war: None,
        events_this_turn: Vec::new(),
        mutiny_done: sc.mutiny_done,
        standing: [Standing::default(), Standing::default()],
        finished: None,
        recruited: Default::default(),
        massacred: Vec::new(),
        discoveries: Default::default(),
        picks: vec![PickPieces::default(); sc.picks.len()],
        jihad_at: None,
        returns: Vec::new(),
    }
}

/// Carries out one placement of the scenario (18.4): its units from the pool,
/// its agents and markers; a placement a side may change joins its pick.
fn place(d: &Data, st: &mut State, p: &Placement) -> Result<(), String> {
    let at = loc(p.at);
    let mut group = PickPieces::default();
    for (nat, kind, count) in &p.units {
        for _ in 0..*count {
            let i = st
                .units
                .iter()
                .position(|u| u.nat == *nat && u.kind == *kind && u.loc == Loc::Pool)
                .ok_or_else(|| {
                    format!(
                        "the counter mix runs out of {} {}",
                        d.nat_code(*nat),
                        kind.key()
                    )
                })?;
            st.units[i].loc = at;
            group.units.push(UnitId(i as u16));
        }
    }
    for a in &p.agents {
        let i = d.find_agent(a).ok_or_else(|| format!("no agent {a}"))?;
        st.agents[i].loc = at;
        group.agents.push(AgentId(i as u16));
    }
    if let At::Sq(sq) = p.at {
        for (owner, kind) in &p.markers {
            let m = Marker {
                sq,
                owner: *owner,
                kind: *kind,
            };
            st.markers.push(m);
            group.markers.push(m);
        }
    }
    if let Some(g) = p.pick {
        let pieces = &mut st.picks[g];
        pieces.units.extend(group.units);
        pieces.agents.extend(group.agents);
        pieces.markers.extend(group.markers);
    }
    Ok(())
}

/// 26.0: the first setter, then the second, unless the defaults stand.
fn setup_stage(st: &mut State, sc: &Scenario) {
    if st.options.chosen_setup && !sc.picks.is_empty() {
        st.stage = if st.options.sealed_setup {
            Stage::SetupSealed
        } else {
            Stage::Setup(sc.first_setter)
        };
    } else {
        st.picks.clear();
    }
}
