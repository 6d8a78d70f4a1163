//! The sequence of play (4.0): preparation (4.1), alternating action phases
//! (4.2) with activations and their limits (2.5.5, 5.0), passes, the end of a
//! turn, and the work queue that carries an action through combats, losses,
//! retreat checks and displacements, stopping where a player must decide.
//!
//! Every order is validated completely before its first die is rolled, and
//! nothing after a roll can fail: otherwise a player could void an action after
//! seeing its dice (the engine keeps rolls but discards a failed order's effects).

use super::combat;
use super::data::{CmdId, Data, Faction, Terrain, UnitId};
use super::movement;
use super::orders::{Action, Double, InitAnswer, Order};
use super::standing::{self, InitiativePolicy, Policy};
use super::state::{CmdState, Decision, Loc, PassQueue, Phase, State, Work};
use super::victory;
use umpire_core::dice::{Dice, DiceError};
use umpire_core::hex::Hex;
use umpire_core::ruleset::{Event, RuleError};

/// An order being carried out: the data, the dice and what happened.
pub struct Ctx<'a> {
    /// The game data.
    pub d: &'a Data,
    /// Where every roll comes from.
    pub dice: &'a mut Dice,
    /// What happened, for the result mail.
    pub ev: Vec<Event>,
    /// The last event, when it tells queued passes in a row: its index
    /// and the passes it counts (Ming, Jurchen), so the next one folds in.
    pub passes: Option<(usize, [u32; 2])>,
}

impl Ctx<'_> {
    /// Records an event at some hexes.
    pub fn say(&mut self, text: impl Into<String>, focus: Vec<Hex>) {
        self.ev.push(Event::at(text, focus));
    }
}

/// Whether the work queue may go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Carry on.
    Go,
    /// A player must decide (`State::decision` is set).
    Ask,
}

fn illegal(message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::illegal(message, rule)
}

/// The name of a command, for messages.
pub fn cname(d: &Data, c: CmdId) -> &str {
    &d.commands[c].name
}

/// Carries out one order of `side`.
pub fn apply(
    d: &Data,
    st: &mut State,
    f: Faction,
    order: &Order,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    if let Some(o) = &st.finished {
        return Err(illegal(format!("the game is over: {}", o.summary), "8.0"));
    }
    if st.prep_pending {
        // Turn 1's preparation roll comes with the first order. Check the order
        // first, with dice that stop at the first roll and the least AP the roll
        // can give, so that an illegal first order is refused before any die.
        let mut trial = st.clone();
        trial.prep_pending = false;
        let least = d.values.prep_dice
            + trial
                .prep_commands(d, Faction::Ming)
                .max(trial.prep_commands(d, Faction::Jurchen));
        trial.ap = [least, least];
        let mut preview = Dice::preview();
        let mut tctx = Ctx {
            d,
            dice: &mut preview,
            ev: Vec::new(),
            passes: None,
        };
        match apply_order(&mut tctx, &mut trial, f, order) {
            Ok(()) | Err(RuleError::Dice(DiceError::PreviewStops(_))) => {}
            Err(e) => return Err(e),
        }
    }
    let mut ctx = Ctx {
        d,
        dice,
        ev: Vec::new(),
        passes: None,
    };
    if st.prep_pending {
        st.prep_pending = false;
        roll_preparation(&mut ctx, st)?;
    }
    apply_order(&mut ctx, st, f, order)?;
    Ok(ctx.ev)
}

fn require_phase(d: &Data, st: &State, f: Faction) -> Result<(), RuleError> {
    if let Some(q) = &st.decision {
        return Err(if q.side() == f {
            RuleError::unruled(format!(
                "first answer the question put to you: {}",
                super::prompt_text(d, st, q)
            ))
        } else {
            RuleError::unruled(format!(
                "waiting for the {} player to decide",
                q.side().name()
            ))
        });
    }
    if st.phase.side != f {
        return Err(illegal(
            format!(
                "it is the {} player's action phase, not yours",
                st.phase.side.name()
            ),
            "4.2",
        ));
    }
    Ok(())
}

