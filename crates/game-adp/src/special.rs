//! The twelve Special Activities (4.2-4.5), each at the point of its
//! Operation where its line stands (4.1).

use super::action::{Exec, check_path};
use super::data::{SpaceKind, SpaceNo, Support};
use super::orders::{Move, Op, Sa, SaKind, Suborn};
use super::pieces::{Faction, Kind, Piece};
use super::removal::{self, Reach};
use super::state::{Control, State};
use std::collections::BTreeSet;
use umpire_core::dice::Dice;
use umpire_core::ruleset::RuleError;

/// Carries out the Special Activity line.
pub fn execute(x: &mut Exec, st: &mut State, sa: &Sa, dice: &mut Dice) -> Result<(), RuleError> {
    let k = sa.kind();
    check(x, st, k)?;
    x.sa = Some(k);
    match sa {
        Sa::Surge { moves, roll } => surge(x, st, moves, *roll, dice),
        Sa::Airlift(moves) => airlift(x, st, moves),
        Sa::Airstrike(hits) => airstrike(x, st, hits, dice),
        Sa::Govern(v) => govern(x, st, v),
        Sa::Transport(m) => transport(x, st, m),
        Sa::Eradicate(v) => eradicate(x, st, v),
        Sa::Extort(v) => extort(x, st, v),
        Sa::Infiltrate {
            space,
            remove,
            replace,
        } => infiltrate(x, st, *space, remove, *replace),
        Sa::Ambush(v) => ambush(x, st, v),
        Sa::Cultivate(s) => cultivate(x, st, *s),
        Sa::Traffic(v) => traffic(x, st, v),
        Sa::Suborn(v) => suborn(x, st, v),
    }
}

fn check(x: &Exec, st: &State, k: SaKind) -> Result<(), RuleError> {
    if k.faction() != x.f {
        return Err(x.ill(
            format!("{} is a {} Special Activity", k.key(), k.faction().name()),
            k.rule(),
        ));
    }
    if x.sa.is_some() {
        return Err(x.ill("one Special Activity an Operation", "4.1"));
    }
    if !x.terms.sa_allowed || x.terms.final_card {
        return Err(x.ill(
            "no Special Activity is allowed with this Operation",
            if x.terms.final_card { "2.3.8" } else { "2.3.4" },
        ));
    }
    if x.limited {
        return Err(x.ill("no Special Activity with a Limited Operation", "4.1"));
    }
    let acc = k.accompanies();
    if !acc.is_empty() && !acc.contains(&x.op) {
        let names: Vec<&str> = acc.iter().map(|o| o.key()).collect();
        return Err(x.ill(
            format!("{} accompanies only {}", k.key(), names.join(" or ")),
            "4.1.1",
        ));
    }
    if let Some(card) = st.forbidden(x.f, k.key()) {
        return Err(x.ill(format!("card #{card} in play bars {}", k.key()), "5.3"));
    }
    Ok(())
}

fn few(x: &Exec, n: usize, most: usize, k: SaKind) -> Result<(), RuleError> {
    if n == 0 || n > most {
        return Err(x.ill(format!("{} uses 1 to {most} spaces", k.key()), k.rule()));
    }
    Ok(())
}

fn distinct(x: &Exec, v: &[SpaceNo], k: SaKind) -> Result<(), RuleError> {
    let set: BTreeSet<_> = v.iter().collect();
    if set.len() != v.len() {
        return Err(x.ill(format!("{} names each space once", k.key()), k.rule()));
    }
    Ok(())
}

