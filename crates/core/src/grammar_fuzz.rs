//! The harness of the order-grammar fuzz targets (`fuzz/fuzz_targets/orders_*.rs`,
//! one per ruleset): the positions of a few self-played games, and one fuzz
//! input read as a move at one of them the way the engine reads a move
//! (`game::evaluate`): its standing orders set, its orders parsed (`parse`
//! and `parse_all`) and, where the side may give them, carried out with
//! seeded dice, then the prompt and every side's view drawn. Anything may
//! be refused; nothing may panic.
//!
//! An input is two bytes and a move file's sections: the first byte picks
//! the position (modulo their number), the second the side (modulo the
//! game's sides); the rest follows the `game:`, `side:` and `after:` lines
//! the harness writes, so it holds `orders:` and `standing:` sections as a
//! player writes them. The positions cover every phase a game went through
//! (each kind of question a side was asked, first time seen) and samples
//! in between, so setup orders, sealed plans and decisions are all read
//! against a state that asks for them.

use super::audience::Viewer;
use super::dice::Dice;
use super::game::{Game, hidden_slots};
use super::hash::{Digest, sha256};
use super::movefile::MoveFile;
use super::record::Body;
use super::ruleset::{DynRuleset, GameState, Setup, Side};
use super::selfplay::{SelfPlayConfig, SelfPlayFailure, walk};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The most positions kept (one input byte picks one).
const MAX_POSITIONS: usize = 256;

/// The most seed inputs written per ruleset (the committed corpus stays small).
pub const MAX_SEEDS: usize = 64;

/// A self-played game to take positions from.
#[derive(Debug, Clone)]
pub struct Walk {
    pub scenario: String,
    pub options: Vec<(String, String)>,
    /// The game's seed.
    pub seed: u64,
    /// Entries played at most.
    pub max_entries: u64,
}

impl Walk {
    /// A walk of `scenario` with `options`.
    pub fn new(scenario: &str, options: &[(&str, &str)], seed: u64, max_entries: u64) -> Walk {
        Walk {
            scenario: scenario.into(),
            options: options
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            seed,
            max_entries,
        }
    }
}

/// One position: the state a side was asked to act in, and what the
/// self-played game did there.
struct Position {
    state: GameState,
    /// The game's sides, by index.
    names: Arc<Vec<String>>,
    /// Hidden dice streams the game has (0 if it hides nothing).
    slots: usize,
    /// The sides asked to act.
    awaited: Vec<Side>,
    /// The record's length here, to find what was played next.
    len: usize,
    /// The move played from here, as a seed input: side and sections.
    played: Option<(Side, String)>,
    /// Kept as a sample between new kinds of question (may be thinned out).
    sample: bool,
    step: usize,
}

/// The positions of a ruleset's self-played games, and the harness over them.
pub struct Grammar {
    ruleset: Arc<dyn DynRuleset>,
    at: Vec<Position>,
}

impl Grammar {
    /// Plays `walks` with `ruleset` and keeps up to 256 positions, an
    /// equal share of them from each walk.
    pub fn play(ruleset: Arc<dyn DynRuleset>, walks: &[Walk]) -> Result<Grammar, SelfPlayFailure> {
        let mut g = Grammar {
            ruleset,
            at: Vec::new(),
        };
        let share = MAX_POSITIONS / walks.len().max(1);
        for w in walks {
            g.add(w, share)?;
        }
        Ok(g)
    }

    /// Plays `walk` and keeps up to `share` of its positions (no more than
    /// 256 in all).
    pub fn add(&mut self, walk: &Walk, share: usize) -> Result<(), SelfPlayFailure> {
        let room = MAX_POSITIONS.saturating_sub(self.at.len()).min(share);
        let more = positions(&self.ruleset, walk, room)?;
        self.at.extend(more);
        Ok(())
    }

    /// How many positions there are.
    pub fn len(&self) -> usize {
        self.at.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.at.is_empty()
    }

