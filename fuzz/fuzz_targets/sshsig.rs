//! The SSHSIG blob: read exactly (`check_blob`), and the armored form around
//! it read and used to verify, as a move's signature is.
#![no_main]

use base64::Engine as _;
use libfuzzer_sys::fuzz_target;
use umpire_core::sig::{check_blob, parse_signature, signer_of};

fuzz_target!(|data: &[u8]| {
    let strict = check_blob(data).is_ok();
    let b64 = base64::engine::general_purpose::STANDARD.encode(data);
    let mut armored = String::from("-----BEGIN SSH SIGNATURE-----\n");
    for chunk in b64.as_bytes().chunks(70) {
        armored.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        armored.push('\n');
    }
    armored.push_str("-----END SSH SIGNATURE-----\n");
    let parsed = parse_signature(&armored).is_ok();
    // Nothing the strict reader refuses gets through the armored path.
    assert!(
        strict || !parsed,
        "parse_signature accepted a blob check_blob refuses"
    );
    if let Ok(key) = signer_of(&armored) {
        let _ = key.verify("umpire-move", b"game: g\n", &armored);
    }
});