fn surge(
    x: &mut Exec,
    st: &mut State,
    moves: &[(Move, bool, bool)],
    roll: Option<u8>,
    dice: &mut Dice,
) -> Result<(), RuleError> {
    let spaces: BTreeSet<SpaceNo> = moves
        .iter()
        .flat_map(|(m, _, _)| m.path.iter().copied())
        .collect();
    if spaces.len() > 3 {
        return Err(x.ill("Surge moves pieces among up to 3 spaces", "4.2.1"));
    }
    for s in &spaces {
        let sp = &x.d[*s];
        let ok =
            sp.is_city() || (sp.kind == SpaceKind::Province && st[*s].control == Control::Coin);
        if !ok {
            return Err(x.ill(
                format!(
                    "Surge spaces are Kabul or COIN-Controlled Provinces, not {}",
                    sp.name
                ),
                "4.2.1",
            ));
        }
    }
    for (m, from_avail, to_avail) in moves {
        let p = match m.kind {
            Some(Kind::Base) => Piece::CoalBase,
            _ => Piece::CoalTroops,
        };
        let from = (!from_avail).then(|| m.path[0]);
        let to = (!to_avail).then(|| m.path[m.path.len() - 1]);
        let have = from.map_or(st.available[p], |s| st[s].pieces[p]);
        if have < m.count {
            return Err(x.ill(format!("Surge: only {have} {} there", p.label()), "4.2.1"));
        }
        match from {
            Some(s) => st[s].pieces[p] -= m.count,
            None => st.available[p] -= m.count,
        }
        match to {
            Some(s) => st[s].pieces[p] += m.count,
            None => st.available[p] += m.count,
        }
        if let Some(s) = to
            && st[s].pieces.bases() > u32::from(x.d.limits.bases_per_space)
        {
            return Err(x.ill(
                format!("{} would hold more than 2 Bases", x.name(s)),
                "1.4.2",
            ));
        }
    }
    x.say(format!(
        "Surge: {}",
        super::card_text::plural(moves.len() as u32, "move", "moves")
    ));
    if let Some(w) = roll.filter(|_| !x.dry) {
        let r = dice.roll(
            6,
            "Coalition Surge: split between Aid and Warlord Resources (4.2.1)",
        )? as u8;
        let asked = w;
        let w = w.min(r);
        st.gain(x.d, Faction::Warlords, i32::from(w));
        st.add_aid(x.d, i32::from(r - w));
        // From version 10 the cut share is told (4.2.1: the die's number
        // is distributed fully, no more).
        let cut = if asked > w && x.d.version >= 10 {
            format!(" ({asked} asked: the die gives {r})")
        } else {
            String::new()
        };
        x.say(format!(
            "Surge roll {r}: {w} to the Warlords{cut}, {} to Aid",
            r - w
        ));
    }
    Ok(())
}

fn airlift(x: &mut Exec, st: &mut State, moves: &[Move]) -> Result<(), RuleError> {
    let spaces: BTreeSet<SpaceNo> = moves.iter().flat_map(|m| m.path.iter().copied()).collect();
    if spaces.len() > 3 || moves.is_empty() {
        return Err(x.ill("Air Lift moves Troops among any 3 spaces", "4.2.2"));
    }
    if let Some(s) = spaces.iter().find(|s| x.d[**s].is_pakistan()) {
        return Err(x.ill(
            format!("Air Lift never uses Pakistan ({})", x.name(*s)),
            "4.2.2",
        ));
    }
    // `N troops FROM>TO [with M]`: N Coalition and M Government Troops.
    let mut gov_total = 0u32;
    for m in moves {
        let (from, to) = (m.path[0], m.path[m.path.len() - 1]);
        for (p, n) in [(Piece::CoalTroops, m.count), (Piece::GovTroops, m.with)] {
            if st[from].pieces[p] < n {
                return Err(x.ill(
                    format!("{} has {} {}", x.name(from), st[from].pieces[p], p.label()),
                    "4.2.2",
                ));
            }
            st.shift_pieces(from, to, p, n);
        }
        gov_total += u32::from(m.with);
    }
    if gov_total > 3 {
        return Err(x.ill("Air Lift moves up to 3 Government Troops", "4.2.2"));
    }
    x.say(format!(
        "Air Lift: {}",
        super::card_text::plural(moves.len() as u32, "move", "moves")
    ));
    Ok(())
}

