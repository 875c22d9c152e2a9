//! `taskbench agree`'s feature, whole: how precise a run is and how well two runs agree
//! ([`decide`]), and those figures in the words the shared precision script prints and as
//! Markdown ([`words`]). The command (commands/agree.rs) reads the files and prints.

pub(crate) mod decide;
pub(crate) mod words;
