//! The Insurgent Operations: Rally, March, Attack, Terror (3.3), with their
//! Islamabad effects (6.6.1).

use super::action::{Exec, check_path};
use super::data::{Data, SpaceNo, Support};
use super::orders::{ActStep, InSpace, Move};
use super::pieces::{Faction, Kind, Piece};
use super::removal::{self, Reach};
use super::state::State;
use umpire_core::dice::Dice;
use umpire_core::ruleset::RuleError;

/// Islamabad at Backing or Sponsorship (6.6.1).
fn backing(st: &State) -> bool {
    st.islamabad >= 3
}

fn guerrillas(x: &Exec) -> (Piece, Piece) {
    Piece::guerrillas(x.f).unwrap_or((Piece::TalUnder, Piece::TalActive))
}

/// One line of a Rally (3.3.1).
pub fn rally_step(x: &mut Exec, st: &mut State, step: &ActStep) -> Result<(), RuleError> {
    match step {
        ActStep::In(i) => rally_space(x, st, i),
        ActStep::Sharia(s, n) => sharia(x, st, *s, *n),
        _ => Err(x.ill(
            "a Rally's lines are `in SPACE [place N|base|flip]` and `sharia SPACE N`",
            "3.3.1",
        )),
    }
}

/// Rally in one space (3.3.1): a Base, Guerrillas flipped Underground, or
/// Guerrillas placed.
fn rally_space(x: &mut Exec, st: &mut State, i: &InSpace) -> Result<(), RuleError> {
    let s = i.space;
    let sp = &x.d[s];
    if sp.is_loc() {
        return Err(x.ill("Rally selects Provinces or Kabul, not LoCs", "3.3.1"));
    }
    let cost = rally_cost(x, st, s)?;
    x.select(s)?;
    x.pay_at(st, cost, "Rally in", s)?;
    let mine = st[s].pieces[Piece::base(x.f)];
    let base_rally = mine > 0 && (x.f == Faction::Taliban || !sp.pashtun);
    if x.d.version >= 10 {
        one_rally_choice(x, i)?;
    }
    let text = if i.base {
        rally_base(x, st, s)?
    } else if i.flip {
        if !base_rally {
            return Err(x.ill(
                format!(
                    "flipping Underground needs your Base in {}{}",
                    sp.name,
                    if x.f == Faction::Warlords {
                        " (non-Pashtun)"
                    } else {
                        ""
                    }
                ),
                "3.3.1",
            ));
        }
        let k = removal::flip_underground(st, s, x.f);
        format!(
            "{} flipped Underground",
            super::card_text::plural(u32::from(k), "Guerrilla", "Guerrillas")
        )
    } else {
        rally_place(x, st, i, base_rally)?
    };
    x.say(format!("Rally in {}: {text}", sp.name));
    Ok(())
}

/// What a Rally costs in space `s`, and where the faction may Rally
/// (3.3.1, 6.6.1).
fn rally_cost(x: &Exec, st: &State, s: SpaceNo) -> Result<u8, RuleError> {
    let sp = &x.d[s];
    let mut cost = x.space_cost(st, 1);
    match x.f {
        Faction::Taliban => {
            if st[s].support == Support::Support && !sp.pashtun {
                return Err(x.ill(
                    format!(
                        "the Taliban Rally only in Neutral, Opposition or Pashtun spaces, not {}",
                        sp.name
                    ),
                    "3.3.1",
                ));
            }
            if sp.is_pakistan() {
                if st.islamabad <= 1 {
                    return Err(x.ill(
                        "no Taliban Rally in Pakistan at Hostility or Pressure",
                        "6.6.1",
                    ));
                }
                if backing(st) {
                    cost = 0;
                }
            }
        }
        _ => {
            if sp.is_pakistan() {
                return Err(x.ill("the Warlords never Rally in Pakistan", "3.3.1"));
            }
        }
    }
    Ok(cost)
}

