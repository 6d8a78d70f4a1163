//! Strike on Sarhu 1619: every worked example of the rulebook, reproduced with
//! the real order of battle on small fixture maps and scripted dice, plus the
//! unambiguous rules. Each test cites its rule; each example's test also
//! cites its line in the rulebook (`strike-on-sarhu.txt`): the eight
//! Examples (2.1, 6.1, 7.1, 7.2, 7.3, 7.4, 7.5, 7.6) in thirteen tests.

use crate::common;

use std::collections::BTreeMap;
use umpire_core::dice::{Dice, Roll};
use umpire_core::game::Verdict;
use umpire_core::hex::Hex;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{AwaitKind, Event, Ruleset, Setup, Side};
use umpire_sarhu::data::{CmdId, OOB_TOML, TABLES_TOML, UnitId};
use umpire_sarhu::state::{Decision, Loc, State};
use umpire_sarhu::{Faction, Sarhu, combat};

const MING: Side = Side(0);
const JURCHEN: Side = Side(1);

fn h(s: &str) -> Hex {
    s.parse().unwrap()
}

/// A fixture: the real counters and tables on a small map; nothing placed.
struct T {
    r: Sarhu,
    st: State,
}

fn fixture(rows: &[&str], extra: &str, options: &[(&str, &str)]) -> T {
    let map = format!(
        "[map]\ncols = {}\nrows = {}\nsrc = \"stand-in: test fixture\"\nterrain = [{}]\n{extra}",
        rows[0].len(),
        rows.len(),
        rows.iter()
            .map(|r| format!("\"{r}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let r =
        Sarhu::with_data(&map, OOB_TOML, TABLES_TOML, false).unwrap_or_else(|e| panic!("{e:?}"));
    let mut st = r
        .setup(&Setup {
            scenario: "historical".into(),
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect::<BTreeMap<_, _>>(),
            sides: vec!["ming".into(), "jurchen".into()],
        })
        .unwrap();
    st.prep_pending = false;
    st.ap = [10, 10];
    st.prep = [10, 10];
    T { r, st }
}

impl T {
    fn unit(&self, id: &str) -> usize {
        self.r
            .data()
            .unit_index(id)
            .unwrap_or_else(|| panic!("no unit {id}"))
    }
    fn cmd(&self, id: &str) -> CmdId {
        CmdId::at(self.r.data().command_index(id).unwrap())
    }
    /// Puts a unit or command (upper-case id) on a hex.
    fn put(&mut self, ids: &str, hex: &str) {
        for id in ids.split_whitespace() {
            if id.chars().all(|c| c.is_ascii_uppercase()) {
                let c = self.cmd(&id.to_lowercase());
                self.st.commands[c].loc = Loc::Hex(h(hex));
            } else {
                let u = self.unit(id);
                self.st.units[u].loc = Loc::Hex(h(hex));
            }
        }
    }
    /// Clears a command's Action marker, as if a turn had passed.
    fn fresh(&mut self, id: &str) {
        let c = self.cmd(id);
        self.st.commands[c].acts = 0;
    }
    fn dis(&mut self, ids: &str) {
        for id in ids.split_whitespace() {
            let u = self.unit(id);
            self.st.units[u].dis = true;
        }
    }
    fn gone(&mut self, ids: &str) {
        for id in ids.split_whitespace() {
            let u = self.unit(id);
            self.st.units[u].loc = Loc::Gone;
        }
    }
    fn is_dis(&self, id: &str) -> bool {
        self.st.units[self.unit(id)].dis
    }
    fn loc(&self, id: &str) -> Loc {
        if id.chars().all(|c| c.is_ascii_uppercase()) {
            self.st.commands[self.cmd(&id.to_lowercase())].loc
        } else {
            self.st.units[self.unit(id)].loc
        }
    }
    fn reduced(&self, id: &str) -> bool {
        self.st.units[self.unit(id)].reduced
    }
    fn active(&mut self, side: Side) {
        let f = if side == MING {
            Faction::Ming
        } else {
            Faction::Jurchen
        };
        umpire_sarhu::turn::start_phase(self.r.data(), &mut self.st, f, 1);
    }
    /// Parses and applies the lines as one move of `side` with scripted dice;
    /// like the engine, each order applies to a copy and an error discards it.
    fn go(&mut self, side: Side, text: &str, rolls: &[(&str, u32)]) -> Result<Vec<Event>, String> {
        let lines: Vec<SourceLine> = text
            .lines()
            .enumerate()
            .map(|(i, t)| SourceLine {
                line: i + 1,
                column: 1,
                text: t.trim().to_string(),
            })
            .collect();
        let orders = self
            .r
            .parse(&self.st, side, &lines)
            .map_err(|e| e.to_string())?;
        let mut dice = Dice::recorded(
            rolls
                .iter()
                .map(|(l, v)| Roll {
                    label: l.to_string(),
                    sides: 6,
                    value: *v,
                    audience: Default::default(),
                    item: None,
                })
                .collect(),
        );
        let mut ev = Vec::new();
        for (_, o) in &orders {
            let mut trial = self.st.clone();
            let e = self
                .r
                .apply(&mut trial, side, o, &mut dice)
                .map_err(|e| e.to_string())?;
            self.st = trial;
            ev.extend(e);
        }
        assert_eq!(
            dice.unused_recorded(),
            0,
            "scripted dice left over: {:?}",
            dice.rolls()
        );
        if let Err(e) = umpire_sarhu::invariants(self.r.data(), &self.st) {
            panic!("invariant: {e}");
        }
        Ok(ev)
    }
    fn text(ev: &[Event]) -> String {
        ev.iter()
            .map(|e| e.text.clone())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

// ---------------------------------------------------------------- movement

/// Rulebook line 275, 6.1 Example: "Movement cost for moving into hill hex
/// is two MP, but it cost one additional MP to move from plain into hill
/// hex. Therefore, the total MP cost for moving into the hill is 3MP."
#[test]
fn rule_6_1_example_plain_to_hill_costs_three() {
    let mut t = fixture(&["..h.", "....", "....", "...."], "", &[]);
    t.put("DS ds.i1", "0201");
    t.active(MING);
    let ev = t.go(MING, "move ds: ds.i1 0301", &[]).unwrap();
    assert!(
        T::text(&ev).contains("ds.i1 moves 0201 → 0301 (3 of 4 MP)"),
        "{}",
        T::text(&ev)
    );
}

/// 6.1(1)-(2): Mountain 2 MP, +2 from Plain; +1 Hill to Mountain; MA 4 (2.4(5)).
#[test]
fn rule_6_1_costs_plain_hill_mountain() {
    let mut t = fixture(&[".hM.", "....", "....", "...."], "", &[]);
    t.put("DS ds.i1", "0101");
    t.active(MING);
    // 0101 → 0201 (hill, 3) → 0301 (mountain from hill: 2+1 = 3): 6 > 4.
    let e = t.go(MING, "move ds: ds.i1 0201 0301", &[]).unwrap_err();
    assert!(e.contains("needs 6 MP") && e.contains("2.4(5)"), "{e}");
    // The error shows the cost of each step.
    assert!(e.contains("step costs: 0201 3, 0301 3"), "{e}");
    // Plain to Mountain directly: 2 + 2 = 4 for infantry.
    t.put("ds.i2", "0302");
    let ev = t.go(MING, "move ds: ds.i1 0201", &[]).unwrap();
    assert!(T::text(&ev).contains("(3 of 4 MP)"));
}

/// 6.1(2): "cavalry may not enter Mountain from Plain in one action phase".
#[test]
fn rule_6_1_2_cavalry_and_mountains() {
    // 0201 plain; 0301 mountain (NE of it); 0302 hill, next to both.
    let mut t = fixture(&["..M.", "..h.", "....", "...."], "", &[]);
    t.put("DS ds.c1 ds.c2", "0201");
    t.active(MING);
    let e = t.go(MING, "move ds: ds.c1 0301", &[]).unwrap_err();
    assert!(
        e.contains("cavalry may not enter Mountain from Plain") && e.contains("6.1(2)"),
        "{e}"
    );
    // Plain → Hill → Mountain in one phase is barred too (ruling A16)...
    let e = t.go(MING, "move ds: ds.c1 0302 0301", &[]).unwrap_err();
    assert!(e.contains("in one action phase"), "{e}");
    // ...unless the option reads 6.1(2) as the direct step only.
    let mut t2 = fixture(
        &["..M.", "..h.", "....", "...."],
        "",
        &[("cavalry_mountain", "step")],
    );
    t2.put("DS ds.c1", "0201");
    t2.active(MING);
    t2.go(MING, "move ds: ds.c1 0302 0301", &[]).unwrap();
    // Infantry may go straight up.
    t.put("ds.i1", "0201");
    t.go(MING, "move ds: ds.i1 0301", &[]).unwrap();
}

/// 1.2, 6.0(2)-(3): entering an enemy-occupied hex costs +1 MP; leaving is free.
#[test]
fn rule_1_2_zone_of_control() {
    let mut t = fixture(&["....", "....", "....", "...."], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("nh.i1", "0201");
    t.active(MING);
    let ev = t.go(MING, "move ds: ds.i1 0201 0301 0401", &[]).unwrap();
    assert!(T::text(&ev).contains("(4 of 4 MP)"), "{}", T::text(&ev));
}

/// 2.2(3)-(4), 6.1(3): rivers and the palisade only at bridges.
#[test]
fn rule_2_2_3_rivers_and_bridges() {
    let extra = r#"
[[river]]
name = "test river"
src = "stand-in"
edges = ["0101/SE", "0102/NE"]
[[bridge]]
name = "b"
edge = "0102/NE"
src = "stand-in"
"#;
    let mut t = fixture(&["....", "....", "....", "...."], extra, &[]);
    t.put("DS ds.i1 ds.i2", "0101");
    t.put("ds.i3", "0102");
    t.active(MING);
    let e = t.go(MING, "move ds: ds.i1 0201", &[]).unwrap_err();
    assert!(e.contains("no bridge") && e.contains("2.2(3)"), "{e}");
    // 0102 →NE→ 0201 crosses the bridged side.
    t.go(MING, "move ds: ds.i3 0201", &[]).unwrap();
}

/// 6.1(1): a Pass or Fort stops the unit; no further movement this turn (ruling A15).
#[test]
fn rule_6_1_1_pass_stops() {
    let mut t = fixture(&[".P..", "....", "....", "...."], "", &[]);
    t.put("DS ds.c1", "0101");
    t.active(MING);
    let e = t.go(MING, "move ds: ds.c1 0201 0301", &[]).unwrap_err();
    assert!(
        e.contains("must stop in 0201") && e.contains("6.1(1)"),
        "{e}"
    );
    t.go(MING, "move ds: ds.c1 0201", &[]).unwrap();
    t.active(MING);
    let e = t.go(MING, "move ds: ds.c1 0301", &[]).unwrap_err();
    assert!(e.contains("may not move again this turn"), "{e}");
}

/// 1.1: stacking at the end of the move, per side (ruling A12); 8 in a Pass.
#[test]
fn rule_1_1_stacking() {
    let mut t = fixture(&["....", "....", "....", "...."], "", &[]);
    t.put("DS ds.i1 ds.i2 ds.i3", "0101");
    t.put("nh.i1 nh.i2", "0201");
    t.active(MING);
    let e = t
        .go(MING, "move ds: ds.i1 0201, ds.i2 0201, ds.i3 0201", &[])
        .unwrap_err();
    assert!(e.contains("limit is 2") && e.contains("1.1(3)"), "{e}");
    // Two Ming beside two Jurchen: limits are per side. Passing through is fine
    // (0201 costs 1 + 1 for the enemy there).
    t.go(MING, "move ds: ds.i1 0201, ds.i2 0201", &[]).unwrap();
    t.active(MING);
    t.fresh("ds");
    t.go(MING, "move ds: ds.i3 0201 0301", &[]).unwrap();
}

/// 5.0(4): units out of command distance cannot move; the chain runs unit to unit (5.0(1)).
#[test]
fn rule_5_0_command_distance() {
    let mut t = fixture(&["......", "......", "......", "......"], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("ds.i2", "0201");
    t.put("ds.i3", "0301");
    t.put("ds.f1", "0601");
    t.active(MING);
    let e = t.go(MING, "move ds: ds.f1 0501", &[]).unwrap_err();
    // The refusal says where the command stands and what the limit is.
    assert!(
        e.contains("ds.f1 in 0601 was out of Du Song's command distance")
            && e.contains("the command unit is at 0101, 5 hexes away")
            && e.contains("in or next to the command unit")
            && e.contains("so it cannot move")
            && e.contains("5.0(1), 5.0(4)"),
        "{e}"
    );
    t.go(MING, "move ds: ds.i3 0401", &[]).unwrap();
    // Another colour's units are never activated (2.4(7)).
    t.put("ml.i1", "0101");
    t.active(MING);
    let e = t.go(MING, "move ds: ml.i1 0102", &[]).unwrap_err();
    assert!(e.contains("2.4(7)"), "{e}");
}

/// 7.5(5): a disorganized unit entering a hex disorganizes the friends there.
#[test]
fn rule_7_5_5_contagion() {
    let mut t = fixture(&["....", "....", "....", "...."], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("ds.i2", "0201");
    t.dis("ds.i1");
    t.active(MING);
    t.go(MING, "move ds: ds.i1 0201", &[]).unwrap();
    assert!(t.is_dis("ds.i2"));
}

// ---------------------------------------------------------------- fire

/// Fire example layout: Jurchen horse archers on a hill (0101); the Ming
/// firearm on a hill beside them (0201), the chariot on the plain below (0102).
fn fire_fixture() -> T {
    let mut t = fixture(&["hh..", "....", "....", "...."], "", &[]);
    t.put("NH nh.h1 nh.h2", "0101");
    t.put("DS ds.f1", "0201");
    t.put("ds.ch", "0102");
    t
}

/// Rulebook line 303, 7.1 Example: "the Ming Chinese Firearms fire at the
/// Jurchen Horse Archer Unit. It needs to roll 4 to 6 to disorganize its
/// target" (die + 1 firing >= 5, both on hills).
#[test]
fn rule_7_1_example_firearm_needs_four() {
    let mut t = fire_fixture();
    t.active(MING);
    t.go(MING, "fire ds.f1 -> nh.h1", &[("fire ds.f1 -> nh.h1", 3)])
        .unwrap();
    assert!(!t.is_dis("nh.h1"));
    t.active(MING);
    t.fresh("ds");
    let ev = t
        .go(MING, "fire ds.f1 -> nh.h1", &[("fire ds.f1 -> nh.h1", 4)])
        .unwrap();
    assert!(t.is_dis("nh.h1"), "{}", T::text(&ev));
}

/// Rulebook line 303, 7.1 Example: "The Ming Chinese Chariot fires from a
/// lower elevation at the Jurchen Horse Archer Unit. It needs to roll 4 to 6
/// to hit its target (as Chariot counts as two units for the purpose of
/// firing)" (die + 2 - 1 >= 5).
#[test]
fn rule_7_1_example_chariot_counts_two_firing_up() {
    let mut t = fire_fixture();
    t.active(MING);
    t.go(MING, "fire ds.ch -> nh.h2", &[("fire ds.ch -> nh.h2", 3)])
        .unwrap();
    assert!(!t.is_dis("nh.h2"));
    t.active(MING);
    t.fresh("ds");
    let ev = t
        .go(MING, "fire ds.ch -> nh.h2", &[("fire ds.ch -> nh.h2", 4)])
        .unwrap();
    assert!(
        T::text(&ev).contains("die 4 + 2 firing - 1 firing up = 5, needs 5: hit"),
        "{}",
        T::text(&ev)
    );
}

/// Rulebook line 303, 7.1 Example: "The two Jurchen Horse Archer Units fire
/// together and need to roll 4 to 6 to hit (and disorganize) the Ming
/// Chinese Firearm Unit, but if it fires at the Ming Chinese Chariot Unit,
/// it only needs to roll 3 to 6" (die + 2 >= 6 level; + 1 firing down).
#[test]
fn rule_7_1_example_horse_archers_need_six() {
    for (target, miss, hit) in [("ds.f1", 3, 4), ("ds.ch", 2, 3)] {
        let mut t = fire_fixture();
        let label = format!("fire nh.h1+nh.h2 -> {target}");
        t.active(JURCHEN);
        t.go(
            JURCHEN,
            &format!("fire nh.h1 nh.h2 -> {target}"),
            &[(&label, miss)],
        )
        .unwrap();
        assert!(!t.is_dis(target));
        t.active(JURCHEN);
        t.fresh("nh");
        t.go(
            JURCHEN,
            &format!("fire nh.h1 nh.h2 -> {target}"),
            &[(&label, hit)],
        )
        .unwrap();
        assert!(t.is_dis(target), "{target} at {hit}");
    }
}

/// 7.1(4), 7.5(6): a hit on a disorganized unit costs a step; 7.5(2) the disorganized cannot fire.
#[test]
fn rule_7_1_4_hit_on_disorganized_costs_a_step() {
    let mut t = fire_fixture();
    t.dis("nh.h1");
    t.active(MING);
    t.go(MING, "fire ds.f1 -> nh.h1", &[("fire ds.f1 -> nh.h1", 6)])
        .unwrap();
    assert!(
        t.reduced("nh.h1") && t.is_dis("nh.h1"),
        "flipped and still disorganized (ruling A32)"
    );
    t.dis("ds.f1");
    t.active(MING);
    t.fresh("ds");
    let e = t.go(MING, "fire ds.f1 -> nh.h1", &[]).unwrap_err();
    assert!(e.contains("7.5(2)"), "{e}");
    // Infantry cannot fire (2.4(3), 7.1).
    t.put("ds.i1", "0201");
    let e = t.go(MING, "fire ds.i1 -> nh.h1", &[]).unwrap_err();
    assert!(e.contains("cannot fire"), "{e}");
}

/// 7.1(5): units in different hexes cannot fire together.
#[test]
fn rule_7_1_5_one_hex_per_fire() {
    let mut t = fire_fixture();
    t.active(MING);
    let e = t.go(MING, "fire ds.f1 ds.ch -> nh.h1", &[]).unwrap_err();
    assert!(e.contains("7.1(5)"), "{e}");
}

// ---------------------------------------------------------------- charge

/// Rulebook line 323, 7.2 Example: "the Ming Chinese Cavalry need to roll 5
/// or 6 to hit the Jurchen Horse Archers by charge combat" (die + 1 - 1
/// uphill >= 5).
#[test]
fn rule_7_2_example_cavalry_charging_uphill_needs_five() {
    let mut t = fixture(&["h...", "....", "....", "...."], "", &[]);
    t.put("NH nh.h1 nh.h2", "0101");
    t.put("DS ds.c1", "0102");
    t.active(MING);
    let ev = t
        .go(
            MING,
            "charge ds.c1 -> nh.h1",
            &[("charge ds.c1 -> nh.h1", 4)],
        )
        .unwrap();
    assert!(
        T::text(&ev).contains("die 4 + 1 charging - 1 uphill = 4, needs 5: the charge fails"),
        "{}",
        T::text(&ev)
    );
    // 7.2(2), 7.2(5), 7.2(6): the charger and its command moved in; a failed charge disorganizes.
    assert_eq!(t.loc("ds.c1"), Loc::Hex(h("0101")));
    assert_eq!(t.loc("DS"), Loc::Hex(h("0101")));
    assert!(t.is_dis("ds.c1") && !t.is_dis("nh.h1"));

    let mut t = fixture(&["h...", "....", "....", "...."], "", &[]);
    t.put("NH nh.h1 nh.h2", "0101");
    t.put("DS ds.c1", "0102");
    t.active(MING);
    t.go(
        MING,
        "charge ds.c1 -> nh.h1",
        &[("charge ds.c1 -> nh.h1", 5)],
    )
    .unwrap();
    assert!(t.is_dis("nh.h1") && !t.is_dis("ds.c1"));
}

/// Rulebook line 323, 7.2 Example: "Since the Jurchen Horse Archers have a
/// height advantage, they need to roll 2 to 6 to hit the Ming Chinese
/// Cavalry by charge combat" (die + 2 + 1 downhill >= 5).
#[test]
fn rule_7_2_example_horse_archers_charging_down_need_two() {
    for (die, hits) in [(1, false), (2, true)] {
        let mut t = fixture(&["h...", "....", "....", "...."], "", &[]);
        t.put("NH nh.h1 nh.h2", "0101");
        t.put("DS ds.c1", "0102");
        t.active(JURCHEN);
        t.go(
            JURCHEN,
            "charge nh.h1 nh.h2 -> ds.c1",
            &[("charge nh.h1+nh.h2 -> ds.c1", die)],
        )
        .unwrap();
        assert_eq!(t.is_dis("ds.c1"), hits, "die {die}");
        assert_eq!(t.is_dis("nh.h1"), !hits);
    }
}

/// 7.2: no charge into a Pass or Fort; stacking holds during a charge; only mounted units charge.
#[test]
fn rule_7_2_charge_limits() {
    let mut t = fixture(&["F...", "....", "....", "...."], "", &[]);
    t.put("NH nh.i1", "0101");
    t.put("DS ds.c1 ds.i1", "0102");
    t.active(MING);
    let e = t.go(MING, "charge ds.c1 -> nh.i1", &[]).unwrap_err();
    assert!(e.contains("Pass or Fort") && e.contains("(7.2)"), "{e}");
    let e = t.go(MING, "charge ds.i1 -> nh.i1", &[]).unwrap_err();
    assert!(e.contains("cannot charge"), "{e}");
    let mut t = fixture(&["....", "....", "....", "...."], "", &[]);
    t.put("NH nh.i1", "0101");
    t.put("ds.i1 ds.i2", "0101");
    t.put("DS ds.c1", "0102");
    t.active(MING);
    let e = t.go(MING, "charge ds.c1 -> nh.i1", &[]).unwrap_err();
    assert!(e.contains("1.1, 7.2"), "{e}");
}

// ---------------------------------------------------------------- attack

/// 7.3 example layout: Du Song (2) with a firearm (2) and cavalry (3) in a
/// plain hex with Daisan (1) and two infantry (4, 4), all Jurchen disorganized.
fn attack_fixture() -> T {
    let mut t = fixture(&["....", "....", "....", "...."], "", &[]);
    t.put("DS ds.f1 ds.c1", "0202");
    t.put("DA da.i1 da.i2", "0202");
    t.dis("da.i1 da.i2");
    t.put("ds.i1", "0203");
    t.put("da.c1", "0201");
    t.active(MING);
    t
}

fn attack(t: &mut T, side: Side, hex: &str, a: u32, d: u32) -> String {
    let ev = t
        .go(
            side,
            &format!("attack {hex}"),
            &[
                (&format!("attack {hex}: attacker"), a),
                (&format!("attack {hex}: defender"), d),
            ],
        )
        .unwrap();
    T::text(&ev)
}

/// Rulebook line 335, 7.3 Example: "the Jurchen roll a 4, his Total Combat
/// Strength is (4+4+1)/2+die roll = 4.5 + 4 = 8 (round off faction), then
/// Ming Chinese has to roll 2 to 6 to win ... (2+2+3)=7 ... and one of the
/// Jurchen Unit need to take a step loss": Ming 2 gives 9 > 8.
#[test]
fn rule_7_3_example_totals_and_win() {
    let mut t = attack_fixture();
    let text = attack(&mut t, MING, "0202", 2, 4);
    assert!(
        text.contains("= 7 + die 2 = 9") && text.contains("= 4 + die 4 = 8"),
        "{text}"
    );
    assert!(
        text.contains("The Ming win; the Jurchen lose 1 step"),
        "{text}"
    );
    assert_eq!(
        t.loc("da.i1"),
        Loc::Gone,
        "one of the two look-alike infantry, no question asked"
    );
    assert_eq!(t.loc("da.i2"), Loc::Hex(h("0202")));
}

/// Rulebook line 335, 7.3 Example, its other end: a Ming roll of 1 makes 8
/// against 8, and a tie is lost by the attacker (7.3(2): "otherwise, the
/// attacking units lose"), ruling A33.
#[test]
fn rule_7_3_example_roll_of_one_loses() {
    let mut t = attack_fixture();
    let text = attack(&mut t, MING, "0202", 1, 4);
    assert!(
        text.contains("= 8; ") && text.contains("The Jurchen win; the Ming lose 1 step"),
        "{text}"
    );
    // Default loss policy: least CS lost, flips before eliminations: the cavalry flips.
    assert!(t.reduced("ds.c1"));
    assert_eq!(t.loc("ds.f1"), Loc::Hex(h("0202")));
}

/// Rulebook line 335, 7.3 Example: "if Jurchen roll a 1 or 2 and the Ming
/// Chinese roll a 5 or 6, then Ming Chinese has won the attack combat and
/// the Jurchen has to take two step losses"; also J 1 with M 3 (10 >= 2 x
/// 5), which the example omits (ruling A52).
#[test]
fn rule_7_3_example_double_wins_two_steps() {
    for (m, j, steps) in [
        (5, 1, 2),
        (6, 2, 2),
        (5, 2, 2),
        (3, 1, 2),
        (4, 2, 1),
        (3, 2, 1),
    ] {
        let mut t = attack_fixture();
        let text = attack(&mut t, MING, "0202", m, j);
        assert!(
            text.contains(&format!("the Jurchen lose {steps} step")),
            "M {m} J {j}: {text}"
        );
    }
}

/// Rulebook line 343, 7.4 Example: "the Total Combat Strength of Ming
/// Chinese before adding his die roll is 2+(2-1)+(3-2)=4 while the Total
/// Combat of Jurchen before adding his die roll is (4-2)+(4-2)=4", in woods
/// (2.2(6); ruling A27: 7.4(2) prints -1 for cavalry, the example -2).
#[test]
fn rule_7_4_example_woods() {
    let mut t = fixture(&["....", ".w..", "....", "...."], "", &[]);
    t.put("DS ds.f1 ds.c1", "0202");
    t.put("nh.c1 nh.h1", "0202");
    let d = t.r.data();
    let (f1, c1, nc, nh) = (
        UnitId::at(t.unit("ds.f1")),
        UnitId::at(t.unit("ds.c1")),
        UnitId::at(t.unit("nh.c1")),
        UnitId::at(t.unit("nh.h1")),
    );
    let ming = combat::side_total(
        d,
        &t.st,
        h("0202"),
        Faction::Ming,
        &[f1, c1],
        &[t.cmd("ds")],
    );
    let jur = combat::side_total(d, &t.st, h("0202"), Faction::Jurchen, &[nc, nh], &[]);
    assert_eq!(ming.before_die(), 4);
    assert_eq!(jur.before_die(), 4);
    // As 7.4(2) prints it (-1 for cavalry), an option.
    let mut t2 = fixture(
        &["....", ".w..", "....", "...."],
        "",
        &[("woods_cavalry", "1")],
    );
    t2.put("DS ds.f1 ds.c1", "0202");
    assert_eq!(
        combat::side_total(
            t2.r.data(),
            &t2.st,
            h("0202"),
            Faction::Ming,
            &[f1, c1],
            &[t2.cmd("ds")]
        )
        .before_die(),
        5
    );
}

/// Rulebook line 363, 7.5 Example: "The Total Combat Strength of Ming
/// Chinese is 7/2=3.5=3, the Total Combat Strength of Jurchen is 8/2 = 4."
#[test]
fn rule_7_5_example_halving() {
    let mut t = fixture(&["....", "....", "....", "...."], "", &[]);
    t.put("DS ds.f1 ds.c1 nh.c1 nh.h1", "0202");
    t.dis("ds.f1 ds.c1 nh.c1 nh.h1");
    let d = t.r.data();
    let (f1, c1, nc, nh) = (
        UnitId::at(t.unit("ds.f1")),
        UnitId::at(t.unit("ds.c1")),
        UnitId::at(t.unit("nh.c1")),
        UnitId::at(t.unit("nh.h1")),
    );
    assert_eq!(
        combat::side_total(
            d,
            &t.st,
            h("0202"),
            Faction::Ming,
            &[f1, c1],
            &[t.cmd("ds")]
        )
        .before_die(),
        3
    );
    assert_eq!(
        combat::side_total(d, &t.st, h("0202"), Faction::Jurchen, &[nc, nh], &[]).before_die(),
        4
    );
}

/// 7.6 example layout: Jilin Cliff (Jurchen +1) with Daisan and two infantry;
/// Du Song and a cavalry unit there; another orange unit next door.
fn jilin_fixture() -> T {
    let extra = r#"
[[place]]
id = "jilin_cliff"
name = "Jilin Cliff"
hex = "0202"
owner = "jurchen"
vp = 1
tv = 1
src = "stand-in: test fixture"
"#;
    let mut t = fixture(&["....", ".h..", "....", "...."], extra, &[]);
    t.put("DA da.i1 da.i2", "0202");
    t.put("DS ds.c1", "0202");
    t.put("ds.f1", "0203");
    t.put("ds.f2", "0204");
    t.active(JURCHEN);
    t
}

/// Rulebook line 375, 7.6 Example: "The Total Combat Strength of the Jurchen
/// units before rolling the die is: 1+4+4+1=10, the Total Combat Strength of
/// the Ming Chinese units before rolling the die is 2+3=5. The Jurchen
/// player rolls a 4 and the Ming Chinese player rolls a 2. Therefore, the
/// Ming Chinese has to suffered 2 step losses ... eliminated the Cavalry
/// ... Du Song has to be displaced" (14 >= 2 x 7).
#[test]
fn rule_7_6_example_losses_and_displacement() {
    let mut t = jilin_fixture();
    let text = attack(&mut t, JURCHEN, "0202", 4, 2);
    assert!(
        text.contains("= 9 + 1 tactical value of the controlled hex (2.2(5), 7.4(1)) + die 4 = 14"),
        "{text}"
    );
    assert!(text.contains("= 5 + die 2 = 7"), "{text}");
    assert!(text.contains("the Ming lose 2 steps"), "{text}");
    assert_eq!(t.loc("ds.c1"), Loc::Gone);
    assert_eq!(
        t.loc("DS"),
        Loc::Hex(h("0203")),
        "displaced to the nearest orange unit (7.0(3))"
    );
    assert!(
        !text.contains("Retreat check"),
        "one elimination: no check (7.6)"
    );
}

/// 7.6(1): the elimination that reaches half the command (4 of 8 for the Ming) rolls;
/// a 1-2 routs a unit of the owner's choice (here the standing default: the
/// weakest, farthest from the enemy).
#[test]
fn rule_7_6_retreat_check() {
    let mut t = jilin_fixture();
    t.gone("ds.i1 ds.i2 ds.i3");
    let ev = t
        .go(
            JURCHEN,
            "attack 0202",
            &[
                ("attack 0202: attacker", 4),
                ("attack 0202: defender", 2),
                ("retreat check Du Song", 2),
            ],
        )
        .unwrap();
    let text = T::text(&ev);
    assert!(
        text.contains("Retreat check for Du Song (4 eliminated): die 2: a unit routs"),
        "{text}"
    );
    assert_eq!(t.loc("ds.f2"), Loc::Gone, "{text}");
    assert_eq!(t.loc("DS"), Loc::Hex(h("0203")));
    // 3-6: no effect for the time being.
    let mut t = jilin_fixture();
    t.gone("ds.i1 ds.i2 ds.i3");
    t.go(
        JURCHEN,
        "attack 0202",
        &[
            ("attack 0202: attacker", 4),
            ("attack 0202: defender", 2),
            ("retreat check Du Song", 3),
        ],
    )
    .unwrap();
    assert_eq!(t.loc("ds.f2"), Loc::Hex(h("0204")));
}

/// D2 with `rout: ask`: the Ming are asked (a Decision), and the default is stated.
#[test]
fn rule_7_6_rout_asked_when_standing_says_ask() {
    let mut t = jilin_fixture();
    t.gone("ds.i1 ds.i2 ds.i3");
    t.r.set_standing(
        &mut t.st,
        MING,
        &[SourceLine {
            line: 1,
            column: 1,
            text: "rout: ask".into(),
        }],
    )
    .unwrap();
    t.go(
        JURCHEN,
        "attack 0202",
        &[
            ("attack 0202: attacker", 4),
            ("attack 0202: defender", 2),
            ("retreat check Du Song", 1),
        ],
    )
    .unwrap();
    let p = t.r.prompt(&t.st);
    let a = p.awaits(MING).expect("the Ming are asked");
    assert_eq!(a.kind, AwaitKind::Decision);
    assert_eq!(a.default, vec!["rout ds.f2".to_string()]);
    assert!(matches!(t.st.decision, Some(Decision::Rout { .. })));
    // The Jurchen cannot act meanwhile; the Ming answer.
    assert!(t.go(JURCHEN, "pass", &[]).is_err());
    let e = t.go(MING, "rout da.i1", &[]).unwrap_err();
    assert!(e.contains("7.6(1)"), "{e}");
    t.go(MING, "rout ds.f1", &[]).unwrap();
    assert_eq!(t.loc("ds.f1"), Loc::Gone);
    assert!(t.st.decision.is_none());
    // Du Song's only orange unit left is ds.f2: displaced there, no question.
    assert_eq!(t.loc("DS"), Loc::Hex(h("0204")));
}

/// D1 with `losses: ask` and a real choice; no question when only one allocation exists.
#[test]
fn rule_7_0_2_losses_asked_only_when_there_is_a_choice() {
    let mut t = attack_fixture();
    t.r.set_standing(
        &mut t.st,
        Side(1),
        &[SourceLine {
            line: 1,
            column: 1,
            text: "losses: ask".into(),
        }],
    )
    .unwrap();
    // Two look-alike infantry: one choice only.
    attack(&mut t, MING, "0202", 2, 4);
    assert!(t.st.decision.is_none());
    // Now a horse archer (4/2, two steps) and an infantry: a real choice.
    let mut t = attack_fixture();
    t.r.set_standing(
        &mut t.st,
        Side(1),
        &[SourceLine {
            line: 1,
            column: 1,
            text: "losses: ask".into(),
        }],
    )
    .unwrap();
    t.gone("da.i2");
    t.put("da.h1", "0202");
    // Jurchen: da.i1 4* halved = 2, da.h1 4 + DA 1 (not all disorganized) = 7 + 4 = 11; Ming 7 + 6 = 13.
    attack(&mut t, MING, "0202", 6, 4);
    let p = t.r.prompt(&t.st);
    let a = p.awaits(JURCHEN).unwrap();
    assert_eq!(a.kind, AwaitKind::Decision);
    assert_eq!(
        a.default,
        vec!["losses da.h1".to_string()],
        "least CS lost: flip the horse archer"
    );
    t.go(JURCHEN, "losses da.i1", &[]).unwrap();
    assert_eq!(t.loc("da.i1"), Loc::Gone);
}

/// 7.0(3), 7.6: a command whose every combat unit is gone is defeated.
#[test]
fn rule_7_6_command_defeated() {
    let mut t = attack_fixture();
    for u in ["da.i1", "da.i2", "da.c1"] {
        let _ = u;
    }
    // Daisan's only units: the two infantry in 0202 and da.c1 in 0201.
    t.gone("da.c1");
    let text = attack(&mut t, MING, "0202", 6, 1);
    assert!(
        text.contains("Daisan is defeated") || text.contains("the command is defeated"),
        "{text}"
    );
    assert_eq!(t.loc("DA"), Loc::Gone);
}

// ---------------------------------------------------------------- command, AP, sequence

/// 4.2.2: combat costs the Ming 2 AP and the Jurchen 1; 4.2.3 rally costs 2 and reorganizes.
#[test]
fn rule_4_2_action_point_costs() {
    let mut t = attack_fixture();
    t.st.ap = [1, 1];
    let e = t.go(MING, "attack 0202", &[]).unwrap_err();
    assert!(e.contains("costs 2 AP") && e.contains("4.2.2"), "{e}");
    t.st.ap = [5, 5];
    t.active(JURCHEN);
    t.go(JURCHEN, "rally daisan", &[]).unwrap();
    assert!(!t.is_dis("da.i1"));
    assert_eq!(t.st.ap[1], 3);
}

/// 2.5.5(3): twice a turn unless the command passes; 4.2.4 pass costs 1 AP.
#[test]
fn rule_2_5_5_activation_limit_and_pass() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("NH nh.i1", "0601");
    t.st.ap = [10, 10];
    for _ in 0..2 {
        t.active(MING);
        t.go(MING, "rally du-song", &[]).unwrap();
    }
    t.active(MING);
    let e = t.go(MING, "rally du-song", &[]).unwrap_err();
    assert!(
        e.contains("must pass first") && e.contains("2.5.5(3)"),
        "{e}"
    );
    t.active(MING);
    t.go(MING, "pass du-song", &[]).unwrap();
    assert_eq!(t.st.ap[0], 5);
    t.active(MING);
    t.go(MING, "rally du-song", &[]).unwrap();
}

/// 5.0(3): a double action once a turn, by a command not yet activated; its second
/// action may differ and is paid separately; one command per phase (1.0).
#[test]
fn rule_5_0_3_double_action() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("ML ml.i1", "0102");
    t.put("NH nh.i1", "0601");
    t.active(MING);
    t.go(MING, "move ds: ds.i1 0201\nthen rally\nplace ds 0201", &[])
        .unwrap();
    assert_eq!(t.st.ap[0], 7);
    assert!(t.st.commands[t.cmd("ds")].double_used);
    assert_eq!(
        t.loc("DS"),
        Loc::Hex(h("0201")),
        "placed at the end of the phase (2.3(3))"
    );
    assert_eq!(t.st.phase.side, Faction::Jurchen, "the phase is over");
    // Another double this turn: refused (also after a pass, ruling A02).
    t.active(MING);
    t.go(MING, "pass du-song", &[]).unwrap();
    t.active(MING);
    let e = t.go(MING, "rally ds\nthen rally", &[]).unwrap_err();
    assert!(e.contains("5.0(3)"), "{e}");
    // One command per phase: after `rally ds` the phase passes to the Jurchen,
    // and while a double is open only its command may act.
    t.active(MING);
    let e = t.go(MING, "rally ds\nrally ml", &[]).unwrap_err();
    assert!(e.contains("(4.2)"), "{e}");
    t.fresh("ml");
    t.active(MING);
    let e = t.go(MING, "rally ml\nthen\nrally ds", &[]).unwrap_err();
    assert!(
        e.contains("double action is open") && e.contains("5.0(3)"),
        "{e}"
    );
}

/// 4.2, 5.0(3), invariant 4: a double action is paid for whole, and by one
/// command, before the first action's roll (version 2). Version 1 fired
/// first and then refused the second action: the roll stood.
#[test]
fn rule_5_0_3_a_double_action_it_cannot_pay_for_is_refused_before_its_roll() {
    let two = "combat ds: fire ds.f1 -> nh.h1\nthen combat: fire ds.ch -> nh.h2";
    let mut t = fire_fixture();
    t.st.ap = [3, 3];
    t.active(MING);
    let e = t.go(MING, two, &[]).unwrap_err();
    assert!(
        e.contains("costs 2 + 2 AP; the Ming have 3") && e.contains("5.0(3)"),
        "{e}"
    );
    assert_eq!(t.st.ap[0], 3, "nothing spent");
    // The second action by another command: refused as it is read.
    t.st.ap = [10, 10];
    let e = t
        .go(MING, "combat ds: fire ds.f1 -> nh.h1\nthen rally ml", &[])
        .unwrap_err();
    assert!(
        e.contains("must be Du Song's") && e.contains("5.0(3)"),
        "{e}"
    );
    // Version 1: the first fire rolled, then the second was refused.
    let mut t = fire_fixture();
    t.r = t.r.at(1).unwrap();
    t.st.ap = [3, 3];
    t.active(MING);
    let e = t.go(MING, two, &[("fire ds.f1 -> nh.h1", 6)]).unwrap_err();
    assert!(e.contains("costs 2 AP; the Ming have 1"), "{e}");
}

/// 5.0(3): a bare `then` leaves the phase open; `end` (the default) closes it.
#[test]
fn rule_5_0_3_open_double_action() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("NH nh.i1", "0601");
    t.active(MING);
    t.go(MING, "rally ds\nthen", &[]).unwrap();
    let p = t.r.prompt(&t.st);
    assert_eq!(p.awaits(MING).unwrap().default, vec!["end".to_string()]);
    t.go(MING, "then move: ds.i1 0201", &[]).unwrap();
    assert_eq!(t.st.phase.side, Faction::Jurchen);
}

/// 4.1: end of turn, preparation roll, initiative (tie: Jurchen), AP for both = the higher.
#[test]
fn rule_4_1_preparation_and_initiative() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("LR lr.i1", "0102");
    t.put("ML ml.i1", "0201");
    t.put("NH nh.i1", "0601");
    t.put("HT ht.i1", "0602");
    t.put("DA da.i1", "0501");
    t.put("MG mg.i1", "0502");
    t.dis("ds.i1");
    t.st.ap = [1, 1];
    t.active(MING);
    t.go(MING, "pass", &[]).unwrap();
    // Four commands a side, all undefeated, Liu Ting off the map too (ruling A06): +4 a side.
    let ev = t
        .go(
            JURCHEN,
            "pass",
            &[
                ("turn 2 preparation: Ming", 3),
                ("turn 2 preparation: Ming", 4),
                ("turn 2 preparation: Jurchen", 5),
                ("turn 2 preparation: Jurchen", 2),
            ],
        )
        .unwrap();
    assert_eq!(t.st.turn, 2);
    assert_eq!(t.st.ap, [11, 11]);
    assert_eq!(
        t.st.phase.side,
        Faction::Jurchen,
        "a tie: the Jurchen go first"
    );
    assert!(!t.is_dis("ds.i1"), "4.1(3)");
    assert!(T::text(&ev).contains("Ming preparation roll 3 + 4 + 4 commands = 11"));
    // The tie is the reason, said once: not "the Jurchen ... (a tie: the Jurchen ...)".
    assert!(
        T::text(&ev).contains(
            "The Jurchen take the initiative and move first (the preparation rolls tie; 4.1(4))"
        ),
        "{}",
        T::text(&ev)
    );
    // The higher roller chooses; by default first, or as the standing order says.
    t.st.ap = [0, 1];
    t.r.set_standing(
        &mut t.st,
        MING,
        &[SourceLine {
            line: 1,
            column: 1,
            text: "initiative: second".into(),
        }],
    )
    .unwrap();
    t.go(
        JURCHEN,
        "pass",
        &[
            ("turn 3 preparation: Ming", 6),
            ("turn 3 preparation: Ming", 6),
            ("turn 3 preparation: Jurchen", 1),
            ("turn 3 preparation: Jurchen", 1),
        ],
    )
    .unwrap();
    assert_eq!(t.st.ap, [16, 16]);
    assert_eq!(
        t.st.phase.side,
        Faction::Jurchen,
        "the Ming chose to go second"
    );
}

/// 4.1(4) D4 asked: the higher roller is asked; `initiative first` is the default.
#[test]
fn rule_4_1_4_initiative_asked() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("NH nh.i1", "0601");
    t.r.set_standing(
        &mut t.st,
        JURCHEN,
        &[SourceLine {
            line: 1,
            column: 1,
            text: "initiative: ask".into(),
        }],
    )
    .unwrap();
    t.st.ap = [0, 1];
    t.active(JURCHEN);
    t.go(
        JURCHEN,
        "pass",
        &[
            ("turn 2 preparation: Ming", 1),
            ("turn 2 preparation: Ming", 1),
            ("turn 2 preparation: Jurchen", 6),
            ("turn 2 preparation: Jurchen", 1),
        ],
    )
    .unwrap();
    let p = t.r.prompt(&t.st);
    let a = p.awaits(JURCHEN).unwrap();
    assert_eq!(
        (a.kind, a.default.clone()),
        (AwaitKind::Decision, vec!["initiative first".to_string()])
    );
    t.go(JURCHEN, "initiative second", &[]).unwrap();
    assert_eq!(t.st.phase.side, Faction::Ming);
}

/// 2.5.4(2), ruling A08: a side out of AP is skipped; queued passes (`pass 3`, `pass rest`) run by themselves.
#[test]
fn rule_4_2_queued_passes() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("NH nh.i1", "0601");
    t.st.ap = [5, 5];
    t.active(MING);
    t.go(MING, "pass rest", &[]).unwrap();
    assert_eq!(t.st.ap, [4, 5]);
    t.go(JURCHEN, "pass", &[]).unwrap();
    assert_eq!(t.st.ap, [3, 4], "the queued Ming pass ran");
    assert_eq!(t.st.phase.side, Faction::Jurchen);
}

/// 2.5.2(2)-(3), 2.2(5): control changes only when one side alone occupies the hex.
#[test]
fn rule_2_5_2_control() {
    let extra = r#"
[[place]]
id = "sarhu"
name = "Sarhu Hill"
hex = "0201"
owner = "ming"
vp = 1
tv = 1
src = "stand-in: test fixture"
"#;
    let mut t = fixture(&["......", "......"], extra, &[]);
    t.put("NH nh.i1 nh.i2", "0101");
    t.put("ds.i1", "0201");
    t.put("DS ds.i2", "0301");
    t.active(JURCHEN);
    t.go(JURCHEN, "move nh: nh.i1 0201", &[]).unwrap();
    assert_eq!(
        t.st.controller(t.r.data(), h("0201")),
        Some(Faction::Ming),
        "both sides there: unchanged (2.5.2(3))"
    );
    t.gone("ds.i1");
    t.active(JURCHEN);
    t.go(JURCHEN, "move nh: nh.i2 0201", &[]).unwrap();
    assert_eq!(
        t.st.controller(t.r.data(), h("0201")),
        Some(Faction::Jurchen)
    );
    assert_eq!(t.st.vp(t.r.data(), Faction::Jurchen), 1);
}

/// 8.0: victory at the end of a turn: Hetuala decisive; decisive beats overwhelming (8.0(4)).
#[test]
fn rule_8_0_victory() {
    use umpire_sarhu::victory;
    let extra = r#"
[[place]]
id = "hetuala"
name = "Hetuala"
hex = "0201"
owner = "jurchen"
vp = 0
tv = 2
src = "stand-in: test fixture"
"#;
    let mut t = fixture(&["......", "......"], extra, &[]);
    let d = t.r.data();
    assert!(victory::check(d, &t.st, false).is_none());
    let last = victory::check(d, &t.st, true).unwrap();
    assert!(
        last.summary.contains("draw"),
        "no VP markers in this fixture: {}",
        last.summary
    );
    t.st.control[0] = Some(Faction::Ming);
    let o = victory::check(t.r.data(), &t.st, false).unwrap();
    assert_eq!(o.winners, vec![MING]);
    assert!(o.summary.contains("8.0(1)"));
    // Three Ming troops wiped out, but Hetuala is Ming: decisive wins.
    for c in ["ds", "lr", "ml"] {
        for u in 0..t.st.units.len() {
            if t.r.data().units[u].id.starts_with(&format!("{c}.")) {
                t.st.units[u].loc = Loc::Gone;
            }
        }
    }
    assert_eq!(
        victory::check(t.r.data(), &t.st, false).unwrap().winners,
        vec![MING]
    );
    t.st.control[0] = Some(Faction::Jurchen);
    let o = victory::check(t.r.data(), &t.st, false).unwrap();
    assert_eq!(o.winners, vec![JURCHEN]);
    assert!(o.summary.contains("8.0(2)"), "{}", o.summary);
}

// ---------------------------------------------------------------- the real map, through the engine

fn accepted(v: &Verdict) -> &umpire_core::game::Report {
    match v {
        Verdict::Accepted { report, .. } => report,
        other => panic!("not accepted: {other:?}"),
    }
}

/// 3.0 set-up, 4.1(4) turn 1: the Ming move first and the first order rolls the AP.
#[test]
fn rule_3_0_setup_and_first_turn_through_the_engine() {
    let mut t = common::table("sarhu", "historical", &["ming", "jurchen"], &[]);
    let p = t.game.prompt().clone();
    assert_eq!(p.awaits(MING).unwrap().kind, AwaitKind::Orders);
    assert!(p.awaits(JURCHEN).is_none());
    // Out of turn, and an illegal first order: refused before any die.
    assert!(matches!(t.play(1, &["pass"]), Verdict::Rejected { .. }));
    match t.play(0, &["move du-song: ds.i1 0508 0608 0708 0808"]) {
        Verdict::Rejected { rejection, .. } => assert!(
            rejection.reason.contains("(2.4(5), 6.0, 6.1)")
                || rejection.reason.contains("no bridge"),
            "{}",
            rejection.reason
        ),
        other => panic!("{other:?}"),
    }
    let v = t.play(
        0,
        &[
            "move du-song: ds.i1 0508 0608, ds.c1 0508 0608 0708",
            "place ds 0708",
        ],
    );
    let r = accepted(&v);
    assert_eq!(r.rolls.len(), 4, "the turn-1 preparation roll");
    assert!(r.rolls[0].label == "turn 1 preparation: Ming");
    assert!(t.game.owes_orders(JURCHEN));
    let view = t
        .game
        .ruleset()
        .view(t.game.state(), umpire_core::ruleset::Viewer::Side(JURCHEN));
    let board = view.board.unwrap();
    let board = board.as_hex().unwrap();
    assert!(board.cells[&h("0708")].units.iter().any(|u| u == "DS"));
    assert!(
        board
            .legend
            .iter()
            .any(|l| l.glyph == "ds.c1" && l.meaning.contains("cavalry, CS 3/1"))
    );
    assert_eq!(board.cells[&h("1610")].name.as_deref(), Some("Hetuala"));
}

/// Rulebook line 101, 2.1 Example: "The number inside the blue square on the
/// right bottom of the map is three means Liu Ting Command can enter the map
/// from there on or after Turn 3"; 9.0: Liu Ting enters at the lower right
/// from turn 3, not before (2.1(5)).
#[test]
fn rule_9_0_liu_ting_enters_from_turn_three() {
    let r = Sarhu::new();
    let mut st = r
        .setup(&Setup {
            scenario: "historical".into(),
            options: BTreeMap::new(),
            sides: vec!["ming".into(), "jurchen".into()],
        })
        .unwrap();
    st.prep_pending = false;
    st.ap = [10, 10];
    st.prep = [10, 10];
    let lines = |s: &str| {
        vec![SourceLine {
            line: 1,
            column: 1,
            text: s.into(),
        }]
    };
    let order = r
        .parse(&st, MING, &lines("move liu-ting: lt.i1 entry 1920"))
        .unwrap();
    let e = r
        .apply(&mut st.clone(), MING, &order[0].1, &mut Dice::preview())
        .unwrap_err();
    assert!(e.to_string().contains("from turn 3"), "{e}");
    st.turn = 3;
    let mut s2 = st.clone();
    let ev = r
        .apply(&mut s2, MING, &order[0].1, &mut Dice::preview())
        .unwrap();
    let lt = r.data().unit_index("lt.i1").unwrap();
    assert_eq!(s2.units[lt].loc, Loc::Hex(h("1920")), "{ev:?}");
    let c = r.data().command_index("liu-ting").unwrap();
    assert_eq!(
        s2.commands[c].loc,
        Loc::Hex(h("1920")),
        "the command goes with its units (ruling A10)"
    );
}

/// Errors name the order line and the rule.
#[test]
fn errors_name_line_and_rule() {
    let mut t = common::table("sarhu", "historical", &["ming", "jurchen"], &[]);
    match t.play(0, &["pass", "fire ds.i1 -> da.i1"]) {
        Verdict::Rejected { .. } => {}
        Verdict::Accepted { report, .. } => {
            // The pass ends the phase; the fire is then not the Ming's to give.
            assert!(report.orders[1].outcome.is_err());
        }
        other => panic!("{other:?}"),
    }
    let mut t = common::table("sarhu", "historical", &["ming", "jurchen"], &[]);
    match t.play(0, &["move du-song: ds.i1 0508 0608 0708 0807"]) {
        Verdict::Rejected { rejection, .. } => {
            assert!(
                rejection.reason.starts_with("line 5:"),
                "{}",
                rejection.reason
            );
            assert!(
                rejection.reason.contains("illegal:"),
                "{}",
                rejection.reason
            );
        }
        other => panic!("{other:?}"),
    }
}

/// The first move of the guide (docs/games/sarhu.md, "Your first move") is legal as written in turn 1:
/// a double action (move, then a charge across the Sarhu ford) and a placement.
#[test]
fn the_documented_example_move_is_legal() {
    let mut t = common::table("sarhu", "historical", &["ming", "jurchen"], &[]);
    let v = t.play(
        0,
        &[
            "move du-song:",
            "  ds.i1 0508 0608",
            "  ds.c1+ds.c2 0608 0708  # a stack moves along one path",
            "then combat: charge ds.c1 ds.c2 -> da.i1   # across the Sarhu ford",
            "place du-song 0608",
        ],
    );
    let r = accepted(&v);
    assert!(r.orders.iter().all(|o| o.outcome.is_ok()), "{:?}", r.orders);
    let labels: Vec<&str> = r.rolls.iter().map(|x| x.label.as_str()).collect();
    assert!(
        labels.contains(&"charge ds.c1+ds.c2 -> da.i1"),
        "{labels:?}"
    );
    let text: Vec<String> = r.events().map(|e| e.text.clone()).collect();
    assert!(
        text.iter().any(|e| e.contains("Du Song placed at 0608")),
        "{text:?}"
    );
    assert!(t.game.owes_orders(JURCHEN));
}

/// Standing orders are set by a signed standing-only file, shown back, and an
/// `ask` question is a Decision whose stated default the umpire can apply.
#[test]
fn standing_orders_questions_and_defaults_through_the_engine() {
    let mut t = common::table("sarhu", "historical", &["ming", "jurchen"], &[]);
    for (i, side) in ["ming", "jurchen"].iter().enumerate() {
        let text =
            format!("game: g1\nside: {side}\nstanding:\n  initiative: ask\n  losses: flip-first\n");
        let sig = t.sign(i, &text);
        assert!(matches!(
            t.game.submit(text.as_bytes(), &sig, &t.chain, "t"),
            Verdict::Accepted { .. }
        ));
    }
    let shown = t.game.ruleset().standing(t.game.state(), JURCHEN);
    assert!(
        shown.contains(&"initiative: ask".to_string())
            && shown.contains(&"losses: flip-first".to_string()),
        "{shown:?}"
    );
    // A bad standing order names its line.
    let text = "game: g1\nside: ming\nstanding:\n  retreat: never\n";
    let sig = t.sign(0, text);
    match t.game.submit(text.as_bytes(), &sig, &t.chain, "t") {
        Verdict::Rejected { rejection, .. } => {
            assert!(rejection.reason.contains("line 4"), "{}", rejection.reason)
        }
        other => panic!("{other:?}"),
    }
    // Both sides pass out turn 1; the preparation of turn 2 asks the higher roller.
    assert!(matches!(
        t.play(0, &["pass rest"]),
        Verdict::Accepted { .. }
    ));
    assert!(matches!(
        t.play(1, &["pass rest"]),
        Verdict::Accepted { .. }
    ));
    let p = t.game.prompt().clone();
    assert!(p.stage.starts_with("Turn 2"), "{}", p.stage);
    let st: &State = t.game.state().downcast_ref().unwrap();
    if st.prep[0] == st.prep[1] {
        assert!(
            p.awaits(JURCHEN)
                .is_some_and(|a| a.kind == AwaitKind::Orders),
            "a tie: the Jurchen go first, nobody asked"
        );
        return;
    }
    let high = if st.prep[0] > st.prep[1] {
        MING
    } else {
        JURCHEN
    };
    let a = p.awaits(high).expect("the higher roller is asked").clone();
    assert_eq!(a.kind, AwaitKind::Decision);
    assert_eq!(a.default, vec!["initiative first".to_string()]);
    let (_, report) = t
        .game
        .apply_default(high, "deadline passed", &t.chain, "t")
        .unwrap();
    assert!(report.by_default);
    assert!(
        t.game
            .prompt()
            .awaits(high)
            .is_some_and(|a| a.kind == AwaitKind::Orders),
        "the higher roller moves first"
    );
    // The whole record verifies.
    let record = umpire_core::record::Record::from_text(&t.game.record().to_text()).unwrap();
    let (g, sum) =
        umpire_core::game::Game::replay(t.shared(), &record, umpire_core::game::ReplayMode::Verify)
            .unwrap();
    assert_eq!(g.state().hash(), t.game.state().hash());
    assert_eq!(sum.defaults, 1);
}

/// Queued passes carry into later phases without further mail (4.2.4).
#[test]
fn queued_passes_through_the_engine() {
    let mut t = common::table("sarhu", "historical", &["ming", "jurchen"], &[]);
    assert!(matches!(t.play(0, &["pass 3"]), Verdict::Accepted { .. }));
    assert!(matches!(t.play(1, &["pass"]), Verdict::Accepted { .. }));
    assert!(
        t.game.owes_orders(JURCHEN),
        "the Ming's second pass ran by itself"
    );
    assert!(matches!(t.play(1, &["pass"]), Verdict::Accepted { .. }));
    assert!(t.game.owes_orders(JURCHEN), "and the third");
    assert!(matches!(t.play(1, &["pass"]), Verdict::Accepted { .. }));
    assert!(t.game.owes_orders(MING), "the queue is used up");
    let view = t
        .game
        .ruleset()
        .view(t.game.state(), umpire_core::ruleset::Viewer::Public);
    assert!(
        view.status.iter().any(|s| s.contains("Action points left")),
        "{:?}",
        view.status
    );
}

/// 4.2.4: `pass rest` after an action in the same move queues the side's
/// passes for the phases that follow, as if sent then.
#[test]
fn rule_4_2_4_pass_rest_after_an_action_queues_the_later_phases() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("NH nh.i1", "0601");
    t.st.ap = [5, 5];
    t.active(MING);
    let ev = t.go(MING, "move ds: ds.i1 0201\npass rest", &[]).unwrap();
    assert!(
        T::text(&ev).contains("Ming will pass their remaining action phases of turn 1 (4.2.4)"),
        "{}",
        T::text(&ev)
    );
    assert_eq!(t.st.ap, [4, 5], "the move cost 1 AP; no pass yet");
    assert_eq!(t.st.phase.side, Faction::Jurchen);
    t.go(JURCHEN, "pass", &[]).unwrap();
    assert_eq!(t.st.ap, [3, 4], "the queued Ming pass ran");
    assert_eq!(t.st.phase.side, Faction::Jurchen);
    t.go(JURCHEN, "pass", &[]).unwrap();
    assert_eq!(t.st.ap, [2, 3], "and the next");
}

/// 4.2.4, ruling A08: with the other side out of AP the mover's next phase
/// has begun by the time its queued passes are read; the first is made at
/// once, the rest after it, and `pass N` stops after N.
#[test]
fn rule_4_2_4_pass_n_after_an_action_when_the_other_side_is_out_of_ap() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("NH nh.i1", "0601");
    t.st.ap = [5, 0];
    t.active(MING);
    let ev = t.go(MING, "move ds: ds.i1 0201\npass 2", &[]).unwrap();
    assert!(
        T::text(&ev).contains("Ming will pass their next 2 action phases (4.2.4)"),
        "{}",
        T::text(&ev)
    );
    assert_eq!(t.st.ap, [2, 0], "move 1 AP, two passes 1 AP each");
    assert_eq!(t.st.phase.side, Faction::Ming);
    assert!(t.st.phase.cmd.is_none(), "a fresh Ming phase awaits orders");
    assert_eq!(t.st.passes[0], umpire_sarhu::state::PassQueue::None);
}

