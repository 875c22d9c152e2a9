//! Every measured figure in README.md and docs/ carries the date or the commit it was measured
//! at (issue 35): a reader can tell today's figure from history's, and check it against the code
//! of that commit. A figure is a number with a time unit (ns, µs, ms, s, min), MiB/GiB/KiB, ×
//! or %; it counts as dated when its block (a paragraph, a list item, a table, a code block) or
//! an earlier block of its section, or the section's heading, holds a date (2026-12-06) or a
//! commit (`535d0d8`, commit 535d0d8).

use contestant::home::repository_root;

/// Definitions and parameters that read like measurements: (file, phrase of the figure's line
/// or of its section's heading). Reviewed one by one; a measurement never belongs here.
const EXEMPT: &[(&str, &str)] = &[
    // The flag table's preset values and the counted runs' timeout: parameters.
    ("docs/USAGE.md", "(the preset's; quick"),
    ("docs/USAGE.md", "(`2%`; quick 5 %)"),
    ("docs/USAGE.md", "counted runs 5 × T"),
    // The reference made from clap (tests/integration/usage.rs), a section per command:
    // flags' defaults, presets' settings and examples of values, parameters all.
    ("docs/USAGE.md", "## `taskbench"),
    // The scenario table's ideal times: formulas of the parameters.
    ("docs/SCENARIOS.md", "# Scenarios"),
    // The seeds' workloads, as the seeds define them.
    ("docs/SCENARIOS.md", "## Where each comes from"),
    ("docs/SEEDS.md", ": workload"),
    ("docs/SEEDS.md", ": measurement"),
    ("docs/SEEDS.md", "### bluebird: fake I/O"),
    ("docs/SEEDS.md", "### doxbee-sequential"),
    ("docs/SEEDS.md", "### madeup-parallel"),
    // A bug report's figure, which the report gives without a date (the text says so).
    ("docs/SEEDS.md", "### GHC #1523: the report"),
    // The presets' parameters.
    ("docs/SCENARIOS.md", "| `quick` (the default"),
    ("docs/SCENARIOS.md", "| `seeds` | sleep"),
    ("docs/SCENARIOS.md", "| `million` | sleep"),
    ("docs/SCENARIOS.md", "| `runtime` | tokio's"),
    ("docs/SCENARIOS.md", "run budget of 5 min"),
    ("docs/SCENARIOS.md", "their defaults, measured"),
    ("docs/SCENARIOS.md", "(85 and 70 min of measuring)"),
    ("docs/MEASUREMENT.md", "(the quick preset: 5 min; seeds"),
    // The store's and the harness's settings, limits and tolerances.
    ("docs/HISTORY.md", "busy timeout"),
    ("docs/HISTORY.md", "gives up after 10 s"),
    // The change-point gate's definition: its false-alarm rate and tests, no measurement.
    ("docs/HISTORY.md", "### `compare --fail-on-change`"),
    ("docs/MEASUREMENT.md", "## Timeouts and failures"),
    ("docs/MEASUREMENT.md", "agree within 2 %"),
    ("docs/MEASUREMENT.md", "64 MiB held by the harness"),
    ("docs/MEASUREMENT.md", "open 2 s later"),
    ("docs/MEASUREMENT.md", "allocate in 20 ms"),
    ("docs/MEASUREMENT.md", "levels within 5 %"),
    ("docs/MEASUREMENT.md", "10 % of the last"),
    ("docs/MEASUREMENT.md", "+25 %, at least 1"),
    ("docs/MEASUREMENT.md", "below 1 % of the elapsed"),
    ("docs/MEASUREMENT.md", "the harness's 3 ms"),
    ("docs/MEASUREMENT.md", "its wall clock and 3 ms"),
    ("docs/MEASUREMENT.md", "at the 95 % level still short"),
    ("docs/PROTOCOL.md", "## 3. Exit statuses"),
    // The echo server's read size: a rule of the protocol.
    ("docs/PROTOCOL.md", "a read of up to 64 KiB"),
    ("docs/STATISTICS.md", "## Warnings"),
    // Clock resolutions: the kernel's tick and the BEAM's unit, constants of the platform.
    ("docs/PROTOCOL.md", "10 ms tick"),
    ("docs/PROTOCOL.md", "`erlang:statistics(runtime)` | 1 ms"),
    // Exact probabilities, an invented example and a seeded simulation the tests repeat.
    ("docs/STATISTICS.md", "**95 % confidence interval"),
    ("docs/STATISTICS.md", "with probability 5.8 %"),
    ("docs/STATISTICS.md", "### A worked example"),
    ("docs/STATISTICS.md", "### Few processes"),
    ("docs/STATISTICS.md", "75 % × 87.5 %"),
];

