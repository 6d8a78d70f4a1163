//! Asia Crossroads: every example passage of the rulebook
//! (`asia-crossroads.txt`, the "for example" and "Example." passages, 29 of
//! them), one test each, named `lNNNN_` for the rulebook line it
//! reproduces, citing the rule, with the example's own numbers wherever the
//! data let them stand. Where the printed values are missing and stand-ins
//! stand in (the tables, the counters' values), the test says which value is
//! the rulebook's and which a stand-in. What could not be reproduced, and
//! why, is listed in docs/games/ac.md, "Rule by rule".
//!
//! Most tests stand on the hand-built fixture (`crates/game-ac/tests/fixtures/ac/`); those
//! whose example names places or pieces the fixture lacks (Baluchistan,
//! Persia, Delhi's neighbours, scenario 3) stand on the game's own data.

use crate::kit as ac_harness;
use ac_harness::*;

/// A combat of the British against what stands on `s`, one die `die`;
/// returns the events.
fn british_attack(t: &mut T, s: Sq, die: u32) -> Vec<String> {
    t.run(
        BRITISH,
        "end",
        &[(&format!("combat at {s} (14.1(5))"), die)],
    )
    .unwrap()
}

// ---- 2.0 Components ----

// 2.11, L72: "North India controls all 'NI' units": whoever controls the
// region has its units and its agents (5.21, 16.7); the British move them,
// and lose them with the region.
#[test]
fn l0072_north_india_controls_all_ni_units() {
    let mut t = fixture("s1", 1, &[]);
    let ni = t.control("NI", Some(Power::British));
    let irr = t.put(Nat::Native(ni), Kind::Irregular, 1, Loc::Sq(sq("0607")))[0];
    let khan = t.agent("khan-ni", Loc::Sq(sq("0607")));
    assert_eq!(t.st.owner(Nat::Native(ni)), Some(Power::British));
    assert_eq!(t.st.agent_owner(t.d(), khan), Some(Power::British));
    let id = t.id(irr);
    let mut lost = T {
        r: t.r.clone(),
        st: t.st.clone(),
    };
    t.run(BRITISH, &format!("move {id} khan-ni: 0606"), &[])
        .unwrap();
    lost.control("NI", Some(Power::Russian));
    lost.refused(BRITISH, &format!("move {id}: 0606"), "5.31(1), 11.2");
}

// 2.35, L148: "placing the British marker on the '5' space means the
// British have available five supply points". The umpire keeps the count
// (secret, ruling A48) and tells it where the player spends it.
#[test]
fn l0148_five_supply_points_are_five_supply_points() {
    let mut t = fixture("s1", 2, &[]);
    t.st.sp[0] = 5;
    let p = t.r.prompt(&t.st);
    assert!(p.awaiting[0].ask.contains("(5 SP; 12.0)"), "{p:?}");
    let ff = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(sq("0607")))[0];
    let id = t.id(ff);
    t.run(BRITISH, &format!("move {id}: 0606"), &[]).unwrap();
    assert_eq!(
        t.st.sp[0], 4,
        "a move in the 2nd phase spends one (12.2(2))"
    );
}

// 2.6, L178: "a die roll modifier of '+1' added to a rolled result of '3'
// would give a final outcome of '4'"; "-1 would reduce the number rolled by
// one". On the Battle CRT (14.8): the attacker's agent of military 1 reads
// row 4 on a 3; the defender's, row 2.
#[test]
fn l0178_plus_one_makes_a_three_a_four_and_minus_one_a_two() {
    for (side, row) in [(Power::British, 4usize), (Power::Russian, 2)] {
        let mut t = fixture("s1", 1, &[]);
        let ws = t.control("WS", Some(Power::Russian));
        let s = sq("0606");
        t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s));
        t.put(Nat::Native(ws), Kind::Irregular, 1, Loc::Sq(s));
        // Pottinger and Ivanov have military 1 (stand-ins).
        let agent = if side == Power::British {
            "pottinger"
        } else {
            "ivanov"
        };
        t.agent(agent, Loc::Sq(s));
        let ev = british_attack(&mut t, s, 3);
        let d = t.d();
        let cell = d.battle[row][combat::odds_column(4, 2)];
        let want = format!(
            "die 3{} gives {:?}{}",
            if row == 4 { "+1" } else { "-1" },
            cell.code,
            if cell.leaders { "*" } else { "" }
        );
        assert!(ev.iter().any(|e| e.contains(&want)), "{want}: {ev:?}");
    }
}

// ---- 5.0 Control ----

