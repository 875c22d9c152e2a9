//! What the user sees: the platform header, the tables (points, per-task fits) and the
//! warnings' words.

pub(crate) mod budget;
pub(crate) mod condition;
pub(crate) mod markdown;
pub(crate) mod overview;
pub(crate) mod plan;
pub(crate) mod platform;
mod seed_pairs;
pub(crate) mod seeds;
mod side_by_side;
pub(crate) mod table;
pub(crate) mod terms;
pub(crate) mod warnings;

pub(crate) use platform::PlatformHeader;
pub(crate) use side_by_side::side_by_side;
pub(crate) use table::{Table, plain_table, render_markdown, render_terminal, table};
pub(crate) use warnings::digest as warning_digest;

/// Columns for tables: the terminal's width, or 100 when output is not a terminal.
pub(crate) fn terminal_width() -> u16 {
    comfy_table::Table::new().width().unwrap_or(100)
}

/// `text` broken at spaces into lines of at most `width` characters.
pub(crate) fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}
