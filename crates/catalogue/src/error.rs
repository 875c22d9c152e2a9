//! Why a scenario, a parameter or a contestant command line was refused; every message
//! names the value at fault so the harness can print it as its one error line.

use std::fmt;

/// A scenario or parameter the catalogue does not accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogueError {
    /// No scenario of that name.
    UnknownScenario(String),
    /// The scenario has no parameter of that name.
    UnknownParam {
        scenario: &'static str,
        param: String,
    },
    /// The value is not a non-negative integer.
    BadValue {
        param: String,
        value: String,
        reason: String,
    },
    /// The value is a number but out of the parameter's range.
    Invalid { param: &'static str, reason: String },
    /// A flag came without its value.
    MissingValue(String),
    /// The command line names no scenario.
    MissingScenario,
    /// An argument that is not `--name value`.
    UnexpectedArgument(String),
    /// Text that is not a point's label (`scenario p=v …`).
    BadLabel(String),
}

impl fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = || {
            crate::SCENARIOS
                .iter()
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            CatalogueError::UnknownScenario(name) => {
                write!(f, "unknown scenario '{name}' (known: {})", names())
            }
            CatalogueError::UnknownParam { scenario, param } => {
                let spec = crate::spec(scenario).expect("known scenario");
                let known: Vec<_> = spec
                    .params
                    .iter()
                    .map(|p| format!("--{}", p.name))
                    .collect();
                write!(
                    f,
                    "scenario '{scenario}' has no parameter '--{param}' (it takes {})",
                    known.join(", ")
                )
            }
            CatalogueError::BadValue {
                param,
                value,
                reason,
            } => {
                write!(f, "--{param}: '{value}' {reason}")
            }
            CatalogueError::Invalid { param, reason } => write!(f, "--{param} {reason}"),
            CatalogueError::MissingValue(param) => write!(f, "--{param} needs a value"),
            CatalogueError::MissingScenario => {
                write!(f, "no scenario named (one of: {})", names())
            }
            CatalogueError::UnexpectedArgument(arg) => {
                write!(f, "unexpected argument '{arg}' (expected --name value)")
            }
            CatalogueError::BadLabel(text) => {
                write!(
                    f,
                    "'{text}' is not a point (expected `scenario name=value …`)"
                )
            }
        }
    }
}

impl std::error::Error for CatalogueError {}
