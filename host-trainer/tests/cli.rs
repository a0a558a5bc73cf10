//! The first hour of a new user: defaults that work from any directory, aligned tables,
//! errors said once, flags that list their values, completions and the man page.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use unicode_width::UnicodeWidthStr;

/// A fresh directory that holds no `models/` folder.
fn elsewhere(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn host_trainer(args: &[&str], cwd: &Path) -> (String, String, bool) {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_host-trainer"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("spawn host-trainer");
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.success(),
    )
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

const SANMA_HAND: &str = "19m123p456s77z1234z";

#[test]
fn advise_defaults_to_the_embedded_model_and_its_rules_from_any_directory() {
    let dir = elsewhere("advise-default");
    assert!(!dir.join("models").exists());
    let (out, err, ok) = host_trainer(&["advise", "--hand", SANMA_HAND, "--json"], &dir);
    assert!(ok, "{err}");
    assert!(!err.contains("efficiency evaluator only"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["source"]["kind"], "model", "{out}");
    assert_eq!(v["source"]["path"], "embedded default model");
    assert_eq!(v["source"]["sidecar"]["rules"], "sanma");
    assert!(v["value"].as_f64().is_some());
    // Nothing names the build machine's checkout.
    let checkout = std::fs::canonicalize(repo()).unwrap();
    let text = host_trainer(&["advise", "--hand", SANMA_HAND], &dir).0;
    assert!(!text.contains(checkout.to_str().unwrap()), "{text}");
    assert!(
        text.contains("source policy embedded default model (run ship"),
        "{text}"
    );
}

#[test]
fn the_rules_default_to_those_of_a_given_models_sidecar() {
    let dir = elsewhere("advise-sidecar");
    // A copy of the shipped model under another name: --model reads its sidecar.
    for ext in ["onnx", "json"] {
        std::fs::copy(
            repo().join(format!("models/default.{ext}")),
            dir.join(format!("mine.{ext}")),
        )
        .unwrap();
    }
    let (out, err, ok) = host_trainer(
        &[
            "advise",
            "--model",
            "mine.onnx",
            "--hand",
            SANMA_HAND,
            "--json",
        ],
        &dir,
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["source"]["path"], "mine.onnx", "the path as given");
    // A four-player hand under the sidecar's sanma rules says where the rules came from.
    let (_, err, ok) = host_trainer(&["advise", "--hand", "123m456p789s1122z3z"], &dir);
    assert!(!ok);
    assert!(
        err.contains("sanma rules, those of the embedded default model") && err.contains("--rules"),
        "{err}"
    );
    // --no-model has no sidecar: four-player.
    let (_, err, ok) = host_trainer(
        &["advise", "--no-model", "--hand", "123m456p789s1122z3z"],
        &dir,
    );
    assert!(ok, "{err}");
}

#[test]
fn a_bad_model_path_is_one_clear_error_with_its_cause_once() {
    let dir = elsewhere("bad-model");
    let (_, err, ok) = host_trainer(
        &["advise", "--model", "missing.onnx", "--hand", SANMA_HAND],
        &dir,
    );
    assert!(!ok);
    assert!(
        err.contains("cannot load the model given by --model"),
        "{err}"
    );
    assert!(err.contains("reading the model missing.onnx"), "{err}");
    // The OS's words for the missing file, as this process gets them.
    let cause = std::fs::read(dir.join("missing.onnx"))
        .unwrap_err()
        .to_string();
    assert_eq!(err.matches(&cause).count(), 1, "{cause}: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
}

#[test]
fn every_row_of_the_advice_table_has_one_display_width() {
    let dir = elsewhere("table");
    // 7z (🀄) is two columns wide, the other tiles one.
    for args in [
        vec!["advise", "--hand", SANMA_HAND],
        vec!["advise", "--hand", "19m19p19s1234567z7z", "--no-model"],
    ] {
        let (out, err, ok) = host_trainer(&args, &dir);
        assert!(ok, "{err}");
        assert!(out.contains('🀄'), "{out}");
        let rows: Vec<&str> = out
            .lines()
            .skip_while(|l| !l.trim_start().starts_with('#'))
            .collect();
        assert!(rows.len() > 5, "{out}");
        let widths: Vec<usize> = rows.iter().map(|r| r.width()).collect();
        assert!(widths.iter().all(|&w| w == widths[0]), "{widths:?}\n{out}");
    }
}

#[test]
fn closed_choices_list_their_values() {
    let dir = elsewhere("values");
    let (_, err, ok) = host_trainer(&["advise", "--rules", "Sanma", "--hand", SANMA_HAND], &dir);
    assert!(!ok);
    assert!(
        err.contains("invalid value 'Sanma'")
            && err.contains(
                "[possible values: sanma, four-player, tenhou-sanma, tenhou-4p, \
                 tenhou-sanma-east, tenhou-4p-east, majsoul-sanma, majsoul-4p, \
                 majsoul-sanma-east, majsoul-4p-east]"
            ),
        "{err}"
    );
    assert!(
        err.contains("tip: a similar value exists: 'sanma'"),
        "{err}"
    );
    let (_, err, ok) = host_trainer(&["arena", "--seats", "eff,Random,random"], &dir);
    assert!(!ok);
    assert!(
        err.contains("possible values: random, eff, defend, model, search"),
        "{err}"
    );
    let (help, _, ok) = host_trainer(&["advise", "--help"], &dir);
    assert!(ok);
    for value in ["- sanma:", "- four-player:", "- weighted:", "- uniform:"] {
        assert!(help.contains(value), "--help lacks {value}: {help}");
    }
}

#[test]
fn report_checks_the_run_first_and_refuses_to_overwrite_a_report() {
    let dir = elsewhere("report");
    let (_, err, ok) = host_trainer(&["report", "--run", "MISSING", "--quiet"], &dir);
    assert!(!ok);
    assert!(err.contains("--run MISSING: not a training run"), "{err}");
    assert!(
        !err.contains("model"),
        "the model is not the first problem: {err}"
    );
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("REPORT.md"), "somebody's report\n").unwrap();
    let run = repo().join("models/run");
    let model = repo().join("models/default.onnx");
    let args = [
        "report",
        "--run",
        run.to_str().unwrap(),
        "--model",
        model.to_str().unwrap(),
        "--out",
        "out",
        "--hands",
        "3",
        "--quiet",
    ];
    let (_, err, ok) = host_trainer(&args, &dir);
    assert!(!ok);
    assert!(err.contains("out/REPORT.md exists; pass --force"), "{err}");
    assert_eq!(
        std::fs::read_to_string(out.join("REPORT.md")).unwrap(),
        "somebody's report\n"
    );
}

#[test]
fn completions_and_man_page() {
    let dir = elsewhere("completions");
    let (bash, err, ok) = host_trainer(&["completions", "bash"], &dir);
    assert!(ok, "{err}");
    for sub in [
        "shanten",
        "score",
        "arena",
        "advise",
        "report",
        "completions",
        "man",
    ] {
        assert!(bash.contains(sub), "bash completion lacks {sub}");
    }
    assert!(bash.contains("complete -F"), "not a bash completion script");
    for shell in ["zsh", "fish"] {
        let (text, err, ok) = host_trainer(&["completions", shell], &dir);
        assert!(ok && text.contains("advise"), "{shell}: {err}");
    }
    let (man, err, ok) = host_trainer(&["man"], &dir);
    assert!(ok, "{err}");
    assert!(man.contains(".SH NAME"), "{man}");
    assert!(man.contains("host\\-trainer"), "{man}");
    let (_, err, ok) = host_trainer(&["completions", "tcsh"], &dir);
    assert!(!ok && err.contains("possible values"), "{err}");
}
