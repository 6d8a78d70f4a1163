//! Armored `-----BEGIN UMPIRE MOVE-----` blocks in a mail body, and what the
//! poll does with each one found: parse the move and read its signature.
#![no_main]

use libfuzzer_sys::fuzz_target;
use umpire_core::movefile::{MoveFile, find_armored};
use umpire_core::sig::{parse_signature, signer_of};

fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data);
    for a in find_armored(&body) {
        for c in &a.candidates {
            let _ = MoveFile::parse(c);
        }
        let _ = parse_signature(&a.signature);
        let _ = signer_of(&a.signature);
    }
});
