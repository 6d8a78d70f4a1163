//! Lest Darkness Fall: every worked example of the rulebook as a test, each
//! named after its line in the rulebook text (`l257_...` is line 257 of
//! `lest-darkness-fall.txt`) and citing its rule, reproducing the example's
//! numbers where the text gives them. Examples with hex numbers stand on the
//! embedded map; the others on the small fixture map.
//!
//! Not reproduced (each has a test showing why):
//! - 12.5, line 611: "a Roman unit might go from hex 4018 into narrows hex
//!   4118": 1.5 lists eight narrows without 4118, and 4018 is not next to
//!   4119 (ruling R-A2); the map follows 1.5.
//! - 14.4 errata, line 25: "IF TWO OR MORE HEXES . . ." is a fragment of the
//!   Emperor Creation Table, which is printed on the mapsheet, not in the
//!   text; the stand-in table's tie is the Roman's choice (N9).

use crate::kit as ldf_kit;

use ldf_kit::{GP, ROMAN, T, h, say};
use umpire_ldf::combat::{column, garrison_strength, odds_step, step_name};
use umpire_ldf::data::{Kind, OFFSET, Outcome, Region, Size};
use umpire_ldf::economics::revenue;
use umpire_ldf::state::{Player, Stage};

// 3.2, line 141: "six hexes (2812, 3515, 3615, 3816, 4619 and 4719) each have
// two such symbols ... two legion base elements and two infantry
// vexillations in each"; the emperor and a cavalry vexillation in 3318; TP 5.
#[test]
fn l141_the_double_legion_hexes_hold_two_bases_and_two_vexillations() {
    let t = T::opening();
    let d = t.d();
    for hx in ["2812", "3515", "3615", "3816", "4619", "4719"] {
        let count = |k| t.st.at(h(hx)).filter(|u| d.kind(*u) == k).count();
        assert_eq!((count(Kind::Base), count(Kind::Infantry)), (2, 2), "{hx}");
    }
    assert_eq!(
        (t.at("emp"), t.at("c1")),
        (Some(h("3318")), Some(h("3318")))
    );
    assert_eq!(t.st.treasury, 5);
}

// 2.6, line 119: a Germanic unit's combat factor is a die plus one: "That
// final result, two through seven".
#[test]
fn l119_a_german_fights_with_a_die_plus_one_two_through_seven() {
    let mut t = T::fixture();
    t.put("t1", h("3512"));
    t.put("v1", h("3513"));
    // 2 against 1 is 2:1; AS there leaves both.
    let stall = t.roll_for(1, Outcome::AS);
    let ev = t.ok(
        GP,
        "attack 3512 on 3513",
        &[("german-cf-t1", 6, 1), ("combat", 6, stall)],
    );
    assert!(
        say(&ev).contains("t1 fights with 2 this battle"),
        "{}",
        say(&ev)
    );
    t.st.actor = Player::Gp;
    let ev = t.ok(GP, "attack 3512 on 3513", &[("german-cf-t1", 6, 6)]);
    assert!(
        say(&ev).contains("t1 fights with 7 this battle"),
        "{}",
        say(&ev)
    );
}

// 6.3, line 239: a hex with more than one population centre "is looted
// altogether and at one time".
#[test]
fn l239_a_hex_of_two_towns_is_looted_at_one_time() {
    let mut t = T::fixture();
    let before = revenue(t.d(), &t.st);
    t.put("t1", h("3412"));
    t.ok(GP, "move 3412 to 3413", &[]);
    assert!(t.st.looted.contains(&h("3413")));
    // Verona and Vicetia, two towns: the hex's 2 TP go together.
    assert_eq!(revenue(t.d(), &t.st), before - 2);
}

