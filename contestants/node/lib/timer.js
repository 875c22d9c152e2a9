// The timer scenario's arithmetic, shared by every Node contestant: how many sleeps, how
// long each is on Node's millisecond timer (and which steps it cannot state), and the
// oversleep percentiles of the outcome.

/** Sleeps in one run: total-ms · 1000 / step-us, integer division (PROTOCOL.md §4). */
export function sleepCount(stepUs, totalMs) {
  return Math.floor((totalMs * 1000) / stepUs);
}

/**
 * Why setTimeout cannot sleep a step of `stepUs` µs, or null when it can. Its delay is a
 * whole number of milliseconds: Node sets a delay below 1 to 1 and truncates a fraction
 * (Node's timers docs), and the web platform's `setTimeout` that Deno and Bun follow takes
 * a `long`. Another step is declined (n/a), as the BEAM contestants decline it, rather than
 * rounded, which would count the rounding as oversleep (docs/FAIRNESS.md, timer
 * resolution). protocol.js asks before the first iteration.
 */
export function unstatedStep(stepUs) {
  if (stepUs % 1000 === 0) return null;
  return `setTimeout counts whole milliseconds: a step of ${stepUs} µs is not one`;
}

/** The delay to give setTimeout for a step: a whole number of milliseconds (above). */
export function stepMs(stepUs) {
  return stepUs / 1000;
}

/** The monotonic clock, read at the start of a sleep. */
export function now() {
  return process.hrtime.bigint();
}

/** Nanoseconds since `start`, as a Number (exact below 104 days). */
export function since(start) {
  return Number(process.hrtime.bigint() - start);
}

/**
 * The outcome of a timer run from the measured length of every sleep in nanoseconds: the
 * checksum is the number of sleeps, the extras the nearest-rank percentiles of how much
 * longer than the step each sleep took, clamped at 0.
 */
export function oversleepOutcome(sleptNs, stepUs) {
  const over = sleptNs.map((ns) => Math.max(0, ns - stepUs * 1000)).sort((a, b) => a - b);
  const rank = (q) => {
    if (over.length === 0) return 0;
    const index = Math.min(Math.max(Math.ceil(q * over.length), 1), over.length) - 1;
    return over[index];
  };
  return {
    checksum: sleptNs.length,
    extra: {
      oversleep_p50_ns: rank(0.5),
      oversleep_p99_ns: rank(0.99),
      oversleep_max_ns: rank(1),
    },
  };
}
