//! Game logs: the formats, replay and export live in the `mahjong-logs` crate, re-exported
//! here whole so that `host_trainer::logs::tenhou` and the rest keep their paths (the
//! mjai bot is the `mahjong-mjai-bot` crate).

pub use mahjong_logs::*;
