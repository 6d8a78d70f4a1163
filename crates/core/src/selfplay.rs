//! Self-play for any ruleset: random games played through the real engine.
//!
//! Each game gets fixed-seed keys and a fixed dice chain; every move is a
//! signed move file built from one of the ruleset's `legal` orders, picked by a
//! ChaCha20 PRNG seeded from the game's seed, and submitted with
//! [`Game::submit`], so parsing, signatures, dice and the engine all run as in
//! live play. A side owing a decision it has no order for gets the ruleset's
//! default ([`Game::apply_default`]). A side given no standing orders files
//! one of the ruleset's samples (`Ruleset::standing_samples`), if it offers
//! any, picked by the same PRNG. The ruleset's invariants are checked after
//! every entry, and at the end the exported record is replayed with
//! [`ReplayMode::Verify`] and must reach the same state hash.
//!
//! A failure names the game, its seed and the record entry, and carries the
//! record text, so `random_game` with that seed reproduces it.

use super::dice::die_from_words;
use super::game::{Game, ReplayMode, Secrets, Stored, Verdict, hidden_slots};
use super::hash::Digest;
use super::record::{FORMAT, FORMAT_HIDDEN, Opening, Record, SideDecl};
use super::ruleset::{Await, AwaitKind, DynRuleset, Setup, Side};
use super::sig::{MOVE_NAMESPACE, SecretKey};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use std::sync::Arc;

/// How to play.
#[derive(Debug, Clone)]
pub struct SelfPlayConfig {
    /// Most record entries a game may take before it counts as stuck.
    pub max_entries: u64,
    /// Standing orders each side files before play (by side index), if any;
    /// a side given none files one of the ruleset's samples, if it has any.
    pub standing: Vec<Vec<String>>,
    /// Percent chance of taking the stated default for a pending decision
    /// instead of a random legal answer (defaults are always taken when the
    /// ruleset lists no answer).
    pub default_percent: u32,
    /// Dice chain length per game.
    pub chain_length: u64,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            max_entries: 20_000,
            standing: Vec::new(),
            default_percent: 25,
            chain_length: 4_000,
        }
    }
}

/// What a batch of games did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SelfPlayStats {
    pub games: u32,
    /// Signed moves accepted.
    pub moves: u64,
    /// Defaults applied.
    pub defaults: u64,
    /// Dice rolled.
    pub rolls: u64,
    /// Orders reported as not carried out (a roll made them impossible).
    pub not_carried_out: u64,
    /// Games won, by the winners' names joined with `+` (`draw` for none).
    pub results: BTreeMap<String, u32>,
    /// Outcome summaries, by game.
    pub outcomes: Vec<String>,
}

/// A game that went wrong, with what is needed to reproduce it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("self-play game {game} (seed {seed}), entry {entry}: {message}")]
pub struct SelfPlayFailure {
    pub game: u32,
    /// The game's own seed: `random_game(.., seed, ..)` replays it.
    pub seed: u64,
    /// The record entry (sequence number) reached.
    pub entry: u64,
    pub message: String,
    /// The record so far, as exported text.
    pub record: String,
}

