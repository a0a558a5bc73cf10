//! `host-trainer train` killed with SIGKILL (no handler runs, nothing is cleaned up) at
//! points drawn by a seeded generator, among them one while a checkpoint is being
//! written and one while a resume rewrites the metrics files, then resumed each time.
//!
//! After every kill the run folder must load: `config.json` parses, `checkpoint.bin`
//! (if there is one yet) loads — a leftover `checkpoint.bin.tmp` changes nothing — and
//! the metrics files hold whole rows numbered 1, 2, … with no update twice. The
//! invariant between the two: the trainer appends (without syncing) one row per update
//! and, every `--checkpoint-every` updates, syncs the metrics files and then replaces
//! the checkpoint, so both files always hold at least the rows up to the checkpoint's
//! update `C`, with the checkpoint's sample and hand counts in row `C`; rows past `C`
//! are work the kill lost. `--resume` drops them (and a line cut by the kill), so the
//! first row it writes is `C + 1`, and rows up to `C` never change. The final,
//! uninterrupted resume ends at the update budget with rows 1..=N each exactly once.
//!
//! The kill schedule comes from `TRAIN_KILL_SEED` (printed; random when unset).
#![cfg(all(feature = "train", unix))]

mod common;

use std::fs::File;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use engine::rng::Rng;
use host_trainer::train::checkpoint::Checkpoint;
use host_trainer::train::durable::{temp_path, TEST_PAUSE_BEFORE_RENAME_ENV};
use host_trainer::train::run::{
    MetricsRow, RunInfo, CHECKPOINT_FILE, CONFIG_FILE, CURVE_PNG, METRICS_CSV, METRICS_JSONL,
};

const EXE: &str = env!("CARGO_BIN_EXE_host-trainer");
/// Overrides the seed of the kill schedule (a failure prints the one it used).
const SEED_ENV: &str = "TRAIN_KILL_SEED";
/// The run's update budget: more than the killed sessions can reach (each one is
/// killed at most 6 rows and 300 ms after its start: 10 updates here, about 20 on a
/// machine three times as fast), so every kill lands in a running trainer.
const UPDATES: u64 = 100;
const CHECKPOINT_EVERY: u64 = 2;
const EVAL_EVERY: u64 = 5;
/// How long a hooked write waits before its rename: the test kills well within it.
const PAUSE_MS: u64 = 5_000;
/// Generous for a busy 2-core machine; a healthy session needs a few seconds.
const WAIT: Duration = Duration::from_secs(60);
const FINISH_TIMEOUT: Duration = Duration::from_secs(300);
/// The columns of `metrics.csv`.
const CSV_COLUMNS: usize = 34;

/// Where a session is killed.
#[derive(Clone, Copy, Debug)]
enum Kill {
    /// The fresh run, right after its first metrics row: before its first checkpoint
    /// (whose rename the test hook holds back), so the run folder has none.
    FirstRow,
    /// After the session's `rows`-th new metrics row, plus `delay`: anywhere in
    /// self-play, a PPO update, an evaluation, a row append or a checkpoint write.
    Random { rows: usize, delay: Duration },
    /// While `checkpoint.bin.tmp` holds the session's first new checkpoint in full:
    /// the test hook pauses the write between the sync and the rename.
    InCheckpointWrite,
    /// While the resume rewrites the metrics: `metrics.jsonl` is replaced, the new
    /// `metrics.csv.tmp` is complete but not yet renamed (the test hook again).
    InMetricsRewrite,
}

/// A child process that is killed (and reaped) if the test fails before it ends.
struct Guard {
    child: Child,
    out: PathBuf,
    err: PathBuf,
}

impl Guard {
    /// Starts `host-trainer` with `args`; `pause` (`<file>:<ms>`) sets the test hook.
    fn spawn(args: &[String], pause: Option<String>, dir: &Path, name: &str) -> Guard {
        let out = dir.join(format!("{name}.stdout"));
        let err = dir.join(format!("{name}.stderr"));
        let mut cmd = Command::new(EXE);
        cmd.args(args)
            .env_remove(TEST_PAUSE_BEFORE_RENAME_ENV)
            .stdin(Stdio::null())
            .stdout(File::create(&out).expect("creating the stdout file"))
            .stderr(File::create(&err).expect("creating the stderr file"));
        if let Some(p) = pause {
            cmd.env(TEST_PAUSE_BEFORE_RENAME_ENV, p);
        }
        let child = cmd.spawn().expect("spawning host-trainer");
        Guard { child, out, err }
    }

