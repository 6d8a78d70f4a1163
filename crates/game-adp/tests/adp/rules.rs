//! A Distant Plain: the rulebook's worked examples and unambiguous rules, each
//! test citing its rule. Positions are built on an emptied map so that each
//! test shows exactly the pieces its rule needs.

use crate::kit as adp_kit;

use adp_kit::*;
use umpire_adp::action::{self, Terms};
use umpire_adp::data::{CardNo, Data, SpaceNo, Support};
use umpire_adp::orders::{self, Order};
use umpire_adp::pieces::{Faction, Piece};
use umpire_adp::sequence::{self, CardTurn, Offer, Took};
use umpire_adp::state::{Control, Stage, State};
use umpire_adp::{Adp, data, nonplayer, propaganda, victory};
use umpire_core::dice::Dice;
use umpire_core::movefile::SourceLine;
use umpire_core::ruleset::{Ruleset, Setup, Side};

#[test]
fn the_embedded_data_passes_every_check() {
    // 1.2 (158 pieces), 1.3 (symmetric adjacency), 1.3.2 (Afghan Pop 25),
    // 1.3.5 (3 Pakistan spaces), 6.3.1 (Econ 12).
    let d = Data::embedded().unwrap();
    assert!(data::check(&d).is_empty());
    assert_eq!(d.inventory.total(), 158);
    assert_eq!(d.spaces.iter().filter(|s| s.is_pakistan()).count(), 3);
    assert_eq!(
        d.spaces
            .iter()
            .filter(|s| s.is_loc())
            .map(|s| u32::from(s.econ))
            .sum::<u32>(),
        12
    );
    assert_eq!(
        d.spaces
            .iter()
            .filter(|s| s.is_afghan())
            .map(|s| u32::from(s.pop))
            .sum::<u32>(),
        25
    );
    for a in d.ids() {
        for b in &d[a].adjacent {
            assert!(d.adjacent(*b, a), "{} ~ {}", d[a].name, d[*b].name);
        }
    }
    assert_eq!(d.cards.len(), 78);
    assert!(d.provenance.values().sum::<usize>() > 700);
}

#[test]
fn broken_data_is_refused_with_its_reason() {
    use data::{CARDS_TOML, FORCES_TOML, MAP_TOML, SETUP_TOML};
    // An edge listed at one end only (1.3).
    let map = MAP_TOML.replacen(
        "adjacent = [\"northwest-frontier\", \"nuristan\", \"baghlan\", \"konduz\"]",
        "adjacent = [\"northwest-frontier\", \"nuristan\", \"baghlan\", \"konduz\", \"herat\"]",
        1,
    );
    let e = Data::load(&map, FORCES_TOML, CARDS_TOML, SETUP_TOML).unwrap_err();
    assert!(
        e.iter().any(|m| m.contains("badakhshan lists herat")),
        "{e:?}"
    );
    // Econ must total 12 (6.3.1).
    let map = MAP_TOML.replacen("econ = 4", "econ = 5", 1);
    let e = Data::load(&map, FORCES_TOML, CARDS_TOML, SETUP_TOML).unwrap_err();
    assert!(e.iter().any(|m| m.contains("Econ totals 13")), "{e:?}");
    // An untagged value.
    let forces = FORCES_TOML.replacen("count = 20\nsrc = ", "count = 20\nsrc_x = ", 1);
    assert!(Data::load(MAP_TOML, &forces, CARDS_TOML, SETUP_TOML).is_err());
}

#[test]
fn march_into_a_pashtun_space_stays_underground_and_may_go_on() {
    // 3.3.2: the Taliban are exposed only in non-Pashtun spaces and on LoCs;
    // they may keep Marching from a Pashtun destination, paying again.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "kandahar", Piece::TalUnder, 4);
    st.resources[Faction::Taliban.index()] = 5;
    op(
        d,
        &mut st,
        Faction::Taliban,
        "march\nmove 4 kandahar>zabol>ghazni",
    )
    .unwrap();
    assert_eq!(st[s(d, "ghazni")].pieces[Piece::TalUnder], 4);
    assert_eq!(st.res(Faction::Taliban), 3);
    // Warlords March only once (3.3.2).
    put(d, &mut st, "balkh", Piece::WarUnder, 1);
    st.resources[Faction::Warlords.index()] = 5;
    let e = op(
        d,
        &mut st,
        Faction::Warlords,
        "march\nmove 1 balkh>samangan>kabul",
    )
    .unwrap_err();
    assert!(e.contains("3.3.2"), "{e}");
}

#[test]
fn sweep_may_not_pass_a_sabotaged_loc() {
    // 3.2.3: the LoC on the way must be free of Sabotage.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "kabul", Piece::CoalTroops, 2);
    st[s(d, "kandahar-kabul")].sabotage = true;
    st.resources[Faction::Government.index()] = 10;
    let e = op(
        d,
        &mut st,
        Faction::Coalition,
        "sweep\nin kandahar\nmove 2 troops kabul>kandahar-kabul>kandahar",
    )
    .unwrap_err();
    assert!(e.contains("unsabotaged"), "{e}");
}

#[test]
fn government_assault_counts_troops_in_provinces_and_thirds_in_mountains() {
    // 3.2.4: Government removes 1 per 2 cubes, 1 per 3 in Mountain; in
    // Provinces only Troops count; Bases go last; +6 Aid per Taliban Base.
    let (r, mut st) = empty();
    let d = r.data();
    assert!(d[s(d, "khowst")].is_mountain());
    put(d, &mut st, "khowst", Piece::GovTroops, 5);
    put(d, &mut st, "khowst", Piece::Police, 4);
    put(d, &mut st, "khowst", Piece::TalActive, 3);
    op(d, &mut st, Faction::Government, "assault\nin khowst").unwrap();
    assert_eq!(
        st[s(d, "khowst")].pieces[Piece::TalActive],
        2,
        "5 Troops / 3 = 1"
    );
    let aid = st.aid;
    put(d, &mut st, "helmand", Piece::GovTroops, 4);
    put(d, &mut st, "helmand", Piece::TalActive, 1);
    put(d, &mut st, "helmand", Piece::TalBase, 1);
    op(d, &mut st, Faction::Government, "assault\nin helmand").unwrap();
    let h = s(d, "helmand");
    assert_eq!(st[h].pieces.of(Faction::Taliban), 0);
    assert_eq!(st.aid, aid + 6);
    assert_eq!(st.res(Faction::Government), 24, "3 per space");
}

#[test]
fn underground_guerrillas_shield_their_bases() {
    // 3.2.4: a faction's Bases go only once it has no Guerrillas there.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "helmand", Piece::CoalTroops, 4);
    put(d, &mut st, "helmand", Piece::TalUnder, 1);
    put(d, &mut st, "helmand", Piece::TalBase, 1);
    op(d, &mut st, Faction::Coalition, "assault\nin helmand").unwrap();
    assert_eq!(st[s(d, "helmand")].pieces[Piece::TalBase], 1);
}

#[test]
fn attack_hits_on_a_roll_at_most_the_guerrillas_government_cubes_first() {
    // 3.3.3: roll <= Guerrillas: remove 2; Government cubes before Coalition;
    // Coalition pieces to Casualties; a 1 places a Guerrilla (Captured Goods).
    for seed in 0..12u8 {
        let (r, mut st) = empty();
        let d = r.data();
        put(d, &mut st, "helmand", Piece::TalUnder, 3);
        put(d, &mut st, "helmand", Piece::Police, 1);
        put(d, &mut st, "helmand", Piece::CoalTroops, 2);
        st.resources[Faction::Taliban.index()] = 2;
        let Order::Act(a) = parse(d, "attack\nin helmand") else {
            unreachable!()
        };
        let mut dice = Dice::seeded([seed; 32]);
        action::execute(d, &mut st, Faction::Taliban, &a, FULL, &mut dice).unwrap();
        let roll = dice.rolls()[0].value;
        let h = s(d, "helmand");
        if roll <= 3 {
            assert_eq!(st[h].pieces[Piece::Police], 0, "roll {roll}");
            assert_eq!(st[h].pieces[Piece::CoalTroops], 1);
            assert_eq!(st.casualties[Piece::CoalTroops], 1);
        } else {
            assert_eq!(st[h].pieces.cubes(), 3);
        }
        let captured = u8::from(roll == 1);
        assert_eq!(st[h].pieces[Piece::TalActive], 3, "all Activate");
        assert_eq!(st[h].pieces[Piece::TalUnder], captured);
    }
}

#[test]
fn ambush_succeeds_without_a_roll() {
    // 4.4.3: only 1 Underground Guerrilla Activates and the Attack succeeds.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "helmand", Piece::TalUnder, 2);
    put(d, &mut st, "helmand", Piece::GovTroops, 2);
    st.resources[Faction::Taliban.index()] = 1;
    let Order::Act(a) = parse(d, "attack\nsa ambush helmand\nin helmand") else {
        unreachable!()
    };
    let mut dice = Dice::seeded([1; 32]);
    action::execute(d, &mut st, Faction::Taliban, &a, FULL, &mut dice).unwrap();
    assert!(dice.rolls().is_empty());
    let h = s(d, "helmand");
    assert_eq!(st[h].pieces[Piece::GovTroops], 0);
    assert_eq!(st[h].pieces[Piece::TalActive], 1);
    assert_eq!(
        st[h].pieces[Piece::TalUnder],
        2,
        "one stays Underground, one placed"
    );
}

#[test]
fn terror_marks_shifts_and_sabotages() {
    // 3.3.4: Taliban Terror shifts toward Opposition, Warlord Terror sets
    // Neutral; on a LoC it Sabotages; LoCs cost nothing.
    let (r, mut st) = empty();
    let d = r.data();
    let k = s(d, "kandahar");
    st[k].support = Support::Support;
    put(d, &mut st, "kandahar", Piece::TalUnder, 1);
    put(d, &mut st, "kandahar-kabul", Piece::TalUnder, 1);
    st.resources[Faction::Taliban.index()] = 1;
    op(
        d,
        &mut st,
        Faction::Taliban,
        "terror\nin kandahar\nin kandahar-kabul",
    )
    .unwrap();
    assert_eq!(st[k].support, Support::Neutral);
    assert_eq!(st[k].terror, 1);
    assert!(st[s(d, "kandahar-kabul")].sabotage);
    assert_eq!(st.res(Faction::Taliban), 0);
    let b = s(d, "balkh");
    st[b].support = Support::Opposition;
    put(d, &mut st, "balkh", Piece::WarUnder, 1);
    st.resources[Faction::Warlords.index()] = 1;
    op(d, &mut st, Faction::Warlords, "terror\nin balkh").unwrap();
    assert_eq!(st[b].support, Support::Neutral);
}

#[test]
fn taliban_rally_in_pakistan_follows_islamabad() {
    // 6.6.1: no Taliban Rally in Pakistan at Hostility or Pressure; free at
    // Backing or Sponsorship. 3.3.1: Warlords never Rally in Pakistan.
    let (r, mut st) = empty();
    let d = r.data();
    st.resources[Faction::Taliban.index()] = 3;
    st.islamabad = 1;
    let e = op(d, &mut st, Faction::Taliban, "rally\nin waziristan").unwrap_err();
    assert!(e.contains("6.6.1"), "{e}");
    st.islamabad = 3;
    op(d, &mut st, Faction::Taliban, "rally\nin waziristan").unwrap();
    assert_eq!(st.res(Faction::Taliban), 3);
    st.resources[Faction::Warlords.index()] = 3;
    assert!(op(d, &mut st, Faction::Warlords, "rally\nin balochistan").is_err());
}

#[test]
fn rally_with_a_base_places_bases_plus_pop() {
    // 3.3.1: with a Base, place up to Bases + Pop Guerrillas; Warlords only in
    // non-Pashtun spaces.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "balkh", Piece::WarBase, 1);
    st.resources[Faction::Warlords.index()] = 3;
    assert!(op(d, &mut st, Faction::Warlords, "rally\nin balkh place 4").is_err());
    op(d, &mut st, Faction::Warlords, "rally\nin balkh place 3").unwrap();
    assert_eq!(st[s(d, "balkh")].pieces[Piece::WarUnder], 3);
}

#[test]
fn train_places_cubes_only_with_a_base_or_in_kabul() {
    // 3.2.1: cubes in Kabul or with a COIN Base; 3 a space for the Government;
    // the Coalition pays only where it places cubes.
    let (r, mut st) = empty();
    let d = r.data();
    st.resources[Faction::Government.index()] = 9;
    op(
        d,
        &mut st,
        Faction::Government,
        "train\nin kabul place 3 police 3 troops",
    )
    .unwrap();
    assert_eq!(st[s(d, "kabul")].pieces.gov_cubes(), 6);
    assert_eq!(st.res(Faction::Government), 6);
    let e = op(
        d,
        &mut st,
        Faction::Government,
        "train\nin helmand place 1 police",
    )
    .unwrap_err();
    assert!(e.contains("3.2.1"), "{e}");
    assert!(
        op(
            d,
            &mut st,
            Faction::Government,
            "train\nin kabul place 4 police 3 troops"
        )
        .is_err()
    );
}

#[test]
fn a_limited_operation_is_one_space_without_a_special_activity() {
    // 2.3.5, 4.1.
    let (r, mut st) = empty();
    let d = r.data();
    st.resources[Faction::Taliban.index()] = 5;
    let e = op(
        d,
        &mut st,
        Faction::Taliban,
        "rally limited\nin kandahar\nin helmand",
    )
    .unwrap_err();
    assert!(e.contains("2.3.5"), "{e}");
    put(d, &mut st, "kandahar", Piece::TalUnder, 2);
    let e = op(
        d,
        &mut st,
        Faction::Taliban,
        "rally limited\nin kandahar\nsa extort kandahar",
    )
    .unwrap_err();
    assert!(e.contains("4.1"), "{e}");
    // Ambush accompanies only Attack (4.1.1).
    let e = op(
        d,
        &mut st,
        Faction::Taliban,
        "rally\nsa ambush kandahar\nin kandahar",
    )
    .unwrap_err();
    assert!(e.contains("4.1.1"), "{e}");
}

#[test]
fn control_is_more_pieces_than_all_others() {
    // 1.7: COIN together, or the Taliban alone, exceeding all others.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "herat", Piece::Police, 1);
    put(d, &mut st, "herat", Piece::CoalTroops, 1);
    put(d, &mut st, "herat", Piece::WarUnder, 1);
    assert_eq!(st[s(d, "herat")].control, Control::Coin);
    put(d, &mut st, "herat", Piece::TalUnder, 1);
    assert_eq!(st[s(d, "herat")].control, Control::None);
    put(d, &mut st, "farah", Piece::TalUnder, 2);
    put(d, &mut st, "farah", Piece::WarUnder, 1);
    assert_eq!(st[s(d, "farah")].control, Control::Taliban);
}

#[test]
fn passing_pays_insurgents_one_and_the_government_three() {
    // 2.3.3.
    let (r, mut st) = game();
    let d = r.data();
    let mut ev = Vec::new();
    let (g, t) = (st.res(Faction::Government), st.res(Faction::Taliban));
    sequence::pass(d, &mut st, Faction::Coalition, &mut ev);
    sequence::pass(d, &mut st, Faction::Taliban, &mut ev);
    assert_eq!(st.res(Faction::Government), g + 3);
    assert_eq!(st.res(Faction::Taliban), t + 1);
}

#[test]
fn second_eligible_options_follow_the_first() {
    // 2.3.4: after an Op only, a LimOp; after Op + SA, a LimOp or the Event;
    // after the Event, an Op with or without an SA.
    let (r, mut st) = game();
    let d = r.data();
    on_card(&r, &mut st, CardNo(14));
    assert_eq!(
        sequence::offers(d, &st),
        vec![Offer::Event, Offer::Op, Offer::OpSa]
    );
    let f = Faction::Coalition;
    for (took, want) in [
        (Took::Op, vec![Offer::LimOp]),
        (Took::OpSa, vec![Offer::LimOp, Offer::Event]),
        (Took::Event, vec![Offer::Op, Offer::OpSa]),
    ] {
        st.stage = Stage::Card(CardTurn {
            first: Some((f, took)),
            ..Default::default()
        });
        assert_eq!(sequence::offers(d, &st), want, "{took:?}");
    }
}

#[test]
fn the_final_event_card_allows_only_limited_operations_without_sweep_or_march() {
    // 2.3.8.
    let (r, mut st) = game();
    let d = r.data();
    on_card(&r, &mut st, CardNo(14));
    st.deck.next = Some(CardNo(78));
    st.deck.props_drawn = st.deck.props_total;
    assert!(sequence::final_event_card(d, &st));
    assert_eq!(sequence::offers(d, &st), vec![Offer::Event, Offer::LimOp]);
    let Order::Act(a) = parse(d, "march\nmove 1 kandahar>zabol") else {
        unreachable!()
    };
    let terms = Terms {
        free: false,
        final_card: true,
        sa_allowed: false,
    };
    let e = action::execute(
        d,
        &mut st,
        Faction::Taliban,
        &a,
        terms,
        &mut Dice::seeded([0; 32]),
    )
    .unwrap_err();
    assert!(e.to_string().contains("2.3.8"), "{e}");
}