/// 4.2.4: a queued pass names no command, and one mail queues passes once;
/// the refusal says what one mail may hold.
#[test]
fn rule_4_2_4_what_one_mail_may_hold() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("NH nh.i1", "0601");
    t.active(MING);
    let e = t
        .go(MING, "move ds: ds.i1 0201\npass du-song rest", &[])
        .unwrap_err();
    assert!(
        e.contains("line 2")
            && e.contains("names no command")
            && e.contains("one mail holds your action phase"),
        "{e}"
    );
    let e = t
        .go(MING, "move ds: ds.i1 0201\npass 2\npass rest", &[])
        .unwrap_err();
    assert!(
        e.contains("line 3") && e.contains("nothing follows the queued passes"),
        "{e}"
    );
    let e = t
        .go(MING, "move ds: ds.i1 0201\npass rest\nplace ds 0201", &[])
        .unwrap_err();
    assert!(
        e.contains("line 3") && e.contains("nothing follows the queued passes"),
        "{e}"
    );
    assert_eq!(t.st.ap, [10, 10], "nothing changed");
}

/// Version 2 refused a pass after an action (its records replay so).
#[test]
fn version_2_refuses_a_pass_after_an_action() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.r = t.r.at(2).unwrap();
    t.put("DS ds.i1", "0101");
    t.put("NH nh.i1", "0601");
    t.active(MING);
    let e = t
        .go(MING, "move ds: ds.i1 0201\npass rest", &[])
        .unwrap_err();
    assert!(e.contains("not yours"), "{e}");
}

