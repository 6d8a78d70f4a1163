//! Orders legal now, as text for `command: orders`, the move template and
//! self-play: grouped (the actions open now, the attacks, one move per stack
//! with its reachable hexes and costs), each checked by a dry run.

use super::data::{Data, Kind, OFFSET, Region};
use super::entry::may_enter;
use super::orders;
use super::reach::{self, Ezocs};
use super::state::{Faction, Player, Stage, State};
use super::turn;
use umpire_core::dice::{Dice, DiceError};
use umpire_core::hex::Hex;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::RuleError;

/// Is the order text legal now (up to its first die roll), as ruleset
/// `version` judges it (a game keeps the version it was made under)?
pub fn ok(d: &Data, st: &State, p: Player, version: u32, text: &str) -> bool {
    let l = SourceLine {
        line: 1,
        column: 1,
        text: text.to_string(),
    };
    let Ok(o) = orders::parse_line(d, &l, true) else {
        return false;
    };
    let mut t = st.clone();
    let mut dice = Dice::preview();
    match turn::apply_at(d, &mut t, p, &o, &mut dice, version) {
        Ok(_) => true,
        Err(RuleError::Dice(DiceError::PreviewStops(_))) => true,
        Err(_) => false,
    }
}

/// Up to [`MOVES`] move orders per stack, to destinations spread over its
/// reach (the farthest first, then the farthest at least [`SPREAD`] hexes from
/// those already offered), each checked by a dry run. The first line lists
/// every reachable hex with its cost in a trailing comment, the others their
/// own cost.
fn moves(d: &Data, st: &State, p: Player, version: u32, from: Hex, ez: &mut Ezocs) -> Vec<String> {
    let r = reach::reach(d, st, p, from, ez);
    let by_cost = &r.by_cost;
    let mut picked: Vec<(u32, Hex, String)> = Vec::new();
    let mut tries = 0;
    for (c, to) in by_cost.iter().rev() {
        if picked.len() >= MOVES || tries >= 3 * MOVES {
            break;
        }
        if picked
            .iter()
            .any(|(_, h, _)| h.distance_on(OFFSET, *to) < SPREAD)
        {
            continue;
        }
        tries += 1;
        let path = reach::path_to(d, st, p, from, *to, &r, ez);
        let tail: Vec<String> = path.iter().map(|x| x.to_string()).collect();
        let o = format!("move {from} to {}", tail.join(" "));
        if ok(d, st, p, version, &o) {
            picked.push((*c, *to, o));
        }
    }
    let listed: Vec<String> = by_cost
        .iter()
        .take(REACH_LISTED)
        .map(|(c, h)| format!("{h}:{c}"))
        .collect();
    let more = by_cost.len().saturating_sub(REACH_LISTED);
    picked
        .into_iter()
        .enumerate()
        .map(|(i, (c, _, o))| match i {
            0 => format!(
                "{o}   # reach (hex:MP): {}{}",
                listed.join(" "),
                if more > 0 {
                    format!(" +{more} more")
                } else {
                    String::new()
                }
            ),
            _ => format!("{o}   # {c} MP"),
        })
        .collect()
}

/// How many move orders a stack's lines offer.
const MOVES: usize = 3;

/// How far apart (in hexes) the destinations offered to one stack are.
const SPREAD: u32 = 3;

/// How many reachable hexes a move line lists.
const REACH_LISTED: usize = 10;

/// The attacks a stack may make now, one line per target hex.
fn attacks(d: &Data, st: &State, p: Player, version: u32, from: Hex) -> Vec<String> {
    let Some(f) = st
        .at(from)
        .find(|u| st.owner(d, *u) == Some(p) && !d.kind(*u).is_garrison())
        .map(|u| st.faction(d, u))
    else {
        return Vec::new();
    };
    d.links(from)
        .filter(|n| {
            st.hostile_in(d, *n, f) || st.factions_at(d, *n).contains(&Faction::PalmyraIdle)
        })
        .map(|n| format!("attack {from} on {n}"))
        .filter(|o| ok(d, st, p, version, o))
        .map(|o| format!("{o}   # 13.x; add `with N` for combat chits"))
        .collect()
}

/// How many sea or river destinations a stack's lines offer as orders (the
/// farthest first; the rest are named in the line's comment).
const VOYAGES: usize = 2;

