//! The game state: everything that changes during play. Static data stays in
//! [`Data`]. Control is stored, not derived on the fly (ruling A1): it is
//! recomputed after each step, and frozen during Redeploy (6.5).

use super::cards::Modifier;
use super::data::{CardNo, Data, SpaceNo, Support};
use super::deck::Deck;
use super::pieces::{Faction, Piece, Pieces};
use super::propaganda::Round;
use super::seats::Seats;
use super::sequence::CardTurn;
use serde::{Deserialize, Serialize};
use std::ops::{Index, IndexMut};
use umpire_core::ruleset::Outcome;

/// Who Controls a Province or Kabul (1.7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Control {
    /// Neither.
    #[default]
    None,
    /// The COIN factions together.
    Coin,
    /// The Taliban alone.
    Taliban,
}

/// One space's changing state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceState {
    /// The pieces there.
    pub pieces: Pieces,
    /// Support level (1.6).
    pub support: Support,
    /// The stored Control marker (1.7, ruling A1).
    pub control: Control,
    /// Terror markers (3.3.4).
    pub terror: u8,
    /// Sabotage marker, LoCs only (3.3.4).
    pub sabotage: bool,
    /// A +1 Pop Returnees marker (4.3.1).
    pub returnees: bool,
}

/// A lasting effect in play (5.3, 5.4).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lasting {
    /// The card that left it.
    pub card: CardNo,
    /// Its shaded side.
    pub shaded: bool,
    /// The hook it sets.
    pub modifier: Modifier,
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// Before the first card is drawn (2.2): only until the set-up's deal.
    Start,
    /// An Event card is being played (2.3).
    Card(CardTurn),
    /// A Propaganda Round awaits the factions' decisions (6.0).
    Propaganda(Round),
    /// The game is over.
    Over,
}

/// Game options (contested rulings and optional rules).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Sudden Propaganda (2.3.7): a Propaganda card revealed as the next card
    /// swaps places with the current one and its Round comes at once.
    pub sudden_propaganda: bool,
    /// The Victory Deception option (7.3): hidden markers, 2 a player.
    pub deception: bool,
}

/// The whole changing state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct State {
    /// By space.
    pub spaces: Vec<SpaceState>,
    /// The Available boxes (Guerrillas counted Underground, 1.4.3).
    pub available: Pieces,
    /// Coalition pieces in the Casualties box (3.3.3).
    pub casualties: Pieces,
    /// Pieces removed from the game (6.6).
    pub out_of_play: Pieces,
    /// Resources by faction (the Coalition's stays 0: 3.1).
    pub resources: [u8; 4],
    /// Aid (1.8).
    pub aid: u8,
    /// Patronage (1.8).
    pub patronage: u8,
    /// Islamabad box, 0 Hostility .. 4 Sponsorship (6.6.1).
    pub islamabad: u8,
    /// The Islamabad marker's Hard side (6.6.1).
    pub hard: bool,
    /// Eligible for the current card (2.3.1).
    pub eligible: [bool; 4],
    /// Made Ineligible (or kept Eligible) by an Event for the next card (2.3.6).
    pub next_eligibility: [Option<bool>; 4],
    /// The deck and the cards shown.
    pub deck: Deck,
    /// Where play stands.
    pub stage: Stage,
    /// Capabilities in play (5.3).
    pub capabilities: Vec<Lasting>,
    /// Momentum cards in play (5.4).
    pub momentum: Vec<Lasting>,
    /// Which player plays which faction (1.5).
    pub seats: Seats,
    /// Options.
    pub options: Options,
    /// Set when the game ends.
    pub finished: Option<Outcome>,
    /// Standing transfer offers, every side's (1.5.1, digest D5).
    pub standing: Vec<super::transfer::Standing>,
    /// Conditional card orders, every player's, each sealed to its side
    /// (digest D1, D2, D4: `super::conditional`).
    pub cards: Vec<super::conditional::CardOrder>,
    /// The Deception markers, with the option (7.3).
    pub deception: Option<super::deception::Deception>,
}

impl Index<SpaceNo> for State {
    type Output = SpaceState;
    fn index(&self, s: SpaceNo) -> &SpaceState {
        &self.spaces[s.index()]
    }
}

impl IndexMut<SpaceNo> for State {
    fn index_mut(&mut self, s: SpaceNo) -> &mut SpaceState {
        &mut self.spaces[s.index()]
    }
}

impl State {
    /// The opening position of the data's scenario.
    pub fn new(d: &Data, seats: Seats, options: Options, deck: Deck) -> State {
        let sc = &d.scenario;
        let mut spaces = vec![SpaceState::default(); d.spaces.len()];
        for (id, p) in &sc.pieces {
            spaces[id.index()].pieces = *p;
        }
        for (id, s) in &sc.support {
            spaces[id.index()].support = *s;
        }
        let mut st = State {
            spaces,
            available: d.available_at_start(),
            casualties: Pieces::default(),
            out_of_play: Pieces::default(),
            resources: sc.resources,
            aid: sc.aid,
            patronage: sc.patronage,
            islamabad: sc.islamabad,
            hard: false,
            eligible: [true; 4],
            next_eligibility: [None; 4],
            deck,
            stage: Stage::Start,
            capabilities: Vec::new(),
            momentum: Vec::new(),
            seats,
            options,
            finished: None,
            standing: Vec::new(),
            cards: Vec::new(),
            deception: None,
        };
        st.update_control(d);
        st
    }

