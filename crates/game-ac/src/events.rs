//! The random events phase (8.0) on the stand-in Events Table, the Jihad
//! (21.0) and the scenario specials (S1 7.2 Ranjit Singh, S2 7.0b).

use super::bop;
use super::control::{self, Why};
use super::data::{AgentKind, AgentSide, Effect, EventDef, Kind, Nat, Power, RegionId, Who};
use super::standing::RegionPick;
use super::state::{AgentId, ChoiceKind, EventChoice, Loc, Stage, State, UnitId};
use super::turn::Ctx;
use umpire_core::ruleset::RuleError;

/// The roller this turn: British on odd turns, Russian on even (8.1; ruling A4,
/// counted from the scenario's first turn).
pub fn roller(turn: u32) -> Power {
    if turn % 2 == 1 {
        Power::British
    } else {
        Power::Russian
    }
}

/// The columns a modified first die selects (8.1(1)): a 6 or more reads D, then C.
pub fn columns(d: &super::data::Data, modified: i32) -> Vec<usize> {
    let e = &d.num.events;
    if modified <= e.a {
        vec![0]
    } else if modified <= e.b {
        vec![1]
    } else if modified <= e.c {
        vec![2]
    } else {
        vec![3, 2]
    }
}

/// The random events phase: the column roll, then each column (8.1). An
/// event that asks a question (N13) stops it: the rest of the columns are
/// read after the answer ([`answer`]). Returns whether it stopped.
pub fn random_events(ctx: &mut Ctx, st: &mut State) -> Result<bool, RuleError> {
    let d = ctx.d;
    let who = roller(st.turn);
    let drm = if bop::favoured(st.bop) == who {
        d.num.events.drm_bop
    } else {
        0
    };
    let first = ctx.dice.d6(&format!(
        "random events, column roll by the {} (8.1(1))",
        who.name()
    ))? as i32;
    read_columns(ctx, st, columns(d, first + drm))
}

/// Reads the event columns in order (8.1(2)); stops at a question.
fn read_columns(ctx: &mut Ctx, st: &mut State, cols: Vec<usize>) -> Result<bool, RuleError> {
    let d = ctx.d;
    let who = roller(st.turn);
    for (n, col) in cols.iter().copied().enumerate() {
        let letter = ["A", "B", "C", "D"][col];
        let second = ctx
            .dice
            .d6(&format!("random events, column {letter} (8.1(2))"))?;
        let idx = d.event_columns[col][(second - 1) as usize];
        let ev = &d.events[idx];
        let repeat = st.events_this_turn.contains(&ev.key);
        let mutiny = ev.effect == Effect::Mutiny && st.mutiny_done;
        if ev.effect == Effect::None || repeat || mutiny {
            ctx.say(
                format!(
                    "Events {letter}{second}: No Event{} (8.2).",
                    if repeat {
                        " (repeated this turn)"
                    } else if mutiny {
                        " (the Mutiny has occurred, S2 7.0b)"
                    } else {
                        ""
                    }
                ),
                vec![],
            );
            continue;
        }
        st.events_this_turn.push(ev.key.clone());
        ctx.say(
            format!("Events {letter}{second}: {} (8.1).", ev.name),
            vec![],
        );
        if let Some(q) = effect(ctx, st, ev, who)? {
            st.stage = Stage::Choice(EventChoice {
                rest: cols[n + 1..].to_vec(),
                ..q
            });
            return Ok(true);
        }
    }
    Ok(false)
}

/// The answer to an event's question (`choose REGION`, N13): the choice is
/// carried out, then the rest of the events phase. Returns whether another
/// question stopped it.
pub fn answer(ctx: &mut Ctx, st: &mut State, p: Power, r: RegionId) -> Result<bool, RuleError> {
    let d = ctx.d;
    let Stage::Choice(q) = st.stage.clone() else {
        return Err(RuleError::illegal("no event asks you anything now", "8.0"));
    };
    if q.who != p {
        return Err(RuleError::illegal(
            format!("the {} choose now", q.who.people()),
            "8.0",
        ));
    }
    if !q.options.contains(&r) {
        let names: Vec<&str> = q.options.iter().map(|x| d.reg(*x).code.as_str()).collect();
        return Err(RuleError::illegal(
            format!("choose one of {}", names.join(" ")),
            rule_of(q.kind),
        ));
    }
    carry_out(ctx, st, q.kind, p, r)?;
    st.stage = Stage::Economy;
    read_columns(ctx, st, q.rest)
}

fn rule_of(k: ChoiceKind) -> &'static str {
    match k {
        ChoiceKind::Uprising => "5.4(1)",
        ChoiceKind::Unrest => "5.5",
    }
}

