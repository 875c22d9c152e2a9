// The contestant protocol (docs/PROTOCOL.md, version 2) for every Node contestant, so that
// each one's main.js is only its scenarios: reads the command line, runs the unmeasured
// warm-up iterations, then the M measured ones, timing each with process.hrtime.bigint() and
// its CPU with process.cpuUsage() (microseconds; Bun and Deno run this file too), and
// printing its JSON line on stdout, and exits.
//
// A contestant hands run() an object of scenario functions. Each takes the parameters
// (camelCased: `delay-ms` becomes `delayMs`) and either calls back `(err, outcome)`, the
// callback styles, or returns a promise of the outcome, the promise styles. An outcome is
// the checksum, or `{ checksum, extra }`.

import { unstatedStep } from "./timer.js";

const EXIT_USAGE = 2;
const EXIT_NOT_IMPLEMENTED = 69;
const WARMUP_FLAG = "inner-warmup";
const ITERATIONS_FLAG = "iterations";
// `--warmup-<param> V`: the warm-up iterations run with <param> = V (PROTOCOL.md §1).
const WARMUP_PARAM_PREFIX = "warmup-";

// The parameters of every scenario, all passed on every invocation (PROTOCOL.md §1, §4).
const PARAMS = {
  spawn: ["tasks"],
  sleep: ["tasks", "delay-ms"],
  timer: ["step-us", "total-ms"],
  doxbee: ["requests", "io-ms"],
  parallel: ["requests", "fanout", "io-ms"],
  skynet: ["size"],
  pingpong: ["pairs", "rounds"],
  chain: ["length"],
  yield: ["tasks", "yields"],
  echo: ["connections", "rounds", "bytes"],
  connections: ["connections"],
};

/**
 * Runs the protocol around `scenarios[name]` and exits the process. `subMsTimer`: the
 * contestant's timer API states a step of any number of microseconds (else setTimeout's
 * whole milliseconds are assumed).
 */
export function run(scenarios, { subMsTimer = false } = {}) {
  const { name, params, warmupParams, warmups, iterations } = parse(process.argv.slice(2));
  const iteration = scenarios[name];
  if (iteration === undefined) notImplemented(name, `this contestant has no ${name} scenario`);
  // A timer step setTimeout cannot state is n/a at that point, never rounded (timer.js),
  // unless the contestant's timer states any step (`subMsTimer`: Effect's Duration).
  const unstated =
    name === "timer" && !subMsTimer
      ? (unstatedStep(params.stepUs) ?? unstatedStep(warmupParams.stepUs))
      : null;
  if (unstated) notImplemented(name, unstated);
  // Each line is flushed before the next iteration starts; after the last one the process
  // exits at once, as the Rust kit does: tearing the event loop down is not the workload.
  const measure = (left) => {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    once(iteration, params, (outcome) => {
      const elapsed = process.hrtime.bigint() - start;
      const cpu = process.cpuUsage(cpuStart);
      const cpuNs = (cpu.user + cpu.system) * 1000;
      print(elapsed, cpuNs, outcome, () => (left === 1 ? process.exit(0) : measure(left - 1)));
    });
  };
  const warmUp = (left) =>
    left === 0 ? measure(iterations) : once(iteration, warmupParams, () => warmUp(left - 1));
  warmUp(warmups);
}

/** One iteration, either style; an error in it is a bug in the contestant and ends the run. */
function once(iteration, params, next) {
  const callback = (err, outcome) => (err ? fail(err) : next(outcome));
  const promise = iteration(params, callback);
  if (typeof promise?.then === "function") {
    promise.then((outcome) => callback(null, outcome), fail);
  }
}

/** Writes one result line and calls `next` once it has been flushed. */
function print(elapsed, cpuNs, outcome, next) {
  const { checksum, extra = {} } = typeof outcome === "number" ? { checksum: outcome } : outcome;
  const line = JSON.stringify({ elapsed_ns: Number(elapsed), cpu_ns: cpuNs, checksum, extra });
  process.stdout.write(`${line}\n`, next);
}

/** Answers "n/a" for this point (PROTOCOL.md §3): one line on stderr saying why, exit 69. */
function notImplemented(name, reason) {
  console.error(`${name} not implemented: ${reason}`);
  process.exit(EXIT_NOT_IMPLEMENTED);
}

function fail(err) {
  console.error(err);
  process.exit(1);
}

/**
 * `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
 * --iterations M`; anything else exits 2.
 */
function parse(argv) {
  const [name, ...flags] = argv;
  if (!Object.hasOwn(PARAMS, name ?? "")) {
    usage(`unknown scenario '${name ?? ""}' (expected one of ${Object.keys(PARAMS).join(", ")})`);
  }
  const values = new Map();
  for (let k = 0; k < flags.length; k += 2) {
    const [flag, text] = [flags[k], flags[k + 1]];
    const key = flag.startsWith("--") ? flag.slice(2) : usage(`unexpected argument '${flag}'`);
    const param = key.startsWith(WARMUP_PARAM_PREFIX) ? key.slice(WARMUP_PARAM_PREFIX.length) : key;
    if (key !== WARMUP_FLAG && key !== ITERATIONS_FLAG && !PARAMS[name].includes(param)) {
      usage(`${name} has no parameter --${key}`);
    }
    const value = /^\d+$/.test(text ?? "") ? Number(text) : NaN;
    if (!Number.isSafeInteger(value)) usage(`--${key} needs a whole number, got '${text ?? ""}'`);
    values.set(key, value);
  }
  for (const key of [...PARAMS[name], WARMUP_FLAG, ITERATIONS_FLAG]) {
    if (!values.has(key)) usage(`${name} needs --${key}`);
  }
  if (values.get(ITERATIONS_FLAG) === 0) usage(`--${ITERATIONS_FLAG} must be at least 1`);
  const paramsFor = (prefix) =>
    Object.fromEntries(
      PARAMS[name].map((key) => [camelCase(key), values.get(prefix + key) ?? values.get(key)]),
    );
  return {
    name,
    params: paramsFor(""),
    warmupParams: paramsFor(WARMUP_PARAM_PREFIX),
    warmups: values.get(WARMUP_FLAG),
    iterations: values.get(ITERATIONS_FLAG),
  };
}

function camelCase(key) {
  return key.replace(/-(.)/g, (_, letter) => letter.toUpperCase());
}

function usage(message) {
  console.error(`${process.argv[1]}: ${message}`);
  process.exit(EXIT_USAGE);
}
