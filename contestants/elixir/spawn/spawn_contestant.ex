defmodule Taskbench.SpawnContestant do
  @moduledoc """
  `elixir-spawn`: a process is a bare `spawn/1` that sends its result to the parent,
  which collects the results with `receive` — no links, monitors or Task bookkeeping.
  """

  @behaviour Taskbench.Scenarios

  def main, do: Taskbench.Protocol.main(__MODULE__)

  @impl true
  def join_sum(count, fun) do
    parent = self()
    Enum.each(0..(count - 1)//1, fn i -> spawn(fn -> send(parent, {:result, fun.(i)}) end) end)
    collect(count, 0)
  end

  @impl true
  def start(fun), do: spawn(fun)

  # A process joined later is a bare spawn too, its handle its pid; its group is joined by
  # counting results, as join_sum does.
  @impl true
  def async(fun) do
    parent = self()
    spawn(fn -> send(parent, {:result, fun.()}) end)
  end

  @impl true
  def pid(pid), do: pid

  @impl true
  def await_sum(pids), do: collect(length(pids), 0)

  defp collect(0, sum), do: sum

  defp collect(left, sum) do
    receive do
      {:result, value} -> collect(left - 1, sum + value)
    end
  end
end
