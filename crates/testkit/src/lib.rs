//! What the tests share: keys from fixed seeds, a game at its opening with
//! its dice secrets ([`Table`]), signed moves, and (feature `mail`) the mails
//! that carry them and the outbox they answer into.
//!
//! A dev-dependency only. The game crates take it bare, so their tests link
//! the ruleset and core alone; the root package's tests add `mail` and
//! `registry` (a ruleset by name) and `service` (a club's data directory with
//! a game in it). Feature `render` gives a game's tests the map renderer
//! (`umpire_testkit::render`) without the game naming it.

#[cfg(feature = "render")]
pub use umpire_render as render;

use std::collections::BTreeMap;
use std::sync::Arc;
use umpire_core::dice::SCHEME;
use umpire_core::game::{Game, Secrets, Stored, hidden_slots};
use umpire_core::hash::Digest;
use umpire_core::record::{FORMAT, FORMAT_HIDDEN, Opening, SideDecl};
use umpire_core::ruleset::Setup;
use umpire_core::sig::{MOVE_NAMESPACE, SecretKey};

/// A game at its opening, with what it takes to play it: the dice secrets,
/// each side's key (side `i` has [`key`]`(i + 1)`) and the umpire's.
pub struct Table {
    pub game: Game,
    /// The game's dice secrets (the public chain, and hidden streams where the game hides something).
    pub chain: Secrets,
    pub keys: Vec<SecretKey>,
    pub umpire: SecretKey,
}

/// The key of player `n` (`player{n}@club.test`), the same in every run.
pub fn key(n: u8) -> SecretKey {
    SecretKey::from_seed(&[n; 32], &format!("player{n}@club.test")).unwrap()
}

/// A game of `ruleset` with sides named as given, keys from fixed seeds.
#[cfg(feature = "registry")]
pub fn table(ruleset: &str, scenario: &str, sides: &[&str], options: &[(&str, &str)]) -> Table {
    let rs = umpire_games::find(ruleset).expect("ruleset");
    table_with(rs, ruleset, scenario, sides, options)
}

/// [`table`] under a given ruleset (an earlier version of one, say).
pub fn table_with(
    rs: std::sync::Arc<dyn umpire_core::ruleset::DynRuleset>,
    ruleset: &str,
    scenario: &str,
    sides: &[&str],
    options: &[(&str, &str)],
) -> Table {
    table_format(rs, ruleset, scenario, sides, options, 0)
}

/// [`table_with`] writing an opening of record `format` (0: today's for
/// the game, format 1 or the hidden one).
pub fn table_format(
    rs: std::sync::Arc<dyn umpire_core::ruleset::DynRuleset>,
    ruleset: &str,
    scenario: &str,
    sides: &[&str],
    options: &[(&str, &str)],
    format: u32,
) -> Table {
    let options: BTreeMap<String, String> = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let setup = Setup {
        scenario: scenario.into(),
        options: options.clone(),
        sides: sides.iter().map(|s| s.to_string()).collect(),
    };
    let slots = hidden_slots(rs.as_ref(), &setup);
    let chain = Stored {
        top: Digest([77; 32]),
        length: 5000,
        base: 0,
        master: (slots > 0).then_some(Digest([78; 32])),
        slots,
    }
    .secrets();
    let keys: Vec<SecretKey> = (0..sides.len()).map(|i| key(i as u8 + 1)).collect();
    let umpire = key(200);
    let opening = Opening {
        format: match (format, slots) {
            (0, 0) => FORMAT,
            (0, _) => FORMAT_HIDDEN,
            (f, _) => f,
        },
        game: "g1".into(),
        ruleset: ruleset.into(),
        ruleset_version: rs.info().version,
        ruleset_data: rs.info().data,
        scenario: scenario.into(),
        options,
        sides: sides
            .iter()
            .zip(&keys)
            .map(|(n, k)| SideDecl {
                name: n.to_string(),
                email: format!("{n}@club.test"),
                key: k.public().to_openssh(),
            })
            .collect(),
        dice: chain.chain.commitment(),
        hidden: chain.hidden_commitments(),
        umpire: umpire.public().to_openssh(),
        at: "2026-11-29T00:00:00Z".into(),
    };
    assert_eq!(opening.dice.scheme, SCHEME);
    let game = Game::create(rs, opening, &chain).expect("create");
    Table {
        game,
        chain,
        keys,
        umpire,
    }
}

impl Table {
    /// A move file for `side` after the current head.
    pub fn move_text(&self, side: &str, orders: &[&str]) -> String {
        let mut s = format!(
            "game: g1\nside: {side}\nafter: {}\norders:\n",
            self.game.record().head()
        );
        for o in orders {
            s.push_str("  ");
            s.push_str(o);
            s.push('\n');
        }
        s
    }

