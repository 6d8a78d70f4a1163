//! Diplomacy and treachery actions (8.7-8.12, 9.4) with salting and its caps
//! (8.8) and Agents in Enemy Camp (14.3).

use super::chits::{holds_effect, spend};
use super::data::{Data, Kind, UnitId};
use super::effects::{
    Ctx, clients_fall_to_rebels, coemperor_grave, flip_loyal, illegal, kill, occupied_in_place,
};
use super::orders::DipTarget;
use super::state::{Faction, Loc, Palmyra, Player, State};
use std::collections::BTreeSet;
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// What a diplomacy or treachery roll is: its label, whether it is treachery
/// against the emperor, and the diplomacy's target (none for treachery).
#[derive(Clone, Copy)]
pub struct Dt<'a> {
    /// The roll's label, e.g. "diplomacy with Palmyra".
    pub what: &'a str,
    /// Treachery against the emperor (8.9).
    pub vs_emperor: bool,
    /// The diplomacy's target.
    pub target: Option<&'a DipTarget>,
}

impl<'a> Dt<'a> {
    /// A diplomacy roll on `target`.
    fn of(what: &'a str, target: &'a DipTarget) -> Self {
        Dt {
            what,
            vs_emperor: false,
            target: Some(target),
        }
    }
}

/// A diplomacy or treachery roll: the die, the actor's modifiers (salt and
/// Agents, at most +3 together, 8.8), the opponent's negative salt (N4) and
/// Agents; results above six count as six; five or six succeeds, and with
/// ruling R-F3 a natural six always does.
pub fn dt_roll(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    (salt, agents): (u32, bool),
    roll: Dt,
) -> Result<bool, RuleError> {
    let Dt {
        what,
        vs_emperor,
        target,
    } = roll;
    let d = ctx.d;
    let v = &d.values;
    let own = own_modifier(ctx, st, p, salt, agents)?;
    let agents_chit = if agents {
        Some(
            holds_effect(d, st, p, "agents")
                .ok_or_else(|| illegal("you do not hold Agents in Enemy Camp", "14.3"))?,
        )
    } else {
        None
    };
    // Version 10: the Roman who stated no `salt` or `agents` is asked before
    // the die (N4) when he has TP or a chit (both counts are public, so the
    // question tells nothing of his hand); the order runs again on his answer.
    let answer = ctx.salted.take();
    if p == Player::Gp && answer.is_none() && roman_is_asked(ctx, st) {
        let about = super::ask::About::Salt {
            target: target.cloned(),
            agents,
            vs_emperor,
        };
        let q = super::ask::Question {
            to: Player::Roman,
            hexes: Vec::new(),
            about,
            then: Vec::new(),
        };
        super::ask::stop(ctx, st, q);
        return Ok(false);
    }
    st.treasury -= salt;
    if let Some(c) = agents_chit {
        spend(d, st, p, c);
    }
    let plus = own.min(v.modifier_cap);
    let minus = if p == Player::Gp {
        roman_counter(ctx, st, answer, vs_emperor)
    } else {
        0
    };
    // Beseech the Gods is decided on the net result (8.8: a salted roll that
    // "fails" is countered by chit 2).
    let net_of = |r: u32, plus: u32, minus: u32| (r + plus).saturating_sub(minus).min(6);
    let roll = ctx.d6_as(st, what, |r| net_of(r, plus, minus))?;
    // 8.8: a roll done again by Beseech the Gods keeps neither salt nor
    // Agents (their TP and chits stay spent) "unless the Roman player made a
    // new TP expenditure": his `resalt N` standing order pays again.
    let (plus, minus) = if ctx.rerolled {
        resalt(ctx, st, p)
    } else {
        (plus, minus)
    };
    let net = net_of(roll, plus, minus);
    let ok = net >= v.success || (roll == 6 && st.options.natural_six);
    say_roll(ctx, what, (roll, plus, minus, net), ok);
    Ok(ok)
}

/// Whether the Roman, who stated no `salt` or `agents`, is asked before the
/// die of a Germano-Parthian roll (N4, version 10): when he has TP or a chit.
fn roman_is_asked(ctx: &Ctx, st: &State) -> bool {
    ctx.version >= 10
        && super::ask::may_ask(ctx, Player::Roman)
        && !st.standing[Player::Roman.index()].salt_given
        && (st.treasury > 0 || !st.hand(Player::Roman).is_empty())
}

/// Reports a diplomacy or treachery roll: the die, the actor's modifier,
/// the Roman's salt against it, the net and the outcome (8.8).
fn say_roll(ctx: &mut Ctx, what: &str, (roll, plus, minus, net): (u32, u32, u32, u32), ok: bool) {
    ctx.say(
        format!(
            "{what}: roll {roll}{}{} = {net}: {} (8.8)",
            if plus > 0 {
                format!(" +{plus}")
            } else {
                String::new()
            },
            if minus > 0 {
                format!(" -{minus} Roman salt")
            } else {
                String::new()
            },
            if ok { "success" } else { "failure" }
        ),
        vec![],
    );
}