fn apply_order(ctx: &mut Ctx, st: &mut State, f: Faction, order: &Order) -> Result<(), RuleError> {
    match order {
        Order::Act {
            cmd,
            action,
            double,
            place,
        } => {
            require_phase(ctx.d, st, f)?;
            only_command(ctx.d, st)?;
            activate(ctx, st, f, *cmd, action, false, *double, *place)
        }
        Order::Then { cmd, action, place } => then_order(ctx, st, f, *cmd, action, *place),
        Order::Pass { cmd, more } => pass_order(ctx, st, f, *cmd, *more),
        Order::Queue { more } => {
            queue_order(ctx, st, f, *more);
            Ok(())
        }
        Order::End { place } => end_order(ctx, st, f, *place),
        Order::Losses(_) | Order::Rout(_) | Order::Displace { .. } | Order::Initiative(_) => {
            answer(ctx, st, f, order)?;
            run(ctx, st)
        }
    }
}

/// One command acts in an action phase (1.0, 4.2); an open double action
/// takes its second action or `end` (5.0(3)).
fn only_command(d: &Data, st: &State) -> Result<(), RuleError> {
    let Some(c) = st.phase.cmd else {
        return Ok(());
    };
    Err(if st.phase.open {
        illegal(
            format!(
                "{}'s double action is open: send `then ACTION` or `end`",
                cname(d, c)
            ),
            "5.0(3)",
        )
    } else {
        illegal(
            format!(
                "only one command acts in an action phase; this one is {}'s",
                cname(d, c)
            ),
            "1.0, 4.2",
        )
    })
}

/// `then ACTION`: the second action of a double, by the same command (5.0(3)).
fn then_order(
    ctx: &mut Ctx,
    st: &mut State,
    f: Faction,
    cmd: Option<CmdId>,
    action: &Action,
    place: Option<Hex>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    require_phase(d, st, f)?;
    let ok = st
        .phase
        .cmd
        .filter(|_| st.phase.actions == 1 && st.phase.double);
    let Some(c) = ok else {
        return Err(illegal(
            "`then` is the second action of a double action, right after the first",
            "5.0(3)",
        ));
    };
    if let Some(x) = cmd
        && x != c
    {
        return Err(illegal(
            format!(
                "the second action must be {}'s, who made the first",
                cname(d, c)
            ),
            "5.0(3)",
        ));
    }
    activate(ctx, st, f, c, action, true, Double::No, place)
}

/// `pass [COMMAND] [N|rest]`: the phase passed, and later ones queued (4.2.4).
fn pass_order(
    ctx: &mut Ctx,
    st: &mut State,
    f: Faction,
    cmd: Option<CmdId>,
    more: PassQueue,
) -> Result<(), RuleError> {
    let d = ctx.d;
    require_phase(d, st, f)?;
    if st.phase.cmd.is_some() {
        return Err(illegal(
            "this phase's command has acted; `end` closes the phase",
            "4.2.4",
        ));
    }
    if let Some(c) = cmd {
        if d.commands[c].side != f {
            return Err(illegal(
                format!("{} is not your command", cname(d, c)),
                "4.2.4",
            ));
        }
        if st.commands[c].loc == Loc::Gone {
            return Err(illegal(format!("{} is defeated", cname(d, c)), "7.6"));
        }
    }
    do_pass(ctx, st, f, cmd, false);
    st.passes[f.index()] = more;
    st.queue.push_back(Work::EndPhase);
    run(ctx, st)
}

/// `pass N` / `pass rest` after another order of the same move: passes
/// queued for the side's phases that follow, as standing passes (4.2.4).
/// It is applied just before the order it follows, so it stands when that
/// order's phase ends; the passes lapse with the turn (4.1). Never fails.
/// It is told in full when the phase ends ([`queued_text`]), after the
/// action it follows in the mail; here only that it waits for the action.
fn queue_order(ctx: &mut Ctx, st: &mut State, f: Faction, more: PassQueue) {
    st.passes[f.index()] = more;
    ctx.say(
        "queued: these passes begin once the action that follows here is done (4.2.4)",
        vec![],
    );
}

/// What `f` has queued, told as its phase ends (4.2.4).
fn queued_text(st: &State, f: Faction) -> Option<String> {
    match st.passes[f.index()] {
        PassQueue::Rest => Some(format!(
            "{} will pass their remaining action phases of turn {} (4.2.4)",
            f.name(),
            st.turn
        )),
        PassQueue::Count(n) => Some(format!(
            "{} will pass their next {}action phase{} (4.2.4)",
            f.name(),
            if n == 1 {
                String::new()
            } else {
                format!("{n} ")
            },
            if n == 1 { "" } else { "s" }
        )),
        PassQueue::None => None,
    }
}

