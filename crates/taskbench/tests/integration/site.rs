//! `taskbench site` in a real browser and on disk: a store of three sessions on two
//! machines, a release sweep and a bisect (site_store.rs) built into a folder that headless
//! Chromium drives from `file://` — the tournament opened, a session chosen and filtered,
//! the shared URL opened again, a runtime's and a case's page followed by their links, the
//! bisect, machines, runtimes and seeds pages — each shown cell checked against the
//! store's figure, no request leaving the page, and the accessibility basics (one `h1`, no
//! skipped heading level, table headers with their scope, labelled controls, text
//! contrast of at least 4.5:1, a visible keyboard focus that starts at a skip link). A
//! second build rewrites only what changed.

use super::cdp::{Browser, Page};
use super::site_store::{MACHINE_B, Variant, example_store, many_sessions, measured, variant};
use super::util::{assert_refused, skip, stderr, taskbench};
use serde_json::Value;
use std::path::Path;
use store::{Location, Provenance};

/// Builds the site of `store` into `out`; the summary line.
fn build(store: &Path, out: &Path) -> String {
    let output = taskbench(&[
        "site",
        "--store",
        store.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "taskbench site: {}",
        stderr(&output)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `N written` of a summary line.
fn written(line: &str) -> usize {
    let (before, _) = line.split_once(" written").unwrap();
    before.rsplit(' ').next().unwrap().parse().unwrap()
}

fn url(out: &Path, page: &str) -> String {
    format!("file://{}/{page}", out.display())
}

/// A figure the page shows beside the store's: equal to its four significant digits (the
/// pages' data keep four, and show three).
fn same(shown: &Value, stored: f64, what: &str) {
    let shown: f64 = match shown {
        Value::String(s) => s.parse().unwrap_or_else(|_| panic!("{what}: {s:?}")),
        other => other.as_f64().unwrap_or_else(|| panic!("{what}: {other}")),
    };
    assert!(
        (shown - stored).abs() <= 5e-4 * stored.abs(),
        "{what}: the page shows {shown}, the store holds {stored}"
    );
}

/// The accessibility basics of the page shown, as a list of what fails.
const AUDIT: &str = r#"(() => {
  const problems = [];
  const h1 = document.querySelectorAll('h1').length;
  if (h1 !== 1) problems.push(`${h1} h1`);
  let level = 1;
  for (const h of document.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const next = Number(h.tagName[1]);
    if (next > level + 1) problems.push(`heading ${h.tagName} after h${level}: ${h.textContent}`);
    level = next;
  }
  for (const table of document.querySelectorAll('table')) {
    if (!table.querySelector('caption') && !table.getAttribute('aria-label')) problems.push('a table without a caption');
    for (const th of table.querySelectorAll('th')) {
      const scope = th.getAttribute('scope');
      if (!['col', 'row', 'colgroup', 'rowgroup'].includes(scope)) problems.push(`th without scope: ${th.textContent}`);
    }
    if (!table.querySelector('thead th')) problems.push('a table without column headers');
  }
  for (const control of document.querySelectorAll('select, input, button')) {
    if (!control.closest('label') && !control.getAttribute('aria-label')) problems.push(`unlabelled ${control.id}`);
  }
  const rgb = (text) => (text.match(/[\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const ground = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  let checked = 0;
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg, noscript, script, style') || el.getClientRects().length === 0) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    const [a, b] = [luminance(rgb(style.color).slice(0, 3)), luminance(ground(el))];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const large = parseFloat(style.fontSize) >= 24 || (parseFloat(style.fontSize) >= 18.5 && Number(style.fontWeight) >= 700);
    checked += 1;
    if (ratio < (large ? 3 : 4.5)) problems.push(`contrast ${ratio.toFixed(2)}: ${el.textContent.trim().slice(0, 40)}`);
  }
  if (checked < 5) problems.push(`only ${checked} texts checked`);
  return problems;
})()"#;

/// The audit, then the keyboard: the first Tab focuses the skip link, visibly, and the
/// next a link of the navigation, visibly too.
fn accessible(page: &mut Page, name: &str) {
    let problems = page.eval(AUDIT);
    assert_eq!(problems, serde_json::json!([]), "{name}: accessibility");
    page.eval(
        "document.activeElement && document.activeElement.blur(), window.scrollTo(0, 0), true",
    );
    for expected in ["skip", "nav"] {
        page.press("Tab");
        let focused = page.eval(
            "(() => { const a = document.activeElement; const s = getComputedStyle(a);
               return { skip: a.classList.contains('skip'), nav: !!a.closest('nav'),
                        outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2 }; })()",
        );
        assert_eq!(
            focused[expected], true,
            "{name}: Tab should focus the {expected} link: {focused}"
        );
        assert_eq!(
            focused["outline"], true,
            "{name}: the focus is not visible: {focused}"
        );
    }
}

/// Every request the page made stayed in the site's folder.
fn nothing_left(page: &Page, name: &str) {
    let requests = page.requests();
    let out: Vec<&String> = requests
        .iter()
        .filter(|r| !r.starts_with("file://"))
        .collect();
    assert!(out.is_empty(), "{name}: requests left the page: {out:?}");
    assert!(!requests.is_empty(), "{name}: no request seen at all");
}

/// Resolves once the tournament has been drawn more than `before` times (its script counts
/// its drawings in the body's `data-drawn`), after loading a session's data if need be.
const DRAWN: &str = "new Promise((done, fail) => {
  const start = Date.now();
  const wait = () => Number(document.body.dataset.drawn || 0) > BEFORE ? done(true)
    : Date.now() - start > 20000 ? fail(new Error('the tournament was not drawn')) : setTimeout(wait, 10);
  wait();
})";

