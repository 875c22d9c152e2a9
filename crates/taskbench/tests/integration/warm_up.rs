//! The warm-up is fixed before a case's first process (issue 33): each time process ran its
//! row's warm-up — from the contestant's warm-up.toml (`fixture-jit`: spawn 12), else its
//! runtime's minimum, else the common 3 (`fixture-honest`) — whatever it timed, reported
//! apart from the steady figure, its first line the cold start; `taskbench warmup` measures
//! the curves and writes the table.

use super::util::{fixtures, measured, read_json, run_fixtures, taskbench};
use contestant::WarmUpTable;

#[test]
fn every_time_process_ran_its_rows_warm_up_whatever_it_timed() {
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
    let jit = WarmUpTable::load(&fixtures().join("jit"), Some("jvm")).unwrap();
    let honest = WarmUpTable::common();
    for (name, table) in [("fixture-honest", &honest), ("fixture-jit", &jit)] {
        let info = results["contestants"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .unwrap();
        assert_eq!(info["warm_up"].as_str(), Some(table.describe().as_str()));
        let warm_up = table.iterations("spawn");
        let runs = measured(&results, name);
        let time: Vec<_> = runs.iter().filter(|r| r["timed"] == true).collect();
        assert_eq!(time.len(), 4, "{name}: four time processes");
        for run in &time {
            assert_eq!(
                run["inner_warmup"].as_u64(),
                Some(u64::from(warm_up)),
                "{run}"
            );
            let lines = run["figures"]["warmup_ns"].as_array().unwrap();
            assert_eq!(lines.len(), warm_up as usize, "{name}: {run}");
        }
        for run in runs.iter().filter(|r| r["timed"] == false) {
            assert_eq!(
                run["iterations"].as_u64(),
                Some(1),
                "a memory process: {run}"
            );
            assert_eq!(
                run["inner_warmup"].as_u64(),
                Some(1),
                "spawn's own warm-up: {run}"
            );
        }
        let row = results["points"][0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["contestant"] == name)
            .unwrap();
        assert_eq!(row["warm_up"].as_u64(), Some(u64::from(warm_up)));
        assert!(row["cold"]["median"].as_f64() > Some(0.0), "{row}");
        assert_eq!(
            row["steadiness"]["flat"].as_u64().unwrap_or(0)
                + row["steadiness"]["warmed_up"].as_u64().unwrap_or(0)
                + row["steadiness"]["slowdown"].as_u64().unwrap_or(0)
                + row["steadiness"]["no_steady_state"].as_u64().unwrap_or(0),
            4
        );
    }
    assert_eq!(jit.iterations("spawn"), 12);
    assert!(
        results["seed"].as_u64().is_some(),
        "the rounds' seed is kept"
    );
}

#[test]
fn warm_up_measures_curves_and_writes_the_table() {
    // A copy of the honest fixture, so that --write writes into a folder of the test's own.
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("honest");
    std::fs::create_dir(&copy).unwrap();
    super::session::write_fixture(dir.path(), "honest", "honest");
    let saved = dir.path().join("curves.json");
    let output = taskbench(&[
        "--contestants",
        dir.path().to_str().unwrap(),
        "warmup",
        "-c",
        "fixture-honest",
        "-s",
        "spawn,chain",
        "--processes",
        "2",
        "--iterations",
        "40",
        "--write",
        "--save",
        saved.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("warm-up curves") && stdout.contains("fixture-honest"),
        "{stdout}"
    );
    let curves = read_json(&saved);
    let cases = curves.as_array().unwrap();
    assert_eq!(cases.len(), 2, "spawn and chain");
    for case in cases {
        let processes = case["processes"].as_array().unwrap();
        assert_eq!(processes.len(), 2);
        assert!(
            processes
                .iter()
                .all(|p| p["series"].as_array().unwrap().len() == 40)
        );
        assert!(case["proposed"].as_u64() >= Some(1));
    }
    let table = WarmUpTable::load(&copy, None).unwrap();
    assert_eq!(table.measured.len(), 2, "{table:?}");
    assert_eq!(
        table.iterations("spawn"),
        cases[0]["proposed"].as_u64().unwrap() as u32
    );
}

#[test]
fn warm_up_refuses_an_unknown_scenario_in_one_line() {
    let output = taskbench(&[
        "--contestants",
        fixtures().to_str().unwrap(),
        "warmup",
        "-c",
        "fixture-honest",
        "-s",
        "spwan",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("spwan") && stderr.lines().count() == 1,
        "{stderr}"
    );
}
