//! The subcommands, each a short story over the library's pieces.

mod agree;
mod bisect;
mod compare;
mod completions;
mod export;
mod list;
mod merge;
mod presets;
mod report;
mod run;
mod show;
mod store;
mod warm_up;

pub use agree::agree;
pub use bisect::bisect;
pub use compare::compare;
pub use completions::completions;
pub use export::export;
pub use list::list;
pub use merge::merge;
pub use presets::presets;
pub use report::report;
pub use run::run;
pub use show::show;
pub use store::{history, import};
pub use warm_up::warm_up;
