//! Where a stack can go by land this action, for `legal()`: a breadth-first
//! search over the map's dense hex index (every step costs one movement
//! point, 12.2), stopping in enemy zones of control (11.3), with the EZOC
//! of each faction computed once per `legal()` call as a dense mask.
//!
//! The answer is the one a cheapest-path search gives (with unit costs the
//! two coincide); the dense tables replace the ordered maps and sets that
//! made this the hot spot of self-play.

use super::data::{Data, UnitId};
use super::entry::barrier;
use super::movement::allowances;
use super::state::{Faction, Player, State};
use super::zoc::ezoc_mask;
use std::collections::{BTreeMap, VecDeque};
use umpire_core::hex::Hex;

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
        .filter(|u| {
            st.owner(d, *u) == Some(p) && (d.kind(*u).is_mobile() || d.kind(*u).is_leader())
        })
        .collect()
}

/// Where the default force in one hex can go by land now.
pub struct Reach {
    /// The cost of each hex by [`Data::hex_index`]: 0 for the start,
    /// [`UNSEEN`] or [`BARRED`] for hexes it cannot reach.
    cost: Vec<u32>,
    /// Every hex it can reach but the start, by (cost, hex).
    pub by_cost: Vec<(u32, Hex)>,
}

/// A hex the search has not reached, in [`Reach::cost`].
const UNSEEN: u32 = u32::MAX;

impl Reach {
    /// The cost in movement points of a hex it can reach.
    pub fn cost(&self, d: &Data, h: Hex) -> Option<u32> {
        let c = *self.cost.get(d.hex_index(h)?)?;
        (c < BARRED).then_some(c)
    }
}

/// The land hexes the default force in `from` can reach now, with their
/// cost in movement points: normal movement, stopping on entering an EZOC
/// (8.2-8.5, 11.x, 12.x).
pub fn reach(d: &Data, st: &State, p: Player, from: Hex, ez: &mut Ezocs) -> Reach {
    let mut r = Reach {
        cost: Vec::new(),
        by_cost: Vec::new(),
    };
    let units = force(d, st, p, from);
    let (Some(f), Some(start)) = (units.first().map(|u| st.faction(d, *u)), d.hex_index(from))
    else {
        return r;
    };
    let mp = allowances(d, &units, false).into_iter().min().unwrap_or(0);
    let ezoc = ez.of(d, st, f);
    r.cost = vec![UNSEEN; d.hexes.len()];
    r.cost[start] = 0;
    if held(f, ezoc[start]) {
        return r;
    }
    let mut queue = VecDeque::from([start]);
    while let Some(i) = queue.pop_front() {
        // 11.3: a force stops on entering an EZOC; 12.4: within its MF.
        if r.cost[i] >= mp || (i != start && ezoc[i]) {
            continue;
        }
        for b in d.links(d.hexes[i].hex) {
            let Some(j) = d.hex_index(b) else { continue };
            if r.cost[j] != UNSEEN {
                continue;
            }
            if barrier(d, st, f, &units, b).is_some() {
                r.cost[j] = BARRED;
                continue;
            }
            r.cost[j] = r.cost[i] + 1;
            r.by_cost.push((r.cost[j], b));
            queue.push_back(j);
        }
    }
    r.by_cost.sort_unstable();
    r
}

/// Whether a force of faction `f` that starts its move in an EZOC (`in_ezoc`)
/// is held there: it may not leave (11.1, 11.4). The rebel co-emperor may try
/// to break out (8.3), which takes rolls, so his moves are left to the dry
/// run. Without this, `legal()` dry-ran every destination of every held
/// stack only to see each refused: most of its refused trials in self-play.
fn held(f: Faction, in_ezoc: bool) -> bool {
    in_ezoc && f != Faction::Rebel
}

