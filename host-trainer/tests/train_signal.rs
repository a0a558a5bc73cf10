//! `host-trainer train` stopped by SIGINT / SIGTERM as a real child process: it must
//! finish cleanly (exit 0), keep its work in a loadable checkpoint whose update count
//! matches the last metrics row, print the `--resume` command, and that command must
//! continue the run.
#![cfg(all(feature = "train", unix))]

mod common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use host_trainer::train::checkpoint::Checkpoint;
use host_trainer::train::run::{
    MetricsRow, CHECKPOINT_FILE, CURVE_PNG, METRICS_CSV, METRICS_JSONL,
};

const EXE: &str = env!("CARGO_BIN_EXE_host-trainer");
/// Generous for a busy 2-core machine; a healthy run needs a few seconds.
const START_TIMEOUT: Duration = Duration::from_secs(40);
const STOP_TIMEOUT: Duration = Duration::from_secs(20);

/// A child process that is killed (and reaped) if the test fails before it ends.
struct Guard {
    child: Child,
    out: PathBuf,
    err: PathBuf,
}

impl Guard {
    fn spawn(args: &[String], dir: &Path, name: &str) -> Guard {
        let out = dir.join(format!("{name}.stdout"));
        let err = dir.join(format!("{name}.stderr"));
        // Files rather than pipes: nothing has to drain them while the test waits.
        let child = Command::new(EXE)
            .args(args)
            .stdin(Stdio::null())
            .stdout(File::create(&out).expect("creating the stdout file"))
            .stderr(File::create(&err).expect("creating the stderr file"))
            .spawn()
            .expect("spawning host-trainer");
        Guard { child, out, err }
    }

    fn output(&self) -> (String, String) {
        let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
        (read(&self.out), read(&self.err))
    }

    /// Panics with the child's output, after killing it.
    fn fail(&mut self, why: &str) -> ! {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let (out, err) = self.output();
        panic!("{why}\n--- stdout ---\n{out}\n--- stderr ---\n{err}");
    }

