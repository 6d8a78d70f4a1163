//! Victory (4.x): sudden death is checked where a tribe enters Rome
//! (`effects::entered`); the Turn 5 conditions here.

use super::data::Data;
use super::effects::{Ctx, win};
use super::state::{Player, State};

/// Is Roman core territory clear of Germanic, Parthian, anti-Roman Palmyran
/// and rebel units (4.3; digest 6, core_clear)?
pub fn core_clear(d: &Data, st: &State) -> bool {
    !st.on_map()
        .any(|(u, h)| d.region(h).is_core() && st.faction(d, u).anti_roman())
}

/// After every completed action of Turn 5 (4.3 first paragraph, 5.4(3);
/// rulings R-I1, R-I2): both have acted and the core is clear.
pub fn after_action(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    if st.turn == d.values.turns && st.acted.iter().all(|n| *n >= 1) && core_clear(d, st) {
        win(
            ctx,
            st,
            Player::Roman,
            "Turn 5: Roman core territory is clear of every enemy: Roman victory (4.3)".into(),
        );
    }
}

/// Turn 5 ends with two passes (4.3 third paragraph; 4.5 no draws, R-I1).
pub fn two_passes(ctx: &mut Ctx, st: &mut State) {
    let d = ctx.d;
    if core_clear(d, st) {
        win(
            ctx,
            st,
            Player::Roman,
            "Turn 5 ends with the core clear: Roman victory (4.3, 4.5)".into(),
        );
    } else {
        win(ctx, st, Player::Gp, "Turn 5 ends with both players passing and enemies in Roman core territory: Germano-Parthian victory (4.3)".into());
    }
}