// 6.5, line 257: "the Rome/Ostia hex (3318), when unlooted, generates four
// TP for the Roman: three for Rome itself, and one more for the town of
// Ostia".
#[test]
fn l257_rome_and_ostia_generate_four_tp() {
    let mut t = T::real();
    let d = t.d().clone();
    let mut sizes: Vec<(String, Size)> = d
        .places
        .iter()
        .filter(|p| p.hex == h("3318"))
        .map(|p| (p.name.clone(), p.size))
        .collect();
    sizes.sort();
    assert_eq!(
        sizes,
        [
            ("Ostia".to_string(), Size::Town),
            ("Rome".to_string(), Size::Metropolis)
        ]
    );
    assert_eq!(d.hex(h("3318")).unwrap().tp, 4);
    let all = revenue(&d, &t.st);
    t.st.looted.insert(h("3318"));
    assert_eq!(revenue(&d, &t.st), all - 4);
}

// 6.6, line 269: "an entire population center hex is emergency taxed, or
// not"; line 267: it "receives double the normal TP"; Rome/Ostia never.
#[test]
fn l269_emergency_taxation_takes_the_whole_hex() {
    let mut t = T::fixture();
    t.end_turn();
    assert_eq!(t.st.stage, Stage::AdminRoman);
    let e = t.err(ROMAN, "tax 3314");
    assert!(e.contains("(6.6)"), "{e}");
    let collected = t.st.treasury;
    // Naming one town of 3413 taxes the hex: both towns, 2 TP, double is 4.
    t.ok(ROMAN, "tax Vicetia", &[]);
    assert_eq!(t.st.treasury, collected + 2, "2 collected, 2 more: double");
    assert!(t.st.looted.contains(&h("3413")));
    let e = t.err(ROMAN, "tax Verona");
    assert!(e.contains("looted"), "{e}");
}

// 6.7, line 275: "the Roman player may not choose to demobilize two or more
// base elements while not demobilizing that same number of vexillations
// ... he must first demobilize the over-supplied component"; two TP a twin;
// the twins need not share a hex.
#[test]
fn l275_demobilizing_goes_by_twins_the_over_supplied_kind_first() {
    let mut t = T::fixture();
    t.put_all(&["b1", "b2"], h("3213"));
    t.put("b3", h("3616"));
    t.put_all(&["v1", "v2"], h("3513"));
    t.st.stage = Stage::AdminRoman;
    t.st.treasury = 0;
    let e = t.err(ROMAN, "demobilize b1 b2");
    assert!(e.contains("(6.7)"), "{e}");
    // Three bases for two vexillations: one base first (1 TP, ruling R-C3).
    t.ok(ROMAN, "demobilize b3", &[]);
    assert_eq!(t.st.treasury, 1);
    // Then a twin from two hexes: two TP.
    t.ok(ROMAN, "demobilize b1 v1", &[]);
    assert_eq!(t.st.treasury, 3);
}

// 8.3, line 341: a failed conversion roll ends the move; "the move action
// would have to start with a conversion die roll for each adjacent hexes
// containing a loyal Roman force. If those die rolls all resulted in
// conversions, the rebel leader and his force could then actually move off."
#[test]
fn l341_a_locked_in_coemperor_rolls_again_before_moving_off() {
    let mut t = T::fixture();
    t.put_rebels(&["co", "v1"], h("3516"));
    t.put("v2", h("3615"));
    t.put("v3", h("3716"));
    // Moving next to both: 3615 stays loyal (3), 3716 turns (2); the move ends.
    let ev = t.ok(
        GP,
        "move 3516 to 3616",
        &[("conversion-3615", 6, 3), ("conversion-3716", 6, 2)],
    );
    assert_eq!(t.at("co"), Some(h("3616")), "{}", say(&ev));
    assert!(!t.rebel("v2") && t.rebel("v3"));
    t.ok(ROMAN, "pass", &[]);
    // His next move starts with a roll for 3615: odd, he stays.
    let ev = t.ok(GP, "move 3616 to 3617", &[("conversion-3615", 6, 5)]);
    assert_eq!(t.at("co"), Some(h("3616")), "{}", say(&ev));
    t.ok(ROMAN, "pass", &[]);
    // Even: every adjacent loyal hex has converted, and he moves off.
    let ev = t.ok(GP, "move 3616 to 3617", &[("conversion-3615", 6, 6)]);
    assert!(t.rebel("v2"), "{}", say(&ev));
    assert_eq!(t.at("co"), Some(h("3617")));
}