/// The sea (12.6) and river (12.7) moves the default force in `from` may
/// make now: up to [`VOYAGES`] orders each, the farthest destinations, every
/// other destination named in a trailing comment. Destinations are screened
/// by the cheap tests (a port its faction controls, a riverbank it may enter)
/// and each offered order is checked by a dry run.
fn voyages(d: &Data, st: &State, p: Player, version: u32, from: Hex) -> Vec<String> {
    let units = reach::force(d, st, p, from);
    let Some(f) = units.first().map(|u| st.faction(d, *u)) else {
        return Vec::new();
    };
    if !units.iter().all(|u| d.kind(*u).is_roman()) {
        return Vec::new();
    }
    let Some(here) = d.hex(from) else {
        return Vec::new();
    };
    let port = |x: &super::data::HexInfo| x.coastal && x.tp > 0 && x.hex != d.special.petra;
    let mut out = Vec::new();
    if port(here) {
        let to: Vec<Hex> = d
            .hexes
            .iter()
            .filter(|x| port(x) && x.hex != from && super::control::holds(d, st, f, x.hex))
            .map(|x| x.hex)
            .filter(|h| may_enter(d, st, f, &units, *h).is_ok())
            .collect();
        out.extend(offer(d, st, p, version, ("sea", "12.6"), from, to));
    }
    let river = matches!(f, Faction::Loyal | Faction::Rebel) && !st.riverine_lost;
    if river && here.riverbank {
        let to: Vec<Hex> = d
            .hexes
            .iter()
            .filter(|x| x.riverbank && x.hex != from)
            .map(|x| x.hex)
            .filter(|h| may_enter(d, st, f, &units, *h).is_ok())
            .collect();
        out.extend(offer(d, st, p, version, ("river", "12.7"), from, to));
    }
    out
}

/// The lines of one kind of voyage from `from` to any of `to`.
fn offer(
    d: &Data,
    st: &State,
    p: Player,
    version: u32,
    (kw, rule): (&str, &str),
    from: Hex,
    mut to: Vec<Hex>,
) -> Vec<String> {
    to.sort_by_key(|h| (std::cmp::Reverse(from.distance_on(OFFSET, *h)), *h));
    let lines: Vec<(Hex, String)> = to
        .iter()
        .take(VOYAGES)
        .map(|h| (*h, format!("{kw} {from} to {h}")))
        .filter(|(_, o)| ok(d, st, p, version, o))
        .collect();
    lines
        .iter()
        .map(|(h, o)| {
            let others: Vec<String> = to
                .iter()
                .filter(|x| *x != h)
                .take(REACH_LISTED)
                .map(|x| x.to_string())
                .collect();
            let more = to.len().saturating_sub(1 + REACH_LISTED);
            format!(
                "{o}   # {rule}, the whole action; also to: {}{}",
                others.join(" "),
                if more > 0 {
                    format!(" +{more} more")
                } else {
                    String::new()
                }
            )
        })
        .collect()
}

fn candidates(d: &Data, st: &State, p: Player, version: u32) -> Vec<String> {
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
    c.retain(|o| ok(d, st, p, version, o));
    for h in &mine {
        c.extend(attacks(d, st, p, version, *h));
    }
    let mut ez = Ezocs::default();
    for h in &mine {
        c.extend(moves(d, st, p, version, *h, &mut ez));
    }
    for h in &mine {
        c.extend(voyages(d, st, p, version, *h));
    }
    c
}

/// The orders legal now, grouped: `pass`; the other actions open to the
/// player (draw, chits, diplomacy, ...); every attack his stacks may make;
/// up to three moves per stack to destinations spread over its reach, the
/// first listing every hex it can reach with its cost; the sea and river moves of each stack (12.6, 12.7). Each line is itself a legal order (a trailing `#` comment
/// is ignored in a move file).
pub fn legal(d: &Data, st: &State, p: Player, version: u32) -> Vec<String> {
    if turn::awaited(st) != Some(p) {
        return Vec::new();
    }
    if let Some(q) = &st.question {
        // The answers to the question put to him (digest 2.7).
        return q.answers(d, st);
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
                if st.seq.is_multiple_of(3) && ok(d, st, p, version, &t) {
                    v.push(t);
                }
            }
            let t = format!("reclaim {}", d.special.rome);
            if ok(d, st, p, version, &t) {
                v.push(t);
            }
            return v;
        }
        Stage::AdminGp => {
            let mut v = vec!["done".to_string()];
            v.extend(placement(d, st).filter(|t| ok(d, st, p, version, t)));
            return v;
        }
        Stage::Actions => {}
    }
    let mut out = vec!["pass".to_string()];
    out.extend(candidates(d, st, p, version));
    out
}

/// A `place` order for what the dead pile holds (7.1-7.3): the tribes to
/// the empty Barbaria hexes nearest Rome, the gunds to the first hex their
/// rule allows.
fn placement(d: &Data, st: &State) -> Option<String> {
    use super::placement::{GundRule, gund_sites, tribe_sites};
    let dead = |k: Kind| {
        d.of_kind(k)
            .filter(|u| st.unit(*u).loc == super::state::Loc::Dead)
            .count()
    };
    let mut tribes = tribe_sites(d, st);
    tribes.sort_by_key(|h| (h.distance_on(OFFSET, d.special.rome), *h));
    tribes.truncate(dead(Kind::Tribe));
    let rule = if st.collapsed {
        GundRule::Anywhere
    } else {
        GundRule::Centres
    };
    let gunds = gund_sites(d, st, rule)
        .into_iter()
        .next()
        .filter(|_| dead(Kind::Gund) > 0);
    let list = |hs: &[Hex]| {
        hs.iter()
            .map(|h| h.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = String::from("place");
    if !tribes.is_empty() {
        s.push_str(&format!(" tribes {}", list(&tribes)));
    }
    if let Some(g) = gunds {
        s.push_str(&format!(" gunds {g}"));
    }
    (s != "place").then_some(s)
}
