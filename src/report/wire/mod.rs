//! Views of the wire, each an [`Observer`](crate::lan::observe::Observer) of a run's one
//! observation stream: the frames' bytes ([`bytes`]), a pcapng capture ([`pcap`]), the
//! event log ([`events`]) and the space-time diagram ([`spacetime`], drawn by
//! [`spacetime_draw`]); [`Tee`] hands the
//! stream to several of them. [`listing`] reads a capture back as one line per frame.

pub mod bytes;
pub mod events;
pub mod listing;
pub mod pcap;
pub mod spacetime;
pub mod spacetime_draw;

use crate::lan::observe::{Observation, Observer};

/// Hands every observation to each observer, in order.
pub struct Tee<'a>(pub Vec<&'a mut dyn Observer>);

impl Observer for Tee<'_> {
    fn observe(&mut self, o: &Observation) {
        for x in self.0.iter_mut() {
            x.observe(o);
        }
    }
}
