//! Combat (13.x): strengths (2.6, 13.10), odds rounded for the defender
//! (13.2), column shifts (8.4, 13.8, 13.9, chits), automatic results (13.15),
//! the CRT results (13.11), retreat (13.12, 13.13), advance (13.14) and the
//! free chit of a won battle (8.19).

use super::ask::{Then, paused};
use super::chits;
use super::data::{Data, Kind, Outcome, Region, UnitId};
use super::effects::{Ctx, after_losses, entered, illegal, kill, kill_all};
use super::entry::may_enter;
use super::orders::{Advance, Attack};
use super::stacking;
use super::state::{Faction, Loc, Palmyra, Player, State};
use super::zoc::in_ezoc;
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// The odds as a column step: 0 is 1:1, 1 is 2:1, -1 is 1:2 (ruling R-E1).
pub fn odds_step(att: u32, def: u32) -> i32 {
    if def == 0 {
        return i32::MAX / 2;
    }
    if att >= def {
        (att / def) as i32 - 1
    } else {
        -((def.div_ceil(att.max(1))) as i32 - 1)
    }
}

/// A column step as odds, `3:1` or `1:2`.
pub fn step_name(k: i32) -> String {
    if k >= 0 {
        format!("{}:1", k + 1)
    } else {
        format!("1:{}", 1 - k)
    }
}

/// The CRT column for a shifted step, or the automatic result (13.15).
pub fn column(d: &Data, k: i32) -> Result<usize, Outcome> {
    let ratio = if k >= 0 {
        (k as u32 + 1, 1)
    } else {
        (1, (1 - k) as u32)
    };
    match d.crt_columns.iter().position(|c| *c == ratio) {
        Some(i) => Ok(i),
        None if k < 0 => Err(Outcome::AE),
        None => Err(Outcome::DE),
    }
}

/// A garrison's defence (13.10): the hex's unlooted TP (R-C8); Ctesiphon 8;
/// Caucasus 1.
pub fn garrison_strength(d: &Data, h: Hex, k: Kind) -> u32 {
    if k == Kind::ParthianGarrison && h == d.special.ctesiphon {
        return d.values.ctesiphon_garrison;
    }
    if d.region(h).is_caucasus() {
        return d.values.caucasus_garrison;
    }
    d.hex(h).map_or(0, |x| x.tp)
}

/// Everything decided before the combat die (kept in a question to the
/// defender, digest 2.7, until the attack goes on).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Battle {
    /// The attackers' hex.
    pub from: Hex,
    /// The hex attacked.
    pub target: Hex,
    /// The attacking units.
    pub attackers: Vec<UnitId>,
    /// Their nationality.
    pub att_faction: Faction,
    /// The units in the target hex.
    pub defenders: Vec<UnitId>,
    /// Column shifts so far.
    pub shift: i32,
    /// The defender may play They Shall Not Pass.
    pub tsnp: bool,
    /// Heavy siege equipment doubles the attack.
    pub siege: bool,
    /// Every defender is the attacker's own (the Germano-Parthian against
    /// his rebels, 11.4): a win draws no free chit (R-E7). Set from version
    /// 14, when the defenders' side is known before they fall (their rebel
    /// side is lost with them); left out of the state's bytes while false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub own: bool,
}

/// The units that attack: the chosen ones, never garrisons (13.10), with the
/// hex's leader always involved (R-E2).
fn attackers(
    d: &Data,
    st: &State,
    p: Player,
    a: &Attack,
    version: u32,
) -> Result<(Vec<UnitId>, Faction), RuleError> {
    let h = a.force.from;
    let mine = |u: UnitId| st.owner(d, u) == Some(p);
    let mut v: Vec<UnitId> = match &a.force.units {
        Some(v) => v.clone(),
        None => st
            .at(h)
            .filter(|u| mine(*u) && !d.kind(*u).is_garrison())
            .collect(),
    };
    for (i, u) in v.iter().enumerate() {
        // 13.3 from version 7; version 6 counted such a unit twice.
        if version >= 7 && v[..i].contains(u) {
            return Err(illegal(
                format!(
                    "{} is named twice: no unit attacks more than once in one combat action",
                    d.uid(*u)
                ),
                "13.3",
            ));
        }
        if st.hex_of(*u) != Some(h) {
            return Err(illegal(
                format!(
                    "{} is not in {h}: one attack is made by units of one hex",
                    d.uid(*u)
                ),
                "13.5",
            ));
        }
        if !mine(*u) {
            return Err(illegal(
                format!("{} is not yours to command", d.uid(*u)),
                "1.2, 8.6",
            ));
        }
        if d.kind(*u).is_garrison() {
            return Err(illegal(
                "garrison/fortification units never attack",
                "13.10",
            ));
        }
    }
    let f = v
        .first()
        .map(|u| st.faction(d, *u))
        .unwrap_or(Faction::Loyal);
    if let Some(l) = st.leader_in(d, h, f).filter(|l| !v.contains(l)) {
        v.push(l);
    }
    if !v.iter().any(|u| !d.kind(*u).is_leader()) {
        return Err(illegal(
            format!("you have no unit in {h} able to attack"),
            "8.4, 13.10",
        ));
    }
    if v.iter().any(|u| st.faction(d, *u) != f) {
        return Err(illegal("one attacking force is of one nationality", "13.5"));
    }
    if f == Faction::PalmyraIdle {
        return Err(illegal("inactive Palmyrans may not attack", "9.2"));
    }
    Ok((v, f))
}

