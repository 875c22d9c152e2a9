//! What the user sees: the platform header, the tables (points, per-task fits) and the
//! warnings' words. A layer of taskbench's pipeline and a crate of its own, over the
//! results and the presets: it cannot name the page, the exports, a feature or a command.

pub mod budget;
pub mod condition;
pub mod fits;
pub mod markdown;
pub mod overview;
pub mod plan;
pub mod platform;
mod seed_pairs;
pub mod seeds;
mod side_by_side;
pub mod table;
pub mod terms;
pub mod warnings;

pub use platform::PlatformHeader;
pub use side_by_side::side_by_side;
pub use table::{Table, plain_table, render_markdown, render_terminal, table};
pub use warnings::digest as warning_digest;

/// Columns for tables: the terminal's width, or 100 when output is not a terminal.
pub fn terminal_width() -> u16 {
    comfy_table::Table::new().width().unwrap_or(100)
}

/// `text` broken at spaces into lines of at most `width` characters.
pub fn wrap(text: &str, width: usize) -> String {
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
