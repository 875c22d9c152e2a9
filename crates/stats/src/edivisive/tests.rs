//! E-divisive on synthetic series: steps found where they are, none in flat noise more often
//! than α says.

use super::*;
use crate::simulate::{Draw, standard_normal};

/// `levels` as (length, level) segments, each value with normal noise of sd `sd`.
fn series(levels: &[(usize, f64)], sd: f64, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    levels
        .iter()
        .flat_map(|&(n, level)| vec![level; n])
        .map(|level| level + sd * standard_normal(&mut rng))
        .collect()
}

fn indices(found: &[ChangePoint]) -> Vec<usize> {
    found.iter().map(|c| c.index).collect()
}

#[test]
fn one_step_is_found_where_it_is() {
    // Twenty seeds: the step at 15 every time; each side is tested again at 1 %, so an
    // extra change in noise is rare (about 0.4 expected over the twenty).
    let mut extra = 0;
    for seed in 1..=20 {
        let values = series(&[(15, 100.0), (15, 120.0)], 2.0, seed);
        let found = change_points(&values, &CHANGE_SETTINGS);
        let step = found.iter().find(|c| c.index == 15);
        assert!(
            step.is_some_and(|c| c.p_value <= 0.002),
            "{seed}: {found:?}"
        );
        extra += found.len() - 1;
    }
    assert!(extra <= 3, "{extra} changes in noise");
}

#[test]
fn a_step_and_its_undoing_are_both_found() {
    let values = series(&[(12, 100.0), (12, 130.0), (12, 100.0)], 2.0, 2);
    assert_eq!(indices(&change_points(&values, &CHANGE_SETTINGS)), [12, 24]);
    let values = series(&[(10, 100.0), (10, 80.0), (10, 120.0)], 2.0, 3);
    assert_eq!(indices(&change_points(&values, &CHANGE_SETTINGS)), [10, 20]);
}

#[test]
fn a_flat_series_has_no_change() {
    assert_eq!(change_points(&[5.0; 30], &CHANGE_SETTINGS), []);
    let values = series(&[(30, 100.0)], 2.0, 4);
    assert_eq!(change_points(&values, &CHANGE_SETTINGS), []);
    assert_eq!(change_points(&[1.0, 9.0, 1.0], &CHANGE_SETTINGS), []);
}

#[test]
fn a_step_shorter_than_the_minimum_segment_is_not_seen_and_one_as_long_is() {
    let two_after = series(&[(18, 100.0), (2, 150.0)], 2.0, 5);
    assert_eq!(change_points(&two_after, &CHANGE_SETTINGS), []);
    let three_after = series(&[(17, 100.0), (3, 150.0)], 2.0, 5);
    assert_eq!(
        indices(&change_points(&three_after, &CHANGE_SETTINGS)),
        [17]
    );
}

/// How many of `count` seeded flat series of `n` values drawn from `draw` show a change.
fn false_changes(draw: Draw, count: u64, n: usize, settings: &ChangeSettings) -> usize {
    (0..count)
        .filter(|&seed| {
            let values = draw.samples(n, &mut SplitMix64::new(1000 + seed));
            !change_points(&values, settings).is_empty()
        })
        .count()
}

#[test]
fn noisy_flat_series_show_false_changes_at_about_alpha() {
    // At α = 5 %, 400 series: 20 expected; above 31 or below 9 has odds under 1 % each way
    // (binomial) for a test that holds its level.
    let five = ChangeSettings {
        alpha: 0.05,
        permutations: 199,
        ..CHANGE_SETTINGS
    };
    for draw in [Draw::Normal, Draw::LogNormal] {
        let found = false_changes(draw, 400, 20, &five);
        assert!((9..=31).contains(&found), "{draw:?}: {found} of 400");
    }
    // At the default 1 %, 300 series: 3 expected; more than 8 has odds under 0.5 %.
    let found = false_changes(Draw::Normal, 300, 24, &CHANGE_SETTINGS);
    assert!(found <= 8, "{found} of 300");
}

/// `groups` places of `size` figures each, place `i` at `level(i)`, normal noise of sd `sd`.
fn grouped(levels: &[f64], size: usize, sd: f64, seed: u64) -> Vec<Vec<f64>> {
    let mut rng = SplitMix64::new(seed);
    (levels.iter())
        .map(|&level| {
            (0..size)
                .map(|_| level + sd * standard_normal(&mut rng))
                .collect()
        })
        .collect()
}

#[test]
fn groups_of_one_figure_are_the_plain_series() {
    let values = series(&[(12, 100.0), (12, 130.0), (12, 100.0)], 2.0, 2);
    let groups: Vec<Vec<f64>> = values.iter().map(|&v| vec![v]).collect();
    assert_eq!(
        change_points_between(&groups, &CHANGE_SETTINGS),
        change_points(&values, &CHANGE_SETTINGS)
    );
}

#[test]
fn a_change_between_groups_is_found_at_the_group_and_one_group_can_hold_a_level() {
    let mut levels = vec![100.0; 5];
    levels.extend([120.0; 4]);
    let found = change_points_between(&grouped(&levels, 6, 4.0, 12), &CHANGE_SETTINGS);
    assert_eq!(indices(&found), [5]);
    // One place apart, ten figures strong: a step and its undoing.
    let mut levels = vec![100.0; 5];
    levels.push(125.0);
    levels.extend([100.0; 5]);
    let found = change_points_between(&grouped(&levels, 10, 4.0, 13), &CHANGE_SETTINGS);
    assert_eq!(indices(&found), [5, 6]);
}

#[test]
fn a_change_is_never_put_inside_a_group() {
    // The figures change halfway through the middle group: the split falls on a side of it.
    let mut groups = grouped(&[100.0, 100.0, 100.0], 8, 1.0, 14);
    groups.extend(grouped(&[140.0, 140.0], 8, 1.0, 15));
    for v in &mut groups[2][4..] {
        *v += 40.0;
    }
    let found = change_points_between(&groups, &CHANGE_SETTINGS);
    assert!(!found.is_empty());
    assert!(found.iter().all(|c| (1..5).contains(&c.index)), "{found:?}");
}

#[test]
fn flat_groups_show_false_changes_at_about_alpha() {
    // 200 flat series of 6 places × 5 figures at α = 5 %: 10 expected; outside 3..=19 has
    // odds under 1 % each way (binomial).
    let five = ChangeSettings {
        alpha: 0.05,
        permutations: 199,
        ..CHANGE_SETTINGS
    };
    let found = (0..200)
        .filter(|seed| {
            !change_points_between(&grouped(&[100.0; 6], 5, 3.0, 2000 + seed), &five).is_empty()
        })
        .count();
    assert!((3..=19).contains(&found), "{found} of 200");
}
