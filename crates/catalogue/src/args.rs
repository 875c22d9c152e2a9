//! The contestant command line of docs/PROTOCOL.md, both ways: the harness writes it with
//! [`Invocation::to_args`], a Rust contestant reads it with [`Invocation::parse`].

use crate::{CatalogueError, Scenario, parse_count};

/// Flag that sets the in-process warm-up iterations.
pub const INNER_WARM_UP_FLAG: &str = "inner-warmup";

/// Flag that sets the measured iterations of one process (protocol v2).
pub const ITERATIONS_FLAG: &str = "iterations";

/// Prefix of the flags that set a parameter for the warm-up iterations only
/// (`--warmup-requests 350`).
pub(crate) const WARM_UP_PREFIX: &str = "warmup-";

/// What a contestant is asked to do: one scenario, `iterations` times measured after
/// `inner_warmup` unmeasured runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invocation {
    pub scenario: Scenario,
    /// What the warm-up iterations run, when not `scenario` (`--warmup-<param>`).
    pub warm_up: Option<Scenario>,
    pub inner_warm_up: u32,
    /// Measured iterations, at least 1; each prints its own result line.
    pub iterations: u32,
}

impl Invocation {
    /// `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
    /// --iterations M`, without the program name.
    pub fn to_args(&self) -> Vec<String> {
        let mut args = vec![self.scenario.name().to_string()];
        let params = self.scenario.params();
        for (name, value) in &params {
            args.push(format!("--{name}"));
            args.push(value.to_string());
        }
        if let Some(warm_up) = self.warm_up {
            for ((name, value), (_, measured)) in warm_up.params().into_iter().zip(&params) {
                if value != *measured {
                    args.push(format!("--{WARM_UP_PREFIX}{name}"));
                    args.push(value.to_string());
                }
            }
        }
        args.push(format!("--{INNER_WARM_UP_FLAG}"));
        args.push(self.inner_warm_up.to_string());
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
        let mut warm_up_values: Vec<(&str, u64)> = Vec::new();
        let mut inner_warm_up = spec.inner_warm_up;
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
            if key == INNER_WARM_UP_FLAG || key == ITERATIONS_FLAG {
                let count = u32::try_from(number).map_err(|_| CatalogueError::BadValue {
                    param: key.to_string(),
                    value: value.clone(),
                    reason: "too large".into(),
                })?;
                if key == INNER_WARM_UP_FLAG {
                    inner_warm_up = count;
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
            let (name, into) = match key.strip_prefix(WARM_UP_PREFIX) {
                Some(name) => (name, &mut warm_up_values),
                None => (key, &mut values),
            };
            let param = spec.params.iter().find(|p| p.name == name).ok_or_else(|| {
                CatalogueError::UnknownParam {
                    scenario: spec.name,
                    param: key.to_string(),
                }
            })?;
            into.push((param.name, number));
        }
        let scenario = Scenario::new(spec.name, &values)?;
        let warm_up = if warm_up_values.is_empty() {
            None
        } else {
            // Unset warm-up parameters are the measured ones.
            let mut all = scenario.params();
            for (name, value) in &mut all {
                if let Some((_, v)) = warm_up_values.iter().find(|(n, _)| n == name) {
                    *value = *v;
                }
            }
            Some(Scenario::new(spec.name, &all)?)
        };
        Ok(Invocation {
            scenario,
            warm_up,
            inner_warm_up,
            iterations,
        })
    }
}
