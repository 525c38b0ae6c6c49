//! One CPU as a queueing resource.
//!
//! Three priority classes. Interrupt-level work (servicing the adapter) preempts the other
//! two: the job is suspended and resumes, with the time it still needs, when no interrupt
//! work is left. Interrupt work is never preempted (DOS-era drivers ran their ISRs with
//! interrupts masked), and task-level work never preempts other task-level work (the NOS
//! and DOS were not re-entrant). Background work (a driver's deferred work) starts only
//! when no interrupt or task-level job waits, and once started is not preempted by task
//! work. Within a class, first come first served, except that a job submitted with
//! [`Cpu::submit_first`] goes to the head of its class (it continues the work that just
//! ended).
//!
//! Invariants: at most one job runs; busy time never exceeds elapsed time. The caller
//! schedules a completion event, tagged with the generation returned, at the time returned
//! by [`Cpu::submit`] or [`Cpu::finish`]; a completion whose generation is no longer the
//! CPU's (the job was preempted) is stale and must be ignored. The CPU never touches the
//! engine (it is generic over the job).

use std::collections::VecDeque;

use crate::time::{SimDuration, SimTime};

/// Which queue a job waits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Priority {
    /// Interrupt service: adapter receive and transmit-complete handling.
    Interrupt = 0,
    /// NetBIOS sends, redirector, server tasks, application.
    Task = 1,
    /// Work the host does when it has nothing else waiting (a driver that moves its
    /// buffered frames into the card from its idle-time hook).
    Background = 2,
}

/// What a job spends its time on, for the explanation of where time goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Moving bytes: programmed I/O over the bus and memory-to-memory copies.
    pub copy: SimDuration,
    /// Interrupt service, driver and NetBIOS protocol code.
    pub protocol: SimDuration,
    /// Redirector, file server and application code (and the foreground's turns when a
    /// server yields after its run burst).
    pub work: SimDuration,
}

impl Cost {
    pub fn total(&self) -> SimDuration {
        self.copy + self.protocol + self.work
    }
}

/// Busy-time accounting of one CPU, ns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuStats {
    pub jobs: u64,
    pub busy_ns: u64,
    pub copy_ns: u64,
    pub protocol_ns: u64,
    pub work_ns: u64,
    /// Sum over jobs of the time spent waiting before starting.
    pub wait_ns: u64,
}

struct Waiting<J> {
    job: J,
    cost: Cost,
    since: SimTime,
}

struct Running<J> {
    job: J,
    prio: Priority,
    end: SimTime,
}

/// A completion the caller must schedule: at `at`, tagged `gen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion {
    pub at: SimTime,
    pub gen: u32,
}

/// A single CPU running jobs of type `J`.
pub struct Cpu<J> {
    queues: [VecDeque<Waiting<J>>; 3],
    running: Option<Running<J>>,
    /// Preempted task-level or background jobs, their level and the time each still needs.
    suspended: Vec<(J, Priority, SimDuration)>,
    gen: u32,
    stats: CpuStats,
}

impl<J> Default for Cpu<J> {
    fn default() -> Self {
        Self::new()
    }
}

impl<J> Cpu<J> {
    pub fn new() -> Self {
        Cpu {
            queues: [VecDeque::new(), VecDeque::new(), VecDeque::new()],
            running: None,
            suspended: Vec::new(),
            gen: 0,
            stats: CpuStats::default(),
        }
    }

    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// Jobs waiting or suspended (not counting the one running).
    pub fn waiting(&self) -> usize {
        self.queues.iter().map(VecDeque::len).sum::<usize>() + self.suspended.len()
    }

    /// Is `gen` the generation of the running job's completion?
    pub fn is_current(&self, gen: u32) -> bool {
        gen == self.gen && self.running.is_some()
    }

    pub fn stats(&self) -> &CpuStats {
        &self.stats
    }

    /// The running job and its priority, if any (for sampling what the CPU is doing).
    pub fn running(&self) -> Option<(&J, Priority)> {
        self.running.as_ref().map(|r| (&r.job, r.prio))
    }

    /// A task-level or background job was preempted by interrupt work and waits to resume.
    pub fn preempted(&self) -> bool {
        !self.suspended.is_empty()
    }

    /// Offers a job costing `cost`. If it starts now (the CPU was idle, or it is interrupt
    /// work and a task-level or background job was running, which is suspended), returns
    /// the completion to schedule.
    pub fn submit(&mut self, now: SimTime, prio: Priority, cost: Cost, job: J) -> Option<Completion> {
        self.offer(now, prio, cost, job, false)
    }

    /// Offers a job that continues the work that just ended: it goes to the head of its
    /// class's queue, ahead of the jobs already waiting there. Otherwise as [`Cpu::submit`].
    pub fn submit_first(&mut self, now: SimTime, prio: Priority, cost: Cost, job: J) -> Option<Completion> {
        self.offer(now, prio, cost, job, true)
    }

