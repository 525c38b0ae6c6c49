//! `extends`: a hypothesis file holds only what it changes from the fit it tests.
//!
//! `extends = "../fit.toml"` (a path relative to the file) names the parent. The merge is
//! made on the TOML documents, before the raw serde tier, by these rules:
//!
//! - A top-level key the hypothesis gives replaces the parent's whole, tables included
//!   (`overrides`, `design_starts`, `seeds`, `[line_bar]`, `[measured]`, ...): no deep merge.
//! - `[[parameter]]` entries merge by `key`: an entry whose key the parent fits replaces
//!   that entry whole, in its place; an entry with a new key is appended, in the
//!   hypothesis's order.
//! - `remove = ["point_bar_percent", "line_bar"]` drops top-level keys of the parent;
//!   `remove_parameters = ["nos.costs.server_yield_ms"]` drops parameters by key. Each
//!   must name something the parent has, and nothing the hypothesis sets itself.
//! - `name` defaults to the parent's name, a dash and the hypothesis's file stem
//!   (`bulletin` + `hypotheses/copy-at-once.toml` = `bulletin-copy-at-once`); a
//!   hypothesis may not take its parent's name. `[verdict]` is never inherited.
//! - Paths the parent gives (`hardware`, `scenarios`, each measured `file`) stay relative
//!   to the parent: they are rebased onto the hypothesis's directory as they are copied.
//!
//! One level only: the parent must not itself have `extends` (chains and cycles are
//! refused, naming the file and key), and a file cannot extend itself. Every error is
//! located in the file that gives the key it names: [`Merged::locate`] maps a merged key
//! (`parameter[12].min`) back to its file and index there (`parameter[3].min` of the
//! hypothesis).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::scenario::error::{FieldError, Location};
use crate::scenario::source::parse_path;
use crate::scenario::{ScenarioError, Source};

use super::parameter::clip;
use super::CalibrationError;

/// The keys only a hypothesis has; they are consumed by the merge.
pub const EXTENDS_KEYS: [&str; 3] = ["extends", "remove", "remove_parameters"];
/// Keys a hypothesis can neither inherit nor remove.
const OWN_KEYS: [&str; 2] = ["name", "verdict"];

/// Which file gives a key of the merged document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Own,
    Parent,
}

/// A calibration file's document with its parent merged in, and where each key came from.
#[derive(Debug)]
pub struct Merged {
    pub doc: toml::Table,
    /// The file itself.
    pub own: Source,
    /// The file it extends, if any.
    pub parent: Option<Source>,
    /// The file giving each top-level key (absent: the file itself).
    origin: BTreeMap<String, Side>,
    /// For each merged `[[parameter]]`: its file and its index there.
    params: Vec<(Side, usize)>,
}

fn relative(base: &Path, p: &str) -> PathBuf {
    base.parent().unwrap_or(Path::new(".")).join(p)
}

fn canonical(p: &Path) -> PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// A located error in `src` at `key`.
pub fn located_in(src: &Source, e: FieldError) -> CalibrationError {
    let steps = parse_path(&e.path);
    let at = match src.find(&steps) {
        Some((depth, offset)) if depth > 0 => src.location(offset),
        _ => Location::FileOnly {
            path: src.path.clone(),
        },
    };
    CalibrationError::File(ScenarioError::Field {
        at,
        key: e.path,
        problem: Box::new(e.problem),
    })
}

/// The string array at `key` of `doc` (empty when absent).
fn strings(src: &Source, doc: &toml::Table, key: &str) -> Result<Vec<String>, CalibrationError> {
    let Some(v) = doc.get(key) else {
        return Ok(Vec::new());
    };
    let bad = || located_in(src, FieldError::invalid(key, "must be an array of strings"));
    v.as_array()
        .ok_or_else(bad)?
        .iter()
        .map(|s| s.as_str().map(String::from).ok_or_else(bad))
        .collect()
}

/// The `key` of a `[[parameter]]` entry, if it has a string one.
fn param_key(v: &toml::Value) -> Option<&str> {
    v.get("key")?.as_str()
}

/// Rebases a path string the parent gives onto the hypothesis's directory: `dir` is the
/// parent's directory relative to the hypothesis's.
fn rebase(dir: &Path, v: &mut toml::Value) {
    if let toml::Value::String(s) = v {
        if !dir.as_os_str().is_empty() && Path::new(s.as_str()).is_relative() {
            *s = dir.join(s.as_str()).to_string_lossy().replace('\\', "/");
        }
    }
}

