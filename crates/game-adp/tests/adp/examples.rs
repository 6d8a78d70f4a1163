//! A Distant Plain: every EXAMPLE of the rulebook
//! (`a-distant-plain.txt`, the transcription of pages 1-12), one test each,
//! citing the rule and the transcription's line, reproducing its numbers.
//! Eleven EXAMPLE paragraphs, the 5.5 one holding two cases: twelve
//! examples. Where the printed card texts would be needed (5.1.1, 5.5, 8.1)
//! the fixture's cards (`crates/game-adp/tests/fixtures/adp/small/`) or a stand-in text
//! stand for them, and the test says so.

use crate::kit as adp_kit;

use adp_kit::*;
use umpire_adp::Adp;
use umpire_adp::data::{CardNo, Data};
use umpire_adp::pieces::{Faction, Piece};
use umpire_adp::sequence;
use umpire_adp::state::State;
use umpire_core::dice::Dice;

/// Rulebook line 7, 1.3: "ADJACENCY EXAMPLE: Faryab Province and the LoC
/// ending at the town of Shibirghan are adjacent, as are the Provinces north
/// and south of the LoC."
#[test]
fn example_1_3_faryab_and_the_shibirghan_loc_are_adjacent() {
    // 1.3 ADJACENCY EXAMPLE: Faryab and the LoC ending at Shibirghan are
    // adjacent, as are the Provinces north and south of the LoC.
    let d = Data::embedded().unwrap();
    assert!(d.adjacent(s(&d, "faryab"), s(&d, "shibirghan-aibak")));
    assert!(d.adjacent(s(&d, "balkh"), s(&d, "sar-e-pol")));
    // LoCs meeting at a Town are adjacent (1.3): Aibak.
    assert!(d.adjacent(s(&d, "kabul-aibak"), s(&d, "shibirghan-aibak")));
    // A LoC may be named by its Towns in either order.
    assert_eq!(d.find("aibak-kabul"), d.find("kabul-aibak"));
}
/// Rulebook line 7, 1.4.1: "EXAMPLE: Insurgents without Available
/// Guerrillas could remove Guerrillas during a Rally (3.3.1) in order to
/// place them Underground." Every Taliban Guerrilla is on the map; 2 Active
/// ones go back to Available and the Rally places 1 Underground.
#[test]
fn example_1_4_1_insurgents_without_available_guerrillas_rally_them_again() {
    // 1.4.1: "Taliban and Warlord players (only), while executing an
    // Operation ... may remove their own pieces to Available Forces", e.g.
    // to Rally them again Underground.
    let (r, mut st) = empty();
    let d = r.data().clone();
    let all = st.available[Piece::TalUnder];
    put(&d, &mut st, "kandahar", Piece::TalUnder, all);
    let k = s(&d, "kandahar");
    st[k].pieces[Piece::TalUnder] -= 2;
    st[k].pieces[Piece::TalActive] += 2;
    st.resources[Faction::Taliban.index()] = 5;
    op(
        &d,
        &mut st,
        Faction::Taliban,
        "rally\nreturn 2 active guerrillas kandahar\nin helmand place 1",
    )
    .unwrap();
    assert_eq!(st[k].pieces[Piece::TalActive], 0);
    assert_eq!(st[s(&d, "helmand")].pieces[Piece::TalUnder], 1);
    // The COIN factions may not.
    put(&d, &mut st, "kabul", Piece::Police, 2);
    st.resources[Faction::Government.index()] = 9;
    let e = op(
        &d,
        &mut st,
        Faction::Government,
        "train\nreturn 1 guerrilla kandahar\nin kabul",
    )
    .unwrap_err();
    assert!(e.contains("1.4.1"), "{e}");
}
/// Rulebook line 9, 1.4.1: "EXAMPLE: A Coalition Assault (3.2.4) with 3
/// Troops must remove 3 Active pieces if there are that many among the
/// Factions targeted." 4 Active Guerrillas there: 3 go, 1 stays.
#[test]
fn example_1_4_1_a_coalition_assault_with_3_troops_removes_3() {
    // 1.4.1 EXAMPLE: a Coalition Assault with 3 Troops must remove 3 Active
    // pieces if there are that many among the targeted factions.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "helmand", Piece::CoalTroops, 3);
    put(d, &mut st, "helmand", Piece::TalActive, 2);
    put(d, &mut st, "helmand", Piece::WarActive, 2);
    op(d, &mut st, Faction::Coalition, "assault\nin helmand").unwrap();
    let h = s(d, "helmand");
    assert_eq!(
        st[h].pieces.guerrillas(Faction::Taliban) + st[h].pieces.guerrillas(Faction::Warlords),
        1
    );
    assert_eq!(
        st.res(Faction::Government),
        30,
        "Coalition Assault is free (3.2.4)"
    );
}
/// Rulebook line 13, 3.2.3: "EXAMPLE: The Coalition selects Kandahar for a
/// Sweep. No LoCs are Sabotaged. Two Coalition Troops move from Kabul onto
/// the LoC south and from there into Kandahar Province, taking 2 Government
/// Troops with them. The Coalition Troops in Zabol also could enter
/// Kandahar."
#[test]
fn example_3_2_3_the_coalition_sweeps_into_kandahar() {
    // 3.2.3 EXAMPLE: the Coalition selects Kandahar; two Coalition Troops move
    // from Kabul onto the LoC south and into Kandahar, taking 2 Government
    // Troops; the Coalition Troops in Zabol also could enter Kandahar.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "kabul", Piece::CoalTroops, 2);
    put(d, &mut st, "kabul", Piece::GovTroops, 2);
    put(d, &mut st, "zabol", Piece::CoalTroops, 1);
    put(d, &mut st, "kandahar", Piece::TalUnder, 3);
    st.resources[Faction::Government.index()] = 10;
    op(
        d,
        &mut st,
        Faction::Coalition,
        "sweep\nin kandahar\nmove 2 troops kabul>kandahar-kabul>kandahar with 2\nmove 1 troops zabol>kandahar",
    )
    .unwrap();
    let k = s(d, "kandahar");
    assert_eq!(st[k].pieces[Piece::CoalTroops], 3);
    assert_eq!(st[k].pieces[Piece::GovTroops], 2);
    // Coalition Sweep: 1 Guerrilla per cube when a Coalition piece is there.
    assert_eq!(st[k].pieces[Piece::TalActive], 3);
    // Government Troops moved in: 3 Government Resources (3.2.3).
    assert_eq!(st.res(Faction::Government), 7);
}
/// Rulebook line 15, 3.3.2: "EXAMPLE: Two Underground Taliban Guerrillas
/// March from Ghazni to Bamian, where there are 1 Warlord Guerrilla and 1
/// Police cube. The destination is not Pashtun and the total of 4 relevant
/// pieces exceeds 3, so the Taliban Guerrillas flip to Active."
#[test]
fn example_3_3_2_two_taliban_march_from_ghazni_to_bamian_and_activate() {
    // 3.3.2 EXAMPLE: two Underground Taliban March from Ghazni to Bamian, where
    // there are 1 Warlord Guerrilla and 1 Police: not Pashtun, 4 > 3: Active.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "ghazni", Piece::TalUnder, 2);
    put(d, &mut st, "bamian", Piece::WarUnder, 1);
    put(d, &mut st, "bamian", Piece::Police, 1);
    st.resources[Faction::Taliban.index()] = 5;
    op(d, &mut st, Faction::Taliban, "march\nmove 2 ghazni>bamian").unwrap();
    let b = s(d, "bamian");
    assert_eq!(st[b].pieces[Piece::TalActive], 2);
    assert_eq!(st[b].pieces[Piece::TalUnder], 0);
    assert_eq!(
        st.res(Faction::Taliban),
        4,
        "1 Resource per Province entered (3.3.2)"
    );
}
/// Rulebook line 17, 4.1: "EXAMPLE: The Taliban with 0 Resources Extort
/// enough to pay for the necessary accompanying Operation thereafter
/// (4.1.1)."
#[test]
fn example_4_1_the_taliban_with_0_resources_extort_to_pay() {
    // 4.1 EXAMPLE: the Taliban with 0 Resources Extort enough to pay for the
    // accompanying Operation thereafter.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "kandahar", Piece::TalUnder, 3);
    st.resources[Faction::Taliban.index()] = 0;
    let e = op(d, &mut st, Faction::Taliban, "rally\nin kandahar").unwrap_err();
    assert!(e.contains("cannot pay"), "{e}");
    op(
        d,
        &mut st,
        Faction::Taliban,
        "rally\nsa extort kandahar\nin kandahar",
    )
    .unwrap();
    assert_eq!(st.res(Faction::Taliban), 0);
    assert_eq!(st[s(d, "kandahar")].pieces.guerrillas(Faction::Taliban), 4);
}
/// Sandstorms (card 2, Momentum: no Coalition Sweep) in play, the
/// Coalition 1st Eligible on MANPADS Scare (card 3: a free Sweep), with
/// Troops in Vale next to Hill.
fn sweep_under_sandstorms(version: Option<u32>) -> (Adp, State) {
    use umpire_adp::effects;
    use umpire_adp::sequence::{self, CardTurn};
    use umpire_adp::state::Stage;
    let (r, mut st) = fixture_at(
        version,
        "",
        &["coalition", "government", "taliban", "warlords"],
    );
    let d = r.data().clone();
    let sandstorms = d.card(CardNo(2)).unwrap().clone();
    effects::execute(&d, &mut st, Faction::Taliban, &sandstorms, true, &[]).unwrap();
    assert_eq!(st.forbidden(Faction::Coalition, "sweep"), Some(CardNo(2)));
    put(&d, &mut st, "vale", Piece::CoalTroops, 2);
    put(&d, &mut st, "hill", Piece::TalActive, 1);
    st.deck.current = Some(CardNo(3));
    st.deck.next = Some(CardNo(1));
    st.stage = Stage::Card(CardTurn::default());
    assert_eq!(sequence::decider(&d, &st), Some(Faction::Coalition));
    (r, st)
}