    /// Seed inputs: the moves the games played at the positions, as (file
    /// name, input): at every new kind of question, and at samples between
    /// up to [`MAX_SEEDS`] in all.
    pub fn seeds(&self) -> Vec<(String, Vec<u8>)> {
        let name = self.ruleset.info().name;
        let played: Vec<(usize, &Position)> = self
            .at
            .iter()
            .enumerate()
            .filter(|(_, p)| p.played.is_some())
            .collect();
        let kinds = played.iter().filter(|(_, p)| !p.sample).count();
        let samples = played.len() - kinds;
        let room = MAX_SEEDS.saturating_sub(kinds);
        let stride = samples.div_ceil(room.max(1)).max(1);
        let mut k = 0;
        played
            .into_iter()
            .filter(|(_, p)| {
                !p.sample || {
                    k += 1;
                    (k - 1) % stride == 0
                }
            })
            .filter_map(|(i, p)| {
                let (side, body) = p.played.as_ref()?;
                Some((
                    format!("{name}-{i:03}"),
                    Grammar::input(i as u8, side.0, body),
                ))
            })
            .collect()
    }

    /// The seed input of `body` (a move file's sections) for `side` at
    /// position `at`: what [`Grammar::run`] reads.
    pub fn input(at: u8, side: u8, body: &str) -> Vec<u8> {
        let mut v = vec![at, side];
        v.extend_from_slice(body.as_bytes());
        v
    }

    /// Reads `data` as a move at one position, as the engine would; see
    /// the module's documentation.
    pub fn run(&self, data: &[u8]) {
        let ([p, s, rest @ ..], false) = (data, self.at.is_empty()) else {
            return;
        };
        let pos = &self.at[*p as usize % self.at.len()];
        let side = Side((*s as usize % pos.names.len().max(1)) as u8);
        let Ok(body) = std::str::from_utf8(rest) else {
            return;
        };
        let Some(name) = pos.names.get(side.index()) else {
            return;
        };
        let text = format!(
            "game: fuzz\nside: {name}\nafter: {}\n{body}",
            Digest([0; 32])
        );
        let Ok(file) = MoveFile::parse(text.as_bytes()) else {
            return;
        };
        let rs = self.ruleset.as_ref();
        // The state is copied only for what changes it (most inputs do not
        // read, and a copy costs more than reading them).
        let mut changed = None;
        if let Some(lines) = &file.standing {
            let mut state = pos.state.clone();
            let _ = rs.standing_audience(&state, side);
            if rs.set_standing(&mut state, side, lines).is_err() {
                return;
            }
            let _ = rs.standing(&state, side);
            changed = Some(state);
        }
        if file.orders.is_empty() {
            return;
        }
        let now = changed.as_ref().unwrap_or(&pos.state);
        let _ = rs.parse(now, side, &file.orders);
        let Ok(orders) = rs.parse_all(now, side, &file.orders) else {
            return;
        };
        // A side not asked to act gives only the orders the ruleset takes
        // at any time (`Ruleset::out_of_turn`), as `evaluate` allows.
        if !pos.awaited.contains(&side) && !orders.iter().all(|o| rs.out_of_turn(now, side, o)) {
            return;
        }
        for o in &orders {
            let _ = rs.order_audience(now, side, o);
        }
        let mut state = changed.unwrap_or_else(|| pos.state.clone());
        let seed = sha256(data).0;
        let mut dice = Dice::seeded(seed).with_hidden(vec![Some(seed); pos.slots]);
        for o in &orders {
            if rs.prompt(&state).awaits(side).is_none() && !rs.out_of_turn(&state, side, o) {
                break;
            }
            let mut trial = state.clone();
            match rs.apply(&mut trial, side, o, &mut dice) {
                Ok(_) => state = trial,
                // Refused before the first roll: the move is refused.
                Err(_) if dice.count() == 0 => return,
                // After a roll, an order that fails is not carried out.
                Err(_) => {}
            }
        }
        // What the result mails draw.
        let _ = rs.prompt(&state);
        let _ = rs.view(&state, Viewer::Public);
        let _ = rs.view(&state, Viewer::Umpire);
        for i in 0..pos.names.len() {
            let _ = rs.view(&state, Viewer::Side(Side(i as u8)));
        }
    }
}