// 5.22, L269: "a player who controls the Baluchistan region may recruit and
// conduct operations with all Baluchi units": the British recruit Baluchi
// irregulars in Baluchistan (10.33(1)) and move them with other Baluchi
// units; without the region they may do neither (5.31(1)).
#[test]
fn l0269_the_controller_of_baluchistan_recruits_and_moves_baluchi_units() {
    let mut t = empty(1);
    t.st.treasury = [100, 100];
    let quetta = t.city("Quetta");
    let bl = t.d().region("BL").unwrap();
    let old = t.put(Nat::Native(bl), Kind::Irregular, 1, Loc::Sq(quetta))[0];
    let recruit = economy::EconOrder::Recruit {
        nat: Nat::Native(bl),
        kind: Kind::Irregular,
        at: umpire_ac::data::At::Sq(quetta),
        count: 1,
    };
    let e = t.econ(Power::British, recruit.clone()).unwrap_err();
    assert!(e.contains("5.22"), "{e}");
    t.control("BL", Some(Power::British));
    let got = t.econ(Power::British, recruit).unwrap();
    let new =
        t.st.find_unit(got.trim_start_matches("recruited "))
            .unwrap();
    let to = Sq::new(quetta.col, quetta.row + 1);
    t.run(
        BRITISH,
        &format!("move {} {}: {to}", t.id(old), t.id(new)),
        &[],
    )
    .unwrap();
    assert_eq!(t.st.unit(new).loc, Loc::Sq(to));
}

// 5.41 note, L291: a British force may move through Kabul while
// Afghanistan is neutral without triggering belligerency; stopping there it
// may negotiate first (15.0 comes before the belligerency check): won, it
// controls Afghanistan at the check; failed, belligerency is triggered and
// Afghanistan joins the Russians (5.4(3)).
#[test]
fn l0291_a_force_passes_kabul_freely_and_stopping_there_negotiates_first() {
    // Through Kabul and its neutral Afghans, on to West Siberia: no invasion.
    let mut t = fixture("s1", 1, &[("levy", "invasion")]);
    let af = t.d().region("AF").unwrap();
    t.put(
        Nat::Native(af),
        Kind::Irregular,
        2,
        Loc::Sq(t.city("Kabul")),
    );
    let f = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(sq("0604")))[0];
    let id = t.id(f);
    t.run(BRITISH, &format!("move {id}: 0704 0703 0702"), &[])
        .unwrap();
    t.run(BRITISH, "end", &[]).unwrap();
    assert_eq!(t.st.control[af.0 as usize], None, "passing is no invasion");
    for (die, won) in [(6, true), (1, false)] {
        let mut t = fixture("s1", 1, &[("levy", "invasion")]);
        let f = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(sq("0604")))[0];
        t.agent("burnes", Loc::Sq(sq("0604")));
        let id = t.id(f);
        t.run(BRITISH, &format!("move {id} burnes: 0704"), &[])
            .unwrap();
        t.run(
            BRITISH,
            "negotiate AF agent burnes",
            &[("negotiations against AF (15.1(8))", die)],
        )
        .unwrap();
        let levy: &[(&str, u32)] = if won {
            &[]
        } else {
            &[("invasion defence levy, AF (5.42(3))", 1)]
        };
        let ev = t.run(BRITISH, "end", levy).unwrap();
        let want = if won { Power::British } else { Power::Russian };
        assert_eq!(t.st.control[t.region("AF")], Some(want), "{ev:?}");
    }
}

// 5.6, L323: "the Russians control Afghanistan and have a force containing
// one Russian (blue) and two Afghan units. The British gain control of
// Afghanistan; so the two Afghan units in that Russian force are
// eliminated"; Afghans elsewhere change sides.
#[test]
fn l0323_two_afghans_in_a_russian_force_die_when_afghanistan_defects() {
    let mut t = fixture("s1", 1, &[]);
    let af = t.control("AF", Some(Power::Russian));
    let kandahar = t.city("Kandahar");
    t.put(Nat::Russian, Kind::FieldForce, 1, Loc::Sq(kandahar));
    let two = t.put(Nat::Native(af), Kind::Irregular, 2, Loc::Sq(kandahar));
    let alone = t.put(
        Nat::Native(af),
        Kind::Irregular,
        1,
        Loc::Sq(t.city("Ghazni")),
    )[0];
    t.agent("burnes", Loc::Sq(t.city("Kabul")));
    t.run(
        BRITISH,
        "negotiate AF agent burnes",
        &[("negotiations against AF (15.1(8))", 6)],
    )
    .unwrap();
    assert_eq!(t.st.control[af.0 as usize], Some(Power::British));
    assert!(two.iter().all(|u| t.st.unit(*u).loc == Loc::Pool));
    assert_eq!(t.st.unit(alone).loc, Loc::Sq(t.city("Ghazni")));
    assert_eq!(t.st.owner(Nat::Native(af)), Some(Power::British));
}

// ---- 6.0 Occupation ----

