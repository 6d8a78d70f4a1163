//! Every number with its reason, every choice with its effect: what each
//! player is told of his own orders (the path a force took and what it cost,
//! the provisioning account, the codes of the tables in words, the sealed
//! plan as accepted), and that the other player is told no more than the
//! fog of war lets him see (22.1).

use crate::kit::*;
use umpire_core::ruleset::Event;

impl T {
    /// [`T::run`], keeping each event's audience and places.
    pub fn events(&mut self, side: Side, text: &str, rolls: &[(&str, u32)]) -> Vec<Event> {
        let orders = self.r.parse(&self.st, side, &lines(text)).unwrap();
        let mut dice = Dice::recorded(rolls.iter().map(|(l, v)| roll(l, *v)).collect());
        let mut out = Vec::new();
        for (_, o) in &orders {
            out.extend(self.r.apply(&mut self.st, side, o, &mut dice).unwrap());
        }
        assert_eq!(dice.unused_recorded(), 0, "scripted rolls left over");
        out
    }
}

/// The texts `side` is told (its own and the public ones).
fn told(ev: &[Event], side: Side) -> Vec<String> {
    ev.iter()
        .filter(|e| e.audience.sees(Some(side)))
        .map(|e| e.text.clone())
        .collect()
}

// 13.1, 12.2(2): the mover's own mail gives the path with each step's cost,
// the MP spent and left of the force's allowance, and the SP spent and left;
// the other player learns only that a British force came to the square
// (22.1, ruling A57), not what is in it nor the way it came.
#[test]
fn the_mover_is_told_his_path_mp_and_sp_and_the_other_player_only_where_it_went() {
    let mut t = empty(2);
    let s = t.city("Delhi");
    let u = t.put(Nat::British, Kind::FieldForce, 2, Loc::Sq(s));
    let ids = format!("{} {}", t.id(u[0]), t.id(u[1]));
    let a = Sq::new(s.col, s.row + 1);
    let b = Sq::new(s.col, s.row + 2);
    t.st.sp[0] = 3;
    let ev = t.events(BRITISH, &format!("move {ids}: {a} {b}"), &[]);
    let own = told(&ev, BRITISH).join("\n");
    assert!(
        own.contains(&format!("Your force {ids} moves from {s}")),
        "{own}"
    );
    for want in [
        &format!("{a} ("),
        &format!("{b} ("),
        " MP",
        "spent",
        " left",
        "1 for moving in operations phase 2 (12.2(2))",
        "2 SP left",
    ] {
        assert!(own.contains(want), "{want:?} in {own}");
    }
    let theirs = told(&ev, RUSSIAN).join("\n");
    assert!(
        theirs.contains(&format!("A British force moves to {b}.")),
        "{theirs}"
    );
    for secret in [t.id(u[0]), a.to_string(), "2 pieces".into(), "SP".into()] {
        assert!(
            !theirs.contains(&secret),
            "{secret:?} told to the Russians: {theirs}"
        );
    }
    // The mover's picture centres on the whole way; the other's only on the end.
    let places = |side: Side| -> Vec<umpire_core::board::Place> {
        ev.iter()
            .filter(|e| e.audience.sees(Some(side)))
            .flat_map(|e| e.focus.clone())
            .collect()
    };
    assert!(places(BRITISH).contains(&s.into()), "{:?}", places(BRITISH));
    assert_eq!(places(RUSSIAN), vec![b.into()]);
}

/// Both players' provisioning (17.3) on `t` as it stands; its events.
fn provision_told(t: &mut T) -> Vec<Event> {
    let d = t.r.data().clone();
    let mut dice = Dice::recorded(Vec::new());
    let mut ctx = umpire_ac::turn::Ctx {
        d: &d,
        dice: &mut dice,
        ev: Vec::new(),
    };
    supply::provisioning(&mut ctx, &mut t.st).unwrap();
    ctx.ev
}

