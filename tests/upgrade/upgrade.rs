//! Games survive upgrades (issue 14, item 9): a record made under one version
//! of a ruleset moves on to the next when every entry replays the same, tells
//! the first entry that differs when not, and then either stays on its old
//! behaviour or moves on by the admin's choice, and verifies either way.

use std::sync::Arc;
use umpire::core::dice::{Dice, SCHEME};
use umpire::core::game::{
    EngineFault, Game, ReplayMode, Secrets, StateMismatch, StepError, Stored, UpgradeCheck,
    UpgradeError, Verdict,
};
use umpire::core::hash::Digest;
use umpire::core::movefile::SourceLine;
use umpire::core::record::{Body, FORMAT, Opening, Record, RulesetVersion, SideDecl};
use umpire::core::ruleset::{
    Await, AwaitKind, DynRuleset, Event, OrderError, Prompt, RuleError, Ruleset, RulesetInfo,
    Setup, SetupError, Side, View,
};
use umpire::core::sig::{MOVE_NAMESPACE, SecretKey};

/// A toy game: the sides take turns adding to a tally. Version 1 adds what
/// the order says; version 2 fixes "a rule": an addition above 5 counts
/// double. With `compat`, version 2 still plays version 1 when asked.
#[derive(Clone, Copy)]
struct Tally {
    version: u32,
    compat: bool,
}

impl Ruleset for Tally {
    type State = (u32, u8);
    type Order = u32;

    fn info(&self) -> RulesetInfo {
        RulesetInfo {
            name: "tally".into(),
            version: self.version,
            data: None,
            title: "Tally".into(),
            summary: "a test game".into(),
            scenarios: vec![umpire::core::ruleset::ScenarioInfo {
                name: "count".into(),
                title: "Count moves".into(),
                sides: Vec::new(),
            }],
            options: Vec::new(),
        }
    }
    fn setup(&self, _: &Setup) -> Result<Self::State, SetupError> {
        Ok((0, 0))
    }
    fn prompt(&self, state: &Self::State) -> Prompt {
        Prompt {
            stage: format!("tally {}", state.0),
            awaiting: vec![Await {
                side: Side(state.1),
                kind: AwaitKind::Orders,
                ask: "add N".into(),
                default: vec!["add 1".into()],
            }],
            finished: None,
        }
    }
    fn parse(
        &self,
        _: &Self::State,
        _: Side,
        lines: &[SourceLine],
    ) -> Result<Vec<(SourceLine, u32)>, OrderError> {
        lines
            .iter()
            .map(|l| {
                let n = l
                    .text
                    .strip_prefix("add ")
                    .and_then(|n| n.trim().parse().ok())
                    .ok_or_else(|| OrderError::at(l, "write add N"))?;
                Ok((l.clone(), n))
            })
            .collect()
    }
    fn apply(
        &self,
        state: &mut Self::State,
        _: Side,
        n: &u32,
        _: &mut Dice,
    ) -> Result<Vec<Event>, RuleError> {
        let add = if self.version >= 2 && *n > 5 {
            2 * n
        } else {
            *n
        };
        state.0 += add;
        state.1 = 1 - state.1;
        Ok(vec![Event::say(format!("the tally is {}", state.0))])
    }
    fn legal_moves(&self, _: &Self::State, _: Side) -> Vec<String> {
        vec!["add 1".into()]
    }
    fn view(&self, state: &Self::State, _: umpire::core::ruleset::Viewer) -> View {
        View {
            status: vec![format!("tally {}", state.0)],
            board: None,
        }
    }
    fn at_version(&self, version: u32) -> Option<Arc<dyn DynRuleset>> {
        (self.compat && version == 1).then(|| {
            Arc::new(Tally {
                version: 1,
                compat: false,
            }) as Arc<dyn DynRuleset>
        })
    }
}

fn v1() -> Arc<dyn DynRuleset> {
    Arc::new(Tally {
        version: 1,
        compat: false,
    })
}

/// Version 2, able (with `compat`) or not to replay version 1.
fn v2(compat: bool) -> Arc<dyn DynRuleset> {
    Arc::new(Tally { version: 2, compat })
}

struct Club {
    game: Game,
    secrets: Secrets,
    keys: Vec<SecretKey>,
}

