//! Sample legal orders, for help text and self-play: candidates are built
//! from the position, then each is tried on a copy of the state (with fixed
//! dice) and kept only if the rules accept it.

use super::data::{Data, SpaceNo};
use super::pieces::{Faction, Piece};
use super::sequence::{self, Offer};
use super::state::{Control, Stage, State};
use super::{Adp, acting};
use umpire_core::dice::Dice;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{Ruleset, Side};

/// Orders `side` could send now (a sample).
pub fn legal(r: &Adp, st: &State, side: Side) -> Vec<String> {
    let d = r.data();
    let Ok(f) = acting(d, st, side, None) else {
        return Vec::new();
    };
    let candidates = match &st.stage {
        Stage::Start => Vec::new(),
        Stage::Card(_) => {
            let mut v = card_candidates(d, st, f);
            v.extend(asset_candidates(d, st, side, f));
            v
        }
        Stage::Propaganda(r) => {
            // The side's one sealed mail holds a plan for each of its
            // factions awaited (6.0): the others' plans follow `f`'s.
            let rest: String = r
                .waiting
                .iter()
                .filter(|g| **g != f && st.seats.side(**g) == Some(side))
                .map(|g| format!("\nas {}\ndone", g.key()))
                .collect();
            plan_candidates(d, st, f)
                .into_iter()
                .map(|c| format!("{c}{rest}"))
                .collect()
        }
        Stage::Over => Vec::new(),
    };
    candidates
        .into_iter()
        .filter(|c| accepted(r, st, side, c))
        .collect()
}

/// With an unused Hidden Asset and a Limited Operation offered (7.3): a few
/// full Operations, the marker revealed first.
fn asset_candidates(d: &Data, st: &State, side: Side, f: Faction) -> Vec<String> {
    use super::deception::Marker;
    let holds = st
        .deception
        .as_ref()
        .and_then(|x| x.held.get(side.index()))
        .is_some_and(|h| {
            h.iter()
                .any(|h| h.marker == Marker::HiddenAsset && !h.revealed)
        });
    if !holds || !sequence::offers(d, st).contains(&Offer::LimOp) {
        return Vec::new();
    }
    let mut full = st.clone();
    if let Stage::Card(t) = &mut full.stage {
        t.asset = true;
    }
    card_candidates(d, &full, f)
        .into_iter()
        .filter(|c| c.contains("\nsa "))
        .take(3)
        .map(|c| format!("deception hidden-asset\n{c}"))
        .collect()
}

/// Does the ruleset accept `text` from `side` now?
pub fn accepted(r: &Adp, st: &State, side: Side, text: &str) -> bool {
    let lines: Vec<SourceLine> = text
        .lines()
        .enumerate()
        .map(|(i, t)| SourceLine {
            line: i + 1,
            column: 1,
            text: t.to_string(),
        })
        .collect();
    let Ok(orders) = Ruleset::parse(r, st, side, &lines) else {
        return false;
    };
    let mut copy = st.clone();
    let mut dice = Dice::seeded([7; 32]);
    orders
        .iter()
        .all(|(_, o)| Ruleset::apply(r, &mut copy, side, o, &mut dice).is_ok())
}

fn key(d: &Data, s: SpaceNo) -> &str {
    &d[s].key
}

/// Candidate orders for `f` on the current card, not yet tried (the
/// Non-player engine tries and ranks them, `super::nonplayer`).
pub fn card_candidates(d: &Data, st: &State, f: Faction) -> Vec<String> {
    let mut v = vec!["pass".to_string()];
    if let Some(c) = chooser_candidates(d, st) {
        // 5.1, digest D3: the stated default (`pass`), or other spaces.
        v.extend(c);
        return v;
    }
    if let Some(ops) = granted_ops(d, st) {
        // 5.5: a free Operation of those granted, no Special Activity, or
        // `pass` to decline it (digest D4).
        v.extend(
            op_candidates(d, st, f)
                .into_iter()
                .map(|(op, _)| op)
                .filter(|op| ops.iter().any(|g| op.starts_with(g))),
        );
        return v;
    }
    let offers = sequence::offers(d, st);
    if offers.contains(&Offer::Event) {
        let events = event_candidates(d, st);
        v.extend(events.iter().cloned());
        v.extend(free_op_candidates(d, st, f, &events));
    }
    let limited = !offers.contains(&Offer::Op);
    let ops = op_candidates(d, st, f);
    for (op, sa) in ops {
        if limited {
            if !op.contains('\n') || op.matches('\n').count() == 1 {
                v.push(op.replacen('\n', " limited\n", 1));
            }
        } else {
            v.push(op.clone());
            // The Special Activity before the Operation's lines, so that no
            // roll (Attack) can change whether it is still allowed (4.1).
            let (head, rest) = op.split_once('\n').unwrap_or((op.as_str(), ""));
            for s in sa.iter().filter(|s| accompanies(s, head)).take(3) {
                // Cultivate names a space the Operation selects (4.5.1):
                // its line follows the Operation's.
                match s.strip_prefix(AFTER) {
                    Some(s) => v.push(format!("{op}\n{s}")),
                    None => v.push(format!("{head}\n{s}\n{rest}")),
                }
            }
        }
    }
    v
}

