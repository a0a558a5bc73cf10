//! The shipped models (`inference::shipped`: compiled in, the one that fits a rule set
//! chosen as `advise` chooses it), loaded once per thread: loading checks the plain pass
//! and the page asks many times.

use std::cell::RefCell;
use std::collections::HashMap;

use anyhow::{Context, Result};
use engine::Rules;
use inference::Advisor;

pub use inference::shipped::{rules_fit, shipped_rules};

thread_local! {
    /// Loaded advisors by the rules they were asked for (`None`: no model fits).
    static LOADED: RefCell<HashMap<String, Option<Advisor>>> = RefCell::new(HashMap::new());
}

/// The shipped model that fits `rules`, loaded (once per thread and rule set), or `None`.
pub fn fitting(rules: &Rules) -> Result<Option<Advisor>> {
    let key = format!(
        "{}/{:?}/{}",
        rules.players,
        rules.tile_set,
        rules.is_riichi()
    );
    if let Some(a) = LOADED.with(|l| l.borrow().get(&key).cloned()) {
        return Ok(a);
    }
    let a = inference::shipped::fitting(rules).context("loading a shipped model")?;
    LOADED.with(|l| l.borrow_mut().insert(key, a.clone()));
    Ok(a)
}