fn secrets() -> Secrets {
    Stored {
        top: Digest([5; 32]),
        length: 1000,
        base: 0,
        master: None,
        slots: 0,
    }
    .secrets()
}

fn keys() -> Vec<SecretKey> {
    (1..=2)
        .map(|n| SecretKey::from_seed(&[n; 32], &format!("p{n}@club.test")).unwrap())
        .collect()
}

impl Club {
    fn new(ruleset: Arc<dyn DynRuleset>) -> Club {
        let secrets = secrets();
        let keys = keys();
        let opening = Opening {
            format: FORMAT,
            game: "t1".into(),
            ruleset: "tally".into(),
            ruleset_version: ruleset.info().version,
            ruleset_data: None,
            scenario: "count".into(),
            options: Default::default(),
            sides: ["north", "south"]
                .iter()
                .zip(&keys)
                .map(|(n, k)| SideDecl {
                    name: n.to_string(),
                    email: format!("{n}@club.test"),
                    key: k.public().to_openssh(),
                })
                .collect(),
            dice: secrets.chain.commitment(),
            hidden: Vec::new(),
            umpire: SecretKey::from_seed(&[9; 32], "u@club.test")
                .unwrap()
                .public()
                .to_openssh(),
            at: "2026-12-01T00:00:00Z".into(),
        };
        assert_eq!(opening.dice.scheme, SCHEME);
        let game = Game::create(ruleset, opening, &secrets).expect("create");
        Club {
            game,
            secrets,
            keys,
        }
    }

    /// The same game opened by another umpire, under `ruleset`.
    fn fork(&self, ruleset: Arc<dyn DynRuleset>) -> Result<Club, String> {
        let (game, _) = Game::replay(ruleset, self.game.record(), ReplayMode::Trusted)
            .map_err(|e| e.to_string())?;
        Ok(Club {
            game,
            secrets: secrets(),
            keys: keys(),
        })
    }

    /// Reopens the game's record under another ruleset, as a new umpire would.
    fn reopen(&mut self, ruleset: Arc<dyn DynRuleset>) -> Result<(), String> {
        let (game, _) = Game::replay(ruleset, self.game.record(), ReplayMode::Trusted)
            .map_err(|e| e.to_string())?;
        self.game = game;
        Ok(())
    }

    fn add(&mut self, n: u32) -> u64 {
        let side = self.game.prompt().awaiting[0].side;
        let name = self.game.sides()[side.index()].name.clone();
        let text = format!(
            "game: t1\nside: {name}\nafter: {}\norders:\n  add {n}\n",
            self.game.record().head()
        );
        let sig = self.keys[side.index()]
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap();
        match self
            .game
            .submit(text.as_bytes(), &sig, &self.secrets, "2026-12-01T12:00:00Z")
        {
            Verdict::Accepted { seq, .. } => seq,
            other => panic!("not accepted: {other:?}"),
        }
    }

    fn tally(&self) -> String {
        self.game
            .ruleset()
            .view(self.game.state(), umpire::core::ruleset::Viewer::Public)
            .status[0]
            .clone()
    }

    fn record(&self) -> Record {
        self.game.record().clone()
    }
}

