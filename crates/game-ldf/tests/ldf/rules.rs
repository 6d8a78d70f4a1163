//! Lest Darkness Fall: the rulebook's examples and its unambiguous rules,
//! each test citing its rule. States are built on the embedded map by moving
//! counters; dice are scripted with `Dice::recorded`, and CRT results are
//! found by looking the wanted result up in the table, so no test depends on
//! the stand-in cells.

use umpire_core::dice::Dice;
use umpire_core::hex::Hex;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{Audience, Event, RuleError, Ruleset, Setup};
use umpire_ldf::combat::{column, garrison_strength, odds_step, step_name};
use umpire_ldf::data::{Data, HexInfo, Kind, OFFSET, Outcome, Region, UnitId};
use umpire_ldf::state::{Faction, Loc, Player, Stage};
use umpire_ldf::{Ldf, orders, zoc};

use crate::kit::{GP, ROMAN, T, h, say as text, set_up};

/// A game before the Germano-Parthian's set-up (3.3).
fn fresh() -> T {
    set_up(Ldf::new())
}

/// A game after `setup auto`, in Turn 1's actions phase.
fn game() -> T {
    T::opening()
}

/// A game with every counter set aside: tests place what they need.
fn empty() -> T {
    let mut t = game();
    for i in 0..t.st.units().len() {
        t.st.unit_mut(UnitId(i as u16)).loc = Loc::Aside;
    }
    t.st.pool.clear();
    t
}

impl T {
    /// The Roman, given the action, moves the stack in `from` to `to`.
    fn roman_move(&mut self, from: Hex, to: Hex) -> Result<Vec<Event>, RuleError> {
        self.st.actor = Player::Roman;
        self.run(ROMAN, &format!("move {from} to {to}"), &[])
    }
    /// The rebel force at `p[0]` moves two hexes along `p`, past loyal
    /// Romans in `q`, the conversion roll for `q` (8.3) being `roll`.
    fn march_past(&mut self, p: &[Hex], q: Hex, roll: u32) -> Vec<Event> {
        self.ok(
            GP,
            &format!("move {} to {} {}", p[0], p[1], p[2]),
            &[(&format!("conversion-{q}"), 6, roll)],
        )
    }
}

/// A path of `n` steps through empty core land, never touching itself, no
/// river or narrows, starting as near `start` as can be.
fn path(d: &Data, start: Hex, n: usize) -> Vec<Hex> {
    fn grow(d: &Data, p: &mut Vec<Hex>, n: usize) -> bool {
        if p.len() > n {
            return true;
        }
        let cur = *p.last().unwrap();
        let next: Vec<Hex> = d
            .links(cur)
            .filter(|x| {
                d.region(*x).is_core()
                    && !d.is_narrows(*x)
                    && !p.contains(x)
                    && !d.side(cur, *x).is_river()
            })
            .filter(|x| p[..p.len() - 1].iter().all(|q| !q.adjacent_on(OFFSET, *x)))
            .filter(|x| x.distance_on(OFFSET, d.special.rome) > 2)
            .collect();
        for x in next {
            p.push(x);
            if grow(d, p, n) {
                return true;
            }
            p.pop();
        }
        false
    }
    let mut starts: Vec<Hex> = d
        .all_hexes()
        .filter(|x| d.region(*x).is_core() && !d.is_narrows(*x))
        .collect();
    starts.sort_by_key(|x| (x.distance_on(OFFSET, start), *x));
    for s in starts {
        let mut p = vec![s];
        if grow(d, &mut p, n) {
            return p;
        }
    }
    panic!("no path of {n}");
}

#[test]
fn the_embedded_data_passes_every_check_with_provenance_on_every_value() {
    let d = Data::embedded().unwrap();
    let s = umpire_ldf::check_loaded(&d).unwrap();
    for k in ["rulebook", "public", "reconstructed", "stand-in"] {
        assert!(
            s.tagged.get(k).copied().unwrap_or(0) > 0,
            "{k}: {:?}",
            s.tagged
        );
    }
    // 2.2: 176 counters in all.
    assert_eq!(d.counter_total, 176);
    assert_eq!(d.units.len() as u32 + d.markers, 176);
}

#[test]
fn a_club_file_without_provenance_is_refused() {
    use umpire_ldf::data::{MAP_TOML, OOB_TOML, TABLES_TOML};
    let bad = TABLES_TOML.replace("src = \"rulebook 2.6 (cavalry 8, other mobile units 4), 8.4 (a leader adds one), 8.5 (mixed forces)\"", "");
    let e = Data::load(MAP_TOML, OOB_TOML, &bad).unwrap_err();
    assert!(
        e.iter()
            .any(|m| m.contains("tables.movement.infantry has no provenance tag")),
        "{e:?}"
    );
    // 1.5: the narrows are printed; moving one is an error.
    let moved = MAP_TOML.replacen("hex = \"2421\"", "hex = \"2521\"", 1);
    let e = Data::load(&moved, OOB_TOML, TABLES_TOML).unwrap_err();
    assert!(e.iter().any(|m| m.contains("(1.5)")), "{e:?}");
}

// 9.5: 3315, 3415 and 3416 "all come together" at one point (odd-q, R-D2).
#[test]
fn the_gallic_vertex_hexes_meet_at_one_point() {
    assert!(
        h("3315").adjacent_on(OFFSET, h("3415"))
            && h("3315").adjacent_on(OFFSET, h("3416"))
            && h("3415").adjacent_on(OFFSET, h("3416"))
    );
}

// 6.5: "the Rome/Ostia hex (3318), when unlooted, generates four TP"; 13.10:
// garrisons defend at 4 there, 2 in 4521, 5 in 4119, 8 in Ctesiphon, 1 in the Caucasus.
#[test]
fn treasury_values_and_garrison_strengths_follow_the_text() {
    let d = Data::embedded().unwrap();
    assert_eq!(d.hex(h("3318")).unwrap().tp, 4);
    assert_eq!(garrison_strength(&d, h("3318"), Kind::RomanGarrison), 4);
    assert_eq!(garrison_strength(&d, h("4521"), Kind::RomanGarrison), 2);
    assert_eq!(garrison_strength(&d, h("4119"), Kind::RomanGarrison), 5);
    assert_eq!(garrison_strength(&d, h("5020"), Kind::ParthianGarrison), 8);
    let cau = d.all_hexes().find(|x| d.region(*x).is_caucasus()).unwrap();
    assert_eq!(garrison_strength(&d, cau, Kind::ClientGarrison), 1);
}

// 13.2: "if 13 strength points were attacking four ... 3.25 to 1, rounded off,
// in favor of the defender, to three to one (3:1)".
#[test]
fn odds_are_rounded_down_for_the_defender() {
    assert_eq!(step_name(odds_step(13, 4)), "3:1");
    assert_eq!(step_name(odds_step(4, 13)), "1:4");
    assert_eq!(step_name(odds_step(3, 4)), "1:2");
    assert_eq!(step_name(odds_step(4, 4)), "1:1");
}

// 13.15: below 1:3 an automatic AE, above 6:1 an automatic DE, shifts first.
#[test]
fn odds_off_the_table_are_automatic_after_the_shifts() {
    let d = Data::embedded().unwrap();
    let k = odds_step(1, 4);
    assert_eq!(column(&d, k), Err(Outcome::AE));
    assert_eq!(column(&d, k + 1), Ok(0), "1:4 shifted one right is 1:3");
    let k = odds_step(7, 1);
    assert_eq!(column(&d, k), Err(Outcome::DE));
    assert_eq!(column(&d, k - 1), Ok(7), "7:1 shifted one left is 6:1");
}

// 3.2, 3.5: the fixed Roman set-up and the pool of 26.
#[test]
fn the_roman_setup_and_the_pool_are_as_printed() {
    let t = game();
    let d = t.d();
    for hx in ["2812", "3515", "3615", "3816", "4619", "4719"] {
        let kinds: Vec<Kind> = t.st.at(h(hx)).map(|u| d.kind(u)).collect();
        assert_eq!(
            kinds.iter().filter(|k| **k == Kind::Base).count(),
            2,
            "{hx}"
        );
        assert_eq!(
            kinds.iter().filter(|k| **k == Kind::Infantry).count(),
            2,
            "{hx}"
        );
    }
    assert_eq!(t.at("emp"), Some(h("3318")));
    assert_eq!(t.at("c1"), Some(h("3318")));
    assert_eq!(t.st.pool.len(), 26);
    assert_eq!(t.st.treasury, 5);
    assert_eq!(
        t.st.at(h("4720")).count(),
        9,
        "eight Palmyrans and a garrison"
    );
    assert_eq!(
        d.of_kind(Kind::ClientGarrison)
            .filter(|u| t.st.hex_of(*u).is_some())
            .count(),
        7
    );
    assert_eq!(
        d.of_kind(Kind::ParthianGarrison)
            .filter(|u| t.st.hex_of(*u).is_some())
            .count(),
        7
    );
    assert_eq!(
        d.of_kind(Kind::RomanGarrison)
            .filter(|u| t.st.unit(*u).loc == Loc::Aside)
            .count(),
        11
    );
    // 5.3: no administrative phase in Turn 1; the Germano-Parthian acts first.
    assert_eq!(
        (t.st.turn, t.st.stage, t.st.actor),
        (1, Stage::Actions, Player::Gp)
    );
}

// 3.3, 10.2: 17 tribes in 17 different Barbaria hexes.
#[test]
fn the_gp_setup_allows_no_german_stacking() {
    let r = Ldf::new();
    let mut t = T {
        st: r
            .setup(&Setup {
                scenario: "campaign".into(),
                options: Default::default(),
                sides: vec!["roman".into(), "gp".into()],
            })
            .unwrap(),
        r,
    };
    let b: Vec<Hex> = t
        .d()
        .all_hexes()
        .filter(|x| t.d().region(*x) == Region::Barbaria)
        .take(16)
        .collect();
    let mut tribes: Vec<String> = b.iter().map(|x| x.to_string()).collect();
    tribes.push(tribes[0].clone());
    let e = t.err(
        GP,
        &format!(
            "setup tribes {} gunds 5020 5020 5020 5020 5020 5020 5020 5020",
            tribes.join(" ")
        ),
    );
    assert!(e.contains("(3.3, 10.2)"), "{e}");
    let e = t.err(GP, "setup tribes 3318 gunds 5020");
    assert!(e.contains("(3.3)"), "{e}");
}

// 1.5, 12.5: only Roman units move into narrows hexes; others may attack them.
#[test]
fn only_romans_enter_the_narrows() {
    let mut t = empty();
    let d = t.d().clone();
    let n = h("4119");
    let land = d.links(n).find(|x| d.region(*x).is_core()).unwrap();
    t.put("t1", land);
    let e = t.err(GP, &format!("move {land} to {n}"));
    assert!(e.contains("(1.5, 12.5)"), "{e}");
    t.st.unit_mut(t.u("t1")).loc = Loc::Aside;
    t.put("v1", land);
    t.st.actor = Player::Roman;
    t.ok(ROMAN, &format!("move {land} to {n}"), &[]);
    assert_eq!(t.at("v1"), Some(n));
}

// 2.6, 8.4, 12.4: infantry move four; a leader adds one.
#[test]
fn a_leader_adds_one_movement_point() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 5);
    let route: Vec<String> = p[1..].iter().map(|x| x.to_string()).collect();
    t.put("v1", p[0]);
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("move {} to {}", p[0], route.join(" ")));
    assert!(e.contains("(12.4)"), "{e}");
    t.put("emp", p[0]);
    t.ok(ROMAN, &format!("move {} to {}", p[0], route.join(" ")), &[]);
    assert_eq!((t.at("v1"), t.at("emp")), (Some(p[5]), Some(p[5])));
}

// 8.5: a mixed force without a leader stops when the infantry have moved four.
#[test]
fn a_mixed_force_without_a_leader_moves_four() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 5);
    let route: Vec<String> = p[1..].iter().map(|x| x.to_string()).collect();
    t.put("v1", p[0]);
    t.put("c1", p[0]);
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("move {} to {}", p[0], route.join(" ")));
    assert!(e.contains("12.4"), "{e}");
    // Cavalry alone move eight (2.6).
    t.st.unit_mut(t.u("v1")).loc = Loc::Aside;
    t.ok(ROMAN, &format!("move {} to {}", p[0], route.join(" ")), &[]);
    assert_eq!(t.at("c1"), Some(p[5]));
}

// 8.5: with a leader, the infantry stop after five and the cavalry and leader go on.
#[test]
fn with_a_leader_the_infantry_stop_after_five_and_the_cavalry_go_on() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 7);
    let route: Vec<String> = p[1..].iter().map(|x| x.to_string()).collect();
    for id in ["v1", "c1", "emp"] {
        t.put(id, p[0]);
    }
    t.st.actor = Player::Roman;
    // From version 14 the order leaves the infantry itself (8.5).
    let e = t.err(ROMAN, &format!("move {} to {}", p[0], route.join(" ")));
    assert!(e.contains("(8.5)") && e.contains("drop v1"), "{e}");
    let (first, rest) = route.split_at(5);
    t.ok(
        ROMAN,
        &format!(
            "move {} to {} drop v1 {}",
            p[0],
            first.join(" "),
            rest.join(" ")
        ),
        &[],
    );
    assert_eq!(
        (t.at("v1"), t.at("c1"), t.at("emp")),
        (Some(p[5]), Some(p[7]), Some(p[7]))
    );
    // Version 13 left them behind unasked.
    let mut t = empty();
    t.r = t.r.as_version(13).unwrap();
    for id in ["v1", "c1", "emp"] {
        t.put(id, p[0]);
    }
    t.st.actor = Player::Roman;
    let ev = t.ok(ROMAN, &format!("move {} to {}", p[0], route.join(" ")), &[]);
    assert!(text(&ev).contains("(8.5)"), "{}", text(&ev));
    assert_eq!(
        (t.at("v1"), t.at("c1"), t.at("emp")),
        (Some(p[5]), Some(p[7]), Some(p[7]))
    );
}

// 11.3: a force stops in the first EZOC hex it enters; 11.1: it may not leave.
#[test]
fn zones_of_control_stop_and_hold_a_force() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    let q = d
        .links(p[2])
        .find(|x| {
            !p.contains(x)
                && !x.adjacent_on(OFFSET, p[0])
                && !x.adjacent_on(OFFSET, p[1])
                && !d.side(p[2], *x).is_river()
        })
        .expect("a hex beside the path");
    t.put("v1", p[0]);
    t.put("t1", q);
    t.st.actor = Player::Roman;
    let e = t.err(
        ROMAN,
        &format!("move {} to {} {} {}", p[0], p[1], p[2], p[3]),
    );
    assert!(e.contains("(11.3)"), "{e}");
    t.ok(ROMAN, &format!("move {} to {} {}", p[0], p[1], p[2]), &[]);
    assert!(zoc::in_ezoc(&d, &t.st, p[2], Faction::Loyal));
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("move {} to {}", p[2], p[3]));
    assert!(e.contains("11.1"), "{e}");
}

// 11.1: Germanic ZOC never crosses the Rhine or Danube; 13.8: a German attack
// across them shifts one column left; 2.6: a German fights with a die plus one.
#[test]
fn rivers_stop_german_zoc_and_shift_german_attacks() {
    let mut t = empty();
    let d = t.d().clone();
    let (&(a, b), _) = d
        .sides
        .iter()
        .find(|((a, b), k)| {
            k.is_river()
                && d.region(*a) == Region::Barbaria
                && d.region(*b).is_core()
                && b.distance_on(OFFSET, d.special.rome) > 2
        })
        .expect("a Barbaria/core river side");
    t.put("t1", a);
    t.put("v1", b);
    assert!(
        !zoc::in_ezoc(&d, &t.st, b, Faction::Loyal),
        "German ZOC across the river"
    );
    assert!(
        zoc::in_ezoc(&d, &t.st, a, Faction::German),
        "Roman ZOC does cross it"
    );
    let k = odds_step(4, 1) - 1;
    let roll = t.roll_for(k, Outcome::AS);
    let ev = t.ok(
        GP,
        &format!("attack {a} on {b}"),
        &[("german-cf-t1", 6, 3), ("combat", 6, roll)],
    );
    let s = text(&ev);
    assert!(
        s.contains("t1 fights with 4")
            && s.contains("4 against 1: 4:1, -1 a German attack across the Rhine (13.8) = 3:1"),
        "{s}"
    );
}

// 4.2: a tribe entering Rome/Ostia wins the game at once.
#[test]
fn a_tribe_entering_rome_wins_at_once() {
    let mut t = empty();
    let d = t.d().clone();
    let rome = d.special.rome;
    let next = d.links(rome).find(|x| !d.is_narrows(*x)).unwrap();
    t.put("t1", next);
    t.ok(GP, &format!("move {next} to {rome}"), &[]);
    let f = t.st.finished.clone().unwrap();
    assert_eq!(f.winners, vec![GP]);
    assert!(f.summary.contains("(4.2)"));
}

// 13.11 DR, 13.12, 13.14, 8.19: the defender retreats, the attacker advances
// and draws a free chit.
#[test]
fn a_retreat_an_advance_and_a_free_chit() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    for id in ["v1", "v2", "emp"] {
        t.put(id, p[0]);
    }
    t.put("g1", p[1]);
    t.st.pool = vec![umpire_ldf::state::Item::Chit(4)];
    t.st.actor = Player::Roman;
    let k = odds_step(2, 1) + 1;
    let roll = t.roll_for(k, Outcome::DR);
    let mut ev = t.ok(
        ROMAN,
        &format!("attack {} on {}", p[0], p[1]),
        &[("combat", 6, roll)],
    );
    // The tribe's retreat hexes tie and the Germano-Parthian stated no
    // rally: he is asked (digest 2.7, N1); `pass` takes the doctrine's.
    assert_eq!(t.st.question.as_ref().map(|q| q.to), Some(Player::Gp));
    ev.extend(t.ok(GP, "pass", &[]));
    let s = text(&ev);
    assert!(
        s.contains("DR") && s.contains("(13.12)") && s.contains("(13.14)") && s.contains("(8.19)"),
        "{s}"
    );
    assert_eq!(t.at("v1"), Some(p[1]));
    assert_eq!(
        t.at("emp"),
        Some(p[1]),
        "the leader goes with his last units"
    );
    assert_ne!(t.at("g1"), Some(p[1]));
    assert_eq!(t.st.hand(Player::Roman), &[4]);
}

// 13.11 AE and EX.
#[test]
fn attackers_eliminated_and_exchanges() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    t.put("v1", p[0]);
    for g in ["g1", "g2", "g3"] {
        t.put(g, p[1]);
    }
    t.st.actor = Player::Roman;
    let roll = t.roll_for(odds_step(1, 3), Outcome::AE);
    t.ok(
        ROMAN,
        &format!("attack {} on {}", p[0], p[1]),
        &[("combat", 6, roll)],
    );
    assert_eq!(t.st.unit(t.u("v1")).loc, Loc::Dead);
    // EX: two against one; the defender dies and the attacker loses one, his choice.
    let mut t = empty();
    t.put("v1", p[0]);
    t.put("v2", p[0]);
    t.put("g1", p[1]);
    t.st.actor = Player::Roman;
    let roll = t.roll_for(odds_step(2, 1), Outcome::EX);
    t.ok(
        ROMAN,
        &format!("attack {} on {} advance none losses v2", p[0], p[1]),
        &[("combat", 6, roll)],
    );
    assert_eq!(t.st.unit(t.u("g1")).loc, Loc::Dead);
    assert_eq!(t.st.unit(t.u("v2")).loc, Loc::Dead);
    assert_eq!(t.at("v1"), Some(p[0]));
}

// 10.7: two infantry without a leader, eight with one.
#[test]
fn infantry_stack_two_without_a_leader() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 2);
    t.put("v1", p[0]);
    t.put("v2", p[1]);
    t.put("v3", p[1]);
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("move {} to {}", p[0], p[1]));
    assert!(e.contains("(10.7)"), "{e}");
    t.put("emp", p[0]);
    t.ok(ROMAN, &format!("move {} to {}", p[0], p[1]), &[]);
}

// 8.17: a hand holds six; a seventh draw needs a put-back first.
#[test]
fn the_hand_holds_six_chits() {
    let mut t = game();
    t.st.pool
        .retain(|i| !matches!(i, umpire_ldf::state::Item::Chit(1..=6)));
    t.st.hands[1] = vec![1, 2, 3, 4, 5, 6];
    let e = t.err(GP, "draw");
    assert!(e.contains("(8.17)"), "{e}");
    let n = t.st.pool.len() as u32 + 1;
    t.ok(GP, "draw return 3", &[("draw", n, 1)]);
    assert_eq!(t.st.hand(Player::Gp).len(), 6);
}

// 5.4, 8.20: two passes end the turn; 6.9: at most five TP carried over; 5.6:
// every chit back to the pool; 6.5: the administrative phase collects TP.
#[test]
fn two_passes_end_the_turn() {
    let mut t = game();
    t.st.treasury = 9;
    t.st.pool.retain(|i| *i != umpire_ldf::state::Item::Chit(5));
    t.st.hands[0] = vec![5];
    t.ok(GP, "pass", &[]);
    let ev = t.ok(ROMAN, "pass", &[]);
    let revenue = umpire_ldf::economics::revenue(t.d(), &t.st);
    assert_eq!(
        (t.st.turn, t.st.stage),
        (2, Stage::AdminRoman),
        "{}",
        text(&ev)
    );
    assert!(t.st.hand(Player::Roman).is_empty() && t.st.pool.len() == 26);
    assert_eq!(t.st.treasury, 5 + revenue);
    // The four TP over the cap are said to be lost, not silently dropped.
    assert!(
        text(&ev).contains(
            "Rome carries 5 TP over of its 9 (at most 5 carry over; 4 TP unspent are lost) (5.4, 6.9)"
        ),
        "{}",
        text(&ev)
    );
}

// 6.6: emergency taxation doubles a hex's TP and loots it; never Rome/Ostia.
#[test]
fn emergency_taxation() {
    let mut t = game();
    t.st.stage = Stage::AdminRoman;
    let e = t.err(ROMAN, "tax 3318");
    assert!(e.contains("(6.6)"), "{e}");
    let d = t.d().clone();
    let lug = d.find_hex("Lugdunum").unwrap();
    let before = t.st.treasury;
    t.ok(ROMAN, "tax Lugdunum", &[]);
    assert_eq!(t.st.treasury, before + 2 * d.hex(lug).unwrap().tp);
    assert!(t.st.looted.contains(&lug));
}

// 6.7: a twinned base and vexillation give two TP; cavalry never demobilize.
#[test]
fn demobilizing_a_pair() {
    let mut t = game();
    t.st.stage = Stage::AdminRoman;
    let before = t.st.treasury;
    t.ok(ROMAN, "demobilize b1 v1", &[]);
    assert_eq!(t.st.treasury, before + 2);
    let e = t.err(ROMAN, "demobilize c1");
    assert!(e.contains("(6.7)"), "{e}");
}

// 8.8: salt and Agents add at most +3 together. Version 13 took salt 3 with
// Agents, spent both and cut the modifier to +3; version 14 refuses the
// order before anything is spent (`crates/game-ldf/tests/ldf/defects.rs`).
#[test]
fn version_13_cut_salt_and_agents_to_three() {
    let mut t = game();
    t.r = t.r.as_version(13).unwrap();
    let d = t.d().clone();
    let co = t.u("co");
    let hx = t.at("v5").unwrap();
    t.st.unit_mut(co).loc = Loc::Hex(hx);
    t.st.unit_mut(co).rebel = true;
    t.st.pool
        .retain(|i| *i != umpire_ldf::state::Item::Chit(17));
    t.st.hands[0] = vec![17];
    t.st.actor = Player::Roman;
    t.st.treasury = 5;
    let ev = t.ok(
        ROMAN,
        "treachery salt 3 with 17",
        &[("treachery against the rebel co-emperor", 6, 1)],
    );
    assert!(
        text(&ev).contains("roll 1 +3 = 4: failure"),
        "{}",
        text(&ev)
    );
    assert_eq!(t.st.treasury, 2, "the salt is spent anyway");
    assert!(t.st.hex_of(co).is_some());
    let _ = d;
}

// 12.6: no sea movement starts or ends in Petra.
#[test]
fn petra_has_no_sea_movement() {
    let mut t = empty();
    t.put("v1", h("4623"));
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "sea 4623 to Alexandria");
    assert!(e.contains("(12.6)"), "{e}");
}

// 8.7: a rebel co-emperor never rises in Rome/Ostia or with the emperor.
#[test]
fn no_rebel_coemperor_in_rome() {
    let mut t = empty();
    t.put("emp", h("3318"));
    t.put("c1", h("3318"));
    let e = t.err(GP, "rebel");
    assert!(e.contains("(8.7)"), "{e}");
}

// 10.9: a player sees his own hand and only the count of the other's.
#[test]
fn each_side_sees_only_its_own_hand() {
    let mut t = game();
    t.st.pool
        .retain(|i| !matches!(i, umpire_ldf::state::Item::Chit(17 | 2)));
    t.st.hands = [vec![17], vec![2]];
    let roman =
        t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(ROMAN))
            .status
            .join("\n");
    let gp =
        t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(GP))
            .status
            .join("\n");
    assert!(
        roman.contains("Agents in Enemy Camp") && !roman.contains("Beseech"),
        "{roman}"
    );
    assert!(
        gp.contains("Beseech") && !gp.contains("Agents in Enemy Camp"),
        "{gp}"
    );
    assert!(roman.contains("the Roman holds 1, the Germano-Parthian 1"));
    umpire_ldf::invariants(t.d(), &t.st).unwrap();
}

// Standing orders: defaults stated, a player's own, errors with the line.
#[test]
fn standing_orders_are_read_and_shown() {
    let mut t = game();
    let lines = vec![
        SourceLine {
            line: 3,
            column: 3,
            text: "rally Lugdunum".into(),
        },
        SourceLine {
            line: 4,
            column: 3,
            text: "sponsor 2".into(),
        },
    ];
    t.r.set_standing(&mut t.st, ROMAN, &lines).unwrap();
    let shown = t.r.standing(&t.st, ROMAN).join("\n");
    assert!(
        shown.contains("sponsor 2") && shown.contains("rally 3016"),
        "{shown}"
    );
    // Digest 2.7: he is told which decisions he will be asked about.
    assert!(
        shown.contains("your stated orders answer retreat (rally), sponsoring the games (sponsor)"),
        "{shown}"
    );
    assert!(shown.contains("you are asked, when the choice is real, about reaction chits"));
    let bad = vec![SourceLine {
        line: 7,
        column: 3,
        text: "salt treachery 9".into(),
    }];
    let e = t.r.set_standing(&mut t.st, GP, &bad).unwrap_err();
    assert_eq!(e.line, 7);
}

