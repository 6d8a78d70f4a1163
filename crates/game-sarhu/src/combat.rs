//! Combat (7.0): fire (7.1), charge (7.2), attack (7.3) with tactical value
//! (7.4) and disorganization (7.5); step losses (7.0(2)), retreat checks (7.6),
//! command displacement and defeat (7.0(3), 7.6).
//!
//! A combat action is validated whole before its first roll; resolution never
//! fails afterwards (a combat whose target has gone is cancelled, ruling A23).

use super::data::{CmdId, Data, Faction, Terrain, UnitId};
use super::standing::{self, Policy};
use super::state::{Decision, Decl, Loc, RetreatRule, State, Work};
use super::turn::{Ctx, Flow, cname, why_not_activated};
use std::collections::BTreeMap;
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

fn illegal(message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::illegal(message, rule)
}

fn id(d: &Data, u: UnitId) -> &str {
    &d.units[u].id
}

fn ids(d: &Data, us: &[UnitId]) -> String {
    us.iter().map(|u| id(d, *u)).collect::<Vec<_>>().join("+")
}

/// Checks that the units may take part in a combat of the activated command.
fn check_units(
    d: &Data,
    st: &State,
    f: Faction,
    c: CmdId,
    units: &[UnitId],
    used: &[UnitId],
    what: &str,
) -> Result<Hex, RuleError> {
    let mut hex = None;
    for u in units {
        let ui = *u;
        let info = &d.units[ui];
        if info.side != f {
            return Err(illegal(format!("{} is not your unit", info.id), "2.4(7)"));
        }
        if info.cmd != c {
            return Err(illegal(
                format!(
                    "{} belongs to {}; only {}'s units are activated",
                    info.id,
                    cname(d, info.cmd),
                    cname(d, c)
                ),
                "2.4(7)",
            ));
        }
        let Some(h) = st.units[ui].loc.hex() else {
            return Err(illegal(format!("{} is not on the map", info.id), "7.0"));
        };
        if !st.phase.chain.contains(u) {
            let (why, rule) = why_not_activated(d, st, c, ui);
            return Err(illegal(why, rule));
        }
        if used.contains(u) || st.phase.fought.contains(u) {
            return Err(illegal(
                format!(
                    "{} already fights in this action: one combat per unit",
                    info.id
                ),
                "7.0(1)",
            ));
        }
        if units.iter().filter(|x| *x == u).count() > 1 {
            return Err(illegal(format!("{} is listed twice", info.id), "7.0(1)"));
        }
        if hex.is_some_and(|x| x != h) {
            return Err(illegal(
                format!("units in different hexes cannot {what} together"),
                if what == "fire" { "7.1(5)" } else { "7.2(7)" },
            ));
        }
        hex = Some(h);
    }
    hex.ok_or_else(|| illegal(format!("name the units that {what}"), "7.0(1)"))
}

fn check_target(d: &Data, st: &State, f: Faction, t: UnitId) -> Result<Hex, RuleError> {
    let info = &d.units[t];
    if info.side == f {
        return Err(illegal(format!("{} is your own unit", info.id), "7.0"));
    }
    st.units[t]
        .loc
        .hex()
        .ok_or_else(|| illegal(format!("{} is not on the map", info.id), "7.0"))
}

/// Validates a whole combat action (7.0-7.3) against the state at its start.
pub fn validate(
    d: &Data,
    st: &State,
    f: Faction,
    c: CmdId,
    decls: &[Decl],
) -> Result<(), RuleError> {
    if decls.is_empty() {
        return Err(illegal(
            "a combat action declares at least one combat",
            "7.0(1)",
        ));
    }
    let mut check = ActionCheck {
        d,
        st,
        f,
        c,
        used: Vec::new(),
        attacked: Vec::new(),
        count: BTreeMap::new(),
        cmd_at: st.commands[c].loc.hex(),
        cmds_in: BTreeMap::new(),
    };
    for decl in decls {
        match decl {
            Decl::Fire { units, target } => check.fire(units, *target)?,
            Decl::Charge { units, target } => check.charge(units, *target)?,
            Decl::Attack { hex, units, losses } => check.attack(*hex, units, losses)?,
        }
    }
    Ok(())
}