/// Rulebook line 19, 5.1.1: "If two Events contradict, the currently played
/// Event takes precedence. EXAMPLE: MANPADS Scare could result in Air Lift
/// even if Sandstorms was in effect."
#[test]
fn example_5_1_1_manpads_scare_and_sandstorms_the_current_event_wins() {
    use umpire_adp::sequence;
    // The printed texts are not in the sources: the fixture's Sandstorms
    // bars the Coalition's Sweep and its MANPADS Scare grants a free one
    // (the step vocabulary grants Operations, not Special Activities: the
    // same precedence). Version 9 refused the granted Sweep, citing the
    // Momentum (5.3).
    let text = "event unshaded\nsweep\nin hill\nmove 2 troops vale>hill";
    let (r, mut st) = sweep_under_sandstorms(None);
    let d = r.data().clone();
    let o = parse(&d, text);
    sequence::act(
        &d,
        &mut st,
        Faction::Coalition,
        &o,
        &mut Dice::seeded([1; 32]),
    )
    .unwrap();
    assert_eq!(st[s(&d, "hill")].pieces[Piece::CoalTroops], 2);
    assert_eq!(st[s(&d, "hill")].pieces[Piece::TalActive], 1);
    let (r9, mut st9) = sweep_under_sandstorms(Some(9));
    let e = sequence::act(
        r9.data(),
        &mut st9,
        Faction::Coalition,
        &o,
        &mut Dice::seeded([1; 32]),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("card #2"), "{e}");
    // Without the Event, the Momentum still bars an ordinary Sweep (5.4).
    let (r, mut st) = sweep_under_sandstorms(None);
    let e = op(
        r.data(),
        &mut st,
        Faction::Coalition,
        "sweep\nin hill\nmove 2 troops vale>hill",
    )
    .unwrap_err();
    assert!(e.contains("card #2"), "{e}");
}

