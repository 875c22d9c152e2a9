defmodule Taskbench.TaskAwaitManyContestant do
  @moduledoc """
  `elixir-task-await-many`: elixir-task with the tasks joined by one
  `Task.await_many(tasks, :infinity)`, as the 2023 async-runtimes benchmark does, instead
  of a `Task.await/2` each in order. `await_many` keeps every pending task in one map and
  grows superlinear at 100k+ tasks, so the two joins are measured apart.
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
  defdelegate start(fun), to: Taskbench.TaskContestant

  @impl true
  defdelegate async(fun), to: Taskbench.TaskContestant

  @impl true
  defdelegate pid(task), to: Taskbench.TaskContestant

  @impl true
  def await_sum(tasks), do: tasks |> Task.await_many(:infinity) |> Enum.sum()
end
