//! Orders legal now, as text a player could write: every answer to a pending
//! question, and for an action phase first a sample (every pass, every rally,
//! moves towards the enemy, single combats and a combined one), then the whole
//! list: every hex each activated unit, and each activated stack together, can
//! reach, by its cheapest path (one path per destination; others that cost no
//! more than the movement allowance are legal too), and every combat each
//! unit, and each group of units in one hex, can declare. Entries may hold
//! several lines (`move ...` then `place ...`); each parses as one move's
//! orders. The sample comes first: mails show the first few as examples.

use super::data::{CmdId, Data, Faction, Terrain, UnitId};
use super::movement::step_cost;
use super::orders::Action;
use super::standing;
use super::state::{Decision, Loc, State};
use super::turn::{cannot_activate, chain, cost};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use umpire_core::hex::Hex;

/// Which hexes hold an enemy combat unit, per side (zones of control, 1.2).
pub struct Occupancy(Vec<[bool; 2]>);

impl Occupancy {
    /// Built once for a state.
    pub fn of(d: &Data, st: &State) -> Occupancy {
        let mut v = vec![[false; 2]; d.hex_count()];
        for (i, u) in st.units.iter().enumerate() {
            if let Some(x) = u.loc.hex().and_then(|h| d.hex_index(h)) {
                v[x][d.units[i].side.index()] = true;
            }
        }
        Occupancy(v)
    }

    /// Does `to` hold a combat unit of the enemy of `f`?
    pub fn enemy(&self, d: &Data, f: Faction, to: Hex) -> bool {
        d.hex_index(to)
            .is_some_and(|x| self.0[x][f.other().index()])
    }
}

/// Every hex a unit can reach in one move, with the cheapest cost and path.
pub struct Reach {
    /// (hex, MP spent, node) for each reachable hex other than the start.
    pub ends: Vec<(Hex, u32, u32)>,
    parent: Vec<u32>,
    rows: i32,
}

const NONE: u32 = u32::MAX;

impl Reach {
    fn hex_of(&self, node: u32) -> Hex {
        let i = (node / 2) as i32;
        Hex::new(i / self.rows + 1, i % self.rows + 1)
    }

    /// The hexes entered to reach `node`, in order (the start excluded; for an
    /// off-map unit the entry hex comes first).
    pub fn path(&self, node: u32) -> Vec<Hex> {
        let mut v = Vec::new();
        let mut at = node;
        while at != NONE && (at as usize) < self.parent.len() {
            v.push(self.hex_of(at));
            at = self.parent[at as usize];
        }
        v.reverse();
        v
    }
}

/// The cheapest path to every hex a unit can reach in one move (6.0, 6.1, 9.0).
pub fn paths(d: &Data, st: &State, occ: &Occupancy, u: UnitId) -> Reach {
    let mut out = Reach {
        ends: Vec::new(),
        parent: Vec::new(),
        rows: d.rows,
    };
    if st.units[u].stopped {
        return out;
    }
    let Some((start, s, k)) = first_node(d, st, occ, u) else {
        return out;
    };
    let n = d.hex_count() * 2;
    let mut best = vec![NONE; n];
    best[s as usize] = k;
    out.parent = vec![NONE; n];
    search(d, st, occ, u, (start, s, k), &mut best, &mut out.parent);
    out.ends = ends(d, &best, start);
    out
}

/// The search node of hex `h`: nodes are (hex, has been in Plain this
/// phase), as ruling A16 makes the flag matter.
fn node(d: &Data, h: Hex, plain: bool) -> Option<u32> {
    d.hex_index(h).map(|i| (i * 2) as u32 + u32::from(plain))
}

