//! The COIN Operations: Train, Patrol, Sweep, Assault (3.2).

use super::action::{Exec, check_path};
use super::data::{SpaceNo, Support};
use super::orders::{ActStep, InSpace, Move, Op};
use super::pieces::{Faction, Kind, Piece};
use super::removal::{self, Reach};
use super::state::{Control, State};
use umpire_core::dice::Dice;
use umpire_core::ruleset::RuleError;

const INSURGENTS: [Faction; 2] = [Faction::Taliban, Faction::Warlords];

/// Before the first line: Government Patrol costs 3 in all (3.2.2).
pub fn begin(x: &mut Exec, st: &mut State) -> Result<(), RuleError> {
    if x.op == Op::Patrol && x.f == Faction::Government {
        let c = x.space_cost(st, 3);
        x.pay(st, c, "the Patrol")?;
        if !x.terms.free {
            let payer = x.payer();
            x.note_spent("Patrol", None, payer, c);
        }
    }
    Ok(())
}

/// COIN Operations act only in Afghanistan; Air Strike is the exception (1.4.2, ruling A24).
fn not_pakistan(x: &Exec, s: SpaceNo, rule: &str) -> Result<(), RuleError> {
    if x.d[s].is_pakistan() {
        return Err(x.ill(
            format!("only Taliban forces may be in {} (Pakistan)", x.name(s)),
            rule,
        ));
    }
    Ok(())
}

/// One line of a Train (3.2.1).
pub fn train_step(x: &mut Exec, st: &mut State, step: &ActStep) -> Result<(), RuleError> {
    match step {
        ActStep::In(i) => train_space(x, st, i),
        ActStep::Civic(s, n) => {
            step_two(x, *s)?;
            civic_action(x, st, *s, *n, "3.2.1")
        }
        ActStep::BuildBase(s, from) => {
            step_two(x, *s)?;
            build_base(x, st, *s, *from, None)
        }
        ActStep::BuildBaseOf(s, from, police) => {
            step_two(x, *s)?;
            build_base(x, st, *s, *from, Some(*police))
        }
        ActStep::Patronage => {
            let k = x.d.kabul();
            step_two(x, k)?;
            if x.f != Faction::Coalition {
                return Err(x.ill("only a Coalition Train in Kabul transfers Patronage", "3.2.1"));
            }
            let t = st.patronage.min(3);
            st.patronage -= t;
            st.gain(x.d, Faction::Government, i32::from(t));
            x.say(format!("Kabul: {t} Patronage to Government Resources"));
            Ok(())
        }
        _ => Err(x.ill("a Train's lines are `in SPACE [place N troops M police]`, then one of civic, base, patronage", "3.2.1")),
    }
}

/// Train in one space (3.2.1): where it may, then the cubes it places.
fn train_space(x: &mut Exec, st: &mut State, i: &InSpace) -> Result<(), RuleError> {
    let cubes = train_where(x, st, i)?;
    let s = i.space;
    let sp = &x.d[s];
    let cost = if x.f == Faction::Government || cubes > 0 {
        x.space_cost(st, 3)
    } else {
        0
    };
    x.pay_at(st, cost, "Train in", s)?;
    let mut placed = Vec::new();
    for (n, k) in &i.place {
        placed.push(train_cubes(x, st, i, *n, *k)?);
    }
    x.say(format!(
        "Train in {}: placed {}",
        sp.name,
        if placed.is_empty() {
            "nothing".into()
        } else {
            placed.join(", ")
        }
    ));
    Ok(())
}

/// Whether the faction may Train in the space `i` names and place the cubes
/// it asks for there (3.2.1); selects the space and returns the cubes.
fn train_where(x: &mut Exec, st: &State, i: &InSpace) -> Result<u32, RuleError> {
    let s = i.space;
    let sp = &x.d[s];
    if sp.is_loc() {
        return Err(x.ill(
            format!("Train selects Provinces or Kabul, not {}", sp.name),
            "3.2.1",
        ));
    }
    not_pakistan(x, s, "3.2.1")?;
    let pieces = st[s].pieces;
    if x.f == Faction::Coalition && !sp.is_city() && pieces.of(Faction::Coalition) == 0 {
        return Err(x.ill(
            format!(
                "the Coalition may Train in a Province only with Coalition pieces, not in {}",
                sp.name
            ),
            "3.2.1",
        ));
    }
    x.select(s)?;
    let cubes: u32 = i.place.iter().map(|(n, _)| u32::from(*n)).sum();
    if cubes > 6 {
        return Err(x.ill("Train places up to 6 Government cubes a space", "3.2.1"));
    }
    let base_ok = sp.is_city() || pieces[Piece::CoalBase] + pieces[Piece::GovBase] > 0;
    if cubes > 0 && !base_ok {
        return Err(x.ill(
            format!(
                "cubes are placed only in Kabul or with a COIN Base, not in {}",
                sp.name
            ),
            "3.2.1",
        ));
    }
    if cubes > 0 && x.f == Faction::Coalition && pieces[Piece::CoalBase] == 0 {
        return Err(x.ill(
            format!(
                "the Coalition places Government cubes only with a Coalition Base, not in {}",
                sp.name
            ),
            "3.2.1",
        ));
    }
    Ok(cubes)
}

