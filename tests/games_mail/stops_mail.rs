//! What still made a new player stop and think, playing each game by hand:
//! the order of the narration, reasons said with the numbers, names instead
//! of codes and ids, refusals that say what is wrong and how to write it.
//! Each through the Maildir pipeline.

use super::explain_mail::{Club, flat};
use umpire::core::ruleset::Side;

/// The Ming's first legal single move (no double action).
fn sarhu_single_move(c: &mut Club) -> String {
    let g = c.u.game("g1").unwrap();
    g.ruleset()
        .legal_moves(g.state(), Side(0))
        .into_iter()
        .find(|l| l.starts_with("move ") && !l.contains("then"))
        .expect("a legal single move for the Ming")
}

/// The mail to `side` among `mails` that tells what happened.
fn result_to<'a>(
    c: &Club,
    mails: &'a std::collections::BTreeMap<String, umpire::mail::mime::ReadMail>,
    side: Side,
) -> &'a umpire::mail::mime::ReadMail {
    let name = &c.sides[side.index()];
    mails
        .iter()
        .find(|(k, m)| k.contains(&format!(".{name}.")) && m.text.contains("== What happened"))
        .map(|(_, m)| m)
        .unwrap_or_else(|| panic!("a result mail to {name}: {:?}", mails.keys()))
}

/// 4.2.4: `pass rest` after an action is told after the action, where the
/// mail has it, not above the action's own events.
#[test]
fn sarhu_a_pass_queued_after_an_action_is_told_after_it() {
    let mut c = Club::new("sarhu");
    let mv = sarhu_single_move(&mut c);
    let head = c.head();
    let mails = c.send(Side(0), &head, &format!("{mv}\npass rest"));
    let text = &result_to(&c, &mails, Side(0)).text;
    let said = text
        .find("Ming will pass their remaining action phases of turn 1 (4.2.4)")
        .unwrap_or_else(|| panic!("the queue is told:\n{text}"));
    let moved = text
        .find(&format!("> {}", mv.lines().next().unwrap()))
        .unwrap_or_else(|| panic!("the move's line:\n{text}"));
    assert!(moved < said, "the move first, then the queue:\n{text}");
}

/// 4.2.4: the queued passes that run in a row at a turn's end are one line,
/// with how many each side made, not a line a phase.
#[test]
fn sarhu_queued_passes_in_a_row_are_one_line() {
    let mut c = Club::new("sarhu");
    let mv = sarhu_single_move(&mut c);
    let head = c.head();
    c.send(Side(0), &head, &format!("{mv}\npass rest"));
    // The Jurchen pass the rest of the turn too: every phase left is a
    // queued pass, run with this move.
    let head = c.head();
    let mails = c.send(Side(1), &head, "pass rest");
    let text = flat(&result_to(&c, &mails, Side(1)).text);
    assert!(
        text.contains("Queued passes in the next "),
        "the queued passes in one line:\n{text}"
    );
    assert!(
        text.matches("pass (queued)").count() <= 1,
        "no line a phase:\n{text}"
    );
    assert!(text.contains("AP left: Ming 0, Jurchen 0"), "{text}");
}

/// 4.1(4): the Ming move first in turn 1 whatever the preparation rolls;
/// the status says so, with the rolls.
#[test]
fn sarhu_the_first_turns_initiative_gives_its_reason() {
    let mut c = Club::new("sarhu");
    let mv = sarhu_single_move(&mut c);
    let head = c.head();
    let mails = c.send(Side(0), &head, &mv);
    for side in [Side(0), Side(1)] {
        let text = flat(&result_to(&c, &mails, side).text);
        assert!(
            text.contains(
                "Initiative: Ming (the Ming move first in turn 1 whatever the rolls, 4.1(4);"
            ),
            "{text}"
        );
    }
}

/// Lest Darkness Fall's first moves: the set-up, then the
/// Germano-Parthian's draw of a chit he keeps (8.1, 8.17); a club whose
/// pool gives a unit, a chit resolved at once or one shown and put back
/// (14.3) is played again, up to ten times.
fn ldf_after_a_draw() -> (
    Club,
    std::collections::BTreeMap<String, umpire::mail::mime::ReadMail>,
) {
    for _ in 0..10 {
        let mut c = Club::new("ldf");
        let gp = c.awaited();
        let head = c.head();
        c.send(gp, &head, "setup auto");
        let head = c.head();
        let mails = c.send(gp, &head, "draw");
        if mails
            .values()
            .any(|m| flat(&m.text).contains("draws a chit ("))
        {
            return (c, mails);
        }
    }
    panic!("no chit kept in ten draws");
}

