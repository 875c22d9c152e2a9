//! The interval of a median that stays honest at a handful of processes. A percentile
//! bootstrap of 3–5 processes claims 95 % where no interval can: the distribution-free
//! interval between two order statistics of the process medians holds the median of their
//! distribution with a probability the binomial distribution gives exactly, whatever that
//! distribution is (Hollander & Wolfe, *Nonparametric Statistical Methods*, §3.6). It needs
//! six processes for 95 % ([x₍₁₎, x₍₆₎] holds it with 1 − 2/2⁶ = 96.9 %); below six, the
//! whole range is the widest there is, and holds it with only 1 − 2/2ⁿ (75 % at three).

use super::{Interval, LEVEL, median, nested_median_ci};

/// The interval between order statistics of `values` (one per process) that holds their
/// distribution's median with at least [`LEVEL`]: [x₍ₖ₎, x₍ₙ₊₁₋ₖ₎] for the largest such k.
/// Below six values none does: the range, its `coverage` the one it has. `None` when empty.
pub fn order_interval(values: &[f64]) -> Option<Interval> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let (k, coverage) = ranks(n);
    Some(Interval {
        low: sorted[k - 1],
        high: sorted[n - k],
        coverage: (coverage < LEVEL).then_some(coverage),
    })
}

/// The rank k of the innermost pair [x₍ₖ₎, x₍ₙ₊₁₋ₖ₎] of `n` values that still holds their
/// median with [`LEVEL`] (k = 1, the range, when none does), and the pair's coverage
/// 1 − 2 · P(Bin(n, ½) ≤ k − 1). The binomial terms are summed in logarithms so that none
/// underflows at thousands of processes.
pub fn ranks(n: usize) -> (usize, f64) {
    let ln_half = -(n as f64) * std::f64::consts::LN_2;
    let (mut ln_choose, mut tail) = (0.0, 0.0);
    let mut k = 1;
    loop {
        // tail = P(Bin(n, ½) ≤ k − 1).
        if k > 1 {
            ln_choose += ((n - k + 2) as f64 / (k - 1) as f64).ln();
        }
        tail += (ln_choose + ln_half).exp();
        let next = ln_choose + ((n - k + 1) as f64 / k as f64).ln();
        let inner = 1.0 - 2.0 * (tail + (next + ln_half).exp());
        if k >= n.div_ceil(2) || inner < LEVEL {
            return (k, (1.0 - 2.0 * tail).max(0.0));
        }
        k += 1;
    }
}

/// The interval every table shows for a median over processes (`groups`, one per process,
/// its values the iterations): the wider, end by end, of the order-statistic interval of
/// the process medians and the two-level bootstrap ([`nested_median_ci`]), so that neither
/// few processes nor many iterations make it claim more than the sample holds. Its
/// `coverage` is set when the processes are too few for [`LEVEL`]. `None` with fewer than
/// two processes: one process's iterations say nothing of the next process (the spread
/// between processes is most of the noise), so a single process shows no interval at all;
/// empty groups are ignored.
pub fn median_interval(groups: &[Vec<f64>], resamples: usize) -> Option<Interval> {
    let process_medians: Vec<f64> = groups.iter().filter_map(|g| median(g)).collect();
    if process_medians.len() < 2 {
        return None;
    }
    let order = order_interval(&process_medians)?;
    let bootstrap = nested_median_ci(groups, resamples)?;
    Some(Interval {
        low: order.low.min(bootstrap.low),
        high: order.high.max(bootstrap.high),
        coverage: order.coverage,
    })
}