/// From version 14, the attack's own conditionals are checked before any
/// roll, where version 13 left out what it could not use: the units named
/// to advance are attackers, never static (13.10: bases "are never allowed
/// to advance"), a leader only with units (8.4); those named to go first on
/// an exchange are attackers (13.11).
fn check_conditionals(d: &Data, att: &[UnitId], a: &Attack) -> Result<(), RuleError> {
    if let Advance::Units(v) = &a.advance {
        for u in v {
            if !att.contains(u) {
                return Err(illegal(
                    format!(
                        "{} is not in the attacking force: only its units advance",
                        d.uid(*u)
                    ),
                    "13.14",
                ));
            }
            if d.kind(*u).is_static() {
                return Err(illegal(
                    format!(
                        "{} is a static unit and never advances after combat",
                        d.uid(*u)
                    ),
                    "13.10, 13.14",
                ));
            }
        }
        if !v.iter().any(|u| d.kind(*u).is_mobile()) {
            return Err(illegal(
                "a leader advances only with one or more mobile units: name them too",
                "8.4, 13.14",
            ));
        }
    }
    if let Some(u) = a.losses.iter().find(|u| !att.contains(u)) {
        return Err(illegal(
            format!(
                "{} is not in the attacking force: an exchange takes the attacker's losses from it",
                d.uid(*u)
            ),
            "13.11",
        ));
    }
    Ok(())
}

fn check_target(
    d: &Data,
    st: &State,
    f: Faction,
    from: Hex,
    target: Hex,
) -> Result<Vec<UnitId>, RuleError> {
    if !d.linked(from, target) {
        return Err(illegal(
            format!("{target} is not a land hex adjacent to {from}"),
            "13.4; R-D1",
        ));
    }
    let defenders: Vec<UnitId> = st.at(target).collect();
    let idle = defenders
        .iter()
        .any(|u| st.faction(d, *u) == Faction::PalmyraIdle);
    if idle && f.player() == Some(Player::Roman) {
        return Err(illegal(
            "Roman units may not attack inactive Palmyra",
            "9.2",
        ));
    }
    if !idle && !defenders.iter().any(|u| st.faction(d, *u).hostile(f)) {
        return Err(illegal(
            format!("there is no enemy in {target} to attack"),
            "8.6",
        ));
    }
    if st.collapsed && d.region(target) == Region::Parthia {
        return Err(illegal("no unit may attack into collapsed Parthia", "7.3"));
    }
    if st.gallic == super::state::Gallic::Active {
        let g = d.region(target) == Region::Gallic;
        if f == Faction::Gallic && !g {
            return Err(illegal(
                "Gallic forces attack only into Gallic hexes",
                "9.5",
            ));
        }
        if matches!(f, Faction::German | Faction::Rebel) && g {
            return Err(illegal(
                "Germans and non-Gallic rebels may not attack into the Gallic Empire",
                "9.5",
            ));
        }
    }
    Ok(defenders)
}

/// Checks the attack and fixes everything but the dice.
fn prepare(d: &Data, st: &State, p: Player, a: &Attack, version: u32) -> Result<Battle, RuleError> {
    let (att, f) = attackers(d, st, p, a, version)?;
    let defenders = check_target(d, st, f, a.force.from, a.target)?;
    if version >= 14 {
        check_conditionals(d, &att, a)?;
    }
    let mut siege = false;
    let mut seen = Vec::new();
    for c in &a.chits {
        let def = d
            .chit(*c)
            .ok_or_else(|| illegal(format!("there is no chit {c}"), "3.5"))?;
        if seen.contains(c) {
            return Err(illegal(format!("chit {c} is named twice"), "8.18"));
        }
        chits::check_usable(st, p, *c)?;
        seen.push(*c);
        match def.effect.as_str() {
            "flanking" | "inspired" | "surprise" => {}
            "siege" => {
                let centre =
                    d.hex(a.target).is_some_and(|x| x.tp > 0) && !st.looted.contains(&a.target);
                if f != Faction::Loyal || !centre {
                    return Err(illegal(
                        "heavy siege equipment goes with a loyal Roman force attacking an unlooted population centre",
                        "14.3 (21)",
                    ));
                }
                siege = true;
            }
            _ => {
                return Err(illegal(
                    format!("chit {c}, {}, is not played in an attack", def.title),
                    "14.3",
                ));
            }
        }
    }
    // R-G9: the equipment already placed doubles every later attack of the
    // loyal force it sits with against the same centre.
    if st
        .siege
        .is_some_and(|s| s.hex == a.force.from && s.target == a.target && f == Faction::Loyal)
    {
        siege = true;
    }
    let surprise = a
        .chits
        .iter()
        .any(|c| d.chit(*c).is_some_and(|x| x.effect == "surprise"));
    let def_faction = defenders
        .iter()
        .map(|u| st.faction(d, *u))
        .find(|g| g.hostile(f))
        .unwrap_or(Faction::PalmyraIdle);
    let shift = attack_shifts(d, &att, f, &defenders, a)
        .iter()
        .map(|s| s.by)
        .sum();
    let defender_player = def_faction.player().unwrap_or(Player::Roman);
    let tsnp = !surprise && chits::holds_effect(d, st, defender_player, "tsnp").is_some();
    let own = version >= 14
        && defenders
            .iter()
            .all(|u| st.faction(d, *u).player() == Some(p));
    Ok(Battle {
        own,
        from: a.force.from,
        target: a.target,
        attackers: att,
        att_faction: f,
        defenders,
        shift,
        tsnp,
        siege,
    })
}

