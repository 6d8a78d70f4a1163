//! A Distant Plain explains itself: each card's two texts in words in the
//! status and in the offer (generated from its steps), questions that say
//! what the chosen spaces undergo, Event targets and Civic Action or Sharia
//! that would do nothing refused (version 11), and every Operation's
//! Resource costs narrated with what is left.

use crate::kit::*;
use umpire_adp::Adp;
use umpire_adp::data::CardNo;
use umpire_adp::orders::PlanLine;
use umpire_adp::pieces::{Faction, Piece};
use umpire_adp::propaganda;
use umpire_adp::sequence::{CardTurn, Choice};
use umpire_adp::state::{Stage, State};
use umpire_core::dice::Dice;
use umpire_core::ruleset::{Ruleset, Viewer};

/// Card 14, Economic Project: unshaded removes a Taliban Base from 1
/// Afghan space (the stand-in text).
const REMOVE_BASE: CardNo = CardNo(14);
/// Card 64: the Taliban choose 2 spaces to lose a Guerrilla each.
const TALIBAN_CHOOSE: CardNo = CardNo(64);

/// `f`'s order `text` applied to a copy of `st`, kept if carried out: its
/// events' text, or the refusal's.
fn send(r: &Adp, st: &mut State, f: Faction, text: &str) -> Result<String, String> {
    let side = st.seats.side(f).unwrap();
    let orders = Ruleset::parse(r, st, side, &lines(text)).map_err(|e| e.to_string())?;
    let mut copy = st.clone();
    let mut ev = Vec::new();
    for (_, o) in orders {
        ev.extend(
            Ruleset::apply(r, &mut copy, side, &o, &mut Dice::seeded([1; 32]))
                .map_err(|e| e.to_string())?,
        );
    }
    *st = copy;
    Ok(text_of(&ev))
}

#[test]
fn the_status_and_the_offer_give_both_sides_of_each_card_in_words() {
    // 5.1, 5.2: the executing faction picks either side; it reads both,
    // as this ruleset carries them out, before it picks. The card showing
    // next (2.2) is described too; the stand-in is marked as such.
    let (r, mut st) = game();
    on_card(&r, &mut st, REMOVE_BASE);
    let status = Ruleset::view(&r, &st, Viewer::Public).status.join("\n");
    for want in [
        "Current card: #14 Economic Project (event), faction order Warlords, Taliban, Coalition, Government",
        "- unshaded: Remove 1 Taliban Base from 1 Afghan space (Kabul or a Province) to Available. The Taliban are Ineligible for the next card (2.3.6).",
        "- shaded: Place 1 Taliban Base in 1 Pashtun space (from Available).",
        "Next card: #1 ISR (capability)",
        "- unshaded: Capability for the game: Coalition Air Strike removes 1 more piece in each space (5.3).",
        "- shaded: Capability for the game: the Coalition may not Air Lift (5.3).",
        "- stand-in: this ruleset's text and faction order, not the printed card's (cards.toml)",
    ] {
        assert!(status.contains(want), "{want}\n{status}");
    }
    let ask = Ruleset::prompt(&r, &st).awaiting[0].ask.clone();
    for want in [
        "`event unshaded SPACE`: Remove 1 Taliban Base",
        "`event shaded SPACE`: Place 1 Taliban Base in 1 Pashtun space",
    ] {
        assert!(ask.contains(want), "{want}\n{ask}");
    }
}

#[test]
fn a_choose_question_says_what_the_chosen_spaces_undergo() {
    // 5.1, digest D3: the faction named to choose reads what its spaces
    // will undergo before it names them.
    let (r, mut st) = game();
    on_card(&r, &mut st, TALIBAN_CHOOSE);
    st.stage = Stage::Card(CardTurn {
        choice: Some(Choice {
            chooser: Faction::Taliban,
            executor: Faction::Coalition,
            card: TALIBAN_CHOOSE,
            shaded: false,
            step: 0,
            spaces: Vec::new(),
            free: None,
        }),
        ..CardTurn::default()
    });
    let ask = Ruleset::prompt(&r, &st).awaiting[0].ask.clone();
    assert!(
        ask.contains(
            "names the Taliban to choose 2 space(s) (in each, 1 Taliban Guerrilla is removed to Available)"
        ),
        "{ask}"
    );
}

