//! What follows from a change on the map, wherever it happens: a counter
//! eliminated (to the dead pile, the pool or aside), a hex entered (looting,
//! sudden death, Ctesiphon, Trier, a rebel in Rome), rebels flipping back, a
//! leader left alone. Every order's code calls these, so the rules hold the
//! same way for moves, advances, retreats and placements.

use super::ask::Then;
use super::data::{Data, Kind, Region, UnitId};
use super::leaders;
use super::state::{Faction, Gallic, Item, Loc, Palmyra, Player, State};
use umpire_core::dice::{Dice, RollRef};
use umpire_core::hex::Hex;
use umpire_core::ruleset::{Audience, Event, Outcome, RuleError, Side};

/// An order being carried out: the data, the dice, what happened.
pub struct Ctx<'a> {
    /// The game data.
    pub d: &'a Data,
    /// Every roll comes from here.
    pub dice: &'a mut Dice,
    /// What happened, for the result mail.
    pub ev: Vec<Event>,
    /// Label prefix for this action's rolls, e.g. `t2/a14`.
    pub label: String,
    /// The player whose order this is (for Beseech the Gods' `own`/`enemy`).
    pub actor: Player,
    /// The last roll was rolled again by Beseech the Gods: modifiers declared
    /// before it (salt, Agents) no longer apply (8.8).
    pub rerolled: bool,
    /// What the next roll is about, for Beseech the Gods by odds or by
    /// stack (a battle's units and its final odds; empty outside battles).
    pub about: super::beseech::About,
    /// The ruleset version the order is judged under (a record made under an
    /// older version replays as it did; ARCHITECTURE "Upgrades").
    pub version: u32,
    /// The order under way may stop on a question to the other player
    /// (version 9: the action's own draw or attack; digest 2.7).
    pub ask: bool,
    /// The Roman's answer on his negative salt and Agents (version 10; N4),
    /// for the Germano-Parthian's diplomacy or treachery roll carried out
    /// again after the question.
    pub salted: Option<(u32, bool)>,
}

impl Ctx<'_> {
    /// Records an event at some hexes.
    pub fn say(&mut self, text: impl Into<String>, focus: Vec<Hex>) {
        self.ev.push(Event::at(text, focus));
    }

    /// Rolls one die, labelled with the action and `what`; the holder of
    /// Beseech the Gods may have it rolled again by his standing order (14.3,
    /// digest N3), and then the second roll stands.
    pub fn d6(&mut self, st: &mut State, what: &str) -> Result<u32, RuleError> {
        self.d6_as(st, what, |r| r)
    }

    /// Rolls one die as [`Ctx::d6`] does, where the result that counts is
    /// `result(die)` (the die with its modifiers, capped): the
    /// holder of Beseech the Gods decides on that result, as the players see
    /// it "immediately after" the roll (14.3; 8.8 has a salted roll that
    /// "fails" then rerolled). Returns the die; after a reroll
    /// `self.rerolled` is set, and modifiers declared before the roll no
    /// longer apply (8.8).
    pub fn d6_as(
        &mut self,
        st: &mut State,
        what: &str,
        result: impl Fn(u32) -> u32,
    ) -> Result<u32, RuleError> {
        let label = format!("{}/{what}", self.label);
        let roll = self.dice.roll(6, &label)?;
        self.rerolled = false;
        let shown = result(roll);
        let Some((p, c)) = super::beseech::wants(self.d, st, self.actor, what, shown, &self.about)
        else {
            return Ok(roll);
        };
        super::chits::spend(self.d, st, p, c);
        let again = self.dice.roll(6, &format!("{label}/reroll"))?;
        self.rerolled = true;
        self.say(
            format!(
                "the {} plays chit {c}, Beseech the Gods, on the {} roll of {roll}{}: rolled again, {again} (14.3)",
                p.title(),
                super::beseech::kind(what),
                if shown == roll {
                    String::new()
                } else {
                    format!(" (result {shown})")
                }
            ),
            vec![],
        );
        Ok(again)
    }

    /// Picks one of `n` things at random where only `p` sees the pick (a
    /// draw from the pool into a hidden hand, 3.5, 10.9).
    /// With it, where the roll sits (none when there was no choice), to
    /// disclose it if the rules later reveal the pick.
    pub fn pick_for(
        &mut self,
        p: Player,
        n: usize,
        what: &str,
    ) -> Result<(usize, Option<RollRef>), RuleError> {
        if n <= 1 {
            return Ok((0, None));
        }
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        let who = Audience::side(Side(p.index() as u8));
        let v = self
            .dice
            .roll_for(who, n, &format!("{}/{what}", self.label))? as usize;
        Ok((v - 1, self.dice.last_ref()))
    }

    /// Tells one player only (his own hand, 10.9).
    pub fn tell(&mut self, p: Player, text: impl Into<String>) {
        self.ev
            .push(Event::say(text).to(Audience::side(Side(p.index() as u8))));
    }
}

