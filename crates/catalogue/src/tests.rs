//! Checksums, ideal times and the command line, against values worked out by hand.

use super::*;

fn scenario(name: &str, values: &[(&str, u64)]) -> Scenario {
    Scenario::new(name, values).unwrap()
}

#[test]
fn checksums_follow_the_catalogue_formulas() {
    assert_eq!(
        scenario("spawn", &[("tasks", 10_000)]).checksum(),
        49_995_000
    );
    assert_eq!(scenario("spawn", &[("tasks", 0)]).checksum(), 0);
    assert_eq!(scenario("spawn", &[("tasks", 1)]).checksum(), 0);
    assert_eq!(scenario("sleep", &[("tasks", 4)]).checksum(), 6);
    assert_eq!(
        scenario("timer", &[("step-us", 1_000), ("total-ms", 1_000)]).checksum(),
        1_000
    );
    assert_eq!(
        scenario("timer", &[("step-us", 300), ("total-ms", 1)]).checksum(),
        3
    );
    assert_eq!(
        scenario("doxbee", &[("requests", 10_000)]).checksum(),
        70_000
    );
    assert_eq!(
        scenario("parallel", &[("requests", 10_000)]).checksum(),
        260_000
    );
    assert_eq!(scenario("skynet", &[]).checksum(), 499_999_500_000);
    assert_eq!(
        scenario("pingpong", &[("pairs", 3), ("rounds", 5)]).checksum(),
        15
    );
    assert_eq!(scenario("chain", &[("length", 10)]).checksum(), 55);
    assert_eq!(scenario("yield", &[]).checksum(), 200_000);
    // Client 0 sends bytes of 1 then 2, client 1 of 2 then 3: (1 + 2 + 2 + 3) × 3 bytes.
    assert_eq!(
        scenario("echo", &[("connections", 2), ("rounds", 2), ("bytes", 3)]).checksum(),
        24
    );
    assert_eq!(scenario("echo", &[("connections", 0)]).checksum(), 0);
    // c + r < 255 at the defaults: Σ (c + r + 1) = 2 × 100 × 4,950 + 10,000, × 64 bytes.
    assert_eq!(scenario("echo", &[]).checksum(), 64_000_000);
    // 1 + 2 + 3; then a whole cycle 1 … 255 and the next client's 1.
    assert_eq!(scenario("connections", &[("connections", 3)]).checksum(), 6);
    assert_eq!(
        scenario("connections", &[("connections", 256)]).checksum(),
        32_641
    );
    assert_eq!(scenario("connections", &[("connections", 0)]).checksum(), 0);
}

#[test]
fn socket_points_are_bounded_and_say_what_descriptors_they_hold() {
    let refused =
        |name, values: &[(&str, u64)]| Scenario::new(name, values).unwrap_err().to_string();
    assert!(refused("echo", &[("bytes", 2 << 20)]).starts_with("--bytes must be at most"));
    assert!(refused("echo", &[("rounds", 0)]).starts_with("--rounds must be at least 1"));
    assert!(
        refused("connections", &[("connections", 70_000)])
            .starts_with("--connections must be at most")
    );
    assert_eq!(
        scenario("connections", &[("connections", 1_000)]).open_files(),
        Some(2_000 + FD_HEADROOM)
    );
    assert_eq!(
        scenario("echo", &[("connections", 0)]).open_files(),
        Some(FD_HEADROOM)
    );
    assert_eq!(scenario("spawn", &[]).open_files(), None);
}

#[test]
fn ideal_time_is_the_pure_waiting() {
    assert_eq!(scenario("spawn", &[]).ideal_ns(), 0);
    assert_eq!(
        scenario("sleep", &[("delay-ms", 5_000)]).ideal_ns(),
        5_000_000_000
    );
    assert_eq!(scenario("sleep", &[("tasks", 0)]).ideal_ns(), 0);
    assert_eq!(
        scenario("timer", &[("step-us", 300), ("total-ms", 1)]).ideal_ns(),
        900_000
    );
    assert_eq!(scenario("doxbee", &[("io-ms", 2)]).ideal_ns(), 14_000_000);
    assert_eq!(scenario("parallel", &[]).ideal_ns(), 2_000_000);
}

#[test]
fn defaults_fill_what_is_not_given() {
    assert_eq!(
        scenario("parallel", &[("requests", 5)]),
        Scenario::Parallel {
            requests: 5,
            fanout: 25,
            io_ms: 1
        }
    );
    assert_eq!(scenario("skynet", &[]).size(), Some(1_000_000));
    assert_eq!(scenario("timer", &[]).size(), None);
}

