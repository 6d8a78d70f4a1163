//! The sequence of play (3.1, digest 2.1) as a state machine: initiative (7.0),
//! random events (8.0), the sealed income/expenditure phase (9.0, 10.0,
//! 17.1, 20.0), five operations phases a player alternating first and second
//! (12.0; ruling A1), each move → negotiate → belligerency check → combat →
//! capture (3.1[4]), provisioning (17.3; ruling A2), the end of the turn and
//! victory (25.0).
//!
//! Every order is checked in full before its first die is rolled; nothing
//! after a roll can fail, so no player voids an action after seeing its dice.

use super::bop;
use super::combat;
use super::control;
use super::data::{Data, MarkerKind, Power};
use super::economy::{self, EconOrder};
use super::events;
use super::geom::Sq;
use super::movement;
use super::negotiate;
use super::orders::Order;
use super::state::{OpsPhase, Stage, State};
use super::supply;
use super::victory;
use umpire_core::dice::Dice;
use umpire_core::ruleset::{Audience, Event, RuleError, Side};

/// An order being carried out: the data, the dice and what happened.
pub struct Ctx<'a> {
    /// The game data.
    pub d: &'a Data,
    /// Where every roll comes from.
    pub dice: &'a mut Dice,
    /// What happened, for the result mail.
    pub ev: Vec<Event>,
}

impl Ctx<'_> {
    /// Records an event at some squares (the map snippet centres on them).
    pub fn say(&mut self, text: impl Into<String>, focus: Vec<Sq>) {
        self.ev.push(Event::at(text, focus));
    }

    /// [`Ctx::say`], told to every side even though the order it comes of
    /// is the mover's own: only for what every side's map shows anyway.
    pub fn say_open(&mut self, text: impl Into<String>, focus: Vec<Sq>) {
        self.ev.push(Event::at(text, focus).in_the_open());
    }

    /// Records an event told only to one player (his treasury, his plan).
    pub fn tell(&mut self, p: Power, text: impl Into<String>) {
        self.ev
            .push(Event::say(text).to(Audience::side(side_of(p))));
    }

    /// [`Ctx::tell`] at some squares: the player's own picture centres on
    /// them, and no one else's (the squares may be his secret).
    pub fn tell_at(&mut self, p: Power, text: impl Into<String>, focus: Vec<Sq>) {
        self.ev
            .push(Event::at(text, focus).to(Audience::side(side_of(p))));
    }
}

/// The engine's side of a player.
pub fn side_of(p: Power) -> Side {
    Side(p.index() as u8)
}

fn illegal(m: impl Into<String>, rule: &str) -> RuleError {
    RuleError::illegal(m, rule)
}

/// The player the index lets choose the turn order (7.1).
pub fn chooser(st: &State) -> Power {
    bop::favoured(st.bop)
}

/// Carries out one order of `p`.
pub fn apply(
    d: &Data,
    st: &mut State,
    p: Power,
    order: &Order,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    if let Some(o) = &st.finished {
        return Err(illegal(format!("the game is over: {}", o.summary), "25.0"));
    }
    let mut ctx = Ctx {
        d,
        dice,
        ev: Vec::new(),
    };
    match st.stage {
        Stage::Setup(_) | Stage::SetupSealed => setup_order(&mut ctx, st, p, order)?,
        Stage::Initiative => initiative_order(&mut ctx, st, p, order)?,
        Stage::Choice(_) => choice_order(&mut ctx, st, p, order)?,
        Stage::Economy => economy_order(&mut ctx, st, p, order)?,
        Stage::Ops(_) => ops_phase_order(&mut ctx, st, p, order)?,
        Stage::Over => return Err(illegal("the game is over", "25.0")),
    }
    Ok(ctx.ev)
}

