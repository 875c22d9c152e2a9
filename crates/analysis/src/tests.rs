//! Summaries from fixed fake runs, checked against figures worked out by hand.

use super::*;
use crate::fake::{record, runs};
use run::Phase;

fn records() -> Vec<RunRecord> {
    use Phase::*;
    let ok = || RunStatus::Ok;
    vec![
        record("a", 0, Idle, ok(), 1, 500),
        record("a", 0, Idle, ok(), 1, 700),
        record("a", 100, WarmUp, ok(), 999, 99_999),
        record("a", 100, Measured, ok(), 30, 1_600),
        record("a", 100, Measured, ok(), 10, 1_400),
        record("a", 100, Measured, ok(), 20, 1_500),
        record(
            "a",
            100,
            Measured,
            RunStatus::WrongChecksum {
                expected: 4950,
                got: 1,
            },
            1,
            1,
        ),
        record("b", 100, Measured, ok(), 40, 2_000),
        record(
            "c",
            100,
            Measured,
            RunStatus::NotImplemented {
                reason: "no".into(),
            },
            0,
            0,
        ),
        record("d", 100, Measured, RunStatus::Crashed { signal: 11 }, 0, 0),
        record("d", 100, Measured, RunStatus::Crashed { signal: 11 }, 0, 0),
    ]
}

#[test]
fn rows_come_best_first_with_ratios() {
    let points = summarize(&records(), &crate::Apart::none());
    assert_eq!(points.len(), 1, "idle and warm-up runs are not points");
    let rows = &points[0].rows;
    let names: Vec<&str> = rows.iter().map(|r| r.contestant.as_str()).collect();
    assert_eq!(names, ["a", "b", "d", "c"]);
    assert_eq!(rows[0].ratio_to_best, Some(1.0));
    assert_eq!(rows[1].ratio_to_best, Some(2.0));
    assert_eq!(
        rows[2].outcome,
        Outcome::Failed {
            status: "crashed (SIGSEGV)".into()
        }
    );
    assert_eq!(
        rows[3].outcome,
        Outcome::NotImplemented {
            reason: "no".into()
        }
    );
}

#[test]
fn a_reference_is_listed_apart_and_never_the_best() {
    // a is the fastest, but a reference (floor): b, the best runtime, is what 1.00 means.
    let points = summarize(&records(), &crate::Apart::references(["a"]));
    let rows = &points[0].rows;
    let names: Vec<&str> = rows.iter().map(|r| r.contestant.as_str()).collect();
    assert_eq!(names, ["a", "b", "d", "c"]);
    assert!(rows[0].reference && !rows[1].reference);
    assert_eq!(rows[1].ratio_to_best, Some(1.0));
    assert_eq!(rows[1].differs_from_best, None, "b is the best");
    assert_eq!(rows[0].ratio_to_best, Some(0.5), "a's ratio is to b");
    assert_eq!(
        rows[0].ratio_ci, None,
        "b has one process: no interval, and no ratio interval either"
    );
    assert_eq!(rows[1].elapsed.unwrap().median_ci, None);
    assert!(rows[0].elapsed.unwrap().median_ci.is_some(), "a has three");
}

#[test]
fn invalid_runs_are_counted_but_never_averaged() {
    let a = &summarize(&records(), &crate::Apart::none())[0].rows[0];
    assert_eq!((a.runs_ok, a.runs), (3, 4));
    let elapsed = a.elapsed.unwrap();
    assert_eq!(
        (elapsed.median, elapsed.min, elapsed.max),
        (20.0, 10.0, 30.0)
    );
    assert_eq!(
        a.problems,
        ["1× invalid checksum: expected 4950, got 1 — boom"]
    );
}