// 8.4, line 355: a leader adds one, "from four to five, or from eight to
// nine if the force is made up entirely of cavalry"; and to combine two
// forces "you'd have to move the non-accompanied force into the other
// force's hex, end its move action there, ... then resume with the newly
// combined force using another action of your own."
#[test]
fn l355_a_force_joins_a_leader_by_ending_its_move_with_him() {
    let mut t = T::fixture();
    t.put_all(&["emp", "v2"], h("3316"));
    t.put("v1", h("3216"));
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "move 3216 to 3316 pick emp");
    assert!(e.contains("8.2, 8.4"), "{e}");
    // Passing through, it leaves him where he is.
    t.ok(ROMAN, "move 3216 to 3316 3416", &[]);
    assert_eq!(
        (t.at("v1"), t.at("emp")),
        (Some(h("3416")), Some(h("3316")))
    );
    // Ending its move with him, the next action moves them together, five.
    let mut t = T::fixture();
    t.put_all(&["emp", "v2"], h("3316"));
    t.put("v1", h("3216"));
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "move 3216 to 3316", &[]);
    t.ok(GP, "pass", &[]);
    t.ok(ROMAN, "move 3316 to 3416 3516 3616 3716 3816", &[]);
    for id in ["emp", "v1", "v2"] {
        assert_eq!(t.at(id), Some(h("3816")), "{id}");
    }
    // Cavalry alone with a leader: nine.
    let mut t = T::fixture();
    t.put_all(&["emp", "c1"], h("3016"));
    t.st.actor = Player::Roman;
    let nine = "3116 3216 3316 3416 3516 3616 3716 3816 3916";
    let e = t.err(ROMAN, &format!("move 3016 to {nine} 4016"));
    assert!(e.contains("(12.4)"), "{e}");
    t.ok(ROMAN, &format!("move 3016 to {nine}"), &[]);
    assert_eq!(t.at("c1"), Some(h("3916")));
}

// 8.5, line 361: with the emperor "the infantry exhaust their movement
// action after they've expended five movement points", the leader and the
// cavalry go on to nine; without a leader, "as soon as the infantry exhaust
// their movement factor of four, that movement action is also ended for the
// cavalry".
#[test]
fn l361_a_mixed_force_moves_five_and_nine_with_a_leader_four_without() {
    let mut t = T::fixture();
    t.put_all(&["emp", "c1", "v1"], h("3016"));
    t.st.actor = Player::Roman;
    t.ok(
        ROMAN,
        "move 3016 to 3116 3216 3316 3416 3516 drop v1 3616 3716 3816 3916",
        &[],
    );
    assert_eq!((t.at("v1"), t.at("c1")), (Some(h("3516")), Some(h("3916"))));
    let mut t = T::fixture();
    t.put_all(&["c1", "v1"], h("3016"));
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "move 3016 to 3116 3216 3316 3416 3516");
    assert!(e.contains("(12.4)"), "{e}");
    t.ok(ROMAN, "move 3016 to 3116 3216 3316 3416", &[]);
    assert_eq!(t.at("c1"), Some(h("3416")));
}

// 8.8, line 383: "Any number from one through three may be expended ...
// Results increased to more than six are treated as six."
#[test]
fn l383_salt_is_one_to_three_and_a_result_past_six_counts_six() {
    let mut t = T::fixture();
    t.put_rebels(&["co", "v1"], h("3513"));
    t.st.actor = Player::Roman;
    t.st.treasury = 5;
    let e = t.err(ROMAN, "treachery salt 4");
    assert!(e.contains("(8.8)"), "{e}");
    let ev = t.ok(
        ROMAN,
        "treachery salt 3",
        &[("treachery against the rebel co-emperor", 6, 5)],
    );
    assert!(say(&ev).contains("roll 5 +3 = 6: success"), "{}", say(&ev));
    assert_eq!(t.st.treasury, 2);
}