/// A Special Activity line that goes after the Operation's lines.
const AFTER: &str = "after:";

/// May the Special Activity `sa` accompany the Operation `op` (4.1.1)?
fn accompanies(sa: &str, op: &str) -> bool {
    use super::orders::SaKind;
    let key = sa
        .trim_start_matches(AFTER)
        .split_whitespace()
        .nth(1)
        .unwrap_or("");
    let op = op.split_whitespace().next().unwrap_or("");
    SaKind::ALL
        .into_iter()
        .find(|k| k.key() == key)
        .is_some_and(|k| {
            k.accompanies().is_empty() || k.accompanies().iter().any(|o| o.key() == op)
        })
}

/// `choose` answers to an Event's question (5.1, digest D3), if one is
/// owed: the qualifying spaces from the least held up, a few ways.
fn chooser_candidates(d: &Data, st: &State) -> Option<Vec<String>> {
    let Stage::Card(t) = &st.stage else {
        return None;
    };
    let c = t.choice.as_ref()?;
    let step = d.card(c.card)?.side(c.shaded).get(c.step)?;
    let (_, n) = step.chosen_by()?;
    let mut ok = super::conditional::candidates(d, st, step);
    ok.reverse();
    let n = usize::from(n).min(ok.len());
    Some(
        (0..ok.len().saturating_sub(n) + 1)
            .take(3)
            .map(|i| {
                let names: Vec<&str> = ok[i..i + n].iter().map(|s| key(d, *s)).collect();
                format!("choose {}", names.join(" "))
            })
            .collect(),
    )
}

/// The Operations a pending grant offers (5.5), if one is owed.
fn granted_ops(d: &Data, st: &State) -> Option<Vec<&'static str>> {
    let Stage::Card(t) = &st.stage else {
        return None;
    };
    let g = t.grant.as_ref()?;
    let card = d.card(g.card)?;
    Some(
        card.side(g.shaded)
            .iter()
            .filter_map(|s| match s {
                super::cards::Step::Grant { to, ops } if *to == g.faction => {
                    Some(ops.iter().map(|o| o.key()))
                }
                _ => None,
            })
            .flatten()
            .collect(),
    )
}

/// Events followed by a free Operation they grant (3.1.2, 5.5).
fn free_op_candidates(d: &Data, st: &State, f: Faction, events: &[String]) -> Vec<String> {
    let Some(card) = sequence::current(d, st) else {
        return Vec::new();
    };
    let mut v = Vec::new();
    for (e, shaded) in events.iter().zip([false, true]) {
        let granted: Vec<&str> = card
            .side(shaded)
            .iter()
            .filter_map(|s| match s {
                super::cards::Step::FreeOp(ops) => Some(ops.iter().map(|o| o.key())),
                _ => None,
            })
            .flatten()
            .collect();
        for (op, _) in op_candidates(d, st, f) {
            if granted.iter().any(|g| op.starts_with(g)) {
                v.push(format!("{e}\n{op}"));
            }
        }
    }
    v.truncate(4);
    v
}

