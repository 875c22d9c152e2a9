//! Human units: durations and sizes written with three significant figures, and read back
//! from flags and preset files (parse.rs). A leaf: the runner, the plots, the store and
//! the report all write values this one way.

mod parse;

pub use parse::{parse_duration, parse_percent, parse_size};

/// `812 ns`, `3.40 µs`, `12.3 ms`, `1.002 s` (seconds keep one more digit: sleeps are near 1 s).
pub fn duration(ns: f64) -> String {
    let sign = if ns <= -0.5 { "-" } else { "" };
    let v = ns.abs();
    let (value, unit) = match v {
        v if v < 1e3 => return format!("{sign}{v:.0} ns"),
        v if v < 1e6 => (v / 1e3, "µs"),
        v if v < 1e9 => (v / 1e6, "ms"),
        v => return format!("{sign}{:.3} s", v / 1e9),
    };
    format!("{sign}{} {unit}", three(value))
}

/// `512 B`, `4.00 KiB`, `12.3 MiB`, `1.20 GiB`.
pub fn bytes(b: f64) -> String {
    let sign = if b <= -0.5 { "-" } else { "" };
    let v = b.abs();
    let (value, unit) = match v {
        v if v < 1024.0 => return format!("{sign}{v:.0} B"),
        v if v < 1024.0 * 1024.0 => (v / 1024.0, "KiB"),
        v if v < 1024.0 * 1024.0 * 1024.0 => (v / (1024.0 * 1024.0), "MiB"),
        v => (v / (1024.0 * 1024.0 * 1024.0), "GiB"),
    };
    format!("{sign}{} {unit}", three(value))
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
    match r.abs() {
        a if a < 1e3 => three(r),
        a if a < 1e6 => format!("{}k", three(r / 1e3)),
        _ => format!("{}M", three(r / 1e6)),
    }
}

/// A count to three significant figures: `812`, `12.4 k`, `1.24 M`, `3.10 G`.
pub fn count(n: f64) -> String {
    let sign = if n <= -0.5 { "-" } else { "" };
    let (value, unit) = match n.abs() {
        v if v < 1e3 => return format!("{n:.0}"),
        v if v < 1e6 => (v / 1e3, "k"),
        v if v < 1e9 => (v / 1e6, "M"),
        v => (v / 1e9, "G"),
    };
    format!("{sign}{} {unit}", three(value))
}

/// A share as a percentage: `38 %`, `4.2 %`, `0.31 %` (two significant figures below 10 %).
pub fn percent(share: f64) -> String {
    let p = share * 100.0;
    match p.abs() {
        a if a >= 10.0 => format!("{p:.0} %"),
        a if a >= 1.0 => format!("{p:.1} %"),
        _ => format!("{p:.2} %"),
    }
}

/// Three significant figures for 1 ≤ v < 1000.
fn three(v: f64) -> String {
    match v {
        v if v < 10.0 => format!("{v:.2}"),
        v if v < 100.0 => format!("{v:.1}"),
        v => format!("{v:.0}"),
    }
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
    }
}