/// An order of the set-up, sequential or sealed (26.0).
fn setup_order(ctx: &mut Ctx, st: &mut State, p: Power, order: &Order) -> Result<(), RuleError> {
    let d = ctx.d;
    match (&st.stage, order) {
        (Stage::SetupSealed, _) if st.sealed[p.index()] => {
            return Err(illegal(
                "your set-up is sealed; wait for the other player",
                "26.0",
            ));
        }
        (Stage::Setup(s), _) if *s != p => {
            return Err(illegal(
                format!(
                    "the {} set up now; you set up {}",
                    s.name(),
                    if *s == st.sc(d).first_setter {
                        "after them"
                    } else {
                        "before them"
                    }
                ),
                "26.0",
            ));
        }
        (_, Order::Place(pieces, to)) => super::placing::place(ctx, st, p, pieces, *to)?,
        (_, Order::PlaceMarker(k, from, to)) => {
            super::placing::place_marker(ctx, st, p, *k, *from, *to)?
        }
        // 18.4 (from version 8): a setter may reorganize what he places.
        (_, Order::Econ(o @ EconOrder::Reorganize { .. })) if d.version >= 8 => {
            let what = economy::apply(d, st, p, o)?;
            ctx.tell(p, format!("{what}."));
        }
        // 22.3 (from version 8): the setter's agents face up or down; in the
        // sequential set-up only, as the sealed one keeps every line hidden.
        (Stage::Setup(_), Order::Face(a, up)) => face(ctx, st, p, *a, *up)?,
        (_, Order::Done) => super::placing::done(ctx, st, p)?,
        _ => {
            return Err(illegal(
                "the set-up takes `place PIECES at CITY`, `place KIND from CITY at CITY` and done",
                "26.0",
            ));
        }
    }
    Ok(())
}

/// `initiative first|second`: the favoured player's choice (7.1, 7.2).
fn initiative_order(
    ctx: &mut Ctx,
    st: &mut State,
    p: Power,
    order: &Order,
) -> Result<(), RuleError> {
    let Order::Initiative(first) = order else {
        return Err(illegal(
            format!(
                "first the {} choose who moves first: `initiative first|second`",
                chooser(st).people()
            ),
            "7.2",
        ));
    };
    if p != chooser(st) {
        return Err(illegal(
            format!("the index favours the {}, who choose", chooser(st).people()),
            "7.1",
        ));
    }
    st.first = if *first { p } else { p.other() };
    ctx.say(
        format!(
            "The {} will be first player this turn (7.2).",
            st.first.people()
        ),
        vec![],
    );
    open_turn(ctx, st, false)
}

/// `choose REGION`: the answer to an event's question (8.0).
fn choice_order(ctx: &mut Ctx, st: &mut State, p: Power, order: &Order) -> Result<(), RuleError> {
    match (&st.stage, order) {
        (Stage::Choice(_), Order::Choose(r)) => {
            if !events::answer(ctx, st, p, *r)? {
                open_economy(ctx, st)?;
            }
            Ok(())
        }
        (Stage::Choice(q), _) => Err(illegal(
            if q.who == p {
                "first answer the event's question: `choose REGION`".to_string()
            } else {
                format!(
                    "waiting for the {} to answer the event's question",
                    q.who.people()
                )
            },
            "8.0",
        )),
        _ => Ok(()),
    }
}

/// An order of the income/expenditure phase, written down until both
/// players have sealed theirs (3.1[3]).
fn economy_order(ctx: &mut Ctx, st: &mut State, p: Power, order: &Order) -> Result<(), RuleError> {
    let d = ctx.d;
    match order {
        Order::Econ(o) => {
            if st.sealed[p.index()] {
                return Err(illegal(
                    "your economy orders are sealed; wait for the other player",
                    "3.1[3]",
                ));
            }
            let mut trial = st.clone();
            for prior in st.plans[p.index()].clone() {
                economy::apply(d, &mut trial, p, &prior)?;
            }
            let what = economy::apply(d, &mut trial, p, o)?;
            // Said once, with the plan's first order; the others are
            // written down the same way.
            let first = st.plans[p.index()].is_empty();
            st.plans[p.index()].push(o.clone());
            ctx.tell(
                p,
                format!(
                    "Written down{}: {what}; {} pounds and {} SP left after your plan so far{}.",
                    if first {
                        ", to be carried out when both players are in"
                    } else {
                        ""
                    },
                    trial.treasury[p.index()],
                    trial.sp[p.index()],
                    if first { " (3.1[3])" } else { "" }
                ),
            );
        }
        Order::Done => {
            if st.sealed[p.index()] {
                return Err(illegal("your economy orders are already sealed", "3.1[3]"));
            }
            ctx.tell(p, plan_summary(d, st, p));
            st.sealed[p.index()] = true;
            ctx.say(
                format!(
                    "The {} have sealed their economy orders (3.1[3]).",
                    p.people()
                ),
                vec![],
            );
            if st.sealed == [true, true] {
                resolve_economy(ctx, st);
            }
        }
        Order::Release(a, s) => prisoner(ctx, st, p, *a, Some(*s))?,
        Order::Execute(a) => prisoner(ctx, st, p, *a, None)?,
        _ => {
            return Err(illegal(
                "the income/expenditure phase takes buy, recruit, agent, build, disband and done",
                "3.1[3]",
            ));
        }
    }
    Ok(())
}

