//! The game state: everything that changes during play. Static data (map,
//! counters, tables) stays in [`Data`]; the state is small so that hashing it
//! after every move stays cheap.

use super::data::{CmdId, Data, Faction, SetupAt, UnitId};
use super::standing::Standing;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use umpire_core::hex::Hex;
use umpire_core::ruleset::Outcome;

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Loc {
    /// On the map.
    Hex(Hex),
    /// Off the map, waiting to enter (9.0).
    OffMap,
    /// Eliminated (or, for a command, defeated: 7.6).
    Gone,
    /// Not in play (a unit the 10.0 variant replaces, or the other way round).
    Out,
}

impl Loc {
    /// The hex, if on the map.
    pub fn hex(self) -> Option<Hex> {
        match self {
            Loc::Hex(h) => Some(h),
            _ => None,
        }
    }
}

/// A combat unit's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    /// Where it is.
    pub loc: Loc,
    /// Flipped to its reduced side (2.4(2)).
    pub reduced: bool,
    /// Disorganized marker (2.5.3, 7.5).
    pub dis: bool,
    /// Entered a Pass or Fort: no more movement this turn (6.1(1), ruling A15).
    pub stopped: bool,
    /// Has been in a Plain hex during this action phase (6.1(2), ruling A16).
    pub plain: bool,
}

/// A command unit's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CmdState {
    /// Where it is (`Gone`: defeated).
    pub loc: Loc,
    /// Activations this turn since its last pass: the Action marker (2.5.5).
    pub acts: u8,
    /// Flipped: it made its double action this turn (2.3(1), 5.0(3)).
    pub double_used: bool,
}

/// Passes queued for later action phases (`pass 3`, `pass rest`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum PassQueue {
    #[default]
    /// No pass queued.
    None,
    /// This many more passes.
    Count(u32),
    /// Pass every remaining phase of the turn.
    Rest,
}

/// The action phase in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phase {
    /// Whose action phase it is.
    pub side: Faction,
    /// Number of the phase in the turn, from 1.
    pub no: u32,
    /// The command activated in it (one per phase, 1.0).
    pub cmd: Option<CmdId>,
    /// Actions taken by that command in this phase (2 = double action).
    pub actions: u8,
    /// A second action was announced (`then`).
    pub double: bool,
    /// Waiting for the second action or `end`.
    pub open: bool,
    /// Where the activated command unit goes at the end of the phase (2.3(3)).
    pub place: Option<Hex>,
    /// Units activated by the current action (5.0(1)).
    pub chain: Vec<UnitId>,
    /// Units that have fought in the current combat action (7.0(1)).
    pub fought: Vec<UnitId>,
    /// Hexes attacked in the current combat action (ruling A22).
    pub attacked: Vec<Hex>,
}

impl Phase {
    /// A fresh phase.
    pub fn new(side: Faction, no: u32) -> Phase {
        Phase {
            side,
            no,
            cmd: None,
            actions: 0,
            double: false,
            open: false,
            place: None,
            chain: Vec::new(),
            fought: Vec::new(),
            attacked: Vec::new(),
        }
    }
}

/// One combat a combat action declared (7.0(1)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decl {
    /// Fire by units of one hex at one enemy combat unit (7.1).
    Fire {
        /// The firing units.
        units: Vec<UnitId>,
        /// The enemy combat unit fired at.
        target: UnitId,
    },
    /// Charge by cavalry/horse archers of one hex at an adjacent enemy (7.2).
    Charge {
        /// The charging units.
        units: Vec<UnitId>,
        /// The enemy combat unit charged.
        target: UnitId,
    },
    /// Attack on the enemy in a hex (7.3); `units` empty: every activated unit there.
    Attack {
        /// The hex attacked.
        hex: Hex,
        /// The attackers, if the order names them.
        units: Vec<UnitId>,
        /// Own loss priority if the attack fails (D1 given in the order).
        losses: Vec<UnitId>,
    },
}

