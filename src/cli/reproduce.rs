//! `ethersim reproduce NAME` (and the older spellings `figure1`, `ttcp1995`, `ttcp1985`):
//! run a reproduction of the registry (`ethersim::repro`) on a pool of `--jobs` threads,
//! stage its files, then commit them together and print the comparison.
//!
//! Every reproduction takes the same path: the output directory is checked before
//! anything runs; the reproduction computes its data (the mean over its report seeds, the
//! same whatever the number of threads) and stages every file in one [`Staged`],
//! committed only when all are written, so a failure leaves the directory as it was.
//! With `--list-runs` or `--run-index` a reproduction split into runs (the bulletin's, LANPERF's)
//! is a study of indexed runs instead ([`ethersim::study::reproduce`]).

use anyhow::{Context, Result};

use super::args::{OutputArgs, ShardArgs};
use super::io::{check_out_dir, jobs, overrides, print, wrote};
use super::study::list_or_run;
use ethersim::report::atomic::Staged;
use ethersim::repro::{find, REGISTRY};
use ethersim::study::provenance::{self, Provenance};
use ethersim::study::reproduce::ReproduceStudy;

/// The text of `reproduce --list`: each name, its aliases and what it reproduces, from
/// the registry.
pub fn list() -> String {
    let mut out = String::from("Reproductions (ethersim reproduce NAME):\n");
    for r in REGISTRY {
        let also = if r.aliases().is_empty() {
            String::new()
        } else {
            format!(" (also: {})", r.aliases().join(", "))
        };
        let kind = if r.measured() {
            "against measurements"
        } else {
            "a prediction: nothing measured to compare"
        };
        out += &format!("  {}{also} [{kind}]\n", r.name());
        out += &wrap(r.summary(), "      ", 90);
        out += &wrap(&format!("files: {}", r.files().join(", ")), "      ", 90);
    }
    out
}

/// `text` in lines of at most `width` columns (words longer than that alone on a line),
/// each starting with `indent`.
fn wrap(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::from(indent);
    for word in text.split_whitespace() {
        if line.len() > indent.len() && line.chars().count() + 1 + word.chars().count() > width {
            out += line.trim_end();
            out.push('\n');
            line = String::from(indent);
        }
        if line.len() > indent.len() {
            line.push(' ');
        }
        line += word;
    }
    if line.len() > indent.len() {
        out += &line;
        out.push('\n');
    }
    out
}

/// Runs the reproduction called `name` into `a.out` on `a.jobs` threads, with the `--set` overrides
/// `set` applied to every scenario of it (each key once; not `seed`: a reproduction
/// averages its own report seeds). Without `--out` it writes to `output`, or with
/// overrides to a folder of `output/what-if` named after them
/// ([`provenance::what_if_dir`]), so that a what-if never replaces the reproduction's own
/// files (README shows those).
pub fn run(name: &str, a: &OutputArgs, set_args: &[String], shard: &ShardArgs) -> Result<()> {
    let r = find(name)
        .with_context(|| format!("no reproduction {name:?}; `ethersim reproduce --list` names them"))?;
    let set = overrides(set_args)?;
    if let Err(e) = ethersim::run::check_conflicts(&set, &[], None) {
        super::io::usage(&e.to_string());
    }
    if let Some(o) = set.iter().find(|o| o.keys.first().is_some_and(|k| k == "seed")) {
        super::io::usage(&format!(
            "{}: a reproduction is the mean over its own report seeds; `seed` cannot be set",
            o.arg
        ));
    }
    let out = a.out.clone().unwrap_or_else(|| {
        if set.is_empty() {
            std::path::PathBuf::from("output")
        } else {
            provenance::what_if_dir(r.name(), set_args)
        }
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs(a.jobs))
        .build()
        .context("thread pool")?;
    if shard.any() {
        // one run of the study (or its list): its file under OUT/runs/
        let study = ReproduceStudy::new(r.name(), set_args)?;
        return pool.install(|| list_or_run(&study, shard, &out));
    }
    check_out_dir(&out)?;
    let mut staged = Staged::new(&out);
    let prov = Provenance::of(r, set_args);
    prov.mark_outputs(&mut staged);
    let table = pool.install(|| r.run(&set, &mut staged))?;
    prov.write_beside_csvs(&mut staged)?;
    let files = staged.commit()?;
    print(&prov.heading(&table))?;
    wrote(&files);
    Ok(())
}
