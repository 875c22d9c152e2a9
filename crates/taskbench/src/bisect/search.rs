//! Which release changed a figure (`taskbench bisect`): a coarse pass over each release
//! line's first and last release and probes inside it, then halving between neighbours that differ by more than
//! the threshold, until the step lies between adjacent releases. Each comparison is one
//! interleaved A/B of two releases, judged by the interval of NEW / BASE (compare/ratio.rs);
//! what measures them is an [`Oracle`], so the search is tested on figures made up and the
//! real one (bisect/oracle.rs) runs the pair.

use crate::compare::change::CaseChange;
use crate::compare::ratio::Change;
use contestant::releases::release_order;
use serde::{Deserialize, Serialize};
use stats::Interval;
use std::collections::HashMap;

/// What a comparison of two releases says against the threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Decision {
    /// The interval lies wholly beyond the threshold, either way.
    Changed,
    /// The interval lies wholly inside it.
    Same,
    /// The interval straddles it (or there is none), after every attempt.
    Undecided,
}

/// The figure a bisect follows (`--measure`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum Figure {
    /// Elapsed time of an iteration (time processes).
    Time,
    /// Peak RSS (memory processes).
    Rss,
    /// CPU time of an iteration.
    Cpu,
}

impl Figure {
    /// `time`, `rss`, `cpu`.
    pub(crate) const NAMES: [(&str, Figure); 3] = [
        ("time", Figure::Time),
        ("rss", Figure::Rss),
        ("cpu", Figure::Cpu),
    ];

    /// `time`, `rss` or `cpu`.
    pub(crate) fn name(self) -> &'static str {
        (Figure::NAMES.iter())
            .find(|(_, f)| *f == self)
            .map_or("", |(name, _)| name)
    }

    /// This figure's NEW / BASE in a case's changes.
    pub(crate) fn of(self, change: &CaseChange) -> Option<Change> {
        match self {
            Figure::Time => change.time,
            Figure::Rss => change.peak_rss,
            Figure::Cpu => change.cpu,
        }
    }
}

/// The search's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Settings {
    /// A change smaller than this share (0.10: 10 %) is none.
    pub(crate) threshold: f64,
    /// Runs of one pair at most, each pooled with the ones before, while it straddles.
    pub(crate) attempts: u32,
    /// Releases sampled inside each line by the coarse pass, besides its ends.
    pub(crate) probes: usize,
}

/// One pair measured: what the oracle answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Measured {
    /// NEW / BASE of the figure.
    pub(crate) change: Change,
    /// Processes of each side, pooled over the attempts so far.
    pub(crate) processes: usize,
}

/// A release that could not be measured, and why (one line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Unavailable {
    pub(crate) release: String,
    pub(crate) reason: String,
}

/// Measures two releases against each other.
pub(crate) trait Oracle {
    /// NEW / BASE of `base` and `new` run in the same rounds; `attempt` counts from 0, and
    /// each further attempt runs more rounds, pooled with the earlier ones.
    fn compare(&mut self, base: &str, new: &str, attempt: u32) -> Result<Measured, Unavailable>;

    /// Whether the search is to stop (an interrupt): it ends with what it found.
    fn stopped(&self) -> bool {
        false
    }
}

/// One comparison, as kept in bisect.json and printed as it is made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Comparison {
    pub(crate) base: String,
    pub(crate) new: String,
    /// NEW / BASE.
    pub(crate) ratio: f64,
    pub(crate) interval: Option<Interval>,
    pub(crate) decision: Decision,
    /// Runs of the pair so far (1 + the attempts that added rounds).
    pub(crate) runs: u32,
    /// Processes of each side.
    pub(crate) processes: usize,
}

/// What the search met as it went, for the caller to show.
#[derive(Debug)]
pub(crate) enum Event<'a> {
    /// A pair measured; `more` when it straddles and is run again.
    Compared {
        comparison: &'a Comparison,
        more: bool,
    },
    /// A release skipped; the search goes on with its neighbours.
    Skipped(&'a Unavailable),
}

/// The search's path and its answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Bisect {
    /// Every release in the range, oldest first.
    pub(crate) releases: Vec<String>,
    /// Each comparison decided, in the order made.
    pub(crate) steps: Vec<Comparison>,
    /// The steps found: adjacent releases whose figures differ beyond the threshold.
    pub(crate) found: Vec<Comparison>,
    /// Pairs left undecided after every attempt.
    pub(crate) undecided: Vec<Comparison>,
    /// Pairs that differ beyond the threshold while neither half does: a drift over
    /// several releases, no one step.
    pub(crate) drifts: Vec<Comparison>,
    /// Releases that could not be fetched, built or run.
    pub(crate) skipped: Vec<Unavailable>,
    /// Stopped before it ended (an interrupt): what it found so far.
    pub(crate) stopped: bool,
}

