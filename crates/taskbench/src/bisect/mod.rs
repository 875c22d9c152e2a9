//! `taskbench bisect`'s feature, whole: the search over a contestant's releases for the
//! step where a figure changed ([`search`]), each release measured as a session of its own
//! and pooled with earlier ones ([`oracle`]), and the answer, the path and each event in
//! words ([`words`]). The command (commands/bisect.rs) reads the flags and prints.

pub(crate) mod oracle;
pub(crate) mod search;
pub(crate) mod words;

pub(crate) use oracle::{
    Record as BisectRecord, RunOracle, folder as bisect_folder, keep_in_store,
};
