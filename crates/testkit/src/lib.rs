//! What the property tests of every crate share: how many cases each property runs, what
//! "an error in one line" means, and hostile text.

use proptest::prelude::*;

/// Cases per property: enough to hit the edges, few enough that the suite stays fast.
pub const CASES: u32 = 256;

/// [`CASES`] cases, and no regression files written into the tree.
pub fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Whether an error message is one line. A message may quote the text at fault, so the
/// inputs checked with it hold no line break of their own.
pub fn one_line(message: &str) -> bool {
    !message.is_empty() && !message.contains(['\n', '\r'])
}

/// Any Unicode string, with Markdown's and HTML's own punctuation, links, images, raw HTML
/// and every kind of line break often among its parts.
pub fn any_text() -> impl Strategy<Value = String> {
    // Any Unicode, and Markdown's own punctuation and line breaks often.
    let markdown = proptest::sample::select(vec![
        "`",
        "``",
        "*",
        "_",
        "[",
        "](",
        ")",
        "![x](https://attacker.example/p.png)",
        "<img src=x>",
        "<!--",
        "&amp;",
        "&#60;",
        "|",
        "\\",
        "#",
        "# ",
        "- ",
        "1. ",
        "> ",
        "=",
        "---",
        "~~",
        "$x$",
        "\n",
        "\r\n",
        "\r",
        "\u{2028}",
        "    ",
        "\t",
        "<https://x.example>",
        "[^1]",
        "www.example.com",
        "**",
        "\0",
    ]);
    proptest::collection::vec(
        prop_oneof![any::<String>(), markdown.prop_map(String::from)],
        0..8,
    )
    .prop_map(|parts| parts.concat())
}