// 8.8, line 387: a salted roll countered by chit 2 (Beseech the Gods) "would
// not be considered salted unless the Roman player made a new TP
// expenditure"; a roll aided by chit 17 is rolled again "without the
// benefit of 17's influence".
#[test]
fn l387_a_roll_done_again_by_chit_2_keeps_neither_salt_nor_agents() {
    let roll = "treachery against the rebel co-emperor";
    let again = "treachery against the rebel co-emperor/reroll";
    let game = |roman: &[&str]| {
        let mut t = T::fixture();
        t.put_rebels(&["co", "v1"], h("3513"));
        t.hand(Player::Gp, &[2]);
        t.standing(GP, &["beseech enemy treachery 5 6"]);
        if !roman.is_empty() {
            t.standing(ROMAN, roman);
        }
        t.st.actor = Player::Roman;
        t.st.treasury = 5;
        t
    };
    // 4 + 2 = 6 succeeds; the Germano-Parthian has it rolled again: 4 alone fails.
    let mut t = game(&[]);
    let ev = t.ok(ROMAN, "treachery salt 2", &[(roll, 6, 4), (again, 6, 4)]);
    assert!(say(&ev).contains("roll 4 = 4: failure"), "{}", say(&ev));
    assert_eq!(t.st.treasury, 3, "the salt is spent all the same (8.8)");
    // A new expenditure salts the second roll.
    let mut t = game(&["resalt 2"]);
    let ev = t.ok(ROMAN, "treachery salt 2", &[(roll, 6, 4), (again, 6, 4)]);
    assert!(say(&ev).contains("roll 4 +2 = 6: success"), "{}", say(&ev));
    assert_eq!(t.st.treasury, 1);
    // Agents' +2 is not carried to the second roll either.
    let mut t = game(&[]);
    t.hand(Player::Roman, &[17]);
    let ev = t.ok(
        ROMAN,
        "treachery salt 1 with 17",
        &[(roll, 6, 3), (again, 6, 3)],
    );
    assert!(say(&ev).contains("roll 3 = 3: failure"), "{}", say(&ev));
    assert!(t.st.hand(Player::Roman).is_empty());
}

// 8.17, line 441: with six in hand "you must first put back a chit ...
// thereby creating the chance of redrawing the same chit you just put back".
#[test]
fn l441_a_chit_put_back_may_be_drawn_again() {
    let mut t = T::fixture();
    t.hand(Player::Gp, &[1, 3, 4, 5, 6, 9]);
    let e = t.err(GP, "draw");
    assert!(e.contains("(8.17)"), "{e}");
    // The pool holds only the chit put back: it comes straight back.
    t.ok(GP, "draw return 3", &[]);
    let mut hand = t.st.hand(Player::Gp).to_vec();
    hand.sort();
    assert_eq!(hand, [1, 3, 4, 5, 6, 9]);
}

// 8.19, line 455: "'Win' means you attack, clear that hex of all defenders,
// and advance after combat with one or more of your involved units."
#[test]
fn l455_a_battle_is_won_by_clearing_the_hex_and_advancing() {
    let game = || {
        let mut t = T::fixture();
        t.put("emp", h("3513"));
        for i in 1..=8 {
            t.put(&format!("v{i}"), h("3513"));
        }
        t.put("g1", h("3512"));
        t.pool(&[2]);
        t.st.actor = Player::Roman;
        t
    };
    // 8 against 1 with the emperor's shift is past 6:1: an automatic DE (13.15).
    let mut t = game();
    t.ok(ROMAN, "attack 3513 on 3512 advance none", &[]);
    assert!(t.at("g1").is_none());
    assert!(
        t.st.hand(Player::Roman).is_empty(),
        "cleared, but no advance: no win"
    );
    let mut t = game();
    let ev = t.ok(ROMAN, "attack 3513 on 3512", &[]);
    assert!(
        say(&ev).contains("won the battle: a free draw"),
        "{}",
        say(&ev)
    );
    assert_eq!(t.st.hand(Player::Roman), &[2]);
}

