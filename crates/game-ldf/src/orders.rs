//! Orders as a player writes them, one per line. Hexes by number or by the
//! name of a population centre in them (`3318` or `Rome`); counters by id
//! (`v12`, `EMP`, `t3`). Syntax and look-ups only: legality is checked against
//! the state when the order is carried out.
//!
//! ```text
//! move 3318 EMP c1 v33 to 3417 3516 drop v33 3615
//! sea 3318 to Alexandria          river 3515 to 3816
//! attack 3615 on 3715 with 1 advance all losses v2
//! draw            draw return 13          play 24 tp 4
//! treachery salt 2 with 17        diplomacy t5 salt 1
//! coemperor 4619    rebel 3615 2812    fortify Lugdunum    fortify complete
//! rebuild 3016      rebuild complete 3016    activate palmyra    activate gaul
//! tax 3016 3113     demobilize b1 v1   reclaim 3318 3016   reclaim cavalry 3318
//! place tribes 3410 3511    place gunds 5020    done    pass    concede
//! setup tribes 3410 ... gunds 5020 ...      setup auto
//! ```

use super::data::{Data, UnitId};
use umpire_core::hex::Hex;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{OrderError, parse_lines};
use umpire_core::suggest::did_you_mean;

/// Some or all units of a hex.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Force {
    /// The hex it starts in.
    pub from: Hex,
    /// The units named; none named: every unit of the player that can take part.
    pub units: Option<Vec<UnitId>>,
}

/// One step of a land move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Enter the next hex.
    To(Hex),
    /// Leave these units where the force now is (8.2).
    Drop(Vec<UnitId>),
    /// Pick these units up where the force now is (a leader's force only, 8.2).
    Pick(Vec<UnitId>),
}

/// Which attackers advance after combat (13.14).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Advance {
    /// Every eligible attacker (the default).
    All,
    /// None.
    Stay,
    /// These.
    Units(Vec<UnitId>),
}

/// An attack (8.6, 13.x).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Attack {
    /// The attackers.
    pub force: Force,
    /// The hex attacked.
    pub target: Hex,
    /// Combat chits played with it.
    pub chits: Vec<u8>,
    /// Advance after combat.
    pub advance: Advance,
    /// Take a free chit if the battle is won (8.19; default yes).
    pub draw: bool,
    /// Units to lose first on an exchange (13.11 EX).
    pub losses: Vec<UnitId>,
}

/// The target of a diplomacy action.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum DipTarget {
    /// A Germanic tribe in core territory (8.12).
    Tribe(UnitId),
    /// A loyal co-emperor (8.10).
    CoEmperor,
    /// Palmyra (9.4).
    Palmyra,
}

