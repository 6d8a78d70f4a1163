//! Asia Crossroads: the rulebook's worked examples and unambiguous rules, on
//! the real data with pieces placed by hand and scripted dice. Each test cites
//! its rule. Tables that are stand-ins are tested for the shape the rules
//! demand, not for their values.

use crate::kit as ac_harness;
use ac_harness::*;

// 15.62: the Ultimatum Table, cell by cell as printed (the printed empty cell
// between the 7th and 8th values dropped, ruling A6).
#[test]
fn the_ultimatum_table_is_reproduced_cell_by_cell() {
    let printed = [
        ["E", "E", "E", "E", "E", "E", "E", "E"],
        ["R+X", "R+X", "R+X", "R+X", "R+X", "R+X", "R+X", "R+X"],
        ["R", "R", "R", "R", "R", "R", "R", "R"],
        ["-", "-", "-", "R", "R", "R", "T1+R", "T+R"],
        ["-", "-", "-", "-", "T1", "T", "T+R", "T+R"],
        ["-", "-", "T1", "T", "T", "T", "T", "T"],
        ["-", "T", "T", "T", "T", "T", "T", "T"],
        ["T", "T", "T", "T", "T", "T", "T", "T"],
    ];
    let d = Ac::new();
    let d = d.data();
    assert_eq!(d.ultimatum.len(), 8);
    for (row, cells) in printed.iter().enumerate() {
        for (col, want) in cells.iter().enumerate() {
            let got = umpire_ac::negotiate::describe(&d.ultimatum[row][col]);
            assert_eq!(got, *want, "die row {row}, column {col}");
        }
    }
    // 15.62 T1: on 1-3 the phasing player gains control.
    assert_eq!(d.num.ultimatum.t1_success, 3);
}

// 15.61(6), 15.62 headings: 0(-), 1-6, 7-12, 13-18, 19-24, 25-30, 31-36, 37+.
#[test]
fn ultimatum_columns_follow_the_differential() {
    let r = Ac::new();
    let b = &r.data().num.ultimatum.columns;
    for (diff, col) in [
        (-5, 0),
        (0, 0),
        (1, 1),
        (6, 1),
        (7, 2),
        (12, 2),
        (13, 3),
        (19, 4),
        (30, 5),
        (31, 6),
        (36, 6),
        (37, 7),
        (90, 7),
    ] {
        assert_eq!(negotiate::column(b, diff), col, "differential {diff}");
    }
}

/// Kabul for the ultimatum tests (15.6, option on): a red field force and
/// garrison with Burnes, two Afghan irregulars, and `agent`.
fn kabul_ultimatum(agent: &str) -> T {
    let mut t = empty_with(1, &[("ultimatums", "on")]);
    let kabul = t.city("Kabul");
    t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(kabul));
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(kabul));
    t.agent("burnes", Loc::Sq(kabul));
    let af = t.d().region("AF").unwrap();
    t.put(Nat::Native(af), Kind::Irregular, 2, Loc::Sq(kabul));
    t.agent(agent, Loc::Sq(kabul));
    t
}

// 15.61(1)-(7), 15.62 T1: strength in the capital times the agent's political
// value; no counter (neutral agents have no effect, errata); T1 then a roll.
#[test]
fn an_ultimatum_with_two_brigades_and_burnes_takes_afghanistan_on_t1() {
    let mut t = kabul_ultimatum("dost-mohammed");
    // (4 + 1) x 2 = 10 against 0: the 7-12 column; die 5 (no DRM at index 1 pro-British) gives T1.
    let ev = t
        .run(
            BRITISH,
            "ultimatum AF agent burnes",
            &[
                ("ultimatum against AF (15.1(8))", 5),
                ("ultimatum T1 (15.62)", 3),
                ("invasion defence levy, AF (5.42(3))", 2),
            ],
        )
        .unwrap();
    assert!(
        ev.iter()
            .any(|e| e.contains("differential 10") && e.contains(": T1 ")),
        "{ev:?}"
    );
    assert_eq!(t.st.control[t.region("AF")], Some(Power::British));
    // 15.3: one attempt per region per negotiations sub-phase.
    let again = t
        .run(BRITISH, "negotiate AF agent burnes", &[])
        .unwrap_err();
    assert!(again.contains("15.0") || again.contains("15.3"), "{again}");
}

// 15.6 is optional: without it an ultimatum is refused.
#[test]
fn ultimatums_need_the_optional_rule() {
    let mut t = empty(1);
    let kabul = t.city("Kabul");
    t.agent("burnes", Loc::Sq(kabul));
    let e = t
        .run(BRITISH, "ultimatum AF agent burnes", &[])
        .unwrap_err();
    assert!(e.contains("(15.6)"), "{e}");
}

// 15.1, 15.5, 15.4, 15.0.
#[test]
fn negotiations_need_an_agent_in_the_capital_and_no_enemy_combat_units() {
    let mut t = empty(1);
    let kabul = t.city("Kabul");
    let e = t
        .run(BRITISH, "negotiate AF agent burnes", &[])
        .unwrap_err();
    assert!(e.contains("capital") && e.contains("(15.0)"), "{e}");
    t.agent("burnes", Loc::Sq(kabul));
    t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(kabul));
    let e = t
        .run(BRITISH, "negotiate AF agent burnes", &[])
        .unwrap_err();
    assert!(e.contains("(15.5)"), "{e}");
    for u in &mut t.st.units {
        u.loc = Loc::Pool;
    }
    // Burnes has political value 2 (stand-in): at most 2 pounds (15.1(2)).
    let e = t
        .run(BRITISH, "negotiate AF agent burnes pounds 3", &[])
        .unwrap_err();
    assert!(e.contains("15.1(2)"), "{e}");
    let ev = t
        .run(
            BRITISH,
            "negotiate AF agent burnes pounds 2",
            &[
                ("negotiations against AF (15.1(8))", 6),
                ("invasion defence levy, AF (5.42(3))", 1),
            ],
        )
        .unwrap();
    assert!(ev.iter().any(|e| e.contains("differential 4")), "{ev:?}");
    assert_eq!(t.st.treasury[0], 18, "the pounds are spent (15.1(2))");
    // 12.1: no movement after negotiations have begun.
    t.put(Nat::British, Kind::FieldForce, 1, Loc::Base(Base::India));
    let id =
        t.st.units
            .iter()
            .find(|u| u.loc == Loc::Base(Base::India))
            .unwrap()
            .id;
    let e = t
        .run(BRITISH, &format!("move {id}: 3140"), &[])
        .unwrap_err();
    assert!(e.contains("(12.1)"), "{e}");
}

// 15.62 DRMs: the index moderately pro-phasing +1, target Sinkiang -1,
// controlling North India +1 against the Punjab.
#[test]
fn negotiation_die_roll_modifiers() {
    let mut t = empty(1);
    let d = t.r.data().clone();
    t.st.bop = 8;
    assert_eq!(
        negotiate::drm(&d, &t.st, Power::British, d.region("PJ").unwrap()),
        2
    );
    assert_eq!(
        negotiate::drm(&d, &t.st, Power::Russian, d.region("SK").unwrap()),
        -2
    );
    t.st.bop = 2;
    assert_eq!(
        negotiate::drm(&d, &t.st, Power::British, d.region("KV").unwrap()),
        0
    );
}

// 14.74: one multiplier, never more than x3; 20.32: a fort triples, but only its owner (20.4).
#[test]
fn the_defender_takes_one_multiplier_at_most_triple() {
    let mut t = empty(1);
    let delhi = t.city("Delhi");
    assert_eq!(combat::multiplier(t.d(), &t.st, delhi, Power::British), 2);
    t.st.markers.push(Marker {
        sq: delhi,
        owner: Power::British,
        kind: MarkerKind::Fort,
    });
    assert_eq!(combat::multiplier(t.d(), &t.st, delhi, Power::British), 3);
    assert_eq!(combat::multiplier(t.d(), &t.st, delhi, Power::Russian), 2);
}

// 14.72 (ruling A32): odds below 1:3 are fought at 1:3 and above 4:1 at
// 4:1; equal strengths are 1:1, and 4 against 5 rounds up to 1:2 (14.71(4b)).
// The rulebook's own three examples are in crates/game-ac/tests/ac/examples.rs.
#[test]
fn odds_are_clamped_to_one_to_three_and_four_to_one() {
    let col = |a, d| combat::COLUMNS[combat::odds_column(a, d)];
    assert_eq!(col(5, 5), "1:1");
    assert_eq!(col(4, 5), "1:2");
    assert_eq!(col(1, 10), "1:3");
    assert_eq!(col(20, 2), "4:1");
    assert_eq!(col(9, 3), "3:1");
}

// 32.0, 32.2: discoveries need the optional rule, and a native agent may
// not attempt one (only red or blue agents).
#[test]
fn discoveries_need_the_option_and_a_red_or_blue_agent() {
    let mut t = empty(1);
    let kabul = t.city("Kabul");
    t.agent("burnes", Loc::Sq(kabul));
    t.refused(BRITISH, "discover burnes", "32.0");
    let mut t = empty_with(1, &[("discoveries", "on")]);
    t.control("AF", Some(Power::British));
    t.agent("dost-mohammed", Loc::Sq(kabul));
    t.refused(BRITISH, "discover dost-mohammed", "32.2");
}

// 4.3, errata (no 0 space): shifts skip 0 and stop at 18.
#[test]
fn the_balance_of_power_skips_zero_and_stops_at_eighteen() {
    let t = empty(1);
    let d = t.d();
    assert_eq!(bop::shifted(d, 1, Power::Russian, 1), -1);
    assert_eq!(bop::shifted(d, 2, Power::Russian, 3), -2);
    assert_eq!(bop::shifted(d, 17, Power::British, 5), 18);
    assert_eq!(bop::shifted(d, -18, Power::Russian, 1), -18);
    assert_eq!(bop::favoured(-1), Power::Russian);
}

// 13.2: only highlighted units move diagonally; 13.21: at the same cost.
#[test]
fn only_agents_irregulars_and_ghazis_move_diagonally() {
    let mut t = empty(1);
    let s = sq("0404");
    let ff = t.put(Nat::Russian, Kind::FieldForce, 1, Loc::Sq(s))[0];
    t.st.first = Power::Russian;
    umpire_ac::turn::open_phase(&mut t.st, 1, Power::Russian);
    let id = t.st.unit(ff).id;
    let e = t
        .run(RUSSIAN, &format!("move {id}: 0505"), &[])
        .unwrap_err();
    assert!(e.contains("(13.2)"), "{e}");
    let irr = t.put(Nat::Russian, Kind::Irregular, 1, Loc::Sq(s))[0];
    let id = t.st.unit(irr).id;
    t.run(RUSSIAN, &format!("move {id}: 0505 0606"), &[])
        .unwrap();
    assert_eq!(t.st.unit(irr).loc, Loc::Sq(sq("0606")));
    // 12.0: once per operations phase.
    let e = t
        .run(RUSSIAN, &format!("move {id}: 0707"), &[])
        .unwrap_err();
    assert!(e.contains("(12.0)"), "{e}");
}

// 13.51: half a movement point a square directly along a trade route (the
// Orenburg line, clear); 13.1: full cost off it.
#[test]
fn trade_routes_halve_the_cost() {
    let mut t = empty(1);
    t.st.first = Power::Russian;
    umpire_ac::turn::open_phase(&mut t.st, 1, Power::Russian);
    let g = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(sq("0303")))[0];
    let a = t.st.unit(g).id;
    // A garrison moves 2 (stand-in): four squares along the route...
    t.run(RUSSIAN, &format!("move {a}: 0403 0503 0603 0602"), &[])
        .unwrap();
    assert_eq!(t.st.unit(g).loc, Loc::Sq(t.city("Orenburg")));
    // ...but only two off it.
    let h = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(sq("0808")))[0];
    let b = t.st.unit(h).id;
    let e = t
        .run(RUSSIAN, &format!("move {b}: 0809 0810 0811"), &[])
        .unwrap_err();
    assert!(e.contains("13.1"), "{e}");
    t.run(RUSSIAN, &format!("move {b}: 0809 0810"), &[])
        .unwrap();
}

// 13.71: never into all sea; 13.32: a force stops on entering enemy combat units.
#[test]
fn no_sea_squares_and_stop_at_the_enemy() {
    let mut t = empty(1);
    let s = t.city("Delhi");
    let ff = t.put(Nat::British, Kind::FlyingColumn, 1, Loc::Sq(s))[0];
    let id = t.st.unit(ff).id;
    let next = Sq::new(s.col, s.row + 1);
    t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(next));
    let e = t
        .run(
            BRITISH,
            &format!("move {id}: {next} {}", Sq::new(s.col, s.row + 2)),
            &[],
        )
        .unwrap_err();
    assert!(e.contains("13.32"), "{e}");
    let bushire = t.city("Bushire");
    let pe = t.put(Nat::British, Kind::FlyingColumn, 1, Loc::Sq(bushire))[0];
    let id = t.st.unit(pe).id;
    let sea = Sq::new(bushire.col, bushire.row + 2);
    assert!(!t.d().land(sea));
    let e = t
        .run(
            BRITISH,
            &format!("move {id}: {} {sea}", Sq::new(bushire.col, bushire.row + 1)),
            &[],
        )
        .unwrap_err();
    assert!(e.contains("13.71"), "{e}");
}

// 12.2(2): moving in the 2nd-5th operations phases costs one SP per force.
#[test]
fn later_operations_cost_a_supply_point_per_force() {
    let mut t = empty(2);
    let s = t.city("Delhi");
    let u = t.put(Nat::British, Kind::FieldForce, 2, Loc::Sq(s));
    let ids = format!("{} {}", t.st.unit(u[0]).id, t.st.unit(u[1]).id);
    let to = Sq::new(s.col, s.row + 1);
    let e = t
        .run(BRITISH, &format!("move {ids}: {to}"), &[])
        .unwrap_err();
    assert!(e.contains("12.2(2)"), "{e}");
    t.st.sp[0] = 3;
    t.run(BRITISH, &format!("move {ids}: {to}"), &[]).unwrap();
    assert_eq!(t.st.sp[0], 2, "one SP for the whole force");
}

// 19.11, 19.13, 19.21: British units enter Central India from the southern
// edge of North India at +1 MP; natives never.
#[test]
fn home_bases_take_their_own_regulars_only() {
    let mut t = empty(1);
    let edge = *t.d().base_edges[&Base::India].iter().next().unwrap();
    let b = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(edge))[0];
    let ni = t.d().region("NI").unwrap();
    let n = t.put(Nat::Native(ni), Kind::Irregular, 1, Loc::Sq(edge))[0];
    let nid = t.st.unit(n).id;
    let e = t
        .run(BRITISH, &format!("move {nid}: india"), &[])
        .unwrap_err();
    assert!(e.contains("19.21"), "{e}");
    let bid = t.st.unit(b).id;
    t.run(BRITISH, &format!("move {bid}: india"), &[]).unwrap();
    assert_eq!(t.st.unit(b).loc, Loc::Base(Base::India));
}

// 5.41(2), 5.42: British combat units left in a neutral city invade; the
// region joins the Russians, who get a die of its irregulars (and its Khan).
// 5.44: an agent alone does not.
#[test]
fn an_invasion_gives_the_region_to_the_other_player_with_its_levy() {
    let mut t = empty(1);
    let herat = t.city("Herat");
    t.agent("pottinger", Loc::Sq(herat));
    let khiva = t.city("Khiva");
    t.put(Nat::British, Kind::FlyingColumn, 1, Loc::Sq(khiva));
    let ev = t
        .run(
            BRITISH,
            "end",
            &[("invasion defence levy, KV (5.42(3))", 3)],
        )
        .unwrap();
    assert_eq!(t.st.control[t.region("KV")], Some(Power::Russian), "{ev:?}");
    assert_eq!(
        t.st.control[t.region("HE")],
        None,
        "5.44: agents do not violate neutrality"
    );
    let kv = t.d().region("KV").unwrap();
    let levied =
        t.st.units
            .iter()
            .filter(|u| u.nat == Nat::Native(kv) && u.loc.in_play())
            .count();
    assert!(levied >= 1, "{ev:?}");
    // The levy went to the capital only if it was free; the British brigade
    // stands in Khiva, so the levy is elsewhere and no combat followed there.
    assert!(ev.iter().any(|e| e.contains("5.42(3)")), "{ev:?}");
}

// 14.21, 24.1: the first attack of red on blue is open war: the defender
// rolls three dice of pounds, the index shifts a die toward the attacker.
#[test]
fn the_first_red_on_blue_attack_is_open_war() {
    let mut t = empty(1);
    let s = t.city("Herat");
    t.put(Nat::British, Kind::FieldForce, 3, Loc::Sq(s));
    t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(s));
    let he = t.region("HE");
    t.st.control[he] = Some(Power::British);
    let before = t.st.treasury[1];
    let ev = t
        .run(
            BRITISH,
            "end",
            &[
                ("open war: the defender's pounds (24.1(1))", 4),
                ("open war: the defender's pounds (24.1(1))", 5),
                ("open war: the defender's pounds (24.1(1))", 6),
                ("open war: Balance of Power shift (24.1(2))", 2),
                (&format!("combat at {s} (14.1(5))"), 6),
            ],
        )
        .unwrap();
    assert_eq!(t.st.open_war, Some(Power::British), "{ev:?}");
    assert_eq!(t.st.treasury[1], before + 15);
    assert_eq!(t.st.bop, 3);
    // 11.4: one side is gone or retreated.
    assert!(!(t.st.occupies(s, Power::British) && t.st.occupies(s, Power::Russian)));
    // 25.11: -15 victory points for starting it.
    let (_, parts) = victory::points(t.d(), &t.st, Power::British);
    assert!(parts.iter().any(|p| p.contains("-15")), "{parts:?}");
}

// 16.4(4), 16.41: an enemy agent alone with friendly combat units at the end
// of the combat phase escapes on a roll of his ratings or less, else is captured.
#[test]
fn agents_alone_with_enemy_combat_units_are_checked_for_capture() {
    let mut t = empty(1);
    let s = t.city("Meshed");
    t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s));
    let pe = t.region("PE");
    t.st.control[pe] = Some(Power::British);
    let sim = t.agent("simonich", Loc::Sq(s)); // political 2, military 0 (stand-in)
    let vit = t.agent("vitkovitch", Loc::Sq(s));
    let home = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(t.city("Orenburg")))[0];
    let ev = t
        .run(
            BRITISH,
            "end",
            &[
                ("capture check, Simonich (16.41)", 2),
                ("capture check, Vitkovitch (16.41)", 3),
            ],
        )
        .unwrap();
    assert_eq!(
        t.st.agent(sim).loc,
        t.st.unit(home).loc,
        "escaped to the nearest friendly stack: {ev:?}"
    );
    assert_eq!(
        t.st.agent(vit).loc,
        Loc::Prisoner(Power::British),
        "N14 default: held prisoner"
    );
}

