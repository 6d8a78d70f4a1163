//! The hand-written move-file parser: any bytes, at most an error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use umpire_core::movefile::MoveFile;

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = MoveFile::parse(data) {
        // What the poll does next with a parsed file: the ids are checked.
        let _ = umpire_core::movefile::check_game_id(&m.game);
        let _ = umpire_core::movefile::check_side_name(&m.side);
    }
});
