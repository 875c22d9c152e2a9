defmodule Taskbench.Upload do
  @moduledoc """
  One doxbee "upload" request (docs/SEEDS.md#doxbee-sequential, docs/PROTOCOL.md §4):
  seven fake I/O steps in sequence, each a `Process.sleep/1` on the BEAM's timer, with
  the synchronous work between. What the synchronous steps build rides along in the
  request's state until it ends, as it stays alive in the original's closures.
  """

  defstruct [:blob, :tx, :version, :file, :uuid, ios: 0]

  @doc "Runs request `i` in the calling process; returns its fake I/O count."
  def run(i, io_ms) do
    # 1. Create the blob and begin the transaction.
    %__MODULE__{blob: "blob-#{i}", tx: i}
    # 2. Put the blob; 3. look the file up: it never exists.
    |> io(io_ms)
    |> io(io_ms)
    |> version(i)
    # 5. Insert the version.
    |> io(io_ms)
    |> create_file(i)
    # 6. Execute the "create file" query; 7. insert the file–version link;
    # 8. update the file's current version; 9. commit.
    |> io(io_ms)
    |> io(io_ms)
    |> io(io_ms)
    |> io(io_ms)
    |> Map.fetch!(:ios)
  end

  defp io(upload, io_ms) do
    Process.sleep(io_ms)
    %{upload | ios: upload.ios + 1}
  end

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
