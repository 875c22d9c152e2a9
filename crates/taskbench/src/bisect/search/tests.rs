//! The search on made-up figures: an oracle that knows each release's figure, so no
//! process runs.

use super::bisect as bisect_fn;
use super::*;
use crate::compare::ratio::{Verdict, verdict};
use std::collections::HashSet;

/// Figures per release; a pair's interval is its ratio × / ÷ `spread`, narrowed by each
/// attempt (as more rounds narrow a real one); `failing` releases cannot be built.
struct Fake {
    figures: Vec<(String, f64)>,
    spread: f64,
    /// Pairs whose interval is as wide as `noisy.1` whatever the attempt.
    noisy: Option<((String, String), f64)>,
    failing: HashSet<String>,
    calls: Vec<(String, String, u32)>,
}

impl Fake {
    fn new(figures: Vec<(String, f64)>) -> Fake {
        Fake {
            figures,
            spread: 1.02,
            noisy: None,
            failing: HashSet::new(),
            calls: Vec::new(),
        }
    }

    fn releases(&self) -> Vec<String> {
        self.figures.iter().map(|(r, _)| r.clone()).collect()
    }

    fn figure(&self, release: &str) -> f64 {
        self.figures.iter().find(|(r, _)| r == release).unwrap().1
    }
}

impl Oracle for Fake {
    fn compare(&mut self, base: &str, new: &str, attempt: u32) -> Result<Measured, Unavailable> {
        self.calls.push((base.into(), new.into(), attempt));
        if let Some(bad) = [base, new].into_iter().find(|r| self.failing.contains(*r)) {
            return Err(Unavailable {
                release: bad.into(),
                reason: "the build failed".into(),
            });
        }
        let ratio = self.figure(new) / self.figure(base);
        let spread = match &self.noisy {
            Some(((b, n), wide)) if b == base && n == new => *wide,
            _ => self.spread.powf(1.0 / f64::from(attempt + 1)),
        };
        let interval = Some(Interval::new(ratio / spread, ratio * spread));
        let change = Change {
            ratio,
            interval,
            verdict: verdict(interval),
            bootstrap: interval,
            spread: None,
        };
        Ok(Measured {
            change,
            processes: 10 * (attempt as usize + 1),
        })
    }
}

const SETTINGS: Settings = Settings {
    threshold: 0.10,
    attempts: 3,
    probes: 1,
};

fn run(fake: &mut Fake) -> Bisect {
    let releases = fake.releases();
    bisect(fake, &releases, SETTINGS, &mut |_| {})
}

fn found(bisect: &Bisect) -> Vec<(&str, &str)> {
    (bisect.found.iter())
        .map(|c| (c.base.as_str(), c.new.as_str()))
        .collect()
}

/// Go 1.22.0 … 1.22.12 and 1.23.0 … 1.23.12 and 1.24.0 … 1.24.12, at `figure(release)`.
fn lines(figure: impl Fn(u32, u32) -> f64) -> Vec<(String, f64)> {
    (22..=24)
        .flat_map(|minor| (0..=12).map(move |patch| (minor, patch)))
        .map(|(minor, patch)| (format!("go@1.{minor}.{patch}"), figure(minor, patch)))
        .collect()
}

#[test]
fn one_step_is_found_between_adjacent_releases_in_few_builds() {
    let mut fake = Fake::new(lines(|minor, patch| {
        if (minor, patch) >= (23, 5) {
            140.0
        } else {
            100.0
        }
    }));
    let bisect = run(&mut fake);
    assert_eq!(found(&bisect), [("go@1.23.4", "go@1.23.5")]);
    let step = &bisect.found[0];
    assert!((step.ratio - 1.4).abs() < 1e-9);
    assert!(bisect.undecided.is_empty() && bisect.drifts.is_empty());
    // Nine of the coarse pass (three a line) and three of the halving, of 39.
    assert!(bisect.built().len() <= 12, "{:?}", bisect.built());
}

#[test]
fn a_step_and_its_undoing_are_both_found() {
    // 1.23.0 slower, 1.24.7 back: different lines, both steps.
    let mut fake = Fake::new(lines(|minor, patch| match (minor, patch) {
        (23, _) => 150.0,
        (24, p) if p < 7 => 150.0,
        _ => 100.0,
    }));
    let bisect = run(&mut fake);
    assert_eq!(
        found(&bisect),
        [("go@1.22.12", "go@1.23.0"), ("go@1.24.6", "go@1.24.7")]
    );
    assert!(bisect.found[1].ratio < 1.0);
}

#[test]
fn a_flat_range_names_no_release_and_builds_only_the_ends_and_middle_of_each_line() {
    let mut fake = Fake::new(lines(|_, patch| 100.0 + f64::from(patch % 3)));
    let bisect = run(&mut fake);
    assert!(bisect.found.is_empty() && bisect.drifts.is_empty());
    assert_eq!(
        bisect.built(),
        [
            "go@1.22.0",
            "go@1.22.6",
            "go@1.22.12",
            "go@1.23.0",
            "go@1.23.6",
            "go@1.23.12",
            "go@1.24.0",
            "go@1.24.6",
            "go@1.24.12"
        ]
    );
    assert!(bisect.steps.iter().all(|s| s.decision == Decision::Same));
}