/// Where unit `u`'s move starts, as (start node, first node, MP spent
/// there): its hex (ruling A16: counted as visited this phase), or for an
/// off-map unit its command's entry hex (the start node then `NONE`), if it
/// may enter this turn and afford it.
fn first_node(d: &Data, st: &State, occ: &Occupancy, u: UnitId) -> Option<(u32, u32, u32)> {
    match st.units[u].loc {
        Loc::Hex(h) => {
            // Ruling A16: the start hex counts as visited this phase.
            let plain = st.units[u].plain || d.terrain_of(h) == Terrain::Plain;
            let s = node(d, h, plain)?;
            Some((s, s, 0))
        }
        Loc::OffMap => {
            let c = d.units[u].cmd;
            let e = d.commands[c].entry?;
            if st.options.entry_only_turn && st.turn != d.commands[c].entry_turn {
                return None;
            }
            let f = d.units[u].side;
            let k = step_cost(d, st, u, None, e, false, occ.enemy(d, f, e)).ok()?;
            let s = node(d, e, d.terrain_of(e) == Terrain::Plain)?;
            (k <= d.type_of(u).ma).then_some((NONE, s, k))
        }
        _ => None,
    }
}

/// Dijkstra's search from `first` = (start node, first node, MP spent) over
/// the hexes unit `u` may step into within its movement allowance: the
/// cheapest cost of each node in `best`, the node it is reached from in
/// `parent`. No step leaves a stopping hex but the start.
fn search(
    d: &Data,
    st: &State,
    occ: &Occupancy,
    u: UnitId,
    (start, s, k): (u32, u32, u32),
    best: &mut [u32],
    parent: &mut [u32],
) {
    let f = d.units[u].side;
    let ma = d.type_of(u).ma;
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((k, s)));
    while let Some(Reverse((spent, at))) = heap.pop() {
        if best[at as usize] < spent {
            continue;
        }
        let i = (at / 2) as i32;
        let h = Hex::new(i / d.rows + 1, i % d.rows + 1);
        let plain = at % 2 == 1;
        if at != start && d.tec(h).stop {
            continue;
        }
        for nb in h.neighbours() {
            if !d.on_map(nb) {
                continue;
            }
            let Ok(k) = step_cost(d, st, u, Some(h), nb, plain, occ.enemy(d, f, nb)) else {
                continue;
            };
            let total = spent + k;
            if total > ma {
                continue;
            }
            let Some(x) = node(d, nb, plain || d.terrain_of(nb) == Terrain::Plain) else {
                continue;
            };
            if total < best[x as usize] {
                best[x as usize] = total;
                parent[x as usize] = if at == start { NONE } else { at };
                heap.push(Reverse((total, x)));
            }
        }
    }
}

/// Every hex reached but the start, with its cheaper cost of the two nodes
/// and that node.
fn ends(d: &Data, best: &[u32], start: u32) -> Vec<(Hex, u32, u32)> {
    let mut v = Vec::new();
    let start_hex = (start != NONE).then_some(start / 2);
    for i in 0..d.hex_count() as u32 {
        if Some(i) == start_hex {
            continue;
        }
        let (a, b) = (best[(i * 2) as usize], best[(i * 2 + 1) as usize]);
        let (k, x) = if a <= b { (a, i * 2) } else { (b, i * 2 + 1) };
        if k != NONE {
            let h = Hex::new(i as i32 / d.rows + 1, i as i32 % d.rows + 1);
            v.push((h, k, x));
        }
    }
    v
}

/// Hex distance from every hex to the nearest goal (a breadth-first field).
fn field(d: &Data, goals: &[Hex]) -> Vec<u32> {
    let mut v = vec![u32::MAX; d.hex_count()];
    let mut q = std::collections::VecDeque::new();
    for g in goals {
        if let Some(i) = d.hex_index(*g)
            && v[i] != 0
        {
            v[i] = 0;
            q.push_back(*g);
        }
    }
    while let Some(h) = q.pop_front() {
        let k = d.hex_index(h).map_or(0, |i| v[i]);
        for n in h.neighbours() {
            if let Some(i) = d.hex_index(n)
                && v[i] == u32::MAX
            {
                v[i] = k + 1;
                q.push_back(n);
            }
        }
    }
    v
}

