//! The page from fixed fake runs: every table, seed figures beside a seed's point, every
//! chart, the warnings and the reproducing command, and nothing fetched from elsewhere.

use super::*;
use results::fake::results;

#[test]
fn the_page_holds_every_table_chart_and_note() {
    let results = results();
    let page = render(&results);
    // spawn ×3, sleep, timer; one sweep over spawn's tasks.
    assert_eq!(page.matches(r#"<section class="point""#).count(), 5);
    assert_eq!(page.matches(r#"<section class="sweep""#).count(), 1);
    // Time and RSS with their intervals and a timeline per point, oversleep for the timer,
    // and overhead and RSS against N for the sweep; the rest are contestants' markers.
    let markers = page.matches(r#"<svg class="mark""#).count();
    assert_eq!(page.matches("<svg").count() - markers, 5 * 3 + 1 + 2);
    // The overview first: a row per contestant, a column per point and the mean, linked.
    let overview = &page[page.find(r#"id="overview""#).unwrap()..];
    let overview = &overview[..overview.find("</table>").unwrap()];
    assert!(page.find(r#"id="overview""#) < page.find(r#"<section class="point""#));
    assert_eq!(overview.matches("<tr>").count(), 1 + 2, "{overview}");
    assert_eq!(
        overview.matches(r#"<th scope="col" title="#).count(),
        5,
        "{overview}"
    );
    assert!(overview.contains(r##"<a href="#point-1">spawn</a><small>tasks 10</small>"##));
    assert!(overview.contains(r#"data-contestant="tokio""#));
    assert!(overview.contains(r#"<tr class="best"><th scope="row">best (= 1.00)</th>"#));
    assert!(page.contains(r#"id="overview-rss""#));
    // tokio reports CPU per iteration, so the page and results.md have its overview.
    assert!(page.contains(r#"id="overview-cpu""#));
    assert!(page.contains("<dt>spawn</dt><dd>spawn N tasks"));
    assert!(!page.contains("chart not drawn"));
    // The point of concurrency-benchmarks gets its published figures.
    assert!(page.contains(
        "composewell/concurrency-benchmarks · delay-0ms-10k — published figures beside ours"
    ));
    assert!(
        page.contains("<td>async mapConcurrently</td><td>102 ms</td><td>43.9 MB</td>"),
        "{page}"
    );
    // Beside them, how each side was measured (results.md says so too: export's tests).
    assert!(page.contains("how they were measured: gauge (nfIO), one benchmark per process"));
    assert!(page.contains("how ours were measured: time is each contestant"));
    assert!(page.contains("<th scope=\"row\">go</th><td>`go` not found: install Go"));
    // Each row's toolchain's age, build, warm-up and entry in docs/FAIRNESS.md; the warm-up
    // rule once.
    assert!(
        page.contains(
            "<td>Rust 1.95.0 (newest ≥ 1.99.0: 1.95 → 1.99 or later)</td><td>cargo --release</td><td>1 (common minimum) warm-up iterations</td><td>#tokio</td>"
        ),
        "{page}"
    );
    assert_eq!(
        page.matches("<li>warm-up — 1 (common minimum) warm-up iterations:")
            .count(),
        1
    );
    assert!(page.contains(&escape(
        &words::warnings::Said(&results.warnings[0]).to_string()
    )));
    assert!(
        page.contains(
            "<code>taskbench run --scenario spawn --command &#39;it&#39;\\&#39;&#39;s&#39;</code>"
        ),
        "{page}"
    );
    // The same colour for tokio in the tables' markers and in the charts.
    let colour = Palette::new(["go", "threads", "tokio"].map(|n| (n.to_string(), "Rust".into())))
        .css("tokio");
    assert!(page.contains(&format!("data-colour=\"{colour}\"")));
    assert!(
        page.to_lowercase().contains(&format!("fill=\"{colour}\"")),
        "{colour}"
    );
}

#[test]
fn the_page_fetches_nothing() {
    let page = render(&results());
    for fetch in ["<script", "<link", "src=", "url(", "@import"] {
        assert!(!page.contains(fetch), "{fetch}");
    }
    let links: Vec<&str> = page
        .match_indices("http")
        .map(|(i, _)| &page[i..i + 30])
        .collect();
    assert!(
        links
            .iter()
            .all(|l| l.starts_with("http://www.w3.org/2000/svg")),
        "{links:?}"
    );
}

#[test]
fn commands_are_quoted_as_a_shell_reads_them() {
    let argv = [
        "taskbench",
        "run",
        "--command",
        "sleep 1",
        "--tasks",
        "1,10k",
        "it's",
    ]
    .map(String::from);
    assert_eq!(
        shell_line(&argv),
        r"taskbench run --command 'sleep 1' --tasks 1,10k 'it'\''s'"
    );
}

#[test]
fn a_few_points_read_side_by_side_like_bluebirds_table() {
    let results = results();
    assert!(
        words::side_by_side(&results.points).is_none(),
        "5 points: none"
    );
    let table = words::side_by_side(&results.points[..2]).unwrap();
    assert_eq!(
        table.headers,
        [
            "contestant",
            "(1) time",
            "(1) peak RSS",
            "(2) time",
            "(2) peak RSS"
        ]
    );
    let first = &results.points[0];
    assert!(table.title.contains(&format!("(1) {}", first.point)));
    assert_eq!(table.rows.len(), first.rows.len());
    let best = &first.rows[0];
    assert_eq!(table.rows[0][0], best.contestant);
    assert_eq!(
        table.rows[0][1],
        units::duration(best.elapsed.unwrap().median)
    );
}