#[test]
fn executing_factions_become_ineligible_and_passers_stay_eligible() {
    // 2.3.2, 2.3.3, 2.3.6: the leftmost Eligible faction decides; a pass hands
    // the same slot on; executors are Ineligible for the next card.
    let (r, mut st) = game();
    let d = r.data().clone();
    on_card(&r, &mut st, CardNo(14));
    let order = d.card(CardNo(14)).unwrap().order.clone();
    let mut dice = Dice::seeded([5; 32]);
    assert_eq!(sequence::decider(&d, &st), Some(order[0]));
    sequence::act(&d, &mut st, order[0], &Order::Pass, &mut dice).unwrap();
    assert_eq!(sequence::decider(&d, &st), Some(order[1]));
    // 5.1 (version 11): the Taliban Base the text removes, where there is one.
    let ev = Order::Event {
        shaded: false,
        spaces: vec![s(&d, "oruzgan")],
        free: None,
    };
    sequence::act(&d, &mut st, order[1], &ev, &mut dice).unwrap();
    // After the Event, the 2nd Eligible may do an Operation (2.3.4).
    assert_eq!(sequence::offers(&d, &st), vec![Offer::Op, Offer::OpSa]);
    sequence::act(&d, &mut st, order[2], &Order::Pass, &mut dice).unwrap();
    sequence::act(&d, &mut st, order[3], &Order::Pass, &mut dice).unwrap();
    // The card is over: the next card is current.
    assert_eq!(st.deck.current, Some(CardNo(1)));
    assert!(!st.eligible[order[1].index()]);
    for f in [order[0], order[2], order[3]] {
        assert!(st.eligible[f.index()], "{f:?} passed and stays Eligible");
    }
}

#[test]
fn government_earnings_are_aid_plus_unsabotaged_econ() {
    // 6.3.1: Aid + 12 minus the Econ of Sabotaged LoCs; Taliban earn their
    // Bases; Warlords their Bases and Guerrillas on unsabotaged LoCs; Aid
    // drops 3 per Casualty.
    let (r, mut st) = empty();
    let d = r.data();
    st.aid = 10;
    st.resources = [0, 0, 0, 0];
    st[s(d, "kabul-tor-kham")].sabotage = true;
    put(d, &mut st, "waziristan", Piece::TalBase, 2);
    put(d, &mut st, "balkh", Piece::WarBase, 1);
    put(d, &mut st, "kabul-aibak", Piece::WarUnder, 2);
    st.casualties[Piece::CoalTroops] = 2;
    let mut ev = Vec::new();
    propaganda::resources_phase(d, &mut st, &mut ev);
    assert_eq!(st.res(Faction::Government), 10 + 12 - 4);
    assert_eq!(st.res(Faction::Taliban), 2);
    assert_eq!(st.res(Faction::Warlords), 3);
    assert_eq!(st.aid, 4);
}

#[test]
fn propaganda_sabotages_locs_the_taliban_outnumber_others_on() {
    // 6.2: Sabotage each unsabotaged LoC where Taliban Guerrillas outnumber
    // the non-Taliban pieces.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "farah-kandahar", Piece::TalUnder, 2);
    put(d, &mut st, "farah-kandahar", Piece::Police, 1);
    put(d, &mut st, "kabul-aibak", Piece::TalUnder, 1);
    put(d, &mut st, "kabul-aibak", Piece::Police, 1);
    propaganda::resources_phase(d, &mut st, &mut Vec::new());
    assert!(st[s(d, "farah-kandahar")].sabotage);
    assert!(!st[s(d, "kabul-aibak")].sabotage);
}

#[test]
fn desertion_takes_one_in_three_and_spares_two_cubes() {
    // 6.5: 1 in 3 Government cubes (round down); two cubes alone are unaffected.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "herat", Piece::Police, 2);
    put(d, &mut st, "kabul", Piece::Police, 4);
    put(d, &mut st, "kabul", Piece::GovTroops, 3);
    propaganda::desertion(d, &mut st, &mut Vec::new());
    assert_eq!(st[s(d, "herat")].pieces.gov_cubes(), 2);
    assert_eq!(st[s(d, "kabul")].pieces.gov_cubes(), 5);
}

#[test]
fn reset_moves_islamabad_toward_backing_unless_hard() {
    // 6.6, 6.6.1 (ruling A28): past an end the marker turns Hard; Hard flips
    // back at Reset instead of shifting.
    let (r, mut st) = empty();
    let d = r.data();
    st.islamabad = 1;
    propaganda::reset(d, &mut st, &mut Vec::new());
    assert_eq!(st.islamabad, 2);
    st.islamabad = 4;
    st.shift_islamabad(1);
    assert!(st.hard);
    assert_eq!(st.islamabad, 4);
    propaganda::reset(d, &mut st, &mut Vec::new());
    assert!(!st.hard);
    assert_eq!(st.islamabad, 4);
    propaganda::reset(d, &mut st, &mut Vec::new());
    assert_eq!(st.islamabad, 3);
    // Casualties: Bases and half the Troops leave the game (6.6).
    st.casualties[Piece::CoalTroops] = 3;
    st.casualties[Piece::CoalBase] = 1;
    let avail = st.available[Piece::CoalTroops];
    propaganda::reset(d, &mut st, &mut Vec::new());
    assert_eq!(st.out_of_play[Piece::CoalTroops], 1);
    assert_eq!(st.out_of_play[Piece::CoalBase], 1);
    assert_eq!(st.available[Piece::CoalTroops], avail + 2);
}

#[test]
fn victory_margins_and_the_warlords_double_condition() {
    // 7.2, 7.3: margins are totals minus thresholds; the Warlords need both
    // Uncontrolled Pop > 15 and Resources > 40 (their margin is the lower).
    let (r, mut st) = empty();
    let d = r.data();
    st.resources[Faction::Warlords.index()] = 45;
    let t = victory::totals(d, &st);
    assert_eq!(t.uncontrolled, 25, "the empty map is all Uncontrolled");
    assert_eq!(victory::margin(d, &t, Faction::Warlords), 5);
    assert_eq!(victory::instant_winners(d, &st), vec![Side(3)]);
    st.resources[Faction::Warlords.index()] = 40;
    assert!(
        victory::instant_winners(d, &st).is_empty(),
        "exceeds is strict (ruling A5)"
    );
    // The Coalition counts Available pieces (1.9): 26 here.
    let t = victory::totals(d, &st);
    assert_eq!(t.coalition, 26);
}

#[test]
fn ties_go_warlords_government_taliban_coalition() {
    // 7.1 (ruling A41: the Coalition, not listed, last).
    let (r, mut st) = empty();
    let d = r.data();
    // Make every margin equal by construction is hard; check the order on a
    // constructed tie of Government and Coalition at the same margin.
    st.patronage = 0;
    let rank = victory::ranking(d, &st);
    assert_eq!(rank.len(), 4);
    let pos = |s: u8| rank.iter().position(|(x, _)| x.0 == s).unwrap();
    let m = |s: u8| rank.iter().find(|(x, _)| x.0 == s).unwrap().1;
    for a in 0..4u8 {
        for b in 0..4u8 {
            if m(a) > m(b) {
                assert!(pos(a) < pos(b));
            }
        }
    }
}

#[test]
fn two_propaganda_cards_in_a_row_give_one_round() {
    // 6.0: a Propaganda card right after another is played without a Round.
    let (r, mut st) = game();
    let d = r.data().clone();
    st.deck.current = Some(CardNo(73));
    st.deck.next = Some(CardNo(74));
    st.deck.last_was_propaganda = false;
    st.deck.props_drawn = 2;
    st.stage = Stage::Card(CardTurn::default());
    let mut ev = Vec::new();
    // The Round of card 73 ran: its Reset draws on.
    st.deck.last_was_propaganda = true;
    st.deck.current = Some(CardNo(73));
    sequence::next_card(&d, &mut st, &mut Dice::seeded([2; 32]), &mut ev).unwrap();
    assert!(
        ev.iter().any(|e| e.text.contains("without a Round")),
        "{ev:?}"
    );
    assert!(st.deck.played.contains(&CardNo(74)));
}

#[test]
fn the_deck_draws_every_card_once_with_labelled_rolls() {
    // 2.1: each pile holds its Events and one Propaganda card; every draw is a
    // public labelled roll.
    let (r, st) = game();
    let d = r.data();
    let mut deck = st.deck.clone();
    let mut dice = Dice::seeded([9; 32]);
    let mut seen = Vec::new();
    while let Some(c) = deck.draw(&mut dice).unwrap() {
        seen.push(c);
    }
    let per = usize::from(d.scenario.events_per_pile) + 1;
    assert_eq!(seen.len(), per * usize::from(d.scenario.piles));
    for (i, pile) in seen.chunks(per).enumerate() {
        assert_eq!(
            pile.iter().filter(|c| **c > CardNo(72)).count(),
            1,
            "pile {i}: one Propaganda card"
        );
    }
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), seen.len(), "no card twice");
    assert!(dice.rolls().iter().all(|r| r.label.contains("(2.1)")));
}

/// Every line of a move that does not read is reported at once, each with
/// its line, the column of the word at fault and a rule, with "did you
/// mean" for mistyped spaces, factions and keywords (the issue's item 8).
#[test]
fn every_bad_line_of_a_move_is_reported_at_once() {
    let d = Data::embedded().unwrap();
    let text = "transfer 2 to talibn\nrally\nin kandhar\nin oruzgan base\nsa extrot waziristan\ncivic kabul x\nmarch 3 bamian>ghazni";
    let e = orders::parse_all(&d, &lines(text), false).unwrap_err();
    assert_eq!(
        e.iter().map(|e| e.line).collect::<Vec<_>>(),
        [1, 3, 5, 6, 7],
        "{e:#?}"
    );
    // 1.5: the faction; the column of the mistyped word.
    assert!(
        e[0].message.contains("did you mean taliban?"),
        "{}",
        e[0].message
    );
    assert_eq!(e[0].column, 15);
    assert_eq!(e[0].rule.as_deref(), Some("1.5"));
    // 1.3: the space.
    assert!(
        e[1].message.contains("did you mean kandahar?"),
        "{}",
        e[1].message
    );
    assert_eq!((e[1].column, e[1].rule.as_deref()), (4, Some("1.3")));
    // 4.0: the Special Activity's name.
    assert!(
        e[2].message.contains("did you mean extort?"),
        "{}",
        e[2].message
    );
    // The Rally's own line: its rule (3.3.1) when the error names none.
    assert_eq!(e[3].rule.as_deref(), Some("3.3.1"));
    assert_eq!(e[3].column, 13);
    // A line that starts with no known word.
    assert!(e[4].message.contains("an Operation's lines start with"));
    // Every error names a rule.
    assert!(e.iter().all(|e| e.rule.is_some()), "{e:#?}");
    // The first error alone is what `parse` gives.
    assert_eq!(orders::parse(&d, &lines(text), false).unwrap_err(), e[0]);
    // A mistyped order word, and a Propaganda plan's lines (6.4, 6.5).
    let e = orders::parse_all(&d, &lines("trian\nin kabul place 2 police"), false).unwrap_err();
    assert!(
        e[0].message.contains("did you mean train?"),
        "{}",
        e[0].message
    );
    let plan = "as govrnment\ncivic kabul 2\nredploy 2 police kabul>kabul-aibak\nredeploy 3 troops helmnd>kabul\ndone";
    let e = orders::parse_all(&d, &lines(plan), true).unwrap_err();
    assert_eq!(e.iter().map(|e| e.line).collect::<Vec<_>>(), [1, 3, 4]);
    assert!(
        e[1].message.contains("did you mean redeploy?"),
        "{}",
        e[1].message
    );
    assert_eq!(e[2].rule.as_deref(), Some("1.3"));
    assert!(
        e[2].message.contains("did you mean helmand?"),
        "{}",
        e[2].message
    );
}

#[test]
fn order_errors_carry_the_line_and_the_rule() {
    let d = Data::embedded().unwrap();
    let e = orders::parse(&d, &lines("rally\nin nowhere"), false).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("nowhere"));
    let e = orders::parse(&d, &lines("event sideways"), false).unwrap_err();
    assert_eq!(e.rule.as_deref(), Some("5.2"));
    let (r, mut st) = empty();
    let d = r.data();
    st.resources[Faction::Taliban.index()] = 5;
    let e = op(
        d,
        &mut st,
        Faction::Taliban,
        "rally\nin kandahar\nin kandahar",
    )
    .unwrap_err();
    assert!(e.contains("line 3") && e.contains("(3.1)"), "{e}");
}

#[test]
fn air_strike_in_pakistan_shifts_islamabad() {
    // 4.2.3 (ruling A24): Pakistan allowed; Islamabad shifts once toward Sponsorship.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "helmand", Piece::CoalTroops, 1);
    put(d, &mut st, "helmand", Piece::TalActive, 1);
    put(d, &mut st, "waziristan", Piece::TalActive, 1);
    put(d, &mut st, "balochistan", Piece::TalActive, 1);
    st.islamabad = 2;
    op(
        d,
        &mut st,
        Faction::Coalition,
        "assault\nin helmand\nsa airstrike waziristan taliban, balochistan taliban",
    )
    .unwrap();
    assert_eq!(st[s(d, "waziristan")].pieces.of(Faction::Taliban), 0);
    assert_eq!(st.islamabad, 3);
}

#[test]
fn traffic_and_suborn_pay_and_take() {
    // 4.5.2: +1 per Warlord Base, no Coalition pieces; 4.5.3: 2 a space.
    let (r, mut st) = empty();
    let d = r.data();
    put(d, &mut st, "balkh", Piece::WarBase, 2);
    put(d, &mut st, "balkh", Piece::WarUnder, 1);
    put(d, &mut st, "balkh", Piece::Police, 3);
    st.resources[Faction::Warlords.index()] = 3;
    op(
        d,
        &mut st,
        Faction::Warlords,
        "rally\nin balkh\nsa traffic balkh",
    )
    .unwrap();
    assert_eq!(st.res(Faction::Warlords), 3 - 1 + 2);
    op(
        d,
        &mut st,
        Faction::Warlords,
        "terror\nin balkh\nsa suborn balkh cubes 3",
    )
    .unwrap();
    assert_eq!(st[s(d, "balkh")].pieces.gov_cubes(), 0);
}

#[test]
fn events_run_their_steps_and_capabilities_hook_into_costs() {
    // 5.1, 5.3: a Capability's modifier changes an Operation's cost.
    let (r, mut st) = empty();
    let d = r.data();
    let card = d.card(CardNo(23)).unwrap().clone();
    assert_eq!(card.title, "Roadside IEDs");
    let (ev, halt) =
        umpire_adp::effects::execute(d, &mut st, Faction::Taliban, &card, false, &[]).unwrap();
    assert!(!ev.is_empty());
    assert!(halt.is_none(), "no step names another faction to choose");
    assert_eq!(st.capabilities.len(), 1);
    st.resources[Faction::Taliban.index()] = 5;
    op(d, &mut st, Faction::Taliban, "rally\nin kandahar").unwrap();
    assert_eq!(
        st.res(Faction::Taliban),
        5 - st.cost_override(Faction::Taliban, "rally").unwrap_or(1)
    );
}

#[test]
fn the_opening_position_satisfies_the_invariants() {
    let (r, st) = game();
    Ruleset::invariants(&r, &st).unwrap();
    let mut bad = st.clone();
    let d = r.data();
    bad[s(d, "waziristan")].pieces[Piece::Police] += 1;
    bad.available[Piece::Police] -= 1;
    assert!(
        Ruleset::invariants(&r, &bad)
            .unwrap_err()
            .0
            .contains("Pakistan")
    );
}

