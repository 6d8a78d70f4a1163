//! The repository's own checks: the layers' manifests, the supply chain,
//! and every command and link in the docs.

mod docs;
mod layers;
mod supply_chain;
mod test_script;
