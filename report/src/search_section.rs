//! The report's search section: the rollout search beside the efficiency bot in the
//! same seats, read from `arena --paired-with … --json` files, and the belief
//! evaluation read from `belief --json`. The measurements are long (minutes to an hour
//! of CPU per budget), so they are run once, committed beside the report, and rendered
//! here; each row names the command that produced it.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Serialize;
use serde_json::Value;

/// One paired measurement.
#[derive(Clone, Debug, Serialize)]
pub struct SearchRun {
    /// The file it was read from.
    pub file: PathBuf,
    /// The command that produced it.
    pub command: String,
    /// The git revision it ran at.
    pub git_revision: String,
    /// Mean wall milliseconds per searched decision.
    pub ms_per_decision: f64,
    /// Decisions searched.
    pub searches: u64,
    /// Searches that failed (0 expected).
    pub failures: u64,
    /// Arena threads.
    pub threads: u64,
    /// The searching line-up, e.g. `search,eff,eff`.
    pub lineup: String,
    /// The paired differences (search minus efficiency bot), as written by `arena`.
    pub paired: Value,
    /// The search settings the run recorded (`null` for runs from before they were).
    pub search: Value,
}

/// Everything the section shows.
#[derive(Clone, Debug, Serialize, Default)]
pub struct SearchSection {
    /// The paired measurements, in file-name order.
    pub runs: Vec<SearchRun>,
    /// The belief evaluation (`belief --json`), if given.
    pub belief: Option<Value>,
}

fn str_of(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_string()
}

/// The rules a paired run played: its `rules` field (written since the tenhou-sanma
/// search run), else its command's `--rules`, else `arena`'s default, `sanma`.
fn rules_of(v: &Value, command: &str) -> String {
    match v.get("rules").and_then(Value::as_str) {
        Some(rules) => rules.to_string(),
        None => match flag(command, "--rules") {
            r if r.is_empty() => "sanma".into(),
            r => r,
        },
    }
}

/// Reads every `*.json` of `dir` written by `arena --paired-with`, and `belief`.
/// A run that played other rules than `rules` (the report's model's) is refused.
pub fn load(dir: Option<&Path>, belief: Option<&Path>, rules: &str) -> Result<SearchSection> {
    let mut section = SearchSection::default();
    if let Some(dir) = dir {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("reading the search runs folder {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            let v: Value = serde_json::from_str(&text)
                .with_context(|| format!("{}: not JSON", file.display()))?;
            let (Some(paired), Some(lineups)) = (v.get("paired"), v.get("lineups")) else {
                bail!(
                    "{}: not an `arena --paired-with … --json` file (no \"paired\"/\"lineups\")",
                    file.display()
                );
            };
            let lineup = lineups
                .get(0)
                .and_then(|l| l.get("seats"))
                .and_then(Value::as_array)
                .map(|s| {
                    s.iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(",")
                })
                .unwrap_or_default();
            let command = str_of(&v, "command");
            let played = rules_of(&v, &command);
            if played != rules {
                bail!(
                    "{}: this search run played rules {played:?}, but the report's model is for {rules:?}",
                    file.display()
                );
            }
            section.runs.push(SearchRun {
                command,
                git_revision: str_of(&v, "git_revision"),
                ms_per_decision: v
                    .get("search_ms_per_decision")
                    .and_then(Value::as_f64)
                    .unwrap_or(0.0),
                searches: v.get("searches").and_then(Value::as_u64).unwrap_or(0),
                failures: v
                    .get("search_failures")
                    .and_then(Value::as_u64)
                    .unwrap_or(0),
                threads: v.get("threads").and_then(Value::as_u64).unwrap_or(0),
                search: v.get("search").cloned().unwrap_or(Value::Null),
                lineup,
                paired: paired.clone(),
                file,
            });
        }
    }
    if let Some(path) = belief {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the belief evaluation {}", path.display()))?;
        section.belief = Some(
            serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?,
        );
    }
    Ok(section)
}

fn interval(c: &Value, key: &str, scale: f64) -> String {
    let e = &c[key];
    let f = |k: &str| e.get(k).and_then(Value::as_f64).unwrap_or(f64::NAN) * scale;
    format!("{:+.3} [{:+.3}, {:+.3}]", f("mean"), f("low"), f("high"))
}

/// The flag after `--name` in a command line.
fn flag(command: &str, name: &str) -> String {
    let mut it = command.split_whitespace();
    while let Some(w) = it.next() {
        if w == name {
            return it.next().unwrap_or("").to_string();
        }
    }
    String::new()
}

