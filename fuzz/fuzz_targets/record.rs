//! Record import and verify: the text form read back, then (as `umpire verify`
//! and `umpire import` do) a complete record replayed in verify mode through
//! its ruleset, or a side's copy audited.
#![no_main]

use libfuzzer_sys::fuzz_target;
use umpire_core::audit::audit;
use umpire_core::game::{Game, ReplayMode};
use umpire_core::record::Record;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(record) = Record::from_text(text) else {
        return;
    };
    if !record.is_complete() {
        let _ = audit(&record);
        return;
    }
    let Some(o) = record.opening() else { return };
    let Some(ruleset) = umpire_games::find(&o.ruleset) else {
        return;
    };
    let _ = Game::replay(ruleset, &record, ReplayMode::Verify);
});
