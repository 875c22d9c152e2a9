//! What an axis shows and in which unit: nanoseconds become µs, ms or s and bytes KiB,
//! MiB or GiB, chosen from the largest value so that tick labels stay short (the units'
//! own ladder, units.rs).

/// The kind of number on an axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// Nanoseconds.
    Time,
    /// Bytes.
    Memory,
    /// A plain count (tasks, requests, µs of a parameter): shown as it is.
    Count,
}

/// A unit to divide values by before drawing them, with its name for the axis label.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Unit {
    pub(crate) divisor: f64,
    pub(crate) name: &'static str,
}

impl Quantity {
    /// The unit in which `largest` reads as a number below 1,000 (1,024 for sizes).
    pub(crate) fn unit_for(self, largest: f64) -> Unit {
        let (divisor, name) = match self {
            Quantity::Time => units::duration_unit(largest),
            Quantity::Memory => units::byte_unit(largest),
            Quantity::Count => (1.0, ""),
        };
        Unit { divisor, name }
    }
}

/// `label (unit)`, or the bare label for counts.
pub(crate) fn axis_label(label: &str, unit: Unit) -> String {
    match unit.name {
        "" => label.to_string(),
        name => format!("{label} ({name})"),
    }
}

/// A tick label: at most three significant figures, no trailing zeros, thousands as
/// `10k` and millions as `1M` so that counts stay short.
pub fn tick(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 && (a / 1e6).fract() == 0.0 {
        return format!("{}M", v / 1e6);
    }
    if a >= 1e4 && (a / 1e3).fract() == 0.0 {
        return format!("{}k", v / 1e3);
    }
    let decimals = match a {
        a if a == 0.0 || a >= 100.0 => 0,
        a if a >= 10.0 => 1,
        a if a >= 1.0 => 2,
        _ => 3,
    };
    let text = format!("{v:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_keep_numbers_short() {
        assert_eq!(Quantity::Time.unit_for(812.0).name, "ns");
        assert_eq!(Quantity::Time.unit_for(0.0).name, "ns");
        assert_eq!(Quantity::Time.unit_for(1e3).name, "µs");
        assert_eq!(Quantity::Memory.unit_for(1023.0).name, "B");
        assert_eq!(Quantity::Memory.unit_for(1024.0).name, "KiB");
        assert_eq!(Quantity::Time.unit_for(12_345_678.0).name, "ms");
        assert_eq!(Quantity::Time.unit_for(5.1e9).name, "s");
        assert_eq!(Quantity::Memory.unit_for(3.0 * 1024.0 * 1024.0).name, "MiB");
        assert_eq!(
            Quantity::Memory.unit_for(2e9).divisor,
            1024.0 * 1024.0 * 1024.0
        );
        assert_eq!(
            axis_label("elapsed", Quantity::Time.unit_for(2e6)),
            "elapsed (ms)"
        );
        assert_eq!(axis_label("tasks", Quantity::Count.unit_for(1e6)), "tasks");
    }

    #[test]
    fn ticks_read_like_people_write_them() {
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(0.125), "0.125");
        assert_eq!(tick(12.0), "12");
        assert_eq!(tick(150.0), "150");
        assert_eq!(tick(10_000.0), "10k");
        assert_eq!(tick(1_000_000.0), "1M");
        assert_eq!(tick(1_500.0), "1500");
    }
}
