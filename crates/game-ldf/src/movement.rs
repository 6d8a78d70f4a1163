//! Movement actions (8.2-8.5, 11.3, 12.x): land moves hex by hex with
//! drop-offs and a leader's pick-ups, narrows, rebel conversion on the way
//! (8.3), sea moves port to port (12.6) and riverine moves (12.7).

use super::data::{Data, Kind, Region, UnitId};
use super::effects::{Ctx, entered, illegal, occupied_in_place};
use super::entry::may_enter;
use super::orders::{Force, Step};
use super::stacking;
use super::state::{Faction, Loc, Player, State};
use super::zoc::in_ezoc;
use std::collections::BTreeSet;
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// The units of a force and their faction, checked (8.2, 8.3, 8.4).
pub fn resolve(
    d: &Data,
    st: &State,
    p: Player,
    f: &Force,
) -> Result<(Vec<UnitId>, Faction), RuleError> {
    let h = f.from;
    let mine = |u: &UnitId| st.owner(d, *u) == Some(p);
    let units: Vec<UnitId> = match &f.units {
        Some(v) => {
            for u in v {
                if st.hex_of(*u) != Some(h) {
                    return Err(illegal(format!("{} is not in {h}", d.uid(*u)), "8.2"));
                }
                if !mine(u) {
                    return Err(illegal(
                        format!("{} is not yours to command", d.uid(*u)),
                        "1.2",
                    ));
                }
            }
            v.clone()
        }
        None => st
            .at(h)
            .filter(|u| mine(u) && !d.kind(*u).is_static())
            .collect(),
    };
    if units.is_empty() {
        return Err(illegal(
            format!("you have no unit in {h} that can do that"),
            "8.2",
        ));
    }
    if let Some(u) = units.iter().find(|u| d.kind(**u).is_static()) {
        return Err(illegal(
            format!("{} is a static unit and never moves", d.uid(*u)),
            "2.4",
        ));
    }
    if !units.iter().any(|u| d.kind(*u).is_mobile()) {
        return Err(illegal(
            "a leader moves only with one or more mobile units",
            "8.4",
        ));
    }
    let fs: BTreeSet<Faction> = units.iter().map(|u| st.faction(d, *u)).collect();
    let f0 = *fs.iter().next().unwrap_or(&Faction::Loyal);
    if fs.len() > 1 {
        return Err(illegal("one force is of one nationality", "10.5"));
    }
    if f0 == Faction::PalmyraIdle {
        return Err(illegal("inactive Palmyrans may not move or attack", "9.2"));
    }
    if f0 == Faction::Rebel && !units.iter().any(|u| d.kind(*u) == Kind::CoEmperor) {
        return Err(illegal(
            "rebel Roman units move only with the rebel co-emperor",
            "8.3",
        ));
    }
    Ok((units, f0))
}

/// Movement points of each unit at the start (2.6, 8.4, 8.5).
pub fn allowances(d: &Data, units: &[UnitId], inspired: bool) -> Vec<u32> {
    let v = &d.values;
    let leader = units.iter().any(|u| d.kind(*u).is_leader());
    let has_inf = units
        .iter()
        .any(|u| d.kind(*u).is_mobile() && d.kind(*u) != Kind::Cavalry);
    let bonus = if leader { v.leader_bonus } else { 0 } + u32::from(inspired);
    let cav = if has_inf && !leader {
        v.mf_infantry
    } else {
        v.mf_cavalry
    };
    let cav_present = units.iter().any(|u| d.kind(*u) == Kind::Cavalry);
    units
        .iter()
        .map(|u| match d.kind(*u) {
            Kind::Cavalry => cav + bonus,
            k if k.is_leader() && cav_present => cav + bonus,
            _ => v.mf_infantry + bonus,
        })
        .collect()
}