fn event_candidates(d: &Data, st: &State) -> Vec<String> {
    let Some(card) = sequence::current(d, st) else {
        return Vec::new();
    };
    let mut v = Vec::new();
    for shaded in [false, true] {
        let mut names = Vec::new();
        for step in card.side(shaded) {
            let Some(filter) = step.filter().filter(|_| step.chosen_by().is_none()) else {
                continue;
            };
            let useful = d.version >= super::event_check::SINCE;
            let pick = d
                .ids()
                .filter(|s| super::effects::fits(d, *s, filter))
                // 5.1 (version 11): only spaces where the step does
                // something; before, the rough test below.
                .filter(|s| !useful || super::event_check::idle(d, st, step, *s).is_none())
                .filter(|s| match step {
                    super::cards::Step::Remove { faction, .. } => {
                        useful || st[*s].pieces.of(*faction) > 0
                    }
                    super::cards::Step::Place { faction, .. } => {
                        let pak = d[*s].is_pakistan() && *faction != Faction::Taliban;
                        !(pak || d[*s].is_loc())
                    }
                    _ => useful || d[*s].is_afghan(),
                })
                .take(usize::from(step.spaces()));
            names.extend(pick.map(|s| key(d, s).to_string()));
        }
        let side = if shaded { "shaded" } else { "unshaded" };
        v.push(
            format!("event {side} {}", names.join(" "))
                .trim_end()
                .to_string(),
        );
    }
    v
}

/// (Operation text, Special Activity lines that might go with it).
fn op_candidates(d: &Data, st: &State, f: Faction) -> Vec<(String, Vec<String>)> {
    match f {
        Faction::Coalition | Faction::Government => coin_candidates(d, st, f),
        Faction::Taliban | Faction::Warlords => insurgent_candidates(d, st, f),
    }
}

/// Spaces rotated by the cards played, for variety.
fn rotated(st: &State, mut xs: Vec<SpaceNo>) -> Vec<SpaceNo> {
    if !xs.is_empty() {
        let k = st.deck.played.len() % xs.len();
        xs.rotate_left(k);
    }
    xs
}

/// A COIN faction's candidates: Train, Assault, Patrol and Sweep (3.2).
fn coin_candidates(d: &Data, st: &State, f: Faction) -> Vec<(String, Vec<String>)> {
    let mut v = Vec::new();
    let ids: Vec<SpaceNo> = d.ids().collect();
    let p = |s: SpaceNo| st[s].pieces;
    let rot = |xs: Vec<SpaceNo>| rotated(st, xs);
    let sas = coin_sas(d, st, f);
    let train: Vec<SpaceNo> = rot(ids
        .iter()
        .copied()
        .filter(|s| {
            let b = p(*s)[Piece::CoalBase]
                + if f == Faction::Government {
                    p(*s)[Piece::GovBase]
                } else {
                    0
                };
            !d[*s].is_pakistan()
                && !d[*s].is_loc()
                && (b > 0 || (d[*s].is_city() && f == Faction::Government))
        })
        .collect());
    for s in train.iter().take(2) {
        v.push((
            format!("train\nin {} place {}", key(d, *s), train_cubes(st, f)),
            sas.clone(),
        ));
        if st[*s].control == Control::Coin {
            v.push((
                format!(
                    "train\nin {} place 1 police\ncivic {} 1",
                    key(d, *s),
                    key(d, *s)
                ),
                sas.clone(),
            ));
        }
    }
    let assault: Vec<SpaceNo> = rot(ids
        .iter()
        .copied()
        .filter(|s| {
            let q = p(*s);
            !d[*s].is_pakistan()
                && (q[Piece::TalActive]
                    + q[Piece::WarActive]
                    + q[Piece::TalBase]
                    + q[Piece::WarBase])
                    > 0
                && q.cubes() > 0
        })
        .collect());
    for s in assault.iter().take(2) {
        v.push((format!("assault\nin {}", key(d, *s)), sas.clone()));
    }
    // Patrol and Sweep: one cube group to an adjacent LoC / space.
    let cube = if f == Faction::Coalition {
        Piece::CoalTroops
    } else {
        Piece::GovTroops
    };
    for s in rot(ids.iter().copied().filter(|s| p(*s)[cube] > 0).collect())
        .iter()
        .take(3)
    {
        if let Some(l) = d[*s].adjacent.iter().find(|a| d[**a].is_loc()) {
            v.push((
                format!("patrol\nmove 1 troops {}>{}", key(d, *s), key(d, *l)),
                sas.clone(),
            ));
        }
        if let Some(t) = d[*s]
            .adjacent
            .iter()
            .find(|a| !d[**a].is_loc() && !d[**a].is_pakistan())
        {
            v.push((
                format!(
                    "sweep\nin {}\nmove 1 troops {}>{}",
                    key(d, *t),
                    key(d, *s),
                    key(d, *t)
                ),
                sas.clone(),
            ));
        }
    }
    v
}

