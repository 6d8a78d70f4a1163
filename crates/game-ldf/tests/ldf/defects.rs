//! Lest Darkness Fall: rule defects found against the rulebook and the
//! orders that were accepted and silently altered, each refused with its
//! rule or told in the events from version 14; the earlier behaviour stays
//! reachable for old records (`at_version(13)`). Every test stands on the
//! small fixture map (`crates/game-ldf/tests/fixtures/ldf/map.toml`) and cites its rule.

use crate::kit as ldf_kit;

use ldf_kit::{GP, ROMAN, T, h, say};
use umpire_ldf::data::Outcome;
use umpire_ldf::state::{Gallic, Player, Stage};

// The fixture map loads through the same reader as a club's files, without
// the rulebook's fixed hexes; a club's file without them is still refused.
#[test]
fn a_fixture_map_loads_but_a_club_map_must_hold_the_rulebooks_hexes() {
    use umpire_ldf::data::{Data, OOB_TOML, TABLES_TOML};
    let t = T::fixture();
    assert_eq!(t.d().special.rome, h("3314"));
    assert_eq!(t.d().hex(h("3314")).unwrap().tp, 4);
    let e = Data::load(ldf_kit::FIXTURE_MAP, OOB_TOML, TABLES_TOML).unwrap_err();
    assert!(
        e.iter()
            .any(|m| m.contains("special.rome is 3314; the rulebook says 3318")),
        "{e:?}"
    );
    // What any map needs is still checked: a place in the sea.
    let wet = ldf_kit::FIXTURE_MAP.replacen("hex = \"3116\"", "hex = \"3117\"", 1);
    let e = Data::fixture(&wet, OOB_TOML, TABLES_TOML).unwrap_err();
    assert!(e.iter().any(|m| m.contains("not a land hex")), "{e:?}");
}

// 6.6: "He thereby receives double the normal TP for each such emergency
// taxed hex". The collection already counted the hex's normal TP, so the
// tax adds the other half (version 13 added double on top: triple).
#[test]
fn emergency_taxation_yields_double_the_normal_tp_not_triple() {
    for (version, more) in [(14, 2), (13, 4)] {
        let mut t = T::fixture().at_version(version);
        t.end_turn();
        assert_eq!((t.st.turn, t.st.stage), (2, Stage::AdminRoman));
        let collected = t.st.treasury;
        // Mediolanum (3213), a city: 2 TP, collected above.
        let ev = t.ok(ROMAN, "tax 3213", &[]);
        assert_eq!(
            t.st.treasury,
            collected + more,
            "version {version}: {}",
            say(&ev)
        );
        assert!(t.st.looted.contains(&h("3213")));
    }
}

// 6.6, 6.10: taxed to cover a deficit, a hex yields double its TP over the
// turn: the other half after the collection, the whole double in Turn 1,
// which has none (5.3).
#[test]
fn an_emergency_tax_covering_a_deficit_yields_double_over_the_turn() {
    for (turn, left) in [(2, 0), (1, 2)] {
        let mut t = T::fixture();
        if turn == 2 {
            t.end_turn();
            t.ok(ROMAN, "done", &[]);
            t.ok(GP, "done", &[]);
        }
        t.st.treasury = 0;
        t.st.actor = Player::Roman;
        t.standing(ROMAN, &["deficit tax 3213"]);
        t.pool(&[20]);
        // Persecutions (14.3): a die plus one, 1 + 1 = 2 TP due.
        let ev = t.ok(ROMAN, "draw", &[("persecutions", 6, 1)]);
        assert_eq!(t.st.treasury, left, "Turn {turn}: {}", say(&ev));
        assert!(t.st.looted.contains(&h("3213")));
    }
}

// 8.8: "no combination of salting or chit play is allowed to add more than
// +3": refused, before any TP or chit is spent (version 13 spent them and
// cut the modifier to +3).
#[test]
fn salting_past_the_cap_is_refused_before_anything_is_spent() {
    let mut t = T::fixture();
    t.put_rebels(&["co", "v1"], h("3513"));
    t.st.actor = Player::Roman;
    t.st.treasury = 5;
    t.hand(Player::Roman, &[17]);
    for order in ["treachery salt 3 with 17", "treachery salt 2 with 17"] {
        let e = t.err(ROMAN, order);
        assert!(e.contains("(8.8)") && e.contains("+3"), "{order}: {e}");
        assert_eq!(t.st.treasury, 5);
        assert_eq!(t.st.hand(Player::Roman), &[17]);
    }
    // +1 and +2 make +3: a roll of 2 makes 5, a success (8.11).
    let ev = t.ok(
        ROMAN,
        "treachery salt 1 with 17",
        &[("treachery against the rebel co-emperor", 6, 2)],
    );
    assert_eq!(t.st.treasury, 4);
    assert!(t.at("co").is_none(), "{}", say(&ev));
    assert!(!t.rebel("v1"));
}

