//! Markdown from text taskbench did not write itself — names, versions, `extra` keys, tags,
//! reasons, stderr, a command line, the machine's CPU model — escaped so that it stays the
//! text it was where Markdown is read: one line, one table cell, and no heading, list, link,
//! image, raw HTML, code span or emphasis of its own (issue 46).

/// Characters backslash-escaped wherever they stand: each can open or close a construct
/// (code, emphasis, strikethrough, a link or image, raw HTML or an autolink, an entity, a
/// table cell's end, GitHub's math, a heading's closing sequence).
const SPECIAL: &[char] = &[
    '\\', '`', '*', '_', '[', ']', '<', '>', '|', '~', '&', '$', '#',
];

/// Characters that open a block (a list item or a setext underline) at the start of a
/// line, escaped there.
const BLOCK_START: &[char] = &['-', '+', '='];

/// Between what were separate lines, now one.
pub(crate) const LINE_JOIN: &str = " · ";

/// `text` as Markdown inline text that renders as itself, trimmed: every line break (`\n`, `\r\n`,
/// `\r`, U+2028, U+2029, U+0085, vertical tab, form feed) becomes [`LINE_JOIN`], any other
/// control character U+FFFD, the [`SPECIAL`] characters are backslash-escaped, and so is a
/// block marker at its start (`-`, `+`, `=`, `1.`, `1)`; `#`, `>` and `*` are special).
pub fn text(text: &str) -> String {
    let joined = lines(text).join(LINE_JOIN);
    // Markdown drops the whitespace at either end of a line (and reads four spaces at the
    // start of a list item as code): it is not kept.
    let one_line = joined.trim();
    let mut out = String::with_capacity(one_line.len() + 8);
    let digits = one_line.chars().take_while(char::is_ascii_digit).count();
    for (index, c) in one_line.chars().enumerate() {
        let opens_block = (index == 0 && BLOCK_START.contains(&c))
            || (index == digits && digits > 0 && (c == '.' || c == ')'));
        if SPECIAL.contains(&c) || opens_block {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` as a Markdown code span: its lines joined by a space, any other control character
/// U+FFFD, between runs of backticks longer than any it holds (and a space inside each end
/// where it begins or ends with a backtick or a space, which the span then strips).
pub fn code(text: &str) -> String {
    let content = lines(text).join(" ");
    let longest = content.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = content.starts_with(['`', ' ']) || content.ends_with(['`', ' ']);
    let space = if pad && !content.trim().is_empty() {
        " "
    } else {
        ""
    };
    format!("{fence}{space}{content}{space}{fence}")
}

/// `text`'s lines, each with its control characters (tabs aside) replaced by U+FFFD.
fn lines(text: &str) -> Vec<String> {
    let breaks = |c: char| {
        matches!(
            c,
            '\n' | '\r' | '\u{2028}' | '\u{2029}' | '\u{85}' | '\u{b}' | '\u{c}'
        )
    };
    text.replace("\r\n", "\n")
        .split(breaks)
        .map(|line| {
            line.chars()
                .map(|c| {
                    if c.is_control() && c != '\t' {
                        '\u{fffd}'
                    } else {
                        c
                    }
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests;