// 8.20, line 459: "If one player passes and the other player then takes an
// action other than passing, the first player then has another chance ...
// until both players call a 'pass' in immediate succession."
#[test]
fn l459_a_turn_ends_on_two_passes_in_immediate_succession() {
    let mut t = T::fixture();
    t.pool(&[2]);
    t.ok(GP, "pass", &[]);
    t.ok(ROMAN, "draw", &[]);
    t.ok(GP, "pass", &[]);
    assert_eq!((t.st.turn, t.st.actor), (1, Player::Roman));
    t.ok(ROMAN, "pass", &[]);
    assert_eq!((t.st.turn, t.st.stage), (2, Stage::AdminRoman));
}

// 9.5, line 487: the Gallic Empire is west of the Rhine and "the boundary
// line that meets at the point where hexes 3315, 3415 and 3416 all come
// together", with Britain (Londinium, 2813), without the Mediterranean islands.
#[test]
fn l487_the_gallic_boundary_and_britain() {
    let t = T::real();
    let d = t.d();
    let (a, b, c) = (h("3315"), h("3415"), h("3416"));
    assert!(a.adjacent_on(OFFSET, b) && b.adjacent_on(OFFSET, c) && a.adjacent_on(OFFSET, c));
    assert_eq!(d.region(h("2813")), Region::Gallic);
    assert!(
        d.places
            .iter()
            .any(|p| p.name == "Londinium" && p.hex == h("2813") && p.size == Size::Town)
    );
    assert!(d.all_hexes().any(|x| d.region(x) == Region::Island));
}

// 10.2, line 513: "there may not be more than one Germanic unit per hex",
// at the end of an action; passing through is free (10.1).
#[test]
fn l513_one_germanic_unit_a_hex() {
    let mut t = T::fixture();
    t.put("t1", h("3512"));
    t.put("t2", h("3513"));
    let e = t.err(GP, "move 3512 to 3513");
    assert!(e.contains("(10.2)"), "{e}");
    t.ok(GP, "move 3512 to 3513 3514", &[]);
    assert_eq!(t.at("t1"), Some(h("3514")));
}

// 10.8, line 539: before the reserve "one pre-reserve Roman cavalry
// vexillation may be freely added to any other Roman stack, no matter if
// it's otherwise already stacked to the full legal limit", one a hex.
#[test]
fn l539_before_the_reserve_a_cavalry_unit_joins_even_a_full_stack() {
    let mut t = T::fixture();
    t.put_all(&["b1", "b2", "v1", "v2"], h("3513"));
    t.put("c1", h("3514"));
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "move 3514 to 3513", &[]);
    t.put("c2", h("3514"));
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "move 3514 to 3513");
    assert!(e.contains("(10.8)"), "{e}");
}

// 10.8, line 541: after the reserve "they might stack, with other cavalry or
// with infantry, in a maximum stack of two mobile units when leaderless, and
// a maximum stack of eight when a leader is present".
#[test]
fn l541_after_the_reserve_cavalry_count_two_or_eight() {
    let mut t = T::fixture();
    t.st.reserve = true;
    t.put_all(&["v1", "v2"], h("3513"));
    t.put("c1", h("3514"));
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "move 3514 to 3513");
    assert!(e.contains("(10.8)"), "{e}");
    let mut t = T::fixture();
    t.st.reserve = true;
    t.put("emp", h("3513"));
    for i in 1..=7 {
        t.put(&format!("v{i}"), h("3513"));
    }
    t.put("c1", h("3514"));
    t.st.actor = Player::Roman;
    t.ok(ROMAN, "move 3514 to 3513", &[]);
    t.put("c2", h("3514"));
    t.st.actor = Player::Roman;
    let e = t.err(ROMAN, "move 3514 to 3513");
    assert!(e.contains("(10.8)"), "{e}");
}