// 6.0, L329: abandoning a square loses its benefits ("he could not collect
// income from it"); he may reoccupy it later. Kabul pays 2 (stand-in) while
// a British combat unit stands there (9.1(2)).
#[test]
fn l0329_an_abandoned_city_pays_nothing_until_reoccupied() {
    let mut t = fixture("s1", 1, &[]);
    let af = t.d().region("AF").unwrap();
    let f = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(t.city("Kabul")))[0];
    let income = |t: &T| economy::region_city_income(t.d(), &t.st, Power::British, af);
    assert_eq!(income(&t), 2);
    let id = t.id(f);
    t.run(BRITISH, &format!("move {id}: 0705"), &[]).unwrap();
    assert_eq!(income(&t), 0);
    umpire_ac::turn::open_phase(&mut t.st, 2, Power::British);
    t.st.sp[0] = 1;
    t.run(BRITISH, &format!("move {id}: 0704"), &[]).unwrap();
    assert_eq!(income(&t), 2);
}

// 6.1, L333: occupation is not control: a player may occupy the cities of a
// region and not control it; and "the British player may gain control of the
// Afghanistan region owing to negotiations, but if all cities in it were
// occupied by the Russians, the British could not collect income in those
// locations". (Control is set by hand: with Russians in Kabul, 15.5 bars the
// talks, so they are taken to have come first.)
#[test]
fn l0333_occupying_is_not_controlling_and_controlling_is_not_occupying() {
    let mut t = fixture("s1", 1, &[]);
    let af = t.d().region("AF").unwrap();
    for c in ["Kabul", "Kandahar", "Ghazni"] {
        t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(t.city(c)));
    }
    assert_eq!(
        t.st.control[af.0 as usize], None,
        "occupied, not controlled"
    );
    assert_eq!(
        economy::region_city_income(t.d(), &t.st, Power::Russian, af),
        4,
        "the occupier collects (9.1(2), errata: occupied, not controlled)"
    );
    t.control("AF", Some(Power::British));
    assert_eq!(
        economy::region_city_income(t.d(), &t.st, Power::British, af),
        0
    );
    assert_eq!(
        economy::region_city_income(t.d(), &t.st, Power::Russian, af),
        4
    );
}

// ---- 8.0 Random events ----

// 8.1, L352: "on turn three the British player rolls a '5' on the first
// die roll. That's modified to become a '6' owing to the balance of power
// situation. That indicates the player rolls once on the 'D' column and then
// once on the 'C' column. The British player rolls a '4' on the 'D' column,
// Nihilist Revolt ... then a '1' on the 'C' column, Anglo-Russian Accord".
// The +1 for an index favouring the roller, the columns' bounds and both
// events' effects are stand-ins; D4 and C1 are the rulebook's.
#[test]
fn l0352_turn_three_british_five_plus_one_reads_d4_then_c1() {
    let mut t = empty(1);
    let d = t.d();
    assert_eq!(events::roller(3), Power::British, "odd turns: the British");
    assert_eq!(events::columns(d, 6), vec![3, 2], "6: D, then C");
    assert_eq!(d.events[d.event_columns[3][3]].name, "Nihilist Revolt");
    assert_eq!(d.events[d.event_columns[2][0]].name, "Anglo-Russian Accord");
    t.st.bop = 2;
    let ev = events_with(
        &mut t,
        3,
        &[
            ("random events, column roll by the British (8.1(1))", 5),
            ("random events, column D (8.1(2))", 4),
            ("Nihilist Revolt for the Russian", 2),
            ("random events, column C (8.1(2))", 1),
        ],
    );
    for name in ["Nihilist Revolt", "Anglo-Russian Accord"] {
        assert!(ev.iter().any(|e| e.contains(name)), "{name}: {ev:?}");
    }
}

// 8.2, L354: "Some events apply to both players (for example, Famine)":
// rolled by the British, it costs the Russians too (its size, a die of SP
// each, is a stand-in).
#[test]
fn l0354_famine_applies_to_both_players() {
    let mut t = empty(1);
    t.st.bop = 1;
    t.st.sp = [6, 6];
    let ev = events_with(
        &mut t,
        3,
        &[
            ("random events, column roll by the British (8.1(1))", 1),
            ("random events, column A (8.1(2))", 6),
            ("Famine for the British", 2),
            ("Famine for the Russian", 3),
        ],
    );
    assert_eq!(t.st.sp, [4, 3], "{ev:?}");
}

// ---- 9.0 Income ----

