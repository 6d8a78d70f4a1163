//! `umpire.toml`: any text is a configuration or a clear error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use umpire_config::Config;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(c) = Config::from_text(text) {
        let _ = c.domain();
    }
});