/// The 17.6 example's square (one red, two North Indian and one Afghan
/// unit in a clear square of Afghanistan, forage 3) with `sp` SP, before
/// provisioning; the units and the square.
fn hungry(sp: u32) -> (T, Vec<UnitId>, Sq) {
    let mut t = empty(1);
    let s = sq("2227");
    let (ni, af) = (t.d().region("NI").unwrap(), t.d().region("AF").unwrap());
    t.st.control[af.0 as usize] = Some(Power::British);
    let mut all = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s));
    all.extend(t.put(Nat::Native(ni), Kind::Irregular, 2, Loc::Sq(s)));
    all.extend(t.put(Nat::Native(af), Kind::Irregular, 1, Loc::Sq(s)));
    t.st.sp[0] = sp;
    (t, all, s)
}

// 17.3, 17.4, 17.6 (the 17.6 example): the owner is told the SP his units
// needed, what was paid and what was not, and why each eliminated unit
// starved; the other player only that British units starved.
#[test]
fn provisioning_tells_its_owner_the_sp_account_and_why_each_unit_starved() {
    // One SP: the expeditionary point is paid (ruling A50: first), the
    // excess over the forage of 3 is not, and its weakest unit goes (N5).
    let (mut t, all, s) = hungry(1);
    let ev = provision_told(&mut t);
    let own = told(&ev, BRITISH).join("\n");
    let lost: Vec<String> = all
        .iter()
        .filter(|u| !t.st.unit(**u).loc.in_play())
        .map(|u| t.id(*u))
        .collect();
    assert_eq!(lost.len(), 1, "{own}");
    for want in [
        "Provisioning (17.3): 2 SP needed, 1 paid of the 1 you had, 0 left".to_string(),
        format!(
            "1 SP at {s} for {} {} {}, outside their home region (17.6), paid",
            t.id(all[0]),
            t.id(all[1]),
            t.id(all[2])
        ),
        format!(
            "1 SP at {s} for 4 units where the square forages 3 (17.32, 17.4), not paid: no SP left"
        ),
        format!(
            "eliminated: {} at {s} (beyond what its square forages with no SP for it, 17.4)",
            lost[0]
        ),
    ] {
        assert!(own.contains(&want), "{want:?} in {own}");
    }
    let theirs = told(&ev, RUSSIAN).join("\n");
    assert!(
        theirs.contains("British units out of supply are eliminated"),
        "{theirs}"
    );
    assert!(
        !theirs.contains("SP") && !theirs.contains(&lost[0]),
        "{theirs}"
    );
    // The owner's picture centres on the square; the other's on nothing of it.
    let focus = |side: Side| -> Vec<umpire_core::board::Place> {
        ev.iter()
            .filter(|e| e.audience.sees(Some(side)))
            .flat_map(|e| e.focus.clone())
            .collect()
    };
    assert_eq!(focus(BRITISH), vec![s.into()]);
    assert!(focus(RUSSIAN).is_empty());
    // None: the red and the North Indians starve as expeditionary (17.6).
    let (mut t, all, s) = hungry(0);
    let own = told(&provision_told(&mut t), BRITISH).join("\n");
    let ni = t.id(all[1]);
    assert!(
        own.contains(&format!(
            "{ni} at {s} (outside its home region with no SP for its square, 17.6)"
        )),
        "{own}"
    );
}

// 17.3-17.6: the economy prompt, the last chance to buy SP before the
// operations and provisioning, warns the owner what his units will need and
// which would starve; the other player's prompt says nothing of it.
#[test]
fn the_economy_prompt_warns_of_the_units_provisioning_will_cost() {
    let (mut t, all, s) = hungry(1);
    t.st.stage = Stage::Economy;
    let ask = |t: &T, side: Side| -> String {
        t.r.prompt(&t.st)
            .awaiting
            .iter()
            .filter(|a| a.side == side)
            .map(|a| a.ask.clone())
            .collect()
    };
    let own = ask(&t, BRITISH);
    let weakest = all
        .iter()
        .map(|u| t.id(*u))
        .find(|id| !id.starts_with('b'))
        .unwrap();
    assert!(
        own.contains(&format!("at provisioning, as your units stand now, {s} will need 2 SP and you have 1: short by 1:")),
        "{own}"
    );
    assert!(own.contains("would be eliminated (17.3-17.6)"), "{own}");
    let _ = weakest;
    assert!(
        !ask(&t, RUSSIAN).contains("provisioning"),
        "{}",
        ask(&t, RUSSIAN)
    );
    // With the SP bought, the warning says it is enough.
    t.st.sp[0] = 2;
    assert!(ask(&t, BRITISH).contains("need 2 SP and you have 2: enough"));
}

