//! Where a stack can go by land this action, for `legal()`: a breadth-first
//! search over the map's dense hex index (every step costs one movement
//! point, 12.2), stopping in enemy zones of control (11.3), with the EZOC
//! of each faction computed once per `legal()` call as a dense mask.
//!
//! The answer is the one a cheapest-path search gives (with unit costs the
//! two coincide); the dense tables replace the ordered maps and sets that
//! made this the hot spot of self-play.

use super::data::{Data, UnitId};
use super::movement::{allowances, may_enter};
use super::state::{Faction, Player, State};
use super::zoc::ezoc_mask;
use crate::core::hex::Hex;
use std::collections::{BTreeMap, VecDeque};

/// The EZOC masks (by [`Data::hex_index`]) of the factions asked so far in
/// one `legal()` call: the state does not change between its searches.
#[derive(Default)]
pub struct Ezocs(BTreeMap<Faction, Vec<bool>>);

impl Ezocs {
    /// The mask of hexes in a zone of control hostile to `f` (11.1).
    pub fn of(&mut self, d: &Data, st: &State, f: Faction) -> &[bool] {
        self.0.entry(f).or_insert_with(|| ezoc_mask(d, st, f))
    }
}

/// Is the hex set in a dense mask (off the map: no)?
fn masked(d: &Data, mask: &[bool], h: Hex) -> bool {
    d.hex_index(h).is_some_and(|i| mask[i])
}

/// A hex the force may not enter at all, in [`reach`]'s cost table.
const BARRED: u32 = u32::MAX - 1;

/// The default force in `from`: every mobile unit and leader of `p` there.
pub fn force(d: &Data, st: &State, p: Player, from: Hex) -> Vec<UnitId> {
    st.at(from)
        .filter(|u| st.owner(d, *u) == Some(p) && (d.kind(*u).is_mobile() || d.kind(*u).is_leader()))
        .collect()
}

/// The land hexes the default force in `from` can reach now, with their
/// cost in movement points: normal movement, stopping on entering an EZOC
/// (8.2-8.5, 11.x, 12.x). `from` itself is not listed.
pub fn reach(d: &Data, st: &State, p: Player, from: Hex, ez: &mut Ezocs) -> BTreeMap<Hex, u32> {
    let units = force(d, st, p, from);
    let (Some(f), Some(start)) = (units.first().map(|u| st.faction(d, *u)), d.hex_index(from)) else {
        return BTreeMap::new();
    };
    let mp = allowances(d, &units, false).into_iter().min().unwrap_or(0);
    let ezoc = ez.of(d, st, f);
    // u32::MAX: not yet seen; BARRED: may not be entered (asked once per hex).
    let mut cost = vec![u32::MAX; d.hexes.len()];
    cost[start] = 0;
    let mut queue = VecDeque::from([start]);
    let mut out = BTreeMap::new();
    while let Some(i) = queue.pop_front() {
        // 11.3: a force stops on entering an EZOC; 12.4: within its MF.
        if cost[i] >= mp || (i != start && ezoc[i]) {
            continue;
        }
        for b in d.links(d.hexes[i].hex) {
            let Some(j) = d.hex_index(b) else { continue };
            if cost[j] != u32::MAX {
                continue;
            }
            if may_enter(d, st, f, &units, b).is_err() {
                cost[j] = BARRED;
                continue;
            }
            cost[j] = cost[i] + 1;
            out.insert(b, cost[j]);
            queue.push_back(j);
        }
    }
    out
}

/// A cheapest path from `from` to `to` through `costs` (as [`reach`] gives
/// them), stepping back through linked hexes one point cheaper and outside
/// the EZOC of the stack's faction.
pub fn path_to(d: &Data, st: &State, p: Player, from: Hex, to: Hex, costs: &BTreeMap<Hex, u32>, ez: &mut Ezocs) -> Vec<Hex> {
    let f = st
        .at(from)
        .find(|u| st.owner(d, *u) == Some(p))
        .map_or(Faction::Loyal, |u| st.faction(d, u));
    let ezoc = ez.of(d, st, f);
    let mut path = vec![to];
    let mut cur = to;
    while let Some(c) = costs.get(&cur).copied().filter(|c| *c > 1) {
        let Some(prev) = d
            .links(cur)
            .find(|n| costs.get(n) == Some(&(c - 1)) && !masked(d, ezoc, *n))
        else {
            break;
        };
        path.push(prev);
        cur = prev;
    }
    path.reverse();
    path
}
