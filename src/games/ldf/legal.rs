//! Orders legal now, as text: a short, deterministic sample (the full space
//! of paths is huge), each checked by a dry run against the state.

use super::data::{Data, Kind, Region};
use super::orders;
use super::state::{Faction, Player, Stage, State};
use super::turn;
use super::zoc::in_ezoc;
use crate::core::dice::{Dice, DiceError};
use crate::core::hex::Hex;
use crate::core::movefile::SourceLine;
use crate::core::ruleset::RuleError;

/// Is the order text legal now (up to its first die roll)?
pub fn ok(d: &Data, st: &State, p: Player, text: &str) -> bool {
    let l = SourceLine {
        line: 1,
        column: 1,
        text: text.to_string(),
    };
    let Ok(o) = orders::parse_line(d, &l) else {
        return false;
    };
    let mut t = st.clone();
    let mut dice = Dice::preview();
    match turn::apply(d, &mut t, p, &o, &mut dice) {
        Ok(_) => true,
        Err(RuleError::Dice(DiceError::PreviewStops(_))) => true,
        Err(_) => false,
    }
}

/// Hexes a force could reach by land, by a simple search (checked later).
fn reach(d: &Data, st: &State, f: Faction, from: Hex, mp: u32) -> Vec<Vec<Hex>> {
    let mut out = Vec::new();
    let mut seen = vec![from];
    let mut frontier = vec![vec![from]];
    for _ in 0..mp {
        let mut next = Vec::new();
        for path in &frontier {
            let cur = *path.last().unwrap_or(&from);
            if cur != from && in_ezoc(d, st, cur, f) {
                continue;
            }
            for n in d.links(cur) {
                if seen.contains(&n) || st.hostile_in(d, n, f) {
                    continue;
                }
                seen.push(n);
                let mut p = path.clone();
                p.push(n);
                out.push(p.clone());
                next.push(p);
            }
        }
        frontier = next;
    }
    out
}

fn candidates(d: &Data, st: &State, p: Player) -> Vec<String> {
    let mut c = Vec::new();
    let mine: Vec<Hex> = {
        let mut v: Vec<Hex> = st
            .on_map()
            .filter(|(u, _)| st.owner(d, *u) == Some(p) && d.kind(*u).is_mobile())
            .map(|(_, h)| h)
            .collect();
        v.sort();
        v.dedup();
        v
    };
    // A few of the player's hexes, rotating with the action count.
    let k = mine.len().max(1);
    let pick: Vec<Hex> = (0..mine.len().min(3))
        .map(|i| mine[(st.seq as usize * 13 + i * 7) % k])
        .collect();
    for h in &pick {
        let f = st
            .at(*h)
            .find(|u| st.owner(d, *u) == Some(p))
            .map(|u| st.faction(d, u))
            .unwrap_or(Faction::Loyal);
        for path in reach(d, st, f, *h, 4).into_iter().rev().take(3) {
            let tail: Vec<String> = path[1..].iter().map(|x| x.to_string()).collect();
            c.push(format!("move {h} to {}", tail.join(" ")));
        }
        for n in d.links(*h) {
            if st.hostile_in(d, n, f) || st.factions_at(d, n).contains(&Faction::PalmyraIdle) {
                c.push(format!("attack {h} on {n}"));
            }
        }
    }
    let hand = st.hand(p);
    if hand.len() >= d.values.hand_limit {
        if let Some(x) = hand.first() {
            c.push(format!("draw return {x}"));
        }
    } else {
        c.push("draw".into());
    }
    for x in super::chits::playable(d, st, p) {
        c.push(format!("play {x}"));
    }
    match p {
        Player::Roman => {
            if let Some(h) = mine
                .iter()
                .find(|h| st.at(**h).all(|u| d.kind(u) != Kind::Emperor))
            {
                c.push(format!("coemperor {h}"));
            }
            c.push("treachery".into());
            if let Some(t) = st
                .on_map()
                .find(|(u, h)| d.kind(*u) == Kind::Tribe && d.region(*h).is_core())
            {
                c.push(format!("diplomacy {}", d.uid(t.0)));
            }
            if let Some(x) = d
                .hexes
                .iter()
                .find(|x| x.region.is_core() && x.tp > 0 && st.looted.contains(&x.hex))
            {
                c.push(format!("rebuild {}", x.hex));
                c.push(format!("rebuild complete {}", x.hex));
            }
            c.push("fortify complete".into());
            if let Some(x) = d
                .hexes
                .iter()
                .find(|x| x.region == Region::Core && x.tp >= 2 && !st.looted.contains(&x.hex))
            {
                c.push(format!("fortify {}", x.hex));
            }
            c.push("activate palmyra".into());
        }
        Player::Gp => {
            c.push("treachery".into());
            c.push("diplomacy coemperor".into());
            c.push("diplomacy palmyra".into());
            c.push("rebel".into());
            c.push("activate gaul".into());
        }
    }
    c
}

/// A short sample of legal orders: `pass` always, then a few others picked
/// deterministically from the state's action count.
pub fn legal(d: &Data, st: &State, p: Player) -> Vec<String> {
    if turn::awaited(st) != Some(p) {
        return Vec::new();
    }
    match st.stage {
        Stage::Setup => return vec!["setup auto".into()],
        Stage::AdminRoman => {
            let mut v = vec!["done".to_string()];
            if let Some(x) = d.hexes.iter().find(|x| {
                x.region == Region::Core
                    && x.tp > 0
                    && x.hex != d.special.rome
                    && !st.looted.contains(&x.hex)
                    && !st.anti_roman_in(d, x.hex)
            }) {
                let t = format!("tax {}", x.hex);
                if st.seq.is_multiple_of(3) && ok(d, st, p, &t) {
                    v.push(t);
                }
            }
            let t = format!("reclaim {}", d.special.rome);
            if ok(d, st, p, &t) {
                v.push(t);
            }
            return v;
        }
        Stage::AdminGp => return vec!["done".into()],
        Stage::Actions => {}
    }
    let all = candidates(d, st, p);
    let mut out = vec!["pass".to_string()];
    if all.is_empty() {
        return out;
    }
    let n = all.len();
    let start = (st.seq as usize * 7919) % n;
    for i in 0..n.min(12) {
        if out.len() >= 5 {
            break;
        }
        let t = &all[(start + i * 31) % n];
        if !out.contains(t) && ok(d, st, p, t) {
            out.push(t.clone());
        }
    }
    out
}