fn airstrike(
    x: &mut Exec,
    st: &mut State,
    hits: &[(SpaceNo, Faction)],
    dice: &mut Dice,
) -> Result<(), RuleError> {
    few(x, hits.len(), 3, SaKind::Airstrike)?;
    let spaces: Vec<SpaceNo> = hits.iter().map(|h| h.0).collect();
    distinct(x, &spaces, SaKind::Airstrike)?;
    let mut pakistan = false;
    for (s, f) in hits {
        if x.d[*s].is_city() {
            return Err(x.ill("no Air Strike in Kabul", "4.2.3"));
        }
        if f.is_coin() {
            return Err(x.ill("Air Strike targets Insurgents", "4.2.3"));
        }
        pakistan |= x.d[*s].is_pakistan();
        let n = 1 + st.extra_removals(x.f, "airstrike");
        let by = removal::By::of(st, x.f);
        let gone = removal::remove_up_to(
            x.d,
            st,
            *s,
            removal::Removal {
                n,
                targets: &[*f],
                reach: Reach::ActiveOnly,
                casualties: false,
                by,
            },
            dice,
        )?;
        x.say(format!(
            "Air Strike in {}: removed {}",
            x.name(*s),
            removal::describe(&gone)
        ));
    }
    if pakistan {
        st.shift_islamabad(1);
        x.say("Air Strike in Pakistan: Islamabad shifts toward Sponsorship (4.2.3)");
    }
    Ok(())
}

fn govern(x: &mut Exec, st: &mut State, v: &[(SpaceNo, bool)]) -> Result<(), RuleError> {
    few(x, v.len(), 2, SaKind::Govern)?;
    distinct(
        x,
        &v.iter().map(|g| g.0).collect::<Vec<_>>(),
        SaKind::Govern,
    )?;
    for (s, returnees) in v {
        let sp = &x.d[*s];
        let pop = st.pop(x.d, *s);
        if !sp.is_afghan()
            || st[*s].control != Control::Coin
            || !(st[*s].support == Support::Support || pop == 0)
        {
            return Err(x.ill(format!("Govern needs a COIN-Controlled Province or Kabul with Support or 0 Pop, not {}", sp.name), "4.3.1"));
        }
        if *returnees {
            let placed = st.spaces.iter().filter(|z| z.returnees).count() as u8;
            if st[*s].returnees || placed >= x.d.limits.returnees {
                return Err(x.ill("no Returnees marker to place there", "4.3.1"));
            }
            st[*s].returnees = true;
            x.say(format!(
                "Govern in {}: a +1 Pop Returnees marker; Population now {} (4.3.1)",
                sp.name,
                st.pop(x.d, *s)
            ));
        } else {
            if st[*s].pieces[Piece::CoalBase] > 0 {
                return Err(x.ill(
                    format!("Aid to Patronage needs no Coalition Base in {}", sp.name),
                    "4.3.1",
                ));
            }
            let t = pop.min(st.aid);
            st.aid -= t;
            st.add_patronage(x.d, i32::from(t));
            st[*s].support = Support::Neutral;
            x.say(format!(
                "Govern in {}: {t} Aid to Patronage (Aid now {}, Patronage {}); {} Neutral (4.3.1)",
                sp.name, st.aid, st.patronage, sp.name
            ));
        }
    }
    Ok(())
}