/// Sends every counter in `h` aside.
fn clear(t: &mut T, hex: Hex) {
    let us: Vec<UnitId> = t.st.at(hex).collect();
    for u in us {
        t.st.unit_mut(u).loc = Loc::Aside;
    }
}

// 7.3: a Roman unit entering Ctesiphon collapses Parthia: every Parthian unit
// to the dead pile, 11 TP (and the plunder of 6.5, R-C11), Romans leave Parthia.
#[test]
fn taking_ctesiphon_collapses_parthia() {
    let mut t = game();
    let d = t.d().clone();
    let cte = d.special.ctesiphon;
    clear(&mut t, cte);
    let from = d
        .links(cte)
        .find(|x| d.region(*x) == Region::Parthia && t.st.at(*x).next().is_none())
        .unwrap();
    let gs: Vec<UnitId> = d.of_kind(Kind::Gund).collect();
    for g in gs {
        t.st.unit_mut(g).loc = Loc::Aside;
    }
    t.put("v1", from);
    t.st.actor = Player::Roman;
    let ev = t.ok(ROMAN, &format!("move {from} to {cte}"), &[]);
    assert!(t.st.collapsed, "{}", text(&ev));
    assert_eq!(t.st.treasury, 5 + 11 + d.hex(cte).unwrap().tp);
    assert!(
        d.of_kind(Kind::ParthianGarrison)
            .all(|u| t.st.hex_of(u).is_none())
    );
    assert!(d.region(t.at("v1").unwrap()).is_core(), "evacuated (7.3)");
    // While collapsed, no unit may move into Parthia.
    let back = t.at("v1").unwrap();
    let into = d.links(back).find(|x| d.region(*x) == Region::Parthia);
    if let Some(x) = into {
        t.st.actor = Player::Roman;
        let e = t.err(ROMAN, &format!("move {back} to {x}"));
        assert!(e.contains("(7.3)"), "{e}");
    }
}

// 6.3: the first entry of an enemy loots a TP hex; a German loots Roman towns.
#[test]
fn an_enemy_entering_a_centre_loots_it() {
    let mut t = empty();
    let d = t.d().clone();
    let lug = d.find_hex("Lugdunum").unwrap();
    let from = d.links(lug).find(|x| !d.is_narrows(*x)).unwrap();
    t.put("t1", from);
    t.ok(GP, &format!("move {from} to {lug}"), &[]);
    assert!(t.st.looted.contains(&lug));
    assert_eq!(
        umpire_ldf::economics::revenue(&d, &t.st) + d.hex(lug).unwrap().tp,
        {
            let mut s = t.st.clone();
            s.looted.remove(&lug);
            s.unit_mut(t.u("t1")).loc = Loc::Aside;
            umpire_ldf::economics::revenue(&d, &s)
        }
    );
}

// 9.2: attacking inactive Palmyra makes it Rome's ally for good; 13.15: 1:10 is
// an automatic AE, no die.
#[test]
fn attacking_palmyra_brings_it_in_for_rome() {
    let mut t = game();
    let d = t.d().clone();
    let pal = d.special.palmyra;
    let from = d.links(pal).find(|x| t.st.at(*x).next().is_none()).unwrap();
    t.put("g1", from);
    let ev = t.ok(GP, &format!("attack {from} on {pal}"), &[]);
    assert!(
        text(&ev).contains("(9.2; R-H2)") && text(&ev).contains("automatic AE"),
        "{}",
        text(&ev)
    );
    assert_eq!(
        t.st.palmyra,
        umpire_ldf::state::Palmyra::Roman { attacked: true }
    );
    // 9.3: Rome may activate Palmyra only in Turn 3.
    let mut t = game();
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "activate palmyra");
    assert!(e.contains("(8.15, 9.3)"), "{e}");
    t.st.turn = 3;
    t.ok(ROMAN, "activate palmyra", &[]);
}

// 9.5: the Gallic Empire rises with no leader, rebel or German inside; it ends
// when the emperor enters Trier.
#[test]
fn the_gallic_empire_rises_and_ends_at_trier() {
    let mut t = game();
    let d = t.d().clone();
    let e = t.err(GP, "activate gaul");
    assert!(e.contains("9.5"), "{e}");
    t.st.turn = 3;
    t.put("emp", h("2813"));
    let e = t.err(GP, "activate gaul");
    assert!(e.contains("(9.5)"), "{e}");
    t.put("emp", d.special.rome);
    t.ok(GP, "activate gaul", &[]);
    assert_eq!(t.st.gallic, umpire_ldf::state::Gallic::Active);
    let b = d
        .of_kind(Kind::Base)
        .find(|u| t.st.hex_of(*u) == Some(h("2812")))
        .unwrap();
    assert!(t.st.unit(b).gallic && t.st.unit(b).rebel);
    let trier = d.special.trier;
    clear(&mut t, trier);
    let from = d
        .links(trier)
        .find(|x| d.region(*x) != Region::Gallic && t.st.at(*x).next().is_none())
        .unwrap();
    clear(&mut t, from);
    let around: Vec<Hex> = d
        .links(trier)
        .chain(d.links(from))
        .filter(|n| *n != from)
        .collect();
    for n in around {
        clear(&mut t, n);
    }
    t.put("emp", from);
    t.put("c1", from);
    t.st.actor = Player::Roman;
    t.ok(ROMAN, &format!("move {from} to {trier}"), &[]);
    assert_eq!(t.st.gallic, umpire_ldf::state::Gallic::Ended);
    assert!(
        !t.st.unit(b).gallic && !t.st.unit(b).rebel,
        "the Gallic units return to loyalty"
    );
}

// 8.3: a rebel co-emperor's force rolls for each hex of loyal Romans it moves
// next to: even flips them, odd ends the move.
#[test]
fn rebel_conversion_rolls() {
    let mut t = empty();
    let (p, q) = rebel_force_beside_loyal(&mut t);
    let ev = t.march_past(&p, q, 4);
    assert!(t.st.unit(t.u("v2")).rebel, "{}", text(&ev));
    assert_eq!(t.at("co"), Some(p[2]));
    // An odd roll keeps them loyal and ends the move where it is.
    let mut t2 = empty();
    rebel_force_beside_loyal(&mut t2);
    t2.march_past(&p, q, 3);
    assert!(!t2.st.unit(t2.u("v2")).rebel);
    assert_eq!(t2.at("co"), Some(p[1]));
}

// 8.3, 10.4, 10.5 (ruling R-F11): loyal Romans stacked with a Caucasus
// garrison cannot turn rebel without it, and it has no rebel side: no
// conversion roll, they stay loyal and the rebel force's move ends there.
// Self-play (seed 3, game 34) found a roll here leaving rebels stacked with
// the client garrison.
#[test]
fn loyal_romans_stacked_with_client_units_are_not_rolled_for() {
    let mut t = empty();
    let (p, q) = rebel_force_beside_loyal(&mut t);
    t.put("cg1", q);
    let ev = t.ok(GP, &format!("move {} to {} {}", p[0], p[1], p[2]), &[]);
    assert!(!t.st.unit(t.u("v2")).rebel, "{}", text(&ev));
    assert_eq!(t.at("co"), Some(p[1]), "the move ends next to them");
    assert!(text(&ev).contains("client units"), "{}", text(&ev));
}

/// A rebel co-emperor with `v1` at the start of a four-hex path from 3016,
/// and loyal `v2` in a hex its second step comes next to (8.3);
/// `(the path, v2's hex)`.
fn rebel_force_beside_loyal(t: &mut T) -> (Vec<Hex>, Hex) {
    let d = t.d().clone();
    let p = path(&d, h("3016"), 4);
    let q = d
        .links(p[1])
        .find(|x| !p.contains(x) && d.is_land(*x) && !x.adjacent_on(OFFSET, p[0]))
        .unwrap();
    for id in ["co", "v1"] {
        t.put(id, p[0]);
        let u = t.u(id);
        t.st.unit_mut(u).rebel = true;
    }
    t.put("v2", q);
    (p, q)
}

/// [`rebel_force_beside_loyal`] with a fortification and a rebuild under way
/// in `v2`'s hex (8.13, 8.14).
fn conversion_beside_work(t: &mut T) -> (Vec<Hex>, Hex) {
    let (p, q) = rebel_force_beside_loyal(t);
    t.st.fortify = Some(q);
    t.st.looted.insert(q);
    t.st.rebuilding.insert(q);
    (p, q)
}

// 8.13, 8.14: "actual occupation by one or more enemy units" aborts a
// fortification or a rebuild under way. Loyal Romans that turn rebel where
// they stand (8.3) occupy their hex for the enemy, as an entry would.
// Self-play at scale (seed 1001, game 952) found the Roman completing a
// fortification among units that had turned rebel: a loyal garrison stacked
// with rebels (10.4, 10.5).
#[test]
fn a_revolt_in_a_hex_aborts_its_fortification_and_rebuild() {
    let mut t = empty();
    let (p, q) = conversion_beside_work(&mut t);
    let ev = t.march_past(&p, q, 4);
    assert!(t.st.unit(t.u("v2")).rebel, "{}", text(&ev));
    assert_eq!(t.st.fortify, None, "{}", text(&ev));
    assert!(!t.st.rebuilding.contains(&q), "{}", text(&ev));
    assert!(t.st.looted.contains(&q), "still looted (6.4)");
    assert!(
        text(&ev).contains("aborts its fortification (8.13)"),
        "{}",
        text(&ev)
    );
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "fortify complete");
    assert!(e.contains("no fortification is under way"), "{e}");

    // Version 11 left the marker (its records replay so).
    let mut old = empty();
    old.r = old.r.as_version(11).unwrap();
    let (p, q) = conversion_beside_work(&mut old);
    old.march_past(&p, q, 4);
    assert_eq!(old.st.fortify, Some(q));
}

// 8.13, 10.4, 10.5: whatever path left a Fortify marker among the enemy, the
// loyal garrison is not set there.
#[test]
fn a_fortification_is_not_completed_among_the_enemy() {
    let mut t = empty();
    let (_, q) = conversion_beside_work(&mut t);
    let v2 = t.u("v2");
    t.st.unit_mut(v2).rebel = true;
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "fortify complete");
    assert!(
        e.contains(&format!("{q} is occupied by the enemy")) && e.contains("(8.13)"),
        "{e}"
    );
    assert!(t.st.at(q).all(|u| t.st.unit(u).rebel));
}

/// Pro-Roman Palmyrans stand in Carthago, where a fortification is under way.
fn palmyrans_in_the_work(t: &mut T) -> Hex {
    let carthago = t.d().find_hex("Carthago").unwrap();
    t.st.palmyra = umpire_ldf::state::Palmyra::Roman { attacked: false };
    t.st.fortify = Some(carthago);
    t.put("p1", carthago);
    t.st.actor = Player::Roman;
    carthago
}

// 8.13, 10.4, 10.5: pro-Roman Palmyrans are no enemy, so their entry does not
// abort a fortification, but no Roman garrison may stand with them: the work
// is completed once they have gone (version 13; self-play at scale, seed
// 1056 game 822, where version 12 set the garrison beside them).
#[test]
fn a_fortification_waits_while_palmyrans_stand_in_its_hex() {
    let mut t = empty();
    let carthago = palmyrans_in_the_work(&mut t);
    let listed = |t: &T| {
        t.r.legal_moves(&t.st, ROMAN)
            .iter()
            .any(|o| o == "fortify complete")
    };
    assert!(!listed(&t), "not offered while they stand there");
    let e = t.err(ROMAN, "fortify complete");
    assert!(
        e.contains(&format!(
            "units of different nationalities may not stack in {carthago}"
        )) && e.contains("(10.4, 10.5)"),
        "{e}"
    );
    assert_eq!(t.st.fortify, Some(carthago), "the work goes on (8.13)");
    assert!(t.st.at(carthago).all(|u| t.d().kind(u) == Kind::Palmyran));
    let p1 = t.u("p1");
    t.st.unit_mut(p1).loc = Loc::Aside;
    let ev = t.ok(ROMAN, "fortify complete", &[]);
    assert!(text(&ev).contains("is fortified (8.13)"), "{}", text(&ev));
    assert_eq!(t.st.fortify, None);
    stacks_hold(&t);

    let mut old = empty();
    old.r = old.r.as_version(12).unwrap();
    let carthago = palmyrans_in_the_work(&mut old);
    assert!(
        listed(&old),
        "a version-12 game is offered what version 12 accepts"
    );
    old.ok(ROMAN, "fortify complete", &[]);
    assert!(
        old.st
            .at(carthago)
            .any(|u| old.d().kind(u) == Kind::RomanGarrison),
        "version 12 set the garrison beside them"
    );
}

// 5.4, 14.3: The Gods Are Bored, drawn in Turns 1-4 with an even roll, ends the turn.
#[test]
fn the_gods_are_bored_end_the_turn() {
    let mut t = game();
    t.st.pool = vec![umpire_ldf::state::Item::Chit(18)];
    for c in (1..=24).filter(|c| *c != 18) {
        t.st.removed.push(c);
    }
    let ev = t.ok(GP, "draw", &[("gods-bored", 6, 2)]);
    assert_eq!(
        (t.st.turn, t.st.stage),
        (2, Stage::AdminRoman),
        "{}",
        text(&ev)
    );
}

// 14.3: Persecutions cost Rome a die plus one and leave the game.
#[test]
fn persecutions_cost_a_die_plus_one() {
    let mut t = game();
    t.st.pool = vec![umpire_ldf::state::Item::Chit(20)];
    for c in (1..=24).filter(|c| *c != 20) {
        t.st.removed.push(c);
    }
    t.ok(GP, "draw", &[("persecutions", 6, 3)]);
    assert_eq!(t.st.treasury, 1);
    assert!(t.st.removed.contains(&20) && t.st.pool.is_empty());
}

// 8.9, 8.8, R-F3, 14.4: treachery against the emperor; the Roman's negative
// salt (standing order N4) cannot stop a natural six; the table makes a new emperor.
#[test]
fn treachery_against_the_emperor_and_the_emperor_creation_table() {
    let mut t = game();
    let lines = vec![SourceLine {
        line: 1,
        column: 1,
        text: "salt treachery 2".into(),
    }];
    t.r.set_standing(&mut t.st, ROMAN, &lines).unwrap();
    let ev = t.ok(
        GP,
        "treachery",
        &[
            ("treachery against the emperor", 6, 6),
            ("emperor-table", 6, 3),
        ],
    );
    // Version 11: hexes tie for the largest army and the Roman stated no
    // `prefer`, so he is asked (N9); `pass` takes the lowest id.
    let s = text(&ev);
    assert!(s.contains("roll 6 -2 Roman salt = 4: success"), "{s}");
    assert!(t.st.question.is_some(), "{s}");
    let s = text(&t.ok(ROMAN, "pass", &[]));
    assert!(s.contains("(14.4, stand-in)"), "{s}");
    assert_eq!(t.st.treasury, 3, "the salt is paid");
    assert!(t.at("emp").is_some());
    umpire_ldf::invariants(t.d(), &t.st).unwrap();
}

// 8.12: Roman diplomacy buys off a tribe inside core territory.
#[test]
fn diplomacy_with_a_tribe_in_the_core() {
    let mut t = empty();
    let lug = t.d().find_hex("Lugdunum").unwrap();
    t.put("t1", lug);
    t.put("emp", h("3318"));
    t.put("c1", h("3318"));
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "diplomacy t1", &[("diplomacy with a tribe", 6, 5)]);
    assert_eq!(t.st.unit(t.u("t1")).loc, Loc::Dead);
}

// 6.8: reclaiming a base and its vexillation costs one TP each; 6.4: a rebuild
// takes two actions.
#[test]
fn reclaiming_and_rebuilding() {
    let mut t = game();
    t.st.stage = Stage::AdminRoman;
    t.ok(ROMAN, "demobilize b1 v1", &[]);
    let before = t.st.treasury;
    t.ok(ROMAN, "reclaim Lugdunum", &[]);
    assert_eq!(t.st.treasury, before - 2);
    let lug = t.d().find_hex("Lugdunum").unwrap();
    assert_eq!(t.at("b1"), Some(lug));
    t.st.stage = Stage::Actions;
    t.st.actor = Player::Roman;
    t.st.looted.insert(lug);
    let e = t.err(ROMAN, "rebuild complete Lugdunum");
    assert!(e.contains("(6.4)"), "{e}");
    t.ok(ROMAN, "rebuild Lugdunum", &[]);
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "rebuild complete Lugdunum", &[]);
    assert!(!t.st.looted.contains(&lug));
}

// 12.7: riverine movement bank to bank, lost for good once Dacia is looted.
#[test]
fn riverine_movement_and_its_loss() {
    let mut t = empty();
    let d = t.d().clone();
    let banks: Vec<Hex> = d
        .hexes
        .iter()
        .filter(|x| x.riverbank && x.region.is_core())
        .map(|x| x.hex)
        .collect();
    let (a, b) = (banks[0], *banks.last().unwrap());
    t.put("v1", a);
    t.st.actor = Player::Roman;
    t.ok(ROMAN, &format!("river {a} to {b}"), &[]);
    assert_eq!(t.at("v1"), Some(b));
    t.st.riverine_lost = true;
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("river {b} to {a}"));
    assert!(e.contains("(12.7)"), "{e}");
}

// The guide's first move (docs/games/ldf.md) is legal on the opening map, and its standing
// orders read.
#[test]
fn the_readme_example_move_is_legal() {
    let mut t = game();
    t.standing(
        ROMAN,
        &[
            "rally Rome",
            "sponsor 4",
            "salt treachery 2",
            "unstack at Rome keep v1,c1 to 3418",
        ],
    );
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "move Rome EMP c1 v10 to 3418 drop v10 Capua", &[]);
    let capua = t.d().find_hex("Capua").unwrap();
    assert_eq!((t.at("v10"), t.at("emp")), (Some(h("3418")), Some(capua)));
}

/// 6.10: Rome owes four TP of Persecutions the Germano-Parthian draws with
/// an empty treasury; twins stand next to a tribe, farther off, and with
/// the emperor farthest. Returns the test and those three hexes.
fn deficit_setup() -> (T, [Hex; 3]) {
    let mut t = empty();
    let d = t.d().clone();
    let near = path(&d, h("3016"), 1);
    let (a, e) = (near[0], near[1]);
    let far = |t: &T, min: u32| {
        d.hexes
            .iter()
            .map(|x| x.hex)
            .filter(|x| d.region(*x).is_core() && x.distance_on(OFFSET, e) >= min)
            .find(|x| t.st.at(*x).next().is_none())
            .unwrap()
    };
    t.put("t1", e);
    for id in ["b1", "v1"] {
        t.put(id, a);
    }
    let f = far(&t, 4);
    for id in ["b2", "v2"] {
        t.put(id, f);
    }
    let l = far(&t, 6);
    for id in ["b3", "v3", "b4", "v4", "emp"] {
        t.put(id, l);
    }
    t.st.treasury = 0;
    t.st.pool = vec![umpire_ldf::state::Item::Chit(20)];
    for c in (1..=24).filter(|c| *c != 20) {
        t.st.removed.push(c);
    }
    (t, [a, f, l])
}

// 6.10: no deficit: Rome demobilizes to pay (the lowest twins, stand-in for his choice).
#[test]
fn a_payment_beyond_the_treasury_is_covered_by_demobilizing() {
    // N7's fallback: pairs from the largest leaderless stacks, farthest
    // from any enemy first; a stack with a leader last. From version 11
    // `deficit none` says so (else the Roman is asked, N7).
    let (mut t, [_, _, l]) = deficit_setup();
    t.standing(ROMAN, &["deficit none"]);
    t.ok(GP, "draw", &[("persecutions", 6, 3)]);
    for id in ["b1", "v1", "b2", "v2"] {
        assert_eq!(t.st.unit(t.u(id)).loc, Loc::Dead, "{id}");
    }
    for id in ["b3", "v3", "b4", "v4"] {
        assert_eq!(t.at(id), Some(l), "{id} stays with the emperor");
    }
    assert_eq!(
        t.st.treasury, 0,
        "four TP owed, two twins demobilized for four"
    );
}

/// Persecutions in the pool alone, so the next draw is it (14.3).
fn persecutions_next(t: &mut T) {
    t.st.pool = vec![umpire_ldf::state::Item::Chit(20)];
    for c in (1..=24).filter(|c| *c != 20) {
        t.st.removed.push(c);
    }
}

// 6.10, digest N7: the Roman's `deficit` standing order covers a deficit
// met in the Germano-Parthian's action, in its order: emergency taxation of
// a named hex (6.6: double TP, looted) before anything is demobilized.
#[test]
fn a_deficit_is_covered_by_the_romans_standing_order_tax_first() {
    let mut t = game();
    let d = t.d().clone();
    let x = d
        .hexes
        .iter()
        .filter(|x| x.region.is_core() && x.tp >= 2 && x.hex != d.special.rome)
        .find(|x| t.st.at(x.hex).next().is_none())
        .unwrap();
    t.standing(ROMAN, &[&format!("deficit tax {}", x.hex)]);
    assert!(
        t.r.standing(&t.st, ROMAN)
            .join("\n")
            .contains(&format!("deficit tax {}", x.hex))
    );
    t.st.treasury = 0;
    persecutions_next(&mut t);
    let dead_before = t.st.units().iter().filter(|u| u.loc == Loc::Dead).count();
    let ev = t.ok(GP, "draw", &[("persecutions", 6, 3)]);
    assert!(t.st.looted.contains(&x.hex), "{}", text(&ev));
    assert!(text(&ev).contains("emergency taxation"), "{}", text(&ev));
    assert_eq!(t.st.treasury, 2 * x.tp - 4);
    let dead = t.st.units().iter().filter(|u| u.loc == Loc::Dead).count();
    assert_eq!(dead, dead_before, "nothing demobilized");
}

// 6.10, 6.7, N7: demobilizing in the hex the Roman names, then the fallback;
// the Germano-Parthian may not give the order (it is the Roman's cover).
#[test]
fn a_deficit_demobilizes_where_the_roman_says() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    for id in ["b1", "v1"] {
        t.put(id, p[0]);
    }
    for id in ["b2", "v2", "b3", "v3"] {
        t.put(id, p[3]);
    }
    t.standing(ROMAN, &[&format!("deficit {}", p[0])]);
    t.st.treasury = 0;
    persecutions_next(&mut t);
    t.ok(GP, "draw", &[("persecutions", 6, 1)]);
    assert_eq!(
        t.at("b1"),
        None,
        "b1 goes first though its stack is smaller"
    );
    assert_eq!(t.at("v1"), None);
    assert_eq!(t.at("b2"), Some(p[3]));
    assert_eq!(t.st.treasury, 0);
    let bad = lines(&["deficit 3016"]);
    let e = t.r.set_standing(&mut t.st, GP, &bad).unwrap_err();
    assert!(e.to_string().contains("6.10"), "{e}");
}

// 14.3, digest N3: Beseech the Gods by odds and by stack. The rule `at 3:1`
// fires only at those final odds (here 2:1 shifted one for the leader), and
// `with g1` only when that unit fights.
#[test]
fn beseech_the_gods_by_odds_and_by_stack() {
    let setup = |rule: &str| {
        let mut t = empty();
        let d = t.d().clone();
        let p = path(&d, h("3016"), 3);
        for id in ["v1", "v2", "emp"] {
            t.put(id, p[0]);
        }
        t.put("g1", p[1]);
        t.give(Player::Gp, 2);
        // `tsnp 3` is the default, stated so that he is not asked (N2).
        t.standing(GP, &[rule, "tsnp 3"]);
        t.st.actor = Player::Roman;
        (t, p)
    };
    let k = odds_step(2, 1) + 1;
    for rule in [
        "beseech enemy combat 1 2 3 4 5 6 at 2:1",
        "beseech enemy combat 1 2 3 4 5 6 with g2",
    ] {
        let (mut t, p) = setup(rule);
        let roll = t.roll_for(k, Outcome::AS);
        let ev = t.ok(
            ROMAN,
            &format!("attack {} on {}", p[0], p[1]),
            &[("combat", 6, roll)],
        );
        assert!(!text(&ev).contains("Beseech"), "{rule}: {}", text(&ev));
        assert_eq!(t.st.hand(Player::Gp), &[2]);
    }
    let (mut t, p) = setup("beseech enemy combat 1 2 3 4 5 6 at 3:1 with g1");
    let shown = t.r.standing(&t.st, GP).join("\n");
    assert!(shown.contains("at 3:1 with g1"), "{shown}");
    let roll = t.roll_for(k, Outcome::AS);
    let ev = t.ok(
        ROMAN,
        &format!("attack {} on {}", p[0], p[1]),
        &[("combat", 6, roll), ("combat/reroll", 6, roll)],
    );
    assert!(text(&ev).contains("Beseech the Gods"), "{}", text(&ev));
    assert!(t.pooled(2));
    let bad = lines(&["beseech combat 6 at 2:3"]);
    let e = t.r.set_standing(&mut t.st, GP, &bad).unwrap_err();
    assert!(e.to_string().contains("13.2"), "{e}");
}

// 14.3 Agents in Enemy Camp, played by the Roman against treachery (N4).
#[test]
fn the_roman_answers_treachery_with_agents() {
    let mut t = game();
    t.st.pool
        .retain(|i| *i != umpire_ldf::state::Item::Chit(17));
    t.st.hands[0] = vec![17];
    // The default, stated: the Roman is not asked (N4).
    t.standing(ROMAN, &["agents yes"]);
    let ev = t.ok(GP, "treachery", &[("treachery against the emperor", 6, 5)]);
    assert!(
        text(&ev).contains("roll 5 -2 Roman salt = 3: failure"),
        "{}",
        text(&ev)
    );
    assert!(t.st.hand(Player::Roman).is_empty());
}

// 14.3 From the Jaws of Death: with a German in mainland Italy the Roman rolls
// and draws that many, up to six; free at the start of his action (R-G4, R-G5).
#[test]
fn from_the_jaws_of_death() {
    let mut t = game();
    let d = t.d().clone();
    let italy = d
        .all_hexes()
        .find(|x| d.region(*x) == Region::Italy && t.st.at(*x).next().is_none())
        .unwrap();
    t.put("t1", italy);
    t.st.pool.retain(|i| *i != umpire_ldf::state::Item::Chit(3));
    t.st.pool
        .retain(|i| !matches!(i, umpire_ldf::state::Item::Cavalry(_)));
    for c in [10, 18, 19, 20] {
        t.st.pool.retain(|i| *i != umpire_ldf::state::Item::Chit(c));
        t.st.removed.push(c);
    }
    for id in ["c2", "c3"] {
        t.put(id, h("3318"));
    }
    t.st.hands[0] = vec![3];
    t.st.actor = Player::Roman;
    let n = t.st.pool.len() as u32;
    t.ok(
        ROMAN,
        "play 3",
        &[("jaws", 6, 2), ("draw", n, 1), ("draw", n - 1, 1)],
    );
    assert_eq!(t.st.hand(Player::Roman).len(), 2);
    assert!(t.st.aside.contains(&3));
    assert_eq!(t.st.actor, Player::Roman, "the Roman still has his action");
}

