//! The `umpire` binary by hand: a game played with its commands, OpenSSH
//! interop both ways, import, and what each command answers to a mistake.

mod cli;
mod run;
mod seats;
mod ux_admin;
mod ux_cli;
mod ux_offline;
