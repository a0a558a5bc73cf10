//! Peak stack measurement by stack painting: fill the unused stack with a pattern at
//! boot, and after the work find the lowest word that no longer holds it. The firmware
//! has no heap and its static data is tiny, so the peak stack *is* its RAM use that
//! `size` cannot show.
//!
//! cortex-m-rt's `link.x` defines `__sheap` (the first address after `.bss`/`.uninit`)
//! and `_stack_start` (the initial stack pointer, the end of RAM); the stack grows
//! down from `_stack_start` towards `__sheap`.

use core::ptr::{addr_of, read_volatile, write_volatile};

const PAINT: u32 = 0xdead_c0de;
/// Left unpainted below the current stack pointer: the frame of [`paint`] itself.
const MARGIN: usize = 256;

extern "C" {
    static __sheap: u32;
    static _stack_start: u32;
}

// Taking the address of an extern static is safe since Rust 1.82; the block keeps the
// crate building with the workspace's minimum of 1.81.
#[allow(unused_unsafe)]
fn bounds() -> (usize, usize) {
    // SAFETY: only the addresses of the linker symbols are taken, never their values.
    unsafe { (addr_of!(__sheap) as usize, addr_of!(_stack_start) as usize) }
}

/// Paints the free stack between `__sheap` and the current stack pointer (minus a
/// margin). Call once, early in `main`.
#[inline(never)]
pub fn paint() {
    let (low, _) = bounds();
    let sp = cortex_m::register::msp::read() as usize;
    let mut addr = (low + 3) & !3;
    while addr + 4 <= sp.saturating_sub(MARGIN) {
        // SAFETY: [low, sp - MARGIN) is RAM that nothing uses yet: above it live the
        // active frames, below it nothing (no heap), and no interrupt is enabled.
        unsafe { write_volatile(addr as *mut u32, PAINT) };
        addr += 4;
    }
}

/// Bytes of stack used at the deepest point since [`paint`] (counted from the top of
/// RAM, so it includes the frames that existed before painting).
pub fn peak_bytes() -> usize {
    let (low, top) = bounds();
    let mut addr = (low + 3) & !3;
    // SAFETY: reads RAM inside [low, top), which is mapped and word aligned.
    while addr < top && unsafe { read_volatile(addr as *const u32) } == PAINT {
        addr += 4;
    }
    top - addr
}