#[test]
fn per_task_figures_are_above_the_idle_footprint() {
    let a = &summarize(&records(), &crate::Apart::none())[0].rows[0];
    assert_eq!(a.idle_rss_bytes, Some(600.0));
    assert_eq!(a.bytes_per_task, Some((1_500.0 - 600.0) / 100.0));
    assert_eq!(a.ns_per_task, Some(20.0 / 100.0));
    let b = &summarize(&records(), &crate::Apart::none())[0].rows[1];
    assert_eq!(b.bytes_per_task, None, "b has no idle runs");
}

#[test]
fn repeated_failures_are_reported_once_with_their_count() {
    let d = &summarize(&records(), &crate::Apart::none())[0].rows[2];
    assert_eq!(d.problems, ["2× crashed (SIGSEGV) — boom"]);
}

/// A record written before a parameter existed lacks it: its row's point has the default,
/// and the row still finds its representative run and its counts by that point.
#[test]
fn a_record_without_a_parameter_is_summarised_at_its_default() {
    let older = |phase: Phase, iterations: u32, instructions: Option<u64>| {
        let mut r = record("a", 10, phase, RunStatus::Ok, 1_000_000, 1_500);
        r.scenario = "sleep".into();
        r.iterations = iterations;
        let figures = r.figures.as_mut().unwrap();
        figures.instructions = instructions;
        figures.counter = instructions.map(|_| "instructions:u".into());
        let sample = |at_us| measure::Sample {
            at_us,
            rss_bytes: 1_500,
            threads: 3,
        };
        figures.timeline = vec![sample(0), sample(100)];
        r
    };
    let runs = vec![
        older(Phase::Measured, 1, None),
        older(Phase::Counted, 1, Some(1_000)),
        older(Phase::Counted, 2, Some(1_600)),
    ];
    let points = summarize(&runs, &Apart::default());
    let row = row(&points, "a");
    assert_eq!(row.point.to_string(), "sleep tasks=10 delay-ms=1000");
    assert!(row.representative(&runs).is_some());
    let counted = row.instructions.as_ref().map(|i| i.iteration);
    assert_eq!(counted, Some(Some(600.0)));
}

fn row<'a>(points: &'a [PointSummary], contestant: &str) -> &'a CaseSummary {
    points[0]
        .rows
        .iter()
        .find(|r| r.contestant == contestant)
        .unwrap()
}

#[test]
fn time_comes_from_the_time_processes_and_memory_from_the_single_iteration_ones() {
    // Three memory processes (1 iteration: 50 ns, RSS 1,000) and two time processes of three
    // iterations (10/11/12 and 20/21/22 ns, RSS 9,999 from holding more iterations' garbage).
    let mut records = runs("a", 100, &[50, 50, 50], 1_000);
    for (run, times) in [(4, [10, 11, 12]), (5, [20, 21, 22])] {
        let mut r = record("a", 100, Phase::Measured, RunStatus::Ok, times[1], 9_999);
        r.run = run;
        r.iterations = 3;
        r.figures.as_mut().unwrap().iterations_ns = times.to_vec();
        records.push(r);
    }
    let points = summarize(&records, &crate::Apart::none());
    let a = row(&points, "a");
    assert_eq!((a.time_runs, a.iterations, a.memory_runs), (2, 3, 3));
    let elapsed = a.elapsed.unwrap();
    // Pooled: 10 11 12 20 21 22 → median 16; the interval resamples the two processes, so
    // it reaches both levels (each one alone with probability 1/4).
    assert_eq!((elapsed.n, elapsed.median), (6, 16.0));
    let ci = elapsed.median_ci.unwrap();
    assert!(ci.low <= 11.0 && ci.high >= 21.0, "{ci:?}");
    assert_eq!(a.peak_rss.unwrap().median, 1_000.0, "memory processes only");
    assert_eq!(a.representative_run, None, "no timeline to show");
}