/// One block of a markdown file: the line it starts on, its text, and the section it is in
/// (its number and its heading).
struct Block {
    line: usize,
    section: usize,
    heading: String,
    text: String,
}

/// A markdown file's blocks in order: paragraphs, list items, tables and fenced code blocks,
/// split at blank lines, headings and list markers. A heading is a block of its own that opens
/// a section.
fn blocks(markdown: &str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let (mut section, mut fenced, mut open) = (0, false, false);
    let mut heading = String::new();
    for (index, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        let fence = trimmed.starts_with("```");
        let starts = if fenced {
            false
        } else if fence || trimmed.starts_with('#') {
            if trimmed.starts_with('#') {
                section += 1;
                heading = trimmed.to_string();
            }
            true
        } else {
            !open || list_item(trimmed)
        };
        if fence {
            fenced = !fenced;
        }
        if !fenced && !fence && trimmed.is_empty() {
            open = false;
            continue;
        }
        if starts {
            let line = index + 1;
            let (heading, text) = (heading.clone(), String::new());
            blocks.push(Block {
                line,
                section,
                heading,
                text,
            });
        }
        let block = blocks.last_mut().expect("a block was opened");
        block.text.push_str(line);
        block.text.push('\n');
        // A heading is one line; a fence closes its block at the closing fence.
        open = !trimmed.starts_with('#') && (fenced || !fence);
    }
    blocks
}

/// A list item's marker: `- `, `* `, `+ ` or `1. `.
fn list_item(trimmed: &str) -> bool {
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    ["- ", "* ", "+ "].iter().any(|m| trimmed.starts_with(m))
        || (digits > 0 && trimmed[digits..].starts_with(". "))
}

/// A date (2026-12-06) or a commit (7–40 hex digits, a letter among them, in backticks or
/// after "commit").
fn dated(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let date = chars.windows(10).any(|w| {
        let digit = |i: usize| w[i].is_ascii_digit();
        w[0] == '2'
            && w[1] == '0'
            && [2, 3, 5, 6, 8, 9].into_iter().all(digit)
            && w[4] == '-'
            && w[7] == '-'
    });
    let hex = |word: &str| {
        (7..=40).contains(&word.len())
            && word.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
            // A number in backticks (`1000000`) is a parameter, not a commit.
            && word.bytes().any(|b| b.is_ascii_alphabetic())
    };
    let quoted = text.split('`').skip(1).step_by(2).any(hex);
    let after_commit = text.split("commit").skip(1).any(|rest| {
        let word = rest.trim_start_matches([' ', '*', '`']);
        hex(word
            .split(|c: char| !c.is_ascii_alphanumeric())
            .next()
            .unwrap_or(""))
    });
    date || quoted || after_commit
}

/// The units that make a number a measurement, longest first so `ms` is not read as `s`.
const UNITS: &[&str] = &[
    "min", "MiB", "GiB", "KiB", "ns", "µs", "us", "ms", "s", "×", "%",
];

/// The measured figures of a text, each with the index of its line: numbers with a unit,
/// leaving out code spans (flags and their values), limits given as ±N %, and the confidence
/// level of "95 % interval".
fn figures(text: &str) -> Vec<(usize, String)> {
    let chars = prose(text);
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let before = if i == 0 { ' ' } else { chars[i - 1] };
        let starts = chars[i].is_ascii_digit()
            && !(before.is_alphanumeric() || matches!(before, '.' | '±' | ',' | '_' | '-' | '/'));
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i;
        while end < chars.len()
            && (chars[end].is_ascii_digit()
                || (matches!(chars[end], '.' | ',' | ' ' | '\u{2009}' | '\u{202f}')
                    && chars.get(end + 1).is_some_and(char::is_ascii_digit)))
        {
            end += 1;
        }
        let rest: String = chars[end..].iter().take(6).collect();
        let spaced = rest
            .strip_prefix([' ', '\u{a0}', '\u{2009}', '\u{202f}'])
            .unwrap_or(&rest);
        let unit = UNITS.iter().find(|u| {
            spaced.starts_with(*u) && !spaced[u.len()..].starts_with(|c: char| c.is_alphanumeric())
        });
        if let Some(unit) = unit {
            let number: String = chars[i..end].iter().collect();
            let line = chars[..i].iter().filter(|c| **c == '\n').count();
            found.push((line, format!("{number} {unit}")));
        }
        i = end.max(i + 1);
    }
    found
}

