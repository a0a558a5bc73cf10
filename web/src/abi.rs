//! The module's exports, the page's only way in (`www/engine.js`):
//!
//! 1. `mj_alloc(len)` → a buffer of `len` bytes in the module's memory; the caller
//!    writes the request's UTF-8 there;
//! 2. `mj_request(ptr, len)` answers it (and frees the buffer) → the answer's length;
//! 3. `mj_answer_ptr()`, `mj_answer_len()` → where the answer's UTF-8 lies and its length,
//!    valid until the next request.
//!
//! Panic boundary: natively a panic is caught and answered as an error. In the browser
//! module (built with `panic = "abort"`) a panic traps; the panic hook first writes the
//! error answer where `mj_answer_ptr` points, so the page reads a message instead of
//! nothing, and then starts a fresh instance.

use std::cell::RefCell;

thread_local! {
    /// The last answer's bytes.
    static ANSWER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fn set_answer(text: String) -> usize {
    let len = text.len();
    ANSWER.with(|a| *a.borrow_mut() = text.into_bytes());
    len
}

/// A buffer of `len` bytes for the caller to fill (freed by [`mj_request`]).
#[unsafe(no_mangle)]
pub extern "C" fn mj_alloc(len: usize) -> *mut u8 {
    let mut buf = vec![0u8; len].into_boxed_slice();
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Answers the request in the buffer `ptr`/`len` from [`mj_alloc`] (taking it back),
/// returning the answer's length in bytes.
///
/// # Safety
/// `ptr` and `len` must be a buffer [`mj_alloc`] returned and not yet passed here.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mj_request(ptr: *mut u8, len: usize) -> usize {
    std::panic::set_hook(Box::new(|info| {
        let message = format!("internal error (please report it): {info}");
        set_answer(serde_json::json!({ "ok": false, "error": message }).to_string());
    }));
    // SAFETY: the caller's contract: the buffer came from `mj_alloc(len)`.
    let bytes = unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) };
    let answer = match std::str::from_utf8(&bytes) {
        Err(e) => {
            serde_json::json!({ "ok": false, "error": format!("the request is not UTF-8: {e}") })
                .to_string()
        }
        Ok(text) => match std::panic::catch_unwind(|| crate::request::handle(text)) {
            Ok(a) => a,
            Err(_) => ANSWER.with(|a| String::from_utf8_lossy(&a.borrow()).into_owned()),
        },
    };
    set_answer(answer)
}

/// Where the last answer's bytes lie (as many as [`mj_request`] returned).
#[unsafe(no_mangle)]
pub extern "C" fn mj_answer_ptr() -> *const u8 {
    ANSWER.with(|a| a.borrow().as_ptr())
}

/// The last answer's length in bytes (what [`mj_request`] returned, or, after a trap,
/// the length of the error answer the panic hook wrote).
#[unsafe(no_mangle)]
pub extern "C" fn mj_answer_len() -> usize {
    ANSWER.with(|a| a.borrow().len())
}
