//! Orders legal now, as text a player could write: for self-play, fuzzing and
//! help. The spaces are huge, so this is a sample: every initiative answer;
//! a few whole economy plans (each checked); for an operations phase `end`,
//! moves of each force toward the nearest objective (enemy stacks, neutral
//! cities, the key cities), agents toward neutral capitals, and every
//! negotiation an agent in a capital can open.

use super::data::{At, Base, Data, Kind, MarkerKind, Nat, Power};
use super::economy::{self, EconOrder};
use super::geom::{Grid, Sq};
use super::movement::{self, Piece};
use super::negotiate::{self, Attempt};
use super::state::{AgentId, Loc, Stage, State, UnitId};
use super::turn::chooser;
use std::collections::BTreeSet;

/// The sample of legal orders for `p`.
pub fn legal(d: &Data, st: &State, p: Power) -> Vec<String> {
    match &st.stage {
        Stage::Initiative if p == chooser(st) => {
            vec!["initiative first".into(), "initiative second".into()]
        }
        Stage::Setup(_) | Stage::SetupSealed if st.setting_up(p) => {
            super::placing::samples(d, st, p)
        }
        Stage::Choice(q) if q.who == p => q
            .options
            .iter()
            .map(|r| format!("choose {}", d.reg(*r).code))
            .collect(),
        Stage::Economy if !st.sealed[p.index()] => economy_plans(d, st, p),
        Stage::Ops(ph) if ph.side == p => ops(d, st, p, ph.k, ph.negotiating),
        _ => Vec::new(),
    }
}

fn plan_ok(d: &Data, st: &State, p: Power, plan: &[EconOrder]) -> bool {
    let mut t = st.clone();
    for o in &st.plans[p.index()] {
        if economy::apply(d, &mut t, p, o).is_err() {
            return false;
        }
    }
    plan.iter().all(|o| economy::apply(d, &mut t, p, o).is_ok())
}

/// Two of `p`'s units in play in one square of one nationality and type (18.3).
fn like_pair(st: &State, p: Power) -> Option<(UnitId, UnitId)> {
    let mine: Vec<usize> = (0..st.units.len())
        .filter(|i| st.owner(st.units[*i].nat) == Some(p) && st.units[*i].loc.in_play())
        .collect();
    mine.iter().enumerate().find_map(|(k, &i)| {
        let (x, rest) = (&st.units[i], &mine[k + 1..]);
        rest.iter()
            .find(|&&j| {
                let y = &st.units[j];
                y.loc == x.loc && y.nat == x.nat && y.kind == x.kind
            })
            .map(|&j| (UnitId(i as u16), UnitId(j as u16)))
    })
}

fn at_text(at: At) -> String {
    match at {
        At::Sq(s) => s.to_string(),
        At::Base(b) => b.key().into(),
    }
}

/// Economy-phase candidates: each plan's orders and the text offering them.
type Plans = Vec<(String, Vec<EconOrder>)>;

/// The economy phase's plans offered to `p`: `done`, each prisoner's
/// release or execution, then each candidate that can be carried out (most
/// after the provisioning buy, every other one laying railroad too).
fn economy_plans(d: &Data, st: &State, p: Power) -> Vec<String> {
    let occupied: BTreeSet<Sq> = st
        .units
        .iter()
        .filter(|u| st.owner(u.nat) == Some(p))
        .filter_map(|u| u.loc.sq())
        .collect();
    let mut cands = recruit_plans(d, st, p);
    cands.extend(post_and_fort_plans(d, st, &occupied));
    cands.extend(reorganize_and_agent_plans(d, st, p));
    cands.extend(railroad_site_plans(d, st, p, &occupied));
    // 17.3, 17.6: enough SP to provision every stack (red and blue units
    // are always expeditionary), with a few to move on; else random plans
    // lose every regular in the first provisioning phase.
    let provision = provisioning_buy(d, st, p);
    if let Some(n) = provision {
        cands.push((format!("buy {n}"), vec![EconOrder::Buy(n)]));
    }
    cands.extend(line_cession_and_jihad_plans(d, st, p));
    let mut out = vec!["done".to_string()];
    out.extend(prisoner_plans(d, st, p));
    out.extend(carried_out(d, st, p, cands, provision));
    out
}

