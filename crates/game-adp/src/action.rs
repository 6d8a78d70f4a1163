//! Carrying out an Operation with its Special Activity (3.1, 4.1): the
//! context shared by every Operation's lines, costs, space selection, and the
//! placement of the Special Activity among the Operation's lines.

use super::coin;
use super::data::{Data, SpaceNo};
use super::insurgent;
use super::orders::{ActStep, Action, At, Move, Op, Sa, SaKind};
use super::pieces::Faction;
use super::special;
use super::state::State;
use std::collections::BTreeSet;
use umpire_core::board::{Place, SpaceId};
use umpire_core::dice::{Dice, DiceError};
use umpire_core::ruleset::{Event, RuleError};

/// The Guerrillas a March has moved so far (3.3.2, from version 10).
#[derive(Clone, Debug, Default)]
pub struct Marched {
    /// By space, the Guerrillas that arrived there: (Underground, Active).
    pub arrived: std::collections::BTreeMap<SpaceNo, (u8, u8)>,
    /// Every leg moved, (from, to).
    pub legs: BTreeSet<(SpaceNo, SpaceNo)>,
}

/// How the Operation is being executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// Free (granted by an Event: 3.1.2, 5.5).
    pub free: bool,
    /// The Final Event Card (2.3.8): Limited, no SA, no Sweep or March.
    pub final_card: bool,
    /// Whether a Special Activity may accompany it (2.3.4).
    pub sa_allowed: bool,
}

/// The state of one Operation while its lines are carried out.
#[derive(Clone)]
pub struct Exec<'a> {
    /// The data.
    pub d: &'a Data,
    /// The executing faction.
    pub f: Faction,
    /// The Operation.
    pub op: Op,
    /// Limited (2.3.5).
    pub limited: bool,
    /// Terms.
    pub terms: Terms,
    /// Spaces selected, in order (3.1: each at most once).
    pub selected: Vec<SpaceNo>,
    /// Spaces entered by movement (March costs, Sweep payments, LimOp).
    pub entered: BTreeSet<SpaceNo>,
    /// Movement destinations (LimOp: one destination, 2.3.5).
    pub destinations: BTreeSet<SpaceNo>,
    /// March, from version 10: the Guerrillas that arrived in each space in
    /// this Operation, (Underground, Active), and the legs moved, (from,
    /// to): a Guerrilla Marches once (3.3.2), a leg's Guerrillas are one
    /// group.
    pub marched: Marched,
    /// Spaces into which Government Troops moved (Coalition Sweep costs).
    pub gov_troops_in: BTreeSet<SpaceNo>,
    /// Ambush spaces not yet resolved (4.4.3).
    pub ambush: Vec<SpaceNo>,
    /// Train's step 2 (ruling A21), or Rally's Sharia, was used.
    pub step_two: bool,
    /// Patrol's free Assault, to follow the Activation (3.2.2).
    pub patrol_assault: Option<(SpaceNo, Vec<Faction>)>,
    /// The Special Activity, once done.
    pub sa: Option<SaKind>,
    /// The line being carried out, for errors.
    pub line: usize,
    /// What happened.
    pub events: Vec<Event>,
    /// A dry run (version 10): no die is rolled ([`execute`]).
    pub dry: bool,
    /// In a dry run, the spaces whose pieces hang on a roll not made.
    pub tainted: BTreeSet<SpaceNo>,
    /// The dry run met what only the dice decide: no verdict from it.
    pub undecided: bool,
    /// The Resources paid so far, for the narration of the costs (3.1).
    pub spent: Vec<Spent>,
}

/// One Resource payment of an Operation or its Special Activity: what it
/// bought ("Train in"), where, who paid and how much (3.1).
#[derive(Clone, Debug)]
pub struct Spent {
    /// What was bought, with its preposition: "Train in", "Marching into".
    pub what: String,
    /// The space, if the payment is for one.
    pub space: Option<SpaceNo>,
    /// Whose Resources.
    pub payer: Faction,
    /// How many.
    pub n: u8,
}

