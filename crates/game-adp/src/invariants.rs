//! What the rules guarantee about any state reached by play; self-play checks
//! them after every order.

use super::data::{Data, SpaceNo, Support};
use super::pieces::{Faction, Piece, Pieces};
use super::state::{Stage, State, avail_slot, control_of};

/// Every broken invariant, or `Ok`.
pub fn check(d: &Data, st: &State) -> Result<(), String> {
    inventory(d, st)?;
    for id in d.ids() {
        space(d, st, id)?;
    }
    tracks(d, st)?;
    stage(d, st)
}

/// Every piece of the inventory is somewhere, once (1.2).
fn inventory(d: &Data, st: &State) -> Result<(), String> {
    let mut all = Pieces::default();
    for s in &st.spaces {
        add(&mut all, &s.pieces);
    }
    add(&mut all, &st.available);
    add(&mut all, &st.casualties);
    add(&mut all, &st.out_of_play);
    for p in Piece::ALL {
        if all[p] != d.inventory[p] {
            return Err(format!(
                "{} {:?} in the game, the inventory has {} (1.2)",
                all[p], p, d.inventory[p]
            ));
        }
    }
    Ok(())
}

/// What may stand in one space (1.4.2, 1.6, 1.7).
fn space(d: &Data, st: &State, id: SpaceNo) -> Result<(), String> {
    let sp = &d[id];
    let s = &st[id];
    let p = &s.pieces;
    if sp.is_loc() && (p.bases() > 0 || s.terror > 0 || s.support != Support::Neutral) {
        return Err(format!(
            "{}: a LoC has a Base, Terror or Support (1.4.2, 1.6)",
            sp.name
        ));
    }
    if !sp.is_loc() && s.sabotage {
        return Err(format!("{}: Sabotage off a LoC (3.3.4)", sp.name));
    }
    if p.bases() > u32::from(d.limits.bases_per_space) {
        return Err(format!("{}: {} Bases (1.4.2)", sp.name, p.bases()));
    }
    if sp.is_pakistan() && p.total() != p.of(Faction::Taliban) {
        return Err(format!(
            "{}: non-Taliban pieces in Pakistan (1.4.2)",
            sp.name
        ));
    }
    if s.support != Support::Neutral && (!sp.is_afghan() || st.pop(d, id) == 0) {
        return Err(format!(
            "{}: Support or Opposition where none may be (1.6)",
            sp.name
        ));
    }
    let want = if sp.has_control() {
        control_of(p)
    } else {
        Default::default()
    };
    if s.control != want {
        return Err(format!(
            "{}: Control marker {:?}, pieces give {:?} (1.7)",
            sp.name, s.control, want
        ));
    }
    if s.returnees && !sp.is_afghan() {
        return Err(format!(
            "{}: a Returnees marker outside Afghanistan",
            sp.name
        ));
    }
    Ok(())
}

/// Markers and tracks within their limits (1.8, 3.3.4, 4.3.1).
fn tracks(d: &Data, st: &State) -> Result<(), String> {
    if st.markers_on_map() > u32::from(d.limits.terror_markers) {
        return Err(format!(
            "{} Terror/Sabotage markers on the map (3.3.4)",
            st.markers_on_map()
        ));
    }
    if st.spaces.iter().filter(|s| s.returnees).count() > usize::from(d.limits.returnees) {
        return Err("too many Returnees markers (4.3.1)".into());
    }
    let max = d.limits.resources_max;
    if st.resources.iter().any(|r| *r > max)
        || st.aid > d.limits.aid_max
        || st.patronage > d.limits.patronage_max
    {
        return Err("a track is past its cap (1.8)".into());
    }
    if st.resources[Faction::Coalition.index()] != 0 {
        return Err("the Coalition holds Resources (3.1)".into());
    }
    if st.islamabad > 4 {
        return Err("Islamabad off its track".into());
    }
    Ok(())
}

/// The stage agrees with the game's end, the deck and the card (2.3).
fn stage(d: &Data, st: &State) -> Result<(), String> {
    if (st.finished.is_some()) != (st.stage == Stage::Over) {
        return Err("the game is over exactly when its stage says so".into());
    }
    if st.deck.props_drawn > st.deck.props_total {
        return Err("more Propaganda cards drawn than the deck holds".into());
    }
    if let Stage::Card(t) = &st.stage {
        if let (Some(a), Some(b)) = (t.first, t.second)
            && a.0 == b.0
        {
            return Err("one faction executed twice on a card (2.3)".into());
        }
        if st
            .deck
            .current
            .and_then(|n| d.card(n))
            .is_none_or(|c| c.is_propaganda())
        {
            return Err("an Event card stage without an Event card".into());
        }
    }
    Ok(())
}

/// Adds `b` to `a`, Active Guerrillas counted with the Underground ones as
/// the inventory counts them.
fn add(a: &mut Pieces, b: &Pieces) {
    for p in Piece::ALL {
        a[avail_slot(p)] += b[p];
    }
}