/// A combat action checked declaration by declaration: what the earlier
/// declarations have used and moved.
struct ActionCheck<'a> {
    d: &'a Data,
    st: &'a State,
    f: Faction,
    c: CmdId,
    /// Units already in a combat of this action (7.0(1)).
    used: Vec<UnitId>,
    /// Hexes already attacked (ruling A22).
    attacked: Vec<Hex>,
    /// Own combat units per hex as charges move them.
    count: BTreeMap<Hex, u32>,
    /// Where the activated command is, as charges move it.
    cmd_at: Option<Hex>,
    /// Own command units per hex charged into.
    cmds_in: BTreeMap<Hex, u32>,
}

impl ActionCheck<'_> {
    /// Fire (7.1): able firers of one hex at an enemy in or next to it.
    fn fire(&mut self, units: &[UnitId], target: UnitId) -> Result<(), RuleError> {
        let (d, st, f) = (self.d, self.st, self.f);
        let from = check_units(d, st, f, self.c, units, &self.used, "fire")?;
        each_able(
            d,
            st,
            units,
            "fire",
            "chariots, firearms and horse archers",
            "7.1, 2.4(3)",
            |ui| d.type_of(ui).fire > 0,
        )?;
        let needs: Vec<u32> = units.iter().map(|u| d.type_of(*u).fire_need).collect();
        if !st.options.mixed_fire && needs.iter().any(|n| *n != needs[0]) {
            return Err(illegal(
                "horse archers (6 to hit) cannot fire together with chariots or firearms (5 to hit)",
                "7.1(2)-(3), ruling A25",
            ));
        }
        let to = check_target(d, st, f, target)?;
        if to != from && !to.adjacent(from) {
            return Err(illegal(
                format!("{} in {to} is not in or next to {from}", id(d, target)),
                "7.1",
            ));
        }
        self.used.extend(units);
        Ok(())
    }

    /// Charge (7.2): able chargers into an adjacent hex they may enter.
    fn charge(&mut self, units: &[UnitId], target: UnitId) -> Result<(), RuleError> {
        let (d, st, f) = (self.d, self.st, self.f);
        let from = check_units(d, st, f, self.c, units, &self.used, "charge")?;
        each_able(
            d,
            st,
            units,
            "charge",
            "cavalry and horse archers",
            "7.2",
            |ui| d.type_of(ui).charge,
        )?;
        let to = check_target(d, st, f, target)?;
        let Some(dir) = from.dir_to(to) else {
            return Err(illegal(
                format!(
                    "{} in {to} is not in a hex next to {from}: a charge goes into an adjacent hex",
                    id(d, target)
                ),
                "7.2",
            ));
        };
        if d.terrain_of(to).is_pass_or_fort() {
            return Err(illegal(
                format!(
                    "{} is in a Pass or Fort, which cannot be charged",
                    id(d, target)
                ),
                "7.2",
            ));
        }
        if d.blocked(from, dir) {
            return Err(illegal(
                format!("a river or the palisade without a bridge lies between {from} and {to}"),
                "2.2(3), 6.1(3), ruling A29",
            ));
        }
        self.charge_stacking(from, to, units.len() as u32)?;
        self.used.extend(units);
        Ok(())
    }

    /// 1.1, 7.2(6): stacking in the hex charged into, the activated command
    /// going with the first charge from its hex (ruling A30).
    fn charge_stacking(&mut self, from: Hex, to: Hex, n: u32) -> Result<(), RuleError> {
        let (d, st, f) = (self.d, self.st, self.f);
        let here = *self
            .count
            .entry(from)
            .or_insert_with(|| st.side_at(d, from, f).count() as u32);
        self.count.insert(from, here.saturating_sub(n));
        let there = self
            .count
            .entry(to)
            .or_insert_with(|| st.side_at(d, to, f).count() as u32);
        *there += n;
        let limit = d.tec(to);
        if *there > limit.stack {
            return Err(illegal(
                format!(
                    "the charge would put {} of your combat units in {to}; the limit is {}",
                    there, limit.stack
                ),
                "1.1, 7.2",
            ));
        }
        if self.cmd_at == Some(from) {
            let k = self
                .cmds_in
                .entry(to)
                .or_insert_with(|| st.commands_at(d, to, f).count() as u32);
            *k += 1;
            if *k > limit.stack_command {
                return Err(illegal(
                    format!(
                        "{} would charge with its units into {to}, which already holds a command unit",
                        cname(d, self.c)
                    ),
                    "1.1, 7.2(6)",
                ));
            }
            self.cmd_at = Some(to);
        }
        Ok(())
    }

    /// Attack (7.3): activated units on the enemy in their own hex, once per hex.
    fn attack(&mut self, hex: Hex, units: &[UnitId], losses: &[UnitId]) -> Result<(), RuleError> {
        let (d, st, f, c) = (self.d, self.st, self.f, self.c);
        if self.attacked.contains(&hex) {
            return Err(illegal(
                format!("{hex} is attacked once per action"),
                "7.3, ruling A22",
            ));
        }
        let attackers: Vec<UnitId> = if units.is_empty() {
            st.phase
                .chain
                .iter()
                .copied()
                .filter(|u| {
                    st.units[*u].loc == Loc::Hex(hex)
                        && !self.used.contains(u)
                        && !st.phase.fought.contains(u)
                })
                .collect()
        } else {
            let at = check_units(d, st, f, c, units, &self.used, "attack")?;
            if at != hex {
                // A new player reads `attack HEX` as "attack that hex": say
                // where the attackers are and what the order takes.
                return Err(illegal(
                    format!(
                        "an attack is on the enemy in the attackers' own hex: {} in {at}, \
                         not {hex} (move into the enemy's hex first, then `attack {at}`)",
                        ids(d, units)
                    ),
                    "7.3",
                ));
            }
            units.to_vec()
        };
        if attackers.is_empty() {
            return Err(self.none_can_attack(hex));
        }
        if st.side_at(d, hex, f.other()).next().is_none() {
            return Err(illegal(
                format!(
                    "no enemy combat unit is in {hex}: an attack is against the enemy in the same hex"
                ),
                "7.3",
            ));
        }
        if let Some(u) = losses.iter().find(|u| !attackers.contains(u)) {
            return Err(illegal(
                format!(
                    "{} does not attack, so cannot take the attack's losses",
                    id(d, *u)
                ),
                "7.0(2)",
            ));
        }
        self.attacked.push(hex);
        self.used.extend(attackers);
        Ok(())
    }

    /// Why no activated unit in `hex` can attack (7.3): each own unit there
    /// with its reason, or that none of the command's is there.
    fn none_can_attack(&self, hex: Hex) -> RuleError {
        let (d, st, f, c) = (self.d, self.st, self.f, self.c);
        let here: Vec<UnitId> = st.side_at(d, hex, f).collect();
        let mine: Vec<UnitId> = here
            .iter()
            .copied()
            .filter(|u| d.units[*u].cmd == c)
            .collect();
        let lead = format!("no activated unit of {} in {hex} can attack", cname(d, c));
        if mine.is_empty() {
            let others: Vec<&str> = here.iter().map(|u| id(d, *u)).collect();
            return if others.is_empty() {
                illegal(
                    format!(
                        "{lead}: none of your combat units is in {hex}; an attack is made by activated units in the enemy's hex"
                    ),
                    "7.3",
                )
            } else {
                illegal(
                    format!(
                        "{lead}: your units there ({}) are not {}'s, and a command activates only units of its own colour",
                        others.join(" "),
                        cname(d, c)
                    ),
                    "7.3, 2.4(7), 5.1",
                )
            };
        }
        let mut rules = vec!["7.3"];
        let reasons: Vec<(UnitId, String)> = mine
            .iter()
            .map(|u| {
                let (why, rule) = if !st.phase.chain.contains(u) {
                    why_not_activated(d, st, c, *u)
                } else if st.phase.fought.contains(u) {
                    (
                        format!("{} has fought in this action already", id(d, *u)),
                        "7.0(1)",
                    )
                } else {
                    (
                        format!("{} fights in an earlier combat of this order", id(d, *u)),
                        "7.0(1)",
                    )
                };
                if !rules.contains(&rule) {
                    rules.push(rule);
                }
                (*u, why)
            })
            .collect();
        illegal(
            format!("{lead}: {}", same_reasons_once(d, &reasons).join("; ")),
            &rules.join(", "),
        )
    }
}

