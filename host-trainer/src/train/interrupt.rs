//! Stopping a run from outside: SIGINT (Ctrl-C) and SIGTERM set the flag that
//! [`super::train`] polls, and the run ends as at a budget (current update finished,
//! checkpoint, metrics and curve written). A second signal exits at once.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use anyhow::Result;

use super::config::TrainConfig;

/// Exit status after a second SIGINT: the shell's 128 + signal number.
pub const SECOND_SIGINT_STATUS: i32 = 130;
/// Exit status after a second SIGTERM.
pub const SECOND_SIGTERM_STATUS: i32 = 143;

/// Installs the SIGINT and SIGTERM handlers and returns the flag they set. The first
/// signal only sets the flag; a second one (the flag already set) ends the process at
/// once with status 130 (SIGINT) or 143 (SIGTERM), for a shutdown that hangs: the
/// checkpoint on disk is then the last complete one, since it is replaced atomically.
#[cfg(unix)]
pub fn install_signal_flag() -> Result<Arc<AtomicBool>> {
    use anyhow::Context;
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;

    let interrupt = Arc::new(AtomicBool::new(false));
    for (sig, status) in [
        (SIGINT, SECOND_SIGINT_STATUS),
        (SIGTERM, SECOND_SIGTERM_STATUS),
    ] {
        // The shutdown action must come first: on the first signal it sees the flag
        // still unset, then the second action sets it.
        flag::register_conditional_shutdown(sig, status, interrupt.clone())
            .and_then(|_| flag::register(sig, interrupt.clone()))
            .with_context(|| format!("installing the handler of signal {sig}"))?;
    }
    Ok(interrupt)
}

/// Without Unix signals the flag is never set: Ctrl-C ends the process as before, and
/// the run continues from its last periodic checkpoint.
#[cfg(not(unix))]
pub fn install_signal_flag() -> Result<Arc<AtomicBool>> {
    Ok(Arc::new(AtomicBool::new(false)))
}

/// Quotes `s` for a POSIX shell when it holds anything beyond plain path characters.
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-+./,:=@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The command that continues the run in `run_dir`: `exe train --resume DIR` plus the
/// options that a resume takes from its command line rather than from `config.json`
/// (budgets, device, workers, learner threads, quiet), as `cfg` (the interrupted command
/// line) had them.
pub fn resume_command(exe: &str, cfg: &TrainConfig, run_dir: &Path) -> String {
    let mut parts = vec![
        shell_quote(exe),
        "train".to_string(),
        "--resume".to_string(),
        shell_quote(&run_dir.display().to_string()),
    ];
    parts.extend(cfg.session_args().iter().map(|a| shell_quote(a)));
    parts.join(" ")
}