/// `end [place ...]`: an open double action closed, the command placed (2.3(3), 5.0(3)).
fn end_order(
    ctx: &mut Ctx,
    st: &mut State,
    f: Faction,
    place: Option<(Option<CmdId>, Hex)>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    require_phase(d, st, f)?;
    let Some(c) = st.phase.cmd.filter(|_| st.phase.open) else {
        return Err(illegal("no double action is open to end", "5.0(3)"));
    };
    if let Some((pc, h)) = place {
        if pc.is_some_and(|x| x != c) {
            return Err(illegal(
                format!("only {} was activated this phase", cname(d, c)),
                "2.3(3)",
            ));
        }
        check_place(d, st, c, h)?;
        st.phase.place = Some(h);
    }
    st.phase.open = false;
    st.queue.push_back(Work::EndPhase);
    run(ctx, st)
}

/// The AP an action costs (4.2.1-4.2.3).
pub fn cost(d: &Data, f: Faction, a: &Action) -> u32 {
    match a {
        Action::Move(_) => d.values.ap_move,
        Action::Combat(_) => d.values.ap_combat[f.index()],
        Action::Rally => d.values.ap_rally,
    }
}

/// Why a command may not be activated now, if it may not (2.1(5), 2.5.5, 5.0(3), 7.6).
pub fn cannot_activate(
    d: &Data,
    st: &State,
    f: Faction,
    c: CmdId,
    second: bool,
    double: bool,
) -> Option<(String, &'static str)> {
    let info = &d.commands[c];
    let cs = &st.commands[c];
    if info.side != f {
        return Some((
            format!("{} is a {} command", info.name, info.side.name()),
            "2.4(7)",
        ));
    }
    if matches!(cs.loc, Loc::Gone | Loc::Out) {
        return Some((format!("{} is defeated", info.name), "7.6"));
    }
    if st.turn < info.entry_turn {
        return Some((
            format!("{} may act from turn {}", info.name, info.entry_turn),
            "2.1(5), 9.0",
        ));
    }
    if !second && cs.acts >= d.values.per_turn {
        return Some((
            format!(
                "{} has been activated twice this turn and must pass first",
                info.name
            ),
            "2.5.5(3)",
        ));
    }
    if double && !second && (cs.acts > 0 || cs.double_used) {
        return Some((
            format!(
                "{} cannot make a double action: only a command not yet activated this turn, once a turn",
                info.name
            ),
            "5.0(3)",
        ));
    }
    None
}

/// Checks a command placement (2.3(3), 6.0(5), 1.1).
pub fn check_place(d: &Data, st: &State, c: CmdId, h: Hex) -> Result<(), RuleError> {
    let side = d.commands[c].side;
    if !st.alive(d, c).any(|u| st.units[u].loc == Loc::Hex(h)) {
        return Err(illegal(
            format!(
                "{} can only be placed with a {} combat unit; none is in {h}",
                cname(d, c),
                d.commands[c].colour
            ),
            "2.3(3)",
        ));
    }
    let others = st.commands_at(d, h, side).filter(|x| *x != c).count() as u32;
    if others + 1 > d.tec(h).stack_command {
        return Err(illegal(
            format!("{h} already holds a {} command unit", side.name()),
            "1.1",
        ));
    }
    Ok(())
}

/// The units a command activates (4.2.1, 5.0(1)): its colour's combat units in
/// or next to the command unit or to another unit so activated; off-map units
/// count once the command may enter (ruling A10).
pub fn chain(d: &Data, st: &State, c: CmdId) -> Vec<UnitId> {
    let mut on: Vec<(UnitId, Hex)> = st
        .alive(d, c)
        .filter_map(|u| st.units[u].loc.hex().map(|h| (u, h)))
        .collect();
    let mut out: Vec<UnitId> = Vec::new();
    let mut reach: Vec<Hex> = st.commands[c].loc.hex().into_iter().collect();
    loop {
        let before = out.len();
        on.retain(|(u, h)| {
            if reach.iter().any(|r| r == h || r.adjacent(*h)) {
                out.push(*u);
                reach.push(*h);
                false
            } else {
                true
            }
        });
        if out.len() == before {
            break;
        }
    }
    if st.turn >= d.commands[c].entry_turn {
        out.extend(st.alive(d, c).filter(|u| st.units[*u].loc == Loc::OffMap));
    }
    out.sort();
    out
}