impl Bisect {
    /// The releases measured at least once, oldest first.
    pub(crate) fn built(&self) -> Vec<&str> {
        (self.releases.iter())
            .filter(|r| (self.steps.iter()).any(|s| s.base == **r || s.new == **r))
            .map(String::as_str)
            .collect()
    }
}

/// Decides an interval of NEW / BASE against `threshold`, the same share either way on the
/// log scale (10 % slower is × 1.1, 10 % faster × 1 / 1.1).
pub(crate) fn decide(interval: Option<Interval>, threshold: f64) -> Decision {
    let (low, high) = band(threshold);
    match interval {
        Some(i) if i.low > high || i.high < low => Decision::Changed,
        Some(i) if i.low >= low && i.high <= high => Decision::Same,
        _ => Decision::Undecided,
    }
}

/// The ratios within `threshold` either way on the log scale: 1 / (1 + t) … 1 + t.
fn band(threshold: f64) -> (f64, f64) {
    (1.0 / (1.0 + threshold), 1.0 + threshold)
}

/// Whether `ratio` lies beyond `threshold` either way (on the log scale).
fn beyond(ratio: f64, threshold: f64) -> bool {
    let (low, high) = band(threshold);
    ratio > high || ratio < low
}

/// Bisects `releases` (oldest first) with `oracle`, telling `on` of each step as it goes.
pub(crate) fn bisect(
    oracle: &mut dyn Oracle,
    releases: &[String],
    settings: Settings,
    on: &mut dyn FnMut(Event),
) -> Bisect {
    let mut search = Search {
        oracle,
        settings,
        candidates: releases.to_vec(),
        memo: HashMap::new(),
        out: Bisect {
            releases: releases.to_vec(),
            ..Bisect::default()
        },
        on,
    };
    for whole in search.coarse() {
        search.halve(whole);
    }
    let at = |c: &Comparison| releases.iter().position(|r| *r == c.base);
    search.out.found.sort_by_key(at);
    search.out.drifts.sort_by_key(at);
    search.out.stopped = search.oracle.stopped();
    search.out
}

/// The search as it goes.
struct Search<'a> {
    oracle: &'a mut dyn Oracle,
    settings: Settings,
    /// The releases not skipped, oldest first.
    candidates: Vec<String>,
    memo: HashMap<(String, String), Comparison>,
    out: Bisect,
    on: &'a mut dyn FnMut(Event),
}

