//! The `umpire` command. All work happens in the library; see `umpire::cli`.

fn main() {
    // Like any Unix filter: a closed pipe (`umpire record g | head`) ends the
    // process quietly instead of panicking on the next print.
    #[cfg(unix)]
    // SAFETY: called before any thread exists; restores the default action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(umpire::cli::main());
}