/// Where a side wants to go: enemy-held marker hexes and enemy units.
fn goals(d: &Data, st: &State, f: Faction) -> Vec<Hex> {
    let mut g: Vec<Hex> = d
        .places
        .iter()
        .enumerate()
        .filter(|(i, _)| st.control[*i] == Some(f.other()))
        .map(|(_, p)| p.hex)
        .collect();
    g.extend(
        st.units
            .iter()
            .enumerate()
            .filter(|(i, _)| d.units[*i].side != f)
            .filter_map(|(_, u)| u.loc.hex()),
    );
    g
}

fn near(d: &Data, field: &[u32], h: Hex) -> u32 {
    d.hex_index(h).map_or(u32::MAX, |i| field[i])
}

/// A move order for some of a command's activated units, each heading for
/// the goals as far as stacking allows; with the command placed up front.
fn advance(
    d: &Data,
    st: &State,
    cache: &mut BTreeMap<UnitId, Reach>,
    occ: &Occupancy,
    c: CmdId,
    units: &[UnitId],
    goals: &[u32],
) -> Option<String> {
    let f = d.commands[c].side;
    let mut count: BTreeMap<Hex, u32> = BTreeMap::new();
    let mut parts = Vec::new();
    let mut ends = Vec::new();
    for u in units {
        let ui = *u;
        let ps = cache.entry(*u).or_insert_with(|| paths(d, st, occ, ui));
        let here = st.units[ui].loc.hex();
        let score_here = here.map_or(u32::MAX, |h| near(d, goals, h));
        let mut best: Option<(u32, u32, Hex, u32)> = None;
        for (h, k, x) in ps.ends.iter() {
            let n = *count
                .entry(*h)
                .or_insert_with(|| st.side_at(d, *h, f).count() as u32);
            if n + 1 > d.tec(*h).stack {
                continue;
            }
            let s = near(d, goals, *h);
            if s >= score_here && here.is_some() {
                continue;
            }
            if best.is_none_or(|(bs, bk, bh, _)| (s, *k, *h) < (bs, bk, bh)) {
                best = Some((s, *k, *h, *x));
            }
        }
        let Some((_, _, h, x)) = best else { continue };
        *count.entry(h).or_insert(0) += 1;
        if let Some(from) = here {
            let n = count
                .entry(from)
                .or_insert_with(|| st.side_at(d, from, f).count() as u32);
            *n = n.saturating_sub(1);
        }
        let path: Vec<String> = ps.path(x).iter().map(Hex::to_string).collect();
        let lead = if here.is_none() { "entry " } else { "" };
        parts.push(format!("{} {lead}{}", d.units[ui].id, path.join(" ")));
        ends.push(h);
    }
    if parts.is_empty() {
        return None;
    }
    let mut s = format!("move {}: {}", d.commands[c].id, parts.join(", "));
    // Place the command with the unit that got nearest, where that is allowed.
    if let Some(h) = ends.iter().min_by_key(|h| (near(d, goals, **h), **h))
        && st.commands_at(d, *h, f).all(|x| x == c)
        && d.tec(*h).stack_command >= 1
    {
        s.push_str(&format!("\nplace {} {h}", d.commands[c].id));
    }
    Some(s)
}