/// One column shift of a battle with its source and rule, for the narration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shift {
    /// Columns, + for the attacker.
    pub by: i32,
    /// What made it, with its rule: `the emperor EMP1 with the attackers (8.4, 13.9)`.
    pub why: String,
}

impl Shift {
    fn new(by: i32, why: String) -> Shift {
        Shift { by, why }
    }
}

/// The shifts an attack brings before the defence reacts, in the order
/// they are told: the attacker's chits (14.3), the leaders (8.4, 13.9) and
/// the Rhine or Danube against a German attack (13.8). Their sum is the
/// battle's shift; every chit is known valid (`prepare` checked them).
pub fn attack_shifts(
    d: &Data,
    att: &[UnitId],
    f: Faction,
    defenders: &[UnitId],
    a: &Attack,
) -> Vec<Shift> {
    let mut v = Vec::new();
    for c in &a.chits {
        if let Some(x) = d
            .chit(*c)
            .filter(|x| matches!(x.effect.as_str(), "flanking" | "inspired" | "surprise"))
        {
            v.push(Shift::new(1, format!("{}, chit {c} (14.3)", x.title)));
        }
    }
    let leader = |us: &[UnitId]| us.iter().copied().find(|u| d.kind(*u).is_leader());
    if let Some(l) = leader(att) {
        let who = format!("the {} {}", d.kind(l).name(), d.uid(l));
        v.push(Shift::new(
            1,
            format!("{who} with the attackers (8.4, 13.9)"),
        ));
    }
    if let Some(l) = leader(defenders) {
        let who = format!("the {} {}", d.kind(l).name(), d.uid(l));
        v.push(Shift::new(
            -1,
            format!("{who} with the defenders (8.4, 13.9)"),
        ));
    }
    let side = d.side(a.force.from, a.target);
    if f == Faction::German && side.is_river() {
        let river = if side == super::data::SideKind::Rhine {
            "Rhine"
        } else {
            "Danube"
        };
        v.push(Shift::new(
            -1,
            format!("a German attack across the {river} (13.8)"),
        ));
    }
    v
}

/// The odds and their shifts in words (version 15): `3:1, -1 a German
/// attack across the Rhine (13.8), +1 the emperor EMP1 with the attackers
/// (8.4, 13.9) = 3:1`, or `3:1, no column shift`.
pub fn odds_account(base: i32, shifts: &[Shift]) -> String {
    if shifts.is_empty() {
        return format!("{}, no column shift", step_name(base));
    }
    let net: i32 = shifts.iter().map(|s| s.by).sum();
    let each: Vec<String> = shifts
        .iter()
        .map(|s| format!("{:+} {}", s.by, s.why))
        .collect();
    format!(
        "{}, {} = {}",
        step_name(base),
        each.join(", "),
        step_name(base + net)
    )
}

fn strength(ctx: &mut Ctx, st: &mut State, units: &[UnitId], h: Hex) -> Result<u32, RuleError> {
    let d = ctx.d;
    let mut s = 0;
    for u in units {
        let k = d.kind(*u);
        s += match k {
            Kind::Tribe => {
                let add = d.values.german_die_add;
                let r = ctx.d6_as(st, &format!("german-cf-{}", d.uid(*u)), |r| r + add)?;
                let cf = r + add;
                ctx.say(
                    format!("{} fights with {cf} this battle (2.6)", d.uid(*u)),
                    vec![h],
                );
                cf
            }
            k if k.is_garrison() => garrison_strength(d, h, k),
            k if k.is_leader() => 0,
            _ => 1,
        };
    }
    Ok(s)
}

