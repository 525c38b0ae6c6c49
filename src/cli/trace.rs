//! The binary's side of `ethersim trace`: checks the window and the output directory,
//! runs the scenario with the space-time recorder observing its one observation stream
//! (beside [`LastSeen`], which finds the run's end), and writes `trace.svg` and
//! `trace.png` through [`Staged`]: all or nothing, no partial file under a final name.

use anyhow::{bail, Context, Result};
use ethersim::lan::instruments::spacetime::{SpaceTimeRecorder, Window};
use ethersim::lan::instruments::Tee;
use ethersim::lan::observe::Observer;
use ethersim::report::atomic::Staged;
use ethersim::report::spacetime_draw::write_trace;
use ethersim::report::units::Unit;
use ethersim::run;

use super::args::TraceArgs;
use super::io::{check_out_dir, load, wrote};
use super::wire::{check_window_start, LastSeen};

/// `ethersim trace SCENARIO --from T --to T [--out DIR]` (`DIR` defaults to `output`, as
/// for every command that writes files). A window that is no window (`--to` not after
/// `--from`, or over 5 ms long) is a usage error.
pub fn run(a: &TraceArgs) -> Result<()> {
    let window = Window::new(a.from, a.to).unwrap_or_else(|e| super::io::usage(&format!("--from/--to: {e}")));
    let s = load(&a.scenario)?;
    let seg = run::observed_segment(&s).context(
        "ethersim trace draws a CSMA/CD segment: this scenario's medium is a point-to-point link or no network",
    )?;
    check_out_dir(&a.out)?;
    check_window_start(&s, window.from(), "the trace window")?;

    let mut recorder = SpaceTimeRecorder::new(seg, window);
    let mut last = LastSeen::default();
    {
        let views: Vec<&mut dyn Observer> = vec![&mut last, &mut recorder];
        let mut tee = Tee(views);
        run::run_observed(&s, Some(&mut tee));
    }
    if window.from() > last.0 {
        bail!(
            "the trace window starts at {:.6} s, after the run's last event at {:.6} s",
            window.from().as_secs_f64(),
            last.0.as_secs_f64()
        );
    }
    let st = recorder.finish(last.0)?;
    let show = |t: ethersim::time::SimTime| Unit::Seconds.show(t.as_secs_f64());
    let title = format!(
        "{} (seed {}): the cable from {} to {}",
        s.name,
        s.seed,
        show(window.from()),
        show(window.to())
    );
    let mut staged = Staged::new(&a.out);
    write_trace(&st, &title, &mut staged)?;
    wrote(&staged.commit()?);
    Ok(())
}
