//! The game's fixed capacities: every array of the state, the records and the
//! observations is sized by these, so they live apart from the state itself (the
//! riichi flow, the records and the observations size their arrays without importing
//! the state machine).

/// Most seats in a game.
pub const MAX_PLAYERS: usize = 4;
/// Most tiles in a wall (the four-player set).
pub const MAX_WALL: usize = 136;
/// Most discards one player can make in a hand. A player draws at most about a quarter
/// (four players) or a third (three) of the live wall plus one draw per call of the
/// others and one discard per own call, far below this; exceeding it is an error.
pub const DISCARD_CAP: usize = 48;
/// Most actions in one hand (turn actions plus claim answers), with a wide margin.
pub const LOG_CAP: usize = 512;
/// Most kans declared in one hand, all players together (the dead wall must always be
/// able to supply the replacement draws).
pub const MAX_KANS: u8 = 4;
