//! `host-trainer advise`: ranks every legal action of a position with the learned policy
//! (an ONNX model run by tract, no libtorch) or, without a model, with the engine's
//! efficiency evaluator.
//!
//! Input is a compact position (`--hand` and friends, unseen counts derived from what
//! is visible) or, with `--stdin-json`, a JSON position or `{"record": …, "seat": …}`
//! document (format: `inference::position`). Output is a table (Unicode tiles and mpsz)
//! or, with `--json`, the `inference::Advice` as JSON.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use engine::game::Observation;
use inference::position::{from_json, per_seat, rules_preset, ClaimSpec, Position};
use inference::{Advice, Advisor};

/// The model used when `--model` is not given and the file exists.
const DEFAULT_MODEL: &str = "models/default.onnx";

/// Arguments of `host-trainer advise`.
#[derive(clap::Args)]
pub struct Args {
    /// The observer's closed hand in mpsz, drawn tile included (e.g. `123m456p789s1122z3z`).
    #[arg(
        long,
        required_unless_present = "stdin_json",
        conflicts_with = "stdin_json"
    )]
    pub hand: Option<String>,
    /// Melds: `pon:5p,kan:1z` for the observer, `seat1:chi:345m;seat2:pon:7z` for others
    /// (kinds chi, pon, kan, ckan = closed kan, akan = added kan).
    #[arg(long, default_value = "")]
    pub melds: String,
    /// Discards per seat in play order: `seat0:19m2z;seat1:5p` (no prefix = the observer).
    #[arg(long, default_value = "")]
    pub discards: String,
    /// The observing seat.
    #[arg(long, default_value_t = 0)]
    pub seat: u8,
    /// The dealer seat.
    #[arg(long, default_value_t = 0)]
    pub dealer: u8,
    /// Rules preset: `four-player` or `sanma`.
    #[arg(long, default_value = "four-player")]
    pub rules: String,
    /// The tile just drawn (default: the last tile written in `--hand`).
    #[arg(long)]
    pub drawn: Option<String>,
    /// On turn after a pon or chi (no drawn tile: only discards).
    #[arg(long)]
    pub after_call: bool,
    /// Answer a claim window on this discarded tile (e.g. `4m`); needs `--from`.
    #[arg(long, requires = "from")]
    pub claim: Option<String>,
    /// The seat that discarded the `--claim` tile.
    #[arg(long)]
    pub from: Option<u8>,
    /// Read a JSON position or game record from stdin instead.
    #[arg(long)]
    pub stdin_json: bool,
    /// The ONNX model (its sidecar `NAME.json` next to it); default: the shipped
    /// `models/default.onnx` when its rules fit the position, else efficiency-only.
    #[arg(long, conflicts_with = "no_model")]
    pub model: Option<PathBuf>,
    /// Use no model: rank by the efficiency evaluator only.
    #[arg(long)]
    pub no_model: bool,
    /// Print the advice as JSON.
    #[arg(long)]
    pub json: bool,
    /// Rank by rollout search instead (determinized worlds weighted by inference about
    /// the opponents, the efficiency bot in every seat): estimated points per hand,
    /// win and deal-in probability with 95 % intervals, and the rollouts behind them.
    #[arg(long)]
    pub search: bool,
    /// Time budget of `--search` in milliseconds.
    #[arg(long, default_value_t = 100.0, requires = "search")]
    pub budget_ms: f64,
    /// Most rollouts per candidate for `--search` (the time budget usually ends it first).
    #[arg(long, default_value_t = 20_000, requires = "search")]
    pub rollouts: u32,
    /// `--search` worlds: `weighted` (inference about the opponents) or `uniform`.
    #[arg(long, default_value = "weighted", requires = "search")]
    pub belief: String,
    /// Seed of the `--search` worlds.
    #[arg(long, default_value_t = 0, requires = "search")]
    pub seed: u64,
}

