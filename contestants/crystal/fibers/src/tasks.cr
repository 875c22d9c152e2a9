# The scenarios that are pure task work: spawn, sleep, timer, skynet, pingpong, chain and
# yield, each with the fiber, sleep, channel or Fiber.yield that Crystal programs use.

module Tasks
  # Runs the block for 0 … n-1, each in its own fiber, and sums their results as they
  # arrive on one unbuffered channel: Crystal's spawn-and-join (fibers have no join; the
  # language reference collects fibers' results over a channel).
  def self.spawn_sum(n : Int32, &task : Int32 -> Int64) : Int64
    results = Channel(Int64).new
    n.times { |i| spawn { results.send(task.call(i)) } }
    sum = 0_i64
    n.times { sum += results.receive }
    sum
  end

  def self.spawn_many(tasks : Int32) : Int64
    spawn_sum(tasks) { |i| i.to_i64 }
  end

  def self.sleep_many(tasks : Int32, delay : Time::Span) : Int64
    spawn_sum(tasks) do |i|
      sleep delay
      i.to_i64
    end
  end

  # Sleeps `step` `count` times in sequence in the main fiber, timing every sleep.
  def self.timer(step : Time::Span, count : Int32) : Protocol::Outcome
    slept = Array(Time::Span).new(count)
    count.times do
      start = Time.monotonic
      sleep step
      slept << Time.monotonic - start
    end
    Protocol.oversleep(slept, step)
  end

  # Starts the root node in its own fiber, as the original does, and waits for the sum of
  # the tree.
  def self.skynet(size : Int32) : Int64
    root = Channel(Int64).new
    spawn skynet_node(root, 0_i64, size)
    root.receive
  end

  # Sends its sum to `parent`: a leaf its own number, an inner node the sum of its ten
  # children, which reply on one unbuffered channel per inner node as in the original.
  private def self.skynet_node(parent : Channel(Int64), num : Int64, size : Int32) : Nil
    if size == 1
      parent.send(num)
      return
    end
    children = Channel(Int64).new
    part = size // 10
    10.times { |k| spawn skynet_node(children, num + k * part, part) }
    sum = 0_i64
    10.times { sum += children.receive }
    parent.send(sum)
  end

  def self.pingpong(pairs : Int32, rounds : Int32) : Int64
    spawn_sum(pairs) { pinger(rounds) }
  end

  # Starts its ponger and plays `rounds` round trips with it over two unbuffered channels;
  # returns the round trips made.
  private def self.pinger(rounds : Int32) : Int64
    ping, pong = Channel(Int64).new, Channel(Int64).new
    spawn do
      while ball = ping.receive?
        pong.send(ball)
      end
    end
    trips = 0_i64
    rounds.times do
      ping.send(trips)
      pong.receive
      trips += 1
    end
    ping.close
    trips
  end

  # Starts link 1 with the sum 0 and waits for the sum the last link sends.
  def self.chain(length : Int32) : Int64
    done = Channel(Int64).new
    spawn link(1, length, 0_i64, done)
    done.receive
  end

  # Link n adds n to the sum it was handed, starts link n+1 with the new sum and ends; the
  # last link sends the sum on `done`.
  private def self.link(n : Int32, length : Int32, sum : Int64, done : Channel(Int64)) : Nil
    sum += n
    if n == length
      done.send(sum)
    else
      spawn link(n + 1, length, sum, done)
    end
  end

  def self.yield_many(tasks : Int32, yields : Int32) : Int64
    spawn_sum(tasks) do
      count = 0_i64
      yields.times do
        Fiber.yield
        count += 1
      end
      count
    end
  end
end
