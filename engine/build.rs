//! Generates the per-suit max-overlap table used by `engine::shanten`.
//!
//! The generator lives in `src/shanten/table_gen.rs` (plain `std`-free logic included
//! here) and writes `suit_table.bin` to `OUT_DIR`; the library embeds it with
//! `include_bytes!`. See that file for the format.

use std::io::Write;

include!("src/shanten/table_gen.rs");

fn main() {
    println!("cargo:rerun-if-changed=src/shanten/table_gen.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let mut bytes = Vec::with_capacity(SUIT_PATTERNS * 2);
    generate_suit_table(|code| bytes.extend_from_slice(&code.to_le_bytes()));
    assert_eq!(bytes.len(), SUIT_PATTERNS * 2, "pattern count mismatch");
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let mut file = std::fs::File::create(out.join("suit_table.bin")).expect("create table");
    file.write_all(&bytes).expect("write table");
}