/// The sealed plan as accepted, told to its player alone (3.1[3]): each
/// order as it will be carried out, what it costs in all and what is left.
/// Carried out first player first (ruling A49), so the other plan may still
/// change what the later orders can do.
fn plan_summary(d: &Data, st: &State, p: Power) -> String {
    let plan = &st.plans[p.index()];
    if plan.is_empty() {
        return format!(
            "Your economy plan, sealed: no orders; {} pounds and {} SP kept (3.1[3]).",
            st.treasury[p.index()],
            st.sp[p.index()]
        );
    }
    let mut trial = st.clone();
    let whats: Vec<String> = plan
        .iter()
        .enumerate()
        .map(|(i, o)| match economy::apply(d, &mut trial, p, o) {
            Ok(what) => format!("{}. {what}", i + 1),
            Err(e) => format!("{}. not carried out as things stand: {e}", i + 1),
        })
        .collect();
    let (before, after) = (st.treasury[p.index()], trial.treasury[p.index()]);
    format!(
        "Your economy plan, sealed: {}. It costs {} pounds in all: {after} pounds and {} SP left after it (3.1[3]).",
        whats.join("; "),
        before.saturating_sub(after),
        trial.sp[p.index()]
    )
}

/// An order in an operations phase, of its player only (3.1[4]).
fn ops_phase_order(ctx: &mut Ctx, st: &mut State, p: Power, o: &Order) -> Result<(), RuleError> {
    let d = ctx.d;
    if let Stage::Ops(ph) = &st.stage
        && ph.side != p
    {
        return Err(illegal(
            format!(
                "it is the {} player's operations phase {}",
                ph.side.people(),
                ph.k
            ),
            "3.1[4]",
        ));
    }
    let before = ctx.dice.count();
    ops_order(ctx, st, p, o)?;
    // 14.6 (from version 9): an order that rolls no die and spoils a
    // CRT choice is refused, before any roll it could follow.
    if d.version >= 9 && ctx.dice.count() == before && !matches!(o, Order::End) {
        crt_choices_stand(d, st, p)?;
    }
    Ok(())
}

fn phase(st: &mut State) -> &mut OpsPhase {
    match &mut st.stage {
        Stage::Ops(ph) => ph,
        _ => unreachable!("ops orders are applied only in an operations phase"),
    }
}

fn ops_order(ctx: &mut Ctx, st: &mut State, p: Power, o: &Order) -> Result<(), RuleError> {
    let d = ctx.d;
    match o {
        Order::Move {
            pieces,
            path,
            forced,
        } => {
            if phase(st).negotiating {
                return Err(illegal("all movement comes before negotiations", "12.1"));
            }
            let k = phase(st).k;
            movement::apply(ctx, st, p, k, pieces, path, *forced)
        }
        Order::Massacre(s) if st.options.massacre => {
            phase(st).negotiating = true;
            super::massacre::now(ctx, st, p, *s)
        }
        Order::Massacre(s) => {
            // 20.5 (from version 9): markers are public (22.2), so an order
            // with none of the enemy's to destroy is refused, not dropped.
            if d.version >= 9 {
                if !st.markers_at(*s).any(|m| m.owner != p) {
                    return Err(illegal(
                        format!("no enemy civilization marker stands on {s} to massacre"),
                        "20.5",
                    ));
                }
                if phase(st).massacre.contains(s) {
                    return Err(illegal(format!("{s} is to be massacred already"), "20.5"));
                }
            }
            phase(st).massacre.push(*s);
            Ok(())
        }
        Order::Discover(a, target) => super::discovery::apply(ctx, st, p, *a, *target),
        Order::Execute(a) => prisoner(ctx, st, p, *a, None),
        // 16.44: a native prisoner is placed "if he desires", in any phase.
        Order::Release(a, s) => prisoner(ctx, st, p, *a, Some(*s)),
        Order::Negotiate(at) => {
            let done = phase(st).negotiated.clone();
            negotiate::check(d, st, p, &done, at)?;
            let ph = phase(st);
            ph.negotiating = true;
            ph.negotiated.push(at.region);
            negotiate::apply(ctx, st, p, at)
        }
        Order::Crt(s, c) => {
            // 14.61, 14.62 (from version 9): the table must be one the force
            // there may use; version 8 fought on the other without a word.
            if d.version >= 9
                && let Some(e) = combat::crt_refusal(d, st, p, *s, *c)
            {
                return Err(e);
            }
            phase(st).crt.insert(*s, *c);
            Ok(())
        }
        Order::Deal(deal) => super::agreement::apply(ctx, st, p, deal),
        // 18.0 "at any point" (from version 8): told to its player alone.
        Order::Econ(o @ EconOrder::Reorganize { .. }) if d.version >= 8 => {
            let what = economy::apply(d, st, p, o)?;
            ctx.tell(p, format!("{what}."));
            Ok(())
        }
        Order::Face(a, up) => face(ctx, st, p, *a, *up),
        Order::End => end_phase(ctx, st, p),
        _ => Err(illegal(
            "an operations phase takes move, negotiate, ultimatum, crt and end",
            "12.1",
        )),
    }
}