// 14.3 Into the Valley of the Shadow of Death: the player moves an enemy force
// by normal movement rules; it may start in an EZOC, stops on entering one.
#[test]
fn into_the_valley_moves_an_enemy_force() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 4);
    t.put("t1", p[0]);
    t.put("emp", h("3318"));
    t.put("c1", h("3318"));
    t.st.hands[0] = vec![5];
    t.st.actor = Player::Roman;
    let e = t.err(
        ROMAN,
        &format!(
            "play 5 at {} {} {} {} {} {}",
            p[0], p[1], p[2], p[3], p[4], p[0]
        ),
    );
    assert!(e.contains("12.4"), "{e}");
    t.ok(ROMAN, &format!("play 5 at {} {} {}", p[0], p[1], p[2]), &[]);
    assert_eq!(t.at("t1"), Some(p[2]));
    assert!(t.st.hand(Player::Roman).is_empty() && t.st.actor == Player::Gp);
}

impl T {
    /// Takes a chit out of the pool into a hand.
    fn give(&mut self, p: Player, c: u8) {
        self.st
            .pool
            .retain(|i| *i != umpire_ldf::state::Item::Chit(c));
        self.st.hands[p.index()].push(c);
    }
    fn pooled(&self, c: u8) -> bool {
        self.st.pool.contains(&umpire_ldf::state::Item::Chit(c))
    }
}

// 14.3 Beseech the Gods: after any die roll by either player, the roll is
// made again and the second result stands; the chit goes back to the pool at
// once. The Roman's standing order answers a Germano-Parthian roll (N3).
#[test]
fn beseech_the_gods_rerolls_an_enemy_roll() {
    let mut t = game();
    t.give(Player::Roman, 2);
    t.standing(ROMAN, &["beseech enemy treachery 5 6", "agents no"]);
    let ev = t.ok(
        GP,
        "treachery",
        &[
            ("treachery against the emperor", 6, 5),
            ("treachery against the emperor/reroll", 6, 2),
        ],
    );
    let s = text(&ev);
    assert!(
        s.contains("Beseech the Gods") && s.contains("roll 2 = 2: failure"),
        "{s}"
    );
    // 14.3: the chit is played openly, so the side that never saw the hand
    // it came from is told which chit it was.
    let played = ev
        .iter()
        .find(|e| e.text.contains("plays chit 2, Beseech the Gods"))
        .expect("the play is told");
    assert!(played.audience.is_public(), "{played:?}");
    assert!(t.st.hand(Player::Roman).is_empty());
    assert!(t.pooled(2), "returned to the pool immediately after use");
    let emp = t.st.emperor(t.d()).unwrap();
    assert!(t.st.hex_of(emp).is_some(), "the emperor lives");
}

// 14.3: without a standing order (the default) the chit is never played.
#[test]
fn beseech_the_gods_is_not_played_by_default() {
    let mut t = game();
    t.give(Player::Roman, 2);
    let ev = t.ok(GP, "treachery", &[("treachery against the emperor", 6, 1)]);
    assert!(!text(&ev).contains("Beseech"), "{}", text(&ev));
    assert_eq!(t.st.hand(Player::Roman), &[2]);
}

// 8.8: a salted roll done again by chit 2 is no longer salted (nor helped
// by Agents); the salt stays spent.
#[test]
fn a_beseeched_reroll_loses_the_salt() {
    let mut t = game();
    let co = t.u("co");
    let hx = t.at("v5").unwrap();
    t.st.unit_mut(co).loc = Loc::Hex(hx);
    t.st.unit_mut(co).rebel = true;
    t.give(Player::Gp, 2);
    t.standing(GP, &["beseech enemy treachery 3 4 5 6"]);
    t.st.actor = Player::Roman;
    t.st.treasury = 5;
    let ev = t.ok(
        ROMAN,
        "treachery salt 3",
        &[
            ("treachery against the rebel co-emperor", 6, 3),
            ("treachery against the rebel co-emperor/reroll", 6, 4),
        ],
    );
    assert!(text(&ev).contains("roll 4 = 4: failure"), "{}", text(&ev));
    assert_eq!(t.st.treasury, 2);
    assert!(t.st.hex_of(co).is_some());
}

/// A Parthian population centre with a linked land hex beside it.
fn centre_and_neighbour(d: &Data) -> (Hex, Hex) {
    d.hexes
        .iter()
        .filter(|x| x.region == Region::Parthia && x.tp > 0 && x.hex != d.special.ctesiphon)
        .find_map(|x| {
            d.links(x.hex)
                .find(|n| d.region(*n) == Region::Parthia && d.hex(*n).is_some_and(|y| y.tp == 0))
                .map(|n| (x.hex, n))
        })
        .unwrap()
}

// 14.3 (21), R-G9: the heavy siege equipment doubles the force's strength and
// stays with it until the centre is taken or no Roman unit is left with it;
// then it goes back to the pool.
#[test]
fn heavy_siege_equipment_stays_until_the_centre_falls() {
    let mut t = empty();
    let d = t.d().clone();
    let (centre, camp) = centre_and_neighbour(&d);
    t.put("pg1", centre);
    t.put("v1", camp);
    t.put("v2", camp);
    t.put("emp", h("3318"));
    t.put("b1", h("3318"));
    t.st.hands[0] = vec![21];
    t.st.actor = Player::Roman;
    let def = garrison_strength(&d, centre, Kind::ParthianGarrison);
    let k = odds_step(4, def);
    let roll = t.roll_for(k, Outcome::AS);
    let ev = t.ok(
        ROMAN,
        &format!("attack {camp} on {centre} with 21"),
        &[("combat", 6, roll)],
    );
    assert!(
        text(&ev).contains(&format!(
            "4 (2 doubled by the Roman Heavy Siege Equipment, 14.3) against {def}"
        )),
        "{}",
        text(&ev)
    );
    let s = t.st.siege.expect("the chit stays in the hex");
    assert_eq!((s.hex, s.target, s.chit), (camp, centre, 21));
    assert!(t.st.hand(Player::Roman).is_empty());
    // The next attack from the same hex on the same centre is doubled again.
    t.st.actor = Player::Roman;
    let ev = t.ok(
        ROMAN,
        &format!("attack {camp} on {centre}"),
        &[("combat", 6, roll)],
    );
    assert!(
        text(&ev).contains(&format!(
            "4 (2 doubled by the Roman Heavy Siege Equipment, 14.3) against {def}"
        )),
        "{}",
        text(&ev)
    );
    // No Roman unit left with it: back to the pool.
    t.st.actor = Player::Roman;
    for id in ["v1", "v2"] {
        let u = t.u(id);
        t.st.unit_mut(u).loc = Loc::Aside;
    }
    let ev = t.ok(ROMAN, "pass", &[]);
    assert!(t.st.siege.is_none(), "{}", text(&ev));
    assert!(t.pooled(21));
}

// 14.3 (21), R-G8: handed the siege chit with six in hand, the Roman holds
// seven until the end of his next action, then puts one back by his
// `discard` standing order.
#[test]
fn the_siege_chit_handed_over_past_the_hand_limit() {
    let mut t = game();
    for c in [1, 4, 5, 6, 9, 11] {
        t.give(Player::Roman, c);
    }
    t.st.pool = vec![umpire_ldf::state::Item::Chit(21)];
    for c in (1..=24).filter(|c| ![1, 4, 5, 6, 9, 11, 21].contains(c)) {
        t.st.removed.push(c);
    }
    t.standing(ROMAN, &["discard 9"]);
    t.ok(GP, "draw", &[]);
    assert_eq!(t.st.hand(Player::Roman).len(), 7);
    let ev = t.ok(ROMAN, "pass", &[]);
    assert_eq!(
        t.st.hand(Player::Roman),
        &[1, 4, 5, 6, 11, 21],
        "{}",
        text(&ev)
    );
    assert!(t.pooled(9));
    let public: Vec<&Event> = ev.iter().filter(|e| e.audience == Audience::All).collect();
    assert!(
        public.iter().all(|e| !e.text.contains('9')),
        "which chit went back is the Roman's own (R-G2)"
    );
}

// 14.3 From the Jaws of Death: the player first puts back, with the chit,
// any others he likes to be rid of, then draws.
#[test]
fn the_jaws_of_death_throw_back_unwanted_chits() {
    let mut t = game();
    let d = t.d().clone();
    let italy = d
        .all_hexes()
        .find(|x| d.region(*x) == Region::Italy && t.st.at(*x).next().is_none())
        .unwrap();
    t.put("t1", italy);
    t.st.pool
        .retain(|i| !matches!(i, umpire_ldf::state::Item::Cavalry(_)));
    for c in [10, 18, 19, 20] {
        t.st.pool.retain(|i| *i != umpire_ldf::state::Item::Chit(c));
        t.st.removed.push(c);
    }
    for id in ["c2", "c3"] {
        t.put(id, h("3318"));
    }
    for c in [3, 8, 13] {
        t.give(Player::Roman, c);
    }
    t.st.actor = Player::Roman;
    let n = t.st.pool.len() as u32 + 2;
    let ev = t.ok(
        ROMAN,
        "play 3 return 8,13",
        &[("jaws", 6, 1), ("draw", n, 1)],
    );
    // The pool's first item is chit 1; the thrown-back chits are in the pool.
    assert_eq!(t.st.hand(Player::Roman), &[1], "{}", text(&ev));
    assert!(t.pooled(8) && t.pooled(13));
    assert!(t.st.aside.contains(&3));
    // Chit 1 was drawn in this action (8.17; R-G3).
    assert!(t.err(ROMAN, "play 1 return 4").contains("R-G3"));
}

// 14.3 Flanking Move / Inspired Subordinates may be played by the defence:
// the `shift N` standing order plays one when attacked at N:1 or more.
#[test]
fn the_defender_plays_flanking_move_by_standing_order() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    for id in ["v1", "v2", "emp"] {
        t.put(id, p[0]);
    }
    t.put("g1", p[1]);
    t.give(Player::Gp, 1);
    t.standing(GP, &["shift 2"]);
    t.st.actor = Player::Roman;
    let k = odds_step(2, 1) + 1 - 1;
    let roll = t.roll_for(k, Outcome::AS);
    let ev = t.ok(
        ROMAN,
        &format!("attack {} on {}", p[0], p[1]),
        &[("combat", 6, roll)],
    );
    assert!(text(&ev).contains("Flanking Move"), "{}", text(&ev));
    assert!(
        text(&ev).contains("-1 Flanking Move, the defender's chit 1 (14.3) = 2:1"),
        "{}",
        text(&ev)
    );
    assert!(t.pooled(1));
}

/// Where `needle` starts in the drawing: (line, column).
fn find_in(text: &str, needle: &str) -> Option<(usize, usize)> {
    text.lines()
        .enumerate()
        .find_map(|(i, l)| l.find(needle).map(|c| (i, c)))
}

// 9.5 (R-D2): the map is drawn odd columns low, and a snippet around an
// action shows each unit under its own hex's number.
#[test]
fn a_snippet_shows_each_unit_at_its_hex() {
    use umpire_core::board::{Board, Place};
    use umpire_testkit::render::map::{Options, snippet};
    let mut t = empty();
    t.put("emp", h("3318"));
    t.put("v7", h("3418"));
    let view = t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(ROMAN));
    let Some(Board::Hex(b)) = &view.board else {
        panic!("no hex board");
    };
    assert_eq!(b.offset, OFFSET);
    let board = view.board.clone().unwrap();
    let text = snippet(
        &board,
        &[Place::Hex(h("3318")), Place::Hex(h("3418"))],
        &Options {
            width: 72,
            ..Options::default()
        },
    );
    assert!(text.lines().all(|l| l.len() <= 72), "{text}");
    for (hex, unit) in [("3318", "emp"), ("3418", "v7")] {
        let (hl, hc) = find_in(&text, hex).unwrap_or_else(|| panic!("{hex}\n{text}"));
        let (ul, uc) = find_in(&text, unit).unwrap_or_else(|| panic!("{unit}\n{text}"));
        assert!(
            ul == hl + 1 && uc + 2 >= hc && uc <= hc + 4,
            "{unit} is not under {hex}:\n{text}"
        );
    }
    // Odd column 33 is the lower one: 3318's number sits half a hex below 3418's.
    let (l33, _) = find_in(&text, "3318").unwrap();
    let (l34, _) = find_in(&text, "3418").unwrap();
    assert_eq!(l33, l34 + 2, "{text}");
}

// The map shows a stack's leaders first, then what moves and fights, then
// its static base: the counter a player looks for on top.
#[test]
fn a_stack_is_drawn_leaders_first_and_its_base_last() {
    use umpire_core::board::Board;
    let mut t = empty();
    for u in ["b11", "v7", "emp"] {
        t.put(u, h("3318"));
    }
    let view = t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(ROMAN));
    let Some(Board::Hex(b)) = &view.board else {
        panic!("no hex board");
    };
    let ids: Vec<&str> = b.cells[&h("3318")]
        .units
        .iter()
        .map(|u| u.id.as_str())
        .collect();
    assert_eq!(ids, ["emp", "v7", "b11"]);
}

// `command: orders` lists what is legal now, grouped: each line is itself a
// legal order; moves come up to three per stack, to destinations at least
// three hexes apart, the first with the reachable hexes and their costs.
#[test]
fn legal_orders_are_grouped_and_each_is_legal() {
    let t = game();
    let legal = t.r.legal_moves(&t.st, GP);
    assert_eq!(legal[0], "pass");
    assert!(legal.contains(&"draw".to_string()), "{legal:?}");
    let moves: Vec<&String> = legal.iter().filter(|l| l.starts_with("move ")).collect();
    let mut froms: Vec<&str> = moves.iter().map(|m| m.split(' ').nth(1).unwrap()).collect();
    froms.dedup();
    let mut several = false;
    for f in &froms {
        let mine: Vec<&&String> = moves
            .iter()
            .filter(|m| m.split(' ').nth(1) == Some(f))
            .collect();
        assert!(
            mine.len() <= 3 && mine[0].contains("# reach (hex:MP): "),
            "{mine:?}"
        );
        let ends: Vec<Hex> = mine
            .iter()
            .map(|m| {
                h(m.split('#')
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .last()
                    .unwrap())
            })
            .collect();
        for (i, a) in ends.iter().enumerate() {
            assert!(
                ends[..i].iter().all(|b| a.distance_on(OFFSET, *b) >= 3),
                "{mine:?}"
            );
        }
        several |= mine.len() > 1;
    }
    assert!(!froms.is_empty() && several, "{legal:?}");
    let mut seen = legal.clone();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), legal.len(), "no duplicates");
    for l in &legal {
        let order = l.split('#').next().unwrap().trim();
        let mut u = T {
            r: t.r.clone(),
            st: t.st.clone(),
        };
        let text = orders::parse_line(
            u.d(),
            &SourceLine {
                line: 1,
                column: 1,
                text: order.into(),
            },
            true,
        )
        .unwrap_or_else(|e| panic!("{order}: {e}"));
        let mut dice = Dice::preview();
        match u.r.apply(&mut u.st, GP, &text, &mut dice) {
            Ok(_) | Err(RuleError::Dice(_)) => {}
            Err(e) => panic!("{order}: {e}"),
        }
    }
    // The Roman is not asked now.
    assert!(t.r.legal_moves(&t.st, ROMAN).is_empty());
}

fn lines(v: &[&str]) -> Vec<SourceLine> {
    v.iter()
        .enumerate()
        .map(|(i, t)| SourceLine {
            line: i + 4,
            column: 3,
            text: t.to_string(),
        })
        .collect()
}

#[test]
fn every_bad_order_line_is_reported_at_once_with_line_column_rule_and_a_suggestion() {
    let t = game();
    let e =
        t.r.parse_all(
            &t.st,
            ROMAN,
            &lines(&[
                "move 3318 EMP v3x to 3417",
                "pass",
                "sea Rme to Alexandria",
                "draww",
                "attack 3318 on 3881",
                "treachery salt 2 with 13",
            ]),
        )
        .unwrap_err();
    // Lines 4, 6, 7, 8, 9 (the good `pass` on line 5 is not reported).
    assert_eq!(
        e.iter().map(|e| e.line).collect::<Vec<_>>(),
        [4, 6, 7, 8, 9]
    );
    // A mistyped counter (2.2), its column that of the word in the file.
    assert!(
        e[0].message.contains("no counter \"v3x\"; did you mean"),
        "{}",
        e[0].message
    );
    assert_eq!(e[0].column, 3 + "move 3318 EMP ".len());
    assert_eq!(e[0].rule.as_deref(), Some("2.2"));
    // A mistyped place name and hex number (2.1).
    assert!(
        e[1].message.contains("did you mean Rome?"),
        "{}",
        e[1].message
    );
    assert_eq!(e[1].rule.as_deref(), Some("2.1"));
    assert!(
        e[2].message.contains("did you mean draw?"),
        "{}",
        e[2].message
    );
    assert!(
        e[3].message.contains("\"3881\"") && e[3].message.contains("; did you mean 38"),
        "{}",
        e[3].message
    );
    // 14.3: only Agents in Enemy Camp goes with diplomacy or treachery.
    assert_eq!(e[4].rule.as_deref(), Some("14.3"));
    // Every error names a rule.
    assert!(e.iter().all(|e| e.rule.is_some()), "{e:?}");
    // `parse` gives the first of them.
    let first =
        t.r.parse(&t.st, ROMAN, &lines(&["pass", "draww"]))
            .unwrap_err();
    assert_eq!(first.line, 5);
    assert_eq!(first.rule.as_deref(), Some("8.1, 14.2"));
}

// 8.17 L443, R-G3: no chit may be played in the action that drew it. Chits
// drawn by a free Jaws of Death belong to the action it opens (R-G4): a
// Beseech the Gods drawn there is not used on that action's later roll (the
// cavalry reserve roll), and a Windfall drawn there cannot be played in it;
// from the next action on, both may be used.
#[test]
fn a_chit_drawn_in_an_action_is_not_used_in_it() {
    use umpire_ldf::state::Item;
    let mut t = game();
    let d = t.d().clone();
    let italy = d
        .all_hexes()
        .find(|x| d.region(*x) == Region::Italy && t.st.at(*x).next().is_none())
        .unwrap();
    t.put("t1", italy);
    t.put("c3", h("3318"));
    let c2 = t.u("c2");
    t.st.unit_mut(c2).loc = Loc::Pool;
    t.st.pool = vec![Item::Chit(2), Item::Chit(24), Item::Cavalry(c2)];
    t.st.hands[0] = vec![3];
    t.st.actor = Player::Roman;
    t.standing(ROMAN, &["beseech any any 1 2 3 4 5 6"]);
    // No reroll is scripted: a Beseech on the reserve roll would fail the order.
    let ev = t.ok(
        ROMAN,
        "play 3",
        &[
            ("jaws", 6, 3),
            ("draw", 3, 1),
            ("draw", 2, 1),
            ("cavalry-reserve", 6, 3),
        ],
    );
    assert!(!text(&ev).contains("plays chit 2"), "{}", text(&ev));
    assert_eq!(t.st.hand(Player::Roman), &[2, 24]);
    let e = t.err(ROMAN, "play 24 tp 4");
    assert!(
        e.contains("drawn in this action") && e.contains("R-G3"),
        "{e}"
    );
    t.ok(ROMAN, "pass", &[]);
    assert!(t.st.usable(Player::Roman, 24) && t.st.usable(Player::Roman, 2));
}

// 8.8, 14.3: Beseech the Gods is decided on the result as it counts. The
// Roman's treachery die shows 3, salted +2 to a success of 5; the
// Germano-Parthian, whose standing order rerolls a 5 or 6, plays chit 2 (on
// the die as rolled he would not have); the unsalted reroll of 4 fails.
#[test]
fn beseech_the_gods_answers_the_modified_result() {
    let mut t = game();
    let co = t.u("co");
    let hx = t.at("v5").unwrap();
    t.st.unit_mut(co).loc = Loc::Hex(hx);
    t.st.unit_mut(co).rebel = true;
    t.give(Player::Gp, 2);
    t.standing(GP, &["beseech enemy treachery 5 6"]);
    t.st.actor = Player::Roman;
    t.st.treasury = 5;
    let ev = t.ok(
        ROMAN,
        "treachery salt 2",
        &[
            ("treachery against the rebel co-emperor", 6, 3),
            ("treachery against the rebel co-emperor/reroll", 6, 4),
        ],
    );
    let s = text(&ev);
    assert!(s.contains("roll of 3 (result 5)"), "{s}");
    assert!(s.contains("roll 4 = 4: failure"), "{s}");
    assert_eq!(t.st.treasury, 3, "the salt stays spent (8.8)");
}

// 8.8: the reroll is "not considered salted unless the Roman player made a
// new TP expenditure": with `resalt 1` he pays again, and 4 + 1 succeeds.
#[test]
fn the_roman_may_salt_a_beseeched_reroll_again() {
    let mut t = game();
    let co = t.u("co");
    let hx = t.at("v5").unwrap();
    t.st.unit_mut(co).loc = Loc::Hex(hx);
    t.st.unit_mut(co).rebel = true;
    t.give(Player::Gp, 2);
    t.standing(GP, &["beseech enemy treachery 5 6"]);
    t.standing(ROMAN, &["resalt 1"]);
    t.st.actor = Player::Roman;
    t.st.treasury = 5;
    let ev = t.ok(
        ROMAN,
        "treachery salt 2",
        &[
            ("treachery against the rebel co-emperor", 6, 3),
            ("treachery against the rebel co-emperor/reroll", 6, 4),
        ],
    );
    let s = text(&ev);
    assert!(s.contains("salts the roll done again with 1 TP"), "{s}");
    assert!(s.contains("roll 4 +1 = 5: success"), "{s}");
    assert_eq!(t.st.treasury, 2);
    // 8.11: eliminated and removed to the dead pile (version 8).
    assert_eq!(t.st.unit(co).loc, Loc::Dead);
    // Only the Roman salts (8.8).
    let l = [SourceLine {
        line: 2,
        column: 3,
        text: "resalt 1".into(),
    }];
    assert!(t.r.set_standing(&mut t.st, GP, &l).is_err());
}

// 8.3 ¶2, 8.2: when a conversion roll flips the loyal Romans next to him, the
// rebel co-emperor's force may keep moving, enter the converted units' hex
// and add them to his force within its movement (a non-Gallic rebel force
// picks up units, 8.2).
#[test]
fn a_rebel_force_picks_up_the_units_it_converted() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 4);
    let q = d
        .links(p[1])
        .find(|x| !p.contains(x) && d.is_land(*x) && !x.adjacent_on(OFFSET, p[0]))
        .unwrap();
    let r = d
        .links(q)
        .find(|x| !p.contains(x) && d.is_land(*x) && !x.adjacent_on(OFFSET, p[0]))
        .unwrap();
    for id in ["co", "v1"] {
        t.put(id, p[0]);
        let u = t.u(id);
        t.st.unit_mut(u).rebel = true;
    }
    t.put("v2", q);
    let ev = t.ok(
        GP,
        &format!("move {} to {} {q} pick v2 {r}", p[0], p[1]),
        &[(&format!("conversion-{q}"), 6, 2)],
    );
    assert!(t.st.unit(t.u("v2")).rebel, "{}", text(&ev));
    assert_eq!(
        (t.at("co"), t.at("v1"), t.at("v2")),
        (Some(r), Some(r), Some(r)),
        "{}",
        text(&ev)
    );
}

/// A game whose pool holds only Bread & Circuses (19), with an empty
/// treasury: the Roman refuses the games (N5).
fn games_refused() -> (T, Data) {
    let mut t = game();
    let d = t.d().clone();
    t.st.pool = vec![umpire_ldf::state::Item::Chit(19)];
    for c in (1..=24).filter(|c| *c != 19) {
        t.st.removed.push(c);
    }
    t.st.treasury = 0;
    (t, d)
}

/// The B&C garrison `rg1` set aside, and the poorest empty core population
/// centre other than Rome: where the Germano-Parthian will ask the revolt.
fn revolt_site(t: &mut T, d: &Data) -> (UnitId, Hex) {
    let rg = t.u("rg1");
    t.st.unit_mut(rg).loc = Loc::Aside;
    let site = d
        .hexes
        .iter()
        .filter(|x| {
            x.region.is_core() && x.tp > 0 && x.hex != h("3318") && t.st.at(x.hex).next().is_none()
        })
        .min_by_key(|x| (x.tp, x.hex))
        .map(|x| x.hex)
        .unwrap();
    (rg, site)
}

// 14.3 Bread & Circuses, digest N6: when the Roman refuses the games, the
// Germano-Parthian plants the rebel garrison in the first hex of his
// `revolt` standing order that qualifies (an empty, unlooted core population
// centre other than Rome), not the richest one.
#[test]
fn a_refused_bread_and_circuses_revolts_where_the_gp_prefers() {
    let (mut t, d) = games_refused();
    let (rg, site) = revolt_site(&mut t, &d);
    t.standing(GP, &[&format!("revolt {site}")]);
    t.standing(ROMAN, &["sponsor 4"]);
    let ev = t.ok(GP, "draw", &[]);
    assert!(t.st.bc_rebels.contains(&site), "{}", text(&ev));
    assert_eq!(t.at("rg1"), Some(site));
    assert!(t.st.unit(rg).rebel && t.st.looted.contains(&site));
}

// 8.13, 14.3: the rebel garrison of refused games occupies its hex for the
// enemy, so a fortification under way there is aborted; and a fortification
// is never completed where a garrison/fortification unit already stands (8.13
// "no double-fortifying", 10.3). Self-play at scale (seed 1003, game 734)
// found the revolt's garrison, loyal again after its co-emperor fell (8.7),
// joined by a second garrison when the Roman completed the fortification.
#[test]
fn a_bread_and_circuses_revolt_aborts_a_fortification_in_its_hex() {
    let (mut t, d) = games_refused();
    let (rg, site) = revolt_site(&mut t, &d);
    t.st.fortify = Some(site);
    t.standing(GP, &[&format!("revolt {site}")]);
    t.standing(ROMAN, &["sponsor 4"]);
    let ev = t.ok(GP, "draw", &[]);
    assert_eq!(t.at("rg1"), Some(site), "{}", text(&ev));
    assert_eq!(t.st.fortify, None, "{}", text(&ev));
    assert!(
        text(&ev).contains("aborts its fortification (8.13)"),
        "{}",
        text(&ev)
    );

    // The revolt's garrison loyal again (8.7), a marker left by older play:
    // completing it is refused, not a second garrison set beside the first.
    t.st.unit_mut(rg).rebel = false;
    t.st.fortify = Some(site);
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "fortify complete");
    assert!(
        e.contains("no double-fortifying") && e.contains("(8.13)"),
        "{e}"
    );
}

