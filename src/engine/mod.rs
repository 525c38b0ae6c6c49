//! The discrete-event engine: simulated time, the event queue and the RNG streams.
//!
//! The engine owns the clock: models never read a wall clock, they are handed `&mut Engine`
//! and schedule events on it. Time only moves forward, to the time of the event being
//! dispatched.
//!
//! **Rule for simultaneous events.** Events are ordered by `(time, sequence)`, where the
//! sequence number is taken when the event is scheduled. Events at the same nanosecond are
//! therefore dispatched in the order in which they were scheduled (FIFO). Models rely on
//! this only where the order is physically meaningless (two stations' timers expiring at
//! the same instant act on the medium state as it was before either of them acted, see
//! `ether::medium`), never to break a physical tie in favour of a particular station.
//!
//! **Stale timers** are not removed from the queue; every timer a model can invalidate
//! carries a generation number that the model checks on dispatch (see `ether::mac`).
//! That costs one heap entry per stale timer and keeps scheduling O(log n).

mod queue;
mod rng;
pub mod seed;

pub use queue::EventQueue;
pub use rng::{RngStreams, SimRng, StreamKind};

use crate::time::{SimDuration, SimTime};

/// The clock, the pending events and the seeded random streams of one run.
pub struct Engine<E> {
    now: SimTime,
    queue: EventQueue<E>,
    dispatched: u64,
    rngs: RngStreams,
}

/// A model driven by the engine: it reacts to one event at a time.
pub trait Model {
    type Event;
    /// Handles one event at `engine.now()`; may schedule more.
    fn handle(&mut self, event: Self::Event, engine: &mut Engine<Self::Event>);
}

impl<E> Engine<E> {
    /// A new engine at time zero whose random streams all derive from `seed`.
    pub fn new(seed: u64) -> Self {
        Engine {
            now: SimTime::ZERO,
            queue: EventQueue::new(),
            dispatched: 0,
            rngs: RngStreams::new(seed),
        }
    }

    /// The current simulated time.
    #[inline]
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Schedules `event` at the absolute time `at`.
    ///
    /// Panics, in every build, if `at` is in the past: that is a bug in the model, and
    /// moving the event to `now` instead would hide it behind a wrong result.
    #[inline]
    pub fn schedule(&mut self, at: SimTime, event: impl Into<E>) {
        if at < self.now {
            past(at, self.now);
        }
        self.queue.push(at, event.into());
    }

    /// Schedules `event` after `delay` from now.
    #[inline]
    pub fn schedule_in(&mut self, delay: SimDuration, event: impl Into<E>) {
        let at = self.now + delay;
        self.queue.push(at, event.into());
    }

    /// The random streams of this run (one seed, one independent stream per component).
    pub fn rng_streams(&self) -> &RngStreams {
        &self.rngs
    }

    /// Number of events dispatched so far.
    pub fn events_dispatched(&self) -> u64 {
        self.dispatched
    }

    /// Number of events still pending (including stale timers).
    pub fn pending(&self) -> usize {
        self.queue.len()
    }

    /// Removes the next event if it is due at or before `until`, advancing the clock to it.
    #[inline]
    pub fn pop_until(&mut self, until: SimTime) -> Option<E> {
        if self.queue.peek_time()? > until {
            return None;
        }
        let (t, e) = self.queue.pop()?;
        self.now = t;
        self.dispatched += 1;
        Some(e)
    }

    /// Moves the clock to `t` without dispatching (used at the end of a run so that
    /// statistics can be closed at the horizon). Never moves backwards.
    pub fn advance_to(&mut self, t: SimTime) {
        if t > self.now {
            self.now = t;
        }
    }
}

#[cold]
#[inline(never)]
fn past(at: SimTime, now: SimTime) -> ! {
    panic!(
        "event scheduled in the past: at {} ns, now {} ns",
        at.as_nanos(),
        now.as_nanos()
    )
}

/// Runs `model` until no event is due at or before `until`, then sets the clock to `until`.
pub fn run_until<M: Model>(model: &mut M, engine: &mut Engine<M::Event>, until: SimTime) {
    while let Some(ev) = engine.pop_until(until) {
        model.handle(ev, engine);
    }
    engine.advance_to(until);
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Recorder(Vec<(u64, u32)>);
    impl Model for Recorder {
        type Event = u32;
        fn handle(&mut self, ev: u32, engine: &mut Engine<u32>) {
            self.0.push((engine.now().as_nanos(), ev));
            if ev == 1 {
                // scheduled at the current instant: runs after everything already queued there
                engine.schedule_in(SimDuration::ZERO, 99u32);
            }
        }
    }

    #[test]
    fn test_simultaneous_events_run_in_scheduling_order() {
        let mut eng = Engine::new(1);
        eng.schedule(SimTime::from_nanos(10), 2u32);
        eng.schedule(SimTime::from_nanos(5), 1u32);
        eng.schedule(SimTime::from_nanos(5), 3u32);
        eng.schedule(SimTime::from_nanos(10), 4u32);
        let mut m = Recorder(vec![]);
        run_until(&mut m, &mut eng, SimTime::from_nanos(100));
        assert_eq!(m.0, vec![(5, 1), (5, 3), (5, 99), (10, 2), (10, 4)]);
        assert_eq!(eng.now(), SimTime::from_nanos(100));
        assert_eq!(eng.events_dispatched(), 5);
    }

    #[test]
    fn test_run_until_leaves_later_events_pending() {
        let mut eng = Engine::new(1);
        eng.schedule(SimTime::from_nanos(50), 7u32);
        let mut m = Recorder(vec![]);
        run_until(&mut m, &mut eng, SimTime::from_nanos(49));
        assert!(m.0.is_empty());
        assert_eq!(eng.pending(), 1);
    }

    #[test]
    #[should_panic(expected = "event scheduled in the past: at 4 ns, now 5 ns")]
    fn test_schedule_in_the_past_panics() {
        let mut eng: Engine<u32> = Engine::new(1);
        eng.schedule(SimTime::from_nanos(5), 1u32);
        assert_eq!(eng.pop_until(SimTime::from_nanos(5)), Some(1));
        eng.schedule(SimTime::from_nanos(5), 2u32); // now is allowed
        eng.schedule(SimTime::from_nanos(4), 3u32);
    }
}