/// An attack action (8.6).
pub fn attack(ctx: &mut Ctx, st: &mut State, p: Player, a: &Attack) -> Result<(), RuleError> {
    let d = ctx.d;
    let b = prepare(d, st, p, a, ctx.version)?;
    if st.palmyra == Palmyra::Inactive
        && b.defenders
            .iter()
            .any(|u| d.kind(*u) == Kind::Palmyran || st.faction(d, *u) == Faction::PalmyraIdle)
    {
        st.palmyra = Palmyra::Roman { attacked: true };
        ctx.say(
            "the attack brings Palmyra into the war as Rome's unswerving ally (9.2; R-H2)",
            vec![b.target],
        );
    }
    for c in &a.chits {
        if d.chit(*c).is_some_and(|x| x.effect == "siege") {
            chits::siege_place(ctx, st, *c, b.from, b.target);
        } else {
            chits::spend(d, st, p, *c);
        }
    }
    // Beseech the Gods by stack: the rolls of this battle are about its units.
    ctx.about.units = b.attackers.iter().chain(&b.defenders).copied().collect();
    let mut att = strength(ctx, st, &b.attackers, b.from)?;
    if b.siege {
        att *= 2;
    }
    let def = strength(ctx, st, &b.defenders, b.target)?;
    // Version 10: the defender who stated no `tsnp` or `shift` is asked,
    // before the die, which reaction chits he plays (N2). Whenever he holds
    // a chit at all (the count is public), so the question tells nothing of
    // what he holds (10.9).
    let defender = p.other();
    // 11.4, N15 (version 10): the Germano-Parthian attacking his own rebels
    // fights no enemy, so no reaction chit is played for them, the Roman's
    // least of all (version 9 let the Roman's standing orders play his).
    let own = ctx.version >= 10
        && b.defenders
            .iter()
            .all(|u| st.faction(ctx.d, *u).player() == Some(p));
    if own {
        return fight(ctx, st, b, att, def, a, Some(Vec::new()));
    }
    if ctx.version >= 10
        && super::ask::may_ask(ctx, defender)
        && !st.standing[defender.index()].react_given
        && !st.hand(defender).is_empty()
    {
        let about = super::ask::About::React {
            battle: b,
            att,
            def,
            attack: a.clone(),
        };
        let q = super::ask::Question {
            to: defender,
            hexes: Vec::new(),
            about,
            then: Vec::new(),
        };
        super::ask::stop(ctx, st, q);
        return Ok(());
    }
    fight(ctx, st, b, att, def, a, None)
}

/// The attack from the defence's reaction chits on (14.3; N2): those
/// `chosen` by his answer, or with `None` those his standing orders play;
/// then the die, the result, and what follows it.
pub(super) fn fight(
    ctx: &mut Ctx,
    st: &mut State,
    mut b: Battle,
    att: u32,
    def: u32,
    a: &Attack,
    chosen: Option<Vec<u8>>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let p = ctx.actor;
    let base = odds_step(att, def);
    let defender = p.other();
    ctx.about.units = b.attackers.iter().chain(&b.defenders).copied().collect();
    let mut shifts = attack_shifts(d, &b.attackers, b.att_faction, &b.defenders, a);
    if let Some(cs) = chosen {
        b.tsnp = false;
        for c in cs {
            let Some(x) = d.chit(c) else { continue };
            let title = x.title.clone();
            if x.effect == "tsnp" {
                b.tsnp = true;
            }
            chits::spend(d, st, defender, c);
            b.shift -= 1;
            ctx.say(
                format!("the defender plays {title} (chit {c}): one column in his favour (14.3)"),
                vec![b.target],
            );
            shifts.push(reaction_shift(&title, c));
        }
    } else {
        shifts.extend(standing_reaction(ctx, st, &mut b, base, defender));
    }
    let k = base + b.shift;
    // Version 15: every shift with its source and rule (13.2, 13.8, 13.9,
    // 14.3), and siege equipment's doubling; version 14 gave the net shift.
    let told = ctx.version >= 15 && shifts.iter().map(|s| s.by).sum::<i32>() == b.shift;
    let strengths = if told && b.siege {
        format!(
            "{att} ({} doubled by the Roman Heavy Siege Equipment, 14.3) against {def}",
            att / 2
        )
    } else {
        format!("{att} against {def}")
    };
    let odds = if told {
        odds_account(base, &shifts)
    } else {
        format!(
            "{} shifted {:+} to {}",
            step_name(base),
            b.shift,
            step_name(k)
        )
    };
    let result = match column(d, k) {
        Ok(col) => {
            ctx.about.odds = Some(k);
            let roll = ctx.d6(st, "combat")?;
            ctx.about = Default::default();
            let r = d.crt[roll as usize - 1][col];
            ctx.say(
                format!(
                    "{strengths}: {odds}, roll {roll}: {} (13.2, 14.6)",
                    r.code()
                ),
                vec![b.from, b.target],
            );
            r
        }
        Err(auto) => {
            ctx.about = Default::default();
            let odds = if told {
                odds
            } else {
                format!("{} shifted {:+}", step_name(base), b.shift)
            };
            ctx.say(
                format!(
                    "{strengths}: {odds} is off the table: automatic {} (13.15)",
                    auto.code()
                ),
                vec![b.from, b.target],
            );
            auto
        }
    };
    let result = if b.tsnp && result == Outcome::DR {
        Outcome::AS
    } else {
        result
    };
    resolve_result(ctx, st, p, &b, result, a)?;
    if st.question.is_some() {
        // The defender is asked where to retreat (digest 2.7).
        return Ok(());
    }
    chits::siege_check(ctx, st);
    Ok(())
}

