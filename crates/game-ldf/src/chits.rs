//! The chit pool and the hands (3.5, 5.6, 8.17-8.19, 14.3): draws with the
//! hand limit and put-backs, chits resolved when drawn, chits shown and put
//! back, chits played as actions, and where each goes after use.

use super::data::{Back, ChitDef, Data, Kind, Region, Timing, UnitId, User};
use super::economics;
use super::effects::{Ctx, illegal, kill, loot, to_pool};
use super::leaders;
use super::placement::{self, GundRule};
use super::stacking;
use super::state::{Faction, Item, Loc, Player, State};
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// The first chit with this effect in a player's hand that he may use now
/// (not drawn in the action under way, 8.17; R-G3).
pub fn holds_effect(d: &Data, st: &State, p: Player, effect: &str) -> Option<u8> {
    st.hand(p)
        .iter()
        .copied()
        .filter(|c| !st.fresh.contains(c))
        .find(|c| d.chit(*c).is_some_and(|x| x.effect == effect))
}

/// Chit `c` may be used by `p` now, or the error saying why not: he must
/// hold it (8.18), and not have drawn it in this action (8.17; R-G3).
pub fn check_usable(st: &State, p: Player, c: u8) -> Result<(), RuleError> {
    if !st.hand(p).contains(&c) {
        return Err(illegal(format!("you do not hold chit {c}"), "8.18"));
    }
    if st.fresh.contains(&c) {
        return Err(illegal(
            format!("chit {c} was drawn in this action and may be played only in a later one"),
            "8.17; R-G3",
        ));
    }
    Ok(())
}

/// Takes a chit out of a hand after use and sends it where its text says (8.17).
pub fn spend(d: &Data, st: &mut State, p: Player, c: u8) {
    reveal(st, c);
    if let Some(i) = st.hands[p.index()].iter().position(|x| *x == c) {
        st.hands[p.index()].remove(i);
    }
    match d.chit(c).map(|x| x.back) {
        Some(Back::Turn) => st.aside.push(c),
        Some(Back::Removed) => st.removed.push(c),
        _ => to_pool(st, Item::Chit(c)),
    }
}

/// The chit is shown by rule: its hidden draw is published (early disclosure).
fn reveal(st: &mut State, c: u8) {
    if let Some(r) = st.drawn.remove(&c) {
        st.reveal.push(r);
    }
}

/// Places the siege chit on the besieging force (14.3 (21); R-G9).
pub fn siege_place(ctx: &mut Ctx, st: &mut State, c: u8, hex: Hex, target: Hex) {
    if let Some(i) = st.hands[Player::Roman.index()].iter().position(|x| *x == c) {
        st.hands[Player::Roman.index()].remove(i);
    }
    reveal(st, c);
    st.siege = Some(super::state::Siege {
        hex,
        target,
        chit: c,
    });
    ctx.say(
        format!(
            "the Roman places Heavy Siege Equipment (chit {c}) with his force in {hex} against {} (14.3)",
            ctx.d.hex_name(target)
        ),
        vec![hex, target],
    );
}

/// The siege chit goes back to the pool once its target is taken (entered
/// by a loyal Roman unit, or looted) or no Roman unit is left with it (14.3
/// (21); R-G9). Checked after every order.
pub fn siege_check(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    let Some(s) = st.siege else { return };
    let loyal = |st: &State, h: Hex| st.at(h).any(|u| st.faction(d, u) == Faction::Loyal);
    let taken = loyal(st, s.target) || st.looted.contains(&s.target);
    if taken || !loyal(st, s.hex) {
        st.siege = None;
        to_pool(st, Item::Chit(s.chit));
        ctx.say(
            format!(
                "the Heavy Siege Equipment in {} goes back to the pool: {} (14.3)",
                s.hex,
                if taken {
                    "its target is taken"
                } else {
                    "no Roman unit is left with it"
                }
            ),
            vec![s.hex],
        );
    }
}

/// 5.6: at the start of each turn after the first, hands and set-aside chits
/// go back into the pool.
pub fn turn_start(st: &mut State) {
    st.fresh.clear();
    // Back unseen: the draws stay sealed until the end.
    st.drawn.clear();
    let mut back: Vec<u8> = Vec::new();
    for h in st.hands.iter_mut() {
        back.append(h);
    }
    back.append(&mut st.aside);
    for c in back {
        to_pool(st, Item::Chit(c));
    }
}

