//! report.html in a real browser: a small real run of six Rust runtimes (a sweep and the
//! timer), its page loaded in headless Chromium at 1400 and at 800 px wide, which must open
//! with the overview (the best row, a row per contestant, a column per point), show every
//! table, draw every chart with every label inside its chart and none on top of another,
//! let nothing overflow the page, keep every legend entry inside its legend, and give no
//! two contestants the same colour and marker. A screenshot is kept for a person to look at.
//! Skipped, with the reason printed, only where Chromium is not installed (.ci/run installs
//! it, and fails the test without it).

use super::util::{output_within, skip, stderr, taskbench};
use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Appended to a copy of the page (the page itself has no script): opens every folded part,
/// measures every chart and table after layout and writes the findings into the DOM for
/// --dump-dom. Labels are
/// compared by their boxes on screen, so rotated axis titles count as drawn.
const CHECK: &str = r#"<script>
document.querySelectorAll('details').forEach(d => { d.open = true; });
const apart = (a, b) => a.right <= b.left + 0.5 || b.right <= a.left + 0.5 ||
  a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5;
const charts = [...document.querySelectorAll('svg')].map(svg => {
  const frame = svg.getBoundingClientRect();
  const texts = [...svg.querySelectorAll('text')]
    .map(t => ({ text: t.textContent.trim(), box: t.getBoundingClientRect() }))
    .filter(t => t.box.width > 0);
  const overlaps = [];
  texts.forEach((a, i) => texts.slice(i + 1).forEach(b => {
    if (!apart(a.box, b.box)) overlaps.push(a.text + ' / ' + b.text);
  }));
  return {
    width: frame.width, height: frame.height,
    marks: svg.querySelectorAll('rect, polyline, path, line, circle, polygon').length,
    texts: texts.length, overlaps,
    outside: texts.filter(({ box }) => box.left < frame.left - 0.5 || box.top < frame.top - 0.5 ||
      box.right > frame.right + 0.5 || box.bottom > frame.bottom + 0.5).map(t => t.text),
  };
});
const inside = (box, frame) => box.left >= frame.left - 0.5 && box.right <= frame.right + 0.5 &&
  box.top >= frame.top - 0.5 && box.bottom <= frame.bottom + 0.5;
const legends = [...document.querySelectorAll('ul.legend')].flatMap(ul => {
  const frame = ul.getBoundingClientRect();
  return [...ul.children].filter(li => !inside(li.getBoundingClientRect(), frame))
    .map(li => li.textContent);
});
const overview = document.getElementById('overview');
const looks = [...document.querySelectorAll('#overview tbody th[data-contestant]')].map(th => {
  const mark = th.querySelector('svg.mark');
  return { name: th.dataset.contestant, look: mark.dataset.colour + ' ' + mark.dataset.marker };
});
const check = document.createElement('pre');
check.id = 'check';
check.textContent = JSON.stringify({
  charts,
  legends,
  looks,
  width: window.innerWidth,
  overflow: document.documentElement.scrollWidth - window.innerWidth,
  overview: overview && {
    rows: overview.querySelectorAll('tbody tr').length,
    columns: overview.querySelectorAll('thead th').length,
    first: overview.getBoundingClientRect().top < document.querySelector('section.point').getBoundingClientRect().top,
  },
  tables: document.querySelectorAll('table').length,
  rows: document.querySelectorAll('tbody tr').length,
  headings: [...document.querySelectorAll('h2')].map(h => h.textContent),
});
document.body.appendChild(check);
</script>"#;

#[test]
fn the_report_shows_every_table_and_draws_every_chart_in_chromium() {
    let limit = Duration::from_secs(60);
    if let Err(reason) = output_within(Command::new("chromium").arg("--version"), limit) {
        return skip(&format!(
            "chromium is not installed ({reason}); apt-get install chromium"
        ));
    }
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let mut args = vec!["run", "--quiet", "--out", dir];
    args.extend(
        "--scenario sleep,timer --contestant tokio,threads,smol,floor,tokio-current,async-std \
         --tasks 10,100,1000 --delay-ms 50 --step-us 1000 --total-ms 20 --runs 2 --warmup 0 \
         --sample-ms 5 --timeout 60s"
            .split_whitespace(),
    );
    let output = taskbench(&args);
    assert!(
        output.status.success(),
        "taskbench run: {}",
        stderr(&output)
    );
    let page_path = out.path().join("report.html");
    let page = std::fs::read_to_string(&page_path).unwrap();

    // `taskbench report DIR` writes the same page again from results.json alone.
    std::fs::remove_file(&page_path).unwrap();
    let again = taskbench(&["report", dir]);
    assert!(
        again.status.success(),
        "taskbench report: {}",
        stderr(&again)
    );
    assert_eq!(std::fs::read_to_string(&page_path).unwrap(), page);

    let checked = out.path().join("checked.html");
    std::fs::write(
        &checked,
        page.replace("</body>", &format!("{CHECK}</body>")),
    )
    .unwrap();
    for width in [1400, 800] {
        let found = layout(out.path(), &checked, width);
        check_layout(&found, &page);
    }

    let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report.png");
    let shot = chromium(
        out.path(),
        &[
            &format!("--screenshot={}", screenshot.display()),
            "--window-size=1400,3000",
            &url(&page_path),
        ],
    );
    let size = std::fs::metadata(&screenshot).map_or(0, |m| m.len());
    assert!(size > 50_000, "screenshot of {size} bytes: {}", shot.stderr);
    eprintln!("screenshot: {}", screenshot.display());
}

