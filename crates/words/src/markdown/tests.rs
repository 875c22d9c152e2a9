//! The escaping read back by a CommonMark parser with GitHub's extensions, as a viewer reads
//! it: any Unicode string stays one cell, one heading, one list item or one code span
//! holding the same text (its lines joined), with no link, image, HTML or emphasis of its own.

use super::*;
use crate::{Table, render_markdown};
use proptest::prelude::*;
use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use testkit::{any_text, config};

/// What a viewer reads: `markdown` parsed with tables, strikethrough, math and footnotes on.
fn events(markdown: &str) -> Vec<Event<'_>> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_MATH
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_TASKLISTS;
    Parser::new_ext(markdown, options).collect()
}

/// The text inside each `start … end` pair (by tag), or an error naming any event in one
/// that is not plain text.
fn texts(
    events: &[Event],
    inside: fn(&Tag) -> bool,
    ends: fn(&TagEnd) -> bool,
) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    let mut current: Option<String> = None;
    for event in events {
        match (event, &mut current) {
            (Event::Start(tag), None) if inside(tag) => current = Some(String::new()),
            (Event::End(tag), Some(text)) if ends(tag) => {
                found.push(std::mem::take(text));
                current = None;
            }
            (Event::Text(t), Some(text)) => text.push_str(t),
            (other, Some(_)) => return Err(format!("{other:?} inside")),
            _ => {}
        }
    }
    Ok(found)
}

/// What [`text`] promises to keep: the lines joined, other control characters U+FFFD,
/// trimmed.
fn kept(s: &str) -> String {
    lines(s).join(LINE_JOIN).trim().to_string()
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_cell_holds_its_text(s in any_text()) {
        let table = Table {
            title: "t".into(),
            headers: vec!["a".into(), "b".into()],
            rows: vec![vec![s.clone(), "x".into()]],
            notes: vec![],
        };
        let markdown = render_markdown(&table);
        let events = events(&markdown);
        let cells = texts(&events, |t| matches!(t, Tag::TableCell), |t| matches!(t, TagEnd::TableCell))
            .map_err(|e| TestCaseError::fail(format!("{e}: {markdown:?}")))?;
        let flat = kept(&s.replace("\n(", " ("));
        prop_assert_eq!(cells, vec!["a".to_string(), "b".into(), flat, "x".into()], "{:?}", markdown);
    }

    #[test]
    fn a_title_and_a_note_hold_their_text(s in any_text()) {
        let table = Table {
            title: s.clone(),
            headers: vec!["a".into()],
            rows: vec![vec!["1".into()]],
            notes: vec![s.clone()],
        };
        let markdown = render_markdown(&table);
        let events = events(&markdown);
        let headings = texts(&events, |t| matches!(t, Tag::Heading { .. }), |t| matches!(t, TagEnd::Heading(_)))
            .map_err(|e| TestCaseError::fail(format!("{e}: {markdown:?}")))?;
        let flat = kept(&s.replace("\n(", " ("));
        prop_assert_eq!(headings, vec![flat.clone()], "{:?}", markdown);
        let items = texts(&events, |t| matches!(t, Tag::Item), |t| matches!(t, TagEnd::Item))
            .map_err(|e| TestCaseError::fail(format!("{e}: {markdown:?}")))?;
        prop_assert_eq!(items, vec![flat], "{:?}", markdown);
    }

    #[test]
    fn a_code_span_holds_its_text(s in any_text()) {
        let markdown = format!("\n{}\n", code(&s));
        let content = lines(&s).join(" ");
        let spans: Vec<String> = events(&markdown)
            .iter()
            .filter_map(|e| match e {
                Event::Code(c) => Some(c.to_string()),
                _ => None,
            })
            .collect();
        if content.trim().is_empty() {
            // Blank: no span to read back, and nothing else either.
            prop_assert!(spans.len() <= 1);
        } else {
            prop_assert_eq!(spans, vec![content], "{:?}", markdown);
        }
    }
}

#[test]
fn a_tag_with_a_backtick_stays_in_the_command_line() {
    let command = "taskbench run --tag a`b` ![x](https://attacker.example/p.png)\n# heading";
    assert_eq!(
        code(command),
        "``taskbench run --tag a`b` ![x](https://attacker.example/p.png) # heading``"
    );
    assert_eq!(text("# x\n- y #"), "\\# x · - y \\#");
    assert_eq!(text("- y"), "\\- y");
    assert_eq!(
        text("![x](https://a.example/p.png)"),
        "!\\[x\\](https://a.example/p.png)"
    );
    assert_eq!(text("<img src=x>"), "\\<img src=x\\>");
    assert_eq!(text("12. x"), "12\\. x");
}
