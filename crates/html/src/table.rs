//! A results table as HTML: the same [`Table`] the terminal and Markdown render, cells'
//! line breaks kept, numbers right-aligned, notes under it.

use analysis::on_machine;
use std::fmt::Write;
use words::Table;
use words::table::MACHINE_COLUMN;

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// How a table reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Figures: right-aligned, one line per cell line.
    Figures,
    /// Words: left-aligned and wrapped.
    Text,
}

/// `<table>` with a caption, or without one when `caption` is false (the section's
/// heading already says it; the table is then labelled with its title for a screen reader).
/// Every header cell has its scope. `swatch` gives the marker (HTML) of a first-column name, if any.
pub(crate) fn render(
    table: &Table,
    kind: Kind,
    caption: bool,
    swatch: &dyn Fn(&str) -> Option<String>,
) -> String {
    let cell = |text: &str| escape(text).replace('\n', "<br>");
    // A table wider than the page scrolls inside its frame; the page never does.
    let class = match kind {
        Kind::Figures => "",
        Kind::Text => r#" class="text""#,
    };
    let label = if caption {
        String::new()
    } else {
        format!(r#" aria-label="{}""#, escape(&table.title))
    };
    let mut out = format!(r#"<div class="table-frame"><table{class}{label}>"#);
    if caption {
        let _ = write!(out, "<caption>{}</caption>", escape(&table.title));
    }
    out.push_str("<thead><tr>");
    for header in &table.headers {
        let _ = write!(out, r#"<th scope="col">{}</th>"#, cell(header));
    }
    out.push_str("</tr></thead><tbody>");
    // Machines side by side: the marker is that of `tokio · m2`; a name's first line is the
    // name (a second says `(reference)`).
    let by_machine = table.headers.get(1).map(String::as_str) == Some(MACHINE_COLUMN);
    for row in &table.rows {
        out.push_str("<tr>");
        let first = row
            .first()
            .and_then(|n| n.lines().next())
            .unwrap_or_default();
        let name = match (by_machine, row.get(1)) {
            (true, Some(machine)) => on_machine(first, machine),
            _ => first.to_string(),
        };
        for (index, text) in row.iter().enumerate() {
            match (index, swatch(&name)) {
                (0, Some(marker)) => {
                    let _ = write!(out, r#"<th scope="row">{marker}{}</th>"#, cell(text));
                }
                (0, None) => {
                    let _ = write!(out, r#"<th scope="row">{}</th>"#, cell(text));
                }
                _ => {
                    let _ = write!(out, "<td>{}</td>", cell(text));
                }
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    if !table.notes.is_empty() {
        out.push_str(r#"<ul class="notes">"#);
        for note in &table.notes {
            let _ = write!(out, "<li>{}</li>", cell(note));
        }
        out.push_str("</ul>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_escaped_and_keep_their_lines() {
        let table = Table {
            title: "spawn · tasks=10".into(),
            headers: words::table::headers(&["contestant", "elapsed (min–max)"]),
            rows: vec![vec!["a<b>".into(), "1.00 ms\n(0.90 ms–1.20 ms)".into()]],
            notes: vec!["a<b>: n/a — \"no\"".into()],
        };
        let html = render(&table, Kind::Figures, true, &|name| {
            (name == "a<b>").then(|| "<svg></svg>".into())
        });
        assert_eq!(
            html,
            "<div class=\"table-frame\"><table><caption>spawn · tasks=10</caption><thead><tr><th scope=\"col\">contestant</th>\
             <th scope=\"col\">elapsed (min–max)</th></tr></thead><tbody><tr><th scope=\"row\">\
             <svg></svg>a&lt;b&gt;</th>\
             <td>1.00 ms<br>(0.90 ms–1.20 ms)</td></tr></tbody></table></div>\
             <ul class=\"notes\"><li>a&lt;b&gt;: n/a — &quot;no&quot;</li></ul>"
        );
    }

    use proptest::prelude::*;
    use testkit::any_text;

    proptest! {
        #![proptest_config(testkit::config())]

        #[test]
        fn html_escaping_leaves_one_text_node_of_the_same_text(s in any_text()) {
            let escaped = escape(&s);
            prop_assert!(!escaped.contains(['<', '>', '"', '\'']), "{}", escaped);
            let back = escaped
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
            prop_assert_eq!(back, s);
            // Every `&` starts one of the five entities: no other reference can form.
            for (at, _) in escaped.match_indices('&') {
                let rest = &escaped[at..];
                prop_assert!(["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].iter().any(|e| rest.starts_with(e)));
            }
        }
    }
}