/// The draw action (8.17): put one back first if the hand is full (R-G1).
pub fn draw_action(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    put_back: Option<u8>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    let limit = d.values.hand_limit;
    if let Some(c) = put_back {
        if !st.hand(p).contains(&c) {
            return Err(illegal(
                format!("you do not hold chit {c} to put back"),
                "8.17",
            ));
        }
        let i = st.hands[p.index()]
            .iter()
            .position(|x| *x == c)
            .unwrap_or(0);
        st.hands[p.index()].remove(i);
        st.drawn.remove(&c);
        to_pool(st, Item::Chit(c));
        ctx.say(
            format!("the {} puts a chit back into the pool (8.17)", p.title()),
            vec![],
        );
    } else if st.hand(p).len() >= limit {
        return Err(illegal(
            format!("you hold {limit} chits: put one back first with `draw return N`"),
            "8.17",
        ));
    }
    if st.pool.is_empty() {
        return Err(illegal("the chit pool is empty", "8.17"));
    }
    draw_one(ctx, st, p, true)
}

/// 8.19: a free draw after a won battle, when the hand has room.
pub fn free_draw(ctx: &mut Ctx, st: &mut State, p: Player) -> Result<(), RuleError> {
    let limit = ctx.d.values.hand_limit;
    if st.hand(p).len() >= limit || st.pool.is_empty() {
        let why = if st.pool.is_empty() {
            "the pool is empty".to_string()
        } else {
            format!("he holds {limit} chits, the most a hand may (8.17)")
        };
        ctx.say(
            format!(
                "the {} won the battle but draws no free chit: {why} (8.19)",
                p.title()
            ),
            vec![],
        );
        return Ok(());
    }
    // Version 15: the draw itself is told once, by `draw_one` (version 14
    // said "draws" here too).
    let won = if ctx.version >= 15 {
        "won the battle: a free draw from the pool"
    } else {
        "won the battle and draws a free chit"
    };
    ctx.say(format!("the {} {won} (8.19)", p.title()), vec![]);
    draw_one(ctx, st, p, false)
}

/// Draws one item and deals with it.
fn draw_one(ctx: &mut Ctx, st: &mut State, p: Player, action: bool) -> Result<(), RuleError> {
    let d = ctx.d;
    let (i, roll) = ctx.pick_for(p, st.pool.len(), "draw")?;
    let item = st.pool.remove(i);
    // The sealed draw commits to the item itself, not only to an index into
    // a pool the other side cannot see (it holds chits put back unseen).
    if roll.is_some() {
        ctx.dice.name_last(&match item {
            Item::Chit(c) => format!("chit {c}"),
            Item::Cavalry(u) => format!("cavalry {}", d.uid(u)),
        });
    }
    let c = match item {
        Item::Cavalry(u) => {
            // Shown at once (14.3): the draw is published.
            st.reveal.extend(roll);
            return cavalry(ctx, st, p, u);
        }
        Item::Chit(c) => c,
    };
    if let Some(r) = roll {
        st.drawn.insert(c, r);
    }
    let Some(def) = d.chit(c).cloned() else {
        return Ok(());
    };
    let into_hand = def.timing != Timing::Immediate
        && !matches!(
            (def.shown_by, p),
            (Some(User::Roman), Player::Roman) | (Some(User::Gp), Player::Gp)
        )
        && !(def.effect == "siege" && p == Player::Gp);
    if !into_hand {
        // Resolved, shown or handed over in the open (8.17, 14.3).
        reveal(st, c);
    }
    if def.timing == Timing::Immediate {
        ctx.say(
            format!(
                "the {} draws chit {c}, {} (resolved at once, 8.17)",
                p.title(),
                def.title
            ),
            vec![],
        );
        return immediate(ctx, st, p, c, &def.effect, action);
    }
    let shown = matches!(
        (def.shown_by, p),
        (Some(User::Roman), Player::Roman) | (Some(User::Gp), Player::Gp)
    );
    if shown {
        ctx.say(
            format!(
                "the {} draws chit {c}, {}, shows it and puts it back (14.3)",
                p.title(),
                def.title
            ),
            vec![],
        );
        to_pool(st, Item::Chit(c));
        return Ok(());
    }
    st.fresh.push(c);
    if def.effect == "siege" && p == Player::Gp {
        st.hands[Player::Roman.index()].push(c);
        ctx.say("the Germano-Parthian draws the Roman Heavy Siege Equipment and hands it to the Roman (14.3; R-G8)", vec![]);
        return Ok(());
    }
    st.hands[p.index()].push(c);
    // One draw, told once to all and then, to the drawer alone, which
    // chit it is: the drawer reads "the Roman draws a chit" followed by
    // what he drew, not two accounts of it.
    ctx.say(
        format!(
            "the {} draws a chit ({} in hand, 14.3)",
            p.title(),
            st.hand(p).len()
        ),
        vec![],
    );
    ctx.tell(p, format!("the chit you drew: {c}, {} (14.3)", def.title));
    Ok(())
}