/// Places `n` cubes of kind `k` in the Training space (3.2.1), from the
/// Available box, then from the spaces the order names (1.4.1); the words
/// the report gives them.
fn train_cubes(
    x: &mut Exec,
    st: &mut State,
    i: &InSpace,
    n: u8,
    k: Kind,
) -> Result<String, RuleError> {
    let s = i.space;
    let p = match k {
        Kind::Troops => Piece::GovTroops,
        Kind::Police => Piece::Police,
        _ => return Err(x.ill("Train places Government Troops and Police", "3.2.1")),
    };
    let mut got = st.place(s, p, n);
    // 1.4.1 EXCEPTIONS, 3.2.1: with none Available, cubes come from
    // elsewhere on the map, from the spaces the order names.
    for src in &i.from {
        if got == n {
            break;
        }
        if *src == s {
            return Err(x.ill("Train takes cubes from other spaces", "3.2.1"));
        }
        let took = st.remove(*src, p, n - got, false);
        if took > 0 {
            x.say(format!("{took} {} taken from {}", k.key(), x.name(*src)));
        }
        got += st.place(s, p, took);
    }
    if got < n && x.d.version >= 10 {
        // 1.4.1: placing what is not Available is ignored; 3.2.1: the
        // order may name spaces to take cubes from (`from SPACE`).
        return Ok(format!(
            "{got} of {n} {}: no more Available{} (1.4.1, 3.2.1)",
            k.key(),
            if i.from.is_empty() {
                "; `from SPACE` takes them from the map"
            } else {
                " or in the spaces named"
            }
        ));
    }
    Ok(format!("{got} {}", k.key()))
}

fn step_two(x: &mut Exec, s: SpaceNo) -> Result<(), RuleError> {
    if x.step_two {
        return Err(x.ill(
            "Train's second step is done in at most 1 space, once",
            "3.2.1",
        ));
    }
    if !x.selected.contains(&s) {
        return Err(x.ill(
            format!("{} was not selected for the Train", x.name(s)),
            "3.2.1",
        ));
    }
    x.step_two = true;
    Ok(())
}

/// Civic Action: each 3 Government Resources removes a Terror marker or, once
/// none remain, shifts one level toward Support; COIN Control needed (3.2.1, 6.4.1).
pub fn civic_action(
    x: &mut Exec,
    st: &mut State,
    s: SpaceNo,
    n: u8,
    rule: &str,
) -> Result<(), RuleError> {
    if st[s].control != Control::Coin {
        return Err(x.ill(
            format!("Civic Action needs COIN Control, which {} lacks", x.name(s)),
            rule,
        ));
    }
    let most = super::insurgent::steps_possible(x, st, s, true);
    super::insurgent::no_steps(x, "Civic Action", s, n, most, rule)?;
    if x.d.version >= 10 && n > most {
        // Version 9 bought what it could and dropped the rest silently.
        return Err(x.ill(
            format!(
                "Civic Action in {} can take {most} step(s) (its Terror, then toward Support), not {n}",
                x.name(s)
            ),
            rule,
        ));
    }
    let mut done = 0;
    for _ in 0..n {
        let can_shift =
            x.d[s].is_afghan() && st.pop(x.d, s) > 0 && st[s].support != Support::Support;
        if st[s].terror == 0 && !can_shift {
            break;
        }
        // Paid even when the Train is free (3.2.1).
        if st.res(Faction::Government) < 3 {
            return Err(x.ill("Civic Action costs 3 Government Resources a step", rule));
        }
        st.resources[Faction::Government.index()] -= 3;
        if st[s].terror > 0 {
            st[s].terror -= 1;
        } else {
            st[s].support = st[s].support.shifted(true);
        }
        done += 1;
    }
    // Paid even when the Train is free (3.2.1): always told.
    x.note_spent("Civic Action in", Some(s), Faction::Government, 3 * done);
    x.say(format!(
        "Civic Action in {}: {}, now {:?}",
        x.name(s),
        super::card_text::plural(u32::from(done), "step", "steps"),
        st[s].support
    ));
    Ok(())
}

