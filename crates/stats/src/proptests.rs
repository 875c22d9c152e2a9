//! Property tests of the statistics over any figures a contestant could make the harness
//! hold (issue 46): zero, one, u64::MAX, 2^63, negative, NaN, ±∞, 1e308 and ordinary values,
//! in any number of processes. Nothing panics; and on figures a process can report (finite,
//! 0 to u64::MAX) every summary stays finite and between the extremes — no wrapped sum.

use super::*;
use proptest::prelude::*;
use testkit::config;

/// Any figure, the edges often.
fn any_figure() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => prop::sample::select(vec![
            0.0, 1.0, u64::MAX as f64, (1u64 << 63) as f64, -1.0, f64::NAN, f64::INFINITY,
            f64::NEG_INFINITY, 1e308, f64::MIN_POSITIVE, 5e-324,
        ]),
        2 => any::<f64>(),
        3 => 0.0..1e10f64,
    ]
}

/// A figure a process can report: 0 to u64::MAX nanoseconds or bytes.
fn reportable() -> impl Strategy<Value = f64> {
    prop_oneof![
        prop::sample::select(vec![0.0, 1.0, u64::MAX as f64, (1u64 << 63) as f64]),
        any::<u64>().prop_map(|n| n as f64),
        (0.0..1e10f64),
    ]
}

fn processes(figure: BoxedStrategy<f64>) -> impl Strategy<Value = Vec<Vec<f64>>> {
    prop::collection::vec(prop::collection::vec(figure, 1..12), 1..10)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn no_statistic_panics_on_any_figures(
        groups in processes(any_figure().boxed()),
        other in processes(any_figure().boxed()),
    ) {
        let flat: Vec<f64> = groups.iter().flatten().copied().collect();
        let _ = Summary::of(&flat);
        let _ = Summary::nested(&groups);
        let _ = median(&flat);
        let _ = median_interval(&groups, 64);
        let _ = ratio_interval(&groups, &other, 64);
        let _ = nested_median_ci(&groups, 64);
        let _ = nested_ratio_ci(&groups, &other, 64);
        let _ = paired_ratio_ci(&groups, &other, 64);
        let _ = modes(&groups);
        let _ = modified_z_scores(&flat);
        let _ = pooled_median(&groups);
        let _ = best_split(&flat, 2);
        let settings = ChangeSettings { permutations: 20, ..CHANGE_SETTINGS };
        let _ = change_points(&flat, &settings);
    }

    #[test]
    fn a_summary_of_reportable_figures_stays_between_them(groups in processes(reportable().boxed())) {
        let flat: Vec<f64> = groups.iter().flatten().copied().collect();
        let (low, high) = flat.iter().fold((f64::MAX, 0.0f64), |(l, h), &v| (l.min(v), h.max(v)));
        for summary in [Summary::of(&flat).unwrap(), Summary::nested(&groups).unwrap()] {
            let within = |v: f64| v.is_finite() && v >= low && v <= high;
            prop_assert!(within(summary.median), "{:?}", summary);
            prop_assert!(within(summary.mean), "{:?}", summary);
            prop_assert!(summary.stddev.is_finite() && summary.mad.is_finite(), "{:?}", summary);
            if let Some(ci) = summary.median_ci {
                prop_assert!(ci.low <= ci.high && within(ci.low) && within(ci.high), "{:?}", summary);
            }
        }
    }
}
