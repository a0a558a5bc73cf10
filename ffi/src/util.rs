//! Pointer and buffer helpers: every NULL check and every write into caller memory goes
//! through here, so the rules (NULL checks, needed lengths, no partial success) live in
//! one place.

use std::ffi::{c_char, CStr};

use crate::result::{mj_result, Error};

/// A shared reference from a caller pointer, or `MJ_NULL_POINTER`.
///
/// # Safety
/// `p` must be NULL or point to a valid `T` that outlives `'a` and is not mutated
/// meanwhile.
pub(crate) unsafe fn in_ref<'a, T>(p: *const T, what: &str) -> Result<&'a T, Error> {
    // SAFETY: the caller guarantees that a non-NULL `p` is valid for `'a`.
    unsafe { p.as_ref() }.ok_or_else(|| Error::null(what))
}

/// An exclusive reference from a caller pointer, or `MJ_NULL_POINTER`.
///
/// # Safety
/// `p` must be NULL or point to a valid `T` that outlives `'a` and is not accessed
/// elsewhere meanwhile.
pub(crate) unsafe fn in_mut<'a, T>(p: *mut T, what: &str) -> Result<&'a mut T, Error> {
    // SAFETY: the caller guarantees that a non-NULL `p` is valid and unaliased for `'a`.
    unsafe { p.as_mut() }.ok_or_else(|| Error::null(what))
}

/// Fails with `MJ_NULL_POINTER` when an output pointer is NULL (checked before any work,
/// so that nothing is written on error).
pub(crate) fn out_ptr<T>(p: *mut T, what: &str) -> Result<(), Error> {
    if p.is_null() {
        Err(Error::null(what))
    } else {
        Ok(())
    }
}

/// Writes `value` through an output pointer that [`out_ptr`] accepted.
///
/// # Safety
/// `p` must be non-NULL, aligned and valid for a write of `T`.
pub(crate) unsafe fn put<T>(p: *mut T, value: T) {
    // SAFETY: guaranteed by the caller.
    unsafe { p.write(value) }
}

/// A NUL-terminated UTF-8 string argument.
///
/// # Safety
/// `p` must be NULL or point to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn in_str<'a>(p: *const c_char, what: &str) -> Result<&'a str, Error> {
    if p.is_null() {
        return Err(Error::null(what));
    }
    // SAFETY: non-NULL and NUL-terminated per the caller's contract.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str()
        .map_err(|e| Error::invalid(format!("`{what}` is not UTF-8: {e}")))
}

/// A fixed-length array argument (`n` elements).
///
/// # Safety
/// `p` must be NULL or valid for reads of `n` elements of `T` for `'a`.
pub(crate) unsafe fn in_array<'a, T>(p: *const T, n: usize, what: &str) -> Result<&'a [T], Error> {
    if p.is_null() {
        return Err(Error::null(what));
    }
    // SAFETY: non-NULL and valid for `n` reads per the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// Copies `data` into the caller buffer `buf` of `len` elements and writes the element
/// count to `*written`. When `len` is too small, writes only the needed count and fails
/// with `MJ_BUFFER_TOO_SMALL`. `buf` may be NULL when `len` is 0.
///
/// # Safety
/// `buf` must be NULL or valid for writes of `len` elements; `written` must be NULL or
/// valid for a write.
pub(crate) unsafe fn out_slice<T: Copy>(
    buf: *mut T,
    len: usize,
    data: &[T],
    written: *mut usize,
    what: &str,
) -> Result<(), Error> {
    out_ptr(written, "written")?;
    if buf.is_null() && len > 0 {
        return Err(Error::null(what));
    }
    if data.len() > len {
        // SAFETY: `written` is non-NULL (checked above) and valid per the contract.
        unsafe { put(written, data.len()) };
        return Err(Error::new(
            mj_result::MJ_BUFFER_TOO_SMALL,
            format!("`{what}` holds {len} elements, {} needed", data.len()),
        ));
    }
    if !data.is_empty() {
        // SAFETY: `buf` is non-NULL here (data is non-empty so len > 0) and valid for
        // `len >= data.len()` writes; the regions cannot overlap since `data` is ours.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), buf, data.len()) };
    }
    // SAFETY: `written` is non-NULL and valid per the contract.
    unsafe { put(written, data.len()) };
    Ok(())
}

/// Writes `text` and a NUL into `buf` (`len` bytes) and its length without the NUL to
/// `*written`, also on `MJ_BUFFER_TOO_SMALL` (then nothing else is written). `buf` may be
/// NULL when `len` is 0.
///
/// # Safety
/// As [`out_slice`].
pub(crate) unsafe fn out_string(
    buf: *mut c_char,
    len: usize,
    text: &str,
    written: *mut usize,
    what: &str,
) -> Result<(), Error> {
    out_ptr(written, "written")?;
    if buf.is_null() && len > 0 {
        return Err(Error::null(what));
    }
    let bytes = text.as_bytes();
    if bytes.len() >= len {
        // SAFETY: `written` is non-NULL and valid per the contract.
        unsafe { put(written, bytes.len()) };
        return Err(Error::new(
            mj_result::MJ_BUFFER_TOO_SMALL,
            format!("`{what}` holds {len} bytes, {} needed", bytes.len() + 1),
        ));
    }
    // SAFETY: `buf` is non-NULL (len > bytes.len() >= 0) and valid for `len` writes;
    // `bytes.len() + 1 <= len`.
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr().cast::<c_char>(), buf, bytes.len());
        buf.add(bytes.len()).write(0);
        put(written, bytes.len());
    }
    Ok(())
}
