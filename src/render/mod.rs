//! What players read: ASCII hex maps and the mail templates.

pub mod hexmap;
pub mod templates;
