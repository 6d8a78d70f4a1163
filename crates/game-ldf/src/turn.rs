//! The sequence of play (5.x): set-up, the mutual administrative phase from
//! Turn 2 (5.5; Roman steps then Germano-Parthian), the alternating actions
//! phase with the Germano-Parthian first (5.3, 8.1), passes (8.20), the end of
//! a turn (5.4) and the chits' return (5.6).

use super::chits;
use super::combat;
use super::data::Data;
use super::diplomacy;
use super::economics;
use super::effects::{Ctx, illegal, win};
use super::leaders;
use super::movement;
use super::orders::Order;
use super::placement::{self, GundRule};
use super::setup;
use super::state::{Player, Stage, State};
use super::victory;
use umpire_core::dice::Dice;
use umpire_core::ruleset::{Event, RuleError};

/// Who must send orders now, and for what.
pub fn awaited(st: &State) -> Option<Player> {
    if st.finished.is_some() {
        return None;
    }
    if let Some(q) = &st.question {
        return Some(q.to);
    }
    Some(match st.stage {
        Stage::Setup | Stage::AdminGp => Player::Gp,
        Stage::AdminRoman => Player::Roman,
        Stage::Actions => st.actor,
    })
}

/// Carries out one order of `p` under the current version.
pub fn apply(
    d: &Data,
    st: &mut State,
    p: Player,
    o: &Order,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    apply_at(d, st, p, o, dice, super::VERSION)
}

/// Carries out one order of `p` as ruleset `version` judged it.
pub fn apply_at(
    d: &Data,
    st: &mut State,
    p: Player,
    o: &Order,
    dice: &mut Dice,
    version: u32,
) -> Result<Vec<Event>, RuleError> {
    let mut ctx = Ctx {
        d,
        dice,
        ev: Vec::new(),
        label: format!("t{}/a{}", st.turn, st.seq),
        actor: p,
        rerolled: false,
        about: Default::default(),
        version,
        ask: false,
        salted: None,
    };
    run(&mut ctx, st, p, o)?;
    // Chits the order revealed by rule: their sealed draws are published
    // right after it (core early disclosure).
    for r in std::mem::take(&mut st.reveal) {
        ctx.dice.disclose(r);
    }
    Ok(ctx.ev)
}

fn run(ctx: &mut Ctx, st: &mut State, p: Player, o: &Order) -> Result<(), RuleError> {
    if st.finished.is_some() {
        return Err(illegal("the game is over", "4.5"));
    }
    if *o == Order::Concede {
        let other = p.other();
        win(
            ctx,
            st,
            other,
            format!(
                "the {} concedes: {} victory (4.3, 4.4)",
                p.name(),
                other.name()
            ),
        );
        return Ok(());
    }
    if awaited(st) != Some(p) {
        return Err(illegal("it is not your turn to give orders", "5.2"));
    }
    if st.question.is_some() {
        answered(ctx, st, o)?;
        return after_order(ctx, st);
    }
    match st.stage {
        Stage::Setup => match o {
            Order::Setup { tribes, gunds } => setup::gp_setup(ctx, st, tribes, gunds)?,
            _ => {
                return Err(illegal(
                    "first set up your tribes and gunds (`setup auto` or `setup tribes ... gunds ...`)",
                    "3.3",
                ));
            }
        },
        Stage::AdminRoman => admin_roman(ctx, st, o)?,
        Stage::AdminGp => admin_gp(ctx, st, o)?,
        Stage::Actions => action(ctx, st, p, o)?,
    }
    after_order(ctx, st)
}

/// What every order ends with, once no question stops it: from version 14 a
/// throne left vacant (no loyal unit anywhere when the emperor fell) is
/// filled as soon as a loyal Roman unit stands on the map (8.4, 8.9).
fn after_order(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    if ctx.version >= 14 && st.question.is_none() && st.finished.is_none() {
        leaders::fill_vacancy(ctx, st)?;
    }
    Ok(())
}

fn admin_roman(ctx: &mut Ctx, st: &mut State, o: &Order) -> Result<(), RuleError> {
    match o {
        Order::Tax(hs) => economics::tax(ctx, st, hs),
        Order::Demobilize(us) => economics::demobilize(ctx, st, us),
        Order::Reclaim { pairs, cavalry } => economics::reclaim(ctx, st, pairs, cavalry),
        Order::Done => {
            st.stage = Stage::AdminGp;
            ctx.say(
                "the Roman's administrative steps are done; the Germano-Parthian's follow (7.1)",
                vec![],
            );
            Ok(())
        }
        _ => Err(illegal(
            "in the administrative phase the Roman may tax, demobilize, reclaim, or say `done`",
            "5.5, 6.6-6.8",
        )),
    }
}