#[test]
fn an_event_may_grant_a_free_operation() {
    // 3.1.2, 5.5: a free Operation costs nothing; 5.1.1: only the executor's own.
    use umpire_adp::cards::Step;
    let (r, mut st) = empty();
    let d = r.data().clone();
    let card = d
        .cards
        .iter()
        .find(|c| c.unshaded.iter().any(|s| matches!(s, Step::FreeOp(_))))
        .unwrap()
        .clone();
    put(&d, &mut st, "helmand", Piece::CoalTroops, 2);
    put(&d, &mut st, "helmand", Piece::TalActive, 2);
    st.resources[Faction::Government.index()] = 0;
    on_card(&r, &mut st, card.number);
    let first = sequence::decider(&d, &st).unwrap();
    let Order::Event { free: Some(a), .. } = parse(&d, "event unshaded\nassault\nin helmand")
    else {
        panic!("the op lines after an event line are its free Operation")
    };
    let mut dice = Dice::seeded([1; 32]);
    // The Coalition Assaults for free; another faction may not use a COIN Op.
    let mut copy = st.clone();
    umpire_adp::effects::free_op(
        &d,
        &mut copy,
        Faction::Coalition,
        &card,
        false,
        &a,
        &mut dice,
    )
    .unwrap();
    assert_eq!(copy[s(&d, "helmand")].pieces[Piece::TalActive], 0);
    assert!(
        umpire_adp::effects::free_op(
            &d,
            &mut st.clone(),
            Faction::Taliban,
            &card,
            false,
            &a,
            &mut dice
        )
        .is_err()
    );
    // Not granted by the shaded side.
    assert!(
        umpire_adp::effects::free_op(
            &d,
            &mut st.clone(),
            Faction::Coalition,
            &card,
            true,
            &a,
            &mut dice
        )
        .is_err()
    );
    let _ = first;
}

#[test]
fn sudden_propaganda_swaps_the_revealed_propaganda_card_in() {
    // 2.3.7 Sudden Propaganda option; the Final Event Card rule is ignored.
    let r = Adp::new();
    let mut st = r
        .setup(&Setup {
            scenario: "standin".into(),
            options: [("sudden_propaganda".to_string(), "yes".to_string())].into(),
            sides: ["coalition", "government", "taliban", "warlords"]
                .map(String::from)
                .to_vec(),
        })
        .unwrap();
    let d = r.data().clone();
    let mut dice = Dice::seeded([4; 32]);
    Ruleset::deal(&r, &mut st, &mut dice).unwrap();
    // Play on until a Propaganda card comes: it is always current, never next.
    let mut guard = 0;
    while st.finished.is_none() && guard < 400 {
        guard += 1;
        assert!(
            st.deck
                .next
                .and_then(|n| d.card(n))
                .is_none_or(|c| !c.is_propaganda())
                || st
                    .deck
                    .current
                    .and_then(|n| d.card(n))
                    .is_some_and(|c| c.is_propaganda()),
            "a Propaganda card is shown as the next card"
        );
        assert!(!sequence::final_event_card(&d, &st));
        let p = Ruleset::prompt(&r, &st);
        let aw = &p.awaiting[0];
        let text = aw.default.join("\n");
        let o = orders::parse(&d, &lines(&text), matches!(st.stage, Stage::Propaganda(_))).unwrap();
        Ruleset::apply(&r, &mut st, aw.side, &o[0].1, &mut dice).unwrap();
    }
    assert!(st.finished.is_some(), "a game of passes ends");
}

#[test]
fn the_deal_draws_the_first_card_and_shows_the_next() {
    // 2.2: the top card is played and the next revealed; one card ahead.
    let (r, st) = dealt();
    let d = r.data();
    assert!(st.deck.current.is_some() && st.deck.next.is_some());
    assert_eq!(
        st.deck.left() as usize,
        d.scenario.piles as usize * (d.scenario.events_per_pile as usize + 1) - 2
    );
    let p = Ruleset::prompt(&r, &st);
    assert_eq!(p.awaiting.len(), 1, "{p:?}");
    let v = Ruleset::view(&r, &st, umpire_core::ruleset::Viewer::Public);
    assert!(v.status[0].starts_with("Current card: #"));
    assert!(v.status.iter().any(|l| l.starts_with("Next card: #")));
}

#[test]
fn the_readme_examples_parse() {
    let d = Data::embedded().unwrap();
    let blocks = [
        "event unshaded\nassault\nin helmand",
        "rally\nsa extort waziristan northwest-frontier\nin kandahar\nin oruzgan base\nin waziristan place 2\nsharia oruzgan 1",
        "train\nin kabul place 3 police 2 troops\ncivic kabul 2\nsa surge 2 troops kabul>kandahar, roll warlords 2",
        "sweep\nin kandahar\nmove 2 troops kabul>kandahar-kabul>kandahar with 2\nmove 1 troops zabol>kandahar",
        "patrol\nmove 2 police kabul>kabul-aibak\nassault kabul-aibak",
        "assault\nin helmand with-government target taliban\nsa airstrike waziristan taliban, balochistan taliban",
        "march\nmove 2 ghazni>bamian\nmove 3 kandahar>zabol>ghazni",
        "attack\nsa ambush helmand\nin helmand target government coalition",
        "terror\nin kandahar\nin kandahar-kabul",
        "assault\nin kabul\nsa airlift 3 troops kabul>helmand with 2",
        "train\nin kabul\nsa govern kabul returnees, balkh patronage",
        "patrol\nmove 1 police kabul>kabul-aibak\nsa transport 3 kabul>kandahar-kabul>kandahar",
        "train\nin kabul\nsa eradicate balkh",
        "rally\nin kandahar\nsa infiltrate kandahar remove government warlords",
        "march\nmove 1 balkh>samangan\nsa infiltrate kandahar replace warlords",
        "rally\nin balkh\nsa cultivate balkh",
        "rally\nin balkh\nsa traffic balkh herat",
        "terror\nin balkh\nsa suborn balkh cubes 3, herat flip",
    ];
    for b in blocks {
        orders::parse(&d, &lines(b), false).unwrap_or_else(|e| panic!("{b}: {e}"));
    }
    let plan = "as government\ncivic kabul 2\nredeploy 2 police kabul>kabul-aibak\nredeploy 3 troops helmand>kabul\ndone";
    let o = orders::parse(&d, &lines(plan), true).unwrap();
    assert!(matches!(&o[0].1, Order::Plan(Some(Faction::Government), p) if p.len() == 3));
}

#[test]
fn the_view_carries_the_point_to_point_map() {
    let (r, st) = dealt();
    let v = Ruleset::view(&r, &st, umpire_core::ruleset::Viewer::Public);
    let b = v.board.expect("a board");
    let p = b.as_points().expect("a point-to-point board");
    assert_eq!(p.spaces.len(), 32);
    assert_eq!(p.links.len(), 103);
    let kabul = p.spaces.values().find(|s| s.name == "Kabul").unwrap();
    assert_eq!(kabul.control, Some('C'));
    assert!(kabul.markers.iter().any(|m| m.name == "Support"));
}

#[test]
fn the_map_renders_at_72_columns() {
    use umpire_testkit::render::hexmap::Options;
    let (r, st) = dealt();
    let b = Ruleset::view(&r, &st, umpire_core::ruleset::Viewer::Public)
        .board
        .unwrap();
    let opts = Options {
        width: 72,
        ..Options::default()
    };
    let text = umpire_testkit::render::map::full(&b, &opts);
    assert!(
        text.contains("Kabul") && text.contains("Kandahar-Spin Boldak"),
        "{text}"
    );
    assert!(text.lines().all(|l| l.chars().count() <= 72), "{text}");
}

/// The first Event card whose faction order `fits`, current, its 1st
/// Eligible having taken Operations (2.3.4).
fn after_first_took_ops(r: &Adp, st: &mut State, fits: impl Fn(&[Faction]) -> bool) -> CardNo {
    let d = r.data();
    let card = d
        .cards
        .iter()
        .find(|c| !c.is_propaganda() && c.order.len() > 1 && fits(&c.order))
        .unwrap();
    on_card(r, st, card.number);
    st.stage = Stage::Card(CardTurn {
        first: Some((card.order[0], Took::Op)),
        ..Default::default()
    });
    card.number
}

#[test]
fn a_non_player_offered_a_limited_operation_executes_a_full_one() {
    // 8.1 Operations Not Limited: a full Operation with a Special Activity;
    // a player in its place has a Limited Operation only (2.3.4).
    let (r, mut st) = game_in("standin-1p-coalition", &["coalition"]);
    let d = r.data().clone();
    let card = after_first_took_ops(&r, &mut st, |c| c[1] != Faction::Coalition);
    assert!(st.seats.is_np(d.card(card).unwrap().order[1]));
    assert_eq!(sequence::offers(&d, &st), vec![Offer::Op, Offer::OpSa]);
    let (r4, mut st4) = game();
    on_card(&r4, &mut st4, card);
    st4.stage = st.stage.clone();
    assert_eq!(sequence::offers(r4.data(), &st4), vec![Offer::LimOp]);
}

#[test]
fn non_players_low_on_resources_pass_instead_of_operating() {
    // 8.1 Low Resources: an Insurgent at 0, the Government below 3; a
    // Non-player Coalition operates even when the Government is out.
    let (_, mut st) = game_in("standin-1p-coalition", &["coalition"]);
    for (f, n, low) in [
        (Faction::Government, 2, true),
        (Faction::Government, 3, false),
        (Faction::Taliban, 0, true),
        (Faction::Taliban, 1, false),
        (Faction::Warlords, 0, true),
        (Faction::Coalition, 0, false),
    ] {
        st.resources[f.index()] = n;
        assert_eq!(nonplayer::low_resources(&st, f), low, "{f:?} at {n}");
    }
}

#[test]
fn a_non_player_meeting_its_condition_makes_every_player_lose() {
    // 7.1: if any Non-player passes a victory check, all players lose.
    let (r, st) = game_in("standin-2p-np", &["coalition", "taliban"]);
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    // Every Afghan space empty, so Uncontrolled; Warlord Resources over 40.
    st.resources[Faction::Warlords.index()] = 60;
    assert_eq!(victory::np_met(&d, &st), vec![Faction::Warlords]);
    assert!(victory::check_met(&d, &st));
    let o = victory::outcome(&d, &st, "a test", &|s| format!("side{}", s.0));
    assert!(o.winners.is_empty(), "{}", o.summary);
    assert!(
        o.summary.contains("Non-player Warlords wins"),
        "{}",
        o.summary
    );
    // With four players the Warlords' player meets the condition instead.
    let (r4, mut st4) = empty();
    st4.resources[Faction::Warlords.index()] = 60;
    assert!(victory::instant_winners(r4.data(), &st4).contains(&Side(3)));
}

#[test]
fn non_players_play_their_cards_at_once_with_labelled_rolls() {
    // 8.1: a Non-player has no key; the umpire plays it inside the move
    // (here the set-up's deal) until a player is asked (2.3.2).
    let (r, mut st) = game_in("standin-1p-taliban", &["taliban"]);
    let mut dice = Dice::seeded([5; 32]);
    Ruleset::deal(&r, &mut st, &mut dice).unwrap();
    let d = r.data();
    match &st.stage {
        Stage::Card(_) => assert_eq!(sequence::decider(d, &st), Some(Faction::Taliban)),
        Stage::Propaganda(p) => assert_eq!(p.waiting, vec![Faction::Taliban]),
        Stage::Over | Stage::Start => panic!("the game should go on"),
    }
    let prompt = Ruleset::prompt(&r, &st);
    assert!(prompt.awaiting.iter().all(|a| a.side == Side(0)));
}

#[test]
fn voluntary_transfers_go_with_the_givers_mail_but_never_within_one_player() {
    // 1.5.1 (digest D5): the faction executing may give Resources, and the
    // Government Patronage to the Warlords; 1.5: not between one player's
    // own factions; 1.8: the Coalition holds no Resources.
    let (r, mut st) = dealt();
    let d = r.data().clone();
    let f = sequence::decider(&d, &st).expect("a faction is asked");
    let side = st.seats.side(f).unwrap();
    let to = if f == Faction::Taliban {
        Faction::Warlords
    } else {
        Faction::Taliban
    };
    let give = |st: &mut State, text: &str| {
        let o = Ruleset::parse(&r, st, side, &lines(text)).map_err(|e| e.to_string())?;
        let mut dice = Dice::seeded([1; 32]);
        o.iter()
            .try_for_each(|(_, o)| Ruleset::apply(&r, st, side, o, &mut dice).map(|_| ()))
            .map_err(|e| e.to_string())
    };
    if f != Faction::Coalition {
        st.resources[f.index()] = 5;
        let before = st.res(to);
        give(&mut st, &format!("transfer 2 to {}", to.key())).unwrap();
        assert_eq!((st.res(f), st.res(to)), (3, before + 2));
        let e = give(&mut st, &format!("transfer 9 to {}", to.key())).unwrap_err();
        assert!(e.contains("only 3 Resources") && e.contains("1.5.1"), "{e}");
    }
    let e = give(&mut st, "transfer 1 to coalition").unwrap_err();
    assert!(e.contains("1.8") || e.contains("1.5.1"), "{e}");
    // Two factions of one player may not trade (1.5).
    let (r2, st2) = game_in("standin-2p", &["coin", "insurgents"]);
    assert!(st2.seats.same_player(Faction::Taliban, Faction::Warlords));
    let mut st2 = st2;
    let e = same_player_transfer(&r2, &mut st2);
    assert!(e.contains("1.5"), "{e}");
}

/// A Taliban transfer to the Warlords in the two-player game, on a card
/// where the Taliban are asked.
fn same_player_transfer(r: &Adp, st: &mut State) -> String {
    let d = r.data().clone();
    let card = d
        .cards
        .iter()
        .find(|c| !c.is_propaganda() && c.order.first() == Some(&Faction::Taliban))
        .unwrap()
        .number;
    on_card(r, st, card);
    let side = st.seats.side(Faction::Taliban).unwrap();
    let o = Ruleset::parse(r, st, side, &lines("transfer 1 to warlords")).unwrap();
    Ruleset::apply(r, st, side, &o[0].1, &mut Dice::seeded([1; 32]))
        .unwrap_err()
        .to_string()
}

#[test]
fn train_takes_cubes_and_a_base_from_the_map_when_none_are_available() {
    // 1.4.1 EXCEPTIONS (Training) and 3.2.1: with no cube of the kind
    // Available, Train takes them from elsewhere on the map; step 2 replaces 3
    // cubes with a Base "from map if needed".
    let (r, mut st) = empty();
    let d = r.data().clone();
    let police = st.available[Piece::Police];
    put(&d, &mut st, "herat", Piece::Police, police);
    st.resources[Faction::Government.index()] = 9;
    op(
        &d,
        &mut st,
        Faction::Government,
        "train\nin kabul place 3 police from herat",
    )
    .unwrap();
    assert_eq!(st[s(&d, "kabul")].pieces[Piece::Police], 3);
    assert_eq!(st[s(&d, "herat")].pieces[Piece::Police], police - 3);
    // Without `from`, only what is Available is placed.
    op(
        &d,
        &mut st,
        Faction::Government,
        "train\nin kabul place 2 police",
    )
    .unwrap();
    assert_eq!(st[s(&d, "kabul")].pieces[Piece::Police], 3);
    // The Base: every Government Base on the map, one taken from Balkh.
    let bases = st.available[Piece::GovBase];
    put(&d, &mut st, "balkh", Piece::GovBase, bases);
    st.resources[Faction::Government.index()] = 3;
    let e = op(
        &d,
        &mut st,
        Faction::Government,
        "train\nin kabul\nbase kabul",
    )
    .unwrap_err();
    assert!(
        e.contains("base SPACE from SPACE") && e.contains("3.2.1"),
        "{e}"
    );
    op(
        &d,
        &mut st,
        Faction::Government,
        "train\nin kabul\nbase kabul from balkh",
    )
    .unwrap();
    assert_eq!(st[s(&d, "kabul")].pieces[Piece::GovBase], 1);
    assert_eq!(st[s(&d, "balkh")].pieces[Piece::GovBase], bases - 1);
    assert_eq!(st[s(&d, "kabul")].pieces.gov_cubes(), 0);
}

#[test]
fn standing_transfer_offers_give_while_the_receiver_executes() {
    // 1.5.1 (digest D5): a transfer may go while the receiver executes; a
    // standing offer makes it without the giver's mail. Negotiations are
    // open: every side reads it (in its status, although the move that
    // set it is sealed with the side's other standing orders, D1).
    let (r, mut st) = game();
    let d = r.data().clone();
    let warlords = st.seats.side(Faction::Warlords).unwrap();
    let e = Ruleset::set_standing(&r, &mut st, warlords, &lines("transfer 2 to taliban")).unwrap();
    assert!(
        e[0].text.contains("transfer 2 to taliban as warlords"),
        "{e:?}"
    );
    assert_eq!(
        Ruleset::standing(&r, &st, warlords),
        ["transfer 2 to taliban as warlords"]
    );
    let coalition = st.seats.side(Faction::Coalition).unwrap();
    let seen = Ruleset::view(&r, &st, umpire_core::ruleset::Viewer::Side(coalition)).status;
    assert!(
        seen.iter()
            .any(|l| l.contains("Standing transfer offers (1.5.1): transfer 2 to taliban")),
        "{seen:?}"
    );
    // Not to the Coalition (1.8), and only one's own factions give.
    assert!(
        Ruleset::set_standing(
            &r,
            &mut st.clone(),
            warlords,
            &lines("transfer 1 to coalition")
        )
        .is_err()
    );
    assert!(
        Ruleset::set_standing(
            &r,
            &mut st.clone(),
            warlords,
            &lines("transfer 1 to taliban as government")
        )
        .is_err()
    );
    // The Taliban execute an Operation: the offer goes first.
    let card = d
        .cards
        .iter()
        .find(|c| !c.is_propaganda() && c.order.first() == Some(&Faction::Taliban))
        .unwrap()
        .number;
    on_card(&r, &mut st, card);
    st.resources[Faction::Taliban.index()] = 0;
    st.resources[Faction::Warlords.index()] = 5;
    let taliban = st.seats.side(Faction::Taliban).unwrap();
    let o = Ruleset::parse(&r, &st, taliban, &lines("terror\nin oruzgan")).unwrap();
    let ev = Ruleset::apply(&r, &mut st, taliban, &o[0].1, &mut Dice::seeded([1; 32])).unwrap();
    assert!(
        ev.iter().any(|e| e.text.contains("standing offer")),
        "{ev:?}"
    );
    assert_eq!(st.res(Faction::Warlords), 3);
    // 2 given, 1 paid for the Terror (3.3.4).
    assert_eq!(st.res(Faction::Taliban), 1);
    // No lines withdraw the offers.
    Ruleset::set_standing(&r, &mut st, warlords, &[]).unwrap();
    assert!(Ruleset::standing(&r, &st, warlords).is_empty());
}

