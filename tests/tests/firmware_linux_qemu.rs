//! The ARM Linux demo (`firmware-demo/linux`, binary `mahjong-advisor`) against the host.
//!
//! - `linux_positions_are_current`: `firmware-demo/linux/positions.jsonl` (the recorded
//!   positions the binary embeds) is exactly what [`generate_positions`] produces from
//!   seeded self-play with the efficiency bot. Regenerate after an engine change that
//!   alters play with `UPDATE_LINUX_POSITIONS=1 cargo test -p mahjong-tests --test
//!   firmware_linux_qemu linux_positions_are_current`.
//! - `linux_advisor_matches_host_under_qemu`: writes a randomly initialised policy
//!   (`Weights::random` + the ONNX exporter) to a scratch folder, builds the demo
//!   (dev profile, in `target/firmware-linux/`) for `aarch64-unknown-linux-gnu` and, in
//!   the full test tier (`MAHJONG_FULL_TESTS`), also for the host and
//!   `armv7-unknown-linux-gnueabihf`; runs the ARM binaries with the runners of its
//!   `.cargo/config.toml` (`qemu-aarch64` / `qemu-arm`) and compares them with the
//!   same advice computed in this process (the whole output, checksum included, in a
//!   format written here) and, in the full tier, with the host binary run natively:
//!   identical best actions, legal-action counts and checksum lines; probabilities and
//!   values within [`TOL`] (tract picks other SIMD kernels on ARM, so bit equality is
//!   not expected). The same runs in efficiency-only mode must agree exactly, and if
//!   `models/default.onnx` exists it is compared too. Fails (never skips) when a cross
//!   compiler, a Rust target or QEMU is missing: `scripts/setup` installs them.
//! - `linux_advisor_rejects_bad_input` (the host binary in the full tier, the aarch64
//!   one under QEMU in the fast tier): a missing or corrupt model, a bad position line
//!   and a bad flag give a clear error (the cause said once) and a nonzero exit status,
//!   never a panic; without `--model`, from a directory with no `models/`, the binary
//!   uses the shipped model compiled into it, with the same output as `--model
//!   models/default.onnx`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use engine::bots::{Agent, EfficiencyBot};
use engine::game::{Action, Game, MeldKind, Observation, Phase};
use engine::notation::Counts;
use engine::Rules;
use inference::onnx_export::export;
use inference::position::from_json;
use inference::{Advisor, ModelConfig, Sidecar, Weights};
use serde_json::{json, Map, Value};

/// Seeds of the recorded hands, per preset.
const SEEDS: [u64; 3] = [1, 2, 3];
/// Decision points kept per hand (evenly spaced), of which up to [`CLAIMS_PER_HAND`]
/// answer a claim window.
const PER_HAND: usize = 8;
const CLAIMS_PER_HAND: usize = 2;
/// Largest accepted |host − ARM| of a probability or value.
const TOL: f32 = 1e-4;
/// Seed of the random test model.
const MODEL_SEED: u64 = 20_260_505;
/// Wall-clock limit of one binary run (QEMU included).
const RUN_TIMEOUT: Duration = Duration::from_secs(300);
const ARM_TARGETS: [&str; 2] = ["aarch64-unknown-linux-gnu", "armv7-unknown-linux-gnueabihf"];

/// The ARM targets this run builds and compares: both in the full test tier
/// (`MAHJONG_FULL_TESTS` set, `scripts/test --full`), aarch64 alone in the fast tier.
/// The cross builds of tract are nearly all of this test's time (the runs after the
/// build take seconds, firmware-demo/README.md) and the two targets run the same code,
/// so CI's fast tier builds one of them; the 32-bit one (other SIMD kernels, 32-bit
/// pointers) is checked by the full tier, before an issue touching it is resolved.
fn arm_targets() -> &'static [&'static str] {
    if std::env::var_os("MAHJONG_FULL_TESTS").is_some() {
        &ARM_TARGETS
    } else {
        &ARM_TARGETS[..1]
    }
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn demo_dir() -> PathBuf {
    repo_root().join("firmware-demo/linux")
}

fn positions_path() -> PathBuf {
    demo_dir().join("positions.jsonl")
}

// ---------------------------------------------------------------------------------
// Recorded positions

fn meld_kind(k: MeldKind) -> &'static str {
    match k {
        MeldKind::Chi => "chi",
        MeldKind::Pon => "pon",
        MeldKind::OpenKan => "kan",
        MeldKind::ClosedKan => "ckan",
        MeldKind::AddedKan => "akan",
    }
}