// 14.3 Bread & Circuses, R-C2: the refused games' hex "is thereafter
// automatically friendly to any rebel co-emperor and yields no taxes until
// retaken (and rebuilt)": rebel-held even once its garrison is gone, not
// rebuilt before loyal troops retake it, and then still looted.
#[test]
fn a_bread_and_circuses_hex_is_rebel_territory_until_retaken() {
    use umpire_ldf::control::holds;
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 2);
    let site = p[1];
    t.st.bc_rebels.insert(site);
    t.st.looted.insert(site);
    assert!(holds(&d, &t.st, Faction::Rebel, site));
    assert!(!holds(&d, &t.st, Faction::Loyal, site));
    assert!(!holds(&d, &t.st, Faction::Rebel, p[0]));
    t.put("v1", p[0]);
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("rebuild {site}"));
    assert!(e.contains("14.3"), "{e}");
    let ev = t.ok(ROMAN, &format!("move {} v1 to {site}", p[0]), &[]);
    assert!(text(&ev).contains("retake"), "{}", text(&ev));
    assert!(t.st.bc_rebels.is_empty() && t.st.looted.contains(&site));
    assert!(holds(&d, &t.st, Faction::Loyal, site));
    t.st.actor = Player::Roman;
    t.ok(ROMAN, &format!("rebuild {site}"), &[]);
    assert!(t.st.rebuilding.contains(&site));
}

// 9.5, 12.6, R-D6: Gallic forces sail only between Gallic coastal
// population centres the Empire holds (R-C2): never out of Gaul, never
// into a port loyal units hold; a looted Gallic port is still its own.
#[test]
fn gallic_forces_sail_only_between_gallic_ports() {
    let mut t = empty();
    let d = t.d().clone();
    let port = |x: &&umpire_ldf::data::HexInfo| x.coastal && x.tp > 0 && x.hex != d.special.petra;
    let gaul: Vec<Hex> = d
        .hexes
        .iter()
        .filter(|x| port(x) && x.region == Region::Gallic)
        .map(|x| x.hex)
        .collect();
    assert!(gaul.len() >= 3, "{gaul:?}");
    let other = d
        .hexes
        .iter()
        .find(|x| port(x) && x.region.is_core() && x.region != Region::Gallic)
        .map(|x| x.hex)
        .unwrap();
    t.st.gallic = umpire_ldf::state::Gallic::Active;
    t.put("v1", gaul[0]);
    let v1 = t.u("v1");
    t.st.unit_mut(v1).rebel = true;
    t.st.unit_mut(v1).gallic = true;
    t.st.looted.insert(gaul[1]);
    let e = t.err(GP, &format!("sea {} to {other}", gaul[0]));
    assert!(e.contains("9.5"), "{e}");
    t.put("v2", gaul[2]);
    let e = t.err(GP, &format!("sea {} to {}", gaul[0], gaul[2]));
    assert!(e.contains("(12.3)"), "loyal units hold it: {e}");
    t.ok(GP, &format!("sea {} to {}", gaul[0], gaul[1]), &[]);
    assert_eq!(t.at("v1"), Some(gaul[1]));
}

// 12.6, 12.7: `legal()` (so `command: orders` and self-play) offers each
// stack's sea and river moves, and each offered line is a legal order.
#[test]
fn legal_orders_include_sea_and_river_moves() {
    let mut t = game();
    t.st.actor = Player::Roman;
    let legal = t.r.legal_moves(&t.st, ROMAN);
    let voyages: Vec<&String> = legal
        .iter()
        .filter(|l| l.starts_with("sea ") || l.starts_with("river "))
        .collect();
    assert!(voyages.iter().any(|l| l.starts_with("sea ")), "{legal:?}");
    assert!(voyages.iter().any(|l| l.starts_with("river ")), "{legal:?}");
    for l in voyages {
        assert!(l.contains("the whole action"), "{l}");
        let order = l.split('#').next().unwrap().trim().to_string();
        let mut u = T {
            r: t.r.clone(),
            st: t.st.clone(),
        };
        u.ok(ROMAN, &order, &[]);
    }
    t.st.riverine_lost = true;
    let legal = t.r.legal_moves(&t.st, ROMAN);
    assert!(!legal.iter().any(|l| l.starts_with("river ")), "{legal:?}");
}

// 8.10: diplomacy flips the co-emperor "and all Roman units stacked with
// him"; a client garrison with them would share a hex with its enemies, so
// (ruling) it falls to the new rebels. Found by self-play after a sea move
// into a Caucasus port.
#[test]
fn a_client_garrison_falls_when_the_coemperors_stack_turns_rebel() {
    let mut t = empty();
    // The default, stated: the Roman is not asked for salt (N4).
    t.standing(ROMAN, &["salt diplomacy 0"]);
    let d = t.d().clone();
    let hx = d
        .hexes
        .iter()
        .find(|x| x.region.is_caucasus())
        .map(|x| x.hex)
        .unwrap();
    for id in ["cg1", "co", "v1", "v2"] {
        t.put(id, hx);
    }
    let ev = t.ok(
        GP,
        "diplomacy coemperor",
        &[("diplomacy with the co-emperor", 6, 6)],
    );
    assert!(t.st.unit(t.u("v1")).rebel, "{}", text(&ev));
    assert_eq!(t.at("cg1"), None, "{}", text(&ev));
    assert!(text(&ev).contains("falls to the new rebels"));
}

// 8.7: a rebel co-emperor placed with loyal Romans converts "the Roman units
// in the hex of placement"; a Caucasus garrison with them (R-D5) has no rebel
// side, so, as in 8.10 (ruling), it falls to the new rebels rather than share
// a hex with them (10.4, 10.5). Version 11 left it there.
#[test]
fn a_client_garrison_falls_when_a_rebel_coemperor_rises_in_its_hex() {
    let d = empty().d().clone();
    let hx = d
        .hexes
        .iter()
        .find(|x| x.region.is_caucasus())
        .map(|x| x.hex)
        .unwrap();
    let mut t = empty();
    t.put_all(&["cg1", "v1", "v2"], hx);
    t.st.actor = Player::Gp;
    let ev = t.ok(GP, &format!("rebel {hx}"), &[("rebel-coemperor", 6, 5)]);
    assert_eq!(t.at("co"), Some(hx), "{}", text(&ev));
    assert!(t.st.unit(t.u("v1")).rebel && t.st.unit(t.u("v2")).rebel);
    assert_eq!(t.at("cg1"), None, "{}", text(&ev));
    assert!(
        text(&ev).contains("falls to the new rebels"),
        "{}",
        text(&ev)
    );
    assert_eq!(umpire_ldf::stacking::check_hex(&d, &t.st, hx), Ok(()));

    let mut old = empty();
    old.r = old.r.as_version(11).unwrap();
    old.put_all(&["cg1", "v1", "v2"], hx);
    old.st.actor = Player::Gp;
    old.ok(GP, &format!("rebel {hx}"), &[("rebel-coemperor", 6, 5)]);
    assert_eq!(old.at("cg1"), Some(hx));
}

// 7.3, 8.4: the free evacuation after a collapse moves each Roman force whole,
// its leader with it. A rebel co-emperor whose force takes Ctesiphon is never
// left alone in Parthia while his units sail home (found by self-play, seed
// 7455107161863376737: the rebel force advanced into Ctesiphon).
#[test]
fn the_evacuation_after_a_collapse_keeps_a_leader_with_his_force() {
    let mut t = empty();
    let d = t.d().clone();
    let cte = d.special.ctesiphon;
    let from = d
        .links(cte)
        .find(|x| d.region(*x) == Region::Parthia)
        .unwrap();
    for id in ["emp", "v3", "v4"] {
        t.put(id, h("3318"));
    }
    for id in ["co", "v1", "v2"] {
        t.put(id, from);
        let u = t.u(id);
        t.st.unit_mut(u).rebel = true;
    }
    let ev = t.ok(GP, &format!("move {from} to {cte}"), &[]);
    assert!(t.st.collapsed, "{}", text(&ev));
    let to = t.at("co").expect("the co-emperor stays on the map");
    assert!(d.region(to).is_core(), "evacuated (7.3): {}", text(&ev));
    assert_eq!(t.at("v1"), Some(to), "{}", text(&ev));
    assert_eq!(t.at("v2"), Some(to), "{}", text(&ev));
    stacks_hold(&t);
}

/// Lugdunum, and a hex beside it from which a tribe attacks across no river
/// or narrows.
fn lugdunum_and_a_tribes_hex(d: &Data) -> (Hex, Hex) {
    let lug = d.find_hex("Lugdunum").unwrap();
    let from = d
        .links(lug)
        .find(|x| !d.is_narrows(*x) && !d.side(lug, *x).is_river())
        .unwrap();
    (lug, from)
}

// 8.4, 8.9, 13.11 DE: a leader shares the fate of his last unit, so he falls
// after them; the new emperor is proclaimed by the largest army left, never
// in the stack being eliminated (one roll on the Emperor Creation Table).
#[test]
fn an_emperor_falling_with_his_stack_is_succeeded_elsewhere() {
    let mut t = empty();
    let (lug, from) = lugdunum_and_a_tribes_hex(t.d());
    for id in ["emp", "v1"] {
        t.put(id, lug);
    }
    t.put("v3", h("3318"));
    t.put("t1", from);
    // 7 against 1 (the tribe's 6 + 1), read as 6:1 (13.15), the defender's
    // leader one column to his side (13.9): 5:1.
    let k = odds_step(7, 1) - 1;
    let r = t.roll_for(k, Outcome::DE);
    // Roll 3 on the stand-in table: the largest army proclaims (14.4).
    let ev = t.ok(
        GP,
        &format!("attack {from} on {lug} advance none nodraw"),
        &[
            ("german-cf-t1", 6, 6),
            ("combat", 6, r),
            ("emperor-table", 6, 3),
        ],
    );
    assert_eq!(t.at("v1"), None, "{}", text(&ev));
    assert_eq!(t.at("emp"), Some(h("3318")), "{}", text(&ev));
    stacks_hold(&t);
}

/// The emperor and one vexillation in Lugdunum, the only loyal Romans left
/// but for the co-emperor's army, a tribe beside them, and the co-emperor
/// (rebel if `rebel`) with his army in Carthago; the tribe's attack
/// eliminates the stack and the Emperor Creation Table roll is 5 (Rome, no
/// TP). Returns the events.
fn the_last_loyal_stack_falls(t: &mut T, rebel: bool) -> Vec<Event> {
    let (lug, from) = lugdunum_and_a_tribes_hex(t.d());
    t.put_all(&["emp", "v1"], lug);
    t.put("t1", from);
    let carthago = t.d().find_hex("Carthago").unwrap();
    for id in ["co", "v2", "v3"] {
        t.put(id, carthago);
        let u = t.u(id);
        t.st.unit_mut(u).rebel = rebel;
    }
    let k = odds_step(7, 1) - 1;
    let r = t.roll_for(k, Outcome::DE);
    t.ok(
        GP,
        &format!("attack {from} on {lug} advance none nodraw"),
        &[
            ("german-cf-t1", 6, 6),
            ("combat", 6, r),
            ("emperor-table", 6, 5),
        ],
    )
}

// 8.4, 8.9, 14.4; rulings R-F6, R-F9: when the emperor falls with the last
// loyal Roman unit, the new one has no loyal unit to stand with anywhere. A
// rebel co-emperor's army proclaims him, as when he reaches Rome (8.3):
// the co-emperor's counter is set aside, his rebels return to loyalty, and
// the emperor stands with them (version 13; self-play at scale, seed 1055
// game 504, where version 12 set him alone in an empty Rome).
#[test]
fn with_no_loyal_roman_left_the_rebel_army_proclaims_the_emperor() {
    let mut t = empty();
    let ev = the_last_loyal_stack_falls(&mut t, true);
    assert!(
        text(&ev)
            .contains("the rebel co-emperor's army in 3221 (Carthago) proclaims the new emperor")
            && text(&ev).contains("every rebel returns to loyalty"),
        "{}",
        text(&ev)
    );
    assert_eq!(t.at("emp"), Some(h("3221")), "{}", text(&ev));
    assert_eq!(t.at("co"), None, "set aside (8.3)");
    for id in ["co", "v2", "v3"] {
        assert!(!t.st.unit(t.u(id)).rebel, "{id} is loyal again");
    }
    stacks_hold(&t);

    let mut old = empty();
    old.r = old.r.as_version(12).unwrap();
    the_last_loyal_stack_falls(&mut old, true);
    assert_eq!(old.at("emp"), Some(h("3318")), "version 12: alone in Rome");
    assert_eq!(old.at("co"), Some(h("3221")));
}

// The same with a loyal co-emperor, whose hex the emperor may not share
// (8.3): his army is the only loyal one left, and it proclaims the new
// emperor in his place; a Bread & Circuses rebel garrison elsewhere stays
// rebel, as no rebel co-emperor fell (R-F10; version 13, self-play at
// scale, seed 1059 game 564).
#[test]
fn with_only_the_coemperors_army_loyal_it_proclaims_the_emperor() {
    let mut t = empty();
    t.put("rg2", h("2718"));
    let rg2 = t.u("rg2");
    t.st.unit_mut(rg2).rebel = true;
    let ev = the_last_loyal_stack_falls(&mut t, false);
    assert!(
        text(&ev).contains("the co-emperor's army in 3221 (Carthago) proclaims the new emperor"),
        "{}",
        text(&ev)
    );
    assert_eq!(t.at("emp"), Some(h("3221")), "{}", text(&ev));
    assert_eq!(t.at("co"), None, "set aside, to be created again (R-F8)");
    assert!(t.st.unit(rg2).rebel, "the revolt's garrison stays rebel");
    stacks_hold(&t);

    let mut old = empty();
    old.r = old.r.as_version(12).unwrap();
    the_last_loyal_stack_falls(&mut old, false);
    assert_eq!(old.at("emp"), Some(h("3318")), "version 12: alone in Rome");
}

/// 8.4 and 10.x hold on every hex with a counter (the whole `invariants()`
/// also counts chits, which `empty()` takes out of play).
fn stacks_hold(t: &T) {
    let hexes: Vec<Hex> =
        t.st.units()
            .iter()
            .filter_map(|u| match u.loc {
                Loc::Hex(h) => Some(h),
                _ => None,
            })
            .collect();
    umpire_ldf::stacking::check_hexes(t.d(), &t.st, &hexes)
        .unwrap_or_else(|(e, rule)| panic!("{e} ({rule})"));
}

// 8.3, 8.4: a rebel force that brings its co-emperor to Rome ends the revolt
// there; loyal now, it stops in Rome with the emperor rather than moving on
// and leaving him alone (found by self-play, seed 2092789425003139053).
#[test]
fn a_rebel_force_reaching_rome_stops_with_the_emperor() {
    let mut t = empty();
    for id in ["co", "v1", "v2"] {
        t.put(id, h("3218"));
        let u = t.u(id);
        t.st.unit_mut(u).rebel = true;
    }
    t.put("emp", h("2813"));
    t.put("v3", h("2813"));
    let ev = t.ok(GP, "move 3218 to 3318 3419", &[("rebel-in-rome", 6, 3)]);
    assert!(
        text(&ev).contains("the force stops in 3318 (8.3)"),
        "{}",
        text(&ev)
    );
    assert_eq!(t.at("v1"), Some(h("3318")), "{}", text(&ev));
    assert_eq!(t.at("emp"), Some(h("3318")), "{}", text(&ev));
    stacks_hold(&t);
}

// 7.3: the instant a Roman unit enters Ctesiphon, Parthia collapses and the
// Roman units leave it at once without using actions; the force's own move
// ends there. The rest of its path (here on into Parthia, which may no longer
// be entered) is not walked: the order stands, the force is in core territory.
#[test]
fn a_move_that_collapses_parthia_ends_with_the_evacuation() {
    let mut t = empty();
    let d = t.d().clone();
    let cte = d.special.ctesiphon;
    let parthian: Vec<Hex> = d
        .links(cte)
        .filter(|x| d.region(*x) == Region::Parthia)
        .collect();
    let (from, beyond) = (parthian[0], parthian[1]);
    for id in ["v1", "v2"] {
        t.put(id, from);
    }
    t.st.actor = Player::Roman;
    let ev = t.ok(ROMAN, &format!("move {from} to {cte} {beyond}"), &[]);
    assert!(t.st.collapsed, "{}", text(&ev));
    let to = t.at("v1").expect("on the map");
    assert!(d.region(to).is_core(), "evacuated (7.3): {}", text(&ev));
    assert_eq!(t.at("v2"), Some(to), "{}", text(&ev));
    assert!(text(&ev).contains("the move ends"), "{}", text(&ev));
    stacks_hold(&t);
}

// 13.12: a force with nowhere to retreat is eliminated; 8.4: its leader
// shares the fate of his last unit, so he falls after them, and 14.3: a
// cavalry vexillation eliminated before the reserve goes back to the pool,
// once. (Self-play seed 3, game 31: the emperor fell first, the leaderless
// stack unstacked (10.7), and the cavalry was eliminated twice.)
#[test]
fn a_stack_with_nowhere_to_retreat_falls_once_its_leader_last() {
    let mut t = empty();
    let d = t.d().clone();
    let x = d
        .hexes
        .iter()
        .map(|i| i.hex)
        .find(|x| {
            d.region(*x).is_core()
                && *x != d.special.rome
                && d.links(*x).count() == 6
                && d.links(*x)
                    .all(|n| !d.is_narrows(n) && !d.side(*x, n).is_river())
        })
        .unwrap();
    for id in ["emp", "v1", "v2", "v3", "c1"] {
        t.put(id, x);
    }
    t.put("v5", h("3318"));
    let ns: Vec<Hex> = d.links(x).collect();
    // Eight gunds attack from one side (8 against 4, as in the self-play
    // game); tribes hold every other way out.
    for (i, n) in ns.iter().enumerate().skip(1) {
        t.put(&format!("t{i}"), *n);
    }
    for g in 1..=8 {
        t.put(&format!("g{g}"), ns[0]);
    }
    let base = t.st.clone();
    let mut fell = 0;
    for r in 1..=6 {
        t.st = base.clone();
        let ev = t.ok(
            GP,
            &format!("attack {} on {x} advance none nodraw", ns[0]),
            &[("combat", 6, r), ("emperor-table", 6, 3)],
        );
        if !text(&ev).contains("nowhere to retreat") {
            continue;
        }
        fell += 1;
        let c1 = t.u("c1");
        let pooled =
            t.st.pool
                .iter()
                .filter(|i| **i == umpire_ldf::state::Item::Cavalry(c1))
                .count();
        assert_eq!(pooled, 1, "{}", text(&ev));
        assert_eq!(t.st.unit(c1).loc, Loc::Pool, "{}", text(&ev));
        assert!(!text(&ev).contains("cannot unstack"), "{}", text(&ev));
        for id in ["v1", "v2", "v3"] {
            assert_eq!(t.at(id), None, "{}", text(&ev));
        }
        assert_eq!(t.at("emp"), Some(h("3318")), "{}", text(&ev));
        stacks_hold(&t);
    }
    assert!(fell > 0, "no CRT roll at these odds gives DR");
}

/// A core hex with a population centre, for the victory and fortify tests.
fn lugdunum(t: &T) -> Hex {
    t.d().find_hex("Lugdunum").unwrap()
}

// 4.3 first paragraph: in Turn 5 the Roman wins once both players have
// completed an action and no enemy stands in Roman core territory; not
// before the Roman has acted.
#[test]
fn turn_5_the_roman_wins_with_the_core_clear_once_both_have_acted() {
    let mut t = game();
    t.st.turn = 5;
    t.ok(GP, "pass", &[]);
    assert!(t.st.finished.is_none(), "the Roman has not acted yet (4.3)");
    let n = t.st.pool.len() as u32;
    t.ok(ROMAN, "draw", &[("draw", n, 1)]);
    let f = t.st.finished.clone().expect("a Roman victory");
    assert_eq!(f.winners, vec![ROMAN]);
    assert!(f.summary.contains("(4.3)"), "{}", f.summary);
}

// 4.3 third paragraph: in Turn 5 two passes with a German in the core give
// the game to the Germano-Parthian.
#[test]
fn turn_5_two_passes_with_a_german_in_the_core_win_for_the_gp() {
    let mut t = game();
    t.st.turn = 5;
    let lug = lugdunum(&t);
    t.put("t1", lug);
    t.ok(GP, "pass", &[]);
    assert!(t.st.finished.is_none());
    t.ok(ROMAN, "pass", &[]);
    let f = t.st.finished.clone().expect("a Germano-Parthian victory");
    assert_eq!(f.winners, vec![GP]);
    assert!(f.summary.contains("(4.3)"), "{}", f.summary);
}

// 4.3 second paragraph, 4.4: a concession ends the game at any time; 4.5:
// the game over, no order is taken.
#[test]
fn a_concession_ends_the_game_and_nothing_follows() {
    let mut t = game();
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "concede", &[]);
    let f = t.st.finished.clone().expect("the concession decides");
    assert_eq!(f.winners, vec![GP]);
    let e = t.err(GP, "pass");
    assert!(e.contains("(4.5)"), "{e}");
}

// 4.4: in Turns 1-4 enemies in the core decide nothing; two passes just end
// the turn.
#[test]
fn turns_1_to_4_end_without_a_victory_check() {
    let mut t = game();
    t.st.turn = 4;
    let lug = lugdunum(&t);
    t.put("t1", lug);
    t.ok(GP, "pass", &[]);
    t.ok(ROMAN, "pass", &[]);
    assert!(t.st.finished.is_none());
    assert_eq!((t.st.turn, t.st.stage), (5, Stage::AdminRoman));
}

// 8.13: the single Fortify marker begins a fortification (one at a time), a
// later action completes it with a loyal garrison, and a hex with a garrison
// may not be fortified again.
#[test]
fn fortifying_takes_two_actions_and_one_marker() {
    let mut t = game();
    let lug = lugdunum(&t);
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "fortify Lugdunum", &[]);
    assert_eq!(t.st.fortify, Some(lug));
    assert!(
        !t.st.at(lug).any(|u| t.d().kind(u) == Kind::RomanGarrison),
        "not yet fortified (8.13)"
    );
    let other = t
        .d()
        .hexes
        .iter()
        .find(|x| {
            x.region == Region::Core && x.tp > 0 && x.hex != lug && t.st.at(x.hex).next().is_none()
        })
        .map(|x| x.hex)
        .unwrap();
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("fortify {other}"));
    assert!(e.contains("(8.13)"), "{e}");
    t.ok(ROMAN, "fortify complete", &[]);
    assert_eq!(t.st.fortify, None);
    let g =
        t.st.at(lug)
            .find(|u| t.d().kind(*u) == Kind::RomanGarrison)
            .expect("a garrison (8.13)");
    assert_eq!(t.st.faction(t.d(), g), Faction::Loyal);
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "fortify Lugdunum");
    assert!(e.contains("(8.13)"), "{e}");
}

// 8.13 last paragraph: an enemy ZOC does not stop a fortification, an enemy
// entering the hex aborts it.
#[test]
fn only_enemy_occupation_aborts_a_fortification() {
    let mut t = empty();
    let d = t.d().clone();
    let lug = lugdunum(&t);
    let next = d
        .links(lug)
        .find(|x| !d.is_narrows(*x) && !d.side(lug, *x).is_river())
        .unwrap();
    t.put("t1", next);
    assert!(zoc::in_ezoc(&d, &t.st, lug, Faction::Loyal));
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "fortify Lugdunum", &[]);
    assert_eq!(t.st.fortify, Some(lug));
    t.ok(GP, &format!("move {next} to {lug}"), &[]);
    assert_eq!(t.st.fortify, None, "the enemy in the hex aborts it (8.13)");
}

// 11.4: a unit in an enemy zone of control leaves it only by combat, never
// by a move (11.1).
#[test]
fn a_unit_in_an_ezoc_may_not_move_out() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    t.put("v1", p[1]);
    t.put("t1", p[2]);
    assert!(zoc::in_ezoc(&d, &t.st, p[1], Faction::Loyal));
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("move {} to {}", p[1], p[0]));
    assert!(e.contains("11.4"), "{e}");
}

// 13.4: units attack only the enemy directly adjacent; 13.5: one attacking
// force from one hex, never units of two hexes together.
#[test]
fn an_attack_is_from_one_hex_on_one_adjacent_hex() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 4);
    t.put("v1", p[0]);
    t.put("v2", p[2]);
    t.put("t1", p[3]);
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("attack {} on {}", p[0], p[3]));
    assert!(e.contains("13.4"), "{e}");
    let e = t.err(ROMAN, &format!("attack {} v1 v2 on {}", p[2], p[3]));
    assert!(e.contains("v1") && e.contains("(13.5)"), "{e}");
}

// 13.3: no unit attacks twice in one combat action (an order naming it twice
// is refused, not counted twice); over the phase the same force may attack,
// and the same defender be attacked, in any number of actions.
#[test]
fn no_unit_attacks_twice_in_one_action_but_again_in_the_next() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    t.put("v1", p[0]);
    t.put("v2", p[0]);
    t.put("g1", p[1]);
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("attack {} v1 v1 on {}", p[0], p[1]));
    assert!(e.contains("v1") && e.contains("(13.3)"), "{e}");
    let roll = t.roll_for(odds_step(2, 1), Outcome::AS);
    for _ in 0..2 {
        t.st.actor = Player::Roman;
        let ev = t.ok(
            ROMAN,
            &format!("attack {} v1 v2 on {}", p[0], p[1]),
            &[("combat", 6, roll)],
        );
        assert!(text(&ev).contains("2 against 1"), "{}", text(&ev));
    }
    assert_eq!(t.at("g1"), Some(p[1]));
    // Version 6 counted a unit named twice twice; its records replay so.
    assert_eq!(t.r.info().version, umpire_ldf::VERSION);
    assert!(t.r.as_version(5).is_none());
    t.r = t.r.as_version(6).unwrap();
    assert_eq!(t.r.info().version, 6);
    t.st.actor = Player::Roman;
    let roll = t.roll_for(odds_step(3, 1), Outcome::AS);
    let ev = t.ok(
        ROMAN,
        &format!("attack {} v1 v1 v2 on {}", p[0], p[1]),
        &[("combat", 6, roll)],
    );
    assert!(text(&ev).contains("3 against 1"), "{}", text(&ev));
}