#[test]
fn random_spaces_roll_three_dice_and_walk_down_the_table() {
    // 8.2: tan die the column, black the trio, green the space in the trio;
    // a space that is not a candidate: walk down the column, on to the next,
    // and from Kandahar round to Balochistan. Kabul fills a whole trio.
    let d = Data::embedded().unwrap();
    assert_eq!(d.random_spaces.len(), 27);
    assert_eq!(d[d.random_spaces[0]].key, "balochistan");
    assert_eq!(d[d.random_spaces[26]].key, "kandahar");
    let kabul = d.kabul();
    assert_eq!(d.random_spaces.iter().filter(|s| **s == kabul).count(), 3);
    for seed in 0..12u8 {
        let mut dice = Dice::seeded([seed; 32]);
        // Only Balochistan: every walk ends there, wrapping if it must.
        let b = s(&d, "balochistan");
        assert_eq!(
            nonplayer::table_walk(&d, &[b], Faction::Warlords, &mut dice).unwrap(),
            b
        );
        let labels: Vec<String> = dice.rolls().iter().map(|r| r.label.clone()).collect();
        assert_eq!(labels.len(), 3);
        assert!(labels[0].contains("8.2: Random Spaces") && labels[0].contains("tan"));
        assert!(labels[1].contains("black") && labels[2].contains("green"));
        // The walk reaches the first candidate at or after the space rolled.
        let r: Vec<u32> = dice.rolls().iter().map(|r| r.value).collect();
        let start = ((r[0] - 1) / 2 * 9 + (r[1] - 1) / 2 * 3 + (r[2] - 1) / 2) as usize;
        let (herat, kandahar) = (s(&d, "herat"), s(&d, "kandahar"));
        let mut again = Dice::seeded([seed; 32]);
        let got =
            nonplayer::table_walk(&d, &[herat, kandahar], Faction::Taliban, &mut again).unwrap();
        let want = if (4..=26).contains(&start) {
            kandahar
        } else {
            herat
        };
        assert_eq!(got, want, "start {start}");
    }
}

#[test]
fn a_halo_instruction_overrides_the_event_choice() {
    // 8.4.1: with a gray halo on its symbol, a Non-player first checks the
    // card's instruction on its faction sheet. The sources have none, so a
    // club's `[[halo]]` record stands for one here.
    let (r, mut st) = game_in("standin-3p-np", &["coalition", "government", "taliban"]);
    let d = r.data().clone();
    let card = d
        .cards
        .iter()
        .filter(|c| !c.is_propaganda() && c.order.first() == Some(&Faction::Warlords))
        .find(|c| {
            on_card(&r, &mut st, c.number);
            nonplayer::choose(&d, &st, Faction::Warlords, &mut Dice::seeded([2; 32]))
                .unwrap()
                .starts_with("event shaded")
        })
        .expect("a card whose Event the Non-player Warlords take")
        .number;
    let halo = format!(
        "{}\n[[halo]]\ncard = {card}\nfaction = \"warlords\"\ndo = \"operations\"\nsrc = \"stand-in: a test\"\n",
        data::NONPLAYER_TOML
    );
    let d2 = Data::load_with(
        data::MAP_TOML,
        data::FORCES_TOML,
        data::CARDS_TOML,
        data::SETUP_TOML,
        &halo,
    )
    .unwrap();
    assert_eq!(d2.halos.len(), 1);
    on_card(&r, &mut st, card);
    let text = nonplayer::choose(&d2, &st, Faction::Warlords, &mut Dice::seeded([2; 32])).unwrap();
    assert!(!text.starts_with("event"), "{text}");
    // A malformed instruction is refused with its rule.
    let bad = format!(
        "{}\n[[halo]]\ncard = 1\nfaction = \"warlords\"\ndo = \"maybe\"\nsrc = \"stand-in: a test\"\n",
        data::NONPLAYER_TOML
    );
    let e = Data::load_with(
        data::MAP_TOML,
        data::FORCES_TOML,
        data::CARDS_TOML,
        data::SETUP_TOML,
        &bad,
    )
    .unwrap_err();
    assert!(e.iter().any(|e| e.contains("8.4.1")), "{e:?}");
}

#[test]
fn the_stand_in_set_up_opens_with_the_government_nearest_its_goal() {
    // 7.3 margins at the stand-in set-up (games/adp/setup.toml): the figures
    // its header and docs/dev/selfplay.md give for the self-play balance.
    let (r, st) = game();
    let d = r.data();
    let t = victory::totals(d, &st);
    let m: Vec<i32> = Faction::ALL
        .into_iter()
        .map(|f| victory::margin(d, &t, f))
        .collect();
    assert_eq!(m, [-13, -10, -12, -25]);
    // The public values: Aid 15, Government 30, Warlords 15 (digest 5).
    assert_eq!(st.aid, 15);
    assert_eq!(st.res(Faction::Government), 30);
    assert_eq!(st.res(Faction::Warlords), 15);
}

/// The Taliban to act on an Event card, on the emptied map, with Resources.
fn taliban_on_card() -> (Adp, State, Side) {
    let (r, mut st) = empty();
    let card = r
        .data()
        .cards
        .iter()
        .find(|c| !c.is_propaganda() && c.order.first() == Some(&Faction::Taliban))
        .unwrap()
        .number;
    on_card(&r, &mut st, card);
    st.resources[Faction::Taliban.index()] = 10;
    let side = st.seats.side(Faction::Taliban).unwrap();
    (r, st, side)
}

#[test]
fn every_illegal_line_of_an_operation_is_reported_at_once() {
    // 3.1: each space selected once; 3.3.1: a Base takes 2 Guerrillas there.
    // The lines that read (parse_all) are carried out; each illegal one is
    // set aside and the later ones still checked, each error with its line,
    // column and rule.
    let (r, st, taliban) = taliban_on_card();
    let text = "rally\nin kandahar\n  in kandahar\nin oruzgan base\nin zabol\nin kandahar";
    let o = Ruleset::parse_all(&r, &st, taliban, &lines(text)).unwrap();
    let mut after = st.clone();
    let mut dice = Dice::seeded([1; 32]);
    let e = Ruleset::apply(&r, &mut after, taliban, &o[0].1, &mut dice)
        .unwrap_err()
        .to_string();
    assert!(e.contains("3 lines are illegal"), "{e}");
    assert!(
        e.contains("line 3, column 4: Kandahar is already selected"),
        "{e}"
    );
    assert!(
        e.contains("line 4, column 4: ") && e.contains("(3.3.1)"),
        "{e}"
    );
    assert!(
        e.contains("line 6, column 4: Kandahar is already selected"),
        "{e}"
    );
    assert!(!e.contains("line 5"), "{e}");
    assert_eq!(e.matches("(3.1)").count(), 2, "{e}");
    // One illegal line alone keeps its rule at the end, as before.
    let o =
        Ruleset::parse_all(&r, &st, taliban, &lines("rally\nin kandahar\nin kandahar")).unwrap();
    let e = Ruleset::apply(&r, &mut st.clone(), taliban, &o[0].1, &mut dice).unwrap_err();
    assert_eq!(
        e,
        umpire_core::ruleset::RuleError::illegal(
            "line 3, column 4: Kandahar is already selected for this rally",
            "3.1"
        )
    );
    assert_eq!(dice.count(), 0);
}

#[test]
fn after_an_illegal_line_no_die_is_rolled_and_every_line_is_checked() {
    // Invariant 4: a move is refused before its first roll. Attack rolls a
    // die (3.3.3): since version 10 the whole Attack is checked without
    // rolling first, so both illegal lines are reported and nothing rolled;
    // version 9 stopped checking at the first later line that would roll.
    let (r, mut st, taliban) = taliban_on_card();
    let d = r.data().clone();
    put(&d, &mut st, "kandahar", Piece::TalUnder, 2);
    put(&d, &mut st, "kandahar", Piece::Police, 1);
    put(&d, &mut st, "helmand", Piece::TalUnder, 2);
    put(&d, &mut st, "helmand", Piece::Police, 1);
    let text = "attack\nin kabul target government\nin kandahar target government\nin kabul target government";
    for (r, both) in [(r.clone(), true), (r.at(9).unwrap(), false)] {
        let o = Ruleset::parse_all(&r, &st, taliban, &lines(text)).unwrap();
        let mut dice = Dice::seeded([1; 32]);
        let e = Ruleset::apply(&r, &mut st.clone(), taliban, &o[0].1, &mut dice)
            .unwrap_err()
            .to_string();
        assert_eq!(dice.count(), 0, "{e}");
        assert!(e.contains("line 2, column "), "{e}");
        assert_eq!(e.contains("line 4, column "), both, "{e}");
    }
}

fn deception_game(scenario: &str, sides: &[&str]) -> Result<(Adp, State), String> {
    let r = Adp::new();
    let st = r
        .setup(&Setup {
            scenario: scenario.into(),
            options: [("deception".to_string(), "yes".to_string())].into(),
            sides: sides.iter().map(|s| s.to_string()).collect(),
        })
        .map_err(|e| e.to_string())?;
    Ok((r, st))
}

/// Dice with every side's hidden stream, as the engine gives them.
fn hidden_dice() -> Dice {
    Dice::seeded([5; 32]).with_hidden((0..5).map(|i| Some([i + 10; 32])).collect())
}

#[test]
fn deception_markers_are_drawn_blindly_two_a_player_and_seen_by_their_holder_alone() {
    use umpire_adp::deception::Marker;
    // 7.3: "each player at start blindly draws 2 Deception markers. Set
    // aside the rest; they may not be inspected." 1.9 NOTE: 12 markers.
    let (r, mut st) = deception_game(
        "standin",
        &["coalition", "government", "taliban", "warlords"],
    )
    .unwrap();
    let mut dice = hidden_dice();
    let ev = Ruleset::deal(&r, &mut st, &mut dice).unwrap();
    let x = st.deception.clone().unwrap();
    assert_eq!(x.held.len(), 4);
    assert!(x.held.iter().all(|h| h.len() == 2));
    assert_eq!(x.aside.len(), 4);
    let mut all: Vec<Marker> = x.held.iter().flatten().map(|h| h.marker).collect();
    all.extend(x.aside.items().iter().copied());
    for m in Marker::ALL {
        assert_eq!(all.iter().filter(|k| **k == m).count(), 4, "{m:?}");
    }
    // Each draw is a hidden roll of the drawer's own stream, naming the marker.
    let hidden: Vec<_> = dice
        .rolls()
        .iter()
        .filter(|r| !r.audience.is_public())
        .collect();
    assert_eq!(hidden.len(), 8);
    assert!(hidden.iter().all(|r| r.item.is_some()));
    // The holder alone is told, and sees them in its view; nobody else does.
    let told: Vec<_> = ev
        .iter()
        .filter(|e| e.text.contains("your Deception"))
        .collect();
    assert_eq!(told.len(), 4);
    assert!(told.iter().all(|e| !e.audience.is_public()));
    let mine = Ruleset::view(&r, &st, umpire_core::ruleset::Viewer::Side(Side(0)))
        .status
        .join("\n");
    assert!(mine.contains("Your Deception markers"), "{mine}");
    let public = Ruleset::view(&r, &st, umpire_core::ruleset::Viewer::Public)
        .status
        .join("\n");
    assert!(!public.contains("Your Deception"), "{public}");
    assert!(public.contains("revealed: none"), "{public}");
}

#[test]
fn deception_is_an_option_for_three_or_four_players_only() {
    // 7.3: "in 3- or 4-player games".
    assert!(deception_game("standin-2p", &["coin", "insurgents"]).is_err());
    assert!(deception_game("standin-1p-taliban", &["taliban"]).is_err());
    assert!(deception_game("standin-3p-np", &["coalition", "government", "taliban"]).is_ok());
}

#[test]
fn a_hidden_asset_turns_the_limited_operation_option_into_a_full_one() {
    use umpire_adp::deception::{Held, Marker};
    // 7.3 Hidden Asset: "Convert any 1 LimOp option (2.3.5) into a full Op &
    // Special Activity Option"; revealing it discloses its sealed draw.
    let (r, mut st) = deception_game(
        "standin",
        &["coalition", "government", "taliban", "warlords"],
    )
    .unwrap();
    Ruleset::deal(&r, &mut st, &mut hidden_dice()).unwrap();
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    let card = d
        .cards
        .iter()
        .find(|c| !c.is_propaganda() && c.order.len() > 1 && c.order[1] == Faction::Taliban)
        .unwrap();
    on_card(&r, &mut st, card.number);
    st.stage = Stage::Card(CardTurn {
        first: Some((card.order[0], Took::Op)),
        ..Default::default()
    });
    let taliban = st.seats.side(Faction::Taliban).unwrap();
    let draw = umpire_core::dice::RollRef {
        position: 0,
        index: 0,
    };
    st.deception.as_mut().unwrap().held[taliban.index()] = vec![
        Held {
            marker: Marker::HiddenAsset,
            draw: Some(draw),
            revealed: false,
        },
        Held {
            marker: Marker::EmptyThreat,
            draw: None,
            revealed: false,
        },
    ];
    assert_eq!(sequence::offers(&d, &st), vec![Offer::LimOp]);
    st.resources[Faction::Taliban.index()] = 10;
    put(&d, &mut st, "kandahar", Piece::TalUnder, 2);
    // Without the marker: a Limited Operation, no Special Activity (2.3.4).
    let text = "rally\nin kandahar\nin zabol\nsa extort kandahar";
    let o = Ruleset::parse(&r, &st, taliban, &lines(text)).unwrap();
    assert!(
        Ruleset::apply(
            &r,
            &mut st.clone(),
            taliban,
            &o[0].1,
            &mut Dice::seeded([1; 32])
        )
        .is_err()
    );
    // An Empty Threat is not used by order.
    let o = Ruleset::parse(&r, &st, taliban, &lines("deception empty threat\npass")).unwrap();
    let e = Ruleset::apply(
        &r,
        &mut st.clone(),
        taliban,
        &o[0].1,
        &mut Dice::seeded([1; 32]),
    );
    assert!(e.unwrap_err().to_string().contains("(7.3)"));
    // With it: the full Operation and its Special Activity.
    let o = Ruleset::parse(
        &r,
        &st,
        taliban,
        &lines(&format!("deception hidden-asset\n{text}")),
    )
    .unwrap();
    let mut dice = Dice::seeded([1; 32]);
    for (_, o) in &o {
        Ruleset::apply(&r, &mut st, taliban, o, &mut dice).unwrap();
    }
    assert_eq!(dice.disclosed(), [draw]);
    let x = st.deception.as_ref().unwrap();
    assert!(x.held[taliban.index()][0].revealed);
    assert!(!x.held[taliban.index()][1].revealed);
    let public = Ruleset::view(&r, &st, umpire_core::ruleset::Viewer::Public)
        .status
        .join("\n");
    assert!(public.contains("Taliban Hidden Asset"), "{public}");
}

