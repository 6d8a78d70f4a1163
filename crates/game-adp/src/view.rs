//! What the players see: the prompt (who is asked what) and the status lines
//! (cards, tracks, eligibility, victory, every space) and the point-to-point map.

use super::card_text;
use super::data::{CardNo, Data, Support};
use super::pieces::{Faction, Piece};
use super::sequence::{self, Offer};
use super::state::{Control, Stage, State};
use super::victory;
use umpire_core::ruleset::{Await, AwaitKind, Prompt, Side, View};

fn card_label(d: &Data, n: Option<CardNo>) -> String {
    n.and_then(|n| d.card(n)).map_or("none".into(), |c| {
        if c.is_propaganda() {
            c.label()
        } else {
            let order: Vec<&str> = c.order.iter().map(|f| f.name()).collect();
            format!("{} [{}] ({})", c.label(), order.join(" "), c.kind.key())
        }
    })
}

/// Who must act now.
pub fn prompt(d: &Data, st: &State) -> Prompt {
    let stage = stage_text(d, st);
    if let Some(o) = &st.finished {
        return Prompt {
            stage,
            awaiting: vec![],
            finished: Some(o.clone()),
        };
    }
    let mut awaiting = Vec::new();
    match &st.stage {
        Stage::Start => {}
        Stage::Card(_) => {
            // A Non-player decider has no side: the umpire plays it (8.1).
            if let Some(f) = sequence::decider(d, st)
                && let Some(side) = st.seats.side(f)
            {
                awaiting.push(Await {
                    side,
                    kind: AwaitKind::Orders,
                    ask: card_ask(d, st, f),
                    default: vec!["pass".into()],
                });
            }
        }
        Stage::Propaganda(r) => {
            // One sealed mail per side for the round (6.0), holding a plan
            // for each of its factions still awaited.
            for (i, _) in st.seats.factions.iter().enumerate() {
                let side = Side(i as u8);
                let mine: Vec<Faction> = r
                    .waiting
                    .iter()
                    .copied()
                    .filter(|f| st.seats.side(*f) == Some(side))
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let asks: Vec<String> = mine.iter().map(|f| plan_ask(d, st, *f)).collect();
                awaiting.push(Await {
                    side,
                    kind: AwaitKind::SealedOrders,
                    ask: format!(
                        "Propaganda Round plan, sealed until every plan is in (6.0): {} (6.4, 6.5)",
                        asks.join("; then ")
                    ),
                    default: mine
                        .iter()
                        .flat_map(|f| [format!("as {}", f.key()), "done".into()])
                        .collect(),
                });
            }
        }
        Stage::Over => {}
    }
    Prompt {
        stage,
        awaiting,
        finished: None,
    }
}

/// What a faction's Propaganda plan holds, with what a Civic Action or
/// Sharia step costs and does, and where the faction may buy how many.
fn plan_ask(d: &Data, st: &State, f: Faction) -> String {
    format!(
        "for the {}: `as {}`, {}{}, `done`",
        f.name(),
        f.key(),
        match f {
            Faction::Taliban => "`sharia SPACE N`, `redeploy N guerrillas FROM>TO`",
            Faction::Government => {
                "`civic SPACE N`, `redeploy N troops|police FROM>TO` (Troops left where they may not stay go to Kabul)"
            }
            _ => "`civic SPACE N`, `redeploy N troops FROM>TO`",
        },
        support_steps(d, st, f)
    )
}