/// One game's seed in a batch (SplitMix64 of the batch seed and the game number).
pub fn game_seed(seed: u64, game: u32) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(u64::from(game) + 1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays `games` random games of `scenario` with default settings.
pub fn run(
    ruleset: Arc<dyn DynRuleset>,
    scenario: &str,
    options: &BTreeMap<String, String>,
    games: u32,
    seed: u64,
) -> Result<SelfPlayStats, SelfPlayFailure> {
    run_with(
        ruleset,
        scenario,
        options,
        games,
        seed,
        &SelfPlayConfig::default(),
    )
}

/// Plays `games` random games with a configuration.
pub fn run_with(
    ruleset: Arc<dyn DynRuleset>,
    scenario: &str,
    options: &BTreeMap<String, String>,
    games: u32,
    seed: u64,
    config: &SelfPlayConfig,
) -> Result<SelfPlayStats, SelfPlayFailure> {
    run_observed(
        ruleset,
        scenario,
        options,
        games,
        seed,
        config,
        &mut |_, _| {},
    )
}

/// [`run_with`], calling `after_game` with the running totals and the game
/// just finished after each game (the CLI draws its progress line from it and
/// saves records with `--save`).
pub fn run_observed(
    ruleset: Arc<dyn DynRuleset>,
    scenario: &str,
    options: &BTreeMap<String, String>,
    games: u32,
    seed: u64,
    config: &SelfPlayConfig,
    after_game: &mut dyn FnMut(&SelfPlayStats, &Game),
) -> Result<SelfPlayStats, SelfPlayFailure> {
    let mut stats = SelfPlayStats::default();
    for g in 0..games {
        let (game, one) = random_game(
            ruleset.clone(),
            scenario,
            options,
            g,
            game_seed(seed, g),
            config,
        )?;
        stats.games += 1;
        stats.moves += one.moves;
        stats.defaults += one.defaults;
        stats.rolls += one.rolls;
        stats.not_carried_out += one.not_carried_out;
        for (k, v) in one.results {
            *stats.results.entry(k).or_insert(0) += v;
        }
        stats.outcomes.extend(one.outcomes);
        after_game(&stats, &game);
    }
    Ok(stats)
}

struct Player {
    rng: ChaCha20Rng,
}

impl Player {
    /// 32 bytes for a key or a secret, tagged by its use.
    fn seed_bytes(&mut self, tag: u8) -> [u8; 32] {
        let mut b = [0u8; 32];
        self.rng.fill_bytes(&mut b);
        b[0] ^= tag;
        b
    }

    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        (die_from_words(&mut || self.rng.next_u32(), n) - 1) as usize
    }
}

/// A new dice chain (and hidden chains) once the game's chain is spent and
/// every position it rolled is revealed, as the umpire publishes one
/// (`service::games::ensure_chain`): long games go on past `chain_length`.
fn spent_chain(
    game: &Game,
    secrets: &Secrets,
    player: &mut Player,
    length: u64,
    slots: usize,
) -> Option<Secrets> {
    let next = game.next_position();
    if next <= secrets.chain.last_position() || !game.unrevealed().is_empty() {
        return None;
    }
    Some(
        Stored {
            top: Digest(player.seed_bytes(203)),
            length,
            base: next - 1,
            master: (slots > 0).then(|| Digest(player.seed_bytes(204))),
            slots,
        }
        .secrets(),
    )
}

fn move_text(game: &Game, side: &str, orders: &[&str], standing: &[String]) -> String {
    let mut s = format!("game: {}\nside: {side}\n", game.id());
    if !orders.is_empty() {
        s.push_str(&format!("after: {}\norders:\n", game.record().head()));
        for o in orders {
            s.push_str("  ");
            s.push_str(o);
            s.push('\n');
        }
    }
    if !standing.is_empty() {
        s.push_str("standing:\n");
        for o in standing {
            s.push_str("  ");
            s.push_str(o);
            s.push('\n');
        }
    }
    s
}

/// Each side's standing orders for one game: its configured lines if any,
/// else one of `samples(side)` drawn with the game's RNG. Nothing is drawn
/// for a side without samples, so a ruleset offering none plays the same
/// games as before the samples existed.
fn pick_standing(
    configured: &[Vec<String>],
    sides: usize,
    samples: impl Fn(Side) -> Vec<Vec<String>>,
    player: &mut Player,
) -> Vec<Vec<String>> {
    (0..sides)
        .map(|i| match configured.get(i) {
            Some(lines) if !lines.is_empty() => lines.clone(),
            _ => {
                let mut offered = samples(Side(i as u8));
                if offered.is_empty() {
                    return Vec::new();
                }
                let k = player.below(offered.len());
                offered.swap_remove(k)
            }
        })
        .collect()
}

