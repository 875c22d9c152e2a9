//! The command line a merge keeps, and the shards it finds missing.

use super::*;

fn words(line: &str) -> Vec<String> {
    line.split(' ').map(String::from).collect()
}

#[test]
fn the_merged_run_is_the_command_without_its_shard() {
    for line in [
        "taskbench run --preset quick --shard 2/3 --out a",
        "taskbench run --preset quick --shard=2/3 --out a",
    ] {
        let command = words(line);
        assert_eq!(
            unsharded(&command),
            words("taskbench run --preset quick --out a")
        );
        assert_eq!(shard_of(&command), Some(Shard { index: 2, count: 3 }));
    }
    assert_eq!(shard_of(&words("taskbench run --preset quick")), None);
}

#[test]
fn a_part_not_among_the_folders_is_named() {
    let with = |line: &str| {
        let mut results = results::fake::results();
        results.command = words(line);
        results
    };
    let (one, three) = (with("run --shard 1/3"), with("run --shard 3/3"));
    assert_eq!(missing_shards(&[&one, &three]), ["shard 2/3 is missing"]);
    let two = with("run --shard 2/3");
    assert!(missing_shards(&[&one, &two, &three]).is_empty());
    assert!(missing_shards(&[&with("run")]).is_empty());
}
