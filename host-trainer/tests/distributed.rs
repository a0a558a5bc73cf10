//! `train --broker` with `worker` processes through a real NATS JetStream server
//! (127.0.0.1, a port of its choosing, a temporary store), tiny model, and the faults
//! of issue 18, one after the other on one run:
//! 1. a worker is SIGKILLed mid-run: the learner reaches its update budget on the
//!    other worker;
//! 2. the server is SIGKILLed and restarted mid-run: learner and workers reconnect
//!    and the run reaches its budget;
//! 3. the learner is SIGKILLed mid-run and `--resume`d: the workers follow its new
//!    epoch and the run reaches its budget.
//!
//! Throughout, no batch is taken twice (the learner logs every batch it takes by
//! message id in `broker-taken.log`) and the metrics hold rows 1..=N once each.
#![cfg(all(feature = "distributed", unix))]

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use broker::server::LocalServer;

const EXE: &str = env!("CARGO_BIN_EXE_host-trainer");
const WAIT: Duration = Duration::from_secs(240);

/// A child process killed (SIGKILL) and reaped if the test ends before it.
struct Proc {
    child: Child,
    name: String,
    err: PathBuf,
}

impl Proc {
    fn spawn(args: &[String], dir: &Path, name: &str) -> Proc {
        let err = dir.join(format!("{name}.stderr"));
        let child = Command::new(EXE)
            .args(args)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(dir.join(format!("{name}.stdout"))).unwrap())
            .stderr(std::fs::File::create(&err).unwrap())
            .spawn()
            .unwrap();
        Proc {
            child,
            name: name.into(),
            err,
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    fn wait(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            if Instant::now() > deadline {
                self.kill();
                panic!(
                    "{} did not end in {timeout:?}: {}",
                    self.name,
                    std::fs::read_to_string(&self.err).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

fn worker(url: &str, dir: &Path, name: &str) -> Proc {
    let args: Vec<String> = [
        "worker",
        "--broker",
        url,
        "--name",
        name,
        "--patience",
        "120",
    ]
    .map(String::from)
    .to_vec();
    Proc::spawn(&args, dir, name)
}

/// The learner's arguments: a fresh tiny run, or its resume, to `updates`.
fn learner_args(url: &str, runs: &Path, updates: u64, resume: bool) -> Vec<String> {
    let run = runs.join("d");
    let mut args: Vec<String> = if resume {
        vec!["train".into(), "--resume".into(), run.display().to_string()]
    } else {
        let mut a: Vec<String> = vec!["train".into(), "--runs".into(), runs.display().to_string()];
        a.extend(["--id", "d"].map(String::from));
        a.extend(common::TINY_TRAINING.map(String::from));
        a.extend(["--eval-every", "1000", "--checkpoint-every", "2"].map(String::from));
        a
    };
    args.extend(
        [
            "--device",
            "cpu",
            "--quiet",
            "--broker",
            url,
            "--no-local-workers",
            "--max-updates",
            &updates.to_string(),
        ]
        .map(String::from),
    );
    args
}

/// Metrics rows written so far (whole lines of metrics.jsonl).
fn rows(runs: &Path) -> usize {
    std::fs::read_to_string(runs.join("d").join("metrics.jsonl"))
        .map(|t| t.lines().filter(|l| l.ends_with('}')).count())
        .unwrap_or(0)
}

fn wait_rows(runs: &Path, n: usize, learner: &mut Proc) {
    let deadline = Instant::now() + WAIT;
    while rows(runs) < n {
        if let Some(s) = learner.child.try_wait().unwrap() {
            panic!(
                "the learner ended ({s}) before row {n}: {}",
                std::fs::read_to_string(&learner.err).unwrap_or_default()
            );
        }
        assert!(Instant::now() < deadline, "no row {n} in {WAIT:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn finish(learner: &mut Proc) {
    let s = learner.wait(WAIT);
    assert!(
        s.success(),
        "learner: {s}: {}",
        std::fs::read_to_string(&learner.err).unwrap_or_default()
    );
}

#[test]
fn the_run_survives_killed_workers_a_killed_server_and_a_killed_learner() {
    let dir = std::env::temp_dir().join(format!("mahjong-distributed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let runs = dir.join("runs");
    let mut server = LocalServer::start(&dir.join("nats"), None).unwrap();
    let url = server.url();

    // 1. Two workers; one is killed after the second update.
    let mut a = worker(&url, &dir, "wa");
    let mut _b = worker(&url, &dir, "wb");
    let mut learner = Proc::spawn(&learner_args(&url, &runs, 6, false), &dir, "learner1");
    wait_rows(&runs, 2, &mut learner);
    a.kill();
    finish(&mut learner);
    assert_eq!(rows(&runs), 6);

    // A learner that reaches its budget says stop: the workers end, cleanly.
    let s = _b.wait(Duration::from_secs(30));
    assert!(s.success(), "worker wb: {s}");

    // 2. The server is killed and restarted during the resumed run (new workers).
    let _c = worker(&url, &dir, "wc");
    let _d = worker(&url, &dir, "wd");
    let mut learner = Proc::spawn(&learner_args(&url, &runs, 12, true), &dir, "learner2");
    wait_rows(&runs, 8, &mut learner);
    server.restart().unwrap();
    finish(&mut learner);
    assert_eq!(rows(&runs), 12);

    // 3. The learner is killed mid-run, then resumed; the workers follow its epoch.
    let _e = worker(&url, &dir, "we");
    let _f = worker(&url, &dir, "wf");
    let mut learner = Proc::spawn(&learner_args(&url, &runs, 18, true), &dir, "learner3");
    wait_rows(&runs, 14, &mut learner);
    learner.kill();
    let mut learner = Proc::spawn(&learner_args(&url, &runs, 18, true), &dir, "learner4");
    finish(&mut learner);

    // Rows 1..=18 once each (the kill's rows past the checkpoint were redone).
    let text = std::fs::read_to_string(runs.join("d").join("metrics.jsonl")).unwrap();
    let updates: Vec<u64> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["update"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(updates, (1..=18).collect::<Vec<u64>>());
    // No batch taken twice, in any session.
    let taken = std::fs::read_to_string(runs.join("d").join("broker-taken.log")).unwrap();
    let ids: Vec<&str> = taken.lines().filter_map(|l| l.split(' ').next()).collect();
    let unique: HashSet<&str> = ids.iter().copied().collect();
    assert!(ids.len() > 18, "{} batches", ids.len());
    assert_eq!(unique.len(), ids.len(), "a batch was taken twice");
    // Each phase's workers' batches were used.
    for pair in [["wa", "wb"], ["wc", "wd"], ["we", "wf"]] {
        let used = |w: &str| ids.iter().any(|i| i.starts_with(&format!("{w}-")));
        assert!(used(pair[0]) || used(pair[1]), "none from {pair:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
