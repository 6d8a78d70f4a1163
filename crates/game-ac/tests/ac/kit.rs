//! The Asia Crossroads rules tests' harness: a game on the embedded data
//! or on a hand-built fixture (`crates/game-ac/tests/fixtures/ac/`, loaded through the same
//! loader with the fixture's checks), pieces placed by hand, orders run with
//! scripted dice.
#![allow(dead_code, unused_imports)]

pub use std::collections::BTreeMap;
pub use umpire_ac::data::{Base, Data, Kind, MarkerKind, Nat, NegCell, Power, RegionId};
pub use umpire_ac::geom::{Grid, Sq};
pub use umpire_ac::movement::{self, Piece};
pub use umpire_ac::state::{AgentId, Loc, Marker, Stage, State, UnitId};
pub use umpire_ac::{Ac, bop, combat, economy, events, negotiate, supply, victory};
pub use umpire_core::dice::{Dice, Roll};
pub use umpire_core::movefile::SourceLine;
pub use umpire_core::ruleset::{Audience, Ruleset, Setup, Side};

pub const BRITISH: Side = Side(0);
pub const RUSSIAN: Side = Side(1);

pub fn sq(s: &str) -> Sq {
    s.parse().unwrap()
}

pub struct T {
    pub r: Ac,
    pub st: State,
}

/// A new game; its set-up is the printed default unless `options` name
/// `setup` (26.0: `setup=chosen` has the players place their choices).
pub fn game(scenario: &str, options: &[(&str, &str)]) -> T {
    let r = Ac::new();
    let mut o: BTreeMap<String, String> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    o.entry("setup".into()).or_insert_with(|| "printed".into());
    let st = r
        .setup(&Setup {
            scenario: scenario.into(),
            options: o,
            sides: vec!["british".into(), "russian".into()],
        })
        .unwrap();
    T { r, st }
}

/// Scenario 1 with every piece taken off the map, in British operations phase `k`.
pub fn empty(k: u8) -> T {
    empty_with(k, &[])
}

/// [`empty`] with game options.
pub fn empty_with(k: u8, options: &[(&str, &str)]) -> T {
    let mut t = game("s1", options);
    for u in &mut t.st.units {
        u.loc = Loc::Pool;
    }
    for a in &mut t.st.agents {
        a.loc = Loc::Pool;
    }
    t.st.markers.clear();
    t.st.first = Power::British;
    umpire_ac::turn::open_phase(&mut t.st, k, Power::British);
    t
}

impl T {
    pub fn d(&self) -> &Data {
        self.r.data()
    }
    /// Puts the first `n` pool units of a kind on `at`; returns them.
    pub fn put(&mut self, nat: Nat, kind: Kind, n: usize, at: Loc) -> Vec<UnitId> {
        let mut v = Vec::new();
        for (i, u) in self.st.units.iter_mut().enumerate() {
            if v.len() < n && u.nat == nat && u.kind == kind && u.loc == Loc::Pool {
                u.loc = at;
                v.push(UnitId(i as u16));
            }
        }
        assert_eq!(v.len(), n, "not enough {nat:?} {kind:?}");
        v
    }
    pub fn agent(&mut self, name: &str, at: Loc) -> AgentId {
        let i = self.d().find_agent(name).unwrap();
        self.st.agents[i].loc = at;
        AgentId(i as u16)
    }
    pub fn region(&self, code: &str) -> usize {
        self.d().region(code).unwrap().0 as usize
    }
    pub fn city(&self, name: &str) -> Sq {
        let d = self.d();
        d.city(d.find_city(name).unwrap()).sq
    }
    /// Applies the orders of `text` (one per line) with scripted dice; on
    /// error nothing changes.
    pub fn run(
        &mut self,
        side: Side,
        text: &str,
        rolls: &[(&str, u32)],
    ) -> Result<Vec<String>, String> {
        let lines = lines(text);
        let orders = self
            .r
            .parse(&self.st, side, &lines)
            .map_err(|e| e.to_string())?;
        let mut dice = Dice::recorded(rolls.iter().map(|(l, v)| roll(l, *v)).collect());
        let mut trial = self.st.clone();
        let mut out = Vec::new();
        for (_, o) in &orders {
            let ev = self
                .r
                .apply(&mut trial, side, o, &mut dice)
                .map_err(|e| e.to_string())?;
            out.extend(ev.into_iter().map(|e| e.text));
        }
        assert_eq!(
            dice.unused_recorded(),
            0,
            "scripted rolls left over: {out:?}"
        );
        self.st = trial;
        Ok(out)
    }
}

