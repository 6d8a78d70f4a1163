//! The SMTP client's wire format: any bytes as the server's replies (read
//! within bounds, never a panic or a hang) and as a message sent through
//! DATA (dot-stuffing and CRLF line ends undo exactly).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| umpire_mail::smtp::fuzz_wire(data));