    /// `text` signed as a move by side `side_index`.
    pub fn sign(&self, side_index: usize, text: &str) -> String {
        self.keys[side_index]
            .sign(MOVE_NAMESPACE, text.as_bytes())
            .unwrap()
    }

    /// Signs and submits; returns the verdict.
    pub fn play(&mut self, side_index: usize, orders: &[&str]) -> umpire_core::game::Verdict {
        let name = self.game.sides()[side_index].name.clone();
        let text = self.move_text(&name, orders);
        let sig = self.sign(side_index, &text);
        self.game
            .submit(text.as_bytes(), &sig, &self.chain, "2026-11-29T12:00:00Z")
    }

    /// The game's ruleset, shared.
    pub fn shared(&self) -> Arc<dyn umpire_core::ruleset::DynRuleset> {
        self.game.ruleset().clone()
    }
}

#[cfg(feature = "mail")]
/// A player's mail carrying a signed move: as an attachment pair, or armored in the body.
pub fn move_mail(from: &str, to: &str, n: u64, text: &str, sig: &str, armored: bool) -> Vec<u8> {
    use umpire_mail::mime::{Compose, build};
    let (body, attachments) = if armored {
        (
            format!(
                "My move:\n\n{}",
                umpire_core::movefile::armor(text.as_bytes(), sig)
            ),
            vec![],
        )
    } else {
        (
            "Move attached.\n".to_string(),
            vec![
                (
                    "move.txt".to_string(),
                    "text/plain".to_string(),
                    text.as_bytes().to_vec(),
                ),
                (
                    "move.txt.sig".to_string(),
                    "application/octet-stream".to_string(),
                    sig.as_bytes().to_vec(),
                ),
            ],
        )
    };
    build(&Compose {
        from_name: "Player".into(),
        from: from.into(),
        to: vec![to.into()],
        subject: "move".into(),
        message_id: format!("<m{n}.{}@club.test>", from.split('@').next().unwrap_or("x")),
        in_reply_to: None,
        references: vec![],
        text: body,
        attachments,
        auto_submitted: "no",
        headers: vec![],
        date: std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000 + n * 60),
    })
    .unwrap()
}

#[cfg(feature = "mail")]
/// A plain mail with a body and optional extra headers.
pub fn plain_mail(from: &str, to: &str, n: u64, body: &str, headers: &[(&str, &str)]) -> Vec<u8> {
    use umpire_mail::mime::{Compose, build};
    build(&Compose {
        from_name: "Someone".into(),
        from: from.into(),
        to: vec![to.into()],
        subject: "hello".into(),
        message_id: format!("<p{n}@club.test>"),
        in_reply_to: None,
        references: vec![],
        text: body.into(),
        attachments: vec![],
        auto_submitted: "no",
        headers: headers
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect(),
        date: std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_800_000_000 + n * 60),
    })
    .unwrap()
}

#[cfg(feature = "mail")]
/// Every .eml in a folder, by file name, decoded.
pub fn outbox(
    dir: &std::path::Path,
) -> std::collections::BTreeMap<String, umpire_mail::mime::ReadMail> {
    let mut m = std::collections::BTreeMap::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".eml") {
                let raw = std::fs::read(e.path()).unwrap();
                m.insert(name, umpire_mail::mime::read(&raw).unwrap());
            }
        }
    }
    m
}

/// Copies a folder tree (a data directory, for crash and benchmark runs).
pub fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

/// Sides for `NewGame`: each name plays as `name@club.test` with key `i + 1`.
pub fn declared(names: &[&str]) -> Vec<(String, String, String)> {
    names
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                s.to_string(),
                format!("{s}@club.test"),
                key(i as u8 + 1).public_line(),
            )
        })
        .collect()
}

/// Game `id` as the tests declare it: sides named as given, each playing as
/// `name@club.test` with key `i + 1` ([`declared`]), no deadlines or time
/// zones of its own.
#[cfg(feature = "service")]
pub fn new_game(
    id: &str,
    ruleset: &str,
    scenario: &str,
    sides: &[&str],
    options: &[(&str, &str)],
) -> umpire_service::games::NewGame {
    umpire_service::games::NewGame {
        id: id.into(),
        ruleset: ruleset.into(),
        scenario: scenario.into(),
        options: options
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        deadlines: None,
        time_zones: BTreeMap::new(),
        sides: declared(sides),
    }
}

/// A club's data directory in `dir` (the umpire `umpire@club.test`, the
/// default configuration) holding `game`, created at `now`; its opening
/// mails wait in the outbox.
#[cfg(feature = "service")]
pub fn umpire_with_game(
    dir: &std::path::Path,
    game: umpire_service::games::NewGame,
    now: jiff::Timestamp,
) -> umpire_service::Umpire {
    umpire_service::Umpire::init(dir, "umpire@club.test").unwrap();
    let mut umpire = umpire_service::Umpire::open(dir).unwrap();
    umpire.create_game(game, now).unwrap();
    umpire
}
