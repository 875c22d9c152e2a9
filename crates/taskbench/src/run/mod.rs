//! Running cases: the order of runs, when a case has enough, one run's execution and
//! judgement, and the stored record.

pub mod interrupt;
pub mod plan;
pub mod protocol;
pub mod record;
pub mod runner;
pub mod shard;
pub mod status;
pub mod stopping;

pub use plan::{Phase, Step, Subject, Workload, pinned_name};
pub use record::{Figures, RunRecord, point_label, record_params};
pub use runner::{Executor, Limits, ProcessExecutor, Settings, counts, resume_plan, run_plan};
pub use shard::{Shard, ShardCases};
pub use status::RunStatus;
pub use stopping::{StopReason, Stopping};