/// A Roman cavalry vexillation drawn from the pool (14.3): placed at once by
/// the Roman (N8), then the cavalry reserve roll.
fn cavalry(ctx: &mut Ctx, st: &mut State, p: Player, u: UnitId) -> Result<(), RuleError> {
    let d = ctx.d;
    let prefer = st.standing[Player::Roman.index()].prefer.clone();
    let emperor = st.emperor(d).and_then(|e| st.hex_of(e));
    let hex = prefer
        .iter()
        .copied()
        .chain(emperor)
        .chain(leaders::largest_army(d, st))
        .chain(d.all_hexes())
        .find(|h| cavalry_may_join(d, st, u, *h));
    // Version 9: the Roman is asked when he listed no hex and more than one
    // will do (digest 2.7, N8); the default, the emperor's hex and so on,
    // is offered first.
    if let Some(h) = hex
        && p == Player::Gp
        && prefer.is_empty()
        && super::ask::may_ask(ctx, Player::Roman)
    {
        let others: Vec<Hex> = d
            .all_hexes()
            .filter(|x| *x != h && cavalry_may_join(d, st, u, *x))
            .collect();
        let about = super::ask::About::Cavalry { unit: u };
        if super::ask::ask_if_real(ctx, st, Player::Roman, h, others, about) {
            return Ok(());
        }
    }
    cavalry_at(ctx, st, p, u, hex)
}

/// May cavalry `u` join the Roman army in `h`: loyal units there, no
/// cavalry, stacking kept (14.3)?
fn cavalry_may_join(d: &Data, st: &State, u: UnitId, h: Hex) -> bool {
    st.at(h).any(|x| st.faction(d, x) == Faction::Loyal)
        && !st.at(h).any(|x| d.kind(x) == Kind::Cavalry)
        && stacking::check_with(d, st, h, &[u]).is_ok()
}

