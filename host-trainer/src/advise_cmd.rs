//! `host-trainer advise`: ranks every legal action of a position with the learned policy
//! (an ONNX model run by tract, no libtorch) or, without a model, with the engine's
//! efficiency evaluator.
//!
//! Input is a compact position (`--hand` and friends, unseen counts derived from what
//! is visible) or, with `--stdin-json`, a JSON position or `{"record": …, "seat": …}`
//! document (format: `inference::position`). Output is a table (Unicode tiles and mpsz)
//! or, with `--json`, the `inference::Advice` as JSON.

use std::io::Read;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use engine::game::Observation;
use host_trainer::cli::{BeliefArg, RulesArg};
use host_trainer::table::{Align, Table};
use inference::position::{from_json, per_seat, ClaimSpec, Position};
use inference::{Advice, Advisor, Sidecar};

/// Arguments of `host-trainer advise`.
#[derive(clap::Args)]
pub struct Args {
    /// The observer's closed hand in mpsz, drawn tile included (e.g. `123m456p789s1122z3z`).
    #[arg(
        long,
        required_unless_present_any = ["stdin_json", "stdin_jsonl"],
        conflicts_with_all = ["stdin_json", "stdin_jsonl"]
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
    /// Rules preset. Default: the model's (from its sidecar; the shipped model is
    /// sanma), four-player with `--no-model`.
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
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
    /// The revealed dora indicators, mpsz (required under the riichi presets).
    #[arg(long)]
    pub dora: Option<String>,
    /// Read a JSON position or game record from stdin instead.
    #[arg(long)]
    pub stdin_json: bool,
    /// Read JSON positions (or records) from stdin, one per line, and print one
    /// compact advice JSON per line (`{"error": "…"}` for a line that fails): a batch
    /// without a process per position (servers, the browser test).
    #[arg(long, conflicts_with_all = ["stdin_json", "search"])]
    pub stdin_jsonl: bool,
    /// The ONNX model (its sidecar `NAME.json` next to it). Default: the shipped model
    /// that fits the position's rules (`models/default.onnx` for sanma,
    /// `models/tenhou-sanma/model.onnx` for tenhou-sanma; both compiled into this
    /// binary), else efficiency-only.
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
    /// `--search` worlds: inference about the opponents, or uniform deals.
    #[arg(long, value_enum, default_value_t = BeliefArg::Weighted, requires = "search")]
    pub belief: BeliefArg,
    /// Seed of the `--search` worlds.
    #[arg(long, default_value_t = 0, requires = "search")]
    pub seed: u64,
}

fn position(args: &Args, rules: RulesArg) -> Result<Position> {
    let players = rules.rules().players;
    let hand = args.hand.clone().context("--hand is required")?;
    Ok(Position {
        rules: Some(rules.as_str().into()),
        seat: args.seat,
        dealer: args.dealer,
        hand,
        drawn: args.drawn.clone(),
        after_call: args.after_call,
        melds: per_seat(&args.melds, players, args.seat, "melds")?,
        discards: per_seat(&args.discards, players, args.seat, "discards")?,
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
        dora: args.dora.clone(),
        ..Default::default()
    })
}

/// Where the policy comes from.
enum ModelChoice {
    /// `--no-model`.
    None,
    /// The shipped model compiled into the binary (no `--model`).
    Shipped,
    /// `--model PATH`: must load and fit the position.
    File(PathBuf),
}

impl ModelChoice {
    fn of(args: &Args) -> ModelChoice {
        match (&args.model, args.no_model) {
            (_, true) => ModelChoice::None,
            (Some(p), false) => ModelChoice::File(p.clone()),
            (None, false) => ModelChoice::Shipped,
        }
    }

    /// The model, loaded (`None` for `--no-model`).
    fn load(&self) -> Result<Option<Advisor>> {
        match self {
            ModelChoice::None => Ok(None),
            ModelChoice::Shipped => Advisor::shipped()
                .context("loading the shipped model compiled into this binary")
                .map(Some),
            ModelChoice::File(p) => Advisor::load(p)
                .context("cannot load the model given by --model")
                .map(Some),
        }
    }

