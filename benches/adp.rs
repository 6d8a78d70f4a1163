//! A Distant Plain: the cost of resolving a card's orders and a Propaganda
//! Round's automatic phases (µs), of Operations over several spaces with a
//! Special Activity (each line but the last run on a saved copy), of the
//! legal-order sampler, of one Non-player decision (8.1), and of replaying a
//! whole recorded game (ms). The game is a fixed-seed self-play game.

mod common;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;
use umpire::core::dice::Dice;
use umpire::core::movefile::SourceLine;
use umpire::core::ruleset::{Ruleset, Setup};
use umpire::games::adp::action::{self, Terms};
use umpire::games::adp::data::Support;
use umpire::games::adp::orders::{self, Order};
use umpire::games::adp::pieces::{Faction, Piece};
use umpire::games::adp::state::Stage;
use umpire::games::adp::{Adp, State, nonplayer, propaganda, sequence};

fn start(r: &Adp) -> State {
    let mut st = r
        .setup(&Setup {
            scenario: "standin".into(),
            options: BTreeMap::new(),
            sides: ["coalition", "government", "taliban", "warlords"]
                .map(String::from)
                .to_vec(),
        })
        .expect("setup");
    r.deal(&mut st, &mut Dice::seeded([1; 32])).expect("deal");
    st
}

fn lines(text: &str) -> Vec<SourceLine> {
    text.lines()
        .enumerate()
        .map(|(i, t)| SourceLine {
            line: i + 1,
            column: 1,
            text: t.to_string(),
        })
        .collect()
}

fn card(c: &mut Criterion) {
    let r = Adp::new();
    let st = start(&r);
    let d = r.data().clone();
    let mut g = c.benchmark_group("adp");
    let f = sequence::decider(&d, &st).expect("a faction to act");
    let side = st.seats.side(f).expect("seated");
    let legal = r.legal_moves(&st, side);
    eprintln!(
        "{} legal orders for the {} on the first card",
        legal.len(),
        f.name()
    );
    for text in legal.iter().take(3) {
        let o = r.parse(&st, side, &lines(text)).expect("parse");
        g.bench_function(format!("apply `{}`", text.replace('\n', " / ")), |b| {
            b.iter_batched(
                || st.clone(),
                |mut x| {
                    let mut dice = Dice::seeded([7; 32]);
                    black_box(r.apply(&mut x, side, &o[0].1, &mut dice).expect("legal"));
                    x
                },
                BatchSize::SmallInput,
            )
        });
    }
    g.bench_function("Propaganda Round: resources and reset", |b| {
        b.iter_batched(
            || st.clone(),
            |mut x| {
                let mut ev = Vec::new();
                propaganda::resources_phase(&d, &mut x, &mut ev);
                propaganda::desertion(&d, &mut x, &mut ev);
                propaganda::reset(&d, &mut x, &mut ev);
                black_box(ev);
                x
            },
            BatchSize::SmallInput,
        )
    });
    g.bench_function("legal orders (tried on copies)", |b| {
        b.iter(|| black_box(r.legal_moves(&st, side)))
    });
    g.finish();
}

/// The stand-in set-up with every piece Available and every space Neutral,
/// then `pieces` placed (space key, piece, count), `res` Resources each,
/// Aid 20 and Balkh at Support.
fn position(r: &Adp, pieces: &[(&str, Piece, u8)], res: u8) -> State {
    let d = r.data();
    let mut st = start(r);
    for id in d.ids() {
        for p in Piece::ALL {
            let n = st[id].pieces[p];
            st.remove(id, p, n, false);
        }
        st[id].support = Support::Neutral;
    }
    for (key, p, n) in pieces {
        let id = d.find(key).expect("a space");
        assert_eq!(st.place(id, *p, *n), *n, "{n} {p:?} Available");
    }
    for f in Faction::ALL {
        st.resources[f.index()] = res;
    }
    // Govern's space (4.3.1) at Support.
    st[d.find("balkh").expect("balkh")].support = Support::Support;
    st.aid = 20;
    st.update_control(d);
    st
}