fn verify(ruleset: Arc<dyn DynRuleset>, record: &Record) -> Result<(), String> {
    Game::replay(ruleset, record, ReplayMode::Verify)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn version(n: u32) -> RulesetVersion {
    RulesetVersion {
        version: n,
        data: None,
    }
}

#[test]
fn a_game_whose_replay_is_the_same_moves_on_and_verifies_under_the_new_version() {
    let mut club = Club::new(v1());
    club.add(2);
    club.add(3);
    // A v2 umpire that cannot play v1 cannot load the game as it is...
    let err = club.reopen(v2(false)).unwrap_err();
    assert!(err.contains("tally version 1"), "{err}");
    assert!(err.contains("umpire upgrade"), "{err}");
    // ...but every entry replays the same under v2 (no addition above 5).
    let check = Game::check_upgrade(v2(false), &club.record());
    assert_eq!(
        check,
        UpgradeCheck::Same {
            from: version(1),
            to: version(2)
        }
    );
    let (mut game, _) =
        Game::replay_under(v2(false), &club.record(), ReplayMode::Trusted).expect("replays");
    assert_eq!(game.version(), version(1));
    let seq = game
        .upgrade(None, "sarhu 2: same replay", "2026-12-02T00:00:00Z")
        .expect("upgrade");
    assert_eq!(game.version(), version(2));
    club.game = game;
    assert!(matches!(
        &club.record().entries()[seq as usize].body,
        Body::Upgrade(u) if u.diverged_at.is_none() && u.from == version(1) && u.to == version(2)
    ));
    // From now on the new rule holds.
    club.add(7);
    assert_eq!(club.tally(), "tally 19");
    // The whole record verifies under v2 alone, and reloads.
    verify(v2(false), &club.record()).expect("verifies under v2");
    club.reopen(v2(false)).expect("reloads");
    assert_eq!(
        Game::check_upgrade(v2(false), &club.record()),
        UpgradeCheck::Current
    );
    // A v1 umpire cannot replay the moves made under v2.
    let err = verify(v1(), &club.record()).unwrap_err();
    assert!(err.contains("version 2"), "{err}");
}

#[test]
fn a_game_whose_replay_differs_names_the_entry_and_can_stay_or_move_on() {
    let mut club = Club::new(v1());
    club.add(2);
    let seven = club.add(7);
    club.add(1);
    assert_eq!(club.tally(), "tally 10");
    match Game::check_upgrade(v2(true), &club.record()) {
        UpgradeCheck::Differs { seq, error, .. } => {
            assert_eq!(seq, seven, "{error}");
            assert!(
                matches!(
                    error,
                    StepError::Fault(EngineFault::State(StateMismatch::Differs { .. }))
                ),
                "{error}"
            );
            assert!(error.to_string().contains("state"), "{error}");
        }
        other => panic!("expected a difference, got {other:?}"),
    }

    // Staying: a v2 umpire that keeps v1's behaviour loads and plays on as v1.
    let mut kept = club.fork(v2(true)).expect("v2 with compat plays v1");
    assert_eq!(kept.game.version(), version(1));
    kept.add(9);
    assert_eq!(kept.tally(), "tally 19", "v1's rule still holds");
    verify(v2(true), &kept.record()).expect("verifies");

    // Moving on: the state carries over and the new rule holds from here.
    club.reopen(v2(true)).expect("loads");
    let at = club
        .game
        .upgrade(Some(seven), "admin: move on", "2026-12-02T00:00:00Z")
        .expect("upgrade");
    club.add(9);
    assert_eq!(club.tally(), "tally 28");
    verify(v2(true), &club.record()).expect("verifies: v1 before the upgrade, v2 after");
    // Without v1's behaviour the stretch before the upgrade cannot be replayed.
    let err = verify(v2(false), &club.record()).unwrap_err();
    assert!(err.contains("cannot replay"), "{err}");
    // The upgrade entry is part of the chain: altering it breaks the record.
    let mut entries = club.record().entries().to_vec();
    if let Body::Upgrade(u) = &mut entries[at as usize].body {
        u.diverged_at = None;
    }
    assert!(
        Record::from_entries(entries.clone()).is_err()
            || verify(v2(true), &Record::from_entries(entries).unwrap()).is_err()
    );
    // A later check has nothing more to do.
    assert_eq!(
        Game::check_upgrade(v2(true), &club.record()),
        UpgradeCheck::Current
    );
}

#[test]
fn an_upgrade_that_names_the_wrong_version_fails_verification() {
    let mut club = Club::new(v1());
    club.add(2);
    let (mut game, _) =
        Game::replay_under(v2(false), &club.record(), ReplayMode::Trusted).expect("replays");
    game.upgrade(None, "same", "2026-12-02T00:00:00Z").unwrap();
    assert_eq!(
        game.upgrade(None, "again", "2026-12-02T00:00:00Z"),
        Err(UpgradeError::Current(version(2)))
    );
    club.game = game;
    club.add(1);
    verify(v2(false), &club.record()).expect("verifies");
    // The same entries under a ruleset that claims to be version 3: the
    // upgrade to 2 names a version this umpire does not have.
    let v3: Arc<dyn DynRuleset> = Arc::new(Tally {
        version: 3,
        compat: false,
    });
    let err = verify(v3, &club.record()).unwrap_err();
    assert!(err.contains("cannot replay"), "{err}");
}
