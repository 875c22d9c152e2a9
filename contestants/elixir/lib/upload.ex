defmodule Taskbench.Upload do
  @moduledoc """
  One doxbee "upload" request (docs/SEEDS.md#doxbee-sequential, docs/PROTOCOL.md §4):
  seven fake I/O steps in sequence, each a `Process.sleep/1` on the BEAM's timer, with
  the synchronous work between. What the synchronous steps build rides along in the
  request's state until it ends, as it stays alive in the original's closures.
  """

  alias Taskbench.Transaction

  defstruct [:blob, :tx, :version, :file, :uuid]

  @doc "Runs request `i` in the calling process; returns its fake I/O count."
  def run(i, io_ms) do
    # 1. Create the blob and begin the transaction.
    %__MODULE__{blob: "blob-#{i}", tx: Transaction.begin(i)}
    # 2. Put the blob; 3. look the file up: it never exists.
    |> io(2, io_ms)
    |> io(3, io_ms)
    |> version(i)
    # 5. Insert the version.
    |> io(5, io_ms)
    |> create_file(i)
    # 6. Execute the "create file" query; 7. insert the file–version link;
    # 8. update the file's current version; 9. commit.
    |> io(6, io_ms)
    |> io(7, io_ms)
    |> io(8, io_ms)
    |> io(9, io_ms)
    |> then(& &1.tx.ops)
  end

  # A fake I/O op of the request; its params are the step number.
  defp io(upload, step, io_ms), do: %{upload | tx: Transaction.io(upload.tx, step, io_ms)}

  # 4. The version record; the time is the wall clock as a number, as the other
  # contestants keep it.
  defp version(upload, i) do
    record = %{
      user_id: i,
      created: System.system_time(),
      blob_id: i,
      creator: "user-#{i}",
      previous_id: nil,
      hash: "hash"
    }

    %{upload | version: record}
  end

  # 6. The file is named after the path's last segment; its uuid is i in 32 hex digits.
  defp create_file(upload, i) do
    file = "/files/#{i}/upload.bin" |> String.split("/") |> List.last()
    %{upload | file: file, uuid: Base.encode16(<<i::128>>, case: :lower)}
  end
end

defmodule Taskbench.Transaction do
  @moduledoc """
  A request's transaction and its fake I/O ops (docs/PROTOCOL.md §4 "One fake I/O op"),
  shared by doxbee and parallel. As in bluebird's fake database call, each op makes a new
  query, a map holding a new params map (the op's index within its request) and the
  transaction, and makes the call with it; the call reads the transaction, and the query is
  garbage from then on, as the seed's is. The op is then a
  `Process.sleep/1` on the BEAM's timer in the calling process, which is the op's
  completion, and counts in the transaction.
  """

  @doc "Begins request `id`'s transaction: no ops done yet."
  def begin(id), do: %{id: id, ops: 0}

  @doc "Runs op `index` of the transaction; returns the transaction with the op counted."
  def io(tx, index, io_ms), do: call(%{params: %{index: index}, tx: tx}, io_ms)

  defp call(%{tx: tx}, io_ms) do
    Process.sleep(io_ms)
    %{tx | ops: tx.ops + 1}
  end
end
