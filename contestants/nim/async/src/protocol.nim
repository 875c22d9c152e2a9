## The contestant protocol of docs/PROTOCOL.md (version 2): read the command line, run the
## unmeasured warm-up iterations, then the M measured ones, each timed by the monotonic
## clock and the process's CPU clock and followed by its one line.

import std/[algorithm, math, monotimes, posix, sequtils, strutils, tables, times]

const
  warmupFlag = "inner-warmup"   ## the iterations run unmeasured before the measured ones
  iterationsFlag = "iterations" ## how many are measured (at least 1)
  warmupParamFlag = "warmup-"   ## `--warmup-<param> V`: another value in the warm-up only

type
  Params* = Table[string, int]
    ## The value of every parameter of a scenario by its command-line name.
  Outcome* = object
    ## What one iteration produced: its checksum and scenario-specific figures.
    checksum*: int
    extra*: seq[(string, int64)]
  Scenario* = object
    ## One workload: its parameters in catalogue order and one iteration of it.
    params*: seq[string]
    run*: proc (p: Params): Outcome
  Invocation = object
    ## A command line understood: the scenario, its parameters in the measured iterations
    ## and in the warm-up ones, and how many iterations of each to run.
    scenario: Scenario
    values, warmValues: Params
    warmup, iterations: int
  UsageError = object of CatchableError
    ## A command line not understood (exit 2).

proc usage(message: string) {.noreturn.} =
  raise newException(UsageError, message)

proc flagValue(flag, text: string): (string, int) =
  ## One `--<param> <value>` pair: the parameter's name and its count.
  if not flag.startsWith("--"):
    usage("expected --<param> <value>, got " & flag)
  let value = try: parseInt(text) except ValueError: -1
  if value < 0:
    usage(flag & ": " & text.escape & " is not a count")
  (flag[2 .. ^1], value)

proc parse(scenarios: Table[string, Scenario], args: seq[string]): Invocation =
  ## Reads `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
  ## --iterations M`; every parameter is required.
  if args.len == 0: usage("missing scenario")
  let name = args[0]
  if name notin scenarios: usage("unknown scenario " & name.escape)
  if args.len mod 2 == 0: usage("expected --<param> <value>, got " & args[^1])
  result.scenario = scenarios[name]
  var overrides: Params
  for pair in countup(1, args.len - 2, 2):
    let (param, value) = flagValue(args[pair], args[pair + 1])
    let warm = param.substr(warmupParamFlag.len)
    if param.startsWith(warmupParamFlag) and warm in result.scenario.params:
      overrides[warm] = value
    else:
      result.values[param] = value
  let flags = result.scenario.params & @[warmupFlag, iterationsFlag]
  for flag in flags:
    if flag notin result.values: usage(name & " needs --" & flag)
  if result.values.len != flags.len:
    usage(name & " takes only --" & flags.join(", --") & " and --" &
        warmupParamFlag & "<param>")
  discard result.values.pop(warmupFlag, result.warmup)
  discard result.values.pop(iterationsFlag, result.iterations)
  if result.iterations < 1: usage("--" & iterationsFlag & " must be at least 1")
  result.warmValues = result.values
  for param, value in overrides: result.warmValues[param] = value

proc processCpuNs(): int64 =
  ## The CPU time (user + system, every thread) the process has used so far, in ns.
  var now: Timespec
  if clock_gettime(CLOCK_PROCESS_CPUTIME_ID, now) != 0: return 0
  now.tv_sec.int64 * 1_000_000_000 + now.tv_nsec.int64

proc resultLine(elapsedNs, cpuNs: int64, outcome: Outcome): string =
  ## `{"elapsed_ns":…,"cpu_ns":…,"checksum":…,"extra":{…}}`, written by hand as every
  ## figure is an integer.
  let extra = outcome.extra.mapIt("\"" & it[0] & "\":" & $it[1]).join(",")
  "{\"elapsed_ns\":" & $elapsedNs & ",\"cpu_ns\":" & $cpuNs & ",\"checksum\":" &
    $outcome.checksum & ",\"extra\":{" & extra & "}}"

proc serve*(scenarios: Table[string, Scenario], args: seq[string]): int =
  ## Runs the invocation in `args` and returns the exit status: 0, or 2 when the command
  ## line is not understood.
  var invocation: Invocation
  try:
    invocation = parse(scenarios, args)
  except UsageError as error:
    stderr.writeLine("nim-async: ", error.msg)
    return 2
  for _ in 1 .. invocation.warmup:
    discard invocation.scenario.run(invocation.warmValues)
  for _ in 1 .. invocation.iterations:
    let cpuStart = processCpuNs()
    let start = getMonoTime()
    let outcome = invocation.scenario.run(invocation.values)
    let elapsed = getMonoTime() - start
    let cpu = processCpuNs() - cpuStart
    # stdout is buffered when it is not a terminal: the line goes out before the next
    # iteration starts.
    stdout.writeLine(resultLine(elapsed.inNanoseconds, cpu, outcome))
    stdout.flushFile()
  0

proc oversleep*(slept: seq[Duration], step: Duration): Outcome =
  ## The timer scenario's outcome: the number of sleeps, and the nearest-rank percentiles
  ## of how much later than `step` each sleep ended, clamped at 0.
  let over = slept.mapIt(max(it - step, DurationZero).inNanoseconds).sorted
  proc rank(q: float): int64 =
    if over.len == 0: 0'i64
    else: over[clamp(int(ceil(q * over.len.float)), 1, over.len) - 1]
  Outcome(checksum: slept.len, extra: @[("oversleep_p50_ns", rank(0.50)),
    ("oversleep_p99_ns", rank(0.99)), ("oversleep_max_ns", rank(1.0))])
