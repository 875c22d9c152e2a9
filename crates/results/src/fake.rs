//! The shared test fixture of the crates above the results (`test-support`): one small
//! results document, made from fixed fake records, which the exports, the report, the page
//! and the store are each tested against.

use crate::{Results, SCHEMA};
use analysis::fits::fits;
use analysis::{Warning, summarize};
use contestant::ContestantInfo;
use measure::Platform;
use measure::Sample;
use run::{Figures, Phase, RunRecord, RunStatus};
use std::collections::BTreeMap;

fn record(
    contestant: &str,
    scenario: &str,
    params: &[(&str, u64)],
    run: u32,
    scale: u64,
) -> RunRecord {
    let extra = match scenario {
        "timer" => BTreeMap::from([
            ("oversleep_p50_ns".into(), 60e3 * scale as f64),
            ("oversleep_p99_ns".into(), 900e3),
            ("oversleep_max_ns".into(), 2e6),
        ]),
        _ => BTreeMap::new(),
    };
    let elapsed = 1_000_000 * scale + 10_000 * u64::from(run);
    RunRecord {
        machine: None,
        contestant: contestant.into(),
        scenario: scenario.into(),
        params: params.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        inner_warm_up: 0,
        timed: None,
        phase: Phase::Measured,
        run,
        iterations: 1,
        stop: None,
        status: RunStatus::Ok,
        figures: Some(Figures {
            elapsed_ns: Some(elapsed),
            iterations_ns: vec![elapsed],
            // tokio's lines carry CPU per iteration, threads' do not (an older contestant).
            iterations_cpu_ns: if contestant == "tokio" {
                vec![elapsed / 2]
            } else {
                Vec::new()
            },
            warm_up_ns: Vec::new(),
            ideal_ns: 0,
            overhead_ns: Some(elapsed as i64),
            wall_ns: elapsed * 2,
            user_ns: elapsed,
            sys_ns: 0,
            cpu_ns: elapsed,
            peak_rss_bytes: (2 << 20) * scale + 4096 * u64::from(run),
            peak_threads: 2,
            voluntary_switches: 0,
            involuntary_switches: 0,
            checksum: None,
            expected_checksum: None,
            extra,
            sampler_cpu_ns: 0,
            stderr_tail: String::new(),
            instructions: None,
            counter: None,
            timeline: (0..20)
                .map(|i| Sample {
                    at_us: i * 5_000,
                    rss_bytes: (1 << 20) * (1 + i * scale),
                    threads: 2,
                })
                .collect(),
        }),
    }
}

/// Three runs of tokio and threads over spawn, sleep and timer points, summarized, with an
/// unavailable contestant and a warning: the document every stage after the run is tested on.
pub fn results() -> Results {
    let mut runs = Vec::new();
    for run in 1..=3 {
        for (contestant, scale) in [("tokio", 1), ("threads", 3)] {
            for tasks in [10, 100, 1000] {
                let size = scale * (1 + tasks / 100);
                runs.push(record(contestant, "spawn", &[("tasks", tasks)], run, size));
            }
            runs.push(record(
                contestant,
                "sleep",
                &[("tasks", 10_000), ("delay-ms", 0)],
                run,
                scale,
            ));
            runs.push(record(
                contestant,
                "timer",
                &[("step-us", 1_000), ("total-ms", 200)],
                run,
                scale,
            ));
        }
    }
    let points = summarize(&runs, &analysis::Apart::none());
    Results {
        schema: SCHEMA.into(),
        interrupted: false,
        command: [
            "taskbench",
            "run",
            "--scenario",
            "spawn",
            "--command",
            "it's",
        ]
        .map(String::from)
        .to_vec(),
        platform: Platform::probe(env!("CARGO_PKG_VERSION")),
        seed: None,
        stopping: None,
        contestants: vec![
            info("tokio", None),
            info("threads", None),
            info("go", Some("`go` not found: install Go")),
        ],
        fits: fits(&points),
        releases: Vec::new(),
        warnings: vec![Warning::CpuSteal { share: 0.05 }],
        points,
        runs,
        machine: None,
        machines: Vec::new(),
        budget: None,
    }
}

/// The fixture's Rust toolchain and its age.
pub fn rust_toolchain() -> contestant::ToolchainAge {
    contestant::ToolchainAge {
        id: "rust".into(),
        name: "Rust".into(),
        runs: "1.95.0".into(),
        via: "rustup".into(),
        newest: ">= 1.99.0".into(),
        source: "crates.io's cargo".into(),
        checked: "2026-12-05".into(),
    }
}

fn info(name: &str, unavailable: Option<&str>) -> ContestantInfo {
    ContestantInfo {
        name: name.into(),
        language: "Rust".into(),
        runtime: name.into(),
        version: "1.0".into(),
        unavailable: unavailable.map(String::from),
        cpus: None,
        build_flags: Some("cargo --release".into()),
        toolchains: vec![rust_toolchain()],
        warm_up: Some(contestant::WarmUpTable::common().describe()),
        fairness: Some(contestant::fairness_entry(name)),
        reference: false,
        inline: Vec::new(),
    }
}