/// The Support Phase's steps open to `f` (6.4.1, 6.4.2): what each costs
/// and does, and the spaces where it may buy some, with how many at most.
fn support_steps(d: &Data, st: &State, f: Faction) -> String {
    let (what, cost, up) = match f {
        Faction::Taliban => (
            "Sharia",
            "1 Taliban Resource a step: a Terror marker removed, then a level toward Opposition (6.4.2)",
            false,
        ),
        Faction::Warlords => return String::new(),
        _ => (
            "Civic Action",
            "3 Government Resources a step: a Terror marker removed, then a level toward Support (6.4.1)",
            true,
        ),
    };
    let open: Vec<String> = d
        .ids()
        .filter(|s| match f {
            Faction::Taliban => st[*s].control == Control::Taliban && d[*s].has_control(),
            _ => super::propaganda::civic_decider(d, st, *s) == Some(f),
        })
        .filter_map(|s| {
            let n = super::insurgent::steps_in(d, st, s, up);
            (n > 0).then(|| format!("{} {n}", d[s].key))
        })
        .collect();
    let where_ = if open.is_empty() {
        "nowhere now".to_string()
    } else {
        format!("at most: {}", open.join(", "))
    };
    format!(" ({what}: {cost}; {where_})")
}

fn stage_text(d: &Data, st: &State) -> String {
    let card = card_label(d, st.deck.current);
    match &st.stage {
        Stage::Start => "Before the first card".into(),
        Stage::Card(_) => format!("Card {card}"),
        Stage::Propaganda(r) => format!(
            "{card}: Propaganda Round{}",
            if r.last { " (final)" } else { "" }
        ),
        Stage::Over => "The game is over".into(),
    }
}

fn card_ask(d: &Data, st: &State, f: Faction) -> String {
    if let Stage::Card(t) = &st.stage
        && let Some(c) = &t.choice
    {
        let step = d.card(c.card).and_then(|k| k.side(c.shaded).get(c.step));
        let n = step.and_then(|s| s.chosen_by()).map_or(0, |(_, n)| n);
        // What the chosen spaces undergo, so the choice shows its effect.
        let effect = step.map_or(String::new(), |s| {
            format!(" (in each, {})", card_text::undergo(s))
        });
        return format!(
            "{}, executed by the {}, names the {} to choose {n} space(s){effect}: `choose SPACE...`, best first, or `pass` for the default, the spaces holding the most (5.1, digest D3)",
            card_label(d, Some(c.card)),
            c.executor.name(),
            f.name()
        );
    }
    if let Stage::Card(t) = &st.stage
        && let Some(g) = &t.grant
    {
        let ops: Vec<String> = d
            .card(g.card)
            .map(|c| c.side(g.shaded))
            .unwrap_or_default()
            .iter()
            .filter_map(|s| match s {
                super::cards::Step::Grant { to, ops } if *to == f => Some(ops),
                _ => None,
            })
            .flatten()
            .map(|o| format!("`{}`", o.key()))
            .collect();
        return format!(
            "{} grants the {} a free Operation ({}): write it (no Special Activity), or `pass` to decline (5.5)",
            card_label(d, Some(g.card)),
            f.name(),
            ops.join(" or ")
        );
    }
    let offers = sequence::offers(d, st);
    let mut opts = vec!["`pass`".to_string()];
    for o in offers {
        opts.push(match o {
            Offer::Event => event_offer(d, st),
            Offer::Op => "an Operation".into(),
            Offer::OpSa => "an Operation with a Special Activity (`sa ...` line)".into(),
            Offer::LimOp => "a Limited Operation (1 space, no Special Activity)".into(),
        });
    }
    format!(
        "the {} are {} Eligible on {}: {} (2.3.4{})",
        f.name(),
        match &st.stage {
            Stage::Card(t) if t.first.is_some() => "2nd",
            _ => "1st",
        },
        card_label(d, st.deck.current),
        opts.join(", "),
        if sequence::final_event_card(d, st) {
            ", Final Event Card 2.3.8"
        } else {
            ""
        }
    )
}

/// The Event offered, each side with its move line and what it does, so the
/// choice shows its effect before it is made (5.1, 5.2).
fn event_offer(d: &Data, st: &State) -> String {
    let Some(card) = sequence::current(d, st) else {
        return "`event unshaded|shaded [SPACE...]`".into();
    };
    let sides: Vec<String> = [false, true]
        .iter()
        .map(|sh| {
            format!(
                "`{}`: {}",
                card_text::event_line(card, *sh),
                card_text::side(card, *sh).trim_end_matches('.')
            )
        })
        .collect();
    format!(
        "the Event, naming its spaces in step order ({})",
        sides.join("; or ")
    )
}