impl Exec<'_> {
    /// An error citing the rule; [`execute`] adds the line and column.
    pub fn ill(&self, msg: impl Into<String>, rule: &str) -> RuleError {
        RuleError::illegal(msg, rule)
    }

    /// Reports something.
    pub fn say(&mut self, s: impl Into<String>) {
        self.events.push(Event::say(s));
    }

    /// Who pays: the Coalition spends Government Resources (3.1 NOTE).
    pub fn payer(&self) -> Faction {
        if self.f == Faction::Coalition {
            Faction::Government
        } else {
            self.f
        }
    }

    /// Pays `n` Resources for `what`, unless free (3.1, 3.1.2); the payer
    /// must be able to afford it.
    pub fn pay(&mut self, st: &mut State, n: u8, what: &str) -> Result<(), RuleError> {
        if self.terms.free || n == 0 {
            return Ok(());
        }
        let who = self.payer();
        if st.res(who) < n {
            return Err(self.ill(
                format!(
                    "the {} have {} Resources and cannot pay {n} for {what}",
                    who.name(),
                    st.res(who)
                ),
                "3.1",
            ));
        }
        st.resources[who.index()] -= n;
        Ok(())
    }

    /// [`Exec::pay`] for `what` ("Train in") in space `s`, recorded for the
    /// narration of the costs.
    pub fn pay_at(
        &mut self,
        st: &mut State,
        n: u8,
        what: &str,
        s: SpaceNo,
    ) -> Result<(), RuleError> {
        let at = format!("{what} {}", self.name(s));
        self.pay(st, n, &at)?;
        if !self.terms.free {
            self.note_spent(what, Some(s), self.payer(), n);
        }
        Ok(())
    }

    /// Records a payment made outside [`Exec::pay`] (Civic Action's and
    /// Sharia's steps, Suborn), for the narration of the costs.
    pub fn note_spent(&mut self, what: &str, space: Option<SpaceNo>, payer: Faction, n: u8) {
        if n > 0 {
            self.spent.push(Spent {
                what: what.into(),
                space,
                payer,
                n,
            });
        }
    }

    /// The per-space cost of this Operation, or a lasting modifier's (5.3, 5.4).
    pub fn space_cost(&self, st: &State, normal: u8) -> u8 {
        st.cost_override(self.f, self.op.key()).unwrap_or(normal)
    }

    /// Selects a space for the Operation: each at most once (3.1).
    pub fn select(&mut self, s: SpaceNo) -> Result<(), RuleError> {
        if self.selected.contains(&s) {
            return Err(self.ill(
                format!(
                    "{} is already selected for this {}",
                    self.d[s].name,
                    self.op.key()
                ),
                "3.1",
            ));
        }
        self.selected.push(s);
        Ok(())
    }

    /// The name of a space.
    pub fn name(&self, s: SpaceNo) -> &str {
        &self.d[s].name
    }
}

/// Carries out an Operation and its Special Activity for `f`.
///
/// From version 10 an Operation that may roll (an Attack, a Surge's die) is
/// first checked whole without rolling (`dry`): every check that does not
/// hang on a die (a Limited Operation's one space, 2.3.5; Resources for each
/// space, 3.1; an Ambush then Attacked, 4.4.3; a space selected, 3.1) is
/// made before the first roll, so that the move is refused there
/// (invariant 4) rather than rolled and "not carried out".
pub fn execute(
    d: &Data,
    st: &mut State,
    f: Faction,
    a: &Action,
    terms: Terms,
    dice: &mut Dice,
) -> Result<Vec<Event>, RuleError> {
    if d.version >= 10 && may_roll(a) {
        let mut trial = st.clone();
        carry_out(d, &mut trial, f, a, terms, &mut Dice::preview(), true)?;
    }
    carry_out(d, st, f, a, terms, dice, false)
}

/// Could a player's Operation roll a die: an Attack not Ambushed (3.3.3),
/// a Surge's die (4.2.1)? (A Non-player's random picks among equal enemies,
/// 8.1, roll too; its orders are the umpire's, tried before they are made.)
fn may_roll(a: &Action) -> bool {
    a.op == Op::Attack
        || a.steps
            .iter()
            .any(|(_, s)| matches!(s, ActStep::Sa(Sa::Surge { roll: Some(_), .. })))
}

