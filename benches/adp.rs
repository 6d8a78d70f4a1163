//! A Distant Plain: the cost of resolving a card's orders and a Propaganda
//! Round's automatic phases (µs), of the legal-order sampler, of one
//! Non-player decision (8.1), and of replaying a whole recorded game (ms).
//! The game is a fixed-seed self-play game.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Arc;
use umpire::core::dice::Dice;
use umpire::core::game::{Game, ReplayMode};
use umpire::core::movefile::SourceLine;
use umpire::core::record::Record;
use umpire::core::ruleset::{Rules, Setup};
use umpire::core::selfplay::{self, SelfPlayConfig};
use umpire::games::adp::pieces::Faction;
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
    let legal = r.legal(&st, side);
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
        b.iter(|| black_box(r.legal(&st, side)))
    });
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
    let rs: Arc<dyn umpire::core::ruleset::Ruleset> = Arc::new(Adp::new());
    let (game, stats) = selfplay::random_game(
        rs.clone(),
        "standin",
        &BTreeMap::new(),
        0,
        2026,
        &SelfPlayConfig::default(),
    )
    .expect("self-play game");
    let record = Record::from_text(&game.record().to_text()).expect("record");
    eprintln!(
        "replaying a game of {} entries ({} moves, {} rolls): {}",
        record.len(),
        stats.moves,
        stats.rolls,
        stats.outcomes.join("")
    );
    let mut g = c.benchmark_group("adp replay");
    g.sample_size(20);
    g.bench_function("whole game, trusted", |b| {
        b.iter(|| {
            black_box(Game::replay(rs.clone(), &record, ReplayMode::Trusted).expect("replay"))
        })
    });
    g.bench_function("whole game, verified (signatures and dice)", |b| {
        b.iter(|| black_box(Game::replay(rs.clone(), &record, ReplayMode::Verify).expect("replay")))
    });
    g.finish();
}

criterion_group!(benches, card, nonplayer_decision, replay_game);
criterion_main!(benches);
