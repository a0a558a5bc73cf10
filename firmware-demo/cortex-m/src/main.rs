//! Bare-metal Cortex-M demo of the engine's efficiency advisor.
//!
//! Boots on a Cortex-M4F (QEMU `mps2-an386`, or a real board with its own `memory.x`),
//! evaluates every recorded position of `../positions.tsv` (embedded in flash with
//! `include_str!`) with [`engine::efficiency::best_discard`] and
//! [`engine::efficiency::value_scores`], prints one line per position over semihosting
//! and exits with status 0 (1 on any error or panic).
//!
//! The output format is a contract with the host test `tests/tests/firmware_qemu.rs`,
//! which computes the same lines with the engine on the host and compares them:
//!
//! ```text
//! pos 0 sanma discard=1z shanten=4 ukeire=45 vs=0166d567
//! ...
//! checksum d2991317772099ae positions=48
//! stack_peak_bytes=3084
//! ```
//!
//! `vs` hashes that position's whole value-score matrix (every field, floats by their
//! bits), `checksum` hashes all of them in order (FNV-1a, 64 bit). The `stack_peak`
//! line is informational (RAM use) and not compared.
#![no_std]
#![no_main]

mod fnv;
mod stack;

use core::fmt::Write as _;

use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hio};
use engine::efficiency::{best_discard, value_scores};
use engine::notation::parse_counts;
use engine::shanten::Forms;
use engine::{Rules, TileCounts};
use panic_semihosting as _;

/// The recorded positions, one per line (`preset`, `melds`, `hand`, `unseen`,
/// tab-separated; `#` starts a comment). Generated on the host, see the file's header.
static POSITIONS: &str = include_str!("../../positions.tsv");

/// One recorded decision point: a seat that must discard.
struct Position<'a> {
    preset: &'a str,
    rules: Rules,
    melds: u8,
    hand: TileCounts,
    unseen: TileCounts,
}

/// Parses one data line; `Err` carries a short reason for the log.
fn parse_line(line: &str) -> Result<Position<'_>, &'static str> {
    let mut fields = line.split('\t');
    let preset = fields.next().ok_or("missing preset")?;
    let rules = Rules::preset(preset).ok_or("unknown preset")?;
    let melds = fields
        .next()
        .and_then(|m| m.parse::<u8>().ok())
        .filter(|&m| m <= 4)
        .ok_or("bad meld count")?;
    let hand = parse_counts(fields.next().ok_or("missing hand")?, rules.tile_set)
        .map_err(|_| "bad hand")?;
    let unseen = parse_counts(fields.next().ok_or("missing unseen")?, rules.tile_set)
        .map_err(|_| "bad unseen counts")?;
    if fields.next().is_some() {
        return Err("too many fields");
    }
    Ok(Position {
        preset,
        rules,
        melds,
        hand,
        unseen,
    })
}

/// Evaluates every position and prints the result lines; `Err` on bad input.
fn run(out: &mut hio::HostStream) -> Result<(), core::fmt::Error> {
    let mut total = fnv::Fnv64::new();
    let mut index = 0u32;
    for (line_no, line) in POSITIONS.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let p = match parse_line(line) {
            Ok(p) => p,
            Err(why) => {
                writeln!(out, "error: positions.tsv line {}: {why}", line_no + 1)?;
                return Err(core::fmt::Error);
            }
        };
        let forms = Forms::from_rules(&p.rules);
        let tile_set = p.rules.tile_set;
        let Some(d) = best_discard(&p.hand, p.melds, tile_set, forms, &p.unseen) else {
            writeln!(out, "error: positions.tsv line {}: empty hand", line_no + 1)?;
            return Err(core::fmt::Error);
        };
        let v = value_scores(&p.hand, p.melds, tile_set, forms, &p.unseen);
        let mut h = fnv::Fnv64::new();
        fnv::hash_value_scores(&mut h, &v);
        fnv::hash_value_scores(&mut total, &v);
        writeln!(
            out,
            "pos {index} {} discard={} shanten={} ukeire={} vs={:08x}",
            p.preset,
            d.tile,
            d.shanten,
            d.ukeire_tiles,
            h.finish32()
        )?;
        index += 1;
    }
    writeln!(out, "checksum {:016x} positions={index}", total.finish())
}

#[entry]
fn main() -> ! {
    // Before anything deep runs: fill the free stack with a pattern to measure the peak.
    stack::paint();
    let status = match hio::hstdout() {
        Ok(mut out) => {
            let ok = run(&mut out).is_ok();
            let _ = writeln!(out, "stack_peak_bytes={}", stack::peak_bytes());
            if ok {
                debug::EXIT_SUCCESS
            } else {
                debug::EXIT_FAILURE
            }
        }
        // No semihosting host: nothing to print to, nothing sensible to do.
        Err(()) => debug::EXIT_FAILURE,
    };
    debug::exit(status);
    // Reached only if the debugger ignores the exit request (QEMU and probe-rs end
    // the run here): park the core.
    loop {
        cortex_m::asm::wfi();
    }
}