/// The random events of turn `turn` with scripted dice, with audiences.
fn events_told(t: &mut T, turn: u32, rolls: &[(&str, u32)]) -> Vec<Event> {
    t.st.turn = turn;
    let d = t.r.data().clone();
    let mut dice = Dice::recorded(rolls.iter().map(|(l, v)| roll(l, *v)).collect());
    let mut ctx = umpire_ac::turn::Ctx {
        d: &d,
        dice: &mut dice,
        ev: Vec::new(),
    };
    events::random_events(&mut ctx, &mut t.st).unwrap();
    let ev = ctx.ev;
    assert_eq!(dice.unused_recorded(), 0);
    ev
}

// 8.1, 9.0: an event says what it does, not only its name: Trade Boom (A2)
// gives each player its die in pounds, in the open as the die is; the new
// treasury is told to its owner alone.
#[test]
fn an_event_says_what_it_does_and_each_treasury_only_to_its_owner() {
    let mut t = empty(1);
    t.st.treasury = [10, 20];
    let ev = events_told(
        &mut t,
        3,
        &[
            ("random events, column roll by the British (8.1(1))", 1),
            ("random events, column A (8.1(2))", 2),
            ("Trade Boom for the British", 4),
            ("Trade Boom for the Russian", 3),
        ],
    );
    let brit = told(&ev, BRITISH).join("\n");
    assert!(brit.contains("Events A2: Trade Boom (8.1)."), "{brit}");
    assert!(
        brit.contains("Trade Boom: the British gain 4 pounds"),
        "{brit}"
    );
    assert!(
        brit.contains("Trade Boom: the Russians gain 3 pounds"),
        "{brit}"
    );
    assert!(brit.contains("your treasury holds 14 pounds"), "{brit}");
    assert!(!brit.contains("23"), "the Russian treasury: {brit}");
    let rus = told(&ev, RUSSIAN).join("\n");
    assert!(
        rus.contains("your treasury holds 23 pounds") && !rus.contains("14"),
        "{rus}"
    );
}

// 15.1, 15.62: a Negotiations Table result is told in words after its code;
// the stand-in N against a region the other player controls: it reverts.
#[test]
fn a_negotiations_result_code_is_told_in_words() {
    let mut t = empty(1);
    let d = t.r.data().clone();
    let af = d.region("AF").unwrap();
    t.st.control[af.0 as usize] = Some(Power::Russian);
    t.agent("burnes", Loc::Sq(t.city("Kabul")));
    t.r.set_standing(
        &mut t.st,
        RUSSIAN,
        &[SourceLine {
            line: 1,
            column: 1,
            text: "counter: none".into(),
        }],
    )
    .unwrap();
    let m = negotiate::drm(&d, &t.st, Power::British, af);
    t.st.treasury = [5, 7];
    // Burnes 2 and 1 pound against no counter: differential 3; a
    // modified 3 reads N there too.
    let ev = t.events(
        BRITISH,
        "negotiate AF agent burnes pounds 1",
        &[("negotiations against AF (15.1(8))", (3 - m) as u32)],
    );
    let own = told(&ev, BRITISH).join("\n");
    assert!(
        own.contains("You add 1 pound to the negotiations (15.1(2)): 4 pounds left."),
        "{own}"
    );
    let all = told(&ev, RUSSIAN).join("\n");
    assert!(!all.contains("4 pounds left"), "{all}");
    // 15.1*: the pounds added are revealed with the totals.
    assert!(
        all.contains("Burnes 2 + 1 pound against no counter, differential 3,"),
        "{all}"
    );
    assert!(
        all.contains(": N = if the Russians control Afghanistan, it reverts to neutral (stand-in, 5.5) (15.1, 15.62)."),
        "{all}"
    );
}

