//! The formats other tools read: bencher.dev's Bencher Metric Format (BMF: benchmark →
//! measure → value with its lower and upper bound) and github-action-benchmark's
//! `customSmallerIsBetter` (a list of name, unit, value, range). One benchmark per point
//! and contestant with a valid row; time is the row's headline figure (the overhead where
//! the scenario has an ideal time, else the elapsed), ns, with its 95 % interval; CPU is
//! one measured iteration's process CPU time where the contestant reports it, else the
//! whole process's (a `--command`'s one iteration is its process); with `--instructions`,
//! one iteration's instruction count too, exact.

use super::Results;
use crate::analysis::{CaseSummary, Outcome};
use crate::stats::Summary;
use serde_json::{Map, Value, json};

/// `{"<point> · <contestant>": {"latency": {…}, "cpu": {…}, "peak-rss": {…}}}`.
pub fn bmf(results: &Results) -> String {
    let mut benchmarks = Map::new();
    for (name, row) in rows(results) {
        let mut measures = Map::new();
        // bencher's built-in "latency" measure is in nanoseconds.
        if let Some(time) = row.headline() {
            measures.insert("latency".into(), metric(time));
        }
        if let Some(cpu) = cpu(row) {
            measures.insert("cpu".into(), metric(cpu));
        }
        if let Some(rss) = &row.peak_rss {
            measures.insert("peak-rss".into(), metric(rss));
        }
        // bencher's built-in "instructions" measure: one iteration's count, exact.
        if let Some(count) = instructions(row) {
            measures.insert("instructions".into(), json!({ "value": count }));
        }
        benchmarks.insert(name, Value::Object(measures));
    }
    serde_json::to_string_pretty(&Value::Object(benchmarks)).expect("JSON of numbers")
}

/// `[{"name": "<point> · <contestant> · time", "unit": "ns", "value": …, "range": "±…"}, …]`.
pub fn github_benchmark(results: &Results) -> String {
    let mut entries = Vec::new();
    for (name, row) in rows(results) {
        for (what, unit, summary) in [
            ("time", "ns", row.headline()),
            ("CPU", "ns", cpu(row)),
            ("peak RSS", "bytes", row.peak_rss.as_ref()),
        ] {
            let Some(summary) = summary else { continue };
            let mut entry = json!({
                "name": format!("{name} · {what}"),
                "unit": unit,
                "value": summary.median,
            });
            if let Some(ci) = &summary.median_ci {
                entry["range"] = json!(format!("±{}", (ci.high - ci.low) / 2.0));
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

/// CPU per measured iteration where the contestant reports it, else the whole process's.
fn cpu(row: &CaseSummary) -> Option<&Summary> {
    row.cpu_per_iteration.as_ref().or(row.cpu.as_ref())
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
    fn cpu_is_per_iteration_where_reported_else_the_whole_process() {
        let results = crate::html::tests::results();
        let bmf: Value = serde_json::from_str(&bmf(&results)).unwrap();
        let github: Value = serde_json::from_str(&github_benchmark(&results)).unwrap();
        let mut checked = 0;
        for (name, row) in rows(&results) {
            let expected = match row.contestant.as_str() {
                "tokio" => row.cpu_per_iteration.unwrap().median,
                _ => row.cpu.unwrap().median,
            };
            assert_eq!(bmf[&name]["cpu"]["value"], json!(expected), "{name}");
            let entry = github
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["name"] == format!("{name} · CPU"))
                .unwrap();
            assert_eq!(
                (&entry["value"], &entry["unit"]),
                (&json!(expected), &json!("ns"))
            );
            checked += 1;
        }
        assert_eq!(checked, 10, "two contestants at five points");
    }
}
