//! Reading orders a person writes by hand. Syntax and lookups only; legality
//! is decided when they are carried out.
//!
//! ```text
//! initiative first                          # 7.2, turn 1 (later turns: standing order)
//! buy 4                                     # supply points (17.1)
//! recruit field_force 2 at india            # 10.0: [NATIONALITY] KIND [COUNT] at PLACE
//! recruit AF irregular at Kabul
//! agent pundit2 at india                    # recruit an agent (16.5(2))
//! build trading_post at Lahore              # 20.1: colony | fort | trading_post | railroad
//! disband bg3                               # 10.5
//! reorganize bf1 bf2 bf3 into 2+1           # 18.0: one square, nationality and type (v7; v8 also at set-up and in a move)
//! done                                      # seals the economy plan (implied at the mail's end; 3.1[3])
//! move bf1 bf2 keane: 3136 3135 3035        # a force and the squares it enters (13.1)
//! move bf3: india 3040                      # `india`/`urals`: the home bases (19.0)
//! move rf1 rf2: rail:1812 1813 drop:rf2 1814 # rail legs (13.6), drop-offs (11.3)
//! move bc1: 3135 3136 3137 forced           # forced march (27.0, optional)
//! move rf1: rail:1812 pick:rf4 1813         # telegraph pick-up (28.0, optional)
//! discover burnes                           # a discovery attempt (32.0, optional)
//! move bf1: sea:1726                        # amphibious along rivers and coasts (13.8)
//! move bf1: sea:0134 | bf1: 0134 sea:india    # by the Persian Gulf or the Caspian (19.11, 19.12)
//! move rf1: rail:0503 | rf1: rail:urals    # off-map railroads from 1860 (19.14)
//! give 5 | cede AF to russian|neutral       # one-sided agreements, in the economy (23.1)
//! propose give 5, want cede NP to neutral   # a two-sided agreement (23.0), in your operations phase
//! accept 1 | decline 1                      # answer it, in a later move of your own
//! massacre 2226                             # 20.5: at the end of the combat sub-phase (30.0, optional: at once)
//! execute vitkovitch | release vitkovitch at 0602   # prisoners (16.42)
//! negotiate AF agent burnes pounds 1        # 15.1
//! ultimatum AF agent burnes                 # 15.6 (optional rule)
//! crt 2522 raid                             # 14.6: the CRT for a combat
//! end                                       # ends the operations phase: combat follows
//! ```

use super::agreement::Deal;
use super::data::{AgentKind, At, Base, Data, Kind, MarkerKind, Nat, Power};
use super::economy::EconOrder;
use super::geom::Sq;
use super::movement::{Piece, Step};
use super::negotiate::Attempt;
use super::state::{AgentId, CrtChoice, Loc, Stage, State, UnitId};
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::OrderError;
use umpire_core::suggest::did_you_mean;

/// One order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Move first (`true`) or second (7.2).
    Initiative(bool),
    /// An expenditure order.
    Econ(EconOrder),
    /// Seal the economy orders.
    Done,
    /// Move a force.
    Move {
        /// The pieces.
        pieces: Vec<Piece>,
        /// The squares entered, rail legs and drop-offs.
        path: Vec<Step>,
        /// Forced march (27.0).
        forced: bool,
    },
    /// Massacre a square at the end of the combat sub-phase (20.5).
    Massacre(Sq),
    /// A discovery attempt by an agent, with the Hashishan's target (32.0).
    Discover(AgentId, Option<Sq>),
    /// Execute a prisoner (16.42(2)).
    Execute(AgentId),
    /// Release a prisoner onto a square (16.42(1)).
    Release(AgentId, Sq),
    /// Negotiations or an ultimatum.
    Negotiate(Attempt),
    /// Choose the CRT for a square.
    Crt(Sq, CrtChoice),
    /// Turn an agent of one's own face up (`true`) or down (22.3, from v8).
    Face(AgentId, bool),
    /// Set up pieces of a set-up choice on a square (26.0).
    Place(Vec<Piece>, Sq),
    /// Set up a marker of a set-up choice: its kind, from, to (26.0).
    PlaceMarker(MarkerKind, Sq, Sq),
    /// Propose, accept or decline an agreement (23.0).
    Deal(super::agreement::Deal),
    /// Answer the question an event put (8.0, N13): the region chosen.
    Choose(super::data::RegionId),
    /// End the operations phase.
    End,
}