/// Each unit's reason, a reason that only differs by the unit's id given
/// once, for the first such unit, with "(the same for …)" naming the others.
fn same_reasons_once(d: &Data, reasons: &[(UnitId, String)]) -> Vec<String> {
    let mut groups: Vec<(String, String, Vec<&str>)> = Vec::new();
    for (u, why) in reasons {
        let unit = id(d, *u);
        let rest = why.strip_prefix(unit).unwrap_or(why).to_string();
        match groups.iter_mut().find(|(_, r, _)| *r == rest) {
            Some((_, _, more)) => more.push(unit),
            None => groups.push((why.clone(), rest, Vec::new())),
        }
    }
    groups
        .into_iter()
        .map(|(why, _, more)| match more.is_empty() {
            true => why,
            false => format!("{why} (the same for {})", more.join(", ")),
        })
        .collect()
}

fn elim_counts(d: &Data, st: &State) -> Vec<u8> {
    d.command_ids().map(|c| st.eliminated(d, c)).collect()
}

/// One step loss (2.4(2), 7.0(2)): flip a full two-step unit, else eliminate.
fn lose_step(ctx: &mut Ctx, st: &mut State, u: UnitId) {
    let d = ctx.d;
    let Some(h) = st.units[u].loc.hex() else {
        return;
    };
    if d.units[u].steps == 2 && !st.units[u].reduced {
        st.units[u].reduced = true;
        ctx.say(
            format!(
                "{} loses a step and is flipped to {} (2.4(2))",
                d.units[u].id, d.units[u].reduced
            ),
            vec![h],
        );
    } else {
        st.units[u].loc = Loc::Gone;
        ctx.say(format!("{} is eliminated (2.4(2))", d.units[u].id), vec![h]);
    }
}

