//! The checks of an operations-phase move that need none of its dice (from
//! version 9; ARCHITECTURE invariant 4: a move is refused only before its
//! first roll). The engine carries out a move order by order, so an order
//! that fails after an earlier one rolled (a negotiation, a discovery,
//! `end`) is only reported "not carried out". What the sequence of play or
//! an earlier order of the same move already forbids is known before any
//! roll, and refuses the move with the parse:
//!
//! - nothing follows `end`, which ends the operations phase (3.1[4]);
//! - all movement comes before negotiations (12.1; a massacre of optional
//!   rule 30.0 ends movement too);
//! - one attempt against a region a negotiations sub-phase (15.3), and an
//!   agent uses his values once in it (16.9);
//! - pounds up to the agent's political value (15.1(2), 15.4) and, while no
//!   earlier order of the move can bring pounds in, up to the treasury
//!   across the move's attempts (9.3);
//! - the agent stands in the target's capital once the move's movement is
//!   done (15.0), while only moves (which roll nothing) came before;
//! - a discovery attempt is one the rules allow where its agent stands once
//!   the movement is done (32.1, 32.2), in a city no attempt of the game or
//!   of the move has tried (32.4).
//!
//! An ultimatum without the optional rule (15.6) is refused too. Everything
//! a roll may change (control, a counter, enemy units in a capital, an agent
//! an X result killed) is still checked when the attempt is made.

use super::data::{AgentSide, CityId, Data, Power, RegionId};
use super::negotiate::Attempt;
use super::orders::Order;
use super::state::{AgentId, Loc, Stage, State};
use super::turn;
use umpire_core::dice::Dice;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::OrderError;

fn at(l: &SourceLine, message: String, rule: &str) -> OrderError {
    OrderError::at(l, message).rule(rule)
}

/// The errors of `p`'s move `orders` that need no roll to find (see the
/// module's notes); empty outside his operations phase and before version 9.
pub fn check(d: &Data, st: &State, p: Power, orders: &[(SourceLine, Order)]) -> Vec<OrderError> {
    let Stage::Ops(ph) = &st.stage else {
        return Vec::new();
    };
    if d.version < 9 || ph.side != p {
        return Vec::new();
    }
    let mut w = Walk {
        d,
        st,
        p,
        errors: Vec::new(),
        moved: Some(st.clone()),
        closed: ph.negotiating,
        regions: ph.negotiated.clone(),
        agents: Vec::new(),
        pounds: 0,
        income: false,
        ended: false,
        cities: Vec::new(),
    };
    for (l, o) in orders {
        if w.ended {
            w.errors.push(at(
                l,
                "nothing may follow `end` in a move: it ends the operations phase".into(),
                "3.1[4]",
            ));
            continue;
        }
        w.order(l, o);
        w.moved = w.moved.take().and_then(|s| known_after(d, s, p, o));
    }
    w.errors
}

/// What the orders of a move read so far tell the checks of the next.
struct Walk<'a> {
    d: &'a Data,
    st: &'a State,
    p: Power,
    errors: Vec<OrderError>,
    /// The state as the move's first orders leave it, while they are moves.
    moved: Option<State>,
    /// Movement is over (12.1).
    closed: bool,
    /// The regions attempted in this sub-phase (15.3).
    regions: Vec<RegionId>,
    /// The agents who made an attempt (16.9).
    agents: Vec<AgentId>,
    /// The pounds the move's attempts add (9.3).
    pounds: u32,
    /// An earlier order may bring pounds in.
    income: bool,
    /// `end` was read (3.1[4]).
    ended: bool,
    /// The cities of the move's discovery attempts (32.4).
    cities: Vec<CityId>,
}

