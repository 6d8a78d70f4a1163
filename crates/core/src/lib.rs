//! Game-agnostic foundations: hashes, signatures, dice, move files, records,
//! the ruleset contract, replay, and grid geometry. Imports nothing above it.

pub mod act;
pub mod audience;
pub mod audit;
pub mod board;
pub mod canon;
pub mod data;
pub mod deck;
pub mod dice;
pub mod ed25519_batch;
pub mod game;
#[doc(hidden)]
pub mod grammar_fuzz;
pub mod hash;
pub mod hex;
pub mod movefile;
pub mod par;
pub mod path;
pub mod press;
pub mod record;
pub mod ruleset;
pub mod sealed;
pub mod seat;
pub mod segment;
pub mod selfplay;
pub mod sig;
pub mod square;
pub mod state_json;
pub mod suggest;
pub mod twin;