/// Plays one random game to its end (or `max_entries`); returns the game and
/// its statistics. `number` only labels failures.
pub fn random_game(
    ruleset: Arc<dyn DynRuleset>,
    scenario: &str,
    options: &BTreeMap<String, String>,
    number: u32,
    seed: u64,
    config: &SelfPlayConfig,
) -> Result<(Game, SelfPlayStats), SelfPlayFailure> {
    random_game_visited(
        ruleset,
        scenario,
        options,
        number,
        seed,
        config,
        &mut |_| {},
    )
}

/// A position a self-played game passes through: the game, and what it
/// takes to sign and submit more moves to a copy of it.
pub struct Position<'a> {
    pub game: &'a Game,
    /// The umpire's dice secrets.
    pub secrets: &'a Secrets,
    /// Each side's key, in side order.
    pub keys: &'a [SecretKey],
}

/// [`random_game`], showing `visit` every position after the set-up and
/// after each entry (tests that look at many real states: the
/// noninterference test).
pub fn random_game_visited(
    ruleset: Arc<dyn DynRuleset>,
    scenario: &str,
    options: &BTreeMap<String, String>,
    number: u32,
    seed: u64,
    config: &SelfPlayConfig,
    visit: &mut dyn FnMut(Position),
) -> Result<(Game, SelfPlayStats), SelfPlayFailure> {
    let mut play = SelfPlay::open(ruleset, scenario, options, number, seed, config)?;
    play.file_standing_orders()?;
    while play.game.prompt().finished.is_none() {
        visit(play.position());
        play.step()?;
    }
    visit(play.position());
    play.tally_outcome();
    play.check_replay()?;
    Ok((play.game, play.stats))
}

/// Plays a random game as [`random_game`] does, but stops after
/// `config.max_entries` entries (not a failure here) and skips the replay
/// check; hands `seen` the game at each position a side is asked to act:
/// before the standing orders are filed, before every step, and at the end.
/// The fuzz targets of the order grammars parse against these positions
/// ([`crate::grammar_fuzz`]).
pub fn walk(
    ruleset: Arc<dyn DynRuleset>,
    scenario: &str,
    options: &BTreeMap<String, String>,
    seed: u64,
    config: &SelfPlayConfig,
    seen: &mut dyn FnMut(&Game),
) -> Result<Game, SelfPlayFailure> {
    let mut play = SelfPlay::open(ruleset, scenario, options, 0, seed, config)?;
    seen(&play.game);
    play.file_standing_orders()?;
    while play.game.prompt().finished.is_none()
        && (play.game.record().len() as u64) < config.max_entries
    {
        seen(&play.game);
        play.step()?;
    }
    seen(&play.game);
    Ok(play.game)
}

/// One self-played game in progress: the engine's game, the secrets the
/// umpire would hold, the sides' keys and the player's PRNG.
struct SelfPlay<'a> {
    ruleset: Arc<dyn DynRuleset>,
    config: &'a SelfPlayConfig,
    number: u32,
    seed: u64,
    player: Player,
    names: Vec<String>,
    keys: Vec<SecretKey>,
    slots: usize,
    secrets: Secrets,
    game: Game,
    stats: SelfPlayStats,
}

/// Every move of a self-played game carries this time.
const AT: &str = "2026-01-01T12:00:00Z";