fn targets(w: Who, roller: Power) -> Vec<Power> {
    match w {
        Who::Roller => vec![roller],
        Who::Other => vec![roller.other()],
        Who::Both => vec![Power::British, Power::Russian],
        Who::Power(p) => vec![p],
    }
}

/// An event's effect. An uprising or unrest whose player asked to be asked
/// (and has a real choice) returns the question instead; with two players
/// affected (`who = both`) the standing orders answer, never a question.
fn effect(
    ctx: &mut Ctx,
    st: &mut State,
    ev: &EventDef,
    roller: Power,
) -> Result<Option<EventChoice>, RuleError> {
    let d = ctx.d;
    let ps = targets(ev.who, roller);
    let single = ps.len() == 1;
    for p in ps {
        let n: u32 = ctx
            .dice
            .roll_n(ev.dice, 6, &format!("{} for the {}", ev.name, p.name()))?
            .iter()
            .sum();
        let i = p.index();
        let (name, people) = (&ev.name, p.people());
        match ev.effect {
            Effect::None => {}
            Effect::Pounds => {
                st.treasury[i] += n;
                ctx.say(
                    format!("{name}: the {people} gain {n} pounds (8.1, stand-in effect)."),
                    vec![],
                );
                ctx.tell(
                    p,
                    format!(
                        "{name}: your treasury holds {} pounds now (9.0).",
                        st.treasury[i]
                    ),
                );
            }
            // 9.3 (addition): never below 0.
            Effect::LosePounds => {
                st.treasury[i] = st.treasury[i].saturating_sub(n);
                ctx.say(
                    format!("{name}: the {people} lose {n} pounds, never below 0 (9.3)."),
                    vec![],
                );
                ctx.tell(
                    p,
                    format!(
                        "{name}: your treasury holds {} pounds now (9.0).",
                        st.treasury[i]
                    ),
                );
            }
            Effect::LoseSp => {
                st.sp[i] = st.sp[i].saturating_sub(n);
                ctx.say(
                    format!(
                        "{name}: the {people} lose {n} SP, never below 0 (8.2, stand-in effect)."
                    ),
                    vec![],
                );
                ctx.tell(p, format!("{name}: you have {} SP now (17.1).", st.sp[i]));
            }
            Effect::Mutiny => {
                st.treasury[i] = st.treasury[i].saturating_sub(n);
                st.bop = bop::shifted(d, st.bop, p.other(), 2);
                ctx.say(
                    format!(
                        "{name}: the {people} lose {n} pounds, never below 0, and the index shifts 2 toward the {}: {} (S2 7.0b).",
                        p.other().people(),
                        bop::describe(d, st.bop)
                    ),
                    vec![],
                );
                ctx.tell(
                    p,
                    format!(
                        "{name}: your treasury holds {} pounds now (9.0).",
                        st.treasury[i]
                    ),
                );
            }
            Effect::Accord => {
                if st.bop.abs() > 2 {
                    st.bop -= 2 * st.bop.signum();
                } else {
                    st.bop = st.bop.signum();
                }
                ctx.say(
                    format!(
                        "{name}: the index moves 2 toward the centre, never past it: {} (8.1, stand-in effect).",
                        bop::describe(d, st.bop)
                    ),
                    vec![],
                );
                break;
            }
            Effect::Uprising | Effect::Unrest => {
                let kind = if ev.effect == Effect::Uprising {
                    ChoiceKind::Uprising
                } else {
                    ChoiceKind::Unrest
                };
                let options = choices(d, st, kind, p);
                let Some(first) = options.first().copied() else {
                    ctx.say(
                        format!(
                            "{}: no region fits; no effect ({}).",
                            ev.name,
                            rule_of(kind)
                        ),
                        vec![],
                    );
                    continue;
                };
                let pick = match kind {
                    ChoiceKind::Uprising => &st.standing[i].uprising,
                    ChoiceKind::Unrest => &st.standing[i].unrest,
                };
                if single && options.len() > 1 && *pick == RegionPick::Ask {
                    ctx.say(
                        format!(
                            "The {} choose where the {} falls (N13).",
                            p.people(),
                            ev.name
                        ),
                        vec![],
                    );
                    return Ok(Some(EventChoice {
                        who: p,
                        kind,
                        options,
                        rest: Vec::new(),
                    }));
                }
                carry_out(ctx, st, kind, p, first)?;
            }
            Effect::Jihad => jihad(ctx, st, p, n)?,
        }
    }
    Ok(None)
}

