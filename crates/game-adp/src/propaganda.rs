//! Propaganda Rounds (6.0-6.6). The automatic phases (Victory, Resources) run
//! when the card is drawn; then every faction with a decision (Civic Action,
//! Sharia, Redeploy) sends one plan, all in one parallel round of mails (digest
//! D8-D11: Control is frozen and no faction's options depend on another's);
//! with the last plan in, the Support, Redeploy and Reset phases run in rule order.

use super::data::{Data, SpaceNo, Support};
use super::orders::PlanLine;
use super::pieces::{Faction, Kind, Piece};
use super::sequence;
use super::state::{Control, Stage, State};
use super::victory;
use serde::{Deserialize, Serialize};
use umpire_core::dice::Dice;
use umpire_core::ruleset::{Event, RuleError, Side};

/// A Propaganda Round waiting for plans.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// Plans received, by faction, in arrival order.
    pub plans: Vec<(Faction, Vec<PlanLine>)>,
    /// Factions whose plan is still awaited.
    pub waiting: Vec<Faction>,
    /// This is the final Propaganda card (2.4.1).
    pub last: bool,
}

/// Phases 1 and 2 (6.1-6.3), then the call for plans.
pub fn begin(
    d: &Data,
    st: &mut State,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    // 6.1 Victory Phase (7.2); a Non-player meeting its condition ends the
    // game too (7.1).
    if victory::check_met(d, st) {
        sequence::end_game(
            d,
            st,
            "a victory condition is met at a Propaganda Round (6.1, 7.2)",
            events,
        );
        return Ok(());
    }
    resources_phase(d, st, events);
    let last = st.deck.current_is_final_propaganda(d);
    let waiting: Vec<Faction> = [Faction::Coalition, Faction::Government, Faction::Taliban]
        .into_iter()
        .filter(|f| st.seats.side(*f).is_some())
        .collect();
    let nobody = waiting.is_empty();
    st.stage = Stage::Propaganda(Round {
        plans: Vec::new(),
        waiting,
        last,
    });
    if nobody {
        // Only Non-players decide: they send no plan; `finish` makes theirs.
        finish(d, st, dice, events)?;
    }
    Ok(())
}

/// The Resources Phase (6.2, 6.3): Sabotage, earnings, Casualties and Aid.
pub fn resources_phase(d: &Data, st: &mut State, events: &mut Vec<Event>) {
    for s in d.ids().filter(|s| d[*s].is_loc()) {
        let p = st[s].pieces;
        let tal = p.guerrillas(Faction::Taliban);
        let pool = st.markers_on_map() < u32::from(d.limits.terror_markers);
        if !st[s].sabotage && tal > p.total() - tal && pool {
            st[s].sabotage = true;
            events.push(Event::say(format!("{} Sabotaged (6.2)", d[s].name)));
        }
    }
    let econ: i32 = d
        .ids()
        .filter(|s| d[*s].is_loc() && !st[*s].sabotage)
        .map(|s| i32::from(d[s].econ))
        .sum();
    let gov = i32::from(st.aid) + econ;
    st.gain(d, Faction::Government, gov);
    let tal: i32 = st
        .spaces
        .iter()
        .map(|s| i32::from(s.pieces[Piece::TalBase]))
        .sum();
    st.gain(d, Faction::Taliban, tal);
    let war_bases: i32 = st
        .spaces
        .iter()
        .map(|s| i32::from(s.pieces[Piece::WarBase]))
        .sum();
    let war_locs: i32 = d
        .ids()
        .filter(|s| d[*s].is_loc() && !st[*s].sabotage)
        .map(|s| st[s].pieces.guerrillas(Faction::Warlords) as i32)
        .sum();
    st.gain(d, Faction::Warlords, war_bases + war_locs);
    let cas = st.casualties.total() as i32;
    st.add_aid(d, -3 * cas);
    events.push(Event::say(format!(
        "Resources (6.3): Government +{gov} (Aid + Econ {econ}), Taliban +{tal}, Warlords +{}; Aid -{} for Casualties",
        war_bases + war_locs,
        3 * cas
    )));
}

/// Civic Action spaces: COIN Control, Troops and Police (ruling A29); who
/// decides: the faction with more Troops there, the Coalition on a tie.
pub fn civic_decider(d: &Data, st: &State, s: SpaceNo) -> Option<Faction> {
    let p = st[s].pieces;
    let troops = p[Piece::CoalTroops] + p[Piece::GovTroops];
    if !d[s].is_afghan() || st[s].control != Control::Coin || troops == 0 || p[Piece::Police] == 0 {
        return None;
    }
    Some(if p[Piece::CoalTroops] >= p[Piece::GovTroops] {
        Faction::Coalition
    } else {
        Faction::Government
    })
}