/// Every order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Germano-Parthian set-up (3.3); empty lists: placed by the umpire.
    Setup {
        /// Hexes for the 17 tribes.
        tribes: Vec<Hex>,
        /// Hexes for the 8 gunds.
        gunds: Vec<Hex>,
    },
    /// Land move (8.2, 12.x).
    Move {
        /// Who moves.
        force: Force,
        /// The path, with drop-offs and pick-ups.
        path: Vec<Step>,
        /// Play Inspired Subordinates for one more hex (14.3).
        inspired: Option<u8>,
    },
    /// Sea move, port to port (12.6).
    Sea {
        /// Who moves.
        force: Force,
        /// The port of arrival.
        to: Hex,
    },
    /// Riverine move (12.7).
    River {
        /// Who moves.
        force: Force,
        /// The bank hex of arrival.
        to: Hex,
    },
    /// Attack (8.6).
    Attack(Attack),
    /// Draw a chit, first putting one back (8.17).
    Draw {
        /// The chit put back first.
        put_back: Option<u8>,
    },
    /// Play a chit as an action (8.18).
    Play {
        /// The chit.
        chit: u8,
        /// TP taken (Windfall).
        tp: Option<u32>,
        /// Hexes named.
        at: Vec<Hex>,
        /// Chits thrown back into the pool first (From the Jaws of Death).
        back: Vec<u8>,
    },
    /// Pass (8.20).
    Pass,
    /// Concede (4.3, 4.4).
    Concede,
    /// Create a loyal co-emperor (8.7).
    CoEmperor(Hex),
    /// Try to create a rebel co-emperor, with hexes in order of preference (8.7).
    Rebel(Vec<Hex>),
    /// Treachery (8.9, 8.11).
    Treachery {
        /// TP of salt (8.8).
        salt: u32,
        /// Play Agents in Enemy Camp.
        agents: bool,
    },
    /// Diplomacy (8.10, 8.12, 9.4).
    Diplomacy {
        /// Whom.
        target: DipTarget,
        /// TP of salt (8.8).
        salt: u32,
        /// Play Agents in Enemy Camp.
        agents: bool,
    },
    /// Begin (a hex) or complete (none) a fortification (8.13).
    Fortify(Option<Hex>),
    /// Begin or complete a rebuild (6.4, 8.14).
    Rebuild {
        /// The hex.
        hex: Hex,
        /// Complete it.
        complete: bool,
    },
    /// Activate Palmyra (9.3).
    ActivatePalmyra,
    /// Activate the Gallic Empire (9.5).
    ActivateGaul,
    /// Emergency taxation (6.6).
    Tax(Vec<Hex>),
    /// Demobilize (6.7).
    Demobilize(Vec<UnitId>),
    /// Reclaim pairs into these hexes (6.8); `cavalry`: cavalry units.
    Reclaim {
        /// One base and one vexillation to each hex.
        pairs: Vec<Hex>,
        /// One cavalry vexillation to each hex (after the reserve, 6.8).
        cavalry: Vec<Hex>,
    },
    /// Where returning tribes and gunds go (7.1, 7.2).
    Place {
        /// Tribes' hexes.
        tribes: Vec<Hex>,
        /// Gunds' hexes.
        gunds: Vec<Hex>,
    },
    /// End of one's administrative steps.
    Done,
    /// The answer to a question put to the player who is not acting
    /// (version 9; digest 2.7): `retreat HEX` (N1) or `place HEX` (N6, N8).
    Answer {
        /// `retreat`, not `place`.
        retreat: bool,
        /// The hex.
        hex: Hex,
    },
    /// The defender's answer before the die (version 10; N2): the reaction
    /// chits he plays, none for `react none`.
    React(Vec<u8>),
    /// The Roman's answer to a Bread & Circuses the Germano-Parthian drew
    /// (version 10; N5): `sponsor` or `refuse`.
    Games(bool),
    /// The Roman's answer before a Germano-Parthian diplomacy or treachery
    /// roll (version 10; N4): `salt N [with 17]`, his negative salt and
    /// Agents in Enemy Camp.
    Salt {
        /// TP of negative salt.
        salt: u32,
        /// Agents in Enemy Camp (-2).
        agents: bool,
    },
}

struct Words<'a> {
    l: &'a SourceLine,
    d: &'a Data,
    w: Vec<(usize, &'a str)>,
    i: usize,
    /// Version 14 on: a keyword given twice, or a counter named twice, is
    /// refused (earlier versions let the second silently replace the first).
    strict: bool,
    /// The keywords of this line so far, for [`Words::once`].
    seen: Vec<&'static str>,
}