/// Buying SP, a field force at the home base, and a native irregular in
/// the capital of each controlled region.
fn recruit_plans(d: &Data, st: &State, p: Power) -> Plans {
    let base = At::Base(Base::of(p));
    let own = match p {
        Power::British => Nat::British,
        Power::Russian => Nat::Russian,
    };
    let mut cands: Plans = vec![
        ("buy 2".into(), vec![EconOrder::Buy(2)]),
        ("buy 5".into(), vec![EconOrder::Buy(5)]),
        (
            format!("buy 3\nrecruit field_force at {}", at_text(base)),
            vec![
                EconOrder::Buy(3),
                EconOrder::Recruit {
                    nat: own,
                    kind: Kind::FieldForce,
                    at: base,
                    count: 1,
                },
            ],
        ),
    ];
    // A native irregular in the capital of each controlled region.
    for (i, r) in d.regions.iter().enumerate() {
        if st.control[i] == Some(p) {
            let at = At::Sq(d.city(r.capital).sq);
            let nat = Nat::Native(super::data::RegionId(i as u8));
            cands.push((
                format!("recruit {} irregular at {}", r.code, at_text(at)),
                vec![EconOrder::Recruit {
                    nat,
                    kind: Kind::Irregular,
                    at,
                    count: 1,
                }],
            ));
        }
    }
    cands
}

/// A trading post and a fort where the player stands.
fn post_and_fort_plans(d: &Data, st: &State, occupied: &BTreeSet<Sq>) -> Plans {
    let mut cands = Vec::new();
    if let Some(s) = occupied
        .iter()
        .find(|s| d.city_at(**s).is_some() && st.markers_at(**s).next().is_none())
    {
        cands.push((
            format!("build trading_post at {s}"),
            vec![EconOrder::Build {
                kind: MarkerKind::TradingPost,
                sq: *s,
            }],
        ));
    }
    if let Some(s) = occupied
        .iter()
        .rev()
        .find(|s| st.markers_at(**s).next().is_none())
    {
        cands.push((
            format!("build fort at {s}"),
            vec![EconOrder::Build {
                kind: MarkerKind::Fort,
                sq: *s,
            }],
        ));
    }
    cands
}

/// A reorganization (18.0) and an agent from the Agent Available box.
fn reorganize_and_agent_plans(d: &Data, st: &State, p: Power) -> Plans {
    let base = At::Base(Base::of(p));
    let mut cands = Vec::new();
    // 18.0: the first pair of like brigades in one square as a division.
    if let Some((a, b)) = like_pair(st, p) {
        cands.push((
            format!("reorganize {} {} into 2", st.unit(a).id, st.unit(b).id),
            vec![EconOrder::Reorganize {
                units: vec![a, b],
                into: vec![2],
            }],
        ));
    }
    // A Pundit or a period agent from the Agent Available box.
    for (i, a) in d.agents.iter().enumerate() {
        let id = AgentId(i as u16);
        let plan = vec![EconOrder::Agent {
            agent: id,
            at: base,
        }];
        if st.agent(id).loc == Loc::Pool && plan_ok(d, st, p, &plan) {
            cands.push((format!("agent {} at {}", a.id, at_text(base)), plan));
            break;
        }
    }
    cands
}