// 14.9, 16.4(3): a combat result is told in words after its code.
#[test]
fn a_combat_result_code_is_told_in_words() {
    let mut t = empty(1);
    let s = t.open_square("NI");
    t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s));
    t.put(Nat::Russian, Kind::Garrison, 1, Loc::Sq(s));
    t.st.open_war = Some(Power::Russian);
    let ev = t.events(BRITISH, "end", &[(&format!("combat at {s} (14.1(5))"), 3)]);
    let all = told(&ev, RUSSIAN).join("\n");
    let crt = all
        .lines()
        .find(|l| l.contains(" CRT, "))
        .unwrap_or_default();
    let words = [
        "the British are eliminated",
        "the Russians are eliminated",
        "retreat one square",
        "lose one brigade, then retreat",
        "exchange: the Russians are eliminated",
    ];
    assert!(words.iter().any(|w| crt.contains(w)), "{all}");
}

// 3.1[3], 17.1: the sealed economy plan is echoed to its player as
// accepted, each order with its cost and what is left, and in all; the
// other player is told only that it is sealed.
#[test]
fn the_sealed_plan_is_echoed_with_its_cost_and_what_is_left_to_its_player_only() {
    let mut t = empty(1);
    t.st.stage = Stage::Economy;
    t.st.sealed = [false, false];
    t.st.treasury = [20, 20];
    t.st.sp = [1, 0];
    let cost = economy::sp_cost(t.d(), 0, 4);
    let ev = t.events(BRITISH, "buy 4", &[]);
    let own = told(&ev, BRITISH).join("\n");
    let left = 20 - cost;
    for want in [
        format!(
            "bought 4 SP for {cost} pounds; {left} pounds and 5 SP left after your plan so far (3.1[3])"
        ),
        format!(
            "Your economy plan, sealed: 1. bought 4 SP for {cost} pounds. It costs {cost} pounds in all: {left} pounds and 5 SP left after it (3.1[3])."
        ),
    ] {
        assert!(own.contains(&want), "{want:?} in {own}");
    }
    let theirs = told(&ev, RUSSIAN).join("\n");
    assert!(
        theirs.contains("The British have sealed their economy orders"),
        "{theirs}"
    );
    assert!(
        !theirs.contains("bought") && !theirs.contains("pounds"),
        "{theirs}"
    );
}

// 9.3, 17.1: a buy the treasury cannot pay says the price of each SP, the
// whole price and the pounds there are.
#[test]
fn a_refused_buy_names_the_price_and_the_pounds() {
    let mut t = empty(1);
    t.st.treasury = [2, 0];
    let c = t.d().num.costs;
    let e = t
        .econ(Power::British, economy::EconOrder::Buy(3))
        .unwrap_err();
    assert!(
        e.contains(&format!("3 SP (at {} pound", c.sp_cheap))
            && e.contains(&format!("costs {} pounds", 3 * c.sp_cheap))
            && e.contains("the treasury holds 2")
            && e.contains("(9.3)"),
        "{e}"
    );
    // Past the cheap ones of a turn, the dear price is named too (17.1).
    t.st.treasury = [1000, 0];
    t.st.sp_bought[0] = c.sp_cheap_count;
    t.st.treasury[0] = 1;
    let e = t
        .econ(Power::British, economy::EconOrder::Buy(2))
        .unwrap_err();
    assert!(
        e.contains(&format!("at {} pound", c.sp_dear))
            && e.contains(&format!("after the {} bought this turn", c.sp_cheap_count)),
        "{e}"
    );
}