fn admin_gp(ctx: &mut Ctx, st: &mut State, o: &Order) -> Result<(), RuleError> {
    let (tribes, gunds) = match o {
        Order::Place { tribes, gunds } => (tribes.clone(), gunds.clone()),
        Order::Done => (Vec::new(), Vec::new()),
        Order::Tax(_) | Order::Demobilize(_) | Order::Reclaim { .. } => {
            return Err(illegal(
                "taxing, demobilizing and reclaiming are the loyal Roman's; rebels get troops only by conversion",
                "6.11, 8.3",
            ));
        }
        _ => {
            return Err(illegal(
                "in the administrative phase the Germano-Parthian places returning units (`place tribes ... gunds ...`) or says `done`",
                "7.1, 7.2",
            ));
        }
    };
    // Version 8 refuses a named hex the rules do not allow (7.1-7.3);
    // version 7 skipped it and placed that unit by default.
    if ctx.version >= 8 {
        placement::check_admin(ctx.d, st, &tribes, &gunds)?;
    }
    economics::tribes_return(ctx, st, &tribes, usize::MAX)?;
    if st.collapsed {
        economics::recovery(ctx, st, &gunds)?;
    } else {
        economics::parthia_returns(ctx, st, &gunds, GundRule::Centres, "7.2")?;
    }
    economics::palmyra_replenish(ctx, st);
    st.stage = Stage::Actions;
    st.actor = Player::Gp;
    ctx.say(
        format!(
            "Turn {}: the alternating actions phase begins, the Germano-Parthian first (5.3)",
            st.turn
        ),
        vec![],
    );
    Ok(())
}

/// Roman-only and Germano-Parthian-only actions (14.2 as rebuilt).
fn side_check(p: Player, o: &Order) -> Result<(), RuleError> {
    let roman = matches!(
        o,
        Order::CoEmperor(_) | Order::Fortify(_) | Order::Rebuild { .. } | Order::ActivatePalmyra
    );
    let gp = matches!(o, Order::Rebel(_) | Order::ActivateGaul);
    if roman && p != Player::Roman || gp && p != Player::Gp {
        return Err(illegal(
            "that action belongs to the other player",
            "8.1, 14.2",
        ));
    }
    Ok(())
}

fn action(ctx: &mut Ctx, st: &mut State, p: Player, o: &Order) -> Result<(), RuleError> {
    side_check(p, o)?;
    if let Order::Play { chit, tp, at, back } = o
        && chits::is_free(ctx.d, *chit)
    {
        // R-G4: free, at the start of the player's own action; he acts next.
        chits::play(ctx, st, p, *chit, *tp, at, back)?;
        st.seq += 1;
        if st.passes >= 2 {
            return end_turn(ctx, st);
        }
        return Ok(());
    }
    let pass = *o == Order::Pass;
    // Version 9: the action's own draw or attack may stop on a question to
    // the other player (digest 2.7); the rest of the action waits for it.
    // Version 10: and the Germano-Parthian's diplomacy or treachery, on the
    // Roman's salt (N4).
    ctx.ask = ctx.version >= 9 && matches!(o, Order::Draw { .. } | Order::Attack(_))
        || ctx.version >= 10 && matches!(o, Order::Treachery { .. } | Order::Diplomacy { .. });
    match o {
        Order::Pass => ctx.say(format!("the {} passes (8.20)", p.title()), vec![]),
        Order::Move {
            force,
            path,
            inspired,
        } => {
            if let Some(c) = inspired {
                chits::check_usable(st, p, *c)?;
                if ctx.d.chit(*c).is_none_or(|x| x.effect != "inspired") {
                    return Err(illegal(
                        format!("chit {c} is not Inspired Subordinates"),
                        "14.3",
                    ));
                }
                chits::spend(ctx.d, st, p, *c);
            }
            movement::land(ctx, st, p, force, path, inspired.is_some())?
        }
        Order::Sea { force, to } => movement::sea(ctx, st, p, force, *to)?,
        Order::River { force, to } => movement::river(ctx, st, p, force, *to)?,
        Order::Attack(a) => combat::attack(ctx, st, p, a)?,
        Order::Draw { put_back } => chits::draw_action(ctx, st, p, *put_back)?,
        Order::Play { chit, tp, at, back } => chits::play(ctx, st, p, *chit, *tp, at, back)?,
        Order::CoEmperor(h) => leaders::create_loyal(ctx, st, *h)?,
        Order::Rebel(prefs) => leaders::create_rebel(ctx, st, prefs)?,
        Order::Treachery { salt, agents } => diplomacy::treachery(ctx, st, p, *salt, *agents)?,
        Order::Diplomacy {
            target,
            salt,
            agents,
        } => diplomacy::diplomacy(ctx, st, p, target, *salt, *agents)?,
        Order::Fortify(h) => economics::fortify(ctx, st, *h)?,
        Order::Rebuild { hex, complete } => economics::rebuild(ctx, st, *hex, *complete)?,
        Order::ActivatePalmyra => diplomacy::activate_palmyra(ctx, st)?,
        Order::ActivateGaul => diplomacy::activate_gaul(ctx, st)?,
        Order::Done | Order::Place { .. } => {
            return Err(illegal(
                format!(
                    "`place` and `done` belong to the administrative phase, and the alternating actions phase of turn {} is under way: a `place` line is the Germano-Parthian's whole part of the administrative phase and ends it, with no `done` after it",
                    st.turn
                ),
                "5.3, 7.1",
            ));
        }
        _ => {
            return Err(illegal(
                "that is not an action of the alternating actions phase",
                "8.1, 14.2",
            ));
        }
    }
    if st.question.is_some() {
        return Ok(());
    }
    finish(ctx, st, p, pass)
}