/// Why unit `u` is not among the units command `c` activated (2.4(7),
/// 5.0(1), 9.0), naming where the unit and the command stand and the limit
/// the rule sets, with the rules broken. Public facts only (the board is
/// open to both sides), so a refusal may quote it.
pub fn why_not_activated(d: &Data, st: &State, c: CmdId, u: UnitId) -> (String, &'static str) {
    let id = &d.units[u].id;
    let owner = d.units[u].cmd;
    if owner != c {
        return (
            format!(
                "{id} is {}'s; {} activates only units of its own colour",
                cname(d, owner),
                cname(d, c)
            ),
            "2.4(7), 5.1",
        );
    }
    match (st.units[u].loc, st.commands[c].loc) {
        (Loc::Gone, _) => (format!("{id} is eliminated"), "7.0(2)"),
        (Loc::Out, _) => (format!("{id} is not in play in this game"), "10.0"),
        (Loc::OffMap, _) => (
            format!(
                "{id} is off the map; {} enters from turn {}",
                cname(d, c),
                d.commands[c].entry_turn
            ),
            "9.0",
        ),
        (Loc::Hex(h), Loc::Hex(at)) => (
            format!(
                "{id} in {h} was out of {}'s command distance when it was activated: the command unit is at {at}, {} hex{} away, \
and no activated unit of its colour was in or next to {h} (command distance: in or next to the command unit, \
or to another activated unit of its colour)",
                cname(d, c),
                at.distance(h),
                if at.distance(h) == 1 { "" } else { "es" }
            ),
            "5.0(1), 5.0(4)",
        ),
        (Loc::Hex(h), _) => (
            format!(
                "{id} in {h} was out of {}'s command distance: the command unit is off the map, so only its units off the map are activated",
                cname(d, c)
            ),
            "5.0(1), 9.0",
        ),
    }
}

#[allow(clippy::too_many_arguments)]
fn activate(
    ctx: &mut Ctx,
    st: &mut State,
    f: Faction,
    c: CmdId,
    action: &Action,
    second: bool,
    double: Double,
    place: Option<Hex>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    if let Some((m, r)) = cannot_activate(d, st, f, c, second, double != Double::No) {
        return Err(illegal(m, r));
    }
    let ap = cost(d, f, action);
    afford(d, st, f, c, action, ap, double)?;
    // 4.2: the action points are spent on activation.
    st.ap[f.index()] -= ap;
    let cs: &mut CmdState = &mut st.commands[c];
    if second {
        // 2.3(1), 5.0(3): the command is flipped after its double action.
        cs.double_used = true;
        cs.acts = d.values.per_turn.max(cs.acts + 1);
    } else if st.options.limit_two {
        cs.acts += 1;
    }
    st.phase.cmd = Some(c);
    st.phase.actions += 1;
    st.phase.open = false;
    if double != Double::No {
        st.phase.double = true;
    }
    // 5.0(4): command distance is fixed at activation, before anything moves.
    st.phase.chain = chain(d, st, c);
    st.phase.fought.clear();
    st.phase.attacked.clear();
    // A move's own events centre the map on where its units went; the
    // command's hex would centre it on where they were.
    let focus: Vec<Hex> = match action {
        Action::Move(_) => Vec::new(),
        _ => st.commands[c].loc.hex().into_iter().collect(),
    };
    ctx.say(
        format!(
            "{} {}{} ({ap} AP; {} left)",
            cname(d, c),
            action.name(),
            if second { " (second action)" } else { "" },
            st.ap[f.index()]
        ),
        focus,
    );
    match action {
        Action::Move(specs) => {
            movement::execute(ctx, st, f, c, specs)?;
            st.queue.push_back(Work::Control);
        }
        Action::Combat(decls) => {
            combat::validate(d, st, f, c, decls)?;
            st.queue.extend(decls.iter().cloned().map(Work::Decl));
        }
        Action::Rally => rally(ctx, st, c),
    }
    if let Some(h) = place {
        // Checked now, before any roll; carried out at the end of the phase.
        check_place(d, st, c, h)?;
        st.phase.place = Some(h);
    }
    st.queue.push_back(Work::EndAction);
    run(ctx, st)
}

