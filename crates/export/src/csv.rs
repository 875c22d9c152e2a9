//! One tidy CSV row per run: every parameter of the catalogue a column, every figure a column.

use run::{Figures, RunRecord};

/// A figure's column: its header and its text in a run's row.
type FigureColumn = (&'static str, fn(&Figures) -> String);

/// The figure columns, in order; a run without figures leaves each empty.
const FIGURE_COLUMNS: &[FigureColumn] = &[
    ("elapsed_ns", |f| text(f.elapsed_ns)),
    ("cold_ns", |f| text(f.warm_up_ns.first())),
    ("ideal_ns", |f| f.ideal_ns.to_string()),
    ("overhead_ns", |f| text(f.overhead_ns)),
    ("wall_ns", |f| f.wall_ns.to_string()),
    ("user_ns", |f| f.user_ns.to_string()),
    ("sys_ns", |f| f.sys_ns.to_string()),
    ("cpu_ns", |f| f.cpu_ns.to_string()),
    ("cpu_per_iteration_ns", |f| text(f.cpu_per_iteration_ns())),
    ("peak_rss_bytes", |f| f.peak_rss_bytes.to_string()),
    ("peak_threads", |f| f.peak_threads.to_string()),
    ("voluntary_switches", |f| f.voluntary_switches.to_string()),
    ("involuntary_switches", |f| {
        f.involuntary_switches.to_string()
    }),
    ("checksum", |f| text(f.checksum)),
    ("expected_checksum", |f| text(f.expected_checksum)),
    ("sampler_cpu_ns", |f| f.sampler_cpu_ns.to_string()),
    ("instructions", |f| text(f.instructions)),
    ("counter", |f| f.counter.clone().unwrap_or_default()),
];

/// A figure that may be missing, as text (empty when it is).
fn text<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(String::new, |v| v.to_string())
}

/// The CSV text of `runs`.
pub(crate) fn write_csv(runs: &[RunRecord]) -> anyhow::Result<Vec<u8>> {
    let mut params: Vec<&str> = Vec::new();
    for spec in catalogue::SCENARIOS {
        for p in spec.params {
            if !params.contains(&p.name) {
                params.push(p.name);
            }
        }
    }
    let mut out = ::csv::Writer::from_writer(Vec::new());
    let mut header: Vec<&str> = vec!["contestant", "scenario"];
    header.extend(&params);
    header.extend([
        "inner_warmup",
        "phase",
        "run",
        "iterations",
        "timed",
        "status",
        "detail",
    ]);
    header.extend(FIGURE_COLUMNS.iter().map(|(name, _)| *name));
    out.write_record(&header)?;
    for run in runs {
        let mut row: Vec<String> = vec![run.contestant.clone(), run.scenario.clone()];
        row.extend(params.iter().map(|p| text(run.params.get(*p))));
        let detail = match run.status.to_string() {
            d if d == run.status.label() => String::new(),
            d => d,
        };
        row.extend([
            run.inner_warm_up.to_string(),
            serde_json::to_value(run.phase)?
                .as_str()
                .unwrap_or_default()
                .to_string(),
            run.run.to_string(),
            run.iterations.to_string(),
            text(run.timed),
            run.status.label(),
            detail,
        ]);
        row.extend(
            FIGURE_COLUMNS
                .iter()
                .map(|(_, figure)| run.figures.as_ref().map(figure).unwrap_or_default()),
        );
        out.write_record(&row)?;
    }
    Ok(out.into_inner()?)
}

#[cfg(test)]
mod tests {
    use super::write_csv;

    #[test]
    fn cpu_per_iteration_is_a_column_empty_where_the_lines_did_not_carry_it() {
        let runs = results::fake::results().runs;
        let text = String::from_utf8(write_csv(&runs).unwrap()).unwrap();
        let mut reader = ::csv::Reader::from_reader(text.as_bytes());
        let headers = reader.headers().unwrap().clone();
        let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
        let (contestant, elapsed, cpu) = (
            column("contestant"),
            column("elapsed_ns"),
            column("cpu_per_iteration_ns"),
        );
        let rows: Vec<::csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), runs.len());
        for row in rows {
            // The fake runs: tokio's one iteration used half its elapsed in CPU; threads'
            // lines carried none.
            let expected = match &row[contestant] {
                "tokio" => (row[elapsed].parse::<u64>().unwrap() / 2).to_string(),
                _ => String::new(),
            };
            assert_eq!(row[cpu], expected, "{row:?}");
        }
    }
}
