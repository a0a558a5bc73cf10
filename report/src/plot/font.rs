//! The font every chart draws its text with, compiled into the binary so that no system
//! font (and no fontconfig) is needed: DejaVu Sans 2.37, unmodified, from the Debian
//! package `fonts-dejavu-core` (licence and source in `report/assets/fonts/`).

use std::sync::OnceLock;

use anyhow::{anyhow, Result};
use plotters::style::{register_font, FontStyle};

/// The family name the charts ask for.
pub const FAMILY: &str = "sans-serif";

static DEJAVU_SANS: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// Registers the embedded font under [`FAMILY`] (once per process; later calls return
/// the first outcome). Plotters looks fonts up by family name when it lays text out, so
/// this must run before any chart with text is built.
pub fn ensure() -> Result<()> {
    static DONE: OnceLock<Result<(), String>> = OnceLock::new();
    DONE.get_or_init(|| {
        register_font(FAMILY, FontStyle::Normal, DEJAVU_SANS)
            .map_err(|_| "the embedded DejaVu Sans font did not parse".to_string())
    })
    .clone()
    .map_err(|e| anyhow!(e))
}
