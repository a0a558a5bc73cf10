//! The players' front door: the engine, the shipped models, the rollout search and log
//! review behind one JSON request function ([`request::handle`]), built for the browser
//! (`wasm32-unknown-unknown`, see `scripts/web`) and natively for its tests and for the
//! CLI's `review --html`.
//!
//! - [`request`]: the request/response protocol the page speaks (`advise`, `search`,
//!   `review`, `log_players`, `presets`), every answer computed by the same library
//!   calls as the CLI's (`advise --json`, `review --json`), so the page and the CLI
//!   agree by construction (the browser test checks that they do).
//! - [`models`]: the shipped models compiled in, and the one that fits a rule set.
//! - [`review`]: a log's decisions for one seat, each beside a ranking and its cost, with
//!   the table as the seat saw it ([`view`]).
//! - [`html`]: the review as one self-contained HTML file (the page's own renderer and
//!   tiles, the review's JSON inlined).
//! - [`abi`]: the module's exports: memory for request bytes, [`abi::mj_request`], the
//!   answer's bytes; the page's `www/engine.js` is its only caller.
//!
//! Why no wasm-bindgen: the whole interface is one string in, one string out, which
//! four exported functions carry; the module then needs no generated glue, no
//! `wasm-bindgen-cli` matching the crate's version exactly, and loads with
//! `WebAssembly.instantiate` alone.

#![deny(missing_docs)]

pub mod abi;
pub mod html;
pub mod models;
pub mod request;
pub mod review;
pub mod view;