/// A scripted d6; income rolls are the player's own (9.0).
pub fn roll(label: &str, value: u32) -> Roll {
    let audience = if label.starts_with("home government income, British") {
        Audience::side(BRITISH)
    } else if label.starts_with("home government income, Russian") {
        Audience::side(RUSSIAN)
    } else {
        Audience::All
    };
    Roll {
        label: label.to_string(),
        sides: 6,
        value,
        audience,
        item: None,
    }
}

impl T {
    /// Gives region `code` to `p` (None: neutral) by hand; returns it.
    pub fn control(&mut self, code: &str, p: Option<Power>) -> RegionId {
        let r = self.d().region(code).unwrap();
        self.st.control[r.0 as usize] = p;
        r
    }
    /// One economy order of `p` (10.0, 20.1, 23.1), outside the sealed round.
    pub fn econ(&mut self, p: Power, o: economy::EconOrder) -> Result<String, String> {
        let d = self.r.data();
        economy::apply(d, &mut self.st, p, &o).map_err(|e| e.to_string())
    }
    /// The British cede `r` to neutral (23.1(2)), which reverts it (5.51).
    pub fn cede_to_neutral(&mut self, r: RegionId) {
        let d = self.r.data();
        economy::apply(
            d,
            &mut self.st,
            Power::British,
            &economy::EconOrder::Cede(r, None),
        )
        .unwrap();
        assert_eq!(self.st.control[r.0 as usize], None);
    }
    /// The belligerency check sub-phase of `phasing` alone (5.41(1)-(2)),
    /// with scripted dice; returns its events.
    pub fn belligerency(&mut self, phasing: Power, rolls: &[(&str, u32)]) -> Vec<String> {
        let mut dice = Dice::recorded(rolls.iter().map(|(l, v)| roll(l, *v)).collect());
        let mut ctx = umpire_ac::turn::Ctx {
            d: self.r.data(),
            dice: &mut dice,
            ev: Vec::new(),
        };
        umpire_ac::control::belligerency(&mut ctx, &mut self.st, phasing).unwrap();
        let ev: Vec<String> = ctx.ev.into_iter().map(|e| e.text).collect();
        assert_eq!(
            dice.unused_recorded(),
            0,
            "scripted rolls left over: {ev:?}"
        );
        ev
    }
    /// A land square of region `code` with no city, none of whose pieces stand there.
    pub fn open_square(&self, code: &str) -> Sq {
        let d = self.d();
        let r = d.region(code).unwrap();
        d.all_squares()
            .find(|s| {
                d.sq(*s)
                    .is_some_and(|i| i.region == Some(r) && i.city.is_none())
                    && d.land(*s)
                    && self.st.units_at(Loc::Sq(*s)).next().is_none()
            })
            .unwrap()
    }
    pub fn units_of(&self, code: &str, f: impl Fn(Loc) -> bool) -> usize {
        let r = self.d().region(code).unwrap();
        self.st
            .units
            .iter()
            .filter(|u| u.nat == Nat::Native(r) && f(u.loc))
            .count()
    }
}

impl T {
    /// Opens Russian operations phase `k` (the Russians first player).
    pub fn russian_phase(&mut self, k: u8) {
        self.st.first = Power::Russian;
        umpire_ac::turn::open_phase(&mut self.st, k, Power::Russian);
    }
    /// Lays railroad markers of `owner` on `squares` by hand.
    pub fn lay_rails(&mut self, squares: &[&str], owner: Power) {
        for s in squares {
            self.st.markers.push(Marker {
                sq: sq(s),
                owner,
                kind: MarkerKind::Railroad,
            });
        }
    }
    /// Runs `text` (no dice), which must be refused citing `rule`; returns
    /// the refusal.
    pub fn refused(&mut self, side: Side, text: &str, rule: &str) -> String {
        let e = self.run(side, text, &[]).unwrap_err();
        assert!(e.contains(&format!("({rule})")), "{text}: {e}");
        e
    }
    /// The id of unit `u`, for an order line.
    pub fn id(&self, u: UnitId) -> String {
        self.st.unit(u).id.to_string()
    }
}

/// The fixture's files (`crates/game-ac/tests/fixtures/ac/`): its own map and scenarios,
/// the embedded pieces and tables unless `extra` names others.
pub fn fixture_files(extra: &[(&str, &str)]) -> BTreeMap<String, String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ac");
    let mut files = BTreeMap::new();
    for name in ["map.toml", "scenarios.toml"] {
        let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
        files.insert(name.to_string(), text);
    }
    for (k, v) in extra {
        files.insert(k.to_string(), v.to_string());
    }
    files
}