/// An insurgent faction's candidates: Rally, March, Attack and Terror (3.3).
fn insurgent_candidates(d: &Data, st: &State, f: Faction) -> Vec<(String, Vec<String>)> {
    let mut v = Vec::new();
    let ids: Vec<SpaceNo> = d.ids().collect();
    let p = |s: SpaceNo| st[s].pieces;
    let rot = |xs: Vec<SpaceNo>| rotated(st, xs);
    let sas = insurgent_sas(d, st, f);
    let rally: Vec<SpaceNo> = rot(ids.iter().copied().filter(|s| !d[*s].is_loc()).collect());
    for s in rally.iter().take(3) {
        v.push((
            format!("rally\nin {}", key(d, *s)),
            with_cultivate(d, st, f, *s, &sas),
        ));
    }
    if let (Some(a), Some(b)) = (rally.first(), rally.get(1)) {
        v.push((
            format!("rally\nin {}\nin {}", key(d, *a), key(d, *b)),
            sas.clone(),
        ));
    }
    for s in rally.iter().filter(|s| p(**s).guerrillas(f) >= 2).take(1) {
        v.push((format!("rally\nin {} base", key(d, *s)), sas.clone()));
    }
    let here: Vec<SpaceNo> = rot(ids
        .iter()
        .copied()
        .filter(|s| p(*s).guerrillas(f) > 0)
        .collect());
    for s in here.iter().take(3) {
        for a in d[*s].adjacent.iter().take(2) {
            v.push((
                format!("march\nmove 1 {}>{}", key(d, *s), key(d, *a)),
                sas.clone(),
            ));
            if let Some(m) = np_march(d, st, f, *s, *a).filter(|m| m != "1") {
                v.push((
                    format!("march\nmove {m} {}>{}", key(d, *s), key(d, *a)),
                    with_cultivate(d, st, f, *a, &sas),
                ));
            }
        }
        if p(*s).enemies_of(f) > 0 {
            let mut with = sas.clone();
            // 4.4.3: Ambush in the Attack's space, declared before
            // it resolves.
            if f == Faction::Taliban && p(*s)[Piece::TalUnder] > 0 {
                with.insert(0, format!("sa ambush {}", key(d, *s)));
            }
            v.push((format!("attack\nin {}", key(d, *s)), with));
        }
        v.push((format!("terror\nin {}", key(d, *s)), sas.clone()));
    }
    v
}

/// The cubes a Train candidate places in a space: a sample for a player.
/// A Non-player places to the maximum extent (8.1 GUIDELINES: "the most
/// pieces allowed"), up to 6 (3.2.1) of those Available, Police and Troops
/// evenly, Police first ("Place or remove friendly Police and Troops
/// evenly, Police first"); the Coalition's Train places Government cubes,
/// and they follow the same order.
pub fn train_cubes(st: &State, f: Faction) -> String {
    if !st.seats.is_np(f) {
        return "2 police 1 troops".into();
    }
    let (police, troops) = even_cubes(
        6,
        st.available[Piece::Police],
        st.available[Piece::GovTroops],
    );
    match (police, troops) {
        (0, 0) => "1 police".into(),
        (p, 0) => format!("{p} police"),
        (0, t) => format!("{t} troops"),
        (p, t) => format!("{p} police {t} troops"),
    }
}

/// Up to `most` cubes of `police` and `troops` Available, split evenly with
/// the odd one a Police; what one kind lacks, the other makes up.
pub fn even_cubes(most: u8, police: u8, troops: u8) -> (u8, u8) {
    let total = most.min(police.saturating_add(troops));
    let p = police.min(total.div_ceil(2));
    let t = troops.min(total - p);
    (total - t, t)
}