impl<'a> Words<'a> {
    fn new(d: &'a Data, l: &'a SourceLine, strict: bool) -> Words<'a> {
        let mut w = Vec::new();
        let mut start = None;
        for (i, c) in l.text.char_indices() {
            match (c.is_whitespace(), start) {
                (true, Some(s)) => {
                    w.push((s, &l.text[s..i]));
                    start = None;
                }
                (false, None) => start = Some(i),
                _ => {}
            }
        }
        if let Some(s) = start {
            w.push((s, &l.text[s..]));
        }
        Words {
            l,
            d,
            w,
            i: 0,
            strict,
            seen: Vec::new(),
        }
    }

    /// Eats `kw` if it comes next, refusing it (from version 14) when the
    /// line gave it already: a second `tp` or `losses` would otherwise
    /// replace the first without a word.
    fn eat_once(&mut self, kw: &'static str) -> Result<bool, OrderError> {
        if !self.eat(kw) {
            return Ok(false);
        }
        if self.strict && self.seen.contains(&kw) {
            return Err(self.err(format!("`{kw}` is given twice: write it once")));
        }
        self.seen.push(kw);
        Ok(true)
    }

    /// Refuses (from version 14) a counter named twice in one order, saying
    /// `why` and citing `rule` (the order's own rule when `None`).
    fn no_repeats(
        &self,
        units: &[UnitId],
        why: &str,
        rule: Option<&str>,
    ) -> Result<(), OrderError> {
        if !self.strict {
            return Ok(());
        }
        let Some(u) = units
            .iter()
            .enumerate()
            .find_map(|(i, u)| units[..i].contains(u).then_some(u))
        else {
            return Ok(());
        };
        let e = self.err(format!(
            "{} is named twice: {why}",
            self.d.units[u.index()].id
        ));
        Err(match rule {
            Some(r) => e.rule(r),
            None => e,
        })
    }

    fn err(&self, m: impl Into<String>) -> OrderError {
        let col = self.w.get(self.i.saturating_sub(1)).map_or(0, |x| x.0);
        OrderError {
            line: self.l.line,
            column: self.l.column + col,
            message: m.into(),
            rule: None,
        }
    }

    fn next(&mut self) -> Option<&'a str> {
        let t = self.w.get(self.i).map(|x| x.1);
        if t.is_some() {
            self.i += 1;
        }
        t
    }

    fn peek(&self) -> Option<&'a str> {
        self.w.get(self.i).map(|x| x.1)
    }

    fn eat(&mut self, kw: &str) -> bool {
        if self.peek().is_some_and(|t| t.eq_ignore_ascii_case(kw)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn hex(&mut self) -> Result<Hex, OrderError> {
        let t = self.next().ok_or_else(|| self.err("a hex is missing"))?;
        self.d.find_hex(t).ok_or_else(|| {
            self.err(format!(
                "{t:?} is neither a hex on the map nor a place name{}",
                hex_suggestion(self.d, t)
            ))
            .rule("2.1")
        })
    }

    fn is_hex(&self, t: &str) -> bool {
        self.d.find_hex(t).is_some()
    }

    fn unit(&self, t: &str) -> Result<UnitId, OrderError> {
        self.d.unit(t).ok_or_else(|| {
            let near = did_you_mean(t, self.d.units.iter().map(|u| u.id.as_str()));
            self.err(format!("no counter {t:?}{near}")).rule("2.2")
        })
    }

    fn units_csv(&mut self) -> Result<Vec<UnitId>, OrderError> {
        let t = self
            .next()
            .ok_or_else(|| self.err("counter ids are missing"))?;
        let units = t
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| self.unit(s))
            .collect::<Result<Vec<_>, _>>()?;
        self.no_repeats(&units, "name each counter once", None)?;
        Ok(units)
    }

    fn number(&mut self, what: &str) -> Result<u32, OrderError> {
        let t = self
            .next()
            .ok_or_else(|| self.err(format!("{what} is missing")))?;
        t.parse()
            .map_err(|_| self.err(format!("{what}: {t:?} is not a number")))
    }

    fn hexes_until(&mut self, stop: &[&str]) -> Result<Vec<Hex>, OrderError> {
        let mut v = Vec::new();
        while let Some(t) = self.peek() {
            if stop.iter().any(|s| t.eq_ignore_ascii_case(s)) {
                break;
            }
            v.push(self.hex()?);
        }
        Ok(v)
    }

    fn force(&mut self, until: &str) -> Result<Force, OrderError> {
        let from = self.hex()?;
        let mut units = Vec::new();
        while let Some(t) = self.peek() {
            if t.eq_ignore_ascii_case(until) {
                break;
            }
            self.i += 1;
            for s in t.split(',').filter(|s| !s.is_empty()) {
                units.push(self.unit(s)?);
            }
        }
        if !self.eat(until) {
            return Err(self.err(format!("expected `{until}`")));
        }
        if until == "on" {
            // An attacking force: as the combat check says it (13.3).
            let why = "no unit attacks more than once in one combat action";
            self.no_repeats(&units, why, Some("13.3"))?;
        } else {
            self.no_repeats(&units, "name each counter once", None)?;
        }
        Ok(Force {
            from,
            units: (!units.is_empty()).then_some(units),
        })
    }

    fn end(&mut self) -> Result<(), OrderError> {
        match self.next() {
            None => Ok(()),
            Some(t) => Err(self.err(format!("unexpected {t:?}"))),
        }
    }
}

/// "; did you mean ...?" for a mistyped hex: the nearest hex number for a
/// number, the nearest place name for a word.
fn hex_suggestion(d: &Data, t: &str) -> String {
    if t.chars().all(|c| c.is_ascii_digit()) {
        let labels: Vec<String> = d.hexes.iter().map(|x| x.hex.to_string()).collect();
        did_you_mean(t, labels.iter().map(String::as_str))
    } else {
        did_you_mean(t, d.places.iter().map(|p| p.name.as_str()))
    }
}

