//! Player-chosen set-ups (26.0). Where a scenario reads "in any city(ies) in
//! North India" the pieces are a choice ([`Pick`]) of the player the
//! scenario names ("set up by the British"), and they start where
//! `scenarios.toml` puts them by default. The first setter, then the second,
//! sends one mail: `place PIECES at CITY` and `place KIND from CITY at CITY`,
//! each checked against its choice's limits at once; the mail's end (`done`,
//! implied) checks "at least one unit per city" (ruling A58) and the forts'
//! garrisons (S2 4.3(2)). What a setter does not move stands, so a setter who
//! does not answer by the deadline keeps the defaults, which meet every limit
//! (checked when the data load). Ruling (A68): the set-up is sequential, as
//! the rulebook orders it: under the fog of war (22.1) the second setter sees
//! only what his pieces and regions let him see, and the markers (22.2), so
//! the orders and their events go to their setter alone. Option
//! `setup=sealed` (the digest's house option, 2.4) makes it one sealed round
//! of the engine instead ([`Stage::SetupSealed`]): both mails are sealed
//! commitments until both are in, then carried out, British then Russian.
//! Each mail is checked on its own when it arrives. The setters' choices
//! share a region only for pieces that cannot clash (S1: Burnes in an
//! Afghan city, S2: the Russian trading posts); a marker the other setter
//! placed first on the same square would leave the later one where it
//! stood, not carried out, as in the economy (ruling A49).

use super::data::{Data, MarkerKind, Pick, Power};
use super::geom::Sq;
use super::movement::Piece;
use super::state::{Loc, Stage, State};
use super::turn::Ctx;
use umpire_core::ruleset::RuleError;

/// The rule a choice is printed under, e.g. `26.0 S1 4.3(1)`.
fn rule(d: &Data, st: &State, pick: &Pick) -> String {
    format!("26.0 {} {}", st.sc(d).key.to_ascii_uppercase(), pick.key)
}

/// The choice of `p` a piece belongs to.
fn pick_of(d: &Data, st: &State, p: Power, x: Piece) -> Option<usize> {
    let picks = &st.sc(d).picks;
    st.picks.iter().enumerate().position(|(g, pp)| {
        picks[g].setter == p
            && match x {
                Piece::Unit(u) => pp.units.contains(&u),
                Piece::Agent(a) => pp.agents.contains(&a),
            }
    })
}

fn name(d: &Data, st: &State, x: Piece) -> String {
    match x {
        Piece::Unit(u) => st.unit(u).id.to_string(),
        Piece::Agent(a) => d.agents[a].id.clone(),
    }
}

/// `place PIECES at SQUARE`: each piece one of `p`'s choices allowing `to`.
pub fn place(
    ctx: &mut Ctx,
    st: &mut State,
    p: Power,
    pieces: &[Piece],
    to: Sq,
) -> Result<(), RuleError> {
    let d = ctx.d;
    for x in pieces {
        let Some(g) = pick_of(d, st, p, *x) else {
            return Err(RuleError::illegal(
                format!(
                    "{} is not a piece the scenario lets you set up",
                    name(d, st, *x)
                ),
                "26.0",
            ));
        };
        let pick = &st.sc(d).picks[g];
        if !pick.allows(d, to) {
            return Err(RuleError::illegal(
                format!(
                    "{} sets up in the {}, not on {to}",
                    name(d, st, *x),
                    pick.describe(d)
                ),
                &rule(d, st, pick),
            ));
        }
    }
    for x in pieces {
        match x {
            Piece::Unit(u) => st.unit_mut(*u).loc = Loc::Sq(to),
            Piece::Agent(a) => st.agent_mut(*a).loc = Loc::Sq(to),
        }
    }
    let names: Vec<String> = pieces.iter().map(|x| name(d, st, *x)).collect();
    ctx.tell(p, format!("Set up {} on {to} (26.0).", names.join(" ")));
    Ok(())
}

/// `place KIND from SQUARE at SQUARE`: one of `p`'s choice markers moves.
pub fn place_marker(
    ctx: &mut Ctx,
    st: &mut State,
    p: Power,
    kind: MarkerKind,
    from: Sq,
    to: Sq,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let picks = &st.sc(d).picks;
    let found = st.picks.iter().enumerate().find_map(|(g, pp)| {
        let i = pp
            .markers
            .iter()
            .position(|m| m.sq == from && m.kind == kind && m.owner == p)?;
        (picks[g].setter == p).then_some((g, i))
    });
    let Some((g, i)) = found else {
        return Err(RuleError::illegal(
            format!("no {} of yours to set up stands on {from}", kind.key()),
            "26.0",
        ));
    };
    let pick = &picks[g];
    if !pick.allows(d, to) {
        return Err(RuleError::illegal(
            format!(
                "this {} sets up in the {}, not on {to}",
                kind.key(),
                pick.describe(d)
            ),
            &rule(d, st, pick),
        ));
    }
    if st.markers_at(to).any(|m| m.kind == kind || m.owner != p) {
        return Err(RuleError::illegal(
            format!(
                "{to} already holds a {} or the other player's marker",
                kind.key()
            ),
            "20.21",
        ));
    }
    let old = st.picks[g].markers[i];
    let new = super::state::Marker { sq: to, ..old };
    st.picks[g].markers[i] = new;
    if let Some(j) = st.markers.iter().position(|m| *m == old) {
        st.markers[j] = new;
    }
    st.markers.sort();
    ctx.tell(
        p,
        format!("Set up the {} from {from} on {to} (26.0).", kind.key()),
    );
    Ok(())
}

