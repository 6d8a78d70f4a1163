//! A Distant Plain on a fixture: a seven-space map with its own set-up,
//! deck and Non-player file (`crates/game-adp/tests/fixtures/adp/small/`), built through the
//! loader a club's data goes through (`Adp::fixture`). Each test places only
//! the pieces its rule needs and cites its rule.

use crate::kit as adp_kit;

use adp_kit::*;
use umpire_adp::Adp;
use umpire_adp::action::Terms;
use umpire_adp::data::{self, CardNo, Data};
use umpire_adp::pieces::{Faction, Piece};
use umpire_adp::state::State;
use umpire_core::dice::Dice;

// ------------------------------------------------------------------ fixture

#[test]
fn a_fixture_loads_through_the_clubs_loader_with_consistency_checks_only() {
    let r = fixture_ruleset(None);
    let d = r.data();
    assert_eq!(d.spaces.len(), 7);
    assert!(d.adjacent(s(d, "ghar"), s(d, "hill")));
    assert!(d.random_spaces.is_empty(), "no Random Spaces table (8.2)");
    let (_, st) = fixture_game();
    assert_eq!(st.res(Faction::Warlords), 10);
    // The same files as a club's replacement data are refused
    // (`umpire data check adp`): the Random Spaces table is required, and
    // every printed count is checked and named.
    let f = fixture_files();
    let club = umpire_core::data::Files::new(data::FILES, &f).unwrap();
    let e = Data::from_files(&club).unwrap_err().join("\n");
    assert!(e.contains("random_spaces"), "{e}");
    let e = data::check(d).join("\n");
    for want in [
        "not 12",
        "not 25",
        "Pakistan spaces, not 3",
        "cards, not 78",
    ] {
        assert!(e.contains(want), "{want}: {e}");
    }
    assert!(data::check_in(d, data::Scope::Fixture).is_empty());
}

#[test]
fn a_fixture_is_still_checked_for_consistency() {
    // 1.3: adjacency listed at one end only is refused in a fixture too.
    let mut f = fixture_files();
    let map = f["map.toml"].replacen(
        "adjacent = [\"ghar\", \"vale\"]",
        "adjacent = [\"ghar\", \"vale\", \"dune\"]",
        1,
    );
    f.insert("map.toml".into(), map);
    let e = Adp::fixture(&f).err().expect("refused").join("\n");
    assert!(e.contains("symmetric"), "{e}");
    // A Non-player file naming a space the map lacks (8.2).
    let mut f = fixture_files();
    let np = f["nonplayer.toml"].replacen(
        "spaces = [\"provinces\", \"pop\", \"econ\"]",
        "spaces = [\"kandahar\"]",
        1,
    );
    f.insert("nonplayer.toml".into(), np);
    let e = Adp::fixture(&f).err().expect("refused").join("\n");
    assert!(e.contains("kandahar"), "{e}");
    // A file the game does not have.
    let mut f = fixture_files();
    f.insert("rules.toml".into(), String::new());
    assert!(Adp::fixture(&f).is_err());
}

// ------------------------------------------- 3.3.2: a piece marches once

/// Two Underground Taliban in Ghar (Pashtun) next to Hill (not Pashtun),
/// Resources to pay.
fn two_taliban_in_ghar(version: Option<u32>) -> (Adp, State) {
    let (r, mut st) = fixture_at(
        version,
        "",
        &["coalition", "government", "taliban", "warlords"],
    );
    let d = r.data().clone();
    put(&d, &mut st, "ghar", Piece::TalUnder, 2);
    st.resources[Faction::Taliban.index()] = 5;
    (r, st)
}

