//! The `umpire` command. All work happens in the library; see `umpire::cli`.

fn main() {
    std::process::exit(umpire::cli::main());
}