// 8.8: the Roman's negative salt is made "within the same general
// strictures": with Agents in Enemy Camp (-2) at most 3 off in all.
#[test]
fn the_romans_negative_salt_and_agents_take_at_most_three_off() {
    let mut t = T::fixture();
    t.put_all(&["emp", "v1"], h("3513"));
    t.st.treasury = 5;
    t.hand(Player::Roman, &[17]);
    // No standing salt: the Roman is asked before the die (N4).
    t.ok(GP, "treachery", &[]);
    assert!(t.st.question.is_some());
    let e = t.err(ROMAN, "salt 2 with 17");
    assert!(e.contains("(8.8)"), "{e}");
    assert_eq!(t.st.treasury, 5);
    // 5 less 1 and 2 is 2: a failure (8.9).
    let ev = t.ok(
        ROMAN,
        "salt 1 with 17",
        &[("treachery against the emperor", 6, 5)],
    );
    assert_eq!(t.st.treasury, 4, "{}", say(&ev));
    assert_eq!(t.at("emp"), Some(h("3513")));
}

// 8.8: a standing negative salt the cap or the treasury does not allow is
// cut, and the events say so (version 13 cut it to the treasury unsaid, and
// took 3 TP and Agents, 5 off).
#[test]
fn a_standing_negative_salt_is_cut_to_what_the_rules_allow_and_said_so() {
    let mut t = T::fixture();
    t.put_all(&["emp", "v1"], h("3513"));
    t.st.treasury = 5;
    t.hand(Player::Roman, &[17]);
    t.standing(ROMAN, &["salt treachery 3", "agents yes"]);
    let ev = t.ok(GP, "treachery", &[("treachery against the emperor", 6, 5)]);
    assert_eq!(t.st.treasury, 4, "{}", say(&ev));
    assert!(t.st.hand(Player::Roman).is_empty());
    assert!(say(&ev).contains("cut to 1"), "{}", say(&ev));
    // Without Agents, the treasury cuts it.
    t.st.treasury = 1;
    t.st.actor = Player::Gp;
    let ev = t.ok(GP, "treachery", &[("treachery against the emperor", 6, 5)]);
    assert_eq!(t.st.treasury, 0);
    assert!(say(&ev).contains("the treasury holds 1"), "{}", say(&ev));
}

// 8.3, ruling R-F2: "rolls are made in ascending hex-ID order" (version 13
// went round the hex from north: 3413 before 3313).
#[test]
fn conversion_rolls_go_in_ascending_hex_order() {
    let mut t = T::fixture();
    t.put_rebels(&["co", "v1"], h("3415"));
    t.put("v2", h("3313"));
    t.put("v3", h("3413"));
    let ev = t.ok(
        GP,
        "move 3415 to 3414",
        &[("conversion-3313", 6, 2), ("conversion-3413", 6, 4)],
    );
    assert!(t.rebel("v2") && t.rebel("v3"), "{}", say(&ev));
    assert_eq!(t.at("co"), Some(h("3414")));
}

// 8.3: "the move action would have to start with a conversion die roll for
// each adjacent hexes containing a loyal Roman force. If those die rolls all
// resulted in conversions, the rebel leader and his force could then
// actually move off." A lone garrison exerts no ZOC (11.1), so version 13
// rolled nothing and let the force go.
#[test]
fn a_rebel_force_next_to_a_lone_garrison_rolls_before_it_moves_off() {
    let mut t = T::fixture();
    t.put_rebels(&["co", "v1"], h("3616"));
    t.put("rg1", h("3716"));
    let ev = t.ok(GP, "move 3616 to 3516", &[("conversion-3716", 6, 3)]);
    assert_eq!(t.at("co"), Some(h("3616")), "{}", say(&ev));
    assert!(!t.rebel("rg1"));
    assert!(say(&ev).contains("cannot move off"), "{}", say(&ev));
    // An even roll turns the garrison and the force moves off.
    t.st.actor = Player::Gp;
    let ev = t.ok(GP, "move 3616 to 3516", &[("conversion-3716", 6, 4)]);
    assert!(t.rebel("rg1"), "{}", say(&ev));
    assert_eq!(t.at("co"), Some(h("3516")));
}