/// Railroads where the player's regulars stand.
fn railroad_site_plans(d: &Data, st: &State, p: Power, occupied: &BTreeSet<Sq>) -> Plans {
    let mut cands = Vec::new();
    // A railroad where a red or blue unit stands (20.34), from 1860-64: in
    // a city, beside the home base's map edge (19.14: it joins the base's
    // off-map railroads), or continuing one of ours across a square side.
    let regular_at = |s: &Sq| {
        st.units_at(Loc::Sq(*s))
            .any(|u| st.unit(u).nat.regular() == Some(p))
    };
    let edge = d.base_edges.get(&Base::of(p));
    let rail = |s: Sq| st.has_marker(s, p, MarkerKind::Railroad);
    let sites = [
        occupied
            .iter()
            .find(|s| d.city_at(**s).is_some() && regular_at(s)),
        occupied
            .iter()
            .find(|s| edge.is_some_and(|e| e.contains(*s)) && regular_at(s) && !rail(**s)),
        occupied.iter().find(|s| {
            regular_at(s) && !rail(**s) && s.around().iter().any(|(n, g)| !g && rail(*n))
        }),
    ];
    for s in sites.into_iter().flatten().collect::<BTreeSet<_>>() {
        cands.push((
            format!("build railroad at {s}"),
            vec![EconOrder::Build {
                kind: MarkerKind::Railroad,
                sq: *s,
            }],
        ));
    }
    cands
}

/// The SP to buy first so that every stack is provisioned, if any is
/// needed and can be bought.
fn provisioning_buy(d: &Data, st: &State, p: Power) -> Option<u32> {
    let need = supply_need(st, p);
    if need == 0 {
        return None;
    }
    (1..=need)
        .rev()
        .find(|n| plan_ok(d, st, p, &[EconOrder::Buy(*n)]))
}

/// A railroad line, a cession and the Jihad's placing.
fn line_cession_and_jihad_plans(d: &Data, st: &State, p: Power) -> Plans {
    let mut cands = Vec::new();
    // 20.34: a railroad line where our regulars stand (and after every
    // other plan below).
    if let Some(plan) = super::legal_rail::line_plan(d, st, p, &[]) {
        cands.push((super::legal_rail::line_text(&plan).join("\n"), plan));
    }
    // 23.1(2), 5.51: a reversion by cession, of the least valuable region.
    if let Some(r) = super::events::choices(d, st, super::state::ChoiceKind::Unrest, p)
        .first()
        .filter(|_| st.turn > 1)
    {
        cands.push((
            format!("cede {} to neutral", d.reg(*r).code),
            vec![EconOrder::Cede(*r, None)],
        ));
    }
    // 21.2: the Jihad's player places it, near where the event put it.
    if let (Some(at), Some(true)) = (st.jihad_at, st.ghazis.map(|g| g == p)) {
        for (s, _) in at.around().into_iter().take(3) {
            if super::events::jihad_square_ok(d, st, p, s).is_ok() {
                cands.push((format!("jihad {s}"), vec![EconOrder::Jihad(s)]));
            }
        }
    }
    cands
}

/// Prisoners (16.42): release one at his capture's captor's choice, or
/// execute him; a native whose region is ours now goes onto one of our
/// stacks instead (16.44).
fn prisoner_plans(d: &Data, st: &State, p: Power) -> Vec<String> {
    let mut out = Vec::new();
    for a in st.agents_at(Loc::Prisoner(p)) {
        let at = if native_of_ours(d, st, p, a) {
            own_square(st, p)
        } else {
            Some(d.city(d.regions[0].capital).sq)
        };
        if let Some(at) = at {
            out.push(format!("release {} at {at}\ndone", d.agents[a].id));
        }
        out.push(format!("execute {}\ndone", d.agents[a].id));
    }
    out
}

/// The candidates that can be carried out, as offered orders.
fn carried_out(
    d: &Data,
    st: &State,
    p: Power,
    cands: Plans,
    provision: Option<u32>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (i, (mut text, mut plan)) in cands.into_iter().enumerate() {
        if !plan_ok(d, st, p, &plan) {
            continue;
        }
        // The plan after the provisioning buy where it can be afforded, so
        // that nearly every plan keeps the army fed.
        if let Some(n) = provision.filter(|_| !matches!(plan.first(), Some(EconOrder::Buy(_)))) {
            let mut with = vec![EconOrder::Buy(n)];
            with.extend(plan.iter().cloned());
            if plan_ok(d, st, p, &with) {
                text = format!("buy {n}\n{text}");
                plan = with;
            }
        }
        // Every other plan also lays railroads, so that lines grow.
        if i % 2 == 1
            && let Some(full) = super::legal_rail::line_plan(d, st, p, &plan)
        {
            for line in super::legal_rail::line_text(&full[plan.len()..]) {
                text = format!("{text}\n{line}");
            }
        }
        out.push(format!("{text}\ndone"));
    }
    out
}