    fn stdout(&self) -> String {
        std::fs::read_to_string(&self.out).unwrap_or_default()
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.err).unwrap_or_default()
    }

    /// Panics with the child's output, after killing it.
    fn fail(&mut self, why: &str) -> ! {
        let _ = self.child.kill();
        let _ = self.child.wait();
        panic!(
            "{why}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.stdout(),
            self.stderr()
        );
    }

    /// Polls `f` every 10 ms until it gives a value; an error if the child ends first
    /// or after [`WAIT`].
    fn poll<T>(&mut self, what: &str, mut f: impl FnMut() -> Option<T>) -> Result<T, String> {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(v) = f() {
                return Ok(v);
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!("the session ended ({status}) before {what}"));
            }
            if Instant::now() > deadline {
                return Err(format!("no {what} after {WAIT:?}"));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// SIGKILL (what `Child::kill` sends on Unix), then checks that it was the kill
    /// that ended the process.
    fn kill(&mut self) {
        if let Ok(Some(status)) = self.child.try_wait() {
            self.fail(&format!(
                "the session ended by itself ({status}) before the kill: \
                 the update budget {UPDATES} is too small for this machine"
            ));
        }
        if let Err(e) = self.child.kill() {
            self.fail(&format!("SIGKILL failed: {e}"));
        }
        let status = self.wait(Duration::from_secs(20), "the killed session");
        if status.signal() != Some(libc::SIGKILL) {
            self.fail(&format!("the session ended by {status}, not by SIGKILL"));
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
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The identity of a metrics row: what a resume must keep unchanged.
type Key = (u64, u64, u64);

fn key(r: &MetricsRow) -> Key {
    (r.update, r.samples, r.hands)
}

/// What a check of the run folder found.
#[derive(Clone, Debug, Default)]
struct Seen {
    /// The checkpoint's update (0: no checkpoint yet).
    ck: u64,
    /// The rows up to the checkpoint.
    kept: Vec<Key>,
    /// The whole lines of `metrics.jsonl`, as written.
    lines: Vec<String>,
    /// `metrics.csv` as it was.
    csv: String,
    /// The data rows of `metrics.csv`.
    csv_rows: usize,
    /// A cut last line of `metrics.jsonl` (no newline yet), if any.
    torn: Option<String>,
}

impl Seen {
    /// The lines past the checkpoint: rows of work the kill lost.
    fn stale(&self) -> &[String] {
        &self.lines[self.ck as usize..]
    }
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

/// `text` split into its whole lines and the cut tail after the last newline.
fn whole_lines(text: &str) -> (Vec<String>, Option<String>) {
    let (body, tail) = match text.rfind('\n') {
        Some(i) => (&text[..=i], &text[i + 1..]),
        None => ("", text),
    };
    let lines = body.lines().map(String::from).collect();
    (lines, (!tail.is_empty()).then(|| tail.to_string()))
}

/// Loads the run folder as `--resume` would and checks the invariants of the module
/// comment against what the previous check saw.
fn check_folder(run: &Path, before: &Seen) -> Result<Seen, String> {
    let config = std::fs::read_to_string(run.join(CONFIG_FILE))
        .map_err(|e| format!("reading config.json: {e}"))?;
    serde_json::from_str::<RunInfo>(&config).map_err(|e| format!("config.json: {e}"))?;

    let ck_path = run.join(CHECKPOINT_FILE);
    let ck = if ck_path.exists() {
        let ck = Checkpoint::load(&ck_path).map_err(|e| format!("{e:#}"))?;
        if ck.params.version != ck.progress.update {
            return Err(format!(
                "checkpoint parameters of version {} at update {}",
                ck.params.version, ck.progress.update
            ));
        }
        Some(ck)
    } else {
        None
    };
    let c = ck.as_ref().map_or(0, |ck| ck.progress.update);
    if c < before.ck {
        return Err(format!(
            "the checkpoint went back from update {} to {c}",
            before.ck
        ));
    }

    // metrics.jsonl: whole rows 1..=M, at most a cut last line.
    let (lines, torn) = whole_lines(&read(&run.join(METRICS_JSONL)));
    let mut rows = Vec::new();
    for l in &lines {
        rows.push(
            serde_json::from_str::<MetricsRow>(l)
                .map_err(|e| format!("metrics.jsonl: a torn row {l:?}: {e}"))?,
        );
    }
    let updates: Vec<u64> = rows.iter().map(|r| r.update).collect();
    if updates != (1..=rows.len() as u64).collect::<Vec<_>>() {
        return Err(format!(
            "metrics.jsonl: rows missing, repeated or out of order: {updates:?}"
        ));
    }
    if (rows.len() as u64) < c {
        return Err(format!(
            "metrics.jsonl has {} rows, the checkpoint is at update {c}",
            rows.len()
        ));
    }

    // metrics.csv: the header, then whole rows 1..=K agreeing with metrics.jsonl.
    let csv = read(&run.join(METRICS_CSV));
    let (csv_lines, csv_torn) = whole_lines(&csv);
    let Some((header, body)) = csv_lines.split_first() else {
        return Err(format!("metrics.csv has no header: {csv:?}"));
    };
    if !header.starts_with("update,samples,hands,") || header.split(',').count() != CSV_COLUMNS {
        return Err(format!("metrics.csv header {header:?}"));
    }
    for (i, l) in body.iter().enumerate() {
        let f: Vec<&str> = l.split(',').collect();
        let nums: Vec<Option<u64>> = f.iter().take(3).map(|x| x.parse().ok()).collect();
        let (Some(u), Some(s), Some(h)) = (nums[0], nums[1], nums[2]) else {
            return Err(format!("metrics.csv: a torn row {l:?}"));
        };
        if f.len() != CSV_COLUMNS || u != i as u64 + 1 {
            return Err(format!(
                "metrics.csv: row {} is {l:?} (torn, repeated or out of order)",
                i + 1
            ));
        }
        if let Some(r) = rows.get(i) {
            if key(r) != (u, s, h) {
                return Err(format!("metrics.csv row {l:?} differs from {r:?}"));
            }
        }
    }
    if (body.len() as u64) < c {
        return Err(format!(
            "metrics.csv has {} rows, the checkpoint is at update {c}",
            body.len()
        ));
    }
    if let Some(t) = &csv_torn {
        eprintln!("  (metrics.csv ends in a cut line {t:?})");
    }

    // The row at the checkpoint has its counts; the rows before it stay as they were.
    if let Some(ck) = &ck {
        let r = &rows[c as usize - 1];
        let p = &ck.progress;
        if (r.samples, r.hands) != (p.samples, p.hands) {
            return Err(format!(
                "row {c} has {} samples and {} hands, the checkpoint {} and {}",
                r.samples, r.hands, p.samples, p.hands
            ));
        }
        let evals = rows[..c as usize]
            .iter()
            .filter(|r| r.eval_random_win_rate.is_some())
            .count() as u64;
        if evals != p.evals {
            return Err(format!(
                "{evals} evaluation rows up to update {c}, the checkpoint counts {}",
                p.evals
            ));
        }
    }
    let keys: Vec<Key> = rows.iter().map(key).collect();
    if keys[..before.kept.len()] != before.kept[..] {
        return Err(format!(
            "rows up to the earlier checkpoint (update {}) changed",
            before.ck
        ));
    }
    Ok(Seen {
        ck: c,
        kept: keys[..c as usize].to_vec(),
        lines,
        csv_rows: body.len(),
        csv,
        torn,
    })
}

/// A resumed session continued from the checkpoint `before.ck`: the first row it
/// wrote is `before.ck + 1`, and it is a new row, not one of the stale ones.
fn continued(before: &Seen, after: &Seen) -> Result<(), String> {
    let at = before.ck as usize;
    let first = after
        .lines
        .get(at)
        .ok_or_else(|| format!("no row after the checkpoint at update {at}"))?;
    if before.stale().first() == Some(first) {
        return Err(format!(
            "row {} is the stale row of before the kill: it was not dropped",
            at + 1
        ));
    }
    Ok(())
}

fn fresh_args(runs: &Path) -> Vec<String> {
    let mut args: Vec<String> = ["train", "--runs"].map(String::from).to_vec();
    args.push(runs.display().to_string());
    args.extend(["--id", "kill", "--device", "cpu", "--quiet"].map(String::from));
    args.extend(common::TINY_TRAINING.map(String::from));
    for (flag, v) in [
        ("--eval-every", EVAL_EVERY),
        ("--eval-hands", 2),
        ("--checkpoint-every", CHECKPOINT_EVERY),
        ("--max-updates", UPDATES),
    ] {
        args.push(flag.into());
        args.push(v.to_string());
    }
    args
}

/// The resume as `train` prints it (budget, device, workers, quiet from the command line).
fn resume_args(run: &Path) -> Vec<String> {
    let mut args: Vec<String> = ["train", "--resume"].map(String::from).to_vec();
    args.push(run.display().to_string());
    args.extend(
        [
            "--max-updates",
            &UPDATES.to_string(),
            "--device",
            "cpu",
            "--workers",
            "1",
            "--quiet",
        ]
        .map(String::from),
    );
    args
}

/// The number of rows the session has written: whole lines past `before.ck` that are
/// not the stale ones of before (which stay until the resume rewrites the file).
fn new_rows(run: &Path, before: &Seen) -> usize {
    let (lines, _) = whole_lines(&read(&run.join(METRICS_JSONL)));
    let at = before.ck as usize;
    match lines.get(at) {
        Some(l) if before.stale().first() != Some(l) => lines.len() - at,
        _ => 0,
    }
}

fn temp_files(run: &Path) -> Vec<String> {
    std::fs::read_dir(run)
        .expect("listing the run folder")
        .map(|e| {
            e.expect("a folder entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

/// Draws the kill schedule: the fresh run's kill, then the others in random order.
fn schedule(rng: &mut Rng) -> Vec<Kill> {
    let mut kills = vec![Kill::InCheckpointWrite, Kill::InMetricsRewrite];
    for _ in 0..4 {
        kills.push(Kill::Random {
            rows: 1 + rng.below(6) as usize,
            delay: Duration::from_millis(rng.below(300) as u64),
        });
    }
    rng.shuffle(&mut kills);
    kills.insert(0, Kill::FirstRow);
    kills
}

#[test]
fn sigkill_at_random_points_leaves_a_run_that_resumes_to_the_budget() {
    let started = Instant::now();
    let seed: u64 = match std::env::var(SEED_ENV) {
        Ok(s) => s
            .parse()
            .unwrap_or_else(|_| panic!("{SEED_ENV}={s:?} is not an integer")),
        Err(_) => SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
    };
    eprintln!("kill schedule seed {seed} (set {SEED_ENV}={seed} to draw it again)");
    let kills = schedule(&mut Rng::new(seed));
    eprintln!("kills: {kills:?}");

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("train-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("creating the scratch folder");
    let run = dir.join("kill");
    let ck_tmp = temp_path(&run.join(CHECKPOINT_FILE));
    let csv_tmp = temp_path(&run.join(METRICS_CSV));
    let hook = |file: &str| Some(format!("{file}:{PAUSE_MS}"));

    let mut seen = Seen::default();
    for (i, &kill) in kills.iter().enumerate() {
        let (args, pause) = match kill {
            Kill::FirstRow => (fresh_args(&dir), hook(CHECKPOINT_FILE)),
            Kill::Random { .. } => (resume_args(&run), None),
            Kill::InCheckpointWrite => (resume_args(&run), hook(CHECKPOINT_FILE)),
            Kill::InMetricsRewrite => (resume_args(&run), hook(METRICS_CSV)),
        };
        let before = seen.clone();
        let mut child = Guard::spawn(&args, pause, &dir, &format!("session{i}"));
        let ctx = format!("kill {i} ({kill:?}, seed {seed})");
        let mut extra = String::new();
        let waited = match kill {
            Kill::FirstRow => child.poll("the first metrics row", || {
                (!whole_lines(&read(&run.join(METRICS_JSONL))).0.is_empty()).then_some(())
            }),
            Kill::Random { rows, delay } => child
                .poll(&format!("{rows} new metrics rows"), || {
                    (new_rows(&run, &before) >= rows).then_some(())
                })
                .map(|()| std::thread::sleep(delay)),
            Kill::InCheckpointWrite => {
                let stale = std::fs::read(&ck_tmp).ok();
                child
                    .poll("a complete checkpoint.bin.tmp", || {
                        let bytes = std::fs::read(&ck_tmp).ok()?;
                        let ck = Checkpoint::from_bytes(&bytes).ok()?;
                        (Some(&bytes) != stale.as_ref() && ck.progress.update > before.ck)
                            .then_some(ck.progress.update)
                    })
                    .map(|t| extra = format!(", checkpoint.bin.tmp at update {t}"))
            }
            Kill::InMetricsRewrite => {
                let stale = read(&csv_tmp);
                let want = before.ck as usize + 1;
                child.poll("a complete metrics.csv.tmp", || {
                    let t = std::fs::read_to_string(&csv_tmp).ok()?;
                    (t != stale && t.ends_with('\n') && t.lines().count() == want).then_some(())
                })
            }
        };
        if let Err(e) = waited {
            // The run folder usually says what went wrong.
            let folder = match check_folder(&run, &before) {
                Ok(_) => "the run folder checks out".to_string(),
                Err(f) => f,
            };
            child.fail(&format!("{ctx}: {e}; {folder}"));
        }
        child.kill();
        let after =
            check_folder(&run, &before).unwrap_or_else(|e| child.fail(&format!("{ctx}: {e}")));

        // What each kind of kill must have left.
        let resumed = !matches!(kill, Kill::FirstRow);
        let mut checks: Vec<Result<(), String>> = Vec::new();
        if resumed && before.ck == 0 {
            let err = child.stderr();
            checks.push(if err.contains("holds no checkpoint yet") {
                Ok(())
            } else {
                Err("a resume without a checkpoint did not say it starts over".into())
            });
        }
        match kill {
            Kill::FirstRow => {
                checks.push(if after.ck == 0 {
                    Ok(())
                } else {
                    Err(format!("a checkpoint at update {} already", after.ck))
                });
            }
            Kill::Random { rows, .. } => {
                checks.push(continued(&before, &after));
                let n = after.lines.len() - before.ck as usize;
                checks.push(if n >= rows {
                    Ok(())
                } else {
                    Err(format!("{n} new rows, {rows} were seen"))
                });
            }
            Kill::InCheckpointWrite => {
                // Killed between the write and the rename: the temporary holds the
                // new checkpoint in full, checkpoint.bin is still the old one.
                let t = Checkpoint::load(&ck_tmp).map(|ck| ck.progress.update);
                let next = (before.ck / CHECKPOINT_EVERY + 1) * CHECKPOINT_EVERY;
                checks.push(match t {
                    Ok(t) if t == next && after.ck == before.ck => Ok(()),
                    Ok(t) => Err(format!(
                        "checkpoint.bin.tmp at update {t} (want {next}), checkpoint.bin at {} \
                         (want {})",
                        after.ck, before.ck
                    )),
                    Err(e) => Err(format!("checkpoint.bin.tmp after the kill: {e:#}")),
                });
                checks.push(continued(&before, &after));
            }
            Kill::InMetricsRewrite => {
                // metrics.jsonl was replaced by the rows up to the checkpoint; the kill
                // came before metrics.csv.tmp was renamed over metrics.csv.
                checks.push(if !csv_tmp.exists() {
                    Err("metrics.csv.tmp is gone: the kill came after the rename".into())
                } else if after.lines.len() as u64 != before.ck || after.torn.is_some() {
                    Err(format!(
                        "metrics.jsonl has {} rows (torn tail {:?}) after its rewrite, \
                         want the {} up to the checkpoint",
                        after.lines.len(),
                        after.torn,
                        before.ck
                    ))
                } else if after.csv != before.csv {
                    Err("metrics.csv changed though its rename had not happened".into())
                } else {
                    Ok(())
                });
            }
        }
        if let Some(e) = checks.into_iter().find_map(Result::err) {
            child.fail(&format!("{ctx}: {e}"));
        }
        eprintln!(
            "{ctx}: checkpoint {} -> {}, metrics.jsonl {} rows{}, metrics.csv {} rows, \
             left behind {:?}{extra}",
            before.ck,
            after.ck,
            after.lines.len(),
            if after.torn.is_some() {
                " + a cut line"
            } else {
                ""
            },
            after.csv_rows,
            temp_files(&run),
        );
        seen = after;
    }

    // The last resume runs to the budget.
    let mut child = Guard::spawn(&resume_args(&run), None, &dir, "final");
    let status = child.wait(FINISH_TIMEOUT, "the final resume");
    if !status.success() {
        child.fail(&format!("the final resume failed ({status}), seed {seed}"));
    }
    let out = child.stdout();
    if !out.contains(&format!("stopped: update budget ({UPDATES})")) {
        child.fail("the final resume did not stop at the update budget");
    }
    let fin = check_folder(&run, &seen)
        .and_then(|fin| continued(&seen, &fin).map(|_| fin))
        .unwrap_or_else(|e| child.fail(&format!("after the final resume (seed {seed}): {e}")));
    let ck = Checkpoint::load(&run.join(CHECKPOINT_FILE)).expect("the final checkpoint");
    assert_eq!(ck.progress.update, UPDATES, "final update count");
    assert_eq!(fin.lines.len() as u64, UPDATES, "metrics.jsonl rows 1..=N");
    assert_eq!(fin.csv_rows as u64, UPDATES, "metrics.csv rows 1..=N");
    assert_eq!(fin.torn, None, "metrics.jsonl ends in a whole row");
    assert!(fin.csv.ends_with('\n'), "metrics.csv ends in a whole row");
    assert_eq!(
        ck.progress.evals,
        UPDATES / EVAL_EVERY,
        "one evaluation every {EVAL_EVERY} updates"
    );
    assert!(run.join(CURVE_PNG).exists(), "curve.png written");
    assert_eq!(
        temp_files(&run),
        Vec::<String>::new(),
        "temporary files left"
    );
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "{} kills, then {} updates in all; the test took {:?}",
        kills.len(),
        UPDATES,
        started.elapsed()
    );
}