/// Single combats the activated units could declare now.
fn combats(d: &Data, st: &State, c: CmdId, chain: &[UnitId]) -> Vec<(Vec<UnitId>, String)> {
    let f = d.commands[c].side;
    let mut out = Vec::new();
    let mut hexes: Vec<Hex> = chain
        .iter()
        .filter_map(|u| st.units[*u].loc.hex())
        .collect();
    hexes.sort();
    hexes.dedup();
    let enemies = |h: Hex| -> Vec<UnitId> { st.side_at(d, h, f.other()).collect() };
    for h in &hexes {
        let here: Vec<UnitId> = chain
            .iter()
            .copied()
            .filter(|u| st.units[*u].loc == Loc::Hex(*h))
            .collect();
        let mut around = vec![*h];
        around.extend(h.neighbours().into_iter().filter(|n| d.on_map(*n)));
        // Fire, per class of fire need (ruling A25).
        for need in [5, 6] {
            let firers: Vec<UnitId> = here
                .iter()
                .copied()
                .filter(|u| {
                    let t = d.type_of(*u);
                    t.fire > 0 && t.fire_need == need && !st.units[*u].dis
                })
                .collect();
            if firers.is_empty() {
                continue;
            }
            for t in around.iter().flat_map(|x| enemies(*x)) {
                let ids: Vec<&str> = firers.iter().map(|u| d.units[*u].id.as_str()).collect();
                out.push((
                    firers.clone(),
                    format!("fire {} -> {}", ids.join(" "), d.units[t].id),
                ));
            }
        }
        // Charge into adjacent, non-Pass/Fort hexes across no unbridged side, within stacking.
        let chargers: Vec<UnitId> = here
            .iter()
            .copied()
            .filter(|u| d.type_of(*u).charge && !st.units[*u].dis)
            .collect();
        if !chargers.is_empty() {
            for n in h.neighbours() {
                let Some(dir) = h.dir_to(n) else { continue };
                if !d.on_map(n) || d.terrain_of(n).is_pass_or_fort() || d.blocked(*h, dir) {
                    continue;
                }
                let room = d
                    .tec(n)
                    .stack
                    .saturating_sub(st.side_at(d, n, f).count() as u32)
                    as usize;
                if room == 0 {
                    continue;
                }
                let cmd_moves = st.commands[c].loc == Loc::Hex(*h);
                if cmd_moves && st.commands_at(d, n, f).count() as u32 >= d.tec(n).stack_command {
                    continue;
                }
                let group: Vec<UnitId> = chargers.iter().copied().take(room).collect();
                for t in enemies(n) {
                    let ids: Vec<&str> = group.iter().map(|u| d.units[*u].id.as_str()).collect();
                    out.push((
                        group.clone(),
                        format!("charge {} -> {}", ids.join(" "), d.units[t].id),
                    ));
                }
            }
        }
        if !enemies(*h).is_empty() {
            out.push((
                here.clone(),
                format!("attack {h} with {}", d.commands[c].id),
            ));
        }
    }
    out
}

/// Orders `f` may give now (a sample for action phases).
pub fn legal(d: &Data, st: &State, f: Faction) -> Vec<String> {
    orders(d, st, f, true)
}

/// The samples [`legal`] starts with (passes, rallies, an advance, a few
/// combats), without every move and combat after them: what a mail's move
/// template shows, at a fraction of the cost.
pub fn samples(d: &Data, st: &State, f: Faction) -> Vec<String> {
    orders(d, st, f, false)
}

/// How wide an example line may be: a commented line of the move
/// template in a 72-column mail (`  # e.g. ` and the line).
pub const EXAMPLE_WIDTH: usize = 63;

/// `order` with each line wider than [`EXAMPLE_WIDTH`] written as the move
/// file also takes it, so that an example is never wrapped in two: a move's
/// further units on lines of their own (`ds.i2 0608 0708`), a combat
/// action's further combats too (`attack 0807 with ...`); a line that does
/// not start with a keyword continues the order above it.
pub fn reflow(order: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for line in order.lines() {
        let sep = if line.starts_with("move ") || line.starts_with("then move ") {
            ", "
        } else if line.starts_with("combat ") || line.starts_with("then combat ") {
            "; "
        } else {
            ""
        };
        if line.chars().count() <= EXAMPLE_WIDTH || sep.is_empty() {
            out.push(line);
        } else {
            out.extend(line.split(sep));
        }
    }
    out.join("\n")
}