/// Can the side pay for the activation, and for both actions of a double
/// (4.2, 5.0(3))?
fn afford(
    d: &Data,
    st: &State,
    f: Faction,
    c: CmdId,
    action: &Action,
    ap: u32,
    double: Double,
) -> Result<(), RuleError> {
    let rule = match action {
        Action::Move(_) => "4.2.1",
        Action::Combat(_) => "4.2.2",
        Action::Rally => "4.2.3",
    };
    if st.ap[f.index()] < ap {
        return Err(illegal(
            format!(
                "{}'s {} costs {ap} AP; the {} have {}",
                cname(d, c),
                action.name(),
                f.name(),
                st.ap[f.index()]
            ),
            rule,
        ));
    }
    // Version 2: both actions of a double are paid for before the first
    // one's roll (4.2, 5.0(3); invariant 4). Version 1 carried the first
    // out and then found the second short.
    if let Double::Given(ap2) = double
        && d.version >= 2
        && st.ap[f.index()] < ap + ap2
    {
        return Err(illegal(
            format!(
                "{}'s double action costs {ap} + {ap2} AP; the {} have {}",
                cname(d, c),
                f.name(),
                st.ap[f.index()]
            ),
            "4.2, 5.0(3)",
        ));
    }
    Ok(())
}

/// Rally (4.2.3, 7.5(3)): every activated unit on the map loses its
/// disorganization.
fn rally(ctx: &mut Ctx, st: &mut State, c: CmdId) {
    let d = ctx.d;
    // 4.2.3, 7.5(3): every activated unit loses its disorganization.
    let mut n = Vec::new();
    for u in st.phase.chain.clone() {
        let us = &mut st.units[u];
        if us.dis && us.loc.hex().is_some() {
            us.dis = false;
            n.push(d.units[u].id.clone());
        }
    }
    let hexes = st
        .phase
        .chain
        .iter()
        .filter_map(|u| st.units[*u].loc.hex())
        .collect();
    ctx.say(
        if n.is_empty() {
            format!("{} rallies; nobody was disorganized", cname(d, c))
        } else {
            format!(
                "{} rallies: {} reorganized (4.2.3)",
                cname(d, c),
                n.join(" ")
            )
        },
        hexes,
    );
}

fn do_pass(ctx: &mut Ctx, st: &mut State, f: Faction, cmd: Option<CmdId>, queued: bool) {
    let d = ctx.d;
    st.ap[f.index()] = st.ap[f.index()].saturating_sub(d.values.ap_pass);
    if queued {
        fold_queued_pass(ctx, st, f);
        return;
    }
    let mut text = format!("{} pass ({} AP left)", f.name(), st.ap[f.index()]);
    if let Some(c) = cmd {
        // 4.2.4, 2.5.5(3): the pass removes the command's Action marker.
        st.commands[c].acts = 0;
        if st.options.pass_unflips {
            st.commands[c].double_used = false;
        }
        text = format!("{text}; {} may be activated again", cname(d, c));
    }
    let focus = cmd
        .and_then(|c| st.commands[c].loc.hex())
        .into_iter()
        .collect();
    ctx.say(text, focus);
}

/// A queued pass (4.2.4), told on its own, or folded into the line of the
/// queued passes told just before it: one line for the phases a queue
/// passes in a row, not a line each.
fn fold_queued_pass(ctx: &mut Ctx, st: &State, f: Faction) {
    let mut n = [0u32; 2];
    let at = match ctx.passes {
        Some((at, before)) if at + 1 == ctx.ev.len() => {
            n = before;
            at
        }
        _ => {
            ctx.say(String::new(), vec![]);
            ctx.ev.len() - 1
        }
    };
    n[f.index()] += 1;
    ctx.passes = Some((at, n));
    ctx.ev[at].text = if n[0] + n[1] == 1 {
        format!("{} pass (queued) ({} AP left)", f.name(), st.ap[f.index()])
    } else {
        let who: Vec<String> = Faction::ALL
            .iter()
            .filter(|x| n[x.index()] > 0)
            .map(|x| format!("{} {}", x.name(), n[x.index()]))
            .collect();
        format!(
            "Queued passes in the next {} action phases (4.2.4): {}; AP left: Ming {}, Jurchen {}",
            n[0] + n[1],
            who.join(", "),
            st.ap[0],
            st.ap[1]
        )
    };
}

/// Carries on with the queued work until it is done or a player must decide.
pub fn run(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    while st.decision.is_none() && st.finished.is_none() {
        let Some(w) = st.queue.pop_front() else { break };
        let flow = step(ctx, st, w)?;
        if flow == Flow::Ask {
            break;
        }
    }
    Ok(())
}