/// The answer to a question put to the player who is not acting (digest
/// 2.7): the action goes on under its actor, and ends unless it stops again.
fn answered(ctx: &mut Ctx, st: &mut State, o: &Order) -> Result<(), RuleError> {
    let actor = st.actor;
    ctx.actor = actor;
    ctx.ask = true;
    super::ask::answer(ctx, st, o)?;
    if st.question.is_some() {
        return Ok(());
    }
    finish(ctx, st, actor, false)
}

/// The end of an action (8.1): the siege and hand checks, the pass count,
/// victory, the turn's end, the next actor.
fn finish(ctx: &mut Ctx, st: &mut State, p: Player, pass: bool) -> Result<(), RuleError> {
    chits::siege_check(ctx, st);
    chits::overflow(ctx, st, p);
    // The action is over: what it drew may be used from the next (R-G3).
    st.fresh.clear();
    st.seq += 1;
    st.acted[p.index()] += 1;
    // The Gods Are Bored sets `passes` to 2 to end the turn (5.4(1)).
    if st.passes >= 2 {
        return end_turn(ctx, st);
    }
    st.passes = if pass { st.passes + 1 } else { 0 };
    if st.finished.is_some() {
        return Ok(());
    }
    victory::after_action(ctx, st);
    if st.finished.is_some() {
        return Ok(());
    }
    if st.passes >= 2 {
        if st.turn == ctx.d.values.turns {
            victory::two_passes(ctx, st);
            return Ok(());
        }
        return end_turn(ctx, st);
    }
    if st.extra {
        st.extra = false;
    } else {
        st.actor = p.other();
    }
    Ok(())
}

/// The end of a turn (5.4): carry-over cap (6.9), the next turn, chits back
/// to the pool (5.6), the administrative phase (5.5) with collection.
fn end_turn(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    let d = ctx.d;
    if st.turn >= d.values.turns {
        victory::two_passes(ctx, st);
        return Ok(());
    }
    let kept = st.treasury.min(d.values.carry_over);
    // A player seeing 111 TP become 5 must be told the rest is lost.
    let lost = st.treasury - kept;
    let why = if lost > 0 {
        format!(
            " of its {} (at most {} carry over; {lost} TP unspent are lost)",
            st.treasury, d.values.carry_over
        )
    } else {
        String::new()
    };
    ctx.say(
        format!(
            "Turn {} ends; Rome carries {kept} TP over{why} (5.4, 6.9)",
            st.turn
        ),
        vec![],
    );
    st.treasury = kept;
    st.turn += 1;
    st.passes = 0;
    st.acted = [0, 0];
    st.extra = false;
    chits::turn_start(st);
    st.stage = Stage::AdminRoman;
    ctx.say(
        format!(
            "Turn {}: every chit returns to the pool; the administrative phase begins (5.5, 5.6)",
            st.turn
        ),
        vec![],
    );
    economics::admin_start(ctx, st);
    Ok(())
}