/// 14.3: the drawer reads one account of his draw, by the players' names,
/// then which chit it is; the other reads the draw alone; the status counts
/// the hands by the players' names (8.17); the side awaited is said to owe
/// "their orders".
#[test]
fn ldf_a_draw_is_told_once_by_the_players_names() {
    let (c, mails) = ldf_after_a_draw();
    let gp = flat(&result_to(&c, &mails, Side(1)).text);
    let roman = flat(&result_to(&c, &mails, Side(0)).text);
    for text in [&gp, &roman] {
        assert!(
            text.contains("the Germano-Parthian draws a chit (1 in hand, 14.3)"),
            "{text}"
        );
        assert!(!text.contains("the gp "), "{text}");
        assert!(
            text.contains("Chits: the Roman holds 0, the Germano-Parthian 1,"),
            "{text}"
        );
    }
    assert!(gp.contains("the chit you drew: "), "{gp}");
    assert!(!gp.contains("you drew chit"), "{gp}");
    assert!(!roman.contains("the chit you drew"), "{roman}");
    // The Roman acts next: the Germano-Parthian is told what is awaited, not
    // what the Roman is asked (a game with hidden chits), in words.
    assert!(gp.contains(": their orders"), "{gp}");
    assert!(!gp.contains(": orders"), "{gp}");
}

/// 6.5: Rome's revenue comes with where it comes from; the core centres
/// alone pay at the start of turn 2, nothing being looted yet.
#[test]
fn ldf_rome_collects_with_where_the_tp_come_from() {
    let mut c = Club::new("ldf");
    let gp = c.awaited();
    let head = c.head();
    c.send(gp, &head, "setup auto");
    // 8.20: two passes in a row end the turn; turn 2 opens with collection.
    let mut collected = None;
    for _ in 0..2 {
        let (side, head) = (c.awaited(), c.head());
        for m in c.send(side, &head, "pass").values() {
            let text = flat(&m.text);
            if let Some(i) = text.find("Rome collects ") {
                collected = Some(text[i..].chars().take(240).collect::<String>());
            }
        }
    }
    let line = collected.expect("Rome collects at the start of turn 2");
    assert!(line.contains(" TP: core centres "), "{line}");
    // The parts add up to the sum collected.
    let tp: u32 = line["Rome collects ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("the sum");
    let inner = &line[line.find("TP: ").unwrap() + 4..line.find(';').unwrap()];
    let parts: u32 = inner
        .split(", ")
        .filter_map(|p| p.rsplit(' ').next()?.parse::<u32>().ok())
        .sum();
    assert_eq!(parts, tp, "{line}");
}

/// 5.3, 7.1: `done` in the alternating actions phase is refused saying
/// that `place` and `done` belong to the administrative phase, and that a
/// `place` line needs no `done`; not only "not an action".
#[test]
fn ldf_done_after_the_administrative_phase_says_why() {
    let mut c = Club::new("ldf");
    let gp = c.awaited();
    let head = c.head();
    c.send(gp, &head, "setup auto");
    let head = c.head();
    let mails = c.send(gp, &head, "done");
    let refusal = mails
        .values()
        .find(|m| m.text.contains("REFUSED"))
        .map(|m| flat(&m.text))
        .expect("a refusal");
    assert!(
        refusal.contains("`place` and `done` belong to the administrative phase"),
        "{refusal}"
    );
    assert!(refusal.contains("with no `done` after it"), "{refusal}");
}

/// The awaited side's default sent until `until` holds of the stage, at
/// most `n` times; the mails of the last move.
fn defaults_until(
    c: &mut Club,
    n: usize,
    until: impl Fn(&str) -> bool,
) -> std::collections::BTreeMap<String, umpire::mail::mime::ReadMail> {
    let mut last = std::collections::BTreeMap::new();
    let mut stages = Vec::new();
    for _ in 0..n {
        let g = c.u.game("g1").unwrap();
        let p = g.prompt();
        if until(&p.stage) {
            return last;
        }
        stages.push(p.stage.clone());
        // In a sealed round, the side whose orders are still owed.
        let a = g.waiting().next().expect("a side owes orders").clone();
        let head = c.head();
        last = c.send(a.side, &head, &a.default.join("\n"));
    }
    panic!("not reached in {n} moves: {stages:#?}");
}

/// The refusal among `mails`, its lines, and the caret's column under the
/// quoted line that ends with `line`.
fn caret_under(
    mails: &std::collections::BTreeMap<String, umpire::mail::mime::ReadMail>,
    line: &str,
) -> (String, usize, usize) {
    let refusal = mails
        .values()
        .find(|m| m.text.contains("REFUSED"))
        .map(|m| m.text.clone())
        .expect("a refusal");
    let lines: Vec<&str> = refusal.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with("line ") && l.trim_end().ends_with(line))
        .unwrap_or_else(|| panic!("the line quoted:\n{refusal}"));
    let caret = lines[at + 1].find('^').expect("a caret");
    (refusal.clone(), caret, at)
}

