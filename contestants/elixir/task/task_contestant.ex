defmodule Taskbench.TaskContestant do
  @moduledoc """
  `elixir-task`: a process is a `Task.async/1`, joined with `Task.await_many/2`, as in
  async_bench and the 2023 async-runtimes benchmark; one nobody waits for is a
  `Task.start/1`.
  """

  @behaviour Taskbench.Scenarios

  def main, do: Taskbench.Protocol.main(__MODULE__)

  @impl true
  def join_sum(count, fun) do
    0..(count - 1)//1
    |> Enum.map(fn i -> Task.async(fn -> fun.(i) end) end)
    |> Task.await_many(:infinity)
    |> Enum.sum()
  end

  @impl true
  def start(fun) do
    {:ok, pid} = Task.start(fun)
    pid
  end
end