/// A fire or charge hit (7.1(4), 7.2(4), 7.5(6)).
fn hit(ctx: &mut Ctx, st: &mut State, t: UnitId) {
    let d = ctx.d;
    let ti = t.index();
    if st.units[ti].dis {
        ctx.say(
            format!(
                "{} was already disorganized and loses a step (7.5(6))",
                d.units[ti].id
            ),
            vec![],
        );
        lose_step(ctx, st, t);
    } else {
        st.units[ti].dis = true;
        let h = st.units[ti].loc.hex().into_iter().collect();
        ctx.say(
            format!("{} is disorganized (7.1(4), 7.2(4))", d.units[ti].id),
            h,
        );
    }
}

/// Elevation modifier: +m down, -m up, the difference capped at one step (ruling A26).
fn slope(d: &Data, from: Hex, to: Hex, m: i32) -> i32 {
    (i32::from(d.elevation(from)) - i32::from(d.elevation(to))).signum() * m
}

/// One side of an attack: its units and their totals (7.3(1), 7.4, 7.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideTotal {
    /// CS after woods, per participant (units, then the command).
    pub parts: Vec<(String, u32, bool)>,
    /// Total CS after halving the disorganized part, before TV.
    pub strength: u32,
    /// Tactical value of a controlled marker hex (7.4(1)).
    pub tv: u32,
}

impl SideTotal {
    /// Total before the die.
    pub fn before_die(&self) -> u32 {
        self.strength + self.tv
    }

    fn show(&self) -> String {
        let mut s = self
            .parts
            .iter()
            .map(|(n, cs, dis)| format!("{n} {cs}{}", if *dis { "*" } else { "" }))
            .collect::<Vec<_>>()
            .join(" + ");
        if self.parts.iter().any(|p| p.2) {
            s = format!("{s} (* disorganized, halved, rounded down)");
        }
        s = format!("{s} = {}", self.strength);
        if self.tv > 0 {
            // 2.2(5), 7.4(1): the controller's marker hex adds its value.
            s = format!(
                "{s} + {} tactical value of the controlled hex (2.2(5), 7.4(1))",
                self.tv
            );
        }
        s
    }
}

/// The total combat strength of one side in an attack (7.3(1)): woods
/// penalties per unit (2.2(6), 7.4(2), ruling A27); the disorganized units,
/// and the command if all its side's fighting units are disorganized, halved
/// and rounded down (7.5(1), 7.5(7), rulings A34, A35); then the tactical value
/// of a controlled marker hex (2.2(5), 7.4(1)).
pub fn side_total(
    d: &Data,
    st: &State,
    hex: Hex,
    side: Faction,
    units: &[UnitId],
    cmds: &[CmdId],
) -> SideTotal {
    let woods = d.terrain_of(hex) == Terrain::Woods;
    let mut parts = Vec::new();
    let (mut dis, mut org) = (0u32, 0u32);
    for u in units {
        let ui = *u;
        let mut pen = 0;
        if woods {
            pen = d.type_of(ui).woods;
            if d.units[ui].kind.is_mounted() && st.options.woods_mounted_one {
                pen = pen.min(1);
            }
        }
        let cs = st.cs(d, ui).saturating_sub(pen);
        let x = st.units[ui].dis;
        if x {
            dis += cs
        } else {
            org += cs
        }
        parts.push((d.units[ui].id.clone(), cs, x));
    }
    let all_dis = !units.is_empty() && units.iter().all(|u| st.units[*u].dis);
    for c in cmds {
        let cs = d.commands[*c].cs;
        if all_dis {
            dis += cs
        } else {
            org += cs
        }
        parts.push((d.commands[*c].id.to_uppercase(), cs, all_dis));
    }
    let strength = if st.options.halve_whole && parts.iter().any(|p| p.2) {
        (dis + org) / 2
    } else {
        dis / 2 + org
    };
    let tv = match (d.place_at(hex), st.controller(d, hex)) {
        (Some(p), Some(owner)) if owner == side => p.tv,
        _ => 0,
    };
    SideTotal {
        parts,
        strength,
        tv,
    }
}

