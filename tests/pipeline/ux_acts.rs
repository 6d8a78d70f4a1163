//! The engine's own acts in every ruleset: `concede`, draw offers both sides
//! sign, and the admin's acts in the record (end, new key, new address). Each
//! is replayed by `Game::replay` in verify mode and audited in a side's copy.

use umpire_testkit as common;

use common::{key, table};
use umpire::core::act::{Act, AdminAct, Ending};
use umpire::core::audit::audit;
use umpire::core::game::{AdminError, Game, RejectKind, ReplayMode, Verdict};
use umpire::core::record::Body;

fn accepted(v: &Verdict) -> u64 {
    match v {
        Verdict::Accepted { seq, .. } => *seq,
        other => panic!("not accepted: {other:?}"),
    }
}

fn refused(v: &Verdict) -> (RejectKind, String) {
    match v {
        Verdict::Rejected { rejection, .. } => (rejection.kind, rejection.reason.clone()),
        other => panic!("not refused: {other:?}"),
    }
}

fn verifies(t: &common::Table) -> Game {
    let (g, _) = Game::replay(t.shared(), t.game.record(), ReplayMode::Verify).unwrap();
    assert_eq!(
        g.prompt(),
        t.game.prompt(),
        "the replay ends where the game is"
    );
    audit(&t.game.record().copy_for(Some(&t.game.sides()[0].name))).unwrap();
    g
}

#[test]
fn a_sarhu_side_concedes_out_of_turn_and_the_other_wins() {
    let mut t = table("sarhu", "historical", &["ming", "jurchen"], &[]);
    let waiting = t.game.prompt().awaiting[0].side.index();
    let other = 1 - waiting;
    let v = t.play(other, &["concede"]);
    let seq = accepted(&v);
    assert!(matches!(&t.game.record().entries()[seq as usize].body,
        Body::Act(a) if a.act == Act::Concede));
    let done = t.game.prompt().finished.clone().expect("the game is over");
    assert_eq!(done.winners.len(), 1);
    assert_eq!(done.winners[0].index(), waiting);
    assert!(done.summary.contains("concedes"), "{done:?}");
    // A move after the end is refused.
    let (kind, _) = refused(&t.play(waiting, &["pass"]));
    assert_eq!(kind, RejectKind::Finished);
    let g = verifies(&t);
    assert!(g.prompt().finished.is_some());
}

#[test]
fn a_sarhu_draw_needs_the_other_sides_signature() {
    let mut t = table("sarhu", "historical", &["ming", "jurchen"], &[]);
    // No offer yet: nothing to accept.
    let (kind, why) = refused(&t.play(1, &["accept draw"]));
    assert_eq!(kind, RejectKind::Illegal);
    assert!(why.contains("no draw offer"), "{why}");
    accepted(&t.play(0, &["offer draw"]));
    assert!(t.game.draw_offer().is_some());
    // The offerer cannot accept its own offer.
    let (_, why) = refused(&t.play(0, &["accept draw"]));
    assert!(why.contains("must accept"), "{why}");
    accepted(&t.play(1, &["Accept Draw"]));
    let done = t.game.prompt().finished.clone().expect("drawn");
    assert!(done.winners.is_empty());
    assert!(done.summary.contains("drawn by agreement"), "{done:?}");
    verifies(&t);
}

#[test]
fn a_freeform_draw_offer_lapses_when_the_offerer_moves_again() {
    let mut t = table("freeform", "open", &["a", "b"], &[]);
    accepted(&t.play(0, &["offer draw"]));
    // a plays on: its offer lapses.
    accepted(&t.play(0, &["advance", "end turn"]));
    assert!(t.game.draw_offer().is_none());
    let (_, why) = refused(&t.play(1, &["accept draw"]));
    assert!(why.contains("no draw offer"), "{why}");
    // A declined offer ends too; a new one can be accepted.
    accepted(&t.play(1, &["offer draw"]));
    accepted(&t.play(0, &["decline draw"]));
    assert!(t.game.draw_offer().is_none());
    assert!(t.game.prompt().finished.is_none());
    accepted(&t.play(0, &["offer draw"]));
    accepted(&t.play(1, &["accept draw"]));
    assert!(t.game.prompt().finished.is_some());
    // The refused `accept draw`, which freeform alone would read as text,
    // replays as refused.
    verifies(&t);
}

