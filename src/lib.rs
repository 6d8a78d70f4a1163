//! umpire: a play-by-email adjudicator for board wargames.
//!
//! Layers, top to bottom (imports only point down): `cli` → `service` →
//! `mail` → `store` → `render` → `games` → `core`. See ARCHITECTURE.md.

/// The allocator of every binary built on the library (the command, the tests,
/// the benchmarks). A poll runs four threads that allocate and free each
/// other's memory (read-ahead, adjudication, sealing, commits); glibc's
/// malloc made them queue on its arena locks, a third of a poll of 1,000
/// mails with one arena and more memory with many (issue 13).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod cli;
pub mod core;
pub mod games;
pub mod mail;
pub mod render;
pub mod service;
pub mod store;