/// May `count` pieces of `kind` Redeploy from `from` to `to` (6.5, ruling A30)?
pub fn redeploy_legal(
    d: &Data,
    st: &State,
    f: Faction,
    kind: Kind,
    from: SpaceNo,
    to: SpaceNo,
) -> Result<(), String> {
    let sf = &d[from];
    let dest = &d[to];
    let coin_base = |s: SpaceNo| st[s].pieces[Piece::CoalBase] + st[s].pieces[Piece::GovBase] > 0;
    match (f, kind) {
        (Faction::Coalition | Faction::Government, Kind::Troops) => {
            if !(sf.is_loc() || (!sf.is_city() && !coin_base(from))) {
                return Err(format!(
                    "Troops Redeploy from LoCs or Provinces without COIN Bases, not {}",
                    sf.name
                ));
            }
            if !(dest.is_city() || (st[to].control == Control::Coin && coin_base(to))) {
                return Err(format!(
                    "Troops Redeploy to Kabul or COIN-Controlled spaces with COIN Bases, not {}",
                    dest.name
                ));
            }
        }
        (Faction::Government, Kind::Police) => {
            if !(dest.is_loc() || st[to].control == Control::Coin) {
                return Err(format!(
                    "Police Redeploy to LoCs or COIN-Controlled spaces, not {}",
                    dest.name
                ));
            }
        }
        (Faction::Taliban, Kind::Guerrilla) => {
            if !must_redeploy_taliban(d, st, from) {
                return Err(format!("Taliban Guerrillas in {} stay (6.5)", sf.name));
            }
            if !taliban_destination(d, st, to) {
                return Err(format!(
                    "Taliban Guerrillas Redeploy to Taliban-Controlled spaces with Taliban Bases or Pashtun Pakistan, not {}",
                    dest.name
                ));
            }
        }
        _ => return Err(format!("the {} do not Redeploy {}", f.name(), kind.key())),
    }
    Ok(())
}

fn must_redeploy_taliban(d: &Data, st: &State, s: SpaceNo) -> bool {
    let sp = &d[s];
    if sp.is_city() || (sp.is_pakistan() && sp.pashtun) {
        return false;
    }
    sp.is_loc() || st[s].pieces[Piece::TalBase] == 0
}

fn taliban_destination(d: &Data, st: &State, s: SpaceNo) -> bool {
    let sp = &d[s];
    (sp.is_pakistan() && sp.pashtun)
        || (st[s].pieces[Piece::TalBase] > 0 && st[s].control == Control::Taliban)
}

/// From version 11: a plan's Civic Action or Sharia (`(space, steps,
/// toward Support)`) of 0 steps, or where nothing can be removed or
/// shifted, is refused (no silent no-op; Terror and Support there change
/// only by the space's own decider before the Support Phase).
fn zero_steps(
    d: &Data,
    st: &State,
    (s, n, up): (SpaceNo, u8, bool),
    what: &str,
) -> Result<(), String> {
    let most = super::insurgent::steps_in(d, st, s, up);
    if d.version < super::event_check::SINCE || (n > 0 && most > 0) {
        return Ok(());
    }
    Err(super::insurgent::zero_steps(what, &d[s].name, n, most))
}

/// Checks a plan against the frozen state when it arrives, so that a plan is
/// refused in its sender's mail, never later.
pub fn check_plan(
    d: &Data,
    st: &State,
    f: Faction,
    plan: &[(usize, PlanLine)],
) -> Result<(), RuleError> {
    let errors: Vec<RuleError> = plan
        .iter()
        .filter_map(|(line, p)| check_line(d, st, f, *line, p).err())
        .collect();
    combined(errors)
}

/// Every illegal line of a plan as one error, so the player fixes the plan
/// in one go: one alone as it is, several listed one a line, each with its
/// line and rule.
fn combined(mut errors: Vec<RuleError>) -> Result<(), RuleError> {
    if errors.len() <= 1 {
        return errors.pop().map_or(Ok(()), Err);
    }
    let text: Vec<String> = errors
        .iter()
        .map(|e| match e {
            RuleError::Illegal {
                message,
                rule: Some(r),
            } => format!("{message} ({r})"),
            RuleError::Illegal { message, .. } => message.clone(),
            e => e.to_string(),
        })
        .collect();
    Err(RuleError::Illegal {
        message: format!("{} lines are illegal:\n{}", text.len(), text.join("\n")),
        rule: None,
    })
}