/// A cheapest path from `from` to `to` (a hex of `r`), stepping back
/// through linked hexes one point cheaper and outside the EZOC of the
/// stack's faction.
pub fn path_to(
    d: &Data,
    st: &State,
    p: Player,
    from: Hex,
    to: Hex,
    r: &Reach,
    ez: &mut Ezocs,
) -> Vec<Hex> {
    let f = st
        .at(from)
        .find(|u| st.owner(d, *u) == Some(p))
        .map_or(Faction::Loyal, |u| st.faction(d, u));
    let ezoc = ez.of(d, st, f);
    let mut path = vec![to];
    let mut cur = to;
    while let Some(c) = r.cost(d, cur).filter(|c| *c > 1) {
        let Some(prev) = d
            .links(cur)
            .find(|n| r.cost(d, *n) == Some(c - 1) && !masked(d, ezoc, *n))
        else {
            break;
        };
        path.push(prev);
        cur = prev;
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ldf;
    use crate::data::OFFSET;
    use crate::entry::may_enter;
    use crate::zoc::in_ezoc;
    use umpire_core::dice::Dice;
    use umpire_core::hex::reachable_on;
    use umpire_core::movefile::SourceLine;
    use umpire_core::ruleset::{Ruleset, Setup, Side};

    /// The opening position, after the Germano-Parthian's `setup auto`.
    fn opening(r: &Ldf) -> State {
        let setup = Setup {
            scenario: "campaign".into(),
            options: Default::default(),
            sides: vec!["roman".into(), "gp".into()],
        };
        let mut st = r.setup(&setup).expect("setup");
        let line = SourceLine {
            line: 1,
            column: 1,
            text: "setup auto".into(),
        };
        let o = r.parse(&st, Side(1), &[line]).expect("parse").remove(0).1;
        r.apply(&mut st, Side(1), &o, &mut Dice::preview())
            .expect("setup auto");
        st
    }

    /// The cheapest-path search over the rules as they are written (one
    /// movement point a hex, 12.2; stop on entering an EZOC, 11.3; the entry
    /// tests of 12.3, 9.2, 1.5, 9.5, 7.3, 8.3), for comparison.
    fn by_dijkstra(d: &Data, st: &State, p: Player, from: Hex) -> Vec<(u32, Hex)> {
        let units = force(d, st, p, from);
        let Some(f) = units.first().map(|u| st.faction(d, *u)) else {
            return Vec::new();
        };
        let mp = allowances(d, &units, false).into_iter().min().unwrap_or(0);
        if f != Faction::Rebel && in_ezoc(d, st, from, f) {
            return Vec::new();
        }
        let costs = reachable_on(OFFSET, from, mp, |a, b| {
            let stopped = a != from && in_ezoc(d, st, a, f);
            let open = d.linked(a, b) && may_enter(d, st, f, &units, b).is_ok();
            (!stopped && open).then_some(1)
        });
        let mut v: Vec<(u32, Hex)> = costs
            .into_iter()
            .filter(|(h, _)| *h != from)
            .map(|(h, c)| (c, h))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn breadth_first_reach_is_the_cheapest_path_reach() {
        let r = Ldf::new();
        let d = r.data();
        let st = opening(&r);
        let mut stacks: Vec<(Player, Hex)> = st
            .on_map()
            .filter_map(|(u, h)| Some((st.owner(d, u)?, h)))
            .collect();
        stacks.sort();
        stacks.dedup();
        let (mut stopped, mut held_stacks) = (0, 0);
        for (p, from) in stacks {
            let mut ez = Ezocs::default();
            let got = reach(d, &st, p, from, &mut ez);
            assert_eq!(
                got.by_cost,
                by_dijkstra(d, &st, p, from),
                "{p:?} from {from}"
            );
            let f = st
                .at(from)
                .find_map(|u| (st.owner(d, u) == Some(p)).then(|| st.faction(d, u)));
            if f.is_some_and(|f| held(f, in_ezoc(d, &st, from, f))) {
                held_stacks += 1;
                assert!(got.by_cost.is_empty(), "{p:?} from {from} is held (11.1)");
            }
            stopped += got
                .by_cost
                .iter()
                .filter(|(_, h)| f.is_some_and(|f| in_ezoc(d, &st, *h, f)))
                .count();
        }
        // The opening has stacks that reach an enemy zone of control and
        // stop there (11.3), so the comparison covers the stop rule.
        assert!(stopped > 0);
        assert!(
            held_stacks > 0,
            "the opening has stacks held in an EZOC (11.1)"
        );
    }
}