    /// Queues `job` in class `prio` (at the head if `first`), then starts it if the CPU is
    /// idle, or suspends the running job if interrupt work preempts it.
    fn offer(&mut self, now: SimTime, prio: Priority, cost: Cost, job: J, first: bool) -> Option<Completion> {
        let w = Waiting {
            job,
            cost,
            since: now,
        };
        let queue = &mut self.queues[prio as usize];
        if first {
            queue.push_front(w);
        } else {
            queue.push_back(w);
        }
        match &self.running {
            None => self.start_next(now),
            Some(r) if prio == Priority::Interrupt && r.prio != Priority::Interrupt => {
                let r = self.running.take().expect("checked");
                self.suspended.push((r.job, r.prio, r.end - now));
                self.start_next(now)
            }
            Some(_) => None,
        }
    }

    fn start_next(&mut self, now: SimTime) -> Option<Completion> {
        self.gen = self.gen.wrapping_add(1);
        let (job, prio, dur) = if let Some(w) = self.queues[0].pop_front() {
            self.account(&w, now);
            (w.job, Priority::Interrupt, w.cost.total())
        } else if let Some((job, prio, left)) = self.suspended.pop() {
            (job, prio, left)
        } else {
            let (w, prio) = match self.queues[1].pop_front() {
                Some(w) => (w, Priority::Task),
                None => (self.queues[2].pop_front()?, Priority::Background),
            };
            self.account(&w, now);
            (w.job, prio, w.cost.total())
        };
        let end = now + dur;
        self.running = Some(Running { job, prio, end });
        Some(Completion {
            at: end,
            gen: self.gen,
        })
    }

    fn account(&mut self, w: &Waiting<J>, now: SimTime) {
        self.stats.jobs += 1;
        self.stats.busy_ns += w.cost.total().as_nanos();
        self.stats.copy_ns += w.cost.copy.as_nanos();
        self.stats.protocol_ns += w.cost.protocol.as_nanos();
        self.stats.work_ns += w.cost.work.as_nanos();
        self.stats.wait_ns += (now - w.since).as_nanos();
    }

    /// The running job is complete at `now`: returns it, and the next completion if a job
    /// started.
    pub fn finish(&mut self, now: SimTime) -> (J, Option<Completion>) {
        let r = self.running.take().expect("CPU completion with no job running");
        debug_assert_eq!(r.end, now, "CPU completion at the wrong time");
        let next = self.start_next(now);
        (r.job, next)
    }

    /// Every job the CPU holds: the running one, the suspended ones, then those waiting
    /// (interrupt level first). For audits; the order is not the order of service.
    pub fn jobs(&self) -> impl Iterator<Item = &J> {
        self.running
            .iter()
            .map(|r| &r.job)
            .chain(self.suspended.iter().map(|(j, _, _)| j))
            .chain(self.queues.iter().flat_map(|q| q.iter().map(|w| &w.job)))
    }

    /// Busy time within `[0, now]`: jobs still running count only up to `now`.
    pub fn busy_until(&self, now: SimTime) -> u64 {
        let running = match &self.running {
            Some(r) if r.end > now => (r.end - now).as_nanos(),
            _ => 0,
        };
        let suspended: u64 = self.suspended.iter().map(|(_, _, left)| left.as_nanos()).sum();
        self.stats.busy_ns - running - suspended
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ns: u64) -> SimTime {
        SimTime::from_nanos(ns)
    }
    fn d(ns: u64) -> Cost {
        Cost {
            copy: SimDuration::from_nanos(ns),
            ..Cost::default()
        }
    }

    fn at(c: Option<Completion>) -> Option<u64> {
        c.map(|c| c.at.as_nanos())
    }

    #[test]
    fn test_idle_cpu_starts_job_at_once() {
        let mut c: Cpu<&str> = Cpu::new();
        assert_eq!(at(c.submit(t(10), Priority::Task, d(5), "a")), Some(15));
        assert!(c.is_busy());
    }

    #[test]
    fn test_tasks_queue_fifo() {
        let mut c: Cpu<&str> = Cpu::new();
        assert_eq!(at(c.submit(t(0), Priority::Task, d(100), "task1")), Some(100));
        assert_eq!(c.submit(t(10), Priority::Task, d(50), "task2"), None);
        let (j, next) = c.finish(t(100));
        assert_eq!((j, at(next)), ("task1", Some(150)));
        assert_eq!(c.stats().wait_ns, 90);
    }

