//! One tidy CSV row per run: every parameter of the catalogue a column, every figure a column.

use crate::run::RunRecord;

/// The CSV text of `runs`.
pub fn write_csv(runs: &[RunRecord]) -> anyhow::Result<Vec<u8>> {
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
        "status",
        "detail",
        "elapsed_ns",
        "ideal_ns",
        "overhead_ns",
        "wall_ns",
        "user_ns",
        "sys_ns",
        "cpu_ns",
        "peak_rss_bytes",
        "peak_threads",
        "voluntary_switches",
        "involuntary_switches",
        "checksum",
        "expected_checksum",
        "sampler_cpu_ns",
        "instructions",
        "counter",
    ]);
    out.write_record(&header)?;
    let opt = |v: Option<String>| v.unwrap_or_default();
    for run in runs {
        let mut row: Vec<String> = vec![run.contestant.clone(), run.scenario.clone()];
        row.extend(
            params
                .iter()
                .map(|p| opt(run.params.get(*p).map(u64::to_string))),
        );
        let detail = match run.status.to_string() {
            d if d == run.status.label() => String::new(),
            d => d,
        };
        row.extend([
            run.inner_warmup.to_string(),
            serde_json::to_value(run.phase)?
                .as_str()
                .unwrap_or_default()
                .to_string(),
            run.run.to_string(),
            run.iterations.to_string(),
            run.status.label(),
            detail,
        ]);
        match &run.figures {
            Some(f) => row.extend([
                opt(f.elapsed_ns.map(|v| v.to_string())),
                f.ideal_ns.to_string(),
                opt(f.overhead_ns.map(|v| v.to_string())),
                f.wall_ns.to_string(),
                f.user_ns.to_string(),
                f.sys_ns.to_string(),
                f.cpu_ns.to_string(),
                f.peak_rss_bytes.to_string(),
                f.peak_threads.to_string(),
                f.voluntary_switches.to_string(),
                f.involuntary_switches.to_string(),
                opt(f.checksum.map(|v| v.to_string())),
                opt(f.expected_checksum.map(|v| v.to_string())),
                f.sampler_cpu_ns.to_string(),
                opt(f.instructions.map(|v| v.to_string())),
                opt(f.counter.clone()),
            ]),
            None => row.extend(std::iter::repeat_n(String::new(), 16)),
        }
        out.write_record(&row)?;
    }
    Ok(out.into_inner()?)
}