/// SP to buy so that every square with units of `p` can be provisioned
/// (17.3) twice over and five forces can still move, less the SP in hand.
fn supply_need(st: &State, p: Power) -> u32 {
    (2 * supply_squares(st, p) + 5).saturating_sub(st.sp[p.index()])
}

/// The squares with units of `p` that provisioning feeds (17.3; each may
/// take an SP, two if it also holds more than it forages).
fn supply_squares(st: &State, p: Power) -> u32 {
    let squares: BTreeSet<Sq> = st
        .units
        .iter()
        .filter(|u| st.owner(u.nat) == Some(p) && u.nat != Nat::Ghazi)
        .filter_map(|u| u.loc.sq())
        .collect();
    squares.len() as u32
}

fn objectives(d: &Data, st: &State, p: Power) -> Vec<Sq> {
    let mut v: BTreeSet<Sq> = st
        .units
        .iter()
        .filter(|u| st.owner(u.nat) == Some(p.other()))
        .filter_map(|u| u.loc.sq())
        .collect();
    for c in &d.cities {
        if st.control[c.region].is_none() {
            v.insert(c.sq);
        }
    }
    for name in &d.num.key_cities.cities {
        if let Some(c) = d.find_city(name) {
            v.insert(d.city(c).sq);
        }
    }
    v.into_iter().collect()
}

fn piece_text(d: &Data, st: &State, x: Piece) -> String {
    match x {
        Piece::Unit(u) => st.unit(u).id.to_string(),
        Piece::Agent(a) => d.agents[a].id.clone(),
    }
}

fn forces(d: &Data, st: &State, p: Power) -> Vec<Vec<Piece>> {
    let mut locs: Vec<Loc> = Vec::new();
    for u in &st.units {
        if st.owner(u.nat) == Some(p) && u.loc.in_play() && !u.moved && !locs.contains(&u.loc) {
            locs.push(u.loc);
        }
    }
    for (i, a) in st.agents.iter().enumerate() {
        if st.agent_owner(d, AgentId(i as u16)) == Some(p)
            && a.loc.in_play()
            && !a.moved
            && !locs.contains(&a.loc)
        {
            locs.push(a.loc);
        }
    }
    locs.sort();
    let mut out = Vec::new();
    for l in locs {
        let units: Vec<Piece> = st
            .side_units_at(l, p)
            .filter(|u| !st.unit(*u).moved)
            .map(Piece::Unit)
            .collect();
        let agents: Vec<Piece> = st
            .side_agents_at(d, l, p)
            .filter(|a| !st.agent(*a).moved)
            .map(Piece::Agent)
            .collect();
        if !units.is_empty() {
            let mut all = units.clone();
            all.extend(agents.iter().take(1));
            out.push(all);
            // The irregulars alone move diagonally (13.2).
            let irr: Vec<Piece> = units
                .iter()
                .copied()
                .filter(|x| matches!(x, Piece::Unit(u) if st.unit(*u).kind == Kind::Irregular))
                .collect();
            if !irr.is_empty() && irr.len() < units.len() {
                out.push(irr);
            }
        }
        if let Some(a) = agents.first() {
            out.push(vec![*a]);
        }
    }
    out
}