/// The actor's own modifier, salt and Agents, checked (8.8): only the
/// Roman salts, within the limit and his treasury, and from version 14
/// never above the cap.
fn own_modifier(
    ctx: &Ctx,
    st: &State,
    p: Player,
    salt: u32,
    agents: bool,
) -> Result<u32, RuleError> {
    let v = &ctx.d.values;
    if salt > 0 && p != Player::Roman {
        return Err(illegal("only the Roman player may salt", "8.8"));
    }
    if salt > v.salt_max || salt > st.treasury {
        return Err(illegal(
            format!(
                "salt is 1 to {} TP, and no more than the treasury holds",
                v.salt_max
            ),
            "8.8",
        ));
    }
    // 8.8: "no combination of salting or chit play is allowed to add more
    // than +3": from version 14 such an order is refused before anything is
    // spent; version 13 spent it all and cut the modifier to +3.
    let own = salt + if agents { AGENTS } else { 0 };
    if ctx.version >= 14 && own > v.modifier_cap {
        return Err(illegal(
            format!(
                "salt {salt}{} adds {own}: no combination of salting and chit play may add more than +{} to a diplomacy or treachery roll",
                if agents {
                    " with Agents in Enemy Camp (+2)"
                } else {
                    ""
                },
                v.modifier_cap
            ),
            "8.8",
        ));
    }
    Ok(own)
}

/// The Roman's answer to a Germanic or Persian roll: negative salt (N4) and
/// Agents in Enemy Camp (14.3), spent now; what they take off the roll.
fn roman_counter(
    ctx: &mut Ctx,
    st: &mut State,
    answer: Option<(u32, bool)>,
    vs_emperor: bool,
) -> u32 {
    let d = ctx.d;
    let v = &d.values;
    let mut minus = 0;
    let (want, play_agents) = answer.unwrap_or_else(|| standing_salt(st, vs_emperor));
    let agents_chit = holds_effect(d, st, Player::Roman, "agents").filter(|_| play_agents);
    let neg = if ctx.version >= 14 {
        negative_salt(ctx, st, want, agents_chit.is_some())
    } else {
        want.min(v.salt_max).min(st.treasury)
    };
    st.treasury -= neg;
    minus += neg;
    if let Some(c) = agents_chit {
        spend(d, st, Player::Roman, c);
        minus += AGENTS;
        ctx.say(
            "the Roman answers with Agents in Enemy Camp (-2; 14.3)",
            vec![],
        );
    }
    minus
}

/// What Agents in Enemy Camp adds to or takes from a roll (14.3).
pub const AGENTS: u32 = 2;

/// The negative salt the Roman pays (version 14): his answer's or standing
/// order's `want`, at most the salt cap (8.8), what the treasury holds, and
/// with his Agents in Enemy Camp (-2) no more than the +3 cap allows in all
/// ("within the same general strictures", 8.8). An answer was checked
/// already; a standing order cut here is told in the events.
fn negative_salt(ctx: &mut Ctx, st: &State, want: u32, agents: bool) -> u32 {
    let d = ctx.d;
    let v = &d.values;
    let room = v.modifier_cap
        - if agents {
            AGENTS.min(v.modifier_cap)
        } else {
            0
        };
    let capped = want.min(v.salt_max);
    let roomed = capped.min(room);
    let neg = roomed.min(st.treasury);
    if neg < want {
        let why = if neg < roomed {
            format!("the treasury holds {}", st.treasury)
        } else if roomed < capped {
            format!(
                "with Agents in Enemy Camp (-2) no combination may take more than {} off",
                v.modifier_cap
            )
        } else {
            format!("salt is at most {} TP", v.salt_max)
        };
        ctx.say(
            format!("the Roman's negative salt of {want} TP is cut to {neg}: {why} (8.8)"),
            vec![],
        );
    }
    neg
}

/// The Roman's negative salt and Agents by his standing orders (N4): `salt
/// treachery` and `agents` against treachery on the emperor, `salt
/// diplomacy` against the rest.
pub fn standing_salt(st: &State, vs_emperor: bool) -> (u32, bool) {
    let s = &st.standing[Player::Roman.index()];
    if vs_emperor {
        (s.salt_treachery, s.agents)
    } else {
        (s.salt_diplomacy, false)
    }
}