fn transport(x: &mut Exec, st: &mut State, m: &Move) -> Result<(), RuleError> {
    check_path(x, m)?;
    let from = m.path[0];
    if st[from].pieces[Piece::GovTroops] < m.count {
        return Err(x.ill(
            format!(
                "{} has {} Government Troops",
                x.name(from),
                st[from].pieces[Piece::GovTroops]
            ),
            "4.3.2",
        ));
    }
    let n = m.path.len();
    for (i, s) in m.path.iter().enumerate().skip(1) {
        let sp = &x.d[*s];
        let last = i + 1 == n;
        if i == 1 && !sp.is_loc() {
            return Err(x.ill("Transport first moves onto an adjacent LoC", "4.3.2"));
        }
        let through = sp.is_loc() || sp.is_city();
        if !last && !through {
            return Err(x.ill("Transport goes on along LoCs or through Kabul", "4.3.2"));
        }
        if sp.is_pakistan() {
            return Err(x.ill("Transport never enters Pakistan", "4.3.2"));
        }
        if st[*s].sabotage && !last {
            return Err(x.ill(
                format!("Transport stops at Sabotage on {}", sp.name),
                "4.3.2",
            ));
        }
        let g = st[*s].pieces.guerrillas(Faction::Taliban)
            + st[*s].pieces.guerrillas(Faction::Warlords);
        if g > 0 && st.res(Faction::Government) > 0 {
            st.resources[Faction::Government.index()] -= 1;
            st.gain(x.d, Faction::Warlords, 1);
            // Told and counted among the costs, not taken in silence.
            x.note_spent(
                "paid to the Warlords, Transport through",
                Some(*s),
                Faction::Government,
                1,
            );
            x.say(format!(
                "Transport through {}: the Government pays the Warlords 1 (4.3.2)",
                x.name(*s)
            ));
        }
    }
    let to = m.path[n - 1];
    st.shift_pieces(from, to, Piece::GovTroops, m.count);
    x.say(format!(
        "Transport: {} Government Troops {} to {}",
        m.count,
        x.name(from),
        x.name(to)
    ));
    Ok(())
}

fn eradicate(x: &mut Exec, st: &mut State, v: &[SpaceNo]) -> Result<(), RuleError> {
    few(x, v.len(), 2, SaKind::Eradicate)?;
    distinct(x, v, SaKind::Eradicate)?;
    for s in v {
        let sp = &x.d[*s];
        let p = st[*s].pieces;
        if sp.kind != SpaceKind::Province
            || st[*s].control != Control::Coin
            || p.gov_cubes() == 0
            || p[Piece::WarBase] == 0
        {
            return Err(x.ill(format!("Eradicate needs a COIN-Controlled Province with Government cubes and a Warlord Base, not {}", sp.name), "4.3.3"));
        }
        st.add_aid(x.d, 3);
        st.add_patronage(x.d, 1);
        st.remove(*s, Piece::WarBase, 1, false);
        if sp.is_afghan() && st.pop(x.d, *s) > 0 {
            st[*s].support = st[*s].support.shifted(false);
        }
        let mut guerrilla = "";
        if sp.pashtun {
            let k = st.place(*s, Piece::TalUnder, 1);
            guerrilla = match (k, x.d.version >= 10) {
                (0, true) => "; no Taliban Guerrilla Available to place (1.4.1)",
                (_, true) => "; a Taliban Guerrilla placed (Pashtun)",
                _ => "",
            };
        }
        x.say(format!(
            "Eradicate in {}: +3 Aid, +1 Patronage, a Warlord Base removed{guerrilla}",
            sp.name
        ));
    }
    Ok(())
}

fn extort(x: &mut Exec, st: &mut State, v: &[SpaceNo]) -> Result<(), RuleError> {
    if v.is_empty() {
        return Err(x.ill("Extort names its spaces", "4.4.1"));
    }
    distinct(x, v, SaKind::Extort)?;
    for s in v {
        let p = st[*s].pieces;
        if p[Piece::TalUnder] == 0 || p.of(Faction::Taliban) <= p.total() - p.of(Faction::Taliban) {
            return Err(x.ill(format!("Extort needs an Underground Taliban Guerrilla and more Taliban than other pieces in {} (ruling A25)", x.name(*s)), "4.4.1"));
        }
        st[*s].pieces[Piece::TalUnder] -= 1;
        st[*s].pieces[Piece::TalActive] += 1;
        let wb = p[Piece::WarBase];
        if wb > 0 {
            let t = (2 * wb).min(st.res(Faction::Warlords));
            st.resources[Faction::Warlords.index()] -= t;
            st.gain(x.d, Faction::Taliban, i32::from(t));
            let short = if t < 2 * wb && x.d.version >= 10 {
                format!(" of {} (all the Warlords had, ruling A25)", 2 * wb)
            } else {
                String::new()
            };
            x.say(format!(
                "Extort in {}: the Warlords pay the Taliban {t} Resources{short}; Taliban Resources now {} (4.4.1)",
                x.name(*s),
                st.res(Faction::Taliban)
            ));
        } else {
            let sp = &x.d[*s];
            let g = if sp.is_loc() && !st[*s].sabotage {
                sp.econ
            } else {
                1
            };
            st.gain(x.d, Faction::Taliban, i32::from(g));
            // 4.4.1: +1 Resource in a space, a LoC's Econ value on an
            // unsabotaged LoC.
            x.say(format!(
                "Extort in {}: +{g} Taliban Resources{}; Taliban Resources now {} (4.4.1)",
                sp.name,
                if sp.is_loc() && !st[*s].sabotage {
                    " (the LoC's Econ value)"
                } else {
                    ""
                },
                st.res(Faction::Taliban)
            ));
        }
    }
    Ok(())
}