/// 14.6 (from version 9): every CRT `p` has chosen in this phase is one his
/// force in its square may use (14.61, 14.62).
fn crt_choices_stand(d: &Data, st: &State, p: Power) -> Result<(), RuleError> {
    let Stage::Ops(ph) = &st.stage else {
        return Ok(());
    };
    for (s, c) in &ph.crt {
        if let Some(RuleError::Illegal { message, rule }) = combat::crt_refusal(d, st, p, *s, *c) {
            return Err(illegal(
                format!(
                    "after this order {message}: write `crt {s}` after the moves that bring the force together, or choose the other table"
                ),
                rule.as_deref().unwrap_or("14.6"),
            ));
        }
    }
    Ok(())
}

/// 22.3 (from version 8; the order parses only there): one of `p`'s agents
/// on the map turned face up, so that alone he shows who he is, or face
/// down again, showing only his flag. Told to both: it is done in the open.
fn face(
    ctx: &mut Ctx,
    st: &mut State,
    p: Power,
    a: super::state::AgentId,
    up: bool,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let name = &d.agents[a].name;
    // Whose first: where an enemy agent is, a refusal must not tell.
    if st.agent_owner(d, a) != Some(p) {
        return Err(illegal(format!("{name} is not one of your agents"), "22.3"));
    }
    let super::state::Loc::Sq(s) = st.agent(a).loc else {
        return Err(illegal(format!("{name} is not on the map"), "22.3"));
    };
    // Turning an agent the way he already lies would only tell the other
    // player that he is on the map.
    if st.agent(a).face_up == up {
        return Err(illegal(
            format!("{name} is face {} already", if up { "up" } else { "down" }),
            "22.3",
        ));
    }
    st.agent_mut(a).face_up = up;
    // Face down again: the square is not told, as it would place him.
    let (text, focus) = if up {
        (
            format!("The {} show {name} face up at {s} (22.3).", p.people()),
            vec![s],
        )
    } else {
        (
            format!("The {} turn {name} face down (22.3).", p.people()),
            vec![],
        )
    };
    ctx.say(text, focus);
    Ok(())
}

/// Belligerency check, combat and capture, then the next phase (3.1[4b-d]).
fn end_phase(ctx: &mut Ctx, st: &mut State, p: Power) -> Result<(), RuleError> {
    let crt = phase(st).crt.clone();
    control::belligerency(ctx, st, p)?;
    combat::combat_phase(ctx, st, p, &crt)?;
    combat::captures(ctx, st, p)?;
    let massacres = phase(st).massacre.clone();
    massacre(ctx, st, p, &massacres);
    let (k, side) = (phase(st).k, phase(st).side);
    if side == st.first {
        open_phase(st, k, side.other());
    } else if k < 5 {
        open_phase(st, k + 1, st.first);
    } else {
        end_turn(ctx, st)?;
    }
    Ok(())
}