/// Status lines and the space list (everything in ADP is public but the deck
/// order, 1.4.3, the draw pile's order not even decided yet, a side's own
/// Deception markers, 7.3, and its conditional card orders, D1): a side sees
/// its own, the public none, the umpire every side's.
pub fn view(d: &Data, st: &State, viewer: umpire_core::ruleset::Viewer) -> View {
    let mut s = Vec::new();
    deck_lines(d, st, &mut s);
    track_lines(d, st, &mut s);
    s.extend(in_play(d, st));
    s.push(PIECES_KEY.to_string());
    s.push(format!("Available: {}", pieces_text(&st.available)));
    if st.casualties.total() > 0 {
        s.push(format!("Casualties: {}", pieces_text(&st.casualties)));
    }
    s.extend(super::deception::status(st, viewer));
    s.extend(offers(st));
    s.extend(card_orders(st, viewer));
    for id in d.ids() {
        s.push(space_line(d, st, id));
    }
    View {
        status: s,
        board: Some(super::board::board(d, st)),
    }
}

/// The cards (current, next, the deck, 2.4) and the Non-players (8.0).
fn deck_lines(d: &Data, st: &State, s: &mut Vec<String>) {
    // Both cards showing are public (2.2): each with both its texts, so a
    // player reads what every choice on it does before he makes it.
    for (lead, n) in [
        ("Current card", st.deck.current),
        ("Next card", st.deck.next),
    ] {
        match n.and_then(|n| d.card(n)) {
            Some(c) => s.extend(card_text::block(c, lead)),
            None => s.push(format!("{lead}: none")),
        }
    }
    s.push(format!(
        "Deck: {} cards to draw; Propaganda cards played or shown {} of {} (2.4)",
        st.deck.left(),
        st.deck.props_drawn,
        st.deck.props_total
    ));
    let np: Vec<&str> = Faction::ALL
        .iter()
        .filter(|f| st.seats.is_np(**f))
        .map(|f| f.name())
        .collect();
    if !np.is_empty() {
        s.push(format!(
            "Non-players, played by the umpire with public dice (8.0): {}",
            np.join(", ")
        ));
    }
}

/// Eligibility, Resources, Islamabad and the victory totals.
fn track_lines(d: &Data, st: &State, s: &mut Vec<String>) {
    let elig: Vec<String> = Faction::ALL
        .iter()
        .map(|f| {
            format!(
                "{} {}",
                f.name(),
                if st.eligible[f.index()] {
                    "Eligible"
                } else {
                    "Ineligible"
                }
            )
        })
        .collect();
    s.push(format!("Eligibility: {}", elig.join(", ")));
    s.push(format!(
        "Resources: Government {}, Taliban {}, Warlords {}; Aid {}; Patronage {}",
        st.res(Faction::Government),
        st.res(Faction::Taliban),
        st.res(Faction::Warlords),
        st.aid,
        st.patronage
    ));
    s.push(format!(
        "Islamabad: {}{}",
        d.islamabad
            .get(usize::from(st.islamabad))
            .map_or("?", String::as_str),
        if st.hard { " (Hard)" } else { "" }
    ));
    let t = victory::totals(d, st);
    s.push(format!(
        "Victory: Coalition {} (>{}), Government {} (>{}), Taliban {} (>{}), Warlords Uncontrolled {} (>{}) and Resources {} (>{})",
        t.coalition, d.victory.coalition, t.government, d.victory.government, t.taliban, d.victory.taliban,
        t.uncontrolled, d.victory.warlords_pop, t.warlord_resources, d.victory.warlords_resources
    ));
}