/// Asia Crossroads' status names each region with the code the orders
/// take, and a set-up choice by its rule, once (26.0).
#[test]
fn ac_status_names_the_regions_and_each_choice_once() {
    let mut c = Club::new("ac");
    let setter = c.awaited();
    let head = c.head();
    let mails = c.send(setter, &head, "done");
    let next = c.awaited();
    let text = flat(&result_to(&c, &mails, next).text);
    assert!(text.contains("Afghanistan (AF)"), "{text}");
    // `Set-up 26.0 S1 4.3(1):`, not `Set-up 4.3(1) (26.0 S1 4.3(1)):`.
    let setup = text
        .split("Set-up ")
        .skip(1)
        .filter(|t| !t.starts_with('('))
        .map(|t| t.split(':').next().unwrap_or(""))
        .collect::<Vec<_>>();
    assert!(!setup.is_empty(), "the second setter's choices:\n{text}");
    for s in setup {
        assert!(s.starts_with("26.0 S") && !s.contains(" (26.0"), "{s}");
    }
}

/// 16.5(2): `agent NAME` without its place says what is missing, with the
/// caret under the agent and the agents the side may recruit.
#[test]
fn ac_an_agent_without_a_place_is_refused_under_its_name() {
    let mut c = Club::new("ac");
    let side = c.awaited();
    let head = c.head();
    let mails = c.send(side, &head, "agent pundit2");
    let (refusal, caret, at) = caret_under(&mails, "agent pundit2");
    let line = refusal.lines().nth(at).unwrap();
    assert_eq!(Some(caret), line.find("pundit2"), "{refusal}");
    let text = flat(&refusal);
    assert!(text.contains("write `agent pundit2 at PLACE`"), "{text}");
    assert!(
        text.contains("your agents in the Agent Available box: ")
            || text.contains("you have no agent to recruit"),
        "{text}"
    );
}

/// 19.1: a path that names the home base the force is in says so and how
/// to write it, under the base's word.
#[test]
fn ac_a_path_from_the_base_it_is_in_says_how_to_write_it() {
    let mut c = Club::new("ac");
    defaults_until(&mut c, 30, |s| {
        s.to_lowercase().contains("british operations phase")
    });
    let head = c.head();
    let british = Side(0);
    assert_eq!(c.sides[0], "british");
    // bf4 starts in its home base, Central India (26.0 S1).
    let mails = c.send(british, &head, "move bf4: india 3240");
    let (refusal, caret, at) = caret_under(&mails, "move bf4: india 3240");
    let text = flat(&refusal);
    assert!(
        text.contains("the force is in Central India already: leave `india` out"),
        "{text}"
    );
    assert_eq!(Some(caret), refusal.lines().nth(at).unwrap().find("india"));
}

