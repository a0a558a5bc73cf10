//! The embedded shipped model and the error messages' causes.

use std::error::Error as _;
use std::path::Path;

use inference::{shipped, Advisor, Error, PolicySource, Sidecar};

#[test]
fn the_embedded_model_is_the_shipped_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let on_disk = std::fs::read(root.join("models/default.onnx")).unwrap();
    assert_eq!(
        shipped::ONNX,
        &on_disk[..],
        "embedded bytes differ from the file"
    );
    let sidecar = Sidecar::load(&root.join("models/default.json")).unwrap();
    assert_eq!(shipped::sidecar().unwrap(), sidecar);
    let advisor = Advisor::shipped().unwrap();
    assert_eq!(advisor.sidecar(), Some(&sidecar));
    match advisor.source() {
        PolicySource::Model { path, .. } => assert_eq!(path, Path::new(shipped::NAME)),
        other => panic!("source {other:?}"),
    }
}

#[test]
fn from_bytes_checks_like_load() {
    let err = Advisor::from_bytes(shipped::ONNX, "{}", Path::new("m.onnx")).unwrap_err();
    assert!(matches!(err, Error::Sidecar { .. }), "{err}");
    assert!(err.to_string().contains("m.json"), "{err}");
    let err =
        Advisor::from_bytes(b"not onnx", shipped::SIDECAR_JSON, Path::new("m.onnx")).unwrap_err();
    assert!(matches!(err, Error::Model { .. }), "{err}");
}

#[test]
fn an_io_cause_is_the_source_and_not_in_the_message() {
    let err = Advisor::load(Path::new("/nonexistent/dir/x.onnx")).unwrap_err();
    let cause = err
        .source()
        .expect("the io::Error is the source")
        .to_string();
    assert!(!cause.is_empty());
    let message = err.to_string();
    assert!(!message.contains(&cause), "cause repeated in {message:?}");
    assert!(message.contains("x.onnx"), "{message}");
    // The one-line form has it exactly once.
    let full = err.full_message();
    assert_eq!(full.matches(&cause).count(), 1, "{full}");
    assert_eq!(full, format!("{message}: {cause}"));
}

/// The shipped model that fits each preset: the default for sanma, the riichi model for
/// tenhou-sanma and tenhou-4p (and their east variants), none for the simple four-player
/// rules.
#[test]
fn the_fitting_shipped_model_follows_the_rules() {
    use inference::shipped::{fitting, shipped_rules};
    assert_eq!(shipped_rules(), ["sanma", "tenhou-sanma", "tenhou-4p"]);
    let rules_of = |name: &str| {
        fitting(&engine::Rules::preset(name).unwrap())
            .unwrap()
            .map(|a| a.sidecar().unwrap().rules.clone())
    };
    assert_eq!(rules_of("sanma").as_deref(), Some("sanma"));
    assert_eq!(rules_of("tenhou-sanma").as_deref(), Some("tenhou-sanma"));
    assert_eq!(
        rules_of("tenhou-sanma-east").as_deref(),
        Some("tenhou-sanma")
    );
    assert_eq!(rules_of("four-player"), None);
    assert_eq!(rules_of("tenhou-4p").as_deref(), Some("tenhou-4p"));
    assert_eq!(rules_of("tenhou-4p-east").as_deref(), Some("tenhou-4p"));
    // Where none fits, every front-end says so in these words.
    assert_eq!(
        inference::shipped::none_fits("the rules four-player"),
        "no shipped model fits the rules four-player (shipped: sanma, tenhou-sanma, tenhou-4p)"
    );
}
