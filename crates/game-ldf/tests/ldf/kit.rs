//! A kit for the rules tests of Lest Darkness Fall: a game on the small
//! hand-built fixture map (`crates/game-ldf/tests/fixtures/ldf/map.toml`, read through the
//! same loader as a club's files) or on the embedded map, counters placed by
//! hand, dice scripted with `Dice::recorded` (each roll's label checked in
//! order, so a test also pins the order of the rolls).

#![allow(dead_code)]

use umpire_core::dice::{Dice, Roll};
use umpire_core::hex::Hex;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{Audience, Event, RuleError, Ruleset, Setup, Side};
use umpire_ldf::combat::{column, step_name};
use umpire_ldf::data::{Data, OOB_TOML, Outcome, TABLES_TOML, UnitId};
use umpire_ldf::state::{Item, Loc, Player, Stage, State};
use umpire_ldf::{Ldf, orders};

/// The Roman's side.
pub const ROMAN: Side = Side(0);
/// The Germano-Parthian's side.
pub const GP: Side = Side(1);

/// The fixture map: twelve columns (30-41) by eight rows (10-17).
pub const FIXTURE_MAP: &str = include_str!("../fixtures/ldf/map.toml");

/// A hex by number.
pub fn h(s: &str) -> Hex {
    s.parse().unwrap()
}

/// A game under test.
pub struct T {
    /// The ruleset (its version may be an older one).
    pub r: Ldf,
    /// The state, changed by hand and by orders.
    pub st: State,
}

/// A game of the campaign under `r`, before the Germano-Parthian's set-up (3.3).
pub fn set_up(r: Ldf) -> T {
    let st = r
        .setup(&Setup {
            scenario: "campaign".into(),
            options: Default::default(),
            sides: vec!["roman".into(), "gp".into()],
        })
        .unwrap();
    T { r, st }
}

impl T {
    /// Turn 1's actions phase on the fixture map, the Germano-Parthian to
    /// act, with every counter set aside and the pool empty: a test places
    /// what its rule needs.
    pub fn fixture() -> T {
        let r = Ldf::from_fixture(FIXTURE_MAP, OOB_TOML, TABLES_TOML)
            .unwrap_or_else(|e| panic!("the fixture map: {e:?}"));
        let mut t = set_up(r);
        t.st.stage = Stage::Actions;
        t.st.actor = Player::Gp;
        t.clear();
        t
    }

    /// Turn 1's actions phase on the embedded map after `setup auto`, every
    /// counter set aside and the pool empty.
    pub fn real() -> T {
        let mut t = T::opening();
        t.clear();
        t
    }

    /// Turn 1's actions phase on the embedded map after `setup auto`.
    pub fn opening() -> T {
        let mut t = set_up(Ldf::new());
        t.ok(GP, "setup auto", &[]);
        t
    }

    /// The same game judged by ruleset `version` (an older one replays the
    /// records made under it).
    pub fn at_version(mut self, version: u32) -> T {
        self.r = self.r.as_version(version).expect("a version still kept");
        self
    }

    /// Every counter set aside, the pool emptied (its chits parked out of
    /// play, so each chit is still somewhere, 3.5).
    pub fn clear(&mut self) {
        for i in 0..self.st.units().len() {
            self.st.unit_mut(UnitId(i as u16)).loc = Loc::Aside;
        }
        self.st.pool.clear();
        self.st.removed = (1..=self.d().chits.len() as u8).collect();
    }

    /// The pool holds these chits (taken from where [`T::clear`] parked them).
    pub fn pool(&mut self, chits: &[u8]) {
        self.st.removed.retain(|c| !chits.contains(c));
        self.st.pool = chits.iter().map(|c| Item::Chit(*c)).collect();
        self.st.pool.sort();
    }

    /// `p` holds these chits (taken from where [`T::clear`] parked them).
    pub fn hand(&mut self, p: Player, chits: &[u8]) {
        self.st.removed.retain(|c| !chits.contains(c));
        self.st.hands[p.index()] = chits.to_vec();
    }

    /// The data.
    pub fn d(&self) -> &Data {
        self.r.data()
    }

    /// A counter by id.
    pub fn u(&self, id: &str) -> UnitId {
        self.d()
            .unit(id)
            .unwrap_or_else(|| panic!("no counter {id}"))
    }

    /// Puts a counter in a hex (loyal side up unless changed after).
    pub fn put(&mut self, id: &str, hex: Hex) {
        let u = self.u(id);
        self.st.unit_mut(u).loc = Loc::Hex(hex);
    }