/// Whether `p`'s choices meet their limits; the first that does not, with its rule.
pub fn check(d: &Data, st: &State, p: Power) -> Result<(), RuleError> {
    for (g, pick) in st.sc(d).picks.iter().enumerate() {
        if pick.setter != p {
            continue;
        }
        let pp = &st.picks[g];
        let squares = |us: &[super::state::UnitId]| {
            let mut v: Vec<Sq> = us.iter().filter_map(|u| st.unit(*u).loc.sq()).collect();
            v.sort();
            v
        };
        if pick.each_city {
            let held = squares(&pp.units);
            for r in &pick.regions {
                for c in &d.reg(*r).cities {
                    let s = d.city(*c).sq;
                    if !held.contains(&s) {
                        return Err(RuleError::illegal(
                            format!(
                                "{} needs at least one unit of {} in every city; {} has none",
                                pick.key,
                                d.reg(*r).name,
                                d.city(*c).name
                            ),
                            &format!("{}, ruling A58", rule(d, st, pick)),
                        ));
                    }
                }
            }
        }
        if pick.paired {
            let mut ms: Vec<Sq> = pp.markers.iter().map(|m| m.sq).collect();
            ms.sort();
            if squares(&pp.units) != ms {
                return Err(RuleError::illegal(
                    format!("{}: one unit in each of its markers' squares", pick.key),
                    &rule(d, st, pick),
                ));
            }
        }
    }
    Ok(())
}

/// The end of `p`'s set-up: the limits, then the other setter or the game.
pub fn done(ctx: &mut Ctx, st: &mut State, p: Power) -> Result<(), RuleError> {
    let d = ctx.d;
    check(d, st, p)?;
    ctx.say(format!("The {} have set up (26.0).", p.people()), vec![]);
    if st.stage == Stage::SetupSealed {
        // The sealed house option: the set-up ends when both are in.
        st.sealed[p.index()] = true;
        if st.sealed == [true, true] {
            st.sealed = [false, false];
            st.picks.clear();
            st.stage = Stage::Initiative;
            ctx.say(
                "Both set-ups are in and carried out (26.0, sealed).",
                vec![],
            );
        }
        return Ok(());
    }
    if p == st.sc(d).first_setter {
        st.stage = Stage::Setup(p.other());
    } else {
        st.picks.clear();
        st.stage = Stage::Initiative;
    }
    Ok(())
}

/// The setter's status lines: each choice, its limits and its pieces.
pub fn status(d: &Data, st: &State, viewer: umpire_core::ruleset::Viewer) -> Vec<String> {
    let mut out = Vec::new();
    for (g, pick) in st.sc(d).picks.iter().enumerate() {
        let s = pick.setter;
        if !st.setting_up(s) || !super::view::owns(viewer, s) {
            continue;
        }
        let pp = &st.picks[g];
        let mut items: Vec<String> = Vec::new();
        for u in &pp.units {
            let at = st.unit(*u).loc.sq().map_or("?".into(), |q| q.to_string());
            items.push(format!("{}@{at}", st.unit(*u).id));
        }
        for a in &pp.agents {
            let at = st.agent(*a).loc.sq().map_or("?".into(), |q| q.to_string());
            items.push(format!("{}@{at}", d.agents[*a].id));
        }
        for m in &pp.markers {
            items.push(format!("{}@{}", m.kind.key(), m.sq));
        }
        // The choice is named by its rule, once (`Set-up 26.0 S1 3.4(1):`).
        out.push(format!("Set-up {}:", rule(d, st, pick)));
        out.push(format!("  in the {}", pick.describe(d)));
        // Pieces in lines that fit a 72-column mail.
        let mut line = String::from(" ");
        for i in items {
            if line.len() + i.len() + 1 > 68 {
                out.push(std::mem::replace(&mut line, String::from(" ")));
            }
            line.push(' ');
            line.push_str(&i);
        }
        if !line.trim().is_empty() {
            out.push(line);
        }
    }
    out
}

/// Set-up mails `p` could send: the defaults as they stand, and a few
/// single moves that keep every limit (for self-play).
pub fn samples(d: &Data, st: &State, p: Power) -> Vec<String> {
    let mut out = vec!["done".to_string()];
    for (g, pick) in st.sc(d).picks.iter().enumerate() {
        if pick.setter != p || out.len() >= 6 {
            continue;
        }
        let pp = &st.picks[g];
        let targets: Vec<Sq> = pick
            .regions
            .iter()
            .flat_map(|r| d.reg(*r).cities.iter().map(|c| d.city(*c).sq))
            .filter(|s| pick.allows(d, *s))
            .collect();
        if let Some(u) = pp.units.last() {
            for t in targets
                .iter()
                .filter(|t| st.unit(*u).loc != Loc::Sq(**t))
                .take(2)
            {
                let mut trial = st.clone();
                trial.unit_mut(*u).loc = Loc::Sq(*t);
                if check(d, &trial, p).is_ok() {
                    out.push(format!("place {} at {t}", st.unit(*u).id));
                }
            }
        }
        if let (Some(a), Some(t)) = (pp.agents.first(), targets.first()) {
            out.push(format!("place {} at {t}", d.agents[*a].id));
        }
        if let Some(m) = pp.markers.first()
            && let Some(t) = targets
                .iter()
                .find(|t| !st.markers_at(**t).any(|x| x.kind == m.kind || x.owner != p))
            && !pick.paired
        {
            out.push(format!("place {} from {} at {t}", m.kind.key(), m.sq));
        }
    }
    out
}
