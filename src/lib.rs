//! umpire: a play-by-email adjudicator for board wargames.
//!
//! Layers, top to bottom (imports only point down): `cli` → `service` →
//! `mail`, `store`, `render`, `games` → `core`, each layer a crate in
//! `crates/`. See ARCHITECTURE.md.

/// The allocator of every binary built on the library (the command, the tests,
/// the benchmarks). A poll runs four threads that allocate and free each
/// other's memory (read-ahead, adjudication, sealing, commits); glibc's
/// malloc made them queue on its arena locks, a third of a poll of 1,000
/// mails with one arena and more memory with many (issue 13).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod cli;

// The layers are crates of their own (crates/), so the compiler keeps each
// to what it may import; the library re-exports them under the names the
// command, the tests and the benchmarks use.
pub use umpire_core as core;
pub use umpire_games as games;
pub use umpire_mail as mail;
pub use umpire_render as render;
pub use umpire_service as service;
pub use umpire_store as store;