/// The samples, and with `full` every move and combat after them.
fn orders(d: &Data, st: &State, f: Faction, full: bool) -> Vec<String> {
    if st.finished.is_some() {
        return Vec::new();
    }
    if let Some(q) = &st.decision {
        if q.side() != f {
            return Vec::new();
        }
        return answers(d, st, q);
    }
    if st.phase.side != f {
        return Vec::new();
    }
    // Before turn 1's preparation roll (made with the first order), plan
    // with the least AP the roll can give (4.1(5)).
    let ap = if st.prep_pending {
        d.values.prep_dice
            + st.prep_commands(d, Faction::Ming)
                .max(st.prep_commands(d, Faction::Jurchen))
    } else {
        st.ap[f.index()]
    };
    let mut s = Sampler {
        d,
        st,
        f,
        ap,
        goals: field(d, &goals(d, st, f)),
        occ: Occupancy::of(d, st),
        cache: BTreeMap::new(),
        full,
    };
    if let Some(c) = st.phase.cmd {
        if !st.phase.open {
            return Vec::new();
        }
        return s.second_actions(c);
    }
    let mut v = vec!["pass".to_string()];
    if ap > 2 {
        v.push("pass rest".into());
    }
    let mut every = Vec::new();
    for c in d.command_ids() {
        let info = &d.commands[c];
        if info.side != f || matches!(st.commands[c].loc, Loc::Gone | Loc::Out) {
            continue;
        }
        if st.commands[c].acts > 0 {
            v.push(format!("pass {}", info.id));
        }
        s.activations(c, &mut v, &mut every);
    }
    v.extend(every);
    dedup(v)
}

/// The orders with repeats dropped, each where it first appears.
fn dedup(v: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    v.into_iter().filter(|o| seen.insert(o.clone())).collect()
}

/// The answers to a decision asked of the side (D1-D4).
fn answers(d: &Data, st: &State, q: &Decision) -> Vec<String> {
    match q {
        Decision::Losses { pool, steps, .. } => {
            let all = standing::loss_allocations(d, st, pool, *steps);
            standing::distinct_allocations(d, st, &all)
                .iter()
                .map(|a| {
                    let ids: Vec<&str> = a.iter().map(|u| d.units[*u].id.as_str()).collect();
                    format!("losses {}", ids.join(" "))
                })
                .collect()
        }
        Decision::Rout { cmd, .. } => {
            let opts = standing::rout_options(d, st, *cmd);
            standing::distinct_routs(d, st, &opts)
                .iter()
                .map(|u| format!("rout {}", d.units[*u].id))
                .collect()
        }
        Decision::Displace { cmd, options, .. } => options
            .iter()
            .map(|h| format!("displace {} {h}", d.commands[*cmd].id))
            .collect(),
        Decision::Initiative { .. } => {
            vec!["initiative first".into(), "initiative second".into()]
        }
    }
}

/// What the samples of one action phase share: the side, its AP, where it
/// heads, and the paths found so far.
struct Sampler<'a> {
    d: &'a Data,
    st: &'a State,
    f: Faction,
    ap: u32,
    goals: Vec<u32>,
    occ: Occupancy,
    cache: BTreeMap<UnitId, Reach>,
    /// Every move and combat too, not only the samples.
    full: bool,
}

