//! A contestant's row of docs/FAIRNESS.md's per-contestant tables, for its runtime's page:
//! each column's header beside the row's cell (the primitive it spawns, sleeps and sends
//! with, its build, warm-up, figure, handicaps and advantages), read from the project the
//! site is built in; the Markdown of a cell kept to code, bold and a link's words.

use html::table::escape;

/// The row of `contestant` (a variant's contestant's) as (header, cell HTML) pairs; `None`
/// where the document has none.
pub(crate) fn row(document: &str, contestant: &str) -> Option<Vec<(String, String)>> {
    let anchor = format!(r#"<a id="{contestant}"></a>"#);
    let lines: Vec<&str> = document.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with('|') && l.contains(&anchor))?;
    let header = lines[..at]
        .iter()
        .rev()
        .find(|l| l.starts_with("| contestant"))?;
    let cells = |line: &str| -> Vec<String> {
        let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
        inner.split(" | ").map(|c| c.trim().to_string()).collect()
    };
    let row: Vec<(String, String)> = cells(header)
        .into_iter()
        .zip(cells(lines[at]))
        .skip(1)
        .map(|(h, c)| (h, inline(&c)))
        .collect();
    Some(row)
}

/// A cell's Markdown as HTML: `code`, **bold**, and a [link](…)'s words.
fn inline(markdown: &str) -> String {
    let text = escape(markdown);
    let mut out = String::new();
    let mut code = false;
    for (k, part) in text.split('`').enumerate() {
        if k > 0 {
            out.push_str(if code { "</code>" } else { "<code>" });
            code = !code;
        }
        if code {
            out.push_str(part);
        } else {
            out.push_str(&bold(&links(part)));
        }
    }
    if code {
        out.push_str("</code>");
    }
    out
}

fn bold(text: &str) -> String {
    let mut out = String::new();
    for (k, part) in text.split("**").enumerate() {
        if k > 0 {
            out.push_str(if k % 2 == 1 { "<strong>" } else { "</strong>" });
        }
        out.push_str(part);
    }
    if text.matches("**").count() % 2 == 1 {
        out.push_str("</strong>");
    }
    out
}

/// `[words](target)` → `words`.
fn links(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|c| open + c) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|e| close + e) else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "| contestant | spawn | warm-up |\n|---|---|---|\n\
        | <a id=\"go\"></a>go | `go f()` **fast** | [measured](#warm-up) |\n";

    #[test]
    fn a_row_is_its_cells_under_their_headers() {
        let found = row(DOC, "go").unwrap();
        assert_eq!(
            found,
            vec![
                (
                    "spawn".to_string(),
                    "<code>go f()</code> <strong>fast</strong>".to_string()
                ),
                ("warm-up".to_string(), "measured".to_string()),
            ]
        );
        assert_eq!(row(DOC, "tokio"), None);
    }
}