/// 3.3.1: 2 Guerrillas become a Base, room and an Available Base allowing
/// (1.4.1, 1.4.2).
fn rally_base(x: &Exec, st: &mut State, s: SpaceNo) -> Result<String, RuleError> {
    let sp = &x.d[s];
    let (u, a) = guerrillas(x);
    let base = Piece::base(x.f);
    if st[s].pieces[u] + st[s].pieces[a] < 2 {
        return Err(x.ill(
            format!(
                "a Base replaces 2 of your Guerrillas; {} lacks them",
                sp.name
            ),
            "3.3.1",
        ));
    }
    if st[s].pieces.bases() >= u32::from(x.d.limits.bases_per_space) {
        return Err(x.ill(format!("{} already holds 2 Bases", sp.name), "1.4.2"));
    }
    if st.available[base] == 0 {
        return Err(x.ill("no Base is Available", "1.4.1"));
    }
    // A player's Underground ones go first (the code's order); a
    // Non-player "removes friendly Active before Underground
    // Guerrillas" (8.1 GUIDELINES).
    let (first, second) = if st.seats.is_np(x.f) { (a, u) } else { (u, a) };
    let k = st[s].pieces[first].min(2);
    st.remove(s, first, k, false);
    st.remove(s, second, 2 - k, false);
    st.place(s, base, 1);
    Ok("2 Guerrillas become a Base".to_string())
}

/// 3.3.1: Guerrillas placed, up to Bases + Population with a Base, else 1.
fn rally_place(
    x: &Exec,
    st: &mut State,
    i: &InSpace,
    base_rally: bool,
) -> Result<String, RuleError> {
    let s = i.space;
    let sp = &x.d[s];
    let (u, _) = guerrillas(x);
    let mine = st[s].pieces[Piece::base(x.f)];
    let placing: u8 = i.place.iter().map(|(n, _)| *n).sum();
    let most = if base_rally { mine + st.pop(x.d, s) } else { 1 };
    // 3.3.1: with a Base, "up to" Bases + Pop, none included (the NOTE:
    // "Taliban can Rally at a Base but place or flip no pieces in order
    // to buy Sharia"); from version 10 `place 0` says so. Without a
    // Base the Rally places 1.
    let explicit = x.d.version >= 10 && !i.place.is_empty();
    let n = if placing == 0 && !explicit {
        1
    } else {
        placing
    };
    if n == 0 && !base_rally {
        return Err(x.ill(
            format!(
                "without your Base in {} the Rally places 1 Guerrilla, not 0",
                sp.name
            ),
            "3.3.1",
        ));
    }
    if n > most {
        return Err(x.ill(
            format!("Rally places {most} Guerrilla(s) in {} at most", sp.name),
            "3.3.1",
        ));
    }
    let k = st.place(s, u, n);
    Ok(if k < n && x.d.version >= 10 {
        // 1.4.1: "ignore any instructions to place forces if the
        // appropriate type is not available": told, not silent.
        format!("placed {k} of {n} Guerrillas: no more are Available (1.4.1)")
    } else {
        format!(
            "placed {}",
            super::card_text::plural(u32::from(k), "Guerrilla", "Guerrillas")
        )
    })
}

/// 3.3.1: in each space the Rally places Guerrillas, or replaces 2 with a
/// Base, or (with a Base) flips them Underground: one of these, and
/// Guerrillas only (version 9 kept the first it read and dropped the rest).
fn one_rally_choice(x: &Exec, i: &InSpace) -> Result<(), RuleError> {
    let chosen = [i.base, i.flip, !i.place.is_empty()]
        .iter()
        .filter(|b| **b)
        .count();
    if chosen > 1 {
        return Err(x.ill(
            format!(
                "a Rally in {} places Guerrillas, or makes a Base, or flips them: one of these",
                x.name(i.space)
            ),
            "3.3.1",
        ));
    }
    if let Some((_, k)) = i.place.iter().find(|(_, k)| *k != Kind::Guerrilla) {
        return Err(x.ill(
            format!("a Rally places Guerrillas, not {}", k.key()),
            "3.3.1",
        ));
    }
    Ok(())
}