// 9.3 addition, L376: "If a Random Event calls for losing more pounds than
// currently in the treasury (for ex: Batta) then the Treasury is reduced to
// '0'": Batta (stand-in B5) for 5 against 2 pounds leaves 0.
#[test]
fn l0376_batta_takes_the_treasury_to_zero_and_no_lower() {
    let mut t = empty(1);
    t.st.bop = 1;
    t.st.treasury[0] = 2;
    let ev = events_with(
        &mut t,
        2,
        &[
            ("random events, column roll by the Russian (8.1(1))", 3),
            ("random events, column B (8.1(2))", 5),
            ("Batta for the British", 5),
        ],
    );
    assert!(ev.iter().any(|e| e.contains("Batta")), "{ev:?}");
    assert_eq!(t.st.treasury[0], 0);
}

// ---- 10.0 Recruits ----

// 10.33, L397: "the British control the Afghanistan region and occupy the
// city of Kabul. They may recruit a native Afghan field force by placing it
// in Kabul"; not where no friendly combat unit stands (10.33(2)), nor once
// Afghanistan is not theirs (5.22).
#[test]
fn l0397_the_controller_of_afghanistan_recruits_a_field_force_in_kabul() {
    let mut t = fixture("s1", 1, &[]);
    t.st.treasury = [100, 100];
    let af = t.control("AF", Some(Power::British));
    let (kabul, kandahar) = (t.city("Kabul"), t.city("Kandahar"));
    t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(kabul));
    let recruit = |t: &mut T, sq: Sq| {
        t.econ(
            Power::British,
            economy::EconOrder::Recruit {
                nat: Nat::Native(af),
                kind: Kind::FieldForce,
                at: umpire_ac::data::At::Sq(sq),
                count: 1,
            },
        )
    };
    let e = recruit(&mut t, kandahar).unwrap_err();
    assert!(e.contains("10.33"), "{e}");
    recruit(&mut t, kabul).unwrap();
    let afghans =
        t.st.units
            .iter()
            .filter(|u| u.nat == Nat::Native(af) && u.kind == Kind::FieldForce)
            .filter(|u| u.loc == Loc::Sq(kabul))
            .count();
    assert_eq!(afghans, 1);
    t.control("AF", None);
    let e = recruit(&mut t, kabul).unwrap_err();
    assert!(e.contains("5.22"), "{e}");
}

// ---- 11.0 Forces ----

// 11.2, L427: "British (red) units could be part of the same force with
// Baluchi and Persian units if Baluchistan and Persia were British
// controlled"; with Persia neutral its units take no orders (5.31(1)).
#[test]
fn l0427_red_baluchi_and_persian_units_make_one_british_force() {
    let mut t = empty(1);
    let quetta = t.city("Quetta");
    let (bl, pe) = (t.d().region("BL").unwrap(), t.d().region("PE").unwrap());
    let mut f = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(quetta));
    f.extend(t.put(Nat::Native(bl), Kind::Irregular, 1, Loc::Sq(quetta)));
    f.extend(t.put(Nat::Native(pe), Kind::Irregular, 1, Loc::Sq(quetta)));
    let ids: Vec<String> = f.iter().map(|u| t.id(*u)).collect();
    let to = Sq::new(quetta.col, quetta.row + 1);
    let order = format!("move {}: {to}", ids.join(" "));
    t.control("BL", Some(Power::British));
    t.control("PE", None);
    t.refused(BRITISH, &order, "5.31(1), 11.2");
    t.control("PE", Some(Power::British));
    t.run(BRITISH, &order, &[]).unwrap();
    assert!(f.iter().all(|u| t.st.unit(*u).loc == Loc::Sq(to)));
}

// 11.3, L431: "a force with a flying column (movement of 6) and a field
// force (movement of 4) would have a movement of 4, even if the field force
// were to be dropped off in the first square entered".
#[test]
fn l0431_a_flying_column_with_a_field_force_moves_four_even_after_the_drop() {
    let mut t = fixture("s1", 1, &[]);
    let s = sq("0107");
    let ff = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s))[0];
    let fc = t.put(Nat::British, Kind::FlyingColumn, 1, Loc::Sq(s))[0];
    let a = movement::allowance(t.d(), &t.st, &[Piece::Unit(ff), Piece::Unit(fc)]);
    assert_eq!(a.half_mp, 8, "4 MP");
    let (f, c) = (t.id(ff), t.id(fc));
    t.refused(
        BRITISH,
        &format!("move {f} {c}: 0207 drop:{f} 0307 0407 0507 0607"),
        "13.1, 11.3",
    );
    t.run(
        BRITISH,
        &format!("move {f} {c}: 0207 drop:{f} 0307 0407 0507"),
        &[],
    )
    .unwrap();
    assert_eq!(t.st.unit(ff).loc, Loc::Sq(sq("0207")));
    assert_eq!(t.st.unit(fc).loc, Loc::Sq(sq("0507")));
    // The flying column alone has its own 6.
    let a = movement::allowance(t.d(), &t.st, &[Piece::Unit(fc)]);
    assert_eq!(a.half_mp, 12);
}