/// One line of a plan, checked against the position before the Round's
/// phases (6.4, 6.5).
fn check_line(
    d: &Data,
    st: &State,
    f: Faction,
    line: usize,
    p: &PlanLine,
) -> Result<(), RuleError> {
    let ill = |m: String, r: &str| RuleError::illegal(format!("line {line}: {m}"), r);
    match p {
        PlanLine::Civic(s, n) => {
            if civic_decider(d, st, *s) != Some(f) {
                return Err(ill(
                    format!(
                        "the {} do not decide Civic Action in {} (COIN Control, Troops and Police needed; the faction with more Troops decides)",
                        f.name(),
                        d[*s].name
                    ),
                    "6.4.1",
                ));
            }
            zero_steps(d, st, (*s, *n, true), "Civic Action").map_err(|m| ill(m, "6.4.1"))?;
        }
        PlanLine::Sharia(s, n) => {
            if f != Faction::Taliban || st[*s].control != Control::Taliban || !d[*s].has_control() {
                return Err(ill(
                    format!(
                        "Sharia is the Taliban's, in Taliban-Controlled spaces, not {}",
                        d[*s].name
                    ),
                    "6.4.2",
                ));
            }
            zero_steps(d, st, (*s, *n, false), "Sharia").map_err(|m| ill(m, "6.4.2"))?;
        }
        PlanLine::Redeploy {
            count,
            kind,
            from,
            to,
        } => {
            redeploy_legal(d, st, f, *kind, *from, *to).map_err(|m| ill(m, "6.5"))?;
            let p = piece_for(f, *kind)
                .ok_or_else(|| ill(format!("the {} have no {}", f.name(), kind.key()), "6.5"))?;
            let have = movable(st, *from, p, f);
            if have < *count {
                return Err(ill(
                    format!("{} has {have} {}, not {count}", d[*from].name, kind.key()),
                    "6.5",
                ));
            }
        }
    }
    Ok(())
}

fn piece_for(f: Faction, k: Kind) -> Option<Piece> {
    Piece::of(f, k)
}

fn movable(st: &State, s: SpaceNo, p: Piece, f: Faction) -> u8 {
    if f == Faction::Taliban {
        st[s].pieces[Piece::TalUnder] + st[s].pieces[Piece::TalActive]
    } else {
        st[s].pieces[p]
    }
}

/// Takes one faction's plan; with the last, runs the rest of the Round.
pub fn submit(
    d: &Data,
    st: &mut State,
    f: Faction,
    plan: Vec<(usize, PlanLine)>,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    let Stage::Propaganda(r) = &st.stage else {
        return Err(RuleError::illegal(
            "no Propaganda Round is under way",
            "6.0",
        ));
    };
    if !r.waiting.contains(&f) {
        return Err(RuleError::illegal(
            format!("the {} have sent their plan", f.name()),
            "6.0",
        ));
    }
    check_plan(d, st, f, &plan)?;
    let mut events = vec![Event::say(format!("{} Propaganda plan received", f.name()))];
    if let Stage::Propaganda(r) = &mut st.stage {
        r.waiting.retain(|x| *x != f);
        r.plans
            .push((f, plan.into_iter().map(|(_, p)| p).collect()));
        if !r.waiting.is_empty() {
            return Ok(events);
        }
    }
    finish(d, st, dice, &mut events)?;
    Ok(events)
}

fn plan_of(r: &Round, f: Faction) -> Vec<PlanLine> {
    r.plans
        .iter()
        .filter(|(x, _)| *x == f)
        .flat_map(|(_, p)| p.clone())
        .collect()
}

/// Resolves the round once no plan is awaited (a conceding player's
/// factions withdrawn, `super::concede`).
pub fn resolve(
    d: &Data,
    st: &mut State,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    finish(d, st, dice, events)
}

fn finish(
    d: &Data,
    st: &mut State,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let Stage::Propaganda(mut r) = st.stage.clone() else {
        return Ok(());
    };
    // 8.1 GUIDELINES: the Non-players' Civic Action and Sharia, to the
    // maximum extent (ruling A49, `np_round`); a faction conceded during
    // the Round (A48) has sent no plan and is one of them now.
    for f in [Faction::Coalition, Faction::Government, Faction::Taliban] {
        if st.seats.is_np(f) && r.plans.iter().all(|(x, _)| *x != f) {
            r.plans.push((f, super::np_round::plan(d, st, f)));
        }
    }
    support_phase(d, st, &r, events);
    redeploy_phase(d, st, &r, events);
    st.update_control(d);
    if r.last {
        sequence::end_game(
            d,
            st,
            "after the final Propaganda Round (2.4.1, 7.3)",
            events,
        );
        return Ok(());
    }
    reset(d, st, events);
    sequence::next_card(d, st, dice, events)
}

