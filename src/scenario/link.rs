//! The scenarios a `shared` or `lanperf` workload links with `workload.ttcp` (one path, or
//! a list of paths: a transfer each), and those a `shared` workload links with
//! `workload.file_services` (a list of paths: a file service each): each found relative
//! to the folder of the file that names it, read and validated in full, and checked to be
//! a scenario of the kind the key takes (ttcp; perform3), before the workload itself is
//! validated ([`super::shared`]). One level: a linked scenario links nothing further.

use super::lexical;
use std::cell::Cell;
use std::path::Path;

use super::error::ScenarioError;
use super::services::ServiceWorkload;
use super::shared::{Linked, LinkedService};
use super::{de, load, Source, Sources, Workload};

const KEY: &str = "workload.ttcp";
const SERVICES_KEY: &str = "workload.file_services";

thread_local! {
    /// Linked scenarios being read on this thread (0 or 1).
    static DEPTH: Cell<u8> = const { Cell::new(0) };
}

/// The linked scenarios of `doc` (the merged, overridden document of `source`), in the
/// order written; none when its workload is not `shared` or `lanperf` or names no file
/// (validation then says what is missing or malformed).
pub(super) fn read_linked(
    doc: &toml::Table,
    source: &Source,
    sources: &Sources<'_>,
) -> Result<Vec<Linked>, ScenarioError> {
    let workload = doc.get("workload").and_then(toml::Value::as_table);
    let kind = workload.and_then(|w| w.get("kind")).and_then(toml::Value::as_str);
    let (Some("shared" | "lanperf"), Some(value)) = (kind, workload.and_then(|w| w.get("ttcp"))) else {
        return Ok(Vec::new());
    };
    let Ok(paths) = super::shared::link_paths(value) else {
        return Ok(Vec::new());
    };
    let one = paths.len() == 1 && value.is_str();
    paths
        .iter()
        .enumerate()
        .map(|(k, written)| {
            let key = if one {
                KEY.to_string()
            } else {
                format!("{KEY}[{k}]")
            };
            let scenario = read_one(written, &key, source, sources, "ttcp")?;
            match scenario.workload {
                Workload::Ttcp(w) => Ok(Linked {
                    written: written.to_string(),
                    key: key.to_string(),
                    ttcp: *w,
                }),
                other => Err(wrong_kind(
                    &key,
                    sources,
                    &format!(
                        "{written} is a {} scenario: the ttcp application runs on TCP/IP hosts, so \
                         it needs a scenario of workload kind ttcp (its hosts, cards and stack), \
                         such as scenarios/ttcp1995/ttcp-1995-smc-ultra-smc-ultra-transmit.toml",
                        other.kind()
                    ),
                )),
            }
        })
        .collect()
}

/// The file services `doc` links (`workload.file_services` of a `shared` or `lanperf`
/// workload), in
/// the order written; none when it names none or the key is malformed (validation then
/// says what is wrong).
pub(super) fn read_services(
    doc: &toml::Table,
    source: &Source,
    sources: &Sources<'_>,
) -> Result<Vec<LinkedService>, ScenarioError> {
    let workload = doc.get("workload").and_then(toml::Value::as_table);
    let kind = workload.and_then(|w| w.get("kind")).and_then(toml::Value::as_str);
    let (Some("shared" | "lanperf"), Some(value)) = (kind, workload.and_then(|w| w.get("file_services")))
    else {
        return Ok(Vec::new());
    };
    let Ok(paths) = super::services::service_paths(value) else {
        return Ok(Vec::new());
    };
    paths
        .iter()
        .enumerate()
        .map(|(k, written)| {
            let key = format!("{SERVICES_KEY}[{k}]");
            let scenario = read_one(written, &key, source, sources, "perform3")?;
            let name = scenario.name.clone();
            let workload = match scenario.workload {
                Workload::Perform3(w) => ServiceWorkload::Perform3(Box::new(w.config)),
                Workload::Lanperf(w) => ServiceWorkload::Lanperf(Box::new(w.config)),
                other => {
                    return Err(wrong_kind(
                        &key,
                        sources,
                        &format!(
                            "{written} is a {} scenario: a file service is a perform3 scenario (its \
                             server, workstations, cards, NOS and one block size, block_sizes = \
                             [B]) or, beside LANPERF, a lanperf scenario",
                            other.kind()
                        ),
                    ))
                }
            };
            Ok(LinkedService {
                written: written.to_string(),
                key,
                name,
                workload,
            })
        })
        .collect()
}

/// A linked scenario of the wrong kind, refused at `key`.
fn wrong_kind(key: &str, sources: &Sources<'_>, message: &str) -> ScenarioError {
    ScenarioError::Linked {
        at: sources.locate(key),
        key: key.into(),
        message: message.to_string(),
    }
}

/// The scenario `written` names (at key `key`), read and validated; `kind` is the
/// workload kind the key takes.
fn read_one(
    written: &str,
    key: &str,
    source: &Source,
    sources: &Sources<'_>,
    kind: &str,
) -> Result<super::Scenario, ScenarioError> {
    let fail = |message: String| ScenarioError::Linked {
        at: sources.locate(key),
        key: key.into(),
        message,
    };
    if DEPTH.with(Cell::get) > 0 {
        return Err(fail(format!(
            "a linked scenario links another; one level only (link a {kind} scenario)"
        )));
    }
    let dir = source.path.parent().unwrap_or(Path::new(""));
    let path = dir.join(written);
    if lexical(&path) == lexical(&source.path) {
        return Err(fail(format!(
            "{written} is this scenario itself; link a {kind} scenario"
        )));
    }
    if !path.is_file() {
        let mut message = format!(
            "{} is not a readable file (a link is resolved relative to the folder of the \
             file that names it)",
            path.display()
        );
        let near = nearest_files(&path);
        if !near.is_empty() {
            message.push_str(&format!("; did you mean {}?", near.join(" or ")));
        }
        return Err(fail(message));
    }
    DEPTH.with(|d| d.set(d.get() + 1));
    let loaded = load(&path, &[]);
    DEPTH.with(|d| d.set(d.get() - 1));
    loaded.map_err(|inner| ScenarioError::InLinked {
        at: sources.locate(key),
        key: key.into(),
        inner: Box::new(inner),
    })
}

/// Scenario files in the folder of `path` whose names are nearest its name.
fn nearest_files(path: &Path) -> Vec<String> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    de::nearest(&name.to_string_lossy(), &names)
        .into_iter()
        .map(|n| dir.join(n).display().to_string())
        .collect()
}