fn build_base(
    x: &mut Exec,
    st: &mut State,
    s: SpaceNo,
    from: Option<SpaceNo>,
    police: Option<u8>,
) -> Result<(), RuleError> {
    if x.f != Faction::Government {
        return Err(x.ill("only the Government replaces cubes with a Base", "3.2.1"));
    }
    let p = st[s].pieces;
    if p.gov_cubes() < 3 {
        return Err(x.ill(
            format!(
                "{} has {} Government cubes; a Base replaces 3",
                x.name(s),
                p.gov_cubes()
            ),
            "3.2.1",
        ));
    }
    if p.bases() >= u32::from(x.d.limits.bases_per_space) {
        return Err(x.ill(format!("{} already holds 2 Bases", x.name(s)), "1.4.2"));
    }
    if st.available[Piece::GovBase] == 0 {
        // "from map if needed" (3.2.1, ruling A20).
        let Some(src) = from.filter(|f| *f != s && st[*f].pieces[Piece::GovBase] > 0) else {
            return Err(x.ill(
                "no Government Base is Available: name one on the map, `base SPACE from SPACE`",
                "3.2.1",
            ));
        };
        st.remove(src, Piece::GovBase, 1, false);
        x.say(format!("a Government Base taken from {}", x.name(src)));
    } else if from.is_some() {
        return Err(x.ill(
            "a Base comes from the map only when none is Available",
            "3.2.1",
        ));
    }
    // A player's Police go first (the code's order); from version 9 a
    // Non-player removes "friendly Police and Troops evenly, Police first"
    // (8.1 GUIDELINES).
    let (police, troops) = if let Some(n) = police {
        // "replace any 3 Government cubes" (3.2.1): the player's choice.
        if n > p[Piece::Police] || 3 - n > p[Piece::GovTroops] {
            return Err(x.ill(
                format!(
                    "{} has {} Police and {} Government Troops; {n} Police and {} Troops were named",
                    x.name(s),
                    p[Piece::Police],
                    p[Piece::GovTroops],
                    3 - n
                ),
                "3.2.1",
            ));
        }
        (n, 3 - n)
    } else if st.seats.is_np(x.f) && x.d.version >= 9 {
        super::legal::even_cubes(3, p[Piece::Police], p[Piece::GovTroops])
    } else {
        let police = p[Piece::Police].min(3);
        (police, 3 - police)
    };
    st.remove(s, Piece::Police, police, false);
    st.remove(s, Piece::GovTroops, troops, false);
    st.place(s, Piece::GovBase, 1);
    x.say(format!(
        "Train in {}: 3 Government cubes become a Base",
        x.name(s)
    ));
    Ok(())
}

/// One line of a Patrol (3.2.2).
pub fn patrol_step(x: &mut Exec, st: &mut State, step: &ActStep) -> Result<(), RuleError> {
    match step {
        ActStep::Move(m) => patrol_move(x, st, m),
        ActStep::Assault(s, t) => {
            if !x.d[*s].is_loc() {
                return Err(x.ill("Patrol's free Assault is in 1 LoC", "3.2.2"));
            }
            if x.patrol_assault.is_some() {
                return Err(x.ill("Patrol makes 1 free Assault", "3.2.2"));
            }
            x.patrol_assault = Some((*s, t.clone()));
            Ok(())
        }
        _ => Err(x.ill(
            "a Patrol's lines are `move N troops|police FROM>LOC...` and `assault LOC`",
            "3.2.2",
        )),
    }
}

fn cube(x: &Exec, k: Option<Kind>, rule: &str) -> Result<Piece, RuleError> {
    match (x.f, k) {
        (Faction::Coalition, None | Some(Kind::Troops)) => Ok(Piece::CoalTroops),
        (Faction::Government, None | Some(Kind::Troops)) => Ok(Piece::GovTroops),
        (Faction::Government, Some(Kind::Police)) if rule != "3.2.3" => Ok(Piece::Police),
        _ => Err(x.ill(
            "only the faction's own cubes move (Sweep: Troops only)",
            rule,
        )),
    }
}

fn take(x: &Exec, st: &State, s: SpaceNo, p: Piece, n: u8, rule: &str) -> Result<(), RuleError> {
    if st[s].pieces[p] < n {
        return Err(x.ill(
            format!(
                "{} has {} {}, not {n}",
                x.name(s),
                st[s].pieces[p],
                p.label()
            ),
            rule,
        ));
    }
    Ok(())
}

