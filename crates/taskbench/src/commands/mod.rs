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
mod site;
mod store;
mod warm_up;

pub(crate) use agree::agree;
pub(crate) use bisect::bisect;
pub(crate) use compare::compare;
pub(crate) use completions::completions;
pub(crate) use export::export;
pub(crate) use list::list;
pub(crate) use merge::merge;
pub(crate) use presets::presets;
pub(crate) use report::report;
pub(crate) use run::run;
pub(crate) use show::show;
pub(crate) use site::site;
pub(crate) use store::{history, import};
pub(crate) use warm_up::warm_up;