fn step(ctx: &mut Ctx, st: &mut State, w: Work) -> Result<Flow, RuleError> {
    let d = ctx.d;
    match w {
        Work::Decl(decl) => combat::resolve(ctx, st, &decl)?,
        Work::Losses {
            side,
            hex,
            pool,
            steps,
            priority,
        } => return Ok(combat::losses(ctx, st, side, hex, pool, steps, priority)),
        Work::AfterCombat { before } => combat::after_combat(d, st, &before),
        Work::Retreat { cmd, dice } => combat::retreat(ctx, st, cmd, dice)?,
        Work::Rout { cmd } => return Ok(combat::rout(ctx, st, cmd)),
        Work::Displace => combat::find_lone(ctx, st),
        Work::DisplaceCmd { cmd } => return Ok(combat::displace(ctx, st, cmd)),
        Work::Control => update_control(ctx, st),
        Work::EndAction => end_action(ctx, st),
        Work::EndPhase => end_phase(ctx, st),
        Work::NextPhase => next_phase(ctx, st),
        Work::EndTurn => end_turn(ctx, st),
        Work::Prep => return prep(ctx, st),
    }
    Ok(Flow::Go)
}

/// Control changes (2.5.2(2)-(3), ruling A42): a marked hex held by one
/// side's combat units, with no enemy unit there, passes to that side.
pub fn update_control(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    for (i, p) in d.places.iter().enumerate() {
        let Some(now) = st.control[i] else { continue };
        let has = |f: Faction| st.side_at(d, p.hex, f).next().is_some();
        let any = |f: Faction| has(f) || st.commands_at(d, p.hex, f).next().is_some();
        let other = now.other();
        if has(other) && !any(now) {
            st.control[i] = Some(other);
            ctx.say(
                format!("{} takes control of {} (2.5.2(2))", other.name(), p.name),
                vec![p.hex],
            );
        }
    }
}

fn place_command(ctx: &mut Ctx, st: &mut State, c: CmdId, h: Hex, why: &str) {
    let from = st.commands[c].loc.hex();
    st.commands[c].loc = Loc::Hex(h);
    let mut focus = vec![h];
    focus.extend(from);
    ctx.say(format!("{} placed at {h}{why}", cname(ctx.d, c)), focus);
}

fn end_action(ctx: &mut Ctx, st: &mut State) {
    let f = st.phase.side;
    if st.phase.actions == 1 && st.phase.double && st.ap[f.index()] > 0 {
        if st.options.place_between
            && let (Some(c), Some(h)) = (st.phase.cmd, st.phase.place.take())
            && check_place(ctx.d, st, c, h).is_ok()
        {
            place_command(ctx, st, c, h, " between its actions (ruling A04)");
        }
        st.phase.open = true;
        st.phase.fought.clear();
        return;
    }
    st.queue.push_front(Work::EndPhase);
}

fn end_phase(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    st.phase.open = false;
    if let Some(c) = st.phase.cmd {
        if let Some(h) = st.phase.place.take() {
            match check_place(d, st, c, h) {
                Ok(()) => place_command(ctx, st, c, h, " (2.3(3))"),
                Err(e) => ctx.say(format!("{} stays where it is: {e}", cname(d, c)), vec![h]),
            }
        }
        // 9.0, ruling A10: an off-map command goes with its units once they enter.
        if st.commands[c].loc == Loc::OffMap {
            let opts = standing::displace_options(d, st, c);
            if let Some(h) = standing::choose_displace(d, st, c, &opts, &[]) {
                place_command(ctx, st, c, h, " with its units that entered (9.0)");
            }
        }
    }
    // 4.2.4: the passes this phase queued, told once its action is done.
    if let Some(t) = queued_text(st, st.phase.side) {
        ctx.say(t, vec![]);
    }
    st.queue.push_front(Work::NextPhase);
    st.queue.push_front(Work::Control);
    st.queue.push_front(Work::Displace);
}

/// Starts an action phase (4.2).
pub fn start_phase(d: &Data, st: &mut State, side: Faction, no: u32) {
    st.phase = Phase::new(side, no);
    for u in st.units.iter_mut() {
        u.plain = u
            .loc
            .hex()
            .is_some_and(|h| d.terrain_of(h) == Terrain::Plain);
    }
}

fn next_phase(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    // 2.5.4(2): the turn ends when both sides have no AP left.
    if st.ap == [0, 0] {
        st.queue.push_front(Work::EndTurn);
        return;
    }
    let prev = st.phase.side;
    // 4.2: sides alternate; a side out of AP is skipped (ruling A08).
    let next = if st.ap[prev.other().index()] > 0 {
        prev.other()
    } else {
        prev
    };
    start_phase(d, st, next, st.phase.no + 1);
    take_queued_pass(ctx, st, next);
}

