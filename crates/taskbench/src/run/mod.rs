//! Running cases: the schedule, one run's execution and judgement, and the stored record.

pub mod plan;
pub mod protocol;
pub mod record;
pub mod runner;
pub mod status;

pub use plan::{schedule, Phase, Step, Subject, Workload};
pub use record::{point_label, Figures, RunRecord};
pub use runner::{counts, run_steps, Executor, Limits, ProcessExecutor};
pub use status::RunStatus;