/// An illegal order, citing the rule.
pub fn illegal(message: impl Into<String>, rule: &str) -> RuleError {
    RuleError::illegal(message, rule)
}

/// Ends the game.
pub fn win(ctx: &mut Ctx, st: &mut State, p: Player, summary: String) {
    if st.finished.is_none() {
        ctx.say(summary.clone(), vec![]);
        st.finished = Some(Outcome {
            winners: vec![Side(p.index() as u8)],
            summary,
        });
    }
}

/// Puts a cavalry unit back into the pool, keeping the pool sorted.
pub fn to_pool(st: &mut State, item: Item) {
    let i = st.pool.binary_search(&item).unwrap_or_else(|i| i);
    st.pool.insert(i, item);
}

/// Where an eliminated co-emperor goes: the dead pile from version 8
/// (8.11, 13.11 "eliminated and removed to the dead pile"), from where he
/// may be created again (8.7 "whenever there is no co-emperor piece on the
/// map"; R-F8); version 7 set him aside. Reaching Rome sets him aside in
/// every version (8.3 "setting aside").
pub fn coemperor_grave(version: u32) -> Loc {
    if version >= 8 { Loc::Dead } else { Loc::Aside }
}

/// Eliminates a counter (13.11), with what follows: cavalry before the
/// reserve back to the pool (14.3), the co-emperor to the dead pile (R-F8;
/// a rebel's fall flips the rebels, 8.7), the emperor replaced (8.9, 14.4).
pub fn kill(ctx: &mut Ctx, st: &mut State, u: UnitId) -> Result<(), RuleError> {
    let d = ctx.d;
    let was_rebel = st.unit(u).rebel;
    let from = st.hex_of(u);
    match d.kind(u) {
        Kind::Cavalry if !st.reserve => {
            *st.unit_mut(u) = fresh(Loc::Pool);
            to_pool(st, Item::Cavalry(u));
        }
        Kind::CoEmperor => {
            *st.unit_mut(u) = fresh(coemperor_grave(ctx.version));
            if was_rebel {
                ctx.say(
                    "the rebel co-emperor falls: every non-Gallic rebel returns to loyalty (8.7)",
                    vec![],
                );
                flip_loyal(st, d);
            } else {
                ctx.say("the loyal co-emperor is eliminated (8.7)", vec![]);
            }
        }
        Kind::Emperor => {
            st.set_loc(u, Loc::Dead);
            leaders::succession(ctx, st)?;
            // N9 (version 11): the Roman is asked where the new emperor
            // rises; his old stack unstacks after the answer.
            if super::ask::paused(st, || from.map(Then::Unstack).into_iter().collect()) {
                return Ok(());
            }
        }
        _ => *st.unit_mut(u) = fresh(Loc::Dead),
    }
    // A stack that was legal only with its leader unstacks at once (10.7).
    if let (true, Some(h)) = (d.kind(u).is_leader(), from) {
        leaders::unstack(ctx, st, h)?;
    }
    Ok(())
}

/// Eliminates those of `units` still in `hex`, in order (13.11-13.13); if
/// one's fall stops on a question (version 11), the others are kept for
/// after the answer and true is returned.
pub fn kill_all(
    ctx: &mut Ctx,
    st: &mut State,
    units: &[UnitId],
    hex: Hex,
) -> Result<bool, RuleError> {
    for (i, u) in units.iter().enumerate() {
        if st.hex_of(*u) != Some(hex) {
            continue;
        }
        kill(ctx, st, *u)?;
        let rest = || match &units[i + 1..] {
            [] => vec![],
            r => vec![Then::Kill {
                units: r.to_vec(),
                hex,
            }],
        };
        if super::ask::paused(st, rest) {
            return Ok(true);
        }
    }
    Ok(false)
}

fn fresh(loc: Loc) -> super::state::UnitState {
    super::state::UnitState {
        loc,
        rebel: false,
        gallic: false,
    }
}

