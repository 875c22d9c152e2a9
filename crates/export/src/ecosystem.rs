//! The formats other tools read: bencher.dev's Bencher Metric Format (BMF: benchmark →
//! measure → value with its lower and upper bound) and github-action-benchmark's
//! `customSmallerIsBetter` (a list of name, unit, value, range, extra). One benchmark per
//! point and contestant with a valid row; time is the row's headline figure (the overhead
//! where the scenario has an ideal time, else the elapsed), ns, with its 95 % interval; CPU
//! is one measured iteration's process CPU time where the contestant reports it, else the
//! whole process's (start-up and warm-up included), each under its own name; with
//! `--instructions`, one iteration's instruction count too, exact. docs/EXPORTS.md says
//! how bencher is told of the measures that are not its own.

use super::Results;
use analysis::{CaseSummary, Outcome};
use serde_json::{Map, Value, json};
use stats::Summary;

/// A measure of BMF with its github-action-benchmark name and unit.
struct Measure {
    /// BMF's measure slug: `latency`, `cpu-per-iteration` …
    slug: &'static str,
    /// The last part of github-action-benchmark's entry name.
    name: &'static str,
    unit: &'static str,
}

/// bencher's built-in latency, in nanoseconds.
const LATENCY: Measure = Measure {
    slug: "latency",
    name: "time",
    unit: "ns",
};
/// One measured iteration's process CPU time (user + sys, every thread).
const CPU_PER_ITERATION: Measure = Measure {
    slug: "cpu-per-iteration",
    name: "CPU per iteration",
    unit: "ns",
};
/// A whole process's CPU time, where the contestant does not report it per iteration.
const PROCESS_CPU: Measure = Measure {
    slug: "process-cpu",
    name: "process CPU",
    unit: "ns",
};
/// The cold start: a fresh process's first iteration (its overhead where there is an
/// ideal time), as `latency` is the steady state.
const COLD_START: Measure = Measure {
    slug: "cold-start",
    name: "cold start",
    unit: "ns",
};
const PEAK_RSS: Measure = Measure {
    slug: "peak-rss",
    name: "peak RSS",
    unit: "bytes",
};

/// A row's measured figures, each with its measure.
fn figures(row: &CaseSummary) -> impl Iterator<Item = (&'static Measure, &Summary)> {
    let cpu = match (&row.cpu_per_iteration, &row.cpu) {
        (Some(per_iteration), _) => Some((&CPU_PER_ITERATION, per_iteration)),
        (None, Some(process)) => Some((&PROCESS_CPU, process)),
        (None, None) => None,
    };
    [
        row.headline().map(|time| (&LATENCY, time)),
        row.cold_headline().map(|cold| (&COLD_START, cold)),
        cpu,
        row.peak_rss.as_ref().map(|rss| (&PEAK_RSS, rss)),
    ]
    .into_iter()
    .flatten()
}

/// `{"<point> · <contestant>": {"latency": {…}, "cpu-per-iteration": {…}, "peak-rss": {…}}}`.
pub(crate) fn bmf(results: &Results) -> String {
    let mut benchmarks = Map::new();
    for (name, row) in rows(results) {
        let mut measures = Map::new();
        for (measure, summary) in figures(row) {
            measures.insert(measure.slug.into(), metric(summary));
        }
        // One iteration's count, exact: no bounds.
        if let Some(count) = instructions(row) {
            measures.insert("instructions".into(), json!({ "value": count }));
        }
        benchmarks.insert(name, Value::Object(measures));
    }
    serde_json::to_string_pretty(&Value::Object(benchmarks)).expect("JSON of numbers")
}

