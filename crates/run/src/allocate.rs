//! Who gets a process in a budgeted round (`--budget`): as many cases at their target, and
//! at the 95 % level, as the budget can buy. Every case keeps its minimum (run/progress.rs:
//! `min_runs` time processes and a memory one) while the minimums fit. What is left funds
//! goals: each case's target (the processes its own spread asks for, where `max_runs`
//! allows them) cheapest first, which maximises how many reach it, then each case's 95 %
//! level ([`LEVEL_RUNS`] time processes) cheapest first; a case's later bid counts what its
//! earlier one bought. A case none of whose goals fits stays at its minimum. Once no goal
//! fits, what remains goes to the cases at the 95 % level and still short of their target,
//! most short per second first. A round gives each chosen case what it wants of
//! it; the runner shuffles the round. A case on its way to the level (more time processes
//! than its minimum, fewer than six) keeps its funding: the rest of its level is reserved
//! like a minimum, so that no case is left between the two, at a coverage no goal asked
//! for, with what was spent on it lost.
//!
//! [`LEVEL_RUNS`]: super::price::LEVEL_RUNS

use super::price::LEVEL_RUNS;
use super::progress::{CaseProgress, Wants};
use std::time::Duration;

/// The processes a round gives each case: (its index, what it makes).
pub(crate) type Round = Vec<(usize, Wants)>;

/// The round `cases` get with `left` of the budget (each case by its index; stopped ones
/// ask for nothing).
pub(crate) fn round(cases: &[&CaseProgress], left: Duration) -> Round {
    let live = || cases.iter().enumerate().filter(|(_, c)| c.wants_more());
    let mut granted = vec![Duration::ZERO; cases.len()];
    let mut reserve = Duration::ZERO;
    for (i, case) in live() {
        let Some(price) = case.price() else {
            continue;
        };
        reserve += price.minimum;
        if case.on_the_way_to_level() {
            granted[i] = price.level.saturating_sub(price.minimum);
            reserve += granted[i];
        }
    }
    let funded = fund(&bids(cases), left.saturating_sub(reserve), granted);
    let round: Round = live()
        .map(|(i, c)| {
            (
                i,
                if funded[i] {
                    c.wants()
                } else {
                    c.minimum_wants()
                },
            )
        })
        .filter(|(_, wants)| !wants.is_empty())
        .collect();
    if round.is_empty() {
        beyond_goals(cases, left)
    } else {
        round
    }
}

/// Every live case's goals as bids, in the order they are funded — the targets cheapest
/// first, then the 95 % levels cheapest first — each with what it costs beyond the case's
/// minimum, and whose. Targets first: a cell within ±5 % at 95 % is what the budget is for;
/// a level alone gives an honest interval no narrower than the case's spread, and buys it
/// with what could have brought a cheaper case to its target. Replayed over three default
/// runs' recorded processes (2026-12-07), this order brought 8–15 % more cells within the
/// target than one list of both by cost, at 1–2 % fewer cells at the level.
fn bids(cases: &[&CaseProgress]) -> Vec<(Duration, usize)> {
    let mut targets: Vec<(Duration, usize)> = Vec::new();
    let mut levels: Vec<(Duration, usize)> = Vec::new();
    for (i, case) in cases.iter().enumerate().filter(|(_, c)| c.wants_more()) {
        let Some(price) = case.price() else {
            continue;
        };
        let beyond = |goal: Duration| goal.saturating_sub(price.minimum);
        if let Some(target) = price.target.map(beyond).filter(|d| !d.is_zero()) {
            targets.push((target, i));
        }
        if !beyond(price.level).is_zero() {
            levels.push((beyond(price.level), i));
        }
    }
    targets.sort();
    levels.sort();
    targets.extend(levels);
    targets
}

/// Which cases `bids` (in their order) fund out of `spare`, over what each was `granted`
/// already: each bid pays what it costs beyond the case's grant.
fn fund(bids: &[(Duration, usize)], mut spare: Duration, mut granted: Vec<Duration>) -> Vec<bool> {
    for &(cost, i) in bids {
        let more = cost.saturating_sub(granted[i]);
        if more.is_zero() || more > spare {
            continue;
        }
        spare -= more;
        granted[i] = cost;
    }
    granted.iter().map(|g| !g.is_zero()).collect()
}

/// Once no goal fits: the cases at the 95 % level and still short of their target, most
/// short per second their round costs first, as many as `left` pays for.
fn beyond_goals(cases: &[&CaseProgress], left: Duration) -> Round {
    let mut short: Vec<(f64, Duration, usize)> = cases
        .iter()
        .enumerate()
        .filter(|(_, c)| c.wants_more() && c.time_processes() >= LEVEL_RUNS)
        .filter_map(|(i, c)| {
            let cost = c.round_cost(c.wants())?;
            let need = c.shortfall()?.max(0.0) / cost.as_secs_f64().max(1e-9);
            Some((need, cost, i))
        })
        .collect();
    short.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.2.cmp(&b.2)));
    let mut spare = left;
    let mut round = Round::new();
    for (_, cost, i) in short {
        if cost <= spare {
            spare -= cost;
            round.push((i, cases[i].wants()));
        }
    }
    round
}
