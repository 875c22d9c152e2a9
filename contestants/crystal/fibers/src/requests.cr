# The bluebird request scenarios (docs/SEEDS.md#bluebird): doxbee, seven fake I/O steps in
# sequence per request, and parallel, a fan-out of fake I/O ops per request. Fake I/O is
# `sleep`, Crystal's timer, in the request's fiber.

module Requests
  # A request's transaction: it counts the fake I/O ops completed in it. Every fiber runs
  # on the one thread (no -Dpreview_mt), so a plain counter is enough.
  class Transaction
    getter ops = 0

    # One fake I/O op of the transaction: the call is made with a new query for op `index`
    # (two objects on the GC heap), which it reads and lets go at once.
    def fake_io(index : Int32, io : Time::Span) : Nil
      FakeDatabase.call(Query.new(QueryParams.new(index), self), io)
    end

    def complete : Nil
      @ops += 1
    end
  end

  # One fake I/O op's query, as bluebird's fake database call makes one per call
  # (docs/PROTOCOL.md §4 "One fake I/O op"): its params and the transaction it runs in.
  class Query
    getter params : QueryParams
    getter tx : Transaction

    def initialize(@params, @tx)
    end
  end

  # A query's parameters: the op's index within its request.
  class QueryParams
    getter index : Int32

    def initialize(@index)
    end
  end

  module FakeDatabase
    # The fake database call: nothing holds the query once its transaction is read; then
    # `sleep` in the calling fiber, whose resume event on the event loop is the op's
    # completion, and the op counts in the transaction.
    def self.call(query : Query, io : Time::Span) : Nil
      tx = query.tx
      sleep io
      tx.complete
    end
  end

  # The version record of step 4.
  record Version, user_id : Int32, created : Time, blob_id : Int32, creator : String,
    previous_id : Int32?, hash : String

  # What one doxbee request builds in its synchronous steps; it lives until the request
  # ends, as in the original's closures.
  class Upload
    getter tx = Transaction.new
    property version : Version?
    property file : String?
    property uuid : String?

    def initialize(@blob : String)
    end
  end

  def self.doxbee(requests : Int32, io : Time::Span) : Int64
    Tasks.spawn_sum(requests) { |i| doxbee_request(i, io) }
  end

  # Runs the steps of one upload in sequence and returns its fake I/O count. Each I/O op's
  # params are its step number.
  private def self.doxbee_request(i : Int32, io : Time::Span) : Int64
    # 1. Create the blob and begin the transaction.
    upload = Upload.new("blob-#{i}")
    tx = upload.tx
    tx.fake_io(2, io) # put the blob
    tx.fake_io(3, io) # look the file up: it never exists
    # 4. Build the version record.
    upload.version = Version.new(user_id: i, created: Time.utc, blob_id: i,
      creator: "user-#{i}", previous_id: nil, hash: "hash")
    tx.fake_io(5, io) # insert the version
    # 6. Name the file after the path's last segment, make its uuid, run the query.
    upload.file = "/files/#{i}/upload.bin".split('/').last
    upload.uuid = i.to_s(16).rjust(32, '0')
    tx.fake_io(6, io)
    tx.fake_io(7, io) # insert the file–version link
    tx.fake_io(8, io) # update the file's current version
    tx.fake_io(9, io) # commit
    # What the steps built lives until here, held by `upload`.
    upload.tx.ops.to_i64
  end

  def self.parallel(requests : Int32, fanout : Int32, io : Time::Span) : Int64
    Tasks.spawn_sum(requests) { parallel_request(fanout, io) }
  end

  # Starts `fanout` fake I/O ops at once (indexes 0 … fanout−1), each in a fiber of its own,
  # joins them, then commits (index `fanout`); returns the ops done.
  private def self.parallel_request(fanout : Int32, io : Time::Span) : Int64
    tx = Transaction.new
    Tasks.spawn_sum(fanout) do |k|
      tx.fake_io(k, io)
      0_i64
    end
    tx.fake_io(fanout, io) # commit
    tx.ops.to_i64
  end
end