fn support_phase(d: &Data, st: &mut State, r: &Round, events: &mut Vec<Event>) {
    for f in [Faction::Coalition, Faction::Government] {
        for p in plan_of(r, f) {
            if let PlanLine::Civic(s, n) = p {
                let mut done = 0;
                for _ in 0..n {
                    let can_shift = st.pop(d, s) > 0 && st[s].support != Support::Support;
                    if st.res(Faction::Government) < 3 || (st[s].terror == 0 && !can_shift) {
                        break;
                    }
                    st.resources[Faction::Government.index()] -= 3;
                    if st[s].terror > 0 {
                        st[s].terror -= 1;
                    } else {
                        st[s].support = st[s].support.shifted(true);
                    }
                    done += 1;
                }
                events.push(Event::say(format!(
                    "{} Civic Action in {}: {}{}, {} Government Resources, {} left (6.4.1)",
                    f.name(),
                    d[s].name,
                    super::card_text::plural(u32::from(done), "step", "steps"),
                    short_of(d, done, n, "Government"),
                    3 * u32::from(done),
                    st.res(Faction::Government)
                )));
            }
        }
    }
    for p in plan_of(r, Faction::Taliban) {
        if let PlanLine::Sharia(s, n) = p {
            let mut done = 0;
            for _ in 0..n {
                let can_shift =
                    d[s].is_afghan() && st.pop(d, s) > 0 && st[s].support != Support::Opposition;
                if st.res(Faction::Taliban) == 0 || (st[s].terror == 0 && !can_shift) {
                    break;
                }
                st.resources[Faction::Taliban.index()] -= 1;
                if st[s].terror > 0 {
                    st[s].terror -= 1;
                } else {
                    st[s].support = st[s].support.shifted(false);
                }
                done += 1;
            }
            events.push(Event::say(format!(
                "Taliban Sharia in {}: {}{}, {done} Taliban Resources, {} left (6.4.2)",
                d[s].name,
                super::card_text::plural(u32::from(done), "step", "steps"),
                short_of(d, done, n, "Taliban"),
                st.res(Faction::Taliban)
            )));
        }
    }
}

/// From version 10, what a plan's Civic Action or Sharia did not buy of
/// what it asked, told (version 9 bought what it could, silently): the
/// plan was sealed before the earlier plans spent the Resources.
fn short_of(d: &Data, done: u8, asked: u8, payer: &str) -> String {
    if d.version < 10 || done >= asked {
        return String::new();
    }
    format!(" of {asked} asked: no {payer} Resources or nothing more to remove or shift")
}

/// Desertion (ruling A2: the first step of Redeploy), then Redeploy (6.5)
/// with Control frozen until the Control step.
fn redeploy_phase(d: &Data, st: &mut State, r: &Round, events: &mut Vec<Event>) {
    desertion(d, st, events);
    for f in [Faction::Coalition, Faction::Government, Faction::Taliban] {
        let mut plan = plan_of(r, f);
        if st.seats.is_np(f) {
            // Version 9: a Non-player's optional Redeploy (ruling A51).
            plan.extend(super::np_round::redeploy(d, st, f));
        }
        for p in plan {
            if let PlanLine::Redeploy {
                count,
                kind,
                from,
                to,
            } = p
            {
                if let Err(e) = redeploy_legal(d, st, f, kind, from, to) {
                    // From version 10 told: the plan was sealed before
                    // Desertion and the earlier Redeploys.
                    if d.version >= 10 {
                        events.push(Event::say(format!(
                            "{} Redeploy of {count} {} {} to {} not carried out: {e}",
                            f.name(),
                            kind.key(),
                            d[from].name,
                            d[to].name
                        )));
                    }
                    continue;
                }
                let moved = move_pieces(st, f, kind, from, to, count);
                if moved > 0 || d.version >= 10 {
                    let of = if moved < count && d.version >= 10 {
                        format!(" of {count} (no more there)")
                    } else {
                        String::new()
                    };
                    events.push(Event::say(format!(
                        "{} Redeploy {moved}{of} {} {} to {}",
                        f.name(),
                        kind.key(),
                        d[from].name,
                        d[to].name
                    )));
                }
            }
        }
        forced(d, st, f, events);
    }
}