/// The Operation's lines and its whole-Operation checks, for real or `dry`:
/// a dry run rolls no die, and what a roll would decide it leaves undecided
/// (the spaces it touches are `tainted`); a line found illegal in such a
/// space, or a random pick, ends the dry run without a verdict, since the
/// real dice may make it legal.
fn carry_out(
    d: &Data,
    st: &mut State,
    f: Faction,
    a: &Action,
    terms: Terms,
    dice: &mut Dice,
    dry: bool,
) -> Result<Vec<Event>, RuleError> {
    let mut x = Exec {
        d,
        f,
        op: a.op,
        limited: a.limited || terms.final_card,
        terms,
        selected: Vec::new(),
        entered: BTreeSet::new(),
        destinations: BTreeSet::new(),
        marched: Marched::default(),
        gov_troops_in: BTreeSet::new(),
        ambush: Vec::new(),
        step_two: false,
        patrol_assault: None,
        sa: None,
        line: 0,
        events: Vec::new(),
        dry,
        tainted: BTreeSet::new(),
        undecided: false,
        spent: Vec::new(),
    };
    check_op(&x, st)?;
    x.say(format!(
        "{} {}{}",
        f.name(),
        if x.limited {
            "Limited Operation: "
        } else {
            "Operation: "
        },
        a.op.key()
    ));
    coin::begin(&mut x, st)?;
    let mut errors = Vec::new();
    steps(&mut x, st, a, dice, &mut errors)?;
    // The whole Operation's checks only when every line stood: with a line
    // set aside they would report its absence, not a fault.
    if errors.is_empty() && !x.undecided {
        match finish(&mut x, st, dice) {
            Err(RuleError::Dice(DiceError::PreviewStops(_))) if dry => {}
            r => r?,
        }
        st.update_control(d);
        if !dry {
            let e = costs(&x, st);
            x.say(e);
        }
    }
    if errors.is_empty() {
        if let Some(head) = x.events.first_mut() {
            head.focus = named_places(a);
        }
        Ok(x.events)
    } else {
        Err(combined(d, errors))
    }
}

/// The spaces an Operation's lines name, for the map around the action:
/// the picture and the map snippet centre on them.
fn named_places(a: &Action) -> Vec<Place> {
    let mut seen = BTreeSet::new();
    a.steps
        .iter()
        .flat_map(|(at, _)| at.spaces.iter().flatten())
        .filter(|(s, _)| seen.insert(*s))
        .map(|(s, _)| Place::Space(SpaceId(u16::from(s.0))))
        .collect()
}

/// The Resources an Operation and its Special Activity cost, by what each
/// bought and where, with what the payers have left (3.1): "Resources
/// spent (3.1): Train in Kabul, Helmand 6 (3 a space); Government 14 left".
fn costs(x: &Exec, st: &State) -> String {
    let mut groups: Vec<(&str, Faction, Vec<&Spent>)> = Vec::new();
    for p in &x.spent {
        match groups
            .iter_mut()
            .find(|(w, f, _)| *w == p.what && *f == p.payer)
        {
            Some((_, _, v)) => v.push(p),
            None => groups.push((&p.what, p.payer, vec![p])),
        }
    }
    let free = if x.terms.free {
        "a free Operation, its spaces cost nothing (3.1.2)"
    } else {
        ""
    };
    if groups.is_empty() {
        return if x.terms.free {
            format!("Resources spent: none, {free}")
        } else {
            "Resources spent: none (3.1)".into()
        };
    }
    let mut parts: Vec<String> = groups.iter().map(|(w, _, v)| group(x, w, v)).collect();
    let mut payers: Vec<Faction> = groups.iter().map(|(_, f, _)| *f).collect();
    payers.dedup();
    for f in payers {
        parts.push(format!("{} {} left", f.name(), st.res(f)));
    }
    let mut text = format!("Resources spent (3.1): {}", parts.join("; "));
    if x.terms.free {
        text.push_str(&format!("; {free}"));
    }
    text
}

