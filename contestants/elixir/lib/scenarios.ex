defmodule Taskbench.Scenarios do
  @moduledoc """
  The scenarios of docs/PROTOCOL.md §4 for the Elixir contestants. They differ only in
  how a process is started and joined, which each contestant gives through the callbacks
  below; everything a process does (sleeping, messaging, yielding, `:gen_tcp`) is the
  same BEAM code in all of them.
  """

  @doc """
  Runs `fun.(0)` … `fun.(count - 1)` each in a process of its own, waits for them all
  and returns the sum of their results.
  """
  @callback join_sum(count :: non_neg_integer, fun :: (non_neg_integer -> integer)) :: integer

  @doc "Starts `fun` in a process nobody waits for; returns its pid."
  @callback start(fun :: (() -> any)) :: pid

  @doc """
  Starts `fun` in a process of its own, to be joined with `c:await_sum/1`; returns its
  handle. A process joins one group of them at a time.
  """
  @callback async(fun :: (() -> integer)) :: term

  @doc "The pid of a process started with `c:async/1`."
  @callback pid(task :: term) :: pid

  @doc "Waits for every process of `tasks` (from `c:async/1`); the sum of their results."
  @callback await_sum(tasks :: [term]) :: integer

  @doc "One iteration: the checksum, or the checksum and the extra figures."
  def run("spawn", %{tasks: tasks}, contestant), do: contestant.join_sum(tasks, & &1)

  def run("sleep", %{tasks: tasks, delay_ms: delay}, contestant) do
    contestant.join_sum(tasks, fn i ->
      Process.sleep(delay)
      i
    end)
  end

  def run("timer", %{step_us: step_us, total_ms: total_ms}, _contestant) do
    step_ms = step_ms(step_us)
    step_ns = step_us * 1000

    slept =
      for _ <- 1..div(total_ms * 1000, step_us)//1 do
        start = System.monotonic_time(:nanosecond)
        Process.sleep(step_ms)
        System.monotonic_time(:nanosecond) - start
      end

    oversleep(slept, step_ns)
  end

  def run("doxbee", %{requests: requests, io_ms: io_ms}, contestant) do
    contestant.join_sum(requests, &Taskbench.Upload.run(&1, io_ms))
  end

  def run("parallel", %{requests: requests, fanout: fanout, io_ms: io_ms}, contestant) do
    contestant.join_sum(requests, fn i ->
      # Ops 0 … fanout − 1 at once, each in a process of its own and counted in its copy of
      # the transaction, then the commit, op fanout.
      tx = Taskbench.Transaction.begin(i)
      done = contestant.join_sum(fanout, &Taskbench.Transaction.io(tx, &1, io_ms).ops)
      done + Taskbench.Transaction.io(tx, fanout, io_ms).ops
    end)
  end

  # The root runs in a process of its own, as in the original.
  def run("skynet", %{size: size}, contestant) do
    contestant.join_sum(1, fn _ -> skynet(0, size, contestant) end)
  end

  def run("pingpong", %{pairs: pairs, rounds: rounds}, contestant) do
    contestant.join_sum(pairs, fn _ -> rally(contestant.start(&ponger/0), rounds, 0) end)
  end

  def run("chain", %{length: length}, contestant) do
    main = self()
    contestant.start(fn -> link(1, 0, length, main, contestant) end)

    receive do
      {:chain, sum} -> sum
    end
  end

  def run("yield", %{tasks: tasks, yields: yields}, contestant) do
    contestant.join_sum(tasks, fn _ -> yield_times(yields, 0) end)
  end

  def run("echo", %{connections: connections, rounds: rounds, bytes: bytes}, contestant) do
    main = self()
    # The acceptor and the clients are joined together; the acceptor returns 0 once its
    # servers have ended.
    acceptor = contestant.async(fn -> serve_all(connections, &echo/1, main, nil, contestant) end)
    port = receive(do: ({:listening, port} -> port))

    clients =
      Enum.map(0..(connections - 1)//1, fn c ->
        contestant.async(fn -> echo_client(port, c, rounds, bytes) end)
      end)

    contestant.await_sum([acceptor | clients])
  end

  def run("connections", %{connections: connections}, contestant) do
    main = self()
    acceptor = contestant.async(fn -> serve_all(connections, &hold/1, main, main, contestant) end)
    port = receive(do: ({:listening, port} -> port))

    clients =
      Enum.map(0..(connections - 1)//1, fn c ->
        contestant.async(fn -> held_client(port, c, main) end)
      end)

    # Go once every client is connected and every connection accepted, its server started.
    connected = for _ <- 1..connections//1, do: receive(do: ({:connected, client} -> client))

    receive do
      :accepted -> :ok
    end

    Enum.each(connected, &send(&1, :go))
    contestant.await_sum([acceptor | clients])
  end

  # A leaf returns its number, an inner node the sum of its ten children.
  defp skynet(num, 1, _contestant), do: num

  defp skynet(num, size, contestant) do
    part = div(size, 10)
    contestant.join_sum(10, fn k -> skynet(num + k * part, part, contestant) end)
  end

  # The pinger's side of a pair: `rounds` round trips, then the ponger is stopped.
  defp rally(ponger, rounds, rounds) do
    send(ponger, :stop)
    rounds
  end

  defp rally(ponger, rounds, trips) do
    send(ponger, {:ping, self()})

    receive do
      :pong -> rally(ponger, rounds, trips + 1)
    end
  end

  defp ponger do
    receive do
      {:ping, pinger} ->
        send(pinger, :pong)
        ponger()

      :stop ->
        :ok
    end
  end

  # Link 1 is started with the sum 0; link n adds n to the sum it was handed, starts link
  # n + 1 with the new sum and ends; the last one sends the sum to the main process.
  defp link(length, sum, length, main, _contestant), do: send(main, {:chain, sum + length})

  defp link(n, sum, length, main, contestant) do
    contestant.start(fn -> link(n + 1, sum + n, length, main, contestant) end)
  end

  defp yield_times(0, done), do: done

  defp yield_times(left, done) do
    :erlang.yield()
    yield_times(left - 1, done + 1)
  end

  # The acceptor: listens on 127.0.0.1, an ephemeral port it tells `main`, with a backlog of
  # one per connection, passive, TCP_NODELAY (inherited by every accepted socket, as are the
  # other options) and reads of up to 64 KiB (`recv(s, 0)` returns at most `:buffer` bytes,
  # 1460 by default); accepts `connections` connections, each handed to a server process of
  # its own (`controlling_process`, then a message telling it so); closes the listener, tells
  # `accepted` (unless nil) that all are accepted, and returns 0 once every server has ended.
  # The listener is its own, so that closing it sends no exit signal to another process.
  defp serve_all(connections, serve, main, accepted, contestant) do
    {:ok, listen} =
      :gen_tcp.listen(0, [
        :binary,
        active: false,
        ip: {127, 0, 0, 1},
        backlog: connections,
        nodelay: true,
        reuseaddr: true,
        buffer: 65536
      ])

    {:ok, port} = :inet.port(listen)
    send(main, {:listening, port})

    servers =
      Enum.map(1..connections//1, fn _ ->
        {:ok, socket} = :gen_tcp.accept(listen)

        server =
          contestant.async(fn ->
            receive do
              {:owner, ^socket} -> serve.(socket)
            end

            0
          end)

        :ok = :gen_tcp.controlling_process(socket, contestant.pid(server))
        send(contestant.pid(server), {:owner, socket})
        server
      end)

    :ok = :gen_tcp.close(listen)
    if accepted, do: send(accepted, :accepted)
    contestant.await_sum(servers)
  end

  defp connect(port) do
    {:ok, socket} =
      :gen_tcp.connect({127, 0, 0, 1}, port, [:binary, active: false, nodelay: true])

    socket
  end

  # An echo server: writes back whatever has arrived until the client closes.
  defp echo(socket) do
    case :gen_tcp.recv(socket, 0) do
      {:ok, data} ->
        :ok = :gen_tcp.send(socket, data)
        echo(socket)

      {:error, :closed} ->
        :gen_tcp.close(socket)
    end
  end

  # Client c: a round's `bytes` bytes of (c + r) mod 255 + 1 in one write, read back whole
  # (`recv(s, bytes)` returns exactly that many) and added up byte by byte.
  defp echo_client(port, c, rounds, bytes) do
    socket = connect(port)
    sum = rounds(socket, c, 0, rounds, bytes, 0)
    :ok = :gen_tcp.close(socket)
    sum
  end

  defp rounds(_socket, _c, rounds, rounds, _bytes, sum), do: sum

  defp rounds(socket, c, r, rounds, bytes, sum) do
    :ok = :gen_tcp.send(socket, :binary.copy(<<rem(c + r, 255) + 1>>, bytes))
    {:ok, echo} = :gen_tcp.recv(socket, bytes)
    rounds(socket, c, r + 1, rounds, bytes, sum_bytes(echo, sum))
  end

  defp sum_bytes(<<byte, rest::binary>>, sum), do: sum_bytes(rest, sum + byte)
  defp sum_bytes(<<>>, sum), do: sum

  # A held connection's server: waits for its one byte, echoes it, waits for the end.
  defp hold(socket) do
    {:ok, byte} = :gen_tcp.recv(socket, 1)
    :ok = :gen_tcp.send(socket, byte)
    {:error, :closed} = :gen_tcp.recv(socket, 0)
    :gen_tcp.close(socket)
  end

  # Client c of `connections`: connects, says so, waits for go, then one byte each way.
  defp held_client(port, c, main) do
    socket = connect(port)
    send(main, {:connected, self()})

    receive do
      :go -> :ok
    end

    :ok = :gen_tcp.send(socket, <<rem(c, 255) + 1>>)
    {:ok, <<byte>>} = :gen_tcp.recv(socket, 1)
    :ok = :gen_tcp.close(socket)
    byte
  end

  # The timer's step in whole milliseconds, the unit of every BEAM timer (`Process.sleep/1`,
  # `Process.send_after/3`, `receive ... after`). Another step is declined (n/a) rather than
  # rounded up, which would measure the rounding as oversleep.
  defp step_ms(step_us) when rem(step_us, 1000) == 0, do: div(step_us, 1000)

  defp step_ms(step_us) do
    raise Taskbench.Protocol.Unsupported,
          "the BEAM's timers count whole milliseconds: a step of #{step_us} us " <>
            "would sleep #{div(step_us + 999, 1000)} ms"
  end

  # The number of sleeps and the nearest-rank percentiles of how much later than the step
  # each one ended, clamped at 0.
  defp oversleep(slept, step_ns) do
    over = slept |> Enum.map(&max(&1 - step_ns, 0)) |> Enum.sort() |> List.to_tuple()
    count = tuple_size(over)
    rank = fn q -> elem(over, min(max(ceil(q * count), 1), count) - 1) end

    {count,
     oversleep_p50_ns: rank.(0.50), oversleep_p99_ns: rank.(0.99), oversleep_max_ns: rank.(1.0)}
  end
end
