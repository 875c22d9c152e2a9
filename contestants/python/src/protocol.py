"""The contestant protocol of docs/PROTOCOL.md (v2), written once for every Python contestant.

A contestant hands `run` its scenarios and the function that starts its event loop. `run`
reads the command line, runs the unmeasured warm-up iterations and then the M measured ones
inside a single event loop (so starting and closing the loop stay outside the measure),
times each measured one with `time.perf_counter_ns()` and its CPU (every thread's user +
system time) with `time.process_time_ns()`, and prints its JSON line. A runtime without
coroutines (gevent) hands `run_blocking` plain functions instead, and no loop to start.
"""

import json
import math
import os
import sys
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from time import perf_counter_ns, process_time_ns
from typing import Any, NoReturn

EXIT_USAGE = 2
EXIT_NOT_IMPLEMENTED = 69  # sysexits' EX_UNAVAILABLE: shown as n/a, not as a failure

WARMUP_FLAG = "inner-warmup"
ITERATIONS_FLAG = "iterations"  # at least 1, and always passed, like a scenario's parameters
WARMUP_PARAM_PREFIX = "warmup-"  # --warmup-<param> V: <param> = V in the warm-up iterations

# The parameters of every scenario in catalogue order, each with its least accepted value
# (crates/catalogue/src/lib.rs).
PARAMS = {
    "spawn": {"tasks": 0},
    "sleep": {"tasks": 0, "delay-ms": 0},
    "timer": {"step-us": 1, "total-ms": 1},
    "doxbee": {"requests": 0, "io-ms": 0},
    "parallel": {"requests": 0, "fanout": 1, "io-ms": 0},
    "skynet": {"size": 1},
    "pingpong": {"pairs": 0, "rounds": 1},
    "chain": {"length": 1},
    "yield": {"tasks": 0, "yields": 0},
    "echo": {"connections": 0, "rounds": 1, "bytes": 1},
    "connections": {"connections": 0},
}


@dataclass
class Outcome:
    """What an iteration produced when it has more to say than its checksum."""

    checksum: int
    extra: dict[str, int] = field(default_factory=dict)


# A scenario takes its parameters as keyword arguments (`delay-ms` as `delay_ms`) and
# returns its checksum, or an Outcome with extras.
Scenario = Callable[..., Coroutine[Any, Any, int | Outcome]]
# Starts an event loop, runs the async function in it to the end, returns its result.
LoopStarter = Callable[[Callable[[], Coroutine[Any, Any, Any]]], Any]


# Why a runtime cannot run a scenario at these parameters, or None when it can.
Declines = Callable[[str, Mapping[str, int]], str | None]


def run(
    scenarios: Mapping[str, Scenario],
    start_loop: LoopStarter,
    declines: Declines | None = None,
) -> None:
    """Runs the invocation on the command line and prints its result lines. `declines`
    answers n/a, before any iteration, at a point the runtime cannot state (python-uvloop's
    timer steps)."""
    name, params, warmup_params, warmup, iterations = parse(sys.argv[1:])
    scenario = scenarios.get(name)
    if scenario is None:
        fail(EXIT_NOT_IMPLEMENTED, f"{name} not implemented by this contestant")
    for asked in (params, warmup_params):
        reason = declines(name, asked) if declines else None
        if reason:
            fail(EXIT_NOT_IMPLEMENTED, f"{name} not implemented: {reason}")

    async def warm_then_measure() -> None:
        for _ in range(warmup):
            await scenario(**warmup_params)
        for _ in range(iterations):
            cpu_start = process_time_ns()
            start = perf_counter_ns()
            result = await scenario(**params)
            elapsed_ns = perf_counter_ns() - start
            print_line(elapsed_ns, process_time_ns() - cpu_start, result)

    start_loop(warm_then_measure)


def run_blocking(scenarios: Mapping[str, Callable[..., int | Outcome]]) -> None:
    """`run` for a runtime with no event loop to start and no coroutines, whose scenarios are
    plain functions that block (python-gevent's greenlets): each is called from a coroutine
    that never suspends, so `run`'s one loop of iterations drives them, in a single step."""

    def as_coroutine(blocking: Callable[..., int | Outcome]) -> Scenario:
        async def scenario(**params: int) -> int | Outcome:
            return blocking(**params)

        return scenario

    run({name: as_coroutine(fn) for name, fn in scenarios.items()}, run_to_end)