// 17.1: the first 10 SP a turn cost a pound each, later ones two.
#[test]
fn supply_points_cost_one_pound_then_two() {
    let t = empty(1);
    assert_eq!(economy::sp_cost(t.d(), 0, 10), 10);
    assert_eq!(economy::sp_cost(t.d(), 0, 12), 14);
    assert_eq!(economy::sp_cost(t.d(), 9, 2), 3);
}

// 9.1(2)-(3), errata: occupied cities pay; a trading post doubles; an enemy-occupied city pays nothing.
#[test]
fn city_income_needs_occupation_and_markers_double_it() {
    let mut t = empty(1);
    let delhi = t.city("Delhi");
    let d = t.r.data().clone();
    let value = d.city(d.find_city("Delhi").unwrap()).income;
    assert_eq!(economy::city_income(&d, &t.st, Power::British), 0);
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(delhi));
    assert_eq!(economy::city_income(&d, &t.st, Power::British), value);
    t.st.markers.push(Marker {
        sq: delhi,
        owner: Power::British,
        kind: MarkerKind::TradingPost,
    });
    assert_eq!(economy::city_income(&d, &t.st, Power::British), 2 * value);
    for u in &mut t.st.units {
        u.loc = Loc::Pool;
    }
    assert_eq!(
        economy::city_income(&d, &t.st, Power::British),
        value,
        "unoccupied: the normal value"
    );
    t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(delhi));
    assert_eq!(economy::city_income(&d, &t.st, Power::British), 0);
}

// 3.1[3]: the economy is simultaneous and secret: each side's orders are
// checked alone, hidden from the other, and carried out when both are in.
#[test]
fn the_economy_phase_is_sealed_until_both_are_in() {
    let mut t = game("s1", &[]);
    t.run(
        BRITISH,
        "initiative first",
        &[
            ("Ranjit Singh (S1 7.2)", 4),
            ("home government income, British (9.1(1))", 3),
            ("home government income, Russian (9.1(1))", 3),
        ],
    )
    .unwrap();
    assert_eq!(t.st.stage, Stage::Economy);
    let pounds = t.st.treasury[1];
    let e = t
        .run(
            RUSSIAN,
            &format!("buy 3\nrecruit field_force at urals\nbuy {pounds}"),
            &[],
        )
        .unwrap_err();
    assert!(e.contains("(9.3)"), "the plan so far counts: {e}");
    // A mail is the whole plan: `done` is implied at its end.
    t.run(RUSSIAN, "buy 3\nrecruit field_force at urals", &[])
        .unwrap();
    assert!(t.st.sealed[1]);
    assert_eq!(
        t.st.treasury[1], pounds,
        "nothing is spent before both are in"
    );
    let view = t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(BRITISH));
    assert!(
        !view
            .status
            .iter()
            .any(|l| l.contains("Russian sealed") || l.contains("Russian:")),
        "{:?}",
        view.status
    );
    let e = t.run(RUSSIAN, "done", &[]).unwrap_err();
    assert!(e.contains("(3.1[3])"), "{e}");
    t.run(BRITISH, "done", &[]).unwrap();
    assert_eq!(t.st.treasury[1], pounds - 3 - 4);
    assert_eq!(t.st.sp[1], 3);
    assert!(matches!(&t.st.stage, Stage::Ops(ph) if ph.k == 1 && ph.side == Power::British));
}

// 10.31, 10.61, 10.62: red recruits to Central India or a colony; one red or
// blue recruit a colony square; no more than the counter mix.
#[test]
fn recruits_go_where_the_rules_say() {
    let mut t = game("s1", &[]);
    t.run(
        BRITISH,
        "initiative first",
        &[
            ("Ranjit Singh (S1 7.2)", 4),
            ("home government income, British (9.1(1))", 6),
            ("home government income, Russian (9.1(1))", 1),
        ],
    )
    .unwrap();
    let e = t
        .run(BRITISH, "recruit field_force at Kabul", &[])
        .unwrap_err();
    assert!(e.contains("10.31"), "{e}");
    let e = t
        .run(BRITISH, "recruit AF irregular at Kabul", &[])
        .unwrap_err();
    assert!(e.contains("5.22"), "{e}");
    let agra = t.city("Agra");
    t.run(
        BRITISH,
        &format!("recruit NI irregular at Delhi\nrecruit NI garrison at {agra}"),
        &[],
    )
    .unwrap();
}

// 8.1 example, 8.2: on turn 3 the British roll 5, +1 for the index; D4 and C1.
#[test]
fn random_events_apply_both_columns() {
    let mut t = empty(1);
    t.st.bop = 2;
    let before = t.st.treasury[1];
    events_with(
        &mut t,
        3,
        &[
            ("random events, column roll by the British (8.1(1))", 5),
            ("random events, column D (8.1(2))", 4),
            ("Nihilist Revolt for the Russian", 2),
            ("random events, column C (8.1(2))", 1),
        ],
    );
    assert_eq!(t.st.treasury[1], before - 2);
    assert_eq!(
        t.st.bop, 1,
        "the accord (stand-in) moves the index toward the centre"
    );
    assert!(
        t.st.events_this_turn
            .contains(&"nihilist_revolt".to_string())
    );
}

// S1 7.2: at the start of each turn Ranjit Singh dies on a 1-3.
#[test]
fn ranjit_singh_dies_on_one_to_three() {
    let mut t = game("s1", &[]);
    t.run(
        BRITISH,
        "initiative first",
        &[
            ("Ranjit Singh (S1 7.2)", 3),
            ("home government income, British (9.1(1))", 1),
            ("home government income, Russian (9.1(1))", 1),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let i = t.d().find_agent("ranjit-singh").unwrap();
    assert_eq!(t.st.agents[i].loc, Loc::Dead);
}

// 25.52: the levels of victory; 25.11: the treasury divided by 10, rounded up.
#[test]
fn victory_levels_and_points() {
    let mut t = empty(1);
    let d = t.r.data().clone();
    assert_eq!(victory::level(&d, 19), "Draw");
    assert_eq!(victory::level(&d, 20), "Regional Victory");
    assert_eq!(victory::level(&d, 59), "Regional Victory");
    assert_eq!(victory::level(&d, 60), "Continental Victory");
    assert_eq!(victory::level(&d, 100), "Imperial Victory");
    t.st.treasury = [21, 0];
    t.st.control = vec![None; d.regions.len()];
    let (b, parts) = victory::points(&d, &t.st, Power::British);
    assert!(parts.contains(&"treasury 3".to_string()), "{parts:?}");
    assert_eq!(b, 3 + 5, "plus 5 for the index mildly pro-British");
    // 25.12: a red combat unit in Orenburg is worth 10 more.
    let o = t.city("Orenburg");
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(o));
    let (b2, _) = victory::points(&d, &t.st, Power::British);
    let value = d.city(d.find_city("Orenburg").unwrap()).income as i32;
    assert_eq!(b2, b + 10 + value);
}

// 22.1, 22.2: each side sees its own units, others only where it has a unit
// or controls the region; markers always; treasuries its own.
#[test]
fn the_fog_of_war_hides_what_22_1_hides() {
    let t = game("s1", &[]);
    let r =
        t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(RUSSIAN))
            .status;
    let b =
        t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(BRITISH))
            .status;
    let delhi = t.city("Delhi");
    let line = |v: &[String], s: Sq| {
        v.iter()
            .find(|l| l.starts_with(&s.to_string()))
            .cloned()
            .unwrap_or_default()
    };
    assert!(line(&b, delhi).contains("keane"), "{:?}", line(&b, delhi));
    assert!(
        !line(&r, delhi).contains("keane") && line(&r, delhi).contains("a stack (British)"),
        "{:?}",
        line(&r, delhi)
    );
    assert!(
        r.iter()
            .any(|l| l.starts_with("Russian:") && l.contains("pounds"))
    );
    assert!(
        !r.iter().any(|l| l.starts_with("British:")),
        "the British treasury is secret (9.0)"
    );
    assert!(
        r.iter()
            .any(|l| l.starts_with("Markers:") && l.contains("British trading_post")),
        "22.2"
    );
    // Persia is Russian-controlled: the Russians see all in it (22.1(4)).
    let teheran = t.city("Teheran");
    assert!(line(&r, teheran).contains("simonich"));
    // A neutral stack seen from afar shows its region only (ruling A57).
    let kabul = t.city("Kabul");
    assert!(
        line(&r, kabul).contains("a stack") && !line(&r, kabul).contains("afi"),
        "{:?}",
        line(&r, kabul)
    );
}

// The data: 2.81 errata capitals, Persia's six cities (S1 3.5(2)), every value tagged.
#[test]
fn the_data_meets_the_rulebook() {
    let r = Ac::new();
    let d = r.data();
    let cap = |code: &str| d.city(d.reg(d.region(code).unwrap()).capital).name.clone();
    assert_eq!(cap("KV"), "Khiva");
    assert_eq!(cap("PA"), "Chitral");
    assert_eq!(d.reg(d.region("PE").unwrap()).cities.len(), 6);
    assert_eq!(d.regions.len(), 19);
    let dost = &d.agents[d.find_agent("dost-mohammed").unwrap()];
    assert_eq!((dost.political, dost.military), (2, 2), "errata 2.82");
    assert_eq!(
        d.stats(Nat::Native(d.region("BL").unwrap()), Kind::Irregular)
            .strength,
        3,
        "errata 2.82: BL 3-r-6"
    );
    let mut files = BTreeMap::new();
    files.insert(
        "tables.toml".to_string(),
        umpire_ac::data::TABLES_TOML.replace("[fort]\ndefence = 3\nsrc = \"rulebook 20.32(2): units defending in a fort are tripled\"", "[fort]\ndefence = 3"),
    );
    let e = Ac::with_data(&files)
        .err()
        .expect("an untagged value is refused");
    assert!(
        e.iter()
            .any(|x| x.contains("tables.fort.defence has no provenance")),
        "{e:?}"
    );
}

// 13.61-13.62, 13.64: a railroad move to any square linked by friendly
// railroads across square sides costs one movement point; it stops at enemy
// combat units.
#[test]
fn rail_movement_costs_one_point_along_friendly_railroads() {
    let mut t = empty(1);
    t.st.first_year = 1860;
    t.st.first = Power::Russian;
    umpire_ac::turn::open_phase(&mut t.st, 1, Power::Russian);
    for s in ["0403", "0503", "0603", "0703"] {
        t.st.markers.push(Marker {
            sq: sq(s),
            owner: Power::Russian,
            kind: MarkerKind::Railroad,
        });
    }
    let g = t.put(Nat::Russian, Kind::Garrison, 2, Loc::Sq(sq("0403")));
    let (a, b) = (t.st.unit(g[0]).id, t.st.unit(g[1]).id);
    // A garrison (2 MP): rail to 0703 for 1, then one clear square off the line.
    t.run(RUSSIAN, &format!("move {a}: rail:0703 0704"), &[])
        .unwrap();
    assert_eq!(t.st.unit(g[0]).loc, Loc::Sq(sq("0704")));
    let e = t
        .run(RUSSIAN, &format!("move {b}: rail:0704"), &[])
        .unwrap_err();
    assert!(e.contains("13.61"), "{e}");
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(sq("0503")));
    let e = t
        .run(RUSSIAN, &format!("move {b}: rail:0703"), &[])
        .unwrap_err();
    assert!(e.contains("13.61"), "enemy units block the line: {e}");
    t.run(RUSSIAN, &format!("move {b}: rail:0503"), &[])
        .unwrap();
}

// 20.5, 20.51: at the end of his combat phase a player may eliminate enemy
// markers where his combat units stand alone; a colony shifts the index two
// toward its owner.
#[test]
fn a_massacre_destroys_enemy_markers_and_shifts_the_index() {
    let mut t = empty(1);
    let o = t.city("Orenburg");
    t.st.markers.push(Marker {
        sq: o,
        owner: Power::Russian,
        kind: MarkerKind::Colony,
    });
    t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(o));
    t.run(BRITISH, &format!("massacre {o}\nend"), &[]).unwrap();
    assert!(t.st.markers.is_empty());
    assert_eq!(
        t.st.bop, -2,
        "from 1 pro-British, two toward Russia, skipping 0"
    );
}

// 16.42(2): executing a prisoner shifts the index one toward his side.
#[test]
fn executing_a_prisoner_shifts_the_index() {
    let mut t = empty(1);
    let v = t.agent("vitkovitch", Loc::Prisoner(Power::British));
    t.st.stage = Stage::Economy;
    t.st.bop = 3;
    t.run(BRITISH, "execute vitkovitch", &[]).unwrap();
    assert_eq!(t.st.agent(v).loc, Loc::Dead);
    assert_eq!(t.st.bop, 2);
    let e = t.run(BRITISH, "execute vitkovitch", &[]).unwrap_err();
    assert!(e.contains("16.42"), "{e}");
}

// 13.81, 13.84: an amphibious move along coasts and seas costs one movement
// point and one SP from a port (two elsewhere), in every phase.
#[test]
fn an_amphibious_move_crosses_the_caspian_for_a_supply_point() {
    let mut t = empty(1);
    t.st.first = Power::Russian;
    umpire_ac::turn::open_phase(&mut t.st, 1, Power::Russian);
    let (kr, gu) = (t.city("Krasnovodsk"), t.city("Gur'ev"));
    let g = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(kr))[0];
    let id = t.st.unit(g).id;
    let e = t
        .run(RUSSIAN, &format!("move {id}: sea:{gu}"), &[])
        .unwrap_err();
    assert!(e.contains("13.81"), "{e}");
    t.st.sp[1] = 1;
    t.run(RUSSIAN, &format!("move {id}: sea:{gu}"), &[])
        .unwrap();
    assert_eq!(t.st.unit(g).loc, Loc::Sq(gu));
    assert_eq!(t.st.sp[1], 0);
}

// 23.1: players may trade pounds and change the control of regions they control.
#[test]
fn agreements_give_pounds_and_cede_regions() {
    let mut t = game("s1", &[]);
    t.run(
        BRITISH,
        "initiative first",
        &[
            ("Ranjit Singh (S1 7.2)", 4),
            ("home government income, British (9.1(1))", 3),
            ("home government income, Russian (9.1(1))", 3),
        ],
    )
    .unwrap();
    let (b, r) = (t.st.treasury[0], t.st.treasury[1]);
    t.run(BRITISH, "give 5\ncede NP to neutral\ndone", &[])
        .unwrap();
    let e = t.run(RUSSIAN, "cede NI to russian", &[]).unwrap_err();
    assert!(e.contains("23.1(2)"), "{e}");
    t.run(RUSSIAN, "done", &[]).unwrap();
    assert_eq!((t.st.treasury[0], t.st.treasury[1]), (b - 5, r + 5));
    assert_eq!(t.st.control[t.region("NP")], None);
}

// 22.1, 22.2 on the map: the square board shows terrain and control to all,
// a foreign stack one may not examine as `stack`, and fits 72 columns.
#[test]
fn the_square_map_shows_each_side_what_it_may_see() {
    use umpire_core::board::Place;
    let t = game("s1", &[]);
    let delhi = t.city("Delhi");
    let russian =
        t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(RUSSIAN))
            .board
            .unwrap();
    let sb = russian.as_square().unwrap();
    assert_eq!(sb.cells.len(), 1600);
    assert!(
        sb.cells[&delhi].units.iter().all(|u| u.id == "stack"),
        "{:?}",
        sb.cells[&delhi].units
    );
    assert_eq!(sb.cells[&delhi].control, Some('B'));
    assert!(!sb.edges.is_empty(), "region borders (2.13)");
    let british =
        t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(BRITISH))
            .board
            .unwrap();
    assert!(
        british.as_square().unwrap().cells[&delhi]
            .units
            .iter()
            .any(|u| u.id == "keane")
    );
    let opts = umpire_testkit::render::map::Options {
        width: 72,
        ..Default::default()
    };
    let text = umpire_testkit::render::map::snippet(&russian, &[Place::Square(delhi)], &opts);
    assert!(text.lines().all(|l| l.chars().count() <= 72), "{text}");
    assert!(!text.contains("keane"), "{text}");
}

// 28.0 (optional Telegraph): a force moving along railroads picks up units on
// the railroad squares it enters, if they have not moved this sub-phase.
#[test]
fn the_telegraph_picks_up_unmoved_units_on_railroad_squares() {
    for on in [false, true] {
        let mut t = empty_with(1, &[("telegraph", if on { "on" } else { "off" })]);
        t.st.first_year = 1860;
        t.st.first = Power::Russian;
        umpire_ac::turn::open_phase(&mut t.st, 1, Power::Russian);
        for s in ["0403", "0503", "0603", "0703"] {
            t.st.markers.push(Marker {
                sq: sq(s),
                owner: Power::Russian,
                kind: MarkerKind::Railroad,
            });
        }
        let a = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(sq("0403")))[0];
        let b = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(sq("0603")))[0];
        let c = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(sq("0704")))[0];
        let id = |t: &T, u| t.st.unit(u).id;
        let (ia, ib, ic) = (id(&t, a), id(&t, b), id(&t, c));
        let order = format!("move {ia}: rail:0603 pick:{ib} 0604");
        if !on {
            let e = t.run(RUSSIAN, &order, &[]).unwrap_err();
            assert!(e.contains("(28.0)"), "an option: {e}");
            continue;
        }
        // 28.0: the square left by foot off the line is not a railroad square.
        let e = t
            .run(
                RUSSIAN,
                &format!("move {ia}: rail:0703 0704 pick:{ic}"),
                &[],
            )
            .unwrap_err();
        assert!(e.contains("(28.0)"), "{e}");
        t.run(RUSSIAN, &order, &[]).unwrap();
        assert_eq!(t.st.unit(a).loc, Loc::Sq(sq("0604")));
        assert_eq!(
            t.st.unit(b).loc,
            Loc::Sq(sq("0604")),
            "picked up and carried"
        );
        assert!(t.st.unit(b).moved);
        // A unit that has moved is not picked up again.
        let e = t
            .run(RUSSIAN, &format!("move {ic}: 0703 pick:{ib}"), &[])
            .unwrap_err();
        assert!(e.contains("(28.0)"), "{e}");
    }
}