/// How many Sharia or Civic Action steps `s` can take: its Terror markers,
/// then the levels it can still shift (`toward_support`: to Support, else
/// to Opposition), in an Afghan space with Population (1.6, 6.4).
pub fn steps_possible(x: &Exec, st: &State, s: SpaceNo, toward_support: bool) -> u8 {
    steps_in(x.d, st, s, toward_support)
}

/// [`steps_possible`] over the data alone: the Terror to remove in `s`,
/// then the levels it can shift toward Support (or Opposition).
pub fn steps_in(d: &Data, st: &State, s: SpaceNo, toward_support: bool) -> u8 {
    let shifts = if d[s].is_afghan() && st.pop(d, s) > 0 {
        let (to, away) = if toward_support {
            (Support::Support, Support::Opposition)
        } else {
            (Support::Opposition, Support::Support)
        };
        match st[s].support {
            l if l == to => 0,
            l if l == away => 2,
            _ => 1,
        }
    } else {
        0
    };
    st[s].terror + shifts
}

fn sharia(x: &mut Exec, st: &mut State, s: SpaceNo, n: u8) -> Result<(), RuleError> {
    if x.f != Faction::Taliban {
        return Err(x.ill("only the Taliban buy Sharia", "3.3.1"));
    }
    if !x.selected.contains(&s) || st[s].pieces[Piece::TalBase] == 0 {
        return Err(x.ill(
            format!(
                "Sharia is bought in 1 Taliban-Base space selected for the Rally, not {}",
                x.name(s)
            ),
            "3.3.1",
        ));
    }
    if x.step_two {
        return Err(x.ill("Sharia in 1 space only", "3.3.1"));
    }
    let most = steps_possible(x, st, s, false);
    no_steps(x, "Sharia", s, n, most, "3.3.1")?;
    if x.d.version >= 10 && n > most {
        return Err(x.ill(
            format!(
                "Sharia in {} can take {most} step(s) (its Terror, then toward Opposition), not {n}",
                x.name(s)
            ),
            "3.3.1",
        ));
    }
    x.step_two = true;
    let k = sharia_steps(x, st, s, n, "3.3.1")?;
    x.note_spent("Sharia in", Some(s), Faction::Taliban, k);
    x.say(format!(
        "Sharia in {}: {}",
        x.name(s),
        super::card_text::plural(u32::from(k), "step", "steps")
    ));
    Ok(())
}

/// From version 11 (6.4, no silent no-ops): a Civic Action or Sharia of 0
/// steps, or where there is nothing to remove or shift, is refused.
pub fn no_steps(
    x: &Exec,
    what: &str,
    s: SpaceNo,
    n: u8,
    most: u8,
    rule: &str,
) -> Result<(), RuleError> {
    if x.d.version < super::event_check::SINCE || (n > 0 && most > 0) {
        return Ok(());
    }
    Err(x.ill(zero_steps(what, x.name(s), n, most), rule))
}

/// Why a Civic Action or Sharia of `n` steps in `space`, which can take
/// `most`, buys nothing.
pub fn zero_steps(what: &str, space: &str, n: u8, most: u8) -> String {
    match (n, most) {
        (0, 0) | (_, 0) => format!(
            "{what} in {space} can take no step: no Terror there and no level left to shift; leave the line out"
        ),
        _ => format!(
            "{what} in {space} of 0 steps buys nothing: write 1 to {most} steps, or leave the line out"
        ),
    }
}

/// Each Taliban Resource removes a Terror marker or, once none remain, shifts
/// a level toward Opposition (3.3.1, 6.4.2). Paid even when free.
pub fn sharia_steps(
    x: &Exec,
    st: &mut State,
    s: SpaceNo,
    n: u8,
    rule: &str,
) -> Result<u8, RuleError> {
    let mut done = 0;
    for _ in 0..n {
        let can_shift =
            x.d[s].is_afghan() && st.pop(x.d, s) > 0 && st[s].support != Support::Opposition;
        if st[s].terror == 0 && !can_shift {
            break;
        }
        if st.res(Faction::Taliban) == 0 {
            return Err(x.ill("Sharia costs 1 Taliban Resource a step", rule));
        }
        st.resources[Faction::Taliban.index()] -= 1;
        if st[s].terror > 0 {
            st[s].terror -= 1;
        } else {
            st[s].support = st[s].support.shifted(false);
        }
        done += 1;
    }
    Ok(done)
}