/// A Parthian population centre with an empty land neighbour outside the
/// narrows, for attacks on a garrisoned hex.
fn parthian_centre(d: &Data) -> (Hex, Hex) {
    d.hexes
        .iter()
        .filter(|x| x.region == Region::Parthia && x.tp > 0 && x.hex != d.special.ctesiphon)
        .find_map(|x| {
            d.links(x.hex)
                .find(|n| !d.is_narrows(*n) && !d.side(x.hex, *n).is_river())
                .map(|n| (x.hex, n))
        })
        .expect("a Parthian centre")
}

// 13.6: every unit in the attacked hex defends, the garrison at its hex's TP
// (13.10) with the gunds; a DE takes them all.
#[test]
fn every_unit_in_the_attacked_hex_defends() {
    let mut t = empty();
    let d = t.d().clone();
    let (c, from) = parthian_centre(&d);
    let tp = d.hex(c).unwrap().tp;
    t.put_all(&["pg1", "g1", "g2"], c);
    t.put_all(
        &["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "emp"],
        from,
    );
    t.st.actor = Player::Roman;
    let col = column(&d, odds_step(8, tp + 2) + 1).unwrap();
    let roll = (1..=6)
        .find(|r| matches!(d.crt[*r as usize - 1][col], Outcome::DE | Outcome::EX))
        .expect("a DE or EX in the column") as u32;
    let ev = t.ok(
        ROMAN,
        &format!("attack {from} on {c} advance none losses v8"),
        &[("combat", 6, roll)],
    );
    assert!(
        text(&ev).contains(&format!("8 against {}", tp + 2)),
        "{}",
        text(&ev)
    );
    for id in ["pg1", "g1", "g2"] {
        assert_eq!(t.st.unit(t.u(id)).loc, Loc::Dead, "{id}");
    }
    // A Caucasus garrison defends with the loyal Romans stacked with it
    // (R-D5): one each (13.10).
    let mut t = empty();
    let cau = d
        .hexes
        .iter()
        .find(|x| x.region.is_caucasus())
        .map(|x| x.hex)
        .unwrap();
    let from = d
        .links(cau)
        .find(|n| !d.region(*n).is_caucasus() && !d.is_narrows(*n))
        .expect("a neighbour outside the Caucasus");
    t.put("cg1", cau);
    t.put("v1", cau);
    t.put("g1", from);
    t.put("g2", from);
    t.put("g3", from);
    t.put("g4", from);
    let roll = t.roll_for(odds_step(4, 2), Outcome::AS);
    let ev = t.ok(
        GP,
        &format!("attack {from} on {cau}"),
        &[("combat", 6, roll)],
    );
    assert!(text(&ev).contains("4 against 2"), "{}", text(&ev));
}

// 13.7: a force's strength is unitary: one attack goes on one hex with all
// of it, never split between two targets, and the other adjacent enemy is
// untouched.
#[test]
fn a_force_attacks_one_hex_with_its_whole_strength() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    let q = d
        .links(p[1])
        .find(|x| !p.contains(x) && d.is_land(*x) && !d.side(p[1], *x).is_river())
        .unwrap();
    t.put_all(&["v1", "v2", "emp"], p[1]);
    t.put("g1", p[2]);
    t.put("g2", q);
    t.st.actor = Player::Roman;
    let l = SourceLine {
        line: 1,
        column: 1,
        text: format!("attack {} on {} {q}", p[1], p[2]),
    };
    assert!(
        orders::parse_line(t.d(), &l, true).is_err(),
        "an attack names one target hex"
    );
    let k = odds_step(2, 1) + 1;
    let roll = t.roll_for(k, Outcome::AS);
    let ev = t.ok(
        ROMAN,
        &format!("attack {} on {}", p[1], p[2]),
        &[("combat", 6, roll)],
    );
    assert!(
        text(&ev)
            .contains("2 against 1: 2:1, +1 the emperor emp with the attackers (8.4, 13.9) = 3:1"),
        "{}",
        text(&ev)
    );
    assert_eq!((t.at("g1"), t.at("g2")), (Some(p[2]), Some(q)));
}

// 11.5: ZOC are reciprocal: a Roman in a tribe's EZOC holds the tribe in
// his, and both are pinned; a hex next to both lies in both zones at once.
// The proviso: a lone garrison (no ZOC, 11.1) pins nothing back.
#[test]
fn zones_of_control_are_reciprocal() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 4);
    t.put("v1", p[1]);
    t.put("t1", p[2]);
    assert!(zoc::in_ezoc(&d, &t.st, p[1], Faction::Loyal));
    assert!(zoc::in_ezoc(&d, &t.st, p[2], Faction::German));
    let both = d
        .links(p[1])
        .find(|x| x.adjacent_on(OFFSET, p[2]) && d.is_land(*x))
        .expect("a hex next to both");
    assert!(
        zoc::in_ezoc(&d, &t.st, both, Faction::Loyal)
            && zoc::in_ezoc(&d, &t.st, both, Faction::German)
    );
    let e = t.err(GP, &format!("move {} to {}", p[2], p[3]));
    assert!(e.contains("11."), "the tribe is held too: {e}");
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("move {} to {}", p[1], p[0]));
    assert!(e.contains("11."), "{e}");
    // A garrison alone projects no ZOC: it is in the tribe's EZOC, the tribe
    // is in no zone of it.
    let mut t = empty();
    t.put("rg1", p[1]);
    t.put("t1", p[2]);
    assert!(zoc::in_ezoc(&d, &t.st, p[1], Faction::Loyal));
    assert!(!zoc::in_ezoc(&d, &t.st, p[2], Faction::German));
    t.ok(GP, &format!("move {} to {}", p[2], p[3]), &[]);
    // 11.4: rebel Romans and Germans pin each other both ways.
    let mut t = empty();
    for id in ["co", "v1"] {
        t.put(id, p[1]);
        let u = t.u(id);
        t.st.unit_mut(u).rebel = true;
    }
    t.put("t1", p[2]);
    assert!(zoc::in_ezoc(&d, &t.st, p[1], Faction::Rebel));
    assert!(zoc::in_ezoc(&d, &t.st, p[2], Faction::German));
}

// 10.6: one garrison a hex and at most two legion bases, which may stack
// with it (and 10.7's two infantry); a third base is refused at reclaiming.
#[test]
fn static_stacking_one_garrison_and_two_bases() {
    let mut t = empty();
    let d = t.d().clone();
    let lug = lugdunum(&t);
    t.put_all(&["rg1", "b1", "b2", "v1", "v2"], lug);
    stacks_hold(&t);
    t.st.stage = Stage::AdminRoman;
    t.st.treasury = 5;
    for id in ["b3", "v3"] {
        let u = t.u(id);
        t.st.unit_mut(u).loc = Loc::Dead;
    }
    let e = t.err(ROMAN, "reclaim Lugdunum");
    assert!(e.contains("legion bases") && e.contains("(10.6)"), "{e}");
    assert_eq!(t.st.treasury, 5);
    t.put("rg2", lug);
    let (m, rule) = umpire_ldf::stacking::check_hex(&d, &t.st, lug).unwrap_err();
    assert!(
        m.contains("garrison") && rule.contains("10.6"),
        "{m} ({rule})"
    );
}

// 10.3: up to eight gunds and one Parthian garrison in a hex.
#[test]
fn parthian_stacking_eight_gunds_and_one_garrison() {
    let mut t = empty();
    let d = t.d().clone();
    let (c, from) = parthian_centre(&d);
    t.put("pg1", c);
    for i in 1..=7 {
        t.put(&format!("g{i}"), c);
    }
    t.put("g8", from);
    t.ok(GP, &format!("move {from} to {c}"), &[]);
    assert_eq!(t.at("g8"), Some(c));
    stacks_hold(&t);
    t.put("pg2", c);
    let (m, rule) = umpire_ldf::stacking::check_hex(&d, &t.st, c).unwrap_err();
    assert!(
        m.contains("garrison") && rule.contains("10.3"),
        "{m} ({rule})"
    );
}

// 10.8: before the central cavalry reserve one cavalry vexillation joins any
// stack, full or not, but never a second; after it, cavalry count as
// infantry (two without a leader, eight with one).
#[test]
fn cavalry_stacking_before_and_after_the_reserve() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    t.put_all(&["b1", "b2", "v1", "v2"], p[1]);
    t.put("c1", p[0]);
    t.roman_move(p[0], p[1]).unwrap();
    assert_eq!(t.at("c1"), Some(p[1]));
    t.put("c2", p[0]);
    let e = t.roman_move(p[0], p[1]).unwrap_err().to_string();
    assert!(e.contains("cavalry") && e.contains("(10.8)"), "{e}");
    // After the reserve: c1 with v1, v2 is three mobile units.
    let mut t = empty();
    t.st.reserve = true;
    t.put_all(&["v1", "v2"], p[1]);
    t.put("c1", p[0]);
    let e = t.roman_move(p[0], p[1]).unwrap_err().to_string();
    assert!(
        e.contains("3 Roman mobile units") && e.contains("(10.8)"),
        "{e}"
    );
    t.put("emp", p[1]);
    t.put("c2", p[1]);
    t.roman_move(p[0], p[1]).unwrap();
    assert_eq!(
        t.at("c1"),
        Some(p[1]),
        "two cavalry and two infantry with a leader"
    );
}

// 10.10: markers never count for stacking: a Fortify marker, a Looted/
// Rebuild marker and the siege chit leave a hex's limits as they are.
#[test]
fn markers_do_not_count_for_stacking() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    t.put_all(&["b1", "b2", "v1", "c1"], p[1]);
    t.put("v2", p[0]);
    t.put("t1", p[2]);
    t.st.fortify = Some(p[1]);
    t.st.looted.insert(p[1]);
    t.st.rebuilding.insert(p[1]);
    t.st.siege = Some(umpire_ldf::state::Siege {
        hex: p[1],
        target: p[2],
        chit: 21,
    });
    stacks_hold(&t);
    t.roman_move(p[0], p[1]).unwrap();
    assert_eq!(t.at("v2"), Some(p[1]));
    stacks_hold(&t);
}

// 6.11: rebel Romans have no economy: the Roman demobilizes only loyal
// units, his 6.7 twinning survey counts only loyal ones, and the
// Germano-Parthian has no tax, demobilization or reclaiming of his own.
#[test]
fn rebels_have_no_economy() {
    let mut t = game();
    t.st.stage = Stage::AdminRoman;
    let b5 = t.at("b5").unwrap();
    for u in t.st.at(b5).collect::<Vec<_>>() {
        t.st.unit_mut(u).rebel = true;
    }
    let e = t.err(ROMAN, "demobilize b5 v5");
    assert!(e.contains("(6.7, 6.11)"), "{e}");
    // A rebel base with no vexillation leaves the loyal twins matched.
    let v6 = t.u("v6");
    t.st.unit_mut(v6).loc = Loc::Aside;
    let b6 = t.u("b6");
    t.st.unit_mut(b6).rebel = true;
    let before = t.st.treasury;
    t.ok(ROMAN, "demobilize b1 v1", &[]);
    assert_eq!(t.st.treasury, before + 2);
    t.ok(ROMAN, "done", &[]);
    assert_eq!(t.st.stage, Stage::AdminGp);
    for o in ["demobilize b5 v5", "tax Lugdunum", "reclaim Lugdunum"] {
        let e = t.err(GP, o);
        assert!(e.contains("6.11"), "{o}: {e}");
    }
}

// 7.1: in the administrative phase every dead tribe returns, one a hex, to
// Barbaria hexes empty of all units; Roman ZOC does not matter.
#[test]
fn dead_tribes_return_one_a_hex_to_empty_barbaria() {
    let mut t = empty();
    let d = t.d().clone();
    let (a, b) = d
        .hexes
        .iter()
        .filter(|x| x.region == Region::Barbaria)
        .find_map(|x| {
            d.links(x.hex)
                .find(|n| d.region(*n) == Region::Barbaria && !d.side(x.hex, *n).is_river())
                .map(|n| (x.hex, n))
        })
        .unwrap();
    t.put("v1", b);
    assert!(zoc::in_ezoc(&d, &t.st, a, Faction::German));
    for id in ["t1", "t2", "t3"] {
        let u = t.u(id);
        t.st.unit_mut(u).loc = Loc::Dead;
    }
    t.st.stage = Stage::AdminGp;
    // One named, the other two placed by the umpire.
    t.ok(GP, &format!("place tribes {a}"), &[]);
    let at: Vec<Hex> = ["t1", "t2", "t3"]
        .iter()
        .map(|id| t.at(id).expect("every dead tribe returns (7.1)"))
        .collect();
    assert!(at.contains(&a), "into Roman ZOC: {at:?}");
    assert!(!at.contains(&b), "never into an occupied hex: {at:?}");
    assert!(at.iter().all(|x| d.region(*x) == Region::Barbaria));
    let mut one = at.clone();
    one.sort();
    one.dedup();
    assert_eq!(one.len(), 3, "one a hex: {at:?}");
    assert_eq!(t.st.stage, Stage::Actions);
}

// 7.2: every dead Parthian unit returns: a garrison into every Parthian
// centre free of enemy units (even in Roman ZOC), un-looting it; gunds into
// those hexes; a centre a Roman holds gets none and stays looted.
#[test]
fn parthian_units_return_to_centres_free_of_enemies() {
    let mut t = empty();
    let d = t.d().clone();
    let centres: Vec<Hex> = d
        .hexes
        .iter()
        .filter(|x| x.region == Region::Parthia && x.tp > 0)
        .map(|x| x.hex)
        .filter(|x| *x != d.special.ctesiphon)
        .collect();
    let held = centres[0];
    let (free, near) = centres[1..]
        .iter()
        .find_map(|c| {
            d.links(*c)
                .find(|n| !centres.contains(n) && *n != d.special.ctesiphon && !d.is_narrows(*n))
                .map(|n| (*c, n))
        })
        .unwrap();
    t.put("v1", held);
    t.put("v2", near);
    t.st.looted.insert(held);
    t.st.looted.insert(free);
    for u in d
        .of_kind(Kind::ParthianGarrison)
        .chain(d.of_kind(Kind::Gund))
    {
        t.st.unit_mut(u).loc = Loc::Dead;
    }
    t.st.stage = Stage::AdminGp;
    t.ok(GP, &format!("place gunds {free}"), &[]);
    let pg = |t: &T, h: Hex| t.st.at(h).any(|u| d.kind(u) == Kind::ParthianGarrison);
    assert!(pg(&t, free) && !t.st.looted.contains(&free), "in Roman ZOC");
    assert!(!pg(&t, held) && t.st.looted.contains(&held), "held by Rome");
    for c in d
        .hexes
        .iter()
        .filter(|x| x.region == Region::Parthia && x.tp > 0)
    {
        assert!(c.hex == held || pg(&t, c.hex), "{}", c.hex);
    }
    for g in d.of_kind(Kind::Gund) {
        assert_eq!(t.st.hex_of(g), Some(free), "{}", d.uid(g));
    }
}

// 3.4: both sides may set up in each other's zones of control: tribes and
// gunds placed next to Roman legions are accepted.
#[test]
fn the_setup_may_be_made_in_enemy_zones_of_control() {
    let mut t = fresh();
    let d = t.d().clone();
    let mut tribes: Vec<Hex> = d
        .hexes
        .iter()
        .filter(|x| x.region == Region::Barbaria && t.st.at(x.hex).next().is_none())
        .map(|x| x.hex)
        .collect();
    tribes.sort_by_key(|x| !zoc::in_ezoc(&d, &t.st, *x, Faction::German));
    tribes.truncate(17);
    assert!(zoc::in_ezoc(&d, &t.st, tribes[0], Faction::German));
    let gund = d
        .hexes
        .iter()
        .filter(|x| x.region == Region::Parthia)
        .map(|x| x.hex)
        .find(|x| zoc::in_ezoc(&d, &t.st, *x, Faction::Parthian))
        .expect("a Parthian hex next to a Roman legion");
    let list: Vec<String> = tribes.iter().map(|x| x.to_string()).collect();
    let gunds = vec![gund.to_string(); 8];
    t.ok(
        GP,
        &format!("setup tribes {} gunds {}", list.join(" "), gunds.join(" ")),
        &[],
    );
    assert_eq!(t.at("t1"), Some(tribes[0]));
    assert_eq!(t.at("g8"), Some(gund));
    assert_eq!(t.st.stage, Stage::Actions);
}

// 8.11: Roman treachery against a rebel co-emperor succeeds on 5-6: he is
// eliminated and every non-Gallic rebel turns loyal; on 1-4 nothing happens.
#[test]
fn roman_treachery_against_the_rebel_coemperor() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 4);
    for (id, x) in [("co", p[0]), ("v1", p[0]), ("v2", p[3])] {
        t.put(id, x);
        let u = t.u(id);
        t.st.unit_mut(u).rebel = true;
    }
    let gaul = d
        .hexes
        .iter()
        .find(|x| x.region == Region::Gallic)
        .map(|x| x.hex)
        .unwrap();
    t.put("b1", gaul);
    let b1 = t.u("b1");
    t.st.unit_mut(b1).rebel = true;
    t.st.unit_mut(b1).gallic = true;
    t.st.gallic = umpire_ldf::state::Gallic::Active;
    let roll = "treachery against the rebel co-emperor";
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "treachery", &[(roll, 6, 4)]);
    assert_eq!(t.at("co"), Some(p[0]));
    assert!(t.st.unit(t.u("v2")).rebel);
    t.st.actor = Player::Roman;
    let ev = t.ok(ROMAN, "treachery", &[(roll, 6, 5)]);
    assert!(text(&ev).contains("(8.11)"), "{}", text(&ev));
    assert_eq!(t.at("co"), None, "eliminated");
    assert!(!t.st.unit(t.u("v1")).rebel && !t.st.unit(t.u("v2")).rebel);
    assert!(t.st.unit(b1).rebel, "the Gallic rebels stay rebel");
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "treachery");
    assert!(e.contains("(8.11)"), "{e}");
}

// 9.4: from Turn 4 the Germano-Parthian's diplomacy (5-6) wins an inactive
// or Turn-3-activated Palmyra for good: it stops paying Rome (6.5), projects
// ZOC, and no later attempt is needed or allowed; Rome's Turn 3 activation
// is forfeit after Turn 3; an ally made by a Turn 1-2 attack is immune (R-H1).
#[test]
fn palmyra_diplomacy_in_turns_4_and_5() {
    use umpire_ldf::state::Palmyra;
    let roll = "diplomacy with Palmyra";
    let mut t = game();
    // The default, stated: the Roman is not asked for salt (N4).
    t.standing(ROMAN, &["salt diplomacy 0"]);
    let d = t.d().clone();
    let pal = d.special.palmyra;
    t.st.turn = 3;
    let e = t.err(GP, "diplomacy palmyra");
    assert!(e.contains("(9.4)"), "{e}");
    t.st.turn = 4;
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "activate palmyra");
    assert!(e.contains("9.3"), "forfeit after Turn 3: {e}");
    t.st.actor = Player::Gp;
    t.ok(GP, "diplomacy palmyra", &[(roll, 6, 4)]);
    assert_eq!(t.st.palmyra, Palmyra::Inactive);
    let next = d.links(pal).find(|x| d.is_land(*x)).unwrap();
    assert!(!zoc::in_ezoc(&d, &t.st, next, Faction::Loyal));
    let before = umpire_ldf::economics::revenue(&d, &t.st);
    t.st.actor = Player::Gp;
    t.ok(GP, "diplomacy palmyra", &[(roll, 6, 5)]);
    assert_eq!(t.st.palmyra, Palmyra::Gp);
    assert_eq!(umpire_ldf::economics::revenue(&d, &t.st), before - 2);
    assert!(zoc::in_ezoc(&d, &t.st, next, Faction::Loyal));
    t.st.actor = Player::Gp;
    let e = t.err(GP, "diplomacy palmyra");
    assert!(e.contains("(9.4)"), "{e}");
    // A Roman ally by activation converts; an ally by attack does not.
    t.st.palmyra = Palmyra::Roman { attacked: false };
    t.st.actor = Player::Gp;
    t.ok(GP, "diplomacy palmyra", &[(roll, 6, 6)]);
    assert_eq!(t.st.palmyra, Palmyra::Gp);
    t.st.palmyra = Palmyra::Roman { attacked: true };
    t.st.actor = Player::Gp;
    let e = t.err(GP, "diplomacy palmyra");
    assert!(e.contains("R-H1"), "{e}");
}

/// An empty board and a path of `n` steps through core land near 3016.
fn on_path(n: usize) -> (T, Data, Vec<Hex>) {
    let t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), n);
    (t, d, p)
}

/// The map's hexes that pass `f`, in the data's order.
fn hexes_where(d: &Data, f: impl Fn(&HexInfo) -> bool) -> Vec<Hex> {
    d.hexes.iter().filter(|x| f(x)).map(|x| x.hex).collect()
}

/// Barbaria hexes (the first one occupied by `v1`) and Parthia's centres and
/// other hexes, on an empty board with two dead tribes and two dead gunds.
fn placement_board() -> (T, Vec<Hex>, Vec<Hex>, Vec<Hex>) {
    let mut t = empty();
    let d = t.d().clone();
    let of = |r: Region, centre: Option<bool>| {
        hexes_where(&d, |x| {
            x.region == r && centre.is_none_or(|c| c == (x.tp > 0))
        })
    };
    let barbaria = of(Region::Barbaria, None);
    t.put("v1", barbaria[0]);
    for id in ["t1", "t2", "g1", "g2"] {
        let u = t.u(id);
        t.st.unit_mut(u).loc = Loc::Dead;
    }
    t.st.stage = Stage::AdminGp;
    let centres = of(Region::Parthia, Some(true));
    let plain = of(Region::Parthia, Some(false));
    (t, barbaria, centres, plain)
}

// 7.1, 7.2 (version 8): a hex named for a returning unit that the rule does
// not allow is refused, naming the hex and the rule, and nothing is placed:
// tribes go one a hex into empty Barbaria hexes, "no more and no fewer"
// than are dead; gunds into Parthian centres free of enemy units. Hexes
// left unnamed are the umpire's (`done`).
#[test]
fn returning_units_named_into_forbidden_hexes_are_refused() {
    let (mut t, barb, centres, plain) = placement_board();
    let (b, a) = (barb[0], barb[1]);
    let rome = t.d().special.rome;
    let held = centres[0];
    t.put("v2", held);
    let c = centres[1];
    let ask = t.r.prompt(&t.st).awaiting[0].ask.clone();
    assert!(ask.contains("2 tribes") && ask.contains("2 gunds"), "{ask}");
    let cases = [
        (
            format!("place tribes {a} {b}"),
            format!("{b} is occupied"),
            "(7.1)",
        ),
        (
            format!("place tribes {rome}"),
            format!("{rome} is not in Barbaria"),
            "(7.1)",
        ),
        (
            format!("place tribes {a} {a}"),
            format!("{a} is named twice"),
            "(7.1)",
        ),
        (
            format!("place tribes {a} {} {}", barb[2], barb[3]),
            "3 hexes named for returning tribes, but 2 tribes are in the dead pile".into(),
            "(7.1)",
        ),
        (
            format!("place gunds {held}"),
            format!("{held} is not a Parthian population centre free of enemy units"),
            "(7.2)",
        ),
        (
            format!("place tribes {a} gunds {}", plain[0]),
            format!("{} is not a Parthian population centre", plain[0]),
            "(7.2)",
        ),
        (
            format!("place gunds {c} {c} {c}"),
            "3 hexes named for returning gunds, but 2 gunds".into(),
            "(7.2)",
        ),
    ];
    for (order, want, rule) in cases {
        let e = t.err(GP, &order);
        assert!(e.contains(&want) && e.contains(rule), "{order}: {e}");
    }
    assert_eq!(t.st.stage, Stage::AdminGp, "nothing was placed");
    // `command: orders` offers a legal placement besides `done`.
    let legal = t.r.legal_moves(&t.st, GP);
    let place = legal.iter().find(|l| l.starts_with("place tribes "));
    let place = place.unwrap_or_else(|| panic!("{legal:?}")).clone();
    assert!(place.contains(" gunds "), "{place}");
    let mut u = T {
        r: t.r.clone(),
        st: t.st.clone(),
    };
    u.ok(GP, &place, &[]);
    assert_eq!(u.st.stage, Stage::Actions);
    t.ok(GP, &format!("place tribes {a} gunds {c} {c}"), &[]);
    assert_eq!(t.at("t1"), Some(a));
    assert!(t.at("t2").is_some_and(|x| x != a && x != b));
    assert_eq!((t.at("g1"), t.at("g2")), (Some(c), Some(c)));
}

// Version 7 skipped a named hex the rule forbids and placed that unit by
// default; its records replay so (`Ruleset::at_version(7)`).
#[test]
fn version_7_placed_past_a_forbidden_hex() {
    let (mut t, barb, centres, _) = placement_board();
    let (b, a) = (barb[0], barb[1]);
    let held = centres[0];
    t.put("v2", held);
    t.r = t.r.as_version(7).unwrap();
    t.ok(GP, &format!("place tribes {b} {a} gunds {held}"), &[]);
    assert_eq!(t.at("t1"), Some(a), "{b} skipped");
    let g1 = t.at("g1").unwrap();
    assert!(g1 != held && centres.contains(&g1));
}

// 14.3 (23), 7.1: German Population Increase brings tribes back "under the
// same strictures as given in 7.1"; a forbidden hex is refused before the
// chit is spent or the die rolled. The list may be longer than the tribes
// that come (die + 3).
#[test]
fn german_population_increase_refuses_a_forbidden_hex() {
    let (mut t, barb, _, _) = placement_board();
    let (b, a) = (barb[0], barb[1]);
    t.st.stage = Stage::Actions;
    t.st.actor = Player::Gp;
    t.give(Player::Gp, 23);
    let e = t.err(GP, &format!("play 23 at {a} {b}"));
    assert!(
        e.contains(&format!("{b} is occupied")) && e.contains("(14.3 (23), 7.1)"),
        "{e}"
    );
    assert!(t.st.hand(Player::Gp).contains(&23), "not spent");
    let list: Vec<String> = barb[1..12].iter().map(|x| x.to_string()).collect();
    t.ok(
        GP,
        &format!("play 23 at {}", list.join(" ")),
        &[("german-increase", 6, 1)],
    );
    assert_eq!((t.at("t1"), t.at("t2")), (Some(barb[1]), Some(barb[2])));
}