fn patrol_move(x: &mut Exec, st: &mut State, m: &Move) -> Result<(), RuleError> {
    let p = cube(x, m.kind, "3.2.2")?;
    check_path(x, m)?;
    let from = m.path[0];
    take(x, st, from, p, m.count, "3.2.2")?;
    for (i, s) in m.path.iter().enumerate().skip(1) {
        let sp = &x.d[*s];
        if !(sp.is_loc() || sp.is_city()) {
            return Err(x.ill(
                format!(
                    "Patrolling cubes enter only LoCs and Kabul, not {}",
                    sp.name
                ),
                "3.2.2",
            ));
        }
        if st[*s].sabotage && i + 1 < m.path.len() {
            return Err(x.ill(
                format!("cubes stop on entering Sabotaged {}", sp.name),
                "3.2.2",
            ));
        }
    }
    let to = m.path[m.path.len() - 1];
    st.shift_pieces(from, to, p, m.count);
    x.destinations.insert(to);
    x.say(format!(
        "{} {} {} to {}",
        m.count,
        p.label(),
        x.name(from),
        x.name(to)
    ));
    Ok(())
}

/// One line of a Sweep (3.2.3).
pub fn sweep_step(x: &mut Exec, st: &mut State, step: &ActStep) -> Result<(), RuleError> {
    match step {
        ActStep::In(i) => {
            let s = i.space;
            if x.d[s].is_loc() {
                return Err(x.ill("Sweep selects Provinces or Kabul", "3.2.3"));
            }
            not_pakistan(x, s, "3.2.3")?;
            x.select(s)?;
            if x.f == Faction::Government {
                let c = x.space_cost(st, 3);
                x.pay_at(st, c, "Sweep in", s)?;
            }
            Ok(())
        }
        ActStep::Move(m) => sweep_move(x, st, m),
        _ => Err(x.ill(
            "a Sweep's lines are `in SPACE` and `move N troops FROM>[LOC>]SPACE [with N]`",
            "3.2.3",
        )),
    }
}

fn sweep_move(x: &mut Exec, st: &mut State, m: &Move) -> Result<(), RuleError> {
    let p = cube(x, m.kind, "3.2.3")?;
    check_path(x, m)?;
    let (from, to) = (m.path[0], m.path[m.path.len() - 1]);
    if !x.selected.contains(&to) {
        return Err(x.ill(
            format!(
                "moving Troops must end in a selected Sweep space, not {}",
                x.name(to)
            ),
            "3.2.3",
        ));
    }
    match m.path.len() {
        2 => {}
        3 if x.d[m.path[1]].is_loc() && !st[m.path[1]].sabotage => {}
        _ => {
            return Err(x.ill(
                "Sweep moves Troops from an adjacent space, or via 1 unsabotaged LoC",
                "3.2.3",
            ));
        }
    }
    take(x, st, from, p, m.count, "3.2.3")?;
    if m.with > 0 {
        if x.f != Faction::Coalition || m.with > m.count {
            return Err(x.ill(
                "each moving Coalition cube may take 1 Government Troops cube along",
                "3.2.3",
            ));
        }
        take(x, st, from, Piece::GovTroops, m.with, "3.2.3")?;
        st.shift_pieces(from, to, Piece::GovTroops, m.with);
        x.gov_troops_in.insert(to);
    }
    if p == Piece::GovTroops {
        x.gov_troops_in.insert(to);
        // Government Sweep pays the Warlords 1 per LoC entered with Guerrillas (ruling A23).
        if m.path.len() == 3 {
            x.entered.insert(m.path[1]);
        }
    }
    st.shift_pieces(from, to, p, m.count);
    x.destinations.insert(to);
    x.say(format!(
        "{} {} {} to {}",
        m.count,
        p.label(),
        x.name(from),
        x.name(to)
    ));
    Ok(())
}