#[test]
fn a_hidden_asset_does_not_lift_the_final_event_card() {
    use umpire_adp::deception::{Held, Marker};
    // Ruling A36: it converts only the 2.3.4 LimOp option, not 2.3.8.
    let (r, mut st) = deception_game(
        "standin",
        &["coalition", "government", "taliban", "warlords"],
    )
    .unwrap();
    Ruleset::deal(&r, &mut st, &mut hidden_dice()).unwrap();
    let d = r.data().clone();
    let card = d
        .cards
        .iter()
        .find(|c| !c.is_propaganda() && c.order[0] == Faction::Taliban)
        .unwrap();
    on_card(&r, &mut st, card.number);
    let taliban = st.seats.side(Faction::Taliban).unwrap();
    st.deception.as_mut().unwrap().held[taliban.index()][0] = Held {
        marker: Marker::HiddenAsset,
        draw: None,
        revealed: false,
    };
    // 1st Eligible: no Limited Operation option to convert.
    let o = Ruleset::parse(&r, &st, taliban, &lines("deception hidden-asset\npass")).unwrap();
    let e = Ruleset::apply(
        &r,
        &mut st.clone(),
        taliban,
        &o[0].1,
        &mut Dice::seeded([1; 32]),
    );
    assert!(e.unwrap_err().to_string().contains("none is offered"));
}

#[test]
fn a_hidden_agenda_adds_one_to_its_holders_margin_in_the_ranking() {
    use umpire_adp::deception::{Held, Marker};
    // 7.3 Hidden Agenda "+1 to the holding player's victory margin"; ruling
    // A40: in the ranking only.
    let (r, mut st) = deception_game(
        "standin",
        &["coalition", "government", "taliban", "warlords"],
    )
    .unwrap();
    Ruleset::deal(&r, &mut st, &mut hidden_dice()).unwrap();
    let d = r.data().clone();
    for h in st.deception.as_mut().unwrap().held.iter_mut() {
        for m in h.iter_mut() {
            m.marker = Marker::EmptyThreat;
        }
    }
    let before = victory::ranking(&d, &st);
    let coalition = st.seats.side(Faction::Coalition).unwrap();
    st.deception.as_mut().unwrap().held[coalition.index()] = vec![
        Held {
            marker: Marker::HiddenAgenda,
            draw: None,
            revealed: false,
        };
        2
    ];
    let after = victory::ranking(&d, &st);
    let m = |v: &[(Side, i32)]| v.iter().find(|(s, _)| *s == coalition).unwrap().1;
    assert_eq!(m(&after), m(&before) + 2);
    // A 7.2 threshold is not met by it.
    assert_eq!(victory::check_met(&d, &st), {
        st.deception = None;
        victory::check_met(&d, &st)
    });
}

/// `remove_up_to` with fixed dice, for the removal tests.
fn removed(
    d: &Data,
    st: &mut State,
    s: SpaceNo,
    n: u32,
    targets: &[Faction],
    by: umpire_adp::removal::By,
) -> Vec<Piece> {
    use umpire_adp::removal::{self, Reach, Removal};
    let r = Removal {
        n,
        targets,
        reach: Reach::Any,
        casualties: true,
        by,
    };
    removal::remove_up_to(d, st, s, r, &mut Dice::seeded([3; 32])).unwrap()
}

#[test]
fn non_players_remove_by_the_guidelines() {
    use umpire_adp::removal::By;
    // 8.1 GUIDELINES: "Target or remove enemy players before Non-players
    // assets whenever possible. Remove enemy Bases before other pieces,
    // Underground before Active Guerrillas, and Police then Troops evenly
    // (each space)." One player, the Coalition: the rest are Non-players.
    let (r, st) = game_in("standin-1p-coalition", &["coalition"]);
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    let k = s(&d, "kandahar");
    put(&d, &mut st, "kandahar", Piece::Police, 2);
    put(&d, &mut st, "kandahar", Piece::GovTroops, 2);
    let gov = [Faction::Government];
    let gone = removed(&d, &mut st.clone(), k, 2, &gov, By::NonPlayer);
    assert_eq!(gone, [Piece::Police, Piece::GovTroops]);
    // A player's Attack takes the Police first (the code's default order).
    let gone = removed(&d, &mut st.clone(), k, 2, &gov, By::Player);
    assert_eq!(gone, [Piece::Police, Piece::Police]);
    // The player (Coalition) before the Non-player Warlords, and an enemy
    // Base before other pieces; Underground before Active.
    let h = s(&d, "helmand");
    put(&d, &mut st, "helmand", Piece::CoalTroops, 1);
    put(&d, &mut st, "helmand", Piece::CoalBase, 1);
    put(&d, &mut st, "helmand", Piece::WarUnder, 1);
    put(&d, &mut st, "helmand", Piece::WarActive, 1);
    let targets = [Faction::Warlords, Faction::Coalition];
    let gone = removed(&d, &mut st.clone(), h, 4, &targets, By::NonPlayer);
    assert_eq!(
        gone,
        [
            Piece::CoalTroops,
            Piece::CoalBase,
            Piece::WarUnder,
            Piece::WarActive
        ]
    );
    let gone = removed(&d, &mut st.clone(), h, 2, &targets, By::Player);
    assert_eq!(gone, [Piece::WarActive, Piece::WarUnder]);
    assert_eq!(By::of(&st, Faction::Taliban), By::NonPlayer);
    assert_eq!(By::of(&st, Faction::Coalition), By::Player);
}

#[test]
fn a_non_player_picks_at_random_among_equal_enemy_factions() {
    use umpire_adp::removal::{self, By, Reach, Removal};
    // 8.1 GUIDELINES: "... otherwise select randomly among enemy Factions."
    // Two players (Coalition, Taliban) against the Non-player Warlords: in a
    // space with a Coalition cube and a Taliban Guerrilla, neither a Base,
    // the Warlords' Attack takes one of them by a labelled roll.
    let (r, st) = game_in("standin-2p-np", &["coalition", "taliban"]);
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    let h = s(&d, "helmand");
    put(&d, &mut st, "helmand", Piece::CoalTroops, 2);
    put(&d, &mut st, "helmand", Piece::TalActive, 2);
    let targets = [Faction::Coalition, Faction::Taliban];
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..16u8 {
        let mut a = st.clone();
        let mut dice = Dice::seeded([seed; 32]);
        let r = Removal {
            n: 1,
            targets: &targets,
            reach: Reach::Any,
            casualties: true,
            by: By::NonPlayer,
        };
        let gone = removal::remove_up_to(&d, &mut a, h, r, &mut dice).unwrap();
        let rolls = dice.into_rolls();
        assert_eq!(rolls.len(), 1, "one roll between the two factions");
        assert!(
            rolls[0]
                .label
                .starts_with("8.1: the Non-player removes in Helmand")
        );
        assert_eq!(rolls[0].sides, 2);
        let want = [Piece::CoalTroops, Piece::TalActive][rolls[0].value as usize - 1];
        assert_eq!(gone, [want]);
        seen.insert(want);
    }
    assert_eq!(seen.len(), 2, "either faction may be picked");
    // A player picks in the order it named: no roll.
    let mut dice = Dice::seeded([1; 32]);
    let r = Removal {
        n: 1,
        targets: &targets,
        reach: Reach::Any,
        casualties: true,
        by: By::Player,
    };
    let gone = removal::remove_up_to(&d, &mut st.clone(), h, r, &mut dice).unwrap();
    assert_eq!(gone, [Piece::CoalTroops]);
    assert!(dice.into_rolls().is_empty());
    // A Base is not equal to a cube: it goes first, without a roll (a
    // Taliban Base may go once no Taliban Guerrilla is left, 3.3.3).
    st.remove(h, Piece::TalActive, 2, false);
    put(&d, &mut st, "helmand", Piece::TalBase, 1);
    let gone = removed(&d, &mut st, h, 1, &targets, By::NonPlayer);
    assert_eq!(gone, [Piece::TalBase]);
}

#[test]
fn a_conceding_player_becomes_a_non_player_and_the_last_one_ends_the_game() {
    use umpire_adp::concede;
    use umpire_adp::propaganda::Round;
    // Ruling A48 (8.0: the rules govern "any Factions beyond those
    // represented by a player").
    let (r, mut st) = dealt();
    let d = r.data().clone();
    let coalition = st.seats.side(Faction::Coalition).unwrap();
    // In a Propaganda Round, the conceded faction's plan is no longer
    // awaited: with none left the round resolves.
    st.stage = Stage::Propaganda(Round {
        plans: Vec::new(),
        waiting: vec![Faction::Coalition],
        last: false,
    });
    let mut dice = Dice::seeded([2; 32]);
    let ev = concede::apply(&d, &mut st, coalition, &mut dice).unwrap();
    assert!(st.seats.is_np(Faction::Coalition));
    let text: Vec<&str> = ev.iter().map(|e| e.text.as_str()).collect();
    assert!(text.iter().any(|t| t.contains("Card ")), "{text:?}");
    assert!(st.finished.is_none());
    assert!(concede::apply(&d, &mut st, coalition, &mut dice).is_err());
    // The conceded side ranks last whatever the margins (7.1).
    assert_eq!(victory::ranking(&d, &st).last().unwrap().0, coalition);
    for f in [Faction::Government, Faction::Taliban] {
        let side = st.seats.side(f).unwrap();
        concede::apply(&d, &mut st, side, &mut dice).unwrap();
        assert!(st.finished.is_none());
    }
    let warlords = st.seats.side(Faction::Warlords).unwrap();
    concede::apply(&d, &mut st, warlords, &mut dice).unwrap();
    let done = st.finished.clone().unwrap();
    assert!(done.winners.is_empty(), "{done:?}");
    assert!(matches!(st.stage, Stage::Over));
}

#[test]
fn a_non_player_removes_its_own_active_guerrillas_first() {
    // 8.1 GUIDELINES: "Remove friendly Active before Underground Guerrillas."
    // A Rally Base replaces 2 of the faction's Guerrillas (3.3.1); card 16's
    // unshaded Event (a stand-in) removes 2 Taliban Guerrillas (5.1).
    for (scenario, sides, np) in [
        ("standin-1p-coalition", &["coalition"][..], true),
        (
            "standin",
            &["coalition", "government", "taliban", "warlords"][..],
            false,
        ),
    ] {
        let (r, st) = game_in(scenario, sides);
        let (r, mut st) = emptied(r, st);
        let d = r.data().clone();
        assert_eq!(st.seats.is_np(Faction::Warlords), np);
        put(&d, &mut st, "balkh", Piece::WarUnder, 1);
        put(&d, &mut st, "balkh", Piece::WarActive, 2);
        st.resources[Faction::Warlords.index()] = 5;
        op(&d, &mut st, Faction::Warlords, "rally\nin balkh base").unwrap();
        let p = st[s(&d, "balkh")].pieces;
        assert_eq!(p[Piece::WarBase], 1);
        // A Non-player keeps its Underground one; a player's order takes
        // the Underground first (the code's order for players).
        let (under, active) = if np { (1, 0) } else { (0, 1) };
        assert_eq!((p[Piece::WarUnder], p[Piece::WarActive]), (under, active));

        put(&d, &mut st, "kandahar", Piece::TalUnder, 1);
        put(&d, &mut st, "kandahar", Piece::TalActive, 2);
        let card = d.card(CardNo(16)).unwrap().clone();
        let k = s(&d, "kandahar");
        umpire_adp::effects::execute(&d, &mut st, Faction::Taliban, &card, false, &[k]).unwrap();
        let p = st[k].pieces;
        assert_eq!((p[Piece::TalUnder], p[Piece::TalActive]), (under, active));
    }
}

#[test]
fn a_non_player_trains_to_the_maximum_extent_police_and_troops_evenly() {
    use umpire_adp::legal;
    // 8.1 GUIDELINES: the maximum extent ("the most pieces allowed": 6 a
    // space, 3.2.1), "Place or remove friendly Police and Troops evenly,
    // Police first".
    assert_eq!(legal::even_cubes(6, 20, 20), (3, 3));
    assert_eq!(legal::even_cubes(5, 20, 20), (3, 2));
    assert_eq!(legal::even_cubes(6, 1, 20), (1, 5));
    assert_eq!(legal::even_cubes(6, 20, 0), (6, 0));
    assert_eq!(legal::even_cubes(6, 2, 1), (2, 1));
    let (_, st) = game_in("standin-1p-coalition", &["coalition"]);
    let (p, t) = legal::even_cubes(
        6,
        st.available[Piece::Police],
        st.available[Piece::GovTroops],
    );
    let want = match (p, t) {
        (p, 0) => format!("{p} police"),
        (0, t) => format!("{t} troops"),
        (p, t) => format!("{p} police {t} troops"),
    };
    assert_eq!(legal::train_cubes(&st, Faction::Government), want);
    // A player's sample is unchanged.
    assert_eq!(
        legal::train_cubes(&st, Faction::Coalition),
        "2 police 1 troops"
    );
    // Carried out by the Non-player Government in Kabul.
    let (r, st) = game_in("standin-1p-coalition", &["coalition"]);
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    st.resources[Faction::Government.index()] = 10;
    let text = format!(
        "train\nin kabul place {}",
        legal::train_cubes(&st, Faction::Government)
    );
    op(&d, &mut st, Faction::Government, &text).unwrap();
    let k = st[s(&d, "kabul")].pieces;
    assert_eq!((k[Piece::Police], k[Piece::GovTroops]), (3, 3));
}

#[test]
fn every_illegal_line_of_a_propaganda_plan_is_reported_at_once() {
    // 6.4.1 (Civic Action needs COIN Control, Troops and Police; the faction
    // with more Troops decides), 6.4.2 (Sharia is the Taliban's), 6.5: on
    // an emptied map every line of this Government plan is illegal.
    let (r, st) = empty();
    let d = r.data().clone();
    let plan =
        "as government\ncivic helmand 1\nredeploy 2 police zabol>kabul\nsharia kandahar 1\ndone";
    let Order::Plan(_, p) = orders::parse(&d, &lines(plan), true).unwrap().remove(0).1 else {
        panic!("not a plan")
    };
    let e = propaganda::check_plan(&d, &st, Faction::Government, &p)
        .unwrap_err()
        .to_string();
    assert!(e.contains("3 lines are illegal"), "{e}");
    for (line, rule) in [(2, "6.4.1"), (3, "6.5"), (4, "6.4.2")] {
        assert!(
            e.lines()
                .any(|l| l.starts_with(&format!("line {line}: "))
                    && l.ends_with(&format!("({rule})"))),
            "line {line} ({rule}) missing: {e}"
        );
    }
    // One illegal line alone keeps its own rule.
    let one = "as government\ncivic helmand 1\ndone";
    let Order::Plan(_, p) = orders::parse(&d, &lines(one), true).unwrap().remove(0).1 else {
        panic!("not a plan")
    };
    let e = propaganda::check_plan(&d, &st, Faction::Government, &p).unwrap_err();
    assert!(
        matches!(&e, umpire_core::ruleset::RuleError::Illegal { rule: Some(r), .. } if r == "6.4.1"),
        "{e}"
    );
}

// --- Standing orders for the decisions other factions owe (digest D1-D4) ---

/// An Event card whose 1st faction is `first`, played now, with the
/// faction that follows it on the card.
fn card_led_by(r: &Adp, st: &mut State, first: Faction) -> (CardNo, Faction, Faction) {
    let card = r
        .data()
        .cards
        .iter()
        .find(|c| !c.is_propaganda() && c.order.first() == Some(&first))
        .unwrap();
    let (n, second, third) = (card.number, card.order[1], card.order[2]);
    on_card(r, st, n);
    (n, second, third)
}

fn send(r: &Adp, st: &mut State, f: Faction, text: &str) -> Vec<umpire_core::ruleset::Event> {
    let side = st.seats.side(f).unwrap();
    let o = Ruleset::parse(r, st, side, &lines(text)).unwrap();
    let mut ev = Vec::new();
    for (_, o) in o {
        ev.extend(Ruleset::apply(r, st, side, &o, &mut Dice::seeded([1; 32])).unwrap());
    }
    ev
}

fn decider_now(r: &Adp, st: &State) -> Option<Faction> {
    sequence::decider(r.data(), st)
}

#[test]
fn a_conditional_order_answers_for_the_second_eligible_without_a_mail() {
    // Digest D1 (2.3.4): the 2nd Eligible's options follow the 1st's
    // choice; its standing order names a branch for each, and the one that
    // fits is carried out in the 1st's move, so the card needs no mail of
    // its own. A passing 2nd leaves the slot to the next (2.3.3).
    let (r, mut st) = game();
    let (n, second, third) = card_led_by(&r, &mut st, Faction::Taliban);
    st.resources[Faction::Taliban.index()] = 5;
    let side = st.seats.side(second).unwrap();
    let text = format!("on {n} after event\nrally\nin kandahar\non {n} after op\npass\nend");
    Ruleset::set_standing(&r, &mut st, side, &lines(&text)).unwrap();
    assert_eq!(Ruleset::standing(&r, &st, side).len(), 2);
    // Sealed to its side until the end (the core seals the move).
    assert!(!Ruleset::standing_audience(&r, &st, side).is_public());
    let ev = send(&r, &mut st, Faction::Taliban, "terror\nin oruzgan");
    assert!(
        ev.iter().any(|e| e
            .text
            .contains(&format!("standing order for card {n} (after op"))),
        "{ev:?}"
    );
    let Stage::Card(t) = &st.stage else { panic!() };
    assert_eq!(t.passed, vec![second], "the branch `after op` passed");
    assert_eq!(decider_now(&r, &st), Some(third));
    // Asked once on the card, its other branch is spent.
    assert!(Ruleset::standing(&r, &st, side).is_empty());
}