/// Makes `f`'s first queued pass in the phase just begun, if one is
/// queued, and moves on to the next phase (4.2.4).
fn take_queued_pass(ctx: &mut Ctx, st: &mut State, f: Faction) -> bool {
    let q = st.passes[f.index()];
    if q == PassQueue::None {
        return false;
    }
    st.passes[f.index()] = match q {
        PassQueue::Count(n) if n > 1 => PassQueue::Count(n - 1),
        PassQueue::Rest => PassQueue::Rest,
        _ => PassQueue::None,
    };
    do_pass(ctx, st, f, None, true);
    st.queue.push_front(Work::NextPhase);
    true
}

fn end_turn(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    let last = st.turn >= d.values.turns;
    ctx.say(
        format!("End of turn {} (8.0: victory conditions checked)", st.turn),
        vec![],
    );
    if let Some(o) = victory::check(d, st, last) {
        ctx.say(format!("Game over: {}", o.summary), vec![]);
        st.finished = Some(o);
        return;
    }
    st.queue.push_front(Work::Prep);
}

fn roll_preparation(ctx: &mut Ctx, st: &mut State) -> Result<[u32; 2], RuleError> {
    let d = ctx.d;
    let mut r = [0u32; 2];
    for f in Faction::ALL {
        let n = st.prep_commands(d, f);
        let label = format!("turn {} preparation: {}", st.turn, f.name());
        let dice = ctx.dice.roll_n(d.values.prep_dice, 6, &label)?;
        let sum: u32 = dice.iter().sum();
        r[f.index()] = sum + n;
        let shown: Vec<String> = dice.iter().map(u32::to_string).collect();
        ctx.say(
            format!(
                "{} preparation roll {} + {n} commands = {} (4.1(4))",
                f.name(),
                shown.join(" + "),
                r[f.index()]
            ),
            vec![],
        );
    }
    st.prep = r;
    let ap = r[0].max(r[1]);
    st.ap = [ap, ap];
    ctx.say(
        format!(
            "Both sides have {ap} action points for turn {} (4.1(5))",
            st.turn
        ),
        vec![],
    );
    if st.turn == 1 {
        // 4.1(4): the rolls set the AP; the first turn's initiative is fixed.
        ctx.say(
            format!(
                "The {} move first in turn 1, whatever the rolls (4.1(4))",
                d.values.first_turn_initiative.name()
            ),
            vec![],
        );
    }
    Ok(r)
}

/// The preparation phase of turns 2-5 (4.1).
fn prep(ctx: &mut Ctx, st: &mut State) -> Result<Flow, RuleError> {
    let d = ctx.d;
    // 4.1(1)-(3): advance the turn, flip commands, remove disorganization.
    st.turn += 1;
    for c in st.commands.iter_mut() {
        c.acts = 0;
        c.double_used = false;
    }
    for u in st.units.iter_mut() {
        u.dis = false;
        u.stopped = false;
    }
    st.passes = [PassQueue::None; 2];
    ctx.say(
        format!(
            "Turn {}: commands unflipped, disorganization removed (4.1(1)-(3))",
            st.turn
        ),
        vec![],
    );
    let r = roll_preparation(ctx, st)?;
    if r[0] == r[1] {
        set_initiative(
            ctx,
            st,
            d.values.tie_initiative,
            "the preparation rolls tie",
        );
        return Ok(Flow::Go);
    }
    let high = if r[0] > r[1] {
        Faction::Ming
    } else {
        Faction::Jurchen
    };
    match st.standing[high.index()].initiative {
        InitiativePolicy::First => set_initiative(ctx, st, high, "by standing order"),
        InitiativePolicy::Second => set_initiative(ctx, st, high.other(), "by standing order"),
        InitiativePolicy::Ask => {
            st.decision = Some(Decision::Initiative { side: high });
            return Ok(Flow::Ask);
        }
    }
    Ok(Flow::Go)
}

fn set_initiative(ctx: &mut Ctx, st: &mut State, first: Faction, why: &str) {
    st.initiative = first;
    ctx.say(
        format!(
            "The {} take the initiative and move first ({why}; 4.1(4))",
            first.name()
        ),
        vec![],
    );
    start_phase(ctx.d, st, first, 1);
}

