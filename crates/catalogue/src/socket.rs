//! The socket scenarios' byte pattern and sizes: which byte a client sends, what the bytes
//! that come back sum to, and how many descriptors a point holds open.
//!
//! Every byte a client sends is `(client + round) mod 255 + 1`, never 0, so a byte that was
//! not echoed (a buffer left as it was allocated) always changes the sum.

/// The largest request of `echo`: 1 MiB.
pub(crate) const MAX_BYTES: u64 = 1 << 20;

/// The most connections one point opens: a client port each, to one listener on one
/// loopback address, and TCP has 65,535 ports (Linux gives clients 28,232 by default; the
/// harness checks the machine's range before a run).
pub(crate) const MAX_CONNECTIONS: u64 = 65_535;

/// Descriptors a contestant holds besides its connections' two each (standard streams, the
/// listener, the runtime's epoll, eventfds, timers, a JVM's jars): what the harness adds to
/// `2 × connections` when it raises the open-file limit.
pub const FD_HEADROOM: u64 = 256;

/// The byte client `client` sends in round `round` (every byte of it), and the byte the
/// `connections` scenario's client `client` sends with `round` 0.
pub fn pattern_byte(client: u64, round: u64) -> u8 {
    // The sum is reduced before it is added, so no client or round overflows it.
    ((client % 255 + round % 255) % 255 + 1) as u8
}

/// Σ pattern_byte(k, 0) for k < n, exactly: whole cycles of 1 … 255, then the rest.
pub(crate) fn pattern_sum(n: u64) -> u128 {
    let cycles = u128::from(n / 255);
    let rest = u128::from(n % 255);
    cycles * (255 * 256 / 2) + rest * (rest + 1) / 2
}

/// Σ over clients c < connections and rounds r < rounds of pattern_byte(c, r): each client's
/// rounds are the pattern from c to c + rounds.
pub(crate) fn echo_sum(connections: u64, rounds: u64) -> u128 {
    // pattern_byte(c, r) = pattern_byte(c + r, 0), so a client's sum is a difference of two
    // prefix sums; u64 holds c + rounds because connections ≤ 65,535.
    (0..connections)
        .map(|c| pattern_sum(c.saturating_add(rounds)) - pattern_sum(c))
        .sum()
}

/// Descriptors a point of a socket scenario holds at once: both ends of every connection
/// and [`FD_HEADROOM`].
pub(crate) fn open_files(connections: u64) -> u64 {
    connections.saturating_mul(2).saturating_add(FD_HEADROOM)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pattern_never_sends_zero_and_cycles_every_255() {
        assert_eq!(pattern_byte(0, 0), 1);
        assert_eq!(pattern_byte(254, 0), 255);
        assert_eq!(pattern_byte(255, 0), 1);
        assert_eq!(pattern_byte(3, 4), 8);
        // 2^64 − 1 is a multiple of 255: no overflow, and the pattern starts again at 1.
        assert_eq!(pattern_byte(u64::MAX, u64::MAX), 1);
        assert!((0..600).all(|k| pattern_byte(k, 7) != 0));
    }

    #[test]
    fn the_closed_sums_are_the_loops() {
        for n in [0, 1, 2, 254, 255, 256, 1_000] {
            let looped: u128 = (0..n).map(|k| u128::from(pattern_byte(k, 0))).sum();
            assert_eq!(pattern_sum(n), looped, "n = {n}");
        }
        for (c, r) in [(0, 1), (1, 1), (3, 300), (100, 100)] {
            let looped: u128 = (0..c)
                .flat_map(|k| (0..r).map(move |j| u128::from(pattern_byte(k, j))))
                .sum();
            assert_eq!(echo_sum(c, r), looped, "{c} × {r}");
        }
    }
}
