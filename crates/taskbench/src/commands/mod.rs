//! The subcommands, each a short story over the library's pieces.

mod list;
mod run;

pub use list::list;
pub use run::run;