impl<'a> SelfPlay<'a> {
    /// The game created from its seed: keys, dice chain and opening.
    fn open(
        ruleset: Arc<dyn DynRuleset>,
        scenario: &str,
        options: &BTreeMap<String, String>,
        number: u32,
        seed: u64,
        config: &'a SelfPlayConfig,
    ) -> Result<SelfPlay<'a>, SelfPlayFailure> {
        let mut player = Player {
            rng: ChaCha20Rng::seed_from_u64(seed),
        };
        let fail = |entry: u64, message: String| SelfPlayFailure {
            game: number,
            seed,
            entry,
            message,
            record: String::new(),
        };
        let info = ruleset.info();
        let mut names = info
            .scenarios
            .iter()
            .find(|s| s.name == scenario)
            .map(|s| s.sides.clone())
            .unwrap_or_default();
        if names.is_empty() {
            names = vec!["north".into(), "south".into()];
        }
        let mut keys = Vec::new();
        for (i, n) in names.iter().enumerate() {
            let k = SecretKey::from_seed(&player.seed_bytes(i as u8), &format!("{n}@selfplay"))
                .map_err(|e| fail(0, format!("key: {e}")))?;
            keys.push(k);
        }
        let umpire = SecretKey::from_seed(&player.seed_bytes(200), "umpire@selfplay")
            .map_err(|e| fail(0, format!("key: {e}")))?;
        let setup = Setup {
            scenario: scenario.to_string(),
            options: options.clone(),
            sides: names.clone(),
        };
        let slots = hidden_slots(ruleset.as_ref(), &setup);
        let secrets = Stored {
            top: Digest(player.seed_bytes(201)),
            length: config.chain_length,
            base: 0,
            master: (slots > 0).then(|| Digest(player.seed_bytes(202))),
            slots,
        }
        .secrets();
        let opening = Opening {
            format: if slots > 0 { FORMAT_HIDDEN } else { FORMAT },
            game: format!("selfplay-{number}"),
            ruleset: info.name.clone(),
            ruleset_version: info.version,
            ruleset_data: info.data,
            scenario: scenario.to_string(),
            options: options.clone(),
            sides: names
                .iter()
                .zip(&keys)
                .map(|(n, k)| SideDecl {
                    name: n.clone(),
                    email: format!("{n}@selfplay.test"),
                    key: k.public().to_openssh(),
                })
                .collect(),
            dice: secrets.chain.commitment(),
            hidden: secrets.hidden_commitments(),
            umpire: umpire.public().to_openssh(),
            at: "2026-01-01T00:00:00Z".into(),
        };
        let game = Game::create(ruleset.clone(), opening, &secrets)
            .map_err(|e| fail(e.seq, format!("create: {}", e.error)))?;
        Ok(SelfPlay {
            ruleset,
            config,
            number,
            seed,
            player,
            names,
            keys,
            slots,
            secrets,
            game,
            stats: SelfPlayStats {
                games: 1,
                ..Default::default()
            },
        })
    }

    fn position(&self) -> Position<'_> {
        Position {
            game: &self.game,
            secrets: &self.secrets,
            keys: &self.keys,
        }
    }

    /// A failure at the game's current entry, with its record.
    fn fail(&self, message: String) -> SelfPlayFailure {
        SelfPlayFailure {
            game: self.number,
            seed: self.seed,
            entry: self.game.record().len() as u64,
            message,
            record: self.game.record().to_text(),
        }
    }

    /// Standing orders first, as signed standing-only move files.
    fn file_standing_orders(&mut self) -> Result<(), SelfPlayFailure> {
        let (ruleset, game) = (&self.ruleset, &self.game);
        let standing = pick_standing(
            &self.config.standing,
            self.names.len(),
            |side| ruleset.standing_samples(game.state(), side),
            &mut self.player,
        );
        for (i, lines) in standing.iter().enumerate() {
            if lines.is_empty() || i >= self.names.len() {
                continue;
            }
            let text = move_text(&self.game, &self.names[i], &[], lines);
            match self.submit(i, &text)? {
                Verdict::Accepted { .. } => {}
                other => return Err(self.fail(format!("standing orders refused: {other:?}"))),
            }
        }
        Ok(())
    }

    /// Signs `text` with side `i`'s key and submits it.
    fn submit(&mut self, i: usize, text: &str) -> Result<Verdict, SelfPlayFailure> {
        let sig = self.keys[i]
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .map_err(|e| self.fail(format!("sign: {e}")))?;
        Ok(self.game.submit(text.as_bytes(), &sig, &self.secrets, AT))
    }

    /// One entry: a fresh dice chain if the old is spent, then a random
    /// awaited side answers (a legal order, or its default), and the
    /// invariants still hold.
    fn step(&mut self) -> Result<(), SelfPlayFailure> {
        let config = self.config;
        if self.game.record().len() as u64 >= config.max_entries {
            let stage = &self.game.prompt().stage;
            return Err(self.fail(format!(
                "not finished after {} entries ({stage})",
                config.max_entries
            )));
        }
        let spent = spent_chain(
            &self.game,
            &self.secrets,
            &mut self.player,
            config.chain_length,
            self.slots,
        );
        if let Some(fresh) = spent {
            self.game
                .recommit(&fresh, "the dice chain of this game is used up", AT)
                .map_err(|e| self.fail(format!("recommit: {e}")))?;
            self.secrets = fresh;
        }
        let prompt = self.game.prompt().clone();
        if prompt.awaiting.is_empty() {
            return Err(self.fail(format!(
                "nobody is awaited and the game is not over ({})",
                prompt.stage
            )));
        }
        // A side whose sealed orders for the round are in owes nothing more.
        let waiting: Vec<_> = self.game.waiting().cloned().collect();
        if waiting.is_empty() {
            return Err(self.fail(format!(
                "every awaited side's sealed orders are in, yet the round did not resolve ({})",
                prompt.stage
            )));
        }
        let aw = waiting[self.player.below(waiting.len())].clone();
        let legal = self.ruleset.legal_moves(self.game.state(), aw.side);
        let take_default = legal.is_empty()
            || (aw.kind == AwaitKind::Decision
                && self.player.below(100) < config.default_percent as usize);
        if take_default {
            self.take_default(&aw)?;
        } else {
            let pick = legal[self.player.below(legal.len())].clone();
            self.play_order(aw.side, &pick)?;
        }
        if let Err(e) = self.ruleset.invariants(self.game.state()) {
            return Err(self.fail(format!("invariant broken: {e}")));
        }
        Ok(())
    }

    /// The awaited side's default, as a deadline would apply it.
    fn take_default(&mut self, aw: &Await) -> Result<(), SelfPlayFailure> {
        let side = aw.side;
        if aw.default.is_empty() {
            return Err(self.fail(format!(
                "{} owes {:?} with no legal order and no default ({})",
                self.names[side.index()],
                aw.kind,
                aw.ask
            )));
        }
        let applied =
            self.game
                .apply_default(side, "self-play: deadline passed", &self.secrets, AT);
        applied.map_err(|e| self.fail(format!("default {:?} failed: {e}", aw.default)))?;
        self.stats.defaults += 1;
        self.stats.rolls += self.game.last_report().1.rolls.len() as u64;
        Ok(())
    }

    /// `pick`, one of the side's legal orders, as a signed move file; the
    /// engine must accept it (or seal it).
    fn play_order(&mut self, side: Side, pick: &str) -> Result<(), SelfPlayFailure> {
        let lines: Vec<&str> = pick.lines().collect();
        let text = move_text(&self.game, &self.names[side.index()], &lines, &[]);
        match self.submit(side.index(), &text)? {
            Verdict::Accepted { report, .. } => {
                self.stats.moves += 1;
                self.stats.rolls += report.rolls.len() as u64;
                self.stats.not_carried_out +=
                    report.orders.iter().filter(|o| o.outcome.is_err()).count() as u64;
            }
            Verdict::Sealed { resolved, .. } => {
                self.stats.moves += 1;
                if let Some(seq) = resolved
                    && let Some(r) = self.game.report(seq)
                {
                    self.stats.rolls += r.rolls.len() as u64;
                    self.stats.not_carried_out += r
                        .round
                        .iter()
                        .flat_map(|p| &p.orders)
                        .filter(|o| o.outcome.is_err())
                        .count() as u64;
                }
            }
            Verdict::Rejected { rejection, .. } => {
                return Err(self.fail(format!(
                    "a legal order was refused: {pick:?}: {}",
                    rejection.reason
                )));
            }
            other => {
                return Err(self.fail(format!("unexpected verdict {other:?} for {pick:?}")));
            }
        }
        Ok(())
    }

    /// The finished game's result, counted by its winners' names.
    fn tally_outcome(&mut self) {
        let outcome =
            self.game
                .prompt()
                .finished
                .clone()
                .unwrap_or_else(|| super::ruleset::Outcome {
                    winners: vec![],
                    summary: String::new(),
                });
        let key = if outcome.winners.is_empty() {
            "draw".to_string()
        } else {
            outcome
                .winners
                .iter()
                .map(|s| self.names.get(s.index()).cloned().unwrap_or_default())
                .collect::<Vec<_>>()
                .join("+")
        };
        self.stats.results.insert(key, 1);
        self.stats.outcomes.push(outcome.summary);
    }

    /// The record replays, verified, to the same state.
    fn check_replay(&self) -> Result<(), SelfPlayFailure> {
        let record = Record::from_text(&self.game.record().to_text())
            .map_err(|e| self.fail(format!("export: {e}")))?;
        let (again, _) =
            Game::replay(self.ruleset.clone(), &record, ReplayMode::Verify).map_err(|e| {
                SelfPlayFailure {
                    entry: e.seq,
                    ..self.fail(format!("replay: {}", e.error))
                }
            })?;
        let hash = |g: &Game| g.state().hash().map_err(|e| e.to_string());
        let (replayed, live) = (hash(&again), hash(&self.game));
        if replayed != live || replayed.is_err() {
            return Err(self.fail(format!(
                "replay reaches state {replayed:?}, live play {live:?}"
            )));
        }
        Ok(())
    }
}