def run_to_end(main: Callable[[], Coroutine[Any, Any, Any]]) -> None:
    """Runs a coroutine that never suspends to its end, in one step."""
    try:
        main().send(None)
    except StopIteration:
        return
    raise RuntimeError("a blocking scenario's coroutine suspended")


def print_line(elapsed_ns: int, cpu_ns: int, result: int | Outcome) -> None:
    """One measured iteration's JSON line, flushed before the next iteration starts."""
    outcome = result if isinstance(result, Outcome) else Outcome(result)
    line = {
        "elapsed_ns": elapsed_ns,
        "cpu_ns": cpu_ns,
        "checksum": outcome.checksum,
        "extra": outcome.extra,
    }
    print(json.dumps(line, separators=(",", ":")), flush=True)


def parse(args: list[str]) -> tuple[str, dict[str, int], dict[str, int], int, int]:
    """`<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
    --iterations M` → name, keyword arguments of the measured iterations and of the warm-up
    ones, K, M."""
    if not args or args[0] not in PARAMS:
        given = f"unknown scenario '{args[0]}'" if args else "no scenario named"
        fail(EXIT_USAGE, f"{given} (known: {', '.join(PARAMS)})")
    name, flags = args[0], args[1:]
    params = PARAMS[name]
    if len(flags) % 2:
        fail(EXIT_USAGE, f"'{flags[-1]}' needs a value")
    values, warmup_values = {}, {}
    for flag, text in zip(flags[::2], flags[1::2], strict=True):
        key = flag.removeprefix("--")
        param = key.removeprefix(WARMUP_PARAM_PREFIX)
        if flag == key or (
            key not in params
            and key not in (WARMUP_FLAG, ITERATIONS_FLAG)
            and (param == key or param not in params)
        ):
            fail(
                EXIT_USAGE,
                f"{name} takes no '{flag}' (it takes --{' --'.join(params)}"
                f" and --{WARMUP_PARAM_PREFIX}<param>)",
            )
        if not (text.isascii() and text.isdigit()):
            fail(EXIT_USAGE, f"{flag}: '{text}' is not a whole number")
        if param != key:
            warmup_values[param] = int(text)
        else:
            values[key] = int(text)
    for param in (*params, ITERATIONS_FLAG):
        if param not in values:
            fail(EXIT_USAGE, f"{name} needs --{param}")
    warmup = values.pop(WARMUP_FLAG, 0)
    iterations = values.pop(ITERATIONS_FLAG)
    for prefix, given in (("", values), (WARMUP_PARAM_PREFIX, warmup_values)):
        check_values(name, given, prefix)
    if iterations < 1:
        fail(EXIT_USAGE, f"--{ITERATIONS_FLAG} must be at least 1, got {iterations}")
    return name, kwargs(values), kwargs({**values, **warmup_values}), warmup, iterations


def check_values(name: str, values: dict[str, int], prefix: str) -> None:
    """Refuses a parameter below its least value, or a skynet size that is not a power of 10
    (it would split leaves of size 0 forever); `prefix` names the flags in the message."""
    for param, value in values.items():
        least = PARAMS[name][param]
        if value < least:
            fail(EXIT_USAGE, f"--{prefix}{param} must be at least {least}, got {value}")
    if name == "skynet" and "size" in values and str(values["size"]).rstrip("0") != "1":
        fail(EXIT_USAGE, f"--{prefix}size must be a power of 10, got {values['size']}")


def kwargs(values: dict[str, int]) -> dict[str, int]:
    """Parameters as keyword arguments: `delay-ms` as `delay_ms`."""
    return {key.replace("-", "_"): value for key, value in values.items()}


def oversleep_outcome(slept_ns: list[int], step_ns: int) -> Outcome:
    """The timer scenario's result: the number of sleeps, and how much later than asked they
    woke up (nearest-rank percentiles of actual − step, clamped at 0, in nanoseconds)."""
    over = sorted(max(slept - step_ns, 0) for slept in slept_ns)

    def rank(q: float) -> int:
        return over[min(max(math.ceil(q * len(over)), 1), len(over)) - 1] if over else 0

    return Outcome(
        checksum=len(slept_ns),
        extra={
            "oversleep_p50_ns": rank(0.50),
            "oversleep_p99_ns": rank(0.99),
            "oversleep_max_ns": rank(1.0),
        },
    )


def fail(status: int, reason: str) -> NoReturn:
    """Says why on stderr (the harness keeps it) and exits with the protocol's status."""
    print(f"{os.path.basename(sys.argv[0])}: {reason}", file=sys.stderr)
    sys.exit(status)
