//! Compiles the C programs (`tests/c/test_ffi.c`, `examples/server.c`, the README
//! snippet) with
//! `cc -Wall -Wextra -Werror -std=c11` against the committed header and the static
//! library that cargo built for this test run, runs them, and runs the test program and
//! the server under valgrind (skipped with a printed reason only where valgrind is
//! absent). The learned-policy advisor runs on small randomly initialised models that
//! [`model_dir`] writes (no trained model is needed).
//!
//! `scripts/sanitize` runs these tests again with the library built under
//! AddressSanitizer (nightly `-Zsanitizer=address`) and `MJ_FFI_CFLAGS` set to
//! `-fsanitize=address,undefined ...`: the flags are added to every compilation (and
//! link), the valgrind runs are skipped (valgrind cannot run a sanitized program), and,
//! always, a program's stderr must hold no sanitizer report, also where the program is
//! expected to fail.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use inference::onnx_export::export;
use inference::{ModelConfig, Sidecar, Weights};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The static library built alongside this test: `target/<profile>/deps/` holds the test
/// executable; the library is there and (uplifted) one level up. Take the newer one.
fn static_lib() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("deps dir");
    let candidates = [
        deps.join("libmahjong_ffi.a"),
        deps.parent().expect("profile dir").join("libmahjong_ffi.a"),
    ];
    candidates
        .iter()
        .filter(|p| p.exists())
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
        .cloned()
        .unwrap_or_else(|| panic!("libmahjong_ffi.a not found next to {}", exe.display()))
}

/// A fresh scratch directory for one compilation.
fn scratch_dir(name: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("mahjong-ffi-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// A directory with the models `tests/c/test_ffi.c` expects (written once per test
/// process): `policy.onnx` (sanma) and `four.onnx` (four-player), small random models
/// with their sidecars; `corrupt.onnx` (garbage) and `truncated.onnx` (half a model)
/// next to valid sidecars; `encoding.onnx`, a valid model whose sidecar claims another
/// encoding version. `missing.onnx` does not exist.
fn model_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ffi-c-models");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("model dir");
        let config = ModelConfig {
            layers: 1,
            d_model: 16,
            heads: 2,
            ff: 32,
            tokens: engine::tile::TileSet::FourPlayer,
        };
        for (name, rules, seed) in [("policy", "sanma", 1), ("four", "four-player", 2)] {
            let weights = Weights::random(config, seed).expect("random weights");
            let sidecar = Sidecar::new(config, rules, "runs/c-test", 7, "ffi c_program test");
            export(&weights, &sidecar, &dir.join(format!("{name}.onnx"))).expect("export");
        }
        let model = std::fs::read(dir.join("policy.onnx")).expect("read model");
        let sidecar = std::fs::read_to_string(dir.join("policy.json")).expect("read sidecar");
        let garbage: Vec<u8> = (0..2048u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 11) as u8)
            .collect();
        let other_encoding = sidecar.replace(
            &format!("\"encoding_version\": {}", engine::encode::ENCODING_VERSION),
            "\"encoding_version\": 999",
        );
        assert_ne!(other_encoding, sidecar);
        for (name, bytes, side) in [
            ("corrupt", &garbage[..], &sidecar),
            ("truncated", &model[..model.len() / 2], &sidecar),
            ("encoding", &model[..], &other_encoding),
        ] {
            std::fs::write(dir.join(format!("{name}.onnx")), bytes).expect("write model");
            std::fs::write(dir.join(format!("{name}.json")), side).expect("write sidecar");
        }
        dir
    })
}

fn model_dir_str() -> &'static str {
    model_dir().to_str().expect("UTF-8 temp dir")
}