    fn signal(&mut self, sig: libc::c_int) {
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) only reads its two integer arguments.
        if unsafe { libc::kill(pid, sig) } != 0 {
            let e = std::io::Error::last_os_error();
            self.fail(&format!("kill({pid}, {sig}) failed: {e}"));
        }
    }

    fn wait(&mut self, timeout: Duration, what: &str) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Ok(None) => self.fail(&format!("{what}: still running after {timeout:?}")),
                Err(e) => self.fail(&format!("{what}: waiting failed: {e}")),
            }
        }
    }

    /// Waits until `metrics.jsonl` holds at least `n` complete rows.
    fn wait_for_rows(&mut self, run: &Path, n: usize) {
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            let text = std::fs::read_to_string(run.join(METRICS_JSONL)).unwrap_or_default();
            if text.lines().count() >= n && text.ends_with('\n') {
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                self.fail(&format!("the run ended ({status}) before {n} metrics rows"));
            }
            if Instant::now() > deadline {
                self.fail(&format!("no {n} metrics rows after {START_TIMEOUT:?}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A fresh scratch folder per test (tests run in parallel).
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("train-signal-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating the scratch folder");
    dir
}

/// A tiny, fast run that only stops by a signal (or after 1000 updates). Periodic
/// checkpoints are off, so any checkpoint comes from the interrupt handling.
fn tiny_args(runs: &Path, eval_hands: u64) -> Vec<String> {
    let mut args: Vec<String> = ["train", "--runs"].map(String::from).to_vec();
    args.push(runs.display().to_string());
    args.extend(["--id", "sig", "--device", "cpu"].map(String::from));
    args.extend(common::TINY_TRAINING.map(String::from));
    args.extend(
        [
            "--eval-every",
            "2",
            "--checkpoint-every",
            "1000",
            "--max-updates",
            "1000",
            "--quiet",
            "--eval-hands",
        ]
        .map(String::from),
    );
    args.push(eval_hands.to_string());
    args
}

/// Every line of `metrics.jsonl` must be a whole row and the updates must run 1..=n;
/// `metrics.csv` must hold the same updates under one header. Returns the rows.
fn check_metrics(run: &Path) -> Vec<MetricsRow> {
    let text = std::fs::read_to_string(run.join(METRICS_JSONL)).expect("reading metrics.jsonl");
    assert!(
        text.ends_with('\n'),
        "metrics.jsonl ends in a torn line: {text:?}"
    );
    let rows: Vec<MetricsRow> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("torn metrics row {l:?}: {e}")))
        .collect();
    let updates: Vec<u64> = rows.iter().map(|r| r.update).collect();
    let expected: Vec<u64> = (1..=rows.len() as u64).collect();
    assert_eq!(
        updates, expected,
        "metrics.jsonl rows missing or duplicated"
    );
    let csv = std::fs::read_to_string(run.join(METRICS_CSV)).expect("reading metrics.csv");
    let mut lines = csv.lines();
    assert!(
        lines.next().is_some_and(|h| h.starts_with("update,")),
        "metrics.csv header"
    );
    let csv_updates: Vec<u64> = lines
        .map(|l| {
            l.split(',')
                .next()
                .and_then(|u| u.parse().ok())
                .expect("csv update column")
        })
        .collect();
    assert_eq!(
        csv_updates, expected,
        "metrics.csv rows missing or duplicated"
    );
    rows
}

fn no_temp_files(run: &Path) {
    for e in std::fs::read_dir(run).expect("listing the run folder") {
        let name = e.expect("a folder entry").file_name();
        assert!(
            !name.to_string_lossy().ends_with(".tmp"),
            "left behind: {name:?}"
        );
    }
}

/// The command after "continue with: " on stdout, split into words.
fn resume_words(stdout: &str) -> Vec<String> {
    let line = stdout
        .lines()
        .find_map(|l| l.split_once("continue with: ").map(|(_, c)| c))
        .unwrap_or_else(|| panic!("no resume command on stdout:\n{stdout}"));
    assert!(
        !line.contains('\''),
        "the scratch path needs no quoting: {line}"
    );
    line.split_whitespace().map(String::from).collect()
}

/// Starts a run, waits for its first update, sends `sig` and checks what it left.
fn interrupted_run_keeps_its_work(sig: libc::c_int, name: &str) {
    let started = Instant::now();
    let dir = scratch(name);
    let run = dir.join("sig");
    let mut child = Guard::spawn(&tiny_args(&dir, 3), &dir, "first");
    child.wait_for_rows(&run, 1);
    assert!(
        !run.join(CHECKPOINT_FILE).exists(),
        "periodic checkpoints are off"
    );
    child.signal(sig);
    let status = child.wait(STOP_TIMEOUT, &format!("after {name}"));
    let (out, err) = child.output();
    assert_eq!(
        status.code(),
        Some(0),
        "exit status after {name}\n{out}\n{err}"
    );
    assert!(out.contains("stopped: interrupted"), "{out}");
    assert!(err.contains("interrupt: stopping after update"), "{err}");

    let rows = check_metrics(&run);
    let ck = Checkpoint::load(&run.join(CHECKPOINT_FILE)).expect("the checkpoint loads");
    let last = rows.last().expect("at least one row").update;
    assert_eq!(ck.progress.update, last, "checkpoint vs last metrics row");
    assert_eq!(ck.params.version, last, "parameter version");
    assert!(run.join(CURVE_PNG).exists(), "curve.png written");
    no_temp_files(&run);

    // The printed command resumes the run; one more update proves it continues.
    let mut words = resume_words(&out);
    assert_eq!(words[0], EXE, "the command names this binary");
    let at = words
        .iter()
        .position(|w| w == "--resume")
        .expect("--resume in the command");
    assert_eq!(
        Path::new(&words[at + 1]),
        run,
        "--resume names the run folder"
    );
    let budget = words
        .iter()
        .position(|w| w == "--max-updates")
        .expect("the budget is carried over");
    assert_eq!(words[budget + 1], "1000");
    words[budget + 1] = (last + 1).to_string();
    let mut resumed = Guard::spawn(&words[1..], &dir, "resumed");
    let status = resumed.wait(START_TIMEOUT, "the resumed run");
    let (out2, err2) = resumed.output();
    assert!(status.success(), "resume failed ({status})\n{out2}\n{err2}");
    assert!(out2.contains("stopped: update budget"), "{out2}");
    let ck2 = Checkpoint::load(&run.join(CHECKPOINT_FILE)).expect("the new checkpoint loads");
    assert_eq!(ck2.progress.update, last + 1);
    assert_eq!(ck2.progress.resumes, ck.progress.resumes + 1);
    assert!(
        ck2.adam.step > ck.adam.step,
        "the optimizer state continued"
    );
    let rows2 = check_metrics(&run);
    assert_eq!(rows2.len() as u64, last + 1);
    let key = |r: &MetricsRow| (r.update, r.samples, r.hands);
    assert_eq!(
        rows2[..rows.len()].iter().map(key).collect::<Vec<_>>(),
        rows.iter().map(key).collect::<Vec<_>>(),
        "earlier rows kept as they were"
    );
    no_temp_files(&run);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{name}: stopped at update {last}, test took {:?}",
        started.elapsed()
    );
}