/// A text's characters with code spans and "95 % interval"'s confidence level blanked out
/// (newlines kept, so a figure's line can still be counted). A fenced block with a language
/// (```sh, ```toml) is input, blanked whole; a bare one (``` or ```text) shows a run's output,
/// and all of it counts.
fn prose(text: &str) -> Vec<char> {
    let info = text
        .trim_start()
        .strip_prefix("```")
        .map(|rest| rest.lines().next());
    let output = matches!(info, Some(Some("" | "text")));
    let mut code = info.is_some() && !output;
    let mut chars: Vec<char> = text
        .chars()
        .map(|c| {
            code ^= c == '`' && info.is_none();
            if code && c != '\n' { ' ' } else { c }
        })
        .collect();
    for i in 0..chars.len() {
        let level: String = chars[i..].iter().take(4).collect();
        let next: String = chars[(i + 4).min(chars.len())..].iter().collect::<String>();
        if level == "95 %" && next.trim_start().starts_with("interval") {
            chars[i..i + 4].fill(' ');
        }
    }
    chars
}

/// The figures of a markdown file that no date or commit covers: (line, figure) pairs, leaving
/// out the lines, and the sections whose headings, hold one of `exempt`'s phrases.
fn undated(markdown: &str, exempt: &[&str]) -> Vec<(usize, String)> {
    let mut covered_section = None;
    let mut undated = Vec::new();
    for block in blocks(markdown) {
        if dated(&block.text) {
            covered_section = Some(block.section);
            continue;
        }
        let exempt_section = exempt.iter().any(|phrase| block.heading.contains(phrase));
        if covered_section == Some(block.section) || exempt_section {
            continue;
        }
        let lines: Vec<&str> = block.text.lines().collect();
        for (offset, figure) in figures(&block.text) {
            if !exempt.iter().any(|phrase| lines[offset].contains(phrase)) {
                undated.push((block.line + offset, figure));
            }
        }
    }
    undated
}

#[test]
fn every_measured_figure_in_the_readme_and_docs_is_dated() {
    let root = repository_root();
    let mut files = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    let mut problems = Vec::new();
    for path in files {
        let name = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let exempt: Vec<&str> = EXEMPT
            .iter()
            .filter(|(file, _)| *file == name)
            .map(|(_, phrase)| *phrase)
            .collect();
        let markdown = std::fs::read_to_string(&path).unwrap();
        for (line, figure) in undated(&markdown, &exempt) {
            problems.push(format!("{name}:{line}: {figure}"));
        }
    }
    assert!(
        problems.is_empty(),
        "{} measured figures without the date or commit they were measured at:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn an_undated_figure_is_found_and_a_dated_one_is_not() {
    let markdown = "# Speed\n\nspawn took 12.5 ms here.\n\n\
                    ## Memory (measured 2026-12-06)\n\n- 40 MiB peak\n- 3× the seed\n\n\
                    ## Gate\n\nRun at commit `535d0d8`:\n\n| a | b |\n|---|---|\n| 7 % | 1.2 s |\n\n\
                    ## Flags\n\n`--precision 2%`, a ±5 % limit and a 95 %\ninterval.\n\n\
                    ```sh\ntaskbench run --max-time 10s\n```\n\n\
                    ## Later\n\n48 s, as `a1b2c3d` ran it.\n\n\
                    ## Next\n\nA date above does not reach here:\n\n```\nmachine: 1.39 ms\n```\n";
    let found = undated(markdown, &[]);
    let expected = [(3, "12.5 ms"), (36, "1.39 ms")];
    let expected: Vec<(usize, String)> = expected
        .iter()
        .map(|(line, f)| (*line, f.to_string()))
        .collect();
    assert_eq!(found, expected);
    let exempt = undated(markdown, &["spawn took", "## Next"]);
    assert!(
        exempt.is_empty(),
        "exempt phrases are passed over: {exempt:?}"
    );
}