// 8.3: a rebel co-emperor loots a centre he "attacks into and occupies" if
// "loyally defended", or "simply moves into" if "entirely undefended"; a
// centre whose Romans he has just converted is neither (ruling R-C10).
#[test]
fn the_coemperor_does_not_loot_a_centre_whose_units_he_has_just_converted() {
    let mut t = T::fixture();
    t.put_rebels(&["co", "v1"], h("3413"));
    t.put("v2", h("3213"));
    let ev = t.ok(GP, "move 3413 to 3313 3213", &[("conversion-3213", 6, 2)]);
    assert_eq!(t.at("co"), Some(h("3213")), "{}", say(&ev));
    assert!(t.rebel("v2"));
    assert!(!t.st.looted.contains(&h("3213")), "{}", say(&ev));
    // An undefended centre he moves into is looted (8.3).
    let mut t = T::fixture();
    t.put_rebels(&["co", "v1"], h("3313"));
    t.ok(GP, "move 3313 to 3413", &[]);
    assert!(t.st.looted.contains(&h("3413")));
}

// 9.5: only Gallic centres "entered by loyal Roman units during the
// rebellion" are looted; version 13 had Gallic units loot their own.
#[test]
fn gallic_units_moving_in_their_own_empire_loot_nothing() {
    let mut t = T::fixture();
    t.st.gallic = Gallic::Active;
    t.put_rebels(&["v1"], h("3112"));
    let u = t.u("v1");
    t.st.unit_mut(u).gallic = true;
    let ev = t.ok(GP, "move 3112 to 3013", &[]);
    assert_eq!(t.at("v1"), Some(h("3013")), "{}", say(&ev));
    assert!(!t.st.looted.contains(&h("3013")), "{}", say(&ev));
}

// 8.5: with a leader "the infantry exhaust their movement action after
// they've expended five movement points"; the leader and the cavalry go on
// to nine. An order keeping the infantry on is refused, naming the drop it
// needs (version 13 left them behind unasked).
#[test]
fn a_mixed_force_keeping_its_infantry_past_five_is_refused() {
    let mut t = T::fixture();
    t.put_all(&["emp", "c1", "v1"], h("3016"));
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "move 3016 to 3116 3216 3316 3416 3516 3616");
    assert!(e.contains("(8.5)") && e.contains("drop v1"), "{e}");
    assert_eq!(t.at("v1"), Some(h("3016")));
    let ev = t.ok(
        ROMAN,
        "move 3016 to 3116 3216 3316 3416 3516 drop v1 3616 3716 3816 3916",
        &[],
    );
    assert_eq!(t.at("v1"), Some(h("3516")), "{}", say(&ev));
    assert_eq!(t.at("emp"), Some(h("3916")));
    assert_eq!(t.at("c1"), Some(h("3916")));
}

// 8.4, 8.9: the emperor falls with his last unit and no loyal Roman unit
// stands anywhere, nor a co-emperor. A leader never stands alone (8.4; R-F6),
// so the throne stays vacant until a loyal unit is on the map again, and the
// new emperor is proclaimed with it (version 13 set him alone in Rome).
#[test]
fn an_emperor_falling_with_no_loyal_unit_anywhere_leaves_the_throne_vacant() {
    let mut t = T::fixture();
    t.put_all(&["emp", "v1"], h("3513"));
    t.put("t1", h("3512"));
    t.kill("b1");
    // 7 against 1 is 7:1; the emperor's shift (13.9) makes it 6:1.
    let de = t.roll_for(5, Outcome::DE);
    let rolls = [
        ("german-cf-t1", 6, 6),
        ("combat", 6, de),
        ("emperor-table", 6, 2),
    ];
    let ev = t.ok(GP, "attack 3512 on 3513", &rolls);
    assert_eq!(t.at("emp"), None, "{}", say(&ev));
    assert!(say(&ev).contains("vacant"), "{}", say(&ev));
    t.invariants();
    // Turn 2: Rome reclaims a legion, and the new emperor is proclaimed with it.
    t.end_turn();
    let ev = t.ok(ROMAN, "reclaim 3213", &[]);
    assert_eq!(t.at("emp"), Some(h("3213")), "{}", say(&ev));
    t.invariants();
    // Version 13 set him alone in Rome.
    let mut t = T::fixture().at_version(13);
    t.put_all(&["emp", "v1"], h("3513"));
    t.put("t1", h("3512"));
    t.ok(GP, "attack 3512 on 3513", &rolls);
    assert_eq!(t.at("emp"), Some(h("3314")));
}