#[test]
fn cpu_per_iteration_is_summarised_from_the_time_processes_that_report_it() {
    // Two time processes of three iterations: CPU 4/5/6 and 8/9/10 ns; a third process of
    // an older contestant carries no CPU and is left out of that figure only.
    let mut records = Vec::new();
    for (run, cpu) in [(1, vec![4, 5, 6]), (2, vec![8, 9, 10]), (3, Vec::new())] {
        let mut r = record("a", 100, Phase::Measured, RunStatus::Ok, 20, 1);
        r.run = run;
        r.iterations = 3;
        let figures = r.figures.as_mut().unwrap();
        figures.iterations_ns = vec![19, 20, 21];
        figures.iterations_cpu_ns = cpu;
        records.push(r);
    }
    records.extend(runs("b", 100, &[30, 30, 30], 1));
    let points = summarize(&records, &crate::Apart::none());
    let cpu = row(&points, "a").cpu_per_iteration.unwrap();
    // Pooled: 4 5 6 8 9 10 → median 7; the interval resamples the two processes.
    assert_eq!((cpu.n, cpu.median, cpu.min, cpu.max), (6, 7.0, 4.0, 10.0));
    let ci = cpu.median_ci.unwrap();
    assert!(ci.low <= 5.0 && ci.high >= 9.0, "{ci:?}");
    assert_eq!(
        row(&points, "a").elapsed.unwrap().n,
        9,
        "elapsed keeps every process"
    );
    assert!(
        row(&points, "b").cpu_per_iteration.is_none(),
        "no line carried CPU"
    );
}

#[test]
fn significance_is_a_ratio_interval_that_excludes_1() {
    let records = [
        runs("fast", 100, &[100, 110, 120, 105, 115], 1),
        runs("close", 100, &[108, 112, 125, 111, 118], 1),
        runs("slow", 100, &[300, 310, 290, 305, 295], 1),
    ]
    .concat();
    let points = summarize(&records, &crate::Apart::none());
    let fast = row(&points, "fast");
    assert_eq!((fast.ratio_to_best, fast.ratio_ci), (Some(1.0), None));
    assert_eq!(
        fast.differs_from_best, None,
        "the best is not compared with itself"
    );
    // Five runs each: the ratio's interval holds 1 for close, not for slow.
    let close = row(&points, "close");
    assert_eq!(close.differs_from_best, Some(false));
    assert_eq!(close.ratio_to_best, Some(112.0 / 110.0));
    let slow = row(&points, "slow");
    assert_eq!(slow.differs_from_best, Some(true));
    let ci = slow.ratio_ci.unwrap();
    assert!(ci.contains(300.0 / 110.0), "{ci:?}");
    assert!(
        ci.low >= 290.0 / 120.0 && ci.high <= 310.0 / 100.0,
        "{ci:?}"
    );
}

#[test]
fn outliers_are_listed_and_stay_in_the_statistics() {
    let points = summarize(
        &runs("a", 100, &[100, 101, 102, 103, 200], 1),
        &crate::Apart::none(),
    );
    let a = row(&points, "a");
    assert_eq!(a.outliers.len(), 1);
    assert_eq!((a.outliers[0].run, a.outliers[0].elapsed_ns), (5, 200.0));
    let elapsed = a.elapsed.unwrap();
    assert_eq!((elapsed.n, elapsed.max, elapsed.median), (5, 200.0, 102.0));
}