/// The Coalition 1st Eligible on the fixture's Tribal Elders (card 5: the
/// Warlords get a free Rally), Warlord Guerrillas in Vale, the Warlords'
/// Resources 3.
fn free_rally_granted() -> (Adp, State) {
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "vale", Piece::WarUnder, 1);
    st.resources[Faction::Warlords.index()] = 3;
    on_card(&r, &mut st, CardNo(5));
    assert_eq!(sequence::decider(&d, &st), Some(Faction::Coalition));
    (r, st)
}

/// Rulebook line 21, 5.5: "EXAMPLE: Free Suborn (4.5.3) would cost 0
/// Resources and not affect Warlords Eligibility. Free Traffic (4.5.2)
/// could not occur in a space with Coalition unless Event text so
/// specified." The card step vocabulary grants Operations, not Special
/// Activities: the fixture's card grants the Warlords a free Rally, which
/// costs 0, leaves them Eligible, and still follows its own requirements
/// (3.3.1: the Warlords never Rally in Pakistan), as Traffic still needs a
/// space without Coalition pieces.
#[test]
fn example_5_5_a_free_operation_costs_nothing_leaves_eligibility_and_keeps_its_rules() {
    let mut dice = Dice::seeded([1; 32]);
    // Other requirements remain: not in Pakistan.
    let (r, mut st) = free_rally_granted();
    let d = r.data().clone();
    sequence::act(
        &d,
        &mut st,
        Faction::Coalition,
        &parse(&d, "event unshaded"),
        &mut dice,
    )
    .unwrap();
    assert_eq!(
        sequence::decider(&d, &st),
        Some(Faction::Warlords),
        "the grantee is asked"
    );
    let e = sequence::act(
        &d,
        &mut st.clone(),
        Faction::Warlords,
        &parse(&d, "rally\nin tribal"),
        &mut dice,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("Pakistan") && e.contains("3.3.1"), "{e}");
    // Free: 0 Resources.
    sequence::act(
        &d,
        &mut st,
        Faction::Warlords,
        &parse(&d, "rally\nin vale"),
        &mut dice,
    )
    .unwrap();
    assert_eq!(st.res(Faction::Warlords), 3);
    assert_eq!(st[s(&d, "vale")].pieces.guerrillas(Faction::Warlords), 2);
    // Eligibility (2.3.6): the free Rally does not make the Warlords the
    // card's 2nd Eligible; the Government is asked next and Trains, which
    // ends the card: the two that executed are Ineligible, the Warlords not.
    assert_eq!(sequence::decider(&d, &st), Some(Faction::Government));
    let train = parse(&d, "train\nin kabul");
    sequence::act(&d, &mut st, Faction::Government, &train, &mut dice).unwrap();
    assert_ne!(st.deck.current, Some(CardNo(5)), "the card is over");
    assert!(
        st.eligible[Faction::Warlords.index()],
        "the free Rally left them Eligible"
    );
    assert!(!st.eligible[Faction::Coalition.index()]);
    assert!(!st.eligible[Faction::Government.index()]);
}