/// A Non-player's March group from `from` to `to` (8.1 GUIDELINES): "as
/// many Underground Guerrillas as possible to the destination" and, within
/// that, Active ones too. Where the group would be Activated (3.3.2: a LoC,
/// or a space exposed to the faction, and more than 3 counted), only so many
/// move that none is, Underground first (the MARCH EXAMPLE: "only 3 of them
/// would move, first those Underground"); with none Underground, the Active
/// ones go. `None` for a player, or with nothing to move. The count, and
/// `active` when only Active ones move, as the order's words.
pub fn np_march(d: &Data, st: &State, f: Faction, from: SpaceNo, to: SpaceNo) -> Option<String> {
    let (u, a) = Piece::guerrillas(f)?;
    if !st.seats.is_np(f) {
        return None;
    }
    let (under, active) = (st[from].pieces[u], st[from].pieces[a]);
    let sp = &d[to];
    let exposed = sp.is_loc()
        || (f == Faction::Taliban && !sp.pashtun)
        || (f == Faction::Warlords && sp.pashtun);
    let other = if f == Faction::Taliban {
        st[to].pieces.guerrillas(Faction::Warlords) + st[to].pieces.cubes()
    } else {
        st[to].pieces.guerrillas(Faction::Taliban)
    };
    let room = 3u32.saturating_sub(other);
    let all = u32::from(under) + u32::from(active);
    let text = if !exposed || under == 0 || room == 0 {
        // Nothing Underground can arrive so: every Guerrilla goes if none
        // is Activated on the way, else only the Active ones.
        if exposed && under > 0 {
            (active > 0).then(|| format!("{active} active"))?
        } else {
            all.to_string()
        }
    } else {
        all.min(room).to_string()
    };
    (all > 0).then_some(text)
}

/// The Special Activities for a Rally in (or a March to) `s`: Cultivate
/// first where it may place a Warlord Base after it (4.5.1: a Province,
/// Pop > 0, more Warlord Guerrillas than Police, room for a Base).
fn with_cultivate(d: &Data, st: &State, f: Faction, s: SpaceNo, sas: &[String]) -> Vec<String> {
    let mut v = sas.to_vec();
    let p = st[s].pieces;
    let fits = f == Faction::Warlords
        && d[s].kind == super::data::SpaceKind::Province
        && st.pop(d, s) > 0
        && p.guerrillas(f) + 1 > u32::from(p[Piece::Police])
        && p.bases() < u32::from(d.limits.bases_per_space)
        && st.available[Piece::WarBase] > 0;
    if fits {
        v.insert(0, format!("{AFTER}sa cultivate {}", key(d, s)));
    }
    v
}

fn coin_sas(d: &Data, st: &State, f: Faction) -> Vec<String> {
    let mut v = Vec::new();
    let ids: Vec<SpaceNo> = d.ids().collect();
    if f == Faction::Coalition {
        for s in ids
            .iter()
            .filter(|s| {
                !d[**s].is_city()
                    && st[**s].pieces[Piece::TalActive] + st[**s].pieces[Piece::WarActive] > 0
            })
            .take(1)
        {
            let t = if st[*s].pieces[Piece::TalActive] > 0 {
                "taliban"
            } else {
                "warlords"
            };
            v.push(format!("sa airstrike {} {t}", d[*s].key));
        }
        let k = d.kabul();
        if st[k].pieces[Piece::CoalTroops] > 0
            && let Some(t) = ids
                .iter()
                .find(|s| st[**s].pieces[Piece::CoalBase] > 0 && **s != k)
        {
            v.push(format!("sa airlift 1 troops {}>{}", d[k].key, d[*t].key));
        }
        // 4.2.1 Surge (with Train): a Troop from Available to Kabul, else
        // from Kabul to a COIN-Controlled Province; the roll all to Aid
        // (digest D6's default).
        let surge_to = ids.iter().copied().find(|s| {
            d[*s].kind == super::data::SpaceKind::Province && st[*s].control == Control::Coin
        });
        // Version 8: first a Troop back to Available, which counts toward
        // the Coalition's total (7.2); the Non-player's "train surge" pair
        // (stand-in) took Troops out of it before.
        let surge_back = ids.iter().copied().find(|s| {
            let coin = st[*s].control == Control::Coin;
            let kind = d[*s].kind == super::data::SpaceKind::Province || *s == k;
            d.version >= 8 && coin && kind && st[*s].pieces[Piece::CoalTroops] > 0
        });
        if let Some(s) = surge_back {
            v.push(format!("sa surge 1 troops {}>available, roll", d[s].key));
        } else if st.available[Piece::CoalTroops] > 0 {
            v.push(format!("sa surge 1 troops available>{}, roll", d[k].key));
        } else if let Some(t) = surge_to.filter(|_| st[k].pieces[Piece::CoalTroops] > 0) {
            v.push(format!("sa surge 1 troops {}>{}, roll", d[k].key, d[t].key));
        }
    } else {
        // 4.3.2 Transport: Government Troops onto an adjacent LoC, then
        // into a space adjacent to it.
        let transport = ids.iter().copied().find_map(|s| {
            if st[s].pieces[Piece::GovTroops] == 0 || d[s].is_pakistan() {
                return None;
            }
            d[s].adjacent.iter().copied().find_map(|l| {
                let open = d[l].is_loc() && !st[l].sabotage;
                let to = d[l]
                    .adjacent
                    .iter()
                    .copied()
                    .find(|t| *t != s && !d[*t].is_pakistan() && !d[*t].is_loc());
                open.then_some(to).flatten().map(|t| (s, l, t))
            })
        });
        if let Some((s, l, t)) = transport {
            v.push(format!(
                "sa transport 1 {}>{}>{}",
                d[s].key, d[l].key, d[t].key
            ));
        }
        for s in ids
            .iter()
            .filter(|s| d[**s].is_afghan() && st[**s].control == Control::Coin)
            .take(1)
        {
            v.push(format!("sa govern {} returnees", d[*s].key));
        }
        for s in ids
            .iter()
            .filter(|s| st[**s].pieces[Piece::WarBase] > 0 && st[**s].control == Control::Coin)
            .take(1)
        {
            v.push(format!("sa eradicate {}", d[*s].key));
        }
    }
    v
}