    /// The model's sidecar without building the model (for `--search`, which only
    /// needs its rules).
    fn sidecar(&self) -> Result<Option<Sidecar>> {
        match self {
            ModelChoice::None => Ok(None),
            ModelChoice::Shipped => Ok(Some(inference::shipped::sidecar()?)),
            ModelChoice::File(p) => Sidecar::load(&Sidecar::path_for(p))
                .context("cannot read the sidecar of the model given by --model")
                .map(Some),
        }
    }

    /// How the model is named to the user: the path as given, never one of the build
    /// machine.
    fn name(&self) -> String {
        match self {
            ModelChoice::None => "no model".into(),
            ModelChoice::Shipped => inference::shipped::NAME.into(),
            ModelChoice::File(p) => p.display().to_string(),
        }
    }
}

/// Whether a model trained for the rules preset `model_rules` fits the observation's:
/// the same players and tile set, and riichi rules only for a riichi model (whose
/// encoding carries their state and actions).
fn rules_fit(model_rules: &str, obs: &Observation) -> bool {
    inference::shipped::rules_fit(model_rules, &obs.rules)
}

/// The advisor for `obs`: the loaded model if its rules fit, else efficiency-only (the
/// shipped default, with a note) or an error (an explicit `--model`).
fn fit_advisor(choice: &ModelChoice, model: Option<Advisor>, obs: &Observation) -> Result<Advisor> {
    let efficiency_only = |why: String| {
        eprintln!("note: {why}: advice from the efficiency evaluator only");
        Ok(Advisor::efficiency_only())
    };
    let Some(advisor) = model else {
        return efficiency_only("--no-model".into());
    };
    let model_rules = advisor
        .sidecar()
        .map(|s| s.rules.clone())
        .unwrap_or_default();
    if rules_fit(&model_rules, obs) {
        return Ok(advisor);
    }
    // No --model: another shipped model may fit (tenhou-sanma).
    if let ModelChoice::Shipped = choice {
        if let Some(fits) = inference::shipped::fitting(&obs.rules)? {
            return Ok(fits);
        }
    }
    let why = format!(
        "the model {} was trained for {model_rules:?} rules, the position is {} players{}",
        choice.name(),
        obs.rules.players,
        if obs.rules.is_riichi() {
            " under riichi rules"
        } else {
            ""
        }
    );
    match choice {
        ModelChoice::File(_) => bail!("{why} (pass --rules {model_rules}, or --no-model)"),
        _ => efficiency_only(why),
    }
}

fn label(r: &inference::RankedAction) -> String {
    match (&r.tile, &r.glyph) {
        (Some(t), Some(g)) => format!("{} {g} {t}", r.kind),
        _ => r.kind.to_string(),
    }
}

/// The readable table: a header of hand, value and source, then one row per action
/// in columns measured by display width.
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
    use Align::{Left, Right};
    let mut t = Table::new(&[Right, Left, Right, Right, Right, Left, Right]);
    t.row(["#", "action", "prob", "score", "shan", "ukeire", "tiles"]);
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
        t.row([(i + 1).to_string(), label(r), prob, score, shan, uk, n]);
    }
    s.push_str(&t.render());
    s
}