#[test]
fn march_on_from_a_non_pashtun_space_is_refused_in_one_line_or_two() {
    // 3.3.2: "Taliban Guerrillas may conduct additional Marches ... if the
    // destination was Pashtun." Hill is not: written as one path the
    // march-on was refused, written as a second `move` line it was not.
    let (r, mut st) = two_taliban_in_ghar(None);
    let d = r.data();
    let one = op(d, &mut st, Faction::Taliban, "march\nmove 2 ghar>hill>vale").unwrap_err();
    assert!(one.contains("3.3.2"), "{one}");
    let two = op(
        d,
        &mut st,
        Faction::Taliban,
        "march\nmove 2 ghar>hill\nmove 2 hill>vale",
    )
    .unwrap_err();
    assert!(two.contains("3.3.2") && two.contains("line 3"), "{two}");
    assert!(two.contains("Hill"), "{two}");
    // From a Pashtun destination they go on, in one line or two, paying for
    // each Province entered (ruling A13).
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "tribal", Piece::TalUnder, 2);
    st.resources[Faction::Taliban.index()] = 5;
    op(
        &d,
        &mut st,
        Faction::Taliban,
        "march\nmove 2 tribal>dune\nmove 2 dune>ghar",
    )
    .unwrap();
    assert_eq!(st[s(&d, "ghar")].pieces[Piece::TalUnder], 2);
    assert_eq!(st.res(Faction::Taliban), 3);
}

#[test]
fn version_9_replays_the_march_on_written_as_two_lines() {
    let (r, mut st) = two_taliban_in_ghar(Some(9));
    let d = r.data();
    op(
        d,
        &mut st,
        Faction::Taliban,
        "march\nmove 2 ghar>hill\nmove 2 hill>vale",
    )
    .unwrap();
    assert_eq!(st[s(d, "vale")].pieces.guerrillas(Faction::Taliban), 2);
}

#[test]
fn warlord_guerrillas_march_once_in_one_line_or_two() {
    // 3.3.2: "Warlord Guerrillas move once only."
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "vale", Piece::WarUnder, 2);
    st.resources[Faction::Warlords.index()] = 5;
    let one = op(
        &d,
        &mut st,
        Faction::Warlords,
        "march\nmove 1 vale>hill>ghar",
    )
    .unwrap_err();
    assert!(one.contains("3.3.2"), "{one}");
    let two = op(
        &d,
        &mut st,
        Faction::Warlords,
        "march\nmove 1 vale>hill\nmove 1 hill>ghar",
    )
    .unwrap_err();
    assert!(two.contains("3.3.2") && two.contains("once"), "{two}");
    // The Guerrilla that stayed may still move: each piece moves once.
    put(&d, &mut st, "hill", Piece::WarUnder, 1);
    op(
        &d,
        &mut st,
        Faction::Warlords,
        "march\nmove 1 vale>hill\nmove 1 hill>ghar",
    )
    .unwrap();
    assert_eq!(st[s(&d, "ghar")].pieces.guerrillas(Faction::Warlords), 1);
    assert_eq!(st[s(&d, "hill")].pieces.guerrillas(Faction::Warlords), 1);
    assert_eq!(st[s(&d, "vale")].pieces.guerrillas(Faction::Warlords), 1);
}

#[test]
fn guerrillas_moving_from_one_space_to_another_are_one_group() {
    // 3.3.2: "Guerrillas moving from 1 space to another move as a single
    // group": four onto a LoC in two lines of two would each stay at 2 (not
    // above 3) and Underground.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "ghar", Piece::TalUnder, 4);
    st.resources[Faction::Taliban.index()] = 5;
    let e = op(
        &d,
        &mut st,
        Faction::Taliban,
        "march\nmove 2 ghar>kabul-dune\nmove 2 ghar>kabul-dune",
    )
    .unwrap_err();
    assert!(e.contains("single group") && e.contains("3.3.2"), "{e}");
    op(
        &d,
        &mut st,
        Faction::Taliban,
        "march\nmove 4 ghar>kabul-dune",
    )
    .unwrap();
    assert_eq!(st[s(&d, "kabul-dune")].pieces[Piece::TalActive], 4);
}

#[test]
fn a_limited_march_may_go_on_to_its_one_destination_in_two_lines() {
    // 2.3.5: "all moving Guerrillas must end in a single destination": a
    // march-on from a Pashtun space written as two lines ends in one.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "tribal", Piece::TalUnder, 2);
    st.resources[Faction::Taliban.index()] = 5;
    op(
        &d,
        &mut st,
        Faction::Taliban,
        "march limited\nmove 2 tribal>dune\nmove 2 dune>ghar",
    )
    .unwrap();
    assert_eq!(st[s(&d, "ghar")].pieces[Piece::TalUnder], 2);
}

// ---------------------- invariant 4: an Operation refused before any roll