/// Extra flags for every C compilation and link, from `MJ_FFI_CFLAGS` (split at
/// whitespace; `scripts/sanitize` passes the sanitizer flags here).
fn extra_cflags() -> Vec<String> {
    std::env::var("MJ_FFI_CFLAGS")
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Whether the programs are built with a sanitizer (`-fsanitize=...` in
/// `MJ_FFI_CFLAGS`).
fn sanitized() -> bool {
    extra_cflags().iter().any(|f| f.starts_with("-fsanitize="))
}

/// Compiles `source` into an executable and returns its path.
fn compile(source: &Path, name: &str) -> PathBuf {
    let out = scratch_dir(name).join(name);
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let output = Command::new(&cc)
        .args(["-Wall", "-Wextra", "-Werror", "-std=c11", "-g", "-O1"])
        .args(extra_cflags())
        .arg("-I")
        .arg(crate_dir().join("include"))
        .arg(source)
        .arg(static_lib())
        .args(["-lpthread", "-ldl", "-lm"])
        // tract-linalg's assembly kernels lack a .note.GNU-stack section; without this
        // flag GNU ld warns and marks the program's stack executable.
        .args(if cfg!(target_os = "linux") {
            &["-Wl,-z,noexecstack"][..]
        } else {
            &[][..]
        })
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cc}: {e}"));
    assert!(
        output.status.success(),
        "compiling {} failed:\n{}{}",
        source.display(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    out
}

/// Removes the scratch directory of a passing test (a failing one keeps it to inspect).
fn cleanup(exe: &Path) {
    if let Some(dir) = exe.parent() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

fn show(output: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Runs `exe args` and checks that its stderr holds no AddressSanitizer, LeakSanitizer
/// or UndefinedBehaviorSanitizer report (whatever the exit status: a program that is
/// expected to fail must not fail by a sanitizer's report either).
fn run(exe: &Path, args: &[&std::ffi::OsStr]) -> Output {
    let output = Command::new(exe)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("Sanitizer") && !stderr.contains("runtime error:"),
        "sanitizer report from {}:\n{}",
        exe.display(),
        show(&output)
    );
    output
}

fn valgrind_available() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `exe args` under valgrind; asserts zero errors and no leaks. The only
/// suppression (`tests/valgrind.supp`) is the TLS block of each of rayon's global pool
/// workers (the search's threads), which are still alive at exit: "possibly lost" by
/// memcheck's count, not a leak.
fn run_under_valgrind(exe: &Path, args: &[&str]) {
    if sanitized() {
        println!(
            "SKIPPED valgrind run of {}: built with a sanitizer (MJ_FFI_CFLAGS), which \
             valgrind cannot run",
            exe.display()
        );
        return;
    }
    if !valgrind_available() {
        println!(
            "SKIPPED valgrind run of {}: valgrind is not installed",
            exe.display()
        );
        return;
    }
    let output = Command::new("valgrind")
        .args([
            "--error-exitcode=1",
            "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect,possible",
        ])
        .arg(format!(
            "--suppressions={}",
            crate_dir().join("tests/valgrind.supp").display()
        ))
        .arg(exe)
        .args(args)
        .output()
        .expect("run valgrind");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "valgrind reported errors:\n{}",
        show(&output)
    );
    assert!(
        stderr.contains("ERROR SUMMARY: 0 errors"),
        "valgrind summary:\n{}",
        show(&output)
    );
    let summary = stderr
        .lines()
        .find(|l| l.contains("ERROR SUMMARY"))
        .unwrap_or_default();
    println!("valgrind {}: {summary}", exe.display());
}

#[test]
fn c_test_program() {
    let exe = compile(&crate_dir().join("tests/c/test_ffi.c"), "test_ffi");
    let output = run(&exe, &["3".as_ref(), model_dir().as_os_str()]);
    assert!(
        output.status.success(),
        "test_ffi failed:\n{}",
        show(&output)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("test_ffi: ok: 6 games")
            && stdout.contains("test_ffi: search: ok: 2 searches")
            && stdout.contains("test_ffi: advisor: ok"),
        "unexpected output:\n{}",
        show(&output)
    );
    println!("{}", stdout.trim());
    run_under_valgrind(&exe, &["1", model_dir_str()]);
    cleanup(&exe);
}

#[test]
fn c_server_example() {
    let exe = compile(&crate_dir().join("examples/server.c"), "server");
    let model = model_dir().join("policy.onnx");
    let model = model.to_str().expect("UTF-8 path");
    // Without a model (the efficiency advisor) and with one (the learned policy).
    for (args, expect) in [
        (&[][..], "advisor: efficiency"),
        (
            &[std::ffi::OsStr::new(model)][..],
            "advisor: learned policy",
        ),
    ] {
        let output = run(&exe, args);
        assert!(
            output.status.success(),
            "server example failed:\n{}",
            show(&output)
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains(expect) && stdout.contains("game over"),
            "unexpected output:\n{}",
            show(&output)
        );
    }
    // A missing model is reported, not crashed on.
    let output = run(&exe, &[model_dir().join("missing.onnx").as_os_str()]);
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("MJ_MODEL_ERROR"),
        "{}",
        show(&output)
    );
    run_under_valgrind(&exe, &[model]);
    cleanup(&exe);
}

/// The C snippet in `ffi/README.md` compiles and runs too.
#[test]
fn readme_example() {
    let readme = std::fs::read_to_string(crate_dir().join("README.md")).expect("README.md");
    let start = readme.find("```c\n").expect("a ```c block in README.md") + "```c\n".len();
    let len = readme[start..].find("```").expect("closing fence");
    let dir = scratch_dir("readme");
    let source = dir.join("readme_example.c");
    std::fs::write(&source, &readme[start..start + len]).expect("write snippet");
    let exe = compile(&source, "readme_example");
    let model = model_dir().join("policy.onnx");
    for args in [&[][..], &[model.as_os_str()][..]] {
        let output = run(&exe, args);
        assert!(
            output.status.success(),
            "README example failed:\n{}",
            show(&output)
        );
        assert!(String::from_utf8_lossy(&output.stdout).contains("game over"));
    }
    cleanup(&exe);
    let _ = std::fs::remove_dir_all(dir);
}
