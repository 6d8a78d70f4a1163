//! What players read: ASCII maps of every kind and the mail text from `templates/`.
//!
//! Everything here is pure ASCII and fits a plain-text mail of 72–78
//! columns, because that is what every mail client shows without mangling.
//! [`map`] is the one entry point for maps; it dispatches on the board's kind
//! to [`hexmap`], [`squaremap`] or [`pointmap`].

pub mod hexmap;
pub mod map;
mod pieces;
pub mod pointmap;
pub mod squaremap;
pub mod svg;
pub mod templates;
mod text;