#[test]
fn a_release_that_fails_to_build_is_skipped_and_its_neighbours_searched() {
    let mut fake = Fake::new(lines(|minor, patch| {
        if (minor, patch) >= (23, 5) {
            140.0
        } else {
            100.0
        }
    }));
    // The coarse pass's 1.23.0 and the halving's first middle both fail.
    fake.failing = ["go@1.23.0", "go@1.23.6"].map(String::from).into();
    let mut skipped_events = 0;
    let releases = fake.releases();
    let bisect = bisect(&mut fake, &releases, SETTINGS, &mut |event| {
        if let Event::Skipped(_) = event {
            skipped_events += 1;
        }
    });
    assert_eq!(found(&bisect), [("go@1.23.4", "go@1.23.5")]);
    let skipped: Vec<&str> = bisect.skipped.iter().map(|u| u.release.as_str()).collect();
    assert_eq!(skipped, ["go@1.23.0", "go@1.23.6"]);
    assert_eq!(skipped_events, 2, "each said once");
    assert!(!bisect.built().contains(&"go@1.23.0"));
}

#[test]
fn a_pair_straddling_the_threshold_gets_more_rounds_then_stays_undecided() {
    // 1.22.12 → 1.23.0 is 8 % slower: × / ÷ 1.02 straddles 10 %, × / ÷ 1.01 does not.
    let mut fake = Fake::new(lines(|minor, _| if minor >= 23 { 108.0 } else { 100.0 }));
    let bisect = run(&mut fake);
    let calls: Vec<u32> = (fake.calls.iter())
        .filter(|(b, n, _)| b == "go@1.22.12" && n == "go@1.23.0")
        .map(|c| c.2)
        .collect();
    assert_eq!(calls, [0, 1], "run again once, then decided");
    assert!(bisect.found.is_empty());
    // Wider still: every attempt straddles, and the pair is said to stay undecided.
    let mut fake = Fake::new(lines(|minor, _| if minor >= 23 { 108.0 } else { 100.0 }));
    fake.spread = 1.2;
    let bisect = run(&mut fake);
    let undecided: Vec<(&str, &str, u32)> = (bisect.undecided.iter())
        .map(|c| (c.base.as_str(), c.new.as_str(), c.runs))
        .collect();
    assert!(
        undecided.contains(&("go@1.22.12", "go@1.23.0", 3)),
        "{undecided:?}"
    );
}

#[test]
fn an_undecided_pair_beyond_the_threshold_is_searched_and_its_step_found() {
    // 1.24.0 slower, 1.24.6 back; the line's ends are too noisy to decide (bimodal
    // processes), though their estimate is past the threshold: their halves decide.
    let figures = lines(|minor, patch| match (minor, patch) {
        (24, 0..=5) => 150.0,
        _ => 100.0,
    });
    let mut fake = Fake::new(figures);
    fake.noisy = Some((("go@1.24.0".into(), "go@1.24.12".into()), 2.0));
    let bisect = run(&mut fake);
    assert_eq!(
        found(&bisect),
        [("go@1.23.12", "go@1.24.0"), ("go@1.24.5", "go@1.24.6")]
    );
    // Within the threshold, an undecided pair is left undecided, not searched.
    let mut fake = Fake::new(lines(|minor, _| if minor >= 23 { 108.0 } else { 100.0 }));
    fake.spread = 1.2;
    let bisect = run(&mut fake);
    assert!(bisect.found.is_empty());
    assert!(
        !fake
            .calls
            .iter()
            .any(|(b, n, _)| b == "go@1.22.12" && n != "go@1.23.0")
    );
}

#[test]
fn a_pair_is_measured_once_however_often_the_search_asks() {
    let mut fake = Fake::new(lines(|minor, patch| {
        if (minor, patch) >= (22, 7) {
            140.0
        } else {
            100.0
        }
    }));
    fake.failing = ["go@1.24.0"].map(String::from).into();
    run(&mut fake);
    let mut pairs: Vec<(String, String)> = (fake.calls.iter())
        .filter(|c| c.2 == 0)
        .map(|c| (c.0.clone(), c.1.clone()))
        .collect();
    let all = pairs.len();
    pairs.sort();
    pairs.dedup();
    assert_eq!(pairs.len(), all, "{:?}", fake.calls);
}

