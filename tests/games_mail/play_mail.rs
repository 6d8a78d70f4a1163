//! What a new player met playing each game by hand, through the Maildir
//! pipeline: the words that made him stop and think, now said plainly.

use super::explain_mail::{Club, flat};
use umpire::core::ruleset::Side;

/// A refusal for an illegal order names one head to write the next move
/// against, and a move written against it is accepted: the mail no longer
/// says "the same `after:` line" above a record head that differs from it.
#[test]
fn a_refusal_names_the_one_head_to_write_against() {
    let mut c = Club::new("sarhu");
    let before = c.head();
    // 6.1: no hex 9999 on the map; the whole move is refused.
    let mails = c.send(Side(0), &before, "move ds: ds.i1 0508 9999");
    let refusal = mails
        .values()
        .find(|m| m.text.contains("REFUSED"))
        .expect("a refusal");
    let text = flat(&refusal.text);
    assert!(!text.contains("same `after:` line"), "{}", refusal.text);
    let head = c.head();
    assert_ne!(head, before, "the refusal is an entry of the record");
    assert!(
        text.contains(&format!(
            "Write your next move against this record head (its `after:` line): {head}"
        )),
        "{}",
        refusal.text
    );
    let mails = c.send(Side(0), &head, "pass");
    assert!(
        mails.values().all(|m| !m.text.contains("REFUSED")),
        "a move against the head the refusal named is accepted"
    );
}

/// A result mail that carries a part of the record (`record-A-B.txt`) names
/// it and says how to verify it with the earlier files, instead of pointing
/// to a `record.txt` the mail does not hold.
#[test]
fn a_result_mail_names_the_record_part_it_carries() {
    let mut c = Club::new("sarhu");
    let head = c.head();
    c.send(Side(0), &head, "pass");
    let (head, side) = (c.head(), c.awaited());
    let mails = c.send(side, &head, "pass");
    let mut parts = 0;
    for m in mails.values().filter(|m| m.text.contains("== Proof")) {
        let part = m
            .attachments
            .iter()
            .map(|a| a.name.as_str())
            .find(|n| n.starts_with("record-") && n.ends_with(".txt"))
            .expect("a record part");
        let text = flat(&m.text);
        assert!(!text.contains("The attached record.txt"), "{}", m.text);
        assert!(
            text.contains(&format!("The attached {part} holds")),
            "{}",
            m.text
        );
        assert!(
            text.contains("umpire verify record.txt record-*.txt"),
            "{}",
            m.text
        );
        parts += 1;
    }
    assert_eq!(parts, 2, "both sides' results carry a part");
}

/// The other side's set-up, hidden whole by the fog of war (Asia
/// Crossroads 22.1), is said to be hidden, not left as a heading over
/// nothing; its setter still reads his own orders.
#[test]
fn a_move_hidden_whole_says_so() {
    let mut c = Club::new("ac");
    let setter = c.awaited();
    let head = c.head();
    let mails = c.send(setter, &head, "done");
    let hidden = "(nothing of it you may see: the rules keep it from you)";
    let mut other = 0;
    for (name, m) in mails
        .iter()
        .filter(|(_, m)| m.text.contains("== What happened"))
    {
        let own = name.contains(&format!(".{}.", c.sides[setter.index()]));
        if own {
            assert!(!m.text.contains(hidden), "{}", m.text);
            assert!(m.text.contains("> done"), "{}", m.text);
        } else {
            assert!(m.text.contains(hidden), "{}", m.text);
            assert!(!m.text.contains("> done"), "{}", m.text);
            other += 1;
        }
    }
    assert_eq!(other, 1, "the other side is told");
}

/// Lest Darkness Fall's status names the players as the rulebook does and
/// counts the passes in words, with what two in a row do (8.20).
#[test]
fn ldf_status_names_the_players() {
    let mut c = Club::new("ldf");
    let gp = c.awaited();
    let head = c.head();
    c.send(gp, &head, "setup auto");
    // 8.1: the Germano-Parthian acts first; his pass hands the action over.
    let head = c.head();
    let mails = c.send(gp, &head, "pass");
    let roman = mails
        .iter()
        .find(|(k, _)| k.contains(".roman"))
        .map(|(_, m)| flat(&m.text))
        .expect("the Roman's mail");
    assert!(
        roman.contains(
            "alternating actions (8.1): the Roman to act; 1 pass in a row \
             (two in a row end the turn, 8.20)"
        ),
        "{roman}"
    );
    assert!(!roman.contains("pass(es)"), "{roman}");
}

/// A Distant Plain's deck rolls read once: their label is a sentence
/// already, so no words are printed before it with the label repeated in
/// brackets (2.1). The opening deal always rolls the piles (a pass may
/// instead reach a Propaganda card, drawn without a pile's roll).
#[test]
fn adp_deck_rolls_read_once() {
    let c = Club::new("adp");
    let mut deck_lines = 0;
    for m in c.all_mails().values() {
        let text = flat(&m.text);
        deck_lines += text.matches("is its Propaganda card (2.1)").count();
        assert!(!text.contains("the deck, pile"), "{}", m.text);
        assert!(!text.contains("Propaganda card (2.1) [deck:"), "{}", m.text);
    }
    assert!(deck_lines > 0, "the opening deal rolled the deck's piles");
}

/// A side whose name ends in s reads "warlords' move", never
/// "warlords's" (the other sides keep "'s", as "ming's move" above).
#[test]
fn a_possessive_is_written_as_english_writes_it() {
    let mut c = Club::new("adp");
    let warlords = c
        .sides
        .iter()
        .position(|s| s == "warlords")
        .expect("the Warlords' side");
    let mut seen = 0;
    // 2.3.3: every faction may pass; the Warlords' turn comes within a card
    // or two (a Propaganda Round between them asks others first).
    for _ in 0..24 {
        // A Propaganda Round's sealed phase awaits several sides at once.
        let awaited: Vec<Side> =
            c.u.game("g1")
                .unwrap()
                .prompt()
                .awaiting
                .iter()
                .map(|a| a.side)
                .collect();
        for side in awaited {
            let head = c.head();
            let mut mails = c.send(side, &head, "pass");
            // 6.0: a Propaganda card drawn by the passes is answered `done`.
            if mails.values().any(|m| m.text.contains("was REFUSED")) {
                let head = c.head();
                mails = c.send(side, &head, "done");
            }
            for m in mails.values() {
                assert!(!m.text.contains("s's move"), "{}", m.text);
                if side.index() == warlords && m.text.contains("== What happened") {
                    assert!(m.text.contains("warlords' move, sent"), "{}", m.text);
                    seen += 1;
                }
            }
        }
        if seen > 0 {
            break;
        }
    }
    assert!(seen > 0, "the Warlords moved");
}