// 13.10: legion bases "are never allowed to advance after combat"; 13.14:
// the attacking force's units advance; 13.11: the exchange's losses come
// from the attacking force. Named otherwise, the attack is refused before
// its first roll (version 13 rolled and left the names out).
#[test]
fn an_attacks_advance_and_losses_naming_the_wrong_units_are_refused() {
    let mut t = T::fixture();
    t.put_all(&["b1", "v1", "v2"], h("3513"));
    t.put("t1", h("3512"));
    t.put("v3", h("3213"));
    t.st.actor = Player::Roman;
    for (order, rule) in [
        ("attack 3513 on 3512 advance b1", "13.10"),
        ("attack 3513 on 3512 advance v3", "13.14"),
        ("attack 3513 on 3512 losses v3", "13.11"),
    ] {
        let e = t.err(ROMAN, order);
        assert!(e.contains(rule), "{order}: {e}");
    }
}

// 13.14, 1.5 (ruling R-E6): a German may attack a narrows hex but never
// enter it; the advance it cannot make is told, not dropped unsaid.
#[test]
fn an_advance_the_rules_forbid_is_told() {
    let mut t = T::fixture();
    t.put("t1", h("3815"));
    t.put("v1", h("3915"));
    // 7 against 1: above 6:1, an automatic DE (13.15).
    let ev = t.ok(GP, "attack 3815 on 3915", &[("german-cf-t1", 6, 6)]);
    assert!(t.at("v1").is_none());
    assert_eq!(t.at("t1"), Some(h("3815")));
    let s = say(&ev);
    assert!(
        s.contains("may not advance") && s.contains("1.5, 12.5"),
        "{s}"
    );
}

// 8.19, 8.17: a won battle's free chit is not drawn into a hand of six, and
// the events say why; nor for beating one's own rebels (ruling R-E7).
#[test]
fn a_free_chit_not_drawn_is_told() {
    let mut t = T::fixture();
    t.put("t1", h("3512"));
    t.put("v1", h("3513"));
    t.hand(Player::Gp, &[1, 3, 4, 5, 6, 9]);
    t.pool(&[2]);
    let ev = t.ok(GP, "attack 3512 on 3513", &[("german-cf-t1", 6, 6)]);
    assert_eq!(t.at("t1"), Some(h("3513")), "{}", say(&ev));
    assert_eq!(t.st.hand(Player::Gp).len(), 6);
    assert!(say(&ev).contains("draws no free chit"), "{}", say(&ev));
    // A refused Bread & Circuses' rebel garrison (14.3) beaten by a tribe.
    let mut t = T::fixture();
    t.put("t1", h("3212"));
    t.put_rebels(&["rg1"], h("3213"));
    t.st.bc_rebels.insert(h("3213"));
    t.st.looted.insert(h("3213"));
    t.pool(&[2]);
    // 7 against the garrison's 2 is 3:1.
    let dr = t.roll_for(2, Outcome::DR);
    let ev = t.ok(
        GP,
        "attack 3212 on 3213",
        &[("german-cf-t1", 6, 6), ("combat", 6, dr)],
    );
    assert_eq!(t.at("t1"), Some(h("3213")), "{}", say(&ev));
    assert!(t.st.hand(Player::Gp).is_empty());
    assert!(say(&ev).contains("R-E7"), "{}", say(&ev));
}

// 14.3 Revenue Windfall: TP "not more than five", legions placed "under the
// same strictures as given in 6.8" (core hexes free of enemy units); 8.18: a
// chit is played with what it uses. Refused before the roll or the chit is
// spent (version 13 cut or dropped them unsaid).
#[test]
fn a_chit_played_with_what_it_cannot_use_is_refused() {
    let mut t = T::fixture();
    t.st.actor = Player::Roman;
    t.hand(Player::Roman, &[7, 24]);
    let e = t.err(ROMAN, "play 24 tp 6");
    assert!(e.contains("at most 5") && e.contains("14.3 (24)"), "{e}");
    let e = t.err(ROMAN, "play 24 at 4013");
    assert!(e.contains("6.8"), "{e}");
    let e = t.err(ROMAN, "play 7 tp 2");
    assert!(e.contains("takes no `tp`") && e.contains("8.18"), "{e}");
    assert_eq!(t.st.hand(Player::Roman), &[7, 24]);
    // A seaborne raid (chit 8, stand-in) on a centre away from the sea.
    t.st.actor = Player::Gp;
    t.hand(Player::Gp, &[8]);
    let e = t.err(GP, "play 8 at 3513");
    assert!(e.contains("coastal"), "{e}");
    assert_eq!(t.st.hand(Player::Gp), &[8]);
}