/// The observation as a JSON position (`inference::position`), defaults left out.
fn position_json(preset: &str, obs: &Observation) -> String {
    let players = obs.rules.players as usize;
    let mut m = Map::new();
    m.insert("rules".into(), json!(preset));
    m.insert("seat".into(), json!(obs.seat));
    m.insert("dealer".into(), json!(obs.dealer));
    m.insert("hand".into(), json!(Counts(&obs.hand).to_string()));
    match (obs.drawn, &obs.pending) {
        (Some(t), _) => {
            m.insert("drawn".into(), json!(t.to_string()));
        }
        (None, None) => {
            m.insert("after_call".into(), json!(true));
        }
        (None, Some(_)) => {}
    }
    let melds: Vec<String> = obs.melds[..players]
        .iter()
        .map(|ms| {
            ms.iter()
                .map(|x| format!("{}:{}", meld_kind(x.kind), x.tile))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect();
    if melds.iter().any(|s| !s.is_empty()) {
        m.insert("melds".into(), json!(melds));
    }
    // Claimed discards live in the claimer's meld (the position format's convention).
    let discards: Vec<String> = obs.discards[..players]
        .iter()
        .map(|ds| {
            ds.iter()
                .filter(|d| !d.claimed)
                .map(|d| d.tile.to_string())
                .collect()
        })
        .collect();
    m.insert("discards".into(), json!(discards));
    if let Some(p) = &obs.pending {
        let mut c = Map::new();
        c.insert("tile".into(), json!(p.tile.to_string()));
        c.insert("from".into(), json!(p.from));
        if p.added_kan {
            c.insert("added_kan".into(), json!(true));
        }
        m.insert("claim".into(), Value::Object(c));
    }
    m.insert("scores".into(), json!(obs.scores));
    if obs.hand_number != 0 {
        m.insert("hand_number".into(), json!(obs.hand_number));
    }
    m.insert("live_wall".into(), json!(obs.live_wall));
    Value::Object(m).to_string()
}

fn pick<T: Clone>(items: &[T], k: usize) -> Vec<T> {
    let n = items.len();
    (0..k.min(n))
        .map(|i| items[i * n / k.min(n)].clone())
        .collect()
}

/// Plays one seeded hand per preset and seed with four efficiency bots and records
/// evenly spaced decisions with at least two legal actions: turns, and up to
/// [`CLAIMS_PER_HAND`] claim windows. Every recorded position must read back (through
/// `inference::position`) with exactly the legal actions the game offered.
fn generate_positions() -> String {
    let mut out = String::from(
        "# Recorded positions for firmware-demo/linux (JSON, the format of inference::position).\n\
         # Generated by tests/tests/firmware_linux_qemu.rs from seeded self-play with EfficiencyBot;\n\
         # do not edit: UPDATE_LINUX_POSITIONS=1 cargo test -p mahjong-tests --test firmware_linux_qemu linux_positions_are_current\n",
    );
    for preset in ["sanma", "four-player"] {
        let rules = Rules::preset(preset).expect("preset");
        for seed in SEEDS {
            let mut game = Game::new(rules, seed).expect("new game");
            let mut bot = EfficiencyBot;
            let (mut turns, mut claims) = (Vec::new(), Vec::new());
            'hand: while matches!(game.phase(), Phase::Turn | Phase::Claim) {
                for seat in game.seats_to_act() {
                    let obs = game.observation(seat).expect("observation");
                    let legal = game.legal_actions(seat);
                    if legal.len() >= 2 {
                        let line = position_json(preset, &obs);
                        let (_, derived) = from_json(&line)
                            .unwrap_or_else(|e| panic!("position does not read back: {e}\n{line}"));
                        let mut want: Vec<usize> = legal.iter().map(|a| a.index()).collect();
                        let mut got: Vec<usize> = derived.iter().map(|a| a.index()).collect();
                        want.sort_unstable();
                        got.sort_unstable();
                        assert_eq!(got, want, "legal actions differ after read-back: {line}");
                        if obs.pending.is_some() {
                            claims.push(line);
                        } else {
                            turns.push(line);
                        }
                    }
                    let action: Action = bot.act(&obs, &legal);
                    game.apply(seat, action).expect("legal action");
                    if !matches!(game.phase(), Phase::Turn | Phase::Claim) {
                        break 'hand;
                    }
                }
            }
            let claims = pick(&claims, CLAIMS_PER_HAND);
            let turns = pick(&turns, PER_HAND - claims.len());
            assert_eq!(
                turns.len() + claims.len(),
                PER_HAND,
                "{preset} seed {seed}: too few decisions"
            );
            for line in turns.iter().chain(&claims) {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

#[test]
fn linux_positions_are_current() {
    let want = generate_positions();
    let path = positions_path();
    if std::env::var_os("UPDATE_LINUX_POSITIONS").is_some() {
        std::fs::write(&path, &want).expect("write positions.jsonl");
        return;
    }
    let have = std::fs::read_to_string(&path).expect("read firmware-demo/linux/positions.jsonl");
    assert!(
        have == want,
        "firmware-demo/linux/positions.jsonl is stale; regenerate with \
         UPDATE_LINUX_POSITIONS=1 cargo test -p mahjong-tests --test firmware_linux_qemu \
         linux_positions_are_current"
    );
}

// ---------------------------------------------------------------------------------
// Building and running the demo

/// Target directory of the demo, next to this test's own (`target/debug/deps/..` →
/// `target/firmware-linux`), so builds are cached without sharing a build lock with the
/// cargo that runs this test.
fn demo_target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    exe.ancestors()
        .nth(3)
        .expect("target dir above target/<profile>/deps")
        .join("firmware-linux")
}

fn host_triple() -> String {
    let out = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .arg("-vV")
        .output()
        .expect("run rustc -vV");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("host line in rustc -vV")
        .to_string()
}

/// The `[target.TRIPLE]` entry `key` of the demo's `.cargo/config.toml` (one source of
/// truth for linkers and runners), split on whitespace.
fn config_entry(triple: &str, key: &str) -> Vec<String> {
    let config = std::fs::read_to_string(demo_dir().join(".cargo/config.toml"))
        .expect("firmware-demo/linux/.cargo/config.toml");
    let header = format!("[target.{triple}]");
    let mut in_section = false;
    for line in config.lines().map(str::trim) {
        if line.starts_with('[') {
            in_section = line == header;
        } else if in_section {
            if let Some(v) = line
                .strip_prefix(key)
                .and_then(|r| r.trim().strip_prefix('='))
            {
                return v
                    .trim()
                    .trim_matches('"')
                    .split_whitespace()
                    .map(String::from)
                    .collect();
            }
        }
    }
    panic!("no {key} for {triple} in firmware-demo/linux/.cargo/config.toml")
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
        .unwrap_or(false)
}

/// Fails with one clear message naming everything that `scripts/setup` would install.
fn require_cross_tools() {
    let mut missing = Vec::new();
    let sysroot = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .args(["--print", "sysroot"])
        .output()
        .expect("run rustc --print sysroot");
    let sysroot = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim());
    for &t in arm_targets() {
        if !sysroot.join("lib/rustlib").join(t).join("lib").is_dir() {
            missing.push(format!("Rust target {t} (rustup target add {t})"));
        }
        for key in ["linker", "runner"] {
            let program = &config_entry(t, key)[0];
            if !on_path(program) {
                missing.push(format!("{program} (the {key} for {t})"));
            }
        }
        let runner = config_entry(t, "runner");
        if let Some(i) = runner.iter().position(|a| a == "-L") {
            let root = Path::new(&runner[i + 1]);
            if !root.join("lib").is_dir() {
                missing.push(format!("the cross glibc in {}", root.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the ARM Linux cross toolchain is incomplete; missing:\n  {}\nRun scripts/setup (it \
         installs the Rust targets and the Debian packages gcc-aarch64-linux-gnu, \
         gcc-arm-linux-gnueabihf, libc6-dev-arm64-cross, libc6-dev-armhf-cross and \
         qemu-user). This test does not skip.",
        missing.join("\n  ")
    );
}

/// Serialises the builds of the tests in this file (cargo would block on its lock
/// anyway; this keeps the timing lines honest).
static BUILD: Mutex<()> = Mutex::new(());

/// Builds `mahjong-advisor` for `triples` (dev profile) and returns the binaries.
fn build_demo(triples: &[String]) -> Vec<PathBuf> {
    let _guard = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let target_dir = demo_target_dir();
    let mut cmd = Command::new(cargo);
    cmd.current_dir(demo_dir())
        .args(["build", "--locked", "--target-dir"])
        .arg(&target_dir);
    for t in triples {
        cmd.args(["--target", t]);
    }
    let start = Instant::now();
    let status = cmd
        // Host flags from the outer build must not reach the cross builds.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .status()
        .expect("run cargo");
    assert!(
        status.success(),
        "building firmware-demo/linux for {triples:?} failed ({status}); are the Rust targets \
         and the Debian cross compilers installed? Run scripts/setup"
    );
    eprintln!(
        "firmware-demo/linux build for {}: {:.1} s",
        triples.join(", "),
        start.elapsed().as_secs_f64()
    );
    triples
        .iter()
        .map(|t| target_dir.join(t).join("debug/mahjong-advisor"))
        .collect()
}

struct RunOutput {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    seconds: f64,
}

/// Runs `program args` (under `runner` if not empty) to completion, or kills it after
/// [`RUN_TIMEOUT`].
fn run_binary(runner: &[String], program: &Path, args: &[&str], cwd: &Path) -> RunOutput {
    let mut cmd = match runner.split_first() {
        Some((first, rest)) => {
            let mut c = Command::new(first);
            c.args(rest).arg(program);
            c
        }
        None => Command::new(program),
    };
    cmd.args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => panic!(
            "cannot start {}: {e}; run scripts/setup (qemu-user)",
            runner
                .first()
                .map_or(program.display().to_string(), |r| r.clone())
        ),
    };
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let read_out = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).map(|_| s)
    });
    let read_err = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).map(|_| s)
    });
    let deadline = start + RUN_TIMEOUT;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the advisor") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "{} did not finish within {RUN_TIMEOUT:?}",
                program.display()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    RunOutput {
        code: status.code(),
        stdout: read_out.join().expect("reader").expect("stdout is UTF-8"),
        stderr: read_err.join().expect("reader").expect("stderr is UTF-8"),
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// A random policy (the trainer's default shape) and its sidecar in `dir`.
fn random_model(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).expect("scratch dir");
    let cfg = ModelConfig::default();
    let w = Weights::random(cfg, MODEL_SEED).expect("random weights");
    let path = dir.join("random.onnx");
    export(
        &w,
        &Sidecar::new(
            cfg,
            "four-player",
            "random init (tests/tests/firmware_linux_qemu.rs)",
            0,
            "mahjong-tests firmware_linux_qemu",
        ),
        &path,
    )
    .expect("export the random model");
    path
}

// ---------------------------------------------------------------------------------
// Comparing outputs

/// One `pos` line: everything that must match exactly, and the numbers.
#[derive(Debug)]
struct Line {
    /// `pos N RULES seat=S turn|claim legal=L best=ACTION`.
    key: String,
    p: Option<f32>,
    value: Option<f32>,
    top3: Vec<(String, Option<f32>)>,
}

fn num(s: &str) -> Option<f32> {
    (s != "-").then(|| s.parse().unwrap_or_else(|_| panic!("bad number {s:?}")))
}

fn parse_line(line: &str) -> Line {
    let mut key = Vec::new();
    let (mut p, mut value, mut top3) = (None, None, Vec::new());
    for field in line.split(' ') {
        if let Some(v) = field.strip_prefix("p=") {
            p = num(v);
        } else if let Some(v) = field.strip_prefix("value=") {
            value = num(v);
        } else if let Some(v) = field.strip_prefix("top3=") {
            top3 = v
                .split(',')
                .map(|a| match a.rsplit_once(':') {
                    // `discard:5p:0.25` or `pass:0.5`; `discard:5p` alone has no number.
                    Some((name, x)) if x.parse::<f32>().is_ok() => (name.to_string(), num(x)),
                    _ => (a.to_string(), None),
                })
                .collect();
        } else {
            key.push(field);
        }
    }
    Line {
        key: key.join(" "),
        p,
        value,
        top3,
    }
}

fn close(a: Option<f32>, b: Option<f32>, max: &mut f32) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => {
            let d = (a - b).abs();
            *max = max.max(d);
            d <= TOL
        }
        (None, None) => true,
        _ => false,
    }
}

