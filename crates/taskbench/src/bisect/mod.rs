//! `taskbench bisect`'s feature, whole: the search over a contestant's releases for the
//! step where a figure changed ([`search`]), each release measured as a session of its own
//! and pooled with earlier ones ([`oracle`]), and the answer, the path and each event in
//! words ([`words`]). The command (commands/bisect.rs) reads the flags and prints.

pub mod oracle;
pub mod search;
pub mod words;

pub use oracle::{Record as BisectRecord, RunOracle, folder as bisect_folder};