/// Taliban Guerrillas and Government Police in Ghar and in Dune, Resources
/// `res`: two spaces an Attack may select.
fn two_attack_spaces(version: Option<u32>, res: u8) -> (Adp, State) {
    let (r, mut st) = fixture_at(
        version,
        "",
        &["coalition", "government", "taliban", "warlords"],
    );
    let d = r.data().clone();
    for sp in ["ghar", "dune"] {
        put(&d, &mut st, sp, Piece::TalUnder, 2);
        put(&d, &mut st, sp, Piece::Police, 1);
    }
    st.resources[Faction::Taliban.index()] = res;
    (r, st)
}

/// Runs an Operation as `op_with` does and says how many dice it rolled.
fn rolled(
    d: &Data,
    st: &mut State,
    f: Faction,
    text: &str,
    terms: Terms,
) -> (Result<(), String>, usize) {
    let mut dice = Dice::seeded([5; 32]);
    let r = op_with(d, st, f, text, terms, &mut dice).map(|_| ());
    (r, dice.count())
}

#[test]
fn a_limited_attack_in_two_spaces_is_refused_before_its_first_roll() {
    // 2.3.5: "A Limited Operation is a player Operation in just 1 space":
    // known before any die; invariant 4: a move is refused only before its
    // first roll. Version 9 rolled both dice and then did not carry it out.
    let text = "attack limited\nin ghar\nin dune";
    let (r, mut st) = two_attack_spaces(None, 5);
    let d = r.data().clone();
    let (res, n) = rolled(&d, &mut st, Faction::Taliban, text, FULL);
    let e = res.unwrap_err();
    assert!(e.contains("2.3.5"), "{e}");
    assert_eq!(n, 0, "no die rolled");
    let (r9, mut st9) = two_attack_spaces(Some(9), 5);
    let (res, n) = rolled(r9.data(), &mut st9, Faction::Taliban, text, FULL);
    assert!(res.is_err());
    assert_eq!(n, 2, "version 9 rolled both Attack dice first");
}

#[test]
fn an_attack_it_cannot_pay_for_is_refused_before_its_first_roll() {
    // 3.1: "the paying Faction must have enough Resources to pay for the
    // Operation, including in each selected space."
    let (r, mut st) = two_attack_spaces(None, 1);
    let d = r.data().clone();
    let (res, n) = rolled(
        &d,
        &mut st,
        Faction::Taliban,
        "attack\nin ghar\nin dune",
        FULL,
    );
    let e = res.unwrap_err();
    assert!(e.contains("3.1") && e.contains("line 3"), "{e}");
    assert_eq!(n, 0);
}

#[test]
fn an_ambush_never_attacked_is_refused_before_the_attacks_roll() {
    // 4.4.3: Ambush "must take place in spaces selected for Attack".
    let (r, mut st) = two_attack_spaces(None, 5);
    let d = r.data().clone();
    let (res, n) = rolled(
        &d,
        &mut st,
        Faction::Taliban,
        "attack\nsa ambush dune\nin ghar",
        FULL,
    );
    let e = res.unwrap_err();
    assert!(e.contains("4.4.3"), "{e}");
    assert_eq!(n, 0);
}

#[test]
fn a_surge_with_a_train_selecting_no_space_is_refused_before_its_roll() {
    // 3.1: an Operation selects its spaces; 4.1: a Special Activity goes
    // with an Operation "in at least 1 space". The Surge's die was rolled
    // before the Train was found empty.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "kabul", Piece::CoalTroops, 2);
    let (res, n) = rolled(
        &d,
        &mut st,
        Faction::Coalition,
        "train\nsa surge 1 troops kabul>available, roll",
        FULL,
    );
    let e = res.unwrap_err();
    assert!(e.contains("3.1"), "{e}");
    assert_eq!(n, 0);
}

#[test]
fn a_line_whose_legality_hangs_on_the_roll_is_judged_after_it() {
    // 4.5.3 (ruling A6): Suborn takes a Government Base only with no
    // Government cubes there. After an Attack that may remove the cubes,
    // whether it can is known only from the roll: the move stands with
    // its roll (invariant 4), and here the roll removes them.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "hill", Piece::WarUnder, 3);
    put(&d, &mut st, "hill", Piece::Police, 2);
    put(&d, &mut st, "hill", Piece::GovBase, 1);
    st.resources[Faction::Warlords.index()] = 5;
    let mut dice = Dice::recorded(vec![umpire_core::dice::Roll {
        label: "Warlords Attack in Hill: hits on 3 or less (3.3.3)".into(),
        sides: 6,
        value: 2,
        audience: Default::default(),
        item: None,
    }]);
    op_with(
        &d,
        &mut st,
        Faction::Warlords,
        "attack\nin hill target government\nsa suborn hill base",
        FULL,
        &mut dice,
    )
    .unwrap();
    assert_eq!(st[s(&d, "hill")].pieces.of(Faction::Government), 0);
}