/// The kind of question a game asks: who, how, and the first words of the
/// ask without numbers (so "turn 3" and "turn 4" are one kind).
fn kind_of(g: &Game) -> String {
    let mut k = String::new();
    for a in g.waiting() {
        let ask: String = a
            .ask
            .split_whitespace()
            .take(4)
            .collect::<Vec<_>>()
            .join(" ")
            .chars()
            .filter(|c| !c.is_ascii_digit())
            .collect();
        k.push_str(&format!("{}:{:?}:{ask};", a.side.0, a.kind));
    }
    if g.prompt().finished.is_some() {
        k.push_str("finished");
    }
    k
}

/// The move played right after `len`: its side and its sections as a
/// player writes them.
fn played_after(g: &Game, len: usize, names: &[String]) -> Option<(Side, String)> {
    let indent =
        |lines: &[String]| -> String { lines.iter().map(|l| format!("  {l}\n")).collect() };
    g.record().entries().get(len..)?.iter().find_map(|e| {
        let (side, text) = match &e.body {
            Body::Move(m) => (&m.side, m.text.value()?.clone()),
            Body::Sealed(s) => match (&s.text, &s.default) {
                (Some(t), _) => (&s.side, t.value()?.clone()),
                (None, Some(d)) => {
                    let i = names.iter().position(|n| n == &s.side)?;
                    return Some((Side(i as u8), format!("orders:\n{}", indent(d.value()?))));
                }
                _ => return None,
            },
            Body::Default(d) => {
                let i = names.iter().position(|n| n == &d.side)?;
                return Some((Side(i as u8), format!("orders:\n{}", indent(&d.orders))));
            }
            _ => return None,
        };
        let i = names.iter().position(|n| n == side)?;
        let file = MoveFile::parse(text.as_bytes()).ok()?;
        let mut body = String::new();
        let lines = |v: &[super::movefile::SourceLine]| -> Vec<String> {
            v.iter().map(|l| l.text.clone()).collect()
        };
        if !file.orders.is_empty() {
            body.push_str(&format!("orders:\n{}", indent(&lines(&file.orders))));
        }
        if let Some(st) = &file.standing {
            body.push_str(&format!("standing:\n{}", indent(&lines(st))));
        }
        Some((Side(i as u8), body))
    })
}

/// Up to `cap` positions of one walk: each new kind of question, and
/// samples in between at a stride that doubles whenever they are too many.
fn positions(
    ruleset: &Arc<dyn DynRuleset>,
    w: &Walk,
    cap: usize,
) -> Result<Vec<Position>, SelfPlayFailure> {
    let options: BTreeMap<String, String> = w.options.iter().cloned().collect();
    let config = SelfPlayConfig {
        max_entries: w.max_entries,
        ..SelfPlayConfig::default()
    };
    let mut names: Option<Arc<Vec<String>>> = None;
    let mut slots = 0;
    let mut kinds = BTreeSet::new();
    let mut kept: Vec<Position> = Vec::new();
    let (mut step, mut stride) = (0usize, 1usize);
    let mut seen = |g: &Game| {
        let names = names
            .get_or_insert_with(|| {
                let n: Vec<String> = g.sides().iter().map(|s| s.name.clone()).collect();
                let setup = Setup {
                    scenario: w.scenario.clone(),
                    options: options.clone(),
                    sides: n.clone(),
                };
                slots = hidden_slots(ruleset.as_ref(), &setup);
                Arc::new(n)
            })
            .clone();
        if let Some(last) = kept.last_mut()
            && last.played.is_none()
        {
            last.played = played_after(g, last.len, &names);
        }
        let new = kinds.insert(kind_of(g));
        let sample = step.is_multiple_of(stride);
        if (new && kept.len() < cap) || sample {
            kept.push(Position {
                state: g.state().clone(),
                names,
                slots,
                awaited: g.waiting().map(|a| a.side).collect(),
                len: g.record().len(),
                played: None,
                sample: !new,
                step,
            });
        }
        while kept.len() > cap && kept.iter().any(|p| p.sample) {
            stride *= 2;
            kept.retain(|p| !p.sample || p.step.is_multiple_of(stride));
        }
        step += 1;
    };
    walk(
        ruleset.clone(),
        &w.scenario,
        &options,
        w.seed,
        &config,
        &mut seen,
    )?;
    kept.truncate(cap);
    Ok(kept)
}