// ---- 12.0 Operations ----

// 12.3, L450: "A force consisting of an agent and three brigades moves ...
// in the 1st operations phase. That requires no supply expenditure ... in
// the 2nd operations phase. He expends one supply point ... In the 3rd
// operations phase the force does nothing, but in the 4th ... expends
// another supply point and the force moves again."
#[test]
fn l0450_the_operations_example_pays_in_the_second_and_fourth_phases() {
    let mut t = fixture("s1", 1, &[]);
    let start = sq("0108");
    let mut ids: Vec<String> = t
        .put(Nat::British, Kind::FieldForce, 3, Loc::Sq(start))
        .iter()
        .map(|u| t.id(*u))
        .collect();
    t.agent("keane", Loc::Sq(start));
    ids.push("keane".into());
    let force = ids.join(" ");
    t.st.sp[0] = 2;
    let mut at = start;
    let mut go = |t: &mut T, k: u8| {
        umpire_ac::turn::open_phase(&mut t.st, k, Power::British);
        let to = Sq::new(at.col + 1, at.row);
        t.run(BRITISH, &format!("move {force}: {to}"), &[]).unwrap();
        at = to;
    };
    go(&mut t, 1);
    assert_eq!(t.st.sp[0], 2, "the 1st operations phase is free (12.2(1))");
    go(&mut t, 2);
    assert_eq!(t.st.sp[0], 1, "one SP in the 2nd (12.2(2))");
    go(&mut t, 4);
    assert_eq!(t.st.sp[0], 0, "one more in the 4th");
}

// ---- 14.0 Combat ----

// 14.6, L550: "1) a force consists of 5 factors of 'B' and 3 of 'R'; the
// force could only use the Battle CRT; 2) a force consists of 3 factors of
// 'B' and 3 of 'C'; the force could use either". The factors: a red field
// force 4 B and a garrison 1 B (stand-ins), a Baluchi irregular group 3 R
// (the errata's 3-r-6); three red garrisons 3 B, a flying column 3 C.
#[test]
fn l0550_five_b_and_three_r_battle_only_three_b_and_three_c_either() {
    let mut t = empty(1);
    let s = t.city("Quetta");
    let bl = t.control("BL", Some(Power::British));
    let mut a = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s));
    a.extend(t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(s)));
    a.extend(t.put(Nat::Native(bl), Kind::Irregular, 1, Loc::Sq(s)));
    let factors: u32 = a.iter().map(|u| t.st.strength(t.d(), *u)).sum();
    assert_eq!(factors, 8);
    assert_eq!(combat::crts_allowed(t.d(), &t.st, &a), (true, false));
    let mut b = t.put(Nat::British, Kind::Garrison, 3, Loc::Pool);
    b.extend(t.put(Nat::British, Kind::FlyingColumn, 1, Loc::Pool));
    assert_eq!(combat::crts_allowed(t.d(), &t.st, &b), (true, true));
}

/// The British attack with `attack` units and defend against Russian-held
/// Afghans on 0606 (clear, no city: x1), die 3; returns the events.
fn odds_case(attack: &[(&str, Kind, usize)], defend: &[(Kind, usize)]) -> Vec<String> {
    let mut t = fixture("s1", 1, &[]);
    let af = t.control("AF", Some(Power::Russian));
    let s = sq("0606");
    for (n, k, c) in attack {
        let n = t.d().parse_nat(n).unwrap();
        t.put(n, *k, *c, Loc::Sq(s));
    }
    for (k, c) in defend {
        t.put(Nat::Native(af), *k, *c, Loc::Sq(s));
    }
    assert_eq!(combat::multiplier(t.d(), &t.st, s, Power::Russian), 1);
    british_attack(&mut t, s, 3)
}

// 14.71(4a), L561: "if the attacker has 14 combat strength points and the
// defender has 5, the combat odds would be 14 divided by 5, which equals
// 2.8:1. Drop the .8 and you get a final odds of 2:1": three red field
// forces and North Indian irregulars (14) against an Afghan field force and
// irregulars (5).
#[test]
fn l0561_fourteen_against_five_is_two_to_one() {
    assert_eq!(combat::COLUMNS[combat::odds_column(14, 5)], "2:1");
    let ev = odds_case(
        &[("british", Kind::FieldForce, 3), ("NI", Kind::Irregular, 1)],
        &[(Kind::FieldForce, 1), (Kind::Irregular, 1)],
    );
    assert!(
        ev.iter().any(|e| e.contains("14 against 5 (x1): 2:1")),
        "{ev:?}"
    );
}