fn infiltrate(
    x: &mut Exec,
    st: &mut State,
    s: SpaceNo,
    remove: &[Faction],
    replace: Option<Faction>,
) -> Result<(), RuleError> {
    if st[s].pieces[Piece::TalUnder] == 0 {
        return Err(x.ill(
            format!(
                "Infiltrate needs an Underground Taliban Guerrilla in {}",
                x.name(s)
            ),
            "4.4.2",
        ));
    }
    let bad = |f: &Faction| !matches!(f, Faction::Government | Faction::Warlords);
    if remove.iter().any(bad) || replace.iter().any(bad) || remove.len() > 2 {
        return Err(x.ill(
            "Infiltrate removes up to 2 Government or Warlord pieces, or replaces 1",
            "4.4.2",
        ));
    }
    let mut gone = Vec::new();
    // From version 9 a Non-player picks by the 8.1 GUIDELINES.
    let np = x.d.version >= 9 && st.seats.is_np(x.f);
    let told = x.d.version >= 10;
    let mut notes = Vec::new();
    for f in remove.iter().chain(replace.iter()) {
        // Coalition Troops do not shield Government Bases here (4.4.2).
        let p = infiltrate_target(st, s, *f, np, &gone);
        if let Some(p) = p {
            st.remove(s, p, 1, false);
            gone.push(p);
        } else if told {
            notes.push(format!("no {} piece to take", f.name()));
        }
    }
    if replace.is_some() && !gone.is_empty() {
        let k = st.place(s, Piece::TalUnder, 1);
        if told {
            notes.push(if k > 0 {
                "replaced by an Underground Taliban Guerrilla".to_string()
            } else {
                "removed, not replaced: no Taliban Guerrilla Available (1.4.1)".to_string()
            });
        }
    }
    let gov = gone
        .iter()
        .filter(|p| p.faction() == Faction::Government)
        .count() as i32;
    st.add_patronage(x.d, -gov);
    let notes = if notes.is_empty() {
        String::new()
    } else {
        format!("; {}", notes.join("; "))
    };
    x.say(format!(
        "Infiltrate in {}: removed {}{notes}",
        x.name(s),
        removal::describe(&gone)
    ));
    Ok(())
}

/// The piece of `f` Infiltrate takes next: a Base only after the faction's
/// cubes or Guerrillas (4.4.2). A player's Police and Active Guerrillas go
/// first; a Non-player (`np`) removes "Underground before Active
/// Guerrillas, and Police then Troops evenly" (8.1 GUIDELINES), `gone`
/// being what it took already.
fn infiltrate_target(
    st: &State,
    s: SpaceNo,
    f: Faction,
    np: bool,
    gone: &[Piece],
) -> Option<Piece> {
    let p = &st[s].pieces;
    let taken = |k: Piece| gone.iter().filter(|x| **x == k).count();
    match f {
        Faction::Government => {
            let troops_next = np && taken(Piece::Police) > taken(Piece::GovTroops);
            let order = if troops_next {
                [Piece::GovTroops, Piece::Police]
            } else {
                [Piece::Police, Piece::GovTroops]
            };
            order
                .into_iter()
                .find(|x| p[*x] > 0)
                .or((p[Piece::GovBase] > 0).then_some(Piece::GovBase))
        }
        Faction::Warlords if np => [Piece::WarUnder, Piece::WarActive]
            .into_iter()
            .find(|x| p[*x] > 0)
            .or_else(|| removal::next_piece(st, s, f, Reach::Any)),
        _ => removal::next_piece(st, s, f, Reach::Any),
    }
}

