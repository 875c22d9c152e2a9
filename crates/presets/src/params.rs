//! Scenario parameters given from outside a preset (`--tasks 1000,10k`): the values that
//! replace a case's own. A type of its own so that presets need not know the command line;
//! cli.rs only teaches clap to fill it.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Scenario parameters given on the command line, each with its list of values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParamArgs(pub Vec<(&'static str, Vec<u64>)>);

/// Written as `[["tasks", [1000, 10000]], …]`, in the order given (a sweep's order).
impl Serialize for ParamArgs {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// Read back by the catalogue's own names: a parameter it no longer has is an error.
impl<'de> Deserialize<'de> for ParamArgs {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let given: Vec<(String, Vec<u64>)> = Vec::deserialize(deserializer)?;
        let named = given.into_iter().map(|(name, values)| {
            let known = (catalogue::SCENARIOS.iter())
                .flat_map(|spec| spec.params)
                .find(|p| p.name == name)
                .ok_or_else(|| {
                    serde::de::Error::custom(format!("no scenario takes a parameter {name}"))
                })?;
            Ok((known.name, values))
        });
        named.collect::<Result<_, _>>().map(ParamArgs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_read_back_as_written_and_unknown_ones_are_refused() {
        let params = ParamArgs(vec![("tasks", vec![1_000, 10_000]), ("delay-ms", vec![5])]);
        let json = serde_json::to_string(&params).unwrap();
        assert_eq!(json, r#"[["tasks",[1000,10000]],["delay-ms",[5]]]"#);
        assert_eq!(serde_json::from_str::<ParamArgs>(&json).unwrap(), params);
        assert!(serde_json::from_str::<ParamArgs>(r#"[["tusks",[1]]]"#).is_err());
    }
}
