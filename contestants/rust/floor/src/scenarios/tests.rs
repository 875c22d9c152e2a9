//! Every scenario, at small sizes and at its zero size, reports the catalogue's checksum.

use super::*;
use crate::executor::block_on;

#[test]
fn every_scenario_reports_the_catalogue_checksum() {
    let cases: &[(&str, &[(&str, u64)])] = &[
        ("spawn", &[("tasks", 100)]),
        ("spawn", &[("tasks", 0)]),
        ("sleep", &[("tasks", 50), ("delay-ms", 2)]),
        ("sleep", &[("tasks", 0), ("delay-ms", 2)]),
        ("timer", &[("step-us", 1_000), ("total-ms", 5)]),
        ("doxbee", &[("requests", 20), ("io-ms", 1)]),
        ("doxbee", &[("requests", 20), ("io-ms", 0)]),
        ("doxbee", &[("requests", 0), ("io-ms", 1)]),
        ("parallel", &[("requests", 10), ("fanout", 5), ("io-ms", 1)]),
        ("parallel", &[("requests", 0), ("fanout", 5), ("io-ms", 1)]),
        ("skynet", &[("size", 1_000)]),
        ("skynet", &[("size", 1)]),
        ("pingpong", &[("pairs", 10), ("rounds", 10)]),
        ("pingpong", &[("pairs", 0), ("rounds", 10)]),
        ("chain", &[("length", 100)]),
        ("chain", &[("length", 1)]),
        ("yield", &[("tasks", 10), ("yields", 10)]),
        ("yield", &[("tasks", 0), ("yields", 10)]),
        (
            "echo",
            &[("connections", 10), ("rounds", 10), ("bytes", 100_000)],
        ),
        ("echo", &[("connections", 0), ("rounds", 10), ("bytes", 64)]),
        ("connections", &[("connections", 100)]),
        ("connections", &[("connections", 0)]),
    ];
    for (name, params) in cases {
        let scenario = Scenario::new(name, params).expect("a valid scenario");
        let outcome = block_on(run(scenario));
        assert_eq!(
            outcome.checksum,
            scenario.checksum(),
            "{}",
            scenario.label()
        );
    }
}

#[test]
fn the_timer_scenario_reports_oversleep() {
    let scenario = Scenario::Timer {
        step_us: 500,
        total_ms: 2,
    };
    let outcome = block_on(run(scenario));
    let names: Vec<&str> = outcome.extra.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        names,
        ["oversleep_p50_ns", "oversleep_p99_ns", "oversleep_max_ns"]
    );
}