/// Waits for the tournament's first drawing.
fn drawn(page: &mut Page) {
    page.eval(&DRAWN.replace("BEFORE", "0"));
}

/// Sets a control of the tournament as a person does, by choosing an option, and waits
/// for the table drawn again.
fn choose(page: &mut Page, id: &str, value: &str) {
    let before = page.eval("Number(document.body.dataset.drawn || 0)");
    let js = format!(
        "(() => {{ const s = document.getElementById('{id}'); s.focus(); s.value = '{value}';
           s.dispatchEvent(new Event('change', {{ bubbles: true }})); return s.value; }})()"
    );
    assert_eq!(page.eval(&js), value, "{id} has no option {value}");
    page.eval(&DRAWN.replace("BEFORE", &before.to_string()));
}

/// The tournament's rows and one cell, as shown.
fn shown(page: &mut Page, contestant: &str, point: &str) -> Value {
    let js = format!(
        "(() => {{ const row = (id) => [...document.querySelectorAll('#' + id + ' tr[data-contestant]')].map(r => r.dataset.contestant);
           const cell = document.querySelector('tr[data-contestant=\"{contestant}\"] td[data-point=\"{point}\"]');
           return {{ ranked: row('ranked'), apart: row('apart'), caption: document.getElementById('caption').textContent,
             columns: [...document.querySelectorAll('#tournament thead th')].map(t => t.textContent),
             median: cell && cell.dataset.median, title: cell && cell.querySelector('a').title, url: location.search }}; }})()"
    );
    page.eval(&js)
}

/// The site built from the example store, and the store's figures to check it against.
struct Built {
    out: std::path::PathBuf,
    db: store::Store,
    summaries: Vec<store::SummaryRow>,
}

const POINT: &str = "spawn tasks=100";

impl Built {
    /// The store's headline time of `contestant` at [`POINT`] in `session`.
    fn time(&self, session: i64, contestant: &str) -> f64 {
        (self.summaries.iter())
            .find(|m| m.session == session && m.contestant == contestant && m.point == POINT)
            .and_then(|m| m.time)
            .unwrap_or_else(|| panic!("the store has no time of {contestant} in #{session}"))
    }

    /// The store's elapsed median of `release` in `session`, whole from its summary.
    fn elapsed(&mut self, session: i64, release: &str) -> f64 {
        let rows = store::summary_json(&mut self.db, session).unwrap();
        let row = rows.into_iter().find(|r| r.contestant == release).unwrap();
        row.elapsed.unwrap().median
    }

    fn url(&self, page: &str) -> String {
        url(&self.out, page)
    }
}

#[test]
fn the_site_of_a_store_works_in_chromium_from_a_folder() {
    let scratch = tempfile::tempdir().unwrap();
    let Some(mut browser) = Browser::launch(scratch.path(), 1400, 1000) else {
        return skip("chromium is not installed: apt-get install chromium");
    };
    let base = measured();
    let (store_path, _) = example_store(scratch.path(), &base);
    let out = scratch.path().join("site");
    build(&store_path, &out);
    let mut db = store::open(&Location::Sqlite(store_path.clone())).unwrap();
    assert_eq!(store::session_rows(&mut db).unwrap().len(), 7);
    let summaries = store::summary_rows(&mut db).unwrap();
    let mut built = Built { out, db, summaries };
    let shared = tournament(&mut browser.page(), &built);
    let mut page = browser.page();
    shared_url(&mut page, &shared);
    runtime_and_case(&mut page, &built);
    bisect_page(&mut page, &mut built);
    other_pages(&mut page, &mut built);
}

