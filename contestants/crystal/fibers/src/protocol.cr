# The contestant protocol of docs/PROTOCOL.md (version 2): read the command line, run the
# unmeasured warm-up iterations, then the M measured ones, each timed by the monotonic clock
# and the process's CPU clock and followed by its one line.

# Linux's clock of the CPU time of every thread of the process (<time.h>): Crystal 1.6's
# LibC binds clock_gettime but names only the clocks its standard library reads.
{% unless LibC.has_constant?("CLOCK_PROCESS_CPUTIME_ID") %}
  lib LibC
    CLOCK_PROCESS_CPUTIME_ID = 2
  end
{% end %}

module Protocol
  # The iterations run unmeasured before the measured ones, and how many are measured (at
  # least 1); `--warmup-<param> V` gives a parameter another value in the warm-up only.
  WARMUP_FLAG       = "inner-warmup"
  ITERATIONS_FLAG   = "iterations"
  WARMUP_PARAM_FLAG = "warmup-"

  # The value of every parameter of a scenario by its command-line name.
  alias Params = Hash(String, Int32)

  # One named number of the result line's "extra" object.
  alias Figure = {String, Int64}

  # What one iteration produced: its checksum and scenario-specific figures.
  record Outcome, checksum : Int64, extra = [] of Figure

  # One workload: its parameters in catalogue order and one iteration of it.
  record Scenario, params : Array(String), run : Params -> Outcome

  # A command line understood: the scenario, its parameters in the measured iterations and
  # in the warm-up ones, and how many iterations of each to run.
  record Invocation, scenario : Scenario, values : Params, warm_values : Params,
    warmup : Int32, iterations : Int32

  # A command line not understood (exit 2).
  class UsageError < Exception
  end

  # Runs the invocation in `args` and returns the exit status: 0, or 2 when the command
  # line is not understood.
  def self.serve(scenarios : Hash(String, Scenario), args : Array(String)) : Int32
    invocation = parse(scenarios, args)
    invocation.warmup.times { invocation.scenario.run.call(invocation.warm_values) }
    invocation.iterations.times do
      cpu_start = process_cpu_ns
      start = Time.monotonic
      outcome = invocation.scenario.run.call(invocation.values)
      elapsed = Time.monotonic - start
      cpu = process_cpu_ns - cpu_start
      # STDOUT is buffered when it is not a terminal: the line goes out before the next
      # iteration starts.
      STDOUT.puts result_line(elapsed.total_nanoseconds.to_i64, cpu, outcome)
      STDOUT.flush
    end
    0
  rescue error : UsageError
    STDERR.puts "crystal-fibers: #{error.message}"
    2
  end

  # Reads `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
  # --iterations M`; every parameter is required.
  def self.parse(scenarios : Hash(String, Scenario), args : Array(String)) : Invocation
    name = args.first? || raise UsageError.new("missing scenario")
    scenario = scenarios[name]? || raise UsageError.new("unknown scenario #{name.inspect}")
    values, overrides = Params.new, Params.new
    args.skip(1).each_slice(2) do |pair|
      param, value = flag_value(pair)
      warm = param.lchop?(WARMUP_PARAM_FLAG)
      if warm && scenario.params.includes?(warm)
        overrides[warm] = value
      else
        values[param] = value
      end
    end
    flags = scenario.params + [WARMUP_FLAG, ITERATIONS_FLAG]
    flags.each { |flag| values.has_key?(flag) || raise UsageError.new("#{name} needs --#{flag}") }
    if values.size != flags.size
      raise UsageError.new("#{name} takes only --#{flags.join(", --")} and --#{WARMUP_PARAM_FLAG}<param>")
    end
    warmup, iterations = values.delete(WARMUP_FLAG).not_nil!, values.delete(ITERATIONS_FLAG).not_nil!
    raise UsageError.new("--#{ITERATIONS_FLAG} must be at least 1") if iterations < 1
    Invocation.new(scenario, values, values.merge(overrides), warmup, iterations)
  end

  # One `--<param> <value>` pair: the parameter's name and its count.
  private def self.flag_value(pair : Array(String)) : {String, Int32}
    param = pair[0].lchop?("--")
    raise UsageError.new("expected --<param> <value>, got #{pair}") unless param && pair.size == 2
    value = pair[1].to_i32?
    raise UsageError.new("--#{param}: #{pair[1].inspect} is not a count") unless value && value >= 0
    {param, value}
  end

  # The CPU time (user + system, every thread) the process has used so far, in ns.
  def self.process_cpu_ns : Int64
    return 0_i64 unless LibC.clock_gettime(LibC::CLOCK_PROCESS_CPUTIME_ID, out now) == 0
    now.tv_sec.to_i64 * 1_000_000_000 + now.tv_nsec.to_i64
  end

  # `{"elapsed_ns":…,"cpu_ns":…,"checksum":…,"extra":{…}}`, written by hand as every figure
  # is an integer.
  def self.result_line(elapsed_ns : Int64, cpu_ns : Int64, outcome : Outcome) : String
    extra = outcome.extra.join(",") { |name, value| %("#{name}":#{value}) }
    %({"elapsed_ns":#{elapsed_ns},"cpu_ns":#{cpu_ns},"checksum":#{outcome.checksum},"extra":{#{extra}}})
  end

  # The timer scenario's outcome: the number of sleeps, and the nearest-rank percentiles of
  # how much later than `step` each sleep ended, clamped at 0.
  def self.oversleep(slept : Array(Time::Span), step : Time::Span) : Outcome
    over = slept.map { |span| Math.max(span - step, Time::Span.zero).total_nanoseconds.to_i64 }.sort!
    Outcome.new(slept.size.to_i64, [{"oversleep_p50_ns", rank(over, 0.50)},
                                    {"oversleep_p99_ns", rank(over, 0.99)},
                                    {"oversleep_max_ns", rank(over, 1.0)}])
  end

  # The nearest-rank `q` quantile of `sorted`, 0 if it is empty.
  private def self.rank(sorted : Array(Int64), q : Float64) : Int64
    return 0_i64 if sorted.empty?
    sorted[(q * sorted.size).ceil.to_i.clamp(1, sorted.size) - 1]
  end
end
