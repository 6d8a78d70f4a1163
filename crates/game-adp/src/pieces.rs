//! Factions, piece types and a counted set of pieces (1.4, 1.5).

use serde::{Deserialize, Serialize};
use std::ops::{Index, IndexMut};

/// The four factions (1.5), in side order for four players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Faction {
    /// The US-led Coalition (COIN); pays with Government Resources (3.1).
    Coalition,
    /// The Afghan Government (COIN).
    Government,
    /// The Taliban (Insurgent).
    Taliban,
    /// The Warlords (Insurgent).
    Warlords,
}

impl Faction {
    /// All four, in side order.
    pub const ALL: [Faction; 4] = [
        Faction::Coalition,
        Faction::Government,
        Faction::Taliban,
        Faction::Warlords,
    ];

    /// Index 0-3.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Lower-case name, as in orders.
    pub fn key(self) -> &'static str {
        ["coalition", "government", "taliban", "warlords"][self as usize]
    }

    /// Display name.
    pub fn name(self) -> &'static str {
        ["Coalition", "Government", "Taliban", "Warlords"][self as usize]
    }

    /// One letter, as in card faction orders.
    pub fn letter(self) -> char {
        ['c', 'g', 't', 'w'][self as usize]
    }

    /// Coalition or Government (1.5).
    pub fn is_coin(self) -> bool {
        matches!(self, Faction::Coalition | Faction::Government)
    }

    /// Reads a name or letter.
    pub fn parse(s: &str) -> Option<Faction> {
        match s.to_ascii_lowercase().as_str() {
            "coalition" | "c" | "us" => Some(Faction::Coalition),
            "government" | "g" | "gov" => Some(Faction::Government),
            "taliban" | "t" => Some(Faction::Taliban),
            "warlords" | "warlord" | "w" => Some(Faction::Warlords),
            _ => None,
        }
    }

    /// Enemy pieces for this faction (1.5): Insurgents are enemy to all others,
    /// the COIN factions to the Insurgents.
    pub fn is_enemy(self, other: Faction) -> bool {
        self != other && !(self.is_coin() && other.is_coin())
    }
}

/// A kind of piece as the data counts them (1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Kind {
    /// Troops (Coalition or Government cubes).
    Troops,
    /// Police (Government cubes).
    Police,
    /// A Base.
    Base,
    /// Guerrillas (Taliban or Warlords).
    Guerrilla,
}

impl Kind {
    /// Reads a kind name (singular or plural).
    pub fn parse(s: &str) -> Option<Kind> {
        match s.to_ascii_lowercase().as_str() {
            "troops" | "troop" => Some(Kind::Troops),
            "police" => Some(Kind::Police),
            "base" | "bases" => Some(Kind::Base),
            "guerrilla" | "guerrillas" | "g" => Some(Kind::Guerrilla),
            _ => None,
        }
    }

    /// Lower-case name.
    pub fn key(self) -> &'static str {
        ["troops", "police", "base", "guerrilla"][self as usize]
    }
}

/// One piece type on the map, Underground/Active state included (1.4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Piece {
    /// Coalition Troops.
    CoalTroops,
    /// Coalition Base.
    CoalBase,
    /// Government Troops.
    GovTroops,
    /// Government Police.
    Police,
    /// Government Base.
    GovBase,
    /// Taliban Guerrilla, Underground.
    TalUnder,
    /// Taliban Guerrilla, Active.
    TalActive,
    /// Taliban Base.
    TalBase,
    /// Warlord Guerrilla, Underground.
    WarUnder,
    /// Warlord Guerrilla, Active.
    WarActive,
    /// Warlord Base.
    WarBase,
}

impl Piece {
    /// All, in display order.
    pub const ALL: [Piece; 11] = [
        Piece::CoalTroops,
        Piece::CoalBase,
        Piece::GovTroops,
        Piece::Police,
        Piece::GovBase,
        Piece::TalUnder,
        Piece::TalActive,
        Piece::TalBase,
        Piece::WarUnder,
        Piece::WarActive,
        Piece::WarBase,
    ];

    /// Whose piece it is.
    pub fn faction(self) -> Faction {
        use Piece::*;
        match self {
            CoalTroops | CoalBase => Faction::Coalition,
            GovTroops | Police | GovBase => Faction::Government,
            TalUnder | TalActive | TalBase => Faction::Taliban,
            WarUnder | WarActive | WarBase => Faction::Warlords,
        }
    }