// 14.3 Revenue Windfall: what the roll cannot pay for is told.
#[test]
fn a_windfall_tells_what_it_cannot_pay_for() {
    let mut t = T::fixture();
    t.st.actor = Player::Roman;
    t.hand(Player::Roman, &[24]);
    t.kill("b1");
    t.kill("v1");
    t.st.treasury = 0;
    // 1 + 3 = 4 points: 4 TP asked of 5 allowed, and no points left for the pair.
    let ev = t.ok(ROMAN, "play 24 tp 5 at 3213", &[("windfall", 6, 1)]);
    assert_eq!(t.st.treasury, 4);
    let s = say(&ev);
    assert!(s.contains("credits 4 of the 5 TP asked"), "{s}");
    assert!(s.contains("no windfall legion goes to 3213"), "{s}");
}

// 6.10, ruling R-C4: what nothing covers is forgiven, and said so.
#[test]
fn a_deficit_nothing_covers_is_forgiven_and_said_so() {
    let mut t = T::fixture();
    t.st.treasury = 0;
    t.st.actor = Player::Roman;
    t.pool(&[20]);
    let ev = t.ok(ROMAN, "draw", &[("persecutions", 6, 1)]);
    assert_eq!(t.st.treasury, 0);
    assert!(say(&ev).contains("2 TP of it are forgiven"), "{}", say(&ev));
}

// 8.7, ruling R-F5: a rebel co-emperor rises "in any hex anywhere on the map
// then containing one or more loyal Roman units other than the emperor
// himself and other than in the Rome/Ostia hex". A hex named that does not
// qualify is refused before the die (version 13 passed over it, and placed
// him in the lowest hex that did).
#[test]
fn a_rebel_coemperor_named_into_a_hex_that_does_not_qualify_is_refused() {
    let mut t = T::fixture();
    t.put_all(&["emp", "v1"], h("3513"));
    t.put("v2", h("3213"));
    t.put("v3", h("3314"));
    for hx in ["3513", "3314", "3616"] {
        let e = t.err(GP, &format!("rebel {hx}"));
        assert!(e.contains("R-F5"), "{hx}: {e}");
    }
    t.ok(GP, "rebel 3213", &[("rebel-coemperor", 6, 5)]);
    assert_eq!(t.at("co"), Some(h("3213")));
    assert!(t.rebel("v2"));
}

// 6.7: two TP "for each such twin demobilization". A unit named twice is
// refused (version 13 paid for it twice: four TP for one twin).
#[test]
fn a_unit_named_twice_for_demobilization_is_refused() {
    let mut t = T::fixture();
    t.put_all(&["b1", "v1"], h("3213"));
    t.st.stage = Stage::AdminRoman;
    t.st.treasury = 0;
    let e = t.err(ROMAN, "demobilize b1 b1 v1 v1");
    assert!(e.contains("named twice") && e.contains("(6.7)"), "{e}");
    let mut t = t.at_version(13);
    t.ok(ROMAN, "demobilize b1 b1 v1 v1", &[]);
    assert_eq!(t.st.treasury, 4, "version 13 paid a twin twice");
}

// 7.1, ruling R-C9: returning tribes go one a hex into empty Barbaria hexes;
// those no hex takes stay in the dead pile, and the events say so.
#[test]
fn tribes_no_empty_hex_takes_stay_dead_and_said_so() {
    let mut t = T::fixture();
    let barbaria: Vec<_> = t
        .d()
        .all_hexes()
        .filter(|x| t.d().region(*x) == umpire_ldf::data::Region::Barbaria)
        .collect();
    // Every Barbaria hex occupied: tribes, then gunds.
    let ids: Vec<String> = (1..=16)
        .map(|i| format!("t{i}"))
        .chain((1..=8).map(|i| format!("g{i}")))
        .collect();
    for (id, hx) in ids.iter().zip(&barbaria) {
        t.put(id, *hx);
    }
    assert!(barbaria.len() <= ids.len(), "the fixture's Barbaria fills");
    t.kill("t17");
    t.st.stage = Stage::AdminGp;
    let ev = t.ok(GP, "done", &[]);
    assert!(
        say(&ev).contains("1 Germanic tribe stays in the dead pile"),
        "{}",
        say(&ev)
    );
}