/// The defence's reaction chits by its standing orders (N2): They Shall Not
/// Pass at `tsnp` odds or worse, Flanking Move or Inspired Subordinates at
/// `shift` odds or worse.
fn standing_reaction(
    ctx: &mut Ctx,
    st: &mut State,
    b: &mut Battle,
    base: i32,
    defender: Player,
) -> Vec<Shift> {
    let d = ctx.d;
    let mut played = Vec::new();
    // N2: They Shall Not Pass by the defender's standing order.
    if b.tsnp && base >= st.standing[defender.index()].tsnp_at as i32 - 1 {
        if let Some(c) = chits::holds_effect(d, st, defender, "tsnp") {
            chits::spend(d, st, defender, c);
            b.shift -= 1;
            ctx.say(
                format!("the defender plays They Shall Not Pass (chit {c}, 14.3)"),
                vec![b.target],
            );
            played.push(reaction_shift("They Shall Not Pass", c));
        } else {
            b.tsnp = false;
        }
    } else {
        b.tsnp = false;
    }
    // N2: Flanking Move or Inspired Subordinates for the defence, by standing order.
    let shift_at = st.standing[defender.index()].shift_at;
    if shift_at > 0 && base >= shift_at as i32 - 1 {
        let c = chits::holds_effect(d, st, defender, "flanking")
            .or_else(|| chits::holds_effect(d, st, defender, "inspired"));
        if let Some(c) = c {
            let title = d.chit(c).map_or("?", |x| x.title.as_str());
            ctx.say(
                format!("the defender plays {title} (chit {c}): one column in his favour (14.3)"),
                vec![b.target],
            );
            played.push(reaction_shift(title, c));
            chits::spend(d, st, defender, c);
            b.shift -= 1;
        }
    }
    played
}

/// A reaction chit the defence played (14.3): one column its way.
fn reaction_shift(title: &str, c: u8) -> Shift {
    Shift::new(-1, format!("{title}, the defender's chit {c} (14.3)"))
}

fn resolve_result(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    b: &Battle,
    r: Outcome,
    a: &Attack,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let mut lost = 0;
    let stopped = match r {
        Outcome::AS => false,
        Outcome::AE => kill_all(ctx, st, &leaders_last(d, &b.attackers), b.from)?,
        Outcome::DE | Outcome::EX => {
            lost = b
                .defenders
                .iter()
                .filter(|u| !d.kind(**u).is_leader())
                .count();
            kill_all(ctx, st, &leaders_last(d, &b.defenders), b.target)?
        }
        Outcome::DR => {
            for u in b.defenders.clone() {
                if d.kind(u).is_static() {
                    kill(ctx, st, u)?;
                }
            }
            retreat(ctx, st, b, &a.advance, a.draw)?;
            if st.question.is_some() {
                return Ok(());
            }
            return after_result(ctx, st, p, b, r, &a.advance, a.draw);
        }
    };
    if stopped {
        // Version 11: a question in the losses' cascade (N9, N10).
        st.question.as_mut().into_iter().for_each(|q| {
            q.then.push(Then::Losses {
                battle: b.clone(),
                result: r,
                attack: a.clone(),
                lost,
            })
        });
        return Ok(());
    }
    losses_done(ctx, st, p, b, r, a, lost)
}

/// The result's losses taken: the report, the attacker's EX losses (13.11),
/// then what follows the result.
pub(super) fn losses_done(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    b: &Battle,
    r: Outcome,
    a: &Attack,
    lost: usize,
) -> Result<(), RuleError> {
    match r {
        Outcome::AE => ctx.say("the attackers are eliminated (13.11 AE)", vec![b.from]),
        Outcome::DE | Outcome::EX => ctx.say(
            format!(
                "the defenders in {} are eliminated (13.11 {})",
                b.target,
                r.code()
            ),
            vec![b.target],
        ),
        _ => {}
    }
    if r == Outcome::EX {
        exchange(ctx, st, b, lost, &a.losses)?;
        if paused(st, || vec![then_after(b, r, &a.advance, a.draw)]) {
            return Ok(());
        }
    }
    after_result(ctx, st, p, b, r, &a.advance, a.draw)
}

/// The [`Then::After`] step of a battle.
fn then_after(b: &Battle, r: Outcome, adv: &Advance, draw: bool) -> Then {
    Then::After {
        battle: b.clone(),
        result: r,
        advance: adv.clone(),
        draw,
    }
}