/// The emptied map with one Taliban Base in Helmand, on card 14, at
/// `version` (the newest if `None`).
fn one_base(version: Option<u32>) -> (Adp, State) {
    let (r, st) = empty();
    let r = version.map_or(r.clone(), |v| r.at(v).unwrap());
    let mut st = st;
    let d = r.data().clone();
    put(&d, &mut st, "helmand", Piece::TalBase, 1);
    on_card(&r, &mut st, REMOVE_BASE);
    (r, st)
}

#[test]
fn an_event_target_where_the_step_does_nothing_is_refused_while_another_would_do_something() {
    // 5.1: "do as much of the text as can be done". Kandahar holds no
    // Taliban Base while Helmand does: naming Kandahar is refused, with the
    // line's rule and a space that would do; so is naming none.
    let (r, mut st) = one_base(None);
    let e = send(&r, &mut st, Faction::Warlords, "event unshaded kandahar").unwrap_err();
    assert!(
        e.contains(
            "nothing would happen in `kandahar` (no Taliban Base there), while it would in Helmand"
        ) && e.contains("5.1"),
        "{e}"
    );
    let e = send(&r, &mut st, Faction::Warlords, "event unshaded").unwrap_err();
    assert!(
        e.contains("0 spaces named of 1") && e.contains("Helmand"),
        "{e}"
    );
    let ev = send(&r, &mut st, Faction::Warlords, "event unshaded helmand").unwrap();
    assert!(
        ev.contains("Helmand: 1 Taliban Base removed to Available"),
        "{ev}"
    );
    // Version 10 took the idle target as it came.
    let (r, mut st) = one_base(Some(10));
    let ev = send(&r, &mut st, Faction::Warlords, "event unshaded kandahar").unwrap();
    assert!(
        ev.contains("Kandahar: 0 Taliban Bases removed to Available (none there)"),
        "{ev}"
    );
}

#[test]
fn an_event_target_that_does_nothing_stands_where_no_space_could_do_more() {
    // 5.1: with no Taliban Base anywhere, no space could do more: the
    // Event is legal, with whatever space (or none) it names.
    let (r, mut st) = empty();
    on_card(&r, &mut st, REMOVE_BASE);
    let ev = send(
        &r,
        &mut st.clone(),
        Faction::Warlords,
        "event unshaded kandahar",
    )
    .unwrap();
    assert!(
        ev.contains("Kandahar: 0 Taliban Bases removed to Available (none there)"),
        "{ev}"
    );
    send(&r, &mut st, Faction::Warlords, "event unshaded").unwrap();
}

#[test]
fn a_space_named_twice_for_one_step_is_refused() {
    // 5.1: "in each of 2 spaces" means two spaces.
    let (r, mut st) = with_card_text(
        REMOVE_BASE,
        r#"[{ do = "place", faction = "taliban", piece = "guerrilla", count = 1, spaces = 2, filter = "pashtun" }]"#,
    );
    on_card(&r, &mut st, REMOVE_BASE);
    let e = send(
        &r,
        &mut st,
        Faction::Warlords,
        "event shaded kandahar kandahar",
    )
    .unwrap_err();
    assert!(
        e.contains("`kandahar` is named twice") && e.contains("5.1"),
        "{e}"
    );
}

#[test]
fn civic_action_or_sharia_of_no_step_is_refused() {
    // 6.4.1, 6.4.2 (version 11): a plan line that buys nothing is refused
    // with its line, not taken silently; version 10 took it.
    let (r, mut st) = empty();
    let d = r.data().clone();
    put(&d, &mut st, "kabul", Piece::CoalTroops, 2);
    put(&d, &mut st, "kabul", Piece::Police, 1);
    put(&d, &mut st, "helmand", Piece::TalBase, 1);
    put(&d, &mut st, "helmand", Piece::TalUnder, 2);
    let kabul = s(&d, "kabul");
    let helmand = s(&d, "helmand");
    let decider = propaganda::civic_decider(&d, &st, kabul).expect("Civic Action in Kabul");
    let e = propaganda::check_plan(&d, &st, decider, &[(3, PlanLine::Civic(kabul, 0))])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("line 3") && e.contains("of 0 steps buys nothing") && e.contains("6.4.1"),
        "{e}"
    );
    let e = propaganda::check_plan(
        &d,
        &st,
        Faction::Taliban,
        &[(2, PlanLine::Sharia(helmand, 0))],
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("line 2") && e.contains("6.4.2"), "{e}");
    propaganda::check_plan(
        &d,
        &st,
        Faction::Taliban,
        &[(2, PlanLine::Sharia(helmand, 1))],
    )
    .unwrap();
    let old = r.at(10).unwrap();
    let d10 = old.data();
    propaganda::check_plan(
        d10,
        &st,
        Faction::Taliban,
        &[(2, PlanLine::Sharia(helmand, 0))],
    )
    .unwrap();
}