fn position(args: &Args) -> Result<Position> {
    let rules = rules_preset(&args.rules)?;
    let hand = args.hand.clone().context("--hand is required")?;
    Ok(Position {
        rules: Some(args.rules.clone()),
        seat: args.seat,
        dealer: args.dealer,
        hand,
        drawn: args.drawn.clone(),
        after_call: args.after_call,
        melds: per_seat(&args.melds, rules.players, args.seat, "melds")?,
        discards: per_seat(&args.discards, rules.players, args.seat, "discards")?,
        claim: match (&args.claim, args.from) {
            (Some(tile), Some(from)) => Some(ClaimSpec {
                tile: tile.clone(),
                from,
                added_kan: false,
            }),
            (None, _) => None,
            (Some(_), None) => bail!("--claim needs --from"),
        },
        scores: None,
        hand_number: 0,
        live_wall: None,
    })
}

/// The default model: `models/default.onnx` under the working directory, else the one
/// in the checkout this binary was built from (so `cargo run -p host-trainer -- advise`
/// finds the shipped model from any directory).
fn default_model() -> Option<PathBuf> {
    let here = PathBuf::from(DEFAULT_MODEL);
    if here.exists() {
        return Some(here);
    }
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(DEFAULT_MODEL);
    checkout.exists().then_some(checkout)
}

/// Whether a model trained for the rules preset `model_rules` fits the observation's.
fn rules_fit(model_rules: &str, obs: &Observation) -> bool {
    engine::Rules::preset(model_rules)
        .is_some_and(|r| r.players == obs.rules.players && r.tile_set == obs.rules.tile_set)
}

fn advisor(args: &Args, obs: &Observation) -> Result<Advisor> {
    let efficiency_only = |why: String| {
        eprintln!("note: {why}: advice from the efficiency evaluator only");
        Ok(Advisor::efficiency_only())
    };
    if args.no_model {
        return efficiency_only("--no-model".into());
    }
    let (path, explicit) = match &args.model {
        Some(p) => (p.clone(), true),
        None => match default_model() {
            Some(p) => (p, false),
            None => {
                return efficiency_only(format!("no model ({DEFAULT_MODEL} not found, no --model)"))
            }
        },
    };
    let advisor =
        Advisor::load(&path).with_context(|| format!("loading the model {}", path.display()))?;
    let model_rules = advisor
        .sidecar()
        .map(|s| s.rules.clone())
        .unwrap_or_default();
    if !rules_fit(&model_rules, obs) {
        let why = format!(
            "the model {} was trained for {model_rules:?} rules, the position is {} players",
            path.display(),
            obs.rules.players
        );
        if explicit {
            bail!("{why} (pass --rules {model_rules}, or --no-model)");
        }
        return efficiency_only(why);
    }
    Ok(advisor)
}

fn label(r: &inference::RankedAction) -> String {
    match (&r.tile, &r.glyph) {
        (Some(t), Some(g)) => format!("{} {g} {t}", r.kind),
        _ => r.kind.to_string(),
    }
}

/// The readable table.
pub fn table(advice: &Advice) -> String {
    let mut s = String::new();
    let glyphs = glyphs(&advice.hand);
    s.push_str(&format!(
        "hand   {glyphs}  {}  (shanten {})\n",
        advice.hand, advice.shanten
    ));
    match advice.value {
        Some(v) => s.push_str(&format!("value  {v:+.3}\n")),
        None => s.push_str("value  -\n"),
    }
    s.push_str(&format!("source {}\n", advice.note));
    s.push_str(&format!(
        "{:>3}  {:<16} {:>7}  {:>7}  {:>5}  {:<16} {:>6}\n",
        "#", "action", "prob", "score", "shan", "ukeire", "tiles"
    ));
    for (i, r) in advice.actions.iter().enumerate() {
        let prob = r
            .probability
            .map_or("-".to_string(), |p| format!("{:.1}%", p * 100.0));
        let (score, shan, uk, n) = match &r.discard {
            Some(d) => (
                format!("{:.3}", d.value_score),
                d.shanten_after.to_string(),
                if d.ukeire_types.is_empty() {
                    "-".to_string()
                } else {
                    format!("{} ({})", d.ukeire_types, d.ukeire_type_count)
                },
                d.ukeire_tiles.to_string(),
            ),
            None => ("-".into(), "-".into(), "-".into(), "-".into()),
        };
        // Mahjong glyphs take two terminal columns.
        let l = label(r);
        let pad = 16usize.saturating_sub(l.chars().count() + r.glyph.is_some() as usize);
        s.push_str(&format!(
            "{:>3}  {l}{:pad$} {prob:>7}  {score:>7}  {shan:>5}  {uk:<16} {n:>6}\n",
            i + 1,
            ""
        ));
    }
    s
}

