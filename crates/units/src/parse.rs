//! Values people type in flags and preset files, read: durations, shares and sizes. Beside
//! the writing of units so that one module knows what `500ms` or `8GiB` means.

use std::time::Duration;

/// `30` (seconds), `90s`, `500ms`, `2m`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let parsed = match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds > 0.0 => Duration::try_from_secs_f64(seconds)
            .map_err(|_| "is too long (examples: 30, 90s, 2m)".to_string())?,
        Ok(_) => return Err("must be a positive time".into()),
        Err(_) => {
            humantime::parse_duration(text).map_err(|e| format!("{e} (examples: 30, 90s, 2m)"))?
        }
    };
    if parsed.is_zero() {
        return Err("must be a positive time".into());
    }
    Ok(parsed)
}

/// `2%`, `2` or `0.5%`: a share, returned as a fraction (0.02).
pub fn parse_percent(text: &str) -> Result<f64, String> {
    let number = text.trim();
    let number = number.strip_suffix('%').unwrap_or(number).trim();
    match number.parse::<f64>() {
        // A share too small for an f64 (`1e-322%`) is not above 0 either.
        Ok(pct) if pct.is_finite() && pct / 100.0 > 0.0 && pct < 100.0 => Ok(pct / 100.0),
        _ => Err(format!(
            "'{text}' is not a percentage between 0 and 100 (examples: 2%, 5, 0.5%)"
        )),
    }
}

/// The size units, in any case: SI's powers of 1000 (`kB`, `MB`, `GB`, `TB`) and IEC's of
/// 1024 (`KiB`, `MiB`, `GiB`, `TiB`); a bare `K`, `M`, `G`, `T` is binary, as `ulimit`
/// and container runtimes read it.
const SIZE_UNITS: &[(&str, u64)] = &[
    ("", 1),
    ("b", 1),
    ("kb", 1_000),
    ("mb", 1_000_000),
    ("gb", 1_000_000_000),
    ("tb", 1_000_000_000_000),
    ("k", 1 << 10),
    ("kib", 1 << 10),
    ("m", 1 << 20),
    ("mib", 1 << 20),
    ("g", 1 << 30),
    ("gib", 1 << 30),
    ("t", 1 << 40),
    ("tib", 1 << 40),
];

/// `8GiB`, `500MiB`, `100MB`, `64kB`, `1G`, `1048576` (bytes): see [`SIZE_UNITS`].
pub fn parse_size(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let unit_lower = unit.trim().to_ascii_lowercase();
    let Some(&(_, scale)) = SIZE_UNITS.iter().find(|(name, _)| *name == unit_lower) else {
        return Err(format!(
            "unknown unit '{unit}' (examples: 8GiB, 500MiB, 100MB, 64kB)"
        ));
    };
    match digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
    {
        Some(0) | None => Err("must be a positive size (examples: 8GiB, 500MiB, 100MB)".into()),
        Some(bytes) => Ok(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_read_like_people_write_them() {
        assert_eq!(parse_duration("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
    }

    #[test]
    fn sizes_take_si_and_iec_units() {
        assert_eq!(parse_size("100MB"), Ok(100_000_000));
        assert_eq!(parse_size("100MiB"), Ok(100 << 20));
        assert_eq!(parse_size("1kB"), Ok(1_000));
        assert_eq!(parse_size("1KB"), Ok(1_000));
        assert_eq!(parse_size("1KiB"), Ok(1_024));
        assert_eq!(parse_size("2 GB"), Ok(2_000_000_000));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("1TB"), Ok(1_000_000_000_000));
        assert_eq!(parse_size("1tib"), Ok(1 << 40));
        // The largest that fits, and one past it.
        assert_eq!(parse_size("18446744073709551615B"), Ok(u64::MAX));
        assert!(parse_size("18446744073709552kB").is_err());
        assert_eq!(
            parse_size("18446744073709551kB"),
            Ok(18_446_744_073_709_551_000)
        );
        assert!(parse_size("0MB").is_err() && parse_size("1 XB").is_err());
    }

    #[test]
    fn sizes_take_binary_units() {
        assert_eq!(parse_size("8GiB"), Ok(8 << 30));
        assert_eq!(parse_size("500M"), Ok(500 << 20));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(
            parse_size("0").is_err()
                && parse_size("5 parsecs").is_err()
                && parse_size("GiB").is_err()
        );
    }
}

#[cfg(test)]
mod proptests;
