//! The page's protocol, natively: answers of every op, bad input answered with a clear
//! error (never a panic), the module's exports round-tripping bytes, a real hanchan
//! reviewed and written as one HTML file.

use std::path::PathBuf;

use mahjong_web::request::handle;
use serde_json::{json, Value};

fn ask(req: Value) -> Value {
    serde_json::from_str(&handle(&req.to_string())).expect("every answer is JSON")
}

fn ok(req: Value) -> Value {
    let a = ask(req.clone());
    assert_eq!(a["ok"], true, "{req} → {a}");
    a["result"].clone()
}

fn error(req: Value) -> String {
    let a = ask(req.clone());
    assert_eq!(a["ok"], false, "{req} → {a}");
    a["error"].as_str().unwrap().to_string()
}

fn real_log(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/real-logs")
        .join(rel);
    std::fs::read_to_string(&p).unwrap()
}

const HANCHAN: &str = "mjx-project__mjx/2010081709gm-00a9-0000-fe3371ad.json";

#[test]
fn presets_list_every_preset_and_the_shipped_models() {
    let r = ok(json!({"op": "presets"}));
    let presets: Vec<&str> = r["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        presets.contains(&"tenhou-4p") && presets.contains(&"sanma"),
        "{presets:?}"
    );
    let models: Vec<&str> = r["models"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(models, ["sanma", "tenhou-sanma", "tenhou-4p"]);
}

#[test]
fn efficiency_advice_ranks_the_isolated_honour_first() {
    // 123m456p789s 11z 22z + 3z: complete but for the pair, every honour but 3z kept.
    let r = ok(
        json!({"op": "advise", "position": {"hand": "123m456p789s1122z3z"}, "ranker": "efficiency"}),
    );
    assert_eq!(r["source"]["kind"], "efficiency_only");
    assert_eq!(r["shanten"], 0);
    let first = &r["actions"][0];
    assert_eq!(
        (first["kind"].as_str(), first["tile"].as_str()),
        (Some("discard"), Some("3z")),
        "{first}"
    );
    assert_eq!(first["discard"]["shanten_after"], 0);
}

#[test]
fn model_advice_takes_the_model_that_fits_the_rules() {
    let sanma = ok(json!({"op": "advise", "ranker": "model",
        "position": {"rules": "sanma", "hand": "19m123p456p789s11z2z"}}));
    assert_eq!(sanma["source"]["kind"], "model");
    assert_eq!(sanma["source"]["sidecar"]["rules"], "sanma");
    let total: f64 = sanma["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["probability"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-4, "{total}");
    // Four-player: no shipped model fits; efficiency, as the CLI's default does.
    let four =
        ok(json!({"op": "advise", "ranker": "model", "position": {"hand": "123m456p789s1122z3z"}}));
    assert_eq!(four["source"]["kind"], "efficiency_only");
}

#[test]
fn search_ranks_the_candidates_by_rollouts() {
    let r = ok(json!({"op": "search", "budget_ms": 200, "seed": 1,
        "position": {"hand": "123m456p78s11z2z3z9p5m", "discards": ["", "1m", "9s", "4z"]}}));
    assert!(r["worlds"].as_u64().unwrap() > 0);
    assert!(r["candidates"].as_array().unwrap().len() >= 2);
}

#[test]
fn bad_input_gets_a_clear_error() {
    let cases = [
        (
            json!({"op": "advise", "position": {"hand": "123m456p789s11223z3z"}}),
            "tile",
        ),
        (
            json!({"op": "advise", "position": {"hand": "123m456p789s1122x"}}),
            "x",
        ),
        (json!({"op": "advise", "position": {}}), "hand"),
        (json!({"op": "dance"}), "op"),
        (json!({"op": "review", "log": "{\"log\": [[[250"}), "log"),
        (json!({"op": "log_players", "log": ""}), "log"),
    ];
    for (req, needle) in cases {
        let e = error(req.clone());
        assert!(e.to_lowercase().contains(needle), "{req}: {e}");
    }
    let raw = handle("{not json");
    assert!(raw.contains("\"ok\":false"), "{raw}");
}

#[test]
fn the_exports_round_trip_a_request() {
    use mahjong_web::abi::{mj_alloc, mj_answer_len, mj_answer_ptr, mj_request};
    for text in [&br#"{"op":"presets"}"#[..], &[0xff, 0xfe, b'{'][..]] {
        let ptr = mj_alloc(text.len());
        // SAFETY: `ptr` is a fresh buffer of `text.len()` bytes from `mj_alloc`.
        let answer = unsafe {
            std::ptr::copy_nonoverlapping(text.as_ptr(), ptr, text.len());
            let len = mj_request(ptr, text.len());
            assert_eq!(len, mj_answer_len());
            String::from_utf8(std::slice::from_raw_parts(mj_answer_ptr(), len).to_vec()).unwrap()
        };
        let v: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(v["ok"], text[0] == b'{', "{answer}");
    }
}

#[test]
fn a_real_hanchan_reviews_and_writes_one_small_html_file() {
    let log = real_log(HANCHAN);
    let info = ok(json!({"op": "log_players", "log": log}));
    assert_eq!(info["player_count"], 4);
    let r = ok(json!({"op": "review", "log": log, "seat": 1, "file": "game.json"}));
    let rows = r["rows"].as_array().unwrap();
    assert!(rows.len() > 20, "{} decisions", rows.len());
    assert_eq!(r["decisions"].as_u64().unwrap() as usize, rows.len());
    for row in rows {
        assert_eq!(row["view"]["seat"], 1);
        assert!(!row["ranking"].as_array().unwrap().is_empty());
        let hand_tiles: usize = row["view"]["hand"]
            .as_str()
            .unwrap()
            .chars()
            .filter(|c| c.is_ascii_digit())
            .count();
        assert!((1..=14).contains(&hand_tiles), "{row}");
    }
    let parsed = mahjong_logs::read(&log, None, None).unwrap();
    let review = mahjong_web::review::review_log(
        &parsed,
        "game </script> .json",
        1,
        &mahjong_web::review::Ranker::Advisor(inference::Advisor::efficiency_only()),
    )
    .unwrap();
    let page = mahjong_web::html::review_html(&review).unwrap();
    assert!(page.len() < 2_000_000, "{} bytes", page.len());
    assert!(
        !page.contains("http://") && !page.contains("https://"),
        "no network"
    );
    // The file name cannot close the data's script element.
    assert_eq!(page.matches("</script>").count(), 2);
    assert!(page.contains("showReview("));
}