/// mpsz → Unicode glyphs (invalid input is returned unchanged).
fn glyphs(mpsz: &str) -> String {
    let mut out = String::new();
    match engine::notation::parse_each(mpsz, |t| {
        out.push(t.glyph());
        Ok(())
    }) {
        Ok(()) => out,
        Err(_) => mpsz.to_string(),
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let (obs, legal) = if args.stdin_json {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading stdin")?;
        from_json(&text)?
    } else {
        position(&args)?.to_observation()?
    };
    if legal.is_empty() {
        bail!("the observing seat has no decision in this position");
    }
    if args.search {
        return run_search(&args, &obs, &legal);
    }
    let advisor = advisor(&args, &obs)?;
    let advice = advisor.advise_with_legal(&obs, &legal)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&advice)?);
    } else {
        print!("{}", table(&advice));
    }
    Ok(())
}

/// `--search`: rollout search over the legal actions.
fn run_search(args: &Args, obs: &Observation, legal: &[engine::game::Action]) -> Result<()> {
    use search::{search, Belief, SearchConfig};
    let legal: engine::game::LegalActions = legal.iter().copied().collect();
    let mut cfg = SearchConfig::new(&obs.rules).map_err(anyhow::Error::msg)?;
    cfg.budget_ms = Some(args.budget_ms);
    cfg.rollouts = args.rollouts;
    cfg.belief = Belief::parse(&args.belief)?;
    cfg.seed = args.seed;
    // Advice ranks every candidate: spend the whole budget.
    cfg.early_stop = false;
    let result = search(obs, &legal, &cfg).map_err(anyhow::Error::msg)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&result)?);
        return Ok(());
    }
    print!("{}", search_table(&result));
    Ok(())
}

/// The readable table of a search.
pub fn search_table(r: &search::SearchResult) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "search: {} rollouts per candidate in {:.0} ms{}; policy choice: {}\n",
        r.worlds,
        r.elapsed_ms,
        r.effective_proposals
            .map_or(String::new(), |e| format!(", belief ESS {e:.0}")),
        search::action_label(r.policy),
    ));
    s.push_str(&format!(
        "{:>3}  {:<14} {:>16}  {:>15}  {:>15}  {:>16}\n",
        "#", "action", "points/hand", "win %", "deal-in %", "vs policy"
    ));
    for (i, c) in r.candidates.iter().enumerate() {
        let mark = if c.action == r.chosen { "*" } else { " " };
        s.push_str(&format!(
            "{:>2}{mark}  {:<14} {:>+7.3} ± {:<6.3}  {:>6.1} ± {:<5.1}  {:>6.1} ± {:<5.1}  {:>+7.3} ± {:<6.3}\n",
            i + 1,
            c.label,
            c.value.mean,
            c.value.half_width(),
            100.0 * c.win.mean,
            100.0 * c.win.half_width(),
            100.0 * c.deal_in.mean,
            100.0 * c.deal_in.half_width(),
            c.versus_policy.mean,
            c.versus_policy.half_width(),
        ));
    }
    s.push_str("(* = chosen: the policy's choice unless another beats it by more than 2 standard errors, paired)\n");
    s
}