// 30.1, 30.21(1), 31.31-31.34 (optional Massacre): after movement, enemy
// markers go, a city yields a pound of loot, the square forages nothing for the
// rest of the turn and the index shifts two toward the enemy.
#[test]
fn the_optional_massacre_loots_strips_forage_and_shifts_the_index_two() {
    let mut t = empty_with(1, &[("massacre", "on")]);
    let o = t.city("Orenburg");
    t.st.markers.push(Marker {
        sq: o,
        owner: Power::Russian,
        kind: MarkerKind::Colony,
    });
    let bf = t.put(Nat::British, Kind::FieldForce, 2, Loc::Sq(o));
    let pounds = t.st.treasury[0];
    let forage = supply::forage(t.d(), &t.st, o, Power::British);
    assert!(forage > 0);
    t.run(BRITISH, &format!("massacre {o}"), &[]).unwrap();
    assert!(t.st.markers.is_empty(), "31.31");
    assert_eq!(t.st.treasury[0], pounds + 1, "31.32: loot");
    assert_eq!(supply::forage(t.d(), &t.st, o, Power::British), 0, "31.33");
    assert_eq!(t.st.bop, -2, "31.34: from 1, two toward Russia, skipping 0");
    let e = t.run(BRITISH, &format!("massacre {o}"), &[]).unwrap_err();
    assert!(e.contains("31.33"), "once a turn: {e}");
    let id = t.st.unit(bf[1]).id;
    let e = t
        .run(BRITISH, &format!("move {id}: india"), &[])
        .unwrap_err();
    assert!(
        e.contains("12.1"),
        "30.0: massacre comes after all movement: {e}"
    );
    // 30.21(1): not where enemy combat units stand.
    let mut t = empty_with(1, &[("massacre", "on")]);
    t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(o));
    t.put(Nat::Russian, Kind::FieldForce, 1, Loc::Sq(o));
    let e = t.run(BRITISH, &format!("massacre {o}"), &[]).unwrap_err();
    assert!(e.contains("30.21(1)"), "{e}");
}

// 32.6: the printed table ends at 22; the rest are stand-ins, tagged so.
#[test]
fn the_discovery_table_has_every_d66_result_and_marks_the_missing_ones() {
    let t = empty(1);
    let rows = &t.d().num.discovery;
    assert_eq!(rows.len(), 36);
    let printed: Vec<u32> = rows
        .iter()
        .filter(|r| r.roll <= 22)
        .map(|r| r.roll)
        .collect();
    assert_eq!(printed, vec![11, 12, 13, 14, 15, 16, 21, 22]);
    let once: Vec<u32> = rows.iter().filter(|r| r.once).map(|r| r.roll).collect();
    assert_eq!(once, vec![11, 21, 22], "32.6: once per game");
}

/// 3.0 (the move file) with 13.1, 15.1, 16.42 and 20.1: a move's every bad
/// line is reported at once, each with its line, the column of the word at
/// fault and the rule its order is written under; a mistyped id gets the
/// nearest real one.
#[test]
fn every_bad_order_of_a_move_is_reported_at_once_with_a_suggestion() {
    let mut t = empty(1);
    let kabul = t.city("Kabul");
    t.agent("burnes", Loc::Sq(kabul));
    let text =
        "move burnse: 3136\nnegotiate AX agent burnes\nend\nmassacer 2226\nbuild fort at Kabull";
    let lines: Vec<SourceLine> = text
        .lines()
        .enumerate()
        .map(|(i, t)| SourceLine {
            line: i + 1,
            column: 3,
            text: t.to_string(),
        })
        .collect();
    let e = t.r.parse_all(&t.st, BRITISH, &lines).unwrap_err();
    let at: Vec<(usize, usize)> = e.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(at, [(1, 8), (2, 13), (4, 3), (5, 17)], "{e:?}");
    let m: Vec<String> = e.iter().map(|e| e.to_string()).collect();
    assert!(
        m[0].contains("did you mean burnes?") && m[0].ends_with("(13.1)"),
        "{m:?}"
    );
    assert!(
        m[1].contains("no region \"AX\"; did you mean ") && m[1].ends_with("(15.1)"),
        "{m:?}"
    );
    assert!(m[2].contains("did you mean massacre?"), "{m:?}");
    assert!(
        m[3].contains("did you mean kabul?") && m[3].ends_with("(20.1)"),
        "{m:?}"
    );
    // The first error alone is what `parse` reports.
    let one = t.r.parse(&t.st, BRITISH, &lines).unwrap_err();
    assert_eq!(one, e[0]);
    // Good lines read as before.
    assert!(t.r.parse_all(&t.st, BRITISH, &lines[2..3]).is_ok());
}

// 19.11, 19.13, 13.81: British units leave Central India by the Persian Gulf
// with amphibious movement, 1 MP for the sea leg and 1 more for the base
// (a garrison's 2 MP), 1 SP (a home base counts as a port: ruling); 19.21:
// only British (red) units come back in that way, and 19.23 not in the same phase.
#[test]
fn amphibious_moves_leave_and_enter_central_india_by_the_persian_gulf() {
    let mut t = empty(1);
    let bushire = t.city("Bushire");
    let g = t.put(Nat::British, Kind::Garrison, 2, Loc::Base(Base::India));
    let (a, b) = (t.st.unit(g[0]).id, t.st.unit(g[1]).id);
    t.st.sp[0] = 0;
    let e = t
        .run(BRITISH, &format!("move {a}: sea:{bushire}"), &[])
        .unwrap_err();
    assert!(e.contains("13.81"), "{e}");
    t.st.sp[0] = 1;
    t.run(BRITISH, &format!("move {a}: sea:{bushire}"), &[])
        .unwrap();
    assert_eq!(t.st.unit(g[0]).loc, Loc::Sq(bushire));
    assert_eq!(t.st.sp[0], 0);
    // Kabul is far from any water: no chain to the Gulf.
    let kabul = t.city("Kabul");
    t.st.sp[0] = 2;
    let e = t
        .run(BRITISH, &format!("move {b}: sea:{kabul}"), &[])
        .unwrap_err();
    assert!(e.contains("13.8"), "{e}");
    let e = t
        .run(BRITISH, &format!("move {b}: sea:{bushire} sea:india"), &[])
        .unwrap_err();
    assert!(e.contains("19.23"), "{e}");
    // 19.22: no British unit enters the Urals, even from the Caspian shore.
    let kr = t.city("Krasnovodsk");
    t.st.unit_mut(g[1]).loc = Loc::Sq(kr);
    let e = t
        .run(BRITISH, &format!("move {b}: sea:urals"), &[])
        .unwrap_err();
    assert!(e.contains("19.21, 19.22"), "{e}");
}

// 19.12: Russian units enter the Urals by the Caspian Sea, 1 SP from a port.
#[test]
fn a_russian_force_sails_home_to_the_urals_across_the_caspian() {
    let mut t = empty(1);
    t.st.first = Power::Russian;
    umpire_ac::turn::open_phase(&mut t.st, 1, Power::Russian);
    let kr = t.city("Krasnovodsk");
    let g = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(kr))[0];
    let id = t.st.unit(g).id;
    t.st.sp[1] = 1;
    t.run(RUSSIAN, &format!("move {id}: sea:urals"), &[])
        .unwrap();
    assert_eq!(t.st.unit(g).loc, Loc::Base(Base::Urals));
    assert_eq!(t.st.sp[1], 0);
}

// 19.14, 19.13: from the 1860-64 turn units enter and leave a home base by
// rail where a friendly railroad marker is on its map edge (1 MP for the
// rail leg, 1 for the base); before 1860 there are no off-map railroads.
#[test]
fn railroads_run_into_the_urals_from_1860() {
    let mut t = empty(1);
    t.st.first = Power::Russian;
    umpire_ac::turn::open_phase(&mut t.st, 1, Power::Russian);
    for s in ["0501", "0502", "0503"] {
        t.st.markers.push(Marker {
            sq: sq(s),
            owner: Power::Russian,
            kind: MarkerKind::Railroad,
        });
    }
    let g = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Base(Base::Urals))[0];
    let h = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(sq("0503")))[0];
    let (a, b) = (t.st.unit(g).id, t.st.unit(h).id);
    let e = t
        .run(RUSSIAN, &format!("move {a}: rail:0503"), &[])
        .unwrap_err();
    assert!(e.contains("19.14"), "{e}");
    t.st.first_year = 1860;
    t.run(RUSSIAN, &format!("move {a}: rail:0503"), &[])
        .unwrap();
    assert_eq!(t.st.unit(g).loc, Loc::Sq(sq("0503")));
    t.run(RUSSIAN, &format!("move {b}: rail:urals"), &[])
        .unwrap();
    assert_eq!(t.st.unit(h).loc, Loc::Base(Base::Urals));
    // 0704 holds no railroad: no line to the edge.
    let c = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(sq("0704")))[0];
    let cid = t.st.unit(c).id;
    let e = t
        .run(RUSSIAN, &format!("move {cid}: rail:urals"), &[])
        .unwrap_err();
    assert!(e.contains("19.14"), "{e}");
}

// 16.44: a captured native agent whose region later becomes the captor's may
// be placed on any square holding one of his units, in any phase; a prisoner
// of another kind is returned only at the beginning of a turn (16.42(1)).
#[test]
fn a_captured_native_agent_joins_his_captor_once_his_region_does() {
    let mut t = empty(1);
    let dost = t.agent("dost-mohammed", Loc::Prisoner(Power::British));
    t.agent("vitkovitch", Loc::Prisoner(Power::British));
    let kabul = t.city("Kabul");
    let af = t.region("AF");
    t.st.control[af] = Some(Power::Russian);
    let e = t
        .run(BRITISH, &format!("release dost-mohammed at {kabul}"), &[])
        .unwrap_err();
    assert!(e.contains("16.42(1)"), "not yet his region: {e}");
    let e = t
        .run(BRITISH, &format!("release vitkovitch at {kabul}"), &[])
        .unwrap_err();
    assert!(e.contains("16.42(1)"), "{e}");
    t.st.control[af] = Some(Power::British);
    let e = t
        .run(BRITISH, &format!("release dost-mohammed at {kabul}"), &[])
        .unwrap_err();
    assert!(e.contains("16.44"), "no British unit in Kabul: {e}");
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(kabul));
    t.run(BRITISH, &format!("release dost-mohammed at {kabul}"), &[])
        .unwrap();
    assert_eq!(t.st.agent(dost).loc, Loc::Sq(kabul));
    assert_eq!(t.st.agent_owner(t.d(), dost), Some(Power::British));
}

// 16.42(1), 16.44: in the economy round the orders offered for a prisoner are
// ones the umpire accepts: a native whose region is the captor's now is
// offered onto a square holding the captor's units, not the capital square
// any other prisoner returns to (self-play found the capital offered).
#[test]
fn the_release_offered_for_a_prisoner_is_one_the_rules_accept() {
    let mut t = empty(1);
    t.agent("dost-mohammed", Loc::Prisoner(Power::British));
    t.agent("vitkovitch", Loc::Prisoner(Power::British));
    let af = t.region("AF");
    t.st.control[af] = Some(Power::British);
    let kandahar = t.city("Kandahar");
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(kandahar));
    t.st.stage = Stage::Economy;
    let legal = t.r.legal_moves(&t.st, BRITISH);
    let releases: Vec<&String> = legal.iter().filter(|o| o.starts_with("release ")).collect();
    assert!(
        releases
            .iter()
            .any(|o| o.starts_with(&format!("release dost-mohammed at {kandahar}"))),
        "{releases:?}"
    );
    assert!(
        releases
            .iter()
            .any(|o| o.starts_with("release vitkovitch at ")),
        "{releases:?}"
    );
    let prisoners = legal
        .iter()
        .filter(|o| o.starts_with("release ") || o.starts_with("execute "));
    for o in prisoners {
        let mut trial = empty(1);
        trial.st = t.st.clone();
        trial
            .run(BRITISH, o, &[])
            .unwrap_or_else(|e| panic!("{o:?} refused: {e}"));
    }
}

// 5.51 (through 23.1(2)): a region that returns to neutral keeps its units
// inside its borders in place (1); those outside go back to a city of their
// region with no British, Russian or other regions' units (2).
#[test]
fn a_region_reverting_to_neutral_calls_its_units_home() {
    let mut t = empty(1);
    let af = t.control("AF", Some(Power::British));
    let (kabul, peshawar, kandahar) = (t.city("Kabul"), t.city("Peshawar"), t.city("Kandahar"));
    let home = t.put(Nat::Native(af), Kind::Irregular, 1, Loc::Sq(kabul))[0];
    let away = t.put(Nat::Native(af), Kind::Irregular, 1, Loc::Sq(peshawar))[0];
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(kandahar));
    t.cede_to_neutral(af);
    assert_eq!(t.st.unit(home).loc, Loc::Sq(kabul));
    let Loc::Sq(back) = t.st.unit(away).loc else {
        panic!("{:?}", t.st.unit(away).loc)
    };
    assert_eq!(t.d().sq(back).and_then(|i| i.region), Some(af));
    assert!(
        t.st.units_at(Loc::Sq(back))
            .all(|u| t.st.unit(u).nat == Nat::Native(af)),
        "{back} holds foreign units"
    );
    assert_ne!(back, kandahar);
}

// 23.0, 23.1: an agreement both players sign: the British propose pounds for
// a cession in their phase; nothing changes until the Russians accept in a
// later move of their own; then both terms are carried out. An offer one
// cannot meet is refused at proposal (23.1(2)) or at acceptance (pounds).
#[test]
fn a_two_sided_agreement_is_proposed_then_accepted_in_a_later_move() {
    let mut t = empty(1);
    let (np, pe) = (t.region("NP"), t.region("PE"));
    t.st.control[np] = Some(Power::Russian);
    t.st.control[pe] = None;
    t.st.treasury = [10, 4];
    let e = t
        .run(BRITISH, "propose give 5, want cede PE to british", &[])
        .unwrap_err();
    assert!(
        e.contains("23.1(2)"),
        "the Russians do not hold Persia: {e}"
    );
    let ev = t
        .run(BRITISH, "propose give 5, want cede NP to neutral", &[])
        .unwrap();
    assert!(ev.iter().any(|e| e.contains("agreement 1")), "{ev:?}");
    assert_eq!(t.st.treasury, [10, 4]);
    let e = t.run(BRITISH, "accept 1", &[]).unwrap_err();
    assert!(e.contains("23.0"), "one's own offer: {e}");
    t.run(BRITISH, "end", &[]).unwrap();
    t.run(RUSSIAN, "accept 1", &[]).unwrap();
    assert_eq!(t.st.treasury, [5, 9]);
    assert_eq!(t.st.control[np], None);
    assert!(t.st.offers.is_empty());
    let e = t.run(RUSSIAN, "accept 1", &[]).unwrap_err();
    assert!(e.contains("no open agreement 1"), "{e}");
    // A gift beyond the treasury fails at acceptance; the offer stands.
    t.run(RUSSIAN, "propose want 50", &[]).unwrap();
    t.run(RUSSIAN, "end", &[]).unwrap();
    let e = t.run(BRITISH, "accept 2", &[]).unwrap_err();
    assert!(e.contains("pounds"), "{e}");
    t.run(BRITISH, "decline 2", &[]).unwrap();
    assert!(t.st.offers.is_empty());
}

// 23.1, 9.0: the proposer's treasury is his secret. An `accept` of an offer
// the proposer can no longer pay is not refused (a refusal is free, so it
// would tell the accepting player, for nothing, that the treasury holds less):
// the acceptance stands, the agreement fails as an event that names no
// figure, and lapses. Version 8 refused it, quoting the treasury; its
// records replay so.
#[test]
fn accepting_an_offer_its_proposer_cannot_pay_tells_no_figure() {
    let mut t = empty(1);
    t.st.treasury = [10, 49];
    t.run(BRITISH, "end", &[]).unwrap();
    t.run(RUSSIAN, "propose give 50", &[]).unwrap();
    t.run(RUSSIAN, "end", &[]).unwrap();
    let before = t.st.clone();
    let ev = t.run(BRITISH, "accept 1", &[]).unwrap();
    let said = ev.join("\n");
    assert!(said.contains("fails"), "{said}");
    assert!(
        !said.contains("49") && !said.contains("50"),
        "no figure: {said}"
    );
    assert_eq!(t.st.treasury, [10, 49], "nothing paid");
    assert!(t.st.offers.is_empty(), "the offer lapses");
    // Version 8 refused it, naming the proposer's treasury.
    let v8 = t.r.at(8);
    let lines = [SourceLine {
        line: 1,
        column: 1,
        text: "accept 1".into(),
    }];
    let orders = Ruleset::parse(&v8, &before, BRITISH, &lines).unwrap();
    let mut st = before.clone();
    let e = Ruleset::apply(
        &v8,
        &mut st,
        BRITISH,
        &orders[0].1,
        &mut Dice::recorded(vec![]),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("holds 49"), "{e}");
}

// 29.0 (optional Improved Staff Work): from the 1890-94 turn an all-red force
// makes its second operation free of supply; 29.1: the third still pays;
// 29.2: a force with any native unit pays in the second too.
#[test]
fn improved_staff_work_frees_the_second_operation_of_regular_forces_from_1890() {
    let mut t = empty_with(2, &[("staff_work", "on")]);
    let s = t.city("Delhi");
    let red = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s))[0];
    let id = t.st.unit(red).id;
    let to = Sq::new(s.col, s.row + 1);
    t.st.sp[0] = 0;
    let e = t
        .run(BRITISH, &format!("move {id}: {to}"), &[])
        .unwrap_err();
    assert!(e.contains("12.2(2)"), "before 1890 the rule is off: {e}");
    t.st.first_year = 1890;
    t.run(BRITISH, &format!("move {id}: {to}"), &[]).unwrap();
    assert_eq!(t.st.sp[0], 0);
    // 29.2: a Punjabi brigade in the force.
    let pj = t.control("PJ", Some(Power::British));
    let f = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s))[0];
    let n = t.put(Nat::Native(pj), Kind::FieldForce, 1, Loc::Sq(s))[0];
    let ids = format!("{} {}", t.st.unit(f).id, t.st.unit(n).id);
    let e = t
        .run(BRITISH, &format!("move {ids}: {to}"), &[])
        .unwrap_err();
    assert!(e.contains("12.2(2)"), "{e}");
    // 29.1: the third operation pays.
    umpire_ac::turn::open_phase(&mut t.st, 3, Power::British);
    let e = t
        .run(BRITISH, &format!("move {}: {s}", t.st.unit(red).id), &[])
        .unwrap_err();
    assert!(e.contains("12.2(2)"), "{e}");
}

impl T {
    /// The pieces of set-up choice `key` now: (unit ids, agent ids).
    fn pick(&self, key: &str) -> (usize, Vec<String>) {
        let d = self.d();
        let g = d.scenarios[self.st.scenario]
            .picks
            .iter()
            .position(|p| p.key == key)
            .unwrap();
        let ids = self.st.picks[g]
            .units
            .iter()
            .map(|u| self.st.unit(*u).id.to_string())
            .collect();
        (g, ids)
    }
}