/// The page laid out `width` px wide, as the check script found it.
fn layout(scratch: &Path, page: &Path, width: u32) -> serde_json::Value {
    let size = format!("--window-size={width},3000");
    let dom = chromium(scratch, &[&size, "--dump-dom", &url(page)]).stdout;
    let json = dom
        .split_once(r#"<pre id="check">"#)
        .and_then(|(_, rest)| rest.split_once("</pre>"))
        .map(|(json, _)| json.replace("&quot;", "\"").replace("&amp;", "&"))
        .unwrap_or_else(|| panic!("the check did not run: {dom:.2000}"));
    serde_json::from_str(&json).unwrap()
}

/// What every layout of the page must hold.
fn check_layout(found: &serde_json::Value, page: &str) {
    let at = format!("at {} px", found["width"]);
    // The overview first: the best row, then one row per contestant (floor, the reference,
    // apart under it), one column per point (+ name and mean).
    let overview = &found["overview"];
    assert_eq!(overview["rows"], 1 + 6, "{at}: {overview}");
    assert_eq!(overview["columns"], 4 + 2, "{at}: {overview}");
    assert_eq!(overview["first"], true, "{at}: the overview is not first");
    // No two contestants look alike.
    let looks = found["looks"].as_array().unwrap();
    let mut distinct: Vec<&str> = looks.iter().map(|l| l["look"].as_str().unwrap()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), looks.len(), "{at}: {looks:?}");
    // Nothing wider than the window (wide tables scroll inside their frames), and every
    // legend entry inside its legend.
    assert!(
        found["overflow"].as_f64().unwrap() <= 0.5,
        "{at}: the page overflows by {} px",
        found["overflow"]
    );
    assert_eq!(
        found["legends"],
        serde_json::json!([]),
        "{at}: legends overflow"
    );
    // Four points (sleep ×3, timer), the overviews, the contestants, the sweep's fits.
    assert_eq!(found["tables"], page.matches("<table").count());
    assert!(found["tables"].as_u64().unwrap() >= 8, "{found}");
    assert!(found["rows"].as_u64().unwrap() >= 4 * 6 + 6, "{found}");
    let headings = found["headings"].to_string();
    for title in [
        "sleep · tasks=10 delay-ms=50",
        "sleep · tasks=1000",
        "timer · step-us=1000",
    ] {
        assert!(headings.contains(title), "{title} not in {headings}");
    }
    // Time and RSS per point, the oversleep chart, two sweep charts, every one drawn with
    // its labels inside it and apart; the contestants' markers are not charts.
    let charts: Vec<&serde_json::Value> = found["charts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["width"].as_f64().unwrap() > 20.0)
        .collect();
    let markers = page.matches(r#"<svg class="mark""#).count();
    assert_eq!(charts.len(), page.matches("<svg").count() - markers);
    assert!(charts.len() >= 4 * 2 + 1 + 2, "{found}");
    for chart in charts {
        let number = |key: &str| chart[key].as_f64().unwrap();
        assert!(
            number("width") >= 200.0 && number("height") >= 100.0,
            "{at}: {chart}"
        );
        assert!(
            number("marks") >= 4.0 && number("texts") >= 4.0,
            "{at}: {chart}"
        );
        assert_eq!(
            chart["overlaps"],
            serde_json::json!([]),
            "{at}: labels on top of each other"
        );
        assert_eq!(
            chart["outside"],
            serde_json::json!([]),
            "{at}: labels cut off"
        );
    }
}

fn url(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Runs headless Chromium with a fresh profile, no network use of its own, and a minute
/// to finish; what it printed. Output goes through files: a pipe nobody reads while
/// waiting would fill up with a large DOM and stall it.
fn chromium(scratch: &Path, args: &[&str]) -> Printed {
    let profile = tempfile::tempdir_in(scratch).unwrap();
    let (stdout, stderr) = (profile.path().join("stdout"), profile.path().join("stderr"));
    let mut child = Command::new("chromium")
        .args(super::cdp::HEADLESS)
        .arg(format!(
            "--user-data-dir={}",
            profile.path().join("profile").display()
        ))
        .args(args)
        .stdout(File::create(&stdout).unwrap())
        .stderr(File::create(&stderr).unwrap())
        .process_group(0)
        .spawn()
        .expect("chromium starts");
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            // Its renderers and zygote too: the group, while the leader is unreaped.
            // SAFETY: kill has no memory preconditions.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            child.wait().ok();
            panic!("chromium took over a minute");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let read = |path| String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    let printed = Printed {
        stdout: read(&stdout),
        stderr: read(&stderr),
    };
    assert!(status.success(), "chromium: {}", printed.stderr);
    printed
}

struct Printed {
    stdout: String,
    stderr: String,
}
