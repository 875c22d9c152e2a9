//! Human units: durations and sizes written with three significant figures, and read back
//! from flags and preset files (parse.rs). A leaf: the runner, the plots, the store and
//! the report all write values this one way.
//!
//! One of taskbench's layers (issue 47), in a crate of its own: it uses humantime (to read
//! durations) and nothing of the harness.

mod parse;

pub use parse::{parse_duration, parse_percent, parse_size};

/// A unit a value may be written in: its size in the base unit, its name (with the space
/// before it, if any) and how its mantissa is written.
type Unit = (f64, &'static str, fn(f64) -> String);

const DURATION_UNITS: &[Unit] = &[
    (1.0, " ns", whole),
    (1e3, " µs", three),
    (1e6, " ms", three),
    (1e9, " s", millis),
];
const BYTE_UNITS: &[Unit] = &[
    (1.0, " B", whole),
    (1024.0, " KiB", three),
    (1024.0 * 1024.0, " MiB", three),
    (1024.0 * 1024.0 * 1024.0, " GiB", three),
];
const COUNT_UNITS: &[Unit] = &[
    (1.0, "", whole),
    (1e3, " k", three),
    (1e6, " M", three),
    (1e9, " G", three),
];
const RATIO_UNITS: &[Unit] = &[(1.0, "", three), (1e3, "k", three), (1e6, "M", three)];

/// `v` in the first of `units` whose mantissa, rounded as it is written, is below 1000 (the
/// last takes any): rounded first, then the unit chosen, so 999.9 ns is `1.00 µs`, never
/// `1000 ns`. A minus sign only before a mantissa that is not written as zero.
fn scaled(v: f64, units: &[Unit]) -> String {
    let magnitude = v.abs();
    let (mantissa, name) = units
        .iter()
        .enumerate()
        .map(|(i, &(size, name, write))| {
            (bounded(magnitude / size, write), name, i + 1 == units.len())
        })
        .find(|(text, _, last)| *last || text.parse::<f64>().is_ok_and(|m| m < 1000.0))
        .map(|(text, name, _)| (text, name))
        .expect("every scale has a last unit");
    let zero = mantissa.parse::<f64>().is_ok_and(|m| m == 0.0);
    let sign = if v < 0.0 && !zero { "-" } else { "" };
    format!("{sign}{mantissa}{name}")
}

/// Past this, a mantissa is written in scientific notation (`1.00e299 s`): a figure that
/// large is a fault to be seen, not three hundred digits to scroll past.
const SCIENTIFIC_FROM: f64 = 1e6;

/// `v` as `write` writes it, or as `1.23e45` from [`SCIENTIFIC_FROM`] on.
fn bounded(v: f64, write: fn(f64) -> String) -> String {
    if v.abs() >= SCIENTIFIC_FROM {
        format!("{v:.2e}")
    } else {
        write(v)
    }
}

/// The unit of `units` that `largest` is at least one of (the first for less): a chart
/// axis's, one for all its ticks. Its size and its name, without the space before it.
fn unit_for(largest: f64, units: &[Unit]) -> (f64, &'static str) {
    let (size, name, _) = units
        .iter()
        .rev()
        .find(|(size, ..)| largest.abs() >= *size)
        .unwrap_or(&units[0]);
    (*size, name.trim_start())
}

/// The duration unit an axis up to `largest` ns is drawn in: `(1e6, "ms")` for 12.3 ms.
pub fn duration_unit(largest: f64) -> (f64, &'static str) {
    unit_for(largest, DURATION_UNITS)
}

/// The size unit an axis up to `largest` bytes is drawn in: `(1024.0, "KiB")` for 4 KiB.
pub fn byte_unit(largest: f64) -> (f64, &'static str) {
    unit_for(largest, BYTE_UNITS)
}

/// `812 ns`, `3.40 µs`, `12.3 ms`, `1.002 s` (seconds keep one more digit: sleeps are near 1 s).
pub fn duration(ns: f64) -> String {
    scaled(ns, DURATION_UNITS)
}

/// `512 B`, `4.00 KiB`, `12.3 MiB`, `1.20 GiB`; `0.98 KiB` for 1000 B rather than four digits.
pub fn bytes(b: f64) -> String {
    scaled(b, BYTE_UNITS)
}

/// `11.9–12.8 ms`: an interval of durations, the unit written once when both ends share it.
pub fn duration_range(low: f64, high: f64) -> String {
    let (low, high) = (duration(low), duration(high));
    match (low.rsplit_once(' '), high.rsplit_once(' ')) {
        (Some((l, unit)), Some((h, other))) if unit == other => format!("{l}–{h} {unit}"),
        _ => format!("{low}–{high}"),
    }
}

/// A long time to the nearest sensible unit: `850 ms`, `45 s`, `19 min`, `2 h 05 min`.
pub fn rough_duration(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    match s {
        s if s < 1.0 => format!("{:.0} ms", s * 1e3),
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 5_400.0 => format!("{:.0} min", s / 60.0),
        s => {
            let minutes = (s / 60.0).round() as u64;
            format!("{} h {:02} min", minutes / 60, minutes % 60)
        }
    }
}

/// A ratio to three significant figures: `1.00`, `12.3`, `942`, `9.42k`, `1.18M`.
pub fn ratio(r: f64) -> String {
    scaled(r, RATIO_UNITS)
}

/// A count to three significant figures: `812`, `12.4 k`, `1.24 M`, `3.10 G`.
pub fn count(n: f64) -> String {
    scaled(n, COUNT_UNITS)
}

/// A share as a percentage: `38 %`, `4.2 %`, `0.31 %` (two significant figures below 10 %,
/// the decimals chosen by the value as rounded: `10 %` for 9.996 %, not `10.0 %`).
pub fn percent(share: f64) -> String {
    let p = share * 100.0;
    let text = [(2, 1.0), (1, 10.0)]
        .into_iter()
        .map(|(decimals, below)| (format!("{p:.decimals$}"), below))
        .find(|(text, below)| text.parse::<f64>().is_ok_and(|r| r.abs() < *below))
        .map_or_else(|| bounded(p, |p| format!("{p:.0}")), |(text, _)| text);
    format!("{text} %")
}

/// Three significant figures for 0 ≤ v < 1000, the decimals chosen by the value as rounded:
/// `9.99`, `10.0` for 9.996 (not `10.00`), `100` for 99.96 (not `100.0`).
fn three(v: f64) -> String {
    for (decimals, below) in [(2, 10.0), (1, 100.0)] {
        let text = format!("{v:.decimals$}");
        if text.parse::<f64>().is_ok_and(|r| r.abs() < below) {
            return text;
        }
    }
    format!("{v:.0}")
}

/// A whole number of the base unit: `812`.
fn whole(v: f64) -> String {
    format!("{v:.0}")
}

/// Seconds to the millisecond: `1.002`.
fn millis(v: f64) -> String {
    format!("{v:.3}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration(812.0), "812 ns");
        assert_eq!(duration(3_404.0), "3.40 µs");
        assert_eq!(duration(12_345_678.0), "12.3 ms");
        assert_eq!(duration(1_002_345_678.0), "1.002 s");
        assert_eq!(duration(-2_500_000.0), "-2.50 ms");
        assert_eq!(duration(-0.3), "0 ns", "no negative zero");
    }

    #[test]
    fn a_figure_past_reason_is_short() {
        // Issue 46: 1e308 was three hundred digits in `show`.
        assert_eq!(duration(1e308), "1.00e299 s");
        assert_eq!(duration(-1e308), "-1.00e299 s");
        assert_eq!(bytes(1e308), "9.31e298 GiB");
        assert_eq!(ratio(1.0787569633748276e16), "1.08e10M");
        assert_eq!(percent(1e300), "1.00e302 %");
        assert_eq!(duration(999_999.0 * 1e9), "999999.000 s");
        assert_eq!(duration(1e6 * 1e9), "1.00e6 s");
    }

    #[test]
    fn rounding_never_rolls_a_unit_over() {
        assert_eq!(duration(999.4), "999 ns");
        assert_eq!(duration(999.9), "1.00 µs");
        assert_eq!(duration(999_400.0), "999 µs");
        assert_eq!(duration(999_994.0), "1.00 ms");
        assert_eq!(duration(999_999.0), "1.00 ms");
        assert_eq!(duration(9_996.0), "10.0 µs");
        assert_eq!(duration(99_960.0), "100 µs");
        assert_eq!(duration(999_999_999.0), "1.000 s");
        assert_eq!(duration(-999.9), "-1.00 µs");
        assert_eq!(bytes(1023.0), "1.00 KiB");
        assert_eq!(bytes(999.0), "999 B");
        assert_eq!(bytes(1000.0), "0.98 KiB");
        assert_eq!(bytes(1024.0 * 1023.9), "1.00 MiB");
        assert_eq!(count(999.7), "1.00 k");
        assert_eq!(ratio(999.7), "1.00k");
        assert_eq!(ratio(9.996), "10.0");
    }

    #[test]
    fn sizes() {
        assert_eq!(bytes(512.0), "512 B");
        assert_eq!(bytes(4096.0), "4.00 KiB");
        assert_eq!(bytes(12.9 * 1024.0 * 1024.0), "12.9 MiB");
        assert_eq!(bytes(-2048.0), "-2.00 KiB");
    }

    #[test]
    fn ranges_write_a_shared_unit_once() {
        assert_eq!(duration_range(11.9e6, 12.8e6), "11.9–12.8 ms");
        assert_eq!(duration_range(812.0, 1_200.0), "812 ns–1.20 µs");
        assert_eq!(duration_range(1.001e9, 1.004e9), "1.001–1.004 s");
    }

    #[test]
    fn rough_durations() {
        use std::time::Duration;
        assert_eq!(rough_duration(Duration::from_millis(850)), "850 ms");
        assert_eq!(rough_duration(Duration::from_secs(45)), "45 s");
        assert_eq!(rough_duration(Duration::from_secs(1_140)), "19 min");
        assert_eq!(rough_duration(Duration::from_secs(7_500)), "2 h 05 min");
    }

    #[test]
    fn ratios() {
        assert_eq!(ratio(1.0), "1.00");
        assert_eq!(ratio(0.987), "0.99");
        assert_eq!(ratio(12.34), "12.3");
        assert_eq!(ratio(942_399.95), "942k");
        assert_eq!(ratio(1_175_049.0), "1.18M");
    }

    #[test]
    fn percentages() {
        assert_eq!(percent(0.38), "38 %");
        assert_eq!(percent(0.042), "4.2 %");
        assert_eq!(percent(0.0031), "0.31 %");
        assert_eq!(percent(0.1), "10 %");
        assert_eq!(percent(0.099_96), "10 %");
        assert_eq!(percent(0.009_996), "1.0 %");
        assert_eq!(percent(-0.042), "-4.2 %");
    }

    proptest::proptest! {
        #![proptest_config(testkit::config())]

        /// No unit is ever written with a mantissa of 1000 or more but the last (seconds,
        /// GiB), and the text reads back as the value to within its rounding.
        #[test]
        fn a_mantissa_stays_below_1000(v in 0.0f64..1e9) {
            for (text, units) in [(duration(v), DURATION_UNITS), (bytes(v), BYTE_UNITS)] {
                let (mantissa, name) = text.split_once(' ').unwrap();
                let mantissa: f64 = mantissa.parse().unwrap();
                let &(size, ..) = units.iter().find(|u| u.1.trim() == name).unwrap();
                let last = units.last().unwrap().1.trim() == name;
                proptest::prop_assert!(last || mantissa < 1000.0, "{v}: {text}");
                let back = mantissa * size;
                proptest::prop_assert!((back - v).abs() <= 0.5f64.max(v * 0.006), "{v}: {text}");
            }
        }
    }
}