impl Walk<'_> {
    /// Checks order `o` of line `l` against the orders before it.
    fn order(&mut self, l: &SourceLine, o: &Order) {
        match o {
            Order::End => self.ended = true,
            Order::Move { .. } if self.closed => self.errors.push(at(
                l,
                "all movement comes before negotiations: write the moves first".into(),
                "12.1",
            )),
            Order::Massacre(_) if self.st.options.massacre => self.closed = true,
            Order::Negotiate(a) => self.negotiate(l, a),
            Order::Discover(a, _) => self.discover(l, *a),
            // An agreement may bring pounds.
            Order::Deal(_) => self.income = true,
            _ => {}
        }
    }

    /// A negotiation attempt (15.0-15.4, 16.9), within the treasury while
    /// nothing earlier brings pounds in (9.3).
    fn negotiate(&mut self, l: &SourceLine, a: &Attempt) {
        let (d, st, p) = (self.d, self.st, self.p);
        self.closed = true;
        if let Some(e) = attempt(
            d,
            st,
            p,
            self.moved.as_ref(),
            &self.regions,
            &self.agents,
            a,
        ) {
            self.errors.push(at(l, e.0, e.1));
        } else if !self.income && self.pounds + a.pounds > st.treasury[p.index()] {
            self.errors.push(at(
                l,
                format!(
                    "the move's attempts add {} pounds and the treasury holds {}",
                    self.pounds + a.pounds,
                    st.treasury[p.index()]
                ),
                "9.3",
            ));
        }
        self.regions.push(a.region);
        self.agents.push(a.agent);
        self.pounds += a.pounds;
    }

    /// A discovery attempt (32.1, 32.2, 32.4) by agent `a`.
    fn discover(&mut self, l: &SourceLine, a: AgentId) {
        // A discovery may bring pounds (32.6).
        self.income = true;
        let Some(s) = &self.moved else {
            return;
        };
        match super::discovery::check(self.d, s, self.p, a) {
            Err(umpire_core::ruleset::RuleError::Illegal { message, rule }) => {
                self.errors
                    .push(at(l, message, rule.as_deref().unwrap_or("32.1")));
            }
            Ok(c) if self.cities.contains(&c) => self.errors.push(at(
                l,
                format!(
                    "an earlier attempt of the move is made in {}: one a city a game",
                    self.d.city(c).name
                ),
                "32.4",
            )),
            Ok(c) => self.cities.push(c),
            Err(_) => {}
        }
    }
}

/// The state after order `o`, while it is known without a roll: agents
/// stand still from the first negotiation on; only moves (which roll
/// nothing) and orders that move no piece keep the state known.
fn known_after(d: &Data, s: State, p: Power, o: &Order) -> Option<State> {
    match o {
        Order::Move { .. } => after(d, s, p, o),
        Order::Negotiate(_)
        | Order::Discover(..)
        | Order::Crt(..)
        | Order::Face(..)
        | Order::Econ(super::economy::EconOrder::Reorganize { .. }) => Some(s),
        _ => None,
    }
}

/// The state after a move order, or `None` if it fails (its own check
/// then refuses it, before any roll).
fn after(d: &Data, mut st: State, p: Power, o: &Order) -> Option<State> {
    let mut dice = Dice::preview();
    turn::apply(d, &mut st, p, o, &mut dice).ok().map(|_| st)
}

/// What forbids an attempt before its roll, given the regions and agents of
/// the phase's earlier attempts and, if only moves came before it, the
/// state they leave.
fn attempt(
    d: &Data,
    st: &State,
    p: Power,
    moved: Option<&State>,
    regions: &[RegionId],
    agents: &[AgentId],
    a: &Attempt,
) -> Option<(String, &'static str)> {
    let info = &d.agents[a.agent];
    let name = &d.reg(a.region).name;
    if a.ultimatum && !st.options.ultimatums {
        return Some((
            "ultimatums are an optional rule not chosen for this game".into(),
            "15.6",
        ));
    }
    if regions.contains(&a.region) {
        return Some((
            format!("one attempt against {name} a negotiations sub-phase"),
            "15.3",
        ));
    }
    // Only his own red or blue agents: a native agent's side may change
    // with an earlier attempt's result, and a refusal must not tell where
    // another player's agent stands.
    let own = info.side == AgentSide::Power(p);
    if agents.contains(&a.agent) || (own && st.agent(a.agent).used) {
        return Some((
            format!(
                "{} uses his values once in this sub-phase (an earlier attempt of the move or phase)",
                info.name
            ),
            "16.9",
        ));
    }
    if a.pounds > info.political {
        return Some((
            format!(
                "{} may add at most {} pounds, his political value",
                info.name, info.political
            ),
            "15.1(2), 15.4",
        ));
    }
    let cap = d.city(d.reg(a.region).capital);
    if let Some(s) = moved.filter(|_| own)
        && s.agent(a.agent).loc != Loc::Sq(cap.sq)
    {
        return Some((
            format!(
                "{} is not your agent in {}, the capital, once the move's movement is done",
                info.name, cap.name
            ),
            "15.0",
        ));
    }
    None
}