#[test]
fn modes_are_found_written_and_keep_their_processes_from_being_outliers() {
    // tokio's skynet on two vCPUs, µs: nine processes at 3.5–4.7 ms, three at 9.7–10.4 ms.
    let us = [
        3500, 3600, 3700, 3800, 3900, 4000, 4200, 4500, 4700, 9700, 10000, 10400,
    ];
    let elapsed: Vec<u64> = us.iter().map(|u| u * 1_000).collect();
    let points = summarize(&runs("a", 100, &elapsed, 1), &crate::Apart::none());
    let a = row(&points, "a");
    let [fast, slow] = a.elapsed.unwrap().modes.expect("two modes");
    assert_eq!((fast.processes, slow.processes), (9, 3));
    assert_eq!((fast.median, slow.median), (3_900_000.0, 10_000_000.0));
    assert!(a.outliers.is_empty(), "{:?}", a.outliers);
    let json = serde_json::to_value(a).unwrap();
    assert_eq!(json["elapsed"]["modes"][1]["share"], 0.25);
    assert_eq!(json["elapsed"]["modes"][1]["median_ci"]["coverage"], 0.75);
    assert!(json["elapsed"]["modes"][0]["median_ci"]["low"].is_number());
    // One group: no `modes` key, as results written before them.
    let points = summarize(
        &runs("b", 100, &[100, 101, 102, 103, 104, 105], 1),
        &crate::Apart::none(),
    );
    let json = serde_json::to_value(row(&points, "b")).unwrap();
    assert!(json["elapsed"].get("modes").is_none(), "{json}");
    assert!(
        json["elapsed"]["median_ci"].get("coverage").is_none(),
        "six: 95 %"
    );
}

#[test]
fn a_slow_first_run_and_noisy_runs_are_warned_about() {
    let records = [
        runs("cold", 100, &[300, 100, 110, 100, 120], 1),
        runs("noisy", 100, &[100, 200, 150, 100, 190], 1),
        runs("steady", 100, &[100, 101, 102, 100, 101], 1),
    ]
    .concat();
    let points = summarize(&records, &crate::Apart::none());
    let found = warnings(&points, &records, Some(0.02), None);
    assert_eq!(
        found[0],
        Warning::FirstRunSlower {
            point: "spawn tasks=100".parse().unwrap(),
            cases: vec![FirstRun {
                contestant: "cold".into(),
                first_ns: 300.0,
                rest_median_ns: 105.0,
            }],
        }
    );
    let Warning::Imprecise { cases, target, .. } = &found[1] else {
        panic!("{found:?}");
    };
    // Five processes: each interval is about the range. cold 100–300 and noisy 100–200 are
    // far wider than ±2 % of their medians; steady's 100–102 is ±1 %.
    let names: Vec<&str> = cases.iter().map(|c| c.contestant.as_str()).collect();
    assert_eq!((names, *target), (vec!["cold", "noisy"], 0.02));
    assert!(cases[1].precision > 0.25, "{cases:?}");
    assert_eq!(found.len(), 2, "one line per point and kind");
}

#[test]
fn a_first_run_within_the_range_of_the_rest_is_not_warned_about() {
    let records = runs("a", 100, &[200, 100, 210, 100, 100], 1);
    let points = summarize(&records, &crate::Apart::none());
    let found = warnings(&points, &records, None, None);
    assert!(
        !found
            .iter()
            .any(|w| matches!(w, Warning::FirstRunSlower { .. })),
        "{found:?}"
    );
}

#[test]
fn a_busy_or_stolen_machine_is_warned_about() {
    use measure::machine::{CpuShares, MachineLoad};
    let machine = |load_start: f64, others: f64, steal: f64| MachineLoad {
        cores: 2,
        load_start,
        load_during: Vec::new(),
        load_end: load_start,
        cpu: Some(CpuShares {
            ours: 0.3,
            others,
            steal,
            idle: 0.7 - others - steal,
        }),
        condition: None,
    };
    let quiet = machine(0.2, 0.05, 0.0);
    assert!(warnings(&[], &[], None, Some(&quiet)).is_empty());
    // A high load average that other processes' CPU time does not bear out is the lag of
    // the 1-minute average (our own builds, the run before): no warning.
    let lagging = machine(1.5, 0.05, 0.0);
    assert!(warnings(&[], &[], None, Some(&lagging)).is_empty());
    // Without /proc/stat the load average is all there is.
    let loaded = MachineLoad {
        cpu: None,
        ..machine(1.5, 0.0, 0.0)
    };
    assert!(matches!(
        warnings(&[], &[], None, Some(&loaded))[..],
        [Warning::BusyMachine {
            load_start: 1.5,
            ..
        }]
    ));
    let shared = machine(0.2, 0.3, 0.02);
    assert_eq!(
        warnings(&[], &[], None, Some(&shared)),
        [
            Warning::BusyMachine {
                cores: 2,
                load_start: 0.2,
                load_max: 0.2,
                others_share: Some(0.3)
            },
            Warning::CpuSteal { share: 0.02 }
        ]
    );
}

