//! Setting up (3.x): the fixed Roman set-up (3.2), the chit pool (3.5), and
//! the Germano-Parthian's placement of tribes and gunds (3.3).

use super::data::{Data, Kind, Region, UnitId};
use super::effects::{Ctx, illegal};
use super::stacking;
use super::standing::Standing;
use super::state::{Gallic, Item, Loc, Options, Palmyra, Player, Stage, State, UnitState};
use umpire_core::hex::Hex;
use umpire_core::ruleset::RuleError;

/// The state before the Germano-Parthian sets up: the Roman set-up is fixed (3.2).
pub fn initial(d: &Data, options: Options) -> State {
    let mut st = State {
        turn: 1,
        stage: Stage::Setup,
        actor: Player::Gp,
        passes: 0,
        acted: [0, 0],
        seq: 0,
        extra: false,
        units: vec![
            UnitState {
                loc: Loc::Aside,
                rebel: false,
                gallic: false
            };
            d.units.len()
        ],
        treasury: d.values.start_treasury,
        looted: Default::default(),
        rebuilding: Default::default(),
        fortify: None,
        plague: Default::default(),
        bc_rebels: Default::default(),
        collected: Default::default(),
        pool: Vec::new(),
        hands: [Vec::new(), Vec::new()],
        aside: Vec::new(),
        fresh: Vec::new(),
        drawn: Default::default(),
        reveal: Vec::new(),
        removed: Vec::new(),
        siege: None,
        palmyra: Palmyra::Inactive,
        gallic: Gallic::Dormant,
        collapsed: false,
        reserve: false,
        riverine_lost: false,
        standing: [
            Standing::default_for(d, true),
            Standing::default_for(d, false),
        ],
        options,
        finished: None,
        question: None,
        index: Default::default(),
    };
    let place = |st: &mut State, k: Kind, hexes: &[Hex]| {
        for (u, h) in d.of_kind(k).zip(hexes) {
            st.set_loc(u, Loc::Hex(*h));
        }
    };
    let legion_hexes: Vec<Hex> = d
        .legion_hexes
        .iter()
        .flat_map(|(h, n)| std::iter::repeat_n(*h, *n as usize))
        .collect();
    place(&mut st, Kind::Base, &legion_hexes);
    place(&mut st, Kind::Infantry, &legion_hexes);
    place(&mut st, Kind::Emperor, &[d.special.rome]);
    let cav: Vec<UnitId> = d.of_kind(Kind::Cavalry).collect();
    for (i, c) in cav.iter().enumerate() {
        if i == 0 {
            st.set_loc(*c, Loc::Hex(d.special.rome));
        } else {
            st.set_loc(*c, Loc::Pool);
            st.pool.push(Item::Cavalry(*c));
        }
    }
    let mut clients: Vec<Hex> = d
        .hexes
        .iter()
        .filter(|x| x.region.is_caucasus())
        .map(|x| x.hex)
        .collect();
    clients.push(d.special.palmyra);
    place(&mut st, Kind::ClientGarrison, &clients);
    place(&mut st, Kind::Palmyran, &[d.special.palmyra; 8]);
    let centres: Vec<Hex> = d
        .hexes
        .iter()
        .filter(|x| x.region == Region::Parthia && x.tp > 0)
        .map(|x| x.hex)
        .collect();
    place(&mut st, Kind::ParthianGarrison, &centres);
    st.pool.extend((1..=d.chits.len() as u8).map(Item::Chit));
    st.pool.sort();
    st
}

/// Barbaria hexes for an automatic set-up: nearest Rome first.
fn auto_tribes(d: &Data, st: &State) -> Vec<Hex> {
    let mut v: Vec<Hex> = d
        .hexes
        .iter()
        .filter(|x| x.region == Region::Barbaria && st.at(x.hex).next().is_none())
        .map(|x| x.hex)
        .collect();
    v.sort_by_key(|h| (h.distance_on(super::data::OFFSET, d.special.rome), *h));
    v
}

/// The Germano-Parthian set-up order (3.3).
pub fn gp_setup(
    ctx: &mut Ctx,
    st: &mut State,
    tribes: &[Hex],
    gunds: &[Hex],
) -> Result<(), RuleError> {
    let d = ctx.d;
    let nt = d.of_kind(Kind::Tribe).count();
    let ng = d.of_kind(Kind::Gund).count();
    let tribes: Vec<Hex> = if tribes.is_empty() {
        auto_tribes(d, st).into_iter().take(nt).collect()
    } else {
        tribes.to_vec()
    };
    let gunds: Vec<Hex> = if gunds.is_empty() {
        vec![d.special.ctesiphon; ng]
    } else {
        gunds.to_vec()
    };
    if tribes.len() != nt {
        return Err(illegal(
            format!("name {nt} hexes for the {nt} tribes"),
            "3.3",
        ));
    }
    let mut seen = tribes.clone();
    seen.sort();
    seen.dedup();
    if seen.len() != nt {
        return Err(illegal(
            "the tribes go into 17 different hexes: no German stacking",
            "3.3, 10.2",
        ));
    }
    for h in &tribes {
        if d.region(*h) != Region::Barbaria || st.at(*h).next().is_some() {
            return Err(illegal(format!("{h} is not an empty Barbaria hex"), "3.3"));
        }
    }
    if gunds.len() != ng {
        return Err(illegal(
            format!("name {ng} hexes (repeats allowed) for the {ng} gunds"),
            "3.3",
        ));
    }
    for h in &gunds {
        if d.region(*h) != Region::Parthia {
            return Err(illegal(format!("{h} is not in Parthia"), "3.3"));
        }
    }
    for (u, h) in d.of_kind(Kind::Tribe).zip(&tribes) {
        st.set_loc(u, Loc::Hex(*h));
    }
    for (u, h) in d.of_kind(Kind::Gund).zip(&gunds) {
        st.set_loc(u, Loc::Hex(*h));
    }
    let mut all = gunds.clone();
    all.sort();
    all.dedup();
    stacking::check_hexes(d, st, &all).map_err(|(m, r)| illegal(m, r))?;
    st.stage = Stage::Actions;
    st.actor = Player::Gp;
    ctx.say("the Germano-Parthian sets up; Turn 1 begins without an administrative phase, the Germano-Parthian to act (3.3, 5.3)", vec![]);
    Ok(())
}
