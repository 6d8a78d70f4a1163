//! Reading orders a person writes by hand. Syntax and lookups only: whether an
//! order is legal is decided by `apply`, against the state it meets.
//!
//! ```text
//! move du-song: ds.i1 0508 0608, ds.c1+ds.c2 0608 0708   # a unit (or stack) and its path
//! move liu-ting:                                        # one unit per line also works
//!   lt.i1 entry 1920                                    # `entry`: from off the map (9.0)
//! then combat: fire ds.f1 ds.f2 -> nh.h1                # `then`: the second action of a double
//! place du-song 0708                                    # command placement (2.3(3))
//! fire ds.f1 ds.f2 -> nh.h1                             # a combat action, one line per combat
//! charge ds.c1 -> nh.h1
//! attack 0807 with ds.i1 ds.c1 losses ds.i1             # attackers and own loss priority optional
//! rally ma-lin
//! pass | pass du-song | pass 3 | pass rest
//! end                                                   # close an open double action
//! losses nh.c1 nh.c1 | rout ds.i3 | displace ds 0708 | initiative first
//! ```
//!
//! Lines that do not start with a keyword continue the order above them.

use super::data::{CmdId, Data, Faction, UnitId, norm};
use super::state::{Decl, PassQueue, State};
use umpire_core::hex::Hex;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::OrderError;
use umpire_core::suggest::did_you_mean;

/// One step of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Into a hex.
    Hex(Hex),
    /// Onto the map at the command's entry hex (9.0).
    Entry,
}

/// A unit or stack and its path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSpec {
    /// The unit, or the units of a stack.
    pub units: Vec<UnitId>,
    /// The hexes entered, in order.
    pub path: Vec<Step>,
}

/// What an activation does (4.2, 5.0(2)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move units (4.2.1).
    Move(Vec<MoveSpec>),
    /// Fight, one combat per unit (4.2.2).
    Combat(Vec<Decl>),
    /// Remove disorganization (4.2.3).
    Rally,
}

impl Action {
    /// For messages.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Move(_) => "move",
            Action::Combat(_) => "combat",
            Action::Rally => "rally",
        }
    }
}

/// Whether a second action follows (5.0(3)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Double {
    /// A single action.
    No,
    /// A `then ACTION` order follows in the same move, costing this many
    /// AP (4.2.1-4.2.3): from version 2 the two actions' AP are checked
    /// before the first action's roll.
    Given(u32),
    /// A bare `then`: the player sends the second action after seeing the first.
    Open,
}

/// The answer to the initiative question (4.1(4)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitAnswer {
    /// The decider moves first.
    First,
    /// The other side moves first.
    Second,
    /// This side moves first.
    Side(Faction),
}

/// One order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Activate a command (4.2.1-4.2.3).
    Act {
        /// The command activated.
        cmd: CmdId,
        /// What it does.
        action: Action,
        /// Whether a second action follows.
        double: Double,
        /// Where to put the command at the end of the phase.
        place: Option<Hex>,
    },
    /// The second action of a double (5.0(3)).
    Then {
        /// The command, if named (it must be the first action's).
        cmd: Option<CmdId>,
        /// What it does.
        action: Action,
        /// Where to put the command at the end of the phase.
        place: Option<Hex>,
    },
    /// Pass (4.2.4), optionally queueing more passes for later phases.
    Pass {
        /// The command whose Action marker the pass removes, if named.
        cmd: Option<CmdId>,
        /// Passes queued for the side's later phases.
        more: PassQueue,
    },
    /// Passes queued after another order of the same move (version 3):
    /// the side passes its action phases that follow, as if it had sent
    /// `pass N` or `pass rest` in each (4.2.4). Parsed into place before
    /// the order it follows.
    Queue {
        /// The passes queued: `Count(n)` for the next n phases, or the rest of the turn.
        more: PassQueue,
    },
    /// Close an open phase, optionally placing the command.
    End {
        /// A command placement to make as the phase closes.
        place: Option<(Option<CmdId>, Hex)>,
    },
    /// D1 answer.
    Losses(Vec<UnitId>),
    /// D2 answer.
    Rout(UnitId),
    /// D3 answer; `None`: off the map.
    Displace {
        /// The lone command.
        cmd: CmdId,
        /// Where it goes.
        to: Option<Hex>,
    },
    /// D4 answer.
    Initiative(InitAnswer),
}