// 12.5, line 611: "a Roman unit might go from hex 4018 into narrows hex 4118,
// then from there into any of the four surrounding land hexes". Not
// reproduced: 1.5 lists eight narrows and not 4118, and 4018 is not next to
// the listed 4119 (ruling R-A2). The same crossing through 4119 instead.
#[test]
fn l611_not_reproduced_4118_is_not_a_listed_narrows() {
    let t = T::real();
    let d = t.d();
    assert!(!d.is_narrows(h("4118")) && d.is_narrows(h("4119")));
    assert!(!h("4018").adjacent_on(OFFSET, h("4119")));
    let connects = d.hex(h("4119")).unwrap().narrows.clone().unwrap();
    let (into, out) = (h("4020"), h("4220"));
    assert!(
        connects.contains(&into) && connects.contains(&out),
        "{connects:?}"
    );
    let mut t = T::real();
    t.put("v1", into);
    t.st.actor = Player::Roman;
    t.ok(ROMAN, &format!("move {into} to 4119 {out}"), &[]);
    assert_eq!(t.at("v1"), Some(out));
    let mut t = T::real();
    t.put("t1", into);
    let e = t.err(GP, &format!("move {into} to 4119"));
    assert!(e.contains("1.5, 12.5"), "{e}");
}

// 13.2, line 631: "if 13 strength points were attacking four strength
// points, the combat odds ratio would be 3.25 to 1, rounded off, in favor of
// the defender, to three to one (3:1)".
#[test]
fn l631_thirteen_against_four_is_three_to_one() {
    assert_eq!(step_name(odds_step(13, 4)), "3:1");
    let t = T::fixture();
    assert_eq!(
        column(t.d(), odds_step(13, 4)),
        column(t.d(), odds_step(3, 1))
    );
}

// 13.10, line 669: "a garrison/fortification unit in, say, the Rome/Ostia
// hex would have a defense strength of four; in hex 4521 that strength would
// be two; in hex 4119 it would be five"; Ctesiphon "always ... eight"; the
// Caucasus "each ... one". In battle, 4521's garrison and Ctesiphon's.
#[test]
fn l669_garrisons_defend_with_their_hexs_treasury_points() {
    let t = T::real();
    let d = t.d().clone();
    assert_eq!(garrison_strength(&d, h("3318"), Kind::RomanGarrison), 4);
    assert_eq!(garrison_strength(&d, h("4521"), Kind::RomanGarrison), 2);
    assert_eq!(garrison_strength(&d, h("4119"), Kind::RomanGarrison), 5);
    assert_eq!(garrison_strength(&d, h("5020"), Kind::ParthianGarrison), 8);
    let cau = d.all_hexes().find(|x| d.region(*x).is_caucasus()).unwrap();
    assert_eq!(garrison_strength(&d, cau, Kind::ClientGarrison), 1);
    // A tribe of 7 against 4521's garrison: 7 against 2, 3:1 (13.2).
    let mut t = T::real();
    let n = d
        .links(h("4521"))
        .find(|n| !d.is_narrows(*n) && !d.side(h("4521"), *n).is_river())
        .unwrap();
    t.put("t1", n);
    t.put("rg1", h("4521"));
    let stall = t.roll_for(2, Outcome::AS);
    let ev = t.ok(
        GP,
        &format!("attack {n} on 4521"),
        &[("german-cf-t1", 6, 6), ("combat", 6, stall)],
    );
    assert!(say(&ev).contains("7 against 2: 3:1"), "{}", say(&ev));
    // Eight Romans and the emperor against Ctesiphon's garrison: 8 against 8.
    let mut t = T::real();
    let n = d.links(h("5020")).find(|n| !d.is_narrows(*n)).unwrap();
    t.put("emp", n);
    for i in 1..=8 {
        t.put(&format!("v{i}"), n);
    }
    t.put("pg1", h("5020"));
    t.st.actor = Player::Roman;
    let stall = t.roll_for(1, Outcome::AS);
    let ev = t.ok(
        ROMAN,
        &format!("attack {n} on 5020"),
        &[("combat", 6, stall)],
    );
    assert!(
        say(&ev)
            .contains("8 against 8: 1:1, +1 the emperor emp with the attackers (8.4, 13.9) = 2:1"),
        "{}",
        say(&ev)
    );
}

