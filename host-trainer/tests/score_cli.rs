//! Runs `host-trainer score` as a process: one hand from flags (text and JSON), JSON
//! lines on stdin with per-line errors, and clear messages for bad input.

mod cli_common;

fn run(args: &[&str], stdin: &str) -> (String, String, bool) {
    cli_common::run_in("score", args, stdin, None)
}

#[test]
fn one_hand_as_text() {
    // Riichi, menzen tsumo, pinfu, one red five: 4 han 20 fu by a South seat.
    let (out, err, ok) = run(
        &[
            "123m406m234p567s99p",
            "--win",
            "4p",
            "--tsumo",
            "--riichi",
            "--seat",
            "S",
            "--rules",
            "tenhou-4p",
            "--dora",
            "1z",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("riichi            1 han"), "{out}");
    assert!(out.contains("pinfu"), "{out}");
    assert!(out.contains("aka_dora          1 han"), "{out}");
    assert!(
        out.contains("4 han 20 fu, none (1280 basic points)"),
        "{out}"
    );
    assert!(
        out.contains("tsumo: 2600 from the dealer, 1300 from each of 2 non-dealers"),
        "{out}"
    );
    assert!(out.ends_with("total: 5200\n"), "{out}");
}

#[test]
fn one_hand_as_json_with_melds_and_kita() {
    let (out, err, ok) = run(
        &[
            "123p789s11s999m",
            "--melds",
            "p555z",
            "--win",
            "1s",
            "--kita",
            "2",
            "--dora",
            "3z",
            "--honba",
            "1",
            "--sticks",
            "1",
            "--json",
        ],
        "",
    );
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["rules"], "tenhou-sanma");
    // Open chanta (1) and haku (1), two kita that are also dora (north): 6 han.
    let names: Vec<&str> = v["yaku"]
        .as_array()
        .unwrap()
        .iter()
        .map(|y| y["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["haku", "chanta"]);
    assert_eq!((v["kita"].as_u64(), v["dora"].as_u64()), (Some(2), Some(2)));
    assert_eq!(v["han"], 6);
    assert_eq!(v["limit"], "haneman");
    // Dealer ron haneman, one sanma honba (200), one riichi stick.
    assert_eq!(v["payment"]["from_discarder"], 18_200);
    assert_eq!(v["payment"]["total"], 19_200);
}

#[test]
fn json_lines_on_stdin() {
    let input = concat!(
        r#"{"hand": "19m19p19s12345677z", "win": "7z", "seat": "S"}"#,
        "\n\n",
        r#"{"hand": "123m456m234p567s98p", "win": "8p"}"#,
        "\n",
        r#"{"hand": "123m456m567s99p", "melds": ["c234p"], "win": "9p", "tsumo": true, "haitei": true}"#,
        "\n",
        "not json\n",
    );
    let (out, err, ok) = run(&["--json", "--rules", "tenhou-4p"], input);
    assert!(!ok);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0]["yaku"][0]["name"], "kokushi_13_wait");
    assert_eq!(lines[0]["yakuman"], 1);
    assert_eq!(lines[0]["payment"]["from_discarder"], 32_000);
    assert_eq!(lines[1]["yaku"][0]["name"], "haitei");
    assert!(
        err.contains("line 3: 123m456m234p567s98p: not a winning hand"),
        "{err}"
    );
    assert!(err.contains("line 5: not a JSON hand object"), "{err}");
    assert!(err.contains("2 hand(s) could not be scored"), "{err}");
}

#[test]
fn clear_errors() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["123m456m234p567s99p", "--rules", "tenhou-sanma"],
            "2m does not exist",
        ),
        (&["123m456m234p567s99p", "--rules", "tenhou-4p"], "no yaku"),
        (
            &["123m456m567s99p", "--melds", "x234p", "--rules", "4p"],
            "meld \"x234p\"",
        ),
        (
            &["123m456m567s99p", "--melds", "c235p", "--rules", "4p"],
            "not the tiles",
        ),
        (&["123p456p789s11s999m", "--seat", "Q"], "seat wind \"Q\""),
    ];
    for (args, message) in cases {
        let (_, err, ok) = run(args, "");
        assert!(!ok, "{args:?}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let (_, err, ok) = run(&["123p456p789s11s999m", "--rules", "tenhou"], "");
    assert!(!ok);
    assert!(err.contains("tenhou-sanma"), "{err}");
}

/// A red five as dora indicator (`--dora 0m`) indicates like a plain five: 6m is dora.
#[test]
fn a_red_five_indicates_like_a_plain_one() {
    let args = |dora: &'static str| {
        [
            "123m406m234p567s99p",
            "--win",
            "4p",
            "--tsumo",
            "--riichi",
            "--seat",
            "S",
            "--rules",
            "tenhou-4p",
            "--dora",
            dora,
        ]
    };
    let (red, err, ok) = run(&args("0m"), "");
    assert!(ok, "{err}");
    let (plain, _, _) = run(&args("5m"), "");
    assert_eq!(red, plain);
    assert!(red.contains("dora              1 han"), "{red}");
    let (_, err, ok) = run(&args("0m"), "");
    assert!(ok && !err.contains("bad digit"), "{err}");
}

#[test]
fn mahjong_soul_counts_the_13_sided_kokushi_double() {
    let hand = ["19m19p19s12345677z", "--win", "7z", "--rules"];
    let (tenhou, err, ok) = run(&[&hand[..], &["tenhou-4p"]].concat(), "");
    assert!(ok, "{err}");
    assert!(tenhou.contains("kokushi_13_wait   yakuman x1"), "{tenhou}");
    let (majsoul, err, ok) = run(&[&hand[..], &["majsoul-4p"]].concat(), "");
    assert!(ok, "{err}");
    assert!(
        majsoul.contains("kokushi_13_wait   yakuman x2"),
        "{majsoul}"
    );
    assert!(majsoul.contains("(16000 basic points)"), "{majsoul}");
}
