//! With the `train` feature, links the binaries and tests with an rpath to libtorch's
//! library folder (reported by torch-sys as `DEP_TCH_LIBTORCH_LIB`), so they run
//! without `LD_LIBRARY_PATH`. With the `cuda` feature, also keeps `libtorch_cuda`
//! linked: the default `--as-needed` would drop it, since no symbol of it is referenced
//! directly, and the binary would silently see no GPU.
//!
//! Also records the git revision the binary is built from (`-dirty` when tracked files
//! differ from it) as `HOST_TRAINER_GIT_REVISION`, so that every run file names the
//! code that produced it, not whatever checkout the binary happens to run in.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

fn record_revision() {
    let revision = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    let dirty =
        git(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
    let suffix = if dirty { "-dirty" } else { "" };
    println!("cargo:rustc-env=HOST_TRAINER_GIT_REVISION={revision}{suffix}");
    // Rerun on a commit or checkout, and when the sources of the crates the binary is
    // built from change (for the dirty mark).
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/logs/HEAD");
    }
    for src in [
        "src",
        "../engine/src",
        "../search/src",
        "../inference/src",
        "../arena/src",
        "../report/src",
        "../mjai-bot/src",
        "../logs/src",
        "../web/src",
    ] {
        println!("cargo:rerun-if-changed={src}");
    }
}

fn main() {
    record_revision();
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");
    if std::env::var_os("CARGO_FEATURE_TRAIN").is_none() {
        return;
    }
    if let Ok(lib) = std::env::var("DEP_TCH_LIBTORCH_LIB") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
        if std::env::var_os("CARGO_FEATURE_CUDA").is_some() {
            println!("cargo:rustc-link-search=native={lib}");
            println!("cargo:rustc-link-arg=-Wl,--no-as-needed");
            println!("cargo:rustc-link-arg=-ltorch_cuda");
            println!("cargo:rustc-link-arg=-Wl,--as-needed");
        }
    }
}