/// 4.2.4: passes lapse with their turn; an action that ends the turn
/// leaves nothing queued for the next.
#[test]
fn rule_4_2_4_queued_passes_lapse_with_the_turn() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DS ds.i1", "0101");
    t.put("LR lr.i1", "0102");
    t.put("ML ml.i1", "0201");
    t.put("NH nh.i1", "0601");
    t.put("HT ht.i1", "0602");
    t.put("DA da.i1", "0501");
    t.put("MG mg.i1", "0502");
    t.st.ap = [1, 0];
    t.active(MING);
    let ev = t
        .go(
            MING,
            "move ds: ds.i1 0201\npass rest",
            &[
                ("turn 2 preparation: Ming", 3),
                ("turn 2 preparation: Ming", 4),
                ("turn 2 preparation: Jurchen", 5),
                ("turn 2 preparation: Jurchen", 2),
            ],
        )
        .unwrap();
    assert_eq!(t.st.turn, 2);
    assert!(T::text(&ev).contains("Turn 2:"), "{}", T::text(&ev));
    assert_eq!(t.st.passes, [umpire_sarhu::state::PassQueue::None; 2]);
    assert_eq!(t.st.ap, [11, 11]);
}

/// 7.3, 5.0(1): a bare `attack HEX` that no activated unit can make says
/// why, unit by unit: out of command distance (where the command is, how
/// far, the limit), fought already, or of another colour.
#[test]
fn rule_7_3_a_refused_attack_names_its_reason() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DA da.i1", "0101");
    t.put("da.i2 ds.i1", "0501");
    t.put("DS ds.i2", "0601");
    t.active(JURCHEN);
    let e = t.go(JURCHEN, "combat da: attack 0501", &[]).unwrap_err();
    assert!(
        e.contains("no activated unit of Daisan in 0501 can attack: da.i2 in 0501 was out of Daisan's command distance")
            && e.contains("the command unit is at 0101, 4 hexes away")
            && e.contains("(7.3, 5.0(1), 5.0(4))"),
        "{e}"
    );
    // Two units out of reach for the same reason: the reason once.
    t.put("da.c1", "0501");
    let e = t.go(JURCHEN, "combat da: attack 0501", &[]).unwrap_err();
    assert_eq!(
        e.matches("command distance when it was activated").count(),
        1,
        "{e}"
    );
    assert!(e.contains("(the same for da.c1)"), "{e}");
    // Another colour's units in the hex: named, with the rule.
    t.put("nh.i1", "0601");
    t.put("NH nh.i2", "0101");
    let e = t.go(JURCHEN, "combat da: attack 0601", &[]).unwrap_err();
    assert!(
        e.contains("Daisan is activated; Nurhaci's units cannot fight in its action")
            && e.contains("2.4(7)"),
        "{e}"
    );
    // A unit already in an earlier combat of the same order (7.0(1)).
    t.put("da.h1", "0102");
    t.put("ds.i3", "0102");
    let e = t
        .go(JURCHEN, "combat da: fire da.h1 -> ds.i3; attack 0102", &[])
        .unwrap_err();
    assert!(
        e.contains("da.h1 fights in an earlier combat of this order") && e.contains("7.0(1)"),
        "{e}"
    );
    // No own unit at all.
    let e = t.go(JURCHEN, "combat da: attack 0301", &[]).unwrap_err();
    assert!(e.contains("none of your combat units is in 0301"), "{e}");
    assert_eq!(t.st.ap, [10, 10], "nothing spent");
}