/// Rulebook line 25, 8.1: "INEFFECTIVE EVENT EXAMPLE: Non-player Warlords are
/// 1st Eligible for Change in Tactics. No Capabilities markers are yet in
/// play. The Event would have no effect, so the Warlords execute Operations
/// and a Special Activity."
#[test]
fn example_8_1_change_in_tactics_would_have_no_effect_so_the_warlords_operate() {
    use umpire_adp::nonplayer;
    // 8.1 INEFFECTIVE EVENT EXAMPLE: "Non-player Warlords are 1st Eligible
    // for Change in Tactics. No Capabilities markers are yet in play. The
    // Event would have no effect, so the Warlords execute Operations and a
    // Special Activity." The printed text is missing: a stand-in shaded text
    // that removes Coalition Troops has no effect while none are on the map.
    let text = r#"[{ do = "remove", faction = "coalition", piece = "troops", count = 2, spaces = 1, filter = "afghan" }]"#;
    let (r, st) = with_card_text_in(CardNo(67), text, ("standin-1p-coalition", &["coalition"]));
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    on_card(&r, &mut st, CardNo(67));
    assert_eq!(sequence::decider(&d, &st), Some(Faction::Warlords));
    st.resources[Faction::Warlords.index()] = 5;
    put(&d, &mut st, "balkh", Piece::WarUnder, 2);
    let chose = nonplayer::choose(&d, &st, Faction::Warlords, &mut Dice::seeded([2; 32])).unwrap();
    assert!(!chose.starts_with("event") && chose != "pass", "{chose}");
    assert!(
        chose.contains("\nsa "),
        "Operations and a Special Activity: {chose}"
    );
    // With Coalition Troops to remove, the Event has an effect: taken (8.1).
    put(&d, &mut st, "kandahar", Piece::CoalTroops, 2);
    let chose = nonplayer::choose(&d, &st, Faction::Warlords, &mut Dice::seeded([2; 32])).unwrap();
    assert!(chose.starts_with("event shaded"), "{chose}");
}
/// Rulebook line 25, 8.1: "EXAMPLE: Non-Player Terror requires Activating an
/// Underground Guerrilla and costs 1 Resource per Province, per Procedure
/// Guidelines." The Non-player Taliban, 2 Resources, Underground Guerrillas
/// in Ghar, Dune and Vale and on the LoC, only Active ones in Hill: its
/// Terror goes to the maximum extent (8.1), 2 Provinces paid and the LoC
/// free (3.3.4), never where no Guerrilla is Underground.
#[test]
fn example_8_1_non_player_terror_activates_an_underground_guerrilla_and_pays_a_province() {
    use umpire_adp::np_extent;
    let (r, mut st) = fixture_at(None, "-1p-coalition", &["coalition"]);
    let d = r.data().clone();
    for sp in ["ghar", "dune", "vale", "kabul-dune"] {
        put(&d, &mut st, sp, Piece::TalUnder, 1);
    }
    put(&d, &mut st, "hill", Piece::TalActive, 2);
    st.resources[Faction::Taliban.index()] = 2;
    on_card(&r, &mut st, CardNo(1));
    let wide = np_extent::widen(&d, &st, Faction::Taliban, "terror\nin ghar");
    let spaces: Vec<&str> = wide.lines().filter(|l| l.starts_with("in ")).collect();
    assert_eq!(spaces.len(), 3, "{wide}");
    assert!(
        spaces.contains(&"in kabul-dune"),
        "the LoC costs nothing: {wide}"
    );
    assert!(
        !spaces.contains(&"in hill"),
        "no Underground Guerrilla there: {wide}"
    );
    op(&d, &mut st, Faction::Taliban, &wide).unwrap();
    assert_eq!(st.res(Faction::Taliban), 0, "1 Resource per Province");
    for l in &spaces {
        let sp = s(&d, &l[3..]);
        assert_eq!(
            st[sp].pieces[Piece::TalUnder],
            0,
            "{l}: its Guerrilla Activated"
        );
        assert_eq!(st[sp].pieces[Piece::TalActive], 1, "{l}");
    }
}

