//! Result codes, the thread-local last error and the panic boundary.

use std::cell::RefCell;
use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use inference::panic_message;

use crate::util;

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

thread_local! {
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Stores `message` as this thread's last error. Never panics (a thread that is being
/// torn down simply keeps no message).
fn set_last_error(message: String) {
    let _ = LAST_ERROR.try_with(|cell| {
        if let Ok(mut slot) = cell.try_borrow_mut() {
            *slot = message;
        }
    });
}

/// This thread's last error message (empty when no call failed yet).
pub(crate) fn last_error() -> String {
    LAST_ERROR
        .try_with(|cell| cell.try_borrow().map(|s| s.clone()).unwrap_or_default())
        .unwrap_or_default()
}

/// The panic boundary of every fallible export: runs `body`, turns an `Err` into its
/// code (storing the message as the last error, prefixed with `function`) and a panic
/// into [`mj_result::MJ_PANIC`]. Nothing unwinds past this function.
pub(crate) fn guard(function: &str, body: impl FnOnce() -> Result<(), Error>) -> mj_result {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => mj_result::MJ_OK,
        Ok(Err(e)) => {
            set_last_error(format!("{function}: {}", e.message));
            e.code
        }
        Err(payload) => {
            // Formatting the payload cannot unwind further: catch a second panic too.
            let message = catch_unwind(AssertUnwindSafe(|| panic_message(payload.as_ref())))
                .unwrap_or_else(|_| "panic while formatting a panic".to_string());
            set_last_error(format!("{function}: panic: {message}"));
            mj_result::MJ_PANIC
        }
    }
}

/// The panic boundary of exports that cannot fail (`_free`, name look-ups): runs `body`
/// and returns `fallback` if it panics.
pub(crate) fn guard_infallible<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(fallback)
}

/// Writes this thread's last error message (the message of the most recent failed call
/// on this thread; empty if none failed yet) into `buf` as a NUL-terminated string.
///
/// `*written` receives the message length without the NUL, on success and on
/// `MJ_BUFFER_TOO_SMALL` alike, so a buffer of `*written + 1` bytes always suffices.
/// `buf` may be NULL when `len` is 0 (a size query). This function does not change the
/// last error, even when it fails.
///
/// # Safety
/// `buf` must be NULL or valid for `len` bytes of writes; `written` must be NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn mj_last_error_message(
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> mj_result {
    let message = last_error();
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller guarantees `buf`/`len` and `written` as documented.
        unsafe { util::out_string(buf, len, &message, written, "buf") }
    }));
    match result {
        Ok(Ok(())) => mj_result::MJ_OK,
        Ok(Err(e)) => e.code,
        Err(_) => mj_result::MJ_PANIC,
    }
}

/// The stable name of a result code (`"MJ_OK"`, `"MJ_NULL_POINTER"`, ...) as a static
/// NUL-terminated string, or `"MJ_UNKNOWN"` for a value that is not a code. Never NULL;
/// the string must not be freed.
#[no_mangle]
pub extern "C" fn mj_result_name(code: u32) -> *const c_char {
    guard_infallible(c"MJ_UNKNOWN".as_ptr(), || {
        let name: &'static std::ffi::CStr = match mj_result::from_u32(code) {
            Some(mj_result::MJ_OK) => c"MJ_OK",
            Some(mj_result::MJ_NULL_POINTER) => c"MJ_NULL_POINTER",
            Some(mj_result::MJ_INVALID_ARGUMENT) => c"MJ_INVALID_ARGUMENT",
            Some(mj_result::MJ_BUFFER_TOO_SMALL) => c"MJ_BUFFER_TOO_SMALL",
            Some(mj_result::MJ_PARSE_ERROR) => c"MJ_PARSE_ERROR",
            Some(mj_result::MJ_ILLEGAL_ACTION) => c"MJ_ILLEGAL_ACTION",
            Some(mj_result::MJ_NOT_YOUR_TURN) => c"MJ_NOT_YOUR_TURN",
            Some(mj_result::MJ_HAND_OVER) => c"MJ_HAND_OVER",
            Some(mj_result::MJ_GAME_OVER) => c"MJ_GAME_OVER",
            Some(mj_result::MJ_CORRUPT_RECORD) => c"MJ_CORRUPT_RECORD",
            Some(mj_result::MJ_PANIC) => c"MJ_PANIC",
            Some(mj_result::MJ_HAND_IN_PROGRESS) => c"MJ_HAND_IN_PROGRESS",
            Some(mj_result::MJ_INTERNAL) => c"MJ_INTERNAL",
            Some(mj_result::MJ_MODEL_ERROR) => c"MJ_MODEL_ERROR",
            Some(mj_result::MJ_MODEL_MISMATCH) => c"MJ_MODEL_MISMATCH",
            None => c"MJ_UNKNOWN",
        };
        name.as_ptr()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_stable() {
        for i in 0..15u32 {
            let code = mj_result::from_u32(i).unwrap();
            assert_eq!(code as u32, i);
            // SAFETY: mj_result_name returns a static NUL-terminated string.
            let name = unsafe { std::ffi::CStr::from_ptr(mj_result_name(i)) };
            assert_eq!(name.to_str().unwrap(), code.name());
        }
        // SAFETY: as above.
        let unknown = unsafe { std::ffi::CStr::from_ptr(mj_result_name(9999)) };
        assert_eq!(unknown.to_str().unwrap(), "MJ_UNKNOWN");
        assert_eq!(mj_result::from_u32(15), None);
    }

    #[test]
    fn panic_becomes_code() {
        let r = guard("test_fn", || panic!("boom {}", 42));
        assert_eq!(r, mj_result::MJ_PANIC);
        assert_eq!(last_error(), "test_fn: panic: boom 42");
        let r = guard("test_fn", || std::panic::panic_any(7u8));
        assert_eq!(r, mj_result::MJ_PANIC);
        assert!(last_error().contains("unknown panic payload"));
        assert_eq!(guard_infallible(5, || -> i32 { panic!("x") }), 5);
    }

    #[test]
    fn error_sets_message() {
        let r = guard("f", || Err(Error::invalid("bad")));
        assert_eq!(r, mj_result::MJ_INVALID_ARGUMENT);
        assert_eq!(last_error(), "f: bad");
        // Success leaves the last error alone.
        assert_eq!(guard("g", || Ok(())), mj_result::MJ_OK);
        assert_eq!(last_error(), "f: bad");
    }
}