/// What follows the result: leaders left alone and unstacking, the advance
/// and the free draw of a won battle (8.4, 10.7, 13.14, 8.19).
pub(super) fn after_result(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    b: &Battle,
    r: Outcome,
    adv: &Advance,
    draw: bool,
) -> Result<(), RuleError> {
    after_losses(ctx, st, &[b.from, b.target])?;
    let rest = || {
        vec![Then::Advance {
            battle: b.clone(),
            result: r,
            advance: adv.clone(),
            draw,
        }]
    };
    if paused(st, rest) {
        return Ok(());
    }
    advance_and_draw(ctx, st, p, b, r, adv, draw)
}

/// The advance (13.14) and the free draw of a won battle (8.19).
pub(super) fn advance_and_draw(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    b: &Battle,
    r: Outcome,
    adv: &Advance,
    draw: bool,
) -> Result<(), RuleError> {
    if st.finished.is_some() {
        return Ok(());
    }
    if r != Outcome::AE && r != Outcome::AS && st.at(b.target).next().is_none() {
        let moved = advance(ctx, st, b, adv)?;
        let rest = || {
            vec![Then::FreeDraw {
                battle: b.clone(),
                draw: moved && draw,
            }]
        };
        if paused(st, rest) {
            return Ok(());
        }
        draw_after(ctx, st, p, b, moved && draw)?;
    }
    Ok(())
}

/// The free draw of a won battle (8.19) if `draw` (the attacker advanced
/// and asked for it), none for beating his own rebels (R-E7).
pub(super) fn draw_after(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    b: &Battle,
    draw: bool,
) -> Result<(), RuleError> {
    // Version 13 looked at the defenders after the battle, when those
    // eliminated had lost their rebel side, so it rarely held.
    let own_rebels = if ctx.version >= 14 {
        b.own
    } else {
        b.defenders.iter().all(|u| st.unit(*u).rebel) && p == Player::Gp
    };
    if draw && own_rebels {
        ctx.say(
            "beating his own rebels wins the Germano-Parthian no free chit (8.19; R-E7)",
            vec![],
        );
    }
    if draw && !own_rebels && st.finished.is_none() {
        chits::free_draw(ctx, st, p)?;
    }
    Ok(())
}

/// The defender answered where to retreat (digest 2.7, N1): the retreat,
/// then the rest of the attack.
pub(super) fn retreat_answered(
    ctx: &mut Ctx,
    st: &mut State,
    b: &Battle,
    to: Hex,
    adv: &Advance,
    draw: bool,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let units = retreating(d, st, b.target);
    if let Some(u) = units.first() {
        let f = st.faction(d, *u);
        retreat_to(ctx, st, b, &units, f, to)?;
        if paused(st, || vec![then_after(b, Outcome::DR, adv, draw)]) {
            return Ok(());
        }
    }
    after_result(ctx, st, st.actor, b, Outcome::DR, adv, draw)
}

/// The units in the order they fall: a leader after his units (8.4), so an
/// emperor's successor is never proclaimed in a stack about to fall (8.9).
fn leaders_last(d: &Data, units: &[UnitId]) -> Vec<UnitId> {
    let mut v = units.to_vec();
    v.sort_by_key(|u| (d.kind(*u).is_leader(), *u));
    v
}

/// EX (13.11): the attacker loses as many units as the defender did, his
/// order first, then bases, infantry, cavalry, others; a leader last (R-E3).
fn exchange(
    ctx: &mut Ctx,
    st: &mut State,
    b: &Battle,
    n: usize,
    first: &[UnitId],
) -> Result<(), RuleError> {
    let d = ctx.d;
    let rank = |u: &UnitId| match d.kind(*u) {
        Kind::Base => 1,
        Kind::Infantry => 2,
        Kind::Cavalry => 3,
        k if k.is_leader() => 9,
        _ => 4,
    };
    let mut pool: Vec<UnitId> = b.attackers.clone();
    pool.sort_by_key(|u| {
        (
            first.iter().position(|x| x == u).unwrap_or(usize::MAX),
            rank(u),
            *u,
        )
    });
    let others = pool.iter().filter(|u| !d.kind(**u).is_leader()).count();
    let take: Vec<UnitId> = if n >= others {
        pool
    } else {
        pool.into_iter()
            .filter(|u| !d.kind(*u).is_leader())
            .take(n)
            .collect()
    };
    let names: Vec<&str> = take.iter().map(|u| d.uid(*u)).collect();
    ctx.say(
        format!(
            "the attacker loses {} in the exchange (13.11 EX)",
            names.join(" ")
        ),
        vec![b.from],
    );
    // A leader named first may fall before his units (R-E3) and his fall
    // unstack them (10.7): each counter is eliminated once.
    kill_all(ctx, st, &take, b.from).map(|_| ())
}

/// Would `us` fit in `n` (10.x) if they stood there?
pub(super) fn fits(d: &Data, st: &State, n: Hex, us: &[UnitId]) -> bool {
    let mut t = st.clone();
    for u in us {
        t.set_loc(*u, Loc::Hex(n));
    }
    stacking::check_hex(d, &t, n).is_ok()
}

