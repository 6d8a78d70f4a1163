//! MIME intake as the poll runs it: read the mail, find its moves (attachment
//! pairs and armored blocks), parse each, read each signature.
#![no_main]

use libfuzzer_sys::fuzz_target;
use umpire_core::movefile::MoveFile;
use umpire_core::sig::signer_of;
use umpire_mail::mime;

fuzz_target!(|data: &[u8]| {
    let Ok(mail) = mime::read(data) else { return };
    let _ = mime::looks_like_unsigned_move(&mail);
    for m in mime::moves(&mail) {
        for c in &m.candidates {
            let _ = MoveFile::parse(c);
        }
        if let Some(s) = &m.signature {
            let _ = signer_of(s);
        }
    }
});
