//! Each row's warm-up rule reaches results.json, and a runtime's measured minimum is what
//! its time processes ran (issue 25 item 3): `fixture-jit` is the honest fixture under the
//! JVM's minimum, `fixture-honest` under the common rule.

use super::util::{measured, run_fixtures};
use taskbench::run::warm_up::{describe, lookup};

#[test]
fn results_state_each_rows_warm_up_and_time_processes_follow_it() {
    let (_out, results) = run_fixtures(&[
        "--contestant",
        "fixture-honest,fixture-jit",
        "--scenario",
        "spawn",
        "--tasks",
        "10",
        "--runs",
        "4",
        "--warmup",
        "0",
    ]);
    let jvm = lookup("jvm").unwrap();
    let rule = |name: &str| {
        results["contestants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .map(|c| c["warm_up"].as_str().unwrap().to_string())
    };
    assert_eq!(rule("fixture-honest"), Some(describe(None)));
    assert_eq!(rule("fixture-jit"), Some(describe(Some(jvm))));
    for (name, minimum) in [("fixture-honest", 0), ("fixture-jit", jvm.iterations)] {
        let runs = measured(&results, name);
        assert!(
            runs.iter().any(|r| r["iterations"].as_u64() > Some(1)),
            "{name}: no time process"
        );
        for run in runs {
            let iterations = run["iterations"].as_u64().unwrap();
            let expected = match iterations {
                1 => 1,
                m => 1 + m.max(u64::from(minimum)),
            };
            assert_eq!(
                run["inner_warmup"].as_u64(),
                Some(expected),
                "{name}: {run}"
            );
        }
    }
}