#[test]
fn a_point_is_labelled_with_its_parameters_in_catalogue_order() {
    let sleep = Point::from(&scenario("sleep", &[("tasks", 10), ("delay-ms", 0)]));
    assert_eq!(sleep.to_string(), "sleep tasks=10 delay-ms=0");
    assert_eq!(
        sleep.to_scenario(),
        Some(scenario("sleep", &[("tasks", 10), ("delay-ms", 0)]))
    );
    assert_eq!(Point::new("sleep", &sleep.params), sleep);
    assert_eq!(Point::command().to_string(), "command");
    assert_eq!(Point::command().to_scenario(), None);
    let unknown = std::collections::BTreeMap::from([("b".to_string(), 2), ("a".to_string(), 1)]);
    assert_eq!(Point::new("later", &unknown).to_string(), "later a=1 b=2");
}

#[test]
fn a_label_reads_back_as_its_point_and_nothing_else_does() {
    let sleep = Point::from(&scenario("sleep", &[("tasks", 10), ("delay-ms", 0)]));
    let unknown = Point::new(
        "later",
        &std::collections::BTreeMap::from([("a".into(), 1)]),
    );
    for point in [sleep, Point::command(), unknown] {
        assert_eq!(point.to_string().parse::<Point>(), Ok(point));
    }
    for bad in [
        "",
        " ",
        "tasks=1",
        "sleep tasks",
        "sleep tasks=x",
        "sleep  tasks=1",
        "sleep a=1 a=2",
    ] {
        assert_eq!(
            bad.parse::<Point>(),
            Err(CatalogueError::BadLabel(bad.into())),
            "{bad}"
        );
    }
}

#[test]
fn idle_case_keeps_everything_but_the_size() {
    let idle = scenario("sleep", &[("tasks", 100), ("delay-ms", 7)])
        .idle()
        .unwrap();
    assert_eq!(
        idle,
        Scenario::Sleep {
            tasks: 0,
            delay_ms: 7
        }
    );
    assert_eq!(
        scenario("skynet", &[]).idle().unwrap(),
        Scenario::Skynet { size: 1 }
    );
    assert_eq!(scenario("timer", &[]).idle(), None);
}

#[test]
fn invalid_values_are_refused_with_the_parameter_named() {
    let err = Scenario::new("skynet", &[("size", 20)]).unwrap_err();
    assert!(err.to_string().contains("--size"), "{err}");
    let err = Scenario::new("timer", &[("step-us", 0)]).unwrap_err();
    assert!(
        err.to_string().contains("--step-us must be at least 1"),
        "{err}"
    );
    let err = Scenario::new("timer", &[("step-us", 2_000), ("total-ms", 1)]).unwrap_err();
    assert!(err.to_string().contains("longer than total-ms"), "{err}");
    let err = Scenario::new("spawn", &[("delay-ms", 1)]).unwrap_err();
    assert!(
        err.to_string().contains("has no parameter '--delay-ms'"),
        "{err}"
    );
    let err = Scenario::new("nap", &[]).unwrap_err();
    assert!(err.to_string().contains("unknown scenario 'nap'"), "{err}");
}

#[test]
fn counts_parse_with_separators_and_suffixes() {
    assert_eq!(parse_count("tasks", "10000"), Ok(10_000));
    assert_eq!(parse_count("tasks", "10_000"), Ok(10_000));
    assert_eq!(parse_count("tasks", "10k"), Ok(10_000));
    assert_eq!(parse_count("tasks", "1M"), Ok(1_000_000));
    for bad in ["10q", "-5", "", "k", "1.5", "99999999999999999999"] {
        let err = parse_count("tasks", bad).unwrap_err().to_string();
        assert!(err.starts_with("--tasks: '"), "{bad}: {err}");
    }
}