#[test]
fn a_change_and_its_undoing_inside_one_line_are_found_by_its_probe() {
    // go1.23.4 … 1.23.10 slower (as measured here): the line's ends agree, its middle does not.
    let slow_inside = |minor, patch| match (minor, patch) {
        (23, 4..=10) => 122.0,
        _ => 100.0,
    };
    let mut fake = Fake::new(lines(slow_inside));
    let bisect = run(&mut fake);
    assert_eq!(
        found(&bisect),
        [("go@1.23.3", "go@1.23.4"), ("go@1.23.10", "go@1.23.11")]
    );
    let mut blind = Fake::new(lines(slow_inside));
    let releases = blind.releases();
    let ends_only = Settings {
        probes: 0,
        ..SETTINGS
    };
    let bisect = bisect_fn(&mut blind, &releases, ends_only, &mut |_| {});
    assert!(bisect.found.is_empty(), "with no probe the ends agree");
}

#[test]
fn a_drift_with_no_one_step_is_said_so() {
    // 1.22.0 → 1.22.12 is 12 % slower in two steps of 6 %: the pair is past 10 %, neither
    // half is, so no release is named and the drift is.
    let mut fake = Fake::new(lines(|minor, patch| match (minor, patch) {
        (22, p) if p < 6 => 100.0,
        (22, 6) => 106.0,
        _ => 112.0,
    }));
    fake.spread = 1.005;
    let bisect = run(&mut fake);
    assert!(bisect.found.is_empty(), "{:?}", found(&bisect));
    assert_eq!(bisect.drifts.len(), 1);
    assert_eq!(
        (
            bisect.drifts[0].base.as_str(),
            bisect.drifts[0].new.as_str()
        ),
        ("go@1.22.0", "go@1.22.12")
    );
}

#[test]
fn decided_against_the_threshold_on_either_side() {
    let i = |low, high| Some(Interval::new(low, high));
    assert_eq!(decide(i(1.12, 1.3), 0.1), Decision::Changed);
    assert_eq!(decide(i(0.7, 0.9), 0.1), Decision::Changed);
    assert_eq!(decide(i(0.95, 1.05), 0.1), Decision::Same);
    assert_eq!(decide(i(1.05, 1.15), 0.1), Decision::Undecided);
    assert_eq!(decide(None, 0.1), Decision::Undecided);
    assert_eq!(
        verdict(i(1.05, 1.15)),
        Verdict::Higher,
        "a change, but not 10 %"
    );
}

#[test]
fn coarse_samples_are_each_lines_ends_and_probes() {
    let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let go = names(&[
        "go@1.22.0",
        "go@1.22.1",
        "go@1.22.2",
        "go@1.23.0",
        "go@1.24.0",
        "go@1.24.1",
    ]);
    assert_eq!(
        coarse_samples(&go, 0),
        names(&[
            "go@1.22.0",
            "go@1.22.2",
            "go@1.23.0",
            "go@1.24.0",
            "go@1.24.1"
        ])
    );
    assert_eq!(
        coarse_samples(&go, 1),
        names(&[
            "go@1.22.0",
            "go@1.22.1",
            "go@1.22.2",
            "go@1.23.0",
            "go@1.24.0",
            "go@1.24.1"
        ]),
        "a line of two has no middle; a line of one is sampled once"
    );
    let patches: Vec<String> = (0..=12).map(|p| format!("go@1.23.{p}")).collect();
    let at = |probes| {
        let samples = coarse_samples(&patches, probes);
        let patch = |s: &String| s.rsplit('.').next().unwrap().parse::<u32>().unwrap();
        samples.iter().map(patch).collect::<Vec<_>>()
    };
    assert_eq!(at(1), [0, 6, 12]);
    assert_eq!(at(3), [0, 3, 6, 9, 12]);
    assert_eq!(
        at(20),
        (0..=12).collect::<Vec<_>>(),
        "more probes than releases"
    );
    let node = names(&[
        "n@node22.0.0",
        "n@node22.1.0",
        "n@node22.9.1",
        "n@node23.0.0",
    ]);
    assert_eq!(
        coarse_samples(&node, 1),
        names(&[
            "n@node22.0.0",
            "n@node22.1.0",
            "n@node22.9.1",
            "n@node23.0.0"
        ])
    );
}

/// An oracle stopped (an interrupt) after `left` comparisons.
struct Stopping {
    inner: Fake,
    left: usize,
}

impl Oracle for Stopping {
    fn compare(&mut self, base: &str, new: &str, attempt: u32) -> Result<Measured, Unavailable> {
        self.left = self.left.saturating_sub(1);
        self.inner.compare(base, new, attempt)
    }

    fn stopped(&self) -> bool {
        self.left == 0
    }
}

#[test]
fn a_stopped_search_ends_with_what_it_found() {
    let fake = Fake::new(lines(|minor, _| if minor >= 23 { 140.0 } else { 100.0 }));
    let releases = fake.releases();
    let mut oracle = Stopping {
        inner: fake,
        left: 2,
    };
    let bisect = bisect(&mut oracle, &releases, SETTINGS, &mut |_| {});
    assert!(bisect.stopped);
    assert_eq!(oracle.inner.calls.len(), 2, "no comparison after the stop");
    assert!(bisect.skipped.is_empty());
}