/// One kind of payment: "Train in Kabul, Helmand 6 (3 a space)", or with
/// unequal amounts "Marching into Kabul 1, Helmand 2: 3".
fn group(x: &Exec, what: &str, v: &[&Spent]) -> String {
    let total: u32 = v.iter().map(|p| u32::from(p.n)).sum();
    let names: Vec<&str> = v
        .iter()
        .filter_map(|p| p.space)
        .map(|s| x.name(s))
        .collect();
    let even = v.iter().all(|p| p.n == v[0].n);
    let payer = if x.payer() != x.f && v.iter().all(|p| p.payer == x.payer()) {
        format!(" {} Resources", x.payer().name())
    } else {
        String::new()
    };
    match (names.is_empty(), even, v.len()) {
        (true, _, _) => format!("{what} {total}{payer}"),
        (false, true, 1) => format!("{what} {} {total}{payer}", names[0]),
        (false, true, _) => format!(
            "{what} {} {total}{payer} ({} a space)",
            names.join(", "),
            v[0].n
        ),
        (false, false, _) => {
            let each: Vec<String> = v
                .iter()
                .filter_map(|p| p.space.map(|s| format!("{} {}", x.name(s), p.n)))
                .collect();
            format!("{what} {}: {total}{payer}", each.join(", "))
        }
    }
}

/// An error of one line of an Operation.
type LineError = (At, RuleError);

/// Carries out the Operation's lines in order. A line that is illegal is
/// set aside (state as before it) and the later lines are still checked, so
/// that the player sees every illegal line at once; once one has failed, no
/// die is rolled for real any more (a refusal reveals no roll, invariant 4),
/// and checking stops at the first line that would roll.
fn steps(
    x: &mut Exec,
    st: &mut State,
    a: &Action,
    dice: &mut Dice,
    errors: &mut Vec<LineError>,
) -> Result<(), RuleError> {
    let mut preview: Option<Dice> = None;
    for (i, (at, step)) in a.steps.iter().enumerate() {
        x.line = at.line;
        // Only a line with lines after it needs the state before it back.
        let saved = (i + 1 < a.steps.len()).then(|| (st.clone(), x.clone()));
        let roll = preview.as_mut().unwrap_or(&mut *dice);
        match one_step(x, st, step, roll) {
            Ok(()) => st.update_control(x.d),
            Err(RuleError::Dice(DiceError::PreviewStops(_))) if preview.is_some() || x.dry => {
                x.undecided = true;
                return Ok(());
            }
            Err(e @ RuleError::Dice(_)) => return Err(e),
            Err(_) if x.dry && names_any(step, &x.tainted) => {
                x.undecided = true;
                return Ok(());
            }
            Err(e) => {
                if let Some((s, y)) = saved {
                    *st = s;
                    *x = y;
                }
                errors.push((*at, e));
                preview.get_or_insert_with(Dice::preview);
            }
        }
    }
    Ok(())
}

/// Does the line name one of `spaces`?
fn names_any(step: &ActStep, spaces: &BTreeSet<SpaceNo>) -> bool {
    let mut named: Vec<SpaceNo> = Vec::new();
    match step {
        ActStep::In(i) => {
            named.push(i.space);
            named.extend(&i.from);
        }
        ActStep::Move(m) => named.extend(&m.path),
        ActStep::Civic(s, _) | ActStep::Sharia(s, _) | ActStep::Assault(s, _) => named.push(*s),
        ActStep::BuildBase(s, from) | ActStep::BuildBaseOf(s, from, _) => {
            named.push(*s);
            named.extend(from);
        }
        ActStep::Return { space, .. } => named.push(*space),
        ActStep::Patronage => {}
        ActStep::Sa(sa) => named.extend(sa_spaces(sa)),
    }
    named.iter().any(|s| spaces.contains(s))
}

