//! What the user sees: the platform header, the tables, and human units.

pub mod platform;
pub mod table;
pub mod units;

pub use platform::Platform;
pub use table::{Table, render_markdown, render_terminal, table};

/// Columns for tables: the terminal's width, or 100 when output is not a terminal.
pub fn terminal_width() -> u16 {
    comfy_table::Table::new().width().unwrap_or(100)
}
