//! What players read: ASCII hex maps and the mail text from `templates/`.
//!
//! Everything here is pure ASCII and fits a plain-text mail of 72–78
//! columns, because that is what every mail client shows without mangling.

pub mod hexmap;
pub mod templates;