    /// Recomputes every Control marker (1.7), and at Hostility turns Taliban
    /// Guerrillas in Pakistan Active (6.6.1).
    pub fn update_control(&mut self, d: &Data) {
        if self.islamabad == 0 {
            for id in d.ids().filter(|s| d[*s].is_pakistan()) {
                let p = &mut self[id].pieces;
                p[Piece::TalActive] += p[Piece::TalUnder];
                p[Piece::TalUnder] = 0;
            }
        }
        for id in d.ids() {
            self[id].control = if d[id].has_control() {
                control_of(&self[id].pieces)
            } else {
                Control::None
            };
        }
    }

    /// Population of a space, Returnees included (1.3.2, 4.3.1).
    pub fn pop(&self, d: &Data, s: SpaceNo) -> u8 {
        d[s].pop + u8::from(self[s].returnees)
    }

    /// Terror and Sabotage markers on the map (one pool, ruling A3).
    pub fn markers_on_map(&self) -> u32 {
        self.spaces
            .iter()
            .map(|s| u32::from(s.terror) + u32::from(s.sabotage))
            .sum()
    }

    /// A faction's Resources.
    pub fn res(&self, f: Faction) -> u8 {
        self.resources[f.index()]
    }

    /// Adds to a faction's Resources, capped (1.8, ruling A38).
    pub fn gain(&mut self, d: &Data, f: Faction, n: i32) {
        let r = &mut self.resources[f.index()];
        *r = clamp(i32::from(*r) + n, d.limits.resources_max);
    }

    /// Adds to Aid, capped.
    pub fn add_aid(&mut self, d: &Data, n: i32) {
        self.aid = clamp(i32::from(self.aid) + n, d.limits.aid_max);
    }

    /// Adds to Patronage, capped.
    pub fn add_patronage(&mut self, d: &Data, n: i32) {
        self.patronage = clamp(i32::from(self.patronage) + n, d.limits.patronage_max);
    }

    /// Moves the Islamabad marker `k` boxes (+ toward Sponsorship); past either
    /// end it flips to Hard instead (6.6.1, ruling A28).
    pub fn shift_islamabad(&mut self, k: i32) {
        let target = i32::from(self.islamabad) + k;
        if !(0..=4).contains(&target) {
            self.hard = true;
        }
        self.islamabad = target.clamp(0, 4) as u8;
    }

    /// Is a lasting Forbid in play for `f`'s `activity` (5.3, 5.4)?
    pub fn forbidden(&self, f: Faction, activity: &str) -> Option<CardNo> {
        self.lasting()
            .find(|l| {
                matches!(&l.modifier, Modifier::Forbid { faction, activity: a } if *faction == f && a == activity)
            })
            .map(|l| l.card)
    }

    /// A Cost modifier for `f`'s `op`, if any (the current one wins, 5.1.1).
    pub fn cost_override(&self, f: Faction, op: &str) -> Option<u8> {
        self.lasting()
            .filter_map(|l| match &l.modifier {
                Modifier::Cost {
                    faction,
                    op: o,
                    amount,
                } if *faction == f && o == op => Some(*amount),
                _ => None,
            })
            .last()
    }

    /// Extra removals a space for `f`'s `op`.
    pub fn extra_removals(&self, f: Faction, op: &str) -> u32 {
        self.lasting()
            .filter_map(|l| match &l.modifier {
                Modifier::Removal {
                    faction,
                    op: o,
                    amount,
                } if *faction == f && o == op => Some(u32::from(*amount)),
                _ => None,
            })
            .sum()
    }

    fn lasting(&self) -> impl Iterator<Item = &Lasting> {
        self.capabilities.iter().chain(&self.momentum)
    }

    /// Moves pieces from Available to a space, as many as are Available
    /// (1.4.1); returns how many were placed.
    pub fn place(&mut self, s: SpaceNo, p: Piece, n: u8) -> u8 {
        let avail = avail_slot(p);
        let k = n.min(self.available[avail]);
        self.available[avail] -= k;
        self[s].pieces[p] += k;
        k
    }

    /// Removes pieces from a space to Available (Coalition pieces removed by
    /// Attack go to Casualties instead: `casualty`); returns how many.
    pub fn remove(&mut self, s: SpaceNo, p: Piece, n: u8, casualty: bool) -> u8 {
        let k = n.min(self[s].pieces[p]);
        self[s].pieces[p] -= k;
        let to_casualties = casualty && p.faction() == Faction::Coalition;
        if to_casualties {
            self.casualties[p] += k;
        } else {
            self.available[avail_slot(p)] += k;
        }
        k
    }

    /// Moves pieces between spaces.
    pub fn shift_pieces(&mut self, from: SpaceNo, to: SpaceNo, p: Piece, n: u8) {
        self[from].pieces[p] -= n;
        self[to].pieces[p] += n;
    }
}

/// Available Guerrillas are kept in the Underground slot.
pub fn avail_slot(p: Piece) -> Piece {
    match p {
        Piece::TalActive => Piece::TalUnder,
        Piece::WarActive => Piece::WarUnder,
        other => other,
    }
}

fn clamp(v: i32, max: u8) -> u8 {
    v.clamp(0, i32::from(max)) as u8
}

/// Control from the pieces (1.7): COIN pieces, or Taliban pieces, exceeding
/// all other pieces combined.
pub fn control_of(p: &Pieces) -> Control {
    let coin = p.coin();
    let tal = p.of(Faction::Taliban);
    let total = p.total();
    if coin > total - coin {
        Control::Coin
    } else if tal > total - tal {
        Control::Taliban
    } else {
        Control::None
    }
}