/// Resolves one declared combat, then queues its losses and aftermath.
pub fn resolve(ctx: &mut Ctx, st: &mut State, decl: &Decl) -> Result<(), RuleError> {
    // 7.6: the eliminated counts before the combat, for the retreat checks after it.
    let before = elim_counts(ctx.d, st);
    match decl {
        Decl::Fire { units, target } => fire(ctx, st, units, *target, before),
        Decl::Charge { units, target } => charge(ctx, st, units, *target, before),
        Decl::Attack { hex, units, losses } => attack(ctx, st, *hex, units, losses, before),
    }
}

/// The declared units still on the map.
fn on_map(st: &State, units: &[UnitId]) -> Vec<UnitId> {
    units
        .iter()
        .copied()
        .filter(|u| st.units[*u].loc.hex().is_some())
        .collect()
}

/// Fire (7.1): one die for the firers of one hex at one enemy unit.
fn fire(
    ctx: &mut Ctx,
    st: &mut State,
    units: &[UnitId],
    target: UnitId,
    before: Vec<u8>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let firers = on_map(st, units);
    st.phase.fought.extend(units);
    let (Some(from), Some(to)) = (
        firers.first().and_then(|u| st.units[*u].loc.hex()),
        st.units[target].loc.hex(),
    ) else {
        ctx.say(
            format!(
                "fire at {} cancelled: firers or target gone (ruling A23)",
                id(d, target)
            ),
            vec![],
        );
        return Ok(());
    };
    // 7.1(1): a chariot counts as two units, a firearm or horse archer as one.
    let n: u32 = firers.iter().map(|u| d.type_of(*u).fire).sum();
    // 7.1(2)-(3): 5 to hit for chariots and firearms, 6 for horse archers.
    let need = firers
        .iter()
        .map(|u| d.type_of(*u).fire_need)
        .max()
        .unwrap_or(5);
    // 7.1(2): +1 firing down from a higher elevation, -1 firing up.
    let e = slope(d, from, to, d.values.fire_elevation);
    let label = format!("fire {} -> {}", ids(d, &firers), id(d, target));
    let die = ctx.dice.d6(&label)?;
    let total = die as i32 + n as i32 + e;
    let hits = total >= need as i32;
    ctx.say(
        format!(
            "{}: die {die} + {n} firing{} = {total}, needs {need}: {} (7.1)",
            label,
            match e {
                0 => String::new(),
                x if x > 0 => format!(" + {x} firing down"),
                x => format!(" - {} firing up", -x),
            },
            if hits { "hit" } else { "miss" }
        ),
        vec![from, to],
    );
    if hits {
        hit(ctx, st, target);
    }
    st.queue.push_front(Work::AfterCombat { before });
    Ok(())
}

