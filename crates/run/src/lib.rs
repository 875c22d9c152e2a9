//! Running cases: the order of runs, when a case has enough, one run's execution and
//! judgement, and the stored record. A layer of taskbench's pipeline (docs/ARCHITECTURE.md)
//! and a crate of its own, so that what it may use is its Cargo.toml: the contestants,
//! measure, stats and units below it, never the analysis or anything after.

mod allocate;
mod attempt;
pub mod curve;
pub(crate) mod executor;
#[cfg(any(test, feature = "test-support"))]
pub mod fake;
pub mod interrupt;
pub mod plan;
pub(crate) mod plausible;
pub mod price;
pub mod progress;
pub(crate) mod protocol;
pub(crate) mod record;
pub(crate) mod runner;
pub mod shard;
pub mod shell;
pub(crate) mod status;
pub mod stopping;
pub mod variance;

pub use executor::{Executor, Limits, ProcessExecutor};
pub use plan::{Phase, Step, Subject, Workload, pinned_name};
pub use record::{Figures, RunRecord, record_params};
pub use runner::{Hooks, Runner, Settings, counts};
pub use shard::{Shard, ShardCases};
pub use status::RunStatus;
pub use stopping::{StopReason, Stopping};