/// The spaces a Special Activity's line names.
fn sa_spaces(sa: &Sa) -> Vec<SpaceNo> {
    match sa {
        Sa::Surge { moves, .. } => moves.iter().flat_map(|(m, _, _)| m.path.clone()).collect(),
        Sa::Airlift(ms) => ms.iter().flat_map(|m| m.path.clone()).collect(),
        Sa::Transport(m) => m.path.clone(),
        Sa::Airstrike(v) => v.iter().map(|(s, _)| *s).collect(),
        Sa::Govern(v) => v.iter().map(|(s, _)| *s).collect(),
        Sa::Suborn(v) => v.iter().map(|(s, _)| *s).collect(),
        Sa::Eradicate(v) | Sa::Extort(v) | Sa::Ambush(v) | Sa::Traffic(v) => v.clone(),
        Sa::Infiltrate { space, .. } => vec![*space],
        Sa::Cultivate(s) => vec![*s],
    }
}

fn one_step(
    x: &mut Exec,
    st: &mut State,
    step: &ActStep,
    dice: &mut Dice,
) -> Result<(), RuleError> {
    match step {
        ActStep::Sa(sa) => special::execute(x, st, sa, dice),
        ActStep::Return {
            space,
            count,
            kind,
            active,
        } => insurgent::return_pieces(x, st, *space, *count, *kind, *active),
        _ => op_step(x, st, step, dice),
    }
}

/// The errors of an Operation's lines as one, each with its line, column
/// and rule (one alone keeps its rule where the engine prints it).
/// The column is that of the space the message names, where the line names
/// it, else the line's first word.
fn combined(d: &Data, mut errors: Vec<LineError>) -> RuleError {
    let at = |a: At, m: &str| format!("line {}, column {}: {m}", a.line, a.column_for(d, m));
    if errors.len() == 1 {
        return match errors.remove(0) {
            (a, RuleError::Illegal { message, rule }) => RuleError::Illegal {
                message: at(a, &message),
                rule,
            },
            (_, e) => e,
        };
    }
    let text: Vec<String> = errors
        .into_iter()
        .map(|(a, e)| match e {
            RuleError::Illegal {
                message,
                rule: Some(r),
            } => at(a, &format!("{message} ({r})")),
            RuleError::Illegal { message, .. } => at(a, &message),
            e => at(a, &e.to_string()),
        })
        .collect();
    RuleError::Illegal {
        message: format!("{} lines are illegal:\n{}", text.len(), text.join("\n")),
        rule: None,
    }
}

fn check_op(x: &Exec, st: &State) -> Result<(), RuleError> {
    if x.op.is_coin() != x.f.is_coin() {
        return Err(x.ill(
            format!("{} is not an Operation of the {}", x.op.key(), x.f.name()),
            if x.f.is_coin() { "3.2" } else { "3.3" },
        ));
    }
    // 5.1.1: "If two Events contradict, the currently played Event takes
    // precedence": from version 10 an Operation the current Event grants
    // free is not barred by a Capability or Momentum in play.
    let granted = x.terms.free && x.d.version >= 10;
    if let Some(card) = st.forbidden(x.f, x.op.key()).filter(|_| !granted) {
        return Err(x.ill(format!("card #{card} in play bars {}", x.op.key()), "5.3"));
    }
    if x.terms.final_card && matches!(x.op, Op::Sweep | Op::March) {
        return Err(x.ill("no Sweep or March on the Final Event Card", "2.3.8"));
    }
    Ok(())
}

fn op_step(x: &mut Exec, st: &mut State, step: &ActStep, dice: &mut Dice) -> Result<(), RuleError> {
    if x.d.version >= 10 {
        unused_words(x, step)?;
    }
    match (x.op, step) {
        (Op::Train, _) => coin::train_step(x, st, step),
        (Op::Patrol, _) => coin::patrol_step(x, st, step),
        (Op::Sweep, _) => coin::sweep_step(x, st, step),
        (Op::Assault, ActStep::In(i)) => {
            coin::assault_space(x, st, i.space, i.with_government, &i.targets, false, dice)
        }
        (Op::Rally, _) => insurgent::rally_step(x, st, step),
        (Op::March, ActStep::Move(m)) => insurgent::march(x, st, m),
        (Op::Attack, ActStep::In(i)) => insurgent::attack(x, st, i.space, &i.targets, dice),
        (Op::Terror, ActStep::In(i)) => insurgent::terror(x, st, i.space),
        (op, _) => Err(x.ill(
            format!("this line does not belong in a {}", op.key()),
            op.rule(),
        )),
    }
}