/// Drawn cavalry `u` joins the army in `hex` (or, with none, goes back to
/// the pool, R-G12), then the cavalry reserve roll (14.3).
pub(super) fn cavalry_at(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    u: UnitId,
    hex: Option<Hex>,
) -> Result<(), RuleError> {
    let d = ctx.d;
    match hex {
        Some(h) => {
            st.set_loc(u, Loc::Hex(h));
            ctx.say(
                format!(
                    "the {} draws cavalry {}: it joins the Roman army in {} (14.3)",
                    p.title(),
                    d.uid(u),
                    d.hex_name(h)
                ),
                vec![h],
            );
        }
        None => {
            to_pool(st, Item::Cavalry(u));
            ctx.say("a cavalry vexillation is drawn but has nowhere to go and returns to the pool (R-G12)", vec![]);
        }
    }
    let r = ctx.d6(st, "cavalry-reserve")?;
    if r == 6 && !st.reserve {
        st.reserve = true;
        ctx.say(
            "reserve roll 6: the central cavalry reserve may be formed (14.3, 10.8)",
            vec![],
        );
        // Cavalry now count for stacking (10.8): stacks over the limit unstack
        // as in 10.7 (ruling: the text does not say).
        let mut hexes: Vec<Hex> = st
            .on_map()
            .filter(|(x, _)| d.kind(*x) == Kind::Cavalry)
            .map(|(_, h)| h)
            .collect();
        hexes.sort();
        hexes.dedup();
        for (i, h) in hexes.iter().enumerate() {
            leaders::unstack(ctx, st, *h)?;
            // Version 11: asked where a unit goes (N10), the other stacks
            // unstack after the answer.
            let rest = || {
                hexes[i + 1..]
                    .iter()
                    .map(|x| super::ask::Then::Unstack(*x))
                    .collect()
            };
            if super::ask::paused(st, rest) {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// Chits resolved when drawn (8.17): 10, 18, 19, 20.
fn immediate(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    c: u8,
    effect: &str,
    action: bool,
) -> Result<(), RuleError> {
    let d = ctx.d;
    match effect {
        "gods_bored" => {
            if st.turn < d.values.turns {
                let r = ctx.d6(st, "gods-bored")?;
                if r % 2 == 0 {
                    ctx.say(
                        format!("roll {r}: the gods are bored and the turn ends (5.4)"),
                        vec![],
                    );
                    st.aside.push(c);
                    // However it was drawn, the turn ends (5.4(1)).
                    let _ = action;
                    st.passes = 2;
                    return Ok(());
                }
                ctx.say(format!("roll {r}: nothing happens (14.3)"), vec![]);
            } else {
                ctx.say("Turn 5: no event (14.3)", vec![]);
                // 14.3: "simply set it aside" (version 10; version 9 put it
                // back into the pool).
                if ctx.version >= 10 {
                    st.aside.push(c);
                    return Ok(());
                }
            }
            to_pool(st, Item::Chit(c));
        }
        "bread_circuses" => {
            bread_circuses(ctx, st)?;
            to_pool(st, Item::Chit(c));
        }
        "persecutions" => {
            let n = ctx.d6_as(st, "persecutions", |r| r + 1)? + 1;
            economics::pay(ctx, st, n, "Persecutions")?;
            st.removed.push(c);
        }
        "plague" => {
            plague(ctx, st, p)?;
            to_pool(st, Item::Chit(c));
        }
        _ => to_pool(st, Item::Chit(c)),
    }
    Ok(())
}

/// Bread & Circuses (14.3): the Roman sponsors (N5) or refuses; then the
/// Germano-Parthian plants a rebel garrison (N6: highest TP, lowest id).
fn bread_circuses(ctx: &mut Ctx, st: &mut State) -> Result<(), RuleError> {
    // Version 10: the Roman who stated no `sponsor` is asked when the
    // Germano-Parthian drew it (N5); the decision comes before the die.
    if ctx.version >= 10
        && super::ask::may_ask(ctx, Player::Roman)
        && !st.standing[Player::Roman.index()].sponsor_given
    {
        let q = super::ask::Question {
            to: Player::Roman,
            hexes: Vec::new(),
            about: super::ask::About::Games,
            then: Vec::new(),
        };
        super::ask::stop(ctx, st, q);
        return Ok(());
    }
    games(ctx, st, None)
}

/// Bread & Circuses decided: sponsored (`Some(true)`), refused, or by the
/// Roman's standing `sponsor` order (`None`), then carried out (14.3).
pub(super) fn games(ctx: &mut Ctx, st: &mut State, yes: Option<bool>) -> Result<(), RuleError> {
    let d = ctx.d;
    let sponsor = yes.unwrap_or(st.treasury >= st.standing[Player::Roman.index()].sponsor_at);
    if yes == Some(false) {
        ctx.say("Rome refuses to sponsor the games (14.3)", vec![]);
    }
    if sponsor {
        let n = ctx.d6_as(st, "bread-circuses", |r| r + 1)? + 1;
        economics::pay(ctx, st, n, "the games")?;
        return Ok(());
    }
    let garrison = d
        .of_kind(Kind::RomanGarrison)
        .find(|g| matches!(st.unit(*g).loc, Loc::Aside | Loc::Dead));
    let eligible = |x: &super::data::HexInfo| {
        x.region.is_core()
            && x.tp > 0
            && x.hex != d.special.rome
            && !st.looted.contains(&x.hex)
            && st.at(x.hex).next().is_none()
    };
    // N6: the Germano-Parthian's `revolt` list first, else the richest.
    let site = st.standing[Player::Gp.index()]
        .revolt
        .iter()
        .find(|h| d.hex(**h).is_some_and(eligible))
        .copied()
        .or_else(|| {
            d.hexes
                .iter()
                .filter(|x| eligible(x))
                .max_by_key(|x| (x.tp, std::cmp::Reverse(x.hex)))
                .map(|x| x.hex)
        });
    let given = !st.standing[Player::Gp.index()].revolt.is_empty();
    match (garrison, site) {
        (Some(g), Some(h)) if !given && super::ask::may_ask(ctx, Player::Gp) => {
            // Version 9: the Germano-Parthian is asked when he listed no hex
            // and more than one will do (digest 2.7, N6); the richest first.
            let others: Vec<Hex> = d
                .hexes
                .iter()
                .filter(|x| x.hex != h && eligible(x))
                .map(|x| x.hex)
                .collect();
            let about = super::ask::About::Revolt { garrison: g };
            if !super::ask::ask_if_real(ctx, st, Player::Gp, h, others, about) {
                revolt_at(ctx, st, g, h);
            }
        }
        (Some(g), Some(h)) => revolt_at(ctx, st, g, h),
        _ => ctx.say(
            "Rome refuses the games, but there is no hex or garrison for a revolt (R-C7)",
            vec![],
        ),
    }
    Ok(())
}

/// The refused games' revolt in `h` behind rebel garrison `g` (14.3).
pub(super) fn revolt_at(ctx: &mut Ctx, st: &mut State, g: UnitId, h: Hex) {
    *st.unit_mut(g) = super::state::UnitState {
        loc: Loc::Hex(h),
        rebel: true,
        gallic: false,
    };
    st.bc_rebels.insert(h);
    st.looted.insert(h);
    ctx.say(
        format!(
            "Rome refuses the games: {} rises in revolt behind a rebel garrison (14.3)",
            ctx.d.hex_name(h)
        ),
        vec![h],
    );
    super::effects::occupied_in_place(ctx, st, h);
}

/// Plague (chit 10, stand-in; see tables.toml).
fn plague(ctx: &mut Ctx, st: &mut State, p: Player) -> Result<(), RuleError> {
    let d = ctx.d;
    let r = ctx.d6(st, "plague")?;
    if r == 1 {
        ctx.say(
            "roll 1: the plague carries off the emperor (stand-in; 14.4)",
            vec![],
        );
        if let Some(e) = st.emperor(d).filter(|e| st.hex_of(*e).is_some()) {
            kill(ctx, st, e)?;
        }
        return Ok(());
    }
    if r <= 3 {
        let victim = p.other();
        let site = d.hexes.iter().map(|x| x.hex).find(|h| {
            let region = d.region(*h);
            let theirs = match victim {
                Player::Roman => region.is_caucasus() || region == Region::Palmyra,
                Player::Gp => region == Region::Parthia,
            };
            theirs && st.at(*h).any(|u| d.kind(u).is_garrison()) && !st.looted.contains(h)
        });
        if let Some(h) = site {
            let gs: Vec<UnitId> = st.at(h).filter(|u| d.kind(*u).is_garrison()).collect();
            for g in gs {
                st.set_loc(g, Loc::Dead);
            }
            st.plague.insert(h);
            ctx.say(format!("roll {r}: plague empties the garrison of {} without looting it (6.3; stand-in)", d.hex_name(h)), vec![h]);
            // A leader whose last unit was that garrison shares its fate (8.4).
            return super::effects::after_losses(ctx, st, &[h]);
        }
    }
    ctx.say(format!("roll {r}: the plague passes (stand-in)"), vec![]);
    Ok(())
}

/// Chits that may be played as an action now by `p` (for `legal`).
pub fn playable(d: &Data, st: &State, p: Player) -> Vec<u8> {
    st.hand(p)
        .iter()
        .copied()
        .filter(|c| !st.fresh.contains(c))
        .filter(|c| {
            d.chit(*c).is_some_and(|x| {
                x.timing == Timing::Action
                    && matches!(
                        (x.user, p),
                        (User::Both, _) | (User::Roman, Player::Roman) | (User::Gp, Player::Gp)
                    )
                    && matches!(
                        x.effect.as_str(),
                        "mad_dash"
                            | "resurgence"
                            | "german_increase"
                            | "windfall"
                            | "gp_only"
                            | "spies"
                            | "jaws"
                            | "valley"
                    )
            })
        })
        .collect()
}

/// From version 8, refuses the hexes named for the units chit 22 or 23
/// brings back if the rule they follow (7.2, 7.1) does not allow them,
/// before the chit is spent or a die rolled. The number of tribes is rolled
/// (die + 3), so that list may be longer than the tribes that come.
fn check_places(d: &Data, st: &State, c: u8, effect: &str, at: &[Hex]) -> Result<(), RuleError> {
    match effect {
        "resurgence" => {
            let dead = d
                .of_kind(Kind::Gund)
                .filter(|u| st.unit(*u).loc == Loc::Dead)
                .count();
            let cite = format!("14.3 ({c}), 7.2");
            placement::check_gunds(d, st, at, Some(dead), GundRule::Centres, &cite)
        }
        "german_increase" => placement::check_tribes(d, st, at, None, &format!("14.3 ({c}), 7.1")),
        _ => Ok(()),
    }
}

/// From version 14, refuses before the chit is spent or a die rolled what a
/// play order names that its chit cannot use (version 13 left it out
/// unsaid): `tp` but for Revenue Windfall, at most five TP (14.3); hexes
/// but for the chits that place or move units; a windfall's legions only in
/// core hexes free of enemy units (6.8, R-C13); a seaborne raid's hex a
/// coastal core centre, unlooted and empty (chit 8, stand-in).
fn check_args(
    d: &Data,
    st: &State,
    c: u8,
    effect: &str,
    tp: Option<u32>,
    at: &[Hex],
) -> Result<(), RuleError> {
    let cite = format!("14.3 ({c})");
    if tp.is_some() && effect != "windfall" {
        return Err(illegal(
            format!("chit {c} takes no `tp`: only Revenue Windfall credits TP"),
            "8.18, 14.3",
        ));
    }
    let takes_hexes = matches!(
        effect,
        "resurgence" | "german_increase" | "windfall" | "valley" | "gp_only"
    );
    if !at.is_empty() && !takes_hexes {
        return Err(illegal(
            format!("chit {c} takes no hexes (`at`)"),
            "8.18, 14.3",
        ));
    }
    match effect {
        "windfall" => {
            if let Some(n) = tp.filter(|n| *n > WINDFALL_TP) {
                return Err(illegal(
                    format!("a windfall credits at most {WINDFALL_TP} TP, not {n}"),
                    &cite,
                ));
            }
            if let Some(h) = at.iter().find(|h| !legion_site(d, st, **h)) {
                return Err(illegal(
                    format!(
                        "{h} is not a core hex free of enemy units, where reclaimed legions go"
                    ),
                    &format!("{cite}, 6.8; R-C13"),
                ));
            }
        }
        "gp_only" if !at.is_empty() && !at.iter().any(|h| raid_site(d, st, *h)) => {
            return Err(illegal(
                "none of the hexes named is a coastal core population centre, unlooted and empty",
                &format!("{cite}, stand-in"),
            ));
        }
        _ => {}
    }
    Ok(())
}

/// Most TP a Revenue Windfall credits (14.3 "but not more than five").
pub const WINDFALL_TP: u32 = 5;

/// May reclaimed legions be placed in `h` (6.8: core territory not occupied
/// by enemy units; R-C13: not in an active Gallic Empire)?
pub fn legion_site(d: &Data, st: &State, h: Hex) -> bool {
    let gallic = st.gallic == super::state::Gallic::Active && d.region(h) == Region::Gallic;
    d.region(h).is_core() && !st.anti_roman_in(d, h) && !gallic
}

/// May a seaborne raid (chit 8, stand-in) loot `h`?
fn raid_site(d: &Data, st: &State, h: Hex) -> bool {
    d.hex(h).is_some_and(|x| {
        x.region.is_core()
            && x.coastal
            && x.tp > 0
            && !st.looted.contains(&x.hex)
            && st.at(x.hex).next().is_none()
    })
}

/// Plays a chit as an action (8.18); `back` are the chits thrown back into
/// the pool first by From the Jaws of Death (14.3).
#[allow(clippy::too_many_arguments)]
pub fn play(
    ctx: &mut Ctx,
    st: &mut State,
    p: Player,
    c: u8,
    tp: Option<u32>,
    at: &[Hex],
    back: &[u8],
) -> Result<(), RuleError> {
    let d = ctx.d;
    let def = d
        .chit(c)
        .cloned()
        .ok_or_else(|| illegal(format!("there is no chit {c}"), "3.5"))?;
    may_play(ctx, st, p, c, &def, tp, at, !back.is_empty())?;
    let mut rest: Vec<u8> = st.hand(p).to_vec();
    for b in back {
        match rest.iter().position(|x| x == b) {
            Some(i) if *b != c => {
                rest.remove(i);
            }
            _ => {
                return Err(illegal(
                    format!("you do not hold chit {b} to throw back"),
                    "14.3",
                ));
            }
        }
    }
    spend(d, st, p, c);
    ctx.say(
        format!("the {} plays chit {c}, {} (8.18)", p.name(), def.title),
        vec![],
    );
    if !back.is_empty() {
        throw_back(ctx, st, p, back);
    }
    match def.effect.as_str() {
        "mad_dash" => {
            st.extra = true;
            ctx.say(
                "the player takes one more action at once (5.3; stand-in)",
                vec![],
            );
        }
        "resurgence" => economics::parthia_returns(ctx, st, at, GundRule::Centres, "14.3 (22)")?,
        "german_increase" => {
            let n = ctx.d6_as(st, "german-increase", |r| r + 3)? + 3;
            economics::tribes_return(ctx, st, at, n as usize)?;
        }
        "windfall" => economics::windfall(ctx, st, tp.unwrap_or(0), at)?,
        "valley" => super::movement::valley(ctx, st, p, at)?,
        "jaws" => jaws(ctx, st, p)?,
        "spies" => spies(ctx, st, p),
        "gp_only" => seaborne_raid(ctx, st, at),
        _ => {}
    }
    Ok(())
}

/// May `p` play chit `c` as an action now, with these arguments (8.18, 14.3)?
#[allow(clippy::too_many_arguments)]
fn may_play(
    ctx: &Ctx,
    st: &State,
    p: Player,
    c: u8,
    def: &ChitDef,
    tp: Option<u32>,
    at: &[Hex],
    throws_back: bool,
) -> Result<(), RuleError> {
    let d = ctx.d;
    check_usable(st, p, c)?;
    if !playable(d, st, p).contains(&c) {
        return Err(illegal(
            format!(
                "chit {c}, {}, is not played as an action by the {} (or is not yet implemented)",
                def.title,
                p.name()
            ),
            "8.18, 14.3",
        ));
    }
    if def.effect == "jaws" && !jaws_open(d, st, p) {
        return Err(illegal(
            "From the Jaws of Death needs a German in mainland Italy (Roman) or a Roman-side unit in Barbaria or Parthia (Germano-Parthian)",
            "14.3",
        ));
    }
    if throws_back && def.effect != "jaws" {
        return Err(illegal(
            "only From the Jaws of Death throws chits back (`return N,N`)",
            "14.3",
        ));
    }
    if ctx.version >= 8 {
        check_places(d, st, c, &def.effect, at)?;
    }
    if ctx.version >= 14 {
        check_args(d, st, c, &def.effect, tp, at)?;
    }
    Ok(())
}

/// From the Jaws of Death (14.3): a die's worth of chits drawn, up to the
/// hand limit.
fn jaws(ctx: &mut Ctx, st: &mut State, p: Player) -> Result<(), RuleError> {
    let d = ctx.d;
    let r = ctx.d6(st, "jaws")?;
    let room = d.values.hand_limit.saturating_sub(st.hand(p).len());
    let n = (r as usize).min(room);
    ctx.say(
        format!(
            "roll {r}: the {} draws {} (14.3)",
            p.title(),
            super::words::counted_at(ctx.version, n, "chit", "chits")
        ),
        vec![],
    );
    for _ in 0..n {
        if st.pool.is_empty() || st.finished.is_some() {
            break;
        }
        draw_one(ctx, st, p, false)?;
    }
    Ok(())
}

/// Spies (chit 13, stand-in): the other player's hand, told to `p` alone.
fn spies(ctx: &mut Ctx, st: &State, p: Player) {
    let d = ctx.d;
    let theirs: Vec<String> = st
        .hand(p.other())
        .iter()
        .map(|x| format!("{x} {}", d.chit(*x).map_or("?", |c| c.title.as_str())))
        .collect();
    let seen = if theirs.is_empty() {
        "empty".to_string()
    } else {
        theirs.join(", ")
    };
    ctx.tell(
        p,
        format!(
            "your spies report the {}'s hand: {seen} (chit 13, stand-in)",
            p.other().title()
        ),
    );
}

/// A seaborne raid (chit 8, stand-in): the first coastal core centre,
/// unlooted and empty, among those named, is looted.
fn seaborne_raid(ctx: &mut Ctx, st: &mut State, at: &[Hex]) {
    let d = ctx.d;
    let h = d
        .hexes
        .iter()
        .map(|x| x.hex)
        .filter(|h| raid_site(d, st, *h))
        .find(|h| at.is_empty() || at.contains(h));
    match h {
        Some(h) => loot(ctx, st, h, "a seaborne raid (chit 8, stand-in)"),
        None => ctx.say(
            "the seaborne raid finds no coastal core centre unlooted and empty: nothing is looted (chit 8, stand-in)",
            vec![],
        ),
    }
}

/// Chits put back into the pool from a hand: the count is public, which
/// chits only the player's own (R-G2).
fn throw_back(ctx: &mut Ctx, st: &mut State, p: Player, chits: &[u8]) {
    for c in chits {
        if let Some(i) = st.hands[p.index()].iter().position(|x| x == c) {
            st.hands[p.index()].remove(i);
            st.drawn.remove(c);
            to_pool(st, Item::Chit(*c));
        }
    }
    let list: Vec<String> = chits.iter().map(|c| c.to_string()).collect();
    ctx.tell(
        p,
        format!("you put chit(s) {} back into the pool", list.join(", ")),
    );
    ctx.say(
        format!(
            "the {} puts {} chit(s) back into the pool (14.3, 8.17)",
            p.title(),
            chits.len()
        ),
        vec![],
    );
}

/// R-G8: a hand over the limit at the end of its holder's action (the Roman
/// handed the siege chit with six in hand) goes back to the limit, by his
/// `discard` standing order, else the lowest-numbered chits but the siege
/// chit.
pub fn overflow(ctx: &mut Ctx, st: &mut State, p: Player) {
    let d = ctx.d;
    let over = st.hand(p).len().saturating_sub(d.values.hand_limit);
    if over == 0 {
        return;
    }
    let hand = st.hand(p).to_vec();
    let prefs = &st.standing[p.index()].discard;
    let mut order: Vec<u8> = prefs.iter().copied().filter(|c| hand.contains(c)).collect();
    let mut others: Vec<u8> = hand
        .iter()
        .copied()
        .filter(|c| !order.contains(c))
        .collect();
    others.sort_by_key(|c| (d.chit(*c).is_some_and(|x| x.effect == "siege"), *c));
    order.extend(others);
    order.truncate(over);
    throw_back(ctx, st, p, &order);
}

/// From the Jaws of Death may be played (14.3).
pub fn jaws_open(d: &Data, st: &State, p: Player) -> bool {
    st.on_map().any(|(u, h)| match p {
        Player::Roman => d.kind(u) == Kind::Tribe && d.region(h) == Region::Italy,
        Player::Gp => {
            st.owner(d, u) == Some(Player::Roman)
                && matches!(d.region(h), Region::Barbaria | Region::Parthia)
        }
    })
}

/// A chit played at the start of one's own action without spending it
/// (Jaws of Death, ruling R-G4).
pub fn is_free(d: &Data, c: u8) -> bool {
    d.chit(c).is_some_and(|x| x.effect == "jaws")
}
