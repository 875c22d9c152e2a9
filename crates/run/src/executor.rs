//! How one process of a run is made: through an [`Executor`] (the real one launches it,
//! tests answer with fixed fake measurements) under the [`Limits`] every run is watched by.
//! The runner and a single attempt both stand on it.

use measure::{ExecError, Job, Measurement};
use std::path::PathBuf;
use std::time::Duration;

/// Runs one process; the real one spawns it, tests use fixed fake measurements.
pub trait Executor {
    fn execute(&mut self, job: &Job) -> Result<Measurement, ExecError>;
}

/// The real executor: a fresh process per run, started through the launcher.
pub struct ProcessExecutor {
    /// The `taskbench` binary (see `measure::launcher`).
    pub launcher: PathBuf,
}

impl Executor for ProcessExecutor {
    fn execute(&mut self, job: &Job) -> Result<Measurement, ExecError> {
        measure::execute(&self.launcher, job)
    }
}

/// How every run is made and watched.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub timeout: Duration,
    pub sample_every: Duration,
    pub memory_limit: Option<u64>,
    /// Warm-up iterations run the whole scenario, not the seed's smaller batch
    /// (`--full-warmup`; `Scenario::seed_warmup`).
    pub full_warm_up: bool,
}
