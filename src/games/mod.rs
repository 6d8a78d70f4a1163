//! The rulesets, registered by name. Each imports only `crate::core`.

pub mod freeform;
pub mod sarhu;

use crate::core::ruleset::Ruleset;
use std::sync::Arc;

/// Every ruleset this umpire knows.
pub fn all() -> Vec<Arc<dyn Ruleset>> {
    vec![Arc::new(freeform::Freeform), Arc::new(sarhu::Sarhu::new())]
}

/// The ruleset registered as `name`.
pub fn find(name: &str) -> Option<Arc<dyn Ruleset>> {
    all().into_iter().find(|r| r.info().name == name)
}