// 14.71(4b), L565: "if the defender has 10 combat strength points and the
// attacker 6, the combat odds would be 1:1.67 which be rounded to 1:2".
#[test]
fn l0565_six_against_ten_is_one_to_two() {
    assert_eq!(combat::COLUMNS[combat::odds_column(6, 10)], "1:2");
    let ev = odds_case(
        &[("british", Kind::FieldForce, 1), ("NI", Kind::Irregular, 1)],
        &[(Kind::FieldForce, 2), (Kind::Irregular, 2)],
    );
    assert!(
        ev.iter().any(|e| e.contains("6 against 10 (x1): 1:2")),
        "{ev:?}"
    );
}

// 14.73, L571: "The 1.5:1 column is used when the attacker has at least 50
// percent more strength than the defender but less than twice as much. For
// example, if the attacker has 7 strength points and the defender 4."
#[test]
fn l0571_seven_against_four_is_one_and_a_half_to_one() {
    assert_eq!(combat::COLUMNS[combat::odds_column(7, 4)], "1.5:1");
    let ev = odds_case(
        &[
            ("british", Kind::FieldForce, 1),
            ("british", Kind::FlyingColumn, 1),
        ],
        &[(Kind::Irregular, 2)],
    );
    assert!(
        ev.iter().any(|e| e.contains("7 against 4 (x1): 1.5:1")),
        "{ev:?}"
    );
}

// 14.8, L579: "the attacker has an agent with a military value of '2;' the
// defender has an agent with a military value of '1.' The final die roll
// modifier is +1": Keane (2, 16.21's example) against Ivanov (1, a
// stand-in); one agent a side (Pottinger adds nothing).
#[test]
fn l0579_an_agent_of_two_against_one_of_one_modifies_plus_one() {
    let mut t = fixture("s1", 1, &[]);
    let ws = t.control("WS", Some(Power::Russian));
    let s = sq("0606");
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(s));
    t.agent("keane", Loc::Sq(s));
    t.agent("pottinger", Loc::Sq(s));
    t.put(Nat::Native(ws), Kind::Irregular, 3, Loc::Sq(s));
    t.agent("ivanov", Loc::Sq(s));
    let ev = british_attack(&mut t, s, 3);
    assert!(ev.iter().any(|e| e.contains("die 3+1 ")), "{ev:?}");
}

// ---- 16.0 Agents ----

// 16.21, L627: "British agent Keane (military value of '2') is stacked with
// a British infantry brigade (movement factor of '4'). That gives the
// British force a total movement of '6' points."
#[test]
fn l0627_keane_with_an_infantry_brigade_moves_six() {
    let mut t = fixture("s1", 1, &[]);
    let s = sq("0108");
    let ff = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s))[0];
    let keane = t.agent("keane", Loc::Sq(s));
    let a = movement::allowance(t.d(), &t.st, &[Piece::Unit(ff), Piece::Agent(keane)]);
    assert_eq!(a.half_mp, 12, "6 MP");
    let id = t.id(ff);
    let seven = "0208 0308 0408 0508 0608 0708 0808";
    t.refused(BRITISH, &format!("move {id} keane: {seven}"), "13.1, 11.3");
    t.run(
        BRITISH,
        &format!("move {id} keane: 0208 0308 0408 0508 0608 0708"),
        &[],
    )
    .unwrap();
}

// 16.62, L667: "Pottinger, who is a Period 1 agent, would remain in play in
// the 1860-64 turn": scenario 3 from scenario 1, turn 5 to turn 6; he may
// not be recruited anew there (16.61).
#[test]
fn l0667_pottinger_stays_in_play_in_1860() {
    let mut t = game("s3", &[("base", "s1")]);
    for u in &mut t.st.units {
        u.loc = Loc::Pool;
    }
    for a in &mut t.st.agents {
        a.loc = Loc::Pool;
    }
    t.st.markers.clear();
    t.st.turn = 5;
    assert_eq!((t.st.year(), t.st.period()), (1855, 1));
    t.st.first = Power::British;
    umpire_ac::turn::open_phase(&mut t.st, 5, Power::Russian);
    let herat = t.city("Herat");
    let pottinger = t.agent("pottinger", Loc::Sq(herat));
    t.agent("ranjit-singh", Loc::Dead);
    t.st.bop = 1;
    t.run(
        RUSSIAN,
        "end",
        &[
            ("random events, column roll by the Russian (8.1(1))", 1),
            ("random events, column A (8.1(2))", 1),
            ("home government income, British (9.1(1))", 1),
            ("home government income, Russian (9.1(1))", 1),
        ],
    )
    .unwrap();
    assert_eq!((t.st.year(), t.st.period()), (1860, 2), "{:?}", t.st.stage);
    assert_eq!(t.st.agent(pottinger).loc, Loc::Sq(herat));
    t.agent("pottinger", Loc::Pool);
    t.st.treasury[0] = 100;
    let at = umpire_ac::data::At::Base(Base::India);
    let e = t
        .econ(
            Power::British,
            economy::EconOrder::Agent {
                agent: pottinger,
                at,
            },
        )
        .unwrap_err();
    assert!(e.contains("16.61"), "{e}");
}

