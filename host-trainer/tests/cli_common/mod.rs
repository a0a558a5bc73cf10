//! Running the `host-trainer` binary as a process, for the CLI tests.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `host-trainer SUBCOMMAND ARGS…` with `stdin` written to it, in `dir` when given;
/// returns (stdout, stderr, success).
pub fn run_in(
    subcommand: &str,
    args: &[&str],
    stdin: &str,
    dir: Option<&str>,
) -> (String, String, bool) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_host-trainer"));
    cmd.arg(subcommand).args(args);
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn host-trainer");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}
