//! Spaces laid out as the world is: each box centred where the board says
//! its space lies ([`PointBoard::positions`]), a space without a position
//! (a road) between its neighbours, the whole scaled to a picture's size,
//! then boxes that overlap pushed apart, the least way, until none do.
//! Only additions, multiplications and comparisons: the same board gives
//! the same picture on every machine.

use std::collections::BTreeMap;
use umpire_core::board::{MapPoint, PointBoard, SpaceId};

/// The size the map's extent is scaled to, before boxes are pushed apart.
const TARGET_W: f64 = 1250.0;
const TARGET_H: f64 = 1150.0;
/// Most rounds of pushing apart (a few dozen suffice for a real map).
const ROUNDS: usize = 500;

/// Every space's position, or `None` when the board gives none or some space
/// cannot be placed (no position and no placed neighbour).
fn positions(b: &PointBoard) -> Option<BTreeMap<SpaceId, MapPoint>> {
    if b.positions.is_empty() {
        return None;
    }
    let mut at: BTreeMap<SpaceId, MapPoint> = b
        .positions
        .iter()
        .filter(|(s, _)| b.spaces.contains_key(s))
        .map(|(s, p)| (*s, *p))
        .collect();
    // A road between two places: the mean of its placed neighbours, in
    // rounds, so a chain of roads is placed link by link.
    loop {
        let mut added = Vec::new();
        for s in b.spaces.keys().filter(|s| !at.contains_key(s)) {
            let near: Vec<MapPoint> = b
                .neighbours(*s)
                .iter()
                .filter_map(|n| at.get(n))
                .copied()
                .collect();
            if !near.is_empty() {
                let n = near.len() as f64;
                let east = near.iter().map(|p| p.east).sum::<f64>() / n;
                let north = near.iter().map(|p| p.north).sum::<f64>() / n;
                added.push((*s, MapPoint { east, north }));
            }
        }
        if added.is_empty() {
            break;
        }
        at.extend(added);
    }
    (at.len() == b.spaces.len()).then_some(at)
}

/// The centre of each `w` × `h` box, pushed apart until no two overlap
/// (with `gap` between them): each overlapping pair moves apart along the
/// axis where that takes less, half each way.
fn separate(centres: &mut [(SpaceId, f64, f64)], w: f64, h: f64) {
    for _ in 0..ROUNDS {
        let mut moved = false;
        for i in 0..centres.len() {
            for j in i + 1..centres.len() {
                let (dx, dy) = (centres[j].1 - centres[i].1, centres[j].2 - centres[i].2);
                let (ox, oy) = (w - dx.abs(), h - dy.abs());
                if ox <= 0.0 || oy <= 0.0 {
                    continue;
                }
                moved = true;
                let sign = |d: f64| if d < 0.0 { -1.0 } else { 1.0 };
                if ox / w < oy / h {
                    let p = ox / 2.0 * sign(dx);
                    centres[i].1 -= p;
                    centres[j].1 += p;
                } else {
                    let p = oy / 2.0 * sign(dy);
                    centres[i].2 -= p;
                    centres[j].2 += p;
                }
            }
        }
        if !moved {
            break;
        }
    }
}

/// The top left corner of each space's `w` × `h` box, `gap` apart, the
/// first at `margin` from the picture's edges; `None` when the board does
/// not place its spaces.
pub fn place(
    b: &PointBoard,
    w: f64,
    h: f64,
    gap: f64,
    margin: f64,
) -> Option<BTreeMap<SpaceId, (f64, f64)>> {
    let at = positions(b)?;
    let fold = |f: fn(&MapPoint) -> f64, pick: fn(f64, f64) -> f64| {
        at.values().map(f).reduce(pick).unwrap_or(0.0)
    };
    let (west, east) = (fold(|p| p.east, f64::min), fold(|p| p.east, f64::max));
    let (south, north) = (fold(|p| p.north, f64::min), fold(|p| p.north, f64::max));
    let k = (TARGET_W / (east - west).max(1e-9)).min(TARGET_H / (north - south).max(1e-9));
    let mut centres: Vec<(SpaceId, f64, f64)> = at
        .iter()
        .map(|(s, p)| (*s, (p.east - west) * k, (north - p.north) * k))
        .collect();
    separate(&mut centres, w + gap, h + gap);
    let left = centres.iter().map(|c| c.1).reduce(f64::min).unwrap_or(0.0);
    let top = centres.iter().map(|c| c.2).reduce(f64::min).unwrap_or(0.0);
    Some(
        centres
            .into_iter()
            .map(|(s, x, y)| (s, (margin + x - left, margin + y - top)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use umpire_core::board::{Link, Space};

    fn board(places: &[(u16, f64, f64)], roads: &[(u16, u16, u16)]) -> PointBoard {
        let mut b = PointBoard::default();
        for (id, east, north) in places {
            b.spaces.insert(SpaceId(*id), Space::default());
            b.positions.insert(
                SpaceId(*id),
                MapPoint {
                    east: *east,
                    north: *north,
                },
            );
        }
        for (road, a, z) in roads {
            b.spaces.insert(SpaceId(*road), Space::default());
            b.links.push(Link::new(SpaceId(*a), SpaceId(*road)));
            b.links.push(Link::new(SpaceId(*road), SpaceId(*z)));
        }
        b
    }

    #[test]
    fn spaces_keep_their_compass_order_and_roads_lie_between_their_ends() {
        // West to east: 1, 3, 2; north to south: 2, 1, 3. Road 9 joins 1 and 2.
        let b = board(
            &[(1, 60.0, 34.0), (2, 70.0, 36.0), (3, 65.0, 30.0)],
            &[(9, 1, 2)],
        );
        let p = place(&b, 100.0, 50.0, 10.0, 16.0).unwrap();
        let at = |s: u16| p[&SpaceId(s)];
        assert!(at(1).0 < at(3).0 && at(3).0 < at(2).0, "{p:?}");
        assert!(at(2).1 < at(1).1 && at(1).1 < at(3).1, "{p:?}");
        assert!(at(1).0 < at(9).0 && at(9).0 < at(2).0, "{p:?}");
        assert_eq!(p.values().map(|c| c.0).reduce(f64::min), Some(16.0));
    }

    #[test]
    fn no_two_boxes_overlap_and_the_same_board_places_the_same() {
        // Twelve places crowded into one spot.
        let places: Vec<(u16, f64, f64)> = (0..12)
            .map(|i| {
                (
                    i,
                    66.0 + f64::from(i % 3) * 0.01,
                    33.0 + f64::from(i / 3) * 0.01,
                )
            })
            .collect();
        let mut b = board(&places, &[]);
        b.positions.insert(
            SpaceId(99),
            MapPoint {
                east: 71.0,
                north: 37.0,
            },
        );
        b.spaces.insert(SpaceId(99), Space::default());
        let (w, h) = (170.0, 92.0);
        let p = place(&b, w, h, 10.0, 16.0).unwrap();
        let boxes: Vec<&(f64, f64)> = p.values().collect();
        for (i, a) in boxes.iter().enumerate() {
            for z in &boxes[i + 1..] {
                let apart =
                    (a.0 - z.0).abs() >= w + 10.0 - 1e-6 || (a.1 - z.1).abs() >= h + 10.0 - 1e-6;
                assert!(apart, "{a:?} and {z:?} overlap");
            }
        }
        assert_eq!(Some(p), place(&b, w, h, 10.0, 16.0));
    }

    #[test]
    fn a_board_without_positions_is_not_placed() {
        assert_eq!(place(&board(&[], &[]), 1.0, 1.0, 0.0, 0.0), None);
    }
}
