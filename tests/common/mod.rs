//! Helpers shared by the limit tests: an allocator that counts live heap bytes per thread.
//!
//! A test binary that wants it declares
//! `#[global_allocator] static ALLOC: common::Counting = common::Counting;`
//! and reads [`live_bytes`]. Tests run in parallel, each on its own thread, so a
//! per-thread count is not disturbed by the others.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting the bytes live on each thread.
pub struct Counting;

thread_local! {
    static LIVE_BYTES: Cell<isize> = const { Cell::new(0) };
}

fn count(delta: isize) {
    // `try_with`: the thread-local may already be gone while a thread is torn down.
    let _ = LIVE_BYTES.try_with(|c| c.set(c.get() + delta));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        System.realloc(ptr, layout, new_size)
    }
}

/// Heap bytes allocated and not freed by the current thread.
pub fn live_bytes() -> isize {
    LIVE_BYTES.with(|c| c.get())
}