/// Plays one random game ([`random_game_visited`]) and, at every `every`-th
/// position and the last, restores the game from the store's snapshot of
/// its head and replays its record ([`crate::game::check_restores`]: the
/// same state hash, prompt and engine fields), then gives the restored and
/// the replayed game the action the game took next (a move, sealed orders
/// or a default) and checks that both append the entries the game did.
/// Returns how many positions were checked and how many next actions.
pub fn check_snapshots(
    ruleset: Arc<dyn DynRuleset>,
    scenario: &str,
    options: &BTreeMap<String, String>,
    seed: u64,
    every: usize,
    config: &SelfPlayConfig,
) -> Result<(usize, usize), String> {
    let mut pending: Option<(Game, Game, Secrets, usize)> = None;
    let (mut checked, mut acted, mut at) = (0, 0, 0usize);
    let mut failed = None;
    random_game_visited(ruleset, scenario, options, 0, seed, config, &mut |p| {
        if failed.is_some() {
            return;
        }
        if let Some((r, q, secrets, len)) = pending.take() {
            match same_next(r, q, &secrets, p.game, len) {
                Ok(true) => acted += 1,
                Ok(false) => {}
                Err(e) => failed = Some(e),
            }
        }
        at += 1;
        if at % every.max(1) != 0 && p.game.prompt().finished.is_none() {
            return;
        }
        match crate::game::check_restores(p.game) {
            Ok(Some((r, q))) => {
                checked += 1;
                pending = Some((r, q, p.secrets.clone(), p.game.record().len()));
            }
            Ok(None) => failed = Some("the game keeps no snapshot".to_string()),
            Err(e) => failed = Some(e),
        }
    })
    .map_err(|e| e.to_string())?;
    match failed {
        Some(e) => Err(e),
        None => Ok((checked, acted)),
    }
}