impl Sampler<'_> {
    /// With a double action open: `end`, or a second action (5.0(3)).
    fn second_actions(&mut self, c: CmdId) -> Vec<String> {
        let (d, st, f, ap) = (self.d, self.st, self.f, self.ap);
        let mut v = vec!["end".to_string()];
        let ch = chain(d, st, c);
        let id = &d.commands[c].id;
        if ap >= cost(d, f, &Action::Rally) {
            v.push("then rally".into());
        }
        if ap >= cost(d, f, &Action::Move(Vec::new()))
            && let Some(m) = advance(d, st, &mut self.cache, &self.occ, c, &ch, &self.goals)
        {
            v.push(format!("then {m}"));
        }
        if ap >= cost(d, f, &Action::Combat(Vec::new())) {
            for (_, cmb) in combats(d, st, c, &ch).into_iter().take(4) {
                v.push(format!("then combat {id}: {cmb}"));
            }
        }
        let mut every = Vec::new();
        if self.full && ap >= cost(d, f, &Action::Move(Vec::new())) {
            self.every_move(c, &ch, &mut every);
        }
        if self.full && ap >= cost(d, f, &Action::Combat(Vec::new())) {
            every_combat(d, st, c, &ch, &mut every);
        }
        v.extend(every.into_iter().map(|o| format!("then {o}")));
        dedup(v)
    }

    /// Command `c`'s activations: rally, moves and combats it can afford;
    /// samples to `v`, the whole list of moves and combats to `every`.
    fn activations(&mut self, c: CmdId, v: &mut Vec<String>, every: &mut Vec<String>) {
        let (d, st, f, ap) = (self.d, self.st, self.f, self.ap);
        let info = &d.commands[c];
        let single_ok = cannot_activate(d, st, f, c, false, false).is_none();
        if !single_ok {
            return;
        }
        let double_ok = cannot_activate(d, st, f, c, false, true).is_none();
        let ch = chain(d, st, c);
        if ch.is_empty() {
            return;
        }
        if ap >= cost(d, f, &Action::Rally) && ch.iter().any(|u| st.units[*u].dis) {
            v.push(format!("rally {}", info.id));
        }
        if ap >= cost(d, f, &Action::Move(Vec::new())) {
            self.moves(c, &ch, double_ok, v);
            if self.full {
                self.every_move(c, &ch, every);
            }
        }
        if ap >= cost(d, f, &Action::Combat(Vec::new())) {
            combat_samples(d, st, c, &ch, v);
            if self.full {
                every_combat(d, st, c, &ch, every);
            }
        }
    }

    /// Every move of command `c`'s activated units (4.2.1, 6.0): each unit
    /// alone to every hex it can reach, then each stack of two or more
    /// activated units in one hex together to every hex all of them reach
    /// with room for them all (1.1); one path per destination, the cheapest.
    fn every_move(&mut self, c: CmdId, ch: &[UnitId], v: &mut Vec<String>) {
        let (d, st, f) = (self.d, self.st, self.f);
        for u in ch {
            let ui = *u;
            self.cache
                .entry(ui)
                .or_insert_with(|| paths(d, st, &self.occ, ui));
        }
        let room = |h: Hex, n: u32| st.side_at(d, h, f).count() as u32 + n <= d.tec(h).stack;
        let cmd = &d.commands[c].id;
        for u in ch {
            let Some(reach) = self.cache.get(u) else {
                continue;
            };
            for (h, _, x) in &reach.ends {
                if room(*h, 1) {
                    v.push(format!("move {cmd}: {}", leg(d, st, *u, reach, *x)));
                }
            }
        }
        let mut stacks: BTreeMap<Hex, Vec<UnitId>> = BTreeMap::new();
        for u in ch {
            if let Some(h) = st.units[*u].loc.hex() {
                stacks.entry(h).or_default().push(*u);
            }
        }
        for units in stacks.values().filter(|us| us.len() > 1) {
            let reaches: Vec<&Reach> = units.iter().filter_map(|u| self.cache.get(u)).collect();
            let Some(first) = reaches.first() else {
                continue;
            };
            for (h, _, _) in &first.ends {
                if !room(*h, units.len() as u32) {
                    continue;
                }
                let legs: Option<Vec<String>> = units
                    .iter()
                    .zip(&reaches)
                    .map(|(u, r)| {
                        r.ends
                            .iter()
                            .find(|(e, _, _)| e == h)
                            .map(|(_, _, x)| leg(d, st, *u, r, *x))
                    })
                    .collect();
                if let Some(legs) = legs {
                    v.push(format!("move {cmd}: {}", legs.join(", ")));
                }
            }
        }
    }

    /// Moves of the whole chain, of half of it, and for the Ming toward the
    /// decisive place.
    fn moves(&mut self, c: CmdId, ch: &[UnitId], double_ok: bool, v: &mut Vec<String>) {
        let (d, st, f, ap) = (self.d, self.st, self.f, self.ap);
        if let Some(m) = advance(d, st, &mut self.cache, &self.occ, c, ch, &self.goals) {
            // The plain move first: a template's first example of a move
            // should not be the open double (`then` alone) that follows it.
            let open = double_ok && ap > cost(d, f, &Action::Move(Vec::new()));
            let then = open.then(|| format!("{m}\nthen"));
            v.push(m);
            v.extend(then);
        }
        let half: Vec<UnitId> = ch.iter().copied().step_by(2).collect();
        if half.len() < ch.len()
            && let Some(m) = advance(d, st, &mut self.cache, &self.occ, c, &half, &self.goals)
        {
            v.push(m);
        }
        let het = field(
            d,
            &d.find_place(&d.values.decisive_place)
                .map(|p| p.hex)
                .into_iter()
                .collect::<Vec<_>>(),
        );
        if f == Faction::Ming
            && !het.is_empty()
            && let Some(m) = advance(d, st, &mut self.cache, &self.occ, c, ch, &het)
        {
            v.push(m);
        }
    }
}