/// 3.1[3]: a plan of several economy orders says "to be carried out when
/// both players are in" once, not after every order.
#[test]
fn ac_an_economy_plan_says_when_it_is_carried_out_once() {
    let mut c = Club::new("ac");
    defaults_until(&mut c, 30, |s| s.contains("ncome"));
    let side = c.awaited();
    let head = c.head();
    let mut mails = c.send(side, &head, "buy 1\nbuy 1\nbuy 1");
    // The other side's plan opens the round.
    let other = {
        let g = c.u.game("g1").unwrap();
        g.waiting()
            .next()
            .expect("the other side owes its plan")
            .side
    };
    assert_ne!(other, side);
    let head = c.head();
    let opened = c.send(other, &head, "done");
    assert!(
        opened.values().any(|m| m.text.contains("buy 1")),
        "the round opened: {:?}",
        opened.keys()
    );
    mails.extend(opened);
    let mut seen = 0;
    for m in mails.values() {
        let n = flat(&m.text)
            .matches("to be carried out when both players are in")
            .count();
        assert!(n <= 1, "said {n} times:\n{}", m.text);
        seen += n;
    }
    assert!(seen > 0, "the plan is told");
}

/// A Distant Plain: the pieces' short forms have their key where the status
/// lists them, and the reader's forces are listed by the names the orders
/// take (`northwest-frontier`), not `Northwest_Frontier`.
#[test]
fn adp_pieces_have_a_key_and_forces_the_names_orders_take() {
    let mut c = Club::new("adp");
    let mut mails = std::collections::BTreeMap::new();
    // Each owed side's default (a pass on a card, 2.3.3). A deck that
    // opens on a Propaganda card answers a sealed plan with a receipt
    // alone: play on until a result is mailed.
    for _ in 0..12 {
        let (side, orders) = {
            let g = c.u.game("g1").unwrap();
            let a = g.waiting().next().expect("a side owes orders");
            (a.side, a.default.join("\n"))
        };
        let orders = if orders.is_empty() {
            "pass".to_string()
        } else {
            orders
        };
        let head = c.head();
        mails = c.send(side, &head, &orders);
        if mails
            .values()
            .any(|m| m.text.contains("== What happened") && m.text.contains("Your forces:"))
        {
            break;
        }
    }
    let mut forces = 0;
    for m in mails
        .values()
        .filter(|m| m.text.contains("== What happened"))
    {
        let text = flat(&m.text);
        assert!(
            text.contains("Pieces: Ct Coalition Troops, CB Coalition Base, Gt Government Troops"),
            "{text}"
        );
        let text = m.text.replace("\r\n", "\n");
        let Some(own) = text.split("Your forces:\n").nth(1) else {
            continue;
        };
        // Entries `PLACE unit unit` joined by " · ", indented two; a
        // wrapped one's continuation further.
        for l in own
            .lines()
            .take_while(|l| !l.trim().is_empty())
            .filter(|l| !l.starts_with("   "))
        {
            for entry in l.trim().split(" · ") {
                let place = entry.split_whitespace().next().unwrap_or("");
                assert!(
                    !place.contains('_') && place == place.to_lowercase(),
                    "{place:?} in {l}"
                );
                forces += 1;
            }
        }
    }
    assert!(forces > 0, "a side's forces listed: {:?}", mails.keys());
}

/// The move template's examples, uncommented, are orders as the move file
/// takes them: a long one is written over lines that each read (a move's
/// further units on their own lines), never wrapped mid-order (4.2).
#[test]
fn sarhu_the_templates_examples_read_as_written() {
    use umpire::core::movefile::SourceLine;
    let mut c = Club::new("sarhu");
    let mv = sarhu_single_move(&mut c);
    let head = c.head();
    let mails = c.send(Side(0), &head, &mv);
    let text = result_to(&c, &mails, Side(1)).text.replace("\r\n", "\n");
    // Each `# e.g.` line starts an example; `#       ` lines continue it.
    let mut examples: Vec<Vec<String>> = Vec::new();
    for l in text.lines() {
        if let Some(o) = l.strip_prefix("  # e.g. ") {
            examples.push(vec![o.to_string()]);
        } else if let (Some(o), Some(last)) = (l.strip_prefix("  #       "), examples.last_mut()) {
            last.push(o.to_string());
        }
    }
    assert!(
        examples.iter().any(|e| e[0].starts_with("move ")),
        "a move among the examples:\n{text}"
    );
    let g = c.u.game("g1").unwrap();
    for e in &examples {
        let lines: Vec<SourceLine> = e
            .iter()
            .enumerate()
            .map(|(i, t)| SourceLine {
                line: i + 1,
                column: 1,
                text: t.clone(),
            })
            .collect();
        assert!(
            g.ruleset().parse_all(g.state(), Side(1), &lines).is_ok(),
            "the example reads: {e:?}"
        );
    }
}