// 26.0 S1 3.0, 4.0: the Russians set up first, then the British; each places
// what the scenario leaves to him within its limits: 4.3(1) "any city(ies)
// in North India", 5.1 "in any Sinkiang cities, at least one unit per city"
// (ruling A58), 4.6(1) the trading posts. What is not moved stands where
// scenarios.toml puts it, so a setter's `done` (the deadline default) keeps
// the printed defaults, which meet every limit.
#[test]
fn a_chosen_set_up_is_placed_by_each_setter_in_turn_within_the_scenario_limits() {
    let mut t = game("s1", &[("setup", "chosen")]);
    assert_eq!(t.st.stage, Stage::Setup(Power::Russian));
    let prompt = t.r.prompt(&t.st);
    assert_eq!(prompt.awaiting.len(), 1);
    assert_eq!(prompt.awaiting[0].side, RUSSIAN);
    assert_eq!(prompt.awaiting[0].default, vec!["done".to_string()]);
    for p in [Power::British, Power::Russian] {
        umpire_ac::placing::check(t.d(), &t.st, p).expect("the defaults meet the limits");
    }
    let e = t.run(BRITISH, "done", &[]).unwrap_err();
    assert!(e.contains("(26.0)"), "the Russians set up first: {e}");
    let e = t
        .run(RUSSIAN, "place dost-mohammed at Lahore", &[])
        .unwrap_err();
    assert!(
        e.contains("26.0 S1 6.5"),
        "Dost Mohammed sets up in Afghanistan: {e}"
    );
    let (kandahar, kabul) = (t.city("Kandahar"), t.city("Kabul"));
    t.run(RUSSIAN, "place dost-mohammed at Kandahar", &[])
        .unwrap();
    let dost = AgentId(t.d().find_agent("dost-mohammed").unwrap() as u16);
    assert_eq!(t.st.agent(dost).loc, Loc::Sq(kandahar));
    assert_eq!(t.st.stage, Stage::Setup(Power::British));
    // 22.1: the British do not see the Russians' choices, nor these lines.
    let seen =
        t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(RUSSIAN))
            .status;
    assert!(!seen.iter().any(|l| l.starts_with("Set-up ")), "{seen:?}");
    let mine =
        t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(BRITISH))
            .status;
    assert!(
        mine.iter()
            .any(|l| l.starts_with("Set-up 26.0 ") && l.ends_with(" 4.3(1):")),
        "{mine:?}"
    );
    let (_, red) = t.pick("4.3(1)");
    let e = t
        .run(BRITISH, &format!("place {} at Kabul", red[0]), &[])
        .unwrap_err();
    assert!(e.contains("26.0 S1 4.3(1)"), "{e}");
    let e = t
        .run(BRITISH, "place dost-mohammed at Kabul", &[])
        .unwrap_err();
    assert!(e.contains("(26.0)"), "not a British piece: {e}");
    // A58: Kucha holds Sinkiang's only unit there; moving it empties a city.
    let kucha = t.city("Kucha");
    let sk = t.d().region("SK").unwrap();
    let lone =
        t.st.units_at(Loc::Sq(kucha))
            .find(|u| t.st.unit(*u).nat == Nat::Native(sk))
            .unwrap();
    let lone = t.st.unit(lone).id;
    let e = t
        .run(BRITISH, &format!("place {lone} at Kashgar"), &[])
        .unwrap_err();
    assert!(e.contains("ruling A58") && e.contains("Kucha"), "{e}");
    let (agra, simla, delhi) = (t.city("Agra"), t.city("Simla"), t.city("Delhi"));
    let e = t
        .run(BRITISH, "place trading_post from Delhi at Agra", &[])
        .unwrap_err();
    assert!(e.contains("20.21"), "Agra has its post already: {e}");
    t.run(
        BRITISH,
        &format!(
            "place {} {} at Agra\nplace trading_post from Delhi at Simla\nplace burnes at Kandahar\nplace burnes at Kabul",
            red[0], red[1]
        ),
        &[],
    )
    .unwrap();
    let u = t.st.find_unit(&red[0]).unwrap();
    assert_eq!(t.st.unit(u).loc, Loc::Sq(agra));
    let burnes = AgentId(t.d().find_agent("burnes").unwrap() as u16);
    assert_eq!(
        t.st.agent(burnes).loc,
        Loc::Sq(kabul),
        "the last order stands"
    );
    assert!(t.st.has_marker(simla, Power::British, MarkerKind::TradingPost));
    assert!(
        !t.st
            .has_marker(delhi, Power::British, MarkerKind::TradingPost)
    );
    assert_eq!(t.st.stage, Stage::Initiative);
    assert!(t.st.picks.is_empty());
}

// 26.0 S2 4.3(2), 4.6(2): two garrisons in non-city squares of Kazakhistan,
// one in each of the two forts: a garrison moved without its fort is refused
// at the mail's end; with the fort it stands. 4.3(1) may not use a non-city.
#[test]
fn the_scenario_2_forts_keep_their_garrisons_in_a_chosen_set_up() {
    let mut t = game("s2", &[("setup", "chosen")]);
    assert_eq!(t.st.stage, Stage::Setup(Power::British));
    t.run(BRITISH, "done", &[]).unwrap();
    let (g, ids) = t.pick("4.3(2)");
    let d = t.d();
    let pick = &d.scenarios[t.st.scenario].picks[g];
    let fort = t.st.picks[g].markers[0].sq;
    let free = d
        .all_squares()
        .find(|s| {
            pick.allows(d, *s)
                && t.st.units_at(Loc::Sq(*s)).next().is_none()
                && t.st.markers_at(*s).next().is_none()
        })
        .unwrap();
    let g0 = ids
        .iter()
        .find(|id| t.st.unit(t.st.find_unit(id).unwrap()).loc == Loc::Sq(fort))
        .unwrap()
        .clone();
    let e = t
        .run(RUSSIAN, &format!("place {g0} at {free}"), &[])
        .unwrap_err();
    assert!(e.contains("26.0 S2 4.3(2)"), "{e}");
    let (_, blue) = t.pick("4.3(1)");
    let e = t
        .run(RUSSIAN, &format!("place {} at {free}", blue[0]), &[])
        .unwrap_err();
    assert!(e.contains("26.0 S2 4.3(1)"), "{e}");
    t.run(
        RUSSIAN,
        &format!("place {g0} at {free}\nplace fort from {fort} at {free}"),
        &[],
    )
    .unwrap();
    assert!(t.st.has_marker(free, Power::Russian, MarkerKind::Fort));
    assert_eq!(t.st.stage, Stage::Initiative);
}

// 21.2: the Jihad's player places it, in his economy orders (digest N13):
// a land square outside West Siberia, North India, Nepal, the Punjab and the
// Sind, with no enemy or neutral units; the other player cannot.
#[test]
fn the_jihad_is_placed_by_its_player_in_his_economy_orders() {
    let mut t = game("s1", &[]);
    t.run(
        BRITISH,
        "initiative first",
        &[
            ("Ranjit Singh (S1 7.2)", 4),
            ("home government income, British (9.1(1))", 3),
            ("home government income, Russian (9.1(1))", 3),
        ],
    )
    .unwrap();
    let start = t.city("Herat");
    let gh = t.put(Nat::Ghazi, Kind::Ghazi, 3, Loc::Pool);
    for u in &gh {
        t.st.unit_mut(*u).loc = Loc::Sq(start);
    }
    t.st.ghazis = Some(Power::British);
    t.st.jihad_at = Some(start);
    let af = t.d().region("AF").unwrap();
    let to = t
        .d()
        .all_squares()
        .find(|s| {
            t.d().sq(*s).and_then(|i| i.region) == Some(af)
                && t.d().land(*s)
                && t.st.units_at(Loc::Sq(*s)).next().is_none()
        })
        .unwrap();
    let e = t.run(BRITISH, "jihad Delhi", &[]).unwrap_err();
    assert!(e.contains("21.2") && e.contains("North India"), "{e}");
    let e = t.run(BRITISH, "jihad Kabul", &[]).unwrap_err();
    assert!(e.contains("21.2") && e.contains("neutral"), "{e}");
    let e = t.run(RUSSIAN, &format!("jihad {to}"), &[]).unwrap_err();
    assert!(e.contains("21.2"), "not the Russians' Jihad: {e}");
    t.run(BRITISH, &format!("jihad {to}"), &[]).unwrap();
    assert_eq!(
        t.st.unit(gh[0]).loc,
        Loc::Sq(start),
        "sealed until both are in"
    );
    let ev = t.run(RUSSIAN, "done", &[]).unwrap();
    assert!(gh.iter().all(|u| t.st.unit(*u).loc == Loc::Sq(to)));
    assert!(ev.iter().any(|e| e.contains("takes the field")), "{ev:?}");
    assert_eq!(t.st.jihad_at, None);
}

/// British-controlled Afghanistan with two of its irregulars at Peshawar,
/// outside it: the set-up of the 5.51(2) tests.
fn british_afghans_abroad() -> (T, umpire_ac::data::RegionId, Vec<UnitId>) {
    let mut t = empty(1);
    let af = t.control("AF", Some(Power::British));
    let peshawar = t.city("Peshawar");
    let away = t.put(Nat::Native(af), Kind::Irregular, 2, Loc::Sq(peshawar));
    (t, af, away)
}

/// The British cede `af` to neutral (23.1(2)): a reversion (5.51).
fn british_cede_to_neutral(t: &mut T, af: umpire_ac::data::RegionId) {
    let order = economy::EconOrder::Cede(af, None);
    economy::apply(t.r.data(), &mut t.st, Power::British, &order).unwrap();
}

// 5.51(2): the former controller places the returning units on free cities
// of their region: his standing order (N8) names them, first free first.
#[test]
fn the_former_controller_chooses_where_reverting_units_go() {
    let (mut t, af, away) = british_afghans_abroad();
    let (kandahar, ghazni) = (t.city("Kandahar"), t.city("Ghazni"));
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(kandahar));
    let e =
        t.r.set_standing(&mut t.st, BRITISH, &lines("reversion: AF lahore"))
            .unwrap_err();
    assert!(e.to_string().contains("5.51(2)"), "{e}");
    t.r.set_standing(&mut t.st, BRITISH, &lines("reversion: AF kandahar ghazni"))
        .unwrap();
    assert!(
        t.r.standing(&t.st, BRITISH)
            .iter()
            .any(|l| l == "reversion: AF kandahar ghazni")
    );
    british_cede_to_neutral(&mut t, af);
    // Kandahar holds a British garrison: the next city listed.
    assert!(away.iter().all(|u| t.st.unit(*u).loc == Loc::Sq(ghazni)));
}

// 5.51(2): "The player who formerly controlled the region ... places them":
// unit by unit (ruling A70). `UNIT=CITY` sends that unit to that city if it
// is free; the others follow the region's list; a unit of another region or
// a unit of no such id is refused citing 5.51(2).
#[test]
fn the_former_controller_places_each_reverting_unit() {
    let (mut t, af, away) = british_afghans_abroad();
    let (kabul, ghazni) = (t.city("Kabul"), t.city("Ghazni"));
    let (first, second) = (away[0], away[1]);
    let id = t.st.unit(second).id;
    for wrong in ["nobody=kabul", "af=lahore"] {
        let e =
            t.r.set_standing(
                &mut t.st,
                BRITISH,
                &lines(&format!("reversion: AF {wrong}")),
            )
            .unwrap_err();
        assert!(e.to_string().contains("5.51(2)"), "{wrong}: {e}");
    }
    let order = format!("reversion: AF {id}=ghazni kabul");
    t.r.set_standing(&mut t.st, BRITISH, &lines(&order))
        .unwrap();
    british_cede_to_neutral(&mut t, af);
    assert_eq!(t.st.unit(second).loc, Loc::Sq(ghazni));
    assert_eq!(t.st.unit(first).loc, Loc::Sq(kabul));
}

// 23.0 (silent on lapsing; ruling A69): an offer stands through the turn and
// lapses at its end if nobody answered it.
#[test]
fn an_unanswered_agreement_lapses_at_the_end_of_the_turn() {
    let mut t = empty(5);
    t.st.turn = t.st.turns;
    t.st.treasury = [10, 10];
    t.run(BRITISH, "propose give 2", &[]).unwrap();
    t.run(BRITISH, "end", &[]).unwrap();
    assert_eq!(t.st.offers.len(), 1, "it stands in the Russian phase");
    let ev = t.run(RUSSIAN, "end", &[]).unwrap();
    assert!(t.st.offers.is_empty());
    assert!(
        ev.iter().any(|e| e.contains("lapses") && e.contains("A69")),
        "{ev:?}"
    );
}

// 16.42(1), 23.0: a prisoner's return is a term: the captor returns him on
// an agreed square at the beginning of the next turn, and may not execute
// him meanwhile; only the captor can promise it.
#[test]
fn a_prisoner_returned_by_agreement_goes_back_at_the_next_turn() {
    let mut t = empty(1);
    t.st.treasury = [10, 10];
    let vit = AgentId(t.d().find_agent("vitkovitch").unwrap() as u16);
    t.st.agent_mut(vit).loc = Loc::Prisoner(Power::British);
    let e = t
        .run(BRITISH, "propose want release vitkovitch at 0602", &[])
        .unwrap_err();
    assert!(e.contains("16.42(1)"), "the Russians hold no prisoner: {e}");
    t.run(
        BRITISH,
        "propose release vitkovitch at 0602, want give 3",
        &[],
    )
    .unwrap();
    t.run(BRITISH, "end", &[]).unwrap();
    t.run(RUSSIAN, "accept 1", &[]).unwrap();
    assert_eq!(t.st.treasury, [13, 7]);
    assert_eq!(
        t.st.agent(vit).loc,
        Loc::Prisoner(Power::British),
        "not before the next turn"
    );
    assert_eq!(t.st.returns, vec![(vit, sq("0602"))]);
    t.run(RUSSIAN, "end", &[]).unwrap();
    let e = t.run(BRITISH, "execute vitkovitch", &[]).unwrap_err();
    assert!(e.contains("23.0"), "{e}");
}

// Option setup=sealed (the digest's house option, 2.4; 26.0): both setters
// place their choices at once; each mail seals its side's set-up, a side
// whose mail is in may not send more, and the set-up ends, and the game
// goes on to the initiative, when both are in.
#[test]
fn a_sealed_set_up_awaits_both_setters_at_once_and_ends_when_both_are_in() {
    let mut t = game("s1", &[("setup", "sealed")]);
    assert_eq!(t.st.stage, Stage::SetupSealed);
    let prompt = t.r.prompt(&t.st);
    let who: Vec<Side> = prompt.awaiting.iter().map(|a| a.side).collect();
    assert_eq!(who, vec![BRITISH, RUSSIAN], "both at once");
    assert!(
        prompt
            .awaiting
            .iter()
            .all(|a| a.kind == umpire_core::ruleset::AwaitKind::SealedOrders
                && a.default == ["done"])
    );
    // Each side's status shows only its own choices (22.1).
    let b =
        t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(BRITISH))
            .status;
    let r =
        t.r.view(&t.st, umpire_core::ruleset::Viewer::Side(RUSSIAN))
            .status;
    assert!(
        b.iter()
            .any(|l| l.starts_with("Set-up 26.0 ") && l.ends_with(" 4.3(1):")),
        "{b:?}"
    );
    assert!(
        !b.iter()
            .any(|l| l.starts_with("Set-up 26.0 ") && l.ends_with(" 6.5:")),
        "{b:?}"
    );
    assert!(
        r.iter()
            .any(|l| l.starts_with("Set-up 26.0 ") && l.ends_with(" 6.5:")),
        "{r:?}"
    );
    let kandahar = t.city("Kandahar");
    // The British go first here: in the sealed round the printed order is void.
    let (_, red) = t.pick("4.3(1)");
    let agra = t.city("Agra");
    t.run(BRITISH, &format!("place {} at Agra", red[0]), &[])
        .unwrap();
    assert_eq!(t.st.stage, Stage::SetupSealed);
    assert_eq!(t.st.sealed, [true, false]);
    let e = t.run(BRITISH, "done", &[]).unwrap_err();
    assert!(e.contains("sealed") && e.contains("(26.0)"), "{e}");
    assert_eq!(t.r.prompt(&t.st).awaiting.len(), 1);
    t.run(RUSSIAN, "place dost-mohammed at Kandahar", &[])
        .unwrap();
    assert_eq!(t.st.stage, Stage::Initiative);
    assert_eq!(t.st.sealed, [false, false]);
    assert!(t.st.picks.is_empty());
    let u = t.st.find_unit(&red[0]).unwrap();
    assert_eq!(t.st.unit(u).loc, Loc::Sq(agra));
    let dost = AgentId(t.d().find_agent("dost-mohammed").unwrap() as u16);
    assert_eq!(t.st.agent(dost).loc, Loc::Sq(kandahar));
}

// 5.5: "Regions may return to neutral status. This may be the result of
// negotiations". On the stand-in Negotiations Table, N against a region the
// other player controls: it reverts (5.51(1)); its units outside it go home
// to free cities the former controller's standing order names (5.51(2), N8);
// the other player's units in it stay (5.51(3)).
#[test]
fn negotiations_can_return_an_enemy_region_to_neutrality() {
    let mut t = empty(1);
    let d = t.r.data().clone();
    let af = d.region("AF").unwrap();
    t.st.control[af.0 as usize] = Some(Power::Russian);
    let (kabul, ghazni, herat) = (t.city("Kabul"), t.city("Ghazni"), t.city("Herat"));
    t.agent("burnes", Loc::Sq(kabul));
    let away = t.put(Nat::Native(af), Kind::Irregular, 2, Loc::Sq(herat));
    let stay = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(ghazni));
    t.r.set_standing(
        &mut t.st,
        RUSSIAN,
        &lines("reversion: AF ghazni kandahar\ncounter: none"),
    )
    .unwrap();
    // Burnes 2 against no counter: differential 2, the column "1..2"; a
    // modified 3 reads N.
    let m = negotiate::drm(&d, &t.st, Power::British, af);
    let die = (3 - m) as u32;
    assert!((1..=6).contains(&die), "drm {m}");
    assert!(d.negotiations[3][3].neutral, "the stand-in cell is N");
    let ev = t
        .run(
            BRITISH,
            "negotiate AF agent burnes",
            &[("negotiations against AF (15.1(8))", die)],
        )
        .unwrap();
    assert!(
        ev.iter()
            .any(|e| e.contains("reverts to neutral") && e.contains("5.51")),
        "{ev:?}"
    );
    assert_eq!(t.st.control[af.0 as usize], None, "5.51(1)");
    // Ghazni holds a Russian garrison (not free): the next city listed.
    let kandahar = t.city("Kandahar");
    assert!(
        away.iter().all(|u| t.st.unit(*u).loc == Loc::Sq(kandahar)),
        "5.51(2)"
    );
    assert_eq!(t.st.unit(stay[0]).loc, Loc::Sq(ghazni), "5.51(3)");
    // Against a neutral region the same N has no effect.
    let mut t2 = empty(1);
    t2.agent("burnes", Loc::Sq(kabul));
    let m = negotiate::drm(&d, &t2.st, Power::British, af);
    t2.run(
        BRITISH,
        "negotiate AF agent burnes",
        &[("negotiations against AF (15.1(8))", (3 - m) as u32)],
    )
    .unwrap();
    assert_eq!(t2.st.control[af.0 as usize], None);
}

