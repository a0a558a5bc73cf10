//! With the `train` feature, links the binaries and tests with an rpath to libtorch's
//! library folder (reported by torch-sys as `DEP_TCH_LIBTORCH_LIB`), so they run
//! without `LD_LIBRARY_PATH`. With the `cuda` feature, also keeps `libtorch_cuda`
//! linked: the default `--as-needed` would drop it, since no symbol of it is referenced
//! directly, and the binary would silently see no GPU.

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_TCH_LIBTORCH_LIB");
    if std::env::var_os("CARGO_FEATURE_TRAIN").is_none() {
        return;
    }
    if let Ok(lib) = std::env::var("DEP_TCH_LIBTORCH_LIB") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{lib}");
        if std::env::var_os("CARGO_FEATURE_CUDA").is_some() {
            println!("cargo:rustc-link-search=native={lib}");
            println!("cargo:rustc-link-arg=-Wl,--no-as-needed");
            println!("cargo:rustc-link-arg=-ltorch_cuda");
            println!("cargo:rustc-link-arg=-Wl,--as-needed");
        }
    }
}