/// Compares two outputs of the advisor; returns the largest |Δ| of a probability or
/// value. Top-3 entries may swap only when their probabilities tie within [`TOL`].
fn compare(what: &str, host: &str, other: &str) -> f32 {
    let (h, o): (Vec<&str>, Vec<&str>) = (host.lines().collect(), other.lines().collect());
    assert_eq!(
        h.len(),
        o.len(),
        "{what}: {} lines vs {} on the host\n--- host\n{host}\n--- {what}\n{other}",
        o.len(),
        h.len()
    );
    let mut max = 0f32;
    for (i, (hl, ol)) in h.iter().zip(&o).enumerate() {
        if hl.starts_with("checksum") || ol.starts_with("checksum") {
            assert_eq!(
                ol, hl,
                "{what}: checksum line differs (left: {what}, right: host)"
            );
            continue;
        }
        let (a, b) = (parse_line(hl), parse_line(ol));
        let ctx = format!("{what}, line {}:\n  host: {hl}\n  {what}: {ol}", i + 1);
        assert_eq!(
            b.key, a.key,
            "{ctx}\n(position, legal count or best action differ)"
        );
        assert!(
            close(a.p, b.p, &mut max),
            "{ctx}\n(probability differs by more than {TOL})"
        );
        assert!(
            close(a.value, b.value, &mut max),
            "{ctx}\n(value differs by more than {TOL})"
        );
        assert_eq!(a.top3.len(), b.top3.len(), "{ctx}");
        for ((an, ap), (bn, bp)) in a.top3.iter().zip(&b.top3) {
            if an == bn {
                assert!(close(*ap, *bp, &mut max), "{ctx}\n(top-3 {an} differs)");
            } else {
                // A swap of two nearly tied actions is not a disagreement.
                assert!(
                    close(*ap, *bp, &mut 0.0) && ap.is_some(),
                    "{ctx}\n(top-3 order differs: {an} vs {bn})"
                );
            }
        }
    }
    max
}