/// Every order's first word.
const KEYWORDS: [&str; 26] = [
    "move",
    "sea",
    "river",
    "attack",
    "draw",
    "play",
    "pass",
    "concede",
    "done",
    "coemperor",
    "rebel",
    "treachery",
    "diplomacy",
    "fortify",
    "rebuild",
    "activate",
    "tax",
    "demobilize",
    "reclaim",
    "place",
    "setup",
    "retreat",
    "react",
    "sponsor",
    "refuse",
    "salt",
];

/// The rule an order stands on, cited by its errors that name no other.
fn order_rule(kw: &str) -> &'static str {
    match kw {
        "move" => "8.2, 12.2",
        "sea" => "12.6",
        "river" => "12.7",
        "attack" => "8.6, 13.0",
        "draw" => "8.17",
        "play" => "8.18, 14.3",
        "pass" => "8.20",
        "concede" => "4.3, 4.4",
        "done" => "5.5",
        "coemperor" | "rebel" => "8.7",
        "treachery" => "8.9, 8.11",
        "diplomacy" => "8.10, 8.12, 9.4",
        "fortify" => "8.13",
        "rebuild" => "8.14",
        "activate" => "8.15",
        "tax" => "6.6",
        "demobilize" => "6.7",
        "reclaim" => "6.8",
        "place" => "7.1, 7.2",
        "setup" => "3.3",
        "retreat" => "13.12",
        "react" | "sponsor" | "refuse" => "14.3",
        "salt" => "8.8",
        _ => "8.1, 14.2",
    }
}

/// Reads the orders of a move, one a line; the first error.
pub fn parse(
    d: &Data,
    lines: &[SourceLine],
    strict: bool,
) -> Result<Vec<(SourceLine, Order)>, OrderError> {
    lines
        .iter()
        .map(|l| parse_line(d, l, strict).map(|o| (l.clone(), o)))
        .collect()
}

/// Reads the orders of a move, reporting every line that does not read, each
/// with its line, column and rule.
pub fn parse_all(
    d: &Data,
    lines: &[SourceLine],
    strict: bool,
) -> Result<Vec<(SourceLine, Order)>, Vec<OrderError>> {
    parse_lines(lines, |l| parse_line(d, l, strict))
}

/// Reads one order line; every error cites a rule (the order's own when no
/// lookup or stricter rule applies). `strict` (version 14 on) refuses a
/// keyword given twice and a counter named twice.
pub fn parse_line(d: &Data, l: &SourceLine, strict: bool) -> Result<Order, OrderError> {
    let kw = l
        .text
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    read_line(d, l, strict).map_err(|e| match e.rule {
        Some(_) => e,
        None => e.rule(order_rule(&kw)),
    })
}

fn read_line(d: &Data, l: &SourceLine, strict: bool) -> Result<Order, OrderError> {
    let mut w = Words::new(d, l, strict);
    let kw = w
        .next()
        .ok_or_else(|| w.err("empty order"))?
        .to_ascii_lowercase();
    let o = match kw.as_str() {
        "move" => parse_move(&mut w)?,
        "sea" | "river" => parse_voyage(&mut w, kw == "sea")?,
        "attack" => parse_attack(&mut w)?,
        "draw" => parse_draw(&mut w)?,
        "play" => parse_play(&mut w)?,
        "pass" => Order::Pass,
        "concede" => Order::Concede,
        "done" => Order::Done,
        "coemperor" => Order::CoEmperor(w.hex()?),
        "rebel" => Order::Rebel(w.hexes_until(&[])?),
        "treachery" => {
            let (salt, agents) = salt_agents(&mut w)?;
            Order::Treachery { salt, agents }
        }
        "diplomacy" => parse_diplomacy(&mut w)?,
        "fortify" => parse_fortify(&mut w)?,
        "rebuild" => parse_rebuild(&mut w)?,
        "activate" => parse_activate(&mut w)?,
        "tax" => Order::Tax(w.hexes_until(&[])?),
        "demobilize" => parse_demobilize(&mut w)?,
        "reclaim" => parse_reclaim(&mut w)?,
        "place" if w.peek().is_some_and(|t| w.is_hex(t)) => Order::Answer {
            retreat: false,
            hex: w.hex()?,
        },
        "retreat" => Order::Answer {
            retreat: true,
            hex: w.hex()?,
        },
        "react" => parse_react(&mut w)?,
        "sponsor" => Order::Games(true),
        "salt" => parse_salt(&mut w)?,
        "refuse" => Order::Games(false),
        "place" | "setup" => parse_place(&mut w, kw == "setup")?,
        _ => {
            let near = did_you_mean(&kw, KEYWORDS.iter().copied());
            return Err(w.err(format!(
                "unknown order {kw:?}{near}; see `umpire rules ldf` or send `command: orders`"
            )));
        }
    };
    w.end()?;
    Ok(o)
}