#[test]
fn sigint_checkpoints_and_prints_the_resume_command() {
    interrupted_run_keeps_its_work(libc::SIGINT, "SIGINT");
}

#[test]
fn sigterm_checkpoints_and_prints_the_resume_command() {
    interrupted_run_keeps_its_work(libc::SIGTERM, "SIGTERM");
}

/// An evaluation of a million hands would take far longer than the stop timeout: the
/// interrupt must cut it short (recording nothing for it) or, when it lands before
/// the evaluation, stop the run before it starts.
#[test]
fn an_interrupt_does_not_wait_for_a_long_evaluation() {
    let dir = scratch("eval");
    let run = dir.join("sig");
    let mut child = Guard::spawn(&tiny_args(&dir, 1_000_000), &dir, "first");
    child.wait_for_rows(&run, 1);
    // Update 2 (about a second of self-play and training) starts the evaluation.
    std::thread::sleep(Duration::from_secs(3));
    child.signal(libc::SIGINT);
    let t = Instant::now();
    let status = child.wait(STOP_TIMEOUT, "stopping during the evaluation");
    let (out, err) = child.output();
    assert_eq!(status.code(), Some(0), "{out}\n{err}");
    let rows = check_metrics(&run);
    let ck = Checkpoint::load(&run.join(CHECKPOINT_FILE)).expect("the checkpoint loads");
    let last = rows.last().expect("a row").update;
    assert_eq!(ck.progress.update, last);
    assert!(
        rows.iter().all(|r| r.eval_random_win_rate.is_none()),
        "no partial evaluation"
    );
    assert_eq!(ck.progress.evals, 0);
    if last >= 2 {
        assert!(
            out.contains("evaluation due at update 2 was skipped"),
            "{out}"
        );
        assert!(err.contains("evaluation at update 2 skipped"), "{err}");
    } else {
        eprintln!("the signal came before the evaluation started (busy machine)");
    }
    eprintln!(
        "stopped {:?} after the signal, at update {last}",
        t.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_resume_command_quotes_paths_and_carries_the_command_line_options() {
    use clap::Parser;
    use host_trainer::train::interrupt::{resume_command, shell_quote};
    use host_trainer::train::TrainConfig;
    assert_eq!(shell_quote("runs/2024-seed1"), "runs/2024-seed1");
    assert_eq!(shell_quote("my runs/it's"), "'my runs/it'\\''s'");
    assert_eq!(shell_quote(""), "''");
    let plain = TrainConfig::parse_from(["train"]);
    assert_eq!(
        resume_command("host-trainer", &plain, Path::new("runs/a")),
        "host-trainer train --resume runs/a"
    );
    let cfg = TrainConfig::parse_from([
        "train",
        "--max-updates",
        "50",
        "--max-minutes",
        "2.5",
        "--device",
        "cpu",
        "--workers",
        "3",
        "--quiet",
        "--lr",
        "0.1",
    ]);
    // The learning rate comes from config.json on resume, so it is not repeated.
    assert_eq!(
        resume_command("/x y/host-trainer", &cfg, Path::new("r/b c")),
        "'/x y/host-trainer' train --resume 'r/b c' --max-updates 50 --max-minutes 2.5 \
         --device cpu --workers 3 --quiet"
    );
}

#[test]
fn write_atomic_replaces_the_file_and_leaves_no_temporary() {
    use host_trainer::train::durable::{temp_path, write_atomic};
    let dir = scratch("atomic");
    let p = dir.join("metrics.jsonl");
    assert_eq!(temp_path(&p), dir.join("metrics.jsonl.tmp"));
    write_atomic(&p, b"old\n").unwrap();
    write_atomic(&p, b"new\n").unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"new\n");
    no_temp_files(&dir);
    // A folder that does not exist is an error, not a panic.
    let err = write_atomic(&dir.join("missing/x.bin"), b"x").unwrap_err();
    assert!(format!("{err:#}").contains("creating"), "{err:#}");
    let _ = std::fs::remove_dir_all(&dir);
}