/// Rulebook line 25, 8.1: "MARCH EXAMPLE: Non-player Warlord Guerrillas are
/// Marching into an empty Pashtun space. If any were Underground, only 3 of
/// them would move, first those Underground."
#[test]
fn example_8_1_non_player_warlords_march_3_into_an_empty_pashtun_space() {
    use umpire_adp::legal;
    // 8.1 GUIDELINES: "March so as to get as many Underground Guerrillas as
    // possible to the destination (3.3.2). Within that requirement, March
    // Active Guerrillas first." MARCH EXAMPLE: Warlords Marching into an
    // empty Pashtun space: "If any were Underground, only 3 of them would
    // move, first those Underground" (3.3.2: more than 3 there Activate).
    let (r, st) = game_in("standin-1p-coalition", &["coalition"]);
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    put(&d, &mut st, "sar-e-pol", Piece::WarUnder, 2);
    put(&d, &mut st, "sar-e-pol", Piece::WarActive, 3);
    let (from, pashtun, other) = (s(&d, "sar-e-pol"), s(&d, "oruzgan"), s(&d, "balkh"));
    let f = Faction::Warlords;
    assert_eq!(
        legal::np_march(&d, &st, f, from, pashtun).as_deref(),
        Some("3")
    );
    // Where none would be Activated, all go.
    assert_eq!(
        legal::np_march(&d, &st, f, from, other).as_deref(),
        Some("5")
    );
    // Taliban Guerrillas count there (3.3.2): with 1, only 2 go; with 3,
    // no Underground one can arrive so, and only the Active ones go.
    let mut one = st.clone();
    put(&d, &mut one, "oruzgan", Piece::TalActive, 1);
    assert_eq!(
        legal::np_march(&d, &one, f, from, pashtun).as_deref(),
        Some("2")
    );
    put(&d, &mut one, "oruzgan", Piece::TalActive, 2);
    assert_eq!(
        legal::np_march(&d, &one, f, from, pashtun).as_deref(),
        Some("3 active")
    );
    // Carried out: the 2 Underground and 1 Active arrive, none Activated.
    st.resources[f.index()] = 5;
    op(&d, &mut st, f, "march\nmove 3 sar-e-pol>oruzgan").unwrap();
    let p = st[pashtun].pieces;
    assert_eq!((p[Piece::WarUnder], p[Piece::WarActive]), (2, 1));
    // A player is given no such group.
    let (r4, st4) = game();
    assert!(legal::np_march(r4.data(), &st4, f, from, pashtun).is_none());
}