/// The regions an event's choice may fall on, in the order `p`'s standing
/// order puts them (N13): for an uprising the neutral regions, his list
/// first, then by value, most valuable first (the stand-in's default); for
/// unrest the regions he controls, his list first, then least valuable first.
pub fn choices(d: &super::data::Data, st: &State, kind: ChoiceKind, p: Power) -> Vec<RegionId> {
    let fits = |i: usize| match kind {
        ChoiceKind::Uprising => st.control[i].is_none(),
        ChoiceKind::Unrest => st.control[i] == Some(p),
    };
    let mut v: Vec<RegionId> = (0..d.regions.len())
        .filter(|i| fits(*i))
        .map(|i| RegionId(i as u8))
        .collect();
    v.sort_by_key(|r| {
        let vp = d.reg(*r).vp as i64;
        (
            if kind == ChoiceKind::Uprising {
                -vp
            } else {
                vp
            },
            r.0,
        )
    });
    let pick = match kind {
        ChoiceKind::Uprising => &st.standing[p.index()].uprising,
        ChoiceKind::Unrest => &st.standing[p.index()].unrest,
    };
    if let RegionPick::List(codes) = pick {
        let listed: Vec<RegionId> = codes
            .iter()
            .filter_map(|c| d.region(c))
            .filter(|r| v.contains(r))
            .collect();
        let mut out = listed.clone();
        out.extend(v.into_iter().filter(|r| !listed.contains(r)));
        return out;
    }
    v
}

/// An uprising (stand-in: the region joins `p`, 5.4(1)) or Native Unrest
/// (stand-in: `p`'s region reverts to neutral, 5.5, 5.51) on region `r`.
fn carry_out(
    ctx: &mut Ctx,
    st: &mut State,
    kind: ChoiceKind,
    p: Power,
    r: RegionId,
) -> Result<(), RuleError> {
    let d = ctx.d;
    match kind {
        ChoiceKind::Uprising => control::set_control(ctx, st, r, p, Why::Other),
        ChoiceKind::Unrest => {
            let (home, lost) = control::revert(d, st, r, p);
            ctx.say(
                format!(
                    "{} rises against the {} and reverts to neutral (5.5, 5.51): {home} of its units outside it go home, {lost} are eliminated.",
                    d.reg(r).name,
                    p.people()),
                vec![d.city(d.reg(r).capital).sq],
            );
            Ok(())
        }
    }
}

/// The regions where no Jihad may be placed (21.2).
const NO_JIHAD: [&str; 5] = ["WS", "NI", "NP", "PJ", "SN"];

/// Whether `p` may place his Jihad on `s` (21.2): a land square of a region
/// other than West Siberia, North India, Nepal, the Punjab and the Sind,
/// with no enemy or neutral units (the Ghazis themselves aside).
pub fn jihad_square_ok(
    d: &super::data::Data,
    st: &State,
    p: Power,
    s: super::geom::Sq,
) -> Result<(), RuleError> {
    let region = d.sq(s).and_then(|i| i.region);
    let Some(r) = region.filter(|_| d.land(s)) else {
        return Err(RuleError::illegal(
            format!("{s} is not a land square of a region"),
            "21.2",
        ));
    };
    if NO_JIHAD.contains(&d.reg(r).code.as_str()) {
        return Err(RuleError::illegal(
            format!(
                "no Jihad is placed in {} (West Siberia, North India, Nepal, the Punjab, the Sind)",
                d.reg(r).name
            ),
            "21.2",
        ));
    }
    if st
        .units_at(Loc::Sq(s))
        .any(|u| st.unit(u).nat != Nat::Ghazi && st.owner(st.unit(u).nat) != Some(p))
    {
        return Err(RuleError::illegal(
            format!("{s} holds enemy or neutral units"),
            "21.2",
        ));
    }
    Ok(())
}

/// `jihad SQUARE` in the economy orders of the Jihad's player (21.2, digest
/// N13): the Ghazis and the Mad Mullah move from where the event put them.
pub fn place_jihad(
    d: &super::data::Data,
    st: &mut State,
    p: Power,
    to: super::geom::Sq,
) -> Result<String, RuleError> {
    let Some(from) = st.jihad_at.filter(|_| st.ghazis == Some(p)) else {
        return Err(RuleError::illegal(
            "you have no Jihad to place this turn",
            "21.2",
        ));
    };
    jihad_square_ok(d, st, p, to)?;
    for u in st
        .units
        .iter_mut()
        .filter(|u| u.nat == Nat::Ghazi && u.loc == Loc::Sq(from))
    {
        u.loc = Loc::Sq(to);
    }
    for (i, a) in d.agents.iter().enumerate() {
        if a.kind == AgentKind::Mullah && st.agents[i].loc == Loc::Sq(from) {
            st.agents[i].loc = Loc::Sq(to);
        }
    }
    st.jihad_at = Some(to);
    Ok(format!("the Jihad placed on {to} (21.2)"))
}