/// A sample of operations-phase orders for `p` in phase `k` (12.0):
/// moves while movement is open, agreements, negotiations, massacres,
/// discoveries, raids, a reorganization; `end` first.
fn ops(d: &Data, st: &State, p: Power, k: u8, negotiating: bool) -> Vec<String> {
    let mut out = vec!["end".to_string()];
    // A move after the first phase costs an SP (12.2(2)): the sample keeps
    // one per stack for provisioning (17.3), rail moves aside.
    let paid = k >= 2 && st.sp[p.index()] <= supply_squares(st, p);
    if !negotiating && !paid {
        out.extend(force_moves(d, st, p, k));
        out.extend(base_moves(d, st, p, k));
    }
    if !negotiating {
        out.extend(super::legal_rail::ops(d, st, p, k, &|x| {
            piece_text(d, st, x)
        }));
    }
    out.extend(agreements(d, st, p));
    out.extend(native_releases(d, st, p));
    out.extend(negotiations(d, st, p));
    out.extend(massacres(st, p));
    out.extend(discoveries(d, st, p));
    out.extend(raids(d, st, p));
    // 18.0 "at any point" (from version 8): once a turn, with the phase's end
    // (a reorganization changes no value, so alone it would go on forever).
    if let Some((a, b)) = like_pair(st, p).filter(|_| k == 1 && d.version >= 8) {
        let (a, b) = (&st.unit(a).id, &st.unit(b).id);
        out.push(format!("reorganize {a} {b} into 2\nend"));
    }
    out
}

/// A move of each of the first forces towards the objectives (an agent
/// alone towards a capital its side does not control), alone and with
/// `end`, and forced (27.1) where allowed.
fn force_moves(d: &Data, st: &State, p: Power, k: u8) -> Vec<String> {
    let mut out = Vec::new();
    let goals = objectives(d, st, p);
    for f in forces(d, st, p).into_iter().take(14) {
        let agent_only = f.iter().all(|x| matches!(x, Piece::Agent(_)));
        let Some(path) = force_path(d, st, p, &f, &goals).filter(|x| !x.is_empty()) else {
            continue;
        };
        let path: Vec<movement::Step> = path.into_iter().map(movement::Step::To).collect();
        if movement::check(d, st, p, k, &f, &path, false).is_err() {
            continue;
        }
        let who: Vec<String> = f.iter().map(|x| piece_text(d, st, *x)).collect();
        let steps: Vec<String> = path
            .iter()
            .map(|x| match x {
                movement::Step::To(l) => movement::show(*l),
                _ => String::new(),
            })
            .collect();
        let m = format!("move {}: {}", who.join(" "), steps.join(" "));
        out.push(format!("{m}\nend"));
        // 27.1 (from version 9): only a march whose lost SP are there.
        if st.options.forced_march
            && !agent_only
            && movement::check(d, st, p, k, &f, &path, true).is_ok()
        {
            out.push(format!("{m} forced\nend"));
        }
        out.push(m);
    }
    out
}

/// The path force `f` takes in the sample: to the reachable square nearest
/// the `goals` (an agent alone first to an enemy or neutral capital), the
/// shorter path and then the lower square breaking ties.
fn force_path(d: &Data, st: &State, p: Power, f: &[Piece], goals: &[Sq]) -> Option<Vec<Loc>> {
    let agent_only = f.iter().all(|x| matches!(x, Piece::Agent(_)));
    let reach = movement::reach(d, st, p, f);
    let target = |want: &dyn Fn(Sq) -> bool| {
        reach
            .iter()
            .filter_map(|(l, path)| l.sq().map(|s| (s, path)))
            .filter(|(s, _)| want(*s))
            .min_by_key(|(s, path)| {
                (
                    goals.iter().map(|g| g.distance(*s)).min().unwrap_or(0),
                    path.len(),
                    *s,
                )
            })
            .map(|(_, path)| path.clone())
    };
    if agent_only {
        target(&|s: Sq| {
            d.city_at(s)
                .is_some_and(|c| d.city(c).capital && st.control[d.city(c).region] != Some(p))
        })
        .or_else(|| target(&|_| true))
    } else {
        target(&|_| true)
    }
}

/// 20.5: massacre enemy markers where our combat units stand alone.
fn massacres(st: &State, p: Power) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for m in &st.markers {
        if m.owner != p
            && st.occupies(m.sq, p)
            && !st.occupies(m.sq, p.other())
            && !st.massacred.contains(&m.sq)
            && seen.insert(m.sq)
        {
            out.push(format!("massacre {}\nend", m.sq));
        }
    }
    out
}

