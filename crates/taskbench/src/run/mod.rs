//! Running cases: the order of runs, when a case has enough, one run's execution and
//! judgement, and the stored record.

mod allocate;
mod attempt;
pub mod curve;
pub mod executor;
pub mod interrupt;
pub mod plan;
pub mod plausible;
pub mod price;
pub mod progress;
pub mod protocol;
pub mod record;
pub mod runner;
pub mod shard;
pub mod shell;
pub mod status;
pub mod stopping;
pub mod variance;

pub use executor::{Executor, Limits, ProcessExecutor};
pub use plan::{Phase, Step, Subject, Workload, pinned_name};
pub use record::{Figures, RunRecord, record_params};
pub use runner::{Hooks, Runner, Settings, counts};
pub use shard::{Shard, ShardCases};
pub use status::RunStatus;
pub use stopping::{StopReason, Stopping};