#[test]
fn freeform_keeps_its_own_concede_so_old_records_replay_unchanged() {
    let mut t = table("freeform", "open", &["a", "b", "c"], &[]);
    let seq = accepted(&t.play(0, &["concede"]));
    assert!(matches!(
        &t.game.record().entries()[seq as usize].body,
        Body::Move(_)
    ));
    // Three sides: a drops out, the game goes on.
    assert!(t.game.prompt().finished.is_none());
    verifies(&t);
}

#[test]
fn the_admin_replaces_a_key_and_the_record_knows_it() {
    let mut t = table("freeform", "open", &["a", "b"], &[]);
    let new = key(9);
    let (seq, report) = t
        .game
        .admin(
            AdminAct::Key {
                side: "a".into(),
                key: new.public().to_openssh(),
            },
            "a lost the old key",
            &t.chain,
            "2026-11-29T13:00:00Z",
        )
        .unwrap();
    assert!(report.standing[0].text.contains("replaced a's key"));
    assert!(matches!(
        &t.game.record().entries()[seq as usize].body,
        Body::Admin(_)
    ));
    // The old key no longer signs a's moves.
    let (kind, _) = refused(&t.play(0, &["advance"]));
    assert_eq!(kind, RejectKind::Signature);
    t.keys[0] = new;
    accepted(&t.play(0, &["advance", "end turn"]));
    let g = verifies(&t);
    assert_eq!(g.sides()[0].fingerprint(), t.game.sides()[0].fingerprint());
    // The new address, too.
    t.game
        .admin(
            AdminAct::Address {
                side: "b".into(),
                email: "b2@club.test".into(),
            },
            "moved",
            &t.chain,
            "2026-11-29T14:00:00Z",
        )
        .unwrap();
    let g = verifies(&t);
    assert_eq!(g.sides()[1].email, "b2@club.test");
    // A bad key, side or address is refused by name and records nothing.
    let len = t.game.record().len();
    let mut refused_act = |act| t.game.admin(act, "", &t.chain, "").unwrap_err();
    let e = refused_act(AdminAct::Key {
        side: "z".into(),
        key: key(3).public().to_openssh(),
    });
    assert_eq!(
        e,
        AdminError::NoSuchSide {
            name: "z".into(),
            sides: vec!["a".into(), "b".into()]
        }
    );
    assert_eq!(
        e.to_string(),
        "the game has no side \"z\"; its sides are a, b"
    );
    let e = refused_act(AdminAct::Key {
        side: "a".into(),
        key: "ssh-ed25519 nonsense".into(),
    });
    assert!(matches!(e, AdminError::BadKey(_)), "{e}");
    let e = refused_act(AdminAct::Address {
        side: "b".into(),
        email: "nowhere".into(),
    });
    assert_eq!(e, AdminError::NotAnAddress("nowhere".into()));
    assert_eq!(e.to_string(), "\"nowhere\" is not a mail address");
    assert_eq!(t.game.record().len(), len);
}

#[test]
fn the_admin_ends_a_game_with_a_stated_result() {
    let mut t = table("sarhu", "historical", &["ming", "jurchen"], &[]);
    t.game
        .admin(
            AdminAct::End(Ending {
                winners: vec!["ming".into()],
                summary: "ming wins: jurchen left the club".into(),
            }),
            "jurchen left",
            &t.chain,
            "2026-11-29T13:00:00Z",
        )
        .unwrap();
    let done = t.game.prompt().finished.clone().unwrap();
    assert_eq!(done.winners[0].index(), 0);
    let (kind, _) = refused(&t.play(1, &["concede"]));
    assert_eq!(kind, RejectKind::Finished);
    verifies(&t);
}
