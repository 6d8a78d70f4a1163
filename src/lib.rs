//! umpire: a play-by-email adjudicator for board wargames.
//!
//! Layers, top to bottom (imports only point down): `cli` → `service` →
//! `mail` → `store` → `render` → `games` → `core`. See ARCHITECTURE.md.

pub mod core;
pub mod games;
pub mod mail;
pub mod render;
