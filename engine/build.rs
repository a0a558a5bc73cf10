//! Generates the shanten tables used by `engine::shanten` (see
//! `src/shanten/table_gen.rs` for the algorithm and formats) into `OUT_DIR`; the library
//! embeds them with `include_bytes!` and `include!`.

use std::io::Write;

include!("src/shanten/table_gen.rs");

fn write(dir: &std::path::Path, name: &str, bytes: &[u8]) {
    let mut file = std::fs::File::create(dir.join(name)).expect("create table file");
    file.write_all(bytes).expect("write table file");
}

fn main() {
    println!("cargo:rerun-if-changed=src/shanten/table_gen.rs");
    println!("cargo:rerun-if-changed=build.rs");
    let t = build_tables();
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    write(&out, "suit_class.bin", &t.suit_class);
    write(&out, "honor_class.bin", &t.honor_class);
    write(&out, "pair_ab.bin", &t.pair_ab);
    write(&out, "pair_cd.bin", &t.pair_cd);
    write(&out, "final.bin", &t.fin);
    let consts = format!(
        "/// Distinct suit classes.\npub(crate) const N_SUIT: usize = {};\n\
         /// Distinct honour-like classes.\npub(crate) const N_HONOR: usize = {};\n\
         /// Distinct classes of two suits combined.\npub(crate) const N_AB: usize = {};\n\
         /// Distinct classes of a suit and the honours combined.\npub(crate) const N_CD: usize = {};\n",
        t.n_suit, t.n_honor, t.n_ab, t.n_cd
    );
    write(&out, "table_consts.rs", consts.as_bytes());
}
