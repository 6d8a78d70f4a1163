//! The rulesets, registered by name. Each imports only `crate::core`.

pub mod freeform;

use crate::core::ruleset::Ruleset;
use std::sync::Arc;

/// Every ruleset this umpire knows.
pub fn all() -> Vec<Arc<dyn Ruleset>> {
    vec![Arc::new(freeform::Freeform)]
}

/// The ruleset registered as `name`.
pub fn find(name: &str) -> Option<Arc<dyn Ruleset>> {
    all().into_iter().find(|r| r.info().name == name)
}
