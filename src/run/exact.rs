//! Lossless text for results that cross a process boundary (a study's per-run files, read
//! back by `merge`): serde helpers that write an `f64` as the shortest decimal that parses
//! back to the same value, and a TOML value as its TOML text.
//!
//! Invariant: `parse(write(x))` has the same bits as `x` for every finite `f64`, both
//! zeros and both infinities (Rust's `Display` for `f64` is the shortest round-trip
//! representation and its `parse` is correctly rounded); a NaN is written `NaN` and read
//! back as the canonical NaN, which every exporter prints alike. JSON numbers are not
//! used for floats: `serde_json` parses them only to within an ulp by default, and has no
//! NaN or infinity.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An `f64` as its exact text.
pub fn text(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else {
        x.to_string()
    }
}

/// The `f64` of [`text`]'s output.
pub fn parse(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .map_err(|_| format!("{s:?} is not a number written by ethersim"))
}

/// `#[serde(with = "exact::float")]`: one `f64`.
pub mod float {
    use super::*;

    pub fn serialize<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        text(*x).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        parse(&String::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// `#[serde(with = "exact::floats")]`: a list of `f64`.
pub mod floats {
    use super::*;

    pub fn serialize<S: Serializer>(xs: &[f64], s: S) -> Result<S::Ok, S::Error> {
        xs.iter().map(|x| text(*x)).collect::<Vec<_>>().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|s| parse(s).map_err(serde::de::Error::custom))
            .collect()
    }
}

/// `#[serde(with = "exact::rows")]`: rows of `f64`.
pub mod rows {
    use super::*;

    pub fn serialize<S: Serializer>(rows: &[Vec<f64>], s: S) -> Result<S::Ok, S::Error> {
        rows.iter()
            .map(|r| r.iter().map(|x| text(*x)).collect::<Vec<_>>())
            .collect::<Vec<_>>()
            .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<f64>>, D::Error> {
        Vec::<Vec<String>>::deserialize(d)?
            .iter()
            .map(|r| {
                r.iter()
                    .map(|s| parse(s).map_err(serde::de::Error::custom))
                    .collect()
            })
            .collect()
    }
}

/// A TOML value as its TOML text (`3`, `0.1`, `"sink"`, `[3072, 7168]`).
pub fn toml_text(v: &toml::Value) -> String {
    match v {
        // `toml` writes floats with Rust's round-trip `Display` (and `.0` on whole numbers)
        toml::Value::Float(x) if x.is_finite() => {
            let t = x.to_string();
            if t.contains(['.', 'e', 'E']) {
                t
            } else {
                format!("{t}.0")
            }
        }
        other => other.to_string(),
    }
}

/// The TOML value of [`toml_text`]'s output.
pub fn parse_toml(s: &str) -> Result<toml::Value, String> {
    let doc: toml::Table =
        toml::from_str(&format!("v = {s}")).map_err(|e| format!("{s:?} is not a TOML value: {e}"))?;
    doc.get("v")
        .cloned()
        .ok_or_else(|| format!("{s:?} is not a TOML value"))
}

/// `#[serde(with = "exact::toml_values")]`: a list of TOML values, each as its text.
pub mod toml_values {
    use super::*;

    pub fn serialize<S: Serializer>(vs: &[toml::Value], s: S) -> Result<S::Ok, S::Error> {
        vs.iter().map(toml_text).collect::<Vec<_>>().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<toml::Value>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|s| parse_toml(s).map_err(serde::de::Error::custom))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_every_kind_of_float_round_trips_to_the_same_bits() {
        let xs = [
            0.0,
            -0.0,
            0.1,
            1.0 / 3.0,
            f64::MIN_POSITIVE,
            f64::MIN_POSITIVE / 3.0, // subnormal
            f64::MAX,
            f64::MIN,
            f64::EPSILON,
            f64::INFINITY,
            f64::NEG_INFINITY,
            9_552_123.456_789_012,
            1e300,
            -7.25e-300,
        ];
        for x in xs {
            let back = parse(&text(x)).unwrap();
            assert_eq!(back.to_bits(), x.to_bits(), "{x:e} -> {} -> {back:e}", text(x));
        }
        assert!(parse(&text(f64::NAN)).unwrap().is_nan());
        assert!(parse("12x").is_err());
    }

    #[test]
    fn test_toml_values_round_trip() {
        let vs = [
            toml::Value::Integer(-3),
            toml::Value::Float(0.1),
            toml::Value::Float(2.0),
            toml::Value::Float(1e300),
            toml::Value::Float(1.0 / 3.0),
            toml::Value::String("round_robin".into()),
            toml::Value::Boolean(true),
            toml::Value::Array(vec![toml::Value::Integer(3072), toml::Value::Integer(7168)]),
        ];
        for v in vs {
            let back = parse_toml(&toml_text(&v)).unwrap();
            assert_eq!(back, v, "{}", toml_text(&v));
            if let (toml::Value::Float(a), toml::Value::Float(b)) = (&v, &back) {
                assert_eq!(a.to_bits(), b.to_bits());
            }
        }
    }
}