    #[test]
    fn test_interrupt_preempts_task_which_resumes() {
        let mut c: Cpu<&str> = Cpu::new();
        let first = c.submit(t(0), Priority::Task, d(100), "task1").unwrap();
        assert_eq!(c.submit(t(10), Priority::Task, d(50), "task2"), None);
        let isr = Cost {
            protocol: SimDuration::from_nanos(30),
            ..Cost::default()
        };
        let isr_done = c.submit(t(20), Priority::Interrupt, isr, "isr").unwrap();
        assert_eq!(isr_done.at.as_nanos(), 50);
        assert!(!c.is_current(first.gen), "task1's completion is stale");
        // a second interrupt waits for the first (ISRs are not preempted)
        assert_eq!(c.submit(t(30), Priority::Interrupt, isr, "isr2"), None);
        let (j, next) = c.finish(t(50));
        assert_eq!((j, at(next)), ("isr", Some(80)));
        // task1 resumes with the 80 ns it still needed, before task2
        let (j, next) = c.finish(t(80));
        assert_eq!((j, at(next)), ("isr2", Some(160)));
        let (j, next) = c.finish(t(160));
        assert_eq!((j, at(next)), ("task1", Some(210)));
        let (j, next) = c.finish(t(210));
        assert_eq!((j, next), ("task2", None));
        let s = c.stats();
        assert_eq!(s.busy_ns, 210);
        assert_eq!((s.copy_ns, s.protocol_ns), (150, 60));
    }

    #[test]
    fn test_background_waits_for_task_work_but_is_not_preempted_by_it() {
        let mut c: Cpu<&str> = Cpu::new();
        assert_eq!(at(c.submit(t(0), Priority::Task, d(100), "task1")), Some(100));
        assert_eq!(c.submit(t(10), Priority::Background, d(40), "copy"), None);
        assert_eq!(c.submit(t(20), Priority::Task, d(50), "task2"), None);
        // task2 came after the copy but goes first
        let (j, next) = c.finish(t(100));
        assert_eq!((j, at(next)), ("task1", Some(150)));
        let (j, next) = c.finish(t(150));
        assert_eq!((j, at(next)), ("task2", Some(190)));
        assert_eq!(c.running().map(|(_, p)| p), Some(Priority::Background));
        // task work arriving now waits for the running copy
        assert_eq!(c.submit(t(160), Priority::Task, d(10), "task3"), None);
        let (j, next) = c.finish(t(190));
        assert_eq!((j, at(next)), ("copy", Some(200)));
        assert_eq!(c.stats().wait_ns, 80 + 140 + 30);
    }

    #[test]
    fn test_interrupt_preempts_background_which_resumes_at_its_level() {
        let mut c: Cpu<&str> = Cpu::new();
        let first = c.submit(t(0), Priority::Background, d(100), "copy").unwrap();
        let isr = Cost {
            protocol: SimDuration::from_nanos(30),
            ..Cost::default()
        };
        assert_eq!(at(c.submit(t(40), Priority::Interrupt, isr, "isr")), Some(70));
        assert!(!c.is_current(first.gen));
        assert!(c.preempted());
        assert_eq!(c.submit(t(50), Priority::Task, d(10), "task"), None);
        // the copy resumes (60 ns left) before the task that came meanwhile
        let (j, next) = c.finish(t(70));
        assert_eq!((j, at(next)), ("isr", Some(130)));
        assert_eq!(c.running().map(|(_, p)| p), Some(Priority::Background));
        let (j, next) = c.finish(t(130));
        assert_eq!((j, at(next)), ("copy", Some(140)));
        assert_eq!(c.busy_until(t(140)), 140);
    }

    #[test]
    fn test_submit_first_goes_ahead_of_its_class() {
        let mut c: Cpu<&str> = Cpu::new();
        c.submit(t(0), Priority::Task, d(100), "build1");
        c.submit(t(0), Priority::Task, d(100), "build2");
        let (j, next) = c.finish(t(100));
        assert_eq!((j, at(next)), ("build1", Some(200)));
        // the copy that build1's send call makes runs before build3 but after build2,
        // which was already running
        c.submit(t(100), Priority::Task, d(100), "build3");
        assert_eq!(c.submit_first(t(100), Priority::Task, d(10), "copy1"), None);
        let (j, next) = c.finish(t(200));
        assert_eq!((j, at(next)), ("build2", Some(210)));
        let (j, next) = c.finish(t(210));
        assert_eq!((j, at(next)), ("copy1", Some(310)));
        assert_eq!(c.finish(t(310)).0, "build3");
    }

    #[test]
    fn test_busy_time_excludes_suspended_remainder() {
        let mut c: Cpu<()> = Cpu::new();
        c.submit(t(0), Priority::Task, d(1000), ());
        let isr = Cost {
            protocol: SimDuration::from_nanos(100),
            ..Cost::default()
        };
        c.submit(t(200), Priority::Interrupt, isr, ());
        // at 250: task ran 200, ISR 50; task has 800 left, ISR 50
        assert_eq!(c.busy_until(t(250)), 250);
    }

    #[test]
    fn test_busy_time_is_clipped_at_now() {
        let mut c: Cpu<()> = Cpu::new();
        c.submit(t(0), Priority::Task, d(1000), ());
        assert_eq!(c.busy_until(t(400)), 400);
    }
}