/// `sea FORCE to HEX` or `river FORCE to HEX`: a voyage.
fn parse_voyage(w: &mut Words, sea: bool) -> Result<Order, OrderError> {
    let force = w.force("to")?;
    let to = w.hex()?;
    Ok(if sea {
        Order::Sea { force, to }
    } else {
        Order::River { force, to }
    })
}

/// `draw [return N]`: a chit drawn, perhaps one put back.
fn parse_draw(w: &mut Words) -> Result<Order, OrderError> {
    Ok(Order::Draw {
        put_back: if w.eat("return") {
            Some(w.number("the chit to put back")? as u8)
        } else {
            None
        },
    })
}

/// `fortify HEX` or `fortify complete`.
fn parse_fortify(w: &mut Words) -> Result<Order, OrderError> {
    Ok(if w.eat("complete") {
        Order::Fortify(None)
    } else {
        Order::Fortify(Some(w.hex()?))
    })
}

/// `rebuild [complete] HEX`.
fn parse_rebuild(w: &mut Words) -> Result<Order, OrderError> {
    let complete = w.eat("complete");
    Ok(Order::Rebuild {
        hex: w.hex()?,
        complete,
    })
}

/// `activate palmyra` or `activate gaul` (8.15).
fn parse_activate(w: &mut Words) -> Result<Order, OrderError> {
    match w.next().map(str::to_ascii_lowercase).as_deref() {
        Some("palmyra") => Ok(Order::ActivatePalmyra),
        Some("gaul") => Ok(Order::ActivateGaul),
        _ => Err(w.err("activate palmyra or activate gaul").rule("8.15")),
    }
}

/// `demobilize UNITS...`, comma or space separated.
fn parse_demobilize(w: &mut Words) -> Result<Order, OrderError> {
    let mut v = Vec::new();
    while w.peek().is_some() {
        v.extend(w.units_csv()?);
    }
    Ok(Order::Demobilize(v))
}

/// `reclaim HEXES...` or `reclaim cavalry HEXES...`.
fn parse_reclaim(w: &mut Words) -> Result<Order, OrderError> {
    Ok(if w.eat("cavalry") {
        Order::Reclaim {
            pairs: Vec::new(),
            cavalry: w.hexes_until(&[])?,
        }
    } else {
        Order::Reclaim {
            pairs: w.hexes_until(&[])?,
            cavalry: Vec::new(),
        }
    })
}

/// `play N [at HEXES] [tp N] [return N,N]`: a chit played.
fn parse_play(w: &mut Words) -> Result<Order, OrderError> {
    let chit = w.number("the chit")? as u8;
    let mut tp = None;
    let mut at = Vec::new();
    let mut back = Vec::new();
    loop {
        if w.eat_once("tp")? {
            tp = Some(w.number("TP")?);
        } else if w.eat_once("return")? {
            let t = w.next().ok_or_else(|| w.err("chit numbers are missing"))?;
            for s in t.split(',') {
                back.push(
                    s.parse()
                        .map_err(|_| w.err(format!("{s:?} is not a chit number")))?,
                );
            }
        } else if w.eat_once("at")? {
            at = w.hexes_until(&["tp", "return"])?;
        } else {
            break;
        }
    }
    Ok(Order::Play { chit, tp, at, back })
}

/// `diplomacy coemperor|palmyra|TRIBE [salt N] [with 17]`.
fn parse_diplomacy(w: &mut Words) -> Result<Order, OrderError> {
    let t = w.next().ok_or_else(|| w.err("diplomacy with whom?"))?;
    let target = match t.to_ascii_lowercase().as_str() {
        "coemperor" => DipTarget::CoEmperor,
        "palmyra" => DipTarget::Palmyra,
        _ => DipTarget::Tribe(w.unit(t)?),
    };
    let (salt, agents) = salt_agents(w)?;
    Ok(Order::Diplomacy {
        target,
        salt,
        agents,
    })
}