/// Work still to do, in order. Kept in the state so that a decision asked of a
/// player can interrupt it and the next move can carry on where it stopped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Work {
    /// Resolve a declared combat.
    Decl(Decl),
    /// Step losses to allocate (7.0(2), 7.3(3)).
    Losses {
        /// The side losing steps.
        side: Faction,
        /// The hex of the combat.
        hex: Hex,
        /// Its units that took part (7.3, ruling A36).
        pool: Vec<UnitId>,
        /// Steps to lose.
        steps: u8,
        /// Loss order given with the attack, if any.
        priority: Vec<UnitId>,
    },
    /// Retreat-check bookkeeping after a combat (7.6): eliminated counts per command before it.
    AfterCombat {
        /// Eliminated combat units per command before the combat.
        before: Vec<u8>,
    },
    /// Retreat-check dice still to roll for a command (7.6(1)-(2)).
    Retreat {
        /// The command checked.
        cmd: CmdId,
        /// Dice still to roll.
        dice: u8,
    },
    /// A unit of the command routs (7.6(1)).
    Rout {
        /// The command a unit of which routs.
        cmd: CmdId,
    },
    /// Find commands left alone (7.0(3), 7.6, ruling A05).
    Displace,
    /// Move one lone command.
    DisplaceCmd {
        /// The lone command.
        cmd: CmdId,
    },
    /// Update control markers (2.5.2).
    Control,
    /// An activation is done: a second action, or the end of the phase.
    EndAction,
    /// Close the action phase: placement, lone commands, control.
    EndPhase,
    /// Hand over to the next action phase, running queued passes.
    NextPhase,
    /// Check victory (8.0) and end the turn.
    EndTurn,
    /// The next turn's preparation phase (4.1).
    Prep,
}

/// A question for one side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// D1: which units take the step losses.
    Losses {
        /// The side losing steps.
        side: Faction,
        /// The hex of the combat.
        hex: Hex,
        /// Its units that took part.
        pool: Vec<UnitId>,
        /// Steps to lose.
        steps: u8,
        /// Loss order given with the attack, if any.
        priority: Vec<UnitId>,
    },
    /// D2: which unit of the command routs.
    Rout {
        /// Who decides.
        side: Faction,
        /// The command a unit of which routs.
        cmd: CmdId,
    },
    /// D3: where a lone command goes.
    Displace {
        /// Who decides.
        side: Faction,
        /// The lone command.
        cmd: CmdId,
        /// Hexes it may go to.
        options: Vec<Hex>,
    },
    /// D4: who takes the initiative.
    Initiative {
        /// The higher roller, who decides.
        side: Faction,
    },
}

impl Decision {
    /// Who decides.
    pub fn side(&self) -> Faction {
        match self {
            Decision::Losses { side, .. }
            | Decision::Rout { side, .. }
            | Decision::Displace { side, .. }
            | Decision::Initiative { side } => *side,
        }
    }
}

/// Contested rulings, chosen when the game is created (see `Sarhu::info`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// A01: `true` = model A (two activations per turn until a pass); `false` = only a double forces a pass.
    pub limit_two: bool,
    /// A02: a pass also unflips the command (allows a second double action).
    pub pass_unflips: bool,
    /// A04: the command may be placed between the two actions of a double.
    pub place_between: bool,
    /// A06: count only commands able to act this turn in the preparation roll.
    pub prep_active_only: bool,
    /// A10: Liu Ting may enter only in turn 3 itself (`false`: on or after).
    pub entry_only_turn: bool,
    /// A15: entering a Pass/Fort stops the unit for the turn (`false`: for the action only).
    pub stop_for_turn: bool,
    /// A16: a mounted unit that was in Plain this phase may not enter Mountain (`false`: only a direct step).
    pub cavalry_phase: bool,
    /// A25: horse archers may fire with chariots/firearms (needing 6).
    pub mixed_fire: bool,
    /// A27: cavalry and horse archers lose only 1 CS in woods (7.4(2) as printed).
    pub woods_mounted_one: bool,
    /// A34: `true` = halve the whole side if any participant is disorganized.
    pub halve_whole: bool,
    /// A37: contagion in every hex entered (`false`: only where the move ends).
    pub contagion_enter: bool,
    /// A39: retreat-check trigger.
    pub retreat: RetreatRule,
    /// 10.0: Szechwan infantry replace three of Liu Ting's infantry.
    pub szechwan: bool,
}