/// Charge (7.2): the chargers move into the target's hex and roll one die.
fn charge(
    ctx: &mut Ctx,
    st: &mut State,
    units: &[UnitId],
    target: UnitId,
    before: Vec<u8>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let cmd = st.phase.cmd;
    let chargers = on_map(st, units);
    st.phase.fought.extend(units);
    let (Some(from), Some(to)) = (
        chargers.first().and_then(|u| st.units[*u].loc.hex()),
        st.units[target].loc.hex(),
    ) else {
        ctx.say(
            format!(
                "charge at {} cancelled: chargers or target gone (ruling A23)",
                id(d, target)
            ),
            vec![],
        );
        return Ok(());
    };
    // 7.2(2), 7.2(6): the chargers, and their command with them, move in.
    for u in &chargers {
        st.units[*u].loc = Loc::Hex(to);
    }
    let mut moved = String::new();
    if let Some(c) = cmd
        && st.commands[c].loc == Loc::Hex(from)
    {
        st.commands[c].loc = Loc::Hex(to);
        moved = format!(" with {}", cname(d, c));
    }
    // 7.2(1), 7.2(3), 2.2(7)-(8): one per charger; +1 downhill, -1 uphill; 5 hits.
    let n = chargers.len() as u32;
    let e = slope(d, from, to, d.values.charge_elevation);
    let label = format!("charge {} -> {}", ids(d, &chargers), id(d, target));
    let die = ctx.dice.d6(&label)?;
    let total = die as i32 + n as i32 + e;
    let need = d.values.charge_need as i32;
    let hits = total >= need;
    ctx.say(
        format!(
            "{} charges from {from} into {to}{moved}: die {die} + {n} charging{} = {total}, needs {need}: {} (7.2)",
            ids(d, &chargers),
            match e {
                0 => String::new(),
                x if x > 0 => format!(" + {x} downhill"),
                x => format!(" - {} uphill", -x),
            },
            if hits { "hit" } else { "the charge fails" }
        ),
        vec![from, to],
    );
    if hits {
        hit(ctx, st, target);
    } else {
        // 7.2(5): a failed charge disorganizes every charger.
        for u in &chargers {
            st.units[*u].dis = true;
        }
        ctx.say(
            format!("{} disorganized (7.2(5))", ids(d, &chargers)),
            vec![to],
        );
    }
    st.queue.push_front(Work::AfterCombat { before });
    Ok(())
}

/// The attackers of an attack on `hex`: the named units there, or every
/// activated unit there that has not fought (7.0(1), 7.3).
fn attackers(st: &State, hex: Hex, units: &[UnitId]) -> Vec<UnitId> {
    if units.is_empty() {
        st.phase
            .chain
            .iter()
            .copied()
            .filter(|u| st.units[*u].loc == Loc::Hex(hex) && !st.phase.fought.contains(u))
            .collect()
    } else {
        units
            .iter()
            .copied()
            .filter(|u| st.units[*u].loc == Loc::Hex(hex))
            .collect()
    }
}

/// Attack (7.3): a die and the strengths of each side; the loser loses steps.
fn attack(
    ctx: &mut Ctx,
    st: &mut State,
    hex: Hex,
    units: &[UnitId],
    losses: &[UnitId],
    before: Vec<u8>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let f = st.phase.side;
    let cmd = st.phase.cmd;
    let attackers = attackers(st, hex, units);
    st.phase.fought.extend(&attackers);
    let defenders: Vec<UnitId> = st.side_at(d, hex, f.other()).collect();
    if attackers.is_empty() || defenders.is_empty() {
        ctx.say(
            format!("attack at {hex} cancelled: no attacker or defender left (ruling A23)"),
            vec![hex],
        );
        return Ok(());
    }
    // Ruling A22: the activated command joins if it is there; every enemy command there defends.
    let acmds: Vec<CmdId> = cmd
        .filter(|c| st.commands[*c].loc == Loc::Hex(hex))
        .into_iter()
        .collect();
    let dcmds: Vec<CmdId> = st.commands_at(d, hex, f.other()).collect();
    let a = side_total(d, st, hex, f, &attackers, &acmds);
    let b = side_total(d, st, hex, f.other(), &defenders, &dcmds);
    let da = ctx.dice.d6(&format!("attack {hex}: attacker"))?;
    let db = ctx.dice.d6(&format!("attack {hex}: defender"))?;
    // 7.3(1): die + combat strengths + tactical value.
    let ta = a.before_die() + da;
    let tb = b.before_die() + db;
    // 7.3(2): the attacker wins only with the greater total; 7.3(3) losses.
    let attacker_wins = ta > tb;
    let (win, lose) = if attacker_wins { (ta, tb) } else { (tb, ta) };
    let steps = if win >= d.values.double_ratio * lose {
        2
    } else {
        1
    };
    let (loser, pool, prio) = if attacker_wins {
        (f.other(), defenders.clone(), Vec::new())
    } else {
        (f, attackers.clone(), losses.to_vec())
    };
    ctx.say(
        format!(
            "Attack at {hex} (7.3): {} {} + die {da} = {ta}; {} {} + die {db} = {tb}. The {} win; the {} lose {steps} step{}",
            f.name(),
            a.show(),
            f.other().name(),
            b.show(),
            if attacker_wins { f.name() } else { f.other().name() },
            loser.name(),
            if steps == 1 { "" } else { "s" }
        ),
        vec![hex],
    );
    st.queue.push_front(Work::AfterCombat { before });
    st.queue.push_front(Work::Losses {
        side: loser,
        hex,
        pool,
        steps,
        priority: prio,
    });
    Ok(())
}