/// The Roman's new salt on a diplomacy or treachery roll done again by
/// Beseech the Gods (8.8; digest `resalt_on_beseech`): his `resalt N`
/// standing order, at most the salt cap and the treasury; for his own roll
/// it adds, against the Germano-Parthian's it subtracts. Returns (plus, minus).
fn resalt(ctx: &mut Ctx, st: &mut State, actor: Player) -> (u32, u32) {
    let d = ctx.d;
    let v = &d.values;
    let n = st.standing[Player::Roman.index()]
        .resalt
        .min(v.salt_max)
        .min(v.modifier_cap)
        .min(st.treasury);
    if n == 0 {
        return (0, 0);
    }
    st.treasury -= n;
    ctx.say(
        format!("the Roman salts the roll done again with {n} TP (8.8)"),
        vec![],
    );
    match actor {
        Player::Roman => (n, 0),
        Player::Gp => (0, n),
    }
}

/// Treachery (8.9 by the Germano-Parthian against the emperor; 8.11 by the
/// Roman against a rebel co-emperor).
pub fn treachery(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    salt: u32,
    agents: bool,
) -> Result<(), RuleError> {
    let d = ctx.d;
    match p {
        Player::Gp => {
            let e = st
                .emperor(d)
                .filter(|e| st.hex_of(*e).is_some())
                .ok_or_else(|| illegal("the emperor is not on the map", "8.9"))?;
            let dt = Dt {
                what: "treachery against the emperor",
                vs_emperor: true,
                target: None,
            };
            if dt_roll(ctx, st, p, (salt, agents), dt)? {
                ctx.say("the emperor is assassinated (8.9)", vec![]);
                let h = st.hex_of(e);
                kill(ctx, st, e)?;
                // Version 11: the Roman is asked where the new emperor
                // rises (N9); the stack left behind unstacks after.
                let rest = || h.map(super::ask::Then::Unstack).into_iter().collect();
                if super::ask::paused(st, rest) {
                    return Ok(());
                }
                if let Some(h) = h {
                    super::leaders::unstack(ctx, st, h)?;
                }
            }
        }
        Player::Roman => {
            let co = rebel_coemperor(d, st)
                .ok_or_else(|| illegal("there is no rebel co-emperor", "8.11"))?;
            let dt = Dt {
                what: "treachery against the rebel co-emperor",
                vs_emperor: false,
                target: None,
            };
            if dt_roll(ctx, st, p, (salt, agents), dt)? {
                let h = st.hex_of(co);
                // 8.11: "eliminated and removed to the dead pile".
                st.set_loc(co, coemperor_grave(ctx.version));
                st.unit_mut(co).rebel = false;
                flip_loyal(st, d);
                ctx.say(
                    "the rebel co-emperor is eliminated and the rebels return to loyalty (8.11)",
                    h.into_iter().collect(),
                );
                // The stack he led may now be over the limit (10.7).
                if let Some(h) = h {
                    super::leaders::unstack(ctx, st, h)?;
                }
            }
        }
    }
    Ok(())
}

fn rebel_coemperor(d: &Data, st: &State) -> Option<UnitId> {
    st.coemperor(d)
        .filter(|c| st.hex_of(*c).is_some() && st.unit(*c).rebel)
}

/// Diplomacy (8.10, 8.12, 9.4).
pub fn diplomacy(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    t: &DipTarget,
    salt: u32,
    agents: bool,
) -> Result<(), RuleError> {
    match (p, t) {
        (Player::Roman, DipTarget::Tribe(u)) => with_tribe(ctx, st, *u, t, (salt, agents)),
        (Player::Gp, DipTarget::CoEmperor) => with_coemperor(ctx, st, t, (salt, agents)),
        (Player::Gp, DipTarget::Palmyra) => with_palmyra(ctx, st, t, (salt, agents)),
        _ => Err(illegal(
            "that diplomacy is not open to you",
            "8.12 design note",
        )),
    }
}

/// The Roman's diplomacy with Germanic tribe `u` in his core territory
/// (8.12): bought off, it leaves the map.
fn with_tribe(
    ctx: &mut Ctx,
    st: &mut State,
    u: UnitId,
    t: &DipTarget,
    (salt, agents): (u32, bool),
) -> Result<(), RuleError> {
    let d = ctx.d;
    let p = Player::Roman;
    let h = st
        .hex_of(u)
        .filter(|h| d.region(*h).is_core() && d.kind(u) == Kind::Tribe);
    let h = h.ok_or_else(|| {
        illegal(
            format!(
                "{} is not a Germanic tribe in Roman core territory",
                d.uid(u)
            ),
            "8.12",
        )
    })?;
    if dt_roll(
        ctx,
        st,
        p,
        (salt, agents),
        Dt::of("diplomacy with a tribe", t),
    )? {
        st.set_loc(u, Loc::Dead);
        ctx.say(
            format!("{} is bought off and leaves {h} (8.12)", d.uid(u)),
            vec![h],
        );
    }
    Ok(())
}

