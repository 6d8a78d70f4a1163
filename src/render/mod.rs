//! Rendering what a side sees: ASCII hex maps for result mails.
//!
//! Everything here is pure ASCII and fits a plain-text mail of 72–78
//! columns, because that is what every mail client shows without mangling.

pub mod hexmap;