/// The order words, for "did you mean" on a mistyped one.
const WORDS: &[&str] = &[
    "initiative",
    "buy",
    "recruit",
    "agent",
    "build",
    "disband",
    "done",
    "discover",
    "give",
    "cede",
    "move",
    "negotiate",
    "ultimatum",
    "crt",
    "end",
    "pass",
    "massacre",
    "execute",
    "release",
    "propose",
    "accept",
    "decline",
    "place",
    "jihad",
    "choose",
];

fn err(l: &SourceLine, m: impl Into<String>) -> OrderError {
    OrderError::at(l, m)
}

/// An error pointing at the word `tok` of the line (its column), or at the
/// line's start if the word is not found.
fn err_at(l: &SourceLine, tok: &str, m: impl Into<String>) -> OrderError {
    let mut e = OrderError::at(l, m);
    if let Some(i) = (!tok.is_empty()).then(|| l.text.find(tok)).flatten() {
        e.column = l.column + l.text[..i].chars().count();
    }
    e
}

/// The rule an order word is written under, cited by an error that names none.
fn rule_of(head: &str) -> &'static str {
    match head {
        "initiative" => "7.2",
        "buy" => "17.1",
        "recruit" => "10.0",
        "agent" => "16.5(2)",
        "build" => "20.1",
        "disband" => "10.5",
        "reorganize" => "18.0",
        "done" => "3.1[3]",
        "discover" => "32.0",
        "give" | "cede" => "23.1",
        "propose" | "accept" | "decline" => "23.0",
        "place" => "26.0",
        "jihad" => "21.2",
        "choose" => "8.0",
        "move" => "13.1",
        "negotiate" => "15.1",
        "ultimatum" => "15.6",
        "crt" => "14.6",
        "massacre" => "30.0",
        "execute" | "release" => "16.42",
        _ => "3.0",
    }
}

/// A place: a home base, a square or a city name.
pub fn place(d: &Data, s: &str) -> Option<At> {
    if let Some(b) = Base::parse(s) {
        return Some(At::Base(b));
    }
    if let Ok(sq) = s.parse::<Sq>() {
        return d.on_map(sq).then_some(At::Sq(sq));
    }
    d.find_city(s).map(|c| At::Sq(d.city(c).sq))
}

/// `"; did you mean X?"` over the cities' names (as slugs) and the bases.
fn near_place(d: &Data, s: &str) -> String {
    let names: Vec<String> = d
        .cities
        .iter()
        .map(|c| super::data::slug(&c.name))
        .collect();
    did_you_mean(
        &super::data::slug(s),
        names.iter().map(String::as_str).chain(["india", "urals"]),
    )
}

/// A place or an error naming the nearest one.
fn place_or(d: &Data, l: &SourceLine, s: &str) -> Result<At, OrderError> {
    place(d, s).ok_or_else(|| err_at(l, s, format!("no place {s:?}{}", near_place(d, s))))
}

fn square(d: &Data, l: &SourceLine, s: &str) -> Result<Sq, OrderError> {
    match place(d, s) {
        Some(At::Sq(sq)) => Ok(sq),
        _ => Err(err_at(
            l,
            s,
            format!(
                "{s:?} is not a square on the map or a city{}",
                near_place(d, s)
            ),
        )),
    }
}

/// A square written as `CCRR` (a path step).
fn grid(l: &SourceLine, s: &str) -> Result<Sq, OrderError> {
    s.parse::<Sq>().map_err(|e| err_at(l, s, e.to_string()))
}

fn agent(d: &Data, l: &SourceLine, s: &str) -> Result<AgentId, OrderError> {
    d.find_agent(s).map(|i| AgentId(i as u16)).ok_or_else(|| {
        let ids = d.agents.iter().map(|a| a.id.as_str());
        err_at(l, s, format!("no agent {s:?}{}", did_you_mean(s, ids)))
    })
}