/// The binary's whole output (its `pos` lines and the checksum line) computed in this
/// process with `model`, or efficiency-only for `None`; the format and the checksum
/// (64-bit FNV-1a over each best action's index and legal count, little-endian u16s)
/// are written here independently of the binary's code.
fn in_process_output(model: Option<&Path>, positions: &str) -> String {
    let advisor = match model {
        Some(m) => Advisor::load(m).expect("load the model in-process"),
        None => Advisor::efficiency_only(),
    };
    let num = |x: Option<f32>| x.map_or_else(|| "-".to_string(), |x| x.to_string());
    let name = |a: &inference::RankedAction| match &a.tile {
        Some(t) => format!("{}:{t}", a.kind),
        None => a.kind.to_string(),
    };
    let mut out = String::new();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut fnv = |bytes: [u8; 2]| {
        for b in bytes {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    let lines = positions
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let mut count = 0;
    for (n, line) in lines.enumerate() {
        let (obs, legal) = from_json(line).expect("position");
        let advice = advisor.advise_with_legal(&obs, &legal).expect("advice");
        let best = &advice.actions[0];
        fnv((best.index as u16).to_le_bytes());
        fnv((advice.actions.len() as u16).to_le_bytes());
        let top3: Vec<String> = advice
            .actions
            .iter()
            .take(3)
            .map(|a| match a.probability {
                Some(p) => format!("{}:{p}", name(a)),
                None => name(a),
            })
            .collect();
        let rules = if obs.rules.players == 3 {
            "sanma"
        } else {
            "four-player"
        };
        let window = if obs.pending.is_some() {
            "claim"
        } else {
            "turn"
        };
        out.push_str(&format!(
            "pos {n} {rules} seat={} {window} legal={} best={} p={} value={} top3={}\n",
            obs.seat,
            advice.actions.len(),
            name(best),
            num(best.probability),
            num(advice.value),
            top3.join(",")
        ));
        count += 1;
    }
    let source = if model.is_some() {
        "model"
    } else {
        "efficiency-only"
    };
    out.push_str(&format!(
        "checksum {hash:016x} positions={count} source={source}\n"
    ));
    out
}

fn timing(stderr: &str) -> &str {
    stderr
        .lines()
        .find(|l| l.contains("timing:"))
        .unwrap_or("(no timing line)")
}

/// Whether this is the full test tier (`MAHJONG_FULL_TESTS`, `scripts/test --full`).
fn full_tier() -> bool {
    std::env::var_os("MAHJONG_FULL_TESTS").is_some()
}

#[test]
fn linux_advisor_matches_host_under_qemu() {
    require_cross_tools();
    let scratch = demo_target_dir().join("scratch");
    let random = random_model(&scratch);
    let host = host_triple();
    // The fast tier builds no host binary (one cross build of tract fewer): the ARM
    // output is compared with the advice computed in this process, which the full
    // tier also compares with the host binary.
    let mut triples = Vec::new();
    if full_tier() {
        triples.push(host.clone());
    }
    triples.extend(arm_targets().iter().map(|t| t.to_string()));
    let bins = build_demo(&triples);
    let (host_bin, arm_bins) = if full_tier() {
        (Some(&bins[0]), &bins[1..])
    } else {
        (None, &bins[..])
    };
    let root = repo_root();

    let mut models: Vec<(String, Option<PathBuf>)> = vec![
        ("random model".into(), Some(random.clone())),
        ("efficiency-only".into(), None),
    ];
    let trained = root.join("models/default.onnx");
    if trained.exists() {
        models.push(("models/default.onnx".into(), Some(trained)));
    } else {
        eprintln!("models/default.onnx absent: compared with the random model only");
    }
    let positions = std::fs::read_to_string(positions_path()).expect("positions.jsonl");

    for (label, model) in &models {
        let args: Vec<String> = match model {
            Some(m) => vec!["--model".into(), m.display().to_string()],
            None => vec!["--efficiency-only".into()],
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let reference = in_process_output(model.as_deref(), &positions);
        let baseline = match host_bin {
            Some(bin) => {
                let h = run_binary(&[], bin, &args, &root);
                assert_eq!(
                    h.code,
                    Some(0),
                    "host binary ({label}) failed:\n{}{}",
                    h.stdout,
                    h.stderr
                );
                eprintln!(
                    "[{label}] host ({host}): {:.2} s; {}",
                    h.seconds,
                    timing(&h.stderr)
                );
                let d = compare("in-process advisor", &h.stdout, &reference);
                eprintln!("[{label}] host binary vs in-process advisor: max |Δ| {d:e}");
                h.stdout
            }
            None => reference.clone(),
        };
        if model.is_none() {
            assert_eq!(baseline, reference, "efficiency-only: host vs in-process");
        }
        for (t, bin) in arm_targets().iter().zip(arm_bins) {
            let runner = config_entry(t, "runner");
            let o = run_binary(&runner, bin, &args, &root);
            assert_eq!(
                o.code,
                Some(0),
                "{t} binary ({label}) under {} failed:\n{}{}",
                runner.join(" "),
                o.stdout,
                o.stderr
            );
            let d = compare(t, &baseline, &o.stdout);
            eprintln!(
                "[{label}] {t} under {}: {:.2} s, max |Δ| vs {} {d:e}; {}",
                runner[0],
                o.seconds,
                if host_bin.is_some() {
                    "host"
                } else {
                    "in-process"
                },
                timing(&o.stderr)
            );
            if model.is_none() {
                assert_eq!(o.stdout, baseline, "{t}: efficiency-only output differs");
            }
        }
    }
}

#[test]
fn linux_advisor_rejects_bad_input() {
    // The host binary in the full tier; in the fast tier, which builds none, the
    // aarch64 one under QEMU (exit statuses and stderr pass through qemu-user).
    let (runner, bin) = if full_tier() {
        (Vec::new(), build_demo(&[host_triple()]).remove(0))
    } else {
        require_cross_tools();
        let t = ARM_TARGETS[0];
        (
            config_entry(t, "runner"),
            build_demo(&[t.to_string()]).remove(0),
        )
    };
    let scratch = demo_target_dir().join("scratch-bad");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("scratch");
    let run = |args: &[&str]| run_binary(&runner, &bin, args, &scratch);
    let fails = |args: &[&str], code: i32, needle: &str| {
        let o = run(args);
        assert_eq!(
            o.code,
            Some(code),
            "{args:?}: exit status {:?}, want {code}; stderr:\n{}",
            o.code,
            o.stderr
        );
        assert!(
            o.stderr.contains(needle) && !o.stderr.contains("panicked"),
            "{args:?}: stderr should say {needle:?} (and not panic):\n{}",
            o.stderr
        );
    };

    // No models/ in the working directory: the shipped model compiled into the binary.
    let o = run(&[]);
    assert_eq!(o.code, Some(0), "default run failed:\n{}", o.stderr);
    assert!(
        o.stderr.contains("embedded default model") && o.stdout.contains("source=model"),
        "the default must be the embedded model:\n{}\n{}",
        o.stderr,
        o.stdout
    );
    let shipped = repo_root().join("models/default.onnx");
    let file = run(&["--model", shipped.to_str().expect("UTF-8 path")]);
    assert_eq!(file.code, Some(0), "{}", file.stderr);
    assert_eq!(o.stdout, file.stdout, "embedded and on-disk model differ");

    fails(&["--model", "nowhere.onnx"], 1, "cannot load the model");
    // The io error is named once, not in the message and again as its cause.
    let cause = std::fs::read(scratch.join("nowhere.onnx"))
        .expect_err("no such file")
        .to_string();
    let o = run(&["--model", "nowhere.onnx"]);
    assert_eq!(o.stderr.matches(&cause).count(), 1, "{cause}: {}", o.stderr);
    let corrupt = scratch.join("corrupt.onnx");
    std::fs::write(&corrupt, b"\x08\x07not an onnx file at all").expect("write");
    std::fs::write(Sidecar::path_for(&corrupt), "{}").expect("write");
    fails(
        &["--model", corrupt.to_str().expect("utf-8")],
        1,
        "cannot load the model",
    );
    let random = random_model(&scratch);
    std::fs::write(
        Sidecar::path_for(&random),
        "{\"format\": \"something else\"}",
    )
    .expect("write");
    fails(
        &["--model", random.to_str().expect("utf-8")],
        1,
        "cannot load the model",
    );

    let bad = scratch.join("bad.jsonl");
    std::fs::write(
        &bad,
        "# comment\n{\"hand\": \"123m456p789s1122z3z\"}\n{\"hand\": \"123m\"}\n",
    )
    .expect("write");
    fails(
        &[
            "--efficiency-only",
            "--positions",
            bad.to_str().expect("utf-8"),
        ],
        1,
        "line 3",
    );
    std::fs::write(&bad, "not json\n").expect("write");
    fails(
        &[
            "--efficiency-only",
            "--positions",
            bad.to_str().expect("utf-8"),
        ],
        1,
        "line 1",
    );
    fails(
        &["--efficiency-only", "--positions", "missing.jsonl"],
        1,
        "missing.jsonl",
    );
    fails(&["--frobnicate"], 2, "unknown argument");
    fails(&["--model"], 2, "--model needs a value");
    fails(
        &["--model", "x.onnx", "--efficiency-only"],
        2,
        "exclude each other",
    );
}