    /// Its kind.
    pub fn kind(self) -> Kind {
        use Piece::*;
        match self {
            CoalTroops | GovTroops => Kind::Troops,
            Police => Kind::Police,
            CoalBase | GovBase | TalBase | WarBase => Kind::Base,
            TalUnder | TalActive | WarUnder | WarActive => Kind::Guerrilla,
        }
    }

    /// The piece of `f` and `k` (Guerrillas: the Underground one, as placed, 1.4.3).
    pub fn of(f: Faction, k: Kind) -> Option<Piece> {
        use Piece::*;
        Some(match (f, k) {
            (Faction::Coalition, Kind::Troops) => CoalTroops,
            (Faction::Coalition, Kind::Base) => CoalBase,
            (Faction::Government, Kind::Troops) => GovTroops,
            (Faction::Government, Kind::Police) => Police,
            (Faction::Government, Kind::Base) => GovBase,
            (Faction::Taliban, Kind::Guerrilla) => TalUnder,
            (Faction::Taliban, Kind::Base) => TalBase,
            (Faction::Warlords, Kind::Guerrilla) => WarUnder,
            (Faction::Warlords, Kind::Base) => WarBase,
            _ => return None,
        })
    }

    /// The faction's Base.
    pub fn base(f: Faction) -> Piece {
        [
            Piece::CoalBase,
            Piece::GovBase,
            Piece::TalBase,
            Piece::WarBase,
        ][f.index()]
    }

    /// An Insurgent's Underground and Active Guerrillas.
    pub fn guerrillas(f: Faction) -> Option<(Piece, Piece)> {
        match f {
            Faction::Taliban => Some((Piece::TalUnder, Piece::TalActive)),
            Faction::Warlords => Some((Piece::WarUnder, Piece::WarActive)),
            _ => None,
        }
    }

    /// Short label for the map and status, e.g. `Tg*` (Underground marked `*`).
    pub fn label(self) -> &'static str {
        [
            "Ct", "CB", "Gt", "Gp", "GB", "Tg*", "Tg", "TB", "Wg*", "Wg", "WB",
        ][self as usize]
    }
}

/// A count of each piece type: the contents of a space or a box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pieces(pub [u8; 11]);

impl Index<Piece> for Pieces {
    type Output = u8;
    fn index(&self, p: Piece) -> &u8 {
        &self.0[p as usize]
    }
}

impl IndexMut<Piece> for Pieces {
    fn index_mut(&mut self, p: Piece) -> &mut u8 {
        &mut self.0[p as usize]
    }
}

impl Pieces {
    /// All pieces of a faction.
    pub fn of(&self, f: Faction) -> u32 {
        Piece::ALL
            .iter()
            .filter(|p| p.faction() == f)
            .map(|p| u32::from(self[*p]))
            .sum()
    }

    /// Every piece.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|n| u32::from(*n)).sum()
    }

    /// COIN pieces (Coalition + Government).
    pub fn coin(&self) -> u32 {
        self.of(Faction::Coalition) + self.of(Faction::Government)
    }

    /// Government cubes (Troops + Police).
    pub fn gov_cubes(&self) -> u32 {
        u32::from(self[Piece::GovTroops]) + u32::from(self[Piece::Police])
    }

    /// Cubes of both COIN factions.
    pub fn cubes(&self) -> u32 {
        self.gov_cubes() + u32::from(self[Piece::CoalTroops])
    }

    /// An Insurgent's Guerrillas, both states.
    pub fn guerrillas(&self, f: Faction) -> u32 {
        Piece::guerrillas(f).map_or(0, |(u, a)| u32::from(self[u]) + u32::from(self[a]))
    }

    /// Bases of every faction.
    pub fn bases(&self) -> u32 {
        Faction::ALL
            .iter()
            .map(|f| u32::from(self[Piece::base(*f)]))
            .sum()
    }

    /// Pieces of factions that are enemies of `f` (1.5).
    pub fn enemies_of(&self, f: Faction) -> u32 {
        Faction::ALL
            .iter()
            .filter(|o| f.is_enemy(**o))
            .map(|o| self.of(*o))
            .sum()
    }
}