#[test]
fn invocation_round_trips_through_the_command_line() {
    for spec in SCENARIOS {
        let scenario = Scenario::new(spec.name, &[]).unwrap();
        let invocation = Invocation {
            scenario,
            warm_up: scenario.seed_warm_up(),
            inner_warm_up: 3,
            iterations: 7,
        };
        assert_eq!(Invocation::parse(invocation.to_args()), Ok(invocation));
    }
    // The seed's warm-up: doxbee and parallel warm up with min(350, requests) requests.
    let doxbee = Scenario::Doxbee {
        requests: 10_000,
        io_ms: 1,
    };
    let invocation = Invocation {
        scenario: doxbee,
        warm_up: doxbee.seed_warm_up(),
        inner_warm_up: 1,
        iterations: 1,
    };
    assert_eq!(
        invocation.to_args().join(" "),
        "doxbee --requests 10000 --io-ms 1 --warmup-requests 350 --inner-warmup 1 --iterations 1"
    );
    let small = Scenario::Doxbee {
        requests: 100,
        io_ms: 1,
    };
    assert_eq!(
        small.seed_warm_up(),
        None,
        "100 requests: the whole iteration"
    );
    assert_eq!(Scenario::Spawn { tasks: 5 }.seed_warm_up(), None);
    let args = ["sleep", "--tasks", "5", "--delay-ms", "1"];
    let parsed = Invocation::parse(args).unwrap();
    assert_eq!(
        parsed.scenario,
        Scenario::Sleep {
            tasks: 5,
            delay_ms: 1
        }
    );
    assert_eq!(parsed.inner_warm_up, 0, "sleep's default inner warm-up");
    assert_eq!(parsed.iterations, 1, "one measured iteration unless asked");
}

#[test]
fn malformed_command_lines_are_refused() {
    let empty: [&str; 0] = [];
    assert_eq!(
        Invocation::parse(empty),
        Err(CatalogueError::MissingScenario)
    );
    assert!(Invocation::parse(["spawn", "--tasks"]).is_err());
    assert!(Invocation::parse(["spawn", "tasks", "5"]).is_err());
    assert!(Invocation::parse(["spawn", "--tasks", "5x"]).is_err());
    assert!(Invocation::parse(["spawn", "--inner-warmup", "5000000000"]).is_err());
    assert!(Invocation::parse(["spawn", "--iterations", "0"]).is_err());
    assert!(Invocation::parse(["spawn", "--iterations"]).is_err());
}

#[test]
fn checksums_of_huge_parameters_are_exact() {
    // N·(N−1) passes u64 for N > 2^32 although N·(N−1)/2 fits below 6·10^9.
    assert_eq!(
        scenario("spawn", &[("tasks", 5_000_000_000)]).checksum(),
        12_499_999_997_500_000_000
    );
    assert_eq!(
        scenario(
            "parallel",
            &[("requests", 1 << 40), ("fanout", (1 << 23) - 1)]
        )
        .checksum(),
        1 << 63
    );
}

#[test]
fn parameters_whose_checksum_passes_u64_are_refused() {
    for (name, values) in [
        ("spawn", &[("tasks", 7_000_000_000)][..]),
        ("skynet", &[("size", 10_000_000_000)]),
        ("pingpong", &[("pairs", 1 << 32), ("rounds", 1 << 32)]),
        ("yield", &[("tasks", u64::MAX), ("yields", 2)]),
        ("doxbee", &[("requests", u64::MAX / 7 + 1)]),
        ("parallel", &[("requests", 2), ("fanout", u64::MAX)]),
        (
            "timer",
            &[("step-us", 1), ("total-ms", u64::MAX / 1_000 + 1)],
        ),
    ] {
        let err = Scenario::new(name, values).unwrap_err().to_string();
        assert!(err.contains("64 bits"), "{name}: {err}");
    }
}

#[test]
fn the_reference_point_is_the_quick_size_and_operations_count_the_work() {
    let reference = |name| Scenario::reference(name).unwrap();
    assert_eq!(reference("sleep").label(), "tasks=10000 delay-ms=20");
    assert_eq!(reference("skynet").label(), "size=10000");
    assert_eq!(
        scenario("skynet", &[("size", 1_000_000)]).at_reference(),
        reference("skynet")
    );
    // Every quick size is a valid point of its scenario.
    for spec in crate::SCENARIOS {
        assert!(Scenario::reference(spec.name).is_ok(), "{}", spec.name);
    }
    assert_eq!(reference("spawn").operations(), 10_000);
    assert_eq!(reference("timer").operations(), 50);
    assert_eq!(reference("doxbee").operations(), 14_000);
    assert_eq!(reference("parallel").operations(), 10_400);
    assert_eq!(reference("skynet").operations(), 11_111);
    assert_eq!(reference("pingpong").operations(), 200_000);
    assert_eq!(reference("yield").operations(), 200_000);
    // Waiting is not work: a longer sleep does as many operations.
    assert_eq!(
        scenario("sleep", &[("delay-ms", 10_000)]).operations(),
        reference("sleep").operations()
    );
    assert_eq!(
        scenario("pingpong", &[("pairs", u64::MAX), ("rounds", 1)]).operations(),
        u64::MAX,
        "saturates, never wraps"
    );
}
