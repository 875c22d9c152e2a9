defmodule Taskbench.TaskContestant do
  @moduledoc """
  `elixir-task`: a process is a `Task.async/1`, awaited one by one in the order started
  with `Task.await/2`, as async_bench (seed 003) does; one nobody waits for is a
  `Task.start/1`. async_bench awaits with a 10 s timeout; here it is `:infinity`, as a
  task may rightly take longer (sleep at 10 s in the million preset, skynet 1M).
  """

  @behaviour Taskbench.Scenarios

  def main, do: Taskbench.Protocol.main(__MODULE__)

  @impl true
  def join_sum(count, fun) do
    0..(count - 1)//1
    |> Enum.map(fn i -> Task.async(fn -> fun.(i) end) end)
    |> Enum.reduce(0, fn task, sum -> sum + Task.await(task, :infinity) end)
  end

  @impl true
  def start(fun) do
    {:ok, pid} = Task.start(fun)
    pid
  end

  @impl true
  def async(fun), do: Task.async(fun)

  @impl true
  def pid(%Task{pid: pid}), do: pid

  @impl true
  def await_sum(tasks), do: Enum.reduce(tasks, 0, &(Task.await(&1, :infinity) + &2))
end