#[test]
fn a_branch_that_does_not_fit_leaves_the_player_to_be_asked() {
    // D1: only the branch of what the 1st did applies; a branch now illegal
    // (the Event after an Operation only: a Limited Operation is all that
    // is offered, 2.3.4) is dropped, its owner alone told, and it is asked.
    let (r, mut st) = game();
    let (n, second, _) = card_led_by(&r, &mut st, Faction::Taliban);
    st.resources[Faction::Taliban.index()] = 5;
    let side = st.seats.side(second).unwrap();
    let text = format!("on {n} after event\npass\non {n} after op\nevent unshaded");
    Ruleset::set_standing(&r, &mut st, side, &lines(&text)).unwrap();
    let ev = send(&r, &mut st, Faction::Taliban, "terror\nin oruzgan");
    assert_eq!(decider_now(&r, &st), Some(second), "asked after all");
    let told = ev
        .iter()
        .find(|e| e.text.contains("cannot be carried out now"))
        .expect("its owner is told");
    assert_eq!(told.audience, umpire_core::audience::Audience::side(side));
    assert!(told.text.contains("2.3.4"), "{}", told.text);
}

#[test]
fn a_first_branch_passes_for_a_faction_handed_the_first_slot() {
    // D2 (2.3.3): "auto-pass this card": the 1st passes, the slot goes to
    // the next Eligible, whose `first` branch passes too, in the same move.
    let (r, mut st) = game();
    let (n, second, third) = card_led_by(&r, &mut st, Faction::Taliban);
    let side = st.seats.side(second).unwrap();
    Ruleset::set_standing(&r, &mut st, side, &lines(&format!("on {n} first\npass"))).unwrap();
    send(&r, &mut st, Faction::Taliban, "pass");
    let Stage::Card(t) = &st.stage else { panic!() };
    assert_eq!(t.passed, vec![Faction::Taliban, second]);
    assert_eq!(decider_now(&r, &st), Some(third));
}

#[test]
fn conditional_orders_are_read_when_set_with_line_and_column() {
    // A branch's lines must read as a move on the card would; a played card
    // or one not in the deck is refused (2.2, 2.3.4).
    let (r, mut st) = game();
    let side = st.seats.side(Faction::Coalition).unwrap();
    let e = Ruleset::set_standing(&r, &mut st, side, &lines("on 99 first\npass")).unwrap_err();
    assert_eq!(e.line, 1);
    let e = Ruleset::set_standing(&r, &mut st, side, &lines("on 5 later\npass")).unwrap_err();
    assert!(e.message.contains("after op-sa"), "{e}");
    let e = Ruleset::set_standing(&r, &mut st, side, &lines("on 5 first\nassault\nin kandhar"))
        .unwrap_err();
    assert_eq!((e.line, e.column), (3, 4), "{e}");
    // D3: an answer to an Event's question is not a branch (5.1).
    let e =
        Ruleset::set_standing(&r, &mut st, side, &lines("on 5 first\nchoose kabul")).unwrap_err();
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("on CARD choose"), "{e}");
    st.deck.played.push(CardNo(5));
    let e = Ruleset::set_standing(&r, &mut st, side, &lines("on 5 any\npass")).unwrap_err();
    assert!(e.message.contains("has been played"), "{e}");
    // Transfer offers and branches go together; `end` closes a branch.
    let text = "transfer 1 to taliban\non 6 any\npass\nend";
    let gov = st.seats.side(Faction::Government).unwrap();
    Ruleset::set_standing(&r, &mut st, gov, &lines(text)).unwrap();
    assert_eq!(Ruleset::standing(&r, &st, gov).len(), 2);
}

#[test]
fn an_event_granting_another_faction_a_free_operation_asks_it_only_when_it_has_one() {
    // 5.5 (digest D4): an Event may grant another faction a free Operation;
    // the grantee decides before the card goes on: by its standing order,
    // else it is asked (its default `pass` declines), and it is not asked
    // when it could carry out none.
    let probe = Adp::new();
    let n = probe
        .data()
        .cards
        .iter()
        .find(|c| !c.is_propaganda() && c.order.first() == Some(&Faction::Taliban))
        .unwrap()
        .number;
    let grant = r#"[{ do = "grant", faction = "warlords", ops = ["rally"] }]"#;
    let (r, mut st) = with_card_text(n, grant);
    let d = r.data().clone();
    on_card(&r, &mut st, n);
    let before = st.res(Faction::Warlords);
    // Asked: the Warlords are the decider, with the grant's question.
    send(&r, &mut st, Faction::Taliban, "event shaded");
    assert_eq!(decider_now(&r, &st), Some(Faction::Warlords));
    let ask = Ruleset::prompt(&r, &st).awaiting[0].ask.clone();
    assert!(ask.contains("free Operation"), "{ask}");
    let g0 = st[s(&d, "balkh")].pieces.guerrillas(Faction::Warlords);
    send(&r, &mut st, Faction::Warlords, "rally\nin balkh");
    assert_eq!(
        st[s(&d, "balkh")].pieces.guerrillas(Faction::Warlords),
        g0 + 1
    );
    assert_eq!(st.res(Faction::Warlords), before, "free (3.1.2)");
    let Stage::Card(t) = &st.stage else { panic!() };
    assert!(t.grant.is_none());
    assert_eq!(t.first.map(|x| x.0), Some(Faction::Taliban));
    // By a standing order: no mail.
    let (r, mut st) = with_card_text(n, grant);
    on_card(&r, &mut st, n);
    let w = st.seats.side(Faction::Warlords).unwrap();
    Ruleset::set_standing(
        &r,
        &mut st,
        w,
        &lines(&format!("on {n} grant\nrally\nin balkh")),
    )
    .unwrap();
    send(&r, &mut st, Faction::Taliban, "event shaded");
    assert_eq!(
        st[s(&d, "balkh")].pieces.guerrillas(Faction::Warlords),
        g0 + 1
    );
    assert_ne!(decider_now(&r, &st), Some(Faction::Warlords));
    // Nothing it could carry out: not asked, declined.
    let (r, st) = with_card_text(
        n,
        r#"[{ do = "grant", faction = "warlords", ops = ["attack"] }]"#,
    );
    let (r, mut st) = emptied(r, st);
    on_card(&r, &mut st, n);
    let ev = send(&r, &mut st, Faction::Taliban, "event shaded");
    assert!(ev.iter().any(|e| e.text.contains("not asked")), "{ev:?}");
    assert_ne!(decider_now(&r, &st), Some(Faction::Warlords));
}

#[test]
fn an_illegal_line_found_while_applying_points_at_its_space() {
    // The parser knows where each space of a line stands: an error found
    // while carrying the line out gives the column of the space it names
    // (the longest name: "Kabul-Aibak" over "Kabul"), in an indented line
    // or a path too; an error naming no space keeps the line's start.
    let (r, st, taliban) = taliban_on_card();
    let d = r.data().clone();
    let src = |text: &str, column: usize| SourceLine {
        line: 2,
        column,
        text: text.into(),
    };
    let head = SourceLine {
        line: 1,
        column: 1,
        text: "march".into(),
    };
    // No Taliban Guerrilla in Zabol to march (3.3.2).
    let o = Ruleset::parse(
        &r,
        &st,
        taliban,
        &[head.clone(), src("move 1 oruzgan>zabol", 3)],
    )
    .unwrap();
    let e = Ruleset::apply(
        &r,
        &mut st.clone(),
        taliban,
        &o[0].1,
        &mut Dice::seeded([1; 32]),
    )
    .unwrap_err()
    .to_string();
    // "move 1 " is 7 characters: Oruzgan's word starts 7 after column 3.
    let k = d.find("oruzgan").unwrap();
    assert!(e.contains(&d[k].name), "{e}");
    assert!(e.contains("line 2, column 10: "), "{e}");
    let at = umpire_adp::orders::At::of(&d, &src("move 1 kabul>kabul-aibak", 1));
    let loc = d.find("kabul-aibak").unwrap();
    let msg = format!("{} is Sabotaged", d[loc].name);
    assert_eq!(at.column_for(&d, &msg), 14);
    assert_eq!(at.column_for(&d, "no Resources"), 1);
}

/// A card led by the Coalition (its first faction).
fn coalition_card() -> CardNo {
    Adp::new()
        .data()
        .cards
        .iter()
        .find(|c| !c.is_propaganda() && c.order.first() == Some(&Faction::Coalition))
        .unwrap()
        .number
}

/// A stand-in text naming the Taliban to choose 2 spaces to lose a
/// Guerrilla each (digest D3), then `more` steps.
fn taliban_choose(more: &str) -> String {
    format!(
        r#"[{{ do = "remove", faction = "taliban", piece = "guerrilla", count = 1, spaces = 2, filter = "any", by = "taliban" }}{more}]"#
    )
}

/// Emptied, with Underground Taliban in Kandahar (3), Helmand (1) and
/// Zabol (2), on card `n`.
fn three_taliban_spaces(r: Adp, st: State, n: CardNo) -> (Adp, State) {
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    put(&d, &mut st, "kandahar", Piece::TalUnder, 3);
    put(&d, &mut st, "helmand", Piece::TalUnder, 1);
    put(&d, &mut st, "zabol", Piece::TalUnder, 2);
    on_card(&r, &mut st, n);
    (r, st)
}

/// Underground Taliban in Kandahar, Zabol and Helmand.
fn taliban_in(r: &Adp, st: &State) -> [u8; 3] {
    ["kandahar", "zabol", "helmand"].map(|n| st[s(r.data(), n)].pieces[Piece::TalUnder])
}

#[test]
fn an_event_naming_another_faction_to_choose_takes_its_standing_choice() {
    // 5.1 (digest D3): the text may call for another faction's decision;
    // the named faction chooses the spaces, by its standing order (sealed
    // to it): then it is not asked. The executor names no space for the
    // step.
    let n = coalition_card();
    let text = taliban_choose("");
    // Its standing choice first: Helmand, then the default's best.
    let (r, st) = with_card_text(n, &text);
    let (r, mut st) = three_taliban_spaces(r, st, n);
    let t = st.seats.side(Faction::Taliban).unwrap();
    Ruleset::set_standing(&r, &mut st, t, &lines(&format!("on {n} choose helmand"))).unwrap();
    assert_eq!(
        Ruleset::standing(&r, &st, t),
        [format!("on {n} as taliban choose helmand")]
    );
    send(&r, &mut st, Faction::Coalition, "event shaded");
    assert_eq!(taliban_in(&r, &st), [2, 2, 0]);
    let Stage::Card(t) = &st.stage else { panic!() };
    assert!(t.choice.is_none(), "not asked");
    // The executor names no space for it (5.1).
    let (r, st) = with_card_text(n, &text);
    let (r, st) = three_taliban_spaces(r, st, n);
    let c = st.seats.side(Faction::Coalition).unwrap();
    let o = Ruleset::parse(&r, &st, c, &lines("event shaded kandahar")).unwrap();
    assert!(Ruleset::apply(&r, &mut st.clone(), c, &o[0].1, &mut Dice::seeded([1; 32])).is_err());
}

#[test]
fn version_7_takes_the_stated_default_without_asking() {
    // Version 7 records replay as they were made (ARCHITECTURE "Upgrades"):
    // a step naming a player of another side to choose took the stated
    // default (digest D3: the qualifying spaces holding the most), and no
    // `choose` order was read. Version 8 asks instead.
    let n = coalition_card();
    let (r8, st) = with_card_text(n, &taliban_choose(""));
    let r = r8.at(7).unwrap();
    assert_eq!(Ruleset::info(&r).version, 7);
    assert_eq!(Ruleset::info(&r8).version, umpire_adp::VERSION);
    assert_eq!(Ruleset::info(&r).data, Ruleset::info(&r8).data, "same data");
    assert!(r8.at(6).is_none(), "6 was never released");
    assert!(Ruleset::at_version(&r8, 7).is_some());
    // A card with no question pending hashes as in version 7: no new key.
    let bytes = umpire_core::canon::to_vec(&CardTurn::default()).unwrap();
    assert!(!String::from_utf8_lossy(&bytes).contains("choice"));
    let (r, mut st) = three_taliban_spaces(r, st, n);
    send(&r, &mut st, Faction::Coalition, "event shaded");
    // Kandahar (3) and Zabol (2), not asked.
    assert_eq!(taliban_in(&r, &st), [2, 1, 1]);
    let Stage::Card(t) = &st.stage else { panic!() };
    assert!(t.choice.is_none());
    assert_eq!(t.first, Some((Faction::Coalition, Took::Event)));
    let t = st.seats.side(Faction::Taliban).unwrap();
    assert!(Ruleset::parse(&r, &st, t, &lines("choose helmand zabol")).is_err());
    assert!(Ruleset::parse(&r8, &st, t, &lines("choose helmand zabol")).is_ok());
}

#[test]
fn an_event_stops_to_ask_the_named_player_and_goes_on_with_its_answer() {
    // 5.1, digest D3 (version 8): a step naming a player of another side to
    // choose, with no standing choice and more qualifying spaces than it
    // picks, stops the Event; that player alone is asked; its answer
    // (`choose`, best first) decides the step, and the rest of the Event
    // follows: here Aid +2 and a Coalition Troop in the space the executor
    // named for the later step.
    let n = coalition_card();
    let more = r#", { do = "aid", amount = 2 }, { do = "place", faction = "coalition", piece = "troops", count = 1, spaces = 1, filter = "afghan" }"#;
    let (r, st) = with_card_text(n, &taliban_choose(more));
    let (r, mut st) = three_taliban_spaces(r, st, n);
    let d = r.data().clone();
    let aid = st.aid;
    let kabul = |st: &State| st[s(&d, "kabul")].pieces[Piece::CoalTroops];
    let ev = send(&r, &mut st, Faction::Coalition, "event shaded kabul");
    assert!(
        ev.iter().any(|e| e.text.contains("choose 2 spaces")),
        "{ev:?}"
    );
    assert_eq!(decider_now(&r, &st), Some(Faction::Taliban));
    assert_eq!((st.aid, kabul(&st)), (aid, 0), "the rest waits");
    assert_eq!(taliban_in(&r, &st), [3, 2, 1]);
    let p = Ruleset::prompt(&r, &st);
    assert_eq!(p.awaiting.len(), 1);
    assert_eq!(Some(p.awaiting[0].side), st.seats.side(Faction::Taliban));
    assert!(
        p.awaiting[0].ask.contains("choose"),
        "{}",
        p.awaiting[0].ask
    );
    let t = st.seats.side(Faction::Taliban).unwrap();
    let legal = Ruleset::legal_moves(&r, &st, t);
    assert!(legal.iter().any(|o| o.starts_with("choose ")), "{legal:?}");
    // The executor may not answer for it (2.3.2).
    let c = st.seats.side(Faction::Coalition).unwrap();
    let o = Ruleset::parse(&r, &st, c, &lines("choose helmand zabol")).unwrap();
    assert!(Ruleset::apply(&r, &mut st.clone(), c, &o[0].1, &mut Dice::seeded([1; 32])).is_err());
    send(&r, &mut st, Faction::Taliban, "choose helmand zabol");
    assert_eq!(taliban_in(&r, &st), [3, 1, 0]);
    assert_eq!((st.aid, kabul(&st)), (aid + 2, 1), "the Event went on");
    let Stage::Card(t) = &st.stage else { panic!() };
    assert!(t.choice.is_none());
    assert_eq!(t.first, Some((Faction::Coalition, Took::Event)));
    // Every sample answer offered is accepted.
    let (r, st) = with_card_text(n, &taliban_choose(more));
    let (r, mut st) = three_taliban_spaces(r, st, n);
    send(&r, &mut st, Faction::Coalition, "event shaded kabul");
    let tal = st.seats.side(Faction::Taliban).unwrap();
    for o in Ruleset::legal_moves(&r, &st, tal) {
        let parsed = Ruleset::parse(&r, &st, tal, &lines(&o)).unwrap();
        Ruleset::apply(
            &r,
            &mut st.clone(),
            tal,
            &parsed[0].1,
            &mut Dice::seeded([1; 32]),
        )
        .unwrap_or_else(|e| panic!("{o}: {e}"));
    }
}

