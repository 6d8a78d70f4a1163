//! The poll compacts the database when it is due (`[retention]
//! compact_every_days`): the first poll notes the time, a poll a period later
//! drops the raw mails past `keep_mail_days` and compacts, the polls between
//! do nothing; 0 turns it off. The game plays on throughout.

use umpire_testkit as common;

use common::{key, move_mail};
use umpire::mail::maildir::Maildir;
use umpire::service::Umpire;

fn start() -> jiff::Timestamp {
    "2026-12-01T12:00:00Z".parse().unwrap()
}

fn days(n: i64) -> jiff::Timestamp {
    start() + jiff::SignedDuration::from_hours(24 * n)
}

struct Club {
    _tmp: tempfile::TempDir,
    umpire: Umpire,
    maildir: Maildir,
    n: u64,
}

fn club(retention: &str) -> Club {
    let tmp = tempfile::tempdir().unwrap();
    Umpire::init(tmp.path(), "umpire@club.test").unwrap();
    let toml = tmp.path().join("umpire.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let at = text.find("[retention]").expect("the written defaults");
    let end = text[at..].find("\n\n").map_or(text.len(), |e| at + e);
    let text = format!("{}{retention}{}", &text[..at], &text[end..]);
    std::fs::write(&toml, text).unwrap();
    let mut umpire = Umpire::open(tmp.path()).unwrap();
    umpire
        .create_game(
            common::new_game("g1", "freeform", "open", &["red", "blue"], &[]),
            start(),
        )
        .unwrap();
    let maildir = Maildir::open(&tmp.path().join("maildir")).unwrap();
    Club {
        _tmp: tmp,
        umpire,
        maildir,
        n: 0,
    }
}

impl Club {
    /// The next side in turn moves; one poll at `now`.
    fn play(&mut self, now: jiff::Timestamp) {
        let side = (self.n % 2) as usize;
        let name = ["red", "blue"][side];
        let head = self.umpire.game("g1").unwrap().record().head().to_hex();
        let text =
            format!("game: g1\nside: {name}\nafter: {head}\norders:\n  advance\n  end turn\n");
        let sig = key(side as u8 + 1)
            .sign(umpire::core::sig::MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        self.n += 1;
        let raw = move_mail(
            &format!("{name}@club.test"),
            "umpire@club.test",
            self.n,
            &text,
            &sig,
            false,
        );
        self.maildir
            .deliver(&format!("{:04}.mail", self.n), &raw)
            .unwrap();
        let r = self.umpire.poll(&mut self.maildir, now).unwrap();
        assert_eq!(r.accepted, 1, "{r:?}");
    }

    fn raw_mails(&self) -> usize {
        self.umpire
            .store()
            .keys(umpire::store::Table::Inbox)
            .unwrap()
            .len()
    }
}

#[test]
fn the_poll_compacts_when_due_and_only_then() {
    let mut c = club("[retention]\nkeep_mail_days = 1\ncompact_every_days = 7\n");
    c.play(start());
    assert_eq!(c.umpire.last_compact().unwrap(), Some(start().as_second()));
    c.play(days(3));
    assert_eq!(c.raw_mails(), 2, "not due: nothing dropped");
    // A week after the first poll: the raw mails handled over a day before go.
    c.play(days(7));
    assert_eq!(c.raw_mails(), 1, "this poll's own mail is kept");
    assert_eq!(c.umpire.last_compact().unwrap(), Some(days(7).as_second()));
    // The next is a week after that.
    c.play(days(10));
    assert_eq!(c.raw_mails(), 2);
    c.play(days(14));
    assert_eq!(c.raw_mails(), 1);
    // The game went on, and its record verifies.
    let g = c.umpire.game("g1").unwrap();
    let record = umpire::core::record::Record::from_text(&g.record().to_text()).unwrap();
    umpire::core::game::Game::replay(
        g.ruleset().clone(),
        &record,
        umpire::core::game::ReplayMode::Verify,
    )
    .expect("verifies");
}

#[test]
fn compact_every_days_zero_leaves_it_to_cron() {
    let mut c = club("[retention]\nkeep_mail_days = 1\ncompact_every_days = 0\n");
    for d in [0, 8, 16, 30] {
        c.play(days(d));
    }
    assert_eq!(c.raw_mails(), 4);
    assert_eq!(c.umpire.last_compact().unwrap(), None);
    // `umpire compact` by hand still works, with the configured retention.
    let done = c.umpire.compact(1, days(30)).unwrap();
    assert_eq!((done.dropped, done.kept), (3, 1));
    assert_eq!(c.umpire.last_compact().unwrap(), Some(days(30).as_second()));
}