// 13.11, line 681: on an exchange "the attacking player must then remove
// from among his involved units that same number (though not necessarily
// the same types) of units. If the attacker had a leader present, he is
// eliminated only if all other friendly units in the attacking force with
// him have also been eliminated."
#[test]
fn l681_an_exchange_takes_as_many_units_and_the_leader_last() {
    let mut t = T::fixture();
    t.put_all(&["emp", "b1", "v1", "v2", "v3"], h("3513"));
    t.put_all(&["g1", "g2"], h("3512"));
    t.st.actor = Player::Roman;
    // 4 against 2 is 2:1, the emperor's shift makes it 3:1.
    let ex = t.roll_for(2, Outcome::EX);
    let ev = t.ok(ROMAN, "attack 3513 on 3512", &[("combat", 6, ex)]);
    assert!(t.at("g1").is_none() && t.at("g2").is_none(), "{}", say(&ev));
    // Two gunds lost, two units of other kinds: a base and a vexillation.
    assert!(t.at("b1").is_none() && t.at("v1").is_none(), "{}", say(&ev));
    assert!(t.at("emp").is_some() && t.at("v2").is_some() && t.at("v3").is_some());
}

// 13.15, line 705: below 1:3 an automatic AE, above 6:1 an automatic DE,
// "always apply all applicable odds shifters prior to looking at the CRT".
#[test]
fn l705_odds_off_the_table_are_judged_after_the_shifts() {
    let t = T::fixture();
    let d = t.d();
    assert_eq!(column(d, odds_step(1, 4)), Err(Outcome::AE));
    assert_eq!(
        column(d, odds_step(1, 4) + 1),
        Ok(0),
        "1:4 shifted right is 1:3"
    );
    assert_eq!(column(d, odds_step(7, 1)), Err(Outcome::DE));
    assert!(
        column(d, odds_step(7, 1) - 1).is_ok(),
        "7:1 shifted left is 6:1"
    );
    // In play: 7 against a vexillation with the emperor is 7:1 shifted to 6:1,
    // a roll on the table; without him, an automatic DE with no roll.
    let mut t = T::fixture();
    t.put("t1", h("3512"));
    t.put_all(&["emp", "v1"], h("3513"));
    let stall = t.roll_for(5, Outcome::DR);
    let ev = t.ok(
        GP,
        "attack 3512 on 3513 advance none",
        &[("german-cf-t1", 6, 6), ("combat", 6, stall)],
    );
    assert!(
        say(&ev).contains("7:1, -1 the emperor emp with the defenders (8.4, 13.9) = 6:1"),
        "{}",
        say(&ev)
    );
}

// 14.3 From the Jaws of Death, line 723: "one or more German unit in
// mainland Italy (hexes 3217 and 3316 and south within the 'boot,'
// inclusive)".
#[test]
fn l723_mainland_italy_runs_from_3217_and_3316_south() {
    let t = T::real();
    let d = t.d();
    assert_eq!(d.region(h("3217")), Region::Italy);
    assert_eq!(d.region(h("3316")), Region::Italy);
    assert_ne!(d.region(h("3216")), Region::Italy);
    let mut t = T::real();
    t.hand(Player::Roman, &[3]);
    t.st.actor = Player::Roman;
    t.put("t1", h("3216"));
    let e = t.err(ROMAN, "play 3");
    assert!(e.contains("(14.3)"), "{e}");
    t.put("t1", h("3217"));
    let ev = t.ok(ROMAN, "play 3", &[("jaws", 6, 2)]);
    assert!(say(&ev).contains("From the Jaws of Death"), "{}", say(&ev));
}

// 14.4 errata, line 25: "IF TWO OR MORE HEXES . . ." Not reproduced: the
// Emperor Creation Table is on the mapsheet; the stand-in proclaims the
// largest army and lets the Roman choose among hexes tied for it (N9,
// `crates/game-ldf/tests/ldf/rules.rs`, the_roman_is_asked_where_the_new_emperor_rises_among_tied_hexes).
#[test]
fn l25_not_reproduced_the_emperor_creation_table_is_a_stand_in() {
    let t = T::real();
    assert_eq!(t.d().emperor.len(), 6);
    assert!(
        t.d()
            .tags
            .iter()
            .any(|g| g.path.starts_with("tables.emperor") && g.kind.name() == "stand-in")
    );
}