/// The interval every table shows for median(`a`) / median(`b`) (each `groups`, one per
/// process, in the order of the rounds they ran in): the two-level bootstrap's with the
/// rounds drawn as pairs ([`super::paired_ratio_ci`]), widened where either side
/// has too few processes for [`LEVEL`] to the quotient of the two order-statistic
/// intervals, [a.low / b.high, a.high / b.low]. That quotient holds the ratio of the two
/// medians whenever both intervals hold theirs, so with at least the product of their
/// coverages (56 % at three processes a side), which it states. `None` when either side
/// has fewer than two processes (one process says nothing of the next, [`median_interval`])
/// or `b` reaches 0.
pub fn ratio_interval(a: &[Vec<f64>], b: &[Vec<f64>], resamples: usize) -> Option<Interval> {
    let process_medians =
        |groups: &[Vec<f64>]| -> Vec<f64> { groups.iter().filter_map(|g| median(g)).collect() };
    let (medians_a, medians_b) = (process_medians(a), process_medians(b));
    if medians_a.len() < 2 || medians_b.len() < 2 {
        return None;
    }
    let bootstrap = super::paired_ratio_ci(a, b, resamples)?;
    let (a, b) = (medians_a, medians_b);
    let coverage = ranks(a.len()).1 * ranks(b.len()).1;
    if ranks(a.len()).1 >= LEVEL && ranks(b.len()).1 >= LEVEL {
        return Some(bootstrap);
    }
    let (oa, ob) = (order_interval(&a)?, order_interval(&b)?);
    if ob.low <= 0.0 {
        return None;
    }
    Some(Interval {
        low: bootstrap.low.min(oa.low / ob.high),
        high: bootstrap.high.max(oa.high / ob.low),
        coverage: (coverage < LEVEL).then_some(coverage),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulate::{Draw, coverage, ratio_coverage};
    use crate::tight_processes;
    use crate::{RESAMPLES, nested_ratio_ci};

    #[test]
    fn coverages_are_the_binomial_ones() {
        // 1 − 2/2ⁿ for the range: 75 %, 87.5 %, 93.75 %, 96.875 % at 3, 4, 5, 6.
        assert_eq!(ranks(3), (1, 0.75));
        assert_eq!(ranks(5), (1, 0.9375));
        assert_eq!(ranks(6), (1, 0.968_75));
        // n = 8: [x₍₂₎, x₍₇₎] holds 1 − 2 · 9/256 = 92.97 %, short: the range, 99.2 %.
        assert_eq!(ranks(8), (1, 1.0 - 2.0 / 256.0));
        // n = 20, k = 6: P(Bin(20, ½) ≤ 5) = 21,700 / 2²⁰ = 0.020 695, so 0.958 61; k = 7
        // would give 1 − 2 · 60,460 / 2²⁰ = 88.5 %.
        let (k, coverage) = ranks(20);
        assert_eq!(k, 6);
        assert!((coverage - (1.0 - 2.0 * 21_700.0 / 1_048_576.0)).abs() < 1e-12);
        // Thousands of processes neither underflow nor lose the level: k ≈ n/2 − 1.96 √n/2.
        let (k, coverage) = ranks(5_000);
        assert!(
            (2_425..=2_435).contains(&k) && coverage >= 0.95,
            "{k} {coverage}"
        );
    }

    #[test]
    fn the_ranks_are_the_innermost_that_reach_the_level() {
        let values: Vec<f64> = (1..=20).map(f64::from).collect();
        // ranks(20) = 6: x₍₆₎ and x₍₁₅₎.
        assert_eq!(order_interval(&values), Some(Interval::new(6.0, 15.0)));
        assert_eq!(
            order_interval(&[4.0, 1.0, 6.0, 2.0, 5.0, 3.0]),
            Some(Interval::new(1.0, 6.0)),
            "six: the range at 96.9 %"
        );
        let three = order_interval(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!(
            (three.low, three.high, three.coverage),
            (1.0, 3.0, Some(0.75))
        );
        assert_eq!(order_interval(&[7.0]).unwrap().coverage, Some(0.0));
        assert_eq!(order_interval(&[]), None);
    }

    #[test]
    fn one_process_shows_no_interval() {
        let one = vec![vec![10.0, 10.1, 9.9, 10.0]];
        assert_eq!(median_interval(&one, RESAMPLES), None);
        let two = vec![vec![10.0, 10.1], vec![10.4, 10.5]];
        assert_eq!(
            median_interval(&two, RESAMPLES).unwrap().coverage,
            Some(0.5)
        );
    }

    #[test]
    fn the_shown_interval_is_never_narrower_than_either() {
        let groups = vec![
            vec![10.0, 10.1],
            vec![10.4, 10.5],
            vec![9.6, 9.7],
            vec![10.2, 10.2],
            vec![9.9, 10.0],
        ];
        let shown = median_interval(&groups, RESAMPLES).unwrap();
        let bootstrap = nested_median_ci(&groups, RESAMPLES).unwrap();
        assert!(shown.low <= bootstrap.low && shown.high >= bootstrap.high);
        // Five processes: their medians' range, 9.65–10.45, at 93.75 %.
        assert!(shown.low <= 9.65 && shown.high >= 10.45, "{shown:?}");
        assert_eq!(shown.coverage, Some(0.9375));
        assert!(!shown.is_at_level());
    }

    #[test]
    fn a_ratio_over_few_processes_is_the_quotient_of_their_ranges() {
        let a = tight_processes(&[2.0, 3.0, 4.0], 1.0);
        let b = tight_processes(&[1.0, 1.1, 1.2, 1.3], 1.0);
        let shown = ratio_interval(&a, &b, RESAMPLES).unwrap();
        let bootstrap = nested_ratio_ci(&a, &b, RESAMPLES).unwrap();
        assert!(shown.low <= bootstrap.low && shown.high >= bootstrap.high);
        // The process medians' ranges, [2, 4] / [1, 1.3]: 1.54–4.0, held with 75 % × 87.5 %.
        assert!((shown.low - 2.0 / 1.3).abs() < 1e-9, "{shown:?}");
        assert!((shown.high - 4.0).abs() < 1e-9, "{shown:?}");
        assert_eq!(shown.coverage, Some(0.75 * 0.875));
        // Six a side: the bootstrap's own, at the level — paired by round, so a case
        // against itself is 1 give or take its iterations' spread.
        let six = tight_processes(&[1.0, 1.1, 1.2, 1.3, 1.4, 1.5], 1.0);
        let own = ratio_interval(&six, &six, RESAMPLES);
        assert_eq!(own, crate::paired_ratio_ci(&six, &six, RESAMPLES));
        assert!(
            own.unwrap().contains(1.0) && own.unwrap().high < 1.01,
            "{own:?}"
        );
    }

    #[test]
    fn simulated_ratio_coverage_is_at_least_the_stated_one() {
        for draw in Draw::ALL {
            for processes in [3, 4, 5] {
                let (covered, stated) = ratio_coverage(draw, processes);
                let stated = stated.expect("too few processes for 95 %");
                assert!(
                    covered >= stated - 0.03,
                    "{draw:?} × {processes}: {covered} < {stated}"
                );
            }
        }
    }

    #[test]
    fn simulated_coverage_reaches_the_level_at_6_and_20_processes() {
        for draw in Draw::ALL {
            for processes in [6, 20] {
                let (covered, _) = coverage(draw, processes);
                assert!(covered >= 0.93, "{draw:?} × {processes}: {covered}");
            }
        }
    }

    #[test]
    fn at_three_processes_the_interval_says_what_it_can_claim() {
        for draw in Draw::ALL {
            let (covered, stated) = coverage(draw, 3);
            assert_eq!(stated, Some(0.75), "{draw:?}");
            assert!((covered - 0.75).abs() < 0.05, "{draw:?}: {covered}");
        }
    }
}
