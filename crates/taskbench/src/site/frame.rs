//! What every page of the site shares: the frame (the style, the navigation, a skip link,
//! one `h1`), the footer that says which sessions and commits the page was built from,
//! and the names pages are written under.

use html::table::escape;
use std::fmt::Write;

/// The site's style sheet, one file every page links to.
pub(crate) const STYLE: &str = include_str!("assets/site.css");

/// A page: `title` its `h1`, `depth` how many folders below the site's root it sits,
/// `body` its content and `from` its footer ([`built_from`]). `script` names the scripts
/// it runs, each relative to the root.
pub(crate) fn page(title: &str, depth: usize, body: &str, from: &str, script: &[&str]) -> String {
    let root = "../".repeat(depth);
    let mut scripts = String::new();
    for s in script {
        let _ = write!(scripts, r#"<script src="{root}{s}"></script>"#);
    }
    let nav = [
        ("index.html", "Tournament"),
        ("runtimes.html", "Runtimes"),
        ("machines.html", "Machines"),
        ("bisects.html", "Bisects"),
        ("seeds.html", "Seeds"),
    ]
    .iter()
    .map(|(href, name)| format!(r#"<li><a href="{root}{href}">{name}</a></li>"#))
    .collect::<String>();
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title} · taskbench</title><link rel=\"stylesheet\" href=\"{root}site.css\">\
         </head>\n<body><a class=\"skip\" href=\"#main\">Skip to the content</a>\
         <header><nav aria-label=\"site\"><ul><li class=\"brand\">taskbench</li>{nav}</ul></nav>\
         </header>\n<main id=\"main\" tabindex=\"-1\"><h1>{title}</h1>\n{body}</main>\n\
         <footer>{from}</footer>{scripts}</body></html>\n",
        title = escape(title),
    )
}

/// The footer's words: the sessions (by id, and their span) and the commits the page's
/// figures come from; nothing about when the site was built, so that a page whose
/// figures did not change is the same file.
pub(crate) fn built_from(sessions: &[&store::SessionRow]) -> String {
    if sessions.is_empty() {
        return format!(
            "Built by taskbench {} from no session of the store.",
            escape(env!("CARGO_PKG_VERSION"))
        );
    }
    let mut ids: Vec<i64> = sessions.iter().map(|s| s.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut commits: Vec<String> = (sessions.iter())
        .filter_map(|s| s.commit.as_deref())
        .map(|c| c[..c.len().min(10)].to_string())
        .collect();
    commits.sort();
    commits.dedup();
    let span = match (
        sessions.iter().map(|s| &s.started).min(),
        sessions.iter().map(|s| &s.started).max(),
    ) {
        (Some(first), Some(last)) if first != last => format!(", {first} to {last}"),
        (Some(first), _) => format!(", {first}"),
        _ => String::new(),
    };
    let commits = match commits.len() {
        0 => "no commit recorded".to_string(),
        1..=4 => format!("commit {}", commits.join(", ")),
        n => format!("{n} commits, newest session's {}", newest_commit(sessions)),
    };
    format!(
        "Built by taskbench {} from {} of the store ({}{span}; {commits}).",
        escape(env!("CARGO_PKG_VERSION")),
        plural(ids.len(), "session"),
        escape(&id_ranges(&ids)),
    )
}

fn newest_commit(sessions: &[&store::SessionRow]) -> String {
    (sessions.iter().max_by_key(|s| (&s.started, s.id)))
        .and_then(|s| s.commit.as_deref())
        .map_or("none".into(), |c| c[..c.len().min(10)].to_string())
}

/// `#1–#3, #7`.
pub(crate) fn id_ranges(ids: &[i64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(i64, i64)> = None;
    for &id in ids {
        run = match run {
            Some((first, last)) if id == last + 1 => Some((first, id)),
            Some(done) => {
                parts.push(range(done));
                Some((id, id))
            }
            None => Some((id, id)),
        };
    }
    parts.extend(run.map(range));
    parts.join(", ")
}

fn range((first, last): (i64, i64)) -> String {
    if first == last {
        format!("#{first}")
    } else {
        format!("#{first}–#{last}")
    }
}

/// `x` to four significant digits.
pub(crate) fn digits(x: f64) -> f64 {
    format!("{x:.3e}").parse().unwrap_or(x)
}

/// `3 sessions`, `1 session`.
pub(crate) fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// A name as a file name: letters, digits, `.`, `_` and `-` kept, anything else a `-`.
pub(crate) fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        let keep = c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        let next = if keep { c } else { '-' };
        if next != '-' || !out.ends_with('-') {
            out.push(next);
        }
    }
    out.trim_matches('-').to_string()
}

/// A runtime's page, from the root.
pub(crate) fn runtime_href(runtime: &str) -> String {
    format!("runtime/{}.html", slug(runtime))
}

/// A case's page, from the root.
pub(crate) fn case_href(contestant: &str, point: &str) -> String {
    format!("case/{}/{}.html", slug(contestant), slug(point))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_file_names_and_ids_ranges() {
        assert_eq!(slug("spawn · tasks=1000"), "spawn-tasks-1000");
        assert_eq!(slug("go@1.22.12"), "go-1.22.12");
        assert_eq!(id_ranges(&[1, 2, 3, 7, 9, 10]), "#1–#3, #7, #9–#10");
        assert_eq!(id_ranges(&[]), "");
    }
}