/// `[{"name": "<point> · <contestant> · time", "unit": "ns", "value": …, "range": "±…",
/// "extra": "95 % interval of the median: … – … ns"}, …]`.
pub(crate) fn github_benchmark(results: &Results) -> String {
    let mut entries = Vec::new();
    for (name, row) in rows(results) {
        for (measure, summary) in figures(row) {
            let mut entry = json!({
                "name": format!("{name} · {}", measure.name),
                "unit": measure.unit,
                "value": summary.median,
            });
            if let Some(ci) = &summary.median_ci {
                entry["range"] = json!(range(summary.median, ci.low, ci.high));
                entry["extra"] = json!(format!(
                    "95 % interval of the median: {} – {} {}",
                    ci.low, ci.high, measure.unit
                ));
            }
            entries.push(entry);
        }
        if let Some(count) = instructions(row) {
            entries.push(json!({
                "name": format!("{name} · instructions"),
                "unit": "instructions",
                "value": count,
            }));
        }
    }
    serde_json::to_string_pretty(&entries).expect("JSON of numbers")
}

/// `±…`: the larger of the interval's two sides about the median, so that the symmetric
/// range github-action-benchmark shows takes in the whole interval and never claims more
/// precision than it has (the real bounds are in `extra`). One decimal, as the action's
/// parsing of a range wants two characters or more after the `±`.
fn range(median: f64, low: f64, high: f64) -> String {
    format!("±{:.1}", (high - median).max(median - low))
}

/// One iteration's instructions, where the run counted them.
fn instructions(row: &CaseSummary) -> Option<f64> {
    row.instructions.as_ref()?.iteration
}

/// Each valid row with its benchmark name.
fn rows(results: &Results) -> impl Iterator<Item = (String, &CaseSummary)> {
    results.points.iter().flat_map(|point| {
        point
            .rows
            .iter()
            .filter(|row| row.outcome == Outcome::Valid)
            .map(move |row| (format!("{} · {}", point.point, row.contestant), row))
    })
}

fn metric(summary: &Summary) -> Value {
    let mut value = json!({ "value": summary.median });
    if let Some(ci) = &summary.median_ci {
        value["lower_value"] = json!(ci.low);
        value["upper_value"] = json!(ci.high);
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_is_named_per_iteration_where_reported_else_the_whole_process() {
        let results = results::fake::results();
        let bmf: Value = serde_json::from_str(&bmf(&results)).unwrap();
        let github: Value = serde_json::from_str(&github_benchmark(&results)).unwrap();
        let mut checked = 0;
        for (name, row) in rows(&results) {
            let (slug, entry_name, expected) = match row.contestant.as_str() {
                "tokio" => (
                    "cpu-per-iteration",
                    "CPU per iteration",
                    row.cpu_per_iteration.unwrap().median,
                ),
                _ => ("process-cpu", "process CPU", row.cpu.unwrap().median),
            };
            assert_eq!(bmf[&name][slug]["value"], json!(expected), "{name}");
            let other = ["cpu-per-iteration", "process-cpu", "cpu"]
                .into_iter()
                .filter(|s| *s != slug);
            for absent in other {
                assert!(bmf[&name].get(absent).is_none(), "{name}: {absent}");
            }
            let entry = github
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["name"] == format!("{name} · {entry_name}"))
                .unwrap();
            assert_eq!(
                (&entry["value"], &entry["unit"]),
                (&json!(expected), &json!("ns"))
            );
            checked += 1;
        }
        assert_eq!(checked, 10, "two contestants at five points");
    }

    #[test]
    fn an_asymmetric_interval_keeps_its_bounds_and_a_range_that_covers_it() {
        // smol's figures of issue 26: 521,112 ns in 510,802–1,681,160.
        assert_eq!(range(521_112.0, 510_802.0, 1_681_160.0), "±1160048.0");
        assert_eq!(range(100.0, 90.0, 104.0), "±10.0");
        let results = results::fake::results();
        let github: Value = serde_json::from_str(&github_benchmark(&results)).unwrap();
        let (name, row) = rows(&results).next().unwrap();
        let time = row.headline().unwrap();
        let ci = time.median_ci.unwrap();
        let entry = github
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == format!("{name} · time"))
            .unwrap();
        assert_eq!(
            entry["extra"],
            json!(format!(
                "95 % interval of the median: {} – {} ns",
                ci.low, ci.high
            ))
        );
        assert_eq!(entry["range"], json!(range(time.median, ci.low, ci.high)));
    }
}