/// One March group along its path (3.3.2, rulings A13, A14).
pub fn march(x: &mut Exec, st: &mut State, m: &Move) -> Result<(), RuleError> {
    check_path(x, m)?;
    let (u, a) = guerrillas(x);
    let from = m.path[0];
    let have = st[from].pieces[u] + st[from].pieces[a];
    if have < m.count || m.count == 0 {
        return Err(x.ill(
            format!(
                "{} has {have} of your Guerrillas, not {}",
                x.name(from),
                m.count
            ),
            "3.3.2",
        ));
    }
    if x.f == Faction::Warlords && m.path.len() > 2 {
        return Err(x.ill("Warlord Guerrillas March only once", "3.3.2"));
    }
    // From version 10 a Guerrilla Marches once whatever the lines (3.3.2).
    let once = x.d.version >= 10;
    let mut group = if once {
        group_once(x, st, m)?
    } else {
        // The group: Active ones first if asked, else Underground first.
        let (first, second) = if m.active { (a, u) } else { (u, a) };
        let k1 = m.count.min(st[from].pieces[first]);
        [(first, k1), (second, m.count - k1)]
    };
    let mut at = from;
    for (leg, to) in m.path.iter().copied().enumerate().skip(1) {
        enter(x, st, once, leg, at, to)?;
        for (p, n) in group {
            st.shift_pieces(at, to, p, n);
        }
        group = activation(x, st, m, to, group);
        at = to;
    }
    x.destinations.insert(at);
    if once {
        let here = x.marched.arrived.entry(at).or_default();
        for (p, n) in group {
            if p == u {
                here.0 += n;
            } else {
                here.1 += n;
            }
        }
    }
    x.say(format!(
        "March: {} {} to {}",
        super::card_text::plural(u32::from(m.count), "Guerrilla", "Guerrillas"),
        x.name(from),
        x.name(at)
    ));
    Ok(())
}

/// A March group's leg from `at` into `to` (3.3.2, 1.4.2): one group a leg,
/// on from a Pashtun space only, Pakistan for the Taliban; the space paid
/// for once per Operation.
fn enter(
    x: &mut Exec,
    st: &mut State,
    once: bool,
    leg: usize,
    at: SpaceNo,
    to: SpaceNo,
) -> Result<(), RuleError> {
    let sp = &x.d[to];
    // 3.3.2: "Guerrillas moving from 1 space to another move as a
    // single group": two lines for one leg would each be counted apart
    // for Activation.
    if once && !x.marched.legs.insert((at, to)) {
        return Err(x.ill(
            format!(
                "Guerrillas moving from {} to {} move as a single group: write them in one line",
                x.name(at),
                sp.name
            ),
            "3.3.2",
        ));
    }
    if leg > 1 && !x.d[at].pashtun {
        return Err(x.ill(
            format!(
                "the Taliban keep Marching only from a Pashtun space, not {}",
                x.name(at)
            ),
            "3.3.2",
        ));
    }
    if sp.is_pakistan() && x.f != Faction::Taliban {
        return Err(x.ill(
            format!("only Taliban forces may enter {} (Pakistan)", sp.name),
            "1.4.2",
        ));
    }
    let pak = sp.is_pakistan() || x.d[at].is_pakistan();
    if !sp.is_loc() && !x.entered.contains(&to) {
        let cost = if pak && x.f == Faction::Taliban && backing(st) {
            0
        } else {
            x.space_cost(st, 1)
        };
        x.pay_at(st, cost, "Marching into", to)?;
        x.entered.insert(to);
    }
    Ok(())
}