/// Massacres (20.5, ruling A39: the phasing player, at the end of his combat
/// sub-phase): enemy civilization markers in squares his combat units hold
/// alone are eliminated, and the index shifts toward their owner (20.51).
fn massacre(ctx: &mut Ctx, st: &mut State, p: Power, squares: &[Sq]) {
    let d = ctx.d;
    for s in squares {
        if !st.occupies(*s, p) || st.occupies(*s, p.other()) {
            ctx.tell(
                p,
                format!("No massacre at {s}: it needs your combat units and no enemy ones (20.5)."),
            );
            continue;
        }
        let gone: Vec<super::state::Marker> = st
            .markers_at(*s)
            .filter(|m| m.owner != p)
            .copied()
            .collect();
        for m in &gone {
            let c = &d.num.bop_changes;
            let n = match m.kind {
                MarkerKind::Colony => c.colony_lost,
                MarkerKind::TradingPost => c.post_lost,
                MarkerKind::Railroad => c.railroad_lost,
                MarkerKind::Fort => c.fort_lost,
            };
            st.bop = bop::shifted(d, st.bop, m.owner, n);
            ctx.say(
                format!(
                    "The {} destroy the {} {} at {s} (20.5, 20.51).",
                    p.people(),
                    m.owner.people(),
                    m.kind.key()
                ),
                vec![*s],
            );
        }
        st.markers.retain(|m| !(m.sq == *s && m.owner != p));
    }
}

/// Executes (16.42(2)) or releases (16.42(1)) a prisoner held by `p`.
fn prisoner(
    ctx: &mut Ctx,
    st: &mut State,
    p: Power,
    a: super::state::AgentId,
    to: Option<Sq>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let name = &d.agents[a].name;
    if st.agent(a).loc != super::state::Loc::Prisoner(p) {
        return Err(illegal(format!("you hold no prisoner {name}"), "16.42"));
    }
    match to {
        Some(s) if native_home(d, st, p, a) => {
            let friendly = st
                .units_at(super::state::Loc::Sq(s))
                .any(|u| st.owner(st.unit(u).nat) == Some(p));
            if !friendly {
                return Err(illegal(
                    format!("{name} is placed on a square holding one of your units, not {s}"),
                    "16.44",
                ));
            }
            st.agent_mut(a).loc = super::state::Loc::Sq(s);
            st.agent_mut(a).face_up = false; // 22.3: back face down
            ctx.say(
                format!(
                    "The {} take {name} into their service at {s}: his region is theirs now (16.44).",
                    p.people()
                ),
                vec![s],
            );
        }
        Some(_) if matches!(st.stage, Stage::Ops(_)) => {
            return Err(illegal(
                format!("{name} is returned at the beginning of a turn"),
                "16.42(1)",
            ));
        }
        Some(s) => {
            if !d.land(s) {
                return Err(illegal(format!("{s} is not a land square"), "16.42(1)"));
            }
            st.agent_mut(a).loc = super::state::Loc::Sq(s);
            st.agent_mut(a).face_up = false; // 22.3: back face down
            ctx.say(
                format!("The {} release {name} at {s} (16.42(1)).", p.people()),
                vec![s],
            );
        }
        None if st.returns.iter().any(|(x, _)| *x == a) => {
            return Err(illegal(
                format!("{name} is to be returned by agreement at the start of the next turn"),
                "23.0",
            ));
        }
        None => {
            st.agent_mut(a).loc = super::state::Loc::Dead;
            st.bop = bop::shifted(d, st.bop, p.other(), d.num.bop_changes.agent_executed);
            ctx.say(
                format!(
                    "The {} execute {name}; the index shifts toward the {} (16.42(2)).",
                    p.people(),
                    p.other().people()
                ),
                vec![],
            );
        }
    }
    Ok(())
}

/// 16.44: a captured native agent whose region `p` (his captor) now controls.
fn native_home(d: &Data, st: &State, p: Power, a: super::state::AgentId) -> bool {
    matches!(d.agents[a].side, super::data::AgentSide::Native(r)
        if st.control[r] == Some(p))
}

/// Opens operations phase `k` of `side`: every piece may operate again (12.0).
pub fn open_phase(st: &mut State, k: u8, side: Power) {
    for u in &mut st.units {
        u.moved = false;
    }
    for a in &mut st.agents {
        a.moved = false;
        a.used = false;
    }
    st.stage = Stage::Ops(OpsPhase {
        k,
        side,
        negotiating: false,
        negotiated: Vec::new(),
        crt: Default::default(),
        massacre: Vec::new(),
    });
}

