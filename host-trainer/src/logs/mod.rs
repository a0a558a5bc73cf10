//! Game logs: the formats, replay and export live in the `mahjong-logs` crate (re-exported
//! here whole, so `host_trainer::logs::tenhou` and the rest keep their paths); the mjai
//! bot, which needs the search and the model, stays here.

pub use mahjong_logs::*;

pub mod mjai_bot;