/// The agents `p` may recruit now: his own, or natives of a region he
/// controls, in the Agent Available box (16.5, 16.63, 16.7), named ones
/// only in their periods (16.61).
fn recruitable<'a>(d: &'a Data, st: &State, p: Power) -> Vec<&'a str> {
    (0..d.agents.len())
        .map(|i| AgentId(i as u16))
        .filter(|a| {
            let info = &d.agents[*a];
            st.agent(*a).loc == Loc::Pool
                && st.agent_owner(d, *a) == Some(p)
                && info.kind != AgentKind::Mullah
                && (info.kind != AgentKind::Named || info.periods.contains(&st.period()))
        })
        .map(|a| d.agents[a].id.as_str())
        .collect()
}

/// "your agents in the Agent Available box: ...", for a refusal of `agent`.
fn agents_list(d: &Data, st: &State, p: Power) -> String {
    let ids = recruitable(d, st, p);
    if ids.is_empty() {
        "you have no agent to recruit in the Agent Available box (16.63)".into()
    } else {
        format!("your agents in the Agent Available box: {}", ids.join(" "))
    }
}

/// An `agent` order's error, with the agents the side may recruit.
fn with_agents(mut e: OrderError, d: &Data, st: &State, p: Power) -> OrderError {
    e.message = format!("{}; {}", e.message, agents_list(d, st, p));
    e
}

/// `agent NAME` without `at PLACE`: what is missing, under the word at
/// fault, with the agents the side may recruit (16.5(2)).
fn agent_without_place(d: &Data, st: &State, p: Power, l: &SourceLine, rest: &str) -> OrderError {
    let list = agents_list(d, st, p);
    let Some(w) = rest.split_whitespace().next() else {
        return err(l, format!("write `agent NAME at PLACE`; {list}"));
    };
    match d.find_agent(w) {
        Some(i) => err_at(
            l,
            w,
            format!(
                "write `agent {} at PLACE`: the place is missing, your home base or a colony for your own agents, a square of his region for a native (10.31, 10.33(1)); {list}",
                d.agents[i].id
            ),
        ),
        None => {
            let ids = d.agents.iter().map(|a| a.id.as_str());
            err_at(
                l,
                w,
                format!(
                    "no agent {w:?}{}; write `agent NAME at PLACE`; {list}",
                    did_you_mean(w, ids)
                ),
            )
        }
    }
}

/// A unit of the state, or an error naming the nearest unit.
fn unit(st: &State, l: &SourceLine, s: &str) -> Result<UnitId, OrderError> {
    st.find_unit(s).ok_or_else(|| {
        let ids = st.units.iter().map(|u| u.id);
        err_at(l, s, format!("no unit {s:?}{}", did_you_mean(s, ids)))
    })
}

/// A combat unit or an agent (a piece that moves), or an error naming the
/// nearest of either.
fn piece(d: &Data, st: &State, l: &SourceLine, s: &str) -> Result<Piece, OrderError> {
    if let Some(u) = st.find_unit(s) {
        return Ok(Piece::Unit(u));
    }
    if let Some(a) = d.find_agent(s) {
        return Ok(Piece::Agent(AgentId(a as u16)));
    }
    let ids = st
        .units
        .iter()
        .map(|u| u.id)
        .chain(d.agents.iter().map(|a| a.id.as_str()));
    Err(err_at(
        l,
        s,
        format!("no unit or agent {s:?}{}", did_you_mean(s, ids)),
    ))
}

/// A native region by its code, or an error naming the nearest code.
fn region(d: &Data, l: &SourceLine, s: &str) -> Result<super::data::RegionId, OrderError> {
    d.region(s).ok_or_else(|| {
        let codes = d.regions.iter().map(|r| r.code.as_str());
        err_at(l, s, format!("no region {s:?}{}", did_you_mean(s, codes)))
    })
}

/// Reads a move's order lines (the first error only).
pub fn parse(
    d: &Data,
    st: &State,
    side: Power,
    lines: &[SourceLine],
) -> Result<Vec<(SourceLine, Order)>, OrderError> {
    parse_all(d, st, side, lines).map_err(|mut e| e.remove(0))
}