fn move_pieces(st: &mut State, f: Faction, kind: Kind, from: SpaceNo, to: SpaceNo, n: u8) -> u8 {
    if f == Faction::Taliban {
        let mut left = n;
        for p in [Piece::TalActive, Piece::TalUnder] {
            let k = left.min(st[from].pieces[p]);
            st.shift_pieces(from, to, p, k);
            left -= k;
        }
        n - left
    } else {
        let Some(p) = Piece::of(f, kind) else {
            return 0;
        };
        let k = n.min(st[from].pieces[p]);
        st.shift_pieces(from, to, p, k);
        k
    }
}

/// The mandatory moves nobody ordered: Government Troops to Kabul; Taliban
/// Guerrillas to the legal space with the most Taliban Bases (digest D11).
fn forced(d: &Data, st: &mut State, f: Faction, events: &mut Vec<Event>) {
    for s in d.ids().collect::<Vec<_>>() {
        match f {
            Faction::Government => {
                let n = st[s].pieces[Piece::GovTroops];
                let k = d.kabul();
                if n > 0 && redeploy_legal(d, st, f, Kind::Troops, s, k).is_ok() {
                    st.shift_pieces(s, k, Piece::GovTroops, n);
                    events.push(Event::say(format!(
                        "Government Troops Redeploy: {n} {} to Kabul (6.5)",
                        d[s].name
                    )));
                }
            }
            Faction::Taliban => {
                let n = st[s].pieces.guerrillas(Faction::Taliban) as u8;
                if n == 0 || !must_redeploy_taliban(d, st, s) {
                    continue;
                }
                let best = d
                    .ids()
                    .filter(|t| taliban_destination(d, st, *t))
                    .max_by_key(|t| (st[*t].pieces[Piece::TalBase], std::cmp::Reverse(t.0)));
                if let Some(t) = best {
                    move_pieces(st, f, Kind::Guerrilla, s, t, n);
                    events.push(Event::say(format!(
                        "Taliban Redeploy: {n} {} to {} (6.5)",
                        d[s].name, d[t].name
                    )));
                }
            }
            _ => {}
        }
    }
}

/// Desertion: in each space the Government loses 1 in 3 of its cubes (round
/// down), Police and Troops evenly, Police first (digest D10 default).
pub fn desertion(d: &Data, st: &mut State, events: &mut Vec<Event>) {
    for s in d.ids() {
        let n = st[s].pieces.gov_cubes() / 3;
        for i in 0..n {
            let first = if i % 2 == 0 {
                Piece::Police
            } else {
                Piece::GovTroops
            };
            let other = if first == Piece::Police {
                Piece::GovTroops
            } else {
                Piece::Police
            };
            let p = if st[s].pieces[first] > 0 {
                first
            } else {
                other
            };
            st.remove(s, p, 1, false);
        }
        if n > 0 {
            events.push(Event::say(format!(
                "Desertion in {}: {}",
                d[s].name,
                super::card_text::plural(n, "Government cube", "Government cubes")
            )));
        }
    }
}

/// The Reset Phase (6.6).
pub fn reset(d: &Data, st: &mut State, events: &mut Vec<Event>) {
    // Casualties: Bases and half the Troops (round down) leave the game.
    let bases = st.casualties[Piece::CoalBase];
    let troops = st.casualties[Piece::CoalTroops];
    st.out_of_play[Piece::CoalBase] += bases;
    st.out_of_play[Piece::CoalTroops] += troops / 2;
    st.available[Piece::CoalTroops] += troops - troops / 2;
    st.casualties = Default::default();
    // 6.6.1: Hard flips back; otherwise one box toward Backing.
    if st.hard {
        st.hard = false;
    } else if st.islamabad < 3 {
        st.islamabad += 1;
    } else if st.islamabad > 3 {
        st.islamabad -= 1;
    }
    st.eligible = [true; 4];
    for s in d.ids() {
        st[s].terror = 0;
        st[s].sabotage = false;
        for f in [Faction::Taliban, Faction::Warlords] {
            super::removal::flip_underground(st, s, f);
        }
    }
    st.momentum.clear();
    events.push(Event::say(format!(
        "Reset (6.6): Casualties cleared, Islamabad {}, all Eligible, markers removed, Momentum discarded, Guerrillas Underground",
        d.islamabad.get(usize::from(st.islamabad)).map_or("?", String::as_str)
    )));
}

/// The side to send `f`'s plan.
pub fn side_of(st: &State, f: Faction) -> Option<Side> {
    st.seats.side(f)
}
