//! Parameter values as people type them: `10000`, `10_000`, `10k`, `1M`.

use crate::CatalogueError;

/// Parses a non-negative count; `k` multiplies by 1,000 and `M` by 1,000,000.
pub fn parse_count(param: &str, text: &str) -> Result<u64, CatalogueError> {
    let bad = |reason: &str| CatalogueError::BadValue {
        param: param.to_string(),
        value: text.to_string(),
        reason: reason.to_string(),
    };
    let digits = text.trim().replace('_', "");
    if digits.starts_with('-') {
        return Err(bad("is negative; expected a count ≥ 0"));
    }
    let (number, scale) = match digits.strip_suffix('k') {
        Some(n) => (n, 1_000),
        None => match digits.strip_suffix('M') {
            Some(n) => (n, 1_000_000),
            None => (digits.as_str(), 1),
        },
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(
            "is not a whole number (examples: 1000, 10_000, 10k, 1M)",
        ));
    }
    number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .ok_or_else(|| bad("is too large"))
}
