//! `host-trainer export`: a training checkpoint → ONNX model + JSON sidecar for
//! `advise` (see [`host_trainer::export`]).

use std::path::PathBuf;

use anyhow::Result;

/// Arguments of `host-trainer export`.
#[derive(clap::Args)]
pub struct Args {
    /// A run folder (`runs/<id>`, its `checkpoint.bin` is used) or a checkpoint file.
    #[arg(long)]
    pub checkpoint: PathBuf,
    /// The ONNX file to write (the sidecar goes next to it as `NAME.json`).
    #[arg(long)]
    pub out: PathBuf,
    /// Rules preset recorded in the sidecar; default: the run's `config.json`.
    #[arg(long, value_parser = host_trainer::cli::RulesArg::name_parser())]
    pub rules: Option<String>,
}

/// Runs the command.
pub fn run(args: Args) -> Result<()> {
    let r = host_trainer::export::export_checkpoint(
        &args.checkpoint,
        &args.out,
        args.rules.as_deref(),
    )?;
    let m = &r.meta;
    println!(
        "exported run {} parameters v{} ({} rules; layers {}, d_model {}, heads {}, ff {}; {} parameters)",
        m.run_id,
        m.parameter_version,
        m.rules,
        m.model.layers,
        m.model.d_model,
        m.model.heads,
        m.model.ff,
        r.parameters
    );
    println!("  {}  {} bytes", r.onnx.display(), r.onnx_bytes);
    println!("  {}  {} bytes", r.sidecar.display(), r.sidecar_bytes);
    println!("self-check: loaded back with the tract advisor");
    Ok(())
}
