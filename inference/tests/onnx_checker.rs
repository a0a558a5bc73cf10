//! The exported graph passes the reference checker of the PyPI `onnx` package
//! (`scripts/check_onnx.py`: `onnx.checker.check_model(full_check=True)`). Needs the
//! project's `.venv` with `onnx` (installed by `scripts/setup`); without it the test
//! prints a note and passes, so plain `cargo test` works on a bare machine.

mod common;

use std::path::Path;
use std::process::Command;

use inference::onnx_export::export;
use inference::{ModelConfig, Sidecar, Weights};

#[test]
fn onnx_checker_accepts_the_export() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let python = root.join(".venv/bin/python");
    let has_onnx = python.exists()
        && Command::new(&python)
            .args(["-c", "import onnx"])
            .status()
            .is_ok_and(|s| s.success());
    if !has_onnx {
        eprintln!("note: .venv with the onnx package not found (run scripts/setup); skipping");
        return;
    }
    let dir = common::scratch("checker");
    let mut paths = Vec::new();
    for (i, cfg) in [
        ModelConfig {
            layers: 1,
            d_model: 32,
            heads: 4,
            ff: 64,
            tokens: engine::tile::TileSet::FourPlayer,
        },
        ModelConfig::default(),
        ModelConfig {
            layers: 0,
            d_model: 8,
            heads: 1,
            ff: 8,
            tokens: engine::tile::TileSet::FourPlayer,
        },
    ]
    .into_iter()
    .enumerate()
    {
        let path = dir.join(format!("m{i}.onnx"));
        let w = Weights::random(cfg, i as u64).unwrap();
        export(
            &w,
            &Sidecar::new(cfg, "four-player", "checker", 0, "checker test"),
            &path,
        )
        .unwrap();
        paths.push(path);
    }
    let out = Command::new(&python)
        .arg(root.join("scripts/check_onnx.py"))
        .args(&paths)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    println!("{text}");
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("obs['B', 35, 36] -> logits['B', 141], value['B']"),
        "{text}"
    );
}