// ------------------- 8.1: a Non-player selects no space where it does nothing

/// The Warlords a Non-player (three players), `available` Warlord
/// Guerrillas left in Available (the rest on the LoC), 15 Resources, 1st
/// Eligible on card 4, whose shaded Event does nothing here (8.1
/// Ineffective Events): they Operate.
fn np_warlords(version: Option<u32>, available: u8) -> (Adp, State) {
    use umpire_adp::sequence::{self, CardTurn};
    use umpire_adp::state::Stage;
    let (r, mut st) = fixture_at(version, "-3p-np", &["coalition", "government", "taliban"]);
    let d = r.data().clone();
    let on_loc = st.available[Piece::WarUnder] - available;
    put(&d, &mut st, "kabul-dune", Piece::WarUnder, on_loc);
    st.resources[Faction::Warlords.index()] = 15;
    st.deck.current = Some(CardNo(4));
    st.deck.next = Some(CardNo(1));
    st.stage = Stage::Card(CardTurn::default());
    assert_eq!(sequence::decider(&d, &st), Some(Faction::Warlords));
    (r, st)
}

/// The `in SPACE` lines of an order.
fn in_lines(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("in "))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_non_player_rally_widens_only_to_spaces_where_it_places_something() {
    use umpire_adp::np_extent;
    // 8.1 GUIDELINES: "carry out whatever actions apply to the maximum
    // extent (such as with the most pieces allowed and only as long as
    // needed pieces and Resources are available)". With one Guerrilla
    // Available a Rally places it in one space: version 9 went on to every
    // space it could pay for, placing nothing there (1 Resource each).
    let (r, st) = np_warlords(None, 1);
    let d = r.data().clone();
    let wide = np_extent::widen(&d, &st, Faction::Warlords, "rally\nin vale");
    assert_eq!(in_lines(&wide), ["in vale"], "{wide}");
    let (r9, st9) = np_warlords(Some(9), 1);
    let wide9 = np_extent::widen(r9.data(), &st9, Faction::Warlords, "rally\nin vale");
    assert_eq!(
        in_lines(&wide9).len(),
        5,
        "version 9: every Rally space: {wide9}"
    );
    // With three Available, three spaces, the most Pop first (ruling A50).
    let (r, st) = np_warlords(None, 3);
    let wide = np_extent::widen(r.data(), &st, Faction::Warlords, "rally\nin vale");
    assert_eq!(
        in_lines(&wide),
        ["in vale", "in kabul", "in dune"],
        "{wide}"
    );
}

#[test]
fn a_non_player_offered_only_idle_rallies_does_something_else() {
    use umpire_adp::nonplayer;
    // 8.1: no Guerrilla Available, no Base to flip at or to make: a Rally
    // would pay for nothing anywhere, so the Non-player chooses among its
    // other Operations (here a March), where version 9 Rallied.
    let mut dice = Dice::seeded([2; 32]);
    for (version, rallies) in [(None, false), (Some(9), true)] {
        let (r, st) = np_warlords(version, 0);
        let d = r.data().clone();
        let text = nonplayer::choose(&d, &st, Faction::Warlords, &mut dice).unwrap();
        let op = text.lines().next().unwrap_or("");
        if rallies {
            assert_eq!(op, "rally", "{text}");
        } else {
            assert!(!text.starts_with("rally"), "{text}");
        }
    }
}

// ------------- the audit: orders accepted and silently altered, now refused or told