/// From version 10, a word of a line that the Operation would not use is
/// refused with the Operation's rule: version 9 read it and dropped it (a
/// `target` on a Rally, `place` on an Attack, a Government Assault
/// `with-government`, `active` on a Patrol...).
fn unused_words(x: &Exec, step: &ActStep) -> Result<(), RuleError> {
    let op = x.op;
    let word = match step {
        ActStep::In(i) => {
            if !i.place.is_empty() && !matches!(op, Op::Train | Op::Rally) {
                Some("place")
            } else if !i.from.is_empty() && op != Op::Train {
                Some("from")
            } else if i.base && op != Op::Rally {
                Some("base")
            } else if i.flip && op != Op::Rally {
                Some("flip")
            } else if i.with_government && !(op == Op::Assault && x.f == Faction::Coalition) {
                Some("with-government")
            } else if !i.targets.is_empty() && !matches!(op, Op::Assault | Op::Attack) {
                Some("target")
            } else {
                None
            }
        }
        ActStep::Move(m) => {
            if m.active && op != Op::March {
                Some("active")
            } else if m.with > 0 && op != Op::Sweep {
                Some("with")
            } else if m.kind.is_some_and(|k| k != super::pieces::Kind::Guerrilla) && op == Op::March
            {
                Some("troops/police/base")
            } else {
                None
            }
        }
        _ => None,
    };
    match word {
        Some(w) => Err(x.ill(
            format!("`{w}` does nothing in a {}: remove it", op.key()),
            op.rule(),
        )),
        None => Ok(()),
    }
}

fn finish(x: &mut Exec, st: &mut State, dice: &mut Dice) -> Result<(), RuleError> {
    coin::finish(x, st, dice)?;
    if x.selected.is_empty() && x.destinations.is_empty() {
        return Err(x.ill(format!("the {} selects no space", x.op.key()), "3.1"));
    }
    // 2.3.5: a Limited Operation is in 1 space (movement: 1 destination);
    // Taliban LimOps at Sponsorship may use several (6.6.1).
    let sponsorship = x.f == Faction::Taliban && st.islamabad == 4 && !x.terms.final_card;
    let mut spaces: BTreeSet<SpaceNo> = x.selected.iter().copied().collect();
    if x.op == Op::March && x.d.version >= 10 {
        // Where the Guerrillas end: a march-on written as a second line
        // passes through its first destination (2.3.5, 3.3.2).
        spaces.extend(
            x.marched
                .arrived
                .iter()
                .filter(|(_, (u, a))| u + a > 0)
                .map(|(s, _)| *s),
        );
    } else {
        spaces.extend(x.destinations.iter().copied());
    }
    if x.limited && spaces.len() > 1 && !sponsorship {
        return Err(RuleError::illegal(
            format!(
                "a Limited Operation is in 1 space; this one uses {}",
                spaces.len()
            ),
            "2.3.5",
        ));
    }
    if let Some(sa) = x.sa
        && x.limited
    {
        return Err(RuleError::illegal(
            format!(
                "no Special Activity ({}) with a Limited Operation",
                sa.key()
            ),
            "4.1",
        ));
    }
    if !x.ambush.is_empty() {
        return Err(RuleError::illegal(
            "an Ambush space was not then Attacked",
            "4.4.3",
        ));
    }
    Ok(())
}

/// Checks a movement path: each step to an adjacent space (1.3).
pub fn check_path(x: &Exec, m: &Move) -> Result<(), RuleError> {
    for w in m.path.windows(2) {
        if !x.d.adjacent(w[0], w[1]) {
            return Err(x.ill(
                format!("{} is not adjacent to {}", x.name(w[1]), x.name(w[0])),
                "1.3",
            ));
        }
    }
    Ok(())
}
