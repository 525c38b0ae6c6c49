//! Helpers shared by the limit tests: an allocator that counts live heap bytes per thread,
//! and the largest model state seen while stepping a run.
//!
//! A test binary that wants it declares
//! `#[global_allocator] static ALLOC: common::Counting = common::Counting;`
//! and reads [`live_bytes`]. Tests run in parallel, each on its own thread, so a
//! per-thread count is not disturbed by the others.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use ethersim::engine::{run_until, Engine, Model};
use ethersim::time::{SimDuration, SimTime};

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

/// Largest (records held by the medium, events pending) seen at 10 ms steps over
/// `(from, to]`; `records` reads the medium's record count from the model.
#[allow(dead_code)] // not every test file that shares `common` samples state
pub fn max_state<M: Model>(
    model: &mut M,
    engine: &mut Engine<M::Event>,
    from: SimDuration,
    to: SimDuration,
    records: impl Fn(&M) -> usize,
) -> (usize, usize) {
    let step = SimDuration::from_millis(10);
    let mut t = SimTime::ZERO + from;
    let mut max = (0, 0);
    while t < SimTime::ZERO + to {
        t += step;
        run_until(model, engine, t);
        max.0 = max.0.max(records(model));
        max.1 = max.1.max(engine.pending());
    }
    max
}