// ------------------------------------------------ the NOTEs with a case

/// Rulebook line 15, 3.3.1 NOTE: "Taliban can Rally at a Base but place or
/// flip no pieces in order to buy Sharia; they can place a Base and
/// immediately buy Sharia." Ghar (Pop 1, Neutral) holds a Taliban Base:
/// `place 0` buys the Sharia alone (1 Resource for the Rally, 1 for the
/// level); elsewhere 2 Guerrillas become a Base and Sharia follows at once.
/// Version 9 read `place 0` as placing 1.
#[test]
fn note_3_3_1_a_rally_placing_nothing_buys_sharia_or_a_new_base_does() {
    let (r, mut st) = fixture_game();
    let d = r.data().clone();
    put(&d, &mut st, "ghar", Piece::TalBase, 1);
    put(&d, &mut st, "dune", Piece::TalUnder, 2);
    st.resources[Faction::Taliban.index()] = 5;
    let text = "rally\nin ghar place 0\nsharia ghar 1";
    let mut nine = st.clone();
    op(&d, &mut st, Faction::Taliban, text).unwrap();
    let g = s(&d, "ghar");
    assert_eq!(
        st[g].pieces.guerrillas(Faction::Taliban),
        0,
        "nothing placed"
    );
    assert_eq!(st[g].support, umpire_adp::data::Support::Opposition);
    assert_eq!(st.res(Faction::Taliban), 3);
    let r9 = fixture_ruleset(Some(9));
    op(r9.data(), &mut nine, Faction::Taliban, text).unwrap();
    assert_eq!(
        nine[g].pieces.guerrillas(Faction::Taliban),
        1,
        "version 9 placed 1"
    );
    // Without a Base a Rally places 1 (3.3.1).
    let e = op(
        &d,
        &mut st.clone(),
        Faction::Taliban,
        "rally\nin vale place 0",
    )
    .unwrap_err();
    assert!(e.contains("3.3.1"), "{e}");
    // A Base placed, and Sharia bought at once.
    op(
        &d,
        &mut st,
        Faction::Taliban,
        "rally\nin dune base\nsharia dune 1",
    )
    .unwrap();
    let du = s(&d, "dune");
    assert_eq!(st[du].pieces[Piece::TalBase], 1);
    assert_eq!(st[du].support, umpire_adp::data::Support::Opposition);
}

/// Rulebook line 11, 1.9 PLAY NOTE: "it can be easiest to find Uncontrolled
/// Population by subtracting COIN- and Taliban-Controlled Population from the
/// total Afghan Population of 25 (or higher total from any add +1 Pop
/// markers [4.3.1])." On the stand-in opening, with a Returnees marker.
#[test]
fn note_1_9_uncontrolled_population_is_25_less_the_controlled() {
    use umpire_adp::state::Control;
    use umpire_adp::victory;
    let (r, mut st) = game();
    let d = r.data().clone();
    let k = s(&d, "kabul");
    st[k].returnees = true;
    let pop = |c: Control| -> i32 {
        d.ids()
            .filter(|x| d[*x].is_afghan() && st[*x].control == c)
            .map(|x| i32::from(st.pop(&d, x)))
            .sum()
    };
    let t = victory::totals(&d, &st);
    assert_eq!(
        t.uncontrolled,
        26 - pop(Control::Coin) - pop(Control::Taliban)
    );
}