/// A unit by id.
pub fn lookup_unit(d: &Data, w: &str) -> Result<UnitId, String> {
    let w = w.trim_end_matches(':');
    d.unit_index(w).map(UnitId::at).ok_or_else(|| {
        let near = did_you_mean(w, d.units.iter().map(|u| u.id.as_str()));
        if !near.is_empty() {
            return format!("no unit {w}{near}");
        }
        match w.split_once('.').and_then(|(c, _)| d.command_index(c)) {
            Some(c) => {
                let ids: Vec<&str> = d
                    .units
                    .iter()
                    .filter(|u| u.cmd.index() == c)
                    .map(|u| u.id.as_str())
                    .collect();
                format!(
                    "no unit {w:?}; {}'s units are {}",
                    d.commands[c].name,
                    ids.join(" ")
                )
            }
            None => format!("no unit {w:?}; unit ids look like ds.i1 (see the map legend)"),
        }
    })
}

/// A command by id, name or alias.
pub fn lookup_command(d: &Data, w: &str) -> Result<CmdId, String> {
    let w = w.trim_end_matches(':');
    d.command_index(w).map(CmdId::at).ok_or_else(|| {
        let names: Vec<String> = d
            .commands
            .iter()
            .map(|c| format!("{} ({})", norm(&c.name), c.id))
            .collect();
        // By id or by name, as the order takes either.
        let spelled: Vec<String> = d.commands.iter().map(|c| norm(&c.name)).collect();
        let near = did_you_mean(
            w,
            d.commands
                .iter()
                .map(|c| c.id.as_str())
                .chain(spelled.iter().map(String::as_str)),
        );
        format!("no command {w:?}{near}; commands are {}", names.join(", "))
    })
}

/// A hex by `CCRR` label or place name, on the map.
pub fn lookup_hex(d: &Data, w: &str) -> Result<Hex, String> {
    if let Ok(h) = w.parse::<Hex>() {
        return if d.on_map(h) {
            Ok(h)
        } else {
            Err(format!("hex {h} is off the map (6.0(4))"))
        };
    }
    d.find_place(w).map(|p| p.hex).ok_or_else(|| {
        format!("{w:?} is neither a hex (four digits, e.g. 0712) nor a place on the map")
    })
}