/// A39 variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RetreatRule {
    /// One die for each elimination from the threshold on.
    Event,
    /// Every command at or past the threshold rolls after every combat.
    EveryCombat,
    /// As Event, and routs roll again.
    Cascade,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            limit_two: true,
            pass_unflips: false,
            place_between: false,
            prep_active_only: false,
            entry_only_turn: false,
            stop_for_turn: true,
            cavalry_phase: true,
            mixed_fire: false,
            woods_mounted_one: false,
            halve_whole: false,
            contagion_enter: true,
            retreat: RetreatRule::Event,
            szechwan: false,
        }
    }
}

/// The whole game state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    /// The rulings chosen for this game.
    pub options: Options,
    /// Game turn, 1 to 5.
    pub turn: u8,
    /// Turn 1's preparation roll is made with the first order (nothing rolls at set-up).
    pub prep_pending: bool,
    /// The last preparation totals, Ming then Jurchen (4.1(4)).
    pub prep: [u32; 2],
    /// Who had the initiative this turn (2.5.1).
    pub initiative: Faction,
    /// Unused action points, Ming then Jurchen (2.5.4).
    pub ap: [u32; 2],
    /// The action phase in progress.
    pub phase: Phase,
    /// Combat units, by data index.
    pub units: Vec<UnitState>,
    /// Command units, by data index.
    pub commands: Vec<CmdState>,
    /// Control per place (index as in `Data::places`); `None` for places without a marker.
    pub control: Vec<Option<Faction>>,
    /// Work left in the current action.
    pub queue: VecDeque<Work>,
    /// A question waiting for an answer.
    pub decision: Option<Decision>,
    /// Passes queued, Ming then Jurchen.
    pub passes: [PassQueue; 2],
    /// Standing orders, Ming then Jurchen.
    pub standing: [Standing; 2],
    /// The result, once the game is over.
    pub finished: Option<Outcome>,
}

