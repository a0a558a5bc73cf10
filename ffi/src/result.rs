//! The result codes of the ABI and a failed call's code and message. Every module that
//! fails uses them: the panic boundary ([`crate::error`]) and the pointer helpers
//! ([`crate::util`]) alike.

/// The result of every fallible function. The numeric values are part of the ABI: they
/// are never renumbered and new codes are only ever appended.
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum mj_result {
    /// Success; every output was written.
    MJ_OK = 0,
    /// A required pointer argument was NULL.
    MJ_NULL_POINTER = 1,
    /// An argument is out of range: an unknown preset, tile set or seat, an action index
    /// `>= MJ_NUM_ACTIONS`, a count array that is not a valid hand, a string that is not
    /// UTF-8.
    MJ_INVALID_ARGUMENT = 2,
    /// A caller buffer is too small; the needed length was written to the length out
    /// parameter and nothing else was written.
    MJ_BUFFER_TOO_SMALL = 3,
    /// A hand string is not valid mpsz notation for the tile set.
    MJ_PARSE_ERROR = 4,
    /// The action is not legal for this seat now.
    MJ_ILLEGAL_ACTION = 5,
    /// The seat has no decision pending (another seat is on turn).
    MJ_NOT_YOUR_TURN = 6,
    /// The hand is over; call `mj_game_start_next_hand`.
    MJ_HAND_OVER = 7,
    /// The game is over.
    MJ_GAME_OVER = 8,
    /// A record buffer cannot be decoded or replayed.
    MJ_CORRUPT_RECORD = 9,
    /// The library panicked; the panic was caught at the ABI boundary. Handles passed to
    /// the call may hold a partially updated state and should be freed.
    MJ_PANIC = 10,
    /// `mj_game_start_next_hand` or `mj_game_hand_result` while the hand is still in
    /// progress.
    MJ_HAND_IN_PROGRESS = 11,
    /// The engine refused an operation for a reason that a consistent game never meets
    /// (a fixed capacity exceeded). Not expected in practice.
    MJ_INTERNAL = 12,
    /// A model file or its JSON sidecar is missing, unreadable, truncated, corrupt or
    /// not a policy network of the expected shape; or running the model failed.
    MJ_MODEL_ERROR = 13,
    /// A valid model that does not fit: its observation encoding version is not this
    /// library's, its sidecar names a rules preset this library does not know, or the
    /// game's rules are not the preset the model was trained for.
    MJ_MODEL_MISMATCH = 14,
}

impl mj_result {
    /// The code with numeric value `code`, if any.
    pub const fn from_u32(code: u32) -> Option<mj_result> {
        Some(match code {
            0 => mj_result::MJ_OK,
            1 => mj_result::MJ_NULL_POINTER,
            2 => mj_result::MJ_INVALID_ARGUMENT,
            3 => mj_result::MJ_BUFFER_TOO_SMALL,
            4 => mj_result::MJ_PARSE_ERROR,
            5 => mj_result::MJ_ILLEGAL_ACTION,
            6 => mj_result::MJ_NOT_YOUR_TURN,
            7 => mj_result::MJ_HAND_OVER,
            8 => mj_result::MJ_GAME_OVER,
            9 => mj_result::MJ_CORRUPT_RECORD,
            10 => mj_result::MJ_PANIC,
            11 => mj_result::MJ_HAND_IN_PROGRESS,
            12 => mj_result::MJ_INTERNAL,
            13 => mj_result::MJ_MODEL_ERROR,
            14 => mj_result::MJ_MODEL_MISMATCH,
            _ => return None,
        })
    }

    /// The stable name of the code, as spelled in the header.
    pub const fn name(self) -> &'static str {
        match self {
            mj_result::MJ_OK => "MJ_OK",
            mj_result::MJ_NULL_POINTER => "MJ_NULL_POINTER",
            mj_result::MJ_INVALID_ARGUMENT => "MJ_INVALID_ARGUMENT",
            mj_result::MJ_BUFFER_TOO_SMALL => "MJ_BUFFER_TOO_SMALL",
            mj_result::MJ_PARSE_ERROR => "MJ_PARSE_ERROR",
            mj_result::MJ_ILLEGAL_ACTION => "MJ_ILLEGAL_ACTION",
            mj_result::MJ_NOT_YOUR_TURN => "MJ_NOT_YOUR_TURN",
            mj_result::MJ_HAND_OVER => "MJ_HAND_OVER",
            mj_result::MJ_GAME_OVER => "MJ_GAME_OVER",
            mj_result::MJ_CORRUPT_RECORD => "MJ_CORRUPT_RECORD",
            mj_result::MJ_PANIC => "MJ_PANIC",
            mj_result::MJ_HAND_IN_PROGRESS => "MJ_HAND_IN_PROGRESS",
            mj_result::MJ_INTERNAL => "MJ_INTERNAL",
            mj_result::MJ_MODEL_ERROR => "MJ_MODEL_ERROR",
            mj_result::MJ_MODEL_MISMATCH => "MJ_MODEL_MISMATCH",
        }
    }
}

/// A failed call: its code and the message stored as the thread's last error.
#[derive(Debug)]
pub(crate) struct Error {
    pub code: mj_result,
    pub message: String,
}

impl Error {
    pub(crate) fn new(code: mj_result, message: impl Into<String>) -> Error {
        Error {
            code,
            message: message.into(),
        }
    }

    pub(crate) fn null(what: &str) -> Error {
        Error::new(mj_result::MJ_NULL_POINTER, format!("`{what}` is NULL"))
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Error {
        Error::new(mj_result::MJ_INVALID_ARGUMENT, message)
    }
}