/// The Germano-Parthian's diplomacy with the loyal co-emperor (8.10): he
/// and his stack turn rebel.
fn with_coemperor(
    ctx: &mut Ctx,
    st: &mut State,
    t: &DipTarget,
    (salt, agents): (u32, bool),
) -> Result<(), RuleError> {
    let d = ctx.d;
    let p = Player::Gp;
    let co = st
        .coemperor(d)
        .filter(|c| st.hex_of(*c).is_some() && !st.unit(*c).rebel);
    let co = co.ok_or_else(|| illegal("there is no loyal co-emperor", "8.10"))?;
    let dt = Dt::of("diplomacy with the co-emperor", t);
    if dt_roll(ctx, st, p, (salt, agents), dt)? {
        let h = st.hex_of(co).unwrap_or(d.special.rome);
        let us: Vec<UnitId> = st.at(h).filter(|u| d.kind(*u).is_roman()).collect();
        for u in us {
            st.unit_mut(u).rebel = true;
        }
        ctx.say(
            format!("the co-emperor and his stack in {h} turn rebel (8.10)"),
            vec![h],
        );
        clients_fall_to_rebels(ctx, st, h, "8.10")?;
        occupied_in_place(ctx, st, h);
    }
    Ok(())
}

/// The Germano-Parthian's diplomacy with Palmyra from Turn 4 (9.4).
fn with_palmyra(
    ctx: &mut Ctx,
    st: &mut State,
    t: &DipTarget,
    (salt, agents): (u32, bool),
) -> Result<(), RuleError> {
    let d = ctx.d;
    let p = Player::Gp;
    if st.turn < 4 {
        return Err(illegal("diplomacy with Palmyra starts in Turn 4", "9.4"));
    }
    match st.palmyra {
        Palmyra::Gp => return Err(illegal("Palmyra is already your ally", "9.4")),
        Palmyra::Roman { attacked: true } => {
            return Err(illegal(
                "Palmyra, attacked in Turns 1-2, is Rome's unswerving ally",
                "9.2; R-H1",
            ));
        }
        _ => {}
    }
    if dt_roll(
        ctx,
        st,
        p,
        (salt, agents),
        Dt::of("diplomacy with Palmyra", t),
    )? {
        st.palmyra = Palmyra::Gp;
        ctx.say(
            "Palmyra joins the Germano-Parthian for good (9.4)",
            vec![d.special.palmyra],
        );
    }
    Ok(())
}

/// The Roman activates Palmyra in Turn 3 (9.3).
pub fn activate_palmyra(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    if st.turn != 3 || st.palmyra != Palmyra::Inactive {
        return Err(illegal(
            "Palmyra may be activated by Rome only in Turn 3, while inactive",
            "8.15, 9.3",
        ));
    }
    st.palmyra = Palmyra::Roman { attacked: false };
    ctx.say(
        "Rome activates Palmyra as its ally (9.3)",
        vec![ctx.d.special.palmyra],
    );
    Ok(())
}

/// The Germano-Parthian activates the Gallic Empire (9.5).
pub fn activate_gaul(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    let d = ctx.d;
    if st.turn < st.options.gallic_turn || st.gallic != super::state::Gallic::Dormant {
        return Err(illegal(
            format!(
                "the Gallic Empire may be activated once, from Turn {}",
                st.options.gallic_turn
            ),
            "8.15, 9.5; R-H5",
        ));
    }
    let inside = |u: &UnitId| {
        st.hex_of(*u)
            .is_some_and(|h| d.region(h) == super::data::Region::Gallic)
    };
    let blocked = (0..st.units.len())
        .map(|i| UnitId(i as u16))
        .filter(inside)
        .any(|u| {
            d.kind(u).is_leader() || st.faction(d, u) == Faction::Rebel || d.kind(u) == Kind::Tribe
        });
    if blocked {
        return Err(illegal(
            "no Roman leader, rebel or German may be inside Gaul",
            "9.5",
        ));
    }
    let us: Vec<UnitId> = (0..st.units.len())
        .map(|i| UnitId(i as u16))
        .filter(inside)
        .filter(|u| d.kind(*u).is_roman())
        .collect();
    for u in &us {
        let s = st.unit_mut(*u);
        s.rebel = true;
        s.gallic = true;
    }
    let held: BTreeSet<Hex> = us.iter().filter_map(|u| st.hex_of(*u)).collect();
    for h in held {
        occupied_in_place(ctx, st, h);
    }
    if st
        .fortify
        .is_some_and(|h| d.region(h) == super::data::Region::Gallic)
    {
        st.fortify = None;
    }
    st.gallic = super::state::Gallic::Active;
    ctx.say(
        format!(
            "the Gallic Empire rises: {} Roman units in Gaul turn rebel (9.5)",
            us.len()
        ),
        vec![],
    );
    Ok(())
}
