// Every join in the Node contestants adds up what its tasks returned: that sum is the
// checksum the harness checks.

/** The sum of an array of numbers. */
export function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}