fn ambush(x: &mut Exec, st: &mut State, v: &[SpaceNo]) -> Result<(), RuleError> {
    few(x, v.len(), 3, SaKind::Ambush)?;
    distinct(x, v, SaKind::Ambush)?;
    for s in v {
        if x.selected.contains(s) {
            return Err(x.ill(
                format!(
                    "Ambush is in Attack spaces not yet resolved, and {} was",
                    x.name(*s)
                ),
                "4.4.3",
            ));
        }
        if st[*s].pieces[Piece::TalUnder] == 0 {
            return Err(x.ill(
                format!(
                    "Ambush needs an Underground Taliban Guerrilla in {}",
                    x.name(*s)
                ),
                "4.4.3",
            ));
        }
    }
    x.ambush = v.to_vec();
    x.say("Ambush declared".to_string());
    Ok(())
}

fn cultivate(x: &mut Exec, st: &mut State, s: SpaceNo) -> Result<(), RuleError> {
    let sp = &x.d[s];
    let chosen = (x.op == Op::Rally && x.selected.contains(&s))
        || (x.op == Op::March && x.destinations.contains(&s));
    let p = st[s].pieces;
    if !chosen
        || sp.kind != SpaceKind::Province
        || st.pop(x.d, s) == 0
        || p.guerrillas(Faction::Warlords) <= u32::from(p[Piece::Police])
    {
        return Err(x.ill(format!("Cultivate needs a Province of the Rally or a March destination, Pop > 0, more Warlord Guerrillas than Police: not {}", sp.name), "4.5.1"));
    }
    if p.bases() >= u32::from(x.d.limits.bases_per_space) {
        return Err(x.ill(format!("{} already holds 2 Bases", sp.name), "1.4.2"));
    }
    let k = st.place(s, Piece::WarBase, 1);
    x.say(format!("Cultivate in {}: {k} Warlord Base placed", sp.name));
    Ok(())
}

fn traffic(x: &mut Exec, st: &mut State, v: &[SpaceNo]) -> Result<(), RuleError> {
    if v.is_empty() {
        return Err(x.ill("Traffic names its spaces", "4.5.2"));
    }
    distinct(x, v, SaKind::Traffic)?;
    for s in v {
        let p = st[*s].pieces;
        if p[Piece::WarBase] == 0 || p.of(Faction::Coalition) > 0 {
            return Err(x.ill(
                format!(
                    "Traffic needs a Warlord Base and no Coalition pieces in {}",
                    x.name(*s)
                ),
                "4.5.2",
            ));
        }
        st.gain(x.d, Faction::Warlords, i32::from(p[Piece::WarBase]));
        match st[*s].control {
            Control::Taliban => st.gain(x.d, Faction::Taliban, 1),
            Control::Coin => st.add_patronage(x.d, 1),
            Control::None => {}
        }
        x.say(format!(
            "Traffic in {}: +{} Warlord Resources",
            x.name(*s),
            p[Piece::WarBase]
        ));
    }
    Ok(())
}

/// Suborn (4.5.3): in up to 3 spaces with a Warlord Guerrilla, at 2
/// Resources each.
fn suborn(x: &mut Exec, st: &mut State, v: &[(SpaceNo, Suborn)]) -> Result<(), RuleError> {
    few(x, v.len(), 3, SaKind::Suborn)?;
    distinct(
        x,
        &v.iter().map(|z| z.0).collect::<Vec<_>>(),
        SaKind::Suborn,
    )?;
    for (s, what) in v {
        suborn_space(x, st, *s, what)?;
    }
    Ok(())
}

