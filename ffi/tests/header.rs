//! The committed header `ffi/include/mahjong.h` must be exactly what cbindgen generates
//! from the crate today. Regenerate it with
//! `MJ_REGENERATE_HEADER=1 cargo test -p mahjong-ffi --test header`.

use std::path::Path;

#[test]
fn header_is_up_to_date() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen failed to generate the header");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let generated = String::from_utf8(generated).expect("header is UTF-8");
    let path = crate_dir.join("include").join("mahjong.h");
    if std::env::var_os("MJ_REGENERATE_HEADER").is_some_and(|v| v == "1") {
        std::fs::write(&path, &generated).expect("write the header");
        eprintln!("regenerated {}", path.display());
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed != generated {
        let first = committed
            .lines()
            .zip(generated.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(committed.lines().count().min(generated.lines().count()));
        panic!(
            "{} is stale (first difference at line {}): regenerate it with \
             `MJ_REGENERATE_HEADER=1 cargo test -p mahjong-ffi --test header` and commit it\n\
             committed: {:?}\ngenerated: {:?}",
            path.display(),
            first + 1,
            committed.lines().nth(first),
            generated.lines().nth(first),
        );
    }
}