/// mpsz → Unicode glyphs (invalid input is returned unchanged).
fn glyphs(mpsz: &str) -> String {
    let mut out = String::new();
    // A red five (`0p`) shows as its five.
    match engine::notation::parse_each_with_reds(mpsz, |t, _red| {
        out.push(t.glyph());
        Ok(())
    }) {
        Ok(()) => out,
        Err(_) => mpsz.to_string(),
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let choice = ModelChoice::of(&args);
    if args.stdin_jsonl {
        return run_lines(&choice);
    }
    // The model is loaded before the position is read: without --rules, its sidecar
    // names the rules. The search ranks without it and needs only the sidecar.
    let (model, sidecar) = if args.search {
        (None, choice.sidecar()?)
    } else {
        let model = choice.load()?;
        let sidecar = model.as_ref().and_then(|m| m.sidecar().cloned());
        (model, sidecar)
    };
    let (obs, legal) = if args.stdin_json {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading stdin")?;
        from_json(&text)?
    } else {
        let from_model = sidecar.as_ref().and_then(|s| RulesArg::from_name(&s.rules));
        let rules = args.rules.or(from_model).unwrap_or(RulesArg::FourPlayer);
        let read = position(&args, rules).and_then(|p| Ok(p.to_observation()?));
        if args.rules.is_none() && from_model.is_some() {
            // The user did not choose these rules: say where they came from.
            read.with_context(|| {
                format!(
                    "the position was read under {rules} rules, those of the {} \
                     (pass --rules for another preset)",
                    choice.name()
                )
            })?
        } else {
            read?
        }
    };
    if legal.is_empty() {
        bail!("the observing seat has no decision in this position");
    }
    if args.search {
        return run_search(&args, &obs, &legal);
    }
    let advisor = fit_advisor(&choice, model, &obs)?;
    let advice = advisor.advise_with_legal(&obs, &legal)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&advice)?);
    } else {
        print!("{}", table(&advice));
    }
    Ok(())
}

/// `--stdin-jsonl`: one advice line per position line (blank and `#` lines skipped).
fn run_lines(choice: &ModelChoice) -> Result<()> {
    use std::io::BufRead;
    let model = choice.load()?;
    for line in std::io::stdin().lock().lines() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let advice = from_json(&line)
            .map_err(anyhow::Error::from)
            .and_then(|(obs, legal)| {
                let advisor = fit_advisor(choice, model.clone(), &obs)?;
                Ok(advisor.advise_with_legal(&obs, &legal)?)
            });
        match advice {
            Ok(a) => println!("{}", serde_json::to_string(&a)?),
            Err(e) => println!("{}", serde_json::json!({ "error": format!("{e:#}") })),
        }
    }
    Ok(())
}

/// `--search`: rollout search over the legal actions.
fn run_search(args: &Args, obs: &Observation, legal: &[engine::game::Action]) -> Result<()> {
    use search::{search, SearchConfig};
    let legal: engine::game::LegalActions = legal.iter().copied().collect();
    let mut cfg = SearchConfig::new(&obs.rules).map_err(anyhow::Error::msg)?;
    cfg.budget_ms = Some(args.budget_ms);
    cfg.rollouts = args.rollouts;
    cfg.belief = args.belief.into();
    cfg.seed = args.seed;
    // Advice ranks every candidate: spend the whole budget on all of them.
    cfg.early_stop = false;
    cfg.prune_z = None;
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
    use Align::{Left, Right};
    let mut t = Table::new(&[Right, Left, Right, Right, Right, Right]);
    t.row([
        "#",
        "action",
        "points/hand",
        "win %",
        "deal-in %",
        "vs policy",
    ]);
    let pm = |mean: f64, half: f64, scale: f64, signed: bool| {
        if signed {
            format!("{:+.3} ± {:.3}", mean * scale, half * scale)
        } else {
            format!("{:.1} ± {:.1}", mean * scale, half * scale)
        }
    };
    for (i, c) in r.candidates.iter().enumerate() {
        let mark = if c.action == r.chosen { "*" } else { " " };
        t.row([
            format!("{}{mark}", i + 1),
            c.label.clone(),
            pm(c.value.mean, c.value.half_width(), 1.0, true),
            pm(c.win.mean, c.win.half_width(), 100.0, false),
            pm(c.deal_in.mean, c.deal_in.half_width(), 100.0, false),
            pm(
                c.versus_policy.mean,
                c.versus_policy.half_width(),
                1.0,
                true,
            ),
        ]);
    }
    s.push_str(&t.render());
    s.push_str("(* = chosen: the policy's choice unless another beats it by more than 2 standard errors, paired)\n");
    s
}