#[test]
fn the_overview_orders_rows_by_the_geometric_mean_of_their_ratios() {
    use super::overview::{Cell, Overview, Quantity};
    // At 10 tasks a: 1×, b: 2×; at 20 tasks a: 4×, b: 1×, c: 3×. Means: b √2, a 2, c 3.
    let mut records = Vec::new();
    records.extend(runs("a", 10, &[100, 100, 100], 1_000));
    records.extend(runs("b", 10, &[200, 200, 200], 4_000));
    records.extend(runs("a", 20, &[400, 400, 400], 1_000));
    records.extend(runs("b", 20, &[100, 100, 100], 2_000));
    records.extend(runs("c", 20, &[300, 300, 300], 500));
    let points = summarize(&records, &crate::Apart::none());
    let time = Overview::of(&points, Quantity::Time);
    let names: Vec<&str> = time.rows.iter().map(|r| r.contestant.as_str()).collect();
    assert_eq!(names, ["b", "a", "c"]);
    let mean = |i: usize| time.rows[i].mean_ratio.unwrap();
    assert!((mean(0) - 2f64.sqrt()).abs() < 1e-9, "{}", mean(0));
    assert!((mean(1) - 2.0).abs() < 1e-9 && (mean(2) - 3.0).abs() < 1e-9);
    assert_eq!(
        time.rows[2].cells[0],
        Cell::Absent,
        "c did not run 10 tasks"
    );
    let Cell::Figure { ratio, value, .. } = &time.rows[1].cells[1] else {
        panic!("{:?}", time.rows[1]);
    };
    assert_eq!((*ratio, *value), (4.0, 400.0));
    assert_eq!(time.columns[1].measure, "elapsed");
    // Peak RSS: a's 1,000 B is the best at 10 tasks, c's 500 B at 20: c's mean is over the
    // one point it ran (1), a's over two (1 and 2: √2), b's 4. c ran fewer points, so it
    // ranks after the rows that ran both, however good its one figure (issue 24: rayon's
    // 3 of 9 points ranked second).
    let memory = Overview::of(&points, Quantity::PeakRss);
    let names: Vec<&str> = memory.rows.iter().map(|r| r.contestant.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"], "{memory:?}");
    assert_eq!(memory.columns[0].measure, "peak RSS");
    assert_eq!(
        memory.columns[0].best,
        Some(1_000.0),
        "what 1.00 stands for"
    );
    assert_eq!(memory.columns[1].best, Some(500.0));
    assert_eq!(time.columns[1].best, Some(100.0));
}

#[test]
fn a_row_with_fewer_points_never_outranks_the_rows_with_all() {
    use super::overview::{Overview, Quantity};
    // full-a: 2× and 2×; full-b: 1× and 3× (mean √3 ≈ 1.73); partial ran only the third
    // point, where it is the best (1×), and none of the first two.
    let mut records = Vec::new();
    for (tasks, a, b) in [(10, 200, 100), (20, 200, 300)] {
        records.extend(runs("full-a", tasks, &[a, a, a], 1_000));
        records.extend(runs("full-b", tasks, &[b, b, b], 1_000));
    }
    records.extend(runs("full-a", 30, &[500, 500, 500], 1_000));
    records.extend(runs("full-b", 30, &[500, 500, 500], 1_000));
    records.extend(runs("partial", 30, &[250, 250, 250], 1_000));
    records.extend(runs("two", 10, &[150, 150, 150], 1_000));
    records.extend(runs("two", 30, &[250, 250, 250], 1_000));
    let points = summarize(&records, &crate::Apart::none());
    let time = Overview::of(&points, Quantity::Time);
    let ranked: Vec<(&str, usize)> = time
        .rows
        .iter()
        .map(|r| (r.contestant.as_str(), r.figures))
        .collect();
    assert_eq!(
        ranked,
        [("full-b", 3), ("full-a", 3), ("two", 2), ("partial", 1)],
        "{time:?}"
    );
    assert!(
        time.rows[3].mean_ratio.unwrap() < time.rows[0].mean_ratio.unwrap(),
        "partial's mean is the best, and it still ranks last"
    );
}

#[test]
fn the_cpu_overview_compares_cpu_per_iteration_where_rows_report_it() {
    use super::overview::{Cell, Overview, Quantity};
    // a: CPU 30 ns per iteration, b: 60 ns, c: none reported, d: 0 ns (below its clock's
    // resolution, so not the best).
    let mut records = Vec::new();
    for (name, cpu) in [
        ("a", Some(30)),
        ("b", Some(60)),
        ("c", None),
        ("d", Some(0)),
    ] {
        for mut r in runs(name, 10, &[100, 100, 100], 1) {
            let figures = r.figures.as_mut().unwrap();
            figures.iterations_cpu_ns = cpu.map(|c| vec![c]).unwrap_or_default();
            records.push(r);
        }
    }
    let points = summarize(&records, &crate::Apart::none());
    let cpu = Overview::of(&points, Quantity::CpuPerIteration);
    assert!(cpu.has_figures());
    assert_eq!(cpu.columns[0].measure, "CPU/iteration");
    let cell = |name: &str| {
        let row = cpu.rows.iter().find(|r| r.contestant == name).unwrap();
        row.cells[0].clone()
    };
    let Cell::Figure { ratio, value, .. } = cell("b") else {
        panic!("{:?}", cell("b"));
    };
    assert_eq!((ratio, value), (2.0, 60.0));
    assert!(matches!(cell("a"), Cell::Figure { ratio, .. } if ratio == 1.0));
    assert_eq!(cell("c"), Cell::Status("–".into()));
    assert!(matches!(cell("d"), Cell::Figure { ratio, .. } if ratio == 0.0));
    let without = summarize(&runs("e", 10, &[100], 1), &crate::Apart::none());
    assert!(!Overview::of(&without, Quantity::CpuPerIteration).has_figures());
}

#[test]
fn the_overview_sets_the_reference_apart_and_never_ranks_it() {
    use super::overview::{Cell, Overview, Quantity};
    // floor is the fastest at both points (50 and 100), but a reference: a (100, 200) is the
    // best runtime at 10 tasks, b (300, 150) at 20; floor's cells are against them.
    let mut records = Vec::new();
    for (tasks, floor, a, b) in [(10, 50, 100, 300), (20, 100, 200, 150)] {
        records.extend(runs("floor", tasks, &[floor, floor, floor], 500));
        records.extend(runs("a", tasks, &[a, a, a], 1_000));
        records.extend(runs("b", tasks, &[b, b, b], 2_000));
    }
    let points = summarize(&records, &crate::Apart::references(["floor"]));
    for quantity in [Quantity::Time, Quantity::PeakRss] {
        let overview = Overview::of(&points, quantity);
        let ranked: Vec<&str> = overview
            .rows
            .iter()
            .map(|r| r.contestant.as_str())
            .collect();
        assert!(!ranked.contains(&"floor"), "{ranked:?}");
        assert_eq!(overview.references.len(), 1);
        assert_eq!(overview.references[0].contestant, "floor");
    }
    let time = Overview::of(&points, Quantity::Time);
    assert_eq!(
        time.columns[0].best,
        Some(100.0),
        "floor's 50 is never the best"
    );
    assert_eq!(time.columns[1].best, Some(150.0));
    let ratios: Vec<f64> = time.references[0]
        .cells
        .iter()
        .map(|c| match c {
            Cell::Figure { ratio, .. } => *ratio,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(ratios[0], 0.5);
    assert!((ratios[1] - 100.0 / 150.0).abs() < 1e-9);
    let memory = Overview::of(&points, Quantity::PeakRss);
    assert_eq!(memory.columns[0].best, Some(1_000.0));
}

#[test]
fn an_inline_cell_is_read_against_the_best_runtime_and_ranked_apart() {
    use super::overview::{Cell, Overview, Quantity};
    // j runs its tasks inline and is the fastest at both points; a and b went through
    // their schedulers: a is the best at both, and j's mean counts none of its cells.
    let mut records = Vec::new();
    for tasks in [10, 20] {
        records.extend(runs("j", tasks, &[40, 40, 40], 1_000));
        records.extend(runs("a", tasks, &[100, 100, 100], 1_000));
        records.extend(runs("b", tasks, &[200, 200, 200], 1_000));
    }
    let apart = crate::Apart {
        references: Vec::new(),
        inline: vec![("j".into(), records[0].scenario.clone())],
    };
    let points = summarize(&records, &apart);
    let order: Vec<&str> = points[0]
        .rows
        .iter()
        .map(|r| r.contestant.as_str())
        .collect();
    assert_eq!(order, ["a", "b", "j"], "inline after the runtimes");
    assert!(points[0].rows[2].inline && !points[0].rows[0].inline);
    assert_eq!(points[0].rows[2].ratio_to_best, Some(0.4));
    let time = Overview::of(&points, Quantity::Time);
    assert_eq!(
        time.columns[0].best,
        Some(100.0),
        "j's 40 is never the best"
    );
    let j = time.rows.iter().find(|r| r.contestant == "j").unwrap();
    assert!(matches!(j.cells[0], Cell::Figure { inline: true, ratio, .. } if ratio == 0.4));
    assert_eq!(
        (j.mean_ratio, j.figures),
        (None, 0),
        "outside its row's mean"
    );
    assert_eq!(time.rows[0].contestant, "a");
}

/// Two counted processes one iteration apart (as the runner makes them:
/// run/runner/tests.rs) give a process's, an iteration's and a task's instructions; the
/// time statistics count the measured processes alone.
#[test]
fn counted_processes_give_instructions_per_iteration_and_task_and_no_time() {
    let counted = |iterations: u32, instructions: u64| {
        let mut r = record("a", 100, Phase::Counted, RunStatus::Ok, 9_000_000, 1_500);
        r.iterations = iterations;
        let figures = r.figures.as_mut().unwrap();
        figures.instructions = Some(instructions);
        figures.counter = Some("fake counter".into());
        r
    };
    let mut all = runs("a", 100, &[1_000, 1_100], 1_500);
    all.extend([counted(1, 1_000_000), counted(2, 1_500_000)]);
    all.extend(runs("b", 100, &[2_000, 2_100], 1_500));
    let points = summarize(&all, &Apart::none());
    let a = row(&points, "a");
    let counts = a.instructions.as_ref().unwrap();
    assert_eq!(
        (counts.process, counts.iteration, counts.per_task),
        (Some(1_000_000), Some(500_000.0), Some(5_000.0))
    );
    assert_eq!(a.runs, 2, "counted processes are not measured ones");
    assert!(row(&points, "b").instructions.is_none());
}

/// A case the budget ended before any time process (its memory process valid) says what a
/// steady state would have needed, as the runner's stop reason gives it.
#[test]
fn a_case_stopped_before_a_steady_state_says_what_it_needs() {
    let mut memory = record("a", 10, Phase::Measured, RunStatus::Ok, 1_000, 1_500);
    memory.timed = Some(false);
    memory.stop = Some(StopReason::NotSteady { needs_ms: 4_000 });
    let points = summarize(&[memory], &Apart::none());
    let label = row(&points, "a").status_label().unwrap();
    assert!(
        label.starts_with("steady state not reached: needs ~"),
        "{label}"
    );
}