/// Activation (3.3.2): the group entering `to` turns Active when exposed
/// there and more than 3 with the enemy; the group as it goes on.
fn activation(
    x: &mut Exec,
    st: &mut State,
    m: &Move,
    to: SpaceNo,
    mut group: [(Piece, u8); 2],
) -> [(Piece, u8); 2] {
    let (u, a) = guerrillas(x);
    let sp = &x.d[to];
    // Activation (3.3.2): LoC, or non-Pashtun (Taliban) / Pashtun (Warlords), and
    // the group plus enemy Guerrillas (and cubes, for the Taliban) exceed 3.
    let exposed = sp.is_loc()
        || (x.f == Faction::Taliban && !sp.pashtun)
        || (x.f == Faction::Warlords && sp.pashtun);
    let other = if x.f == Faction::Taliban {
        Faction::Warlords
    } else {
        Faction::Taliban
    };
    let mut count = u32::from(m.count) + st[to].pieces.guerrillas(other);
    if x.f == Faction::Taliban {
        count += st[to].pieces.cubes();
    }
    if exposed && count > 3 {
        let under = group
            .iter()
            .filter(|(p, _)| *p == u)
            .map(|(_, n)| *n)
            .sum::<u8>();
        st[to].pieces[u] -= under;
        st[to].pieces[a] += under;
        group = [(a, m.count), (u, 0)];
        x.say(format!(
            "the group entering {} is Activated (3.3.2)",
            sp.name
        ));
    }
    group
}

/// The group leaving a March line's origin, from version 10 (3.3.2): the
/// faction's Guerrillas there that have not Marched in this Operation and,
/// for the Taliban in a Pashtun space, those that arrived there and go on
/// (ruling A14), those first; Active ones first if asked, else Underground
/// first. A Guerrilla that has Marched moves no more: "Warlord Guerrillas
/// move once only", the Taliban go on only from a Pashtun destination.
fn group_once(x: &mut Exec, st: &State, m: &Move) -> Result<[(Piece, u8); 2], RuleError> {
    let (u, a) = guerrillas(x);
    let from = m.path[0];
    let (nu, na) = (st[from].pieces[u], st[from].pieces[a]);
    let (au, aa) = arrived_in(x, from, nu, na);
    let goes_on = x.f == Faction::Taliban && x.d[from].pashtun;
    let (cu, ca) = if goes_on { (au, aa) } else { (0, 0) };
    let (pool_u, pool_a) = (nu - au + cu, na - aa + ca);
    if pool_u + pool_a < m.count {
        let why = if x.f == Faction::Warlords {
            "Warlord Guerrillas move once only".to_string()
        } else {
            format!(
                "the Taliban go on only from a Pashtun destination, and {} is not Pashtun",
                x.name(from)
            )
        };
        return Err(x.ill(
            format!(
                "{} of your Guerrillas in {} Marched there in this Operation, so {} may move, not {}: {why}",
                au + aa,
                x.name(from),
                pool_u + pool_a,
                m.count
            ),
            "3.3.2",
        ));
    }
    let ((first, p1, c1), (second, _, c2)) = if m.active {
        ((a, pool_a, ca), (u, pool_u, cu))
    } else {
        ((u, pool_u, cu), (a, pool_a, ca))
    };
    let k1 = m.count.min(p1);
    let k2 = m.count - k1;
    // Those going on leave the space's arrivals first.
    let (t1, t2) = (k1.min(c1), k2.min(c2));
    let (tu, ta) = if first == u { (t1, t2) } else { (t2, t1) };
    x.marched.arrived.insert(from, (au - tu, aa - ta));
    Ok([(first, k1), (second, k2)])
}

/// The Guerrillas that arrived in `from` in this March, (Underground,
/// Active), fitted to the `nu` Underground and `na` Active there now: a
/// Special Activity between the lines (Extort, Suborn) may have flipped
/// some, and the arrivals keep their number where they can.
fn arrived_in(x: &Exec, from: SpaceNo, nu: u8, na: u8) -> (u8, u8) {
    let (au, aa) = x.marched.arrived.get(&from).copied().unwrap_or((0, 0));
    let total = (au + aa).min(nu + na);
    let au = au.min(nu);
    let aa = (total - au).min(na);
    let au = (total - aa).min(nu);
    (au, aa)
}

