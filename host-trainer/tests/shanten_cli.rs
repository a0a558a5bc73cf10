//! Runs `host-trainer shanten` as a process.

mod cli_common;

fn run(args: &[&str], stdin: &str) -> (String, String, bool) {
    cli_common::run_in("shanten", args, stdin, None)
}

#[test]
fn shanten_from_stdin() {
    let (out, err, ok) = run(&[], "5688m1112478p136s\n\n  19m19p19s12345677z  \n");
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "5688m1112478p136s\t2\t4\t10\t2\n19m19p19s12345677z\t7\t5\t-1\t-1\n"
    );
}

#[test]
fn ukeire_from_arguments() {
    let (out, err, ok) = run(&["--ukeire", "123677m1257p5s17z", "123m456p789s1122z"], "");
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "123677m1257p5s17z\t3\t45678m36p34567s17z\t14\t50\n123m456p789s1122z\t0\t12z\t2\t4\n"
    );
}

#[test]
fn bad_lines_are_reported_and_others_answered() {
    let (out, err, ok) = run(&["--sanma"], "123p456s789p11z22z\n5m\n19m19p19s1234567z\n");
    assert!(!ok);
    assert!(err.contains("line 2"), "{err}");
    assert!(err.contains("5m does not exist"), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[1].starts_with("19m19p19s1234567z\t"));
    assert!(lines[1].ends_with("\t0"));
}

#[test]
fn melds_option() {
    let (out, _, ok) = run(&["--melds", "4", "5z", "55z"], "");
    assert!(ok);
    assert_eq!(out, "5z\t0\t-\t-\t0\n55z\t-1\t-\t-\t-1\n");
    let (_, err, ok) = run(&["--ukeire", "123m"], "");
    assert!(!ok);
    assert!(err.contains("argument 1"), "{err}");
}

#[test]
fn riichi_presets_read_red_fives_as_fives() {
    let (red, err, ok) = run(&["--rules", "tenhou-sanma", "19m0p5p123s111222z"], "");
    assert!(ok, "{err}");
    let (plain, err, ok) = run(&["--rules", "tenhou-sanma", "19m55p123s111222z"], "");
    assert!(ok, "{err}");
    // Same shanten columns; the echoed hand differs.
    assert_eq!(
        red.split('\t').skip(1).collect::<Vec<_>>(),
        plain.split('\t').skip(1).collect::<Vec<_>>()
    );
    // tenhou-sanma has one red 5p; the simple presets have none.
    let (_, err, ok) = run(&["--rules", "tenhou-sanma", "19m0p0p123s111222z"], "");
    assert!(!ok && err.contains("red 5p"), "{err}");
    let (_, err, ok) = run(&["--rules", "tenhou-sanma", "19m0m5p123s111222z"], "");
    assert!(!ok, "{err}");
    let (_, err, ok) = run(&["--rules", "four-player", "19m0p5p123s111222z"], "");
    assert!(!ok, "{err}");
    // --rules and --sanma do not combine.
    let (_, _, ok) = run(
        &["--rules", "tenhou-4p", "--sanma", "19m55p123s111222z"],
        "",
    );
    assert!(!ok);
}
