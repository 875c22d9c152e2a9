//! The contestant command line of docs/PROTOCOL.md, both ways: the harness writes it with
//! [`Invocation::to_args`], a Rust contestant reads it with [`Invocation::parse`].

use crate::{CatalogueError, Scenario, parse_count};

/// Flag that sets the in-process warm-up iterations.
pub const INNER_WARMUP_FLAG: &str = "inner-warmup";

/// Flag that sets the measured iterations of one process (protocol v2).
pub const ITERATIONS_FLAG: &str = "iterations";

/// What a contestant is asked to do: one scenario, `iterations` times measured after
/// `inner_warmup` unmeasured runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invocation {
    pub scenario: Scenario,
    pub inner_warmup: u32,
    /// Measured iterations, at least 1; each prints its own result line.
    pub iterations: u32,
}

impl Invocation {
    /// `<scenario> --<param> <value> … --inner-warmup K --iterations M`, without the
    /// program name.
    pub fn to_args(&self) -> Vec<String> {
        let mut args = vec![self.scenario.name().to_string()];
        for (name, value) in self.scenario.params() {
            args.push(format!("--{name}"));
            args.push(value.to_string());
        }
        args.push(format!("--{INNER_WARMUP_FLAG}"));
        args.push(self.inner_warmup.to_string());
        args.push(format!("--{ITERATIONS_FLAG}"));
        args.push(self.iterations.to_string());
        args
    }

    /// Reads the arguments after the program name.
    pub fn parse<I, S>(args: I) -> Result<Invocation, CatalogueError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let args: Vec<String> = args.into_iter().map(|a| a.as_ref().to_string()).collect();
        let (name, rest) = args.split_first().ok_or(CatalogueError::MissingScenario)?;
        let spec = crate::spec(name)?;
        let mut values: Vec<(&str, u64)> = Vec::new();
        let mut inner_warmup = spec.inner_warmup;
        let mut iterations = 1;
        let mut rest = rest.iter();
        while let Some(flag) = rest.next() {
            let key = flag
                .strip_prefix("--")
                .ok_or_else(|| CatalogueError::UnexpectedArgument(flag.clone()))?;
            let value = rest
                .next()
                .ok_or_else(|| CatalogueError::MissingValue(key.to_string()))?;
            let number = parse_count(key, value)?;
            if key == INNER_WARMUP_FLAG || key == ITERATIONS_FLAG {
                let count = u32::try_from(number).map_err(|_| CatalogueError::BadValue {
                    param: key.to_string(),
                    value: value.clone(),
                    reason: "too large".into(),
                })?;
                if key == INNER_WARMUP_FLAG {
                    inner_warmup = count;
                } else if count == 0 {
                    return Err(CatalogueError::BadValue {
                        param: key.to_string(),
                        value: value.clone(),
                        reason: "a process measures at least one iteration".into(),
                    });
                } else {
                    iterations = count;
                }
                continue;
            }
            let param = spec.params.iter().find(|p| p.name == key).ok_or_else(|| {
                CatalogueError::UnknownParam {
                    scenario: spec.name,
                    param: key.to_string(),
                }
            })?;
            values.push((param.name, number));
        }
        Ok(Invocation {
            scenario: Scenario::new(spec.name, &values)?,
            inner_warmup,
            iterations,
        })
    }
}
