//! Running cases: the order of runs, when a case has enough, one run's execution and
//! judgement, and the stored record.

mod attempt;
pub mod curve;
pub mod interrupt;
pub mod plan;
pub mod plausible;
pub mod protocol;
pub mod record;
pub mod runner;
pub mod shard;
pub mod shell;
pub mod status;
pub mod stopping;
pub mod variance;

pub use plan::{Phase, Step, Subject, Workload, pinned_name};
pub use record::{Figures, RunRecord, record_params};
pub use runner::{Executor, Hooks, Limits, ProcessExecutor, Runner, Settings, counts};
pub use shard::{Shard, ShardCases};
pub use status::RunStatus;
pub use stopping::{StopReason, Stopping};