/// `react N,N...` or `react none` (14.3).
fn parse_react(w: &mut Words) -> Result<Order, OrderError> {
    let mut v = Vec::new();
    if !w.eat("none") {
        while let Some(t) = w.next() {
            for c in t.split(',').filter(|c| !c.is_empty()) {
                v.push(
                    c.parse()
                        .map_err(|_| w.err(format!("{c:?} is not a chit number")))?,
                );
            }
        }
        if v.is_empty() {
            return Err(w.err("react N... or react none").rule("14.3"));
        }
    }
    Ok(Order::React(v))
}

/// `salt N [with 17]`: salt offered, with Agents in Enemy Camp (14.3).
fn parse_salt(w: &mut Words) -> Result<Order, OrderError> {
    let salt = w.number("salt")?;
    let agents = if w.eat("with") {
        if w.number("the chit")? != 17 {
            return Err(w
                .err("only Agents in Enemy Camp (17) goes with salt")
                .rule("14.3"));
        }
        true
    } else {
        false
    };
    Ok(Order::Salt { salt, agents })
}

fn salt_agents(w: &mut Words) -> Result<(u32, bool), OrderError> {
    let mut salt = 0;
    let mut agents = false;
    loop {
        if w.eat("salt") {
            salt = w.number("salt")?;
        } else if w.eat("with") {
            let n = w.number("the chit")?;
            if n != 17 {
                return Err(w
                    .err("only Agents in Enemy Camp (17) is played with diplomacy or treachery")
                    .rule("14.3"));
            }
            agents = true;
        } else {
            return Ok((salt, agents));
        }
    }
}

fn parse_move(w: &mut Words) -> Result<Order, OrderError> {
    let force = w.force("to")?;
    let mut path = Vec::new();
    let mut inspired = None;
    while let Some(t) = w.peek() {
        if w.eat("drop") {
            path.push(Step::Drop(w.units_csv()?));
        } else if w.eat("pick") {
            path.push(Step::Pick(w.units_csv()?));
        } else if w.eat("with") {
            inspired = Some(w.number("the chit")? as u8);
        } else if w.is_hex(t) {
            path.push(Step::To(w.hex()?));
        } else {
            w.i += 1;
            return Err(w.err(format!("{t:?}: expected a hex, `drop`, `pick` or `with`")));
        }
    }
    if !path.iter().any(|s| matches!(s, Step::To(_))) {
        return Err(w.err("a move needs at least one hex to enter").rule("12.2"));
    }
    Ok(Order::Move {
        force,
        path,
        inspired,
    })
}

fn parse_attack(w: &mut Words) -> Result<Order, OrderError> {
    let force = w.force("on")?;
    let target = w.hex()?;
    let mut a = Attack {
        force,
        target,
        chits: Vec::new(),
        advance: Advance::All,
        draw: true,
        losses: Vec::new(),
    };
    while w.peek().is_some() {
        if w.eat_once("with")? {
            let t = w.next().ok_or_else(|| w.err("chit numbers are missing"))?;
            for s in t.split(',') {
                a.chits.push(
                    s.parse()
                        .map_err(|_| w.err(format!("{s:?} is not a chit number")))?,
                );
            }
        } else if w.eat_once("advance")? {
            a.advance = match w.peek() {
                Some(t) if t.eq_ignore_ascii_case("all") => {
                    w.i += 1;
                    Advance::All
                }
                Some(t) if t.eq_ignore_ascii_case("none") => {
                    w.i += 1;
                    Advance::Stay
                }
                _ => Advance::Units(w.units_csv()?),
            };
        } else if w.eat_once("losses")? {
            a.losses = w.units_csv()?;
        } else if w.eat_once("nodraw")? {
            a.draw = false;
        } else {
            let t = w.next().unwrap_or_default();
            return Err(w.err(format!(
                "{t:?}: expected `with`, `advance`, `losses` or `nodraw`"
            )));
        }
    }
    Ok(Order::Attack(a))
}

fn parse_place(w: &mut Words, setup: bool) -> Result<Order, OrderError> {
    let mut tribes = Vec::new();
    let mut gunds = Vec::new();
    if setup && w.eat("auto") {
        return Ok(Order::Setup { tribes, gunds });
    }
    loop {
        if w.eat("tribes") {
            tribes = w.hexes_until(&["gunds"])?;
        } else if w.eat("gunds") {
            gunds = w.hexes_until(&["tribes"])?;
        } else if w.peek().is_none() {
            break;
        } else {
            w.i += 1;
            return Err(w.err("expected `tribes HEX...` or `gunds HEX...`"));
        }
    }
    Ok(if setup {
        Order::Setup { tribes, gunds }
    } else {
        Order::Place { tribes, gunds }
    })
}