/// 14.6: the Raid table where the phasing player's force shares a square
/// with enemy combat units and may use it (14.62), so that random games
/// choose the table too.
fn raids(d: &Data, st: &State, p: Power) -> Vec<String> {
    let mut squares: Vec<Sq> = st
        .units
        .iter()
        .filter(|u| st.owner(u.nat) == Some(p))
        .filter_map(|u| u.loc.sq())
        .filter(|s| st.occupies(*s, p.other()))
        .collect();
    squares.sort();
    squares.dedup();
    squares
        .into_iter()
        .filter(|s| {
            super::combat::crt_refusal(d, st, p, *s, super::state::CrtChoice::Raid).is_none()
        })
        .take(3)
        .map(|s| format!("crt {s} raid\nend"))
        .collect()
}

/// Moves into and out of the home base by water and rail (19.11-19.14):
/// out of the base to the first few river or coast squares (and railroad
/// squares) the force may reach in one leg, and into it from the map.
fn base_moves(d: &Data, st: &State, p: Power, k: u8) -> Vec<String> {
    use movement::Step;
    let base = Base::of(p);
    let mut out = Vec::new();
    let rails: Vec<Sq> = st
        .markers
        .iter()
        .filter(|m| m.owner == p && m.kind == MarkerKind::Railroad)
        .map(|m| m.sq)
        .collect();
    // Every force in the base (it sorts last), and the first few on the map.
    let mut on_map = 0;
    for f in forces(d, st, p) {
        if f.iter().all(|x| matches!(x, Piece::Agent(_))) {
            continue;
        }
        if movement::loc_of(st, f[0]) != Loc::Base(base) {
            on_map += 1;
            if on_map > 8 {
                continue;
            }
        }
        let who: Vec<String> = f.iter().map(|x| piece_text(d, st, *x)).collect();
        let who = who.join(" ");
        let ok = |steps: &[Step]| movement::check(d, st, p, k, &f, steps, false).is_ok();
        if movement::loc_of(st, f[0]) == Loc::Base(base) {
            // The land squares beside the base's sea (19.11, 19.12).
            let coast: BTreeSet<Sq> = d
                .base_seas
                .get(&base)
                .into_iter()
                .flatten()
                .flat_map(|s| s.around())
                .filter(|(n, diag)| !diag && d.land(*n) && movement::coast(d, *n))
                .map(|(n, _)| n)
                .collect();
            let coast = coast.into_iter().step_by(3).take(12);
            for s in coast.filter(|s| ok(&[Step::Sea(*s)])).take(2) {
                out.push(format!("move {who}: sea:{s}"));
            }
            for s in rails.iter().filter(|s| ok(&[Step::Rail(**s)])).take(1) {
                out.push(format!("move {who}: rail:{s}"));
                out.extend(pick_up(st, p, *s, &f, &who, &[Step::Rail(*s)], &ok));
            }
        } else {
            if ok(&[Step::SeaBase(base)]) {
                out.push(format!("move {who}: sea:{}", base.key()));
            }
            if ok(&[Step::RailBase(base)]) {
                out.push(format!("move {who}: rail:{}", base.key()));
            }
            // 28.0: along our railroads to a square where units wait.
            if let Loc::Sq(from) = movement::loc_of(st, f[0]) {
                for s in rails
                    .iter()
                    .filter(|s| movement::rail_linked(st, p, from, **s))
                    .take(4)
                {
                    out.extend(pick_up(st, p, *s, &f, &who, &[Step::Rail(*s)], &ok));
                }
            }
        }
    }
    out
}

/// Telegraph pick-ups (28.0): the force's rail leg to `s`, then `pick:ID`
/// of an unmoved friendly unit waiting there (if the move checks).
fn pick_up(
    st: &State,
    p: Power,
    s: Sq,
    force: &[Piece],
    who: &str,
    leg: &[movement::Step],
    ok: &dyn Fn(&[movement::Step]) -> bool,
) -> Option<String> {
    if !st.options.telegraph {
        return None;
    }
    let u = st
        .side_units_at(Loc::Sq(s), p)
        .find(|u| !st.unit(*u).moved && !force.contains(&Piece::Unit(*u)))?;
    let mut steps = leg.to_vec();
    steps.push(movement::Step::Pick(Piece::Unit(u)));
    ok(&steps).then(|| format!("move {who}: rail:{s} pick:{}", st.unit(u).id))
}