/// Takes step losses (7.0(2)): no question when only one allocation is
/// possible; otherwise the order's priority, the standing order, or `ask`.
pub fn losses(
    ctx: &mut Ctx,
    st: &mut State,
    side: Faction,
    hex: Hex,
    pool: Vec<UnitId>,
    steps: u8,
    priority: Vec<UnitId>,
) -> Flow {
    let d = ctx.d;
    let all = standing::loss_allocations(d, st, &pool, steps);
    let distinct = standing::distinct_allocations(d, st, &all);
    let s = &st.standing[side.index()];
    let pick = if distinct.len() <= 1 {
        distinct.into_iter().next().unwrap_or_default()
    } else if !priority.is_empty() {
        let pol = if s.losses == Policy::Ask {
            Policy::Auto
        } else {
            s.losses
        };
        standing::choose_losses(d, st, &all, &priority, pol)
    } else if s.losses == Policy::Ask {
        st.decision = Some(Decision::Losses {
            side,
            hex,
            pool,
            steps,
            priority,
        });
        return Flow::Ask;
    } else {
        standing::choose_losses(d, st, &all, &s.loss_priority, s.losses)
    };
    apply_losses(ctx, st, &pick);
    Flow::Go
}

/// Applies an allocation of step losses, one unit id per step.
pub fn apply_losses(ctx: &mut Ctx, st: &mut State, pick: &[UnitId]) {
    for u in pick {
        lose_step(ctx, st, *u);
    }
}

/// After a combat (7.6, ruling A41): retreat checks, then displacement and
/// defeat, then control.
pub fn after_combat(d: &Data, st: &mut State, before: &[u8]) {
    let mut work = Vec::new();
    for c in d.command_ids() {
        let info = &d.commands[c];
        let t = d.values.retreat_threshold[info.side.index()];
        let after = u32::from(st.eliminated(d, c));
        let was = u32::from(before.get(c.index()).copied().unwrap_or(0));
        let dice = match st.options.retreat {
            RetreatRule::Event | RetreatRule::Cascade => {
                after.saturating_sub(was.max(t.saturating_sub(1)))
            }
            RetreatRule::EveryCombat if after >= t => 1 + after - t,
            RetreatRule::EveryCombat => 0,
        };
        if dice > 0 && st.alive(d, c).next().is_some() {
            work.push(Work::Retreat {
                cmd: c,
                dice: dice.min(99) as u8,
            });
        }
    }
    work.push(Work::Displace);
    work.push(Work::Control);
    for w in work.into_iter().rev() {
        st.queue.push_front(w);
    }
}

/// One retreat-check die (7.6(1)-(2)).
pub fn retreat(ctx: &mut Ctx, st: &mut State, c: CmdId, dice: u8) -> Result<(), RuleError> {
    let d = ctx.d;
    if dice == 0 || st.alive(d, c).next().is_none() {
        return Ok(());
    }
    let lost = st.eliminated(d, c);
    let die = ctx.dice.d6(&format!("retreat check {}", cname(d, c)))?;
    let routs = die <= d.values.rout_max;
    let focus = st.commands[c].loc.hex().into_iter().collect();
    ctx.say(
        format!(
            "Retreat check for {} ({lost} eliminated): die {die}: {} (7.6)",
            cname(d, c),
            if routs {
                "a unit routs"
            } else {
                "no effect for the time being"
            }
        ),
        focus,
    );
    if dice > 1 {
        st.queue.push_front(Work::Retreat {
            cmd: c,
            dice: dice - 1,
        });
    }
    if routs {
        st.queue.push_front(Work::Rout { cmd: c });
    }
    Ok(())
}

/// Chooses the unit that routs (D2) unless only one choice exists.
pub fn rout(ctx: &mut Ctx, st: &mut State, c: CmdId) -> Flow {
    let d = ctx.d;
    let opts = standing::rout_options(d, st, c);
    if opts.is_empty() {
        return Flow::Go;
    }
    let side = d.commands[c].side;
    let s = &st.standing[side.index()];
    let distinct = standing::distinct_routs(d, st, &opts);
    let pick = if distinct.len() == 1 {
        distinct[0]
    } else if s.rout == Policy::Ask && s.rout_priority.iter().all(|u| !opts.contains(u)) {
        st.decision = Some(Decision::Rout { side, cmd: c });
        return Flow::Ask;
    } else {
        match standing::choose_rout(d, st, &opts, &s.rout_priority) {
            Some(u) => u,
            None => return Flow::Go,
        }
    };
    do_rout(ctx, st, c, pick);
    Flow::Go
}