#[test]
fn a_word_the_operation_does_not_use_is_refused_not_dropped() {
    // A Rally targets nobody (3.3.1), an Attack places nothing (3.3.3), the
    // Government's Assault counts its own cubes (3.2.4: `with-government`
    // is the Coalition's choice), a Patrol moves cubes (3.2.2). Version 9
    // read such words and dropped them.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "vale", Piece::WarUnder, 2);
    put(&d, &mut st, "vale", Piece::Police, 1);
    put(&d, &mut st, "vale", Piece::GovTroops, 4);
    put(&d, &mut st, "ghar", Piece::TalUnder, 2);
    st.resources[Faction::Warlords.index()] = 5;
    st.resources[Faction::Taliban.index()] = 5;
    let cases = [
        (
            Faction::Taliban,
            "rally\nin ghar target government",
            "3.3.1",
            "target",
        ),
        (
            Faction::Warlords,
            "attack\nin vale place 2",
            "3.3.3",
            "place",
        ),
        (
            Faction::Government,
            "assault\nin vale with-government",
            "3.2.4",
            "with-government",
        ),
        (
            Faction::Government,
            "patrol\nmove 2 active troops vale>kabul",
            "3.2.2",
            "active",
        ),
        (
            Faction::Warlords,
            "march\nmove 1 troops vale>hill",
            "3.3.2",
            "troops",
        ),
        (
            Faction::Taliban,
            "terror\nin ghar target government",
            "3.3.4",
            "target",
        ),
    ];
    for (f, text, rule, word) in cases {
        let e = op(&d, &mut st.clone(), f, text).unwrap_err();
        assert!(e.contains(rule) && e.contains(word), "{text}: {e}");
        let r9 = fixture_ruleset(Some(9));
        assert!(
            op(r9.data(), &mut st.clone(), f, text).is_ok(),
            "version 9 took {text}"
        );
    }
}

#[test]
fn a_rally_does_one_thing_in_a_space_and_says_when_it_places_fewer() {
    // 3.3.1: in each space it places Guerrillas OR makes a Base OR flips
    // them; 1.4.1: placing what is not Available is ignored, and told.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "vale", Piece::WarUnder, 2);
    put(&d, &mut st, "vale", Piece::WarBase, 1);
    st.resources[Faction::Warlords.index()] = 5;
    let e = op(
        &d,
        &mut st.clone(),
        Faction::Warlords,
        "rally\nin vale base place 2",
    )
    .unwrap_err();
    assert!(e.contains("one of these") && e.contains("3.3.1"), "{e}");
    let e = op(
        &d,
        &mut st.clone(),
        Faction::Warlords,
        "rally\nin vale place 2 troops",
    )
    .unwrap_err();
    assert!(e.contains("not troops"), "{e}");
    // Two Available; Vale (Pop 2, 1 Base) allows 3.
    let left = st.available[Piece::WarUnder] - 2;
    put(&d, &mut st, "kabul-dune", Piece::WarUnder, left);
    let ev = op_events(&d, &mut st, Faction::Warlords, "rally\nin vale place 3").unwrap();
    assert!(
        ev.contains("placed 2 of 3 Guerrillas") && ev.contains("1.4.1"),
        "{ev}"
    );
}

#[test]
fn civic_action_and_sharia_beyond_what_a_space_can_take_are_refused() {
    // 3.2.1 (6.4.1): each 3 Resources remove a Terror marker or shift a
    // level toward Support; 3.3.1 (6.4.2) the same toward Opposition.
    // Version 9 bought what it could and dropped the rest silently.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "kabul", Piece::GovTroops, 2);
    put(&d, &mut st, "kabul", Piece::Police, 2);
    let k = s(&d, "kabul");
    st[k].terror = 1;
    // Neutral: 1 Terror and 1 level, 2 steps.
    let e = op(
        &d,
        &mut st.clone(),
        Faction::Government,
        "train\nin kabul\ncivic kabul 3",
    )
    .unwrap_err();
    assert!(
        e.contains("2 step(s)") && e.contains("not 3") && e.contains("3.2.1"),
        "{e}"
    );
    op(
        &d,
        &mut st.clone(),
        Faction::Government,
        "train\nin kabul\ncivic kabul 2",
    )
    .unwrap();
    let r9 = fixture_ruleset(Some(9));
    op(
        r9.data(),
        &mut st.clone(),
        Faction::Government,
        "train\nin kabul\ncivic kabul 3",
    )
    .unwrap();
    // Sharia in Ghar (Pop 1, Neutral, a Taliban Base): 1 level.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "ghar", Piece::TalBase, 1);
    st.resources[Faction::Taliban.index()] = 5;
    let e = op(
        &d,
        &mut st.clone(),
        Faction::Taliban,
        "rally\nin ghar\nsharia ghar 2",
    )
    .unwrap_err();
    assert!(e.contains("1 step(s)") && e.contains("3.3.1"), "{e}");
    op(
        &d,
        &mut st,
        Faction::Taliban,
        "rally\nin ghar\nsharia ghar 1",
    )
    .unwrap();
}