/// 7.3: an attack is on the enemy in the attackers' own hex. A player who
/// names the enemy's hex instead (`attack 0202 with ds.i1` from 0203) is
/// told where his units are and what to write.
#[test]
fn rule_7_3_an_attack_on_the_next_hex_says_where_the_attackers_are() {
    let mut t = attack_fixture();
    let e = t
        .go(MING, "combat ds: attack 0202 with ds.i1", &[])
        .unwrap_err();
    assert!(
        e.contains("an attack is on the enemy in the attackers' own hex: ds.i1 in 0203, not 0202")
            && e.contains("then `attack 0203`")
            && e.contains("(7.3)"),
        "{e}"
    );
}

/// A move's result centres the other side's map snippet on where the units
/// went: the first place the events name is the destination, not the hex
/// the command or the units left.
#[test]
fn a_moves_events_name_the_destination_first() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DS ds.c1", "0101");
    t.active(MING);
    let ev = t
        .go(MING, "move ds: ds.c1 0201 0301 0401 0501", &[])
        .unwrap();
    let first = ev.iter().flat_map(|e| e.focus.iter()).next().copied();
    assert_eq!(first, Some(h("0501").into()), "{ev:?}");
}

/// 5.0(1), 7.1: a fire or charge by a unit out of command distance names
/// the distance too.
#[test]
fn rule_5_0_fire_out_of_command_distance_names_the_distance() {
    let mut t = fixture(&["......", "......"], "", &[]);
    t.put("DA da.i1", "0101");
    t.put("da.h1", "0501");
    t.put("DS ds.i1", "0601");
    t.active(JURCHEN);
    let e = t
        .go(JURCHEN, "combat da: fire da.h1 -> ds.i1", &[])
        .unwrap_err();
    assert!(
        e.contains("da.h1 in 0501 was out of Daisan's command distance")
            && e.contains("4 hexes away"),
        "{e}"
    );
}

