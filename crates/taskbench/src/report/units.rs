//! Human units for tables: durations and sizes with three significant figures.

/// `812 ns`, `3.40 µs`, `12.3 ms`, `1.002 s` (seconds keep one more digit: sleeps are near 1 s).
pub fn duration(ns: f64) -> String {
    let sign = if ns < 0.0 { "-" } else { "" };
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
    let sign = if b < 0.0 { "-" } else { "" };
    let v = b.abs();
    let (value, unit) = match v {
        v if v < 1024.0 => return format!("{sign}{v:.0} B"),
        v if v < 1024.0 * 1024.0 => (v / 1024.0, "KiB"),
        v if v < 1024.0 * 1024.0 * 1024.0 => (v / (1024.0 * 1024.0), "MiB"),
        v => (v / (1024.0 * 1024.0 * 1024.0), "GiB"),
    };
    format!("{sign}{} {unit}", three(value))
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
    }

    #[test]
    fn sizes() {
        assert_eq!(bytes(512.0), "512 B");
        assert_eq!(bytes(4096.0), "4.00 KiB");
        assert_eq!(bytes(12.9 * 1024.0 * 1024.0), "12.9 MiB");
        assert_eq!(bytes(-2048.0), "-2.00 KiB");
    }
}
