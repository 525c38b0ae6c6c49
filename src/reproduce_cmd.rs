//! `ethersim reproduce NAME` (and its older spellings `figure1` and `ttcp1995`): run a
//! reproduction of a published figure or table on a pool of `--jobs` threads, stage its
//! files, then commit them together and print the comparison.
//!
//! Every reproduction takes the same path: the output directory is checked before
//! anything runs; the runner (`bulletin`, `ttcp1995`) computes the data, the mean over
//! the report seeds, the same whatever the number of threads; `report` stages every file
//! of the reproduction in one [`Staged`], committed only when all are written, so a
//! failure leaves the directory as it was.

use anyhow::{bail, Context, Result};
use clap::ValueEnum;

use crate::cli::{OutputArgs, Reproduction};
use crate::commands::{check_out_dir, jobs, overrides, print, wrote};
use ethersim::report::atomic::Staged;
use ethersim::report::{figure1, ttcp1985, ttcp1995};

/// The text of `reproduce --list`: each name, its aliases and what it reproduces.
pub fn list() -> String {
    let mut out = String::from("Reproductions (ethersim reproduce NAME):\n");
    for r in Reproduction::value_variants() {
        let Some(v) = r.to_possible_value() else {
            continue;
        };
        let aliases: Vec<&str> = v.get_name_and_aliases().skip(1).collect();
        let also = if aliases.is_empty() {
            String::new()
        } else {
            format!(" (also: {})", aliases.join(", "))
        };
        out += &format!("  {}{also}\n", v.get_name());
        if let Some(help) = v.get_help() {
            out += &wrap(&help.to_string(), "      ", 90);
        }
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

/// Runs reproduction `r` into `a.out` on `a.jobs` threads, with the `--set` overrides
/// `set` applied to every scenario of it (each key once; not `seed`: a reproduction
/// averages its own report seeds). Without `--out` it writes to `output`, or with
/// overrides to `output/what-if`, so that a what-if never replaces the reproduction's own
/// files (README shows those).
pub fn run(r: Reproduction, a: &OutputArgs, set: &[String]) -> Result<()> {
    let set = overrides(set)?;
    ethersim::run::check_conflicts(&set, &[], None)?;
    if let Some(o) = set.iter().find(|o| o.keys.first().is_some_and(|k| k == "seed")) {
        bail!(
            "{}: a reproduction is the mean over its own report seeds; `seed` cannot be set",
            o.arg
        );
    }
    let out = a.out.clone().unwrap_or_else(|| {
        let base = std::path::PathBuf::from("output");
        if set.is_empty() {
            base
        } else {
            base.join("what-if")
        }
    });
    check_out_dir(&out)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs(a.jobs))
        .build()
        .context("thread pool")?;
    let mut staged = Staged::new(&out);
    let table = match r {
        Reproduction::Figure1 => {
            let data = pool.install(|| ethersim::bulletin::figure1_with(&set))?;
            figure1::write_outputs(&data, &mut staged)?;
            figure1::comparison_table(&data)
        }
        Reproduction::Ttcp1995 => {
            let data = pool.install(|| ethersim::ttcp1995::run(&set))?;
            ttcp1995::write_outputs(&data, &mut staged)?;
            ttcp1995::comparison_table(&data)
        }
        Reproduction::Ttcp1985 => {
            let rows = pool.install(|| ethersim::ttcp1985::run(&set))?;
            ttcp1985::write_outputs(&rows, &mut staged)?;
            ttcp1985::comparison_table(&rows)
        }
    };
    let files = staged.commit()?;
    print(&table)?;
    wrote(&files);
    Ok(())
}