fn is_hex_chain(w: &str) -> bool {
    w.contains('-')
        && w.split('-')
            .all(|p| p.len() == 4 && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Lower-cased words; `,` `;` `:` and `->` are words of their own; `0712-0713`
/// and `a+b` split.
fn tokens(text: &str) -> Vec<String> {
    let s = text
        .to_ascii_lowercase()
        .replace("->", " -> ")
        .replace(',', " , ")
        .replace(';', " ; ")
        .replace(':', " : ");
    let mut out = Vec::new();
    for w in s.split_whitespace() {
        if is_hex_chain(w) {
            out.extend(w.split('-').map(str::to_string));
        } else if w.contains('+') && w != "+" {
            for (i, p) in w.split('+').enumerate() {
                if i > 0 {
                    out.push("+".into());
                }
                if !p.is_empty() {
                    out.push(p.to_string());
                }
            }
        } else {
            out.push(w.to_string());
        }
    }
    out
}

struct P<'a> {
    d: &'a Data,
    st: &'a State,
    side: Faction,
    line: &'a SourceLine,
}

impl P<'_> {
    fn err(&self, m: impl Into<String>) -> OrderError {
        OrderError::at(self.line, m)
    }
    fn unit(&self, w: &str) -> Result<UnitId, OrderError> {
        lookup_unit(self.d, w).map_err(|m| self.err(m))
    }
    fn command(&self, w: &str) -> Result<CmdId, OrderError> {
        lookup_command(self.d, w).map_err(|m| self.err(m))
    }
    fn hex(&self, w: &str) -> Result<Hex, OrderError> {
        lookup_hex(self.d, w).map_err(|m| self.err(m))
    }
    fn is_unit(&self, w: &str) -> bool {
        self.d.unit_index(w).is_some()
    }

    /// `UNITS PATH {, UNITS PATH}`.
    fn moves(&self, toks: &[String], out: &mut Vec<MoveSpec>) -> Result<(), OrderError> {
        let mut cur = MoveSpec {
            units: Vec::new(),
            path: Vec::new(),
        };
        let finish = |cur: &mut MoveSpec, out: &mut Vec<MoveSpec>| -> Result<(), OrderError> {
            match (cur.units.is_empty(), cur.path.is_empty()) {
                (true, true) => Ok(()),
                (false, false) => {
                    out.push(std::mem::replace(
                        cur,
                        MoveSpec {
                            units: Vec::new(),
                            path: Vec::new(),
                        },
                    ));
                    Ok(())
                }
                (true, false) => {
                    Err(self.err("a path needs the unit that moves first: `ds.i1 0712 0713`"))
                }
                (false, true) => Err(self.err(format!(
                    "{} needs a path: the hexes it moves through, e.g. `{} 0712 0713`",
                    self.d.units[cur.units[0]].id, self.d.units[cur.units[0]].id
                ))),
            }
        };
        for t in toks {
            match t.as_str() {
                "," | ";" | "+" | ":" | "to" | "via" => {
                    if t == "," || t == ";" {
                        finish(&mut cur, out)?;
                    }
                }
                "entry" | "enter" | "off" | "offmap" | "off-map" => cur.path.push(Step::Entry),
                w if self.is_unit(w) => {
                    if !cur.path.is_empty() {
                        finish(&mut cur, out)?;
                    }
                    cur.units.push(self.unit(w)?);
                }
                // A mistyped unit id (hex labels hold no dot): name the nearest.
                w if w.contains('.') => {
                    let u = self.unit(w)?;
                    if !cur.path.is_empty() {
                        finish(&mut cur, out)?;
                    }
                    cur.units.push(u);
                }
                w => {
                    if cur.units.is_empty() {
                        return Err(self.err(format!(
                            "{w:?}: expected a unit id (e.g. ds.i1) before its path"
                        )));
                    }
                    cur.path.push(Step::Hex(self.hex(w)?));
                }
            }
        }
        finish(&mut cur, out)
    }

    /// `fire UNITS -> UNIT`, `charge UNITS -> UNIT`, `attack HEX [with UNITS|CMD] [losses UNITS]`.
    fn decl(&self, toks: &[String], hint: Option<CmdId>) -> Result<(CmdId, Decl), OrderError> {
        let kind = toks[0].as_str();
        let rest = &toks[1..];
        match kind {
            "fire" | "charge" => {
                let arrow = rest
                    .iter()
                    .position(|t| t == "->" || t == "at")
                    .ok_or_else(|| {
                        self.err(format!(
                            "write `{kind} UNIT [UNIT...] -> TARGET`, e.g. `{kind} ds.c1 -> nh.h1`"
                        ))
                    })?;
                let units = rest[..arrow]
                    .iter()
                    .filter(|t| !matches!(t.as_str(), "+" | ","))
                    .map(|t| self.unit(t))
                    .collect::<Result<Vec<_>, _>>()?;
                if units.is_empty() {
                    return Err(self.err(format!("`{kind}` needs the units that {kind}")));
                }
                let target = match &rest[arrow + 1..] {
                    [t] => self.unit(t)?,
                    _ => {
                        return Err(self.err(format!(
                            "`{kind}` names one target unit after `->` (7.1, 7.2)"
                        )));
                    }
                };
                let cmd = self.d.units[units[0]].cmd;
                Ok((
                    cmd,
                    if kind == "fire" {
                        Decl::Fire { units, target }
                    } else {
                        Decl::Charge { units, target }
                    },
                ))
            }
            _ => {
                let Some(h) = rest.first() else {
                    return Err(self.err("write `attack HEX`, e.g. `attack 0813` (7.3)"));
                };
                let hex = self.hex(h)?;
                let mut units = Vec::new();
                let mut losses = Vec::new();
                let mut cmd = None;
                let mut mode = "";
                for t in &rest[1..] {
                    match t.as_str() {
                        "with" | "losses" | "loss" => mode = t.as_str(),
                        "," | "+" | ":" => {}
                        w if mode == "losses" || mode == "loss" => losses.push(self.unit(w)?),
                        w if self.is_unit(w) => units.push(self.unit(w)?),
                        w => cmd = Some(self.command(w)?),
                    }
                }
                let cmd = match (cmd, units.first()) {
                    (Some(c), _) => c,
                    (None, Some(u)) => self.d.units[*u].cmd,
                    (None, None) => self.attack_command(hex, hint)?,
                };
                Ok((cmd, Decl::Attack { hex, units, losses }))
            }
        }
    }

    /// The command an `attack HEX` means: the one named before, else the only
    /// own command with units there.
    fn attack_command(&self, hex: Hex, hint: Option<CmdId>) -> Result<CmdId, OrderError> {
        let mut cmds: Vec<CmdId> = self
            .st
            .side_at(self.d, hex, self.side)
            .map(|u| self.d.units[u].cmd)
            .collect();
        cmds.dedup();
        if let Some(h) = hint
            && (cmds.contains(&h) || cmds.is_empty())
        {
            return Ok(h);
        }
        match cmds.as_slice() {
            [c] => Ok(*c),
            [] => Err(self.err(format!("attack {hex}: none of your units is there (7.3)"))),
            _ => Err(self.err(format!(
                "attack {hex}: units of several commands are there; name one, e.g. `attack {hex} with {}`",
                self.d.commands[cmds[0]].id
            ))),
        }
    }

    /// Splits a decl list on `;`.
    fn decls(
        &self,
        toks: &[String],
        hint: Option<CmdId>,
    ) -> Result<Vec<(CmdId, Decl)>, OrderError> {
        let mut out = Vec::new();
        for part in toks.split(|t| t == ";") {
            let part: Vec<String> = part.to_vec();
            if part.is_empty() {
                continue;
            }
            if !matches!(part[0].as_str(), "fire" | "charge" | "attack") {
                return Err(self.err(format!(
                    "{:?}: a combat is `fire ...`, `charge ...` or `attack HEX` (7.0)",
                    part[0]
                )));
            }
            let h = out.last().map(|(c, _): &(CmdId, Decl)| *c).or(hint);
            out.push(self.decl(&part, h)?);
        }
        Ok(out)
    }

    /// `move|combat|rally CMD[:] rest`.
    fn action(
        &self,
        kw: &str,
        toks: &[String],
        cmd: Option<CmdId>,
    ) -> Result<(Option<CmdId>, Action), OrderError> {
        let mut rest = toks;
        let mut cmd = cmd;
        if let Some(first) = rest.first()
            && first != ":"
            && !self.is_unit(first)
            && !matches!(first.as_str(), "fire" | "charge" | "attack")
            && self.d.command_index(first).is_some()
        {
            cmd = Some(self.command(first)?);
            rest = &rest[1..];
        } else if let Some(first) = rest.first()
            && (first.ends_with(':') || rest.get(1).is_some_and(|t| t == ":"))
            && !first.contains('.')
            && !self.is_unit(first)
            && !matches!(
                first.as_str(),
                ":" | ","
                    | ";"
                    | "+"
                    | "to"
                    | "via"
                    | "entry"
                    | "enter"
                    | "off"
                    | "offmap"
                    | "off-map"
                    | "fire"
                    | "charge"
                    | "attack"
            )
        {
            // `move du-sung: …`: a word before the colon is a command; a
            // mistyped one is named with the nearest, not read as a unit.
            self.command(first)?;
        }
        if rest.first().is_some_and(|t| t == ":") {
            rest = &rest[1..];
        }
        let action = match kw {
            "move" => {
                let mut specs = Vec::new();
                self.moves(rest, &mut specs)?;
                Action::Move(specs)
            }
            "combat" => {
                let ds = self.decls(rest, cmd)?;
                if let (Some(c), Some((dc, _))) = (cmd, ds.iter().find(|(dc, _)| Some(*dc) != cmd))
                    && *dc != c
                {
                    return Err(self.err(format!(
                        "{} is activated; {}'s units cannot fight in its action (2.4(7))",
                        self.d.commands[c].name, self.d.commands[*dc].name
                    )));
                }
                if cmd.is_none() {
                    cmd = ds.first().map(|(c, _)| *c);
                }
                Action::Combat(ds.into_iter().map(|(_, d)| d).collect())
            }
            _ => {
                if !rest.is_empty() {
                    return Err(self.err("write `rally COMMAND`, e.g. `rally ma-lin` (4.2.3)"));
                }
                Action::Rally
            }
        };
        Ok((cmd, action))
    }
}