/// A land move (8.2, 12.x).
pub fn land(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    force: &Force,
    path: &[Step],
    inspired: bool,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let (units, f) = resolve(d, st, p, force)?;
    let mut m = LandMove {
        mp: allowances(d, &units, inspired),
        leader: units.iter().any(|u| d.kind(*u).is_leader()),
        units,
        f,
        inspired,
        cur: force.from,
        picked: BTreeSet::new(),
        touched: vec![force.from],
        rolled: BTreeSet::new(),
        steps: path.iter().filter(|s| matches!(s, Step::To(_))).count(),
        done: 0,
        route: vec![force.from.to_string()],
    };
    if !m.moves_off(ctx, st)? {
        return Ok(());
    }
    for step in path {
        match step {
            Step::Drop(v) => m.drop_off(d, v)?,
            Step::Pick(v) => m.pick_up(d, st, v)?,
            Step::To(n) => match m.enter(ctx, st, *n)? {
                Next::Go => {}
                Next::Stop => break,
                Next::Over => return Ok(()),
            },
        }
    }
    m.touched.push(m.cur);
    if let Err((msg, r)) = stacking::check_hexes(d, st, &m.touched) {
        return Err(illegal(msg, r));
    }
    let told = if ctx.version >= 15 {
        m.account(d)
    } else {
        String::new()
    };
    ctx.say(
        format!(
            "{} moves {} to {}{told}",
            force_name(d, &m.units),
            force.from,
            d.hex_name(m.cur)
        ),
        vec![force.from, m.cur],
    );
    Ok(())
}

/// What a land move does after entering a hex.
enum Next {
    /// Goes on along its path.
    Go,
    /// Stops there.
    Stop,
    /// The game is over.
    Over,
}

/// A land move under way.
struct LandMove {
    /// The moving units, with `mp` their movement points left.
    units: Vec<UnitId>,
    mp: Vec<u32>,
    f: Faction,
    inspired: bool,
    /// A leader moved with the force from the start (8.2, 8.4).
    leader: bool,
    /// Where the force is.
    cur: Hex,
    /// Units picked up on the way (8.2).
    picked: BTreeSet<UnitId>,
    /// Hexes whose stacking is checked at the end (units left there).
    touched: Vec<Hex>,
    /// Hexes whose conversions were rolled for (8.3).
    rolled: BTreeSet<Hex>,
    /// Hexes on the path, and how many were entered.
    steps: usize,
    done: usize,
    /// The hexes entered, with the drop-offs and pick-ups made in each, for
    /// the narration (version 15).
    route: Vec<String>,
}

impl LandMove {
    /// The path and its cost in words (version 15): `: by 3016, 3117
    /// (drops v3), 3217; 2 MP spent, one a hex (12.4): v1 v2 have 3 left`.
    fn account(&self, d: &Data) -> String {
        let mut left: std::collections::BTreeMap<u32, Vec<&str>> = Default::default();
        for (u, mp) in self.units.iter().zip(&self.mp) {
            left.entry(*mp).or_default().push(d.uid(*u));
        }
        let left: Vec<String> = left
            .iter()
            .map(|(mp, us)| {
                let have = if us.len() == 1 { "has" } else { "have" };
                format!("{} {have} {mp} left", us.join(" "))
            })
            .collect();
        format!(
            ": by {}; {} MP spent, one a hex (12.4): {}",
            self.route.join(", "),
            self.done,
            left.join(", ")
        )
    }

