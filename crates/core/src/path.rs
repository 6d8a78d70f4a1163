//! The cheapest paths over any grid: one Dijkstra for hexes, squares and
//! whatever map kind comes next.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// The cheapest cost from `start` to every place reachable within `budget`.
///
/// `steps(at)` lists the places one step from `at`, each with the price of
/// the step or `None` where it is forbidden. Costs add up saturating, so no
/// price can overflow. Ties and order are deterministic (no hash maps).
pub fn cheapest<P, I>(start: P, budget: u32, mut steps: impl FnMut(P) -> I) -> BTreeMap<P, u32>
where
    P: Ord + Copy,
    I: IntoIterator<Item = (P, Option<u32>)>,
{
    let mut best = BTreeMap::new();
    let mut heap = BinaryHeap::new();
    best.insert(start, 0);
    heap.push(Reverse((0u32, start)));
    while let Some(Reverse((spent, at))) = heap.pop() {
        if best.get(&at).is_some_and(|b| *b < spent) {
            continue;
        }
        for (next, c) in steps(at) {
            let Some(c) = c else { continue };
            let total = spent.saturating_add(c);
            if total > budget {
                continue;
            }
            if best.get(&next).is_none_or(|b| total < *b) {
                best.insert(next, total);
                heap.push(Reverse((total, next)));
            }
        }
    }
    best
}