/// Suborn in space `s`: paid, then `what` removed or flipped, then told.
fn suborn_space(x: &mut Exec, st: &mut State, s: SpaceNo, what: &Suborn) -> Result<(), RuleError> {
    if st[s].pieces.guerrillas(Faction::Warlords) == 0 {
        return Err(x.ill(
            format!(
                "Suborn needs a Warlord Guerrilla in {} (ruling A6)",
                x.name(s)
            ),
            "4.5.3",
        ));
    }
    if st.res(Faction::Warlords) < 2 && !x.terms.free {
        return Err(x.ill("Suborn costs 2 Warlord Resources a space", "4.5.3"));
    }
    if !x.terms.free {
        st.resources[Faction::Warlords.index()] -= 2;
        x.note_spent("Suborn in", Some(s), Faction::Warlords, 2);
    }
    let told = x.d.version >= 10;
    if let Suborn::Cubes(n) = what
        && *n > 3
        && told
    {
        // Version 9 took 3 and dropped the rest silently.
        return Err(x.ill(
            format!("Suborn removes up to 3 Government cubes a space, not {n}"),
            "4.5.3",
        ));
    }
    let gone = suborn_remove(x, st, s, what)?;
    suborn_report(x, s, what, &gone);
    Ok(())
}

/// What Suborn takes from space `s` (4.5.3): up to 3 Government cubes
/// (Police first), a Government Base where no cube is left (ruling A6), a
/// Taliban Guerrilla (Active first); or it flips the Warlords Underground.
fn suborn_remove(
    x: &Exec,
    st: &mut State,
    s: SpaceNo,
    what: &Suborn,
) -> Result<Vec<Piece>, RuleError> {
    let mut gone = Vec::new();
    match what {
        Suborn::Cubes(n) => {
            for _ in 0..(*n).min(3) {
                if let Some(p) = [Piece::Police, Piece::GovTroops]
                    .into_iter()
                    .find(|p| st[s].pieces[*p] > 0)
                {
                    st.remove(s, p, 1, false);
                    gone.push(p);
                }
            }
        }
        Suborn::Base => {
            if st[s].pieces.gov_cubes() > 0 {
                return Err(x.ill(
                    "a Government Base goes only when no Government cubes are there (ruling A6)",
                    "4.5.3",
                ));
            }
            if st.remove(s, Piece::GovBase, 1, false) > 0 {
                gone.push(Piece::GovBase);
            }
        }
        Suborn::Guerrilla => {
            if let Some(p) = [Piece::TalActive, Piece::TalUnder]
                .into_iter()
                .find(|p| st[s].pieces[*p] > 0)
            {
                st.remove(s, p, 1, false);
                gone.push(p);
            }
        }
        Suborn::Flip => {
            removal::flip_underground(st, s, Faction::Warlords);
        }
    }
    Ok(gone)
}

/// The report of Suborn in space `s`: what went, and (from version 10) what
/// was asked for and not there.
fn suborn_report(x: &mut Exec, s: SpaceNo, what: &Suborn, gone: &[Piece]) {
    let told = x.d.version >= 10;
    let short = match what {
        Suborn::Cubes(n) if told && gone.len() < usize::from(*n) => {
            format!(" ({n} asked; no more Government cubes there)")
        }
        Suborn::Base | Suborn::Guerrilla if told && gone.is_empty() => {
            " (none there to remove)".to_string()
        }
        _ => String::new(),
    };
    x.say(if matches!(what, Suborn::Flip) && told {
        format!(
            "Suborn in {}: Warlord Guerrillas flipped Underground",
            x.name(s)
        )
    } else {
        format!(
            "Suborn in {}: removed {}{short}",
            x.name(s),
            removal::describe(gone)
        )
    });
}