// 7.3: after a successful recovery roll the Germano-Parthian reclaims every
// Parthian unit "and deploy[s] them as described in 3.3": a garrison in each
// centre, the gunds in any hex(es) of Parthia (version 8; version 7 held
// them to 7.2's centres). Hexes outside Parthia are refused before the roll.
#[test]
fn gunds_recovering_from_a_collapse_deploy_anywhere_in_parthia() {
    let (mut t, _, centres, plain) = placement_board();
    let d = t.d().clone();
    for u in d
        .of_kind(Kind::ParthianGarrison)
        .chain(d.of_kind(Kind::Gund))
    {
        t.st.unit_mut(u).loc = Loc::Dead;
    }
    t.st.collapsed = true;
    let rome = d.special.rome;
    let e = t.err(GP, &format!("place gunds {rome}"));
    assert!(
        e.contains(&format!("{rome} is not a hex of Parthia")) && e.contains("(7.3, 3.3)"),
        "{e}"
    );
    let x = plain[0];
    let before = t.st.clone();
    t.ok(
        GP,
        &format!("place gunds {x}"),
        &[("parthian-recovery", 6, 5)],
    );
    assert!(!t.st.collapsed);
    for g in d.of_kind(Kind::Gund) {
        assert_eq!(t.st.hex_of(g), Some(x), "{}", d.uid(g));
    }
    for c in &centres {
        assert!(
            t.st.at(*c).any(|u| d.kind(u) == Kind::ParthianGarrison),
            "{c}"
        );
    }
    t.st = before;
    t.r = t.r.as_version(7).unwrap();
    t.ok(
        GP,
        &format!("place gunds {x}"),
        &[("parthian-recovery", 6, 5)],
    );
    let g1 = t.at("g1").unwrap();
    assert!(g1 != x && centres.contains(&g1), "version 7: a centre");
}

// 8.11: a rebel co-emperor killed by treachery is "eliminated and removed to
// the dead pile"; 13.11: so is a co-emperor eliminated in combat. From there
// he may be created again (8.7 "whenever there is no co-emperor piece on the
// map"; R-F8). Version 7 set him aside.
#[test]
fn an_eliminated_coemperor_goes_to_the_dead_pile_and_may_return() {
    let (mut t, _, p) = on_path(3);
    for id in ["co", "v1"] {
        t.put(id, p[0]);
        let u = t.u(id);
        t.st.unit_mut(u).rebel = true;
    }
    t.put("v2", p[1]);
    let start = t.st.clone();
    let roll = "treachery against the rebel co-emperor";
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "treachery", &[(roll, 6, 5)]);
    assert_eq!(t.st.unit(t.u("co")).loc, Loc::Dead, "8.11");
    t.st.actor = Player::Roman;
    t.ok(ROMAN, &format!("coemperor {}", p[1]), &[]);
    assert_eq!(t.at("co"), Some(p[1]), "created again from the dead pile");
    // 13.11: the rebel co-emperor attacks and falls with his force.
    let fell = (1..=6).any(|r| {
        t.st = start.clone();
        t.st.actor = Player::Gp;
        let attack = format!("attack {} on {}", p[0], p[1]);
        t.run(GP, &attack, &[("combat", 6, r)]).is_ok() && t.at("co").is_none()
    });
    assert!(fell, "some roll eliminates the attacking co-emperor");
    assert_eq!(t.st.unit(t.u("co")).loc, Loc::Dead, "13.11");
    // Version 7 set him aside.
    t.st = start;
    t.r = t.r.as_version(7).unwrap();
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "treachery", &[(roll, 6, 5)]);
    assert_eq!(t.st.unit(t.u("co")).loc, Loc::Aside);
}

// 13.9: a Roman leader in the battle, on offence or defence, loyal or
// rebel, shifts the odds one column to his side; leaders on both sides
// cancel. Two infantry against one rebel: 2:1 before the shift.
#[test]
fn a_roman_leader_shifts_the_odds_and_two_leaders_cancel() {
    for (att, def, want) in [
        (
            &["emp", "v1", "v2"][..],
            &["v3"][..],
            "2:1, +1 the emperor emp with the attackers (8.4, 13.9) = 3:1",
        ),
        (
            &["v1", "v2"][..],
            &["co", "v3"][..],
            "2:1, -1 the co-emperor co with the defenders (8.4, 13.9) = 1:1",
        ),
        (
            &["emp", "v1", "v2"][..],
            &["co", "v3"][..],
            "2:1, +1 the emperor emp with the attackers (8.4, 13.9), -1 the co-emperor co with the defenders (8.4, 13.9) = 2:1",
        ),
    ] {
        let mut t = empty();
        let d = t.d().clone();
        let p = path(&d, h("3016"), 3);
        t.put_all(att, p[0]);
        for id in def {
            t.put(id, p[1]);
            let u = t.u(id);
            t.st.unit_mut(u).rebel = true;
        }
        t.st.actor = Player::Roman;
        let order = format!("attack {} on {} advance none nodraw", p[0], p[1]);
        let ev = t.ok(ROMAN, &order, &[("combat", 6, 1)]);
        assert!(
            text(&ev).contains(want),
            "{att:?} on {def:?}: {}",
            text(&ev)
        );
    }
}

// 8.7: the Roman creates a loyal co-emperor, as an action and with no roll,
// only while none is on the map, in a hex with loyal mobile units (a base
// alone will not do), never with the emperor (8.3). The Germano-Parthian's
// attempt at a rebel one succeeds on 5-6; he is placed with loyal units
// other than the emperor, and the Romans there turn rebel at once.
#[test]
fn creating_a_loyal_or_a_rebel_coemperor() {
    let (mut t, _, p) = on_path(4);
    t.put("b1", p[0]);
    t.put("v1", p[2]);
    t.put_all(&["emp", "v2"], p[4]);
    let start = t.st.clone();
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("coemperor {}", p[0]));
    assert!(
        e.contains("no loyal Roman mobile unit") && e.contains("(8.7)"),
        "{e}"
    );
    let e = t.err(ROMAN, &format!("coemperor {}", p[4]));
    assert!(e.contains("(8.3)"), "{e}");
    t.ok(ROMAN, &format!("coemperor {}", p[2]), &[]);
    assert_eq!(t.at("co"), Some(p[2]));
    assert!(!t.st.unit(t.u("co")).rebel);
    assert_eq!(t.st.actor, Player::Gp, "the placement ends the action");
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("coemperor {}", p[2]));
    assert!(
        e.contains("already a co-emperor") && e.contains("(8.7)"),
        "{e}"
    );
    t.st.actor = Player::Gp;
    let e = t.err(GP, &format!("rebel {}", p[0]));
    assert!(e.contains("(8.7)"), "not while one is on the map: {e}");
    // The rebel: 1-4 fails, 5-6 places him with the base, which turns rebel.
    t.st = start;
    t.st.actor = Player::Gp;
    t.ok(GP, &format!("rebel {}", p[0]), &[("rebel-coemperor", 6, 4)]);
    assert_eq!(t.at("co"), None);
    t.st.actor = Player::Gp;
    t.ok(GP, &format!("rebel {}", p[0]), &[("rebel-coemperor", 6, 5)]);
    assert_eq!(t.at("co"), Some(p[0]));
    assert!(t.st.unit(t.u("co")).rebel && t.st.unit(t.u("b1")).rebel);
    assert!(!t.st.unit(t.u("v1")).rebel, "only the hex of placement");
}

// 11.1: leaders and garrisons project no zone of control; 12.3: no unit
// enters a hex occupied by enemy units; 12.2: units move hex to adjacent
// hex, no skipping.
#[test]
fn garrisons_pin_nothing_and_no_unit_enters_an_enemy_hex() {
    let (mut t, d, p) = on_path(3);
    t.put("v1", p[0]);
    t.put("rg1", p[2]);
    let rg = t.u("rg1");
    t.st.unit_mut(rg).rebel = true;
    assert!(!zoc::in_ezoc(&d, &t.st, p[1], Faction::Loyal), "garrison");
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("move {} to {} {}", p[0], p[1], p[2]));
    assert!(e.contains("(12.3)"), "{e}");
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("move {} to {}", p[0], p[2]));
    assert!(
        e.contains("is not a land hex adjacent") && e.contains("(12.2"),
        "{e}"
    );
    for id in ["co", "v2"] {
        t.put(id, p[2]);
        let u = t.u(id);
        t.st.unit_mut(u).rebel = true;
    }
    assert!(
        zoc::in_ezoc(&d, &t.st, p[1], Faction::Loyal),
        "with a vexillation"
    );
}

// 9.6, 9.7: each of the six Caucasus hexes, Dacia and Germania Decumates
// pays Rome one TP while unlooted; once looted it stays looted for the rest
// of the game: rebuilding is for core centres only (6.4, 8.14).
#[test]
fn caucasus_and_trans_river_hexes_pay_one_tp_and_stay_looted() {
    use umpire_ldf::economics::revenue;
    let mut t = game();
    let d = t.d().clone();
    let mut outer = hexes_where(&d, |x| x.region.is_caucasus());
    assert_eq!(outer.len(), 6);
    outer.extend([d.special.dacia, d.special.decumates]);
    let full = revenue(&d, &t.st);
    for (i, x) in outer.iter().enumerate() {
        t.st.looted.insert(*x);
        assert_eq!(revenue(&d, &t.st), full - 1 - i as u32, "{x}");
    }
    for x in [outer[0], d.special.dacia] {
        t.st.actor = Player::Roman;
        let e = t.err(ROMAN, &format!("rebuild {x}"));
        assert!(
            e.contains("not a looted core") && e.contains("(6.4)"),
            "{e}"
        );
    }
}

// 10.1: during a move friendly units pass through each other's hexes
// whatever their number; stacking holds where an action starts and ends
// (two infantry without a leader, 10.7).
#[test]
fn a_force_passes_through_a_full_friendly_stack() {
    let (mut t, _, p) = on_path(2);
    t.put("v1", p[0]);
    t.put_all(&["v2", "v3"], p[1]);
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, &format!("move {} to {}", p[0], p[1]));
    assert!(e.contains("(10.7)"), "{e}");
    t.ok(ROMAN, &format!("move {} to {} {}", p[0], p[1], p[2]), &[]);
    assert_eq!(t.at("v1"), Some(p[2]));
}

// 8.20: a pass answered by an action gives the passer another chance; only
// two passes in immediate succession end the turn (5.4(2)).
#[test]
fn a_pass_answered_by_an_action_does_not_end_the_turn() {
    let (mut t, _, p) = on_path(1);
    t.put("v1", p[0]);
    t.st.actor = Player::Gp;
    t.ok(GP, "pass", &[]);
    t.ok(ROMAN, &format!("move {} to {}", p[0], p[1]), &[]);
    t.ok(GP, "pass", &[]);
    assert_eq!(
        (t.st.turn, t.st.stage, t.st.actor),
        (1, Stage::Actions, Player::Roman)
    );
    t.ok(ROMAN, "pass", &[]);
    assert_eq!((t.st.turn, t.st.stage), (2, Stage::AdminRoman));
}

// 13.12 ¶3: where some retreat hexes are free of EZOC, the retreat goes to
// one of them, even when the owner's rally hex (his standing order) is a
// hex in EZOC next to the battle.
#[test]
fn a_retreat_avoids_enemy_zones_of_control_when_it_can() {
    let (mut t, d, p) = on_path(3);
    t.put_all(&["v1", "v2", "emp"], p[0]);
    t.put("g1", p[1]);
    let pinned = d
        .links(p[1])
        .find(|x| *x != p[0] && x.adjacent_on(OFFSET, p[0]) && d.is_land(*x))
        .expect("a hex next to both");
    assert!(zoc::in_ezoc(&d, &t.st, pinned, Faction::Parthian));
    t.standing(GP, &[&format!("rally {pinned}")]);
    let before = t.st.clone();
    t.st.actor = Player::Roman;
    let roll = t.roll_for(odds_step(2, 1) + 1, Outcome::DR);
    let order = format!("attack {} on {} advance none", p[0], p[1]);
    t.ok(ROMAN, &order, &[("combat", 6, roll)]);
    let to = t.at("g1").expect("retreated");
    assert!(to != p[1] && to.adjacent_on(OFFSET, p[1]), "{to}");
    assert!(!zoc::in_ezoc(&d, &before, to, Faction::Parthian), "{to}");
}

// 10.7 with N10: a stack left over the limit by its leader's fall unstacks
// its excess into adjacent land hexes by the retreat doctrine (N1: outside
// EZOC if it can), version 8; version 7 took the first hex that fitted,
// EZOC or not. Here the rebel co-emperor falls to treachery (8.11), his
// three infantry turn loyal and one must go.
#[test]
fn emergency_unstacking_avoids_enemy_zones_of_control() {
    let (mut t, d, x) = unstack_board();
    let first = d.links(x).next().unwrap();
    let tribe = d
        .links(first)
        .find(|n| *n != x && !n.adjacent_on(OFFSET, x) && !d.side(first, *n).is_river())
        .expect("a hex beyond the first neighbour");
    t.put("t1", tribe);
    assert!(zoc::in_ezoc(&d, &t.st, first, Faction::Loyal), "{first}");
    let start = t.st.clone();
    let roll = [("treachery against the rebel co-emperor", 6, 5)];
    let moved = |t: &T| {
        ["v1", "v2", "v3"]
            .iter()
            .filter_map(|id| t.at(id).filter(|h| *h != x))
            .collect::<Vec<Hex>>()
    };
    t.st.actor = Player::Roman;
    let ev = t.ok(ROMAN, "treachery", &roll);
    let to = moved(&t);
    assert_eq!(to.len(), 1, "{}", text(&ev));
    assert!(!zoc::in_ezoc(&d, &t.st, to[0], Faction::Loyal), "{}", to[0]);
    t.st = start;
    t.r = t.r.as_version(7).unwrap();
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "treachery", &roll);
    assert_eq!(moved(&t), vec![first], "version 7");
}

/// The emergency unstacking board: a rebel co-emperor
/// with three infantry in `x`, whose fall to treachery (8.11) leaves three
/// loyal infantry without a leader, one over the limit (10.7).
fn unstack_board() -> (T, Data, Hex) {
    let (mut t, d, p) = on_path(2);
    let x = p[1];
    for id in ["co", "v1", "v2", "v3"] {
        t.put(id, x);
        let u = t.u(id);
        t.st.unit_mut(u).rebel = true;
    }
    t.st.actor = Player::Roman;
    (t, d, x)
}

const TREACHERY_WINS: [(&str, u32, u32); 1] = [("treachery against the rebel co-emperor", 6, 5)];

/// The hexes next to `x` a lone infantry unit may unstack into, by id.
fn open_links(t: &T, d: &Data, x: Hex) -> Vec<Hex> {
    let mut v: Vec<Hex> = d
        .links(x)
        .filter(|n| t.st.at(*n).next().is_none())
        .collect();
    v.sort();
    v
}

/// The unstack board, the hexes open next to the stack, and where v3 (the
/// highest id) goes by default (checked, then the board is set back).
fn unstacked_by_default() -> (T, Hex, Vec<Hex>, Hex) {
    let (mut t, d, x) = unstack_board();
    let links = open_links(&t, &d, x);
    let base = t.st.clone();
    t.ok(ROMAN, "treachery", &TREACHERY_WINS);
    let default_to = t.at("v3").unwrap();
    assert_ne!(default_to, x, "by default the highest id leaves");
    assert_eq!((t.at("v1"), t.at("v2")), (Some(x), Some(x)));
    t.st = base;
    (t, x, links, default_to)
}

// 10.7, digest N10 (version 9): the Roman's `unstack at HEX keep ... to ...`
// standing order says which vexillations stay and where the rest go; by
// default the highest id leaves by the retreat doctrine.
#[test]
fn the_unstack_standing_order_keeps_the_named_units_and_sends_the_rest_where_told() {
    let (mut t, x, links, default_to) = unstacked_by_default();
    let wanted = *links.iter().rev().find(|n| **n != default_to).unwrap();
    t.standing(ROMAN, &[&format!("unstack at {x} keep v2,v3 to {wanted}")]);
    t.ok(ROMAN, "treachery", &TREACHERY_WINS);
    assert_eq!(t.at("v1"), Some(wanted), "v1 leaves, to the hex named");
    assert_eq!((t.at("v2"), t.at("v3")), (Some(x), Some(x)));
    assert!(
        t.r.standing(&t.st, ROMAN)
            .join("\n")
            .contains(&format!("unstack at {x} keep v2,v3 to {wanted}"))
    );
}

// 10.7, N10: the general `unstack to HEX...` list is tried first wherever the
// stack stands; a listed hex that is not adjacent is passed over.
#[test]
fn the_general_unstack_list_is_tried_before_the_retreat_doctrine() {
    let (mut t, _, links, default_to) = unstacked_by_default();
    let wanted = *links.iter().find(|n| **n != default_to).unwrap();
    t.standing(ROMAN, &[&format!("unstack to 3318 {wanted}")]);
    t.ok(ROMAN, "treachery", &TREACHERY_WINS);
    assert_eq!(t.at("v3"), Some(wanted));
}

// 10.7: an `unstack` order that the rule cannot carry out is refused, naming
// the line and the rule: only vexillations unstack, at most two stay without
// a leader, the others go to adjacent hexes. Version 8 knew no such order.
#[test]
fn an_illegal_unstack_order_is_refused_with_its_line_and_rule() {
    let (mut t, _d, x) = unstack_board();
    for (bad, why) in [
        (format!("unstack at {x} keep b1"), "not a vexillation"),
        (format!("unstack at {x} keep v1,v2,v3"), "at most 2"),
        (format!("unstack at {x} to 3318"), "not a land hex adjacent"),
        ("unstack".to_string(), "unstack to HEX"),
    ] {
        let lines = [
            SourceLine {
                line: 1,
                column: 3,
                text: "rally 3318".into(),
            },
            SourceLine {
                line: 2,
                column: 3,
                text: bad.clone(),
            },
        ];
        let e = t.r.set_standing(&mut t.st, ROMAN, &lines).unwrap_err();
        assert_eq!(e.line, 2, "{bad}");
        assert!(
            e.to_string().contains(why) && e.to_string().contains("10.7"),
            "{bad}: {e}"
        );
    }
    let old = t.r.as_version(8).unwrap();
    let line = [SourceLine {
        line: 1,
        column: 3,
        text: "unstack to 3318".into(),
    }];
    assert!(old.set_standing(&mut t.st, ROMAN, &line).is_err());
}

/// A Roman stack attacking a lone tribe whose retreat hexes tie under the
/// doctrine (no rally for the Germano-Parthian): the board and the DR roll.
fn tied_retreat() -> (T, Vec<Hex>, u32) {
    let (mut t, d, p) = on_path(3);
    for id in ["v1", "v2", "emp"] {
        t.put(id, p[0]);
    }
    t.put("g1", p[1]);
    let _ = d;
    t.st.pool.clear();
    t.st.actor = Player::Roman;
    let roll = t.roll_for(odds_step(2, 1) + 1, Outcome::DR);
    (t, p, roll)
}

// 13.12, digest 2.7 and N1 (version 9): when more than one legal retreat hex
// ties under the doctrine and the defender stated no `rally`, the attack
// stops and the defender alone is asked; `retreat HEX` picks one of the
// tied hexes and the attack goes on (the advance, 13.14); a hex not offered
// is refused citing 13.12, and the attacker cannot act meanwhile.
#[test]
fn the_defender_is_asked_where_to_retreat_when_the_doctrine_ties() {
    let (mut t, p, roll) = tied_retreat();
    let order = format!("attack {} on {}", p[0], p[1]);
    t.ok(ROMAN, &order, &[("combat", 6, roll)]);
    let q = t.st.question.clone().expect("a question");
    assert_eq!(q.to, Player::Gp);
    assert!(q.hexes.len() > 1);
    assert_eq!(t.at("g1"), Some(p[1]), "nobody has moved yet");
    let prompt = t.r.prompt(&t.st);
    assert_eq!(prompt.awaiting.len(), 1);
    assert_eq!(prompt.awaiting[0].side, GP);
    assert_eq!(prompt.awaiting[0].default, vec!["pass".to_string()]);
    assert!(t.r.legal_moves(&t.st, ROMAN).is_empty());
    assert!(
        t.r.legal_moves(&t.st, GP)
            .contains(&format!("retreat {}", q.hexes[1]))
    );
    let e = t.err(ROMAN, "pass");
    assert!(e.contains("5.2"), "{e}");
    let e = t.err(GP, &format!("retreat {}", p[0]));
    assert!(e.contains("13.12"), "{e}");
    let e = t.err(GP, &format!("place {}", q.hexes[1]));
    assert!(e.contains("13.12"), "{e}");
    let ev = t.ok(GP, &format!("retreat {}", q.hexes[1]), &[]);
    assert_eq!(t.at("g1"), Some(q.hexes[1]), "{}", text(&ev));
    assert_eq!(t.at("v1"), Some(p[1]), "the attacker advances (13.14)");
    assert!(t.st.question.is_none());
    assert_eq!(t.st.actor, Player::Gp, "the Roman's action is over");
}

// N1: a defender who stated `rally` is never asked; under version 8 nobody
// is asked and the doctrine's lowest id decides.
#[test]
fn a_defender_with_a_rally_order_or_a_version_8_game_is_never_asked() {
    let (mut t, p, roll) = tied_retreat();
    let order = format!("attack {} on {}", p[0], p[1]);
    let base = t.st.clone();
    t.ok(ROMAN, &order, &[("combat", 6, roll)]);
    let default = t.st.question.clone().unwrap().hexes[0];
    t.st = base.clone();
    t.standing(GP, &["rally none"]);
    t.ok(ROMAN, &order, &[("combat", 6, roll)]);
    assert!(t.st.question.is_none());
    assert_eq!(t.at("g1"), Some(default));
    t.st = base;
    t.r = t.r.as_version(8).unwrap();
    t.ok(ROMAN, &order, &[("combat", 6, roll)]);
    assert!(t.st.question.is_none());
    assert_eq!(t.at("g1"), Some(default));
}

// 14.3, digest N8 (version 9): a Roman cavalry unit the Germano-Parthian
// draws joins the Roman army where the Roman says; with no `prefer` list and
// more than one hex open he is asked, and the reserve roll follows his
// answer. With a list he is not asked.
#[test]
fn the_roman_is_asked_where_drawn_cavalry_joins_unless_he_listed_hexes() {
    use umpire_ldf::state::Item;
    let mut t = game();
    let c2 = t.u("c2");
    t.st.pool = vec![Item::Cavalry(c2)];
    t.st.removed = (1..=24).collect();
    let c3 = t.u("c3");
    t.st.unit_mut(c3).loc = Loc::Aside;
    let base = t.st.clone();
    t.ok(GP, "draw", &[]);
    let q = t.st.question.clone().expect("a question");
    assert_eq!(q.to, Player::Roman);
    assert_eq!(t.st.unit(c2).loc, Loc::Pool, "drawn, not yet placed");
    umpire_ldf::invariants(t.d(), &t.st).unwrap();
    let e = t.err(ROMAN, &format!("retreat {}", q.hexes[1]));
    assert!(e.contains("N8"), "{e}");
    let ev = t.ok(
        ROMAN,
        &format!("place {}", q.hexes[1]),
        &[("cavalry-reserve", 6, 3)],
    );
    assert_eq!(t.at("c2"), Some(q.hexes[1]), "{}", text(&ev));
    assert!(text(&ev).contains("joins the Roman army"));
    assert_eq!(t.st.actor, Player::Roman);
    t.st = base;
    t.standing(ROMAN, &[&format!("prefer {}", q.hexes[2])]);
    t.ok(GP, "draw", &[("cavalry-reserve", 6, 3)]);
    assert!(t.st.question.is_none());
    assert_eq!(t.at("c2"), Some(q.hexes[2]));
}

// 14.3 Bread & Circuses, digest N6 (version 9): when the Roman draws the
// games and refuses them, the Germano-Parthian picks the revolt's hex; with
// no `revolt` list and more than one eligible hex he is asked, `pass` takes
// the richest, `place HEX` another.
#[test]
fn the_gp_is_asked_where_a_refused_bread_and_circuses_revolts() {
    let (mut t, d) = games_refused();
    t.st.actor = Player::Roman;
    let base = t.st.clone();
    t.ok(ROMAN, "draw", &[]);
    let q = t.st.question.clone().expect("a question");
    assert_eq!(q.to, Player::Gp);
    let site = *q.hexes.last().unwrap();
    assert!(d.region(site).is_core() && site != h("3318"));
    t.ok(GP, &format!("place {site}"), &[]);
    assert_eq!(t.at("rg1"), Some(site));
    assert!(t.st.bc_rebels.contains(&site) && t.st.actor == Player::Gp);
    t.st = base.clone();
    t.ok(ROMAN, "draw", &[]);
    t.ok(GP, "pass", &[]);
    assert_eq!(t.at("rg1"), Some(q.hexes[0]), "the default: the richest");
    t.st = base;
    t.standing(GP, &[&format!("revolt {site}")]);
    t.ok(ROMAN, "draw", &[]);
    assert!(t.st.question.is_none());
    assert_eq!(t.at("rg1"), Some(site));
}

/// A Roman attack at 2:1 with the emperor (one column more, 13.9) on a lone
/// gund whose owner holds They Shall Not Pass (6) and Flanking Move (1)
/// and stated no `tsnp` or `shift`: the board and the attack order.
fn reaction_board() -> (T, Vec<Hex>, String) {
    let (mut t, p, _) = tied_retreat();
    t.give(Player::Gp, 6);
    t.give(Player::Gp, 1);
    let order = format!("attack {} on {}", p[0], p[1]);
    (t, p, order)
}