// 5.5: reversion "may be the result of ... an event" (stand-in: Native
// Unrest, B6, on the player who did not roll). Which region is an event
// choice (N13): the standing order `unrest:` lists them, first first; the
// stated default is the least valuable region he controls.
#[test]
fn native_unrest_returns_the_region_the_standing_order_names_to_neutrality() {
    let mut t = empty(1);
    t.st.bop = 1;
    let (ni, np) = (t.region("NI"), t.region("NP"));
    assert_eq!(t.st.control[ni], Some(Power::British));
    assert_eq!(t.st.control[np], Some(Power::British));
    let rolls = [
        ("random events, column roll by the Russian (8.1(1))", 3),
        ("random events, column B (8.1(2))", 6),
    ];
    // The default: the least valuable of the British regions.
    let mut a = empty(1);
    a.st.bop = 1;
    let d = a.r.data().clone();
    let least = if d.regions[ni].vp < d.regions[np].vp {
        ni
    } else {
        np
    };
    let ev = events_with(&mut a, 2, &rolls);
    assert!(ev.iter().any(|e| e.contains("Native Unrest")), "{ev:?}");
    assert_eq!(a.st.control[least], None, "{ev:?}");
    // The standing order names the other one.
    let other = if least == ni { "NP" } else { "NI" };
    t.r.set_standing(&mut t.st, BRITISH, &lines(&format!("unrest: {other}")))
        .unwrap();
    assert!(
        t.r.standing(&t.st, BRITISH)
            .iter()
            .any(|l| *l == format!("unrest: {other}"))
    );
    let ev = events_with(&mut t, 2, &rolls);
    assert_eq!(t.st.control[t.region(other)], None, "{ev:?}");
    assert_eq!(t.st.control[least], Some(Power::British));
    let e =
        t.r.set_standing(&mut t.st, BRITISH, &lines("unrest: XX"))
            .unwrap_err();
    assert!(e.to_string().contains("5.5"), "{e}");
}

// N13 with `ask`: when the event leaves a real choice, the umpire asks its
// player (`choose REGION`) before income and the economy round; the other
// player may not answer, nor may anything else be done meanwhile; the
// deadline's default is the stated default. Then the turn goes on.
#[test]
fn an_event_choice_is_asked_when_the_player_asked_to_be_asked() {
    let mut t = empty(1);
    t.st.bop = 1;
    t.r.set_standing(&mut t.st, BRITISH, &lines("unrest: ask"))
        .unwrap();
    let ev = events_with(
        &mut t,
        2,
        &[
            ("random events, column roll by the Russian (8.1(1))", 3),
            ("random events, column B (8.1(2))", 6),
        ],
    );
    let Stage::Choice(q) = t.st.stage.clone() else {
        panic!("no question: {ev:?}")
    };
    assert_eq!(q.who, Power::British);
    let prompt = t.r.prompt(&t.st);
    assert_eq!(prompt.awaiting.len(), 1);
    let aw = &prompt.awaiting[0];
    assert_eq!(aw.side, BRITISH);
    assert_eq!(aw.kind, umpire_core::ruleset::AwaitKind::Decision);
    let d = t.r.data().clone();
    let (ni, np) = (t.region("NI"), t.region("NP"));
    let least = if d.regions[ni].vp < d.regions[np].vp {
        "NI"
    } else {
        "NP"
    };
    let other = if least == "NI" { "NP" } else { "NI" };
    assert_eq!(aw.default, vec![format!("choose {least}")]);
    assert!(aw.ask.contains("choose REGION"), "{}", aw.ask);
    let mut legal = t.r.legal_moves(&t.st, BRITISH);
    legal.sort();
    assert_eq!(
        legal,
        vec!["choose NI".to_string(), "choose NP".to_string()]
    );
    let e = t.run(RUSSIAN, &format!("choose {other}"), &[]).unwrap_err();
    assert!(e.contains("(8.0)"), "{e}");
    let e = t.run(BRITISH, "buy 2", &[]).unwrap_err();
    assert!(e.contains("choose REGION"), "{e}");
    let e = t.run(BRITISH, "choose AF", &[]).unwrap_err();
    assert!(e.contains("(5.5)"), "not one of his regions: {e}");
    let ev = t
        .run(
            BRITISH,
            &format!("choose {other}"),
            &[
                ("home government income, British (9.1(1))", 3),
                ("home government income, Russian (9.1(1))", 3),
            ],
        )
        .unwrap();
    assert_eq!(t.st.control[t.region(other)], None, "{ev:?}");
    assert_eq!(t.st.control[t.region(least)], Some(Power::British));
    assert_eq!(t.st.stage, Stage::Economy, "the turn goes on");
}

/// Turn 2's events rolled by the Russians with the index at 1: column B,
/// B1 Pro-British Uprising, its region (KV, by the standing order) raising a
/// levy of one (5.42(3)). Returns the events.
fn pro_british_uprising_taking_kv(t: &mut T) -> Vec<String> {
    events_with(
        t,
        2,
        &[
            ("random events, column roll by the Russian (8.1(1))", 3),
            ("random events, column B (8.1(2))", 1),
            ("invasion defence levy, KV (5.42(3))", 1),
        ],
    )
}

// N13 (5.4(1)): the uprising's region is the player's choice: `uprising:`
// lists neutral regions, first neutral one first; an unknown code is refused.
#[test]
fn an_uprising_wins_the_region_the_standing_order_names() {
    let mut t = empty(1);
    t.st.bop = 1;
    let kv = t.region("KV");
    t.r.set_standing(&mut t.st, BRITISH, &lines("uprising: NI KV AF"))
        .unwrap();
    let ev = pro_british_uprising_taking_kv(&mut t);
    assert!(
        ev.iter().any(|e| e.contains("Pro-British Uprising")),
        "{ev:?}"
    );
    assert_eq!(
        t.st.control[kv],
        Some(Power::British),
        "NI is not neutral: KV is next"
    );
    let e =
        t.r.set_standing(&mut t.st, BRITISH, &lines("uprising: XX"))
            .unwrap_err();
    assert!(e.to_string().contains("5.4(1)"), "{e}");
}

// ---- 5.0 Control, neutrality, belligerency, invasion, reversion ----

// 5.41(1): phasing combat units in the same square as neutral units invade
// (outside any city too); 5.4(3): the region joins the other player, 5.42(2)
// with all its units. Ruling A17 (5.41: "phasing player-controlled"): the
// non-phasing player's units in a neutral city trigger nothing in the
// phasing player's check; in his own check they do (5.41(2)).
#[test]
fn sharing_a_square_with_neutral_units_is_an_invasion_but_only_for_the_phasing_player() {
    let mut t = empty(1);
    let s = t.open_square("KV");
    t.put(Nat::British, Kind::FlyingColumn, 1, Loc::Sq(s));
    let kv = t.d().region("KV").unwrap();
    let native = t.put(Nat::Native(kv), Kind::Irregular, 1, Loc::Sq(s))[0];
    let herat = t.city("Herat");
    t.put(Nat::Russian, Kind::FlyingColumn, 1, Loc::Sq(herat));
    let ev = t.belligerency(
        Power::British,
        &[("invasion defence levy, KV (5.42(3))", 1)],
    );
    assert_eq!(t.st.control[t.region("KV")], Some(Power::Russian), "{ev:?}");
    assert_eq!(t.st.owner(t.st.unit(native).nat), Some(Power::Russian));
    assert_eq!(t.st.control[t.region("HE")], None, "A17: {ev:?}");
    let ev = t.belligerency(
        Power::Russian,
        &[("invasion defence levy, HE (5.42(3))", 1)],
    );
    assert_eq!(t.st.control[t.region("HE")], Some(Power::British), "{ev:?}");
}

// 5.43, 5.46, 5.31(3), 13.31: a force may move through a neutral region, its
// units and its cities, without stopping and without violating neutrality;
// only where it ends counts (5.41). 5.45: civilization markers never violate
// neutrality.
#[test]
fn moving_through_a_neutral_city_and_its_units_is_no_invasion() {
    let mut t = empty(1);
    let khiva = t.city("Khiva");
    let kv = t.d().region("KV").unwrap();
    t.put(Nat::Native(kv), Kind::Irregular, 1, Loc::Sq(khiva));
    let d = t.d();
    let side: Vec<Sq> = [(0, -1), (0, 1), (-1, 0), (1, 0)]
        .iter()
        .map(|(dc, dr)| Sq::new(khiva.col + dc, khiva.row + dr))
        .filter(|s| d.land(*s) && d.city_at(*s).is_none())
        .collect();
    assert!(side.len() >= 2, "{side:?}");
    let (from, to) = (side[0], side[side.len() - 1]);
    let fc = t.put(Nat::British, Kind::FlyingColumn, 1, Loc::Sq(from))[0];
    let id = t.st.unit(fc).id;
    t.st.markers.push(Marker {
        sq: t.city("Kunya-Urgench"),
        owner: Power::British,
        kind: MarkerKind::TradingPost,
    });
    t.run(BRITISH, &format!("move {id}: {khiva} {to}"), &[])
        .unwrap();
    assert_eq!(t.st.unit(fc).loc, Loc::Sq(to), "13.31: no stop at neutrals");
    let ev = t.belligerency(Power::British, &[]);
    assert_eq!(t.st.control[kv.0 as usize], None, "{ev:?}");
}

// 5.31(1): neither player may conduct operations with neutral units.
#[test]
fn neutral_units_take_no_orders() {
    let mut t = empty(1);
    let khiva = t.city("Khiva");
    let kv = t.d().region("KV").unwrap();
    let u = t.put(Nat::Native(kv), Kind::Irregular, 1, Loc::Sq(khiva))[0];
    let id = t.st.unit(u).id;
    let next = Sq::new(khiva.col, khiva.row + 1);
    for (side, p) in [(BRITISH, Power::British), (RUSSIAN, Power::Russian)] {
        umpire_ac::turn::open_phase(&mut t.st, 1, p);
        let e = t.run(side, &format!("move {id}: {next}"), &[]).unwrap_err();
        assert!(e.contains("5.31(1)"), "{e}");
    }
}

// 5.42(3): the invasion defence levy is a die of the region's irregulars,
// "up to the limit available in the counter mix", free of charge, with its
// Khan if he is not on the map, on squares of the region without enemy or
// neutral units.
#[test]
fn the_invasion_levy_stops_at_the_counter_mix_and_avoids_enemy_squares() {
    let mut t = empty(1);
    let kv = t.d().region("KV").unwrap();
    let pool = t.units_of("KV", |l| l == Loc::Pool);
    let irregular_pool =
        t.st.units
            .iter()
            .filter(|u| u.nat == Nat::Native(kv) && u.kind == Kind::Irregular && u.loc == Loc::Pool)
            .count();
    assert!(irregular_pool >= 1);
    // Leave one irregular in the mix: a 6 still raises only one.
    let keep = irregular_pool - 1;
    let far = t.open_square("KV");
    let elsewhere = t.put(Nat::Native(kv), Kind::Irregular, keep, Loc::Sq(far));
    for u in &elsewhere {
        t.st.unit_mut(*u).loc = Loc::Dead;
    }
    let khiva = t.city("Khiva");
    t.put(Nat::British, Kind::FlyingColumn, 1, Loc::Sq(khiva));
    let (treasury, ev) = (
        t.st.treasury,
        t.belligerency(
            Power::British,
            &[("invasion defence levy, KV (5.42(3))", 6)],
        ),
    );
    for u in &elsewhere {
        t.st.unit_mut(*u).loc = Loc::Pool;
    }
    assert_eq!(t.st.control[kv.0 as usize], Some(Power::Russian));
    assert!(
        ev.iter().any(|e| e.contains("raises 1 irregular")),
        "{ev:?}"
    );
    assert_eq!(t.st.treasury, treasury, "10.44: the levy costs nothing");
    let raised: Vec<Sq> =
        t.st.units
            .iter()
            .filter(|u| u.nat == Nat::Native(kv))
            .filter_map(|u| u.loc.sq())
            .collect();
    assert_eq!(raised.len(), 1, "{ev:?}");
    assert_ne!(raised[0], khiva, "the levy avoids the invader's square");
    assert_eq!(t.units_of("KV", |l| l == Loc::Pool), pool - 1);
}

// 5.51(2): the units of a reverting region outside it go to its free cities
// (no British, Russian or other regions' units); with none free they are
// eliminated. 5.51(1): those inside stay.
#[test]
fn reverting_units_with_no_free_city_are_eliminated() {
    let mut t = empty(1);
    let af = t.control("AF", Some(Power::British));
    let cities: Vec<Sq> = t
        .d()
        .reg(af)
        .cities
        .iter()
        .map(|c| t.d().city(*c).sq)
        .collect();
    let ni = t.d().region("NI").unwrap();
    let (first, rest) = cities.split_first().unwrap();
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(*first));
    for c in rest {
        t.put(Nat::Native(ni), Kind::Irregular, 1, Loc::Sq(*c));
    }
    let inside = t.put(
        Nat::Native(af),
        Kind::Irregular,
        1,
        Loc::Sq(t.open_square("AF")),
    )[0];
    let peshawar = t.city("Peshawar");
    let away = t.put(Nat::Native(af), Kind::Irregular, 2, Loc::Sq(peshawar));
    t.cede_to_neutral(af);
    for u in away {
        assert_eq!(t.st.unit(u).loc, Loc::Pool, "5.51(2): no free city");
    }
    assert!(t.st.unit(inside).loc.in_play(), "5.51(1)");
}

// 5.51(3): belligerent units stay in a newly neutral region, cities too; if
// at the first belligerency check the conditions of invasion hold, the
// region returns to belligerency (5.4(3): for the other player, with its levy).
#[test]
fn belligerent_units_left_in_a_reverted_region_invade_it_at_the_next_check() {
    let mut t = empty(1);
    let af = t.control("AF", Some(Power::British));
    let kandahar = t.city("Kandahar");
    let g = t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(kandahar))[0];
    t.cede_to_neutral(af);
    assert_eq!(t.st.unit(g).loc, Loc::Sq(kandahar), "5.51(3): it stays");
    let ev = t.belligerency(
        Power::British,
        &[("invasion defence levy, AF (5.42(3))", 2)],
    );
    assert_eq!(t.st.control[af.0 as usize], Some(Power::Russian), "{ev:?}");
    assert!(ev.iter().any(|e| e.contains("5.42(3)")), "{ev:?}");
}

// 16.42 (note): "capture attempts may not be made for neutral agents": a
// neutral region's agent alone with the phasing player's combat units at
// the end of his combat phase is not checked (no roll) and stays put.
#[test]
fn neutral_agents_are_never_checked_for_capture() {
    let mut t = empty(1);
    let s = t.open_square("KK");
    t.put(Nat::British, Kind::FlyingColumn, 1, Loc::Sq(s));
    let ali = t.agent("Muhammed Ali", Loc::Sq(s));
    let ev = t.run(BRITISH, "end", &[]).unwrap();
    assert_eq!(t.st.agent(ali).loc, Loc::Sq(s), "{ev:?}");
    assert_eq!(t.st.control[t.region("KK")], None, "5.44, 5.41: {ev:?}");
}

/// 14.5 case: a Russian-controlled West Siberian irregular (movement 6)
/// attacked in a North Indian square by one British unit of `kind`, the
/// Russians' standing order N3 `withdraw` as given; the British end their
/// phase. Returns the events and where the irregular ends.
fn withdrawal_case(kind: Kind, withdraw: bool, rolls: &[(&str, u32)]) -> (Vec<String>, Sq, Loc) {
    let mut t = empty(1);
    let ws = t.control("WS", Some(Power::Russian));
    let s = t.open_square("NI");
    t.put(Nat::British, kind, 1, Loc::Sq(s));
    let irr = t.put(Nat::Native(ws), Kind::Irregular, 1, Loc::Sq(s))[0];
    t.st.standing[Power::Russian.index()].withdraw = withdraw;
    let ev = t.run(BRITISH, "end", rolls).unwrap();
    (ev, s, t.st.unit(irr).loc)
}

// 14.5: the defender may withdraw before combat only if all his units are
// faster than the attacker's fastest combat unit; it is a one-square
// retreat, and no combat follows. N3: by standing order, never by default.
#[test]
fn the_defender_withdraws_before_combat_only_from_slower_attackers() {
    let withdrew = |ev: &[String]| {
        ev.iter()
            .any(|e| e.contains("withdraw before combat (14.5)"))
    };
    // A garrison (movement 2): the irregular withdraws one square, no roll.
    let (ev, s, at) = withdrawal_case(Kind::Garrison, true, &[]);
    assert!(withdrew(&ev), "{ev:?}");
    assert!(
        at.sq().is_some_and(|x| x != s && x.distance(s) == 1),
        "{at:?}"
    );
    let fight = |s: Sq| format!("combat at {s} (14.1(5))");
    // The same with the default standing order: combat.
    let (ev, _, _) = withdrawal_case(Kind::Garrison, false, &[(&fight(s), 3)]);
    assert!(!withdrew(&ev), "N3 default is never: {ev:?}");
    // A flying column (movement 6) is not slower: no withdrawal.
    let (ev, _, _) = withdrawal_case(Kind::FlyingColumn, true, &[(&fight(s), 3)]);
    assert!(!withdrew(&ev), "14.5: not all defenders are faster: {ev:?}");
    assert!(ev.iter().any(|e| e.contains("Combat at")), "{ev:?}");
}

// 20.21, 20.23, 20.31(1), 20.32(1), 20.33(1): where civilization markers may
// go. A trading post needs a city with a friendly combat unit or agent; one
// marker of a kind a square; none where the enemy has one; a fort needs a
// friendly combat unit; a colony a city with a red (or blue) combat unit and
// a red (or blue) agent, and it replaces the trading post.
#[test]
fn civilization_markers_go_where_20_2_and_20_3_allow() {
    let mut t = empty(1);
    t.st.treasury = [100, 100];
    let delhi = t.city("Delhi");
    let build = |t: &mut T, p, kind| t.econ(p, economy::EconOrder::Build { kind, sq: delhi });
    let e = build(&mut t, Power::British, MarkerKind::TradingPost).unwrap_err();
    assert!(e.contains("20.33(1)"), "{e}");
    t.agent("burnes", Loc::Sq(delhi));
    build(&mut t, Power::British, MarkerKind::TradingPost).unwrap();
    let e = build(&mut t, Power::British, MarkerKind::TradingPost).unwrap_err();
    assert!(e.contains("20.21"), "{e}");
    let e = build(&mut t, Power::British, MarkerKind::Fort).unwrap_err();
    assert!(e.contains("20.32(1)"), "an agent is no combat unit: {e}");
    let ni = t.d().region("NI").unwrap();
    t.put(Nat::Native(ni), Kind::Irregular, 1, Loc::Sq(delhi));
    let e = build(&mut t, Power::British, MarkerKind::Colony).unwrap_err();
    assert!(e.contains("20.31(1)"), "natives are not red: {e}");
    t.put(Nat::Russian, Kind::FlyingColumn, 1, Loc::Sq(delhi));
    let e = build(&mut t, Power::Russian, MarkerKind::Fort).unwrap_err();
    assert!(e.contains("20.23"), "{e}");
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(delhi));
    build(&mut t, Power::British, MarkerKind::Colony).unwrap();
    let kinds: Vec<MarkerKind> = t.st.markers_at(delhi).map(|m| m.kind).collect();
    assert_eq!(
        kinds,
        vec![MarkerKind::Colony],
        "20.31(1): the post is replaced"
    );
}

