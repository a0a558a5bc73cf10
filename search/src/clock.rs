//! The search's wall clock, in milliseconds from an arbitrary origin.
//!
//! Why a module: `std::time::Instant::now()` panics on `wasm32-unknown-unknown` (the
//! target has no clock of its own), and the browser build (`web/`) runs this search
//! under a time budget. There the clock is the page's `performance.now()`, imported
//! from the host as `env.mj_now_ms` (the page's JavaScript provides it; see
//! `web/www/engine.js`). Everywhere else it is `Instant` since the first call.

/// Milliseconds since an origin fixed for the process (monotonic).
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    ORIGIN.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

/// Milliseconds since the page loaded (`performance.now()`, imported from the host).
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub fn now_ms() -> f64 {
    #[link(wasm_import_module = "env")]
    unsafe extern "C" {
        fn mj_now_ms() -> f64;
    }
    // SAFETY: the import takes no arguments and returns a number; the page's module
    // instantiation fails if it is not provided.
    unsafe { mj_now_ms() }
}