/// Every non-Gallic rebel flips back to loyal (8.7, 8.11; R-F10).
pub fn flip_loyal(st: &mut State, d: &Data) {
    for i in 0..st.units.len() {
        let u = UnitId(i as u16);
        let s = st.unit_mut(u);
        if s.rebel && !s.gallic && d.kind(u) != Kind::CoEmperor {
            s.rebel = false;
        }
    }
    st.bc_rebels.clear();
}

/// Is this a TP-producing hex that may be looted (6.3)?
pub fn tp_hex(d: &Data, h: Hex) -> bool {
    d.hex(h).is_some_and(|x| x.tp > 0)
}

/// The side a TP hex's revenue belongs to: Parthia's to the Germano-Parthian,
/// everything else to Rome (6.1, 6.3).
fn hex_owner(d: &Data, h: Hex) -> Player {
    if d.region(h) == Region::Parthia {
        Player::Gp
    } else {
        Player::Roman
    }
}

/// Loots a hex (6.3): markers under way are lost (6.4, 8.13).
pub fn loot(ctx: &mut Ctx, st: &mut State, h: Hex, why: &str) {
    if st.looted.insert(h) {
        ctx.say(
            format!("{} is looted: {why} (6.3)", ctx.d.hex_name(h)),
            vec![h],
        );
    }
    st.rebuilding.remove(&h);
    if st.fortify == Some(h) {
        st.fortify = None;
        ctx.say(
            format!("the fortification of {h} is abandoned (8.13)"),
            vec![h],
        );
    }
}

/// Romans turned rebel where they stand by `rule` (8.7, 8.10) leave any client
/// garrison or Palmyran with them sharing a hex with its enemies, which no
/// rule allows (10.4, 10.5; those units have no rebel side). Ruling: they
/// fall to the new rebels, eliminated.
pub fn clients_fall_to_rebels(
    ctx: &mut Ctx,
    st: &mut State,
    h: Hex,
    rule: &str,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let left: Vec<UnitId> = st
        .at(h)
        .filter(|u| st.faction(d, *u).hostile(Faction::Rebel))
        .collect();
    for u in left {
        ctx.say(
            format!(
                "{} in {h} falls to the new rebels (ruling; {rule})",
                d.uid(u)
            ),
            vec![h],
        );
        kill(ctx, st, u)?;
    }
    Ok(())
}

/// Enemy units that appear in a hex without entering it (Romans changing
/// sides where they stand, 8.3, 8.7, 8.10, 9.5; the rebel garrison of a
/// refused Bread & Circuses, 14.3) occupy it as an entry would. 8.13 and 8.14
/// end alike: "actual occupation by one or more enemy units" aborts the
/// fortification or the rebuild under way there.
pub fn occupied_in_place(ctx: &mut Ctx, st: &mut State, h: Hex) {
    if ctx.version < 12 || !st.anti_roman_in(ctx.d, h) {
        return;
    }
    if st.fortify == Some(h) {
        st.fortify = None;
        ctx.say(
            format!("the enemy now holding {h} aborts its fortification (8.13)"),
            vec![h],
        );
    }
    if st.rebuilding.remove(&h) {
        ctx.say(
            format!("the enemy now holding {h} overturns its rebuilding (8.14, 6.4)"),
            vec![h],
        );
    }
}