/// The tournament: the newest run first (the sweep, #4; the bisect's steps are newer);
/// then session #3 chosen, floor (z) apart, each cell's interval on hover; then Go alone
/// and one size: one row, one column, every choice in the URL. The URL shared.
fn tournament(page: &mut Page, built: &Built) -> String {
    page.navigate(&built.url("index.html"));
    drawn(page);
    let view = shown(page, "fixture-x@1.0.0", POINT);
    assert!(
        view["caption"].as_str().unwrap().contains("session #4"),
        "{view}"
    );
    same(
        &view["median"],
        built.time(4, "fixture-x@1.0.0"),
        "tournament #4",
    );
    accessible(page, "the tournament");
    choose(page, "session", "3");
    let view = shown(page, "fixture-x", POINT);
    assert_eq!(
        view["ranked"],
        serde_json::json!(["fixture-x", "fixture-y"]),
        "{view}"
    );
    assert_eq!(
        view["apart"],
        serde_json::json!(["fixture-z"]),
        "floor apart: {view}"
    );
    same(&view["median"], built.time(3, "fixture-x"), "tournament #3");
    let title = view["title"].as_str().unwrap();
    assert!(
        title.contains("95 % interval") && title.contains("3 processes"),
        "{title}"
    );
    choose(page, "filter-language", "Go");
    choose(page, "filter-size", "100");
    let filtered = shown(page, "fixture-y", POINT);
    assert_eq!(
        filtered["ranked"],
        serde_json::json!(["fixture-y"]),
        "{filtered}"
    );
    assert_eq!(filtered["apart"], serde_json::json!([]), "{filtered}");
    assert_eq!(
        filtered["columns"].as_array().unwrap().len(),
        3,
        "{filtered}"
    );
    let search = filtered["url"].as_str().unwrap();
    for part in ["session=3", "language=Go", "size=100"] {
        assert!(search.contains(part), "{part} not in {search}");
    }
    nothing_left(page, "the tournament");
    page.url()
}

/// The shared URL, opened in a new tab and reloaded, shows the same view.
fn shared_url(page: &mut Page, shared: &str) {
    page.navigate(shared);
    drawn(page);
    let first = shown(page, "fixture-y", POINT);
    assert_eq!(
        first["ranked"],
        serde_json::json!(["fixture-y"]),
        "the shared URL: {first}"
    );
    assert!(
        first["caption"].as_str().unwrap().contains("session #3"),
        "{first}"
    );
    page.reload();
    drawn(page);
    assert_eq!(
        shown(page, "fixture-y", POINT),
        first,
        "a reload shows another view"
    );
}

/// A runtime's page by its link from the tournament (its newest figure on each machine,
/// its releases, its bisect), then a case's page by its link (every session's figure).
fn runtime_and_case(page: &mut Page, built: &Built) {
    choose(page, "filter-language", "");
    page.click(r#"tr[data-contestant="fixture-x"] a.runtime"#);
    page.wait_for_load();
    assert!(
        page.url().ends_with("runtime/fixture-x.html"),
        "{}",
        page.url()
    );
    let runtime = page.eval(&format!(
        "(() => ({{ h1: document.querySelector('h1').textContent,
           m1: document.querySelector('#m1 td[data-point=\"{POINT}\"][data-figure=time]').dataset.value,
           m2: document.querySelector('#m2 td[data-point=\"{POINT}\"][data-figure=time]').dataset.value,
           releases: [...document.querySelectorAll('table.releases thead th')].map(t => t.textContent),
           bisects: document.querySelectorAll('a[href$=\"bisect/1.html\"]').length }}))()"
    ));
    assert_eq!(runtime["h1"], "fixture-x");
    same(
        &runtime["m1"],
        built.time(3, "fixture-x"),
        "runtime, m1's newest",
    );
    same(&runtime["m2"], built.time(2, "fixture-x"), "runtime, m2's");
    assert_eq!(
        runtime["releases"],
        serde_json::json!([
            "point",
            "fixture-x@1.0.0",
            "fixture-x@1.1.0",
            "fixture-x@1.2.0"
        ])
    );
    assert_eq!(runtime["bisects"], 1, "{runtime}");
    accessible(page, "a runtime's page");
    nothing_left(page, "a runtime's page");
    page.click(r#"#m1 a[href$="case/fixture-x/spawn-tasks-100.html"]"#);
    page.wait_for_load();
    let case = page.eval(
        "[...document.querySelectorAll('tr[data-session]')].map(r => [Number(r.dataset.session), r.querySelector('td[data-time]').dataset.time])",
    );
    let rows = case.as_array().unwrap();
    assert_eq!(rows.len(), 3, "sessions 1 and 3 on m1, 2 on m2: {case}");
    for row in rows {
        same(
            &row[1],
            built.time(row[0].as_i64().unwrap(), "fixture-x"),
            "case",
        );
    }
    assert_eq!(
        page.eval("document.querySelectorAll('section svg').length >= 1"),
        true
    );
    accessible(page, "a case's page");
    nothing_left(page, "a case's page");
}