/// Reads a move's order lines, reporting every line that does not read, each
/// with its line, column and the rule its order is written under.
pub fn parse_all(
    d: &Data,
    st: &State,
    side: Power,
    lines: &[SourceLine],
) -> Result<Vec<(SourceLine, Order)>, Vec<OrderError>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for l in lines {
        let text = l.text.trim();
        if text.is_empty() {
            continue;
        }
        match line(d, st, side, l, text) {
            Ok(o) => out.push((l.clone(), o)),
            Err(mut e) => {
                if e.rule.is_none() {
                    let head = text.split_whitespace().next().unwrap_or("");
                    e.rule = Some(rule_of(&head.to_ascii_lowercase()).into());
                }
                errors.push(e);
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    // From version 9: what the move's sequence forbids, before any roll.
    let errors = super::precheck::check(d, st, side, &out);
    if !errors.is_empty() {
        return Err(errors);
    }
    implied_done(st, side, &mut out);
    Ok(out)
}

/// From version 9, a one-word order refuses words after its word, which
/// version 8 ignored (`disband bg3 bg4` disbanded bg3 alone).
fn one_word<'a>(
    d: &Data,
    l: &SourceLine,
    w: &[&'a str],
    usage: &str,
    rule: &str,
) -> Result<Option<&'a str>, OrderError> {
    if let Some(x) = w.get(1).filter(|_| d.version >= 9) {
        return Err(err_at(l, x, format!("{usage}: one a line")).rule(rule));
    }
    Ok(w.first().copied())
}

/// In the sealed economy round a mail is the side's whole plan (3.1[3]): it
/// ends with `done` whether written or not, so a turn costs one sealed round.
fn implied_done(st: &State, side: Power, out: &mut Vec<(SourceLine, Order)>) {
    let open = (st.stage == Stage::Economy && !st.sealed[side.index()]) || st.setting_up(side);
    if !open || out.iter().any(|(_, o)| *o == Order::Done) {
        return;
    }
    let at = out.last().map_or(1, |(l, _)| l.line + 1);
    let l = SourceLine {
        line: at,
        column: 1,
        text: "done (implied: the plan is sealed with the mail)".into(),
    };
    out.push((l, Order::Done));
}

/// Reads one order line, by its first word.
fn line(
    d: &Data,
    st: &State,
    side: Power,
    l: &SourceLine,
    text: &str,
) -> Result<Order, OrderError> {
    let (head, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let rest = rest.trim();
    let w: Vec<&str> = rest.split_whitespace().collect();
    match head.to_ascii_lowercase().as_str() {
        "initiative" => match w.first().map(|x| x.to_ascii_lowercase()).as_deref() {
            Some("first") => Ok(Order::Initiative(true)),
            Some("second") => Ok(Order::Initiative(false)),
            _ => Err(err(l, "write `initiative first` or `initiative second`").rule("7.2")),
        },
        "choose" => match one_word(d, l, &w, "write `choose REGION`", "8.0")? {
            Some(r) => Ok(Order::Choose(region(d, l, r)?)),
            None => Err(err(l, "write `choose REGION`").rule("8.0")),
        },
        "buy" => buy(d, l, &w),
        "recruit" => recruit(d, side, l, rest),
        "agent" => {
            let Some((who, at)) = rest.split_once(" at ") else {
                return Err(agent_without_place(d, st, side, l, rest));
            };
            let a = agent(d, l, who.trim()).map_err(|e| with_agents(e, d, st, side))?;
            let at = place_or(d, l, at.trim())?;
            Ok(Order::Econ(EconOrder::Agent { agent: a, at }))
        }
        "build" => build(d, l, rest),
        "disband" => {
            let x = one_word(d, l, &w, "write `disband UNIT`", "10.5")?
                .ok_or_else(|| err(l, "write `disband UNIT`"))?;
            let u = unit(st, l, x)?;
            Ok(Order::Econ(EconOrder::Disband(u)))
        }
        // 18.0, from version 7 (version 6 knew no such order).
        "reorganize" if d.version >= 7 => reorganize(st, l, rest),
        "done" => Ok(Order::Done),
        "discover" => discover(d, l, &w),
        "give" => {
            let n = one_word(d, l, &w, "write `give N` (pounds)", "23.1")?
                .and_then(|x| x.parse().ok())
                .ok_or_else(|| err(l, "write `give N` (pounds)").rule("23.1"))?;
            Ok(Order::Econ(EconOrder::Give(n)))
        }
        "cede" => cede(d, l, &w),
        "move" => moves(d, st, l, rest),
        "negotiate" | "ultimatum" => negotiate(d, l, head, &w),
        "crt" => crt(d, l, &w),
        "propose" => propose(d, l, rest),
        "place" => place_order(d, st, l, rest),
        "jihad" => Ok(Order::Econ(EconOrder::Jihad(square(d, l, rest)?))),
        "accept" | "decline" => deal(d, l, head, &w),
        "end" | "pass" => Ok(Order::End),
        "massacre" => Ok(Order::Massacre(square(d, l, rest)?)),
        "execute" => Ok(Order::Execute(agent(d, l, rest)?)),
        // 22.3, from version 8 (not in WORDS nor rule_of, so that earlier
        // versions refuse the word exactly as they did).
        "show" | "hide" if d.version >= 8 => face(d, l, head, &w),
        "release" => {
            let (who, at) = rest
                .split_once(" at ")
                .ok_or_else(|| err(l, "write `release AGENT at SQUARE`"))?;
            Ok(Order::Release(
                agent(d, l, who.trim())?,
                square(d, l, at.trim())?,
            ))
        }
        other => Err(err_at(
            l,
            head,
            format!(
                "no order {other:?}{}: initiative, buy, recruit, agent, build, disband, done, move, negotiate, ultimatum, crt, end",
                did_you_mean(other, WORDS.iter().copied())
            ),
        )),
    }
}

/// `buy N [SP]`: supply points (17.1).
fn buy(d: &Data, l: &SourceLine, w: &[&str]) -> Result<Order, OrderError> {
    // From version 9 one number, and the word SP at most: version 8
    // bought the last number of the line.
    let plain = match w {
        [n] => n.parse::<u32>().is_ok(),
        [n, sp] => n.parse::<u32>().is_ok() && sp.eq_ignore_ascii_case("sp"),
        _ => false,
    };
    if d.version >= 9 && !plain {
        return Err(err(l, "write `buy N` (supply points)").rule("17.1"));
    }
    let n = w
        .iter()
        .rev()
        .find_map(|x| x.parse::<u32>().ok())
        .ok_or_else(|| err(l, "write `buy N` (supply points)"))?;
    Ok(Order::Econ(EconOrder::Buy(n)))
}

/// `build KIND at SQUARE`: a marker (2.34).
fn build(d: &Data, l: &SourceLine, rest: &str) -> Result<Order, OrderError> {
    let (kind, at) = rest
        .split_once(" at ")
        .ok_or_else(|| err(l, "write `build KIND at SQUARE`"))?;
    let k = MarkerKind::parse(kind.trim()).ok_or_else(|| {
        err(
            l,
            format!("{kind:?} is not colony, fort, trading_post or railroad"),
        )
        .rule("2.34")
    })?;
    Ok(Order::Econ(EconOrder::Build {
        kind: k,
        sq: square(d, l, at.trim())?,
    }))
}

/// `discover AGENT [SQUARE]`: one agent's discovery attempt (32.1, 32.3).
fn discover(d: &Data, l: &SourceLine, w: &[&str]) -> Result<Order, OrderError> {
    let who = w
        .first()
        .ok_or_else(|| err(l, "write `discover AGENT [SQUARE]`").rule("32.1"))?;
    let a = agent(d, l, who)?;
    // 32.3 (from version 6; version 5 ignored the extra words).
    if let Some(x) = w.get(2).filter(|_| d.version >= 6) {
        return Err(err_at(
            l,
            x,
            "write `discover AGENT [SQUARE]`: one agent an attempt",
        )
        .rule("32.3"));
    }
    let target = match w.get(1) {
        // 32.3: one agent an attempt; the second word is a square.
        Some(s) if d.find_agent(s).is_some() => {
            return Err(err_at(l, s, "only one agent conducts a discovery attempt").rule("32.3"));
        }
        Some(s) => Some(grid(l, s)?),
        None => None,
    };
    Ok(Order::Discover(a, target))
}

/// `cede REGION to russian|british|neutral` (23.1).
fn cede(d: &Data, l: &SourceLine, w: &[&str]) -> Result<Order, OrderError> {
    let x = w
        .first()
        .ok_or_else(|| err(l, "write `cede REGION to russian|british|neutral`"))?;
    let r = region(d, l, x)?;
    // From version 9 the words after the side are refused, not dropped.
    if let Some(x) = w.get(3).filter(|_| d.version >= 9) {
        return Err(err_at(l, x, "write `cede REGION to russian|british|neutral`").rule("23.1"));
    }
    let to = match w.get(2).map(|x| x.to_ascii_lowercase()).as_deref() {
        Some("neutral") => None,
        Some(x) => {
            Some(Power::parse(x).ok_or_else(|| err(l, "cede to british, russian or neutral"))?)
        }
        None => {
            return Err(err(l, "write `cede REGION to russian|british|neutral`").rule("23.1"));
        }
    };
    Ok(Order::Econ(EconOrder::Cede(r, to)))
}

/// `negotiate|ultimatum REGION agent NAME [pounds N]` (15.1, 15.61).
fn negotiate(d: &Data, l: &SourceLine, head: &str, w: &[&str]) -> Result<Order, OrderError> {
    let ultimatum = head.eq_ignore_ascii_case("ultimatum");
    let x = w.first().ok_or_else(|| {
        err(
            l,
            "name the region by its code, e.g. `negotiate AF agent burnes`",
        )
    })?;
    if let Some(b) = Base::parse(x) {
        return Err(err_at(
            l,
            x,
            format!("{} is a home base: no negotiations against it", b.name()),
        )
        .rule("19.5"));
    }
    // `negotiate burnes with PA`: the agent where the region goes.
    if d.region(x).is_none() && d.agents.iter().any(|a| a.id.eq_ignore_ascii_case(x)) {
        return Err(err_at(
            l,
            x,
            format!(
                "{x} is an agent: the region comes first, `{} REGION agent {x} [pounds N]`",
                head.to_ascii_lowercase()
            ),
        )
        .rule("15.1"));
    }
    let r = region(d, l, x)?;
    let ai = w
        .iter()
        .position(|x| x.eq_ignore_ascii_case("agent") || x.eq_ignore_ascii_case("with"));
    let a = ai
        .and_then(|i| w.get(i + 1))
        .ok_or_else(|| err(l, "name the agent: `agent NAME`").rule("15.1(2)"))?;
    let pounds = match w.iter().position(|x| x.eq_ignore_ascii_case("pounds")) {
        Some(i) => w
            .get(i + 1)
            .and_then(|x| x.parse().ok())
            .ok_or_else(|| err(l, "pounds N"))?,
        None => 0,
    };
    if ultimatum && pounds > 0 {
        return Err(err(l, "an ultimatum adds no pounds").rule("15.61"));
    }
    // From version 9 every word is read: version 8 let `pound 1`
    // (a typo) pass as no pounds at all.
    if d.version >= 9 {
        let pi = w.iter().position(|x| x.eq_ignore_ascii_case("pounds"));
        let read = |i: usize| {
            i == 0
                || ai.is_some_and(|a| i == a || i == a + 1)
                || pi.is_some_and(|p| i == p || i == p + 1)
        };
        if let Some(i) = (0..w.len()).find(|i| !read(*i)) {
            return Err(err_at(
                l,
                w[i],
                format!(
                    "{:?} is not part of `{head} REGION agent NAME [pounds N]`",
                    w[i]
                ),
            )
            .rule(if ultimatum { "15.61" } else { "15.1" }));
        }
    }
    Ok(Order::Negotiate(Attempt {
        region: r,
        agent: agent(d, l, a)?,
        pounds,
        ultimatum,
    }))
}

/// `crt SQUARE battle|raid`: the table a combat uses (14.6).
fn crt(d: &Data, l: &SourceLine, w: &[&str]) -> Result<Order, OrderError> {
    if let Some(x) = w.get(2).filter(|_| d.version >= 9) {
        return Err(err_at(l, x, "write `crt SQUARE battle` or `crt SQUARE raid`").rule("14.6"));
    }
    let s = square(d, l, w.first().copied().unwrap_or(""))?;
    let c = match w.get(1).map(|x| x.to_ascii_lowercase()).as_deref() {
        Some("battle") => CrtChoice::Battle,
        Some("raid") => CrtChoice::Raid,
        _ => {
            return Err(err(l, "write `crt SQUARE battle` or `crt SQUARE raid`").rule("14.6"));
        }
    };
    Ok(Order::Crt(s, c))
}

/// `accept|decline N`: an agreement's answer (23.0).
fn deal(d: &Data, l: &SourceLine, head: &str, w: &[&str]) -> Result<Order, OrderError> {
    let usage = format!("write `{head} N` (the agreement's number)");
    let n = one_word(d, l, w, &usage, "23.0")?
        .and_then(|x| x.parse().ok())
        .ok_or_else(|| err(l, format!("write `{head} N` (the agreement's number)")))?;
    Ok(Order::Deal(if head.eq_ignore_ascii_case("accept") {
        Deal::Accept(n)
    } else {
        Deal::Decline(n)
    }))
}

/// `show|hide AGENT`: an agent's face (22.3).
fn face(d: &Data, l: &SourceLine, head: &str, w: &[&str]) -> Result<Order, OrderError> {
    let show = head.eq_ignore_ascii_case("show");
    let usage = if show {
        "write `show AGENT`"
    } else {
        "write `hide AGENT`"
    };
    let [who] = w[..] else {
        return Err(err(l, usage).rule("22.3"));
    };
    Ok(Order::Face(agent(d, l, who)?, show))
}

/// `reorganize U1 U2 … into 2+1` (18.0): the units, then the sizes.
fn reorganize(st: &State, l: &SourceLine, rest: &str) -> Result<Order, OrderError> {
    let usage = "write `reorganize UNIT… into N+N…` (sizes 1, 2 or 3)";
    let (us, sizes) = rest
        .split_once(" into ")
        .ok_or_else(|| err(l, usage).rule("18.2"))?;
    let units = us
        .split_whitespace()
        .map(|x| unit(st, l, x))
        .collect::<Result<Vec<_>, _>>()?;
    let into = sizes
        .trim()
        .split('+')
        .map(|n| n.trim().parse::<u32>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| err_at(l, sizes.trim(), usage).rule("18.2"))?;
    Ok(Order::Econ(EconOrder::Reorganize { units, into }))
}

/// `propose give 5, want cede NP to neutral, want 3`: terms by commas; a
/// `want` term is the other player's, a bare number is pounds (23.1).
fn propose(d: &Data, l: &SourceLine, rest: &str) -> Result<Order, OrderError> {
    let mut terms = Vec::new();
    for clause in rest.split(',').map(str::trim).filter(|c| !c.is_empty()) {
        let w: Vec<&str> = clause.split_whitespace().collect();
        let theirs = w[0].eq_ignore_ascii_case("want");
        let w = if theirs { &w[1..] } else { &w[..] };
        let what = match w {
            [n] | [_, n]
                if n.parse::<u32>().is_ok()
                    && (w.len() == 1 || w[0].eq_ignore_ascii_case("give")) =>
            {
                EconOrder::Give(n.parse().unwrap_or(0))
            }
            [c, who, at, s]
                if c.eq_ignore_ascii_case("release") && at.eq_ignore_ascii_case("at") =>
            {
                EconOrder::Return(agent(d, l, who)?, square(d, l, s)?)
            }
            [c, r, _to, who] if c.eq_ignore_ascii_case("cede") => {
                let to = if who.eq_ignore_ascii_case("neutral") {
                    None
                } else {
                    Some(
                        Power::parse(who)
                            .ok_or_else(|| err_at(l, who, "cede to british, russian or neutral"))?,
                    )
                };
                EconOrder::Cede(region(d, l, r)?, to)
            }
            _ => {
                return Err(err_at(
                    l,
                    clause,
                    format!(
                        "{clause:?} is not a term: `give N`, `cede REGION to SIDE`, `release AGENT at SQUARE`, each may follow `want`"
                    ),
                ));
            }
        };
        terms.push((theirs, what));
    }
    Ok(Order::Deal(Deal::Propose(terms)))
}

/// `place bf1 keane at Simla` or `place trading_post from Delhi at Simla` (26.0).
fn place_order(d: &Data, st: &State, l: &SourceLine, rest: &str) -> Result<Order, OrderError> {
    let (what, at) = rest.rsplit_once(" at ").ok_or_else(|| {
        err(
            l,
            "write `place PIECES at CITY` or `place KIND from CITY at CITY`",
        )
    })?;
    let to = square(d, l, at.trim())?;
    if let Some((kind, from)) = what.split_once(" from ") {
        let k = MarkerKind::parse(kind.trim()).ok_or_else(|| {
            err_at(
                l,
                kind.trim(),
                format!("{:?} is not colony, fort or trading_post", kind.trim()),
            )
        })?;
        return Ok(Order::PlaceMarker(k, square(d, l, from.trim())?, to));
    }
    let mut pieces = Vec::new();
    for t in what.split_whitespace() {
        let p = piece(d, st, l, t)?;
        if !pieces.contains(&p) {
            pieces.push(p);
        }
    }
    if pieces.is_empty() {
        return Err(err(l, "name the pieces: `place bf1 keane at Simla`"));
    }
    Ok(Order::Place(pieces, to))
}

fn recruit(d: &Data, side: Power, l: &SourceLine, rest: &str) -> Result<Order, OrderError> {
    let (what, at) = rest
        .split_once(" at ")
        .ok_or_else(|| err(l, "write `recruit [NATIONALITY] KIND [COUNT] at PLACE`"))?;
    let at = place_or(d, l, at.trim())?;
    let mut nat = match side {
        Power::British => Nat::British,
        Power::Russian => Nat::Russian,
    };
    let mut kind = None;
    let mut count = 1;
    // From version 9 each is written once: version 8 took the last of two
    // counts, types or nationalities without a word.
    let mut seen = [false; 3];
    let mut once = |i: usize, t: &str| {
        if std::mem::replace(&mut seen[i], true) && d.version >= 9 {
            let what = ["count", "unit type", "nationality"][i];
            return Err(
                err_at(l, t, format!("a second {what}: one recruit order a line")).rule("10.0"),
            );
        }
        Ok(())
    };
    for t in what.split_whitespace() {
        if let Ok(n) = t.trim_start_matches('x').parse::<u32>() {
            once(0, t)?;
            count = n;
        } else if let Some(k) = Kind::parse(t).filter(|_| t.len() > 2) {
            once(1, t)?;
            kind = Some(k);
        } else if let Some(n) = d.parse_nat(t) {
            once(2, t)?;
            nat = n;
        } else {
            let kinds = [
                "field_force",
                "flying_column",
                "garrison",
                "irregular",
                "elephant",
            ];
            return Err(err_at(
                l,
                t,
                format!(
                    "{t:?} is neither a nationality nor a unit type{}",
                    did_you_mean(t, kinds)
                ),
            ));
        }
    }
    let kind = kind.ok_or_else(|| {
        err(
            l,
            "name the unit type: field_force, flying_column, garrison, irregular, elephant",
        )
    })?;
    Ok(Order::Econ(EconOrder::Recruit {
        nat,
        kind,
        at,
        count,
    }))
}

fn moves(d: &Data, st: &State, l: &SourceLine, rest: &str) -> Result<Order, OrderError> {
    let (who, path) = rest
        .split_once(':')
        .ok_or_else(|| err(l, "write `move PIECES: SQUARE SQUARE ...`"))?;
    let mut pieces = Vec::new();
    for t in who.split_whitespace() {
        let p = piece(d, st, l, t)?;
        if !pieces.contains(&p) {
            pieces.push(p);
        }
    }
    let mut steps = Vec::new();
    let mut forced = false;
    for t in path.split_whitespace() {
        if t.eq_ignore_ascii_case("forced") {
            forced = true;
            continue;
        }
        steps.push(if let Some(s) = t.strip_prefix("sea:") {
            match Base::parse(s) {
                Some(b) => Step::SeaBase(b),
                None => Step::Sea(grid(l, s)?),
            }
        } else if let Some(s) = t.strip_prefix("rail:") {
            match Base::parse(s) {
                Some(b) => Step::RailBase(b),
                None => Step::Rail(grid(l, s)?),
            }
        } else if let Some(x) = t.strip_prefix("pick:") {
            Step::Pick(Piece::Unit(unit(st, l, x).map_err(|e| e.rule("28.0"))?))
        } else if let Some(x) = t.strip_prefix("drop:") {
            Step::Drop(piece(d, st, l, x)?)
        } else if let Some(b) = Base::parse(t) {
            Step::To(Loc::Base(b))
        } else {
            Step::To(Loc::Sq(grid(l, t)?))
        });
    }
    Ok(Order::Move {
        pieces,
        path: steps,
        forced,
    })
}