#[test]
fn a_bad_answer_to_an_events_question_is_refused_and_pass_takes_the_default() {
    // 5.1 (D3): each space chosen must qualify, once, and as many as the
    // text says; any other order is refused, citing 5.1; `pass` takes the
    // stated default (the spaces holding the most).
    let n = coalition_card();
    let (r, st) = with_card_text(n, &taliban_choose(""));
    let (r, mut st) = three_taliban_spaces(r, st, n);
    send(&r, &mut st, Faction::Coalition, "event shaded");
    let t = st.seats.side(Faction::Taliban).unwrap();
    for (bad, why) in [
        ("choose kabul helmand", "does not qualify"),
        ("choose kandahar kandahar", "does not qualify"),
        ("choose kandahar", "choose 2 space(s), not 1"),
        ("rally\nin kandahar", "choose SPACE"),
    ] {
        let o = Ruleset::parse(&r, &st, t, &lines(bad)).unwrap();
        let e = Ruleset::apply(&r, &mut st.clone(), t, &o[0].1, &mut Dice::seeded([1; 32]))
            .unwrap_err()
            .to_string();
        assert!(e.contains(why) && e.contains("5.1"), "{bad}: {e}");
    }
    // Answering is not executing: no transfer goes with it (1.5.1).
    let o = Ruleset::parse(
        &r,
        &st,
        t,
        &lines(
            "transfer 1 to warlords
pass",
        ),
    )
    .unwrap();
    let e = Ruleset::apply(&r, &mut st.clone(), t, &o[0].1, &mut Dice::seeded([1; 32]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("1.5.1"), "{e}");
    send(&r, &mut st, Faction::Taliban, "pass");
    assert_eq!(taliban_in(&r, &st), [2, 1, 1]);
}

#[test]
fn a_choice_then_a_grant_asks_the_chooser_then_the_grantee() {
    // 5.1 and 5.5 (D3, D4): the steps go in order; a grant after the
    // chosen step is owed once the choice is made, and the grantee is
    // asked next.
    let n = coalition_card();
    let more = r#", { do = "grant", faction = "warlords", ops = ["rally"] }"#;
    let (r, st) = with_card_text(n, &taliban_choose(more));
    let (r, mut st) = three_taliban_spaces(r, st, n);
    let d = r.data().clone();
    put(&d, &mut st, "balkh", Piece::WarUnder, 1);
    st.resources[Faction::Warlords.index()] = 5;
    send(&r, &mut st, Faction::Coalition, "event shaded");
    assert_eq!(decider_now(&r, &st), Some(Faction::Taliban));
    let Stage::Card(t) = &st.stage else { panic!() };
    assert!(t.grant.is_none(), "not before the choice");
    send(&r, &mut st, Faction::Taliban, "choose helmand kandahar");
    assert_eq!(taliban_in(&r, &st), [2, 2, 0]);
    assert_eq!(decider_now(&r, &st), Some(Faction::Warlords));
    let ask = Ruleset::prompt(&r, &st).awaiting[0].ask.clone();
    assert!(ask.contains("free Operation"), "{ask}");
    // A grant before the chosen step waits for the choice, even one its
    // grantee could not use (5.5: not asked then, but after the choice).
    let first = r#"{ do = "grant", faction = "warlords", ops = ["attack"] }, "#;
    let text = taliban_choose("").replacen("[", &format!("[{first}"), 1);
    let (r, st) = with_card_text(n, &text);
    let (r, mut st) = three_taliban_spaces(r, st, n);
    send(&r, &mut st, Faction::Coalition, "event shaded");
    assert_eq!(decider_now(&r, &st), Some(Faction::Taliban));
    assert_eq!(taliban_in(&r, &st), [3, 2, 1], "nobody answered for it");
    let ev = send(&r, &mut st, Faction::Taliban, "choose helmand zabol");
    assert_eq!(taliban_in(&r, &st), [3, 1, 0]);
    assert!(ev.iter().any(|e| e.text.contains("not asked")), "{ev:?}");
}

#[test]
fn the_named_faction_is_not_asked_on_its_executors_side_as_a_non_player_or_without_a_choice() {
    // D3: the question goes to a player of another side only, and only
    // when there is a choice; else the stated default decides (5.1).
    let n = coalition_card();
    let gov = r#"[{ do = "remove", faction = "government", piece = "police", count = 1, spaces = 1, filter = "any", by = "government" }]"#;
    let modes: [(&str, &[&str], &str); 2] = [
        // One player runs the Coalition and the Government (1.5).
        ("standin-2p", &["coin", "insurgents"], "same side"),
        // The Government a Non-player (8.0).
        ("standin-2p-np", &["coalition", "taliban"], "a Non-player"),
    ];
    for (mode, sides, why) in modes {
        let (r, st) = with_card_text_in(n, gov, (mode, sides));
        let (r, mut st) = emptied(r, st);
        let d = r.data().clone();
        put(&d, &mut st, "kabul", Piece::Police, 2);
        put(&d, &mut st, "balkh", Piece::Police, 1);
        on_card(&r, &mut st, n);
        send(&r, &mut st, Faction::Coalition, "event shaded");
        let Stage::Card(t) = &st.stage else { panic!() };
        assert!(t.choice.is_none(), "{why}: not asked");
        assert_eq!(st[s(&d, "kabul")].pieces[Piece::Police], 1, "{why}");
    }
    // No choice: 2 spaces asked, 2 qualify.
    let (r, st) = with_card_text(n, &taliban_choose(""));
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    put(&d, &mut st, "kandahar", Piece::TalUnder, 1);
    put(&d, &mut st, "zabol", Piece::TalUnder, 1);
    on_card(&r, &mut st, n);
    send(&r, &mut st, Faction::Coalition, "event shaded");
    let Stage::Card(t) = &st.stage else { panic!() };
    assert!(t.choice.is_none(), "no choice: not asked");
    assert_eq!(taliban_in(&r, &st), [0, 0, 0]);
}

/// A one-player game, dealt, with the board emptied (8.0: the other three
/// factions are Non-players).
#[test]
fn a_non_player_operation_goes_to_the_maximum_extent_its_resources_allow() {
    use umpire_adp::np_extent;
    // 8.1 GUIDELINES: "carry out whatever actions apply to the maximum
    // extent (... only as long as needed pieces and Resources are
    // available)"; ruling A50: further spaces highest Pop first. A Warlord
    // Rally costs 1 a space (3.3.1): with 4 Resources, 4 spaces.
    let (r, mut st) = np_game_emptied();
    let d = r.data().clone();
    st.resources[Faction::Warlords.index()] = 4;
    let wide = np_extent::widen(&d, &st, Faction::Warlords, "rally\nin balkh");
    let spaces: Vec<&str> = wide.lines().filter(|l| l.starts_with("in ")).collect();
    assert_eq!(spaces.len(), 4, "{wide}");
    assert_eq!(spaces[0], "in balkh");
    // Kabul (Pop 3) is the first space added.
    assert_eq!(spaces[1], "in kabul", "{wide}");
    op(&d, &mut st, Faction::Warlords, &wide).unwrap();
    assert_eq!(st.res(Faction::Warlords), 0);
    // A movement is not widened (one group, as ranked).
    let march = "march\nmove 1 balkh>samangan";
    assert_eq!(np_extent::widen(&d, &st, Faction::Warlords, march), march);
}

#[test]
fn a_non_player_rally_places_a_base_wherever_it_can() {
    use umpire_adp::np_extent;
    // 8.1 GUIDELINES: "Place friendly Bases whenever possible" and "Remove
    // friendly Active before Underground Guerrillas"; 3.3.1: a Rally Base
    // replaces 2 of the faction's Guerrillas. Balkh holds 2 Active and 1
    // Underground Warlord Guerrillas: the widened Rally puts a Base there;
    // the spaces without 2 Guerrillas only place.
    let (r, mut st) = np_game_emptied();
    let d = r.data().clone();
    st.resources[Faction::Warlords.index()] = 4;
    put(&d, &mut st, "balkh", Piece::WarActive, 2);
    put(&d, &mut st, "balkh", Piece::WarUnder, 1);
    let wide = np_extent::widen(&d, &st, Faction::Warlords, "rally\nin balkh");
    let spaces: Vec<&str> = wide.lines().filter(|l| l.starts_with("in ")).collect();
    assert_eq!(spaces.len(), 4, "{wide}");
    assert_eq!(spaces[0], "in balkh base", "{wide}");
    assert!(spaces[1..].iter().all(|l| !l.ends_with("base")), "{wide}");
    op(&d, &mut st, Faction::Warlords, &wide).unwrap();
    let b = s(&d, "balkh");
    assert_eq!(st[b].pieces[Piece::WarBase], 1);
    assert_eq!(
        st[b].pieces[Piece::WarActive],
        0,
        "the Active ones go first"
    );
    assert_eq!(st[b].pieces[Piece::WarUnder], 1);
    // Version 8 kept the sampled Rally as it was (ARCHITECTURE "Upgrades").
    let (r, mut st) = np_game_emptied();
    let d8 = r.at(8).unwrap().data().clone();
    st.resources[Faction::Warlords.index()] = 4;
    put(&d8, &mut st, "balkh", Piece::WarActive, 2);
    let wide = np_extent::widen(&d8, &st, Faction::Warlords, "rally\nin balkh");
    assert!(wide.starts_with("rally\nin balkh\n"), "{wide}");
    assert!(!wide.contains("base"), "{wide}");
}

#[test]
fn a_non_player_march_brings_every_group_it_can_to_its_destination() {
    use umpire_adp::np_extent;
    // 8.1 GUIDELINES: "March so as to get as many Underground Guerrillas as
    // possible to the destination (3.3.2)" and "Do not move a piece out of a
    // space if that would place or remove Control there (1.7)". 3.3.2: each
    // group moves on its own; Samangan is not Pashtun, so no Warlord group
    // is Activated. Bamian's group joins Balkh's; Sar-e-Pol's stays, since
    // its 1 Police would then Control it.
    let (r, mut st) = np_game_emptied();
    let d = r.data().clone();
    st.resources[Faction::Warlords.index()] = 5;
    put(&d, &mut st, "balkh", Piece::WarUnder, 2);
    put(&d, &mut st, "bamian", Piece::WarUnder, 3);
    put(&d, &mut st, "bamian", Piece::WarActive, 1);
    put(&d, &mut st, "sar-e-pol", Piece::WarUnder, 2);
    put(&d, &mut st, "sar-e-pol", Piece::Police, 1);
    let ranked = "march\nmove 2 balkh>samangan";
    let wide = np_extent::widen(&d, &st, Faction::Warlords, ranked);
    assert_eq!(wide, format!("{ranked}\nmove 4 bamian>samangan"));
    op(&d, &mut st, Faction::Warlords, &wide).unwrap();
    let sam = s(&d, "samangan");
    assert_eq!(st[sam].pieces[Piece::WarUnder], 5);
    assert_eq!(st[sam].pieces[Piece::WarActive], 1);
    // One destination paid for once (ruling A13).
    assert_eq!(st.res(Faction::Warlords), 4);
    // Version 8 marched the ranked group alone.
    let (r, mut st) = np_game_emptied();
    let d8 = r.at(8).unwrap().data().clone();
    st.resources[Faction::Warlords.index()] = 5;
    put(&d8, &mut st, "balkh", Piece::WarUnder, 2);
    put(&d8, &mut st, "bamian", Piece::WarUnder, 3);
    assert_eq!(
        np_extent::widen(&d8, &st, Faction::Warlords, ranked),
        ranked
    );
}

#[test]
fn infiltrate_takes_a_base_after_cubes_unshielded_by_troops_and_costs_patronage() {
    // 4.4.2: Infiltrate removes 2 Government or Warlord pieces or replaces
    // 1 with a Taliban Guerrilla; "Government or Warlord Bases cannot be
    // removed before all Government cubes or Warlord Guerrillas in the
    // space"; "reduce Patronage by 1 per Government piece that was
    // removed"; "NOTE: Coalition Troops do not protect Government Bases
    // from Infiltration".
    let (r, st) = game_in(
        "standin",
        &["coalition", "government", "taliban", "warlords"],
    );
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    st.resources[Faction::Taliban.index()] = 5;
    st.patronage = 10;
    put(&d, &mut st, "kandahar", Piece::TalUnder, 1);
    put(&d, &mut st, "helmand", Piece::TalUnder, 1);
    put(&d, &mut st, "helmand", Piece::GovBase, 1);
    put(&d, &mut st, "helmand", Piece::CoalTroops, 2);
    put(&d, &mut st, "helmand", Piece::Police, 1);
    let h = s(&d, "helmand");
    op(
        &d,
        &mut st,
        Faction::Taliban,
        "rally\nin kandahar\nsa infiltrate helmand remove government government",
    )
    .unwrap();
    assert_eq!(st[h].pieces[Piece::Police], 0, "the cube first");
    assert_eq!(
        st[h].pieces[Piece::GovBase],
        0,
        "then the Base, Troops or not"
    );
    assert_eq!(st[h].pieces[Piece::CoalTroops], 2);
    assert_eq!(st.patronage, 8);
}

#[test]
fn a_non_player_infiltrates_underground_guerrillas_and_police_and_troops_evenly() {
    // 8.1 GUIDELINES: "Remove enemy ... Underground before Active
    // Guerrillas, and Police then Troops evenly (each space)"; a player's
    // Infiltrate takes Active Guerrillas and Police first (4.4.2). Version 9.
    let spaces = |d: &Data, st: &mut State| {
        put(d, st, "kandahar", Piece::TalUnder, 1);
        put(d, st, "helmand", Piece::TalUnder, 1);
        put(d, st, "helmand", Piece::Police, 2);
        put(d, st, "helmand", Piece::GovTroops, 2);
        put(d, st, "zabol", Piece::TalUnder, 1);
        put(d, st, "zabol", Piece::WarUnder, 1);
        put(d, st, "zabol", Piece::WarActive, 1);
    };
    let infiltrate = |d: &Data, st: &mut State, text: &str| {
        st.resources[Faction::Taliban.index()] = 5;
        op(
            d,
            st,
            Faction::Taliban,
            &format!("rally\nin kandahar\nsa infiltrate {text}"),
        )
        .unwrap();
    };
    let (r, mut np) = np_game_emptied();
    assert!(np.seats.is_np(Faction::Taliban));
    let d = r.data().clone();
    spaces(&d, &mut np);
    let mut player = {
        let (r, st) = game_in(
            "standin",
            &["coalition", "government", "taliban", "warlords"],
        );
        let (_, mut st) = emptied(r, st);
        spaces(&d, &mut st);
        st
    };
    let (h, z) = (s(&d, "helmand"), s(&d, "zabol"));
    infiltrate(&d, &mut np, "helmand remove government government");
    assert_eq!(
        (np[h].pieces[Piece::Police], np[h].pieces[Piece::GovTroops]),
        (1, 1)
    );
    infiltrate(&d, &mut player, "helmand remove government government");
    assert_eq!(
        (
            player[h].pieces[Piece::Police],
            player[h].pieces[Piece::GovTroops]
        ),
        (0, 2)
    );
    infiltrate(&d, &mut np, "zabol replace warlords");
    assert_eq!(
        (
            np[z].pieces[Piece::WarUnder],
            np[z].pieces[Piece::WarActive]
        ),
        (0, 1)
    );
    infiltrate(&d, &mut player, "zabol replace warlords");
    assert_eq!(
        (
            player[z].pieces[Piece::WarUnder],
            player[z].pieces[Piece::WarActive]
        ),
        (1, 0)
    );
}

#[test]
fn a_government_player_names_the_cubes_its_train_base_replaces() {
    // 3.2.1 step 2: "replace any 3 Government cubes there with 1 Government
    // Base": from version 9 the player names the Police among them
    // (`base SPACE N police`, the rest Troops); without it, Police first.
    let (r, mut st) = game_in(
        "standin",
        &["coalition", "government", "taliban", "warlords"],
    );
    Ruleset::deal(&r, &mut st, &mut Dice::seeded([8; 32])).unwrap();
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    st.resources[Faction::Government.index()] = 9;
    put(&d, &mut st, "kabul", Piece::Police, 3);
    put(&d, &mut st, "kabul", Piece::GovTroops, 3);
    let k = s(&d, "kabul");
    let mut two = st.clone();
    op(
        &d,
        &mut two,
        Faction::Government,
        "train\nin kabul place 1 police\nbase kabul 0 police",
    )
    .unwrap();
    assert_eq!(two[k].pieces[Piece::Police], 4);
    assert_eq!(two[k].pieces[Piece::GovTroops], 0);
    assert_eq!(two[k].pieces[Piece::GovBase], 1);
    let e = op(
        &d,
        &mut st.clone(),
        Faction::Government,
        "train\nin kabul place 1 police\nbase kabul 0 police\nbase kabul",
    )
    .unwrap_err();
    assert!(e.contains("3.2.1"), "{e}");
    // More Police named than the space holds: refused, naming the rule.
    let mut few = st.clone();
    few[k].pieces[Piece::Police] = 1;
    let e = op(
        &d,
        &mut few,
        Faction::Government,
        "train\nin kabul place 1 troops\nbase kabul 2 police",
    )
    .unwrap_err();
    assert!(e.contains("3.2.1") && e.contains("1 Police"), "{e}");
    // Version 8 reads no count.
    let d8 = r.at(8).unwrap().data().clone();
    assert!(orders::parse(&d8, &lines("train\nin kabul\nbase kabul 1 police"), false).is_err());
}

#[test]
fn a_non_player_government_train_builds_a_base_with_police_and_troops_evenly() {
    use umpire_adp::np_extent;
    // 8.1 GUIDELINES: "Place friendly Bases whenever possible. Exception:
    // Place no more than 1 Government Base per space" and "Place or remove
    // friendly Police and Troops evenly, Police first"; 3.2.1 step 2 (b):
    // the Government replaces 3 of its cubes in a selected space with a
    // Base, instead of Civic Action (ruling A21: one of the three).
    let (r, mut st) = game_in("standin-2p-np", &["coalition", "taliban"]);
    Ruleset::deal(&r, &mut st, &mut Dice::seeded([8; 32])).unwrap();
    let (r, mut st) = emptied(r, st);
    st.stage = Stage::Card(CardTurn::default());
    st.finished = None;
    let d = r.data().clone();
    assert!(st.seats.is_np(Faction::Government));
    st.resources[Faction::Government.index()] = 9;
    put(&d, &mut st, "kabul", Piece::Police, 3);
    put(&d, &mut st, "kabul", Piece::GovTroops, 3);
    // Only 2 Police left Available: the Train places those two.
    let police = st.available[Piece::Police];
    st.available[Piece::Police] = 2;
    st.available[Piece::GovTroops] = 0;
    let wide = np_extent::widen(
        &d,
        &st,
        Faction::Government,
        "train\nin kabul place 2 police\ncivic kabul 1",
    );
    assert!(wide.ends_with("\nbase kabul"), "{wide}");
    assert!(!wide.contains("civic"), "one step 2 (A21): {wide}");
    op(&d, &mut st, Faction::Government, &wide).unwrap();
    let k = s(&d, "kabul");
    assert_eq!(st[k].pieces[Piece::GovBase], 1);
    // 5 Police and 3 Troops; the Base takes Police, Troops, Police.
    assert_eq!(st[k].pieces[Piece::Police], 3);
    assert_eq!(st[k].pieces[Piece::GovTroops], 2);
    // A space that holds a Government Base gets no second one.
    st.available[Piece::Police] = police;
    put(&d, &mut st, "kabul", Piece::Police, 2);
    let again = np_extent::widen(
        &d,
        &st,
        Faction::Government,
        "train\nin kabul place 1 police",
    );
    assert!(!again.contains("base"), "{again}");
    // A player's Train replaces Police first, as before.
    let (r, mut st) = game_in(
        "standin",
        &["coalition", "government", "taliban", "warlords"],
    );
    let d = r.data().clone();
    let (_, mut st) = {
        Ruleset::deal(&r, &mut st, &mut Dice::seeded([8; 32])).unwrap();
        emptied(r, st)
    };
    st.resources[Faction::Government.index()] = 9;
    put(&d, &mut st, "kabul", Piece::Police, 5);
    put(&d, &mut st, "kabul", Piece::GovTroops, 3);
    op(
        &d,
        &mut st,
        Faction::Government,
        "train\nin kabul place 1 police\nbase kabul",
    )
    .unwrap();
    assert_eq!(st[k].pieces[Piece::Police], 3);
    assert_eq!(st[k].pieces[Piece::GovTroops], 3);
}

#[test]
fn a_non_player_coalition_redeploys_every_troop_that_may_go_and_keeps_control() {
    use umpire_adp::np_round;
    use umpire_adp::orders::PlanLine;
    use umpire_adp::pieces::Kind;
    // 6.5: the Coalition may move its Troops on LoCs or in Provinces without
    // COIN Bases to COIN-Controlled spaces with COIN Bases or Kabul; 8.1
    // GUIDELINES: the maximum extent, but "Do not move a piece out of a
    // space if that would place or remove Control there" (ruling A51: to
    // the first legal destination in the faction's order, Kabul here).
    let (r, mut st) = game_in("standin-1p-taliban", &["taliban"]);
    Ruleset::deal(&r, &mut st, &mut Dice::seeded([8; 32])).unwrap();
    let (r, mut st) = emptied(r, st);
    let d = r.data().clone();
    assert!(st.seats.is_np(Faction::Coalition));
    let loc = s(&d, "kabul-aibak");
    put(&d, &mut st, "kabul-aibak", Piece::CoalTroops, 2);
    // Helmand: 3 Troops Control it against 1 Guerrilla; 2 must stay.
    put(&d, &mut st, "helmand", Piece::CoalTroops, 3);
    put(&d, &mut st, "helmand", Piece::TalUnder, 1);
    // Kandahar holds a COIN Base: its Troops may not Redeploy.
    put(&d, &mut st, "kandahar", Piece::CoalTroops, 2);
    put(&d, &mut st, "kandahar", Piece::CoalBase, 1);
    let k = d.kabul();
    let mut plan = np_round::redeploy(&d, &st, Faction::Coalition);
    plan.sort_by_key(|p| match p {
        PlanLine::Redeploy { from, .. } => Some(*from),
        _ => None,
    });
    let mut want = vec![
        PlanLine::Redeploy {
            count: 1,
            kind: Kind::Troops,
            from: s(&d, "helmand"),
            to: k,
        },
        PlanLine::Redeploy {
            count: 2,
            kind: Kind::Troops,
            from: loc,
            to: k,
        },
    ];
    want.sort_by_key(|p| match p {
        PlanLine::Redeploy { from, .. } => Some(*from),
        _ => None,
    });
    assert_eq!(plan, want);
    // Version 8 moved no Coalition Troop; a Non-player Government or
    // Taliban makes no optional move.
    let d8 = r.at(8).unwrap().data().clone();
    assert!(np_round::redeploy(&d8, &st, Faction::Coalition).is_empty());
    assert!(np_round::redeploy(&d, &st, Faction::Government).is_empty());
}

#[test]
fn non_players_buy_civic_action_and_sharia_to_the_maximum_extent() {
    use umpire_adp::np_round;
    use umpire_adp::orders::PlanLine;
    // 8.1 GUIDELINES (the maximum extent) in the Support Phase, ruling A49:
    // a Non-player Government buys Civic Action where it decides (6.4.1:
    // COIN Control, Troops and Police; more Government Troops than
    // Coalition), every Terror marker then every level; a Non-player
    // Taliban buys Sharia where it Controls (6.4.2). The Coalition here is
    // a player: it sends its own plan.
    let (r, mut st) = np_game_emptied();
    let d = r.data().clone();
    put(&d, &mut st, "kandahar", Piece::GovTroops, 2);
    put(&d, &mut st, "kandahar", Piece::Police, 1);
    let k = s(&d, "kandahar");
    st[k].terror = 1;
    st[k].support = Support::Opposition;
    put(&d, &mut st, "helmand", Piece::TalUnder, 2);
    st.update_control(&d);
    assert_eq!(
        np_round::plan(&d, &st, Faction::Government),
        vec![PlanLine::Civic(k, 3)]
    );
    assert_eq!(
        np_round::plan(&d, &st, Faction::Taliban),
        vec![PlanLine::Sharia(s(&d, "helmand"), 1)]
    );
    assert!(np_round::plan(&d, &st, Faction::Warlords).is_empty());
}

#[test]
fn the_stand_in_cards_meet_a_chosen_step_and_a_grant() {
    // The stand-in deck holds a step another faction chooses (5.1, D3:
    // #64's unshaded text, the Taliban) and a grant (5.5, D4: #60's shaded
    // text, the Warlords), so that self-play meets both.
    let r = Adp::new();
    let d = r.data();
    let hazara = d.card(CardNo(64)).unwrap();
    assert_eq!(
        hazara.side(false)[0].chosen_by(),
        Some((Faction::Taliban, 2))
    );
    let tajiks = d.card(CardNo(60)).unwrap();
    assert!(tajiks.side(true).iter().any(|s| matches!(
        s,
        umpire_adp::cards::Step::Grant {
            to: Faction::Warlords,
            ..
        }
    )));
}

#[test]
fn a_non_player_coalitions_surge_returns_a_troop_to_available() {
    // 7.2: the Coalition's total counts its pieces in Available; 4.2.1:
    // Surge moves Coalition pieces among its spaces and Available. The
    // Non-player's stand-in pair "train surge" (nonplayer.toml) now sends a
    // Troop back to Available (version 8); version 7 took one out of it,
    // and still does (`Adp::at(7)`).
    let (r8, st) = game_in("standin-1p-taliban", &["taliban"]);
    let (r8, mut st) = emptied(r8, st);
    st.finished = None;
    let d = r8.data().clone();
    put(&d, &mut st, "kabul", Piece::CoalBase, 1);
    put(&d, &mut st, "kabul", Piece::CoalTroops, 2);
    let n = coalition_card();
    on_card(&r8, &mut st, n);
    // Offered Operations only: the Government took the Event (2.3.4).
    st.stage = Stage::Card(CardTurn {
        first: Some((Faction::Government, Took::Event)),
        ..CardTurn::default()
    });
    st.resources[Faction::Government.index()] = 20;
    let pick = |r: &Adp| {
        nonplayer::choose(
            r.data(),
            &st,
            Faction::Coalition,
            &mut Dice::seeded([2; 32]),
        )
        .unwrap()
    };
    let now = pick(&r8);
    assert!(now.starts_with("train"), "{now}");
    assert!(now.contains("sa surge 1 troops kabul>available"), "{now}");
    let then = pick(&r8.at(7).unwrap());
    assert!(then.contains("sa surge 1 troops available>kabul"), "{then}");
}

/// `nonplayer.toml` with the Warlords' `[[flow]]` records replaced by `flow`
/// (a club's reading of the printed flowchart).
fn warlords_flow(flow: &str) -> Result<Data, umpire_core::data::DataErrors> {
    let mut text = String::new();
    for (i, chunk) in data::NONPLAYER_TOML.split("\n[[flow]]\n").enumerate() {
        match (i, chunk.starts_with("faction = \"warlords\"")) {
            (0, _) | (_, false) => {
                text.push_str(if i == 0 { "" } else { "\n[[flow]]\n" });
                text.push_str(chunk);
            }
            // The record's lines go; what follows them stays.
            (_, true) => text.push_str(chunk.split_once("\n\n").map_or("", |(_, rest)| rest)),
        }
    }
    text.push_str(flow);
    Data::load_with(
        data::MAP_TOML,
        data::FORCES_TOML,
        data::CARDS_TOML,
        data::SETUP_TOML,
        &text,
    )
}

#[test]
fn a_clubs_flowchart_data_changes_the_non_players_operation() {
    // 8.x: the flowcharts are missing; their Operation boxes are the
    // `[[flow]]` records of nonplayer.toml, read in order. Replacing the
    // Warlords' records (no code) changes what the Non-player does.
    let (r, mut st) = game_in("standin-3p-np", &["coalition", "government", "taliban"]);
    let d = r.data().clone();
    assert_eq!(
        d.nonplayer[Faction::Warlords.index()].flow[0],
        "rally cultivate"
    );
    // The first eligible took Operations: no Event is offered (2.3.4).
    after_first_took_ops(&r, &mut st, |c| c[0] != Faction::Warlords);
    let rec = |op: &str| {
        format!("\n[[flow]]\nfaction = \"warlords\"\ndo = \"{op}\"\nsrc = \"stand-in: a test\"\n")
    };
    for op in ["march", "rally"] {
        let d2 = warlords_flow(&rec(op)).unwrap();
        assert_eq!(d2.nonplayer[Faction::Warlords.index()].flow, [op]);
        assert_ne!(d2.hash, d.hash, "the data hash pins the flowchart");
        let text =
            nonplayer::choose(&d2, &st, Faction::Warlords, &mut Dice::seeded([2; 32])).unwrap();
        assert!(text.starts_with(op), "{op}: {text}");
    }
    // `umpire data check` refuses an unknown Operation, Special Activity,
    // faction, key, table or space, naming the rule.
    for (bad, why) in [
        (rec("bombard"), "3.0"),
        (rec("rally airstrike"), "4.0"),
        (rec("train"), "3.0"),
        ("\n[[flow]]\nfaction = \"nato\"\ndo = \"rally\"\nsrc = \"stand-in: x\"\n".into(), "1.5"),
        ("\n[[flow]]\nfaction = \"warlords\"\ndo = \"rally\"\nwhen = \"always\"\nsrc = \"stand-in: x\"\n".into(), "unknown key"),
        ("\n[[flows]]\nfaction = \"warlords\"\n".into(), "unknown table"),
    ] {
        let e = warlords_flow(&bad).unwrap_err();
        assert!(e.iter().any(|e| e.contains(why)), "{bad}: {e:?}");
    }
    let spaces = data::NONPLAYER_TOML.replace(
        "[warlords]\nsas",
        "[warlords]\nsupport = [\"atlantis\"]\nsas",
    );
    let e = Data::load_with(
        data::MAP_TOML,
        data::FORCES_TOML,
        data::CARDS_TOML,
        data::SETUP_TOML,
        &spaces,
    )
    .unwrap_err();
    assert!(
        e.iter()
            .any(|e| e.contains("atlantis") && e.contains("8.2")),
        "{e:?}"
    );
}

#[test]
fn a_clubs_space_order_changes_where_a_non_player_widens_first() {
    // 8.1 GUIDELINES (ruling A50): the further spaces of an Operation follow
    // the faction's `spaces` order; a space named first comes first.
    let d = Adp::new().data().clone();
    let (_, st) = game();
    let mut v: Vec<SpaceNo> = d.ids().collect();
    d.sort_spaces(&st, &d.nonplayer[Faction::Warlords.index()].spaces, &mut v);
    assert_eq!(v[0], s(&d, "kabul"), "the most Pop first");
    let text = data::NONPLAYER_TOML.replace(
        "[warlords]\nsas = [\"traffic\", \"cultivate\", \"suborn\"]\nevent = true\nspaces = [\"provinces\"",
        "[warlords]\nsas = [\"traffic\", \"cultivate\", \"suborn\"]\nevent = true\nspaces = [\"faryab\", \"provinces\"",
    );
    let d2 = Data::load_with(
        data::MAP_TOML,
        data::FORCES_TOML,
        data::CARDS_TOML,
        data::SETUP_TOML,
        &text,
    )
    .unwrap();
    let mut v: Vec<SpaceNo> = d2.ids().collect();
    d2.sort_spaces(&st, &d2.nonplayer[Faction::Warlords.index()].spaces, &mut v);
    assert_eq!(v[0], s(&d2, "faryab"));
}

#[test]
fn a_game_meets_the_hazara_question_and_self_play_answers_it() {
    // 5.1, digest D3: #64 Hazara's unshaded (stand-in) text removes Taliban
    // Guerrillas from 2 spaces the Taliban choose. Played by ordinary orders
    // in a four-player game, the Event stops for the Taliban's answer; every
    // answer self-play may pick (`Ruleset::legal`) is accepted, and a
    // Non-player Taliban answers it too (8.1).
    let (r, mut st) = game_in(
        "standin",
        &["coalition", "government", "taliban", "warlords"],
    );
    let d = r.data().clone();
    on_card(&r, &mut st, CardNo(64));
    assert_eq!(d.card(CardNo(64)).unwrap().order[0], Faction::Government);
    let before: u32 = d
        .ids()
        .map(|x| st[x].pieces.guerrillas(Faction::Taliban))
        .sum();
    send(&r, &mut st, Faction::Government, "event unshaded");
    assert_eq!(
        decider_now(&r, &st),
        Some(Faction::Taliban),
        "the Taliban are asked"
    );
    let tal = st.seats.side(Faction::Taliban).unwrap();
    let answers: Vec<String> = Ruleset::legal_moves(&r, &st, tal)
        .into_iter()
        .filter(|o| o.starts_with("choose "))
        .collect();
    assert!(!answers.is_empty());
    for o in &answers {
        let mut after = st.clone();
        let parsed = Ruleset::parse(&r, &after, tal, &lines(o)).unwrap();
        Ruleset::apply(
            &r,
            &mut after,
            tal,
            &parsed[0].1,
            &mut Dice::seeded([1; 32]),
        )
        .unwrap_or_else(|e| panic!("{o}: {e}"));
        let now: u32 = d
            .ids()
            .map(|x| after[x].pieces.guerrillas(Faction::Taliban))
            .sum();
        assert_eq!(now + 2, before, "{o}: one Guerrilla from each of 2 spaces");
        let Stage::Card(t) = &after.stage else {
            panic!()
        };
        assert!(t.choice.is_none(), "{o}: answered");
        assert_eq!(t.first, Some((Faction::Government, Took::Event)));
    }
    let np = nonplayer::choose(&d, &st, Faction::Taliban, &mut Dice::seeded([3; 32])).unwrap();
    assert!(np.starts_with("choose "), "{np}");
}