/// The bisect: the answer first, then the ladder of the releases it measured, each figure
/// from the newest step that ran it.
fn bisect_page(page: &mut Page, built: &mut Built) {
    page.navigate(&built.url("bisect/1.html"));
    let bisect = page.eval(
        "(() => ({ first: document.querySelector('h1').nextElementSibling.className,
           answer: document.querySelector('.answer').textContent,
           ladder: [...document.querySelectorAll('table.ladder td[data-release]')].map(t => [t.dataset.release, t.dataset.value, t.parentElement.lastElementChild.textContent]) }))()",
    );
    assert_eq!(bisect["first"], "answer", "{bisect}");
    assert!(
        bisect["answer"]
            .as_str()
            .unwrap()
            .contains("fixture-x@1.1.0"),
        "{bisect}"
    );
    let ladder = bisect["ladder"].as_array().unwrap();
    assert_eq!(ladder.len(), 3, "{bisect}");
    // The step found, with its ratio and interval, on the release it starts at.
    assert_eq!(ladder[1][2], "×1.50 (1.42–1.58), the step", "{bisect}");
    same(
        &ladder[1][1],
        built.elapsed(6, "fixture-x@1.1.0"),
        "ladder, 1.1.0 from the second step",
    );
    same(
        &ladder[2][1],
        built.elapsed(5, "fixture-x@1.2.0"),
        "ladder, 1.2.0 from the first step",
    );
    accessible(page, "the bisect's page");
}

/// The machines (each with its sessions), and the runtimes, seeds and bisects pages.
fn other_pages(page: &mut Page, built: &mut Built) {
    page.navigate(&built.url("machines.html"));
    let machines = page.eval(
        "(() => ({ m1: document.querySelectorAll('#m1 tbody tr').length, m2: document.querySelectorAll('#m2 tbody tr').length,
           heading: document.querySelector('#m2 h2').textContent }))()",
    );
    assert_eq!(machines["m1"], 6, "{machines}");
    assert_eq!(machines["m2"], 1, "{machines}");
    assert!(
        machines["heading"].as_str().unwrap().contains(MACHINE_B),
        "{machines}"
    );
    accessible(page, "the machines page");
    // The seed's published figures beside ours: fixture-x's elapsed of the seed session.
    let ours = units::duration(built.elapsed(7, "fixture-x"));
    let seed = [
        ("runtimes.html", "fixture-y"),
        ("seeds.html", ours.as_str()),
    ];
    for (name, expect) in seed
        .into_iter()
        .chain([("bisects.html", "fixture-x@1.0.0..1.2.0")])
    {
        page.navigate(&built.url(name));
        let text = page
            .eval("document.body.textContent")
            .as_str()
            .unwrap()
            .to_string();
        assert!(text.contains(expect), "{name}: {expect} not in {text:.400}");
        assert!(
            text.contains("Built by taskbench"),
            "{name} does not say what it was built from"
        );
        accessible(page, name);
    }
    nothing_left(page, "the other pages");
}