/// A bench case: its name, the faction, the pieces placed, the order.
type Case = (
    &'static str,
    Faction,
    Vec<(&'static str, Piece, u8)>,
    &'static str,
);

/// Operations of several lines with a Special Activity (3.1, 4.1), each
/// carried out whole (`action::execute`, no card sequence around it): a
/// Taliban Rally in four spaces with Extort in two, an Attack in three with
/// an Ambush (rolls, removals, Captured Goods), and a Government Train in
/// three spaces with Govern.
fn multi_line_operation(c: &mut Criterion) {
    use Piece::*;
    let r = Adp::new();
    let d = r.data().clone();
    let full = Terms {
        free: false,
        final_card: false,
        sa_allowed: true,
    };
    let cases: [Case; 3] = [
        (
            "Rally in 4 spaces + Extort in 2",
            Faction::Taliban,
            vec![
                ("kandahar", TalUnder, 3),
                ("helmand", TalUnder, 2),
                ("helmand", TalBase, 1),
                ("oruzgan", TalUnder, 2),
            ],
            "rally\nsa extort kandahar oruzgan\nin kandahar\nin helmand place 2\nin oruzgan base\nin zabol",
        ),
        (
            "Attack in 3 spaces + Ambush",
            Faction::Taliban,
            vec![
                ("kandahar", TalUnder, 3),
                ("kandahar", Police, 2),
                ("helmand", TalUnder, 2),
                ("helmand", CoalTroops, 2),
                ("zabol", TalUnder, 3),
                ("zabol", WarUnder, 2),
            ],
            "attack\nsa ambush kandahar\nin kandahar\nin helmand\nin zabol target warlords",
        ),
        (
            "Train in 3 spaces + Govern",
            Faction::Government,
            vec![
                ("kabul", Police, 2),
                ("balkh", GovTroops, 2),
                ("balkh", Police, 2),
                ("balkh", GovBase, 1),
                ("herat", GovBase, 1),
                ("herat", Police, 1),
            ],
            "train\nsa govern balkh patronage\nin kabul place 3 police 3 troops\nin balkh place 2 police 2 troops\nin herat place 2 police",
        ),
    ];
    let mut g = c.benchmark_group("adp operation");
    for (name, f, pieces, text) in cases {
        let st = position(&r, &pieces, 30);
        let Ok(Some((_, Order::Act(a)))) =
            orders::parse(&d, &lines(text), false).map(|mut v| v.pop())
        else {
            panic!("{name}: not an Operation: {text}");
        };
        // Legal as written: the bench times a real Operation, not a refusal.
        let ev = action::execute(&d, &mut st.clone(), f, &a, full, &mut Dice::seeded([7; 32]))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!("{name}: {} events", ev.len());
        g.bench_function(name, |b| {
            b.iter_batched(
                || st.clone(),
                |mut x| {
                    let mut dice = Dice::seeded([7; 32]);
                    black_box(action::execute(&d, &mut x, f, &a, full, &mut dice).expect("legal"));
                    x
                },
                BatchSize::SmallInput,
            )
        });
    }
    g.finish();
}

/// One Non-player decision (8.1): the first card of a game in which every
/// faction is a Non-player but the Coalition, handed to the first Non-player
/// asked on it (candidates built, tried on copies, ranked, carried out).
fn nonplayer_decision(c: &mut Criterion) {
    let r = Adp::new();
    let d = r.data().clone();
    let mut st = r
        .setup(&Setup {
            scenario: "standin-1p-coalition".into(),
            options: BTreeMap::new(),
            sides: vec!["coalition".into()],
        })
        .expect("setup");
    st.deck.next = st.deck.draw(&mut Dice::seeded([1; 32])).expect("draw");
    let mut ev = Vec::new();
    sequence::next_card(&d, &mut st, &mut Dice::seeded([2; 32]), &mut ev).expect("first card");
    let f = match &st.stage {
        Stage::Card(_) => sequence::decider(&d, &st).filter(|f| *f != Faction::Coalition),
        _ => None,
    };
    let Some(f) = f else {
        eprintln!("the first card is not a Non-player's: no Non-player bench");
        return;
    };
    let mut g = c.benchmark_group("adp");
    g.bench_function(format!("Non-player {} decision", f.name()), |b| {
        b.iter_batched(
            || st.clone(),
            |mut x| {
                let mut ev = Vec::new();
                let mut dice = Dice::seeded([7; 32]);
                nonplayer::decide(&d, &mut x, f, &mut dice, &mut ev).expect("decides");
                black_box(ev);
                x
            },
            BatchSize::SmallInput,
        )
    });
    g.finish();
}

fn replay_game(c: &mut Criterion) {
    common::replay_game(c, "adp", Arc::new(Adp::new()), "standin", 20);
}

criterion_group!(
    benches,
    card,
    multi_line_operation,
    nonplayer_decision,
    replay_game
);
criterion_main!(benches);