impl State {
    /// The set-up of 3.0.
    pub fn new(d: &Data, options: Options) -> State {
        let units = d
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let replaced = d.units.iter().any(|v| v.replaces == Some(UnitId::at(i)));
                let in_play = match (&u.variant, options.szechwan) {
                    (Some(_), on) => on,
                    (None, true) => !replaced,
                    (None, false) => true,
                };
                let loc = match (in_play, u.setup) {
                    (false, _) | (true, SetupAt::Unplaced) => Loc::Out,
                    (true, SetupAt::Hex(h)) => Loc::Hex(h),
                    (true, SetupAt::OffMap) => Loc::OffMap,
                };
                UnitState {
                    loc,
                    reduced: false,
                    dis: false,
                    stopped: false,
                    plain: false,
                }
            })
            .collect();
        let commands = d
            .commands
            .iter()
            .map(|c| CmdState {
                loc: match c.setup {
                    SetupAt::Hex(h) => Loc::Hex(h),
                    SetupAt::OffMap => Loc::OffMap,
                    SetupAt::Unplaced => Loc::Out,
                },
                acts: 0,
                double_used: false,
            })
            .collect();
        let first = d.values.first_turn_initiative;
        State {
            options,
            turn: 1,
            prep_pending: true,
            prep: [0, 0],
            initiative: first,
            ap: [0, 0],
            phase: Phase::new(first, 1),
            units,
            commands,
            control: d.places.iter().map(|p| p.owner).collect(),
            queue: VecDeque::new(),
            decision: None,
            passes: [PassQueue::None; 2],
            standing: [Standing::default(), Standing::default()],
            finished: None,
        }
    }

    /// A unit's current combat strength (2.4(3)).
    pub fn cs(&self, d: &Data, u: UnitId) -> u32 {
        if self.units[u].reduced {
            d.units[u].reduced
        } else {
            d.units[u].cs
        }
    }

    /// Steps the unit has left (2.4(2)).
    pub fn steps_left(&self, d: &Data, u: UnitId) -> u8 {
        match self.units[u].loc {
            Loc::Gone | Loc::Out => 0,
            _ => d.units[u].steps - u8::from(self.units[u].reduced),
        }
    }

    /// Units on the map at a hex.
    pub fn units_at(&self, h: Hex) -> impl Iterator<Item = UnitId> + '_ {
        self.units
            .iter()
            .enumerate()
            .filter(move |(_, u)| u.loc == Loc::Hex(h))
            .map(|(i, _)| UnitId::at(i))
    }

    /// Combat units of a side at a hex.
    pub fn side_at<'a>(
        &'a self,
        d: &'a Data,
        h: Hex,
        f: Faction,
    ) -> impl Iterator<Item = UnitId> + 'a {
        self.units_at(h).filter(move |u| d.units[*u].side == f)
    }

    /// Commands of a side at a hex.
    pub fn commands_at<'a>(
        &'a self,
        d: &'a Data,
        h: Hex,
        f: Faction,
    ) -> impl Iterator<Item = CmdId> + 'a {
        self.commands
            .iter()
            .enumerate()
            .filter(move |(i, c)| c.loc == Loc::Hex(h) && d.commands[*i].side == f)
            .map(|(i, _)| CmdId::at(i))
    }

    /// Units of a command still in play (not eliminated, not out of play).
    pub fn alive<'a>(&'a self, d: &'a Data, cmd: CmdId) -> impl Iterator<Item = UnitId> + 'a {
        d.unit_ids().filter(move |u| {
            d.units[*u].cmd == cmd && matches!(self.units[*u].loc, Loc::Hex(_) | Loc::OffMap)
        })
    }

    /// Combat units of a command eliminated so far (7.6, 8.0).
    pub fn eliminated(&self, d: &Data, cmd: CmdId) -> u8 {
        self.units
            .iter()
            .enumerate()
            .filter(|(i, u)| d.units[*i].cmd == cmd && u.loc == Loc::Gone)
            .count() as u8
    }

    /// Every combat unit of the command is eliminated (8.0, ruling A46).
    pub fn wiped(&self, d: &Data, cmd: CmdId) -> bool {
        self.alive(d, cmd).next().is_none() && self.eliminated(d, cmd) > 0
    }

    /// The side that controls a hex, if it holds a control marker.
    pub fn controller(&self, d: &Data, h: Hex) -> Option<Faction> {
        d.hex(h).and_then(|x| x.place).and_then(|p| self.control[p])
    }

    /// Victory points: +1 control markers held (8.0(3)).
    pub fn vp(&self, d: &Data, f: Faction) -> u32 {
        d.places
            .iter()
            .enumerate()
            .filter(|(i, _)| self.control[*i] == Some(f))
            .map(|(_, p)| p.vp)
            .sum()
    }

    /// Number of commands counted in the preparation roll (4.1(4), ruling A06).
    pub fn prep_commands(&self, d: &Data, f: Faction) -> u32 {
        d.commands
            .iter()
            .enumerate()
            .filter(|(i, c)| {
                c.side == f
                    && self.commands[*i].loc != Loc::Gone
                    && self.commands[*i].loc != Loc::Out
                    && (!self.options.prep_active_only || c.entry_turn <= self.turn)
            })
            .count() as u32
    }
}