/// A unit routs off-map: it is eliminated (7.6(1), ruling A20).
pub fn do_rout(ctx: &mut Ctx, st: &mut State, c: CmdId, u: UnitId) {
    let d = ctx.d;
    let h = st.units[u].loc.hex().into_iter().collect();
    st.units[u].loc = Loc::Gone;
    ctx.say(
        format!("{} routs off the map and is eliminated (7.6(1))", id(d, u)),
        h,
    );
    if st.options.retreat == RetreatRule::Cascade {
        st.queue.push_front(Work::Retreat { cmd: c, dice: 1 });
    }
}

/// Defeats wiped-out commands and queues the displacement of lone ones (7.0(3), 7.6).
pub fn find_lone(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    let mut lone = Vec::new();
    for c in d.command_ids() {
        match st.commands[c].loc {
            Loc::Gone | Loc::Out => continue,
            _ if st.wiped(d, c) => {
                let h = st.commands[c].loc.hex().into_iter().collect();
                st.commands[c].loc = Loc::Gone;
                ctx.say(
                    format!("Every combat unit of {} is eliminated: the command is defeated and leaves the map (7.6)", cname(d, c)),
                    h,
                );
            }
            Loc::Hex(h) if st.side_at(d, h, d.commands[c].side).next().is_none() => {
                lone.push(Work::DisplaceCmd { cmd: c })
            }
            _ => {}
        }
    }
    for w in lone.into_iter().rev() {
        st.queue.push_front(w);
    }
}

/// Moves a lone command to a hex with its colour's units (D3), or off the map
/// if its only survivors are off it.
pub fn displace(ctx: &mut Ctx, st: &mut State, c: CmdId) -> Flow {
    let d = ctx.d;
    let side = d.commands[c].side;
    let Some(h) = st.commands[c].loc.hex() else {
        return Flow::Go;
    };
    if st.side_at(d, h, side).next().is_some() {
        return Flow::Go;
    }
    let opts = standing::displace_options(d, st, c);
    if opts.is_empty() {
        st.commands[c].loc = Loc::OffMap;
        ctx.say(
            format!(
                "{} is alone and its only units are off the map: it leaves the map (7.0(3))",
                cname(d, c)
            ),
            vec![h],
        );
        return Flow::Go;
    }
    let s = &st.standing[side.index()];
    let prefs = s
        .displace_to
        .iter()
        .find(|(x, _)| *x == c)
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let pick = if opts.len() == 1 {
        opts[0]
    } else if s.displace == Policy::Ask && !prefs.iter().any(|p| opts.contains(p)) {
        st.decision = Some(Decision::Displace {
            side,
            cmd: c,
            options: opts,
        });
        return Flow::Ask;
    } else {
        match standing::choose_displace(d, st, c, &opts, &prefs) {
            Some(x) => x,
            None => return Flow::Go,
        }
    };
    st.commands[c].loc = Loc::Hex(pick);
    ctx.say(
        format!(
            "{} is alone in {h} and is displaced to {pick} (7.0(3), 7.6)",
            cname(d, c)
        ),
        vec![h, pick],
    );
    Flow::Go
}

/// Every unit of a fire or charge group is of a type that may `verb` (only
/// `who` may, `rule`) and is not disorganized (7.5(2)).
fn each_able(
    d: &Data,
    st: &State,
    units: &[UnitId],
    verb: &str,
    who: &str,
    rule: &str,
    able: impl Fn(UnitId) -> bool,
) -> Result<(), RuleError> {
    for u in units {
        let ui = *u;
        if !able(ui) {
            return Err(illegal(
                format!(
                    "{} ({}) cannot {verb}: only {who} do",
                    d.units[ui].id,
                    d.units[ui].kind.name()
                ),
                rule,
            ));
        }
        if st.units[ui].dis {
            return Err(illegal(
                format!("{} is disorganized and cannot {verb}", d.units[ui].id),
                "7.5(2)",
            ));
        }
    }
    Ok(())
}