// 7.1: one dead tribe returns to an empty Barbaria hex, told in the
// singular ("1 Germanic tribe returns", not "1 Germanic tribes return").
#[test]
fn one_tribe_returning_is_told_in_the_singular() {
    let mut t = T::fixture();
    t.kill("t17");
    t.st.stage = Stage::AdminGp;
    let ev = t.ok(GP, "done", &[]);
    assert!(
        say(&ev).contains("1 Germanic tribe returns to Barbaria (7.1)"),
        "{}",
        say(&ev)
    );
}

// 8.3: a rebel force's move action starts with a conversion roll for each
// adjacent hex of loyal Romans, and "each time it moves adjacent" to one it
// rolls; a sea move (12.6) may leave and enter an enemy zone of control but
// skips neither (version 13 rolled nothing at sea or on the river).
#[test]
fn a_rebel_force_at_sea_rolls_before_sailing_and_where_it_lands() {
    let mut t = T::fixture();
    t.put_rebels(&["co", "v1"], h("3116"));
    t.put_rebels(&["rg2"], h("3217"));
    t.put("rg1", h("3016"));
    t.put("v5", h("3316"));
    let ev = t.ok(
        GP,
        "sea 3116 to 3217",
        &[("conversion-3016", 6, 2), ("conversion-3316", 6, 4)],
    );
    assert_eq!(t.at("co"), Some(h("3217")), "{}", say(&ev));
    assert!(t.rebel("rg1") && t.rebel("v5"), "{}", say(&ev));
    // An odd roll before sailing: he stays.
    let mut t = T::fixture();
    t.put_rebels(&["co", "v1"], h("3116"));
    t.put_rebels(&["rg2"], h("3217"));
    t.put("rg1", h("3016"));
    let ev = t.ok(GP, "sea 3116 to 3217", &[("conversion-3016", 6, 1)]);
    assert_eq!(t.at("co"), Some(h("3116")), "{}", say(&ev));
}

/// What `side`'s ruleset at its version makes of one order line: the
/// refusal's text, or `None` if it reads.
fn reads(t: &T, side: umpire_core::ruleset::Side, text: &str) -> Option<String> {
    use umpire_core::movefile::SourceLine;
    use umpire_core::ruleset::Ruleset;
    let l = SourceLine {
        line: 3,
        column: 1,
        text: text.into(),
    };
    t.r.parse(&t.st, side, &[l]).err().map(|e| e.to_string())
}

// An order line gives each keyword once (13.x, 14.2): version 13 let a
// second `losses`, `advance`, `with`, `tp` or `at` replace the first without
// a word, so the player's loss order was not the one carried out.
#[test]
fn a_keyword_given_twice_is_refused_naming_the_line() {
    let t = T::fixture();
    for (text, kw) in [
        ("attack 3512 on 3513 losses b1 losses v1", "losses"),
        ("attack 3512 on 3513 advance all advance none", "advance"),
        ("attack 3512 on 3513 with 3 with 4", "with"),
        ("play 5 tp 2 tp 3", "tp"),
    ] {
        let e = reads(&t, ROMAN, text).unwrap_or_else(|| panic!("{text} read"));
        assert!(e.contains(&format!("`{kw}` is given twice")), "{text}: {e}");
        assert!(e.contains("line 3"), "{text}: {e}");
        // Version 13 records read it as they did.
        let old = T::fixture().at_version(13);
        let before = reads(&old, ROMAN, text);
        assert!(
            before.as_deref().is_none_or(|e| !e.contains("given twice")),
            "{text}: {before:?}"
        );
    }
}

// A counter named twice in one order is refused (8.5): the force is a set
// of counters, and a repeated one is a slip the player should see.
#[test]
fn a_counter_named_twice_is_refused() {
    let t = T::fixture();
    for text in [
        "move 3213 b1,b1 to 3313",
        "move 3213 b1 v1 b1 to 3313",
        "attack 3512 on 3513 losses v1,v1",
    ] {
        let e = reads(&t, ROMAN, text).unwrap_or_else(|| panic!("{text} read"));
        assert!(
            e.contains("b1 is named twice") || e.contains("v1 is named twice"),
            "{text}: {e}"
        );
    }
    let old = T::fixture().at_version(13);
    assert_eq!(reads(&old, ROMAN, "move 3213 b1,b1 to 3313"), None);
}
