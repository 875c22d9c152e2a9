//! A point: one scenario at fixed parameter values, or a whole command. It is the key
//! runs are grouped, resumed, sharded and merged by, and its one `Display` is the label
//! every table, file and store writes for it (`sleep tasks=10000 delay-ms=1000`).

use crate::{CatalogueError, Scenario, spec};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

/// A scenario with every parameter's value, as runs record it; `command` with no
/// parameters for a whole-command workload. Kept as names and numbers rather than a
/// [`Scenario`] so that a record of any file has a point, even one no catalogue entry
/// reads; [`Point::to_scenario`] gives the typed scenario where there is one.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Scenario name, or [`Point::COMMAND`].
    pub scenario: String,
    /// Every parameter with its value (none for a command).
    pub params: BTreeMap<String, u64>,
}

impl Point {
    /// What a point is named when the whole command is the workload (`run --command`).
    pub const COMMAND: &str = "command";

    /// The point of a record: its scenario name and parameters.
    pub fn new(scenario: &str, params: &BTreeMap<String, u64>) -> Point {
        Point {
            scenario: scenario.to_string(),
            params: params.clone(),
        }
    }

    /// The point of a whole-command workload.
    pub fn command() -> Point {
        Point::new(Point::COMMAND, &BTreeMap::new())
    }

    /// Whether this is a whole-command workload's point.
    pub fn is_command(&self) -> bool {
        self.scenario == Point::COMMAND
    }

    /// The scenario as the catalogue reads it (parameters not recorded at their
    /// defaults); `None` for a command or a point no catalogue entry reads.
    pub fn to_scenario(&self) -> Option<Scenario> {
        let values: Vec<(&str, u64)> = self
            .params
            .iter()
            .map(|(name, value)| (name.as_str(), *value))
            .collect();
        Scenario::new(&self.scenario, &values).ok()
    }

    /// Its parameters in the order its label writes them: the catalogue's (a scenario it
    /// does not know: by name).
    pub fn params_in_order(&self) -> Vec<(&str, u64)> {
        let order: Vec<&str> = match spec(&self.scenario) {
            Ok(spec) => spec.params.iter().map(|p| p.name).collect(),
            Err(_) => self.params.keys().map(String::as_str).collect(),
        };
        (order.into_iter())
            .filter_map(|name| Some((name, *self.params.get(name)?)))
            .collect()
    }
}

impl From<&Scenario> for Point {
    fn from(scenario: &Scenario) -> Point {
        Point {
            scenario: scenario.name().to_string(),
            params: scenario
                .params()
                .into_iter()
                .map(|(name, value)| (name.to_string(), value))
                .collect(),
        }
    }
}

/// `scenario p=v p=v`, parameters in the catalogue's order (a scenario it does not know:
/// by name); `command` for a whole command.
impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.scenario)?;
        for (name, value) in self.params_in_order() {
            write!(f, " {name}={value}")?;
        }
        Ok(())
    }
}

/// The point a label names, as [`Point`]'s `Display` writes it: where a point is kept as
/// text (the store, results files), it is read back here and nowhere else.
impl FromStr for Point {
    type Err = CatalogueError;

    fn from_str(label: &str) -> Result<Point, CatalogueError> {
        let bad = || CatalogueError::BadLabel(label.to_string());
        let mut words = label.split(' ');
        let scenario = words.next().filter(|s| !s.is_empty() && !s.contains('='));
        let mut params = BTreeMap::new();
        for word in words {
            let (name, value) = word.split_once('=').ok_or_else(bad)?;
            let value: u64 = value.parse().map_err(|_| bad())?;
            if name.is_empty() || params.insert(name.to_string(), value).is_some() {
                return Err(bad());
            }
        }
        Ok(Point::new(scenario.ok_or_else(bad)?, &params))
    }
}

/// A point is written as its label (`sleep tasks=10000 delay-ms=1000`) wherever serde
/// writes it, and read back through [`FromStr`].
#[cfg(feature = "serde")]
impl serde::Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Point, D::Error> {
        let label = String::deserialize(deserializer)?;
        label.parse().map_err(serde::de::Error::custom)
    }
}
