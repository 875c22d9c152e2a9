//! Scenario parameters given from outside a preset (`--tasks 1000,10k`): the values that
//! replace a case's own. A type of its own so that presets need not know the command line;
//! cli.rs only teaches clap to fill it.

/// Scenario parameters given on the command line, each with its list of values.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ParamArgs(pub Vec<(&'static str, Vec<u64>)>);