// 4.0 (clarification): at the end of a turn the index shifts for the key
// cities a player occupies, with regulars or controlled natives alike
// (here North Indian irregulars in Kabul and Lahore, a blue brigade in
// Herat); 21.3: first the Ghazis and the Mad Mullah leave the map, so the
// Ghazis alone in Teheran shift nothing. The key cities and the size of the
// shift are stand-ins (tables.toml); the last turn ends the game (25.0).
#[test]
fn the_turn_ends_with_the_ghazis_gone_and_the_index_shifted_for_held_cities() {
    let mut t = empty(5);
    t.st.turn = t.st.turns;
    t.st.sp = [10, 10];
    for (code, p) in [
        ("HE", Power::Russian),
        ("PE", Power::Russian),
        ("AF", Power::British),
        ("PJ", Power::British),
    ] {
        let r = t.region(code);
        t.st.control[r] = Some(p);
    }
    let ni = t.d().region("NI").unwrap();
    let (kabul, lahore) = (t.city("Kabul"), t.city("Lahore"));
    t.put(Nat::Native(ni), Kind::Irregular, 1, Loc::Sq(kabul));
    t.put(Nat::Native(ni), Kind::Irregular, 1, Loc::Sq(lahore));
    t.put(
        Nat::Russian,
        Kind::FlyingColumn,
        1,
        Loc::Sq(t.city("Herat")),
    );
    t.st.ghazis = Some(Power::Russian);
    let ghazi = t.put(Nat::Ghazi, Kind::Ghazi, 1, Loc::Sq(t.city("Teheran")))[0];
    let before = t.st.bop;
    t.run(BRITISH, "end", &[]).unwrap();
    let ev = t.run(RUSSIAN, "end", &[]).unwrap();
    assert!(ev.iter().any(|e| e.contains("(21.3)")), "{ev:?}");
    assert_eq!(t.st.unit(ghazi).loc, Loc::Pool);
    assert_eq!(t.st.ghazis, None);
    let d = t.d();
    let want = [Power::British, Power::Russian, Power::British]
        .iter()
        .fold(before, |b, p| bop::shifted(d, b, *p, 1));
    assert_eq!(t.st.bop, want, "{ev:?}");
    assert!(t.st.finished.is_some(), "25.0: the last turn ends the game");
}

// 16.43: an eliminated named agent may never be replaced, an eliminated
// Pundit may (16.8); 16.61: named agents are recruited only in their period.
#[test]
fn dead_named_agents_stay_dead_and_agents_come_in_their_period() {
    let mut t = empty(1);
    t.st.treasury = [100, 100];
    let india = Base::of(Power::British);
    let recruit = |t: &mut T, name: &str| {
        let agent = AgentId(t.d().find_agent(name).unwrap() as u16);
        let at = umpire_ac::data::At::Base(india);
        t.econ(Power::British, economy::EconOrder::Agent { agent, at })
    };
    let burnes = t.agent("burnes", Loc::Dead);
    let e = recruit(&mut t, "burnes").unwrap_err();
    assert!(e.contains("16.43"), "{e}");
    assert_eq!(t.st.agent(burnes).loc, Loc::Dead);
    let e = recruit(&mut t, "younghusband").unwrap_err();
    assert!(e.contains("16.61"), "period 3 in 1835: {e}");
    let pundit = t.agent("pundit1", Loc::Pool);
    recruit(&mut t, "pundit1").unwrap();
    assert_eq!(t.st.agent(pundit).loc, Loc::Base(india));
}

// 24.3: a force of native units only does not trigger open war, even against
// blue; 24.2 errata: open war is triggered once a game, so a later red on
// blue attack rolls nothing for it.
#[test]
fn natives_alone_never_start_open_war_and_it_starts_once_a_game() {
    let fight = |kind: Nat, open: Option<Power>| {
        let mut t = empty(1);
        t.st.open_war = open;
        let s = t.open_square("NI");
        let k = if kind == Nat::British {
            Kind::FlyingColumn
        } else {
            Kind::Irregular
        };
        t.put(kind, k, 1, Loc::Sq(s));
        t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(s));
        let ev = t
            .run(BRITISH, "end", &[(&format!("combat at {s} (14.1(5))"), 3)])
            .unwrap();
        (ev, t.st.open_war)
    };
    let ni = Nat::Native(Ac::new().data().region("NI").unwrap());
    let (ev, open) = fight(ni, None);
    assert_eq!(open, None, "24.3: {ev:?}");
    let (ev, open) = fight(Nat::British, Some(Power::Russian));
    assert_eq!(open, Some(Power::Russian), "{ev:?}");
    assert!(!ev.iter().any(|e| e.contains("Open war")), "{ev:?}");
}

// 17.4: units beyond the forage value that no SP feeds are eliminated, the
// owner's choice (N5: natives, weakest, first); 17.6: with no SP for the
// expeditionary square, its units outside their home region go (red and
// blue always, clarification); 17.31(1): the agent needs nothing.
#[test]
fn units_no_supply_point_feeds_are_eliminated() {
    let on_map =
        |t: &T, all: &[UnitId]| all.iter().filter(|u| t.st.unit(**u).loc.in_play()).count();
    // One SP pays the expeditionary point (ruling A50: first); one unit over
    // the forage value of 3 starves, and it is not the red one.
    let (all, t) = provisioned(1);
    assert_eq!((on_map(&t, &all), t.st.sp[0]), (3, 0));
    assert!(t.st.unit(all[0]).loc.in_play(), "red is lost last");
    // No SP: the red and the North Indians are expeditionary and go; the
    // Afghan, at home and within the forage value, stays.
    let (all, t) = provisioned(0);
    let kept: Vec<UnitId> = all
        .iter()
        .copied()
        .filter(|u| t.st.unit(*u).loc.in_play())
        .collect();
    assert_eq!(kept, vec![all[3]]);
    let burnes = AgentId(t.d().find_agent("burnes").unwrap() as u16);
    assert!(t.st.agent(burnes).loc.in_play(), "17.31(1)");
}

// 8.2: "if the same event is rolled more than once in the same turn, the
// second time it's rolled is treated as No Event": the Nihilist Revolt,
// already rolled this turn, costs the Russians nothing and rolls nothing;
// the Accord in column C still happens.
#[test]
fn an_event_rolled_twice_in_a_turn_is_no_event_the_second_time() {
    let mut t = empty(1);
    t.st.bop = 2;
    t.st.events_this_turn.push("nihilist_revolt".into());
    let before = t.st.treasury[1];
    let ev = events_with(
        &mut t,
        3,
        &[
            ("random events, column roll by the British (8.1(1))", 5),
            ("random events, column D (8.1(2))", 4),
            ("random events, column C (8.1(2))", 1),
        ],
    );
    assert!(
        ev.iter()
            .any(|e| e.contains("No Event (repeated this turn)")),
        "{ev:?}"
    );
    assert_eq!(t.st.treasury[1], before);
    assert_eq!(t.st.bop, 1, "{ev:?}");
}

// 13.34: a force that begins in a square with enemy units may always leave
// it; it may move directly from one enemy-occupied square to another, but
// must stop there (13.32).
#[test]
fn a_force_leaves_an_enemy_square_freely_and_stops_in_the_next_enemy_square() {
    let mut t = empty(1);
    let delhi = t.city("Delhi");
    let (next, beyond) = (
        Sq::new(delhi.col, delhi.row + 1),
        Sq::new(delhi.col, delhi.row + 2),
    );
    let fcs = t.put(Nat::British, Kind::FlyingColumn, 3, Loc::Sq(delhi));
    let ids: Vec<String> = fcs.iter().map(|u| t.st.unit(*u).id.to_string()).collect();
    t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(delhi));
    t.run(BRITISH, &format!("move {}: {next} {beyond}", ids[0]), &[])
        .unwrap();
    assert_eq!(t.st.unit(fcs[0]).loc, Loc::Sq(beyond));
    t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(next));
    let e = t
        .run(BRITISH, &format!("move {}: {next} {beyond}", ids[1]), &[])
        .unwrap_err();
    assert!(e.contains("13.32"), "{e}");
    t.run(BRITISH, &format!("move {}: {next}", ids[2]), &[])
        .unwrap();
    assert_eq!(t.st.unit(fcs[2]).loc, Loc::Sq(next));
}

// 13.65: a force may not use a railroad of the enemy's; 13.64: rail
// movement runs along square sides only, never across a vertex.
#[test]
fn rail_moves_use_only_friendly_railroads_along_square_sides() {
    let mut t = empty(1);
    t.st.first_year = 1860;
    t.st.first = Power::Russian;
    umpire_ac::turn::open_phase(&mut t.st, 1, Power::Russian);
    let lay = |t: &mut T, squares: &[&str], owner: Power| {
        for s in squares {
            t.st.markers.push(Marker {
                sq: sq(s),
                owner,
                kind: MarkerKind::Railroad,
            });
        }
    };
    lay(&mut t, &["0403", "0503", "0603", "0703"], Power::British);
    lay(&mut t, &["0403"], Power::Russian);
    let g = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(sq("0403")))[0];
    let id = t.st.unit(g).id;
    let e = t
        .run(RUSSIAN, &format!("move {id}: rail:0703"), &[])
        .unwrap_err();
    assert!(e.contains("13.65"), "British rails: {e}");
    // A Russian line 0403-0504 touches only at a corner: not connected.
    lay(&mut t, &["0504"], Power::Russian);
    let e = t
        .run(RUSSIAN, &format!("move {id}: rail:0504"), &[])
        .unwrap_err();
    assert!(e.contains("13.64"), "{e}");
}

// 5.42(3) "If the region was formerly neutral [see 4(3) above]": ruling A14
// reads the reference as "by invasion" under `levy=invasion`; then a region
// won by negotiations (5.4(2)) raises no levy, and no die is rolled for it.
#[test]
fn with_levy_on_invasion_only_a_negotiated_region_raises_no_levy() {
    let mut t = empty_with(1, &[("levy", "invasion")]);
    t.agent("burnes", Loc::Sq(t.city("Kabul")));
    let ev = t
        .run(
            BRITISH,
            "negotiate AF agent burnes",
            &[("negotiations against AF (15.1(8))", 6)],
        )
        .unwrap();
    assert_eq!(t.st.control[t.region("AF")], Some(Power::British), "{ev:?}");
    assert_eq!(t.units_of("AF", |l| l.in_play()), 0, "{ev:?}");
}

// 10.5: in the income/expenditure phase a player may remove any friendly
// unit from the map at no cost (not counted as eliminated: it goes back to
// the counter mix); never the enemy's or a neutral's.
#[test]
fn a_player_disbands_his_own_units_only_and_for_nothing() {
    let mut t = empty(1);
    let delhi = t.city("Delhi");
    let mine = t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(delhi))[0];
    let theirs = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(delhi))[0];
    let kv = t.d().region("KV").unwrap();
    let neutral = t.put(
        Nat::Native(kv),
        Kind::Irregular,
        1,
        Loc::Sq(t.city("Khiva")),
    )[0];
    let (treasury, bop) = (t.st.treasury, t.st.bop);
    let disband = |t: &mut T, u| t.econ(Power::British, economy::EconOrder::Disband(u));
    for u in [theirs, neutral] {
        let e = disband(&mut t, u).unwrap_err();
        assert!(e.contains("10.5"), "{e}");
    }
    disband(&mut t, mine).unwrap();
    assert_eq!(t.st.unit(mine).loc, Loc::Pool);
    assert_eq!((t.st.treasury, t.st.bop), (treasury, bop));
}

// 13.22: a force may move across a diagonal without stopping even with
// enemy units on the two squares beside it (13.32 stops it only in a square
// it enters); ruling A22: but not between two all-sea squares.
#[test]
fn a_diagonal_move_passes_between_enemy_units() {
    let mut t = empty(1);
    t.russian_phase(1);
    let ws = t.control("WS", Some(Power::Russian));
    let irr = t.put(Nat::Native(ws), Kind::Irregular, 1, Loc::Sq(sq("0404")));
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(sq("0504")));
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(sq("0405")));
    let id = t.id(irr[0]);
    t.run(RUSSIAN, &format!("move {id}: 0505 0606"), &[])
        .unwrap();
    assert_eq!(t.st.unit(irr[0]).loc, Loc::Sq(sq("0606")));
    // Ruling A22: only a diagonal between two all-sea squares is closed. No
    // such corner is on the reconstructed map: made here by turning the two
    // squares beside 0606-0707 to sea, then one of them back.
    use umpire_ac::data::Terrain;
    let mut d = t.d().clone();
    let cols = d.cols;
    let mut set = |s: &str, terrain| {
        let s = sq(s);
        d.squares[((s.row - 1) * cols + s.col - 1) as usize].terrain = terrain;
    };
    set("0706", Terrain::Sea);
    set("0607", Terrain::Sea);
    t.st.unit_mut(irr[0]).moved = false;
    let path = [movement::Step::To(Loc::Sq(sq("0707")))];
    let force = [Piece::Unit(irr[0])];
    let mv = |d: &Data| movement::check(d, &t.st, Power::Russian, 1, &force, &path, false);
    let e = mv(&d).unwrap_err().to_string();
    assert!(e.contains("(13.71, ruling A22)"), "{e}");
    d.squares[((7 - 1) * cols + 6 - 1) as usize].terrain = Terrain::Clear;
    assert!(mv(&d).is_ok());
}

// 13.63: rail, cross country, then rail again, paying a movement point for
// the second rail move. A field force (4 MP): 1 + 1 + 1 + 1 reaches 0905;
// one square more is over its allowance, as it would not be if the second
// rail move were free.
#[test]
fn a_second_rail_move_after_cross_country_costs_another_movement_point() {
    let mut t = empty(1);
    t.st.first_year = 1860;
    t.russian_phase(1);
    t.lay_rails(&["0505", "0605", "0805", "0905"], Power::Russian);
    let f = t.put(Nat::Russian, Kind::FieldForce, 2, Loc::Sq(sq("0505")));
    let (a, b) = (t.id(f[0]), t.id(f[1]));
    let over = format!("move {a}: rail:0605 0705 0805 rail:0905 1005");
    t.refused(RUSSIAN, &over, "13.1, 11.3");
    t.run(
        RUSSIAN,
        &format!("move {b}: rail:0605 0705 0805 rail:0905"),
        &[],
    )
    .unwrap();
    assert_eq!(t.st.unit(f[1]).loc, Loc::Sq(sq("0905")));
}

// 13.83, 13.81, ruling A24: amphibious, cross country, then amphibious
// again: the first amphibious move pays 1 SP from the port of Krasnovodsk,
// the second "an extra supply point", though it starts on 0308 (a river
// square, no port, where a first move would pay 2): 2 in all, in the first
// operations phase too; the same for a second leg into the Urals (19.12).
// Version 5 charged each leg by its own start (3) and still does.
#[test]
fn a_second_amphibious_move_pays_one_more_supply_point() {
    use umpire_core::ruleset::DynRuleset;
    let mut t = empty(1);
    t.russian_phase(1);
    let (kr, gu) = (t.city("Krasnovodsk"), t.city("Gur'ev"));
    let f = t.put(Nat::Russian, Kind::FieldForce, 2, Loc::Sq(kr));
    let (a, b) = (t.id(f[0]), t.id(f[1]));
    let path = format!("move {a}: sea:{gu} 0308 sea:{kr}");
    t.st.sp[1] = 1;
    let e = t.run(RUSSIAN, &path, &[]).unwrap_err();
    // The refusal names the price by water and the SP there are.
    assert!(
        e.contains("the amphibious move costs 2 SP by water, and you have 1")
            && e.contains("(13.81, 13.83)"),
        "{e}"
    );
    let before = t.st.clone();
    let steps = [
        movement::Step::Sea(gu),
        movement::Step::To(Loc::Sq(sq("0308"))),
        movement::Step::Sea(kr),
    ];
    t.st.sp[1] = 4;
    t.run(RUSSIAN, &path, &[]).unwrap();
    assert_eq!((t.st.unit(f[0]).loc, t.st.sp[1]), (Loc::Sq(kr), 2));
    t.run(RUSSIAN, &format!("move {b}: sea:{gu} 0308 sea:urals"), &[])
        .unwrap();
    assert_eq!(
        (t.st.unit(f[1]).loc, t.st.sp[1]),
        (Loc::Base(Base::Urals), 0)
    );
    // Version 5, as its records replay.
    assert_eq!(DynRuleset::info(&t.r).version, umpire_ac::VERSION);
    let v5 = DynRuleset::at_version(&t.r, 5).expect("version 5 is kept");
    assert_eq!(v5.info().version, 5);
    assert!(DynRuleset::at_version(&t.r, 4).is_none());
    let mut d5 = t.d().clone();
    d5.version = 5;
    let plan = movement::check(
        &d5,
        &before,
        Power::Russian,
        1,
        &[Piece::Unit(f[0])],
        &steps,
        false,
    );
    let sp = plan.map(|p| p.sp).map_err(|e| e.to_string());
    assert!(
        sp.as_ref()
            .is_err_and(|e| e.contains("costs 3 SP by water")),
        "{sp:?}"
    );
}

// 17.62: no expeditionary supply point for a force on a friendly railroad
// square that traces contiguous railroad squares (across sides) to the home
// base; an enemy unit on the line cuts it.
#[test]
fn a_railroad_line_to_the_home_base_saves_the_expeditionary_supply_point() {
    let mut t = empty(1);
    t.lay_rails(&["0501", "0502", "0503"], Power::Russian);
    let g = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(sq("0503")))[0];
    let off = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(sq("0505")))[0];
    t.st.sp = [5, 0];
    provision(&mut t);
    assert!(t.st.unit(g).loc.in_play(), "on the line: no SP needed");
    assert_eq!(t.st.unit(off).loc, Loc::Pool, "17.6: off the line");
    // A British unit on 0502 (fed by British SP) cuts the line.
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(sq("0502")));
    provision(&mut t);
    assert_eq!(t.st.unit(g).loc, Loc::Pool);
}