/// The rally hex of the player who commands faction `f` (standing order).
pub(super) fn rally_of(st: &State, f: Faction) -> Option<Hex> {
    let owner = f.player().unwrap_or(Player::Roman);
    st.standing[owner.index()].rally
}

/// The retreat doctrine (N1) as a sort key, smaller first: outside EZOC
/// (11.6: a retreat may enter one; 13.12 avoids it if it can), where `us`
/// fit, a population centre the faction holds, nearest the rally hex, then
/// the lowest id.
pub(super) fn doctrine_key(
    d: &Data,
    st: &State,
    f: Faction,
    us: &[UnitId],
    rally: Option<Hex>,
    n: Hex,
) -> (bool, bool, bool, u32, Hex) {
    (
        in_ezoc(d, st, n, f),
        !fits(d, st, n, us),
        !(d.hex(n).is_some_and(|x| x.tp > 0) && super::control::holds(d, st, f, n)),
        rally.map_or(0, |r| n.distance_on(super::data::OFFSET, r)),
        n,
    )
}

/// The units of `h` that retreat on a DR: all but the static ones (13.12).
fn retreating(d: &Data, st: &State, h: Hex) -> Vec<UnitId> {
    st.at(h).filter(|u| !d.kind(*u).is_static()).collect()
}

/// DR: the defender's mobile units and leader retreat one hex (13.12, 13.13),
/// by the defender's retreat doctrine (standing order N1).
fn retreat(
    ctx: &mut Ctx,
    st: &mut State,
    b: &Battle,
    adv: &Advance,
    draw: bool,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let units = retreating(d, st, b.target);
    if units.is_empty() {
        return Ok(());
    }
    let f = st.faction(d, units[0]);
    let rally = rally_of(st, f);
    let cands: Vec<Hex> = d
        .links(b.target)
        .filter(|n| may_enter(d, st, f, &units, *n).is_ok())
        .collect();
    let best = |st: &State, cs: &[Hex]| -> Option<Hex> {
        let mut v = cs.to_vec();
        v.sort_by_key(|n| doctrine_key(d, st, f, &units, rally, *n));
        v.first().copied()
    };
    let Some(n) = best(st, &cands) else {
        ctx.say(
            format!(
                "the defenders in {} have nowhere to retreat and are eliminated (13.12)",
                b.target
            ),
            vec![b.target],
        );
        // 8.4: the leader falls after his units (his fall may unstack or
        // move what is left); each counter is eliminated once.
        if kill_all(ctx, st, &leaders_last(d, &units), b.target)? {
            st.question.as_mut().into_iter().for_each(|q| {
                q.then.push(then_after(b, Outcome::DR, adv, draw));
            });
        }
        return Ok(());
    };
    if let Some((owner, tied)) = retreat_question(ctx, st, f, &units, &cands, n) {
        let about = super::ask::About::Retreat {
            battle: b.clone(),
            advance: adv.clone(),
            draw,
        };
        if super::ask::ask_if_real(ctx, st, owner, n, tied, about) {
            return Ok(());
        }
    }
    retreat_to(ctx, st, b, &units, f, n)?;
    paused(st, || vec![then_after(b, Outcome::DR, adv, draw)]);
    Ok(())
}

/// From version 9 the defender is asked where to retreat when the
/// doctrine ties between legal hexes (all but the lowest id alike) and he
/// stated no `rally` (digest 2.7, N1): who is asked, and the hexes tied
/// with the doctrine's own pick `best`.
fn retreat_question(
    ctx: &Ctx,
    st: &State,
    f: Faction,
    units: &[UnitId],
    cands: &[Hex],
    best: Hex,
) -> Option<(Player, Vec<Hex>)> {
    let d = ctx.d;
    let owner = f.player()?;
    // A leader whose last units fell (DR kills the static ones) goes where
    // the doctrine sends him: no question, and never a leader left alone in
    // the state that waits for the answer (8.4).
    let lone = units.iter().all(|u| d.kind(*u).is_leader());
    if lone
        || ctx.version < 9
        || !super::ask::may_ask(ctx, owner)
        || st.standing[owner.index()].rally_given
    {
        return None;
    }
    let rally = rally_of(st, f);
    let key = |n: Hex| {
        let k = doctrine_key(d, st, f, units, rally, n);
        (k.0, k.1, k.2, k.3)
    };
    let mut tied: Vec<Hex> = cands
        .iter()
        .copied()
        .filter(|n| *n != best && key(*n) == key(best))
        .collect();
    tied.sort();
    Some((owner, tied))
}