/// Attack in one space (3.3.3), or an Ambush there (4.4.3).
pub fn attack(
    x: &mut Exec,
    st: &mut State,
    s: SpaceNo,
    targets: &[Faction],
    dice: &mut Dice,
) -> Result<(), RuleError> {
    let mine = st[s].pieces.guerrillas(x.f);
    let enemies = st[s].pieces.enemies_of(x.f);
    if mine == 0 || enemies == 0 {
        return Err(x.ill(
            format!(
                "Attack needs your Guerrilla and an enemy piece in {}",
                x.name(s)
            ),
            "3.3.3",
        ));
    }
    x.select(s)?;
    let c = x.space_cost(st, 1);
    x.pay_at(st, c, "Attack in", s)?;
    let targets = attack_targets(x, targets)?;
    let Some((success, captured)) = attack_outcome(x, st, s, mine, dice)? else {
        return Ok(());
    };
    if success {
        attack_removals(x, st, s, &targets, dice)?;
    }
    if captured {
        captured_goods(x, st, s);
    }
    Ok(())
}

/// The factions an Attack may hit (3.3.3): those named, else every enemy;
/// naming a friend is refused.
fn attack_targets(x: &Exec, targets: &[Faction]) -> Result<Vec<Faction>, RuleError> {
    let targets: Vec<Faction> = if targets.is_empty() {
        [
            Faction::Government,
            Faction::Coalition,
            Faction::Taliban,
            Faction::Warlords,
        ]
        .into_iter()
        .filter(|f| x.f.is_enemy(*f))
        .collect()
    } else {
        targets.to_vec()
    };
    if let Some(t) = targets.iter().find(|t| !x.f.is_enemy(**t)) {
        return Err(x.ill(format!("the {} are not an enemy", t.name()), "3.3.3"));
    }
    Ok(targets)
}

/// Activates the attackers in `s` and finds whether the Attack succeeds and
/// captures goods, as (success, captured): an Ambush (4.4.3) activates one
/// Guerrilla and succeeds without a roll; an Attack (3.3.3) activates all
/// and rolls against the `mine` Guerrillas. `None` in a dry run, where the
/// roll is not known yet.
fn attack_outcome(
    x: &mut Exec,
    st: &mut State,
    s: SpaceNo,
    mine: u32,
    dice: &mut Dice,
) -> Result<Option<(bool, bool)>, RuleError> {
    let (u, a) = guerrillas(x);
    if let Some(k) = x.ambush.iter().position(|z| *z == s) {
        // 4.4.3: only 1 Underground Guerrilla Activates; success without a roll.
        x.ambush.remove(k);
        st[s].pieces[u] -= 1;
        st[s].pieces[a] += 1;
        return Ok(Some((true, true)));
    }
    let k = st[s].pieces[u];
    st[s].pieces[u] = 0;
    st[s].pieces[a] += k;
    if x.dry {
        // A dry run (version 10): what the roll removes or places here
        // is not known yet.
        x.tainted.insert(s);
        return Ok(None);
    }
    let roll = dice.roll(
        6,
        &format!(
            "{} Attack in {}: hits on {} or less (3.3.3)",
            x.f.name(),
            x.name(s),
            mine
        ),
    )?;
    x.say(format!(
        "Attack in {}: rolled {roll} against {}",
        x.name(s),
        super::card_text::plural(mine, "Guerrilla", "Guerrillas")
    ));
    Ok(Some((roll <= mine, roll == 1)))
}

/// A successful Attack removes two enemy pieces (3.3.3), more with a
/// Capability.
fn attack_removals(
    x: &mut Exec,
    st: &mut State,
    s: SpaceNo,
    targets: &[Faction],
    dice: &mut Dice,
) -> Result<(), RuleError> {
    let n = 2 + st.extra_removals(x.f, "attack");
    let by = removal::By::of(st, x.f);
    let gone = removal::remove_up_to(
        x.d,
        st,
        s,
        removal::Removal {
            n,
            targets,
            reach: Reach::Any,
            casualties: true,
            by,
        },
        dice,
    )?;
    x.say(format!(
        "Attack in {}: removed {}",
        x.name(s),
        removal::describe(&gone)
    ));
    Ok(())
}

