//! Instruments of a live run, each an [`Observer`] of the run's one observation stream
//! ([`super::observe`]), as a probe clipped beside the cable: the frames' bytes as they
//! went on the wire ([`bytes`]), a pcapng capture ([`pcap`]), the event log ([`events`])
//! and the space-time recorder ([`spacetime`]); [`Tee`] hands the stream to several of
//! them. They watch and record; they never change the run (a run with or without them
//! gives the same results). Turning what they recorded into pictures and listings is
//! `crate::report`'s work.
//!
//! Times are simulated instants (integer ns).

pub mod bytes;
pub mod events;
pub mod pcap;
pub mod spacetime;

use super::observe::{Observation, Observer};

/// Hands every observation to each observer, in order.
pub struct Tee<'a>(pub Vec<&'a mut dyn Observer>);

impl Observer for Tee<'_> {
    fn observe(&mut self, o: &Observation) {
        for x in self.0.iter_mut() {
            x.observe(o);
        }
    }
}