/// The Jihad (21.1-21.2): `n` Ghazi groups and the Mad Mullah for `p`, first
/// in one land square outside West Siberia, North India, Nepal, the Punjab and
/// the Sind without enemy or neutral units: the first such city (the default,
/// N13); its player places it where he likes with `jihad SQUARE` in his
/// economy orders of the same turn.
fn jihad(ctx: &mut Ctx, st: &mut State, p: Power, n: u32) -> Result<(), RuleError> {
    let d = ctx.d;
    let barred = NO_JIHAD;
    let free = |s: super::geom::Sq| {
        st.units_at(Loc::Sq(s))
            .all(|u| st.owner(st.unit(u).nat) == Some(p))
    };
    let city = d
        .cities
        .iter()
        .filter(|c| !barred.contains(&d.reg(c.region).code.as_str()))
        .map(|c| c.sq)
        .find(|s| free(*s));
    // 21.2 "any one land square" (from version 9): with no free city, the
    // first free land square of an allowed region; version 8 raised none.
    let square = || {
        d.all_squares()
            .find(|s| jihad_square_ok(d, st, p, *s).is_ok() && free(*s))
    };
    let Some(s) = city.or_else(|| square().filter(|_| d.version >= 9)) else {
        // Told from version 9: no square may take the Jihad.
        if d.version >= 9 {
            ctx.say(
                format!(
                    "Jihad for the {}: no land square of the allowed regions is free of enemy and neutral units, so no Ghazis rise (21.2).",
                    p.people()
                ),
                vec![],
            );
        }
        return Ok(());
    };
    st.ghazis = Some(p);
    let ghazis: Vec<UnitId> = (0..st.units.len())
        .map(|i| UnitId(i as u16))
        .filter(|u| {
            st.unit(*u).nat == Nat::Ghazi
                && st.unit(*u).kind == Kind::Ghazi
                && st.unit(*u).loc == Loc::Pool
        })
        .take(n as usize)
        .collect();
    for u in &ghazis {
        st.unit_mut(*u).loc = Loc::Sq(s);
    }
    if let Some(m) = d
        .agents
        .iter()
        .position(|a| a.kind == AgentKind::Mullah && a.side == AgentSide::Ghazi)
    {
        let m = AgentId(m as u16);
        if st.agent(m).loc == Loc::Pool {
            st.agent_mut(m).loc = Loc::Sq(s);
            st.agent_mut(m).face_up = false; // 22.3: a newcomer stands face down
        }
    }
    st.jihad_at = Some(s);
    ctx.say(
        format!(
            "Jihad: {} Ghazi groups and the Mad Mullah rise for the {} at {s}; the {} may place them elsewhere with `jihad SQUARE` in their economy orders (21.1, 21.2).",
            ghazis.len(),
            p.people(),
            p.people()),
        vec![s],
    );
    Ok(())
}

/// The end of a Jihad's turn (21.3): Ghazis and the Mad Mullah leave the map.
pub fn end_jihad(ctx: &mut Ctx, st: &mut State) {
    if st.ghazis.is_none() {
        return;
    }
    let d = ctx.d;
    for u in st.units.iter_mut().filter(|u| u.nat == Nat::Ghazi) {
        u.loc = Loc::Pool;
    }
    for (i, a) in d.agents.iter().enumerate() {
        if a.kind == AgentKind::Mullah && st.agents[i].loc.in_play() {
            st.agents[i].loc = Loc::Pool;
        }
    }
    st.ghazis = None;
    ctx.say("The Ghazis and the Mad Mullah go home (21.3).", vec![]);
}

/// S1 7.2: at the start of every turn Ranjit Singh dies on a 1-3.
pub fn ranjit_singh(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    let d = ctx.d;
    let Some(i) = d.find_agent("ranjit-singh") else {
        return Ok(());
    };
    if !st.sc(d).ranjit_singh || st.agents[i].loc == Loc::Dead {
        return Ok(());
    }
    let roll = ctx.dice.d6("Ranjit Singh (S1 7.2)")?;
    if roll <= d.num.ranjit.dies_on_or_below {
        st.agents[i].loc = Loc::Dead;
        ctx.say(
            format!("Ranjit Singh dies of natural causes (roll {roll}; S1 7.2)."),
            vec![],
        );
    } else {
        ctx.say(
            format!("Ranjit Singh lives on (roll {roll}; S1 7.2)."),
            vec![],
        );
    }
    Ok(())
}