/// Gives `restored` and `replayed` the action `live` took at entry `len`;
/// `Ok(false)` when it is none a copy can be given (an act, a refusal...).
fn same_next(
    mut restored: Game,
    mut replayed: Game,
    secrets: &Secrets,
    live: &Game,
    len: usize,
) -> Result<bool, String> {
    use crate::record::Body;
    let Some(e) = live.record().entries().get(len) else {
        return Ok(false);
    };
    let act = |g: &mut Game| -> Result<(), String> {
        match &e.body {
            Body::Move(m) => {
                let (Some(t), Some(s)) = (m.text.value(), m.signature.value()) else {
                    return Err("a sealed move text".into());
                };
                g.submit(t.as_bytes(), s, secrets, &m.at);
            }
            Body::Sealed(x) => {
                let t = x.text.as_ref().and_then(|t| t.value());
                let s = x.signature.as_ref().and_then(|s| s.value());
                if let (Some(t), Some(s)) = (t, s) {
                    g.submit(t.as_bytes(), s, secrets, &x.at);
                } else if let Some(side) = g.side(&x.side) {
                    let reason = x.reason.as_deref().unwrap_or("");
                    g.apply_default(side, reason, secrets, &x.at)
                        .map_err(|e| e.to_string())?;
                }
            }
            Body::Default(d) => {
                let side = g.side(&d.side).ok_or("no such side")?;
                g.apply_default(side, &d.reason, secrets, &d.at)
                    .map_err(|e| e.to_string())?;
            }
            _ => {}
        }
        Ok(())
    };
    if !matches!(e.body, Body::Move(_) | Body::Sealed(_) | Body::Default(_)) {
        return Ok(false);
    }
    act(&mut restored)?;
    act(&mut replayed)?;
    let n = restored.record().len().min(live.record().len());
    let heads = |g: &Game| -> Vec<Digest> {
        let entries = g.record().entries();
        entries[len.min(entries.len())..n.min(entries.len())]
            .iter()
            .map(|e| e.hash)
            .collect()
    };
    let want = heads(live);
    if n <= len
        || heads(&restored) != want
        || heads(&replayed) != want
        || replayed.record().len() != restored.record().len()
    {
        return Err(format!(
            "the next action at entry {len} appends other entries to the restored game"
        ));
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picks(seed: u64, configured: &[Vec<String>], n: usize) -> (Vec<Vec<String>>, u32) {
        let mut player = Player {
            rng: ChaCha20Rng::seed_from_u64(seed),
        };
        let samples = |side: Side| {
            (0..n)
                .map(|k| vec![format!("side {} sample {k}", side.0)])
                .collect()
        };
        let got = pick_standing(configured, 2, samples, &mut player);
        (got, player.rng.next_u32())
    }

    /// The samples a side gets are the seed's: the same seed picks the same
    /// ones, configured standing orders win, and with no samples nothing is
    /// drawn (the game's later choices are unchanged).
    #[test]
    fn standing_samples_are_picked_by_the_seed() {
        let (a, _) = picks(7, &[], 50);
        assert_eq!(a, picks(7, &[], 50).0);
        assert_eq!(a.len(), 2);
        assert!(a[0][0].starts_with("side 0 ") && a[1][0].starts_with("side 1 "));
        let all: std::collections::BTreeSet<_> = (0..20).map(|s| picks(s, &[], 50).0).collect();
        assert!(all.len() > 1, "the seed never changed the pick");
        let mine = vec![vec!["mine".to_string()]];
        let (b, _) = picks(7, &mine, 50);
        assert_eq!(b[0], mine[0]);
        assert!(b[1][0].starts_with("side 1 "));
        let (none, next) = picks(7, &[], 0);
        assert_eq!(none, vec![Vec::<String>::new(); 2]);
        assert_eq!(next, ChaCha20Rng::seed_from_u64(7).next_u32());
    }

    #[test]
    fn game_seeds_differ() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }
}