/// The retreat into `n` (13.12), or through it to a hex beyond where the
/// stack fits (13.13), the excess eliminated.
fn retreat_to(
    ctx: &mut Ctx,
    st: &mut State,
    b: &Battle,
    units: &[UnitId],
    f: Faction,
    n: Hex,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let units = units.to_vec();
    let rally = rally_of(st, f);
    let fits = |st: &State, n: Hex, us: &[UnitId]| fits(d, st, n, us);
    let best = |st: &State, cs: &[Hex]| -> Option<Hex> {
        let mut v = cs.to_vec();
        v.sort_by_key(|n| doctrine_key(d, st, f, &units, rally, *n));
        v.first().copied()
    };
    let mut to = n;
    if !fits(st, n, &units) {
        // 13.13: through the overstacked hex to one beyond, if any fits.
        let beyond: Vec<Hex> = d
            .links(n)
            .filter(|m| {
                *m != b.target && may_enter(d, st, f, &units, *m).is_ok() && fits(st, *m, &units)
            })
            .collect();
        if let Some(m) = best(st, &beyond) {
            to = m;
        }
    }
    for u in &units {
        st.set_loc(*u, Loc::Hex(to));
    }
    ctx.say(
        format!(
            "{} retreat to {} (13.12)",
            super::movement::force_name(d, &units),
            d.hex_name(to)
        ),
        vec![b.target, to],
    );
    entered(ctx, st, f, &units, to)?;
    let rest = || {
        vec![Then::Excess {
            units: units.clone(),
            to,
        }]
    };
    if paused(st, rest) {
        return Ok(());
    }
    excess(ctx, st, &units, to)
}

/// 13.13: retreating `units` overstacked in `to` lose the excess, the last
/// named first, never a leader; then leaders left alone and unstacking.
pub(super) fn excess(
    ctx: &mut Ctx,
    st: &mut State,
    units: &[UnitId],
    to: Hex,
) -> Result<(), RuleError> {
    let d = ctx.d;
    if stacking::check_hex(d, st, to).is_ok() {
        return Ok(());
    }
    let mut excess: Vec<UnitId> = units
        .iter()
        .copied()
        .filter(|u| !d.kind(*u).is_leader())
        .collect();
    while stacking::check_hex(d, st, to).is_err() {
        let Some(u) = excess.pop() else { break };
        ctx.say(
            format!(
                "{} cannot retreat without overstacking and is eliminated (13.13)",
                d.uid(u)
            ),
            vec![to],
        );
        // A vexillation's fall asks nothing (no leader, 10.7).
        kill(ctx, st, u)?;
    }
    after_losses(ctx, st, &[to])
}

/// Advance after combat (13.14): true if any unit advanced (a won battle, 8.19).
fn advance(ctx: &mut Ctx, st: &mut State, b: &Battle, adv: &Advance) -> Result<bool, RuleError> {
    let d = ctx.d;
    let alive: Vec<UnitId> = b
        .attackers
        .iter()
        .copied()
        .filter(|u| st.hex_of(*u) == Some(b.from))
        .collect();
    // From version 14 a leader named goes with the units named (13.14:
    // "non-static units"); version 13 took him only when none stayed.
    let named_leader = |u: &UnitId| ctx.version >= 14 && d.kind(*u).is_leader();
    let mut go: Vec<UnitId> = match adv {
        Advance::Stay => return Ok(false),
        Advance::All => alive
            .iter()
            .copied()
            .filter(|u| d.kind(*u).is_mobile())
            .collect(),
        Advance::Units(v) => v
            .iter()
            .copied()
            .filter(|u| alive.contains(u) && (d.kind(*u).is_mobile() || named_leader(u)))
            .collect(),
    };
    if !go.iter().any(|u| d.kind(*u).is_mobile()) {
        if matches!(adv, Advance::Units(_)) {
            ctx.say(
                format!(
                    "none of the units named to advance into {} is left to go (13.14)",
                    b.target
                ),
                vec![b.target],
            );
        }
        return Ok(false);
    }
    let leader = alive.iter().copied().find(|u| d.kind(*u).is_leader());
    if let Some(l) = leader.filter(|l| !go.contains(l)) {
        let left = st
            .at(b.from)
            .filter(|u| *u != l && !go.contains(u) && st.faction(d, *u) == b.att_faction)
            .count();
        if left == 0 {
            go.push(l);
        }
    }
    // An advance the rules forbid is not made, and said so (13.14; R-E6:
    // a German never enters a narrows hex).
    let names = super::movement::force_name(d, &go);
    if let Err(RuleError::Illegal { message, rule }) =
        may_enter(d, st, b.att_faction, &go, b.target)
    {
        ctx.say(
            format!(
                "{names} may not advance: {message} ({}; 13.14)",
                rule.as_deref().unwrap_or_default()
            ),
            vec![b.target],
        );
        return Ok(false);
    }
    let mut t = st.clone();
    for u in &go {
        t.set_loc(*u, Loc::Hex(b.target));
    }
    if let Err((m, r)) = stacking::check_hexes(d, &t, &[b.from, b.target]) {
        ctx.say(
            format!("{names} may not advance into {}: {m} ({r})", b.target),
            vec![b.target],
        );
        return Ok(false);
    }
    *st = t;
    ctx.say(
        format!(
            "{} advance into {} (13.14)",
            super::movement::force_name(d, &go),
            d.hex_name(b.target)
        ),
        vec![b.target],
    );
    entered(ctx, st, b.att_faction, &go, b.target)?;
    Ok(true)
}