// 19.15: a force may enter the map on a square holding enemy units; it
// stops there (13.32) and fights in the combat sub-phase.
#[test]
fn a_force_entering_the_map_onto_enemy_units_stops_and_fights() {
    let mut t = empty(1);
    let ws = t.control("WS", Some(Power::Russian));
    let edge = *t.d().base_edges[&Base::India].iter().next().unwrap();
    t.put(Nat::Native(ws), Kind::Irregular, 1, Loc::Sq(edge));
    let fc = t.put(Nat::British, Kind::FlyingColumn, 2, Loc::Base(Base::India));
    let (a, b) = (t.id(fc[0]), t.id(fc[1]));
    let on = Sq::new(edge.col, edge.row - 1);
    t.refused(BRITISH, &format!("move {a}: {edge} {on}"), "13.32, 13.62");
    t.run(BRITISH, &format!("move {a} {b}: {edge}"), &[])
        .unwrap();
    let ev = t
        .run(
            BRITISH,
            "end",
            &[(&format!("combat at {edge} (14.1(5))"), 6)],
        )
        .unwrap();
    assert!(
        ev.iter().any(|e| e.starts_with(&format!(
            "Combat at {edge}: the British attack with {a} {b} "
        ))),
        "{ev:?}"
    );
    assert!(!(t.st.occupies(edge, Power::British) && t.st.occupies(edge, Power::Russian)));
}

// 19.5: negotiations may not be conducted against a home base; the refusal
// says so, citing the rule.
#[test]
fn no_negotiations_against_a_home_base() {
    let mut t = empty(1);
    t.agent("burnes", Loc::Sq(t.city("Kabul")));
    for base in ["urals", "india"] {
        let e = t.refused(BRITISH, &format!("negotiate {base} agent burnes"), "19.5");
        assert!(e.contains("home base"), "{e}");
    }
}

// 32.3: one agent a discovery attempt; a second agent named is refused,
// citing the rule and pointing at the word, and nothing is rolled.
#[test]
fn a_discovery_attempt_takes_one_agent() {
    let mut t = empty_with(1, &[("discoveries", "on")]);
    let kabul = t.city("Kabul");
    t.agent("burnes", Loc::Sq(kabul));
    t.agent("pottinger", Loc::Sq(kabul));
    t.refused(BRITISH, "discover burnes pottinger", "32.3");
    // Nor after the Hashishan's target square (version 6).
    let e = t.refused(BRITISH, "discover burnes 2226 pottinger", "32.3");
    assert!(e.contains("column 22"), "{e}");
    // Version 5 ignored the extra word, and its records replay so.
    let mut d5 = t.d().clone();
    d5.version = 5;
    let text = lines("discover burnes 2226 pottinger");
    let read = umpire_ac::orders::parse(&d5, &t.st, Power::British, &text);
    assert!(read.is_ok(), "{read:?}");
}

// 20.34, 20.34(1) and its clarification: railroads from the 1860-64 turn;
// each square needs a red (blue) unit; the first of a line is a city or on
// the home-base edge, the next ones join it across square sides (never a
// vertex); a mountain square takes one only with a trade route in it and a
// railroad next to it, across a vertex too.
#[test]
fn railroads_are_placed_where_20_34_allows() {
    use umpire_ac::data::Terrain;
    let mut t = empty(1);
    t.st.treasury = [100, 100];
    let rail = |t: &mut T, s: Sq| {
        let kind = MarkerKind::Railroad;
        t.econ(Power::Russian, economy::EconOrder::Build { kind, sq: s })
    };
    let orenburg = t.city("Orenburg");
    let e = rail(&mut t, orenburg).unwrap_err();
    assert!(e.contains("(20.34)"), "before 1860: {e}");
    t.st.first_year = 1860;
    let e = rail(&mut t, orenburg).unwrap_err();
    assert!(e.contains("(20.34(1))"), "no blue unit: {e}");
    for s in ["0602", "0603", "0704", "0808", "2001"] {
        t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(sq(s)));
    }
    let e = rail(&mut t, sq("0808")).unwrap_err();
    assert!(e.contains("(20.34(1))"), "neither city nor edge: {e}");
    rail(&mut t, orenburg).unwrap();
    rail(&mut t, sq("0603")).unwrap();
    let e = rail(&mut t, sq("0704")).unwrap_err();
    assert!(e.contains("(20.34(1))"), "across a vertex: {e}");
    assert!(t.d().base_edges[&Base::Urals].contains(&sq("2001")));
    rail(&mut t, sq("2001")).unwrap();
    // Mountains: with a trade route and a railroad across a vertex; without
    // a route, not even beside one.
    let d = t.d().clone();
    let mountain = |s: &Sq| d.sq(*s).is_some_and(|i| i.terrain == Terrain::Mountain);
    let routed = |s: &Sq| d.route_edges.iter().any(|(a, _)| a == s);
    let pass = d.all_squares().find(|s| mountain(s) && routed(s)).unwrap();
    let peak = d
        .all_squares()
        .find(|s| mountain(s) && !routed(s) && d.city_at(*s).is_none())
        .unwrap();
    let corner = |s: Sq| {
        s.around()
            .iter()
            .find(|(n, diag)| *diag && d.land(*n))
            .unwrap()
            .0
    };
    let side = |s: Sq| {
        s.around()
            .iter()
            .find(|(n, diag)| !*diag && d.land(*n))
            .unwrap()
            .0
    };
    let (c, n) = (corner(pass), side(peak));
    t.lay_rails(&[&c.to_string(), &n.to_string()], Power::Russian);
    for s in [pass, peak] {
        t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(s));
    }
    let e = rail(&mut t, peak).unwrap_err();
    assert!(e.contains("(20.34 clarification)"), "{e}");
    rail(&mut t, pass).unwrap();
}

// N12 (17.3, 17.6): with the standing order `supply: none` the British pay
// no supply point in provisioning, so the 17.6 example's square loses its
// expeditionary units (red and North Indian) though two SP are in hand; the
// Afghan, at home and within the forage value, stays.
#[test]
fn with_supply_none_no_supply_point_is_spent_in_provisioning() {
    let (all, mut t) = provisioned(0);
    for u in &all {
        t.st.unit_mut(*u).loc = Loc::Sq(sq("2227"));
    }
    t.r.set_standing(&mut t.st, BRITISH, &lines("supply: none"))
        .unwrap();
    t.st.sp[0] = 2;
    provision(&mut t);
    let kept: Vec<UnitId> = all
        .iter()
        .copied()
        .filter(|u| t.st.unit(*u).loc.in_play())
        .collect();
    assert_eq!((kept, t.st.sp[0]), (vec![all[3]], 2));
}

// 7.1, 7.2: the player the index favours chooses who is first; `initiative
// second` makes the other player first, and he opens the operations phases.
#[test]
fn the_favoured_player_may_choose_to_move_second() {
    let mut t = game("s1", &[]);
    // 9.1: the first player collects his income first.
    let opening = [
        ("Ranjit Singh (S1 7.2)", 4),
        ("home government income, Russian (9.1(1))", 3),
        ("home government income, British (9.1(1))", 3),
    ];
    t.refused(RUSSIAN, "initiative first", "7.1");
    t.run(BRITISH, "initiative second", &opening).unwrap();
    assert_eq!(t.st.first, Power::Russian);
    t.run(BRITISH, "done", &[]).unwrap();
    t.run(RUSSIAN, "done", &[]).unwrap();
    assert!(matches!(&t.st.stage, Stage::Ops(ph) if ph.k == 1 && ph.side == Power::Russian));
}

// N14 `captured: execute` (16.42(2)): a named agent the capture check
// catches (16.41) is executed at once, and the index shifts one toward his
// side, as for a prisoner executed later.
#[test]
fn with_captured_execute_a_caught_agent_is_executed_at_once() {
    let mut t = empty(1);
    let s = t.city("Meshed");
    t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s));
    t.control("PE", Some(Power::British));
    let vit = t.agent("vitkovitch", Loc::Sq(s));
    t.r.set_standing(&mut t.st, BRITISH, &lines("captured: execute"))
        .unwrap();
    t.st.bop = 3;
    let ev = t
        .run(BRITISH, "end", &[("capture check, Vitkovitch (16.41)", 3)])
        .unwrap();
    assert_eq!(t.st.agent(vit).loc, Loc::Dead, "{ev:?}");
    assert_eq!(t.st.bop, 2);
}

/// The British `attempt` after the Russian standing `order` (none if
/// empty), with its one die; asserts the differential it reports.
fn countered(t: &mut T, order: &str, attempt: &str, die: (&str, u32), diff: i32) {
    if !order.is_empty() {
        t.r.set_standing(&mut t.st, RUSSIAN, &lines(order)).unwrap();
    }
    let ev = t.run(BRITISH, attempt, &[die]).unwrap();
    let want = format!("differential {diff},");
    assert!(ev.iter().any(|e| e.contains(&want)), "{order}: {ev:?}");
}

// N1 (15.1(4)-(5)): the non-phasing player's counter negotiations by
// standing order: his best agent in the capital, with the pounds the order
// names (at most the agent's political value, 15.4), or none at all.
// Burnes 2 + 2 pounds against Vitkovitch 2: differential 2 with no pounds
// (the default), 1 with `pounds 1`, 0 with `max`, 4 with `counter: none`.
#[test]
fn counter_negotiations_follow_the_standing_order() {
    for (order, diff, spent) in [
        ("", 2, 0),
        ("counter: best pounds 1", 1, 1),
        ("counter: best pounds max", 0, 2),
        ("counter: none", 4, 0),
    ] {
        let mut t = empty(1);
        let kabul = t.city("Kabul");
        t.agent("burnes", Loc::Sq(kabul));
        t.agent("vitkovitch", Loc::Sq(kabul));
        let before = t.st.treasury[1];
        let attempt = "negotiate AF agent burnes pounds 2";
        countered(
            &mut t,
            order,
            attempt,
            ("negotiations against AF (15.1(8))", 3),
            diff,
        );
        assert_eq!(before - t.st.treasury[1], spent, "{order}");
    }
}

// N2 (15.61(4)): the non-phasing player's agent in the capital counters an
// ultimatum by default (the strength there times his political value);
// `counter-ultimatum: none` leaves the defence at 0. Two red brigades (5)
// and Burnes (2), 10, against two Afghan irregulars (4) and Vitkovitch
// (2), 8.
#[test]
fn counter_ultimatums_follow_the_standing_order() {
    for (order, diff) in [("", 2), ("counter-ultimatum: none", 10)] {
        let mut t = kabul_ultimatum("vitkovitch");
        let attempt = "ultimatum AF agent burnes";
        countered(
            &mut t,
            order,
            attempt,
            ("ultimatum against AF (15.1(8))", 1),
            diff,
        );
    }
}

// 11.4: all friendly units in a square fight as one combined force,
// attacking or defending: a red garrison with North Indian irregulars
// attacks Russian-controlled West Siberian irregulars with a blue garrison,
// every unit of both sides named and counted.
#[test]
fn every_unit_in_the_square_fights_as_one_force() {
    let mut t = empty(1);
    let ws = t.control("WS", Some(Power::Russian));
    let ni = t.d().region("NI").unwrap();
    let s = t.open_square("NI");
    let mut att = t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(s));
    att.extend(t.put(Nat::Native(ni), Kind::Irregular, 2, Loc::Sq(s)));
    let mut def = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(s));
    def.extend(t.put(Nat::Native(ws), Kind::Irregular, 1, Loc::Sq(s)));
    t.st.open_war = Some(Power::Russian);
    let d = t.r.data().clone();
    let sum = |us: &[UnitId]| us.iter().map(|u| t.st.strength(&d, *u)).sum::<u32>();
    let (a, m) = (sum(&att), combat::multiplier(&d, &t.st, s, Power::Russian));
    let want = format!("{a} against {} (x{m})", sum(&def) * m);
    let ids = |us: &[UnitId]| us.iter().map(|u| t.id(*u)).collect::<Vec<_>>().join(" ");
    let listed = format!("with {} against {}", ids(&att), ids(&def));
    let ev = t
        .run(BRITISH, "end", &[(&format!("combat at {s} (14.1(5))"), 3)])
        .unwrap();
    assert!(ev.iter().any(|e| e.contains(&listed)), "{listed}: {ev:?}");
    assert!(ev.iter().any(|e| e.contains(&want)), "{want}: {ev:?}");
    // Die 3 on the stand-in Raid CRT at 1.5:1 is DR: the force retreats whole.
    let to = t.st.unit(def[0]).loc;
    assert!(to != Loc::Sq(s) && t.st.unit(def[1]).loc == to, "{ev:?}");
}

// 11.4, 14.21, 5.42(2): an uprising between turns (5.4(1)) gives a neutral
// region's units to one player where the other's combat units stand beside
// them. Nothing in the rules moves them apart; combat is mandatory in the
// combat sub-phase (14.21), so they fight in the first player's first one,
// and from then on no square holds both players' combat units (11.4 note).
// Found by self-play at scale (seeds 1005 and 1009, 5,000 games each).
#[test]
fn units_an_uprising_sets_beside_the_enemy_fight_in_the_first_combat_sub_phase() {
    let mut t = empty(1);
    t.st.bop = 1;
    let kv = t.region("KV");
    assert_eq!(t.st.control[kv], None, "KV starts neutral in S1");
    let s = t.open_square("KV");
    let rus = t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(s));
    let kvi = t.put(
        Nat::Native(RegionId(kv as u8)),
        Kind::Irregular,
        1,
        Loc::Sq(s),
    );
    t.r.set_standing(&mut t.st, BRITISH, &lines("uprising: KV"))
        .unwrap();
    let ev = pro_british_uprising_taking_kv(&mut t);
    assert_eq!(t.st.control[kv], Some(Power::British), "{ev:?}");
    assert!(t.st.occupies(s, Power::British) && t.st.occupies(s, Power::Russian));
    // Between the events and the first combat the stack is legal.
    let ops = t.st.stage.clone();
    t.st.stage = Stage::Economy;
    assert_eq!(t.r.invariants(&t.st), Ok(()));
    t.st.stage = ops;
    assert_eq!(t.r.invariants(&t.st), Ok(()));
    // The British pass their first phase: the combat is fought all the same.
    let ev = t
        .run(BRITISH, "end", &[(&format!("combat at {s} (14.1(5))"), 3)])
        .unwrap();
    assert!(
        ev.iter().any(|e| e.contains(&format!("Combat at {s}"))),
        "{ev:?}"
    );
    let both = t.st.occupies(s, Power::British) && t.st.occupies(s, Power::Russian);
    assert!(!both, "{ev:?}");
    assert!(
        t.st.unit(rus[0]).loc != Loc::Sq(s) || t.st.unit(kvi[0]).loc != Loc::Sq(s),
        "{ev:?}"
    );
    assert!(matches!(&t.st.stage, Stage::Ops(ph) if ph.k == 1 && ph.side == Power::Russian));
    assert_eq!(t.r.invariants(&t.st), Ok(()));
}

// 12.3: a player may pass an operations phase (`end` with no orders) and
// operate again later in the turn: the British pass phase 1 and move in
// phase 2 (one SP, 12.2(2)).
#[test]
fn a_player_may_pass_an_operations_phase_and_move_later() {
    let mut t = empty(1);
    let delhi = t.city("Delhi");
    let g = t.put(Nat::British, Kind::FlyingColumn, 1, Loc::Sq(delhi))[0];
    t.run(BRITISH, "end", &[]).unwrap();
    t.run(RUSSIAN, "end", &[]).unwrap();
    assert!(matches!(&t.st.stage, Stage::Ops(ph) if ph.k == 2 && ph.side == Power::British));
    t.st.sp[0] = 1;
    let to = Sq::new(delhi.col, delhi.row + 1);
    t.run(BRITISH, &format!("move {}: {to}", t.id(g)), &[])
        .unwrap();
    assert_eq!((t.st.unit(g).loc, t.st.sp[0]), (Loc::Sq(to), 0));
}

// ---- 18.0 Reorganization ----

// 18.2: a division/horde is two or three brigades/groups, and the new units
// must be equivalent to the old.
#[test]
fn reorganization_keeps_the_equivalents() {
    let (mut t, u) = reorganizing();
    t.refused(
        BRITISH,
        &format!("reorganize {} {} into 3", u[0], u[1]),
        "18.2",
    );
    t.refused(
        BRITISH,
        &format!("reorganize {} {} {} into 4", u[0], u[1], u[2]),
        "18.2",
    );
    t.refused(
        BRITISH,
        &format!("reorganize {} {} {} into 2+2", u[0], u[1], u[2]),
        "18.2",
    );
    t.refused(BRITISH, &format!("reorganize {} {}", u[0], u[1]), "18.2");
}

// 18.3: only units of the same nationality and type; 18.1: one's own, in
// one square, each once.
#[test]
fn reorganization_takes_one_nationality_and_type() {
    let (mut t, u) = reorganizing();
    // A field force with a flying column; with Punjabis (same type,
    // another nationality).
    t.refused(
        BRITISH,
        &format!("reorganize {} {} into 2", u[0], u[3]),
        "18.3",
    );
    t.refused(
        BRITISH,
        &format!("reorganize {} {} into 2", u[0], u[5]),
        "18.3",
    );
    t.refused(
        BRITISH,
        &format!("reorganize {} {} into 2", u[4], u[4]),
        "18.1",
    );
    t.refused(
        BRITISH,
        &format!("reorganize {} {} into 2", u[0], u[0]),
        "18.1",
    );
    let kabul = t.city("Kabul");
    let b2 = t.st.units.iter().position(|x| x.id == u[1]).unwrap();
    t.st.units[b2].loc = Loc::Sq(kabul);
    t.refused(
        BRITISH,
        &format!("reorganize {} {} into 2", u[0], u[1]),
        "18.1",
    );
}

// Version 6 knew no `reorganize`: its records replay with the refusal.
#[test]
fn version_6_has_no_reorganize_order() {
    let (t, u) = reorganizing();
    let mut d6 = t.d().clone();
    d6.version = 6;
    let text = lines(&format!("reorganize {} {} into 2", u[0], u[1]));
    let read = umpire_ac::orders::parse(&d6, &t.st, Power::British, &text);
    assert!(read.is_err(), "{read:?}");
    let read = umpire_ac::orders::parse(t.d(), &t.st, Power::British, &text);
    assert!(read.is_ok(), "{read:?}");
    let v6 = umpire_core::ruleset::DynRuleset::at_version(&t.r, 6).expect("version 6 is kept");
    assert_eq!(v6.info().version, 6);
}

/// `text` applied by `p` under the data `d` (a version the umpire keeps), as
/// its record replays; the events (text and audience) or the refusal.
fn apply_at(
    d: &Data,
    st: &mut State,
    p: Power,
    text: &str,
) -> Result<Vec<(String, Audience)>, String> {
    let orders = umpire_ac::orders::parse(d, st, p, &lines(text)).map_err(|e| e.to_string())?;
    let mut dice = Dice::recorded(Vec::new());
    let mut out = Vec::new();
    for (_, o) in &orders {
        let ev = umpire_ac::turn::apply(d, st, p, o, &mut dice).map_err(|e| e.to_string())?;
        out.extend(ev.into_iter().map(|e| (e.text, e.audience)));
    }
    Ok(out)
}

