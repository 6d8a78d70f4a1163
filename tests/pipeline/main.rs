//! Mail through the Maildir pipeline (poll → adjudicate → file outbox), and
//! the engine under it: hostile and malformed mail, replays of signed files,
//! crashes mid-poll, deadlines, what a player gets back for each mistake.
//! One module a concern; `cargo test --test pipeline MODULE::`.

mod compact_poll;
mod contained;
mod crash;
mod deadlines;
mod engine;
mod hostile;
mod hostile_sig;
mod parsers;
mod perf_chains;
mod perf_deadlines;
mod pipeline;
mod replays;
mod seats;
mod tampered;
mod ux_acts;
mod ux_columns;
mod ux_end_mail;
mod ux_game_ids;
mod ux_mail;
mod whole_record;