/// Captured Goods (3.3.3): a roll of 1 places an Underground Guerrilla.
fn captured_goods(x: &mut Exec, st: &mut State, s: SpaceNo) {
    let (u, _) = guerrillas(x);
    let k = st.place(s, u, 1);
    if k > 0 {
        x.say(format!(
            "Captured Goods: 1 Guerrilla placed in {} (3.3.3)",
            x.name(s)
        ));
    } else if x.d.version >= 10 {
        x.say(format!(
            "Captured Goods in {}: no Guerrilla is Available to place (1.4.1, 3.3.3)",
            x.name(s)
        ));
    }
}

/// Terror in one space (3.3.4).
pub fn terror(x: &mut Exec, st: &mut State, s: SpaceNo) -> Result<(), RuleError> {
    let (u, a) = guerrillas(x);
    if st[s].pieces[u] == 0 {
        return Err(x.ill(
            format!("Terror needs your Underground Guerrilla in {}", x.name(s)),
            "3.3.4",
        ));
    }
    x.select(s)?;
    let sp = &x.d[s];
    let cost = if sp.is_loc() { 0 } else { x.space_cost(st, 1) };
    x.pay_at(st, cost, "Terror in", s)?;
    st[s].pieces[u] -= 1;
    st[s].pieces[a] += 1;
    let pool = st.markers_on_map() < u32::from(x.d.limits.terror_markers);
    let told = x.d.version >= 10;
    if !pool && told && !(sp.is_loc() && st[s].sabotage) {
        x.say(format!(
            "Terror in {}: no marker placed, all {} are on the map (3.3.4)",
            sp.name, x.d.limits.terror_markers
        ));
    }
    if sp.is_loc() {
        if !st[s].sabotage && pool {
            st[s].sabotage = true;
            x.say(format!("Terror on {}: Sabotaged", sp.name));
        } else if st[s].sabotage && told {
            x.say(format!(
                "Terror on {}: already Sabotaged, 1 Guerrilla Activated (3.3.4)",
                sp.name
            ));
        }
    } else {
        if pool {
            st[s].terror += 1;
        }
        if sp.is_afghan() && st.pop(x.d, s) > 0 {
            st[s].support = match x.f {
                Faction::Taliban => st[s].support.shifted(false),
                _ => Support::Neutral,
            };
        }
        x.say(format!("Terror in {}: now {:?}", sp.name, st[s].support));
    }
    Ok(())
}

/// 1.4.1: Taliban and Warlord players (only), while executing, may remove
/// their own pieces to Available (e.g. to place them again Underground).
pub fn return_pieces(
    x: &mut Exec,
    st: &mut State,
    s: SpaceNo,
    count: u8,
    kind: Kind,
    active: bool,
) -> Result<(), RuleError> {
    if x.f.is_coin() || st.seats.is_np(x.f) {
        return Err(x.ill(
            "only Taliban and Warlord players remove their own pieces to Available",
            "1.4.1",
        ));
    }
    let order: Vec<Piece> = match kind {
        Kind::Base => Piece::of(x.f, Kind::Base).into_iter().collect(),
        _ => {
            let (u, a) = guerrillas(x);
            if active { vec![a, u] } else { vec![u, a] }
        }
    };
    let here: u8 = order.iter().map(|p| st[s].pieces[*p]).sum();
    if here < count {
        return Err(x.ill(
            format!(
                "{} holds {here} {} {}, not {count}",
                x.name(s),
                x.f.name(),
                kind.key()
            ),
            "1.4.1",
        ));
    }
    let mut left = count;
    for p in order {
        left -= st.remove(s, p, left, false);
    }
    x.say(format!(
        "{}: {count} {} {} removed to Available (1.4.1)",
        x.name(s),
        x.f.name(),
        kind.key()
    ));
    Ok(())
}