    /// May the force move off from its hex (8.3, 11.1, 11.4)? `false`: the
    /// move ends before it starts, said so.
    fn moves_off(&mut self, ctx: &mut Ctx, st: &mut State) -> Result<bool, RuleError> {
        let d = ctx.d;
        let (cur, f) = (self.cur, self.f);
        if f == Faction::Rebel && ctx.version >= 14 {
            // 8.3: a rebel force's move "would have to start with a conversion
            // die roll for each adjacent hexes containing a loyal Roman force"
            // (a lone garrison or base too, which exerts no ZOC); "if those die
            // rolls all resulted in conversions, the rebel leader and his force
            // could then actually move off". Version 13 rolled only when the
            // force stood in an enemy zone of control.
            let rolls = loyal_adjacent(d, st, cur);
            if (rolls || in_ezoc(d, st, cur, f))
                && (!convert_around(ctx, st, cur, &mut self.rolled)? || in_ezoc(d, st, cur, f))
            {
                ctx.say(
                    format!("the rebel co-emperor's force cannot move off from {cur}: the move ends there (8.3)"),
                    vec![cur],
                );
                return Ok(false);
            }
        } else if in_ezoc(d, st, cur, f) {
            if f != Faction::Rebel {
                return Err(illegal(
                    format!("a unit may not leave an enemy zone of control ({cur})"),
                    "11.1, 11.4",
                ));
            }
            if !convert_around(ctx, st, cur, &mut self.rolled)? || in_ezoc(d, st, cur, f) {
                ctx.say(
                    "the rebel co-emperor cannot break out: the move ends (8.3)",
                    vec![cur],
                );
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `drop UNITS`: units left where the force is (8.2, 14.3).
    fn drop_off(&mut self, d: &Data, v: &[UnitId]) -> Result<(), RuleError> {
        if self.inspired {
            return Err(illegal(
                "a force moving with Inspired Subordinates may not drop off units",
                "14.3",
            ));
        }
        for u in v {
            if self.picked.contains(u) {
                return Err(illegal(
                    format!("{} was picked up and must stay with its leader", d.uid(*u)),
                    "8.2",
                ));
            }
            let Some(i) = self.units.iter().position(|x| x == u) else {
                return Err(illegal(
                    format!("{} is not in the moving force", d.uid(*u)),
                    "8.2",
                ));
            };
            self.units.remove(i);
            self.mp.remove(i);
        }
        self.touched.push(self.cur);
        self.note(d, "drops", v);
        Ok(())
    }

    /// A drop-off or pick-up, told after the hex it was made in.
    fn note(&mut self, d: &Data, what: &str, v: &[UnitId]) {
        let names: Vec<&str> = v.iter().map(|u| d.uid(*u)).collect();
        if let Some(last) = self.route.last_mut() {
            last.push_str(&format!(" ({what} {})", names.join(" ")));
        }
    }

    /// `pick UNITS`: units a leader's force takes along (8.2, 8.4).
    fn pick_up(&mut self, d: &Data, st: &State, v: &[UnitId]) -> Result<(), RuleError> {
        if !self.leader {
            return Err(illegal(
                "only a force with a leader from the start may pick up units",
                "8.2, 8.4",
            ));
        }
        let lmp = self
            .units
            .iter()
            .zip(&self.mp)
            .filter(|(u, _)| d.kind(**u).is_leader())
            .map(|(_, m)| *m)
            .max()
            .unwrap_or(0);
        let cur = self.cur;
        for u in v {
            if st.hex_of(*u) != Some(cur)
                || self.units.contains(u)
                || st.faction(d, *u) != self.f
                || !d.kind(*u).is_mobile()
            {
                return Err(illegal(
                    format!("{} cannot be picked up in {cur}", d.uid(*u)),
                    "8.2",
                ));
            }
            let own = if d.kind(*u) == Kind::Cavalry {
                lmp
            } else {
                lmp.min(d.values.mf_infantry + d.values.leader_bonus)
            };
            self.units.push(*u);
            self.mp.push(own);
            self.picked.insert(*u);
        }
        self.note(d, "picks up", v);
        Ok(())
    }

    /// Enters the next hex `n` (12.2, 12.4, 11.3).
    fn enter(&mut self, ctx: &mut Ctx, st: &mut State, n: Hex) -> Result<Next, RuleError> {
        let d = ctx.d;
        let f = self.f;
        if !d.linked(self.cur, n) {
            return Err(illegal(
                format!("{n} is not a land hex adjacent to {}", self.cur),
                "12.2, 12.5",
            ));
        }
        self.leave_spent(ctx, n)?;
        may_enter(d, st, f, &self.units, n)?;
        for u in &self.units {
            st.set_loc(*u, Loc::Hex(n));
        }
        for m in self.mp.iter_mut() {
            *m -= 1;
        }
        self.cur = n;
        self.done += 1;
        self.route.push(n.to_string());
        let was_collapsed = st.collapsed;
        entered(ctx, st, f, &self.units, n)?;
        if st.finished.is_some() {
            return Ok(Next::Over);
        }
        let short = self.done < self.steps;
        if st.collapsed && !was_collapsed {
            // 7.3: entering Ctesiphon collapsed Parthia, and the free
            // evacuation has just taken the force back to core
            // territory; its own move ends there.
            if short {
                ctx.say(
                    format!("Parthia collapses: the move ends in {n}, its force evacuated (7.3)"),
                    vec![n],
                );
            }
            return Ok(Next::Stop);
        }
        if f == Faction::Rebel && self.units.iter().all(|u| !st.unit(*u).rebel) {
            // 8.3: the co-emperor reached Rome and the revolt ended;
            // the force is loyal now, with the emperor in Rome, and
            // goes no further (it may not leave him alone there, 8.4).
            if short {
                ctx.say(
                    format!("the revolt is over: the force stops in {n} (8.3)"),
                    vec![n],
                );
            }
            return Ok(Next::Stop);
        }
        let mut stop = false;
        if f == Faction::Rebel {
            stop = !convert_around(ctx, st, n, &mut self.rolled)?;
        }
        if !stop && in_ezoc(d, st, n, f) && short {
            return Err(illegal(
                format!("a force must stop on entering an enemy zone of control ({n})"),
                "11.3",
            ));
        }
        Ok(if stop { Next::Stop } else { Next::Go })
    }

    /// 8.5: infantry that have spent their allowance stay behind before the
    /// force enters `n`.
    fn leave_spent(&mut self, ctx: &mut Ctx, n: Hex) -> Result<(), RuleError> {
        let d = ctx.d;
        let cur = self.cur;
        let spent: Vec<usize> = (0..self.units.len()).filter(|i| self.mp[*i] == 0).collect();
        if spent.is_empty() {
            return Ok(());
        }
        let only_inf = spent
            .iter()
            .all(|i| matches!(d.kind(self.units[*i]), Kind::Infantry));
        if !(self.leader && only_inf) || spent.len() == self.units.len() {
            return Err(illegal(
                format!("no movement points left to enter {n}"),
                "12.4",
            ));
        }
        if ctx.version >= 14 {
            // 8.5: the infantry "exhaust their movement action";
            // the order must leave them (version 13 dropped them
            // unasked).
            let ids: Vec<&str> = spent.iter().map(|i| d.uid(self.units[*i])).collect();
            return Err(illegal(
                format!(
                    "{} spent their movement points and stop in {cur}: only the leader and the cavalry go on to {n}; drop them there (`drop {}`)",
                    ids.join(", "),
                    ids.join(",")
                ),
                "8.5",
            ));
        }
        for i in spent.into_iter().rev() {
            self.units.remove(i);
            self.mp.remove(i);
        }
        if !self.units.iter().any(|u| d.kind(*u).is_mobile()) {
            return Err(illegal(
                format!("no movement points left to enter {n}"),
                "8.5, 12.4",
            ));
        }
        self.touched.push(cur);
        ctx.say(
            format!("the infantry stop in {cur} after five movement points (8.5)"),
            vec![cur],
        );
        Ok(())
    }
}

/// Does a hex linked to `h` hold loyal Roman units (8.3)?
fn loyal_adjacent(d: &Data, st: &State, h: Hex) -> bool {
    d.links(h).any(|n| {
        st.at(n)
            .any(|u| d.kind(u).is_roman() && st.faction(d, u) == Faction::Loyal)
    })
}

/// Conversion rolls of a rebel co-emperor's force (8.3): one die per hex of
/// loyal Romans newly adjacent, in ascending hex order from version 14
/// (ruling R-F2; version 13 went round the hex from north); even flips them.
/// False if any failed (the move ends) or the emperor is adjacent (stasis).
fn convert_around(
    ctx: &mut Ctx,
    st: &mut State,
    h: Hex,
    rolled: &mut BTreeSet<Hex>,
) -> Result<bool, RuleError> {
    let d = ctx.d;
    let mut ok = true;
    let mut ns: Vec<Hex> = d.links(h).collect();
    if ctx.version >= 14 {
        ns.sort();
    }
    for n in ns {
        let loyal: Vec<UnitId> = st
            .at(n)
            .filter(|u| d.kind(*u).is_roman() && st.faction(d, *u) == Faction::Loyal)
            .collect();
        if loyal.is_empty() || rolled.contains(&n) {
            continue;
        }
        if loyal.iter().any(|u| d.kind(*u) == Kind::Emperor) {
            ctx.say(format!("the rebel co-emperor stands before the emperor in {n}: no roll, the move ends (8.3)"), vec![h, n]);
            ok = false;
            continue;
        }
        if st
            .at(n)
            .any(|u| matches!(d.kind(u), Kind::ClientGarrison | Kind::Palmyran))
        {
            // All the units in one hex change together (8.3), and the
            // Caucasus and Palmyran units have no rebel side: the hex stays
            // loyal without a roll, so not every adjacent loyal hex flipped
            // and the move ends (ruling R-F11, umpire's own; a roll here left rebels
            // stacked with client units, against 10.4 and 10.5).
            ctx.say(
                format!("the Romans in {n} stand with client units: they stay loyal, no roll, the move ends (8.3)"),
                vec![h, n],
            );
            ok = false;
            continue;
        }
        rolled.insert(n);
        let r = ctx.d6(st, &format!("conversion-{n}"))?;
        if r % 2 == 0 {
            for u in loyal {
                st.unit_mut(u).rebel = true;
            }
            ctx.say(
                format!("conversion roll {r} for {n}: its Romans join the rebels (8.3)"),
                vec![n],
            );
            occupied_in_place(ctx, st, n);
        } else {
            ctx.say(
                format!("conversion roll {r} for {n}: they stay loyal, the move ends (8.3)"),
                vec![n],
            );
            ok = false;
        }
    }
    Ok(ok)
}

/// A short description of a force.
pub fn force_name(d: &Data, units: &[UnitId]) -> String {
    units
        .iter()
        .map(|u| d.uid(*u))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Is `h` a port friendly to faction `f` (12.6): a coastal population
/// centre, never Petra, that `f` controls (R-C2, `control::holds`).
fn friendly_port(d: &Data, st: &State, f: Faction, h: Hex) -> bool {
    d.hex(h).is_some_and(|x| x.coastal && x.tp > 0)
        && h != d.special.petra
        && super::control::holds(d, st, f, h)
}

/// A sea move (12.6): port to friendly port, the whole action.
pub fn sea(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    force: &Force,
    to: Hex,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let (units, f) = resolve(d, st, p, force)?;
    if !units.iter().all(|u| d.kind(*u).is_roman()) {
        return Err(illegal("only Roman units move by sea", "12.6"));
    }
    let from = force.from;
    let port = |h: Hex| d.hex(h).is_some_and(|x| x.coastal && x.tp > 0);
    if !port(from) || from == d.special.petra {
        return Err(illegal(
            format!("{from} is not a coastal population centre a sea move may start from"),
            "12.6",
        ));
    }
    if f == Faction::Gallic && d.region(from) != Region::Gallic {
        return Err(illegal(
            "Gallic forces sail only between Gallic coastal population centres",
            "9.5, 12.6; R-D6",
        ));
    }
    // The faction's own bounds first (9.5: a Gallic force stays in Gaul).
    may_enter(d, st, f, &units, to)?;
    if to == from || !friendly_port(d, st, f, to) {
        return Err(illegal(
            format!("{to} is not a friendly controlled coastal population centre"),
            "12.6",
        ));
    }
    fits_after(d, st, &units, from, to)?;
    let mut rolled = BTreeSet::new();
    if !rebel_sets_out(ctx, st, f, from, &mut rolled)? {
        return Ok(());
    }
    for u in &units {
        st.set_loc(*u, Loc::Hex(to));
    }
    stacking::check_hexes(d, st, &[from, to]).map_err(|(m, r)| illegal(m, r))?;
    ctx.say(
        format!(
            "{} sails from {from} to {}",
            force_name(d, &units),
            d.hex_name(to)
        ),
        vec![from, to],
    );
    entered(ctx, st, f, &units, to)?;
    rebel_lands(ctx, st, &units, to, &mut rolled)
}

/// Version 14: a rebel force's sea or river move starts, as a land move
/// does, with a conversion roll for each adjacent hex of loyal Romans, and
/// goes only if all convert (8.3; 12.6 and 12.7 let it leave an enemy zone
/// of control, not skip the rolls). False if it may not set out.
fn rebel_sets_out(
    ctx: &mut Ctx,
    st: &mut State,
    f: Faction,
    from: Hex,
    rolled: &mut BTreeSet<Hex>,
) -> Result<bool, RuleError> {
    if f != Faction::Rebel || ctx.version < 14 || !loyal_adjacent(ctx.d, st, from) {
        return Ok(true);
    }
    if convert_around(ctx, st, from, rolled)? {
        return Ok(true);
    }
    ctx.say(
        format!(
            "the rebel co-emperor's force cannot move off from {from}: the move ends there (8.3)"
        ),
        vec![from],
    );
    Ok(false)
}

/// Version 14: a rebel force landing by sea or river next to loyal Romans
/// rolls for each such hex, "each time it moves adjacent" (8.3); the move
/// has used the whole action and ends there whatever the rolls. Not once
/// the revolt has ended on arrival (a rebel co-emperor reaching Rome).
fn rebel_lands(
    ctx: &mut Ctx,
    st: &mut State,
    units: &[UnitId],
    to: Hex,
    rolled: &mut BTreeSet<Hex>,
) -> Result<(), RuleError> {
    let rebels = units
        .iter()
        .any(|u| st.unit(*u).rebel && !st.unit(*u).gallic);
    if rebels && ctx.version >= 14 && st.finished.is_none() {
        convert_around(ctx, st, to, rolled)?;
    }
    Ok(())
}

/// Would the stacks of `from` and `to` be legal once `units` sailed or
/// rowed from one to the other (10.1)? Checked before any conversion roll
/// (a refusal comes before the first die).
fn fits_after(d: &Data, st: &State, units: &[UnitId], from: Hex, to: Hex) -> Result<(), RuleError> {
    let mut t = st.clone();
    for u in units {
        t.set_loc(*u, Loc::Hex(to));
    }
    stacking::check_hexes(d, &t, &[from, to]).map_err(|(m, r)| illegal(m, r))
}

/// A riverine move (12.7): riverbank to riverbank, the whole action.
pub fn river(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    force: &Force,
    to: Hex,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let (units, f) = resolve(d, st, p, force)?;
    if !matches!(f, Faction::Loyal | Faction::Rebel) || !units.iter().all(|u| d.kind(*u).is_roman())
    {
        return Err(illegal(
            "only loyal and non-Gallic rebel Roman units move by river",
            "12.7",
        ));
    }
    if st.riverine_lost {
        return Err(illegal(
            "riverine movement was lost when Dacia or Germania Decumates was looted",
            "12.7",
        ));
    }
    let from = force.from;
    let bank = |h: Hex| d.hex(h).is_some_and(|x| x.riverbank);
    if !bank(from) || !bank(to) || from == to {
        return Err(illegal(
            format!("{from} to {to} is not riverbank to riverbank"),
            "12.7",
        ));
    }
    may_enter(d, st, f, &units, to)?;
    fits_after(d, st, &units, from, to)?;
    let mut rolled = BTreeSet::new();
    if !rebel_sets_out(ctx, st, f, from, &mut rolled)? {
        return Ok(());
    }
    for u in &units {
        st.set_loc(*u, Loc::Hex(to));
    }
    stacking::check_hexes(d, st, &[from, to]).map_err(|(m, r)| illegal(m, r))?;
    ctx.say(
        format!(
            "{} goes by river from {from} to {}",
            force_name(d, &units),
            d.hex_name(to)
        ),
        vec![from, to],
    );
    entered(ctx, st, f, &units, to)?;
    rebel_lands(ctx, st, &units, to, &mut rolled)
}

/// Into the Valley of the Shadow of Death (14.3): the player moves one enemy
/// force from `path[0]` along the rest, by normal movement rules; it may start
/// in an EZOC, stops on entering one, drops no one.
pub fn valley(ctx: &mut Ctx, st: &mut State, p: Player, path: &[Hex]) -> Result<(), RuleError> {
    let d = ctx.d;
    let (Some(&from), true) = (path.first(), path.len() >= 2) else {
        return Err(illegal(
            "name the enemy force's hex and its path: `play 5 at FROM HEX...`",
            "14.3",
        ));
    };
    let units: Vec<UnitId> = st
        .at(from)
        .filter(|u| st.owner(d, *u) == Some(p.other()) && !d.kind(*u).is_static())
        .collect();
    let Some(f) = units.first().map(|u| st.faction(d, *u)) else {
        return Err(illegal(
            format!("there is no enemy force in {from}"),
            "14.3",
        ));
    };
    if units.iter().any(|u| st.faction(d, *u) != f) || !units.iter().any(|u| d.kind(*u).is_mobile())
    {
        return Err(illegal(
            format!("{from} holds no single enemy force that can move"),
            "14.3",
        ));
    }
    let mp = allowances(d, &units, false).into_iter().min().unwrap_or(0) as usize;
    if path.len() - 1 > mp {
        return Err(illegal(
            format!("the force moves at most {mp} hexes"),
            "12.4, 14.3",
        ));
    }
    let mut cur = from;
    for (i, n) in path[1..].iter().enumerate() {
        if !d.linked(cur, *n) {
            return Err(illegal(
                format!("{n} is not a land hex adjacent to {cur}"),
                "12.2",
            ));
        }
        may_enter(d, st, f, &units, *n)?;
        for u in &units {
            st.set_loc(*u, Loc::Hex(*n));
        }
        cur = *n;
        entered(ctx, st, f, &units, *n)?;
        if st.finished.is_some() {
            return Ok(());
        }
        if in_ezoc(d, st, *n, f) && i + 2 < path.len() {
            return Err(illegal(
                format!("the force must stop on entering an enemy zone of control ({n})"),
                "11.3, 14.3",
            ));
        }
    }
    stacking::check_hexes(d, st, &[from, cur]).map_err(|(m, r)| illegal(m, r))?;
    ctx.say(
        format!(
            "Into the Valley: {} is moved from {from} to {}",
            force_name(d, &units),
            d.hex_name(cur)
        ),
        vec![from, cur],
    );
    Ok(())
}