/// The Capabilities and Momentum in play.
fn in_play(d: &Data, st: &State) -> Vec<String> {
    let mut s = Vec::new();
    for l in st.capabilities.iter().chain(&st.momentum) {
        if let Some(c) = d.card(l.card) {
            s.push(format!(
                "In play: {} ({}): {}",
                c.label(),
                if l.shaded { "shaded" } else { "unshaded" },
                card_text::modifier(&l.modifier)
            ));
        }
    }
    s
}

/// 1.5.1: "all negotiations are open": every side reads the offers,
/// although the move that set them is sealed with its side's other
/// standing orders (the conditional card orders, D1).
fn offers(st: &State) -> Option<String> {
    if st.standing.is_empty() {
        return None;
    }
    let offers: Vec<String> = st.standing.iter().map(|o| o.text()).collect();
    Some(format!(
        "Standing transfer offers (1.5.1): {}",
        offers.join("; ")
    ))
}

/// A side's own conditional card orders (D1, D2, D4), for it alone (and the
/// umpire).
fn card_orders(st: &State, viewer: umpire_core::ruleset::Viewer) -> Vec<String> {
    let mut s = Vec::new();
    for b in st.cards.iter() {
        match st.seats.side(b.faction) {
            Some(me) if viewer == umpire_core::ruleset::Viewer::Side(me) => {
                s.push(format!("Your standing order: {}", b.text()));
            }
            Some(_) if viewer == umpire_core::ruleset::Viewer::Umpire => {
                s.push(format!("{} standing order: {}", b.faction.name(), b.text()));
            }
            _ => {}
        }
    }
    s
}

/// The key to the pieces' short forms the status lines use (1.4).
pub const PIECES_KEY: &str = "Pieces: Ct Coalition Troops, CB Coalition Base, Gt Government Troops, \
Gp Government Police, GB Government Base, Tg Taliban Guerrilla (Tg* Underground), TB Taliban Base, \
Wg Warlords Guerrilla (Wg* Underground), WB Warlords Base";

fn pieces_text(p: &super::pieces::Pieces) -> String {
    let parts: Vec<String> = Piece::ALL
        .iter()
        .filter(|k| p[**k] > 0)
        .map(|k| format!("{} {}", p[*k], k.label()))
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(" ")
    }
}

fn space_line(d: &Data, st: &State, id: super::data::SpaceNo) -> String {
    let sp = &d[id];
    let ss = &st[id];
    let mut tags = Vec::new();
    if sp.is_loc() {
        tags.push(format!("LoC Econ {}", sp.econ));
        if ss.sabotage {
            tags.push("Sabotaged".into());
        }
    } else {
        tags.push(format!("Pop {}", st.pop(d, id)));
        if sp.pashtun {
            tags.push("Pashtun".into());
        }
        if sp.is_pakistan() {
            tags.push("Pakistan".into());
        }
        if sp.is_mountain() {
            tags.push("Mountain".into());
        }
        match ss.support {
            Support::Support => tags.push("Support".into()),
            Support::Opposition => tags.push("Opposition".into()),
            Support::Neutral => {}
        }
        match ss.control {
            Control::Coin => tags.push("COIN Control".into()),
            Control::Taliban => tags.push("Taliban Control".into()),
            Control::None => {}
        }
        if ss.terror > 0 {
            tags.push(format!("Terror {}", ss.terror));
        }
    }
    format!(
        "{} ({}): {}",
        sp.key,
        tags.join(", "),
        pieces_text(&ss.pieces)
    )
}

#[cfg(test)]
mod tests {
    use super::PIECES_KEY;
    use crate::pieces::Piece;

    /// Every short form the status writes has its words in the key (1.4).
    #[test]
    fn the_key_names_every_short_form() {
        for p in Piece::ALL {
            let words = format!("{} {}", p.label().trim_end_matches('*'), p.faction().name());
            assert!(PIECES_KEY.contains(&words), "{words}");
            assert!(PIECES_KEY.contains(p.label()), "{}", p.label());
        }
    }
}