#[test]
fn an_operation_narrates_its_resource_cost_per_space_and_what_is_left() {
    // 3.1: each space selected costs its Resources; the result says how
    // many, where, and what the faction has left.
    let (r, mut st) = empty();
    let d = r.data().clone();
    st.resources[Faction::Taliban.index()] = 10;
    let ev = op_events(
        &d,
        &mut st,
        Faction::Taliban,
        "rally\nin kandahar\nin helmand",
    )
    .unwrap();
    assert!(
        ev.contains(
            "Resources spent (3.1): Rally in Kandahar, Helmand 2 (1 a space); Taliban 8 left"
        ),
        "{ev}"
    );
}

#[test]
fn an_events_track_changes_say_where_the_track_now_stands() {
    // 1.8: a step's Resources, Aid or Patronage, with the new level, and
    // the cap where it stopped the change.
    let (r, mut st) = game();
    on_card(&r, &mut st, CardNo(4));
    let f = umpire_adp::sequence::decider(r.data(), &st).unwrap();
    st.resources[Faction::Government.index()] = 30;
    let ev = send(&r, &mut st.clone(), f, "event unshaded").unwrap();
    assert!(ev.contains("Government Resources +6, now 36"), "{ev}");
    st.resources[Faction::Government.index()] = 72;
    let ev = send(&r, &mut st, f, "event unshaded").unwrap();
    assert!(
        ev.contains("Government Resources +6: +3 to 75, its limit (1.8)"),
        "{ev}"
    );
}

#[test]
fn a_choosers_answer_is_never_refused_for_the_executors_later_targets() {
    // 5.1, digest D3: the executor's targets are judged in its own move;
    // after the Event halts for the Taliban's choice, their answer goes on
    // with the executor's later space as named, idle or not (else no
    // answer of theirs, nor their default, could be taken).
    let (r, mut st) = with_card_text(
        REMOVE_BASE,
        r#"[{ do = "remove", faction = "taliban", piece = "guerrilla", count = 1, spaces = 2, filter = "any", by = "taliban" }, { do = "place", faction = "taliban", piece = "base", count = 1, spaces = 1, filter = "pashtun" }]"#,
    );
    let d = r.data().clone();
    on_card(&r, &mut st, REMOVE_BASE);
    // Kandahar at its 2 Bases (1.4.2): no room for the Taliban Base.
    put(&d, &mut st, "kandahar", Piece::TalBase, 1);
    send(&r, &mut st, Faction::Warlords, "event shaded kandahar").unwrap();
    let Stage::Card(t) = &st.stage else { panic!() };
    assert!(t.choice.is_some(), "the Taliban are asked");
    let ev = send(&r, &mut st, Faction::Taliban, "choose helmand zabol").unwrap();
    assert!(
        ev.contains(
            "Kandahar: 0 Taliban Bases placed from Available of 1: room for 0 Bases only (1.4.2)"
        ),
        "{ev}"
    );
}

#[test]
fn a_propaganda_plan_question_says_what_a_step_costs_and_where_it_may_be_bought() {
    // 6.4.1, 6.4.2: the plan's Civic Action and Sharia, their price and
    // effect, and the spaces the faction may buy them in, with how many
    // steps each can take.
    use umpire_adp::propaganda::Round;
    let (r, mut st) = empty();
    let d = r.data().clone();
    put(&d, &mut st, "kabul", Piece::CoalTroops, 2);
    put(&d, &mut st, "kabul", Piece::Police, 1);
    put(&d, &mut st, "helmand", Piece::TalBase, 1);
    put(&d, &mut st, "helmand", Piece::TalUnder, 2);
    st[s(&d, "helmand")].terror = 1;
    st.stage = Stage::Propaganda(Round {
        plans: Vec::new(),
        waiting: vec![Faction::Coalition, Faction::Taliban],
        last: false,
    });
    let asks: Vec<String> = Ruleset::prompt(&r, &st)
        .awaiting
        .iter()
        .map(|a| a.ask.clone())
        .collect();
    let all = asks.join("\n");
    for want in [
        "(Civic Action: 3 Government Resources a step: a Terror marker removed, then a level toward Support (6.4.1); at most: kabul 1)",
        "(Sharia: 1 Taliban Resource a step: a Terror marker removed, then a level toward Opposition (6.4.2); at most: helmand 2)",
    ] {
        assert!(all.contains(want), "{want}\n{all}");
    }
}