// 18.0: "A player may replace smaller units with larger units, and vice
// versa, at any point in the game": from version 8 in a move of his own
// operations phase too, told to him alone (22.0), and still checked by 18.1-
// 18.3; the other player may not write in that phase (3.1[4]). Version 7
// took it in the economy round only, and its records replay so.
#[test]
fn reorganization_is_taken_in_an_operations_move_too() {
    let (mut t, u) = reorganizing();
    umpire_ac::turn::open_phase(&mut t.st, 2, Power::British);
    let before = t.st.clone();
    let order = format!("reorganize {} {} {} into 2+1", u[0], u[1], u[2]);
    let ev = apply_at(&t.d().clone(), &mut t.st, Power::British, &order).unwrap();
    assert!(
        ev.iter()
            .all(|(e, a)| e.contains("18.0") && *a == Audience::side(BRITISH)),
        "{ev:?}"
    );
    assert_eq!(t.st.units, before.units, "equivalents unchanged (18.2)");
    assert_eq!(t.st.stage, before.stage, "the phase goes on");
    // The order line, too, stays the player's own (22.0).
    let read = umpire_ac::orders::parse(t.d(), &t.st, Power::British, &lines(&order)).unwrap();
    assert_eq!(
        t.r.order_audience(&t.st, BRITISH, &read[0].1),
        Audience::side(BRITISH)
    );
    t.refused(
        BRITISH,
        &format!("reorganize {} {} into 2", u[0], u[3]),
        "18.3",
    );
    // After it the force still moves as before (one SP in phase 2, 12.2(2)).
    t.st.sp[0] = 1;
    t.run(BRITISH, &format!("move {} {}: 3135", u[0], u[1]), &[])
        .unwrap();
    let e = t
        .run(RUSSIAN, &format!("reorganize {} into 1", u[4]), &[])
        .unwrap_err();
    assert!(e.contains("(3.1[4])"), "{e}");
    let mut d7 = t.d().clone();
    d7.version = 7;
    let mut st = before.clone();
    let e = apply_at(&d7, &mut st, Power::British, &order).unwrap_err();
    assert!(e.contains("(12.1)"), "version 7: {e}");
    let v7 = umpire_core::ruleset::DynRuleset::at_version(&t.r, 7).expect("version 7 is kept");
    assert_eq!(v7.info().version, 7);
}

// 18.4: "Units may be reorganized during initial setup": from version 8 a
// setter's mail may reorganize the brigades he sets up (S1 Russian 3.1(1):
// Orenburg's two field force brigades), told to him alone; the other
// setter may not while waiting (26.0). Version 7 refused it there.
#[test]
fn a_setter_may_reorganize_his_brigades_at_set_up() {
    let mut t = game("s1", &[("setup", "chosen")]);
    assert_eq!(t.st.stage, Stage::Setup(Power::Russian));
    let orenburg = Loc::Sq(t.city("Orenburg"));
    let ff: Vec<String> =
        t.st.units
            .iter()
            .filter(|x| x.nat == Nat::Russian && x.kind == Kind::FieldForce && x.loc == orenburg)
            .map(|x| x.id.to_string())
            .collect();
    assert_eq!(ff.len(), 2, "S1 3.1(1): two field force brigades");
    let order = format!("reorganize {} {} into 2", ff[0], ff[1]);
    let e = t
        .run(BRITISH, "reorganize bf1 bf2 into 2", &[])
        .unwrap_err();
    assert!(e.contains("(26.0)"), "{e}");
    let before = t.st.clone();
    let ev = apply_at(&t.d().clone(), &mut t.st, Power::Russian, &order).unwrap();
    // The mail's implied `done` ends his set-up after it.
    assert!(
        ev[0].0.contains("18.0") && ev[0].1 == Audience::side(RUSSIAN),
        "{ev:?}"
    );
    assert_eq!(t.st.units, before.units);
    assert_eq!(t.st.stage, Stage::Setup(Power::British));
    let mut d7 = t.d().clone();
    d7.version = 7;
    let mut st = before;
    let e = apply_at(&d7, &mut st, Power::Russian, &order).unwrap_err();
    assert!(e.contains("(26.0)"), "version 7: {e}");
}

// 15.62: the Ultimatum Table's last row is "7(+)": a modified roll above 7
// reads it. Burnes alone in Kabul (totals 0 and 0, the "0(-)" column), the
// index moderately pro-British (+1) and a British colony in Afghanistan
// (+1): a 6 reads 8, so row 7, T, where row 6 would be "-".
#[test]
fn an_ultimatum_roll_above_seven_reads_the_last_row() {
    let mut t = empty_with(1, &[("ultimatums", "on")]);
    t.st.bop = 8;
    let kabul = t.city("Kabul");
    t.agent("burnes", Loc::Sq(kabul));
    t.st.markers.push(Marker {
        sq: t.city("Kandahar"),
        owner: Power::British,
        kind: MarkerKind::Colony,
    });
    let af = t.d().region("AF").unwrap();
    assert_eq!(negotiate::drm(t.d(), &t.st, Power::British, af), 2);
    let ev = t
        .run(
            BRITISH,
            "ultimatum AF agent burnes",
            &[
                ("ultimatum against AF (15.1(8))", 6),
                ("invasion defence levy, AF (5.42(3))", 1),
            ],
        )
        .unwrap();
    assert!(
        ev.iter()
            .any(|e| e.contains("differential 0") && e.contains(": T ")),
        "{ev:?}"
    );
    assert_eq!(t.st.control[t.region("AF")], Some(Power::British));
}

// 14.74 clarification: rivers do not increase the defender's strength. A
// clear river square with no city or fort multiplies by one, as a clear
// square off the river does.
#[test]
fn rivers_do_not_multiply_the_defence() {
    use umpire_ac::data::Terrain;
    let t = empty(1);
    let d = t.d();
    let plain = |river: bool| {
        (1..=40)
            .flat_map(|c| (1..=40).map(move |r| Sq::new(c, r)))
            .find(|s| {
                d.sq(*s).is_some_and(|i| {
                    i.terrain == Terrain::Clear && i.city.is_none() && i.river == river
                })
            })
            .expect("a clear square")
    };
    for s in [plain(true), plain(false)] {
        assert_eq!(combat::multiplier(d, &t.st, s, Power::Russian), 1, "{s}");
    }
}

// 17.32 (and the Terrain Effects Chart errata): a desert square, forage 0,
// feeds one irregular unit; a second, with no SP, starves (17.4). The units
// are natives at home, so not expeditionary (17.6).
#[test]
fn a_desert_square_feeds_one_irregular() {
    use umpire_ac::data::Terrain;
    let mut t = empty(1);
    let d = t.d().clone();
    let (s, r) = (1..=40)
        .flat_map(|c| (1..=40).map(move |r| Sq::new(c, r)))
        .find_map(|s| {
            let i = d.sq(s)?;
            let r = i.region?;
            let irregulars =
                t.st.units
                    .iter()
                    .filter(|u| u.nat == Nat::Native(r) && u.kind == Kind::Irregular)
                    .count();
            (i.terrain == Terrain::Desert && i.city.is_none() && irregulars >= 2).then_some((s, r))
        })
        .expect("a desert square of a region with two irregulars");
    t.st.control[r.0 as usize] = Some(Power::British);
    let two = t.put(Nat::Native(r), Kind::Irregular, 2, Loc::Sq(s));
    t.st.sp[0] = 0;
    provision(&mut t);
    let kept = two.iter().filter(|u| t.st.unit(**u).loc.in_play()).count();
    assert_eq!(kept, 1, "one irregular forages in the desert ({s})");
}

// 17.4 clarification: provisioning is not operations: an agent alone, in
// automatic supply (17.31), still pays a supply point to move in the 2nd
// and later operations phases (12.2).
#[test]
fn an_agent_alone_pays_for_a_later_operation() {
    let mut t = empty(2);
    let delhi = t.city("Delhi");
    t.agent("burnes", Loc::Sq(delhi));
    let to = Sq::new(delhi.col, delhi.row + 1);
    t.st.sp[0] = 0;
    t.refused(BRITISH, &format!("move burnes: {to}"), "12.2(2)");
    t.st.sp[0] = 1;
    t.run(BRITISH, &format!("move burnes: {to}"), &[]).unwrap();
    assert_eq!(t.st.sp[0], 0);
}

// 20.31(1) clarification: a colony needs no trading post in its square, and
// a trading post makes it no cheaper.
#[test]
fn a_colony_costs_the_same_with_or_without_a_trading_post() {
    let cost = |post: bool| {
        let mut t = empty(1);
        t.st.treasury = [100, 100];
        let delhi = t.city("Delhi");
        t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(delhi));
        t.agent("burnes", Loc::Sq(delhi));
        if post {
            t.st.markers.push(Marker {
                sq: delhi,
                owner: Power::British,
                kind: MarkerKind::TradingPost,
            });
        }
        t.econ(
            Power::British,
            economy::EconOrder::Build {
                kind: MarkerKind::Colony,
                sq: delhi,
            },
        )
        .unwrap();
        100 - t.st.treasury[0]
    };
    let (without, with) = (cost(false), cost(true));
    assert!(without > 0);
    assert_eq!(without, with);
}

// Errata to the Balance of Power Changes Chart: a Russian trading post or
// railroad eliminated shifts the index one toward Russia (-1), a British one
// one toward Britain (+1); a colony two (20.51, tested above).
#[test]
fn an_eliminated_trading_post_or_railroad_shifts_the_index_one() {
    for (kind, owner) in [
        (MarkerKind::TradingPost, Power::Russian),
        (MarkerKind::Railroad, Power::Russian),
        (MarkerKind::TradingPost, Power::British),
        (MarkerKind::Railroad, Power::British),
    ] {
        let mut t = empty(1);
        let o = t.city("Orenburg");
        t.st.markers.push(Marker { sq: o, owner, kind });
        t.st.bop = 3;
        let before = t.st.bop;
        t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(o));
        if owner == Power::Russian {
            t.run(BRITISH, &format!("massacre {o}\nend"), &[]).unwrap();
        } else {
            umpire_ac::turn::open_phase(&mut t.st, 1, Power::Russian);
            t.st.units.iter_mut().for_each(|u| {
                if u.nat == Nat::British {
                    u.loc = Loc::Pool;
                }
            });
            t.put(Nat::Russian, Kind::FieldForce, 1, Loc::Sq(o));
            t.run(RUSSIAN, &format!("massacre {o}\nend"), &[]).unwrap();
        }
        assert!(t.st.markers.is_empty(), "{kind:?}");
        let want = bop::shifted(t.d(), before, owner, 1);
        assert_eq!(t.st.bop, want, "{kind:?} of the {owner:?}");
    }
}

// S2 7.0a: no random events on the first turn; S2 7.0b: the Indian Mutiny
// has occurred, so rolling it later (stand-in D5) is No Event.
#[test]
fn scenario_2_starts_without_events_and_after_the_mutiny() {
    let mut t = game("s2", &[]);
    let chooser = umpire_ac::turn::chooser(&t.st);
    let side = if chooser == Power::British {
        BRITISH
    } else {
        RUSSIAN
    };
    // Income is rolled first player first.
    let mut rolls = [
        ("home government income, British (9.1(1))", 1),
        ("home government income, Russian (9.1(1))", 1),
    ];
    if chooser == Power::Russian {
        rolls.reverse();
    }
    let ev = t.run(side, "initiative first", &rolls).unwrap();
    assert!(ev.iter().any(|e| e.contains("S2 7.0a")), "{ev:?}");
    assert_eq!(t.st.stage, Stage::Economy);
    t.st.bop = 2;
    let ev = events_with(
        &mut t,
        3,
        &[
            ("random events, column roll by the British (8.1(1))", 5),
            ("random events, column D (8.1(2))", 5),
            ("random events, column C (8.1(2))", 3),
        ],
    );
    assert!(
        ev.iter()
            .any(|e| e.contains("D5: No Event (the Mutiny has occurred, S2 7.0b)")),
        "{ev:?}"
    );
}

// 22.3: "Agents may be placed face down, showing only the flag": from
// version 8 a player may show his agent face up (`show AGENT`, in the open)
// and the other player then sees who stands there alone; `hide` turns him
// face down again. In a stack with units he stays unseen (ruling A57); only
// one's own agents on the map; version 7 knew no such order.
#[test]
fn an_agent_shown_face_up_is_seen_alone_and_hidden_again() {
    use umpire_ac::view::stacks;
    let mut t = empty(1);
    let s = sq("2226");
    t.agent("burnes", Loc::Sq(s));
    t.agent("vitkovitch", Loc::Sq(t.city("Herat")));
    let seen = |t: &T| -> String {
        stacks(t.d(), &t.st, umpire_ac::view::of(Power::Russian))
            .into_iter()
            .find(|l| l.starts_with(&s.to_string()))
            .unwrap_or_default()
    };
    assert!(seen(&t).contains("agent flag (British)"), "{}", seen(&t));
    assert!(!seen(&t).contains("burnes"));
    let ev = apply_at(&t.d().clone(), &mut t.st, Power::British, "show burnes").unwrap();
    assert!(
        ev.iter()
            .all(|(e, a)| e.contains("(22.3)") && *a == Audience::All),
        "{ev:?}"
    );
    assert!(seen(&t).contains("burnes(British)"), "{}", seen(&t));
    let read =
        umpire_ac::orders::parse(t.d(), &t.st, Power::British, &lines("show burnes")).unwrap();
    assert_eq!(
        t.r.order_audience(&t.st, BRITISH, &read[0].1),
        Audience::All
    );
    // With a unit in the square the stack hides him again.
    let f = t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(s))[0];
    assert!(
        seen(&t).contains("a stack (British)") && !seen(&t).contains("burnes"),
        "{}",
        seen(&t)
    );
    t.st.unit_mut(f).loc = Loc::Pool;
    let ev = t.run(BRITISH, "hide burnes", &[]).unwrap();
    assert!(
        ev.iter().all(|e| !e.contains(&s.to_string())),
        "hiding places him: {ev:?}"
    );
    assert!(seen(&t).contains("agent flag (British)") && !seen(&t).contains("burnes"));
    t.refused(BRITISH, "hide burnes", "22.3");
    t.refused(BRITISH, "show vitkovitch", "22.3");
    t.refused(BRITISH, "show conolly", "22.3");
    t.refused(BRITISH, "show burnes vitkovitch", "22.3");
    let mut d7 = t.d().clone();
    d7.version = 7;
    let read = umpire_ac::orders::parse(&d7, &t.st, Power::British, &lines("show burnes"));
    assert!(read.is_err(), "version 7: {read:?}");
}

// Ruling A57, 22.3: a face-down agent in a stack with units is not seen at
// all, not even his flag: a neutral stack with a British agent in it shows
// the Russians "a stack (neutral AF)", no "British", in the status and on
// the board; else the flag would let them follow the agent.
#[test]
fn a_face_down_agent_in_a_fogged_neutral_stack_shows_no_flag() {
    use umpire_ac::view::{of, stacks};
    use umpire_core::board::Board;
    let mut t = empty(1);
    let af = t.d().region("AF").unwrap();
    let kabul = t.city("Kabul");
    t.put(Nat::Native(af), Kind::Irregular, 2, Loc::Sq(kabul));
    t.agent("burnes", Loc::Sq(kabul));
    let russian = of(Power::Russian);
    let line = stacks(t.d(), &t.st, russian)
        .into_iter()
        .find(|l| l.starts_with(&kabul.to_string()))
        .unwrap();
    assert!(line.contains("a stack (neutral AF)"), "{line}");
    assert!(
        !line.contains("British") && !line.contains("burnes"),
        "{line}"
    );
    let Some(Board::Square(b)) = t.r.view(&t.st, russian).board else {
        panic!("a square board")
    };
    let sides: Vec<Option<char>> = b.cells[&kabul].units.iter().map(|u| u.side).collect();
    assert_eq!(sides, vec![Some('n')], "one neutral stack, no British flag");
    // The British see their agent, and the umpire's view too.
    let mine = stacks(t.d(), &t.st, of(Power::British));
    assert!(
        mine.iter().any(|l| l.contains("burnes(British)")),
        "{mine:?}"
    );
}

// 22.3 "may be placed face down": the choice is the setter's at set-up too
// (from version 8): S1 3.1(1)'s Perovski, set up at Orenburg, shown face up.
#[test]
fn a_setter_may_place_his_agent_face_up() {
    let mut t = game("s1", &[("setup", "chosen")]);
    let p = AgentId(t.d().find_agent("perovski").unwrap() as u16);
    assert!(t.st.agent(p).loc.in_play());
    let ev = apply_at(&t.d().clone(), &mut t.st, Power::Russian, "show perovski").unwrap();
    assert!(
        ev[0].0.contains("(22.3)") && ev[0].1 == Audience::All,
        "{ev:?}"
    );
    assert!(t.st.agent(p).face_up);
}

// 13.32: the enemy-held squares the move search reads in one pass are the
// squares `enemy_at` names, for both sides, in a scenario's opening.
#[test]
fn enemy_squares_agree_with_enemy_at() {
    let t = game("s1", &[]);
    let d = t.d();
    for p in [Power::British, Power::Russian] {
        let mask = movement::enemy_squares(d, &t.st, p);
        let mut held = 0;
        for s in d.all_squares() {
            let i = d.index(s).unwrap();
            assert_eq!(mask[i], movement::enemy_at(&t.st, s, p), "{p:?} at {s}");
            held += usize::from(mask[i]);
        }
        assert!(held > 0, "{p:?} sees no enemy-held square");
    }
}

// 17.1, 9.3: any number of SP may be written, and is paid for in full: a
// number past what any treasury holds is refused at once (it used to be
// priced one SP at a time, minutes for `buy 166666666`, and the price of
// four thousand million SP wrapped round to a few pounds).
#[test]
fn a_huge_buy_is_refused_at_once_for_want_of_pounds() {
    let mut t = game("s1", &[]);
    t.run(
        BRITISH,
        "initiative first",
        &[
            ("Ranjit Singh (S1 7.2)", 4),
            ("home government income, British (9.1(1))", 3),
            ("home government income, Russian (9.1(1))", 3),
        ],
    )
    .unwrap();
    let start = std::time::Instant::now();
    for n in ["166666666", "4294967295", "2147483648"] {
        let e = t.run(RUSSIAN, &format!("buy {n}"), &[]).unwrap_err();
        assert!(e.contains("(9.3)") && e.contains("pounds"), "{n}: {e}");
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(t.st.sp[1], 0, "nothing bought");
}