/// Rebases every path of a parent's top-level `key` (`hardware`, `scenarios`, the
/// measured tables' `file`).
fn rebase_paths(dir: &Path, key: &str, v: &mut toml::Value) {
    match (key, v) {
        ("hardware", v) => rebase(dir, v),
        ("scenarios", toml::Value::Array(items)) => items.iter_mut().for_each(|s| rebase(dir, s)),
        ("measured", toml::Value::Table(t)) => {
            if let Some(f) = t.get_mut("file") {
                rebase(dir, f)
            }
        }
        ("measured", toml::Value::Array(items)) => {
            for t in items {
                if let Some(f) = t.get_mut("file") {
                    rebase(dir, f)
                }
            }
        }
        _ => {}
    }
}

impl Merged {
    /// Reads the file at `own` (already read) and merges the file it extends, if any.
    pub fn resolve(own: Source) -> Result<Merged, CalibrationError> {
        let mut doc = own.parse()?;
        let Some(ext) = doc.remove("extends") else {
            for key in &EXTENDS_KEYS[1..] {
                if doc.contains_key(*key) {
                    return Err(located_in(
                        &own,
                        FieldError::invalid(*key, "only a file with `extends` removes keys of its parent"),
                    ));
                }
            }
            let n = doc
                .get("parameter")
                .and_then(|p| p.as_array())
                .map_or(0, |a| a.len());
            return Ok(Merged {
                doc,
                own,
                parent: None,
                origin: BTreeMap::new(),
                params: (0..n).map(|i| (Side::Own, i)).collect(),
            });
        };
        let err = |key: &str, m: String| located_in(&own, FieldError::invalid(key, m));
        let Some(ext) = ext.as_str().map(String::from) else {
            return Err(err(
                "extends",
                "must be a path (a string), relative to this file".into(),
            ));
        };
        let parent_path = relative(&own.path, &ext);
        if canonical(&parent_path) == canonical(&own.path) {
            return Err(err("extends", format!("`{}` is this file itself", clip(&ext))));
        }
        let parent = Source::read(&parent_path).map_err(|e| match e {
            ScenarioError::Read { err: io, .. } => err(
                "extends",
                format!("cannot read {}: {io}", clip(&parent_path.display().to_string())),
            ),
            other => CalibrationError::File(other),
        })?;
        let mut base = parent.parse()?;
        if let Some(up) = base.get("extends") {
            let up = up.as_str().unwrap_or("?");
            let cycle = canonical(&relative(&parent_path, up)) == canonical(&own.path);
            return Err(located_in(
                &parent,
                FieldError::invalid(
                    "extends",
                    format!(
                        "{} extends {} and itself extends `{}`{}: only one level is supported (a hypothesis extends a fit, which extends nothing)",
                        clip(&own.path.display().to_string()),
                        clip(&parent_path.display().to_string()),
                        clip(up),
                        if cycle { ", a cycle" } else { "" }
                    ),
                ),
            ));
        }
        for key in &EXTENDS_KEYS[1..] {
            if base.contains_key(*key) {
                return Err(located_in(
                    &parent,
                    FieldError::invalid(*key, "only a file with `extends` removes keys of its parent"),
                ));
            }
        }

        // the parent's name names the hypothesis by default
        let parent_name = match base.get("name").and_then(|n| n.as_str()) {
            Some(n) => n.to_string(),
            None => parent_path
                .file_stem()
                .map_or("calibration".into(), |s| s.to_string_lossy().into_owned()),
        };
        for key in OWN_KEYS {
            base.remove(key);
        }
        let dir = Path::new(&ext).parent().unwrap_or(Path::new("")).to_path_buf();
        for (k, v) in base.iter_mut() {
            rebase_paths(&dir, k, v);
        }

        // remove
        let remove = strings(&own, &doc, "remove")?;
        for (i, key) in remove.iter().enumerate() {
            let at = format!("remove[{i}]");
            if key == "parameter" {
                return Err(err(
                    &at,
                    "remove parameters by key with `remove_parameters`".into(),
                ));
            }
            if OWN_KEYS.contains(&key.as_str()) || EXTENDS_KEYS.contains(&key.as_str()) {
                return Err(err(&at, format!("`{}` is never inherited", clip(key))));
            }
            if doc.contains_key(key) {
                return Err(err(&at, format!("`{}` is both removed and set here", clip(key))));
            }
            if base.remove(key).is_none() {
                return Err(err(
                    &at,
                    format!(
                        "{} has no `{}` to remove",
                        clip(&parent_path.display().to_string()),
                        clip(key)
                    ),
                ));
            }
        }
        doc.remove("remove");

        // the parameters: the parent's, less the removed, each replaced by key or appended
        let mut params: Vec<(Side, usize, toml::Value)> = match base.remove("parameter") {
            Some(toml::Value::Array(a)) => a
                .into_iter()
                .enumerate()
                .map(|(i, v)| (Side::Parent, i, v))
                .collect(),
            _ => Vec::new(),
        };
        let own_params: Vec<toml::Value> = match doc.remove("parameter") {
            Some(toml::Value::Array(a)) => a,
            Some(_) => return Err(err("parameter", "must be [[parameter]] tables".into())),
            None => Vec::new(),
        };
        let drop = strings(&own, &doc, "remove_parameters")?;
        doc.remove("remove_parameters");
        for (i, key) in drop.iter().enumerate() {
            let at = format!("remove_parameters[{i}]");
            if own_params.iter().any(|p| param_key(p) == Some(key)) {
                return Err(err(
                    &at,
                    format!("`{}` is both removed and given here", clip(key)),
                ));
            }
            let Some(pos) = params.iter().position(|p| param_key(&p.2) == Some(key)) else {
                return Err(err(
                    &at,
                    format!(
                        "{} fits no `{}` to remove",
                        clip(&parent_path.display().to_string()),
                        clip(key)
                    ),
                ));
            };
            params.remove(pos);
        }
        for (j, p) in own_params.into_iter().enumerate() {
            let same = param_key(&p).and_then(|k| params.iter().position(|q| param_key(&q.2) == Some(k)));
            match same {
                Some(pos) => params[pos] = (Side::Own, j, p),
                None => params.push((Side::Own, j, p)),
            }
        }

        // the hypothesis's own keys replace the parent's
        let mut origin: BTreeMap<String, Side> = base.keys().map(|k| (k.clone(), Side::Parent)).collect();
        match doc.get("name").and_then(|n| n.as_str()) {
            Some(n) if n == parent_name => {
                return Err(err(
                    "name",
                    format!(
                        "`{}` is the name of the fit it extends: give the hypothesis its own",
                        clip(n)
                    ),
                ))
            }
            Some(_) => {}
            None => {
                let stem = own
                    .path
                    .file_stem()
                    .map_or("hypothesis".into(), |s| s.to_string_lossy().into_owned());
                doc.insert(
                    "name".into(),
                    toml::Value::String(format!("{parent_name}-{stem}")),
                );
            }
        }
        for (k, v) in doc {
            origin.insert(k.clone(), Side::Own);
            base.insert(k, v);
        }
        if !params.is_empty() {
            origin.insert("parameter".into(), Side::Own);
            base.insert(
                "parameter".into(),
                toml::Value::Array(params.iter().map(|p| p.2.clone()).collect()),
            );
        }
        Ok(Merged {
            doc: base,
            own,
            parent: Some(parent),
            origin,
            params: params.iter().map(|p| (p.0, p.1)).collect(),
        })
    }

    /// The file a top-level `key` of the merged document comes from.
    pub fn source_of(&self, key: &str) -> &Source {
        match (self.origin.get(key), &self.parent) {
            (Some(Side::Parent), Some(p)) => p,
            _ => &self.own,
        }
    }

    /// A field error of the merged document, located in the file that gives its key, at
    /// that file's own index of a `[[parameter]]`.
    pub fn locate(&self, mut e: FieldError) -> CalibrationError {
        let top = e.path.split(['.', '[']).next().unwrap_or("").to_string();
        if top == "parameter" {
            if let Some(rest) = e.path.strip_prefix("parameter[") {
                if let Some((n, tail)) = rest.split_once(']') {
                    if let Some(&(side, j)) = n.parse::<usize>().ok().and_then(|i| self.params.get(i)) {
                        e.path = format!("parameter[{j}]{tail}");
                        let src = match (side, &self.parent) {
                            (Side::Parent, Some(p)) => p,
                            _ => &self.own,
                        };
                        return located_in(src, e);
                    }
                }
            }
            return located_in(&self.own, e);
        }
        located_in(self.source_of(&top), e)
    }
}