/// The opening of a turn: Ranjit Singh (S1 7.2), the initiative by standing
/// order (N11) unless already chosen, random events, income; then the
/// economy phase waits for both players.
fn open_turn(ctx: &mut Ctx, st: &mut State, choose: bool) -> Result<(), RuleError> {
    let d = ctx.d;
    st.events_this_turn.clear();
    st.sp_bought = [0, 0];
    st.recruited.clear();
    events::ranjit_singh(ctx, st)?;
    returns(ctx, st);
    if choose {
        let c = chooser(st);
        st.first = if st.standing[c.index()].first {
            c
        } else {
            c.other()
        };
        ctx.say(
            format!(
                "Turn {} ({}): the {} are first player (7.2, standing order).",
                st.turn,
                st.year(),
                st.first.people()
            ),
            vec![],
        );
    }
    if st.turn == 1 && st.sc(d).no_events_first_turn {
        ctx.say(
            "No random events on the first turn (26.0 S1 7.1, S2 7.0a).",
            vec![],
        );
    } else if events::random_events(ctx, st)? {
        // An event asks a question (N13): income and the economy wait.
        return Ok(());
    }
    open_economy(ctx, st)
}

/// Income for both, then the sealed economy round (3.1[3]).
fn open_economy(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    economy::collect_income(ctx, st)?;
    st.plans = [Vec::new(), Vec::new()];
    st.sealed = [false, false];
    st.stage = Stage::Economy;
    Ok(())
}

/// Prisoners an agreement returns, at the beginning of the turn (16.42(1)).
fn returns(ctx: &mut Ctx, st: &mut State) {
    for (a, s) in std::mem::take(&mut st.returns) {
        let super::state::Loc::Prisoner(captor) = st.agent(a).loc else {
            continue;
        };
        st.agent_mut(a).loc = super::state::Loc::Sq(s);
        st.agent_mut(a).face_up = false; // 22.3: back face down
        ctx.say(
            format!(
                "The {} return {} on {s}, as agreed (16.42(1), 23.0).",
                captor.people(),
                ctx.d.agents[a].name
            ),
            vec![s],
        );
    }
}

/// Carries out both sealed plans, first player first (ruling A49).
fn resolve_economy(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    for p in [st.first, st.first.other()] {
        let plan = std::mem::take(&mut st.plans[p.index()]);
        let mut done = 0;
        for o in &plan {
            match economy::apply(d, st, p, o) {
                Ok(what) => {
                    done += 1;
                    ctx.tell(p, format!("Carried out: {what}."));
                    // 21.2: where the Jihad stands is no secret once placed.
                    if let super::economy::EconOrder::Jihad(s) = o {
                        ctx.say(
                            format!("The {}' Jihad takes the field at {s} (21.2).", p.people()),
                            vec![*s],
                        );
                    }
                }
                Err(e) => ctx.tell(p, format!("Not carried out, nothing paid: {e}")),
            }
        }
        ctx.say(
            format!(
                "The {} carry out {done} expenditure order{} (3.1[3]).",
                p.people(),
                if done == 1 { "" } else { "s" }
            ),
            vec![],
        );
    }
    st.jihad_at = None;
    open_phase(st, 1, st.first);
}

/// Provisioning, the end of the turn, victory or the next turn.
fn end_turn(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    let d = ctx.d;
    supply::provisioning(ctx, st)?;
    events::end_jihad(ctx, st);
    // 31.33 and 32.6: "for the remainder of the turn" ends here.
    st.massacred.clear();
    // Ruling A69 (23.0 is silent): an offer lapses at the end of its turn.
    for o in std::mem::take(&mut st.offers) {
        ctx.say(
            format!(
                "Agreement {} of the {} lapses unanswered at the end of the turn (23.0, ruling A69).",
                o.id,
                o.from.people()),
            vec![],
        );
    }
    st.discoveries.bazaar.clear();
    st.discoveries.somnath = None;
    // 4.0 clarification: the index shifts for cities occupied at the end of a turn.
    for name in &d.num.key_cities.cities {
        let Some(c) = d.find_city(name) else { continue };
        let s = d.city(c).sq;
        for p in super::data::Power::ALL {
            if st.occupies(s, p) && !st.occupies(s, p.other()) {
                st.bop = bop::shifted(d, st.bop, p, d.num.bop_changes.city_end_of_turn);
            }
        }
    }
    if st.turn >= st.turns {
        let o = victory::outcome(d, st);
        ctx.say(format!("The game is over: {} (25.0).", o.summary), vec![]);
        st.finished = Some(o);
        st.stage = Stage::Over;
        return Ok(());
    }
    st.turn += 1;
    open_turn(ctx, st, true)
}
