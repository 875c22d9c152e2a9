defmodule Taskbench.Protocol do
  @moduledoc """
  The contestant protocol of docs/PROTOCOL.md (version 2) for the Elixir contestants:
  reads the command line, runs the unmeasured warm-up iterations, then the M measured
  ones, timing each with the monotonic clock and the VM's CPU time (`:erlang.statistics(:runtime)`:
  every thread, whole milliseconds, the finest process CPU clock the BEAM offers without a
  NIF) and printing its JSON line, and halts the VM (tearing it down is not part of the
  workload).
  """

  # Parameters of every scenario, in catalogue order, as OptionParser names them.
  @params %{
    "spawn" => [:tasks],
    "sleep" => [:tasks, :delay_ms],
    "timer" => [:step_us, :total_ms],
    "doxbee" => [:requests, :io_ms],
    "parallel" => [:requests, :fanout, :io_ms],
    "skynet" => [:size],
    "pingpong" => [:pairs, :rounds],
    "chain" => [:length],
    "yield" => [:tasks, :yields],
    "echo" => [:connections, :rounds, :bytes],
    "connections" => [:connections]
  }

  defmodule Unsupported do
    @moduledoc "Raised by a scenario for a case the runtime cannot express; the message says why."
    defexception [:message]
  end

  @doc """
  Runs the invocation in `System.argv/0` with `contestant`'s way of starting processes
  (a `Taskbench.Scenarios` implementation) and halts: status 0 after the last result
  line, 2 when the command line is not understood, 69 (n/a) when the scenario raises
  `Taskbench.Protocol.Unsupported` (before any line).
  """
  def main(contestant) do
    case parse(System.argv()) do
      {:ok, scenario, params, warmup_params, warmup, iterations} ->
        run = fn params -> Taskbench.Scenarios.run(scenario, params, contestant) end

        try do
          Enum.each(1..warmup//1, fn _ -> run.(warmup_params) end)

          Enum.each(1..iterations, fn _ ->
            cpu_start = cpu_ns()
            start = System.monotonic_time(:nanosecond)
            outcome = run.(params)
            elapsed = System.monotonic_time(:nanosecond) - start
            cpu = cpu_ns() - cpu_start
            # Returns once the I/O server has taken the line, before the next iteration.
            IO.puts(result_line(elapsed, cpu, outcome))
          end)
        rescue
          e in Unsupported ->
            IO.puts(:stderr, "#{scenario} not implemented: #{e.message}")
            System.halt(69)
        end

        System.halt(0)

      {:error, reason} ->
        IO.puts(:stderr, "#{inspect(contestant)}: #{reason}")
        System.halt(2)
    end
  end

  # `<scenario> --<param> <value> … [--warmup-<param> <value> …] --inner-warmup K
  # --iterations M`; every parameter is required. A `--warmup-<param>` gives the parameter
  # another value in the warm-up iterations only.
  defp parse([scenario | args]) when is_map_key(@params, scenario) do
    names = [:inner_warmup, :iterations | @params[scenario]]
    warmup_names = Map.new(@params[scenario], &{:"warmup_#{&1}", &1})
    switches = Enum.map(names ++ Map.keys(warmup_names), &{&1, :integer})
    {values, rest, invalid} = OptionParser.parse(args, strict: switches)
    missing = Enum.reject(names, &Keyword.has_key?(values, &1))

    cond do
      rest != [] or invalid != [] ->
        words = rest ++ Enum.map(invalid, fn {flag, value} -> "#{flag} #{value}" end)
        {:error, "not understood: #{Enum.join(words, " ")}"}

      missing != [] ->
        {:error, "#{scenario} needs #{Enum.map_join(missing, ", ", &flag/1)}"}

      Enum.any?(values, fn {_, value} -> value < 0 end) ->
        {:error, "counts cannot be negative: #{inspect(values)}"}

      values[:iterations] < 1 ->
        {:error, "--iterations must be at least 1"}

      true ->
        {warmup_values, values} = Map.split(Map.new(values), Map.keys(warmup_names))
        {counts, params} = Map.split(values, [:inner_warmup, :iterations])
        overrides = Map.new(warmup_values, fn {name, value} -> {warmup_names[name], value} end)
        warmup_params = Map.merge(params, overrides)
        {:ok, scenario, params, warmup_params, counts.inner_warmup, counts.iterations}
    end
  end

  defp parse([scenario | _]), do: {:error, "unknown scenario #{inspect(scenario)}"}
  defp parse([]), do: {:error, "missing scenario"}

  defp flag(name), do: "--" <> String.replace(Atom.to_string(name), "_", "-")

  # The CPU time of every thread of the VM so far, in nanoseconds (counted in milliseconds).
  defp cpu_ns do
    {runtime_ms, _since_last_call} = :erlang.statistics(:runtime)
    runtime_ms * 1_000_000
  end

  # `{"elapsed_ns":…,"cpu_ns":…,"checksum":…,"extra":{…}}`, written by hand: every figure is
  # an integer.
  defp result_line(elapsed, cpu, {checksum, extra}) do
    figures = Enum.map_join(extra, ",", fn {name, value} -> ~s("#{name}":#{value}) end)
    ~s({"elapsed_ns":#{elapsed},"cpu_ns":#{cpu},"checksum":#{checksum},"extra":{#{figures}}})
  end

  defp result_line(elapsed, cpu, checksum), do: result_line(elapsed, cpu, {checksum, []})
end