// ---- 17.0 Supply ----

// 17.6, L715: "the British player has one British (red), two North Indian
// and one Afghan unit in a clear square in Afghanistan (forage value = 3).
// The player would have to expend two SPs": one for the excess over the
// forage, one because there are non-Afghan units; with one SP the force is
// short one of them.
#[test]
fn l0715_four_units_on_a_clear_afghan_square_need_two_supply_points() {
    // With one SP the expedition is paid and one unit over the forage
    // starves; with none the three from outside Afghanistan do (17.4).
    for (sp, kept) in [(2, 4), (1, 3), (0, 1)] {
        let mut t = fixture("s1", 1, &[]);
        let s = sq("0604");
        assert_eq!(t.d().sq(s).unwrap().region, t.d().region("AF"));
        assert_eq!(supply::forage(t.d(), &t.st, s, Power::British), 3);
        let ni = t.d().region("NI").unwrap();
        let af = t.control("AF", Some(Power::British));
        let mut all = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s));
        all.extend(t.put(Nat::Native(ni), Kind::Irregular, 2, Loc::Sq(s)));
        all.extend(t.put(Nat::Native(af), Kind::Irregular, 1, Loc::Sq(s)));
        t.st.sp[0] = sp;
        provision(&mut t);
        let left = all
            .iter()
            .filter(|u| t.st.unit(**u).loc == Loc::Sq(s))
            .count();
        assert_eq!((left, t.st.sp[0]), (kept, 0), "with {sp} SP");
    }
}

// ---- 18.0 Reorganization ----

// 18.3, L738: "a British field force three-brigade division could be
// replaced with either three British field force brigades or one
// two-brigade division and one brigade" (18.2(1): two brigades make a
// two-brigade division); not with other types (18.3).
#[test]
fn l0738_a_three_brigade_division_is_three_brigades_or_two_and_one() {
    for k in 0..4 {
        let (mut t, u) = reorganizing();
        let before = t.st.units.clone();
        let order = match ["3", "2+1", "1+1+1"].get(k) {
            Some(into) => format!("{} {} {} into {into}", u[0], u[1], u[2]),
            None => format!("{} {} into 2", u[0], u[1]),
        };
        let ev = t.run(BRITISH, &format!("reorganize {order}"), &[]).unwrap();
        assert_eq!(t.st.units, before, "{ev:?}");
    }
    let (mut t, u) = reorganizing();
    t.refused(
        BRITISH,
        &format!("reorganize {} {} {} into 3", u[0], u[1], u[3]),
        "18.3",
    );
}

// ---- 19.0 Home bases ----

// 19.1, L751: "a British force in Agra moving into the Central India home
// base would move using the trade route rate": half a point (13.51) plus
// 19.13's one; off a route, the square's full cost plus one.
#[test]
fn l0751_from_agra_into_central_india_at_the_trade_route_rate() {
    let mut t = fixture("s1", 1, &[]);
    let agra = t.city("Agra");
    let d = t.d();
    assert_eq!(d.base_routes.get(&agra), Some(&Base::India));
    let a = movement::Allowance {
        half_mp: 100,
        diagonal: false,
        base: Some(Base::India),
    };
    let cost = |s: Sq| movement::step(d, Loc::Sq(s), Loc::Base(Base::India), &a).unwrap();
    assert_eq!(cost(agra), 3, "1/2 + 1 MP");
    assert_eq!(cost(sq("0508")), 4, "1 + 1 MP off the route");
    let f = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(agra))[0];
    let id = t.id(f);
    t.run(BRITISH, &format!("move {id}: india"), &[]).unwrap();
    assert_eq!(t.st.unit(f).loc, Loc::Base(Base::India));
}

// ---- 20.0 Civilization markers ----

// 20.21, L787: "a player could have one colony and one railroad in the same
// square (but not two colonies)".
#[test]
fn l0787_a_colony_and_a_railroad_share_a_square_but_two_colonies_do_not() {
    let mut t = fixture("s2", 1, &[]);
    t.st.treasury = [100, 100];
    let delhi = t.city("Delhi");
    t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(delhi));
    t.agent("cavagnari", Loc::Sq(delhi));
    let build = |t: &mut T, kind| {
        t.econ(
            Power::British,
            economy::EconOrder::Build { kind, sq: delhi },
        )
    };
    build(&mut t, MarkerKind::Colony).unwrap();
    build(&mut t, MarkerKind::Railroad).unwrap();
    let e = build(&mut t, MarkerKind::Colony).unwrap_err();
    assert!(e.contains("20.21"), "{e}");
    let mut kinds: Vec<MarkerKind> = t.st.markers_at(delhi).map(|m| m.kind).collect();
    kinds.sort_by_key(|k| format!("{k:?}"));
    assert_eq!(kinds, vec![MarkerKind::Colony, MarkerKind::Railroad]);
}