// 14.3 They Shall Not Pass ("after the attack has been declared but before
// the die is rolled"), Flanking Move, digest N2 (version 10): the defender
// who stated no `tsnp` or `shift` is asked before the die; `react 6` plays
// They Shall Not Pass, which shifts a column for the defence and turns a DR
// into an AS; the attacker cannot act meanwhile and no die is rolled before
// the answer.
#[test]
fn the_defender_is_asked_which_reaction_chits_to_play_before_the_die() {
    let (mut t, p, order) = reaction_board();
    let k = odds_step(2, 1) + 1;
    let base = t.st.clone();
    let ev = t.ok(ROMAN, &order, &[]);
    let q = t.st.question.clone().expect("a question before the die");
    assert_eq!(q.to, Player::Gp);
    assert!(text(&ev).contains("decide his defence"), "{}", text(&ev));
    assert!(
        !text(&ev).contains("They Shall"),
        "nothing of his hand is told"
    );
    let ask = t.r.prompt(&t.st).awaiting[0].ask.clone();
    assert!(ask.contains("14.3; N2") && !ask.contains("chit 6"), "{ask}");
    assert!(t.r.legal_moves(&t.st, ROMAN).is_empty());
    let legal = t.r.legal_moves(&t.st, GP);
    for a in ["pass", "react none", "react 1", "react 6", "react 1,6"] {
        assert!(legal.contains(&a.to_string()), "{a}: {legal:?}");
    }
    let e = t.err(ROMAN, "pass");
    assert!(e.contains("5.2"), "{e}");
    let e = t.err(GP, "react 2");
    assert!(e.contains("8.18"), "not in his hand: {e}");
    let e = t.err(GP, &format!("retreat {}", p[2]));
    assert!(e.contains("N2"), "{e}");
    // They Shall Not Pass: one column left, and the DR there becomes an AS.
    let roll = t.roll_for(k - 1, Outcome::DR);
    let ev = t.ok(GP, "react 6", &[("combat", 6, roll)]);
    assert!(text(&ev).contains("They Shall Not Pass"), "{}", text(&ev));
    assert_eq!(t.at("g1"), Some(p[1]), "DR converts to AS: {}", text(&ev));
    assert_eq!(t.st.hand(Player::Gp), &[1], "Flanking Move kept");
    assert!(t.pooled(6));
    assert!(t.st.question.is_none());
    assert_eq!(t.st.actor, Player::Gp, "the Roman's action is over");
    // `react 1,6`: two columns for the defence.
    t.st = base.clone();
    t.ok(ROMAN, &order, &[]);
    let roll = t.roll_for(k - 2, Outcome::AS);
    let ev = t.ok(GP, "react 1,6", &[("combat", 6, roll)]);
    assert!(
        text(&ev).contains(
            "-1 Flanking Move, the defender's chit 1 (14.3), -1 They Shall Not Pass, the defender's chit 6 (14.3) = 1:1"
        ),
        "{}",
        text(&ev)
    );
    assert!(t.st.hand(Player::Gp).is_empty());
    // `react none`: no chit, the odds as declared.
    t.st = base;
    t.ok(ROMAN, &order, &[]);
    let roll = t.roll_for(k, Outcome::AS);
    let ev = t.ok(GP, "react none", &[("combat", 6, roll)]);
    assert!(text(&ev).contains("(8.4, 13.9) = 3:1,"), "{}", text(&ev));
    assert_eq!(t.st.hand(Player::Gp), &[6, 1]);
}

// Digest N2 (version 10): `pass` takes the standing default (They Shall Not
// Pass at 3:1 or worse), as a stated `tsnp 3` would, and a defender who
// stated `tsnp` or `shift` is never asked; neither is one with an empty
// hand (the count is public), nor anyone under version 9. Surprise Attack
// (15) rules out They Shall Not Pass.
#[test]
fn a_reaction_is_asked_only_of_a_defender_who_stated_none() {
    let (mut t, p, order) = reaction_board();
    let k = odds_step(2, 1) + 1;
    let roll = t.roll_for(k, Outcome::AS);
    let base = t.st.clone();
    t.ok(ROMAN, &order, &[]);
    let by_pass = t.ok(GP, "pass", &[("combat", 6, roll)]);
    let after_pass = t.st.clone();
    for lines in [&["tsnp 3"][..], &["shift 0"][..]] {
        t.st = base.clone();
        t.standing(GP, lines);
        let ev = t.ok(ROMAN, &order, &[("combat", 6, roll)]);
        assert!(t.st.question.is_none(), "{lines:?}");
        assert_eq!(t.st.hands, after_pass.hands, "{lines:?}");
        assert_eq!(
            text(&ev).contains("(8.4, 13.9) = 3:1,"),
            text(&by_pass).contains("(8.4, 13.9) = 3:1,")
        );
    }
    t.st = base.clone();
    for c in [6, 1] {
        t.st.hands[Player::Gp.index()].retain(|x| *x != c);
        t.st.pool.push(umpire_ldf::state::Item::Chit(c));
    }
    t.ok(ROMAN, &order, &[("combat", 6, roll)]);
    assert!(t.st.question.is_none(), "an empty hand is not asked");
    // A hand with no reaction chit is asked all the same (10.9: only the
    // count is public, so the question must not depend on what it holds).
    t.st = base.clone();
    for c in [6, 1] {
        t.st.hands[Player::Gp.index()].retain(|x| *x != c);
        t.st.pool.push(umpire_ldf::state::Item::Chit(c));
    }
    t.give(Player::Gp, 2);
    t.ok(ROMAN, &order, &[]);
    assert!(t.st.question.is_some());
    assert_eq!(t.r.legal_moves(&t.st, GP), vec!["pass", "react none"]);
    t.st = base.clone();
    t.r = t.r.as_version(9).unwrap();
    t.ok(ROMAN, &order, &[("combat", 6, roll)]);
    assert!(t.st.question.is_none(), "version 9 asks nobody");
    t.r = Ldf::new();
    t.st = base;
    t.give(Player::Roman, 15);
    t.ok(ROMAN, &format!("{order} with 15"), &[]);
    let legal = t.r.legal_moves(&t.st, GP);
    assert!(!legal.contains(&"react 6".to_string()), "{legal:?}");
    let e = t.err(GP, "react 6");
    assert!(e.contains("N2"), "{e}");
    let _ = p;
}

// 14.3 Bread & Circuses ("the Roman player may refuse to sponsor the games,
// but he must make that decision prior to rolling the die"), digest N5
// (version 10): when the Germano-Parthian draws it and the Roman stated no
// `sponsor`, the Roman is asked before the die; `sponsor` pays a die + 1,
// `refuse` lets the Germano-Parthian plant the rebel garrison, `pass` takes
// the standing default (sponsor with 4 TP or more).
#[test]
fn the_roman_is_asked_whether_to_sponsor_the_games_the_gp_drew() {
    let (mut t, _d) = games_refused();
    t.st.treasury = 10;
    let base = t.st.clone();
    let ev = t.ok(GP, "draw", &[]);
    let q = t.st.question.clone().expect("a question before the die");
    assert_eq!(q.to, Player::Roman);
    assert_eq!(t.st.treasury, 10, "nothing paid yet: {}", text(&ev));
    let legal = t.r.legal_moves(&t.st, ROMAN);
    for a in ["pass", "sponsor", "refuse"] {
        assert!(legal.contains(&a.to_string()), "{a}: {legal:?}");
    }
    let e = t.err(ROMAN, &format!("place {}", h("3318")));
    assert!(e.contains("N5"), "{e}");
    t.ok(ROMAN, "sponsor", &[("bread-circuses", 6, 3)]);
    assert_eq!(t.st.treasury, 10 - 4, "a die (3) + 1");
    assert!(t.st.question.is_none() && t.st.actor == Player::Roman);
    t.st = base.clone();
    t.ok(GP, "draw", &[]);
    let ev = t.ok(ROMAN, "refuse", &[]);
    assert_eq!(t.st.treasury, 10, "{}", text(&ev));
    let rg = t.st.bc_rebels.iter().next().copied().expect("a revolt");
    assert!(t.st.at(rg).any(|u| t.st.unit(u).rebel));
    t.st = base.clone();
    t.ok(GP, "draw", &[]);
    t.ok(ROMAN, "pass", &[("bread-circuses", 6, 5)]);
    assert_eq!(t.st.treasury, 10 - 6, "the default sponsors with 10 TP");
    // A stated `sponsor` answers it; so does version 9; and the Roman's own
    // draw is his own decision (his `sponsor` order), never a question.
    t.st = base.clone();
    t.standing(ROMAN, &["sponsor 11"]);
    t.ok(GP, "draw", &[]);
    assert!(t.st.question.is_none() && t.st.treasury == 10 && !t.st.bc_rebels.is_empty());
    t.st = base.clone();
    t.r = t.r.as_version(9).unwrap();
    t.ok(GP, "draw", &[("bread-circuses", 6, 1)]);
    assert!(t.st.question.is_none() && t.st.treasury == 8);
    t.r = Ldf::new();
    t.st = base;
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "draw", &[("bread-circuses", 6, 1)]);
    assert!(t.st.question.is_none() && t.st.treasury == 8);
}

// 8.8 ("the Roman player may ... counter ... by expending TP as negative
// salt"), 14.3 Agents in Enemy Camp (-2 on an opponent's diplomacy or
// treachery roll, "declared prior to the die roll"), digest N4 (version 10):
// a Roman who stated no `salt` or `agents` is asked before the
// Germano-Parthian's roll; `salt 2 with 17` takes 2 TP and Agents off it,
// `pass` takes the standing default; salt beyond 3 or the treasury, and
// Agents not in hand, are refused. Stated orders, an empty treasury and hand,
// or version 9: nobody is asked.
#[test]
fn the_roman_is_asked_for_his_salt_before_gp_treachery() {
    let mut t = game();
    t.st.pool
        .retain(|i| *i != umpire_ldf::state::Item::Chit(17));
    t.st.hands[0] = vec![17];
    t.st.treasury = 5;
    let roll = "treachery against the emperor";
    let base = t.st.clone();
    let ev = t.ok(GP, "treachery", &[]);
    let q = t.st.question.clone().expect("a question before the die");
    assert_eq!(q.to, Player::Roman);
    assert!(
        text(&ev).contains("his salt before the die"),
        "{}",
        text(&ev)
    );
    assert_eq!(t.st.treasury, 5);
    let legal = t.r.legal_moves(&t.st, ROMAN);
    for a in [
        "pass",
        "salt 0",
        "salt 3",
        "salt 0 with 17",
        "salt 1 with 17",
    ] {
        assert!(legal.contains(&a.to_string()), "{a}: {legal:?}");
    }
    // With Agents (-2), at most 3 off in all (8.8; version 14).
    assert!(!legal.contains(&"salt 3 with 17".to_string()), "{legal:?}");
    let e = t.err(ROMAN, "salt 4");
    assert!(e.contains("8.8"), "{e}");
    let e = t.err(ROMAN, "salt 2 with 17");
    assert!(e.contains("8.8"), "{e}");
    let e = t.err(ROMAN, "sponsor");
    assert!(e.contains("N4"), "{e}");
    let ev = t.ok(ROMAN, "salt 1 with 17", &[(roll, 6, 5)]);
    assert!(
        text(&ev).contains("roll 5 -3 Roman salt = 2: failure"),
        "{}",
        text(&ev)
    );
    assert_eq!(t.st.treasury, 4);
    assert!(t.st.hand(Player::Roman).is_empty() && t.st.actor == Player::Roman);
    // `pass`: the defaults (no salt, Agents against treachery on the emperor).
    t.st = base.clone();
    t.ok(GP, "treachery", &[]);
    let ev = t.ok(ROMAN, "pass", &[(roll, 6, 5)]);
    assert!(
        text(&ev).contains("roll 5 -2 Roman salt = 3: failure"),
        "{}",
        text(&ev)
    );
    // Agents not held.
    t.st = base.clone();
    t.st.hands[0].clear();
    t.ok(GP, "treachery", &[]);
    let e = t.err(ROMAN, "salt 1 with 17");
    assert!(e.contains("14.3"), "{e}");
    // Never asked: a stated order; nothing to salt with; version 9.
    t.st = base.clone();
    t.standing(ROMAN, &["salt treachery 1"]);
    let ev = t.ok(GP, "treachery", &[(roll, 6, 5)]);
    assert!(t.st.question.is_none());
    assert!(text(&ev).contains("roll 5 -3 Roman salt"), "{}", text(&ev));
    t.st = base.clone();
    t.st.hands[0].clear();
    t.st.treasury = 0;
    t.ok(GP, "treachery", &[(roll, 6, 4)]);
    assert!(t.st.question.is_none());
    t.st = base;
    t.r = t.r.as_version(9).unwrap();
    t.ok(GP, "treachery", &[(roll, 6, 4)]);
    assert!(t.st.question.is_none());
}

/// A pool holding chit `c` alone (the others out of play).
fn only_chit(t: &mut T, c: u8) {
    t.st.pool = vec![umpire_ldf::state::Item::Chit(c)];
    t.st.removed = (1..=24).filter(|x| *x != c).collect();
}

// 14.3 The Gods are Bored: "If this chit is pulled during Turn 5, simply set
// it aside; it is considered to be 'No Event,' though the player who drew it
// is still considered to have completed an action." No die is rolled.
#[test]
fn the_gods_are_bored_in_turn_5_are_no_event() {
    let mut t = game();
    only_chit(&mut t, 18);
    t.st.turn = 5;
    let ev = t.ok(GP, "draw", &[]);
    assert!(text(&ev).contains("no event"), "{}", text(&ev));
    assert!(t.st.aside.contains(&18) && !t.pooled(18));
    assert_eq!((t.st.turn, t.st.actor), (5, Player::Roman));
    // Version 9 put it back into the pool; its records replay so.
    let mut t = game();
    only_chit(&mut t, 18);
    t.st.turn = 5;
    t.r = t.r.as_version(9).unwrap();
    t.ok(GP, "draw", &[]);
    assert!(t.pooled(18) && !t.st.aside.contains(&18));
}

// 14.3 Roman Revenue Windfall: "rolling a die, adding three ... reclaiming
// ... that number of Roman legion base camps and/or infantry vexillations
// ... under the same strictures as given in 6.8 [twinned]. Alternatively ...
// TP equal to the final die roll result (but not more than five); or ... a
// mixture"; "not returned to the chit pool until the start of the next game
// turn". Roll 4: 7 = 3 TP and two twinned pairs; the pairs go to core hexes
// free of enemies. Asking 9 TP of a roll of 6 (9) gives 5.
#[test]
fn revenue_windfall_gives_a_die_plus_three_in_tp_and_pairs() {
    let mut t = game();
    let d = t.d().clone();
    for id in ["b1", "v1", "b2", "v2", "b3", "v3"] {
        let u = t.u(id);
        t.st.unit_mut(u).loc = Loc::Dead;
    }
    let empty_core: Vec<Hex> = d
        .hexes
        .iter()
        .filter(|x| x.region.is_core() && x.tp > 0 && t.st.at(x.hex).next().is_none())
        .map(|x| x.hex)
        .take(3)
        .collect();
    t.give(Player::Roman, 24);
    t.st.actor = Player::Roman;
    t.st.treasury = 0;
    let base = t.st.clone();
    let order = format!(
        "play 24 tp 3 at {} {} {}",
        empty_core[0], empty_core[1], empty_core[2]
    );
    let ev = t.ok(ROMAN, &order, &[("windfall", 6, 4)]);
    assert!(
        text(&ev).contains("windfall of 7: 3 TP and 2 legions"),
        "{}",
        text(&ev)
    );
    assert_eq!(t.st.treasury, 3);
    for hx in &empty_core[..2] {
        let kinds: Vec<Kind> = t.st.at(*hx).map(|u| d.kind(u)).collect();
        assert_eq!(kinds.len(), 2, "{hx}: {kinds:?}");
        assert!(kinds.contains(&Kind::Base) && kinds.contains(&Kind::Infantry));
    }
    assert_eq!(
        t.st.at(empty_core[2]).count(),
        0,
        "7 - 3 TP leaves 4 units, two pairs"
    );
    assert!(t.st.aside.contains(&24) && !t.pooled(24), "back next turn");
    t.st = base.clone();
    t.ok(ROMAN, "play 24 tp 5", &[("windfall", 6, 6)]);
    assert_eq!(t.st.treasury, 5, "not more than five TP");
    // More than five is refused before the roll from version 14; version 13
    // cut it to five unsaid.
    t.st = base.clone();
    let e = t.err(ROMAN, "play 24 tp 9");
    assert!(e.contains("at most 5"), "{e}");
    t.st = base;
    t.r = t.r.as_version(13).unwrap();
    t.ok(ROMAN, "play 24 tp 9", &[("windfall", 6, 6)]);
    assert_eq!(t.st.treasury, 5);
}

// 14.3 Parthian Dynastic Resurgence: the Germano-Parthian reclaims "all the
// Parthian mobile and static units then in [the dead pile]" and places them
// as in 7.2; not returned to the pool until the next turn. Drawn by the
// Roman, it is shown and put back, ending his action.
#[test]
fn parthian_dynastic_resurgence_brings_back_every_dead_gund() {
    let mut t = game();
    let d = t.d().clone();
    for id in ["g1", "g2", "g3"] {
        let u = t.u(id);
        t.st.unit_mut(u).loc = Loc::Dead;
    }
    let base = t.st.clone();
    t.give(Player::Gp, 22);
    t.ok(GP, "play 22", &[]);
    for id in ["g1", "g2", "g3"] {
        let hx = t.at(id).unwrap_or_else(|| panic!("{id} is back"));
        assert_eq!(d.region(hx), Region::Parthia, "{id} in {hx} (7.2)");
    }
    assert!(t.st.aside.contains(&22) && !t.pooled(22));
    t.st = base;
    only_chit(&mut t, 22);
    t.st.actor = Player::Roman;
    let ev = t.ok(ROMAN, "draw", &[]);
    assert!(
        t.pooled(22) && t.st.hand(Player::Roman).is_empty(),
        "{}",
        text(&ev)
    );
    assert_eq!(t.st.actor, Player::Gp, "the Roman action is over");
    assert_eq!(t.at("g1"), None, "nothing comes back");
}

// 14.3 German Population Increase: "rolling a die, adding three ... and
// immediately reclaiming from the dead pile up to that number of Germanic
// tribal units" placed as in 7.1. Roll 2: five of six dead tribes return,
// each alone in an empty Barbaria hex.
#[test]
fn german_population_increase_brings_back_a_die_plus_three_tribes() {
    let mut t = game();
    let d = t.d().clone();
    let ids = ["t1", "t2", "t3", "t4", "t5", "t6"];
    for id in ids {
        let u = t.u(id);
        t.st.unit_mut(u).loc = Loc::Dead;
    }
    t.give(Player::Gp, 23);
    t.ok(GP, "play 23", &[("german-increase", 6, 2)]);
    let back: Vec<Hex> = ids.iter().filter_map(|id| t.at(id)).collect();
    assert_eq!(back.len(), 5, "a die (2) + 3");
    for hx in back {
        assert_eq!(d.region(hx), Region::Barbaria);
        assert_eq!(t.st.at(hx).count(), 1, "no German stacking (10.2)");
    }
}

// 14.3 Roman Revenue Windfall: "If the Germano-Parthian player draws this
// chit, he must first show it ... then he simply puts it back into the pool,
// thereby ending his action."
#[test]
fn a_windfall_drawn_by_the_gp_is_shown_and_put_back() {
    let mut t = game();
    only_chit(&mut t, 24);
    let ev = t.ok(GP, "draw", &[]);
    assert!(
        t.pooled(24) && t.st.hand(Player::Gp).is_empty(),
        "{}",
        text(&ev)
    );
    assert_eq!(t.st.actor, Player::Roman);
}

// 11.4, digest N15 (version 10): a Germano-Parthian attack on his own
// rebels is no enemy attack for anyone: the Roman, who holds They Shall Not
// Pass and stated nothing, is neither asked nor made to play it for them.
#[test]
fn no_reaction_is_played_when_the_gp_attacks_his_own_rebels() {
    let (mut t, d, p) = on_path(3);
    t.put("t1", p[0]);
    t.put("v1", p[1]);
    let v1 = t.u("v1");
    t.st.unit_mut(v1).rebel = true;
    t.give(Player::Roman, 6);
    t.st.actor = Player::Gp;
    let cf = 1 + d.values.german_die_add;
    let roll = t.roll_for(odds_step(cf, 1), Outcome::AS);
    let ev = t.ok(
        GP,
        &format!("attack {} on {}", p[0], p[1]),
        &[("german-cf-t1", 6, 1), ("combat", 6, roll)],
    );
    assert!(t.st.question.is_none(), "{}", text(&ev));
    assert_eq!(t.st.hand(Player::Roman), &[6]);
    assert!(!text(&ev).contains("They Shall Not Pass"));
}

/// A rebel co-emperor with v1 in `p[0]` of a path of 4, and a hex `q` next
/// to `p[1]` but not to `p[0]` (8.3 tests).
fn rebel_force() -> (T, Vec<Hex>, Hex) {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 4);
    let q = d
        .links(p[1])
        .find(|x| !p.contains(x) && d.is_land(*x) && !x.adjacent_on(OFFSET, p[0]))
        .unwrap();
    for id in ["co", "v1"] {
        t.put(id, p[0]);
        let u = t.u(id);
        t.st.unit_mut(u).rebel = true;
    }
    (t, p, q)
}

// 8.3: "If the rebel co-emperor moves next to a loyal Roman force containing
// the emperor, there is no conversion die roll; there is only mutual stasis":
// no die is rolled (none is scripted) and the move ends next to him.
#[test]
fn a_rebel_force_next_to_the_emperor_rolls_nothing_and_stops() {
    let (mut t, p, q) = rebel_force();
    t.put("emp", q);
    t.put("v2", q);
    let ev = t.ok(GP, &format!("move {} to {} {}", p[0], p[1], p[2]), &[]);
    assert_eq!(t.at("co"), Some(p[1]), "{}", text(&ev));
    assert!(!t.st.unit(t.u("v2")).rebel);
    assert!(text(&ev).contains("before the emperor"), "{}", text(&ev));
}

// 8.3 example: after a failed conversion roll the 'locked in' rebel
// co-emperor's next move "would have to start with a conversion die roll
// for each adjacent hex containing a loyal Roman force. If those die rolls
// all resulted in conversions, the rebel leader and his force could then
// actually move off"; if one fails, he stays.
#[test]
fn a_locked_in_rebel_coemperor_rolls_before_moving_off() {
    let (mut t, p, q) = rebel_force();
    t.put("v2", q);
    t.march_past(&p, q, 3);
    assert_eq!(t.at("co"), Some(p[1]), "locked in next to v2");
    let base = t.st.clone();
    // An odd roll: still loyal, no move.
    t.st.actor = Player::Gp;
    let ev = t.ok(
        GP,
        &format!("move {} to {}", p[1], p[2]),
        &[(&format!("conversion-{q}"), 6, 5)],
    );
    assert_eq!(t.at("co"), Some(p[1]), "{}", text(&ev));
    assert!(text(&ev).contains("cannot move off"), "{}", text(&ev));
    // An even roll: v2 turns rebel and the force moves off.
    t.st = base;
    t.st.actor = Player::Gp;
    let ev = t.ok(
        GP,
        &format!("move {} to {}", p[1], p[2]),
        &[(&format!("conversion-{q}"), 6, 2)],
    );
    assert!(t.st.unit(t.u("v2")).rebel, "{}", text(&ev));
    assert_eq!(t.at("co"), Some(p[2]));
}

/// Two core land hexes at least six hexes from `from` and from each other's
/// neighbours, lowest ids first: stacks there tie for the largest army.
fn far_pair(d: &Data, from: Hex) -> (Hex, Hex) {
    let far: Vec<Hex> = d
        .hexes
        .iter()
        .filter(|x| x.region.is_core() && x.hex != d.special.rome && d.is_land(x.hex))
        .map(|x| x.hex)
        .filter(|x| x.distance_on(OFFSET, from) >= 6 && x.distance_on(OFFSET, h("3318")) >= 2)
        .collect();
    let a = far[0];
    let b = *far.iter().find(|x| x.distance_on(OFFSET, a) >= 3).unwrap();
    (a.min(b), a.max(b))
}