/// Applies a player's answer to the pending question.
fn answer(ctx: &mut Ctx, st: &mut State, f: Faction, order: &Order) -> Result<(), RuleError> {
    let d = ctx.d;
    let Some(q) = st.decision.clone() else {
        return Err(RuleError::unruled("no question is pending"));
    };
    if q.side() != f {
        return Err(RuleError::unruled(format!(
            "the question is for the {} player",
            q.side().name()
        )));
    }
    match (&q, order) {
        (
            Decision::Losses {
                hex, pool, steps, ..
            },
            Order::Losses(units),
        ) => {
            let all = standing::loss_allocations(d, st, pool, *steps);
            let mut mine = units.clone();
            mine.sort();
            if !all.contains(&mine) {
                let ids: Vec<&str> = pool.iter().map(|u| d.units[*u].id.as_str()).collect();
                return Err(illegal(
                    format!(
                        "take {} step loss{} from the units in {hex} that fought ({}), one unit id per step",
                        all.first().map_or(0, Vec::len),
                        if *steps == 1 { "" } else { "es" },
                        ids.join(" ")
                    ),
                    "7.0(2)",
                ));
            }
            st.decision = None;
            combat::apply_losses(ctx, st, &mine);
        }
        (Decision::Rout { cmd, .. }, Order::Rout(u)) => {
            let opts = standing::rout_options(d, st, *cmd);
            if !opts.contains(u) {
                return Err(illegal(
                    format!(
                        "the unit that routs must be one of {}'s surviving units",
                        cname(d, *cmd)
                    ),
                    "7.6(1)",
                ));
            }
            st.decision = None;
            combat::do_rout(ctx, st, *cmd, *u);
        }
        (Decision::Displace { cmd, options, .. }, Order::Displace { cmd: c, to }) => {
            if c != cmd {
                return Err(illegal(
                    format!("the question is where {} goes", cname(d, *cmd)),
                    "7.0(3)",
                ));
            }
            let Some(h) = to.filter(|h| options.contains(h)) else {
                let hs: Vec<String> = options.iter().map(Hex::to_string).collect();
                return Err(illegal(
                    format!(
                        "{} goes to a hex with a combat unit of its colour: {}",
                        cname(d, *cmd),
                        hs.join(" ")
                    ),
                    "7.0(3), 7.6",
                ));
            };
            st.decision = None;
            place_command(ctx, st, *cmd, h, " (displaced, 7.0(3))");
        }
        (Decision::Initiative { side }, Order::Initiative(a)) => {
            let first = match a {
                InitAnswer::First => *side,
                InitAnswer::Second => side.other(),
                InitAnswer::Side(s) => *s,
            };
            st.decision = None;
            set_initiative(ctx, st, first, "their choice");
        }
        _ => {
            return Err(RuleError::unruled(format!(
                "that does not answer the question: {}",
                super::prompt_text(d, st, &q)
            )));
        }
    }
    Ok(())
}

/// The default answer to a pending question (after the deadline): the side's
/// standing policy, with `ask` read as `auto`.
pub fn default_answer(d: &Data, st: &State, q: &Decision) -> String {
    let s = &st.standing[q.side().index()];
    let pol = |p: Policy| if p == Policy::Ask { Policy::Auto } else { p };
    match q {
        Decision::Losses {
            pool,
            steps,
            priority,
            ..
        } => {
            let all = standing::loss_allocations(d, st, pool, *steps);
            let prio = if priority.is_empty() {
                &s.loss_priority
            } else {
                priority
            };
            let pick = standing::choose_losses(d, st, &all, prio, pol(s.losses));
            let ids: Vec<&str> = pick.iter().map(|u| d.units[*u].id.as_str()).collect();
            format!("losses {}", ids.join(" "))
        }
        Decision::Rout { cmd, .. } => {
            let opts = standing::rout_options(d, st, *cmd);
            match standing::choose_rout(d, st, &opts, &s.rout_priority) {
                Some(u) => format!("rout {}", d.units[u].id),
                None => String::new(),
            }
        }
        Decision::Displace { cmd, options, .. } => {
            let prefs = s
                .displace_to
                .iter()
                .find(|(c, _)| c == cmd)
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            match standing::choose_displace(d, st, *cmd, options, &prefs) {
                Some(h) => format!("displace {} {h}", d.commands[*cmd].id),
                None => String::new(),
            }
        }
        Decision::Initiative { .. } => "initiative first".into(),
    }
}