/// Combat actions of command `c`: one combined declaration (each unit in at
/// most one combat, no charge), then single combats.
fn combat_samples(d: &Data, st: &State, c: CmdId, ch: &[UnitId], v: &mut Vec<String>) {
    let info = &d.commands[c];
    let all = combats(d, st, c, ch);
    // A combined declaration: each unit in at most one combat.
    let mut used: Vec<UnitId> = Vec::new();
    let mut combined = Vec::new();
    for (units, text) in &all {
        if units.iter().all(|u| !used.contains(u))
            && units.iter().all(|u| st.units[*u].loc.hex().is_some())
        {
            used.extend(units);
            combined.push(text.clone());
        }
    }
    let safe: Vec<&String> = combined
        .iter()
        .filter(|t| !t.starts_with("charge"))
        .collect();
    if safe.len() > 1 {
        let joined: Vec<&str> = safe.iter().map(|s| s.as_str()).collect();
        v.push(format!("combat {}: {}", info.id, joined.join("; ")));
    }
    for (_, text) in all.into_iter().take(6) {
        v.push(format!("combat {}: {text}", info.id));
    }
}

/// One unit and its path to the end of node `x`, as a move order writes it
/// (`ds.i1 0508 0608`; `entry` first for a unit off the map, 9.0).
fn leg(d: &Data, st: &State, u: UnitId, reach: &Reach, x: u32) -> String {
    let path: Vec<String> = reach.path(x).iter().map(Hex::to_string).collect();
    let lead = if st.units[u].loc.hex().is_none() {
        "entry "
    } else {
        ""
    };
    format!("{} {lead}{}", d.units[u].id, path.join(" "))
}

/// Every combat command `c`'s activated units can declare alone (7.0): each
/// group the samples offer, and each of its units by itself.
fn every_combat(d: &Data, st: &State, c: CmdId, ch: &[UnitId], v: &mut Vec<String>) {
    let id = &d.commands[c].id;
    for (units, text) in combats(d, st, c, ch) {
        v.push(format!("combat {id}: {text}"));
        if units.len() < 2 {
            continue;
        }
        // `fire|charge UNITS -> TARGET` or `attack HEX with COMMAND`.
        let words: Vec<&str> = text.split_whitespace().collect();
        let (Some(kind), Some(second), Some(last)) = (words.first(), words.get(1), words.last())
        else {
            continue;
        };
        for u in &units {
            let one = &d.units[*u].id;
            let single = if *kind == "attack" {
                format!("attack {second} with {one}")
            } else {
                format!("{kind} {one} -> {last}")
            };
            v.push(format!("combat {id}: {single}"));
        }
    }
}