impl Search<'_> {
    /// The coarse pass: each line's ends and probes against their neighbours; the pairs
    /// that changed.
    /// A release skipped changes the samples, so the pass starts again, the pairs already
    /// measured answered from memory.
    fn coarse(&mut self) -> Vec<Comparison> {
        'again: loop {
            let samples = coarse_samples(&self.candidates, self.settings.probes);
            let (mut searched, mut undecided) = (Vec::new(), Vec::new());
            for pair in samples.windows(2) {
                let Some(c) = self.compare(&pair[0], &pair[1]) else {
                    if self.oracle.stopped() {
                        return Vec::new();
                    }
                    continue 'again;
                };
                if self.searched(&c) {
                    searched.push(c);
                } else if c.decision == Decision::Undecided {
                    undecided.push(c);
                }
            }
            self.out.undecided.extend(undecided);
            searched.extend(self.line_drifts(&samples));
            return searched;
        }
    }

    /// A line whose probes each moved less than the threshold, but together more (two
    /// steps of 6 %): its ends compared directly, so that the halving names the step or the
    /// drift, as it would with no probes. Returned when that pair is searched.
    fn line_drifts(&mut self, samples: &[String]) -> Vec<Comparison> {
        let mut searched = Vec::new();
        for one in samples.chunk_by(|a, b| line(a) == line(b)) {
            if one.len() < 3 {
                continue;
            }
            let pairs: Vec<&Comparison> = (one.windows(2))
                .filter_map(|p| self.memo.get(&(p[0].clone(), p[1].clone())))
                .collect();
            let product: f64 = pairs.iter().map(|c| c.ratio).product();
            let moved = beyond(product, self.settings.threshold);
            if pairs.len() + 1 < one.len() || pairs.iter().any(|c| self.searched(c)) || !moved {
                continue;
            }
            if let Some(ends) = self.compare(&one[0], &one[one.len() - 1])
                && self.searched(&ends)
            {
                searched.push(ends);
            }
        }
        searched
    }

    /// Halves a pair that changed (or stayed undecided beyond the threshold) until its step
    /// lies between adjacent releases; each half searched in turn, so several steps inside
    /// it are each found. An adjacent pair is a step only when it changed.
    fn halve(&mut self, whole: Comparison) {
        while !self.oracle.stopped() {
            let inner = between(&self.candidates, &whole.base, &whole.new);
            let Some(inner) = inner else {
                // An end was skipped after it was measured: the pair cannot be narrowed.
                self.out.undecided.push(whole);
                return;
            };
            if inner.is_empty() {
                match whole.decision {
                    Decision::Changed => self.out.found.push(whole),
                    _ => self.out.undecided.push(whole),
                }
                return;
            }
            let mid = inner[inner.len() / 2].clone();
            let Some(left) = self.compare(&whole.base, &mid) else {
                continue;
            };
            let Some(right) = self.compare(&mid, &whole.new) else {
                continue;
            };
            let halves = [left, right];
            if !halves.iter().any(|h| self.searched(h)) {
                let undecided = halves.iter().filter(|c| c.decision == Decision::Undecided);
                let undecided: Vec<Comparison> = undecided.cloned().collect();
                if undecided.is_empty() && whole.decision == Decision::Changed {
                    self.out.drifts.push(whole);
                }
                self.out.undecided.extend(undecided);
            }
            for half in halves {
                if self.searched(&half) {
                    self.halve(half);
                }
            }
            return;
        }
    }

    /// Whether a pair is searched further: it changed, or it stayed undecided with its
    /// estimate beyond the threshold — its halves, each measured apart, may decide where
    /// the whole did not (a pair whose ends sit on either side of a change and its undoing
    /// spreads widest).
    fn searched(&self, c: &Comparison) -> bool {
        match c.decision {
            Decision::Changed => true,
            Decision::Undecided => beyond(c.ratio, self.settings.threshold),
            Decision::Same => false,
        }
    }

    /// The pair compared, run again while it straddles the threshold; `None` when a
    /// release was skipped (it leaves the candidates).
    fn compare(&mut self, base: &str, new: &str) -> Option<Comparison> {
        let key = (base.to_string(), new.to_string());
        if let Some(known) = self.memo.get(&key) {
            return Some(known.clone());
        }
        for attempt in 0..self.settings.attempts.max(1) {
            if self.oracle.stopped() {
                return None;
            }
            let measured = match self.oracle.compare(base, new, attempt) {
                Ok(measured) => measured,
                Err(_) if self.oracle.stopped() => return None,
                Err(unavailable) => {
                    self.candidates.retain(|r| *r != unavailable.release);
                    (self.on)(Event::Skipped(&unavailable));
                    self.out.skipped.push(unavailable);
                    return None;
                }
            };
            let interval = measured.change.interval;
            let comparison = Comparison {
                base: base.to_string(),
                new: new.to_string(),
                ratio: measured.change.ratio,
                interval,
                decision: decide(interval, self.settings.threshold),
                runs: attempt + 1,
                processes: measured.processes,
            };
            let more =
                comparison.decision == Decision::Undecided && attempt + 1 < self.settings.attempts;
            (self.on)(Event::Compared {
                comparison: &comparison,
                more,
            });
            if !more {
                self.out.steps.push(comparison.clone());
                self.memo.insert(key, comparison.clone());
                return Some(comparison);
            }
        }
        None
    }
}

/// The releases strictly between `base` and `new` among `candidates`; `None` when either
/// is no longer one.
fn between<'a>(candidates: &'a [String], base: &str, new: &str) -> Option<&'a [String]> {
    let at = |name: &str| candidates.iter().position(|r| r == name);
    let (a, b) = (at(base)?, at(new)?);
    Some(&candidates[a + 1..b])
}

/// The first and last release of each line (`go@1.22.0` and `go@1.22.12`; a Node major's
/// first and last) and `probes` releases evenly spaced between them, oldest first: a change
/// and its undoing in different lines are both seen; within one line when a probe falls
/// between them (the middle, by default) or the halving passes through them.
pub(crate) fn coarse_samples(candidates: &[String], probes: usize) -> Vec<String> {
    let mut samples: Vec<String> = Vec::new();
    for one in candidates.chunk_by(|a, b| line(a) == line(b)) {
        let last = one.len() - 1;
        let mut at: Vec<usize> = (1..=probes)
            .map(|k| (k * last + probes.div_ceil(2)) / (probes + 1))
            .collect();
        at.extend([0, last]);
        at.sort_unstable();
        at.dedup();
        samples.extend(at.into_iter().map(|i| one[i].clone()));
    }
    samples
}

/// A release's line: its first two numbers (Go's `1.22` of `1.22.12`, a library's minor),
/// but a Node release's major (`22` of `node22.3.1`: Node's minors are its patch trains).
fn line(release: &str) -> Vec<u64> {
    let numbers = release_order(release).unwrap_or_default();
    let spec = release.split_once('@').map_or("", |(_, s)| s);
    let keep = if spec.starts_with("node") { 1 } else { 2 };
    numbers.into_iter().take(keep).collect()
}

#[cfg(test)]
mod tests;