#[test]
fn a_transports_payments_to_the_warlords_are_told_and_counted() {
    // 4.3.2: "the Government pays the Warlords 1 Resource for each space
    // entered that holds any Guerrillas": told where, and among the costs.
    let (r, mut st) = empty();
    let d = r.data().clone();
    put(&d, &mut st, "kabul", Piece::GovTroops, 3);
    put(&d, &mut st, "kabul", Piece::Police, 2);
    put(&d, &mut st, "kandahar-kabul", Piece::TalUnder, 1);
    st.resources[Faction::Government.index()] = 20;
    let ev = op_events(
        &d,
        &mut st,
        Faction::Government,
        "patrol\nmove 1 police kabul>kabul-aibak\nsa transport 3 kabul>kandahar-kabul>kandahar",
    )
    .unwrap();
    assert!(
        ev.contains("Transport through Kandahar-Kabul: the Government pays the Warlords 1 (4.3.2)"),
        "{ev}"
    );
    assert!(
        ev.contains("paid to the Warlords, Transport through Kandahar-Kabul 1"),
        "{ev}"
    );
}

#[test]
fn an_operation_is_placed_on_the_spaces_its_lines_name_for_the_map_around_it() {
    // The result mail's picture and map snippet centre on an event's
    // places: an Operation's first event holds the spaces its lines name,
    // in the order written.
    let (r, mut st) = empty();
    let d = r.data().clone();
    st.resources[Faction::Taliban.index()] = 10;
    let ev = op_with(
        &d,
        &mut st,
        Faction::Taliban,
        "rally\nin helmand\nin kandahar",
        FULL,
        &mut Dice::seeded([3; 32]),
    )
    .unwrap();
    let space = |name: &str| {
        umpire_core::board::Place::Space(umpire_core::board::SpaceId(u16::from(s(&d, name).0)))
    };
    assert_eq!(ev[0].focus, vec![space("helmand"), space("kandahar")]);
    assert!(ev[1..].iter().all(|e| e.focus.is_empty()));
}

#[test]
fn a_govern_says_what_it_placed_or_moved_and_where_the_tracks_now_stand() {
    // 4.3.1: Govern in Kabul (COIN-Controlled, Support) moves Aid to
    // Patronage up to its Population and sets it Neutral; in Kabul again
    // with a Returnees marker instead, its Population grows by 1.
    use umpire_adp::data::Support;
    let (r, mut st) = empty();
    let d = r.data().clone();
    put(&d, &mut st, "kabul", Piece::Police, 2);
    let kabul = s(&d, "kabul");
    st[kabul].support = Support::Support;
    st.update_control(&d);
    st.resources[Faction::Government.index()] = 9;
    st.aid = 10;
    st.patronage = 5;
    let mut twin = st.clone();
    let ev = op_events(
        &d,
        &mut st,
        Faction::Government,
        "train\nin kabul\nsa govern kabul patronage",
    )
    .unwrap();
    assert!(
        ev.contains(
            "Govern in Kabul: 3 Aid to Patronage (Aid now 7, Patronage 8); Kabul Neutral (4.3.1)"
        ),
        "{ev}"
    );
    let ev = op_events(
        &d,
        &mut twin,
        Faction::Government,
        "train\nin kabul\nsa govern kabul returnees",
    )
    .unwrap();
    assert!(
        ev.contains("Govern in Kabul: a +1 Pop Returnees marker; Population now 4 (4.3.1)"),
        "{ev}"
    );
}

#[test]
fn a_rolls_label_is_shown_once_as_the_sentence_it_is() {
    // A Distant Plain's roll labels are sentences with their rule: a mail or
    // `verify` shows each once, not again in brackets after words that only
    // move the rule to the end.
    let (r, _) = empty();
    for label in [
        "8.2: Random Spaces for the Non-player Government, tan die (column)",
        "deck: pile 1 of 4 holds 9 cards; a 1 is its Propaganda card (2.1)",
        "Taliban Attack in Kandahar: hits on 2 or less (3.3.3)",
    ] {
        assert_eq!(umpire_core::ruleset::roll_title(&r, label), label);
    }
}
