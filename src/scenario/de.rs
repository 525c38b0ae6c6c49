//! The first tier: deserializing a raw serde struct from a TOML value, with the key path.
//!
//! [`from_value`] runs serde through `serde_path_to_error`, so a failure names the key
//! (`workload.frame_bytes`, `medium.positions_m[3]`), and classifies serde's message into a
//! [`Problem`]: an unknown key or value gets the nearest valid names (by string similarity),
//! a missing key is reported at its own path, anything else is a type error.

use serde::de::DeserializeOwned;
use serde_path_to_error::Segment;

use super::error::{clip, FieldError, Problem};

/// Deserializes `T` from `value`, which sits at key path `prefix` (empty for the root).
pub fn from_value<T: DeserializeOwned>(value: toml::Value, prefix: &str) -> Result<T, FieldError> {
    serde_path_to_error::deserialize(value).map_err(|e: serde_path_to_error::Error<toml::de::Error>| {
        let mut path = prefix.to_string();
        for seg in e.path().iter() {
            match seg {
                Segment::Seq { index } => path.push_str(&format!("[{index}]")),
                Segment::Map { key } => join(&mut path, key),
                Segment::Enum { variant } => join(&mut path, variant),
                Segment::Unknown => join(&mut path, "?"),
            }
        }
        classify(path, e.inner().message())
    })
}

fn join(path: &mut String, key: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(&clip(key, 60));
}

/// The names quoted in backticks in `text`, in order.
fn backticked(text: &str) -> Vec<String> {
    text.split('`').skip(1).step_by(2).map(|s| clip(s, 60)).collect()
}

/// Up to three names of `valid` closest to `word`, best first.
pub fn nearest(word: &str, valid: &[String]) -> Vec<String> {
    let mut scored: Vec<(f64, &String)> = valid
        .iter()
        .map(|v| (strsim::jaro_winkler(word, v), v))
        .filter(|(s, _)| *s >= 0.75)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, v)| v.clone()).collect()
}

/// Serde's Rust type names in TOML words.
fn plain_types(message: &str) -> String {
    let mut m = message.to_string();
    for (rust, toml) in [
        ("expected i64", "expected an integer"),
        ("expected u64", "expected a non-negative integer"),
        ("expected u32", "expected a non-negative integer"),
        ("expected f64", "expected a number"),
        ("expected a map", "expected a table"),
        ("expected a sequence", "expected an array"),
    ] {
        m = m.replace(rust, toml);
    }
    // serde names the Rust type it wanted: say what the key takes instead
    m = m.replace(
        "expected internally tagged enum RawWindow",
        "expected a table with a `rule` key",
    );
    for (rust, words) in [
        (
            "expected internally tagged enum",
            "expected a table with a key naming its kind",
        ),
        ("expected struct", "expected a table"),
        ("expected enum", "expected a string naming one of its choices"),
    ] {
        if let Some(at) = m.find(rust) {
            // the type's name follows the phrase: drop it with the phrase
            let rest = &m[at + rust.len()..];
            let name_len = rest
                .trim_start()
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .map_or(rest.len(), |n| n + (rest.len() - rest.trim_start().len()));
            m = format!("{}{words}{}", &m[..at], &rest[name_len..]);
        }
    }
    m
}

/// Turns serde's message for the key at `path` into a located-later [`FieldError`].
fn classify(mut path: String, message: &str) -> FieldError {
    let names = backticked(message);
    if message.starts_with("unknown field") && !names.is_empty() {
        // serde_path_to_error already has the unknown key as the last step
        if !(path == names[0] || path.ends_with(&format!(".{}", names[0]))) {
            join(&mut path, &names[0]);
        }
        let valid = names[1..].to_vec();
        // a renamed key of a host or a card: name the key that replaced it
        if let Some(e) = super::renamed::renamed(&path, &names[0], &valid) {
            return e;
        }
        let suggestions = nearest(&names[0], &valid);
        return FieldError::new(path, Problem::UnknownKey { suggestions, valid });
    }
    if message.starts_with("unknown variant") && !names.is_empty() {
        let valid = names[1..].to_vec();
        let suggestions = nearest(&names[0], &valid);
        return FieldError::new(
            path,
            Problem::UnknownVariant {
                value: names[0].clone(),
                suggestions,
                valid,
            },
        );
    }
    if message.starts_with("missing field") && !names.is_empty() {
        join(&mut path, &names[0]);
        return FieldError::new(path, Problem::Missing);
    }
    FieldError::new(
        path,
        Problem::WrongType {
            message: clip(&plain_types(message), 200),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        frame_bytes: i64,
        list: Option<Vec<f64>>,
        dest: Option<Dest>,
    }
    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Dest {
        Sink,
        RoundRobin,
    }
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        inner: Inner,
    }

    fn err(s: &str) -> FieldError {
        let v = toml::Value::Table(toml::from_str(s).unwrap());
        from_value::<Outer>(v, "").unwrap_err()
    }

    #[test]
    fn test_unknown_key_gets_path_and_suggestion() {
        let e = err("[inner]\nframe_bytes = 1\nfram_bytes = 2\n");
        assert_eq!(e.path, "inner.fram_bytes");
        match e.problem {
            Problem::UnknownKey { suggestions, valid } => {
                assert_eq!(suggestions[0], "frame_bytes");
                assert_eq!(valid, vec!["frame_bytes", "list", "dest"]);
            }
            p => panic!("{p:?}"),
        }
    }

    #[test]
    fn test_wrong_type_and_missing_and_variant() {
        let e = err("[inner]\nframe_bytes = 1\nlist = [1.0, \"x\"]\n");
        assert_eq!(e.path, "inner.list[1]");
        assert!(matches!(e.problem, Problem::WrongType { .. }));
        let e = err("[inner]\n");
        assert_eq!(e.path, "inner.frame_bytes");
        assert_eq!(e.problem, Problem::Missing);
        let e = err("[inner]\nframe_bytes = 1\ndest = \"snk\"\n");
        assert_eq!(e.path, "inner.dest");
        assert!(
            matches!(&e.problem, Problem::UnknownVariant { suggestions, .. } if suggestions[0] == "sink"),
            "{e:?}"
        );
    }
}