// ------------------------------------------------------------ legal orders

/// 4.2.1, 6.0, 1.1: `command: orders` lists a move of each activated unit to
/// every hex it can reach, with a path the order takes, and of each stack
/// together; each line is itself a legal move.
#[test]
fn legal_orders_list_every_destination_with_its_path() {
    let mut t = fixture(&["......", "......", "......", "......"], "", &[]);
    t.put("DS ds.i1 ds.i2", "0101");
    t.active(MING);
    let legal = t.r.legal_moves(&t.st, MING);
    let ends = |unit: &str| -> Vec<Hex> {
        legal
            .iter()
            .filter_map(|l| l.strip_prefix(&format!("move ds: {unit} ")))
            .filter(|rest| !rest.contains(',') && !rest.contains('\n'))
            .filter_map(|rest| rest.split_whitespace().last())
            .map(h)
            .collect()
    };
    // Infantry has 4 MP (2.4(5)) and Plain costs 1 (6.1): every hex within
    // four of 0101 on this open map, none further.
    let within: Vec<Hex> = (1..=6)
        .flat_map(|c| (1..=4).map(move |r| Hex::new(c, r)))
        .filter(|x| *x != h("0101") && x.distance(h("0101")) <= 4)
        .collect();
    for unit in ["ds.i1", "ds.i2"] {
        let mut got = ends(unit);
        got.sort();
        got.dedup();
        let mut want = within.clone();
        want.sort();
        assert_eq!(got, want, "{unit}: {legal:#?}");
    }
    assert!(
        legal
            .iter()
            .any(|l| l.starts_with("move ds: ds.i1 ") && l.contains(", ds.i2 ")),
        "the stack moves together: {legal:#?}"
    );
    for l in legal.iter().filter(|l| l.starts_with("move ds:")) {
        let mut u = T {
            r: t.r.clone(),
            st: t.st.clone(),
        };
        u.go(MING, l, &[]).unwrap_or_else(|e| panic!("{l}: {e}"));
    }
}

/// 7.0(1), 7.3: each activated unit in the enemy's hex may attack alone,
/// and the listing says so unit by unit.
#[test]
fn legal_orders_list_an_attack_per_unit() {
    let mut t = fixture(&["......", "......", "......", "......"], "", &[]);
    t.put("DS ds.i1 ds.i2", "0101");
    t.put("nh.i1", "0101");
    t.active(MING);
    let legal = t.r.legal_moves(&t.st, MING);
    for unit in ["ds.i1", "ds.i2"] {
        let line = format!("combat ds: attack 0101 with {unit}");
        assert!(legal.contains(&line), "{line}: {legal:#?}");
    }
}