#[test]
fn a_second_build_rewrites_only_what_changed() {
    let scratch = tempfile::tempdir().unwrap();
    let base = measured();
    let (store_path, _) = example_store(scratch.path(), &base);
    let out = scratch.path().join("site");
    let first = build(&store_path, &out);
    let files: usize = first.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert_eq!(written(&first), files, "{first}");
    let again = build(&store_path, &out);
    assert_eq!(written(&again), 0, "nothing changed: {again}");

    // One more session, of x, y and z on machine B: its data file, their pages and the
    // lists change; the earlier sessions' data files and the sweep's pages do not.
    let modified = |page: &str| {
        std::fs::metadata(out.join(page))
            .unwrap()
            .modified()
            .unwrap()
    };
    let kept = [
        "data/session-1.js",
        "data/session-4.js",
        "case/fixture-x-1.0.0/spawn-tasks-100.html",
    ];
    let kept: Vec<_> = kept
        .iter()
        .filter(|p| out.join(p).exists())
        .map(|p| (p, modified(p)))
        .collect();
    assert_eq!(kept.len(), 3, "{kept:?}");
    let mut db = store::open(&Location::Sqlite(store_path.clone())).unwrap();
    let same_names = [
        ("fixture-x", "fixture-x"),
        ("fixture-y", "fixture-y"),
        ("fixture-z", "fixture-z"),
    ];
    let more = Variant {
        day: 9,
        cpu: MACHINE_B,
        rename: &same_names,
        tasks: None,
        factor: 0.9,
    };
    store::record(&mut db, &variant(&base, &more), &Provenance::default()).unwrap();
    let third = build(&store_path, &out);
    let changed = written(&third);
    assert!(changed > 0 && changed < files, "{third}");
    assert!(out.join("data/session-7.js").exists(), "{third}");
    for (page, before) in kept {
        assert_eq!(modified(page), before, "{page} was written again");
    }
}

/// The size and build time of the site of a store of 200 sessions of 165 cases (15
/// runtimes × 11 points, the default run's shape), printed: the first build, a second
/// with nothing new, a third after one more session, a fourth after one more session of
/// one runtime's 11 points. Not a check of speed (the
/// machine's load decides that): run by hand, `cargo test --release -p taskbench --test
/// integration site::a_store -- --ignored --nocapture`, for the figures docs/SITE.md gives.
#[test]
#[ignore = "a measurement, run by hand"]
fn a_store_of_200_sessions_builds_a_small_site() {
    let scratch = tempfile::tempdir().unwrap();
    let base = measured();
    let started = std::time::Instant::now();
    let path = scratch.path().join("many.sqlite");
    many_sessions(&path, &base, 0..200, (15, 11));
    eprintln!(
        "store of 200 sessions made in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let out = scratch.path().join("site");
    let timed = |what: &str| {
        let started = std::time::Instant::now();
        let line = build(&path, &out);
        eprintln!(
            "{what}: {:.2} s: {}",
            started.elapsed().as_secs_f64(),
            line.trim()
        );
        line
    };
    let first = timed("first build");
    let files: usize = first.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert_eq!(written(&first), files);
    for folder in ["data", "case", "runtime", "bisect"] {
        let (count, bytes) = folder_size(&out.join(folder));
        eprintln!(
            "  {folder}/: {count} files, {:.1} MiB",
            bytes as f64 / (1 << 20) as f64
        );
    }
    assert_eq!(written(&timed("again, nothing new")), 0);
    many_sessions(&path, &base, 200..201, (15, 11));
    let third = timed("after one more session");
    assert!(written(&third) < files, "{third}");
    many_sessions(&path, &base, 201..202, (1, 11));
    let fourth = timed("after one more session of one runtime");
    assert!(written(&fourth) < 20, "{fourth}");
    if std::env::var_os("TASKBENCH_KEEP_SITE").is_some() {
        eprintln!("kept: {}", scratch.keep().display());
    }
}

/// Files under `dir` and their bytes.
fn folder_size(dir: &Path) -> (usize, u64) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return (0, 0);
    };
    entries
        .map(|e| e.unwrap().path())
        .fold((0, 0), |(n, b), path| {
            if path.is_dir() {
                let (m, c) = folder_size(&path);
                (n + m, b + c)
            } else {
                (n + 1, b + std::fs::metadata(&path).unwrap().len())
            }
        })
}

#[test]
fn a_site_without_a_store_or_a_folder_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.sqlite");
    let out = dir.path().join("site");
    let args = [
        "site",
        "--store",
        missing.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    assert_refused(&taskbench(&args), &args, "no store at");
    assert!(
        !out.exists(),
        "nothing is made for a store that is not there"
    );
    let store = dir.path().join("taskbench.sqlite");
    drop(store::open(&Location::Sqlite(store.clone())).unwrap());
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let args = [
        "site",
        "--store",
        store.to_str().unwrap(),
        "--out",
        file.to_str().unwrap(),
    ];
    assert_refused(&taskbench(&args), &args, "--out: cannot create");
}
