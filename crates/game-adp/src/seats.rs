//! Who plays which faction (1.5). Four players take a faction each; with two or
//! three, the No-Non-Player option (1.5) gives a player two factions, whose
//! victory counts only when all of them meet their conditions, with the lowest
//! margin as the player's (7.1). A faction no side declares is a Non-player
//! (8.0): it has no key, and the umpire plays it (`super::nonplayer`).

use super::pieces::Faction;
use serde::{Deserialize, Serialize};
use umpire_core::ruleset::Side;

/// The seat map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seats {
    /// Each faction's side (`None`: a Non-player, 8.0: not yet offered).
    pub side_of: [Option<Side>; 4],
    /// The factions each side plays, in faction order.
    pub factions: Vec<Vec<Faction>>,
}

/// A seating mode: a scenario name suffix and the sides it declares.
pub struct Mode {
    /// Suffix of the scenario name (`""`, `-3p`, `-2p`, `-2p-alt`).
    pub suffix: &'static str,
    /// What the mode is, for `umpire rules`.
    pub title: &'static str,
    /// Sides, each with its factions.
    pub sides: &'static [(&'static str, &'static [Faction])],
}

use Faction::*;

/// The seating modes offered (1.5, 8.0).
pub const MODES: [Mode; 8] = [
    Mode {
        suffix: "",
        title: "four players",
        sides: &[
            ("coalition", &[Coalition]),
            ("government", &[Government]),
            ("taliban", &[Taliban]),
            ("warlords", &[Warlords]),
        ],
    },
    Mode {
        suffix: "-3p",
        title: "three players, No-Non-Player: the Coalition player also runs the Warlords (1.5)",
        sides: &[
            ("coalition-warlords", &[Coalition, Warlords]),
            ("government", &[Government]),
            ("taliban", &[Taliban]),
        ],
    },
    Mode {
        suffix: "-2p",
        title: "two players, No-Non-Player: Coalition with Government, Taliban with Warlords (1.5)",
        sides: &[
            ("coin", &[Coalition, Government]),
            ("insurgents", &[Taliban, Warlords]),
        ],
    },
    Mode {
        suffix: "-2p-alt",
        title: "two players, No-Non-Player: Coalition with Warlords, Taliban with Government (1.5)",
        sides: &[
            ("coalition-warlords", &[Coalition, Warlords]),
            ("taliban-government", &[Taliban, Government]),
        ],
    },
    Mode {
        suffix: "-3p-np",
        title: "three players; the Warlords are a Non-player (1.5, 8.0)",
        sides: &[
            ("coalition", &[Coalition]),
            ("government", &[Government]),
            ("taliban", &[Taliban]),
        ],
    },
    Mode {
        suffix: "-2p-np",
        title: "two players, Coalition and Taliban; the Government and the Warlords are Non-players (1.5, 8.0)",
        sides: &[("coalition", &[Coalition]), ("taliban", &[Taliban])],
    },
    Mode {
        suffix: "-1p-coalition",
        title: "one player, the Coalition; the other three are Non-players (1.5, 8.0)",
        sides: &[("coalition", &[Coalition])],
    },
    Mode {
        suffix: "-1p-taliban",
        title: "one player, the Taliban; the other three are Non-players (1.5, 8.0)",
        sides: &[("taliban", &[Taliban])],
    },
];

impl Seats {
    /// The seat map of a mode.
    pub fn of(mode: &Mode) -> Seats {
        let mut side_of = [None; 4];
        let mut factions = Vec::new();
        for (i, (_, fs)) in mode.sides.iter().enumerate() {
            for f in *fs {
                side_of[f.index()] = Some(Side(i as u8));
            }
            factions.push(fs.to_vec());
        }
        Seats { side_of, factions }
    }

    /// Is `f` a Non-player (8.0): no side plays it?
    pub fn is_np(&self, f: Faction) -> bool {
        self.side(f).is_none()
    }

    /// The side playing `f`.
    pub fn side(&self, f: Faction) -> Option<Side> {
        self.side_of[f.index()]
    }

    /// The factions of `side`.
    pub fn factions_of(&self, side: Side) -> &[Faction] {
        self.factions.get(side.index()).map_or(&[], Vec::as_slice)
    }

    /// `side` concedes: its factions become Non-players (ruling A48).
    /// Returns them.
    pub fn concede(&mut self, side: Side) -> Vec<Faction> {
        let gone = self
            .factions
            .get_mut(side.index())
            .map(std::mem::take)
            .unwrap_or_default();
        for f in &gone {
            self.side_of[f.index()] = None;
        }
        gone
    }

    /// Does one player hold both? (No transfers between them, 1.5.)
    pub fn same_player(&self, a: Faction, b: Faction) -> bool {
        self.side(a).is_some() && self.side(a) == self.side(b)
    }
}