/// A search setting of run `r`: the recorded `search` object's `key` (runs since it is
/// written), else the command's `flag`, else `old_default` (the default when runs
/// recorded no `search` object).
fn setting(r: &SearchRun, key: &str, flag: &str, old_default: &str) -> String {
    match r.search.get(key) {
        // Numbers as the command line would give them (`2`, not `2.0`).
        Some(v) if v.is_number() => v.as_f64().map_or_else(|| v.to_string(), |x| x.to_string()),
        Some(v) if !v.is_null() => v.to_string().trim_matches('"').to_string(),
        _ => flag_or(&r.command, flag, old_default),
    }
}

/// [`flag`], or `arena`'s default (`host-trainer arena --help`) when the command
/// leaves the flag out.
fn flag_or(command: &str, name: &str, default: &str) -> String {
    match flag(command, name) {
        f if f.is_empty() => default.into(),
        f => f,
    }
}

/// `command` with its program (wherever the binary was) written as `host-trainer`.
fn as_typed(command: &str) -> String {
    match command.split_once(' ') {
        Some((_, rest)) => format!("host-trainer {rest}"),
        None => "host-trainer".into(),
    }
}

/// Appends the section's Markdown to `s`.
pub fn render(section: &SearchSection, s: &mut String) {
    if section.runs.is_empty() && section.belief.is_none() {
        return;
    }
    let _ = writeln!(s, "## Search\n");
    let _ = writeln!(
        s,
        "Determinized rollout search (crate `search`): for each candidate action, rollouts to \
         the end of the hand by efficiency bots in worlds dealt from the searching seat's \
         view, the same worlds for every candidate; the efficiency bot's own choice is kept \
         unless another candidate beats it by more than `z` paired standard errors. Worlds \
         are `weighted` (opponents' hands built by efficiency play from the unseen tiles, \
         weighted by the discards made from their current hand and the wins and calls they \
         let pass) or `uniform`. Rows come from different revisions of the code (column \
         `rev`); the belief's evidence grew between them (see the issue notes). Each row \
         is the paired duplicate comparison of its line-up with the line-up after `vs` on \
         the same walls (the first minus the second: search minus the efficiency bot in \
         the searching seat, or the model minus the search; 95 % intervals, walls as \
         clusters). A row of the report's seed plays the first of the report's walls. \
         Budgets are rollouts per candidate (load-independent); with racing (`race z`) a \
         candidate more than `race z` paired standard errors behind the leader plays no \
         further worlds, so the budget is the most rollouts per candidate. ms/decision is \
         the measured mean wall time of one search on the arena's threads.\n"
    );
    if !section.runs.is_empty() {
        render_runs(&section.runs, s);
    }
    if let Some(rows) = section.belief.as_ref().and_then(Value::as_array) {
        render_belief(rows, s);
    }
}

/// The table of search runs (one row per paired comparison) and their commands.
fn render_runs(runs: &[SearchRun], s: &mut String) {
    let _ = writeln!(
        s,
        "| line-up | belief | rollouts | z | safe-k | race z | rev | seed | ms/decision | hands | points/hand | win rate (points) | deal-in rate (points) |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for r in runs {
        for c in r.paired.as_array().into_iter().flatten() {
            let cmp = &c["comparison"];
            let _ = writeln!(
                s,
                "| `{}` vs `{}` | {} | {} | {} | {} | {} | {} | {} | {:.1} | {} | {} | {} | {} |",
                r.lineup,
                flag(&r.command, "--paired-with"),
                flag_or(&r.command, "--search-belief", "weighted"),
                setting(r, "rollouts", "--search-rollouts", "200"),
                setting(r, "z", "--search-z", "2"),
                // Runs from before the option record none and searched no safe
                // candidates.
                setting(r, "safe_k", "--search-safe-k", "0"),
                // Racing (dropping candidates clearly behind): `-` when off.
                setting(r, "prune_z", "--search-prune-z", "-"),
                r.git_revision.get(..7).unwrap_or(&r.git_revision),
                flag_or(&r.command, "--seed", "1"),
                r.ms_per_decision,
                cmp.get("seat_hands").and_then(Value::as_u64).unwrap_or(0),
                interval(cmp, "points_per_hand", 1.0),
                interval(cmp, "win_rate", 100.0),
                interval(cmp, "deal_in_rate", 100.0),
            );
        }
    }
    let _ = writeln!(
        s,
        "\nCommands (git revision of each run in its JSON file):\n"
    );
    for r in runs {
        let _ = writeln!(
            s,
            "- `{}`: {} ({} searches, {} failed, {} threads)",
            r.file.display(),
            format_args!("`{}`", as_typed(&r.command)),
            r.searches,
            r.failures,
            r.threads
        );
    }
    let _ = writeln!(s);
}

