//! What taskbench's exit status tells a script, so that CI can act on it: a typed error
//! carries its class from where it is known (the gate, the store's lookup) to `main`,
//! which maps it to a fixed code; no message is matched as a string.
//!
//! 0 success (a gate passed); 1 a gate found a regression, and only that; 2 a usage or
//! input error, or any other error that stopped the command; 3 could not compare (no store,
//! an unknown baseline or tag, nothing in common, different machines); 128 + N a run
//! stopped by signal N (taskbench's run/interrupt.rs). A contestant that crashes, times out
//! or prints a wrong checksum is a status recorded in the results, not an exit code.
//!
//! A leaf of taskbench's layers (issue 47), in a crate of its own: it uses anyhow (the
//! error a class travels in) and thiserror, and nothing of the harness.

use std::process::ExitCode;

/// Why a command failed, as far as a script needs to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitClass {
    /// A gate found a significant change past its threshold.
    Regression,
    /// A flag, a value, a file or a folder the command was given is wrong, or anything else
    /// stopped the command.
    Usage,
    /// There was nothing to compare with: no store, an unknown name, no case in common, runs
    /// of different machines.
    CannotCompare,
}

impl ExitClass {
    /// The exit status of this class.
    pub fn code(self) -> u8 {
        match self {
            ExitClass::Regression => 1,
            ExitClass::Usage => 2,
            ExitClass::CannotCompare => 3,
        }
    }
}

/// An error whose exit class is known where it is raised.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
struct Failure {
    /// What the exit status says.
    class: ExitClass,
    /// The one line printed.
    message: String,
}

/// An error of `class` saying `message`.
pub fn fail(class: ExitClass, message: impl Into<String>) -> anyhow::Error {
    Failure {
        class,
        message: message.into(),
    }
    .into()
}

/// `err` as a comparison that could not be made, unless it has a class already: for
/// `map_err` where every failure means there was nothing to compare with.
pub fn cannot_compare(err: anyhow::Error) -> anyhow::Error {
    if err.chain().any(|cause| cause.is::<Failure>()) {
        return err;
    }
    fail(ExitClass::CannotCompare, format!("{err:#}"))
}

/// The class of an error: the first [`Failure`] in its chain, else a usage or input error.
pub fn class_of(err: &anyhow::Error) -> ExitClass {
    err.chain()
        .find_map(|cause| cause.downcast_ref::<Failure>())
        .map_or(ExitClass::Usage, |failure| failure.class)
}

/// The exit status of an error.
pub fn code_of(err: &anyhow::Error) -> ExitCode {
    ExitCode::from(class_of(err).code())
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn the_class_survives_context() {
        let err = Err::<(), _>(fail(ExitClass::CannotCompare, "no store"))
            .context("--baseline")
            .unwrap_err();
        assert_eq!(class_of(&err), ExitClass::CannotCompare);
        assert_eq!(format!("{err:#}"), "--baseline: no store");
        assert_eq!(class_of(&anyhow::anyhow!("bad")), ExitClass::Usage);
    }

    #[test]
    fn codes_are_fixed() {
        let codes = [
            ExitClass::Regression,
            ExitClass::Usage,
            ExitClass::CannotCompare,
        ]
        .map(ExitClass::code);
        assert_eq!(codes, [1, 2, 3]);
    }
}
