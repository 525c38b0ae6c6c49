//! CPU accounting as 4.2BSD's process accounting saw it: `hz` = 100 clock ticks a second,
//! each charged by `hardclock` to the process that was running when it came, as user time
//! if it interrupted user mode and as system time otherwise; a tick that interrupts the
//! idle loop, even while a network interrupt is being serviced there, is charged to
//! nobody (REFERENCE-ttcp.md, "CPU accounting"; 4.2BSD `kern/kern_clock.c`). System
//! time is therefore sampled, not measured.
//!
//! [`charge`] classifies one tick from what the host is doing; [`TickCounts`] adds the
//! ticks up. With an attached processor (the VAX-11/782 style dual CPU), a process in
//! user mode may run on the second CPU: its ticks are user time there. Units: ticks.

use super::cpu::Priority;

/// Whose work a running job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// The process in user mode.
    User,
    /// The process in the kernel (a system call, including output it does there).
    Process,
    /// Interrupt service for nobody in particular.
    Other,
}

/// What one host was doing at a clock tick, as the tick sampler needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The primary CPU's running job: its priority and whose work it is. `None` when
    /// the CPU is idle.
    pub primary: Option<(Priority, Work)>,
    /// A task-level job (the process, in a system call or in user mode) was preempted
    /// by the interrupt work now running.
    pub process_preempted: bool,
    /// The process is running user-mode work on the attached processor.
    pub user_on_attached: bool,
}

/// Whom a tick is charged to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    User,
    System,
    Nobody,
}

/// The charge of one tick.
pub fn charge(s: Sample) -> Charge {
    if s.user_on_attached {
        return Charge::User;
    }
    match s.primary {
        Some((_, Work::User)) => Charge::User,
        Some((_, Work::Process)) => Charge::System,
        // an interrupt over the process is the process's system time; over idle, nobody's
        Some((_, Work::Other)) if s.process_preempted => Charge::System,
        Some((_, Work::Other)) | None => Charge::Nobody,
    }
}

/// Ticks charged so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickCounts {
    pub user: u64,
    pub system: u64,
    pub nobody: u64,
}

impl TickCounts {
    pub fn add(&mut self, c: Charge) {
        match c {
            Charge::User => self.user += 1,
            Charge::System => self.system += 1,
            Charge::Nobody => self.nobody += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(primary: Option<(Priority, Work)>, preempted: bool, attached: bool) -> Charge {
        charge(Sample {
            primary,
            process_preempted: preempted,
            user_on_attached: attached,
        })
    }

    #[test]
    fn test_tick_split_by_hand() {
        // a 10-tick window: the process computes in user mode (1 tick), makes a system
        // call (3 ticks: one in the call, one sending its window update at interrupt
        // level, one in a receive interrupt over the call), sleeps
        // while the CPU idles (3 ticks) and while a receive interrupt runs over the idle
        // loop (2 ticks), then runs its user loop on the attached processor (1 tick)
        let ticks = [
            at(Some((Priority::Task, Work::User)), false, false),
            at(Some((Priority::Task, Work::Process)), false, false),
            at(Some((Priority::Interrupt, Work::Process)), false, false),
            at(Some((Priority::Interrupt, Work::Other)), true, false),
            at(None, false, false),
            at(None, false, false),
            at(None, false, false),
            at(Some((Priority::Interrupt, Work::Other)), false, false),
            at(Some((Priority::Interrupt, Work::Other)), false, false),
            at(None, false, true),
        ];
        let mut c = TickCounts::default();
        for t in ticks {
            c.add(t);
        }
        assert_eq!(
            c,
            TickCounts {
                user: 2,
                system: 3,
                nobody: 5
            }
        );
    }
}