/// The table of opponent models against the truth.
fn render_belief(rows: &[Value], s: &mut String) {
    let _ = writeln!(
        s,
        "### Belief about the opponents' hands\n\nOn positions from efficiency self-play \
         (`host-trainer belief`): lower Brier score and log-loss of the deal-in \
         probability of each held tile, lower Brier score of each opponent's tenpai \
         probability, higher mean log-probability of a true concealed tile are closer to \
         the truth.\n"
    );
    let _ = writeln!(
        s,
        "| model | deal-in Brier | deal-in log-loss | tenpai Brier | tile log-lik | ESS | deal-in predicted / actual | tenpai predicted / actual |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    for r in rows {
        let f = |k: &str| r.get(k).and_then(Value::as_f64).unwrap_or(f64::NAN);
        let _ = writeln!(
            s,
            "| {} | {:.5} | {:.5} | {:.5} | {:.4} | {:.1} | {:.4} / {:.4} | {:.3} / {:.3} |",
            str_of(r, "model"),
            f("deal_in_brier"),
            f("deal_in_log_loss"),
            f("tenpai_brier"),
            f("tile_log_likelihood"),
            f("effective"),
            f("deal_in_predicted"),
            f("deal_in_actual"),
            f("tenpai_predicted"),
            f("tenpai_actual")
        );
    }
    let _ = writeln!(s);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed measurements render as one full table row each, with the run's
    /// revision, and the belief table has one row per model.
    #[test]
    fn committed_runs_render_as_complete_rows() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models");
        let section = load(
            Some(&root.join("search")),
            Some(&root.join("search-belief.json")),
            "sanma",
        )
        .unwrap();
        assert!(!section.runs.is_empty());
        let mut s = String::new();
        render(&section, &mut s);
        let header = s.lines().find(|l| l.starts_with("| line-up")).unwrap();
        let columns = header.matches('|').count();
        let rows: Vec<&str> = s.lines().filter(|l| l.starts_with("| `")).collect();
        assert_eq!(rows.len(), section.runs.len());
        for (row, run) in rows.iter().zip(&section.runs) {
            assert_eq!(row.matches('|').count(), columns, "{row}");
            let rev = run.git_revision.get(..7).unwrap_or(&run.git_revision);
            assert!(row.contains(&format!("| {rev} |")), "{row}");
        }
        let commands: Vec<&str> = s.lines().filter(|l| l.starts_with("- `")).collect();
        assert_eq!(commands.len(), section.runs.len());
        for c in commands {
            assert!(c.contains(": `host-trainer arena "), "{c}");
        }
        let models = section.belief.as_ref().and_then(Value::as_array).unwrap();
        let belief_rows = s
            .lines()
            .skip_while(|l| !l.starts_with("| model"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .count();
        assert_eq!(belief_rows, models.len());
    }

    /// The tenhou-sanma search runs load for the tenhou-sanma model and are refused,
    /// naming the file and both rule sets, for a model of other rules.
    #[test]
    fn search_runs_of_other_rules_are_refused() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/tenhou-sanma/search");
        let section = load(Some(&dir), None, "tenhou-sanma").unwrap();
        assert!(!section.runs.is_empty());
        let err = load(Some(&dir), None, "sanma").unwrap_err().to_string();
        assert!(
            err.contains("tenhou-sanma") && err.contains("\"sanma\""),
            "{err}"
        );
        assert!(err.contains(".json"), "{err}");
        let simple = Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/search");
        assert!(load(Some(&simple), None, "tenhou-sanma").is_err());
    }

    /// A file without a `rules` field falls back to its command's `--rules`, then to
    /// `arena`'s default.
    #[test]
    fn rules_fall_back_to_the_command_then_the_default() {
        let v: Value = serde_json::json!({});
        assert_eq!(
            rules_of(&v, "ht arena --rules tenhou-sanma --hands 3"),
            "tenhou-sanma"
        );
        assert_eq!(rules_of(&v, "ht arena --hands 3"), "sanma");
        let v: Value = serde_json::json!({"rules": "tenhou-yonma"});
        assert_eq!(rules_of(&v, "ht arena --rules sanma"), "tenhou-yonma");
    }
}
