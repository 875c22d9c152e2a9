//! The split: every case in exactly one part, the same parts whatever the order, parts
//! within one case of each other, and K/N read strictly.

use super::*;
use catalogue::{Point, Scenario};
use proptest::prelude::*;

fn case(subject: &str, tasks: u64, cost_ms: u64) -> EstimatedCase {
    EstimatedCase {
        subject: subject.into(),
        workload: Workload::Scenario {
            scenario: Scenario::new("spawn", &[("tasks", tasks)]).unwrap(),
            inner_warm_up: 0,
        },
        cost: Duration::from_millis(cost_ms),
    }
}

fn keyed(cases: &[EstimatedCase], parts: u32) -> Vec<((String, Point), u32)> {
    let mut keyed: Vec<_> = cases
        .iter()
        .map(|c| (c.subject.clone(), c.workload.point()))
        .zip(split(cases, parts))
        .collect();
    keyed.sort();
    keyed
}

#[test]
fn k_of_n_is_read_strictly() {
    assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
    assert_eq!(Shard { index: 1, count: 1 }.to_string(), "1/1");
    for bad in ["0/3", "4/3", "3", "a/b", "1/0", "-1/2", "", "1/2/3"] {
        let error = bad.parse::<Shard>().unwrap_err();
        assert!(
            error.starts_with(&format!("'{bad}': a shard is K/N")),
            "{error}"
        );
    }
}

#[test]
fn the_longest_cases_go_first_to_the_least_loaded_part() {
    let cases = [
        case("a", 10, 50),
        case("b", 10, 40),
        case("c", 10, 30),
        case("d", 10, 20),
        case("e", 10, 10),
    ];
    // 50 → part 1, 40 → part 2, 30 → part 2 (40 < 50), 20 → part 1 (50 < 70),
    // 10 → part 1 (70 = 70: the lower-numbered).
    assert_eq!(split(&cases, 2), [0, 1, 1, 0, 0]);
    let chosen = ShardCases::of(&cases, Shard { index: 2, count: 2 });
    assert_eq!(chosen.cases, 2);
    assert_eq!(
        chosen.parts,
        [Duration::from_millis(80), Duration::from_millis(70)]
    );
    let spawn = cases[0].workload;
    assert!(chosen.takes("b", &spawn) && chosen.takes("c", &spawn));
    assert!(!chosen.takes("a", &spawn) && chosen.has("c") && !chosen.has("d"));
    // Its subjects' idle footprints (spawn tasks=0) are the shard's too.
    let Workload::Scenario { scenario, .. } = spawn else {
        unreachable!()
    };
    let idle = Workload::Scenario {
        scenario: scenario.idle().unwrap(),
        inner_warm_up: 0,
    };
    assert!(chosen.takes("b", &idle) && !chosen.takes("a", &idle));
}

#[test]
fn more_parts_than_cases_leaves_parts_empty() {
    let cases = [case("a", 10, 5)];
    assert_eq!(
        ShardCases::of(&cases, Shard { index: 2, count: 3 }).cases,
        0
    );
    assert_eq!(
        ShardCases::of(&cases, Shard { index: 1, count: 3 }).cases,
        1
    );
}

proptest! {
    #[test]
    fn every_case_is_in_one_part_whatever_the_order(
        costs in proptest::collection::vec((0u64..5, 1u64..4, 0u64..200), 1..40),
        parts in 1u32..6,
        rotate in 0usize..40,
    ) {
        // Distinct (subject, point) pairs, as a run's cases are.
        let mut cases: Vec<EstimatedCase> = Vec::new();
        for (subject, tasks, cost) in costs {
            let c = case(&format!("s{subject}"), tasks * 10, cost);
            if !cases.iter().any(|o| o.subject == c.subject && o.workload == c.workload) {
                cases.push(c);
            }
        }
        let assigned = split(&cases, parts);
        prop_assert!(assigned.iter().all(|&p| p < parts));
        // Each case in exactly one shard.
        let shards: Vec<ShardCases> = (1..=parts)
            .map(|index| ShardCases::of(&cases, Shard { index, count: parts }))
            .collect();
        for c in &cases {
            let holders = shards.iter().filter(|s| s.takes(&c.subject, &c.workload)).count();
            prop_assert_eq!(holders, 1);
        }
        prop_assert_eq!(shards.iter().map(|s| s.cases).sum::<usize>(), cases.len());
        // Balanced: no part more than the longest case above the lightest.
        let longest = cases.iter().map(|c| c.cost).max().unwrap();
        let loads = &shards[0].parts;
        prop_assert!(*loads.iter().max().unwrap() <= *loads.iter().min().unwrap() + longest);
        // The same parts in any order.
        let mut moved = cases.clone();
        moved.rotate_left(rotate % cases.len());
        moved.reverse();
        prop_assert_eq!(keyed(&moved, parts), keyed(&cases, parts));
    }
}
