//! Running cases: the order of runs, when a case has enough, one run's execution and
//! judgement, and the stored record.

mod allocate;
mod attempt;
pub(crate) mod curve;
pub(crate) mod executor;
pub mod interrupt;
pub(crate) mod plan;
pub(crate) mod plausible;
pub(crate) mod price;
pub(crate) mod progress;
pub(crate) mod protocol;
pub(crate) mod record;
pub(crate) mod runner;
pub(crate) mod shard;
pub(crate) mod shell;
pub(crate) mod status;
pub(crate) mod stopping;
pub(crate) mod variance;

pub(crate) use executor::{Executor, Limits, ProcessExecutor};
pub use plan::{Phase, Step, Subject, Workload, pinned_name};
pub use record::{Figures, RunRecord, record_params};
pub(crate) use runner::{Hooks, Runner, Settings, counts};
pub(crate) use shard::{Shard, ShardCases};
pub(crate) use status::RunStatus;
pub(crate) use stopping::{StopReason, Stopping};