/// A game of the fixture's scenario `scenario` with no piece on the map, in
/// British operations phase `k` (the British first player).
pub fn fixture(scenario: &str, k: u8, options: &[(&str, &str)]) -> T {
    fixture_over(fixture_files(&[]), scenario, k, options)
}

/// [`fixture`] over other fixture files.
pub fn fixture_over(
    files: BTreeMap<String, String>,
    scenario: &str,
    k: u8,
    options: &[(&str, &str)],
) -> T {
    let r = Ac::fixture(&files).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let mut o: BTreeMap<String, String> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    o.entry("setup".into()).or_insert_with(|| "printed".into());
    let st = r
        .setup(&Setup {
            scenario: scenario.into(),
            options: o,
            sides: vec!["british".into(), "russian".into()],
        })
        .unwrap();
    let mut t = T { r, st };
    t.st.first = Power::British;
    umpire_ac::turn::open_phase(&mut t.st, k, Power::British);
    t
}

/// Runs the random events of turn `turn` with scripted dice.
pub fn events_with(t: &mut T, turn: u32, rolls: &[(&str, u32)]) -> Vec<String> {
    t.st.turn = turn;
    let d = t.r.data().clone();
    let mut dice = Dice::recorded(rolls.iter().map(|(l, v)| roll(l, *v)).collect());
    let mut ctx = umpire_ac::turn::Ctx {
        d: &d,
        dice: &mut dice,
        ev: Vec::new(),
    };
    events::random_events(&mut ctx, &mut t.st).unwrap();
    let ev = ctx.ev.into_iter().map(|e| e.text).collect();
    assert_eq!(dice.unused_recorded(), 0);
    ev
}

/// The 17.6 example's square (one red, two North Indian and one Afghan unit
/// in a clear square of Afghanistan, forage 3), with an agent too, after a
/// provisioning phase with `sp` supply points; returns the units and the state.
pub fn provisioned(sp: u32) -> (Vec<UnitId>, T) {
    let mut t = empty(1);
    let s = sq("2227");
    let (ni, af) = (t.d().region("NI").unwrap(), t.d().region("AF").unwrap());
    t.st.control[af.0 as usize] = Some(Power::British);
    let mut all = t.put(Nat::British, Kind::FieldForce, 1, Loc::Sq(s));
    all.extend(t.put(Nat::Native(ni), Kind::Irregular, 2, Loc::Sq(s)));
    all.extend(t.put(Nat::Native(af), Kind::Irregular, 1, Loc::Sq(s)));
    t.agent("burnes", Loc::Sq(s));
    t.st.sp[0] = sp;
    provision(&mut t);
    (all, t)
}

/// Both players' provisioning phase (17.3) on `t` as it stands.
pub fn provision(t: &mut T) {
    let d = t.r.data().clone();
    let mut dice = Dice::recorded(Vec::new());
    let mut ctx = umpire_ac::turn::Ctx {
        d: &d,
        dice: &mut dice,
        ev: Vec::new(),
    };
    supply::provisioning(&mut ctx, &mut t.st).unwrap();
}

/// Three British field force brigades in Delhi and a flying column, a
/// Russian field force brigade and a Punjabi field force group there (Punjab British),
/// in the economy phase.
pub fn reorganizing() -> (T, Vec<String>) {
    let mut t = empty(1);
    let delhi = t.city("Delhi");
    let ni = t.d().region("PJ").unwrap();
    let mut us = t.put(Nat::British, Kind::FieldForce, 3, Loc::Sq(delhi));
    us.extend(t.put(Nat::British, Kind::FlyingColumn, 1, Loc::Sq(delhi)));
    us.extend(t.put(Nat::Russian, Kind::FieldForce, 1, Loc::Sq(delhi)));
    us.extend(t.put(Nat::Native(ni), Kind::FieldForce, 1, Loc::Sq(delhi)));
    t.st.control[ni.0 as usize] = Some(Power::British);
    t.st.stage = Stage::Economy;
    let ids = us.iter().map(|u| t.id(*u)).collect();
    (t, ids)
}

/// `text` as the move file's order lines, one a line, trimmed.
pub fn lines(text: &str) -> Vec<SourceLine> {
    text.lines()
        .enumerate()
        .map(|(i, t)| SourceLine {
            line: i + 1,
            column: 1,
            text: t.trim().to_string(),
        })
        .collect()
}