// 9.3, 10.61, 10.62: a refused recruit says the price of each unit and the
// pounds, how many the counter mix has left against how many were asked,
// and how many a square has taken this turn against its forage value.
#[test]
fn a_refused_recruit_names_its_price_the_mix_and_the_square_limit() {
    let mut t = empty(1);
    let delhi = t.city("Delhi");
    let ni = t.d().region("NI").unwrap();
    let price = economy::unit_cost(t.d(), Kind::Irregular).unwrap();
    t.st.treasury = [price, 0];
    let recruit = |n: u32| economy::EconOrder::Recruit {
        nat: Nat::Native(ni),
        kind: Kind::Irregular,
        at: umpire_ac::data::At::Sq(delhi),
        count: n,
    };
    let e = t.econ(Power::British, recruit(2)).unwrap_err();
    assert!(
        e.contains(&format!("recruiting 2 irregular at {price} pound"))
            && e.contains(&format!("costs {} pounds", 2 * price))
            && e.contains(&format!("the treasury holds {price}")),
        "{e}"
    );
    t.st.treasury = [1000, 0];
    let e = t.econ(Power::British, recruit(999)).unwrap_err();
    assert!(
        e.contains("you ask for 999 and the counter mix has") && e.contains("(10.62)"),
        "{e}"
    );
    // Fill the square up to its forage value, then one more.
    let mut taken = 0;
    while t.econ(Power::British, recruit(1)).is_ok() {
        taken += 1;
    }
    let e = t.econ(Power::British, recruit(1)).unwrap_err();
    assert!(
        e.contains(&format!(
            "{taken} recruited there this turn already, 1 more asked"
        )) && e.contains("(10.61)"),
        "{e}"
    );
}

// 20.31(1), 20.32(1), 20.33(1), 20.34(1): a refused build names each
// precondition the square lacks.
#[test]
fn a_refused_build_names_what_the_square_lacks() {
    let mut t = empty(1);
    t.st.treasury = [100, 100];
    let delhi = t.city("Delhi");
    let open = t.open_square("NI");
    let build =
        |t: &mut T, kind, sq| t.econ(Power::British, economy::EconOrder::Build { kind, sq });
    let e = build(&mut t, MarkerKind::TradingPost, open).unwrap_err();
    assert!(
        e.contains(&format!(
            "{open} is no city and you have no combat unit or agent on {open}"
        )) && e.contains("(20.33(1))"),
        "{e}"
    );
    let e = build(&mut t, MarkerKind::Fort, open).unwrap_err();
    assert!(e.contains(&format!("you have none on {open}")), "{e}");
    t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(delhi));
    let e = build(&mut t, MarkerKind::Colony, delhi).unwrap_err();
    assert!(
        e.contains(&format!("no British agent is on {delhi}"))
            && !e.contains("combat unit is on")
            && !e.contains("no city")
            && e.contains("(20.31(1))"),
        "{e}"
    );
    t.st.treasury = [0, 100];
    let e = build(&mut t, MarkerKind::Fort, delhi).unwrap_err();
    assert!(
        e.contains("a fort costs") && e.contains("the treasury holds 0"),
        "{e}"
    );
}

// 13.1: a path past the force's allowance is refused with the force's MP,
// the path's cost, the steps within it with theirs and what was left.
#[test]
fn a_path_too_long_tells_each_step_and_what_was_left() {
    let mut t = empty(2);
    let s = t.city("Delhi");
    let u = t.put(Nat::British, Kind::Garrison, 1, Loc::Sq(s));
    let id = t.id(u[0]);
    t.st.sp[0] = 3;
    let path: Vec<String> = (1..=4)
        .map(|k| Sq::new(s.col, s.row + k).to_string())
        .collect();
    let e = t
        .run(BRITISH, &format!("move {id}: {}", path.join(" ")), &[])
        .unwrap_err();
    assert!(
        e.contains("the force has 2 MP and the path to ")
            && e.contains(&format!("; the path so far, {} (", path[0]))
            && e.contains(" MP, leaving ")
            && e.contains("(13.1, 11.3)"),
        "{e}"
    );
}

// A move template's examples (the legal moves' first few) show each move
// once: not alone and again followed by `end`.
#[test]
fn a_templates_examples_show_each_move_once() {
    let mut t = empty(1);
    t.agent("burnes", Loc::Sq(t.city("Kabul")));
    let legal = t.r.legal_moves(&t.st, BRITISH);
    assert!(
        legal
            .iter()
            .any(|m| m.starts_with("move ") && legal.contains(&format!("{m}\nend"))),
        "the legal list offers a move both ways: {legal:?}"
    );
    let examples = umpire_core::ruleset::Ruleset::example_moves(&t.r, &t.st, BRITISH, 12);
    assert!(
        examples.iter().any(|m| m.starts_with("move ")),
        "{examples:?}"
    );
    for m in &examples {
        assert!(
            !examples.contains(&format!("{m}\nend")),
            "{m:?} twice: {examples:?}"
        );
    }
}
