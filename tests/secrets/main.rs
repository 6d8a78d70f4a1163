//! What each side may see: sealed items and side copies, the leaks closed
//! through the pipeline, result mails in segments, and noninterference over
//! self-played positions of every ruleset.

mod hidden;
mod noninterference;
mod press;
mod secrets;
mod segments;