/// Agreements (23.0): accept an offer whose terms can be met now, decline
/// any; propose a small gift, a request, or a prisoner's return for pounds.
fn agreements(d: &Data, st: &State, p: Power) -> Vec<String> {
    let mut out = Vec::new();
    for o in st.offers.iter().filter(|o| o.from != p) {
        let mut t = st.clone();
        if o.terms
            .iter()
            .all(|x| economy::apply(d, &mut t, x.by, &x.what).is_ok())
        {
            out.push(format!("accept {}", o.id));
        }
        out.push(format!("decline {}", o.id));
    }
    if st.offers.iter().any(|o| o.from == p) {
        return out;
    }
    if st.treasury[p.index()] >= 1 {
        out.push("propose give 1".into());
    }
    out.push("propose want 2".into());
    for (i, a) in st.agents.iter().enumerate() {
        if a.loc == Loc::Prisoner(p) && !st.returns.iter().any(|(x, _)| x.index() == i) {
            let home = d.city(d.regions[0].capital).sq;
            out.push(format!(
                "propose release {} at {home}, want give 1",
                d.agents[i].id
            ));
        }
    }
    out
}

/// 16.44: a native prisoner whose region is now ours, onto one of our stacks.
fn native_releases(d: &Data, st: &State, p: Power) -> Vec<String> {
    let Some(s) = own_square(st, p) else {
        return Vec::new();
    };
    st.agents_at(Loc::Prisoner(p))
        .filter(|a| native_of_ours(d, st, p, *a))
        .map(|a| format!("release {} at {s}", d.agents[a].id))
        .collect()
}

/// Whether agent `a` is a native of a region `p` controls (16.44).
fn native_of_ours(d: &Data, st: &State, p: Power, a: AgentId) -> bool {
    matches!(d.agents[a].side, super::data::AgentSide::Native(r)
        if st.control[r] == Some(p))
}

/// The first square holding one of `p`'s combat units.
fn own_square(st: &State, p: Power) -> Option<Sq> {
    st.units
        .iter()
        .filter(|u| st.owner(u.nat) == Some(p))
        .find_map(|u| u.loc.sq())
}

/// 32.0: an attempt by each agent that may make one, aimed (for the
/// Hashishan) at the first square holding enemy combat units.
fn discoveries(d: &Data, st: &State, p: Power) -> Vec<String> {
    let target = st
        .units
        .iter()
        .filter(|u| st.owner(u.nat) == Some(p.other()))
        .find_map(|u| u.loc.sq())
        .map_or(String::new(), |s| format!(" {s}"));
    (0..st.agents.len())
        .map(|i| AgentId(i as u16))
        .filter(|a| super::discovery::check(d, st, p, *a).is_ok())
        .map(|a| format!("discover {}{target}", d.agents[a].id))
        .collect()
}

fn negotiations(d: &Data, st: &State, p: Power) -> Vec<String> {
    let done = match &st.stage {
        Stage::Ops(ph) => ph.negotiated.clone(),
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    for (i, r) in d.regions.iter().enumerate() {
        let cap = d.city(r.capital).sq;
        for a in st.side_agents_at(d, Loc::Sq(cap), p) {
            for ultimatum in [false, true] {
                let at = Attempt {
                    region: super::data::RegionId(i as u8),
                    agent: a,
                    pounds: 0,
                    ultimatum,
                };
                if negotiate::check(d, st, p, &done, &at).is_ok() {
                    let word = if ultimatum { "ultimatum" } else { "negotiate" };
                    out.push(format!("{word} {} agent {}\nend", r.code, d.agents[a].id));
                }
            }
        }
    }
    let _: Option<UnitId> = None;
    out
}