#[test]
fn special_activities_say_what_they_could_not_do() {
    // 4.5.3 (ruling A6): Suborn removes up to 3 Government cubes: 5 is
    // refused, where version 9 took 3; fewer there is told.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "vale", Piece::WarUnder, 2);
    put(&d, &mut st, "vale", Piece::Police, 1);
    st.resources[Faction::Warlords.index()] = 6;
    let e = op(
        &d,
        &mut st.clone(),
        Faction::Warlords,
        "rally\nin hill\nsa suborn vale cubes 5",
    )
    .unwrap_err();
    assert!(e.contains("up to 3") && e.contains("4.5.3"), "{e}");
    let ev = op_events(
        &d,
        &mut st.clone(),
        Faction::Warlords,
        "rally\nin hill\nsa suborn vale cubes 3",
    )
    .unwrap();
    assert!(ev.contains("3 asked"), "{ev}");
    // 4.4.2, 1.4.1: Infiltrate's replacement with no Taliban Guerrilla
    // Available removes and says so.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "ghar", Piece::TalUnder, 1);
    put(&d, &mut st, "ghar", Piece::Police, 1);
    let left = st.available[Piece::TalUnder];
    put(&d, &mut st, "tribal", Piece::TalUnder, left);
    st.resources[Faction::Taliban.index()] = 5;
    let ev = op_events(
        &d,
        &mut st,
        Faction::Taliban,
        "rally\nin dune\nsa infiltrate ghar replace government",
    )
    .unwrap();
    assert!(ev.contains("removed, not replaced"), "{ev}");
    // 4.2.1: the Surge's die is distributed fully: a share above the roll
    // is cut, and told.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "kabul", Piece::CoalTroops, 2);
    put(&d, &mut st, "kabul", Piece::CoalBase, 1);
    let ev = op_events(
        &d,
        &mut st,
        Faction::Coalition,
        "train\nin kabul\nsa surge 1 troops kabul>available, roll warlords 7",
    )
    .unwrap();
    assert!(ev.contains("7 asked: the die gives"), "{ev}");
}

#[test]
fn a_propaganda_plan_cut_short_at_its_turn_says_so() {
    use umpire_adp::orders::PlanLine;
    use umpire_adp::pieces::Kind;
    use umpire_adp::propaganda;
    // 6.4.1: Civic Action while Government Resources last; 6.5: Desertion
    // (ruling A2, first) takes 1 in 3 Government cubes before the Redeploy.
    // The plans were sealed before: what they could not do is told.
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "kabul", Piece::GovTroops, 2);
    put(&d, &mut st, "kabul", Piece::Police, 2);
    put(&d, &mut st, "vale", Piece::Police, 3);
    put(&d, &mut st, "vale", Piece::GovBase, 1);
    st.deck.current = Some(CardNo(6));
    st.deck.next = Some(CardNo(1));
    let mut dice = Dice::seeded([4; 32]);
    let mut ev = Vec::new();
    propaganda::begin(&d, &mut st, &mut dice, &mut ev).unwrap();
    let k = s(&d, "kabul");
    st[k].terror = 1;
    let (vale, kabul) = (s(&d, "vale"), k);
    st.resources[Faction::Government.index()] = 3;
    for (f, plan) in [
        (Faction::Coalition, vec![]),
        (Faction::Taliban, vec![]),
        (
            Faction::Government,
            vec![
                (2, PlanLine::Civic(kabul, 2)),
                (
                    3,
                    PlanLine::Redeploy {
                        count: 3,
                        kind: Kind::Police,
                        from: vale,
                        to: kabul,
                    },
                ),
            ],
        ),
    ] {
        ev.extend(propaganda::submit(&d, &mut st, f, plan, &mut dice).unwrap());
    }
    let ev = text_of(&ev);
    assert!(
        ev.contains("Civic Action in Kabul: 1 step of 2 asked"),
        "{ev}"
    );
    assert!(
        ev.contains("Redeploy 2 of 3 (no more there) police Vale to Kabul"),
        "{ev}"
    );
}