/// Scripted dice: (label, faces, value).
type Dice3 = Vec<(&'static str, u32, u32)>;

/// 8.9, 14.4, N9 (version 11): the Germano-Parthian attacks the emperor's
/// stack at 5:1 less his leader's shift and rolls DE; two far hexes hold two
/// vexillations each, tied for the largest army. Returns the test, the
/// battle's hexes, the tied hexes, the attack order and its dice.
fn succession_tie() -> (T, Vec<Hex>, (Hex, Hex), String, Dice3) {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    t.put("t1", p[0]);
    t.put_all(&["emp", "v1"], p[1]);
    let (b, c) = far_pair(&d, p[1]);
    t.put_all(&["v2", "v3"], b);
    t.put_all(&["v4", "v5"], c);
    t.st.pool = vec![umpire_ldf::state::Item::Chit(4)];
    let chits = d.chits.len() as u8;
    t.st.removed = (1..=chits).filter(|c| *c != 4).collect();
    t.st.actor = Player::Gp;
    // Not asked before the die (N2): his answer is his standing order.
    t.standing(ROMAN, &["tsnp 9"]);
    let roll = t.roll_for(odds_step(5, 1) - 1, Outcome::DE);
    let order = format!("attack {} on {}", p[0], p[1]);
    let dice = vec![
        ("german-cf-t1", 6, 4),
        ("combat", 6, roll),
        ("emperor-table", 6, 3),
    ];
    (t, p, (b, c), order, dice)
}

// 8.9, 14.4 errata ("IF TWO OR MORE HEXES"), digest 2.7 and N9 (version
// 11): the emperor falls in a Germano-Parthian attack and two hexes tie for
// the largest army; the Roman, who listed no `prefer` hex, alone is asked,
// and the attack waits: the emperor is off the map, nobody has advanced.
#[test]
fn the_roman_is_asked_where_the_new_emperor_rises_among_tied_hexes() {
    let (mut t, p, (b, c), order, dice) = succession_tie();
    t.ok(GP, &order, &dice);
    let q = t.st.question.clone().expect("a question");
    assert_eq!(q.to, Player::Roman);
    assert_eq!(q.hexes, vec![b, c], "the default, the lowest id, first");
    assert_eq!(t.at("emp"), None, "not yet proclaimed");
    assert_eq!(t.at("t1"), Some(p[0]), "no advance yet");
    umpire_ldf::invariants(t.d(), &t.st).unwrap();
    let prompt = t.r.prompt(&t.st);
    assert_eq!(prompt.awaiting[0].side, ROMAN);
    assert!(
        prompt.awaiting[0].ask.contains("N9"),
        "{}",
        prompt.awaiting[0].ask
    );
    assert!(t.r.legal_moves(&t.st, GP).is_empty());
    assert!(
        t.r.legal_moves(&t.st, ROMAN)
            .contains(&format!("place {c}"))
    );
    assert!(t.err(GP, "pass").contains("5.2"));
}

// N9: the answer proclaims the emperor where the Roman says (14.4) and the
// attack goes on as it would have without the question: the attacker
// advances (13.14) and draws his free chit (8.19); then the Roman acts.
// A hex not tied for the largest army is refused citing 14.4 and N9.
#[test]
fn the_succession_answer_proclaims_there_and_the_attack_goes_on() {
    let (mut t, p, (_, c), order, dice) = succession_tie();
    t.ok(GP, &order, &dice);
    let e = t.err(ROMAN, &format!("place {}", p[2]));
    assert!(
        e.contains("14.4") && e.contains("N9") && e.contains("largest army"),
        "{e}"
    );
    let e = t.err(ROMAN, &format!("retreat {c}"));
    assert!(e.contains("N9"), "{e}");
    let ev = t.ok(ROMAN, &format!("place {c}"), &[]);
    let s = text(&ev);
    assert_eq!(t.at("emp"), Some(c), "{s}");
    assert!(
        s.contains("proclaimed in") && s.contains("(14.4, stand-in)"),
        "{s}"
    );
    assert_eq!(t.at("t1"), Some(p[1]), "the attacker advances (13.14): {s}");
    assert!(
        s.contains("(8.19)") && t.st.pool.is_empty(),
        "the free draw: {s}"
    );
    assert!(t.st.question.is_none());
    assert_eq!(
        t.st.actor,
        Player::Roman,
        "the Germano-Parthian's action is over"
    );
    umpire_ldf::invariants(t.d(), &t.st).unwrap();
}

// N9: a Roman with a `prefer` list is never asked (his list breaks the
// tie), `pass` takes the lowest id, and version 10 asks nobody: the lowest
// id, with the advance and free draw in the same action.
#[test]
fn a_prefer_order_or_a_version_10_game_proclaims_without_asking() {
    let (mut t, p, (b, c), order, dice) = succession_tie();
    let base = t.st.clone();
    t.standing(ROMAN, &["tsnp 9", &format!("prefer {c}")]);
    t.ok(GP, &order, &dice);
    assert!(t.st.question.is_none());
    assert_eq!(t.at("emp"), Some(c));
    assert_eq!(t.at("t1"), Some(p[1]));
    t.st = base.clone();
    t.ok(GP, &order, &dice);
    t.ok(ROMAN, "pass", &[]);
    assert_eq!(t.at("emp"), Some(b), "pass: the lowest id");
    let passed = t.st.clone();
    t.st = base;
    t.r = t.r.as_version(10).unwrap();
    let s = text(&t.ok(GP, &order, &dice));
    assert!(t.st.question.is_none(), "version 10 asks nobody: {s}");
    assert_eq!(t.at("emp"), Some(b));
    assert_eq!(t.at("t1"), Some(p[1]));
    assert!(s.contains("(8.19)"), "{s}");
    assert_eq!(
        t.st.units(),
        passed.units(),
        "pass ends where version 10 does"
    );
}

/// 8.9, 10.7, N10 (version 11): the emperor stands with four vexillations
/// in a hex of core land and Rome holds one; the Germano-Parthian's
/// treachery kills him, the table (5) proclaims the new one in Rome and his
/// old stack, now leaderless, is two over the limit. Returns the test and
/// the old stack's hex.
fn leaderless_stack() -> (T, Hex) {
    let mut t = empty();
    let d = t.d().clone();
    let a = path(&d, h("3016"), 3)[1];
    t.put_all(&["emp", "v1", "v2", "v3", "v4"], a);
    t.put("v5", h("3318"));
    let chits = d.chits.len() as u8;
    t.st.removed = (1..=chits).collect();
    t.st.actor = Player::Gp;
    // Not asked before the die (N4): his answer is his standing order.
    t.standing(ROMAN, &["salt treachery 0"]);
    (t, a)
}

const TREACHERY: [(&str, u32, u32); 2] = [
    ("treachery against the emperor", 6, 6),
    ("emperor-table", 6, 5),
];

/// The vexillation a pending question unstacks.
fn unstacking(t: &T) -> UnitId {
    use umpire_ldf::ask::About;
    match t.st.question.as_ref().map(|q| &q.about) {
        Some(About::Unstack { unit, .. }) => *unit,
        q => panic!("not an unstacking question: {q:?}"),
    }
}

// 10.7, digest 2.7 and N10 (version 11): a stack over the limit after its
// leader's fall unstacks unit by unit; where more than one adjacent hex
// will do and the Roman stated no `unstack` order, he alone is asked, the
// stack waiting over the limit meanwhile.
#[test]
fn the_roman_is_asked_where_a_leaderless_stack_unstacks() {
    let (mut t, a) = leaderless_stack();
    t.ok(GP, "treachery", &TREACHERY);
    let q = t.st.question.clone().expect("a question");
    assert_eq!(q.to, Player::Roman);
    assert!(q.hexes.len() > 1 && q.hexes.iter().all(|n| t.d().linked(a, *n)));
    unstacking(&t);
    assert_eq!(t.at("emp"), Some(h("3318")), "proclaimed in Rome (14.4)");
    assert_eq!(t.st.at(a).count(), 4, "nobody has moved yet");
    umpire_ldf::invariants(t.d(), &t.st).unwrap();
    let prompt = t.r.prompt(&t.st);
    assert_eq!(prompt.awaiting[0].side, ROMAN);
    assert!(
        prompt.awaiting[0].ask.contains("N10"),
        "{}",
        prompt.awaiting[0].ask
    );
    assert!(t.r.legal_moves(&t.st, GP).is_empty());
    assert!(t.err(GP, "pass").contains("5.2"));
}

// N10: the answer moves the unit where the Roman says and the unstacking
// goes on: the next unit is asked about again, `pass` sends it by the
// retreat doctrine (the question's first hex), and then the
// Germano-Parthian's action is over with the stack within the limit (10.7).
// A hex not adjacent is refused citing 10.7 and N10.
#[test]
fn the_unstacking_answer_moves_the_unit_and_the_unstacking_goes_on() {
    let (mut t, a) = leaderless_stack();
    t.ok(GP, "treachery", &TREACHERY);
    let e = t.err(ROMAN, "place 3318");
    assert!(
        e.contains("10.7") && e.contains("N10") && e.contains("adjacent"),
        "{e}"
    );
    let q = t.st.question.clone().unwrap();
    let first = unstacking(&t);
    let s = text(&t.ok(ROMAN, &format!("place {}", q.hexes[1]), &[]));
    assert_eq!(t.st.hex_of(first), Some(q.hexes[1]), "{s}");
    assert!(s.contains("unstacks to") && s.contains("(10.7)"), "{s}");
    let q2 = t.st.question.clone().expect("the next unit is asked about");
    let second = unstacking(&t);
    assert_ne!(first, second);
    t.ok(ROMAN, "pass", &[]);
    assert_eq!(t.st.hex_of(second), Some(q2.hexes[0]));
    assert_eq!(t.st.at(a).count(), 2);
    assert!(t.st.question.is_none());
    assert_eq!(
        t.st.actor,
        Player::Roman,
        "the Germano-Parthian's action is over"
    );
    umpire_ldf::invariants(t.d(), &t.st).unwrap();
}

// N10: a Roman who stated an `unstack` order (even `unstack default`) is
// never asked, and version 10 asks nobody; both unstack as the doctrine
// does, and so does answering `pass` each time.
#[test]
fn an_unstack_order_or_a_version_10_game_unstacks_without_asking() {
    let (mut t, _) = leaderless_stack();
    let base = t.st.clone();
    t.ok(GP, "treachery", &TREACHERY);
    while t.st.question.is_some() {
        t.ok(ROMAN, "pass", &[]);
    }
    let passed = t.st.units().to_vec();
    t.st = base.clone();
    t.standing(ROMAN, &["salt treachery 0", "unstack default"]);
    t.ok(GP, "treachery", &TREACHERY);
    assert!(t.st.question.is_none());
    assert_eq!(t.st.units(), passed.as_slice());
    t.st = base;
    t.r = t.r.as_version(10).unwrap();
    t.ok(GP, "treachery", &TREACHERY);
    assert!(t.st.question.is_none(), "version 10 asks nobody");
    assert_eq!(t.st.units(), passed.as_slice());
    assert_eq!(t.st.actor, Player::Roman);
}

// N9 then N10 (version 11): the emperor falls to treachery and three hexes
// tie for the largest army, his own among them (three mobile units each; a
// cavalry vexillation before the reserve stacks free, 10.8). The Roman puts
// the new emperor elsewhere; the old stack, three vexillations without a
// leader, must then unstack one (10.7), and he is asked where, in the same
// action, after the first answer.
#[test]
fn the_succession_answer_is_followed_by_the_unstacking_question() {
    let mut t = empty();
    let d = t.d().clone();
    let a = path(&d, h("3016"), 3)[1];
    let (b, c) = far_pair(&d, a);
    t.put_all(&["emp", "v1", "v2", "v3"], a);
    t.put_all(&["v4", "v5", "c1"], b);
    t.put_all(&["v6", "v7", "c2"], c);
    t.st.removed = (1..=d.chits.len() as u8).collect();
    t.st.actor = Player::Gp;
    t.standing(ROMAN, &["salt treachery 0"]);
    let dice = [
        ("treachery against the emperor", 6, 6),
        ("emperor-table", 6, 3),
    ];
    t.ok(GP, "treachery", &dice);
    let q = t.st.question.clone().expect("the succession question");
    let mut tied = vec![a, b, c];
    tied.sort();
    assert_eq!(q.hexes, tied);
    t.ok(ROMAN, &format!("place {c}"), &[]);
    assert_eq!(t.at("emp"), Some(c));
    let moving = unstacking(&t);
    assert_eq!(t.st.hex_of(moving), Some(a));
    t.ok(ROMAN, "pass", &[]);
    assert_eq!(t.st.at(a).count(), 2, "the old stack within the limit");
    assert!(t.st.question.is_none());
    assert_eq!(t.st.actor, Player::Roman);
    umpire_ldf::invariants(t.d(), &t.st).unwrap();
}

// 6.10, digest 2.7 and N7 (version 11): a deficit met in the
// Germano-Parthian's action, with more than one way to cover it and no
// `deficit` order stated, stops the action: the Roman alone is asked, step
// by step; nothing is paid or demobilized yet.
#[test]
fn the_roman_is_asked_how_he_covers_a_deficit() {
    use umpire_ldf::ask::About;
    let (mut t, _) = deficit_setup();
    t.ok(GP, "draw", &[("persecutions", 6, 3)]);
    let q = t.st.question.clone().expect("a question");
    assert_eq!(q.to, Player::Roman);
    assert!(matches!(q.about, About::Deficit { due: 4, .. }), "{q:?}");
    assert_eq!(t.st.treasury, 0);
    assert!(t.at("b1").is_some() && t.at("b2").is_some());
    umpire_ldf::invariants(t.d(), &t.st).unwrap();
    let prompt = t.r.prompt(&t.st);
    assert_eq!(prompt.awaiting[0].side, ROMAN);
    assert!(
        prompt.awaiting[0].ask.contains("N7"),
        "{}",
        prompt.awaiting[0].ask
    );
    let legal = t.r.legal_moves(&t.st, ROMAN);
    assert!(legal.contains(&"demobilize b1 v1".to_string()), "{legal:?}");
    assert!(legal.iter().any(|o| o.starts_with("tax ")), "{legal:?}");
    assert!(t.r.legal_moves(&t.st, GP).is_empty());
    assert!(t.err(GP, "pass").contains("5.2"));
}

// N7: each answer is one step of the cover (6.6, 6.7); while TP still lack
// he is asked again, and once covered the payment is made and the
// Germano-Parthian's action ends (6.10). Answers the rules forbid are
// refused with their rule: Rome/Ostia is never taxed (6.6), a lone base
// when twins are due (6.7), a hex answer (N7).
#[test]
fn the_deficit_answers_cover_step_by_step_and_the_payment_follows() {
    let (mut t, _) = deficit_setup();
    t.ok(GP, "draw", &[("persecutions", 6, 3)]);
    let e = t.err(ROMAN, "tax 3318");
    assert!(e.contains("6.6") && e.contains("N7"), "{e}");
    let e = t.err(ROMAN, "demobilize b1");
    assert!(e.contains("6.7") && e.contains("N7"), "{e}");
    let e = t.err(ROMAN, "place 3318");
    assert!(e.contains("N7"), "{e}");
    let s = text(&t.ok(ROMAN, "demobilize b1 v1", &[]));
    assert_eq!(t.st.unit(t.u("b1")).loc, Loc::Dead, "{s}");
    assert_eq!(t.st.unit(t.u("v1")).loc, Loc::Dead);
    assert!(
        t.st.question.is_some(),
        "two TP still lack: asked again: {s}"
    );
    let d = t.d().clone();
    let x =
        t.r.legal_moves(&t.st, ROMAN)
            .iter()
            .filter_map(|o| o.strip_prefix("tax ").map(h))
            .find(|x| d.hex(*x).unwrap().tp >= 1)
            .unwrap();
    let tp = d.hex(x).unwrap().tp;
    let s = text(&t.ok(ROMAN, &format!("tax {x}"), &[]));
    assert!(
        t.st.looted.contains(&x) && s.contains("emergency taxation"),
        "{s}"
    );
    assert!(s.contains("Persecutions cost Rome 4 TP"), "{s}");
    assert_eq!(t.st.treasury, 2 + 2 * tp - 4);
    assert!(t.st.question.is_none());
    assert_eq!(
        t.st.actor,
        Player::Roman,
        "the Germano-Parthian's action is over"
    );
    assert_eq!(t.st.unit(t.u("b2")).loc, Loc::Hex(t.at("b2").unwrap()));
    umpire_ldf::invariants(t.d(), &t.st).unwrap();
}

// N7: a `deficit` order (even `deficit none`) answers for him, version 10
// asks nobody, and answering `pass` each time ends where both do (the
// fallback: leaderless twins farthest from the enemy first).
#[test]
fn a_deficit_order_or_a_version_10_game_covers_without_asking() {
    let (mut t, _) = deficit_setup();
    let base = t.st.clone();
    t.ok(GP, "draw", &[("persecutions", 6, 3)]);
    while t.st.question.is_some() {
        t.ok(ROMAN, "pass", &[]);
    }
    let passed = (t.st.units().to_vec(), t.st.treasury);
    t.st = base.clone();
    t.standing(ROMAN, &["deficit none"]);
    t.ok(GP, "draw", &[("persecutions", 6, 3)]);
    assert!(t.st.question.is_none());
    assert_eq!((t.st.units().to_vec(), t.st.treasury), passed);
    t.st = base;
    t.r = t.r.as_version(10).unwrap();
    t.ok(GP, "draw", &[("persecutions", 6, 3)]);
    assert!(t.st.question.is_none(), "version 10 asks nobody");
    assert_eq!((t.st.units().to_vec(), t.st.treasury), passed);
    assert_eq!(t.st.unit(t.u("b1")).loc, Loc::Dead);
}

// N9 then N7 (version 11), deep in a battle's cascade: the table's row 1
// costs a die of TP that the empty treasury cannot pay, so the answer to
// the succession question leads to the deficit question; once that is
// answered the attack still goes on, the advance (13.14) and the free draw
// (8.19), as it would have without either question.
#[test]
fn a_succession_answer_may_lead_to_a_deficit_question_and_the_attack_goes_on() {
    use umpire_ldf::ask::About;
    let (mut t, p, (_, c), order, mut dice) = succession_tie();
    dice[2] = ("emperor-table", 6, 1);
    t.st.treasury = 0;
    t.ok(GP, &order, &dice);
    assert!(matches!(
        t.st.question.as_ref().map(|q| &q.about),
        Some(About::Succession { tp_die: true, .. })
    ));
    let mut s = text(&t.ok(ROMAN, &format!("place {c}"), &[("emperor-table-tp", 6, 2)]));
    assert_eq!(t.at("emp"), Some(c));
    assert_eq!(t.at("t1"), Some(p[0]), "the attack waits: {s}");
    let mut asked = 0;
    while let Some(q) = t.st.question.clone() {
        assert!(matches!(q.about, About::Deficit { due: 2, .. }), "{q:?}");
        s += &text(&t.ok(ROMAN, "pass", &[]));
        asked += 1;
    }
    assert!(asked > 0, "the deficit was asked about: {s}");
    assert!(s.contains("the succession costs 2 TP"), "{s}");
    assert_eq!(t.at("t1"), Some(p[1]), "the attacker advances (13.14): {s}");
    assert!(s.contains("(8.19)"), "the free draw: {s}");
    assert_eq!(t.st.actor, Player::Roman);
    umpire_ldf::invariants(t.d(), &t.st).unwrap();
}

// Version 11 with `pass` to every question ends where version 10 ends
// without asking, however deep the questions fall (N9, N7, the battle's
// advance and free draw after them): the answers resume the cascade exactly.
#[test]
fn passing_every_question_ends_where_version_10_ends() {
    let (mut t, _, _, order, mut dice) = succession_tie();
    dice[2] = ("emperor-table", 6, 1);
    t.st.treasury = 0;
    let base = t.st.clone();
    t.ok(GP, &order, &dice);
    t.ok(ROMAN, "pass", &[("emperor-table-tp", 6, 2)]);
    while t.st.question.is_some() {
        t.ok(ROMAN, "pass", &[]);
    }
    let v11 = t.st.clone();
    t.st = base;
    t.r = t.r.as_version(10).unwrap();
    dice.push(("emperor-table-tp", 6, 2));
    t.ok(GP, &order, &dice);
    assert!(t.st.question.is_none());
    assert_eq!(t.st.units(), v11.units());
    assert_eq!(t.st.treasury, v11.treasury);
    assert_eq!(t.st.pool, v11.pool);
    assert_eq!(t.st.hand(Player::Gp), v11.hand(Player::Gp));
    assert_eq!(t.st.looted, v11.looted);
    assert_eq!(t.st.actor, v11.actor);
}

// Version 15: every number explained. 13.8: a German attack across the
// Rhine or Danube is shifted one column left; 13.9: a Roman leader in the
// battle shifts it one column to his side. Each shift is told with its
// source and rule; version 14 told the net shift alone.
#[test]
fn every_odds_shift_is_told_with_its_source_and_rule() {
    let mut t = empty();
    let d = t.d().clone();
    let (&(a, b), &kind) = d
        .sides
        .iter()
        .find(|((a, b), k)| {
            k.is_river()
                && d.region(*a) == Region::Barbaria
                && d.region(*b).is_core()
                && b.distance_on(OFFSET, d.special.rome) > 2
        })
        .expect("a Barbaria/core river side");
    let river = format!("{kind:?}");
    t.put("t1", a);
    t.put_all(&["v1", "emp"], b);
    let emp = d.uid(t.u("emp")).to_string();
    let start = t.st.clone();
    // The tribe fights with 2 (a die of 1, plus one): 2 against 1 is 2:1,
    // two columns left: 1:2.
    let k = odds_step(2, 1) - 2;
    let roll = t.roll_for(k, Outcome::AS);
    let attack = format!("attack {a} on {b}");
    let rolls = [("german-cf-t1", 6, 1), ("combat", 6, roll)];
    let s = text(&t.ok(GP, &attack, &rolls));
    let want = format!(
        "2 against 1: 2:1, -1 the emperor {emp} with the defenders (8.4, 13.9), -1 a German attack across the {river} (13.8) = 1:2, roll {roll}: AS (13.2, 14.6)"
    );
    assert!(s.contains(&want), "{s}\nwanted: {want}");
    // Version 14 replays as it was told then.
    t.st = start;
    let mut t = t.at_version(14);
    let s = text(&t.ok(GP, &attack, &rolls));
    assert!(s.contains("2 against 1: 2:1 shifted -2 to 1:2"), "{s}");
}

// 14.3: the attacker's Flanking Move and the defender's reaction chit are
// told by name and number among the shifts; a battle with none says so.
#[test]
fn chit_shifts_are_told_by_name_and_no_shift_is_said() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    t.put_all(&["v1", "v2"], p[0]);
    t.put("g1", p[1]);
    t.st.actor = Player::Roman;
    let start = t.st.clone();
    let k = odds_step(2, 1);
    let roll = t.roll_for(k, Outcome::AS);
    let attack = format!("attack {} on {}", p[0], p[1]);
    let s = text(&t.ok(ROMAN, &attack, &[("combat", 6, roll)]));
    assert!(
        s.contains(&format!("2 against 1: 2:1, no column shift, roll {roll}")),
        "{s}"
    );
    t.st = start;
    t.give(Player::Roman, 1);
    t.give(Player::Gp, 4);
    t.standing(GP, &["shift 1"]);
    let s = text(&t.ok(ROMAN, &format!("{attack} with 1"), &[("combat", 6, roll)]));
    assert!(
        s.contains(
            "2 against 1: 2:1, +1 Flanking Move, chit 1 (14.3), -1 Inspired Subordinates, the defender's chit 4 (14.3) = 2:1"
        ),
        "{s}"
    );
}

// Version 15: a land move tells its path, drop-offs and pick-ups, and what
// it cost (12.4: one movement point a hex; 8.2: drop-offs).
#[test]
fn a_move_tells_its_path_drop_offs_and_cost() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    t.put_all(&["v1", "v2"], p[0]);
    t.st.actor = Player::Roman;
    let start = t.st.clone();
    let order = format!("move {} to {} drop v2 {} {}", p[0], p[1], p[2], p[3]);
    let s = text(&t.ok(ROMAN, &order, &[]));
    let want = format!(
        "v1 moves {} to {}: by {}, {} (drops v2), {}, {}; 3 MP spent, one a hex (12.4): v1 has {} left",
        p[0],
        d.hex_name(p[3]),
        p[0],
        p[1],
        p[2],
        p[3],
        d.values.mf_infantry - 3
    );
    assert!(s.contains(&want), "{s}\nwanted: {want}");
    t.st = start;
    let mut t = t.at_version(14);
    let s = text(&t.ok(ROMAN, &order, &[]));
    assert!(
        s.contains(&format!("v1 moves {} to {}", p[0], d.hex_name(p[3]))) && !s.contains(": by"),
        "{s}"
    );
}

// Each side's mail lists only the standing orders it can give: salt,
// sponsoring, placements and the deficit are the Roman's (8.8, 14.3, 14.4,
// 6.10), the revolt hex the Germano-Parthian's (14.3). From version 15 the
// Germano-Parthian's Roman-only order is refused, not kept unused.
#[test]
fn each_side_sees_and_gives_only_its_own_standing_orders() {
    let mut t = game();
    let key = |l: &String| l.split_whitespace().next().unwrap_or("").to_string();
    let gp: Vec<String> = t.r.standing(&t.st, GP).iter().map(key).collect();
    for k in ["sponsor", "salt", "resalt", "prefer", "agents", "deficit"] {
        assert!(!gp.contains(&k.to_string()), "{k} in {gp:?}");
    }
    assert!(gp.contains(&"revolt".to_string()), "{gp:?}");
    let roman: Vec<String> = t.r.standing(&t.st, ROMAN).iter().map(key).collect();
    assert!(!roman.contains(&"revolt".to_string()), "{roman:?}");
    assert!(roman.contains(&"salt".to_string()), "{roman:?}");
    for (order, rule) in [
        ("salt treachery 1", "8.8"),
        ("sponsor 3", "N5"),
        ("agents no", "N4"),
        ("prefer 3318", "N8"),
    ] {
        let e =
            t.r.set_standing(&mut t.st, GP, &lines(&[order]))
                .unwrap_err();
        assert!(e.to_string().contains(rule), "{order}: {e}");
        assert!(
            e.to_string().contains("only") || e.to_string().contains("Roman's"),
            "{e}"
        );
    }
    let old = t.r.as_version(14).unwrap();
    old.set_standing(&mut t.st, GP, &lines(&["salt treachery 1"]))
        .unwrap();
}

// 7.1, 7.2: the administrative prompt counts the dead pile in words, and
// names only what there is to place.
#[test]
fn the_administrative_prompt_counts_in_words() {
    let mut t = game();
    t.st.stage = Stage::AdminGp;
    t.st.actor = Player::Gp;
    let tribe = t.u("t1");
    t.st.unit_mut(tribe).loc = Loc::Dead;
    let ask = t.r.prompt(&t.st).awaiting[0].ask.clone();
    assert!(ask.contains("place 1 tribe from the dead pile"), "{ask}");
    assert!(!ask.contains("gund"), "{ask}");
    assert!(ask.contains("`place tribes HEX...`"), "{ask}");
}

// 8.19: a won battle's free draw is told once ("draws" once), with the
// hand's count; version 14 said "draws" twice.
#[test]
fn a_free_draw_is_told_once() {
    let mut t = empty();
    let d = t.d().clone();
    let p = path(&d, h("3016"), 3);
    t.put_all(&["v1", "v2", "v3", "emp"], p[0]);
    t.put("g1", p[1]);
    t.st.pool = vec![umpire_ldf::state::Item::Chit(4)];
    t.st.actor = Player::Roman;
    let k = odds_step(3, 1) + 1;
    let roll = t.roll_for(k, Outcome::DE);
    let attack = format!("attack {} on {} advance all", p[0], p[1]);
    let s = text(&t.ok(ROMAN, &attack, &[("combat", 6, roll)]));
    assert!(s.contains("(8.19)"), "{s}");
    assert_eq!(s.matches("draws").count(), 1, "{s}");
}

// 10.9: a refusal is free for its sender, so it must not tell him what the
// other hand holds or what the other player's standing orders say. Every
// probe of the Germano-Parthian (each chit played, thrown back, or used on
// a roll or in an attack) gets the same answer in positions that differ
// only in the Roman's hand and standing orders (twins of the position).
#[test]
fn no_refusal_depends_on_what_the_sender_may_not_see() {
    use umpire_core::ruleset::Viewer;
    let mut t = game();
    t.st.actor = Player::Gp;
    for c in [1, 6, 17, 2] {
        t.give(Player::Roman, c);
    }
    t.give(Player::Gp, 4);
    t.standing(
        ROMAN,
        &["salt treachery 2", "agents yes", "tsnp 1", "shift 1"],
    );
    let tribe = t.u("t1");
    let from = t.st.hex_of(tribe).unwrap();
    let d = t.d().clone();
    let target = d.links(from).next().unwrap();
    let mut probes = vec!["draw".to_string(), "treachery".to_string()];
    for c in 1..=24u8 {
        probes.push(format!("play {c}"));
        probes.push(format!("draw return {c}"));
        probes.push(format!("treachery with {c}"));
        probes.push(format!("attack {from} on {target} with {c}"));
    }
    probes.retain(|o| {
        let l = SourceLine {
            line: 1,
            column: 1,
            text: o.clone(),
        };
        orders::parse_line(&d, &l, true).is_ok()
    });
    assert!(probes.len() > 50, "{probes:?}");
    let answers = |t: &mut T| -> Vec<String> {
        probes
            .iter()
            .map(|o| match t.run(GP, o, &[]) {
                Ok(_) => "accepted".to_string(),
                Err(e) => e.to_string(),
            })
            .collect()
    };
    let base = t.st.clone();
    let mine = answers(&mut t);
    let mut differed = 0;
    for seed in 0..8 {
        let twin = t.r.twin(&base, Viewer::Side(GP), seed).unwrap();
        differed += usize::from(twin.hands != base.hands);
        t.st = twin;
        assert_eq!(answers(&mut t), mine, "seed {seed}");
    }
    assert!(differed > 0, "no twin changed the Roman's hand");
}
