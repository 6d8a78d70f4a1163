//! Optional rule 30.0, Massacre, in place of 20.5: in his operations phase,
//! after all movement (it ends the movement sub-phase, as negotiations do), the
//! phasing player may massacre a square his combat units hold with no enemy
//! combat units (30.1, 30.21). Every enemy civilization marker there is removed
//! (31.31), a city square yields one pound of loot (31.32), the square forages
//! nothing for the rest of the turn (31.33) and the index shifts two toward
//! the enemy (31.34). Massacres do not start open war (24.3).
//!
//! Rulings: 31.34's shift replaces 20.51's per-marker shifts (the optional
//! rule states its own effect); a square is massacred at most once a turn
//! (its forage is already gone).

use super::bop;
use super::data::Power;
use super::geom::Sq;
use super::state::State;
use super::turn::Ctx;
use umpire_core::ruleset::RuleError;

/// Massacres `s` now (30.1).
pub fn now(ctx: &mut Ctx, st: &mut State, p: Power, s: Sq) -> Result<(), RuleError> {
    let d = ctx.d;
    if !st.occupies(s, p) {
        return Err(RuleError::illegal(
            format!("a massacre needs one of your combat units in {s}"),
            "30.1",
        ));
    }
    if st.occupies(s, p.other()) {
        return Err(RuleError::illegal(
            format!("{s} holds enemy combat units"),
            "30.21(1)",
        ));
    }
    if st.massacred.contains(&s) {
        return Err(RuleError::illegal(
            format!("{s} was already massacred this turn"),
            "31.33",
        ));
    }
    let gone = st.markers_at(s).filter(|m| m.owner != p).count();
    st.markers.retain(|m| !(m.sq == s && m.owner != p));
    st.massacred.push(s);
    if d.city_at(s).is_some() {
        st.treasury[p.index()] += 1;
        ctx.tell(p, format!("Loot from {s}: 1 pound (31.32)."));
    }
    // 31.34: the shift is data (`bop_changes.massacre`) from version 9;
    // version 8 wrote the rulebook's 2 into the code.
    let n = if d.version >= 9 {
        d.num.bop_changes.massacre
    } else {
        2
    };
    st.bop = bop::shifted(d, st.bop, p.other(), n);
    ctx.say(
        format!(
            "The {} massacre {s}: {gone} enemy marker{} removed, no forage there this turn; the index shifts {n} toward the {}: {} (31.31-31.34).",
            p.people(),
            if gone == 1 { "" } else { "s" },
            p.other().people(),
            bop::describe(d, st.bop)),
        vec![s],
    );
    Ok(())
}