/// After the last line: Patrol's Activation and free Assault (3.2.2); Sweep's
/// costs, Warlord payments and Activation (3.2.3).
pub fn finish(x: &mut Exec, st: &mut State, dice: &mut Dice) -> Result<(), RuleError> {
    match x.op {
        Op::Patrol => {
            for s in x.d.ids().filter(|s| x.d[*s].is_loc()) {
                let p = st[s].pieces;
                let n = match x.f {
                    Faction::Government => p.gov_cubes(),
                    _ if p[Piece::CoalTroops] > 0 => p.cubes(),
                    _ => 0,
                };
                let k = removal::activate(st, s, n, &INSURGENTS);
                if k > 0 {
                    x.say(format!(
                        "{}: {} Activated",
                        x.name(s),
                        super::card_text::plural(k, "Guerrilla", "Guerrillas")
                    ));
                }
            }
            if let Some((s, t)) = x.patrol_assault.take() {
                if x.limited && !x.destinations.contains(&s) {
                    return Err(x.ill(
                        "a Limited Patrol's Assault is in its destination LoC",
                        "3.2.2",
                    ));
                }
                let saved = x.terms.free;
                x.terms.free = true;
                let r = assault_space(x, st, s, false, &t, true, dice);
                x.terms.free = saved;
                r?;
            }
        }
        Op::Sweep => {
            for s in x.selected.clone() {
                if x.f == Faction::Coalition && x.gov_troops_in.contains(&s) {
                    let c = x.space_cost(st, 3);
                    x.pay_at(st, c, "Government Troops Sweeping into", s)?;
                }
                let p = st[s].pieces;
                let n = match x.f {
                    Faction::Government => p.gov_cubes(),
                    _ if p.of(Faction::Coalition) > 0 => p.cubes(),
                    _ => 0,
                };
                let k = removal::activate(st, s, n, &INSURGENTS);
                x.say(format!(
                    "Sweep in {}: {} Activated",
                    x.name(s),
                    super::card_text::plural(k, "Guerrilla", "Guerrillas")
                ));
            }
            for l in x.entered.clone() {
                let g = st[l].pieces.guerrillas(Faction::Taliban)
                    + st[l].pieces.guerrillas(Faction::Warlords);
                if g > 0 && st.res(Faction::Government) > 0 {
                    st.resources[Faction::Government.index()] -= 1;
                    st.gain(x.d, Faction::Warlords, 1);
                    x.note_spent(
                        "paid to the Warlords, Sweeping into",
                        Some(l),
                        Faction::Government,
                        1,
                    );
                    x.say(format!("{}: the Government pays the Warlords 1", x.name(l)));
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// Cubes that count for Assault: Troops and Police in Kabul and on LoCs,
/// Troops only in Provinces (3.2.4).
fn assault_gov_cubes(x: &Exec, st: &State, s: SpaceNo) -> u32 {
    let p = st[s].pieces;
    if x.d[s].is_loc() || x.d[s].is_city() {
        p.gov_cubes()
    } else {
        u32::from(p[Piece::GovTroops])
    }
}

/// Assault in one space (3.2.4); also Patrol's free Assault (`patrol`).
pub fn assault_space(
    x: &mut Exec,
    st: &mut State,
    s: SpaceNo,
    with_government: bool,
    targets: &[Faction],
    patrol: bool,
    dice: &mut Dice,
) -> Result<(), RuleError> {
    not_pakistan(x, s, "3.2.4")?;
    if !patrol {
        x.select(s)?;
    }
    let cap = match x.f {
        Faction::Government => {
            let c = x.space_cost(st, 3);
            if !patrol {
                x.pay_at(st, c, "Assault in", s)?;
            }
            let cubes = assault_gov_cubes(x, st, s);
            cubes / if x.d[s].is_mountain() { 3 } else { 2 }
        }
        _ => {
            let troops = u32::from(st[s].pieces[Piece::CoalTroops]);
            if troops == 0 {
                return Err(x.ill(
                    format!(
                        "the Coalition Assaults only with Coalition Troops, none in {}",
                        x.name(s)
                    ),
                    "3.2.4",
                ));
            }
            let mut cap = troops;
            if with_government {
                x.pay_at(st, 3, "counting Government cubes in", s)?;
                cap += assault_gov_cubes(x, st, s);
            }
            cap
        }
    } + st.extra_removals(x.f, "assault");
    let targets: Vec<Faction> = if targets.is_empty() {
        INSURGENTS.to_vec()
    } else {
        targets.to_vec()
    };
    if let Some(t) = targets.iter().find(|t| t.is_coin()) {
        return Err(x.ill(format!("the {} are not an enemy", t.name()), "3.2.4"));
    }
    let by = removal::By::of(st, x.f);
    let gone = removal::remove_up_to(
        x.d,
        st,
        s,
        removal::Removal {
            n: cap,
            targets: &targets,
            reach: Reach::ActiveOnly,
            casualties: false,
            by,
        },
        dice,
    )?;
    let tal_bases = gone.iter().filter(|p| **p == Piece::TalBase).count() as i32;
    if x.f == Faction::Government && tal_bases > 0 {
        st.add_aid(x.d, 6 * tal_bases);
        x.say(format!(
            "+{} Aid for Taliban Bases removed (3.2.4)",
            6 * tal_bases
        ));
    }
    x.say(format!(
        "Assault in {}: removed {}",
        x.name(s),
        removal::describe(&gone)
    ));
    Ok(())
}