/// The command of the action an order continues.
fn action_cmd(orders: &[(SourceLine, Order)], st: &State) -> Option<CmdId> {
    match orders.last().map(|(_, o)| o) {
        Some(Order::Act { cmd, .. }) => Some(*cmd),
        Some(Order::Then { cmd, .. }) => cmd
            .or_else(|| {
                orders.iter().rev().find_map(|(_, o)| match o {
                    Order::Act { cmd, .. } => Some(*cmd),
                    _ => None,
                })
            })
            .or(st.phase.cmd),
        _ => None,
    }
}

/// Reads a move's order lines (the first error only).
pub fn parse(
    d: &Data,
    st: &State,
    side: Faction,
    lines: &[SourceLine],
) -> Result<Vec<(SourceLine, Order)>, OrderError> {
    parse_all(d, st, side, lines).map_err(|mut e| e.remove(0))
}

/// Reads a move's order lines, reporting every line that does not read. The
/// path lines under a `move` line that failed are not reported again.
pub fn parse_all(
    d: &Data,
    st: &State,
    side: Faction,
    lines: &[SourceLine],
) -> Result<Vec<(SourceLine, Order)>, Vec<OrderError>> {
    let mut out: Vec<(SourceLine, Order)> = Vec::new();
    let mut errors = Vec::new();
    let mut failed = false;
    for line in lines {
        let p = P { d, st, side, line };
        let toks = tokens(&line.text);
        let Some(kw) = toks.first().cloned() else {
            continue;
        };
        if failed && p.is_unit(&kw) {
            continue;
        }
        failed = false;
        if let Err(e) = parse_line(&p, &kw, &toks, &mut out) {
            errors.push(e);
            failed = true;
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// The orders of one line; a line may add to the order before it.
type Orders = Vec<(SourceLine, Order)>;

/// Reads one order line into `out`, by its keyword.
fn parse_line(p: &P<'_>, kw: &str, toks: &[String], out: &mut Orders) -> Result<(), OrderError> {
    let rest = &toks[1..];
    // Queued passes close the mail: an order after them would be carried
    // out after the action's dice, where nothing may fail any more.
    if out.iter().any(|(_, o)| matches!(o, Order::Queue { .. })) {
        return Err(p.err(format!(
            "nothing follows the queued passes: {ONE_MAIL} (4.2.4)"
        )));
    }
    match kw {
        "move" | "combat" | "rally" => action_line(p, kw, rest, out),
        "fire" | "charge" | "attack" => combat_line(p, toks, out),
        "then" => then_line(p, rest, out),
        "place" => place_line(p, rest, out),
        "end" => {
            if !rest.is_empty() {
                return Err(p.err("`end` stands alone; it closes an open action phase"));
            }
            out.push((p.line.clone(), Order::End { place: None }));
            Ok(())
        }
        "pass" => pass_line(p, rest, out),
        "losses" | "loss" => losses_line(p, rest, out),
        "rout" => match rest {
            [u] => {
                out.push((p.line.clone(), Order::Rout(p.unit(u)?)));
                Ok(())
            }
            _ => Err(p.err("write `rout UNIT` (7.6(1))")),
        },
        "displace" => displace_line(p, rest, out),
        "initiative" => initiative_line(p, rest, out),
        w if p.is_unit(w) => unit_path_line(p, w, toks, out),
        w => Err(p.err(format!(
            "{w:?} is not an order; orders are move, combat, fire, charge, attack, rally, pass, then, place, end, losses, rout, displace, initiative"
        ))),
    }
}

/// `move|combat|rally COMMAND: ...`: a command's action (4.2).
fn action_line(p: &P<'_>, kw: &str, rest: &[String], out: &mut Orders) -> Result<(), OrderError> {
    let (cmd, action) = p.action(kw, rest, None)?;
    let cmd = cmd.ok_or_else(|| p.err(format!("name the command: `{kw} du-song: ...` (4.2)")))?;
    out.push((
        p.line.clone(),
        Order::Act {
            cmd,
            action,
            double: Double::No,
            place: None,
        },
    ));
    Ok(())
}

/// `fire|charge|attack ...`: combats, joined to the combat action they
/// belong to (7.0(1)).
fn combat_line(p: &P<'_>, toks: &[String], out: &mut Orders) -> Result<(), OrderError> {
    let hint = action_cmd(out, p.st);
    for (cmd, decl) in p.decls(toks, hint)? {
        let joined = match out.last_mut().map(|(_, o)| o) {
            Some(Order::Act {
                cmd: c,
                action: Action::Combat(ds),
                ..
            }) if *c == cmd => {
                ds.push(decl.clone());
                true
            }
            Some(Order::Then {
                action: Action::Combat(ds),
                ..
            }) if hint == Some(cmd) => {
                ds.push(decl.clone());
                true
            }
            _ => false,
        };
        if !joined {
            out.push((
                p.line.clone(),
                Order::Act {
                    cmd,
                    action: Action::Combat(vec![decl]),
                    double: Double::No,
                    place: None,
                },
            ));
        }
    }
    Ok(())
}

/// `then [ACTION]`: the second action of a double, or a phase kept open (5.0(3)).
fn then_line(p: &P<'_>, rest: &[String], out: &mut Orders) -> Result<(), OrderError> {
    let d = p.d;
    let second = second_action(p, rest, action_cmd(out, p.st))?;
    let double = match &second {
        None => Double::Open,
        Some((_, a)) => Double::Given(super::turn::cost(d, p.side, a)),
    };
    let first = match out.last_mut().map(|(_, o)| o) {
        Some(Order::Act {
            cmd, double: dbl, ..
        }) => {
            *dbl = double;
            Some(*cmd)
        }
        Some(_) => {
            return Err(p.err(
                "`then` gives the second action of a double; it follows the first action (5.0(3))",
            ));
        }
        None if rest.is_empty() => {
            return Err(
                p.err("a bare `then` keeps a phase open after an action; it follows one (5.0(3))")
            );
        }
        None => None,
    };
    if let Some((cmd, action)) = second {
        // Version 2: another command's second action is refused
        // here, before the first action's roll (version 1 carried
        // the first out and then refused the second).
        if let (Some(a), Some(b)) = (first, cmd)
            && a != b
            && d.version >= 2
        {
            return Err(p.err(format!(
                "the second action must be {}'s, who makes the first (5.0(3))",
                d.commands[a].name
            )));
        }
        out.push((
            p.line.clone(),
            Order::Then {
                cmd,
                action,
                place: None,
            },
        ));
    }
    Ok(())
}

/// The action a `then` line gives, if any (5.0(2)).
fn second_action(
    p: &P<'_>,
    rest: &[String],
    prev: Option<CmdId>,
) -> Result<Option<(Option<CmdId>, Action)>, OrderError> {
    let Some(akw) = rest.first() else {
        return Ok(None);
    };
    Ok(Some(match akw.as_str() {
        "move" | "combat" | "rally" => p.action(akw, &rest[1..], None)?,
        "fire" | "charge" | "attack" => {
            let ds = p.decls(rest, prev)?;
            (
                ds.first().map(|(c, _)| *c),
                Action::Combat(ds.into_iter().map(|(_, d)| d).collect()),
            )
        }
        other => {
            return Err(p.err(format!(
                "`then {other}`: the second action is move, combat or rally (5.0(2))"
            )));
        }
    }))
}

/// `place [COMMAND] HEX`: where the activated command goes (2.3(3)).
fn place_line(p: &P<'_>, rest: &[String], out: &mut Orders) -> Result<(), OrderError> {
    let (cmd, hex) = match rest {
        [h] => (None, p.hex(h)?),
        [c, h] => (Some(p.command(c)?), p.hex(h)?),
        _ => {
            return Err(p.err("write `place COMMAND HEX`, e.g. `place du-song 0708` (2.3(3))"));
        }
    };
    let attached = match out.last_mut().map(|(_, o)| o) {
        Some(Order::Act { cmd: c, place, .. }) if cmd.is_none_or(|x| x == *c) => {
            *place = Some(hex);
            true
        }
        Some(Order::Then { place, .. }) => {
            *place = Some(hex);
            true
        }
        _ => false,
    };
    if !attached {
        out.push((
            p.line.clone(),
            Order::End {
                place: Some((cmd, hex)),
            },
        ));
    }
    Ok(())
}

/// What one mail may hold, for refusals of a mail that holds more (4.2, 4.2.4).
pub const ONE_MAIL: &str = "one mail holds your action phase (one action, or two with `then`, or `pass [COMMAND]`), \
then optionally one `pass`, `pass N` or `pass rest` queueing passes for your phases that follow in this turn";

/// `pass [COMMAND] [N|rest]`: this phase and queued ones; after another
/// order of the same move (version 3), the side's next phases only.
fn pass_line(p: &P<'_>, rest: &[String], out: &mut Orders) -> Result<(), OrderError> {
    let (cmd, more, n) = pass_words(p, rest)?;
    if p.d.version >= 3 && !out.is_empty() {
        return queue_line(p, cmd, more, n, out);
    }
    out.push((p.line.clone(), Order::Pass { cmd, more }));
    Ok(())
}

/// A pass after another order in the same move: passes queued for the
/// side's phases that follow, exactly as standing passes (4.2.4).
fn queue_line(
    p: &P<'_>,
    cmd: Option<CmdId>,
    more: PassQueue,
    n: Option<u32>,
    out: &mut Orders,
) -> Result<(), OrderError> {
    if let Some(c) = cmd {
        return Err(p.err(format!(
            "a pass after another order in the same mail is queued for your next phases and names no command; \
to remove {}'s Action marker, send `pass {}` in a mail of its own (4.2.4): {ONE_MAIL}",
            p.d.commands[c].name, p.d.commands[c].id
        )));
    }
    let more = match (more, n) {
        (PassQueue::Rest, _) => PassQueue::Rest,
        (_, Some(k)) => PassQueue::Count(k),
        (_, None) => PassQueue::Count(1),
    };
    // The queue goes in before the order it follows, so that it stands
    // when that order's phase ends and the side's later phases begin (the
    // side is no longer asked to act once its phase is over).
    let at = out.len().saturating_sub(1);
    out.insert(at, (p.line.clone(), Order::Queue { more }));
    Ok(())
}

/// The words of a `pass` line: the command named, the passes queued after
/// this phase's, and the number written, if any.
fn pass_words(
    p: &P<'_>,
    rest: &[String],
) -> Result<(Option<CmdId>, PassQueue, Option<u32>), OrderError> {
    let mut cmd = None;
    let mut more = PassQueue::None;
    let mut count = None;
    for t in rest {
        match t.as_str() {
            "rest" | "all" => more = PassQueue::Rest,
            ":" => {}
            n if n.bytes().all(|b| b.is_ascii_digit()) => {
                let k: u32 = n
                    .parse()
                    .map_err(|_| p.err(format!("{n} is not a number of passes")))?;
                if k == 0 || k > 99 {
                    return Err(p.err("pass 1 to 99 phases"));
                }
                count = Some(k);
                more = if k > 1 {
                    PassQueue::Count(k - 1)
                } else {
                    PassQueue::None
                };
            }
            w => cmd = Some(p.command(w)?),
        }
    }
    Ok((cmd, more, count))
}

/// `losses UNIT [UNIT]`: one unit per step lost (7.0(2)).
fn losses_line(p: &P<'_>, rest: &[String], out: &mut Orders) -> Result<(), OrderError> {
    let us = rest
        .iter()
        .filter(|t| !matches!(t.as_str(), "," | "+" | ":"))
        .map(|t| p.unit(t))
        .collect::<Result<Vec<_>, _>>()?;
    if us.is_empty() {
        return Err(p.err("write `losses UNIT [UNIT]`, one unit per step (7.0(2))"));
    }
    out.push((p.line.clone(), Order::Losses(us)));
    Ok(())
}

/// `displace COMMAND HEX|offmap`: where a lone command goes (7.0(3)).
fn displace_line(p: &P<'_>, rest: &[String], out: &mut Orders) -> Result<(), OrderError> {
    let r: Vec<&String> = rest.iter().filter(|t| *t != ":").collect();
    match r.as_slice() {
        [c, h] => {
            let cmd = p.command(c)?;
            let to = if matches!(h.as_str(), "offmap" | "off-map" | "off") {
                None
            } else {
                Some(p.hex(h)?)
            };
            out.push((p.line.clone(), Order::Displace { cmd, to }));
            Ok(())
        }
        _ => Err(p.err("write `displace COMMAND HEX` (7.0(3))")),
    }
}

/// `initiative first|second|SIDE`: the higher roller's choice (4.1(4)).
fn initiative_line(p: &P<'_>, rest: &[String], out: &mut Orders) -> Result<(), OrderError> {
    let a = match rest.iter().find(|t| *t != ":").map(String::as_str) {
        Some("first") => InitAnswer::First,
        Some("second") => InitAnswer::Second,
        Some("ming") => InitAnswer::Side(Faction::Ming),
        Some("jurchen") => InitAnswer::Side(Faction::Jurchen),
        _ => {
            return Err(p.err("write `initiative first` or `initiative second` (4.1(4))"));
        }
    };
    out.push((p.line.clone(), Order::Initiative(a)));
    Ok(())
}

/// `UNIT PATH...`: a unit's path, continuing a move order's line.
fn unit_path_line(p: &P<'_>, w: &str, toks: &[String], out: &mut Orders) -> Result<(), OrderError> {
    let d = p.d;
    match out.last_mut().map(|(_, o)| o) {
        Some(Order::Act {
            action: Action::Move(specs),
            ..
        })
        | Some(Order::Then {
            action: Action::Move(specs),
            ..
        }) => p.moves(toks, specs),
        _ => Err(p.err(format!(
            "{w}: a unit's path continues a `move COMMAND:` order; start with `move {}: {w} ...`",
            d.commands[d.units[d.unit_index(w).unwrap_or(0)].cmd].id
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Options;

    fn lines(t: &[&str]) -> Vec<SourceLine> {
        t.iter()
            .enumerate()
            .map(|(i, s)| SourceLine {
                line: i + 5,
                column: 3,
                text: s.to_string(),
            })
            .collect()
    }

    fn go(t: &[&str]) -> Result<Vec<(SourceLine, Order)>, OrderError> {
        let d = Data::embedded().unwrap();
        let st = State::new(&d, Options::default());
        parse(&d, &st, Faction::Ming, &lines(t))
    }

    #[test]
    fn tokens_split_paths_and_stacks() {
        assert_eq!(
            tokens("move DS: ds.i1+ds.i2 0508-0608, x"),
            [
                "move", "ds", ":", "ds.i1", "+", "ds.i2", "0508", "0608", ",", "x"
            ]
        );
        assert_eq!(tokens("fire a->b"), ["fire", "a", "->", "b"]);
        assert_eq!(tokens("attack jilin-cliff"), ["attack", "jilin-cliff"]);
    }

    #[test]
    fn a_move_spans_lines() {
        let o = go(&[
            "move du-song:",
            "ds.i1 0508 0608",
            "ds.c1 ds.c2 0608 0708, ds.i2 0608",
        ])
        .unwrap();
        assert_eq!(o.len(), 1);
        let Order::Act {
            action: Action::Move(specs),
            ..
        } = &o[0].1
        else {
            panic!()
        };
        assert_eq!(specs.len(), 3);
        assert_eq!(specs[1].units.len(), 2);
        assert_eq!(o[0].0.line, 5);
    }

    #[test]
    fn combat_lines_group_and_then_marks_a_double() {
        let o = go(&[
            "fire ds.f1 ds.f2 -> da.i1",
            "charge ds.c1 -> da.i1",
            "then move: ds.i1 0608",
            "place ds 0608",
        ])
        .unwrap();
        assert_eq!(o.len(), 2);
        assert!(
            matches!(&o[0].1, Order::Act { double: Double::Given(_), action: Action::Combat(ds), .. } if ds.len() == 2)
        );
        assert!(matches!(&o[1].1, Order::Then { place: Some(_), .. }));
    }

    #[test]
    fn errors_name_the_line() {
        let e = go(&["pass", "move du-song: ds.x9 0508"]).unwrap_err();
        assert_eq!(e.line, 6);
        assert!(e.message.contains("ds.x9"), "{}", e.message);
        let e = go(&["advance!"]).unwrap_err();
        assert!(e.message.contains("not an order"));
    }

    /// A mistyped command before the colon is named with the nearest
    /// command, not read as a unit with no id; a mistyped unit still gets
    /// the nearest unit.
    #[test]
    fn a_mistyped_command_gets_did_you_mean() {
        let e = go(&["move du-sung: ds.i1 0508"]).unwrap_err();
        assert!(
            e.message.contains("no command") && e.message.contains("did you mean du-song"),
            "{}",
            e.message
        );
        let e = go(&["move ds.i9: 0508"]).unwrap_err();
        assert!(e.message.contains("no unit"), "{}", e.message);
    }

    #[test]
    fn every_bad_line_is_reported_with_a_suggestion() {
        let d = Data::embedded().unwrap();
        let st = State::new(&d, Options::default());
        let e = parse_all(
            &d,
            &st,
            Faction::Ming,
            &lines(&[
                "move ds: ds.c9 0301",
                "ds.i1 0201",
                "pass",
                "advance!",
                "rout",
            ]),
        )
        .unwrap_err();
        // The path line under the failed `move` is not reported again.
        assert_eq!(e.iter().map(|e| e.line).collect::<Vec<_>>(), [5, 8, 9]);
        assert!(
            e[0].message.contains("no unit ds.c9; did you mean "),
            "{}",
            e[0].message
        );
        assert!(e[2].message.contains("7.6(1)"), "{}", e[2].message);
    }

    #[test]
    fn garbage_never_panics() {
        let words = [
            "move",
            "combat",
            "fire",
            "charge",
            "attack",
            "rally",
            "pass",
            "then",
            "place",
            "end",
            "losses",
            "rout",
            "displace",
            "initiative",
            "ds",
            "du-song:",
            "ds.i1",
            "nh.h1",
            "->",
            ",",
            ";",
            ":",
            "+",
            "0508",
            "0508-0608",
            "9999",
            "hetuala",
            "entry",
            "with",
            "rest",
            "0",
            "100",
            "first",
            "ds.i1+",
            "+ds.i2",
            "-",
            "at",
            "offmap",
            "é",
            "",
        ];
        // Every pair and many triples of words, as one or two lines.
        let d = Data::embedded().unwrap();
        let st = State::new(&d, Options::default());
        let mut n = 0;
        for a in words {
            for b in words {
                for c in ["", "ds.c1", "0608", "->", "rest"] {
                    let _ = parse(&d, &st, Faction::Ming, &lines(&[&format!("{a} {b} {c}")]));
                    let _ = parse(&d, &st, Faction::Jurchen, &lines(&[a, &format!("{b} {c}")]));
                    n += 2;
                }
            }
        }
        assert!(n > 1000);
    }

    #[test]
    fn passes_and_decisions_read() {
        let o = go(&["pass 3 du-song"]).unwrap();
        assert_eq!(
            o[0].1,
            Order::Pass {
                cmd: Some(CmdId(0)),
                more: PassQueue::Count(2)
            }
        );
        assert!(
            matches!(go(&["losses ds.c1 ds.c1"]).unwrap()[0].1, Order::Losses(ref v) if v.len() == 2)
        );
        assert!(matches!(
            go(&["initiative second"]).unwrap()[0].1,
            Order::Initiative(InitAnswer::Second)
        ));
        assert!(matches!(
            go(&["displace du-song hetuala"]).unwrap()[0].1,
            Order::Displace { to: Some(_), .. }
        ));
    }
}