fn insurgent_sas(d: &Data, st: &State, f: Faction) -> Vec<String> {
    let mut v = Vec::new();
    let ids: Vec<SpaceNo> = d.ids().collect();
    if f == Faction::Taliban {
        let ext: Vec<&str> = ids
            .iter()
            .filter(|s| {
                let p = st[**s].pieces;
                p[Piece::TalUnder] > 0
                    && p.of(Faction::Taliban) > p.total() - p.of(Faction::Taliban)
            })
            .take(2)
            .map(|s| d[*s].key.as_str())
            .collect();
        if !ext.is_empty() {
            v.push(format!("sa extort {}", ext.join(" ")));
        }
        // 4.4.2 Infiltrate (with Rally or March): replace a Government (or
        // else a Warlord) piece where an Underground Guerrilla is.
        let inf = ids.iter().copied().find_map(|s| {
            let p = st[s].pieces;
            if p[Piece::TalUnder] == 0 {
                return None;
            }
            [Faction::Government, Faction::Warlords]
                .into_iter()
                .find(|g| p.of(*g) > 0)
                .map(|g| (s, g))
        });
        if let Some((s, g)) = inf {
            v.push(format!("sa infiltrate {} replace {}", d[s].key, g.key()));
        }
    } else {
        let tr: Vec<&str> = ids
            .iter()
            .filter(|s| {
                st[**s].pieces[Piece::WarBase] > 0 && st[**s].pieces.of(Faction::Coalition) == 0
            })
            .take(2)
            .map(|s| d[*s].key.as_str())
            .collect();
        if !tr.is_empty() {
            v.push(format!("sa traffic {}", tr.join(" ")));
        }
        // 4.5.3 Suborn (ruling A6: where a Warlord Guerrilla is): Government
        // cubes, else a Taliban Guerrilla.
        if st.res(f) >= 2 {
            let sub = ids.iter().copied().find_map(|s| {
                let p = st[s].pieces;
                if p.guerrillas(f) == 0 {
                    None
                } else if p.gov_cubes() > 0 {
                    Some(format!("sa suborn {} cubes 3", d[s].key))
                } else if p.guerrillas(Faction::Taliban) > 0 {
                    Some(format!("sa suborn {} guerrilla", d[s].key))
                } else {
                    None
                }
            });
            v.extend(sub);
        }
    }
    v
}

fn plan_candidates(d: &Data, st: &State, f: Faction) -> Vec<String> {
    let head = format!("as {}", f.key());
    let mut v = vec![format!("{head}\ndone")];
    // From version 11 a step that can do nothing is refused (6.4).
    let can = |s: SpaceNo, up: bool| {
        d.version < super::event_check::SINCE || super::insurgent::steps_in(d, st, s, up) > 0
    };
    let ids: Vec<SpaceNo> = d.ids().collect();
    match f {
        Faction::Coalition | Faction::Government => {
            for s in ids
                .iter()
                .filter(|s| {
                    super::propaganda::civic_decider(d, st, **s) == Some(f) && can(**s, true)
                })
                .take(2)
            {
                v.push(format!("{head}\ncivic {} 1", d[*s].key));
            }
        }
        Faction::Taliban => {
            for s in ids
                .iter()
                .filter(|s| st[**s].control == Control::Taliban && can(**s, false))
                .take(2)
            {
                v.push(format!("{head}\nsharia {} 1", d[*s].key));
            }
        }
        Faction::Warlords => {}
    }
    v
}
