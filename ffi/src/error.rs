//! Result codes, the thread-local last error and the panic boundary.

use std::cell::RefCell;
use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

use inference::panic_message;

pub use crate::result::mj_result;
pub(crate) use crate::result::Error;
use crate::util;

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