// ---- 24.0 Open war ----

// 24.3 clarification, L881: "a Russian controlled force of Persian combat
// units led by a Russian leader attacked a force containing British (red)
// combat units would not trigger Open War"; a blue unit in the same force
// would (24.0, 24.1: three dice of pounds, a die of index).
#[test]
fn l0881_persians_led_by_a_russian_agent_start_no_open_war() {
    for blue in [false, true] {
        let mut t = empty(1);
        t.russian_phase(1);
        let pe = t.control("PE", Some(Power::Russian));
        let s = t.open_square("PE");
        t.put(Nat::Native(pe), Kind::FieldForce, 2, Loc::Sq(s));
        if blue {
            t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(s));
        }
        t.agent("perovski", Loc::Sq(s));
        t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(s));
        let mut rolls = vec![];
        if blue {
            rolls.extend([
                ("open war: the defender's pounds (24.1(1))", 1),
                ("open war: the defender's pounds (24.1(1))", 1),
                ("open war: the defender's pounds (24.1(1))", 1),
                ("open war: Balance of Power shift (24.1(2))", 1),
            ]);
        }
        let label = format!("combat at {s} (14.1(5))");
        rolls.push((label.as_str(), 3));
        let ev = t.run(RUSSIAN, "end", &rolls).unwrap();
        let want = blue.then_some(Power::Russian);
        assert_eq!(t.st.open_war, want, "blue {blue}: {ev:?}");
    }
}

// ---- Optional rules ----

// 27.0, L1269: "A force of one Agent, two brigades and a caravan worth three
// supply points force marches. Double the movement factor of the brigades
// ... At the completion of the movement, eliminate one brigade and two
// supply points." No caravan exists in the game (ruling A27): the supply
// points are those the move spends, here three (the 2nd operations phase,
// 12.2(2), and an amphibious leg from a river square that is no port, 2,
// 13.81), so two are lost, half rounded up, and one brigade of two.
#[test]
fn l1269_an_agent_and_two_brigades_force_march_losing_a_brigade_and_two_sp() {
    let mut t = fixture("s1", 2, &[("forced_march", "on")]);
    let s = sq("0106");
    let u = t.put(Nat::British, Kind::FieldForce, 2, Loc::Sq(s));
    let conolly = t.agent("conolly", Loc::Sq(s));
    let ids = format!("{} {} conolly", t.id(u[0]), t.id(u[1]));
    let path = "sea:1006 1007 1008 0908 0808 0708 0707";
    t.st.sp[0] = 5;
    t.refused(BRITISH, &format!("move {ids}: {path}"), "13.1, 11.3");
    t.run(BRITISH, &format!("move {ids}: {path} forced"), &[])
        .unwrap();
    let left = u
        .iter()
        .filter(|x| t.st.unit(**x).loc == Loc::Sq(sq("0707")))
        .count();
    assert_eq!(left, 1, "one brigade of two eliminated");
    assert_eq!(t.st.sp[0], 0, "3 spent on the move, 2 lost");
    assert_eq!(
        t.st.agent(conolly).loc,
        Loc::Sq(sq("0707")),
        "27.2: the agent marches at his own factor"
    );
}

// 32.1, L1314: "the first die roll is '1', the second die roll is '3', the
// final result would be '13'". The example names 13 "Archeological Find";
// the table (32.6) gives 12 to the Archeological Find and 13-14 to the
// Bazaar, and the table is followed (ruling A65): 13 doubles the forage of
// the region's cities this turn. One attempt a city a game (32.4).
#[test]
fn l1314_a_one_and_a_three_read_thirteen() {
    let mut t = fixture("s1", 1, &[("discoveries", "on")]);
    let kabul = t.city("Kabul");
    t.agent("burnes", Loc::Sq(kabul));
    let tens = "discovery by Burnes, tens die (32.1)";
    let ones = "discovery by Burnes, ones die (32.1)";
    let before = supply::forage(t.d(), &t.st, kabul, Power::British);
    let out = t
        .run(BRITISH, "discover burnes", &[(tens, 1), (ones, 3)])
        .unwrap();
    assert!(out.iter().any(|l| l.contains("13, Bazaar")), "{out:?}");
    assert_eq!(
        supply::forage(t.d(), &t.st, kabul, Power::British),
        2 * before
    );
    let d = t.d();
    let twelve = d.num.discovery.iter().find(|r| r.roll == 12).unwrap();
    assert_eq!(twelve.name, "Archeological Find");
    t.refused(BRITISH, "discover burnes", "32.4");
}