/// Everything that happens when `units` (of faction `f`) enter `h`: looting
/// and Parthian loot TP (6.3, 6.5), a rebuild or fortification overturned
/// (6.4, 8.13), sudden death (4.2), Parthian collapse (7.3), the end of the
/// Gallic Empire (9.5), a rebel co-emperor in Rome (8.3).
pub fn entered(
    ctx: &mut Ctx,
    st: &mut State,
    f: Faction,
    units: &[UnitId],
    h: Hex,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let owner = hex_owner(d, h);
    let enemy_entry = match owner {
        Player::Roman => f.anti_roman(),
        Player::Gp => matches!(f, Faction::Loyal | Faction::Rebel | Faction::PalmyraRoman),
    };
    let gallic_entry =
        st.gallic == Gallic::Active && d.region(h) == Region::Gallic && f == Faction::Loyal;
    if enemy_entry && (st.rebuilding.contains(&h) || st.fortify == Some(h)) {
        st.rebuilding.remove(&h);
        if st.fortify == Some(h) {
            st.fortify = None;
        }
        ctx.say(
            format!("the enemy in {h} overturns the work there (6.4, 8.13)"),
            vec![h],
        );
    }
    if (enemy_entry || gallic_entry)
        && !held_by_own(ctx, st, f, units, h)
        && tp_hex(d, h)
        && !st.looted.contains(&h)
    {
        loot(ctx, st, h, "first entered by an enemy unit");
        if owner == Player::Gp && f == Faction::Loyal {
            let tp = d.hex(h).map_or(0, |x| x.tp);
            st.treasury += tp;
            ctx.say(format!("Rome takes {tp} TP of plunder (6.5)"), vec![h]);
        }
        if h == d.special.dacia || h == d.special.decumates {
            st.riverine_lost = true;
            ctx.say(
                "riverine movement is lost for the rest of the game (12.7)",
                vec![h],
            );
        }
        if h == d.special.palmyra && f.anti_roman() && st.palmyra != Palmyra::Gp {
            ctx.say("Palmyra looted: it no longer pays Rome (6.5)", vec![h]);
        }
    }
    if f == Faction::Loyal && st.bc_rebels.remove(&h) {
        ctx.say(
            format!(
                "loyal troops retake {} from the revolt; it must be rebuilt to pay (14.3)",
                d.hex_name(h)
            ),
            vec![h],
        );
    }
    if f == Faction::German && h == d.special.rome {
        win(
            ctx,
            st,
            Player::Gp,
            "a Germanic tribe enters Rome/Ostia: Germano-Parthian sudden-death victory (4.2)"
                .into(),
        );
        return Ok(());
    }
    if matches!(f, Faction::Loyal | Faction::Rebel) && h == d.special.ctesiphon && !st.collapsed {
        super::economics::collapse(ctx, st)?;
    }
    let emperor = units.iter().any(|u| d.kind(*u) == Kind::Emperor);
    if emperor && h == d.special.trier && st.gallic == Gallic::Active {
        st.gallic = Gallic::Ended;
        for i in 0..st.units().len() {
            let s = st.unit_mut(UnitId(i as u16));
            if s.gallic {
                s.gallic = false;
                s.rebel = false;
            }
        }
        ctx.say("the emperor enters Trier: the Gallic Empire ends and its units return to loyalty (9.5)", vec![h]);
    }
    let coemp = units.iter().any(|u| d.kind(*u) == Kind::CoEmperor);
    if coemp && f == Faction::Rebel && h == d.special.rome {
        leaders::rebel_in_rome(ctx, st)?;
    }
    Ok(())
}

/// From version 14, does faction `f` already hold `h`, so that its units
/// entering it loot nothing? Rebels hold a hex where other rebel units stand
/// (Romans just converted, 8.3) or a refused Bread & Circuses' revolt (14.3):
/// 8.3 loots only "a loyally defended" or "an entirely undefended" centre
/// (ruling R-C10). The Gallic Empire holds its own hexes while active: 9.5
/// loots only those "entered by loyal Roman units during the rebellion".
fn held_by_own(ctx: &Ctx, st: &State, f: Faction, units: &[UnitId], h: Hex) -> bool {
    let d = ctx.d;
    if ctx.version < 14 {
        return false;
    }
    match f {
        Faction::Rebel => {
            st.bc_rebels.contains(&h)
                || st
                    .at(h)
                    .any(|u| !units.contains(&u) && st.faction(d, u) == Faction::Rebel)
        }
        Faction::Gallic => st.gallic == Gallic::Active && d.region(h) == Region::Gallic,
        _ => false,
    }
}

/// A leader left without friendly units shares their fate (8.4); a stack
/// over the limit after its leader is gone unstacks (10.7).
pub fn after_losses(ctx: &mut Ctx, st: &mut State, hexes: &[Hex]) -> Result<(), RuleError> {
    let d = ctx.d;
    for (i, &h) in hexes.iter().enumerate() {
        let leaders: Vec<UnitId> = st.at(h).filter(|u| d.kind(*u).is_leader()).collect();
        for l in leaders {
            let f = st.faction(d, l);
            if !st.at(h).any(|u| u != l && st.faction(d, u) == f) {
                ctx.say(
                    format!(
                        "{} shares the fate of his last unit in {h} (8.4)",
                        d.kind(l).name()
                    ),
                    vec![h],
                );
                kill(ctx, st, l)?;
                // Version 11: a question in the fall (N9, N10); this hex
                // and the others are done again after the answer.
                if super::ask::paused(st, || vec![Then::AfterLosses(hexes[i..].to_vec())]) {
                    return Ok(());
                }
            }
        }
        leaders::unstack(ctx, st, h)?;
        let rest = || match &hexes[i + 1..] {
            [] => vec![],
            r => vec![Then::AfterLosses(r.to_vec())],
        };
        if super::ask::paused(st, rest) {
            return Ok(());
        }
    }
    Ok(())
}