    /// Puts every named counter in `hex`.
    pub fn put_all(&mut self, ids: &[&str], hex: Hex) {
        for id in ids {
            self.put(id, hex);
        }
    }

    /// Puts the named Roman counters in `hex`, rebel side up.
    pub fn put_rebels(&mut self, ids: &[&str], hex: Hex) {
        for id in ids {
            self.put(id, hex);
            let u = self.u(id);
            self.st.unit_mut(u).rebel = true;
        }
    }

    /// Sends a counter to the dead pile.
    pub fn kill(&mut self, id: &str) {
        let u = self.u(id);
        self.st.unit_mut(u).loc = Loc::Dead;
    }

    /// Where a counter stands.
    pub fn at(&self, id: &str) -> Option<Hex> {
        self.st.hex_of(self.u(id))
    }

    /// Is the counter rebel side up?
    pub fn rebel(&self, id: &str) -> bool {
        self.st.unit(self.u(id)).rebel
    }

    /// The labels of the next action's rolls start with this.
    pub fn label(&self, what: &str) -> String {
        format!("t{}/a{}/{what}", self.st.turn, self.st.seq)
    }

    /// The player's standing orders, one per line.
    pub fn standing(&mut self, side: Side, lines: &[&str]) {
        let lines: Vec<SourceLine> = lines
            .iter()
            .enumerate()
            .map(|(i, t)| SourceLine {
                line: i + 1,
                column: 1,
                text: t.to_string(),
            })
            .collect();
        self.r.set_standing(&mut self.st, side, &lines).unwrap();
    }

    /// Carries out one order of `side` with the scripted `rolls` (what,
    /// sides, value): on success the state moves on, on refusal it is kept.
    pub fn run(
        &mut self,
        side: Side,
        text: &str,
        rolls: &[(&str, u32, u32)],
    ) -> Result<Vec<Event>, RuleError> {
        let l = SourceLine {
            line: 1,
            column: 1,
            text: text.into(),
        };
        let o = orders::parse_line(self.d(), &l, self.r.info().version >= 14)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        let rolls = rolls
            .iter()
            .map(|(what, sides, value)| Roll {
                label: self.label(what),
                // Draws into a hand are the drawer's own (10.9).
                audience: if what.starts_with("draw") {
                    Audience::side(side)
                } else {
                    Audience::All
                },
                sides: *sides,
                value: *value,
                item: None,
            })
            .collect();
        let mut dice = Dice::recorded(rolls);
        let mut st = self.st.clone();
        let ev = self.r.apply(&mut st, side, &o, &mut dice)?;
        self.st = st;
        Ok(ev)
    }

    /// An order that must be accepted.
    pub fn ok(&mut self, side: Side, text: &str, rolls: &[(&str, u32, u32)]) -> Vec<Event> {
        self.run(side, text, rolls)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// An order that must be refused: the refusal's text.
    pub fn err(&mut self, side: Side, text: &str) -> String {
        // Refused as it is read (a counter named twice, from version 14) or
        // when carried out.
        let l = SourceLine {
            line: 1,
            column: 1,
            text: text.into(),
        };
        if let Err(e) = orders::parse_line(self.d(), &l, self.r.info().version >= 14) {
            return e.to_string();
        }
        match self.run(side, text, &[]) {
            Ok(ev) => panic!("{text} was accepted: {}", say(&ev)),
            Err(e) => e.to_string(),
        }
    }

    /// The first die roll giving `want` in the CRT column of odds step `k`.
    pub fn roll_for(&self, k: i32, want: Outcome) -> u32 {
        let col = column(self.d(), k).unwrap();
        (1..=6)
            .find(|r| self.d().crt[*r as usize - 1][col] == want)
            .unwrap_or_else(|| panic!("no {want:?} at {}", step_name(k)))
    }

    /// The rules' invariants hold.
    pub fn invariants(&self) {
        umpire_ldf::invariants(self.d(), &self.st).unwrap();
    }

    /// Both players pass in turn from the Germano-Parthian's action: the
    /// turn ends and the next one's administrative phase begins (5.4, 5.5).
    pub fn end_turn(&mut self) -> Vec<Event> {
        self.st.actor = Player::Gp;
        self.st.passes = 0;
        let mut ev = self.ok(GP, "pass", &[]);
        ev.extend(self.ok(ROMAN, "pass", &[]));
        ev
    }
}

/// The events' texts, joined.
pub fn say(ev: &[Event]) -> String {
    ev.iter()
        .map(|e| e.text.as_str())
        .collect::<Vec<_>>()
        .join(" | ")
}
