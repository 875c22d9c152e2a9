//! Running cases: the schedule, one run's execution and judgement, and the stored record.

pub mod plan;
pub mod protocol;
pub mod record;
pub mod runner;
pub mod status;

pub use plan::{Phase, Step, Subject, Workload, schedule};
pub use record::{Figures, RunRecord, point_label, record_params};
pub use runner::{Executor, Limits, ProcessExecutor, counts, run_steps};
pub use status::RunStatus;
